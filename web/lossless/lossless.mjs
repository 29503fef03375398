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
	const b = toU8(bytes), info = validate(b), dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
	const names = Object.keys(INTERP), ch = [];
	for (let i = 0; i < info.n; i++) {
		const q = info.offSamplers + i * SAMPLER_BYTES, w = (j) => dv.getUint32(q + 4 * j, true);
		ch.push({ index: i, kind: w(0), interpolation: names[w(1) & 255], components: w(2), offset: w(5), node: w(6), path: PATH_NAMES[w(1) >>> 8] });
	}
	let lo = Infinity, hi = -Infinity;
	for (let t = 0; t < info.nt; t++) {
		const k = dv.getUint32(info.offTracks + 8 * t, true), off = dv.getUint32(info.offTracks + 8 * t + 4, true);
		lo = Math.min(lo, dv.getFloat32(off, true));
		hi = Math.max(hi, dv.getFloat32(off + 4 * (k - 1), true));
	}
	return { channels: ch, outputCount: info.nOut, start: info.nt ? lo : 0, end: info.nt ? hi : 0 };
}

// ------------------------------------------------------------------------------------------- runtime

async function wasmBytes(name) {
	const url = new URL(name, import.meta.url);
	if (url.protocol === 'file:') return (await import('node:fs/promises')).readFile(url);
	const r = await fetch(url);
	if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
	return new Uint8Array(await r.arrayBuffer());
}

/**
 * Instantiates the sampler. options.simd: true | false | 'auto' (default: SIMD when the engine validates it);
 * options.wasm: the module bytes or a WebAssembly.Module (default: read lossless[_simd].wasm next to this file).
 */
export async function createRuntime(options = {}) {
	let simd = options.simd ?? 'auto', mod = options.wasm;
	if (!mod) {
		if (simd !== false) {
			const bytes = await wasmBytes('./lossless_simd.wasm');
			if (WebAssembly.validate(bytes)) { mod = bytes; simd = true; } else if (simd === true) throw new Error('WebAssembly SIMD unsupported');
		}
		if (!mod) { mod = await wasmBytes('./lossless.wasm'); simd = false; }
	}
	const module = mod instanceof WebAssembly.Module ? mod : await WebAssembly.compile(mod);
	const instance = await WebAssembly.instantiate(module, {});
	return new Runtime(instance, simd === true);
}

export class Runtime {
	constructor(instance, simd) {
		/** Plain (mutable) copy of the wasm exports, so that callers can instrument calls. */
		this.exports = { ...instance.exports };
		this.memory = instance.exports.memory;
		this.simd = simd;
	}
	/** Reserves bytes in the wasm arena (16-byte aligned); returns the address. Construction-time only. */
	alloc(bytes) {
		const p = this.exports.alloc(bytes >>> 0);
		if (!p) throw new Error(`wasm arena: cannot allocate ${bytes} bytes`);
		return p;
	}
	/** Validates a block, copies it into the wasm heap and returns an Animation (state reset). */
	load(block) {
		const b = toU8(block);
		validate(b);
		const ptr = this.alloc(b.byteLength);
		new Uint8Array(this.memory.buffer, ptr, b.byteLength).set(b);
		return new Animation(this, ptr, b.byteLength);
	}
}

export class Animation {
	constructor(rt, ptr, size) {
		this.runtime = rt;
		this.ptr = ptr;
		this.size = size;
		const d = describe(new Uint8Array(rt.memory.buffer, ptr, size));
		this.channels = d.channels;
		this.outputCount = d.outputCount;
		this.start = d.start;
		this.end = d.end;
		this._buf = null;
		this.reset();
	}
	_views() {
		const buf = this.runtime.memory.buffer;
		if (this._buf !== buf) { // memory grew since (another load): re-create the views
			const h = new Uint32Array(buf, this.ptr, 16);
			this._buf = buf;
			this._h = h;
			this._result = {
				outputs: new Float32Array(buf, this.ptr + h[H.offOut], this.outputCount),
				changed: new Uint32Array(buf, this.ptr + h[H.offChanged], (this.channels.length + 31) >>> 5),
			};
		}
		return this._result;
	}
	/** Forgets the playback cursors and the previous outputs (next sample flags every channel). */
	reset() {
		const v = this._views(), h = this._h;
		new Uint8Array(this._buf, this.ptr + h[H.offState], h[H.nTracks] * STATE_BYTES).fill(0);
		v.outputs.fill(0);
		h[H.flags] = 0;
	}
	/**
	 * Samples every channel at time t (seconds, rounded to float32) with one wasm call. Returns the same object
	 * each time: outputs (Float32Array view of the wasm heap; channel i at channels[i].offset) and changed (bit i
	 * of changed[i >> 5] set when channel i's output differs from the previous call).
	 */
	sample(t) {
		this.runtime.exports.sample(this.ptr, t);
		return this._buf === this.runtime.memory.buffer ? this._result : this._views();
	}
	/** A copy of the block (including the playback state, which load() resets). */
	serialize() {
		return new Uint8Array(this.runtime.memory.buffer, this.ptr, this.size).slice();
	}
}

/** Convenience: creates a runtime (options as createRuntime) and loads one block into it. */
export async function load(block, options = {}) {
	return (await createRuntime(options)).load(block);
}
