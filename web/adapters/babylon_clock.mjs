// sinew — see include/sinew.h for version and licence
// What both Babylon.js adapters (babylon.mjs, babylon_world.mjs) share: the time keeping of a Babylon
// AnimationGroup, ported from @babylonjs/core 9.x (AnimationGroup, Animatable._animate,
// RuntimeAnimation.animate and goToFrame), so that a sinew group shows the frame Babylon's own group
// shows in every frame: `from` on the first frame after start(), the speed-ratio offsets, pauses
// (Babylon resumes where its first paused frame would have been), goToFrame jumps, loops (the loop
// observables fire in the frame the frame wraps) and the end (the frame shows `to`, then the end
// observables). The glTF loader normalizes every animation of a group to [0, to] (keys added at both
// ends), so one runtime animation's frame is every animation's frame; the port keeps that one.
//
// A subclass provides _evaluate(frame, jump) (write the pose of `frame`; jump: from goToFrame, written at
// once as Babylon does), _targets() (the TargetedAnimation-like list) and, optionally, _original(save)
// (save: capture the nodes' values as Babylon's runtime animations do when they are created; else put
// them back, as Animatable.reset does).

/** A member of an engine's API that a sinew adapter cannot honour (curve editing: the keys are compressed). */
export class SinewUnsupportedError extends Error {
	constructor(member, why) {
		super(`sinew adapter: ${member} is not supported: ${why}`);
		this.name = 'SinewUnsupportedError';
		this.member = member;
	}
}

/** Babylon's Observable, as much of it as the groups use: add / addOnce / remove / removeCallback / notifyObservers. */
export class Observable {
	constructor() { this.observers = []; }
	add(callback, mask = -1, insertFirst = false, scope = null, unregisterOnFirstCall = false) {
		if (!callback) return null;
		const o = { callback, mask, scope, unregisterOnNextCall: unregisterOnFirstCall, _willBeUnregistered: false };
		if (insertFirst) this.observers.unshift(o); else this.observers.push(o);
		return o;
	}
	addOnce(callback) { return this.add(callback, undefined, undefined, undefined, true); }
	remove(observer) {
		const i = this.observers.indexOf(observer);
		if (i < 0) return false;
		this.observers.splice(i, 1);
		return true;
	}
	removeCallback(callback, scope) {
		const o = this.observers.find((x) => x.callback === callback && (!scope || scope === x.scope));
		return o ? this.remove(o) : false;
	}
	notifyObservers(eventData, mask = -1) {
		const state = { skipNextObservers: false, mask, target: undefined, currentTarget: undefined, lastReturnValue: eventData };
		for (const o of [...this.observers]) {
			if (o._willBeUnregistered || !(o.mask & mask)) continue;
			if (o.unregisterOnNextCall) { o._willBeUnregistered = true; this.remove(o); }
			state.lastReturnValue = o.scope ? o.callback.apply(o.scope, [eventData, state]) : o.callback(eventData, state);
			if (state.skipNextObservers) return false;
		}
		return true;
	}
	hasObservers() { return this.observers.length > 0; }
	hasSpecificMask(mask = -1) { return this.observers.some((o) => o.mask & mask || o.mask === mask); }
	clear() { this.observers = []; }
}

// The Animatable a started group runs (one: see above), with its runtime animation's state.
class Animatable {
	constructor(group, fromFrame, toFrame, loop, speedRatio) {
		this._group = group;
		this.fromFrame = fromFrame;
		this.toFrame = toFrame;
		this.loopAnimation = loop;
		this._speedRatio = speedRatio;
		this._weight = -1;
		this._previousWeight = -1;
		this._localDelayOffset = null;
		this._pausedDelay = null;
		this._manualJumpDelay = null;
		this._frameToSyncFromJump = null;
		this._goToFrame = null;
		this._paused = false;
		this.animationStarted = false;
		// RuntimeAnimation
		this._currentFrame = 0;
		this._absoluteFrameOffset = 0;
		this._previousElapsedTime = 0;
		this._previousAbsoluteFrame = 0;
	}
	get masterFrame() { return this._currentFrame; }
	get paused() { return this._paused; }
	get speedRatio() { return this._speedRatio; }
	set speedRatio(value) {
		const fps = this._group._fps;
		const newAbsoluteFrame = (this._previousElapsedTime * (fps * value)) / 1000.0;
		this._absoluteFrameOffset = this._previousAbsoluteFrame - newAbsoluteFrame;
		this._speedRatio = value;
		if (this._goToFrame !== null) this.goToFrame(this._goToFrame);
	}
	get weight() { return this._weight; }
	set weight(value) { this._weight = value === -1 ? -1 : Math.min(Math.max(value, 0), 1.0); }
	pause() { this._paused = true; }
	restart() { this._paused = false; }
	reset() {
		this._group._original(false);
		this._currentFrame = 0;
		this._localDelayOffset = null;
		this._pausedDelay = null;
	}
	goToFrame(frame, useWeight = false) {
		const fps = this._group._fps;
		this._frameToSyncFromJump = this._frameToSyncFromJump ?? this._currentFrame;
		const delay = this.speedRatio === 0 ? 0 : (((frame - this._frameToSyncFromJump) / fps) * 1000) / this.speedRatio;
		this._manualJumpDelay = -delay;
		// RuntimeAnimation.goToFrame: clamped to the keys, evaluated and written at once
		const g = this._group;
		if (frame < g._minFrame) frame = g._minFrame;
		else if (frame > g._maxFrame) frame = g._maxFrame;
		this._currentFrame = frame;
		g._evaluate(frame, true, useWeight ? this._weight : -1);
		this._goToFrame = frame;
	}
	// Animatable._animate: false when the animation ended in this frame (then it is gone)
	_animate(delay) {
		if (this._paused) {
			this.animationStarted = false;
			if (this._pausedDelay === null) this._pausedDelay = delay;
			return true;
		}
		if (this._localDelayOffset === null) {
			this._localDelayOffset = delay;
			this._pausedDelay = null;
		} else if (this._pausedDelay !== null) {
			this._localDelayOffset += delay - this._pausedDelay;
			this._pausedDelay = null;
		}
		if (this._manualJumpDelay !== null) {
			this._localDelayOffset += this.speedRatio < 0 ? -this._manualJumpDelay : this._manualJumpDelay;
			this._manualJumpDelay = null;
			this._frameToSyncFromJump = null;
		}
		this._goToFrame = null;
		if (this._weight === 0 && this._previousWeight === 0) return true; // "actively paused": nothing evaluated
		this._previousWeight = this._weight;
		const running = this._runtime(delay - this._localDelayOffset);
		this.animationStarted = running;
		return running;
	}
	// RuntimeAnimation.animate (CYCLE loop mode, no sync root)
	_runtime(elapsedTimeSinceAnimationStart) {
		const g = this._group, speedRatio = this._speedRatio, loop = this.loopAnimation;
		let from = this.fromFrame, to = this.toFrame;
		if (from < g._minFrame || from > g._maxFrame) from = g._minFrame;
		if (to < g._minFrame || to > g._maxFrame) to = g._maxFrame;
		const frameRange = to - from;
		const absoluteFrame = (elapsedTimeSinceAnimationStart * (g._fps * speedRatio)) / 1000.0 + this._absoluteFrameOffset;
		this._previousElapsedTime = elapsedTimeSinceAnimationStart;
		this._previousAbsoluteFrame = absoluteFrame;
		let returnValue = true;
		if (!loop && to >= from && ((absoluteFrame >= frameRange && speedRatio > 0) || (absoluteFrame <= 0 && speedRatio < 0))) returnValue = false;
		else if (!loop && from >= to && ((absoluteFrame <= frameRange && speedRatio < 0) || (absoluteFrame >= 0 && speedRatio > 0))) returnValue = false;
		let currentFrame;
		if ((absoluteFrame > 0 && from > to) || (absoluteFrame < 0 && from < to)) currentFrame = returnValue && frameRange !== 0 ? to + (absoluteFrame % frameRange) : from;
		else currentFrame = returnValue && frameRange !== 0 ? from + (absoluteFrame % frameRange) : to;
		const looped = (speedRatio > 0 && this._currentFrame > currentFrame) || (speedRatio < 0 && this._currentFrame < currentFrame);
		if (looped) g._loopOne();
		this._currentFrame = currentFrame;
		g._evaluate(currentFrame, false, this._weight);
		return returnValue;
	}
}

/**
 * An AnimationGroup's playback state and controls, as @babylonjs/core 9.x keeps them, for one clip of `to`
 * frames at `fps` frames per second. Advanced by _step(animationTime): the scene's accumulated
 * animation time in ms (a subclass calls it once per scene animation step).
 */
export class BabylonGroupPlayback {
	constructor(name, fps, to) {
		this.name = name;
		this.uniqueId = BabylonGroupPlayback._nextId++;
		this.metadata = null;
		this._fps = fps;
		this._minFrame = 0;
		this._maxFrame = to;
		this._from = 0;
		this._to = to;
		this._speedRatio = 1;
		this._loopAnimation = false;
		this._isAdditive = false;
		this._weight = -1;
		this._playOrder = 0;
		this._enableBlending = null;
		this._blendingSpeed = null;
		this._isStarted = false;
		this._isPaused = false;
		this._isStopping = false;
		this._retainedCurrentFrame = 0;
		this._animatables = [];
		this._mask = null;
		this.onAnimationEndObservable = new Observable();
		this.onAnimationLoopObservable = new Observable();
		this.onAnimationGroupLoopObservable = new Observable();
		this.onAnimationGroupEndObservable = new Observable();
		this.onAnimationGroupPauseObservable = new Observable();
		this.onAnimationGroupPlayObservable = new Observable();
	}
	// --- hooks (subclasses)
	_evaluate() {}
	_targets() { return []; }
	_original() {}

	get from() { return this._from; }
	set from(value) { if (this._from === value) return; this._from = value; for (const a of this._animatables) a.fromFrame = value; }
	get to() { return this._to; }
	set to(value) { if (this._to === value) return; this._to = value; for (const a of this._animatables) a.toFrame = value; }
	get isStarted() { return this._isStarted; }
	get isPlaying() { return this._isStarted && !this._isPaused; }
	get speedRatio() { return this._speedRatio; }
	set speedRatio(value) {
		if (this._speedRatio === value) return;
		if (this._animatables[0]) this._retainedCurrentFrame = this._animatables[0].masterFrame;
		this._speedRatio = value;
		for (const a of this._animatables) a.speedRatio = value;
	}
	get loopAnimation() { return this._loopAnimation; }
	set loopAnimation(value) { if (this._loopAnimation === value) return; this._loopAnimation = value; for (const a of this._animatables) a.loopAnimation = value; }
	get weight() { return this._weight; }
	set weight(value) { if (this._weight === value) return; this._weight = value; this.setWeightForAllAnimatables(value); }
	get isAdditive() { return this._isAdditive; }
	set isAdditive(value) { this._isAdditive = value; }
	get enableBlending() { return this._enableBlending; }
	set enableBlending(value) { this._enableBlending = value; }
	get blendingSpeed() { return this._blendingSpeed; }
	set blendingSpeed(value) { this._blendingSpeed = value; }
	get playOrder() { return this._playOrder; }
	set playOrder(value) { this._playOrder = value; }
	/** The running animatable(s): one, whose masterFrame is the group's frame, while started. */
	get animatables() { return this._animatables; }
	get targetedAnimations() { return this._targets(); }
	get children() { return this._targets(); }
	/** AnimationGroupMask-like ({ retainsTarget(name), disabled }): nodes it does not retain are not written. */
	get mask() { return this._mask; }
	set mask(value) { if (this._mask === value) return; this._mask = value; this.syncWithMask(true); }
	syncWithMask() { return this; }
	removeUnmaskedAnimations() {}

	/** Seconds of `from`..`to` at the group's speed ratio, as AnimationGroup.getLength. */
	getLength(from, to) {
		from = from ?? this._from;
		to = to ?? this._to;
		return (to - from) / (this._fps * this._speedRatio);
	}
	getCurrentFrame() { return this._animatables[0]?.masterFrame || 0; }
	getRetainedCurrentFrame() {
		if (this._animatables[0]) this._retainedCurrentFrame = this._animatables[0].masterFrame;
		return this._retainedCurrentFrame;
	}
	getClassName() { return 'AnimationGroup'; }
	toString(fullDetails) {
		let ret = `Name: ${this.name}, type: ${this.getClassName()}`;
		if (fullDetails) ret += `, from: ${this._from}, to: ${this._to}, isStarted: ${this._isStarted}, speedRatio: ${this._speedRatio}, targetedAnimations length: ${this._targets().length}, animatables length: ${this._animatables.length}`;
		return ret;
	}

	/** As AnimationGroup.start: from/to (frames) default to the group's; the first frame after it shows `from`. */
	start(loop = false, speedRatio = 1, from, to, isAdditive) {
		if (this._isStarted) return this;
		this._loopAnimation = loop;
		let f = from ?? this._from, t = to ?? this._to, s = speedRatio;
		// Scene.beginDirectAnimation
		if (s < 0) { const tmp = f; f = t; t = tmp; s = -s; }
		if (f > t) s = -s;
		this._retainedCurrentFrame = from ?? this._from;
		this._original(true);
		const a = new Animatable(this, f, t, loop, s);
		a.weight = this._weight;
		this._animatables.push(a);
		this._animationLoopCount = 0;
		this._speedRatio = speedRatio;
		this._isStarted = true;
		this._isPaused = false;
		this.onAnimationGroupPlayObservable.notifyObservers(this);
		return this;
	}
	pause() {
		if (!this._isStarted) return this;
		this._isPaused = true;
		for (const a of this._animatables) a.pause();
		this.onAnimationGroupPauseObservable.notifyObservers(this);
		return this;
	}
	/** Resumes a paused group, or (re)starts a stopped one from `from` (AnimationGroup.play). */
	play(loop) {
		if (this.isStarted && this._animatables.length) {
			if (loop !== undefined) this.loopAnimation = loop;
			this.restart();
		} else {
			this.stop();
			this.start(loop, this._speedRatio);
		}
		return this;
	}
	/** Back to `from` (a started group restarts its clock and puts the nodes' values back; a stopped one shows frame 0 once). */
	reset() {
		if (!this._isStarted) {
			this.play();
			this.goToFrame(0);
			this.stop(true);
			return this;
		}
		for (const a of this._animatables) a.reset();
		return this;
	}
	restart() {
		if (!this._isStarted) return this;
		for (const a of this._animatables) a.restart();
		this._isPaused = false;
		this.onAnimationGroupPlayObservable.notifyObservers(this);
		return this;
	}
	/** Ends playback (the nodes keep their values); notifies the end observables unless skipOnAnimationEnd. */
	stop(skipOnAnimationEnd = false) {
		if (!this._isStarted) return this;
		if (this._animatables[0]) this._retainedCurrentFrame = this._animatables[0].masterFrame;
		this._isStopping = true;
		for (const a of this._animatables.slice()) this._ended(a, skipOnAnimationEnd);
		this._isStarted = false;
		this._isStopping = false;
		return this;
	}
	setWeightForAllAnimatables(weight) { for (const a of this._animatables) a.weight = weight; return this; }
	/** Jumps to `frame` (written at once) when started, as AnimationGroup.goToFrame; playback continues from it. */
	goToFrame(frame, useWeight = false) {
		if (!this._isStarted) return this;
		for (const a of this._animatables) a.goToFrame(frame, useWeight);
		return this;
	}
	dispose() {
		if (this.isStarted) this.stop();
		this._animatables.length = 0;
		for (const o of [this.onAnimationEndObservable, this.onAnimationGroupEndObservable, this.onAnimationGroupPauseObservable,
			this.onAnimationGroupPlayObservable, this.onAnimationLoopObservable, this.onAnimationGroupLoopObservable]) o.clear();
	}

	// One scene animation step at accumulated animation time `delay` (ms).
	_step(delay) {
		for (const a of this._animatables.slice()) {
			if (!a._animate(delay)) {
				// Animatable._animate at the end: removed, onAnimationEnd (per targeted animation, then the group's end)
				this._ended(a, false);
			}
		}
	}
	// Every targeted animation looped in this frame (they share the frame): the per-animation loop
	// observable once each, then the group's.
	_loopOne() {
		for (const t of this._targets()) this.onAnimationLoopObservable.notifyObservers(t);
		this.onAnimationGroupLoopObservable.notifyObservers(this);
	}
	// An animatable ended (naturally or stopped): the per-animation end observable for each targeted
	// animation, then, as _checkAnimationGroupEnded does once the last is gone, the group's end.
	_ended(a, skipOnAnimationEnd) {
		const i = this._animatables.indexOf(a);
		if (i < 0) return;
		this._animatables.splice(i, 1);
		if (!skipOnAnimationEnd) for (const t of this._targets()) this.onAnimationEndObservable.notifyObservers(t);
		if (!skipOnAnimationEnd && !this._isStopping) this._retainedCurrentFrame = a.masterFrame;
		if (this._animatables.length === 0) {
			this._isStarted = false;
			if (!skipOnAnimationEnd) this.onAnimationGroupEndObservable.notifyObservers(this);
		}
	}
}
BabylonGroupPlayback._nextId = 1;

/** Accumulates a Babylon scene's animation time (ms) as Scene._animate does, and steps its groups after each step. */
export function babylonSceneClock(scene, step) {
	let time = 0;
	// after Babylon's own step: scene.deltaTime is the step it took (16 ms with useConstantAnimationDeltaTime,
	// the clock times animationTimeScale otherwise, or the lock-step duration)
	return scene.onAfterAnimationsObservable.add(() => {
		if (!scene.animationsEnabled) return;
		time += scene.deltaTime;
		step(time);
	}, undefined, true);
}
