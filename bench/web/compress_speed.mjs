#!/usr/bin/env node
// sinew — see include/sinew.h for version and licence
// The wasm compressor (web/compress.mjs) against the native CLI on every animated glTF of the corpus and
// data/: `compress` and `pack` at the default bound, each file once per side after one warm-up run, in one
// process per native call (as a build step runs it) and one fresh wasm instance per call (as compress.mjs
// does). Prints per file the wall time of both and the compress_ns both report (sinew_compress alone, the
// CLI's own clock), then totals, and checks the bytes are the same.
// usage: node bench/web/compress_speed.mjs [--cli build/sinew]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { compress, pack } from '../../web/compress.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const cli = resolve(repo, args.includes('--cli') ? args[args.indexOf('--cli') + 1] : process.env.SINEW_CLI ?? 'build/sinew');
const corpus = resolve(process.env.SINEW_CORPUS ?? join(repo, '../shared/corpus'));

function walk(dir, out = []) {
	try {
		for (const n of readdirSync(dir).sort()) {
			const p = join(dir, n);
			if (statSync(p).isDirectory()) walk(p, out);
			else if (/\.(gltf|glb)$/.test(n)) out.push(p);
		}
	} catch { /* absent */ }
	return out;
}
const animated = (p) => {
	const b = readFileSync(p);
	const text = b.readUInt32LE(0) === 0x46546c67 ? b.subarray(20, 20 + b.readUInt32LE(12)).toString() : b.toString();
	try { return (JSON.parse(text).animations ?? []).length > 0; } catch { return false; }
};
const files = [...walk(join(repo, 'data')), ...walk(join(corpus, 'gltf'))].filter(animated);
if (!files.some((f) => f.startsWith(corpus))) console.log(`(corpus ${corpus} absent: data/ only)`);

const resources = (file) => {
	const out = {};
	for (const n of readdirSync(dirname(file))) if (join(dirname(file), n) !== file && statSync(join(dirname(file), n)).isFile()) out[n] = readFileSync(join(dirname(file), n));
	return out;
};
const tmp = mkdtempSync(join(tmpdir(), 'sinew-compress-speed-'));
const total = { native: 0, wasm: 0, nativeNs: 0, wasmNs: 0 };
let differ = 0;
try {
	console.log('| file | compress native / wasm ms | pack native / wasm ms | compress_ns native / wasm ms |');
	console.log('| --- | --- | --- | --- |');
	for (const file of files) {
		const name = basename(file), res = resources(file), input = readFileSync(file), cwd = dirname(file);
		const row = {};
		for (const cmd of ['compress', 'pack']) {
			const out = join(tmp, cmd === 'pack' ? 'o.glb' : 'o.sinew');
			// one thread on both sides (the wasm module has one)
			const nativeRun = () => execFileSync(cli, [cmd, name, '-o', out, '--json', '-j', '1'], { cwd, encoding: 'utf8' });
			const wasmRun = () => (cmd === 'pack' ? pack : compress)(input, { name, resources: res });
			nativeRun(), await wasmRun(); // warm-up: file cache, module compilation
			let t = performance.now();
			const nReport = JSON.parse(nativeRun());
			const nMs = performance.now() - t;
			t = performance.now();
			const w = await wasmRun();
			const wMs = performance.now() - t;
			if (!Buffer.from(cmd === 'pack' ? w.glb : w.blob).equals(readFileSync(out))) differ++;
			total.native += nMs, total.wasm += wMs;
			row[cmd] = `${nMs.toFixed(0)} / ${wMs.toFixed(0)}`;
			if (cmd === 'compress') total.nativeNs += nReport.compress_ns, total.wasmNs += w.report.compress_ns, row.ns = `${(nReport.compress_ns / 1e6).toFixed(1)} / ${(w.report.compress_ns / 1e6).toFixed(1)}`;
		}
		console.log(`| ${relative(repo, file).replace(/^\.\.\/shared\/corpus\//, '')} | ${row.compress} | ${row.pack} | ${row.ns} |`);
	}
} finally {
	rmSync(tmp, { recursive: true, force: true });
}
console.log(`\n${files.length} files, compress + pack: native ${(total.native / 1000).toFixed(2)} s, wasm ${(total.wasm / 1000).toFixed(2)} s ` +
	`(${(total.wasm / total.native).toFixed(2)}x); sinew_compress alone (compress_ns): native ${(total.nativeNs / 1e9).toFixed(2)} s, ` +
	`wasm ${(total.wasmNs / 1e9).toFixed(2)} s (${(total.wasmNs / total.nativeNs).toFixed(2)}x); ${differ ? `${differ} outputs DIFFER` : 'every output byte-identical'}`);
if (differ) process.exit(1);
