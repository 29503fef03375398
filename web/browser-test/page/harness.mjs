// sinew — see include/sinew.h for version and licence
// Browser side of the adapter tests: for one asset and one engine, loads the glTF twice, plays
// each clip with the engine's own player on copy A and with the sinew adapter on copy B, and
// measures the root-space distance between every mapped node's origin and its six 3 cm shell points
// (DESIGN §4) at 21 times per clip, plus morph weights. Also counts wasm calls per frame.
import Sinew from '../../sinew.mjs';
import { SinewMixer } from '../../adapters/three.mjs';
import { SinewAnimationGroup } from '../../adapters/babylon.mjs';

const SHELL = 0.03; // metres
const TIMES = 21;

// Counts every call into the wasm exports (the node tests wrap them the same way).
let wasmCalls = 0;
export const wasmCallCount = () => wasmCalls;
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (...args) => {
	const result = await instantiate.apply(WebAssembly, args);
	const instance = result instanceof WebAssembly.Instance ? result : result.instance;
	const exports = {};
	for (const [name, value] of Object.entries(instance.exports)) {
		exports[name] = typeof value === 'function' ? (...a) => (wasmCalls++, value(...a)) : value;
	}
	return { exports };
};

async function fetchBytes(url) {
	const r = await fetch(url);
	if (!r.ok) throw new Error(`${url}: ${r.status}`);
	return new Uint8Array(await r.arrayBuffer());
}

// The animation of a test: a .sinew blob, or the blob inside a glTF packed by `sinew pack` (the
// adapter's copy of the scene is then loaded from that packed file too).
async function loadAnim(spec) {
	if (spec.packed) return (await Sinew.loadPacked(await fetchBytes(spec.packed))).animation;
	return Sinew.load(await fetchBytes(spec.blob));
}

function sampleTimes(d) { // both ends plus times off the key grid
	const out = [];
	for (let i = 0; i < TIMES; i++) out.push(i === 0 || i === TIMES - 1 ? (i / (TIMES - 1)) * d : ((i + 0.137) / (TIMES - 1)) * d);
	return out;
}

// DESIGN §4 shell points: the node's origin and the six points origin +- d along its root-space axes,
// d = 3 cm in scene units: the axis columns of the node's root-space transform normalized, so the
// armature's scale does not change d (a zero-length axis keeps its points on the origin).
export function shellPoints(o, ax, ay, az) {
	const pts = [o];
	for (const a of [ax, ay, az]) {
		const n = Math.hypot(a[0], a[1], a[2]), k = n > 0 ? SHELL / n : 0;
		pts.push([o[0] + k * a[0], o[1] + k * a[1], o[2] + k * a[2]], [o[0] - k * a[0], o[1] - k * a[1], o[2] - k * a[2]]);
	}
	return pts;
}

function compare(stats, pa, pb) {
	const d0 = Math.hypot(pa[0][0] - pb[0][0], pa[0][1] - pb[0][1], pa[0][2] - pb[0][2]);
	let ds = 0;
	for (let i = 1; i < pa.length; i++) ds = Math.max(ds, Math.hypot(pa[i][0] - pb[i][0], pa[i][1] - pb[i][1], pa[i][2] - pb[i][2]));
	stats.maxPosCm = Math.max(stats.maxPosCm, d0 * 100);
	stats.maxShellCm = Math.max(stats.maxShellCm, ds * 100);
}

// Root-space shell points of a three.js object (root and obj world matrices up to date): one reusable
// pair of matrices per returned function.
export function threeShellPoints(THREE) {
	const inv = new THREE.Matrix4(), rel = new THREE.Matrix4();
	return (obj, root) => {
		inv.copy(root.matrixWorld).invert();
		rel.multiplyMatrices(inv, obj.matrixWorld);
		const e = rel.elements;
		return shellPoints([e[12], e[13], e[14]], [e[0], e[1], e[2]], [e[4], e[5], e[6]], [e[8], e[9], e[10]]);
	};
}

// Local TRS of a node as 10 floats and back (three: quaternion/position/scale; Babylon:
// rotationQuaternion/position/scaling).
function getLocal(n) {
	const q = n.rotationQuaternion ?? n.quaternion, p = n.position, s = n.scaling ?? n.scale;
	return [q.x, q.y, q.z, q.w, p.x, p.y, p.z, s.x, s.y, s.z];
}
function setLocal(n, v) {
	const q = n.rotationQuaternion ?? n.quaternion, p = n.position, s = n.scaling ?? n.scale;
	q.set(v[0], v[1], v[2], v[3]); p.set(v[4], v[5], v[6]); s.set(v[7], v[8], v[9]);
}
// docs/format.md sampling step 5: lerp, and for rotations normalized lerp on the shortest arc, which with
// Slerp_fit (every clip sinew writes) follows the slerp within 6e-8 rad: the slerp is the reference then.
function nlerp(a, b, t, slerp) {
	const dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
	const sign = dot < 0 ? -1 : 1, w = Math.acos(Math.min(1, Math.abs(dot)));
	const wa = slerp && w > 1e-9 ? Math.sin((1 - t) * w) / Math.sin(w) : 1 - t, wb = slerp && w > 1e-9 ? Math.sin(t * w) / Math.sin(w) : t;
	const q = [0, 1, 2, 3].map((i) => a[i] * wa + b[i] * sign * wb);
	const l = Math.hypot(...q) || 1;
	return [...q.map((x) => x / l), ...[4, 5, 6, 7, 8, 9].map((i) => a[i] + (b[i] - a[i]) * t)];
}

// The sample position of time t and the time of sample k (docs/format.md §Sampling semantics step 1 and
// §Time map): k / rate, or through the clip's time marks.
function sampleKey(info, t) {
	const m = info.timeMarks;
	if (!m) return t * info.sampleRate;
	if (!(t > m[0].time)) return 0;
	if (t >= m[m.length - 1].time) return m[m.length - 1].sample;
	let i = 0;
	while (m[i + 1].time <= t) i++;
	return m[i].sample + ((t - m[i].time) * (m[i + 1].sample - m[i].sample)) / (m[i + 1].time - m[i].time);
}
function sampleTime(info, k) {
	const m = info.timeMarks;
	if (!m) return k / info.sampleRate;
	let i = 0;
	while (i + 2 < m.length && m[i + 1].sample <= k) i++;
	return m[i].time + ((k - m[i].sample) * (m[i + 1].time - m[i].time)) / (m[i + 1].sample - m[i].sample);
}

// Compares copy A (engine player) with copy B (sinew adapter) at time t: stats.maxPosCm/maxShellCm
// against the engine's own interpolation (slerp, or the source keys when the clip was resampled),
// stats.nlerp* against the engine poses at the two neighbouring sinew samples interpolated as the
// format specifies (what the compressed data must reproduce within its error bound).
function measure(st, t, info, mapped, nodeA, setEngine, syncB, world, pointsA, pointsB) {
	setEngine(t); syncB(t); world();
	let pos = 0, shell = 0;
	const keep = { maxPosCm: 0, maxShellCm: 0 };
	for (const n of mapped) compare(keep, pointsA(n), pointsB(n));
	st.maxPosCm = Math.max(st.maxPosCm, keep.maxPosCm); st.maxShellCm = Math.max(st.maxShellCm, keep.maxShellCm);
	const key = sampleKey(info, t), k0 = Math.floor(key + 1e-6), alpha = key - k0;
	if (alpha > 1e-6) {
		setEngine(sampleTime(info, k0)); const l0 = mapped.map((n) => getLocal(nodeA(n)));
		setEngine(sampleTime(info, k0 + 1)); const l1 = mapped.map((n) => getLocal(nodeA(n)));
		mapped.forEach((n, i) => setLocal(nodeA(n), nlerp(l0[i], l1[i], alpha, info.slerpFit)));
		world();
		const between = { maxPosCm: 0, maxShellCm: 0 };
		for (const n of mapped) compare(between, pointsA(n), pointsB(n));
		pos = between.maxPosCm; shell = between.maxShellCm;
	} else {
		pos = keep.maxPosCm; shell = keep.maxShellCm;
		st.maxKeyCm = Math.max(st.maxKeyCm, pos, shell);
	}
	st.nlerpPosCm = Math.max(st.nlerpPosCm, pos); st.nlerpShellCm = Math.max(st.nlerpShellCm, shell);
}

function longestClip(anim) {
	let best = 0;
	for (let k = 1; k < anim.clipCount; k++) if (anim.clip(k).duration > anim.clip(best).duration) best = k;
	return best;
}

function newStats(k, name, engineName, nodes, d) {
	return { clip: k, name, engineName, nodes, duration: d, times: 0, maxPosCm: 0, maxShellCm: 0, nlerpPosCm: 0, nlerpShellCm: 0, maxKeyCm: 0, maxMorph: 0, morphs: 0, wasmCallsPerFrame: [] };
}


/* ---------------- playback controls (both adapters) ---------------- */

// Drives one adapter through its controls and checks wasm calls and node values against a second,
// independent instance of the same blob, so the adapter's own changed-bitset bookkeeping is what gets
// tested (the timing of every control against the engine is frames_harness.mjs's). ops (per engine):
// make(clip) -> h with h.targets, h.time (clip seconds), h.start(speed) (looping, from 0), h.pause(),
// h.resume(), h.weight(w), h.seek(t) (writes at once), h.invalidate(), h.stop(), h.once(speed) (play
// once from 0 to the end); advance(frames); nothing(clip) -> a player of the same animation that writes
// no node, with seek(t).
async function controls(anim, spec, clip, ops) {
	const ref = await loadAnim(spec);
	const info = anim.clip(clip), d = info.duration;
	const failures = [];
	const fail = (what) => failures.push(`controls: ${what}`);
	const h = ops.make(clip);
	// the outputs the adapter drives (h.binds(joint, 0 rotation | 1 translation | 2 scale): three binds only
	// the properties the clip's glTF animation has channels for, as three's clips do)
	const bound = (j, i) => (h.binds ? h.binds(j, i < 4 ? 0 : i < 7 ? 1 : 2) : true);
	const snapshot = () => h.targets.map((n) => (n ? getLocal(n) : null));
	const same = (x, y) => x.every((v, j) => v === null || v.every((c, i) => !bound(j, i) || c === y[j][i]));
	const holds = (label, t) => {
		const pose = ref.sample(clip, t);
		h.targets.forEach((n, j) => {
			if (!n) return;
			const v = getLocal(n);
			for (let i = 0; i < 10; i++) {
				if (bound(j, i) && Math.abs(v[i] - pose[j * 10 + i]) > 1e-7) { fail(`${label}: joint ${j} holds ${v} not the pose at ${t}`); return; }
			}
		});
	};
	const calls = (label, want, fn) => {
		const before = wasmCalls; fn();
		if (wasmCalls - before !== want) fail(`${label}: ${wasmCalls - before} wasm calls, expected ${want}`);
	};
	const original = snapshot(); // what the engines put back: the nodes' values when the clip started
	calls('play at speed 2', 5, () => { h.start(2); ops.advance(5); });
	holds('speed 2', h.time);
	for (let f = 0; f < 4; f++) { ops.advance(1); holds(`frame ${f} (changed outputs only)`, h.time); }
	h.pause();
	let before = snapshot(), t = h.time;
	calls('paused', 0, () => ops.advance(3));
	if (h.time !== t || !same(snapshot(), before)) fail('paused: time or nodes moved');
	h.resume();
	h.weight(0);
	calls('weight 0', 0, () => ops.advance(3));
	if (!(h.time !== t)) fail(`weight 0: time ${h.time} did not advance`);
	if (!same(snapshot(), original)) fail('weight 0: the nodes do not hold their values from the start');
	h.weight(1);
	calls('weight back to 1', 1, () => ops.advance(1));
	holds('weight back to 1', h.time);
	h.pause();
	// another player of the same animation samples the time this one is about to show: this one
	// must still write its nodes (the runtime's changed bitset then says "nothing changed")
	const target = (h.time + 0.37 * d) % d;
	ops.nothing(clip).seek(target);
	calls('seek after another player', 1, () => h.seek(target));
	holds('seek after another player', target);
	// other code moves the nodes: after invalidate() the next write (same time: nothing "changed")
	// must set every output again
	for (const n of h.targets) if (n) n.position.set(9, 9, 9);
	h.invalidate();
	calls('invalidate', 1, () => h.seek(target));
	holds('after invalidate', target);
	before = snapshot();
	calls('stop', 0, () => h.stop());
	calls('stopped', 0, () => ops.advance(2));
	if (!same(snapshot(), ops.stopRestores ? original : before)) fail(`stop: the nodes do not hold ${ops.stopRestores ? 'their values from the start' : 'their values'}`);
	h.once(1000);
	ops.advance(2);
	// (the end as the engine takes it: the glTF's last key time, float32)
	if (!(Math.abs(h.time - h.end) < 1e-9 && Math.abs(h.end - d) < 1e-5)) fail(`play once at speed 1000: time ${h.time}, expected the end ${h.end} (the blob's ${d})`);
	holds('end', Math.min(h.time, d));
	return { failures, clip, checks: 'speed, pause, weight 0/1, seek, invalidate, stop, clamp at the end' };
}

/* ---------------- three.js ---------------- */

export async function runThree(spec) {
	const { asset } = spec;
	const THREE = await import('three');
	const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
	const anim = await loadAnim(spec);
	const loader = new GLTFLoader();
	const A = await loader.loadAsync(asset), B = await loader.loadAsync(spec.packed ?? asset);
	const scene = new THREE.Scene();
	scene.add(A.scene, B.scene);
	const nodeOf = (g) => {
		const m = new Map();
		g.scene.traverse((o) => { const a = g.parser.associations.get(o); if (a?.nodes !== undefined && !m.has(a.nodes)) m.set(a.nodes, o); });
		return m;
	};
	const nodesA = nodeOf(A), nodesB = nodeOf(B);
	const box = new THREE.Box3().setFromObject(A.scene);
	const size = box.getSize(new THREE.Vector3());
	B.scene.position.x = Math.max(size.x, size.z, 0.5) * 1.2;
	const mixerA = new THREE.AnimationMixer(A.scene);
	const clips = [];
	const pointsOf = threeShellPoints(THREE);
	const morphMeshes = (o) => { const l = []; o.traverse((c) => { if (c.morphTargetInfluences) l.push(c); }); return l; };
	let lastB = null;
	for (let k = 0; k < anim.clipCount; k++) {
		const info = anim.clip(k);
		const clipA = A.animations[k];
		if (!clipA) throw new Error(`three: no animation ${k} in ${asset}`);
		mixerA.stopAllAction();
		if (lastB) lastB.stopAllAction(); // (as the engine's: the last clip's properties back to their original values)
		const action = mixerA.clipAction(clipA);
		action.reset(); action.setLoop(THREE.LoopOnce, 1); action.clampWhenFinished = true; action.play();
		const mixerB = new SinewMixer(B, anim);
		const actionB = mixerB.clipAction(k).setLoop(THREE.LoopOnce, 1);
		actionB.clampWhenFinished = true; actionB.play();
		if (mixerB.missingOf(k).length) throw new Error(`three: glTF nodes ${mixerB.missingOf(k)} of clip ${k} not found`);
		const mapped = info.joints.map((j) => j.node).filter((n) => n !== null);
		const st = newStats(k, info.name, clipA.name, mapped.length, Math.min(clipA.duration, info.duration));
		st.durationEngine = clipA.duration; st.durationSinew = info.duration;
		for (const t of sampleTimes(st.duration)) {
			measure(st, t, info, mapped, (n) => nodesA.get(n),
				(u) => { action.time = u; mixerA.update(0); },
				(u) => { const before = wasmCalls; mixerB.setTime(u); st.wasmCallsPerFrame.push(wasmCalls - before); },
				() => scene.updateMatrixWorld(true),
				(n) => pointsOf(nodesA.get(n), A.scene), (n) => pointsOf(nodesB.get(n), B.scene));
			action.time = t; mixerA.update(0);
			info.scalars.forEach((s) => {
				if (s.node === null) return;
				const ma = morphMeshes(nodesA.get(s.node)), mb = morphMeshes(nodesB.get(s.node));
				ma.forEach((m, i) => { st.maxMorph = Math.max(st.maxMorph, Math.abs(m.morphTargetInfluences[s.target] - mb[i].morphTargetInfluences[s.target])); st.morphs++; });
			});
			st.times++;
		}
		// Playback: 10 frames of update(1/60), one wasm call each.
		actionB.stop(); actionB.setLoop(THREE.LoopRepeat, Infinity); actionB.play();
		const start = wasmCalls;
		for (let f = 0; f < 10; f++) mixerB.update(1 / 60);
		st.playbackCalls = wasmCalls - start; st.playbackTime = actionB.time;
		clips.push(st);
		lastB = mixerB;
	}
	const clipC = longestClip(anim);
	let controlMixer = null;
	const ctl = await controls(anim, spec, clipC, {
		make: (k) => {
			const m = controlMixer = new SinewMixer(B, anim), a = m.clipAction(k);
			const parts = new Set(m._clipOf(k).bound.map((x) => `${x.joint}:${x.part}`));
			return {
				targets: m.targetsOf(k), get time() { return a.time; }, end: a.getClip().duration, binds: (j, p) => parts.has(`${j}:${p}`),
				start: (v) => { a.timeScale = v; a.play(); }, pause: () => { a.paused = true; }, resume: () => { a.paused = false; },
				weight: (w) => a.setEffectiveWeight(w), seek: (t) => { a.time = t; m.update(0); }, invalidate: () => m.invalidate(),
				stop: () => a.stop(), once: (v) => { a.setLoop(THREE.LoopOnce, 1); a.clampWhenFinished = true; a.timeScale = v; a.play(); },
			};
		},
		advance: (n) => { for (let f = 0; f < n; f++) controlMixer.update(1 / 60); },
		nothing: (k) => { const m = new SinewMixer(B, anim, { nodes: () => null }), a = m.clipAction(k).play(); return { seek: (t) => { a.time = t; m.update(0); } }; },
		stopRestores: true, // three puts the original values back when the last action using them stops
	});
	// Picture: clip 0 at 40 % on both copies (engine left, sinew right).
	let rendered = false, renderError = null;
	try {
		mixerA.stopAllAction();
		const action = mixerA.clipAction(A.animations[0]);
		action.reset(); action.setLoop(THREE.LoopOnce, 1); action.clampWhenFinished = true; action.play();
		const t = clips[0].duration * 0.4;
		action.time = t; mixerA.update(0);
		const still = new SinewMixer(B, anim), last = still.clipAction(0).setLoop(THREE.LoopOnce, 1);
		last.clampWhenFinished = true; last.play(); still.setTime(t);
		const canvas = document.getElementById('view');
		const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
		renderer.setSize(640, 400, false);
		scene.background = new THREE.Color(0x303840);
		scene.add(new THREE.HemisphereLight(0xffffff, 0x404040, 2.5));
		const sun = new THREE.DirectionalLight(0xffffff, 2); sun.position.set(3, 5, 4); scene.add(sun);
		scene.updateMatrixWorld(true);
		const all = new THREE.Box3().setFromObject(scene);
		const c = all.getCenter(new THREE.Vector3()), s = all.getSize(new THREE.Vector3());
		const r = Math.max(s.x, s.y, s.z) || 1;
		const camera = new THREE.PerspectiveCamera(40, 640 / 400, r / 100, r * 100);
		camera.position.set(c.x, c.y + r * 0.25, c.z + r * 1.6);
		camera.lookAt(c);
		renderer.render(scene, camera);
		rendered = true;
	} catch (e) { renderError = String(e); }
	void lastB;
	return { engine: 'three', version: THREE.REVISION, simd: anim.simd, kernel: anim.clip(0).kernel, clips, controls: ctl, rendered, renderError };
}

/* ---------------- Babylon.js ---------------- */

export async function runBabylon(spec) {
	const { asset } = spec;
	const BABYLON = await import('@babylonjs/core/index.js');
	await import('@babylonjs/loaders/glTF/index.js');
	const anim = await loadAnim(spec);
	const canvas = document.getElementById('view');
	let engine, renderError = null;
	try { engine = new BABYLON.Engine(canvas, true, { preserveDrawingBuffer: true }); } catch (e) { renderError = String(e); engine = new BABYLON.NullEngine(); }
	const scene = new BABYLON.Scene(engine);
	scene.useConstantAnimationDeltaTime = true; // 16 ms per rendered frame: deterministic playback check
	const options = { pluginOptions: { gltf: { animationStartMode: 0 } } }; // NONE: nothing auto-starts
	const ca = await BABYLON.LoadAssetContainerAsync(asset, scene, options);
	const cb = await BABYLON.LoadAssetContainerAsync(spec.packed ?? asset, scene, options);
	ca.addAllToScene(); cb.addAllToScene();
	for (const g of [...ca.animationGroups, ...cb.animationGroups]) g.stop();
	const rootA = ca.meshes.find((m) => m.name === '__root__'), rootB = cb.meshes.find((m) => m.name === '__root__');
	const { gltfNodeMap } = await import('../../adapters/babylon.mjs');
	const nodesA = gltfNodeMap([...ca.transformNodes, ...ca.meshes]), nodesB = gltfNodeMap([...cb.transformNodes, ...cb.meshes]);
	// Rest pose of copy A, restored before each clip (stopping a group leaves its last values).
	const rest = [...ca.transformNodes, ...ca.meshes].map((n) => [n, n.position.clone(), n.rotationQuaternion?.clone(), n.scaling.clone()]);
	const restMorph = ca.meshes.filter((m) => m.morphTargetManager).flatMap((m) => {
		const l = []; for (let i = 0; i < m.morphTargetManager.numTargets; i++) { const t = m.morphTargetManager.getTarget(i); l.push([t, t.influence]); } return l;
	});
	const restore = () => {
		for (const [n, p, q, s] of rest) { n.position.copyFrom(p); if (q) n.rotationQuaternion.copyFrom(q); n.scaling.copyFrom(s); }
		for (const [t, v] of restMorph) t.influence = v;
	};
	rootA.computeWorldMatrix(true);
	const ext = rootA.getHierarchyBoundingVectors(true);
	const width = Math.max(ext.max.x - ext.min.x, ext.max.z - ext.min.z, 0.5);
	rootB.position.x = width * 1.2;
	scene.createDefaultCameraOrLight(true, false, false); // scene.render() needs a camera (playback check)
	const computeAll = (root) => { const visit = (n) => { n.computeWorldMatrix(true); for (const c of n.getChildren()) visit(c); }; visit(root); };
	const pointsOf = (node, root) => {
		const inv = BABYLON.Matrix.Invert(root.getWorldMatrix());
		const m = node.getWorldMatrix().multiply(inv).m; // row vectors: world * inverse(root) = root space
		return shellPoints([m[12], m[13], m[14]], [m[0], m[1], m[2]], [m[4], m[5], m[6]], [m[8], m[9], m[10]]);
	};
	const morphTargets = (node) => {
		const l = [];
		for (const m of [node, ...node.getChildren(undefined, false)]) if (m.morphTargetManager) l.push(m.morphTargetManager);
		return l;
	};
	const fps = 60; // the loader's targetFps: frame = seconds * 60
	const clips = [];
	for (let k = 0; k < anim.clipCount; k++) {
		const info = anim.clip(k);
		const g = ca.animationGroups[k];
		if (!g) throw new Error(`babylon: no animation group ${k} in ${asset}`);
		for (const other of ca.animationGroups) other.stop();
		restore();
		g.start(false, 1, g.from, g.to);
		g.pause();
		const sg = new SinewAnimationGroup(anim, [...cb.transformNodes, ...cb.meshes], { clip: k });
		if (sg.missing.length) throw new Error(`babylon: glTF nodes ${sg.missing} of clip ${k} not found`);
		sg.start(false, 1); sg.pause(); // (goToFrame works on a started group, as Babylon's)
		const mapped = info.joints.map((j) => j.node).filter((n) => n !== null);
		const st = newStats(k, info.name, g.name, mapped.length, Math.min(g.to / fps, info.duration));
		st.durationEngine = g.to / fps; st.durationSinew = info.duration; st.fromEngine = g.from / fps;
		for (const t of sampleTimes(st.duration)) {
			measure(st, t, info, mapped, (n) => nodesA.get(n),
				(u) => g.goToFrame(Math.max(u * fps, g.from)),
				(u) => { const before = wasmCalls; sg.goToFrame(u * fps); st.wasmCallsPerFrame.push(wasmCalls - before); },
				() => { computeAll(rootA); computeAll(rootB); },
				(n) => pointsOf(nodesA.get(n), rootA), (n) => pointsOf(nodesB.get(n), rootB));
			g.goToFrame(Math.max(t * fps, g.from));
			info.scalars.forEach((s) => {
				if (s.node === null) return;
				const ma = morphTargets(nodesA.get(s.node)), mb = morphTargets(nodesB.get(s.node));
				ma.forEach((m, i) => { st.maxMorph = Math.max(st.maxMorph, Math.abs(m.getTarget(s.target).influence - mb[i].getTarget(s.target).influence)); st.morphs++; });
			});
			st.times++;
		}
		g.stop();
		// Playback driven by the scene: 10 renders at a constant 16 ms, one wasm call each.
		const driven = new SinewAnimationGroup(anim, [...cb.transformNodes, ...cb.meshes], { clip: k, scene });
		driven.start(true);
		const start = wasmCalls;
		for (let f = 0; f < 10; f++) scene.render();
		st.playbackCalls = wasmCalls - start; st.playbackTime = driven.time;
		driven.dispose();
		clips.push(st);
	}
	for (const other of ca.animationGroups) other.stop();
	const clipC = longestClip(anim);
	const nodesOfB = [...cb.transformNodes, ...cb.meshes];
	const ctl = await controls(anim, spec, clipC, {
		make: (k) => {
			const g = new SinewAnimationGroup(anim, nodesOfB, { clip: k, scene });
			return {
				targets: g.targets, get time() { return g.time; }, end: g.to / fps,
				start: (v) => g.start(true, v), pause: () => g.pause(), resume: () => g.restart(),
				weight: (w) => { g.weight = w; }, seek: (t) => g.goToFrame(t * fps), invalidate: () => g.invalidate(),
				stop: () => g.stop(), once: (v) => g.start(false, v),
			};
		},
		advance: (n) => { for (let f = 0; f < n; f++) scene.render(); },
		nothing: (k) => { const g = new SinewAnimationGroup(anim, () => null, { clip: k }); g.start(false); return { seek: (t) => g.goToFrame(t * fps) }; },
		stopRestores: false, // Babylon leaves the nodes as they are
	});
	// Picture: clip 0 at 40 % on both copies (engine left, sinew right).
	let rendered = false;
	if (!renderError) {
		try {
			for (const other of ca.animationGroups) other.stop();
			restore();
			const g = ca.animationGroups[0];
			g.start(false, 1, g.from, g.to); g.pause();
			const t = clips[0].duration * 0.4;
			g.goToFrame(Math.max(t * fps, g.from));
			new SinewAnimationGroup(anim, [...cb.transformNodes, ...cb.meshes], { clip: 0 }).start(false).goToFrame(t * fps);
			scene.clearColor = new BABYLON.Color4(0.19, 0.22, 0.25, 1);
			scene.activeCamera?.dispose();
			scene.createDefaultCameraOrLight(true, true, true);
			scene.activeCamera.alpha += Math.PI; // default camera looks from -z; face the models
			await scene.whenReadyAsync(); // shaders compile asynchronously: the first frames are empty
			for (let f = 0; f < 3; f++) scene.render(false);
			rendered = true;
		} catch (e) { renderError = String(e); }
	}
	return { engine: 'babylon', version: BABYLON.Engine.Version, simd: anim.simd, kernel: anim.clip(0).kernel, clips, controls: ctl, rendered, renderError };
}

if (typeof window !== 'undefined') window.sinewTest = { runThree, runBabylon, ready: true };
