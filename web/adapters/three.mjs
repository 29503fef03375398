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

function nodeLookup(root, options) {
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
function morphMeshes(object, associations) {
	const out = [];
	if (object.morphTargetInfluences) out.push(object);
	for (const child of object.children) {
		const a = associations?.get(child);
		const isNode = a ? a.nodes !== undefined : false;
		if (!isNode && child.morphTargetInfluences) out.push(child);
	}
	return out;
}

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
		this._weight = 1;
		this._full = true;       // next apply writes every target (first write, back from weight 0)
		this._appliedTime = NaN; // time of the pose the targets hold
		this._serial = -1;       // anim.serial right after this player's last sample
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
		this.apply();
	}

	get duration() { return this.info.duration; }
	// 1: the clip drives its objects; 0: it leaves them alone (no blending in between).
	// The next write sets every mapped output again (after code outside the adapter changed the
	// nodes: later writes only touch the outputs the clip animates).
	invalidate() { this._full = true; this._appliedTime = NaN; return this; }

	get weight() { return this._weight; }
	set weight(w) {
		if (w !== 0 && w !== 1) throw new RangeError(`sinew three adapter: weight ${w} (only 0 or 1)`);
		if (this._weight === 0 && w !== 0) this._full = true;
		this._weight = w;
	}
	play() { this.playing = true; return this; }
	pause() { this.playing = false; return this; }
	stop() { this.playing = false; this.time = 0; this.apply(); return this; }

	// Jumps to t seconds (wrapped or clamped as `loop` says) and writes the pose.
	setTime(t) { this.time = this._wrap(t); this.apply(); return this; }

	// Advances by dt seconds (times timeScale when playing) and writes the pose when it moved.
	update(dt) {
		if (this.playing) this.time = this._wrap(this.time + dt * this.timeScale);
		if (this._full || this.time !== this._appliedTime) this.apply();
		return this;
	}

	_wrap(t) {
		const d = this.info.duration;
		if (!(d > 0)) return 0;
		if (this.loop) { t %= d; return t < 0 ? t + d : t; }
		return Math.min(Math.max(t, 0), d);
	}

	// One wasm call: samples the clip at this.time and writes the mapped nodes and morph weights:
	// all of them the first time, then those the runtime's changed bitset marks (constant outputs
	// never change). Nothing at weight 0.
	apply() {
		if (this._weight === 0) return;
		// the changed bitset is relative to this player's last write only if nobody sampled since
		const own = !this._full && this.anim.serial === this._serial;
		const pose = this.anim.sample(this.clipIndex, this.time);
		this._serial = this.anim.serial;
		const changed = own ? this.anim.changed(this.clipIndex) : null;
		const bit = (i) => changed === null || ((changed[i >>> 5] >>> (i & 31)) & 1) !== 0;
		this._full = false;
		this._appliedTime = this.time;
		const targets = this.targets;
		for (let j = 0; j < targets.length; j++) {
			const o = targets[j];
			if (!o) continue;
			const p = j * 10;
			if (bit(3 * j)) o.quaternion.set(pose[p], pose[p + 1], pose[p + 2], pose[p + 3]);
			if (bit(3 * j + 1)) o.position.set(pose[p + 4], pose[p + 5], pose[p + 6]);
			if (bit(3 * j + 2)) o.scale.set(pose[p + 7], pose[p + 8], pose[p + 9]);
		}
		const base = targets.length * 10;
		for (let k = 0; k < this.morphs.length; k++) {
			const list = this.morphs[k];
			if (list.length === 0 || !bit(3 * targets.length + k)) continue;
			const s = this.info.scalars[k], v = pose[base + this.info.scalarTracks[k].offset];
			for (const mesh of list) mesh.morphTargetInfluences[s.target] = v;
		}
	}
}

export default SinewMixer;
