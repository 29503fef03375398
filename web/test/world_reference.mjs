// sinew — see include/sinew.h for version and licence
// An independent plain-JS model of the world runtime's semantics (web/README.md §World runtime),
// written from that text and sharing no code with web/world.mjs or web/sinew_world.c: per-clip
// poses come from the single-clip decoder (Sinew.load + anim.sample, tested bit for bit against
// the native kernel elsewhere); time, loop modes, fades and blending are computed here in float64
// (weights in float32, as the README states), loops and ping-pong by stepping from end to end
// rather than by the closed forms the runtime uses.

const F = 10; // floats per joint

// Format 3 (docs/format.md §rig, §node map): the rig after the clips holds the rest pose (its Rest part); a node
// or scalar track a clip does not list holds its default (the rest pose with Rest_defaults, else identity);
// a listed one sets what its kinds say, as in formats 1 and 2.
function participation3(bytes, dv) {
	const u16 = (o) => dv.getUint16(o, true), u32 = (o) => dv.getUint32(o, true), f32 = (o) => dv.getFloat32(o, true);
	const align = (x) => (x + 3) & ~3;
	const blobFlags = u16(6), count = u32(16), table = blobFlags & 1 ? 24 : 20, restDefaults = (blobFlags & 2) !== 0;
	const last = u32(table + 4 * (count - 1)), rig = align(last + u32(last));
	const J = u16(rig), S = u16(rig + 2), rigFlags = u16(rig + 4), wide = rigFlags & 128;
	const comps = Array.from({ length: S }, (_, k) => (bytes[rig + 16 + k] & 3) + 1);
	let at = align(rig + 16 + S);
	if (rigFlags & 1) at = align(at + 2 * J); // Parents
	if (rigFlags & 2) at = align(at + (wide ? 4 : 2) * J); // Node_sources
	const rest = rigFlags & 4 ? at : 0; // Rest: 40 bytes per node, then the scalar tracks' values
	const out = [];
	for (let c = 0; c < count; c++) {
		const clip = u32(table + 4 * c), flags = u32(clip + 4);
		let p = clip + (flags & 8 ? 24 : 20);
		const listed = (n, bit) => {
			if (!(flags & bit)) return Array(n).fill(true);
			const on = Array.from({ length: n }, (_, i) => ((bytes[p + (i >> 3)] >> (i & 7)) & 1) === 1);
			p += (n + 7) >> 3;
			return on;
		};
		const lj = listed(J, 0x4000), ls = listed(S, 0x8000);
		const unlisted = restDefaults ? 1 : 0;
		let d = p;
		const joints = [];
		for (let j = 0; j < J; j++) {
			const k = lj[j] ? bytes[d++] : unlisted * 21;
			const def = rest ? rest + 40 * j : 0;
			const identity = [
				!def || (f32(def) === 0 && f32(def + 4) === 0 && f32(def + 8) === 0 && Math.abs(f32(def + 12)) === 1),
				!def || [16, 20, 24].every((o) => f32(def + o) === 0),
				!def || [28, 32, 36].every((o) => f32(def + o) === 1),
			];
			joints.push([0, 1, 2].map((q) => { const kind = (k >> (2 * q)) & 3; return kind >= 2 || (kind === 0 && !identity[q]); }));
		}
		const scalars = [];
		let o = 0;
		for (let k = 0; k < S; k++) {
			const kind = ls[k] ? bytes[d++] & 3 : unlisted;
			for (let i = 0; i < comps[k]; i++) scalars.push(kind >= 2 || (kind === 0 && rest !== 0 && f32(rest + 40 * J + 4 * (o + i)) !== 0));
			o += comps[k];
		}
		out.push({ joints, scalars });
	}
	return out;
}

// Which sub-tracks each clip of a blob sets, read from the bytes (docs/format.md: the joint and
// scalar descriptors after the clip header, 2 bytes each after 64 bytes in version 1, 1 byte each
// after 36 bytes in version 2; metadata default poses): a sub-track whose kind is default (1), or
// identity (0) where the default is the identity, holds the bind value throughout and is left to
// the other layers. Per clip: { joints: [[rot, tr, sc]], scalars: [per scalar float] }.
export function participation(bytes) {
	const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const version = dv.getUint16(4, true);
	if (version === 3) return participation3(bytes, dv);
	if (version !== 1 && version !== 2) throw new Error(`world_reference participation(): format version ${version}`);
	const out = [];
	for (let c = 0; c < dv.getUint32(16, true); c++) {
		const clip = dv.getUint32(32 + 4 * c, true), flags = dv.getUint32(clip + 4, true);
		let J, S, desc, step, meta = 0;
		if (version === 1) {
			J = dv.getUint32(clip + 28, true), S = dv.getUint32(clip + 32, true), desc = clip + 64, step = 2;
			if (flags & 8) meta = clip + dv.getUint32(clip + 60, true);
		} else {
			J = dv.getUint16(clip + 28, true), S = dv.getUint16(clip + 30, true), desc = clip + 36, step = 1;
			if (flags & 8) { // §Clip header: the metadata follows the segment (or page and tier) table, 4-aligned
				const L = dv.getUint16(clip + 32, true), stored = dv.getUint32(clip + 24, true) + (flags & 1);
				const segments = stored === 1 ? 1 : Math.ceil((stored - 1) / L);
				let at = (36 + (J + S) * (flags & 64 ? 2 : 1) + 3) & ~3;
				const value = flags & 256 ? 2 : 4; // bytes per clip range value (Half_ranges: binary16)
				for (let j = 0; j < J; j++)
					for (let k = 0; k < 3; k++) {
						const kind = (bytes[desc + j] >> (2 * k)) & 3;
						if (kind === 1 || kind === 2) at += kind === 2 && flags & 512 ? 9 : 12; // (Short_constants: 3 bytes a value)
					}
				for (let k = 0; k < S; k++) {
					const d = bytes[desc + J + k], n = ((d >> 2) & 3) + 1;
					if ((d & 3) === 1 || (d & 3) === 2) at += ((d & 3) === 2 && flags & 512 ? 3 : 4) * n;
				}
				at = (at + 3) & ~3; // the constants end on 4 bytes, then the clip ranges
				for (let j = 0; j < J; j++)
					for (let k = 0; k < 3; k++) if (((bytes[desc + j] >> (2 * k)) & 3) === 3) at += 2 * value * (k === 0 && segments > 1 ? 4 : 3);
				for (let k = 0; k < S; k++) if ((bytes[desc + J + k] & 3) === 3) at += 2 * value * (((bytes[desc + J + k] >> 2) & 3) + 1);
				if (flags & 2048) at += 4 + 8 * dv.getUint32(clip + at, true); // Time_map: Mark_count, then (f32 time, u32 sample) per mark
				let end;
				if (flags & 32) {
					end = at + 4 + 20 * dv.getUint32(clip + at, true);
					if (flags & 128) end += 4 + 12 * dv.getUint32(clip + end, true);
				} else {
					end = dv.getUint32(clip + at + 4 * segments, true);
				}
				meta = clip + ((end + 3) & ~3);
			}
		}
		const f32 = (o) => dv.getFloat32(o, true);
		const joints = [];
		for (let j = 0; j < J; j++) {
			const d = bytes[desc + step * j];
			const def = meta ? meta + 16 + 60 * j + 20 : 0;
			const identity = [
				!meta || (f32(def) === 0 && f32(def + 4) === 0 && f32(def + 8) === 0 && Math.abs(f32(def + 12)) === 1),
				!meta || [16, 20, 24].every((o) => f32(def + o) === 0),
				!meta || [28, 32, 36].every((o) => f32(def + o) === 1),
			];
			joints.push([0, 1, 2].map((k) => { const kind = (d >> (2 * k)) & 3; return kind >= 2 || (kind === 0 && !identity[k]); }));
		}
		const scalars = [];
		for (let k = 0; k < S; k++) {
			const d = bytes[desc + step * (J + k)], kind = d & 3, comps = ((d >> 2) & 3) + 1;
			const def = meta ? meta + 16 + 60 * J + 32 * k + 16 : 0;
			for (let i = 0; i < comps; i++) scalars.push(kind >= 2 || (kind === 0 && meta !== 0 && f32(def + 4 * i) !== 0));
		}
		out.push({ joints, scalars });
	}
	return out;
}

export class RefLayer {
	constructor(anim, clip, options = {}) {
		this.anim = anim;           // SinewAnimation of the clip's blob
		this.clip = clip;           // clip index in that blob
		this.info = anim.clip(clip);
		this.part = options.part ?? anim.part?.[clip] ?? null; // participation() of the clip (null: all)
		this.time = options.time ?? 0;
		this.speed = Math.fround(options.speed ?? 1);
		this.weight = Math.fround(options.weight ?? 1);
		this.loop = options.loop ?? 'once';
		this.additive = options.additive ?? false; // false | 'first' | 'bind'
		this.mask = options.mask ?? null;          // per player joint, or null
		this.map = options.map ?? null;            // clip joint -> player joint, or null (identity)
		this.enabled = options.enabled ?? true;
		this.range = options.range ?? null;        // [from, to] seconds of the clip, or null
		this.stopAtEnd = options.stopAtEnd ?? false; // once: disabled when the end is reached
		this.repetitions = options.repetitions ?? Infinity; // repeat / ping-pong: loops before finishing
		this.loopCount = -1;                       // three.js's count: -1 until the first move
		this.paused = false;
		this.backwards = false;                    // ping-pong direction
		this.fade = null;                          // { target, rate, stop }
		this.warp = null;                          // { target, rate }: a speed ramp
		this.events = { loop: 0, finished: false, fadedOut: false, fadeDone: false };
	}

	warpTo(from, to, duration) {
		this.speed = Math.fround(from);
		this.warp = { target: Math.fround(to), rate: Math.fround(Math.abs(to - from) / duration) };
	}

	fadeTo(target, duration, stop = false) {
		this.fade = { target: Math.fround(target), rate: Math.fround(Math.abs(target - this.weight) / duration), stop };
	}
}

// One frame of dt seconds for one layer.
export function refAdvance(l, dt) {
	l.events = { loop: 0, finished: false, fadedOut: false, fadeDone: false };
	if (!l.enabled) return;
	if (l.fade) {
		const step = Math.fround(Math.fround(Math.abs(dt)) * l.fade.rate);
		const up = l.weight < l.fade.target;
		const next = Math.fround(up ? l.weight + step : l.weight - step);
		l.weight = up ? (next >= l.fade.target ? l.fade.target : next) : (next <= l.fade.target ? l.fade.target : next);
		if (l.weight === l.fade.target) {
			l.events.fadeDone = true;
			if (l.fade.target === 0 && l.fade.stop) { l.enabled = false; l.events.fadedOut = true; }
			l.fade = null;
		}
	}
	if (l.warp) { // the speed ramps as a fade does (float32)
		const step = Math.fround(Math.fround(Math.abs(dt)) * l.warp.rate);
		const up = l.speed < l.warp.target;
		const next = Math.fround(up ? l.speed + step : l.speed - step);
		l.speed = up ? (next >= l.warp.target ? l.warp.target : next) : (next <= l.warp.target ? l.warp.target : next);
		if (l.speed === l.warp.target) { l.warpDone = true; l.warp = null; }
	}
	if (l.paused) return;
	// the played span [lo, hi]: the range (float32 seconds) within the clip, or the whole clip
	let lo = 0, hi = l.info.duration;
	if (l.range) { lo = Math.min(Math.fround(l.range[0]), hi); hi = Math.max(Math.min(Math.fround(l.range[1]), hi), lo); }
	const d = hi - lo;
	if (!(d > 0)) { l.time = lo; return; }
	const move = dt * l.speed;
	const start = Math.min(Math.max(l.time - lo, 0), d);
	if (l.loopCount < 0 && move > 0) l.loopCount = 0;
	// one loop completed; true when that was the last of finitely many (three.js: finish at that end)
	const looped = () => { l.loopCount++; if (l.loopCount >= l.repetitions) return true; l.events.loop++; return false; };
	const finish = () => { l.events.loop = 0; l.paused = true; l.events.finished = true; if (l.stopAtEnd) l.enabled = false; };
	if (l.loop === 'once') {
		let t = start + move;
		const end = t >= d || (t <= 0 && move < 0);
		t = Math.min(Math.max(t, 0), d);
		if (end) { l.paused = true; l.events.finished = true; if (l.stopAtEnd) l.enabled = false; }
		l.time = lo + t;
	} else if (l.loop === 'repeat') {
		let t = start + move, done = false;
		while (!done && t >= d) { t -= d; if (looped()) { done = true; t = d; } }
		while (!done && t < 0) { t += d; if (looped()) { done = true; t = 0; } }
		if (done) finish();
		l.time = lo + t;
	} else { // ping-pong: walk the distance, turning at each end
		let left = Math.abs(move), forward = (move >= 0) !== l.backwards, t = start;
		while (left > 0) {
			const room = forward ? d - t : t;
			if (left <= room) { t += forward ? left : -left; left = 0; break; }
			left -= room; t = forward ? d : 0;
			if (looped()) { finish(); left = 0; break; }
			forward = !forward;
		}
		// the direction is the layer's playing direction relative to a positive speed
		l.backwards = (move >= 0) ? !forward : forward;
		l.time = lo + t;
	}
}

const dot4 = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
function mul(a, b) { // Hamilton product, x y z w
	return [
		a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
		a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
		a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
		a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
	];
}
function normalize(q, fallback) {
	const n = Math.hypot(q[0], q[1], q[2], q[3]);
	return n > 1e-15 ? q.map((x) => x / n) : fallback.slice(0, 4);
}

function sampleOf(l) {
	return Float64Array.from(l.anim.sample(l.clip, l.time));
}

// The blended pose of a player: joints, scalars (counts), rest (pose array), layers (in order).
export function refBlend(joints, scalars, rest, layers) {
	const sums = Array.from({ length: joints }, () => ({ q: [0, 0, 0, 0], t: [0, 0, 0], s: [0, 0, 0], wq: 0, wt: 0, ws: 0 }));
	const ssum = Array.from({ length: scalars }, () => ({ v: 0, w: 0 }));
	const live = layers.filter((l) => l.enabled && l.weight > 0);
	for (const l of live.filter((x) => !x.additive)) {
		const s = sampleOf(l), J = l.info.jointCount;
		for (let c = 0; c < J; c++) {
			const j = l.map ? l.map[c] : c;
			if (j === 0xffffffff || j >= joints) continue;
			const w = l.weight * (l.mask ? l.mask[j] : 1);
			if (!(w > 0)) continue;
			const [pr, pt, ps] = l.part ? l.part.joints[c] : [true, true, true];
			const acc = sums[j];
			if (pr) {
				const q = [s[c * F], s[c * F + 1], s[c * F + 2], s[c * F + 3]];
				const sign = dot4(acc.q, q) < 0 ? -1 : 1;
				for (let k = 0; k < 4; k++) acc.q[k] += sign * w * q[k];
				acc.wq += w;
			}
			if (pt) { for (let k = 0; k < 3; k++) acc.t[k] += w * s[c * F + 4 + k]; acc.wt += w; }
			if (ps) { for (let k = 0; k < 3; k++) acc.s[k] += w * s[c * F + 7 + k]; acc.ws += w; }
		}
		for (let i = 0; i < l.info.scalarFloats && i < scalars; i++) {
			if (l.part && !l.part.scalars[i]) continue;
			ssum[i].v += l.weight * s[J * F + i]; ssum[i].w += l.weight;
		}
	}
	const out = new Float64Array(joints * F + scalars);
	for (let j = 0; j < joints; j++) {
		const acc = sums[j], r = Array.from(rest.subarray(j * F, j * F + F));
		if (acc.wq < 1) {
			const f = 1 - acc.wq, sign = dot4(acc.q, r) < 0 ? -1 : 1;
			for (let k = 0; k < 4; k++) acc.q[k] += sign * f * r[k];
		}
		out.set(normalize(acc.q, r), j * F);
		// translation and scale: the weighted mean, the missing weight taken from the rest pose
		const mean = (sum, w, o) => {
			for (let k = 0; k < 3; k++) out[j * F + o + k] = w < 1 ? sum[k] + (1 - w) * r[o + k] : sum[k] / w;
		};
		mean(acc.t, acc.wt, 4);
		mean(acc.s, acc.ws, 7);
	}
	for (let i = 0; i < scalars; i++) {
		let { v, w } = ssum[i];
		if (w < 1) { v += (1 - w) * rest[joints * F + i]; w = 1; }
		out[joints * F + i] = v / w;
	}
	for (const l of live.filter((x) => x.additive)) {
		const s = sampleOf(l), J = l.info.jointCount;
		const first = l.additive === 'first' ? Float64Array.from(l.anim.sample(l.clip, 0)) : null;
		for (let c = 0; c < J; c++) {
			const j = l.map ? l.map[c] : c;
			if (j === 0xffffffff || j >= joints) continue;
			const w = l.weight * (l.mask ? l.mask[j] : 1);
			if (!(w > 0)) continue;
			const ref = first ? first.subarray(c * F, c * F + F) : rest.subarray(j * F, j * F + F);
			const v = s.subarray(c * F, c * F + F);
			const [pr, pt, ps] = l.part ? l.part.joints[c] : [true, true, true];
			if (pt) for (let k = 4; k < 7; k++) out[j * F + k] += w * (v[k] - ref[k]);
			if (ps) for (let k = 7; k < F; k++) out[j * F + k] += w * (v[k] - ref[k]);
			if (!pr) continue;
			let delta = mul([-ref[0], -ref[1], -ref[2], ref[3]], [v[0], v[1], v[2], v[3]]);
			if (delta[3] < 0) delta = delta.map((x) => -x);
			const part = normalize([w * delta[0], w * delta[1], w * delta[2], 1 - w + w * delta[3]], [0, 0, 0, 1]);
			const base = [out[j * F], out[j * F + 1], out[j * F + 2], out[j * F + 3]];
			out.set(normalize(mul(base, part), [0, 0, 0, 1]), j * F);
		}
		for (let i = 0; i < l.info.scalarFloats && i < scalars; i++) {
			if (l.part && !l.part.scalars[i]) continue;
			const ref = first ? first[J * F + i] : rest[joints * F + i];
			out[joints * F + i] += l.weight * (s[J * F + i] - ref);
		}
	}
	return out;
}
