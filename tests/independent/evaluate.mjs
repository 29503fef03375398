// Independent judge of sinew's error guarantee — evaluating a scene loaded by three's GLTFLoader.
// World transforms come from three's own Object3D.updateMatrixWorld; clips are played by three's
// AnimationMixer. Per glTF node: its world origin and 6 shell points origin ± off_k * column k of
// matrixWorld. The default shell (`rest`, DESIGN §4) is fixed at the rest pose: off_k = d / sigma_k,
// sigma_k the length of column k of the node's rest world matrix (so the points lie d from the node at
// rest whatever the armature's scale) and every animated scale, the node's own included, then moves
// them; a degenerate rest axis (sigma_k < 1e-3 M_k, M_k the largest length the column reaches at the
// clip's check times) takes M_k. `normalized` (d along the unit columns at every time) and `scaled`
// (d * the columns) are diagnosis modes. Computed with unit quaternions (`points`) and as three
// composes the stored quaternions (`raw`). Nothing here shares code with sinew's C metric.
import { AnimationMixer, Interpolant, LoopOnce, QuaternionKeyframeTrack, Vector3 } from '../../web/browser-test/node_modules/three/build/three.module.js';

// LINEAR rotations as the glTF spec plays them: slerp. three r187's Quaternion.slerpFlat lerps and normalizes
// when the keys are closer than dot 0.9995 (a 3.6 degree turn), which strays up to 4e-7 from the slerp (1e-4 cm a
// metre from the joint: RobotExpressive 'ThumbsUp' 0.01006 cm against 0.00997 with the slerp). The judge slerps
// exactly, in double, with the angle from the keys' difference and sum (accurate as they meet); setExactSlerp(false)
// (--three-slerp) keeps three's own interpolant.
class ExactSlerpInterpolant extends Interpolant {
	interpolate_(i1, t0, t, t1) {
		const out = this.resultBuffer, v = this.sampleValues, stride = this.valueSize, alpha = (t - t0) / (t1 - t0);
		for (let o = i1 * stride, end = o + stride, r = 0; o !== end; o += 4, r += 4) {
			const a = o - stride;
			let dot = 0;
			for (let c = 0; c < 4; c++) dot += v[a + c] * v[o + c];
			const sign = dot < 0 ? -1 : 1;
			let diff = 0, sum = 0;
			for (let c = 0; c < 4; c++) {
				const d = v[a + c] - sign * v[o + c], p = v[a + c] + sign * v[o + c];
				diff += d * d, sum += p * p;
			}
			const theta = 2 * Math.atan2(Math.sqrt(diff), Math.sqrt(sum));
			let wa = 1 - alpha, wb = alpha;
			if (theta > 1e-12) wa = Math.sin((1 - alpha) * theta) / Math.sin(theta), wb = Math.sin(alpha * theta) / Math.sin(theta);
			let n = 0;
			for (let c = 0; c < 4; c++) out[r + c] = wa * v[a + c] + sign * wb * v[o + c], n += out[r + c] * out[r + c];
			n = Math.sqrt(n);
			for (let c = 0; c < 4; c++) out[r + c] /= n;
		}
		return out;
	}
}
const threeLinear = QuaternionKeyframeTrack.prototype.InterpolantFactoryMethodLinear;
function exactLinear(result) {
	return new ExactSlerpInterpolant(this.times, this.values, this.getValueSize(), result);
}
export function setExactSlerp(on) {
	QuaternionKeyframeTrack.prototype.InterpolantFactoryMethodLinear = on ? exactLinear : threeLinear;
}
setExactSlerp(true);

export const POINTS = 7;                 // origin, +x, -x, +y, -y, +z, -z
export const FLOATS_PER_NODE = POINTS * 3;
export const SHELL_MODES = ['rest', 'normalized', 'scaled'];
// A rest axis shorter than this fraction of the longest the clip gives it is degenerate (DESIGN §4).
export const DEGENERATE_REST = 1e-3;

// Rest-mode local offsets, per node and axis: d / sigma_k, sigma_k = the rest column length, replaced
// by M_k (the largest length at the check times) when sigma_k < 1e-3 M_k; no offset (the two points on
// the origin) when the axis is still below 1e-30 (rest and clip both zero).
export function restOffsets(sigma, maxColumns, d) {
	const off = new Float64Array(sigma.length);
	for (let i = 0; i < sigma.length; i++) {
		let s = sigma[i];
		const m = maxColumns ? maxColumns[i] : 0;
		if (!(s >= DEGENERATE_REST * m)) s = m; // (NaN rest lengths take M_k too)
		off[i] = s > 1e-30 ? d / s : 0;
	}
	return off;
}

export class SceneEval {
	// gltf: GLTFLoader result; json: its document (node names).
	constructor(gltf, json, { shell = 0.03, shellMode = 'rest', plusOnly = false } = {}) {
		if (!SHELL_MODES.includes(shellMode)) throw new Error(`shell mode ${shellMode}`);
		this.gltf = gltf;
		this.json = json;
		this.shell = shell;
		this.shellMode = shellMode;
		this.plusOnly = plusOnly; // only origin + d * axis (sinew's C metric), the -d points then repeat the origin
		const assoc = gltf.parser.associations;
		const byIndex = new Map();
		const roots = gltf.scenes?.length ? gltf.scenes : [gltf.scene];
		for (const root of roots) {
			root.traverse((o) => {
				const a = assoc.get(o);
				if (a && a.nodes !== undefined && !byIndex.has(a.nodes)) byIndex.set(a.nodes, o);
			});
		}
		this.roots = roots;
		this.indices = [...byIndex.keys()].sort((a, b) => a - b);
		this.objects = this.indices.map((i) => byIndex.get(i));
		this.slot = new Map(this.indices.map((n, k) => [n, k]));
		this.rest = this.objects.map((o) => ({ p: o.position.clone(), q: o.quaternion.clone(), s: o.scale.clone() }));
		// Morph weights: per node, the meshes carrying its morph targets (the node itself when it is
		// a one-primitive mesh, else its primitive children, which are not glTF nodes).
		this.morphs = this.objects.map((o) => {
			const list = [];
			if (o.morphTargetInfluences) list.push(o);
			for (const c of o.children) {
				const a = assoc.get(c);
				if (!(a && a.nodes !== undefined) && c.morphTargetInfluences) list.push(c);
			}
			return list.map((m) => {
				// per target the largest displacement of a vertex position in the mesh's own space (0: the target
				// moves no position: normals or tangents only, or nothing). A glTF target without POSITION displaces
				// nothing (glTF 2.0 §3.7.2.2), but three r187's GLTFLoader gives it the base positions as a relative
				// displacement when another target has POSITION: such targets are left out of the vertex check.
				const g = m.geometry, base = g.attributes.position, targets = g.morphAttributes.position ?? [];
				const a = assoc.get(m), prim = a && a.meshes !== undefined ? json.meshes?.[a.meshes]?.primitives?.[a.primitives ?? 0] : null;
				const hasPosition = (i) => !prim || prim.targets?.[i]?.POSITION !== undefined;
				const reach = new Float64Array(m.morphTargetInfluences.length);
				for (let i = 0; i < targets.length && i < reach.length; i++) {
					if (!hasPosition(i)) continue;
					const t = targets[i];
					for (let v = 0; v < t.count; v++) {
						let x = t.getX(v), y = t.getY(v), z = t.getZ(v);
						if (!g.morphTargetsRelative && base) x -= base.getX(v), y -= base.getY(v), z -= base.getZ(v);
						const d = Math.hypot(x, y, z);
						if (d > reach[i] || Number.isNaN(d)) reach[i] = Number.isNaN(d) ? Infinity : d;
					}
				}
				// the displacements of the targets that move positions, vertex-major (the unskinned path below)
				const moving = [...reach.keys()].filter((i) => reach[i] > 0), count = base ? base.count : 0;
				const disp = new Float64Array(count * moving.length * 3);
				moving.forEach((i, j) => {
					const t = targets[i];
					for (let v = 0; v < count; v++) {
						let x = t.getX(v), y = t.getY(v), z = t.getZ(v);
						if (!g.morphTargetsRelative) x -= base.getX(v), y -= base.getY(v), z -= base.getZ(v);
						const o = 3 * (v * moving.length + j);
						disp[o] = x, disp[o + 1] = y, disp[o + 2] = z;
					}
				});
				return { mesh: m, rest: m.morphTargetInfluences.slice(), reach, vertices: count, moving, disp };
			});
		});
		// Per node and weight (the layout of `weights`): 1 when the weight's target moves a vertex position in any
		// of the node's primitives (the vertex check judges it), 0 when it moves none (its value is judged).
		this.byVertex = this.morphs.map((l) => {
			const out = new Uint8Array(l.reduce((n, m) => n + m.rest.length, 0));
			let at = 0;
			for (const m of l) {
				for (let i = 0; i < m.rest.length; i++) out[at + i] = l.some((o) => o.reach[i] > 0) ? 1 : 0;
				at += m.rest.length;
			}
			return out;
		});
		this._vertexA = new Float64Array(0);
		this.points = new Float64Array(this.objects.length * FLOATS_PER_NODE);
		this.raw = new Float64Array(this.objects.length * FLOATS_PER_NODE);
		this._savedQ = new Float64Array(this.objects.length * 4);
		// Per node the weights of all its primitives one after the other.
		this.weights = this.morphs.map((l) => new Float64Array(l.reduce((n, m) => n + m.rest.length, 0)));
		// rest mode: the local offset of each node's shell points along each axis (setOffsets)
		this.offsets = new Float64Array(this.objects.length * 3);
		// The rest world matrix's column lengths (sigma_k) per node and axis, as loaded.
		this.restColumns = new Float64Array(this.objects.length * 3);
		this.reset();
		this.columns(this.restColumns, true);
	}

	// Rest-mode offsets, per slot of this scene (3 per node).
	setOffsets(off) {
		this.offsets.set(off);
	}

	// Column lengths of every node's world matrix for the current local TRS, with unit quaternions:
	// into out (assign) or the largest so far (!assign). Leaves matrixWorld as three composes the stored
	// quaternions only when compute() runs next (it always does before points are read).
	columns(out, assign = false) {
		const objs = this.objects;
		this._normalizeQuaternions();
		for (const root of this.roots) root.updateMatrixWorld(true);
		for (let k = 0; k < objs.length; k++) {
			const e = objs[k].matrixWorld.elements;
			for (let axis = 0; axis < 3; axis++) {
				const len = Math.hypot(e[4 * axis], e[4 * axis + 1], e[4 * axis + 2]);
				const i = 3 * k + axis;
				if (assign) out[i] = len;
				else if (len > out[i] || Number.isNaN(len)) out[i] = Number.isNaN(len) ? Infinity : len;
			}
		}
		this._restoreQuaternions();
	}

	_normalizeQuaternions() {
		const objs = this.objects, saved = this._savedQ;
		let any = false;
		for (let k = 0; k < objs.length; k++) {
			const q = objs[k].quaternion;
			saved[4 * k] = q.x; saved[4 * k + 1] = q.y; saved[4 * k + 2] = q.z; saved[4 * k + 3] = q.w;
			if (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w !== 1) { q.normalize(); any = true; }
		}
		this._anyNormalized = any;
		return any;
	}

	_restoreQuaternions() {
		if (!this._anyNormalized) return;
		const objs = this.objects, saved = this._savedQ;
		for (let k = 0; k < objs.length; k++) objs[k].quaternion.set(saved[4 * k], saved[4 * k + 1], saved[4 * k + 2], saved[4 * k + 3]);
	}

	nodeName(index) {
		const n = this.json.nodes?.[index];
		return n && n.name !== undefined ? n.name : `node ${index}`;
	}

	// Calibration (--float32-floor): the rest TRS as a float32 writer stores it (quaternion
	// normalized, then every component rounded to float32).
	roundRestToFloat32() {
		const f = Math.fround;
		for (const r of this.rest) {
			r.p.set(f(r.p.x), f(r.p.y), f(r.p.z));
			r.q.normalize();
			r.q.set(f(r.q.x), f(r.q.y), f(r.q.z), f(r.q.w));
			r.s.set(f(r.s.x), f(r.s.y), f(r.s.z));
		}
	}

	reset() {
		for (let k = 0; k < this.objects.length; k++) {
			const o = this.objects[k], r = this.rest[k];
			o.position.copy(r.p);
			o.quaternion.copy(r.q);
			o.scale.copy(r.s);
			for (const m of this.morphs[k]) {
				const w = m.mesh.morphTargetInfluences;
				for (let i = 0; i < w.length; i++) w[i] = m.rest[i];
			}
		}
	}

	// World matrices from the current local TRS, then the 7 points per node and the morph weights.
	// Two sets of points: `raw` as three composes the pose (three uses the stored quaternion as it
	// is, and a float32 quaternion is not exactly unit: |q|^2 - 1 scales and shears the node), and
	// `points` with every quaternion normalized first (glTF rotations are unit quaternions).
	compute() {
		const objs = this.objects;
		if (this._normalizeQuaternions()) {
			this._points(this.points);
			this._restoreQuaternions();
			this._points(this.raw);
		} else {
			this._points(this.points);
			this.raw.set(this.points);
		}
		for (let k = 0; k < objs.length; k++) {
			const w = this.weights[k];
			let at = 0;
			for (const m of this.morphs[k]) {
				const v = m.mesh.morphTargetInfluences;
				for (let i = 0; i < v.length; i++) w[at++] = v[i];
			}
		}
	}

	// Largest world distance, over the vertices of node slot k's morph meshes, between each vertex as placed with the
	// weights `w` (laid out as this.weights[k]) and as placed now (after compute(): the pose and weights of this
	// scene). A mesh: the weight differences times the targets' relative displacements (three's morph attributes),
	// summed per vertex, through its matrixWorld's linear part; a SkinnedMesh: three's own Mesh.getVertexPosition
	// (morph targets, then its bones) with each set of weights, through matrixWorld. { error (scene units), vertex,
	// mesh } of the worst vertex, or null when no weight differs.
	morphVertexError(k, w) {
		let at = 0, worst = null;
		const a = new Vector3(), b = new Vector3();
		for (const [j, m] of this.morphs[k].entries()) {
			const inf = m.mesh.morphTargetInfluences, n = inf.length;
			let differs = false;
			for (let i = 0; i < n; i++) if (m.reach[i] > 0 && w[at + i] !== inf[i]) differs = true;
			if (differs && m.vertices && !m.mesh.isSkinnedMesh) {
				const e = m.mesh.matrixWorld.elements, nm = m.moving.length, dw = m.moving.map((i) => w[at + i] - inf[i]), d = m.disp;
				for (let v = 0, o = 0; v < m.vertices; v++) {
					let x = 0, y = 0, z = 0;
					for (let q = 0; q < nm; q++, o += 3) x += dw[q] * d[o], y += dw[q] * d[o + 1], z += dw[q] * d[o + 2];
					let err = Math.hypot(e[0] * x + e[4] * y + e[8] * z, e[1] * x + e[5] * y + e[9] * z, e[2] * x + e[6] * y + e[10] * z);
					if (Number.isNaN(err)) err = Infinity;
					if (worst === null || err > worst.error) worst = { error: err, vertex: v, mesh: j };
				}
			} else if (differs && m.vertices) {
				if (this._vertexA.length < 3 * m.vertices) this._vertexA = new Float64Array(3 * m.vertices);
				const pos = this._vertexA, saved = inf.slice(), world = m.mesh.matrixWorld;
				for (let v = 0; v < m.vertices; v++) {
					m.mesh.getVertexPosition(v, a).applyMatrix4(world);
					pos[3 * v] = a.x, pos[3 * v + 1] = a.y, pos[3 * v + 2] = a.z;
				}
				for (let i = 0; i < n; i++) if (m.reach[i] > 0) inf[i] = w[at + i]; // (the others move no position)
				for (let v = 0; v < m.vertices; v++) {
					m.mesh.getVertexPosition(v, b).applyMatrix4(world);
					let e = Math.hypot(b.x - pos[3 * v], b.y - pos[3 * v + 1], b.z - pos[3 * v + 2]);
					if (Number.isNaN(e)) e = Infinity;
					if (worst === null || e > worst.error) worst = { error: e, vertex: v, mesh: j };
				}
				for (let i = 0; i < n; i++) inf[i] = saved[i];
			}
			at += n;
		}
		return worst;
	}

	_points(pts) {
		for (const root of this.roots) root.updateMatrixWorld(true);
		const d = this.shell, mode = this.shellMode, offsets = this.offsets;
		for (let k = 0; k < this.objects.length; k++) {
			const e = this.objects[k].matrixWorld.elements;
			const o = k * FLOATS_PER_NODE;
			const px = e[12], py = e[13], pz = e[14];
			pts[o] = px; pts[o + 1] = py; pts[o + 2] = pz;
			for (let axis = 0; axis < 3; axis++) {
				let ax = e[4 * axis], ay = e[4 * axis + 1], az = e[4 * axis + 2];
				let f;
				if (mode === 'rest') f = offsets[3 * k + axis]; // fixed local offset: the column carries every scale
				else if (mode === 'normalized') {
					const len = Math.hypot(ax, ay, az);
					// A zero-scaled axis has no direction: its shell points sit at the origin.
					f = len > 1e-30 ? d / len : 0;
				} else f = d;
				ax *= f; ay *= f; az *= f;
				const q = o + 3 + 6 * axis;
				pts[q] = px + ax; pts[q + 1] = py + ay; pts[q + 2] = pz + az;
				if (this.plusOnly) { pts[q + 3] = px; pts[q + 4] = py; pts[q + 5] = pz; }
				else { pts[q + 3] = px - ax; pts[q + 4] = py - ay; pts[q + 5] = pz - az; }
			}
		}
	}
}

// Plays one AnimationClip alone on a SceneEval's scene with three's AnimationMixer.
export class ThreePlayer {
	constructor(scene, clip, warnings = []) {
		this.scene = scene;
		this.clip = clip;
		const warn = console.warn;
		console.warn = (...args) => warnings.push(args.map(String).join(' '));
		try {
			this.mixer = new AnimationMixer(scene.gltf.scene);
			this.action = this.mixer.clipAction(clip);
			this.action.setLoop(LoopOnce, 1);
			this.action.clampWhenFinished = true;
			this.scene.reset();
			this.action.play();
			this.mixer.update(0); // binds the tracks (warnings about missing targets land here)
		} finally {
			console.warn = warn;
		}
	}

	// Pose at clip time t: nodes reset to their rest TRS, then the clip's values at t. The action is
	// stopped and restarted around the reset: three's PropertyMixer only writes a property whose
	// value changed since its previous apply(), so a reset behind its back would otherwise stick.
	at(t) {
		this.pose(t);
		this.scene.compute();
	}

	// The pose at t in the nodes' local TRS and weights, without computing points.
	pose(t) {
		this.action.stop();
		this.scene.reset();
		this.action.play();
		this.action.time = t; // with deltaTime 0 the action evaluates exactly this time (no clamping logic)
		this.mixer.update(0);
	}

	dispose() {
		this.action.stop();
		this.mixer.uncacheRoot(this.scene.gltf.scene);
	}
}

// Writes clip `clip` of a sinew animation (web/sinew.mjs), sampled at t, into the nodes of a
// SceneEval by glTF node index (Source_index metadata) and morph weights by (node, target).
export class SinewPlayer {
	constructor(scene, anim, clip) {
		this.scene = scene;
		this.anim = anim;
		this.clip = clip;
		this.info = anim.clip(clip);
		if (!this.info.joints) throw new Error('sinew blob has no metadata (compressed with --strip?)');
		this.missing = [];
		this.targets = this.info.joints.map((j) => {
			const k = j.node === null ? undefined : scene.slot.get(j.node);
			if (j.node !== null && k === undefined) this.missing.push(j.node);
			return k === undefined ? -1 : k;
		});
		this.scalars = this.info.scalars.map((s, i) => {
			const k = s.node === null || s.pointer !== null ? undefined : scene.slot.get(s.node);
			return { slot: k === undefined ? -1 : k, target: s.target, offset: this.info.scalarTracks[i].offset };
		});
	}

	at(t) {
		this.pose(t);
		this.scene.compute();
	}

	// The sampled pose written into the nodes (and morph weights), without computing points; the
	// sampled array (web/sinew.mjs's view of the wasm heap, valid until the next sample) is returned
	// and kept as `sampled` for the pointer tracks.
	pose(t) {
		const scene = this.scene;
		scene.reset();
		const pose = this.anim.sample(this.clip, t);
		this.sampled = pose;
		for (let j = 0; j < this.targets.length; j++) {
			const k = this.targets[j];
			if (k < 0) continue;
			const o = scene.objects[k], p = j * 10;
			o.quaternion.set(pose[p], pose[p + 1], pose[p + 2], pose[p + 3]);
			o.position.set(pose[p + 4], pose[p + 5], pose[p + 6]);
			o.scale.set(pose[p + 7], pose[p + 8], pose[p + 9]);
		}
		const base = this.targets.length * 10;
		for (const s of this.scalars) {
			if (s.slot < 0 || s.target === null) continue;
			for (const m of scene.morphs[s.slot]) {
				if (s.target < m.mesh.morphTargetInfluences.length) m.mesh.morphTargetInfluences[s.target] = pose[base + s.offset];
			}
		}
		return pose;
	}

	// KHR_animation_pointer tracks (scalars[i].pointer): per pointer the tracks holding its floats
	// ({ first float, components, offset into the sampled array }), for PointerComparison.
	pointerTracks() {
		const base = this.targets.length * 10, byPointer = new Map();
		this.info.scalars.forEach((s, i) => {
			if (s.pointer === null) return;
			const list = byPointer.get(s.pointer) ?? [];
			list.push({ first: s.target ?? 0, components: this.info.scalarTracks[i].components, offset: base + this.info.scalarTracks[i].offset });
			byPointer.set(s.pointer, list);
		});
		return byPointer;
	}

	dispose() {}
}

// Check times of a source clip: every key time of every track, and the subdiv - 1 evenly spaced times
// inside each interval between consecutive keys of each track and of the sorted union of key times
// (subdiv 4, the default: the 1/4, 1/2 and 3/4 points; 2: the midpoint). keysOnly: key times only.
// keyTracks: more source key-time arrays treated like the clip's tracks (the non-node
// KHR_animation_pointer curves three does not play). extra: more clips (e.g. the decompressed one)
// whose key times and in-between times are added too (counted as in-between times, not source keys),
// restricted to the source keys' time range.
// Returns { times: Float64Array sorted, keyMask: Uint8Array (1 = a key time), subsampled, keyCount }.
export function checkTimes(clip, { keysOnly = false, maxTimes = Infinity, subdiv = 4, extra = [], keyTracks = [] } = {}) {
	const keys = new Set(), all = new Set();
	const inner = (set, a, b) => { for (let j = 1; j < subdiv; j++) set.add(j * 2 === subdiv ? (a + b) / 2 : a + ((b - a) * j) / subdiv); };
	for (const t of [...clip.tracks.map((track) => track.times), ...keyTracks]) {
		for (let i = 0; i < t.length; i++) {
			keys.add(t[i]);
			all.add(t[i]);
			if (!keysOnly && i + 1 < t.length) inner(all, t[i], t[i + 1]);
		}
	}
	if (!keysOnly) {
		const sorted = [...keys].sort((a, b) => a - b);
		for (let i = 0; i + 1 < sorted.length; i++) inner(all, sorted[i], sorted[i + 1]);
	}
	if (extra.length && keys.size) {
		let lo = Infinity, hi = -Infinity;
		for (const t of keys) { if (t < lo) lo = t; if (t > hi) hi = t; }
		const more = new Set();
		for (const c of extra) {
			for (const track of c.tracks) {
				const t = track.times;
				for (let i = 0; i < t.length; i++) {
					more.add(t[i]);
					if (i + 1 < t.length) inner(more, t[i], t[i + 1]);
				}
			}
		}
		for (const t of more) if (t >= lo && t <= hi) all.add(t);
	}
	let times = Float64Array.from(all).sort();
	let subsampled = false;
	if (times.length > maxTimes) {
		// Evenly spaced subset, both ends kept.
		const n = Math.max(2, maxTimes), picked = new Float64Array(n);
		for (let i = 0; i < n; i++) picked[i] = times[Math.round((i * (times.length - 1)) / (n - 1))];
		times = picked;
		subsampled = true;
	}
	const keyMask = Uint8Array.from(times, (t) => (keys.has(t) ? 1 : 0));
	return { times, keyMask, subsampled, keyCount: keys.size };
}
