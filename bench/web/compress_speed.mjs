#!/usr/bin/env node
// sinew — see include/sinew.h for version and licence
// The wasm compressor (web/compress.mjs) against the native CLI on every animation file of the corpus and data/
// (glTF compressed and packed; BVH, AMC beside its .asf, ACL compressed) at the default bound: per file, the
// native CLI in one process per call (as a build step runs it, -j 1: the module has one thread) and the
// module in a fresh instance per call (as compress.mjs runs it), one warm-up run each, then the two measured
// back to back (--repeat N: N times in turn, the fastest of each counts); with --baseline OTHER/compress.mjs,
// another build of the module (an earlier checkout) is run the same way between them, so the three are timed
// in the same minutes. Prints per format the wall times and the compress_ns each reports (sinew_compress
// alone, the CLI's own clock; `compress` only: pack reports none), the totals and the ratios, and
// checks that every output is the native CLI's byte for byte (exit 1 otherwise). Files the native CLI refuses
// are left out and named.
// usage: node bench/web/compress_speed.mjs [--cli build/sinew] [--baseline PATH/web/compress.mjs] [--repeat N]
//        [--formats gltf,bvh,amc,acl]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const cli = resolve(repo, option('--cli', process.env.SINEW_CLI ?? 'build/sinew'));
const corpus = resolve(process.env.SINEW_CORPUS ?? join(repo, '../shared/corpus'));
const formats = option('--formats', 'gltf,bvh,amc,acl').split(',');
const baselinePath = option('--baseline', null);
const repeat = Number(option('--repeat', '1')); // runs of each side per file, interleaved; the fastest counts

const current = await import('../../web/compress.mjs');
const baseline = baselinePath ? await import(pathToFileURL(resolve(baselinePath)).href) : null;

function walk(dir, keep, out = []) {
	let names;
	try { names = readdirSync(dir).sort(); } catch { return out; }
	for (const n of names) {
		const p = join(dir, n);
		if (statSync(p).isDirectory()) walk(p, keep, out);
		else if (keep(p)) out.push(p);
	}
	return out;
}
const animatedGltf = (p) => {
	if (!/\.(gltf|glb)$/.test(p)) return false;
	const b = readFileSync(p);
	const text = b.readUInt32LE(0) === 0x46546c67 ? b.subarray(20, 20 + b.readUInt32LE(12)).toString() : b.toString();
	try { return (JSON.parse(text).animations ?? []).length > 0; } catch { return false; }
};
const KINDS = {
	gltf: { keep: animatedGltf, dir: 'gltf', commands: ['compress', 'pack'] },
	bvh: { keep: (p) => /\.bvh$/.test(p), dir: 'bvh', commands: ['compress'] },
	amc: { keep: (p) => /\.amc$/.test(p), dir: 'amc', commands: ['compress'] },
	acl: { keep: (p) => /\.acl\.sjson$/.test(p), dir: 'acl', commands: ['compress'] },
};

// a glTF's folder (buffers, images) and an AMC's (.asf) go with it; BVH and ACL files read nothing else
const resources = (file) => {
	const out = {};
	if (/\.(bvh|acl\.sjson)$/.test(file)) return out;
	for (const p of walk(dirname(file), () => true)) if (p !== file) out[relative(dirname(file), p)] = readFileSync(p);
	return out;
};
const corpusPresent = statSync(corpus, { throwIfNoEntry: false })?.isDirectory();
if (!corpusPresent) console.log(`(corpus ${corpus} absent: data/ only)`);
const tmp = mkdtempSync(join(tmpdir(), 'sinew-compress-speed-'));
const sides = baseline ? ['native', 'baseline', 'wasm'] : ['native', 'wasm'];
const rows = [], refused = [];
let differ = 0;
try {
	for (const kind of formats) {
		const k = KINDS[kind];
		if (!k) throw new Error(`unknown format ${kind} (gltf, bvh, amc, acl)`);
		const files = [...walk(join(repo, 'data'), k.keep), ...(corpusPresent ? walk(join(corpus, k.dir), k.keep) : [])];
		const total = { files: 0, runs: 0 };
		for (const s of sides) total[s] = 0, total[`${s}Ns`] = 0;
		for (const file of files) {
			const name = basename(file), res = resources(file), input = readFileSync(file), cwd = dirname(file);
			const key = `${relative(file.startsWith(corpus) ? corpus : repo, file)}`;
			for (const cmd of k.commands) {
				const out = join(tmp, cmd === 'pack' ? 'o.glb' : 'o.sinew');
				const probe = spawnSync(cli, [cmd, name, '-o', out, '-q', '-j', '1'], { cwd, encoding: 'utf8' });
				if (probe.status !== 0) { refused.push(`${cmd} ${key}: ${probe.stderr.trim()}`); continue; }
				const run = {
					native: () => JSON.parse(execFileSync(cli, [cmd, name, '-o', out, '--json', '-j', '1'], { cwd, encoding: 'utf8' })),
					baseline: () => (cmd === 'pack' ? baseline.pack : baseline.compress)(input, { name, resources: res }),
					wasm: () => (cmd === 'pack' ? current.pack : current.compress)(input, { name, resources: res }),
				};
				for (const s of sides) await run[s](); // warm-up: file cache, module compilation
				const best = {};
				for (let k = 0; k < repeat; k++) {
					for (const s of sides) {
						const t = performance.now();
						const r = await run[s]();
						const wall = performance.now() - t;
						const report = s === 'native' ? r : r.report;
						if (!(best[s]?.wall <= wall)) best[s] = { wall, ns: report.compress_ns ?? 0 }; // (pack reports no compress_ns)
						if (s !== 'native' && k === 0 && !Buffer.from(cmd === 'pack' ? r.glb : r.blob).equals(readFileSync(out)))
							differ++, console.log(`  ${s}: ${cmd} ${key} differs from the native CLI`);
					}
				}
				for (const s of sides) total[s] += best[s].wall, total[`${s}Ns`] += best[s].ns;
				total.runs++;
			}
			total.files++;
		}
		rows.push({ kind, ...total });
	}
} finally {
	rmSync(tmp, { recursive: true, force: true });
}
const empty = rows.filter((r) => r.runs === 0).map((r) => r.kind);
if (empty.length) {
	console.error(`compress_speed: no ${empty.join(', ')} file to measure (corpus ${corpus}; --formats to choose)`);
	process.exit(1);
}
const ms = (x) => `${(x / 1000).toFixed(2)} s`;
const head = sides.map((s) => `${s} wall`).concat(sides.map((s) => `${s} compress_ns`));
console.log(`| format | files (runs) | ${head.join(' | ')} | wasm/native wall | wasm/native compress_ns |${baseline ? ' baseline/native wall | baseline/native compress_ns |' : ''}`);
console.log(`|${' --- |'.repeat(head.length + (baseline ? 6 : 4))}`);
const sum = { files: 0, runs: 0 };
for (const s of sides) sum[s] = 0, sum[`${s}Ns`] = 0;
for (const r of [...rows, null]) {
	const x = r ?? { kind: 'all', ...sum };
	if (r) for (const f of Object.keys(sum)) sum[f] += r[f];
	const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
	const cells = [...sides.map((s) => ms(x[s])), ...sides.map((s) => ms(x[`${s}Ns`] / 1e6))];
	let line = `| ${x.kind} | ${x.files} (${x.runs}) | ${cells.join(' | ')} | ${ratio(x.wasm, x.native)} | ${ratio(x.wasmNs, x.nativeNs)} |`;
	if (baseline) line += ` ${ratio(x.baseline, x.native)} | ${ratio(x.baselineNs, x.nativeNs)} |`;
	console.log(line);
}
if (refused.length) console.log(`\nrefused by the native CLI, left out: ${refused.length}\n${refused.map((r) => `  ${r}`).join('\n')}`);
console.log(`\n${differ ? `${differ} outputs DIFFER` : 'every output byte-identical'}`);
if (differ) process.exit(1);
