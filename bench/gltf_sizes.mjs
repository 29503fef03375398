#!/usr/bin/env node
// Animation bytes of every animated glTF of the corpus and data/, three ways:
//   raw       the source's animation accessors (key times and values as stored, float32 mostly);
//   sinew     `sinew compress FILE --strip` (the blob), with its max error measured through the decoder;
//   gltfpack  meshoptimizer's gltfpack -cc (npm `gltfpack`, installed on first use under build/gltfpack):
//             lossy quantization (16-bit translations/scales, 12-bit rotations by default), resampling at
//             30 Hz, then EXT_meshopt_compression; the bytes of the compressed bufferViews its animation
//             accessors use. gltfpack bounds no error: the independent judge measures it
//             (tests/independent/check_gltf.mjs --compare --match-names on gltfpack -cc -kn, which keeps
//             the named nodes; three.js plays both files), and sinew is run again at that error.
// usage: node bench/gltf_sizes.mjs [--cli build/sinew] [--error-cm 0.01]
// Prints a markdown table and totals; files gltfpack or sinew refuse show '-'.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, readdirSync, statSync } from 'node:fs';
import { join, dirname, relative, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
const cli = resolve(opt('--cli', join(repo, 'build/sinew')));
const errorCm = opt('--error-cm', '0.01');
const corpus = resolve(process.env.SINEW_CORPUS ?? join(repo, '../shared/corpus'));

const GLTFPACK_VERSION = '1.3.0';
const packDir = join(repo, 'build/gltfpack');
const gltfpack = join(packDir, 'node_modules/gltfpack/cli.js');
if (!existsSync(gltfpack)) {
	execFileSync('npm', ['install', '--prefix', packDir, '--no-audit', '--no-fund', '--loglevel=error', `gltfpack@${GLTFPACK_VERSION}`], { stdio: 'inherit' });
}

// The JSON of a .gltf or .glb.
function readJson(path) {
	const b = readFileSync(path);
	if (b.readUInt32LE(0) !== 0x46546c67) return JSON.parse(b.toString('utf8'));
	const length = b.readUInt32LE(12);
	return JSON.parse(b.subarray(20, 20 + length).toString('utf8'));
}

const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };
const BYTES = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const animationAccessors = (json) => {
	const set = new Set();
	for (const a of json.animations ?? []) for (const s of a.samplers ?? []) { set.add(s.input); set.add(s.output); }
	return [...set].filter((i) => json.accessors?.[i]);
};
// raw: every animation accessor's data, tightly packed
const rawBytes = (json) => animationAccessors(json).reduce((n, i) => {
	const a = json.accessors[i];
	return n + a.count * COMPONENTS[a.type] * BYTES[a.componentType];
}, 0);
// gltfpack output: the bufferViews its animation accessors use, compressed size when meshopt-compressed
const packedBytes = (json) => {
	const views = new Set(animationAccessors(json).map((i) => json.accessors[i].bufferView).filter((v) => v !== undefined));
	return [...views].reduce((n, v) => n + (json.bufferViews[v].extensions?.EXT_meshopt_compression?.byteLength ?? json.bufferViews[v].byteLength), 0);
};

function walk(dir) {
	if (!existsSync(dir)) return [];
	return readdirSync(dir).flatMap((name) => {
		const p = join(dir, name);
		return statSync(p).isDirectory() ? walk(p) : /\.(gltf|glb)$/.test(name) ? [p] : [];
	});
}
const files = [...walk(join(repo, 'data')), ...walk(join(corpus, 'gltf'))].sort()
	.filter((f) => { try { return (readJson(f).animations ?? []).length > 0; } catch { return false; } });

const tmp = mkdtempSync(join(tmpdir(), 'sinew-gltf-sizes-'));
const rows = [];
const total = { raw: 0, sinew: 0, pack: 0, same: 0, samePack: 0 };
try {
	for (const f of files) {
		const label = relative(existsSync(corpus) && f.startsWith(corpus) ? corpus : repo, f);
		const raw = rawBytes(readJson(f));
		const compress = (cm) => {
			try {
				const out = execFileSync(cli, ['compress', f, '-o', join(tmp, 'out.sinew'), '--strip', '--error-cm', String(cm), '--json'], { stdio: ['ignore', 'pipe', 'ignore'] });
				const r = JSON.parse(out.toString().trim().split('\n').pop());
				return { bytes: r.compressed_bytes, error: r.max_error_cm };
			} catch { return { bytes: null, error: null }; } // refused: '-'
		};
		const s = compress(errorCm);
		let pack = null, packError = null, same = { bytes: null, error: null };
		try {
			execFileSync('node', [gltfpack, '-i', f, '-o', join(tmp, 'out.glb'), '-cc'], { stdio: 'ignore' });
			pack = packedBytes(readJson(join(tmp, 'out.glb')));
			execFileSync('node', [gltfpack, '-i', f, '-o', join(tmp, 'named.glb'), '-cc', '-kn'], { stdio: 'ignore' });
			// the judge's JSON, whether it passed (exit 0) or found the error over its threshold (exit 1)
			const judged = spawnSync('node', [join(repo, 'tests/independent/check_gltf.mjs'), '--json', '--match-names', '--compare', f, join(tmp, 'named.glb')],
				{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 });
			packError = JSON.parse(judged.stdout).files[0].max_error_cm ?? null;
		} catch { /* gltfpack refused the file, or the judge could not measure it: '-' */ }
		if (packError > 0) same = compress(Math.max(Number(errorCm), packError));
		rows.push({ label, raw, sinew: s.bytes, sinewError: s.error, pack, packError, same });
		if (s.bytes !== null && pack !== null) { total.raw += raw; total.sinew += s.bytes; total.pack += pack; }
		if (same.bytes !== null && pack !== null) { total.samePack += pack; total.same += same.bytes; }
	}
} finally { rmSync(tmp, { recursive: true, force: true }); }

const n = (x) => (x === null || x === undefined ? '-' : x.toLocaleString('en-US'));
const cm = (x) => (x === null || x === undefined ? '-' : x.toFixed(4));
console.log(`| file | raw bytes | sinew --strip, ${errorCm} cm | its max cm | gltfpack -cc | its max cm (judge) | sinew at that error | sinew / gltfpack there |`);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows)
	console.log(`| ${r.label} | ${n(r.raw)} | ${n(r.sinew)} | ${cm(r.sinewError)} | ${n(r.pack)} | ${cm(r.packError)} | ${n(r.same.bytes)} | ${r.same.bytes !== null && r.pack ? (r.same.bytes / r.pack).toFixed(2) : '-'} |`);
console.log(`| **total** (files both encode) | ${n(total.raw)} | **${n(total.sinew)}** | | ${n(total.pack)} | | ${n(total.same)} (of ${n(total.samePack)} gltfpack bytes) | ${(total.same / total.samePack).toFixed(2)} |`);
