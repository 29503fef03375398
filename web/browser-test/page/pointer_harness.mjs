// sinew — see include/sinew.h for version and licence
// KHR_animation_pointer in Babylon.js: the source file and sinew's decompressed file are both loaded by
// Babylon's own glTF loader, which turns pointer channels into animations of materials, textures,
// cameras and lights; both are played by Babylon at the same times and every animated property that is
// not a node transform is read back and compared. sinew shares no code with that path.

const TRS = new Set(['position', 'rotationQuaternion', 'scaling', 'rotation']);

// Numbers of a property value: a number, or the components of a Color3/Color4/Vector.
function numbers(v) {
	if (typeof v === 'number') return [v];
	if (v && typeof v === 'object') {
		for (const keys of [['r', 'g', 'b', 'a'], ['x', 'y', 'z', 'w']]) {
			const got = keys.filter((k) => typeof v[k] === 'number');
			if (got.length) return got.map((k) => v[k]);
		}
	}
	return null;
}

function read(target, path) {
	let v = target;
	for (const p of path.split('.')) v = v?.[p];
	return v;
}

// The non-TRS animated properties of an animation group, keyed by target class, name and property (a
// property animated by two channels is one property: the engine applies one value). `broken`: the
// engine's own keys hold values that are not numbers (Babylon 9.28 builds an orthographic camera's
// orthoTop/orthoRight keys one key late, the last one undefined), so its playback is not a judge.
function properties(group) {
	const out = new Map();
	for (const ta of group.targetedAnimations) {
		const prop = ta.animation.targetProperty;
		if (TRS.has(prop)) continue;
		const t = ta.target;
		const key = `${t.getClassName?.() ?? typeof t}|${t.name ?? ''}|${prop}`;
		const broken = ta.animation.getKeys().some((k) => !numbers(k.value)?.every(Number.isFinite));
		out.set(key, { key, target: t, prop, broken: broken || out.get(key)?.broken === true });
	}
	return [...out.values()];
}

// A morph target's largest vertex displacement in its mesh's own space (Babylon stores absolute target
// positions: displacement = target - base), and that mesh: its influence is judged on the vertices it moves
// (DESIGN §4), not by value.
function morphReach(meshes, target) {
	for (const mesh of meshes) {
		const mgr = mesh.morphTargetManager;
		if (!mgr) continue;
		for (let i = 0; i < mgr.numTargets; i++) {
			if (mgr.getTarget(i) !== target) continue;
			const base = mesh.getVerticesData('position'), pos = target.getPositions();
			let reach = 0;
			for (let v = 0; pos && base && v + 2 < pos.length; v += 3)
				reach = Math.max(reach, Math.hypot(pos[v] - base[v], pos[v + 1] - base[v + 1], pos[v + 2] - base[v + 2]));
			return { mesh, reach };
		}
	}
	return null;
}

// The largest column length of a mesh's world matrix (its largest scale in the scene).
function worldScale(mesh) {
	const m = mesh.computeWorldMatrix(true).m;
	return Math.max(Math.hypot(m[0], m[1], m[2]), Math.hypot(m[4], m[5], m[6]), Math.hypot(m[8], m[9], m[10]));
}

export async function runPointerBabylon(spec) {
	const BABYLON = await import('@babylonjs/core/index.js');
	await import('@babylonjs/loaders/glTF/index.js');
	const engine = new BABYLON.NullEngine();
	const options = { pluginOptions: { gltf: { animationStartMode: 0 } } }; // NONE: nothing auto-starts
	const load = async (url) => {
		const scene = new BABYLON.Scene(engine);
		const c = await BABYLON.LoadAssetContainerAsync(url, scene, options);
		c.addAllToScene();
		for (const g of c.animationGroups) g.stop();
		return c;
	};
	const a = await load(spec.source), b = await load(spec.output);
	const fps = 60; // the loader's frame rate: frame = seconds * 60
	const result = { version: BABYLON.Engine.Version, groups: [] };
	for (const ga of a.animationGroups) {
		const gb = b.animationGroups.find((g) => g.name === ga.name);
		if (!gb) throw new Error(`no animation group '${ga.name}' in the output`);
		const all = properties(ga), pb = new Map(properties(gb).map((p) => [p.key, p]));
		for (const p of all) if (p.target.getClassName?.() === 'MorphTarget' && p.prop === 'influence') p.morph = morphReach(a.meshes, p.target);
		const pa = all.filter((p) => !p.broken), skipped = all.filter((p) => p.broken).map((p) => p.key);
		const missing = pa.filter((p) => !pb.has(p.key)).map((p) => p.key);
		const extra = [...pb.keys()].filter((k) => !all.some((p) => p.key === k));
		ga.start(false, 1, ga.from, ga.to); ga.pause();
		gb.start(false, 1, gb.from, gb.to); gb.pause();
		const worst = new Map();
		const duration = Math.min(ga.to, gb.to) / fps;
		const steps = spec.steps ?? 600;
		let compared = 0;
		for (let i = 0; i <= steps; i++) {
			const t = (duration * i) / steps;
			ga.goToFrame(Math.max(t * fps, ga.from));
			gb.goToFrame(Math.max(t * fps, gb.from));
			for (const p of pa) {
				const q = pb.get(p.key);
				if (!q) continue;
				const va = numbers(read(p.target, p.prop)), vb = numbers(read(q.target, q.prop));
				if (!va || !vb || va.length !== vb.length) throw new Error(`${p.key}: values ${va} / ${vb}`);
				const w = worst.get(p.key) ?? { diff: 0, at: 0, value: 0, magnitude: 0, vertex: p.morph ? 0 : undefined };
				const lever = p.morph ? p.morph.reach * worldScale(p.morph.mesh) : 0; // scene units per unit of influence
				for (let k = 0; k < va.length; k++) {
					const diff = Math.abs(va[k] - vb[k]);
					w.magnitude = Math.max(w.magnitude, Math.abs(va[k]));
					if (p.morph && diff * lever > w.vertex) w.vertex = diff * lever;
					if (diff > w.diff) Object.assign(w, { diff, at: t, value: va[k] });
				}
				worst.set(p.key, w);
				compared++;
			}
		}
		ga.stop(); gb.stop();
		result.groups.push({
			name: ga.name, properties: pa.length, skipped, missing, extra, compared, duration,
			// relative to the property's largest magnitude over the clip, at least 1: the pointer tracks'
			// precision rule (1e-4 of it); a morph target's influence: the distance its difference moves the
			// target's farthest vertex in the scene, in metres (its bound: 1e-4 m at the vertices, DESIGN §4)
			worst: [...worst.entries()].map(([key, w]) => ({ key, ...w, ratio: w.vertex !== undefined ? w.vertex : w.diff / Math.max(1, w.magnitude) }))
				.sort((x, y) => y.ratio - x.ratio),
		});
	}
	return result;
}

window.sinewPointerTest = { runPointerBabylon, ready: true };
