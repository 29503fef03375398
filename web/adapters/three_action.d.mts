// sinew — see include/sinew.h for version and licence
// Types of web/adapters/three_action.mjs: three's AnimationAction as both three.js adapters play it.

export declare const LoopOnce: 2200, LoopRepeat: 2201, LoopPingPong: 2202;
export declare const NormalAnimationBlendMode: 2500, AdditiveAnimationBlendMode: 2501;

/** One clip on a mixer, as THREE.AnimationAction (time, weight, fades, warps and loops ported from three r187). */
export declare class SinewAction {
	play(): this;
	/** Deactivates and resets; three puts the properties' original values back when no playing action uses them. */
	stop(): this;
	reset(): this;
	isRunning(): boolean;
	isScheduled(): boolean;
	/** Starts at mixer time `time` (the action waits until then). */
	startAt(time: number): this;
	loop: number;
	repetitions: number;
	setLoop(mode: number, repetitions?: number): this;
	clampWhenFinished: boolean;
	zeroSlopeAtStart: boolean;
	zeroSlopeAtEnd: boolean;
	blendMode: number;
	/** The action's own weight (fades multiply it). */
	weight: number;
	enabled: boolean;
	paused: boolean;
	/** Local time in seconds. */
	time: number;
	timeScale: number;
	setEffectiveWeight(weight: number): this;
	getEffectiveWeight(): number;
	fadeIn(duration: number): this;
	fadeOut(duration: number): this;
	crossFadeFrom(fadeOutAction: SinewAction, duration: number, warp?: boolean): this;
	crossFadeTo(fadeInAction: SinewAction, duration: number, warp?: boolean): this;
	stopFading(): this;
	setEffectiveTimeScale(timeScale: number): this;
	getEffectiveTimeScale(): number;
	setDuration(duration: number): this;
	syncWith(action: SinewAction): this;
	/** Ramps the time scale to 0 over `duration` seconds, then pauses. */
	halt(duration: number): this;
	/** Time scale ramp from startTimeScale to endTimeScale over `duration` seconds of mixer time. */
	warp(startTimeScale: number, endTimeScale: number, duration: number): this;
	stopWarping(): this;
	getMixer(): object;
	getClip(): object;
	getRoot(): object;
}
