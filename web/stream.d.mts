// sinew — see include/sinew.h for version and licence
// Types of web/stream.mjs.
import { SinewAnimation, SinewError, LoadOptions } from './sinew.mjs';

export interface StreamingOptions extends LoadOptions {
	/** Bytes of page memory, allocated once at load in slots of the largest page (at least two). Default 65536. */
	budgetBytes?: number;
	/** Seconds of playback update() fetches ahead. Default 0.5. */
	prefetchSeconds?: number;
	/** Quality tiers to load, from the base tier up (0 = every tier the budget allows). */
	tiers?: number;
	/** fetch() used for URL sources (HTTP Range requests). */
	fetch?: typeof globalThis.fetch;
}

export interface StreamingStats {
	pagesLoaded: number;
	/** sample() calls that found their base-tier page missing (they returned null). */
	misses: number;
	bytesFetched: number;
	residentPageBytes: number;
	peakPageBytes: number;
	evictions: number;
}

export declare class StreamingAnimation extends SinewAnimation {
	readonly budgetBytes: number;
	readonly prefetchSeconds: number;
	readonly slotBytes: number;
	readonly stats: StreamingStats;
	/** Pages refused by the decoder (SinewError with the reason) or fetches that failed. */
	readonly errors: Error[];
	/** Bytes of wasm memory: fixed after load. */
	readonly memoryBytes: number;
	/** Once per frame per playing clip: fetches the pages of [t, t + prefetch] (backward for speed < 0), base tier first. */
	update(clip: number, t: number, speed?: number): Promise<unknown>;
	/** Fetches the first prefetch window from t and waits for it. */
	ready(clip?: number, t?: number, speed?: number): Promise<void>;
	/** The pose at t, or null while the base-tier page holding t is not loaded (it is fetched then). */
	sample(clip: number, t?: number): Float32Array; // null at runtime while the page is missing (see stats.misses)
	/** Resolves when no fetch is in flight. */
	idle(): Promise<void>;
}

export declare function loadStreaming(source: string | URL | ((start: number, end: number) => Promise<Uint8Array>),
	options?: StreamingOptions): Promise<StreamingAnimation | SinewAnimation>;

declare const _default: { loadStreaming: typeof loadStreaming; StreamingAnimation: typeof StreamingAnimation };
export default _default;
export { SinewError };
