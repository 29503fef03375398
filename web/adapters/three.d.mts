// sinew — see include/sinew.h for version and licence
// Types of web/adapters/three.mjs. three.js objects are typed structurally (no dependency on
// three's own types): anything with position/quaternion/scale `set` methods works.
import type { ClipInfo, SinewAnimation } from '../sinew.mjs';
import { SinewAction } from './three_action.mjs';

export { SinewAction, LoopOnce, LoopRepeat, LoopPingPong, NormalAnimationBlendMode, AdditiveAnimationBlendMode } from './three_action.mjs';
export { SinewUnsupportedError } from './babylon_clock.mjs';

export interface Settable3 { x: number; y: number; z: number; set(x: number, y: number, z: number): unknown }
export interface Settable4 { x: number; y: number; z: number; w: number; set(x: number, y: number, z: number, w: number): unknown }
/** An Object3D as far as the adapter is concerned. */
export interface SinewTarget3 {
	position: Settable3;
	quaternion: Settable4;
	scale: Settable3;
	morphTargetInfluences?: number[];
	children?: readonly unknown[];
}
export type NodeLookup = ((gltfNodeIndex: number) => SinewTarget3 | null | undefined)
	| ReadonlyArray<SinewTarget3 | null | undefined> | ReadonlyMap<number, SinewTarget3>;

export interface SinewMixerOptions {
	/** A clip (index or name) whose action plays at once. */
	clip?: number | string;
	/** glTF node index -> object; default: gltf.parser.associations. */
	nodes?: NodeLookup;
	associations?: Map<unknown, { nodes?: number }>;
	/** The glTF JSON (default gltf.parser.json): each clip binds exactly its animation's channels, and loops at its last key. */
	json?: any;
	/** Default true: Object3D.rotation of the written nodes is computed when read (exactly as three would have stored it); false: at each write. */
	lazyRotation?: boolean;
}

/** The clip an action plays: the blob's clip and its duration as three takes it (the last key time, float32). */
export interface SinewClip { index: number; name: string | null; duration: number; info: ClipInfo }

/** THREE.AnimationMixer for one root, playing the clips of one sinew animation. */
export declare class SinewMixer {
	/** root: the GLTFLoader result ({ scene, parser }) or a scene with options.nodes. */
	constructor(root: object, anim: SinewAnimation, options?: SinewMixerOptions);
	readonly anim: SinewAnimation;
	/** The mixer's clock (seconds). */
	time: number;
	timeScale: number;
	getRoot(): object;
	/** The action of a clip (index or name), created on first use. */
	clipAction(clip: number | string | SinewClip, optionalRoot?: object, blendMode?: number): SinewAction;
	existingAction(clip: number | string | SinewClip): SinewAction | null;
	stopAllAction(): this;
	uncacheClip(clip: number | string | SinewClip): void;
	uncacheAction(clip: number | string | SinewClip): void;
	uncacheRoot(root?: object): void;
	/** Advances every playing action by dt * timeScale seconds and writes the blended pose (one wasm call per contributing action). */
	update(dt: number): this;
	/** three's setTime: the mixer and every action back to 0, then update(t). */
	setTime(t: number): this;
	/** The next update writes every bound property again (after other code changed the nodes). */
	invalidate(): this;
	/** Per joint of a clip: the object it drives, or null. */
	targetsOf(clip: number | string): ReadonlyArray<SinewTarget3 | null>;
	/** glTF node indices of a clip that were not found. */
	missingOf(clip: number | string): number[];
	addEventListener(type: 'loop' | 'finished', listener: (event: { type: string; action: SinewAction; loopDelta?: number; direction?: number }) => void): void;
	removeEventListener(type: string, listener: (event: any) => void): void;
	hasEventListener(type: string, listener: (event: any) => void): boolean;
	dispatchEvent(event: { type: string; [key: string]: unknown }): void;
}
export default SinewMixer;
