// sinew — see include/sinew.h for version and licence
// Web runtime for sinew compressed animation: loads a blob into its own WebAssembly instance
// (SIMD128 build when the engine validates SIMD, baseline otherwise) and samples a whole pose
// with ONE wasm call into a Float32Array view of the wasm heap.
//
//   import Sinew from './sinew.mjs';
//   const anim = await Sinew.load(bytes);          // Uint8Array | ArrayBuffer of a .sinew blob
//   const info = anim.clip(0);                     // { name, duration, jointCount, ... }
//   const pose = anim.sample(0, t);                // Float32Array: 10 floats per joint, then scalars
//   info.joints[j].node, info.scalars[k].node/.target  // glTF node (and morph target) of each output
//   anim.dispose();

const OUTPUT_FLOATS_PER_JOINT = 10; // rotation x y z w, translation x y z, scale x y z

// Stable result codes of include/sinew.h.
const RESULT_NAMES = {
	0: 'OK', 10: 'IO', 11: 'TRUNCATED', 12: 'UNSUPPORTED', 13: 'PARSE', 20: 'BAD_MAGIC', 21: 'BAD_VERSION',
	22: 'CORRUPT', 23: 'CHECKSUM', 30: 'NOT_FINITE', 31: 'NOT_UNIT_QUATERNION', 32: 'BAD_PARENT', 33: 'NO_SAMPLES',
	34: 'BAD_COUNT', 35: 'BAD_SAMPLE_RATE', 36: 'BAD_PRECISION', 37: 'BAD_TRACK', 40: 'INVALID_ARGUMENT',
	24: 'PAGE_MISSING', 38: 'OVER_BOUND', 41: 'OUT_OF_RANGE', 60: 'OUT_OF_MEMORY', 70: 'BUFFER_TOO_SMALL',
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

// `variant`: '' for the decoder (sinew.wasm), '-stream' for the streaming decoder (paged clips).
export function compiledModule(simd, wasm, variant = '') {
	if (wasm !== undefined) {
		return wasm instanceof WebAssembly.Module ? Promise.resolve(wasm) : WebAssembly.compile(wasm);
	}
	const key = `${variant}${simd ? '-simd' : ''}`;
	if (!moduleCache.has(key)) {
		const p = readWasm(`./sinew${key}.wasm`).then((bytes) => WebAssembly.compile(bytes));
		p.catch(() => moduleCache.delete(key));
		moduleCache.set(key, p);
	}
	return moduleCache.get(key);
}

export function cString(memory, ptr) {
	if (!ptr) return null;
	const bytes = new Uint8Array(memory.buffer);
	let end = ptr;
	while (end < bytes.length && bytes[end] !== 0) end++;
	return new TextDecoder().decode(bytes.subarray(ptr, end));
}

export class SinewAnimation {
	constructor(instance, simd, metadata = []) {
		const x = instance.exports;
		this._memory = x.memory;
		this._sample = x.sinew_web_sample;
		this._changedPtr = x.sinew_web_changed();
		this._buffer = null;
		this._views = [];
		this._changedViews = [];
		this._serial = 0;
		this.simd = simd;
		this.clipCount = x.sinew_web_clip_count();
		this._clips = [];
		for (let i = 0; i < this.clipCount; i++) this._clips.push(readClipInfo(x, i, metadata[i] ?? null, metadata.timeMarks?.[i] ?? null, metadata.slerpFit?.[i] ?? false));
	}

	// Description of clip `index` (see sinew.d.mts).
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
		if (ptr === 0) { this._serial++; throw new RangeError(`sinew: clip ${clip} out of range (${this.clipCount} clips)`); }
		return this._view(clip, ptr);
	}

	// The output view of clip `clip` at `ptr` (the pose a sampling call just wrote).
	_view(clip, ptr) {
		this._serial++;
		if (this._buffer !== this._memory.buffer) { // first call, or the memory grew (views detach)
			this._buffer = this._memory.buffer;
			this._views = [];
			this._changedViews = [];
		}
		let view = this._views[clip];
		if (view === undefined) {
			const c = this._clips[clip];
			view = new Float32Array(this._buffer, ptr, c.jointCount * OUTPUT_FLOATS_PER_JOINT + c.scalarFloats);
			this._views[clip] = view;
		}
		return view;
	}

	// Count of sample() calls: a player whose own last sample left it unchanged knows changed() is
	// relative to the outputs it wrote (see sinew.d.mts).
	get serial() { return this._serial; }

	// Which outputs the last sample() may have changed since the previous sample of the same clip:
	// all on a clip's first sample, none when the time repeats, otherwise the animated outputs
	// (constant ones are never flagged again, and no change is ever missed). Bits 3j, 3j+1, 3j+2:
	// joint j's rotation, translation, scale; bit 3*jointCount + k: scalar track k. A wasm heap view.
	changed(clip = 0) {
		if (!this._sample) throw new Error('sinew: animation disposed');
		if (this._buffer !== this._memory.buffer) this.sample(clip, 0);
		let view = this._changedViews[clip];
		if (view === undefined) {
			const c = this.clip(clip);
			view = new Uint32Array(this._buffer, this._changedPtr, Math.ceil((c.jointCount * 3 + c.scalarTracks.length) / 32));
			this._changedViews[clip] = view;
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

function readClipInfo(x, index, metadata, timeMarks = null, slerpFit = false) {
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
		name: cString(x.memory, u32(52)) ?? metadata?.name ?? null, // (a packed blob's names are its extension's)
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
		joints: metadata ? metadata.joints : null,
		scalars: metadata ? metadata.scalars : null,
		timeMarks,
		slerpFit,
	});
}

// Metadata of every clip (docs/format.md §Metadata), parsed from the blob bytes after the wasm
// decoder accepted the blob: an array with, per clip, null (no metadata) or { joints, scalars }.
// Every offset is still bounds-checked here so a bug elsewhere cannot turn into a wrong read.
export function readMetadata(data, options = {}) {
	const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
	if (data.byteLength >= 8 && dv.getUint16(4, true) === 3) return readRig(data, dv, options);
	const bad = (what) => { throw new SinewError(22, `metadata: ${what}`); };
	const u32 = (o) => { if (o < 0 || o + 4 > data.byteLength) bad(`offset ${o} outside the blob`); return dv.getUint32(o, true); };
	const i32 = (o) => u32(o) | 0;
	const f32 = (o) => { u32(o); return dv.getFloat32(o, true); };
	const f32s = (o, n) => { const a = []; for (let i = 0; i < n; i++) a.push(f32(o + 4 * i)); return Object.freeze(a); };
	const decoder = new TextDecoder();
	const clips = [];
	const u8 = (o) => { u32(o & ~3); return data[o]; };
	const clipCount = u32(16), version = u32(4) & 0xffff;
	// per clip, whatever its metadata: the time map (null: samples at k / rate) and the Slerp_fit flag
	const timeMarks = new Array(clipCount).fill(null), slerpFit = new Array(clipCount).fill(false);
	Object.defineProperty(clips, 'timeMarks', { value: timeMarks });
	Object.defineProperty(clips, 'slerpFit', { value: slerpFit });
	for (let c = 0; c < clipCount; c++) {
		const start = u32(32 + 4 * c);
		const clipSize = u32(start), flags = u32(start + 4);
		let jointCount, scalarCount, metaOffset;
		if (version === 1) {
			jointCount = u32(start + 28), scalarCount = u32(start + 32), metaOffset = u32(start + 60);
		} else { // format 2: the metadata offset follows from the layout (docs/format.md §Clip header)
			jointCount = u32(start + 28) & 0xffff, scalarCount = u32(start + 28) >>> 16;
			const segmentLength = u32(start + 32) & 0xffff, stored = u32(start + 24) + (flags & 1);
			const segments = stored === 1 ? 1 : Math.ceil((stored - 1) / segmentLength);
			const descriptors = start + 36, count = jointCount + scalarCount;
			let at = (36 + count * (flags & 64 ? 2 : 1) + 3) & ~3; // constants
			let ranges = 0;
			for (let j = 0; j < jointCount; j++) {
				const k = u8(descriptors + j);
				for (let sub = 0; sub < 3; sub++) {
					const kind = (k >> (2 * sub)) & 3;
					if (kind === 1 || kind === 2) at += kind === 2 && flags & 512 ? 9 : 12; // (Short_constants: 3 bytes a value)
					if (kind === 3) ranges += sub === 0 && segments > 1 ? 32 : 24;
				}
			}
			for (let i = 0; i < scalarCount; i++) {
				const k = u8(descriptors + jointCount + i), n = ((k >> 2) & 3) + 1;
				if ((k & 3) === 1 || (k & 3) === 2) at += ((k & 3) === 2 && flags & 512 ? 3 : 4) * n;
				if ((k & 3) === 3) ranges += 8 * n;
			}
			at = (at + 3) & ~3; // the constants end on 4 bytes
			at += flags & 256 ? ranges / 2 : ranges; // (Half_ranges: binary16)
			if (flags & 2048) { // the time map (§Time map): f32 times of the marks and their samples
				const marks = [], n = u32(start + at);
				for (let k = 0; k < n; k++) marks.push(Object.freeze({ time: f32(start + at + 4 + 8 * k), sample: u32(start + at + 8 + 8 * k) }));
				timeMarks[c] = Object.freeze(marks);
				at += 4 + 8 * n;
			}
			slerpFit[c] = (flags & 8192) !== 0; // rotations follow the slerp between knots (§Sampling semantics step 5)
			// the segment table, or a paged clip's page table
			let end = flags & 32 ? at + 4 + 20 * u32(start + at) : u32(start + at + 4 * segments);
			if (flags & 128) end += 4 + 12 * u32(start + end); // the tier table after the page table
			metaOffset = (end + 3) & ~3;
		}
		if (!(flags & 8)) { clips.push(null); continue; }
		const m = start + metaOffset;
		const size = u32(m), stringsOffset = u32(m + 8), stringsSize = u32(m + 12);
		if (metaOffset + size !== clipSize || stringsOffset !== 16 + 60 * jointCount + 32 * scalarCount
			|| stringsOffset + stringsSize !== size) bad(`clip ${c}: inconsistent sizes`);
		const strings = m + stringsOffset, stringsEnd = strings + stringsSize;
		const str = (offset) => {
			if (offset === 0xffffffff) return null;
			if (offset >= stringsSize) bad(`clip ${c}: string offset ${offset} outside the table`);
			let end = strings + offset;
			while (end < stringsEnd && data[end] !== 0) end++;
			if (end >= stringsEnd) bad(`clip ${c}: unterminated string`);
			return decoder.decode(data.subarray(strings + offset, end));
		};
		const joints = [];
		for (let j = 0; j < jointCount; j++) {
			const o = m + 16 + 60 * j;
			const source = i32(o + 4);
			joints.push(Object.freeze({
				name: str(u32(o + 8)),
				parent: i32(o),
				node: source >= 0 ? source : null, // glTF node index (Source_index), null when unknown
				shellDistance: f32(o + 12),
				precision: f32(o + 16),
				defaultRotation: f32s(o + 20, 4),
				defaultTranslation: f32s(o + 36, 3),
				defaultScale: f32s(o + 48, 3),
			}));
		}
		const scalars = [];
		for (let k = 0; k < scalarCount; k++) {
			const o = m + 16 + 60 * jointCount + 32 * k;
			const node = i32(o + 4), target = i32(o + 8), name = str(u32(o));
			scalars.push(Object.freeze({
				name,
				node: node >= 0 ? node : null, // glTF node whose morph weight this is (Source_node)
				target: target >= 0 ? target : null, // morph target index, or a pointer's first float (Source_target)
				pointer: node === -2 ? name : null, // KHR_animation_pointer target (Source_node -2: the name is the pointer)
				precision: f32(o + 12),
				defaultValue: f32s(o + 16, 4),
			}));
		}
		clips.push({ name: str(u32(m + 4)), joints: Object.freeze(joints), scalars: Object.freeze(scalars) });
	}
	return clips;
}

// Format 3 (docs/format.md §rig): one rig for every clip. The same shape as readMetadata gives for formats 1
// and 2 (per clip { name, joints, scalars }, null when the rig can map nothing: --strip), plus per clip the
// nodes and scalar tracks it animates (`animates`, `animatesScalars`: booleans). A packed glTF's blob carries
// no names nor rest pose: options.restPose / restScalars (its document's), options.pointers (the extension's)
// and options.clipNames fill them.
function readRig(data, dv, options) {
	const bad = (what) => { throw new SinewError(22, `rig: ${what}`); };
	const u32 = (o) => { if (o < 0 || o + 4 > data.byteLength) bad(`offset ${o} outside the blob`); return dv.getUint32(o, true); };
	const u16 = (o) => { if (o < 0 || o + 2 > data.byteLength) bad(`offset ${o} outside the blob`); return dv.getUint16(o, true); };
	const u8 = (o) => { if (o < 0 || o >= data.byteLength) bad(`offset ${o} outside the blob`); return data[o]; };
	const f32 = (o) => { u32(o); return dv.getFloat32(o, true); };
	const f32s = (o, n) => { const a = []; for (let i = 0; i < n; i++) a.push(f32(o + 4 * i)); return Object.freeze(a); };
	const align4 = (x) => (x + 3) & ~3;
	const decoder = new TextDecoder();
	const blobFlags = u16(6), paged = (blobFlags & 1) !== 0, restDefaults = (blobFlags & 2) !== 0;
	const clipCount = u32(16), table = paged ? 24 : 20;
	const starts = [];
	for (let c = 0; c < clipCount; c++) starts.push(u32(table + 4 * c));
	const rigAt = align4(starts[clipCount - 1] + u32(starts[clipCount - 1]));
	// the rig: counts, unit, scalar components, then its parts in bit order, each 4-byte aligned
	const N = u16(rigAt), S = u16(rigAt + 2), rigFlags = u16(rigAt + 4), wide = (rigFlags & 128) !== 0;
	const comps = [];
	for (let i = 0; i < S; i++) comps.push((u8(rigAt + 16 + i) & 3) + 1);
	const components = comps.reduce((a, b) => a + b, 0);
	let at = align4(rigAt + 16 + S);
	const part = (bit, bytes) => { if (!(rigFlags & bit)) return -1; const p = at; at = align4(at + bytes); return p; };
	const parents = part(1, 2 * N), sources = part(2, (wide ? 4 : 2) * N), rest = part(4, 40 * N + 4 * components);
	const shells = part(8, 8 * N + 4 * S);
	let scalarSources = -1;
	if (rigFlags & 16) { scalarSources = at; at = align4(at + 4 + u16(at) * (wide ? 12 : 6)); }
	let names = -1, stringsAt = 0, stringsSize = 0;
	if (rigFlags & 32) { names = at; stringsSize = u32(at); stringsAt = at + 4 + 4 * (N + S + clipCount); at = align4(stringsAt + stringsSize); }
	const scalarRest = part(64, 4 * components);
	const str = (entry) => {
		if (names < 0) return null;
		const offset = u32(names + 4 + 4 * entry);
		if (offset === 0xffffffff) return null;
		if (offset >= stringsSize) bad(`string offset ${offset} outside the table`);
		let end = stringsAt + offset;
		while (end < stringsAt + stringsSize && data[end] !== 0) end++;
		if (end >= stringsAt + stringsSize) bad('unterminated string');
		return decoder.decode(data.subarray(stringsAt + offset, end));
	};
	const index = (o) => (wide ? u32(o) | 0 : ((v) => (v === 0xffff ? -1 : v === 0xfffe ? -2 : v))(u16(o)));
	const identity = [0, 0, 0, 1, 0, 0, 0, 1, 1, 1];
	const joints = [];
	for (let j = 0; j < N; j++) {
		const r = rest >= 0 ? f32s(rest + 40 * j, 10) : options.restPose ? Array.from(options.restPose.subarray(10 * j, 10 * j + 10)) : identity;
		const source = sources >= 0 ? index(sources + (wide ? 4 : 2) * j) : -1, parent = parents >= 0 ? u16(parents + 2 * j) : 0xffff;
		// (the wasm decoder leaves the parts it never reads to this parser: docs/format.md §rig)
		if (parent !== 0xffff && parent >= j) bad(`node ${j} parent ${parent}`);
		if (shells >= 0 && !(Number.isFinite(f32(shells + 8 * j)) && Number.isFinite(f32(shells + 8 * j + 4)))) bad(`node ${j}: non-finite shell`);
		joints.push(Object.freeze({
			name: str(j),
			parent: parent === 0xffff ? -1 : parent,
			node: source >= 0 ? source : null, // glTF node index (Node_sources), null when unknown
			shellDistance: shells >= 0 ? f32(shells + 8 * j) : 0,
			precision: shells >= 0 ? f32(shells + 8 * j + 4) : 0,
			defaultRotation: Object.freeze(r.slice(0, 4)),
			defaultTranslation: Object.freeze(r.slice(4, 7)),
			defaultScale: Object.freeze(r.slice(7, 10)),
		}));
	}
	// scalar sources: runs of (count, node, first target), each next track after the one before
	const sourceOf = [];
	if (scalarSources >= 0) {
		const runs = u16(scalarSources), size = wide ? 12 : 6;
		for (let k = 0, track = 0; k < runs; k++) {
			const e = scalarSources + 4 + k * size, count = wide ? u32(e) : u16(e);
			if (count < 1 || track + count > S) bad(`scalar source run ${k}`);
			const node = index(e + (wide ? 4 : 2));
			let target = wide ? u32(e + 8) : u16(e + 4);
			for (let q = 0; q < count && track < S; q++, track++) { sourceOf.push({ node, target: node === -1 ? -1 : target }); target += comps[track]; }
		}
	}
	if (scalarSources >= 0 && sourceOf.length !== S) bad(`scalar source runs cover ${sourceOf.length} of ${S} tracks`);
	for (let e = 0; names >= 0 && e < N + S + clipCount; e++) str(e); // every name within the table
	const scalars = [];
	let pointerIndex = 0;
	for (let k = 0, o = 0; k < S; o += comps[k++]) {
		const src = sourceOf[k] ?? { node: -1, target: -1 };
		let name = str(N + k);
		if (src.node === -2 && name === null && options.pointers) name = options.pointers[pointerIndex] ?? null;
		if (src.node === -2) pointerIndex++;
		const d = rest >= 0 ? f32s(rest + 40 * N + 4 * o, comps[k]) : scalarRest >= 0 ? f32s(scalarRest + 4 * o, comps[k])
			: options.restScalars ? Array.from(options.restScalars.subarray(o, o + comps[k])) : new Array(comps[k]).fill(0);
		scalars.push(Object.freeze({
			name,
			node: src.node >= 0 ? src.node : null, // glTF node whose morph weight this is (Source_node)
			target: src.target >= 0 ? src.target : null, // morph target index, or a pointer's first float
			pointer: src.node === -2 ? name : null, // KHR_animation_pointer target
			components: comps[k],
			precision: shells >= 0 ? f32(shells + 8 * N + 4 * k) : 0,
			defaultValue: Object.freeze([...d, 0, 0, 0].slice(0, 4)),
		}));
	}
	const mapped = (rigFlags & (1 | 2 | 32)) !== 0; // parents, sources or names: something maps the outputs
	const clips = [];
	const timeMarks = new Array(clipCount).fill(null), slerpFit = new Array(clipCount).fill(false);
	Object.defineProperty(clips, 'timeMarks', { value: timeMarks });
	Object.defineProperty(clips, 'slerpFit', { value: slerpFit });
	Object.defineProperty(clips, 'rig', { value: Object.freeze({ nodeCount: N, scalarCount: S, restDefaults, hasRest: rest >= 0 }) });
	for (let c = 0; c < clipCount; c++) {
		const start = starts[c], flags = u32(start + 4), stored = u32(start + 8) + (flags & 1), segmentLength = u16(start + 12);
		const segments = stored <= 1 ? 1 : Math.ceil((stored - 1) / segmentLength);
		let p = start + (flags & 8 ? 24 : 20);
		const listed = (count, bit) => {
			const on = new Array(count).fill(true);
			if (flags & bit) { for (let i = 0; i < count; i++) on[i] = ((u8(p + (i >> 3)) >> (i & 7)) & 1) === 1; p += (count + 7) >> 3; }
			return on;
		};
		const animates = listed(N, 0x4000), animatesScalars = listed(S, 0x8000);
		const listedJoints = animates.filter(Boolean).length, listedScalars = animatesScalars.filter(Boolean).length;
		const descriptors = p;
		let q = align4(p + (listedJoints + listedScalars) * (flags & 64 ? 2 : 1)) - start; // constants
		let ranges = 0;
		for (let d = 0; d < listedJoints; d++) {
			const k = u8(descriptors + d);
			for (let sub = 0; sub < 3; sub++) {
				const kind = (k >> (2 * sub)) & 3;
				if (kind === 2) q += flags & 512 ? 9 : 12; // (Short_constants: 3 bytes a value)
				if (kind === 1 && !restDefaults) q += 12;
				if (kind === 3) ranges += sub === 0 ? (segments > 1 ? 32 : 24) : 24;
			}
		}
		for (let i = 0, d = 0; i < S; i++) {
			if (!animatesScalars[i]) continue;
			const kind = u8(descriptors + listedJoints + d++) & 3, n = comps[i];
			if (kind === 2) q += (flags & 512 ? 3 : 4) * n;
			if (kind === 1 && !restDefaults) q += 4 * n;
			if (kind === 3) ranges += 8 * n;
		}
		q = align4(q); // the constants end on 4 bytes
		q += flags & 256 ? ranges / 2 : ranges; // (Half_ranges: binary16)
		if (flags & 2048) { // the time map (§Time map): the marks' times, then the inner marks' samples
			const n = u32(start + q), sampleBytes = n === stored ? 0 : stored <= 65536 ? 2 : 4, marks = [];
			for (let k = 0; k < n; k++) {
				const sample = sampleBytes === 0 ? k : k === 0 ? 0 : k === n - 1 ? stored - 1
					: sampleBytes === 2 ? u16(start + q + 4 + 4 * n + 2 * (k - 1)) : u32(start + q + 4 + 4 * n + 4 * (k - 1));
				marks.push(Object.freeze({ time: f32(start + q + 4 + 4 * k), sample }));
			}
			timeMarks[c] = Object.freeze(marks);
		}
		slerpFit[c] = (flags & 8192) !== 0; // rotations follow the slerp between knots (§Sampling semantics step 5)
		const name = str(N + S + c) ?? options.clipNames?.[c] ?? null;
		clips.push(mapped ? { name, joints: Object.freeze(joints), scalars: Object.freeze(scalars),
			animates: Object.freeze(animates), animatesScalars: Object.freeze(animatesScalars) } : null);
	}
	return clips;
}

// Loads a compressed blob. options.simd: true/false forces a build (default: feature test);
// options.wasm: bytes or a WebAssembly.Module of the chosen build (skips fetching);
// options.randomAccess: precompute every segment (same cost in any playback order, more memory).
export async function load(bytes, options = {}) {
	const data = bytes instanceof Uint8Array ? bytes
		: ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
		: new Uint8Array(bytes);
	const simd = options.simd ?? simdSupported();
	if (data.byteLength >= 4 && !(data[0] === 0x53 && data[1] === 0x4e && data[2] === 0x45 && data[3] === 0x57))
		throw new SinewError(20, 'not a sinew stream (bad magic)');
	const version = data.byteLength >= 8 ? data[4] | (data[5] << 8) : 3;
	if (version === 1 || version === 2)
		throw new SinewError(21, `format ${version} blob: the web runtime reads format 3: compress the source again (sinew compress), or play it with the native library, which reads formats 1 to 3`);
	// a paged blob (format 2, Resident_size set) given whole plays in the streaming decoder, which
	// has paged clips compiled in (every page present)
	const paged = data.byteLength >= 24 && data[5] === 0 && (data[4] === 3 ? (data[6] & 1) !== 0
		: data[4] === 2 && (data[20] | data[21] | data[22] | data[23]) !== 0);
	const module = await compiledModule(simd, options.wasm, paged ? '-stream' : '');
	const instance = await WebAssembly.instantiate(module, {});
	const x = instance.exports;
	const ptr = x.sinew_web_alloc(data.byteLength);
	if (!ptr) throw new SinewError(60, `cannot allocate ${data.byteLength} bytes for the blob`);
	new Uint8Array(x.memory.buffer, ptr, data.byteLength).set(data);
	// the rest pose of a blob whose rig lacks it (a packed glTF's: loadPacked reads it from the document)
	const heapFloats = (values) => {
		if (!values) return 0;
		const p = x.sinew_web_alloc(4 * values.length + 4);
		if (!p) throw new SinewError(60, 'cannot allocate the rest pose');
		new Float32Array(x.memory.buffer, p, values.length).set(values);
		return p;
	};
	const rest = heapFloats(options.restPose), restScalars = heapFloats(options.restScalars);
	const code = x.sinew_web_load(ptr, data.byteLength, options.randomAccess ? 1 : 0, rest, restScalars);
	if (code !== 0) throw new SinewError(code, cString(x.memory, x.sinew_web_error()));
	return new SinewAnimation(instance, simd, readMetadata(data, options));
}

// A glTF packed by `sinew pack` (the SINEW_compressed_animation extension, docs/gltf_extension.md):
// `bytes` is the .glb, or a .gltf whose buffer is an embedded data: URI. Returns the parsed glTF JSON
// and the loaded animation of the extension's blob (its metadata maps joints to glTF nodes). The
// engine loads the same file for the scene: the extension is in extensionsUsed only. Untrusted
// input: every chunk, index and range is checked; failures throw SinewError.
export async function loadPacked(bytes, options = {}) {
	const u8 = bytes instanceof Uint8Array ? bytes
		: ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
		: new Uint8Array(bytes);
	const bad = (message) => new SinewError(22, `packed glTF: ${message}`);
	const view = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
	let json = null, bin = null;
	if (u8.length >= 12 && view.getUint32(0, true) === 0x46546c67) { // "glTF"
		if (view.getUint32(8, true) > u8.length) throw bad('GLB length exceeds the data');
		for (let at = 12; at + 8 <= u8.length;) {
			const length = view.getUint32(at, true), type = view.getUint32(at + 4, true);
			if (length > u8.length - at - 8) throw bad(`chunk at ${at} exceeds the data`);
			const chunk = u8.subarray(at + 8, at + 8 + length);
			if (type === 0x4e4f534a && json === null) json = JSON.parse(new TextDecoder().decode(chunk));
			else if (type === 0x004e4942 && bin === null) bin = chunk;
			at += 8 + length;
		}
		if (json === null) throw bad('no JSON chunk');
	} else {
		json = JSON.parse(new TextDecoder().decode(u8));
	}
	const ext = json?.extensions?.SINEW_compressed_animation;
	if (!ext) throw new SinewError(12, 'packed glTF: no SINEW_compressed_animation extension');
	const bufferView = Number.isInteger(ext.bufferView) ? json.bufferViews?.[ext.bufferView] : undefined;
	const buffer = bufferView && Number.isInteger(bufferView.buffer) ? json.buffers?.[bufferView.buffer] : undefined;
	if (!bufferView || !buffer) throw bad('extension bufferView or its buffer does not exist');
	let data;
	if (buffer.uri === undefined) {
		if (bin === null) throw bad('buffer without uri outside a GLB');
		data = bin;
	} else if (typeof buffer.uri === 'string' && buffer.uri.startsWith('data:') && buffer.uri.includes(';base64,')) {
		const text = atob(buffer.uri.slice(buffer.uri.indexOf(';base64,') + 8));
		data = Uint8Array.from(text, (c) => c.charCodeAt(0));
	} else {
		throw new SinewError(12, 'packed glTF: external buffers are not read here; pass a .glb or an embedded .gltf');
	}
	const start = bufferView.byteOffset ?? 0, length = bufferView.byteLength;
	if (!Number.isInteger(start) || !Number.isInteger(length) || start < 0 || length < 0 || start + length > data.length)
		throw bad('blob range outside its buffer');
	const blob = data.slice(start, start + length); // a copy: sinew needs the blob 16-byte aligned
	// the blob names nothing (docs/gltf_extension.md): the extension has the clips' names and the pointers,
	// the document the nodes' rest pose and default weights, which a rig without them plays
	const named = {
		clipNames: Array.isArray(ext.clips) ? ext.clips.map((c) => (typeof c?.name === 'string' ? c.name : null)) : [],
		pointers: Array.isArray(ext.pointers) ? ext.pointers : null,
	};
	let rest = {};
	if (blob.byteLength >= 8 && blob[4] === 3 && blob[5] === 0) {
		const meta = readMetadata(blob, named), rig = meta.rig, clip = meta.find((c) => c);
		if (rig.restDefaults && !rig.hasRest && clip) rest = documentRest(json, clip, bad);
	}
	return { json, animation: await load(blob, { ...options, ...named, ...rest }) };
}

// The rest pose of a packed blob's rig from its document (docs/format.md §rest pose): each rig node's
// translation, rotation and scale as the C importer reads them (the rotation normalized in double, a
// matrix decomposed), each morph track's default weight (node.weights, else mesh.weights, else 0).
function documentRest(json, clip, bad) {
	const nodes = Array.isArray(json.nodes) ? json.nodes : [];
	const restPose = new Float32Array(10 * clip.joints.length);
	clip.joints.forEach((j, i) => {
		const n = j.node !== null ? nodes[j.node] : undefined;
		if (!n || typeof n !== 'object') throw bad(`the blob's node ${i} refers to node ${j.node}, which the document lacks`);
		restPose.set(nodeRest(n), 10 * i);
	});
	const restScalars = new Float32Array(clip.scalars.reduce((a, s) => a + s.components, 0));
	let o = 0;
	for (const s of clip.scalars) {
		const comps = s.components;
		const n = s.node !== null ? nodes[s.node] : null;
		const mesh = n && Number.isInteger(n.mesh) ? json.meshes?.[n.mesh] : null;
		const weights = Array.isArray(n?.weights) ? n.weights : Array.isArray(mesh?.weights) ? mesh.weights : null;
		for (let c = 0; c < comps; c++) restScalars[o + c] = n ? Math.fround(weights?.[s.target + c] ?? 0) : s.defaultValue[c];
		o += comps;
	}
	return { restPose, restScalars };
}

function nodeRest(n) {
	let t = [0, 0, 0], q = [0, 0, 0, 1], sc = [1, 1, 1];
	if (Array.isArray(n.matrix) && n.matrix.length === 16) [t, q, sc] = decompose(n.matrix);
	else {
		if (Array.isArray(n.translation)) t = n.translation;
		if (Array.isArray(n.rotation)) q = n.rotation;
		if (Array.isArray(n.scale)) sc = n.scale;
	}
	const len = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	return [q[0] / len, q[1] / len, q[2] / len, q[3] / len, t[0], t[1], t[2], sc[0], sc[1], sc[2]];
}

// Column-major 4x4 -> T, R, S as the C importer decomposes a node matrix (src/import/import_gltf.c).
function decompose(m) {
	const col = [0, 1, 2].map((c) => [m[4 * c], m[4 * c + 1], m[4 * c + 2]]);
	const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
	const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
	const s = col.map((c) => Math.sqrt(dot(c, c)));
	if (dot(col[0], cross(col[1], col[2])) < 0) s[0] = -s[0];
	for (let c = 0; c < 3; c++) if (s[c] !== 0) col[c] = col[c].map((v) => v / s[c]);
	if (s[0] === 0) col[0] = cross(col[1], col[2]);
	if (s[1] === 0) col[1] = cross(col[2], col[0]);
	if (s[2] === 0) col[2] = cross(col[0], col[1]);
	const r = (i, j) => col[j][i], tr = r(0, 0) + r(1, 1) + r(2, 2);
	let q;
	if (tr > 0) { const w = Math.sqrt(tr + 1) * 2; q = [(r(2, 1) - r(1, 2)) / w, (r(0, 2) - r(2, 0)) / w, (r(1, 0) - r(0, 1)) / w, 0.25 * w]; }
	else if (r(0, 0) > r(1, 1) && r(0, 0) > r(2, 2)) { const w = Math.sqrt(1 + r(0, 0) - r(1, 1) - r(2, 2)) * 2; q = [0.25 * w, (r(0, 1) + r(1, 0)) / w, (r(0, 2) + r(2, 0)) / w, (r(2, 1) - r(1, 2)) / w]; }
	else if (r(1, 1) > r(2, 2)) { const w = Math.sqrt(1 + r(1, 1) - r(0, 0) - r(2, 2)) * 2; q = [(r(0, 1) + r(1, 0)) / w, 0.25 * w, (r(1, 2) + r(2, 1)) / w, (r(0, 2) - r(2, 0)) / w]; }
	else { const w = Math.sqrt(1 + r(2, 2) - r(0, 0) - r(1, 1)) * 2; q = [(r(0, 2) + r(2, 0)) / w, (r(1, 2) + r(2, 1)) / w, 0.25 * w, (r(1, 0) - r(0, 1)) / w]; }
	return [[m[12], m[13], m[14]], q, s];
}

// Lossless mode: the glTF's own keyframes, compiled into one relocatable block and sampled by the
// 4 KB runtime of web/lossless (loaded on first use). `source` is .glb bytes, or a glTF JSON object
// with `buffers` (its binary buffers). Returns the lossless animation: sample(t) -> { outputs,
// changed }, one wasm call per frame (see web/lossless/README.md).
export async function loadLossless(source, buffers, options = {}) {
	const lossless = await import('./lossless/lossless.mjs');
	const bytes = source instanceof Uint8Array || source instanceof ArrayBuffer ? new Uint8Array(source) : null;
	const { json, buffers: bins } = bytes ? lossless.parseGlb(bytes) : { json: source, buffers };
	const runtime = await lossless.createRuntime(options.simd === undefined ? {} : { simd: options.simd });
	return runtime.load(lossless.build(json, bins, options.animation === undefined ? {} : { animation: options.animation }));
}

// Streaming playback of paged blobs (web/stream.mjs): loaded on first use.
export async function loadStreaming(source, options = {}) {
	const stream = await import('./stream.mjs');
	return stream.loadStreaming(source, options);
}

export const Sinew = { load, loadPacked, loadLossless, loadStreaming, simdSupported, readMetadata, SinewError, SinewAnimation };
export default Sinew;
