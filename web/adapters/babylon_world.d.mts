// sinew — see include/sinew.h for version and licence
// Types of web/adapters/babylon_world.mjs. Babylon.js objects are typed structurally.
import type { SinewWorld, WorldBlob, WorldClip, WorldOptions, WorldPlayer, LoadWorldBlobOptions } from '../world.mjs';
import type { SinewBabylonNode, SinewBabylonScene } from './babylon.mjs';
import { BabylonGroupPlayback } from './babylon_clock.mjs';

export { SinewUnsupportedError, Observable } from './babylon_clock.mjs';

/**
 * One clip of one character, controlled like a Babylon AnimationGroup, frame for frame as Babylon's own
 * (BabylonGroupPlayback); owns one world layer.
 */
export declare class SinewWorldAnimationGroup extends BabylonGroupPlayback {
	readonly character: SinewWorldCharacter;
	readonly clip: WorldClip;
	readonly fps: number;
	/** The shown frame in seconds. */
	readonly time: number;
	getScene(): SinewBabylonScene | null;
	/** Curve editing and the rest Babylon has that a world layer cannot do: SinewUnsupportedError. */
	addTargetedAnimation(animation: unknown, target: unknown): never;
	removeTargetedAnimation(animation: unknown): never;
	normalize(beginFrame?: number | null, endFrame?: number | null): never;
	serialize(): never;
	clone(newName?: string): never;
	syncAllAnimationsWith(root: unknown): never;
	startWithVirtualTimeline(loop?: boolean, speedRatio?: number, from?: number, to?: number): never;
	getVirtualCurrentFrame(): never;
	isVirtualFrameReached(frame: number): never;
	isValidVirtualStopFrame(frame: number): never;
	setVirtualCurrentFrame(frame: number): never;
}

export interface SinewWorldCharacterOptions {
	/** glTF JSON: blend exactly the channels of its animations. */
	json?: any;
	gltfParticipation?: boolean;
	layers?: number;
	/** Frames per second of from/to/goToFrame (default 60, the loader's targetFps). */
	fps?: number;
}

export declare class SinewWorldCharacter {
	readonly blobs: readonly WorldBlob[];
	readonly player: WorldPlayer;
	readonly animationGroups: readonly SinewWorldAnimationGroup[];
	group(key: number | string): SinewWorldAnimationGroup;
	/** The next frame writes every node again (after other code moved them). */
	invalidate(): this;
}

export declare class SinewWorldScene {
	constructor(world: SinewWorld, scene?: SinewBabylonScene | null);
	static create(scene: SinewBabylonScene | null, options?: WorldOptions): Promise<SinewWorldScene>;
	readonly world: SinewWorld;
	readonly characters: SinewWorldCharacter[];
	load(bytes: ArrayBuffer | ArrayBufferView, options?: LoadWorldBlobOptions): WorldBlob;
	add(nodes: Iterable<object> | ReadonlyMap<number, SinewBabylonNode> | ((gltfNodeIndex: number) => SinewBabylonNode | null | undefined),
		blobs: WorldBlob | readonly WorldBlob[], options?: SinewWorldCharacterOptions): SinewWorldCharacter;
	/** Advances every character by dt seconds of animation time (without a scene; with one, every animation step of the scene does this): every group's frame, ONE wasm call, the node writes. */
	update(dt: number): this;
	dispose(): void;
}
export default SinewWorldScene;
