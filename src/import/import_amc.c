// sinew — see include/sinew.h for version and licence
#define _POSIX_C_SOURCE 200809L
// Acclaim ASF/AMC reader (CMU motion capture database): the .amc holds the motion, the skeleton comes
// from options->asf_path, options->asf_data or the only .asf file in the .amc's folder. One clip per .amc.
//
// ASF semantics (Acclaim ASF v1.10 and the VICON/CMU notes on it):
//   - Each bone has a rest direction d (unit vector, global coordinates), a length l and an "axis" frame
//     C (Euler angles in the given order). It starts where its parent ends (the root's children start
//     at the root). Its motion M (from the AMC dof values) is a rotation about the axes of C.
//   - Order strings ("axis ... XYZ", "dof rx ry rz", root "order ... RX RY RZ") list rotations in the
//     order they are applied about fixed axes: XYZ means R = Rz * Ry * Rx. (The cgspeed BVH conversion
//     of the CMU data agrees: its "Zrotation Yrotation Xrotation" values are the AMC "RX RY RZ" values
//     reversed, and tests/test_import_amc.c finds the same object-space rotations in both files.)
//   - Dofs tx ty tz move the joint along the axes of C and l adds to the bone's length; translations act
//     before rotations wherever they stand in the list (likewise TX TY TZ in the root order).
//   - Bone names are matched without regard to case, as VICON's notes on the format say.
//   - Textbook chain (4x4, column vectors): F_b = F_p * T(C_p^-1 d_p l_p) * C_p^-1 * C_b * T(t_b) * M_b with
//     F_root = T(position + O * T_amc) * O * M_root, O the root orientation pre-set and C_root = I.
//     Joint b sits at F_b's origin; a leaf bone ends at F_b * (C_b^-1 d_b l_b).
// Clip joints use frames that equal the world axes in the rest pose (D_b = F_b * C_b^-1), which gives
// every bone an identity default rotation:
//   root:   rotation O * M_root, translation position + O * T_amc
//   bone b: rotation C_b * M_b * C_b^-1, translation d_p * (l_p + dl_p) + C_b * t_b (0 from the root)
//   end:    leaf bones get a joint "<bone>_end" at d_b * (l_b + dl_b) (has_track = 0) so the error
//           metric sees the end effector, unless options->bvh_skip_end_sites (the same switch as BVH).
// Composing these local transforms gives exactly the textbook joint positions (tests/test_import_amc.c
// checks it against an independent 4x4 implementation).
//
// AMC: optional ":FULLY-SPECIFIED", ":DEGREES" / ":RADIANS" (default: the ASF :units angle), then per
// frame a line with the frame number (consecutive) and one line per bone, "name v1 v2 ...", with as many
// values as the bone has dofs (the root: as many as its `order`). A bone missing from a frame keeps its
// previous value (the rest pose in the first frame) and one warning is issued for the file.
// Rate: options->sample_rate when set, else 120 Hz (the CMU capture rate; AMC stores none).
// Units: data stay in ASF units; unit_cm = options->unit_cm or 2.54 / (:units length), so CMU's
// length 0.45 gives 5.644 cm per unit; clip unit_scale = 100 / unit_cm.
#include "import_internal.h"
#include "text_scan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#ifndef _WIN32
#include <dirent.h>
#include <sys/stat.h>
#endif

#include "../core/elementary.h"
#include "../core/quat.h"

#define ASF_MAX_BONES 65536
#define AMC_MAX_FRAMES 10000000u
#define AMC_DEFAULT_RATE 120.0
#define DEG_TO_RAD (3.14159265358979323846 / 180.0)

enum { DOF_RX, DOF_RY, DOF_RZ, DOF_TX, DOF_TY, DOF_TZ, DOF_L, DOF_KINDS };
static const char *const dof_names[DOF_KINDS] = {"rx", "ry", "rz", "tx", "ty", "tz", "l"};

typedef struct asf_bone {
	const char *name; // into the ASF text
	size_t name_length;
	size_t line;
	int32_t id;
	int32_t parent; // bone index, -1 for the root
	int32_t first_child, last_child, next_sibling;
	double direction[3], length;
	double axis[3];
	uint8_t axis_order[3];
	uint8_t dof_count;
	uint8_t dof[DOF_KINDS];
	bool has_direction, has_length, has_name;
	uint32_t value_first; // offset of this bone's values in a frame record
	double c[4]; // quaternion of the axis frame C
} asf_bone;

typedef struct amc_parser {
	const sinewi_import_ctx *ctx;
	sinewi_alloc al;
	sinew_error *error;
	// skeleton
	const char *asf_where;
	unsigned char *asf_data;
	size_t asf_size;
	asf_bone *bones; // bones[0] is the root
	uint32_t bone_count, bone_capacity;
	uint32_t *table; // name hash table of bone indices + 1 (0 = empty)
	uint32_t table_mask;
	double length_unit;
	bool asf_degrees;
	double root_position[3], root_orientation[3];
	uint8_t root_axis_order[3];
	bool has_root, has_bonedata;
	uint32_t value_total;
	// motion
	const char *amc_where;
	double *values; // [frame_count * value_total]
	size_t values_capacity;
	uint32_t frame_count;
} amc_parser;

/* ---- helpers ---- */

static void axis_quat(int axis, double radians, double q[4]) {
	q[0] = q[1] = q[2] = 0.0;
	sinewi_sincos(0.5 * radians, &q[axis], &q[3]);
}

// Rotation of Euler angles (radians, indexed by axis) applied in `order` about fixed axes:
// R = R[order[2]] * R[order[1]] * R[order[0]].
static void euler_quat(const double angles[3], const uint8_t order[3], double q[4]) {
	q[0] = q[1] = q[2] = 0.0, q[3] = 1.0;
	for (int i = 0; i < 3; ++i) {
		double r[4];
		axis_quat(order[i], angles[order[i]], r);
		sinewi_quat_mul_d(r, q, q);
	}
}

static void store_qvv(const double q[4], const double t[3], sinew_qvv *out) {
	double n[4] = {q[0], q[1], q[2], q[3]};
	sinewi_quat_normalize_d(n);
	for (int k = 0; k < 4; ++k) out->rotation[k] = (float)n[k];
	for (int k = 0; k < 3; ++k) out->translation[k] = (float)t[k];
	out->scale[0] = out->scale[1] = out->scale[2] = 1.0f;
}

static uint32_t hash_name(const char *s, size_t n) {
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; ++i) {
		char c = s[i];
		if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
		h = (h ^ (unsigned char)c) * 16777619u;
	}
	return h;
}

static bool same_name(const char *a, size_t an, const char *b, size_t bn) {
	if (an != bn) return false;
	for (size_t i = 0; i < an; ++i) {
		char x = a[i], y = b[i];
		if (x >= 'A' && x <= 'Z') x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z') y = (char)(y - 'A' + 'a');
		if (x != y) return false;
	}
	return true;
}

// Bone names match without case (the VICON notes say so). Returns the bone index or -1.
static int32_t find_bone(const amc_parser *p, const sinewi_token *t) {
	if (!p->table) return -1;
	for (uint32_t i = hash_name(t->text, t->length) & p->table_mask;; i = (i + 1) & p->table_mask) {
		uint32_t e = p->table[i];
		if (!e) return -1;
		const asf_bone *b = &p->bones[e - 1];
		if (same_name(b->name, b->name_length, t->text, t->length)) return (int32_t)(e - 1);
	}
}

static const char *quote(const sinewi_token *t, char *buffer, size_t size) {
	return sinewi_token_quote(t, buffer, size);
}

static int bone_name_len(const asf_bone *b) {
	return (int)(b->name_length > 64 ? 64 : b->name_length);
}

/* ---- ASF ---- */

static sinew_result asf_end(amc_parser *p, const sinewi_scanner *s, const char *expected) {
	return sinewi_fail(p->error, SINEW_RESULT_TRUNCATED, "%s: line %zu: file ends where %s was expected", p->asf_where,
	                   s->line, expected);
}

static sinew_result asf_number(amc_parser *p, sinewi_scanner *s, const char *what, double *out) {
	sinewi_token t;
	char q[48];
	if (!sinewi_scan_next(s, &t)) return asf_end(p, s, what);
	SINEWI_CHECK(sinewi_token_number(&t, out), p->error, SINEW_RESULT_PARSE, "%s: line %zu: %s: '%s' is not a number",
	             p->asf_where, t.line, what, quote(&t, q, sizeof q));
	return SINEW_RESULT_OK;
}

static bool parse_axis_order(const sinewi_token *t, uint8_t order[3]) {
	if (t->length != 3) return false;
	unsigned seen = 0;
	for (int i = 0; i < 3; ++i) {
		char c = t->text[i];
		int a = (c == 'x' || c == 'X') ? 0 : (c == 'y' || c == 'Y') ? 1 : (c == 'z' || c == 'Z') ? 2 : -1;
		if (a < 0 || (seen & (1u << a))) return false;
		seen |= 1u << a;
		order[i] = (uint8_t)a;
	}
	return true;
}

static sinew_result add_bone(amc_parser *p, size_t line, asf_bone **out) {
	if (p->bone_count == p->bone_capacity) {
		SINEWI_CHECK(p->bone_count < ASF_MAX_BONES, p->error, SINEW_RESULT_UNSUPPORTED,
		             "%s: line %zu: more than %d bones", p->asf_where, line, ASF_MAX_BONES);
		uint32_t capacity = p->bone_capacity ? p->bone_capacity * 2 : 64;
		asf_bone *bones = (asf_bone *)sinewi_malloc(&p->al, capacity * sizeof *bones);
		SINEWI_CHECK(bones, p->error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory", p->asf_where);
		if (p->bone_count) memcpy(bones, p->bones, p->bone_count * sizeof *bones);
		sinewi_free(&p->al, p->bones, p->bone_capacity * sizeof *p->bones);
		p->bones = bones;
		p->bone_capacity = capacity;
	}
	asf_bone *b = &p->bones[p->bone_count++];
	memset(b, 0, sizeof *b);
	b->parent = b->first_child = b->last_child = b->next_sibling = -1;
	b->axis_order[0] = 0, b->axis_order[1] = 1, b->axis_order[2] = 2;
	b->line = line;
	*out = b;
	return SINEW_RESULT_OK;
}

// Tokens of a dof line: rx ry rz tx ty tz l, each at most once. `root` uses the root `order` tokens.
static sinew_result read_dofs(amc_parser *p, sinewi_scanner *s, asf_bone *b, bool root) {
	sinewi_token t;
	char q[48];
	unsigned seen = 0;
	b->dof_count = 0;
	while (sinewi_scan_next_on_line(s, &t)) {
		int kind = -1;
		for (int k = 0; k < (root ? DOF_L : DOF_KINDS) && kind < 0; ++k)
			if (sinewi_token_is_nocase(&t, dof_names[k])) kind = k;
		SINEWI_CHECK(kind >= 0, p->error, SINEW_RESULT_PARSE, "%s: line %zu: unknown %s '%s'", p->asf_where, t.line,
		             root ? "root order token" : "dof", quote(&t, q, sizeof q));
		SINEWI_CHECK(!(seen & (1u << kind)), p->error, SINEW_RESULT_PARSE, "%s: line %zu: '%s' listed twice",
		             p->asf_where, t.line, dof_names[kind]);
		seen |= 1u << kind;
		b->dof[b->dof_count++] = (uint8_t)kind;
	}
	return SINEW_RESULT_OK;
}

static bool is_limit_token(const sinewi_token *t) {
	double v;
	return sinewi_token_number(t, &v) || sinewi_token_is_nocase(t, "inf") || sinewi_token_is_nocase(t, "-inf") ||
	       sinewi_token_is_nocase(t, "+inf");
}

static sinew_result parse_bone(amc_parser *p, sinewi_scanner *s, size_t begin_line) {
	asf_bone *b;
	SINEWI_TRY(add_bone(p, begin_line, &b));
	b->id = -1;
	sinewi_token t;
	char q[48];
	bool pending = false;
	for (;;) {
		if (!pending && !sinewi_scan_next(s, &t)) return asf_end(p, s, "'end' of a bone");
		pending = false;
		if (sinewi_token_is_nocase(&t, "end")) break;
		if (sinewi_token_is_nocase(&t, "id")) {
			sinewi_token v;
			uint64_t id;
			if (!sinewi_scan_next(s, &v)) return asf_end(p, s, "a bone id");
			SINEWI_CHECK(sinewi_token_uint(&v, INT32_MAX, &id), p->error, SINEW_RESULT_PARSE,
			             "%s: line %zu: bone id '%s' is not a non-negative integer", p->asf_where, v.line,
			             quote(&v, q, sizeof q));
			b->id = (int32_t)id;
		} else if (sinewi_token_is_nocase(&t, "name")) {
			sinewi_token v;
			SINEWI_CHECK(sinewi_scan_next_on_line(s, &v), p->error, SINEW_RESULT_PARSE,
			             "%s: line %zu: bone without a name", p->asf_where, t.line);
			b->name = v.text;
			b->name_length = v.length;
			b->has_name = true;
			b->line = v.line;
		} else if (sinewi_token_is_nocase(&t, "direction")) {
			for (int k = 0; k < 3; ++k) SINEWI_TRY(asf_number(p, s, "direction", &b->direction[k]));
			b->has_direction = true;
		} else if (sinewi_token_is_nocase(&t, "length")) {
			SINEWI_TRY(asf_number(p, s, "length", &b->length));
			b->has_length = true;
		} else if (sinewi_token_is_nocase(&t, "axis")) {
			for (int k = 0; k < 3; ++k) SINEWI_TRY(asf_number(p, s, "axis", &b->axis[k]));
			sinewi_token o;
			if (sinewi_scan_next_on_line(s, &o))
				SINEWI_CHECK(parse_axis_order(&o, b->axis_order), p->error, SINEW_RESULT_PARSE,
				             "%s: line %zu: axis order '%s' is not a permutation of XYZ", p->asf_where, o.line,
				             quote(&o, q, sizeof q));
		} else if (sinewi_token_is_nocase(&t, "dof")) {
			SINEWI_TRY(read_dofs(p, s, b, false));
		} else if (sinewi_token_is_nocase(&t, "limits")) {
			// (min max) pairs, possibly over several lines; values are not used
			bool got;
			while ((got = sinewi_scan_next(s, &t)) && is_limit_token(&t)) {
			}
			if (!got) return asf_end(p, s, "'end' of a bone");
			pending = true;
		} else if (sinewi_token_is_nocase(&t, "bodymass") || sinewi_token_is_nocase(&t, "cofmass")) {
			double ignored;
			SINEWI_TRY(asf_number(p, s, "mass", &ignored));
		} else if (t.text[0] == ':') {
			return sinewi_fail(p->error, SINEW_RESULT_PARSE, "%s: line %zu: '%s' inside a bone (missing 'end')",
			                   p->asf_where, t.line, quote(&t, q, sizeof q));
		} else {
			sinewi_import_warn(p->ctx, "%s: line %zu: unknown bone field '%s' ignored", p->asf_where, t.line,
			                   quote(&t, q, sizeof q));
			sinewi_scan_skip_line(s);
		}
	}
	SINEWI_CHECK(b->has_name, p->error, SINEW_RESULT_PARSE, "%s: line %zu: bone without a name", p->asf_where, t.line);
	SINEWI_CHECK(b->has_direction && b->has_length, p->error, SINEW_RESULT_PARSE,
	             "%s: line %zu: bone '%.*s' lacks its direction or length", p->asf_where, b->line, bone_name_len(b),
	             b->name);
	SINEWI_CHECK(!sinewi_token_is_nocase(&(sinewi_token){b->name, b->name_length, 0, false}, "root"), p->error,
	             SINEW_RESULT_PARSE, "%s: line %zu: a bone cannot be called 'root'", p->asf_where, b->line);
	return SINEW_RESULT_OK;
}

static sinew_result build_table(amc_parser *p) {
	uint32_t size = 16;
	while (size < 2 * p->bone_count) size *= 2;
	p->table = (uint32_t *)sinewi_calloc(&p->al, size, sizeof(uint32_t));
	SINEWI_CHECK(p->table, p->error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory", p->asf_where);
	p->table_mask = size - 1;
	for (uint32_t b = 0; b < p->bone_count; ++b) {
		const asf_bone *bone = &p->bones[b];
		sinewi_token t = {bone->name, bone->name_length, bone->line, false};
		int32_t existing = find_bone(p, &t);
		SINEWI_CHECK(existing < 0, p->error, SINEW_RESULT_PARSE,
		             "%s: line %zu: bone '%.*s' defined twice (first on line %zu)", p->asf_where, bone->line,
		             bone_name_len(bone), bone->name, p->bones[existing].line);
		uint32_t i = hash_name(bone->name, bone->name_length) & p->table_mask;
		while (p->table[i]) i = (i + 1) & p->table_mask;
		p->table[i] = b + 1;
	}
	return SINEW_RESULT_OK;
}

static sinew_result parse_hierarchy_section(amc_parser *p, sinewi_scanner *s) {
	sinewi_token t;
	char q[48];
	if (!sinewi_scan_next(s, &t)) return asf_end(p, s, "'begin'");
	SINEWI_CHECK(sinewi_token_is_nocase(&t, "begin"), p->error, SINEW_RESULT_PARSE,
	             "%s: line %zu: expected 'begin' after :hierarchy, found '%s'", p->asf_where, t.line,
	             quote(&t, q, sizeof q));
	SINEWI_TRY(build_table(p));
	for (;;) {
		if (!sinewi_scan_next(s, &t)) return asf_end(p, s, "'end' of :hierarchy");
		if (sinewi_token_is_nocase(&t, "end")) break;
		int32_t parent = find_bone(p, &t);
		SINEWI_CHECK(parent >= 0, p->error, SINEW_RESULT_PARSE, "%s: line %zu: unknown bone '%s' in :hierarchy",
		             p->asf_where, t.line, quote(&t, q, sizeof q));
		sinewi_token c;
		while (sinewi_scan_next_on_line(s, &c)) {
			int32_t child = find_bone(p, &c);
			SINEWI_CHECK(child >= 0, p->error, SINEW_RESULT_PARSE, "%s: line %zu: unknown bone '%s' in :hierarchy",
			             p->asf_where, c.line, quote(&c, q, sizeof q));
			asf_bone *cb = &p->bones[child];
			SINEWI_CHECK(child != 0, p->error, SINEW_RESULT_PARSE, "%s: line %zu: the root cannot be a child",
			             p->asf_where, c.line);
			SINEWI_CHECK(cb->parent < 0 && child != parent, p->error, SINEW_RESULT_PARSE,
			             "%s: line %zu: bone '%.*s' is given a second parent", p->asf_where, c.line, bone_name_len(cb),
			             cb->name);
			cb->parent = parent;
			asf_bone *pb = &p->bones[parent];
			if (pb->last_child < 0)
				pb->first_child = child;
			else
				p->bones[pb->last_child].next_sibling = child;
			pb->last_child = child;
		}
	}
	return SINEW_RESULT_OK;
}

static sinew_result parse_root_section_line(amc_parser *p, sinewi_scanner *s, const sinewi_token *t) {
	char q[48];
	asf_bone *root = &p->bones[0];
	if (sinewi_token_is_nocase(t, "order")) {
		SINEWI_TRY(read_dofs(p, s, root, true));
	} else if (sinewi_token_is_nocase(t, "axis")) {
		sinewi_token o;
		SINEWI_CHECK(sinewi_scan_next_on_line(s, &o) && parse_axis_order(&o, p->root_axis_order), p->error,
		             SINEW_RESULT_PARSE, "%s: line %zu: root axis must be a permutation of XYZ", p->asf_where, t->line);
	} else if (sinewi_token_is_nocase(t, "position")) {
		for (int k = 0; k < 3; ++k) SINEWI_TRY(asf_number(p, s, "position", &p->root_position[k]));
	} else if (sinewi_token_is_nocase(t, "orientation")) {
		for (int k = 0; k < 3; ++k) SINEWI_TRY(asf_number(p, s, "orientation", &p->root_orientation[k]));
	} else {
		return sinewi_fail(p->error, SINEW_RESULT_PARSE, "%s: line %zu: unknown :root field '%s'", p->asf_where,
		                   t->line, quote(t, q, sizeof q));
	}
	return SINEW_RESULT_OK;
}

enum { SEC_NONE, SEC_UNITS, SEC_ROOT, SEC_BONES, SEC_SKIP };

static sinew_result parse_asf(amc_parser *p) {
	sinewi_scanner s;
	sinewi_scan_init(&s, p->asf_data, p->asf_size);
	s.hash_comments = true;
	s.paren_is_space = true;
	p->length_unit = 1.0;
	p->asf_degrees = true; // Acclaim's default angle unit
	p->root_axis_order[0] = 0, p->root_axis_order[1] = 1, p->root_axis_order[2] = 2;
	asf_bone *root;
	SINEWI_TRY(add_bone(p, 1, &root));
	root->name = "root";
	root->name_length = 4;
	root->has_name = root->has_direction = root->has_length = true;
	bool has_hierarchy = false;
	int section = SEC_NONE;
	sinewi_token t;
	char q[48];
	while (sinewi_scan_next(&s, &t)) {
		if (t.text[0] == ':' && t.first_on_line) {
			section = SEC_NONE;
			if (sinewi_token_is_nocase(&t, ":version") || sinewi_token_is_nocase(&t, ":name")) {
				sinewi_scan_skip_line(&s);
			} else if (sinewi_token_is_nocase(&t, ":units")) {
				section = SEC_UNITS;
			} else if (sinewi_token_is_nocase(&t, ":documentation")) {
				section = SEC_SKIP;
			} else if (sinewi_token_is_nocase(&t, ":root")) {
				section = SEC_ROOT;
				p->has_root = true;
			} else if (sinewi_token_is_nocase(&t, ":bonedata")) {
				section = SEC_BONES;
				p->has_bonedata = true;
			} else if (sinewi_token_is_nocase(&t, ":hierarchy")) {
				SINEWI_CHECK(!has_hierarchy, p->error, SINEW_RESULT_PARSE, "%s: line %zu: second :hierarchy",
				             p->asf_where, t.line);
				SINEWI_CHECK(p->has_bonedata, p->error, SINEW_RESULT_PARSE, "%s: line %zu: :hierarchy before :bonedata",
				             p->asf_where, t.line);
				has_hierarchy = true;
				SINEWI_TRY(parse_hierarchy_section(p, &s));
			} else {
				sinewi_import_warn(p->ctx, "%s: line %zu: section '%s' ignored", p->asf_where, t.line,
				                   quote(&t, q, sizeof q));
				section = SEC_SKIP;
			}
			continue;
		}
		switch (section) {
		case SEC_SKIP: sinewi_scan_skip_line(&s); break;
		case SEC_UNITS:
			if (sinewi_token_is_nocase(&t, "length")) {
				SINEWI_TRY(asf_number(p, &s, "length", &p->length_unit));
				SINEWI_CHECK(p->length_unit > 0, p->error, SINEW_RESULT_PARSE,
				             "%s: line %zu: length unit %g is not positive", p->asf_where, t.line, p->length_unit);
			} else if (sinewi_token_is_nocase(&t, "angle")) {
				sinewi_token a;
				bool ok = sinewi_scan_next_on_line(&s, &a);
				SINEWI_CHECK(ok && (sinewi_token_is_nocase(&a, "deg") || sinewi_token_is_nocase(&a, "rad")), p->error,
				             SINEW_RESULT_PARSE, "%s: line %zu: angle unit must be deg or rad", p->asf_where, t.line);
				p->asf_degrees = sinewi_token_is_nocase(&a, "deg");
			} else {
				sinewi_scan_skip_line(&s); // mass and vendor units
			}
			break;
		case SEC_ROOT: SINEWI_TRY(parse_root_section_line(p, &s, &t)); break;
		case SEC_BONES:
			SINEWI_CHECK(sinewi_token_is_nocase(&t, "begin"), p->error, SINEW_RESULT_PARSE,
			             "%s: line %zu: expected 'begin' in :bonedata, found '%s'", p->asf_where, t.line,
			             quote(&t, q, sizeof q));
			SINEWI_CHECK(!has_hierarchy, p->error, SINEW_RESULT_PARSE, "%s: line %zu: bone after :hierarchy",
			             p->asf_where, t.line);
			SINEWI_TRY(parse_bone(p, &s, t.line));
			break;
		default:
			return sinewi_fail(p->error, SINEW_RESULT_PARSE, "%s: line %zu: unexpected '%s' outside a section",
			                   p->asf_where, t.line, quote(&t, q, sizeof q));
		}
	}
	SINEWI_CHECK(p->has_root, p->error, SINEW_RESULT_PARSE, "%s: missing :root section", p->asf_where);
	SINEWI_CHECK(p->has_bonedata, p->error, SINEW_RESULT_PARSE, "%s: missing :bonedata section", p->asf_where);
	SINEWI_CHECK(has_hierarchy || p->bone_count == 1, p->error, SINEW_RESULT_PARSE, "%s: missing :hierarchy section",
	             p->asf_where);
	if (!p->table) SINEWI_TRY(build_table(p));
	for (uint32_t b = 1; b < p->bone_count; ++b) {
		const asf_bone *bone = &p->bones[b];
		SINEWI_CHECK(bone->parent >= 0, p->error, SINEW_RESULT_PARSE,
		             "%s: line %zu: bone '%.*s' has no parent in :hierarchy", p->asf_where, bone->line,
		             bone_name_len(bone), bone->name);
	}
	// Frame record layout and the axis frames.
	double angle = p->asf_degrees ? DEG_TO_RAD : 1.0;
	for (uint32_t b = 0; b < p->bone_count; ++b) {
		asf_bone *bone = &p->bones[b];
		bone->value_first = p->value_total;
		p->value_total += bone->dof_count;
		double a[3] = {bone->axis[0] * angle, bone->axis[1] * angle, bone->axis[2] * angle};
		euler_quat(a, bone->axis_order, bone->c);
	}
	return SINEW_RESULT_OK;
}

/* ---- locating and reading the ASF ---- */

static sinew_result find_asf(const amc_parser *p, char *path, size_t size) {
	const sinew_import_options *o = p->ctx->options;
	if (o->asf_path) {
		SINEWI_CHECK(strlen(o->asf_path) < size, p->error, SINEW_RESULT_INVALID_ARGUMENT, "asf_path too long");
		strcpy(path, o->asf_path);
		return SINEW_RESULT_OK;
	}
	const char *dir = p->ctx->base_dir;
	SINEWI_CHECK(dir, p->error, SINEW_RESULT_INVALID_ARGUMENT,
	             "%s: no skeleton: set options.asf_path or asf_data (or base_path for a memory import)", p->amc_where);
#ifdef _WIN32
	return sinewi_fail(p->error, SINEW_RESULT_INVALID_ARGUMENT, "%s: set options.asf_path", p->amc_where);
#else
	DIR *d = opendir(dir);
	SINEWI_CHECK(d, p->error, SINEW_RESULT_IO, "%s: cannot list folder '%s' to find the .asf skeleton", p->amc_where,
	             dir);
	int found = 0;
	char first[256] = "", second[256] = "";
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		if (n < 5) continue;
		const char *ext = e->d_name + n - 4;
		if (!(ext[0] == '.' && (ext[1] | 32) == 'a' && (ext[2] | 32) == 's' && (ext[3] | 32) == 'f')) continue;
		char full[1024];
		struct stat st;
		if (!sinewi_join_path(full, sizeof full, dir, e->d_name) || stat(full, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (found == 0) {
			if (!sinewi_join_path(path, size, dir, e->d_name)) {
				closedir(d);
				return sinewi_fail(p->error, SINEW_RESULT_INVALID_ARGUMENT, "%s: path of '%s' too long", p->amc_where,
				                   e->d_name);
			}
			snprintf(first, sizeof first, "%s", e->d_name);
		} else if (found == 1) {
			snprintf(second, sizeof second, "%s", e->d_name);
		}
		++found;
	}
	closedir(d);
	SINEWI_CHECK(found > 0, p->error, SINEW_RESULT_IO, "%s: no .asf skeleton in '%s'; name one (options.asf_path; sinew --asf FILE)",
	             p->amc_where, dir);
	SINEWI_CHECK(found == 1, p->error, SINEW_RESULT_INVALID_ARGUMENT,
	             "%s: %d .asf files in '%s' (%s, %s, ...); name the skeleton (options.asf_path; sinew --asf FILE)", p->amc_where,
	             found, dir, first, second);
	return SINEW_RESULT_OK;
#endif
}

/* ---- AMC ---- */

static sinew_result grow_values(amc_parser *p) {
	size_t need, bytes;
	if (!sinewi_mul_size((size_t)p->frame_count + 1, p->value_total, &need))
		return sinewi_fail(p->error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory", p->amc_where);
	if (p->values && need <= p->values_capacity) return SINEW_RESULT_OK;
	size_t capacity = p->values_capacity ? p->values_capacity * 2 : 4096;
	if (capacity < need) capacity = need;
	if (!sinewi_mul_size(capacity, sizeof(double), &bytes))
		return sinewi_fail(p->error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory", p->amc_where);
	double *values = (double *)sinewi_malloc(&p->al, bytes);
	SINEWI_CHECK(values, p->error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory", p->amc_where);
	if (p->values) memcpy(values, p->values, (size_t)p->frame_count * p->value_total * sizeof(double));
	sinewi_free(&p->al, p->values, p->values_capacity * sizeof(double));
	p->values = values;
	p->values_capacity = capacity;
	return SINEW_RESULT_OK;
}

typedef struct missing_note {
	size_t count;
	uint32_t first_bone, first_frame;
	size_t first_line;
} missing_note;

// Bones absent from the frame that just ended keep their previous values (rest pose in frame 0).
static void close_frame(amc_parser *p, const uint8_t *present, size_t line, missing_note *missing) {
	double *cur = &p->values[(size_t)(p->frame_count - 1) * p->value_total];
	const double *previous = p->frame_count > 1 ? cur - p->value_total : NULL;
	for (uint32_t b = 0; b < p->bone_count; ++b) {
		const asf_bone *bone = &p->bones[b];
		if (present[b] || bone->dof_count == 0) continue;
		if (missing->count++ == 0)
			missing->first_bone = b, missing->first_frame = p->frame_count - 1, missing->first_line = line;
		for (uint32_t k = 0; k < bone->dof_count; ++k)
			cur[bone->value_first + k] = previous ? previous[bone->value_first + k] : 0.0;
	}
}

static sinew_result parse_amc(amc_parser *p, const unsigned char *data, size_t size, bool *degrees) {
	sinewi_scanner s;
	sinewi_scan_init(&s, data, size);
	s.hash_comments = true;
	*degrees = p->asf_degrees;
	uint8_t *present = (uint8_t *)sinewi_calloc(&p->al, p->bone_count, 1);
	SINEWI_CHECK(present, p->error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory", p->amc_where);
	// Memory per frame does not depend on the bytes in the file (missing bones are filled in), so bound
	// the clip by the input size as the BVH reader does.
	uint64_t joints = 2 * (uint64_t)p->bone_count;
	uint64_t limit = 64 * ((uint64_t)size + p->asf_size) + ((uint64_t)1 << 22);
	missing_note missing = {0};
	uint64_t last_number = 0;
	sinew_result r = SINEW_RESULT_OK;
	sinewi_token t, v;
	char q[48];
	while (r == SINEW_RESULT_OK && sinewi_scan_next(&s, &t)) {
		size_t line = t.line;
		if (t.text[0] == ':') {
			if (sinewi_token_is_nocase(&t, ":DEGREES"))
				*degrees = true;
			else if (sinewi_token_is_nocase(&t, ":RADIANS"))
				*degrees = false;
			else if (!sinewi_token_is_nocase(&t, ":FULLY-SPECIFIED"))
				sinewi_import_warn(p->ctx, "%s: line %zu: '%s' ignored", p->amc_where, line, quote(&t, q, sizeof q));
			sinewi_scan_skip_line(&s);
			continue;
		}
		bool has_value = sinewi_scan_next_on_line(&s, &v);
		uint64_t number;
		if (!has_value && sinewi_token_uint(&t, UINT32_MAX, &number)) { // a frame number on its own line
			if (p->frame_count) close_frame(p, present, line, &missing);
			if (p->frame_count && number != last_number + 1) {
				r = sinewi_fail(p->error, SINEW_RESULT_CORRUPT, "%s: line %zu: frame %llu follows frame %llu",
				                p->amc_where, line, (unsigned long long)number, (unsigned long long)last_number);
			} else if (p->frame_count >= AMC_MAX_FRAMES || (p->frame_count + 1) * joints > limit) {
				r = sinewi_fail(p->error, SINEW_RESULT_UNSUPPORTED,
				                "%s: line %zu: too many frames (%u) for the input size", p->amc_where, line,
				                p->frame_count + 1);
			} else if ((r = grow_values(p)) == SINEW_RESULT_OK) {
				last_number = number;
				++p->frame_count;
				memset(present, 0, p->bone_count);
			}
			continue;
		}
		if (p->frame_count == 0) {
			r = sinewi_fail(p->error, SINEW_RESULT_PARSE, "%s: line %zu: '%s' before the first frame number",
			                p->amc_where, line, quote(&t, q, sizeof q));
			break;
		}
		int32_t b = find_bone(p, &t);
		if (b < 0) {
			r = sinewi_fail(p->error, SINEW_RESULT_PARSE, "%s: line %zu: unknown bone '%s' (not in %s)", p->amc_where,
			                line, quote(&t, q, sizeof q), p->asf_where);
			break;
		}
		const asf_bone *bone = &p->bones[b];
		if (present[b]) {
			r = sinewi_fail(p->error, SINEW_RESULT_PARSE, "%s: line %zu: bone '%.*s' given twice in frame %llu",
			                p->amc_where, line, bone_name_len(bone), bone->name, (unsigned long long)last_number);
			break;
		}
		present[b] = 1;
		double *dst = &p->values[(size_t)(p->frame_count - 1) * p->value_total + bone->value_first];
		uint32_t n = 0;
		for (bool more = has_value; more; more = sinewi_scan_next_on_line(&s, &v)) {
			if (n == bone->dof_count) {
				r = sinewi_fail(p->error, SINEW_RESULT_BAD_COUNT,
				                "%s: line %zu: bone '%.*s' has %u dof, more values given", p->amc_where, line,
				                bone_name_len(bone), bone->name, bone->dof_count);
				break;
			}
			if (!sinewi_token_number(&v, &dst[n])) {
				r = sinewi_fail(p->error, SINEW_RESULT_PARSE,
				                "%s: line %zu: value %u of bone '%.*s', '%s', is not a number", p->amc_where, line,
				                n + 1, bone_name_len(bone), bone->name, quote(&v, q, sizeof q));
				break;
			}
			++n;
		}
		if (r == SINEW_RESULT_OK && n != bone->dof_count)
			r = sinewi_fail(p->error, SINEW_RESULT_BAD_COUNT, "%s: line %zu: bone '%.*s' has %u values, expected %u",
			                p->amc_where, line, bone_name_len(bone), bone->name, n, bone->dof_count);
	}
	if (r == SINEW_RESULT_OK && p->frame_count) close_frame(p, present, s.line, &missing);
	sinewi_free(&p->al, present, p->bone_count);
	SINEWI_TRY(r);
	SINEWI_CHECK(p->frame_count > 0, p->error, SINEW_RESULT_NO_SAMPLES, "%s: no frames", p->amc_where);
	if (missing.count) {
		const asf_bone *bone = &p->bones[missing.first_bone];
		sinewi_import_warn(
		    p->ctx, "%s: %zu bone records missing (first: '%.*s' in frame %u, before line %zu); previous values kept",
		    p->amc_where, missing.count, bone_name_len(bone), bone->name, missing.first_frame + 1, missing.first_line);
	}
	return SINEW_RESULT_OK;
}

/* ---- clip ---- */

typedef struct bone_motion {
	double q[4]; // rotation of the dofs (radians applied in dof order)
	double t[3]; // tx ty tz
	double dl; // length change
} bone_motion;

static void motion_of(const asf_bone *bone, const double *values, double angle, bone_motion *m) {
	m->q[0] = m->q[1] = m->q[2] = 0.0, m->q[3] = 1.0;
	m->t[0] = m->t[1] = m->t[2] = 0.0;
	m->dl = 0.0;
	for (uint32_t k = 0; k < bone->dof_count; ++k) {
		double v = values ? values[bone->value_first + k] : 0.0;
		int kind = bone->dof[k];
		if (kind <= DOF_RZ) {
			double r[4];
			axis_quat(kind, v * angle, r);
			sinewi_quat_mul_d(r, m->q, m->q); // applied after the previous ones (fixed axes)
		} else if (kind <= DOF_TZ) {
			m->t[kind - DOF_TX] = v;
		} else {
			m->dl = v;
		}
	}
}

static double length_change(const asf_bone *bone, const double *values) {
	for (uint32_t k = 0; k < bone->dof_count; ++k)
		if (bone->dof[k] == DOF_L) return values ? values[bone->value_first + k] : 0.0;
	return 0.0;
}

typedef struct out_joint {
	int32_t bone; // bone index
	bool end; // the end effector of a leaf bone
} out_joint;

static sinew_result build_clip(amc_parser *p, sinew_clip_set *set, bool amc_degrees) {
	const sinew_import_options *o = p->ctx->options;
	bool skip_ends = o->bvh_skip_end_sites != 0;
	// Joint order: depth-first from the root in :hierarchy order, each leaf followed by its end joint.
	uint32_t max_joints = 2 * p->bone_count;
	out_joint *joints = (out_joint *)sinewi_malloc(&p->al, max_joints * sizeof *joints);
	int32_t *stack = (int32_t *)sinewi_malloc(&p->al, p->bone_count * sizeof(int32_t));
	int32_t *joint_of_bone = (int32_t *)sinewi_malloc(&p->al, p->bone_count * sizeof(int32_t));
	sinew_result r = SINEW_RESULT_OK;
	if (!joints || !stack || !joint_of_bone)
		r = sinewi_fail(p->error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory", p->amc_where);
	uint32_t count = 0, visited = 0;
	if (r == SINEW_RESULT_OK) {
		for (uint32_t b = 0; b < p->bone_count; ++b) joint_of_bone[b] = -1;
		uint32_t top = 0;
		stack[top++] = 0;
		while (top) {
			int32_t b = stack[--top];
			const asf_bone *bone = &p->bones[b];
			joint_of_bone[b] = (int32_t)count;
			joints[count++] = (out_joint){b, false};
			++visited;
			if (bone->first_child < 0 && b != 0 && !skip_ends) joints[count++] = (out_joint){b, true};
			// push children in reverse so the first listed is visited first
			uint32_t first = top;
			for (int32_t c = bone->first_child; c >= 0; c = p->bones[c].next_sibling) stack[top++] = c;
			for (uint32_t i = first, j = top; i + 1 < j; ++i, --j) {
				int32_t tmp = stack[i];
				stack[i] = stack[j - 1], stack[j - 1] = tmp;
			}
		}
		// every bone has a parent and no bone has two, so an unreached bone sits on a parent cycle
		for (uint32_t b = 1; b < p->bone_count && visited != p->bone_count; ++b) {
			if (joint_of_bone[b] >= 0) continue;
			const asf_bone *bone = &p->bones[b];
			r = sinewi_fail(p->error, SINEW_RESULT_PARSE,
			                "%s: line %zu: bone '%.*s' is not connected to the root (cycle in :hierarchy)",
			                p->asf_where, bone->line, bone_name_len(bone), bone->name);
			break;
		}
	}
	sinew_clip *clip = NULL;
	if (r == SINEW_RESULT_OK) {
		char name[256] = "amc";
		if (p->ctx->path) {
			const char *base = p->ctx->path;
			for (const char *c = base; *c; ++c)
				if (*c == '/' || *c == '\\') base = c + 1;
			size_t n = strlen(base);
			const char *dot = strrchr(base, '.');
			if (dot && dot != base) n = (size_t)(dot - base);
			if (n && n < sizeof name) memcpy(name, base, n), name[n] = 0;
		}
		sinew_clip_desc desc = {.name = name,
		                        .sample_rate = o->sample_rate > 0 ? o->sample_rate : AMC_DEFAULT_RATE,
		                        .sample_count = p->frame_count,
		                        .joint_count = count};
		if (sinew_clip_set_add_clip(set, &desc, &clip) != SINEW_RESULT_OK)
			r = sinewi_fail(p->error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory for %u frames", p->amc_where,
			                p->frame_count);
	}
	if (r == SINEW_RESULT_OK) {
		double unit_cm = o->unit_cm > 0 ? o->unit_cm : 2.54 / p->length_unit;
		clip->unit_scale = 100.0 / unit_cm;
		double asf_angle = p->asf_degrees ? DEG_TO_RAD : 1.0;
		double orient_angles[3] = {p->root_orientation[0] * asf_angle, p->root_orientation[1] * asf_angle,
		                           p->root_orientation[2] * asf_angle};
		double orient[4];
		euler_quat(orient_angles, p->root_axis_order, orient);
		for (uint32_t j = 0; j < count && r == SINEW_RESULT_OK; ++j) {
			const asf_bone *bone = &p->bones[joints[j].bone];
			sinew_joint *dst = &clip->joints[j];
			size_t n = bone->name_length;
			char *joint_name = (char *)sinew_clip_set_alloc(set, n + 5);
			if (!joint_name) {
				r = sinewi_fail(p->error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory", p->amc_where);
				break;
			}
			memcpy(joint_name, bone->name, n);
			if (joints[j].end) memcpy(joint_name + n, "_end", 5);
			dst->name = joint_name;
			dst->parent = joints[j].end      ? joint_of_bone[joints[j].bone]
			              : bone->parent < 0 ? -1
			                                 : joint_of_bone[bone->parent];
			bool stretches = false;
			for (uint32_t k = 0; k < bone->dof_count; ++k) stretches |= bone->dof[k] == DOF_L;
			dst->has_track = joints[j].end ? stretches : 1;
			dst->source_index = joints[j].end         ? -1
			                    : joints[j].bone == 0 ? 0
			                    : bone->id >= 0       ? bone->id
			                                          : joints[j].bone;
		}
		// Per frame, then the default pose as a frame without values (rest pose).
		double angle = amc_degrees ? DEG_TO_RAD : 1.0;
		for (int64_t f = -1; f < (int64_t)p->frame_count && r == SINEW_RESULT_OK; ++f) {
			const double *values = f < 0 ? NULL : &p->values[(size_t)f * p->value_total];
			for (uint32_t j = 0; j < count; ++j) {
				const asf_bone *bone = &p->bones[joints[j].bone];
				sinew_qvv *out = f < 0 ? &clip->joints[j].default_pose : &clip->transforms[(size_t)f * count + j];
				bone_motion m;
				motion_of(bone, values, angle, &m);
				double q[4], t[3];
				if (joints[j].end) {
					double len = bone->length + m.dl;
					q[0] = q[1] = q[2] = 0.0, q[3] = 1.0;
					for (int k = 0; k < 3; ++k) t[k] = bone->direction[k] * len;
				} else if (joints[j].bone == 0) {
					sinewi_quat_mul_d(orient, m.q, q);
					sinewi_quat_rotate_d(orient, m.t, t);
					for (int k = 0; k < 3; ++k) t[k] += p->root_position[k];
				} else {
					double cm[4], conj[4] = {-bone->c[0], -bone->c[1], -bone->c[2], bone->c[3]};
					sinewi_quat_mul_d(bone->c, m.q, cm);
					sinewi_quat_mul_d(cm, conj, q);
					sinewi_quat_rotate_d(bone->c, m.t, t);
					if (bone->parent > 0) {
						const asf_bone *parent = &p->bones[bone->parent];
						double len = parent->length + length_change(parent, values);
						for (int k = 0; k < 3; ++k) t[k] += parent->direction[k] * len;
					}
				}
				store_qvv(q, t, out);
			}
		}
	}
	sinewi_free(&p->al, joints, max_joints * sizeof *joints);
	sinewi_free(&p->al, stack, p->bone_count * sizeof(int32_t));
	sinewi_free(&p->al, joint_of_bone, p->bone_count * sizeof(int32_t));
	return r;
}

sinew_result sinewi_import_amc(const sinewi_import_ctx *ctx, const unsigned char *data, size_t size,
                               sinew_clip_set *set, sinew_error *error) {
	const sinew_import_options *o = ctx->options;
	SINEWI_CHECK(o->unit_cm >= 0 && isfinite(o->unit_cm), error, SINEW_RESULT_INVALID_ARGUMENT,
	             "amc: unit_cm %g is not a positive length", o->unit_cm);
	SINEWI_CHECK(o->sample_rate >= 0 && isfinite(o->sample_rate), error, SINEW_RESULT_INVALID_ARGUMENT,
	             "amc: sample_rate %g is not a positive rate", o->sample_rate);
	amc_parser p;
	memset(&p, 0, sizeof p);
	p.ctx = ctx;
	p.al = sinewi_alloc_from(ctx->allocator);
	p.error = error;
	p.amc_where = ctx->path ? ctx->path : "amc";
	char asf_path[1024];
	sinew_result r = SINEW_RESULT_OK;
	if (!o->asf_path && o->asf_data) { // skeleton bytes from the caller (a NUL-terminated copy, as a file read gives)
		SINEWI_CHECK(o->asf_size < ((size_t)1 << 30), error, SINEW_RESULT_UNSUPPORTED, "asf: larger than 1 GiB");
		p.asf_data = (unsigned char *)sinewi_malloc(&p.al, o->asf_size + 1);
		SINEWI_CHECK(p.asf_data, error, SINEW_RESULT_OUT_OF_MEMORY, "asf: out of memory");
		memcpy(p.asf_data, o->asf_data, o->asf_size);
		p.asf_data[o->asf_size] = 0;
		p.asf_size = o->asf_size;
		snprintf(asf_path, sizeof asf_path, "asf");
	} else {
		r = find_asf(&p, asf_path, sizeof asf_path);
		if (r == SINEW_RESULT_OK) r = sinewi_read_file(asf_path, &p.al, &p.asf_data, &p.asf_size, error);
	}
	if (r == SINEW_RESULT_OK) {
		p.asf_where = asf_path;
		r = parse_asf(&p);
	}
	bool degrees = true;
	if (r == SINEW_RESULT_OK) r = parse_amc(&p, data, size, &degrees);
	if (r == SINEW_RESULT_OK) r = build_clip(&p, set, degrees);
	sinewi_free(&p.al, p.values, p.values_capacity * sizeof(double));
	sinewi_free(&p.al, p.table, (size_t)(p.table_mask + 1) * sizeof(uint32_t));
	sinewi_free(&p.al, p.bones, p.bone_capacity * sizeof *p.bones);
	if (p.asf_data) sinewi_free(&p.al, p.asf_data, p.asf_size + 1);
	return r;
}
