// sinew — see include/sinew.h for version and licence
#define _POSIX_C_SOURCE 200809L
// import_bvh: the BVH reader on the corpus (frame counts, rates and joints against MANIFEST.md), on
// hand-written files with known Euler angles, and on malformed input (each with its result code).
#include "test.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/quat.h"
#include "import/text_scan.h"

static sinew_result import_text(const char *text, const sinew_import_options *opt, sinew_clip_set **out,
                                sinew_error *err) {
	sinew_import_options o = opt ? *opt : (sinew_import_options){0};
	o.kind = SINEW_FILE_BVH;
	return sinew_import_memory(text, strlen(text), &o, NULL, out, err);
}

// Checks that `message` names line `line` ("line N:").
static bool names_line(const char *message, int line) {
	char needle[32];
	snprintf(needle, sizeof needle, "line %d:", line);
	return strstr(message, needle) != NULL;
}

/* ---- number scanning ---- */

static bool scan_number(const char *text, double *out) {
	sinewi_token t = {text, strlen(text), 1, true};
	return sinewi_token_number(&t, out);
}

static void test_numbers_match_strtod(void) {
	test_rng rng = {0x9e3779b97f4a7c15ull};
	char buf[64];
	for (int i = 0; i < 200000; ++i) {
		// random decimal shapes: sign, 0-20 integer digits, optional fraction, optional exponent
		int n = 0;
		if (test_rand_u32(&rng) % 3 == 0) buf[n++] = '-';
		int int_digits = (int)(test_rand_u32(&rng) % 12), frac_digits = (int)(test_rand_u32(&rng) % 14);
		if (test_rand_u32(&rng) % 16 == 0) int_digits += 10;
		for (int k = 0; k < int_digits; ++k) buf[n++] = (char)('0' + test_rand_u32(&rng) % 10);
		if (frac_digits || int_digits == 0) {
			buf[n++] = '.';
			for (int k = 0; k < (frac_digits ? frac_digits : 1); ++k) buf[n++] = (char)('0' + test_rand_u32(&rng) % 10);
		}
		if (test_rand_u32(&rng) % 5 == 0)
			n += snprintf(buf + n, sizeof buf - (size_t)n, "e%d", (int)(test_rand_u32(&rng) % 80) - 40);
		buf[n] = 0;
		double got, want = strtod(buf, NULL);
		CHECK_MSG(scan_number(buf, &got), "'%s' rejected", buf);
		CHECK_MSG(memcmp(&got, &want, sizeof got) == 0, "'%s': %.17g vs strtod %.17g", buf, got, want);
	}
	double v;
	CHECK(scan_number("5.", &v) && v == 5.0);
	CHECK(scan_number(".5", &v) && v == 0.5);
	CHECK(scan_number("+2E2", &v) && v == 200.0);
	CHECK(scan_number("-0", &v) && v == 0.0 && signbit(v));
	CHECK(scan_number("1e-400", &v) && v == 0.0); // underflow to zero is finite
	const char *bad[] = {"",    "-",   "+",     ".",     "e5",  "1e",  "1e+", "0x10", "inf", "-inf",
	                     "nan", "NaN", "1e400", "1.2.3", "+-1", "1,5", "1f",  "--1",  "1 ",  "infinity"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) CHECK_MSG(!scan_number(bad[i], &v), "'%s' accepted", bad[i]);
	uint64_t u;
	sinewi_token t = {"18446744073709551615", 20, 1, true};
	CHECK(sinewi_token_uint(&t, UINT64_MAX, &u) && u == UINT64_MAX);
	t.text = "18446744073709551616";
	CHECK(!sinewi_token_uint(&t, UINT64_MAX, &u));
	t.text = "1001", t.length = 4;
	CHECK(!sinewi_token_uint(&t, 1000, &u));
}

/* ---- corpus ---- */

typedef struct manifest_bvh {
	char path[256];
	unsigned frames;
	double rate;
	unsigned joints, channels;
	bool seen;
} manifest_bvh;

// Rows "| bvh/... | mocap BVH | frames | rate | J joints, C channels | ..." of MANIFEST.md.
static int read_manifest(manifest_bvh *rows, int max) {
	char path[1024];
	if (!test_corpus_path("MANIFEST.md", path, sizeof path)) return -1;
	FILE *f = fopen(path, "r");
	if (!f) return -1;
	char line[4096];
	int n = 0;
	while (fgets(line, sizeof line, f) && n < max) {
		manifest_bvh r = {0};
		if (sscanf(line, "| %255s | mocap BVH | %u | %lf | %u joints, %u channels |", r.path, &r.frames, &r.rate,
		           &r.joints, &r.channels) == 5)
			rows[n++] = r;
	}
	fclose(f);
	return n;
}

typedef struct warnings {
	int count;
	char last[512];
} warnings;

static void on_warning(void *user, const char *message) {
	warnings *w = (warnings *)user;
	w->count++;
	snprintf(w->last, sizeof w->last, "%s", message);
}

static int count_end_sites(const char *path) {
	FILE *f = fopen(path, "rb");
	if (!f) return -1;
	char line[8192];
	int n = 0;
	while (fgets(line, sizeof line, f)) {
		const char *p = line;
		while (*p == ' ' || *p == '\t') ++p;
		if (strncmp(p, "End ", 4) == 0) ++n;
		if (strncmp(p, "MOTION", 6) == 0) break;
	}
	fclose(f);
	return n;
}

static int visit_bvh(const char *dir, manifest_bvh *rows, int nrows, int *imported) {
	DIR *d = opendir(dir);
	if (!d) return -1;
	struct dirent *e;
	int failures = 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.') continue;
		char path[2048];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(path, &st) != 0) continue;
		if (S_ISDIR(st.st_mode)) {
			int r = visit_bvh(path, rows, nrows, imported);
			if (r < 0) return r;
			failures += r;
			continue;
		}
		size_t len = strlen(e->d_name);
		if (len < 4 || strcmp(e->d_name + len - 4, ".bvh") != 0) continue;
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		warnings w = {0};
		sinew_import_options opt = {.warning = on_warning, .warning_user = &w};
		sinew_result r = sinew_import_file(path, &opt, NULL, &set, &err);
		if (r != SINEW_RESULT_OK) {
			fprintf(stderr, "  %s: %s: %s\n", path, sinew_result_name(r), err.message);
			failures++;
			continue;
		}
		++*imported;
		const sinew_clip *clip = set->clips[0];
		const char *rel = strstr(path, "bvh/");
		manifest_bvh *row = NULL;
		for (int i = 0; i < nrows && rel; ++i)
			if (strcmp(rows[i].path, rel) == 0) row = &rows[i];
		uint32_t joints = 0, ends = 0;
		for (uint32_t j = 0; j < clip->joint_count; ++j) {
			if (clip->joints[j].source_index >= 0)
				++joints;
			else
				++ends;
		}
		bool ok =
		    set->clip_count == 1 && sinew_clip_validate(clip, &err) == SINEW_RESULT_OK && clip->unit_scale == 100.0;
		ok = ok && (int)ends == count_end_sites(path);
		if (row) {
			row->seen = true;
			ok = ok && clip->sample_count == row->frames && fabs(clip->sample_rate - row->rate) <= 1e-6 * row->rate &&
			     joints == row->joints;
		} else {
			ok = false;
		}
		if (!ok) {
			fprintf(stderr, "  %s: %u frames at %.6f Hz, %u joints, %u end sites do not match MANIFEST.md (%s)\n", path,
			        clip->sample_count, clip->sample_rate, joints, ends, row ? "row found" : "no row");
			failures++;
		}
		sinew_clip_set_free(set);
	}
	closedir(d);
	return failures;
}

static void test_corpus_imports_and_matches_manifest(void) {
	static manifest_bvh rows[512];
	int n = read_manifest(rows, 512);
	if (n < 0) return; // skipped
	CHECK(n >= 90); // 99 BVH rows when this was written
	char dir[1024];
	CHECK(test_corpus_path("bvh", dir, sizeof dir));
	int imported = 0;
	int failures = visit_bvh(dir, rows, n, &imported);
	CHECK_EQ(failures, 0);
	CHECK_EQ(imported, n);
	for (int i = 0; i < n; ++i) CHECK_MSG(rows[i].seen, "%s listed in MANIFEST.md but not found", rows[i].path);
}

static void test_cgspeed_01_01(void) {
	char path[1024];
	if (!test_corpus_path("bvh/cmu_cgspeed/01_01.bvh", path, sizeof path)) return;
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_file(path, NULL, NULL, &set, &err), &err);
	const sinew_clip *c = set->clips[0];
	CHECK_EQ(c->sample_count, 2752);
	CHECK(c->sample_rate == 120.0); // "Frame Time: .0083333" is 1/120 to the printed digits
	CHECK_EQ(c->joint_count, 31 + 7);
	CHECK(strcmp(c->name, "01_01") == 0);
	CHECK(strcmp(c->joints[0].name, "Hips") == 0 && c->joints[0].parent == -1);
	CHECK(strcmp(c->joints[6].name, "LeftToeBase_end") == 0 && c->joints[6].parent == 5 && !c->joints[6].has_track);
	CHECK_EQ(c->joints[7].source_index, 6); // RHipJoint is the 7th ROOT/JOINT
	// frame 1: "9.3722 17.8693 -17.3198 -3.2316 -7.5970 -2.0168 ..." (Zrotation Yrotation Xrotation)
	const sinew_qvv *root = &c->transforms[1 * c->joint_count];
	CHECK_NEAR(root->translation[0], 9.3722, 1e-5);
	CHECK_NEAR(root->translation[1], 17.8693, 1e-5);
	CHECK_NEAR(root->translation[2], -17.3198, 1e-5);
	double d2r = 3.14159265358979323846 / 180, z = -3.2316 * d2r, y = -7.5970 * d2r, x = -2.0168 * d2r;
	// R = Rz * Ry * Rx; compare the third column (R applied to the z axis)
	double col2[3] = {cos(z) * sin(y) * cos(x) + sin(z) * sin(x), sin(z) * sin(y) * cos(x) - cos(z) * sin(x),
	                  cos(y) * cos(x)};
	double q[4] = {root->rotation[0], root->rotation[1], root->rotation[2], root->rotation[3]}, m[3][3];
	sinewi_quat_to_matrix_d(q, m);
	for (int i = 0; i < 3; ++i) CHECK_NEAR(m[i][2], col2[i], 1e-6);
	// End Site offset is the constant translation of the end joint
	CHECK_NEAR(c->transforms[100 * c->joint_count + 6].translation[2], 1.18966, 1e-6);
	sinew_clip_set_free(set);
}

static void test_boxing_toes_extra_line_warns(void) {
	char path[1024];
	if (!test_corpus_path("bvh/assimp/Boxing_Toes.bvh", path, sizeof path)) return;
	warnings w = {0};
	sinew_import_options opt = {.warning = on_warning, .warning_user = &w};
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_file(path, &opt, NULL, &set, &err), &err);
	CHECK_EQ(set->clips[0]->sample_count, 3069);
	CHECK(set->clips[0]->sample_rate == 100.0);
	CHECK_EQ(w.count, 1);
	CHECK_MSG(strstr(w.last, "1 line(s) after the 3069 declared frames ignored") && names_line(w.last, 3199), "%s",
	          w.last);
	sinew_clip_set_free(set);
}

/* ---- hand-written files ---- */

static const char *two_joint_bvh = "HIERARCHY\n"
                                   "ROOT Hips\n"
                                   "{\n"
                                   "\tOFFSET 1 2 3\n"
                                   "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
                                   "\tJOINT Chest\n"
                                   "\t{\n"
                                   "\t\tOFFSET 0 10 0\n"
                                   "\t\tCHANNELS 4 Xrotation Yrotation Zrotation Yposition\n"
                                   "\t\tEnd Site\n"
                                   "\t\t{\n"
                                   "\t\t\tOFFSET 0 5 0\n"
                                   "\t\t}\n"
                                   "\t}\n"
                                   "\tJOINT Leg\n"
                                   "\t{\n"
                                   "\t\tOFFSET 4 0 0\n"
                                   "\t\tCHANNELS 0\n"
                                   "\t\tEnd site\n"
                                   "\t\t{\n"
                                   "\t\t\tOFFSET 0 -6 0\n"
                                   "\t\t}\n"
                                   "\t}\n"
                                   "}\n"
                                   "MOTION\n"
                                   "Frames: 2\n"
                                   "Frame Time: 0.0333333\n"
                                   "10 20 30 30 45 60 -20 35 170 12\n"
                                   "\n"
                                   "0 0 0 0 0 0 0 0 0 7\n";

// Rotation matrices about one axis, row-major.
static void axis_matrix(int axis, double deg, double m[3][3]) {
	double a = deg * 3.14159265358979323846 / 180, c = cos(a), s = sin(a);
	memset(m, 0, sizeof(double[3][3]));
	int i = (axis + 1) % 3, j = (axis + 2) % 3;
	m[axis][axis] = 1;
	m[i][i] = c, m[i][j] = -s;
	m[j][i] = s, m[j][j] = c;
}

static void matmul3(double a[3][3], double b[3][3], double r[3][3]) {
	double t[3][3];
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 3; ++j) t[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
	memcpy(r, t, sizeof t);
}

static bool rotation_matches(const float qf[4], double want[3][3], double tol) {
	double q[4] = {qf[0], qf[1], qf[2], qf[3]}, m[3][3];
	if (fabs(sqrt(sinewi_quat_dot_d(q, q)) - 1) > 1e-6) return false;
	sinewi_quat_to_matrix_d(q, m);
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 3; ++j)
			if (fabs(m[i][j] - want[i][j]) > tol) return false;
	return true;
}

static void test_euler_orders_and_translation(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(two_joint_bvh, NULL, &set, &err), &err);
	const sinew_clip *c = set->clips[0];
	CHECK_EQ(c->joint_count, 5);
	CHECK_EQ(c->sample_count, 2);
	CHECK(c->sample_rate == 30.0);
	CHECK(strcmp(c->name, "bvh") == 0);
	const char *names[5] = {"Hips", "Chest", "Chest_end", "Leg", "Leg_end"};
	const int parents[5] = {-1, 0, 1, 0, 3}, sources[5] = {0, 1, -1, 2, -1};
	for (int j = 0; j < 5; ++j) {
		CHECK_MSG(strcmp(c->joints[j].name, names[j]) == 0, "joint %d is '%s'", j, c->joints[j].name);
		CHECK_EQ(c->joints[j].parent, parents[j]);
		CHECK_EQ(c->joints[j].source_index, sources[j]);
		CHECK_EQ(c->joints[j].has_track, sources[j] >= 0);
	}
	// Root: Z X Y order -> Rz(45) * Rx(60) * Ry(-20); translation = OFFSET + channels.
	double rz[3][3], rx[3][3], ry[3][3], want[3][3];
	axis_matrix(2, 30, rz), axis_matrix(0, 45, rx), axis_matrix(1, 60, ry);
	matmul3(rz, rx, want), matmul3(want, ry, want);
	const sinew_qvv *f0 = &c->transforms[0];
	CHECK(rotation_matches(f0[0].rotation, want, 1e-6));
	CHECK(f0[0].translation[0] == 11.0f && f0[0].translation[1] == 22.0f && f0[0].translation[2] == 33.0f);
	// Chest: X Y Z order -> Rx(-20) * Ry(35) * Rz(170); its Yposition channel replaces OFFSET y.
	axis_matrix(0, -20, rx), axis_matrix(1, 35, ry), axis_matrix(2, 170, rz);
	matmul3(rx, ry, want), matmul3(want, rz, want);
	CHECK(rotation_matches(f0[1].rotation, want, 1e-6));
	CHECK(f0[1].translation[0] == 0.0f && f0[1].translation[1] == 12.0f && f0[1].translation[2] == 0.0f);
	CHECK(f0[2].translation[1] == 5.0f && f0[2].rotation[3] == 1.0f);
	CHECK(f0[3].translation[0] == 4.0f && f0[3].rotation[3] == 1.0f);
	CHECK(f0[4].translation[1] == -6.0f);
	const sinew_qvv *f1 = &c->transforms[5];
	CHECK(f1[0].translation[0] == 1.0f && f1[0].translation[2] == 3.0f && f1[0].rotation[3] == 1.0f);
	CHECK(f1[1].translation[1] == 7.0f);
	// Default pose: OFFSET, identity rotation.
	CHECK(c->joints[0].default_pose.translation[1] == 2.0f && c->joints[1].default_pose.translation[1] == 10.0f);
	CHECK(c->joints[1].default_pose.rotation[3] == 1.0f && c->joints[1].default_pose.scale[0] == 1.0f);
	sinew_clip_set_free(set);
}

static void test_end_sites_can_be_skipped(void) {
	sinew_import_options opt = {.bvh_skip_end_sites = 1};
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(two_joint_bvh, &opt, &set, &err), &err);
	const sinew_clip *c = set->clips[0];
	CHECK_EQ(c->joint_count, 3);
	CHECK(strcmp(c->joints[2].name, "Leg") == 0);
	CHECK_EQ(c->joints[2].parent, 0);
	CHECK_EQ(c->joints[2].source_index, 2);
	CHECK(c->transforms[3 + 1].translation[1] == 7.0f);
	sinew_clip_set_free(set);
}

// Replaces every "\n" with "\r\n" and every tab with spaces and tabs mixed.
static char *to_crlf(const char *text) {
	size_t n = strlen(text);
	char *out = malloc(3 * n + 1), *o = out;
	for (const char *p = text; *p; ++p) {
		if (*p == '\n')
			*o++ = '\r', *o++ = '\n';
		else if (*p == '\t')
			*o++ = ' ', *o++ = '\t', *o++ = ' ';
		else if (*p == ' ')
			*o++ = '\t', *o++ = ' ';
		else
			*o++ = *p;
	}
	*o = 0;
	return out;
}

static void test_crlf_and_odd_whitespace(void) {
	char *crlf = to_crlf(two_joint_bvh);
	sinew_clip_set *a = NULL, *b = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(two_joint_bvh, NULL, &a, &err), &err);
	sinew_result r = import_text(crlf, NULL, &b, &err);
	free(crlf);
	CHECK_OK(r, &err);
	CHECK_EQ(b->clips[0]->joint_count, a->clips[0]->joint_count);
	CHECK(memcmp(a->clips[0]->transforms, b->clips[0]->transforms, 10 * sizeof(sinew_qvv)) == 0);
	sinew_clip_set_free(a);
	sinew_clip_set_free(b);
	// a lone CR also ends a line (old Mac files); the line numbers still count
	const char *cr =
	    "HIERARCHY\rROOT A\r{\rOFFSET 0 0 0\rCHANNELS 1 Xrotation\r}\rMOTION\rFrames: 2\rFrame Time: 0.5\r1\r2 3\r";
	CHECK_RESULT(import_text(cr, NULL, &a, &err), SINEW_RESULT_BAD_COUNT, &err);
	CHECK_MSG(names_line(err.message, 11), "%s", err.message);
}

static void test_multiple_roots_and_names_with_spaces(void) {
	const char *text = "HIERARCHY\nROOT Left Arm {\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n}\n"
	                   "ROOT Right\n{\n OFFSET 1 0 0\n CHANNELS 1 Yrotation\n End Site\n {\n  OFFSET 0 1 0\n }\n}\n"
	                   "MOTION\nFrames: 1\nFrame Time: 0.04\n1 2 3 90\n";
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(text, NULL, &set, &err), &err);
	const sinew_clip *c = set->clips[0];
	CHECK_EQ(c->joint_count, 3);
	CHECK(strcmp(c->joints[0].name, "Left Arm") == 0);
	CHECK(c->joints[0].parent == -1 && c->joints[1].parent == -1 && c->joints[2].parent == 1);
	CHECK(c->sample_rate == 25.0);
	CHECK_NEAR(c->transforms[1].rotation[1], sin(3.14159265358979 / 4), 1e-6);
	sinew_clip_set_free(set);
}

static void test_units_and_clip_name(void) {
	sinew_import_options opt = {.unit_cm = 2.54};
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(two_joint_bvh, &opt, &set, &err), &err);
	CHECK_NEAR(set->clips[0]->unit_scale, 100.0 / 2.54, 1e-12);
	CHECK(set->clips[0]->transforms[0].translation[0] == 11.0f); // data stays in file units
	sinew_clip_set_free(set);
	opt.unit_cm = -1;
	CHECK_RESULT(import_text(two_joint_bvh, &opt, &set, &err), SINEW_RESULT_INVALID_ARGUMENT, &err);

	char path[512];
	test_tmp_path("walk.v2.bvh", path, sizeof path);
	FILE *f = fopen(path, "wb");
	CHECK(f);
	fputs(two_joint_bvh, f);
	fclose(f);
	CHECK_OK(sinew_import_file(path, NULL, NULL, &set, &err), &err);
	CHECK(strcmp(set->clips[0]->name, "walk.v2") == 0);
	sinew_clip_set_free(set);
	remove(path);
}

static void test_frame_time_rates(void) {
	static const struct {
		const char *time;
		double rate;
	} cases[] = {{"0.0083333", 120},
	             {".016667", 60},
	             {"0.0333333", 30},
	             {"0.010000", 100},
	             {"0.04", 25},
	             {"0.03", 1 / 0.03},
	             {"0.033367", 30000.0 / 1001},
	             {"0.5", 2},
	             {"0.0123", 1 / 0.0123},
	             {"1e-2", 100}};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
		char text[256];
		snprintf(text, sizeof text,
		         "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 1 Zrotation\n}\nMOTION\nFrames: 1\nFrame Time: %s\n5\n",
		         cases[i].time);
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		CHECK_OK(import_text(text, NULL, &set, &err), &err);
		CHECK_MSG(fabs(set->clips[0]->sample_rate - cases[i].rate) <= 1e-9 * cases[i].rate, "Frame Time %s: %.12g Hz",
		          cases[i].time, set->clips[0]->sample_rate);
		sinew_clip_set_free(set);
	}
}

/* ---- malformed input ---- */

static const char *small_bvh = "HIERARCHY\nROOT R\n{\n\tOFFSET 0 1 0\n\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
                               "\tEnd Site\n\t{\n\t\tOFFSET 0 2 0\n\t}\n}\nMOTION\nFrames: 3\nFrame Time: 0.5\n"
                               "10 20 30\n40 50 60\n10 20 7\n";

static void test_truncated_everywhere(void) {
	size_t n = strlen(small_bvh);
	sinew_error err = {0};
	sinew_clip_set *set = NULL;
	long live = 0;
	sinew_allocator al = {counting_alloc, counting_free, &live};
	sinew_import_options opt = {.kind = SINEW_FILE_BVH};
	CHECK_OK(sinew_import_memory(small_bvh, n, &opt, &al, &set, &err), &err);
	sinew_clip_set_free(set);
	for (size_t cut = 0; cut + 1 < n; ++cut) { // the last byte is the final newline: cutting it is valid
		char *copy = malloc(cut ? cut : 1); // exact size so ASan sees any read past the end
		memcpy(copy, small_bvh, cut);
		set = NULL;
		sinew_result r = sinew_import_memory(copy, cut, &opt, &al, &set, &err);
		free(copy);
		CHECK_MSG(r != SINEW_RESULT_OK && set == NULL, "cut at %zu imported", cut);
		CHECK_MSG(r == SINEW_RESULT_TRUNCATED || r == SINEW_RESULT_PARSE || r == SINEW_RESULT_BAD_COUNT ||
		              r == SINEW_RESULT_BAD_SAMPLE_RATE,
		          "cut at %zu: %s", cut, sinew_result_name(r));
		CHECK_MSG(err.message[0] != 0, "cut at %zu: no message", cut);
		CHECK_EQ(live, 0);
	}
	// cuts that end exactly at a line break inside the motion data are TRUNCATED with the line number
	const char *two_lines = strstr(small_bvh, "40 50 60\n") + 9;
	CHECK_RESULT(sinew_import_memory(small_bvh, (size_t)(two_lines - small_bvh), &opt, NULL, &set, &err),
	             SINEW_RESULT_TRUNCATED, &err);
	CHECK_MSG(strstr(err.message, "after 2 of 3 frames") && names_line(err.message, 16), "%s", err.message);
}

typedef struct bad_case {
	const char *what, *from, *to; // replace `from` by `to` in small_bvh
	sinew_result expected;
	int line; // line the message must name, 0 = none
	const char *needle; // text the message must contain
} bad_case;

static void test_malformed_inputs(void) {
	static const bad_case cases[] = {
	    {"too few values", "40 50 60\n", "40 50\n", SINEW_RESULT_BAD_COUNT, 15, "2 values, expected 3"},
	    {"too many values", "40 50 60\n", "40 50 60 70\n", SINEW_RESULT_BAD_COUNT, 15, "more than 3"},
	    {"non-numeric value", "40 50 60\n", "40 five 60\n", SINEW_RESULT_PARSE, 15, "'five'"},
	    {"nan value", "40 50 60\n", "40 nan 60\n", SINEW_RESULT_PARSE, 15, "'nan'"},
	    {"inf value", "40 50 60\n", "40 50 -inf\n", SINEW_RESULT_PARSE, 15, "'-inf'"},
	    {"overflowing value", "40 50 60\n", "40 50 1e999\n", SINEW_RESULT_PARSE, 15, "1e999"},
	    {"absurd frame count", "Frames: 3", "Frames: 999999999999", SINEW_RESULT_CORRUPT, 12, "999999999999"},
	    {"frame count beyond the file", "Frames: 3", "Frames: 5000000", SINEW_RESULT_TRUNCATED, 12, "bytes follow"},
	    {"fewer frames than declared", "Frames: 3", "Frames: 4", SINEW_RESULT_TRUNCATED, 17, "after 3 of 4 frames"},
	    {"zero frames", "Frames: 3", "Frames: 0", SINEW_RESULT_NO_SAMPLES, 12, "Frames: 0"},
	    {"negative frame count", "Frames: 3", "Frames: -3", SINEW_RESULT_PARSE, 12, "'-3'"},
	    {"missing brace", "ROOT R\n{\n", "ROOT R\n", SINEW_RESULT_PARSE, 3, "expected '{', found 'OFFSET'"},
	    {"unknown channel", "Xrotation", "Xrotaton", SINEW_RESULT_PARSE, 5, "unknown channel 'Xrotaton'"},
	    {"duplicate channel", "Zrotation Xrotation Yrotation", "Zrotation Xrotation Zrotation", SINEW_RESULT_PARSE, 5,
	     "listed twice"},
	    {"too many channels", "CHANNELS 3", "CHANNELS 7", SINEW_RESULT_PARSE, 5, "at most 6"},
	    {"negative frame time", "Frame Time: 0.5", "Frame Time: -0.5", SINEW_RESULT_BAD_SAMPLE_RATE, 13, "-0.5"},
	    {"zero frame time", "Frame Time: 0.5", "Frame Time: 0", SINEW_RESULT_BAD_SAMPLE_RATE, 13, "Frame Time"},
	    {"nan frame time", "Frame Time: 0.5", "Frame Time: nan", SINEW_RESULT_PARSE, 13, "'nan'"},
	    {"missing OFFSET", "\tOFFSET 0 1 0\n", "", SINEW_RESULT_PARSE, 9, "no OFFSET"},
	    {"bad OFFSET value", "OFFSET 0 1 0", "OFFSET 0 x 0", SINEW_RESULT_PARSE, 4, "'x'"},
	    {"children under End Site", "\t\tOFFSET 0 2 0\n", "\t\tOFFSET 0 2 0\n\t\tJOINT X\n", SINEW_RESULT_PARSE, 9,
	     "End Site cannot have children"},
	    {"End without Site", "End Site", "End Point", SINEW_RESULT_PARSE, 6, "End Site"},
	    {"lower-case keyword", "OFFSET 0 1 0", "offset 0 1 0", SINEW_RESULT_PARSE, 4, "'offset'"},
	    {"no HIERARCHY", "HIERARCHY", "HIERARCHIE", SINEW_RESULT_PARSE, 1, "expected HIERARCHY"},
	    {"no MOTION", "MOTION\n", "", SINEW_RESULT_PARSE, 11, "expected ROOT or MOTION"},
	    {"missing closing brace", "\t}\n}\nMOTION", "\t}\nMOTION", SINEW_RESULT_PARSE, 10, "'MOTION'"},
	    {"garbage after frame time", "Frame Time: 0.5", "Frame Time: 0.5 s", SINEW_RESULT_PARSE, 13, "'s'"},
	    {"no channels at all", "CHANNELS 3 Zrotation Xrotation Yrotation", "CHANNELS 0", SINEW_RESULT_BAD_COUNT, 0,
	     "no channels"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
		const bad_case *bc = &cases[i];
		const char *at = strstr(small_bvh, bc->from);
		CHECK_MSG(at, "%s: pattern not found", bc->what);
		char text[1024];
		snprintf(text, sizeof text, "%.*s%s%s", (int)(at - small_bvh), small_bvh, bc->to, at + strlen(bc->from));
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		sinew_result r = import_text(text, NULL, &set, &err);
		CHECK_MSG(r == bc->expected, "%s: %s (%s), expected %s", bc->what, sinew_result_name(r), err.message,
		          sinew_result_name(bc->expected));
		CHECK_MSG(!bc->line || names_line(err.message, bc->line), "%s: message '%s' does not name line %d", bc->what,
		          err.message, bc->line);
		CHECK_MSG(strstr(err.message, bc->needle), "%s: message '%s' lacks '%s'", bc->what, err.message, bc->needle);
		CHECK(set == NULL);
	}
}

static void test_depth_and_size_limits(void) {
	// 1100 nested joints: over the depth limit
	size_t cap = 1100 * 40 + 256;
	char *text = malloc(cap), *o = text;
	o += sprintf(o, "HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 1 Xrotation\n");
	for (int i = 0; i < 1100; ++i) o += sprintf(o, "JOINT J%d\n{\nOFFSET 0 1 0\n", i);
	*o = 0;
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_RESULT(import_text(text, NULL, &set, &err), SINEW_RESULT_UNSUPPORTED, &err);
	CHECK_MSG(strstr(err.message, "deeper than 1024"), "%s", err.message);
	free(text);
	// many channel-less joints and many frames: the clip would dwarf the file
	cap = 20000 * 40 + 8192;
	text = malloc(cap);
	o = text;
	o += sprintf(o, "HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 1 Xrotation\n");
	for (int i = 0; i < 20000; ++i) o += sprintf(o, "JOINT J%d {\nOFFSET 0 1 0\n}\n", i);
	o += sprintf(o, "}\nMOTION\nFrames: 3000\nFrame Time: 1\n");
	for (int i = 0; i < 3000; ++i) o += sprintf(o, "1\n");
	CHECK_RESULT(import_text(text, NULL, &set, &err), SINEW_RESULT_UNSUPPORTED, &err);
	CHECK_MSG(strstr(err.message, "too large"), "%s", err.message);
	free(text);
}

void suite_import_bvh(void) {
	RUN(test_numbers_match_strtod);
	RUN(test_corpus_imports_and_matches_manifest);
	RUN(test_cgspeed_01_01);
	RUN(test_boxing_toes_extra_line_warns);
	RUN(test_euler_orders_and_translation);
	RUN(test_end_sites_can_be_skipped);
	RUN(test_crlf_and_odd_whitespace);
	RUN(test_multiple_roots_and_names_with_spaces);
	RUN(test_units_and_clip_name);
	RUN(test_frame_time_rates);
	RUN(test_truncated_everywhere);
	RUN(test_malformed_inputs);
	RUN(test_depth_and_size_limits);
}
