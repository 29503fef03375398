// sinew — see include/sinew.h for version and licence
// What the world adapters (three_world.mjs, babylon_world.mjs) share, independent of the engine:
// binding one character (a glTF scene instance) to a world player, and writing the player's
// blended pose into the engine's nodes after the frame's one world.update() call.
//
// A character's player joints are the glTF nodes that any clip of its blobs animates and that
// exist in the scene (in order of first appearance); its scalars are the (node, morph target)
// pairs of the clips' one-component scalar tracks. Each clip maps onto them by the metadata's
// glTF node indices (the world's joint map) and a scalar map, so clips of different files of one
// rig blend together. The rest pose is the nodes' values when the character is bound (what
// three.js's AnimationMixer and Babylon restore to when weights sum below 1).

// engine: { find(gltfNodeIndex) -> node|null, getLocal(node) -> 10 numbers (q xyzw, t, s),
//   setLocal(node, pose, offset), morphs(node, target) -> [{ get(), set(v) }] }
export function bindCharacter(world, blobs, engine, options = {}) {
	const nodes = [], targets = [], seen = new Map();
	const scalarKeys = new Map(), morphs = [];
	// (one rig per blob: its clips share the nodes and scalar tracks, read from the rig's tables)
	for (const b of blobs) {
		const rig = b.rig;
		if (!rig.mapped) throw new Error('sinew world adapter: a blob has no metadata (compressed with --strip)');
		for (let j = 0; j < rig.nodeCount; j++) {
			const node = rig.nodes[j];
			if (node < 0 || seen.has(node)) continue;
			const n = engine.find(node);
			seen.set(node, n ? nodes.length : -1);
			if (!n) continue;
			nodes.push(node);
			targets.push(n);
		}
		for (let k = 0; k < rig.scalarCount; k++) {
			const node = rig.scalarNodes[k], target = rig.scalarTargets[k];
			if (node < 0 || target < 0 || rig.scalarComponents[k] !== 1) continue;
			const key = `${node}:${target}`;
			if (scalarKeys.has(key)) continue;
			const list = engine.find(node) ? engine.morphs(engine.find(node), target) : [];
			scalarKeys.set(key, morphs.length);
			morphs.push(list);
		}
	}
	// more joints (options.extra(targets): e.g. skin bones no clip animates, for matrix outputs)
	for (const n of options.extra ? options.extra(targets.slice()) : []) {
		if (targets.includes(n)) continue;
		nodes.push(null);
		targets.push(n);
	}
	const J = nodes.length, S = morphs.length;
	const rest = new Float32Array(J * 10 + S);
	targets.forEach((n, j) => rest.set(engine.getLocal(n), j * 10));
	morphs.forEach((list, k) => { rest[J * 10 + k] = list.length ? list[0].get() : 0; });
	const player = world.addPlayer({ joints: J, scalars: S, nodes, layers: options.layers ?? 8, rest });
	// per clip: its scalar floats -> player scalars (0xFFFFFFFF: not bound)
	const scalarMaps = new Map();
	const scalarMap = (clip) => {
		if (!scalarMaps.has(clip)) {
			const map = new Uint32Array(clip.scalarFloats).fill(0xffffffff), rig = clip.rig;
			clip.scalarTracks.forEach((t, k) => {
				const key = `${rig.scalarNodes[k]}:${rig.scalarTargets[k]}`;
				if (t.components === 1 && scalarKeys.has(key)) map[t.offset] = scalarKeys.get(key);
			});
			scalarMaps.set(clip, clip.scalarFloats ? map : null);
		}
		return scalarMaps.get(clip);
	};
	return { player, nodes, targets, morphs, scalarMap, _last: null, _full: true, invalidate() { this._full = true; } };
}

// The sub-tracks a glTF animation has channels for, in a world clip's participation layout (per
// joint bit 0 rotation, 1 translation, 2 scale; per scalar float 1 for a node's morph weights):
// engines blend exactly the tracks their clips have, including channels that hold the bind pose
// (which the compressed format stores as "default" and the world would otherwise leave out).
export function gltfParticipation(json, animation, clip) {
	const channels = json?.animations?.[animation]?.channels, rig = clip.rig;
	if (!channels || !rig.mapped) return null;
	const has = new Set(channels.map((c) => `${c.target?.node}:${c.target?.path}`));
	const out = new Uint8Array(clip.jointCount + clip.scalarFloats);
	for (let i = 0; i < Math.min(rig.nodeCount, clip.jointCount); i++) {
		const node = rig.nodes[i];
		if (node < 0) continue;
		out[i] = (has.has(`${node}:rotation`) ? 1 : 0) | (has.has(`${node}:translation`) ? 2 : 0) | (has.has(`${node}:scale`) ? 4 : 0);
	}
	clip.scalarTracks.forEach((t, k) => {
		const node = k < rig.scalarCount ? rig.scalarNodes[k] : -1;
		if (node >= 0 && has.has(`${node}:weights`)) out.fill(1, clip.jointCount + t.offset, clip.jointCount + t.offset + t.components);
	});
	return out;
}

// Sets each clip's participation from the glTF it was compressed from (animation by name, else index).
export function applyGltfParticipation(json, blobs) {
	const anims = json?.animations ?? [];
	for (const b of blobs) for (const clip of b.clips) {
		let k = anims.findIndex((a, i) => (a.name ?? `animation_${i}`) === clip.name);
		if (k < 0 && anims.length === b.clipCount) k = clip.index;
		const part = k >= 0 ? gltfParticipation(json, k, clip) : null;
		if (part) clip.participation.set(part);
	}
}

// Writes a bound character's pose (after world.update) into its nodes and morph targets: only the
// rotations / translations / scales / weights that differ from what this binding wrote last (a
// joint no playing clip moves costs ten float compares, not three engine setter calls);
// binding.invalidate() makes the next write set everything (after other code moved the nodes).
// set: { rotation(node, pose, i), translation(node, pose, i), scale(node, pose, i) }.
export function writePose(binding, set) {
	const pose = binding.player.pose, targets = binding.targets, J = targets.length;
	let last = binding._last;
	if (!last || binding._full) {
		last = binding._last = new Float32Array(pose.length).fill(NaN);
		binding._full = false;
	}
	for (let j = 0, o = 0; j < J; j++, o += 10) {
		const n = targets[j];
		if (pose[o] !== last[o] || pose[o + 1] !== last[o + 1] || pose[o + 2] !== last[o + 2] || pose[o + 3] !== last[o + 3]) {
			set.rotation(n, pose, o);
			last[o] = pose[o]; last[o + 1] = pose[o + 1]; last[o + 2] = pose[o + 2]; last[o + 3] = pose[o + 3];
		}
		if (pose[o + 4] !== last[o + 4] || pose[o + 5] !== last[o + 5] || pose[o + 6] !== last[o + 6]) {
			set.translation(n, pose, o + 4);
			last[o + 4] = pose[o + 4]; last[o + 5] = pose[o + 5]; last[o + 6] = pose[o + 6];
		}
		if (pose[o + 7] !== last[o + 7] || pose[o + 8] !== last[o + 8] || pose[o + 9] !== last[o + 9]) {
			set.scale(n, pose, o + 7);
			last[o + 7] = pose[o + 7]; last[o + 8] = pose[o + 8]; last[o + 9] = pose[o + 9];
		}
	}
	writeMorphs(binding, last);
}

// The morph-weight part of writePose (alone: for characters whose joints get matrices instead).
export function writeMorphs(binding, last = binding._last) {
	const pose = binding.player.pose, J = binding.targets.length;
	if (!last || binding._full) {
		last = binding._last = new Float32Array(pose.length).fill(NaN);
		binding._full = false;
	}
	const morphs = binding.morphs;
	for (let k = 0, o = J * 10; k < morphs.length; k++, o++) {
		const v = pose[o];
		if (v === last[o]) continue;
		last[o] = v;
		const list = morphs[k];
		for (let i = 0; i < list.length; i++) list[i].set(v);
	}
}

// A minimal event dispatcher (three's EventDispatcher shape; Babylon's Observable is in babylon_clock.mjs).
export class Events {
	constructor() { this._l = new Map(); }
	addEventListener(type, fn) { if (!this._l.has(type)) this._l.set(type, new Set()); this._l.get(type).add(fn); }
	removeEventListener(type, fn) { this._l.get(type)?.delete(fn); }
	hasEventListener(type, fn) { return this._l.get(type)?.has(fn) ?? false; }
	dispatchEvent(event) { for (const fn of this._l.get(event.type) ?? []) fn.call(this, event); }
}
