#!/usr/bin/env node
// sinew — see include/sinew.h for version and licence
// Decode speed of two builds in one interleaved run: bench_decompress of build A, then of build B, then A
// again..., N rounds on the same files (each compressed by its own build at the defaults, or .sinew blobs as
// they are), so a machine whose speed drifts moves both alike. Prints, per file, codec and figure (warm and
// cold, forward, backward, random; median ns per pose), A's and B's median over the rounds and the median of
// the per-round ratios A/B. Exits 1 when a run fails or a figure is missing in either build (never prints '-').
//   node bench/ab_decode.mjs [--rounds N] [--codecs avx2,avx2+ra] [--passes N] BUILD_A BUILD_B FILE...
// BUILD_x is a build directory holding bench_decompress (e.g. build/ and a build of the commit before).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
let rounds = 5, passes = 11, codecs = null;
while (args[0]?.startsWith('--')) {
	const flag = args.shift(), value = args.shift();
	if (flag === '--rounds') rounds = Number(value);
	else if (flag === '--passes') passes = Number(value);
	else if (flag === '--codecs') codecs = value.split(',');
	else { console.error(`ab_decode: unknown option ${flag}`); process.exit(2); }
}
if (args.length < 3 || !(rounds >= 1)) {
	console.error('usage: node bench/ab_decode.mjs [--rounds N] [--codecs LIST] [--passes N] BUILD_A BUILD_B FILE...');
	process.exit(2);
}
const [buildA, buildB, ...files] = args;
const tools = [buildA, buildB].map((b) => join(b, 'bench_decompress'));
for (const t of tools) if (!existsSync(t)) { console.error(`ab_decode: ${t} not found (build the bench_decompress target)`); process.exit(1); }

const figures = ['warm_forward', 'warm_backward', 'warm_random', 'cold_forward', 'cold_backward', 'cold_random'];
// results[side][file/clip/codec/figure] = [median ns per round]
const results = [new Map(), new Map()];
for (let r = 0; r < rounds; ++r) {
	for (let side = 0; side < 2; ++side) {
		const run = spawnSync(tools[side], ['--json', '--passes', String(passes), ...files], { encoding: 'utf8', maxBuffer: 1 << 26 });
		if (run.status !== 0) {
			console.error(`ab_decode: ${tools[side]} exited ${run.status}: ${(run.stderr || '').trim().split('\n').pop()}`);
			process.exit(1);
		}
		const report = JSON.parse(run.stdout);
		for (const clip of report.clips) {
			for (const c of clip.codecs) {
				if (codecs && !codecs.includes(c.codec)) continue;
				if (c.codec.startsWith('floor')) continue; // the protocol's floors (decode_protocol.h): no build's code
				for (const f of figures) {
					const key = `${clip.file} clip ${clip.clip}|${c.codec}|${f}`;
					const value = c[f]?.median_ns;
					if (!(value > 0)) { console.error(`ab_decode: ${tools[side]}: no ${f} for ${key}`); process.exit(1); }
					if (!results[side].has(key)) results[side].set(key, []);
					results[side].get(key).push(value);
				}
			}
		}
	}
}
const median = (v) => { const s = [...v].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
console.log(`A = ${buildA}, B = ${buildB}; ${rounds} rounds A B A B ..., ${passes} warm passes; median ns per pose over the rounds, and the median of the per-round ratios A/B`);
let last = '';
for (const [key, a] of results[0]) {
	const b = results[1].get(key);
	if (!b || b.length !== a.length) { console.error(`ab_decode: ${key} is missing from ${buildB}`); process.exit(1); }
	const [clip, codec, figure] = key.split('|');
	if (clip !== last) console.log(`${clip}`), last = clip;
	const ratio = median(a.map((x, i) => x / b[i]));
	console.log(`  ${codec.padEnd(10)} ${figure.padEnd(14)} A ${median(a).toFixed(0).padStart(6)}  B ${median(b).toFixed(0).padStart(6)}  A/B ${ratio.toFixed(3)}`);
}
