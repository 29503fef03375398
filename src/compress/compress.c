// sinew — see include/sinew.h for version and licence
// sinew_compress(), the public entry point of the compress stage: validates the clips, runs the
// compressor on each (trying segment lengths at the higher levels) and serializes one blob.
#include "compress_internal.h"
#include "../core/format_layout.h"

#include <string.h>

void sinew_blob_free(void *blob, size_t size, const sinew_allocator *allocator) {
	sinewi_alloc al = sinewi_alloc_from(allocator);
	sinewi_free(&al, blob, size);
}

// The encodings of a try that held the whole clip in one segment, one per constant encoding (f32, then
// 24-bit), kept by the midpoint run for the plain run. Where no track of an encoding's searches chose
// otherwise than it would have without residuals in its costs (midpoint knots enter the search there
// only) and it did not choose midpoint knots, the plain run's lone-segment try of that constant
// encoding chooses exactly as it did, and differs from it only in the header's Segment_length: it
// stands in for that try (`same`; never for a variant that failed or was left out).
typedef struct lone_encodings {
	bool tried[2];               // variants encoded (false: none recorded, or left out)
	sinewi_enc_clip *enc[2];     // NULL where that variant failed
	size_t size[2];              // their serialized sizes (the copy's is the same: Segment_length is a fixed field)
	bool same[2];
} lone_encodings;

// One constant variant (0: f32, 1: Short_constants) of a try of segment length s->segment_length:
// encoded, or copied from `reuse` where it stands in; recorded in `record` (a lone-segment try). An
// encoding left out (sinewi_compress_clip's loses_to) comes back marked left_out, size SIZE_MAX; the
// record keeps the bound it lost to in its size, and it stands in for a try with a bound no larger.
static sinew_result encode_variant(const sinew_clip *clip, const sinewi_clip_prep *prep, sinewi_compress_settings s, int variant,
                                   sinewi_arena *arena, const sinew_allocator *allocator, lone_encodings *record,
                                   const lone_encodings *reuse, sinewi_enc_clip **out, size_t *out_size, sinew_error *error) {
	s.short_constants = variant != 0;
	sinewi_enc_clip *enc = NULL;
	sinew_result r;
	const bool copied = reuse && reuse->tried[variant] && reuse->same[variant] &&
	                    (!reuse->enc[variant]->left_out || (s.loses_to && s.loses_to <= reuse->size[variant]));
	if (copied) {
		// the same encoding, but for the header's Segment_length
		enc = (sinewi_enc_clip *)sinewi_arena_alloc(arena, sizeof *enc);
		if (!enc) return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
		*enc = *reuse->enc[variant];
		enc->segment_length = s.segment_length;
		r = SINEW_RESULT_OK;
	} else {
		// a lone-segment encoding of the midpoint run that chose otherwise somewhere: its first choices
		if (reuse && reuse->tried[variant] && reuse->enc[variant] && !reuse->enc[variant]->left_out) s.replay = reuse->enc[variant];
		r = sinewi_compress_clip(clip, prep, &s, arena, &enc, error);
	}
	const bool ok = r == SINEW_RESULT_OK, left_out = ok && enc->left_out;
	const size_t size = !ok || left_out ? SIZE_MAX : copied ? reuse->size[variant] : sinewi_serialized_clip_size(enc, s.rest_defaults, allocator);
	if (record) {
		record->tried[variant] = true;
		record->enc[variant] = ok ? enc : NULL;
		record->same[variant] = ok && !enc->plain_differs && !enc->midpoint && enc->segment_count == 1;
		record->size[variant] = left_out ? s.loses_to : size;
	}
	*out = ok ? enc : NULL;
	*out_size = size;
	return r;
}

// Levels high and highest (without an explicit segment length) try 2 or 4 segment lengths per clip
// and keep the smallest result; fast and default use one. The default level compresses a clip of at
// most two default segments (65 samples) as the high level does: such clips cost little, and their
// fixed costs and single segments leave the bit-rate search more to gain. Each encoding is also tried
// with 24-bit constants (Short_constants) when they could save 1 % of it: they save a byte per value
// but spend some of the error budget, which can cost knot bits elsewhere (long clips, whose constants
// are a small share, are not encoded twice). Keeps the smallest in *best (*best_size), the f32 one on
// a tie. With `record`, the lone-segment try's encodings go there; with `reuse`, those marked `same`
// stand in for that try.
//
// Short clips encode Short_constants first: the f32 encoding then stops as soon as it is sure to be the
// larger one (sinewi_compress_clip's loses_to: its kinds leave it larger whatever its knots, and it
// meets the bound), and the result is the one trying both gives (a clip of 1 or 2 samples, whose knots
// are few beside its constants, skips the f32 encoding's refinement and serialization). Otherwise both
// are weighed as in turn.
static sinew_result encode_clip(const sinew_clip *clip, const sinewi_clip_prep *prep, const sinewi_compress_settings *settings,
                                bool explicit_length, sinewi_arena *arena, const sinew_allocator *allocator,
                                lone_encodings *record, const lone_encodings *reuse, sinewi_enc_clip **best, size_t *best_size, sinew_error *error) {
	static const uint32_t plain_lengths[] = {32, 24, 16, 48}, midpoint_lengths[] = {40, 32, 24, 48};
	sinewi_compress_settings clip_settings = *settings;
	const bool short_clip = clip->sample_count <= SINEWI_SHORT_CLIP_SAMPLES;
	if (settings->level == SINEW_LEVEL_DEFAULT && short_clip) clip_settings.level = SINEW_LEVEL_HIGH;
	const bool search_lengths = !explicit_length && clip_settings.level >= SINEW_LEVEL_HIGH;
	const size_t tries = settings->level >= SINEW_LEVEL_HIGHEST ? 4 : 2;
	const bool short_first = short_clip && settings->tier_count <= 1;
	bool lone_tried = false; // a length that holds the whole clip in one segment was tried
	for (size_t l = 0; l < (search_lengths ? tries : 1); ++l) {
		const uint32_t length = search_lengths ? (settings->midpoint ? midpoint_lengths : plain_lengths)[l] : settings->segment_length;
		// every length that holds the clip (at most sample_count intervals) in one segment gives the same
		// encoding but for the header's Segment_length, and the first is kept: one try is enough
		if (search_lengths && clip->sample_count <= length) {
			if (lone_tried) continue;
			lone_tried = true;
		}
		const uint32_t intervals = clip->sample_count - (clip->looping ? 0u : 1u); // at most: a repeated loop sample is dropped
		const bool lone = intervals <= length;
		lone_encodings *rec = record && lone ? record : NULL;
		const lone_encodings *use = reuse && lone ? reuse : NULL;
		if (rec) memset(rec, 0, sizeof *rec);
		sinewi_compress_settings s = clip_settings;
		s.segment_length = length;
		sinewi_enc_clip *enc[2] = {NULL, NULL};
		size_t size[2] = {SIZE_MAX, SIZE_MAX};
		sinew_result r[2] = {SINEW_RESULT_OK, SINEW_RESULT_OK};
		if (short_first) {
			r[1] = encode_variant(clip, prep, s, 1, arena, allocator, rec, use, &enc[1], &size[1], error);
			if (r[1] == SINEW_RESULT_OK && !enc[1]->over_bound) s.loses_to = size[1];
		}
		r[0] = encode_variant(clip, prep, s, 0, arena, allocator, rec, use, &enc[0], &size[0], error);
		if (r[0] != SINEW_RESULT_OK) return r[0];
		if (enc[0]->left_out) { // sure to be larger than the Short_constants encoding
			if (size[1] < *best_size) *best_size = size[1], *best = enc[1];
			continue;
		}
		if (size[0] < *best_size) *best_size = size[0], *best = enc[0];
		if ((uint64_t)sinewi_enc_constant_count(enc[0]) * 100 < size[0]) continue; // (Short_constants not weighed)
		if (!short_first) r[1] = encode_variant(clip, prep, s, 1, arena, allocator, rec, use, &enc[1], &size[1], error);
		if (r[1] != SINEW_RESULT_OK) continue; // the f32 encoding stands
		if (size[1] < *best_size) *best_size = size[1], *best = enc[1];
	}
	return SINEW_RESULT_OK;
}

typedef struct clip_tasks {
	const sinew_clip_set *set;
	sinewi_compress_settings settings;
	const sinew_compress_options *options;
	const sinew_allocator *allocator;
	bool explicit_length;
	sinewi_arena *arenas;      // [clip]
	sinewi_enc_clip **encoded; // [clip]
	sinew_result *results;     // [clip]
	sinew_error *errors;       // [clip]
} clip_tasks;

// Encodes clip i into tasks->encoded[i] (its tries, the smallest kept), timed when the caller gave a clock.
static void clip_task(void *arg, uint32_t i) {
	clip_tasks *tasks = (clip_tasks *)arg;
	const sinew_compress_options *options = tasks->options;
	const sinewi_compress_settings *settings = &tasks->settings;
	const sinew_clip *clip = tasks->set->clips[i];
	sinewi_arena *arena = &tasks->arenas[i];
	sinew_error *error = &tasks->errors[i];
	const bool timed = options && options->now_ns && options->clip_ns;
	const uint64_t t0 = timed ? options->now_ns(options->now_user) : 0;
	size_t best_size = SIZE_MAX;
	lone_encodings lone = {0};
	// the segment searches of every encoding of the clip reuse one scratch arena when they run on this thread
	sinewi_arena scratch;
	sinewi_arena_init(&scratch, tasks->allocator);
	sinewi_compress_settings clip_settings = *settings;
	// a short clip's few searches cost less than handing them out (93_01 with two threads: 394 against
	// 318 µs), and on one thread they share a scratch arena and what they learn (refine_memo.c, prep->fits)
	if (clip->sample_count <= SINEWI_SHORT_CLIP_SAMPLES) clip_settings.jobs = NULL;
	if (!clip_settings.jobs) clip_settings.scratch = &scratch;
	settings = &clip_settings;
	// the samples and error model every encoding of the clip reads
	sinewi_clip_prep prep;
	sinew_result r = sinewi_prepare_clip(clip, settings, arena, &prep, error);
	if (r == SINEW_RESULT_OK)
		r = encode_clip(clip, &prep, settings, tasks->explicit_length, arena, tasks->allocator,
		                settings->midpoint ? &lone : NULL, NULL, &tasks->encoded[i], &best_size, error);
	// A clip that midpoint knots do not make smaller (short clips, noisy ones) is encoded as without
	// them too, and takes that encoding unless it is larger: the search that counted residual bits,
	// and the longer default segments, were for nothing there (Flamingo.glb: 964 bytes that way, 832
	// plain).
	if (r == SINEW_RESULT_OK && settings->midpoint && !tasks->encoded[i]->midpoint) {
		sinewi_compress_settings plain = *settings;
		plain.midpoint = false;
		if (!tasks->explicit_length) plain.segment_length = SINEWI_PLAIN_SEGMENT_LENGTH;
		sinewi_enc_clip *plain_enc = NULL;
		size_t plain_size = SIZE_MAX;
		sinew_error plain_error = {0}; // the midpoint encoding stands if this one fails
		sinew_result pr = encode_clip(clip, &prep, &plain, tasks->explicit_length, arena, tasks->allocator, NULL, &lone,
		                              &plain_enc, &plain_size, &plain_error);
		if (pr == SINEW_RESULT_OK && plain_size <= best_size) tasks->encoded[i] = plain_enc;
		else if (pr == SINEW_RESULT_OUT_OF_MEMORY) r = sinewi_fail(error, pr, "%s", plain_error.message);
	}
	// Curves (docs/format.md §curves): a clip whose animated tracks all have their source curves is also encoded as
	// those curves (the kinds and constants of its sample encoding), with f32 and with 16-bit ranges, and takes the
	// smallest encoding (not in pages or tiers, which are made of segments)
	if (r == SINEW_RESULT_OK && clip->curve_count && settings->tier_count <= 1 && !(options && options->page_bytes)) {
		size_t size = sinewi_serialized_clip_size(tasks->encoded[i], settings->rest_defaults, tasks->allocator);
		for (int half = 0; half < 2 && r == SINEW_RESULT_OK; ++half) {
			sinewi_enc_clip *curves = NULL;
			r = sinewi_encode_curves(clip, &prep, tasks->encoded[i]->curves ? tasks->encoded[i]->curves_base : tasks->encoded[i],
			                         half != 0, arena, &curves, error);
			if (r != SINEW_RESULT_OK || !curves) continue;
			const size_t curve_size = sinewi_serialized_clip_size(curves, settings->rest_defaults, tasks->allocator);
			if (curve_size < size) tasks->encoded[i] = curves, size = curve_size;
		}
	}
	sinewi_arena_free(&scratch);
	tasks->results[i] = r;
	if (timed) options->clip_ns[i] = options->now_ns(options->now_user) - t0;
}

static bool same_name(const char *a, const char *b) {
	return a == b || (a && b && strcmp(a, b) == 0);
}

sinew_result sinewi_check_rig(const sinew_clip_set *set, sinew_error *error) {
	const sinew_clip *a = set->clips[0];
	for (uint32_t c = 1; c < set->clip_count; ++c) {
		const sinew_clip *b = set->clips[c];
		const char *name = b->name ? b->name : "";
		SINEWI_CHECK(b->joint_count == a->joint_count && b->scalar_track_count == a->scalar_track_count, error,
		             SINEW_RESULT_BAD_COUNT,
		             "clip %u '%.64s' has %u joints and %u scalar tracks, clip 0 %u and %u: the clips of one blob share one rig "
		             "(compress them into separate blobs)", c, name, b->joint_count, b->scalar_track_count, a->joint_count,
		             a->scalar_track_count);
		SINEWI_CHECK(b->unit_scale == a->unit_scale, error, SINEW_RESULT_BAD_COUNT,
		             "clip %u '%.64s' is in other units than clip 0 (%g and %g per metre): the clips of one blob share one rig", c,
		             name, b->unit_scale, a->unit_scale);
		for (uint32_t j = 0; j < a->joint_count; ++j) {
			const sinew_joint *x = &a->joints[j], *y = &b->joints[j];
			SINEWI_CHECK(x->parent == y->parent && x->source_index == y->source_index && same_name(x->name, y->name) &&
			                 memcmp(&x->default_pose, &y->default_pose, sizeof x->default_pose) == 0 &&
			                 x->shell_distance == y->shell_distance && x->precision == y->precision,
			             error, SINEW_RESULT_BAD_COUNT,
			             "clip %u '%.64s' joint %u '%.64s' differs from clip 0's (parent, name, source, rest pose or shell): the "
			             "clips of one blob share one rig", c, name, j, y->name ? y->name : "");
		}
		for (uint32_t i = 0; i < a->scalar_track_count; ++i) {
			const sinew_scalar_track *x = &a->scalar_tracks[i], *y = &b->scalar_tracks[i];
			SINEWI_CHECK(x->components == y->components && x->source_node == y->source_node &&
			                 x->source_target == y->source_target && same_name(x->name, y->name) &&
			                 memcmp(x->default_value, y->default_value, sizeof x->default_value) == 0,
			             error, SINEW_RESULT_BAD_COUNT,
			             "clip %u '%.64s' scalar track %u '%.64s' differs from clip 0's (components, name, source or default): "
			             "the clips of one blob share one rig", c, name, i, y->name ? y->name : "");
		}
	}
	return SINEW_RESULT_OK;
}

sinew_result sinew_compress(const sinew_clip_set *set, const sinew_compress_options *options,
                            const sinew_allocator *allocator, void **out_blob, size_t *out_size, sinew_error *error) {
	SINEWI_CHECK(set && out_blob && out_size, error, SINEW_RESULT_INVALID_ARGUMENT, "compress: NULL argument");
	*out_blob = NULL;
	*out_size = 0;
	SINEWI_CHECK(set->clip_count > 0, error, SINEW_RESULT_BAD_COUNT, "compress: the set has no clips");
	for (uint32_t i = 0; i < set->clip_count; ++i) {
		sinew_error inner = {0};
		sinew_result r = sinew_clip_validate(set->clips[i], &inner);
		if (r != SINEW_RESULT_OK) return sinewi_fail(error, r, "clip %u: %s", i, inner.message);
		SINEWI_CHECK(set->clips[i]->joint_count <= SINEW_FMT_MAX_JOINTS &&
		                 set->clips[i]->scalar_track_count <= SINEW_FMT_MAX_SCALARS,
		             error, SINEW_RESULT_UNSUPPORTED, "clip %u: more than 65535 joints or scalar tracks", i);
	}
	SINEWI_TRY(sinewi_check_rig(set, error));
	if (options && options->tier_count > 1) {
		SINEWI_CHECK(options->tier_count <= SINEW_MAX_TIERS, error, SINEW_RESULT_INVALID_ARGUMENT,
		             "compress: %u tiers (at most %u)", options->tier_count, SINEW_MAX_TIERS);
		for (uint32_t k = 0; k < options->tier_count; ++k)
			SINEWI_CHECK(options->tier_error_cm[k] > 0.0 && (k == 0 || options->tier_error_cm[k] < options->tier_error_cm[k - 1]),
			             error, SINEW_RESULT_INVALID_ARGUMENT, "compress: tier bounds must be positive and decreasing");
		SINEWI_CHECK(!(options->error_cm > 0.0) || options->error_cm == options->tier_error_cm[options->tier_count - 1], error,
		             SINEW_RESULT_INVALID_ARGUMENT, "compress: the last tier bound (%g cm) must be error_cm (%g cm)",
		             options->tier_error_cm[options->tier_count - 1], options->error_cm);
	}
	sinewi_compress_settings settings;
	sinewi_compress_settings_resolve(options, &settings);
	for (uint32_t i = 0; i < set->clip_count; ++i) SINEWI_TRY(sinewi_check_source_bound(set->clips[i], &settings, allocator, error));
	clip_tasks tasks;
	memset(&tasks, 0, sizeof tasks);
	tasks.set = set;
	tasks.settings = settings;
	tasks.options = options;
	tasks.allocator = allocator;
	tasks.explicit_length = options && options->segment_length;
	// several clips: a clip per task (each searches its segments on its own thread); a lone clip spreads
	// its segments over the jobs instead (tasks never start tasks)
	const bool per_clip = settings.jobs && set->clip_count > 1;
	if (per_clip) tasks.settings.jobs = NULL;
	sinewi_arena arena; // the blob's page bookkeeping; each clip's encoding lives in an arena of its own
	sinewi_arena_init(&arena, allocator);
	tasks.arenas = (sinewi_arena *)sinewi_arena_array(&arena, set->clip_count, sizeof *tasks.arenas);
	tasks.encoded = (sinewi_enc_clip **)sinewi_arena_array(&arena, set->clip_count, sizeof *tasks.encoded);
	tasks.results = (sinew_result *)sinewi_arena_array(&arena, set->clip_count, sizeof *tasks.results);
	tasks.errors = (sinew_error *)sinewi_arena_array(&arena, set->clip_count, sizeof *tasks.errors);
	if (!tasks.arenas || !tasks.encoded || !tasks.results || !tasks.errors) {
		sinewi_arena_free(&arena);
		return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "compress: out of memory");
	}
	for (uint32_t i = 0; i < set->clip_count; ++i) sinewi_arena_init(&tasks.arenas[i], allocator);
	if (per_clip) settings.jobs->run(settings.jobs->user, clip_task, &tasks, set->clip_count);
	else
		for (uint32_t i = 0; i < set->clip_count; ++i) clip_task(&tasks, i);
	sinew_result r = SINEW_RESULT_OK;
	for (uint32_t i = 0; i < set->clip_count && r == SINEW_RESULT_OK; ++i) // the first clip that failed, as in turn
		if ((r = tasks.results[i]) != SINEW_RESULT_OK && error) *error = tasks.errors[i];
	// tiers are pages of their own: a tiered blob is paged (64 KB pages unless asked otherwise)
	const uint32_t page_target = options && options->page_bytes ? options->page_bytes : settings.tier_count > 1 ? 65536u : 0u;
	if (r == SINEW_RESULT_OK)
		r = sinewi_serialize(tasks.encoded, set->clip_count, settings.rig, page_target, &arena, allocator, out_blob, out_size,
		                     error);
	for (uint32_t i = 0; i < set->clip_count; ++i) sinewi_arena_free(&tasks.arenas[i]);
	sinewi_arena_free(&arena);
	return r;
}
