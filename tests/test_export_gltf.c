// sinew — see include/sinew.h for version and licence
#define _POSIX_C_SOURCE 200809L
// export_gltf: the glTF writer. Structure checks read the written file back with the JSON parser and a
// tiny accessor reader here (no importer needed); round trips re-import with sinew_import_file and
// compare with the error metric (skipped while an importer returns UNSUPPORTED).
//
// Exported files go to $SINEW_EXPORT_DIR when it is set (CI then runs tests/validator/validate.mjs over
// that folder), else to the test run's temporary folder. Exports made from a source document also get
// a `<file>.source` note naming that source, so the validator script can tell errors inherited from the
// source (e.g. CesiumMan's non-normalized skin weights) from errors the exporter introduced.
#include "test.h"

#include "import/json.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- output locations ---- */

/* ---- reading an exported file back (independent of the importer) ---- */

typedef struct doc {
	sinewi_arena arena;
	sinewi_json *root;
	unsigned char *file;
	size_t file_size;
	unsigned char *bin; // points into file (glb) or decoded (gltf, owned)
	size_t bin_size;
	bool bin_owned;
	bool glb;
} doc;

static uint32_t u32le(const unsigned char *p) {
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int b64(char c) {
	const char *chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c ? strchr(chars, c) : NULL;
	return p ? (int)(p - chars) : -1;
}

static void doc_free(doc *d) {
	if (d->bin_owned) free(d->bin);
	free(d->file);
	sinewi_arena_free(&d->arena);
	memset(d, 0, sizeof *d);
}

// Loads a .gltf/.glb written by the exporter; checks the container rules on the way (returns a reason).
static const char *doc_load_inner(const char *path, doc *d) {
	memset(d, 0, sizeof *d);
	sinewi_arena_init(&d->arena, NULL);
	d->file = test_slurp(path, &d->file_size);
	if (!d->file) return "cannot read file";
	const char *text = (const char *)d->file;
	size_t text_size = d->file_size;
	if (d->file_size >= 4 && memcmp(d->file, "glTF", 4) == 0) {
		d->glb = true;
		if (d->file_size < 28 || u32le(d->file + 4) != 2 || u32le(d->file + 8) != d->file_size) return "bad GLB header";
		uint32_t json_length = u32le(d->file + 12);
		if (json_length % 4 || u32le(d->file + 16) != 0x4E4F534Au || 20 + (size_t)json_length + 8 > d->file_size)
			return "bad JSON chunk";
		text = (const char *)d->file + 20;
		text_size = json_length;
		const unsigned char *chunk = d->file + 20 + json_length;
		uint32_t bin_length = u32le(chunk);
		if (bin_length % 4 || u32le(chunk + 4) != 0x004E4942u || 28 + (size_t)json_length + bin_length != d->file_size)
			return "bad BIN chunk";
		d->bin = (unsigned char *)chunk + 8;
		d->bin_size = bin_length;
	}
	sinew_error err = {0};
	if (sinewi_json_parse(&d->arena, text, text_size, &d->root, &err) != SINEW_RESULT_OK) return "JSON does not parse";
	const sinewi_json *buffers = sinewi_json_get(d->root, "buffers");
	if (!buffers || buffers->count != 1) return "expected exactly one buffer";
	uint32_t byte_length = 0;
	if (!sinewi_json_uint(sinewi_json_get(&buffers->children[0], "byteLength"), &byte_length)) return "no byteLength";
	const char *uri = sinewi_json_string(sinewi_json_get(&buffers->children[0], "uri"));
	if (d->glb) {
		if (uri) return "GLB buffer must not have a uri";
		if (byte_length > d->bin_size || d->bin_size - byte_length > 3)
			return "GLB byteLength does not match BIN chunk";
		return NULL;
	}
	const char *prefix = "data:application/octet-stream;base64,";
	if (!uri || strncmp(uri, prefix, strlen(prefix)) != 0) return "buffer is not an embedded base64 data URI";
	const char *p = uri + strlen(prefix);
	size_t n = strlen(p);
	d->bin = (unsigned char *)malloc(n / 4 * 3 + 4);
	d->bin_owned = true;
	if (!d->bin) return "out of memory";
	uint32_t acc = 0;
	int bits = 0;
	for (size_t i = 0; i < n && p[i] != '='; ++i) {
		int v = b64(p[i]);
		if (v < 0) return "bad base64";
		acc = (acc << 6 | (uint32_t)v) & 0xffffff;
		bits += 6;
		if (bits >= 8) bits -= 8, d->bin[d->bin_size++] = (unsigned char)(acc >> bits);
	}
	if (d->bin_size != byte_length) return "decoded buffer size differs from byteLength";
	return NULL;
}

// The same; on failure nothing stays allocated.
static const char *doc_load(const char *path, doc *d) {
	const char *problem = doc_load_inner(path, d);
	if (problem) doc_free(d);
	return problem;
}

static const sinewi_json *at(const sinewi_json *root, const char *array, uint32_t index) {
	return sinewi_json_at(sinewi_json_get(root, array), index);
}

static uint32_t member_uint(const sinewi_json *object, const char *name, uint32_t fallback) {
	uint32_t v;
	return sinewi_json_uint(sinewi_json_get(object, name), &v) ? v : fallback;
}

static const char *member_string(const sinewi_json *object, const char *name) {
	return sinewi_json_string(sinewi_json_get(object, name));
}

// Float contents of an accessor (tightly packed float32, as the exporter writes). NULL on a bad reference.
static const unsigned char *accessor_data(const doc *d, uint32_t accessor, uint32_t *count, uint32_t *components) {
	const sinewi_json *acc = at(d->root, "accessors", accessor);
	if (!acc || member_uint(acc, "componentType", 0) != 5126) return NULL;
	const char *type = member_string(acc, "type");
	*components = !type                         ? 0
	              : strcmp(type, "SCALAR") == 0 ? 1
	              : strcmp(type, "VEC3") == 0   ? 3
	              : strcmp(type, "VEC4") == 0   ? 4
	                                            : 0;
	*count = member_uint(acc, "count", 0);
	const sinewi_json *view = at(d->root, "bufferViews", member_uint(acc, "bufferView", UINT32_MAX));
	if (!view || !*components) return NULL;
	size_t offset = (size_t)member_uint(view, "byteOffset", 0) + member_uint(acc, "byteOffset", 0);
	size_t bytes = (size_t)*count * *components * 4;
	if (offset % 4 || offset + bytes > d->bin_size) return NULL;
	if (member_uint(acc, "byteOffset", 0) + bytes > member_uint(view, "byteLength", 0)) return NULL;
	return d->bin + offset;
}

static float float_at(const unsigned char *data, size_t index) {
	float v;
	memcpy(&v, data + index * 4, 4);
	return v;
}

/* ---- hand-made clips ---- */

// A 5-joint skeleton in centimetres (unit_scale 100): root (moves), spine (turns), head (scales, floor
// rounding), tail (static), end site (no track). Clip 1 has the same skeleton and a different motion.
static sinew_clip_set *make_set(uint32_t samples, uint32_t scalars) {
	sinew_clip_set *set = NULL;
	if (sinew_clip_set_create(&set, NULL) != SINEW_RESULT_OK) return NULL;
	static const char *const names[] = {"root", "spine", "head", "tail", "head_end"};
	static const int32_t parents[] = {-1, 0, 1, 0, 2};
	for (int c = 0; c < 2; ++c) {
		sinew_clip_desc desc = {.name = c ? "wave" : "walk",
		                        .sample_rate = c ? 24 : 30,
		                        .sample_count = samples + (uint32_t)c,
		                        .joint_count = 5,
		                        .scalar_track_count = c ? 0 : scalars};
		sinew_clip *clip = NULL;
		if (sinew_clip_set_add_clip(set, &desc, &clip) != SINEW_RESULT_OK) return NULL;
		clip->unit_scale = 100.0;
		clip->looping = (uint8_t)c;
		for (uint32_t j = 0; j < 5; ++j) {
			sinew_joint *joint = &clip->joints[j];
			joint->name = sinew_clip_set_strdup(set, names[j]);
			joint->parent = parents[j];
			joint->source_index = (int32_t)j;
			joint->default_pose.translation[1] = j ? 10.0f : 90.0f;
		}
		clip->joints[2].rounding = SINEW_ROUNDING_FLOOR;
		clip->joints[4].has_track = 0;
		clip->joints[3].default_pose.rotation[0] = 0.6f, clip->joints[3].default_pose.rotation[3] = 0.8f;
		for (uint32_t k = 0; k < clip->sample_count; ++k) {
			double t = (double)k / clip->sample_rate;
			for (uint32_t j = 0; j < 5; ++j) clip->transforms[k * 5 + j] = clip->joints[j].default_pose;
			sinew_qvv *root = &clip->transforms[k * 5 + 0], *spine = &clip->transforms[k * 5 + 1];
			sinew_qvv *head = &clip->transforms[k * 5 + 2];
			root->translation[0] = (float)(c ? -50.0 * t : 120.0 * t);
			root->translation[1] = (float)(90.0 + 3.0 * sin(6.0 * t));
			double a = (c ? 2.0 : 1.0) * sin(3.0 * t);
			spine->rotation[0] = 0.0f, spine->rotation[1] = (float)sin(a / 2), spine->rotation[2] = 0.0f;
			spine->rotation[3] = (float)cos(a / 2);
			head->scale[0] = head->scale[1] = head->scale[2] = (float)(1.0 + 0.1 * (double)(k / 4));
		}
		for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
			clip->scalar_tracks[i].name = sinew_clip_set_strdup(set, "blink");
			for (uint32_t k = 0; k < clip->sample_count; ++k)
				clip->scalar_tracks[i].values[k] = (float)k / (float)samples;
		}
	}
	return set;
}

static double max_translation(const sinew_clip *clip) {
	double m = 0.0;
	for (size_t i = 0; i < (size_t)clip->sample_count * clip->joint_count; ++i)
		for (int c = 0; c < 3; ++c) m = fmax(m, fabs((double)clip->transforms[i].translation[c]));
	return m;
}

// Brings a re-imported clip to the units of `reference` (glTF is metres).
static void rescale(sinew_clip *clip, double unit_scale) {
	float f = (float)(unit_scale / clip->unit_scale);
	if (f == 1.0f) return;
	for (size_t i = 0; i < (size_t)clip->sample_count * clip->joint_count; ++i)
		for (int c = 0; c < 3; ++c) clip->transforms[i].translation[c] *= f;
	for (uint32_t j = 0; j < clip->joint_count; ++j)
		for (int c = 0; c < 3; ++c) clip->joints[j].default_pose.translation[c] *= f;
	clip->unit_scale = unit_scale;
}

static double worst_relative; // largest error / clip size seen by compare_clips, for the corpus report

// Compares a re-imported clip with its original: counts, names, hierarchy, rate, and an object-space error
// within 1e-5 of the clip's extent. Returns a reason or NULL.
static const char *compare_clips(const sinew_clip *ref, sinew_clip *got, bool by_index, char *why, size_t why_size) {
	uint32_t missing = 0;
	if (got->joint_count == ref->joint_count && !test_reorder_joints(ref, got, by_index, &missing)) {
		snprintf(why, why_size, "joint %u ('%s') is not in the re-imported clip", missing,
		         ref->joints[missing].name ? ref->joints[missing].name : "");
		return why;
	}
	if (got->joint_count != ref->joint_count || got->sample_count != ref->sample_count ||
	    got->scalar_track_count != ref->scalar_track_count) {
		snprintf(why, why_size, "counts differ: joints %u/%u samples %u/%u scalar tracks %u/%u", got->joint_count,
		         ref->joint_count, got->sample_count, ref->sample_count, got->scalar_track_count,
		         ref->scalar_track_count);
		return why;
	}
	// A single sample has no rate to preserve.
	if (ref->sample_count > 1 && fabs(got->sample_rate - ref->sample_rate) > 1e-6 * ref->sample_rate) {
		snprintf(why, why_size, "sample rate %.9g vs %.9g", got->sample_rate, ref->sample_rate);
		return why;
	}
	if ((ref->name || got->name) && (!ref->name || !got->name || strcmp(ref->name, got->name) != 0)) {
		snprintf(why, why_size, "clip name '%s' vs '%s'", got->name ? got->name : "(null)",
		         ref->name ? ref->name : "(null)");
		return why;
	}
	for (uint32_t j = 0; j < ref->joint_count; ++j) {
		const char *a = ref->joints[j].name, *b = got->joints[j].name;
		if ((a || b) && (!a || !b || strcmp(a, b) != 0)) {
			snprintf(why, why_size, "joint %u name '%s' vs '%s'", j, b ? b : "(null)", a ? a : "(null)");
			return why;
		}
		if (got->joints[j].parent != ref->joints[j].parent) {
			snprintf(why, why_size, "joint %u parent %d vs %d", j, got->joints[j].parent, ref->joints[j].parent);
			return why;
		}
		if (got->joints[j].has_track != ref->joints[j].has_track) {
			snprintf(why, why_size, "joint %u ('%s') has_track %u vs %u", j, a ? a : "", got->joints[j].has_track,
			         ref->joints[j].has_track);
			return why;
		}
	}
	rescale(got, ref->unit_scale);
	sinew_error_stats stats;
	sinew_error err = {0};
	if (sinew_measure_error(ref, got, NULL, NULL, &stats, &err) != SINEW_RESULT_OK) {
		snprintf(why, why_size, "measure_error: %.200s", err.message);
		return why;
	}
	// Relative to the clip's size: the shell plus the largest local translation (float32 metres and back
	// round each value by ~1e-7 relative).
	double shell = 3.0 * 0.01 * ref->unit_scale;
	double tolerance = 1e-5 * (shell + max_translation(ref));
	worst_relative = fmax(worst_relative, stats.max_error / (shell + max_translation(ref)));
	if (!(stats.max_error <= tolerance)) {
		snprintf(why, why_size, "max error %.3g > %.3g (joint %u sample %u)", stats.max_error, tolerance,
		         stats.worst_joint, stats.worst_sample);
		return why;
	}
	for (uint32_t i = 0; i < ref->scalar_track_count; ++i) {
		const sinew_scalar_track *a = &ref->scalar_tracks[i], *b = &got->scalar_tracks[i];
		if (a->components != b->components) {
			snprintf(why, why_size, "scalar track %u components %u vs %u", i, b->components, a->components);
			return why;
		}
		if ((a->source_node == SINEW_SOURCE_POINTER) != (b->source_node == SINEW_SOURCE_POINTER) ||
		    (a->source_node == SINEW_SOURCE_POINTER &&
		     (a->source_target != b->source_target || !a->name || !b->name || strcmp(a->name, b->name) != 0))) {
			snprintf(why, why_size, "scalar track %u drives %s[%d] vs %s[%d]", i, b->name ? b->name : "(null)",
			         b->source_target, a->name ? a->name : "(null)", a->source_target);
			return why;
		}
		for (size_t k = 0; k < (size_t)ref->sample_count * a->components; ++k)
			if (!(fabs((double)a->values[k] - (double)b->values[k]) <= 1e-5 * fmax(1.0, fabs((double)a->values[k])))) {
				snprintf(why, why_size, "scalar track %u value %zu: %.9g vs %.9g", i, k, (double)b->values[k],
				         (double)a->values[k]);
				return why;
			}
	}
	return NULL;
}


/* ---- argument and failure handling ---- */

// A key's time is f32(k / rate), up to half an ulp (5e-7 s near 13 s) off the sample time; a node at
// 40 m/s covers 2e-5 m in that. The exporter writes the value the clip plays at the key's own time.
static void test_export_keys_hold_values_at_their_float32_times(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
	sinew_clip_desc desc = {"fast", 30.0499176, 401, 1, 0, NULL};
	sinew_clip *clip = NULL;
	CHECK_OK(sinew_clip_set_add_clip(set, &desc, &clip), &err);
	for (uint32_t k = 0; k < clip->sample_count; ++k) // 1 m at 40 rad/s: up to 40 m/s
		clip->transforms[k].translation[1] = (float)sin(40.0 * k / desc.sample_rate);
	char path[512];
	test_export_path("fast_keys.gltf", path, sizeof path);
	CHECK_OK(sinew_export_gltf(set, path, NULL, NULL, &err), &err);
	doc d;
	const char *problem = doc_load(path, &d);
	CHECK_MSG(!problem, "%s: %s", path, problem);
	const sinewi_json *anim = at(d.root, "animations", 0), *sampler = at(anim, "samplers", 0);
	uint32_t count = 0, comps = 0;
	const unsigned char *times = accessor_data(&d, member_uint(sampler, "input", 99), &count, &comps);
	CHECK(times && count == clip->sample_count);
	const unsigned char *values = accessor_data(&d, member_uint(sampler, "output", 99), &count, &comps);
	CHECK(values && count == clip->sample_count && comps == 3);
	double worst = 0.0, shift = 0.0;
	for (uint32_t k = 0; k < count; ++k) {
		double x = (double)float_at(times, k) * desc.sample_rate; // where the key falls on the samples
		if (x > count - 1) x = count - 1;                           // playback holds the last sample
		uint32_t k0 = x < k && k > 0 ? k - 1 : k;
		if (k0 + 1 >= count) k0 = count - 2;
		double a = clip->transforms[k0].translation[1], b = clip->transforms[k0 + 1].translation[1];
		double played = a + (b - a) * (x - k0), got = float_at(values, 3 * k + 1);
		// (no fmax reductions here: gcc 12's AArch64 vectorizer fails on them, an internal compiler error)
		double off = fabs(got - played), moved = fabs(clip->transforms[k].translation[1] - played);
		if (off > worst) worst = off;
		if (moved > shift) shift = moved;
	}
	CHECK_MSG(worst <= 1.2e-7, "a key is %.3g m off the clip played at its time", worst);
	CHECK_MSG(shift >= 1e-5, "the keys' float32 times moved the clip by only %.3g m", shift); // the case bites
	doc_free(&d);
	sinew_clip_set_free(set);
}

static void test_export_rejects_invalid_arguments(void) {
	sinew_error err = {0};
	char path[512];
	test_export_path("invalid.gltf", path, sizeof path);
	CHECK_RESULT(sinew_export_gltf(NULL, path, NULL, NULL, &err), SINEW_RESULT_INVALID_ARGUMENT, &err);
	sinew_clip_set *set = NULL;
	CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
	CHECK_RESULT(sinew_export_gltf(set, path, NULL, NULL, &err), SINEW_RESULT_INVALID_ARGUMENT, &err);
	CHECK(strstr(err.message, "empty"));
	sinew_clip_set_free(set);
	set = make_set(8, 0);
	CHECK(set);
	CHECK_RESULT(sinew_export_gltf(set, NULL, NULL, NULL, &err), SINEW_RESULT_INVALID_ARGUMENT, &err);
	sinew_export_options bad = {.binary = 2};
	CHECK_RESULT(sinew_export_gltf(set, path, &bad, NULL, &err), SINEW_RESULT_INVALID_ARGUMENT, &err);
	// An invalid clip is reported with the validator's code and the clip's name.
	set->clips[1]->transforms[7].translation[0] = NAN;
	CHECK_RESULT(sinew_export_gltf(set, path, NULL, NULL, &err), SINEW_RESULT_NOT_FINITE, &err);
	CHECK(strstr(err.message, "wave"));
	CHECK(!test_file_exists(path));
	sinew_clip_set_free(set);
}

static bool dir_has_temp_files(const char *dir) {
	DIR *d = opendir(dir);
	if (!d) return false;
	bool found = false;
	for (struct dirent *entry; (entry = readdir(d)) != NULL;)
		if (strstr(entry->d_name, ".tmp.")) found = true;
	closedir(d);
	return found;
}

static void test_export_missing_directory_is_io_error(void) {
	sinew_clip_set *set = make_set(8, 0);
	CHECK(set);
	sinew_error err = {0};
	char dir[512], path[600];
	test_tmp_path("no_such_dir", dir, sizeof dir);
	snprintf(path, sizeof path, "%s/out.glb", dir);
	CHECK_RESULT(sinew_export_gltf(set, path, NULL, NULL, &err), SINEW_RESULT_IO, &err);
	CHECK(strstr(err.message, "no_such_dir"));
	CHECK(!test_file_exists(path));
	CHECK(!test_file_exists(dir));
	// A missing source document is an IO error too, and leaves nothing behind.
	test_tmp_path("from_missing_source.gltf", path, sizeof path);
	sinew_export_options options = {.binary = -1, .source_path = "/nonexistent/sinew/source.gltf"};
	CHECK_RESULT(sinew_export_gltf(set, path, &options, NULL, &err), SINEW_RESULT_IO, &err);
	CHECK(!test_file_exists(path));
	char tmp_dir[512];
	test_tmp_path("", tmp_dir, sizeof tmp_dir);
	CHECK(!dir_has_temp_files(tmp_dir));
	sinew_clip_set_free(set);
}

static void test_export_different_skeletons_unsupported(void) {
	sinew_clip_set *set = make_set(8, 0);
	CHECK(set);
	set->clips[1]->joints[3].parent = 1;
	sinew_error err = {0};
	char path[512];
	test_tmp_path("skeletons.gltf", path, sizeof path);
	CHECK_RESULT(sinew_export_gltf(set, path, NULL, NULL, &err), SINEW_RESULT_UNSUPPORTED, &err);
	CHECK(strstr(err.message, "different skeleton"));
	CHECK(!test_file_exists(path));
	sinew_clip_set_free(set);
}

static void test_export_scalar_only_clip_unsupported(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
	sinew_clip_desc desc = {.name = "curves", .sample_rate = 30, .sample_count = 4, .scalar_track_count = 2};
	CHECK_OK(sinew_clip_set_add_clip(set, &desc, NULL), &err);
	char path[512];
	test_tmp_path("curves.gltf", path, sizeof path);
	// glTF cannot hold a free curve without a mesh to morph: nothing to write is an error, not an empty file.
	CHECK_RESULT(sinew_export_gltf(set, path, NULL, NULL, &err), SINEW_RESULT_UNSUPPORTED, &err);
	CHECK(strstr(err.message, "curves"));
	CHECK(!test_file_exists(path));
	sinew_clip_set_free(set);
}

/* ---- structure of what is written ---- */

// Checks one exported file of make_set(): nodes, scene, animations, accessors and the values themselves.
static void check_structure(const char *path, const sinew_clip_set *set, bool expect_glb) {
	doc d;
	const char *problem = doc_load(path, &d);
	CHECK_MSG(!problem, "%s: %s", path, problem);
	CHECK(d.glb == expect_glb);
	const sinewi_json *root = d.root;
	CHECK(strcmp(member_string(sinewi_json_get(root, "asset"), "version"), "2.0") == 0);
	CHECK(strncmp(member_string(sinewi_json_get(root, "asset"), "generator"), "sinew ", 6) == 0);
	const sinew_clip *c0 = set->clips[0];
	CHECK_EQ(sinewi_json_get(root, "nodes")->count, 5);
	const sinewi_json *scene = at(root, "scenes", member_uint(root, "scene", 99));
	CHECK(scene && sinewi_json_get(scene, "nodes")->count == 1);
	uint32_t scene_root = 99;
	CHECK(sinewi_json_uint(sinewi_json_at(sinewi_json_get(scene, "nodes"), 0), &scene_root) && scene_root == 0);
	for (uint32_t j = 0; j < 5; ++j)
		CHECK(strcmp(member_string(at(root, "nodes", j), "name"), c0->joints[j].name) == 0);
	// root's children are spine and tail; spine's child is head; head's child is the end site
	const sinewi_json *children = sinewi_json_get(at(root, "nodes", 0), "children");
	CHECK(children && children->count == 2);
	uint32_t child = 0;
	CHECK(sinewi_json_uint(sinewi_json_at(children, 0), &child) && child == 1);
	CHECK(sinewi_json_uint(sinewi_json_at(children, 1), &child) && child == 3);
	CHECK(!sinewi_json_get(at(root, "nodes", 3), "children"));
	// rest TRS in metres; identity members omitted
	double v = 0;
	CHECK(sinewi_json_number(sinewi_json_at(sinewi_json_get(at(root, "nodes", 1), "translation"), 1), &v));
	CHECK_NEAR(v, 0.1, 1e-7);
	CHECK(!sinewi_json_get(at(root, "nodes", 1), "rotation"));
	CHECK(!sinewi_json_get(at(root, "nodes", 1), "scale"));
	CHECK(sinewi_json_get(at(root, "nodes", 3), "rotation"));

	const sinewi_json *anims = sinewi_json_get(root, "animations");
	CHECK(anims && anims->count == set->clip_count);
	for (uint32_t c = 0; c < set->clip_count; ++c) {
		const sinew_clip *clip = set->clips[c];
		const sinewi_json *anim = &anims->children[c];
		CHECK(strcmp(member_string(anim, "name"), clip->name) == 0);
		const sinewi_json *extras = sinewi_json_get(sinewi_json_get(anim, "extras"), "sinew");
		double rate = 0;
		CHECK(sinewi_json_number(sinewi_json_get(extras, "sample_rate"), &rate) && rate == clip->sample_rate);
		CHECK(sinewi_json_get(extras, "looping")->type == (clip->looping ? SINEWI_JSON_TRUE : SINEWI_JSON_FALSE));
		if (clip->scalar_track_count)
			CHECK_EQ(member_uint(extras, "skipped_scalar_tracks", 0), clip->scalar_track_count);
		const sinewi_json *channels = sinewi_json_get(anim, "channels"), *samplers = sinewi_json_get(anim, "samplers");
		// root translation, spine rotation, head scale; the end site has no track. The tail is static (equals its
		// rest) in every clip, and every clip animates it (has_track): each keeps one rotation channel for it.
		CHECK_EQ(channels->count, 4);
		CHECK_EQ(samplers->count, channels->count);
		bool seen[4] = {false, false, false, false};
		for (uint32_t i = 0; i < channels->count; ++i) {
			const sinewi_json *target = sinewi_json_get(&channels->children[i], "target");
			uint32_t node = member_uint(target, "node", 99);
			const char *p = member_string(target, "path");
			const sinewi_json *sampler = &samplers->children[member_uint(&channels->children[i], "sampler", 99)];
			const char *interp = member_string(sampler, "interpolation");
			CHECK(node <= 3);
			CHECK(strcmp(p, node == 0 ? "translation" : node == 2 ? "scale" : "rotation") == 0);
			CHECK(node == 2 ? interp && strcmp(interp, "STEP") == 0 : !interp || strcmp(interp, "LINEAR") == 0);
			seen[node] = true;
			// input: k / rate as float32 with min/max
			uint32_t count = 0, comps = 0;
			uint32_t input = member_uint(sampler, "input", 99);
			const unsigned char *times = accessor_data(&d, input, &count, &comps);
			CHECK(times && comps == 1 && count == clip->sample_count);
			const sinewi_json *acc = at(root, "accessors", input);
			double mn = -1, mx = -1;
			CHECK(sinewi_json_number(sinewi_json_at(sinewi_json_get(acc, "min"), 0), &mn) && mn == 0.0);
			CHECK(sinewi_json_number(sinewi_json_at(sinewi_json_get(acc, "max"), 0), &mx));
			CHECK(mx == (double)float_at(times, count - 1));
			for (uint32_t k = 0; k < count; ++k) CHECK(float_at(times, k) == (float)((double)k / clip->sample_rate));
			// output: the clip's values, translations in metres
			const unsigned char *out = accessor_data(&d, member_uint(sampler, "output", 99), &count, &comps);
			CHECK(out && count == clip->sample_count && comps == (node == 1 || node == 3 ? 4u : 3u));
			for (uint32_t k = 0; k < count; ++k) {
				const sinew_qvv *x = &clip->transforms[k * clip->joint_count + node];
				for (uint32_t i2 = 0; i2 < comps; ++i2) {
					double expected = node == 0   ? x->translation[i2] / 100.0
					                  : node == 2 ? x->scale[i2]
					                              : x->rotation[i2];
					CHECK_NEAR(float_at(out, (size_t)k * comps + i2), expected, 1e-6 * fmax(1.0, fabs(expected)));
				}
			}
		}
		CHECK(seen[0] && seen[1] && seen[2] && seen[3]); // (the static tail too: each clip animates it)
	}
	// One skin per root lists every joint, end site included, depth first.
	const sinewi_json *skins = sinewi_json_get(root, "skins");
	CHECK(skins && skins->count == 1);
	const sinewi_json *joints = sinewi_json_get(&skins->children[0], "joints");
	CHECK(joints && joints->count == 5);
	static const uint32_t dfs[5] = {0, 1, 2, 4, 3};
	for (uint32_t i = 0; i < 5; ++i) CHECK(sinewi_json_uint(sinewi_json_at(joints, i), &child) && child == dfs[i]);
	doc_free(&d);
}

static void test_export_structure_gltf_and_glb(void) {
	sinew_clip_set *set = make_set(12, 1);
	CHECK(set);
	sinew_error err = {0};
	char gltf[512], glb[512], forced[512];
	test_export_path("hand_clips.gltf", gltf, sizeof gltf);
	test_export_path("hand_clips.glb", glb, sizeof glb);
	test_export_path("hand_clips_forced_binary.gltf.bin", forced, sizeof forced);
	CHECK_OK(sinew_export_gltf(set, gltf, NULL, NULL, &err), &err);
	CHECK_OK(sinew_export_gltf(set, glb, NULL, NULL, &err), &err);
	sinew_export_options binary = {.binary = 1};
	CHECK_OK(sinew_export_gltf(set, forced, &binary, NULL, &err), &err);
	check_structure(gltf, set, false);
	if (test_failed()) return;
	check_structure(glb, set, true);
	if (test_failed()) return;
	check_structure(forced, set, true);
	if (test_failed()) return;
	remove(forced); // the validator only looks at .gltf/.glb names
	// Exporting again replaces the file.
	CHECK_OK(sinew_export_gltf(set, glb, NULL, NULL, &err), &err);
	check_structure(glb, set, true);
	sinew_clip_set_free(set);
}

static void test_export_static_clip_keeps_duration(void) {
	sinew_clip_set *set = make_set(10, 0);
	CHECK(set);
	sinew_clip *clip = set->clips[0];
	for (uint32_t k = 0; k < clip->sample_count; ++k)
		for (uint32_t j = 0; j < clip->joint_count; ++j)
			clip->transforms[k * clip->joint_count + j] = clip->joints[j].default_pose;
	sinew_error err = {0};
	char path[512];
	test_export_path("static_clip.gltf", path, sizeof path);
	CHECK_OK(sinew_export_gltf(set, path, NULL, NULL, &err), &err);
	doc d;
	const char *problem = doc_load(path, &d);
	CHECK_MSG(!problem, "%s", problem);
	const sinewi_json *anim = at(d.root, "animations", 0);
	const sinewi_json *channels = sinewi_json_get(anim, "channels");
	// Every sub-track equals the rest pose: each joint the clip animates (has_track) keeps one rotation channel,
	// with every key time; the end site has no track.
	uint32_t tracked = 0;
	for (uint32_t j = 0; j < clip->joint_count; ++j) tracked += clip->joints[j].has_track != 0;
	CHECK(tracked > 0);
	CHECK_EQ(channels->count, tracked);
	for (uint32_t i = 0; i < channels->count; ++i)
		CHECK(strcmp(member_string(sinewi_json_get(&channels->children[i], "target"), "path"), "rotation") == 0);
	uint32_t count = 0, comps = 0;
	const sinewi_json *sampler = at(anim, "samplers", 0);
	CHECK(accessor_data(&d, member_uint(sampler, "input", 99), &count, &comps));
	CHECK_EQ(count, clip->sample_count);
	doc_free(&d);
	sinew_clip_set_free(set);
}

/* ---- round trips through the importer ---- */

static void roundtrip_file(const sinew_clip_set *set, const char *path, const sinew_export_options *options) {
	sinew_error err = {0};
	CHECK_OK(sinew_export_gltf(set, path, options, NULL, &err), &err);
	sinew_clip_set *back = NULL;
	sinew_result r;
	r = sinew_import_file(path, NULL, NULL, &back, &err);
	CHECK_MSG(r == SINEW_RESULT_OK, "re-import of %s: %s: %s", path, sinew_result_name(r), err.message);
	CHECK_EQ(back->clip_count, set->clip_count);
	for (uint32_t c = 0; c < set->clip_count; ++c) {
		char why[256];
		// The keys sit at float32 times f32(k / rate) and hold what the clip plays there; a re-import samples the
		// curve at each sample's own time (issue 24), beside those keys.
		test_saved_samples saved = test_play_as_reimported(set->clips[c], back->clips[c]);
		const char *problem =
		    compare_clips(set->clips[c], back->clips[c], !options || !options->source_path, why, sizeof why);
		test_restore_samples(set->clips[c], saved);
		CHECK_MSG(!problem, "%s clip %u: %s", path, c, problem);
		// STEP comes back as floor rounding on the head joint (or on the whole clip when every joint uses it)
		const sinew_clip *got = back->clips[c];
		uint8_t head = got->joints[2].rounding == SINEW_ROUNDING_CLIP ? got->rounding : got->joints[2].rounding;
		CHECK_EQ(head, SINEW_ROUNDING_FLOOR);
		uint8_t spine = got->joints[1].rounding == SINEW_ROUNDING_CLIP ? got->rounding : got->joints[1].rounding;
		CHECK_EQ(spine, SINEW_ROUNDING_NONE);
	}
	sinew_clip_set_free(back);
}

static void test_export_roundtrip_hand_clips(void) {
	sinew_clip_set *set = make_set(17, 0);
	CHECK(set);
	char path[512];
	roundtrip_file(set, test_export_path("roundtrip_hand.gltf", path, sizeof path), NULL);
	if (!test_failed()) roundtrip_file(set, test_export_path("roundtrip_hand.glb", path, sizeof path), NULL);
	sinew_clip_set_free(set);
}

/* ---- morph weights and a source document ---- */

// A 1x1 RGBA PNG, so the source has an external image the exporter must embed.
static const unsigned char tiny_png[] = {
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
    0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00,
    0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0xf8, 0xcf, 0xc0, 0xf0, 0x1f, 0x00, 0x05, 0x00, 0x01, 0xff,
    0x56, 0xc7, 0x2f, 0x0d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};

static bool write_bytes(const char *path, const void *data, size_t size) {
	FILE *f = fopen(path, "wb");
	if (!f) return false;
	bool ok = fwrite(data, 1, size, f) == size;
	return fclose(f) == 0 && ok;
}

// Source: node 0 = mesh with 2 morph targets (weights [0.25, 0.5]), node 1 = "arm" with child node 2
// "hand" given by a matrix. The old animation (its own .bin) must disappear from the output.
static bool write_source(char *path, size_t size) {
	char dir[512], file[640];
	test_tmp_path("morph_source", dir, sizeof dir);
	mkdir(dir, 0700);
	float geometry[27] = {0,
	                      0,
	                      0,
	                      1,
	                      0,
	                      0,
	                      0,
	                      1,
	                      0,
	                      /* target 0 */ 0,
	                      0,
	                      1,
	                      0,
	                      0,
	                      1,
	                      0,
	                      0,
	                      1,
	                      /* target 1 */ 1,
	                      0,
	                      0,
	                      1,
	                      0,
	                      0,
	                      1,
	                      0,
	                      0};
	float anim[6] = {0, 1, /* weights */ 0, 0, 1, 1};
	snprintf(file, sizeof file, "%s/geo metry.bin", dir); // a space: the URI is percent-encoded
	if (!write_bytes(file, geometry, sizeof geometry)) return false;
	snprintf(file, sizeof file, "%s/old anim.bin", dir);
	if (!write_bytes(file, anim, sizeof anim)) return false;
	snprintf(file, sizeof file, "%s/tex.png", dir);
	if (!write_bytes(file, tiny_png, sizeof tiny_png)) return false;
	static const char json[] =
	    "{\"asset\":{\"version\":\"2.0\",\"generator\":\"hand\",\"copyright\":\"test\"},\"scene\":0,"
	    "\"scenes\":[{\"nodes\":[0,1]}],"
	    "\"nodes\":[{\"name\":\"face\",\"mesh\":0},{\"name\":\"arm\",\"children\":[2],\"translation\":[0,1,0]},"
	    "{\"name\":\"hand\",\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0.5,0,1]}],"
	    "\"meshes\":[{\"name\":\"blob\",\"weights\":[0.25,0.5],\"primitives\":[{\"attributes\":{\"POSITION\":0},"
	    "\"targets\":[{\"POSITION\":1},{\"POSITION\":2}]}],\"extras\":{\"targetNames\":[\"smile\",\"frown\"]}}],"
	    "\"images\":[{\"uri\":\"tex.png\"}],"
	    "\"animations\":[{\"name\":\"old\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}],"
	    "\"samplers\":[{\"input\":3,\"output\":4}]}],"
	    "\"accessors\":["
	    "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]},"
	    "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,1],"
	    "\"max\":[0,0,1]},"
	    "{\"bufferView\":3,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[1,0,0],"
	    "\"max\":[1,0,0]},"
	    "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
	    "{\"bufferView\":1,\"byteOffset\":8,\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\"}],"
	    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":1,\"byteLength\":24},"
	    "{\"buffer\":0,\"byteOffset\":36,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":72,\"byteLength\":36}],"
	    "\"buffers\":[{\"uri\":\"geo%20metry.bin\",\"byteLength\":108},{\"uri\":\"old%20anim.bin\",\"byteLength\":24}],"
	    "\"extras\":{\"kept\":true}}";
	snprintf(path, size, "%s/source.gltf", dir);
	return write_bytes(path, json, sizeof json - 1);
}

// Clip "morph": arm translation + both targets; clip "half": hand rotation + target 0 only. The skeleton is
// what the glTF importer builds from the source: face (weights only, no track), arm, hand.
static sinew_clip_set *make_morph_set(void) {
	sinew_clip_set *set = NULL;
	if (sinew_clip_set_create(&set, NULL) != SINEW_RESULT_OK) return NULL;
	static const char *const names[] = {"face", "arm", "hand"};
	static const int32_t parents[] = {-1, -1, 1};
	for (int c = 0; c < 2; ++c) {
		sinew_clip_desc desc = {.name = c ? "half" : "morph",
		                        .sample_rate = 20,
		                        .sample_count = 9,
		                        .joint_count = 3,
		                        .scalar_track_count = c ? 1u : 2u};
		sinew_clip *clip = NULL;
		if (sinew_clip_set_add_clip(set, &desc, &clip) != SINEW_RESULT_OK) return NULL;
		for (uint32_t j = 0; j < 3; ++j) {
			clip->joints[j].name = sinew_clip_set_strdup(set, names[j]);
			clip->joints[j].parent = parents[j];
			clip->joints[j].source_index = (int32_t)j;
		}
		clip->joints[0].has_track = 0;
		clip->joints[1].has_track = c == 0, clip->joints[2].has_track = c == 1; // the joint each clip animates
		clip->joints[1].default_pose.translation[1] = 1.0f;
		clip->joints[2].default_pose.translation[1] = 0.5f;
		for (uint32_t k = 0; k < 9; ++k) {
			sinew_qvv *arm = &clip->transforms[k * 3 + 1], *hand = &clip->transforms[k * 3 + 2];
			*arm = clip->joints[1].default_pose;
			*hand = clip->joints[2].default_pose;
			if (c == 0) arm->translation[2] = 0.1f * (float)k;
			double a = c ? 0.2 * k : 0.0;
			hand->rotation[2] = (float)sin(a / 2), hand->rotation[3] = (float)cos(a / 2);
		}
		for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
			sinew_scalar_track *track = &clip->scalar_tracks[i];
			track->source_node = 0;
			track->source_target = (int32_t)i;
			track->default_value[0] = i ? 0.5f : 0.25f;
			for (uint32_t k = 0; k < 9; ++k) track->values[k] = (float)((k * (i + 1)) % 5) * 0.2f;
		}
		if (c) clip->scalar_tracks[0].rounding = SINEW_ROUNDING_FLOOR;
	}
	return set;
}

static void test_export_morph_weights_with_source(void) {
	char source[600], out[512];
	CHECK(write_source(source, sizeof source));
	sinew_clip_set *set = make_morph_set();
	CHECK(set);
	sinew_error err = {0};
	sinew_export_options options = {.binary = -1, .source_path = source};
	for (int binary = 0; binary < 2; ++binary) {
		test_export_path(binary ? "morph_source.glb" : "morph_source.gltf", out, sizeof out);
		CHECK_OK(sinew_export_gltf(set, out, &options, NULL, &err), &err);
		doc d;
		const char *problem = doc_load(out, &d);
		CHECK_MSG(!problem, "%s: %s", out, problem);
		const sinewi_json *root = d.root;
		// The document is kept: names, mesh, extras, copyright; the generator is ours.
		CHECK(strcmp(member_string(sinewi_json_get(root, "asset"), "copyright"), "test") == 0);
		CHECK(strncmp(member_string(sinewi_json_get(root, "asset"), "generator"), "sinew ", 6) == 0);
		CHECK(sinewi_json_get(sinewi_json_get(root, "extras"), "kept"));
		CHECK(strcmp(member_string(at(root, "meshes", 0), "name"), "blob") == 0);
		// The hand node lost its matrix for TRS (glTF forbids animating matrix nodes).
		CHECK(!sinewi_json_get(at(root, "nodes", 2), "matrix"));
		double ty = 0;
		CHECK(sinewi_json_number(sinewi_json_at(sinewi_json_get(at(root, "nodes", 2), "translation"), 1), &ty));
		CHECK_NEAR(ty, 0.5, 1e-7);
		// The old animation's accessors are gone: 3 mesh accessors remain, then ours.
		const sinewi_json *mesh_attr =
		    sinewi_json_get(sinewi_json_at(sinewi_json_get(at(root, "meshes", 0), "primitives"), 0), "attributes");
		CHECK_EQ(member_uint(mesh_attr, "POSITION", 99), 0);
		uint32_t count = 0, comps = 0;
		const unsigned char *pos = accessor_data(&d, 2, &count, &comps);
		CHECK(pos && count == 3 && float_at(pos, 0) == 1.0f);
		// The image is embedded.
		const sinewi_json *image = at(root, "images", 0);
		CHECK(!sinewi_json_get(image, "uri"));
		CHECK(strcmp(member_string(image, "mimeType"), "image/png") == 0);
		const sinewi_json *iview = at(root, "bufferViews", member_uint(image, "bufferView", 99));
		CHECK(iview && member_uint(iview, "byteLength", 0) == sizeof tiny_png);
		CHECK(memcmp(d.bin + member_uint(iview, "byteOffset", 0), tiny_png, sizeof tiny_png) == 0);
		// Animations replaced by ours.
		const sinewi_json *anims = sinewi_json_get(root, "animations");
		CHECK_EQ(anims->count, 2);
		for (uint32_t c = 0; c < 2; ++c) {
			const sinew_clip *clip = set->clips[c];
			const sinewi_json *anim = &anims->children[c];
			CHECK(strcmp(member_string(anim, "name"), clip->name) == 0);
			const sinewi_json *channels = sinewi_json_get(anim, "channels");
			CHECK_EQ(channels->count, 2); // arm translation (clip 0) / hand rotation (clip 1), and the weights
			bool found = false;
			for (uint32_t i = 0; i < channels->count; ++i) {
				const sinewi_json *target = sinewi_json_get(&channels->children[i], "target");
				const sinewi_json *sampler = at(anim, "samplers", member_uint(&channels->children[i], "sampler", 99));
				if (strcmp(member_string(target, "path"), "weights") != 0) {
					CHECK_EQ(member_uint(target, "node", 99), c ? 2 : 1);
					continue;
				}
				found = true;
				CHECK_EQ(member_uint(target, "node", 99), 0);
				const char *interp = member_string(sampler, "interpolation");
				CHECK(c ? interp && strcmp(interp, "STEP") == 0 : !interp);
				const unsigned char *w = accessor_data(&d, member_uint(sampler, "output", 99), &count, &comps);
				CHECK(w && comps == 1 && count == clip->sample_count * 2);
				test_saved_samples saved = test_play_at_key_times(set->clips[c]);
				for (uint32_t k = 0; k < clip->sample_count; ++k) {
					CHECK(float_at(w, k * 2) == clip->scalar_tracks[0].values[k]);
					// target 1 has no track in clip "half": the mesh's default weight fills it
					CHECK(float_at(w, k * 2 + 1) == (c ? 0.5f : clip->scalar_tracks[1].values[k]));
				}
				test_restore_samples(set->clips[c], saved);
			}
			CHECK(found);
		}
		doc_free(&d);
		test_note_source(out, source);
	}
	// Round trip of clip "morph" (the one that drives every target) when the importer exists.
	sinew_clip_set *back = NULL;
	sinew_result r;
	r = sinew_import_file(out, NULL, NULL, &back, &err);
	{
		CHECK_MSG(r == SINEW_RESULT_OK, "%s", err.message);
		CHECK_EQ(back->clip_count, 2);
		char why[256];
		test_saved_samples saved = test_play_as_reimported(set->clips[0], back->clips[0]); // as roundtrip_file
		const char *problem = compare_clips(set->clips[0], back->clips[0], false, why, sizeof why);
		test_restore_samples(set->clips[0], saved);
		CHECK_MSG(!problem, "morph round trip: %s", problem);
		sinew_clip_set_free(back);
	}
	sinew_clip_set_free(set);
}

static void test_export_source_mapping_errors(void) {
	char source[600], out[512];
	CHECK(write_source(source, sizeof source));
	sinew_clip_set *set = make_morph_set();
	CHECK(set);
	sinew_error err = {0};
	sinew_export_options options = {.binary = 0, .source_path = source};
	test_tmp_path("mapping_error.gltf", out, sizeof out);
	set->clips[0]->joints[2].has_track = 1; // (the clip animates the hand too: its mapping is checked)
	set->clips[0]->joints[2].source_index = 7;
	CHECK_RESULT(sinew_export_gltf(set, out, &options, NULL, &err), SINEW_RESULT_OUT_OF_RANGE, &err);
	CHECK(strstr(err.message, "source_index 7"));
	set->clips[0]->joints[2].source_index = 1; // arm and hand both on node 1
	CHECK_RESULT(sinew_export_gltf(set, out, &options, NULL, &err), SINEW_RESULT_INVALID_ARGUMENT, &err);
	set->clips[0]->joints[2].source_index = 2;
	set->clips[0]->scalar_tracks[1].source_node = 1; // node without a mesh
	CHECK_RESULT(sinew_export_gltf(set, out, &options, NULL, &err), SINEW_RESULT_OUT_OF_RANGE, &err);
	CHECK(strstr(err.message, "no morph targets"));
	set->clips[0]->scalar_tracks[1].source_node = 0;
	set->clips[0]->scalar_tracks[1].source_target = 2; // the mesh has 2 targets
	CHECK_RESULT(sinew_export_gltf(set, out, &options, NULL, &err), SINEW_RESULT_OUT_OF_RANGE, &err);
	CHECK(!test_file_exists(out));
	sinew_clip_set_free(set);
}

// A source whose only bufferView (an image's) lies in a buffer behind `uri`.
#define IMAGE_BUFFER(uri)                                                                                              \
	"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},{},{}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":4}],"         \
	"\"images\":[{\"bufferView\":0,\"mimeType\":\"image/png\"}],\"buffers\":[{\"byteLength\":4,\"uri\":\"" uri "\"}]}"

static void test_export_rejects_corrupt_source(void) {
	char dir[512], source[600], out[512];
	test_tmp_path("bad_source", dir, sizeof dir);
	mkdir(dir, 0700);
	sinew_clip_set *set = make_morph_set();
	CHECK(set);
	sinew_error err = {0};
	sinew_export_options options = {.binary = 0, .source_path = source};
	test_tmp_path("bad_source_out.gltf", out, sizeof out);
	static const struct {
		const char *json;
		sinew_result expected;
	} cases[] = {
	    {"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},{},{}],", SINEW_RESULT_PARSE},
	    {"[1,2]", SINEW_RESULT_CORRUPT},
	    {"{\"asset\":{\"version\":\"2.0\"},\"nodes\":{}}", SINEW_RESULT_CORRUPT},
	    // bufferView beyond its buffer
	    {"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":0},{},{}],\"meshes\":[{\"primitives\":[{\"attributes\":"
	     "{\"POSITION\":0},\"targets\":[{\"POSITION\":0},{\"POSITION\":0}]}]}],\"accessors\":[{\"bufferView\":0,"
	     "\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],\"bufferViews\":[{\"buffer\":0,\"byteOffset\":8,"
	     "\"byteLength\":12}],\"buffers\":[{\"byteLength\":12,\"uri\":\"data:application/octet-stream;base64,"
	     "AAAAAAAAAAAAAAAA\"}]}",
	     SINEW_RESULT_CORRUPT},
	    // accessor reference out of range
	    {"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":0},{},{}],\"meshes\":[{\"primitives\":[{\"attributes\":"
	     "{\"POSITION\":5}}]}]}",
	     SINEW_RESULT_CORRUPT},
	    // buffer shorter than declared
	    {"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":0},{},{}],\"meshes\":[{\"primitives\":[{\"attributes\":"
	     "{\"POSITION\":0}}]}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],"
	     "\"bufferViews\":[{\"buffer\":0,\"byteLength\":12}],\"buffers\":[{\"byteLength\":12,\"uri\":"
	     "\"data:application/octet-stream;base64,AAAA\"}]}",
	     SINEW_RESULT_TRUNCATED},
	    // buffers behind absolute, remote or escaping URIs are never read; a missing one is an IO error
	    {IMAGE_BUFFER("/etc/passwd"), SINEW_RESULT_UNSUPPORTED},
	    {IMAGE_BUFFER("http://x/b"), SINEW_RESULT_UNSUPPORTED},
	    {IMAGE_BUFFER("a/%2E%2E/../b"), SINEW_RESULT_UNSUPPORTED},
	    {IMAGE_BUFFER("missing.bin"), SINEW_RESULT_IO},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		snprintf(source, sizeof source, "%s/case%zu.gltf", dir, i);
		CHECK(write_bytes(source, cases[i].json, strlen(cases[i].json)));
		sinew_result r = sinew_export_gltf(set, out, &options, NULL, &err);
		CHECK_MSG(r == cases[i].expected, "case %zu: %s, expected %s: %s", i, sinew_result_name(r),
		          sinew_result_name(cases[i].expected), err.message);
		CHECK(!test_file_exists(out));
	}
	// A truncated GLB
	snprintf(source, sizeof source, "%s/short.glb", dir);
	CHECK(write_bytes(source, "glTF\x02\x00\x00\x00\xff\x00\x00\x00", 12));
	CHECK_RESULT(sinew_export_gltf(set, out, &options, NULL, &err), SINEW_RESULT_TRUNCATED, &err);
	sinew_clip_set_free(set);
}

// Images that cannot be embedded keep their URI (the animation does not need them); nothing outside the
// source's folder is read.
static void test_export_keeps_unreadable_image_uris(void) {
	char dir[512], source[600], out[512];
	test_tmp_path("image_uris", dir, sizeof dir);
	mkdir(dir, 0700);
	snprintf(source, sizeof source, "%s/images.gltf", dir);
	static const char json[] =
	    "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},{},{}],\"images\":[{\"uri\":\"/etc/passwd\"},"
	    "{\"uri\":\"https://example.com/a.png\"},{\"uri\":\"missing.png\"},{\"uri\":\"../image_uris/images.gltf\"},"
	    "{\"uri\":\"images.gltf\"}]}";
	CHECK(write_bytes(source, json, sizeof json - 1));
	sinew_clip_set *set = make_morph_set();
	CHECK(set);
	for (uint32_t c = 0; c < set->clip_count; ++c) set->clips[c]->scalar_track_count = 0; // the source has no mesh
	sinew_error err = {0};
	sinew_export_options options = {.binary = 1, .source_path = source};
	test_tmp_path("image_uris.glb", out, sizeof out);
	CHECK_OK(sinew_export_gltf(set, out, &options, NULL, &err), &err);
	doc d;
	const char *problem = doc_load(out, &d);
	CHECK_MSG(!problem, "%s", problem);
	static const char *const kept[] = {"/etc/passwd", "https://example.com/a.png", "missing.png",
	                                   "../image_uris/images.gltf", "images.gltf"};
	for (uint32_t i = 0; i < 5; ++i) {
		const sinewi_json *image = at(d.root, "images", i);
		const char *uri = member_string(image, "uri");
		// the last one is readable but not an image: kept as a URI too
		CHECK_MSG(uri && strcmp(uri, kept[i]) == 0, "image %u: %s", i, uri ? uri : "(no uri)");
		CHECK(!sinewi_json_get(image, "bufferView"));
	}
	CHECK_EQ(sinewi_json_get(d.root, "bufferViews")->count, 1); // the animation data only
	doc_free(&d);
	sinew_clip_set_free(set);
}

// A hostile source document: every truncation of a .glb and one byte change at every position of its JSON
// chunk. Each export must end with a result (any code) and, when it fails, leave no output file.
static void test_export_damaged_sources(void) {
	char source[600], glb[512], damaged[512], out[512];
	CHECK(write_source(source, sizeof source));
	sinew_clip_set *set = make_morph_set();
	CHECK(set);
	sinew_error err = {0};
	sinew_export_options to_glb = {.binary = 1, .source_path = source};
	test_tmp_path("damage_base.glb", glb, sizeof glb);
	CHECK_OK(sinew_export_gltf(set, glb, &to_glb, NULL, &err), &err);
	size_t size = 0;
	unsigned char *bytes = test_slurp(glb, &size), *copy = (unsigned char *)malloc(size);
	CHECK(bytes && copy && size > 28);
	test_tmp_path("damaged.glb", damaged, sizeof damaged);
	test_tmp_path("damaged_out.gltf", out, sizeof out);
	sinew_export_options options = {.binary = 0, .source_path = damaged};
	uint32_t ok = 0, failed = 0;
	for (size_t n = 0; n < size; ++n) {
		CHECK(write_bytes(damaged, bytes, n));
		sinew_result r = sinew_export_gltf(set, out, &options, NULL, &err);
		CHECK_MSG(r != SINEW_RESULT_OK, "truncated to %zu bytes: exported", n);
		CHECK(!test_file_exists(out));
	}
	static const char subst[] = "0-9\"}],:{[ea";
	size_t json_end = 20 + u32le(bytes + 12);
	for (size_t i = 20; i < json_end; ++i) {
		memcpy(copy, bytes, size);
		copy[i] = (unsigned char)subst[i % (sizeof subst - 1)];
		if (copy[i] == bytes[i]) continue;
		CHECK(write_bytes(damaged, copy, size));
		remove(out);
		sinew_result r = sinew_export_gltf(set, out, &options, NULL, &err);
		if (r == SINEW_RESULT_OK) {
			ok++;
		} else {
			failed++;
			CHECK_MSG(!test_file_exists(out), "byte %zu: failed with %s but left a file", i, sinew_result_name(r));
		}
	}
	CHECK(failed > 0);
	printf("     damaged sources: %zu truncations rejected; %u byte changes exported, %u rejected\n", size, ok, failed);
	free(bytes);
	free(copy);
	remove(out);
	sinew_clip_set_free(set);
}

/* ---- allocation failures ---- */

typedef struct failing_alloc {
	long live;
	long left; // allocations that still succeed
} failing_alloc;

static void *failing_alloc_fn(void *user, size_t size, size_t align) {
	failing_alloc *f = (failing_alloc *)user;
	if (f->left-- <= 0) return NULL;
	return counting_alloc(&f->live, size, align);
}

static void failing_free_fn(void *user, void *ptr, size_t size) {
	counting_free(&((failing_alloc *)user)->live, ptr, size);
}

// Fails the 1st, 2nd, ... allocation of an export (plain and from a source document): every attempt
// returns OUT_OF_MEMORY without leaking or leaving a file, until the export succeeds.
static void test_export_allocation_failures(void) {
	char source[600], out[512];
	CHECK(write_source(source, sizeof source));
	sinew_clip_set *plain = make_set(6, 1), *morph = make_morph_set();
	CHECK(plain && morph);
	for (int with_source = 0; with_source < 2; ++with_source) {
		sinew_export_options options = {.binary = -1, .source_path = with_source ? source : NULL};
		test_tmp_path(with_source ? "oom_source.glb" : "oom_plain.gltf", out, sizeof out);
		sinew_result r = SINEW_RESULT_OUT_OF_MEMORY;
		long attempts = 0;
		for (; r == SINEW_RESULT_OUT_OF_MEMORY && attempts < 10000; ++attempts) {
			failing_alloc f = {0, attempts};
			sinew_allocator al = {failing_alloc_fn, failing_free_fn, &f};
			sinew_error err = {0};
			r = sinew_export_gltf(with_source ? morph : plain, out, &options, &al, &err);
			CHECK_MSG(r == SINEW_RESULT_OK || r == SINEW_RESULT_OUT_OF_MEMORY, "attempt %ld: %s: %s", attempts,
			          sinew_result_name(r), err.message);
			CHECK_MSG(f.live == 0, "attempt %ld: %ld blocks leaked", attempts, f.live);
			CHECK_MSG(r == SINEW_RESULT_OK || !test_file_exists(out), "attempt %ld left %s", attempts, out);
		}
		CHECK_MSG(r == SINEW_RESULT_OK, "still failing after %ld attempts", attempts);
		CHECK(attempts > 3);
		remove(out);
	}
	sinew_clip_set_free(plain);
	sinew_clip_set_free(morph);
}

/* ---- corpus ---- */

// Imports a corpus file, exports it (with the file as source when `with_source`), re-imports, compares.
static void corpus_roundtrip_at(const char *relative, const char *out_name, bool with_source, double reimport_error_cm) {
	char source[1024], out[512];
	if (!test_corpus_path(relative, source, sizeof source)) return;
	sinew_clip_set *set = NULL, *back = NULL;
	sinew_error err = {0};
	sinew_result r;
	r = sinew_import_file(source, NULL, NULL, &set, &err);
	CHECK_MSG(r == SINEW_RESULT_OK, "import %s: %s: %s", relative, sinew_result_name(r), err.message);
	test_export_path(out_name, out, sizeof out);
	sinew_export_options options = {.binary = -1, .source_path = with_source ? source : NULL};
	r = sinew_export_gltf(set, out, &options, NULL, &err);
	if (r != SINEW_RESULT_OK) sinew_clip_set_free(set);
	CHECK_MSG(r == SINEW_RESULT_OK, "export %s: %s: %s", relative, sinew_result_name(r), err.message);
	if (with_source) test_note_source(out, source);
	// A sampled source comes back at its own rate: the importer's automatic choice may add samples
	// (rotations turning past 90 degrees between frames get intermediate ones), which is not the
	// exporter's doing.
	sinew_import_options again = {.error_cm = reimport_error_cm};
	if (!with_source && set->clip_count == 1) again.sample_rate = set->clips[0]->sample_rate;
	r = sinew_import_file(out, &again, NULL, &back, &err);
	if (r != SINEW_RESULT_OK) sinew_clip_set_free(set);
	CHECK_MSG(r == SINEW_RESULT_OK, "re-import %s: %s: %s", out, sinew_result_name(r), err.message);
	bool ok = back->clip_count == set->clip_count;
	char why[256] = "";
	worst_relative = 0.0;
	uint64_t frames = 0;
	uint32_t bad = 0;
	for (uint32_t c = 0; ok && c < set->clip_count; ++c) {
		// the re-import samples the exported keys (at f32(k / rate)) at each sample's own time (issue 24)
		test_saved_samples saved = test_play_as_reimported(set->clips[c], back->clips[c]);
		const char *problem = compare_clips(set->clips[c], back->clips[c], !with_source, why, sizeof why);
		test_restore_samples(set->clips[c], saved);
		if (problem) {
			ok = false;
			bad = c;
		}
		frames += set->clips[c]->sample_count;
	}
	uint32_t clips = set->clip_count, back_clips = back->clip_count;
	sinew_clip_set_free(set);
	sinew_clip_set_free(back);
	CHECK_MSG(clips == back_clips, "%s: %u clips re-imported, expected %u", relative, back_clips, clips);
	CHECK_MSG(ok, "%s clip %u: %s", relative, bad, why);
	printf("     %s: %u clips, %llu frames round-tripped via %s (within %.2g of the clip size)\n", relative, clips,
	       (unsigned long long)frames, out, worst_relative);
}

static void corpus_roundtrip(const char *relative, const char *out_name, bool with_source) {
	corpus_roundtrip_at(relative, out_name, with_source, 0.0);
}


// Every importable BVH, ASF/AMC and ACL transform clip of the corpus through convert (export
// without a source, re-import): same clips and frames, error within 1e-5 of the clip size.
// Track lists of scalars only have no glTF form and are skipped (their import is tested).
static unsigned sweep_files, sweep_skipped;

static void sweep_dir(const char *corpus, const char *relative) {
	char dir[2048];
	snprintf(dir, sizeof dir, "%s/%s", corpus, relative);
	DIR *d = opendir(dir);
	if (!d) return;
	struct dirent *e;
	while ((e = readdir(d)) && !test_failed()) {
		if (e->d_name[0] == '.') continue;
		char rel[1024], full[2048];
		snprintf(rel, sizeof rel, "%s/%s", relative, e->d_name);
		snprintf(full, sizeof full, "%s/%s", corpus, rel);
		struct stat st;
		if (stat(full, &st) != 0) continue;
		if (S_ISDIR(st.st_mode)) {
			sweep_dir(corpus, rel);
			continue;
		}
		size_t n = strlen(rel);
		bool animation = (n > 4 && (!strcmp(rel + n - 4, ".bvh") || !strcmp(rel + n - 4, ".amc"))) ||
		                 (n > 6 && !strcmp(rel + n - 6, ".sjson"));
		if (!animation) continue;
		sinew_clip_set *set = NULL;
		if (sinew_import_file(full, NULL, NULL, &set, NULL) != SINEW_RESULT_OK || set->clips[0]->joint_count == 0) {
			sinew_clip_set_free(set);
			sweep_skipped++;
			continue;
		}
		sinew_clip_set_free(set);
		char out[1024];
		snprintf(out, sizeof out, "sweep_%s.glb", rel);
		for (char *c = out; *c; ++c)
			if (*c == '/') *c = '_';
		corpus_roundtrip(rel, out, false);
		sweep_files++;
	}
	closedir(d);
}

static void test_export_corpus_sweep_mocap(void) {
	const char *corpus = test_corpus_dir();
	if (!corpus) {
		test_skip("corpus absent (../shared/corpus)");
		return;
	}
	sweep_files = sweep_skipped = 0;
	sweep_dir(corpus, "bvh");
	sweep_dir(corpus, "amc");
	sweep_dir(corpus, "acl");
	printf("    converted %u files (%u without transform clips skipped)\n", sweep_files, sweep_skipped);
	CHECK(sweep_files >= 120);
}

static void test_export_corpus_cesium_man(void) {
	corpus_roundtrip("gltf/khronos/CesiumMan/CesiumMan.gltf", "corpus_CesiumMan.gltf", true);
}
static void test_export_corpus_fox(void) {
	corpus_roundtrip("gltf/khronos/Fox/Fox.glb", "corpus_Fox.glb", true);
}
static void test_export_corpus_rigged_simple(void) {
	corpus_roundtrip("gltf/khronos/RiggedSimple/RiggedSimple.gltf", "corpus_RiggedSimple.glb", true);
}
// Every key time accessor declares the min and max of its times (glTF 2.0 §3.6.2.5: animation inputs need
// them), also for a clip whose time map starts after 0 (RiggedSimple: keys from 1/24 s; found by the glTF
// validator as ACCESSOR_MIN_MISMATCH).
static void test_export_time_accessor_bounds(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	char src[1024], path[512];
	if (!test_corpus_path("gltf/khronos/RiggedSimple/RiggedSimple.gltf", src, sizeof src)) {
		test_skip("corpus absent (../shared/corpus)");
		return;
	}
	CHECK_OK(sinew_import_file(src, NULL, NULL, &set, &err), &err);
	CHECK(set->clips[0]->time_mark_count > 0 && sinew_clip_sample_time(set->clips[0], 0.0) > 0.04);
	test_tmp_path("time_bounds.glb", path, sizeof path);
	CHECK_OK(sinew_export_gltf(set, path, NULL, NULL, &err), &err);
	doc d;
	const char *problem = doc_load(path, &d);
	CHECK_MSG(!problem, "%s", problem);
	const sinewi_json *anims = problem ? NULL : sinewi_json_get(d.root, "animations");
	uint32_t checked = 0;
	for (uint32_t a = 0; anims && a < anims->count; ++a) {
		const sinewi_json *samplers = sinewi_json_get(&anims->children[a], "samplers");
		for (uint32_t k = 0; samplers && k < samplers->count; ++k) {
			uint32_t input = member_uint(&samplers->children[k], "input", 99), count = 0, comps = 0;
			const unsigned char *times = accessor_data(&d, input, &count, &comps);
			const sinewi_json *acc = at(d.root, "accessors", input);
			double mn = -1, mx = -1;
			CHECK(times && count > 0 && comps == 1);
			CHECK(sinewi_json_number(sinewi_json_at(sinewi_json_get(acc, "min"), 0), &mn));
			CHECK(sinewi_json_number(sinewi_json_at(sinewi_json_get(acc, "max"), 0), &mx));
			CHECK_MSG(times && mn == (double)float_at(times, 0) && mx == (double)float_at(times, count - 1),
			          "accessor %u: min %g max %g, times %g..%g", input, mn, mx, times ? (double)float_at(times, 0) : 0.0,
			          times ? (double)float_at(times, count - 1) : 0.0);
			checked++;
		}
	}
	CHECK(checked > 0);
	if (!problem) doc_free(&d);
	sinew_clip_set_free(set);
}

static void test_export_corpus_animated_morph_cube(void) {
	corpus_roundtrip("gltf/khronos/AnimatedMorphCube/AnimatedMorphCube.gltf", "corpus_AnimatedMorphCube.gltf", true);
}
static void test_export_corpus_platformer_player(void) {
	corpus_roundtrip("gltf/godot/platformer_player.glb", "corpus_platformer_player.glb", true);
}
static void test_export_corpus_robot_expressive(void) {
	corpus_roundtrip("gltf/threejs/RobotExpressive.glb", "corpus_RobotExpressive.glb", true);
}
static void test_export_corpus_robot(void) {
	corpus_roundtrip("gltf/raylib/robot.glb", "corpus_robot.gltf", true);
}
static void test_export_corpus_lumberjack(void) {
	corpus_roundtrip("gltf/playcanvas/lumberjack.glb", "corpus_lumberjack.glb", true);
}
// The other animated glTF files of the corpus: morph-only, external buffers, STEP and CUBICSPLINE sources.
static void test_export_corpus_other_gltf(void) {
	static const char *const files[][2] = {
	    {"gltf/khronos/SimpleMorph/SimpleMorph.gltf", "corpus_SimpleMorph.gltf"},
	    {"gltf/khronos/AnimatedMorphSphere/AnimatedMorphSphere.gltf", "corpus_AnimatedMorphSphere.glb"},
	    {"gltf/khronos/MorphStressTest/MorphStressTest.gltf", "corpus_MorphStressTest.glb"},
	    {"gltf/khronos/InterpolationTest/interpolation_test.gltf", "corpus_InterpolationTest.gltf"},
	    {"gltf/khronos/BoxAnimated/BoxAnimated.gltf", "corpus_BoxAnimated.glb"},
	    {"gltf/khronos/SimpleSkin/SimpleSkin.gltf", "corpus_SimpleSkin.gltf"},
	    {"gltf/blender_io/03_all_animations/03_all_animations.gltf", "corpus_03_all_animations.glb"},
	    {"gltf/blender_io/07_nla-anim/07_nla-anim.gltf", "corpus_07_nla-anim.gltf"},
	    // KHR_animation_pointer: material, texture transform, camera and light pointers come back as the same
	    // pointer channels (compare_clips checks each track's pointer)
	    {"gltf/blender_io/24_animation_pointer/24_animation_pointer.gltf", "corpus_24_animation_pointer.gltf"},
	};
	for (size_t i = 0; i < sizeof files / sizeof files[0] && !test_failed(); ++i)
		corpus_roundtrip(files[i][0], files[i][1], true);
	// Flamingo's and Horse's morph targets reach 165 and 200 m: at 0.01 cm their weights hold 3e-7 (vertex units),
	// where float32 key times matter: the source's keys become time marks, and the written float32 sample times
	// (an ulp from the source's keys) place more samples when imported again at 0.01 cm. Re-imported at 0.1 cm,
	// the samples come back as written.
	if (!test_failed()) corpus_roundtrip_at("gltf/threejs/Flamingo.glb", "corpus_Flamingo.glb", true, 0.1);
	if (!test_failed()) corpus_roundtrip_at("gltf/threejs/Horse.glb", "corpus_Horse.gltf", true, 0.1);
}

static void test_export_corpus_fox_without_source(void) {
	corpus_roundtrip("gltf/khronos/Fox/Fox.glb", "corpus_Fox_nosource.glb", false);
}
static void test_export_corpus_bvh(void) {
	corpus_roundtrip("bvh/assimp/Boxing_Toes.bvh", "corpus_Boxing_Toes.glb", false);
}
static void test_export_corpus_bvh_bandai(void) {
	corpus_roundtrip("bvh/bandai/dataset-1/dataset-1_bow_angry_001.bvh", "corpus_bandai_bow_angry.gltf", false);
}
static void test_export_corpus_acl(void) {
	corpus_roundtrip("acl/09_02_with_scale.acl.sjson", "corpus_acl_09_02_with_scale.glb", false);
}
static void test_export_corpus_acl_looping(void) {
	corpus_roundtrip("acl/81_18_looping.acl.sjson", "corpus_acl_81_18_looping.gltf", false);
}

void suite_export_gltf(void) {
	RUN(test_export_time_accessor_bounds);
	RUN(test_export_rejects_invalid_arguments);
	RUN(test_export_keys_hold_values_at_their_float32_times);
	RUN(test_export_missing_directory_is_io_error);
	RUN(test_export_different_skeletons_unsupported);
	RUN(test_export_scalar_only_clip_unsupported);
	RUN(test_export_structure_gltf_and_glb);
	RUN(test_export_static_clip_keeps_duration);
	RUN(test_export_roundtrip_hand_clips);
	RUN(test_export_morph_weights_with_source);
	RUN(test_export_source_mapping_errors);
	RUN(test_export_rejects_corrupt_source);
	RUN(test_export_keeps_unreadable_image_uris);
	RUN(test_export_damaged_sources);
	RUN(test_export_allocation_failures);
	RUN(test_export_corpus_cesium_man);
	RUN(test_export_corpus_fox);
	RUN(test_export_corpus_rigged_simple);
	RUN(test_export_corpus_animated_morph_cube);
	RUN(test_export_corpus_platformer_player);
	RUN(test_export_corpus_robot_expressive);
	RUN(test_export_corpus_robot);
	RUN(test_export_corpus_lumberjack);
	RUN(test_export_corpus_other_gltf);
	RUN(test_export_corpus_fox_without_source);
	RUN(test_export_corpus_bvh);
	RUN(test_export_corpus_bvh_bandai);
	RUN(test_export_corpus_acl);
	RUN(test_export_corpus_acl_looping);
	RUN(test_export_corpus_sweep_mocap);
}
