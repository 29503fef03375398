// sinew — see include/sinew.h for version and licence
// Streaming playback of paged blobs (docs/format.md §pages, §tiers) in the browser and node:
// the resident part is fetched first, then pages by byte range as playback needs them, within a
// fixed budget of page memory that is allocated once at load (the wasm memory never grows after).
//
//   import { loadStreaming } from './stream.mjs';
//   const anim = await loadStreaming('hero.sinew', { budgetBytes: 65536, prefetchSeconds: 0.5 });
//   await anim.ready(0, 0);                  // the pages of clip 0's first prefetch window
//   // every frame, ONE wasm call: the pose, and the pages of [t, t + prefetch] fetched as the budget allows
//   const pose = anim.sample(clip, t, speed); // Float32Array like SinewAnimation.sample, or null: page not here yet
//   anim.stats                               // { pagesLoaded, misses, bytesFetched, residentPageBytes, ... }
//
// Every page is checked by the wasm decoder against the resident part's page table and its
// checksum before use; a page that fails is refused (anim.errors gets a SinewError) and the
// clip is left as it was. Pages are evicted least recently needed first, finer tiers before the
// base tier. One JS thread: pages are installed from fetch callbacks between sampling calls.
import { SinewAnimation, SinewError, compiledModule, cString, heapRig, simdSupported, load } from './sinew.mjs';

// byte range reader for a URL: HTTP Range requests (a server without them answers 200 with the
// whole file, which is sliced)
function urlReader(url, fetchImpl) {
	let whole = null;
	return async (start, end) => {
		if (whole) return whole.subarray(start, end);
		const response = await fetchImpl(url, { headers: { Range: `bytes=${start}-${end - 1}` } });
		if (!response.ok) throw new SinewError(10, `cannot fetch ${url} bytes ${start}-${end - 1}: ${response.status}`);
		const bytes = new Uint8Array(await response.arrayBuffer());
		if (response.status === 206) return bytes;
		whole = bytes; // no range support
		return whole.subarray(start, end);
	};
}

const PAGE_INFO_BYTES = 40; // web_page_info in web/sinew_wasm.c

export class StreamingAnimation extends SinewAnimation {
	constructor(instance, simd, rig, read, options) {
		super(instance, simd, rig);
		const x = instance.exports;
		this._x = x;
		this._read = read;
		this.budgetBytes = options.budgetBytes;
		this.prefetchSeconds = options.prefetchSeconds;
		this.tiers = options.tiers ?? 0; // 0: every tier the budget allows
		this.errors = [];
		this.wasmCalls = 0; // sinew_web_sample_ahead calls: one per sample()
		this.stats = { pagesLoaded: 0, misses: 0, bytesFetched: 0, residentPageBytes: 0, peakPageBytes: 0, evictions: 0 };
		this._frame = 0;
		// page tables of every clip, and the largest page: the slot size
		this._pages = [];
		let largest = 16;
		for (let c = 0; c < this.clipCount; c++) {
			const n = x.sinew_web_page_count(c), pages = [];
			for (let p = 0; p < n; p++) {
				const dv = new DataView(x.memory.buffer, x.sinew_web_page_info(c, p), PAGE_INFO_BYTES);
				const info = {
					clip: c, page: p, offset: dv.getUint32(0, true), size: dv.getUint32(4, true), tier: dv.getUint32(8, true),
					startTime: dv.getFloat64(24, true), endTime: dv.getFloat64(32, true), slot: -1, used: -1, pending: null,
				};
				largest = Math.max(largest, info.size);
				pages.push(info);
			}
			this._pages.push(pages);
		}
		// the slots: budgetBytes of page memory in slots of the largest page (at least two, so a
		// time that needs two pages can play), allocated now
		this.slotBytes = (largest + 15) & ~15;
		const count = Math.max(2, Math.floor(this.budgetBytes / this.slotBytes));
		this._slots = [];
		for (let i = 0; i < count; i++) {
			const ptr = x.sinew_web_alloc(this.slotBytes);
			if (!ptr) throw new SinewError(60, `cannot allocate ${count} page slots of ${this.slotBytes} bytes`);
			this._slots.push({ ptr, page: null });
		}
		this._needPtr = x.sinew_web_alloc(4 * 257); // count, then up to 256 page indices
		this._sampleAhead = x.sinew_web_sample_ahead;
		this._memoryBytes = x.memory.buffer.byteLength;
	}

	// Bytes of wasm memory: fixed after load (pages go into the slots allocated then).
	get memoryBytes() { return this._x.memory.buffer.byteLength; }

	_needed(clip, t, horizon) {
		const n = this._x.sinew_web_pages_needed(clip >>> 0, +t, +horizon, this._needPtr + 4, 256);
		return this._neededList(clip, n);
	}

	// The page list at _needPtr + 4 (n entries, at most 256), within the tiers asked for.
	_neededList(clip, n) {
		const ids = new Uint32Array(this._x.memory.buffer, this._needPtr + 4, Math.min(n, 256));
		const out = [];
		for (const id of ids) {
			const info = this._pages[clip][id];
			if (this.tiers && info.tier >= this.tiers) continue;
			out.push(info);
		}
		return out;
	}

	// A slot for `info`: a free one, else the least recently needed page's (finer tiers first),
	// never a page needed at this frame at the same or a coarser tier. null when none can go.
	_slotFor(info) {
		let best = null;
		for (const slot of this._slots) {
			if (!slot.page) return slot;
			const q = slot.page;
			if (q.pending) continue;
			if (q.used >= this._frame && q.tier <= info.tier) continue;
			if (!best || q.tier > best.page.tier || (q.tier === best.page.tier && q.used < best.page.used)) best = slot;
		}
		if (best) this._evict(best);
		return best;
	}

	_evict(slot) {
		const q = slot.page;
		this._x.sinew_web_drop_page(q.clip, q.page);
		q.slot = -1;
		slot.page = null;
		this.stats.residentPageBytes -= q.size;
		this.stats.evictions++;
	}

	// Starts fetching `info` into a slot; resolves when it is installed (or refused).
	_fetch(info) {
		if (info.slot >= 0 || info.pending) return info.pending ?? Promise.resolve();
		const slot = this._slotFor(info);
		if (!slot) return Promise.resolve(); // the budget holds no more now
		slot.page = info;
		info.pending = this._read(info.offset, info.offset + info.size).then((bytes) => {
			info.pending = null;
			this.stats.bytesFetched += bytes.byteLength;
			if (slot.page !== info || !this._x) return;
			if (bytes.byteLength > this.slotBytes) { // larger than any page of the table: refused as is
				slot.page = null;
				this.errors.push(new SinewError(22, `page ${info.page}: ${bytes.byteLength} bytes given, the page table says ${info.size}`));
				return;
			}
			new Uint8Array(this._x.memory.buffer, slot.ptr, bytes.byteLength).set(bytes);
			const code = this._x.sinew_web_add_page(info.clip, info.page, slot.ptr, bytes.byteLength);
			if (code !== 0) { // refused: nothing changed in the clip; the slot is free again
				slot.page = null;
				this.errors.push(new SinewError(code, cString(this._x.memory, this._x.sinew_web_error())));
				return;
			}
			info.slot = this._slots.indexOf(slot);
			this.stats.pagesLoaded++;
			this.stats.residentPageBytes += info.size;
			this.stats.peakPageBytes = Math.max(this.stats.peakPageBytes, this.stats.residentPageBytes);
		}, (error) => {
			info.pending = null;
			if (slot.page === info) slot.page = null;
			this.errors.push(error);
		});
		return info.pending;
	}

	// Marks the pages [t, t + prefetch] needs (in the playback direction: speed < 0 looks
	// backward) and fetches those missing, base tier first, as the budget allows. sample() does
	// this itself; update() is for prefetching without sampling. Returns a promise for the fetches.
	update(clip, t, speed = 1) {
		this._frame++;
		return this._schedule(this._needed(clip, t, speed < 0 ? -this.prefetchSeconds : this.prefetchSeconds));
	}

	_schedule(pages) {
		for (const info of pages) info.used = this._frame;
		return Promise.all(pages.map((info) => this._fetch(info)));
	}

	// Fetches the first prefetch window of `clip` from time t and waits for it (before playback).
	async ready(clip = 0, t = 0, speed = 1) {
		await this.update(clip, t, speed);
	}

	// The pose at t, or null when the base-tier page holding t is not here yet (a miss: keep
	// showing the previous pose). One wasm call, which also lists the pages of the next prefetch
	// window in the playback direction (speed < 0: backward); those missing are fetched.
	sample(clip, t, speed = 1) {
		if (t === undefined) { t = clip; clip = 0; }
		if (!this._sampleAhead) throw new Error('sinew: animation disposed');
		if (clip >>> 0 >= this.clipCount) throw new RangeError(`sinew: clip ${clip} out of range (${this.clipCount} clips)`);
		this._frame++;
		const horizon = speed < 0 ? -this.prefetchSeconds : this.prefetchSeconds;
		const ptr = this._sampleAhead(clip >>> 0, +t, horizon, this._needPtr, 257);
		this.wasmCalls++;
		const n = new Uint32Array(this._x.memory.buffer, this._needPtr, 1)[0];
		this._schedule(this._neededList(clip, n));
		if (ptr === 0) {
			this.stats.misses++;
			return null;
		}
		return this._view(clip, ptr);
	}

	// Resolves when no fetch is in flight.
	async idle() {
		for (;;) {
			const pending = this._pages.flat().filter((p) => p.pending).map((p) => p.pending);
			if (!pending.length) return;
			await Promise.all(pending);
		}
	}

	dispose() {
		super.dispose();
		this._x = null;
		this._sampleAhead = null;
	}
}

// Loads a paged blob for streaming: `source` is a URL, or a function (start, end) -> Promise of
// the bytes [start, end) (a file, a cache, a custom transport). options: budgetBytes (page memory,
// default 65536), prefetchSeconds (0.5), tiers (0 = all), simd, fetch (for URLs). A blob that is
// not paged is loaded whole (Sinew.load).
export async function loadStreaming(source, options = {}) {
	const read = typeof source === 'function' ? source : urlReader(source, options.fetch ?? globalThis.fetch);
	const header = await read(0, 32);
	if (header.byteLength < 32) throw new SinewError(11, 'the blob is shorter than its header');
	const dv = new DataView(header.buffer, header.byteOffset, 32);
	if (dv.getUint32(0, true) !== 0x57454e53) throw new SinewError(20, 'not a sinew stream (bad magic)');
	const version = dv.getUint16(4, true), total = dv.getUint32(8, true);
	// format 3: Resident_size only with Blob_flags Paged; format 2: 0 when not paged
	const resident = version >= 3 ? ((dv.getUint16(6, true) & 1) ? dv.getUint32(20, true) : 0) : version >= 2 ? dv.getUint32(20, true) : 0;
	if (!resident) return load(await read(0, total), options); // not paged: the whole blob
	const data = new Uint8Array(await read(0, resident));
	const simd = options.simd ?? simdSupported();
	const module = await compiledModule(simd, options.wasm, '-stream');
	const instance = await WebAssembly.instantiate(module, {});
	const x = instance.exports;
	const ptr = x.sinew_web_alloc(data.byteLength);
	if (!ptr) throw new SinewError(60, `cannot allocate ${data.byteLength} bytes for the resident part`);
	new Uint8Array(x.memory.buffer, ptr, data.byteLength).set(data);
	const code = x.sinew_web_load(ptr, data.byteLength, options.randomAccess ? 1 : 0, 0, 0);
	if (code !== 0) throw new SinewError(code, cString(x.memory, x.sinew_web_error()));
	return new StreamingAnimation(instance, simd, heapRig(x.memory, ptr, data.byteLength), read, {
		budgetBytes: options.budgetBytes ?? 65536, prefetchSeconds: options.prefetchSeconds ?? 0.5, tiers: options.tiers ?? 0,
	});
}

export default { loadStreaming, StreamingAnimation };
