// sinew — see include/sinew.h for version and licence
// The wasm compressor (web/compress.mjs, sinew-compress.wasm) against the native CLI built from the same
// tree ($SINEW_CLI): the same blob, packed file and JSON report (every field but the timings and the file
// names) for every file of every format of the corpus (glTF compressed and packed, BVH, AMC beside its .asf,
// ACL) and of data/, and with options; a native refusal fails unless the file is listed
// below with its message, and the number of files compared is asserted; hostile input (the corpus's
// malformed files, truncations and byte flips of a real GLB, memory limits) gives the native CLI's message
// with a named result code, never a wasm trap; memory grows on demand.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { test } from 'node:test';

import { cliOptions, compress, compressorModule, errors, info, pack, run, SinewError } from '../compress.mjs';
import { CLI, CORPUS, NO_CLI, NO_CORPUS, REPO } from './corpus.mjs';

const GODOT = join(REPO, 'data/godot_platformer_player.glb');
const MAX_FOLDER_BYTES = 256 << 20; // "fits in memory": the input and its folder's files

// Every animation file of the corpus by format (MANIFEST.md lists them): how many, and the commands compared on each.
const FORMATS = [
	{ name: 'glTF', dir: 'gltf', files: 19, keep: (p) => isAnimatedGltf(p), commands: ['compress', 'pack'] },
	{ name: 'BVH', dir: 'bvh', files: 99, keep: (p) => /\.bvh$/i.test(p), commands: ['compress'] },
	{ name: 'AMC', dir: 'amc', files: 13, keep: (p) => /\.amc$/i.test(p), commands: ['compress'] },
	{ name: 'ACL', dir: 'acl', files: 27, keep: (p) => /\.acl\.sjson$/i.test(p), commands: ['compress'] },
];

// The only files the native CLI refuses at defaults ("COMMAND path in the corpus" or in the repository), with its
// message: the wasm module must refuse them with the same one. Any other refusal fails the comparison.
const EXPECTED_REFUSALS = {
	'compress acl/format_reference.acl.sjson': 'format_reference.acl.sjson:177: the file holds both a clip (line 22) and a track_list; ACL files hold one',
	'compress acl/no_output_scalar_tracks.acl.sjson': 'no_output_scalar_tracks.acl.sjson:11: no tracks: all 1 tracks are stripped (output_index 4294967295, ACL\'s invalid index)',
	'compress acl/no_output_transform_tracks.acl.sjson': 'no_output_transform_tracks.acl.sjson:12: no tracks: the clip has no bones (0 track entries)',
};

function walk(dir, keep, out = []) {
	for (const name of readdirSync(dir).sort()) {
		const p = join(dir, name);
		if (statSync(p).isDirectory()) walk(p, keep, out);
		else if (keep(p)) out.push(p);
	}
	return out;
}

// The files next to an input (and below its folder), by their path relative to it: what the native CLI
// can open when it reads the input (a .gltf's buffers and images, an .amc's .asf). BVH and ACL files read
// nothing else.
function resources(file) {
	const dir = dirname(file), out = {};
	let total = statSync(file).size;
	if (/\.(bvh|acl\.sjson)$/i.test(file)) return { resources: out, bytes: total };
	for (const p of walk(dir, () => true)) {
		if (p === file) continue;
		total += statSync(p).size;
		out[relative(dir, p)] = readFileSync(p);
	}
	return { resources: out, bytes: total };
}

function native(args, cwd) {
	const r = spawnSync(CLI, args, { cwd, encoding: 'buffer', maxBuffer: 1 << 28 });
	return { code: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

function nativeError(r) {
	return r.stderr.split('\n').filter((l) => l.startsWith('sinew: error: ')).pop()?.slice(14);
}

// the reports without what differs between runs (timings) and between file systems (the names)
function comparable(report) {
	const copy = JSON.parse(JSON.stringify(report));
	delete copy.compress_ns, delete copy.input, delete copy.output, delete copy.peak_memory_bytes; // (the process's, native only)
	for (const c of copy.clips ?? []) delete c.compress_ns;
	return copy;
}

function isAnimatedGltf(p) {
	if (!/\.(gltf|glb)$/i.test(p)) return false;
	const b = readFileSync(p);
	let json;
	if (b.readUInt32LE(0) === 0x46546c67) json = b.subarray(20, 20 + b.readUInt32LE(12)).toString();
	else json = b.toString();
	try {
		return (JSON.parse(json).animations ?? []).length > 0;
	} catch {
		return false;
	}
}

// What the comparison of `file` is listed under: "COMMAND path" relative to the corpus or the repository.
function refusalKey(file, cmd) {
	const root = CORPUS && file.startsWith(`${CORPUS}/`) ? CORPUS : REPO;
	return `${cmd} ${relative(root, file)}`;
}

// One input through both: `sinew CMD name -o out ARGS --json` in the input's folder, and the wasm module.
// Returns 'compared' (the same bytes and report) or 'refused' (by both, with the same message, as listed in
// EXPECTED_REFUSALS); anything else fails.
async function same(file, cmd, options = {}) {
	const name = basename(file);
	const what = `${cmd} ${name} ${cliOptions(options).join(' ')}`.trim();
	const { resources: res, bytes } = resources(file);
	assert.ok(bytes <= MAX_FOLDER_BYTES, `${name}: ${bytes} bytes with its folder, more than ${MAX_FOLDER_BYTES}`);
	const input = readFileSync(file);
	const ext = cmd === 'pack' ? (options.gltf ? '.gltf' : '.glb') : '.sinew';
	const dir = dirname(file);
	const tmp = join(process.env.TMPDIR || '/tmp', `sinew-compress-test-${process.pid}-${Math.random().toString(36).slice(2)}${ext}`);
	const n = native([cmd, name, '-o', tmp, '--json', ...cliOptions(options)], dir);
	const wasm = await (cmd === 'pack' ? pack : compress)(input, { ...options, name, resources: res }).catch((e) => e);
	try {
		if (n.code !== 0) {
			const key = refusalKey(file, cmd), expected = Object.keys(options).length ? undefined : EXPECTED_REFUSALS[key];
			assert.ok(expected !== undefined, `${what}: the native CLI refuses it (${nativeError(n)}), and it is not an expected refusal`);
			assert.equal(nativeError(n), expected, `${what}: the native CLI's message`);
			assert.ok(wasm instanceof SinewError, `${what}: native failed (${nativeError(n)}), wasm did not`);
			assert.equal(wasm.message.replace(/^sinew: [A-Z_]+: /, ''), nativeError(n));
			return 'refused';
		}
		assert.ok(!(wasm instanceof Error), `${what}: ${wasm.message}`);
		const bytesOut = cmd === 'pack' ? wasm.glb : wasm.blob;
		const want = readFileSync(tmp);
		assert.equal(bytesOut.length, want.length, `${what}: size`);
		assert.ok(Buffer.from(bytesOut).equals(want), `${what}: bytes differ`);
		assert.deepEqual(comparable(wasm.report), comparable(JSON.parse(n.stdout)), `${what}: the report`);
		return 'compared';
	} finally {
		spawnSync('rm', ['-f', tmp]);
	}
}

// Every file of `files` through every command: each compared or refused as listed; returns the counts.
async function sweep(t, files, commands, root) {
	const counts = { compared: 0, refused: 0 };
	for (const file of files)
		for (const cmd of commands) await t.test(`${cmd} ${relative(root, file)}`, async () => { counts[await same(file, cmd)]++; });
	return counts;
}

function expectedRefusals(files, commands) {
	let n = 0;
	for (const file of files) for (const cmd of commands) if (EXPECTED_REFUSALS[refusalKey(file, cmd)] !== undefined) n++;
	return n;
}

test('the wasm compressor imports its memory and WASI preview1 only, every import the browser shim provides', async () => {
	const m = await compressorModule();
	const imports = WebAssembly.Module.imports(m);
	assert.deepEqual(imports.filter((i) => i.module !== 'wasi_snapshot_preview1').map((i) => `${i.module}.${i.name}:${i.kind}`), ['env.memory:memory']);
	const { WASI } = await import('@bjorn3/browser_wasi_shim');
	const shim = new WASI([], [], []).wasiImport;
	for (const i of imports.filter((x) => x.module === 'wasi_snapshot_preview1')) assert.equal(typeof shim[i.name], 'function', `the shim lacks ${i.name}`);
	const exports = WebAssembly.Module.exports(m).map((e) => e.name).sort();
	assert.deepEqual(exports, ['_start', 'sinew_wc_failure_code', 'sinew_wc_failure_message', 'sinew_wc_warning']);
	assert.ok(readFileSync(join(REPO, 'web/sinew-compress.wasm')).length < 524288);
});

test('data/: every file byte-identical to the native CLI (glTF compressed and packed, BVH, ACL), the report field by field', { skip: !CLI && NO_CLI }, async (t) => {
	const files = walk(join(REPO, 'data'), (p) => isAnimatedGltf(p) || /\.(bvh|acl\.sjson)$/.test(p));
	assert.equal(files.length, 3, files.join(' '));
	const commands = (f) => (/\.(gltf|glb)$/.test(f) ? ['compress', 'pack'] : ['compress']);
	let compared = 0;
	for (const f of files) compared += (await sweep(t, [f], commands(f), REPO)).compared;
	assert.equal(compared, 4);
});

for (const format of FORMATS) {
	test(`every ${format.name} file of the corpus: ${format.commands.join(' and ')} byte-identical to the native CLI`, { skip: (!CLI && NO_CLI) || (!CORPUS && NO_CORPUS) }, async (t) => {
		const files = walk(join(CORPUS, format.dir), format.keep);
		assert.equal(files.length, format.files, `${format.name} files in the corpus (MANIFEST.md)`);
		const { compared, refused } = await sweep(t, files, format.commands, CORPUS);
		const expected = expectedRefusals(files, format.commands);
		assert.equal(refused, expected, 'files refused as listed');
		assert.equal(compared, files.length * format.commands.length - expected, 'files compared');
	});
}

test('options and the other importers give the native CLI\'s bytes too', { skip: !CLI && NO_CLI }, async (t) => {
	const cases = [
		[GODOT, 'compress', { strip: true, level: 1 }],
		[GODOT, 'compress', { plainKnots: true, errorCm: 0.1, shellCm: 5 }],
		[GODOT, 'compress', { pageBytes: 4096 }],
		[GODOT, 'compress', { tiers: [0.1, 0.01] }],
		[GODOT, 'compress', { level: 4, segment: 20, rate: 60 }],
		[GODOT, 'pack', { gltf: true, errorCm: 0.05 }],
		[GODOT, 'compress', { skinShells: true }],
		[join(REPO, 'data/cmu_01_01.bvh'), 'compress', { unitCm: 5.644, strip: true }],
	];
	if (CORPUS) {
		cases.push([join(CORPUS, 'gltf/khronos/Fox/Fox.glb'), 'compress', { rate: 120, plainKnots: true }]);
		cases.push([join(CORPUS, 'gltf/khronos/CesiumMan/CesiumMan.gltf'), 'pack', { gltf: true, level: 3 }]);
		cases.push([join(CORPUS, 'bvh/assimp/Boxing_Toes.bvh'), 'compress', { noEndSites: true }]);
		cases.push([join(CORPUS, 'bvh/cmu_cgspeed/01_01.bvh'), 'compress', { unitCm: 5.644, pageBytes: 4096, tiers: [0.1, 0.01] }]);
		cases.push([join(CORPUS, 'acl/104_30.acl.sjson'), 'compress', { level: 3 }]);
		cases.push([join(CORPUS, 'amc/cmu/01/01_01.amc'), 'compress', { noEndSites: true }]); // its .asf from the folder
	} else {
		t.diagnostic(`corpus cases skipped: ${NO_CORPUS}`);
	}
	let compared = 0;
	for (const [file, cmd, options] of cases)
		await t.test(`${cmd} ${basename(file)} ${cliOptions(options).join(' ')}`, async () => { compared += (await same(file, cmd, options)) === 'compared'; });
	assert.equal(compared, cases.length);
});

test('the corpus\'s malformed glTF files: the native CLI\'s message and a named code, never a trap', { skip: (!CLI && NO_CLI) || (!CORPUS && NO_CORPUS) }, async () => {
	const files = walk(join(CORPUS, 'malformed'), (p) => /\.(gltf|glb)$/.test(p));
	assert.ok(files.length >= 20);
	let rejected = 0;
	for (const file of files) {
		const name = basename(file);
		const n = native(['compress', name, '-o', '/dev/null', '-q'], dirname(file));
		const w = await compress(readFileSync(file), { name, resources: resources(file).resources }).catch((e) => e);
		if (n.code === 0) {
			assert.ok(!(w instanceof Error), `${name}: native accepts it, wasm: ${w.message}`);
			continue;
		}
		rejected++;
		assert.ok(w instanceof SinewError, `${name}: native rejects it (${nativeError(n)}), wasm did not`);
		assert.notEqual(w.codeName, 'UNKNOWN', `${name}: ${w.message}`);
		assert.equal(w.message, `sinew: ${w.codeName}: ${nativeError(n)}`);
	}
	assert.ok(rejected >= 10, `only ${rejected} malformed files rejected`);
});

test('truncations and byte flips of a real GLB: the native CLI\'s message and a named code, never a trap', { skip: !CLI && NO_CLI }, async () => {
	const glb = readFileSync(GODOT);
	const jsonEnd = 20 + glb.readUInt32LE(12);
	const inputs = [];
	for (const n of [0, 1, 4, 11, 12, 16, 19, 20, 21, 100, 1000, jsonEnd - 1, jsonEnd, jsonEnd + 7, jsonEnd + 8, jsonEnd + 9, 200000, glb.length - 1])
		inputs.push([`truncated to ${n}`, glb.subarray(0, n)]);
	for (const at of [0, 4, 5, 8, 12, 16, 22, 30, 200, 900, 2000, jsonEnd - 3, jsonEnd + 4, jsonEnd + 20, jsonEnd + 5000, glb.length - 2]) {
		for (const mask of [0x01, 0x40]) {
			const b = Buffer.from(glb);
			b[at] ^= mask;
			inputs.push([`byte ${at} ^ ${mask}`, b]);
		}
	}
	const dir = join(process.env.TMPDIR || '/tmp', `sinew-compress-hostile-${process.pid}`);
	spawnSync('mkdir', ['-p', dir]);
	try {
		let named = 0;
		for (const [what, bytes] of inputs) {
			const file = join(dir, 'input.glb');
			spawnSync('sh', ['-c', 'cat > "$0"', file], { input: bytes });
			const n = native(['compress', 'input.glb', '-o', 'out.sinew', '-q'], dir);
			const w = await compress(bytes, { name: 'input.glb' }).catch((e) => e);
			if (n.code === 0) {
				assert.ok(!(w instanceof Error), `${what}: native accepts it, wasm: ${w.message}`);
				assert.ok(Buffer.from(w.blob).equals(readFileSync(join(dir, 'out.sinew'))), `${what}: blobs differ`);
				continue;
			}
			assert.ok(w instanceof SinewError, `${what}: native rejects it, wasm did not`);
			assert.notEqual(w.codeName, 'UNKNOWN', `${what}: ${w.message}`);
			assert.equal(w.message, `sinew: ${w.codeName}: ${nativeError(n)}`, what);
			named++;
		}
		assert.ok(named >= 20, `only ${named} of ${inputs.length} rejected`);
	} finally {
		spawnSync('rm', ['-rf', dir]);
	}
});

test('hostile inputs and arguments give specific named errors', async () => {
	const glb = readFileSync(GODOT);
	const expect = async (promise, codeName, what) => {
		const e = await promise.then(() => null, (x) => x);
		assert.ok(e instanceof SinewError, `${what}: no SinewError (${e})`);
		assert.equal(e.codeName, codeName, `${what}: ${e.message}`);
	};
	await expect(compress(glb.subarray(0, 1000)), 'TRUNCATED', 'truncated GLB');
	const v3 = Buffer.from(glb);
	v3.writeUInt32LE(3, 4);
	await expect(compress(v3), 'UNSUPPORTED', 'GLB version 3');
	await expect(compress('{"asset": {"version": "2.0"}, "animations": [', { name: 'a.gltf' }), 'PARSE', 'unterminated JSON');
	const external = JSON.stringify({ asset: { version: '2.0' }, nodes: [{}], buffers: [{ byteLength: 32, uri: 'missing.bin' }],
		bufferViews: [{ buffer: 0, byteLength: 8 }, { buffer: 0, byteOffset: 8, byteLength: 24 }],
		accessors: [{ bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
			{ bufferView: 1, componentType: 5126, count: 2, type: 'VEC3' }],
		animations: [{ channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }], samplers: [{ input: 0, output: 1 }] }] });
	await expect(compress(external, { name: 'a.gltf' }), 'IO', 'external buffer not given');
	const bin = new Uint8Array(new Float32Array([0, 1, 0, 0, 0, 1, 2, 3]).buffer);
	assert.equal((await compress(external, { name: 'a.gltf', resources: { 'missing.bin': bin } })).report.clips[0].samples > 1, true);
	await expect(compress(new Uint8Array(0)), 'UNSUPPORTED', 'empty input');
	await expect(compress(glb, { errorCm: -1 }), 'INVALID_ARGUMENT', 'negative threshold');
	await expect(compress(glb, { args: ['--no-such-option'] }), 'INVALID_ARGUMENT', 'unknown option');
	const packed = (await pack(glb)).glb;
	await expect(pack(packed), 'BAD_COUNT', 'packing a packed file (its animations are in the blob: none to import)');
	await expect(info(glb.subarray(0, 100)), 'TRUNCATED', 'info on a truncated file that is no blob');
	const blob = (await compress(glb)).blob;
	const flipped = Uint8Array.from(blob);
	flipped[blob.length - 20] ^= 1;
	await expect(info(flipped), 'CHECKSUM', 'info on a damaged blob');
	await expect(errors(glb, flipped), 'CHECKSUM', 'errors on a damaged blob');
	// memory: bounded, the library says so by name; unbounded, it grows on demand
	await expect(compress(glb, { maxMemoryBytes: 2400000 }), 'OUT_OF_MEMORY', 'memory bound below what the import needs');
	const small = await compress(glb);
	assert.ok(small.memoryBytes > 2 << 20, `memory did not grow past the initial 2 MB (${small.memoryBytes})`);
	const r = await run(['--version']);
	assert.equal(r.code, 0);
	assert.match(r.stdout, /^sinew 0\.\d+\.\d+/);
});

test('compress(): the report describes the blob; errors() gives each joint\'s error over time with the report\'s maximum', async () => {
	const glb = readFileSync(GODOT);
	const { blob, report } = await compress(glb, { name: 'godot.glb' });
	assert.equal(report.input, 'godot.glb');
	assert.equal(report.compressed_bytes, blob.length);
	assert.ok(report.max_error_cm <= 0.01 && report.clips.length === 8);
	const sizes = await info(blob, { sizes: true });
	assert.equal(sizes.bytes, blob.length);
	assert.equal(sizes.sizes.total, blob.length);
	for (const c of [0, 3, 7]) {
		const e = await errors(glb, blob, { clip: c });
		const clip = report.clips[c];
		assert.equal(e.joints, clip.joints);
		assert.equal(e.samples, clip.samples);
		assert.equal(e.times.length, e.errors.length / e.joints);
		let max = 0, at = 0;
		for (let i = 0; i < e.errors.length; i++) if (e.errors[i] > max) max = e.errors[i], at = e.times[Math.floor(i / e.joints)];
		assert.ok(Math.abs(max - clip.max_error_cm) <= 1e-7 * clip.max_error_cm + 1e-12, `clip ${c}: ${max} vs ${clip.max_error_cm}`);
		assert.ok(Math.abs(at - clip.worst_time) < 1e-9, `clip ${c}: worst at ${at}, report ${clip.worst_time}`);
	}
});
