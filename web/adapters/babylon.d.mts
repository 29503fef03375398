// sinew — see include/sinew.h for version and licence
// Types of web/adapters/babylon.mjs. Babylon.js objects are typed structurally (no dependency on
// @babylonjs/core's types).
import type { ClipInfo, SinewAnimation } from '../sinew.mjs';

export interface SinewBabylonNode {
	position: { set(x: number, y: number, z: number): unknown };
	scaling: { set(x: number, y: number, z: number): unknown };
	rotationQuaternion: { set(x: number, y: number, z: number, w: number): unknown } | null;
	rotation?: { toQuaternion(): unknown };
	_internalMetadata?: unknown;
	metadata?: unknown;
}
export interface SinewBabylonScene {
	onBeforeAnimationsObservable: { add(callback: () => void): unknown; remove(observer: unknown): unknown };
	animationsEnabled: boolean;
	useConstantAnimationDeltaTime: boolean;
	animationTimeScale?: number;
	getEngine(): { getDeltaTime(): number };
}

export interface SinewAnimationGroupOptions {
	clip?: number;
	/** Advance with this scene (onBeforeAnimationsObservable); without it call update(dt) yourself. */
	scene?: SinewBabylonScene;
	/** Frames per second of goToFrame/from/to (default 60, the glTF loader's targetFps). */
	fps?: number;
	name?: string;
}

/** glTF node index -> Babylon node, from the loader's `/nodes/<i>` pointers. */
export declare function gltfNodeMap(nodes: Iterable<object>): Map<number, SinewBabylonNode>;

export declare class SinewAnimationGroup {
	/** nodes: the loaded nodes (scanned for pointers), or a Map / function from glTF node index to node. */
	constructor(anim: SinewAnimation,
		nodes: Iterable<object> | ReadonlyMap<number, SinewBabylonNode> | ((gltfNodeIndex: number) => SinewBabylonNode | null | undefined),
		options?: SinewAnimationGroupOptions);
	readonly anim: SinewAnimation;
	readonly clipIndex: number;
	readonly info: ClipInfo;
	name: string | null;
	fps: number;
	speedRatio: number;
	/** 0 leaves the nodes alone, 1 (or -1) drives them; anything else throws RangeError. */
	weight: number;
	loopAnimation: boolean;
	isPlaying: boolean;
	isStarted: boolean;
	/** Seconds. */
	time: number;
	readonly targets: ReadonlyArray<SinewBabylonNode | null>;
	readonly missing: readonly number[];
	readonly from: number;
	readonly to: number;
	getCurrentFrame(): number;
	play(loop?: boolean): this;
	start(loop?: boolean, speedRatio?: number): this;
	pause(): this;
	/** Back to frame 0, written once, then idle. */
	stop(): this;
	goToFrame(frame: number): this;
	/** Advances by dt * speedRatio seconds when playing; writes the pose when the time moved (one wasm call). */
	update(dt: number): this;
	apply(): void;
	/** The next write sets every mapped output again (after other code changed the nodes). */
	invalidate(): this;
	dispose(): void;
}
export default SinewAnimationGroup;
