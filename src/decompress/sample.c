// sinew — see include/sinew.h for version and licence
// The scalar reference kernel and the sampling context. Seek (docs/format.md §sampling):
// key = t * rate clamped to [0, stored samples - 1]; the segment is chosen by floor(key);
// each track rounds the key by its own mode, then interpolates its knots directly.
#include "context.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bits.h"
#include "../core/codec_math.h"
#include "../format/format_layout.h"

static size_t align16(size_t n) {
	return (n + 15) & ~(size_t)15;
}

static size_t context_bytes(const sinewi_clip_view *v) {
	return align16(sizeof(struct sinew_context)) + align16((size_t)v->joint_count * sizeof(sinewi_joint_entry)) +
	       align16((size_t)v->track_count * sizeof(sinewi_track_entry)) +
	       align16((size_t)v->scalar_count * sizeof(sinewi_scalar_entry));
}

size_t sinew_context_size(const void *blob, size_t size, uint32_t clip) {
	sinewi_clip_view v;
	if (sinewi_read_clip((const unsigned char *)blob, size, clip, &v, NULL) != SINEW_RESULT_OK) return 0;
	return context_bytes(&v);
}

static uint8_t resolve_rounding(uint32_t nibble, uint32_t clip_rounding) {
	return (uint8_t)(nibble == SINEW_FMT_ROUNDING_CLIP ? clip_rounding : nibble);
}

sinew_result sinew_context_init(void *memory, size_t memory_size, const void *blob, size_t size, uint32_t clip,
                                const sinew_context_options *options, sinew_context **out, sinew_error *error) {
	SINEWI_CHECK(memory && out, error, SINEW_RESULT_INVALID_ARGUMENT, "context_init: NULL argument");
	SINEWI_CHECK(((uintptr_t)memory & 15u) == 0, error, SINEW_RESULT_INVALID_ARGUMENT, "context memory is not 16-byte aligned");
	sinewi_clip_view v;
	SINEWI_TRY(sinewi_read_clip((const unsigned char *)blob, size, clip, &v, error));
	size_t need = context_bytes(&v);
	SINEWI_CHECK(memory_size >= need, error, SINEW_RESULT_BUFFER_TOO_SMALL, "context needs %zu bytes, got %zu", need,
	             memory_size);
	unsigned char *m = (unsigned char *)memory;
	sinew_context *ctx = (sinew_context *)memory; // 16-byte aligned, checked above
	memset(ctx, 0, sizeof *ctx);
	ctx->view = v;
	ctx->skip_defaults = options ? options->skip_defaults : 0;
	ctx->kernel = "scalar";
	m += align16(sizeof *ctx);
	ctx->joints = (sinewi_joint_entry *)(void *)m; // every table starts 16-byte aligned
	m += align16((size_t)v.joint_count * sizeof(sinewi_joint_entry));
	ctx->tracks = (sinewi_track_entry *)(void *)m;
	m += align16((size_t)v.track_count * sizeof(sinewi_track_entry));
	ctx->scalars = (sinewi_scalar_entry *)(void *)m;

	const uint32_t clip_rounding = (v.flags & SINEW_FMT_FLAG_ROUNDING_MASK) >> SINEW_FMT_FLAG_ROUNDING_SHIFT;
	uint32_t constants = (uint32_t)(v.constants - v.clip), ranges = (uint32_t)(v.ranges - v.clip);
	uint32_t track = 0, seg_ranges = 0;
	for (uint32_t j = 0; j < v.joint_count; ++j) {
		sinewi_joint_entry *e = &ctx->joints[j];
		uint32_t k = v.descriptors[2 * j];
		e->rounding = resolve_rounding(v.descriptors[2 * j + 1] & 15u, clip_rounding);
		e->dropped = (uint8_t)((v.descriptors[2 * j + 1] >> 4) & 3u);
		e->constants = constants;
		for (uint32_t sub = 0; sub < 3; ++sub) {
			uint32_t kind = (k >> (2 * sub)) & 3u;
			e->kinds[sub] = (uint8_t)kind;
			e->track[sub] = -1;
			if (kind == 1 || kind == 2) constants += 12;
			if (kind == 3) {
				sinewi_track_entry *t = &ctx->tracks[track];
				t->type = (uint8_t)sub;
				t->components = 3;
				t->rounding = e->rounding;
				t->ranges = ranges;
				t->segment_ranges = seg_ranges;
				ranges += sub == 0 ? 32 : 24;
				seg_ranges += 6;
				e->track[sub] = (int32_t)track++;
			}
		}
	}
	uint32_t output = 0;
	for (uint32_t i = 0; i < v.scalar_count; ++i) {
		sinewi_scalar_entry *e = &ctx->scalars[i];
		uint32_t k = v.descriptors[2 * ((size_t)v.joint_count + i)];
		e->kind = (uint8_t)(k & 3u);
		e->components = (uint8_t)(((k >> 2) & 3u) + 1);
		e->rounding = resolve_rounding(v.descriptors[2 * ((size_t)v.joint_count + i) + 1], clip_rounding);
		e->constants = constants;
		e->output = output;
		e->track = -1;
		output += e->components;
		if (e->kind == 1 || e->kind == 2) constants += 4u * e->components;
		if (e->kind == 3) {
			sinewi_track_entry *t = &ctx->tracks[track];
			t->type = 3;
			t->components = e->components;
			t->rounding = e->rounding;
			t->ranges = ranges;
			t->segment_ranges = seg_ranges;
			ranges += 8u * e->components;
			seg_ranges += 2u * e->components;
			e->track = (int32_t)track++;
		}
	}
	for (uint32_t i = 0; i < v.track_count; ++i) ctx->modes_used |= 1u << ctx->tracks[i].rounding;
	uint32_t groups = (v.track_count + SINEW_FMT_GROUP_TRACKS - 1) / SINEW_FMT_GROUP_TRACKS;
	ctx->segment_header = v.track_count * SINEW_FMT_TRACK_DESCRIPTOR_SIZE + v.stored_components * 2 + groups * 4;
	*out = ctx;
	return SINEW_RESULT_OK;
}

const char *sinew_context_kernel(const sinew_context *context) {
	return context ? context->kernel : "none";
}

double sinewi_key_for_time(const sinew_context *ctx, double t) {
	double last = (double)(ctx->view.stored_sample_count - 1);
	double key = t * ctx->view.sample_rate;
	if (!(key > 0.0)) return 0.0; // also NaN
	if (key > last) return last;
	// t = k / rate should land on sample k even when the division rounded down
	double nearest = floor(key + 0.5);
	if (fabs(key - nearest) <= 1e-6 * (nearest > 1.0 ? nearest : 1.0)) key = nearest;
	return key;
}

// Where a segment's pieces are, for one sampling call. Each rounding mode rounds the key
// first; the segment is the one holding floor(rounded key) (the last segment for the last
// sample), so a given sample always decodes from the same segment whatever the mode.
typedef struct seek_mode {
	const unsigned char *segment; // segment start
	const unsigned char *data;    // bit stream start
	uint32_t length;              // intervals in this segment
	float u;                      // local position
} seek_mode;

typedef struct seek {
	seek_mode m[4];   // per sinew_rounding mode
	bool one_segment; // every mode landed in the same segment (the usual case)
} seek;

static void seek_one(const sinew_context *ctx, double key, seek_mode *sm) {
	const sinewi_clip_view *v = &ctx->view;
	uint32_t k0 = (uint32_t)key;
	uint32_t s = k0 / v->segment_length;
	if (s >= v->segment_count) s = v->segment_count - 1;
	uint32_t first = s * v->segment_length;
	uint32_t length = v->stored_sample_count - 1 - first;
	if (length > v->segment_length) length = v->segment_length;
	sm->segment = v->clip + sinewi_rd32(v->segment_table + 4 * s);
	sm->data = sm->segment + ctx->segment_header;
	sm->length = length;
	sm->u = (float)(key - (double)first);
}

static void do_seek(const sinew_context *ctx, double key, seek *sk) {
	double last = (double)(ctx->view.stored_sample_count - 1);
	double ceil_key = ceil(key), near_key = floor(key + 0.5);
	seek_one(ctx, key, &sk->m[SINEW_ROUNDING_NONE]);
	seek_one(ctx, floor(key), &sk->m[SINEW_ROUNDING_FLOOR]);
	seek_one(ctx, ceil_key > last ? last : ceil_key, &sk->m[SINEW_ROUNDING_CEIL]);
	seek_one(ctx, near_key > last ? last : near_key, &sk->m[SINEW_ROUNDING_NEAREST]);
	sk->one_segment = true;
	for (int r = 1; r < 4; ++r)
		if ((ctx->modes_used >> r) & 1u) sk->one_segment &= sk->m[r].segment == sk->m[SINEW_ROUNDING_NONE].segment;
	if (!(ctx->modes_used & 1u)) { // NONE unused: compare against the first mode in use
		for (int r = 1; r < 4; ++r)
			if ((ctx->modes_used >> r) & 1u) {
				for (int q = r + 1; q < 4; ++q)
					if ((ctx->modes_used >> q) & 1u) sk->one_segment &= sk->m[q].segment == sk->m[r].segment;
				break;
			}
		sk->one_segment = sk->one_segment || ctx->modes_used == 0;
	}
}

static uint32_t read_descriptor(const unsigned char *segment, uint32_t track) {
	const unsigned char *p = segment + (size_t)track * SINEW_FMT_TRACK_DESCRIPTOR_SIZE;
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16);
}

static uint32_t knot_bits(uint32_t descriptor, uint32_t type, uint32_t components) {
	if (type == 0 && (descriptor & 31u) == SINEWI_WIDTH_RAW) return 128; // raw rotation: 4 x float32
	uint32_t w = sinewi_width_bits(descriptor & 31u) + sinewi_width_bits((descriptor >> 5) & 31u) +
	             sinewi_width_bits((descriptor >> 10) & 31u);
	if (type == 3 && components == 4) w += sinewi_width_bits((descriptor >> 15) & 31u);
	return w;
}

// Decodes track `ti` whose bit stream starts at `bitpos`; returns the track's size in bits.
static uint64_t decode_track(const sinew_context *ctx, const seek *seeks, uint32_t ti, uint64_t bitpos, float out[4]) {
	const sinewi_track_entry *t = &ctx->tracks[ti];
	const seek_mode *sk = &seeks->m[t->rounding];
	const unsigned char *clip = ctx->view.clip;
	uint32_t desc = read_descriptor(sk->segment, ti);
	uint32_t n = t->components, d = (desc >> 20) & 3u;
	uint32_t dropped = t->type == 0 ? (desc >> 15) & 3u : 0u;
	uint32_t per_knot = knot_bits(desc, t->type, n);
	uint32_t knots = sinewi_knot_count(sk->length, d);
	uint32_t k0;
	float alpha;
	sinewi_knot_locate(sk->u, sk->length, d, &k0, &alpha);
	uint32_t k1 = k0 + 1 < knots ? k0 + 1 : k0;
	const unsigned char *ranges = sk->segment + (size_t)ctx->view.track_count * SINEW_FMT_TRACK_DESCRIPTOR_SIZE + t->segment_ranges;
	const unsigned char *clip_ranges = clip + t->ranges;
	uint32_t range_components = t->type == 0 ? 4u : n;
	float a[4], b[4];
	uint64_t p0 = bitpos + (uint64_t)k0 * per_knot, p1 = bitpos + (uint64_t)k1 * per_knot;
	if (per_knot == 128 && t->type == 0) { // raw rotation
		for (uint32_t c = 0; c < 4; ++c) {
			a[c] = sinewi_dequantize(sinewi_read_bits(sk->data, p0 + 32 * c, 32), SINEWI_WIDTH_RAW, 0.0f, 0.0f);
			b[c] = sinewi_dequantize(sinewi_read_bits(sk->data, p1 + 32 * c, 32), SINEWI_WIDTH_RAW, 0.0f, 0.0f);
		}
		sinewi_quat_nlerp(a, b, alpha, out);
		return (uint64_t)knots * per_knot;
	}
	for (uint32_t c = 0; c < n; ++c) {
		uint32_t w = (desc >> (5 * c)) & 31u;
		uint32_t comp = t->type == 0 ? sinewi_stored_component(c, dropped) : c;
		float lo, ext;
		sinewi_segment_range(sinewi_rdf32(clip_ranges + 4 * comp), sinewi_rdf32(clip_ranges + 4 * (range_components + comp)),
		                     ranges[2 * c], ranges[2 * c + 1], &lo, &ext);
		uint32_t bits = sinewi_width_bits(w);
		uint32_t q0 = bits ? sinewi_read_bits(sk->data, p0, bits) : 0, q1 = bits ? sinewi_read_bits(sk->data, p1, bits) : 0;
		a[c] = sinewi_dequantize(q0, w, lo, ext);
		b[c] = sinewi_dequantize(q1, w, lo, ext);
		p0 += bits, p1 += bits;
	}
	if (t->type == 0)
		sinewi_interp_rotation(a, b, dropped, alpha, out);
	else
		sinewi_interp_values(a, b, n, alpha, out);
	return (uint64_t)knots * per_knot;
}

static void read_floats(const unsigned char *p, float *out, uint32_t n) {
	for (uint32_t i = 0; i < n; ++i) out[i] = sinewi_rdf32(p + 4 * i);
}

// Writes the non-animated sub-tracks of joint j; returns the byte offset after its constants.
static void joint_constants(const sinew_context *ctx, const sinewi_joint_entry *e, sinew_qvv *x, bool skip_defaults) {
	const unsigned char *p = ctx->view.clip + e->constants;
	static const float identity[10] = {0, 0, 0, 1, 0, 0, 0, 1, 1, 1};
	float *dst[3] = {x->rotation, x->translation, x->scale};
	const uint32_t n[3] = {4, 3, 3}, first[3] = {0, 4, 7};
	for (int sub = 0; sub < 3; ++sub) {
		uint32_t kind = e->kinds[sub];
		if (kind == 0) {
			if (!skip_defaults) memcpy(dst[sub], identity + first[sub], n[sub] * sizeof(float));
		} else if (kind == 1 || kind == 2) {
			if (kind == 2 || !skip_defaults) {
				if (sub == 0) {
					float stored[3];
					read_floats(p, stored, 3);
					sinewi_quat_from_three(stored, e->dropped, dst[0]);
				} else {
					read_floats(p, dst[sub], 3);
				}
			}
			p += 12;
		}
	}
}

// Bit offset of track `ti` in the segment: its group's checkpoint plus at most 7 track sizes.
static uint64_t track_bit_offset(const sinew_context *ctx, const seek *seeks, uint32_t ti) {
	const seek_mode *sk = &seeks->m[ctx->tracks[ti].rounding];
	uint32_t group = ti / SINEW_FMT_GROUP_TRACKS;
	const unsigned char *offsets = sk->segment + (size_t)ctx->view.track_count * SINEW_FMT_TRACK_DESCRIPTOR_SIZE +
	                               (size_t)ctx->view.stored_components * 2;
	uint64_t pos = sinewi_rd32(offsets + 4 * group);
	for (uint32_t i = group * SINEW_FMT_GROUP_TRACKS; i < ti; ++i) {
		uint32_t desc = read_descriptor(sk->segment, i);
		pos += (uint64_t)sinewi_knot_count(sk->length, (desc >> 20) & 3u) *
		       knot_bits(desc, ctx->tracks[i].type, ctx->tracks[i].components);
	}
	return pos;
}

void sinewi_sample_key(sinew_context *ctx, double key, sinew_qvv *out_pose, const uint32_t *remap, float *out_scalars) {
	seek sk;
	do_seek(ctx, key, &sk);
	const sinewi_clip_view *v = &ctx->view;
	uint64_t bitpos = 0;
	for (uint32_t j = 0; j < v->joint_count; ++j) {
		const sinewi_joint_entry *e = &ctx->joints[j];
		sinew_qvv tmp;
		uint32_t dst = remap ? remap[j] : j;
		sinew_qvv *x = (out_pose && dst != 0xFFFFFFFFu) ? &out_pose[dst] : &tmp;
		joint_constants(ctx, e, x, ctx->skip_defaults != 0);
		float value[4];
		for (int sub = 0; sub < 3; ++sub) {
			if (e->track[sub] < 0) continue;
			uint32_t ti = (uint32_t)e->track[sub];
			bitpos += decode_track(ctx, &sk, ti, sk.one_segment ? bitpos : track_bit_offset(ctx, &sk, ti), value);
			if (sub == 0) memcpy(x->rotation, value, 4 * sizeof(float));
			else memcpy(sub == 1 ? x->translation : x->scale, value, 3 * sizeof(float));
		}
	}
	for (uint32_t i = 0; i < v->scalar_count; ++i) {
		const sinewi_scalar_entry *e = &ctx->scalars[i];
		float value[4];
		if (e->track >= 0) {
			uint32_t ti = (uint32_t)e->track;
			bitpos += decode_track(ctx, &sk, ti, sk.one_segment ? bitpos : track_bit_offset(ctx, &sk, ti), value);
			if (out_scalars) memcpy(out_scalars + e->output, value, e->components * sizeof(float));
		} else if (out_scalars) {
			if (e->kind == 0) {
				if (!ctx->skip_defaults) memset(out_scalars + e->output, 0, e->components * sizeof(float));
			} else if (e->kind == 2 || !ctx->skip_defaults) {
				read_floats(v->clip + e->constants, out_scalars + e->output, e->components);
			}
		}
	}
}

void sinew_sample_pose(sinew_context *context, double t, sinew_qvv *out_pose, const uint32_t *remap, float *out_scalars) {
	sinewi_sample_key(context, sinewi_key_for_time(context, t), out_pose, remap, out_scalars);
}

void sinew_sample_joint(sinew_context *context, double t, uint32_t joint, sinew_qvv *out) {
	if (!context || !out || joint >= context->view.joint_count) return;
	seek sk;
	do_seek(context, sinewi_key_for_time(context, t), &sk);
	const sinewi_joint_entry *e = &context->joints[joint];
	joint_constants(context, e, out, false);
	float value[4];
	for (int sub = 0; sub < 3; ++sub) {
		if (e->track[sub] < 0) continue;
		uint32_t ti = (uint32_t)e->track[sub];
		decode_track(context, &sk, ti, track_bit_offset(context, &sk, ti), value);
		if (sub == 0) memcpy(out->rotation, value, 4 * sizeof(float));
		else memcpy(sub == 1 ? out->translation : out->scale, value, 3 * sizeof(float));
	}
}

void sinew_sample_scalar(sinew_context *context, double t, uint32_t track, float *out) {
	if (!context || !out || track >= context->view.scalar_count) return;
	const sinewi_scalar_entry *e = &context->scalars[track];
	if (e->track >= 0) {
		seek sk;
		do_seek(context, sinewi_key_for_time(context, t), &sk);
		float value[4];
		decode_track(context, &sk, (uint32_t)e->track, track_bit_offset(context, &sk, (uint32_t)e->track), value);
		memcpy(out, value, e->components * sizeof(float));
	} else if (e->kind == 0) {
		memset(out, 0, e->components * sizeof(float));
	} else {
		read_floats(context->view.clip + e->constants, out, e->components);
	}
}
