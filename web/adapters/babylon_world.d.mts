// sinew — see include/sinew.h for version and licence
// Types of web/adapters/babylon_world.mjs. Babylon.js objects are typed structurally.
import type { SinewWorld, WorldBlob, WorldClip, WorldOptions, WorldPlayer, LoadWorldBlobOptions } from '../world.mjs';
import type { SinewBabylonNode, SinewBabylonScene } from './babylon.mjs';
import { Observable } from './world_binding.mjs';

export declare class SinewWorldAnimationGroup {
	readonly character: SinewWorldCharacter;
	readonly clip: WorldClip;
	name: string | null;
	fps: number;
	/** 0..1, or -1 (not blended: counts as 1). */
	weight: number;
	enableBlending: boolean;
	/** Weight per frame of the enableBlending ramp (default 0.01). */
	blendingSpeed: number;
	speedRatio: number;
	/** Frames of the played range. */
	from: number;
	to: number;
	loopAnimation: boolean;
	isStarted: boolean;
	readonly isPlaying: boolean;
	readonly onAnimationGroupLoopObservable: Observable<SinewWorldAnimationGroup>;
	readonly onAnimationGroupEndObservable: Observable<SinewWorldAnimationGroup>;
	readonly onAnimationGroupPlayObservable: Observable<SinewWorldAnimationGroup>;
	readonly onAnimationGroupPauseObservable: Observable<SinewWorldAnimationGroup>;
	setWeightForAllAnimatables(weight: number): this;
	getCurrentFrame(): number;
	start(loop?: boolean, speedRatio?: number, from?: number, to?: number): this;
	play(loop?: boolean): this;
	pause(): this;
	stop(skipOnAnimationEnd?: boolean): this;
	reset(): this;
	goToFrame(frame: number): this;
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
	/** One wasm call for the whole scene (the scene calls it on onBeforeAnimationsObservable). */
	update(dt: number): this;
	dispose(): void;
}
export default SinewWorldScene;
