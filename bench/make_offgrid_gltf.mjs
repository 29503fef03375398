#!/usr/bin/env node
// Writes a glTF whose key times are NOT on one uniform grid, the way real exporters write them, from a
// uniformly keyed LINEAR glTF (for example `sinew convert clip.bvh -o clip.glb`): every TRS channel is
// re-keyed at the new times by evaluating the source (lerp, shortest-arc slerp: glTF's own LINEAR rules).
//
//   node bench/make_offgrid_gltf.mjs IN.glb OUT.glb [--rate 37.5] [--seconds 35] [--times MODE] [--rates A,B]
//
// MODE: float32  key k at t_k = f32(t_{k-1} + f32(1 / rate)), accumulated in float32 (float jitter; default)
//       ms       k / rate rounded to whole milliseconds (exporters that write ms)
//       sparse   k / rate with runs of keys left out (a sparse grid: Blender's "optimize" leaves gaps)
//       offset   k / rate + 0.37 / rate (an offset grid: the first key is not at 0)
// --rates A,B  rotations keyed at A Hz and translations/scales at B Hz (channels at different rates).
// Deterministic: the same input and options give the same bytes.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
const [inPath, outPath] = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
if (!inPath || !outPath) { console.error('usage: make_offgrid_gltf.mjs IN.glb OUT.glb [--rate R] [--seconds S] [--times float32|ms|sparse|offset] [--rates A,B]'); process.exit(2); }
const rate = Number(opt('--rate', '37.5')), seconds = Number(opt('--seconds', '35')), mode = opt('--times', 'float32');
const rates = opt('--rates', null)?.split(',').map(Number);

// ---- read ----
const file = readFileSync(inPath);
let json, bin = null;
if (file.readUInt32LE(0) === 0x46546c67) {
	const jl = file.readUInt32LE(12);
	json = JSON.parse(file.subarray(20, 20 + jl).toString());
	if (20 + jl < file.length) bin = file.subarray(20 + jl + 8, 20 + jl + 8 + file.readUInt32LE(20 + jl));
} else json = JSON.parse(file.toString());
const buffers = (json.buffers ?? []).map((b) => (b.uri ? (b.uri.startsWith('data:') ? Buffer.from(b.uri.split(',')[1], 'base64') : readFileSync(join(dirname(inPath), b.uri))) : bin));
function floats(index) {
	const a = json.accessors[index], v = json.bufferViews[a.bufferView], b = buffers[v.buffer];
	const n = { SCALAR: 1, VEC3: 3, VEC4: 4 }[a.type], stride = v.byteStride ?? 4 * n, out = new Float32Array(a.count * n);
	for (let i = 0; i < a.count; i++) for (let c = 0; c < n; c++) out[i * n + c] = b.readFloatLE((v.byteOffset ?? 0) + (a.byteOffset ?? 0) + i * stride + 4 * c);
	return out;
}

// ---- the source's LINEAR evaluation ----
function evaluate(times, values, n, path, t) {
	let i = 0;
	while (i + 1 < times.length && times[i + 1] <= t) i++;
	if (t <= times[0] || i + 1 >= times.length) return Array.from(values.subarray(i * n, i * n + n));
	const s = (t - times[i]) / (times[i + 1] - times[i]), a = values.subarray(i * n, i * n + n), b = values.subarray(i * n + n, i * n + 2 * n);
	if (path !== 'rotation') return Array.from(a, (x, c) => x + (b[c] - x) * s);
	let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], sign = 1;
	if (dot < 0) dot = -dot, sign = -1;
	let wa = 1 - s, wb = s;
	if (dot < 0.9999) { const th = Math.acos(dot), st = Math.sin(th); wa = Math.sin((1 - s) * th) / st; wb = Math.sin(s * th) / st; }
	const q = Array.from(a, (x, c) => wa * x + sign * wb * b[c]), l = Math.hypot(...q);
	return q.map((x) => x / l);
}

// ---- the new key times ----
function keyTimes(r) {
	const out = [];
	const count = Math.floor(seconds * r) + 1;
	if (mode === 'float32') {
		const step = Math.fround(1 / r);
		let t = 0;
		for (let k = 0; k < count; k++) { out.push(t); t = Math.fround(t + step); }
	} else if (mode === 'ms') {
		for (let k = 0; k < count; k++) out.push(Math.fround(Math.round((k / r) * 1000) / 1000));
	} else if (mode === 'sparse') {
		// leave out keys 3..5 of every 17 (a deterministic pattern of gaps)
		for (let k = 0; k < count; k++) if (k % 17 < 3 || k % 17 > 5 || k === count - 1) out.push(Math.fround(k / r));
	} else if (mode === 'offset') {
		for (let k = 0; k < count; k++) out.push(Math.fround((k + 0.37) / r));
	} else throw new Error(`--times ${mode}?`);
	return out.filter((t, i) => i === 0 || t > out[i - 1]);
}

// ---- write ----
const chunks = [], views = [], accessors = [];
let length = 0;
function add(arr, type, extra = {}) {
	const bytes = Buffer.from(new Float32Array(arr).buffer);
	views.push({ buffer: 0, byteOffset: length, byteLength: bytes.length });
	chunks.push(bytes);
	length += bytes.length;
	const n = { SCALAR: 1, VEC3: 3, VEC4: 4 }[type];
	accessors.push({ bufferView: views.length - 1, componentType: 5126, count: arr.length / n, type, ...extra });
	return accessors.length - 1;
}
const inputs = new Map();
function input(r) {
	if (!inputs.has(r)) { const t = keyTimes(r); inputs.set(r, { times: t, accessor: add(t, 'SCALAR', { min: [t[0]], max: [t[t.length - 1]] }) }); }
	return inputs.get(r);
}
const src = json.animations[0];
const channels = [], samplers = [];
for (const ch of src.channels) {
	const sm = src.samplers[ch.sampler], path = ch.target.path;
	if (path === 'weights') continue;
	const n = path === 'rotation' ? 4 : 3, times = floats(sm.input), values = floats(sm.output);
	const r = rates ? (path === 'rotation' ? rates[0] : rates[1]) : rate;
	const inp = input(r), out = [];
	for (const t of inp.times) out.push(...evaluate(times, values, n, path, t));
	samplers.push({ input: inp.accessor, output: add(out, n === 4 ? 'VEC4' : 'VEC3'), interpolation: 'LINEAR' });
	channels.push({ sampler: samplers.length - 1, target: ch.target });
}
const doc = { asset: { version: '2.0', generator: 'sinew bench/make_offgrid_gltf.mjs' }, scene: json.scene ?? 0, scenes: json.scenes, nodes: json.nodes,
	animations: [{ name: `${src.name ?? 'clip'} ${mode}${rates ? ` ${rates.join('/')} Hz` : ` ${rate} Hz`}`, channels, samplers }], accessors, bufferViews: views, buffers: [{ byteLength: length }] };
const body = Buffer.concat(chunks);
let text = Buffer.from(JSON.stringify(doc));
text = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4, 0x20)]);
const pad = Buffer.alloc((4 - (body.length % 4)) % 4);
const glb = Buffer.alloc(12);
glb.writeUInt32LE(0x46546c67, 0); glb.writeUInt32LE(2, 4); glb.writeUInt32LE(12 + 8 + text.length + 8 + body.length + pad.length, 8);
const jh = Buffer.alloc(8); jh.writeUInt32LE(text.length, 0); jh.writeUInt32LE(0x4e4f534a, 4);
const bh = Buffer.alloc(8); bh.writeUInt32LE(body.length + pad.length, 0); bh.writeUInt32LE(0x004e4942, 4);
writeFileSync(outPath, Buffer.concat([glb, jh, text, bh, body, pad]));
console.log(`${outPath}: ${channels.length} channels, ${[...inputs.values()].map((i) => `${i.times.length} keys`).join(', ')}`);
