// sinew — see include/sinew.h for version and licence
// Types of web/compress.mjs (sinew-anim/compress): the sinew compressor in WebAssembly.
import { SinewError } from './sinew.mjs';

export { SinewError };

/** Bytes, or text (a .gltf, .bvh, ...) encoded as UTF-8. */
export type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView | string;

/** The command-line options of `sinew compress` / `sinew pack`, by name (the CLI checks their ranges). */
export interface CompressOptions {
	/** Error threshold in cm, every moving node, scene units (default 0.01): --error-cm. */
	errorCm?: number;
	/** Shell point distance in cm (default 3): --shell-cm. */
	shellCm?: number;
	/** 1 fast .. 4 highest (default 2): --level. */
	level?: number;
	/** Sample intervals per segment: --segment. */
	segment?: number;
	/** Leave out names, hierarchy and default poses: --strip (compress only; pack keeps the metadata). */
	strip?: boolean;
	/** No midpoint knots: --plain-knots. */
	plainKnots?: boolean;
	/** Paged blob, pages under this many bytes: --page-bytes (compress only). */
	pageBytes?: number;
	/** Quality tiers in cm, coarsest first: --tiers (compress only). */
	tiers?: number[];
	/** glTF import: resample at this rate in Hz: --rate. */
	rate?: number;
	/** Length of one source unit in cm (BVH): --unit-cm. */
	unitCm?: number;
	/** glTF import: shells reach each joint's farthest skinned vertex: --skin-shells. */
	skinShells?: boolean;
	/** BVH/AMC import: drop End Site joints: --no-end-sites. */
	noEndSites?: boolean;
	/** More command-line arguments, passed as they are. */
	args?: string[];
}

export interface RunOptions {
	/** The compiled module or its bytes (default: sinew-compress.wasm next to compress.mjs, fetched once). */
	wasm?: WebAssembly.Module | BufferSource;
	/** Upper bound of the instance's memory; beyond it the library reports OUT_OF_MEMORY. Default 4 GiB. */
	maxMemoryBytes?: number;
}

export interface InputOptions extends RunOptions {
	/** The input's file name (its extension picks the importer; default from the content: input.glb, ...). */
	name?: string;
	/** Files the input refers to, by URI relative to it: a .gltf's .bin and images, an .amc's .asf. */
	resources?: Record<string, Bytes>;
}

/** One clip of `sinew compress --json` (README §Command line). */
export interface ClipReport {
	name: string | null;
	joints: number;
	samples: number;
	sample_rate: number;
	scalar_tracks: number;
	/** What the source file spends on this clip's motion (glTF: the accessors its samplers read). */
	source_animation_bytes: number;
	raw_bytes: number;
	compressed_bytes: number;
	ratio: number;
	max_error_cm: number;
	p99_error_cm: number;
	max_error: number;
	p99_error: number;
	samples_over_threshold: number;
	measured: number;
	/** The clip's joint (index) where max_error_cm is; worst_joint_name its name, null when it has none. */
	worst_joint: number;
	worst_joint_name: string | null;
	worst_time: number;
	resample_error_cm: number;
	check_points: number;
	max_scalar_error_ratio: number;
	compress_ns: number;
	tiers?: { tier: number; bound_cm: number; bytes: number; max_error_cm: number }[];
	[field: string]: unknown;
}

/** `sinew compress --json`: the object the CLI prints. */
export interface CompressReport {
	input: string;
	output: string;
	/** What the source file spends on motion (glTF: the accessors animation samplers read, each once). */
	source_animation_bytes: number;
	raw_bytes: number;
	compressed_bytes: number;
	ratio: number;
	max_error_cm: number;
	p99_error_cm: number;
	samples_over_threshold: number;
	compress_ns: number;
	error_threshold_cm: number;
	shell_distance_cm: number;
	clips: ClipReport[];
	[field: string]: unknown;
}

/** `sinew pack --json`. */
export interface PackReport {
	input: string;
	output: string;
	input_bytes: number;
	output_bytes: number;
	animation_bytes_before: number;
	animation_bytes_after: number;
	[field: string]: unknown;
}

export interface CompressResult {
	/** The .sinew blob, byte for byte what `sinew compress` writes. */
	blob: Uint8Array;
	report: CompressReport;
	/** The importer's warnings (skipped channels and the like). */
	warnings: string[];
	/** Linear memory the run used at most. */
	memoryBytes: number;
}

export interface PackResult {
	/** The packed .glb (.gltf with `gltf: true`), byte for byte what `sinew pack` writes. */
	glb: Uint8Array;
	report: PackReport;
	warnings: string[];
	memoryBytes: number;
}

/** Compresses every clip of a glTF/GLB, BVH, ASF/AMC or ACL file. Rejects with SinewError. */
export declare function compress(input: Bytes, options?: CompressOptions & InputOptions): Promise<CompressResult>;
/** The glTF with its animations compressed inside (SINEW_compressed_animation). Rejects with SinewError. */
export declare function pack(input: Bytes, options?: CompressOptions & InputOptions & { gltf?: boolean }): Promise<PackResult>;
/** `sinew info BLOB --json` (`sizes`: --sizes, where every byte goes). */
export declare function info(blob: Bytes, options?: RunOptions & { sizes?: boolean }): Promise<Record<string, unknown>>;

export interface JointErrors {
	/** Seconds: every sample time, sample midpoint (when the source checks them) and source check time. */
	times: Float64Array;
	/** 0 sample, 1 midpoint, 2 source check time. */
	kinds: Uint8Array;
	joints: number;
	/** Samples of the clip. */
	samples: number;
	/** cm, times.length x joints (row-major): each joint's shell error through the decoder. */
	errors: Float64Array;
}
/** The error of every joint over time of clip `clip` (default 0) of `blob` against its source `input`. */
export declare function errors(input: Bytes, blob: Bytes, options?: CompressOptions & InputOptions & { clip?: number }): Promise<JointErrors>;

export interface RunResult {
	code: number;
	stdout: string;
	stderr: string;
	/** Every file afterwards, inputs included. */
	files: Record<string, Uint8Array>;
	warnings: string[];
	memoryBytes: number;
	/** On failure: the result code of the error the CLI printed (-1 when none is known) and its line. */
	errorCode?: number;
	errorMessage?: string;
}
/** Runs the sinew CLI (arguments without "sinew") over in-memory files. */
export declare function run(args: string[], files?: Record<string, Bytes>, options?: RunOptions): Promise<RunResult>;
/** The command-line arguments of an options object. */
export declare function cliOptions(options?: CompressOptions): string[];
/** The compiled compressor module. */
export declare function compressorModule(wasm?: WebAssembly.Module | BufferSource): Promise<WebAssembly.Module>;

declare const _default: {
	compress: typeof compress;
	pack: typeof pack;
	info: typeof info;
	errors: typeof errors;
	run: typeof run;
	cliOptions: typeof cliOptions;
	compressorModule: typeof compressorModule;
	SinewError: typeof SinewError;
};
export default _default;
