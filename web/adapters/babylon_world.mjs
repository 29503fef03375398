// sinew — see include/sinew.h for version and licence
// Babylon.js adapter over the world runtime (web/world.mjs): many characters loaded by
// @babylonjs/loaders' glTF loader in ONE world, each clip an AnimationGroup-like handle that keeps
// time frame for frame as Babylon's AnimationGroup does (adapters/babylon_clock.mjs: start(loop,
// speedRatio, from, to), play, pause, restart, reset, stop, goToFrame, speedRatio, loopAnimation,
// from / to, the loop and end observables ...), with weight (0..1; -1, Babylon's "no blending", counts
// as 1), enableBlending + blendingSpeed (a weight ramp from 0 at blendingSpeed per frame, done inside
// the world's frame call), isAdditive and mask. The scene advances it: on onAfterAnimationsObservable,
// by Babylon's own step, every group's frame is set, ONE wasm call (world.update) blends every
// character, then the nodes (position / rotationQuaternion / scaling, morph target influences) are
// written.
//
//   const worldScene = await SinewWorldScene.create(scene);
//   const blob = worldScene.load(bytes);
//   const hero = worldScene.add([...container.transformNodes, ...container.meshes], [blob]);
//   const idle = hero.group('Idle').start(true), run = hero.group('Run');
//   run.enableBlending = true; run.blendingSpeed = 0.05; run.start(true);  // ramps in over 20 frames
//
// Handedness: as adapters/babylon.mjs, the glTF-space local values go unchanged into the nodes
// carrying `/nodes/<i>` pointers (the loader's __root__ converts).
import { createWorld } from '../world.mjs';
import { gltfNodeMap, morphMeshes } from './babylon.mjs';
import { applyGltfParticipation, bindCharacter, writePose } from './world_binding.mjs';
import { BabylonGroupPlayback, SinewUnsupportedError, babylonSceneClock } from './babylon_clock.mjs';
import { engineDuration } from './gltf_clips.mjs';

export { SinewUnsupportedError, Observable } from './babylon_clock.mjs';

const SET = {
	rotation: (n, v, i) => n.rotationQuaternion.set(v[i], v[i + 1], v[i + 2], v[i + 3]),
	translation: (n, v, i) => n.position.set(v[i], v[i + 1], v[i + 2]),
	scale: (n, v, i) => n.scaling.set(v[i], v[i + 1], v[i + 2]),
};
const getLocal = (n) => {
	if (!n.rotationQuaternion) n.rotationQuaternion = n.rotation.toQuaternion();
	const q = n.rotationQuaternion, p = n.position, s = n.scaling;
	return [q.x, q.y, q.z, q.w, p.x, p.y, p.z, s.x, s.y, s.z];
};

/**
 * One clip of one character, controlled like a Babylon AnimationGroup (adapters/babylon_clock.mjs: the
 * same members and frame for frame the same time keeping); owns one world layer, whose time it sets
 * before each frame call (the layer's own speed is 0).
 */
export class SinewWorldAnimationGroup extends BabylonGroupPlayback {
	constructor(character, clip, layer, fps, json) {
		super(clip.name, fps, engineDuration(json, clip, clip.index, clip.blob.clipCount) * fps); // Babylon's group.to: the last key (float32) times fps
		this.character = character;
		this.clip = clip;
		this.fps = fps;
		this._layer = layer;
		this._blendTarget = null;
		this._dt = 0;
		layer.setClip(clip, { scalarMap: character._binding.scalarMap(clip) });
		layer.loop = 'once'; // (the time is set every frame: 'once' keeps the end frame where 'repeat' would wrap it to 0)
		layer.speed = 0;
		layer.enabled = false;
		this._targeted = null;
	}
	get scene() { return this.character.worldScene.scene; }
	getScene() { return this.scene; }
	/** The shown frame's time in seconds (the retained frame once stopped or ended). */
	get time() { return (this._isStarted ? this.getCurrentFrame() : this.getRetainedCurrentFrame()) / this.fps; }
	/** 0..1 (others clamped, as Babylon's animatables do), or -1 (Babylon's default: not blended, counts as 1). Cancels a blending ramp. */
	get weight() { return this._weight; }
	set weight(w) {
		super.weight = w;
		this._blendTarget = null;
		if (this._isStarted) this._layer.weight = w === -1 ? 1 : Math.min(Math.max(w, 0), 1);
	}
	get enableBlending() { return this._enableBlending ?? false; }
	set enableBlending(on) { this._enableBlending = on; }
	get blendingSpeed() { return this._blendingSpeed ?? 0.01; }
	set blendingSpeed(s) { this._blendingSpeed = s; }
	/** Additive as Babylon plays a group made additive with AnimationGroup.MakeAnimationAdditive (reference frame 0). */
	get isAdditive() { return this._isAdditive; }
	set isAdditive(on) { this._isAdditive = !!on; this._layer.additive = on ? 'first' : false; }
	get mask() { return this._mask; }
	set mask(value) {
		this._mask = value;
		const targets = this.character._binding.targets;
		this._layer.mask = value && !value.disabled ? Float32Array.from(targets, (t) => (value.retainsTarget(t.name) ? 1 : 0)) : null;
	}
	start(loop, speedRatio, from, to, isAdditive) {
		if (this._isStarted) return this;
		super.start(loop, speedRatio, from, to);
		this._layer.additive = (isAdditive ?? this._isAdditive) ? 'first' : false;
		const w = this._weight === -1 ? 1 : Math.min(Math.max(this._weight, 0), 1);
		if (this.enableBlending && this.blendingSpeed > 0) { this._layer.weight = 0; this._blendTarget = w; }
		else { this._layer.weight = w; this._blendTarget = null; }
		this._layer.time = (from ?? this._from) / this.fps;
		this._layer.enabled = true;
		return this;
	}
	/** As Babylon's stop: the end observables (unless skipOnAnimationEnd); the group stops contributing. */
	stop(skipOnAnimationEnd = false) {
		if (!this._isStarted) return this;
		super.stop(skipOnAnimationEnd);
		this._layer.enabled = false;
		this._blendTarget = null;
		return this;
	}
	_targets() {
		if (!this._targeted) {
			// the sub-tracks the clip sets (its participation: from the glTF when the character was given it)
			const b = this.character._binding, part = this.clip.participation, list = [];
			const props = [[1, 'rotationQuaternion', 'rotation'], [2, 'position', 'translation'], [4, 'scaling', 'scale']];
			const animation = (name, targetProperty) => ({ name, targetProperty, framePerSecond: this.fps,
				getKeys() { throw new SinewUnsupportedError('Animation.getKeys', 'sinew keeps the keys compressed in the blob'); } });
			this.clip.joints.forEach((j, i) => {
				const k = j.node === null ? -1 : b.nodes.indexOf(j.node);
				if (k < 0) return;
				for (const [bit, prop, path] of props) if (part[i] & bit) list.push({ target: b.targets[k], animation: animation(`${b.targets[k].name}.${path}`, prop), parent: this });
			});
			const map = b.scalarMap(this.clip); // morph weights: one per morph target of each mesh, as the loader makes them
			this.clip.scalars.forEach((sc, k) => {
				const t = this.clip.scalarTracks[k], p = map ? map[t.offset] : 0xffffffff;
				if (p === 0xffffffff || !part[this.clip.jointCount + t.offset]) return;
				for (const m of b.morphs[p]) list.push({ target: m.target, animation: animation(`${m.target.name}.influence`, 'influence'), parent: this });
			});
			this._targeted = list;
		}
		return this._targeted;
	}
	// the frame Babylon shows: the layer samples it in this frame's call (goToFrame: at the next call)
	_evaluate(frame, jump, weight) {
		const l = this._layer;
		l.time = frame / this.fps;
		if (this._blendTarget === null) l.weight = weight === -1 ? 1 : weight;
		else if (!jump && this._dt > 0) { // the enableBlending ramp: blendingSpeed per frame, as a fade inside the frame call
			if (l.weight >= this._blendTarget) this._blendTarget = null;
			else l.fadeTo(this._blendTarget, (this._blendTarget - l.weight) / (this.blendingSpeed / this._dt));
		}
	}
	_ended(a, skip) {
		super._ended(a, skip);
		// Babylon drops an ended group from the blend: after the frame that shows its end (stop(): at once)
		if (!this._isStarted) { if (this._isStopping) this._layer.enabled = false; else this._dropNext = true; this._blendTarget = null; }
	}
	addTargetedAnimation() { throw new SinewUnsupportedError('AnimationGroup.addTargetedAnimation', 'a sinew group plays the clip compressed in the blob; its curves cannot be edited'); }
	removeTargetedAnimation() { throw new SinewUnsupportedError('AnimationGroup.removeTargetedAnimation', 'a sinew group plays the clip compressed in the blob; its curves cannot be edited'); }
	normalize() { throw new SinewUnsupportedError('AnimationGroup.normalize', 'a sinew clip already spans its whole range; its keys cannot be edited'); }
	serialize() { throw new SinewUnsupportedError('AnimationGroup.serialize', 'the keys are in the sinew blob (serialize the blob, or the world with world.save())'); }
	clone() { throw new SinewUnsupportedError('AnimationGroup.clone', 'add the character again (SinewWorldScene.add) for another copy'); }
	syncAllAnimationsWith() { throw new SinewUnsupportedError('AnimationGroup.syncAllAnimationsWith', 'not implemented by the sinew adapter'); }
	startWithVirtualTimeline() { throw new SinewUnsupportedError('AnimationGroup.startWithVirtualTimeline', 'not implemented by the sinew adapter'); }
	getVirtualCurrentFrame() { throw new SinewUnsupportedError('AnimationGroup.getVirtualCurrentFrame', 'not implemented by the sinew adapter'); }
	isVirtualFrameReached() { throw new SinewUnsupportedError('AnimationGroup.isVirtualFrameReached', 'not implemented by the sinew adapter'); }
	isValidVirtualStopFrame() { throw new SinewUnsupportedError('AnimationGroup.isValidVirtualStopFrame', 'not implemented by the sinew adapter'); }
	setVirtualCurrentFrame() { throw new SinewUnsupportedError('AnimationGroup.setVirtualCurrentFrame', 'not implemented by the sinew adapter'); }
}

/** One character: its AnimationGroup-like handles, one per clip of its blobs. */
export class SinewWorldCharacter {
	constructor(worldScene, nodes, blobs, options) {
		this.worldScene = worldScene;
		this.blobs = blobs;
		const map = typeof nodes === 'function' ? null : nodes instanceof Map ? nodes : gltfNodeMap(nodes);
		const find = map ? (i) => map.get(i) ?? null : nodes;
		if (options.json && options.gltfParticipation !== false) applyGltfParticipation(options.json, blobs);
		const clips = blobs.flatMap((b) => b.clips);
		this._binding = bindCharacter(worldScene.world, blobs, {
			find, getLocal,
			morphs: (node, target) => morphMeshes(node).map((m) => m.morphTargetManager.getTarget(target)).filter(Boolean)
				.map((t) => ({ get: () => t.influence, set: (v) => { t.influence = v; }, target: t })),
		}, { layers: options.layers ?? Math.max(1, clips.length) });
		this.player = this._binding.player;
		const fps = options.fps ?? 60;
		this.animationGroups = clips.slice(0, this.player.layerCount).map((c, i) => new SinewWorldAnimationGroup(this, c, this.player.layer(i), fps, options.json));
	}
	/** The next frame writes every node again (after other code moved them). */
	invalidate() { this._binding.invalidate(); return this; }
	/** The group of a clip by name or index. */
	group(key) {
		const g = typeof key === 'number' ? this.animationGroups[key] : this.animationGroups.find((x) => x.name === key);
		if (!g) throw new RangeError(`sinew Babylon: no animation group ${key}`);
		return g;
	}
}

/** The whole Babylon scene on one world: one wasm call per frame. */
export class SinewWorldScene {
	constructor(world, scene = null) {
		this.world = world;
		this.scene = scene;
		this.characters = [];
		this._time = 0; // own clock of update(dt) (ms)
		this._last = 0;
		// after Babylon's own animation step, by the step it took: every group's frame, then ONE wasm call
		this._observer = scene ? babylonSceneClock(scene, (ms) => this._frame(ms)) : null;
	}
	static async create(scene, options = {}) { return new SinewWorldScene(await createWorld(options), scene); }
	load(bytes, options) { return this.world.load(bytes, options); }
	/** nodes: the loaded Babylon nodes (scanned for /nodes/<i> pointers), a Map, or a function of the glTF node index. */
	add(nodes, blobs, options = {}) {
		const c = new SinewWorldCharacter(this, nodes, Array.isArray(blobs) ? blobs : [blobs], options);
		this.characters.push(c);
		return c;
	}
	/** Advances every character by dt seconds of animation time (without a scene): ONE wasm call, then the node writes. */
	update(dt) { this._time += dt * 1000; return this._frame(this._time); }
	// One step at accumulated animation time `ms`: every group's frame and events (Babylon's order), the
	// world call, the node writes.
	_frame(ms) {
		const dt = (ms - this._last) / 1000;
		this._last = ms;
		for (const c of this.characters) for (const g of c.animationGroups) {
			if (g._dropNext) { g._dropNext = false; if (!g._isStarted) g._layer.enabled = false; }
			g._dt = dt; g._step(ms);
		}
		this.world.update(dt);
		for (const c of this.characters) if (c.player.active) writePose(c._binding, SET);
		return this;
	}
	dispose() {
		if (this._observer) this.scene.onAfterAnimationsObservable.remove(this._observer);
		this._observer = null;
	}
}

export default SinewWorldScene;
