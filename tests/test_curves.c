// sinew — see include/sinew.h for version and licence
// Curves (docs/format.md §curves): glTF curves kept as curves. The corpus's CUBICSPLINE files, packed within the
// source's keys + 64 bytes and within the bound; random curves (a property test: the bound against the curves
// themselves at any time, evaluated here from glTF 2.0's formulas); malformed curve blocks refused by name; every
// truncation and changed byte of a curve blob handled.
#include <stdlib.h>
#include <string.h>

#include "../src/core/bits.h"
#include "../src/core/hash.h"
#include "../src/clip/clip_internal.h"
#include "../src/format/format_read.h"
#include "test.h"

/* ---- the corpus's CUBICSPLINE files ---- */

static uint64_t breakdown_sum(const sinew_size_breakdown *b) {
	uint64_t bits = b->bits_rotation + b->bits_translation + b->bits_scale + b->bits_scalar + b->bit_padding;
	return b->blob_header + b->clip_headers + b->descriptors + b->constants + b->clip_ranges + b->time_map + b->segment_table +
	       b->segment_descriptors + b->segment_ranges + b->group_offsets + bits / 8 + b->metadata + b->rig + b->padding +
	       b->curve_times + b->curve_tracks;
}

// Every clip of `path` compressed (rig, rest defaults): within the bound through the decoder, the clips named in
// `curves` (bit c for clip c) stored as curves; packed (sinew pack), the animation bytes are at most the source's
// keys + 64 (issue 36's criterion); the size breakdown adds up; unpacked again, a file of curve clips only has the
// source's key bytes (its curves written back as curves, not as samples).
static void check_file(const char *relative, uint32_t curves, uint32_t clips) {
	char path[1024], out[1024];
	if (!test_corpus_path(relative, path, sizeof path)) return;
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_file(path, NULL, NULL, &set, &err), &err);
	CHECK_EQ(set->clip_count, clips);
	void *blob = NULL;
	size_t size = 0;
	CHECK_OK(sinew_compress(set, NULL, NULL, &blob, &size, &err), &err);
	sinew_size_breakdown parts;
	CHECK_OK(sinew_blob_sizes(blob, size, SINEW_ALL_CLIPS, &parts, &err), &err);
	CHECK_EQ(breakdown_sum(&parts), size);
	uint32_t found = 0;
	for (uint32_t c = 0; c < set->clip_count; ++c) {
		const sinew_clip *clip = set->clips[c];
		sinew_clip_info info;
		CHECK_OK(sinew_blob_clip_info(blob, size, c, &info, &err), &err);
		found |= info.curves ? 1u << c : 0u;
		sinew_error_stats st;
		CHECK_OK(sinew_measure_blob_error(clip, blob, size, c, NULL, NULL, &st, &err), &err);
		CHECK_MSG(st.max_error <= 1e-4 && st.samples_over_threshold == 0 && st.scalar_over_precision == 0,
		          "%s clip %u: %g cm at t = %g", relative, c, st.max_error_cm, st.worst_time);
		if (info.curves) {
			CHECK(info.segment_count == 0);
			CHECK(clip->curve_count > 0);
		}
	}
	CHECK_MSG(found == curves, "%s: curve clips %x, expected %x", relative, found, curves);
	sinew_blob_free(blob, size, NULL);
	test_tmp_path("curves_packed.glb", out, sizeof out);
	CHECK_OK(sinew_pack_gltf(path, out, NULL, NULL, &err), &err);
	sinew_gltf_sizes before, after;
	CHECK_OK(sinew_gltf_sizes_of(path, NULL, &before, &err), &err);
	CHECK_OK(sinew_gltf_sizes_of(out, NULL, &after, &err), &err);
	printf("     %s: source keys %llu B, packed %llu B (curve clips %x)\n", relative, (unsigned long long)before.keyframe_bytes,
	       (unsigned long long)after.compressed_bytes, found);
	CHECK_MSG(after.compressed_bytes <= before.keyframe_bytes + 64, "%s: packed %llu B, source keys %llu B", relative,
	          (unsigned long long)after.compressed_bytes, (unsigned long long)before.keyframe_bytes);
	// unpacked, curve clips are curves again: their keys take the source's bytes, not those of samples
	char back[1024];
	test_tmp_path("curves_unpacked.glb", back, sizeof back);
	CHECK_OK(sinew_unpack_gltf(out, back, NULL, &err), &err);
	sinew_gltf_sizes unpacked;
	CHECK_OK(sinew_gltf_sizes_of(back, NULL, &unpacked, &err), &err);
	printf("     %s: unpacked keys %llu B\n", relative, (unsigned long long)unpacked.keyframe_bytes);
	if (curves == (1u << clips) - 1u)
		CHECK_MSG(unpacked.keyframe_bytes == before.keyframe_bytes, "%s: unpacked keys %llu B, source keys %llu B", relative,
		          (unsigned long long)unpacked.keyframe_bytes, (unsigned long long)before.keyframe_bytes);
	sinew_clip_set_free(set);
}

static void test_curves_corpus_cubic_files(void) {
	check_file("gltf/blender_io/07_nla-anim/07_nla-anim.gltf", 7u, 3);
	if (test_failed()) return;
	check_file("gltf/blender_io/03_all_animations/03_all_animations.gltf", 3u, 3); // (the LINEAR rotation keeps samples)
	if (test_failed()) return;
	check_file("gltf/khronos/InterpolationTest/interpolation_test.gltf", (1u << 1) | (1u << 2) | (1u << 4) | (1u << 7), 9);
}

/* ---- random curves ---- */

static uint32_t rng_state;
static double rnd(double lo, double hi) {
	rng_state ^= rng_state << 13, rng_state ^= rng_state >> 17, rng_state ^= rng_state << 5;
	return lo + (hi - lo) * (rng_state / 4294967296.0);
}

// glTF 2.0's sampler (Appendix C), written from the spec for this test: STEP holds, LINEAR lerps (rotations: slerp on
// the shortest arc), CUBICSPLINE is the Hermite spline with tangents times the key interval (rotations normalized).
static void eval_curve(const sinew_curve *c, uint32_t n, double t, double *out) {
	const bool cubic = c->interpolation == SINEW_CURVE_CUBICSPLINE;
	const uint32_t stride = cubic ? 3 * n : n, value = cubic ? n : 0;
	uint32_t i = 0;
	while (i + 1 < c->key_count && c->times[i + 1] <= t) ++i;
	const float *v0 = c->values + (size_t)i * stride + value;
	if (t <= c->times[0] || i + 1 == c->key_count || c->interpolation == SINEW_CURVE_STEP) {
		for (uint32_t k = 0; k < n; ++k) out[k] = v0[k];
	} else {
		const float *v1 = v0 + stride;
		const double td = (double)c->times[i + 1] - c->times[i], s = (t - c->times[i]) / td;
		if (cubic) {
			const double s2 = s * s, s3 = s2 * s;
			for (uint32_t k = 0; k < n; ++k)
				out[k] = (2 * s3 - 3 * s2 + 1) * v0[k] + td * (s3 - 2 * s2 + s) * v0[n + k] + (-2 * s3 + 3 * s2) * v1[k] +
				         td * (s3 - s2) * v1[(int)k - (int)n];
		} else if (c->target == 0) {
			double dot = 0;
			for (int k = 0; k < 4; ++k) dot += (double)v0[k] * v1[k];
			const double sign = dot < 0 ? -1 : 1, w = acos(fmin(1.0, fabs(dot)));
			const double a = w > 1e-9 ? sin((1 - s) * w) / sin(w) : 1 - s, b = w > 1e-9 ? sin(s * w) / sin(w) : s;
			for (int k = 0; k < 4; ++k) out[k] = a * v0[k] + sign * b * v1[k];
		} else {
			for (uint32_t k = 0; k < n; ++k) out[k] = v0[k] + (v1[k] - (double)v0[k]) * s;
		}
	}
	if (c->target == 0) {
		const double l = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
		for (int k = 0; k < 4; ++k) out[k] /= l;
	}
}

// The pose and scalar values the curves give at time t, over the joints' rest poses.
static void curves_pose(const sinew_clip *clip, double t, sinew_qvv *pose, float *scalars) {
	for (uint32_t j = 0; j < clip->joint_count; ++j) pose[j] = clip->joints[j].default_pose;
	for (uint32_t k = 0; k < clip->curve_count; ++k) {
		const sinew_curve *c = &clip->curves[k];
		double v[4];
		const uint32_t n = c->target == 0 ? 4 : c->target < 3 ? 3 : 1;
		eval_curve(c, n, t, v);
		float *dst = c->target == 3 ? scalars + c->index
		             : c->target == 0 ? pose[c->index].rotation : c->target == 1 ? pose[c->index].translation : pose[c->index].scale;
		for (uint32_t i = 0; i < n; ++i) dst[i] = (float)v[i];
	}
}

// A random clip of `keys` keys per curve: a chain of three joints whose root translates (CUBICSPLINE), middle rotates
// (CUBICSPLINE, or LINEAR over large angles) and last scales (CUBICSPLINE or STEP), and a morph weight (CUBICSPLINE);
// its samples are the curves at `samples` evenly spaced times, midpoints checked against the curves.
static sinew_clip *random_clip(sinew_clip_set *set, uint32_t seed, uint32_t keys, uint32_t samples) {
	rng_state = seed * 2654435761u + 1;
	sinew_clip_desc desc = {"random curves", 1.0, samples, 3, 1, NULL};
	sinew_clip *clip = NULL;
	if (sinew_clip_set_add_clip(set, &desc, &clip) != SINEW_RESULT_OK) return NULL;
	for (uint32_t j = 0; j < 3; ++j) {
		clip->joints[j].parent = (int32_t)j - 1;
		clip->joints[j].default_pose.translation[0] = j ? 0.4f : 0.0f;
	}
	clip->scalar_tracks[0].precision = 1e-3f;
	float *times = (float *)sinew_clip_set_alloc(set, keys * sizeof(float));
	float *values = (float *)sinew_clip_set_alloc(set, (size_t)keys * 3 * 4 * 4 * sizeof(float));
	clip->curves = (sinew_curve *)sinew_clip_set_alloc(set, 4 * sizeof(sinew_curve));
	if (!times || !values || !clip->curves) return NULL;
	times[0] = (float)rnd(0, 0.2);
	for (uint32_t k = 1; k < keys; ++k) times[k] = times[k - 1] + (float)rnd(0.1, 0.5);
	const bool linear_rotation = seed % 3 == 1, step_scale = seed % 2 == 1;
	const uint8_t interp[4] = {SINEW_CURVE_CUBICSPLINE, linear_rotation ? SINEW_CURVE_LINEAR : SINEW_CURVE_CUBICSPLINE,
	                           step_scale ? SINEW_CURVE_STEP : SINEW_CURVE_CUBICSPLINE, SINEW_CURVE_CUBICSPLINE};
	const uint32_t comps[4] = {3, 4, 3, 1};
	float *v = values;
	const double axis[3] = {rnd(-1, 1), rnd(0.5, 1), rnd(-1, 1)}, al = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
	for (uint32_t k = 0; k < 4; ++k) {
		sinew_curve *c = &clip->curves[k];
		c->target = (uint8_t)(k == 3 ? 3 : k == 0 ? 1 : k == 1 ? 0 : 2);
		c->interpolation = interp[k];
		c->index = k == 3 ? 0 : k;
		c->key_count = keys;
		c->times = times;
		c->values = v;
		const uint32_t n = comps[k], parts = interp[k] == SINEW_CURVE_CUBICSPLINE ? 3 : 1;
		for (uint32_t e = 0; e < keys; ++e)
			for (uint32_t p = 0; p < parts; ++p) {
				const bool tangent = parts == 3 && p != 1;
				if (c->target == 0 && !tangent) { // a unit rotation about one axis, turning up to 1.2 rad between keys
					const double angle = (linear_rotation ? 1.2 : 0.4) * e + rnd(0, 0.2);
					for (int i = 0; i < 3; ++i) *v++ = (float)(axis[i] / al * sin(angle / 2));
					*v++ = (float)cos(angle / 2);
					continue;
				}
				for (uint32_t i = 0; i < n; ++i)
					*v++ = (float)(tangent ? rnd(-0.5, 0.5) : c->target == 2 ? rnd(0.7, 1.3) : c->target == 3 ? rnd(0, 1) : rnd(-0.3, 0.3));
			}
	}
	clip->curve_count = 4;
	// the samples are the curves at evenly spaced times from the first key to the last
	const double span = (double)times[keys - 1] - times[0];
	clip->time_marks = (sinew_time_mark *)sinew_clip_set_alloc(set, 2 * sizeof(sinew_time_mark));
	if (!clip->time_marks) return NULL;
	clip->time_marks[0] = (sinew_time_mark){times[0], 0};
	clip->time_marks[1] = (sinew_time_mark){times[keys - 1], samples - 1};
	clip->time_mark_count = 2;
	clip->sample_rate = (samples - 1) / span;
	clip->check_midpoints = 1;
	for (uint32_t s = 0; s < samples; ++s)
		curves_pose(clip, sinew_clip_sample_time(clip, (double)s), clip->transforms + (size_t)s * 3, clip->scalar_tracks[0].values + s);
	for (uint32_t j = 0; j < 3; ++j) clip->joints[j].has_track = 1;
	return clip;
}

// Random curves kept as curves stay within the bound against the curves themselves, at the samples (through
// sinew_measure_blob_error, with the midpoints and the decoder) and at any time between (here: the pose the
// curves give, composed, against the decoded one; a little room beyond the bound, which the encoder verifies at
// the samples and midpoints only).
static void test_curves_random_within_bound(void) {
	uint32_t curve_clips = 0;
	double worst[2] = {0, 0}; // sampled, and the decompressed curves by glTF's formulas
	for (uint32_t seed = 1; seed <= 12; ++seed) {
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
		sinew_clip *clip = random_clip(set, seed, 4 + seed % 4, 300);
		CHECK(clip);
		CHECK_OK(sinew_clip_validate(clip, &err), &err);
		void *blob = NULL;
		size_t size = 0;
		CHECK_OK(sinew_compress(set, NULL, NULL, &blob, &size, &err), &err);
		sinew_clip_info info;
		CHECK_OK(sinew_blob_clip_info(blob, size, 0, &info, &err), &err);
		curve_clips += info.curves != 0;
		sinew_error_stats st;
		CHECK_OK(sinew_measure_blob_error(clip, blob, size, 0, NULL, NULL, &st, &err), &err);
		CHECK_MSG(st.max_error <= 1e-4 && st.scalar_over_precision == 0, "seed %u: %g cm at %g s", seed, st.max_error_cm, st.worst_time);
		size_t need = sinew_context_size(blob, size, 0);
		void *mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
		sinew_context *ctx = NULL;
		CHECK_OK(sinew_context_init(mem, need, blob, size, 0, NULL, &ctx, &err), &err);
		unsigned char scratch[4096];
		CHECK(sinew_pose_error_scratch_size(3) <= sizeof scratch);
		// decompressed, a curve clip keeps its curves as the blob stores them (exporters write them back): the source's
		// key times and interpolation, and (below) played by glTF's formulas within the bound of the source's curves
		sinew_clip_set *back = NULL;
		CHECK_OK(sinew_decompress_clips(blob, size, NULL, &back, &err), &err);
		const sinew_clip *d = back->clips[0];
		CHECK_EQ(d->curve_count, info.curves ? 4u : 0u);
		for (uint32_t k = 0; k < d->curve_count; ++k) {
			const sinew_curve *c = &d->curves[k], *src = sinewi_clip_curve(clip, c->target, c->index);
			CHECK(src && c->interpolation == src->interpolation && c->key_count == src->key_count);
			if (src) CHECK(memcmp(c->times, src->times, src->key_count * sizeof(float)) == 0);
		}
		for (int k = 0; k < 400; ++k) {
			const double t = rnd(0, sinew_clip_duration(clip) + clip->time_marks[0].time);
			sinew_qvv ref[3], dec[3];
			float rs[1], ds[1];
			curves_pose(clip, t, ref, rs);
			for (int way = 0; way < (d->curve_count ? 2 : 1); ++way) { // the decoder's pose, then the decompressed curves'
				if (way == 0) CHECK_OK(sinew_sample_pose(ctx, t, dec, NULL, ds), &err);
				else curves_pose(d, t, dec, ds);
				double e[3];
				sinew_pose_error(clip->joints, 3, ref, dec, NULL, 0.03, scratch, e);
				for (int j = 0; j < 3; ++j) worst[way] = fmax(worst[way], e[j]);
				CHECK_MSG(e[0] <= 1.2e-4 && e[1] <= 1.2e-4 && e[2] <= 1.2e-4 && fabs(rs[0] - ds[0]) <= 1.2e-3,
				          "seed %u t = %g: %s %g %g %g m, weight %g", seed, t, way ? "decompressed curves" : "errors", e[0], e[1],
				          e[2], fabs(rs[0] - ds[0]));
			}
		}
		free(mem);
		sinew_clip_set_free(back);
		sinew_blob_free(blob, size, NULL);
		sinew_clip_set_free(set);
	}
	printf("     %u of 12 random clips stored as curves, worst %.5f cm at random times (%.5f cm their decompressed curves by "
	       "glTF's formulas)\n", curve_clips, worst[0] * 100, worst[1] * 100);
	CHECK(curve_clips >= 10);
}

/* ---- malformed curve blocks ---- */

// A blob of one random curve clip (LINEAR rotation: its records have no tangents), and its curve block.
static bool curve_blob(unsigned char **blob, size_t *size, sinewi_clip_view *v) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	if (sinew_clip_set_create(&set, NULL) != SINEW_RESULT_OK) return false;
	sinew_clip *clip = random_clip(set, 4, 5, 300);
	void *b = NULL;
	const bool ok = clip && sinew_compress(set, NULL, NULL, &b, size, &err) == SINEW_RESULT_OK &&
	                sinewi_read_clip((const unsigned char *)b, *size, 0, v, &err) == SINEW_RESULT_OK && v->curves;
	sinew_clip_set_free(set);
	*blob = (unsigned char *)b;
	return ok;
}

static void check_refused(unsigned char *blob, size_t size, size_t at, uint32_t value, size_t n, const char *message) {
	unsigned char keep[4];
	memcpy(keep, blob + at, n);
	if (n == 2) sinewi_wr16(blob + at, value);
	else sinewi_wr32(blob + at, value);
	sinewi_wr32(blob + 12, sinewi_xxh32(blob + 16, size - 16, 0));
	sinew_error err = {0};
	const sinew_result r = sinew_validate(blob, size, &err);
	memcpy(blob + at, keep, n);
	sinewi_wr32(blob + 12, sinewi_xxh32(blob + 16, size - 16, 0));
	CHECK_RESULT(r, SINEW_RESULT_CORRUPT, &err);
	CHECK_MSG(strstr(err.message, message), "want '%s': %s", message, err.message);
	CHECK_OK(sinew_validate(blob, size, &err), &err);
}

// Each field of a curve block a decoder relies on, damaged, is refused (docs/format.md §curves).
static void test_curves_malformed_blocks(void) {
	unsigned char *blob = NULL;
	size_t size = 0;
	sinewi_clip_view v;
	CHECK(curve_blob(&blob, &size, &v));
	const size_t block = (size_t)(v.curves - blob), times = (size_t)(v.curve_times - blob), rec = (size_t)(v.curve_records - blob);
	const size_t clip = (size_t)(v.clip - blob);
	const uint32_t count = v.curve_time_count;
	const char *bad = "curve block is malformed";
	check_refused(blob, size, block, 0, 2, bad);                      // no key time
	check_refused(blob, size, block, count + 1, 2, bad);              // more key times than the block holds
	check_refused(blob, size, times + 4, 0x7fc00000u, 4, bad);        // a NaN key time
	check_refused(blob, size, times + 4, 0xbf800000u, 4, bad);        // a negative one
	check_refused(blob, size, times + 4, 0x7f000000u, 4, bad);        // keys out of order (a huge second time)
	check_refused(blob, size, rec, 3, 2, bad);                        // interpolation 3
	check_refused(blob, size, rec + 2, count, 2, bad);                // first key time past the table
	check_refused(blob, size, rec + 4, 0, 2, bad);                    // no key
	check_refused(blob, size, rec + 4, count + 1, 2, bad);            // more keys than times
	check_refused(blob, size, rec + 6, 1u << 10, 2, bad);             // a reserved width bit
	check_refused(blob, size, rec + 6, 25, 2, bad);                   // a width of 25 bits
	check_refused(blob, size, rec + 6, sinewi_rd16(blob + rec + 6) + 1, 2, bad); // one bit more: the size does not match
	// the first record is the root's CUBICSPLINE translation: its Value_min NaN; the rotation record after it is LINEAR
	check_refused(blob, size, rec + 12, 0x7fc00000u, 4, bad);
	sinewi_curve_entry e;
	const uint32_t first = sinewi_curve_record(blob + rec, size - rec, 3, v.half_ranges, &e);
	CHECK(first > 0 && e.interpolation == SINEW_CURVE_CUBICSPLINE);
	CHECK_EQ(sinewi_rd16(blob + rec + first), SINEW_CURVE_LINEAR);
	check_refused(blob, size, rec + first + 6, sinewi_rd16(blob + rec + first + 6) | (1u << 5), 2, bad); // tangents on LINEAR
	// Curves with segments, with Looping
	check_refused(blob, size, clip + 12, 40, 2, "Curves with segments");
	check_refused(blob, size, clip + 4, sinewi_rd32(blob + clip + 4) | 1u, 4, "Curves with segments");
	free(blob);
}

// Every truncation of a curve blob is refused; every single changed byte (checksum repaired) is refused or samples.
static void test_curves_damaged_blob_sweep(void) {
	unsigned char *blob = NULL;
	size_t size = 0;
	sinewi_clip_view v;
	CHECK(curve_blob(&blob, &size, &v));
	for (size_t n = 0; n < size; ++n) CHECK(sinew_validate(blob, n, NULL) != SINEW_RESULT_OK);
	unsigned char *copy = (unsigned char *)malloc(size);
	CHECK(copy);
	uint32_t refused = 0, played = 0;
	for (size_t at = 16; at < size; ++at) {
		memcpy(copy, blob, size);
		copy[at] ^= (unsigned char)(1u << (at % 8));
		sinewi_wr32(copy + 12, sinewi_xxh32(copy + 16, size - 16, 0));
		if (sinew_validate(copy, size, NULL) != SINEW_RESULT_OK) {
			refused++;
			continue;
		}
		size_t need = sinew_context_size(copy, size, 0);
		void *mem = need ? malloc(need) : NULL;
		sinew_context *ctx = NULL;
		if (mem && sinew_context_init(mem, need, copy, size, 0, NULL, &ctx, NULL) == SINEW_RESULT_OK) {
			sinew_qvv pose[3];
			float s[4];
			for (double t = -0.5; t < 4.0; t += 0.0371) sinew_sample_pose(ctx, t, pose, NULL, s);
			played++;
		}
		free(mem);
	}
	printf("     %zu truncations refused; %u changed bytes refused, %u played\n", size, refused, played);
	free(copy);
	free(blob);
}

void suite_curves(void) {
	RUN(test_curves_corpus_cubic_files);
	RUN(test_curves_random_within_bound);
	RUN(test_curves_malformed_blocks);
	RUN(test_curves_damaged_blob_sweep);
}
