#!/usr/bin/env node
// sinew — see include/sinew.h for version and licence
// Many-character scene benchmark (issue 12): N characters of one corpus rig (raylib robot.glb,
// 44 nodes, or the bundled Godot platformer player without the corpus), each crossfading between
// two clips at its own times; per-frame time in headless Chromium for the sinew world (ONE wasm
// call for the scene, writes into the three.js nodes included), three.js AnimationMixer doing the
// same blends, and one sinew world per character; memory of each.
//
//   node bench/web/scene.mjs [--quick] [--cli build/sinew] [--characters 100] [--frames 900] [--rounds 5] [--json]
//                            [--baseline DIR]
//
// --baseline DIR: a checkout of another version of the repository (e.g. `git worktree add /tmp/base main`);
// its web runtime (DIR/web) is timed in the same run, in the page of the sinew setups, on clones of its own:
// the node-writing setup and the frame without node writes (base_sinew, base_sinew_wasm), alternating with
// this version's within each round (more rounds: finer interleaving).
//
// Needs three + playwright-core (bench/web/node_modules after `npm ci --prefix bench/web`, or
// web/browser-test/node_modules) and Chromium (/usr/bin/chromium or --chromium PATH). --json: the
// last line of output is one JSON object (characters, wasm_calls_per_frame, median_ms, ...).
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
const args = process.argv.slice(2);
const flag = (n) => args.includes(`--${n}`);
const opt = (n, d) => { const i = args.indexOf(`--${n}`); return i >= 0 && i + 1 < args.length ? args[i + 1] : d; };
const QUICK = flag('quick');
const JSON_OUT = flag('json');
// the corpus: $SINEW_CORPUS, else ../shared/corpus beside the repository (the bundled rig without it)
const CORPUS = path.resolve(process.env.SINEW_CORPUS ?? path.join(REPO, '../shared/corpus'));
const N = Number(opt('characters', 100));
const FRAMES = Number(opt('frames', QUICK ? 240 : 900));
const THREE_FRAMES = Number(opt('three-frames', QUICK ? 120 : 450));
const WARMUP = QUICK ? 30 : 120;
const ROUNDS = Number(opt('rounds', QUICK ? 2 : 5));
const CHROMIUM = opt('chromium', process.env.CHROMIUM ?? '/usr/bin/chromium');
const BASELINE = opt('baseline') ? path.resolve(opt('baseline')) : null;
if (BASELINE && !existsSync(path.join(BASELINE, 'web/adapters/three_world.mjs'))) { console.error(`scene.mjs: --baseline ${BASELINE} has no web/adapters/three_world.mjs`); process.exit(2); }
const log = (...m) => { if (!JSON_OUT) console.log(...m); else console.error(...m); };

const cliCandidates = [opt('cli'), process.env.SINEW_CLI, 'build/sinew', 'build-ci-gcc/sinew'].filter(Boolean);
const cli = cliCandidates.map((c) => path.resolve(REPO, c)).find((c) => existsSync(c));
if (!cli) { console.error('scene.mjs: sinew CLI not found (make, or --cli PATH)'); process.exit(2); }
const modules = [path.join(HERE, 'node_modules'), path.join(REPO, 'web/browser-test/node_modules')].find((d) => existsSync(path.join(d, 'three')) && existsSync(path.join(d, 'playwright-core')));
if (!modules) { console.error('scene.mjs: needs three and playwright-core: npm ci --prefix bench/web'); process.exit(2); }

// the rig: raylib robot (44 nodes, 14 clips) from the corpus, else the bundled Godot player (28 joints)
const robot = path.join(CORPUS, 'gltf/raylib/robot.glb');
if (!existsSync(robot)) log(`corpus ${CORPUS} absent (or without raylib robot.glb): the bundled Godot player is the rig`);
const asset = existsSync(robot) ? { file: robot, url: '/corpus/gltf/raylib/robot.glb', name: 'raylib robot.glb', clips: [10, 6] }
	: { file: path.join(REPO, 'data/godot_platformer_player.glb'), url: '/repo/data/godot_platformer_player.glb', name: 'godot_platformer_player.glb', clips: [1, 4] };
const tmp = mkdtempSync(path.join(os.tmpdir(), 'sinew-scene-'));
const blob = path.join(tmp, 'rig.sinew');
execFileSync(cli, ['compress', asset.file, '-o', blob, '-q']);
log(`rig ${asset.name}: ${statSync(asset.file).size} bytes glTF, ${statSync(blob).size} bytes sinew (0.01 cm)`);

const MIME = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.glb': 'model/gltf-binary' };
const roots = { repo: REPO, corpus: CORPUS, modules, scratch: tmp, ...(BASELINE ? { base: BASELINE } : {}) }; // scratch: this run's mkdtemp folder
const server = createServer((req, res) => {
	const url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
	const [, root, ...rest] = url.split('/');
	const base = roots[root];
	const file = base ? path.resolve(base, rest.join('/')) : null;
	if (!file || !file.startsWith(path.resolve(base)) || !existsSync(file) || !statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
	// cross-origin isolated: performance.now() at 5 us resolution
	res.writeHead(200, { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream', 'cross-origin-opener-policy': 'same-origin',
		'cross-origin-embedder-policy': 'require-corp', 'cross-origin-resource-policy': 'same-origin', 'cache-control': 'no-store' });
	createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const { chromium } = await import(path.join(modules, 'playwright-core/index.mjs'));
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true,
	args: ['--no-sandbox', '--disable-gpu', '--enable-precise-memory-info', '--js-flags=--expose-gc', '--no-first-run', '--disable-background-networking'] });
let result;
try {
	// one page (JS context) per group of setups, rounds interleaved across the pages (a busy machine
	// then slows every setup alike)
	const GROUPS = ['sinew', 'eager', 'no_euler', 'matrices', 'three', 'per_character'];
	const errors = [];
	const pages = [];
	result = { clips: null };
	for (const group of GROUPS) {
		const page = await browser.newPage();
		page.setDefaultTimeout(600000);
		page.on('pageerror', (e) => errors.push(String(e)));
		await page.goto(`http://127.0.0.1:${server.address().port}/repo/bench/web/scene_page.html`);
		await page.waitForFunction(() => window.sceneReady === true);
		const r = await page.evaluate((s) => window.setupScene(s), { asset: asset.url, blob: '/scratch/rig.sinew', characters: N, clips: asset.clips,
			frames: FRAMES, threeFrames: THREE_FRAMES, warmup: WARMUP, rounds: ROUNDS, simd: true, group, baseline: BASELINE ? '/base/web' : null });
		for (const [k, v] of Object.entries(r)) if (result[k] === undefined || result[k] === null || (k === 'skeletons' && v > result[k])) result[k] = v;
		pages.push(page);
	}
	const times = {}, calls = {};
	for (let round = 0; round < ROUNDS; round++) {
		for (const page of pages) {
			const r = await page.evaluate((k) => window.runRound(k), round);
			for (const [k, v] of Object.entries(r)) {
				if (k === 'layers_sampled') { result.layers_sampled = v; continue; }
				(times[k] ??= []).push(...v.times);
				calls[k] = v.calls;
			}
		}
	}
	const stats = (t) => {
		const s = [...t].sort((a, b) => a - b), q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
		return { median: q(0.5), p99: q(0.99), mean: s.reduce((a, b) => a + b, 0) / s.length };
	};
	for (const [k, t] of Object.entries(times)) result[k] = stats(t);
	result.wasm_calls_per_frame = calls.sinew;
	result.matrices_wasm_calls_per_frame = calls.sinew_matrices;
	result.per_character_calls_per_frame = calls.sinew_per_character;
	result.base_wasm_calls_per_frame = calls.base_sinew;
	const version = await browser.version();
	if (errors.length) throw new Error(errors.join('; '));
	result.chromium = version;
} finally {
	await browser.close();
	server.close();
	rmSync(tmp, { recursive: true, force: true });
}
const ms = (x) => x.toFixed(3);
log(`${N} characters x 2 crossfading clips (${result.clips.join(' / ')}), Chromium ${result.chromium}, ${FRAMES} frames (three ${THREE_FRAMES}) in ${ROUNDS} rounds interleaved over one page per setup group, timer ${result.isolated ? '5 us' : '100 us'}`);
log('| setup | wasm calls / frame | median ms | p99 ms | mean ms |');
log('| --- | --- | --- | --- | --- |');
log(`| sinew world (adapter: 1 call + node writes; Object3D.rotation when read) | ${result.wasm_calls_per_frame} | ${ms(result.sinew.median)} | ${ms(result.sinew.p99)} | ${ms(result.sinew.mean)} |`);
log(`| sinew world + adapter, syncRotation: true (Object3D.rotation at each write) | 1 | ${ms(result.sinew_eager.median)} | ${ms(result.sinew_eager.p99)} | ${ms(result.sinew_eager.mean)} |`);
log(`| sinew world + adapter, syncRotation: false | 1 | ${ms(result.sinew_no_euler.median)} | ${ms(result.sinew_no_euler.p99)} | ${ms(result.sinew_no_euler.mean)} |`);
log(`| sinew world, the frame without node writes (actions + the wasm call) | 1 | ${ms(result.sinew_wasm.median)} | ${ms(result.sinew_wasm.p99)} | ${ms(result.sinew_wasm.mean)} |`);
log(`| three.js AnimationMixer (one per character) | 0 | ${ms(result.three.median)} | ${ms(result.three.p99)} | ${ms(result.three.mean)} |`);
log(`| one sinew world per character | ${result.per_character_calls_per_frame} | ${ms(result.sinew_per_character.median)} | ${ms(result.sinew_per_character.p99)} | ${ms(result.sinew_per_character.mean)} |`);
log(`| sinew world, matrix mode (1 call: blend + joint world + skinning matrices; no per-bone JS) | ${result.matrices_wasm_calls_per_frame} | ${ms(result.sinew_matrices.median)} | ${ms(result.sinew_matrices.p99)} | ${ms(result.sinew_matrices.mean)} |`);
log(`| sinew matrix mode, without the JS after the call (actions + the wasm call) | 1 | ${ms(result.sinew_matrices_wasm.median)} | ${ms(result.sinew_matrices_wasm.p99)} | ${ms(result.sinew_matrices_wasm.mean)} |`);
log('up to skinning matrices ready for render (the step above + scene.updateMatrixWorld() + skeleton.update() of every skeleton, as WebGLRenderer does):');
log(`| three.js AnimationMixer + matrices + ${result.skeletons} skeletons | 0 | ${ms(result.three_to_skinning.median)} | ${ms(result.three_to_skinning.p99)} | ${ms(result.three_to_skinning.mean)} |`);
log(`| sinew world, node writes + matrices + skeletons | 1 | ${ms(result.sinew_nodes_to_skinning.median)} | ${ms(result.sinew_nodes_to_skinning.p99)} | ${ms(result.sinew_nodes_to_skinning.mean)} |`);
log(`| sinew world, matrix mode + matrices + skeletons | 1 | ${ms(result.sinew_matrices_to_skinning.median)} | ${ms(result.sinew_matrices_to_skinning.p99)} | ${ms(result.sinew_matrices_to_skinning.mean)} |`);
log(`| (the renderer's part alone on the matrix-mode scene: updateMatrixWorld + skeleton.update, no animation step) | 0 | ${ms(result.renderer_part_matrix_scene.median)} | ${ms(result.renderer_part_matrix_scene.p99)} | ${ms(result.renderer_part_matrix_scene.mean)} |`);
if (BASELINE) {
	log(`baseline ${BASELINE} (its web runtime, the same blob and scene on its own clones, alternating with the sinew setups in their page):`);
	log(`| baseline: sinew world + adapter (node writes) | ${result.base_wasm_calls_per_frame} | ${ms(result.base_sinew.median)} | ${ms(result.base_sinew.p99)} | ${ms(result.base_sinew.mean)} |`);
	log(`| baseline: the frame without node writes | 1 | ${ms(result.base_sinew_wasm.median)} | ${ms(result.base_sinew_wasm.p99)} | ${ms(result.base_sinew_wasm.mean)} |`);
	log(`baseline speed-up vs three (animation only): ${(result.three.median / result.base_sinew.median).toFixed(1)}x (adapter), ${(result.three.median / result.base_sinew_wasm.median).toFixed(1)}x (without node writes)`);
}
log(`speed-up vs three (animation only): ${(result.three.median / result.sinew.median).toFixed(1)}x (adapter), ${(result.three.median / result.sinew_eager.median).toFixed(1)}x (adapter, syncRotation: true), ${(result.three.median / result.sinew_no_euler.median).toFixed(1)}x (adapter, syncRotation: false), ${(result.three.median / result.sinew_wasm.median).toFixed(1)}x (without node writes)`);
log(`speed-up vs three up to skinning matrices: ${(result.three_to_skinning.median / result.sinew_matrices_to_skinning.median).toFixed(1)}x (matrix mode), ${(result.three_to_skinning.median / result.sinew_nodes_to_skinning.median).toFixed(1)}x (node writes)`);
log(`memory: world ${(result.sinew_memory.wasmBytes / 1048576).toFixed(2)} MiB wasm (${result.sinew_memory.heapBytes} bytes used), JS heap delta ${(result.sinew_memory.jsHeapDelta / 1048576).toFixed(2)} MiB; `
	+ `three JS heap delta ${(result.three_memory.jsHeapDelta / 1048576).toFixed(2)} MiB; per-character worlds ${(result.per_character_memory.wasmBytes / 1048576).toFixed(2)} MiB wasm`);
const summary = {
	characters: N, rig: asset.name, clips: result.clips, wasm_calls_per_frame: result.wasm_calls_per_frame, layers_sampled_per_frame: result.layers_sampled,
	median_ms: { sinew: result.sinew.median, sinew_eager: result.sinew_eager.median, sinew_no_euler: result.sinew_no_euler.median, sinew_wasm_call: result.sinew_wasm.median, three: result.three.median, sinew_per_character: result.sinew_per_character.median,
		sinew_matrices: result.sinew_matrices.median, sinew_matrices_wasm_call: result.sinew_matrices_wasm.median, three_to_skinning: result.three_to_skinning.median, sinew_nodes_to_skinning: result.sinew_nodes_to_skinning.median,
		sinew_matrices_to_skinning: result.sinew_matrices_to_skinning.median, renderer_part_matrix_scene: result.renderer_part_matrix_scene.median },
	p99_ms: { sinew: result.sinew.p99, sinew_eager: result.sinew_eager.p99, sinew_no_euler: result.sinew_no_euler.p99, sinew_wasm_call: result.sinew_wasm.p99, three: result.three.p99, sinew_per_character: result.sinew_per_character.p99,
		sinew_matrices: result.sinew_matrices.p99, three_to_skinning: result.three_to_skinning.p99, sinew_nodes_to_skinning: result.sinew_nodes_to_skinning.p99,
		sinew_matrices_to_skinning: result.sinew_matrices_to_skinning.p99 },
	speedup_vs_three: { animation: result.three.median / result.sinew.median, to_skinning_matrix_mode: result.three_to_skinning.median / result.sinew_matrices_to_skinning.median,
		to_skinning_node_writes: result.three_to_skinning.median / result.sinew_nodes_to_skinning.median },
	skeletons: result.skeletons, matrix_skins: result.matrices_skins,
	memory_bytes: { sinew_wasm: result.sinew_memory.wasmBytes, sinew_used: result.sinew_memory.heapBytes, sinew_js_heap: result.sinew_memory.jsHeapDelta,
		three_js_heap: result.three_memory.jsHeapDelta, per_character_wasm: result.per_character_memory.wasmBytes },
	frames: FRAMES, three_frames: THREE_FRAMES, rounds: ROUNDS, chromium: result.chromium, quick: QUICK,
	...(BASELINE ? { baseline: { dir: BASELINE, median_ms: { sinew: result.base_sinew.median, sinew_wasm_call: result.base_sinew_wasm.median },
		p99_ms: { sinew: result.base_sinew.p99, sinew_wasm_call: result.base_sinew_wasm.p99 }, speedup_vs_three: result.three.median / result.base_sinew.median } } : {}),
};
if (JSON_OUT) console.log(JSON.stringify(summary));
