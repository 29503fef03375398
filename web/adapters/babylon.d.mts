// sinew — see include/sinew.h for version and licence
// Types of web/adapters/babylon.mjs. Babylon.js objects are typed structurally (no dependency on
// @babylonjs/core's types).
import type { ClipInfo, SinewAnimation } from '../sinew.mjs';
import { BabylonGroupPlayback } from './babylon_clock.mjs';
import type { SinewBabylonAnimationScene } from './babylon_clock.mjs';

export { SinewUnsupportedError, Observable, BabylonGroupPlayback } from './babylon_clock.mjs';
export type { SinewTargetedAnimation, AnimationGroupMaskLike, SinewBabylonAnimationScene } from './babylon_clock.mjs';

export interface SinewBabylonNode {
	name?: string;
	position: { x: number; y: number; z: number; set(x: number, y: number, z: number): unknown };
	scaling: { x: number; y: number; z: number; set(x: number, y: number, z: number): unknown };
	rotationQuaternion: { x: number; y: number; z: number; w: number; set(x: number, y: number, z: number, w: number): unknown } | null;
	rotation?: { toQuaternion(): unknown };
	_internalMetadata?: unknown;
	metadata?: unknown;
}
/** A Babylon scene as the adapters use it (advanced on onAfterAnimationsObservable by scene.deltaTime). */
export type SinewBabylonScene = SinewBabylonAnimationScene;

export interface SinewAnimationGroupOptions {
	clip?: number;
	/** Advance with this scene; without it call update(dt) yourself. */
	scene?: SinewBabylonScene;
	/** Frames per second of goToFrame/from/to (default 60, the glTF loader's targetFps). */
	fps?: number;
	/** The last frame (default: the clip's last key time times fps, as the loader's group.to). */
	to?: number;
	name?: string;
	/** The glTF JSON: targetedAnimations are then exactly its channels, and `to` its last key. */
	json?: any;
}

/** glTF node index -> Babylon node, from the loader's `/nodes/<i>` pointers. */
export declare function gltfNodeMap(nodes: Iterable<object>): Map<number, SinewBabylonNode>;

/** A Babylon AnimationGroup playing a sinew clip on the loader's nodes, frame for frame as Babylon's own. */
export declare class SinewAnimationGroup extends BabylonGroupPlayback {
	/** nodes: the loaded nodes (scanned for pointers), or a Map / function from glTF node index to node. */
	constructor(anim: SinewAnimation,
		nodes: Iterable<object> | ReadonlyMap<number, SinewBabylonNode> | ((gltfNodeIndex: number) => SinewBabylonNode | null | undefined),
		options?: SinewAnimationGroupOptions);
	readonly anim: SinewAnimation;
	readonly clipIndex: number;
	readonly info: ClipInfo;
	readonly fps: number;
	readonly scene: SinewBabylonScene | null;
	/** The shown frame in seconds. */
	readonly time: number;
	/** Per joint of the clip: the node it drives, or null. */
	readonly targets: ReadonlyArray<SinewBabylonNode | null>;
	/** glTF node indices of the clip that were not found. */
	readonly missing: readonly number[];
	getScene(): SinewBabylonScene | null;
	/** Advances by dt seconds of animation time (without a scene). */
	update(dt: number): this;
	/** The next write sets every mapped output again (after other code changed the nodes). */
	invalidate(): this;
	/** A group on the same animation and (converted) nodes; cloneAnimations throws SinewUnsupportedError. */
	clone(newName?: string, targetConverter?: (node: SinewBabylonNode) => SinewBabylonNode, cloneAnimations?: boolean): SinewAnimationGroup;
	/** Curve editing: SinewUnsupportedError. */
	addTargetedAnimation(animation: unknown, target: unknown): never;
	removeTargetedAnimation(animation: unknown): never;
	normalize(beginFrame?: number | null, endFrame?: number | null): never;
	serialize(): never;
	syncAllAnimationsWith(root: unknown): never;
	startWithVirtualTimeline(loop?: boolean, speedRatio?: number, from?: number, to?: number): never;
	getVirtualCurrentFrame(): never;
	isVirtualFrameReached(frame: number): never;
	isValidVirtualStopFrame(frame: number): never;
	setVirtualCurrentFrame(frame: number): never;
}
export default SinewAnimationGroup;
