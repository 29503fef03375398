// sinew — see include/sinew.h for version and licence
// The decode benchmark protocols, one source for every codec measured: bench_decompress and
// bench_scene use them for sinew and the raw-copy baseline, and a local peer harness (ACL 2.1, built
// outside the repository: docs/benchmarks.md) includes this header and adds its own codec, so both
// sides are timed by the same code in the same rounds. Plain C that also compiles as C++.
//
// A codec decodes whole poses of one clip from "copies": a copy is everything one playing instance
// owns (the compressed bytes and the decoder's state), built by the codec in memory the protocol
// gives it. Times are (s + 0.37) / rate for the clip's samples s, so every track interpolates.
//
// Cold (cold_run): every codec gets `copies` copies, each in its own region: regions 16 MiB apart
// (no two share a page, a page-table page or a line of page-directory entries, as ACL's own decompression
// benchmark pads them), each starting at its own cache-line colour (region i at (7 i mod 64) * 64
// bytes into its page). A round flushes, then each codec samples each of its copies once: copy 0
// untimed (the codec's code and the output back in cache, as they stay in a game that samples many
// characters), copies 1.. timed one call each. The flush writes one byte of every 64-byte line of a
// `flush_bytes` buffer (default: twice the last-level cache sysconf reports, at least 64 MiB), so
// between two calls on one copy everything else that buffer's size went through every cache
// level: none of the copy's lines, its TLB entries or its page-table lines are left. Each copy
// moves one step per round through its order of times (forward, backward, random), starting at
// its own phase (copy c at c * samples / copies), after `warm_rounds` untimed rounds that set the
// decoders' state (a forward context has seen forward playback). Per pose: median and p90 of the
// timed calls.
//
// Warm (warm_run): one copy per codec; ~200 ms of forward playback, then `passes` rounds in which
// each codec plays every sample time in each order, timed 32 calls at a time (a time slice lost to
// another process spoils one window, not a whole pass); per pose: a window's time / 32; median and
// p90 over the windows. Codecs alternate pass by pass (A/B in the same seconds).
//
// Floors (bench_floor_make): codecs that decode nothing and make 1 or 2 dependent loads through their copy, the
// second 12 KB after the first (another page, under the same line of page-table entries): what the cold protocol
// charges a pose before any work. A decoder whose context gives the address of its data (a pointer, an offset, a
// segment) waits at least the two-load floor, and its work on the data comes after that.
//
// Scene (scene_run): N characters, each a copy of one clip (spread evenly over the clips, every clip
// in turn when N is larger), packed one after another (64-byte aligned, as a game's heap holds
// them), each at its own phase; a frame samples every character once at its time, and each then
// moves on by 1/fps seconds (wrapping at the clip's end). Per character-frame: the time of 32
// consecutive characters of a frame / 32 (a time slice lost to another process spoils one window,
// not a frame); median and p90 over the windows of the frames after `warm_frames` untimed ones.
// With `flush_bytes`, the flush runs between frames (a game's other work has evicted everything),
// else frames follow each other.
#ifndef SINEW_BENCH_DECODE_PROTOCOL_H
#define SINEW_BENCH_DECODE_PROTOCOL_H

#include <stdint.h> // (the including file defines _DEFAULT_SOURCE or _GNU_SOURCE first: MAP_ANONYMOUS, MAP_NORESERVE)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

typedef struct bench_codec {
	const char *name;
	uint32_t samples;    // the clip's samples (times run over them)
	double rate;         // samples per second
	size_t copy_bytes;   // bytes one copy needs in its region (aligned 64)
	// Builds a copy in `region` (copy_bytes, 64-byte aligned, zeroed); returns its handle (NULL: failed).
	void *(*copy_init)(const struct bench_codec *codec, unsigned char *region);
	// Decodes the whole pose at time t (seconds) of a copy, into output the codec owns (one per codec).
	void (*sample)(const struct bench_codec *codec, void *copy, double t);
	void *user;          // the codec's own data
} bench_codec;

typedef struct bench_stats {
	double median, p90, mean; // ns per pose (per character-frame for scene_run)
	uint32_t count;           // measurements they come from
} bench_stats;

enum { BENCH_FORWARD, BENCH_BACKWARD, BENCH_RANDOM, BENCH_ORDERS };
static const char *const bench_order_name[BENCH_ORDERS] = {"forward", "backward", "random"};

static inline uint64_t bench_now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int bench_cmp_u64(const void *a, const void *b) {
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

// Median, p90 and mean of n values (sorts them); `scale` divides each (a pass's poses).
static inline bench_stats bench_stats_of(uint64_t *v, uint32_t n, double scale) {
	bench_stats s;
	memset(&s, 0, sizeof s);
	if (!n) return s;
	qsort(v, n, sizeof *v, bench_cmp_u64);
	double sum = 0;
	for (uint32_t i = 0; i < n; ++i) sum += (double)v[i];
	s.median = (double)v[n / 2] / scale;
	s.p90 = (double)v[(uint32_t)((uint64_t)n * 9 / 10 < n ? (uint64_t)n * 9 / 10 : n - 1)] / scale;
	s.mean = sum / n / scale;
	s.count = n;
	return s;
}

// What two back-to-back clock reads take (median of 1001): included in every timed call.
static inline double bench_timer_ns(void) {
	uint64_t v[1001];
	for (int i = 0; i < 1001; ++i) {
		uint64_t t0 = bench_now_ns();
		v[i] = bench_now_ns() - t0;
	}
	return bench_stats_of(v, 1001, 1.0).median;
}

// The default flush: twice the last-level cache (sysconf), at least 64 MiB.
static inline size_t bench_default_flush_bytes(void) {
	long llc = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
	llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
	if (llc <= 0) llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
	size_t f = llc > 0 ? 2 * (size_t)llc : 0;
	return f < ((size_t)64 << 20) ? (size_t)64 << 20 : f;
}

typedef struct bench_flush {
	unsigned char *bytes;
	size_t size;
	unsigned char value;
} bench_flush;

static inline int bench_flush_init(bench_flush *f, size_t size) {
	f->size = size;
	f->value = 1;
	f->bytes = size ? (unsigned char *)mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : NULL;
	if (f->bytes == (unsigned char *)MAP_FAILED) f->bytes = NULL;
	if (size && !f->bytes) return 0;
	if (size) memset(f->bytes, 0, size); // (backed now: the first flush does not count page faults)
	return 1;
}

// One byte written in every 64-byte line (a store: the line is read for ownership and dirtied, so it
// takes a place in every cache level; volatile: the compiler keeps every store).
static inline void bench_flush_run(bench_flush *f) {
	volatile unsigned char *p = f->bytes;
	const unsigned char v = f->value++;
	for (size_t i = 0; i < f->size; i += 64) p[i] = v;
}

static inline void bench_flush_free(bench_flush *f) {
	if (f->bytes) munmap(f->bytes, f->size);
	f->bytes = NULL;
}

#define BENCH_REGION_SPACING ((size_t)16 << 20)

// Regions for `count` copies of up to `bytes` each (see the top of this file); NULL on failure.
typedef struct bench_regions {
	unsigned char *base;
	size_t map_bytes, stride;
} bench_regions;

static inline int bench_regions_init(bench_regions *r, size_t count, size_t bytes) {
	size_t need = bytes + 4096 + 64 * 64; // the colour offset and a page to spare
	r->stride = (need + BENCH_REGION_SPACING - 1) / BENCH_REGION_SPACING * BENCH_REGION_SPACING;
	r->map_bytes = r->stride * count + BENCH_REGION_SPACING;
	r->base = (unsigned char *)mmap(NULL, r->map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r->base == (unsigned char *)MAP_FAILED) r->base = NULL;
	return r->base != NULL;
}

static inline unsigned char *bench_region(const bench_regions *r, size_t i) {
	uintptr_t start = ((uintptr_t)r->base + BENCH_REGION_SPACING - 1) / BENCH_REGION_SPACING * BENCH_REGION_SPACING;
	return (unsigned char *)(start + i * r->stride + (7 * i % 64) * 64);
}

static inline void bench_regions_free(bench_regions *r) {
	if (r->base) munmap(r->base, r->map_bytes);
	r->base = NULL;
}

// The times of each order over `n` samples at `rate`: forward, backward, and a fixed shuffle.
static inline double *bench_order_times(uint32_t n, double rate, int order) {
	double *t = (double *)malloc((n ? n : 1) * sizeof(double));
	if (!t) return NULL;
	for (uint32_t s = 0; s < n; ++s) t[order == BENCH_BACKWARD ? n - 1 - s : s] = (s + 0.37) / rate;
	if (order == BENCH_RANDOM) {
		unsigned rng = 777;
		for (uint32_t s = n; s-- > 1;) {
			rng = rng * 1103515245u + 12345u;
			uint32_t r = (rng >> 8) % (s + 1);
			double x = t[s];
			t[s] = t[r], t[r] = x;
		}
	}
	return t;
}

typedef struct bench_cold_options {
	uint32_t copies;      // per codec and order (>= 2; default 64)
	uint32_t rounds;      // timed rounds (default 16)
	uint32_t warm_rounds; // untimed rounds first (default 2)
	size_t flush_bytes;   // default bench_default_flush_bytes()
} bench_cold_options;

// Cold protocol: out[codec * BENCH_ORDERS + order]. Returns 0 when memory could not be had.
static inline int cold_run(const bench_codec *codecs, uint32_t ncodecs, const bench_cold_options *options, bench_stats *out) {
	const uint32_t copies = options->copies >= 2 ? options->copies : 64;
	const uint32_t rounds = options->rounds ? options->rounds : 16, warm = options->warm_rounds;
	const uint32_t configs = ncodecs * BENCH_ORDERS;
	size_t largest = 64;
	for (uint32_t k = 0; k < ncodecs; ++k)
		if (codecs[k].copy_bytes > largest) largest = codecs[k].copy_bytes;
	bench_regions regions;
	bench_flush flush;
	if (!bench_regions_init(&regions, (size_t)configs * copies, largest)) return 0;
	if (!bench_flush_init(&flush, options->flush_bytes ? options->flush_bytes : bench_default_flush_bytes())) {
		bench_regions_free(&regions);
		return 0;
	}
	void **handle = (void **)calloc((size_t)configs * copies, sizeof(void *));
	double **times = (double **)calloc(configs, sizeof(double *));
	uint64_t *ns = (uint64_t *)malloc((size_t)configs * rounds * (copies - 1) * sizeof(uint64_t));
	int ok = handle && times && ns;
	for (uint32_t g = 0; ok && g < configs; ++g) {
		const bench_codec *c = &codecs[g / BENCH_ORDERS];
		ok = (times[g] = bench_order_times(c->samples, c->rate, (int)(g % BENCH_ORDERS))) != NULL;
		for (uint32_t i = 0; ok && i < copies; ++i)
			ok = (handle[(size_t)g * copies + i] = c->copy_init(c, bench_region(&regions, (size_t)g * copies + i))) != NULL;
	}
	for (uint32_t r = 0; ok && r < warm + rounds; ++r) {
		bench_flush_run(&flush);
		for (uint32_t gi = 0; gi < configs; ++gi) {
			const uint32_t g = (gi + r) % configs; // each round starts with another configuration
			const bench_codec *c = &codecs[g / BENCH_ORDERS];
			const uint32_t n = c->samples;
			for (uint32_t i = 0; i < copies; ++i) {
				const double t = times[g][((uint64_t)i * n / copies + r) % n];
				void *h = handle[(size_t)g * copies + i];
				if (i == 0 || r < warm) {
					c->sample(c, h, t);
					continue;
				}
				uint64_t t0 = bench_now_ns();
				c->sample(c, h, t);
				uint64_t t1 = bench_now_ns();
				ns[((size_t)g * rounds + (r - warm)) * (copies - 1) + (i - 1)] = t1 - t0;
			}
		}
	}
	for (uint32_t g = 0; ok && g < configs; ++g)
		out[g] = bench_stats_of(ns + (size_t)g * rounds * (copies - 1), rounds * (copies - 1), 1.0);
	for (uint32_t g = 0; times && g < configs; ++g) free(times[g]);
	free(times), free(handle), free(ns);
	bench_flush_free(&flush);
	bench_regions_free(&regions);
	return ok;
}

typedef struct bench_warm_options {
	uint32_t passes;       // passes over every sample time per order (default 21)
	uint32_t warmup_ms;    // forward playback first (default 200)
} bench_warm_options;

#define BENCH_WARM_WINDOW 32u // calls timed together (a time slice lost to another process spoils one window, not a pass)

// Warm protocol: out[codec * BENCH_ORDERS + order].
static inline int warm_run(const bench_codec *codecs, uint32_t ncodecs, const bench_warm_options *options, bench_stats *out) {
	const uint32_t passes = options->passes ? options->passes : 21, warmup = options->warmup_ms ? options->warmup_ms : 200;
	const uint32_t configs = ncodecs * BENCH_ORDERS, w = BENCH_WARM_WINDOW;
	size_t largest = 64;
	uint32_t most = 1;
	for (uint32_t k = 0; k < ncodecs; ++k) {
		if (codecs[k].copy_bytes > largest) largest = codecs[k].copy_bytes;
		if (codecs[k].samples > most) most = codecs[k].samples;
	}
	const uint32_t per_pass = (most + w - 1) / w; // windows of one pass, at most
	bench_regions regions;
	if (!bench_regions_init(&regions, ncodecs, largest)) return 0;
	void **handle = (void **)calloc(ncodecs, sizeof(void *));
	double **times = (double **)calloc(configs, sizeof(double *));
	uint64_t *ns = (uint64_t *)malloc((size_t)configs * passes * per_pass * sizeof(uint64_t));
	uint32_t *count = (uint32_t *)calloc(configs, sizeof(uint32_t));
	int ok = handle && times && ns && count;
	for (uint32_t k = 0; ok && k < ncodecs; ++k) ok = (handle[k] = codecs[k].copy_init(&codecs[k], bench_region(&regions, k))) != NULL;
	for (uint32_t g = 0; ok && g < configs; ++g)
		ok = (times[g] = bench_order_times(codecs[g / BENCH_ORDERS].samples, codecs[g / BENCH_ORDERS].rate, (int)(g % BENCH_ORDERS))) != NULL;
	// clock ramp, caches, predictors: forward playback of every codec in turn
	for (uint64_t w0 = bench_now_ns(); ok && bench_now_ns() - w0 < (uint64_t)warmup * 1000000u;)
		for (uint32_t k = 0; k < ncodecs; ++k)
			for (uint32_t s = 0; s < codecs[k].samples; ++s) codecs[k].sample(&codecs[k], handle[k], times[k * BENCH_ORDERS][s]);
	for (uint32_t p = 0; ok && p < passes; ++p)
		for (uint32_t g = 0; g < configs; ++g) {
			const bench_codec *c = &codecs[g / BENCH_ORDERS];
			void *h = handle[g / BENCH_ORDERS];
			const double *t = times[g];
			for (uint32_t s = 0; s + w <= c->samples; s += w) { // (a clip shorter than a window: one window of all of it)
				uint64_t t0 = bench_now_ns();
				for (uint32_t i = s; i < s + w; ++i) c->sample(c, h, t[i]);
				ns[(size_t)g * passes * per_pass + count[g]++] = bench_now_ns() - t0;
			}
			if (c->samples < w) {
				uint64_t t0 = bench_now_ns();
				for (uint32_t i = 0; i < c->samples; ++i) c->sample(c, h, t[i]);
				ns[(size_t)g * passes * per_pass + count[g]++] = bench_now_ns() - t0;
			}
		}
	for (uint32_t g = 0; ok && g < configs; ++g) {
		const uint32_t n = codecs[g / BENCH_ORDERS].samples;
		out[g] = bench_stats_of(ns + (size_t)g * passes * per_pass, count[g], (double)(n < w ? n : w));
	}
	for (uint32_t g = 0; times && g < configs; ++g) free(times[g]);
	free(times), free(handle), free(ns), free(count);
	bench_regions_free(&regions);
	return ok;
}

typedef struct bench_scene_options {
	uint32_t characters;  // N
	uint32_t frames;      // timed frames (default 200)
	uint32_t warm_frames; // untimed frames first (default 20)
	double fps;           // default 60
	size_t flush_bytes;   // 0: frames back to back; else a flush before every frame
} bench_scene_options;

// The clip of character i of n: spread evenly over the clips when there are fewer characters, else
// every clip in turn.
static inline uint32_t bench_scene_clip(uint32_t i, uint32_t n, uint32_t nclips) {
	return n <= nclips ? (uint32_t)((uint64_t)i * nclips / n) : i % nclips;
}

// The floor codecs (see the top of this file): `levels` 1 or 2; `samples` and `rate` as the codecs they stand beside.
typedef struct bench_floor {
	uint32_t levels;
	volatile uint32_t sink; // (the last load is kept)
} bench_floor;

#define BENCH_FLOOR_STEP 12288u // bytes from one load to the next: the next page but two

static inline void *bench_floor_init(const bench_codec *c, unsigned char *region) {
	const bench_floor *f = (const bench_floor *)c->user;
	uint32_t at = 0;
	for (uint32_t l = 0; l < f->levels; ++l) { // each word gives where the next load goes
		const uint32_t next = at + BENCH_FLOOR_STEP;
		memcpy(region + at, &next, sizeof next);
		at = next;
	}
	return region;
}

static inline void bench_floor_sample(const bench_codec *c, void *copy, double t) {
	(void)t;
	bench_floor *f = (bench_floor *)c->user;
	const unsigned char *r = (const unsigned char *)copy;
	uint32_t at = 0;
	for (uint32_t l = 0; l < f->levels; ++l) memcpy(&at, r + at, sizeof at);
	f->sink = at;
}

static inline void bench_floor_make(bench_codec *c, bench_floor *f, uint32_t levels, uint32_t samples, double rate) {
	memset(c, 0, sizeof *c);
	f->levels = levels;
	c->name = levels == 1 ? "floor, 1 load" : "floor, 2 loads";
	c->samples = samples;
	c->rate = rate;
	c->copy_bytes = (size_t)levels * BENCH_FLOOR_STEP + 64;
	c->copy_init = bench_floor_init;
	c->sample = bench_floor_sample;
	c->user = f;
}

// Scene protocol over the clips of one codec family (codecs[i]: clip i): out = per character-frame.
static inline int scene_run(const bench_codec *codecs, uint32_t nclips, const bench_scene_options *options, bench_stats *out) {
	const uint32_t n = options->characters, frames = options->frames ? options->frames : 200;
	const uint32_t warm = options->warm_frames ? options->warm_frames : 20;
	const double fps = options->fps > 0 ? options->fps : 60.0;
	if (!n || !nclips) return 0;
	size_t total = 4096; // characters packed one after another (64-byte aligned), as in a game's heap
	for (uint32_t i = 0; i < n; ++i) total += (codecs[bench_scene_clip(i, n, nclips)].copy_bytes + 63) / 64 * 64;
	unsigned char *heap = (unsigned char *)mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (heap == (unsigned char *)MAP_FAILED) return 0;
	bench_flush flush = {NULL, 0, 0};
	if (options->flush_bytes && !bench_flush_init(&flush, options->flush_bytes)) {
		munmap(heap, total);
		return 0;
	}
	void **handle = (void **)calloc(n, sizeof(void *));
	double *clock = (double *)calloc(n, sizeof(double));
	const uint32_t w = BENCH_WARM_WINDOW, windows = (n + w - 1) / w; // characters timed together
	uint64_t *ns = (uint64_t *)malloc((size_t)frames * windows * sizeof(uint64_t));
	int ok = handle && clock && ns;
	size_t at = 0;
	for (uint32_t i = 0; ok && i < n; ++i) {
		const bench_codec *c = &codecs[bench_scene_clip(i, n, nclips)];
		ok = (handle[i] = c->copy_init(c, heap + at)) != NULL;
		at += (c->copy_bytes + 63) / 64 * 64;
		double duration = c->samples > 1 ? (c->samples - 1) / c->rate : 0.0;
		clock[i] = duration * ((i * 0.6180339887) - (double)(uint64_t)(i * 0.6180339887)); // its own phase
	}
	uint32_t count = 0;
	for (uint32_t f = 0; ok && f < warm + frames; ++f) {
		if (flush.bytes) bench_flush_run(&flush);
		for (uint32_t i0 = 0; i0 < n; i0 += w) {
			const uint32_t i1 = i0 + w < n ? i0 + w : n;
			uint64_t t0 = bench_now_ns();
			for (uint32_t i = i0; i < i1; ++i) {
				const bench_codec *c = &codecs[bench_scene_clip(i, n, nclips)];
				c->sample(c, handle[i], clock[i]);
			}
			uint64_t t1 = bench_now_ns();
			if (f >= warm) ns[count++] = (t1 - t0) * w / (i1 - i0); // (a short last window scaled to w characters)
		}
		for (uint32_t i = 0; i < n; ++i) {
			const bench_codec *c = &codecs[bench_scene_clip(i, n, nclips)];
			double duration = c->samples > 1 ? (c->samples - 1) / c->rate : 0.0;
			clock[i] += 1.0 / fps;
			if (clock[i] > duration) clock[i] = 0.0;
		}
	}
	if (ok) *out = bench_stats_of(ns, count, (double)w);
	free(handle), free(clock), free(ns);
	bench_flush_free(&flush);
	munmap(heap, total);
	return ok;
}

#endif
