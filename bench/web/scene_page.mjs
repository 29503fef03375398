// sinew — see include/sinew.h for version and licence
// Browser side of bench/web/scene.mjs: N characters (clones of one glTF rig), each crossfading
// between two clips (0.5 s fades, direction flipped every 2 s, characters at different times),
// timed per frame for three setups: the sinew world (one wasm call for the scene, node writes
// included), three.js AnimationMixer doing the same blends (one mixer per character), and one
// sinew world per character (one wasm call each). No matrix updates, no rendering.

// Counts calls into wasm exports (every instance made through WebAssembly.instantiate).
let wasmCalls = 0;
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (...args) => {
	const result = await instantiate.apply(WebAssembly, args);
	const instance = result instanceof WebAssembly.Instance ? result : result.instance;
	const exports = {};
	for (const [name, value] of Object.entries(instance.exports)) exports[name] = typeof value === 'function' ? (...a) => (wasmCalls++, value(...a)) : value;
	return { exports };
};

async function bytesOf(url) {
	const r = await fetch(url);
	if (!r.ok) throw new Error(`${url}: ${r.status}`);
	return new Uint8Array(await r.arrayBuffer());
}
const DT = 1 / 60, FADE = 0.5, PERIOD = 2.0;

function stats(times) {
	const s = [...times].sort((a, b) => a - b);
	const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
	return { median: q(0.5), p99: q(0.99), mean: s.reduce((a, b) => a + b, 0) / s.length };
}

// `warmup` untimed frames, then `frames` timed ones (runRound collects the garbage of setup and warm-up
// before a setup's timed frames)
function timeSync(frames, warmup, step) {
	for (let f = 0; f < warmup; f++) step(f);
	const out = [];
	for (let f = 0; f < frames; f++) {
		const t0 = performance.now();
		step(warmup + f);
		out.push(performance.now() - t0);
	}
	return out;
}

// Each page builds only the setups of spec.group (a fresh JS context per group: one setup's objects
// cannot change the type feedback of another's code, e.g. three's Matrix4 seeing Float32Array
// elements from the matrix mode), then window.runRound times one round of them.
let built = null;
window.setupScene = async (spec) => {
	const want = (g) => spec.group === g;
	const THREE = await import('three');
	const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
	const SkeletonUtils = await import('three/addons/utils/SkeletonUtils.js');
	const { SinewSceneMixer } = await import('/repo/web/adapters/three_world.mjs');
	const { createWorld } = await import('/repo/web/world.mjs');
	const gltf = await new GLTFLoader().loadAsync(spec.asset);
	const bytes = await bytesOf(spec.blob);
	const N = spec.characters;
	const [ka, kb] = spec.clips;
	const clipA = gltf.animations[ka], clipB = gltf.animations[kb];
	const result = { characters: N, clips: [clipA.name, clipB.name], frames: spec.frames, isolated: self.crossOriginIsolated };
	// nodes of each clone, by glTF node index (parallel traversal of the original)
	const reverse = new Map();
	gltf.scene.traverse((o) => { const a = gltf.parser.associations.get(o); if (a?.nodes !== undefined && !reverse.has(o)) reverse.set(o, a.nodes); });
	const makeClones = (parent) => {
		const out = [];
		for (let i = 0; i < N; i++) {
			const c = SkeletonUtils.clone(gltf.scene);
			const map = new Map();
			const walk = (a, b) => { if (reverse.has(a) && !map.has(reverse.get(a))) map.set(reverse.get(a), b); a.children.forEach((x, k) => walk(x, b.children[k])); };
			walk(gltf.scene, c);
			c.position.set((i % 10) * 3, 0, Math.floor(i / 10) * 3); // a crowd on a grid
			parent.add(c);
			out.push({ scene: c, map });
		}
		return out;
	};
	// two scenes of N clones: one for the setups that write nodes (sinew node writes, three), one
	// for sinew's matrix mode (which takes over its joints' matrices)
	const sceneNodes = new THREE.Scene(), sceneMatrices = new THREE.Scene();
	const clones = want('matrices') || want('per_character') ? [] : makeClones(sceneNodes);
	const matrixClones = want('matrices') ? makeClones(sceneMatrices) : [];
	const skeletonsOf = (scene) => { const s = new Set(); scene.traverse((o) => { if (o.isSkinnedMesh) s.add(o.skeleton); }); return [...s]; };
	const skeletonsNodes = skeletonsOf(sceneNodes), skeletonsMatrices = skeletonsOf(sceneMatrices);
	result.skeletons = Math.max(skeletonsNodes.length, skeletonsMatrices.length);
	// what a renderer does before drawing skinned meshes: the scene's matrices (WebGLRenderer.render:
	// scene.updateMatrixWorld()), then every skeleton's bone matrices (WebGLObjects.update: skeleton.update())
	const toSkinning = (scene, skeletons) => { scene.updateMatrixWorld(); for (let k = 0; k < skeletons.length; k++) skeletons[k].update(); };
	const phase = (i) => (i * 0.37) % PERIOD; // each character flips its crossfade at its own time
	// the crossfade schedule: at frame f character i flips when (f*DT + phase) crosses a multiple of PERIOD
	const flips = (f, i) => Math.floor((f * DT + phase(i)) / PERIOD) !== Math.floor(((f - 1) * DT + phase(i)) / PERIOD);
	const heap = () => { if (self.gc) { self.gc(); self.gc(); } return performance.memory ? performance.memory.usedJSHeapSize : 0; };

	const setups = {};
	// --- sinew world: one call per frame
	// the world adapter driving `list`'s characters: the same crossfades as the other setups
	const sinewScene = async (list, options, Mixer = SinewSceneMixer) => {
		const scene = await Mixer.create({ simd: spec.simd, ...options });
		const blob = scene.load(bytes);
		const actions = list.map((c, i) => {
			const m = scene.add(c.scene, [blob], { nodes: (n) => c.map.get(n) ?? null, json: gltf.parser.json, layers: 2 });
			const a = m.clipAction(ka), b = m.clipAction(kb);
			a.play(); b.play(); b.setEffectiveWeight(0);
			a.time = (i * 0.173) % clipA.duration; b.time = (i * 0.291) % clipB.duration;
			return { a, b, on: 0 };
		});
		const flip = (f) => {
			for (let i = 0; i < N; i++) if (flips(f, i)) {
				const x = actions[i], [from, to] = x.on ? [x.b, x.a] : [x.a, x.b];
				to.enabled = true; to.setEffectiveWeight(1); from.crossFadeTo(to, FADE); x.on ^= 1;
			}
		};
		const step = (f) => { flip(f); scene.update(DT); };
		// the same frame without the node writes: the actions' JS step and the one wasm call (scene.advance)
		const stepNoWrites = (f) => { flip(f); scene.advance(DT); };
		return { scene, step, stepNoWrites };
	};
	if (want('sinew')) {
		const h0 = heap();
		const { scene, step, stepNoWrites } = await sinewScene(clones, {});
		setups.sinew = { step, frames: spec.frames };
		setups.sinew_wasm = { step: stepNoWrites, frames: spec.frames };
		setups.sinew_nodes_to_skinning = { step: (f) => { step(f); toSkinning(sceneNodes, skeletonsNodes); }, frames: spec.frames };
		result.sinew_memory = { wasmBytes: scene.world.memory.buffer.byteLength, heapBytes: scene.world.heapBytes, jsHeapDelta: heap() - h0 };
		result.layers = () => scene.world.layersSampled;
		// scene.mjs --baseline: another version's adapter (spec.baseline: its web folder) on clones of its own,
		// in this page, so the two alternate within each round
		if (spec.baseline) {
			const { SinewSceneMixer: BaseMixer } = await import(`${spec.baseline}/adapters/three_world.mjs`);
			const base = await sinewScene(makeClones(new THREE.Scene()), {}, BaseMixer);
			setups.base_sinew = { step: base.step, frames: spec.frames };
			setups.base_sinew_wasm = { step: base.stepNoWrites, frames: spec.frames };
		}
	}
	// --- the world adapter in matrix mode: joint world matrices and skinning matrices computed inside
	// the one wasm call, three's bone matrixWorld / boneMatrices are views of wasm memory
	if (want('matrices')) {
		const h0 = heap();
		const { scene, step, stepNoWrites } = await sinewScene(matrixClones, { matrices: true });
		setups.sinew_matrices = { step, frames: spec.frames };
		setups.sinew_matrices_wasm = { step: stepNoWrites, frames: spec.frames }; // without the JS after the call
		setups.sinew_matrices_to_skinning = { step: (f) => { step(f); toSkinning(sceneMatrices, skeletonsMatrices); }, frames: spec.frames };
		// the renderer's part alone (no animation step): what every setup pays on top of its step
		setups.renderer_part_matrix_scene = { step: () => toSkinning(sceneMatrices, skeletonsMatrices), frames: spec.frames };
		result.matrices_memory = { wasmBytes: scene.world.memory.buffer.byteLength, heapBytes: scene.world.heapBytes, jsHeapDelta: heap() - h0 };
		result.matrices_skins = scene.characters.reduce((s, c) => s + c.player.skinCount, 0);
	}
	// --- the same world adapter with syncRotation: false (no quaternion -> Euler conversion per write)
	// --- the same adapter with syncRotation: true (Object3D.rotation computed at every write, as three's
	// quaternion.set does; the default computes it when read)
	if (want('eager')) {
		const { step } = await sinewScene(clones, { syncRotation: true });
		setups.sinew_eager = { step, frames: spec.frames };
	}
	if (want('no_euler')) {
		const scene = await SinewSceneMixer.create({ simd: spec.simd, syncRotation: false });
		const blob = scene.load(bytes);
		const actions = clones.map((c, i) => {
			const m = scene.add(c.scene, [blob], { nodes: (n) => c.map.get(n) ?? null, json: gltf.parser.json, layers: 2 });
			const a = m.clipAction(ka), b = m.clipAction(kb);
			a.play(); b.play(); b.setEffectiveWeight(0);
			a.time = (i * 0.173) % clipA.duration; b.time = (i * 0.291) % clipB.duration;
			return { a, b, on: 0 };
		});
		setups.sinew_no_euler = { step: (f) => {
			for (let i = 0; i < N; i++) if (flips(f, i)) {
				const x = actions[i], [from, to] = x.on ? [x.b, x.a] : [x.a, x.b];
				to.enabled = true; to.setEffectiveWeight(1); from.crossFadeTo(to, FADE); x.on ^= 1;
			}
			scene.update(DT);
		}, frames: spec.frames };
	}
	// --- three.js AnimationMixer per character, same blends
	if (want('three')) {
		const h0 = heap();
		const rigs = clones.map((c, i) => {
			const m = new THREE.AnimationMixer(c.scene);
			const a = m.clipAction(clipA), b = m.clipAction(clipB);
			a.play(); b.play(); b.setEffectiveWeight(0);
			a.time = (i * 0.173) % clipA.duration; b.time = (i * 0.291) % clipB.duration;
			return { m, a, b, on: 0 };
		});
		const step = (f) => {
			for (let i = 0; i < N; i++) {
				const x = rigs[i];
				if (flips(f, i)) {
					const [from, to] = x.on ? [x.b, x.a] : [x.a, x.b];
					to.enabled = true; to.setEffectiveWeight(1); from.crossFadeTo(to, FADE, false); x.on ^= 1;
				}
				x.m.update(DT);
			}
		};
		setups.three = { step, frames: spec.threeFrames };
		setups.three_to_skinning = { step: (f) => { step(f); toSkinning(sceneNodes, skeletonsNodes); }, frames: spec.threeFrames };
		result.three_memory = { jsHeapDelta: heap() - h0 };
	}
	// --- one sinew world (instance) per character: one wasm call per character per frame
	if (want('per_character')) {
		const h0 = heap();
		const worlds = [];
		for (let i = 0; i < N; i++) {
			const w = await createWorld({ simd: spec.simd });
			const blob = w.load(bytes);
			const p = w.addPlayer({ clip: blob.clip(ka), layers: 2 });
			p.layer(0).play(blob.clip(ka), { loop: 'repeat', time: (i * 0.173) % clipA.duration });
			p.layer(1).play(blob.clip(kb), { loop: 'repeat', weight: 0, time: (i * 0.291) % clipB.duration });
			worlds.push({ w, p, on: 0 });
		}
		const step = (f) => {
			for (let i = 0; i < N; i++) {
				const x = worlds[i];
				if (flips(f, i)) { x.p.layer(x.on).fadeTo(0, FADE); x.p.layer(1 - x.on).fadeTo(1, FADE); x.on ^= 1; }
				x.w.update(DT);
			}
		};
		setups.sinew_per_character = { step, frames: spec.frames };
		result.per_character_memory = { wasmBytes: worlds.reduce((s, x) => s + x.w.memory.buffer.byteLength, 0), jsHeapDelta: heap() - h0 };
	}
	built = { setups, spec, next: Object.fromEntries(Object.keys(setups).map((k) => [k, 0])), layers: result.layers ?? null };
	delete result.layers;
	result.simd = spec.simd;
	return result;
};

// One round of this page's setups (the first with the warm-up): per setup the frame times and,
// where counted, the wasm calls per frame.
// A setup paired with a baseline's (scene.mjs --baseline: base_<name>) alternates with it in chunks of
// PAIR_CHUNK frames, so load that comes and goes on a shared machine falls on both alike.
const PAIR_CHUNK = 20;
window.runRound = async (round) => {
	const { setups, spec, next } = built;
	const out = {};
	const run = (k, n, warm) => {
		const st = setups[k], c0 = wasmCalls, base = next[k];
		const t = timeSync(n, warm, (f) => st.step(base + f));
		next[k] += n + warm;
		const o = (out[k] ??= { times: [], frames: 0, calls: 0 });
		o.times.push(...t); o.frames += n + warm; o.calls += wasmCalls - c0;
	};
	for (const k of Object.keys(setups)) {
		if (k.startsWith('base_')) continue; // (with its pair)
		const n = Math.ceil(setups[k].frames / spec.rounds), warm = round === 0 ? spec.warmup : 0, pair = setups[`base_${k}`] ? `base_${k}` : null;
		if (warm) { run(k, 0, warm); if (pair) run(pair, 0, warm); }
		if (self.gc) { self.gc(); self.gc(); }
		for (let done = 0; done < n; done += pair ? PAIR_CHUNK : n) {
			const m = Math.min(pair ? PAIR_CHUNK : n, n - done);
			run(k, m, 0);
			if (pair) run(pair, m, 0);
		}
	}
	for (const o of Object.values(out)) { o.calls /= o.frames; delete o.frames; }
	if (built.layers) out.layers_sampled = built.layers();
	return out;
};
window.sceneReady = true;
