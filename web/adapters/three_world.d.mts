// sinew — see include/sinew.h for version and licence
// Types of web/adapters/three_world.mjs. three.js objects are typed structurally.
import type { SinewWorld, WorldBlob, WorldClip, WorldOptions, WorldPlayer, LoadWorldBlobOptions } from '../world.mjs';
import type { NodeLookup } from './three.mjs';
import { Events } from './world_binding.mjs';
import { SinewAction as ThreeAction } from './three_action.mjs';

export { LoopOnce, LoopRepeat, LoopPingPong, NormalAnimationBlendMode, AdditiveAnimationBlendMode } from './three_action.mjs';

/** One clip on one character, as THREE.AnimationAction (three's own time, weight and loop logic); owns a world layer. */
export declare class SinewAction extends ThreeAction {
	getClip(): WorldClip;
	getMixer(): SinewCharacterMixer;
	/** AdditiveAnimationBlendMode: additive against the clip's first sample (as a clip made by AnimationUtils.makeClipAdditive). */
	blendMode: number;
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
	/** The character's mixer clock (seconds) and time scale, as AnimationMixer.time / timeScale. */
	time: number;
	timeScale: number;
	/** An action of a clip (WorldClip, name, or index over the character's blobs). */
	clipAction(clip: WorldClip | string | number): SinewAction;
	existingAction(clip: WorldClip | string | number): SinewAction | null;
	stopAllAction(): this;
	/** The next frame writes every node again (after other code moved them). */
	invalidate(): this;
}

export interface SinewSceneMixerOptions {
	/**
	 * How Object3D.rotation follows the written quaternions: 'lazy' (default) computed when read, exactly as
	 * three would have stored it at the write; true at each write, as quaternion.set does; false never (stale).
	 */
	syncRotation?: boolean | 'lazy';
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
	/** One frame: advance(dt), then every character's nodes. */
	update(dt: number): this;
	/** Every character's actions advanced (times, weights, events), then the one wasm call that blends them; no node writes. */
	advance(dt: number): this;
}
export default SinewSceneMixer;
