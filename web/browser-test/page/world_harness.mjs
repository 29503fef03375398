// sinew — see include/sinew.h for version and licence
// Browser side of the world-adapter tests: the same blended scenario (a clip, a crossfade to a
// second, an additive third in ping-pong, a fourth played once) played by the engine's own player
// (three AnimationMixer / Babylon AnimationGroups with weights) on copy A and by the sinew world
// adapter on copy B, plus extra characters driven by the same world; per frame: the root-space
// distance of every mapped node's origin and six 3 cm shell points, morph weights, events, and
// the wasm calls of the frame (the exports are wrapped by harness.mjs).
import { shellPoints, threeShellPoints, wasmCallCount } from './harness.mjs';
import Sinew from '../../sinew.mjs';
import { participation } from '../../test/world_reference.mjs';


function distances(pa, pb) {
	const d0 = Math.hypot(pa[0][0] - pb[0][0], pa[0][1] - pb[0][1], pa[0][2] - pb[0][2]);
	let ds = 0;
	for (let i = 1; i < pa.length; i++) ds = Math.max(ds, Math.hypot(pa[i][0] - pb[i][0], pa[i][1] - pb[i][1], pa[i][2] - pb[i][2]));
	return [d0 * 100, ds * 100];
}

async function fetchBytes(url) {
	const r = await fetch(url);
	if (!r.ok) throw new Error(`${url}: ${r.status}`);
	return new Uint8Array(await r.arrayBuffer());
}

// The scenario's clips: the first four clips that last (wrapping when there are fewer).
function pickClips(durations) {
	const ok = durations.map((d, i) => [d, i]).filter(([d]) => d > 0.2).map(([, i]) => i);
	if (!ok.length) throw new Error('no clip longer than 0.2 s');
	return [0, 1, 2, 3].map((k) => ok[k % ok.length]);
}
// Distinct sinew clips for the four roles: when the asset has fewer clips, the blob is loaded into
// the world again (each load is its own WorldBlob with its own clips, as lazily loaded files are).
function sinewRoles(world, bytes, roles) {
	const blobs = [world.load(bytes)];
	const used = new Map();
	const clips = roles.map((k) => {
		const n = used.get(k) ?? 0;
		used.set(k, n + 1);
		while (blobs.length <= n) blobs.push(world.load(bytes));
		return blobs[n].clip(k);
	});
	return { blobs, clips };
}

const FRAMES = 170, DT = 0.017; // not a divisor of the clips' durations (loop events then fall mid-frame)
const PHASES = [['single clip', 0], ['crossfade', 20], ['after crossfade', 52], ['additive ping-pong', 70], ['once + additive', 100], ['after once', 140]];
const phaseOf = (f) => { let p = PHASES[0][0]; for (const [name, at] of PHASES) if (f >= at) p = name; return p; };

function newStats() {
	const s = {};
	for (const [name] of PHASES) s[name] = { posCm: 0, shellCm: 0, morph: 0 };
	return s;
}

// three.js's AnimationMixer algorithm (PropertyMixer: incremental slerp/lerp per property in
// activation order, the original value filling weight below 1, additive deltas accumulated by
// slerp from identity and multiplied on) applied to sinew's own per-clip samples at the engine's
// times and weights. Its distance to three isolates sampling (compression, nlerp between samples);
// its distance to the sinew world isolates the blend (normalized sum vs slerp).
function slerp(a, b, t) {
	let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
	let s = 1;
	if (d < 0) { d = -d; s = -1; }
	let k0 = 1 - t, k1 = t * s;
	if (d < 0.9995) {
		const th = Math.acos(Math.min(1, d)), sn = Math.sin(th);
		k0 = Math.sin((1 - t) * th) / sn; k1 = (Math.sin(t * th) / sn) * s;
	}
	const q = [0, 1, 2, 3].map((i) => k0 * a[i] + k1 * b[i]);
	const n = Math.hypot(...q);
	return q.map((x) => x / n);
}
const qmul = (a, b) => [a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
	a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]];
function threeModelPose(entries, rest, nodes) {
	// entries: { pose (sinew sample), first (sample at 0), part, jointOf (node -> clip joint), weight, additive }
	const out = new Float64Array(nodes.length * 10);
	nodes.forEach((node, j) => {
		for (const [sub, o, n] of [[0, 0, 4], [1, 4, 3], [2, 7, 3]]) {
			const orig = Array.from(rest.subarray(j * 10 + o, j * 10 + o + n));
			let acc = null, cum = 0;
			for (const e of entries) {
				if (e.additive || !(e.weight > 0)) continue;
				const cj = e.jointOf.get(node);
				if (cj === undefined || !e.part.joints[cj][sub]) continue;
				const v = Array.from(e.pose.subarray(cj * 10 + o, cj * 10 + o + n));
				if (cum === 0) { acc = v; cum = e.weight; continue; }
				cum += e.weight;
				const mix = e.weight / cum;
				acc = sub === 0 ? slerp(acc, v, mix) : acc.map((x, i) => x + (v[i] - x) * mix);
			}
			if (acc === null) acc = orig;
			else if (cum < 1) acc = sub === 0 ? slerp(acc, orig, 1 - cum) : acc.map((x, i) => x + (orig[i] - x) * (1 - cum));
			let add = sub === 0 ? [0, 0, 0, 1] : [0, 0, 0], any = false;
			for (const e of entries) {
				if (!e.additive || !(e.weight > 0)) continue;
				const cj = e.jointOf.get(node);
				if (cj === undefined || !e.part.joints[cj][sub]) continue;
				const v = Array.from(e.pose.subarray(cj * 10 + o, cj * 10 + o + n));
				const r = Array.from(e.first.subarray(cj * 10 + o, cj * 10 + o + n));
				if (sub === 0) add = slerp(add, qmul(add, qmul([-r[0], -r[1], -r[2], r[3]], v)), e.weight);
				else add = add.map((x, i) => x + (v[i] - r[i]) * e.weight);
				any = true;
			}
			if (any) acc = sub === 0 ? qmul(acc, add) : acc.map((x, i) => x + add[i]);
			out.set(acc, j * 10 + o);
		}
	});
	return out;
}

/* ---------------- three.js ---------------- */

export async function runWorldThree(spec) {
	const THREE = await import('three');
	const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
	const SkeletonUtils = await import('three/addons/utils/SkeletonUtils.js');
	const W = await import('../../adapters/three_world.mjs');
	const loader = new GLTFLoader();
	const A = await loader.loadAsync(spec.asset), B = await loader.loadAsync(spec.asset);
	const scene = new THREE.Scene();
	scene.add(A.scene, B.scene);
	const nodeMap = (g) => { const m = new Map(); g.scene.traverse((o) => { const a = g.parser.associations.get(o); if (a?.nodes !== undefined && !m.has(a.nodes)) m.set(a.nodes, o); }); return m; };
	const nodesA = nodeMap(A), nodesB = nodeMap(B);
	// extra characters: clones of B (before anything moves), nodes mapped by parallel traversal
	const extras = [];
	const reverse = new Map([...nodesB].map(([i, o]) => [o, i]));
	for (let k = 0; k < spec.extras; k++) {
		const clone = SkeletonUtils.clone(B.scene);
		const map = new Map();
		const walk = (a, b) => { if (reverse.has(a)) map.set(reverse.get(a), b); a.children.forEach((c, i) => walk(c, b.children[i])); };
		walk(B.scene, clone);
		clone.position.x = 2 + k;
		scene.add(clone);
		extras.push(map);
	}
	const sceneMixer = await W.SinewSceneMixer.create();
	const bytes = await fetchBytes(spec.blob);
	const [ia, ib, ic, id] = pickClips(A.animations.map((c) => c.duration));
	const { blobs, clips: [sa, sb, sc, sd] } = sinewRoles(sceneMixer.world, bytes, [ia, ib, ic, id]);
	const blob = blobs[0];
	const mb = sceneMixer.add(B, blobs);
	const others = extras.map((map) => sceneMixer.add({ scene: null }, [blob], { nodes: (i) => map.get(i) ?? null }));
	const mixerA = new THREE.AnimationMixer(A.scene);
	const clipA = (k) => A.animations[k];
	const events = { three: [], sinew: [] };
	let frame = 0;
	mixerA.addEventListener('loop', (e) => events.three.push(`${frame} loop ${e.action.getClip().name}`));
	mixerA.addEventListener('finished', (e) => events.three.push(`${frame} finished ${e.action.getClip().name}`));
	mb.addEventListener('loop', (e) => events.sinew.push(`${frame} loop ${e.action.getClip().name}`));
	mb.addEventListener('finished', (e) => events.sinew.push(`${frame} finished ${e.action.getClip().name}`));
	// three: a clone of the clip for each repeated role (distinct actions)
	const seen = new Set();
	const role = (k) => { const c = seen.has(k) ? clipA(k).clone() : clipA(k); seen.add(k); return c; };
	const a3 = mixerA.clipAction(role(ia)), b3 = mixerA.clipAction(role(ib));
	const additiveClip = THREE.AnimationUtils.makeClipAdditive(clipA(ic).clone());
	const c3 = mixerA.clipAction(additiveClip, undefined, THREE.AdditiveAnimationBlendMode);
	const d3 = mixerA.clipAction(role(id));
	const as = mb.clipAction(sa), bs = mb.clipAction(sb), cs = mb.clipAction(sc), ds = mb.clipAction(sd);
	// the extra characters play two clips crossfading at different times (one world call for all)
	others.forEach((o, k) => {
		const x = o.clipAction(ia), y = o.clipAction(ib);
		x.play(); x.time = (k * 0.173) % blob.clip(ia).duration;
		y.play(); y.setEffectiveWeight(0.3 + 0.05 * (k % 10));
	});
	const stats = newStats(), modelVsEngine = newStats(), modelVsSinew = newStats();
	// the model's copy C of the scene, posed by threeModelPose
	const C = await loader.loadAsync(spec.asset);
	scene.add(C.scene);
	const nodesC = nodeMap(C);
	const anim = await Sinew.load(bytes);
	const parts = participation(bytes);
	const jointOf = (k) => new Map(anim.clip(k).joints.map((jt, i) => [jt.node, i]));
	// three's tracks per clip: (glTF node, property) from the track names of three's own clip
	const byName = new Map();
	A.scene.traverse((o) => {
		const a = A.parser.associations.get(o);
		if (a?.nodes === undefined) return;
		for (const key of [o.name, o.uuid]) if (key && !byName.has(key)) byName.set(key, a.nodes);
	});
	const threeTracks = (clip, k) => {
		const has = new Set(clip.tracks.map((t) => { const p = THREE.PropertyBinding.parseTrackName(t.name); return `${byName.get(p.nodeName)}:${p.propertyName}`; }));
		return { joints: anim.clip(k).joints.map((jt) => ['quaternion', 'position', 'scale'].map((prop) => has.has(`${jt.node}:${prop}`))) };
	};
	void parts;
	const roles = [[a3, ia], [b3, ib], [c3, ic], [d3, id]].map(([act, k]) => ({ act, k, part: threeTracks(act.getClip(), k), jointOf: jointOf(k), first: anim.sample(k, 0).slice() }));
	const restB = Float64Array.from(mb.player.rest);
	const callsPerFrame = [];
	const pointsOf = threeShellPoints(THREE);
	const mapped = mb._binding.nodes.filter((n) => nodesA.has(n));
	const morphPairs = [];
	A.scene.traverse((o) => { if (o.morphTargetInfluences) morphPairs.push(o); });
	const morphB = [];
	B.scene.traverse((o) => { if (o.morphTargetInfluences) morphB.push(o); });
	for (frame = 0; frame < FRAMES; frame++) {
		if (frame === 0) { a3.play(); as.play(); }
		if (frame === 20) { b3.play(); a3.crossFadeTo(b3, 0.5); bs.play(); as.crossFadeTo(bs, 0.5); }
		if (frame === 70) {
			for (const x of [c3, cs]) { x.setLoop(x === c3 ? THREE.LoopPingPong : W.LoopPingPong); x.setEffectiveWeight(0.5); x.timeScale = 1.5; }
			cs.blendMode = W.AdditiveAnimationBlendMode;
			c3.play(); cs.play();
		}
		if (frame === 100) {
			d3.setLoop(THREE.LoopOnce); d3.clampWhenFinished = false; d3.setEffectiveWeight(0.6); d3.timeScale = 3; d3.play();
			ds.setLoop(W.LoopOnce); ds.clampWhenFinished = false; ds.setEffectiveWeight(0.6); ds.timeScale = 3; ds.play();
		}
		mixerA.update(DT);
		const before = wasmCallCount();
		sceneMixer.update(DT);
		callsPerFrame.push(wasmCallCount() - before);
		// three's algorithm on sinew's samples, at three's own times and effective weights, activation order a b c d
		const entries = roles.filter((r) => r.act.isScheduled() && r.act.enabled).map((r) => ({
			// three's clip time: ping-pong mirrors the action's time on odd loops
			pose: anim.sample(r.k, Math.min(r.act.loop === THREE.LoopPingPong && (r.act._loopCount & 1) ? r.act.getClip().duration - r.act.time : r.act.time,
				anim.clip(r.k).duration)).slice(), first: r.first, part: r.part, jointOf: r.jointOf,
			weight: r.act.getEffectiveWeight(), additive: r.act.blendMode === THREE.AdditiveAnimationBlendMode,
		}));
		const model = threeModelPose(entries, restB, mb._binding.nodes);
		mb._binding.nodes.forEach((n, j) => {
			const o = nodesC.get(n);
			if (!o) return;
			o.quaternion.set(model[j * 10], model[j * 10 + 1], model[j * 10 + 2], model[j * 10 + 3]);
			o.position.set(model[j * 10 + 4], model[j * 10 + 5], model[j * 10 + 6]);
			o.scale.set(model[j * 10 + 7], model[j * 10 + 8], model[j * 10 + 9]);
		});
		scene.updateMatrixWorld(true);
		const ph = phaseOf(frame);
		for (const [st, X, Y, nx, ny] of [[stats[ph], A, B, nodesA, nodesB], [modelVsEngine[ph], A, C, nodesA, nodesC], [modelVsSinew[ph], C, B, nodesC, nodesB]]) {
			for (const n of mapped) {
				const [p, s] = distances(pointsOf(nx.get(n), X.scene), pointsOf(ny.get(n), Y.scene));
				st.posCm = Math.max(st.posCm, p); st.shellCm = Math.max(st.shellCm, s);
			}
		}
		const st = stats[ph];
		morphPairs.forEach((m, i) => m.morphTargetInfluences.forEach((v, k) => { st.morph = Math.max(st.morph, Math.abs(v - morphB[i].morphTargetInfluences[k])); }));
	}
	// the extra characters moved (they are driven by the same call)
	let moved = 0;
	for (const map of extras) for (const [, o] of map) if (o.quaternion.w !== 1 || o.quaternion.x !== 0) { moved++; break; }
	return {
		engine: 'three', version: THREE.REVISION, clips: [sa, sb, sc, sd].map((c) => c.name), blobs: blobs.length, nodes: mapped.length,
		characters: 1 + extras.length, wasmBytes: sceneMixer.world.heapBytes, stats, modelVsEngine, modelVsSinew,
		morphTargets: morphPairs.reduce((n, m) => n + m.morphTargetInfluences.length, 0), callsPerFrame, events, extrasMoved: moved,
		weights: { a: as.getEffectiveWeight(), b: bs.getEffectiveWeight(), a3: a3.getEffectiveWeight(), b3: b3.getEffectiveWeight() },
	};
}

/* ---------------- Babylon.js ---------------- */

// The glTF JSON of a .gltf or .glb (for the channels the engine's groups animate).
function gltfJson(bytes) {
	const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	if (dv.getUint32(0, true) !== 0x46546c67) return JSON.parse(new TextDecoder().decode(bytes));
	return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + dv.getUint32(12, true))));
}

const BABYLON_PHASES = [['single group', 0], ['weight crossfade', 20], ['after crossfade', 51], ['two groups, once ends', 80], ['after end', 0]];

export async function runWorldBabylon(spec) {
	const BABYLON = await import('@babylonjs/core/index.js');
	await import('@babylonjs/loaders/glTF/index.js');
	const Wb = await import('../../adapters/babylon_world.mjs');
	const { gltfNodeMap } = await import('../../adapters/babylon.mjs');
	const engine = new BABYLON.NullEngine();
	const scene = new BABYLON.Scene(engine);
	scene.useConstantAnimationDeltaTime = true;
	new BABYLON.FreeCamera('camera', new BABYLON.Vector3(0, 0, -10), scene);
	const options = { pluginOptions: { gltf: { animationStartMode: 0 } } };
	const containers = [];
	for (let k = 0; k < 2 + spec.extras; k++) {
		const c = await BABYLON.LoadAssetContainerAsync(spec.asset, scene, options);
		c.addAllToScene();
		for (const g of c.animationGroups) g.stop();
		containers.push(c);
	}
	const [ca, cb, ...extra] = containers;
	const nodesOf = (c) => [...c.transformNodes, ...c.meshes];
	const rootA = ca.meshes.find((m) => m.name === '__root__'), rootB = cb.meshes.find((m) => m.name === '__root__');
	const json = gltfJson(await fetchBytes(spec.asset));
	const worldScene = await Wb.SinewWorldScene.create(scene);
	const bytes = await fetchBytes(spec.blob);
	const [ia, ib, ic] = pickClips(ca.animationGroups.map((g) => (g.to - g.from) / 60));
	const { blobs, clips: [sa, sb, sc] } = sinewRoles(worldScene.world, bytes, [ia, ib, ic]);
	const hb = worldScene.add(nodesOf(cb), blobs, { json });
	const others = extra.map((c) => worldScene.add(nodesOf(c), [blobs[0]], { json }));
	others.forEach((o, k) => {
		const x = o.group(ia), y = o.group(ib % o.animationGroups.length);
		x.weight = 1; x.start(true); x.goToFrame((k * 7) % Math.max(1, x.to));
		if (y !== x) { y.weight = 0.4; y.start(true); }
	});
	const groupOf = (clip) => hb.animationGroups.find((g) => g.clip === clip);
	const [ga, gb, gc] = [ia, ib, ic].map((k, i) => (i === 0 || ![ia, ib].slice(0, i).includes(k) ? ca.animationGroups[k] : ca.animationGroups[k].clone(`copy${i}`)));
	const [sa2, sb2, sc2] = [sa, sb, sc].map(groupOf);
	const events = { engine: [], sinew: [] };
	let frame = 0;
	for (const [g, s, name] of [[ga, sa2, 'a'], [gb, sb2, 'b'], [gc, sc2, 'c']]) {
		g.onAnimationGroupLoopObservable.add(() => events.engine.push(`${frame} loop ${name}`));
		g.onAnimationGroupEndObservable.add(() => { events.engine.push(`${frame} end ${name}`); g.stop(); });
		s.onAnimationGroupLoopObservable.add(() => events.sinew.push(`${frame} loop ${name}`));
		s.onAnimationGroupEndObservable.add(() => { events.sinew.push(`${frame} end ${name}`); s.stop(); });
	}
	const nodesA = gltfNodeMap(nodesOf(ca)), nodesB = gltfNodeMap(nodesOf(cb));
	// compared: the nodes every clip of the scenario animates with the same channels (Babylon leaves a
	// node no running group drives at its last value, sinew and three return it to the rest pose)
	const paths = (k) => { const m = new Map(); for (const c of json.animations[k].channels) m.set(c.target.node, `${m.get(c.target.node) ?? ''}${c.target.path},`); return m; };
	const [pa, pb, pc] = [ia, ib, ic].map(paths);
	const mapped = hb._binding.nodes.filter((n) => nodesA.has(n) && nodesB.has(n) && pa.has(n) && [...pa.get(n).split(',')].sort().join() === [...(pb.get(n) ?? '').split(',')].sort().join()
		&& [...pa.get(n).split(',')].sort().join() === [...(pc.get(n) ?? '').split(',')].sort().join());
	const pointsOf = (node, root) => {
		const inv = BABYLON.Matrix.Invert(root.getWorldMatrix());
		const m = node.getWorldMatrix().multiply(inv).m;
		return shellPoints([m[12], m[13], m[14]], [m[0], m[1], m[2]], [m[4], m[5], m[6]], [m[8], m[9], m[10]]);
	};
	const stats = {};
	for (const [name] of BABYLON_PHASES) stats[name] = { posCm: 0, shellCm: 0, morph: 0 };
	// morph target influences of the two copies (same mesh order in both containers)
	const managers = (c) => c.meshes.filter((m) => m.morphTargetManager).map((m) => m.morphTargetManager);
	const morphA = managers(ca), morphB = managers(cb);
	let phase = 'single group', ended = false;
	const callsPerFrame = [];
	const offset = Math.min(12, Math.floor((gb.to - gb.from) / 3));
	for (frame = 0; frame < FRAMES; frame++) {
		if (frame === 0) { ga.weight = 1; ga.start(true, 1, ga.from, ga.to); sa2.weight = 1; sa2.start(true, 1, sa2.from, sa2.to); }
		if (frame === 20) {
			phase = 'weight crossfade';
			gb.weight = 0; gb.start(true, 1.25, gb.from + offset, gb.to); sb2.weight = 0; sb2.start(true, 1.25, sb2.from + offset, sb2.to);
		}
		if (frame >= 20 && frame <= 50) { const u = (frame - 20) / 30; ga.weight = 1 - u; gb.weight = u; sa2.weight = 1 - u; sb2.weight = u; }
		if (frame === 51) { phase = 'after crossfade'; ga.stop(); sa2.stop(); }
		if (frame === 80) { phase = 'two groups, once ends'; gc.weight = 0.5; gc.start(false, 2, gc.from, gc.to); sc2.weight = 0.5; sc2.start(false, 2, sc2.from, sc2.to); }
		const before = wasmCallCount();
		scene.render();
		callsPerFrame.push(wasmCallCount() - before);
		for (const c of [ca, cb]) for (const n of nodesOf(c)) n.computeWorldMatrix(true);
		rootA.computeWorldMatrix(true); rootB.computeWorldMatrix(true);
		for (const n of [...nodesA.values(), ...nodesB.values()]) n.computeWorldMatrix(true);
		const st = stats[phase];
		for (const n of mapped) {
			const [p, s] = distances(pointsOf(nodesA.get(n), rootA), pointsOf(nodesB.get(n), rootB));
			st.posCm = Math.max(st.posCm, p); st.shellCm = Math.max(st.shellCm, s);
		}
		morphA.forEach((m, i) => {
			for (let k = 0; k < m.numTargets; k++) st.morph = Math.max(st.morph, Math.abs(m.getTarget(k).influence - morphB[i].getTarget(k).influence));
		});
		if (!ended && events.engine.some((e) => e.includes('end c'))) { ended = true; phase = 'after end'; }
	}
	let moved = 0;
	for (const o of others) if (o.player.pose.some((v, i) => v !== o.player.rest[i])) moved++;
	return {
		engine: 'babylon', version: BABYLON.Engine.Version, clips: [sa, sb, sc].map((c) => c.name), blobs: blobs.length, nodes: mapped.length,
		characters: 1 + others.length, stats, callsPerFrame, events, extrasMoved: moved, boundNodes: hb._binding.nodes.length, morphTargets: morphA.reduce((n, m) => n + m.numTargets, 0),
	};
}


/* ---------------- three.js: warp, finite repetitions, matrix mode ---------------- */

// One clip at a time (so the comparison is the data, not the blend formula): a LoopRepeat action
// with 2 repetitions, clamped, warped from timeScale 1 to 2.5 over 0.6 s; then a LoopPingPong
// action with 3 repetitions, not clamped (it stops contributing when it finishes). Copy A: three's
// AnimationMixer; copy B: the world adapter writing nodes; copy M: the world adapter in matrix
// mode (same world, same call), whose joints' matrixWorld and skeletons' boneMatrices must equal
// what three computes from copy B's nodes (scene.updateMatrixWorld + skeleton.update).
export async function runWorldThreeControls(spec) {
	const THREE = await import('three');
	const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
	const W = await import('../../adapters/three_world.mjs');
	const loader = new GLTFLoader();
	const [A, B, M] = [await loader.loadAsync(spec.asset), await loader.loadAsync(spec.asset), await loader.loadAsync(spec.asset)];
	const scene = new THREE.Scene();
	scene.add(A.scene, B.scene, M.scene);
	M.scene.position.set(1.5, 0.25, -2); M.scene.rotation.y = 0.7; B.scene.position.copy(M.scene.position); B.scene.rotation.y = 0.7;
	const nodeMap = (g) => { const m = new Map(); g.scene.traverse((o) => { const a = g.parser.associations.get(o); if (a?.nodes !== undefined && !m.has(a.nodes)) m.set(a.nodes, o); }); return m; };
	const nodesA = nodeMap(A), nodesB = nodeMap(B), nodesM = nodeMap(M);
	const sceneMixer = await W.SinewSceneMixer.create();
	const bytes = await fetchBytes(spec.blob);
	const [ia, ib] = pickClips(A.animations.map((c) => c.duration));
	const blob = sceneMixer.load(bytes);
	const mb = sceneMixer.add(B, [blob]), mm = sceneMixer.add(M, [blob], { matrices: true });
	const mixerA = new THREE.AnimationMixer(A.scene);
	const events = { three: [], sinew: [], matrices: [] };
	let frame = 0;
	for (const [m, list] of [[mixerA, events.three], [mb, events.sinew], [mm, events.matrices]]) {
		m.addEventListener('loop', (e) => list.push(`${frame} loop ${e.action.getClip().name}`));
		m.addEventListener('finished', (e) => list.push(`${frame} finished ${e.action.getClip().name}`));
	}
	const a3 = mixerA.clipAction(A.animations[ia]), b3 = mixerA.clipAction(ia === ib ? A.animations[ib].clone() : A.animations[ib]);
	const sinewB = ia === ib ? sceneMixer.load(bytes).clip(ib) : blob.clip(ib);
	const mbB = ia === ib ? null : sinewB;
	void mbB;
	const [as, bs] = [mb.clipAction(blob.clip(ia)), mb.clipAction(sinewB)];
	const [am, bm] = [mm.clipAction(blob.clip(ia)), mm.clipAction(sinewB)];
	const durA = A.animations[ia].duration, durB = A.animations[ib].duration;
	const DTC = 1 / 60;
	// frames: the repeat phase lasts until finished + 20 frames, then the ping-pong phase
	const stats = { 'repeat x2 + warp': { posCm: 0, shellCm: 0 }, 'pingpong x3': { posCm: 0, shellCm: 0 } };
	let worstMatrix = 0, worstSkin = 0, skins = 0, bStart = -1, aFinished = -1, bFinished = -1;
	const callsPerFrame = [];
	const pointsOf = threeShellPoints(THREE);
	const mapped = mb._binding.nodes.filter((n) => nodesA.has(n));
	const skeletonsB = [], skeletonsM = [], meshesB = [], meshesM = [];
	B.scene.traverse((o) => { if (o.isSkinnedMesh) skeletonsB.push(o.skeleton), meshesB.push(o); });
	M.scene.traverse((o) => { if (o.isSkinnedMesh) skeletonsM.push(o.skeleton), meshesM.push(o); });
	const limit = Math.ceil((2 * durA / 1.5 + 1) / DTC) + Math.ceil((3 * durB / 1.7 + 1) / DTC) + 60;
	// attachments (a sword in a hand) on a skinned joint of B and M, one before the first frame and one
	// added at frame 5 (the adapter prunes three's traversal below joints: they must still follow)
	const bones = skeletonsB[0]?.bones.map((b) => mb._binding.nodes.find((n) => nodesB.get(n) === b)).filter((n) => n !== undefined);
	const hands = bones?.length ? bones : mb._binding.nodes.filter((n) => nodesM.has(n));
	const attach = (n) => [nodesB, nodesM].map((m) => { const o = new THREE.Object3D(); o.position.set(0.1, 0.2, 0.3); o.rotation.set(0.3, 0.2, 0.1); m.get(n).add(o); return o; });
	const attachments = [attach(hands.at(-1))];
	let worstAttachment = 0, worstBindInverse = 0;
	for (frame = 0; frame < limit; frame++) {
		if (frame === 5) attachments.push(attach(hands[Math.floor(hands.length / 2)]));
		if (frame === 0) for (const [x, clamp, loop] of [[a3, true, THREE.LoopRepeat], [as, true, W.LoopRepeat], [am, true, W.LoopRepeat]]) { x.setLoop(loop, 2); x.clampWhenFinished = clamp; x.play(); }
		if (frame === 10) for (const x of [a3, as, am]) x.warp(1, 2.5, 0.6);
		if (aFinished >= 0 && frame === aFinished + 20) {
			bStart = frame;
			for (const x of [a3, as, am]) x.stop();
			for (const [x, loop] of [[b3, THREE.LoopPingPong], [bs, W.LoopPingPong], [bm, W.LoopPingPong]]) { x.setLoop(loop, 3); x.clampWhenFinished = false; x.timeScale = 1.7; x.play(); }
		}
		const n3 = events.three.length;
		mixerA.update(DTC);
		if (events.three.length > n3 && events.three.at(-1).includes('finished')) { if (bStart < 0) aFinished = frame; else bFinished = frame; }
		const before = wasmCallCount();
		sceneMixer.update(DTC);
		callsPerFrame.push(wasmCallCount() - before);
		scene.updateMatrixWorld();
		for (const sk of skeletonsB) sk.update();
		for (const sk of skeletonsM) sk.update(); // the adapter's: flags the bone texture, keeps the world's matrices
		const st = stats[bStart < 0 ? 'repeat x2 + warp' : 'pingpong x3'];
		for (const n of mapped) {
			const [p, s] = distances(pointsOf(nodesA.get(n), A.scene), pointsOf(nodesB.get(n), B.scene));
			st.posCm = Math.max(st.posCm, p); st.shellCm = Math.max(st.shellCm, s);
		}
		// matrix mode vs three's own matrices of the same pose (scene units)
		for (const n of mb._binding.nodes) {
			const eb = nodesB.get(n).matrixWorld.elements, em = nodesM.get(n).matrixWorld.elements;
			let scale = 1; // relative to the matrix's largest element (RobotExpressive's armature is scaled 100)
			for (let i = 0; i < 16; i++) scale = Math.max(scale, Math.abs(eb[i]));
			for (let i = 0; i < 16; i++) worstMatrix = Math.max(worstMatrix, Math.abs(eb[i] - em[i]) / scale);
		}
		meshesB.forEach((mesh, k) => { // bindMatrixInverse: three's inversion vs the world's (matrix mode)
			const eb = mesh.bindMatrixInverse.elements, em = meshesM[k].bindMatrixInverse.elements;
			let scale = 1;
			for (let i = 0; i < 16; i++) scale = Math.max(scale, Math.abs(eb[i]));
			for (let i = 0; i < 16; i++) worstBindInverse = Math.max(worstBindInverse, Math.abs(eb[i] - em[i]) / scale);
		});
		for (const [ob, om] of attachments) {
			const eb = ob.matrixWorld.elements, em = om.matrixWorld.elements;
			let scale = 1;
			for (let i = 0; i < 16; i++) scale = Math.max(scale, Math.abs(eb[i]));
			for (let i = 0; i < 16; i++) worstAttachment = Math.max(worstAttachment, Math.abs(eb[i] - em[i]) / scale);
		}
		skeletonsB.forEach((sk, k) => {
			const a = sk.boneMatrices, b = skeletonsM[k].boneMatrices;
			skins = Math.max(skins, b.length);
			for (let m = 0; m < sk.bones.length; m++) {
				let scale = 1;
				for (let i = 16 * m; i < 16 * m + 16; i++) scale = Math.max(scale, Math.abs(a[i]));
				for (let i = 16 * m; i < 16 * m + 16; i++) worstSkin = Math.max(worstSkin, Math.abs(a[i] - b[i]) / scale);
			}
		});
		if (bFinished >= 0 && frame > bFinished + 20) break;
	}
	// render copy M (the bone texture is the world's memory) next to copy B: the pixels must agree
	let rendered = false, renderDiff = null, renderError = null;
	try {
		const canvas = document.createElement('canvas');
		canvas.width = 256; canvas.height = 256;
		const renderer = new THREE.WebGLRenderer({ canvas, preserveDrawingBuffer: true });
		const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
		const box = new THREE.Box3().setFromObject(B.scene);
		const c = box.getCenter(new THREE.Vector3()), r = box.getSize(new THREE.Vector3()).length();
		camera.position.set(c.x, c.y, c.z + 1.6 * r); camera.lookAt(c);
		scene.add(new THREE.AmbientLight(0xffffff, 2));
		const shot = (show) => {
			A.scene.visible = false; B.scene.visible = show === B; M.scene.visible = show === M;
			renderer.render(scene, camera);
			const gl = renderer.getContext(), px = new Uint8Array(256 * 256 * 4);
			gl.readPixels(0, 0, 256, 256, gl.RGBA, gl.UNSIGNED_BYTE, px);
			return px;
		};
		sceneMixer.update(DTC); // one more frame, rendered
		const pb = shot(B), pm = shot(M);
		let differ = 0, covered = 0;
		for (let i = 0; i < pb.length; i += 4) {
			if (pb[i + 3] && (pb[i] | pb[i + 1] | pb[i + 2])) covered++;
			if (Math.abs(pb[i] - pm[i]) + Math.abs(pb[i + 1] - pm[i + 1]) + Math.abs(pb[i + 2] - pm[i + 2]) > 24) differ++;
		}
		renderDiff = { differ, covered };
		rendered = true;
		renderer.dispose();
	} catch (e) { renderError = String(e); }
	return { engine: 'three', clips: [A.animations[ia].name, A.animations[ib].name], stats, events, callsPerFrame, worstMatrix, worstSkin, worstAttachment, attachments: attachments.length, worstBindInverse, skinnedMeshes: meshesM.length, skinFloats: skins,
		aFinished, bFinished, frames: frame, matrixSkins: mm.player.skinCount, rendered, renderDiff, renderError,
		speeds: { three: a3.timeScale, sinew: as.timeScale } };
}

window.sinewWorldTest = { runWorldThree, runWorldThreeControls, runWorldBabylon, ready: true };
