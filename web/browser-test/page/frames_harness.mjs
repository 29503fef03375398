// sinew — see include/sinew.h for version and licence
// Frame-for-frame tests of the adapters against the engines' own players: the same script of controls
// (start / play with loop, speed changes, pause and resume, seeks, stops, a range played once to its end,
// restarts, backwards) is applied in the same frames to the engine's player on copy A of the scene and to
// the sinew adapter on copy B, from the first frame after the start; each frame the scene steps once and
// then, for every frame:
//   - the frame (time) each shows: equal within 1e-9 frames (Babylon) / 1e-9 s (three);
//   - the state flags (Babylon isStarted / isPlaying; three's action enabled / paused / isRunning, its
//     effective weight and time scale) equal;
//   - the events of the frame equal, in order (Babylon: the group's play / pause / loop / end observables
//     and the per-animation loop / end notifications; three: the mixer's 'loop' and 'finished');
//   - copy B's nodes hold exactly the pose sinew samples at the engine's time (a second instance of the
//     blob: every mapped node within 1e-5 of it, float32 rounding of composed values), or, where the engine
//     leaves nodes alone (stopped), the values B held before;
//   - the root-space distance of every mapped node's origin and six 3 cm shell points between A and B is
//     reported (the engines slerp between keys where sinew interpolates its samples: see harness.mjs).
// Runs in Chromium (run.mjs) and in node (dev: Babylon's NullEngine, three's GLTFLoader.parse on .glb).
import Sinew from '../../sinew.mjs';
import { shellPoints } from './harness.mjs';

const FPS = 60;

async function bytesOf(x) {
	if (x instanceof Uint8Array) return x;
	const r = await fetch(x);
	if (!r.ok) throw new Error(`${x}: ${r.status}`);
	return new Uint8Array(await r.arrayBuffer());
}

// The glTF JSON of a .glb or .gltf file's bytes.
function gltfJson(u8) {
	const dv = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
	if (dv.getUint32(0, true) !== 0x46546c67) return JSON.parse(new TextDecoder().decode(u8));
	return JSON.parse(new TextDecoder().decode(u8.subarray(20, 20 + dv.getUint32(12, true))));
}

function longestClip(anim) {
	let best = 0;
	for (let k = 1; k < anim.clipCount; k++) if (anim.clip(k).duration > anim.clip(best).duration) best = k;
	return best;
}

// Worst difference between B's nodes and the sinew pose at `t` (10 floats per joint), relative to
// max(1, |value|) (the world fills sub-tracks a clip does not set from the nodes' float64 rest values).
function poseError(targets, get, pose) {
	let worst = 0;
	targets.forEach((n, j) => {
		if (!n) return;
		const v = get(n);
		let s = 1; // q and -q: the same rotation (an engine may store either)
		if (v[0] * pose[j * 10] + v[1] * pose[j * 10 + 1] + v[2] * pose[j * 10 + 2] + v[3] * pose[j * 10 + 3] < 0) s = -1;
		for (let i = 0; i < 10; i++) worst = Math.max(worst, Math.abs((i < 4 ? s : 1) * v[i] - pose[j * 10 + i]) / Math.max(1, Math.abs(pose[j * 10 + i])));
	});
	return worst;
}

function shellDistance(pa, pb) {
	let d = 0;
	for (let i = 0; i < pa.length; i++) d = Math.max(d, Math.hypot(pa[i][0] - pb[i][0], pa[i][1] - pb[i][1], pa[i][2] - pb[i][2]));
	return d * 100;
}

// The script, in frames of the clip (`to`: its last frame at 60 per second), for Babylon's AnimationGroup API.
function babylonScript(to) {
	const loopFrames = Math.ceil(to / 2) + 6; // at speed 2: a loop, and some
	const s = [];
	let f = 0;
	// op: applied to both players before the frame's step; shows: for an op that leaves the group stopped but
	// writes a pose (reset() of a stopped group shows frame 0, as Babylon's does), that frame
	const at = (n, what, op, shows = null) => { s.push([f, what, op, shows]); f += n; };
	at(5, 'start(true)', (g) => g.start(true));
	at(loopFrames, 'speedRatio = 2', (g) => { g.speedRatio = 2; });
	at(4, 'pause()', (g) => g.pause());
	at(6, 'play() (resume)', (g) => g.play());
	at(6, 'goToFrame(to / 4)', (g) => g.goToFrame(to / 4));
	at(8, 'speedRatio = 0.5', (g) => { g.speedRatio = 0.5; });
	at(3, 'stop()', (g) => g.stop());
	at(Math.ceil((0.4 * to) / 1.5) + 6, 'start(false, 1.5, 0.2 to, 0.6 to)', (g) => g.start(false, 1.5, 0.2 * to, 0.6 * to));
	at(8, 'play(true) after the end', (g) => g.play(true));
	at(5, 'pause()', (g) => g.pause());
	at(3, 'restart()', (g) => g.restart());
	at(4, 'reset()', (g) => g.reset());
	at(5, 'loopAnimation = false', (g) => { g.loopAnimation = false; });
	at(Math.ceil(to) + 4, 'stop(true) (no end event)', (g) => g.stop(true));
	at(Math.ceil(to / 1.25) + 6, 'start(true, -1.25) (backwards)', (g) => g.start(true, -1.25));
	at(6, 'goToFrame(0.9 to) backwards', (g) => g.goToFrame(0.9 * to));
	at(6, 'stop()', (g) => g.stop());
	at(3, 'reset() stopped', (g) => g.reset(), 0);
	at(3, 'start(false, 3)', (g) => g.start(false, 3));
	return { steps: s, frames: f + Math.ceil(to / 3) + 6 };
}

/* ---------------- Babylon.js ---------------- */

// spec: { asset (URL or .glb bytes), blob (URL or bytes), world (the world adapter instead of babylon.mjs), clip? }
export async function runFramesBabylon(spec) {
	const BABYLON = await import('@babylonjs/core/index.js');
	await import('@babylonjs/loaders/glTF/index.js');
	const { SinewAnimationGroup, BABYLON_SETTERS } = await import('../../adapters/babylon.mjs');
	const { SinewWorldScene } = await import('../../adapters/babylon_world.mjs');
	const bytes = await bytesOf(spec.blob);
	const anim = await Sinew.load(bytes), ref = await Sinew.load(bytes);
	const engine = new BABYLON.NullEngine();
	const scene = new BABYLON.Scene(engine);
	scene.useConstantAnimationDeltaTime = true;
	const options = { pluginOptions: { gltf: { animationStartMode: 0 } } };
	const load = (a) => (a instanceof Uint8Array ? BABYLON.LoadAssetContainerAsync(a, scene, { ...options, pluginExtension: '.glb' }) : BABYLON.LoadAssetContainerAsync(a, scene, options));
	const asset = spec.asset, json = gltfJson(await bytesOf(asset));
	const ca = await load(asset), cb = await load(asset);
	ca.addAllToScene(); cb.addAllToScene();
	for (const g of [...ca.animationGroups, ...cb.animationGroups]) g.stop();
	const k = spec.clip ?? longestClip(anim), info = anim.clip(k);
	const A = ca.animationGroups[k];
	const nodesB = [...cb.transformNodes, ...cb.meshes];
	const rootA = ca.meshes.find((m) => m.name === '__root__'), rootB = cb.meshes.find((m) => m.name === '__root__');
	let B, targets, expected = (pose) => pose;
	if (spec.world) {
		const ws = await SinewWorldScene.create(scene);
		const c = ws.add(nodesB, [ws.load(bytes)], { layers: anim.clipCount, json });
		B = c.group(k);
		const index = info.joints.map((j) => c._binding.nodes.indexOf(j.node));
		targets = index.map((i) => (i >= 0 ? c._binding.targets[i] : null));
		// the sub-tracks the glTF animation has no channel for stay at the nodes' rest values (the engine's too)
		const part = B.clip.participation, rest = c.player.rest.slice();
		expected = (pose) => {
			const out = Float32Array.from(pose);
			index.forEach((i, j) => {
				if (i < 0) return;
				for (const [bit, o, n] of [[1, 0, 4], [2, 4, 3], [4, 7, 3]]) if (!(part[j] & bit)) for (let e = 0; e < n; e++) out[j * 10 + o + e] = rest[i * 10 + o + e];
			});
			return out;
		};
	} else {
		B = new SinewAnimationGroup(anim, nodesB, { scene, clip: k, json });
		targets = B.targets;
	}
	const { gltfNodeMap } = await import('../../adapters/babylon.mjs');
	const mapA = gltfNodeMap([...ca.transformNodes, ...ca.meshes]);
	const nodesA = info.joints.map((j) => (j.node === null ? null : mapA.get(j.node) ?? null));
	const failures = [], events = { engine: [], sinew: [] };
	const listen = (g, list) => {
		let frame = -1;
		const log = (what) => list.push(`${frame}:${what}`);
		g.onAnimationGroupPlayObservable.add(() => log('play'));
		g.onAnimationGroupPauseObservable.add(() => log('pause'));
		g.onAnimationGroupLoopObservable.add(() => log('group loop'));
		g.onAnimationGroupEndObservable.add(() => log('group end'));
		let loops = 0, ends = 0;
		g.onAnimationLoopObservable.add(() => loops++);
		g.onAnimationEndObservable.add(() => ends++);
		return { setFrame: (f) => { if (loops) log(`animation loop x${loops}`); if (ends) log(`animation end x${ends}`); loops = ends = 0; frame = f; } };
	};
	const la = listen(A, events.engine), lb = listen(B, events.sinew);
	const { steps, frames } = babylonScript(A.to);
	if (Math.abs(B.to - A.to) > 1e-3) failures.push(`to: engine ${A.to}, sinew ${B.to}`);
	const report = { clip: k, name: info.name, to: A.to, frames, worstFrame: 0, worstPose: 0, worstShellCm: 0, steps: steps.map((x) => `${x[0]}: ${x[1]}`) };
	const getB = BABYLON_SETTERS.get;
	let si = 0, held = null;
	const frameLog = [];
	for (let f = 0; f < frames; f++) {
		la.setFrame(f); lb.setFrame(f);
		let opShows = null;
		while (si < steps.length && steps[si][0] === f) { steps[si][2](A); steps[si][2](B); opShows = steps[si][3]; si++; }
		const wasStarted = A.isStarted;
		scene.animate();
		la.setFrame(f + 0.5); lb.setFrame(f + 0.5); // flush this frame's per-animation counts
		const fa = A.getCurrentFrame(), fb = B.getCurrentFrame();
		const line = { f, engine: fa, sinew: fb, started: [A.isStarted, B.isStarted], playing: [A.isPlaying, B.isPlaying] };
		frameLog.push(line);
		report.worstFrame = Math.max(report.worstFrame, Math.abs(fa - fb));
		if (!(Math.abs(fa - fb) <= 1e-9)) failures.push(`frame ${f}: engine shows frame ${fa}, sinew ${fb}`);
		if (A.isStarted !== B.isStarted || A.isPlaying !== B.isPlaying) failures.push(`frame ${f}: isStarted/isPlaying engine ${A.isStarted}/${A.isPlaying}, sinew ${B.isStarted}/${B.isPlaying}`);
		if (Math.abs(A.getRetainedCurrentFrame() - B.getRetainedCurrentFrame()) > 1e-9) failures.push(`frame ${f}: retained frame engine ${A.getRetainedCurrentFrame()}, sinew ${B.getRetainedCurrentFrame()}`);
		// B's nodes: the pose at the engine's frame while it animates; otherwise what they held
		const now = targets.map((n) => (n ? getB(n) : null));
		// (a group that ended in this step shows its last frame: the retained one)
		// (the world adapter drops a stopped group from the blend: its nodes then follow the others)
		const shown = A.isStarted ? fa : wasStarted ? A.getRetainedCurrentFrame() : spec.world ? null : opShows;
		if (shown !== null) {
			const err = poseError(targets, getB, expected(ref.sample(k, shown / FPS)));
			report.worstPose = Math.max(report.worstPose, err);
			if (!(err <= 1e-5)) failures.push(`frame ${f}: sinew's nodes are ${err.toExponential(2)} from the pose at the engine's frame ${shown}`);
		} else if (held && !spec.world) {
			const moved = now.some((v, j) => v && v.some((x, i) => x !== held[j][i]));
			if (moved) failures.push(`frame ${f}: the engine's group is stopped but sinew's nodes moved`);
		}
		held = now;
		// A vs B in the root's space
		if (A.isStarted) {
			const computeAll = (root) => { const visit = (n) => { n.computeWorldMatrix(true); for (const c of n.getChildren()) visit(c); }; visit(root); };
			computeAll(rootA); computeAll(rootB);
			const invA = BABYLON.Matrix.Invert(rootA.getWorldMatrix()), invB = BABYLON.Matrix.Invert(rootB.getWorldMatrix());
			const pts = (node, inv) => {
				const m = node.getWorldMatrix().multiply(inv).m;
				return shellPoints([m[12], m[13], m[14]], [m[0], m[1], m[2]], [m[4], m[5], m[6]], [m[8], m[9], m[10]]);
			};
			nodesA.forEach((na, j) => { if (na && targets[j]) report.worstShellCm = Math.max(report.worstShellCm, shellDistance(pts(na, invA), pts(targets[j], invB))); });
		}
	}
	const ea = events.engine.join(', '), eb = events.sinew.join(', ');
	if (ea !== eb) failures.push(`events differ:\n  engine [${ea}]\n  sinew  [${eb}]`);
	report.events = events.engine.length;
	report.eventList = events.engine;
	report.failures = failures;
	report.frameLog = spec.verbose ? frameLog : undefined;
	for (const g of [A, B]) g.stop(true);
	if (B.dispose) B.dispose();
	return report;
}

/* ---------------- three.js ---------------- */

// The script for three's API (a, b: the actions of the longest clip and of another; d: a's clip duration).
function threeScript(d, db, three) {
	const s = [];
	let f = 0;
	const frames = (seconds) => Math.ceil(seconds * 60);
	const at = (n, what, op) => { s.push([f, what, op]); f += n; };
	at(frames(d) + 5, 'a.play()', (m, a) => a.play());
	at(frames(d / 4) + 5, 'a.timeScale = 2', (m, a) => { a.timeScale = 2; });
	at(4, 'a.paused = true', (m, a) => { a.paused = true; });
	at(5, 'a.paused = false', (m, a) => { a.paused = false; });
	at(6, 'a.time = 0.3 d (seek)', (m, a) => { a.time = 0.3 * d; });
	at(frames(d / 2) + 10, 'setLoop(LoopPingPong)', (m, a) => a.setLoop(three.LoopPingPong, Infinity));
	at(8, 'mixer.timeScale = 0.5', (m) => { m.timeScale = 0.5; });
	at(frames(d) + 10, 'mixer.timeScale = 1, reset(), setLoop(LoopRepeat, 2)', (m, a) => { m.timeScale = 1; a.reset().setLoop(three.LoopRepeat, 2); });
	at(5, 'a.stop()', (m, a) => a.stop());
	at(frames(d / 3) + 12, 'LoopOnce, clampWhenFinished, timeScale 3, play()', (m, a) => { a.setLoop(three.LoopOnce, 1); a.clampWhenFinished = true; a.timeScale = 3; a.play(); });
	at(40, 'b.play(); a.crossFadeTo(b, 0.5)', (m, a, b) => { b.play(); a.crossFadeTo(b, 0.5); });
	at(frames(db / 2) + 12, 'b.fadeOut(0.3)', (m, a, b) => { b.fadeOut(0.3); });
	at(25, 'a.stop(), b.stop(), a.reset().setLoop(LoopRepeat).play().warp(1, 2.5, 0.6)', (m, a, b) => { a.stop(); b.stop(); a.timeScale = 1; a.reset().setLoop(three.LoopRepeat, Infinity).play().warp(1, 2.5, 0.6); });
	at(50, 'a.halt(0.3)', (m, a) => a.halt(0.3));
	at(30, 'a.timeScale = -1, paused = false', (m, a) => { a.timeScale = -1; a.paused = false; });
	at(frames(d) + 10, 'a.setEffectiveWeight(0.5)', (m, a) => a.setEffectiveWeight(0.5));
	at(10, 'b.play() (weights 0.5 + 1), crossFadeTo warp', (m, a, b) => { b.reset().play(); b.setEffectiveWeight(1); b.crossFadeTo(a, 0.4, true); });
	at(40, 'b.startAt(mixer.time + 0.2), setLoop(LoopOnce), clampWhenFinished = false', (m, a, b) => { b.stop(); b.setLoop(three.LoopOnce, 1); b.clampWhenFinished = false; b.startAt(m.time + 0.2).play(); a.setEffectiveWeight(0.4); });
	at(frames(db) + 25, 'stopAllAction()', (m) => m.stopAllAction());
	return { steps: s, frames: f + 3 };
}

// three's AnimationMixer algorithm on sinew's samples (a second implementation of what the adapter does):
// per bound property, the contributing actions in the mixer's order, accumulated by slerp / lerp with
// weight / cumulative weight, then the original value filling the weight below 1.
function threeModel(three, order, clipOf, rest, sub) {
	const out = rest.slice();
	const J = rest.length;
	for (let p = 0; p < J; p++) {
		const [n, quat] = sub(p);
		if (n === 0) continue;
		let acc = null, cum = 0;
		for (const { pose, weight, binds, slot } of order) {
			const at = slot(p);
			if (!(weight > 0) || at < 0 || !binds(p)) continue;
			const v = Array.from(pose.subarray(at, at + n));
			if (cum === 0) { acc = v; cum = weight; continue; }
			cum += weight;
			const t = weight / cum;
			if (quat) { const o = new Float64Array(4); three.Quaternion.slerpFlat(o, 0, acc, 0, v, 0, t); acc = Array.from(o); } else acc = acc.map((x, i) => x * (1 - t) + v[i] * t);
		}
		const orig = Array.from(rest.subarray(p, p + n));
		if (acc === null) acc = orig;
		else if (cum < 1) {
			if (quat) { const o = new Float64Array(4); three.Quaternion.slerpFlat(o, 0, acc, 0, orig, 0, 1 - cum); acc = Array.from(o); } else acc = acc.map((x, i) => x * cum + orig[i] * (1 - cum));
		}
		out.set(acc, p);
		p += n - 1;
	}
	return out;
}

// spec: { asset (URL or .glb bytes), blob, world (the world adapter instead of three.mjs) }
export async function runFramesThree(spec) {
	const THREE = await import('three');
	const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
	const { SinewMixer } = await import('../../adapters/three.mjs');
	const W = await import('../../adapters/three_world.mjs');
	const bytes = await bytesOf(spec.blob), assetBytes = await bytesOf(spec.asset);
	const anim = await Sinew.load(bytes), ref = await Sinew.load(bytes);
	const loader = new GLTFLoader();
	const base = typeof spec.asset === 'string' ? spec.asset.replace(/[^/]*$/, '') : ''; // (a .gltf's buffers beside it)
	const parse = () => loader.parseAsync(assetBytes.buffer.slice(assetBytes.byteOffset, assetBytes.byteOffset + assetBytes.byteLength), base);
	const A = await parse(), B = await parse();
	const scene = new THREE.Scene();
	scene.add(A.scene, B.scene);
	const k = spec.clip ?? longestClip(anim);
	let k2 = (k + 1) % anim.clipCount;
	for (let i = 0; i < anim.clipCount; i++) if (i !== k && anim.clip(i).duration > 0.3) { k2 = i; break; }
	const info = anim.clip(k), info2 = anim.clip(k2);
	const mixerA = new THREE.AnimationMixer(A.scene);
	const a = mixerA.clipAction(A.animations[k]), b = mixerA.clipAction(A.animations[k2]);
	let mixerB, sa, sb, step;
	const nodeMap = (g) => { const m = new Map(); g.scene.traverse((o) => { const x = g.parser.associations.get(o); if (x?.nodes !== undefined && !m.has(x.nodes)) m.set(x.nodes, o); }); return m; };
	const nodesA = nodeMap(A), nodesB = nodeMap(B);
	if (spec.world) {
		const sm = await W.SinewSceneMixer.create();
		mixerB = sm.add(B, [sm.load(bytes)]);
		sa = mixerB.clipAction(k); sb = mixerB.clipAction(k2);
		step = (dt) => sm.update(dt);
	} else {
		mixerB = new SinewMixer(B, anim);
		sa = mixerB.clipAction(k); sb = mixerB.clipAction(k2);
		step = (dt) => mixerB.update(dt);
	}
	const names = new Map([[a, 'a'], [b, 'b'], [sa, 'a'], [sb, 'b']]);
	const events = { engine: [], sinew: [] };
	let frame = -1;
	const listen = (m, list) => {
		m.addEventListener('loop', (e) => list.push(`${frame}:loop ${names.get(e.action)} ${e.loopDelta}`));
		m.addEventListener('finished', (e) => list.push(`${frame}:finished ${names.get(e.action)} ${e.direction}`));
	};
	listen(mixerA, events.engine); listen(mixerB, events.sinew);
	// per glTF node: the sub-tracks each clip's glTF animation binds, and B's objects
	const json = A.parser.json;
	const channels = (ci) => new Set((json.animations[ci].channels ?? []).map((c) => `${c.target.node}:${c.target.path}`));
	const ch = [channels(k), channels(k2)];
	const joints = info.joints.map((j) => j.node); // joint order of the clips (one rig: the same nodes)
	const rest = new Float64Array(joints.length * 10);
	const getB = (o) => [o.quaternion.x, o.quaternion.y, o.quaternion.z, o.quaternion.w, o.position.x, o.position.y, o.position.z, o.scale.x, o.scale.y, o.scale.z];
	joints.forEach((n, j) => { const o = n === null ? null : nodesB.get(n); if (o) rest.set(getB(o), j * 10); });
	const PATHS = ['rotation', 'translation', 'scale'];
	const subOf = (p) => { const r = p % 10; return r === 0 ? [4, true] : r === 4 || r === 7 ? [3, false] : [0, false]; };
	const jointOf2 = new Map(info2.joints.map((j, i) => [j.node, i]));
	const { steps, frames } = threeScript(info.duration, info2.duration, THREE);
	const failures = [];
	const report = { clip: k, other: k2, name: info.name, otherName: info2.name, frames, worstTime: 0, worstPose: 0, worstShellCm: 0, blendedFrames: 0, steps: steps.map((x) => `${x[0]}: ${x[1]}`) };
	const clipTime = (x) => (x.loop === THREE.LoopPingPong && (x._loopCount & 1) === 1 ? x.getClip().duration - x.time : x.time);
	let si = 0;
	const invA = new THREE.Matrix4(), invB = new THREE.Matrix4(), rel = new THREE.Matrix4();
	const pointsOf = (o, inv) => {
		const e = rel.multiplyMatrices(inv, o.matrixWorld).elements;
		return shellPoints([e[12], e[13], e[14]], [e[0], e[1], e[2]], [e[4], e[5], e[6]], [e[8], e[9], e[10]]);
	};
	for (let f = 0; f < frames; f++) {
		frame = f;
		while (si < steps.length && steps[si][0] === f) { steps[si][2](mixerA, a, b); steps[si][2](mixerB, sa, sb); si++; }
		mixerA.update(1 / 60);
		step(1 / 60);
		for (const [x, y, label] of [[a, sa, 'a'], [b, sb, 'b']]) {
			const dt = Math.abs(x.time - y.time);
			report.worstTime = Math.max(report.worstTime, dt);
			if (!(dt <= 1e-9)) failures.push(`frame ${f}: ${label}.time engine ${x.time}, sinew ${y.time}`);
			if (x.enabled !== y.enabled || x.paused !== y.paused || x.isRunning() !== y.isRunning() || x.isScheduled() !== y.isScheduled())
				failures.push(`frame ${f}: ${label} enabled/paused/isRunning/isScheduled engine ${x.enabled}/${x.paused}/${x.isRunning()}/${x.isScheduled()}, sinew ${y.enabled}/${y.paused}/${y.isRunning()}/${y.isScheduled()}`);
			if (!(Math.abs(x.getEffectiveWeight() - y.getEffectiveWeight()) <= 1e-7)) failures.push(`frame ${f}: ${label} effective weight engine ${x.getEffectiveWeight()}, sinew ${y.getEffectiveWeight()}`);
			if (!(Math.abs(x.getEffectiveTimeScale() - y.getEffectiveTimeScale()) <= 1e-6)) failures.push(`frame ${f}: ${label} effective time scale engine ${x.getEffectiveTimeScale()}, sinew ${y.getEffectiveTimeScale()}`);
		}
		// B's nodes: three's algorithm on sinew's samples at the engine's clip times and weights, in the
		// engine's action order
		const order = [];
		for (let i = 0; i < mixerA._nActiveActions; i++) {
			const x = mixerA._actions[i], isA = x === a, ci = isA ? k : k2, w = x.getEffectiveWeight();
			const chs = ch[isA ? 0 : 1];
			order.push({ weight: w, pose: ref.sample(ci, clipTime(x)).slice(),
				binds: (p) => chs.has(`${joints[Math.floor(p / 10)]}:${PATHS[p % 10 === 0 ? 0 : p % 10 === 4 ? 1 : 2]}`),
				slot: isA ? (p) => p : (p) => { const j = jointOf2.get(joints[Math.floor(p / 10)]); return j === undefined ? -1 : j * 10 + (p % 10); } });
		}
		const contributing = order.filter((o) => o.weight > 0);
		if (contributing.length !== 1 || contributing[0].weight !== 1) report.blendedFrames++;
		const want = threeModel(THREE, order, null, rest, subOf);
		let err = 0;
		joints.forEach((n, j) => {
			const o = n === null ? null : nodesB.get(n);
			if (!o) return;
			const v = getB(o), q = want.subarray(j * 10, j * 10 + 4);
			const s = v[0] * q[0] + v[1] * q[1] + v[2] * q[2] + v[3] * q[3] < 0 ? -1 : 1;
			for (let i = 0; i < 10; i++) err = Math.max(err, Math.abs((i < 4 ? s : 1) * v[i] - want[j * 10 + i]) / Math.max(1, Math.abs(want[j * 10 + i])));
		});
		// the world blends by a normalized weighted sum (web/README.md §Blending semantics), not three's slerp
		// chain: where actions blend its distance is the formula's and is reported; elsewhere it is exact
		const blended = contributing.length !== 1 || contributing[0].weight !== 1;
		if (spec.world && blended) report.worstBlend = Math.max(report.worstBlend ?? 0, err);
		else report.worstPose = Math.max(report.worstPose, err);
		if (!(err <= (spec.world && blended ? 0.05 : 1e-5))) failures.push(`frame ${f}: sinew's nodes are ${err.toExponential(2)} from three's blend of sinew's samples`);
		if (contributing.length) {
			scene.updateMatrixWorld(true);
			invA.copy(A.scene.matrixWorld).invert(); invB.copy(B.scene.matrixWorld).invert();
			joints.forEach((n) => { if (n !== null && nodesA.get(n) && nodesB.get(n)) report.worstShellCm = Math.max(report.worstShellCm, shellDistance(pointsOf(nodesA.get(n), invA), pointsOf(nodesB.get(n), invB))); });
		}
	}
	const ea = events.engine.join(', '), eb = events.sinew.join(', ');
	if (ea !== eb) failures.push(`events differ:\n  engine [${ea}]\n  sinew  [${eb}]`);
	report.events = events.engine.length;
	report.eventList = events.engine;
	report.failures = failures;
	return report;
}

if (typeof window !== 'undefined') window.sinewFramesTest = { runFramesBabylon, runFramesThree, ready: true };
