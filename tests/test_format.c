// sinew — see include/sinew.h for version and licence
// format: hostile-blob sweeps (every truncation, every single-byte change), header fields,
// reserved bits, version, and the golden blobs of format version 1.
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "core/bits.h"
#include "core/format_layout.h"
#include "core/hash.h"
#include "format/format_read.h"

// Hashes of the version-1 decoder's samples of the golden blobs (golden_sample_hash).
#define GOLDEN_ACL_09_02 0x86d55cb93e348c0dull
#define GOLDEN_PLATFORMER 0x63245a05afef7eddull

// A small real-shaped clip: 5-joint chain, 40 samples, one morph-like scalar track.
static sinew_clip_set *small_set(void) {
	sinew_clip_set *set = NULL;
	if (sinew_clip_set_create(&set, NULL) != SINEW_RESULT_OK) return NULL;
	uint32_t comps[1] = {1};
	sinew_clip_desc desc = {"small", 30, 40, 5, 1, comps};
	sinew_clip *c = NULL;
	if (sinew_clip_set_add_clip(set, &desc, &c) != SINEW_RESULT_OK) return NULL;
	c->unit_scale = 100;
	for (uint32_t j = 0; j < 5; ++j) {
		c->joints[j].parent = (int32_t)j - 1;
		c->joints[j].name = sinew_clip_set_strdup(set, "bone");
	}
	for (uint32_t s = 0; s < 40; ++s)
		for (uint32_t j = 0; j < 5; ++j) {
			sinew_qvv *x = &c->transforms[s * 5 + j];
			double a = 0.4 * sin(0.2 * s + j);
			x->rotation[0] = (float)sin(a / 2), x->rotation[3] = (float)cos(a / 2);
			x->translation[1] = 10.0f;
			if (j == 0) x->translation[0] = (float)s;
		}
	for (uint32_t s = 0; s < 40; ++s) c->scalar_tracks[0].values[s] = s < 20 ? 0.0f : (float)(s - 20) / 20.0f;
	return set;
}

static bool make_blob(unsigned char **blob, size_t *size) {
	sinew_clip_set *set = small_set();
	if (!set) return false;
	void *b = NULL;
	sinew_error err = {0};
	bool ok = sinew_compress(set, NULL, NULL, &b, size, &err) == SINEW_RESULT_OK;
	sinew_clip_set_free(set);
	*blob = (unsigned char *)b;
	return ok;
}

static void refresh_checksum(unsigned char *b, size_t size) {
	sinewi_wr32(b + 12, sinewi_xxh32(b + 16, size - 16, 0));
}

static void test_format_validates_and_describes(void) {
	unsigned char *blob;
	size_t size;
	CHECK(make_blob(&blob, &size));
	sinew_error err = {0};
	CHECK_OK(sinew_validate(blob, size, &err), &err);
	CHECK(size % 4 == 0); // Total_size is a multiple of 4 (docs/format.md, blob header)
	CHECK(memcmp(blob, "SNEW", 4) == 0);
	CHECK_EQ(sinewi_rd16(blob + 4), 2);
	CHECK_EQ(sinew_blob_clip_count(blob, size), 1);
	sinew_clip_info info;
	CHECK_OK(sinew_blob_clip_info(blob, size, 0, &info, &err), &err);
	CHECK_EQ(info.joint_count, 5);
	CHECK_EQ(info.sample_count, 40);
	CHECK_EQ(info.scalar_track_count, 1);
	CHECK_NEAR(info.duration, 39.0 / 30.0, 1e-12);
	CHECK(info.name && strcmp(info.name, "small") == 0);
	CHECK_RESULT(sinew_blob_clip_info(blob, size, 1, &info, &err), SINEW_RESULT_OUT_OF_RANGE, &err);
	sinew_blob_free(blob, size, NULL);
}

static void test_format_rejects_every_truncation(void) {
	unsigned char *blob;
	size_t size;
	CHECK(make_blob(&blob, &size));
	for (size_t n = 0; n < size; ++n) {
		unsigned char *copy = (unsigned char *)malloc(n ? n : 1); // exact size: ASan sees any overread
		memcpy(copy, blob, n);
		sinew_error err = {0};
		sinew_result r = sinew_validate(copy, n, &err);
		CHECK_MSG(r != SINEW_RESULT_OK, "prefix of %zu bytes accepted", n);
		CHECK_MSG(n < 4 || r == SINEW_RESULT_TRUNCATED || r == SINEW_RESULT_BAD_MAGIC, "prefix %zu: %s", n,
		          sinew_result_name(r));
		// sampling setup must refuse it too
		CHECK(sinew_context_size(copy, n, 0) == 0);
		free(copy);
	}
	sinew_blob_free(blob, size, NULL);
}

static void test_format_checksum_catches_every_byte_change(void) {
	unsigned char *blob;
	size_t size;
	CHECK(make_blob(&blob, &size));
	unsigned char *copy = (unsigned char *)malloc(size);
	for (size_t i = 0; i < size; ++i) {
		memcpy(copy, blob, size);
		copy[i] ^= 0x5A;
		sinew_error err = {0};
		sinew_result r = sinew_validate(copy, size, &err);
		CHECK_MSG(r != SINEW_RESULT_OK, "byte %zu changed but accepted", i);
	}
	free(copy);
	sinew_blob_free(blob, size, NULL);
}

// With the checksum refreshed, structural validation alone must stop every corruption that
// would make sampling unsafe; whatever passes must sample without touching outside the blob.
static void test_format_structure_survives_byte_changes_with_valid_checksum(void) {
	unsigned char *blob;
	size_t size;
	CHECK(make_blob(&blob, &size));
	unsigned char *copy = (unsigned char *)malloc(size);
	sinew_qvv pose[5];
	float scalars[4];
	size_t accepted = 0;
	for (size_t i = 16; i < size; ++i) {
		for (int flip = 0; flip < 2; ++flip) {
			memcpy(copy, blob, size);
			copy[i] = flip ? (unsigned char)(copy[i] ^ 0xFF) : (unsigned char)(copy[i] + 1);
			refresh_checksum(copy, size);
			if (sinew_validate(copy, size, NULL) != SINEW_RESULT_OK) continue;
			accepted++;
			size_t need = sinew_context_size(copy, size, 0);
			CHECK(need > 0);
			void *mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
			sinew_context *ctx = NULL;
			sinew_error err = {0};
			CHECK_OK(sinew_context_init(mem, need, copy, size, 0, NULL, &ctx, &err), &err);
			uint32_t joints = sinew_blob_clip_count(copy, size) ? 5 : 0;
			sinew_clip_info info;
			CHECK_OK(sinew_blob_clip_info(copy, size, 0, &info, &err), &err);
			CHECK(info.joint_count <= 5 && info.scalar_track_count <= 1);
			(void)joints;
			for (double t = -1; t < 3; t += 0.05) sinew_sample_pose(ctx, t, pose, NULL, scalars);
			free(mem);
		}
	}
	printf("    %zu of %zu modified blobs pass structural validation and sample safely\n", accepted, 2 * (size - 16));
	free(copy);
	sinew_blob_free(blob, size, NULL);
}

static void test_format_rejects_bad_header_fields(void) {
	unsigned char *blob;
	size_t size;
	CHECK(make_blob(&blob, &size));
	unsigned char *copy = (unsigned char *)malloc(size + 16);
	sinew_error err = {0};
	memcpy(copy, blob, size);
	copy[0] = 'X';
	CHECK_RESULT(sinew_validate(copy, size, &err), SINEW_RESULT_BAD_MAGIC, &err);
	memcpy(copy, blob, size);
	sinewi_wr16(copy + 4, 3);
	refresh_checksum(copy, size);
	CHECK_RESULT(sinew_validate(copy, size, &err), SINEW_RESULT_BAD_VERSION, &err);
	memcpy(copy, blob, size);
	copy[25] = 1; // reserved
	refresh_checksum(copy, size);
	CHECK_RESULT(sinew_validate(copy, size, &err), SINEW_RESULT_CORRUPT, &err);
	memcpy(copy, blob, size);
	memset(copy + size, 0, 16); // trailing bytes beyond the declared size
	CHECK_RESULT(sinew_validate(copy, size + 16, &err), SINEW_RESULT_CORRUPT, &err);
	memcpy(copy, blob, size);
	copy[size / 2] ^= 1;
	CHECK_RESULT(sinew_validate(copy, size, &err), SINEW_RESULT_CHECKSUM, &err);
	CHECK_RESULT(sinew_validate(NULL, 0, &err), SINEW_RESULT_INVALID_ARGUMENT, &err);
	free(copy);
	sinew_blob_free(blob, size, NULL);
}

static void test_format_compress_is_deterministic(void) {
	unsigned char *a, *b;
	size_t sa, sb;
	CHECK(make_blob(&a, &sa));
	CHECK(make_blob(&b, &sb));
	CHECK(sa == sb && memcmp(a, b, sa) == 0);
	sinew_blob_free(a, sa, NULL);
	sinew_blob_free(b, sb, NULL);
}

// tests/golden/v1_small.sinew was written by format version 1; it must keep decoding to the
// poses stored next to it (tests/golden/v1_small.poses: float32 little-endian) forever.
static void test_format_golden_v1_decodes(void) {
	char path[1024];
	FILE *f = fopen(test_repo_path("tests/golden/v1_small.sinew", path, sizeof path), "rb");
	CHECK_MSG(f, "missing %s", path);
	unsigned char blob[8192];
	size_t size = fread(blob, 1, sizeof blob, f);
	fclose(f);
	sinew_error err = {0};
	CHECK_OK(sinew_validate(blob, size, &err), &err);
	f = fopen(test_repo_path("tests/golden/v1_small.poses", path, sizeof path), "rb");
	CHECK_MSG(f, "missing %s", path);
	static float expected[40 * 5 * 10 + 40];
	size_t got = fread(expected, sizeof(float), sizeof expected / sizeof expected[0], f);
	fclose(f);
	CHECK_EQ(got, 40 * 5 * 10 + 40);
	sinew_clip_set *dec = NULL;
	CHECK_OK(sinew_decompress_clips(blob, size, NULL, &dec, &err), &err);
	const sinew_clip *c = dec->clips[0];
	for (uint32_t i = 0; i < 40 * 5; ++i) {
		const float *x = &c->transforms[i].rotation[0];
		for (int k = 0; k < 10; ++k)
			CHECK_MSG(memcmp(&x[k], &expected[i * 10 + k], 4) == 0, "transform %u field %d: %.9g vs %.9g", i, k,
			          (double)x[k], (double)expected[i * 10 + k]);
	}
	for (uint32_t s = 0; s < 40; ++s)
		CHECK(memcmp(&c->scalar_tracks[0].values[s], &expected[2000 + s], 4) == 0);
	sinew_clip_set_free(dec);
}

// FNV-1a over every pose and scalar value sampled at quarter-sample steps (two passes: forward
// with the segment cache, then a random-access context backward), so a golden blob pins the
// decoder's output bit for bit without storing the poses.
static uint64_t golden_sample_hash(const unsigned char *blob, size_t size) {
	uint64_t h = 14695981039346656037ull;
	uint32_t clips = sinew_blob_clip_count(blob, size);
	for (uint32_t c = 0; c < clips; ++c) {
		sinew_clip_info info;
		if (sinew_blob_clip_info(blob, size, c, &info, NULL) != SINEW_RESULT_OK) return 0;
		sinew_qvv *pose = (sinew_qvv *)calloc(info.joint_count + 1, sizeof *pose);
		float *scalars = (float *)calloc(4 * info.scalar_track_count + 1, sizeof(float));
		for (int pass = 0; pass < 2; ++pass) {
			sinew_context_options o = {0};
			o.random_access = pass;
			size_t need = sinew_context_size_with(blob, size, c, &o);
			void *mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
			sinew_context *ctx = NULL;
			if (!need || sinew_context_init(mem, need, blob, size, c, &o, &ctx, NULL) != SINEW_RESULT_OK) {
				free(mem);
				return 0;
			}
			uint32_t steps = (uint32_t)(info.duration * info.sample_rate * 4.0 + 0.5) + 1;
			for (uint32_t k = 0; k <= steps; ++k) {
				double t = (double)(pass ? steps - k : k) / (4.0 * info.sample_rate);
				sinew_sample_pose(ctx, t, pose, NULL, scalars);
				const unsigned char *b = (const unsigned char *)pose;
				for (size_t i = 0; i < info.joint_count * sizeof *pose; ++i) h = (h ^ b[i]) * 1099511628211ull;
				b = (const unsigned char *)scalars;
				for (size_t i = 0; i < 4 * info.scalar_track_count * sizeof(float); ++i) h = (h ^ b[i]) * 1099511628211ull;
			}
			free(mem);
		}
		free(pose);
		free(scalars);
	}
	return h;
}

// Blobs of real clips written by format version 1 (tests/golden/v1_*.sinew, from data/ by the
// version-1 CLI): every later decoder must sample them to exactly the values version 1 did.
static void test_format_golden_v1_real_clips_decode(void) {
	static const struct {
		const char *file;
		uint64_t hash;
	} golden[] = {
	    {"tests/golden/v1_acl_09_02.sinew", GOLDEN_ACL_09_02},
	    {"tests/golden/v1_platformer.sinew", GOLDEN_PLATFORMER},
	};
	for (size_t g = 0; g < sizeof golden / sizeof golden[0]; ++g) {
		char path[1024];
		FILE *f = fopen(test_repo_path(golden[g].file, path, sizeof path), "rb");
		CHECK_MSG(f, "missing %s", path);
		if (!f) continue;
		static unsigned char blob[65536];
		size_t size = fread(blob, 1, sizeof blob, f);
		fclose(f);
		sinew_error err = {0};
		CHECK_OK(sinew_validate(blob, size, &err), &err);
		CHECK_EQ(sinewi_rd16(blob + 4), 1);
		uint64_t h = golden_sample_hash(blob, size);
		CHECK_MSG(h == golden[g].hash, "%s: samples hash to %016llx, version 1 gave %016llx", golden[g].file,
		          (unsigned long long)h, (unsigned long long)golden[g].hash);
	}
}

static uint64_t breakdown_sum(const sinew_size_breakdown *b) {
	uint64_t bits = b->bits_rotation + b->bits_translation + b->bits_scale + b->bits_scalar + b->bit_padding;
	return b->blob_header + b->clip_headers + b->descriptors + b->constants + b->clip_ranges + b->segment_table +
	       b->segment_descriptors + b->segment_ranges + b->group_offsets + bits / 8 + b->metadata + b->padding;
}

// sinew_blob_sizes: the parts add up to the clip and to the blob, each part has the size the format
// gives it for this clip (5 joints, 1 scalar, one 39-interval segment of 32 + one of 7), and hostile
// bytes get the validator's errors.
static void test_format_size_breakdown(void) {
	unsigned char *blob;
	size_t size;
	CHECK(make_blob(&blob, &size));
	sinew_error err = {0};
	sinew_size_breakdown c, all;
	CHECK_OK(sinew_blob_sizes(blob, size, 0, &c, &err), &err);
	sinew_clip_info info;
	CHECK_OK(sinew_blob_clip_info(blob, size, 0, &info, &err), &err);
	CHECK_EQ(c.total, info.size);
	CHECK_EQ(breakdown_sum(&c), c.total);
	CHECK(c.padding < 4); // the metadata starts 4-byte aligned after the last segment
	CHECK_EQ(c.blob_header, 0);
	CHECK_EQ(c.clip_headers, 36);
	CHECK_EQ(c.descriptors, 8); // 5 + 1, then 4-byte alignment
	CHECK_EQ(c.segments, 2);
	CHECK_EQ(c.segment_table, 12);
	// 3 bytes per track and segment, 5 with midpoint knots (clip flag bit 10)
	const uint32_t flags = sinewi_rd32(blob + sinewi_rd32(blob + 32) + 4);
	CHECK_EQ(c.segment_descriptors, 2ull * ((flags & 0x400u) ? 5 : 3) * c.animated_tracks);
	CHECK(c.predicted_knots <= c.knots / 2);
	CHECK(c.group_offsets == 2ull * 4 * ((c.animated_tracks + 7) / 8));
	CHECK(c.bits_rotation > 0 && c.bits_translation > 0 && c.bits_scalar > 0 && c.bits_scale == 0);
	CHECK(c.bit_padding < 2 * 8);
	CHECK(c.metadata > 0);
	CHECK_EQ(c.segment_ranges, 2ull * 2 * (3 * (c.animated_tracks - 1) + 1)); // two segments: ranges stored
	CHECK_OK(sinew_blob_sizes(blob, size, SINEW_ALL_CLIPS, &all, &err), &err);
	CHECK_EQ(all.total, size);
	CHECK_EQ(breakdown_sum(&all), size);
	CHECK_EQ(all.blob_header, 36);
	CHECK_RESULT(sinew_blob_sizes(blob, size, 1, &c, &err), SINEW_RESULT_OUT_OF_RANGE, &err);
	CHECK_RESULT(sinew_blob_sizes(blob, size - 16, 0, &c, &err), SINEW_RESULT_TRUNCATED, &err);
	blob[0] = 'X';
	CHECK_RESULT(sinew_blob_sizes(blob, size, 0, &c, &err), SINEW_RESULT_BAD_MAGIC, &err);
	sinew_blob_free(blob, size, NULL);
}

// Half_ranges (16-bit clip range values): a short clip takes them, a long one whose ranges would widen
// a lot (a small motion far from 0) keeps f32; both meet the bound through the decoder, and a 16-bit
// range value that is not finite is refused.
static sinew_clip_set *chain_clip(uint32_t samples, float wobble) {
	sinew_clip_set *set = NULL;
	if (sinew_clip_set_create(&set, NULL) != SINEW_RESULT_OK) return NULL;
	sinew_clip_desc desc = {"chain", 30, samples, 4, 0, NULL};
	sinew_clip *c = NULL;
	if (sinew_clip_set_add_clip(set, &desc, &c) != SINEW_RESULT_OK) return NULL;
	c->unit_scale = 100;
	for (uint32_t j = 0; j < 4; ++j) c->joints[j].parent = (int32_t)j - 1;
	for (uint32_t s = 0; s < samples; ++s)
		for (uint32_t j = 0; j < 4; ++j) {
			sinew_qvv *x = &c->transforms[s * 4 + j];
			double a = 0.5 * sin(0.1 * s + j);
			x->rotation[2] = (float)sin(a / 2), x->rotation[3] = (float)cos(a / 2);
			x->translation[0] = 30.0f + wobble * (float)sin(0.05 * s); // 30 cm bones
		}
	return set;
}

// ORs `bits` into the n bytes at blob + at (checksum refreshed): sinew_validate must refuse the blob as
// CORRUPT with `message` in its text; the bytes are then put back and the blob validates again.
static void check_refused(unsigned char *blob, size_t size, size_t at, const unsigned char *bits, size_t n,
                          const char *message) {
	unsigned char keep[8];
	CHECK(n <= sizeof keep);
	memcpy(keep, blob + at, n);
	for (size_t i = 0; i < n; ++i) blob[at + i] |= bits[i];
	refresh_checksum(blob, size);
	sinew_error err = {0};
	sinew_result r = sinew_validate(blob, size, &err);
	memcpy(blob + at, keep, n);
	refresh_checksum(blob, size);
	CHECK_RESULT(r, SINEW_RESULT_CORRUPT, &err);
	CHECK_MSG(strstr(err.message, message), "%s", err.message);
	CHECK_OK(sinew_validate(blob, size, &err), &err);
}

static void test_format_half_ranges(void) {
	const struct {
		uint32_t samples;
		float wobble;
		bool half;
	} cases[] = {{8, 2.0f, true}, {6000, 0.05f, false}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		sinew_clip_set *set = chain_clip(cases[i].samples, cases[i].wobble);
		CHECK(set != NULL);
		void *b = NULL;
		size_t size = 0;
		sinew_error err = {0};
		CHECK_OK(sinew_compress(set, NULL, NULL, &b, &size, &err), &err);
		unsigned char *blob = (unsigned char *)b;
		sinewi_clip_view v;
		CHECK_OK(sinewi_read_clip(blob, size, 0, &v, &err), &err);
		CHECK_MSG(((v.flags & SINEW_FMT_FLAG_HALF_RANGES) != 0) == cases[i].half, "%u samples: flags %x",
		          cases[i].samples, v.flags);
		sinew_error_stats st;
		CHECK_OK(sinew_measure_blob_error(set->clips[0], blob, size, 0, NULL, NULL, &st, &err), &err);
		CHECK_EQ(st.samples_over_threshold, 0);
		if (cases[i].half) {
			// the first range value: exponent all ones (bits 7-14 of the 16-bit value) is not finite
			static const unsigned char exponent[2] = {0x80, 0x7F};
			check_refused(blob, size, (size_t)(v.ranges - blob), exponent, 2, "non-finite range");
		}
		sinew_blob_free(b, size, NULL);
		sinew_clip_set_free(set);
	}
}

// Short_constants (24-bit constants): a one-sample clip of 30 cm bones takes them, one whose joints sit
// 100 m from their parents keeps f32 (24 bits would move each by up to 0.125 cm: they would have to be
// animated tracks, which costs more than the bytes saved); both meet the bound through the
// decoder, defaults stay f32, and a 24-bit constant that is not finite or a non-zero padding byte is
// refused.
static sinew_clip_set *still_clip(uint32_t samples, float far_cm) {
	sinew_clip_set *set = chain_clip(samples, 0.0f);
	if (!set) return NULL;
	sinew_clip *c = set->clips[0];
	for (uint32_t s = 0; s < samples; ++s)
		for (uint32_t j = 0; j < 3; ++j) c->transforms[s * 4 + j].translation[1] = far_cm;
	c->joints[3].default_pose = c->transforms[3]; // joint 3 sits at its default pose (rotation too: samples > 1 vary it)
	return set;
}

static void test_format_short_constants(void) {
	const struct {
		uint32_t samples;
		float far_cm;
		bool short_constants;
	} cases[] = {{1, 7.3f, true}, {1, 10000.3f, false}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		sinew_clip_set *set = still_clip(cases[i].samples, cases[i].far_cm);
		CHECK(set != NULL);
		void *b = NULL;
		size_t size = 0;
		sinew_error err = {0};
		sinew_compress_options options = {0};
		options.strip_metadata = 1;
		CHECK_OK(sinew_compress(set, &options, NULL, &b, &size, &err), &err);
		unsigned char *blob = (unsigned char *)b;
		sinewi_clip_view v;
		CHECK_OK(sinewi_read_clip(blob, size, 0, &v, &err), &err);
		CHECK_MSG(((v.flags & SINEW_FMT_FLAG_SHORT_CONSTANTS) != 0) == cases[i].short_constants, "case %zu: flags %x", i,
		          v.flags);
		sinew_error_stats st;
		CHECK_OK(sinew_measure_blob_error(set->clips[0], blob, size, 0, NULL, NULL, &st, &err), &err);
		CHECK_EQ(st.samples_over_threshold, 0);
		if (cases[i].short_constants) {
			CHECK(st.max_error > 0.0); // the 24-bit constants are not exact
			// joint 3 is at its default pose (kind 1: f32, the exact value); joints 0-2 hold constants (kind 2):
			// joint 0's translation, joints 1 and 2's rotation and translation
			CHECK_EQ(v.descriptors[3] & 15u, 5u);
			CHECK_EQ(v.descriptors[0] & 15u, 8u);
			CHECK_EQ(v.descriptors[1] & 15u, 10u);
			// the first constant (joint 0's translation x): exponent all ones (bits 15-22 of the 24-bit value)
			static const unsigned char exponent[3] = {0x00, 0x80, 0x7F}, one = 1;
			check_refused(blob, size, (size_t)(v.constants - blob), exponent, 3, "non-finite constant");
			// 5 constants of 9 bytes, 2 defaults of 12, then 3 padding bytes (the last must be zero)
			CHECK_EQ((size_t)(v.ranges - v.constants), 5u * 9 + 2 * 12 + 3);
			check_refused(blob, size, (size_t)(v.ranges - blob) - 1, &one, 1, "padding");
		}
		sinew_blob_free(b, size, NULL);
		sinew_clip_set_free(set);
	}
}

void suite_format(void) {
	RUN(test_format_short_constants);
	RUN(test_format_half_ranges);
	RUN(test_format_size_breakdown);
	RUN(test_format_validates_and_describes);
	RUN(test_format_rejects_every_truncation);
	RUN(test_format_checksum_catches_every_byte_change);
	RUN(test_format_structure_survives_byte_changes_with_valid_checksum);
	RUN(test_format_rejects_bad_header_fields);
	RUN(test_format_compress_is_deterministic);
	RUN(test_format_golden_v1_decodes);
	RUN(test_format_golden_v1_real_clips_decode);
}

// Writes the golden files (run once per format version: `sinew_tests --write-golden`).
void test_write_golden(void);
void test_write_golden(void) {
	unsigned char *blob;
	size_t size;
	if (!make_blob(&blob, &size)) return;
	char path[1024];
	FILE *f = fopen(test_repo_path("tests/golden/v1_small.sinew", path, sizeof path), "wb");
	if (!f) return;
	fwrite(blob, 1, size, f);
	fclose(f);
	sinew_clip_set *dec = NULL;
	if (sinew_decompress_clips(blob, size, NULL, &dec, NULL) == SINEW_RESULT_OK) {
		f = fopen(test_repo_path("tests/golden/v1_small.poses", path, sizeof path), "wb");
		if (f) {
			fwrite(dec->clips[0]->transforms, sizeof(sinew_qvv), 200, f);
			fwrite(dec->clips[0]->scalar_tracks[0].values, sizeof(float), 40, f);
			fclose(f);
		}
		sinew_clip_set_free(dec);
	}
	sinew_blob_free(blob, size, NULL);
}
