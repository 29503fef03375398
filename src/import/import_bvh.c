// sinew — see include/sinew.h for version and licence
// BVH (Biovision Hierarchy) reader: one clip per file.
//
// Conventions (no formal spec exists; these follow Meredith & Maddock's "Motion Capture File Formats
// Explained" and what Blender, assimp and three.js do):
//   - Joints in file order (ROOT/JOINT/End Site as they appear, so parents precede children); several
//     ROOTs are allowed. End Sites become leaves "<parent>_end" with has_track = 0 and their OFFSET as a
//     constant translation, unless options->bvh_skip_end_sites. source_index counts ROOT/JOINT only.
//   - Rotation: the rotation channels in their listed order compose intrinsically, R = R1 * R2 * R3
//     ("Zrotation Xrotation Yrotation" is Rz * Rx * Ry), degrees, computed in double precision.
//   - Translation: OFFSET, except where position channels exist. On a ROOT the channel values are
//     added to the OFFSET (Meredith & Maddock: "for the root object the translation data will be the sum
//     of the offset data and the translation data from the motion section"; three.js does the same; the
//     CMU iClone conversions rely on it: root OFFSET y = 105 with channel values around 0). On a
//     non-root JOINT the channel values replace the OFFSET, as Blender and assimp do for every joint;
//     files that animate non-root positions (MotionBuilder exports such as the Bandai Namco set) write
//     the OFFSET again in the channels, and adding it would double every bone. Roots have OFFSET 0 in
//     most files, where the two rules agree.
//   - Default pose: translation OFFSET, rotation identity, scale 1.
//   - MOTION: "Frames: N", "Frame Time: T" (rate 1/T, snapped to the integer rate N' when T is 1/N'
//     rounded to the printed digits, e.g. .0083333 -> 120 Hz). Each frame is one line holding exactly the
//     total channel count of values (every exporter writes it so; a per-line count pins a damaged row to
//     its line). Blank lines are skipped. More lines than N: the first N are used, with a warning (the
//     assimp Boxing_Toes.bvh has one extra line); fewer: TRUNCATED.
//   - Units: the data stays in file units; clip unit_scale = 100 / unit_cm (options->unit_cm, default 1 cm).
#include "import_internal.h"
#include "text_scan.h"

#include <math.h>
#include <string.h>

#include "../core/elementary.h"
#include "../core/quat.h"

#define BVH_MAX_DEPTH 1024
#define BVH_MAX_JOINTS 65536
#define BVH_MAX_FRAMES 10000000u
#define BVH_MAX_CHANNELS 6

enum { CH_XPOS, CH_YPOS, CH_ZPOS, CH_XROT, CH_YROT, CH_ZROT };

typedef struct bvh_joint {
	const char *name; // points into the input, not terminated
	size_t name_length;
	size_t line; // line of the declaration, for messages
	int32_t parent;
	int32_t source_index; // -1 for End Sites
	double offset[3];
	uint32_t channel_first; // index of the first channel in a frame line
	uint8_t channel_count;
	uint8_t channels[BVH_MAX_CHANNELS];
	bool end_site, has_offset, has_channels;
} bvh_joint;

typedef struct bvh_parser {
	const sinewi_import_ctx *ctx;
	sinewi_alloc al;
	sinewi_scanner s;
	sinew_error *error;
	const char *where; // file name for messages
	size_t size; // of the whole input
	bvh_joint *joints;
	uint32_t joint_count, joint_capacity;
	uint32_t channel_total;
	double *values; // one frame of channel values
} bvh_parser;

static sinew_result add_joint(bvh_parser *p, bvh_joint **out) {
	if (p->joint_count == p->joint_capacity) {
		SINEWI_CHECK(p->joint_count < BVH_MAX_JOINTS, p->error, SINEW_RESULT_UNSUPPORTED,
		             "%s: line %zu: more than %d joints", p->where, p->s.line, BVH_MAX_JOINTS);
		uint32_t capacity = p->joint_capacity ? p->joint_capacity * 2 : 64;
		bvh_joint *joints = (bvh_joint *)sinewi_malloc(&p->al, capacity * sizeof *joints);
		SINEWI_CHECK(joints, p->error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory", p->where);
		if (p->joint_count) memcpy(joints, p->joints, p->joint_count * sizeof *joints);
		sinewi_free(&p->al, p->joints, p->joint_capacity * sizeof *p->joints);
		p->joints = joints;
		p->joint_capacity = capacity;
	}
	bvh_joint *j = &p->joints[p->joint_count++];
	memset(j, 0, sizeof *j);
	j->parent = -1;
	j->source_index = -1;
	*out = j;
	return SINEW_RESULT_OK;
}

static sinew_result unexpected_end(bvh_parser *p, const char *expected) {
	return sinewi_fail(p->error, SINEW_RESULT_TRUNCATED, "%s: line %zu: file ends where %s was expected", p->where,
	                   p->s.line, expected);
}

static sinew_result expect_word(bvh_parser *p, const char *word) {
	sinewi_token t;
	if (!sinewi_scan_next(&p->s, &t)) return unexpected_end(p, word);
	char q[48];
	SINEWI_CHECK(sinewi_token_is(&t, word), p->error, SINEW_RESULT_PARSE, "%s: line %zu: expected '%s', found '%s'",
	             p->where, t.line, word, sinewi_token_quote(&t, q, sizeof q));
	return SINEW_RESULT_OK;
}

static sinew_result read_number(bvh_parser *p, const char *what, double *out, sinewi_token *tok_out) {
	sinewi_token t;
	if (!sinewi_scan_next(&p->s, &t)) return unexpected_end(p, what);
	char q[48];
	SINEWI_CHECK(sinewi_token_number(&t, out), p->error, SINEW_RESULT_PARSE, "%s: line %zu: %s: '%s' is not a number",
	             p->where, t.line, what, sinewi_token_quote(&t, q, sizeof q));
	if (tok_out) *tok_out = t;
	return SINEW_RESULT_OK;
}

// Joint name: the rest of the line (inner spaces kept). A trailing "{" on the same line opens the block.
static sinew_result read_name(bvh_parser *p, const sinewi_token *keyword, bvh_joint *j, bool *brace_on_line) {
	sinewi_token t, first = {0}, last = {0};
	size_t count = 0;
	*brace_on_line = false;
	while (sinewi_scan_next_on_line(&p->s, &t)) {
		if (count == 0) first = t;
		last = t;
		++count;
	}
	if (count >= 2 && sinewi_token_is(&last, "{")) {
		*brace_on_line = true;
		// drop the brace: the name ends at the previous token, so rescan the span
		const char *end = last.text;
		while (end > first.text && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\v' || end[-1] == '\f')) --end;
		last.text = end;
		last.length = 0;
	}
	char q[48];
	SINEWI_CHECK(count > 0 && !(count == 1 && sinewi_token_is(&first, "{")), p->error, SINEW_RESULT_PARSE,
	             "%s: line %zu: %s without a name", p->where, keyword->line, sinewi_token_quote(keyword, q, sizeof q));
	j->name = first.text;
	j->name_length = (size_t)(last.text + last.length - first.text);
	return SINEW_RESULT_OK;
}

static sinew_result read_channels(bvh_parser *p, bvh_joint *j, const sinewi_token *keyword) {
	char q[48];
	SINEWI_CHECK(!j->has_channels, p->error, SINEW_RESULT_PARSE, "%s: line %zu: second CHANNELS in joint '%.*s'",
	             p->where, keyword->line, (int)(j->name_length > 64 ? 64 : j->name_length), j->name);
	j->has_channels = true;
	sinewi_token t;
	if (!sinewi_scan_next(&p->s, &t)) return unexpected_end(p, "a channel count");
	uint64_t count;
	SINEWI_CHECK(sinewi_token_uint(&t, 1000000, &count), p->error, SINEW_RESULT_PARSE,
	             "%s: line %zu: CHANNELS count '%s' is not a number", p->where, t.line,
	             sinewi_token_quote(&t, q, sizeof q));
	SINEWI_CHECK(count <= BVH_MAX_CHANNELS, p->error, SINEW_RESULT_PARSE,
	             "%s: line %zu: CHANNELS %u: a joint has at most 6 distinct channels", p->where, t.line,
	             (unsigned)count);
	SINEWI_CHECK(!j->end_site || count == 0, p->error, SINEW_RESULT_PARSE, "%s: line %zu: End Site with CHANNELS",
	             p->where, t.line);
	static const char *names[6] = {"Xposition", "Yposition", "Zposition", "Xrotation", "Yrotation", "Zrotation"};
	unsigned seen = 0;
	for (uint64_t i = 0; i < count; ++i) {
		if (!sinewi_scan_next(&p->s, &t)) return unexpected_end(p, "a channel name");
		int kind = -1;
		// Blender compares channel names without case; so do we.
		for (int k = 0; k < 6 && kind < 0; ++k)
			if (sinewi_token_is_nocase(&t, names[k])) kind = k;
		SINEWI_CHECK(kind >= 0, p->error, SINEW_RESULT_PARSE, "%s: line %zu: unknown channel '%s'", p->where, t.line,
		             sinewi_token_quote(&t, q, sizeof q));
		SINEWI_CHECK(!(seen & (1u << kind)), p->error, SINEW_RESULT_PARSE, "%s: line %zu: channel %s listed twice",
		             p->where, t.line, names[kind]);
		seen |= 1u << kind;
		j->channels[i] = (uint8_t)kind;
	}
	j->channel_count = (uint8_t)count;
	j->channel_first = p->channel_total;
	p->channel_total += (uint32_t)count;
	return SINEW_RESULT_OK;
}

static sinew_result parse_hierarchy(bvh_parser *p) {
	sinewi_token t;
	char q[48];
	if (!sinewi_scan_next(&p->s, &t)) return sinewi_fail(p->error, SINEW_RESULT_TRUNCATED, "%s: empty file", p->where);
	SINEWI_CHECK(sinewi_token_is(&t, "HIERARCHY"), p->error, SINEW_RESULT_PARSE,
	             "%s: line %zu: expected HIERARCHY, found '%s'", p->where, t.line, sinewi_token_quote(&t, q, sizeof q));
	int32_t stack[BVH_MAX_DEPTH];
	int depth = 0;
	int32_t source_count = 0;
	for (;;) {
		if (!sinewi_scan_next(&p->s, &t)) return unexpected_end(p, depth ? "'}'" : "ROOT or MOTION");
		if (depth == 0) {
			if (sinewi_token_is(&t, "MOTION")) break;
			SINEWI_CHECK(sinewi_token_is(&t, "ROOT"), p->error, SINEW_RESULT_PARSE,
			             "%s: line %zu: expected ROOT or MOTION, found '%s'", p->where, t.line,
			             sinewi_token_quote(&t, q, sizeof q));
		}
		bvh_joint *top = depth ? &p->joints[stack[depth - 1]] : NULL;
		bool is_end = sinewi_token_is(&t, "End");
		if (sinewi_token_is(&t, "ROOT") || sinewi_token_is(&t, "JOINT") || is_end) {
			SINEWI_CHECK(!(top && top->end_site), p->error, SINEW_RESULT_PARSE,
			             "%s: line %zu: End Site cannot have children", p->where, t.line);
			SINEWI_CHECK(depth == 0 || !sinewi_token_is(&t, "ROOT"), p->error, SINEW_RESULT_PARSE,
			             "%s: line %zu: ROOT inside another joint", p->where, t.line);
			SINEWI_CHECK(depth > 0 || sinewi_token_is(&t, "ROOT"), p->error, SINEW_RESULT_PARSE,
			             "%s: line %zu: JOINT outside a ROOT", p->where, t.line);
			SINEWI_CHECK(depth < BVH_MAX_DEPTH, p->error, SINEW_RESULT_UNSUPPORTED,
			             "%s: line %zu: joints nested deeper than %d", p->where, t.line, BVH_MAX_DEPTH);
			int32_t parent = depth ? stack[depth - 1] : -1;
			bvh_joint *j = NULL;
			SINEWI_TRY(add_joint(p, &j));
			j->parent = parent;
			j->line = t.line;
			bool brace = false;
			if (is_end) {
				sinewi_token site;
				bool ok = sinewi_scan_next_on_line(&p->s, &site);
				// "End Site" per the spec; "End site" is common. A name after it is ignored (Blender does too).
				SINEWI_CHECK(ok && sinewi_token_is_nocase(&site, "Site"), p->error, SINEW_RESULT_PARSE,
				             "%s: line %zu: expected 'End Site'", p->where, t.line);
				j->end_site = true;
				sinewi_token rest;
				while (sinewi_scan_next_on_line(&p->s, &rest)) brace = sinewi_token_is(&rest, "{");
			} else {
				j->source_index = source_count++;
				SINEWI_TRY(read_name(p, &t, j, &brace));
			}
			if (!brace) SINEWI_TRY(expect_word(p, "{"));
			stack[depth++] = (int32_t)(j - p->joints);
		} else if (depth == 0) {
			// unreachable: depth 0 only accepts ROOT/MOTION above
			return sinewi_fail(p->error, SINEW_RESULT_PARSE, "%s: line %zu: unexpected token", p->where, t.line);
		} else if (sinewi_token_is(&t, "OFFSET")) {
			SINEWI_CHECK(!top->has_offset, p->error, SINEW_RESULT_PARSE, "%s: line %zu: second OFFSET in one joint",
			             p->where, t.line);
			for (int k = 0; k < 3; ++k) SINEWI_TRY(read_number(p, "OFFSET", &top->offset[k], NULL));
			top->has_offset = true;
		} else if (sinewi_token_is(&t, "CHANNELS")) {
			SINEWI_TRY(read_channels(p, top, &t));
		} else if (sinewi_token_is(&t, "}")) {
			SINEWI_CHECK(top->has_offset, p->error, SINEW_RESULT_PARSE,
			             "%s: line %zu: joint declared on line %zu has no OFFSET", p->where, t.line, top->line);
			--depth;
		} else {
			return sinewi_fail(p->error, SINEW_RESULT_PARSE, "%s: line %zu: unexpected '%s' in the hierarchy", p->where,
			                   t.line, sinewi_token_quote(&t, q, sizeof q));
		}
	}
	SINEWI_CHECK(p->joint_count > 0, p->error, SINEW_RESULT_PARSE, "%s: line %zu: MOTION before any ROOT", p->where,
	             t.line);
	return SINEW_RESULT_OK;
}

// The frame time is usually 1/rate printed with a few digits (.0083333 for 120 Hz, 0.016667 for 60 Hz).
// When an integer rate N (or NTSC's N * 1000/1001) reproduces the printed value to its last digit, and
// that digit is precise enough to tell neighbouring rates apart, use the exact rate.
static double rate_from_frame_time(double frame_time, const sinewi_token *tok) {
	double rate = 1.0 / frame_time;
	double n = floor(rate + 0.5);
	if (n >= 1.0 && fabs(rate - n) <= 1e-9 * n) return n;
	int decimals = sinewi_token_decimals(tok);
	if (decimals <= 0 || rate > 1e6) return rate;
	double tolerance = 0.5 * sinewi_pow10(-decimals) * (1.0 + 1e-9);
	if (tolerance > 1e-4 * frame_time) return rate;
	if (n >= 1.0 && fabs(1.0 / n - frame_time) <= tolerance) return n;
	double ntsc = floor(rate * 1.001 + 0.5);
	if (ntsc >= 1.0 && fabs(1.001 / ntsc - frame_time) <= tolerance) return ntsc / 1.001;
	return rate;
}

static void name_from_path(const char *path, char *buffer, size_t size) {
	const char *base = path;
	for (const char *c = path; *c; ++c)
		if (*c == '/' || *c == '\\') base = c + 1;
	size_t n = strlen(base);
	const char *dot = strrchr(base, '.');
	if (dot && dot != base) n = (size_t)(dot - base);
	if (n >= size) n = size - 1;
	memcpy(buffer, base, n);
	buffer[n] = 0;
}

static void axis_quat(int axis, double degrees, double q[4]) {
	double half = degrees * (3.14159265358979323846 / 360.0);
	q[0] = q[1] = q[2] = 0.0;
	sinewi_sincos(half, &q[axis], &q[3]);
}

// Local transform of joint j from one frame's channel values (see the conventions at the top).
static void joint_transform(const bvh_joint *j, const double *values, sinew_qvv *out) {
	double t[3] = {j->offset[0], j->offset[1], j->offset[2]};
	double q[4] = {0, 0, 0, 1};
	for (uint32_t c = 0; c < j->channel_count; ++c) {
		double v = values[j->channel_first + c];
		int kind = j->channels[c];
		if (kind <= CH_ZPOS) {
			t[kind] = j->parent < 0 ? j->offset[kind] + v : v;
		} else {
			double r[4];
			axis_quat(kind - CH_XROT, v, r);
			sinewi_quat_mul_d(q, r, q);
		}
	}
	sinewi_quat_normalize_d(q);
	for (int k = 0; k < 4; ++k) out->rotation[k] = (float)q[k];
	for (int k = 0; k < 3; ++k) out->translation[k] = (float)t[k];
	out->scale[0] = out->scale[1] = out->scale[2] = 1.0f;
}

static sinew_result parse_motion(bvh_parser *p, sinew_clip_set *set) {
	sinewi_token t, time_token;
	char q[48];
	double frame_time;
	uint64_t frames;
	SINEWI_TRY(expect_word(p, "Frames:"));
	if (!sinewi_scan_next(&p->s, &t)) return unexpected_end(p, "the frame count");
	SINEWI_CHECK(sinewi_token_uint(&t, UINT64_MAX, &frames), p->error, SINEW_RESULT_PARSE,
	             "%s: line %zu: frame count '%s' is not a non-negative integer", p->where, t.line,
	             sinewi_token_quote(&t, q, sizeof q));
	SINEWI_CHECK(frames <= BVH_MAX_FRAMES, p->error, SINEW_RESULT_CORRUPT,
	             "%s: line %zu: Frames: %llu exceeds the limit of %u", p->where, t.line, (unsigned long long)frames,
	             BVH_MAX_FRAMES);
	SINEWI_CHECK(frames > 0, p->error, SINEW_RESULT_NO_SAMPLES, "%s: line %zu: Frames: 0", p->where, t.line);
	SINEWI_TRY(expect_word(p, "Frame"));
	SINEWI_TRY(expect_word(p, "Time:"));
	SINEWI_TRY(read_number(p, "Frame Time", &frame_time, &time_token));
	SINEWI_CHECK(frame_time > 0.0 && isfinite(1.0 / frame_time), p->error, SINEW_RESULT_BAD_SAMPLE_RATE,
	             "%s: line %zu: Frame Time %g is not a positive duration", p->where, time_token.line, frame_time);
	SINEWI_CHECK(!sinewi_scan_next_on_line(&p->s, &t), p->error, SINEW_RESULT_PARSE,
	             "%s: line %zu: unexpected '%s' after the frame time", p->where, t.line,
	             sinewi_token_quote(&t, q, sizeof q));
	SINEWI_CHECK(p->channel_total > 0, p->error, SINEW_RESULT_BAD_COUNT, "%s: the hierarchy declares no channels",
	             p->where);

	// Check the declared size against the bytes left before allocating: every value takes at least one
	// character and one separator.
	uint64_t values_needed = frames * p->channel_total;
	uint64_t remaining = (uint64_t)(p->s.end - p->s.cur);
	SINEWI_CHECK(values_needed <= remaining / 2 + 1, p->error, SINEW_RESULT_TRUNCATED,
	             "%s: line %zu: %llu frames of %u values declared but only %llu bytes follow", p->where, t.line,
	             (unsigned long long)frames, p->channel_total, (unsigned long long)remaining);

	bool skip_ends = p->ctx->options->bvh_skip_end_sites != 0;
	uint32_t out_count = 0;
	for (uint32_t i = 0; i < p->joint_count; ++i) out_count += !(skip_ends && p->joints[i].end_site);
	// Joints without channels cost memory per frame without costing bytes in the file: bound the clip
	// by the input size so a small hostile file cannot ask for gigabytes (real files use < 1 transform
	// per byte; the bound allows 64 plus a fixed 4M).
	uint64_t transforms = frames * out_count;
	uint64_t limit = 64 * (uint64_t)p->size + ((uint64_t)1 << 22);
	SINEWI_CHECK(transforms <= limit, p->error, SINEW_RESULT_UNSUPPORTED,
	             "%s: %llu frames x %u joints is too large for a %zu-byte file", p->where, (unsigned long long)frames,
	             out_count, p->size);

	char name[256];
	if (p->ctx->path)
		name_from_path(p->ctx->path, name, sizeof name);
	else
		strcpy(name, "bvh");
	double unit_cm = p->ctx->options->unit_cm > 0 ? p->ctx->options->unit_cm : 1.0;
	sinew_clip_desc desc = {.name = name[0] ? name : "bvh",
	                        .sample_rate = rate_from_frame_time(frame_time, &time_token),
	                        .sample_count = (uint32_t)frames,
	                        .joint_count = out_count};
	sinew_clip *clip = NULL;
	SINEWI_CHECK(sinew_clip_set_add_clip(set, &desc, &clip) == SINEW_RESULT_OK, p->error, SINEW_RESULT_OUT_OF_MEMORY,
	             "%s: out of memory for %llu frames", p->where, (unsigned long long)frames);
	clip->unit_scale = 100.0 / unit_cm;

	// Joints of the clip; map[i] = clip index of file joint i, or -1 for a skipped End Site.
	int32_t *map = (int32_t *)sinewi_malloc(&p->al, p->joint_count * sizeof(int32_t));
	SINEWI_CHECK(map, p->error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory", p->where);
	sinew_result r = SINEW_RESULT_OK;
	uint32_t k = 0;
	for (uint32_t i = 0; i < p->joint_count && r == SINEW_RESULT_OK; ++i) {
		const bvh_joint *src = &p->joints[i];
		if (skip_ends && src->end_site) {
			map[i] = -1;
			continue;
		}
		map[i] = (int32_t)k;
		sinew_joint *dst = &clip->joints[k];
		char *joint_name;
		if (src->end_site) {
			const bvh_joint *parent = &p->joints[src->parent];
			size_t n = parent->name_length;
			joint_name = (char *)sinew_clip_set_alloc(set, n + 5);
			if (joint_name) {
				memcpy(joint_name, parent->name, n);
				memcpy(joint_name + n, "_end", 5);
			}
		} else {
			joint_name = (char *)sinew_clip_set_alloc(set, src->name_length + 1);
			if (joint_name) memcpy(joint_name, src->name, src->name_length);
		}
		if (!joint_name) r = sinewi_fail(p->error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory", p->where);
		dst->name = joint_name;
		dst->parent = src->parent < 0 ? -1 : map[src->parent];
		dst->source_index = src->source_index;
		dst->has_track = src->end_site ? 0 : 1;
		for (int c = 0; c < 3; ++c) dst->default_pose.translation[c] = (float)src->offset[c];
		++k;
	}
	p->values = r == SINEW_RESULT_OK ? (double *)sinewi_malloc(&p->al, p->channel_total * sizeof(double)) : NULL;
	if (r == SINEW_RESULT_OK && !p->values)
		r = sinewi_fail(p->error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory", p->where);

	// Frames: one line each.
	for (uint64_t f = 0; f < frames && r == SINEW_RESULT_OK; ++f) {
		if (sinewi_scan_at_end(&p->s)) {
			r = sinewi_fail(p->error, SINEW_RESULT_TRUNCATED, "%s: line %zu: file ends after %llu of %llu frames",
			                p->where, p->s.line, (unsigned long long)f, (unsigned long long)frames);
			break;
		}
		size_t line = p->s.line;
		uint32_t n = 0;
		while (sinewi_scan_next_on_line(&p->s, &t)) {
			if (n == p->channel_total) {
				r = sinewi_fail(p->error, SINEW_RESULT_BAD_COUNT, "%s: line %zu: frame %llu has more than %u values",
				                p->where, line, (unsigned long long)f, p->channel_total);
				break;
			}
			if (!sinewi_token_number(&t, &p->values[n])) {
				r = sinewi_fail(p->error, SINEW_RESULT_PARSE,
				                "%s: line %zu: value %u of frame %llu, '%s', is not a number", p->where, line, n + 1,
				                (unsigned long long)f, sinewi_token_quote(&t, q, sizeof q));
				break;
			}
			++n;
		}
		if (r == SINEW_RESULT_OK && n != p->channel_total)
			r = sinewi_fail(p->error, SINEW_RESULT_BAD_COUNT, "%s: line %zu: frame %llu has %u values, expected %u",
			                p->where, line, (unsigned long long)f, n, p->channel_total);
		if (r != SINEW_RESULT_OK) break;
		sinew_qvv *pose = &clip->transforms[f * out_count];
		for (uint32_t i = 0; i < p->joint_count; ++i)
			if (map[i] >= 0) joint_transform(&p->joints[i], p->values, &pose[map[i]]);
	}
	sinewi_free(&p->al, map, p->joint_count * sizeof(int32_t));
	if (r != SINEW_RESULT_OK) return r;

	if (!sinewi_scan_at_end(&p->s)) {
		size_t first = p->s.line, extra = 0;
		while (!sinewi_scan_at_end(&p->s)) {
			++extra;
			sinewi_scan_skip_line(&p->s);
		}
		sinewi_import_warn(p->ctx, "%s: line %zu: %zu line(s) after the %llu declared frames ignored", p->where, first,
		                   extra, (unsigned long long)frames);
	}
	return SINEW_RESULT_OK;
}

sinew_result sinewi_import_bvh(const sinewi_import_ctx *ctx, const unsigned char *data, size_t size,
                               sinew_clip_set *set, sinew_error *error) {
	double unit_cm = ctx->options->unit_cm;
	SINEWI_CHECK(unit_cm >= 0 && isfinite(unit_cm), error, SINEW_RESULT_INVALID_ARGUMENT,
	             "bvh: unit_cm %g is not a positive length", unit_cm);
	bvh_parser p = {0};
	p.ctx = ctx;
	p.al = sinewi_alloc_from(ctx->allocator);
	p.error = error;
	p.where = ctx->path ? ctx->path : "bvh";
	p.size = size;
	sinewi_scan_init(&p.s, data, size);
	sinew_result r = parse_hierarchy(&p);
	if (r == SINEW_RESULT_OK) r = parse_motion(&p, set);
	sinewi_free(&p.al, p.values, p.channel_total * sizeof(double));
	sinewi_free(&p.al, p.joints, p.joint_capacity * sizeof *p.joints);
	return r;
}
