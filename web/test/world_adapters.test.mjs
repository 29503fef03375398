// sinew — see include/sinew.h for version and licence
// The world adapters' controls in node, on stand-in engine objects (the browser tests compare
// them with the real engines): three.js action semantics (fades multiply the action weight,
// crossFadeTo ramps both, faded-out and finished actions are disabled, loop / finished events),
// Babylon group semantics (first frame shows `from`, from/to ranges, enableBlending ramps at
// blendingSpeed per frame, stop() notifies the end), one wasm call per scene frame, node writes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import Sinew from '../sinew.mjs';
import { SinewSceneMixer, LoopOnce, LoopRepeat, LoopPingPong } from '../adapters/three_world.mjs';
import { RefLayer, refAdvance } from './world_reference.mjs';
import { SinewWorldScene } from '../adapters/babylon_world.mjs';

const GODOT = new Uint8Array(readFileSync(fileURLToPath(new URL('./data/godot_platformer_player.sinew', import.meta.url))));

class V3 { constructor(x = 0, y = 0, z = 0) { this.x = x; this.y = y; this.z = z; this.writes = 0; } set(x, y, z) { this.x = x; this.y = y; this.z = z; this.writes++; return this; } }
class Q4 { constructor() { this.x = 0; this.y = 0; this.z = 0; this.w = 1; this.writes = 0; } set(x, y, z, w) { this.x = x; this.y = y; this.z = z; this.w = w; this.writes++; return this; } }
const threeNode = () => ({ position: new V3(), quaternion: new Q4(), scale: new V3(1, 1, 1) });
const babylonNode = () => ({ position: new V3(), rotationQuaternion: new Q4(), scaling: new V3(1, 1, 1) });

function countCalls(world) {
	const x = world._x, counter = { calls: 0 };
	world._x = Object.fromEntries(Object.entries(x).map(([k, v]) => [k, typeof v === 'function' ? (...a) => (counter.calls++, v(...a)) : v]));
	return counter;
}

test('three world adapter: setLoop(LoopRepeat / LoopPingPong, n) and warp() follow the JS reference; finished after n loops', async () => {
	const scene = await SinewSceneMixer.create();
	const blob = scene.load(GODOT);
	const walk = blob.clip('walk'), nodes = new Map(walk.joints.map((j) => [j.node, threeNode()]));
	const m = scene.add({ scene: null }, [blob], { nodes: (i) => nodes.get(i) ?? null });
	scene.add({ scene: null }, [blob], { nodes: (i) => nodes.get(i) ?? null }).timeScale = 1; // a second character, same call
	const anim = await Sinew.load(GODOT);
	const events = [];
	m.addEventListener('loop', (e) => events.push(`loop ${e.action.getClip().name}`));
	m.addEventListener('finished', (e) => events.push(`finished ${e.action.getClip().name}`));
	m.timeScale = 0.8; // the mixer's time scale multiplies the actions' (and stretches a warp's duration)
	const a = m.clipAction('walk').setLoop(LoopRepeat, 3), b = m.clipAction('run').setLoop(LoopPingPong, 2);
	a.clampWhenFinished = true; a.play(); b.setEffectiveWeight(0.5); b.play();
	assert.throws(() => b.setLoop(LoopRepeat, 0), RangeError);
	const ra = new RefLayer(anim, walk.index, { loop: 'repeat', repetitions: 3, speed: 0.8 });
	const rb = new RefLayer(anim, blob.clip('run').index, { loop: 'pingpong', repetitions: 2, speed: 0.8, weight: 0.5, stopAtEnd: true });
	const counter = countCalls(scene.world);
	let finishedAt = null;
	for (let f = 0; f < 200; f++) {
		if (f === 5) { a.warp(1, 2, 0.5); ra.warpTo(0.8, 1.6, 0.5 / 0.8); }
		scene.update(1 / 60); refAdvance(ra, 1 / 60); refAdvance(rb, 1 / 60);
		assert.ok(Math.abs(a.time - ra.time) < 1e-9 && Math.abs(b.time - rb.time) < 1e-9, `frame ${f}: ${a.time} / ${ra.time}, ${b.time} / ${rb.time}`);
		assert.equal(a.paused, ra.paused); assert.equal(b.enabled, rb.enabled);
		if (ra.events.finished) finishedAt = f;
	}
	assert.equal(counter.calls, 200, 'one wasm call per frame');
	assert.ok(finishedAt !== null && a.paused && a.time === walk.duration, 'clamped at the end after 3 loops');
	assert.equal(a.timeScale, 2, 'the warp ended at its end time scale');
	assert.equal(a.getEffectiveTimeScale(), Math.fround(1.6));
	assert.deepEqual(events.filter((e) => e.startsWith('finished')).sort(), ['finished run', 'finished walk']);
	assert.equal(events.filter((e) => e === 'loop walk').length, 2, 'loops before the last one are loop events');
	assert.equal(b.enabled, false, 'an unclamped finished action stops contributing, as in three');
	// reset: loops count again, a warp is dropped
	a.reset(); a.warp(2, 1, 10); a.reset();
	assert.equal(a.getEffectiveTimeScale(), Math.fround(1.6)); assert.equal(a.time, 0);
});

test('three world adapter: crossFadeTo, fade-out disables, LoopOnce finishes, loop events, one call per frame', async () => {
	const scene = await SinewSceneMixer.create();
	const blob = scene.load(GODOT);
	const idle = blob.clip('idle'), nodes = new Map(idle.joints.map((j) => [j.node, threeNode()]));
	const chars = [0, 1, 2].map(() => scene.add({ scene: null }, [blob], { nodes: (i) => nodes.get(i) ?? null }));
	const m = chars[0];
	const events = [];
	m.addEventListener('loop', (e) => events.push(['loop', e.action.getClip().name, e.loopDelta]));
	m.addEventListener('finished', (e) => events.push(['finished', e.action.getClip().name, e.direction]));
	const a = m.clipAction('idle').play(), b = m.clipAction('walk');
	a.setEffectiveWeight(0.8);
	const counter = countCalls(scene.world);
	for (let f = 0; f < 10; f++) scene.update(1 / 60);
	assert.equal(counter.calls, 10, 'one wasm call per frame for three characters');
	assert.equal(a.getEffectiveWeight(), Math.fround(0.8)); // weights are float32
	assert.equal(b.getEffectiveWeight(), 0, 'not playing yet');
	// the action's own weight multiplies the fade: fadeIn ramps 0 -> 1 * weight
	b.weight = 1;
	a.crossFadeTo(b.play(), 0.5);
	for (let f = 0; f < 15; f++) scene.update(1 / 60);
	assert.ok(Math.abs(a.getEffectiveWeight() - 0.4) < 1e-5, `fading out from 0.8: ${a.getEffectiveWeight()}`);
	assert.ok(Math.abs(b.getEffectiveWeight() - 0.5) < 1e-5, `fading in: ${b.getEffectiveWeight()}`);
	for (let f = 0; f < 16; f++) scene.update(1 / 60);
	assert.equal(a.enabled, false, 'a faded-out action is disabled (three)');
	assert.equal(a.getEffectiveWeight(), 0);
	assert.equal(b.getEffectiveWeight(), 1);
	// a once action, not clamped: finishes and stops contributing; ping-pong loops report
	const jump = m.clipAction('jump');
	jump.setLoop(LoopOnce); jump.clampWhenFinished = false; jump.timeScale = 2; jump.play();
	const run = m.clipAction('run'); run.setLoop(LoopPingPong); run.setEffectiveWeight(0.3); run.play();
	for (let f = 0; f < 70; f++) scene.update(1 / 60); // run (0.83 s) turns once
	assert.ok(events.some((e) => e[0] === 'finished' && e[1] === 'jump' && e[2] === 1), JSON.stringify(events));
	assert.ok(events.some((e) => e[0] === 'loop' && e[1] === 'run'), JSON.stringify(events));
	assert.ok(events.some((e) => e[0] === 'loop' && e[1] === 'walk'), JSON.stringify(events));
	assert.equal(jump.enabled, false);
	assert.equal(jump.isRunning(), false);
	// the nodes hold the player's pose; unchanged properties are not written again
	const pose = m.player.pose;
	m._binding.nodes.forEach((n, j) => assert.equal(nodes.get(n).quaternion.w, pose[j * 10 + 3]));
	run.stop(); b.paused = true;
	scene.update(1 / 60);
	const before = [...nodes.values()].map((o) => o.quaternion.writes + o.position.writes + o.scale.writes);
	scene.update(1 / 60);
	const after = [...nodes.values()].map((o) => o.quaternion.writes + o.position.writes + o.scale.writes);
	// nothing moved (b paused, the rest stopped; the other characters idle at rest): nothing is written
	assert.deepEqual(after, before);
	m.invalidate();
	scene.update(1 / 60);
	const forced = [...nodes.values()].map((o) => o.quaternion.writes + o.position.writes + o.scale.writes);
	assert.ok(forced.every((v, i) => v === after[i] + 3), 'invalidate() writes every property once');
	m.stopAllAction();
	assert.equal(m.clipAction('walk').isScheduled(), false);
	// action handles are per clip and character
	assert.equal(m.clipAction('walk'), b);
	assert.notEqual(chars[1].clipAction('walk'), b);
});

test('Babylon world adapter: first frame shows from, from/to range, blendingSpeed ramp, stop() notifies the end', async () => {
	const bs = await SinewWorldScene.create(null);
	const blob = bs.load(GODOT);
	const anim = await Sinew.load(GODOT);
	const walk = blob.clip('walk'), nodes = new Map(walk.joints.map((j) => [j.node, babylonNode()]));
	const c = bs.add((i) => nodes.get(i) ?? null, [blob]);
	const g = c.group('walk');
	assert.equal(g.to, walk.duration * 60);
	g.start(true, 1, 12, 48);                       // frames 12..48 = 0.2..0.8 s
	const counter = countCalls(bs.world);
	bs.update(0.016);
	assert.equal(counter.calls, 1);
	assert.ok(Math.abs(g.getCurrentFrame() - 12) < 1e-6, `first frame shows from: ${g.getCurrentFrame()}`);
	// the nodes hold the clip's pose at 0.2 s (weight -1: not blended, all of it)
	const want = anim.sample(walk.index, 0.2);
	const part = walk.participation;
	c._binding.nodes.forEach((n, j) => {
		if (part[j] & 2) assert.ok(Math.abs(nodes.get(n).position.x - want[j * 10 + 4]) < 1e-6);
	});
	let loops = 0;
	g.onAnimationGroupLoopObservable.add(() => loops++);
	for (let f = 0; f < 60; f++) bs.update(0.016);
	assert.ok(loops >= 1, 'looped inside the range');
	assert.ok(g.getCurrentFrame() >= 12 - 1e-6 && g.getCurrentFrame() <= 48 + 1e-6, `range: frame ${g.getCurrentFrame()}`);
	// enableBlending: the weight ramps from 0 at blendingSpeed per frame (inside the frame call)
	const r = c.group('run');
	r.enableBlending = true; r.blendingSpeed = 0.05; r.weight = 1;
	r.start(true);
	const w = [];
	for (let f = 0; f < 25; f++) { bs.update(0.016); w.push(r._layer.weight); }
	assert.ok(Math.abs(w[0] - 0.05) < 1e-6 && Math.abs(w[9] - 0.5) < 1e-5, `ramp ${w.slice(0, 10)}`);
	assert.equal(w[24], 1);
	// stop(): end observable (as Babylon), the loop observers cleared, no longer contributing
	let ended = 0;
	g.onAnimationGroupEndObservable.add(() => ended++);
	g.stop();
	assert.equal(ended, 1);
	assert.equal(g.onAnimationGroupLoopObservable.hasObservers(), false);
	assert.equal(g.isPlaying, false);
	assert.throws(() => { g.weight = 1.5; }, RangeError);
	// a non-looping group ends once, with its end event
	const once = c.group('jump');
	let onceEnded = 0;
	once.onAnimationGroupEndObservable.add(() => onceEnded++);
	once.start(false, 2);
	for (let f = 0; f < 30; f++) bs.update(0.016);
	assert.equal(onceEnded, 1);
	assert.equal(once.isPlaying, false);
});
