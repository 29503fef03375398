// sinew — see include/sinew.h for version and licence
// The glTF-Transform step (web/gltf-transform.mjs) in node: a pipeline reads a character, applies sinew(),
// writes a GLB; the independent judge (tests/independent/check_gltf.mjs --compare-packed: three's loader
// and mixer on the source, web/sinew.mjs on the GLB) plays it within the bound, and fails a coarser one;
// the blob is the one `sinew pack` writes for the document; a read/write round trip through glTF-Transform
// keeps the extension and the blob; writing refuses a document whose animated nodes moved.
// Needs web/node_modules (npm ci --prefix web: @gltf-transform/core) and, for the judge, three in
// web/browser-test/node_modules; skipped with the reason when one is not installed (and only then).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { pack } from '../compress.mjs';
import Sinew from '../sinew.mjs';
import { CLI, CORPUS, NO_CORPUS, REPO } from './corpus.mjs';

// Only the optional dependency's absence skips: anything thrown by gltf-transform.mjs itself fails this file.
let core = null, tooling = null, missing = false;
try {
	core = await import('@gltf-transform/core');
} catch (e) {
	if (e?.code !== 'ERR_MODULE_NOT_FOUND' || !/'@gltf-transform\/core'/.test(e.message)) throw e;
	missing = `@gltf-transform/core not installed (npm ci --prefix web): ${e.message.split('\n')[0]}`;
}
if (core) tooling = await import('../gltf-transform.mjs');
const JUDGE_THREE = join(REPO, 'web/browser-test/node_modules/three/package.json');
const noJudge = !existsSync(JUDGE_THREE) && 'three for the judge not installed (npm ci --prefix web/browser-test)';

const GODOT = join(REPO, 'data/godot_platformer_player.glb');
const CHARACTERS = [GODOT];
if (CORPUS) CHARACTERS.push(join(CORPUS, 'gltf/khronos/Fox/Fox.glb'), join(CORPUS, 'gltf/khronos/CesiumMan/CesiumMan.gltf'));

function io() {
	return new core.NodeIO().registerExtensions([tooling.SinewAnimationCompression]);
}

function judge(source, packed, errorCm) {
	const r = spawnSync(process.execPath, [join(REPO, 'tests/independent/check_gltf.mjs'), '--compare-packed', source, packed, '--error-cm', String(errorCm), '--json'],
		{ encoding: 'utf8', maxBuffer: 1 << 26 });
	const out = JSON.parse(r.stdout);
	return { code: r.status, file: out.files[0] };
}

function samples(anim) {
	const out = [];
	for (let c = 0; c < anim.clipCount; c++) {
		const d = anim.clip(c).duration;
		for (const f of [0, 0.13, 0.5, 0.77, 1]) out.push(Array.from(anim.sample(c, f * d)));
	}
	return out;
}

test('a glTF-Transform pipeline compresses a character, and the judge plays the GLB it writes within the bound', { skip: missing || noJudge }, async (t) => {
	if (!CORPUS) t.diagnostic(`only data/ (the corpus characters skipped: ${NO_CORPUS})`);
	const dir = mkdtempSync(join(tmpdir(), 'sinew-gltf-transform-'));
	try {
		for (const file of CHARACTERS) {
			await t.test(file.slice(file.lastIndexOf('/') + 1), async () => {
				const document = await io().read(file);
				const clips = document.getRoot().listAnimations().length;
				let report = null;
				await document.transform(tooling.sinew({ errorCm: 0.01, onReport: (r) => { report = r; } }));
				assert.equal(document.getRoot().listAnimations().length, 0);
				const prop = document.getRoot().getExtension(tooling.EXTENSION_NAME);
				assert.equal(prop.getClips().length, clips);
				assert.ok(report.animation_bytes_after < report.animation_bytes_before);
				const out = join(dir, 'packed.glb');
				await io().write(out, document);
				const bytes = readFileSync(out);
				const { json, animation } = await Sinew.loadPacked(bytes);
				assert.deepEqual(json.extensionsUsed.filter((e) => e === tooling.EXTENSION_NAME), [tooling.EXTENSION_NAME]);
				assert.ok(!(json.extensionsRequired ?? []).includes(tooling.EXTENSION_NAME));
				assert.equal(json.animations, undefined);
				assert.equal(animation.clipCount, clips);
				const good = judge(file, out, 0.01);
				assert.equal(good.code, 0, `judge: ${JSON.stringify(good.file).slice(0, 400)}`);
				assert.ok(good.file.pass && good.file.packed.pass && good.file.packed.max_error_cm <= 0.01 + 1e-4, JSON.stringify(good.file.packed));
				// the judge can fail: the same pipeline at 0.5 cm, judged at 0.01 cm
				const coarse = await io().read(file);
				await coarse.transform(tooling.sinew({ errorCm: 0.5 }));
				const bad = join(dir, 'coarse.glb');
				await io().write(bad, coarse);
				const r = judge(file, bad, 0.01);
				assert.notEqual(r.code, 0);
				assert.ok(!r.file.pass && r.file.packed.max_error_cm > 0.011, JSON.stringify(r.file.packed));
			});
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

test('the blob is what sinew pack writes for the document (wasm, and the native CLI when SINEW_CLI is set)', { skip: missing }, async () => {
	const document = await io().read(GODOT);
	const written = await new core.WebIO().writeBinary(document); // what sinew() hands the compressor
	await document.transform(tooling.sinew({ errorCm: 0.02, plainKnots: true }));
	const prop = document.getRoot().getExtension(tooling.EXTENSION_NAME), blob = prop.getBlob();
	const packed = (await pack(written, { errorCm: 0.02, plainKnots: true })).glb;
	const { json: packedJson, animation } = await Sinew.loadPacked(packed);
	assert.equal(animation.clipCount, prop.getClips().length);
	assert.deepEqual(prop.getClips(), packedJson.extensions[tooling.EXTENSION_NAME].clips);
	const dv = new DataView(packed.buffer, packed.byteOffset);
	const view = packedJson.bufferViews[packedJson.extensions[tooling.EXTENSION_NAME].bufferView];
	const bin = 20 + dv.getUint32(12, true) + 8;
	assert.ok(Buffer.from(blob).equals(Buffer.from(packed.subarray(bin + view.byteOffset, bin + view.byteOffset + view.byteLength))));
	if (CLI) {
		const dir = mkdtempSync(join(tmpdir(), 'sinew-gltf-transform-cli-'));
		try {
			writeFileSync(join(dir, 'in.glb'), written);
			const r = spawnSync(CLI, ['pack', 'in.glb', '-o', 'out.glb', '--error-cm', '0.02', '--plain-knots', '-q'], { cwd: dir });
			assert.equal(r.status, 0, r.stderr?.toString());
			assert.ok(Buffer.from(readFileSync(join(dir, 'out.glb'))).equals(Buffer.from(packed)), 'wasm pack differs from the native CLI');
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}
});

test('a read/write round trip through glTF-Transform keeps the extension and the blob', { skip: missing }, async () => {
	const document = await io().read(GODOT);
	await document.transform(tooling.sinew());
	const first = await io().writeBinary(document);
	const again = await io().readBinary(first);
	const prop = again.getRoot().getExtension(tooling.EXTENSION_NAME);
	assert.ok(prop instanceof tooling.CompressedAnimation);
	const original = document.getRoot().getExtension(tooling.EXTENSION_NAME);
	assert.ok(Buffer.from(prop.getBlob()).equals(Buffer.from(original.getBlob())));
	assert.deepEqual(prop.getClips(), original.getClips());
	assert.equal(prop.getVersion(), original.getVersion());
	const targets = prop.listTargets('nodes');
	assert.ok(targets.length > 0 && targets.every(([i, n]) => n === again.getRoot().listNodes()[i]));
	const second = await io().writeBinary(again);
	const a = await Sinew.loadPacked(first), b = await Sinew.loadPacked(second);
	assert.deepEqual(b.json.extensions[tooling.EXTENSION_NAME], a.json.extensions[tooling.EXTENSION_NAME]);
	assert.deepEqual(samples(b.animation), samples(a.animation));
	// without the extension registered, glTF-Transform does not keep it (it is not required): register it
	const plain = await new core.NodeIO().readBinary(first);
	assert.equal(plain.getRoot().getExtension(tooling.EXTENSION_NAME), null);
});

test('writing refuses a document whose animated nodes moved or went; sinew() needs animations, once', { skip: missing }, async () => {
	const document = await io().read(GODOT);
	await document.transform(tooling.sinew());
	const prop = document.getRoot().getExtension(tooling.EXTENSION_NAME);
	const driven = new Set(prop.listTargets('nodes').map(([, n]) => n));
	const nodes = document.getRoot().listNodes();
	const lastDriven = Math.max(...prop.listTargets('nodes').map(([i]) => i));
	const before = nodes.findIndex((n, i) => i < lastDriven && !driven.has(n));
	assert.ok(before >= 0, 'the character has an undriven node before a driven one'); // its removal moves the driven ones
	const moved = await io().read(GODOT);
	await moved.transform(tooling.sinew());
	moved.getRoot().listNodes()[before].dispose();
	await assert.rejects(io().writeBinary(moved), /is now at index/);
	[...driven][0].dispose();
	await assert.rejects(io().writeBinary(document), /were removed since it was compressed/);
	await assert.rejects(document.transform(tooling.sinew()), /no animation|compressed animation already/);
	const empty = new core.Document();
	empty.createBuffer();
	empty.createScene().addChild(empty.createNode('static'));
	await empty.transform(tooling.sinew());
	assert.equal(empty.getRoot().getExtension(tooling.EXTENSION_NAME), null);
});

// A document of several buffers (a .gltf read as it is): sinew() compresses it (it threw glTF-Transform's own 'GLB
// must have 0-1 buffers'), leaves its buffers as they were, and the blob is the one the document gives in one buffer.
test('sinew() on a document of several buffers: the same blob as in one buffer', { skip: missing }, async () => {
	const whole = await io().read(GODOT);
	await whole.transform(tooling.sinew({ errorCm: 0.02 }));
	const split = await io().read(GODOT);
	const second = split.createBuffer('animation');
	for (const a of split.getRoot().listAnimations())
		for (const s of a.listSamplers()) s.getInput().setBuffer(second), s.getOutput().setBuffer(second);
	assert.equal(split.getRoot().listBuffers().length, 2);
	await split.transform(tooling.sinew({ errorCm: 0.02 }));
	assert.equal(split.getRoot().listBuffers().length, 2);
	const blob = (d) => Buffer.from(d.getRoot().getExtension(tooling.EXTENSION_NAME).getBlob());
	assert.ok(blob(split).equals(blob(whole)), 'the blob of the split document differs');
});

const SKIN = join(process.env.SINEW_ASSIMP_MODELS || '/usr/share/assimp/models', 'glTF2/simple_skin/simple_skin.gltf');
test('sinew() on assimp\'s simple_skin.gltf (four data: buffers)',
	{ skip: missing || (!existsSync(SKIN) && `assimp-testmodels absent: ${SKIN} (apt-get install assimp-testmodels)`) }, async () => {
	const doc = await io().read(SKIN);
	assert.ok(doc.getRoot().listBuffers().length > 1);
	let report = null;
	await doc.transform(tooling.sinew({ onReport: (r) => { report = r; } }));
	assert.equal(doc.getRoot().getExtension(tooling.EXTENSION_NAME).getClips().length, 1);
	assert.equal(report.animation_bytes_before, 240);
	assert.equal(doc.getRoot().listAnimations().length, 0);
});
