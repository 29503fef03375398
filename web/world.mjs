// sinew — see include/sinew.h for version and licence
// The world runtime: ONE WebAssembly instance and ONE memory for a whole scene. Blobs are
// appended as they load (lazy loading), players (one character's pose each) hold clip layers,
// and world.update(dt) is ONE wasm call per frame that advances every layer (time, loop mode,
// crossfade ramp, events) and writes every player's blended pose and morph weights.
//
//   import { createWorld } from './world.mjs';
//   const world = await createWorld();
//   const walk = world.load(walkBytes), run = world.load(runBytes); // SinewError on a bad blob
//   const hero = world.addPlayer({ clip: walk.clip(0), layers: 3 });
//   hero.layer(0).play(walk.clip(0), { loop: 'repeat' });
//   hero.layer(1).play(run.clip(0), { loop: 'repeat', weight: 0 });
//   hero.layer(0).fadeTo(0, 0.3); hero.layer(1).fadeTo(1, 0.3);      // a crossfade
//   world.update(dt);                                                 // one wasm call, all players
//   hero.pose;   // Float32Array: 10 floats per joint (rotation xyzw, translation, scale), then scalars
//
// Blending semantics, masks and layer order: web/README.md §World runtime.
import { SinewError, simdSupported } from './sinew.mjs';
import { SinewRig } from './rig.mjs';

const FLOATS_PER_JOINT = 10;
// world_layer flags (web/sinew_world.c)
const ENABLED = 1, ADDITIVE = 2, REF_BIND = 4, LOOP_SHIFT = 4, STOP_AT_ZERO = 64, REVERSED = 128, PAUSED = 256, STOP_AT_END = 512;
const LOOP_MODES = ['once', 'repeat', 'pingpong'];
export const LayerEvent = Object.freeze({ LOOP: 1, FINISHED: 2, FADED_OUT: 4, FADE_DONE: 8, WARP_DONE: 16 });
const SNAPSHOT_MAGIC = 0x57574e53; // "SNWW"
const SNAPSHOT_VERSION = 2; // 2: binary throughout (1 held a JSON description)
const PORTABLE_MAGIC = 0x50574e53; // "SNWP": the portable snapshot (web/README.md §Portable snapshots)
const PORTABLE_VERSION = 3; // 3: binary throughout (2 held a JSON description and format-2 blobs)

const moduleCache = new Map(); // variant -> Promise<{ module, id }>

function fnv1a(bytes, h = 0x811c9dc5) {
	for (let i = 0; i < bytes.length; i++) { h ^= bytes[i]; h = Math.imul(h, 0x01000193) >>> 0; }
	return h >>> 0;
}

async function readWasm(name) {
	const url = new URL(name, import.meta.url);
	if (url.protocol === 'file:') {
		const fs = await import('node:fs/promises');
		return new Uint8Array(await fs.readFile(url));
	}
	const response = await fetch(url);
	if (!response.ok) throw new Error(`sinew: cannot fetch ${url}: ${response.status}`);
	return new Uint8Array(await response.arrayBuffer());
}

// The compiled world module and its build id (FNV-1a of the module bytes; a snapshot restores
// only into the build that saved it).
function worldModule(simd, wasm) {
	if (wasm !== undefined) {
		if (wasm instanceof WebAssembly.Module) return Promise.resolve({ module: wasm, id: null });
		const bytes = wasm instanceof Uint8Array ? wasm : new Uint8Array(ArrayBuffer.isView(wasm) ? wasm.buffer : wasm);
		return WebAssembly.compile(bytes).then((module) => ({ module, id: fnv1a(bytes) }));
	}
	const key = simd ? 'simd' : 'baseline';
	if (!moduleCache.has(key)) {
		const p = readWasm(simd ? './sinew-world-simd.wasm' : './sinew-world.wasm')
			.then(async (bytes) => ({ module: await WebAssembly.compile(bytes), id: fnv1a(bytes) }));
		p.catch(() => moduleCache.delete(key));
		moduleCache.set(key, p);
	}
	return moduleCache.get(key);
}

function cString(buffer, ptr) {
	if (!ptr) return null;
	const bytes = new Uint8Array(buffer);
	let end = ptr;
	while (end < bytes.length && bytes[end] !== 0) end++;
	return new TextDecoder().decode(bytes.subarray(ptr, end));
}

function toBytes(bytes) {
	return bytes instanceof Uint8Array ? bytes
		: ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
		: new Uint8Array(bytes);
}

// The clip's per-node objects, read from the blob's rig when asked (own enumerable accessors shared by every clip).
const CLIP_ACCESSORS = {
	joints: { get() { return this.rig.joints(); }, enumerable: true },
	scalars: { get() { return this.rig.scalars(); }, enumerable: true },
};

/** A clip of a blob loaded into the world. */
export class WorldClip {
	constructor(world, blob, index, ptr) {
		const dv = new DataView(world.memory.buffer, ptr, 80);
		const u32 = (o) => dv.getUint32(o, true);
		this.world = world;
		this.blob = blob;
		this.index = index;
		this.ptr = ptr;
		this.sampleRate = dv.getFloat64(0, true);
		this.duration = dv.getFloat64(8, true);
		this.unitScale = dv.getFloat64(16, true);
		this.sampleCount = u32(24);
		this.jointCount = u32(28);
		this.scalarTrackCount = u32(32);
		this.scalarFloats = u32(36);
		this.segmentCount = u32(40);
		this.looping = (u32(44) & 1) !== 0;
		this.hasMetadata = (u32(44) & 2) !== 0;
		this.size = u32(48);
		/** The blob's rig (web/rig.mjs: names, hierarchy, glTF nodes, rest pose), shared by its clips. */
		this.rig = blob.rig;
		this.name = cString(world.memory.buffer, u32(52)) ?? this.rig.clipName(index);
		// the scalar layout (the rig's, the same for every clip of the blob: shared with the clip before)
		const layout = new DataView(world.memory.buffer, u32(56), this.scalarTrackCount * 8);
		const at = (s) => ({ offset: layout.getUint32(8 * s, true), components: layout.getUint32(8 * s + 4, true) });
		let tracks = index > 0 ? blob._clipsSoFar[index - 1].scalarTracks : null;
		for (let s = 0; tracks && s < this.scalarTrackCount; s++) if (tracks[s].offset !== at(s).offset || tracks[s].components !== at(s).components) tracks = null;
		this.scalarTracks = tracks && tracks.length === this.scalarTrackCount ? tracks
			: Object.freeze(Array.from({ length: this.scalarTrackCount }, (_, s) => Object.freeze(at(s))));
		this.kernel = cString(world.memory.buffer, u32(60));
		this._first = u32(68);
		this._part = u32(72);
		Object.defineProperties(this, CLIP_ACCESSORS);
		Object.freeze(this);
	}

	/**
	 * Which sub-tracks the clip sets, per joint (bit 0 rotation, 1 translation, 2 scale) then per
	 * scalar float (bit 0): a writable view of world memory, computed at load from the blob's
	 * descriptors (sub-tracks holding the default pose throughout are left to other layers). An
	 * adapter that knows the source (the glTF's channels) may overwrite it (shared by every player).
	 */
	get participation() {
		return new Uint8Array(this.world.memory.buffer, this._part, this.jointCount + this.scalarFloats);
	}

	/** The clip's pose at t = 0 (the additive reference 'first'), a copy. */
	firstSample() {
		return new Float32Array(this.world.memory.buffer, this._first, this.jointCount * FLOATS_PER_JOINT + this.scalarFloats).slice();
	}

	/**
	 * Rest (default, bind) pose from the rig, jointCount * 10 + scalarFloats floats; without metadata
	 * (--strip) the clip's first sample (whose default sub-tracks hold the default values).
	 */
	restPose() {
		const rig = this.rig;
		if (!rig.mapped) return this.firstSample();
		const out = new Float32Array(this.jointCount * FLOATS_PER_JOINT + this.scalarFloats);
		out.set(rig.restPose.subarray(0, Math.min(rig.nodeCount, this.jointCount) * FLOATS_PER_JOINT));
		for (let j = rig.nodeCount; j < this.jointCount; j++) { out[j * FLOATS_PER_JOINT + 3] = 1; out.fill(1, j * FLOATS_PER_JOINT + 7, j * FLOATS_PER_JOINT + 10); }
		this.scalarTracks.forEach((t, k) => {
			const from = k < rig.scalarCount ? rig.scalarOffsets[k] : -1;
			for (let c = 0; c < t.components; c++) out[this.jointCount * FLOATS_PER_JOINT + t.offset + c] = from >= 0 && c < rig.scalarComponents[k] ? rig.restScalars[from + c] : 0;
		});
		return out;
	}
}

/** A loaded blob: its clips live in the world's memory for the world's life (append-only). */
export class WorldBlob {
	constructor(world, index, rig, randomAccess = true) {
		this.world = world;
		this.index = index;
		this.randomAccess = randomAccess;
		// the world's blob table (world_blob records: first clip, clip count, bytes, size): read from
		// memory, so a restored world rebuilds its blobs without a wasm call
		const dv = world._view(), table = dv.getUint32(world._state + 8, true) + 16 * index;
		const first = dv.getUint32(table, true), count = dv.getUint32(table + 4, true);
		const ptr = dv.getUint32(table + 8, true);
		/** The blob's size in bytes. */
		this.bytes = dv.getUint32(table + 12, true);
		/** The rig (web/rig.mjs), read from the blob's bytes in world memory. */
		this.rig = (rig ?? new SinewRig(new Uint8Array(world.memory.buffer, ptr, this.bytes))).attach(world.memory, ptr, this.bytes);
		const clips = this._clipsSoFar = [];
		for (let c = 0; c < count; c++) clips.push(new WorldClip(world, this, c, first + 80 * c));
		delete this._clipsSoFar;
		this.clips = Object.freeze(clips);
		this.clipCount = clips.length;
	}

	clip(i = 0) {
		if (typeof i === 'string') {
			const c = this.clips.find((x) => x.name === i);
			if (!c) throw new RangeError(`sinew world: no clip named '${i}'`);
			return c;
		}
		const c = this.clips[i];
		if (!c) throw new RangeError(`sinew world: clip ${i} out of range (${this.clipCount} clips)`);
		return c;
	}
}

// Layer record field offsets (world_layer in sinew_world.c).
const L_TIME = 0, L_SPEED = 8, L_WEIGHT = 12, L_TARGET = 16, L_RATE = 20, L_CLIP = 24, L_FLAGS = 28, L_MASK = 32,
	L_JMAP = 36, L_SMAP = 40, L_EVENTS = 44, L_LOOPS = 48, L_FROM = 52, L_TO = 56, L_REPS = 60, L_LOOP_COUNT = 64,
	L_SPEED_TARGET = 68, L_SPEED_RATE = 72;
const LAYER_BYTES = 80;

/** One clip layer of a player. Its fields live in wasm memory: setting them is not a wasm call. */
export class WorldLayer {
	constructor(player, index, ptr) {
		this.player = player;
		this.index = index;
		this.ptr = ptr;
		this._clip = null;
		this._maps = new Map(); // clip ptr -> (given map array or kind) -> map ptr (0 = identity)
		this._masks = new Map();
	}
	get _dv() { return this.player.world._view(); }
	_flags() { return this._dv.getUint32(this.ptr + L_FLAGS, true); }
	_setFlag(bit, on) {
		const f = this._flags();
		this._dv.setUint32(this.ptr + L_FLAGS, on ? f | bit : f & ~bit, true);
	}

	/** The clip the layer plays (null: empty). */
	get clip() { return this._clip; }
	/**
	 * Sets the clip (time 0, playing, not reversed); joints map to the player's by the metadata's
	 * glTF node indices when the player has `nodes`, else by index. Allocates the map once per
	 * clip and layer (memory grows at setup, never in update()).
	 */
	setClip(clip, options = {}) {
		const dv = this._dv;
		if (clip === null) {
			dv.setUint32(this.ptr + L_CLIP, 0, true);
			this._clip = null;
			this._setFlag(ENABLED, false);
			return this;
		}
		if (!(clip instanceof WorldClip) || clip.world !== this.player.world) throw new TypeError('sinew world: not a clip of this world');
		this._setMaps(clip, options, false);
		const v = this.player.world._view();
		v.setUint32(this.ptr + L_CLIP, clip.ptr, true);
		v.setFloat64(this.ptr + L_TIME, 0, true);
		v.setInt32(this.ptr + L_LOOP_COUNT, -1, true);
		v.setUint32(this.ptr + L_FLAGS, this._flags() & ~(REVERSED | PAUSED), true);
		this._clip = clip;
		return this;
	}

	// The layer's joint and scalar maps for `clip` (checked first: nothing changes when one is refused); with `keep`,
	// only those `options` gives (play() on the clip the layer has), else a missing one is the default.
	_setMaps(clip, options, keep) {
		// maps are allocated once per (clip, given map array) and layer: replaying costs no memory
		let byClip = this._maps.get(clip.ptr);
		if (!byClip) { byClip = new Map(); this._maps.set(clip.ptr, byClip); }
		const cached = (kind, given, make) => {
			const k = given ?? kind;
			if (!byClip.has(k)) byClip.set(k, make());
			return byClip.get(k);
		};
		const setJ = !keep || options.jointMap !== undefined, setS = !keep || options.scalarMap !== undefined;
		const map = setJ ? cached('joints', options.jointMap, () => this.player._jointMap(clip, options.jointMap)) : 0;
		const smap = setS && options.scalarMap ? cached('scalars', options.scalarMap, () => this.player._scalarMap(clip, options.scalarMap)) : 0;
		const v = this.player.world._view();
		if (setJ) v.setUint32(this.ptr + L_JMAP, map, true);
		if (setS) v.setUint32(this.ptr + L_SMAP, smap, true);
	}

	/** setClip + enabled + options { time, speed, weight, loop, additive }. */
	play(clip = this._clip, options = {}) {
		if (clip !== this._clip || options.restart) this.setClip(clip, options);
		else if (clip && (options.jointMap !== undefined || options.scalarMap !== undefined)) this._setMaps(clip, options, true);
		if (options.loop !== undefined) this.loop = options.loop;
		if (options.additive !== undefined) this.additive = options.additive;
		if (options.speed !== undefined) this.speed = options.speed;
		if (options.weight !== undefined) this.weight = options.weight;
		if (options.time !== undefined) this.time = options.time;
		if (options.mask !== undefined) this.mask = options.mask;
		if (options.range !== undefined) this.range = options.range;
		if (options.stopAtEnd !== undefined) this.stopAtEnd = options.stopAtEnd;
		this.paused = false;
		this.enabled = true;
		return this;
	}

	get time() { return this._dv.getFloat64(this.ptr + L_TIME, true); }
	set time(t) {
		const d = this._clip ? this._clip.duration : 0;
		const v = Number.isFinite(+t) ? Math.min(Math.max(+t, 0), d) : 0; // (a range confines it at the next update)
		this._dv.setFloat64(this.ptr + L_TIME, v, true);
		this._setFlag(PAUSED, !!this._userPaused); // a 'once' layer that had stopped at its end plays again
	}
	get speed() { return this._dv.getFloat32(this.ptr + L_SPEED, true); }
	/** Setting the speed cancels a warp. */
	set speed(s) { this._dv.setFloat32(this.ptr + L_SPEED, +s, true); this._dv.setFloat32(this.ptr + L_SPEED_RATE, 0, true); }
	/**
	 * Ramps the speed linearly from `from` to `to` over `duration` seconds of update() time, inside
	 * the frame call (as three.js AnimationAction.warp; WARP_DONE event when it ends).
	 */
	warp(from, to, duration) {
		if (!Number.isFinite(+from) || !Number.isFinite(+to)) throw new RangeError(`sinew world: warp ${from} -> ${to}`);
		const dv = this._dv;
		if (!(duration > 0) || from === to) { this.speed = to; return this; }
		dv.setFloat32(this.ptr + L_SPEED, from, true);
		dv.setFloat32(this.ptr + L_SPEED_TARGET, to, true);
		dv.setFloat32(this.ptr + L_SPEED_RATE, Math.abs(to - from) / duration, true);
		return this;
	}
	get warping() { return this._dv.getFloat32(this.ptr + L_SPEED_RATE, true) > 0; }
	/**
	 * 'repeat' / 'pingpong': the layer finishes (as 'once' at an end: paused, FINISHED event,
	 * stopAtEnd drops it) when `loopCount` reaches this many loops; Infinity (default) loops forever.
	 */
	get repetitions() { const n = this._dv.getUint32(this.ptr + L_REPS, true); return n === 0 ? Infinity : n; }
	set repetitions(n) {
		if (n !== Infinity && !(Number.isInteger(n) && n >= 1 && n < 2 ** 31)) throw new RangeError(`sinew world: repetitions ${n} (an integer >= 1, or Infinity)`);
		this._dv.setUint32(this.ptr + L_REPS, n === Infinity ? 0 : n, true);
	}
	/**
	 * Loops completed (three.js's count: -1 until the layer first moves; a forward start counts from
	 * 0, a backward start's first wrap through 0 does not count). setClip and resetLoops() set -1.
	 */
	get loopCount() { return this._dv.getInt32(this.ptr + L_LOOP_COUNT, true); }
	resetLoops() { this._dv.setInt32(this.ptr + L_LOOP_COUNT, -1, true); return this; }
	/** Current weight (a fade in progress changes it in update()). Setting it cancels a fade. */
	get weight() { return this._dv.getFloat32(this.ptr + L_WEIGHT, true); }
	set weight(w) {
		if (!(w >= 0)) throw new RangeError(`sinew world: weight ${w} (must be >= 0)`);
		this._dv.setFloat32(this.ptr + L_WEIGHT, w, true);
		this._dv.setFloat32(this.ptr + L_RATE, 0, true);
	}
	get enabled() { return (this._flags() & ENABLED) !== 0; }
	set enabled(on) {
		if (on && !this._clip) throw new Error('sinew world: the layer has no clip');
		this._setFlag(ENABLED, !!on);
	}
	/** Time stands still (the pose still contributes). A 'once' layer pauses itself at its end. */
	get paused() { return (this._flags() & PAUSED) !== 0; }
	set paused(p) { this._userPaused = !!p; this._setFlag(PAUSED, !!p); }
	get loop() { return LOOP_MODES[(this._flags() >> LOOP_SHIFT) & 3]; }
	set loop(mode) {
		const m = LOOP_MODES.indexOf(mode);
		if (m < 0) throw new RangeError(`sinew world: loop mode '${mode}' (once, repeat or pingpong)`);
		this._dv.setUint32(this.ptr + L_FLAGS, (this._flags() & ~(3 << LOOP_SHIFT)) | (m << LOOP_SHIFT), true);
	}
	/**
	 * [from, to] seconds: the layer plays that part of its clip (loop modes wrap and turn at its ends);
	 * null for the whole clip.
	 */
	get range() {
		const a = this._dv.getFloat32(this.ptr + L_FROM, true), b = this._dv.getFloat32(this.ptr + L_TO, true);
		return b > a ? [a, b] : null;
	}
	set range(r) {
		const [a, b] = r ?? [0, 0];
		if (r && !(b > a && a >= 0)) throw new RangeError(`sinew world: range [${a}, ${b}]`);
		this._dv.setFloat32(this.ptr + L_FROM, a, true);
		this._dv.setFloat32(this.ptr + L_TO, b, true);
	}
	/** 'once' layers: reaching the end disables the layer (the frame that reaches it blends without it). */
	get stopAtEnd() { return (this._flags() & STOP_AT_END) !== 0; }
	set stopAtEnd(on) { this._setFlag(STOP_AT_END, !!on); }
	/** Ping-pong only: true while playing backwards. */
	get reversed() { return (this._flags() & REVERSED) !== 0; }
	/** false (base layer), 'first' (additive against the clip's first sample) or 'bind' (against the player's rest pose). */
	get additive() { const f = this._flags(); return f & ADDITIVE ? (f & REF_BIND ? 'bind' : 'first') : false; }
	set additive(a) {
		if (a !== false && a !== 'first' && a !== 'bind') throw new RangeError(`sinew world: additive ${a} (false, 'first' or 'bind')`);
		this._setFlag(ADDITIVE, a !== false);
		this._setFlag(REF_BIND, a === 'bind');
	}
	/**
	 * Per-joint weight factors (player joints, 0..1), or null for all 1. Each distinct array is
	 * copied into world memory once per layer (setup-time growth); later assignments of the
	 * same array reuse it (rewritten in place).
	 */
	get mask() { return this._mask ?? null; }
	set mask(m) {
		if (m === null || m === undefined) { this._dv.setUint32(this.ptr + L_MASK, 0, true); this._mask = null; return; }
		const J = this.player.jointCount;
		if (m.length !== J) throw new RangeError(`sinew world: mask of ${m.length} values for ${J} joints`);
		let ptr = this._masks.get(m);
		if (ptr === undefined) { ptr = this.player.world._alloc(J * 4); this._masks.set(m, ptr); }
		new Float32Array(this.player.world.memory.buffer, ptr, J).set(m);
		this._dv.setUint32(this.ptr + L_MASK, ptr, true);
		this._mask = m;
	}

	/**
	 * Ramps the weight linearly to `target` over `duration` seconds of update() time (inside the
	 * frame call). options.stop: when the ramp ends at 0 the layer is disabled (FADED_OUT event).
	 */
	fadeTo(target, duration, options = {}) {
		if (!(target >= 0)) throw new RangeError(`sinew world: fade target ${target}`);
		const dv = this._dv, w = this.weight;
		this._setFlag(STOP_AT_ZERO, !!options.stop);
		if (!(duration > 0) || w === target) {
			dv.setFloat32(this.ptr + L_WEIGHT, target, true);
			dv.setFloat32(this.ptr + L_RATE, 0, true);
			if (target === 0 && options.stop) this._setFlag(ENABLED, false);
			return this;
		}
		dv.setFloat32(this.ptr + L_TARGET, target, true);
		dv.setFloat32(this.ptr + L_RATE, Math.abs(target - w) / duration, true);
		return this;
	}
	get fading() { return this._dv.getFloat32(this.ptr + L_RATE, true) > 0; }
	get fadeTarget() { return this._dv.getFloat32(this.ptr + L_TARGET, true); }

	/** LayerEvent bits of the last update(). */
	get events() { return this._dv.getUint32(this.ptr + L_EVENTS, true); }
	/** Loop boundaries crossed in the last update() (repeat, pingpong). */
	get loops() { return this._dv.getUint32(this.ptr + L_LOOPS, true); }
}

// Player record offsets (world_player).
const P_POSE = 16, P_REST = 20, P_FLAGS = 24, P_MATRICES = 28;

/** One character: a pose blended from its layers. */
export class WorldPlayer {
	constructor(world, index, ptr, jointCount, scalarFloats, layerCount, nodes) {
		this.world = world;
		this.index = index;
		this.ptr = ptr;
		this.jointCount = jointCount;
		this.scalarFloats = scalarFloats;
		this.layerCount = layerCount;
		/** glTF node index of each player joint (maps clips by their metadata), or null. */
		this.nodes = nodes;
		const dv = world._view();
		this._posePtr = dv.getUint32(ptr + P_POSE, true);
		this._restPtr = dv.getUint32(ptr + P_REST, true);
		const layers = dv.getUint32(ptr + 12, true);
		this.layers = Object.freeze(Array.from({ length: layerCount }, (_, i) => new WorldLayer(this, i, layers + LAYER_BYTES * i)));
		this._poseView = null;
		this._buffer = null;
		this._matrices = null;
		this._readMatrices();
	}

	// The matrix records of this player (web/sinew_world.c world_matrices, world_skin) read back
	// from memory: after setMatrices() and in a restored world.
	_readMatrices() {
		const dv = this.world._view(), m = dv.getUint32(this.ptr + P_MATRICES, true);
		if (!m) return;
		const skins = [];
		for (let s = dv.getUint32(m + 16, true); s; s = dv.getUint32(s + 16, true))
			skins.push({ bones: dv.getUint32(s, true), out: dv.getUint32(s + 12, true), capacity: dv.getUint32(s + 20, true) });
		const inv = dv.getUint32(m + 24, true); // world_inverses { count, joints, out }
		this._matrices = { ptr: m, world: dv.getUint32(m + 12, true), anchors: dv.getUint32(m + 8, true), anchorCount: dv.getUint32(m + 20, true),
			parent: dv.getUint32(m, true), skins, inverses: inv ? { count: dv.getUint32(inv, true), joints: dv.getUint32(inv + 4, true), out: dv.getUint32(inv + 8, true) } : null,
			buffer: null, views: null };
	}

	/**
	 * Turns on matrix outputs (once per player, setup-time memory): after blending, update()
	 * composes every joint's local matrix from its pose (as three.js Matrix4.compose), multiplies it
	 * by its parent's world matrix (parents[j]: a joint index, or -1 - k for anchor k, a matrix JS
	 * writes into anchorMatrices(k) each frame, identity until then) and every skin's bones by their
	 * inverse bind matrices: skins[i] = { joints (player joint of each bone), inverses (16 floats per
	 * bone, column-major), capacity (floats to allocate, >= 16 * bones, e.g. a bone texture's size) }.
	 * inverses: joints whose world matrix is also written inverted (three.js: a skinned mesh's
	 * bindMatrixInverse), read through inverseMatrices. Column-major float32 4x4, Matrix4.elements
	 * order. All inside the same one wasm call.
	 */
	setMatrices({ parents, anchors = 1, skins = [], inverses = [] } = {}) {
		if (this._matrices) throw new Error('sinew world: setMatrices() once per player');
		const J = this.jointCount, w = this.world;
		if (!parents || parents.length !== J) throw new RangeError(`sinew world: setMatrices needs ${J} parents`);
		if (!(Number.isInteger(anchors) && anchors >= 1)) throw new RangeError(`sinew world: anchors ${anchors}`);
		// parents before children (a cycle or a bad index is refused)
		const order = [], state = new Uint8Array(J);
		const visit = (j) => {
			if (state[j] === 2) return;
			if (state[j] === 1) throw new RangeError(`sinew world: setMatrices: joint ${j} is its own ancestor`);
			state[j] = 1;
			const p = parents[j];
			if (!Number.isInteger(p) || p >= J || p < -anchors) throw new RangeError(`sinew world: setMatrices: parent ${p} of joint ${j}`);
			if (p >= 0) visit(p);
			state[j] = 2;
			order.push(j);
		};
		for (let j = 0; j < J; j++) visit(j);
		for (const s of skins) {
			if (s.joints.some((j) => !(Number.isInteger(j) && j >= 0 && j < J))) throw new RangeError('sinew world: setMatrices: a skin bone is not a player joint');
			if (s.inverses.length !== 16 * s.joints.length) throw new RangeError('sinew world: setMatrices: 16 inverse floats per bone');
			if ((s.capacity ?? 0) > 0 && s.capacity < 16 * s.joints.length) throw new RangeError('sinew world: setMatrices: skin capacity too small');
		}
		if (!Array.isArray(inverses) || inverses.some((j) => !(Number.isInteger(j) && j >= 0 && j < J))) throw new RangeError('sinew world: setMatrices: an inverse is not a player joint');
		const m = w._alloc(32), par = w._alloc(4 * J + 4), ord = w._alloc(4 * J + 4), anc = w._alloc(64 * anchors), world = w._alloc(64 * J + 4);
		const skinPtrs = skins.map((s) => {
			const n = s.joints.length, cap = Math.max(s.capacity ?? 0, 16 * n);
			return { rec: w._alloc(32), joints: w._alloc(4 * n + 4), inverse: w._alloc(64 * n + 4), out: w._alloc(4 * cap + 4), n, cap };
		});
		const nInv = inverses.length, inv = nInv ? { rec: w._alloc(16), joints: w._alloc(4 * nInv), out: w._alloc(64 * nInv) } : null;
		const b = w.memory.buffer, dv = w._view();
		new Int32Array(b, par, J).set(parents);
		new Uint32Array(b, ord, J).set(order);
		const id = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
		for (let k = 0; k < anchors; k++) new Float32Array(b, anc + 64 * k, 16).set(id);
		skins.forEach((s, i) => {
			const p = skinPtrs[i];
			new Uint32Array(b, p.joints, p.n).set(s.joints);
			new Float32Array(b, p.inverse, 16 * p.n).set(s.inverses);
			for (let k = 0; k < p.n; k++) new Float32Array(b, p.out + 64 * k, 16).set(id);
			dv.setUint32(p.rec, p.n, true); dv.setUint32(p.rec + 4, p.joints, true); dv.setUint32(p.rec + 8, p.inverse, true);
			dv.setUint32(p.rec + 12, p.out, true); dv.setUint32(p.rec + 16, i + 1 < skins.length ? skinPtrs[i + 1].rec : 0, true);
			dv.setUint32(p.rec + 20, p.cap, true);
		});
		for (let j = 0; j < J; j++) new Float32Array(b, world + 64 * j, 16).set(id);
		if (inv) {
			new Uint32Array(b, inv.joints, nInv).set(inverses);
			for (let k = 0; k < nInv; k++) new Float32Array(b, inv.out + 64 * k, 16).set(id);
			dv.setUint32(inv.rec, nInv, true); dv.setUint32(inv.rec + 4, inv.joints, true); dv.setUint32(inv.rec + 8, inv.out, true);
			dv.setUint32(m + 24, inv.rec, true);
		}
		dv.setUint32(m, par, true); dv.setUint32(m + 4, ord, true); dv.setUint32(m + 8, anc, true); dv.setUint32(m + 12, world, true);
		dv.setUint32(m + 16, skinPtrs.length ? skinPtrs[0].rec : 0, true); dv.setUint32(m + 20, anchors, true);
		dv.setUint32(this.ptr + P_MATRICES, m, true); // last: the frame call starts using the record
		this._readMatrices();
		return this;
	}
	get hasMatrices() { return this._matrices !== null; }
	_matrixViews() {
		const m = this._matrices;
		if (!m) throw new Error('sinew world: the player has no matrices (setMatrices)');
		if (m.buffer === null || m.buffer.byteLength === 0) {
			const b = m.buffer = this.world.memory.buffer;
			m.views = { world: new Float32Array(b, m.world, 16 * this.jointCount), anchors: new Float32Array(b, m.anchors, 16 * m.anchorCount),
				skins: m.skins.map((s) => new Float32Array(b, s.out, s.capacity)),
				inverses: new Float32Array(b, m.inverses ? m.inverses.out : 0, m.inverses ? 16 * m.inverses.count : 0) };
		}
		return m.views;
	}
	/** World matrices of the joints written by the last update(): 16 floats per joint. A wasm heap view. */
	get worldMatrices() { return this._matrixViews().world; }
	/** Anchor k's matrix (16 floats), read by the next update(): a writable wasm heap view. */
	anchorMatrix(k = 0) { return this._matrixViews().anchors.subarray(16 * k, 16 * k + 16); }
	/** Skin i's bone matrices (world × inverse bind, 16 floats per bone, then the capacity's padding). A wasm heap view. */
	skinMatrices(i = 0) { const v = this._matrixViews().skins[i]; if (!v) throw new RangeError(`sinew world: skin ${i}`); return v; }
	get skinCount() { return this._matrices ? this._matrices.skins.length : 0; }
	/** Inverses of the world matrices of setMatrices' `inverses` joints, in that order (16 floats each). A wasm heap view. */
	get inverseMatrices() { return this._matrixViews().inverses; }
	layer(i) {
		const l = this.layers[i];
		if (!l) throw new RangeError(`sinew world: layer ${i} out of range (${this.layerCount} layers)`);
		return l;
	}
	_views() {
		if (this._buffer === null || this._buffer.byteLength === 0) { // first call, or the memory grew (views detach)
			const n = this.jointCount * FLOATS_PER_JOINT + this.scalarFloats, b = this.world.memory.buffer;
			this._buffer = b;
			this._poseView = new Float32Array(b, this._posePtr, n);
			this._restView = new Float32Array(b, this._restPtr, n);
		}
	}
	/** The blended pose written by the last update(): 10 floats per joint, then the scalar floats. A wasm heap view. */
	get pose() { this._views(); return this._poseView; }
	/** The rest (bind) pose: fills weight below 1 and is the additive 'bind' reference. Writable view. */
	get rest() { this._views(); return this._restView; }
	/** Inactive players are skipped by update() (their pose keeps its last value). */
	get active() { return (this.world._view().getUint32(this.ptr + P_FLAGS, true) & 1) !== 0; }
	set active(on) { this.world._view().setUint32(this.ptr + P_FLAGS, on ? 1 : 0, true); }

	// 0 (identity) or a map clip joint -> player joint.
	_jointMap(clip, given) {
		let map = given ?? null;
		if (!map && this.nodes && clip.rig.mapped) {
			const index = new Map(this.nodes.map((n, j) => [n, j]));
			map = Array.from({ length: clip.jointCount }, (_, j) => { const n = j < clip.rig.nodeCount ? clip.rig.nodes[j] : -1; return n < 0 || !index.has(n) ? 0xffffffff : index.get(n); });
			if (map.length === this.jointCount && map.every((v, i) => v === i)) map = null;
		}
		if (!map) return 0;
		checkMap(map, clip.jointCount, this.jointCount, 'joint');
		const ptr = this.world._alloc(clip.jointCount * 4);
		new Uint32Array(this.world.memory.buffer, ptr, clip.jointCount).set(map);
		return ptr;
	}
	_scalarMap(clip, given) {
		if (!given) return 0;
		checkMap(given, clip.scalarFloats, this.scalarFloats, 'scalar');
		const ptr = this.world._alloc(Math.max(clip.scalarFloats, 1) * 4);
		new Uint32Array(this.world.memory.buffer, ptr, given.length).set(given);
		return ptr;
	}
}

// A clip -> player map of `what`s (joints, scalar floats): one entry per clip `what`, each a player `what` (below
// `count`) or 0xFFFFFFFF (not played), no player `what` twice (two clip joints on one player joint would add up in a
// blend and overwrite each other in a copy: a map made wrong). RangeError otherwise.
function checkMap(map, length, count, what) {
	if (map.length !== length) throw new RangeError(`sinew world: ${what} map of ${map.length} entries for the clip's ${length} ${what}s`);
	const from = new Map();
	for (let i = 0; i < length; i++) {
		const v = map[i];
		if (v === 0xffffffff) continue;
		if (!(Number.isInteger(v) && v >= 0 && v < count))
			throw new RangeError(`sinew world: ${what} map entry ${i} is ${v}: not one of the player's ${count} ${what}s, nor 0xFFFFFFFF`);
		if (from.has(v)) throw new RangeError(`sinew world: ${what} map sends clip ${what}s ${from.get(v)} and ${i} both to player ${what} ${v}`);
		from.set(v, i);
	}
}

export class SinewWorld {
	constructor(instance, module, id, simd) {
		this._instance = instance;
		this._module = module;
		this._x = instance.exports;
		this.memory = this._x.memory;
		this.buildId = id;
		this.simd = simd;
		this.blobs = [];
		this.players = [];
		this._dvBuffer = null;
		this._dv = null;
		this._state = this._x.sinew_world_state();
		this._calls = 0;
	}

	// (memory growth detaches the old buffer: its byteLength reads 0, cheaper than memory.buffer on every access)
	_view() {
		if (this._dvBuffer === null || this._dvBuffer.byteLength === 0) { this._dvBuffer = this.memory.buffer; this._dv = new DataView(this._dvBuffer); }
		return this._dv;
	}
	_alloc(size) {
		const ptr = this._x.sinew_world_alloc(size);
		if (!ptr) throw new SinewError(60, `world: cannot allocate ${size} bytes`);
		return ptr;
	}

	/** Bytes of world memory in use (data, stack, blobs, contexts, players). */
	get heapBytes() { return this._view().getUint32(this._state + 48, true) || 0; }
	/** update() calls so far. */
	get frames() { return this._view().getUint32(this._state + 40, true); }
	/** Layers sampled by the last update(). */
	get layersSampled() { return this._view().getUint32(this._state + 44, true); }

	/**
	 * Appends a blob (Uint8Array / ArrayBuffer of a .sinew). It is validated first in a throwaway
	 * instance of the same module, so a bad blob throws SinewError and leaves the world exactly as it
	 * was (memory bytes and size, blobs, players). options.randomAccess (default true): sampling
	 * costs the same at any time, which players at different times of one clip need; false keeps
	 * one segment per clip (less memory, for one player per clip playing forwards).
	 */
	load(bytes, options = {}) {
		const data = toBytes(bytes);
		const scratch = new WebAssembly.Instance(this._module, {}).exports;
		const sp = scratch.sinew_world_reserve(data.byteLength);
		if (!sp) throw new SinewError(60, `cannot allocate ${data.byteLength} bytes for the blob`);
		new Uint8Array(scratch.memory.buffer, sp, data.byteLength).set(data);
		const code = scratch.sinew_world_validate(sp, data.byteLength);
		if (code !== 0) throw new SinewError(code, cString(scratch.memory.buffer, scratch.sinew_world_error()));
		const rig = new SinewRig(data); // throws SinewError on an inconsistent rig, before the world is touched
		return this._append(data, options.randomAccess !== false, rig);
	}

	// Appends a blob already validated (by load(), or checked by a portable snapshot's checksum; the
	// world's own sinew_world_load validates it again either way) with its rig (read again from world memory without it).
	_append(data, randomAccess, rig = null) {
		const x = this._x;
		const ptr = x.sinew_world_reserve(data.byteLength);
		if (!ptr) throw new SinewError(60, `world: cannot allocate ${data.byteLength} bytes for the blob`);
		new Uint8Array(this.memory.buffer, ptr, data.byteLength).set(data);
		const r = x.sinew_world_load(ptr, data.byteLength, randomAccess ? 0 : 1, 0, 0);
		if (r !== 0) throw new SinewError(r, cString(this.memory.buffer, x.sinew_world_error()));
		const blob = new WorldBlob(this, this.blobs.length, rig, randomAccess);
		this.blobs.push(blob);
		return blob;
	}

	/**
	 * Adds a player. options: clip (a WorldClip: joints, scalars, nodes and rest pose from it),
	 * or joints / scalars (counts) and nodes (glTF node index per joint, to map clips by metadata);
	 * layers (default 4); rest (a pose array; default the clip's metadata rest pose or identity).
	 */
	addPlayer(options = {}) {
		const clip = options.clip ?? null;
		const nodes = options.nodes ?? (clip?.rig.mapped ? Array.from(clip.rig.nodes, (n) => (n >= 0 ? n : null)) : null);
		const joints = options.joints ?? (nodes ? nodes.length : clip?.jointCount);
		const scalars = options.scalars ?? clip?.scalarFloats ?? 0;
		const layers = options.layers ?? 4;
		if (!Number.isInteger(joints) || joints < 0) throw new RangeError('sinew world: addPlayer needs joints, nodes or a clip');
		const ptr = this._x.sinew_world_add_player(joints, scalars, layers);
		if (!ptr) throw new SinewError(60, `world: cannot add a player of ${joints} joints, ${scalars} scalars, ${layers} layers`);
		const p = new WorldPlayer(this, this.players.length, ptr, joints, scalars, layers, nodes);
		const rest = options.rest ?? (clip && clip.jointCount === joints && clip.scalarFloats === scalars ? clip.restPose() : null);
		if (rest) p.rest.set(rest);
		p.pose.set(p.rest);
		this.players.push(p);
		return p;
	}

	/** THE frame call: one wasm call advances and blends every player. Returns the layers sampled. */
	update(dt) {
		this._calls++;
		return this._x.sinew_world_update(+dt);
	}

	/**
	 * The world's memory image plus the little the JS side adds (per blob its randomAccess option, per
	 * player its glTF nodes), all binary (web/README.md §Snapshots): raw bytes, or a base64 string with
	 * save('base64'). Pointers inside are offsets in the linear memory, which starts at 0 in every
	 * instance, so the image restores into a fresh instance of the same build (restoreWorld) without
	 * validating, decompressing or parsing a blob again (the blobs, their rigs, the players and their
	 * layers are read back from the image); it does not move to other offsets or into another build
	 * (save({ portable: true }) does).
	 */
	save(encoding, options = {}) {
		if (encoding !== null && typeof encoding === 'object') { options = encoding; encoding = options.encoding; }
		if (options.portable) { const out = this._savePortable(); return encoding === 'base64' ? bytesToBase64(out) : out; }
		if (encoding === 'base64') return bytesToBase64(this.save());
		const used = this.heapBytes;
		const w = new Writer();
		w.u32(SNAPSHOT_MAGIC); w.u32(SNAPSHOT_VERSION); w.u32(0); w.u32(0); // size and checksum patched below
		w.u32(this.buildId ?? 0); w.u32((this.simd ? 1 : 0) | (this.buildId !== null ? 2 : 0));
		w.u32(this.memory.buffer.byteLength / 65536); w.u32(used);
		w.u32(this.blobs.length); w.u32(this.players.length);
		for (const b of this.blobs) w.u32(b.randomAccess ? 1 : 0);
		for (const p of this.players) { w.u32(p.layerCount); writePlayerJs(w, p); }
		while (w.n & 15) w.u32(0); // the image starts 16-aligned
		w.bytes(new Uint8Array(this.memory.buffer, 0, used));
		const out = w.finish();
		const dv = new DataView(out.buffer);
		dv.setUint32(8, out.length, true);
		dv.setUint32(12, fnv1a(out.subarray(16)), true);
		return out;
	}
}

// What the JS side knows of a player, in a snapshot: its glTF nodes (WorldPlayer.nodes: a count,
// 0xFFFFFFFF for none, then one i32 each, -1 for null), then a bitset of its layers paused by the caller
// (a 'once' layer pauses itself at its end; setting its time plays it again, unless the caller paused it).
function writePlayerJs(w, p) {
	if (!p.nodes) w.u32(0xffffffff);
	else { w.u32(p.nodes.length); for (const n of p.nodes) w.i32(n === null || n === undefined ? -1 : n); }
	for (let k = 0; k < p.layerCount; k += 32) {
		let bits = 0;
		for (let i = k; i < Math.min(k + 32, p.layerCount); i++) if (p.layers[i]._userPaused) bits |= 1 << (i - k);
		w.u32(bits);
	}
}
function readPlayerJs(r, joints, layers, bad) {
	const n = r.u32();
	if (n !== 0xffffffff && n !== joints) bad(`nodes of ${n} joints for ${joints}`);
	const nodes = n === 0xffffffff ? null : Array.from(r.i32s(n), (v) => (v < 0 ? null : v));
	const paused = [];
	for (let k = 0; k < layers; k += 32) { const bits = r.u32(); for (let i = k; i < Math.min(k + 32, layers); i++) paused.push(((bits >>> (i - k)) & 1) === 1); }
	return { nodes, paused };
}

// The portable snapshot (layout in web/README.md §Portable snapshots): no addresses, only the
// blobs' bytes, the clips' participation tables and every player's state in a defined
// little-endian layout, so any build of the world module restores it at any heap position.
SinewWorld.prototype._savePortable = function () {
	const w = new Writer(), dv = this._view(), buf = this.memory.buffer;
	w.u32(PORTABLE_MAGIC); w.u32(PORTABLE_VERSION); w.u32(0); w.u32(0); // size and checksum patched below
	w.u32(0); w.u32(this.blobs.length); w.u32(this.players.length); w.u32(0);
	const clipRef = new Map(); // world_clip address -> [blob, clip]
	for (const b of this.blobs) {
		const table = dv.getUint32(this._state + 8, true) + 16 * b.index; // world_blob { clips, clip count, bytes, size }
		const size = dv.getUint32(table + 12, true);
		w.u32(size); w.u32(b.randomAccess ? 0 : 1); w.u32(b.clipCount);
		w.bytes(new Uint8Array(buf, dv.getUint32(table + 8, true), size));
		for (const c of b.clips) { clipRef.set(c.ptr, [b.index, c.index]); w.u32(c.jointCount + c.scalarFloats); w.bytes(c.participation); }
	}
	for (const p of this.players) {
		w.u32(p.jointCount); w.u32(p.scalarFloats); w.u32(p.layerCount); w.u32(dv.getUint32(p.ptr + P_FLAGS, true));
		writePlayerJs(w, p);
		w.f32s(p.rest); w.f32s(p.pose);
		for (const l of p.layers) {
			const o = l.ptr, clip = dv.getUint32(o + L_CLIP, true), ref = clip ? clipRef.get(clip) : [-1, -1];
			const c = clip ? this.blobs[ref[0]].clips[ref[1]] : null;
			w.f64(dv.getFloat64(o + L_TIME, true));
			for (const f of [L_SPEED, L_WEIGHT, L_TARGET, L_RATE]) w.f32(dv.getFloat32(o + f, true));
			w.i32(ref[0]); w.i32(ref[1]);
			for (const f of [L_FLAGS, L_EVENTS, L_LOOPS]) w.u32(dv.getUint32(o + f, true));
			w.f32(dv.getFloat32(o + L_FROM, true)); w.f32(dv.getFloat32(o + L_TO, true));
			w.u32(dv.getUint32(o + L_REPS, true)); w.i32(dv.getInt32(o + L_LOOP_COUNT, true));
			w.f32(dv.getFloat32(o + L_SPEED_TARGET, true)); w.f32(dv.getFloat32(o + L_SPEED_RATE, true));
			const mask = dv.getUint32(o + L_MASK, true), jmap = dv.getUint32(o + L_JMAP, true), smap = dv.getUint32(o + L_SMAP, true);
			w.u32(mask ? p.jointCount : 0); if (mask) w.f32s(new Float32Array(buf, mask, p.jointCount));
			w.u32(jmap && c ? c.jointCount : 0); if (jmap && c) w.u32s(new Uint32Array(buf, jmap, c.jointCount));
			w.u32(smap && c ? c.scalarFloats : 0); if (smap && c) w.u32s(new Uint32Array(buf, smap, c.scalarFloats));
		}
		const m = p._matrices;
		w.u32(m ? 1 : 0);
		if (!m) continue;
		w.u32(m.anchorCount);
		w.u32s(new Int32Array(buf, m.parent, p.jointCount));
		w.f32s(new Float32Array(buf, m.anchors, 16 * m.anchorCount));
		w.f32s(new Float32Array(buf, m.world, 16 * p.jointCount));
		w.u32(m.skins.length);
		for (let s = dv.getUint32(m.ptr + 16, true); s; s = dv.getUint32(s + 16, true)) {
			const bones = dv.getUint32(s, true), cap = dv.getUint32(s + 20, true);
			w.u32(bones); w.u32(cap);
			w.u32s(new Uint32Array(buf, dv.getUint32(s + 4, true), bones));
			w.f32s(new Float32Array(buf, dv.getUint32(s + 8, true), 16 * bones));
			w.f32s(new Float32Array(buf, dv.getUint32(s + 12, true), cap));
		}
		const inv = m.inverses;
		w.u32(inv ? inv.count : 0);
		if (inv) { w.u32s(new Uint32Array(buf, inv.joints, inv.count)); w.f32s(new Float32Array(buf, inv.out, 16 * inv.count)); }
	}
	const out = w.finish();
	const odv = new DataView(out.buffer);
	odv.setUint32(8, out.length, true);
	odv.setUint32(12, fnv1a(out.subarray(16)), true);
	return out;
};

// Little-endian writer / bounds-checked reader of the portable snapshot (every field 4-aligned:
// byte arrays are padded to 4, the one f64 is at a multiple of 4).
class Writer {
	constructor() { this.buf = new Uint8Array(1024); this.dv = new DataView(this.buf.buffer); this.n = 0; }
	room(k) {
		if (this.n + k <= this.buf.length) return;
		const b = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
		b.set(this.buf.subarray(0, this.n)); this.buf = b; this.dv = new DataView(b.buffer);
	}
	u32(v) { this.room(4); this.dv.setUint32(this.n, v >>> 0, true); this.n += 4; }
	i32(v) { this.room(4); this.dv.setInt32(this.n, v | 0, true); this.n += 4; }
	f32(v) { this.room(4); this.dv.setFloat32(this.n, v, true); this.n += 4; }
	f64(v) { this.room(8); this.dv.setFloat64(this.n, v, true); this.n += 8; }
	bytes(b) { this.room(b.length + 3); this.buf.set(b, this.n); this.n += b.length; while (this.n & 3) this.buf[this.n++] = 0; }
	f32s(a) { for (let i = 0; i < a.length; i++) this.f32(a[i]); }
	u32s(a) { for (let i = 0; i < a.length; i++) this.u32(a[i]); }
	finish() { return this.buf.slice(0, this.n); }
}
class Reader {
	constructor(data) { this.data = data; this.dv = new DataView(data.buffer, data.byteOffset, data.byteLength); this.n = 0; }
	need(k) { if (!(k >= 0) || this.n + k > this.data.byteLength) throw new SinewError(10, `world snapshot: truncated at byte ${this.n}`); }
	u32() { this.need(4); const v = this.dv.getUint32(this.n, true); this.n += 4; return v; }
	i32() { this.need(4); const v = this.dv.getInt32(this.n, true); this.n += 4; return v; }
	f32() { this.need(4); const v = this.dv.getFloat32(this.n, true); this.n += 4; return v; }
	f64() { this.need(8); const v = this.dv.getFloat64(this.n, true); this.n += 8; return v; }
	bytes(k) { this.need(k); const b = this.data.subarray(this.n, this.n + k); this.n += (k + 3) & ~3; if (this.n > this.data.byteLength) this.n = this.data.byteLength; return b; }
	f32s(k) { this.need(4 * k); const a = new Float32Array(k); for (let i = 0; i < k; i++) a[i] = this.f32(); return a; }
	u32s(k) { this.need(4 * k); const a = new Uint32Array(k); for (let i = 0; i < k; i++) a[i] = this.u32(); return a; }
	i32s(k) { this.need(4 * k); const a = new Int32Array(k); for (let i = 0; i < k; i++) a[i] = this.i32(); return a; }
}

// Reads a whole portable snapshot (checksum, sizes, counts) before anything is created; the
// references between its parts are checked by restoreWorld once the blobs' clips are known.
function readPortable(data) {
	const bad = (m) => new SinewError(22, `world snapshot: ${m}`);
	const r = new Reader(data);
	if (r.u32() !== PORTABLE_MAGIC) throw bad('bad magic');
	const version = r.u32();
	// (versions 1 and 2 held format-2 blobs, which this runtime does not read: compress the sources again)
	if (version !== PORTABLE_VERSION) throw bad(`portable version ${version} (this runtime reads ${PORTABLE_VERSION})`);
	const size = r.u32(), sum = r.u32();
	if (size !== data.byteLength) throw new SinewError(10, `world snapshot: ${data.byteLength} bytes, the header says ${size}`);
	if (fnv1a(data.subarray(16)) !== sum) throw new SinewError(21, 'world snapshot: checksum mismatch');
	if (r.u32() !== 0) throw bad('reserved field');
	const blobCount = r.u32(), playerCount = r.u32();
	if (r.u32() !== 0) throw bad('reserved field');
	const blobs = [];
	for (let b = 0; b < blobCount; b++) {
		const size = r.u32(), options = r.u32(), clipCount = r.u32();
		if (options > 1) throw bad(`blob ${b}: options ${options}`);
		const bytes = r.bytes(size);
		const parts = [];
		for (let c = 0; c < clipCount; c++) parts.push(r.bytes(r.u32()));
		blobs.push({ bytes, randomAccess: options === 0, clipCount, parts });
	}
	const players = [];
	const LIMIT = 1 << 20;
	for (let i = 0; i < playerCount; i++) {
		const joints = r.u32(), scalars = r.u32(), layerCount = r.u32(), flags = r.u32();
		if (joints > LIMIT || scalars > LIMIT || layerCount < 1 || layerCount > 1024 || flags > 1) throw bad(`player ${i}: ${joints} joints, ${scalars} scalars, ${layerCount} layers`);
		const n = joints * FLOATS_PER_JOINT + scalars;
		const { nodes, paused } = readPlayerJs(r, joints, layerCount, (m) => { throw bad(`player ${i}: ${m}`); });
		const p = { joints, scalars, flags, nodes, paused, rest: r.f32s(n), pose: r.f32s(n), layers: [], matrices: null };
		for (let k = 0; k < layerCount; k++) {
			const l = { time: r.f64(), speed: r.f32(), weight: r.f32(), target: r.f32(), rate: r.f32(), blob: r.i32(), clip: r.i32(),
				flags: r.u32(), events: r.u32(), loops: r.u32(), from: r.f32(), to: r.f32(), reps: r.u32(), loopCount: r.i32(),
				speedTarget: r.f32(), speedRate: r.f32() };
			const m = r.u32(); l.mask = m ? r.f32s(m) : null;
			if (m && m !== joints) throw bad(`player ${i} layer ${k}: mask of ${m} values`);
			const jm = r.u32(); l.jointMap = jm ? r.u32s(jm) : null;
			const sm = r.u32(); l.scalarMap = sm ? r.u32s(sm) : null;
			if (l.flags >= 1024) throw bad(`player ${i} layer ${k}: flags ${l.flags}`);
			p.layers.push(l);
		}
		if (r.u32()) {
			const anchors = r.u32();
			if (anchors < 1 || anchors > LIMIT) throw bad(`player ${i}: ${anchors} anchors`);
			const m = { anchors, parents: r.i32s(joints), anchorMatrices: r.f32s(16 * anchors), world: r.f32s(16 * joints), skins: [] };
			const skinCount = r.u32();
			if (skinCount > 4096) throw bad(`player ${i}: ${skinCount} skins`);
			for (let s = 0; s < skinCount; s++) {
				const bones = r.u32(), capacity = r.u32();
				if (bones > LIMIT || capacity > 16 * LIMIT || capacity < 16 * bones) throw bad(`player ${i} skin ${s}: ${bones} bones, capacity ${capacity}`);
				m.skins.push({ joints: Array.from(r.u32s(bones)), inverses: r.f32s(16 * bones), capacity, out: r.f32s(capacity) });
			}
			const inverted = r.u32();
			if (inverted > LIMIT) throw bad(`player ${i}: ${inverted} inverted joints`);
			m.inverses = Array.from(r.u32s(inverted));
			m.inverseOut = r.f32s(16 * inverted);
			p.matrices = m;
		}
		players.push(p);
	}
	if (r.n !== data.byteLength) throw bad(`${data.byteLength - r.n} bytes after the last player`);
	return { blobs, players };
}

// Builds a world from a portable snapshot (readPortable) in a fresh instance: every blob is loaded
// again (sinew_world_load validates it and prepares its contexts; its rig is read from its bytes),
// then the clips' participation, the players, their layers (clip
// references, maps, masks, every field), their matrices and their outputs are written back.
async function restorePortable(data, options) {
	const snap = readPortable(data);
	const bad = (m) => new SinewError(22, `world snapshot: ${m}`);
	const world = await createWorld(options);
	if (options.reserve) world._alloc(options.reserve); // a different heap position (tests; embedding)
	snap.blobs.forEach((b, i) => {
		const blob = world._append(b.bytes, b.randomAccess);
		if (blob.clipCount !== b.clipCount) throw bad(`blob ${i}: ${blob.clipCount} clips, the snapshot says ${b.clipCount}`);
		blob.clips.forEach((c, k) => {
			if (b.parts[k].length !== c.jointCount + c.scalarFloats) throw bad(`blob ${i} clip ${k}: participation of ${b.parts[k].length} bytes`);
			c.participation.set(b.parts[k]);
		});
	});
	const dv = () => world._view();
	snap.players.forEach((sp, i) => {
		const p = world.addPlayer({ joints: sp.joints, scalars: sp.scalars, layers: sp.layers.length, nodes: sp.nodes, rest: sp.rest });
		p.pose.set(sp.pose);
		sp.layers.forEach((sl, k) => {
			const layer = p.layers[k];
			if (sl.blob >= 0) {
				const clip = world.blobs[sl.blob]?.clips[sl.clip];
				if (!clip) throw bad(`player ${i} layer ${k}: clip ${sl.blob}/${sl.clip}`);
				try { // no map: the same one setClip derived when saved; a bad one (checkMap's RangeError) is the snapshot's
					layer.setClip(clip, { jointMap: sl.jointMap ?? undefined, scalarMap: sl.scalarMap });
				} catch (e) {
					if (e instanceof RangeError) throw bad(`player ${i} layer ${k}: ${e.message.replace('sinew world: ', '')}`);
					throw e;
				}
			} else if (sl.blob !== -1) throw bad(`player ${i} layer ${k}: blob ${sl.blob}`);
			if (sl.mask) layer.mask = sl.mask;
			const v = dv(), o = layer.ptr;
			v.setFloat64(o + L_TIME, sl.time, true);
			v.setFloat32(o + L_SPEED, sl.speed, true); v.setFloat32(o + L_WEIGHT, sl.weight, true);
			v.setFloat32(o + L_TARGET, sl.target, true); v.setFloat32(o + L_RATE, sl.rate, true);
			v.setUint32(o + L_FLAGS, sl.flags, true); v.setUint32(o + L_EVENTS, sl.events, true); v.setUint32(o + L_LOOPS, sl.loops, true);
			v.setFloat32(o + L_FROM, sl.from, true); v.setFloat32(o + L_TO, sl.to, true);
			v.setUint32(o + L_REPS, sl.reps, true); v.setInt32(o + L_LOOP_COUNT, sl.loopCount, true);
			v.setFloat32(o + L_SPEED_TARGET, sl.speedTarget, true); v.setFloat32(o + L_SPEED_RATE, sl.speedRate, true);
			layer._userPaused = sp.paused[k];
		});
		if (sp.matrices) {
			const m = sp.matrices;
			try { p.setMatrices({ parents: m.parents, anchors: m.anchors, skins: m.skins, inverses: m.inverses }); } catch (e) { throw bad(`player ${i}: ${e.message}`); }
			p.inverseMatrices.set(m.inverseOut);
			p.worldMatrices.set(m.world);
			for (let a = 0; a < m.anchors; a++) p.anchorMatrix(a).set(m.anchorMatrices.subarray(16 * a, 16 * a + 16));
			m.skins.forEach((s, k) => p.skinMatrices(k).set(s.out));
		}
		p.active = sp.flags === 1;
	});
	return world;
}

function bytesToBase64(bytes) {
	let s = '';
	for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
	return btoa(s);
}

/** A world in its own instance (SIMD build when supported). options: simd, wasm (bytes or Module). */
export async function createWorld(options = {}) {
	const simd = options.simd ?? simdSupported();
	const { module, id } = await worldModule(simd, options.wasm);
	const instance = await WebAssembly.instantiate(module, {});
	return new SinewWorld(instance, module, id, simd);
}

/**
 * Restores a world saved by world.save(): a fresh instance of the same build gets the memory
 * image back; blobs and players are rebuilt from it (no validation, decompression or metadata
 * parsing). The snapshot is checked (magic, version, checksum, build) but is trusted data: restore
 * only your own saves. options as createWorld (the build must be the one that saved).
 */
export async function restoreWorld(bytes, options = {}) {
	const data = typeof bytes === 'string' ? Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0)) : toBytes(bytes);
	const bad = (m) => new SinewError(22, `world snapshot: ${m}`);
	if (data.byteLength < 16) throw bad('truncated');
	const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
	if (dv.getUint32(0, true) === PORTABLE_MAGIC) return restorePortable(data, options);
	if (dv.getUint32(0, true) !== SNAPSHOT_MAGIC) throw bad('bad magic');
	// (version 1 held format-2 blobs, which this runtime does not read, and came from another build anyway)
	if (dv.getUint32(4, true) !== SNAPSHOT_VERSION) throw bad(`version ${dv.getUint32(4, true)} (this runtime reads ${SNAPSHOT_VERSION})`);
	if (dv.getUint32(8, true) !== data.byteLength) throw bad(`${data.byteLength} bytes, the header says ${dv.getUint32(8, true)}`);
	if (fnv1a(data.subarray(16)) !== dv.getUint32(12, true)) throw bad('checksum mismatch');
	const r = new Reader(data);
	r.n = 16;
	const buildId = r.u32(), flags = r.u32(), pages = r.u32(), used = r.u32(), blobCount = r.u32(), playerCount = r.u32();
	const randomAccess = Array.from({ length: blobCount }, () => r.u32() !== 0);
	const js = [];
	for (let i = 0; i < playerCount; i++) {
		const layers = r.u32();
		if (layers > 1024) throw bad(`player ${i}: ${layers} layers`);
		js.push(readPlayerJs(r, -1, layers, () => {}));
	}
	const start = (r.n + 15) & ~15;
	if (start + used !== data.byteLength) throw bad('image size');
	const simd = options.simd ?? (flags & 1) !== 0;
	const { module, id } = await worldModule(simd, options.wasm);
	if ((flags & 2) && id !== null && buildId !== id) throw bad(`saved by another build (${buildId} vs ${id})`);
	const instance = await WebAssembly.instantiate(module, {});
	const memory = instance.exports.memory;
	const have = memory.buffer.byteLength / 65536;
	if (pages > have) memory.grow(pages - have);
	new Uint8Array(memory.buffer).set(data.subarray(start, start + used), 0);
	const world = new SinewWorld(instance, module, id, simd);
	// blobs, players and layers from the image (world_state, world_player and world_layer records)
	const v = world._view(), state = world._state;
	if (v.getUint32(state, true) !== blobCount || v.getUint32(state + 12, true) !== playerCount) throw bad('blob or player table');
	for (let i = 0; i < blobCount; i++) world.blobs.push(new WorldBlob(world, i, null, randomAccess[i]));
	const clipAt = new Map();
	for (const b of world.blobs) for (const c of b.clips) clipAt.set(c.ptr, c);
	const players = v.getUint32(state + 20, true);
	for (let i = 0; i < playerCount; i++) {
		const ptr = v.getUint32(players + 4 * i, true);
		const joints = v.getUint32(ptr, true), scalars = v.getUint32(ptr + 4, true), layers = v.getUint32(ptr + 8, true);
		const { nodes, paused } = js[i];
		if ((nodes && nodes.length !== joints) || paused.length !== layers) throw bad(`player ${i}: ${joints} joints, ${layers} layers`);
		const player = new WorldPlayer(world, i, ptr, joints, scalars, layers, nodes);
		for (const l of player.layers) {
			const c = v.getUint32(l.ptr + L_CLIP, true);
			if (c && !clipAt.has(c)) throw bad(`player ${i} layer ${l.index}: no clip at ${c}`);
			l._clip = c ? clipAt.get(c) : null;
			l._userPaused = paused[l.index];
		}
		world.players.push(player);
	}
	return world;
}

export const SinewWorlds = { createWorld, restoreWorld, LayerEvent };
export default createWorld;
