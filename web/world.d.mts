// sinew — see include/sinew.h for version and licence
// Types of web/world.mjs (the world runtime: many blobs and players in one wasm instance).
import type { JointInfo, ScalarInfo, ScalarTrackLayout } from './sinew.mjs';
import type { SinewRig } from './rig.mjs';

/** Bits of WorldLayer.events (the last update()). */
export declare const LayerEvent: { readonly LOOP: 1; readonly FINISHED: 2; readonly FADED_OUT: 4; readonly FADE_DONE: 8; readonly WARP_DONE: 16 };

export type LoopMode = 'once' | 'repeat' | 'pingpong';
/** false: a base layer; 'first': additive against the clip's first sample; 'bind': against the player's rest pose. */
export type AdditiveMode = false | 'first' | 'bind';

export declare class WorldClip {
	readonly world: SinewWorld;
	readonly blob: WorldBlob;
	readonly index: number;
	/** Address of the clip record in world memory. */
	readonly ptr: number;
	readonly name: string | null;
	readonly sampleRate: number;
	readonly sampleCount: number;
	readonly duration: number;
	readonly unitScale: number;
	readonly jointCount: number;
	readonly scalarTrackCount: number;
	readonly scalarFloats: number;
	readonly scalarTracks: readonly ScalarTrackLayout[];
	readonly segmentCount: number;
	readonly looping: boolean;
	readonly hasMetadata: boolean;
	readonly size: number;
	readonly kernel: string | null;
	/** Built from the rig on first read (one array for every clip of the blob); null without metadata (--strip). */
	readonly joints: readonly JointInfo[] | null;
	readonly scalars: readonly ScalarInfo[] | null;
	/** The blob's rig (web/rig.mjs), read from its bytes in world memory. */
	readonly rig: SinewRig;
	/** Per joint bit 0 rotation, 1 translation, 2 scale, then per scalar float: the sub-tracks the clip blends (writable view). */
	readonly participation: Uint8Array;
	firstSample(): Float32Array;
	restPose(): Float32Array;
}

export declare class WorldBlob {
	readonly world: SinewWorld;
	readonly index: number;
	/** The load option (random-access contexts). */
	readonly randomAccess: boolean;
	/** The rig (web/rig.mjs), read from the blob's bytes in world memory. */
	readonly rig: SinewRig;
	readonly clips: readonly WorldClip[];
	readonly clipCount: number;
	/** Address of the blob's bytes in world memory. */
	readonly bytes: number;
	/** A clip by index or name. */
	clip(key?: number | string): WorldClip;
}

export interface LayerPlayOptions {
	time?: number;
	speed?: number;
	weight?: number;
	loop?: LoopMode;
	additive?: AdditiveMode;
	mask?: Float32Array | readonly number[] | null;
	/** [from, to] seconds of the clip; null for all of it. */
	range?: readonly [number, number] | null;
	stopAtEnd?: boolean;
	restart?: boolean;
	/** clip joint -> player joint (0xFFFFFFFF skips; no player joint twice, else RangeError); default: by glTF node
	 * when the player has nodes, else identity. */
	jointMap?: ArrayLike<number>;
	/** clip scalar float -> player scalar float (0xFFFFFFFF skips; no player float twice, else RangeError). */
	scalarMap?: ArrayLike<number> | null;
}

export declare class WorldLayer {
	readonly player: WorldPlayer;
	readonly index: number;
	readonly ptr: number;
	readonly clip: WorldClip | null;
	setClip(clip: WorldClip | null, options?: Pick<LayerPlayOptions, 'jointMap' | 'scalarMap'>): this;
	play(clip?: WorldClip | null, options?: LayerPlayOptions): this;
	time: number;
	speed: number;
	/** Current weight (>= 0); setting it cancels a fade. */
	weight: number;
	enabled: boolean;
	paused: boolean;
	loop: LoopMode;
	additive: AdditiveMode;
	mask: Float32Array | readonly number[] | null;
	range: [number, number] | null;
	stopAtEnd: boolean;
	readonly reversed: boolean;
	/** Linear weight ramp to `target` over `duration` seconds of update() time; stop: disable at 0. */
	fadeTo(target: number, duration: number, options?: { stop?: boolean }): this;
	readonly fading: boolean;
	readonly fadeTarget: number;
	/** LayerEvent bits of the last update(). */
	readonly events: number;
	readonly loops: number;
	/** Speed ramp from `from` to `to` over `duration` seconds of update() time (three's warp); setting speed cancels it. */
	warp(from: number, to: number, duration: number): this;
	readonly warping: boolean;
	/** repeat / pingpong: finish (as 'once' at an end) after this many loops; Infinity (default) loops forever. */
	repetitions: number;
	/** Loops done (three.js's count; -1 before the layer first moves). */
	readonly loopCount: number;
	resetLoops(): this;
}

export interface SkinDescription {
	/** Player joint of each bone. */
	joints: ArrayLike<number>;
	/** Inverse bind matrices, 16 column-major floats per bone. */
	inverses: ArrayLike<number>;
	/** Floats to allocate for the output (>= 16 * bones; e.g. a bone texture's size). */
	capacity?: number;
}
export interface MatrixOptions {
	/** Per joint: its parent joint, or -1 - k for anchor k. */
	parents: ArrayLike<number>;
	/** Anchor matrices (default 1), written by JS each frame through anchorMatrix(k); identity until then. */
	anchors?: number;
	skins?: readonly SkinDescription[];
	/** Joints whose world matrix update() also writes inverted (three.js: a skinned mesh's bindMatrixInverse). */
	inverses?: readonly number[];
}

export interface AddPlayerOptions {
	/** Joints, scalars, nodes and rest pose from this clip. */
	clip?: WorldClip;
	joints?: number;
	scalars?: number;
	/** glTF node index per player joint (clips map onto them by their metadata). */
	nodes?: readonly (number | null)[] | null;
	/** Layers of the player (default 4). */
	layers?: number;
	/** Rest pose: joints * 10 + scalars floats. */
	rest?: ArrayLike<number> | null;
}

export declare class WorldPlayer {
	readonly world: SinewWorld;
	readonly index: number;
	readonly ptr: number;
	readonly jointCount: number;
	readonly scalarFloats: number;
	readonly layerCount: number;
	readonly nodes: readonly (number | null)[] | null;
	readonly layers: readonly WorldLayer[];
	layer(index: number): WorldLayer;
	/** The blended pose of the last update(): 10 floats per joint, then the scalars (a wasm heap view). */
	readonly pose: Float32Array;
	/** The rest pose (writable view). */
	readonly rest: Float32Array;
	active: boolean;
	/** Matrix outputs computed by update() after blending (once per player). */
	setMatrices(options: MatrixOptions): this;
	readonly hasMatrices: boolean;
	/** 16 floats per joint (column-major world matrices), a wasm heap view. */
	readonly worldMatrices: Float32Array;
	/** Anchor k's matrix (writable view, read by the next update()). */
	anchorMatrix(k?: number): Float32Array;
	/** Skin i's bone matrices (world x inverse bind), `capacity` floats, a wasm heap view. */
	skinMatrices(i?: number): Float32Array;
	readonly skinCount: number;
	/** 16 floats per `inverses` joint, in that order: the inverses of their world matrices (a wasm heap view). */
	readonly inverseMatrices: Float32Array;
}

export interface LoadWorldBlobOptions {
	/** Default true: sampling costs the same at any time (players at different times share a clip's context). */
	randomAccess?: boolean;
}

export declare class SinewWorld {
	readonly memory: WebAssembly.Memory;
	readonly simd: boolean;
	/** FNV-1a of the module bytes (null for a module passed compiled). */
	readonly buildId: number | null;
	readonly blobs: WorldBlob[];
	readonly players: WorldPlayer[];
	/** Bytes of world memory in use. */
	readonly heapBytes: number;
	readonly frames: number;
	readonly layersSampled: number;
	/** Appends a blob; a bad blob throws SinewError and leaves the world exactly as it was. */
	load(bytes: ArrayBuffer | ArrayBufferView, options?: LoadWorldBlobOptions): WorldBlob;
	addPlayer(options?: AddPlayerOptions): WorldPlayer;
	/** THE frame call: one wasm call advances and blends every player; returns the layers sampled. */
	update(dt: number): number;
	/** The memory image plus the players' glTF nodes and paused layers (binary), for restoreWorld(): bytes, or base64 text. */
	save(): Uint8Array;
	save(encoding: 'base64'): string;
	/** portable: the relocatable snapshot (any build, any heap position; web/README.md §Portable snapshots). */
	save(options: { portable?: boolean; encoding?: undefined }): Uint8Array;
	save(options: { portable?: boolean; encoding: 'base64' }): string;
	save(encoding: 'base64' | undefined, options: { portable?: boolean }): Uint8Array | string;
}

export interface RestoreOptions extends WorldOptions {
	/** Portable snapshots: bytes to allocate before restoring (the world then lives at other addresses). */
	reserve?: number;
}

export interface WorldOptions {
	simd?: boolean;
	wasm?: BufferSource | WebAssembly.Module;
}

export declare function createWorld(options?: WorldOptions): Promise<SinewWorld>;
/** Restores a save() (bytes or its base64 text): a memory image into a fresh instance of the same build, a portable snapshot into any build. */
export declare function restoreWorld(bytes: ArrayBuffer | ArrayBufferView | string, options?: RestoreOptions): Promise<SinewWorld>;
export declare const SinewWorlds: { createWorld: typeof createWorld; restoreWorld: typeof restoreWorld; LayerEvent: typeof LayerEvent };
export default createWorld;
