// sinew — see include/sinew.h for version and licence
// Types of web/sinew.mjs.
import type { SinewRig } from './rig.mjs';
export type { SinewRig } from './rig.mjs';

/** Result codes of include/sinew.h (stable numbers). */
export type SinewResultName =
	| 'OK' | 'IO' | 'TRUNCATED' | 'UNSUPPORTED' | 'PARSE' | 'BAD_MAGIC' | 'BAD_VERSION' | 'CORRUPT' | 'CHECKSUM'
	| 'NOT_FINITE' | 'NOT_UNIT_QUATERNION' | 'BAD_PARENT' | 'NO_SAMPLES' | 'BAD_COUNT' | 'BAD_SAMPLE_RATE'
	| 'BAD_PRECISION' | 'BAD_TRACK' | 'INVALID_ARGUMENT' | 'OUT_OF_RANGE' | 'OUT_OF_MEMORY' | 'BUFFER_TOO_SMALL'
	| 'PAGE_MISSING' | 'OVER_BOUND' | 'UNKNOWN';

/** Thrown by load() when the blob is rejected (never a wasm trap). */
export declare class SinewError extends Error {
	readonly code: number;
	readonly codeName: SinewResultName;
}

export interface ScalarTrackLayout {
	/** First float of the track after the pose floats (index into sample()'s array minus jointCount * 10). */
	readonly offset: number;
	/** Floats of the track (1..4). */
	readonly components: number;
}

/** A joint's metadata (docs/format.md §Metadata). */
export interface JointInfo {
	readonly name: string | null;
	/** Parent joint index in this clip, -1 for a root. */
	readonly parent: number;
	/** Source node (Source_index): the glTF node index for glTF sources; null when unknown. */
	readonly node: number | null;
	readonly shellDistance: number;
	readonly precision: number;
	/** Default (bind/rest) pose: rotation x y z w, translation x y z, scale x y z. */
	readonly defaultRotation: readonly number[];
	readonly defaultTranslation: readonly number[];
	readonly defaultScale: readonly number[];
}

/** A scalar track's metadata (docs/format.md §Metadata). */
export interface ScalarInfo {
	readonly name: string | null;
	/** Source_node: the glTF node whose morph weight this is; null when unknown. */
	readonly node: number | null;
	/** Source_target: the morph target index (for a pointer track, the index of its first float in the
	 * pointer's value); null when unknown. */
	readonly target: number | null;
	/** The glTF KHR_animation_pointer JSON pointer this track drives (Source_node -2; the name is the
	 * pointer), e.g. "/materials/0/pbrMetallicRoughness/baseColorFactor"; null for other tracks. */
	readonly pointer: string | null;
	readonly precision: number;
	readonly defaultValue: readonly number[];
}

export interface ClipMetadata {
	readonly name: string | null;
	readonly joints: readonly JointInfo[];
	readonly scalars: readonly ScalarInfo[];
}

export interface ClipInfo {
	readonly index: number;
	/** null when the blob was compressed without metadata (--strip). */
	readonly name: string | null;
	readonly sampleRate: number;
	readonly sampleCount: number;
	/** Seconds; looping clips include the wrap interval. */
	readonly duration: number;
	/** Clip units per metre (1 for glTF). */
	readonly unitScale: number;
	readonly jointCount: number;
	readonly scalarTrackCount: number;
	/** Floats after the pose in sample()'s array. */
	readonly scalarFloats: number;
	readonly scalarTracks: readonly ScalarTrackLayout[];
	readonly segmentCount: number;
	readonly looping: boolean;
	readonly hasMetadata: boolean;
	/** Bytes of the clip inside the blob. */
	readonly size: number;
	/** Decoding kernel: "wasm-simd128" or "scalar". */
	readonly kernel: string;
	/**
	 * Per joint metadata (glTF node of each output pose); null without metadata (--strip). Built from the rig on
	 * first read (one array for every clip); `rig` has the same tables as typed arrays.
	 */
	readonly joints: readonly JointInfo[] | null;
	/** Per scalar track metadata (glTF node + morph target); null without metadata. As `joints`. */
	readonly scalars: readonly ScalarInfo[] | null;
	/** The blob's rig (web/rig.mjs): names, hierarchy, glTF nodes and rest pose in typed arrays and the blob's bytes. */
	readonly rig: SinewRig;
	/** The time map (docs/format.md §Time map): sample `sample` at `time` seconds, evenly spaced between
	 * marks; null when sample k is at k / sampleRate. */
	readonly timeMarks: readonly TimeMark[] | null;
	/** Rotations follow the slerp between knots (Slerp_fit, docs/format.md §Sampling semantics step 5). */
	readonly slerpFit: boolean;
}

export interface TimeMark {
	readonly time: number;
	readonly sample: number;
}

export interface LoadOptions {
	/** Force the SIMD (true) or baseline (false) build; default: WebAssembly.validate feature test. */
	simd?: boolean;
	/** The chosen build's bytes or compiled module (skips fetching web/sinew[-simd].wasm). */
	wasm?: BufferSource | WebAssembly.Module;
	/** Precompute every segment: the same cost in any playback order, more memory. */
	randomAccess?: boolean;
}

export declare class SinewAnimation {
	readonly clipCount: number;
	/** The blob's rig, read from its copy in the wasm heap (web/rig.mjs). */
	readonly rig: SinewRig;
	/** True when the SIMD128 build is used. */
	readonly simd: boolean;
	clip(index?: number): ClipInfo;
	/**
	 * Samples a whole pose with one wasm call: jointCount * 10 floats (per joint rotation x y z w,
	 * translation x y z, scale x y z) then scalarFloats floats. t is clamped to [0, duration].
	 * The result is a view of the wasm heap, overwritten by the next sample() call.
	 */
	sample(clip: number, t: number): Float32Array;
	/** Samples clip 0. */
	sample(t: number): Float32Array;
	/**
	 * Which outputs the last sample() may have changed since the previous sample of the same clip: all on the
	 * clip's first sample, none when the time repeats, otherwise the animated outputs (constant outputs are never
	 * flagged again; no change is missed). Bits 3j, 3j+1, 3j+2: joint j's rotation, translation, scale; bit
	 * 3 * jointCount + k: scalar track k. A view of the wasm heap, rewritten by every sample().
	 */
	changed(clip?: number): Uint32Array;
	/**
	 * Count of sample() calls on this animation. A player that reads `serial` right after its own sample() and
	 * finds it unchanged before its next one knows nobody else sampled in between, so changed() is relative to
	 * the outputs it wrote last (the adapters write only changed outputs then, everything otherwise).
	 */
	readonly serial: number;
	/** Drops the instance and its memory. */
	dispose(): void;
}

export declare function simdSupported(): boolean;
/**
 * The metadata of every clip of a blob as objects (null for clips without); a format-3 blob's array also has
 * `rig` (its SinewRig). load() keeps the rig instead, in the wasm heap and typed arrays.
 */
export declare function readMetadata(bytes: Uint8Array): (ClipMetadata | null)[] & { rig?: SinewRig };
export declare function load(bytes: ArrayBuffer | ArrayBufferView, options?: LoadOptions): Promise<SinewAnimation>;
/**
 * Loads the compressed animation of a glTF packed by `sinew pack` (SINEW_compressed_animation): a .glb, or a
 * .gltf with an embedded data: URI buffer. Returns the parsed glTF JSON and the animation (its clips'
 * metadata maps joints to glTF nodes). Throws SinewError on malformed input or a missing extension.
 */
export declare function loadPacked(bytes: ArrayBuffer | ArrayBufferView, options?: LoadOptions): Promise<{ json: any; animation: SinewAnimation }>;

/**
 * Lossless mode (web/lossless): the glTF's own keyframes in one relocatable block, sampled by a 4 KB wasm
 * runtime. `source`: .glb bytes, or glTF JSON with `buffers`. The result's sample(t) returns { outputs, changed }
 * in one wasm call (types in web/lossless/lossless.d.mts).
 */
export declare function loadLossless(source: Uint8Array | ArrayBuffer | object, buffers?: Uint8Array[],
	options?: { simd?: boolean; animation?: number }): Promise<any>;

/** Streaming playback of a paged blob (web/stream.mjs; types in web/stream.d.mts). */
export declare function loadStreaming(source: string | URL | ((start: number, end: number) => Promise<Uint8Array>),
	options?: import('./stream.mjs').StreamingOptions): Promise<import('./stream.mjs').StreamingAnimation | SinewAnimation>;

declare const Sinew: {
	load: typeof load;
	loadStreaming: typeof loadStreaming;
	loadLossless: typeof loadLossless;
	loadPacked: typeof loadPacked;
	simdSupported: typeof simdSupported;
	readMetadata: typeof readMetadata;
	SinewError: typeof SinewError;
	SinewAnimation: typeof SinewAnimation;
};
export { Sinew };
export default Sinew;
