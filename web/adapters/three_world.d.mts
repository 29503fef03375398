// sinew — see include/sinew.h for version and licence
// Types of web/adapters/three_world.mjs. three.js objects are typed structurally.
import type { SinewWorld, WorldBlob, WorldClip, WorldOptions, WorldPlayer, LoadWorldBlobOptions } from '../world.mjs';
import type { NodeLookup } from './three.mjs';
import { Events } from './world_binding.mjs';

export declare const LoopOnce: 2200, LoopRepeat: 2201, LoopPingPong: 2202;
export declare const NormalAnimationBlendMode: 2500, AdditiveAnimationBlendMode: 2501;

export declare class SinewAction {
	getClip(): WorldClip;
	getMixer(): SinewCharacterMixer;
	getRoot(): object;
	play(): this;
	stop(): this;
	reset(): this;
	isRunning(): boolean;
	isScheduled(): boolean;
	/** The action's own weight (fades multiply it). */
	weight: number;
	enabled: boolean;
	paused: boolean;
	time: number;
	timeScale: number;
	loop: number;
	repetitions: number;
	clampWhenFinished: boolean;
	blendMode: number;
	setEffectiveTimeScale(timeScale: number): this;
	getEffectiveTimeScale(): number;
	setLoop(mode: number, repetitions?: number): this;
	setEffectiveWeight(weight: number): this;
	getEffectiveWeight(): number;
	fadeIn(duration: number): this;
	fadeOut(duration: number): this;
	crossFadeFrom(fadeOutAction: SinewAction, duration: number, warp?: boolean): this;
	crossFadeTo(fadeInAction: SinewAction, duration: number, warp?: boolean): this;
	stopFading(): this;
	/** Time scale ramp from startTimeScale to endTimeScale over `duration` seconds (three's warp). */
	warp(startTimeScale: number, endTimeScale: number, duration: number): this;
	stopWarping(): this;
}

export interface SinewCharacterOptions {
	/** glTF node index -> object (default: gltf.parser.associations). */
	nodes?: NodeLookup;
	associations?: Map<unknown, { nodes?: number }>;
	/** Layers (maximum number of actions; default the clips of the blobs, at least 2). */
	layers?: number;
	/** glTF JSON for the participation of each clip when root has no parser. */
	json?: any;
	/** false: blend the sub-tracks the blob sets rather than the glTF's channels. */
	gltfParticipation?: boolean;
	/** Matrix mode (default: the scene mixer's `matrices`): joints' matrixWorld and skinning matrices computed in the world call. */
	matrices?: boolean;
}

export declare class SinewCharacterMixer extends Events {
	readonly blobs: readonly WorldBlob[];
	readonly player: WorldPlayer;
	timeScale: number;
	/** An action of a clip (WorldClip, name, or index over the character's blobs). */
	clipAction(clip: WorldClip | string | number): SinewAction;
	existingAction(clip: WorldClip | string | number): SinewAction | null;
	stopAllAction(): this;
	/** The next frame writes every node again (after other code moved them). */
	invalidate(): this;
}

export interface SinewSceneMixerOptions {
	/** Default true; false writes quaternions without updating Object3D.rotation (faster, Euler angles stale). */
	syncRotation?: boolean;
	/** Default false: every character in matrix mode (see SinewCharacterOptions.matrices). */
	matrices?: boolean;
}
export declare class SinewSceneMixer {
	constructor(world: SinewWorld, options?: SinewSceneMixerOptions);
	static create(options?: WorldOptions & SinewSceneMixerOptions): Promise<SinewSceneMixer>;
	syncRotation: boolean;
	matrices: boolean;
	readonly world: SinewWorld;
	readonly characters: SinewCharacterMixer[];
	time: number;
	load(bytes: ArrayBuffer | ArrayBufferView, options?: LoadWorldBlobOptions): WorldBlob;
	/** root: a GLTFLoader result, or an Object3D with options.nodes. */
	add(root: object, blobs: WorldBlob | readonly WorldBlob[], options?: SinewCharacterOptions): SinewCharacterMixer;
	/** One wasm call for the whole scene, then every character's nodes and events. */
	update(dt: number): this;
}
export default SinewSceneMixer;
