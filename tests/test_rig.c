// sinew — see include/sinew.h for version and licence
// Format 3's rig (docs/format.md §rig, §rest pose, §node map and scalar map) on a real character: what the
// blob stores once for every clip, the rest pose as the default (from the rig, or from the caller for a
// packed glTF's blob), which nodes each clip lists, the refusal of clips that do not share a rig, and a
// specific error for each damaged rig field.
#include <stdlib.h>
#include <string.h>

#include "../src/core/bits.h"
#include "../src/core/hash.h"
#include "../src/format/format_read.h"
#include "sinew.h"
#include "test.h"

// data/godot_platformer_player.glb: 8 clips of one 28-node character, compressed with `strip` (SINEW_STRIP_*).
static bool platformer(int strip, sinew_clip_set **set, unsigned char **blob, size_t *size) {
	char path[1024];
	sinew_import_options io = {0};
	sinew_error err = {0};
	*blob = NULL;
	if (sinew_import_file(test_repo_path("data/godot_platformer_player.glb", path, sizeof path), &io, NULL, set, &err) !=
	    SINEW_RESULT_OK) {
		test_fail(__FILE__, __LINE__, "%s", err.message);
		return false;
	}
	sinew_compress_options o = {0};
	o.strip_metadata = strip;
	void *b = NULL;
	if (sinew_compress(*set, &o, NULL, &b, size, &err) != SINEW_RESULT_OK) {
		test_fail(__FILE__, __LINE__, "%s", err.message);
		return false;
	}
	*blob = (unsigned char *)b;
	return true;
}

// Every pose and scalar of every clip at quarter-sample steps (forward, then random access backward), hashed
// (FNV-1a); 0 when a context cannot be made.
static uint64_t sample_hash(const unsigned char *blob, size_t size, const sinew_context_options *given) {
	uint64_t h = 14695981039346656037ull;
	for (uint32_t c = 0; c < sinew_blob_clip_count(blob, size); ++c) {
		sinew_clip_info info;
		if (sinew_blob_clip_info(blob, size, c, &info, NULL) != SINEW_RESULT_OK) return 0;
		sinew_qvv *pose = (sinew_qvv *)calloc(info.joint_count + 1, sizeof *pose);
		float *scalars = (float *)calloc(4 * info.scalar_track_count + 1, sizeof(float));
		for (int pass = 0; pass < 2; ++pass) {
			sinew_context_options o = given ? *given : (sinew_context_options){0};
			o.random_access = pass;
			size_t need = sinew_context_size_with(blob, size, c, &o);
			void *mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
			sinew_context *ctx = NULL;
			if (!need || sinew_context_init(mem, need, blob, size, c, &o, &ctx, NULL) != SINEW_RESULT_OK) {
				free(mem), free(pose), free(scalars);
				return 0;
			}
			uint32_t steps = (uint32_t)(info.duration * info.sample_rate * 4.0 + 0.5) + 1;
			for (uint32_t k = 0; k <= steps; ++k) {
				sinew_sample_pose(ctx, (double)(pass ? steps - k : k) / (4.0 * info.sample_rate), pose, NULL, scalars);
				const unsigned char *b = (const unsigned char *)pose;
				for (size_t i = 0; i < info.joint_count * sizeof *pose; ++i) h = (h ^ b[i]) * 1099511628211ull;
				b = (const unsigned char *)scalars;
				for (size_t i = 0; i < 4 * info.scalar_track_count * sizeof(float); ++i) h = (h ^ b[i]) * 1099511628211ull;
			}
			free(mem);
		}
		free(pose), free(scalars);
	}
	return h;
}

// The default blob: one rig for the 8 clips, holding names, hierarchy, sources and the rest pose the
// importer read from the document; defaults play it; a clip lists the nodes its animation targets.
static void test_rig_holds_what_the_clips_share(void) {
	sinew_clip_set *set = NULL;
	unsigned char *blob;
	size_t size;
	if (!platformer(SINEW_STRIP_NONE, &set, &blob, &size)) return;
	sinew_error err = {0};
	sinew_rig_info rig;
	CHECK_OK(sinew_blob_rig(blob, size, &rig, &err), &err);
	const sinew_clip *c0 = set->clips[0];
	CHECK_EQ(rig.node_count, c0->joint_count);
	CHECK_EQ(rig.scalar_count, c0->scalar_track_count);
	CHECK(rig.rest_defaults && rig.has_rest && rig.has_names && rig.has_hierarchy && rig.has_sources);
	sinew_rig_node *nodes = (sinew_rig_node *)calloc(rig.node_count, sizeof *nodes);
	CHECK_OK(sinew_blob_rig_nodes(blob, size, nodes, NULL, &err), &err);
	for (uint32_t j = 0; j < rig.node_count; ++j) {
		const sinew_joint *x = &c0->joints[j];
		CHECK_MSG(nodes[j].name && x->name && strcmp(nodes[j].name, x->name) == 0, "node %u", j);
		CHECK_EQ(nodes[j].parent, x->parent);
		CHECK_EQ(nodes[j].source_index, x->source_index);
		CHECK(memcmp(&nodes[j].rest, &x->default_pose, sizeof nodes[j].rest) == 0);
	}
	// per clip: the nodes listed are those it animates (has_track), never more than the rig's
	uint32_t fewer = 0;
	CHECK_EQ(sinew_blob_clip_count(blob, size), set->clip_count);
	for (uint32_t c = 0; c < set->clip_count; ++c) {
		sinew_clip_info info;
		CHECK_OK(sinew_blob_clip_info(blob, size, c, &info, &err), &err);
		CHECK_EQ(info.joint_count, rig.node_count);
		uint32_t animated = 0;
		for (uint32_t j = 0; j < set->clips[c]->joint_count; ++j) animated += set->clips[c]->joints[j].has_track != 0;
		CHECK_MSG(info.listed_joints >= animated && info.listed_joints <= rig.node_count, "clip %u: %u listed, %u animated", c,
		          info.listed_joints, animated);
		fewer += info.listed_joints < rig.node_count;
	}
	CHECK(fewer > 0); // some clip leaves nodes out: they cost no bits and play the rest pose
	// one rig: the stripped blob (identity defaults, no rig parts) costs more than the rig it leaves out
	free(nodes);
	sinew_blob_free(blob, size, NULL);
	sinew_clip_set_free(set);
}

// SINEW_STRIP_TO_SOURCES (what pack embeds): the rig holds source indices only and the defaults play a
// rest pose the caller gives. Given the document's rest pose, every clip samples bit for bit as the blob
// whose rig stores it; without it, a context is refused with a message that says what to pass, unless the
// caller fills defaults itself (skip_defaults).
static void test_rig_rest_pose_from_the_caller(void) {
	sinew_clip_set *set = NULL, *set2 = NULL;
	unsigned char *full, *bare;
	size_t full_size, bare_size;
	if (!platformer(SINEW_STRIP_NONE, &set, &full, &full_size)) return;
	if (!platformer(SINEW_STRIP_TO_SOURCES, &set2, &bare, &bare_size)) return;
	sinew_error err = {0};
	sinew_rig_info rig;
	CHECK_OK(sinew_blob_rig(bare, bare_size, &rig, &err), &err);
	CHECK(rig.rest_defaults && !rig.has_rest && !rig.has_names && !rig.has_hierarchy && rig.has_sources);
	CHECK_MSG(bare_size < full_size, "%zu bytes, %zu with the whole rig", bare_size, full_size);
	// refused without a rest pose
	size_t need = sinew_context_size(bare, bare_size, 0);
	void *mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
	sinew_context *ctx = NULL;
	sinew_result r = sinew_context_init(mem, need, bare, bare_size, 0, NULL, &ctx, &err);
	CHECK_RESULT(r, SINEW_RESULT_INVALID_ARGUMENT, &err);
	CHECK_MSG(strstr(err.message, "sinew_context_options.rest_pose"), "%s", err.message);
	sinew_context_options skip = {0};
	skip.skip_defaults = 1;
	CHECK_OK(sinew_context_init(mem, need, bare, bare_size, 0, &skip, &ctx, &err), &err);
	free(mem);
	// the document's rest pose (the importer's default_pose), given: the same samples as the full rig's
	const sinew_clip *c0 = set->clips[0];
	sinew_qvv *rest = (sinew_qvv *)calloc(c0->joint_count + 1, sizeof *rest);
	float *rest_scalars = (float *)calloc(4 * c0->scalar_track_count + 1, sizeof(float));
	for (uint32_t j = 0; j < c0->joint_count; ++j) rest[j] = c0->joints[j].default_pose;
	for (uint32_t i = 0, at = 0; i < c0->scalar_track_count; at += c0->scalar_tracks[i].components, ++i)
		memcpy(rest_scalars + at, c0->scalar_tracks[i].default_value, c0->scalar_tracks[i].components * sizeof(float));
	sinew_context_options given = {0};
	given.rest_pose = rest, given.rest_scalars = rest_scalars;
	const uint64_t a = sample_hash(full, full_size, NULL), b = sample_hash(bare, bare_size, &given);
	CHECK(a != 0);
	CHECK_MSG(a == b, "rest pose given: %016llx, from the rig: %016llx", (unsigned long long)b, (unsigned long long)a);
	// a different rest pose changes what unlisted nodes play (the caller's is really used)
	rest[0].translation[1] += 1.0f;
	CHECK(sample_hash(bare, bare_size, &given) != a);
	// whole-clip decompression takes it too
	sinew_decompress_options d = {0};
	d.rest_pose = rest, d.rest_scalars = rest_scalars;
	sinew_clip_set *dec = NULL;
	CHECK_RESULT(sinew_decompress_clips(bare, bare_size, NULL, &dec, &err), SINEW_RESULT_INVALID_ARGUMENT, &err);
	CHECK_OK(sinew_decompress_clips_with(bare, bare_size, &d, NULL, &dec, &err), &err);
	if (dec) CHECK(memcmp(&dec->clips[0]->joints[0].default_pose, &rest[0], sizeof rest[0]) == 0);
	sinew_clip_set_free(dec);
	free(rest), free(rest_scalars);
	sinew_blob_free(full, full_size, NULL), sinew_blob_free(bare, bare_size, NULL);
	sinew_clip_set_free(set), sinew_clip_set_free(set2);
}

// Clips that do not share one rig (other joints, units or rest poses) are refused, naming the clip and why.
static void test_rig_clips_must_share_it(void) {
	sinew_clip_set *set = NULL;
	unsigned char *blob;
	size_t size;
	if (!platformer(SINEW_STRIP_NONE, &set, &blob, &size)) return;
	sinew_blob_free(blob, size, NULL);
	sinew_error err = {0};
	sinew_compress_options o = {0};
	void *b = NULL;
	const float keep = set->clips[3]->joints[5].default_pose.translation[0];
	set->clips[3]->joints[5].default_pose.translation[0] = keep + 0.5f;
	CHECK_RESULT(sinew_compress(set, &o, NULL, &b, &size, &err), SINEW_RESULT_BAD_COUNT, &err);
	CHECK_MSG(strstr(err.message, "clip 3") && strstr(err.message, "joint 5") && strstr(err.message, "share one rig"), "%s",
	          err.message);
	set->clips[3]->joints[5].default_pose.translation[0] = keep;
	const double unit = set->clips[2]->unit_scale;
	set->clips[2]->unit_scale = unit * 100.0;
	CHECK_RESULT(sinew_compress(set, &o, NULL, &b, &size, &err), SINEW_RESULT_BAD_COUNT, &err);
	CHECK_MSG(strstr(err.message, "clip 2") && strstr(err.message, "other units"), "%s", err.message);
	set->clips[2]->unit_scale = unit;
	set->clips[1]->joint_count -= 1;
	const uint32_t curves = set->clips[1]->curve_count; // (its last joint's curves would be out of range)
	set->clips[1]->curve_count = 0;
	CHECK_RESULT(sinew_compress(set, &o, NULL, &b, &size, &err), SINEW_RESULT_BAD_COUNT, &err);
	CHECK_MSG(strstr(err.message, "clip 1") && strstr(err.message, "separate blobs"), "%s", err.message);
	set->clips[1]->joint_count += 1;
	set->clips[1]->curve_count = curves;
	CHECK_OK(sinew_compress(set, &o, NULL, &b, &size, &err), &err);
	sinew_blob_free(b, size, NULL);
	sinew_clip_set_free(set);
}

// Changes the n bytes at blob + at to `bytes` (checksum refreshed): sinew_validate must refuse the blob as
// CORRUPT with `message` in its text; the bytes are then put back and the blob validates again.
static void check_refused(unsigned char *blob, size_t size, size_t at, const void *bytes, size_t n, const char *message) {
	unsigned char keep[8];
	CHECK(n <= sizeof keep && at + n <= size);
	memcpy(keep, blob + at, n);
	memcpy(blob + at, bytes, n);
	sinewi_wr32(blob + 12, sinewi_xxh32(blob + 16, size - 16, 0));
	sinew_error err = {0};
	sinew_result r = sinew_validate(blob, size, &err);
	memcpy(blob + at, keep, n);
	sinewi_wr32(blob + 12, sinewi_xxh32(blob + 16, size - 16, 0));
	CHECK_RESULT(r, SINEW_RESULT_CORRUPT, &err);
	CHECK_MSG(strstr(err.message, message), "want '%s': %s", message, err.message);
	CHECK_OK(sinew_validate(blob, size, &err), &err);
}

// Each damaged rig field fails with the error that names it (docs/format.md §rig).
static void test_rig_damaged_fields_are_named(void) {
	sinew_clip_set *set = NULL;
	unsigned char *blob;
	size_t size;
	if (!platformer(SINEW_STRIP_NONE, &set, &blob, &size)) return;
	sinewi_clip_view v;
	sinew_error err = {0};
	CHECK_OK(sinewi_read_clip(blob, size, 0, &v, &err), &err);
	CHECK(v.rig_parents && v.rig_rest && v.rig_names && v.rig_sources);
	const size_t rig = (size_t)(v.rig - blob), parents = (size_t)(v.rig_parents - blob), rest = (size_t)(v.rig_rest - blob);
	const size_t names = (size_t)(v.rig_names - blob);
	// header: no nodes and no scalars; a reserved flag; a unit scale of 0
	const unsigned char zero4[4] = {0, 0, 0, 0}, flag[2] = {0x00, 0x80}, zero8[8] = {0};
	check_refused(blob, size, rig, zero4, 4, "rig: no nodes and no scalar tracks");
	check_refused(blob, size, rig + 4, flag, 2, "rig: reserved flags");
	check_refused(blob, size, rig + 8, zero8, 8, "rig: unit scale is not a positive number");
	// node 1's parent must come before it
	unsigned char self[2] = {1, 0};
	check_refused(blob, size, parents + 2, self, 2, "rig: node 1 parent 1");
	// node 2's rest rotation x = 2 (not a unit quaternion), then NaN
	unsigned char two[4], nan[4];
	sinewi_wr32(two, 0x40000000u), sinewi_wr32(nan, 0x7fc00000u);
	check_refused(blob, size, rest + 40 * 2, two, 4, "rig: node 2 rest rotation is not a unit quaternion");
	check_refused(blob, size, rest + 40 * 2 + 16, nan, 4, "rig: non-finite rest value");
	// name 3's string offset past the table
	unsigned char far[4];
	sinewi_wr32(far, 0x00ffffffu);
	check_refused(blob, size, names + 4 + 4 * 3, far, 4, "rig: name 3 out of range");
	sinew_blob_free(blob, size, NULL);
	sinew_clip_set_free(set);
}

void suite_rig(void) {
	RUN(test_rig_holds_what_the_clips_share);
	RUN(test_rig_rest_pose_from_the_caller);
	RUN(test_rig_clips_must_share_it);
	RUN(test_rig_damaged_fields_are_named);
}
