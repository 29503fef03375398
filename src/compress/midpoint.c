// sinew — see include/sinew.h for version and licence
// Midpoint knots (docs/format.md §midpoint knots): the odd knots of a track, but the last, are
// stored as residuals from the rounded midpoint of their neighbours, in fewer bits per component
// (width - Shift). Smooth motion sampled densely (mocap at 120 Hz) bends little between knots, so
// the residuals are a few steps where the values span the segment's range. The rewrite is lossless:
// the decoder rebuilds exactly the quantized values the bit-rate search verified.
#include "compress_internal.h"
#include "../core/codec_math.h"
#include "../core/format_layout.h"

// Fewest bits rw whose biased range [-2^(rw - 1), 2^(rw - 1) - 1] holds [lo, hi] (0 when both are 0).
static uint32_t residual_width(int64_t lo, int64_t hi) {
	uint32_t rw = 0;
	while (rw < 40 && !(rw == 0 ? lo == 0 && hi == 0 : lo >= -((int64_t)1 << (rw - 1)) && hi < ((int64_t)1 << (rw - 1))))
		++rw;
	return rw;
}

// Shifts of one track in one segment; returns the bits they save. A component whose residuals need as many
// bits as its values, or more, takes Shift 0: its residual then wraps modulo 2^width (docs/format.md §midpoint
// knots, format 3). A track with a raw component, or without any Shift, stores its predicted knots whole.
uint64_t sinewi_track_shifts(const sinewi_enc_track *t, sinewi_enc_seg_track *st) {
	for (uint32_t c = 0; c < 4; ++c) st->shift[c] = 0;
	const uint32_t n = t->components, knots = st->knot_count, predicted = sinewi_predicted_knots(knots);
	if (predicted == 0) return 0;
	for (uint32_t c = 0; c < n; ++c)
		if (st->width[c] > SINEWI_MAX_WIDTH) return 0; // a raw component: the track stores its knots whole
	uint8_t shift[4] = {0, 0, 0, 0};
	uint32_t saved = 0;
	for (uint32_t c = 0; c < n; ++c) {
		int64_t lo = 0, hi = 0;
		for (uint32_t g = 0; g < predicted; ++g) {
			const uint32_t a = st->knots[(2 * g) * n + c], q = st->knots[(2 * g + 1) * n + c], b = st->knots[(2 * g + 2) * n + c];
			const int64_t r = (int64_t)q - (int64_t)sinewi_midpoint(a, b);
			if (r < lo) lo = r;
			if (r > hi) hi = r;
		}
		uint32_t rw = residual_width(lo, hi);
		if (rw >= st->width[c]) continue; // no bit saved: Shift 0
		uint32_t s = st->width[c] - rw;
		shift[c] = (uint8_t)(s > 15u ? 15u : s);
		saved += shift[c];
	}
	if (saved == 0) return 0;
	for (uint32_t c = 0; c < n; ++c) st->shift[c] = shift[c];
	return (uint64_t)saved * predicted;
}

void sinewi_choose_midpoint(sinewi_enc_clip *enc, bool allowed) {
	const uint32_t tiers = enc->tier_count > 1 ? enc->tier_count : 1;
	const uint32_t nt = enc->track_count;
	// The flag costs 2 bytes per track descriptor; the bits saved are counted per segment stream,
	// which rounds up to whole bytes.
	uint64_t plain_bytes = 0, midpoint_bytes = 0;
	for (uint32_t k = 0; k < tiers; ++k) {
		sinewi_enc_segment *segs = tiers > 1 ? enc->tier_segments[k] : enc->segments;
		for (uint32_t s = 0; s < enc->segment_count; ++s) {
			uint64_t bits = 0, saved = 0;
			for (uint32_t i = 0; i < nt; ++i) {
				const sinewi_enc_track *t = &enc->tracks[i];
				sinewi_enc_seg_track *st = &segs[s].tracks[i];
				uint32_t kb = 0;
				if (t->type == SINEWI_TRACK_ROTATION && st->width[0] == SINEWI_WIDTH_RAW) kb = 128;
				else
					for (uint32_t c = 0; c < t->components; ++c) kb += sinewi_width_bits(st->width[c]);
				bits += (uint64_t)st->knot_count * kb;
				saved += sinewi_track_shifts(t, st);
			}
			plain_bytes += (uint64_t)nt * SINEW_FMT_TRACK_DESCRIPTOR_SIZE + (bits + 7) / 8;
			midpoint_bytes += (uint64_t)nt * SINEW_FMT_TRACK_DESCRIPTOR_SIZE_MIDPOINT + (bits - saved + 7) / 8;
		}
	}
	enc->midpoint = allowed && nt > 0 && midpoint_bytes < plain_bytes;
	if (enc->midpoint) return;
	for (uint32_t k = 0; k < tiers; ++k) {
		sinewi_enc_segment *segs = tiers > 1 ? enc->tier_segments[k] : enc->segments;
		for (uint32_t s = 0; s < enc->segment_count; ++s)
			for (uint32_t i = 0; i < nt; ++i)
				for (uint32_t c = 0; c < 4; ++c) segs[s].tracks[i].shift[c] = 0;
	}
}
