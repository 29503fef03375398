// sinew — see include/sinew.h for version and licence
export const MAGIC: number;
export const VERSION: number;
export const HEADER_BYTES: number;
export const SAMPLER_BYTES: number;
export const TRACK_BYTES: number;
export const STATE_BYTES: number;
export const KIND: { VEC3_LINEAR: 0; QUAT_LINEAR: 1; GENERAL: 2; CONSTANT: 3 };
export const INTERP: { STEP: 0; LINEAR: 1; CUBICSPLINE: 2 };
export const PATH: { translation: 0; rotation: 1; scale: 2; weights: 3 };

export type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView;
export type ChannelPath = 'translation' | 'rotation' | 'scale' | 'weights';

export interface Channel {
	/** Sampler index in the block = bit index in the changed bitset. */
	index: number;
	kind: 0 | 1 | 2 | 3;
	interpolation: 'STEP' | 'LINEAR' | 'CUBICSPLINE';
	/** 3 (translation, scale), 4 (rotation, x y z w), morph target count (weights). */
	components: number;
	/** First float of this channel in the outputs array. */
	offset: number;
	node: number;
	path: ChannelPath;
}

export interface SampleResult {
	/** View into the wasm heap, valid until the next sample(); the same object is returned every call. */
	outputs: Float32Array;
	/** Bit i of changed[i >> 5]: channel i's output differs (bitwise) from the previous call. */
	changed: Uint32Array;
}

export function parseGlb(bytes: Bytes): { json: any; buffers: Uint8Array[] };
export function readAccessor(json: any, buffers: Bytes[], index: number): Float32Array;
/** Compiles node TRS / weights channels of one animation (options.animation) or all animations. */
export function build(json: any, buffers?: Bytes[], options?: { animation?: number }): Uint8Array;
/** Throws an Error naming the problem when the block is malformed. */
export function validate(block: Bytes): object;
export function describe(block: Bytes): { channels: Channel[]; outputCount: number; start: number; end: number };

export interface RuntimeOptions {
	simd?: boolean | 'auto';
	wasm?: Bytes | WebAssembly.Module;
}
export function createRuntime(options?: RuntimeOptions): Promise<Runtime>;
export function load(block: Bytes, options?: RuntimeOptions): Promise<Animation>;

export class Runtime {
	/** Mutable copy of the wasm exports (alloc, sample) for instrumentation. */
	exports: { alloc(bytes: number): number; sample(ptr: number, t: number): void; [k: string]: unknown };
	memory: WebAssembly.Memory;
	simd: boolean;
	alloc(bytes: number): number;
	load(block: Bytes): Animation;
}

export class Animation {
	readonly runtime: Runtime;
	readonly ptr: number;
	readonly size: number;
	readonly channels: Channel[];
	readonly outputCount: number;
	/** Earliest first key and latest last key over all channels (seconds). */
	readonly start: number;
	readonly end: number;
	/** One wasm call: samples every channel at t (seconds, rounded to float32; clamped to each channel's keys). */
	sample(t: number): SampleResult;
	reset(): void;
	serialize(): Uint8Array;
}
