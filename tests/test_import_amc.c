// sinew — see include/sinew.h for version and licence
#define _POSIX_C_SOURCE 200809L
// import_amc: the ASF/AMC reader against an independent textbook forward-kinematics implementation
// (4x4 matrices, the Acclaim chain F_b = F_p T(C_p^-1 d_p l_p) C_p^-1 C_b T(t_b) M_b), against the cgspeed
// BVH conversion of the same capture, on the CMU corpus, and on malformed skeletons and motions.
#include "test.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/quat.h"

#define PI 3.14159265358979323846

/* ---- 4x4 matrices (row-major, column vectors) ---- */

typedef struct mat4 {
	double m[4][4];
} mat4;

static mat4 mat_identity(void) {
	mat4 r = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}};
	return r;
}

static mat4 mat_mul(mat4 a, mat4 b) {
	mat4 r;
	for (int i = 0; i < 4; ++i)
		for (int j = 0; j < 4; ++j)
			r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j] + a.m[i][3] * b.m[3][j];
	return r;
}

static mat4 mat_translate(double x, double y, double z) {
	mat4 r = mat_identity();
	r.m[0][3] = x, r.m[1][3] = y, r.m[2][3] = z;
	return r;
}

static mat4 mat_rotate(int axis, double radians) {
	mat4 r = mat_identity();
	double c = cos(radians), s = sin(radians);
	int i = (axis + 1) % 3, j = (axis + 2) % 3;
	r.m[i][i] = c, r.m[i][j] = -s;
	r.m[j][i] = s, r.m[j][j] = c;
	return r;
}

static mat4 mat_transpose3(mat4 a) { // inverse of a pure rotation
	mat4 r = mat_identity();
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[j][i];
	return r;
}

static void mat_apply(mat4 a, const double v[3], double out[3]) {
	for (int i = 0; i < 3; ++i) out[i] = a.m[i][0] * v[0] + a.m[i][1] * v[1] + a.m[i][2] * v[2] + a.m[i][3];
}

static int axis_index(char c) {
	return c == 'x' || c == 'X' ? 0 : c == 'y' || c == 'Y' ? 1 : 2;
}

// Euler angles applied in the order of `order` ("XYZ": X first) about fixed axes.
static mat4 mat_euler(const double angles[3], const char *order) {
	mat4 r = mat_identity();
	for (int i = 0; i < 3; ++i) r = mat_mul(mat_rotate(axis_index(order[i]), angles[axis_index(order[i])]), r);
	return r;
}

/* ---- a minimal ASF/AMC reader written for this test (whitespace- and parenthesis-separated words) ---- */

#define REF_MAX_BONES 64

typedef struct ref_bone {
	char name[64];
	int parent;
	double dir[3], len, axis[3];
	char axis_order[4];
	int ndof;
	char dof[8][4];
	double values[8];
	int leaf;
} ref_bone;

typedef struct ref_skeleton {
	ref_bone bone[REF_MAX_BONES]; // bone[0] is the root; its dofs are the root order
	int count;
	double length_unit, asf_angle, amc_angle;
	double position[3], orientation[3];
	char root_axis[4];
} ref_skeleton;

static bool same_nocase(const char *a, const char *b) {
	for (; *a && *b; ++a, ++b)
		if ((*a | 32) != (*b | 32)) return false;
	return *a == *b;
}

static int ref_find(const ref_skeleton *s, const char *name) { // bone names match without case
	for (int i = 0; i < s->count; ++i)
		if (same_nocase(s->bone[i].name, name)) return i;
	return -1;
}

static char *read_all(const char *path) {
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *text = malloc((size_t)n + 1);
	size_t got = fread(text, 1, (size_t)n, f);
	text[got] = 0;
	fclose(f);
	return text;
}

// Splits one line into words; '#' starts a comment.
static int words_of(char *line, char **w, int max) {
	char *hash = strchr(line, '#');
	if (hash) *hash = 0;
	int n = 0;
	for (char *tok = strtok(line, " \t\r(),"); tok && n < max; tok = strtok(NULL, " \t\r(),")) w[n++] = tok;
	return n;
}

static bool ref_read_asf(const char *path, ref_skeleton *s) {
	memset(s, 0, sizeof *s);
	s->length_unit = 1, s->asf_angle = PI / 180;
	strcpy(s->root_axis, "XYZ");
	strcpy(s->bone[0].name, "root");
	s->bone[0].parent = -1;
	strcpy(s->bone[0].axis_order, "XYZ");
	s->count = 1;
	char *text = read_all(path);
	if (!text) return false;
	char section[32] = "";
	ref_bone *cur = NULL;
	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next) *next++ = 0;
		char *w[16];
		int n = words_of(line, w, 16);
		if (n == 0) continue;
		if (w[0][0] == ':') {
			snprintf(section, sizeof section, "%s", w[0]);
			continue;
		}
		if (strcmp(section, ":units") == 0) {
			if (strcmp(w[0], "length") == 0) s->length_unit = atof(w[1]);
			if (strcmp(w[0], "angle") == 0) s->asf_angle = strcmp(w[1], "rad") == 0 ? 1 : PI / 180;
		} else if (strcmp(section, ":root") == 0) {
			if (strcmp(w[0], "order") == 0) {
				s->bone[0].ndof = n - 1;
				for (int i = 1; i < n; ++i) {
					snprintf(s->bone[0].dof[i - 1], 4, "%s", w[i]);
					for (char *c = s->bone[0].dof[i - 1]; *c; ++c) *c = (char)(*c | 32); // lower case
				}
			}
			if (strcmp(w[0], "axis") == 0) snprintf(s->root_axis, 4, "%s", w[1]);
			for (int k = 0; k < 3 && n == 4; ++k) {
				if (strcmp(w[0], "position") == 0) s->position[k] = atof(w[1 + k]);
				if (strcmp(w[0], "orientation") == 0) s->orientation[k] = atof(w[1 + k]);
			}
		} else if (strcmp(section, ":bonedata") == 0) {
			if (strcmp(w[0], "begin") == 0) {
				cur = &s->bone[s->count++];
				strcpy(cur->axis_order, "XYZ");
			} else if (cur && strcmp(w[0], "name") == 0) {
				snprintf(cur->name, sizeof cur->name, "%s", w[1]);
			} else if (cur && strcmp(w[0], "direction") == 0) {
				for (int k = 0; k < 3; ++k) cur->dir[k] = atof(w[1 + k]);
			} else if (cur && strcmp(w[0], "length") == 0) {
				cur->len = atof(w[1]);
			} else if (cur && strcmp(w[0], "axis") == 0) {
				for (int k = 0; k < 3; ++k) cur->axis[k] = atof(w[1 + k]);
				if (n > 4) snprintf(cur->axis_order, 4, "%s", w[4]);
			} else if (cur && strcmp(w[0], "dof") == 0) {
				cur->ndof = n - 1;
				for (int i = 1; i < n; ++i) snprintf(cur->dof[i - 1], 4, "%s", w[i]);
			}
		} else if (strcmp(section, ":hierarchy") == 0 && strcmp(w[0], "begin") != 0 && strcmp(w[0], "end") != 0) {
			int parent = ref_find(s, w[0]);
			for (int i = 1; i < n; ++i) s->bone[ref_find(s, w[i])].parent = parent;
		}
	}
	free(text);
	for (int b = 0; b < s->count; ++b) s->bone[b].leaf = b > 0;
	for (int b = 1; b < s->count; ++b) s->bone[s->bone[b].parent].leaf = 0;
	return true;
}

// Loads the values of AMC frame `index` (0-based, counting frame-number lines) into the skeleton.
static bool ref_read_amc_frame(const char *text, int index, ref_skeleton *s) {
	s->amc_angle = s->asf_angle;
	char *copy = malloc(strlen(text) + 1);
	strcpy(copy, text);
	int frame = -1;
	bool found = false;
	for (char *line = copy, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next) *next++ = 0;
		char *w[16];
		int n = words_of(line, w, 16);
		if (n == 0) continue;
		if (strcmp(w[0], ":DEGREES") == 0) s->amc_angle = PI / 180;
		if (strcmp(w[0], ":RADIANS") == 0) s->amc_angle = 1;
		if (w[0][0] == ':') continue;
		if (n == 1 && w[0][0] >= '0' && w[0][0] <= '9') {
			if (++frame > index) break;
			continue;
		}
		if (frame != index) continue;
		int b = ref_find(s, w[0]);
		if (b < 0) break;
		for (int i = 1; i < n; ++i) s->bone[b].values[i - 1] = atof(w[i]);
		found = true;
	}
	free(copy);
	return found;
}

typedef struct ref_pose {
	double joint[REF_MAX_BONES][3]; // start of each bone (root: its position)
	double end[REF_MAX_BONES][3]; // end of each leaf bone
	mat4 frame[REF_MAX_BONES]; // D_b = F_b * C_b^-1: bone frame in world axes
} ref_pose;

// Motion of a bone from its dof values: T(tx, ty, tz) * rotations applied in dof order; `dl` gets l.
static mat4 ref_motion(const ref_bone *b, double angle, double *dl) {
	mat4 rot = mat_identity();
	double t[3] = {0, 0, 0};
	*dl = 0;
	for (int i = 0; i < b->ndof; ++i) {
		const char *d = b->dof[i];
		double v = b->values[i];
		if (d[0] == 'r')
			rot = mat_mul(mat_rotate(axis_index(d[1]), v * angle), rot);
		else if (d[0] == 't')
			t[axis_index(d[1])] = v;
		else if (d[0] == 'l')
			*dl = v;
	}
	return mat_mul(mat_translate(t[0], t[1], t[2]), rot);
}

static void ref_forward(const ref_skeleton *s, ref_pose *out) {
	mat4 F[REF_MAX_BONES], C[REF_MAX_BONES];
	double dl[REF_MAX_BONES];
	bool done[REF_MAX_BONES] = {0};
	for (int b = 0; b < s->count; ++b) {
		double a[3] = {s->bone[b].axis[0] * s->asf_angle, s->bone[b].axis[1] * s->asf_angle,
		               s->bone[b].axis[2] * s->asf_angle};
		C[b] = b == 0 ? mat_identity() : mat_euler(a, s->bone[b].axis_order);
	}
	// root: F = T(position + O * T_amc) * O * M_root
	double o[3] = {s->orientation[0] * s->asf_angle, s->orientation[1] * s->asf_angle,
	               s->orientation[2] * s->asf_angle};
	mat4 O = mat_euler(o, s->root_axis);
	mat4 M = ref_motion(&s->bone[0], s->amc_angle, &dl[0]);
	double t_amc[3] = {M.m[0][3], M.m[1][3], M.m[2][3]}, ot[3];
	M.m[0][3] = M.m[1][3] = M.m[2][3] = 0;
	mat_apply(O, t_amc, ot);
	F[0] =
	    mat_mul(mat_translate(s->position[0] + ot[0], s->position[1] + ot[1], s->position[2] + ot[2]), mat_mul(O, M));
	done[0] = true;
	for (int pass = 0; pass < s->count; ++pass) { // parents may be listed after children
		for (int b = 1; b < s->count; ++b) {
			int p = s->bone[b].parent;
			if (done[b] || !done[p]) continue;
			const ref_bone *pb = &s->bone[p];
			double v[3] = {0, 0, 0};
			if (p > 0) { // C_p^-1 d_p (l_p + dl_p)
				double d[3] = {pb->dir[0] * (pb->len + dl[p]), pb->dir[1] * (pb->len + dl[p]),
				               pb->dir[2] * (pb->len + dl[p])};
				mat_apply(mat_transpose3(C[p]), d, v);
			}
			mat4 Mb = ref_motion(&s->bone[b], s->amc_angle, &dl[b]);
			F[b] = mat_mul(mat_mul(mat_mul(F[p], mat_translate(v[0], v[1], v[2])), mat_mul(mat_transpose3(C[p]), C[b])),
			               Mb);
			done[b] = true;
		}
	}
	double zero[3] = {0, 0, 0};
	for (int b = 0; b < s->count; ++b) {
		mat_apply(F[b], zero, out->joint[b]);
		out->frame[b] = mat_mul(F[b], mat_transpose3(C[b]));
		const ref_bone *bb = &s->bone[b];
		double d[3] = {bb->dir[0] * (bb->len + dl[b]), bb->dir[1] * (bb->len + dl[b]), bb->dir[2] * (bb->len + dl[b])},
		       local[3];
		mat_apply(mat_transpose3(C[b]), d, local);
		mat_apply(F[b], local, out->end[b]);
	}
}

// Object-space transforms of one clip sample (composed from the local QVVs, scale 1).
static void clip_forward(const sinew_clip *c, uint32_t sample, mat4 *global) {
	for (uint32_t j = 0; j < c->joint_count; ++j) {
		const sinew_qvv *x = &c->transforms[(size_t)sample * c->joint_count + j];
		double q[4] = {x->rotation[0], x->rotation[1], x->rotation[2], x->rotation[3]}, r[3][3];
		sinewi_quat_to_matrix_d(q, r);
		mat4 local = mat_identity();
		for (int i = 0; i < 3; ++i) {
			for (int k = 0; k < 3; ++k) local.m[i][k] = r[i][k];
			local.m[i][3] = x->translation[i];
		}
		global[j] = c->joints[j].parent < 0 ? local : mat_mul(global[c->joints[j].parent], local);
	}
}

// Compares every joint of the clip with the reference pose; returns the largest deviation.
static double compare_pose(const sinew_clip *c, uint32_t sample, const ref_skeleton *s, const ref_pose *ref,
                           double *rot_err, int *matched) {
	mat4 *g = malloc(c->joint_count * sizeof *g);
	clip_forward(c, sample, g);
	double worst = 0;
	*rot_err = 0;
	*matched = 0;
	for (uint32_t j = 0; j < c->joint_count; ++j) {
		char name[80];
		snprintf(name, sizeof name, "%s", c->joints[j].name);
		size_t n = strlen(name);
		bool end = n > 4 && strcmp(name + n - 4, "_end") == 0 && c->joints[j].source_index < 0;
		if (end) name[n - 4] = 0;
		int b = ref_find(s, name);
		if (b < 0) continue;
		const double *want = end ? ref->end[b] : ref->joint[b];
		for (int k = 0; k < 3; ++k) worst = fmax(worst, fabs(g[j].m[k][3] - want[k]));
		if (!end)
			for (int i = 0; i < 3; ++i)
				for (int k = 0; k < 3; ++k) *rot_err = fmax(*rot_err, fabs(g[j].m[i][k] - ref->frame[b].m[i][k]));
		++*matched;
	}
	free(g);
	return worst;
}

/* ---- tests ---- */

static sinew_result import_amc_file(const char *amc, const char *asf, sinew_clip_set **set, sinew_error *err) {
	sinew_import_options opt = {.asf_path = asf};
	return sinew_import_file(amc, &opt, NULL, set, err);
}

static void test_cmu_01_01_imports(void) {
	char amc[1024];
	if (!test_corpus_path("amc/cmu/01/01_01.amc", amc, sizeof amc)) return;
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_file(amc, NULL, NULL, &set, &err), &err); // finds 01.asf beside it
	const sinew_clip *c = set->clips[0];
	CHECK_EQ(c->sample_count, 2751);
	CHECK(c->sample_rate == 120.0);
	CHECK(strcmp(c->name, "01_01") == 0);
	uint32_t bones = 0, ends = 0;
	for (uint32_t j = 0; j < c->joint_count; ++j) {
		if (c->joints[j].source_index >= 0) {
			++bones;
		} else {
			++ends;
			CHECK(!c->joints[j].has_track);
		}
	}
	CHECK_EQ(bones, 31); // root + 30 bones
	CHECK_EQ(ends, 7); // ltoes, rtoes, head, lfingers, lthumb, rfingers, rthumb
	CHECK(strcmp(c->joints[0].name, "root") == 0 && c->joints[0].source_index == 0);
	CHECK(strcmp(c->joints[1].name, "lhipjoint") == 0 && c->joints[1].parent == 0 && c->joints[1].source_index == 1);
	CHECK_NEAR(c->unit_scale, 100.0 / (2.54 / 0.45), 1e-9);
	// frame 1: "root 9.37216 17.8693 -17.3198 ..."
	CHECK_NEAR(c->transforms[0].translation[0], 9.37216, 1e-5);
	CHECK_NEAR(c->transforms[0].translation[2], -17.3198, 1e-5);
	// the lfemur joint sits at lhipjoint's direction * length in the rest pose
	CHECK_NEAR(c->joints[2].default_pose.translation[0], 0.566809 * 2.40479, 1e-5);
	sinew_clip_set_free(set);
}

static void test_cmu_matches_textbook_kinematics(void) {
	char amc[1024], asf[1024];
	if (!test_corpus_path("amc/cmu/01/01_01.amc", amc, sizeof amc)) return;
	test_corpus_path("amc/cmu/01/01.asf", asf, sizeof asf);
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_amc_file(amc, asf, &set, &err), &err);
	const sinew_clip *c = set->clips[0];
	static ref_skeleton s;
	CHECK(ref_read_asf(asf, &s));
	CHECK_EQ(s.count, 31);
	char *text = read_all(amc);
	const uint32_t frames[] = {0, 1, 500, 1377, 2750};
	for (size_t i = 0; i < sizeof frames / sizeof *frames; ++i) {
		CHECK(ref_read_amc_frame(text, (int)frames[i], &s));
		static ref_pose ref;
		ref_forward(&s, &ref);
		double rot_err;
		int matched;
		double err_pos = compare_pose(c, frames[i], &s, &ref, &rot_err, &matched);
		CHECK_EQ(matched, (int)c->joint_count);
		CHECK_MSG(err_pos <= 1e-4 && rot_err <= 1e-5, "frame %u: position error %g units, rotation error %g", frames[i],
		          err_pos, rot_err);
	}
	free(text);
	sinew_clip_set_free(set);
}

static int joint_named(const sinew_clip *c, const char *name) {
	for (uint32_t j = 0; j < c->joint_count; ++j)
		if (strcmp(c->joints[j].name, name) == 0) return (int)j;
	return -1;
}

// The cgspeed BVH is the same capture converted (plus a rest frame in front) with the rotations
// re-expressed as ZYX Euler angles on world-aligned joints: the object-space rotation of every bone must
// agree with ours frame for frame, and so must the positions below the neck (the conversion drops the
// thorax length, so the neck, head and arms sit 2.06 units lower in the BVH).
static void test_cmu_matches_cgspeed_bvh(void) {
	char amc[1024], bvh[1024];
	if (!test_corpus_path("amc/cmu/01/01_01.amc", amc, sizeof amc)) return;
	test_corpus_path("bvh/cmu_cgspeed/01_01.bvh", bvh, sizeof bvh);
	sinew_clip_set *a = NULL, *b = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_file(amc, NULL, NULL, &a, &err), &err);
	CHECK_OK(sinew_import_file(bvh, NULL, NULL, &b, &err), &err);
	const sinew_clip *ca = a->clips[0], *cb = b->clips[0];
	CHECK_EQ(cb->sample_count, ca->sample_count + 1);
	static const char *const map[][2] = {{"root", "Hips"},
	                                     {"lhipjoint", "LHipJoint"},
	                                     {"lfemur", "LeftUpLeg"},
	                                     {"ltibia", "LeftLeg"},
	                                     {"lfoot", "LeftFoot"},
	                                     {"ltoes", "LeftToeBase"},
	                                     {"ltoes_end", "LeftToeBase_end"},
	                                     {"rhipjoint", "RHipJoint"},
	                                     {"rfemur", "RightUpLeg"},
	                                     {"rtibia", "RightLeg"},
	                                     {"rfoot", "RightFoot"},
	                                     {"rtoes", "RightToeBase"},
	                                     {"rtoes_end", "RightToeBase_end"},
	                                     {"lowerback", "LowerBack"},
	                                     {"upperback", "Spine"},
	                                     {"thorax", "Spine1"},
	                                     // rotations only from here on
	                                     {"lowerneck", "Neck"},
	                                     {"upperneck", "Neck1"},
	                                     {"head", "Head"},
	                                     {"lclavicle", "LeftShoulder"},
	                                     {"lhumerus", "LeftArm"},
	                                     {"lradius", "LeftForeArm"},
	                                     {"lwrist", "LeftHand"},
	                                     {"lhand", "LeftFingerBase"},
	                                     {"lfingers", "LFingers"},
	                                     {"lthumb", "LThumb"},
	                                     {"rclavicle", "RightShoulder"},
	                                     {"rhumerus", "RightArm"},
	                                     {"rradius", "RightForeArm"},
	                                     {"rwrist", "RightHand"},
	                                     {"rhand", "RightFingerBase"},
	                                     {"rfingers", "RFingers"},
	                                     {"rthumb", "RThumb"}};
	const size_t count = sizeof map / sizeof *map, with_position = 16;
	int ja[64], jb[64];
	for (size_t i = 0; i < count; ++i) {
		ja[i] = joint_named(ca, map[i][0]), jb[i] = joint_named(cb, map[i][1]);
		CHECK_MSG(ja[i] >= 0 && jb[i] >= 0, "%s / %s not found", map[i][0], map[i][1]);
	}
	mat4 *ga = malloc(ca->joint_count * sizeof *ga), *gb = malloc(cb->joint_count * sizeof *gb);
	double worst_pos = 0, worst_rot = 0;
	for (uint32_t f = 0; f < ca->sample_count; f += 7) {
		clip_forward(ca, f, ga);
		clip_forward(cb, f + 1, gb);
		for (size_t i = 0; i < count; ++i) {
			const mat4 *x = &ga[ja[i]], *y = &gb[jb[i]];
			for (int r = 0; r < 3; ++r) {
				if (i < with_position) worst_pos = fmax(worst_pos, fabs(x->m[r][3] - y->m[r][3]));
				for (int k = 0; k < 3; ++k) worst_rot = fmax(worst_rot, fabs(x->m[r][k] - y->m[r][k]));
			}
		}
	}
	free(ga);
	free(gb);
	sinew_clip_set_free(a);
	sinew_clip_set_free(b);
	// the BVH prints angles with 4 decimals (1e-4 degree = 2e-6 rad) and positions with 4 decimals
	CHECK_MSG(worst_pos < 5e-4 && worst_rot < 2e-5, "largest differences: position %g units, rotation %g", worst_pos,
	          worst_rot);
}

typedef struct manifest_amc {
	char path[256];
	unsigned frames;
	bool seen;
} manifest_amc;

static void test_corpus_amc_frames_match_manifest(void) {
	char path[1024];
	if (!test_corpus_path("MANIFEST.md", path, sizeof path)) return;
	FILE *f = fopen(path, "r");
	CHECK(f);
	static manifest_amc rows[64];
	int n = 0;
	char line[4096];
	while (fgets(line, sizeof line, f) && n < 64)
		if (sscanf(line, "| %255s | AMC | %u |", rows[n].path, &rows[n].frames) == 2) ++n;
	fclose(f);
	CHECK(n >= 10);
	for (int i = 0; i < n; ++i) {
		char amc[1024];
		test_corpus_path(rows[i].path, amc, sizeof amc);
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		CHECK_OK(sinew_import_file(amc, NULL, NULL, &set, &err), &err);
		CHECK_MSG(set->clips[0]->sample_count == rows[i].frames, "%s: %u frames, MANIFEST.md says %u", rows[i].path,
		          set->clips[0]->sample_count, rows[i].frames);
		sinew_clip_set_free(set);
	}
}

/* ---- hand-written skeletons ---- */

static const char *test_asf = "# test skeleton\n"
                              ":version 1.10\n"
                              ":name test\n"
                              ":units\n"
                              "  mass 1.0\n"
                              "  length 0.5\n"
                              "  angle deg\n"
                              ":documentation\n"
                              "  free text, even with keywords like begin end dof\n"
                              ":root\n"
                              "  order RZ TX RY TY RX TZ\n"
                              "  axis ZYX\n"
                              "  position 1 2 3\n"
                              "  orientation 10 -20 30\n"
                              ":bonedata\n"
                              "  begin\n"
                              "    id 1\n"
                              "    name spine\n"
                              "    direction 0 1 0\n"
                              "    length 4\n"
                              "    axis 10 20 30 ZXY\n"
                              "    dof rz rx ry\n"
                              "    limits (-180 180) (-inf inf)\n"
                              "           (-90.0 90.0)\n"
                              "  end\n"
                              "  begin\n"
                              "    id 2\n"
                              "    name Arm\n"
                              "    direction 0.6 0 0.8\n"
                              "    length 3\n"
                              "    axis -45 5 0 YXZ\n"
                              "    dof tx ry l\n"
                              "  end\n"
                              "  begin\n"
                              "    id 3\n"
                              "    name fixed\n"
                              "    direction 0 0 -1\n"
                              "    length 2\n"
                              "    axis 0 0 90 XYZ\n"
                              "  end\n"
                              "  begin\n"
                              "    id 4\n"
                              "    name leg\n"
                              "    direction 0 -1 0\n"
                              "    length 5\n"
                              "    axis 0 30 0 XYZ\n"
                              "    dof rx\n"
                              "  end\n"
                              ":hierarchy\n"
                              "  begin\n"
                              "    spine arm fixed\n"
                              "    root leg spine\n"
                              "  end\n";

static const char *test_amc = "#!OML:ASF test.asf\n"
                              ":FULLY-SPECIFIED\n"
                              ":RADIANS\n"
                              "1\n"
                              "root 0.1 5 0.2 6 -0.3 7\n"
                              "spine 0.4 -0.5 0.6\n"
                              "arm 1.5 0.7 0.25\n"
                              "leg -1.1\n"
                              "2\n"
                              "leg 0.3\n"
                              "spine 1 2 3\n"
                              "root 0 0 0 0 0 0\n"
                              "arm 0 0 0\n"
                              "3\n"
                              "root -0.5 1 0.25 2 1.5 -3\n"
                              "spine -1 0.5 -0.25\n"
                              "arm -2 -1.2 -0.5\n"
                              "leg 2\n";

static const char *write_pair(const char *folder, const char *asf_name, const char *asf, const char *amc,
                              char *amc_path, size_t size) {
	char dir[512], path[1024];
	test_tmp_path(folder, dir, sizeof dir);
	mkdir(dir, 0700);
	if (asf) {
		snprintf(path, sizeof path, "%s/%s", dir, asf_name);
		FILE *f = fopen(path, "wb");
		fputs(asf, f);
		fclose(f);
	}
	snprintf(amc_path, size, "%s/motion.amc", dir);
	FILE *f = fopen(amc_path, "wb");
	fputs(amc, f);
	fclose(f);
	return amc_path;
}

static void test_hand_written_matches_textbook_kinematics(void) {
	char amc[1024], asf[1024];
	write_pair("amc_fk", "test.asf", test_asf, test_amc, amc, sizeof amc);
	snprintf(asf, sizeof asf, "%s", amc);
	strcpy(strrchr(asf, '/') + 1, "test.asf");
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_file(amc, NULL, NULL, &set, &err), &err);
	const sinew_clip *c = set->clips[0];
	CHECK_EQ(c->sample_count, 3);
	// joints: root, leg, leg_end, spine, arm, arm_end, fixed, fixed_end (hierarchy order, ends after leaves)
	const char *names[] = {"root", "leg", "leg_end", "spine", "Arm", "Arm_end", "fixed", "fixed_end"};
	CHECK_EQ(c->joint_count, 8);
	for (int j = 0; j < 8; ++j)
		CHECK_MSG(strcmp(c->joints[j].name, names[j]) == 0, "joint %d: %s", j, c->joints[j].name);
	CHECK(c->joints[5].has_track == 1 && c->joints[7].has_track == 0); // Arm stretches (dof l)
	CHECK_EQ(c->joints[6].source_index, 3);
	CHECK_NEAR(c->unit_scale, 100.0 / (2.54 / 0.5), 1e-9);
	static ref_skeleton s;
	CHECK(ref_read_asf(asf, &s));
	for (uint32_t f = 0; f < 3; ++f) {
		CHECK(ref_read_amc_frame(test_amc, (int)f, &s));
		static ref_pose ref;
		ref_forward(&s, &ref);
		double rot_err;
		int matched;
		// names differ in case ("Arm" vs "arm" in :hierarchy): the reference keeps the ASF spelling
		double e = compare_pose(c, f, &s, &ref, &rot_err, &matched);
		CHECK_EQ(matched, 8);
		CHECK_MSG(e <= 1e-5 && rot_err <= 1e-6, "frame %u: position error %g, rotation error %g", f, e, rot_err);
	}
	// default pose = rest pose: identity rotations, parent direction * length
	CHECK(c->joints[4].default_pose.rotation[3] == 1.0f && c->joints[4].default_pose.translation[1] == 4.0f);
	CHECK(c->joints[1].default_pose.translation[0] == 0.0f);
	// skipping end joints drops the leaves' ends
	sinew_clip_set_free(set);
	sinew_import_options opt = {.bvh_skip_end_sites = 1, .sample_rate = 60};
	CHECK_OK(sinew_import_file(amc, &opt, NULL, &set, &err), &err);
	CHECK_EQ(set->clips[0]->joint_count, 5);
	CHECK(set->clips[0]->sample_rate == 60.0);
	sinew_clip_set_free(set);
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

static void test_missing_bone_keeps_previous_value(void) {
	const char *motion =
	    ":DEGREES\n1\nroot 0 0 0 0 0 0\nspine 10 20 30\narm 1 2 3\nleg 40\n2\nroot 0 0 0 0 0 0\narm 1 2 3\n";
	char amc[1024];
	write_pair("amc_missing", "test.asf", test_asf, motion, amc, sizeof amc);
	warnings w = {0};
	sinew_import_options opt = {.warning = on_warning, .warning_user = &w};
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_file(amc, &opt, NULL, &set, &err), &err);
	const sinew_clip *c = set->clips[0];
	CHECK_EQ(w.count, 1);
	CHECK_MSG(strstr(w.last, "2 bone records missing") && strstr(w.last, "in frame 2"), "%s", w.last);
	for (int j = 0; j < 8; ++j) CHECK(memcmp(&c->transforms[j], &c->transforms[8 + j], sizeof(sinew_qvv)) == 0);
	sinew_clip_set_free(set);
}

typedef struct amc_bad {
	const char *what;
	const char *asf; // NULL = test_asf
	const char *amc;
	sinew_result expected;
	int line;
	const char *needle;
} amc_bad;

static void test_malformed_skeletons_and_motions(void) {
	static char no_bonedata[4096], bad_hierarchy[4096], cycle[4096], orphan[4096], dup[4096], bad_dof[4096];
	const char *bones = strstr(test_asf, ":bonedata");
	const char *hier = strstr(test_asf, ":hierarchy");
	snprintf(no_bonedata, sizeof no_bonedata, "%.*s", (int)(bones - test_asf), test_asf);
	snprintf(bad_hierarchy, sizeof bad_hierarchy,
	         "%.*s:hierarchy\n begin\n  root leg spine\n  spine arm fixed hand\n end\n", (int)(hier - test_asf),
	         test_asf);
	snprintf(cycle, sizeof cycle, "%.*s:hierarchy\n begin\n  root leg\n  spine arm fixed\n  arm spine\n end\n",
	         (int)(hier - test_asf), test_asf);
	snprintf(orphan, sizeof orphan, "%.*s:hierarchy\n begin\n  root leg spine\n  spine arm\n end\n",
	         (int)(hier - test_asf), test_asf);
	snprintf(dup, sizeof dup, "%.*s:hierarchy\n begin\n  root leg spine\n  spine arm fixed\n  leg arm\n end\n",
	         (int)(hier - test_asf), test_asf);
	const char *dof_line = strstr(test_asf, "dof rz rx ry");
	snprintf(bad_dof, sizeof bad_dof, "%.*sdof rz rq ry%s", (int)(dof_line - test_asf), test_asf, dof_line + 12);
	const char *good = "1\nroot 0 0 0 0 0 0\nspine 1 2 3\narm 1 2 3\nleg 1\n";
	const amc_bad cases[] = {
	    {"unknown bone", NULL, "1\nroot 0 0 0 0 0 0\nhand 1 2 3\n", SINEW_RESULT_PARSE, 3, "unknown bone 'hand'"},
	    {"too few values", NULL, "1\nroot 0 0 0 0 0 0\nspine 1 2\n", SINEW_RESULT_BAD_COUNT, 3, "2 values, expected 3"},
	    {"too many values", NULL, "1\nroot 0 0 0 0 0 0\nleg 1 2\n", SINEW_RESULT_BAD_COUNT, 3, "more values"},
	    {"root values", NULL, "1\nroot 0 0 0 0 0\n", SINEW_RESULT_BAD_COUNT, 2, "5 values, expected 6"},
	    {"non-numeric value", NULL, "1\nroot 0 0 0 0 0 x\n", SINEW_RESULT_PARSE, 2, "'x'"},
	    {"nan value", NULL, "1\nroot 0 0 0 0 0 nan\n", SINEW_RESULT_PARSE, 2, "'nan'"},
	    {"bone twice", NULL, "1\nleg 1\nleg 2\n", SINEW_RESULT_PARSE, 3, "twice"},
	    {"data before a frame", NULL, ":DEGREES\nroot 0 0 0 0 0 0\n", SINEW_RESULT_PARSE, 2, "before the first frame"},
	    {"frame gap", NULL, "1\nleg 1\n3\nleg 2\n", SINEW_RESULT_CORRUPT, 3, "frame 3 follows frame 1"},
	    {"no frames", NULL, ":FULLY-SPECIFIED\n:DEGREES\n", SINEW_RESULT_NO_SAMPLES, 0, "no frames"},
	    {"missing :bonedata", no_bonedata, good, SINEW_RESULT_PARSE, 0, "missing :bonedata"},
	    {"unknown bone in :hierarchy", bad_hierarchy, good, SINEW_RESULT_PARSE, 52, "unknown bone 'hand'"},
	    {"cycle in :hierarchy", cycle, good, SINEW_RESULT_PARSE, 18, "not connected to the root"},
	    {"bone without parent", orphan, good, SINEW_RESULT_PARSE, 36, "'fixed' has no parent"},
	    {"bone with two parents", dup, good, SINEW_RESULT_PARSE, 53, "second parent"},
	    {"unknown dof", bad_dof, good, SINEW_RESULT_PARSE, 22, "unknown dof 'rq'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
		const amc_bad *bc = &cases[i];
		char amc[1024];
		write_pair("amc_bad", "test.asf", bc->asf ? bc->asf : test_asf, bc->amc, amc, sizeof amc);
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		sinew_result r = sinew_import_file(amc, NULL, NULL, &set, &err);
		CHECK_MSG(r == bc->expected, "%s: %s (%s), expected %s", bc->what, sinew_result_name(r), err.message,
		          sinew_result_name(bc->expected));
		char needle[32];
		snprintf(needle, sizeof needle, "line %d:", bc->line);
		CHECK_MSG(!bc->line || strstr(err.message, needle), "%s: '%s' does not name line %d", bc->what, err.message,
		          bc->line);
		CHECK_MSG(strstr(err.message, bc->needle), "%s: '%s' lacks '%s'", bc->what, err.message, bc->needle);
		CHECK(set == NULL);
	}
}

static void test_finding_the_skeleton(void) {
	const char *good = "1\nroot 0 0 0 0 0 0\n";
	char amc[1024], dir[1024];
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	// none beside the motion
	write_pair("amc_none", "x.asf", NULL, good, amc, sizeof amc);
	CHECK_RESULT(sinew_import_file(amc, NULL, NULL, &set, &err), SINEW_RESULT_IO, &err);
	CHECK(strstr(err.message, "no .asf"));
	// two of them: ambiguous unless asf_path says which
	write_pair("amc_two", "a.asf", test_asf, good, amc, sizeof amc);
	write_pair("amc_two", "b.ASF", test_asf, good, amc, sizeof amc);
	CHECK_RESULT(sinew_import_file(amc, NULL, NULL, &set, &err), SINEW_RESULT_INVALID_ARGUMENT, &err);
	CHECK(strstr(err.message, "2 .asf files"));
	snprintf(dir, sizeof dir, "%s", amc);
	strcpy(strrchr(dir, '/') + 1, "b.ASF");
	sinew_import_options opt = {.asf_path = dir};
	CHECK_OK(sinew_import_file(amc, &opt, NULL, &set, &err), &err);
	sinew_clip_set_free(set);
	// a memory import needs asf_path or base_path
	sinew_import_options mem = {.kind = SINEW_FILE_AMC};
	CHECK_RESULT(sinew_import_memory(good, strlen(good), &mem, NULL, &set, &err), SINEW_RESULT_INVALID_ARGUMENT, &err);
	mem.asf_path = dir;
	CHECK_OK(sinew_import_memory(good, strlen(good), &mem, NULL, &set, &err), &err);
	CHECK(strcmp(set->clips[0]->name, "amc") == 0);
	sinew_clip_set_free(set);
	mem.asf_path = "/nonexistent/skeleton.asf";
	CHECK_RESULT(sinew_import_memory(good, strlen(good), &mem, NULL, &set, &err), SINEW_RESULT_IO, &err);
	// skeleton bytes in memory: the same clip as from the files (asf_path wins when both are set)
	write_pair("amc_mem", "test.asf", test_asf, test_amc, amc, sizeof amc);
	sinew_clip_set *from_file = NULL;
	CHECK_OK(sinew_import_file(amc, NULL, NULL, &from_file, &err), &err);
	sinew_import_options bytes = {.kind = SINEW_FILE_AMC, .asf_data = test_asf, .asf_size = strlen(test_asf)};
	CHECK_OK(sinew_import_memory(test_amc, strlen(test_amc), &bytes, NULL, &set, &err), &err);
	const sinew_clip *a = from_file->clips[0], *b = set->clips[0];
	CHECK(a->joint_count == b->joint_count && a->sample_count == b->sample_count);
	CHECK(memcmp(a->transforms, b->transforms, (size_t)a->joint_count * a->sample_count * sizeof(sinew_qvv)) == 0);
	sinew_clip_set_free(set);
	sinew_clip_set_free(from_file);
	bytes.asf_path = "/nonexistent/skeleton.asf";
	CHECK_RESULT(sinew_import_memory(test_amc, strlen(test_amc), &bytes, NULL, &set, &err), SINEW_RESULT_IO, &err);
	bytes.asf_path = NULL;
	bytes.asf_size = strlen(test_asf) / 2; // a cut skeleton: a specific error, no clip
	CHECK(sinew_import_memory(test_amc, strlen(test_amc), &bytes, NULL, &set, &err) != SINEW_RESULT_OK && set == NULL);
	CHECK_MSG(strstr(err.message, "asf"), "%s", err.message);
}

static void test_truncated_everywhere(void) {
	char amc[1024], asf_path[1024];
	write_pair("amc_cut", "test.asf", test_asf, test_amc, amc, sizeof amc);
	snprintf(asf_path, sizeof asf_path, "%s", amc);
	strcpy(strrchr(asf_path, '/') + 1, "test.asf");
	long live = 0;
	sinew_allocator al = {counting_alloc, counting_free, &live};
	sinew_import_options opt = {.kind = SINEW_FILE_AMC, .asf_path = asf_path};
	size_t n = strlen(test_amc);
	// motion cut anywhere: a clean error, or a shorter clip when the cut falls between frames
	for (size_t cut = 0; cut <= n; ++cut) {
		char *copy = malloc(cut ? cut : 1);
		memcpy(copy, test_amc, cut);
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		sinew_result r = sinew_import_memory(copy, cut, &opt, &al, &set, &err);
		free(copy);
		if (r == SINEW_RESULT_OK) {
			CHECK(set->clips[0]->sample_count <= 3);
			sinew_clip_set_free(set);
		} else {
			CHECK_MSG(err.message[0], "cut %zu: no message", cut);
		}
		CHECK_EQ(live, 0);
	}
	// skeleton cut anywhere
	size_t m = strlen(test_asf);
	for (size_t cut = 0; cut < m; ++cut) {
		FILE *f = fopen(asf_path, "wb");
		fwrite(test_asf, 1, cut, f);
		fclose(f);
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		sinew_result r = sinew_import_memory(test_amc, strlen(test_amc), &opt, &al, &set, &err);
		if (r == SINEW_RESULT_OK)
			sinew_clip_set_free(set);
		else
			CHECK_MSG(err.message[0], "asf cut %zu: no message", cut);
		CHECK_EQ(live, 0);
	}
}

void suite_import_amc(void) {
	RUN(test_cmu_01_01_imports);
	RUN(test_cmu_matches_textbook_kinematics);
	RUN(test_cmu_matches_cgspeed_bvh);
	RUN(test_corpus_amc_frames_match_manifest);
	RUN(test_hand_written_matches_textbook_kinematics);
	RUN(test_missing_bone_keeps_previous_value);
	RUN(test_malformed_skeletons_and_motions);
	RUN(test_finding_the_skeleton);
	RUN(test_truncated_everywhere);
}
