// sinew — see include/sinew.h for version and licence
// Tests of the world runtime (web/world.mjs, web/sinew-world[-simd].wasm) against the independent
// JS model of its semantics in world_reference.mjs, on the real clips of web/test/data (and, with
// SINEW_CLI set and the corpus present, RobotExpressive's morph weights and Fox).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import Sinew, { SinewError } from '../sinew.mjs';
import { createWorld, restoreWorld, LayerEvent } from '../world.mjs';
import { RefLayer, participation, refAdvance, refBlend } from './world_reference.mjs';
import { CLI, CORPUS, NO_CLI, NO_CORPUS } from './corpus.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const BUILDS = [{ name: 'baseline', simd: false }, { name: 'simd', simd: true }];
const GODOT = new Uint8Array(readFileSync(here('./data/godot_platformer_player.sinew')));
const CMU = new Uint8Array(readFileSync(here('./data/cmu_01_01.sinew')));
const ACL = new Uint8Array(readFileSync(here('./data/acl_09_02.sinew')));
const F = 10;
function fnvOf(bytes) { let h = 0x811c9dc5; for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0; return h; }
// The single-clip decoder for the reference, with the clips' participation attached.
async function refAnim(bytes) {
	const anim = await Sinew.load(bytes);
	anim.part = participation(bytes);
	return anim;
}

// Largest difference, relative to the magnitude for big values (cm-scale mocap translations).
function maxDiff(got, want) {
	assert.equal(got.length, want.length);
	let worst = 0, at = -1;
	for (let i = 0; i < got.length; i++) {
		const d = Math.abs(got[i] - want[i]) / Math.max(1, Math.abs(want[i]));
		if (!(d <= worst)) { worst = d; at = i; }
	}
	return { worst, at };
}
function assertClose(got, want, tol, what) {
	const { worst, at } = maxDiff(got, want);
	assert.ok(worst <= tol, `${what}: float ${at} differs by ${worst} (${got[at]} vs ${want[at]}), tolerance ${tol}`);
	return worst;
}
// Quaternions q and -q are the same rotation: compare with the sign of the reference.
function aligned(pose, ref, joints) {
	const out = Float64Array.from(pose);
	for (let j = 0; j < joints; j++) {
		const o = j * F;
		if (out[o] * ref[o] + out[o + 1] * ref[o + 1] + out[o + 2] * ref[o + 2] + out[o + 3] * ref[o + 3] < 0) for (let k = 0; k < 4; k++) out[o + k] = -out[o + k];
	}
	return out;
}
const TOL = 2e-5; // float32 blending in wasm vs float64 in the reference

// Counts calls into the wasm exports of every instance created through WebAssembly.instantiate.
async function counted(fn) {
	const original = WebAssembly.instantiate;
	const counter = { calls: 0 };
	WebAssembly.instantiate = async (...args) => {
		const result = await original.apply(WebAssembly, args);
		const instance = result instanceof WebAssembly.Instance ? result : result.instance;
		const exports = {};
		for (const [name, value] of Object.entries(instance.exports)) {
			exports[name] = typeof value === 'function' ? (...a) => (counter.calls++, value(...a)) : value;
		}
		return { exports };
	};
	try { counter.value = await fn(); } finally { WebAssembly.instantiate = original; }
	return counter;
}

// Drives a world player and the reference side by side: `setup` gets (layerApi, refLayers) pairs.
function compareFrames(world, player, refs, rest, frames, dt, label, each) {
	let worst = 0;
	for (let f = 0; f < frames; f++) {
		const step = typeof dt === 'function' ? dt(f) : dt;
		each?.(f);
		world.update(step);
		for (const r of refs) refAdvance(r, step);
		player.layers.forEach((l, k) => {
			const r = refs[k];
			if (!r) return;
			assert.ok(Math.abs(l.time - r.time) < 1e-9, `${label} frame ${f} layer ${k}: time ${l.time} vs ${r.time}`);
			assert.equal(l.weight, r.weight, `${label} frame ${f} layer ${k}: weight`);
			assert.equal(l.enabled, r.enabled, `${label} frame ${f} layer ${k}: enabled`);
			assert.equal((l.events & LayerEvent.LOOP) !== 0, r.events.loop > 0, `${label} frame ${f} layer ${k}: loop event`);
			if (r.events.loop) assert.equal(l.loops, r.events.loop, `${label} frame ${f} layer ${k}: loops`);
			assert.equal((l.events & LayerEvent.FINISHED) !== 0, r.events.finished, `${label} frame ${f} layer ${k}: finished event`);
			assert.equal((l.events & LayerEvent.FADED_OUT) !== 0, r.events.fadedOut, `${label} frame ${f} layer ${k}: faded-out event`);
		});
		const want = refBlend(player.jointCount, player.scalarFloats, rest, refs);
		worst = Math.max(worst, assertClose(aligned(player.pose, want, player.jointCount), want, TOL, `${label} frame ${f}`));
	}
	return worst;
}

for (const build of BUILDS) {
	test(`${build.name}: one layer at weight 1 is the clip's own sample, every clip of three blobs`, async () => {
		const world = await createWorld({ simd: build.simd });
		for (const bytes of [GODOT, CMU, ACL]) {
			const blob = world.load(bytes);
			const anim = await Sinew.load(bytes, { simd: build.simd });
			const parts = participation(bytes);
			for (const clip of blob.clips) {
				const p = world.addPlayer({ clip, layers: 1 });
				p.layer(0).play(clip, { loop: 'once', speed: 0 });
				const part = parts[clip.index];
				for (const t of [0, clip.duration * 0.37, clip.duration / 3, clip.duration]) {
					p.layer(0).time = t;
					world.update(0);
					const want = anim.sample(clip.index, t);
					const pose = aligned(p.pose, want, clip.jointCount);
					for (let i = 0; i < want.length; i++) {
						const j = Math.floor(i / F), k = i % F, joint = i < clip.jointCount * F;
						const sets = joint ? part.joints[j][k < 4 ? 0 : k < 7 ? 1 : 2] : part.scalars[i - clip.jointCount * F];
						// the clip's own values, bit for bit, where it sets the sub-track (a layer playing alone is
						// copied, not blended); elsewhere the rest pose, i.e. the metadata default the blob also
						// stores (to float rounding)
						const tol = sets ? 0 : 1e-6 * Math.max(1, Math.abs(want[i]));
						assert.ok(Math.abs(pose[i] - want[i]) <= tol, `clip ${clip.name} t ${t} float ${i}: ${pose[i]} vs ${want[i]}`);
					}
				}
			}
		}
		assert.equal(world.blobs.length, 3);
	});

	test(`${build.name}: crossfade idle -> walk -> run, weights ramp linearly inside update(), faded layers stop`, async () => {
		const world = await createWorld({ simd: build.simd });
		const blob = world.load(GODOT);
		const anim = await refAnim(GODOT);
		const [idle, walk, run] = ['idle', 'walk', 'run'].map((n) => blob.clip(n));
		const p = world.addPlayer({ clip: idle, layers: 3 });
		const rest = Float64Array.from(p.rest);
		p.layer(0).play(idle, { loop: 'repeat', time: 0.2 });
		p.layer(1).play(walk, { loop: 'repeat', weight: 0, time: 0.5, speed: 1.25 });
		p.layer(2).play(run, { loop: 'repeat', weight: 0 });
		const refs = [new RefLayer(anim, idle.index, { loop: 'repeat', time: 0.2 }),
			new RefLayer(anim, walk.index, { loop: 'repeat', weight: 0, time: 0.5, speed: 1.25 }),
			new RefLayer(anim, run.index, { loop: 'repeat', weight: 0 })];
		const worst = compareFrames(world, p, refs, rest, 150, 1 / 60, 'crossfade', (f) => {
			if (f === 10) { p.layer(0).fadeTo(0, 0.5, { stop: true }); p.layer(1).fadeTo(1, 0.5); refs[0].fadeTo(0, 0.5, true); refs[1].fadeTo(1, 0.5); }
			if (f === 70) { p.layer(1).fadeTo(0, 0.25, { stop: true }); p.layer(2).fadeTo(1, 0.25); refs[1].fadeTo(0, 0.25, true); refs[2].fadeTo(1, 0.25); }
			if (f === 25) { // halfway through the first fade: both weights strictly between 0 and 1
				assert.ok(p.layer(0).weight > 0.3 && p.layer(0).weight < 0.7, `weight ${p.layer(0).weight}`);
				assert.ok(Math.abs(p.layer(0).weight + p.layer(1).weight - 1) < 1e-6);
			}
		});
		assert.equal(p.layer(0).enabled, false);
		assert.equal(p.layer(1).enabled, false);
		assert.equal(p.layer(2).weight, 1);
		// the blend differs from both inputs mid-fade (a test that cannot fail otherwise would pass here)
		assert.ok(worst <= TOL);
	});

	test(`${build.name}: loop modes once / repeat / ping-pong, negative speeds and long frames`, async () => {
		const world = await createWorld({ simd: build.simd });
		const blob = world.load(GODOT);
		const anim = await refAnim(GODOT);
		const walk = blob.clip('walk'), jump = blob.clip('jump');
		const p = world.addPlayer({ clip: walk, layers: 3 });
		const rest = Float64Array.from(p.rest);
		const cases = [
			{ clip: walk, loop: 'repeat', speed: 1.7 },
			{ clip: jump, loop: 'pingpong', speed: -0.9, time: 0.1, weight: 0.6 },
			{ clip: walk, loop: 'once', speed: 1, weight: 0.5 },
		];
		const refs = cases.map((c, k) => {
			p.layer(k).play(c.clip, c);
			return new RefLayer(anim, c.clip.index, c);
		});
		// uneven frame lengths, some longer than a clip (several loops in one frame)
		const dts = [1 / 60, 1 / 30, 0.7, 1 / 144, 1.9, 0.05];
		compareFrames(world, p, refs, rest, 120, (f) => dts[f % dts.length], 'loops');
		assert.equal(p.layer(2).paused, true, 'once layer paused at its end');
		assert.equal(p.layer(2).time, walk.duration);
		// ping-pong really turned: both directions were seen
		const seen = new Set();
		for (let f = 0; f < 40; f++) { world.update(0.05); seen.add(p.layer(1).reversed); }
		assert.deepEqual([...seen].sort(), [false, true]);
		// once, backwards: finishes at 0
		p.layer(2).play(walk, { loop: 'once', speed: -2, time: 0.3 });
		world.update(0.1); assert.equal(p.layer(2).events & LayerEvent.FINISHED, 0);
		world.update(0.1); assert.ok(p.layer(2).events & LayerEvent.FINISHED); assert.equal(p.layer(2).time, 0);
	});

	test(`${build.name}: finite repetitions (repeat, ping-pong, both directions) and warps, against the reference`, async () => {
		const world = await createWorld({ simd: build.simd });
		const blob = world.load(GODOT);
		const anim = await refAnim(GODOT);
		const walk = blob.clip('walk'), jump = blob.clip('jump'), idle = blob.clip('idle');
		const p = world.addPlayer({ clip: walk, layers: 4 });
		const rest = Float64Array.from(p.rest);
		const cases = [
			{ clip: walk, loop: 'repeat', speed: 1.7, repetitions: 3, weight: 0.8 },
			{ clip: jump, loop: 'pingpong', speed: -0.9, time: 0.1, weight: 0.6, repetitions: 4 },
			{ clip: idle, loop: 'pingpong', speed: 1.2, weight: 0.4, repetitions: 3, stopAtEnd: true },
			{ clip: walk, loop: 'repeat', speed: -1.1, time: 0, weight: 0.3, repetitions: 2 },
		];
		const refs = cases.map((c, k) => { p.layer(k).play(c.clip, c); return new RefLayer(anim, c.clip.index, c); });
		cases.forEach((c, k) => { p.layer(k).repetitions = c.repetitions; });
		assert.equal(p.layer(0).repetitions, 3);
		assert.equal(p.layer(0).loopCount, -1);
		const finished = new Array(cases.length).fill(-1);
		const dts = [1 / 60, 1 / 30, 0.21, 1 / 144, 0.05];
		compareFrames(world, p, refs, rest, 400, (f) => dts[f % dts.length], 'repetitions', (f) => {
			p.layers.forEach((l, k) => {
				assert.equal(l.loopCount, refs[k].loopCount, `frame ${f} layer ${k}: loopCount`);
				if (l.events & LayerEvent.FINISHED) { assert.equal(finished[k], -1, `layer ${k} finished twice`); finished[k] = f; }
			});
			if (f === 20) { p.layer(0).warp(1.7, 0.4, 0.8); refs[0].warpTo(1.7, 0.4, 0.8); }
			if (f === 30) { p.layer(1).warp(-0.9, -2.5, 0.3); refs[1].warpTo(-0.9, -2.5, 0.3); }
		});
		assert.ok(finished.every((f) => f > 0), `every layer finished: ${finished}`);
		assert.equal(p.layer(0).time, walk.duration, 'repeat forwards ends at the end');
		assert.equal(p.layer(3).time, 0, 'repeat backwards ends at 0');
		assert.equal(p.layer(2).enabled, false, 'stopAtEnd dropped the finished ping-pong layer');
		assert.equal(p.layer(0).speed, Math.fround(0.4), 'the warp ended at its target');
		assert.equal(p.layer(0).warping, false);
		// a warp's end is reported; setting the speed cancels a warp
		p.layer(0).play(walk, { loop: 'repeat', restart: true }); p.layer(0).repetitions = Infinity;
		p.layer(0).warp(1, 2, 0.1);
		world.update(0.05); assert.equal(p.layer(0).events & LayerEvent.WARP_DONE, 0); assert.ok(p.layer(0).speed > 1 && p.layer(0).speed < 2);
		world.update(0.06); assert.ok(p.layer(0).events & LayerEvent.WARP_DONE); assert.equal(p.layer(0).speed, 2);
		p.layer(0).warp(2, 0.5, 1); p.layer(0).speed = 1; world.update(0.1); assert.equal(p.layer(0).speed, 1);
		assert.throws(() => { p.layer(0).repetitions = 0; }, RangeError);
	});

	test(`${build.name}: matrix outputs equal matrices composed from the blended local poses in JS (float64), within 2e-6 relative`, async () => {
		const world = await createWorld({ simd: build.simd });
		const blob = world.load(GODOT);
		const walk = blob.clip('walk'), run = blob.clip('run');
		const players = [0, 1, 2].map((i) => {
			const p = world.addPlayer({ clip: walk, layers: 2 });
			p.layer(0).play(walk, { loop: 'repeat', time: 0.3 * i });
			p.layer(1).play(run, { loop: 'repeat', weight: 0.4 + 0.2 * i, time: 0.1 * i });
			return p;
		});
		const J = walk.jointCount;
		const parents = walk.joints.map((j) => j.parent < 0 ? -1 : j.parent);
		// a skin over a permutation of the joints with arbitrary inverse bind matrices
		const bones = Array.from({ length: J }, (_, k) => (k * 7) % J);
		const inverses = new Float32Array(16 * J).map((_, i) => (i % 16 === 15 ? 1 : (i % 16) % 4 === 3 ? 0 : Math.sin(i * 0.37)));
		const inverted = [0, J - 1, 3]; // joints whose world matrix is also wanted inverted
		players[0].setMatrices({ parents, skins: [{ joints: bones, inverses, capacity: 16 * J + 64 }], inverses: inverted });
		assert.throws(() => players[2].setMatrices({ parents, inverses: [J] }), RangeError);
		players[1].setMatrices({ parents: parents.map((q, j) => (q < 0 ? -2 : q)), anchors: 2 });
		assert.throws(() => players[2].setMatrices({ parents: parents.map((q, j) => (j === 0 ? 3 : q)) }), RangeError); // a cycle
		assert.equal(players[2].hasMatrices, false);
		assert.throws(() => players[0].setMatrices({ parents }), Error);
		// anchor 1 of player 1 places the character
		const anchor = [2, 0, 0, 0, 0, 0, 2, 0, 0, -2, 0, 0, 1.5, -3, 4, 1];
		const compose = (v, o) => {
			const [x, y, z, w] = [v[o], v[o + 1], v[o + 2], v[o + 3]], [sx, sy, sz] = [v[o + 7], v[o + 8], v[o + 9]];
			const x2 = x + x, y2 = y + y, z2 = z + z, xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2, wx = w * x2, wy = w * y2, wz = w * z2;
			return [(1 - (yy + zz)) * sx, (xy + wz) * sx, (xz - wy) * sx, 0, (xy - wz) * sy, (1 - (xx + zz)) * sy, (yz + wx) * sy, 0,
				(xz + wy) * sz, (yz - wx) * sz, (1 - (xx + yy)) * sz, 0, v[o + 4], v[o + 5], v[o + 6], 1];
		};
		const mul = (a, b) => Array.from({ length: 16 }, (_, i) => { const c = i & ~3, r = i & 3; return a[r] * b[c] + a[4 + r] * b[c + 1] + a[8 + r] * b[c + 2] + a[12 + r] * b[c + 3]; });
		let worst = 0;
		for (let f = 0; f < 60; f++) {
			players[1].anchorMatrix(1).set(anchor);
			world.update(1 / 30);
			for (const [k, anc] of [[0, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]], [1, anchor]]) {
				const p = players[k], pose = p.pose, got = p.worldMatrices;
				const want = [];
				const worldOf = (j) => want[j] ?? (want[j] = mul(parents[j] < 0 ? anc : worldOf(parents[j]), compose(pose, 10 * j)));
				for (let j = 0; j < J; j++) {
					const w = worldOf(j);
					for (let i = 0; i < 16; i++) {
						const d = Math.abs(got[16 * j + i] - w[i]) / Math.max(1, Math.abs(w[i]));
						assert.ok(d <= 2e-6, `player ${k} frame ${f} joint ${j} element ${i}: ${got[16 * j + i]} vs ${w[i]}`);
						worst = Math.max(worst, d);
					}
				}
				if (k === 0) {
					const skin = p.skinMatrices(0);
					assert.equal(skin.length, 16 * J + 64);
					for (let b = 0; b < J; b++) {
						const w = mul(worldOf(bones[b]), Array.from(inverses.subarray(16 * b, 16 * b + 16)));
						for (let i = 0; i < 16; i++) assert.ok(Math.abs(skin[16 * b + i] - w[i]) / Math.max(1, Math.abs(w[i])) <= 2e-6, `skin bone ${b} element ${i}`);
					}
					// inverted joints: inverse * (float64 world) is the identity
					const inv = p.inverseMatrices;
					assert.equal(inv.length, 16 * inverted.length);
					inverted.forEach((j, k) => {
						const e = mul(Array.from(inv.subarray(16 * k, 16 * k + 16)), worldOf(j));
						let size = 1;
						for (let i = 0; i < 16; i++) size = Math.max(size, Math.abs(worldOf(j)[i]));
						for (let i = 0; i < 16; i++) assert.ok(Math.abs(e[i] - (i % 5 === 0 ? 1 : 0)) <= 4e-6 * size, `inverse of joint ${j} element ${i}: ${e[i]}`);
					});
				}
			}
		}
		assert.ok(worst > 0, 'float32 matrices differ from float64 somewhere (the comparison is live)');
		// a restored world (same build) keeps computing them
		const again = await restoreWorld(world.save(), { simd: build.simd });
		again.update(1 / 30); world.update(1 / 30);
		assert.deepEqual(Array.from(again.players[0].skinMatrices(0)), Array.from(players[0].skinMatrices(0)));
		assert.deepEqual(Array.from(again.players[1].worldMatrices), Array.from(players[1].worldMatrices));
		assert.deepEqual(Array.from(again.players[0].inverseMatrices), Array.from(players[0].inverseMatrices));
	});

	test(`${build.name}: ranges (from/to) in every loop mode; stopAtEnd drops a finished layer in the same frame`, async () => {
		const world = await createWorld({ simd: build.simd });
		const blob = world.load(GODOT);
		const anim = await refAnim(GODOT);
		const walk = blob.clip('walk'), idle = blob.clip('idle');
		const p = world.addPlayer({ clip: walk, layers: 3 });
		const rest = Float64Array.from(p.rest);
		const cases = [
			{ clip: walk, loop: 'repeat', range: [0.2, 0.7], time: 0.3, speed: 1.3 },
			{ clip: idle, loop: 'pingpong', range: [0.1, 0.9], weight: 0.5, time: 0.5 },
			{ clip: idle, loop: 'once', range: [0.5, 1.0], weight: 0.7, time: 0.5, stopAtEnd: true },
		];
		const refs = cases.map((c, k) => { p.layer(k).play(c.clip, c); return new RefLayer(anim, c.clip.index, c); });
		let sawEnd = false;
		compareFrames(world, p, refs, rest, 100, (f) => (f % 7 === 3 ? 0.4 : 1 / 60), 'ranges', () => {
			const t0 = p.layer(0).time; assert.ok(t0 >= 0.2 - 1e-6 && t0 <= 0.7 + 1e-6, `range: time ${t0}`);
			if (!p.layer(2).enabled) sawEnd = true;
		});
		assert.ok(sawEnd, 'the once layer with stopAtEnd was disabled');
		assert.ok(p.layer(2).time <= 1.0 + 1e-6);
	});

	test(`${build.name}: per-joint masks (upper body over lower body, fractional weights)`, async () => {
		const world = await createWorld({ simd: build.simd });
		const blob = world.load(GODOT);
		const anim = await refAnim(GODOT);
		const run = blob.clip('run'), shoot = blob.clip('shooting');
		const p = world.addPlayer({ clip: run, layers: 2 });
		const rest = Float64Array.from(p.rest);
		const J = p.jointCount;
		// mask: the second half of the skeleton fully, the first quarter at 0.3, others 0
		const mask = new Float32Array(J).map((_, j) => (j >= J / 2 ? 1 : j < J / 4 ? 0.3 : 0));
		p.layer(0).play(run, { loop: 'repeat' });
		p.layer(1).play(shoot, { loop: 'repeat', mask });
		const refs = [new RefLayer(anim, run.index, { loop: 'repeat' }), new RefLayer(anim, shoot.index, { loop: 'repeat', mask })];
		compareFrames(world, p, refs, rest, 40, 1 / 60, 'mask');
		// joints with mask 0 hold exactly the run pose (renormalization aside)
		const only = anim.sample(run.index, p.layer(0).time);
		for (let j = Math.ceil(J / 4); j < J / 2; j++) for (let k = 4; k < F; k++) assert.equal(p.pose[j * F + k], only[j * F + k]);
		// masked by weight 1 at full weight: the shooting layer's own values are averaged 50/50 with run
		p.layer(1).mask = null;
		refs[1].mask = null;
		compareFrames(world, p, refs, rest, 5, 1 / 60, 'mask removed');
	});

	test(`${build.name}: additive layers against the clip's first sample and against the bind pose`, async () => {
		const world = await createWorld({ simd: build.simd });
		const blob = world.load(GODOT);
		const anim = await refAnim(GODOT);
		const idle = blob.clip('idle'), shoot = blob.clip('shooting_standing'), walk = blob.clip('walk');
		const p = world.addPlayer({ clip: idle, layers: 3 });
		const rest = Float64Array.from(p.rest);
		const J = p.jointCount;
		const mask = new Float32Array(J).map((_, j) => (j % 3 === 0 ? 0 : 1));
		p.layer(0).play(idle, { loop: 'repeat' });
		p.layer(1).play(shoot, { loop: 'repeat', additive: 'first', weight: 0.8 });
		p.layer(2).play(walk, { loop: 'pingpong', additive: 'bind', weight: 0.35, mask });
		const refs = [new RefLayer(anim, idle.index, { loop: 'repeat' }),
			new RefLayer(anim, shoot.index, { loop: 'repeat', additive: 'first', weight: 0.8 }),
			new RefLayer(anim, walk.index, { loop: 'pingpong', additive: 'bind', weight: 0.35, mask })];
		compareFrames(world, p, refs, rest, 60, 1 / 50, 'additive');
		// additive 'first' at the clip's first sample adds nothing
		p.layer(2).enabled = false; refs[2].enabled = false;
		p.layer(1).time = 0; p.layer(1).paused = true;
		world.update(0);
		const base = anim.sample(idle.index, p.layer(0).time);
		const got = aligned(p.pose, base, J);
		for (let i = 0; i < J * F; i++) assert.ok(Math.abs(got[i] - base[i]) < 1e-5 * Math.max(1, Math.abs(base[i])), `additive at its reference moved float ${i}`);
	});

	test(`${build.name}: total weight below 1 fills from the rest pose; rotations are sign-aligned (rest given as -q)`, async () => {
		const world = await createWorld({ simd: build.simd });
		const blob = world.load(GODOT);
		const anim = await refAnim(GODOT);
		const walk = blob.clip('walk'), run = blob.clip('run');
		const rest = walk.restPose();
		for (let j = 0; j < walk.jointCount; j++) for (let k = 0; k < 4; k++) rest[j * F + k] = -rest[j * F + k]; // same rotations
		const p = world.addPlayer({ clip: walk, layers: 2, rest });
		p.layer(0).play(walk, { loop: 'repeat', weight: 0.3 });
		p.layer(1).play(run, { loop: 'repeat', weight: 0.25, time: 0.4 });
		const refs = [new RefLayer(anim, walk.index, { loop: 'repeat', weight: 0.3 }), new RefLayer(anim, run.index, { loop: 'repeat', weight: 0.25, time: 0.4 })];
		compareFrames(world, p, refs, Float64Array.from(rest), 30, 1 / 60, 'rest fill');
	});

	test(`${build.name}: clip.participation can be overwritten (what adapters do from the glTF channels)`, async () => {
		const world = await createWorld({ simd: build.simd });
		const blob = world.load(GODOT);
		const anim = await refAnim(GODOT);
		const idle = blob.clip('idle'), run = blob.clip('run');
		const p = world.addPlayer({ clip: idle, layers: 2 });
		const rest = Float64Array.from(p.rest);
		// idle now also blends every translation and scale; run only rotations
		const pi = idle.participation, pr = run.participation;
		for (let j = 0; j < idle.jointCount; j++) { pi[j] |= 6; pr[j] &= 1; }
		const part = (c) => ({ joints: Array.from({ length: c.jointCount }, (_, j) => [0, 1, 2].map((k) => ((c.participation[j] >> k) & 1) === 1)), scalars: [] });
		p.layer(0).play(idle, { loop: 'repeat', weight: 0.7 });
		p.layer(1).play(run, { loop: 'repeat', weight: 0.6 });
		const refs = [new RefLayer(anim, idle.index, { loop: 'repeat', weight: 0.7, part: part(idle) }), new RefLayer(anim, run.index, { loop: 'repeat', weight: 0.6, part: part(run) })];
		compareFrames(world, p, refs, rest, 20, 1 / 60, 'participation override');
	});

	test(`${build.name}: players map clips by glTF node (another joint order); weight below 1 fills from the rest pose`, async () => {
		const world = await createWorld({ simd: build.simd });
		const blob = world.load(GODOT);
		const anim = await Sinew.load(GODOT);
		const walk = blob.clip('walk'), J = walk.jointCount;
		const nodes = walk.joints.map((j) => j.node).reverse();
		const clipRest = walk.restPose(), rest = new Float32Array(J * F);
		for (let j = 0; j < J; j++) rest.set(clipRest.subarray(j * F, j * F + F), (J - 1 - j) * F);
		const p = world.addPlayer({ nodes, layers: 1, rest });
		p.layer(0).play(walk, { loop: 'repeat', time: 0.4, speed: 0 });
		world.update(0);
		const want = anim.sample(walk.index, 0.4);
		const part = participation(GODOT)[walk.index];
		for (let j = 0; j < J; j++) for (let k = 4; k < F; k++) {
			const sets = part.joints[j][k < 7 ? 1 : 2];
			assert.equal(p.pose[(J - 1 - j) * F + k], sets ? want[j * F + k] : rest[(J - 1 - j) * F + k]);
		}
		// weight 0.25: the rest of the weight is the rest pose
		p.layer(0).weight = 0.25;
		world.update(0);
		let checked = 0;
		for (let j = 0; j < J; j++) for (let k = 4; k < 7; k++) {
			if (!part.joints[j][1]) continue;
			const m = (J - 1 - j) * F + k;
			assert.ok(Math.abs(p.pose[m] - (0.25 * want[j * F + k] + 0.75 * rest[m])) < 1e-6);
			checked++;
		}
		assert.ok(checked > 0);
	});

	test(`${build.name}: a bad blob throws SinewError and leaves memory, blobs and players exactly as they were`, async () => {
		const world = await createWorld({ simd: build.simd });
		const blob = world.load(GODOT);
		const p = world.addPlayer({ clip: blob.clip(1), layers: 2 });
		p.layer(0).play(blob.clip(1), { loop: 'repeat' });
		p.layer(1).play(blob.clip(4), { loop: 'repeat', weight: 0.5 });
		world.update(0.3);
		const bad = [GODOT.subarray(0, 10), GODOT.subarray(0, GODOT.length - 1), new Uint8Array(64)];
		for (const at of [0, 5, 13, 40, 200, 1000, GODOT.length - 3]) { const b = new Uint8Array(GODOT); b[at] ^= 0x41; bad.push(b); }
		let rejected = 0;
		for (const b of bad) {
			const before = new Uint8Array(world.memory.buffer).slice();
			const size = world.memory.buffer.byteLength, count = world.blobs.length, heap = world.heapBytes;
			assert.throws(() => world.load(b), (e) => e instanceof SinewError && e.code !== 0);
			rejected++;
			assert.equal(world.memory.buffer.byteLength, size, 'memory grew');
			assert.equal(world.blobs.length, count);
			assert.equal(world.heapBytes, heap);
			const after = new Uint8Array(world.memory.buffer);
			let diff = -1;
			for (let i = 0; i < before.length; i++) if (before[i] !== after[i]) { diff = i; break; }
			assert.equal(diff, -1, `memory byte ${diff} changed`);
		}
		// the world still works and matches a twin that never saw the bad blobs
		const twin = await createWorld({ simd: build.simd });
		const tb = twin.load(GODOT);
		const tp = twin.addPlayer({ clip: tb.clip(1), layers: 2 });
		tp.layer(0).play(tb.clip(1), { loop: 'repeat' });
		tp.layer(1).play(tb.clip(4), { loop: 'repeat', weight: 0.5 });
		twin.update(0.3);
		world.update(0.1); twin.update(0.1);
		assert.deepEqual(Array.from(p.pose), Array.from(tp.pose));
		// a later good blob loads after the rejected ones
		world.load(ACL);
		assert.equal(world.blobs.length, 2);
		assert.ok(rejected >= 10);
	});

	test(`${build.name}: one wasm call per frame for 40 players x 3 layers over three blobs; memory grows only on load`, async () => {
		const c = await counted(async () => {
			const world = await createWorld({ simd: build.simd });
			const growth = [];
			for (const bytes of [GODOT, CMU, ACL]) {
				const h = world.heapBytes;
				world.load(bytes);
				growth.push({ blob: bytes.length, heap: world.heapBytes - h });
			}
			for (const g of growth) assert.ok(g.heap >= g.blob && g.heap < g.blob * 4 + 200000, `growth ${JSON.stringify(g)}`);
			const players = [];
			for (let i = 0; i < 40; i++) {
				const blob = world.blobs[i % 3];
				const a = blob.clip(i % blob.clipCount), b = blob.clip((i + 1) % blob.clipCount);
				const p = world.addPlayer({ clip: a, layers: 3 });
				p.layer(0).play(a, { loop: 'repeat', time: (i * 0.137) % Math.max(a.duration, 1e-3) });
				p.layer(1).play(b, { loop: 'pingpong', weight: 0 });
				p.layer(2).play(b, { loop: 'repeat', additive: 'first', weight: 0.3 });
				players.push(p);
			}
			return { world, players };
		});
		const { world, players } = c.value;
		const size = world.memory.buffer.byteLength;
		// replaying clips already set on a layer allocates nothing
		const heap = world.heapBytes;
		for (const p of players) { p.layer(0).play(p.layer(0).clip, { restart: true }); p.layer(1).setClip(p.layer(1).clip); p.layer(1).play(); }
		assert.equal(world.heapBytes, heap, 'setClip again allocated');
		c.calls = 0;
		for (let f = 0; f < 2000; f++) {
			if (f % 100 === 0) for (const p of players) { const up = (f / 100) % 2 === 0; p.layer(0).fadeTo(up ? 0 : 1, 0.4); p.layer(1).fadeTo(up ? 1 : 0, 0.4); }
			world.update(1 / 60);
		}
		assert.equal(c.calls, 2000, 'one wasm call per frame');
		assert.equal(world.memory.buffer.byteLength, size, 'memory grew while sampling');
		assert.equal(world.heapBytes, heap);
		assert.ok(world.layersSampled >= 40 && world.layersSampled <= 120);
		for (const p of players) for (const v of p.pose) assert.ok(Number.isFinite(v));
	});

	test(`${build.name}: save() / restoreWorld(): the restored world plays on identically, without loading blobs again`, async () => {
		const world = await createWorld({ simd: build.simd });
		const g = world.load(GODOT), cmu = world.load(CMU);
		const a = world.addPlayer({ clip: g.clip('walk'), layers: 2 });
		a.layer(0).play(g.clip('walk'), { loop: 'repeat' });
		a.layer(1).play(g.clip('run'), { loop: 'repeat', weight: 0 });
		const b = world.addPlayer({ clip: cmu.clip(0), layers: 1 });
		b.layer(0).play(cmu.clip(0), { loop: 'pingpong', speed: 3 });
		for (let f = 0; f < 30; f++) world.update(1 / 60);
		a.layer(0).fadeTo(0, 1); a.layer(1).fadeTo(1, 1); // a fade in progress is saved too
		world.update(1 / 60);
		const snap = world.save();
		const c = await counted(() => restoreWorld(snap, { simd: build.simd }));
		const copy = c.value;
		assert.ok(c.calls <= 1, `restore made ${c.calls} wasm calls (no load, no validation)`);
		assert.equal(copy.blobs.length, 2);
		assert.equal(copy.blobs[0].clip('walk').duration, g.clip('walk').duration);
		assert.deepEqual(copy.blobs[1].clip(0).joints, cmu.clip(0).joints);
		for (let f = 0; f < 90; f++) {
			world.update(1 / 60); copy.update(1 / 60);
			assert.deepEqual(Array.from(copy.players[0].pose), Array.from(a.pose));
			assert.deepEqual(Array.from(copy.players[1].pose), Array.from(b.pose));
		}
		assert.equal(copy.players[0].layer(1).weight, 1);
		// the restored world keeps working: a new player and a new blob
		const n = copy.addPlayer({ clip: copy.blobs[0].clip(0) });
		n.layer(0).play(copy.blobs[0].clip(0));
		copy.load(ACL);
		copy.update(0.1);
		// base64 text restores the same world
		const viaText = await restoreWorld(world.save('base64'), { simd: build.simd });
		viaText.update(1 / 60); world.update(1 / 60);
		assert.deepEqual(Array.from(viaText.players[1].pose), Array.from(b.pose));
		// damaged snapshots are refused
		const broken = snap.slice(); broken[broken.length - 5] ^= 1;
		await assert.rejects(restoreWorld(broken), SinewError);
		await assert.rejects(restoreWorld(snap.subarray(0, 100)), SinewError);
		// and a snapshot of one build does not restore into the other
		await assert.rejects(restoreWorld(snap, { simd: !build.simd }), /another build/);
	});
}

test('portable snapshots: saved by one build, restored into the other at another heap position, sample bit-identically; bad ones are refused', async () => {
	for (const [from, to] of [[false, true], [true, false]]) {
		const world = await createWorld({ simd: from });
		const g = world.load(GODOT), cmu = world.load(CMU, { randomAccess: false });
		const walk = g.clip('walk'), run = g.clip('run'), jump = g.clip('jump');
		const a = world.addPlayer({ clip: walk, layers: 3 });
		a.layer(0).play(walk, { loop: 'repeat' });
		a.layer(1).play(run, { loop: 'pingpong', weight: 0.3, mask: new Float32Array(a.jointCount).map((_, j) => (j % 3) / 2), range: [0.1, 0.6] });
		a.layer(1).repetitions = 40;
		a.layer(2).play(jump, { loop: 'repeat', additive: 'first', weight: 0.4, jointMap: jump.joints.map((_, j) => j) });
		a.layer(2).warp(1, 2.5, 1.5);
		a.setMatrices({ parents: walk.joints.map((j) => j.parent), anchors: 2,
			skins: [{ joints: [3, 1, 2, 0], inverses: new Float32Array(64).map((_, i) => (i % 5 === 0 ? 1 : 0.1)), capacity: 128 }], inverses: [2, 0] });
		a.anchorMatrix(0).set([1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 2, 3, 4, 1]);
		const b = world.addPlayer({ clip: cmu.clip(0), layers: 1 });
		b.layer(0).play(cmu.clip(0), { loop: 'pingpong', speed: 3 });
		const idle = world.addPlayer({ clip: walk, layers: 1 });
		idle.active = false;
		walk.participation[5] = 0; // an adapter's overwrite travels with the snapshot
		for (let f = 0; f < 40; f++) world.update(1 / 60);
		a.layer(0).fadeTo(0, 1, { stop: true });
		const snap = world.save({ portable: true });
		const copy = await restoreWorld(snap, { simd: to, reserve: 40000 });
		assert.equal(copy.simd, to);
		assert.notEqual(copy.blobs[0].clip(0).ptr, g.clip(0).ptr, 'the restored world lives at other addresses');
		assert.equal(copy.blobs[1].randomAccess, false);
		assert.equal(copy.players[2].active, false);
		assert.equal(copy.blobs[0].clip('walk').participation[5], 0);
		const viaText = await restoreWorld(world.save({ portable: true, encoding: 'base64' }), { simd: to });
		const views = (w, k) => { const p = w.players[k]; return [p.pose, ...(p.hasMatrices ? [p.worldMatrices, p.skinMatrices(0), p.inverseMatrices] : [])]; };
		for (let f = 0; f < 150; f++) {
			for (const w of [world, copy, viaText]) w.update(f % 7 === 0 ? 0.1 : 1 / 60);
			for (const k of [0, 1, 2]) {
				const want = views(world, k);
				for (const other of [copy, viaText]) views(other, k).forEach((v, i) => {
					assert.ok(v.length === want[i].length && v.every((x, n) => Object.is(x, want[i][n])), `frame ${f} player ${k} output ${i} (${from ? 'simd' : 'baseline'} -> ${to ? 'simd' : 'baseline'})`);
				});
			}
			copy.players[0].layers.forEach((l, k) => {
				const o = a.layers[k];
				assert.equal(l.time, o.time); assert.equal(l.weight, o.weight); assert.equal(l.speed, o.speed);
				assert.equal(l.enabled, o.enabled); assert.equal(l.loopCount, o.loopCount); assert.equal(l.events, o.events);
			});
		}
		// the restored world keeps loading and adding players
		copy.load(ACL); copy.addPlayer({ clip: copy.blobs[2].clip(0) }).layer(0).play(copy.blobs[2].clip(0));
		copy.update(0.1);
		// bad snapshots: SinewError, and the world that saved is untouched
		const resum = (x) => { const dv = new DataView(x.buffer); dv.setUint32(12, fnvOf(x.subarray(16)), true); return x; };
		const flip = (at) => { const x = snap.slice(); x[at] ^= 0x40; return x; };
		const blobAt = 32 + ((new DataView(snap.buffer).getUint32(16, true) + 3) & ~3) + 12; // the first blob's bytes (after the JSON and size, options, clips)
		const bads = [snap.subarray(0, 20), snap.subarray(0, snap.length - 4), flip(snap.length - 9), flip(100),
			resum(flip(blobAt + 40)), resum(flip(4)), resum(flip(snap.length - 3)), resum((() => { const x = new Uint8Array(snap.length + 4); x.set(snap); new DataView(x.buffer).setUint32(8, x.length, true); return x; })())];
		const before = new Uint8Array(world.memory.buffer).slice(0, world.heapBytes);
		for (const [i, x] of bads.entries()) await assert.rejects(restoreWorld(x, { simd: to }), SinewError, `bad snapshot ${i}`);
		assert.deepEqual(new Uint8Array(world.memory.buffer).slice(0, before.length), before);
	}
});

// Real corpus clips compressed by the CLI: RobotExpressive (morph weights), Fox.
test('corpus: RobotExpressive (morph weights) and Fox blended in one world against the reference', {
	skip: (!CLI && NO_CLI) || (!CORPUS && NO_CORPUS),
}, async () => {
	const dir = mkdtempSync(join(tmpdir(), 'sinew-world-'));
	try {
		const blobs = [];
		for (const f of ['gltf/threejs/RobotExpressive.glb', 'gltf/khronos/Fox/Fox.glb']) {
			const src = join(CORPUS, f);
			assert.ok(existsSync(src), `the corpus lacks ${f}`);
			const out = join(dir, `${blobs.length}.sinew`);
			execFileSync(CLI, ['compress', src, '-o', out, '-q']);
			blobs.push(readFileSync(out));
		}
		const world = await createWorld();
		for (const bytes of blobs) {
			const blob = world.load(bytes);
			const anim = await refAnim(bytes);
			const a = blob.clips[0], b = blob.clips[blob.clipCount - 1];
			const p = world.addPlayer({ clip: a, layers: 3 });
			const rest = Float64Array.from(p.rest);
			p.layer(0).play(a, { loop: 'repeat' });
			p.layer(1).play(b, { loop: 'repeat', weight: 0 });
			p.layer(2).play(b, { loop: 'pingpong', additive: 'bind', weight: 0.5 });
			const refs = [new RefLayer(anim, a.index, { loop: 'repeat' }), new RefLayer(anim, b.index, { loop: 'repeat', weight: 0 }),
				new RefLayer(anim, b.index, { loop: 'pingpong', additive: 'bind', weight: 0.5 })];
			compareFrames(world, p, refs, rest, 90, 1 / 60, `corpus blob ${blobs.indexOf(bytes)}`, (f) => {
				if (f === 5) { p.layer(0).fadeTo(0, 0.6); p.layer(1).fadeTo(1, 0.6); refs[0].fadeTo(0, 0.6); refs[1].fadeTo(1, 0.6); }
			});
			if (a.scalarFloats) assert.ok(p.scalarFloats === a.scalarFloats && p.pose.length === a.jointCount * F + a.scalarFloats);
			if (a.scalarFloats >= 2) { // (RobotExpressive's morph weights) a scalar map sending two floats to one is refused
				const map = Array.from({ length: a.scalarFloats }, (_, k) => k);
				map[1] = 0;
				assert.throws(() => p.layer(0).play(a, { scalarMap: map }), /scalar map sends clip scalars 0 and 1 both to player scalar 0/);
				p.layer(0).play(a, { scalarMap: Array.from({ length: a.scalarFloats }, (_, k) => a.scalarFloats - 1 - k) }); // a permutation is fine
			}
		}
		assert.ok(world.blobs.some((b) => b.clips[0].scalarFloats >= 2), 'RobotExpressive has morph weights');
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

test('snapshots are binary: the image (or the blobs) and the players\' nodes and paused layers, no description; older versions refused by name', async () => {
	const world = await createWorld({ simd: false });
	const g = world.load(GODOT), walk = g.clip('walk'), idle = g.clip('idle');
	const p = world.addPlayer({ clip: walk, layers: 3 }); // glTF nodes from the rig
	const q = world.addPlayer({ joints: walk.jointCount, scalars: walk.scalarFloats, layers: 1 }); // no nodes
	p.layer(0).play(walk, { loop: 'repeat' });
	p.layer(1).play(idle, { loop: 'repeat', weight: 0.5 });
	p.layer(1).paused = true; // paused by the caller: stays paused when its time is set
	p.layer(2).play(g.clip('jump'), { loop: 'once', weight: 0.2 }); // pauses itself at its end
	q.layer(0).play(walk, { loop: 'repeat' });
	p.setMatrices({ parents: Array.from(walk.rig.parents) });
	for (let f = 0; f < 120; f++) world.update(1 / 30);
	assert.ok(p.layer(2).paused && !p.layer(2)._userPaused && p.layer(1)._userPaused);
	const nodesPart = (pl) => 4 + (pl.nodes ? 4 * pl.nodes.length : 0) + 4 * Math.ceil(pl.layerCount / 32);
	// native: 40-byte header, a word per blob, per player its layer count and JS part, then the 16-aligned image
	const snap = world.save();
	const head = 40 + 4 * world.blobs.length + world.players.reduce((n, pl) => n + 4 + nodesPart(pl), 0);
	assert.equal(snap.length, ((head + 15) & ~15) + world.heapBytes);
	assert.deepEqual(snap.subarray(snap.length - world.heapBytes), new Uint8Array(world.memory.buffer, 0, world.heapBytes));
	// portable: the blob's bytes straight after the 32-byte header and its size, options and clip count
	const portable = world.save({ portable: true });
	assert.deepEqual(portable.subarray(44, 44 + GODOT.length), GODOT);
	const copies = [await restoreWorld(snap, { simd: false }), await restoreWorld(portable, { simd: true })];
	for (const w of [world, ...copies]) { w.players[0].layer(1).time = 0.1; w.players[0].layer(2).time = 0.1; w.update(1 / 60); }
	for (const copy of copies) {
		assert.deepEqual(copy.players.map((x) => x.nodes), [p.nodes, null]);
		assert.deepEqual(copy.players[0].layers.map((l) => [l.clip?.name ?? null, !!l._userPaused]), [['walk', false], ['idle', true], ['jump', false]]);
		assert.equal(copy.blobs[0].clip('walk').joints[3].name, walk.joints[3].name);
		assert.deepEqual(copy.players[0].layers.map((l) => l.paused), [false, true, false]);
		assert.deepEqual(Array.from(copy.players[0].pose), Array.from(p.pose));
		assert.deepEqual(Array.from(copy.players[0].worldMatrices), Array.from(p.worldMatrices));
	}
	// the versions before (with a JSON description, and format-2 blobs) are refused by name
	for (const [x, version, name] of [[snap.slice(), 1, /version 1 \(this runtime reads 2\)/], [portable.slice(), 2, /portable version 2 \(this runtime reads 3\)/]]) {
		const dv = new DataView(x.buffer);
		dv.setUint32(4, version, true); dv.setUint32(12, fnvOf(x.subarray(16)), true);
		await assert.rejects(restoreWorld(x), (e) => e instanceof SinewError && name.test(e.message));
	}
});

// A user's joint or scalar map is checked when a clip is set: an entry that is no player joint (but 0xFFFFFFFF, which
// skips), or two clip joints sent to one player joint (a blend would add them up, a copy keep the last), is a
// RangeError naming the entries; before, the first was skipped and the second let the last one win. play() on the
// layer's own clip applies the maps it is given (before, it ignored them).
test('joint and scalar maps: out-of-range entries and two clip joints on one player joint are refused by name', async () => {
	const world = await createWorld();
	const g = world.load(GODOT), walk = g.clip('walk');
	const p = world.addPlayer({ joints: walk.jointCount, scalars: 2, layers: 1 });
	const identity = walk.joints.map((_, j) => j);
	const twice = identity.slice();
	twice[3] = 1;
	assert.throws(() => p.layer(0).play(walk, { jointMap: twice }), /joint map sends clip joints 1 and 3 both to player joint 1/);
	assert.throws(() => p.layer(0).play(walk, { jointMap: identity.map((j) => (j === 2 ? walk.jointCount : j)) }),
		(e) => e instanceof RangeError && new RegExp(`joint map entry 2 is ${walk.jointCount}: not one of the player's ${walk.jointCount} joints`).test(e.message));
	assert.throws(() => p.layer(0).play(walk, { jointMap: identity.map((j) => (j === 0 ? -1 : j)) }), /joint map entry 0 is -1/);
	assert.throws(() => p.layer(0).play(walk, { jointMap: identity.slice(1) }), /joint map of \d+ entries for the clip's \d+ joints/);
	// skipped joints keep the rest pose; the player plays the clip's other joints as with the identity map
	const skip = identity.map((j) => (j === 4 ? 0xffffffff : j));
	p.layer(0).play(walk, { jointMap: skip, loop: 'repeat' });
	const q = world.addPlayer({ joints: walk.jointCount, scalars: 2, layers: 1 });
	q.layer(0).play(walk, { jointMap: identity, loop: 'repeat' });
	world.update(0.3);
	for (let j = 0; j < walk.jointCount; j++)
		if (j !== 4) assert.deepEqual(Array.from(p.pose.subarray(10 * j, 10 * j + 10)), Array.from(q.pose.subarray(10 * j, 10 * j + 10)), `joint ${j}`);
	assert.deepEqual(Array.from(p.pose.subarray(40, 50)), Array.from(p.rest.subarray(40, 50)), 'the skipped joint keeps the rest pose');
	// play() on the clip the layer has takes the maps it is given (before, they were ignored), and keeps the time
	const t = p.layer(0).time;
	p.layer(0).play(walk, { jointMap: identity });
	assert.equal(p.layer(0).time, t);
	world.update(0.2);
	assert.deepEqual(Array.from(p.pose), Array.from(q.pose), 'the identity map now plays joint 4 too');
	assert.throws(() => p.layer(0).play(walk, { scalarMap: [0] }), /scalar map of 1 entries for the clip's 0 scalars/); // (the corpus test: duplicates)
	// a portable snapshot whose map sends two clip joints to one player joint is refused by name
	const reversed = identity.map((j) => walk.jointCount - 1 - j);
	p.layer(0).play(walk, { jointMap: reversed });
	const snap = world.save({ portable: true }), words = new Uint32Array(reversed);
	const bytes = new Uint8Array(words.buffer);
	let at = -1;
	for (let o = 0; o + bytes.length <= snap.length && at < 0; o++) if (bytes.every((x, n) => snap[o + n] === x)) at = o;
	assert.ok(at >= 0, 'the map is in the snapshot');
	await restoreWorld(snap); // as saved, it restores
	const bad = snap.slice();
	bad.set(bad.subarray(at, at + 4), at + 4); // entry 1 = entry 0, under a checksum made again
	new DataView(bad.buffer).setUint32(12, fnvOf(bad.subarray(16)), true);
	await assert.rejects(restoreWorld(bad), (e) => e instanceof SinewError && e.code === 22 &&
		/world snapshot: player 0 layer 0: joint map sends clip joints 0 and 1 both to player joint/.test(e.message));
});
