// sinew — see include/sinew.h for version and licence
// format: hostile-blob sweeps (every truncation, every single-byte change), header fields,
// reserved bits, version, the golden blobs of format versions 1, 2 and 3 (curve clips among them), and the clip flags of format 2
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "core/bits.h"
#include "core/codec_math.h"
#include "core/format_layout.h"
#include "core/hash.h"
#include "format/format_read.h"

// Hashes of the version-1 decoder's samples of the golden blobs (golden_sample_hash).
#define GOLDEN_ACL_09_02 0x86d55cb93e348c0dull
#define GOLDEN_PLATFORMER 0x63245a05afef7eddull
// The same hash of tests/golden/v2_platformer.sinew as the version-2 decoder of commit 00b832e (before
// Midpoint_knots) sampled it.
#define GOLDEN_V2_PLATFORMER 0x229249528786f5d9ull
#define GOLDEN_V2_MIDPOINT_CMU 0x011965d04c487c6dull
// The version-3 decoder's hashes of tests/golden/v3_*.sinew (the lead's format-3 commit that added them).
#define GOLDEN_V3_PLATFORMER 0xf79f24f10824b4a1ull
#define GOLDEN_V3_MIDPOINT_CMU 0xf78358419403ddb1ull
// The same hashes of tests/golden/v3_curves_*.sinew by the decoder of the commit that added curves.
#define GOLDEN_V3_CURVES_INTERPOLATION 0x6b6699d0dc1ea271ull
#define GOLDEN_V3_CURVES_SYNTHETIC 0xa0336600e62e63c1ull

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
	sinew_compress_options o = {.segment_length = 32}; // two segments (32 + 7 intervals): the layout tests below count them
	bool ok = sinew_compress(set, &o, NULL, &b, size, &err) == SINEW_RESULT_OK;
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
	CHECK_EQ(sinewi_rd16(blob + 4), 3);
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
	sinewi_wr16(copy + 4, 4);
	refresh_checksum(copy, size);
	CHECK_RESULT(sinew_validate(copy, size, &err), SINEW_RESULT_BAD_VERSION, &err);
	memcpy(copy, blob, size);
	copy[7] = 0x80; // a reserved blob flag
	refresh_checksum(copy, size);
	CHECK_RESULT(sinew_validate(copy, size, &err), SINEW_RESULT_CORRUPT, &err);
	memcpy(copy, blob, size);
	copy[6] ^= 1; // Paged without a resident size that fits
	refresh_checksum(copy, size);
	CHECK_RESULT(sinew_validate(copy, size, &err), SINEW_RESULT_CORRUPT, &err);
	// the rig: a reserved rig flag, and a non-zero tail byte
	sinewi_clip_view v;
	CHECK_OK(sinewi_read_clip(blob, size, 0, &v, &err), &err);
	const size_t rig = (size_t)(v.rig - blob);
	memcpy(copy, blob, size);
	copy[rig + 5] = 0x80;
	refresh_checksum(copy, size);
	CHECK_RESULT(sinew_validate(copy, size, &err), SINEW_RESULT_CORRUPT, &err);
	CHECK(strstr(err.message, "rig") != NULL);
	memcpy(copy, blob, size);
	copy[size - 1] = 1;
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

// A golden blob of real clips written by format `version` by an earlier CLI: every later decoder must
// sample it to exactly the values that version did (`hash`, golden_sample_hash).
// The bytes of a golden file (repository-relative) in a static buffer; 0 when missing (a failed check).
static size_t read_golden(const char *file, unsigned char **out) {
	static unsigned char blob[65536];
	char path[1024];
	*out = blob;
	FILE *f = fopen(test_repo_path(file, path, sizeof path), "rb");
	if (!f) {
		test_fail(__FILE__, __LINE__, "missing %s", path);
		return 0;
	}
	size_t size = fread(blob, 1, sizeof blob, f);
	fclose(f);
	if (size < sizeof blob) return size;
	test_fail(__FILE__, __LINE__, "%s: larger than the test's buffer", file);
	return 0;
}

static void check_golden(const char *file, uint32_t version, uint64_t hash) {
	unsigned char *blob;
	size_t size = read_golden(file, &blob);
	sinew_error err = {0};
	CHECK_OK(sinew_validate(blob, size, &err), &err);
	CHECK_EQ(sinewi_rd16(blob + 4), version);
	uint64_t h = golden_sample_hash(blob, size);
	CHECK_MSG(h == hash, "%s: samples hash to %016llx, version %u gave %016llx", file, (unsigned long long)h, version,
	          (unsigned long long)hash);
}

// Blobs of real clips written by format version 1 (tests/golden/v1_*.sinew, from data/ by the
// version-1 CLI): every later decoder must sample them to exactly the values version 1 did.
static void test_format_golden_v1_real_clips_decode(void) {
	check_golden("tests/golden/v1_acl_09_02.sinew", 1, GOLDEN_ACL_09_02);
	if (test_failed()) return;
	check_golden("tests/golden/v1_platformer.sinew", 1, GOLDEN_PLATFORMER);
}

// tests/golden/v2_platformer.sinew: data/godot_platformer_player.glb written by the version-2 CLI before
// Midpoint_knots (commit 00b832e): 8 clips of 1 to 38 samples, lone and two-segment clips, Half_ranges and
// Short_constants, 3-byte track descriptors. Version-2 decoders that know Midpoint_knots must sample the
// layout without it exactly as before (today's encoder would set the flag on 7 of these clips).
static void test_format_golden_v2_decodes(void) {
	unsigned char *blob;
	size_t size = read_golden("tests/golden/v2_platformer.sinew", &blob);
	sinew_error err = {0};
	CHECK_OK(sinew_validate(blob, size, &err), &err);
	CHECK_EQ(sinew_blob_clip_count(blob, size), 8);
	uint32_t all_flags = 0, segments = 0;
	for (uint32_t c = 0; c < 8; ++c) {
		sinewi_clip_view v;
		CHECK_OK(sinewi_read_clip(blob, size, c, &v, &err), &err);
		CHECK_MSG(!(v.flags & SINEW_FMT_FLAG_MIDPOINT_KNOTS), "clip %u: flags %x", c, v.flags);
		CHECK_EQ(v.track_descriptor_size, 3);
		all_flags |= v.flags;
		segments = v.segment_count > segments ? v.segment_count : segments;
		sinew_size_breakdown sz;
		CHECK_OK(sinew_blob_sizes(blob, size, c, &sz, &err), &err);
		CHECK_EQ(sz.predicted_knots, 0);
	}
	// what the blob covers of the version-2 layout
	CHECK((all_flags & SINEW_FMT_FLAG_HALF_RANGES) && (all_flags & SINEW_FMT_FLAG_SHORT_CONSTANTS));
	CHECK(segments >= 2);
	check_golden("tests/golden/v2_platformer.sinew", 2, GOLDEN_V2_PLATFORMER);
}

// tests/golden/v2_midpoint_cmu.sinew: data/cmu_01_01.bvh (--unit-cm 5.644 --error-cm 1 --strip) written with
// Midpoint_knots by commit d4f73b2: 69 segments, 14,999 of 48,918 knots predicted. Its hash was computed with
// the library of commit 542b859, whose decoder rebuilt predicted knots while unpacking, before the kernels
// took that over: every decoder must keep sampling it to exactly those values.
static void test_format_golden_v2_midpoint_decodes(void) {
	unsigned char *blob;
	size_t size = read_golden("tests/golden/v2_midpoint_cmu.sinew", &blob);
	sinew_error err = {0};
	CHECK_OK(sinew_validate(blob, size, &err), &err);
	sinewi_clip_view v;
	CHECK_OK(sinewi_read_clip(blob, size, 0, &v, &err), &err);
	CHECK_MSG(v.flags & SINEW_FMT_FLAG_MIDPOINT_KNOTS, "flags %x", v.flags);
	CHECK_EQ(v.track_descriptor_size, 5);
	CHECK_EQ(v.segment_count, 69);
	sinew_size_breakdown sz;
	CHECK_OK(sinew_blob_sizes(blob, size, 0, &sz, &err), &err);
	CHECK_EQ(sz.predicted_knots, 14999);
	check_golden("tests/golden/v2_midpoint_cmu.sinew", 2, GOLDEN_V2_MIDPOINT_CMU);
}

// tests/golden/v3_platformer.sinew: data/godot_platformer_player.glb by the first version-3 CLI (sinew compress,
// defaults): one rig with names, sources and the rest pose, Rest_defaults, node maps (the RESET clip lists
// no node), lone segments with knot rows. v3_midpoint_cmu.sinew: data/cmu_01_01.bvh (--unit-cm 5.644
// --error-cm 1 --strip): 69 segments, 17,765 of 48,963 knots predicted, per-component shifts and whole
// predicted knots. Every later decoder must sample both exactly as version 3 first did.
static void test_format_golden_v3_decodes(void) {
	unsigned char *blob;
	size_t size = read_golden("tests/golden/v3_platformer.sinew", &blob);
	sinew_error err = {0};
	CHECK_OK(sinew_validate(blob, size, &err), &err);
	CHECK_EQ(sinew_blob_clip_count(blob, size), 8);
	uint32_t maps = 0;
	for (uint32_t c = 0; c < 8; ++c) {
		sinewi_clip_view v;
		CHECK_OK(sinewi_read_clip(blob, size, c, &v, &err), &err);
		maps += (v.flags & SINEW_FMT_FLAG_NODE_MAP) != 0;
	}
	CHECK(maps >= 1);
	CHECK(sinewi_rd16(blob + 6) & SINEW_FMT_BLOB_REST_DEFAULTS);
	sinew_rig_info rig;
	CHECK_OK(sinew_blob_rig(blob, size, &rig, &err), &err);
	CHECK_EQ(rig.node_count, 28);
	check_golden("tests/golden/v3_platformer.sinew", 3, GOLDEN_V3_PLATFORMER);
	if (test_failed()) return;
	size = read_golden("tests/golden/v3_midpoint_cmu.sinew", &blob);
	CHECK_OK(sinew_validate(blob, size, &err), &err);
	sinewi_clip_view v;
	CHECK_OK(sinewi_read_clip(blob, size, 0, &v, &err), &err);
	CHECK_MSG(v.flags & SINEW_FMT_FLAG_MIDPOINT_KNOTS, "flags %x", v.flags);
	CHECK_EQ(v.segment_count, 69);
	sinew_size_breakdown sz;
	CHECK_OK(sinew_blob_sizes(blob, size, 0, &sz, &err), &err);
	CHECK_EQ(sz.predicted_knots, 17765);
	check_golden("tests/golden/v3_midpoint_cmu.sinew", 3, GOLDEN_V3_MIDPOINT_CMU);
}

// A golden blob with curve clips: `clip_count` clips of which `curve_clips` store curves (Curves flag, no
// segments), whose records use the interpolations of `kinds` (bit 1 << interpolation), sampled to `hash`.
static void check_golden_curves(const char *file, uint32_t clip_count, uint32_t curve_clips, uint32_t kinds, uint64_t hash) {
	unsigned char *blob;
	size_t size = read_golden(file, &blob);
	sinew_error err = {0};
	CHECK_OK(sinew_validate(blob, size, &err), &err);
	CHECK_EQ(sinew_blob_clip_count(blob, size), clip_count);
	uint32_t curves = 0, seen = 0;
	for (uint32_t c = 0; c < clip_count && !test_failed(); ++c) {
		sinewi_clip_view v;
		CHECK_OK(sinewi_read_clip(blob, size, c, &v, &err), &err);
		sinew_clip_info info;
		CHECK_OK(sinew_blob_clip_info(blob, size, c, &info, &err), &err);
		CHECK_EQ(info.curves, (v.flags & SINEW_FMT_FLAG_CURVES) != 0);
		if (!(v.flags & SINEW_FMT_FLAG_CURVES)) continue;
		++curves;
		CHECK_EQ(v.segment_count, 0);
		uint8_t types[64], comps[64];
		CHECK(sinewi_track_types(&v, types, comps, 64) == v.track_count);
		const unsigned char *p = v.curve_records;
		for (uint32_t t = 0; t < v.track_count && t < 64 && !test_failed(); ++t) {
			sinewi_curve_entry e;
			uint32_t used = sinewi_curve_record(p, (uint64_t)(v.curve_bits - p), types[t] == 0 ? 4u : comps[t], v.half_ranges, &e);
			CHECK(used > 0);
			p += used;
			seen |= 1u << e.interpolation;
		}
		CHECK(p == v.curve_bits);
	}
	CHECK_EQ(curves, curve_clips);
	CHECK_EQ(seen, kinds);
	check_golden(file, 3, hash);
}

// tests/golden/v3_curves_interpolation.sinew: Khronos's InterpolationTest (sinew compress, defaults; CC0): 4 of its 9
// clips keep the source's CUBICSPLINE keys (its "Linear Scale" is CUBICSPLINE too), the other 5 are segments.
// v3_curves_synthetic.sinew: tests/reference/curves_gltf.mjs seed 7 (sinew compress, defaults): cubic joints and
// morph weights, a STEP curve beside a cubic one. Both by the CLI of the commit that added curves; every later
// decoder must sample them exactly as it did.
static void test_format_golden_v3_curves_decode(void) {
	const uint32_t cubic = 1u << SINEW_CURVE_CUBICSPLINE, step = 1u << SINEW_CURVE_STEP;
	check_golden_curves("tests/golden/v3_curves_interpolation.sinew", 9, 4, cubic, GOLDEN_V3_CURVES_INTERPOLATION);
	if (test_failed()) return;
	check_golden_curves("tests/golden/v3_curves_synthetic.sinew", 3, 2, cubic | step, GOLDEN_V3_CURVES_SYNTHETIC);
}

static uint64_t breakdown_sum(const sinew_size_breakdown *b) {
	uint64_t bits = b->bits_rotation + b->bits_translation + b->bits_scale + b->bits_scalar + b->bit_padding;
	return b->blob_header + b->clip_headers + b->descriptors + b->constants + b->clip_ranges + b->time_map + b->segment_table +
	       b->segment_descriptors + b->segment_ranges + b->group_offsets + bits / 8 + b->metadata + b->rig + b->padding +
	       b->curve_times + b->curve_tracks;
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
	CHECK_EQ(c.padding, 0); // the clip ends with its last segment (the rig is the blob's)
	CHECK_EQ(c.blob_header, 0);
	CHECK_EQ(c.clip_headers, 20);
	// the node and scalar maps (when the clip leaves some out) and a byte per listed joint and scalar track, then
	// 4-byte alignment (5 joints, 1 scalar track)
	sinewi_clip_view v;
	CHECK_OK(sinewi_read_clip(blob, size, 0, &v, &err), &err);
	const uint64_t maps = (v.node_map ? 1u : 0u) + (v.scalar_map ? 1u : 0u);
	CHECK(v.listed_joints >= 1 && v.listed_joints <= 5 && v.listed_scalars == 1);
	CHECK_EQ(c.descriptors, ((20 + maps + v.listed_joints + v.listed_scalars + 3) & ~3ull) - 20);
	CHECK_EQ(c.segments, 2);
	CHECK_EQ(c.segment_table, 12);
	// 3 bytes per track and segment, 5 with midpoint knots (clip flag bit 10); no group offsets in format 3
	const uint32_t flags = sinewi_rd32(blob + sinewi_rd32(blob + 20) + 4);
	CHECK_EQ(c.segment_descriptors, 2ull * ((flags & 0x400u) ? 5 : 3) * c.animated_tracks);
	CHECK(c.predicted_knots <= c.knots / 2);
	CHECK_EQ(c.group_offsets, 0);
	CHECK(c.bits_rotation > 0 && c.bits_translation > 0 && c.bits_scalar > 0 && c.bits_scale == 0);
	CHECK(c.bit_padding < 2 * 8);
	CHECK_EQ(c.metadata, 0);
	CHECK_EQ(c.rig, 0);
	CHECK_EQ(c.segment_ranges, 2ull * 2 * (3 * (c.animated_tracks - 1) + 1)); // two segments: ranges stored
	CHECK_OK(sinew_blob_sizes(blob, size, SINEW_ALL_CLIPS, &all, &err), &err);
	CHECK_EQ(all.total, size);
	CHECK_EQ(breakdown_sum(&all), size);
	CHECK_EQ(all.blob_header, 24); // 20 bytes and one clip offset
	CHECK(all.rig >= 16 + 4 + 5 * 40);   // header, scalar components, rest pose at least
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

// Compresses `set` with `options` (NULL: defaults) into *blob (sinew_blob_free with *size; NULL when
// compression failed), views clip 0 and checks the bound through the decoder (errors in *st).
static void compress_checked(const sinew_clip_set *set, const sinew_compress_options *options, unsigned char **blob,
                             size_t *size, sinewi_clip_view *v, sinew_error_stats *st) {
	void *b = NULL;
	sinew_error err = {0};
	*size = 0;
	CHECK_OK(sinew_compress(set, options, NULL, &b, size, &err), &err);
	*blob = (unsigned char *)b;
	CHECK_OK(sinewi_read_clip(*blob, *size, 0, v, &err), &err);
	CHECK_OK(sinew_measure_blob_error(set->clips[0], *blob, *size, 0, NULL, NULL, st, &err), &err);
	CHECK_EQ(st->samples_over_threshold, 0);
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
		size_t size;
		sinewi_clip_view v;
		sinew_error_stats st;
		unsigned char *blob = NULL;
		compress_checked(set, NULL, &blob, &size, &v, &st);
		if (!blob) return;
		CHECK_MSG(((v.flags & SINEW_FMT_FLAG_HALF_RANGES) != 0) == cases[i].half, "%u samples: flags %x",
		          cases[i].samples, v.flags);
		if (cases[i].half) {
			// the first range value: exponent all ones (bits 7-14 of the 16-bit value) is not finite
			static const unsigned char exponent[2] = {0x80, 0x7F};
			check_refused(blob, size, (size_t)(v.ranges - blob), exponent, 2, "non-finite range");
		}
		sinew_blob_free(blob, size, NULL);
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
		sinew_compress_options options = {0};
		options.strip_metadata = 1;
		size_t size;
		sinewi_clip_view v;
		sinew_error_stats st;
		unsigned char *blob = NULL;
		compress_checked(set, &options, &blob, &size, &v, &st);
		if (!blob) return;
		CHECK_MSG(((v.flags & SINEW_FMT_FLAG_SHORT_CONSTANTS) != 0) == cases[i].short_constants, "case %zu: flags %x", i,
		          v.flags);
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
		sinew_blob_free(blob, size, NULL);
		sinew_clip_set_free(set);
	}
}

// Midpoint_knots (clip flag bit 10, docs/format.md §midpoint knots): 5-byte track descriptors with a
// 4-bit Shift per stored slot; the odd knots of a track but the last stored as residuals from their
// neighbours' midpoint. Smooth 120 Hz mocap (the bundled CMU 01_01) takes the flag; a 2-sample clip (no
// predicted knots) and a clip of noise (residuals as wide as the values) do not; both ways meet the
// bound through the decoder. Hostile shifts and reserved bits are refused with their messages, and
// random residuals (which the validator cannot check) still sample to finite values, the same through
// every path.

// An animated track's type (0 rotation, 1 translation, 2 scale, 3 scalar) and stored components.
typedef struct midpoint_track {
	uint32_t type, components;
} midpoint_track;

static uint32_t midpoint_tracks(const sinewi_clip_view *v, midpoint_track *out, uint32_t max) {
	uint32_t n = 0;
	for (uint32_t j = 0; j < v->joint_count; ++j)
		for (uint32_t k = 0; k < 3; ++k)
			if (((sinewi_joint_kinds(v, j) >> (2 * k)) & 3u) == 3u && n < max) out[n].type = k, out[n++].components = 3;
	for (uint32_t i = 0; i < v->scalar_count; ++i)
		if ((sinewi_scalar_desc(v, i) & 3u) == 3u && n < max) out[n].type = 3, out[n++].components = (sinewi_scalar_desc(v, i) >> 2) + 1;
	return n;
}

// Where the parts of segment s of a validated clip are: its first byte and its bit stream.
static const unsigned char *midpoint_segment(const sinewi_clip_view *v, uint32_t s, unsigned char **stream) {
	const unsigned char *p = v->clip + sinewi_segment_offset(v, s);
	const uint32_t nt = v->track_count, groups = v->version >= 3 ? 0u : (nt + SINEW_FMT_GROUP_TRACKS - 1) / SINEW_FMT_GROUP_TRACKS;
	*stream = (unsigned char *)p + (size_t)nt * v->track_descriptor_size + v->segment_range_bytes + 4 * (size_t)groups;
	return p;
}

// Where track ti's residuals lie in segment s (docs/format.md §bit stream: rows per decimation level, plain
// and residual rows alternating): `rows` residual rows `row_bits` apart (a plain row and a residual row), the
// track's `residual_bits` at `column` of each, the first at `first`.
typedef struct midpoint_layout {
	uint64_t descriptor, first, row_bits, column, residual_bits, rows;
	uint32_t shifted;
} midpoint_layout;

static midpoint_layout midpoint_track_layout(const sinewi_clip_view *v, const midpoint_track *tracks, uint32_t s, uint32_t ti) {
	unsigned char *stream;
	const unsigned char *seg = midpoint_segment(v, s, &stream);
	const uint32_t first = s * v->segment_length;
	uint32_t length = v->stored_sample_count - 1 - first;
	if (length > v->segment_length) length = v->segment_length;
	uint64_t wp[4] = {0, 0, 0, 0}, wr[4] = {0, 0, 0, 0}, column = 0;
	midpoint_layout l = {0};
	uint32_t level = 0;
	for (uint32_t i = 0; i < v->track_count; ++i) {
		const uint64_t d = sinewi_track_descriptor(seg, i, v->track_descriptor_size);
		const uint32_t n = tracks[i].type == 0 ? 3u : tracks[i].components, dec = (uint32_t)(d >> 20) & 3u;
		uint32_t knot = 0, residual = 0, shifted = 0;
		for (uint32_t c = 0; c < n; ++c) {
			const uint32_t w = sinewi_width_bits((uint32_t)(d >> (5 * c)) & 31u), sh = sinewi_descriptor_shift(d, c);
			knot += w, residual += w - sh, shifted |= sh;
		}
		if (tracks[i].type == 0 && (d & 31u) == SINEWI_WIDTH_RAW) knot = residual = 128;
		if (i == ti) l.descriptor = d, l.shifted = shifted, l.residual_bits = residual, level = dec, column = wr[dec];
		wp[dec] += knot, wr[dec] += residual;
	}
	uint64_t at = 0;
	for (uint32_t dec = 0; dec < 4; ++dec) {
		const uint32_t knots = sinewi_knot_count(length, dec), p = sinewi_predicted_knots(knots);
		if (dec == level) l.first = at + wp[dec], l.rows = p, l.row_bits = wp[dec] + wr[dec], l.column = column;
		at += (uint64_t)(knots - p) * wp[dec] + (uint64_t)p * wr[dec];
	}
	return l;
}

// Samples clip 0 at quarter-sample steps through a forward context, a random-access one and the
// single-joint path; every value must be finite and the three must agree bit for bit. Returns an FNV-1a
// hash of the forward poses (0 on failure).
static uint64_t midpoint_sample_all(const unsigned char *blob, size_t size) {
	sinew_clip_info info;
	if (sinew_blob_clip_info(blob, size, 0, &info, NULL) != SINEW_RESULT_OK) return 0;
	const uint32_t nj = info.joint_count;
	sinew_qvv *pose[2] = {(sinew_qvv *)calloc(nj + 1, sizeof(sinew_qvv)), (sinew_qvv *)calloc(nj + 1, sizeof(sinew_qvv))};
	float scalars[2][64];
	void *mem[2] = {NULL, NULL};
	sinew_context *ctx[2] = {NULL, NULL};
	uint64_t h = 14695981039346656037ull;
	bool ok = info.scalar_track_count <= 16;
	for (int k = 0; k < 2 && ok; ++k) {
		sinew_context_options o = {0};
		o.random_access = k;
		size_t need = sinew_context_size_with(blob, size, 0, &o);
		mem[k] = aligned_alloc(16, (need + 15) & ~(size_t)15);
		ok = need && sinew_context_init(mem[k], need, blob, size, 0, &o, &ctx[k], NULL) == SINEW_RESULT_OK;
	}
	const uint32_t steps = (uint32_t)(info.duration * info.sample_rate * 4.0 + 0.5) + 1;
	for (uint32_t i = 0; i <= steps && ok; ++i) {
		const double t = (double)i / (4.0 * info.sample_rate);
		for (int k = 0; k < 2; ++k) ok &= sinew_sample_pose(ctx[k], t, pose[k], NULL, scalars[k]) == SINEW_RESULT_OK;
		ok &= memcmp(pose[0], pose[1], nj * sizeof(sinew_qvv)) == 0;
		ok &= memcmp(scalars[0], scalars[1], 4 * info.scalar_track_count * sizeof(float)) == 0;
		for (uint32_t j = 0; j < nj && ok; ++j) {
			sinew_qvv one;
			ok &= sinew_sample_joint(ctx[1], t, j, &one) == SINEW_RESULT_OK && memcmp(&one, &pose[0][j], sizeof one) == 0;
			const float *x = &pose[0][j].rotation[0];
			for (int c = 0; c < 10; ++c) ok &= isfinite(x[c]);
		}
		for (uint32_t c = 0; c < 4 * info.scalar_track_count; ++c) ok &= isfinite(scalars[0][c]);
		const unsigned char *b = (const unsigned char *)pose[0];
		for (size_t c = 0; c < nj * sizeof(sinew_qvv); ++c) h = (h ^ b[c]) * 1099511628211ull;
	}
	free(mem[0]), free(mem[1]), free(pose[0]), free(pose[1]);
	return ok ? h : 0;
}

// A clip of 4 joints whose rotations and translations are noise: a predicted knot is no closer to its
// neighbours' midpoint than to anything else, so residuals need as many bits as the values.
static sinew_clip_set *noise_clip(uint32_t samples) {
	sinew_clip_set *set = NULL;
	if (sinew_clip_set_create(&set, NULL) != SINEW_RESULT_OK) return NULL;
	sinew_clip_desc desc = {"noise", 120, samples, 4, 0, NULL};
	sinew_clip *c = NULL;
	if (sinew_clip_set_add_clip(set, &desc, &c) != SINEW_RESULT_OK) return NULL;
	c->unit_scale = 100;
	test_rng rng = {0x6d1d};
	for (uint32_t j = 0; j < 4; ++j) c->joints[j].parent = (int32_t)j - 1;
	for (uint32_t s = 0; s < samples; ++s)
		for (uint32_t j = 0; j < 4; ++j) {
			sinew_qvv *x = &c->transforms[s * 4 + j];
			test_random_quat(&rng, x->rotation);
			for (int k = 0; k < 3; ++k) x->translation[k] = (float)test_rand_range(&rng, -30.0, 30.0);
		}
	return set;
}

static void test_format_midpoint_knots(void) {
	// 1. not taken: no predicted knots (2 samples), or residuals that do not pay (noise)
	for (int i = 0; i < 2; ++i) {
		sinew_clip_set *set = i == 0 ? chain_clip(2, 2.0f) : noise_clip(200);
		CHECK(set != NULL);
		sinew_error err = {0};
		sinew_compress_options co = {0};
		co.midpoint_knots = 1; // allowed, and still not chosen
		size_t size;
		sinewi_clip_view v;
		sinew_error_stats st;
		unsigned char *blob = NULL;
		compress_checked(set, &co, &blob, &size, &v, &st);
		if (!blob) return;
		CHECK_MSG(!(v.flags & SINEW_FMT_FLAG_MIDPOINT_KNOTS), "case %d: flags %x", i, v.flags);
		CHECK_EQ(v.track_descriptor_size, 3);
		sinew_size_breakdown sz;
		CHECK_OK(sinew_blob_sizes(blob, size, 0, &sz, &err), &err);
		CHECK(sz.animated_tracks > 0);
		CHECK_EQ(sz.predicted_knots, 0);
		CHECK_EQ(sz.segment_descriptors, 3ull * sz.animated_tracks * sz.segments);
		CHECK(midpoint_sample_all(blob, size) != 0);
		{ // a clip that does not take the flag is also encoded as with plain knots, and is no larger than that
			sinew_compress_options po = {0};
			po.midpoint_knots = -1;
			void *pb = NULL;
			size_t psize = 0;
			CHECK_OK(sinew_compress(set, &po, NULL, &pb, &psize, &err), &err);
			CHECK_MSG(size < psize || (psize == size && memcmp(pb, blob, size) == 0), "case %d: %zu bytes, %zu with plain knots", i,
			          size, psize);
			sinew_blob_free(pb, psize, NULL);
		}
		sinew_blob_free(blob, size, NULL);
		sinew_clip_set_free(set);
	}

	// 2. taken: CMU 01_01 (38 joints, 2752 samples at 120 Hz)
	char path[1024];
	sinew_import_options io = {0};
	io.unit_cm = 5.644; // CMU skeleton units
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_file(test_repo_path("data/cmu_01_01.bvh", path, sizeof path), &io, NULL, &set, &err), &err);
	void *b = NULL;
	size_t size = 0;
	size_t plain_size = 0;
	{ // midpoint_knots -1 leaves knots plain (whole-pose sampling faster), and the clip larger
		sinew_compress_options po = {0};
		po.midpoint_knots = -1;
		CHECK_OK(sinew_compress(set, &po, NULL, &b, &plain_size, &err), &err);
		sinewi_clip_view plain;
		CHECK_OK(sinewi_read_clip((const unsigned char *)b, plain_size, 0, &plain, &err), &err);
		CHECK(!(plain.flags & SINEW_FMT_FLAG_MIDPOINT_KNOTS));
		CHECK_EQ(plain.track_descriptor_size, 3);
		sinew_blob_free(b, plain_size, NULL);
	}
	sinew_compress_options co = {0}; // the default takes midpoint knots
	sinewi_clip_view v;
	sinew_error_stats st;
	unsigned char *blob = NULL;
	compress_checked(set, &co, &blob, &size, &v, &st);
	if (!blob) return;
	b = blob;
	CHECK_MSG(v.flags & SINEW_FMT_FLAG_MIDPOINT_KNOTS, "flags %x", v.flags);
	CHECK_EQ(sinewi_rd32(blob + sinewi_rd32(blob + 20) + 4) & 0x400u, 0x400u); // bit 10 of the clip header's Flags
	CHECK_EQ(v.track_descriptor_size, 5);
	sinew_size_breakdown sz;
	CHECK_OK(sinew_blob_sizes(blob, size, 0, &sz, &err), &err);
	CHECK(sz.predicted_knots > 0 && sz.predicted_knots <= sz.knots / 2);
	CHECK_EQ(sz.segment_descriptors, 5ull * sz.animated_tracks * sz.segments);
	CHECK_EQ(breakdown_sum(&sz), sz.total);
	printf("    cmu_01_01: %zu bytes (%zu with plain knots), %u knots, %u predicted\n", size, plain_size, sz.knots, sz.predicted_knots);
	CHECK(size * 20 < plain_size * 19); // about 10 % smaller on 120 Hz mocap
	const uint64_t clean = midpoint_sample_all(blob, size);
	CHECK(clean != 0);

	midpoint_track tracks[256];
	const uint32_t nt = midpoint_tracks(&v, tracks, 256);
	CHECK_EQ(nt, v.track_count);
	CHECK_EQ(nt, sz.animated_tracks);
	// the descriptors of segment 0: a quantized slot narrower than 15 bits, a rotation, a translation
	unsigned char *stream;
	unsigned char *seg0 = (unsigned char *)midpoint_segment(&v, 0, &stream);
	size_t narrow = 0, rotation = 0, translation = 0;
	uint32_t narrow_slot = 0;
	bool have_narrow = false, have_rotation = false, have_translation = false;
	uint32_t shifted_tracks = 0;
	for (uint32_t i = 0; i < nt; ++i) {
		const uint64_t d = sinewi_track_descriptor(seg0, i, 5);
		const size_t at = (size_t)(seg0 - blob) + 5 * (size_t)i;
		for (uint32_t c = 0; c < (tracks[i].type == 0 ? 3u : tracks[i].components) && !have_narrow; ++c)
			if (((d >> (5 * c)) & 31u) < 15u) narrow = at, narrow_slot = c, have_narrow = true;
		if (tracks[i].type == 0 && !have_rotation) rotation = at, have_rotation = true;
		if (tracks[i].type == 1 && !have_translation) translation = at, have_translation = true;
		shifted_tracks += (d >> 24) != 0;
	}
	CHECK(have_narrow && have_rotation && have_translation);
	CHECK(shifted_tracks > 0);
	// Shift_k is bits 24 + 4k to 27 + 4k: byte 3 + k / 2, low nibble for even k
	const unsigned char nibble[2] = {0x0F, 0xF0}, slot3 = 0x10, bit22 = 0x40;
	check_refused(blob, size, narrow + 3 + narrow_slot / 2, &nibble[narrow_slot & 1], 1, "bad shift"); // 15 > width
	check_refused(blob, size, rotation + 4, &slot3, 1, "bad shift");    // a rotation's slot 3 (its Dropped)
	check_refused(blob, size, translation + 4, &slot3, 1, "bad shift"); // a translation has no slot 3
	check_refused(blob, size, rotation + 2, &bit22, 1, "reserved descriptor bits");
	check_refused(blob, size, translation + 2, &bit22, 1, "reserved descriptor bits");
	// without the flag, the same bytes read as 3-byte descriptors do not add up
	unsigned char *copy = (unsigned char *)malloc(size);
	memcpy(copy, blob, size);
	sinewi_wr32(copy + sinewi_rd32(copy + 20) + 4, v.flags & ~SINEW_FMT_FLAG_MIDPOINT_KNOTS);
	refresh_checksum(copy, size);
	CHECK_RESULT(sinew_validate(copy, size, &err), SINEW_RESULT_CORRUPT, &err);

	// every residual of every shifted track of every segment overwritten with random bits: the validator
	// cannot tell (any residual is a valid field), and sampling gives other values, all finite
	memcpy(copy, blob, size);
	test_rng rng = {0x3141};
	uint64_t residual_bits = 0;
	for (uint32_t s = 0; s < v.segment_count; ++s) {
		midpoint_segment(&v, s, &stream);
		stream = copy + (stream - blob);
		for (uint32_t i = 0; i < nt; ++i) {
			const midpoint_layout l = midpoint_track_layout(&v, tracks, s, i);
			if (!l.shifted) continue;
			for (uint64_t g = 0; g < l.rows; ++g)
				for (uint64_t k = l.first + g * l.row_bits + l.column; k < l.first + g * l.row_bits + l.column + l.residual_bits; ++k) {
					const unsigned char m = (unsigned char)(1u << (k & 7u));
					stream[k >> 3] = (unsigned char)((test_rand_u32(&rng) & 1u) ? stream[k >> 3] | m : stream[k >> 3] & ~m);
				}
			residual_bits += l.rows * l.residual_bits;
		}
	}
	CHECK(residual_bits > 0);
	CHECK(memcmp(copy, blob, size) != 0);
	refresh_checksum(copy, size);
	CHECK_OK(sinew_validate(copy, size, &err), &err);
	sinew_size_breakdown hostile;
	CHECK_OK(sinew_blob_sizes(copy, size, 0, &hostile, &err), &err);
	CHECK(memcmp(&hostile, &sz, sizeof sz) == 0);
	const uint64_t noisy = midpoint_sample_all(copy, size);
	CHECK_MSG(noisy != 0, "random residuals: a non-finite value, or the sampling paths disagree");
	CHECK(noisy != clean); // the residuals are read
	sinew_clip_set *dec = NULL;
	CHECK_OK(sinew_decompress_clips(copy, size, NULL, &dec, &err), &err);
	sinew_clip_set_free(dec);
	free(copy);
	sinew_blob_free(b, size, NULL);
	sinew_clip_set_free(set);
}

// Time_map (docs/format.md §time map): a clip whose samples sit in three runs of different spacing. The blob
// carries the marks, plays sample k at its own time (bit for bit the decompressed sample), meets the bound
// through the decoder at samples, midpoints and check points between them, keeps the marks through
// sinew_decompress_clips, gives pages their mapped times, and a mark out of order is refused.
static const sinew_time_mark test_marks[4] = {{0.0f, 0}, {0.1f, 4}, {0.35f, 9}, {1.2f, 20}};

static sinew_clip_set *mapped_clip(void) {
	sinew_clip_set *set = chain_clip(21, 2.0f);
	if (!set) return NULL;
	sinew_clip *c = set->clips[0];
	c->time_marks = (sinew_time_mark *)sinew_clip_set_alloc(set, sizeof test_marks);
	if (!c->time_marks) return NULL;
	memcpy(c->time_marks, test_marks, sizeof test_marks);
	c->time_mark_count = 4;
	c->sample_rate = 20.0 / 1.2;
	for (uint32_t s = 0; s < 21; ++s) // motion by time: fast where the samples are dense
		for (uint32_t j = 0; j < 4; ++j) {
			double t = sinew_clip_sample_time(c, s), a = 0.8 * sin(6.0 * t + j);
			sinew_qvv *x = &c->transforms[s * 4 + j];
			x->rotation[2] = (float)sin(a / 2), x->rotation[3] = (float)cos(a / 2);
		}
	return set;
}

static void test_format_time_map(void) {
	sinew_clip_set *set = mapped_clip();
	CHECK(set);
	const sinew_clip *src = set->clips[0];
	CHECK_NEAR(sinew_clip_sample_time(src, 4), 0.1f, 0);
	CHECK_NEAR(sinew_clip_sample_time(src, 6.5), (double)0.1f + 2.5 * ((double)0.35f - (double)0.1f) / 5.0, 1e-15);
	CHECK_NEAR(sinew_clip_duration(src), 1.2f, 0);
	unsigned char *blob = NULL;
	size_t size = 0;
	sinewi_clip_view v;
	sinew_error_stats st;
	compress_checked(set, NULL, &blob, &size, &v, &st);
	CHECK(blob);
	CHECK_EQ(v.mark_count, 4);
	CHECK(st.max_error > 0.0 && st.max_error <= 0.01);
	sinew_error err = {0};
	sinew_clip_info info;
	CHECK_OK(sinew_blob_clip_info(blob, size, 0, &info, &err), &err);
	CHECK_EQ(info.time_mark_count, 4);
	CHECK_NEAR(info.duration, 1.2f, 0);
	sinew_size_breakdown b;
	CHECK_OK(sinew_blob_sizes(blob, size, 0, &b, &err), &err);
	CHECK_EQ(b.time_map, 4 + 4 * 4 + 2 * 2); // the count, 4 times, the samples of the 2 inner marks (u16)
	CHECK_EQ(breakdown_sum(&b), b.total);
	// sample k at its own time is the decompressed sample k, bit for bit; the marks come back
	sinew_clip_set *dec = NULL;
	CHECK_OK(sinew_decompress_clips(blob, size, NULL, &dec, &err), &err);
	const sinew_clip *d = dec->clips[0];
	CHECK_EQ(d->time_mark_count, 4);
	CHECK(memcmp(d->time_marks, test_marks, sizeof test_marks) == 0);
	size_t cs = sinew_context_size(blob, size, 0);
	void *mem = malloc(cs);
	sinew_context *ctx = NULL;
	CHECK_OK(sinew_context_init(mem, cs, blob, size, 0, NULL, &ctx, &err), &err);
	for (uint32_t k = 0; k < 21; ++k) {
		sinew_qvv pose[4];
		CHECK_OK(sinew_sample_pose(ctx, sinew_clip_sample_time(src, k), pose, NULL, NULL), &err);
		CHECK_MSG(memcmp(pose, d->transforms + 4 * k, sizeof pose) == 0, "sample %u at %.9g s", k, sinew_clip_sample_time(src, k));
	}
	// before the first mark the first sample, after the last the last
	sinew_qvv pose[4];
	CHECK_OK(sinew_sample_pose(ctx, -1.0, pose, NULL, NULL), &err);
	CHECK(memcmp(pose, d->transforms, sizeof pose) == 0);
	CHECK_OK(sinew_sample_pose(ctx, 5.0, pose, NULL, NULL), &err);
	CHECK(memcmp(pose, d->transforms + 4 * 20, sizeof pose) == 0);
	free(mem);
	sinew_clip_set_free(dec);
	// a paged copy: page times come from the marks
	sinew_compress_options po = {.page_bytes = 64, .segment_length = 4};
	void *pb = NULL;
	size_t psize = 0;
	CHECK_OK(sinew_compress(set, &po, NULL, &pb, &psize, &err), &err);
	cs = sinew_context_size(pb, psize, 0);
	mem = malloc(cs);
	CHECK_OK(sinew_context_init(mem, cs, pb, psize, 0, NULL, &ctx, &err), &err);
	CHECK(sinew_context_page_count(ctx) >= 3);
	for (uint32_t p = 0; p < sinew_context_page_count(ctx); ++p) {
		sinew_page_info pi;
		CHECK_OK(sinew_context_page_info(ctx, p, &pi), &err);
		uint32_t first = pi.first_segment * 4, last = first + pi.segment_count * 4 > 20 ? 20 : first + pi.segment_count * 4;
		CHECK_NEAR(pi.start_time, sinew_clip_sample_time(src, first), 1e-12);
		CHECK_NEAR(pi.end_time, sinew_clip_sample_time(src, last), 1e-12);
	}
	free(mem);
	sinew_blob_free(pb, psize, NULL);
	// a time that is not finite, a sample past the last, Time_map with Looping: refused
	const size_t marks_at = (size_t)(v.time_map - blob);
	const unsigned char late[4] = {0, 0, 0x80, 0x7f}; // mark 1's time becomes +infinity
	check_refused(blob, size, marks_at + 4, late, 4, "time mark 1");
	const unsigned char past[1] = {0x40}; // mark 1's sample 4 -> 64, past mark 2's 9
	check_refused(blob, size, marks_at + 4 * 4, past, 1, "time mark 2");
	const unsigned char loop[1] = {SINEW_FMT_FLAG_LOOPING};
	check_refused(blob, size, (size_t)(v.clip - blob) + SINEW_FMT_CLIP_FLAGS, loop, 1, "Time_map with Looping");
	sinew_blob_free(blob, size, NULL);
	sinew_clip_set_free(set);
}

void suite_format(void) {
	RUN(test_format_midpoint_knots);
	RUN(test_format_time_map);
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
	RUN(test_format_golden_v2_decodes);
	RUN(test_format_golden_v2_midpoint_decodes);
	RUN(test_format_golden_v3_decodes);
	RUN(test_format_golden_v3_curves_decode);
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
