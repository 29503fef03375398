// sinew — see include/sinew.h for version and licence
// Babylon.js adapter: plays a clip of a sinew animation (web/sinew.mjs) on nodes created by
// @babylonjs/loaders' glTF loader, controlled like an AnimationGroup (play/pause/stop,
// speedRatio, goToFrame, weight) and advanced by the scene (onBeforeAnimationsObservable).
// One anim.sample() (one wasm call) per frame that moves the clip's time, none while paused or at
// weight 0; after the first write only the outputs the runtime reports changed are written.
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
//   group.play(true);
import { PoseWriter } from './pose_writer.mjs';

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

const BABYLON_SETTERS = {
	rotation: (n, v, i) => n.rotationQuaternion.set(v[i], v[i + 1], v[i + 2], v[i + 3]),
	translation: (n, v, i) => n.position.set(v[i], v[i + 1], v[i + 2]),
	scale: (n, v, i) => n.scaling.set(v[i], v[i + 1], v[i + 2]),
	morph: (target, k, value) => { target.influence = value; },
};

export class SinewAnimationGroup {
	// nodes: Babylon nodes of the loaded glTF (scanned for pointers), or a Map / function from glTF
	// node index to node. options: scene (to advance with it), clip, fps (frames per second of
	// goToFrame/from/to, default 60 like the loader's targetFps), name.
	constructor(anim, nodes, options = {}) {
		this.anim = anim;
		this.clipIndex = options.clip ?? 0;
		this.info = anim.clip(this.clipIndex);
		if (!this.info.joints) throw new Error('sinew Babylon adapter: the blob has no metadata (compressed with --strip)');
		this.name = options.name ?? this.info.name;
		this.fps = options.fps ?? 60;
		this.speedRatio = 1;
		this.loopAnimation = false;
		this.isPlaying = false;
		this.isStarted = false;
		this.time = 0;
		const map = typeof nodes === 'function' ? null : nodes instanceof Map ? nodes : gltfNodeMap(nodes);
		const find = map ? (i) => map.get(i) ?? null : nodes;
		this.targets = this.info.joints.map((j) => (j.node === null ? null : find(j.node)));
		for (const t of this.targets) {
			if (t && !t.rotationQuaternion) t.rotationQuaternion = t.rotation.toQuaternion();
		}
		this.missing = this.info.joints.filter((j, i) => j.node !== null && !this.targets[i]).map((j) => j.node);
		this.morphs = this.info.scalars.map((s, k) => {
			const node = s.node === null ? null : find(s.node);
			if (!node || s.target === null || this.info.scalarTracks[k].components !== 1) return [];
			return morphMeshes(node).map((m) => m.morphTargetManager.getTarget(s.target)).filter(Boolean);
		});
		this._writer = new PoseWriter(anim, this.clipIndex, this.targets, this.morphs, BABYLON_SETTERS, [0, 1, -1], 'Babylon');
		this.scene = options.scene ?? null;
		this._observer = null;
		if (this.scene) {
			this._observer = this.scene.onBeforeAnimationsObservable.add(() => this._step());
		}
	}

	// 1 (or Babylon's -1, "no blending"): the clip drives its nodes; 0: it leaves them alone.
	// Blending weights in between are not supported (the adapter writes, it does not blend).
	get weight() { return this._writer.weight; }
	set weight(w) { this._writer.weight = w; }

	// The next write sets every mapped output again (after code outside the adapter changed the
	// nodes: later writes only touch the outputs the clip animates).
	invalidate() { this._writer.invalidate(); return this; }

	get from() { return 0; }
	get to() { return this.info.duration * this.fps; }
	get animatables() { return []; }

	// Frame of the clip (fps frames per second).
	getCurrentFrame() { return this.time * this.fps; }

	play(loop) {
		if (loop !== undefined) this.loopAnimation = !!loop;
		this.isPlaying = true;
		this.isStarted = true;
		return this;
	}

	start(loop = false, speedRatio = 1) {
		this.speedRatio = speedRatio;
		this.time = 0;
		return this.play(loop);
	}

	pause() { this.isPlaying = false; return this; }

	// Back to the first frame, written once, then idle (like AnimationGroup.stop + reset).
	stop() {
		this.isPlaying = false;
		this.isStarted = false;
		this.time = 0;
		this.apply();
		return this;
	}

	goToFrame(frame) {
		this.time = this._wrap(frame / this.fps);
		this.apply();
		return this;
	}

	// Advances by dt seconds (times speedRatio) when playing and writes the pose when it moved.
	update(dt) {
		if (this.isPlaying) {
			const d = this.info.duration;
			const t = this.time + dt * this.speedRatio;
			if (!this.loopAnimation && (t >= d || t < 0)) {
				this.time = Math.min(Math.max(t, 0), d);
				this.isPlaying = false;
			} else {
				this.time = this._wrap(t);
			}
		}
		if (this.isStarted && this._writer.stale(this.time)) this.apply();
		return this;
	}

	_step() {
		const s = this.scene;
		if (!s.animationsEnabled) return;
		const ms = s.useConstantAnimationDeltaTime ? 16 : s.getEngine().getDeltaTime();
		this.update((ms / 1000) * (s.animationTimeScale ?? 1));
	}

	_wrap(t) {
		const d = this.info.duration;
		if (!(d > 0)) return 0;
		if (this.loopAnimation) { t %= d; return t < 0 ? t + d : t; }
		return Math.min(Math.max(t, 0), d);
	}

	// One wasm call: samples at this.time and writes the mapped nodes and morph influences (all of
	// them the first time, then those that can have changed; nothing at weight 0).
	apply() { this._writer.write(this.time); }

	dispose() {
		if (this._observer) this.scene.onBeforeAnimationsObservable.remove(this._observer);
		this._observer = null;
		this.isPlaying = false;
	}
}

export default SinewAnimationGroup;
