// sinew — see include/sinew.h for version and licence
// import_acl: ACL's .acl.sjson reader on the corpus (counts against MANIFEST.md, values against the
// text), on small hand-written clips and track lists with exact values, and on malformed inputs that
// must each give their own result code (truncation at every length, bad counts, bad parents, bad
// numbers, unterminated strings and comments, deep nesting). Also the SJSON parser underneath.
#define _POSIX_C_SOURCE 200809L
#include "test.h"

#include "import/sjson.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

static char warnings[4096];

static void record_warning(void *user, const char *message) {
	(void)user;
	size_t n = strlen(warnings);
	snprintf(warnings + n, sizeof warnings - n, "%s\n", message);
}

static sinew_import_options acl_options(void) {
	sinew_import_options o;
	memset(&o, 0, sizeof o);
	o.kind = SINEW_FILE_ACL;
	o.warning = record_warning;
	warnings[0] = 0;
	return o;
}

static sinew_result import_size(const char *text, size_t size, sinew_clip_set **set, sinew_error *err) {
	sinew_import_options o = acl_options();
	warnings[0] = 0;
	memset(err, 0, sizeof *err);
	return sinew_import_memory(text, size, &o, NULL, set, err);
}

static sinew_result import_text(const char *text, sinew_clip_set **set, sinew_error *err) {
	return import_size(text, strlen(text), set, err);
}

// Imports `text`, expects `code`; the message must contain `needle` (NULL: any).
static bool expect_failure(const char *text, sinew_result code, const char *needle, sinew_error *err) {
	sinew_clip_set *set = NULL;
	sinew_result r = import_text(text, &set, err);
	if (r == SINEW_RESULT_OK) sinew_clip_set_free(set);
	if (r != code) {
		fprintf(stderr, "    got %s (%s), expected %s\n", sinew_result_name(r), err->message, sinew_result_name(code));
		return false;
	}
	if (set != NULL) return false;
	if (needle && !strstr(err->message, needle)) {
		fprintf(stderr, "    message '%s' lacks '%s'\n", err->message, needle);
		return false;
	}
	return true;
}

static const sinew_joint *find_joint(const sinew_clip *c, const char *name) {
	for (uint32_t j = 0; j < c->joint_count; ++j)
		if (c->joints[j].name && strcmp(c->joints[j].name, name) == 0) return &c->joints[j];
	return NULL;
}

static const sinew_qvv *transform(const sinew_clip *c, uint32_t sample, const char *joint) {
	const sinew_joint *j = find_joint(c, joint);
	return j ? &c->transforms[(size_t)sample * c->joint_count + (size_t)(j - c->joints)] : NULL;
}

static void normalized(double x, double y, double z, double w, float out[4]) {
	double n = sqrt(x * x + y * y + z * z + w * w);
	out[0] = (float)(x / n), out[1] = (float)(y / n), out[2] = (float)(z / n), out[3] = (float)(w / n);
}

/* ---- corpus ---- */

typedef struct manifest_row {
	char file[96];
	unsigned samples, rate, joints; // joints 0 for "- joints"
} manifest_row;

// Rows "| acl/<file> | kind | samples | rate | N joints |" of MANIFEST.md.
static int read_manifest(manifest_row *rows, int max) {
	char path[1024];
	if (!test_corpus_path("MANIFEST.md", path, sizeof path)) return -1;
	FILE *f = fopen(path, "r");
	if (!f) return -1;
	char line[512];
	int n = 0;
	while (n < max && fgets(line, sizeof line, f)) {
		if (strncmp(line, "| acl/", 6) != 0) continue;
		manifest_row *row = &rows[n];
		char kind[64], joints[32];
		if (sscanf(line, "| acl/%95[^ ] | %63[^|]| %u | %u | %31[^|]|", row->file, kind, &row->samples, &row->rate,
		           joints) != 5)
			continue;
		row->joints = (unsigned)strtoul(joints, NULL, 10);
		++n;
	}
	fclose(f);
	return n;
}

// Files that hold no importable clip, with the result this reader gives them.
static const struct {
	const char *file;
	sinew_result code;
	const char *needle;
} corpus_failures[] = {
    {"no_output_transform_tracks.acl.sjson", SINEW_RESULT_BAD_COUNT, "no tracks"}, // bones = [ ], tracks = [ ]
    {"no_output_scalar_tracks.acl.sjson", SINEW_RESULT_BAD_COUNT, "no tracks"},    // its only track is stripped
    {"format_reference.acl.sjson", SINEW_RESULT_PARSE, "both a clip"},             // documentation: clip + track list
};

static const struct {
	const char *file;
	uint32_t components;
} corpus_components[] = {
    {"track_list_float1f.acl.sjson", 1},  {"track_list_float2f.acl.sjson", 2},
    {"track_list_float3f.acl.sjson", 3},  {"track_list_float3f_looping.acl.sjson", 3},
    {"track_list_float4f.acl.sjson", 4},  {"track_list_remap_output.acl.sjson", 4},
    {"track_list_vector4f.acl.sjson", 4},
};

static void test_acl_corpus_matches_manifest(void) {
	manifest_row rows[64];
	int n = read_manifest(rows, 64);
	if (n < 0) return; // skipped
	CHECK(n >= 20);
	int imported = 0, failed = 0;
	uint64_t frames = 0;
	for (int i = 0; i < n; ++i) {
		char path[1024], relative[160];
		snprintf(relative, sizeof relative, "acl/%.100s", rows[i].file);
		CHECK(test_corpus_path(relative, path, sizeof path));
		sinew_import_options o = acl_options();
		o.kind = SINEW_FILE_AUTO; // by extension
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		sinew_result r = sinew_import_file(path, &o, NULL, &set, &err);
		bool expect_fail = false;
		for (size_t k = 0; k < sizeof corpus_failures / sizeof corpus_failures[0]; ++k) {
			if (strcmp(rows[i].file, corpus_failures[k].file) != 0) continue;
			expect_fail = true;
			CHECK_MSG(r == corpus_failures[k].code && strstr(err.message, corpus_failures[k].needle), "%s: %s: %s",
			          rows[i].file, sinew_result_name(r), err.message);
			CHECK(set == NULL);
		}
		if (expect_fail) {
			++failed;
			continue;
		}
		CHECK_MSG(r == SINEW_RESULT_OK, "%s: %s: %s", rows[i].file, sinew_result_name(r), err.message);
		CHECK_EQ(set->clip_count, 1);
		const sinew_clip *c = set->clips[0];
		CHECK_MSG(c->sample_count == rows[i].samples, "%s: %u samples", rows[i].file, c->sample_count);
		CHECK_MSG(c->sample_rate == rows[i].rate, "%s: rate %g", rows[i].file, c->sample_rate);
		CHECK_MSG(c->joint_count == rows[i].joints, "%s: %u joints", rows[i].file, c->joint_count);
		CHECK(c->unit_scale == 100.0); // centimetres
		CHECK(c->name && c->name[0]);
		if (c->joint_count == 0) {
			uint32_t expected = 0;
			for (size_t k = 0; k < sizeof corpus_components / sizeof corpus_components[0]; ++k)
				if (strcmp(rows[i].file, corpus_components[k].file) == 0) expected = corpus_components[k].components;
			CHECK_MSG(expected != 0, "%s: no component count in the test table", rows[i].file);
			CHECK(c->scalar_track_count >= 1);
			for (uint32_t t = 0; t < c->scalar_track_count; ++t) {
				CHECK_EQ(c->scalar_tracks[t].components, expected);
				CHECK(c->scalar_tracks[t].precision == 0.0001f);
			}
		} else {
			CHECK_EQ(c->scalar_track_count, 0);
			CHECK(c->joints[0].parent == -1);
			CHECK(c->joints[0].shell_distance == 3.0f);
		}
		frames += c->sample_count;
		++imported;
		sinew_clip_set_free(set);
	}
	CHECK_EQ(failed, 3);
	CHECK_EQ(imported, n - 3);
	CHECK(frames > 1500);

	// Every .acl.sjson in the folder is in the manifest (so none escapes the checks above).
	char dir_path[1024];
	CHECK(test_corpus_path("acl", dir_path, sizeof dir_path));
	DIR *dir = opendir(dir_path);
	CHECK(dir);
	struct dirent *entry;
	int files = 0;
	bool all_listed = true;
	while ((entry = readdir(dir)) != NULL) {
		size_t len = strlen(entry->d_name);
		if (len < 10 || strcmp(entry->d_name + len - 10, ".acl.sjson") != 0) continue;
		++files;
		bool listed = false;
		for (int i = 0; i < n; ++i) listed |= strcmp(rows[i].file, entry->d_name) == 0;
		if (!listed) fprintf(stderr, "    %s is not in MANIFEST.md\n", entry->d_name);
		all_listed &= listed;
	}
	closedir(dir);
	CHECK(all_listed);
	CHECK_EQ(files, n);
}

static void test_acl_104_30_values_match_text(void) {
	char path[1024];
	if (!test_corpus_path("acl/104_30.acl.sjson", path, sizeof path)) return;
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	sinew_import_options o = acl_options();
	CHECK_OK(sinew_import_file(path, &o, NULL, &set, &err), &err);
	const sinew_clip *c = set->clips[0];
	CHECK(strcmp(c->name, "104_30") == 0);
	CHECK_EQ(c->sample_count, 273);
	CHECK_EQ(c->joint_count, 44);
	CHECK(strcmp(c->joints[0].name, "104_30") == 0);
	CHECK(strcmp(c->joints[1].name, "hip") == 0);
	CHECK_EQ(c->joints[1].parent, 0);
	const sinew_joint *abdomen = find_joint(c, "abdomen");
	CHECK(abdomen && abdomen->parent == 1);
	// bind_translation = [ 0.0, 20.688100814819336, -0.731516122817993 ]
	CHECK(abdomen->default_pose.translation[0] == 0.0f);
	CHECK(abdomen->default_pose.translation[1] == (float)20.688100814819336);
	CHECK(abdomen->default_pose.translation[2] == (float)-0.731516122817993);
	// bind_rotation = [ -0.049806832359917126, -3.3379711157692817e-16, 9.195035839006914e-16, 0.9987588695227048 ]
	float q[4];
	normalized(-0.049806832359917126, -3.3379711157692817e-16, 9.195035839006914e-16, 0.9987588695227048, q);
	for (int i = 0; i < 4; ++i) CHECK_NEAR(abdomen->default_pose.rotation[i], q[i], 1e-7);
	CHECK(abdomen->default_pose.scale[0] == 1.0f);
	// hip: first rotation [ 0.5142907771585324, -0.514290723189591, 0.48528858778944317, 0.48528861014053076 ]
	const sinew_qvv *hip0 = transform(c, 0, "hip");
	normalized(0.5142907771585324, -0.514290723189591, 0.48528858778944317, 0.48528861014053076, q);
	for (int i = 0; i < 4; ++i) CHECK_NEAR(hip0->rotation[i], q[i], 1e-7);
	// second: [ 0.7204026026201644, -0.02376564520336897, 0.693126284828566, -0.005589054115914751 ]
	const sinew_qvv *hip1 = transform(c, 1, "hip");
	normalized(0.7204026026201644, -0.02376564520336897, 0.693126284828566, -0.005589054115914751, q);
	for (int i = 0; i < 4; ++i) CHECK_NEAR(hip1->rotation[i], q[i], 1e-7);
	// hip translations: [ -173.16697692871094, -15.261819839477539, 85.45708465576172 ], then -166.26296997070312
	CHECK(hip0->translation[0] == -173.16697692871094f);
	CHECK(hip0->translation[1] == -15.261819839477539f);
	CHECK(hip0->translation[2] == 85.45708465576172f);
	CHECK(hip1->translation[0] == -166.26296997070312f);
	// The root has no translations sub-track and no bind translation: zero; no scales anywhere: one.
	const sinew_qvv *root = transform(c, 100, "104_30");
	CHECK(root->translation[0] == 0.0f && root->translation[1] == 0.0f && root->translation[2] == 0.0f);
	CHECK(root->scale[0] == 1.0f && root->scale[1] == 1.0f && root->scale[2] == 1.0f);
	for (uint32_t j = 0; j < c->joint_count; ++j) CHECK(c->joints[j].precision == 0.0f);
	CHECK(warnings[0] == 0);
	sinew_clip_set_free(set);
}

static void test_acl_corpus_edge_cases(void) {
	char path[1024];
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	sinew_import_options o = acl_options();
	// Two hands turned into roots.
	if (!test_corpus_path("acl/09_02_multi_root.acl.sjson", path, sizeof path)) return;
	CHECK_OK(sinew_import_file(path, &o, NULL, &set, &err), &err);
	CHECK_EQ(find_joint(set->clips[0], "rHand")->parent, -1);
	CHECK_EQ(find_joint(set->clips[0], "lHand")->parent, -1);
	sinew_clip_set_free(set);
	// Scale passes through zero: valid data, kept as written ([ 0.0, 1.0, 1.0 ] at sample 11 of 'head').
	CHECK(test_corpus_path("acl/09_02_with_zero_scale.acl.sjson", path, sizeof path));
	CHECK_OK(sinew_import_file(path, &o, NULL, &set, &err), &err);
	CHECK(transform(set->clips[0], 11, "head")->scale[0] == 0.0f);
	CHECK(transform(set->clips[0], 15, "head")->scale[0] == -1.0f);
	CHECK(transform(set->clips[0], 1, "head")->scale[0] == 1.1f);
	sinew_clip_set_free(set);
	// A translation of 1e25 cm: finite in float, imported, reported.
	warnings[0] = 0;
	CHECK(test_corpus_path("acl/09_02_with_inf_error.acl.sjson", path, sizeof path));
	CHECK_OK(sinew_import_file(path, &o, NULL, &set, &err), &err);
	CHECK(transform(set->clips[0], 0, "hip")->translation[0] == 1e25f);
	CHECK(strstr(warnings, "1e+25") != NULL);
	sinew_clip_set_free(set);
	// A translation component that is 0 at every sample.
	CHECK(test_corpus_path("acl/93_01_zero_range_extent.acl.sjson", path, sizeof path));
	CHECK_OK(sinew_import_file(path, &o, NULL, &set, &err), &err);
	CHECK_EQ(set->clips[0]->sample_count, 5);
	sinew_clip_set_free(set);
	// A single sample is a static pose.
	CHECK(test_corpus_path("acl/90_10.acl.sjson", path, sizeof path));
	CHECK_OK(sinew_import_file(path, &o, NULL, &set, &err), &err);
	CHECK_EQ(set->clips[0]->sample_count, 1);
	CHECK(sinew_clip_duration(set->clips[0]) == 0.0);
	sinew_clip_set_free(set);
	// Stripped tracks are reported.
	warnings[0] = 0;
	CHECK(test_corpus_path("acl/no_output_scalar_tracks.acl.sjson", path, sizeof path));
	CHECK_RESULT(sinew_import_file(path, &o, NULL, &set, &err), SINEW_RESULT_BAD_COUNT, &err);
	CHECK(strstr(err.message, "stripped") != NULL);
}

static void test_acl_corpus_track_lists(void) {
	char path[1024];
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	sinew_import_options o = acl_options();
	if (!test_corpus_path("acl/track_list_float3f.acl.sjson", path, sizeof path)) return;
	CHECK_OK(sinew_import_file(path, &o, NULL, &set, &err), &err);
	const sinew_clip *c = set->clips[0];
	CHECK_EQ(c->sample_count, 26);
	CHECK_EQ(c->scalar_track_count, 4);
	const sinew_scalar_track *t = &c->scalar_tracks[1];
	CHECK(strcmp(t->name, "1-float3f_animated") == 0);
	CHECK_EQ(t->components, 3);
	// [ 0.29229792952537537, 145.65396118164062, 84.53063201904297 ] then [ 1.1816197633743286, ... ]
	CHECK(t->values[0] == (float)0.29229792952537537);
	CHECK(t->values[1] == (float)145.65396118164062);
	CHECK(t->values[2] == (float)84.53063201904297);
	CHECK(t->values[3] == (float)1.1816197633743286);
	// last sample: [ 1.97810697555542, -204.15213012695312, 85.92151641845703 ]
	CHECK(t->values[25 * 3 + 1] == (float)-204.15213012695312);
	CHECK(c->scalar_tracks[0].values[0] == (float)-0.7071067811865475);
	sinew_clip_set_free(set);

	// output_index 3, 0, 2, 1: the clip holds the tracks in output order.
	CHECK(test_corpus_path("acl/track_list_remap_output.acl.sjson", path, sizeof path));
	CHECK_OK(sinew_import_file(path, &o, NULL, &set, &err), &err);
	c = set->clips[0];
	CHECK_EQ(c->scalar_track_count, 4);
	CHECK(strcmp(c->scalar_tracks[0].name, "1-float4f_animated") == 0);
	CHECK(strcmp(c->scalar_tracks[1].name, "3-float4f_animated") == 0);
	CHECK(strcmp(c->scalar_tracks[2].name, "2-float4f_constant") == 0);
	CHECK(strcmp(c->scalar_tracks[3].name, "0-float4f_constant") == 0);
	CHECK(c->scalar_tracks[0].values[0] == (float)0.5142907771585324);
	sinew_clip_set_free(set);
}

/* ---- hand-written files ---- */

static const char tiny_clip[] =
    "// hand-written clip\n"
    "version = 5\n"
    "clip = { name = \"tiny\", num_samples = 2, sample_rate = 30, future_field = [ 1 { a = b } ] }\n"
    "settings = { error_threshold = 0.01 segmenting = { ideal_num_samples = 16 } }\n"
    "bones = [\n"
    "  { name = \"root\" parent = \"\" vertex_distance = 2.5 bind_translation = [ 1, 2, 3 ] }\n"
    "  { name = \"child\", parent = \"root\", vertex_distance = 3, bind_rotation = [0, 0, 0, 2]\n"
    "    bind_scale = [2 2 2] }\n"
    "  /* a second root without a track */ { name = \"other\" parent = \"\" vertex_distance = 0\n"
    "    bind_translation = [ 0 -7 0 ] }\n"
    "]\n"
    "tracks = [\n"
    "  { name = \"child\" rotations = [ [0 0 0 1] [0 0 1 1] ], translations = [ [1 2 3], [4 5 6] ] }\n"
    "  { name = \"root\" scales = [ [1 1 1] [0 -1 2.5e-1] ] }\n"
    "]\n";

static void test_acl_hand_written_clip(void) {
	sinew_clip_set *set = NULL;
	sinew_error err;
	CHECK_OK(import_text(tiny_clip, &set, &err), &err);
	const sinew_clip *c = set->clips[0];
	CHECK(strcmp(c->name, "tiny") == 0);
	CHECK_EQ(c->sample_count, 2);
	CHECK(c->sample_rate == 30.0);
	CHECK_EQ(c->joint_count, 3);
	CHECK(c->unit_scale == 100.0);
	CHECK_EQ(c->joints[0].parent, -1);
	CHECK_EQ(c->joints[1].parent, 0);
	CHECK_EQ(c->joints[2].parent, -1);
	CHECK(c->joints[0].shell_distance == 2.5f && c->joints[1].shell_distance == 3.0f &&
	      c->joints[2].shell_distance == 0.0f);
	CHECK_EQ(c->joints[1].source_index, 1);
	// Bind poses; the bind rotation [0 0 0 2] is normalized.
	CHECK(c->joints[0].default_pose.translation[2] == 3.0f);
	CHECK(c->joints[1].default_pose.rotation[3] == 1.0f);
	CHECK(c->joints[1].default_pose.scale[1] == 2.0f);
	// root: rotations and translations missing -> identity (as ACL reads them, not the bind pose); scales given.
	const sinew_qvv *root1 = transform(c, 1, "root");
	CHECK(root1->rotation[3] == 1.0f && root1->translation[0] == 0.0f && root1->translation[2] == 0.0f);
	CHECK(root1->scale[0] == 0.0f && root1->scale[1] == -1.0f && root1->scale[2] == 0.25f);
	// child: [0 0 1 1] normalized.
	const sinew_qvv *child1 = transform(c, 1, "child");
	CHECK_NEAR(child1->rotation[2], 0.70710678, 1e-7);
	CHECK_NEAR(child1->rotation[3], 0.70710678, 1e-7);
	CHECK(child1->translation[0] == 4.0f && child1->translation[2] == 6.0f);
	CHECK(child1->scale[0] == 1.0f); // no scales sub-track
	CHECK(transform(c, 0, "child")->translation[1] == 2.0f);
	// other: no track at all -> its bind pose at every sample.
	CHECK(transform(c, 0, "other")->translation[1] == -7.0f);
	CHECK(transform(c, 1, "other")->translation[1] == -7.0f);
	CHECK(strstr(warnings, "1 of 3 bones have no track") != NULL);
	CHECK(strstr(warnings, "error threshold") == NULL); // 0.01 cm is the default
	sinew_clip_set_free(set);

	// unit_cm: one file unit = 2.54 cm -> 100 / 2.54 units per metre; values are not rescaled.
	sinew_import_options o = acl_options();
	o.unit_cm = 2.54;
	CHECK_OK(sinew_import_memory(tiny_clip, sizeof tiny_clip - 1, &o, NULL, &set, &err), &err);
	CHECK_NEAR(set->clips[0]->unit_scale, 100.0 / 2.54, 1e-12);
	CHECK(set->clips[0]->joints[0].default_pose.translation[2] == 3.0f);
	sinew_clip_set_free(set);
	o.unit_cm = -1;
	CHECK_RESULT(sinew_import_memory(tiny_clip, sizeof tiny_clip - 1, &o, NULL, &set, &err),
	             SINEW_RESULT_INVALID_ARGUMENT, &err);

	// Auto-detection by content ("// ..." or "version").
	o = acl_options();
	o.kind = SINEW_FILE_AUTO;
	CHECK_OK(sinew_import_memory(tiny_clip, sizeof tiny_clip - 1, &o, NULL, &set, &err), &err);
	sinew_clip_set_free(set);
}

static void test_acl_clip_warnings(void) {
	sinew_clip_set *set = NULL;
	sinew_error err;
	const char *text =
	    "version = 1\n"
	    "clip = { name = \"w\" num_samples = 1 sample_rate = 24 error_threshold = 0.05 additive_format = "
	    "\"additive1\" }\n"
	    "bones = [ { name = \"a\" parent = \"\" vertex_distance = 1 } ]\n"
	    "tracks = [ { name = \"a\" translations = [ [ 0 3e9 0 ] ] } ]\n"
	    "base_tracks = [ ]\n";
	CHECK_OK(import_text(text, &set, &err), &err);
	CHECK(strstr(warnings, "error threshold of 0.05 cm") != NULL);
	CHECK(strstr(warnings, "additive1") != NULL);
	CHECK(strstr(warnings, "base_tracks") != NULL);
	CHECK(strstr(warnings, "3e+09") != NULL);
	CHECK(set->clips[0]->joints[0].precision == 0.0f); // the file's threshold is reported, not applied
	sinew_clip_set_free(set);
	// An infinite threshold is ignored with a note.
	const char *inf =
	    "version = 2 clip = { num_samples = 1 sample_rate = 24 } settings = { error_threshold = \"inf\" }\n"
	    "bones = [ { name = \"a\" parent = \"\" vertex_distance = 1 } ] tracks = [ ]\n";
	CHECK_OK(import_text(inf, &set, &err), &err);
	CHECK(strstr(warnings, "error_threshold inf") != NULL);
	CHECK(set->clips[0]->name == NULL); // no name and no path
	sinew_clip_set_free(set);
}

// The same clip written binary-exact: doubles as raw hex bits, decimals still accepted.
static void test_acl_binary_exact_clip(void) {
	const char *text =
	    "version = 2\n"
	    "clip = { name = \"hex\" num_samples = 2 sample_rate = 60 is_binary_exact = true }\n"
	    "bones = [ { name = \"a\" parent = \"\" vertex_distance = 3.0\n"
	    "            bind_translation = [ \"3FF0000000000000\", \"0\", \"C000000000000000\" ] } ]\n"
	    "tracks = [ { name = \"a\"\n"
	    "  rotations = [ [ \"0\" \"0\" \"0\" \"3FF0000000000000\" ] [ \"0\", \"0\", \"3FE0000000000000\", "
	    "\"3FE0000000000000\" ] ]\n"
	    "  translations = [ [ \"3FB999999999999A\" 0x4024000000000000 \"0\" ] [ 1.5 2 3 ] ] } ]\n";
	sinew_clip_set *set = NULL;
	sinew_error err;
	CHECK_OK(import_text(text, &set, &err), &err);
	const sinew_clip *c = set->clips[0];
	CHECK(c->joints[0].default_pose.translation[0] == 1.0f);
	CHECK(c->joints[0].default_pose.translation[2] == -2.0f);
	CHECK(c->transforms[0].translation[0] == 0.1f); // 0x3FB999999999999A is the double nearest 0.1
	CHECK(c->transforms[0].translation[1] == 10.0f);
	CHECK_NEAR(c->transforms[1].rotation[2], 0.70710678, 1e-7);
	CHECK(c->transforms[1].translation[0] == 1.5f);
	sinew_clip_set_free(set);
	// A 17-digit hex string does not fit a double.
	sinew_error err2;
	const char *long_hex = "version = 2 clip = { num_samples = 1 sample_rate = 60 is_binary_exact = true }\n"
	                       "bones = [ { name = \"a\" parent = \"\" vertex_distance = 3.0 } ]\n"
	                       "tracks = [ { name = \"a\" translations = [ [ \"0\" \"0\" \"10000000000000000\" ] ] } ]\n";
	CHECK(expect_failure(long_hex, SINEW_RESULT_PARSE, "translations sample 0", &err2));
}

static const char tiny_list[] =
    "version = 4\n"
    "track_list = { name = \"weights\" num_samples = 3 sample_rate = 60 }\n"
    "settings = { }\n"
    "tracks = [\n"
    "  { name = \"a\" type = float1f output_index = 1 data = [ [1] [2] [3] ] }\n"
    "  { name = \"b\" type = \"vector4f\" precision = 0.5 output_index = 0 constant_threshold = 0.1\n"
    "    data = [ [1, 2, 3, 4] [5 6 7 8] [9 10 11 -1.25e2] ] }\n"
    "  { name = \"gone\" type = float2f output_index = 0xFFFFFFFF data = [ [0 0] [0 0] [0 0] ] }\n"
    "]\n";

static void test_acl_hand_written_track_list(void) {
	sinew_clip_set *set = NULL;
	sinew_error err;
	CHECK_OK(import_text(tiny_list, &set, &err), &err);
	const sinew_clip *c = set->clips[0];
	CHECK(strcmp(c->name, "weights") == 0);
	CHECK_EQ(c->joint_count, 0);
	CHECK_EQ(c->scalar_track_count, 2);
	CHECK_EQ(c->sample_count, 3);
	CHECK(c->sample_rate == 60.0);
	const sinew_scalar_track *b = &c->scalar_tracks[0], *a = &c->scalar_tracks[1];
	CHECK(strcmp(b->name, "b") == 0 && strcmp(a->name, "a") == 0);
	CHECK_EQ(b->components, 4);
	CHECK_EQ(a->components, 1);
	CHECK(b->precision == 0.5f && a->precision == 0.0001f);
	CHECK(a->values[0] == 1.0f && a->values[2] == 3.0f);
	CHECK(b->values[4] == 5.0f && b->values[11] == -125.0f);
	CHECK(strstr(warnings, "1 of 3 tracks have output_index 4294967295") != NULL);
	sinew_clip_set_free(set);

	// Binary-exact track lists hold floats: 8 hex digits.
	const char *hex = "version = 5\n"
	                  "track_list = { num_samples = 2 sample_rate = 30 is_binary_exact = true }\n"
	                  "tracks = [ { name = \"h\" type = float2f precision = \"3A83126F\" output_index = 0\n"
	                  "  data = [ [ \"3F800000\", \"BE800000\" ] [ \"0\" \"7F7FFFFF\" ] ] } ]\n";
	CHECK_OK(import_text(hex, &set, &err), &err);
	c = set->clips[0];
	CHECK(c->scalar_tracks[0].precision == 0.001f);
	CHECK(c->scalar_tracks[0].values[0] == 1.0f && c->scalar_tracks[0].values[1] == -0.25f);
	CHECK(c->scalar_tracks[0].values[3] == 3.40282347e38f);
	sinew_clip_set_free(set);
}

static void test_acl_transform_track_list(void) {
	const char *text =
	    "version = 5\n"
	    "track_list = { name = \"qvv\" num_samples = 2 sample_rate = 10 }\n"
	    "tracks = [\n"
	    "  { name = \"root\" type = qvvf precision = 0.01 shell_distance = 4 bind_translation = [ 0 0 5 ]\n"
	    "    data = [ [ [0 0 0 1] [1 2 3] [1 1 1] ] [ [0 0 0 -3] [4 5 6] [1 2 1] ] ] }\n"
	    "  { name = \"leaf\" type = qvvf parent_index = 0 output_index = 4294967295\n"
	    "    data = [ [ [0 0 0 1] [0 1 0] [1 1 1] ] [ [1 0 0 0] [0 1 0] [1 1 1] ] ] }\n"
	    "]\n";
	sinew_clip_set *set = NULL;
	sinew_error err;
	CHECK_OK(import_text(text, &set, &err), &err);
	const sinew_clip *c = set->clips[0];
	CHECK_EQ(c->joint_count, 2);
	CHECK_EQ(c->scalar_track_count, 0);
	CHECK_EQ(c->joints[0].parent, -1);
	CHECK_EQ(c->joints[1].parent, 0);
	CHECK(c->joints[0].shell_distance == 4.0f);
	CHECK(c->joints[0].has_track == 1 && c->joints[1].has_track == 0); // stripped: hierarchy only
	CHECK(c->joints[0].default_pose.translation[2] == 5.0f);
	CHECK(c->transforms[2].rotation[3] == -1.0f); // [0 0 0 -3] normalized
	CHECK(c->transforms[2].translation[1] == 5.0f && c->transforms[2].scale[1] == 2.0f);
	CHECK(c->transforms[3].rotation[0] == 1.0f);
	sinew_clip_set_free(set);
	sinew_error e2;
	const char *bad = "version = 5 track_list = { num_samples = 1 sample_rate = 10 }\n"
	                  "tracks = [ { type = qvvf data = [ [ [0 0 0 1] [0 0 0] ] ] } ]\n";
	CHECK(expect_failure(bad, SINEW_RESULT_BAD_COUNT, "[ [rotation], [translation], [scale] ]", &e2));
	const char *order = "version = 5 track_list = { num_samples = 1 sample_rate = 10 }\n"
	                    "tracks = [ { type = qvvf parent_index = 1 data = [ [ [0 0 0 1] [0 0 0] [1 1 1] ] ] }\n"
	                    "           { type = qvvf data = [ [ [0 0 0 1] [0 0 0] [1 1 1] ] ] } ]\n";
	CHECK(expect_failure(order, SINEW_RESULT_BAD_PARENT, "parent_index 1", &e2));
	const char *mixed = "version = 5 track_list = { num_samples = 1 sample_rate = 10 }\n"
	                    "tracks = [ { type = qvvf data = [ [ [0 0 0 1] [0 0 0] [1 1 1] ] ] }\n"
	                    "           { type = float1f data = [ [ 1 ] ] } ]\n";
	CHECK(expect_failure(mixed, SINEW_RESULT_UNSUPPORTED, "mixes", &e2));
}

/* ---- malformed input ---- */

// Every strict prefix that cuts into the content must fail cleanly; cutting only trailing
// whitespace must not.
static bool truncation_sweep(const char *text) {
	size_t size = strlen(text), last = size;
	while (last > 0 && (text[last - 1] == '\n' || text[last - 1] == ' ')) --last;
	bool ok = true;
	for (size_t n = 0; n <= size; ++n) {
		// A copy of exactly n bytes so that ASan sees any read past the end.
		char *copy = (char *)malloc(n ? n : 1);
		if (!copy) return false;
		memcpy(copy, text, n);
		sinew_clip_set *set = NULL;
		sinew_error err;
		sinew_result r = import_size(copy, n, &set, &err);
		free(copy);
		if (r == SINEW_RESULT_OK) sinew_clip_set_free(set);
		if ((n < last) != (r != SINEW_RESULT_OK)) {
			fprintf(stderr, "    prefix of %zu bytes: %s (%s)\n", n, sinew_result_name(r), err.message);
			ok = false;
		}
		if (r != SINEW_RESULT_OK && (set != NULL || err.message[0] == 0)) ok = false;
	}
	return ok;
}

static void test_acl_truncated_at_every_length(void) {
	CHECK(truncation_sweep(tiny_clip));
	CHECK(truncation_sweep(tiny_list));
}

// tiny_clip with one substring replaced.
static const char *patched(const char *from, const char *to) {
	static char buffer[2048];
	const char *at = strstr(tiny_clip, from);
	if (!at) return "";
	size_t head = (size_t)(at - tiny_clip);
	snprintf(buffer, sizeof buffer, "%.*s%s%s", (int)head, tiny_clip, to, at + strlen(from));
	return buffer;
}

static void test_acl_rejects_bad_counts(void) {
	sinew_error err;
	// rotations with one sample in a two-sample clip
	CHECK(expect_failure(patched("rotations = [ [0 0 0 1] [0 0 1 1] ]", "rotations = [ [0 0 0 1] ]"),
	                     SINEW_RESULT_BAD_COUNT, "bone 1 'child' rotations has 1 samples, expected num_samples = 2",
	                     &err));
	CHECK(expect_failure(patched("[4 5 6]", "[4 5 6] [7 8 9]"), SINEW_RESULT_BAD_COUNT, "'child' translations has 3",
	                     &err));
	// a translation with two values
	CHECK(expect_failure(patched("[4 5 6]", "[4 5]"), SINEW_RESULT_BAD_COUNT,
	                     "bone 1 'child' translations sample 1 has 2 values, expected 3", &err));
	CHECK(expect_failure(patched("bind_scale = [2 2 2]", "bind_scale = [2 2 2 2]"), SINEW_RESULT_BAD_COUNT,
	                     "bind_scale", &err));
	CHECK(expect_failure(patched("num_samples = 2", "num_samples = 0"), SINEW_RESULT_NO_SAMPLES, "num_samples", &err));
	// no bones
	CHECK(expect_failure("version = 1 clip = { num_samples = 5 sample_rate = 24 } bones = [ ] tracks = [ ]",
	                     SINEW_RESULT_BAD_COUNT, "no tracks", &err));
	// track lists: wrong sample count, empty list, stripped everything
	CHECK(expect_failure(
	    "version = 4 track_list = { num_samples = 2 sample_rate = 24 } tracks = [ { type = float1f data = [ [1] ] } ]",
	    SINEW_RESULT_BAD_COUNT, "data has 1 samples", &err));
	CHECK(expect_failure("version = 4 track_list = { num_samples = 2 sample_rate = 24 } tracks = [ ]",
	                     SINEW_RESULT_BAD_COUNT, "no tracks", &err));
	CHECK(expect_failure("version = 4 track_list = { num_samples = 1 sample_rate = 24 }\n"
	                     "tracks = [ { type = float2f data = [ [1 2 3] ] } ]",
	                     SINEW_RESULT_BAD_COUNT, "has 3 values, expected 2", &err));
	// A huge sample count that no track backs up: refused before allocating.
	CHECK(expect_failure("version = 1 clip = { num_samples = 4000000000 sample_rate = 24 }\n"
	                     "bones = [ { name = \"a\" parent = \"\" vertex_distance = 1 } ] tracks = [ ]",
	                     SINEW_RESULT_UNSUPPORTED, "would expand", &err));
}

static void test_acl_rejects_bad_parents_and_names(void) {
	sinew_error err;
	// child listed before its parent
	const char *order = "version = 1 clip = { num_samples = 1 sample_rate = 24 }\n"
	                    "bones = [ { name = \"leaf\" parent = \"root\" vertex_distance = 1 }\n"
	                    "          { name = \"root\" parent = \"\" vertex_distance = 1 } ]\n"
	                    "tracks = [ ]\n";
	CHECK(expect_failure(order, SINEW_RESULT_BAD_PARENT, "must be listed before it", &err));
	CHECK(strstr(err.message, "input:2:") != NULL);
	CHECK(expect_failure(patched("parent = \"root\"", "parent = \"nobody\""), SINEW_RESULT_BAD_PARENT,
	                     "parent 'nobody' is not a bone", &err));
	CHECK(expect_failure(patched("parent = \"root\"", "parent = \"child\""), SINEW_RESULT_BAD_PARENT, "listed before",
	                     &err));
	CHECK(expect_failure(patched("name = \"other\"", "name = \"root\""), SINEW_RESULT_CORRUPT, "same name as bone 0",
	                     &err));
	CHECK(expect_failure(patched("{ name = \"root\" scales", "{ name = \"ghost\" scales"), SINEW_RESULT_CORRUPT,
	                     "names no bone ('ghost')", &err));
	CHECK(expect_failure(patched("{ name = \"root\" scales", "{ name = \"child\" scales"), SINEW_RESULT_CORRUPT,
	                     "second track", &err));
	// track list output indices must be unique and contiguous
	CHECK(expect_failure(
	    "version = 4 track_list = { num_samples = 1 sample_rate = 24 }\n"
	    "tracks = [ { type = float1f output_index = 0 data = [ [1] ] }\n"
	    "           { type = float1f output_index = 0 data = [ [1] ] } ]",
	    SINEW_RESULT_CORRUPT, "used twice", &err));
	CHECK(expect_failure("version = 4 track_list = { num_samples = 1 sample_rate = 24 }\n"
	                     "tracks = [ { type = float1f output_index = 5 data = [ [1] ] } ]",
	                     SINEW_RESULT_CORRUPT, "out of range", &err));
}

static void test_acl_rejects_bad_values(void) {
	sinew_error err;
	// not a number, with its line
	CHECK(expect_failure(patched("[4 5 6]", "[4 five 6]"), SINEW_RESULT_PARSE,
	                     "input:13: bone 1 'child' translations sample 1: 'five' is not a number", &err));
	CHECK(expect_failure(patched("[4 5 6]", "[4 5.5.5 6]"), SINEW_RESULT_PARSE, "'5.5.5' is not a number", &err));
	CHECK(expect_failure(patched("[4 5 6]", "[4 1e 6]"), SINEW_RESULT_PARSE, "'1e'", &err));
	CHECK(expect_failure(patched("[4 5 6]", "[4 \"5\" 6]"), SINEW_RESULT_PARSE, "is not a number", &err));
	CHECK(expect_failure(patched("[4 5 6]", "[4 [5] 6]"), SINEW_RESULT_PARSE, "is not a number", &err));
	// beyond the float range, infinite, NaN
	CHECK(expect_failure(patched("[4 5 6]", "[4 1e39 6]"), SINEW_RESULT_NOT_FINITE, "outside the float range", &err));
	CHECK(expect_failure(patched("[4 5 6]", "[4 1e400 6]"), SINEW_RESULT_NOT_FINITE, "translations sample 1", &err));
	CHECK(expect_failure(patched("[0 0 1 1]", "[0 0 \"nan\" 1]"), SINEW_RESULT_NOT_FINITE, "rotations sample 1", &err));
	CHECK(expect_failure(patched("[0 0 1 1]", "[0 0 0 0]"), SINEW_RESULT_NOT_UNIT_QUATERNION, "length 0", &err));
	// header values
	CHECK(expect_failure(patched("num_samples = 2", "num_samples = 2.5"), SINEW_RESULT_PARSE,
	                     "num_samples: '2.5' is not an unsigned 32-bit integer", &err));
	CHECK(expect_failure(patched("num_samples = 2", "num_samples = -2"), SINEW_RESULT_PARSE, "num_samples", &err));
	CHECK(expect_failure(patched("sample_rate = 30", "sample_rate = 0"), SINEW_RESULT_BAD_SAMPLE_RATE, "sample_rate",
	                     &err));
	CHECK(expect_failure(patched("sample_rate = 30", "sample_rate = \"inf\""), SINEW_RESULT_BAD_SAMPLE_RATE,
	                     "sample_rate", &err));
	CHECK(expect_failure(patched("vertex_distance = 3", "vertex_distance = -3"), SINEW_RESULT_BAD_PRECISION,
	                     "vertex_distance", &err));
	CHECK(expect_failure(patched("version = 5", "version = 6"), SINEW_RESULT_UNSUPPORTED, "version 6", &err));
	CHECK(expect_failure(patched("version = 5", "version = 0"), SINEW_RESULT_PARSE, "version 0", &err));
	CHECK(expect_failure(patched("num_samples = 2,", "num_samples = 2 is_binary_exact = yes"), SINEW_RESULT_PARSE,
	                     "is_binary_exact", &err));
	CHECK(expect_failure("version = 4 track_list = { num_samples = 1 sample_rate = 24 }\n"
	                     "tracks = [ { type = float1f precision = -1 data = [ [1] ] } ]",
	                     SINEW_RESULT_BAD_PRECISION, "precision", &err));
	CHECK(expect_failure("version = 4 track_list = { num_samples = 1 sample_rate = 24 }\n"
	                     "tracks = [ { type = float5f data = [ [1] ] } ]",
	                     SINEW_RESULT_UNSUPPORTED, "unknown track type 'float5f'", &err));
	CHECK(expect_failure("version = 4 track_list = { num_samples = 1 sample_rate = 24 }\n"
	                     "tracks = [ { type = float1f data = [ [ 1e39 ] ] } ]",
	                     SINEW_RESULT_NOT_FINITE, "track 0 '' data sample 0", &err));
}

static void test_acl_rejects_bad_structure(void) {
	sinew_error err;
	CHECK(expect_failure("", SINEW_RESULT_PARSE, "missing key 'version'", &err));
	CHECK(
	    expect_failure(patched("num_samples = 2, ", ""), SINEW_RESULT_PARSE, "clip: missing key 'num_samples'", &err));
	CHECK(expect_failure(patched("vertex_distance = 2.5", ""), SINEW_RESULT_PARSE, "missing key 'vertex_distance'",
	                     &err));
	CHECK(expect_failure(patched("tracks = [", "trucks = ["), SINEW_RESULT_PARSE, "missing key 'tracks'", &err));
	CHECK(expect_failure(patched("version = 5", "version = 5 version = 5"), SINEW_RESULT_PARSE,
	                     "'version' appears twice", &err));
	CHECK(expect_failure("version = 5 tracks = [ ]", SINEW_RESULT_PARSE, "'clip' or 'track_list'", &err));
	CHECK(expect_failure(patched("bones = [", "bones = {"), SINEW_RESULT_PARSE, NULL, &err));
	CHECK(expect_failure(patched("bones = [\n", "bones = 7 x = [\n"), SINEW_RESULT_PARSE, "bones must be an array",
	                     &err));
	// unterminated string and comments
	CHECK(expect_failure(patched("\"tiny\"", "\"tiny"), SINEW_RESULT_PARSE, NULL, &err));
	CHECK(
	    expect_failure("version = 5\nclip = { name = \"abc", SINEW_RESULT_PARSE, "input:2: unterminated string", &err));
	CHECK(expect_failure("version = 5\n/* no end\n\n", SINEW_RESULT_PARSE, "input:2: unterminated /* comment", &err));
	CHECK(expect_failure("version = 5 / 2", SINEW_RESULT_PARSE, "'/'", &err));
	CHECK(expect_failure("version = 5\nclip = { name = \"a\\", SINEW_RESULT_PARSE, "unterminated string", &err));
	// brackets
	CHECK(expect_failure("version = 5 ]", SINEW_RESULT_PARSE, "unexpected ']'", &err));
	CHECK(expect_failure("version = 5 x = [ 1 }", SINEW_RESULT_PARSE, "unexpected '}'", &err));
	CHECK(expect_failure("version = 5\nx = [\n1 2", SINEW_RESULT_PARSE, "input:2: array '[' is not closed", &err));
	CHECK(expect_failure("version = 5 x", SINEW_RESULT_PARSE, "expected '=' after key 'x'", &err));
	CHECK(expect_failure("version = ", SINEW_RESULT_PARSE, "key 'version' has no value", &err));
	CHECK(expect_failure("version = 5 = 3", SINEW_RESULT_PARSE, "expected a key", &err));
	CHECK(expect_failure("version = 5 x = ,", SINEW_RESULT_PARSE, "unexpected ','", &err));
	char nul[] = "version = 5 x = \0";
	sinew_clip_set *set = NULL;
	CHECK_RESULT(import_size(nul, sizeof nul - 1, &set, &err), SINEW_RESULT_PARSE, &err);
	CHECK(strstr(err.message, "0x00") != NULL);
	// nesting: 64 levels are fine, 65 are not
	char deep[512];
	for (int depth = 64; depth <= 65; ++depth) {
		int n = snprintf(deep, sizeof deep, "version = 5 x = ");
		for (int i = 0; i < depth; ++i) deep[n++] = '[';
		for (int i = 0; i < depth; ++i) deep[n++] = ']';
		deep[n] = 0;
		// valid SJSON at 64: then it fails only for lack of a clip
		CHECK(expect_failure(deep, SINEW_RESULT_PARSE,
		                     depth == 64 ? "'clip' or 'track_list'" : "nesting deeper than 64", &err));
	}
	char *very_deep = (char *)malloc(200001);
	CHECK(very_deep);
	memset(very_deep, '[', 200000);
	memcpy(very_deep, "x=", 2);
	very_deep[200000] = 0;
	bool deep_ok = expect_failure(very_deep, SINEW_RESULT_PARSE, "nesting", &err);
	free(very_deep);
	CHECK(deep_ok);
}

// Unknown keys anywhere are skipped, commas are optional, keys may be quoted.
static void test_acl_tolerates_unknown_keys_and_commas(void) {
	const char *text = "\xEF\xBB\xBF// BOM, comments, commas\n"
	                   "\"version\" = 3, future = { a = [ 1, 2, { b = \"c\" }, ], d = e },\n"
	                   "clip = { name = \"c\", num_samples = 1, sample_rate = 24.5, later = \"x\", },\n"
	                   "bones = [ { name = b0, parent = \"\", vertex_distance = 1, color = [1 0 0], }, ],\n"
	                   "tracks = [ { name = b0 /* inline */ rotations = [ [ 0, 0, 0, 1, ], ], extra = 1 }, ],\n";
	sinew_clip_set *set = NULL;
	sinew_error err;
	CHECK_OK(import_text(text, &set, &err), &err);
	CHECK(set->clips[0]->sample_rate == 24.5);
	CHECK(strcmp(set->clips[0]->joints[0].name, "b0") == 0);
	sinew_clip_set_free(set);
}

/* ---- the SJSON parser ---- */

static void test_sjson_nodes_and_lookup(void) {
	const char *text = "a = 1 // one\n"
	                   "b = [ 1 [ 2 3 ] { k = \"v\\\"w\" } ]\n"
	                   "c = { x = true, \"y\" = -0x10 }\n";
	sinewi_sjson_doc doc;
	sinew_error err = {0};
	CHECK_OK(sinewi_sjson_parse(&doc, text, strlen(text), NULL, "t", &err), &err);
	CHECK_EQ(doc.nodes[0].count, 3);
	uint32_t b = sinewi_sjson_find(&doc, 0, "b", NULL);
	CHECK(b != SINEWI_SJSON_NONE && doc.nodes[b].type == SINEWI_SJSON_ARRAY && doc.nodes[b].count == 3);
	CHECK_EQ(doc.nodes[b].line, 2);
	uint32_t e = sinewi_sjson_first(&doc, b);
	double v;
	CHECK(sinewi_sjson_number(&doc, e, &v) && v == 1.0);
	e = sinewi_sjson_next(&doc, e);
	CHECK(doc.nodes[e].type == SINEWI_SJSON_ARRAY && doc.nodes[e].count == 2);
	e = sinewi_sjson_next(&doc, e);
	uint32_t k = sinewi_sjson_find(&doc, e, "k", NULL);
	CHECK(k != SINEWI_SJSON_NONE && sinewi_sjson_equals(&doc, k, "v\\\"w")); // escapes kept as written
	CHECK_EQ(sinewi_sjson_next(&doc, e), sinewi_sjson_find(&doc, 0, "c", NULL) - 1);
	uint32_t c = sinewi_sjson_find(&doc, 0, "c", NULL);
	bool flag = false;
	CHECK(sinewi_sjson_bool(&doc, sinewi_sjson_find(&doc, c, "x", NULL), &flag) && flag);
	CHECK(sinewi_sjson_number(&doc, sinewi_sjson_find(&doc, c, "y", NULL), &v) && v == -16.0);
	CHECK(sinewi_sjson_find(&doc, c, "z", NULL) == SINEWI_SJSON_NONE);
	CHECK(sinewi_sjson_find(&doc, b, "x", NULL) == SINEWI_SJSON_NONE); // not an object
	CHECK_EQ(doc.nodes[0].next, doc.node_count);
	sinewi_sjson_free(&doc);
	sinewi_sjson_free(&doc); // twice is harmless
}

// The decimal reader agrees bit for bit with strtod (C locale) on printed doubles and floats.
static void test_sjson_numbers_match_strtod(void) {
	sinewi_sjson_doc doc;
	sinew_error err = {0};
	test_rng rng = {0x9e3779b97f4a7c15ull};
	char text[64];
	const char *fixed[] = {"0",
	                       "-0",
	                       "0.0",
	                       "1e0",
	                       "-1.5E+3",
	                       ".5",
	                       "5.",
	                       "007",
	                       "1e-320",
	                       "4.9e-324",
	                       "2.2250738585072014e-308",
	                       "1.7976931348623157e308",
	                       "1e308",
	                       "123456789012345678901234567890",
	                       "0.000000000000000000000000000001234567890123456789",
	                       "9007199254740993",
	                       "-3.3379711157692817e-16",
	                       "145.65396118164062"};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] + 20000; ++i) {
		if (i < sizeof fixed / sizeof fixed[0]) {
			snprintf(text, sizeof text, "%s", fixed[i]);
		} else {
			double x = (test_rand_unit(&rng) - 0.5) * pow(10.0, (double)(test_rand_u32(&rng) % 80) - 40.0);
			int style = (int)(test_rand_u32(&rng) % 4);
			if (style == 0)
				snprintf(text, sizeof text, "%.17g", x);
			else if (style == 1)
				snprintf(text, sizeof text, "%.9g", (double)(float)x);
			else if (style == 2)
				snprintf(text, sizeof text, "%.6f", x);
			else
				snprintf(text, sizeof text, "%.15e", x);
		}
		char line[96];
		snprintf(line, sizeof line, "v = %s", text);
		CHECK_OK(sinewi_sjson_parse(&doc, line, strlen(line), NULL, "n", &err), &err);
		double got = 0;
		bool ok = sinewi_sjson_number(&doc, 2, &got);
		sinewi_sjson_free(&doc);
		double want = strtod(text, NULL);
		CHECK_MSG(ok && memcmp(&got, &want, sizeof got) == 0, "'%s': %.17g vs strtod %.17g", text, got, want);
	}
}

// Numbers too long for the strtod buffer are approximated to within a few ulps.
static void test_sjson_long_numbers(void) {
	char line[1100];
	int n = snprintf(line, sizeof line, "v = -0.");
	for (int i = 0; i < 380; ++i) line[n++] = '0';
	n += snprintf(line + n, sizeof line - (size_t)n, "1234567890123456789012345e300"); // -1.2345...e-81
	sinewi_sjson_doc doc;
	sinew_error err = {0};
	CHECK_OK(sinewi_sjson_parse(&doc, line, strlen(line), NULL, "n", &err), &err);
	double got = 0, want = strtod(line + 4, NULL);
	bool ok = sinewi_sjson_number(&doc, 2, &got);
	sinewi_sjson_free(&doc);
	CHECK(ok && want < -1e-82 && want > -1e-80);
	CHECK_NEAR(got, want, fabs(want) * 1e-14);
	n = snprintf(line, sizeof line, "v = ");
	for (int i = 0; i < 500; ++i) line[n++] = (char)('1' + i % 9);
	line[n] = 0;
	CHECK_OK(sinewi_sjson_parse(&doc, line, strlen(line), NULL, "n", &err), &err);
	want = strtod(line + 4, NULL);
	ok = sinewi_sjson_number(&doc, 2, &got);
	sinewi_sjson_free(&doc);
	CHECK(ok && isinf(want) == isinf(got));
	n = snprintf(line, sizeof line, "v = ");
	for (int i = 0; i < 300; ++i) line[n++] = (char)('1' + i % 9);
	n += snprintf(line + n, sizeof line - (size_t)n, ".5e-150");
	for (int i = 0; i < 200; ++i) line[n++] = '0';
	line[n] = 0; // 300 digits . 5 e -150000...: an exponent that saturates
	CHECK_OK(sinewi_sjson_parse(&doc, line, strlen(line), NULL, "n", &err), &err);
	ok = sinewi_sjson_number(&doc, 2, &got);
	sinewi_sjson_free(&doc);
	CHECK(ok && got == 0.0);
	n = snprintf(line, sizeof line, "v = 0.");
	for (int i = 0; i < 450; ++i) line[n++] = '0';
	n += snprintf(line + n, sizeof line - (size_t)n, "25");
	CHECK_OK(sinewi_sjson_parse(&doc, line, strlen(line), NULL, "n", &err), &err);
	want = strtod(line + 4, NULL); // 2.5e-451: below the double range
	ok = sinewi_sjson_number(&doc, 2, &got);
	sinewi_sjson_free(&doc);
	CHECK(ok && got == want);
	n = snprintf(line, sizeof line, "v = 0.");
	for (int i = 0; i < 400; ++i) line[n++] = '0';
	n += snprintf(line + n, sizeof line - (size_t)n, "125e400");
	CHECK_OK(sinewi_sjson_parse(&doc, line, strlen(line), NULL, "n", &err), &err);
	ok = sinewi_sjson_number(&doc, 2, &got);
	sinewi_sjson_free(&doc);
	CHECK(ok);
	CHECK_NEAR(got, 0.125, 1e-15);
}

static void test_sjson_rejects_non_numbers(void) {
	const char *bad[] = {"-",    "+",   ".",   "e5", "1e",   "1e+", "1.2.3", "0x", "0xG", "0x12345678123456789",
	                     "1..5", "--1", "abc", "1f", "\"1\""};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
		char line[64];
		snprintf(line, sizeof line, "v = [ %s ]", bad[i]);
		sinewi_sjson_doc doc;
		sinew_error err = {0};
		CHECK_OK(sinewi_sjson_parse(&doc, line, strlen(line), NULL, "n", &err), &err);
		double v;
		bool ok = sinewi_sjson_number(&doc, 3, &v); // v, [, first element
		sinewi_sjson_free(&doc);
		CHECK_MSG(!ok, "'%s' read as a number", bad[i]);
	}
	// hex bits: only within the width
	const char *hex = "a = \"3F800000\" b = \"13F800000\" c = 0x3f800000 d = \"xyz\"";
	sinewi_sjson_doc doc;
	sinew_error err = {0};
	CHECK_OK(sinewi_sjson_parse(&doc, hex, strlen(hex), NULL, "h", &err), &err);
	uint64_t bits;
	CHECK(sinewi_sjson_hex_bits(&doc, sinewi_sjson_find(&doc, 0, "a", NULL), 8, &bits) && bits == 0x3F800000u);
	CHECK(!sinewi_sjson_hex_bits(&doc, sinewi_sjson_find(&doc, 0, "b", NULL), 8, &bits));
	CHECK(sinewi_sjson_hex_bits(&doc, sinewi_sjson_find(&doc, 0, "b", NULL), 16, &bits) && bits == 0x13F800000ull);
	CHECK(sinewi_sjson_hex_bits(&doc, sinewi_sjson_find(&doc, 0, "c", NULL), 8, &bits) && bits == 0x3F800000u);
	CHECK(!sinewi_sjson_hex_bits(&doc, sinewi_sjson_find(&doc, 0, "d", NULL), 8, &bits));
	sinewi_sjson_free(&doc);
}

// Allocation failures anywhere give OUT_OF_MEMORY (or succeed), never a crash or a leak.
typedef struct failing_alloc {
	long live;
	long countdown;
} failing_alloc;

static void *fail_alloc(void *user, size_t size, size_t align) {
	failing_alloc *f = (failing_alloc *)user;
	if (f->countdown-- == 0) return NULL;
	return counting_alloc(&f->live, size, align);
}

static void fail_free(void *user, void *ptr, size_t size) {
	counting_free(&((failing_alloc *)user)->live, ptr, size);
}

static void test_acl_allocation_failures(void) {
	const char *texts[] = {tiny_clip, tiny_list};
	for (int t = 0; t < 2; ++t) {
		bool succeeded = false;
		for (long k = 0; k < 200 && !succeeded; ++k) {
			failing_alloc f = {0, k};
			sinew_allocator a = {fail_alloc, fail_free, &f};
			sinew_import_options o = acl_options();
			sinew_clip_set *set = NULL;
			sinew_error err = {0};
			sinew_result r = sinew_import_memory(texts[t], strlen(texts[t]), &o, &a, &set, &err);
			if (r == SINEW_RESULT_OK) {
				succeeded = true;
				sinew_clip_set_free(set);
			} else {
				CHECK_MSG(r == SINEW_RESULT_OUT_OF_MEMORY, "allocation %ld: %s (%s)", k, sinew_result_name(r),
				          err.message);
			}
			CHECK_EQ(f.live, 0);
		}
		CHECK(succeeded);
	}
}

void suite_import_acl(void) {
	RUN(test_acl_corpus_matches_manifest);
	RUN(test_acl_104_30_values_match_text);
	RUN(test_acl_corpus_edge_cases);
	RUN(test_acl_corpus_track_lists);
	RUN(test_acl_hand_written_clip);
	RUN(test_acl_clip_warnings);
	RUN(test_acl_binary_exact_clip);
	RUN(test_acl_hand_written_track_list);
	RUN(test_acl_transform_track_list);
	RUN(test_acl_truncated_at_every_length);
	RUN(test_acl_rejects_bad_counts);
	RUN(test_acl_rejects_bad_parents_and_names);
	RUN(test_acl_rejects_bad_values);
	RUN(test_acl_rejects_bad_structure);
	RUN(test_acl_tolerates_unknown_keys_and_commas);
	RUN(test_sjson_nodes_and_lookup);
	RUN(test_sjson_numbers_match_strtod);
	RUN(test_sjson_long_numbers);
	RUN(test_sjson_rejects_non_numbers);
	RUN(test_acl_allocation_failures);
}
