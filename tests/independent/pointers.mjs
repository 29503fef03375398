// Independent judge of sinew's error guarantee — KHR_animation_pointer curves that three.js does not
// play (material factors, KHR_texture_transform, camera and light properties, /meshes/N/weights, any
// pointer that is not a node's translation/rotation/scale/weights), read and sampled straight from the
// glTF document: accessors (byteStride, normalized integers, sparse) and the three interpolations of
// glTF 2.0 Appendix C (STEP, LINEAR, CUBICSPLINE), componentwise (quaternion-valued pointers exist only
// on nodes, which three plays). Nothing here comes from sinew or three.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { readGltf } from './gltf_node.mjs';

// Node properties three plays (gltf_node.mjs turns these pointers into plain channels).
export const NODE_POINTER = /^\/nodes\/(\d+)\/(translation|rotation|scale|weights)$/;

const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const TYPES = { // componentType: [bytes, DataView getter, normalized divisor (glTF 2.0 §3.11)]
	5120: [1, 'getInt8', (v) => Math.max(v / 127, -1)],
	5121: [1, 'getUint8', (v) => v / 255],
	5122: [2, 'getInt16', (v) => Math.max(v / 32767, -1)],
	5123: [2, 'getUint16', (v) => v / 65535],
	5125: [4, 'getUint32', null],
	5126: [4, 'getFloat32', null],
};

// A glTF document and its buffers: { json, buffers: (Uint8Array | null)[] } (GLB BIN chunk for a buffer
// without uri, data: URIs, files beside the document). An EXT_meshopt_compression fallback buffer
// without uri (gltfpack -cc writes one) holds no bytes: null, and a bufferView in it is refused when read
// (this reader does not decode meshopt data; three's loader does, for the nodes and weights it plays).
export function loadDocument(path) {
	const { json, bin } = readGltf(path);
	const base = dirname(resolve(path));
	const buffers = (json.buffers ?? []).map((b, i) => {
		if (b.uri === undefined) {
			if (i === 0 && bin) return new Uint8Array(bin.buffer, bin.byteOffset, bin.length);
			if (b.extensions?.EXT_meshopt_compression?.fallback === true) return null;
			throw new Error(`buffer ${i}: no uri and no GLB BIN chunk`);
		}
		if (b.uri.startsWith('data:')) {
			const comma = b.uri.indexOf(',');
			const head = b.uri.slice(0, comma);
			const data = b.uri.slice(comma + 1);
			return new Uint8Array(head.endsWith(';base64') ? Buffer.from(data, 'base64') : Buffer.from(decodeURIComponent(data), 'latin1'));
		}
		return new Uint8Array(readFileSync(resolve(base, decodeURIComponent(b.uri))));
	});
	return { json, buffers };
}

function viewOf(doc, viewIndex) {
	const v = doc.json.bufferViews?.[viewIndex];
	if (!v) throw new Error(`bufferView ${viewIndex} missing`);
	const buf = doc.buffers[v.buffer];
	if (buf === null) throw new Error(`bufferView ${viewIndex}: EXT_meshopt_compression data in a fallback buffer, not decoded here`);
	if (!buf) throw new Error(`bufferView ${viewIndex}: buffer ${v.buffer} missing`);
	const off = v.byteOffset ?? 0;
	if (off + v.byteLength > buf.length) throw new Error(`bufferView ${viewIndex} outside its buffer`);
	return { dv: new DataView(buf.buffer, buf.byteOffset + off, v.byteLength), stride: v.byteStride };
}

// Accessor `index` as { values: Float64Array (count * components), count, components, integer }
// (integer: a non-normalized integer accessor, i.e. not a float property).
export function readAccessor(doc, index) {
	const a = doc.json.accessors?.[index];
	if (!a) throw new Error(`accessor ${index} missing`);
	const n = COMPONENTS[a.type], type = TYPES[a.componentType];
	if (!n || !type) throw new Error(`accessor ${index}: type ${a.type}/${a.componentType}`);
	const [size, get, norm] = type;
	const convert = a.normalized && norm ? norm : (v) => v;
	const values = new Float64Array(a.count * n);
	if (a.bufferView !== undefined) {
		const { dv, stride } = viewOf(doc, a.bufferView);
		const step = stride || size * n, off = a.byteOffset ?? 0;
		if (a.count > 0 && off + (a.count - 1) * step + size * n > dv.byteLength) throw new Error(`accessor ${index} outside its bufferView`);
		for (let i = 0; i < a.count; i++)
			for (let c = 0; c < n; c++) values[i * n + c] = convert(dv[get](off + i * step + c * size, true));
	}
	if (a.sparse) {
		const s = a.sparse, it = TYPES[s.indices.componentType];
		const iv = viewOf(doc, s.indices.bufferView).dv, vv = viewOf(doc, s.values.bufferView).dv;
		for (let k = 0; k < s.count; k++) {
			const at = iv[it[1]]((s.indices.byteOffset ?? 0) + k * it[0], true);
			for (let c = 0; c < n; c++) values[at * n + c] = convert(vv[get]((s.values.byteOffset ?? 0) + (k * n + c) * size, true));
		}
	}
	return { values, count: a.count, components: n, integer: a.componentType !== 5126 && !a.normalized };
}

// The value a JSON pointer designates in the document (undefined when absent).
export function resolvePointer(json, pointer) {
	let at = json;
	for (const raw of pointer.split('/').slice(1)) {
		const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
		if (at === null || typeof at !== 'object' || !(key in at)) return undefined;
		at = at[key];
	}
	return at;
}

// The non-node pointer curves of animation `a`: { curves: Map(pointer -> curve), skipped: [{ pointer,
// why }], warnings }. curve: { pointer, times: Float64Array, values: Float64Array (keys x components;
// CUBICSPLINE: in-tangent, value, out-tangent per key), components, interpolation, channel }. A
// pointer animated twice: the later channel (as an engine applying channels in order would).
export function pointerCurves(doc, a) {
	const anim = doc.json.animations?.[a];
	const curves = new Map(), skipped = [], warnings = [];
	if (!anim) return { curves, skipped, warnings };
	(anim.channels ?? []).forEach((ch, ci) => {
		const pointer = ch.target?.extensions?.KHR_animation_pointer?.pointer;
		if (ch.target?.path !== 'pointer' || typeof pointer !== 'string' || NODE_POINTER.test(pointer)) return;
		const sampler = anim.samplers?.[ch.sampler];
		if (!sampler) { skipped.push({ pointer, why: `channel ${ci}: no sampler ${ch.sampler}` }); return; }
		const interpolation = sampler.interpolation ?? 'LINEAR';
		const input = readAccessor(doc, sampler.input), output = readAccessor(doc, sampler.output);
		const parent = pointer.slice(0, pointer.lastIndexOf('/'));
		if (output.integer) { skipped.push({ pointer, why: 'integer or boolean values' }); return; }
		if (parent && resolvePointer(doc.json, parent) === undefined) { skipped.push({ pointer, why: `${parent} is not in the document` }); return; }
		const keys = input.count, per = interpolation === 'CUBICSPLINE' ? 3 : 1;
		if (keys === 0 || output.values.length % (keys * per) !== 0) throw new Error(`animation ${a} channel ${ci} (${pointer}): ${output.values.length} output floats for ${keys} keys`);
		if (curves.has(pointer)) warnings.push(`animation ${a}: ${pointer} is animated by more than one channel; the later one is judged`);
		curves.set(pointer, { pointer, times: input.values, values: output.values, components: output.values.length / (keys * per), interpolation, channel: ci });
	});
	return { curves, skipped, warnings };
}

// Curve value at t into out (glTF 2.0 Appendix C): before the first key the first value, after the
// last the last; STEP holds key i on [t_i, t_i+1); LINEAR lerps; CUBICSPLINE is the Hermite spline
// with tangents scaled by the key interval. Computed in double.
export function sampleCurve(c, t, out) {
	const { times, values, components: n } = c, last = times.length - 1;
	const cubic = c.interpolation === 'CUBICSPLINE';
	const value = (k, i) => (cubic ? values[(3 * k + 1) * n + i] : values[k * n + i]);
	if (!(t > times[0]) || last === 0) { for (let i = 0; i < n; i++) out[i] = value(0, i); return out; }
	if (t >= times[last]) { for (let i = 0; i < n; i++) out[i] = value(last, i); return out; }
	let lo = 0, hi = last; // times[lo] <= t < times[hi]
	while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (times[mid] <= t) lo = mid; else hi = mid; }
	const td = times[hi] - times[lo], s = (t - times[lo]) / td;
	if (c.interpolation === 'STEP' || !(td > 0)) { for (let i = 0; i < n; i++) out[i] = value(lo, i); return out; }
	if (!cubic) { for (let i = 0; i < n; i++) out[i] = value(lo, i) + s * (value(hi, i) - value(lo, i)); return out; }
	const s2 = s * s, s3 = s2 * s;
	const h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
	for (let i = 0; i < n; i++) {
		const b = values[(3 * lo + 2) * n + i], a = values[(3 * hi) * n + i]; // out-tangent of lo, in-tangent of hi
		out[i] = h00 * value(lo, i) + h10 * td * b + h01 * value(hi, i) + h11 * td * a;
	}
	return out;
}

// Largest magnitude of a curve's key values (CUBICSPLINE: the values, not the tangents).
export function keyMagnitude(c) {
	const n = c.components, keys = c.times.length, cubic = c.interpolation === 'CUBICSPLINE';
	let m = 0;
	for (let k = 0; k < keys; k++) for (let i = 0; i < n; i++) {
		const v = Math.abs(cubic ? c.values[(3 * k + 1) * n + i] : c.values[k * n + i]);
		if (v > m || Number.isNaN(v)) m = Number.isNaN(v) ? Infinity : v;
	}
	return m;
}
