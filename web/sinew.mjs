// sinew — see include/sinew.h for version and licence
// Web runtime for sinew compressed animation: loads a blob into its own WebAssembly instance
// (SIMD128 build when the engine validates SIMD, baseline otherwise) and samples a whole pose
// with ONE wasm call into a Float32Array view of the wasm heap.
//
//   import Sinew from './sinew.mjs';
//   const anim = await Sinew.load(bytes);          // Uint8Array | ArrayBuffer of a .sinew blob
//   const info = anim.clip(0);                     // { name, duration, jointCount, ... }
//   const pose = anim.sample(0, t);                // Float32Array: 10 floats per joint, then scalars
//   anim.dispose();

const OUTPUT_FLOATS_PER_JOINT = 10; // rotation x y z w, translation x y z, scale x y z

// Stable result codes of include/sinew.h.
const RESULT_NAMES = {
	0: 'OK', 10: 'IO', 11: 'TRUNCATED', 12: 'UNSUPPORTED', 13: 'PARSE', 20: 'BAD_MAGIC', 21: 'BAD_VERSION',
	22: 'CORRUPT', 23: 'CHECKSUM', 30: 'NOT_FINITE', 31: 'NOT_UNIT_QUATERNION', 32: 'BAD_PARENT', 33: 'NO_SAMPLES',
	34: 'BAD_COUNT', 35: 'BAD_SAMPLE_RATE', 36: 'BAD_PRECISION', 37: 'BAD_TRACK', 40: 'INVALID_ARGUMENT',
	41: 'OUT_OF_RANGE', 60: 'OUT_OF_MEMORY', 70: 'BUFFER_TOO_SMALL',
};

// A module with one function returning a v128 (i32.const 0; i8x16.splat; i8x16.popcnt): it
// validates exactly when the engine implements the final SIMD128 proposal.
const SIMD_PROBE = new Uint8Array([
	0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

export class SinewError extends Error {
	constructor(code, message) {
		super(`sinew: ${RESULT_NAMES[code] ?? code}: ${message}`);
		this.name = 'SinewError';
		this.code = code;
		this.codeName = RESULT_NAMES[code] ?? 'UNKNOWN';
	}
}

export function simdSupported() {
	return WebAssembly.validate(SIMD_PROBE);
}

const moduleCache = new Map(); // variant -> Promise<WebAssembly.Module>

async function readWasm(name) {
	const url = new URL(name, import.meta.url);
	if (url.protocol === 'file:') {
		const fs = await import('node:fs/promises');
		return fs.readFile(url);
	}
	const response = await fetch(url);
	if (!response.ok) throw new Error(`sinew: cannot fetch ${url}: ${response.status}`);
	return response.arrayBuffer();
}

function compiledModule(simd, wasm) {
	if (wasm !== undefined) {
		return wasm instanceof WebAssembly.Module ? Promise.resolve(wasm) : WebAssembly.compile(wasm);
	}
	const key = simd ? 'simd' : 'baseline';
	if (!moduleCache.has(key)) {
		const p = readWasm(simd ? './sinew-simd.wasm' : './sinew.wasm').then((bytes) => WebAssembly.compile(bytes));
		p.catch(() => moduleCache.delete(key));
		moduleCache.set(key, p);
	}
	return moduleCache.get(key);
}

function cString(memory, ptr) {
	if (!ptr) return null;
	const bytes = new Uint8Array(memory.buffer);
	let end = ptr;
	while (end < bytes.length && bytes[end] !== 0) end++;
	return new TextDecoder().decode(bytes.subarray(ptr, end));
}

export class SinewAnimation {
	constructor(instance, simd) {
		const x = instance.exports;
		this._memory = x.memory;
		this._sample = x.sinew_web_sample;
		this._buffer = null;
		this._views = [];
		this.simd = simd;
		this.clipCount = x.sinew_web_clip_count();
		this._clips = [];
		for (let i = 0; i < this.clipCount; i++) this._clips.push(readClipInfo(x, i));
	}

	// Description of clip `index` (see sinew.d.ts).
	clip(index = 0) {
		const c = this._clips[index];
		if (!c) throw new RangeError(`sinew: clip ${index} out of range (${this.clipCount} clips)`);
		return c;
	}

	// Samples clip `clip` at `t` seconds (clamped to [0, duration]) and returns the pose:
	// jointCount * 10 floats (rotation xyzw, translation xyz, scale xyz per joint) followed by
	// scalarFloats floats. The array is a view of the wasm heap, overwritten by the next sample().
	// sample(t) samples clip 0.
	sample(clip, t) {
		if (t === undefined) { t = clip; clip = 0; }
		if (!this._sample) throw new Error('sinew: animation disposed');
		const ptr = this._sample(clip >>> 0, +t);
		if (ptr === 0) throw new RangeError(`sinew: clip ${clip} out of range (${this.clipCount} clips)`);
		if (this._buffer !== this._memory.buffer) { // first call, or the memory grew (views detach)
			this._buffer = this._memory.buffer;
			this._views = [];
		}
		let view = this._views[clip];
		if (view === undefined) {
			const c = this._clips[clip];
			view = new Float32Array(this._buffer, ptr, c.jointCount * OUTPUT_FLOATS_PER_JOINT + c.scalarFloats);
			this._views[clip] = view;
		}
		return view;
	}

	// Releases the instance (its memory goes with it); the animation cannot be sampled afterwards.
	dispose() {
		this._memory = null;
		this._sample = null;
		this._buffer = null;
		this._views = [];
	}
}

function readClipInfo(x, index) {
	const ptr = x.sinew_web_clip_info(index);
	const dv = new DataView(x.memory.buffer, ptr, 64);
	const u32 = (o) => dv.getUint32(o, true);
	const scalarTrackCount = u32(32), layout = u32(56);
	const scalarTracks = [];
	const table = new DataView(x.memory.buffer, layout, scalarTrackCount * 8);
	for (let s = 0; s < scalarTrackCount; s++) {
		scalarTracks.push({ offset: table.getUint32(8 * s, true), components: table.getUint32(8 * s + 4, true) });
	}
	const flags = u32(44);
	return Object.freeze({
		index,
		name: cString(x.memory, u32(52)),
		sampleRate: dv.getFloat64(0, true),
		duration: dv.getFloat64(8, true),
		unitScale: dv.getFloat64(16, true),
		sampleCount: u32(24),
		jointCount: u32(28),
		scalarTrackCount,
		scalarFloats: u32(36),
		segmentCount: u32(40),
		looping: (flags & 1) !== 0,
		hasMetadata: (flags & 2) !== 0,
		size: u32(48),
		scalarTracks: Object.freeze(scalarTracks),
		kernel: cString(x.memory, u32(60)),
	});
}

// Loads a compressed blob. options.simd: true/false forces a build (default: feature test);
// options.wasm: bytes or a WebAssembly.Module of the chosen build (skips fetching);
// options.randomAccess: precompute every segment (same cost in any playback order, more memory).
export async function load(bytes, options = {}) {
	const data = bytes instanceof Uint8Array ? bytes
		: ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
		: new Uint8Array(bytes);
	const simd = options.simd ?? simdSupported();
	const module = await compiledModule(simd, options.wasm);
	const instance = await WebAssembly.instantiate(module, {});
	const x = instance.exports;
	const ptr = x.sinew_web_alloc(data.byteLength);
	if (!ptr) throw new SinewError(60, `cannot allocate ${data.byteLength} bytes for the blob`);
	new Uint8Array(x.memory.buffer, ptr, data.byteLength).set(data);
	const code = x.sinew_web_load(ptr, data.byteLength, options.randomAccess ? 1 : 0);
	if (code !== 0) throw new SinewError(code, cString(x.memory, x.sinew_web_error()));
	return new SinewAnimation(instance, simd);
}

export const Sinew = { load, simdSupported, SinewError, SinewAnimation };
export default Sinew;
