// sinew — see include/sinew.h for version and licence
// The part of the engine adapters (three.mjs, babylon.mjs) that does not depend on the engine:
// one anim.sample() (one wasm call) per write, weight 0/1, and the changed-bitset bookkeeping —
// every mapped output on the first write (and after weight 0, invalidate(), or a sample of the
// same animation by someone else), then only the outputs anim.changed() flags.
export class PoseWriter {
	// targets: per joint the engine object or null; morphs: per scalar track a list of morph
	// targets; set: { rotation(o, pose, i), translation(o, pose, i), scale(o, pose, i),
	// morph(m, track, value) } writing into the engine's objects; weights: the accepted weights.
	constructor(anim, clip, targets, morphs, set, weights, who) {
		this.anim = anim;
		this.clip = clip;
		this.info = anim.clip(clip);
		this.targets = targets;
		this.morphs = morphs;
		this.set = set;
		this.weights = weights;
		this.who = who;
		this._weight = 1;
		this._full = true;        // next write sets every target (first write, back from weight 0)
		this._appliedTime = NaN;  // time of the pose the targets hold
		this._serial = -1;        // anim.serial right after this writer's last sample
	}

	get weight() { return this._weight; }
	set weight(w) {
		if (!this.weights.includes(w)) throw new RangeError(`sinew ${this.who} adapter: weight ${w} (only ${this.weights.join(', ')})`);
		if (this._weight === 0 && w !== 0) this._full = true;
		this._weight = w;
	}

	invalidate() { this._full = true; this._appliedTime = NaN; }

	// Whether the targets may not hold the pose at `time` (a write would change something).
	stale(time) { return this._full || time !== this._appliedTime; }

	write(time) {
		if (this._weight === 0) return;
		const anim = this.anim;
		// the changed bitset is relative to this writer's last write only if nobody sampled since
		const own = !this._full && anim.serial === this._serial;
		const pose = anim.sample(this.clip, time);
		this._serial = anim.serial;
		const changed = own ? anim.changed(this.clip) : null;
		const bit = (i) => changed === null || ((changed[i >>> 5] >>> (i & 31)) & 1) !== 0;
		this._full = false;
		this._appliedTime = time;
		const targets = this.targets, set = this.set;
		for (let j = 0; j < targets.length; j++) {
			const o = targets[j];
			if (!o) continue;
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
}
