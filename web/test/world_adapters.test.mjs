// sinew — see include/sinew.h for version and licence
// The engine adapters in node. Frame for frame against the engines themselves (three's AnimationMixer on
// GLTFLoader.parse, Babylon's AnimationGroup on a NullEngine, from web/browser-test's pinned packages):
// browser-test/page/frames_harness.mjs's scripts on data/godot_platformer_player.glb for all four adapters
// (the Chromium run, web/browser-test/run.mjs, plays them on the corpus assets too). Then what only the
// adapters do: one wasm call per frame for several characters, nothing written when nothing moved,
// invalidate(), the members that cannot apply throwing SinewUnsupportedError by name.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import Sinew from '../sinew.mjs';
import { SinewSceneMixer } from '../adapters/three_world.mjs';
import { SinewWorldScene } from '../adapters/babylon_world.mjs';
import { SinewAnimationGroup, SinewUnsupportedError } from '../adapters/babylon.mjs';
import { SinewMixer } from '../adapters/three.mjs';

const GODOT = new Uint8Array(readFileSync(fileURLToPath(new URL('./data/godot_platformer_player.sinew', import.meta.url))));
const GLB = new Uint8Array(readFileSync(fileURLToPath(new URL('../../data/godot_platformer_player.glb', import.meta.url))));
const ENGINES = fileURLToPath(new URL('../browser-test/node_modules/', import.meta.url));
const hasEngines = existsSync(`${ENGINES}three`) && existsSync(`${ENGINES}@babylonjs/core`);

class V3 { constructor(x = 0, y = 0, z = 0) { this.x = x; this.y = y; this.z = z; this.writes = 0; } set(x, y, z) { this.x = x; this.y = y; this.z = z; this.writes++; return this; } }
class Q4 { constructor() { this.x = 0; this.y = 0; this.z = 0; this.w = 1; this.writes = 0; } set(x, y, z, w) { this.x = x; this.y = y; this.z = z; this.w = w; this.writes++; return this; } }
const threeNode = () => ({ position: new V3(), quaternion: new Q4(), scale: new V3(1, 1, 1) });
const babylonNode = (name) => ({ name, position: new V3(), rotationQuaternion: new Q4(), scaling: new V3(1, 1, 1) });
const writes = (nodes) => [...nodes.values()].map((o) => (o.quaternion ?? o.rotationQuaternion).writes + o.position.writes + (o.scale ?? o.scaling).writes);

function countCalls(world) {
	const x = world._x, counter = { calls: 0 };
	world._x = Object.fromEntries(Object.entries(x).map(([k, v]) => [k, typeof v === 'function' ? (...a) => (counter.calls++, v(...a)) : v]));
	return counter;
}

for (const [engine, world] of [['babylon', false], ['babylon', true], ['three', false], ['three', true]]) {
	test(`frame for frame against ${engine}'s own player: ${world ? 'the world adapter' : 'the single-file adapter'}`, { skip: !hasEngines && `no ${ENGINES} (npm ci --prefix web/browser-test)` }, async () => {
		const { runFramesBabylon, runFramesThree } = await import('../browser-test/page/frames_harness.mjs');
		const run = engine === 'three' ? runFramesThree : runFramesBabylon;
		const r = await run({ asset: GLB, blob: GODOT, world });
		assert.deepEqual(r.failures, [], r.failures.slice(0, 5).join('\n'));
		assert.ok(r.frames > 300 && r.events >= 6, `${r.frames} frames, ${r.events} events`);
		// (this blob is test/data's; the shell distance to the engine only guards against gross errors: a frame
		// behind or ahead is centimetres)
		assert.ok(r.worstPose <= 1e-5 && r.worstShellCm < 0.05 + (world && engine === 'three' ? 5 : 0), `${r.worstPose} / ${r.worstShellCm} cm`);
	});
}

test('three world adapter: one wasm call per frame for three characters, writes only what moved, invalidate()', async () => {
	const scene = await SinewSceneMixer.create();
	const blob = scene.load(GODOT);
	const idle = blob.clip('idle'), nodes = new Map(idle.joints.map((j) => [j.node, threeNode()]));
	const chars = [0, 1, 2].map(() => scene.add({ scene: null }, [blob], { nodes: (i) => nodes.get(i) ?? null }));
	const m = chars[0];
	const a = m.clipAction('idle').play(), b = m.clipAction('walk');
	const counter = countCalls(scene.world);
	for (let f = 0; f < 10; f++) scene.update(1 / 60);
	a.crossFadeTo(b.play(), 0.3);
	for (let f = 0; f < 30; f++) scene.update(1 / 60);
	assert.equal(counter.calls, 40, 'one wasm call per frame for three characters');
	assert.equal(a.enabled, false, 'a faded-out action is disabled (three)');
	const pose = m.player.pose;
	m._binding.nodes.forEach((n, j) => assert.equal(nodes.get(n).quaternion.w, pose[j * 10 + 3]));
	b.paused = true;
	scene.update(1 / 60);
	const before = writes(nodes);
	scene.update(1 / 60);
	assert.deepEqual(writes(nodes), before, 'nothing moved: nothing written');
	m.invalidate();
	scene.update(1 / 60);
	assert.ok(writes(nodes).every((v, i) => v === before[i] + 3), 'invalidate() writes every property once');
	m.stopAllAction();
	assert.equal(m.clipAction('walk').isScheduled(), false);
	assert.equal(m.clipAction('walk'), b);
	assert.notEqual(chars[1].clipAction('walk'), b);
	assert.throws(() => m.update(1 / 60), /SinewSceneMixer.update/);
});

test('Babylon world adapter: one wasm call per scene step, enableBlending ramps at blendingSpeed per frame, mask, weights clamped', async () => {
	const scene = { animationsEnabled: true, deltaTime: 16, observers: [],
		onAfterAnimationsObservable: { add(fn) { scene.observers.push(fn); return fn; }, remove(fn) { scene.observers = scene.observers.filter((x) => x !== fn); } },
		step() { for (const fn of this.observers) fn(); } };
	const bs = await SinewWorldScene.create(scene);
	const blob = bs.load(GODOT);
	const walk = blob.clip('walk'), nodes = new Map(walk.joints.map((j, i) => [j.node, babylonNode(`n${i}`)]));
	const chars = [0, 1].map(() => bs.add((i) => nodes.get(i) ?? null, [blob]));
	const c = chars[0], g = c.group('walk');
	const counter = countCalls(bs.world);
	g.start(true, 1, 12, 48);
	scene.step();
	assert.equal(counter.calls, 1);
	assert.equal(g.getCurrentFrame(), 12, 'the first frame after start shows from');
	for (let f = 0; f < 60; f++) scene.step();
	assert.equal(counter.calls, 61, 'one wasm call per step for two characters');
	assert.ok(g.getCurrentFrame() >= 12 && g.getCurrentFrame() <= 48);
	const r = c.group('run');
	r.enableBlending = true; r.blendingSpeed = 0.05; r.weight = 1;
	r.start(true);
	const w = [];
	for (let f = 0; f < 25; f++) { scene.step(); w.push(r._layer.weight); }
	assert.ok(Math.abs(w[0] - 0.05) < 1e-6 && Math.abs(w[9] - 0.5) < 1e-5, `ramp ${w.slice(0, 10)}`);
	assert.equal(w[24], 1);
	r.weight = 3;
	assert.equal(r.weight, 3, 'the group keeps the weight it is given (Babylon)');
	assert.equal(r._layer.weight, 1, 'its animatables clamp it to 0..1');
	g.mask = { retainsTarget: (name) => name !== 'n0' };
	assert.equal(g._layer.mask[0], 0);
	assert.equal(g._layer.mask[1], 1);
	let ended = 0;
	g.onAnimationGroupEndObservable.add(() => ended++);
	g.stop();
	assert.equal(ended, 1);
	assert.equal(g.isPlaying, false);
	assert.equal(g._layer.enabled, false);
	for (const member of ['addTargetedAnimation', 'removeTargetedAnimation', 'normalize', 'serialize', 'clone', 'startWithVirtualTimeline'])
		assert.throws(() => g[member](), (e) => e instanceof SinewUnsupportedError && e.name === 'SinewUnsupportedError' && e.member === `AnimationGroup.${member}`);
	assert.throws(() => g.targetedAnimations[0].animation.getKeys(), SinewUnsupportedError);
	assert.equal(g.getLength(), g.to / 60, "the group's from / to (start's from / to are the animatables')");
});

test('Babylon single-file adapter: the AnimationGroup members, SinewUnsupportedError for curve editing, getLength, the targeted animations of the glTF', async () => {
	const anim = await Sinew.load(GODOT);
	const k = [...Array(anim.clipCount).keys()].find((i) => anim.clip(i).name === 'walk');
	const info = anim.clip(k), nodes = new Map(info.joints.map((j, i) => [j.node, babylonNode(`n${i}`)]));
	const dv = new DataView(GLB.buffer, GLB.byteOffset), json = JSON.parse(new TextDecoder().decode(GLB.subarray(20, 20 + dv.getUint32(12, true))));
	const g = new SinewAnimationGroup(anim, (i) => nodes.get(i) ?? null, { clip: k, json });
	const gltf = json.animations.find((a) => a.name === 'walk');
	assert.equal(g.targetedAnimations.length, gltf.channels.filter((c) => nodes.has(c.target.node)).length, 'one per glTF channel');
	assert.equal(g.to, Math.fround(json.accessors[gltf.samplers[0].input].max[0]) * 60);
	assert.ok(Math.abs(g.getLength() - info.duration) < 1e-6);
	g.speedRatio = 2;
	assert.ok(Math.abs(g.getLength() - info.duration / 2) < 1e-6);
	for (const member of ['addTargetedAnimation', 'removeTargetedAnimation', 'normalize', 'serialize', 'syncAllAnimationsWith', 'startWithVirtualTimeline'])
		assert.throws(() => g[member](), (e) => e instanceof SinewUnsupportedError && e.member === `AnimationGroup.${member}`);
	assert.throws(() => { g.isAdditive = true; }, SinewUnsupportedError);
	assert.throws(() => { g.enableBlending = true; }, SinewUnsupportedError);
	assert.throws(() => g.clone('x', null, true), SinewUnsupportedError);
	// goToFrame on a stopped group does nothing (Babylon); on a started one it writes at once
	let calls = 0;
	const sample = anim.sample.bind(anim);
	anim.sample = (...a) => (calls++, sample(...a));
	g.goToFrame(10);
	assert.equal(calls, 0);
	g.start(false).goToFrame(10);
	assert.equal(calls, 1);
	assert.equal(g.getCurrentFrame(), 10);
	const copy = g.clone('copy');
	assert.equal(copy.name, 'copy');
	assert.equal(copy.targets.length, g.targets.length);
	g.dispose();
	assert.equal(g.isStarted, false);
	// three: mixer members that cannot apply are not there to call; the action's clip is the blob's
	const mixer = new SinewMixer({ scene: null }, anim, { nodes: (i) => (nodes.has(i) ? threeNode() : null), json });
	const act = mixer.clipAction('walk');
	assert.equal(act.getClip().duration, Math.fround(json.accessors[gltf.samplers[0].input].max[0]));
	assert.equal(mixer.existingAction(k), act);
});
