// sinew — see include/sinew.h for version and licence
// The WebAssembly runtime's exports (built by web/build_wasm.sh, used by web/sinew.mjs). One
// instance holds one loaded blob: sinew_web_load validates it and creates a sampling context
// for every clip plus one output buffer, all from the load-time arena; sinew_web_sample then
// writes a whole pose (10 floats per joint: rotation xyzw, translation xyz, scale xyz) followed
// by the clip's scalar floats into that buffer, without allocating.
#include "sinew.h"

#include "../src/decompress/context.h"
#include "wasm_libc.h"

#include <string.h>

// The exports (web/build_wasm.sh lists them with --export; nothing else is visible).
void *sinew_web_alloc(uint32_t size);
const char *sinew_web_error(void);
int sinew_web_load(const void *blob, uint32_t size, uint32_t options, const sinew_qvv *rest, const float *rest_scalars);
uint32_t sinew_web_clip_count(void);
float *sinew_web_sample(uint32_t clip, double t);
const uint32_t *sinew_web_changed(void);

_Static_assert(sizeof(sinew_qvv) == 10 * sizeof(float), "a pose is 10 floats per joint");

// Clip description read by sinew.mjs (byte offsets are part of the JS contract; see web/README.md).
typedef struct web_clip_info {
	double sample_rate;          // 0
	double duration;             // 8
	double unit_scale;           // 16
	uint32_t sample_count;       // 24
	uint32_t joint_count;        // 28
	uint32_t scalar_track_count; // 32
	uint32_t scalar_floats;      // 36: floats after the pose in the output
	uint32_t segment_count;      // 40
	uint32_t flags;              // 44: bit 0 looping, bit 1 has metadata
	uint32_t size;               // 48: bytes of the clip in the blob
	uint32_t name;               // 52: NUL-terminated name in the blob, 0 without metadata
	uint32_t scalar_layout;      // 56: [scalar_track_count] pairs (first float, components)
	uint32_t kernel;             // 60: NUL-terminated kernel name
} web_clip_info;
_Static_assert(sizeof(web_clip_info) == 64, "web_clip_info layout");
const web_clip_info *sinew_web_clip_info(uint32_t clip);

typedef struct web_clip {
	sinew_context *context;
	uint32_t joint_count;
	web_clip_info info;
	uint32_t *animated; // changed-bitset words with the animated outputs set (built at load)
	double last_time;   // time of the clip's previous sample
	int sampled;        // the clip has been sampled once
} web_clip;

static struct {
	int loaded;
	uint32_t clip_count;
	web_clip *clips;
	float *output;
	uint32_t *changed; // bit 3j+0/1/2: joint j rotation/translation/scale; bit 3*joints+k: scalar track k
	uint32_t changed_words;
	uint32_t last_clip; // the clip whose constants the output holds (UINT32_MAX: none)
	sinew_error error;
} g;

void *sinew_web_alloc(uint32_t size) {
	return sinewi_web_heap_alloc(size, 16);
}

const char *sinew_web_error(void) {
	return g.error.message;
}

static int fail(sinew_result code, const char *message) { // (copied: no printf in this module)
	g.error.code = code;
	size_t n = 0;
	while (message[n] && n + 1 < sizeof g.error.message) g.error.message[n] = message[n], ++n;
	g.error.message[n] = 0;
	return (int)code;
}

// Validates `blob` (which must stay in place) and prepares every clip. `options` bit 0: random
// access contexts (same cost in any playback order, more memory). `rest` and `rest_scalars` (0 for none)
// are the rest pose of a blob whose rig does not store it (a packed glTF's: sinew.mjs loadPacked reads it
// from the document); copied, they need not stay. Returns a sinew_result.
int sinew_web_load(const void *blob, uint32_t size, uint32_t options, const sinew_qvv *rest, const float *rest_scalars) {
	if (g.loaded) return fail(SINEW_RESULT_INVALID_ARGUMENT, "this instance already holds a blob");
	if (!blob && size) return fail(SINEW_RESULT_INVALID_ARGUMENT, "NULL blob");
	sinew_result r = sinew_validate(blob, size, &g.error);
	if (r != SINEW_RESULT_OK) return (int)r;
	uint32_t count = sinew_blob_clip_count(blob, size);
	web_clip *clips = (web_clip *)sinewi_web_heap_alloc((size_t)count * sizeof(web_clip) + 1, 16);
	if (!clips) return fail(SINEW_RESULT_OUT_OF_MEMORY, "out of memory (clip table)");
	sinew_context_options co = {SINEW_KERNEL_AUTO, 0, (options & 1u) ? 1 : 0, 0, rest, rest_scalars};
	size_t output_floats = 1;
	for (uint32_t i = 0; i < count; ++i) {
		web_clip *c = &clips[i];
		sinew_clip_info ci;
		r = sinew_blob_clip_info(blob, size, i, &ci, &g.error);
		if (r != SINEW_RESULT_OK) return (int)r;
		size_t need = sinew_context_size_with(blob, size, i, &co);
		if (!need) return (int)sinewi_fail(&g.error, SINEW_RESULT_CORRUPT, "clip %u: no context size", i);
		void *mem = sinewi_web_heap_alloc(need, 16);
		if (!mem) return fail(SINEW_RESULT_OUT_OF_MEMORY, "out of memory (context)");
		r = sinew_context_init(mem, need, blob, size, i, &co, &c->context, &g.error);
		if (r != SINEW_RESULT_OK) return (int)r;
		const sinew_context *ctx = c->context;
		uint32_t *layout = (uint32_t *)sinewi_web_heap_alloc((size_t)ci.scalar_track_count * 8 + 1, 16);
		if (!layout) return fail(SINEW_RESULT_OUT_OF_MEMORY, "out of memory (scalar layout)");
		uint32_t scalar_floats = 0;
		for (uint32_t s = 0; s < ci.scalar_track_count; ++s) {
			layout[2 * s] = ctx->scalars[s].output;
			layout[2 * s + 1] = ctx->scalars[s].components;
			uint32_t end = ctx->scalars[s].output + ctx->scalars[s].components;
			if (end > scalar_floats) scalar_floats = end;
		}
		c->joint_count = ci.joint_count;
		c->info = (web_clip_info){ci.sample_rate, ci.duration, ci.unit_scale, ci.sample_count, ci.joint_count,
		                          ci.scalar_track_count, scalar_floats, ci.segment_count,
		                          (ci.looping ? 1u : 0u) | (ci.has_metadata ? 2u : 0u), ci.size,
		                          (uint32_t)(uintptr_t)ci.name, (uint32_t)(uintptr_t)layout,
		                          (uint32_t)(uintptr_t)sinew_context_kernel(ctx)};
		size_t floats = (size_t)ci.joint_count * 10 + scalar_floats;
		if (floats > output_floats) output_floats = floats;
	}
	float *output = (float *)sinewi_web_heap_alloc(output_floats * sizeof(float), 16);
	if (!output) return fail(SINEW_RESULT_OUT_OF_MEMORY, "out of memory (output)");
	// The changed bitset: per clip, a mask of the outputs that are animated (the others are
	// constant and never change after a clip's first sample), so adapters can skip them.
	uint32_t max_words = 0;
	for (uint32_t i = 0; i < count; ++i) {
		web_clip *c = &clips[i];
		uint32_t words = (c->joint_count * 3 + c->info.scalar_track_count + 31) / 32;
		c->animated = (uint32_t *)sinewi_web_heap_alloc((size_t)words * 4 + 4, 16);
		if (!c->animated) return fail(SINEW_RESULT_OUT_OF_MEMORY, "out of memory (changed mask)");
		memset(c->animated, 0, (size_t)words * 4 + 4);
		const sinew_context *ctx = c->context;
		for (uint32_t j = 0; j < c->joint_count; ++j)
			for (uint32_t k = 0; k < 3; ++k)
				if (ctx->joints[j].track[k] >= 0) c->animated[(j * 3 + k) >> 5] |= 1u << ((j * 3 + k) & 31);
		for (uint32_t s = 0; s < c->info.scalar_track_count; ++s) {
			uint32_t bit = c->joint_count * 3 + s;
			if (ctx->scalars[s].track >= 0) c->animated[bit >> 5] |= 1u << (bit & 31);
		}
		if (words > max_words) max_words = words;
	}
	g.changed = (uint32_t *)sinewi_web_heap_alloc((size_t)max_words * 4 + 4, 16);
	if (!g.changed) return fail(SINEW_RESULT_OUT_OF_MEMORY, "out of memory (changed bitset)");
	g.changed_words = max_words;
	g.last_clip = UINT32_MAX;
	g.clips = clips;
	g.clip_count = count;
	g.output = output;
	g.loaded = 1;
	g.error.code = SINEW_RESULT_OK;
	g.error.message[0] = '\0';
	return SINEW_RESULT_OK;
}

uint32_t sinew_web_clip_count(void) {
	return g.clip_count;
}

// Pointer to the clip's web_clip_info, 0 when out of range.
const web_clip_info *sinew_web_clip_info(uint32_t clip) {
	return clip < g.clip_count ? &g.clips[clip].info : NULL;
}

// Samples clip `clip` at `t` seconds (clamped; NaN samples time 0) into the output buffer and
// returns it (the same pointer for every call), or 0 when `clip` is out of range.
float *sinew_web_sample(uint32_t clip, double t) {
	if (clip >= g.clip_count) return NULL;
	web_clip *c = &g.clips[clip];
	// The output keeps this clip's constants from its last full sample: then only the animated
	// outputs are decoded (a large scene's constant pose is not copied every frame).
	sinew_qvv *pose = (sinew_qvv *)(void *)g.output;
	float *scalars = g.output + (size_t)c->joint_count * 10;
	sinew_result r = g.last_clip == clip ? sinew_sample_pose_animated(c->context, t, pose, NULL, scalars)
	                                     : sinew_sample_pose(c->context, t, pose, NULL, scalars);
	if (r != SINEW_RESULT_OK) return NULL; // a paged clip whose page is not loaded: nothing written
	g.last_clip = clip;
	// changed bits: everything on the clip's first sample, nothing for the same time again,
	// otherwise the animated outputs (constant ones never change)
	uint32_t words = (c->joint_count * 3 + c->info.scalar_track_count + 31) / 32;
	if (!c->sampled) memset(g.changed, 0xFF, (size_t)words * 4);
	else if (t == c->last_time) memset(g.changed, 0, (size_t)words * 4);
	else memcpy(g.changed, c->animated, (size_t)words * 4);
	c->sampled = 1;
	c->last_time = t;
	return g.output;
}

// The changed bitset written by the last sinew_web_sample (fixed address after load).
const uint32_t *sinew_web_changed(void) {
	return g.changed;
}

#if SINEWI_PAGES
// The streaming module (web/sinew-stream*.wasm, built with paging): sinew_web_load is given a paged
// blob's resident part; pages come and go through these (docs/format.md §pages, include/sinew.h).
typedef struct web_page_info {
	uint32_t offset, size, tier, first_segment, segment_count, present; // 0..20
	double start_time, end_time;                                        // 24, 32
} web_page_info;
_Static_assert(sizeof(web_page_info) == 40, "web_page_info layout");
uint32_t sinew_web_page_count(uint32_t clip);
const web_page_info *sinew_web_page_info(uint32_t clip, uint32_t page);
int sinew_web_add_page(uint32_t clip, uint32_t page, const void *bytes, uint32_t size);
void sinew_web_drop_page(uint32_t clip, uint32_t page);
uint32_t sinew_web_pages_needed(uint32_t clip, double t, double horizon, uint32_t *out, uint32_t capacity);
uint32_t sinew_web_missing_page(uint32_t clip);
float *sinew_web_sample_ahead(uint32_t clip, double t, double horizon, uint32_t *pages, uint32_t capacity);

uint32_t sinew_web_page_count(uint32_t clip) {
	return clip < g.clip_count ? sinew_context_page_count(g.clips[clip].context) : 0u;
}

const web_page_info *sinew_web_page_info(uint32_t clip, uint32_t page) {
	static web_page_info out;
	sinew_page_info pi;
	if (clip >= g.clip_count || sinew_context_page_info(g.clips[clip].context, page, &pi) != SINEW_RESULT_OK) return NULL;
	out = (web_page_info){pi.offset, pi.size, pi.tier, pi.first_segment, pi.segment_count, (uint32_t)pi.present,
	                      pi.start_time, pi.end_time};
	return &out;
}

// Checks the bytes against the page table and installs them (they must stay in place until the
// page is dropped); a page that fails leaves the clip as it was. Returns a sinew_result.
int sinew_web_add_page(uint32_t clip, uint32_t page, const void *bytes, uint32_t size) {
	if (clip >= g.clip_count) return fail(SINEW_RESULT_OUT_OF_RANGE, "clip out of range");
	return (int)sinew_context_add_page(g.clips[clip].context, page, bytes, size, &g.error);
}

void sinew_web_drop_page(uint32_t clip, uint32_t page) {
	if (clip < g.clip_count) sinew_context_drop_page(g.clips[clip].context, page);
}

uint32_t sinew_web_pages_needed(uint32_t clip, double t, double horizon, uint32_t *out, uint32_t capacity) {
	return clip < g.clip_count ? sinew_context_pages_needed(g.clips[clip].context, t, horizon, out, capacity) : 0u;
}

uint32_t sinew_web_missing_page(uint32_t clip) {
	return clip < g.clip_count ? sinew_context_missing_page(g.clips[clip].context) : 0xFFFFFFFFu;
}

// One call per frame for a streaming player: samples clip `clip` at t (NULL when its page is
// missing) and writes the count, then the indices, of the pages [t, t + horizon] needs into
// pages[0..capacity] (pages[0] = count; at most capacity - 1 indices).
float *sinew_web_sample_ahead(uint32_t clip, double t, double horizon, uint32_t *pages, uint32_t capacity) {
	if (clip >= g.clip_count || capacity < 1) return NULL;
	pages[0] = sinew_context_pages_needed(g.clips[clip].context, t, horizon, pages + 1, capacity - 1);
	return sinew_web_sample(clip, t);
}
#endif
