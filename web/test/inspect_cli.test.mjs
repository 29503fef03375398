// sinew — see include/sinew.h for version and licence
// `sinew-anim inspect` as a newcomer meets it (issue 33): a busy --port, a format the inspector cannot show and
// a folder are one line on stderr with exit code 1, never a Node stack; a BVH is served (the page converts it to
// glTF, web/browser-test/inspector.mjs), an AMC with its .asf.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { startInspector } from '../inspector/serve.mjs';
import { CORPUS, REPO } from './corpus.mjs';

const BIN = join(REPO, 'web/bin/sinew-anim.mjs');
const GODOT = join(REPO, 'data/godot_platformer_player.glb');

function inspect(...args) {
	const r = spawnSync(process.execPath, [BIN, 'inspect', ...args, '--no-open', '--no-gltfpack'], { encoding: 'utf8', timeout: 60000 });
	return { code: r.status, stderr: r.stderr, lines: r.stderr.trim().split('\n') };
}

test('a busy --port is one line naming it and how to pick another', async () => {
	const busy = createServer();
	await new Promise((ok) => busy.listen(0, '127.0.0.1', ok));
	const port = busy.address().port;
	try {
		const r = inspect(GODOT, '--port', String(port));
		assert.equal(r.code, 1, r.stderr);
		assert.deepEqual(r.lines, [`sinew-anim inspect: port ${port} is busy (another server listens on it): pick another with --port N, or leave --port out for a free one`]);
		const bad = inspect(GODOT, '--port', 'eighty');
		assert.equal(bad.code, 1);
		assert.deepEqual(bad.lines, ["sinew-anim inspect: --port needs a port number, 0 to 65535 (got 'eighty')"]);
	} finally {
		await new Promise((ok) => busy.close(ok));
	}
});

test('formats the inspector does not show, and folders, are refused on the command line with what to do', () => {
	const dir = mkdtempSync(join(tmpdir(), 'sinew-inspect-cli-'));
	try {
		writeFileSync(join(dir, 'hero.fbx'), 'Kaydara FBX Binary  \0');
		writeFileSync(join(dir, 'notes.txt'), 'hello');
		const fbx = inspect(join(dir, 'hero.fbx'));
		assert.equal(fbx.code, 1);
		assert.deepEqual(fbx.lines, [`sinew-anim inspect: ${join(dir, 'hero.fbx')}: the inspector reads glTF, BVH, AMC and ACL; FBX, COLLADA and ` +
			`the other assimp formats go through the native sinew built with assimp first: sinew convert ${join(dir, 'hero.fbx')} -o hero.glb, then inspect hero.glb`]);
		// every format the native importer hands to assimp (a Half-Life .mdl was 'not an animation file')
		writeFileSync(join(dir, 'man.mdl'), 'IDST');
		const mdl = inspect(join(dir, 'man.mdl'));
		assert.equal(mdl.code, 1);
		assert.match(mdl.lines[0], /man\.mdl: the inspector reads glTF, BVH, AMC and ACL; .* sinew convert .*man\.mdl -o man\.glb, then inspect man\.glb$/);
		const txt = inspect(join(dir, 'notes.txt'));
		assert.equal(txt.code, 1);
		assert.deepEqual(txt.lines, [`sinew-anim inspect: ${join(dir, 'notes.txt')}: not an animation file the inspector reads (.glb, .gltf, .bvh, .amc with its .asf, .acl.sjson)`]);
		const folder = inspect(dir);
		assert.equal(folder.code, 1);
		assert.deepEqual(folder.lines, [`sinew-anim inspect: ${dir}: is a directory, not a file`]);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

test('a BVH is served for the page to convert; an AMC with its .asf', { skip: !CORPUS && 'the AMC needs the corpus' }, async () => {
	const bvh = await startInspector({ file: join(REPO, 'data/cmu_01_01.bvh'), gltfpack: false });
	try {
		const status = await (await fetch(`${bvh.url}api/status`)).json();
		assert.deepEqual(status.model, { name: 'cmu_01_01.bvh', files: ['cmu_01_01.bvh'] });
		assert.equal((await fetch(`${bvh.url}model/cmu_01_01.bvh`)).status, 200);
	} finally {
		await bvh.close();
	}
	const dir = mkdtempSync(join(tmpdir(), 'sinew-inspect-amc-'));
	try {
		copyFileSync(join(CORPUS, 'amc/cmu/02/02_01.amc'), join(dir, '02_01.amc'));
		copyFileSync(join(CORPUS, 'amc/cmu/02/02.asf'), join(dir, '02.asf'));
		const amc = await startInspector({ file: join(dir, '02_01.amc'), gltfpack: false });
		try {
			const status = await (await fetch(`${amc.url}api/status`)).json();
			assert.deepEqual(status.model, { name: '02_01.amc', files: ['02_01.amc', '02.asf'] });
		} finally {
			await amc.close();
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

// A page built before the wasm changed (a source checkout after `make wasm`) is rebuilt: the stale page compressed
// with the old compressor, and its report disagreed with the native CLI's (web/browser-test/inspector.mjs failed).
const ESBUILD = await import('esbuild').then(() => true, () => false);
test('a page older than the compressor it bundles is rebuilt', { skip: !ESBUILD && 'esbuild not installed (npm ci --prefix web)' }, async () => {
	const dist = join(REPO, 'web/inspector/dist');
	const first = await startInspector({ gltfpack: false });
	await first.close();
	writeFileSync(join(dist, 'sinew-compress.wasm'), 'stale');
	const second = await startInspector({ gltfpack: false });
	await second.close();
	assert.ok(readFileSync(join(dist, 'sinew-compress.wasm')).equals(readFileSync(join(REPO, 'web/sinew-compress.wasm'))));
});
