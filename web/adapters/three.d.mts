// sinew — see include/sinew.h for version and licence
// Types of web/adapters/three.mjs. three.js objects are typed structurally (no dependency on
// three's own types): anything with position/quaternion/scale `set` methods works.
import type { ClipInfo, SinewAnimation } from '../sinew.mjs';

export interface Settable3 { set(x: number, y: number, z: number): unknown }
export interface Settable4 { set(x: number, y: number, z: number, w: number): unknown }
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
	clip?: number;
	/** Start time in seconds (default 0). */
	time?: number;
	timeScale?: number;
	/** true (default): wrap at the end; false: clamp. */
	loop?: boolean;
	/** Start playing (default true). */
	play?: boolean;
	/** glTF node index -> object; default: gltf.parser.associations. */
	nodes?: NodeLookup;
	associations?: Map<unknown, { nodes?: number }>;
}

export declare class SinewMixer {
	/** root: the GLTFLoader result ({ scene, parser }) or a scene with options.nodes. */
	constructor(root: object, anim: SinewAnimation, options?: SinewMixerOptions);
	readonly anim: SinewAnimation;
	readonly clipIndex: number;
	readonly info: ClipInfo;
	time: number;
	timeScale: number;
	loop: boolean;
	playing: boolean;
	/** 0 leaves the objects alone, 1 drives them; anything else throws RangeError. */
	weight: number;
	/** Per joint of the clip: the object it drives, or null. */
	readonly targets: ReadonlyArray<SinewTarget3 | null>;
	/** glTF node indices of the clip that were not found. */
	readonly missing: readonly number[];
	readonly duration: number;
	play(): this;
	pause(): this;
	/** Time 0, written once, not playing. */
	stop(): this;
	setTime(t: number): this;
	/** Advances by dt * timeScale when playing; writes the pose when the time moved (one wasm call). */
	update(dt: number): this;
	apply(): void;
	/** The next write sets every mapped output again (after other code changed the nodes). */
	invalidate(): this;
}
export default SinewMixer;
