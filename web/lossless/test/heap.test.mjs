// sinew — see include/sinew.h for version and licence
//
// The lossless runtime's heap: many groups sampled in ONE call each at its own time, the whole heap serialized
// (bytes and base64) and restored elsewhere bit for bit, unload with space reuse, the synchronous path.
// node --expose-gc --test web/lossless/test/   (the corpus files join when ../shared/corpus is present; the repository's
// platformer alone gives 8 groups otherwise)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as L from '../lossless.mjs';
import { REPO, CORPUS, loadGltf } from './reference.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WASM = { false: readFileSync(path.join(HERE, '../lossless.wasm')), true: readFileSync(path.join(HERE, '../lossless_simd.wasm')) };

// One block per animation of the platformer and, with the corpus, of a few more files.
const BLOCKS = [];
for (const f of [path.join(REPO, 'data/godot_platformer_player.glb'),
	...['threejs/RobotExpressive.glb', 'khronos/Fox/Fox.glb', 'khronos/AnimatedMorphCube/AnimatedMorphCube.gltf',
		'khronos/InterpolationTest/interpolation_test.gltf', 'raylib/robot.glb'].map((x) => path.join(CORPUS, 'gltf', x))]) {
	const g = loadGltf(f);
	if (!g) continue;
	for (let a = 0; a < (g.json.animations ?? []).length; a++) BLOCKS.push(L.build(g.json, g.buffers, { animation: a }));
}
assert.ok(BLOCKS.length >= 8, 'the platformer has 8 animations');

// Counts every call into the runtime's exports (Runtime.exports is a mutable copy for this).
function countCalls(rt) {
	const calls = {};
	for (const [k, f] of Object.entries(rt.exports))
		if (typeof f === 'function') rt.exports[k] = (...a) => { calls[k] = (calls[k] ?? 0) + 1; return f(...a); };
	return calls;
}

const bits = (f32) => new Uint32Array(f32.buffer.slice(f32.byteOffset, f32.byteOffset + f32.byteLength));

// 50 groups (blocks reused round-robin), each with its own time and speed.
async function fifty(simd) {
	const rt = await L.createRuntime({ simd });
	const groups = [];
	for (let i = 0; i < 50; i++) groups.push(rt.load(BLOCKS[i % BLOCKS.length]));
	const clock = groups.map((g, i) => ({ t: (i * 0.137) % Math.max(g.end, 0.1), speed: 0.5 + (i % 7) * 0.25 }));
	return { rt, groups, clock };
}
function advance(groups, clock, dt) {
	groups.forEach((g, i) => { const c = clock[i]; c.t = (c.t + dt * c.speed) % Math.max(g.end, 0.1); g.time = c.t; });
}

test('50 groups sampled at 50 different times in ONE wasm call, each as if sampled alone', async () => {
	for (const simd of [false, true]) {
		const { rt, groups, clock } = await fifty(simd);
		// the references: each block alone in its own runtime, sampled at the same times one call each
		const refs = groups.map((g, i) => L.createRuntimeSync({ wasm: WASM[simd], simd }).load(BLOCKS[i % BLOCKS.length]));
		const calls = countCalls(rt);
		for (let frame = 0; frame < 120; frame++) {
			advance(groups, clock, 1 / 60);
			const before = { ...calls };
			rt.sampleAll();
			assert.deepEqual(Object.fromEntries(Object.entries(calls).map(([k, v]) => [k, v - (before[k] ?? 0)])), { sample_all: 1 },
				'one call for 50 groups');
			groups.forEach((g, i) => {
				assert.equal(g.time, Math.fround(clock[i].t));
				const r = refs[i].sample(clock[i].t);
				assert.deepEqual(bits(g.outputs), bits(r.outputs), `${simd ? 'SIMD' : 'MVP'} group ${i} frame ${frame}`);
				assert.deepEqual(Array.from(g.changed), Array.from(r.changed), `changed bits, group ${i} frame ${frame}`);
			});
		}
		// an inactive group is left as it is (one whose pose moves in the next 0.2 s, as its reference shows)
		advance(groups, clock, 0.2);
		const k = groups.findIndex((g, i) => refs[i].sample(clock[i].t).changed.some((w) => w !== 0));
		assert.ok(k >= 0);
		const held = groups[k].outputs.slice();
		groups[k].active = false;
		rt.sampleAll();
		assert.deepEqual(bits(groups[k].outputs), bits(held), 'an inactive group is not sampled');
		assert.notDeepEqual(bits(refs[k].outputs), bits(held));
		assert.equal(groups.filter((g) => g.active).length, 49);
	}
});

test('the whole heap round-trips through base64 and bytes, relocated and into the other build, bit-identical for 300 frames', async () => {
	for (const simd of [false, true]) {
		const { rt, groups, clock } = await fifty(simd);
		for (let frame = 0; frame < 45; frame++) { advance(groups, clock, 1 / 60); rt.sampleAll(); }
		groups[7].unload(); // a hole, and a free slot, in the image
		groups[7] = null;
		const text = rt.serialize({ encoding: 'base64' });
		assert.equal(typeof text, 'string');
		assert.match(text, /^[A-Za-z0-9+/]+=*$/);
		const raw = rt.serialize();
		assert.equal(raw.byteLength, rt.heapBytes);
		const copies = [
			await L.restoreRuntime(text, { simd: !simd, reserve: 12345 * 16 }),
			L.restoreRuntimeSync(raw, { wasm: WASM[simd], simd, reserve: 48 }),
		];
		for (const c of copies) {
			assert.notEqual(c.heapAddress, rt.heapAddress, 'restored at another address');
			assert.equal(c.groups.length, rt.groups.length);
			assert.equal(c.groups[7], null);
			assert.deepEqual(c.serialize(), raw, 'the restored heap serializes to the same bytes');
		}
		const clocks = [clock, clock.map((x) => ({ ...x })), clock.map((x) => ({ ...x }))];
		const all = [groups, copies[0].groups, copies[1].groups];
		for (let frame = 0; frame < 300; frame++) {
			[rt, ...copies].forEach((r, k) => {
				all[k].forEach((g, i) => { if (g) { const c = clocks[k][i]; c.t = (c.t + c.speed / 60) % Math.max(g.end, 0.1); g.time = c.t; } });
				r.sampleAll();
			});
			for (let i = 0; i < 50; i++) {
				if (!groups[i]) continue;
				for (const k of [1, 2]) {
					assert.deepEqual(bits(all[k][i].outputs), bits(groups[i].outputs), `copy ${k} group ${i} frame ${frame}`);
					assert.deepEqual(Array.from(all[k][i].changed), Array.from(groups[i].changed));
				}
			}
		}
	}
});

test('unload frees the slot and the bytes; later loads reuse them; memory never grows while sampling', async () => {
	const rt = await L.createRuntime();
	const [a, b, c] = [BLOCKS[0], BLOCKS[1], BLOCKS[2]].map((x) => rt.load(x));
	const size = rt.heapBytes, bOffset = b.offset;
	b.unload();
	assert.equal(b.loaded, false);
	assert.throws(() => b.sample(0.1), /unloaded/);
	assert.equal(rt.heapBytes, size, 'a hole in the middle keeps the heap size');
	const smaller = BLOCKS.slice(3).find((x) => x.byteLength <= BLOCKS[1].byteLength) ?? BLOCKS[1];
	const d = rt.load(smaller);
	assert.equal(d.slot, b.slot, 'the free slot is reused');
	assert.equal(d.offset, bOffset, 'the free bytes are reused');
	assert.equal(rt.heapBytes, size);
	c.unload();
	assert.ok(rt.heapBytes < size, 'unloading the last block shrinks the heap');
	// another allocation after the heap: growing it moves the heap, every group keeps sampling the same
	const want = a.sample(0.3).outputs.slice();
	const at = rt.heapAddress;
	rt.alloc(1000);
	let big = null;
	for (let k = 0; k < 4 && rt.heapAddress === at; k++) big = rt.load(BLOCKS[0]); // until the heap must grow
	assert.notEqual(rt.heapAddress, at, 'the heap moved past the allocation');
	assert.deepEqual(bits(a.sample(0.3).outputs), bits(want));
	assert.deepEqual(bits(big.sample(0.3).outputs), bits(want));
	// 10,000 frames of sampleAll: no growth, no detached buffer
	const buf = rt.memory.buffer, bytes = buf.byteLength, calls = countCalls(rt);
	for (let i = 0; i < 10000; i++) {
		a.time = (i % 997) * 0.0013; big.time = d.time = i / 240;
		rt.sampleAll();
	}
	assert.equal(rt.memory.buffer, buf);
	assert.equal(rt.memory.buffer.byteLength, bytes);
	assert.deepEqual(calls, { sample_all: 10000 });
});

test('the group table grows past 16 slots; every group keeps its place and state', async () => {
	const rt = await L.createRuntime();
	const groups = [];
	for (let i = 0; i < 40; i++) {
		groups.push(rt.load(BLOCKS[i % BLOCKS.length]));
		groups[i].sample(i * 0.05);
	}
	assert.ok(rt.groups.length >= 40);
	const ref = L.createRuntimeSync({ wasm: WASM.false });
	groups.forEach((g, i) => {
		const r = ref.load(BLOCKS[i % BLOCKS.length]);
		r.sample(i * 0.05);
		assert.deepEqual(bits(g.sample(i * 0.05 + 0.01).outputs), bits(r.sample(i * 0.05 + 0.01).outputs));
	});
	// unload everything: the heap ends with its table
	for (const g of groups) g.unload();
	assert.equal(rt.groups.every((g) => g === null), true);
	const image = rt.serialize(), dv = new DataView(image.buffer);
	assert.equal(L.validateHeap(image).length, 0);
	assert.equal(rt.heapBytes, Math.max(32, dv.getUint32(16, true) + 16 * dv.getUint32(12, true)));
});

test('damaged heap images are refused with a named error', async () => {
	const rt = await L.createRuntime();
	rt.load(BLOCKS[0]); rt.load(BLOCKS[1]);
	const good = rt.serialize();
	assert.ok(L.validateHeap(good).length === 2);
	const fnv = (u8) => { let h = 0x811c9dc5; for (const x of u8) h = Math.imul(h ^ x, 0x01000193); return h >>> 0; };
	const reseal = (b) => { const dv = new DataView(b.buffer); dv.setUint32(20, 0, true); dv.setUint32(20, fnv(b), true); return b; };
	const edit = (f) => { const b = good.slice(); f(new DataView(b.buffer), b); return reseal(b); };
	const table = new DataView(good.buffer).getUint32(16, true);
	const cases = [
		[good.subarray(0, good.byteLength - 16), /header size/],
		[good.subarray(0, 20), /multiple of 16/],
		[(() => { const b = good.slice(); b[100] ^= 1; return b; })(), /checksum/],
		[edit((d) => d.setUint32(0, 1, true)), /bad magic/],
		[edit((d) => d.setUint32(4, 2, true)), /version 2/],
		[edit((d) => d.setUint32(12, 1e6, true)), /group table out of the heap/],
		[edit((d) => { d.setUint32(table + 16, d.getUint32(table, true), true); d.setUint32(table + 20, d.getUint32(table + 4, true), true); }), /overlap/],
		[edit((d) => d.setUint32(table + 4, good.byteLength, true)), /group 0: block out of the heap/],
		[edit((d) => d.setUint32(table + 12, 6, true)), /group 0: unknown flags/],
		[edit((d) => d.setUint32(d.getUint32(table, true) + 4, 7, true)), /group 0: lossless block: version 7/],
		[edit((d) => d.setUint32(28, 1, true)), /reserved/],
		['not base64!', /not base64/],
	];
	for (const [bytes, why] of cases) {
		assert.throws(() => L.validateHeap(typeof bytes === 'string' ? new Uint8Array(0) : bytes), typeof bytes === 'string' ? /multiple of 16/ : why);
		await assert.rejects(L.restoreRuntime(bytes), why);
	}
});

test('createRuntimeSync needs the module, instantiates without a promise, and samples like createRuntime', async () => {
	assert.throws(() => L.createRuntimeSync(), /options.wasm/);
	const sync = L.createRuntimeSync({ wasm: new WebAssembly.Module(WASM.true), simd: true });
	assert.equal(sync.simd, true);
	const a = sync.load(BLOCKS[0]), b = (await L.createRuntime({ simd: true })).load(BLOCKS[0]);
	for (let i = 0; i < 100; i++) assert.deepEqual(bits(a.sample(i / 30).outputs), bits(b.sample(i / 30).outputs));
});
