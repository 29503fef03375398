// sinew — see include/sinew.h for version and licence
// Tests of the WebAssembly runtime (node --test web/test/). They need only node and the
// committed web/*.wasm, web/test/data and tests/golden files — not the native build.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import Sinew, { SinewError } from '../sinew.mjs';
import { CORPUS, NO_CORPUS } from './corpus.mjs';
import { participation } from './world_reference.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const BUILDS = [{ name: 'baseline', simd: false, kernel: 'scalar' }, { name: 'simd', simd: true, kernel: 'wasm-simd128' }];
const golden = readFileSync(here('data/acl_09_02.sinew')); // (a format-3 blob: truncations and byte flips below)
const goldenPoses = readFileSync(here('../../tests/golden/v1_small.poses'));

// Bit patterns, so -0 vs 0 and NaN payloads count as differences.
const bits = (f32) => new Uint32Array(f32.buffer, f32.byteOffset, f32.length);

function firstMismatch(got, want) {
	const g = bits(got), w = bits(want);
	if (g.length !== w.length) return `length ${g.length} vs ${w.length}`;
	for (let i = 0; i < g.length; i++) {
		if (g[i] !== w[i]) return `float ${i}: ${got[i]} (0x${g[i].toString(16)}) vs ${want[i]} (0x${w[i].toString(16)})`;
	}
	return null;
}

// Expected poses written by web/test/make_vectors.c (native reference kernel).
function readExpect(path) {
	const buf = readFileSync(path);
	const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
	const clips = [];
	for (let o = 0; o < buf.byteLength;) {
		const clip = dv.getUint32(o, true), count = dv.getUint32(o + 4, true), floats = dv.getUint32(o + 8, true);
		o += 12;
		const samples = [];
		for (let i = 0; i < count; i++) {
			const t = dv.getFloat64(o, true);
			const pose = new Float32Array(buf.buffer.slice(buf.byteOffset + o + 8, buf.byteOffset + o + 8 + 4 * floats));
			samples.push({ t, pose });
			o += 8 + 4 * floats;
		}
		clips.push({ clip, floats, samples });
	}
	return clips;
}

// xxHash32 (docs/format.md checksum), to re-seal corrupted blobs so the structure checks run.
function xxh32(bytes, seed = 0) {
	const P1 = 2654435761, P2 = 2246822519, P3 = 3266489917, P4 = 668265263, P5 = 374761393;
	const rotl = (x, r) => ((x << r) | (x >>> (32 - r))) >>> 0;
	const mul = (a, b) => Math.imul(a, b) >>> 0;
	const rd = (i) => (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)) >>> 0;
	const round = (acc, v) => mul(rotl((acc + mul(v, P2)) >>> 0, 13), P1);
	let p = 0, h;
	const n = bytes.length;
	if (n >= 16) {
		let v1 = (seed + P1 + P2) >>> 0, v2 = (seed + P2) >>> 0, v3 = seed >>> 0, v4 = (seed - P1) >>> 0;
		for (; p + 16 <= n; p += 16) {
			v1 = round(v1, rd(p)); v2 = round(v2, rd(p + 4)); v3 = round(v3, rd(p + 8)); v4 = round(v4, rd(p + 12));
		}
		h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) >>> 0;
	} else {
		h = (seed + P5) >>> 0;
	}
	h = (h + n) >>> 0;
	for (; p + 4 <= n; p += 4) h = mul(rotl((h + mul(rd(p), P3)) >>> 0, 17), P4);
	for (; p < n; p++) h = mul(rotl((h + mul(bytes[p], P5)) >>> 0, 11), P1);
	h = mul(h ^ (h >>> 15), P2);
	h = mul(h ^ (h >>> 13), P3);
	return (h ^ (h >>> 16)) >>> 0;
}

function reseal(bytes) {
	new DataView(bytes.buffer, bytes.byteOffset).setUint32(12, xxh32(bytes.subarray(16)), true);
	return bytes;
}

const REJECT_CODES = new Set([11, 12, 20, 21, 22, 23]);

async function expectRejected(bytes, simd, what) {
	try {
		const anim = await Sinew.load(bytes, { simd });
		return anim; // accepted: the caller decides whether that is allowed
	} catch (e) {
		assert.ok(e instanceof SinewError, `${what}: expected a SinewError, got ${e}`); // a trap is a RuntimeError
		assert.ok(REJECT_CODES.has(e.code), `${what}: unexpected code ${e.code} (${e.message})`);
		return null;
	}
}

for (const build of BUILDS) {
	test(`${build.name}: format 1 and 2 blobs are refused with BAD_VERSION, naming the way on (docs/format.md §version)`, async () => {
		// the web decoders read format 3 (size); the native library keeps reading formats 1 and 2 (tests/golden)
		for (const file of ['v1_small.sinew', 'v2_platformer.sinew', 'v2_midpoint_cmu.sinew']) {
			const bytes = readFileSync(here(`../../tests/golden/${file}`));
			await assert.rejects(Sinew.load(bytes, { simd: build.simd }),
				(e) => e instanceof SinewError && e.codeName === 'BAD_VERSION' && /reads format 3.*sinew compress/.test(e.message), file);
		}
	});

	for (const file of readdirSync(here('./data')).filter((f) => f.endsWith('.sinew')).sort()) {
		for (const randomAccess of [false, true]) {
			test(`${build.name}: ${file}${randomAccess ? ' (random access)' : ''} matches the native reference kernel bit for bit`, async () => {
				const blob = readFileSync(here(`./data/${file}`));
				const expect = readExpect(here(`./data/${file.replace(/\.sinew$/, '.expect')}`));
				const anim = await Sinew.load(blob, { simd: build.simd, randomAccess });
				assert.equal(anim.clipCount, expect.length);
				let compared = 0;
				for (const e of expect) {
					const c = anim.clip(e.clip);
					assert.equal(c.jointCount * 10 + c.scalarFloats, e.floats);
					assert.equal(c.kernel, build.kernel);
					for (const s of e.samples) {
						const bad = firstMismatch(anim.sample(e.clip, s.t), s.pose);
						assert.equal(bad, null, `clip ${e.clip} t=${s.t}: ${bad}`);
						compared++;
					}
				}
				assert.ok(compared >= 12);
			});
		}
	}

	test(`${build.name}: every truncation of the golden blob is rejected with an error code`, async () => {
		for (let n = 0; n < golden.byteLength; n += build.simd ? 7 : 1) {
			const anim = await expectRejected(golden.subarray(0, n), build.simd, `truncated to ${n}`);
			assert.equal(anim, null, `truncated to ${n} bytes was accepted`);
		}
	});

	test(`${build.name}: every single-byte change of the golden blob is rejected (checksum or header)`, async () => {
		for (let i = 0; i < golden.byteLength; i += build.simd ? 5 : 1) {
			const bytes = Uint8Array.from(golden);
			bytes[i] ^= 0x5a;
			const anim = await expectRejected(bytes, build.simd, `byte ${i} changed`);
			assert.equal(anim, null, `byte ${i} changed was accepted`);
		}
	});

	test(`${build.name}: corrupted blobs with a recomputed checksum are rejected or sample without trapping`, async () => {
		let rejected = 0, accepted = 0;
		const blob = readFileSync(here('./data/acl_09_02.sinew'));
		let state = 7;
		const rand = (n) => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) % n);
		for (let trial = 0; trial < (build.simd ? 150 : 400); trial++) {
			const bytes = Uint8Array.from(trial % 2 ? blob : golden);
			for (let k = 1 + rand(3); k > 0; k--) bytes[16 + rand(bytes.length - 16)] = rand(256);
			const anim = await expectRejected(reseal(bytes), build.simd, `trial ${trial}`);
			if (!anim) { rejected++; continue; }
			accepted++;
			for (let c = 0; c < anim.clipCount; c++) {
				const info = anim.clip(c);
				for (const t of [-1, 0, 0.013, info.duration / 2, info.duration, 1e9, NaN]) {
					const pose = anim.sample(c, t);
					assert.equal(pose.length, info.jointCount * 10 + info.scalarFloats);
				}
			}
		}
		assert.ok(rejected > 0, 'no corruption was detected');
		assert.equal(rejected + accepted, build.simd ? 150 : 400);
	});

	test(`${build.name}: random bytes, bad magic and empty input are rejected`, async () => {
		await assert.rejects(Sinew.load(new Uint8Array(0), { simd: build.simd }), (e) => e instanceof SinewError && e.code === 11);
		const bad = Uint8Array.from(golden);
		bad[0] = 0x58;
		await assert.rejects(Sinew.load(bad, { simd: build.simd }), (e) => e.code === 20 && /magic/.test(e.message));
		const noise = new Uint8Array(4096).map((_, i) => (i * 2654435761) >>> 24);
		await assert.rejects(Sinew.load(noise, { simd: build.simd }), (e) => e instanceof SinewError);
	});

	test(`${build.name}: no heap growth and no new views over 10,000 sampled frames`, async () => {
		const anim = await Sinew.load(readFileSync(here('./data/godot_platformer_player.sinew')), { simd: build.simd });
		const memory = anim._memory;
		const before = memory.buffer.byteLength;
		const buffer = memory.buffer;
		const first = anim.sample(1, 0);
		let frames = 0;
		for (let i = 0; i < 10000; i++) {
			const clip = i % anim.clipCount;
			const pose = anim.sample(clip, (i * 0.0173) % (anim.clip(clip).duration + 0.2));
			if (clip === 1) assert.equal(pose, first); // the same view every time
			frames++;
		}
		assert.equal(frames, 10000);
		assert.equal(memory.buffer.byteLength, before);
		assert.equal(memory.buffer, buffer); // not grown (growing replaces the ArrayBuffer)
	});

	test(`${build.name}: the JS heap does not grow over 200,000 sampled frames`,
	     { skip: typeof globalThis.gc !== 'function' && 'run node with --expose-gc' }, async () => {
		const anim = await Sinew.load(readFileSync(here('./data/godot_platformer_player.sinew')), { simd: build.simd });
		const durations = Array.from({ length: anim.clipCount }, (_, c) => anim.clip(c).duration);
		const WINDOW = 200000;
		const frames = () => {
			for (let i = 0; i < WINDOW; i++) {
				const clip = i % anim.clipCount;
				anim.sample(clip, (i * 0.0173) % (durations[clip] + 0.2));
			}
		};
		frames(); // let the JIT settle on exactly these calls
		globalThis.gc();
		// V8's heap after a full collection still moves by 60-120 KB now and then (a step that stays, or a
		// swing gone at the next window). Two bounds: the smallest growth of three successive windows (a leak
		// that grows steadily: a third of a byte a frame passes 64 KB in every window), and the growth over all
		// three (a leak into an array grows in steps, when its backing store is reallocated, and may not grow in
		// every window: a byte a frame passes 512 KB over the 600,000 frames, four such swings do not).
		// (Windows of 10,000 frames let 6.4 bytes a frame through.)
		const first = process.memoryUsage().heapUsed;
		let last = first, grown = Infinity;
		for (let w = 0; w < 3; w++) {
			frames();
			globalThis.gc();
			const now = process.memoryUsage().heapUsed;
			grown = Math.min(grown, now - last);
			last = now;
		}
		assert.ok(grown < 64 * 1024, `JS heap grew by ${grown} bytes or more in each of three windows of ${WINDOW} frames`);
		assert.ok(last - first < 512 * 1024, `JS heap grew by ${last - first} bytes over ${3 * WINDOW} frames`);
	});

	test(`${build.name}: the changed bitset never misses a change and flags only outputs the clip animates`, async () => {
		const bytes = readFileSync(here('./data/godot_platformer_player.sinew'));
		const anim = await Sinew.load(bytes, { simd: build.simd });
		const parts = participation(bytes); // (read from the bytes by the world's reference model)
		for (let clip = 0; clip < anim.clipCount; clip++) {
			const info = anim.clip(clip);
			const groups = [];
			for (let j = 0; j < info.jointCount; j++) groups.push([j * 10, 4], [j * 10 + 4, 3], [j * 10 + 7, 3]);
			for (const s of info.scalarTracks) groups.push([info.jointCount * 10 + s.offset, s.components]);
			const bitsOf = (view) => new Uint32Array(Float32Array.from(view).buffer);
			// outputs that never move anywhere in the clip
			const still = groups.map(() => true), reference = bitsOf(anim.sample(clip, 0));
			for (let i = 1; i <= 200; i++) {
				const now = bitsOf(anim.sample(clip, (i * info.duration) / 200));
				groups.forEach(([o, n], g) => { for (let k = 0; k < n; k++) if (now[o + k] !== reference[o + k]) still[g] = false; });
			}
			const fresh = await Sinew.load(readFileSync(here('./data/godot_platformer_player.sinew')), { simd: build.simd });
			let previous = null, lastT = null;
			for (let i = 0; i < 40; i++) {
				const t = i % 5 === 4 ? lastT : (i * info.duration) / 37; // now and then the same time again
				const now = bitsOf(fresh.sample(clip, t));
				const bits = fresh.changed(clip);
				groups.forEach(([o, n], g) => {
					const flagged = ((bits[g >>> 5] >>> (g & 31)) & 1) === 1;
					let moved = previous === null;
					for (let k = 0; !moved && k < n; k++) moved = now[o + k] !== previous[o + k];
					if (moved) assert.ok(flagged, `clip ${clip} frame ${i}: output ${g} changed but is not flagged`);
					// an output that holds still is flagged only when the clip animates it (a track whose knots all quantize
					// to one value holds still; an output at its default or constant throughout is never flagged)
					const sets = g < 3 * info.jointCount ? parts[clip].joints[Math.floor(g / 3)][g % 3] : true;
					if (previous !== null && still[g]) assert.ok(!flagged || sets, `clip ${clip} frame ${i}: constant output ${g} flagged`);
					if (previous !== null && t === lastT) assert.ok(!flagged, `clip ${clip} frame ${i}: same time, output ${g} flagged`);
				});
				previous = now;
				lastT = t;
			}
		}
	});

	test(`${build.name}: serial counts sample() calls (players detect a sample by someone else)`, async () => {
		const anim = await Sinew.load(readFileSync(here('./data/godot_platformer_player.sinew')), { simd: build.simd });
		assert.equal(anim.serial, 0);
		anim.sample(0, 0.1);
		anim.changed(0); // reading the bitset is not a sample
		assert.equal(anim.serial, 1);
		anim.sample(1 % anim.clipCount, 0.1);
		anim.sample(0, 0.1);
		assert.equal(anim.serial, 3);
		assert.throws(() => anim.sample(anim.clipCount, 0), RangeError);
	});

	test(`${build.name}: sample() makes exactly one call into wasm`, async () => {
		const original = WebAssembly.instantiate;
		let calls = 0;
		WebAssembly.instantiate = async (...args) => {
			const result = await original.apply(WebAssembly, args);
			const instance = result instanceof WebAssembly.Instance ? result : result.instance;
			const exports = {};
			for (const [name, value] of Object.entries(instance.exports)) {
				exports[name] = typeof value === 'function' ? (...a) => (calls++, value(...a)) : value;
			}
			return { exports };
		};
		let anim;
		try {
			anim = await Sinew.load(readFileSync(here('./data/cmu_01_01.sinew')), { simd: build.simd });
		} finally {
			WebAssembly.instantiate = original;
		}
		assert.ok(calls >= 3, 'the wrapper did not see the load calls');
		calls = 0;
		for (let i = 0; i < 1000; i++) anim.sample(0, i / 120);
		assert.equal(calls, 1000);
		calls = 0;
		anim.sample(0.5);
		anim.clip(0);
		assert.equal(calls, 1);
	});

	test(`${build.name}: clip descriptions and argument errors`, async () => {
		const anim = await Sinew.load(readFileSync(here('./data/godot_platformer_player.sinew')), { simd: build.simd });
		assert.deepEqual([...Array(anim.clipCount).keys()].map((i) => anim.clip(i).name),
			['falling', 'idle', 'jump', 'RESET', 'run', 'shooting', 'shooting_standing', 'walk']);
		const idle = anim.clip(1);
		assert.equal(idle.jointCount, 28);
		assert.equal(idle.sampleCount, 38);
		assert.equal(idle.sampleRate, 30);
		assert.ok(idle.hasMetadata);
		assert.throws(() => anim.clip(8), RangeError);
		assert.throws(() => anim.sample(8, 0), RangeError);
		// sample(t) is clip 0; times outside [0, duration] clamp to the ends
		const a = Float32Array.from(anim.sample(0, 0)), b = Float32Array.from(anim.sample(-5));
		assert.equal(firstMismatch(a, b), null);
		const end = Float32Array.from(anim.sample(0, anim.clip(0).duration));
		assert.equal(firstMismatch(end, Float32Array.from(anim.sample(0, 1e6))), null);
		anim.dispose();
		assert.throws(() => anim.sample(0, 0), /disposed/);

		const cmu = await Sinew.load(readFileSync(here('./data/cmu_01_01.sinew')), { simd: build.simd });
		const c = cmu.clip(0);
		assert.equal(c.name, null); // compressed with --strip: no metadata
		assert.equal(c.hasMetadata, false);
		assert.equal(c.jointCount, 38);
		assert.equal(c.sampleCount, 2752);
		assert.equal(c.sampleRate, 120);
	});
}

test('the SIMD probe matches the engine and both builds have no imports', async () => {
	assert.equal(typeof Sinew.simdSupported(), 'boolean');
	for (const f of ['../sinew.wasm', '../sinew-simd.wasm']) {
		const module = new WebAssembly.Module(readFileSync(here(f)));
		assert.deepEqual(WebAssembly.Module.imports(module), []);
		assert.deepEqual(WebAssembly.Module.exports(module).map((e) => e.name).sort(),
			['memory', 'sinew_web_alloc', 'sinew_web_changed', 'sinew_web_clip_count', 'sinew_web_clip_info',
				'sinew_web_error', 'sinew_web_load', 'sinew_web_sample']);
		assert.ok(readFileSync(here(f)).byteLength < 32768);
	}
});

// Packed glTF (sinew pack): needs the native CLI to pack; SINEW_CLI names it (CI sets it).
test('loadPacked reads the blob of a packed .glb and .gltf and samples like the plain blob', {
	skip: !process.env.SINEW_CLI && 'SINEW_CLI not set',
}, async () => {
	const { execFileSync } = await import('node:child_process');
	const { mkdtempSync } = await import('node:fs');
	const { tmpdir } = await import('node:os');
	const root = fileURLToPath(new URL('../../', import.meta.url));
	const cli = join(root, process.env.SINEW_CLI);
	const dir = mkdtempSync(join(tmpdir(), 'sinew-packed-'));
	const source = join(root, 'data/godot_platformer_player.glb');
	execFileSync(cli, ['compress', source, '-o', join(dir, 'plain.sinew'), '-q']);
	const plain = await Sinew.load(readFileSync(join(dir, 'plain.sinew')));
	for (const out of ['packed.glb', 'packed.gltf']) {
		execFileSync(cli, ['pack', source, '-o', join(dir, out), '-q']);
		const { json, animation } = await Sinew.loadPacked(readFileSync(join(dir, out)));
		assert.equal(json.animations, undefined);
		assert.ok(json.extensionsUsed.includes('SINEW_compressed_animation'));
		assert.equal(animation.clipCount, plain.clipCount);
		for (let c = 0; c < plain.clipCount; c++) {
			assert.deepEqual(animation.clip(c).joints.map((j) => j.node), plain.clip(c).joints.map((j) => j.node));
			for (const t of [0, 0.1, 0.37, 5]) {
				const a = Float32Array.from(animation.sample(c, t)), b = plain.sample(c, t);
				assert.deepEqual(new Uint32Array(a.buffer), new Uint32Array(Float32Array.from(b).buffer), `${out} clip ${c} t ${t}`);
			}
		}
	}
	await assert.rejects(Sinew.loadPacked(readFileSync(source)), (e) => e.codeName === 'UNSUPPORTED');
	const packed = JSON.parse(new TextDecoder().decode(readFileSync(join(dir, 'packed.gltf'))));
	packed.bufferViews[packed.extensions.SINEW_compressed_animation.bufferView].byteLength = 1e9;
	await assert.rejects(Sinew.loadPacked(new TextEncoder().encode(JSON.stringify(packed))), (e) => e.codeName === 'CORRUPT');
});

// Curves (docs/format.md §curves): glTF curves kept as curves play in both builds as the native CLI samples them, and
// a damaged curve block is refused at load with the error naming it (what the wasm decoder leaves to web/rig.mjs).
test('curve clips play like the native CLI; damaged curve blocks are refused by name', {
	skip: !process.env.SINEW_CLI && 'SINEW_CLI not set',
}, async () => {
	const { execFileSync } = await import('node:child_process');
	const { mkdtempSync, writeFileSync } = await import('node:fs');
	const { tmpdir } = await import('node:os');
	const { curvesGltf } = await import('../../tests/reference/curves_gltf.mjs');
	const { decode } = await import('../../docs/reference_decoder.mjs');
	const root = fileURLToPath(new URL('../../', import.meta.url));
	const cli = join(root, process.env.SINEW_CLI);
	const dir = mkdtempSync(join(tmpdir(), 'sinew-curves-'));
	writeFileSync(join(dir, 'curves.gltf'), JSON.stringify(curvesGltf({ seed: 7 })));
	execFileSync(cli, ['compress', join(dir, 'curves.gltf'), '-o', join(dir, 'c.sinew'), '-q']);
	const bytes = new Uint8Array(readFileSync(join(dir, 'c.sinew')));
	const ref = decode(bytes), curveClips = ref.clips.map((c, i) => (c.curveBlock !== null ? i : -1)).filter((i) => i >= 0);
	assert.ok(curveClips.length >= 2, `curve clips ${curveClips}`);
	for (const simd of [false, true]) {
		const anim = await Sinew.load(bytes, { simd });
		for (const c of curveClips)
			for (const t of [0, 0.05, 0.3331, 0.77, 1.2, 5]) {
				const json = JSON.parse(execFileSync(cli, ['sample', join(dir, 'c.sinew'), '--time', String(t), '--clip', String(c), '--json']));
				const pose = anim.sample(c, t);
				json.joints.forEach((j, k) => {
					const want = Float32Array.from([...j.rotation, ...j.translation, ...j.scale]);
					assert.deepEqual(new Uint32Array(Float32Array.from(pose.subarray(10 * k, 10 * k + 10)).buffer), new Uint32Array(want.buffer),
					                 `${simd ? 'simd' : 'mvp'} clip ${c} t ${t} joint ${k}`);
				});
			}
	}
	// damaged (checksum repaired): a NaN key time, interpolation 3, a reserved width bit
	const { xxh32 } = await import('../../docs/reference_decoder.mjs');
	// (a record without tangents: interpolation 3 keeps its layout, which the wasm decoder checks)
	const block = ref.clips[curveClips[0]].curveBlock, records = ref.clips.flatMap((c) => c.curveRecords);
	const plain = records.find((r) => r.interpolation !== 2).offset;
	for (const [at, value, what] of [[block + 6, [0, 0, 0xc0, 0x7f], 'time'], [plain, [3, 0], 'interpolation'], [plain + 7, [4], 'widths']]) {
		const copy = bytes.slice();
		copy.set(value, at);
		new DataView(copy.buffer).setUint32(12, xxh32(copy, 16, copy.length), true);
		assert.throws(() => decode(copy)); // (the reference decoder refuses it too)
		await assert.rejects(Sinew.load(copy), (e) => e instanceof SinewError && e.codeName === 'CORRUPT' && e.message.includes('curves') &&
		                     e.message.includes(what), what);
	}
});

test('one module, both modes: loadLossless samples the glTF keyframes of the same asset', async () => {
	const glb = readFileSync(fileURLToPath(new URL('../../data/godot_platformer_player.glb', import.meta.url)));
	const anim = await Sinew.loadLossless(new Uint8Array(glb));
	const first = anim.sample(0.25);
	assert.ok(first.outputs instanceof Float32Array && first.outputs.length > 0);
	assert.ok(first.outputs.every(Number.isFinite));
	assert.ok(first.changed instanceof Uint8Array || first.changed instanceof Uint32Array);
});

// KHR_animation_pointer (corpus 24_animation_pointer, packed by the CLI): every material, texture
// transform, camera and light pointer of the source is a scalar track the runtime names
// (scalars[i].pointer), and its sampled value is within the track's precision of the source's own
// LINEAR channel, evaluated here from the glTF accessors (no sinew code), at every sample time and
// sample midpoint.
const pointerSource = CORPUS ? join(CORPUS, 'gltf/blender_io/24_animation_pointer/24_animation_pointer.gltf') : null;
test('pointer tracks of a packed file play the source\'s KHR_animation_pointer channels', {
	skip: (!process.env.SINEW_CLI && 'SINEW_CLI not set') || (!CORPUS && NO_CORPUS),
}, async (t) => {
	assert.ok(existsSync(pointerSource), `the corpus lacks ${pointerSource}`);
	const { execFileSync } = await import('node:child_process');
	const { mkdtempSync } = await import('node:fs');
	const { tmpdir } = await import('node:os');
	const { dirname } = await import('node:path');
	const root = fileURLToPath(new URL('../../', import.meta.url));
	const dir = mkdtempSync(join(tmpdir(), 'sinew-pointer-'));
	execFileSync(join(root, process.env.SINEW_CLI), ['pack', pointerSource, '-o', join(dir, 'p.glb'), '-q']);
	const { animation } = await Sinew.loadPacked(readFileSync(join(dir, 'p.glb')));
	const doc = JSON.parse(readFileSync(pointerSource, 'utf8'));
	const buffers = doc.buffers.map((b) => readFileSync(join(dirname(pointerSource), b.uri)));
	const accessor = (i) => {
		const a = doc.accessors[i], v = doc.bufferViews[a.bufferView], n = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 }[a.type];
		assert.equal(a.componentType, 5126);
		const b = buffers[v.buffer], at = b.byteOffset + (v.byteOffset ?? 0) + (a.byteOffset ?? 0);
		return new Float32Array(b.buffer.slice(at, at + 4 * n * a.count));
	};
	// the source's pointer channels (the later of two channels to one pointer wins, as in sinew)
	const channels = new Map();
	const an = doc.animations[0];
	for (const c of an.channels) {
		const p = c.target.extensions?.KHR_animation_pointer?.pointer;
		if (!p || p.startsWith('/nodes/')) continue;
		const s = an.samplers[c.sampler];
		assert.equal(s.interpolation ?? 'LINEAR', 'LINEAR');
		const times = accessor(s.input), values = accessor(s.output);
		// the contract (README): 1e-4 of the largest magnitude of the curve and the document's value, at least 1e-4
		let rest = doc;
		for (const k of p.slice(1).split('/')) rest = rest?.[k];
		const magnitude = Math.max(1, ...values.map(Math.abs), ...[rest].flat().filter(Number.isFinite).map(Math.abs));
		channels.set(p, { times, values, n: values.length / times.length, precision: 1e-4 * magnitude });
	}
	const evaluate = ({ times, values, n }, t) => {
		let i = 0;
		if (t <= times[0]) return values.slice(0, n);
		if (t >= times[times.length - 1]) return values.slice(values.length - n);
		while (times[i + 1] < t) i++;
		const u = (t - times[i]) / (times[i + 1] - times[i]);
		return Array.from({ length: n }, (_, c) => values[i * n + c] * (1 - u) + values[(i + 1) * n + c] * u);
	};
	const info = animation.clip(0);
	const pointers = info.scalars.map((s, i) => ({ ...s, layout: info.scalarTracks[i] })).filter((s) => s.pointer);
	assert.deepEqual([...new Set(pointers.map((s) => s.pointer))].sort(), [...channels.keys()].sort());
	let worst = 0, checked = 0;
	for (let k = 0; k < 2 * info.sampleCount - 1; k++) {
		const time = Math.min(k / 2 / info.sampleRate, info.duration);
		const pose = animation.sample(0, time);
		for (const s of pointers) {
			const ch = channels.get(s.pointer), want = evaluate(ch, time);
			// the metadata's precision is what the compressor kept to: at most the contract's
			assert.ok(s.precision <= ch.precision * 1.0001, `${s.pointer}: precision ${s.precision} > ${ch.precision}`);
			for (let c = 0; c < s.layout.components; c++) {
				const got = pose[info.jointCount * 10 + s.layout.offset + c];
				const ratio = Math.abs(got - want[s.target + c]) / ch.precision;
				worst = Math.max(worst, ratio);
				checked++;
				assert.ok(ratio <= 1.0001, `${s.pointer}[${s.target + c}] at ${time}: ${got} vs ${want[s.target + c]} (precision ${ch.precision})`);
			}
		}
	}
	assert.ok(checked > 40000 && worst > 0.5, `${checked} values, worst ${worst} of the precision`);
	t.diagnostic(`${pointers.length} pointer tracks, ${checked} values, worst ${worst.toFixed(4)} of the precision`);
});

// Issue 34 item 3: once a blob is loaded, its names and tables stay in the wasm heap (the blob's copy) or in
// typed arrays (web/rig.mjs); the per-node objects are built only when clip(c).joints / .scalars is read.
// The JS heap each load keeps, over LOADS loads (each sampling every clip) held at once, is at most the blob's
// size plus 16 KiB (the instance's wrappers, one object per clip, the rig's typed arrays). Before: 50.6 KB for
// RobotExpressive's 26,040-byte blob in Sinew.load, 47.8 KB in a world; 21.2 / 21.5 KB for acl_09_02's 5,876.
test('the JS heap a loaded blob keeps is at most its size plus 16 KiB (Sinew.load and a world): names and tables stay in the heap', {
	skip: typeof globalThis.gc !== 'function' && 'run node with --expose-gc',
}, async (t) => {
	const { createWorld } = await import('../world.mjs');
	const blobs = readdirSync(here('data')).filter((f) => f.endsWith('.sinew')).map((f) => [f, new Uint8Array(readFileSync(here(`data/${f}`)))]);
	if (process.env.SINEW_CLI && CORPUS) { // the measurement: RobotExpressive (14 clips, 72 nodes, morph weights)
		const { execFileSync } = await import('node:child_process');
		const { mkdtempSync, rmSync } = await import('node:fs');
		const { tmpdir } = await import('node:os');
		const src = join(CORPUS, 'gltf/threejs/RobotExpressive.glb'), dir = mkdtempSync(join(tmpdir(), 'sinew-heap-'));
		assert.ok(existsSync(src), `the corpus lacks ${src}`);
		execFileSync(join(fileURLToPath(new URL('../../', import.meta.url)), process.env.SINEW_CLI), ['compress', src, '-o', join(dir, 'r.sinew'), '-q']);
		blobs.push(['RobotExpressive', new Uint8Array(readFileSync(join(dir, 'r.sinew')))]);
		rmSync(dir, { recursive: true, force: true });
	} else t.diagnostic(`RobotExpressive not measured: ${process.env.SINEW_CLI ? NO_CORPUS : 'SINEW_CLI not set'}`);
	const LOADS = 32, SLACK = 16 * 1024;
	const heap = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
	// the smallest of three measurements (V8's heap after a collection moves by tens of KB now and then)
	const kept = async (loadOne) => {
		let best = Infinity;
		for (let trial = 0; trial < 3; trial++) {
			const held = [];
			const before = heap();
			for (let i = 0; i < LOADS; i++) held.push(await loadOne());
			best = Math.min(best, (heap() - before) / LOADS);
			held.length = 0;
		}
		return best;
	};
	for (const [name, bytes] of blobs) {
		const anim = await Sinew.load(bytes); // (the module compiled, the JIT warm)
		const single = await kept(async () => {
			const a = await Sinew.load(bytes);
			for (let c = 0; c < a.clipCount; c++) { a.clip(c); a.sample(c, 0.1); }
			return a;
		});
		const world = await createWorld();
		world.load(bytes);
		const inWorld = await kept(async () => world.load(bytes));
		t.diagnostic(`${name}: ${bytes.length} bytes, Sinew.load keeps ${Math.round(single)} bytes of JS heap, a world ${Math.round(inWorld)}`);
		assert.ok(single <= bytes.length + SLACK, `${name}: Sinew.load keeps ${Math.round(single)} bytes of JS heap for a ${bytes.length}-byte blob`);
		assert.ok(inWorld <= bytes.length + SLACK, `${name}: world.load keeps ${Math.round(inWorld)} bytes of JS heap for a ${bytes.length}-byte blob`);
		// what stays in the heap reads as the objects did
		const rig = anim.rig, joints = anim.clip(0).joints;
		if (joints) for (let j = 0; j < rig.nodeCount; j++) {
			assert.equal(rig.jointName(j), joints[j].name);
			assert.equal(rig.nodes[j], joints[j].node ?? -1);
			assert.deepEqual(Array.from(rig.restPose.subarray(10 * j, 10 * j + 4)), joints[j].defaultRotation);
		}
		assert.equal(anim.clip(0).joints, anim.clip(anim.clipCount - 1).joints, 'one array for every clip of the rig');
	}
});
