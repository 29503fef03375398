// sinew — see include/sinew.h for version and licence
//
// Lossless glTF animation runtime: build() compiles glTF animation channels into one relocatable binary
// block (layout: README.md), a Runtime loads blocks into a tiny wasm module (lossless.wasm / lossless_simd.wasm)
// and sample(t) makes ONE wasm call per frame that writes every output. No dependencies.

export const MAGIC = 0x4c4c5753; // "SWLL" little-endian
export const VERSION = 1;
export const HEADER_BYTES = 64;
export const SAMPLER_BYTES = 32;
export const TRACK_BYTES = 8;
export const STATE_BYTES = 16;
export const KIND = { VEC3_LINEAR: 0, QUAT_LINEAR: 1, GENERAL: 2, CONSTANT: 3 };
export const INTERP = { STEP: 0, LINEAR: 1, CUBICSPLINE: 2 };
export const PATH = { translation: 0, rotation: 1, scale: 2, weights: 3 };
const PATH_NAMES = ['translation', 'rotation', 'scale', 'weights'];
const H = { magic: 0, version: 1, size: 2, n: 3, nVec3: 4, nQuat: 5, nGeneral: 6, nConst: 7, nTracks: 8, nOut: 9,
	offTracks: 10, offSamplers: 11, offOut: 12, offChanged: 13, offState: 14, flags: 15 };
const MAX_COUNT = 1 << 28;

// ------------------------------------------------------------------------------------------- glTF input

/** Splits a GLB into its JSON and its buffers (buffer 0 = the BIN chunk when present). */
export function parseGlb(bytes) {
	const u8 = toU8(bytes);
	const dv = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
	if (u8.byteLength < 20 || dv.getUint32(0, true) !== 0x46546c67) throw new Error('GLB: bad magic');
	if (dv.getUint32(4, true) !== 2) throw new Error('GLB: version is not 2');
	const len = Math.min(dv.getUint32(8, true), u8.byteLength);
	let json = null, bin = null;
	for (let p = 12; p + 8 <= len;) {
		const clen = dv.getUint32(p, true), type = dv.getUint32(p + 4, true);
		if (clen > len - p - 8) throw new Error(`GLB: chunk at byte ${p} overruns the file`);
		const body = u8.subarray(p + 8, p + 8 + clen);
		if (type === 0x4e4f534a && !json) json = JSON.parse(new TextDecoder().decode(body));
		else if (type === 0x004e4942 && !bin) bin = body;
		p += 8 + ((clen + 3) & ~3);
	}
	if (!json) throw new Error('GLB: no JSON chunk');
	return { json, buffers: bin ? [bin] : [] };
}

function toU8(b) {
	if (b instanceof Uint8Array) return b;
	if (ArrayBuffer.isView(b)) return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
	if (b instanceof ArrayBuffer) return new Uint8Array(b);
	throw new Error('expected bytes (Uint8Array, ArrayBuffer or typed array)');
}

function isCount(x) { return Number.isInteger(x) && x >= 0 && x <= MAX_COUNT; }

function bufferBytes(json, buffers, i) {
	const b = json.buffers?.[i];
	if (!b) throw new Error(`buffer ${i} does not exist`);
	let u8 = buffers?.[i] ? toU8(buffers[i]) : null;
	if (!u8 && typeof b.uri === 'string' && b.uri.startsWith('data:')) {
		const comma = b.uri.indexOf(',');
		if (comma < 0 || !b.uri.slice(0, comma).endsWith(';base64')) throw new Error(`buffer ${i}: unsupported data URI`);
		const s = atob(b.uri.slice(comma + 1));
		u8 = new Uint8Array(s.length);
		for (let k = 0; k < s.length; k++) u8[k] = s.charCodeAt(k);
	}
	if (!u8) throw new Error(`buffer ${i}: no data given`);
	if (isCount(b.byteLength) && u8.byteLength < b.byteLength) throw new Error(`buffer ${i}: ${u8.byteLength} bytes, byteLength says ${b.byteLength}`);
	return u8;
}

function viewBytes(json, buffers, i) {
	const v = json.bufferViews?.[i];
	if (!v) throw new Error(`bufferView ${i} does not exist`);
	const buf = bufferBytes(json, buffers, v.buffer);
	const off = v.byteOffset ?? 0, len = v.byteLength;
	if (!isCount(off) || !isCount(len) || off + len > buf.byteLength) throw new Error(`bufferView ${i}: range out of buffer ${v.buffer}`);
	return { bytes: buf.subarray(off, off + len), stride: v.byteStride ?? 0 };
}

const COMPONENT = { 5120: [1, 'getInt8', 127], 5121: [1, 'getUint8', 255], 5122: [2, 'getInt16', 32767],
	5123: [2, 'getUint16', 65535], 5125: [4, 'getUint32', 0], 5126: [4, 'getFloat32', 0] };
const TYPE_SIZE = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

// Reads elements [0, count) of a view into out (nc floats each), bounds-checked.
function readElements(json, buffers, viewIndex, byteOffset, count, nc, ctype, normalized, what, put) {
	const [size, get, div] = COMPONENT[ctype] ?? [];
	if (!size) throw new Error(`${what}: componentType ${ctype} unsupported`);
	const { bytes, stride: vs } = viewBytes(json, buffers, viewIndex);
	const elem = size * nc, stride = vs || elem;
	if (!isCount(byteOffset) || stride < elem || stride % size || stride > 252 && vs) throw new Error(`${what}: bad byteOffset/byteStride`);
	if (count > 0 && byteOffset + (count - 1) * stride + elem > bytes.byteLength) throw new Error(`${what}: data overruns bufferView ${viewIndex}`);
	if (ctype === 5126 && stride === elem && put.f32) { // fast path: tightly packed floats
		put.f32.set(new Float32Array(Uint8Array.prototype.slice.call(bytes, byteOffset, byteOffset + count * elem).buffer));
		return;
	}
	const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const norm = normalized && div ? div : 0;
	for (let e = 0; e < count; e++) {
		for (let c = 0; c < nc; c++) {
			let x = dv[get](byteOffset + e * stride + c * size, true);
			if (norm) x = Math.max(x / norm, -1);
			put(e, c, x);
		}
	}
}

/** Reads a glTF accessor into a Float32Array (count * components), incl. byteStride, normalized integers, sparse. */
export function readAccessor(json, buffers, index) {
	const a = json.accessors?.[index];
	const what = `accessor ${index}`;
	if (!a) throw new Error(`${what} does not exist`);
	const nc = TYPE_SIZE[a.type];
	if (!nc || !isCount(a.count)) throw new Error(`${what}: bad type or count`);
	const out = new Float32Array(a.count * nc);
	if (a.bufferView !== undefined) {
		const put = (e, c, x) => { out[e * nc + c] = x; };
		put.f32 = out;
		readElements(json, buffers, a.bufferView, a.byteOffset ?? 0, a.count, nc, a.componentType, a.normalized, what, put);
	}
	if (a.sparse) {
		const sp = a.sparse, n = sp.count;
		if (!isCount(n) || n > a.count || !sp.indices || !sp.values) throw new Error(`${what}: bad sparse`);
		const idx = new Uint32Array(n);
		if (![5121, 5123, 5125].includes(sp.indices.componentType)) throw new Error(`${what}: bad sparse index type`);
		readElements(json, buffers, sp.indices.bufferView, sp.indices.byteOffset ?? 0, n, 1, sp.indices.componentType, false,
			what + ' sparse indices', (e, c, x) => { idx[e] = x; });
		readElements(json, buffers, sp.values.bufferView, sp.values.byteOffset ?? 0, n, nc, a.componentType, a.normalized,
			what + ' sparse values', (e, c, x) => {
				if (idx[e] >= a.count) throw new Error(`${what}: sparse index ${idx[e]} out of range`);
				out[idx[e] * nc + c] = x;
			});
	}
	return out;
}

// ------------------------------------------------------------------------------------------- block build

function sameBits(a, b) {
	if (a.length !== b.length) return false;
	const x = new Uint32Array(a.buffer, a.byteOffset, a.length), y = new Uint32Array(b.buffer, b.byteOffset, b.length);
	for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
	return true;
}

function isConstant(values, nkeys, nc, cubic) {
	const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
	const stride = cubic ? 3 * nc : nc, v0 = cubic ? nc : 0;
	for (let k = 0; k < nkeys; k++) {
		for (let c = 0; c < nc; c++) {
			if (bits[k * stride + v0 + c] !== bits[v0 + c]) return false;
			if (cubic && (values[k * stride + c] !== 0 || values[k * stride + 2 * nc + c] !== 0)) return false;
		}
	}
	return true;
}

/**
 * Compiles glTF animation channels targeting node translation/rotation/scale/weights into one block.
 * options.animation: index of one animation (default: all animations). Returns a Uint8Array.
 */
export function build(json, buffers = [], options = {}) {
	const anims = json.animations ?? [];
	const which = options.animation === undefined ? anims.map((_, i) => i) : [options.animation];
	const samplers = [], tracks = [], trackByHash = new Map(), accessorCache = new Map();
	const read = (i) => {
		if (!accessorCache.has(i)) accessorCache.set(i, readAccessor(json, buffers, i));
		return accessorCache.get(i);
	};
	for (const ai of which) {
		const anim = anims[ai];
		if (!anim) throw new Error(`animation ${ai} does not exist`);
		for (const [ci, ch] of (anim.channels ?? []).entries()) {
			const what = `animation ${ai} channel ${ci}`;
			const path = PATH[ch.target?.path];
			if (path === undefined || ch.target.node === undefined) continue; // e.g. KHR_animation_pointer
			if (!isCount(ch.target.node)) throw new Error(`${what}: bad target node`);
			const sm = anim.samplers?.[ch.sampler];
			if (!sm) throw new Error(`${what}: sampler ${ch.sampler} does not exist`);
			const interp = INTERP[sm.interpolation ?? 'LINEAR'];
			if (interp === undefined) throw new Error(`${what}: interpolation ${sm.interpolation} unsupported`);
			const ia = json.accessors?.[sm.input], oa = json.accessors?.[sm.output];
			if (!ia || ia.type !== 'SCALAR' || ia.componentType !== 5126) throw new Error(`${what}: input accessor ${sm.input} must be float SCALAR`);
			if (!oa) throw new Error(`${what}: output accessor ${sm.output} does not exist`);
			const times = read(sm.input), values = read(sm.output), nkeys = times.length;
			if (nkeys < 1) throw new Error(`${what}: no keys`);
			for (let k = 0; k < nkeys; k++)
				if (!Number.isFinite(times[k]) || (k && times[k] < times[k - 1])) throw new Error(`${what}: accessor ${sm.input} times not finite and increasing at key ${k}`);
			const per = nkeys * (interp === INTERP.CUBICSPLINE ? 3 : 1);
			const nc = path === PATH.weights ? values.length / per : path === PATH.rotation ? 4 : 3;
			if (!Number.isInteger(nc) || nc < 1 || values.length !== per * nc || (path === PATH.weights) !== (oa.type === 'SCALAR'))
				throw new Error(`${what}: output accessor ${sm.output} has ${values.length} values for ${nkeys} keys`);
			// Time arrays are shared by content: one cursor per distinct array.
			let h = nkeys;
			const tb = new Uint32Array(times.buffer, times.byteOffset, nkeys);
			for (let k = 0; k < nkeys; k++) h = Math.imul(h ^ tb[k], 0x01000193) >>> 0;
			let track = (trackByHash.get(h) ?? []).find((t) => sameBits(tracks[t], times));
			if (track === undefined) {
				track = tracks.push(times) - 1;
				trackByHash.set(h, [...(trackByHash.get(h) ?? []), track]);
			}
			const cubic = interp === INTERP.CUBICSPLINE;
			let kind = KIND.GENERAL, data = values;
			if (nkeys === 1 || isConstant(values, nkeys, nc, cubic)) {
				kind = KIND.CONSTANT;
				data = values.slice(cubic ? nc : 0, (cubic ? nc : 0) + nc);
			} else if (interp === INTERP.LINEAR && path !== PATH.weights) {
				kind = path === PATH.rotation ? KIND.QUAT_LINEAR : KIND.VEC3_LINEAR;
			}
			samplers.push({ kind, interp, nc, track, data, node: ch.target.node, path });
		}
	}
	// By kind; the two fast-path kinds also by time track so that samplers sharing a track can be interleaved.
	samplers.sort((a, b) => a.kind - b.kind || (a.kind < KIND.GENERAL ? a.track - b.track : 0)); // stable
	const n = samplers.length, nt = tracks.length;
	const counts = [0, 0, 0, 0];
	for (const s of samplers) counts[s.kind]++;
	let p = HEADER_BYTES;
	const offTracks = p; p += nt * TRACK_BYTES; p = (p + 15) & ~15;
	const offSamplers = p; p += n * SAMPLER_BYTES;
	const trackOff = tracks.map((t) => { const o = p; p += t.length * 4; return o; });
	// Values: fast-path samplers sharing a time track are interleaved key by key (one frame reads two contiguous
	// runs of memory); the others keep their own arrays. stride = bytes from one key to the next.
	for (let i = 0; i < n;) {
		let j = i + 1, width = samplers[i].nc;
		if (samplers[i].kind < KIND.GENERAL)
			for (; j < n && samplers[j].kind === samplers[i].kind && samplers[j].track === samplers[i].track; j++) width += samplers[j].nc;
		if (j - i === 1) {
			const s = samplers[i];
			s.off = p;
			s.stride = s.kind === KIND.CONSTANT ? s.nc * 4 : (s.data.length / tracks[s.track].length) * 4;
			p += s.data.length * 4;
		} else {
			const nk = tracks[samplers[i].track].length;
			for (let k = i, col = 0; k < j; col += samplers[k].nc, k++) { samplers[k].off = p + col * 4; samplers[k].stride = width * 4; }
			p += nk * width * 4;
		}
		i = j;
	}
	p = (p + 16 + 15) & ~15; // 16 bytes of padding: 4-lane loads may read one float past the last key
	let nOut = 0;
	for (const s of samplers) { s.out = nOut; nOut += s.nc; }
	const offOut = p; p += (nOut + 4) * 4; p = (p + 15) & ~15;
	const offChanged = p; p += ((n + 31) >>> 5) * 4; p = (p + 15) & ~15;
	const offState = p; p += nt * STATE_BYTES;
	const size = (p + 15) & ~15;
	if (size > 0x7fff0000) throw new Error('animation too large for one block');
	const block = new Uint8Array(size), u32 = new Uint32Array(block.buffer), f32 = new Float32Array(block.buffer);
	u32.set([MAGIC, VERSION, size, n, counts[0], counts[1], counts[2], counts[3], nt, nOut,
		offTracks, offSamplers, offOut, offChanged, offState, 0]);
	tracks.forEach((t, i) => { u32[offTracks / 4 + 2 * i] = t.length; u32[offTracks / 4 + 2 * i + 1] = trackOff[i]; f32.set(t, trackOff[i] / 4); });
	samplers.forEach((s, i) => {
		u32.set([s.kind, s.interp | (s.path << 8), s.nc, s.track, s.off, s.out, s.node, s.stride], (offSamplers + i * SAMPLER_BYTES) / 4);
		const per = s.kind === KIND.CONSTANT ? s.nc : s.data.length / tracks[s.track].length;
		if (s.stride === per * 4) f32.set(s.data, s.off / 4);
		else for (let k = 0; k < s.data.length / per; k++) f32.set(s.data.subarray(k * per, k * per + per), (s.off + k * s.stride) / 4);
	});
	return block;
}

// ------------------------------------------------------------------------------------------- validation

/** Checks that a block (untrusted bytes) is well formed so that sampling stays inside it. Throws otherwise. */
export function validate(bytes) {
	const b = toU8(bytes);
	const fail = (m) => { throw new Error(`lossless block: ${m}`); };
	if (b.byteLength < HEADER_BYTES || b.byteLength % 16) fail('size is not a multiple of 16 of at least 64 bytes');
	const dv = new DataView(b.buffer, b.byteOffset, b.byteLength), w = (i) => dv.getUint32(i * 4, true);
	if (w(H.magic) !== MAGIC) fail('bad magic');
	if (w(H.version) !== VERSION) fail(`version ${w(H.version)} unsupported`);
	const size = b.byteLength, n = w(H.n), nt = w(H.nTracks), nOut = w(H.nOut);
	if (w(H.size) !== size) fail(`header size ${w(H.size)} != ${size} bytes`);
	const ends = [w(H.nVec3), w(H.nQuat), w(H.nGeneral), w(H.nConst)];
	if (ends[0] + ends[1] + ends[2] + ends[3] !== n) fail('sampler counts do not add up');
	for (let k = 1; k < 4; k++) ends[k] += ends[k - 1];
	const oT = w(H.offTracks), oS = w(H.offSamplers), oO = w(H.offOut), oC = w(H.offChanged), oSt = w(H.offState);
	for (const o of [oT, oS, oO, oC, oSt]) if (o % 4) fail('misaligned section offset');
	// Regions in order: header, tracks, samplers, data, outputs (+4 floats), changed, state.
	if (oT < HEADER_BYTES || oT + nt * TRACK_BYTES > oS || oS + n * SAMPLER_BYTES > oO || oO + (nOut + 4) * 4 > oC ||
		oC + ((n + 31) >>> 5) * 4 > oSt || oSt + nt * STATE_BYTES > size) fail('sections overlap or overrun');
	const dataLo = oS + n * SAMPLER_BYTES, dataHi = oO;
	const inData = (off, floats) => off % 4 === 0 && off >= dataLo && off + floats * 4 <= dataHi && off + floats * 4 + 16 <= size;
	const nkeys = [];
	for (let t = 0; t < nt; t++) {
		const k = w(oT / 4 + 2 * t), off = w(oT / 4 + 2 * t + 1);
		if (k < 1 || !inData(off, k)) fail(`track ${t}: keys out of the data section`);
		nkeys.push(k);
	}
	for (let i = 0; i < n; i++) {
		const q = oS / 4 + i * 8;
		const [kind, ip, nc, track, off, out, , stride] = [0, 1, 2, 3, 4, 5, 6, 7].map((j) => w(q + j));
		const interp = ip & 255, path = ip >>> 8;
		const what = `sampler ${i}`;
		if (kind !== ends.findIndex((e) => i < e)) fail(`${what}: kind ${kind} out of order`);
		if (interp > 2 || path > 3 || track >= nt || nc < 1 || nc > nOut) fail(`${what}: bad descriptor`);
		if ((path === 1 && nc !== 4) || ((path === 0 || path === 2) && nc !== 3)) fail(`${what}: component count`);
		if ((kind === 0 && (interp !== 1 || nc !== 3)) || (kind === 1 && (interp !== 1 || path !== 1))) fail(`${what}: kind mismatch`);
		if (kind !== 3 && nkeys[track] < 2) fail(`${what}: animated sampler with fewer than 2 keys`);
		const per = kind === 3 ? nc : nc * (interp === 2 ? 3 : 1);
		if (stride % 4 || !inData(off, kind === 3 ? nc : (nkeys[track] - 1) * (stride / 4) + per)) fail(`${what}: values out of the data section`);
		if (out + nc > nOut) fail(`${what}: output out of range`);
	}
	return { n, nt, nOut, offOut: oO, offChanged: oC, offState: oSt, offSamplers: oS, offTracks: oT };
}

/** Decodes the sampler descriptors of a block: [{index, kind, interpolation, node, path, components, offset}]. */
export function describe(bytes) {
	const b = toU8(bytes), s = summarize(b), dv = new DataView(b.buffer, b.byteOffset, b.byteLength), ch = [];
	for (let i = 0; i < s.n; i++) ch.push(descriptor((j) => dv.getUint32(s.offSamplers + i * SAMPLER_BYTES + 4 * j, true), i));
	return { channels: ch, outputCount: s.outputCount, start: s.start, end: s.end };
}

const INTERP_NAMES = Object.keys(INTERP);
// Channel i's descriptor from its sampler's words (w(j): word j).
function descriptor(w, i) {
	return { index: i, kind: w(0), interpolation: INTERP_NAMES[w(1) & 255], components: w(2), offset: w(5), node: w(6),
		path: PATH_NAMES[w(1) >>> 8] };
}

// What a loaded group keeps of a validated block: counts, where the samplers are, and the keys' time span.
function summarize(b) {
	const info = validate(b), dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
	let lo = Infinity, hi = -Infinity;
	for (let t = 0; t < info.nt; t++) {
		const k = dv.getUint32(info.offTracks + 8 * t, true), off = dv.getUint32(info.offTracks + 8 * t + 4, true);
		lo = Math.min(lo, dv.getFloat32(off, true));
		hi = Math.max(hi, dv.getFloat32(off + 4 * (k - 1), true));
	}
	return { n: info.n, outputCount: info.nOut, offSamplers: info.offSamplers, start: info.nt ? lo : 0, end: info.nt ? hi : 0 };
}

// ------------------------------------------------------------------------------------------- runtime

async function wasmBytes(name) {
	const url = new URL(name, import.meta.url);
	if (url.protocol === 'file:') return (await import('node:fs/promises')).readFile(url);
	const r = await fetch(url);
	if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
	return new Uint8Array(await r.arrayBuffer());
}

// The module's bytes or compiled module, as createRuntime and createRuntimeSync take them.
async function moduleFor(options) {
	let simd = options.simd ?? 'auto', mod = options.wasm;
	if (!mod) {
		if (simd !== false) {
			const bytes = await wasmBytes('./lossless_simd.wasm');
			if (WebAssembly.validate(bytes)) { mod = bytes; simd = true; } else if (simd === true) throw new Error('WebAssembly SIMD unsupported');
		}
		if (!mod) { mod = await wasmBytes('./lossless.wasm'); simd = false; }
	}
	return { mod, simd };
}

/**
 * Instantiates the sampler. options.simd: true | false | 'auto' (default: SIMD when the engine validates it);
 * options.wasm: the module bytes or a WebAssembly.Module (default: read lossless[_simd].wasm next to this file).
 */
export async function createRuntime(options = {}) {
	const { mod, simd } = await moduleFor(options);
	const module = mod instanceof WebAssembly.Module ? mod : await WebAssembly.compile(mod);
	const instance = await WebAssembly.instantiate(module, {});
	return new Runtime(instance, simd === true);
}

/**
 * The same without a promise (new WebAssembly.Module, then new WebAssembly.Instance): options.wasm (the bytes
 * of lossless.wasm or lossless_simd.wasm, or a compiled module) is required, since nothing can be fetched
 * synchronously; options.simd says which build it is (default: false). Browsers limit synchronous compilation
 * of large modules on the main thread (4 KB is far below that limit).
 */
export function createRuntimeSync(options = {}) {
	const mod = options.wasm;
	if (!mod) throw new Error('createRuntimeSync: options.wasm (the module bytes or a WebAssembly.Module) is required');
	const module = mod instanceof WebAssembly.Module ? mod : new WebAssembly.Module(toU8(mod));
	return new Runtime(new WebAssembly.Instance(module, {}), options.simd === true);
}

// ------------------------------------------------------------------------------------------- heap

// The heap (README.md §Heap layout): one contiguous region of the wasm memory holding a header, the group
// table and the loaded blocks, every offset relative to its start, so the whole region is serialized as it
// is and restored anywhere.
export const HEAP_MAGIC = 0x484c5753; // "SWLH" little-endian
export const HEAP_VERSION = 1;
export const HEAP_HEADER_BYTES = 32;
export const GROUP_BYTES = 16;
const HH = { magic: 0, version: 1, size: 2, slots: 3, table: 4, checksum: 5 };
const GROUP_ACTIVE = 1;
const FIRST_SLOTS = 16;

// FNV-1a (32-bit) over bytes, in words where aligned (the heap's size is a multiple of 16).
function fnv1a(u8) {
	let h = 0x811c9dc5;
	for (let i = 0; i < u8.length; i++) h = Math.imul(h ^ u8[i], 0x01000193);
	return h >>> 0;
}

function toBase64(u8) {
	if (typeof Buffer !== 'undefined') return Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('base64');
	let s = '';
	for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode.apply(null, u8.subarray(i, i + 0x8000));
	return btoa(s);
}

function fromBase64(text) {
	if (typeof Buffer !== 'undefined') {
		if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new Error('lossless heap: not base64');
		const b = Buffer.from(text, 'base64');
		return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
	}
	let s;
	try { s = atob(text); } catch { throw new Error('lossless heap: not base64'); }
	const out = new Uint8Array(s.length);
	for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
	return out;
}

/**
 * Checks a heap image (untrusted bytes, e.g. from serialize()) so that sampling every group stays inside it:
 * header, checksum, the group table and every block (validate()), none overlapping. Returns the groups in
 * slot order ({ slot, offset, size } for each loaded one). Throws an Error naming the problem otherwise.
 */
export function validateHeap(bytes) {
	const b = toU8(bytes);
	const fail = (m) => { throw new Error(`lossless heap: ${m}`); };
	if (b.byteLength < HEAP_HEADER_BYTES || b.byteLength % 16) fail('size is not a multiple of 16 of at least 32 bytes');
	const dv = new DataView(b.buffer, b.byteOffset, b.byteLength), w = (i) => dv.getUint32(4 * i, true);
	if (w(HH.magic) !== HEAP_MAGIC) fail('bad magic');
	if (w(HH.version) !== HEAP_VERSION) fail(`version ${w(HH.version)} unsupported`);
	if (w(HH.size) !== b.byteLength) fail(`header size ${w(HH.size)} != ${b.byteLength} bytes`);
	const copy = b.slice(); new DataView(copy.buffer).setUint32(4 * HH.checksum, 0, true);
	if (fnv1a(copy) !== w(HH.checksum)) fail('checksum mismatch');
	if (w(6) || w(7)) fail('reserved header words are not 0');
	const slots = w(HH.slots), table = w(HH.table);
	if (slots < 1 || table % 16 || table < HEAP_HEADER_BYTES || table + slots * GROUP_BYTES > b.byteLength) fail('group table out of the heap');
	const ranges = [[0, HEAP_HEADER_BYTES], [table, table + slots * GROUP_BYTES]], groups = [];
	for (let i = 0; i < slots; i++) {
		const q = (table + i * GROUP_BYTES) / 4, off = w(q), size = w(q + 1), flags = w(q + 3);
		if (off === 0) { if (size || w(q + 2) || flags) fail(`group slot ${i}: empty but not zero`); continue; }
		if (off % 16 || size < HEADER_BYTES || off + size > b.byteLength) fail(`group ${i}: block out of the heap`);
		if (flags & ~GROUP_ACTIVE) fail(`group ${i}: unknown flags ${flags}`);
		try { validate(b.subarray(off, off + size)); } catch (e) { fail(`group ${i}: ${e.message}`); }
		ranges.push([off, off + size]);
		groups.push({ slot: i, offset: off, size });
	}
	ranges.sort((x, y) => x[0] - y[0]);
	for (let k = 1; k < ranges.length; k++) if (ranges[k][0] < ranges[k - 1][1]) fail('blocks or table overlap');
	return groups;
}

// ------------------------------------------------------------------------------------------- runtime

/**
 * One wasm instance and its heap: any number of groups (blocks: one glTF animation each, or several) loaded,
 * unloaded and reloaded into one relocatable region; sampleAll() samples every active group at its own time
 * in ONE wasm call.
 */
export class Runtime {
	constructor(instance, simd) {
		/** Plain (mutable) copy of the wasm exports, so that callers can instrument calls. */
		this.exports = { ...instance.exports };
		this.memory = instance.exports.memory;
		this.simd = simd;
		/** The loaded groups, by slot (null: a free slot). */
		this.groups = [];
		this._base = 0;       // heap address (it moves only when the heap must grow past someone else's alloc)
		this._reserved = 0;   // arena bytes the heap owns from _base
		this._epoch = 0;      // bumped when the heap or its table moves, or a group is unloaded (groups re-check)
		this._buf = null;
	}
	/** Reserves bytes in the wasm arena (16-byte aligned) outside the heap; returns the address. */
	alloc(bytes) {
		const p = this.exports.alloc(bytes >>> 0);
		if (!p) throw new Error(`wasm arena: cannot allocate ${bytes} bytes`);
		return p;
	}
	/** Address of the heap in the wasm memory (relocations move it; offsets inside do not change). */
	get heapAddress() { this._ensureHeap(); return this._base; }
	/** Bytes of the heap (what serialize() writes): header, group table and blocks, up to the last one. */
	get heapBytes() { this._ensureHeap(); return this._u32()[this._base / 4 + HH.size]; }

	_u32() {
		if (this._buf !== this.memory.buffer) { this._buf = this.memory.buffer; this._w32 = new Uint32Array(this._buf); this._wf32 = new Float32Array(this._buf); }
		return this._w32;
	}
	_ensureHeap() {
		if (this._reserved) return;
		const size = HEAP_HEADER_BYTES + FIRST_SLOTS * GROUP_BYTES;
		this._base = this.alloc(size);
		this._reserved = size;
		const u = this._u32(), h = this._base / 4;
		u.fill(0, h, h + size / 4);
		u[h + HH.magic] = HEAP_MAGIC; u[h + HH.version] = HEAP_VERSION; u[h + HH.size] = size;
		u[h + HH.slots] = FIRST_SLOTS; u[h + HH.table] = HEAP_HEADER_BYTES;
		this.groups = new Array(FIRST_SLOTS).fill(null);
	}
	// Used byte ranges of the heap, sorted: header, table, blocks.
	_ranges() {
		const u = this._u32(), h = this._base / 4, slots = u[h + HH.slots], table = u[h + HH.table];
		const r = [[0, HEAP_HEADER_BYTES], [table, table + slots * GROUP_BYTES]];
		for (let i = 0; i < slots; i++) { const q = h + (table + i * GROUP_BYTES) / 4; if (u[q]) r.push([u[q], u[q] + u[q + 1]]); }
		return r.sort((x, y) => x[0] - y[0]);
	}
	// A free heap range of `size` bytes (16-aligned): the first gap that fits (space of unloaded groups is
	// reused), else the end, growing the heap. Returns its offset; the heap's size covers it.
	_place(size) {
		const ranges = this._ranges();
		let end = 0;
		for (const [lo, hi] of ranges) {
			if (lo - end >= size) return end;
			end = Math.max(end, hi);
		}
		this._grow(end + size);
		this._u32()[this._base / 4 + HH.size] = end + size;
		return end;
	}
	// Makes the heap own at least `bytes` from its base: extends it in place when nothing was allocated after
	// it, else moves it to the top of the arena (everything in it is relative to its start).
	_grow(bytes) {
		if (bytes <= this._reserved) return;
		const more = bytes - this._reserved;
		if (this.exports.alloc(0) === this._base + this._reserved) {
			this.alloc(more);
			this._reserved = bytes;
			return;
		}
		const used = this._u32()[this._base / 4 + HH.size];
		const to = this.alloc(bytes);
		new Uint8Array(this.memory.buffer).copyWithin(to, this._base, this._base + used);
		this._base = to;
		this._reserved = bytes;
		this._epoch++;
	}
	// The heap's size: the end of its last used range (after an unload at the end, the heap shrinks).
	_trim() {
		const ranges = this._ranges();
		this._u32()[this._base / 4 + HH.size] = Math.max(...ranges.map((r) => r[1]));
	}
	_slot() {
		const u = this._u32(), h = this._base / 4, slots = u[h + HH.slots], table = u[h + HH.table];
		for (let i = 0; i < slots; i++) if (!u[h + (table + i * GROUP_BYTES) / 4]) return i;
		// a table twice as large, placed like a block; the old one's space becomes free
		const bigger = this._place(2 * slots * GROUP_BYTES);
		const mem = new Uint8Array(this.memory.buffer);
		mem.copyWithin(this._base + bigger, this._base + table, this._base + table + slots * GROUP_BYTES);
		mem.fill(0, this._base + bigger + slots * GROUP_BYTES, this._base + bigger + 2 * slots * GROUP_BYTES);
		const w = this._u32();
		w[h + HH.slots] = 2 * slots; w[h + HH.table] = bigger;
		this._epoch++;
		this.groups.length = 2 * slots;
		this.groups.fill(null, slots);
		this._trim();
		return slots;
	}
	/**
	 * Validates a block, copies it into the heap (into the space of an unloaded group when one is large enough)
	 * and returns its group (an Animation: active, time 0, state reset). Memory grows here, never in sampling.
	 */
	load(block) {
		const b = toU8(block);
		validate(b);
		this._ensureHeap();
		const slot = this._slot(), off = this._place(b.byteLength);
		new Uint8Array(this.memory.buffer, this._base + off, b.byteLength).set(b);
		const u = this._u32(), q = this._base / 4 + (u[this._base / 4 + HH.table] + slot * GROUP_BYTES) / 4;
		u[q] = off; u[q + 1] = b.byteLength; u[q + 2] = 0; u[q + 3] = GROUP_ACTIVE;
		const a = new Animation(this, slot);
		this.groups[slot] = a;
		a.reset();
		return a;
	}
	/** Samples every active group at its own `time` (Animation.time): ONE wasm call; nothing allocates. */
	sampleAll() {
		this.exports.sample_all(this._base);
		return this;
	}
	/** The heap image: raw bytes, or with { encoding: 'base64' } a string. restoreRuntime() loads either. */
	serialize(options = {}) {
		this._ensureHeap();
		const size = this.heapBytes;
		const image = new Uint8Array(this.memory.buffer, this._base, size).slice();
		const dv = new DataView(image.buffer);
		dv.setUint32(4 * HH.checksum, 0, true);
		dv.setUint32(4 * HH.checksum, fnv1a(image), true);
		if (options.encoding === 'base64') return toBase64(image);
		if (options.encoding !== undefined && options.encoding !== 'bytes') throw new Error(`serialize: encoding ${options.encoding} (bytes or base64)`);
		return image;
	}
	// Installs a validated heap image in this (fresh) runtime, after options.reserve bytes of other arena use.
	_restore(image, groups, options) {
		if (this._reserved) throw new Error('restore: the runtime already has a heap');
		if (options.reserve) this.alloc(options.reserve);
		this._base = this.alloc(image.byteLength);
		this._reserved = image.byteLength;
		new Uint8Array(this.memory.buffer, this._base, image.byteLength).set(image);
		const u = this._u32();
		u[this._base / 4 + HH.checksum] = 0;
		this.groups = new Array(u[this._base / 4 + HH.slots]).fill(null);
		for (const g of groups) this.groups[g.slot] = new Animation(this, g.slot);
		return this;
	}
}

function imageOf(data) {
	return typeof data === 'string' ? fromBase64(data) : toU8(data);
}

/**
 * A runtime holding a heap image from serialize() (bytes or base64): every group with its playback state,
 * so it samples exactly as the runtime that saved it, at any heap address (options.reserve: allocate that
 * many bytes first) and in either build (options as createRuntime). The image is validated first.
 */
export async function restoreRuntime(data, options = {}) {
	const image = imageOf(data), groups = validateHeap(image);
	return (await createRuntime(options))._restore(image, groups, options);
}

/** restoreRuntime without a promise (options.wasm required, as createRuntimeSync). */
export function restoreRuntimeSync(data, options = {}) {
	const image = imageOf(data), groups = validateHeap(image);
	return createRuntimeSync(options)._restore(image, groups, options);
}

/** One loaded group: a block in the runtime's heap, with its own time and active flag. */
export class Animation {
	constructor(rt, slot) {
		this.runtime = rt;
		this.slot = slot;
		const u = rt._u32(), q = rt._base / 4 + (u[rt._base / 4 + HH.table] + slot * GROUP_BYTES) / 4;
		this.offset = u[q];
		this.size = u[q + 1];
		// numbers only: the channels' descriptors stay in the heap (channel(i), channelNode(i), ...), not in JS objects
		const d = summarize(new Uint8Array(rt.memory.buffer, rt._base + this.offset, this.size));
		this.channelCount = d.n;
		this.outputCount = d.outputCount;
		this.start = d.start;
		this.end = d.end;
		this._epoch = -1;
		this._buf = null;
	}
	/** Whether the group is still loaded (unload() ends it). */
	get loaded() { return this.runtime.groups[this.slot] === this; }
	// Views and addresses, again after the memory grew or the heap or its table moved (a later load).
	_refresh() {
		const rt = this.runtime;
		if (rt.groups[this.slot] !== this) throw new Error('lossless: this group was unloaded');
		const u = rt._u32(), buf = rt.memory.buffer, at = rt._base + this.offset;
		this._epoch = rt._epoch;
		this._buf = buf;
		this._at = at;
		this._q = rt._base / 4 + (u[rt._base / 4 + HH.table] + this.slot * GROUP_BYTES) / 4; // table entry, in words
		this._u32 = u;
		this._f32 = rt._wf32;
		const h = this._h = new Uint32Array(buf, at, 16);
		this._sw = (at + h[H.offSamplers]) / 4; // channel i's sampler: words [_sw + 8 i, _sw + 8 i + 8) of _u32
		this._result = {
			outputs: new Float32Array(buf, at + h[H.offOut], this.outputCount),
			changed: new Uint32Array(buf, at + h[H.offChanged], (this.channelCount + 31) >>> 5),
		};
	}
	// Word j of channel i's sampler descriptor in the heap (validated at load: i is checked here).
	_word(i, j) {
		this._fresh();
		if (!(i >= 0 && i < this.channelCount && Number.isInteger(i))) throw new RangeError(`lossless: no channel ${i} (${this.channelCount} channels)`);
		return this._u32[this._sw + SAMPLER_BYTES / 4 * i + j];
	}
	/** Channel i's descriptor {index, kind, interpolation, node, path, components, offset}, made from the heap. */
	channel(i) { this._word(i, 0); return descriptor((j) => this._u32[this._sw + SAMPLER_BYTES / 4 * i + j], i); }
	/** Every channel's descriptor: a new array at each access (for a frame loop, channelNode(i) and the others read the heap). */
	get channels() { const a = []; for (let i = 0; i < this.channelCount; i++) a.push(this.channel(i)); return a; }
	/** Channel i's target node (glTF node index). */
	channelNode(i) { return this._word(i, 6); }
	/** Channel i's target path: 'translation', 'rotation', 'scale' or 'weights'. */
	channelPath(i) { return PATH_NAMES[this._word(i, 1) >>> 8]; }
	/** Channel i's first float in outputs. */
	channelOffset(i) { return this._word(i, 5); }
	/** Channel i's float count in outputs: 3, 4 (rotation x y z w), or the morph target count. */
	channelComponents(i) { return this._word(i, 2); }
	_fresh() { if (this._epoch !== this.runtime._epoch || this._buf !== this.runtime.memory.buffer) this._refresh(); }
	/** Address of the block in the wasm memory (it moves if the heap must grow past another allocation). */
	get ptr() { this._fresh(); return this._at; }
	/** Seconds at which sampleAll() samples this group (float32 in the heap: a memory write, not a call). */
	get time() { this._fresh(); return this._f32[this._q + 2]; }
	set time(t) { this._fresh(); this._f32[this._q + 2] = t; }
	/** Whether sampleAll() samples this group (default true). */
	get active() { this._fresh(); return (this._u32[this._q + 3] & GROUP_ACTIVE) !== 0; }
	set active(on) { this._fresh(); this._u32[this._q + 3] = on ? GROUP_ACTIVE : 0; }
	/** The outputs and changed bitset of the last sample (the object sample() returns: views of the heap). */
	get result() { this._fresh(); return this._result; }
	get outputs() { return this.result.outputs; }
	get changed() { return this.result.changed; }
	/** Forgets the playback cursors and the previous outputs (next sample flags every channel). */
	reset() {
		this._fresh();
		const h = this._h;
		new Uint8Array(this._buf, this._at + h[H.offState], h[H.nTracks] * STATE_BYTES).fill(0);
		this._result.outputs.fill(0);
		h[H.flags] = 0;
	}
	/**
	 * Samples every channel at time t (seconds, rounded to float32; the group's `time` becomes t) with one wasm
	 * call. Returns the same object each time: outputs (Float32Array view of the wasm heap; channel i at
	 * channels[i].offset) and changed (bit i of changed[i >> 5] set when channel i's output differs from the
	 * previous sample of this group).
	 */
	sample(t) {
		if (this._epoch !== this.runtime._epoch || this._buf !== this.runtime.memory.buffer) this._refresh();
		this._f32[this._q + 2] = t;
		this.runtime.exports.sample(this._at, t);
		return this._result;
	}
	/** A copy of the block (including the playback state, which load() resets). */
	serialize() {
		this._fresh();
		return new Uint8Array(this._buf, this._at, this.size).slice();
	}
	/** Removes the group: its slot and its bytes are free for later loads; this object is no longer usable. */
	unload() {
		this._fresh();
		const rt = this.runtime, q = this._q;
		new Uint8Array(this._buf, this._at, this.size).fill(0);
		this._u32.fill(0, q, q + 4);
		rt.groups[this.slot] = null;
		rt._epoch++;
		rt._trim();
	}
}

/** Convenience: creates a runtime (options as createRuntime) and loads one block into it. */
export async function load(block, options = {}) {
	return (await createRuntime(options)).load(block);
}
