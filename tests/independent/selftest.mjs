#!/usr/bin/env node
// Self-test of the independent judge (no sinew CLI needed): synthetic glTF scenes with known,
// analytically computed differences are compared with check_gltf.mjs --compare, and the measured
// errors must match the expected values. Run: node tests/independent/selftest.mjs
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { checkFile, parseArgs } from './check_gltf.mjs';

// A glTF with: root (translation animated, uniform scale `rootScale`) -> arm (rotation about Z
// animated, LINEAR or as given) -> hand (static, at 0.5 units along X) -> a mesh node with two
// morph targets whose weights are animated. Everything in one embedded buffer.
function scene({ rootScale = 1, handT = [0.5, 0, 0], handR = [0, 0, 0, 1], armInterp = 'LINEAR', weightBias = 0 } = {}) {
	const chunks = [], views = [], accessors = [];
	let length = 0;
	const add = (floats, type, count, extra = {}) => {
		const bytes = Buffer.from(new Float32Array(floats).buffer);
		views.push({ buffer: 0, byteOffset: length, byteLength: bytes.length });
		chunks.push(bytes);
		length += bytes.length;
		accessors.push({ bufferView: views.length - 1, componentType: 5126, count, type, ...extra });
		return accessors.length - 1;
	};
	const times = [0, 1, 2];
	const tIn = add(times, 'SCALAR', 3, { min: [0], max: [2] });
	const rootT = add([0, 0, 0, 1, 0, 0, 1, 2, 0], 'VEC3', 3);
	const h = Math.SQRT1_2, s45 = Math.sin(Math.PI / 8), c45 = Math.cos(Math.PI / 8);
	// arm: 0°, 45°, 90° about Z (consecutive keys 45° apart)
	const armR = add([0, 0, 0, 1, 0, 0, s45, c45, 0, 0, h, h], 'VEC4', 3);
	const pos = add([0, 0, 0, 1, 0, 0, 0, 1, 0], 'VEC3', 3, { min: [0, 0, 0], max: [1, 1, 0] });
	const tgt0 = add([0, 0, 1, 0, 0, 1, 0, 0, 1], 'VEC3', 3, { min: [0, 0, 1], max: [0, 0, 1] });
	const tgt1 = add([1, 0, 0, 1, 0, 0, 1, 0, 0], 'VEC3', 3, { min: [1, 0, 0], max: [1, 0, 0] });
	const w = [0, 1, 0.25, 0.5, 1, 0].map((v) => v + weightBias);
	const wOut = add(w, 'SCALAR', 6);
	const buffer = Buffer.concat(chunks);
	return {
		asset: { version: '2.0' },
		scene: 0,
		scenes: [{ nodes: [0] }],
		nodes: [
			{ name: 'root', children: [1], scale: [rootScale, rootScale, rootScale] },
			{ name: 'arm', children: [2] },
			{ name: 'hand', translation: handT, rotation: handR, children: [3] },
			{ name: 'blob', mesh: 0, translation: [0, 0.1, 0] },
		],
		meshes: [{ primitives: [{ attributes: { POSITION: pos }, targets: [{ POSITION: tgt0 }, { POSITION: tgt1 }] }], weights: [0, 0] }],
		animations: [{
			name: 'move',
			channels: [
				{ sampler: 0, target: { node: 0, path: 'translation' } },
				{ sampler: 1, target: { node: 1, path: 'rotation' } },
				{ sampler: 2, target: { node: 3, path: 'weights' } },
			],
			samplers: [
				{ input: tIn, output: rootT },
				{ input: tIn, output: armR, interpolation: armInterp },
				{ input: tIn, output: wOut },
			],
		}],
		accessors,
		bufferViews: views,
		buffers: [{ byteLength: buffer.length, uri: 'data:application/octet-stream;base64,' + buffer.toString('base64') }],
	};
}

const dir = mkdtempSync(join(tmpdir(), 'sinew-judge-selftest-'));
const write = (name, json) => { const p = join(dir, name); writeFileSync(p, JSON.stringify(json)); return p; };
const o = parseArgs(['--json']);
let failures = 0;
async function expect(what, ref, test, want, extra = {}) {
	const r = await checkFile({ path: ref, against: test, importArgs: [] }, { ...o, ...extra });
	if (r.error) { console.log(`FAIL ${what}: ${r.error}`); failures++; return; }
	const c = r.clips[0];
	const got = { error: c.max_error_cm, keys: c.max_error_at_keys_cm, mid: c.max_error_at_midpoints_cm, weight: c.max_weight_error, pass: r.pass, node: c.worst_node };
	const bad = [];
	for (const [k, v] of Object.entries(want)) {
		const g = got[k];
		const ok = typeof v === 'number' ? Math.abs(g - v) <= 1e-7 * Math.max(1, Math.abs(v)) + 2e-9 : g === v;
		if (!ok) bad.push(`${k} ${g} (want ${v})`);
	}
	console.log(`${bad.length ? 'FAIL' : 'ok  '} ${what}${bad.length ? ': ' + bad.join(', ') : ''}`);
	if (bad.length) failures++;
}

try {
	const base = write('base.gltf', scene());
	await expect('identical scenes: 0 error', base, write('same.gltf', scene()), { error: 0, weight: 0, pass: true });

	// hand's rest translation + 0.02 cm: every descendant's 7 points move by exactly 0.02 cm
	await expect('translation offset 0.02 cm: 0.02 cm, FAIL', base, write('t.gltf', scene({ handT: [0.5002, 0, 0] })), { error: 0.02, keys: 0.02, mid: 0.02, pass: false, node: 2 });
	await expect('translation offset 0.005 cm: pass', base, write('t2.gltf', scene({ handT: [0.50005, 0, 0] })), { error: 0.005, pass: true });

	// under a root scaled by 0.01, the same local offset is 100 times smaller in scene units
	const small = write('small.gltf', scene({ rootScale: 0.01 }));
	await expect('root scale 0.01: local 0.02 cm -> 0.0002 cm', small, write('small_t.gltf', scene({ rootScale: 0.01, handT: [0.5002, 0, 0] })), { error: 0.0002, pass: true });

	// hand rotated by θ about its Y axis (the blob child sits on that axis): origins fixed, the ±x/±z
	// shell points (d = 3 cm in scene units whatever the ancestors' scale) move by 2 d sin(θ/2)
	const th = 0.004, rot = [0, Math.sin(th / 2), 0, Math.cos(th / 2)];
	const shell = 2 * 3 * Math.sin(th / 2);
	for (const sc of [1, 0.01, 100]) {
		const ref = write(`r${sc}.gltf`, scene({ rootScale: sc }));
		await expect(`rotation ${th} rad under root scale ${sc}: ${shell.toFixed(6)} cm at the shell`, ref, write(`r${sc}_t.gltf`, scene({ rootScale: sc, handR: rot })), { error: shell, keys: shell, mid: shell });
	}
	// --shell-mode scaled: the shell is d * the matrixWorld columns (scaled by the ancestors)
	await expect('--shell-mode scaled under root scale 100', write('r100b.gltf', scene({ rootScale: 100 })), write('r100b_t.gltf', scene({ rootScale: 100, handR: rot })), { error: shell * 100 }, { shellMode: 'scaled' });

	// STEP instead of LINEAR on the arm: equal at keys; at the midpoints the arm is 22.5° behind. The
	// point farthest from the arm's Z axis is the blob's +x shell point at (0.53, 0.1) m in the arm's
	// frame, so the error is 2 * hypot(53, 10) cm * sin(22.5° / 2)
	await expect('STEP vs LINEAR: keys 0, midpoints 2 r sin(11.25°)', base, write('step.gltf', scene({ armInterp: 'STEP' })),
		{ keys: 0, mid: 2 * Math.hypot(53, 10) * Math.sin(Math.PI / 16), node: 3, pass: false });
	await expect('STEP vs LINEAR with --keys-only: 0', base, join(dir, 'step.gltf'), { error: 0, pass: true }, { keysOnly: true });

	// morph weights: +5e-5 passes, +2e-4 fails (precision 1e-4)
	const wdiff = (b) => Math.max(...[0, 1, 0.25, 0.5].map((v) => Math.abs(Math.fround(v + b) - v)));
	await expect('weights +5e-5: pass', base, write('w1.gltf', scene({ weightBias: 5e-5 })), { weight: wdiff(5e-5), pass: true });
	await expect('weights +2e-4: FAIL', base, write('w2.gltf', scene({ weightBias: 2e-4 })), { pass: false });
} finally {
	rmSync(dir, { recursive: true, force: true });
}
console.log(failures ? `${failures} self-test(s) failed` : 'all self-tests passed');
process.exitCode = failures ? 1 : 0;
