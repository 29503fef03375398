// sinew — see include/sinew.h for version and licence
// The samplers under test, the same code in node and in the browser. Each setup takes the scene bytes
// (glb, and the .sinew blob for the compressed runtime) already in memory and returns
// { sample(t), wasmMemory(), info }. sample(t) evaluates every channel at t seconds: sampling only, no matrix
// updates, no rendering. The engines (three.js, Babylon.js) also write the values into their scene nodes'
// position / quaternion / scale properties (that is how their APIs sample); the others write one Float32Array.
import { parseGlb as llParseGlb, build as llBuild, createRuntime as llCreateRuntime } from '../../web/lossless/lossless.mjs';
import Sinew from '../../web/sinew.mjs';

export const ENGINES = ['typed-js', 'lossless-simd', 'lossless-mvp', 'compressed-simd', 'compressed-mvp', 'three', 'babylon'];

const IS_NODE = typeof process !== 'undefined' && process.versions?.node !== undefined;

// ---------------------------------------------------------------- plain-JS typed-array sampler
// A minimal GLB reader (float accessors, tightly packed or strided), then per distinct key-time accessor one
// cursor (forward playback: current interval, next interval, else binary search); LINEAR lerp for vec3, spec
// slerp (shortest arc, acos/sin; lerp+normalize when nearly parallel) for quaternions, STEP, Float32Array keys.
function parseGlbPlain(bytes) {
	const u8 = new Uint8Array(bytes);
	const dv = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
	if (dv.getUint32(0, true) !== 0x46546c67) throw new Error('not a glb');
	let off = 12, json = null, bin = null;
	while (off + 8 <= u8.byteLength) {
		const len = dv.getUint32(off, true), type = dv.getUint32(off + 4, true);
		const chunk = u8.subarray(off + 8, off + 8 + len);
		if (type === 0x4e4f534a) json = JSON.parse(new TextDecoder().decode(chunk));
		else if (type === 0x004e4942) bin = chunk;
		off += 8 + len;
	}
	return { json, bin };
}

const NCOMP = { SCALAR: 1, VEC3: 3, VEC4: 4 };

function readFloatAccessor(json, bin, index) {
	const a = json.accessors[index];
	if (a.componentType !== 5126 || a.sparse) throw new Error(`typed-js: accessor ${index}: only plain float accessors`);
	const nc = NCOMP[a.type];
	const bv = json.bufferViews[a.bufferView];
	const start = bin.byteOffset + (bv.byteOffset ?? 0) + (a.byteOffset ?? 0);
	const stride = bv.byteStride ?? nc * 4;
	if (stride === nc * 4 && start % 4 === 0) return new Float32Array(bin.buffer, start, a.count * nc).slice();
	const out = new Float32Array(a.count * nc), dv = new DataView(bin.buffer);
	for (let k = 0; k < a.count; k++) for (let c = 0; c < nc; c++) out[k * nc + c] = dv.getFloat32(start + k * stride + c * 4, true);
	return out;
}

export function buildTypedSampler(glbBytes) {
	const { json, bin } = parseGlbPlain(glbBytes);
	const anim = json.animations[0];
	const trackOf = new Map(); // input accessor -> track index
	const times = [], vec3 = [], quat = [];
	let nout = 0;
	for (const ch of anim.channels) {
		const s = anim.samplers[ch.sampler];
		const path = ch.target.path;
		if (path !== 'translation' && path !== 'rotation' && path !== 'scale') continue;
		if (!trackOf.has(s.input)) { trackOf.set(s.input, times.length); times.push(readFloatAccessor(json, bin, s.input)); }
		const rec = { track: trackOf.get(s.input), values: readFloatAccessor(json, bin, s.output), out: nout,
			step: (s.interpolation ?? 'LINEAR') === 'STEP' };
		if (s.interpolation === 'CUBICSPLINE') throw new Error('typed-js: CUBICSPLINE not implemented');
		if (path === 'rotation') { quat.push(rec); nout += 4; } else { vec3.push(rec); nout += 3; }
	}
	const nt = times.length;
	const cursor = new Int32Array(nt), key = new Int32Array(nt), frac = new Float32Array(nt);
	const out = new Float32Array(nout);
	function locate(t) {
		for (let i = 0; i < nt; i++) {
			const tt = times[i], n = tt.length;
			if (n < 2 || t <= tt[0]) { key[i] = 0; frac[i] = 0; continue; }
			if (t >= tt[n - 1]) { key[i] = n - 2; frac[i] = 1; continue; }
			let k = cursor[i];
			if (!(tt[k] <= t && t < tt[k + 1])) {
				if (k + 2 < n && tt[k + 1] <= t && t < tt[k + 2]) k++;
				else { let lo = 0, hi = n - 1; while (hi - lo > 1) { const m = (lo + hi) >> 1; if (tt[m] <= t) lo = m; else hi = m; } k = lo; }
			}
			cursor[i] = k; key[i] = k;
			const d = tt[k + 1] - tt[k];
			frac[i] = d > 0 ? (t - tt[k]) / d : 0;
		}
	}
	function sample(t) {
		locate(t);
		for (let j = 0; j < vec3.length; j++) {
			const c = vec3[j], v = c.values, k = key[c.track], o = c.out;
			let u = frac[c.track];
			if (c.step) u = u >= 1 ? 1 : 0;
			const a = k * 3, b = a + 3, w = 1 - u;
			out[o] = v[a] * w + v[b] * u; out[o + 1] = v[a + 1] * w + v[b + 1] * u; out[o + 2] = v[a + 2] * w + v[b + 2] * u;
		}
		for (let j = 0; j < quat.length; j++) {
			const c = quat[j], v = c.values, k = key[c.track], o = c.out;
			let u = frac[c.track];
			if (c.step) u = u >= 1 ? 1 : 0;
			const a = k * 4, b = a + 4;
			const ax = v[a], ay = v[a + 1], az = v[a + 2], aw = v[a + 3];
			let bx = v[b], by = v[b + 1], bz = v[b + 2], bw = v[b + 3];
			let d = ax * bx + ay * by + az * bz + aw * bw;
			if (d < 0) { d = -d; bx = -bx; by = -by; bz = -bz; bw = -bw; }
			let s0, s1;
			if (d > 0.9995) { s0 = 1 - u; s1 = u; } else {
				const th = Math.acos(d), inv = 1 / Math.sin(th);
				s0 = Math.sin((1 - u) * th) * inv; s1 = Math.sin(u * th) * inv;
			}
			let x = ax * s0 + bx * s1, y = ay * s0 + by * s1, z = az * s0 + bz * s1, w = aw * s0 + bw * s1;
			if (d > 0.9995) { const l = 1 / Math.sqrt(x * x + y * y + z * z + w * w); x *= l; y *= l; z *= l; w *= l; }
			out[o] = x; out[o + 1] = y; out[o + 2] = z; out[o + 3] = w;
		}
		return out;
	}
	let bytes = 0;
	for (const t of times) bytes += t.byteLength;
	for (const c of vec3.concat(quat)) bytes += c.values.byteLength;
	const duration = Math.max(...times.map((t) => t[t.length - 1]));
	return { sample, duration, info: { channels: vec3.length + quat.length, tracks: nt, keyframeBytes: bytes } };
}

// ---------------------------------------------------------------- three.js
async function setupThree(glbBytes) {
	const THREE = await import('three');
	const { GLTFLoader } = await import('three/examples/jsm/loaders/GLTFLoader.js');
	const gltf = await new GLTFLoader().parseAsync(glbBytes.buffer.slice(glbBytes.byteOffset, glbBytes.byteOffset + glbBytes.byteLength), '');
	const clip = gltf.animations[0];
	const mixer = new THREE.AnimationMixer(gltf.scene);
	mixer.clipAction(clip).play();
	// setTime(t) = reset the mixer clock to 0, then update(t): evaluates every track at t and writes the
	// node properties (position / quaternion / scale). No updateMatrixWorld, no render.
	return { sample: (t) => mixer.setTime(t), duration: clip.duration, keep: gltf,
		info: { tracks: clip.tracks.length, loader: 'GLTFLoader.parseAsync' } };
}

// ---------------------------------------------------------------- Babylon.js
async function setupBabylon(glbBytes) {
	const { NullEngine } = await import('@babylonjs/core/Engines/nullEngine.js');
	const { Scene } = await import('@babylonjs/core/scene.js');
	const { LoadAssetContainerAsync } = await import('@babylonjs/core/Loading/sceneLoader.js');
	await import('@babylonjs/core/Animations/index.js');
	await import('@babylonjs/loaders/glTF/2.0/index.js');
	await import('@babylonjs/loaders/glTF/glTFFileLoader.js');
	const engine = new NullEngine();
	const scene = new Scene(engine);
	const container = await LoadAssetContainerAsync(new Uint8Array(glbBytes), scene, { pluginExtension: '.glb' });
	container.addAllToScene();
	const group = container.animationGroups[0];
	// The loader starts every group playing; stop it, then drive the frame ourselves (no scene.render()).
	for (const g of container.animationGroups) g.stop();
	group.start(true, 1, group.from, group.to);
	group.pause();
	const fps = group.targetedAnimations[0].animation.framePerSecond;
	// goToFrame evaluates every targeted animation at the frame and writes the node properties.
	return { sample: (t) => group.goToFrame(group.from + t * fps), duration: (group.to - group.from) / fps, keep: [engine, scene],
		info: { targetedAnimations: group.targetedAnimations.length, framePerSecond: fps, loader: 'LoadAssetContainerAsync + NullEngine' } };
}

// ---------------------------------------------------------------- sinew lossless / compressed
// base: the URL of another version's web/sinew.mjs (run.mjs --baseline): its web/lossless/lossless.mjs, else this one's
async function setupLossless(glbBytes, simd, base) {
	const ll = base ? await import(new URL('lossless/lossless.mjs', new URL(base, import.meta.url)).href) : { parseGlb: llParseGlb, build: llBuild, createRuntime: llCreateRuntime };
	const { json, buffers } = ll.parseGlb(glbBytes);
	const block = ll.build(json, buffers);
	const rt = await ll.createRuntime({ simd });
	if (rt.simd !== simd) throw new Error(`lossless: asked simd=${simd}, got ${rt.simd}`);
	const anim = rt.load(block);
	return { sample: (t) => anim.sample(t), duration: anim.end, wasmMemory: () => rt.memory.buffer.byteLength,
		info: { blockBytes: block.byteLength, channels: anim.channelCount ?? anim.channels.length } };
}

// base: the URL of another version's web/sinew.mjs (run.mjs --baseline), else this one's
async function setupCompressed(blobBytes, simd, base) {
	const anim = await (base ? (await import(base)).default : Sinew).load(blobBytes, { simd });
	const c = anim.clip(0);
	return { sample: (t) => anim.sample(0, t), duration: c.duration, wasmMemory: () => anim._memory.buffer.byteLength,
		info: { joints: c.jointCount, kernel: c.kernel, blobBytes: blobBytes.byteLength } };
}

// engine 'base-compressed-simd' / 'base-compressed-mvp' / 'base-lossless-simd': that runtime of the baseline at URL `base`
export async function setup(engine, glbBytes, blobBytes, base = null) {
	if (engine.startsWith('base-')) {
		if (!base) throw new Error(`${engine} needs a baseline (run.mjs --baseline DIR)`);
		if (engine === 'base-compressed-simd') return setupCompressed(blobBytes, true, base);
		if (engine === 'base-compressed-mvp') return setupCompressed(blobBytes, false, base);
		if (engine === 'base-lossless-simd') return setupLossless(glbBytes, true, base);
	}
	switch (engine) {
	case 'typed-js': return buildTypedSampler(glbBytes);
	case 'lossless-simd': return setupLossless(glbBytes, true);
	case 'lossless-mvp': return setupLossless(glbBytes, false);
	case 'compressed-simd': return setupCompressed(blobBytes, true);
	case 'compressed-mvp': return setupCompressed(blobBytes, false);
	case 'three': return setupThree(glbBytes);
	case 'babylon': return setupBabylon(glbBytes);
	default: throw new Error(`unknown engine ${engine}`);
	}
}

// ---------------------------------------------------------------- timing
// frames calls of sample() at advancing times (60 Hz steps, wrapping at the clip end), each timed on its own.
export function timeFrames(s, frames, warmup) {
	const dur = s.duration > 0 ? s.duration : 1;
	let sink = 0;
	const probe = (r) => (r && r.length !== undefined ? r[0] : r && r.outputs ? r.outputs[0] : 0);
	for (let i = 0; i < warmup; i++) sink += probe(s.sample(((i * 7) / 60) % dur)) || 0;
	const per = new Float64Array(frames);
	const t0 = performance.now();
	for (let i = 0; i < frames; i++) {
		const t = (i / 60) % dur;
		const a = performance.now();
		sink += probe(s.sample(t)) || 0;
		per[i] = performance.now() - a;
	}
	const total = performance.now() - t0;
	const sorted = Array.from(per).sort((x, y) => x - y);
	const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
	return { frames, median: q(0.5), p99: q(0.99), min: sorted[0], max: sorted[sorted.length - 1], meanLoop: total / frames, worst: sorted.slice(-5).reverse(),
		worstAt: Array.from(per).map((v, i) => [v, i]).sort((x, y) => y[0] - x[0]).slice(0, 5).map((x) => x[1]),
		sink: Number.isFinite(sink) ? 0 : 1 };
}

export { IS_NODE };
