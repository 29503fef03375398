// sinew — see include/sinew.h for version and licence
//
// Per-frame sampling time of the lossless runtime (wasm MVP, wasm SIMD128) against a plain-JS typed-array
// sampler doing the same work on the same block (same cursors, slerp, constant skipping, changed bitset).
//   node web/lossless/bench.mjs [scene.glb] [--frames 3000]
// Default scene: $SINEW_STRESS_GLB when set (make one with ../shared/tools/make_stress_gltf.mjs --nodes 10000),
// else raylib/robot.glb from the corpus ($SINEW_CORPUS, or ../shared/corpus beside the repository) with its
// animations repeated until >= 30000 channels.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as L from './lossless.mjs';

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(`--${k}`); return i < 0 ? d : args[i + 1]; };
const FRAMES = parseInt(opt('frames', '3000'), 10);
const here = path.dirname(new URL(import.meta.url).pathname);
let file = args.find((a) => !a.startsWith('--') && a !== opt('frames'));
const corpus = path.resolve(process.env.SINEW_CORPUS ?? path.join(here, '../../../shared/corpus'));
file ??= process.env.SINEW_STRESS_GLB ?? path.join(corpus, 'gltf/raylib/robot.glb');
if (!fs.existsSync(file)) { console.error(`lossless bench: ${file} not found (pass a scene, or set SINEW_STRESS_GLB or SINEW_CORPUS)`); process.exit(2); }
const { json, buffers } = L.parseGlb(fs.readFileSync(file));
let count = 0;
for (const a of json.animations ?? []) count += a.channels.length;
if (count < 30000 && count > 0) { // repeat the animations (same data, more channels) up to 30000 channels
	const reps = Math.ceil(30000 / count);
	json.animations = Array.from({ length: reps }, () => json.animations).flat();
}
let t0 = performance.now();
const block = L.build(json, buffers);
const buildMs = performance.now() - t0;
const d = L.describe(block);
const kinds = [0, 0, 0, 0];
d.channels.forEach((c) => kinds[c.kind]++);
let rawBytes = 0; // keyframes as Float32Arrays: every distinct input and output accessor once
const seen = new Set();
for (const a of json.animations) for (const c of a.channels) {
	const s = a.samplers[c.sampler];
	for (const i of [s.input, s.output]) {
		if (!seen.has(i)) rawBytes += json.accessors[i].count * { SCALAR: 1, VEC3: 3, VEC4: 4 }[json.accessors[i].type] * 4;
		seen.add(i);
	}
}
console.log(`scene ${path.basename(file)}: ${d.channels.length} channels (vec3 linear ${kinds[0]}, quat linear ${kinds[1]}, ` +
	`general ${kinds[2]}, constant ${kinds[3]}), ${d.outputCount} output floats, time ${d.start}..${d.end} s`);
console.log(`block ${(block.byteLength / 1048576).toFixed(1)} MiB (keyframes as Float32Arrays: ${(rawBytes / 1048576).toFixed(1)} MiB), ` +
	`build ${buildMs.toFixed(0)} ms`);

function stats(ms) {
	const s = Float64Array.from(ms).sort();
	return { median: s[s.length >> 1], p99: s[Math.min(s.length - 1, Math.floor(s.length * 0.99))], mean: ms.reduce((a, b) => a + b, 0) / ms.length };
}
function run(name, sample) {
	const dur = d.end - d.start, times = [];
	for (let i = 0; i < 300; i++) sample(d.start + ((i / 60) % dur)); // warm-up
	for (let i = 0; i < FRAMES; i++) {
		const t = d.start + ((i / 60) % dur);
		const a = performance.now();
		sample(t);
		times.push(performance.now() - a);
	}
	const s = stats(times);
	console.log(`${name.padEnd(28)} median ${s.median.toFixed(4)} ms   p99 ${s.p99.toFixed(4)} ms   mean ${s.mean.toFixed(4)} ms`);
	return s;
}

// ------------------------------------------------------------------ plain-JS sampler over the same block
function jsSampler(bytes) {
	const b = bytes.slice(), u32 = new Uint32Array(b.buffer), f32 = new Float32Array(b.buffer);
	const [, , , n, n0, n1, n2, n3, nt, , oT, oS, oO, oC] = u32;
	const keys = new Uint32Array(nt), us = new Float32Array(nt), dts = new Float32Array(nt), steps = new Uint32Array(nt);
	const tn = new Uint32Array(nt), to = new Uint32Array(nt);
	for (let k = 0; k < nt; k++) { tn[k] = u32[oT / 4 + 2 * k]; to[k] = u32[oT / 4 + 2 * k + 1] / 4; }
	const sTrack = new Uint32Array(n), sVal = new Uint32Array(n), sOut = new Uint32Array(n), sNc = new Uint32Array(n);
	const sInterp = new Uint32Array(n), sRot = new Uint8Array(n), sStr = new Uint32Array(n);
	for (let i = 0; i < n; i++) {
		const q = oS / 4 + 8 * i;
		sInterp[i] = u32[q + 1] & 255; sNc[i] = u32[q + 2]; sTrack[i] = u32[q + 3]; sVal[i] = u32[q + 4] / 4; sOut[i] = oO / 4 + u32[q + 5];
		sRot[i] = u32[q + 1] >>> 8 === 1 ? 1 : 0; sStr[i] = u32[q + 7] / 4;
	}
	const changed = new Uint32Array(b.buffer, oC, (n + 31) >>> 5);
	let primed = false;
	return function sample(t) {
		for (let k = 0; k < nt; k++) {
			const nk = tn[k], T = to[k];
			if (nk < 2) continue;
			let i = keys[k];
			if (!(t >= f32[T + i] && t < f32[T + i + 1])) {
				if (i + 2 < nk && t >= f32[T + i + 1] && t < f32[T + i + 2]) i++;
				else {
					let lo = 0, hi = nk - 1;
					while (hi - lo > 1) { const m = (lo + hi) >>> 1; if (f32[T + m] <= t) lo = m; else hi = m; }
					i = Math.min(lo, nk - 2);
				}
			}
			const a = f32[T + i], c = f32[T + i + 1], dt = c - a;
			keys[k] = i; dts[k] = dt;
			if (t >= c) { us[k] = 1; steps[k] = i + 1; } else { us[k] = t > a && dt > 0 ? Math.min((t - a) / dt, 1) : 0; steps[k] = i; }
		}
		changed.fill(primed ? 0 : 0xffffffff);
		let i = 0;
		for (; i < n0; i++) {
			const tr = sTrack[i], u = us[tr], w = 1 - u, st = sStr[i], v = sVal[i] + keys[tr] * st, o = sOut[i];
			const x = f32[v] * w + f32[v + st] * u, y = f32[v + 1] * w + f32[v + st + 1] * u, z = f32[v + 2] * w + f32[v + st + 2] * u;
			if (x !== f32[o] || y !== f32[o + 1] || z !== f32[o + 2]) changed[i >>> 5] |= 1 << (i & 31);
			f32[o] = x; f32[o + 1] = y; f32[o + 2] = z;
		}
		for (const end = n0 + n1; i < end; i++) {
			const tr = sTrack[i], u = us[tr], st = sStr[i], v = sVal[i] + keys[tr] * st, o = sOut[i];
			let bx = f32[v + st], by = f32[v + st + 1], bz = f32[v + st + 2], bw = f32[v + st + 3];
			let dd = f32[v] * bx + f32[v + 1] * by + f32[v + 2] * bz + f32[v + 3] * bw;
			if (dd < 0) { bx = -bx; by = -by; bz = -bz; bw = -bw; dd = -dd; }
			let wa = 1 - u, wb = u;
			if (dd < 0.9999999) { const th = Math.acos(dd), s = 1 / Math.sin(th); wa = Math.sin(wa * th) * s; wb = Math.sin(u * th) * s; }
			const x = f32[v] * wa + bx * wb, y = f32[v + 1] * wa + by * wb, z = f32[v + 2] * wa + bz * wb, w = f32[v + 3] * wa + bw * wb;
			if (x !== f32[o] || y !== f32[o + 1] || z !== f32[o + 2] || w !== f32[o + 3]) changed[i >>> 5] |= 1 << (i & 31);
			f32[o] = x; f32[o + 1] = y; f32[o + 2] = z; f32[o + 3] = w;
		}
		for (const end = n0 + n1 + n2; i < end; i++) {
			const tr = sTrack[i], nc = sNc[i], o = sOut[i];
			let diff = false;
			if (sInterp[i] === 0) {
				const v = sVal[i] + steps[tr] * sStr[i];
				for (let c = 0; c < nc; c++) { const x = f32[v + c]; if (x !== f32[o + c]) diff = true; f32[o + c] = x; }
			} else if (sInterp[i] === 1) {
				const v = sVal[i] + keys[tr] * sStr[i], u = us[tr], st = sStr[i];
				for (let c = 0; c < nc; c++) { const x = f32[v + c] * (1 - u) + f32[v + st + c] * u; if (x !== f32[o + c]) diff = true; f32[o + c] = x; }
			} else {
				const k0 = sVal[i] + keys[tr] * sStr[i], k1 = k0 + sStr[i], u = us[tr], u2 = u * u, u3 = u2 * u, dt = dts[tr];
				const h00 = 2 * u3 - 3 * u2 + 1, h10 = (u3 - 2 * u2 + u) * dt, h01 = -2 * u3 + 3 * u2, h11 = (u3 - u2) * dt;
				let len = 0;
				for (let c = 0; c < nc; c++) {
					const x = h00 * f32[k0 + nc + c] + h10 * f32[k0 + 2 * nc + c] + h01 * f32[k1 + nc + c] + h11 * f32[k1 + c];
					len += x * x;
					if (x !== f32[o + c]) diff = true;
					f32[o + c] = x;
				}
				if (sRot[i]) { const s = 1 / Math.sqrt(len); for (let c = 0; c < 4; c++) f32[o + c] *= s; }
			}
			if (diff) changed[i >>> 5] |= 1 << (i & 31);
		}
		if (!primed) {
			for (const end = n; i < end; i++) for (let c = 0; c < sNc[i]; c++) f32[sOut[i] + c] = f32[sVal[i] + c];
			primed = true;
		}
		return f32.subarray(oO / 4, oO / 4 + d.outputCount);
	};
}

const res = {};
for (const simd of [false, true]) {
	const rt = await L.createRuntime({ simd });
	const anim = rt.load(block);
	res[simd ? 'simd' : 'mvp'] = run(`wasm ${simd ? 'SIMD128' : 'MVP'} (${fs.statSync(path.join(here, simd ? 'lossless_simd.wasm' : 'lossless.wasm')).size} B)`, (t) => anim.sample(t));
}
const js = jsSampler(block);
res.js = run('plain JS typed arrays', js);
// Cross-check: the JS sampler and the wasm agree (so the timings compare the same work).
{
	const anim = (await L.createRuntime()).load(block), jsb = jsSampler(block);
	let worst = 0;
	for (let i = 0; i < 50; i++) {
		const t = d.start + i * 0.173, a = anim.sample(t).outputs, b = jsb(Math.fround(t));
		for (let k = 0; k < a.length; k++) worst = Math.max(worst, Math.abs(a[k] - b[k]) / Math.max(1, Math.abs(b[k])));
	}
	console.log(`wasm vs JS sampler: worst relative difference ${worst.toExponential(2)} over 50 frames`);
}
console.log(`speed-up (median): SIMD vs JS ${(res.js.median / res.simd.median).toFixed(2)}x, MVP vs JS ${(res.js.median / res.mvp.median).toFixed(2)}x, ` +
	`SIMD vs MVP ${(res.mvp.median / res.simd.median).toFixed(2)}x`);
