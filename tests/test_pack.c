// sinew — see include/sinew.h for version and licence
#define _POSIX_C_SOURCE 200809L
// pack: sinew_pack_gltf / sinew_unpack_gltf on real files. A packed file must read back as glTF without
// animations but with the SINEW_compressed_animation extension (its blob 16-byte aligned); unpacking it and
// re-importing must give every source clip within the compression threshold (0.01 cm / 3 cm; plus float32 key
// rounding at the scene's extent, clip_reach_m). Hostile packed
// files fail with a specific error and leave no output. Files go to $SINEW_EXPORT_DIR when set (CI runs the
// Khronos validator over them), else to the test run's temporary folder.
#include "test.h"

#include "core/metric.h"
#include "import/json.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool spit(const char *path, const void *data, size_t size) {
	FILE *f = fopen(path, "wb");
	if (!f) return false;
	bool ok = fwrite(data, 1, size, f) == size;
	return fclose(f) == 0 && ok;
}

static uint32_t u32le(const unsigned char *p) {
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

// The JSON of a .gltf/.glb; for a .glb also the file offset of the BIN chunk's data.
typedef struct doc {
	sinewi_arena arena;
	sinewi_json *root;
	unsigned char *file;
	size_t file_size, bin_offset;
} doc;

static void doc_free(doc *d) {
	free(d->file);
	sinewi_arena_free(&d->arena);
	memset(d, 0, sizeof *d);
}

static bool doc_load(const char *path, doc *d) {
	memset(d, 0, sizeof *d);
	sinewi_arena_init(&d->arena, NULL);
	d->file = test_slurp(path, &d->file_size);
	if (!d->file) return false;
	const char *text = (const char *)d->file;
	size_t size = d->file_size;
	if (size >= 28 && memcmp(d->file, "glTF", 4) == 0) {
		size = u32le(d->file + 12);
		text += 20;
		d->bin_offset = 28 + size;
		if (d->bin_offset > d->file_size) return false;
	}
	sinew_error err = {0};
	return sinewi_json_parse(&d->arena, text, size, &d->root, &err) == SINEW_RESULT_OK;
}

static bool list_has(const sinewi_json *list, const char *name) {
	for (uint32_t i = 0; list && i < list->count; ++i) {
		const char *s = sinewi_json_string(&list->children[i]);
		if (s && strcmp(s, name) == 0) return true;
	}
	return false;
}

// Puts the joints of `got` in the order of `ref`, matched by source_index (the glTF node).
static bool reorder_by_node(const sinew_clip *ref, sinew_clip *got) {
	uint32_t missing;
	return got->joint_count == ref->joint_count && test_reorder_joints(ref, got, false, &missing);
}

// Checks the packed file's document: no animations, the extension (extensionsUsed only), its bufferView
// inside the buffer and 16-byte aligned (in the file too for a .glb), one clip entry per source clip.
static const char *check_packed(const char *path, uint32_t clip_count, uint64_t *blob_bytes) {
	doc d;
	if (!doc_load(path, &d)) return doc_free(&d), "packed file does not parse";
	const char *problem = NULL;
	const sinewi_json *ext = sinewi_json_get(sinewi_json_get(d.root, "extensions"), "SINEW_compressed_animation");
	uint32_t view = 0, offset = 0, length = 0, buffer_length = 0;
	const sinewi_json *v = NULL, *clips = sinewi_json_get(ext, "clips");
	if (sinewi_json_get(d.root, "animations")) problem = "packed file still has animations";
	else if (!ext) problem = "no SINEW_compressed_animation extension";
	else if (!list_has(sinewi_json_get(d.root, "extensionsUsed"), "SINEW_compressed_animation"))
		problem = "extension not in extensionsUsed";
	else if (list_has(sinewi_json_get(d.root, "extensionsRequired"), "SINEW_compressed_animation"))
		problem = "extension must not be required";
	else if (!sinewi_json_uint(sinewi_json_get(ext, "bufferView"), &view) ||
	         !(v = sinewi_json_at(sinewi_json_get(d.root, "bufferViews"), view)))
		problem = "extension bufferView missing";
	else if (!clips || clips->count != clip_count)
		problem = "extension clip list does not match the source's animations";
	else {
		sinewi_json_uint(sinewi_json_get(v, "byteOffset"), &offset);
		sinewi_json_uint(sinewi_json_get(v, "byteLength"), &length);
		sinewi_json_uint(sinewi_json_get(sinewi_json_at(sinewi_json_get(d.root, "buffers"), 0), "byteLength"),
		                 &buffer_length);
		if (offset % 16 || (uint64_t)offset + length > buffer_length) problem = "blob bufferView misplaced";
		else if (d.bin_offset && (d.bin_offset + offset) % 16) problem = "blob not 16-byte aligned in the .glb";
		else if (d.bin_offset && sinew_validate(d.file + d.bin_offset + offset, length, NULL) != SINEW_RESULT_OK)
			problem = "blob in the .glb does not validate";
	}
	*blob_bytes = length;
	doc_free(&d);
	return problem;
}

// Largest distance of a node from the scene origin over the clip, in metres: float32 keys place a node
// no closer than about FLT_EPSILON times that (the Khronos Fox reaches 100 m: 0.0012 cm, a tenth of the
// default threshold; a 2 m character: 0.00002 cm).
static double clip_reach_m(const sinew_clip *clip) {
	sinewi_affine_d *o = (sinewi_affine_d *)malloc((clip->joint_count + 1) * sizeof *o);
	double reach = 0.0;
	for (uint32_t k = 0; o && k < clip->sample_count; ++k) {
		sinewi_compose_pose_d(clip->joints, clip->joint_count, clip->transforms + (size_t)k * clip->joint_count, o);
		for (uint32_t j = 0; j < clip->joint_count; ++j)
			reach = fmax(reach, sqrt(o[j].t[0] * o[j].t[0] + o[j].t[1] * o[j].t[1] + o[j].t[2] * o[j].t[2]));
	}
	free(o);
	return reach / clip->unit_scale;
}

// Pack `source` into `packed`, unpack it into `unpacked`, and compare every re-imported clip with the source.
static void pack_roundtrip(const char *source, const char *packed_name, const char *unpacked_name) {
	char packed[512], unpacked[512];
	test_export_path(packed_name, packed, sizeof packed);
	test_export_path(unpacked_name, unpacked, sizeof unpacked);
	sinew_clip_set *set = NULL, *back = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_file(source, NULL, NULL, &set, &err), &err);
	sinew_result r = sinew_pack_gltf(source, packed, NULL, NULL, &err);
	if (r != SINEW_RESULT_OK) sinew_clip_set_free(set);
	CHECK_OK(r, &err);
	test_note_source(packed, source);
	uint64_t blob_bytes = 0;
	const char *problem = check_packed(packed, set->clip_count, &blob_bytes);
	if (problem) sinew_clip_set_free(set);
	CHECK_MSG(!problem, "%s: %s", packed, problem);
	// No animations left: the importer finds nothing to import.
	r = sinew_import_file(packed, NULL, NULL, &back, &err);
	if (r != SINEW_RESULT_BAD_COUNT) sinew_clip_set_free(set), sinew_clip_set_free(back);
	CHECK_RESULT(r, SINEW_RESULT_BAD_COUNT, &err);
	r = sinew_unpack_gltf(packed, unpacked, NULL, &err);
	if (r != SINEW_RESULT_OK) sinew_clip_set_free(set);
	CHECK_OK(r, &err);
	test_note_source(unpacked, source);
	r = sinew_import_file(unpacked, NULL, NULL, &back, &err);
	if (r != SINEW_RESULT_OK) sinew_clip_set_free(set);
	CHECK_OK(r, &err);
	char why[300] = "";
	double worst_cm = 0.0, worst_scalar = 0.0;
	uint64_t frames = 0;
	bool ok = back->clip_count == set->clip_count;
	if (!ok) snprintf(why, sizeof why, "%u clips unpacked, %u in the source", back->clip_count, set->clip_count);
	for (uint32_t c = 0; ok && c < set->clip_count; ++c) {
		const sinew_clip *ref = set->clips[c];
		sinew_clip *got = back->clips[c];
		frames += ref->sample_count;
		// the blob carries no names: the animation's name comes back from the extension's clip list
		if ((ref->name != NULL) != (got->name != NULL) || (ref->name && strcmp(ref->name, got->name) != 0)) {
			snprintf(why, sizeof why, "clip %u is named '%.100s', '%.100s' in the source", c, got->name ? got->name : "(none)",
			         ref->name ? ref->name : "(none)");
			ok = false;
			break;
		}
		if (got->sample_count != ref->sample_count || got->scalar_track_count != ref->scalar_track_count ||
		    !reorder_by_node(ref, got)) {
			snprintf(why, sizeof why, "clip %u: joints %u/%u samples %u/%u tracks %u/%u do not match", c,
			         got->joint_count, ref->joint_count, got->sample_count, ref->sample_count,
			         got->scalar_track_count, ref->scalar_track_count);
			ok = false;
			break;
		}
		sinew_error_stats st;
		// the unpacked keys sit at float32 times and hold what the blob plays there; the re-import samples them at
		// each sample's own time (issue 24)
		test_saved_samples saved = test_play_as_reimported(set->clips[c], got);
		sinew_result measured = sinew_measure_error(ref, got, NULL, NULL, &st, &err);
		test_restore_samples(set->clips[c], saved);
		if (measured != SINEW_RESULT_OK) {
			snprintf(why, sizeof why, "clip %u: %.200s", c, err.message);
			ok = false;
			break;
		}
		// The bound holds for the decompressed clip; writing float32 keys (values and times) adds rounding of
		// about FLT_EPSILON relative to the scene's extent.
		double threshold = SINEW_DEFAULT_ERROR_CM * 0.01 * ref->unit_scale;
		double rounding = FLT_EPSILON * clip_reach_m(ref) * ref->unit_scale;
		double cm = st.max_error / ref->unit_scale * 100.0;
		worst_cm = fmax(worst_cm, cm);
		worst_scalar = fmax(worst_scalar, st.max_scalar_error);
		if (!(st.max_error <= threshold * 1.01 + rounding)) {
			snprintf(why, sizeof why, "clip %u ('%s'): max error %.6f cm > 0.01 cm (joint %u sample %u)", c,
			         ref->name ? ref->name : "", cm, st.worst_joint, st.worst_sample);
			ok = false;
		} else if (!(st.max_scalar_error <= 1.01)) {
			snprintf(why, sizeof why, "clip %u: scalar error %.3f x precision", c, st.max_scalar_error);
			ok = false;
		}
	}
	uint32_t clips = set->clip_count;
	sinew_clip_set_free(set);
	sinew_clip_set_free(back);
	CHECK_MSG(ok, "%s: %s", source, why);
	size_t source_size = 0, packed_size = 0, unpacked_size = 0;
	free(test_slurp(source, &source_size)), free(test_slurp(packed, &packed_size)), free(test_slurp(unpacked, &unpacked_size));
	sinew_gltf_sizes before, after;
	CHECK_OK(sinew_gltf_sizes_of(source, NULL, &before, &err), &err);
	CHECK_OK(sinew_gltf_sizes_of(packed, NULL, &after, &err), &err);
	CHECK_EQ(after.compressed_bytes, blob_bytes);
	CHECK(after.keyframe_bytes == 0 && before.compressed_bytes == 0 && before.keyframe_bytes > 0);
	printf("     %s: %u clips, %llu frames; file %zu -> packed %zu -> unpacked %zu bytes; animation %llu -> %llu "
	       "bytes (%.1f:1); max error %.5f cm, scalar %.2f x precision\n",
	       source, clips, (unsigned long long)frames, source_size, packed_size, unpacked_size,
	       (unsigned long long)before.keyframe_bytes, (unsigned long long)after.compressed_bytes,
	       (double)before.keyframe_bytes / (double)after.compressed_bytes, worst_cm, worst_scalar);
}

static void test_pack_platformer_player_glb(void) {
	char source[1024];
	pack_roundtrip(test_repo_path("data/godot_platformer_player.glb", source, sizeof source), "pack_platformer.glb",
	               "unpack_platformer.glb");
}

static void test_pack_platformer_player_gltf(void) {
	char source[1024];
	pack_roundtrip(test_repo_path("data/godot_platformer_player.glb", source, sizeof source), "pack_platformer.gltf",
	               "unpack_platformer.gltf");
}

static void corpus(const char *relative, const char *packed, const char *unpacked) {
	char source[1024];
	if (!test_corpus_path(relative, source, sizeof source)) return;
	pack_roundtrip(source, packed, unpacked);
}

static void test_pack_corpus_cesium_man(void) {
	corpus("gltf/khronos/CesiumMan/CesiumMan.gltf", "pack_CesiumMan.glb", "unpack_CesiumMan.gltf");
}
static void test_pack_corpus_fox(void) {
	corpus("gltf/khronos/Fox/Fox.glb", "pack_Fox.glb", "unpack_Fox.glb");
}
static void test_pack_corpus_robot_expressive(void) {
	corpus("gltf/threejs/RobotExpressive.glb", "pack_RobotExpressive.glb", "unpack_RobotExpressive.glb");
}
// KHR_animation_pointer: materials, texture transforms, cameras and lights packed and unpacked
static void test_pack_corpus_animation_pointer(void) {
	corpus("gltf/blender_io/24_animation_pointer/24_animation_pointer.gltf", "pack_24_animation_pointer.glb",
	       "unpack_24_animation_pointer.gltf");
}
static void test_pack_corpus_animated_morph_cube(void) {
	corpus("gltf/khronos/AnimatedMorphCube/AnimatedMorphCube.gltf", "pack_AnimatedMorphCube.gltf",
	       "unpack_AnimatedMorphCube.glb");
}

/* ---- hostile and wrong inputs ---- */

// A packed .gltf in the temporary folder (never in SINEW_EXPORT_DIR: the damaged copies must not be validated).
static char *packed_text(char *path, size_t size, size_t *length) {
	char source[1024];
	sinew_error err = {0};
	test_tmp_path("hostile_base.gltf", path, size);
	if (sinew_pack_gltf(test_repo_path("data/godot_platformer_player.glb", source, sizeof source), path, NULL, NULL,
	                    &err) != SINEW_RESULT_OK)
		return NULL;
	return (char *)test_slurp(path, length);
}

// Writes `text` with the first `from` replaced by `to`, unpacks it, expects `expected` and no output.
static bool try_edit(const char *text, const char *from, const char *to, sinew_result expected, const char *name) {
	const char *at = strstr(text, from);
	if (!at) return test_fail(__FILE__, __LINE__, "%s: '%s' not found", name, from), false;
	size_t n = strlen(text), a = (size_t)(at - text);
	char *edited = (char *)malloc(n + strlen(to) + 1);
	if (!edited) return false;
	memcpy(edited, text, a);
	strcpy(edited + a, to);
	strcat(edited, at + strlen(from));
	char in[512], out[600];
	test_tmp_path(name, in, sizeof in);
	snprintf(out, sizeof out, "%s.out.glb", in);
	remove(out);
	bool ok = spit(in, edited, strlen(edited));
	free(edited);
	sinew_error err = {0};
	sinew_result r = sinew_unpack_gltf(in, out, NULL, &err);
	if (r != expected) {
		test_fail(__FILE__, __LINE__, "%s: %s (%s), expected %s", name, sinew_result_name(r), err.message,
		          sinew_result_name(expected));
		return false;
	}
	if (test_file_exists(out)) return test_fail(__FILE__, __LINE__, "%s: output written on failure", name), false;
	printf("     %s refused, as expected: %s: %s\n", name, sinew_result_name(r), err.message);
	return ok;
}

static void test_pack_unpack_rejects_hostile_references(void) {
	char path[512], probe[160];
	size_t length = 0;
	char *text = packed_text(path, sizeof path, &length);
	CHECK(text);
	// The blob's bufferView is the last one; find its entry by its byteLength.
	doc d;
	bool loaded = doc_load(path, &d);
	uint32_t view = 0, offset = 0, blob_length = 0, views = 0;
	if (loaded) {
		const sinewi_json *ext = sinewi_json_get(sinewi_json_get(d.root, "extensions"), "SINEW_compressed_animation");
		sinewi_json_uint(sinewi_json_get(ext, "bufferView"), &view);
		const sinewi_json *v = sinewi_json_at(sinewi_json_get(d.root, "bufferViews"), view);
		sinewi_json_uint(sinewi_json_get(v, "byteOffset"), &offset);
		sinewi_json_uint(sinewi_json_get(v, "byteLength"), &blob_length);
		views = sinewi_json_get(d.root, "bufferViews")->count;
	}
	doc_free(&d);
	if (!loaded) free(text);
	CHECK(loaded && blob_length > 0);
	char ext_ref[64], bad_ref[64], range[96], bad_range[96], bad_offset[96];
	snprintf(ext_ref, sizeof ext_ref, "{\"bufferView\":%u,", view);
	snprintf(bad_ref, sizeof bad_ref, "{\"bufferView\":%u,", views);
	snprintf(range, sizeof range, "\"byteOffset\":%u,\"byteLength\":%u}", offset, blob_length);
	snprintf(bad_range, sizeof bad_range, "\"byteOffset\":%u,\"byteLength\":%u}", offset, blob_length + 64);
	snprintf(bad_offset, sizeof bad_offset, "\"byteOffset\":%u,\"byteLength\":%u}", offset + 4000000000u, blob_length);
	bool ok = try_edit(text, ext_ref, bad_ref, SINEW_RESULT_CORRUPT, "hostile_view_index.gltf") &&
	          try_edit(text, range, bad_range, SINEW_RESULT_CORRUPT, "hostile_view_past_buffer.gltf") &&
	          try_edit(text, range, bad_offset, SINEW_RESULT_CORRUPT, "hostile_view_offset_overflow.gltf") &&
	          try_edit(text, "\"version\":3", "\"version\":9", SINEW_RESULT_BAD_VERSION, "hostile_version.gltf") &&
	          try_edit(text, "{\"name\":\"falling\",", "{\"name\":\"extra\"},{\"name\":\"falling\",", SINEW_RESULT_CORRUPT,
	                   "hostile_clip_count.gltf") &&
	          try_edit(text, "\"SINEW_compressed_animation\":{", "\"SINEW_other\":{", SINEW_RESULT_UNSUPPORTED,
	                   "hostile_no_extension.gltf");
	// A shorter view cuts the blob: sinew_validate reports it.
	snprintf(probe, sizeof probe, "\"byteOffset\":%u,\"byteLength\":%u}", offset, blob_length - 16);
	ok = ok && try_edit(text, range, probe, SINEW_RESULT_TRUNCATED, "hostile_view_short.gltf");
	free(text);
	CHECK(ok);
}

static void test_pack_unpack_rejects_corrupt_blob(void) {
	char source[1024], packed[512], out[600];
	sinew_error err = {0};
	test_tmp_path("corrupt_blob.glb", packed, sizeof packed);
	CHECK_OK(sinew_pack_gltf(test_repo_path("data/godot_platformer_player.glb", source, sizeof source), packed, NULL,
	                         NULL, &err),
	         &err);
	doc d;
	CHECK(doc_load(packed, &d));
	uint32_t view = 0, offset = 0, length = 0;
	const sinewi_json *ext = sinewi_json_get(sinewi_json_get(d.root, "extensions"), "SINEW_compressed_animation");
	sinewi_json_uint(sinewi_json_get(ext, "bufferView"), &view);
	const sinewi_json *v = sinewi_json_at(sinewi_json_get(d.root, "bufferViews"), view);
	sinewi_json_uint(sinewi_json_get(v, "byteOffset"), &offset);
	sinewi_json_uint(sinewi_json_get(v, "byteLength"), &length);
	size_t at = d.bin_offset + offset;
	bool fits = length > 64 && at + length <= d.file_size;
	if (fits) {
		d.file[at + length / 2] ^= 0x5a; // payload byte: the checksum catches it
		fits = spit(packed, d.file, d.file_size);
	}
	doc_free(&d);
	CHECK(fits);
	snprintf(out, sizeof out, "%s.out.glb", packed);
	remove(out);
	CHECK_RESULT(sinew_unpack_gltf(packed, out, NULL, &err), SINEW_RESULT_CHECKSUM, &err);
	CHECK(strstr(err.message, "bufferView") != NULL);
	CHECK(!test_file_exists(out));
	// The magic too.
	CHECK(doc_load(packed, &d));
	d.file[at] ^= 0xff;
	fits = spit(packed, d.file, d.file_size);
	doc_free(&d);
	CHECK(fits);
	CHECK_RESULT(sinew_unpack_gltf(packed, out, NULL, &err), SINEW_RESULT_BAD_MAGIC, &err);
	CHECK(!test_file_exists(out));
}

static void test_pack_rejects_wrong_inputs(void) {
	char source[1024], packed[512], out[512];
	sinew_error err = {0};
	test_repo_path("data/godot_platformer_player.glb", source, sizeof source);
	test_tmp_path("wrong_inputs.glb", out, sizeof out);
	remove(out);
	CHECK_RESULT(sinew_pack_gltf(NULL, out, NULL, NULL, &err), SINEW_RESULT_INVALID_ARGUMENT, &err);
	CHECK_RESULT(sinew_unpack_gltf(source, NULL, NULL, &err), SINEW_RESULT_INVALID_ARGUMENT, &err);
	// A file without the extension is not a packed file.
	CHECK_RESULT(sinew_unpack_gltf(source, out, NULL, &err), SINEW_RESULT_UNSUPPORTED, &err);
	CHECK(!test_file_exists(out));
	// Packing a packed file: it has no animations left.
	test_tmp_path("wrong_inputs_packed.glb", packed, sizeof packed);
	CHECK_OK(sinew_pack_gltf(source, packed, NULL, NULL, &err), &err);
	CHECK_RESULT(sinew_pack_gltf(packed, out, NULL, NULL, &err), SINEW_RESULT_BAD_COUNT, &err);
	CHECK(!test_file_exists(out));
	// A missing output folder is an IO error without a stray temporary file.
	char missing[600];
	snprintf(missing, sizeof missing, "%s.missing_dir/out.glb", packed);
	CHECK_RESULT(sinew_unpack_gltf(packed, missing, NULL, &err), SINEW_RESULT_IO, &err);
}

void suite_pack(void) {
	RUN(test_pack_platformer_player_glb);
	RUN(test_pack_platformer_player_gltf);
	RUN(test_pack_corpus_cesium_man);
	RUN(test_pack_corpus_fox);
	RUN(test_pack_corpus_robot_expressive);
	RUN(test_pack_corpus_animated_morph_cube);
	RUN(test_pack_corpus_animation_pointer);
	RUN(test_pack_unpack_rejects_hostile_references);
	RUN(test_pack_unpack_rejects_corrupt_blob);
	RUN(test_pack_rejects_wrong_inputs);
}
