// sinew — see include/sinew.h for version and licence
// Per-pose sampling time of the wasm runtime in node: every blob of web/test/data, SIMD and
// baseline builds, sequential playback at 60 fps-like steps and random times. Median over
// batches of 100 sample() calls (each one JS-to-wasm call writing the whole pose).
// Usage: node web/bench.mjs
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import Sinew from './sinew.mjs';

const dir = fileURLToPath(new URL('./test/data/', import.meta.url));
const BATCH = 100, BATCHES = 400;

function median(xs) {
	const s = [...xs].sort((a, b) => a - b);
	return s[s.length >> 1];
}

function measure(anim, clip, order) {
	const info = anim.clip(clip);
	const n = BATCH * BATCHES;
	const times = new Float64Array(n);
	let state = 1;
	for (let i = 0; i < n; i++) {
		if (order === 'forward') times[i] = ((i / 60) % (info.duration || 1));
		else times[i] = ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296) * info.duration;
	}
	let sink = 0;
	for (let i = 0; i < 2000; i++) sink += anim.sample(clip, times[i % n])[0]; // warm up
	const per = [];
	for (let b = 0; b < BATCHES; b++) {
		const t0 = performance.now();
		for (let i = b * BATCH; i < (b + 1) * BATCH; i++) sink += anim.sample(clip, times[i])[0];
		per.push(((performance.now() - t0) * 1e6) / BATCH);
	}
	if (Number.isNaN(sink)) console.log('');
	return median(per);
}

console.log(`node ${process.version}, SIMD supported: ${Sinew.simdSupported()}`);
console.log('blob | clip | joints | build | forward ns/pose | random ns/pose');
for (const file of readdirSync(dir).filter((f) => f.endsWith('.sinew')).sort()) {
	const bytes = readFileSync(dir + file);
	const anims = { simd: await Sinew.load(bytes, { simd: true }), baseline: await Sinew.load(bytes, { simd: false }) };
	// the longest clip of each blob
	let clip = 0;
	for (let c = 1; c < anims.simd.clipCount; c++) if (anims.simd.clip(c).sampleCount > anims.simd.clip(clip).sampleCount) clip = c;
	for (const [name, anim] of Object.entries(anims)) {
		const f = measure(anim, clip, 'forward'), r = measure(anim, clip, 'random');
		console.log(`${file} | ${anim.clip(clip).name ?? clip} | ${anim.clip(clip).jointCount} | ${name} | ${f.toFixed(0)} | ${r.toFixed(0)}`);
	}
}
