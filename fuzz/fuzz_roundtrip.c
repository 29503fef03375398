// sinew — see include/sinew.h for version and licence
// libFuzzer target: the input describes a small clip (hierarchy, rates, values, options);
// compress it, decompress it and abort if the object-space error bound or a scalar precision
// is broken. This is the guarantee of DESIGN §4 under adversarial data.
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sinew.h"

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
