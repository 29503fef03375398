// sinew — see include/sinew.h for version and licence
// Instructions per frame of the wasm sampler (web/sinew.mjs), repeatable where timings are not: valgrind's callgrind
// counts the whole node process (TurboFan only: --no-liftoff; --single-threaded --predictable), once for 50 frames and
// once for 1,050, and the difference / 1,000 is one frame's cost (startup, compilation and the warm-up cancel out).
// The scene: bench/web's stress scene (make_stress_gltf.mjs, real mocap curves), compressed by the CLI at 0.01 cm.
//
//   node bench/web/instructions.mjs [--cli PATH] [--nodes 1000] [--baseline DIR] [--mvp]
// --baseline DIR: a checkout of another version, its web/sinew.mjs and modules counted on the same blob in the same
// run. --mvp: the baseline (non-SIMD) modules. Exits 1 when valgrind is missing or a count cannot be taken.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
const args = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf('--' + name); return i < 0 ? def : args[i + 1]; };

if (args[0] === '--child') { // (inside valgrind) load the blob, warm up, sample `frames` frames at 60 Hz steps
	const [, mjs, simd, blobPath, frames] = args;
	const Sinew = (await import(pathToFileURL(mjs).href)).default;
	const anim = await Sinew.load(readFileSync(blobPath), { simd: simd === '1' });
	const duration = anim.clip(0).duration;
	let sink = 0;
	for (let i = 0; i < 50; i++) sink += anim.sample(0, ((i * 7) / 60) % duration) ? 1 : 0;
	for (let i = 0; i < +frames; i++) sink += anim.sample(0, (i / 60) % duration) ? 1 : 0;
	if (sink < 0) console.log(sink);
	process.exit(0);
}

const fail = (why) => { console.error(`instructions.mjs: ${why}`); process.exit(1); };
if (spawnSync('valgrind', ['--version']).status !== 0) fail('needs valgrind (apt-get install valgrind)');
const NODES = +opt('nodes', 1000), SIMD = args.includes('--mvp') ? '0' : '1';
const CLI = opt('cli', process.env.SINEW_CLI || path.join(REPO, 'build/sinew'));
if (!existsSync(CLI)) fail(`no CLI at ${CLI} (--cli PATH, or build it: make all)`);
const BASELINE = opt('baseline') ? path.resolve(opt('baseline')) : null;
if (BASELINE && !existsSync(path.join(BASELINE, 'web/sinew.mjs'))) fail(`--baseline ${BASELINE} has no web/sinew.mjs`);

const scenes = path.join(HERE, 'scenes');
mkdirSync(scenes, { recursive: true });
const glb = path.join(scenes, `stress${NODES}.glb`), blob = path.join(scenes, `stress${NODES}.instructions.sinew`);
if (!existsSync(glb))
	execFileSync(process.execPath, [path.resolve(REPO, '../shared/tools/make_stress_gltf.mjs'), '--nodes', String(NODES), '--out', glb],
		{ env: { ...process.env, NODE_MODULES_DIR: path.join(HERE, 'node_modules') }, stdio: ['ignore', 'ignore', 'inherit'] });
execFileSync(CLI, ['compress', glb, '-o', blob, '--error-cm', '0.01', '-q'], { stdio: ['ignore', 'ignore', 'inherit'] });

function collected(mjs, frames) {
	const r = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', '--smc-check=all-non-file', process.execPath,
		'--no-liftoff', '--single-threaded', '--predictable', fileURLToPath(import.meta.url), '--child', mjs, SIMD, blob, String(frames)],
	{ encoding: 'utf8', maxBuffer: 1 << 26 });
	const m = /Collected : (\d+)/.exec(r.stderr || '');
	if (r.status !== 0 || !m) fail(`callgrind of ${mjs} (${frames} frames) failed: ${(r.stderr || '').split('\n').slice(-5).join(' ')}`);
	return Number(m[1]);
}
const rows = [['this checkout', path.join(REPO, 'web/sinew.mjs')]];
if (BASELINE) rows.push([`baseline ${BASELINE}`, path.join(BASELINE, 'web/sinew.mjs')]);
console.log(`stress scene, ${NODES} nodes (${path.relative(REPO, blob)}), ${SIMD === '1' ? 'SIMD128' : 'baseline wasm'} modules, node ${process.version}`);
console.log('| modules | instructions per frame |\n|---|---:|');
for (const [name, mjs] of rows) {
	const per = (collected(mjs, 1050) - collected(mjs, 50)) / 1000;
	if (!(per > 0)) fail(`${name}: no instructions counted per frame`);
	console.log(`| ${name} | ${Math.round(per).toLocaleString('en-US')} |`);
}
