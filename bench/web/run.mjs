// sinew — see include/sinew.h for version and licence
// Web stress benchmark (issue 6 item 7). Generates the stress scenes, compresses them with the native CLI, then
// times per-frame sampling of every engine in node (one process per measurement) and in headless Chromium
// (one fresh browser context per measurement), and prints a markdown table.
//
//   node run.mjs                 4000 and 10000 nodes, node + Chromium
//   node run.mjs --quick         4000 nodes only, fewer frames
// options: --nodes 4000,10000  --engines typed-js,three,...  --env node,chromium  --frames N (fast samplers)
//          --slow-frames N (three, babylon)  --scenes DIR (default ./scenes)  --reuse (keep existing scenes/blobs)
//          --cli PATH (sinew CLI; default: $SINEW_CLI, else built with cmake into $TMPDIR/sinew-webbench-build)
//          --chromium PATH (default /usr/bin/chromium)  --json FILE (write all results)
//          --baseline DIR (a checkout of another version: its web/sinew.mjs timed as base-compressed-simd and
//          base-compressed-mvp, and its web/lossless/ as base-lossless-simd, in the same run, on the same files)
//          --rounds R (default 1: every measurement R times, the engines interleaved round by round; the table
//          gives per engine the median of the R medians and their range: on a shared machine the load moves
//          between one engine's run and the next)
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync, createReadStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ENGINES, buildTypedSampler } from './samplers.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
const args = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf('--' + name); return i < 0 ? def : args[i + 1]; };
const flag = (name) => args.includes('--' + name);

const QUICK = flag('quick');
const ROUNDS = Math.max(1, Math.floor(+opt('rounds', 1)));
const NODES = String(opt('nodes', QUICK ? '4000' : '4000,10000')).split(',').map(Number);
const BASELINE = opt('baseline') ? path.resolve(opt('baseline')) : null;
if (BASELINE && !existsSync(path.join(BASELINE, 'web/sinew.mjs'))) { console.error(`run.mjs: --baseline ${BASELINE} has no web/sinew.mjs`); process.exit(2); }
const ENGS = String(opt('engines', [...ENGINES, ...(BASELINE ? ['base-compressed-simd', 'base-compressed-mvp', 'base-lossless-simd'] : [])].join(','))).split(',');
const ENVS = String(opt('env', 'node,chromium')).split(',');
const FRAMES = +opt('frames', QUICK ? 300 : 3000);
const SLOW_FRAMES = +opt('slow-frames', QUICK ? 100 : 1000);
const WARMUP = QUICK ? 50 : 200;
const SCENES = path.resolve(opt('scenes', path.join(HERE, 'scenes')));
const REUSE = flag('reuse');
const CHROMIUM = opt('chromium', '/usr/bin/chromium');
const MAKE_STRESS = opt('make-stress', path.resolve(REPO, '../shared/tools/make_stress_gltf.mjs'));
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	'--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SLOW = new Set(['three', 'babylon']);

const log = (...a) => console.error('[bench]', ...a);
const framesFor = (e) => (SLOW.has(e) ? SLOW_FRAMES : FRAMES);

function sinewCli() {
	const given = opt('cli', process.env.SINEW_CLI);
	if (given) return given;
	const dir = path.join(REPO, 'build-webbench'); // a build folder of the repository (build*/ is ignored), reused across runs
	log(`building the sinew CLI in ${dir}`);
	execFileSync('cmake', ['-S', REPO, '-B', dir, '-DCMAKE_BUILD_TYPE=Release', '-DSINEW_BUILD_BENCH=OFF'], { stdio: ['ignore', 'ignore', 'inherit'] });
	execFileSync('cmake', ['--build', dir, '-j', String(os.cpus().length), '--target', 'sinew'], { stdio: ['ignore', 'ignore', 'inherit'] });
	return path.join(dir, 'sinew');
}

// ---------------------------------------------------------------- scenes, blobs, sizes
function prepareScene(n, cli) {
	mkdirSync(SCENES, { recursive: true });
	const glb = path.join(SCENES, `stress${n}.glb`), blob = path.join(SCENES, `stress${n}.sinew`);
	const compressJson = path.join(SCENES, `stress${n}.compress.json`);
	const r = { nodes: n, glb, blob };
	if (!REUSE || !existsSync(glb)) {
		log(`generating ${glb}`);
		execFileSync(process.execPath, [MAKE_STRESS, '--nodes', String(n), '--out', glb],
			{ env: { ...process.env, NODE_MODULES_DIR: path.join(HERE, 'node_modules') }, stdio: ['ignore', 'ignore', 'inherit'] });
	}
	r.stats = JSON.parse(readFileSync(glb.replace(/\.glb$/, '.stats.json'), 'utf8'));
	if (!REUSE || !existsSync(blob) || !existsSync(compressJson)) {
		log(`compressing ${glb} (--error-cm 0.01)`);
		const t0 = performance.now();
		const out = execFileSync(cli, ['compress', glb, '-o', blob, '--error-cm', '0.01', '--json'], { maxBuffer: 1 << 26 });
		const j = JSON.parse(out.toString());
		j.wallMs = performance.now() - t0;
		writeFileSync(compressJson, JSON.stringify(j));
	}
	r.compress = JSON.parse(readFileSync(compressJson, 'utf8'));
	r.glbBytes = statSync(glb).size;
	r.blobBytes = statSync(blob).size;
	r.keyframeBytes = buildTypedSampler(new Uint8Array(readFileSync(glb))).info.keyframeBytes;
	r.gltfpack = {};
	const gp = path.join(HERE, 'node_modules', '.bin', 'gltfpack');
	for (const [name, extra] of [['default', []], ['cc', ['-cc']]]) {
		const out = path.join(SCENES, `stress${n}.gltfpack-${name}.glb`);
		const p = spawnSync(gp, ['-i', glb, '-o', out, ...extra], { encoding: 'utf8' });
		r.gltfpack[name] = p.status === 0 && existsSync(out) ? statSync(out).size : `failed: ${(p.stderr || p.error || '').toString().trim().slice(0, 200)}`;
	}
	return r;
}

// ---------------------------------------------------------------- node
function runNode(engine, scene) {
	const p = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=16384', path.join(HERE, 'bench_node.mjs'),
		engine, scene.glb, scene.blob, String(framesFor(engine)), String(WARMUP), BASELINE ? pathToFileURL(path.join(BASELINE, 'web/sinew.mjs')).href : ''],
		{ encoding: 'utf8', maxBuffer: 1 << 24 });
	const line = p.stdout.trim().split('\n').filter((l) => l.startsWith('{')).pop();
	if (p.status !== 0 || !line) return { env: 'node', engine, error: (p.stderr || `exit ${p.status}`).trim().split('\n').slice(-3).join(' | ') };
	return JSON.parse(line);
}

// ---------------------------------------------------------------- Chromium
const MIME = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm',
	'.json': 'application/json', '.glb': 'model/gltf-binary', '.sinew': 'application/octet-stream' };

function startServer() {
	const server = createServer((req, res) => {
		const url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
		let file = null;
		if (url.startsWith('/scenes/')) file = path.join(SCENES, url.slice(8));
		else if (url.startsWith('/bench/web/') || url.startsWith('/web/')) file = path.join(REPO, url);
		else if (BASELINE && url.startsWith('/base/web/')) file = path.join(BASELINE, url.slice(5));
		const base = url.startsWith('/scenes/') ? SCENES : url.startsWith('/base/') ? BASELINE : REPO;
		if (!file || !path.resolve(file).startsWith(base) || file.includes('..') || !existsSync(file) || !statSync(file).isFile()) {
			res.writeHead(404); res.end(); return;
		}
		// Cross-origin isolation: Chromium then gives performance.now() 5 us resolution instead of 100 us.
		res.writeHead(200, { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
			'content-length': statSync(file).size, 'cross-origin-opener-policy': 'same-origin',
			'cross-origin-embedder-policy': 'require-corp', 'cross-origin-resource-policy': 'same-origin', 'cache-control': 'no-store' });
		createReadStream(file).pipe(res);
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function runChromium(jobs) {
	const { chromium } = await import('playwright-core');
	const server = await startServer();
	const origin = `http://127.0.0.1:${server.address().port}`;
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS, headless: true });
	const out = [];
	try {
		for (const { engine, scene } of jobs) {
			log(`chromium ${engine} ${scene.nodes}`);
			const context = await browser.newContext();
			const page = await context.newPage();
			page.setDefaultTimeout(600000);
			try {
				const cdp = await context.newCDPSession(page);
				const heap = async () => {
					await cdp.send('HeapProfiler.collectGarbage');
					await cdp.send('HeapProfiler.collectGarbage');
					return (await cdp.send('Runtime.getHeapUsage')).usedSize;
				};
				await page.goto(`${origin}/bench/web/page.html`);
				await page.waitForFunction(() => window.benchReady === true);
				const env = await page.evaluate(([g, b]) => window.benchFetch(g, b),
					[`/scenes/${path.basename(scene.glb)}`, `/scenes/${path.basename(scene.blob)}`]);
				const h0 = await heap();
				const st = await page.evaluate((e) => window.benchSetup(e), engine);
				const h1 = await heap();
				const timing = await page.evaluate(([f, w]) => window.benchRun(f, w), [framesFor(engine), WARMUP]);
				out.push({ env: 'chromium', engine, ...st, heapDelta: h1 - h0, ...timing, crossOriginIsolated: env.crossOriginIsolated, userAgent: env.userAgent });
			} catch (e) {
				out.push({ env: 'chromium', engine, error: String(e.message || e).split('\n')[0] });
			}
			await context.close();
		}
	} finally {
		out.browserVersion = browser.version();
		await browser.close();
		server.close();
	}
	return out;
}

// ---------------------------------------------------------------- main
const fmtMs = (x) => (x === undefined ? '' : x < 1 ? x.toFixed(3) : x < 10 ? x.toFixed(2) : x.toFixed(1));
const MiB = (b) => (typeof b === 'number' ? (b / 1048576).toFixed(1) : b);

const started = performance.now();
const cli = sinewCli();
const results = { date: new Date().toISOString(), node: process.version, cpu: os.cpus()[0]?.model, cpus: os.cpus().length,
	quick: QUICK, frames: FRAMES, slowFrames: SLOW_FRAMES, warmup: WARMUP, scenes: [], runs: [] };
for (const n of NODES) {
	const scene = prepareScene(n, cli);
	results.scenes.push(scene);
	if (ENVS.includes('node')) {
		for (let round = 0; round < ROUNDS; round++) for (const e of ENGS) {
			log(`node ${e} ${n}${ROUNDS > 1 ? ` round ${round + 1}` : ''}`);
			results.runs.push({ nodes: n, round, ...runNode(e, scene) });
		}
	}
}
if (ENVS.includes('chromium')) {
	const jobs = [];
	for (const scene of results.scenes) for (let round = 0; round < ROUNDS; round++) for (const engine of ENGS) jobs.push({ engine, scene, round });
	const r = await runChromium(jobs);
	results.chromium = r.browserVersion;
	jobs.forEach((j, i) => results.runs.push({ nodes: j.scene.nodes, round: j.round, ...r[i] }));
}
results.rounds = ROUNDS;
// per (nodes, env, engine): the rounds' runs (one row each; with --rounds, the median of their figures)
const rows = [];
for (const r of results.runs) {
	let row = rows.find((x) => x.nodes === r.nodes && x.env === r.env && x.engine === r.engine);
	if (!row) rows.push(row = { nodes: r.nodes, env: r.env, engine: r.engine, runs: [] });
	row.runs.push(r);
}
const medianOf = (a) => { const s = [...a].sort((x, y) => x - y); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
results.aggregate = rows.map((row) => {
	const ok = row.runs.filter((r) => !r.error);
	if (!ok.length) return { ...row, error: row.runs[0].error, runs: undefined };
	const m = (k) => medianOf(ok.map((r) => r[k]));
	return { nodes: row.nodes, env: row.env, engine: row.engine, rounds: ok.length, median: m('median'), p99: m('p99'), meanLoop: m('meanLoop'),
		loadMs: m('loadMs'), heapDelta: m('heapDelta'), wasmMemory: ok[0].wasmMemory, medianMin: Math.min(...ok.map((r) => r.median)), medianMax: Math.max(...ok.map((r) => r.median)),
		errors: row.runs.length - ok.length };
});
results.totalSeconds = (performance.now() - started) / 1000;

const lines = [];
lines.push(`date ${results.date}, node ${results.node}, Chromium ${results.chromium ?? 'not run'}, ${results.cpu} x${results.cpus}` +
	`${QUICK ? ', QUICK mode' : ''}; frames per run: ${FRAMES} (three/babylon ${SLOW_FRAMES}), warm-up ${WARMUP}`);
lines.push('');
const R = ROUNDS > 1;
if (R) lines.push(`${ROUNDS} rounds, engines interleaved: each figure is the median over the rounds of that run's figure; "medians" is their range`);
lines.push(`| nodes (channels) | env | sampler | median ms | p99 ms | mean ms | load ms | JS heap Δ MiB | wasm memory MiB |${R ? ' medians ms |' : ''}`);
lines.push(`| --- | --- | --- | --- | --- | --- | --- | --- | --- |${R ? ' --- |' : ''}`);
for (const r of results.aggregate) {
	const ch = `${r.nodes} (${r.nodes * 3})`;
	if (r.error) { lines.push(`| ${ch} | ${r.env} | ${r.engine} | error: ${r.error} | | | | | |${R ? ' |' : ''}`); continue; }
	lines.push(`| ${ch} | ${r.env} | ${r.engine} | ${fmtMs(r.median)} | ${fmtMs(r.p99)} | ${fmtMs(r.meanLoop)} | ${r.loadMs.toFixed(0)} | ` +
		`${MiB(r.heapDelta)} | ${r.wasmMemory ? MiB(r.wasmMemory) : 'none (JS)'} |${R ? ` ${fmtMs(r.medianMin)}-${fmtMs(r.medianMax)}${r.errors ? ` (${r.errors} failed)` : ''} |` : ''}`);
}
// ratios of the typed-array JS sampler and three.js to sinew's compressed SIMD runtime (issue 34 / DESIGN §5 targets)
for (const n of NODES) for (const env of ENVS) {
	const get = (e) => results.aggregate.find((r) => r.nodes === n && r.env === env && r.engine === e && !r.error);
	const sinew = get('compressed-simd');
	if (!sinew) continue;
	const ratio = (e) => (get(e) ? `${(get(e).median / sinew.median).toFixed(2)}x ${e}` : null);
	const parts = ['typed-js', 'three', 'babylon', 'base-compressed-simd'].map(ratio).filter(Boolean);
	if (parts.length) lines.push(`${n} nodes, ${env}: compressed-simd against ${parts.join(', ')} (median / median)`);
}
// the same for the lossless runtime (it samples the glTF's own keys)
for (const n of NODES) for (const env of ENVS) {
	const get = (e) => results.aggregate.find((r) => r.nodes === n && r.env === env && r.engine === e && !r.error);
	const lossless = get('lossless-simd');
	if (!lossless) continue;
	const parts = ['typed-js', 'three', 'base-lossless-simd'].map((e) => (get(e) ? `${(get(e).median / lossless.median).toFixed(2)}x ${e}` : null)).filter(Boolean);
	if (parts.length) lines.push(`${n} nodes, ${env}: lossless-simd against ${parts.join(', ')} (median / median)`);
}
lines.push('');
lines.push('| nodes | glb MiB | Float32Array keyframes MiB | sinew blob MiB | keyframes / blob | CLI raw / blob | max_error_cm | compress s | gltfpack MiB | gltfpack -cc MiB |');
lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const s of results.scenes) {
	lines.push(`| ${s.nodes} | ${MiB(s.glbBytes)} | ${MiB(s.keyframeBytes)} | ${MiB(s.blobBytes)} | ${(s.keyframeBytes / s.blobBytes).toFixed(2)}x | ` +
		`${s.compress.ratio.toFixed(2)}x | ${s.compress.max_error_cm.toPrecision(4)} | ${(s.compress.wallMs / 1000).toFixed(1)} | ` +
		`${MiB(s.gltfpack.default)} | ${MiB(s.gltfpack.cc)} |`);
}
lines.push('');
lines.push(`total ${results.totalSeconds.toFixed(0)} s`);
console.log(lines.join('\n'));
const jsonOut = opt('json', path.join(SCENES, `results-${results.date.replace(/[:.]/g, '-')}.json`));
writeFileSync(jsonOut, JSON.stringify(results, null, 1));
log(`results: ${jsonOut}`);
// a figure that could not be measured (a sampler that failed in some run) fails the bench, with the reason
const failed = results.aggregate.filter((r) => r.error || r.errors);
if (failed.length) {
	for (const r of failed) console.error(`run.mjs: ${r.engine} at ${r.nodes} nodes in ${r.env}: ${r.error ?? `${r.errors} of ${ROUNDS} runs failed`}`);
	process.exit(1);
}
