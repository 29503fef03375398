// sinew — see include/sinew.h for version and licence
// What both three.js adapters (three.mjs, three_world.mjs) share: three's AnimationAction, ported from
// three r187 (AnimationAction, its fade and warp control interpolants, the loop logic and the 'loop' /
// 'finished' events), so that a sinew action keeps the time, the effective weight and time scale, the
// loop count and the events three's own action would, frame for frame. The mixer (`_mixer`) provides
// time, timeScale, dispatchEvent and _activateAction / _deactivateAction; after _update(...) the action's
// _clipTime is the clip time to sample (ping-pong rounds inverted) and its return value the weight.

// three.js constants (the same numbers as THREE.LoopOnce etc.; three is not imported here).
export const LoopOnce = 2200, LoopRepeat = 2201, LoopPingPong = 2202;
export const NormalAnimationBlendMode = 2500, AdditiveAnimationBlendMode = 2501;

// three's LinearInterpolant over two keys, as AnimationMixer lends them for fades and warps: times and
// values stored as float32, the result a float32.
class Control {
	constructor() { this.pp = new Float32Array(2); this.v = new Float32Array(2); this.out = new Float32Array(1); }
	evaluate(t) {
		const [t0, t1] = this.pp;
		if (!(t >= t0)) return this.v[0];
		if (!(t < t1)) return this.v[1];
		const weight1 = (t - t0) / (t1 - t0), weight0 = 1 - weight1;
		this.out[0] = this.v[0] * weight0 + this.v[1] * weight1;
		return this.out[0];
	}
}

/** One clip on the mixer's root, as THREE.AnimationAction (its time, weight and loop logic ported from r187). */
export class SinewAction {
	constructor(mixer, clip) {
		this._mixer = mixer;
		this._clip = clip;          // { index, name, duration, bindings: Binding indices, slots: [joint*10 + offset per binding value] }
		this._localRoot = null;
		this.blendMode = NormalAnimationBlendMode;
		this._timeScaleInterpolant = null;
		this._restoreTimeScale = null;
		this._weightInterpolant = null;
		this.loop = LoopRepeat;
		this._loopCount = -1;
		this._startTime = null;
		this.time = 0;
		this.timeScale = 1;
		this._effectiveTimeScale = 1;
		this.weight = 1;
		this._effectiveWeight = 1;
		this.repetitions = Infinity;
		this.paused = false;
		this.enabled = true;
		this.clampWhenFinished = false;
		this.zeroSlopeAtStart = true;
		this.zeroSlopeAtEnd = true;
		this._active = false;
		this._clipTime = 0; // the time sampled in the last update
	}
	play() { this._mixer._activateAction(this); return this; }
	stop() { this._mixer._deactivateAction(this); return this.reset(); }
	reset() {
		this.paused = false;
		this.enabled = true;
		this.time = 0;
		this._loopCount = -1;
		this._startTime = null;
		return this.stopFading().stopWarping();
	}
	isRunning() { return this.enabled && !this.paused && this.timeScale !== 0 && this._startTime === null && this._active; }
	isScheduled() { return this._active; }
	startAt(time) { this._startTime = time; return this; }
	setLoop(mode, repetitions) { this.loop = mode; this.repetitions = repetitions; return this; }
	setEffectiveWeight(weight) {
		this.weight = weight;
		this._effectiveWeight = this.enabled ? weight : 0;
		return this.stopFading();
	}
	getEffectiveWeight() { return this._effectiveWeight; }
	fadeIn(duration) { return this._scheduleFading(duration, 0, 1); }
	fadeOut(duration) { return this._scheduleFading(duration, 1, 0); }
	crossFadeFrom(fadeOutAction, duration, warp = false) {
		fadeOutAction.fadeOut(duration);
		this.fadeIn(duration);
		if (warp === true) {
			const fadeInDuration = this._clip.duration, fadeOutDuration = fadeOutAction._clip.duration;
			const startEndRatio = fadeOutDuration / fadeInDuration, endStartRatio = fadeInDuration / fadeOutDuration;
			fadeOutAction._restoreTimeScale = fadeOutAction.timeScale;
			this._restoreTimeScale = this.timeScale;
			fadeOutAction.warp(1.0, startEndRatio, duration);
			this.warp(endStartRatio, 1.0, duration);
		}
		return this;
	}
	crossFadeTo(fadeInAction, duration, warp = false) { return fadeInAction.crossFadeFrom(this, duration, warp); }
	stopFading() { this._weightInterpolant = null; return this; }
	setEffectiveTimeScale(timeScale) {
		this.timeScale = timeScale;
		this._effectiveTimeScale = this.paused ? 0 : timeScale;
		return this.stopWarping();
	}
	getEffectiveTimeScale() { return this._effectiveTimeScale; }
	setDuration(duration) { this.timeScale = this._clip.duration / duration; return this.stopWarping(); }
	syncWith(action) { this.time = action.time; this.timeScale = action.timeScale; return this.stopWarping(); }
	halt(duration) { return this.warp(this._effectiveTimeScale, 0, duration); }
	warp(startTimeScale, endTimeScale, duration) {
		const now = this._mixer.time, timeScale = this.timeScale;
		const c = this._timeScaleInterpolant ??= new Control();
		c.pp[0] = now; c.pp[1] = now + duration;
		c.v[0] = startTimeScale / timeScale; c.v[1] = endTimeScale / timeScale;
		return this;
	}
	stopWarping() { this._timeScaleInterpolant = null; this._restoreTimeScale = null; return this; }
	getMixer() { return this._mixer; }
	/** The clip: { index, name, duration } of the blob's clip. */
	getClip() { return this._clip; }
	getRoot() { return this._localRoot || this._mixer._root; }

	_scheduleFading(duration, weightNow, weightThen) {
		const now = this._mixer.time;
		const c = this._weightInterpolant ??= new Control();
		c.pp[0] = now; c.v[0] = weightNow;
		c.pp[1] = now + duration; c.v[1] = weightThen;
		return this;
	}
	// AnimationAction._update without the interpolants: returns the weight it contributes with (the mixer
	// samples the clip at this._clipTime and accumulates).
	_update(time, deltaTime, timeDirection) {
		if (!this.enabled) { this._updateWeight(time); return 0; }
		const startTime = this._startTime;
		if (startTime !== null) {
			const timeRunning = (time - startTime) * timeDirection;
			if (timeRunning < 0 || timeDirection === 0) deltaTime = 0;
			else { this._startTime = null; deltaTime = timeDirection * timeRunning; }
		}
		deltaTime *= this._updateTimeScale(time);
		this._clipTime = this._updateTime(deltaTime);
		return this._updateWeight(time);
	}
	_updateWeight(time) {
		let weight = 0;
		if (this.enabled) {
			weight = this.weight;
			const interpolant = this._weightInterpolant;
			if (interpolant !== null) {
				const interpolantValue = interpolant.evaluate(time);
				weight *= interpolantValue;
				if (time > interpolant.pp[1]) {
					this.stopFading();
					if (interpolantValue === 0) this.enabled = false;
				}
			}
		}
		this._effectiveWeight = weight;
		return weight;
	}
	_updateTimeScale(time) {
		let timeScale = 0;
		if (!this.paused) {
			timeScale = this.timeScale;
			const interpolant = this._timeScaleInterpolant;
			if (interpolant !== null) {
				const interpolantValue = interpolant.evaluate(time);
				timeScale *= interpolantValue;
				if (time > interpolant.pp[1]) {
					if (timeScale === 0) this.paused = true;
					else {
						if (this._restoreTimeScale !== null) timeScale = this._restoreTimeScale;
						this.timeScale = timeScale;
					}
					this.stopWarping();
				}
			}
		}
		this._effectiveTimeScale = timeScale;
		return timeScale;
	}
	_updateTime(deltaTime) {
		const duration = this._clip.duration, loop = this.loop;
		let time = this.time + deltaTime, loopCount = this._loopCount;
		const pingPong = loop === LoopPingPong;
		if (deltaTime === 0) {
			if (loopCount === -1) return time;
			return pingPong && (loopCount & 1) === 1 ? duration - time : time;
		}
		if (loop === LoopOnce) {
			if (loopCount === -1) this._loopCount = 0;
			handle_stop: {
				if (time >= duration) time = duration;
				else if (time < 0) time = 0;
				else { this.time = time; break handle_stop; }
				if (this.clampWhenFinished) this.paused = true;
				else this.enabled = false;
				this.time = time;
				this._mixer.dispatchEvent({ type: 'finished', action: this, direction: deltaTime < 0 ? -1 : 1 });
			}
		} else {
			if (loopCount === -1) {
				if (deltaTime >= 0) loopCount = 0; // (a backward start's first wrap through 0 is not counted)
			}
			if (time >= duration || time < 0) {
				const loopDelta = Math.floor(time / duration);
				time -= duration * loopDelta;
				loopCount += Math.abs(loopDelta);
				const pending = this.repetitions - loopCount;
				if (pending <= 0) {
					if (this.clampWhenFinished) this.paused = true;
					else this.enabled = false;
					time = deltaTime > 0 ? duration : 0;
					this.time = time;
					this._mixer.dispatchEvent({ type: 'finished', action: this, direction: deltaTime > 0 ? 1 : -1 });
				} else {
					this._loopCount = loopCount;
					this.time = time;
					this._mixer.dispatchEvent({ type: 'loop', action: this, loopDelta });
				}
			} else {
				this._loopCount = loopCount;
				this.time = time;
			}
			if (pingPong && (loopCount & 1) === 1) return duration - time;
		}
		return time;
	}
}
