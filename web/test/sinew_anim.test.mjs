// sinew — see include/sinew.h for version and licence
// The package's command (web/bin/sinew-anim.mjs: the sinew CLI in WebAssembly through node:wasi, on the
// machine's files) against the native CLI ($SINEW_CLI) run the same way: inputs by absolute path from another
// folder, by a path relative to the working folder, an AMC beside its .asf or named by --asf; and where both
// refuse, the same message, the same exit code, and no output file (nor a temporary one) left behind.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { CLI, CORPUS, NO_CLI, NO_CORPUS, REPO } from './corpus.mjs';

const BIN = join(REPO, 'web/bin/sinew-anim.mjs');
const GODOT = join(REPO, 'data/godot_platformer_player.glb');

function wasm(args, cwd) {
	const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
	return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

function native(args, cwd) {
	const r = spawnSync(CLI, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
	return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

// The same command line through both in `cwd`, writing `out` (relative to cwd or absolute) each in turn:
// the same exit code and stderr; on success the same bytes, on failure no output and no temporary file.
function both(args, cwd, out) {
	const path = out.startsWith('/') ? out : join(cwd, out);
	const folder = join(path, '..');
	const listing = () => (existsSync(folder) ? readdirSync(folder).sort() : []);
	const before = listing();
	const n = native(args, cwd);
	const nativeBytes = existsSync(path) ? readFileSync(path) : null;
	rmSync(path, { force: true });
	const w = wasm(args, cwd);
	assert.equal(w.signal, null, `sinew-anim ${args.join(' ')}: killed by ${w.signal}`);
	assert.equal(w.code, n.code, `sinew-anim ${args.join(' ')}: exit code (stderr: ${w.stderr})`);
	assert.equal(w.stderr, n.stderr, `sinew-anim ${args.join(' ')}: stderr`);
	if (n.code === 0) {
		assert.ok(nativeBytes && existsSync(path), `${out}: not written`);
		assert.ok(readFileSync(path).equals(nativeBytes), `${out}: the bytes differ from the native CLI's`);
	} else {
		assert.equal(nativeBytes, null, `${out}: the native CLI left it`);
		assert.ok(!existsSync(path), `${out}: sinew-anim left it after failing`);
		assert.deepEqual(listing(), before, 'a file left behind in the output folder');
	}
	return { native: n, wasm: w };
}

test('sinew-anim compress takes any local path, absolute or relative, as the native CLI does', { skip: !CLI && NO_CLI }, async () => {
	const dir = mkdtempSync(join(tmpdir(), 'sinew-anim-paths-'));
	try {
		// absolute input and output from an unrelated working folder
		const r = both(['compress', GODOT, '-o', join(dir, 'godot.sinew'), '--json'], tmpdir(), join(dir, 'godot.sinew'));
		assert.equal(JSON.parse(r.wasm.stdout).input, GODOT);
		// relative, into a subfolder, and a packed glTF
		mkdirSync(join(dir, 'in'));
		copyFileSync(GODOT, join(dir, 'in/hero.glb'));
		both(['pack', 'in/hero.glb', '-o', 'hero.packed.glb', '-q'], dir, 'hero.packed.glb');
		both(['compress', '../in/hero.glb', '-o', 'hero.sinew', '-q'], join(dir, 'in'), 'hero.sinew');
		// a BVH through a path with '..' and the working folder's own name
		both(['compress', join(REPO, 'data/../data/cmu_01_01.bvh'), '--unit-cm', '5.644', '-o', './cmu.sinew', '-q'], dir, 'cmu.sinew');
		// a folder (batch compress, one thread in wasm: -j changes nothing)
		const n = native(['compress', join(REPO, 'data'), '-o', 'batch-native', '-q', '-j', '2'], dir);
		const w = wasm(['compress', join(REPO, 'data'), '-o', 'batch-wasm', '-q', '-j', '2'], dir);
		assert.equal(w.code, n.code, w.stderr);
		const names = readdirSync(join(dir, 'batch-native')).sort();
		assert.deepEqual(names, ['acl_09_02.sinew', 'cmu_01_01.sinew', 'godot_platformer_player.sinew']);
		assert.deepEqual(readdirSync(join(dir, 'batch-wasm')).sort(), names);
		for (const f of names) assert.ok(readFileSync(join(dir, 'batch-wasm', f)).equals(readFileSync(join(dir, 'batch-native', f))), f);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

test('sinew-anim compress finds an AMC\'s .asf in its folder or takes --asf FILE, and fails as the native CLI does without one', { skip: (!CLI && NO_CLI) || (!CORPUS && NO_CORPUS) }, async () => {
	const dir = mkdtempSync(join(tmpdir(), 'sinew-anim-amc-'));
	try {
		const amc = join(CORPUS, 'amc/cmu/01/01_01.amc'), asf = join(CORPUS, 'amc/cmu/01/01.asf');
		both(['compress', amc, '-o', join(dir, 'abs.sinew'), '-q'], tmpdir(), join(dir, 'abs.sinew'));
		mkdirSync(join(dir, 'mocap'));
		copyFileSync(amc, join(dir, 'mocap/walk.amc'));
		// no skeleton beside it: the message names the folder; exit 1; nothing written
		let r = both(['compress', 'mocap/walk.amc', '-o', 'walk.sinew'], dir, 'walk.sinew');
		assert.equal(r.wasm.code, 1);
		assert.equal(r.wasm.stderr, "sinew: error: mocap/walk.amc: no .asf skeleton in 'mocap'; name one (options.asf_path; sinew --asf FILE)\n");
		// its skeleton beside it: found, the same bytes
		copyFileSync(asf, join(dir, 'mocap/01.asf'));
		both(['compress', 'mocap/walk.amc', '-o', 'walk.sinew', '-q'], dir, 'walk.sinew');
		both(['compress', 'walk.amc', '-o', '../walk2.sinew', '-q'], join(dir, 'mocap'), '../walk2.sinew');
		// two skeletons: neither is guessed; --asf names one (by any path), a missing one fails by name
		copyFileSync(asf, join(dir, 'mocap/02.asf'));
		r = both(['compress', 'mocap/walk.amc', '-o', 'walk3.sinew'], dir, 'walk3.sinew');
		assert.equal(r.wasm.code, 1);
		assert.match(r.wasm.stderr, /^sinew: error: mocap\/walk\.amc: 2 \.asf files in 'mocap' \(0[12]\.asf, 0[12]\.asf, \.\.\.\); name the skeleton \(options\.asf_path; sinew --asf FILE\)\n$/);
		both(['compress', 'mocap/walk.amc', '--asf', 'mocap/02.asf', '-o', 'walk4.sinew', '-q'], dir, 'walk4.sinew');
		both(['compress', join(dir, 'mocap/walk.amc'), '--asf', asf, '-o', join(dir, 'walk5.sinew'), '-q'], tmpdir(), join(dir, 'walk5.sinew'));
		r = both(['compress', 'mocap/walk.amc', '--asf', 'mocap/03.asf', '-o', 'walk6.sinew'], dir, 'walk6.sinew');
		assert.equal(r.wasm.code, 1);
		assert.equal(r.wasm.stderr, 'sinew: error: mocap/03.asf: No such file or directory\n');
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

test('sinew-anim: a failure prints the native CLI\'s message and exit code and leaves no file', { skip: !CLI && NO_CLI }, async () => {
	const dir = mkdtempSync(join(tmpdir(), 'sinew-anim-fail-'));
	try {
		const glb = readFileSync(GODOT);
		writeFileSync(join(dir, 'truncated.glb'), glb.subarray(0, 5000));
		let r = both(['compress', join(dir, 'truncated.glb'), '-o', join(dir, 'out.sinew')], dir, join(dir, 'out.sinew'));
		assert.equal(r.wasm.code, 1);
		assert.match(r.wasm.stderr, /^sinew: error: .*truncated\.glb: .+\n$/);
		r = both(['compress', join(dir, 'absent.glb'), '-o', 'out.sinew'], dir, 'out.sinew');
		assert.equal(r.wasm.code, 1);
		r = both(['compress', GODOT, '-o', 'out.sinew', '--error-cm', '-1'], dir, 'out.sinew');
		assert.equal(r.wasm.code, 2);
		assert.match(r.wasm.stderr, /^sinew: error: --error-cm /);
		// a packed glTF has no animations left to compress
		both(['pack', GODOT, '-o', 'packed.glb', '-q'], dir, 'packed.glb');
		r = both(['pack', 'packed.glb', '-o', 'again.glb'], dir, 'again.glb');
		assert.equal(r.wasm.code, 1);
		// into a folder that does not exist
		r = both(['compress', GODOT, '-o', join(dir, 'no/such/folder/out.sinew')], dir, join(dir, 'no/such/folder/out.sinew'));
		assert.equal(r.wasm.code, 1);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
