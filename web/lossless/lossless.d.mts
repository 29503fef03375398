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
export interface RestoreOptions extends RuntimeOptions {
	/** Arena bytes to allocate before the heap (the restored heap then sits at another address). */
	reserve?: number;
}
export function createRuntime(options?: RuntimeOptions): Promise<Runtime>;
/** new WebAssembly.Module + new WebAssembly.Instance: options.wasm is required; options.simd says which build it is. */
export function createRuntimeSync(options: { wasm: Bytes | WebAssembly.Module; simd?: boolean }): Runtime;
export function load(block: Bytes, options?: RuntimeOptions): Promise<Animation>;
/** A runtime holding a heap image from Runtime.serialize() (bytes or base64), validated first. */
export function restoreRuntime(image: Bytes | string, options?: RestoreOptions): Promise<Runtime>;
export function restoreRuntimeSync(image: Bytes | string, options: RestoreOptions & { wasm: Bytes | WebAssembly.Module }): Runtime;
/** Throws an Error naming the problem when a heap image is malformed; returns its loaded groups. */
export function validateHeap(image: Bytes): { slot: number; offset: number; size: number }[];

export const HEAP_MAGIC: number;
export const HEAP_VERSION: number;
export const HEAP_HEADER_BYTES: number;
export const GROUP_BYTES: number;

export class Runtime {
	/** Mutable copy of the wasm exports (alloc, sample, sample_all) for instrumentation. */
	exports: { alloc(bytes: number): number; sample(ptr: number, t: number): void; sample_all(heap: number): void; [k: string]: unknown };
	memory: WebAssembly.Memory;
	simd: boolean;
	/** The loaded groups by slot (null: a free slot). */
	readonly groups: (Animation | null)[];
	/** Address of the heap in the wasm memory. */
	readonly heapAddress: number;
	/** Bytes of the heap: what serialize() writes. */
	readonly heapBytes: number;
	/** Arena bytes outside the heap (16-byte aligned); returns the address. */
	alloc(bytes: number): number;
	/** Validates a block and loads it as a group (active, time 0), into free heap space when there is some. */
	load(block: Bytes): Animation;
	/** ONE wasm call: every active group sampled at its own time. */
	sampleAll(): this;
	/** The heap image (header, group table, blocks with their playback state). */
	serialize(): Uint8Array;
	serialize(options: { encoding: 'base64' }): string;
	serialize(options: { encoding?: 'bytes' }): Uint8Array;
}

export class Animation {
	readonly runtime: Runtime;
	/** The group's slot in the runtime's table (Runtime.groups[slot] === this while loaded). */
	readonly slot: number;
	/** Byte offset of the block in the heap. */
	readonly offset: number;
	readonly ptr: number;
	readonly size: number;
	readonly loaded: boolean;
	/** Channels (samplers) in the block; channel i is bit i of `changed`. */
	readonly channelCount: number;
	/** Every channel's descriptor, made from the heap as a new array at each access (a frame loop reads by index). */
	readonly channels: Channel[];
	/** Channel i's descriptor, made from the heap (RangeError when i is not a channel). */
	channel(i: number): Channel;
	/** Channel i's target glTF node. */
	channelNode(i: number): number;
	channelPath(i: number): ChannelPath;
	/** Channel i's first float in `outputs`. */
	channelOffset(i: number): number;
	/** Channel i's floats in `outputs`: 3, 4 (rotation x y z w) or the morph target count. */
	channelComponents(i: number): number;
	readonly outputCount: number;
	/** Earliest first key and latest last key over all channels (seconds). */
	readonly start: number;
	readonly end: number;
	/** Seconds at which Runtime.sampleAll() samples this group (float32 in the heap). */
	time: number;
	/** Whether Runtime.sampleAll() samples this group (default true). */
	active: boolean;
	/** The last sample's outputs and changed bitset (the object sample() returns). */
	readonly result: SampleResult;
	readonly outputs: Float32Array;
	readonly changed: Uint32Array;
	/** One wasm call: samples every channel at t (seconds, rounded to float32; clamped to each channel's keys). */
	sample(t: number): SampleResult;
	reset(): void;
	/** A copy of the block alone, with its playback state. */
	serialize(): Uint8Array;
	/** Frees the group's slot and bytes for later loads. */
	unload(): void;
}
