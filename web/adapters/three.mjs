// sinew — see include/sinew.h for version and licence
// three.js adapter: a sinew animation (web/sinew.mjs) played on a scene loaded with three's GLTFLoader
// as three's AnimationMixer plays the glTF's own clips, frame for frame: SinewMixer is an AnimationMixer
// for one root (update(dt), setTime, timeScale, time, clipAction, existingAction, stopAllAction, the 'loop'
// and 'finished' events) and its actions are AnimationActions (play, stop, reset, setLoop(LoopOnce |
// LoopRepeat | LoopPingPong, repetitions), clampWhenFinished, time, timeScale, weight,
// setEffectiveWeight, fadeIn, fadeOut, crossFadeTo / crossFadeFrom (with warp), warp, halt, startAt,
// syncWith, paused, enabled, blendMode (additive), isRunning ...): their time, weight and time-scale
// logic is three's own (AnimationAction._update and its control interpolants, ported from r187), and the
// values are blended as three's PropertyMixer does (float64; slerp in action order; the nodes' original
// values fill weights below 1 and come back when the last action using a property stops), with sinew's
// samples in place of three's keyframe interpolants.
//
// One anim.sample() (one wasm call) per contributing action per update: one call per frame for one
// playing clip (then only the outputs the runtime reports changed are written), two during a crossfade.
// The world adapter (three_world.mjs) blends any number of clips and characters in one call.
//
//   const gltf = await new GLTFLoader().loadAsync(url);
//   const anim = await Sinew.load(bytes);           // compressed from the same glTF, with metadata
//   const mixer = new SinewMixer(gltf, anim);       // nodes through gltf.parser.associations
//   mixer.clipAction('Walk').play();
//   renderer.setAnimationLoop(() => { mixer.update(clock.getDelta()); renderer.render(scene, camera); });
//
// `root` may be the whole GLTF result ({ scene, parser }) or its scene when options.nodes maps glTF node
// indices to objects (an array, a Map or a function). three uses glTF's conventions (right-handed, Y up,
// metres), so the local values go in unchanged. With the glTF JSON (gltf.parser.json, or options.json)
// each action binds exactly the properties its glTF animation has channels for, as three's clips do;
// without it, every output of the blob's clip.
import { PoseWriter } from './pose_writer.mjs';
import { SinewUnsupportedError } from './babylon_clock.mjs';
import { engineDuration, gltfAnimationIndex, gltfChannels } from './gltf_clips.mjs';
import { setQuaternionLazy, lazyRotation } from './three_write.mjs';
import { SinewAction, LoopOnce, LoopRepeat, LoopPingPong, NormalAnimationBlendMode, AdditiveAnimationBlendMode } from './three_action.mjs';

export { SinewUnsupportedError, SinewAction, LoopOnce, LoopRepeat, LoopPingPong, NormalAnimationBlendMode, AdditiveAnimationBlendMode };

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

// three's Quaternion.slerpFlat
function slerpFlat(dst, dstOffset, src0, srcOffset0, src1, srcOffset1, t) {
	let x0 = src0[srcOffset0 + 0], y0 = src0[srcOffset0 + 1], z0 = src0[srcOffset0 + 2], w0 = src0[srcOffset0 + 3];
	let x1 = src1[srcOffset1 + 0], y1 = src1[srcOffset1 + 1], z1 = src1[srcOffset1 + 2], w1 = src1[srcOffset1 + 3];
	if (w0 !== w1 || x0 !== x1 || y0 !== y1 || z0 !== z1) {
		let dot = x0 * x1 + y0 * y1 + z0 * z1 + w0 * w1;
		if (dot < 0) { x1 = -x1; y1 = -y1; z1 = -z1; w1 = -w1; dot = -dot; }
		let s = 1 - t;
		if (dot < 0.9995) {
			const theta = Math.acos(dot), sin = Math.sin(theta);
			s = Math.sin(s * theta) / sin;
			t = Math.sin(t * theta) / sin;
			x0 = x0 * s + x1 * t; y0 = y0 * s + y1 * t; z0 = z0 * s + z1 * t; w0 = w0 * s + w1 * t;
		} else {
			x0 = x0 * s + x1 * t; y0 = y0 * s + y1 * t; z0 = z0 * s + z1 * t; w0 = w0 * s + w1 * t;
			const f = 1 / Math.sqrt(x0 * x0 + y0 * y0 + z0 * z0 + w0 * w0);
			x0 *= f; y0 *= f; z0 *= f; w0 *= f;
		}
	}
	dst[dstOffset] = x0; dst[dstOffset + 1] = y0; dst[dstOffset + 2] = z0; dst[dstOffset + 3] = w0;
}

function multiplyQuaternionsFlat(dst, dstOffset, src0, srcOffset0, src1, srcOffset1) {
	const x0 = src0[srcOffset0], y0 = src0[srcOffset0 + 1], z0 = src0[srcOffset0 + 2], w0 = src0[srcOffset0 + 3];
	const x1 = src1[srcOffset1], y1 = src1[srcOffset1 + 1], z1 = src1[srcOffset1 + 2], w1 = src1[srcOffset1 + 3];
	dst[dstOffset] = x0 * w1 + w0 * x1 + y0 * z1 - z0 * y1;
	dst[dstOffset + 1] = y0 * w1 + w0 * y1 + z0 * x1 - x0 * z1;
	dst[dstOffset + 2] = z0 * w1 + w0 * z1 + x0 * y1 - y0 * x1;
	dst[dstOffset + 3] = w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1;
}

// three's PropertyMixer for one property (buffer: incoming | accu0 | accu1 | orig | add | work), with the
// engine object's getter and setter.
class Binding {
	constructor(quaternion, size, get, set) {
		this.q = quaternion;
		this.size = size;
		this.buffer = new Float64Array(size * (quaternion ? 6 : 5));
		this.get = get;       // (buffer, offset): the property into buffer
		this.set = set;       // (buffer, offset): buffer into the property
		this.cumulativeWeight = 0;
		this.cumulativeWeightAdditive = 0;
		this.useCount = 0;
		this.forceWrite = false; // after the fast path wrote the property: the next apply writes
	}
	_mix(dst, src, t) {
		const b = this.buffer, n = this.size;
		if (this.q) slerpFlat(b, dst, b, dst, b, src, t);
		else { const s = 1 - t; for (let i = 0; i !== n; ++i) { const j = dst + i; b[j] = b[j] * s + b[src + i] * t; } }
	}
	_mixAdditive(dst, src, t) {
		const b = this.buffer, n = this.size;
		if (this.q) { const work = 5 * n; multiplyQuaternionsFlat(b, work, b, dst, b, src); slerpFlat(b, dst, b, dst, b, work, t); }
		else for (let i = 0; i !== n; ++i) { const j = dst + i; b[j] = b[j] + b[src + i] * t; }
	}
	_setIdentity() {
		const b = this.buffer, n = this.size, start = 4 * n;
		for (let i = start; i < start + n; i++) b[i] = 0;
		if (this.q) b[start + 3] = 1;
	}
	accumulate(accuIndex, weight) {
		const b = this.buffer, n = this.size, offset = accuIndex * n + n;
		let currentWeight = this.cumulativeWeight;
		if (currentWeight === 0) {
			for (let i = 0; i !== n; ++i) b[offset + i] = b[i];
			currentWeight = weight;
		} else {
			currentWeight += weight;
			this._mix(offset, 0, weight / currentWeight);
		}
		this.cumulativeWeight = currentWeight;
	}
	accumulateAdditive(weight) {
		if (this.cumulativeWeightAdditive === 0) this._setIdentity();
		this._mixAdditive(4 * this.size, 0, weight);
		this.cumulativeWeightAdditive += weight;
	}
	apply(accuIndex) {
		const n = this.size, b = this.buffer, offset = accuIndex * n + n, weight = this.cumulativeWeight, weightAdditive = this.cumulativeWeightAdditive;
		this.cumulativeWeight = 0;
		this.cumulativeWeightAdditive = 0;
		if (weight < 1) this._mix(offset, 3 * n, 1 - weight);
		if (weightAdditive > 0) this._mixAdditive(offset, 4 * n, 1);
		if (this.forceWrite) { this.forceWrite = false; this.set(b, offset); return; }
		for (let i = n, e = n + n; i !== e; ++i) {
			if (b[i] !== b[i + n]) { this.set(b, offset); break; }
		}
	}
	saveOriginalState() {
		const b = this.buffer, n = this.size, orig = 3 * n;
		this.get(b, orig);
		for (let i = n; i !== orig; ++i) b[i] = b[orig + (i % n)];
		this._setIdentity();
		this.cumulativeWeight = 0;
		this.cumulativeWeightAdditive = 0;
	}
	restoreOriginalState() { this.set(this.buffer, 3 * this.size); }
}

const THREE_SETTERS = {
	rotation: (o, v, i) => setQuaternionLazy(o, v[i], v[i + 1], v[i + 2], v[i + 3]), // (quaternion.set's result; the Euler angles when read: three_write.mjs)
	translation: (o, v, i) => o.position.set(v[i], v[i + 1], v[i + 2]),
	scale: (o, v, i) => o.scale.set(v[i], v[i + 1], v[i + 2]),
	get: (o) => [o.quaternion.x, o.quaternion.y, o.quaternion.z, o.quaternion.w, o.position.x, o.position.y, o.position.z, o.scale.x, o.scale.y, o.scale.z],
};

/** THREE.AnimationMixer for one root, playing the clips of one sinew animation (see the top of this file). */
export class SinewMixer {
	// options: nodes (glTF node index -> object), associations, json (the glTF JSON: which properties each
	// clip binds), clip (an index or name: that clip's action is played at once, as mixer.clipAction(clip).play()).
	constructor(root, anim, options = {}) {
		this.anim = anim;
		this._root = root.scene ?? root;
		this.time = 0;
		this.timeScale = 1;
		this._accuIndex = 0;
		this._listeners = new Map();
		const find = nodeLookup(root, options);
		const associations = root.parser?.associations ?? options.associations;
		const json = root.parser?.json ?? options.json ?? null;
		this._json = json;
		this._find = find;
		this._associations = associations;
		this._bindingByKey = new Map();  // "object uuid-ish key" -> Binding
		this._bindings = [];             // active bindings (useCount > 0)
		this._actions = [];              // active actions first (in three's order), then inactive
		this._nActive = 0;
		this._clips = new Map();         // clip index -> { index, name, duration, bound: [{ binding, slot }], writer }
		this._byClip = new Map();        // clip index -> SinewAction
		this._fast = null;               // the action written through the changed-bitset path last frame
		this._objectKeys = new Map();
		// Object3D.rotation of the written nodes: computed when read (default), or false: at each write
		this._lazy = options.lazyRotation ?? true;
		if (options.clip !== undefined) this.clipAction(options.clip).play();
	}
	getRoot() { return this._root; }

	// --- events (three's EventDispatcher)
	addEventListener(type, listener) { if (!this._listeners.has(type)) this._listeners.set(type, []); const l = this._listeners.get(type); if (!l.includes(listener)) l.push(listener); }
	hasEventListener(type, listener) { return this._listeners.get(type)?.includes(listener) ?? false; }
	removeEventListener(type, listener) { const l = this._listeners.get(type); if (l) { const i = l.indexOf(listener); if (i >= 0) l.splice(i, 1); } }
	dispatchEvent(event) {
		const l = this._listeners.get(event.type);
		if (!l) return;
		event.target = this;
		for (const fn of l.slice()) fn.call(this, event);
		event.target = null;
	}

	// The clip record of a clip index or name: its bindings (three's: one per property its glTF animation
	// animates, shared with the other clips) and the pose slot of each.
	_clipOf(clip) {
		const anim = this.anim;
		let index = clip;
		if (typeof clip === 'object' && clip !== null) index = clip.index;
		if (typeof index === 'string') index = [...Array(anim.clipCount).keys()].find((k) => anim.clip(k).name === clip);
		if (!(Number.isInteger(index) && index >= 0 && index < anim.clipCount)) throw new RangeError(`sinew three adapter: no clip ${clip}`);
		let c = this._clips.get(index);
		if (c) return c;
		const info = anim.clip(index);
		if (!info.joints) throw new Error('sinew three adapter: the blob has no metadata (compressed with --strip)');
		const channels = this._channels(info, index);
		const targets = info.joints.map((j) => (j.node === null ? null : this._find(j.node)));
		if (this._lazy) for (const t of targets) if (t) lazyRotation(t);
		const morphs = info.scalars.map((s, k) => {
			const node = s.node === null ? null : this._find(s.node);
			if (!node || s.target === null || info.scalarTracks[k].components !== 1) return [];
			return morphMeshes(node, this._associations).filter((m) => s.target < m.morphTargetInfluences.length);
		});
		const bound = [];
		const sub = [['rotation', 0, 4, 'quaternion'], ['translation', 4, 3, 'position'], ['scale', 7, 3, 'scale']];
		info.joints.forEach((j, i) => {
			const o = targets[i];
			if (!o) return;
			for (const [path, off, n, prop] of sub) {
				if (channels && !channels.has(`${j.node}:${path}`)) continue;
				const key = `${this._keyOf(o)}.${prop}`;
				let b = this._bindingByKey.get(key);
				if (!b) {
					const v = o[prop];
					b = n === 4
						? new Binding(true, 4, (buf, at) => { buf[at] = v.x; buf[at + 1] = v.y; buf[at + 2] = v.z; buf[at + 3] = v.w; }, (buf, at) => setQuaternionLazy(o, buf[at], buf[at + 1], buf[at + 2], buf[at + 3]))
						: new Binding(false, 3, (buf, at) => { buf[at] = v.x; buf[at + 1] = v.y; buf[at + 2] = v.z; }, (buf, at) => v.set(buf[at], buf[at + 1], buf[at + 2]));
					this._bindingByKey.set(key, b);
				}
				bound.push({ binding: b, slot: i * 10 + off, joint: i, part: off === 0 ? 0 : off === 4 ? 1 : 2 });
			}
		});
		const base = info.jointCount * 10;
		info.scalars.forEach((s, k) => {
			if (channels && !channels.has(`${s.node}:weights`)) return;
			for (const m of morphs[k]) {
				const key = `${this._keyOf(m)}.morphTargetInfluences[${s.target}]`;
				let b = this._bindingByKey.get(key);
				if (!b) {
					const t = s.target;
					b = new Binding(false, 1, (buf, at) => { buf[at] = m.morphTargetInfluences[t]; }, (buf, at) => { m.morphTargetInfluences[t] = buf[at]; });
					this._bindingByKey.set(key, b);
				}
				bound.push({ binding: b, slot: base + info.scalarTracks[k].offset, joint: -1, part: k });
			}
		});
		// the changed-bitset writer of the fast path (one action at weight 1 writing its own bindings): the
		// sub-tracks it binds (bits 1 rotation, 2 translation, 4 scale per joint; morph weights per track)
		const joints = new Uint8Array(info.jointCount), weights = new Uint8Array(info.scalars.length);
		for (const x of bound) if (x.joint >= 0) joints[x.joint] |= 1 << x.part; else weights[x.part] = 1;
		const setters = {
			rotation: (o, v, i) => { if (joints[i / 10] & 1) THREE_SETTERS.rotation(o, v, i); },
			translation: (o, v, i) => { if (joints[(i - 4) / 10] & 2) THREE_SETTERS.translation(o, v, i); },
			scale: (o, v, i) => { if (joints[(i - 7) / 10] & 4) THREE_SETTERS.scale(o, v, i); },
			morph: (m, k, value) => { if (weights[k]) m.morphTargetInfluences[info.scalars[k].target] = value; },
			get: THREE_SETTERS.get,
			getMorph: (m, k) => m.morphTargetInfluences[info.scalars[k].target],
		};
		const writer = new PoseWriter(anim, index, targets, morphs, setters);
		// duration: three's AnimationClip.duration, the last key time (float32); its loops wrap there
		c = { index, name: info.name, duration: engineDuration(this._json, info, index, anim.clipCount), info, bound, targets, morphs, writer };
		this._clips.set(index, c);
		return c;
	}
	_keyOf(o) {
		let k = this._objectKeys.get(o);
		if (k === undefined) { k = this._objectKeys.size; this._objectKeys.set(o, k); }
		return k;
	}
	// The "node:path" channels of the clip's glTF animation (by name, else index), or null without the JSON.
	_channels(info, index) {
		const a = gltfAnimationIndex(this._json, info, index, this.anim.clipCount);
		return a < 0 ? null : gltfChannels(this._json, a);
	}

	/** The action of a clip (index, name, or an action's clip), created on first use (one per clip). */
	clipAction(clip, optionalRoot, blendMode) {
		const c = this._clipOf(clip);
		let a = this._byClip.get(c.index);
		if (!a) {
			a = new SinewAction(this, c);
			if (blendMode !== undefined) a.blendMode = blendMode;
			this._byClip.set(c.index, a);
			this._actions.push(a);
		}
		return a;
	}
	existingAction(clip) { return this._byClip.get(this._clipOf(clip).index) ?? null; }
	stopAllAction() {
		for (let i = this._nActive - 1; i >= 0; --i) this._actions[i].stop();
		return this;
	}
	uncacheClip(clip) { const a = this.existingAction(clip); if (a) this.uncacheAction(clip); }
	uncacheAction(clip) {
		const a = this.existingAction(clip);
		if (!a) return;
		a.stop();
		this._actions.splice(this._actions.indexOf(a), 1);
		this._byClip.delete(a._clip.index);
	}
	uncacheRoot() { this.stopAllAction(); for (const a of [...this._byClip.values()]) this.uncacheAction(a._clip); }

	// AnimationMixer._activateAction / _deactivateAction (the active list's order is three's: swaps)
	_activateAction(action) {
		if (action._active) return;
		for (const { binding } of action._clip.bound) {
			if (binding.useCount++ === 0) { this._bindings.push(binding); binding.saveOriginalState(); }
		}
		const actions = this._actions, prev = actions.indexOf(action), last = this._nActive++;
		actions[prev] = actions[last]; actions[last] = action;
		action._active = true;
	}
	_deactivateAction(action) {
		if (!action._active) return;
		for (const { binding } of action._clip.bound) {
			if (--binding.useCount === 0) {
				binding.restoreOriginalState();
				this._bindings.splice(this._bindings.indexOf(binding), 1);
			}
		}
		const actions = this._actions, prev = actions.indexOf(action), first = --this._nActive;
		actions[prev] = actions[first]; actions[first] = action;
		action._active = false;
		if (this._fast === action) this._fast = null;
	}

	/** Advances every playing action by dt seconds (times timeScale) and writes the blended pose. */
	update(deltaTime) {
		deltaTime *= this.timeScale;
		const actions = this._actions, n = this._nActive, time = this.time += deltaTime;
		const timeDirection = Math.sign(deltaTime), accuIndex = this._accuIndex ^= 1;
		let contributing = 0, only = null, onlyWeight = 0;
		const weights = this._weights ??= [];
		for (let i = 0; i !== n; ++i) {
			const w = actions[i]._update(time, deltaTime, timeDirection);
			weights[i] = w;
			if (w > 0) { contributing++; only = actions[i]; onlyWeight = w; }
		}
		// fast path: one normal action at weight 1 that binds every active binding: its changed outputs only
		if (contributing === 1 && onlyWeight === 1 && only.blendMode === NormalAnimationBlendMode && only._clip.bound.length === this._bindings.length) {
			const w = only._clip.writer;
			if (this._fast !== only) { w.invalidate(); this._fast = only; }
			if (w.stale(only._clipTime)) w.write(only._clipTime);
			for (const { binding } of only._clip.bound) binding.forceWrite = true; // the accumulators are stale now
			return this;
		}
		if (this._fast) { this._fast._clip.writer.invalidate(); this._fast = null; }
		for (let i = 0; i !== n; ++i) {
			const w = weights[i], a = actions[i];
			if (!(w > 0)) continue;
			const pose = this.anim.sample(a._clip.index, a._clipTime); // one wasm call per contributing action
			const additive = a.blendMode === AdditiveAnimationBlendMode;
			for (const { binding, slot } of a._clip.bound) {
				const b = binding.buffer;
				for (let k = 0; k < binding.size; k++) b[k] = pose[slot + k];
				if (additive) binding.accumulateAdditive(w); else binding.accumulate(accuIndex, w);
			}
		}
		const bindings = this._bindings;
		for (let i = 0; i !== bindings.length; ++i) bindings[i].apply(accuIndex);
		return this;
	}
	/** three's setTime: the mixer and every action back to time 0, then update(t). */
	setTime(time) {
		this.time = 0;
		for (const a of this._actions) a.time = 0;
		return this.update(time);
	}
	/** The next update writes every bound property again (after other code changed the nodes). */
	invalidate() {
		for (const c of this._clips.values()) c.writer.invalidate();
		for (const b of this._bindings) b.forceWrite = true;
		return this;
	}
	/** Objects of a clip's joints (null where the glTF node is not in this scene) and the glTF nodes not found. */
	targetsOf(clip) { return this._clipOf(clip).targets; }
	missingOf(clip) { const c = this._clipOf(clip); return c.info.joints.filter((j, i) => j.node !== null && !c.targets[i]).map((j) => j.node); }
}

export default SinewMixer;
