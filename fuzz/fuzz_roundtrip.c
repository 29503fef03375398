// sinew — see include/sinew.h for version and licence
// libFuzzer target: the input describes a small clip (hierarchy, rates, values, options);
// compress it, decompress it and abort if the object-space error bound or a scalar precision
// is broken. This is the guarantee of DESIGN §4 under adversarial data.
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sinew.h"

#define SINEWI_FUZZ_TRY(x) do { sinew_result r_ = (x); if (r_ != SINEW_RESULT_OK) return r_; } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct producer {
	const uint8_t *p;
	size_t n;
} producer;

static uint32_t take(producer *pr, uint32_t bits) {
	uint32_t v = 0;
	for (uint32_t i = 0; i < (bits + 7) / 8; ++i) v = (v << 8) | (pr->n ? (pr->n--, *pr->p++) : 0);
	return bits >= 32 ? v : v & ((1u << bits) - 1u);
}

static float take_float(producer *pr, float lo, float hi) {
	return lo + (hi - lo) * (float)take(pr, 16) / 65535.0f;
}

// The curve of one sub-track or scalar track of `n` components whose value at sample k is `value(k)` (stride floats
// apart), keyed every `every` samples (and at the last), at the samples' float32 times; the samples become the curve.
static sinew_result curve_of(sinew_clip_set *set, sinew_clip *clip, sinew_curve *c, uint32_t n, float *first, size_t stride,
                             uint32_t every, bool step) {
	const uint32_t samples = clip->sample_count, keys = (samples - 1 + every - 1) / every + 1;
	float *times = (float *)sinew_clip_set_alloc(set, keys * sizeof(float));
	float *values = (float *)sinew_clip_set_alloc(set, (size_t)keys * n * sizeof(float));
	if (!times || !values) return SINEW_RESULT_OUT_OF_MEMORY;
	for (uint32_t k = 0; k < keys; ++k) {
		const uint32_t s = k + 1 == keys ? samples - 1 : k * every;
		times[k] = (float)(s / clip->sample_rate);
		memcpy(values + (size_t)k * n, first + (size_t)s * stride, n * sizeof(float));
	}
	for (uint32_t s = 0; s < samples; ++s) { // the curve at sample s's time (as glTF plays it)
		const double t = s / clip->sample_rate;
		uint32_t i = 0;
		while (i + 1 < keys && times[i + 1] <= t) ++i;
		const double u = i + 1 < keys && !step ? (t - times[i]) / ((double)times[i + 1] - times[i]) : 0.0;
		for (uint32_t k = 0; k < n; ++k)
			first[(size_t)s * stride + k] = (float)(values[(size_t)i * n + k] +
			                                        (i + 1 < keys ? (values[(size_t)(i + 1) * n + k] - (double)values[(size_t)i * n + k]) * u : 0.0));
	}
	c->interpolation = step ? SINEW_CURVE_STEP : SINEW_CURVE_LINEAR, c->key_count = keys, c->times = times, c->values = values;
	return SINEW_RESULT_OK;
}

static sinew_result add_curves(sinew_clip_set *set, sinew_clip *clip, uint32_t every, bool step) {
	const uint32_t nj = clip->joint_count;
	clip->curves = (sinew_curve *)sinew_clip_set_alloc(set, ((size_t)nj * 2 + clip->scalar_track_count) * sizeof(sinew_curve));
	if (!clip->curves) return SINEW_RESULT_OUT_OF_MEMORY;
	for (uint32_t j = 0; j < nj; ++j) {
		for (uint32_t s = 1; s < clip->sample_count; ++s) // the rotations hold
			memcpy(clip->transforms[(size_t)s * nj + j].rotation, clip->transforms[j].rotation, 4 * sizeof(float));
		for (uint32_t sub = 1; sub < 3; ++sub) {
			sinew_curve *c = &clip->curves[clip->curve_count++];
			c->target = (uint8_t)sub, c->index = j;
			float *first = sub == 1 ? clip->transforms[j].translation : clip->transforms[j].scale;
			SINEWI_FUZZ_TRY(curve_of(set, clip, c, 3, first, (size_t)nj * 10, every, step));
		}
	}
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
		sinew_curve *c = &clip->curves[clip->curve_count++];
		c->target = 3, c->index = i;
		const uint32_t n = clip->scalar_tracks[i].components;
		SINEWI_FUZZ_TRY(curve_of(set, clip, c, n, clip->scalar_tracks[i].values, n, every, step));
	}
	return SINEW_RESULT_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	producer pr = {data, size};
	uint32_t joints = 1 + take(&pr, 8) % 12, samples = 1 + take(&pr, 8) % 48, scalars = take(&pr, 8) % 3;
	uint32_t comps[3] = {1 + take(&pr, 8) % 4, 1 + take(&pr, 8) % 4, 1 + take(&pr, 8) % 4};
	sinew_clip_set *set = NULL;
	if (sinew_clip_set_create(&set, NULL) != SINEW_RESULT_OK) return 0;
	sinew_clip_desc desc = {"fuzz", 1.0 + take(&pr, 8), samples, joints, scalars, comps};
	sinew_clip *clip = NULL;
	if (sinew_clip_set_add_clip(set, &desc, &clip) != SINEW_RESULT_OK) abort();
	clip->unit_scale = take(&pr, 1) ? 100.0 : 1.0;
	clip->looping = (uint8_t)take(&pr, 1);
	float magnitude = take(&pr, 1) ? 1000.0f : 1.0f;
	for (uint32_t j = 0; j < joints; ++j) {
		clip->joints[j].parent = j == 0 ? -1 : (int32_t)(take(&pr, 8) % (j + 1)) - 1;
		for (uint32_t s = 0; s < samples; ++s) {
			sinew_qvv *x = &clip->transforms[(size_t)s * joints + j];
			double q[4], n = 0;
			for (int k = 0; k < 4; ++k) q[k] = take_float(&pr, -1, 1), n += q[k] * q[k];
			if (n < 1e-6) q[3] = 1, n = 1;
			for (int k = 0; k < 4; ++k) x->rotation[k] = (float)(q[k] / sqrt(n));
			for (int k = 0; k < 3; ++k) x->translation[k] = take_float(&pr, -magnitude, magnitude);
			if (take(&pr, 2) == 0)
				for (int k = 0; k < 3; ++k) x->scale[k] = take_float(&pr, -2, 2);
		}
	}
	for (uint32_t i = 0; i < scalars; ++i) {
		clip->scalar_tracks[i].precision = take(&pr, 1) ? 1e-3f : 0.0f;
		for (uint32_t v = 0; v < samples * comps[i]; ++v)
			clip->scalar_tracks[i].values[v] = take(&pr, 2) == 0 ? 0.0f : take_float(&pr, 0, 1);
	}
	// Curves (docs/format.md §curves): with a bit set (not looping), the rotations hold, and the translations, scales
	// and scalar tracks follow LINEAR or STEP curves keyed every few samples, their samples the curves at the samples'
	// times, so the encoder may store the curves instead
	if (!clip->looping && take(&pr, 1) && add_curves(set, clip, 1 + take(&pr, 3), take(&pr, 2) == 0) != SINEW_RESULT_OK) abort();
	sinew_compress_options opt = {0};
	opt.error_cm = take(&pr, 1) ? 0.01 : 0.1;
	opt.level = (int)(1 + take(&pr, 2) % 4);
	opt.segment_length = 1 + take(&pr, 8) % 40;
	// layout: plain, paged (small pages), or paged with two quality tiers (10x and 1x the bound)
	const uint32_t layout = take(&pr, 2) % 3;
	if (layout >= 1) opt.page_bytes = 64 + 16 * take(&pr, 8);
	if (layout == 2) opt.tier_count = 2, opt.tier_error_cm[0] = 10 * opt.error_cm, opt.tier_error_cm[1] = opt.error_cm;
	void *blob = NULL;
	size_t bsize = 0;
	if (sinew_compress(set, &opt, NULL, &blob, &bsize, NULL) != SINEW_RESULT_OK) abort(); // any valid clip compresses
	if (sinew_validate(blob, bsize, NULL) != SINEW_RESULT_OK) abort();
	// the guarantee, with every tier and (tiered) with the base tier alone at its own bound
	for (uint32_t tiers = layout == 2 ? 1 : 0;; ++tiers) {
		sinew_clip_set *dec = NULL;
		if (sinew_decompress_clips_tiers(blob, bsize, tiers, NULL, &dec, NULL) != SINEW_RESULT_OK) abort();
		double bound = tiers == 1 ? opt.tier_error_cm[0] : opt.error_cm;
		sinew_metric_options mo = {.shell_distance = 3.0 * 0.01 * clip->unit_scale, .threshold = bound * 0.01 * clip->unit_scale};
		sinew_error_stats st;
		if (sinew_measure_error(clip, dec->clips[0], &mo, NULL, &st, NULL) != SINEW_RESULT_OK) abort();
		if (st.samples_over_threshold || st.scalar_over_precision) abort();
		sinew_clip_set_free(dec);
		if (tiers == 0 || tiers == 2) break;
	}
	sinew_blob_free(blob, bsize, NULL);
	sinew_clip_set_free(set);
	return 0;
}
