// sinew — see include/sinew.h for version and licence
//
// node --expose-gc --test web/lossless/test/   (corpus files skip cleanly when ../shared/corpus is absent)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import * as L from '../lossless.mjs';
import { REPO, CORPUS, loadGltf, referenceChannels, referenceSample, testTimes } from './reference.mjs';

const FILES = [
	path.join(REPO, 'data/godot_platformer_player.glb'),
	...['khronos/CesiumMan/CesiumMan.gltf', 'khronos/InterpolationTest/interpolation_test.gltf',
		'khronos/AnimatedMorphCube/AnimatedMorphCube.gltf', 'khronos/AnimatedMorphSphere/AnimatedMorphSphere.gltf',
		'khronos/SimpleMorph/SimpleMorph.gltf', 'khronos/MorphStressTest/MorphStressTest.gltf',
		'khronos/BoxAnimated/BoxAnimated.gltf', 'khronos/RiggedSimple/RiggedSimple.gltf', 'khronos/SimpleSkin/SimpleSkin.gltf',
		'khronos/Fox/Fox.glb', 'threejs/RobotExpressive.glb', 'threejs/Flamingo.glb', 'threejs/Horse.glb',
		'playcanvas/lumberjack.glb', 'raylib/robot.glb', 'godot/platformer_player.glb',
		'blender_io/03_all_animations/03_all_animations.gltf', 'blender_io/07_nla-anim/07_nla-anim.gltf',
		'blender_io/24_animation_pointer/24_animation_pointer.gltf'].map((f) => path.join(CORPUS, 'gltf', f)),
];
const TOL = 1e-6; // relative to max(1, largest |value| of the channel)

const runtimes = { mvp: await L.createRuntime({ simd: false }), simd: await L.createRuntime({ simd: true }) };

// Pairs each reference channel with its sampler in the block (same node and path, in channel order).
function match(anim, refs) {
	const used = new Set();
	return refs.map((r) => {
		const c = anim.channels.find((x) => !used.has(x.index) && x.node === r.node && x.path === r.path);
		assert.ok(c, `no sampler for node ${r.node} ${r.path}`);
		used.add(c.index);
		return c;
	});
}

function compare(anim, refs, chans, times, what) {
	let worst = 0, count = 0;
	for (const t of times) {
		const { outputs } = anim.sample(t);
		refs.forEach((r, i) => {
			const want = referenceSample(r, t), c = chans[i];
			let got = Array.from(outputs.subarray(c.offset, c.offset + c.components));
			if (r.path === 'rotation') { // q and -q are the same rotation
				const dot = got.reduce((s, x, j) => s + x * want[j], 0);
				if (dot < 0) got = got.map((x) => -x);
			}
			for (let j = 0; j < want.length; j++) {
				const err = Math.abs(got[j] - want[j]) / r.scale;
				worst = Math.max(worst, err);
				count++;
				if (!(err <= TOL)) assert.fail(`${what}: node ${r.node} ${r.path} ${r.interp} t=${t} comp ${j}: ${got[j]} vs ${want[j]}`);
			}
		});
	}
	return { worst, count };
}

for (const file of FILES) {
	const name = path.relative(path.dirname(path.dirname(file)), file);
	test(`matches the reference sampler: ${name}`, (t) => {
		const g = loadGltf(file);
		if (!g) return t.skip(`absent: ${file}`);
		const anims = g.json.animations ?? [];
		let stats = { worst: 0, count: 0, channels: 0, kinds: [0, 0, 0, 0] };
		for (let ai = 0; ai < anims.length; ai++) {
			const refs = referenceChannels(g, ai);
			const block = L.build(g.json, g.buffers, { animation: ai });
			const times = testTimes(refs);
			const outs = {};
			for (const [rname, rt] of Object.entries(runtimes)) {
				const anim = rt.load(block);
				assert.equal(anim.channels.length, refs.length);
				const chans = match(anim, refs);
				chans.forEach((c, i) => assert.equal(c.kind === L.KIND.CONSTANT, refs[i].constant, `constant flag of channel ${i}`));
				// Forward playback (cursor), backward and shuffled (binary search).
				for (const order of [times, [...times].reverse(), times.map((x, i) => times[(i * 7919) % times.length])]) {
					const r = compare(anim, refs, chans, order, `${name} anim ${ai} ${rname}`);
					stats.worst = Math.max(stats.worst, r.worst);
					stats.count += r.count;
				}
				outs[rname] = times.map((x) => anim.sample(x).outputs.slice());
				if (rname === 'mvp') { stats.channels += refs.length; anim.channels.forEach((c) => stats.kinds[c.kind]++); }
			}
			// Both variants come from one source with the same operation order: bit-identical results.
			outs.mvp.forEach((o, i) => assert.deepEqual(new Uint32Array(o.buffer), new Uint32Array(outs.simd[i].buffer)));
		}
		t.diagnostic(`${anims.length} animations, ${stats.channels} channels (kinds vec3/quat/general/const ${stats.kinds.join('/')}), ` +
			`${stats.count} values compared, worst relative error ${stats.worst.toExponential(2)}`);
	});
}

function platformer() {
	const g = loadGltf(path.join(REPO, 'data/godot_platformer_player.glb'));
	assert.ok(g, 'data/godot_platformer_player.glb is in the repository');
	return { g, block: L.build(g.json, g.buffers) };
}

test('serialize and load at another heap address gives identical results', async () => {
	const { block } = platformer();
	for (const simd of [false, true]) {
		const a = (await L.createRuntime({ simd })).load(block);
		for (let i = 0; i < 50; i++) a.sample(i * 0.031);
		const bytes = a.serialize();
		assert.equal(bytes.byteLength, block.byteLength);
		const rt2 = await L.createRuntime({ simd });
		rt2.alloc(12345 * 16 + 48); // push the block elsewhere in the heap
		const b = rt2.load(bytes);
		assert.notEqual(a.ptr, b.ptr);
		a.reset();
		const d = L.describe(block);
		for (let i = 0; i < 300; i++) {
			const t = -0.2 + i * 0.0071;
			const ra = a.sample(t), rb = b.sample(t);
			assert.deepEqual(new Uint32Array(ra.outputs.slice().buffer), new Uint32Array(rb.outputs.slice().buffer), `t=${t}`);
			assert.deepEqual(Array.from(ra.changed), Array.from(rb.changed));
		}
		assert.ok(d.end > 1);
	}
});

test('no memory growth and no new views over 10,000 frames', async () => {
	const { block } = platformer();
	const rt = await L.createRuntime();
	const anim = rt.load(block);
	const buf = rt.memory.buffer, bytes = buf.byteLength, first = anim.sample(0);
	for (let i = 0; i < 10000; i++) {
		const r = anim.sample((i % 997) * 0.0013 + (i & 1 ? 0.5 : 0));
		assert.equal(r, first);
	}
	assert.equal(rt.memory.buffer, buf, 'the wasm memory was not grown (buffer not detached)');
	assert.equal(rt.memory.buffer.byteLength, bytes);
});

test('exactly one JS-to-wasm call per sample', async () => {
	const { block } = platformer();
	const rt = await L.createRuntime();
	const anim = rt.load(block);
	const calls = {};
	for (const [k, f] of Object.entries(rt.exports))
		if (typeof f === 'function') rt.exports[k] = (...args) => { calls[k] = (calls[k] ?? 0) + 1; return f(...args); };
	for (let i = 0; i < 500; i++) anim.sample(i / 240);
	assert.deepEqual(calls, { sample: 500 });
});

test('changed bitset: set exactly where an output changed; constant channels never after the first frame', async () => {
	for (const file of [path.join(REPO, 'data/godot_platformer_player.glb'),
		path.join(CORPUS, 'gltf/khronos/InterpolationTest/interpolation_test.gltf'),
		path.join(CORPUS, 'gltf/khronos/AnimatedMorphCube/AnimatedMorphCube.gltf')]) {
		const g = loadGltf(file);
		if (!g) continue;
		const block = L.build(g.json, g.buffers);
		for (const simd of [false, true]) {
			const anim = (await L.createRuntime({ simd })).load(block);
			const n = anim.channelCount, channels = anim.channels;
			let prev = null, flagged = 0;
			const times = [0, 0, 0.1, 0.1, 0.35, 5, 99, 99, 0.2];
			for (let i = 0; i < 400; i++) times.push(((i * 37) % 101) / 50 - 0.3, i / 170);
			for (const t of times) {
				const { outputs, changed } = anim.sample(t);
				const bits = new Uint32Array(outputs.slice().buffer);
				for (const c of channels) {
					const bit = (changed[c.index >> 5] >>> (c.index & 31)) & 1;
					let want = 1;
					if (prev) {
						want = 0;
						for (let j = 0; j < c.components; j++) if (bits[c.offset + j] !== prev[c.offset + j]) want = 1;
					}
					assert.equal(bit, want, `${file} t=${t} channel ${c.index}`);
					if (prev && c.kind === L.KIND.CONSTANT) assert.equal(bit, 0);
					flagged += bit;
				}
				for (let k = n; k < changed.length * 32; k++) assert.equal((changed[k >> 5] >>> (k & 31)) & 1, 0, 'padding bits');
				prev = bits;
			}
			assert.ok(flagged > n, 'some animated channels changed after the first frame');
		}
	}
});

test('malformed blocks are rejected; random corruption never escapes the block', async () => {
	const { block } = platformer();
	const corrupt = (f) => { const b = block.slice(); f(new DataView(b.buffer)); return b; };
	assert.throws(() => L.validate(block.subarray(0, 32)), /at least 64/);
	assert.throws(() => L.validate(corrupt((d) => d.setUint32(0, 1, true))), /bad magic/);
	assert.throws(() => L.validate(corrupt((d) => d.setUint32(4, 9, true))), /version 9/);
	assert.throws(() => L.validate(block.subarray(0, block.byteLength - 16)), /header size/);
	assert.throws(() => L.validate(corrupt((d) => d.setUint32(48, d.getUint32(44, true), true))), /overlap/);
	const offS = new DataView(block.buffer).getUint32(44, true);
	assert.throws(() => L.validate(corrupt((d) => d.setUint32(offS + 16, block.byteLength - 8, true))), /sampler 0: values/);
	assert.throws(() => L.validate(corrupt((d) => d.setUint32(offS + 12, 1e6, true))), /sampler 0: bad descriptor/);
	assert.throws(() => L.validate(corrupt((d) => d.setUint32(offS + 0, 2, true))), /sampler 0: kind 2 out of order/);
	// Random byte corruption: either rejected, or sampling only touches the block (canaries intact).
	const rt = await L.createRuntime();
	let s = 99, accepted = 0;
	const rnd = (n) => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) % n);
	for (let i = 0; i < 400; i++) {
		const b = block.slice();
		for (let k = 0; k < 1 + rnd(4); k++) b[rnd(i & 1 ? offS + 32 * 64 : b.byteLength)] = rnd(256);
		try { L.validate(b); } catch { continue; }
		accepted++;
		const anim = rt.load(b);
		const before = new Uint8Array(rt.memory.buffer).slice(), lo = anim.ptr, hi = anim.ptr + anim.size;
		for (const t of [-1, 0, 0.3, 0.7, 100, NaN]) anim.sample(t);
		anim.time = 0.5;
		rt.sampleAll();
		// every byte outside the block is as it was, but the group's time in the heap's table and the module's own
		// 4 KB shadow stack (the SIMD build's rotation scratch), which wasm-ld puts just below the first allocation
		// (the heap: nothing else is allocated here)
		const after = new Uint8Array(rt.memory.buffer), time = rt.heapAddress + 32 + 16 * anim.slot + 8;
		before.set(after.subarray(lo, hi), lo);
		before.set(after.subarray(time, time + 4), time);
		before.set(after.subarray(rt.heapAddress - 4096, rt.heapAddress), rt.heapAddress - 4096);
		assert.ok(Buffer.compare(before, after) === 0, 'sampling wrote outside its block');
		anim.unload(); // its space is reused by the next
	}
	assert.ok(accepted > 0);
});

test('malformed glTF inputs give errors naming the problem', () => {
	const { g } = platformer();
	const json = structuredClone(g.json);
	json.accessors[json.animations[0].samplers[0].output].count += 100000;
	assert.throws(() => L.build(json, g.buffers), /accessor \d+: data overruns bufferView/);
	const j2 = structuredClone(g.json);
	j2.animations[0].samplers[0].interpolation = 'BEZIER';
	assert.throws(() => L.build(j2, g.buffers), /interpolation BEZIER unsupported/);
	const j3 = structuredClone(g.json);
	const bv = j3.accessors[j3.animations[0].samplers[0].input].bufferView;
	j3.bufferViews[bv].byteLength = 1e9;
	assert.throws(() => L.build(j3, g.buffers), new RegExp(`bufferView ${bv}: range out of buffer`));
	assert.throws(() => L.build(g.json, []), /buffer 0: no data/);
	assert.throws(() => L.parseGlb(new Uint8Array(30)), /GLB: bad magic/);
});

test('STEP, LINEAR and CUBICSPLINE on hand-made keys, incl. normalized-integer rotations and byteStride', async () => {
	// One buffer: times (3 floats), translation STEP (3 x vec3 float, stride 16), rotation LINEAR (3 x vec4 int16 norm),
	// weights CUBICSPLINE (3 keys x 3 x 2 floats).
	const buf = new ArrayBuffer(12 + 48 + 24 + 72), dv = new DataView(buf);
	[0, 1, 3].forEach((x, i) => dv.setFloat32(4 * i, x, true));
	[[1, 2, 3], [4, 5, 6], [7, 8, 9]].forEach((v, k) => v.forEach((x, c) => dv.setFloat32(12 + 16 * k + 4 * c, x, true)));
	const h = Math.round(Math.SQRT1_2 * 32767);
	[[0, 0, 0, 32767], [0, h, 0, h], [0, 0, -32767, 0]].forEach((v, k) => v.forEach((x, c) => dv.setInt16(60 + 8 * k + 2 * c, x, true)));
	for (let i = 0; i < 18; i++) dv.setFloat32(84 + 4 * i, (i * 0.37) % 1.3 - 0.5, true);
	const json = {
		buffers: [{ byteLength: buf.byteLength }],
		bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 12 }, { buffer: 0, byteOffset: 12, byteLength: 48, byteStride: 16 },
			{ buffer: 0, byteOffset: 60, byteLength: 24 }, { buffer: 0, byteOffset: 84, byteLength: 72 }],
		accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'SCALAR' },
			{ bufferView: 1, componentType: 5126, count: 3, type: 'VEC3' },
			{ bufferView: 2, componentType: 5122, normalized: true, count: 3, type: 'VEC4' },
			{ bufferView: 3, componentType: 5126, count: 18, type: 'SCALAR' }],
		animations: [{ samplers: [{ input: 0, output: 1, interpolation: 'STEP' }, { input: 0, output: 2 },
			{ input: 0, output: 3, interpolation: 'CUBICSPLINE' }],
		channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }, { sampler: 1, target: { node: 0, path: 'rotation' } },
			{ sampler: 2, target: { node: 1, path: 'weights' } }] }],
	};
	const g = { json, buffers: [new Uint8Array(buf)] };
	const refs = referenceChannels(g, 0);
	for (const rt of Object.values(runtimes)) {
		const anim = rt.load(L.build(json, g.buffers));
		assert.deepEqual(anim.channels.map((c) => [c.path, c.interpolation, c.components]),
			[['rotation', 'LINEAR', 4], ['translation', 'STEP', 3], ['weights', 'CUBICSPLINE', 2]]);
		const r = compare(anim, refs, match(anim, refs), testTimes(refs), 'hand-made');
		assert.ok(r.count > 100);
		const { outputs } = anim.sample(0.999);
		assert.deepEqual(Array.from(outputs.subarray(4, 7)), [1, 2, 3], 'STEP holds the previous key until the next');
		assert.deepEqual(Array.from(anim.sample(1).outputs.subarray(4, 7)), [4, 5, 6]);
		assert.deepEqual(Array.from(anim.sample(50).outputs.subarray(4, 7)), [7, 8, 9]);
	}
});

// Issue 34 item 3: a loaded group keeps its channels' descriptors in the wasm heap, read by index (channel(i), channelNode(i),
// channelPath(i), channelOffset(i), channelComponents(i)), not as one JS object per channel: the JS heap a load keeps does not grow
// with its channels. Before: 52 KB for the Godot player's 648 channels, 2.4 MB for the 30,000 of
// bench/web/run.mjs's scene.
test('a loaded group keeps its descriptors in the heap: the same as describe(), and at most 4 KiB of JS heap per load', {
	skip: typeof globalThis.gc !== 'function' && 'run node with --expose-gc',
}, async (t) => {
	const blocks = [];
	for (const file of [path.join(REPO, 'data/godot_platformer_player.glb'), path.join(CORPUS, 'gltf/threejs/RobotExpressive.glb')]) {
		const g = loadGltf(file);
		if (g) blocks.push([path.basename(file), L.build(g.json, g.buffers)]);
	}
	assert.ok(blocks.length >= 1);
	const heap = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
	const LOADS = 16, SLACK = 4096;
	for (const [name, block] of blocks) {
		const rt = await L.createRuntime({ simd: true });
		const d = L.describe(block), first = rt.load(block);
		assert.equal(first.channelCount, d.channels.length);
		assert.deepEqual(first.channels, d.channels);
		for (const c of d.channels) {
			const i = c.index;
			assert.deepEqual([first.channelNode(i), first.channelPath(i), first.channelOffset(i), first.channelComponents(i)], [c.node, c.path, c.offset, c.components]);
		}
		assert.throws(() => first.channelNode(d.channels.length), RangeError);
		assert.throws(() => first.channel(-1), RangeError);
		// the smallest of three measurements (V8's heap after a collection moves by tens of KB now and then); every
		// load stays held until the end, so that no measurement sees another's garbage collected
		let best = Infinity;
		const held = [];
		for (let trial = 0; trial < 3; trial++) {
			const before = heap();
			for (let i = 0; i < LOADS; i++) { const a = rt.load(block); a.sample(0.1); held.push(a); }
			best = Math.min(best, (heap() - before) / LOADS);
		}
		for (const a of held) a.unload();
		t.diagnostic(`${name}: ${d.channels.length} channels, a load keeps ${Math.round(best)} bytes of JS heap`);
		assert.ok(best <= SLACK, `${name}: a load keeps ${Math.round(best)} bytes of JS heap for ${d.channels.length} channels`);
		// the heap moved (later loads grew it): the descriptors read from the new place
		const last = d.channels[d.channels.length - 1];
		assert.deepEqual(first.channel(last.index), last);
	}
});
