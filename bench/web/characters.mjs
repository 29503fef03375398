#!/usr/bin/env node
// sinew — see include/sinew.h for version and licence
// Many characters in WebAssembly (issue 37): bench_scene's scene (bench/decode_protocol.h, scene_run)
// in the world runtime in node. N characters, each a player with one layer playing one clip of the
// files given (spread evenly over the clips, every clip in turn when N is larger; a blob loaded per
// character, as the native scene gives each its own copy), each at its own phase, looping; ONE
// world.update(1/fps) per frame samples them all. ns per character-frame (the frame / N), median and
// p90 over the frames after 20 untimed ones, for the SIMD and the baseline module, with the world's
// random-access contexts (its default) and without, the four taking turns over three rounds.
//   node bench/web/characters.mjs [--cli build/sinew] [--characters 100,1000] [--frames 200] [--fps 60] [--baseline DIR] [--json] FILE...
// --baseline DIR: a checkout of another version, its web/world.mjs and modules timed on the same characters in the
// same rounds (the configurations taking turns), so a change reads as a ratio.
// FILE: a .sinew blob, or anything the CLI compresses (then at its defaults, --strip). Exit status 1
// when a figure cannot be measured.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { createWorld } from '../../web/world.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
const args = process.argv.slice(2);
const opt = (n, d) => { const i = args.indexOf(`--${n}`); return i >= 0 && i + 1 < args.length ? args[i + 1] : d; };
const JSON_OUT = args.includes('--json');
const COUNTS = String(opt('characters', '100,1000')).split(',').map(Number);
const FRAMES = Number(opt('frames', 200)), WARM = 20, FPS = Number(opt('fps', 60));
const valued = new Set(['--cli', '--characters', '--frames', '--fps', '--baseline']);
const files = args.filter((a, i) => !a.startsWith('--') && !valued.has(args[i - 1]));
const cli = [opt('cli'), process.env.SINEW_CLI, 'build/sinew'].filter(Boolean).map((c) => path.resolve(REPO, c)).find((c) => existsSync(c));
if (!files.length) { console.error('characters.mjs: no files'); process.exit(2); }
if (!cli && files.some((f) => !f.endsWith('.sinew'))) { console.error('characters.mjs: sinew CLI not found (make, or --cli PATH)'); process.exit(1); }

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sinew-characters-'));
let blobs;
try {
	blobs = files.map((f, i) => {
		if (f.endsWith('.sinew')) return new Uint8Array(readFileSync(f));
		const out = path.join(tmp, `${i}.sinew`);
		execFileSync(cli, ['compress', f, '-o', out, '--strip', '-q']);
		return new Uint8Array(readFileSync(out));
	});
} finally {
	rmSync(tmp, { recursive: true, force: true });
}

const BASELINE = opt('baseline') ? path.resolve(opt('baseline')) : null;
if (BASELINE && !existsSync(path.join(BASELINE, 'web/world.mjs'))) { console.error(`characters.mjs: --baseline ${BASELINE} has no web/world.mjs`); process.exit(2); }
const baseCreate = BASELINE ? (await import(pathToFileURL(path.join(BASELINE, 'web/world.mjs')).href)).createWorld : null;

// every clip of two samples or more: [blob, clip]
const probe = await createWorld();
const clips = [];
blobs.forEach((bytes, b) => probe.load(bytes).clips.forEach((c, k) => { if (c.sampleCount >= 2) clips.push([b, k]); }));
if (!clips.length) { console.error('characters.mjs: no clip of two samples or more'); process.exit(1); }
const clipOf = (i, n) => (n <= clips.length ? Math.floor((i * clips.length) / n) : i % clips.length);

async function scene(n, simd, randomAccess, base) {
	const world = await (base ? baseCreate : createWorld)({ simd });
	for (let i = 0; i < n; i++) {
		const [b, k] = clips[clipOf(i, n)];
		const clip = world.load(blobs[b], { randomAccess }).clip(k);
		const phase = clip.duration * ((i * 0.6180339887) % 1);
		world.addPlayer({ clip, layers: 1 }).layer(0).play(clip, { loop: 'repeat', time: phase });
	}
	const ns = [];
	for (let f = 0; f < WARM + FRAMES; f++) {
		const t0 = process.hrtime.bigint();
		world.update(1 / FPS);
		const t1 = process.hrtime.bigint();
		if (f >= WARM) ns.push(Number(t1 - t0) / n);
	}
	ns.sort((a, b) => a - b);
	return { median: ns[ns.length >> 1], p90: ns[Math.min(ns.length - 1, Math.floor(ns.length * 0.9))], heap: world.heapBytes };
}

const configs = [[true, true], [true, false], [false, true], [false, false]].flatMap((c) => (BASELINE ? [[...c, false], [...c, true]] : [[...c, false]]));
const results = [];
const log = (...m) => { if (!JSON_OUT) console.log(...m); };
log(`${clips.length} clips in ${files.length} files, ${blobs.reduce((s, b) => s + b.length, 0)} blob bytes; ${FRAMES} frames at ${FPS} fps after ${WARM} untimed; node ${process.version}`);
for (const n of COUNTS) {
	const rounds = configs.map(() => []);
	for (let r = 0; r < 3; r++)
		for (let c = 0; c < configs.length; c++) rounds[c].push(await scene(n, ...configs[c]));
	configs.forEach(([simd, ra, base], c) => {
		const name = `${base ? 'BASE ' : ''}${simd ? 'simd128' : 'baseline'}${ra ? ', random access' : ''}`;
		results.push({ characters: n, module: simd ? 'simd' : 'baseline', random_access: ra, ...(BASELINE ? { version: base ? 'baseline' : 'this' } : {}), rounds: rounds[c].map((x) => ({ median_ns: x.median, p90_ns: x.p90 })), heap_bytes: rounds[c][0].heap });
		log(`${String(n).padStart(5)} characters, wasm ${name.padEnd(29)} ns per character-frame, median (p90) of three rounds: ${rounds[c].map((x) => `${x.median.toFixed(0).padStart(6)} (${x.p90.toFixed(0).padStart(6)})`).join(' ')}; world memory ${(rounds[c][0].heap / 1048576).toFixed(1)} MiB`);
	});
}
if (JSON_OUT) console.log(JSON.stringify({ clips: clips.length, frames: FRAMES, fps: FPS, node: process.version, runs: results }));
