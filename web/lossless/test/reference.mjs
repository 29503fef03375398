// sinew — see include/sinew.h for version and licence
//
// Test helpers: loading glTF files, and a plain-JS reference sampler written independently of lossless.mjs
// (own accessor reader, binary search, lerp, spec slerp and cubic Hermite in double precision).
import fs from 'node:fs';
import path from 'node:path';

export const REPO = new URL('../../..', import.meta.url).pathname;
export const CORPUS = process.env.SINEW_CORPUS || path.join(REPO, '../shared/corpus');

/** Loads .gltf (external or data-URI buffers) or .glb; returns {json, buffers} or null when absent. */
export function loadGltf(file) {
	if (!fs.existsSync(file)) return null;
	const bytes = fs.readFileSync(file);
	if (file.endsWith('.glb')) {
		const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		let json = null, bin = null;
		for (let p = 12; p + 8 <= bytes.byteLength;) {
			const len = dv.getUint32(p, true), type = dv.getUint32(p + 4, true);
			const body = bytes.subarray(p + 8, p + 8 + len);
			if (type === 0x4e4f534a) json = JSON.parse(body.toString('utf8'));
			if (type === 0x004e4942) bin = body;
			p += 8 + len;
		}
		return { json, buffers: [bin] };
	}
	const json = JSON.parse(bytes.toString('utf8'));
	const buffers = (json.buffers ?? []).map((b) => b.uri.startsWith('data:')
		? Buffer.from(b.uri.slice(b.uri.indexOf(',') + 1), 'base64')
		: fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(b.uri))));
	return { json, buffers };
}

const SIZE = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const NC = { SCALAR: 1, VEC3: 3, VEC4: 4 };

function accessor(g, i) {
	const a = g.json.accessors[i], v = g.json.bufferViews[a.bufferView], buf = g.buffers[v.buffer];
	if (a.sparse) throw new Error('sparse accessors are not used by the reference');
	const nc = NC[a.type], sz = SIZE[a.componentType], stride = v.byteStride || nc * sz;
	const dv = new DataView(buf.buffer, buf.byteOffset + (v.byteOffset || 0) + (a.byteOffset || 0));
	const out = [];
	for (let e = 0; e < a.count; e++) {
		for (let c = 0; c < nc; c++) {
			const o = e * stride + c * sz;
			switch (a.componentType) {
			case 5126: out.push(dv.getFloat32(o, true)); break;
			case 5120: out.push(a.normalized ? Math.max(dv.getInt8(o) / 127, -1) : dv.getInt8(o)); break;
			case 5121: out.push(a.normalized ? dv.getUint8(o) / 255 : dv.getUint8(o)); break;
			case 5122: out.push(a.normalized ? Math.max(dv.getInt16(o, true) / 32767, -1) : dv.getInt16(o, true)); break;
			case 5123: out.push(a.normalized ? dv.getUint16(o, true) / 65535 : dv.getUint16(o, true)); break;
			default: out.push(dv.getUint32(o, true));
			}
		}
	}
	return out;
}

const PATHS = ['translation', 'rotation', 'scale', 'weights'];

/** The animated channels of one animation: [{node, path, interp, times, values, nc, constant}]. */
export function referenceChannels(g, ai) {
	const anim = g.json.animations[ai], res = [];
	for (const ch of anim.channels) {
		if (ch.target.node === undefined || !PATHS.includes(ch.target.path)) continue;
		const s = anim.samplers[ch.sampler];
		const interp = s.interpolation || 'LINEAR';
		const times = accessor(g, s.input), values = accessor(g, s.output);
		const per = times.length * (interp === 'CUBICSPLINE' ? 3 : 1);
		const nc = values.length / per;
		let constant = true; // every key value bit-identical, tangents zero
		const f = new Float32Array(values), bits = new Uint32Array(f.buffer);
		const stride = interp === 'CUBICSPLINE' ? 3 * nc : nc, v0 = interp === 'CUBICSPLINE' ? nc : 0;
		for (let k = 0; k < times.length; k++)
			for (let c = 0; c < nc; c++) {
				if (bits[k * stride + v0 + c] !== bits[v0 + c]) constant = false;
				if (interp === 'CUBICSPLINE' && (values[k * stride + c] !== 0 || values[k * stride + 2 * nc + c] !== 0)) constant = false;
			}
		let scale = 1;
		for (const x of values) scale = Math.max(scale, Math.abs(x));
		res.push({ node: ch.target.node, path: ch.target.path, interp, times, values, nc, constant, scale });
	}
	return res;
}

function slerp(a, b, u) { // glTF spec, double precision
	let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
	if (d < 0) { b = b.map((x) => -x); d = -d; }
	if (d > 1 - 1e-12) return a.map((x, i) => x + (b[i] - x) * u);
	const th = Math.acos(Math.min(d, 1)), s = Math.sin(th);
	const wa = Math.sin((1 - u) * th) / s, wb = Math.sin(u * th) / s;
	return a.map((x, i) => wa * x + wb * b[i]);
}

/** Samples one reference channel at time t (already rounded to float32 by the caller). */
export function referenceSample(ch, t) {
	const { times, values, nc, interp } = ch, n = times.length;
	const key = (k, off = 0) => values.slice((interp === 'CUBICSPLINE' ? 3 * k + 1 + off : k) * nc,
		(interp === 'CUBICSPLINE' ? 3 * k + 1 + off : k) * nc + nc);
	const fix = (v) => (interp === 'CUBICSPLINE' && ch.path === 'rotation') ? normalize(v) : v;
	if (n === 1 || t <= times[0]) return fix(key(0));
	if (t >= times[n - 1]) return fix(key(n - 1));
	let lo = 0, hi = n - 1; // times[lo] <= t < times[hi]
	while (hi - lo > 1) { const m = (lo + hi) >> 1; if (times[m] <= t) lo = m; else hi = m; }
	const dt = times[hi] - times[lo], u = (t - times[lo]) / dt;
	if (interp === 'STEP') return key(lo);
	if (interp === 'LINEAR') {
		const a = key(lo), b = key(hi);
		return ch.path === 'rotation' ? slerp(a, b, u) : a.map((x, i) => x + (b[i] - x) * u);
	}
	const v0 = key(lo), b0 = key(lo, 1), v1 = key(hi), a1 = key(hi, -1);
	const u2 = u * u, u3 = u2 * u;
	const r = v0.map((x, i) => (2 * u3 - 3 * u2 + 1) * x + (u3 - 2 * u2 + u) * dt * b0[i] + (-2 * u3 + 3 * u2) * v1[i] + (u3 - u2) * dt * a1[i]);
	return fix(r);
}

function normalize(q) {
	const l = Math.hypot(...q);
	return l > 0 ? q.map((x) => x / l) : q;
}

/** Test times for a set of channels: every key, midpoints, quarter points, outside the range, random. */
export function testTimes(chs, seed = 7) {
	const set = new Set();
	let lo = Infinity, hi = -Infinity;
	for (const ch of chs) {
		for (let k = 0; k < ch.times.length; k++) {
			set.add(ch.times[k]);
			if (k + 1 < ch.times.length) {
				const a = ch.times[k], b = ch.times[k + 1];
				set.add(a + (b - a) * 0.5).add(a + (b - a) * 0.25).add(Math.fround(b - (b - a) * 1e-6));
			}
		}
		lo = Math.min(lo, ch.times[0]);
		hi = Math.max(hi, ch.times[ch.times.length - 1]);
	}
	let s = seed;
	const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296);
	for (let i = 0; i < 200; i++) set.add(lo - 0.5 + (hi - lo + 1) * rnd());
	for (const t of [lo - 10, lo - 1e-3, hi + 1e-3, hi + 10, -Infinity, Infinity]) set.add(t);
	return [...set].map(Math.fround).sort((a, b) => a - b);
}
