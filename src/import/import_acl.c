// sinew — see include/sinew.h for version and licence
// ACL raw clip files (.acl.sjson, versions 1 to 5), read with the meaning ACL's own reader
// (acl/io/clip_reader.h) gives them:
//   - transform clips (`clip`, `settings`, `bones`, `tracks`): one sinew clip, a joint per bone in file
//     order; a sub-track missing from a bone's track is the identity, as in ACL; a bone with no track
//     at all holds its bind pose (ACL cannot compress such a file; we warn and keep going);
//   - track lists (`track_list`, `tracks`): float1f..float4f and vector4f tracks become scalar tracks
//     placed at their output_index (ACL's output order; the invalid index strips a track), qvvf tracks
//     become joints (parent_index, shell_distance, bind pose).
// With `is_binary_exact = true`, values are the raw bits in hex: doubles in clips ("3FF0000000000000"),
// floats in track lists ("3F800000"); decimal values are accepted there too.
// Units: ACL clips are in centimetres, values are kept as written and unit_scale says so.
#include "import_internal.h"
#include "sjson.h"
#include "../core/quat.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define ACL_LATEST_VERSION 5
#define ACL_INVALID_INDEX 0xFFFFFFFFu
#define ACL_DEFAULT_ERROR_CM 0.01
#define ACL_DEFAULT_SCALAR_PRECISION 0.0001
#define NONE SINEWI_SJSON_NONE
// A clip may declare more samples than its text holds only for bones without tracks; cap what a
// small hostile file can make us allocate (floats in the clip).
#define MIN_VALUE_LIMIT ((uint64_t)1 << 24)
#define VALUES_PER_INPUT_BYTE 16u
#define HUGE_VALUE 1e7 // values beyond 100 km (in cm) are reported: the error metric may overflow on them

typedef struct reader {
	const sinewi_import_ctx *ctx;
	sinewi_sjson_doc doc;
	const char *label;
	sinew_error *error;
	sinewi_alloc alloc;
	size_t input_size;
	bool binary_exact;
	uint32_t num_samples;
	double sample_rate;
	uint32_t name; // node of the clip or list name, or NONE
	double huge_value;
	char huge_where[96];
} reader;

/* ---- errors and small readers ---- */

static sinew_result fail_at(const reader *r, uint32_t node, sinew_result code, const char *fmt, ...)
    SINEWI_PRINTF(4, 5);
static sinew_result fail_at(const reader *r, uint32_t node, sinew_result code, const char *fmt, ...) {
	char message[224];
	va_list args;
	va_start(args, fmt);
	vsnprintf(message, sizeof message, fmt, args);
	va_end(args);
	if (node != NONE) return sinewi_fail(r->error, code, "%s:%u: %s", r->label, r->doc.nodes[node].line, message);
	return sinewi_fail(r->error, code, "%s: %s", r->label, message);
}

// Node text for messages, clipped so that a message always fits.
#define TEXT(r, node, buffer) sinewi_sjson_text(&(r)->doc, (node), (buffer), sizeof(buffer))

static uint32_t type_of(const reader *r, uint32_t node) {
	return sinewi_sjson_type_of(&r->doc, node);
}

static sinew_result find_key(const reader *r, uint32_t object, const char *key, uint32_t *out) {
	uint32_t duplicate;
	*out = sinewi_sjson_find(&r->doc, object, key, &duplicate);
	if (duplicate != NONE) return fail_at(r, duplicate, SINEW_RESULT_PARSE, "key '%s' appears twice", key);
	return SINEW_RESULT_OK;
}

static sinew_result require_key(const reader *r, uint32_t object, const char *where, const char *key, uint32_t *out) {
	SINEWI_TRY(find_key(r, object, key, out));
	if (*out == NONE) return fail_at(r, object, SINEW_RESULT_PARSE, "%s: missing key '%s'", where, key);
	return SINEW_RESULT_OK;
}

static sinew_result expect_type(const reader *r, uint32_t node, uint32_t type, const char *what) {
	if (type_of(r, node) == type) return SINEW_RESULT_OK;
	char text[40];
	return fail_at(r, node, SINEW_RESULT_PARSE, "%s must be %s, found '%s'", what,
	               type == SINEWI_SJSON_OBJECT ? "an object { }" : "an array [ ]", TEXT(r, node, text));
}

// A number. `bits` (32 or 64) also allows the binary-exact hex form; 0 = decimal only.
static bool real_value(const reader *r, uint32_t node, unsigned bits, double *out) {
	if (bits && r->binary_exact) {
		uint64_t raw;
		if (sinewi_sjson_hex_bits(&r->doc, node, bits / 4, &raw)) {
			if (bits == 64) {
				double d;
				memcpy(&d, &raw, sizeof d);
				*out = d;
			} else {
				uint32_t u = (uint32_t)raw;
				float f;
				memcpy(&f, &u, sizeof f);
				*out = f;
			}
			return true;
		}
	}
	return sinewi_sjson_number(&r->doc, node, out);
}

static sinew_result read_real(const reader *r, uint32_t node, unsigned bits, const char *what, double *out) {
	if (real_value(r, node, bits, out)) return SINEW_RESULT_OK;
	char text[40];
	return fail_at(r, node, SINEW_RESULT_PARSE, "%s: '%s' is not a number", what, TEXT(r, node, text));
}

static sinew_result read_u32(const reader *r, uint32_t node, const char *what, uint32_t *out) {
	double v;
	char text[40];
	if (!sinewi_sjson_number(&r->doc, node, &v) || !(v >= 0.0 && v <= 4294967295.0) || v != floor(v))
		return fail_at(r, node, SINEW_RESULT_PARSE, "%s: '%s' is not an unsigned 32-bit integer", what,
		               TEXT(r, node, text));
	*out = (uint32_t)v;
	return SINEW_RESULT_OK;
}

static bool to_float(double d, float *out) {
	if (!(fabs(d) <= FLT_MAX)) return false; // NaN, infinity, or beyond the float range
	*out = (float)d;
	return true;
}

// What a value belongs to, formatted only when a message needs it: "bone 3 'hip' rotations sample 7".
typedef struct where {
	const char *kind; // "bone", "track"
	uint32_t index;
	uint32_t name;    // name node or NONE
	const char *part; // "rotations", "bind_rotation", "data", ...
} where;

static const char *describe(const reader *r, const where *w, uint32_t sample, char *buffer, size_t size) {
	char name[48];
	sinewi_sjson_text(&r->doc, w->name, name, sizeof name);
	if (sample == NONE)
		snprintf(buffer, size, "%s %u '%s' %s", w->kind, w->index, name, w->part);
	else
		snprintf(buffer, size, "%s %u '%s' %s sample %u", w->kind, w->index, name, w->part, sample);
	return buffer;
}

// Reads an array of exactly `n` numbers into out[0..n).
static sinew_result read_vector(const reader *r, uint32_t node, uint32_t n, unsigned bits, double *out, const where *w,
                                uint32_t sample) {
	const sinewi_sjson_node *a = &r->doc.nodes[node];
	char at[128], text[40];
	if (a->type != SINEWI_SJSON_ARRAY)
		return fail_at(r, node, SINEW_RESULT_PARSE, "%s must be an array of %u numbers, found '%s'",
		               describe(r, w, sample, at, sizeof at), n, TEXT(r, node, text));
	if (a->count != n)
		return fail_at(r, node, SINEW_RESULT_BAD_COUNT, "%s has %u values, expected %u",
		               describe(r, w, sample, at, sizeof at), a->count, n);
	uint32_t e = node + 1;
	for (uint32_t i = 0; i < n; ++i, e = r->doc.nodes[e].next)
		if (!real_value(r, e, bits, &out[i]))
			return fail_at(r, e, SINEW_RESULT_PARSE, "%s: '%s' is not a number", describe(r, w, sample, at, sizeof at),
			               TEXT(r, e, text));
	return SINEW_RESULT_OK;
}

// Rotation: normalized in double, then stored as float (files are often slightly off unit length).
static sinew_result read_rotation(const reader *r, uint32_t node, unsigned bits, float out[4], const where *w,
                                  uint32_t sample) {
	double q[4];
	SINEWI_TRY(read_vector(r, node, 4, bits, q, w, sample));
	char at[128];
	if (!(isfinite(q[0]) && isfinite(q[1]) && isfinite(q[2]) && isfinite(q[3])))
		return fail_at(r, node, SINEW_RESULT_NOT_FINITE, "%s is not finite", describe(r, w, sample, at, sizeof at));
	double len2 = sinewi_quat_dot_d(q, q);
	if (!(len2 > 1e-12) || !isfinite(len2))
		return fail_at(r, node, SINEW_RESULT_NOT_UNIT_QUATERNION, "%s has length %g, cannot be normalized",
		               describe(r, w, sample, at, sizeof at), sqrt(len2));
	sinewi_quat_normalize_d(q);
	for (int i = 0; i < 4; ++i) out[i] = (float)q[i];
	return SINEW_RESULT_OK;
}

// Translation or scale (n = 3) or scalar sample (n = 1..4) as floats.
static sinew_result read_floats(reader *r, uint32_t node, uint32_t n, unsigned bits, float *out, const where *w,
                                uint32_t sample) {
	double v[4];
	SINEWI_TRY(read_vector(r, node, n, bits, v, w, sample));
	for (uint32_t i = 0; i < n; ++i) {
		if (!to_float(v[i], &out[i])) {
			char at[128];
			return fail_at(r, node, SINEW_RESULT_NOT_FINITE,
			               "%s component %u (%g) is not finite or outside the float range",
			               describe(r, w, sample, at, sizeof at), i, v[i]);
		}
		if (fabs(v[i]) > r->huge_value) {
			r->huge_value = fabs(v[i]);
			describe(r, w, sample, r->huge_where, sizeof r->huge_where);
		}
	}
	return SINEW_RESULT_OK;
}

/* ---- names ---- */

// Bone names sorted (merge sort, then binary search): resolving parents and tracks costs
// O(n log n) whatever the names are, with no hash collisions for a hostile file to exploit.
typedef struct name_ref {
	const char *text;
	uint32_t length;
	uint32_t index; // bone index; breaks ties so that the first of equal names sorts first
} name_ref;

static int compare_text(const char *a, uint32_t na, const char *b, uint32_t nb) {
	int c = memcmp(a, b, na < nb ? na : nb);
	return c ? c : (na > nb) - (na < nb);
}

static int compare_names(const name_ref *a, const name_ref *b) {
	int c = compare_text(a->text, a->length, b->text, b->length);
	return c ? c : (a->index > b->index) - (a->index < b->index);
}

// Bottom-up merge sort of refs[0..n) using tmp[0..n).
static void sort_names(name_ref *refs, name_ref *tmp, uint32_t n) {
	name_ref *from = refs, *to = tmp;
	for (uint32_t width = 1; width < n; width *= 2) {
		for (uint32_t lo = 0; lo < n; lo += 2 * width) {
			uint32_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
			uint32_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi) to[k++] = compare_names(&from[j], &from[i]) < 0 ? from[j++] : from[i++];
			while (i < mid) to[k++] = from[i++];
			while (j < hi) to[k++] = from[j++];
		}
		name_ref *swap = from;
		from = to, to = swap;
	}
	if (from != refs) memcpy(refs, from, (size_t)n * sizeof *refs);
}

// Bone index of the first bone named like `node`, or NONE.
static uint32_t find_bone(const reader *r, const name_ref *sorted, uint32_t n, uint32_t node) {
	const sinewi_sjson_node *x = &r->doc.nodes[node];
	const char *text = r->doc.text + x->start;
	uint32_t lo = 0, hi = n; // lower bound
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (compare_text(sorted[mid].text, sorted[mid].length, text, x->length) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && compare_text(sorted[lo].text, sorted[lo].length, text, x->length) == 0) return sorted[lo].index;
	return NONE;
}

static const char *copy_name(reader *r, sinew_clip_set *set, uint32_t node) {
	if (node == NONE) return NULL;
	const sinewi_sjson_node *n = &r->doc.nodes[node];
	char *s = (char *)sinew_clip_set_alloc(set, (size_t)n->length + 1);
	if (s) memcpy(s, r->doc.text + n->start, n->length);
	return s;
}

static bool is_name(const reader *r, uint32_t node) {
	uint32_t t = type_of(r, node);
	return t == SINEWI_SJSON_STRING || t == SINEWI_SJSON_BARE;
}

/* ---- header (clip or track_list object) ---- */

static sinew_result read_header(reader *r, uint32_t header, const char *what) {
	SINEWI_TRY(expect_type(r, header, SINEWI_SJSON_OBJECT, what));
	uint32_t name, samples, rate, exact;
	SINEWI_TRY(find_key(r, header, "name", &name));
	SINEWI_TRY(require_key(r, header, what, "num_samples", &samples));
	SINEWI_TRY(require_key(r, header, what, "sample_rate", &rate));
	SINEWI_TRY(find_key(r, header, "is_binary_exact", &exact));
	char text[40];
	if (name != NONE && !is_name(r, name))
		return fail_at(r, name, SINEW_RESULT_PARSE, "%s name must be a string, found '%s'", what, TEXT(r, name, text));
	r->name = name != NONE && r->doc.nodes[name].length > 0 ? name : NONE;
	SINEWI_TRY(read_u32(r, samples, "num_samples", &r->num_samples));
	if (r->num_samples == 0) return fail_at(r, samples, SINEW_RESULT_NO_SAMPLES, "num_samples is 0");
	SINEWI_TRY(read_real(r, rate, 0, "sample_rate", &r->sample_rate));
	if (!(isfinite(r->sample_rate) && r->sample_rate > 0.0))
		return fail_at(r, rate, SINEW_RESULT_BAD_SAMPLE_RATE, "sample_rate %g is not a positive finite number",
		               r->sample_rate);
	if (exact != NONE && !sinewi_sjson_bool(&r->doc, exact, &r->binary_exact))
		return fail_at(r, exact, SINEW_RESULT_PARSE, "is_binary_exact must be true or false, found '%s'",
		               TEXT(r, exact, text));
	return SINEW_RESULT_OK;
}

// Clip name: the file's, else the file name without its extension.
static const char *clip_name(reader *r, char *buffer, size_t size) {
	if (r->name != NONE) return NULL; // copied from the document by the caller
	const char *path = r->ctx->path;
	if (!path) return NULL;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	if (n > 10 && strcmp(base + n - 10, ".acl.sjson") == 0)
		n -= 10;
	else if (n > 6 && strcmp(base + n - 6, ".sjson") == 0)
		n -= 6;
	if (n >= size) n = size - 1;
	memcpy(buffer, base, n);
	buffer[n] = 0;
	return buffer;
}

static sinew_result add_clip(reader *r, sinew_clip_set *set, uint32_t joints, uint32_t scalars,
                             const uint32_t *components, sinew_clip **out) {
	char name[256];
	sinew_clip_desc desc = {0};
	desc.name = clip_name(r, name, sizeof name);
	desc.sample_rate = r->sample_rate;
	desc.sample_count = r->num_samples;
	desc.joint_count = joints;
	desc.scalar_track_count = scalars;
	desc.scalar_components = components;
	sinew_result res = sinew_clip_set_add_clip(set, &desc, out);
	if (res != SINEW_RESULT_OK) return fail_at(r, NONE, res, "cannot create the clip (%s)", sinew_error_string(res));
	if (r->name != NONE) {
		(*out)->name = copy_name(r, set, r->name);
		if (!(*out)->name) return fail_at(r, NONE, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	}
	double unit_cm = r->ctx->options->unit_cm > 0.0 ? r->ctx->options->unit_cm : 1.0;
	(*out)->unit_scale = 100.0 / unit_cm;
	return SINEW_RESULT_OK;
}

static void warn_threshold(reader *r, uint32_t node) {
	double t;
	if (node == NONE || !sinewi_sjson_number(&r->doc, node, &t)) return;
	if (!(isfinite(t) && t > 0.0))
		sinewi_import_warn(r->ctx, "%s:%u: error_threshold %g is not a positive finite number; ignored", r->label,
		                   r->doc.nodes[node].line, t);
	else if (fabs(t - ACL_DEFAULT_ERROR_CM) > 1e-9)
		sinewi_import_warn(r->ctx,
		                   "%s:%u: the file asks for an error threshold of %g cm; sinew uses the compression options "
		                   "(default %g cm)",
		                   r->label, r->doc.nodes[node].line, t, SINEW_DEFAULT_ERROR_CM);
}

/* ---- transform clips ---- */

typedef struct bone_info {
	uint32_t object; // bone object node
	uint32_t name;   // name node
	uint32_t track;  // track object node, or NONE
	int32_t parent;
} bone_info;

// The sub-tracks of one bone; each optional, each must hold num_samples entries.
static const char *const sub_track_keys[3] = {"rotations", "translations", "scales"};

static sinew_result check_track(reader *r, uint32_t track, const bone_info *bone, uint32_t index, uint32_t subs[3]) {
	for (int k = 0; k < 3; ++k) {
		SINEWI_TRY(find_key(r, track, sub_track_keys[k], &subs[k]));
		if (subs[k] == NONE) continue;
		where w = {"bone", index, bone->name, sub_track_keys[k]};
		char at[128], text[40];
		if (type_of(r, subs[k]) != SINEWI_SJSON_ARRAY)
			return fail_at(r, subs[k], SINEW_RESULT_PARSE, "%s must be an array of samples, found '%s'",
			               describe(r, &w, NONE, at, sizeof at), TEXT(r, subs[k], text));
		uint32_t count = r->doc.nodes[subs[k]].count;
		if (count != r->num_samples)
			return fail_at(r, subs[k], SINEW_RESULT_BAD_COUNT, "%s has %u samples, expected num_samples = %u",
			               describe(r, &w, NONE, at, sizeof at), count, r->num_samples);
	}
	return SINEW_RESULT_OK;
}

static sinew_result fill_bone(reader *r, sinew_clip *clip, uint32_t j, const bone_info *bone) {
	sinew_joint *joint = &clip->joints[j];
	uint32_t distance, bind[3];
	SINEWI_TRY(require_key(r, bone->object, "bone", "vertex_distance", &distance));
	SINEWI_TRY(find_key(r, bone->object, "bind_rotation", &bind[0]));
	SINEWI_TRY(find_key(r, bone->object, "bind_translation", &bind[1]));
	SINEWI_TRY(find_key(r, bone->object, "bind_scale", &bind[2]));
	double d;
	char at[128];
	where w = {"bone", j, bone->name, "vertex_distance"};
	SINEWI_TRY(read_real(r, distance, 0, describe(r, &w, NONE, at, sizeof at), &d));
	if (!(isfinite(d) && d >= 0.0 && d <= FLT_MAX))
		return fail_at(r, distance, SINEW_RESULT_BAD_PRECISION, "%s %g is not a positive finite distance", at, d);
	joint->shell_distance = (float)d; // 0 = the compressor's default
	sinew_qvv *pose = &joint->default_pose;
	w.part = "bind_rotation";
	if (bind[0] != NONE) SINEWI_TRY(read_rotation(r, bind[0], 64, pose->rotation, &w, NONE));
	w.part = "bind_translation";
	if (bind[1] != NONE) SINEWI_TRY(read_floats(r, bind[1], 3, 64, pose->translation, &w, NONE));
	w.part = "bind_scale";
	if (bind[2] != NONE) SINEWI_TRY(read_floats(r, bind[2], 3, 64, pose->scale, &w, NONE));
	return SINEW_RESULT_OK;
}

static sinew_result fill_track(reader *r, sinew_clip *clip, uint32_t j, const bone_info *bone, const uint32_t subs[3]) {
	uint32_t n = clip->joint_count;
	for (int k = 0; k < 3; ++k) {
		if (subs[k] == NONE) continue; // missing sub-track: identity (ACL), as add_clip initialized it
		where w = {"bone", j, bone->name, sub_track_keys[k]};
		uint32_t e = sinewi_sjson_first(&r->doc, subs[k]);
		for (uint32_t s = 0; s < r->num_samples; ++s, e = sinewi_sjson_next(&r->doc, e)) {
			sinew_qvv *x = &clip->transforms[(size_t)s * n + j];
			if (k == 0)
				SINEWI_TRY(read_rotation(r, e, 64, x->rotation, &w, s));
			else
				SINEWI_TRY(read_floats(r, e, 3, 64, k == 1 ? x->translation : x->scale, &w, s));
		}
	}
	return SINEW_RESULT_OK;
}

static sinew_result import_clip(reader *r, uint32_t header, sinew_clip_set *set) {
	SINEWI_TRY(read_header(r, header, "clip"));
	uint32_t settings, bones, tracks, additive, base_tracks, threshold, settings_threshold = NONE;
	SINEWI_TRY(find_key(r, 0, "settings", &settings));
	SINEWI_TRY(require_key(r, 0, "top level", "bones", &bones));
	SINEWI_TRY(require_key(r, 0, "top level", "tracks", &tracks));
	SINEWI_TRY(find_key(r, 0, "base_tracks", &base_tracks));
	SINEWI_TRY(find_key(r, header, "additive_format", &additive));
	SINEWI_TRY(find_key(r, header, "error_threshold", &threshold)); // version 1
	if (settings != NONE) {
		SINEWI_TRY(expect_type(r, settings, SINEWI_SJSON_OBJECT, "settings"));
		SINEWI_TRY(find_key(r, settings, "error_threshold", &settings_threshold));
	}
	SINEWI_TRY(expect_type(r, bones, SINEWI_SJSON_ARRAY, "bones"));
	SINEWI_TRY(expect_type(r, tracks, SINEWI_SJSON_ARRAY, "tracks"));
	uint32_t n = r->doc.nodes[bones].count;
	if (n == 0)
		return fail_at(r, bones, SINEW_RESULT_BAD_COUNT, "no tracks: the clip has no bones (%u track entries)",
		               r->doc.nodes[tracks].count);

	// Bones first (names, parents), tracks next; nothing is allocated in the set until every count
	// in the file has been checked.
	if (n > ((uint32_t)1 << 28))
		return fail_at(r, bones, SINEW_RESULT_UNSUPPORTED, "%u bones is more than this reader supports", n);
	bone_info *info = (bone_info *)sinewi_calloc(&r->alloc, n, sizeof *info);
	name_ref *sorted = (name_ref *)sinewi_calloc(&r->alloc, n, sizeof *sorted);
	name_ref *tmp = (name_ref *)sinewi_calloc(&r->alloc, n, sizeof *tmp);
	sinew_result res = SINEW_RESULT_OK;
	if (!info || !sorted || !tmp) {
		res = fail_at(r, bones, SINEW_RESULT_OUT_OF_MEMORY, "out of memory for %u bones", n);
		goto done;
	}
	char text[48], text2[48];

	uint32_t b = sinewi_sjson_first(&r->doc, bones);
	for (uint32_t j = 0; j < n; ++j, b = sinewi_sjson_next(&r->doc, b)) {
		char what[32];
		snprintf(what, sizeof what, "bones[%u]", j);
		if ((res = expect_type(r, b, SINEWI_SJSON_OBJECT, what)) != SINEW_RESULT_OK) goto done;
		if ((res = require_key(r, b, what, "name", &info[j].name)) != SINEW_RESULT_OK) goto done;
		if (!is_name(r, info[j].name)) {
			res = fail_at(r, info[j].name, SINEW_RESULT_PARSE, "%s name must be a string, found '%s'", what,
			              TEXT(r, info[j].name, text));
			goto done;
		}
		info[j].object = b;
		info[j].track = NONE;
		const sinewi_sjson_node *name = &r->doc.nodes[info[j].name];
		sorted[j].text = r->doc.text + name->start;
		sorted[j].length = name->length;
		sorted[j].index = j;
	}
	sort_names(sorted, tmp, n);
	for (uint32_t k = 1; k < n; ++k) {
		if (compare_text(sorted[k - 1].text, sorted[k - 1].length, sorted[k].text, sorted[k].length) == 0) {
			uint32_t j = sorted[k].index;
			res = fail_at(r, info[j].name, SINEW_RESULT_CORRUPT, "bone %u '%s' has the same name as bone %u", j,
			              TEXT(r, info[j].name, text), sorted[k - 1].index);
			goto done;
		}
	}
	for (uint32_t j = 0; j < n; ++j) {
		uint32_t parent;
		if ((res = require_key(r, info[j].object, "bone", "parent", &parent)) != SINEW_RESULT_OK) goto done;
		if (!is_name(r, parent)) {
			res = fail_at(r, parent, SINEW_RESULT_PARSE, "bone %u parent must be a string, found '%s'", j,
			              TEXT(r, parent, text));
			goto done;
		}
		if (r->doc.nodes[parent].length == 0) {
			info[j].parent = -1; // "" = a root; several roots are allowed
			continue;
		}
		uint32_t p = find_bone(r, sorted, n, parent);
		if (p == NONE) {
			res = fail_at(r, parent, SINEW_RESULT_BAD_PARENT, "bone %u '%s': parent '%s' is not a bone", j,
			              TEXT(r, info[j].name, text), TEXT(r, parent, text2));
			goto done;
		}
		if (p >= j) {
			res = fail_at(r, parent, SINEW_RESULT_BAD_PARENT,
			              "bone %u '%s': parent '%s' (bone %u) must be listed before it", j,
			              TEXT(r, info[j].name, text), TEXT(r, parent, text2), p);
			goto done;
		}
		info[j].parent = (int32_t)p;
	}

	uint32_t t = sinewi_sjson_first(&r->doc, tracks);
	uint32_t with_track = 0;
	for (uint32_t i = 0; i < r->doc.nodes[tracks].count; ++i, t = sinewi_sjson_next(&r->doc, t)) {
		char what[32];
		snprintf(what, sizeof what, "tracks[%u]", i);
		uint32_t name, subs[3];
		if ((res = expect_type(r, t, SINEWI_SJSON_OBJECT, what)) != SINEW_RESULT_OK) goto done;
		if ((res = require_key(r, t, what, "name", &name)) != SINEW_RESULT_OK) goto done;
		uint32_t j = is_name(r, name) ? find_bone(r, sorted, n, name) : NONE;
		if (j == NONE) {
			res = fail_at(r, name, SINEW_RESULT_CORRUPT, "%s names no bone ('%s')", what, TEXT(r, name, text));
			goto done;
		}
		if (info[j].track != NONE) {
			res = fail_at(r, t, SINEW_RESULT_CORRUPT, "bone %u '%s' has a second track (%s)", j, TEXT(r, name, text),
			              what);
			goto done;
		}
		if ((res = check_track(r, t, &info[j], j, subs)) != SINEW_RESULT_OK) goto done;
		info[j].track = t;
		++with_track;
	}

	// Bones without a track make the clip larger than its text: bound what a small file can ask for.
	uint64_t values = (uint64_t)r->num_samples * n * 10u;
	uint64_t limit = (uint64_t)r->input_size * VALUES_PER_INPUT_BYTE;
	if (limit < MIN_VALUE_LIMIT) limit = MIN_VALUE_LIMIT;
	if (values > limit) {
		res = fail_at(r, header, SINEW_RESULT_UNSUPPORTED,
		              "%u samples x %u bones (%u with a track) would expand %zu bytes of text to %llu values",
		              r->num_samples, n, with_track, r->input_size, (unsigned long long)values);
		goto done;
	}

	sinew_clip *clip = NULL;
	if ((res = add_clip(r, set, n, 0, NULL, &clip)) != SINEW_RESULT_OK) goto done;
	for (uint32_t j = 0; j < n; ++j) {
		sinew_joint *joint = &clip->joints[j];
		joint->name = copy_name(r, set, info[j].name);
		if (!joint->name) {
			res = fail_at(r, NONE, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
			goto done;
		}
		joint->parent = info[j].parent;
		joint->source_index = (int32_t)j;
		if ((res = fill_bone(r, clip, j, &info[j])) != SINEW_RESULT_OK) goto done;
		if (info[j].track != NONE) {
			uint32_t subs[3];
			for (int k = 0; k < 3; ++k) subs[k] = sinewi_sjson_find(&r->doc, info[j].track, sub_track_keys[k], NULL);
			if ((res = fill_track(r, clip, j, &info[j], subs)) != SINEW_RESULT_OK) goto done;
		} else {
			for (uint32_t s = 0; s < r->num_samples; ++s) clip->transforms[(size_t)s * n + j] = joint->default_pose;
		}
	}

	// Non-fatal notes.
	if (with_track < n) {
		uint32_t first = 0;
		while (info[first].track != NONE) ++first;
		sinewi_import_warn(r->ctx, "%s: %u of %u bones have no track (first: '%s'); they hold their bind pose",
		                   r->label, n - with_track, n, TEXT(r, info[first].name, text));
	}
	warn_threshold(r, settings_threshold != NONE ? settings_threshold : threshold);
	if (additive != NONE && !sinewi_sjson_equals(&r->doc, additive, "none") &&
	    !sinewi_sjson_equals(&r->doc, additive, "None"))
		sinewi_import_warn(r->ctx, "%s:%u: additive clip (additive_format '%s'): imported as is, without its base clip",
		                   r->label, r->doc.nodes[additive].line, TEXT(r, additive, text));
	if (base_tracks != NONE)
		sinewi_import_warn(r->ctx, "%s:%u: base_tracks (the additive base clip) are not imported", r->label,
		                   r->doc.nodes[base_tracks].line);
done:
	sinewi_free(&r->alloc, info, (size_t)n * sizeof *info);
	sinewi_free(&r->alloc, sorted, (size_t)n * sizeof *sorted);
	sinewi_free(&r->alloc, tmp, (size_t)n * sizeof *tmp);
	return res;
}

/* ---- track lists ---- */

typedef struct list_track {
	uint32_t object, name, data;
	uint32_t components; // 1..4 for scalar tracks, 0 for qvvf
	uint32_t output;     // output_index; ACL_INVALID_INDEX strips the track
	uint32_t parent;     // qvvf: parent track index or ACL_INVALID_INDEX
	double precision;
	double shell;
} list_track;

static sinew_result read_track_type(const reader *r, uint32_t node, uint32_t *components) {
	static const struct {
		const char *name;
		uint32_t components;
	} types[] = {{"float1f", 1}, {"float2f", 2}, {"float3f", 3}, {"float4f", 4}, {"vector4f", 4}, {"qvvf", 0}};
	for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i) {
		if (sinewi_sjson_equals(&r->doc, node, types[i].name)) {
			*components = types[i].components;
			return SINEW_RESULT_OK;
		}
	}
	char text[40];
	return fail_at(r, node, SINEW_RESULT_UNSUPPORTED,
	               "unknown track type '%s' (expected float1f, float2f, float3f, float4f, vector4f or qvvf)",
	               TEXT(r, node, text));
}

static sinew_result check_list_track(reader *r, uint32_t node, uint32_t i, list_track *t) {
	char what[32], text[40], at[128];
	snprintf(what, sizeof what, "tracks[%u]", i);
	SINEWI_TRY(expect_type(r, node, SINEWI_SJSON_OBJECT, what));
	uint32_t type, precision, output, parent, shell;
	t->object = node;
	SINEWI_TRY(find_key(r, node, "name", &t->name));
	SINEWI_TRY(require_key(r, node, what, "type", &type));
	SINEWI_TRY(find_key(r, node, "precision", &precision));
	SINEWI_TRY(find_key(r, node, "output_index", &output));
	SINEWI_TRY(find_key(r, node, "parent_index", &parent));
	SINEWI_TRY(find_key(r, node, "shell_distance", &shell));
	SINEWI_TRY(require_key(r, node, what, "data", &t->data));
	if (t->name != NONE && !is_name(r, t->name))
		return fail_at(r, t->name, SINEW_RESULT_PARSE, "%s name must be a string, found '%s'", what,
		               TEXT(r, t->name, text));
	SINEWI_TRY(read_track_type(r, type, &t->components));
	where w = {"track", i, t->name, "precision"};
	t->precision = t->components ? ACL_DEFAULT_SCALAR_PRECISION : ACL_DEFAULT_ERROR_CM;
	if (precision != NONE) {
		SINEWI_TRY(read_real(r, precision, 32, describe(r, &w, NONE, at, sizeof at), &t->precision));
		if (!(isfinite(t->precision) && t->precision > 0.0 && t->precision <= FLT_MAX))
			return fail_at(r, precision, SINEW_RESULT_BAD_PRECISION, "%s %g is not a positive finite number", at,
			               t->precision);
	}
	t->output = i;
	if (output != NONE) SINEWI_TRY(read_u32(r, output, "output_index", &t->output));
	t->parent = ACL_INVALID_INDEX;
	if (parent != NONE) SINEWI_TRY(read_u32(r, parent, "parent_index", &t->parent));
	t->shell = 0.0;
	if (shell != NONE) {
		w.part = "shell_distance";
		SINEWI_TRY(read_real(r, shell, 32, describe(r, &w, NONE, at, sizeof at), &t->shell));
		if (!(isfinite(t->shell) && t->shell >= 0.0 && t->shell <= FLT_MAX))
			return fail_at(r, shell, SINEW_RESULT_BAD_PRECISION, "%s %g is not a positive finite distance", at,
			               t->shell);
	}
	w.part = "data";
	if (type_of(r, t->data) != SINEWI_SJSON_ARRAY)
		return fail_at(r, t->data, SINEW_RESULT_PARSE, "%s must be an array of samples, found '%s'",
		               describe(r, &w, NONE, at, sizeof at), TEXT(r, t->data, text));
	if (r->doc.nodes[t->data].count != r->num_samples)
		return fail_at(r, t->data, SINEW_RESULT_BAD_COUNT, "%s has %u samples, expected num_samples = %u",
		               describe(r, &w, NONE, at, sizeof at), r->doc.nodes[t->data].count, r->num_samples);
	return SINEW_RESULT_OK;
}

static sinew_result fill_scalar_track(reader *r, sinew_clip_set *set, sinew_scalar_track *dst, const list_track *t,
                                      uint32_t i) {
	dst->name = copy_name(r, set, t->name);
	if (t->name != NONE && !dst->name) return fail_at(r, NONE, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	dst->precision = (float)t->precision;
	where w = {"track", i, t->name, "data"};
	uint32_t e = sinewi_sjson_first(&r->doc, t->data);
	for (uint32_t s = 0; s < r->num_samples; ++s, e = sinewi_sjson_next(&r->doc, e))
		SINEWI_TRY(read_floats(r, e, t->components, 32, dst->values + (size_t)s * t->components, &w, s));
	return SINEW_RESULT_OK;
}

static sinew_result fill_transform_track(reader *r, sinew_clip_set *set, sinew_clip *clip, const list_track *t,
                                         uint32_t i) {
	sinew_joint *joint = &clip->joints[i];
	joint->name = copy_name(r, set, t->name);
	if (t->name != NONE && !joint->name) return fail_at(r, NONE, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	joint->parent = t->parent == ACL_INVALID_INDEX ? -1 : (int32_t)t->parent;
	joint->source_index = (int32_t)i;
	joint->shell_distance = (float)t->shell;
	joint->has_track = t->output != ACL_INVALID_INDEX; // stripped: kept for the hierarchy only
	uint32_t bind[3];
	SINEWI_TRY(find_key(r, t->object, "bind_rotation", &bind[0]));
	SINEWI_TRY(find_key(r, t->object, "bind_translation", &bind[1]));
	SINEWI_TRY(find_key(r, t->object, "bind_scale", &bind[2]));
	sinew_qvv *pose = &joint->default_pose;
	where w = {"track", i, t->name, "bind_rotation"};
	if (bind[0] != NONE) SINEWI_TRY(read_rotation(r, bind[0], 32, pose->rotation, &w, NONE));
	w.part = "bind_translation";
	if (bind[1] != NONE) SINEWI_TRY(read_floats(r, bind[1], 3, 32, pose->translation, &w, NONE));
	w.part = "bind_scale";
	if (bind[2] != NONE) SINEWI_TRY(read_floats(r, bind[2], 3, 32, pose->scale, &w, NONE));

	uint32_t n = clip->joint_count;
	uint32_t e = sinewi_sjson_first(&r->doc, t->data);
	for (uint32_t s = 0; s < r->num_samples; ++s, e = sinewi_sjson_next(&r->doc, e)) {
		// [ [ rotation ], [ translation ], [ scale ] ], all three required
		sinew_qvv *x = &clip->transforms[(size_t)s * n + i];
		w.part = "data";
		char at[128], text[40];
		if (type_of(r, e) != SINEWI_SJSON_ARRAY || r->doc.nodes[e].count != 3)
			return fail_at(r, e, type_of(r, e) != SINEWI_SJSON_ARRAY ? SINEW_RESULT_PARSE : SINEW_RESULT_BAD_COUNT,
			               "%s must be [ [rotation], [translation], [scale] ], found '%s' with %u entries",
			               describe(r, &w, s, at, sizeof at), TEXT(r, e, text), r->doc.nodes[e].count);
		uint32_t part = e + 1;
		w.part = "data rotation";
		SINEWI_TRY(read_rotation(r, part, 32, x->rotation, &w, s));
		part = sinewi_sjson_next(&r->doc, part);
		w.part = "data translation";
		SINEWI_TRY(read_floats(r, part, 3, 32, x->translation, &w, s));
		part = sinewi_sjson_next(&r->doc, part);
		w.part = "data scale";
		SINEWI_TRY(read_floats(r, part, 3, 32, x->scale, &w, s));
	}
	return SINEW_RESULT_OK;
}

static sinew_result import_track_list(reader *r, uint32_t header, sinew_clip_set *set) {
	SINEWI_TRY(read_header(r, header, "track_list"));
	uint32_t tracks;
	SINEWI_TRY(require_key(r, 0, "top level", "tracks", &tracks));
	SINEWI_TRY(expect_type(r, tracks, SINEWI_SJSON_ARRAY, "tracks"));
	uint32_t n = r->doc.nodes[tracks].count;
	if (n == 0) return fail_at(r, tracks, SINEW_RESULT_BAD_COUNT, "no tracks: the track list is empty");
	if (n > ((uint32_t)1 << 28))
		return fail_at(r, tracks, SINEW_RESULT_UNSUPPORTED, "%u tracks is more than this reader supports", n);

	list_track *info = (list_track *)sinewi_calloc(&r->alloc, n, sizeof *info);
	uint32_t *slot = (uint32_t *)sinewi_calloc(&r->alloc, n, sizeof *slot); // output position -> track + 1
	uint32_t *components = (uint32_t *)sinewi_calloc(&r->alloc, n, sizeof *components);
	sinew_result res = SINEW_RESULT_OK;
	char text[48];
	if (!info || !slot || !components) {
		res = fail_at(r, tracks, SINEW_RESULT_OUT_OF_MEMORY, "out of memory for %u tracks", n);
		goto done;
	}
	uint32_t transforms = 0, kept = 0, remapped = 0;
	uint32_t t = sinewi_sjson_first(&r->doc, tracks);
	for (uint32_t i = 0; i < n; ++i, t = sinewi_sjson_next(&r->doc, t)) {
		if ((res = check_list_track(r, t, i, &info[i])) != SINEW_RESULT_OK) goto done;
		transforms += info[i].components == 0;
		kept += info[i].output != ACL_INVALID_INDEX;
		remapped += info[i].output != ACL_INVALID_INDEX && info[i].output != i;
	}
	if (transforms != 0 && transforms != n) {
		res = fail_at(r, tracks, SINEW_RESULT_UNSUPPORTED, "the list mixes %u qvvf tracks with %u scalar tracks",
		              transforms, n - transforms);
		goto done;
	}
	if (kept == 0) {
		res = fail_at(r, tracks, SINEW_RESULT_BAD_COUNT,
		              "no tracks: all %u tracks are stripped (output_index 4294967295, ACL's invalid index)", n);
		goto done;
	}
	if (transforms) {
		for (uint32_t i = 0; i < n; ++i) {
			if (info[i].parent != ACL_INVALID_INDEX && info[i].parent >= i) {
				res = fail_at(r, info[i].object, SINEW_RESULT_BAD_PARENT,
				              "track %u '%s': parent_index %u must come before it", i, TEXT(r, info[i].name, text),
				              info[i].parent);
				goto done;
			}
		}
	} else {
		// Output indices of the kept tracks must be unique and contiguous (ACL's rule); they give
		// each track its place in the clip.
		for (uint32_t i = 0; i < n; ++i) {
			uint32_t o = info[i].output;
			if (o == ACL_INVALID_INDEX) continue;
			if (o >= kept || slot[o]) {
				res = fail_at(r, info[i].object, SINEW_RESULT_CORRUPT,
				              "track %u '%s': output_index %u is %s (%u tracks are kept; indices must be unique and "
				              "contiguous)",
				              i, TEXT(r, info[i].name, text), o, o >= kept ? "out of range" : "used twice", kept);
				goto done;
			}
			slot[o] = i + 1;
		}
		for (uint32_t o = 0; o < kept; ++o) components[o] = info[slot[o] - 1].components;
	}

	sinew_clip *clip = NULL;
	if ((res = add_clip(r, set, transforms, transforms ? 0 : kept, components, &clip)) != SINEW_RESULT_OK) goto done;
	if (transforms) {
		for (uint32_t i = 0; i < n; ++i)
			if ((res = fill_transform_track(r, set, clip, &info[i], i)) != SINEW_RESULT_OK) goto done;
		for (uint32_t i = 0; i < n; ++i) {
			if (fabs(info[i].precision - ACL_DEFAULT_ERROR_CM) > 1e-9) {
				sinewi_import_warn(
				    r->ctx,
				    "%s: track %u '%s' asks for a precision of %g cm; sinew uses the compression options "
				    "(default %g cm)",
				    r->label, i, TEXT(r, info[i].name, text), info[i].precision, SINEW_DEFAULT_ERROR_CM);
				break;
			}
		}
		if (remapped)
			sinewi_import_warn(
			    r->ctx, "%s: output_index remapping of %u transform tracks is ignored (joints stay in file order)",
			    r->label, remapped);
	} else {
		for (uint32_t o = 0; o < kept; ++o) {
			uint32_t i = slot[o] - 1;
			if ((res = fill_scalar_track(r, set, &clip->scalar_tracks[o], &info[i], i)) != SINEW_RESULT_OK) goto done;
		}
	}
	if (kept < n)
		sinewi_import_warn(r->ctx, "%s: %u of %u tracks have output_index 4294967295 and are %s", r->label, n - kept, n,
		                   transforms ? "kept for the hierarchy only" : "stripped");
done:
	sinewi_free(&r->alloc, info, (size_t)n * sizeof *info);
	sinewi_free(&r->alloc, slot, (size_t)n * sizeof *slot);
	sinewi_free(&r->alloc, components, (size_t)n * sizeof *components);
	return res;
}

/* ---- entry point ---- */

sinew_result sinewi_import_acl(const sinewi_import_ctx *ctx, const unsigned char *data, size_t size,
                               sinew_clip_set *set, sinew_error *error) {
	reader r;
	memset(&r, 0, sizeof r);
	r.ctx = ctx;
	r.label = ctx->path ? ctx->path : "input";
	r.error = error;
	r.alloc = sinewi_alloc_from(ctx->allocator);
	r.input_size = size;
	r.huge_value = HUGE_VALUE;
	double unit_cm = ctx->options->unit_cm;
	SINEWI_CHECK(unit_cm == 0.0 || (isfinite(unit_cm) && unit_cm > 0.0), error, SINEW_RESULT_INVALID_ARGUMENT,
	             "%s: unit_cm %g is not a positive finite number", r.label, unit_cm);
	SINEWI_TRY(sinewi_sjson_parse(&r.doc, (const char *)data, size, ctx->allocator, r.label, error));

	sinew_result res;
	uint32_t version = NONE, clip = NONE, list = NONE;
	if ((res = require_key(&r, 0, "top level", "version", &version)) != SINEW_RESULT_OK) goto done;
	if ((res = find_key(&r, 0, "clip", &clip)) != SINEW_RESULT_OK) goto done;
	if ((res = find_key(&r, 0, "track_list", &list)) != SINEW_RESULT_OK) goto done;
	uint32_t v = 0;
	if ((res = read_u32(&r, version, "version", &v)) != SINEW_RESULT_OK) goto done;
	if (v == 0) {
		res = fail_at(&r, version, SINEW_RESULT_PARSE, "version 0 does not exist (ACL files start at 1)");
		goto done;
	}
	if (v > ACL_LATEST_VERSION) {
		res = fail_at(&r, version, SINEW_RESULT_UNSUPPORTED, "version %u is newer than the latest known (%d)", v,
		              ACL_LATEST_VERSION);
		goto done;
	}
	if (clip != NONE && list != NONE) {
		res = fail_at(&r, list, SINEW_RESULT_PARSE,
		              "the file holds both a clip (line %u) and a track_list; ACL files hold one",
		              r.doc.nodes[clip].line);
		goto done;
	}
	if (clip == NONE && list == NONE) {
		res = fail_at(&r, NONE, SINEW_RESULT_PARSE, "missing key 'clip' or 'track_list' at the top level");
		goto done;
	}
	res = clip != NONE ? import_clip(&r, clip, set) : import_track_list(&r, list, set);
	if (res == SINEW_RESULT_OK && r.huge_value > HUGE_VALUE)
		sinewi_import_warn(ctx, "%s: %s reaches %g; the error metric may overflow on such values", r.label,
		                   r.huge_where, r.huge_value);
done:
	sinewi_sjson_free(&r.doc);
	return res;
}
