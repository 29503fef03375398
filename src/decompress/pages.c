// sinew — see include/sinew.h for version and licence
// Paged clips (docs/format.md §pages): pages handed in and dropped by the caller, checked against
// the resident part before use, and the pages a time range needs (prefetch and seeking).
#include <math.h>
#include <string.h>

#include "../core/bits.h"
#include "../core/format_layout.h"
#include "context.h"

uint32_t sinew_blob_resident_size(const void *blob, size_t size) {
	const unsigned char *b = (const unsigned char *)blob;
	if (!b || size < SINEW_FMT_V3_HEADER_SIZE || memcmp(b, SINEW_FMT_MAGIC, 4) != 0) return 0;
	uint32_t version = sinewi_rd16(b + SINEW_FMT_HDR_VERSION);
	if (version < SINEW_FMT_VERSION_FIRST || version > SINEW_FMT_VERSION_LATEST) return 0;
	if (version < 3 && size < SINEW_FMT_HEADER_SIZE) return 0;
	const bool paged3 = version >= 3 && (sinewi_rd16(b + SINEW_FMT_V3_HDR_BLOB_FLAGS) & SINEW_FMT_BLOB_PAGED);
	if (paged3 && size < SINEW_FMT_V3_HEADER_SIZE + 4) return 0;
	uint32_t resident = version >= 3 ? (paged3 ? sinewi_rd32(b + SINEW_FMT_V3_HDR_RESIDENT_SIZE) : 0u)
	                    : version >= 2 ? sinewi_rd32(b + SINEW_FMT_HDR_RESIDENT_SIZE) : 0u;
	return resident ? resident : sinewi_rd32(b + SINEW_FMT_HDR_TOTAL_SIZE);
}

uint32_t sinew_context_page_count(const sinew_context *context) {
	return context ? context->view.page_count : 0u;
}

sinew_result sinew_context_page_info(const sinew_context *context, uint32_t page, sinew_page_info *out) {
	if (!context || !out) return SINEW_RESULT_INVALID_ARGUMENT;
	const sinewi_clip_view *v = &context->view;
	if (page >= v->page_count) return SINEW_RESULT_OUT_OF_RANGE;
	sinewi_page_entry e;
	sinewi_page_entry_of(v, page, &e);
	uint32_t first = e.first_segment * v->segment_length;
	uint32_t last = (e.first_segment + e.segment_count) * v->segment_length;
	if (last > v->stored_sample_count - 1) last = v->stored_sample_count - 1;
	out->first_segment = e.first_segment;
	out->segment_count = e.segment_count;
	out->offset = e.offset;
	out->size = e.size;
	out->start_time = sinewi_view_time(v, first);
	out->end_time = sinewi_view_time(v, last);
	out->present = context->pages[page] != NULL;
	out->tier = context->page_tier[page];
	return SINEW_RESULT_OK;
}

sinew_result sinew_page_check(const void *blob, size_t blob_size, uint32_t clip, uint32_t page, const void *bytes,
                              size_t size, sinew_error *error) {
	sinewi_clip_view v;
	SINEWI_TRY(sinewi_read_clip((const unsigned char *)blob, blob_size, clip, &v, error));
	SINEWI_CHECK(v.page_count, error, SINEW_RESULT_OUT_OF_RANGE, "clip %u is not paged", clip);
	// track types in track order, from the descriptors (a context has them in its track table)
	uint8_t types[3 * 256 + 256], comps[3 * 256 + 256];
	SINEWI_CHECK((uint64_t)v.track_count <= sizeof types, error, SINEW_RESULT_UNSUPPORTED,
	             "page_check: more than %zu animated tracks; check pages with sinew_context_add_page", sizeof types);
	sinewi_track_types(&v, types, comps, (uint32_t)sizeof types);
	return sinewi_check_page(&v, page, (const unsigned char *)bytes, size, true, types, comps, 1, error);
}

// Forgets the cached parameters of the segments `page` holds: they may point into it, or (a finer
// tier arriving) no longer be the ones to play. They are filled again from the present pages.
static void forget_page(sinew_context *ctx, uint32_t page) {
	sinewi_page_entry e;
	sinewi_page_entry_of(&ctx->view, page, &e);
	if (ctx->cached_segment - e.first_segment < e.segment_count) ctx->cached_segment = UINT32_MAX;
	if (ctx->prefill_segment - e.first_segment < e.segment_count) ctx->prefill_segment = UINT32_MAX;
	if (ctx->direct_segment - e.first_segment < e.segment_count) ctx->direct_segment = UINT32_MAX;
}

// Random-access contexts: the parameters of the page's segments, from the finest present tier.
static void refill_page(sinew_context *ctx, uint32_t page) {
	if (!ctx->random_access) return;
	sinewi_page_entry e;
	sinewi_page_entry_of(&ctx->view, page, &e);
	for (uint32_t k = 0; k < e.segment_count; ++k)
		if (sinewi_segment_bytes(ctx, e.first_segment + k)) sinewi_fill_segment(ctx, e.first_segment + k);
}

sinew_result sinew_context_add_page(sinew_context *context, uint32_t page, const void *bytes, size_t size,
                                    sinew_error *error) {
	SINEWI_CHECK(context, error, SINEW_RESULT_INVALID_ARGUMENT, "add_page: NULL context");
	const sinewi_clip_view *v = &context->view;
	SINEWI_CHECK(v->page_count, error, SINEW_RESULT_OUT_OF_RANGE, "add_page: the clip is not paged");
	SINEWI_CHECK(page < v->page_count, error, SINEW_RESULT_OUT_OF_RANGE, "add_page: page %u of %u", page, v->page_count);
	const sinewi_track_entry *t = context->tracks;
	static const uint8_t none = 0;
	SINEWI_TRY(sinewi_check_page(v, page, (const unsigned char *)bytes, size, true, t ? &t->type : &none,
	                             t ? &t->components : &none, sizeof *t, error));
	forget_page(context, page);
	context->pages[page] = (const unsigned char *)bytes;
	refill_page(context, page);
	return SINEW_RESULT_OK;
}

void sinew_context_drop_page(sinew_context *context, uint32_t page) {
	if (!context || page >= context->view.page_count || !context->pages[page]) return;
	forget_page(context, page);
	context->pages[page] = NULL;
	refill_page(context, page); // a coarser tier's page may still hold them
}

uint32_t sinew_context_missing_page(const sinew_context *context) {
	return context ? context->missing_page : UINT32_MAX;
}

// Pages listed so far by sinew_context_pages_needed for one tier: a page can only repeat where
// the two ranges of a wrapped window meet, at the first page listed or the last.
typedef struct page_list {
	uint32_t *pages, capacity, count;
	uint32_t first, last; // of the current tier (UINT32_MAX: none yet)
} page_list;

static void list_page(page_list *l, uint32_t p) {
	if (p == l->last || p == l->first) return;
	if (l->count < l->capacity) l->pages[l->count] = p;
	l->count++;
	if (l->first == UINT32_MAX) l->first = p;
	l->last = p;
}

// Appends tier t's pages of the segments keys [a, b] need, in playback order: a page at a time
// (its segments are consecutive), so the work is the number of pages, not of segments.
static void add_keys(const sinew_context *ctx, uint32_t t, double a, double b, bool forward, page_list *l) {
	const sinewi_clip_view *v = &ctx->view;
	// floor(a) covers every mode at the start; the end rounds up only for tracks rounding up
	const bool up = (ctx->modes_used & ((1u << SINEW_ROUNDING_CEIL) | (1u << SINEW_ROUNDING_NEAREST))) != 0;
	uint32_t lo = (uint32_t)floor(a) / v->segment_length, hi = (uint32_t)(up ? ceil(b) : floor(b)) / v->segment_length;
	if (lo >= v->segment_count) lo = v->segment_count - 1;
	if (hi >= v->segment_count) hi = v->segment_count - 1;
	const uint32_t *page_of = ctx->segment_page + (size_t)t * v->segment_count;
	for (uint32_t s = forward ? lo : hi;;) {
		uint32_t p = page_of[s];
		list_page(l, p);
		sinewi_page_entry e;
		sinewi_page_entry_of(v, p, &e);
		if (forward) {
			if (e.first_segment + e.segment_count > hi) break;
			s = e.first_segment + e.segment_count;
		} else {
			if (e.first_segment <= lo) break;
			s = e.first_segment - 1;
		}
	}
}

uint32_t sinew_context_pages_needed(const sinew_context *context, double t, double horizon, uint32_t *pages,
                                    uint32_t capacity) {
	if (!context || !context->view.page_count) return 0;
	const sinewi_clip_view *v = &context->view;
	const bool looping = (v->flags & SINEW_FMT_FLAG_LOOPING) != 0;
	const double last = (double)(v->stored_sample_count - 1);
	double k0 = sinewi_key_for_time(context, t);
	if (looping && last > 0.0 && isfinite(t)) { // where playback is in the loop
		double x = t * v->sample_rate, key = x - floor(x / last) * last; // in [0, last] (no libm fmod: wasm)
		k0 = sinewi_key_for_time(context, key / v->sample_rate);
	}
	double span = isfinite(horizon) ? fabs(horizon) * v->sample_rate : 0.0;
	if (v->mark_count && isfinite(t) && isfinite(horizon)) // samples off a uniform grid (never looping)
		span = fabs(sinewi_key_for_time(context, t + horizon) - k0);
	if (span > last) span = last;
	page_list l = {pages, capacity, 0, UINT32_MAX, UINT32_MAX};
	// the base tier's pages first (what playback cannot do without), then each finer tier's
	for (uint32_t tier = 0; tier < context->tiers; ++tier) {
		l.first = l.last = UINT32_MAX;
		if (horizon >= 0.0 || !isfinite(horizon)) {
			double end = k0 + span;
			add_keys(context, tier, k0, end < last ? end : last, true, &l);
			if (looping && end > last) add_keys(context, tier, 0.0, end - last, true, &l);
		} else {
			double begin = k0 - span;
			add_keys(context, tier, begin > 0.0 ? begin : 0.0, k0, false, &l);
			if (looping && begin < 0.0) add_keys(context, tier, last + begin, last, false, &l);
		}
	}
	return l.count;
}
