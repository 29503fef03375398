// sinew — see include/sinew.h for version and licence
// Babylon.js adapter: plays a clip of a sinew animation (web/sinew.mjs) on nodes created by
// @babylonjs/loaders' glTF loader as a Babylon AnimationGroup does, frame for frame: the same
// members (start(loop, speedRatio, from, to), play, pause, restart, reset, stop, goToFrame, speedRatio,
// loopAnimation, from / to, weight, mask, getLength, getCurrentFrame, the six observables ...) and the
// same time keeping (adapters/babylon_clock.mjs, ported from Babylon), advanced by the scene
// (onAfterAnimationsObservable, by Babylon's own step). One anim.sample() (one wasm call) per frame
// that shows a new frame; after the first write only the outputs the runtime reports changed are
// written. Members that edit curves (the keys are compressed) throw SinewUnsupportedError.
//
// Handedness: the loader keeps every glTF node's local TRS unchanged and converts to Babylon's
// left-handed system with a `__root__` node (rotation 180° about Y, scaling z -1) above the
// scene; so the glTF-space local values of the blob are written as they are into the node the
// loader created for each glTF node (found by its `/nodes/<i>` JSON pointer in
// node._internalMetadata.gltf.pointers), never into `__root__`.
//
//   const result = await ImportMeshAsync(url, scene);      // or LoadAssetContainerAsync
//   const anim = await Sinew.load(bytes);
//   const group = new SinewAnimationGroup(anim, [...result.transformNodes, ...result.meshes], { scene, clip: 0 });
//   group.start(true);                                     // the next frame shows frame 0, as Babylon's would
import { PoseWriter } from './pose_writer.mjs';
import { BabylonGroupPlayback, SinewUnsupportedError, babylonSceneClock } from './babylon_clock.mjs';
import { engineDuration, gltfAnimationIndex, gltfChannels } from './gltf_clips.mjs';

export { SinewUnsupportedError, Observable } from './babylon_clock.mjs';

function pointerIndex(pointer) {
	const m = /^\/nodes\/(\d+)$/.exec(pointer);
	return m ? Number(m[1]) : -1;
}

// glTF node index -> Babylon node, from the loader's pointer metadata.
export function gltfNodeMap(nodes) {
	const map = new Map();
	for (const node of nodes) {
		const pointers = node?._internalMetadata?.gltf?.pointers ?? node?.metadata?.gltf?.pointers ?? [];
		for (const p of pointers) {
			const i = pointerIndex(p);
			if (i >= 0 && !map.has(i)) map.set(i, node);
		}
	}
	return map;
}

// Meshes holding the morph targets of a glTF node: the node itself (one primitive) or its
// primitive children (meshes without a /nodes/ pointer of their own).
export function morphMeshes(node) {
	const out = [];
	if (node.morphTargetManager) out.push(node);
	for (const child of node.getChildren ? node.getChildren(undefined, true) : []) {
		const pointers = child._internalMetadata?.gltf?.pointers ?? [];
		if (child.morphTargetManager && !pointers.some((p) => pointerIndex(p) >= 0)) out.push(child);
	}
	return out;
}

const rotationOf = (n) => {
	if (!n.rotationQuaternion) n.rotationQuaternion = n.rotation.toQuaternion();
	return n.rotationQuaternion;
};
export const BABYLON_SETTERS = {
	rotation: (n, v, i) => n.rotationQuaternion.set(v[i], v[i + 1], v[i + 2], v[i + 3]),
	translation: (n, v, i) => n.position.set(v[i], v[i + 1], v[i + 2]),
	scale: (n, v, i) => n.scaling.set(v[i], v[i + 1], v[i + 2]),
	morph: (target, k, value) => { target.influence = value; },
	get: (n) => { const q = rotationOf(n), p = n.position, s = n.scaling; return [q.x, q.y, q.z, q.w, p.x, p.y, p.z, s.x, s.y, s.z]; },
	getMorph: (target) => target.influence,
};

// Babylon's blending of one animation with the values its runtime animation saved at start
// (ProcessLateAnimationBindings with one animation of weight w < 1): Quaternion.SlerpToRef(original,
// value, w) for rotations, original * (1 - w) + value * w for vectors and morph influences.
export const BABYLON_MIX = {
	rotation(a, ai, b, bi, amount, out) {
		let num2, num3, num4 = a[ai] * b[bi] + a[ai + 1] * b[bi + 1] + a[ai + 2] * b[bi + 2] + a[ai + 3] * b[bi + 3], flag = false;
		if (num4 < 0) { flag = true; num4 = -num4; }
		if (num4 > 0.999999) { num3 = 1 - amount; num2 = flag ? -amount : amount; } else {
			const num5 = Math.acos(num4), num6 = 1.0 / Math.sin(num5);
			num3 = Math.sin((1.0 - amount) * num5) * num6;
			num2 = flag ? -Math.sin(amount * num5) * num6 : Math.sin(amount * num5) * num6;
		}
		for (let k = 0; k < 4; k++) out[k] = num3 * a[ai + k] + num2 * b[bi + k];
	},
	vector(a, ai, b, bi, w, out) { for (let k = 0; k < 3; k++) out[k] = a[ai + k] * (1.0 - w) + b[bi + k] * w; },
	scalar: (a, b, w) => a * (1.0 - w) + b * w,
};

const PROPERTY = { rotation: 'rotationQuaternion', translation: 'position', scale: 'scaling' };

// One TargetedAnimation-like entry per animated property: { target, animation: { name, targetProperty,
// framePerSecond, getKeys() } } (the keys are compressed: getKeys throws SinewUnsupportedError).
export function targetedAnimations(group, info, targets, morphs, json, fps, clipCount) {
	const animation = (name, targetProperty) => ({
		name, targetProperty, framePerSecond: fps,
		getKeys() { throw new SinewUnsupportedError('Animation.getKeys', 'sinew keeps the keys compressed in the blob'); },
	});
	const list = [];
	// with the glTF JSON: exactly its channels (an animation by the clip's name, else index), else every mapped output
	const a = gltfAnimationIndex(json, info, info.index, clipCount);
	const channels = a >= 0 ? gltfChannels(json, a) : null;
	info.joints.forEach((j, i) => {
		if (!targets[i]) return;
		for (const path of ['translation', 'rotation', 'scale']) {
			if (channels && !channels.has(`${j.node}:${path}`)) continue;
			list.push({ target: targets[i], animation: animation(`${targets[i].name}.${path}`, PROPERTY[path]), parent: group });
		}
	});
	info.scalars.forEach((s, k) => {
		if (channels && !channels.has(`${s.node}:weights`)) return;
		for (const m of morphs[k] ?? []) list.push({ target: m, animation: animation(`${m.name}.influence`, 'influence'), parent: group });
	});
	return list;
}

export class SinewAnimationGroup extends BabylonGroupPlayback {
	// nodes: Babylon nodes of the loaded glTF (scanned for pointers), or a Map / function from glTF
	// node index to node. options: scene (to advance with it), clip, fps (frames per second of
	// goToFrame/from/to, default 60 like the loader's targetFps), to (the last frame; default the clip's
	// duration times fps, which is Babylon's group.to for a glTF animation), name, json (the glTF JSON: the
	// targeted animations are then exactly its channels).
	constructor(anim, nodes, options = {}) {
		const clip = options.clip ?? 0, info = anim.clip(clip), fps = options.fps ?? 60;
		if (!info.joints) throw new Error('sinew Babylon adapter: the blob has no metadata (compressed with --strip)');
		// Babylon's group.to: the last key time (float32) times fps
		super(options.name ?? info.name, fps, options.to ?? engineDuration(options.json, info, clip, anim.clipCount) * fps);
		this.anim = anim;
		this.clipIndex = clip;
		this.info = info;
		this.fps = fps;
		const map = typeof nodes === 'function' ? null : nodes instanceof Map ? nodes : gltfNodeMap(nodes);
		const find = map ? (i) => map.get(i) ?? null : nodes;
		this.targets = info.joints.map((j) => (j.node === null ? null : find(j.node)));
		for (const t of this.targets) if (t) rotationOf(t);
		this.missing = info.joints.filter((j, i) => j.node !== null && !this.targets[i]).map((j) => j.node);
		this.morphs = info.scalars.map((s, k) => {
			const node = s.node === null ? null : find(s.node);
			if (!node || s.target === null || info.scalarTracks[k].components !== 1) return [];
			return morphMeshes(node).map((m) => m.morphTargetManager.getTarget(s.target)).filter(Boolean);
		});
		this._writer = new PoseWriter(anim, clip, this.targets, this.morphs, BABYLON_SETTERS);
		this._targeted = targetedAnimations(this, { ...info, index: clip }, this.targets, this.morphs, options.json, fps, anim.clipCount);
		this._saved = null;
		this.scene = options.scene ?? null;
		this._time = 0; // own clock for update(dt) without a scene (ms)
		this._observer = this.scene ? babylonSceneClock(this.scene, (ms) => this._step(ms)) : null;
	}

	/** The shown frame's time in seconds (the retained frame once stopped or ended). */
	get time() { return (this._isStarted ? this.getCurrentFrame() : this.getRetainedCurrentFrame()) / this.fps; }
	getScene() { return this.scene; }

	// 1 or -1 (Babylon's "no blending"): the clip's values; 0..1 (others clamped, as Babylon's animatables
	// do): mixed with the nodes' values at start() as Babylon mixes one group with its saved values (0 puts
	// those back once, then leaves the nodes alone). Groups blended with each other: the world adapter.
	get isAdditive() { return false; }
	set isAdditive(on) { if (on) throw new SinewUnsupportedError('AnimationGroup.isAdditive', 'additive groups need the world adapter (adapters/babylon_world.mjs), which adds layers onto others'); }
	get enableBlending() { return this._enableBlending; }
	set enableBlending(on) { if (on) throw new SinewUnsupportedError('AnimationGroup.enableBlending', 'blending between groups needs the world adapter (adapters/babylon_world.mjs)'); this._enableBlending = on; }
	get blendingSpeed() { return this._blendingSpeed; }
	set blendingSpeed(s) { this._blendingSpeed = s; }
	set mask(value) {
		this._mask = value;
		this._writer.skip = value && !value.disabled ? this.targets.map((t) => !!t && !value.retainsTarget(t.name)) : null;
	}
	get mask() { return this._mask; }
	start(loop, speedRatio, from, to, isAdditive) {
		if (isAdditive) this.isAdditive = true; // throws
		return super.start(loop, speedRatio, from, to);
	}

	// The next write sets every mapped output again (after code outside the adapter changed the
	// nodes: later writes only touch the outputs the clip animates).
	invalidate() { this._writer.invalidate(); return this; }

	// Advances by dt seconds of scene animation time and writes the frame (without a scene).
	update(dt) { this._time += dt * 1000; this._step(this._time); return this; }

	_targets() { return this._targeted; }
	_original(save) {
		if (save) this._saved = this._writer.capture();
		else if (this._saved) this._writer.restore(this._saved);
	}
	// One wasm call per frame that shows a new frame (none when nothing moved, or at weight 0).
	_evaluate(frame, jump, weight) {
		const t = frame / this.fps;
		if (weight === 0) { if (this._saved) this._writer.restore(this._saved); return; }
		if (weight > 0 && weight < 1 && this._saved) { this._writer.writeBlended(t, this._saved, weight, BABYLON_MIX); return; }
		if (this._writer.stale(t)) this._writer.write(t);
	}

	// Curve editing: the keys are compressed in the blob.
	addTargetedAnimation() { throw new SinewUnsupportedError('AnimationGroup.addTargetedAnimation', 'a sinew group plays the clip compressed in the blob; its curves cannot be edited'); }
	removeTargetedAnimation() { throw new SinewUnsupportedError('AnimationGroup.removeTargetedAnimation', 'a sinew group plays the clip compressed in the blob; its curves cannot be edited'); }
	normalize() { throw new SinewUnsupportedError('AnimationGroup.normalize', 'a sinew clip already spans its whole range; its keys cannot be edited'); }
	serialize() { throw new SinewUnsupportedError('AnimationGroup.serialize', 'the keys are in the sinew blob (serialize the blob, not the group)'); }
	syncAllAnimationsWith() { throw new SinewUnsupportedError('AnimationGroup.syncAllAnimationsWith', 'the world adapter plays groups on one clock'); }
	startWithVirtualTimeline() { throw new SinewUnsupportedError('AnimationGroup.startWithVirtualTimeline', 'not implemented by the sinew adapter'); }
	getVirtualCurrentFrame() { throw new SinewUnsupportedError('AnimationGroup.getVirtualCurrentFrame', 'not implemented by the sinew adapter'); }
	isVirtualFrameReached() { throw new SinewUnsupportedError('AnimationGroup.isVirtualFrameReached', 'not implemented by the sinew adapter'); }
	isValidVirtualStopFrame() { throw new SinewUnsupportedError('AnimationGroup.isValidVirtualStopFrame', 'not implemented by the sinew adapter'); }
	setVirtualCurrentFrame() { throw new SinewUnsupportedError('AnimationGroup.setVirtualCurrentFrame', 'not implemented by the sinew adapter'); }
	/** A new group on the same animation and nodes (targetConverter maps each node); the animations are not cloned. */
	clone(newName, targetConverter, cloneAnimations = false) {
		if (cloneAnimations) throw new SinewUnsupportedError('AnimationGroup.clone(..., cloneAnimations)', 'the keys are in the sinew blob');
		const nodes = this.targets.map((t) => (t && targetConverter ? targetConverter(t) : t));
		const byNode = new Map(this.info.joints.map((j, i) => [j.node, nodes[i]]));
		const g = new SinewAnimationGroup(this.anim, (i) => byNode.get(i) ?? null, { clip: this.clipIndex, fps: this.fps, to: this._maxFrame, scene: this.scene, name: newName || this.name });
		g._from = this._from; g._to = this._to; g._speedRatio = this._speedRatio; g._loopAnimation = this._loopAnimation;
		g._weight = this._weight; g.metadata = this.metadata; g.mask = this._mask;
		return g;
	}

	dispose() {
		super.dispose();
		if (this._observer) this.scene.onAfterAnimationsObservable.remove(this._observer);
		this._observer = null;
	}
}

export default SinewAnimationGroup;
