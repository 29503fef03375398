// sinew — see include/sinew.h for version and licence
// The part of the engine adapters (three.mjs, babylon.mjs) that does not depend on the engine:
// one anim.sample() (one wasm call) per written pose and the changed-bitset bookkeeping — every
// mapped output on the first write (and after invalidate(), a blended write, or a sample of the same
// animation by someone else), then only the outputs anim.changed() flags — plus the nodes' values
// saved and put back, and a pose blended with saved values (the engines' weights below 1).
export class PoseWriter {
	// targets: per joint the engine object or null; morphs: per scalar track a list of morph
	// targets; set: { rotation(o, pose, i), translation(o, pose, i), scale(o, pose, i),
	// morph(m, track, value), get(o) -> 10 numbers (q xyzw, t, s), getMorph(m, track) }.
	constructor(anim, clip, targets, morphs, set) {
		this.anim = anim;
		this.clip = clip;
		this.info = anim.clip(clip);
		this.targets = targets;
		this.morphs = morphs;
		this.set = set;
		this.skip = null;         // per joint true: not written (a mask)
		this._full = true;        // next write sets every target (first write, after invalidate or a blend)
		this._appliedTime = NaN;  // time of the pose the targets hold
		this._serial = -1;        // anim.serial right after this writer's last sample
		this._pose = null;        // scratch for blended writes
	}

	invalidate() { this._full = true; this._appliedTime = NaN; }

	// Whether the targets may not hold the pose at `time` (a write would change something).
	stale(time) { return this._full || !Object.is(time, this._appliedTime); } // (NaN: a clip of one sample in three's loop arithmetic)

	// One wasm call: the clip at `time` into the targets (those the clip can have changed since this
	// writer's last write, or all).
	write(time) {
		const anim = this.anim;
		// the changed bitset is relative to this writer's last write only if nobody sampled since
		const own = !this._full && anim.serial === this._serial;
		const pose = anim.sample(this.clip, time);
		this._serial = anim.serial;
		const changed = own ? anim.changed(this.clip) : null;
		const bit = (i) => changed === null || ((changed[i >>> 5] >>> (i & 31)) & 1) !== 0;
		this._full = false;
		this._appliedTime = time;
		const targets = this.targets, set = this.set, skip = this.skip;
		for (let j = 0; j < targets.length; j++) {
			const o = targets[j];
			if (!o || (skip && skip[j])) continue;
			const p = j * 10;
			if (bit(3 * j)) set.rotation(o, pose, p);
			if (bit(3 * j + 1)) set.translation(o, pose, p + 4);
			if (bit(3 * j + 2)) set.scale(o, pose, p + 7);
		}
		const base = targets.length * 10;
		for (let k = 0; k < this.morphs.length; k++) {
			const list = this.morphs[k];
			if (list.length === 0 || !bit(3 * targets.length + k)) continue;
			const v = pose[base + this.info.scalarTracks[k].offset];
			for (const m of list) set.morph(m, k, v);
		}
	}

	// The targets' current values (10 per joint, then one per morph target of each track), float64.
	capture() {
		const out = [];
		for (const o of this.targets) out.push(o ? this.set.get(o) : null);
		return { joints: out, morphs: this.morphs.map((list, k) => list.map((m) => this.set.getMorph(m, k))) };
	}

	// Puts captured values back (every target and morph the mask lets through).
	restore(saved) {
		const set = this.set, skip = this.skip;
		this.targets.forEach((o, j) => {
			const v = saved.joints[j];
			if (!o || !v || (skip && skip[j])) return;
			set.rotation(o, v, 0); set.translation(o, v, 4); set.scale(o, v, 7);
		});
		this.morphs.forEach((list, k) => list.forEach((m, i) => set.morph(m, k, saved.morphs[k][i])));
		this.invalidate();
	}

	// One wasm call: the clip at `time` mixed into the captured values with `weight` per output, by
	// mix.rotation(orig, value, w, out) and mix.vector(orig, value, w, out) (the engine's formulas); every
	// target is written, so the next plain write writes everything too.
	writeBlended(time, saved, weight, mix) {
		const pose = this.anim.sample(this.clip, time);
		this._serial = this.anim.serial;
		const p = this._pose ??= new Float64Array(10);
		const q = new Float64Array(4), v = new Float64Array(3), targets = this.targets, set = this.set, skip = this.skip;
		for (let j = 0; j < targets.length; j++) {
			const o = targets[j], s = saved.joints[j];
			if (!o || !s || (skip && skip[j])) continue;
			const b = j * 10;
			mix.rotation(s, 0, pose, b, weight, q);
			p.set(q, 0);
			mix.vector(s, 4, pose, b + 4, weight, v);
			p.set(v, 4);
			mix.vector(s, 7, pose, b + 7, weight, v);
			p.set(v, 7);
			set.rotation(o, p, 0); set.translation(o, p, 4); set.scale(o, p, 7);
		}
		const base = targets.length * 10;
		this.morphs.forEach((list, k) => list.forEach((m, i) => {
			const orig = saved.morphs[k][i];
			set.morph(m, k, mix.scalar(orig, pose[base + this.info.scalarTracks[k].offset], weight));
		}));
		this._full = true;
		this._appliedTime = NaN;
	}
}
