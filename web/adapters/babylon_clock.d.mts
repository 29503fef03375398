// sinew — see include/sinew.h for version and licence
// Types of web/adapters/babylon_clock.mjs: what both Babylon.js adapters share (an AnimationGroup's time
// keeping ported from @babylonjs/core 9.x, its Observable, the error of members a sinew group cannot honour).

/** Thrown by a member of an engine's API that a sinew adapter cannot honour (curve editing: the keys are compressed). */
export declare class SinewUnsupportedError extends Error {
	readonly name: 'SinewUnsupportedError';
	/** The member, e.g. 'AnimationGroup.addTargetedAnimation'. */
	readonly member: string;
}

export interface ObserverState { skipNextObservers: boolean; mask: number; lastReturnValue: unknown }
export interface Observer<T> { callback: (eventData: T, state: ObserverState) => void; mask: number; scope: unknown }
/** Babylon's Observable, as much of it as the groups use. */
export declare class Observable<T> {
	readonly observers: Observer<T>[];
	add(callback: (eventData: T, state: ObserverState) => void, mask?: number, insertFirst?: boolean, scope?: unknown, unregisterOnFirstCall?: boolean): Observer<T> | null;
	addOnce(callback: (eventData: T, state: ObserverState) => void): Observer<T> | null;
	remove(observer: Observer<T> | null): boolean;
	removeCallback(callback: (eventData: T, state: ObserverState) => void, scope?: unknown): boolean;
	notifyObservers(eventData: T, mask?: number): boolean;
	hasObservers(): boolean;
	hasSpecificMask(mask?: number): boolean;
	clear(): void;
}

/** A TargetedAnimation as a sinew group lists it: the node (or morph target) and the animated property. */
export interface SinewTargetedAnimation {
	target: { name?: string };
	animation: { name: string; targetProperty: 'position' | 'rotationQuaternion' | 'scaling' | 'influence'; framePerSecond: number; getKeys(): never };
	parent: object;
}
/** What `mask` takes: Babylon's AnimationGroupMask or anything with retainsTarget (targets by name). */
export interface AnimationGroupMaskLike { retainsTarget(name: string): boolean; disabled?: boolean }

/** An AnimationGroup's playback state and controls, frame for frame as @babylonjs/core 9.x keeps them. */
export declare class BabylonGroupPlayback {
	name: string | null;
	readonly uniqueId: number;
	metadata: unknown;
	/** First and last frame played (default 0 and the clip's last key). */
	from: number;
	to: number;
	readonly isStarted: boolean;
	readonly isPlaying: boolean;
	speedRatio: number;
	loopAnimation: boolean;
	/** -1 (default: not blended) or 0..1. */
	weight: number;
	playOrder: number;
	enableBlending: boolean | null;
	blendingSpeed: number | null;
	isAdditive: boolean;
	/** The running animatable while started: its masterFrame is the group's frame. */
	readonly animatables: readonly { readonly masterFrame: number; readonly paused: boolean }[];
	readonly targetedAnimations: readonly SinewTargetedAnimation[];
	readonly children: readonly SinewTargetedAnimation[];
	mask: AnimationGroupMaskLike | null;
	readonly onAnimationEndObservable: Observable<SinewTargetedAnimation>;
	readonly onAnimationLoopObservable: Observable<SinewTargetedAnimation>;
	readonly onAnimationGroupEndObservable: Observable<BabylonGroupPlayback>;
	readonly onAnimationGroupLoopObservable: Observable<BabylonGroupPlayback>;
	readonly onAnimationGroupPauseObservable: Observable<BabylonGroupPlayback>;
	readonly onAnimationGroupPlayObservable: Observable<BabylonGroupPlayback>;
	syncWithMask(forceUpdate?: boolean): this;
	removeUnmaskedAnimations(): void;
	/** Seconds of from..to at the speed ratio (AnimationGroup.getLength). */
	getLength(from?: number, to?: number): number;
	getCurrentFrame(): number;
	getRetainedCurrentFrame(): number;
	getClassName(): string;
	toString(fullDetails?: boolean): string;
	/** The first frame after it shows `from`, as Babylon's. */
	start(loop?: boolean, speedRatio?: number, from?: number, to?: number, isAdditive?: boolean): this;
	pause(): this;
	/** Resumes a paused group, or starts a stopped one from `from`. */
	play(loop?: boolean): this;
	reset(): this;
	restart(): this;
	/** Ends playback; the end observables unless skipOnAnimationEnd. */
	stop(skipOnAnimationEnd?: boolean): this;
	setWeightForAllAnimatables(weight: number): this;
	/** Written at once on a started group (a stopped one ignores it, as Babylon's); playback continues from it. */
	goToFrame(frame: number, useWeight?: boolean): this;
	dispose(): void;
}

export interface SinewBabylonAnimationScene {
	onAfterAnimationsObservable: { add(callback: () => void, mask?: number, insertFirst?: boolean): unknown; remove(observer: unknown): unknown };
	animationsEnabled: boolean;
	/** The step Babylon's last animation step took (ms). */
	deltaTime: number;
}
/** Calls step(ms) after each of the scene's animation steps with its accumulated animation time; returns the observer. */
export declare function babylonSceneClock(scene: SinewBabylonAnimationScene, step: (ms: number) => void): unknown;
