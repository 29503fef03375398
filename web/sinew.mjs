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

import { SinewRig } from './rig.mjs';

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
	// rig: the blob's SinewRig (rig.mjs), read from its copy in this instance's memory
	constructor(instance, simd, rig) {
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
		/** The blob's rig (names, hierarchy, glTF nodes, rest pose: typed arrays and the blob's bytes; web/rig.mjs). */
		this.rig = rig;
		this._clips = [];
		const kernels = new Map(); // kernel name by address: one string for every clip
		for (let i = 0; i < this.clipCount; i++) this._clips.push(readClipInfo(x, i, rig, this._clips[i - 1]?.scalarTracks, kernels));
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
		if (this._buffer === null || this._buffer.byteLength === 0) { // first call, or the memory grew (views detach)
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
		if (this._buffer === null || this._buffer.byteLength === 0) this.sample(clip, 0);
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

// What clip descriptions read from the rig when asked (own enumerable accessors, shared by every clip: a
// spread or Object.keys sees them): the per-node objects are built once per rig, on first use.
const CLIP_ACCESSORS = {
	joints: { get() { return this.rig ? this.rig.joints() : null; }, enumerable: true },
	scalars: { get() { return this.rig ? this.rig.scalars() : null; }, enumerable: true },
	timeMarks: { get() { return this.rig ? this.rig.timeMarks(this.index) : null; }, enumerable: true },
};

// Clip `index`'s description from its web_clip_info record (web/sinew_wasm.c) and the rig. `shared`: the
// previous clip's scalarTracks, reused when this clip's layout is the same (the rig's: every clip).
function readClipInfo(x, index, rig, shared, kernels = new Map()) {
	const ptr = x.sinew_web_clip_info(index);
	const dv = new DataView(x.memory.buffer, ptr, 64);
	const u32 = (o) => dv.getUint32(o, true);
	const scalarTrackCount = u32(32), layout = u32(56);
	const table = new DataView(x.memory.buffer, layout, scalarTrackCount * 8);
	const at = (s) => ({ offset: table.getUint32(8 * s, true), components: table.getUint32(8 * s + 4, true) });
	let scalarTracks = shared;
	for (let s = 0; scalarTracks && s < scalarTrackCount; s++) if (scalarTracks[s].offset !== at(s).offset || scalarTracks[s].components !== at(s).components) scalarTracks = null;
	if (!scalarTracks || scalarTracks.length !== scalarTrackCount) scalarTracks = Object.freeze(Array.from({ length: scalarTrackCount }, (_, s) => Object.freeze(at(s))));
	const flags = u32(44);
	const info = {
		index,
		name: cString(x.memory, u32(52)) ?? rig?.clipName(index) ?? null, // (a packed blob's names are its extension's)
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
		scalarTracks,
		kernel: kernels.get(u32(60)) ?? kernels.set(u32(60), cString(x.memory, u32(60))).get(u32(60)),
		slerpFit: rig ? rig.slerpFit(index) : false,
		rig,
	};
	return Object.freeze(Object.defineProperties(info, CLIP_ACCESSORS));
}

// Metadata of every clip (docs/format.md §Metadata), parsed from the blob bytes after the wasm
// decoder accepted the blob: an array with, per clip, null (no metadata) or { joints, scalars }.
// Every offset is still bounds-checked here so a bug elsewhere cannot turn into a wrong read.
export function readMetadata(data, options = {}) {
	const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
	if (data.byteLength >= 8 && dv.getUint16(4, true) === 3) return rigMetadata(new SinewRig(data, options));
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
// nodes and scalar tracks it animates (`animates`, `animatesScalars`: booleans), and the SinewRig as `rig`.
function rigMetadata(rig) {
	const clips = Array.from({ length: rig.clipCount }, (_, c) => rig.metadata(c));
	Object.defineProperty(clips, 'timeMarks', { value: Array.from({ length: rig.clipCount }, (_, c) => rig.timeMarks(c)) });
	Object.defineProperty(clips, 'slerpFit', { value: Array.from({ length: rig.clipCount }, (_, c) => rig.slerpFit(c)) });
	Object.defineProperty(clips, 'rig', { value: rig });
	return clips;
}

// The rig of the blob at memory.buffer[ptr, ptr + size), read there once it is loaded (its names stay there).
export function heapRig(memory, ptr, size, options) {
	return new SinewRig(new Uint8Array(memory.buffer, ptr, size), options).attach(memory, ptr, size);
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
	return new SinewAnimation(instance, simd, heapRig(x.memory, ptr, data.byteLength, options));
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
		const rig = new SinewRig(blob, named);
		if (rig.restDefaults && !rig.hasRest && rig.mapped) rest = documentRest(json, rig, bad);
	}
	return { json, animation: await load(blob, { ...options, ...named, ...rest }) };
}

// The rest pose of a packed blob's rig from its document (docs/format.md §rest pose): each rig node's
// translation, rotation and scale as the C importer reads them (the rotation normalized in double, a
// matrix decomposed), each morph track's default weight (node.weights, else mesh.weights, else 0).
function documentRest(json, rig, bad) {
	const nodes = Array.isArray(json.nodes) ? json.nodes : [];
	const restPose = new Float32Array(10 * rig.nodeCount);
	for (let i = 0; i < rig.nodeCount; i++) {
		const index = rig.nodes[i], n = index >= 0 ? nodes[index] : undefined;
		if (!n || typeof n !== 'object') throw bad(`the blob's node ${i} refers to node ${index >= 0 ? index : null}, which the document lacks`);
		restPose.set(nodeRest(n), 10 * i);
	}
	const restScalars = new Float32Array(rig.scalarFloats);
	for (let k = 0; k < rig.scalarCount; k++) {
		const comps = rig.scalarComponents[k], o = rig.scalarOffsets[k], target = rig.scalarTargets[k];
		const n = rig.scalarNodes[k] >= 0 ? nodes[rig.scalarNodes[k]] : null;
		const mesh = n && Number.isInteger(n.mesh) ? json.meshes?.[n.mesh] : null;
		const weights = Array.isArray(n?.weights) ? n.weights : Array.isArray(mesh?.weights) ? mesh.weights : null;
		for (let c = 0; c < comps; c++) restScalars[o + c] = n ? Math.fround(weights?.[target + c] ?? 0) : rig.restScalars[o + c];
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
