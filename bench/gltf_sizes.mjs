#!/usr/bin/env node
// What users ship, per animated glTF of the corpus and data/ (or the FILEs given), measured side by side:
//   source keys   the source's animation accessors (key times and values as stored, float32 mostly);
//   stripped      `sinew compress FILE --strip` (the blob without names, hierarchy or rest poses), and the
//                 max error the CLI measures through the decoder;
//   packed        `sinew pack FILE`: the bytes of the blob embedded in the GLB (the bufferView that
//                 SINEW_compressed_animation names), against the stripped blob and the source's keys;
//   gltfpack      meshoptimizer's `gltfpack -cc` (npm `gltfpack` 1.3.0: web/browser-test's, else installed
//                 under build/gltfpack): lossy quantization (16-bit translations/scales, 12-bit rotations),
//                 resampling at 30 Hz, then EXT_meshopt_compression; the bytes of the compressed bufferViews
//                 its animation accessors use. gltfpack bounds no error: the independent judge measures it
//                 (tests/independent/check_gltf.mjs --compare --match-names on `gltfpack -cc -kn`, which
//                 keeps the named nodes; three.js plays both files: every node, and every vertex morph weights
//                 move), and sinew is run again at that error (or at --error-cm, whichever is larger);
//   whole files   the source (a .glb, or a .gltf with the buffers and images it references), the `pack` GLB
//                 and the `gltfpack -cc` GLB, each raw and after `gzip -9 -n` (a .gltf's files one by one).
// Every figure is measured or the bench exits 1 naming the file, the column and the reason: it never
// prints '-'. The only exceptions are the ones KNOWN lists below (a peer that refuses a file, a file the
// corpus copy lacks), checked against the tool's own message; their cells say what happened and the
// totals leave the file out of the columns it concerns.
// usage: node bench/gltf_sizes.mjs [--cli build/sinew] [--error-cm 0.01] [--json] [FILE...]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, readdirSync, statSync } from 'node:fs';
import { join, dirname, relative, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const VALUED = new Set(['--cli', '--error-cm']);
const opt = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
const cli = resolve(opt('--cli', join(repo, 'build/sinew')));
const errorCm = Number(opt('--error-cm', '0.01'));
const asJson = args.includes('--json');
const given = args.filter((a, i) => !a.startsWith('--') && !VALUED.has(args[i - 1]));
const corpus = resolve(process.env.SINEW_CORPUS ?? join(repo, '../shared/corpus'));
if (!(errorCm > 0)) { console.error(`gltf_sizes: --error-cm ${opt('--error-cm')}: not a positive number`); process.exit(2); }
if (!existsSync(cli)) { console.error(`gltf_sizes: sinew CLI not found: ${cli} (--cli PATH)`); process.exit(2); }

// Peer refusals and corpus gaps the bench expects, each checked against the message that shows it: a
// cell then says what happened; anything else a column cannot measure fails the bench.
const KNOWN = [
	{ path: 'gltf/threejs/Flamingo.glb', what: 'gltfpack', expect: 'file requires Draco mesh compression support', cell: 'refuses (Draco)' },
	{ path: 'gltf/blender_io/24_animation_pointer/24_animation_pointer.gltf', what: 'gltfpack', expect: 'because it has no valid tracks',
		cell: 'drops the animation (KHR_animation_pointer channels only)' },
	{ path: 'gltf/khronos/InterpolationTest/interpolation_test.gltf', what: 'source file', expect: 'l.jpg', cell: 'l.jpg absent from the corpus copy' },
];
const known = (file, what) => KNOWN.find((k) => k.what === what && file.replace(/\\/g, '/').endsWith('/' + k.path)) ?? null;

const GLTFPACK_VERSION = '1.3.0';
let gltfpack = join(repo, 'web/browser-test/node_modules/gltfpack/cli.js');
const packageVersion = (cliPath) => { try { return JSON.parse(readFileSync(join(dirname(cliPath), 'package.json'), 'utf8')).version; } catch { return null; } };
if (packageVersion(gltfpack) !== GLTFPACK_VERSION) {
	const packDir = join(repo, 'build/gltfpack');
	gltfpack = join(packDir, 'node_modules/gltfpack/cli.js');
	if (packageVersion(gltfpack) !== GLTFPACK_VERSION)
		execFileSync('npm', ['install', '--prefix', packDir, '--no-audit', '--no-fund', '--loglevel=error', `gltfpack@${GLTFPACK_VERSION}`], { stdio: ['ignore', 'ignore', 'inherit'] });
}

// { json, bin } of a .gltf or .glb.
function readGltf(path) {
	const b = readFileSync(path);
	if (b.readUInt32LE(0) !== 0x46546c67) return { json: JSON.parse(b.toString('utf8')), bin: null };
	const length = b.readUInt32LE(12);
	return { json: JSON.parse(b.subarray(20, 20 + length).toString('utf8')), bin: b.subarray(28 + length) };
}
const readJson = (path) => readGltf(path).json;

const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };
const BYTES = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const animationAccessors = (json) => {
	const set = new Set();
	for (const a of json.animations ?? []) for (const s of a.samplers ?? []) { set.add(s.input); set.add(s.output); }
	return [...set].filter((i) => json.accessors?.[i]);
};
// source keys: every animation accessor's data, tightly packed
const keyBytes = (json) => animationAccessors(json).reduce((n, i) => {
	const a = json.accessors[i];
	return n + a.count * COMPONENTS[a.type] * BYTES[a.componentType];
}, 0);
// gltfpack output: the bufferViews its animation accessors use, compressed size when meshopt-compressed
const gltfpackAnimationBytes = (json) => {
	const views = new Set(animationAccessors(json).map((i) => json.accessors[i].bufferView).filter((v) => v !== undefined));
	return [...views].reduce((n, v) => n + (json.bufferViews[v].extensions?.EXT_meshopt_compression?.byteLength ?? json.bufferViews[v].byteLength), 0);
};
// sinew pack output: the embedded blob's bufferView
const packedBlobBytes = (json) => {
	const ext = json.extensions?.SINEW_compressed_animation;
	if (!ext || !json.bufferViews?.[ext.bufferView]) throw new Error('no SINEW_compressed_animation bufferView in the packed GLB');
	return json.bufferViews[ext.bufferView].byteLength;
};

const gzipBytes = (path) => {
	const r = spawnSync('gzip', ['-9', '-n', '-c', path], { maxBuffer: 1 << 30 });
	if (r.status !== 0) throw new Error(`gzip -9 ${path}: ${r.error?.message ?? r.stderr.toString().trim()}`);
	return r.stdout.length;
};
// The files a document is shipped as: a .glb alone; a .gltf with the buffers and images it references
// by relative uri. { files, absent }
function shippedFiles(path) {
	if (/\.glb$/i.test(path)) return { files: [path], absent: [] };
	const json = readJson(path), files = [path], absent = [];
	for (const r of [...(json.buffers ?? []), ...(json.images ?? [])]) {
		if (typeof r.uri !== 'string' || r.uri.startsWith('data:')) continue;
		const f = resolve(dirname(path), decodeURIComponent(r.uri));
		if (existsSync(f)) { if (!files.includes(f)) files.push(f); } else absent.push(r.uri);
	}
	return { files, absent };
}
const wholeFile = (files) => ({ raw: files.reduce((n, f) => n + statSync(f).size, 0), gz: files.reduce((n, f) => n + gzipBytes(f), 0) });

function walk(dir) {
	if (!existsSync(dir)) return [];
	return readdirSync(dir).flatMap((name) => {
		const p = join(dir, name);
		return statSync(p).isDirectory() ? walk(p) : /\.(gltf|glb)$/.test(name) ? [p] : [];
	});
}
let files;
if (given.length) {
	files = given.map((f) => resolve(f));
	for (const f of files) if (!existsSync(f)) { console.error(`gltf_sizes: no such file: ${f}`); process.exit(2); }
} else {
	if (!existsSync(join(corpus, 'gltf'))) { console.error(`gltf_sizes: no glTF corpus at ${corpus} (SINEW_CORPUS, or name the FILEs)`); process.exit(2); }
	files = [...walk(join(repo, 'data')), ...walk(join(corpus, 'gltf'))].sort()
		.filter((f) => { try { return (readJson(f).animations ?? []).length > 0; } catch { return false; } });
}

class Unmeasured extends Error {
	constructor(column, reason) { super(`${column}: ${reason}`); this.column = column; }
}
// A command's result, or Unmeasured naming the column and the tool's message.
function run(column, cmd, argv) {
	const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 28 });
	if (r.error) throw new Unmeasured(column, `cannot run ${cmd}: ${r.error.message}`);
	return r;
}
function ok(column, r, what) {
	if (r.status !== 0) throw new Unmeasured(column, `${what} exit ${r.status ?? r.signal}: ${(r.stderr || '').trim().split('\n').pop() || '(no message)'}`);
	return r;
}
const lastJson = (column, text) => {
	try { return JSON.parse(text); } catch { /* a JSON object on the last line */ }
	try { return JSON.parse(text.trim().split('\n').pop()); } catch { throw new Unmeasured(column, 'not JSON'); }
};

const tmp = mkdtempSync(join(tmpdir(), 'sinew-gltf-sizes-'));
const stripped = (f, cm) => {
	const col = `stripped blob at ${cm} cm`;
	const r = lastJson(col, ok(col, run(col, cli, ['compress', f, '-o', join(tmp, 'out.sinew'), '--strip', '--error-cm', String(cm), '--json', '-q']), 'sinew compress').stdout);
	if (!(r.compressed_bytes > 0) || typeof r.max_error_cm !== 'number') throw new Unmeasured(col, 'compress --json gave no compressed_bytes / max_error_cm');
	return { bytes: r.compressed_bytes, maxCm: r.max_error_cm };
};
const packed = (f, cm, out) => {
	const col = `packed blob at ${cm} cm`;
	const r = lastJson(col, ok(col, run(col, cli, ['pack', f, '-o', out, '--error-cm', String(cm), '--json', '-q']), 'sinew pack').stdout);
	const bytes = packedBlobBytes(readJson(out));
	if (r.animation_bytes_after !== bytes) throw new Unmeasured(col, `pack --json says ${r.animation_bytes_after} animation bytes, the GLB's blob holds ${bytes}`);
	return bytes;
};

const rows = [], failures = [];
try {
	for (const f of files) {
		const label = relative(f.startsWith(corpus + '/') ? corpus : f.startsWith(repo + '/') ? repo : dirname(f), f);
		process.stderr.write(`${label}\n`);
		const row = { label, notes: [] };
		const attempt = (fn) => { try { fn(); } catch (e) { if (!(e instanceof Unmeasured)) throw e; failures.push(`${label}: ${e.message}`); } };
		attempt(() => {
			const json = readJson(f);
			row.clips = (json.animations ?? []).length;
			row.sourceKeys = keyBytes(json);
			const { files: shipped, absent } = shippedFiles(f);
			if (absent.length) {
				const k = known(f, 'source file');
				if (!k || !absent.some((u) => u.includes(k.expect))) throw new Unmeasured('source file', `references ${absent.join(', ')}, absent`);
				row.notes.push(`source: ${k.cell}`);
			}
			row.source = wholeFile(shipped);
		});
		attempt(() => { row.stripped = stripped(f, errorCm); });
		attempt(() => {
			const out = join(tmp, 'packed.glb');
			row.packed = packed(f, errorCm, out);
			row.packGlb = wholeFile([out]);
		});
		attempt(() => {
			const col = 'gltfpack -cc';
			const out = join(tmp, 'gltfpack.glb'), named = join(tmp, 'named.glb');
			const k = known(f, 'gltfpack');
			const r = run(col, process.execPath, [gltfpack, '-i', f, '-o', out, '-cc']);
			if (r.status !== 0) {
				if (k && `${r.stdout}${r.stderr}`.includes(k.expect)) { row.gltfpack = { known: k.cell }; return; }
				ok(col, r, 'gltfpack');
			}
			const json = readJson(out);
			if (!(json.animations ?? []).length) {
				if (k && `${r.stdout}${r.stderr}`.includes(k.expect)) { row.gltfpack = { known: k.cell }; return; }
				throw new Unmeasured(col, 'gltfpack wrote no animation');
			}
			if (k) throw new Unmeasured(col, `gltfpack took the file KNOWN says it does not (${k.cell}): update KNOWN`);
			row.gltfpack = { bytes: gltfpackAnimationBytes(json), glb: wholeFile([out]) };
			ok(col, run(col, process.execPath, [gltfpack, '-i', f, '-o', named, '-cc', '-kn']), 'gltfpack -kn');
			// the judge's JSON, whether it passed (exit 0) or found the error over its threshold (exit 1)
			const jcol = "gltfpack's error (judge)";
			const judged = run(jcol, process.execPath, [join(repo, 'tests/independent/check_gltf.mjs'), '--json', '--match-names', '--compare', f, named]);
			if (judged.status !== 0 && judged.status !== 1) ok(jcol, judged, 'the judge');
			const res = lastJson(jcol, judged.stdout).files?.[0];
			if (!res || (res.error && !res.clips?.length)) throw new Unmeasured(jcol, res?.error ?? 'no result');
			const lost = res.clips.filter((c) => c.error || typeof c.max_error_cm !== 'number');
			if (lost.length) throw new Unmeasured(jcol, lost.map((c) => `clip '${c.name}': ${c.error ?? 'not measured'}`).join('; '));
			if (typeof res.max_error_cm !== 'number' || Number.isNaN(res.max_error_cm)) throw new Unmeasured(jcol, 'no max_error_cm');
			const unpaired = res.clips.filter((c) => c.missing_nodes?.length || c.weights_missing);
			if (unpaired.length) throw new Unmeasured(jcol, `the judge pairs no output node with source nodes ${[...new Set(unpaired.flatMap((c) => c.missing_nodes))].join(', ') || '(morph weights only)'} in ${unpaired.length} clip(s)`);
			// its error: the nodes' and the morphed vertices' (DESIGN §4), the larger
			row.gltfpack.nodeCm = res.max_error_cm;
			row.gltfpack.vertexCm = res.morph_vertex_checks ? res.max_morph_vertex_error_cm : null;
			if (row.gltfpack.vertexCm !== null && !Number.isFinite(row.gltfpack.vertexCm)) throw new Unmeasured(jcol, 'no morph vertex error');
			row.gltfpack.errorCm = Math.max(res.max_error_cm, row.gltfpack.vertexCm ?? 0);
			// sinew at the error gltfpack reaches (never below --error-cm)
			const at = Math.max(errorCm, row.gltfpack.errorCm);
			row.atError = { cm: at, stripped: stripped(f, at).bytes, packed: packed(f, at, join(tmp, 'packed_at.glb')) };
		});
		rows.push(row);
	}
} finally { rmSync(tmp, { recursive: true, force: true }); }

if (failures.length) {
	for (const m of failures) console.error(`gltf_sizes: ${m}`);
	console.error(`gltf_sizes: ${failures.length} figure(s) could not be measured (KNOWN in bench/gltf_sizes.mjs lists the expected exceptions)`);
	process.exit(1);
}
if (asJson) { console.log(JSON.stringify({ error_cm: errorCm, gltfpack: GLTFPACK_VERSION, rows }, null, 1)); process.exit(0); }

const n = (x) => x.toLocaleString('en-US');
const r2 = (a, b) => (a / b).toFixed(2);
const sum = (list, get) => list.reduce((s, r) => s + get(r), 0);
const withPack = rows.filter((r) => r.gltfpack.bytes !== undefined);
const note = (r) => (r.notes.length ? ` (${r.notes.join('; ')})` : '');

console.log(`**Animation bytes at ${errorCm} cm** (gltfpack -cc bounds no error; its own error is in the next table)\n`);
console.log('| file | clips | source keys | stripped blob | its max cm | packed blob | packed / stripped | packed − source keys | gltfpack -cc | packed / gltfpack |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
	const g = r.gltfpack;
	console.log(`| ${r.label} | ${r.clips} | ${n(r.sourceKeys)} | ${n(r.stripped.bytes)} | ${r.stripped.maxCm.toFixed(4)} | ${n(r.packed)} | ${r2(r.packed, r.stripped.bytes)} | ${r.packed - r.sourceKeys > 0 ? '+' : ''}${n(r.packed - r.sourceKeys)} | `
		+ `${g.known ?? n(g.bytes)} | ${g.known ? '' : r2(r.packed, g.bytes)} |`);
}
console.log(`| **total** | ${sum(rows, (r) => r.clips)} | ${n(sum(rows, (r) => r.sourceKeys))} | **${n(sum(rows, (r) => r.stripped.bytes))}** | | **${n(sum(rows, (r) => r.packed))}** | ${r2(sum(rows, (r) => r.packed), sum(rows, (r) => r.stripped.bytes))} | `
	+ `${rows.filter((r) => r.packed > r.sourceKeys).length} files above their keys | ${n(sum(withPack, (r) => r.gltfpack.bytes))} (${withPack.length} files) | ${r2(sum(withPack, (r) => r.packed), sum(withPack, (r) => r.gltfpack.bytes))} |`);

console.log(`\n**At the error gltfpack reaches** (the judge's max over every node and morphed vertex of gltfpack -cc -kn's output; sinew at that error, or at ${errorCm} cm where gltfpack's is smaller)\n`);
console.log('| file | gltfpack -cc | its max cm (judge): nodes | morphed vertices | sinew at | stripped | packed | stripped / gltfpack | packed / gltfpack |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
	const g = r.gltfpack;
	if (g.known) { console.log(`| ${r.label} | ${g.known} | | | | | | | |`); continue; }
	console.log(`| ${r.label} | ${n(g.bytes)} | ${g.nodeCm.toFixed(4)} | ${g.vertexCm === null ? 'no morph targets' : g.vertexCm.toFixed(4)} | ${r.atError.cm.toFixed(4)} | ${n(r.atError.stripped)} | ${n(r.atError.packed)} | ${r2(r.atError.stripped, g.bytes)} | ${r2(r.atError.packed, g.bytes)} |`);
}
const gp = sum(withPack, (r) => r.gltfpack.bytes);
console.log(`| **total** (${withPack.length} files) | ${n(gp)} | | | | **${n(sum(withPack, (r) => r.atError.stripped))}** | **${n(sum(withPack, (r) => r.atError.packed))}** | ${r2(sum(withPack, (r) => r.atError.stripped), gp)} | ${r2(sum(withPack, (r) => r.atError.packed), gp)} |`);

console.log(`\n**Whole files** (raw, and gzip -9; \`sinew pack\` at ${errorCm} cm)\n`);
console.log('| file | source | gzip -9 | pack GLB | gzip -9 | gltfpack -cc GLB | gzip -9 |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
	const g = r.gltfpack;
	console.log(`| ${r.label}${note(r)} | ${n(r.source.raw)} | ${n(r.source.gz)} | ${n(r.packGlb.raw)} | ${n(r.packGlb.gz)} | ${g.known ?? n(g.glb.raw)} | ${g.known ? '' : n(g.glb.gz)} |`);
}
console.log(`| **total** | ${n(sum(rows, (r) => r.source.raw))} | ${n(sum(rows, (r) => r.source.gz))} | ${n(sum(rows, (r) => r.packGlb.raw))} | ${n(sum(rows, (r) => r.packGlb.gz))} | ${n(sum(withPack, (r) => r.gltfpack.glb.raw))} (${withPack.length} files) | ${n(sum(withPack, (r) => r.gltfpack.glb.gz))} |`);
