// sinew — see include/sinew.h for version and licence
// Headless-Chromium tests of web/adapters (three.js, Babylon.js) on real glTF assets:
//   npm ci --prefix web/browser-test && node web/browser-test/run.mjs [path/to/sinew-cli]
// Compresses each asset with the CLI (metadata kept) and packs it (sinew pack), serves the
// repository over http://127.0.0.1, and per asset, form (blob / packed glb) and engine compares the
// engine's own player with the sinew adapter (see page/harness.mjs). Screenshots go to web/browser-test/artifacts/. Exits 1 on failure.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
// the corpus: $SINEW_CORPUS, else ../shared/corpus beside the repository
const corpus = resolve(process.env.SINEW_CORPUS ?? join(repo, '../shared/corpus'));
const artifacts = join(here, 'artifacts');
// Root-space distance of origins and DESIGN §4 shell points (3 cm) to the engine's poses at the
// neighbouring sinew samples, interpolated as docs/format.md says: the compressor's 0.01 cm
// bound plus 0.001 cm for float32 composition in the engines.
const TOLERANCE_CM = 0.011;
const MORPH_TOLERANCE = 0.002;

function findCli() {
	const candidates = [process.argv[2], process.env.SINEW_CLI, 'build/sinew', 'build-ci-gcc/sinew', 'build-ci-clang/sinew'];
	for (const c of candidates) if (c && existsSync(resolve(repo, c))) return resolve(repo, c);
	throw new Error('sinew CLI not found: build it (make) or pass its path');
}

const assets = [{ name: 'godot_platformer_player', file: join(repo, 'data/godot_platformer_player.glb'), url: '/repo/data/godot_platformer_player.glb' }];
if (existsSync(corpus)) {
	for (const p of ['gltf/khronos/CesiumMan/CesiumMan.gltf', 'gltf/khronos/AnimatedMorphCube/AnimatedMorphCube.gltf', 'gltf/raylib/robot.glb', 'gltf/threejs/RobotExpressive.glb']) {
		if (!existsSync(join(corpus, p))) throw new Error(`corpus ${corpus} lacks ${p}`); // a corpus present but incomplete fails
		assets.push({ name: basename(p).replace(/\.(gltf|glb)$/, ''), file: join(corpus, p), url: `/corpus/${p}` });
	}
} else {
	console.log(`SKIPPED: the corpus assets (CesiumMan, AnimatedMorphCube, raylib robot, RobotExpressive, the pointer scenes): corpus ${corpus} absent; only the bundled asset is tested`);
}

// SINEW_BROWSER_ASSETS=name,name runs a subset.
const only = process.env.SINEW_BROWSER_ASSETS?.split(',');
if (only) assets.splice(0, assets.length, ...assets.filter((a) => only.includes(a.name)));

const WORLD_ENGINES = ['three', 'babylon'];
const WORLD_EXTRAS = 15; // characters besides the compared one, driven by the same world call
const WORLD_EXTRAS_BABYLON = 6; // (each one a loaded asset container)

// The world scenario's checks: one wasm call per frame for the whole scene, the extra characters
// animated, the same loop/finished events as the engine, and the per-phase distance to the engine
// within WORLD_TOLERANCE_CM (see web/README.md: the engines blend rotations by slerp, sinew by a
// normalized weighted sum; the difference is measured and reported).
function checkWorld(label, asset, engine, r, failures) {
	const bad = r.callsPerFrame.filter((n) => n !== 1);
	if (bad.length) failures.push(`${label}: wasm calls per frame ${[...new Set(r.callsPerFrame)]}`);
	if (r.extrasMoved !== r.characters - 1) failures.push(`${label}: ${r.extrasMoved} of ${r.characters - 1} extra characters moved`);
	const ev = (l) => l.join(', ');
	const engineEvents = r.events.three ?? r.events.engine;
	if (ev(engineEvents) !== ev(r.events.sinew)) failures.push(`${label}: events differ: engine [${ev(engineEvents)}] sinew [${ev(r.events.sinew)}]`);
	const parts = [];
	for (const [phase, s] of Object.entries(r.stats)) {
		const tol = WORLD_TOLERANCE_CM[engine]?.[phase] ?? WORLD_TOLERANCE_CM.default[phase];
		if (!(s.shellCm <= tol && s.posCm <= tol)) failures.push(`${label} ${phase}: ${s.posCm.toFixed(4)} / ${s.shellCm.toFixed(4)} cm > ${tol} cm`);
		if (!(s.morph <= 0.002)) failures.push(`${label} ${phase}: morph weight difference ${s.morph}`);
		parts.push(`${phase} ${s.posCm.toFixed(4)}/${s.shellCm.toFixed(4)}`);
	}
	const fmt = (o) => Object.entries(o).map(([ph, x]) => `${ph} ${x.shellCm.toFixed(4)}`).join('; ');
	if (r.modelVsEngine) {
		for (const [phase, x] of Object.entries(r.modelVsEngine)) {
			if (!(x.shellCm <= MODEL_TOLERANCE_CM)) failures.push(`${label} ${phase}: the engine's blend of sinew's samples is ${x.shellCm.toFixed(4)} cm from the engine (> ${MODEL_TOLERANCE_CM})`);
		}
		console.log(`    engine's algorithm on sinew's samples vs engine (shell cm): ${fmt(r.modelVsEngine)}`);
		console.log(`    engine's algorithm on sinew's samples vs sinew world (shell cm, the blend formula): ${fmt(r.modelVsSinew)}`);
	}
	console.log(`${label.padEnd(40)} ${r.characters} characters, ${r.nodes} nodes, clips ${r.clips.join('/')}, 1 wasm call/frame: ${bad.length ? 'NO' : 'yes'}; `
		+ `max origin/shell cm: ${parts.join('; ')}; events ${r.events.sinew.length}`
		+ (r.morphTargets ? `; ${r.morphTargets} morph targets, worst weight difference ${Math.max(...Object.values(r.stats).map((x) => x.morph)).toExponential(2)}` : ''));
}
// The engine's own algorithm applied to sinew's per-clip samples must match the engine as closely as
// single clips do (compression bound, plus slerp vs nlerp between keys on the fast-turning robots).
const MODEL_TOLERANCE_CM = 0.25;
// Per phase of the scenario, the largest accepted distance to the engine (origins and shell points).
const WORLD_TOLERANCE_CM = {
	// one base clip (plus an additive one): the compression bound plus slerp vs nlerp between the
	// robots' keys; two base clips blending: the normalized weighted quaternion sum the world
	// specifies deviates from the engine's slerp by a fraction of the angle between the poses
	// (measured up to 13.4 cm on RobotExpressive's Dance -> Death crossfade; the engine's own
	// algorithm on sinew's samples stays within MODEL_TOLERANCE_CM of the engine, so this is the
	// formula, not the data)
	babylon: { 'single group': 0.1, 'weight crossfade': 15, 'after crossfade': 0.1, 'two groups, once ends': 15, 'after end': 0.1 },
	default: { 'single clip': 0.1, crossfade: 15, 'after crossfade': 0.1, 'additive ping-pong': 0.1, 'once + additive': 15, 'after once': 0.1 },
};

const started = Date.now();
mkdirSync(join(artifacts, 'blobs'), { recursive: true });
const cli = findCli();
let streamSummary = '';
execFileSync(cli, ['compress', join(repo, 'data/cmu_01_01.bvh'), '-o', join(artifacts, 'blobs', 'stream.sinew'), '-q', '--page-bytes', '4096'], { stdio: 'inherit' });
const streamUrl = '/repo/web/browser-test/artifacts/blobs/stream.sinew';
const STREAM_MAX_STALLS = 3; // frames more than 250 ms apart in a streaming run (0 on an idle machine)
for (const a of assets) {
	a.blob = join(artifacts, 'blobs', `${a.name}.sinew`);
	execFileSync(cli, ['compress', a.file, '-o', a.blob, '-q'], { stdio: 'inherit' });
	a.blobUrl = `/repo/web/browser-test/artifacts/blobs/${a.name}.sinew`;
	// the same asset packed (SINEW_compressed_animation): engine and adapter load the packed file
	execFileSync(cli, ['pack', a.file, '-o', join(artifacts, 'blobs', `${a.name}.packed.glb`), '-q'], { stdio: 'inherit' });
	a.packedUrl = `/repo/web/browser-test/artifacts/blobs/${a.name}.packed.glb`;
}

// KHR_animation_pointer assets: compressed, then decompressed with --source (pointer channels back).
// sinew's pointer tracks keep 1e-4 of max(1, |value|), morph weights 1e-4 m (0.01 cm) at the vertices their
// targets move (the harness measures those in metres); Babylon reads them through its own conversions
// (a spot light's angle is twice the cone angle), hence the factor 2.5.
const POINTER_TOLERANCE = 2.5e-4;
const pointerAssets = [];
const pointerSummary = [];
for (const rel of ['gltf/blender_io/24_animation_pointer/24_animation_pointer.gltf']) {
	const file = join(corpus, rel);
	if (!existsSync(corpus)) continue; // said above: SKIPPED
	if (!existsSync(file)) throw new Error(`corpus ${corpus} lacks ${rel}`);
	const name = basename(rel).replace(/\.gltf$/, '');
	// beside copies of the source's images and buffers, which its URIs name
	const dir = join(artifacts, 'pointer', name);
	mkdirSync(dir, { recursive: true });
	for (const f of readdirSync(dirname(file))) if (!f.endsWith('.gltf')) copyFileSync(join(dirname(file), f), join(dir, f));
	const blob = join(artifacts, 'blobs', `${name}.sinew`);
	execFileSync(cli, ['compress', file, '-o', blob, '-q'], { stdio: 'inherit' });
	execFileSync(cli, ['decompress', blob, '-o', join(dir, `${name}.gltf`), '--source', file, '-q'], { stdio: 'inherit' });
	pointerAssets.push({ name, url: `/corpus/${rel}`, outputUrl: `/repo/web/browser-test/artifacts/pointer/${name}/${name}.gltf` });
}

const server = await startServer({ repo, corpus });
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
		'--disable-component-update', '--disable-sync'],
});
// One browser context for every page, so the engines' modules come from its HTTP cache after the first page instead
// of from the server again (the server lets node_modules/ be cached). Each page sets its own viewport (newPage).
const context = await browser.newContext();
// Babylon.js as one module: its ES modules are ~2,000 files, which a page took 8-14 s to load (each Babylon page
// 11-19 s in all). The two modules the harnesses import are answered with one esbuild bundle of @babylonjs/core and
// its glTF loader (the loader registers itself with that core), and an empty module; the page's import map is unchanged.
const babylon = (await build({
	stdin: { contents: "export * from '@babylonjs/core/index.js';\nimport '@babylonjs/loaders/glTF/index.js';\n", resolveDir: here, loader: 'js' },
	bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'warning',
})).outputFiles[0].text;
await context.route('**/node_modules/@babylonjs/core/index.js', (route) => route.fulfill({ contentType: 'text/javascript', body: babylon }));
await context.route('**/node_modules/@babylonjs/loaders/glTF/index.js', (route) => route.fulfill({ contentType: 'text/javascript', body: 'export {};\n' }));
const newPage = async (viewport = { width: 1280, height: 720 }) => {
	const page = await context.newPage();
	await page.setViewportSize(viewport);
	return page;
};
const failures = [];
const summary = [];
const worldSummary = [];
const framesSummary = [];
// warp + finite repetitions vs three (one clip at a time: the compression tolerance of the single-
// clip phases), the same loop / finished events in the same frames, one wasm call per frame;
// matrix mode: joints' matrixWorld and skeletons' boneMatrices within 2e-5 of three's own matrices of
// the same pose, relative to each matrix's largest element (float32 in wasm vs float64 in three), and the rendered skinned meshes
// agreeing (fewer than 1 % of the covered pixels off by more than 24/765 in RGB).
const CONTROLS_TOLERANCE_CM = 0.1, MATRIX_TOLERANCE = 2e-5;
function checkControls(label, r, failures) {
	if (r.callsPerFrame.some((n) => n !== 1)) failures.push(`${label}: wasm calls per frame ${[...new Set(r.callsPerFrame)]}`);
	const ev = (l) => l.join(', ');
	if (ev(r.events.three) !== ev(r.events.sinew)) failures.push(`${label}: events differ: three [${ev(r.events.three)}] sinew [${ev(r.events.sinew)}]`);
	if (ev(r.events.matrices) !== ev(r.events.sinew)) failures.push(`${label}: matrix-mode events differ: [${ev(r.events.matrices)}]`);
	if (!(r.aFinished > 0 && r.bFinished > r.aFinished)) failures.push(`${label}: finished frames ${r.aFinished} / ${r.bFinished}`);
	if (r.speeds.three !== r.speeds.sinew) failures.push(`${label}: timeScale after the warp ${r.speeds.three} vs ${r.speeds.sinew}`);
	for (const [phase, s] of Object.entries(r.stats)) if (!(s.posCm <= CONTROLS_TOLERANCE_CM && s.shellCm <= CONTROLS_TOLERANCE_CM)) failures.push(`${label} ${phase}: ${s.posCm.toFixed(4)} / ${s.shellCm.toFixed(4)} cm > ${CONTROLS_TOLERANCE_CM}`);
	if (!(r.worstMatrix <= MATRIX_TOLERANCE)) failures.push(`${label}: matrix mode matrixWorld differs by ${r.worstMatrix}`);
	if (r.matrixSkins > 0 && !(r.worstSkin <= MATRIX_TOLERANCE)) failures.push(`${label}: matrix mode boneMatrices differ by ${r.worstSkin}`);
	if (!(r.attachments === 2 && r.worstAttachment <= MATRIX_TOLERANCE)) failures.push(`${label}: matrix mode attachments (${r.attachments}) differ by ${r.worstAttachment}`);
	if (!(r.worstBindInverse <= MATRIX_TOLERANCE)) failures.push(`${label}: matrix mode bindMatrixInverse differs by ${r.worstBindInverse}`);
	if (!r.rendered) failures.push(`${label}: no render (${r.renderError})`);
	else if (r.matrixSkins > 0 && !(r.renderDiff.covered > 100 && r.renderDiff.differ <= 0.01 * r.renderDiff.covered)) failures.push(`${label}: rendered matrix mode differs: ${JSON.stringify(r.renderDiff)}`);
	console.log(`${label.padEnd(40)} clips ${r.clips.join('/')}, finished at frames ${r.aFinished} (repeat x2, warped) and ${r.bFinished} (ping-pong x3); `
		+ Object.entries(r.stats).map(([p, s]) => `${p} ${s.posCm.toFixed(4)}/${s.shellCm.toFixed(4)} cm`).join('; ')
		+ `; events ${r.events.sinew.length}; matrix mode: ${r.matrixSkins} skins, matrixWorld ${r.worstMatrix.toExponential(2)}, boneMatrices ${r.worstSkin.toExponential(2)}, attachments ${r.worstAttachment.toExponential(2)}, ${r.skinnedMeshes} bindMatrixInverse ${r.worstBindInverse.toExponential(2)} relative`
		+ (r.rendered ? `, render ${r.renderDiff.differ} of ${r.renderDiff.covered} pixels differ` : ''));
}
// SINEW_BROWSER_ONLY=world runs only the world-adapter scenarios, =adapters only the single-clip ones,
// =frames only the frame-for-frame scripts,
// =stream only streaming, =pointer only the KHR_animation_pointer check.
const onlyPart = process.env.SINEW_BROWSER_ONLY ?? '';
const part = (name) => !onlyPart || onlyPart === name;
try {
	for (const a of part('adapters') ? assets : []) for (const packed of [false, true]) {
		for (const engine of ['three', 'babylon']) {
			const page = await newPage({ width: 640, height: 400 });
			const errors = [];
			page.on('pageerror', (e) => errors.push(String(e)));
			page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
			const label = `${a.name}${packed ? ' (packed)' : ''} / ${engine}`;
			try {
				await page.goto(`${base}/repo/web/browser-test/page/index.html`);
				await page.waitForFunction(() => window.sinewTest?.ready, null, { timeout: 30000 });
				const fn = engine === 'three' ? 'runThree' : 'runBabylon';
				const spec = packed ? { asset: a.url, packed: a.packedUrl } : { asset: a.url, blob: a.blobUrl };
				const r = await page.evaluate(([f, sp]) => window.sinewTest[f](sp), [fn, spec]);
				let worstPos = 0, worstShell = 0, worstMorph = 0, worstKey = 0, rawPos = 0, rawShell = 0;
				for (const c of r.clips) {
					worstPos = Math.max(worstPos, c.nlerpPosCm); worstShell = Math.max(worstShell, c.nlerpShellCm); worstMorph = Math.max(worstMorph, c.maxMorph);
					worstKey = Math.max(worstKey, c.maxKeyCm); rawPos = Math.max(rawPos, c.maxPosCm); rawShell = Math.max(rawShell, c.maxShellCm);
					const where = `${label} clip ${c.clip} '${c.name}'`;
					if (!(c.nlerpPosCm <= TOLERANCE_CM && c.nlerpShellCm <= TOLERANCE_CM)) failures.push(`${where}: error ${c.nlerpPosCm.toFixed(5)} cm (origins), ${c.nlerpShellCm.toFixed(5)} cm (shell) > ${TOLERANCE_CM} cm`);
					if (!(c.maxMorph <= MORPH_TOLERANCE)) failures.push(`${where}: morph weight difference ${c.maxMorph}`);
					// Babylon names an unnamed glTF animation `animation<k>`, sinew and three `animation_<k>`.
					const babylonUnnamed = engine === 'babylon' && c.name === `animation_${c.clip}` && c.engineName === `animation${c.clip}`;
					if (c.name !== null && c.name !== c.engineName && !babylonUnnamed) failures.push(`${where}: engine clip is named '${c.engineName}'`);
					if (c.times < 21 || c.nodes < 1) failures.push(`${where}: compared ${c.times} times x ${c.nodes} nodes`);
					// one call per seek (a clip of one sample: every time is 0, written once)
					if (c.wasmCallsPerFrame.some((n, i) => n !== (c.durationSinew > 0 || i === 0 ? 1 : 0))) failures.push(`${where}: wasm calls per frame ${c.wasmCallsPerFrame}`);
					// one call per frame that moves the time; a clip of one sample never moves (written on the first frame)
					const wantCalls = c.durationSinew > 0 ? 10 : 1;
					if (c.playbackCalls !== wantCalls) failures.push(`${where}: ${c.playbackCalls} wasm calls for 10 played frames, expected ${wantCalls}`);
					// three advances on the first update; Babylon shows frame 0 on the first frame after start()
					const step = engine === 'three' ? 1 / 60 : 0.016, expect = c.durationSinew > 0 ? ((engine === 'three' ? 10 : 9) * step) % Math.fround(c.durationSinew) : 0;
					// (three's own loop arithmetic makes a clip of one sample's time NaN: so does the port of it)
					const sameAsEngine = engine === 'three' && !(c.durationSinew > 0) ? Number.isNaN(c.playbackTime) : Math.abs(c.playbackTime - expect) < 1e-6;
					if (!sameAsEngine) failures.push(`${where}: played to ${c.playbackTime} s, expected ${expect}`);
				}
				for (const f of r.controls.failures) failures.push(`${label} clip ${r.controls.clip}: ${f}`);
				const shot = join(artifacts, `${a.name}${packed ? '-packed' : ''}-${engine}.png`);
				if (r.rendered) await page.locator('#view').screenshot({ path: shot });
				else failures.push(`${label}: no render (${r.renderError})`);
				const morphs = r.clips.reduce((s, c) => s + c.morphs, 0);
				const line = `${label.padEnd(36)} ${String(r.clips.length).padStart(2)} clips, ${String(r.clips[0].nodes).padStart(3)} nodes, `
					+ `worst origin ${worstPos.toFixed(5)} cm, shell ${worstShell.toFixed(5)} cm (at samples ${worstKey.toFixed(5)});`
					+ ` vs engine interpolation ${rawPos.toFixed(5)} / ${rawShell.toFixed(5)} cm`
					+ (morphs ? `, morph ${worstMorph.toExponential(2)} (${morphs} weights)` : '')
					+ ` [${r.engine} ${r.version}, ${r.kernel}]${r.rendered ? `, ${basename(shot)}` : ''}`
					+ `; controls (${r.controls.checks}) ${r.controls.failures.length ? 'FAILED' : 'ok'}`;
				summary.push({ asset: a.name, packed, engine, worstPosCm: worstPos, worstShellCm: worstShell, worstAtSamplesCm: worstKey, engineInterpolationPosCm: rawPos, engineInterpolationShellCm: rawShell, worstMorph, clips: r.clips });
				console.log(line);
				for (const c of r.clips) {
					if (Math.abs(c.durationEngine - c.durationSinew) > 1e-3) console.log(`    clip ${c.clip} '${c.name}': engine duration ${c.durationEngine.toFixed(4)} s, sinew ${c.durationSinew.toFixed(4)} s (compared over the shorter)`);
				}
			} catch (e) {
				failures.push(`${label}: ${e.message ?? e}`);
				console.log(`${label}: ERROR ${e.message ?? e}`);
			}
			for (const e of errors) if (!/favicon/.test(e)) console.log(`    page: ${e}`);
			await page.close();
		}
	}
	// World adapters: the blended scenario on the engine's player and on one sinew world (page/world_harness.mjs).
	for (const a of part('world') ? assets : []) {
		for (const engine of WORLD_ENGINES) {
			const page = await newPage({ width: 640, height: 400 });
			const errors = [];
			page.on('pageerror', (e) => errors.push(String(e)));
			page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
			const label = `world ${a.name} / ${engine}`;
			try {
				await page.goto(`${base}/repo/web/browser-test/page/index.html`);
				await page.waitForFunction(() => window.sinewWorldTest?.ready, null, { timeout: 30000 });
				const fn = engine === 'three' ? 'runWorldThree' : 'runWorldBabylon';
				const r = await page.evaluate(([f, sp]) => window.sinewWorldTest[f](sp), [fn, { asset: a.url, blob: a.blobUrl, extras: engine === 'three' ? WORLD_EXTRAS : WORLD_EXTRAS_BABYLON }]);
				checkWorld(label, a.name, engine, r, failures);
				worldSummary.push({ asset: a.name, engine, ...r });
			} catch (e) {
				failures.push(`${label}: ${e.message ?? e}`);
				console.log(`${label}: ERROR ${e.message ?? e}`);
			}
			for (const e of errors) if (!/favicon/.test(e)) console.log(`    page: ${e}`);
			await page.close();
		}
	}
	// three.js warp, finite repetitions and the adapter's matrix mode (page/world_harness.mjs runWorldThreeControls)
	for (const a of part('world') && WORLD_ENGINES.includes('three') ? assets : []) {
		const page = await newPage({ width: 640, height: 400 });
		const errors = [];
		page.on('pageerror', (e) => errors.push(String(e)));
		const label = `world controls ${a.name} / three`;
		try {
			await page.goto(`${base}/repo/web/browser-test/page/index.html`);
			await page.waitForFunction(() => window.sinewWorldTest?.ready, null, { timeout: 30000 });
			const r = await page.evaluate((sp) => window.sinewWorldTest.runWorldThreeControls(sp), { asset: a.url, blob: a.blobUrl });
			checkControls(label, r, failures);
			worldSummary.push({ asset: a.name, engine: 'three', scenario: 'controls', ...r });
		} catch (e) {
			failures.push(`${label}: ${e.message ?? e}`);
			console.log(`${label}: ERROR ${e.message ?? e}`);
		}
		for (const e of errors) if (!/favicon/.test(e)) console.log(`    page: ${e}`);
		await page.close();
	}
	// Frame for frame (page/frames_harness.mjs): one script of controls applied in the same frames to the
	// engine's own player and to each sinew adapter (babylon.mjs, babylon_world.mjs, three.mjs,
	// three_world.mjs), from the first frame after the start; per frame the shown frame / time, the state
	// flags, effective weights and time scales and the events must be the engine's, and the nodes the pose
	// sinew samples at the engine's time (blended as the engine blends: three's algorithm for three.mjs).
	for (const a of part('frames') ? assets : []) {
		for (const [engine, world] of [['babylon', false], ['babylon', true], ['three', false], ['three', true]]) {
			const page = await newPage();
			const errors = [];
			page.on('pageerror', (e) => errors.push(String(e)));
			page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
			const label = `frames ${a.name} / ${engine}${world ? ' world' : ''}`;
			try {
				await page.goto(`${base}/repo/web/browser-test/page/index.html`);
				await page.waitForFunction(() => window.sinewFramesTest?.ready, null, { timeout: 30000 });
				const r = await page.evaluate(([f, sp]) => window.sinewFramesTest[f](sp), [engine === 'three' ? 'runFramesThree' : 'runFramesBabylon', { asset: a.url, blob: a.blobUrl, world }]);
				for (const f of r.failures) failures.push(`${label}: ${f}`);
				const time = engine === 'three' ? `time ${r.worstTime.toExponential(1)} s` : `frame ${r.worstFrame.toExponential(1)}`;
				console.log(`${label.padEnd(40)} clip '${r.name}'${r.otherName ? ` + '${r.otherName}'` : ''}, ${r.frames} frames, ${r.steps.length} controls, ${r.events} events: `
					+ `worst ${time}, nodes vs sinew at the engine's time ${r.worstPose.toExponential(2)}`
					+ (r.worstBlend !== undefined ? ` (blended frames: ${r.worstBlend.toExponential(2)}, the world's formula)` : '')
					+ `, vs the engine ${r.worstShellCm.toFixed(4)} cm; ${r.failures.length ? `FAILED (${r.failures.length})` : 'exact'}`);
				framesSummary.push({ asset: a.name, engine, world, ...r });
			} catch (e) {
				failures.push(`${label}: ${e.message ?? e}`);
				console.log(`${label}: ERROR ${e.message ?? e}`);
			}
			for (const e of errors) if (!/favicon/.test(e)) console.log(`    page: ${e}`);
			await page.close();
		}
	}
	// Streaming: a paged mocap clip from HTTP byte ranges within a 16 KB page budget, played in real
	// time at 1x and with seeks, with and without 60 ms of network latency, against the whole blob
	// loaded at once (web/stream.mjs, sinew-stream*.wasm). At 1x no frame may wait for a page.
	for (const latency of part('stream') ? [0, 60] : []) {
		const page = await newPage();
		const errors = [];
		page.on('pageerror', (e) => errors.push(String(e)));
		const rangesBefore = server.ranges;
		try {
			await page.goto(`${base}/repo/web/browser-test/page/index.html`);
			const r = await page.evaluate(async ([url, playSeconds]) => {
				const { default: Sinew } = await import('/repo/web/sinew.mjs');
				const whole = await Sinew.load(await (await fetch(url)).arrayBuffer());
				const t0 = performance.now();
				const prefetchSeconds = 0.5;
				const anim = await Sinew.loadStreaming(url, { budgetBytes: 16384, prefetchSeconds });
				const memory = anim.memoryBytes, duration = anim.clip(0).duration;
				await anim.ready(0, 0);
				const first = anim.sample(0, 0);
				const timeToFirstPose = performance.now() - t0;
				let frames = 0, differ = 0, playMisses = 0, seekMisses = 0, stalls = 0, worstGap = 0, worstWindow = 0;
				const frame = () => new Promise((resolve) => setTimeout(resolve, 16));
				const check = (pose, t) => {
					if (!pose) return false;
					const w = whole.sample(0, t);
					for (let i = 0; i < w.length; i++) if (!Object.is(pose[i], w[i])) { differ++; break; }
					return true;
				};
				// 1x in real time from 0, then seeks, each followed by a second of 1x play
				const runs = [[0, playSeconds], [duration * 0.55, 1], [duration * 0.2, 1], [duration * 0.85, 1]];
				for (const [from, seconds] of runs) {
					const start = performance.now();
					// After a seek (or a stall), the prefetcher has had no time to load ahead of the new
					// position: a frame that waits within its first prefetch window is a seek miss (a seek
					// 50 ms before a page's end needs the next page sooner than 60 ms of latency brings it);
					// past that window, and from the start of playback, a wait is a 1x miss.
					let graceUntil = from === 0 ? 0 : prefetchSeconds, windowMisses = 0;
					let last = start;
					for (;;) {
						const now = performance.now();
						const elapsed = (now - start) / 1000;
						if (elapsed > seconds) break;
						// a frame that comes half a prefetch window late (the page's main thread stalled:
						// GC, a loaded machine) jumps ahead like a seek; it is counted and reported as one
						const gap = (now - last) / 1000;
						last = now;
						worstGap = Math.max(worstGap, gap);
						if (gap > 0.25) { stalls++; graceUntil = elapsed + prefetchSeconds; windowMisses = 0; }
						const t = Math.min(from + elapsed, duration);
						const pose = anim.sample(0, t, 1);
						frames++;
						if (!check(pose, t)) {
							if (elapsed >= graceUntil) playMisses++;
							else seekMisses++, worstWindow = Math.max(worstWindow, ++windowMisses);
						}
						await frame();
					}
				}
				await anim.idle();
				return { frames, differ, playMisses, seekMisses, stalls, worstGap, worstWindow, firstOk: !!first, timeToFirstPose, stats: anim.stats,
					memoryGrew: anim.memoryBytes !== memory, kernel: anim.clip(0).kernel, errors: anim.errors.length,
					callsPerFrame: anim.wasmCalls / (frames + 1) };
			}, [`${streamUrl}?latency=${latency}`, 8]);
			const ranges = server.ranges - rangesBefore;
			const bad = [];
			if (r.differ) bad.push(`${r.differ} frames differ from the whole blob`);
			if (r.playMisses) bad.push(`${r.playMisses} frames at 1x waited for a page`);
			// A seek (or a stall) may make frames wait while its page, and at most the next one, come: two
			// fetches, each the latency plus up to 150 ms of a loaded machine, at a frame each 16 ms. A stall
			// opens such a window too, so they are few, or the run measured too little of 1x play.
			const windowLimit = Math.ceil((2 * (latency + 150)) / 16);
			if (r.worstWindow > windowLimit) bad.push(`${r.worstWindow} frames waited after one seek or stall (at most ${windowLimit}: two fetches)`);
			if (r.stalls > STREAM_MAX_STALLS) bad.push(`${r.stalls} stalls of the page (at most ${STREAM_MAX_STALLS}): too little of the run was 1x play`);
			if (!r.firstOk) bad.push('no first pose after ready()');
			if (r.stats.peakPageBytes > 16384) bad.push(`peak ${r.stats.peakPageBytes} bytes of pages`);
			if (r.memoryGrew) bad.push('the wasm memory grew');
			if (r.errors) bad.push(`${r.errors} refused pages`);
			if (r.callsPerFrame !== 1) bad.push(`${r.callsPerFrame} wasm sampling calls per frame`);
			if (ranges < r.stats.pagesLoaded) bad.push(`${ranges} range requests for ${r.stats.pagesLoaded} pages`);
			for (const b of bad) failures.push(`streaming (latency ${latency} ms): ${b}`);
			const line = `streaming / chromium, ${latency} ms latency: ${r.frames} frames (8 s at 1x, 3 seeks), first pose after ` +
				`${r.timeToFirstPose.toFixed(1)} ms, ${ranges} range requests, ${r.stats.pagesLoaded} pages, peak ${r.stats.peakPageBytes} ` +
				`of 16384 bytes, ${r.playMisses} frames waited at 1x, ${r.seekMisses} frames waited after seeks or stalls ` +
				`(at most ${r.worstWindow} after one; ${r.stalls} stalls, longest frame ${(r.worstGap * 1000).toFixed(0)} ms), 1 wasm call/frame, ` +
				`poses bit-identical: ${r.differ ? 'NO' : 'yes'} [${r.kernel}]`;
			streamSummary += `${line}\n`;
			console.log(line);
		} catch (e) {
			failures.push(`streaming (latency ${latency} ms): ${e.message ?? e}`);
		}
		for (const e of errors) console.log(`    page: ${e}`);
		await page.close();
	}
	// KHR_animation_pointer: the source and sinew's decompressed file (pointer channels written back),
	// both played by Babylon.js's own loader and AnimationGroup; every animated material, texture,
	// camera and light property within POINTER_TOLERANCE of the value's magnitude (at least 1).
	for (const p of part('pointer') ? pointerAssets : []) {
		const page = await newPage();
		const errors = [];
		page.on('pageerror', (e) => errors.push(String(e)));
		const label = `${p.name} / babylon KHR_animation_pointer`;
		try {
			await page.goto(`${base}/repo/web/browser-test/page/index.html`);
			await page.waitForFunction(() => window.sinewPointerTest?.ready, null, { timeout: 30000 });
			const r = await page.evaluate((sp) => window.sinewPointerTest.runPointerBabylon(sp), { source: p.url, output: p.outputUrl });
			for (const g of r.groups) {
				if (!g.properties) failures.push(`${label} '${g.name}': Babylon animates no pointer property`);
				if (g.missing.length) failures.push(`${label} '${g.name}': not animated in the output: ${g.missing.join(', ')}`);
				if (g.extra.length) failures.push(`${label} '${g.name}': animated only in the output: ${g.extra.join(', ')}`);
				const over = g.worst.filter((w) => !(w.ratio <= POINTER_TOLERANCE));
				for (const w of over) failures.push(`${label} '${g.name}' ${w.key}: ${w.diff.toExponential(3)} at ${w.at.toFixed(3)} s (value ${w.value})`);
				const top = g.worst[0];
				const line = `${label.padEnd(40)} '${g.name}': ${g.properties} animated properties, ${g.compared} values over ${g.duration.toFixed(2)} s, ` +
					`worst ${top ? `${top.ratio.toExponential(2)} ${top.vertex !== undefined ? 'm at the vertices' : 'of max(1, |value|)'} (${top.key})` : '-'} [Babylon ${r.version}]` +
					(g.skipped.length ? `; not judged (the engine's own keys of the source are not numbers): ${g.skipped.join(', ')}` : '');
				pointerSummary.push(line);
				console.log(line);
			}
		} catch (e) {
			failures.push(`${label}: ${e.message ?? e}`);
		}
		for (const e of errors) console.log(`    page: ${e}`);
		await page.close();
	}
} finally {
	await browser.close();
	server.close();
}
writeFileSync(join(artifacts, 'summary.json'), JSON.stringify(summary, null, '\t'));
writeFileSync(join(artifacts, 'world-summary.json'), JSON.stringify(worldSummary, null, '\t'));
writeFileSync(join(artifacts, 'frames-summary.json'), JSON.stringify(framesSummary, null, '\t'));
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (failures.length) {
	console.log(`\nFAIL (${failures.length}), ${seconds} s:`);
	for (const f of failures) console.log(`  ${f}`);
	process.exit(1);
}
const skippedNote = existsSync(corpus) ? '' : ' SKIPPED: the corpus assets (corpus absent);';
console.log(`\nbrowser adapters: ${summary.length} asset/engine runs passed (tolerance ${TOLERANCE_CM} cm); world adapters: ${worldSummary.length} blended scenes passed, one wasm call per frame; frame for frame: ${framesSummary.length} adapter scripts against the engines;${streamSummary ? ' streaming ok;' : ''}${pointerSummary.length ? ` KHR_animation_pointer in Babylon: ${pointerSummary.length} clip(s) within ${POINTER_TOLERANCE};` : ''}${skippedNote} ${seconds} s`);
