// sinew — see include/sinew.h for version and licence
// The raw clip model: clip sets own every clip, name and array through one arena.
#include "../core/base.h"
#include "../core/codec_math.h"
#include "../core/quat.h"
#include "clip_internal.h"

#include <string.h>

typedef struct clip_set_internal {
	sinewi_arena arena;
	uint32_t capacity; // of set->clips
} clip_set_internal;

sinew_result sinew_clip_set_create(sinew_clip_set **out, const sinew_allocator *allocator) {
	if (!out) return SINEW_RESULT_INVALID_ARGUMENT;
	*out = NULL;
	sinewi_arena arena;
	sinewi_arena_init(&arena, allocator);
	sinew_clip_set *set = (sinew_clip_set *)sinewi_arena_alloc(&arena, sizeof *set);
	clip_set_internal *in = (clip_set_internal *)sinewi_arena_alloc(&arena, sizeof *in);
	if (!set || !in) {
		sinewi_arena_free(&arena);
		return SINEW_RESULT_OUT_OF_MEMORY;
	}
	in->arena = arena; // the arena's blocks now hold `set` and `in` themselves
	set->internal = in;
	*out = set;
	return SINEW_RESULT_OK;
}

void sinew_clip_set_free(sinew_clip_set *set) {
	if (!set) return;
	clip_set_internal *in = (clip_set_internal *)set->internal;
	sinewi_arena arena = in->arena; // copy first: freeing releases `in`
	sinewi_arena_free(&arena);
}

static sinewi_arena *set_arena(sinew_clip_set *set) {
	return &((clip_set_internal *)set->internal)->arena;
}

const char *sinew_clip_set_strdup(sinew_clip_set *set, const char *text) {
	return set && text ? sinewi_arena_strdup(set_arena(set), text) : NULL;
}

void *sinew_clip_set_alloc(sinew_clip_set *set, size_t size) {
	return set ? sinewi_arena_alloc(set_arena(set), size) : NULL;
}

sinew_result sinew_clip_set_add_clip(sinew_clip_set *set, const sinew_clip_desc *desc, sinew_clip **out_clip) {
	if (!set || !desc) return SINEW_RESULT_INVALID_ARGUMENT;
	clip_set_internal *in = (clip_set_internal *)set->internal;
	sinewi_arena *arena = &in->arena;
	if (set->clip_count == in->capacity) {
		uint32_t cap = in->capacity ? in->capacity * 2 : 4;
		sinew_clip **clips = (sinew_clip **)sinewi_arena_array(arena, cap, sizeof *clips);
		if (!clips) return SINEW_RESULT_OUT_OF_MEMORY;
		if (set->clip_count) memcpy(clips, set->clips, set->clip_count * sizeof *clips);
		set->clips = clips;
		in->capacity = cap;
	}
	sinew_clip *clip = (sinew_clip *)sinewi_arena_alloc(arena, sizeof *clip);
	if (!clip) return SINEW_RESULT_OUT_OF_MEMORY;
	clip->name = desc->name ? sinewi_arena_strdup(arena, desc->name) : NULL;
	clip->sample_rate = desc->sample_rate;
	clip->sample_count = desc->sample_count;
	clip->joint_count = desc->joint_count;
	clip->scalar_track_count = desc->scalar_track_count;
	clip->unit_scale = 1.0;
	clip->rounding = SINEW_ROUNDING_NONE;

	size_t n_transforms;
	if (!sinewi_mul_size(desc->sample_count, desc->joint_count, &n_transforms)) return SINEW_RESULT_OUT_OF_MEMORY;
	{ // never NULL, even without joints, so pointer arithmetic on them is always defined
		clip->joints = (sinew_joint *)sinewi_arena_array(arena, desc->joint_count ? desc->joint_count : 1, sizeof(sinew_joint));
		clip->transforms = (sinew_qvv *)sinewi_arena_array(arena, n_transforms ? n_transforms : 1, sizeof(sinew_qvv));
		if (!clip->joints || !clip->transforms) return SINEW_RESULT_OUT_OF_MEMORY;
		for (uint32_t j = 0; j < desc->joint_count; ++j) {
			sinew_joint *joint = &clip->joints[j];
			joint->parent = -1;
			joint->source_index = -1;
			joint->rounding = SINEW_ROUNDING_CLIP;
			joint->has_track = 1;
			sinewi_qvv_identity(&joint->default_pose);
		}
		for (size_t i = 0; i < n_transforms; ++i) sinewi_qvv_identity(&clip->transforms[i]);
	}
	if (desc->scalar_track_count) {
		clip->scalar_tracks =
		    (sinew_scalar_track *)sinewi_arena_array(arena, desc->scalar_track_count, sizeof(sinew_scalar_track));
		if (!clip->scalar_tracks) return SINEW_RESULT_OUT_OF_MEMORY;
		for (uint32_t i = 0; i < desc->scalar_track_count; ++i) {
			sinew_scalar_track *track = &clip->scalar_tracks[i];
			uint32_t c = desc->scalar_components ? desc->scalar_components[i] : 1;
			if (c < 1 || c > 4) return SINEW_RESULT_INVALID_ARGUMENT;
			track->components = c;
			track->rounding = SINEW_ROUNDING_CLIP;
			track->has_track = 1;
			track->source_node = -1;
			track->source_target = -1;
			size_t n;
			if (!sinewi_mul_size(desc->sample_count ? desc->sample_count : 1, c, &n)) return SINEW_RESULT_OUT_OF_MEMORY;
			track->values = (float *)sinewi_arena_array(arena, n, sizeof(float));
			if (!track->values) return SINEW_RESULT_OUT_OF_MEMORY;
		}
	}
	set->clips[set->clip_count++] = clip;
	if (out_clip) *out_clip = clip;
	return SINEW_RESULT_OK;
}

uint64_t sinew_clip_raw_size(const sinew_clip *clip) {
	uint64_t size = (uint64_t)clip->joint_count * clip->sample_count * 10u * 4u;
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i)
		size += (uint64_t)clip->scalar_tracks[i].components * clip->sample_count * 4u;
	return size;
}

double sinew_clip_duration(const sinew_clip *clip) {
	if (clip->sample_count <= 1 || !(clip->sample_rate > 0.0)) return 0.0;
	if (clip->time_mark_count >= 2 && clip->time_marks) return clip->time_marks[clip->time_mark_count - 1].time;
	return (double)(clip->sample_count - 1) / clip->sample_rate;
}

double sinewi_key_time(double rate, const sinew_time_mark *m, uint32_t n, double key) {
	if (!(n >= 2 && m)) return key / rate;
	uint32_t lo = 0, hi = n - 1; // the last mark with m.sample <= key, below the last mark
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if ((double)m[mid].sample <= key) lo = mid;
		else hi = mid;
	}
	return sinewi_map_time(key, m[lo].time, m[lo + 1].time, m[lo].sample, m[lo + 1].sample);
}

double sinewi_time_key(double rate, uint32_t count, const sinew_time_mark *m, uint32_t n, double t) {
	const double last = (double)(count - 1);
	if (!(n >= 2 && m)) {
		double key = t * rate;
		return !(key > 0.0) ? 0.0 : key > last ? last : key;
	}
	uint32_t lo = 0, hi = n - 1;
	if (!(t > m[0].time)) return 0.0;
	if (t >= m[hi].time) return last;
	while (hi - lo > 1) { // the last mark with time <= t
		uint32_t mid = lo + (hi - lo) / 2;
		if (m[mid].time <= t) lo = mid;
		else hi = mid;
	}
	return sinewi_map_key(t, m[lo].time, m[lo + 1].time, m[lo].sample, m[lo + 1].sample);
}

double sinew_clip_sample_time(const sinew_clip *clip, double sample) {
	return sinewi_key_time(clip->sample_rate, clip->time_marks, clip->time_mark_count, sample);
}

double sinewi_clip_key(const sinew_clip *clip, double t) {
	return sinewi_time_key(clip->sample_rate, clip->sample_count, clip->time_marks, clip->time_mark_count, t);
}
