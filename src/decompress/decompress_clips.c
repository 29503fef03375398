// sinew — see include/sinew.h for version and licence
// Whole-blob decompression into clips (for export and for measuring error).
#include <math.h>
#include <string.h>

#include "../core/bits.h"
#include "../core/quat.h"
#include "../core/format_layout.h"
#include "context.h"

// Every sub-track of the joint plays its default pose (kind DEFAULT, or IDENTITY where the default
// is the identity): the joint is there for the hierarchy only, and exporters write no channel for it.
static bool at_default_pose(uint32_t kinds, const sinew_qvv *d) {
	for (uint32_t sub = 0; sub < 3; ++sub) {
		uint32_t kind = (kinds >> (2 * sub)) & 3u;
		if (kind == 1) continue;
		if (kind != 0) return false;
		bool identity = sub == 0   ? d->rotation[0] == 0.0f && d->rotation[1] == 0.0f && d->rotation[2] == 0.0f &&
		                                 fabsf(d->rotation[3]) == 1.0f
		                : sub == 1 ? d->translation[0] == 0.0f && d->translation[1] == 0.0f && d->translation[2] == 0.0f
		                           : d->scale[0] == 1.0f && d->scale[1] == 1.0f && d->scale[2] == 1.0f;
		if (!identity) return false;
	}
	return true;
}

static const char *meta_string(const sinewi_clip_view *v, uint32_t offset) {
	if (!v->metadata || offset == SINEW_FMT_NO_STRING) return NULL;
	return (const char *)v->metadata + sinewi_rd32(v->metadata + 8) + offset;
}

// A curve clip's curves as the blob stores them (docs/format.md §curves): every animated track's key times and its
// dequantized values (CUBICSPLINE: in-tangent, value, out-tangent per key), for exporters to write the curves back
// rather than samples of them. Tracks sharing a key time set share its times.
static sinew_result decode_curves(const sinew_context *ctx, sinew_clip_set *set, sinew_clip *clip) {
	const sinewi_clip_view *v = &ctx->view;
	uint32_t time_count = 0;
	for (uint32_t ti = 0; ti < v->track_count; ++ti)
		if (ctx->curves[ti].first + ctx->curves[ti].keys > time_count) time_count = ctx->curves[ti].first + ctx->curves[ti].keys;
	sinew_curve *curves = (sinew_curve *)sinew_clip_set_alloc(set, (size_t)v->track_count * sizeof(sinew_curve));
	float *times = (float *)sinew_clip_set_alloc(set, (size_t)time_count * sizeof(float));
	if (!curves || !times) return SINEW_RESULT_OUT_OF_MEMORY;
	for (uint32_t i = 0; i < time_count; ++i) times[i] = sinewi_rdf32(v->curve_times + 4 * (size_t)i);
	for (uint32_t ti = 0; ti < v->track_count; ++ti) {
		const sinewi_curve_entry *e = &ctx->curves[ti];
		const uint32_t per = e->interpolation == 2 ? 3u : 1u, n = e->n;
		float *values = (float *)sinew_clip_set_alloc(set, (size_t)e->keys * per * n * sizeof(float));
		if (!values) return SINEW_RESULT_OUT_OF_MEMORY;
		uint64_t pos = e->first_bit;
		for (size_t f = 0; f < (size_t)e->keys * per; ++f) {
			const uint32_t g = per == 3 && f % 3 != 1; // a tangent (in, then out, around each value)
			for (uint32_t c = 0; c < n; ++c) {
				const uint32_t w = e->w[g][c];
				values[f * n + c] = e->lo[g][c] + (float)(int32_t)(w ? sinewi_read_bits(v->curve_bits, pos, w) : 0u) * e->step[g][c];
				pos += w;
			}
		}
		sinew_curve *c = &curves[ti];
		memset(c, 0, sizeof *c);
		c->target = ctx->tracks[ti].type, c->interpolation = e->interpolation, c->index = ctx->tracks[ti].owner;
		c->key_count = e->keys, c->times = times + e->first, c->values = values;
	}
	clip->curves = curves, clip->curve_count = v->track_count;
	return SINEW_RESULT_OK;
}

static sinew_result decompress_clip(const void *blob, size_t size, uint32_t index, const sinew_decompress_options *o,
                                    const sinewi_alloc *al, sinew_clip_set *set, sinew_error *error) {
	sinew_context_options co = {0};
	co.tiers = o->tiers;
	co.rest_pose = o->rest_pose, co.rest_scalars = o->rest_scalars;
	size_t need = sinew_context_size_with(blob, size, index, &co);
	SINEWI_CHECK(need > 0, error, SINEW_RESULT_CORRUPT, "clip %u is invalid", index);
	void *mem = sinewi_malloc(al, need);
	SINEWI_CHECK(mem, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	sinew_context *ctx = NULL;
	sinew_result r = sinew_context_init(mem, need, blob, size, index, &co, &ctx, error);
	if (r != SINEW_RESULT_OK) {
		sinewi_free(al, mem, need);
		return r;
	}
	const sinewi_clip_view *v = &ctx->view;
	uint32_t *components = NULL;
	size_t comp_size = (size_t)(v->scalar_count ? v->scalar_count : 1) * sizeof(uint32_t);
	components = (uint32_t *)sinewi_malloc(al, comp_size);
	float *scalars = (float *)sinewi_malloc(al, (size_t)(v->scalar_components + 1) * sizeof(float));
	if (!components || !scalars) {
		sinewi_free(al, components, comp_size);
		sinewi_free(al, scalars, (size_t)(v->scalar_components + 1) * sizeof(float));
		sinewi_free(al, mem, need);
		return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	}
	for (uint32_t i = 0; i < v->scalar_count; ++i) components[i] = ctx->scalars[i].components;
	const char *name = NULL;
	if (v->metadata) name = meta_string(v, sinewi_rd32(v->metadata + 4));
	if (v->rig) name = sinewi_rig_clip_name(v, index);
	// A looping source whose last sample repeated the first gets it back (it is the wrap sample).
	const uint32_t samples = v->sample_count + ((v->flags & SINEW_FMT_FLAG_LAST_REPEATS_FIRST) ? 1u : 0u);
	sinew_clip_desc desc = {name, v->sample_rate, samples, v->joint_count, v->scalar_count, components};
	sinew_clip *clip = NULL;
	r = sinew_clip_set_add_clip(set, &desc, &clip);
	if (r == SINEW_RESULT_OK && v->mark_count) { // samples off a uniform grid: the same time marks
		clip->time_marks = (sinew_time_mark *)sinew_clip_set_alloc(set, (size_t)v->mark_count * sizeof(sinew_time_mark));
		if (!clip->time_marks) r = SINEW_RESULT_OUT_OF_MEMORY;
		for (uint32_t m = 0; clip->time_marks && m < v->mark_count; ++m) {
			clip->time_marks[m].time = (float)sinewi_mark_time(v, m);
			clip->time_marks[m].sample = sinewi_mark_sample(v, m);
		}
		clip->time_mark_count = clip->time_marks ? v->mark_count : 0;
	}
	if (r == SINEW_RESULT_OK) {
		clip->unit_scale = v->unit_scale;
		clip->looping = (v->flags & SINEW_FMT_FLAG_LOOPING) ? 1 : 0;
		clip->rounding = (uint8_t)((v->flags & SINEW_FMT_FLAG_ROUNDING_MASK) >> SINEW_FMT_FLAG_ROUNDING_SHIFT);
		for (uint32_t j = 0; j < v->joint_count; ++j) {
			sinew_joint *joint = &clip->joints[j];
			uint32_t rounding = sinewi_joint_rounding(v, j);
			joint->rounding = (uint8_t)(rounding == SINEW_FMT_ROUNDING_CLIP ? SINEW_ROUNDING_CLIP : rounding);
			if (v->rig) { // format 3: the rig; a joint the clip does not list is there for the hierarchy only
				joint->parent = sinewi_rig_parent(v, j);
				joint->source_index = sinewi_rig_source(v, j);
				joint->name = sinew_clip_set_strdup(set, sinewi_rig_name(v, j));
				sinewi_rig_shell(v, j, &joint->shell_distance, &joint->precision);
				float rest[10];
				if (sinewi_rig_rest(v, j, rest) || (o->rest_pose && memcpy(rest, &o->rest_pose[j], sizeof rest))) {
					memcpy(joint->default_pose.rotation, rest, 4 * sizeof(float));
					memcpy(joint->default_pose.translation, rest + 4, 3 * sizeof(float));
					memcpy(joint->default_pose.scale, rest + 7, 3 * sizeof(float));
				}
				joint->has_track = sinewi_map_bit(v->node_map, j) && // listed: the clip animates it (docs/format.md §node map)
				                   (v->node_map || !at_default_pose(sinewi_joint_kinds(v, j), &joint->default_pose));
				continue;
			}
			if (!v->metadata) continue;
			const unsigned char *q = v->metadata + SINEW_FMT_META_HEADER_SIZE + (size_t)j * SINEW_FMT_META_JOINT_SIZE;
			joint->parent = (int32_t)sinewi_rd32(q);
			joint->source_index = (int32_t)sinewi_rd32(q + 4);
			joint->name = sinew_clip_set_strdup(set, meta_string(v, sinewi_rd32(q + 8)));
			joint->shell_distance = sinewi_rdf32(q + 12);
			joint->precision = sinewi_rdf32(q + 16);
			for (int k = 0; k < 4; ++k) joint->default_pose.rotation[k] = sinewi_rdf32(q + 20 + 4 * k);
			for (int k = 0; k < 3; ++k) joint->default_pose.translation[k] = sinewi_rdf32(q + 36 + 4 * k);
			for (int k = 0; k < 3; ++k) joint->default_pose.scale[k] = sinewi_rdf32(q + 48 + 4 * k);
			joint->has_track = !at_default_pose(sinewi_joint_kinds(v, j), &joint->default_pose);
		}
		for (uint32_t i = 0; i < v->scalar_count; ++i) {
			sinew_scalar_track *t = &clip->scalar_tracks[i];
			uint32_t rounding = sinewi_scalar_rounding(v, i);
			t->rounding = (uint8_t)(rounding == SINEW_FMT_ROUNDING_CLIP ? SINEW_ROUNDING_CLIP : rounding);
			if (v->rig) { // format 3: the rig's track; one the clip does not list plays its rest value only
				t->name = sinew_clip_set_strdup(set, sinewi_rig_scalar_name(v, i));
				sinewi_rig_scalar_source(v, i, &t->source_node, &t->source_target);
				t->precision = sinewi_rig_scalar_precision(v, i);
				memcpy(t->default_value, ctx->base_scalars + ctx->scalars[i].output, components[i] * sizeof(float));
				if (!v->rest_defaults) sinewi_rig_scalar_rest(v, i, t->default_value);
				t->has_track = sinewi_map_bit(v->scalar_map, i);
				continue;
			}
			if (!v->metadata) continue;
			const unsigned char *q = v->metadata + SINEW_FMT_META_HEADER_SIZE +
			                         (size_t)v->joint_count * SINEW_FMT_META_JOINT_SIZE + (size_t)i * SINEW_FMT_META_SCALAR_SIZE;
			t->name = sinew_clip_set_strdup(set, meta_string(v, sinewi_rd32(q)));
			t->source_node = (int32_t)sinewi_rd32(q + 4);
			t->source_target = (int32_t)sinewi_rd32(q + 8);
			t->precision = sinewi_rdf32(q + 12);
			for (int k = 0; k < 4; ++k) t->default_value[k] = sinewi_rdf32(q + 16 + 4 * k);
		}
		// a curve clip's STEP curves hold between samples as their source does (docs/format.md §curves): a joint whose
		// animated sub-tracks are all STEP curves, and a STEP scalar track, round down (the rounding the glTF importer
		// gives the samples of such curves, and exporters write as STEP)
		for (uint32_t ti = 0; ctx->curves && ti < v->track_count; ++ti) {
			const sinewi_track_entry *t = &ctx->tracks[ti];
			bool step = ctx->curves[ti].interpolation == 0;
			if (t->type == 3) {
				clip->scalar_tracks[t->owner].rounding = step ? SINEW_ROUNDING_FLOOR : SINEW_ROUNDING_CLIP;
				continue;
			}
			for (uint32_t sub = 0; sub < 3; ++sub) {
				const int32_t other = ctx->joints[t->owner].track[sub];
				step &= other < 0 || ctx->curves[other].interpolation == 0;
			}
			clip->joints[t->owner].rounding = step ? SINEW_ROUNDING_FLOOR : SINEW_ROUNDING_CLIP;
		}
		if (ctx->curves) r = decode_curves(ctx, set, clip);
		for (uint32_t s = 0; s < samples && r == SINEW_RESULT_OK; ++s) {
			r = sinewi_sample_key(ctx, (double)s, clip->transforms + (size_t)s * v->joint_count, NULL, scalars);
			for (uint32_t i = 0; i < v->scalar_count; ++i)
				memcpy(clip->scalar_tracks[i].values + (size_t)s * components[i], scalars + ctx->scalars[i].output,
				       components[i] * sizeof(float));
		}
	}
	sinewi_free(al, components, comp_size);
	sinewi_free(al, scalars, (size_t)(v->scalar_components + 1) * sizeof(float));
	sinewi_free(al, mem, need);
	if (r == SINEW_RESULT_PAGE_MISSING)
		return sinewi_fail(error, r, "clip %u is paged and its pages were not given (decompress needs the whole blob)", index);
	return r == SINEW_RESULT_OK ? r : sinewi_fail(error, r, "out of memory");
}

sinew_result sinew_decompress_clips(const void *blob, size_t size, const sinew_allocator *allocator,
                                    sinew_clip_set **out, sinew_error *error) {
	return sinew_decompress_clips_with(blob, size, NULL, allocator, out, error);
}

sinew_result sinew_decompress_clips_tiers(const void *blob, size_t size, uint32_t tiers, const sinew_allocator *allocator,
                                          sinew_clip_set **out, sinew_error *error) {
	sinew_decompress_options o = {0};
	o.tiers = tiers;
	return sinew_decompress_clips_with(blob, size, &o, allocator, out, error);
}

sinew_result sinew_decompress_clips_with(const void *blob, size_t size, const sinew_decompress_options *options,
                                         const sinew_allocator *allocator, sinew_clip_set **out, sinew_error *error) {
	const sinew_decompress_options defaults = {0};
	const sinew_decompress_options *o = options ? options : &defaults;
	SINEWI_CHECK(out, error, SINEW_RESULT_INVALID_ARGUMENT, "decompress: NULL argument");
	*out = NULL;
	SINEWI_TRY(sinew_validate(blob, size, error));
	sinewi_alloc al = sinewi_alloc_from(allocator);
	sinew_clip_set *set = NULL;
	SINEWI_CHECK(sinew_clip_set_create(&set, allocator) == SINEW_RESULT_OK, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	uint32_t count = sinew_blob_clip_count(blob, size);
	for (uint32_t i = 0; i < count; ++i) {
		sinew_result r = decompress_clip(blob, size, i, o, &al, set, error);
		if (r != SINEW_RESULT_OK) {
			sinew_clip_set_free(set);
			return r;
		}
	}
	*out = set;
	return SINEW_RESULT_OK;
}
