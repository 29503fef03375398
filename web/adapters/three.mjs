// sinew — see include/sinew.h for version and licence
// three.js adapter: plays a clip of a sinew animation (web/sinew.mjs) on a scene loaded with
// three's GLTFLoader, like an AnimationMixer + AnimationAction. One anim.sample() (one wasm call)
// per update that moves the clip's time (none while paused or at weight 0); writes Object3D.position/quaternion/scale of the glTF nodes named by the blob's
// metadata (Source_index) and morphTargetInfluences of their meshes (Source_node/Source_target).
// three uses glTF's conventions (right-handed, Y up, metres), so the local values go in unchanged.
//
//   const gltf = await new GLTFLoader().loadAsync(url);
//   const anim = await Sinew.load(bytes);           // compressed from the same glTF, with metadata
//   const mixer = new SinewMixer(gltf, anim, { clip: 0 });
//   mixer.update(dt);                               // each frame, before rendering
//
// `root` may be the whole GLTF result ({ scene, parser }) or its scene when options.nodes maps
// glTF node indices to objects (an array, a Map or a function); otherwise the nodes are found
// through gltf.parser.associations (three r150+), then by unique name.

import { PoseWriter } from './pose_writer.mjs';

export function nodeLookup(root, options) {
	const given = options.nodes;
	if (typeof given === 'function') return given;
	if (Array.isArray(given)) return (i) => given[i] ?? null;
	if (given instanceof Map) return (i) => given.get(i) ?? null;
	const scene = root.scene ?? root;
	const associations = root.parser?.associations ?? options.associations;
	const byIndex = new Map();
	if (associations) {
		scene.traverse((o) => {
			const a = associations.get(o);
			if (a && a.nodes !== undefined && !byIndex.has(a.nodes)) byIndex.set(a.nodes, o);
		});
	}
	return (i) => byIndex.get(i) ?? null;
}

// Meshes carrying the morph targets of a glTF node: the node itself when it is a one-primitive
// mesh, else its primitive children (meshes that are not glTF nodes themselves).
export function morphMeshes(object, associations) {
	const out = [];
	if (object.morphTargetInfluences) out.push(object);
	for (const child of object.children) {
		const a = associations?.get(child);
		const isNode = a ? a.nodes !== undefined : false;
		if (!isNode && child.morphTargetInfluences) out.push(child);
	}
	return out;
}

const THREE_SETTERS = {
	rotation: (o, v, i) => o.quaternion.set(v[i], v[i + 1], v[i + 2], v[i + 3]),
	translation: (o, v, i) => o.position.set(v[i], v[i + 1], v[i + 2]),
	scale: (o, v, i) => o.scale.set(v[i], v[i + 1], v[i + 2]),
};

export class SinewMixer {
	constructor(root, anim, options = {}) {
		this.anim = anim;
		this.clipIndex = options.clip ?? 0;
		this.info = anim.clip(this.clipIndex);
		if (!this.info.joints) throw new Error('sinew three adapter: the blob has no metadata (compressed with --strip)');
		this.time = options.time ?? 0;
		this.timeScale = options.timeScale ?? 1;
		this.loop = options.loop ?? true; // true: wrap at the end; false: clamp (like LoopOnce + clampWhenFinished)
		this.playing = options.play ?? true;
		const find = nodeLookup(root, options);
		const associations = root.parser?.associations ?? options.associations;
		// Per joint the Object3D or null (joints whose glTF node is not in this scene are skipped).
		this.targets = this.info.joints.map((j) => (j.node === null ? null : find(j.node)));
		this.missing = this.info.joints.filter((j, i) => j.node !== null && !this.targets[i]).map((j) => j.node);
		// Morph weights: per scalar track, [mesh, target index] pairs.
		this.morphs = this.info.scalars.map((s, k) => {
			const node = s.node === null ? null : find(s.node);
			const layout = this.info.scalarTracks[k];
			if (!node || s.target === null || layout.components !== 1) return [];
			return morphMeshes(node, associations).filter((m) => s.target < m.morphTargetInfluences.length);
		});
		const targetsOf = this.info.scalars.map((s) => s.target);
		const setters = { ...THREE_SETTERS, morph: (mesh, k, value) => { mesh.morphTargetInfluences[targetsOf[k]] = value; } };
		this._writer = new PoseWriter(anim, this.clipIndex, this.targets, this.morphs, setters, [0, 1], 'three');
		this.apply();
	}

	get duration() { return this.info.duration; }
	// 1: the clip drives its objects; 0: it leaves them alone (no blending in between).
	get weight() { return this._writer.weight; }
	set weight(w) { this._writer.weight = w; }

	// The next write sets every mapped output again (after code outside the adapter changed the
	// nodes: later writes only touch the outputs the clip animates).
	invalidate() { this._writer.invalidate(); return this; }

	play() { this.playing = true; return this; }
	pause() { this.playing = false; return this; }
	stop() { this.playing = false; this.time = 0; this.apply(); return this; }

	// Jumps to t seconds (wrapped or clamped as `loop` says) and writes the pose.
	setTime(t) { this.time = this._wrap(t); this.apply(); return this; }

	// Advances by dt seconds (times timeScale when playing) and writes the pose when it moved.
	update(dt) {
		if (this.playing) this.time = this._wrap(this.time + dt * this.timeScale);
		if (this._writer.stale(this.time)) this.apply();
		return this;
	}

	_wrap(t) {
		const d = this.info.duration;
		if (!(d > 0)) return 0;
		if (this.loop) { t %= d; return t < 0 ? t + d : t; }
		return Math.min(Math.max(t, 0), d);
	}

	// One wasm call: samples the clip at this.time and writes the mapped nodes and morph weights
	// (all of them the first time, then those that can have changed; nothing at weight 0).
	apply() { this._writer.write(this.time); }
}

export default SinewMixer;
