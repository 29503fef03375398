// sinew — see include/sinew.h for version and licence
#define _POSIX_C_SOURCE 200809L
// glTF 2.0 importer: hand-made documents (sampler semantics, accessors, containers, every error class) and
// the corpus (real assets checked against their own keys read independently, malformed files with the
// result each must give).
#include "test.h"
#include "clip/clip_internal.h"

#include "import/gltf_internal.h"
#include "import/json.h"
#include "core/quat.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- builders ---- */

#define DOC_CAP 65536

static void base64(const void *data, size_t n, char *out) {
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = (const unsigned char *)data;
	size_t o = 0;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
		out[o++] = alphabet[v >> 18 & 63];
		out[o++] = alphabet[v >> 12 & 63];
		out[o++] = i + 1 < n ? alphabet[v >> 6 & 63] : '=';
		out[o++] = i + 2 < n ? alphabet[v & 63] : '=';
	}
	out[o] = 0;
}

// A .gltf text: asset + `body` (JSON members without surrounding braces) + one embedded buffer with `bin`.
static const char *make_gltf(char *out, const char *body, const void *bin, size_t bin_size) {
	static char encoded[DOC_CAP / 2];
	base64(bin, bin_size, encoded);
	if (bin)
		snprintf(out, DOC_CAP,
		         "{\"asset\":{\"version\":\"2.0\"},%s,\"buffers\":[{\"byteLength\":%zu,"
		         "\"uri\":\"data:application/octet-stream;base64,%s\"}]}",
		         body, bin_size, encoded);
	else
		snprintf(out, DOC_CAP, "{\"asset\":{\"version\":\"2.0\"},%s}", body);
	return out;
}

// A .glb: JSON chunk (space padded) + BIN chunk (zero padded). Returns the size.
static size_t make_glb(unsigned char *out, size_t cap, const char *json, const void *bin, size_t bin_size) {
	size_t json_size = strlen(json), json_padded = (json_size + 3) & ~(size_t)3,
	       bin_padded = (bin_size + 3) & ~(size_t)3;
	size_t total = 12 + 8 + json_padded + (bin ? 8 + bin_padded : 0);
	if (total > cap) return 0;
	memset(out, 0, total);
	uint32_t header[3] = {0x46546C67u, 2, (uint32_t)total};
	memcpy(out, header, 12); // the tests run on little-endian machines, like glTF itself
	uint32_t chunk[2] = {(uint32_t)json_padded, 0x4E4F534Au};
	memcpy(out + 12, chunk, 8);
	memcpy(out + 20, json, json_size);
	memset(out + 20 + json_size, ' ', json_padded - json_size);
	if (bin) {
		uint32_t bchunk[2] = {(uint32_t)bin_padded, 0x004E4942u};
		memcpy(out + 20 + json_padded, bchunk, 8);
		memcpy(out + 28 + json_padded, bin, bin_size);
	}
	return total;
}

static int warnings;
static char last_warning[512];
static void count_warning(void *user, const char *message) {
	(void)user;
	++warnings;
	snprintf(last_warning, sizeof last_warning, "%s", message);
}

static sinew_import_options gltf_options(void) {
	sinew_import_options o;
	memset(&o, 0, sizeof o);
	o.kind = SINEW_FILE_GLTF;
	o.warning = count_warning;
	warnings = 0;
	last_warning[0] = 0;
	return o;
}

static sinew_result import_text(const char *text, const sinew_import_options *options, sinew_clip_set **set,
                                sinew_error *err) {
	sinew_import_options defaults = gltf_options();
	return sinew_import_memory(text, strlen(text), options ? options : &defaults, NULL, set, err);
}

// One node, one channel: `times` (n keys) and `values` (n * per_key floats, per_key = components, x3 for
// CUBICSPLINE) at buffer offsets 0 and 4n.
static const char *one_channel_doc(char *out, const char *path, const char *interpolation, const float *times,
                                   uint32_t n, const float *values, uint32_t components, const char *node_extra) {
	static float bin[4096];
	uint32_t per_key = strcmp(interpolation, "CUBICSPLINE") == 0 ? 3 : 1;
	uint32_t value_count = n * per_key * components;
	memcpy(bin, times, n * sizeof(float));
	memcpy(bin + n, values, value_count * sizeof(float));
	const char *type = components == 4 ? "VEC4" : components == 3 ? "VEC3" : "SCALAR";
	char body[4096];
	snprintf(body, sizeof body,
	         "\"nodes\":[{\"name\":\"n\"%s}],"
	         "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1,\"interpolation\":\"%s\"}],"
	         "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"%s\"}}]}],"
	         "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%u,\"type\":\"SCALAR\"},"
	         "{\"bufferView\":1,\"componentType\":5126,\"count\":%u,\"type\":\"%s\"}],"
	         "\"bufferViews\":[{\"buffer\":0,\"byteLength\":%u},{\"buffer\":0,\"byteOffset\":%u,\"byteLength\":%u}]",
	         node_extra ? node_extra : "", interpolation, path, n, n * per_key * (components > 4 ? components : 1),
	         type, n * 4, n * 4, value_count * 4);
	return make_gltf(out, body, bin, (n + value_count) * sizeof(float));
}

static const sinew_qvv *pose_at(const sinew_clip *clip, uint32_t sample, uint32_t joint) {
	return &clip->transforms[(size_t)sample * clip->joint_count + joint];
}

/* ---- sampler semantics ---- */

static void gltf_linear_translation_exact_grid(void) {
	float times[] = {0.0f, 1.0f / 30, 2.0f / 30, 3.0f / 30};
	float values[] = {0, 0, 0, 1, 2, 3, -4, 5, 0.25f, 7, 7, 7};
	static char doc[DOC_CAP];
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(one_channel_doc(doc, "translation", "LINEAR", times, 4, values, 3, NULL), NULL, &set, &err),
	         &err);
	CHECK_EQ(set->clip_count, 1);
	sinew_clip *clip = set->clips[0];
	CHECK(strcmp(clip->name, "animation_0") == 0);
	CHECK_NEAR(clip->sample_rate, 30.0, 1e-12);
	CHECK_EQ(clip->sample_count, 4);
	CHECK_EQ(clip->joint_count, 1);
	CHECK(clip->unit_scale == 1.0);
	CHECK_EQ(clip->time_mark_count, 0); // one grid from 0: a uniform clip
	CHECK(clip->resample_error <= 1e-5); // float key times vs exact grid times: noise only
	CHECK(strcmp(clip->joints[0].name, "n") == 0);
	CHECK_EQ(clip->joints[0].source_index, 0);
	CHECK_EQ(clip->joints[0].parent, -1);
	CHECK_EQ(clip->joints[0].has_track, 1);
	// A sample is the curve at the sample's own time k / 30 (issue 24: what playback reads there), not the
	// float32 key beside it (f32(k / 30) is up to half an ulp away): equal to the key within that ulp's worth
	// of motion, and exactly the curve at k / 30.
	for (uint32_t k = 0; k < 4; ++k)
		for (int c = 0; c < 3; ++c) {
			double at = k == 0 || k == 3 ? values[k * 3 + c] // the ends: keys exactly (0, and the last key holds)
			            : values[k * 3 + c] + (values[(k + 1) * 3 + c] - (double)values[k * 3 + c]) *
			                                      ((double)k / 30 - times[k]) / ((double)times[k + 1] - times[k]);
			CHECK_MSG(fabsf(pose_at(clip, k, 0)->translation[c] - (float)at) <= 1e-6f * (1 + fabsf((float)at)),
			          "sample %u: %.9g, the curve at k / 30 %.9g", k, (double)pose_at(clip, k, 0)->translation[c], at);
			CHECK(fabsf(pose_at(clip, k, 0)->translation[c] - values[k * 3 + c]) <= 1e-5f);
		}
	CHECK(pose_at(clip, 2, 0)->rotation[3] == 1.0f && pose_at(clip, 2, 0)->scale[1] == 1.0f);
	sinew_clip_set_free(set);
}

static void gltf_clip_starting_late_holds_first_key(void) {
	float times[] = {0.5f, 1.0f};
	float values[] = {1, 2, 3, 5, 6, 7};
	static char doc[DOC_CAP];
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(one_channel_doc(doc, "scale", "LINEAR", times, 2, values, 3, NULL), NULL, &set, &err), &err);
	sinew_clip *clip = set->clips[0];
	// keys from 0.5 s: a time map whose first mark is the first key (sampling holds sample 0 before it), so
	// the hold costs no sample (it took one at t = 0 on a 2 Hz grid before time maps)
	CHECK_EQ(clip->sample_count, 2);
	CHECK_EQ(clip->time_mark_count, 2);
	CHECK(clip->time_marks[0].time == 0.5f && clip->time_marks[0].sample == 0);
	CHECK(clip->time_marks[1].time == 1.0f && clip->time_marks[1].sample == 1);
	CHECK_NEAR(sinew_clip_duration(clip), 1.0, 1e-12);
	CHECK_NEAR(sinew_clip_sample_time(clip, 0), 0.5, 0);
	CHECK(pose_at(clip, 0, 0)->scale[0] == 1.0f);
	CHECK(pose_at(clip, 1, 0)->scale[2] == 7.0f);
	sinew_clip_set_free(set);
}

static void gltf_step_holds_until_next_key(void) {
	float times[] = {0.0f, 0.25f, 1.0f};
	float values[] = {1, 0, 0, 2, 0, 0, 3, 0, 0};
	static char doc[DOC_CAP];
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(one_channel_doc(doc, "translation", "STEP", times, 3, values, 3, NULL), NULL, &set, &err),
	         &err);
	sinew_clip *clip = set->clips[0];
	// keys at 0, 0.25 and 1 s are not evenly spaced: a sample at each (time marks), not a 4 Hz grid of 5
	CHECK_EQ(clip->sample_count, 3);
	CHECK_EQ(clip->time_mark_count, 3);
	CHECK(clip->time_marks[1].time == 0.25f && clip->time_marks[1].sample == 1);
	CHECK_EQ(clip->joints[0].rounding, SINEW_ROUNDING_FLOOR);
	float expected[] = {1, 2, 3};
	for (uint32_t k = 0; k < 3; ++k) CHECK_MSG(pose_at(clip, k, 0)->translation[0] == expected[k], "sample %u", k);
	CHECK(clip->resample_error == 0.0);
	sinew_clip_set_free(set);
	// off the grid (explicit 10 Hz): sample k takes the key at or before k / 10
	sinew_import_options o = gltf_options();
	o.sample_rate = 10;
	CHECK_OK(import_text(doc, &o, &set, &err), &err);
	clip = set->clips[0];
	CHECK_EQ(clip->sample_count, 11);
	for (uint32_t k = 0; k < 11; ++k) {
		float want = k < 3 ? 1.0f : k < 10 ? 2.0f : 3.0f;
		CHECK_MSG(pose_at(clip, k, 0)->translation[0] == want, "sample %u", k);
	}
	sinew_clip_set_free(set);
}

static void gltf_equal_times_make_a_step(void) {
	float times[] = {0.0f, 0.5f, 0.5f, 1.0f};
	float values[] = {0, 0, 0, 1, 0, 0, 10, 0, 0, 12, 0, 0};
	static char doc[DOC_CAP];
	sinew_import_options o = gltf_options();
	o.sample_rate = 4;
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(one_channel_doc(doc, "translation", "LINEAR", times, 4, values, 3, NULL), &o, &set, &err),
	         &err);
	sinew_clip *clip = set->clips[0];
	float expected[] = {0, 0.5f, 10, 11, 12};
	CHECK_EQ(clip->sample_count, 5);
	for (uint32_t k = 0; k < 5; ++k) CHECK_MSG(pose_at(clip, k, 0)->translation[0] == expected[k], "sample %u", k);
	sinew_clip_set_free(set);
}

// Every key at one time t > 0, the later of two equal times winning there (found by the import_gltf fuzz target,
// fuzz/seeds/gltf/crash_lone_key_time_check_point.gltf): the lone sample is the curve at that time, not at 0 (which
// holds the first key), so the clip plays the source's value and needs no check point past its duration.
static void gltf_lone_key_time_is_the_sample(void) {
	float times[] = {0.5f, 0.5f};
	float values[] = {1, 0, 0, 7, 0, 0};
	static char doc[DOC_CAP];
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(one_channel_doc(doc, "translation", "LINEAR", times, 2, values, 3, NULL), NULL, &set, &err),
	         &err);
	const sinew_clip *clip = set->clips[0];
	CHECK_EQ(clip->sample_count, 1);
	CHECK(pose_at(clip, 0, 0)->translation[0] == 7.0f);
	CHECK(clip->resample_error == 0.0);
	for (uint32_t c = 0; c < clip->check_count; ++c) CHECK(clip->check_times[c] <= sinew_clip_duration(clip));
	sinew_clip_set_free(set);
}

static void gltf_resamples_irregular_keys(void) {
	float times[] = {0.0f, 0.1370911f, 0.5f, 0.7317201f};
	float values[] = {0, 0, 0, 0.01f, 0.002f, 0, 0.03f, 0, 0.001f, 0.02f, 0.02f, 0.02f};
	static char doc[DOC_CAP];
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(one_channel_doc(doc, "translation", "LINEAR", times, 4, values, 3, NULL), NULL, &set, &err),
	         &err);
	sinew_clip *clip = set->clips[0];
	// keys off any grid: a sample at each key (a time map), which plays a LINEAR curve back exactly (before
	// time maps: 30, 60, ... 960 Hz nudged so the last sample lands on the last key)
	CHECK_EQ(clip->sample_count, 4);
	CHECK_EQ(clip->time_mark_count, 4);
	for (uint32_t k = 0; k < 4; ++k) CHECK(clip->time_marks[k].time == times[k] && clip->time_marks[k].sample == k);
	CHECK_NEAR(sinew_clip_duration(clip), times[3], 0);
	// the reported error covers what playback gives at the key times
	double worst = 0;
	for (int k = 0; k < 4; ++k) {
		double x = (double)k; // key k is sample k
		uint32_t i = (uint32_t)floor(x);
		if (i >= clip->sample_count - 1) i = clip->sample_count - 2;
		double f = x - i, d2 = 0;
		for (int c = 0; c < 3; ++c) {
			double v = pose_at(clip, i, 0)->translation[c] * (1 - f) + pose_at(clip, i + 1, 0)->translation[c] * f;
			d2 += (v - values[k * 3 + c]) * (v - values[k * 3 + c]);
		}
		worst = fmax(worst, sqrt(d2));
	}
	CHECK_MSG(clip->resample_error >= worst * (1 - 1e-6) - 1e-9, "reported %g, measured %g", clip->resample_error,
	          worst);
	// within half the 0.01 cm threshold (the resampling share): float noise only
	CHECK_MSG(clip->resample_error <= 1e-9, "%g", clip->resample_error);
	// every key is a sample holding the source's value exactly, and a LINEAR translation lerped between its
	// keys plays the source back at every time: no check point is needed (gltf_check_points_hold_the_source
	// has a clip that needs them)
	for (uint32_t k = 0; k < 4; ++k)
		for (int c = 0; c < 3; ++c) CHECK(pose_at(clip, k, 0)->translation[c] == values[k * 3 + c]);
	CHECK(clip->check_midpoints == 1);
	CHECK_EQ(clip->check_count, 0);
	sinew_clip_set_free(set);
	// options->sample_rate is used exactly; the tail past the last key holds it
	sinew_import_options o = gltf_options();
	o.sample_rate = 10;
	CHECK_OK(import_text(doc, &o, &set, &err), &err);
	CHECK(set->clips[0]->sample_rate == 10.0);
	CHECK_EQ(set->clips[0]->sample_count, 9);
	CHECK(pose_at(set->clips[0], 8, 0)->translation[2] == 0.02f);
	sinew_clip_set_free(set);
}

static void gltf_unit_cm_scales_translations(void) {
	float times[] = {0.0f, 1.0f};
	float values[] = {1, 2, 3, 4, 5, 6};
	static char doc[DOC_CAP];
	sinew_import_options o = gltf_options();
	o.unit_cm = 1.0; // clip units are centimetres
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(
	    import_text(one_channel_doc(doc, "translation", "LINEAR", times, 2, values, 3, ",\"translation\":[0.5,0,0]"),
	                &o, &set, &err),
	    &err);
	sinew_clip *clip = set->clips[0];
	CHECK(clip->unit_scale == 100.0);
	CHECK_NEAR(pose_at(clip, 1, 0)->translation[2], 600.0, 1e-4);
	CHECK_NEAR(clip->joints[0].default_pose.translation[0], 50.0, 1e-5);
	sinew_clip_set_free(set);
}

static void gltf_cubicspline_hits_keys(void) {
	// in-tangent, value, out-tangent per key
	float times[] = {0.0f, 0.5f, 1.0f};
	float values[] = {0, 0, 0, 1, 1, 1, 2, 0, -1, /**/ 3, 0, 0, 4, 2, 0, 1, 1, 1, /**/ 0, 0, 0, -1, 0, 5, 0, 0, 0};
	static char doc[DOC_CAP];
	sinew_import_options o = gltf_options();
	o.sample_rate = 8;
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(one_channel_doc(doc, "translation", "CUBICSPLINE", times, 3, values, 3, NULL), &o, &set, &err),
	         &err);
	sinew_clip *clip = set->clips[0];
	CHECK_EQ(clip->sample_count, 9);
	for (int c = 0; c < 3; ++c) {
		CHECK(pose_at(clip, 0, 0)->translation[c] == values[3 + c]);
		CHECK(pose_at(clip, 4, 0)->translation[c] == values[12 + c]);
		CHECK(pose_at(clip, 8, 0)->translation[c] == values[21 + c]);
	}
	// sample 2 (t = 0.25, s = 0.5 in the first interval, td = 0.5): Hermite by hand
	double s = 0.5, td = 0.5;
	for (int c = 0; c < 3; ++c) {
		double v0 = values[3 + c], b0 = values[6 + c], v1 = values[12 + c], a1 = values[9 + c];
		double p = (2 * s * s * s - 3 * s * s + 1) * v0 + td * (s * s * s - 2 * s * s + s) * b0 +
		           (-2 * s * s * s + 3 * s * s) * v1 + td * (s * s * s - s * s) * a1;
		CHECK_NEAR(pose_at(clip, 2, 0)->translation[c], p, 1e-6);
	}
	sinew_clip_set_free(set);
}

static void gltf_rotation_slerp_and_cubic_normalized(void) {
	// 0 -> 90 degrees about z: true slerp at s = 0.25 is 22.5 degrees (nlerp would give about 19.5)
	float times[] = {0.0f, 1.0f};
	float keys[] = {0, 0, 0, 1, 0, 0, 0.70710678f, 0.70710678f};
	sinewi_gltf_curve curve = {SINEWI_GLTF_ROTATION, SINEWI_GLTF_LINEAR, 4, 2, times, keys};
	double q[4];
	sinewi_gltf_curve_eval(&curve, 0.25, 0.0, NULL, q);
	CHECK_NEAR(2 * atan2(q[2], q[3]) * 57.29577951308232, 22.5, 1e-5);
	CHECK_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1.0, 1e-12);
	// shortest arc: the second key negated gives the same path
	float flipped[] = {0, 0, 0, 1, 0, 0, -0.70710678f, -0.70710678f};
	curve.values = flipped;
	double q2[4];
	sinewi_gltf_curve_eval(&curve, 0.25, 0.0, NULL, q2);
	CHECK_NEAR(fabs(q[2] * q2[2] + q[3] * q2[3]), 1.0, 1e-9);
	// before the first / after the last key: clamped; STEP holds
	sinewi_gltf_curve_eval(&curve, -1.0, 0.0, NULL, q2);
	CHECK(q2[3] == 1.0);
	curve.interpolation = SINEWI_GLTF_STEP;
	sinewi_gltf_curve_eval(&curve, 0.999, 0.0, NULL, q2);
	CHECK(q2[3] == 1.0);
	sinewi_gltf_curve_eval(&curve, 1.0, 0.0, NULL, q2);
	CHECK(q2[3] == (double)-0.70710678f);
	// CUBICSPLINE rotations are normalized after the Hermite blend
	float cubic[] = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, /**/ 0, 0, 0, 0, 0, 0, 0.70710678f, 0.70710678f, 0, 0, 0, 0};
	sinewi_gltf_curve cc = {SINEWI_GLTF_ROTATION, SINEWI_GLTF_CUBICSPLINE, 4, 2, times, cubic};
	sinewi_gltf_curve_eval(&cc, 0.4, 0.0, NULL, q);
	CHECK_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1.0, 1e-12);
}

static void gltf_normalized_integer_outputs(void) {
	// rotation as normalized shorts, weights as normalized unsigned bytes (glTF 2.0 animation output types)
	unsigned char bin[64] = {0};
	float times[] = {0.0f, 1.0f};
	memcpy(bin, times, 8);
	int16_t rot[8] = {0, 0, 0, 32767, 0, 0, 23170, 23170};
	memcpy(bin + 8, rot, 16);
	unsigned char weights[4] = {0, 255, 128, 64};
	memcpy(bin + 24, weights, 4);
	int8_t srot[4] = {0, 0, -128, 127}; // -128 clamps to -1
	memcpy(bin + 28, srot, 4);
	static char doc[DOC_CAP];
	make_gltf(doc,
	          "\"nodes\":[{\"mesh\":0},{}],\"meshes\":[{\"primitives\":[{\"attributes\":{},\"targets\":[{},{}]}]}],"
	          "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2}],"
	          "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}},"
	          "{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"weights\"}}]},"
	          "{\"samplers\":[{\"input\":3,\"output\":4,\"interpolation\":\"STEP\"}],"
	          "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}}]}],"
	          "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	          "{\"bufferView\":1,\"componentType\":5122,\"normalized\":true,\"count\":2,\"type\":\"VEC4\"},"
	          "{\"bufferView\":2,\"componentType\":5121,\"normalized\":true,\"count\":4,\"type\":\"SCALAR\"},"
	          "{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},"
	          "{\"bufferView\":3,\"componentType\":5120,\"normalized\":true,\"count\":1,\"type\":\"VEC4\"}],"
	          "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":16},"
	          "{\"buffer\":0,\"byteOffset\":24,\"byteLength\":4},{\"buffer\":0,\"byteOffset\":28,\"byteLength\":4}]",
	          bin, 32);
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(doc, NULL, &set, &err), &err);
	CHECK_EQ(set->clip_count, 2);
	sinew_clip *clip = set->clips[0];
	CHECK_EQ(clip->scalar_track_count, 2);
	const sinew_qvv *x = pose_at(clip, clip->sample_count - 1, 0);
	CHECK_NEAR(x->rotation[2], 0.70710678, 1e-6);
	CHECK_NEAR(x->rotation[3], 0.70710678, 1e-6);
	CHECK_NEAR(clip->scalar_tracks[0].values[0], 0.0, 0);
	CHECK_NEAR(clip->scalar_tracks[1].values[0], 1.0, 0);
	CHECK_NEAR(clip->scalar_tracks[0].values[clip->sample_count - 1], 128.0 / 255.0, 1e-7);
	CHECK_NEAR(clip->scalar_tracks[1].values[clip->sample_count - 1], 64.0 / 255.0, 1e-7);
	// signed byte: max(c / 127, -1): (0, 0, -1, 1) normalized
	const sinew_qvv *y = pose_at(set->clips[1], 0, 1);
	CHECK_NEAR(y->rotation[2], -0.70710678, 1e-6);
	CHECK_NEAR(y->rotation[3], 0.70710678, 1e-6);
	CHECK_EQ(set->clips[1]->joints[1].rounding, SINEW_ROUNDING_FLOOR);
	sinew_clip_set_free(set);
}

static void gltf_sparse_and_strided_accessors(void) {
	// times in view 0; translation output has no bufferView (zeros) + sparse element 1 = (1, 2, 3);
	// scale output lives in an interleaved view (stride 16) with a sparse override of element 0
	unsigned char bin[128] = {0};
	float times[] = {0.0f, 0.5f, 1.0f};
	memcpy(bin, times, 12);
	uint16_t idx[2] = {1, 0};
	memcpy(bin + 12, idx, 4);
	float sparse_values[] = {1, 2, 3, 9, 9, 9};
	memcpy(bin + 16, sparse_values, 24);
	float interleaved[12] = {5, 5, 5, -1, 6, 6, 6, -1, 7, 7, 7, -1};
	memcpy(bin + 40, interleaved, 48);
	static char doc[DOC_CAP];
	make_gltf(doc,
	          "\"nodes\":[{}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2}],"
	          "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
	          "{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"scale\"}}]}],"
	          "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"},"
	          "{\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"sparse\":{\"count\":1,"
	          "\"indices\":{\"bufferView\":1,\"componentType\":5123},\"values\":{\"bufferView\":2}}},"
	          "{\"bufferView\":3,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"sparse\":{\"count\":1,"
	          "\"indices\":{\"bufferView\":1,\"byteOffset\":2,\"componentType\":5123},"
	          "\"values\":{\"bufferView\":2,\"byteOffset\":12}}}],"
	          "\"bufferViews\":[{\"buffer\":0,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":12,\"byteLength\":4},"
	          "{\"buffer\":0,\"byteOffset\":16,\"byteLength\":24},{\"buffer\":0,\"byteOffset\":40,\"byteLength\":44,"
	          "\"byteStride\":16}]",
	          bin, 88);
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(doc, NULL, &set, &err), &err);
	sinew_clip *clip = set->clips[0];
	CHECK_NEAR(clip->sample_rate, 2.0, 1e-12);
	CHECK_EQ(clip->sample_count, 3);
	float t_expected[] = {0, 1, 0};
	float s_expected[] = {9, 6, 7};
	for (uint32_t k = 0; k < 3; ++k) {
		CHECK_MSG(pose_at(clip, k, 0)->translation[0] == t_expected[k], "translation %u", k);
		CHECK_MSG(pose_at(clip, k, 0)->scale[2] == s_expected[k], "scale %u", k);
	}
	CHECK(pose_at(clip, 1, 0)->translation[2] == 3.0f);
	sinew_clip_set_free(set);
}

/* ---- errors ---- */

typedef struct error_case {
	const char *what;
	const char *accessors; // replaces the accessor list of the base document
	const char *views;
	sinew_result code;
	const char *message; // substring
} error_case;

static void gltf_rejects_bad_accessors_and_data(void) {
	unsigned char bin[64] = {0};
	float good[] = {0.0f, 1.0f, 0, 0, 0, 1, 1, 1};
	memcpy(bin, good, sizeof good);
	float bad_times[] = {0.0f, NAN, 1.0f, -1.0f, 2.0f, 1.0f};
	memcpy(bin + 32, bad_times, sizeof bad_times);
	static const error_case cases[] = {
	    {"output beyond its view",
	     "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}",
	     NULL, SINEW_RESULT_CORRUPT, "accessor 1: 3 elements"},
	    {"offset beyond its view",
	     "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"byteOffset\":4,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}",
	     NULL, SINEW_RESULT_CORRUPT, "accessor 1"},
	    {"huge count",
	     "{\"bufferView\":0,\"componentType\":5126,\"count\":4294967295,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}",
	     NULL, SINEW_RESULT_CORRUPT, "accessor 0"},
	    {"view beyond buffer", NULL,
	     "{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":4294967295}",
	     SINEW_RESULT_CORRUPT, "bufferView 1"},
	    {"stride below element", NULL,
	     "{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24,\"byteStride\":8}",
	     SINEW_RESULT_CORRUPT, "byteStride 8"},
	    {"bad stride", NULL,
	     "{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24,\"byteStride\":2}",
	     SINEW_RESULT_CORRUPT, "byteStride 2"},
	    {"NaN key time",
	     "{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}",
	     NULL, SINEW_RESULT_NOT_FINITE, "accessor 0: key time 1"},
	    {"decreasing key times",
	     "{\"bufferView\":2,\"byteOffset\":16,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}",
	     NULL, SINEW_RESULT_CORRUPT, "accessor 0: key times decrease at key 1"},
	    {"negative key time",
	     "{\"bufferView\":2,\"byteOffset\":12,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}",
	     NULL, SINEW_RESULT_CORRUPT, "accessor 0: key time 0 is negative"},
	    {"NaN output",
	     "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}",
	     NULL, SINEW_RESULT_NOT_FINITE, "accessor 1: element 0"},
	    {"count mismatch",
	     "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}",
	     NULL, SINEW_RESULT_CORRUPT, "output accessor 1 has 1 elements, expected 2"},
	    {"integer times",
	     "{\"bufferView\":0,\"componentType\":5125,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}",
	     NULL, SINEW_RESULT_CORRUPT, "accessor 0: animation input must be a SCALAR float"},
	    {"VEC4 translation",
	     "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"componentType\":5126,\"count\":1,\"type\":\"VEC4\"}",
	     NULL, SINEW_RESULT_CORRUPT, "accessor 1: translation output needs 3"},
	    {"uint translation",
	     "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"componentType\":5125,\"count\":2,\"type\":\"VEC3\"}",
	     NULL, SINEW_RESULT_CORRUPT, "componentType 5125"},
	    {"normalized float",
	     "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"componentType\":5126,\"normalized\":true,\"count\":2,\"type\":\"VEC3\"}",
	     NULL, SINEW_RESULT_CORRUPT, "cannot be normalized"},
	    {"unknown type",
	     "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"VEC9\"},"
	     "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}",
	     NULL, SINEW_RESULT_CORRUPT, "unknown type"},
	    {"matrix type",
	     "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"componentType\":5126,\"count\":1,\"type\":\"MAT4\"}",
	     NULL, SINEW_RESULT_CORRUPT, "MAT4"},
	    {"sparse index out of range",
	     "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\",\"sparse\":{\"count\":1,"
	     "\"indices\":{\"bufferView\":0,\"byteOffset\":6,\"componentType\":5121},\"values\":{\"bufferView\":1}}}",
	     NULL, SINEW_RESULT_CORRUPT, "sparse index 0 is 128"},
	    {"sparse values beyond view",
	     "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\",\"sparse\":{\"count\":2,"
	     "\"indices\":{\"bufferView\":1,\"componentType\":5121},\"values\":{\"bufferView\":0}}}",
	     NULL, SINEW_RESULT_CORRUPT, "sparse values"},
	    {"missing bufferView index",
	     "{\"bufferView\":7,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}",
	     NULL, SINEW_RESULT_CORRUPT, "bufferView 7 does not exist"},
	    {"count is a string",
	     "{\"bufferView\":0,\"componentType\":5126,\"count\":\"2\",\"type\":\"SCALAR\"},"
	     "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}",
	     NULL, SINEW_RESULT_CORRUPT, "accessors[0].\"count\" must be an unsigned integer"},
	    {"zero-filled giant",
	     "{\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	     "{\"componentType\":5126,\"count\":4000000000,\"type\":\"VEC3\"}",
	     NULL, SINEW_RESULT_UNSUPPORTED, "without a bufferView"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		const error_case *c = &cases[i];
		char body[4096];
		snprintf(body, sizeof body,
		         "\"nodes\":[{}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],"
		         "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}],"
		         "\"accessors\":[%s],\"bufferViews\":[%s]",
		         c->accessors ? c->accessors
		                      : "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
		                        "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}",
		         c->views ? c->views
		                  : "{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24},"
		                    "{\"buffer\":0,\"byteOffset\":32,\"byteLength\":24}");
		static char doc[DOC_CAP];
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		sinew_result r = import_text(make_gltf(doc, body, bin, 56), NULL, &set, &err);
		CHECK_MSG(r == c->code && set == NULL, "%s: %s (%s)", c->what, sinew_result_name(r), err.message);
		CHECK_MSG(strstr(err.message, c->message) != NULL, "%s: message \"%s\" lacks \"%s\"", c->what, err.message,
		          c->message);
	}
}

static void gltf_rejects_bad_documents(void) {
	static const struct {
		const char *what;
		const char *text;
		sinew_result code;
		const char *message;
	} cases[] = {
	    {"syntax", "{\"asset\":{\"version\":\"2.0\"},\n\"nodes\":[{},]}", SINEW_RESULT_PARSE, "line 2"},
	    {"root array", "[]", SINEW_RESULT_CORRUPT, "root"},
	    {"no asset", "{\"nodes\":[]}", SINEW_RESULT_CORRUPT, "\"asset\" is missing"},
	    {"glTF 1.0", "{\"asset\":{\"version\":\"1.0\"}}", SINEW_RESULT_UNSUPPORTED, "1.0"},
	    {"minVersion", "{\"asset\":{\"version\":\"2.0\",\"minVersion\":\"2.1\"}}", SINEW_RESULT_UNSUPPORTED,
	     "minVersion"},
	    {"no animations", "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}]}", SINEW_RESULT_BAD_COUNT, "no animation"},
	    {"nodes not array", "{\"asset\":{\"version\":\"2.0\"},\"nodes\":{}}", SINEW_RESULT_CORRUPT,
	     "\"nodes\" must be an array"},
	    {"cycle",
	     "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[1]},{\"children\":[2]},{\"children\":[0]}]}",
	     SINEW_RESULT_CORRUPT, "cycle"},
	    {"detached cycle", "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},{\"children\":[2]},{\"children\":[1]}]}",
	     SINEW_RESULT_CORRUPT, "cycle"},
	    {"self child", "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[0]}]}", SINEW_RESULT_CORRUPT,
	     "itself"},
	    {"two parents", "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[2]},{\"children\":[2]},{}]}",
	     SINEW_RESULT_CORRUPT, "two parents"},
	    {"child out of range", "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[5]}]}", SINEW_RESULT_CORRUPT,
	     "child 0"},
	    {"channel node out of range",
	     "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"accessors\":[{\"componentType\":5126,\"count\":1,\"type\":"
	     "\"SCALAR\"},{\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],\"animations\":[{\"samplers\":[{"
	     "\"input\":0,"
	     "\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":3,\"path\":\"scale\"}}]}]}",
	     SINEW_RESULT_CORRUPT, "node 3 does not exist"},
	    {"sampler out of range",
	     "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"accessors\":[{\"componentType\":5126,\"count\":1,\"type\":"
	     "\"SCALAR\"},{\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],\"animations\":[{\"samplers\":[{"
	     "\"input\":0,"
	     "\"output\":1}],\"channels\":[{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"scale\"}}]}]}",
	     SINEW_RESULT_CORRUPT, "sampler 1 does not exist"},
	    {"bad interpolation",
	     "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"accessors\":[{\"componentType\":5126,\"count\":1,\"type\":"
	     "\"SCALAR\"},{\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],\"animations\":[{\"samplers\":[{"
	     "\"input\":0,"
	     "\"output\":1,\"interpolation\":\"QUADRATIC\"}],\"channels\":[]}]}",
	     SINEW_RESULT_CORRUPT, "QUADRATIC"},
	    {"missing path",
	     "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"accessors\":[{\"componentType\":5126,\"count\":1,\"type\":"
	     "\"SCALAR\"},{\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],\"animations\":[{\"samplers\":[{"
	     "\"input\":0,"
	     "\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0}}]}]}",
	     SINEW_RESULT_CORRUPT, "\"path\" is missing"},
	    {"zero rotation",
	     "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"accessors\":[{\"componentType\":5126,\"count\":1,\"type\":"
	     "\"SCALAR\"},{\"componentType\":5126,\"count\":1,\"type\":\"VEC4\"}],\"animations\":[{\"samplers\":[{"
	     "\"input\":0,"
	     "\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}]}",
	     SINEW_RESULT_CORRUPT, "rotation key 0 has length 0"},
	    {"no buffer for view",
	     "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":4}],"
	     "\"buffers\":[{\"byteLength\":4}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":1,"
	     "\"type\":"
	     "\"SCALAR\"},{\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],\"animations\":[{\"samplers\":[{"
	     "\"input\":0,"
	     "\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"scale\"}}]}]}",
	     SINEW_RESULT_CORRUPT, "no GLB BIN chunk"},
	    {"bad base64",
	     "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":4}],"
	     "\"buffers\":[{\"byteLength\":4,\"uri\":\"data:application/octet-stream;base64,AA*AAA==\"}],\"accessors\":[{"
	     "\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},{\"componentType\":5126,\"count\":1,"
	     "\"type\":\"VEC3\"}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,"
	     "\"target\":{\"node\":0,\"path\":\"scale\"}}]}]}",
	     SINEW_RESULT_CORRUPT, "invalid base64"},
	    {"short data uri",
	     "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":4}],"
	     "\"buffers\":[{\"byteLength\":8,\"uri\":\"data:application/octet-stream;base64,AAAAAA==\"}],\"accessors\":[{"
	     "\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},{\"componentType\":5126,\"count\":1,"
	     "\"type\":\"VEC3\"}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,"
	     "\"target\":{\"node\":0,\"path\":\"scale\"}}]}]}",
	     SINEW_RESULT_CORRUPT, "byteLength is 8 but only 4 bytes"},
	    {"external without base",
	     "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":4}],"
	     "\"buffers\":[{\"byteLength\":4,\"uri\":\"anim.bin\"}],\"accessors\":[{"
	     "\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},{\"componentType\":5126,\"count\":1,"
	     "\"type\":\"VEC3\"}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,"
	     "\"target\":{\"node\":0,\"path\":\"scale\"}}]}]}",
	     SINEW_RESULT_IO, "needs a base folder"},
	    {"shear",
	     "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"matrix\":[1,0,0,0, 0.5,1,0,0, 0,0,1,0, "
	     "0,0,0,1]}],\"accessors\":[{"
	     "\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},{\"componentType\":5126,\"count\":1,\"type\":"
	     "\"VEC3\"}],"
	     "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":"
	     "0,"
	     "\"path\":\"scale\"}}]}]}",
	     SINEW_RESULT_CORRUPT, "shear"},
	    {"projective",
	     "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"matrix\":[1,0,0,0.1, 0,1,0,0, 0,0,1,0, "
	     "0,0,0,1]}],\"accessors\":[{"
	     "\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},{\"componentType\":5126,\"count\":1,\"type\":"
	     "\"VEC3\"}],"
	     "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":"
	     "0,"
	     "\"path\":\"scale\"}}]}]}",
	     SINEW_RESULT_CORRUPT, "projective"},
	    {"rotation of 3 numbers",
	     "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"rotation\":[0,0,1]}],\"accessors\":[{"
	     "\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},{\"componentType\":5126,\"count\":1,\"type\":"
	     "\"VEC3\"}],"
	     "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":"
	     "0,"
	     "\"path\":\"scale\"}}]}]}",
	     SINEW_RESULT_CORRUPT, "\"rotation\" must be an array of 4 numbers"},
	    {"skin joint out of range",
	     "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"skins\":[{\"joints\":[0,4]}],\"accessors\":[{"
	     "\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},{\"componentType\":5126,\"count\":1,\"type\":"
	     "\"VEC3\"}],"
	     "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":"
	     "0,"
	     "\"path\":\"scale\"}}]}]}",
	     SINEW_RESULT_CORRUPT, "skin 0: joint 1"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		sinew_result r = import_text(cases[i].text, NULL, &set, &err);
		CHECK_MSG(r == cases[i].code && set == NULL, "%s: %s (%s)", cases[i].what, sinew_result_name(r), err.message);
		CHECK_MSG(strstr(err.message, cases[i].message) != NULL, "%s: message \"%s\" lacks \"%s\"", cases[i].what,
		          err.message, cases[i].message);
	}
}

/* ---- nodes, skeleton, morph targets ---- */

static void mat4_from_qvv(const sinew_qvv *x, double m[16]) {
	double q[4] = {x->rotation[0], x->rotation[1], x->rotation[2], x->rotation[3]}, r[3][3];
	sinewi_quat_to_matrix_d(q, r);
	memset(m, 0, 16 * sizeof(double));
	for (int c = 0; c < 3; ++c)
		for (int row = 0; row < 3; ++row) m[c * 4 + row] = r[row][c] * x->scale[c];
	for (int row = 0; row < 3; ++row) m[12 + row] = x->translation[row];
	m[15] = 1;
}

static void gltf_node_matrix_decomposition(void) {
	// column-major T * Rz(90) * S(2, 3, 4), a mirrored one (negative determinant) and a zero-scale axis
	static const char *matrices[] = {
	    "[0,2,0,0, -3,0,0,0, 0,0,4,0, 1,2,3,1]",
	    "[0,-2,0,0, -3,0,0,0, 0,0,4,0, 1,2,3,1]",
	    "[0.36,0.48,-0.8,0, -0.8,0.6,0,0, 0,0,0,0, 5,0,0,1]",
	};
	for (int i = 0; i < 3; ++i) {
		char body[1024], extra[256];
		snprintf(extra, sizeof extra, "\"matrix\":%s", matrices[i]);
		snprintf(body, sizeof body,
		         "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{%s,\"children\":[1]},{}],\"accessors\":[{"
		         "\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},{\"componentType\":5126,\"count\":1,\"type\":"
		         "\"VEC3\"}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,"
		         "\"target\":{\"node\":1,\"path\":\"translation\"}}]}]}",
		         extra);
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		CHECK_OK(import_text(body, NULL, &set, &err), &err);
		sinew_clip *clip = set->clips[0];
		CHECK_EQ(clip->joint_count, 2);
		CHECK_EQ(clip->joints[0].has_track, 0);
		CHECK_EQ(clip->joints[1].parent, 0);
		double m[16], want[16];
		mat4_from_qvv(&clip->joints[0].default_pose, m);
		sinewi_arena arena;
		sinewi_arena_init(&arena, NULL);
		sinewi_json *parsed = NULL;
		CHECK_OK(sinewi_json_parse(&arena, matrices[i], strlen(matrices[i]), &parsed, &err), &err);
		for (uint32_t k = 0; k < 16; ++k) sinewi_json_number(sinewi_json_at(parsed, k), &want[k]);
		sinewi_arena_free(&arena);
		for (int k = 0; k < 16; ++k)
			CHECK_MSG(fabs(m[k] - want[k]) < 1e-6, "matrix %d element %d: %g vs %g", i, k, m[k], want[k]);
		sinew_clip_set_free(set);
	}
}

static void gltf_skeleton_order_skins_and_uniform_clips(void) {
	// node 0 (root, unanimated) -> children 2, 3; node 2 -> child 1 (animated in clip 0); node 3 is a skin joint;
	// node 4 animated in clip 1 only; node 5 unrelated. Every clip gets the same skeleton: 0, 2, 1, 3, 4.
	float bin[8] = {0.0f, 1.0f, 1, 2, 3, 4, 5, 6};
	static char doc[DOC_CAP];
	make_gltf(
	    doc,
	    "\"nodes\":[{\"name\":\"root\",\"children\":[2,3]},{\"name\":\"leaf\",\"translation\":[9,8,7]},"
	    "{\"children\":[1],\"scale\":[2,2,2]},{\"name\":\"skinned\"},{\"name\":\"other\",\"rotation\":[0,1,0,0]},{}],"
	    "\"skins\":[{\"joints\":[3]}],"
	    "\"animations\":[{\"name\":\"first\",\"samplers\":[{\"input\":0,\"output\":1}],"
	    "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}]},"
	    "{\"name\":\"second\",\"samplers\":[{\"input\":0,\"output\":1}],"
	    "\"channels\":[{\"sampler\":0,\"target\":{\"node\":4,\"path\":\"scale\"}},"
	    "{\"sampler\":0,\"target\":{\"node\":4,\"path\":\"scale\"}}]}],"
	    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	    "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
	    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24}]",
	    bin, sizeof bin);
	sinew_import_options o = gltf_options();
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(doc, &o, &set, &err), &err);
	CHECK_EQ(warnings, 1); // node 4 scale animated twice in "second"
	CHECK(strstr(last_warning, "animated twice") != NULL);
	CHECK_EQ(set->clip_count, 2);
	int32_t nodes[] = {0, 2, 1, 3, 4}, parents[] = {-1, 0, 1, 0, -1};
	// has_track: the joints a channel of this clip targets (node 1 in the first, node 4 in the second)
	uint8_t clip_tracks[2][5] = {{0, 0, 1, 0, 0}, {0, 0, 0, 0, 1}};
	for (uint32_t c = 0; c < 2; ++c) {
		const uint8_t *tracks = clip_tracks[c];
		sinew_clip *clip = set->clips[c];
		CHECK(strcmp(clip->name, c ? "second" : "first") == 0);
		CHECK_EQ(clip->joint_count, 5);
		for (uint32_t j = 0; j < 5; ++j) {
			CHECK_EQ(clip->joints[j].source_index, nodes[j]);
			CHECK_EQ(clip->joints[j].parent, parents[j]);
			CHECK_EQ(clip->joints[j].has_track, tracks[j]);
			CHECK(clip->joints[j].name == set->clips[0]->joints[j].name);
		}
		CHECK(clip->joints[1].name == NULL && strcmp(clip->joints[2].name, "leaf") == 0);
	}
	// unanimated sub-tracks take the rest pose; the animated ones the keys
	sinew_clip *first = set->clips[0], *second = set->clips[1];
	CHECK(pose_at(first, 1, 2)->translation[2] == 6.0f && pose_at(first, 0, 1)->scale[0] == 2.0f);
	CHECK(pose_at(first, 1, 4)->rotation[1] == 1.0f && pose_at(first, 1, 4)->scale[0] == 1.0f);
	CHECK(pose_at(second, 1, 2)->translation[0] == 9.0f && pose_at(second, 1, 4)->scale[0] == 4.0f);
	sinew_clip_set_free(set);
}

static void gltf_morph_weights_become_uniform_scalar_tracks(void) {
	float bin[16] = {0.0f, 0.5f, 1.0f, /* weights: 2 targets x 3 keys */ 1, 0, 0, 1, 0.5f, 0.5f};
	static char doc[DOC_CAP];
	make_gltf(doc,
	          "\"nodes\":[{\"name\":\"face\",\"mesh\":0},{\"name\":\"other\"}],"
	          "\"meshes\":[{\"weights\":[0.25,0.75],\"primitives\":[{\"attributes\":{},\"targets\":[{},{}]}]}],"
	          "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1,\"interpolation\":\"STEP\"}],"
	          "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}]},"
	          "{\"samplers\":[{\"input\":0,\"output\":2}],"
	          "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}]}],"
	          "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"},"
	          "{\"bufferView\":1,\"componentType\":5126,\"count\":6,\"type\":\"SCALAR\"},"
	          "{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"byteOffset\":0}],"
	          "\"bufferViews\":[{\"buffer\":0,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":12,\"byteLength\":36}]",
	          bin, 48);
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(doc, NULL, &set, &err), &err);
	CHECK_EQ(set->clip_count, 2);
	for (uint32_t c = 0; c < 2; ++c) {
		sinew_clip *clip = set->clips[c];
		CHECK_EQ(clip->scalar_track_count, 2);
		for (uint32_t t = 0; t < 2; ++t) {
			const sinew_scalar_track *track = &clip->scalar_tracks[t];
			CHECK_EQ(track->components, 1);
			CHECK_EQ(track->source_node, 0);
			CHECK_EQ(track->source_target, (int32_t)t);
			CHECK(track->precision == 0.0f);
			CHECK(track->default_value[0] == (t ? 0.75f : 0.25f));
			CHECK(strcmp(track->name, t ? "face.weights[1]" : "face.weights[0]") == 0);
		}
	}
	sinew_clip *w = set->clips[0];
	CHECK_NEAR(w->sample_rate, 2.0, 1e-12);
	CHECK_EQ(w->scalar_tracks[0].rounding, SINEW_ROUNDING_FLOOR);
	float want0[] = {1, 0, 0.5f}, want1[] = {0, 1, 0.5f};
	for (uint32_t k = 0; k < 3; ++k) {
		CHECK(w->scalar_tracks[0].values[k] == want0[k]);
		CHECK(w->scalar_tracks[1].values[k] == want1[k]);
	}
	sinew_clip *other = set->clips[1];
	for (uint32_t k = 0; k < other->sample_count; ++k)
		CHECK(other->scalar_tracks[0].values[k] == 0.25f && other->scalar_tracks[1].values[k] == 0.75f);
	sinew_clip_set_free(set);
}

// Morph weights in vertex units (DESIGN §4): a weight's precision is E / (reach * overlap * S) where the mesh is
// known: reach its target's largest vertex displacement, overlap the largest sum of the displacement shares of
// the targets a clip plays at once, S the bound of the map into the scene over the clip (the product of the
// largest scale magnitudes up the chain; a skinned mesh's joints times their inverse bind matrices). E = 0.01 cm.
//   face (under root, scale 3; the root's scale animated 3 -> 6 in clip b): target 0 moves vertex 0 by 2 m,
//     target 1 vertices 1 and 2 by 0.5 and 0.3 m (no vertex moved by both: overlap 1), target 2 normals only
//   pair: both targets move its one vertex by 1 m (overlap 2), target 1 idle (zero) all through clip c
//   skinned: one target of 1 m, its skin's joint scaled 2 with an inverse bind matrix scaled 0.25 (S = 0.5; its
//     node, under a holder scaled 0.1, would give 0.1: the larger bound is taken)
//   broken: a second primitive with 1 target for 2 weights: the value rule, with a warning
static void gltf_morph_weights_in_vertex_units(void) {
	static float bin[96];
	const float data[] = {
	    0, 1, 2,                                   // 0 times
	    0, 1, 0, 1, 0, 0, 0.5f, 0.5f, 1,           // 3 face weights, 3 keys
	    3, 3, 3, 6, 6, 6,                          // 12 root scale, 2 keys
	    2, 0, 0, 0, 0, 0, 0, 0, 0,                 // 18 face target 0
	    0, 0, 0, 0, 0.5f, 0, 0, 0, 0.3f,           // 27 face target 1
	    0, 0, 1, 0, 0, 1, 0, 0, 1,                 // 36 face target 2 (normals)
	    0, 0, 0, 1, 0, 0, 0, 1, 0,                 // 45 face positions
	    1, 0, 0,                                   // 54 pair target 0
	    0, 1, 0,                                   // 57 pair target 1
	    0, 0, 0,                                   // 60 pair position
	    1, 0, 0, 0, 0.5f, 0,                       // 63 clip c: pair weights, target 1 zero
	    1, 1, 0, 0.5f, 0, 0,                       // 69 clip d: both
	    0.25f, 0, 0, 0, 0, 0.25f, 0, 0, 0, 0, 0.25f, 0, 0, 0, 0, 1, // 75 inverse bind matrix
	    0, 1, 0.5f,                                // 91 clip e: skinned weight
	};
	memcpy(bin, data, sizeof data);
	static char body[8192], doc[DOC_CAP];
	const uint32_t at[] = {0, 3, 12, 18, 27, 36, 45, 54, 57, 60, 63, 69, 75, 91, 94};
	char views[2048] = "";
	for (int v = 0; v < 14; ++v) {
		char one[96];
		snprintf(one, sizeof one, "%s{\"buffer\":0,\"byteOffset\":%u,\"byteLength\":%u}", v ? "," : "", at[v] * 4,
		         (at[v + 1] - at[v]) * 4);
		strcat(views, one);
	}
	snprintf(body, sizeof body,
	         "\"nodes\":[{\"name\":\"root\",\"scale\":[3,3,3],\"children\":[1]},{\"name\":\"face\",\"mesh\":0},"
	         "{\"name\":\"pair\",\"mesh\":1},{\"name\":\"bone\",\"scale\":[2,2,2]},{\"name\":\"skinned\",\"mesh\":2,\"skin\":0},"
	         "{\"name\":\"broken\",\"mesh\":3},{\"name\":\"holder\",\"scale\":[0.1,0.1,0.1],\"children\":[4]}],"
	         "\"skins\":[{\"joints\":[3],\"inverseBindMatrices\":13}],"
	         "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":7},\"targets\":[{\"POSITION\":4},{\"POSITION\":5},{\"NORMAL\":6}]}]},"
	         "{\"primitives\":[{\"attributes\":{\"POSITION\":10},\"targets\":[{\"POSITION\":8},{\"POSITION\":9}]}]},"
	         "{\"primitives\":[{\"attributes\":{\"POSITION\":10},\"targets\":[{\"POSITION\":8}]}]},"
	         "{\"primitives\":[{\"attributes\":{\"POSITION\":10},\"targets\":[{\"POSITION\":8},{\"POSITION\":9}]},"
	         "{\"attributes\":{\"POSITION\":10},\"targets\":[{\"POSITION\":8}]}]}],"
	         "\"animations\":["
	         "{\"name\":\"a\",\"samplers\":[{\"input\":0,\"output\":2}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"weights\"}}]},"
	         "{\"name\":\"b\",\"samplers\":[{\"input\":0,\"output\":2},{\"input\":1,\"output\":3}],\"channels\":["
	         "{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"weights\"}},{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"scale\"}}]},"
	         "{\"name\":\"c\",\"samplers\":[{\"input\":0,\"output\":11}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"weights\"}}]},"
	         "{\"name\":\"d\",\"samplers\":[{\"input\":0,\"output\":12}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"weights\"}}]},"
	         "{\"name\":\"e\",\"samplers\":[{\"input\":0,\"output\":14}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":4,\"path\":\"weights\"}}]},"
	         "{\"name\":\"f\",\"samplers\":[{\"input\":0,\"output\":11}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":5,\"path\":\"weights\"}}]}],"
	         "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"},"
	         "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	         "{\"bufferView\":1,\"componentType\":5126,\"count\":9,\"type\":\"SCALAR\"},"
	         "{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
	         "{\"bufferView\":3,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
	         "{\"bufferView\":4,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
	         "{\"bufferView\":5,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
	         "{\"bufferView\":6,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
	         "{\"bufferView\":7,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"},"
	         "{\"bufferView\":8,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"},"
	         "{\"bufferView\":9,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"},"
	         "{\"bufferView\":10,\"componentType\":5126,\"count\":6,\"type\":\"SCALAR\"},"
	         "{\"bufferView\":11,\"componentType\":5126,\"count\":6,\"type\":\"SCALAR\"},"
	         "{\"bufferView\":12,\"componentType\":5126,\"count\":1,\"type\":\"MAT4\"},"
	         "{\"bufferView\":13,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"}],"
	         "\"bufferViews\":[%s]",
	         views);
	make_gltf(doc, body, bin, sizeof data);
	sinew_import_options o = gltf_options();
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(doc, &o, &set, &err), &err);
	CHECK_EQ(set->clip_count, 6);
	CHECK_MSG(warnings == 1 && strstr(last_warning, "node 5") && strstr(last_warning, "primitive 1 of mesh 3 has 1 targets for 2 weights"),
	          "%d warning(s): %s", warnings, last_warning);
	// want[clip][node, target, precision]: face 1, pair 2, skinned 4, broken 5
	static const struct { const char *clip; int node, target; double precision; } want[] = {
	    {"a", 1, 0, 1e-4 / (2 * 1 * 3)}, {"a", 1, 1, 1e-4 / (0.5 * 1 * 3)}, {"a", 1, 2, 0}, // normals only: value rule
	    {"a", 2, 0, 1e-4 / (1 * 2 * 1)},  // not animated in a: every target may play
	    {"a", 4, 0, 1e-4 / (1 * 1 * 0.5)}, {"a", 5, 0, 0}, {"a", 5, 1, 0},
	    {"b", 1, 0, 1e-4 / (2 * 1 * 6)}, {"b", 1, 1, 1e-4 / (0.5 * 1 * 6)}, // the root's scale reaches 6 in b
	    {"c", 2, 0, 1e-4 / (1 * 1 * 1)}, {"c", 2, 1, 1e-4 / (1 * 1 * 1)},  // target 1 idle: no overlap
	    {"d", 2, 0, 1e-4 / (1 * 2 * 1)}, {"d", 2, 1, 1e-4 / (1 * 2 * 1)},  // both at once on the one vertex
	    {"e", 4, 0, 1e-4 / (1 * 1 * 0.5)},
	    {"f", 5, 0, 0}, {"f", 5, 1, 0},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; ++i) {
		const sinew_clip *clip = NULL;
		for (uint32_t c = 0; c < set->clip_count; ++c)
			if (strcmp(set->clips[c]->name, want[i].clip) == 0) clip = set->clips[c];
		CHECK(clip != NULL);
		const sinew_scalar_track *track = NULL;
		for (uint32_t t = 0; clip && t < clip->scalar_track_count; ++t)
			if (clip->scalar_tracks[t].source_node == want[i].node && clip->scalar_tracks[t].source_target == want[i].target)
				track = &clip->scalar_tracks[t];
		CHECK_MSG(track != NULL, "clip %s: no track for node %d target %d", want[i].clip, want[i].node, want[i].target);
		if (!track) continue;
		CHECK_MSG(fabs(track->precision - want[i].precision) <= 1e-6 * want[i].precision,
		          "clip %s node %d target %d: precision %.9g, want %.9g", want[i].clip, want[i].node, want[i].target,
		          (double)track->precision, want[i].precision);
	}
	sinew_clip_set_free(set);
	// the threshold scales them: at 0.1 cm ten times coarser
	o = gltf_options();
	o.error_cm = 0.1;
	CHECK_OK(import_text(doc, &o, &set, &err), &err);
	CHECK_NEAR(set->clips[0]->scalar_tracks[0].precision, 1e-3 / 6, 1e-9);
	sinew_clip_set_free(set);
}

static void gltf_skips_unusable_channels(void) {
	const char *common = "\"accessors\":[{\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},"
	                     "{\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"},"
	                     "{\"componentType\":5126,\"count\":0,\"type\":\"SCALAR\"},"
	                     "{\"componentType\":5126,\"count\":0,\"type\":\"VEC3\"}]";
	char text[4096];
	snprintf(text, sizeof text,
	         "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},{}],%s,\"animations\":[{\"samplers\":[{\"input\":0,"
	         "\"output\":1},{\"input\":2,\"output\":3},{\"input\":0,\"output\":0}],\"channels\":["
	         "{\"sampler\":0,\"target\":{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":{\"pointer\":"
	         "\"/materials/0/emissiveFactor\"}}}},"
	         "{\"sampler\":0,\"target\":{\"path\":\"scale\"}},"
	         "{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"scale\"}},"
	         "{\"sampler\":2,\"target\":{\"node\":1,\"path\":\"weights\"}}]}]}",
	         common);
	sinew_import_options o = gltf_options();
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_RESULT(import_text(text, &o, &set, &err), SINEW_RESULT_BAD_COUNT, &err);
	CHECK(strstr(err.message, "no animation with node channels") != NULL);
	CHECK_EQ(warnings, 4);
	// the same plus one good channel: one clip, the rest still skipped with warnings
	snprintf(
	    text, sizeof text,
	    "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},{}],%s,\"animations\":[{\"samplers\":[{\"input\":0,"
	    "\"output\":1},{\"input\":2,\"output\":3}],\"channels\":["
	    "{\"sampler\":0,\"target\":{\"path\":\"pointer\"}},{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"scale\"}},"
	    "{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}]},{\"channels\":[]}]}",
	    common);
	o = gltf_options();
	CHECK_OK(import_text(text, &o, &set, &err), &err);
	CHECK_EQ(set->clip_count, 1);
	CHECK_EQ(set->clips[0]->sample_count, 1);
	CHECK_EQ(warnings, 3); // pointer, zero keys, empty animation 1
	sinew_clip_set_free(set);
}

/* ---- containers and external files ---- */

static void write_file(const char *path, const void *data, size_t size) {
	FILE *f = fopen(path, "wb");
	if (!f) return;
	fwrite(data, 1, size, f);
	fclose(f);
}

static void gltf_external_buffers(void) {
	float bin[8] = {0.0f, 0.5f, 1, 2, 3, 4, 5, 6};
	char dir_file[512], path[512];
	test_tmp_path("anim data.bin", dir_file, sizeof dir_file);
	write_file(dir_file, bin, sizeof bin);
	const char *format =
	    "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"buffers\":[{\"byteLength\":32,\"uri\":\"%s\"}],"
	    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24}],"
	    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
	    "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
	    "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],"
	    "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}";
	static const struct {
		const char *uri;
		sinew_result code;
	} cases[] = {
	    {"anim%20data.bin", SINEW_RESULT_OK},
	    {"./anim%20data.bin", SINEW_RESULT_OK},
	    {"missing.bin", SINEW_RESULT_IO},
	    {"../anim%20data.bin", SINEW_RESULT_IO},
	    {"sub/../anim%20data.bin", SINEW_RESULT_IO},
	    {"/etc/passwd", SINEW_RESULT_IO},
	    {"file:///etc/passwd", SINEW_RESULT_IO},
	    {"http://example.com/a.bin", SINEW_RESULT_IO},
	    {"anim%00.bin", SINEW_RESULT_IO},
	};
	char text[2048];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		snprintf(text, sizeof text, format, cases[i].uri);
		test_tmp_path("external.gltf", path, sizeof path);
		write_file(path, text, strlen(text));
		sinew_import_options o = gltf_options();
		o.kind = SINEW_FILE_AUTO;
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		sinew_result r = sinew_import_file(path, &o, NULL, &set, &err);
		CHECK_MSG(r == cases[i].code, "uri %s: %s (%s)", cases[i].uri, sinew_result_name(r), err.message);
		if (r == SINEW_RESULT_OK) {
			CHECK(pose_at(set->clips[0], 1, 0)->translation[2] == 6.0f);
			sinew_clip_set_free(set);
		}
	}
	// memory import: external buffers need options->base_path
	snprintf(text, sizeof text, format, "anim%20data.bin");
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_RESULT(import_text(text, NULL, &set, &err), SINEW_RESULT_IO, &err);
	sinew_import_options o = gltf_options();
	char dir[512];
	test_tmp_path("", dir, sizeof dir);
	o.base_path = dir;
	CHECK_OK(import_text(text, &o, &set, &err), &err);
	sinew_clip_set_free(set);
}

// data: URIs without ";base64" are percent-encoded: one byte per literal character, three per %XX escape.
static void gltf_percent_encoded_data_uri(void) {
	char uri[512] = "";
	for (int i = 0; i < 27; ++i) strcat(uri, "QQQQ"); // 108 literal bytes before the values
	strcat(uri, "AAAA%42%42BBCC%43C");
	char text[2048];
	snprintf(text, sizeof text,
	         "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"buffers\":[{\"byteLength\":120,"
	         "\"uri\":\"data:application/octet-stream,%s\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":120}],"
	         "\"accessors\":[{\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},{\"bufferView\":0,"
	         "\"byteOffset\":108,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],\"animations\":[{"
	         "\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,"
	         "\"path\":\"scale\"}}]}]}",
	         uri);
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(text, NULL, &set, &err), &err);
	float want[3];
	memcpy(want, "AAAABBBBCCCC", 12);
	for (int c = 0; c < 3; ++c) CHECK(pose_at(set->clips[0], 0, 0)->scale[c] == want[c]);
	sinew_clip_set_free(set);
}

static const char *glb_json =
    "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"n\"}],\"buffers\":[{\"byteLength\":32}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
    "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
    "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],"
    "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}";

static void gltf_glb_container(void) {
	float bin[8] = {0.0f, 0.5f, 1, 2, 3, 4, 5, 6};
	static unsigned char glb[8192];
	size_t size = make_glb(glb, sizeof glb, glb_json, bin, sizeof bin);
	CHECK(size > 0);
	sinew_import_options o = gltf_options();
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_memory(glb, size, &o, NULL, &set, &err), &err);
	CHECK(pose_at(set->clips[0], 1, 0)->translation[0] == 4.0f);
	sinew_clip_set_free(set);
	o.kind = SINEW_FILE_AUTO; // the magic identifies it
	CHECK_OK(sinew_import_memory(glb, size, &o, NULL, &set, &err), &err);
	sinew_clip_set_free(set);
	o.kind = SINEW_FILE_GLTF;
	// truncated at every length: a clean error each time (copies, so ASan sees reads past the end)
	for (size_t n = 0; n < size; ++n) {
		unsigned char *copy = (unsigned char *)malloc(n ? n : 1);
		CHECK(copy);
		memcpy(copy, glb, n);
		sinew_result r = sinew_import_memory(copy, n, &o, NULL, &set, &err);
		free(copy);
		sinew_result want = n < 4 ? SINEW_RESULT_PARSE : SINEW_RESULT_TRUNCATED;
		CHECK_MSG(r == want && set == NULL, "length %zu: %s (%s)", n, sinew_result_name(r), err.message);
	}
	// header and chunk faults
	static const struct {
		size_t offset;
		uint32_t value;
		sinew_result code;
		const char *message;
	} patches[] = {
	    {4, 1, SINEW_RESULT_UNSUPPORTED, "GLB version 1"},
	    {8, 0, SINEW_RESULT_CORRUPT, "header says 0 bytes"},
	    {16, 0x004E4942u, SINEW_RESULT_CORRUPT, "first chunk"},
	    {12, 0x7FFFFFF0u, SINEW_RESULT_CORRUPT, "exceeds the file"},
	    {12, 2, SINEW_RESULT_CORRUPT, "not a multiple of 4"},
	};
	for (size_t i = 0; i < sizeof patches / sizeof patches[0]; ++i) {
		unsigned char *copy = (unsigned char *)malloc(size);
		CHECK(copy);
		memcpy(copy, glb, size);
		memcpy(copy + patches[i].offset, &patches[i].value, 4);
		sinew_result r = sinew_import_memory(copy, size, &o, NULL, &set, &err);
		free(copy);
		CHECK_MSG(r == patches[i].code && strstr(err.message, patches[i].message), "patch %zu: %s (%s)", i,
		          sinew_result_name(r), err.message);
	}
	// trailing bytes after the declared length; BIN chunk shorter than the buffer
	unsigned char *longer = (unsigned char *)calloc(size + 4, 1);
	CHECK(longer);
	memcpy(longer, glb, size);
	sinew_result r = sinew_import_memory(longer, size + 4, &o, NULL, &set, &err);
	free(longer);
	CHECK_MSG(r == SINEW_RESULT_CORRUPT, "%s", err.message);
	size_t short_size = make_glb(glb, sizeof glb, glb_json, bin, 28);
	CHECK_RESULT(sinew_import_memory(glb, short_size, &o, NULL, &set, &err), SINEW_RESULT_CORRUPT, &err);
	CHECK(strstr(err.message, "byteLength is 32 but only 28 bytes") != NULL);
	// every byte flipped: any result but a crash, and successes validate (the dispatcher checks them)
	size = make_glb(glb, sizeof glb, glb_json, bin, sizeof bin);
	for (size_t i = 0; i < size; ++i) {
		unsigned char saved = glb[i];
		glb[i] = (unsigned char)(saved ^ 0x5A);
		r = sinew_import_memory(glb, size, &o, NULL, &set, &err);
		if (r == SINEW_RESULT_OK) sinew_clip_set_free(set);
		glb[i] = saved;
	}
}

static void gltf_frees_everything(void) {
	long live = 0;
	sinew_allocator counting = {counting_alloc, counting_free, &live};
	float bin[8] = {0.0f, 0.5f, 1, 2, 3, 4, 5, 6};
	static unsigned char glb[8192];
	size_t size = make_glb(glb, sizeof glb, glb_json, bin, sizeof bin);
	sinew_import_options o = gltf_options();
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_memory(glb, size, &o, &counting, &set, &err), &err);
	CHECK(live > 0);
	sinew_clip_set_free(set);
	CHECK_EQ(live, 0);
	CHECK_RESULT(sinew_import_memory(glb, size - 1, &o, &counting, &set, &err), SINEW_RESULT_TRUNCATED, &err);
	CHECK_EQ(live, 0);
}

/* ---- corpus: source keys read independently of the importer ---- */

typedef struct src_doc {
	sinewi_arena arena;
	sinewi_json *root;
	unsigned char *file;
	size_t file_size;
	const unsigned char *buffers[16];
	size_t buffer_sizes[16];
	unsigned char *owned[16];
} src_doc;

static int b64v(char c) {
	const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c ? strchr(alphabet, c) : NULL;
	return p ? (int)(p - alphabet) : -1;
}

static unsigned char *read_all(const char *path, size_t *size) {
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *data = (unsigned char *)malloc((size_t)n + 1);
	if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
		free(data);
		data = NULL;
	}
	fclose(f);
	*size = (size_t)n;
	return data;
}

static void src_free(src_doc *d) {
	for (int i = 0; i < 16; ++i) free(d->owned[i]);
	free(d->file);
	sinewi_arena_free(&d->arena);
}

static bool src_load(src_doc *d, const char *path) {
	memset(d, 0, sizeof *d);
	sinewi_arena_init(&d->arena, NULL);
	d->file = read_all(path, &d->file_size);
	if (!d->file) return false;
	const char *json = (const char *)d->file;
	size_t json_size = d->file_size;
	const unsigned char *bin = NULL;
	size_t bin_size = 0;
	if (memcmp(d->file, "glTF", 4) == 0) {
		uint32_t jl, bl;
		memcpy(&jl, d->file + 12, 4);
		json = (const char *)d->file + 20;
		json_size = jl;
		memcpy(&bl, d->file + 20 + jl, 4);
		bin = d->file + 28 + jl;
		bin_size = bl;
	}
	sinew_error err;
	if (sinewi_json_parse(&d->arena, json, json_size, &d->root, &err) != SINEW_RESULT_OK) return false;
	const sinewi_json *buffers = sinewi_json_get(d->root, "buffers");
	for (uint32_t i = 0; buffers && i < buffers->count && i < 16; ++i) {
		const char *uri = sinewi_json_string(sinewi_json_get(&buffers->children[i], "uri"));
		if (!uri) {
			d->buffers[i] = bin, d->buffer_sizes[i] = bin_size;
		} else if (strncmp(uri, "data:", 5) == 0) {
			const char *p = strchr(uri, ',') + 1;
			size_t n = strlen(p), m = 0;
			unsigned char *out = (unsigned char *)malloc(n);
			unsigned acc = 0, bits = 0;
			for (size_t k = 0; k < n && p[k] != '='; ++k) {
				acc = (acc << 6) | (unsigned)b64v(p[k]);
				bits += 6;
				if (bits >= 8) bits -= 8, out[m++] = (unsigned char)(acc >> bits), acc &= (1u << bits) - 1;
			}
			d->owned[i] = out, d->buffers[i] = out, d->buffer_sizes[i] = m;
		} else {
			char full[1024];
			snprintf(full, sizeof full, "%.*s%s", (int)(strrchr(path, '/') - path + 1), path, uri);
			d->owned[i] = read_all(full, &d->buffer_sizes[i]);
			d->buffers[i] = d->owned[i];
		}
	}
	return true;
}

// Float accessor (no sparse) -> out[count * components]. Returns the element count.
static uint32_t src_floats(const src_doc *d, uint32_t index, float *out, size_t capacity) {
	const sinewi_json *a = sinewi_json_at(sinewi_json_get(d->root, "accessors"), index);
	uint32_t view_index = 0, count = 0, offset = 0, view_offset = 0, stride = 0, buffer = 0;
	sinewi_json_uint(sinewi_json_get(a, "bufferView"), &view_index);
	sinewi_json_uint(sinewi_json_get(a, "count"), &count);
	sinewi_json_uint(sinewi_json_get(a, "byteOffset"), &offset);
	const char *type = sinewi_json_string(sinewi_json_get(a, "type"));
	uint32_t comps = strcmp(type, "SCALAR") == 0 ? 1 : strcmp(type, "VEC3") == 0 ? 3 : 4;
	const sinewi_json *view = sinewi_json_at(sinewi_json_get(d->root, "bufferViews"), view_index);
	sinewi_json_uint(sinewi_json_get(view, "byteOffset"), &view_offset);
	sinewi_json_uint(sinewi_json_get(view, "byteStride"), &stride);
	sinewi_json_uint(sinewi_json_get(view, "buffer"), &buffer);
	if (!stride) stride = comps * 4;
	if ((size_t)count * comps > capacity) return 0;
	for (uint32_t i = 0; i < count; ++i)
		memcpy(out + (size_t)i * comps, d->buffers[buffer] + view_offset + offset + (size_t)i * stride, comps * 4);
	return count;
}

static sinew_result import_corpus(const char *relative, sinew_clip_set **set, sinew_error *err, bool *skipped) {
	char path[1024];
	*skipped = !test_corpus_path(relative, path, sizeof path);
	if (*skipped) return SINEW_RESULT_OK;
	sinew_import_options o = gltf_options();
	o.kind = SINEW_FILE_AUTO;
	return sinew_import_file(path, &o, NULL, set, err);
}

static int32_t joint_of_node(const sinew_clip *clip, int32_t node) {
	for (uint32_t j = 0; j < clip->joint_count; ++j)
		if (clip->joints[j].source_index == node) return (int32_t)j;
	return -1;
}

// Checks every LINEAR/STEP/CUBICSPLINE channel of animation `anim`: the sample at each key time (on the clip's
// grid) equals the key value, and returns how many keys were compared.
static uint32_t check_keys_on_grid(const src_doc *d, const sinew_clip *clip, uint32_t anim, double tolerance,
                                   bool *ok) {
	static float times[65536], values[65536 * 4];
	const sinewi_json *a = sinewi_json_at(sinewi_json_get(d->root, "animations"), anim);
	const sinewi_json *channels = sinewi_json_get(a, "channels"), *samplers = sinewi_json_get(a, "samplers");
	uint32_t compared = 0;
	*ok = true;
	for (uint32_t c = 0; c < channels->count; ++c) {
		const sinewi_json *ch = &channels->children[c];
		uint32_t s, node, input, output;
		sinewi_json_uint(sinewi_json_get(ch, "sampler"), &s);
		sinewi_json_uint(sinewi_json_get(sinewi_json_get(ch, "target"), "node"), &node);
		const char *path = sinewi_json_string(sinewi_json_get(sinewi_json_get(ch, "target"), "path"));
		const sinewi_json *sampler = &samplers->children[s];
		sinewi_json_uint(sinewi_json_get(sampler, "input"), &input);
		sinewi_json_uint(sinewi_json_get(sampler, "output"), &output);
		const char *interp = sinewi_json_string(sinewi_json_get(sampler, "interpolation"));
		bool cubic = interp && strcmp(interp, "CUBICSPLINE") == 0;
		uint32_t n = src_floats(d, input, times, 65536);
		src_floats(d, output, values, 65536 * 4);
		if (strcmp(path, "weights") == 0) continue;
		int32_t joint = joint_of_node(clip, (int32_t)node);
		uint32_t comps = strcmp(path, "rotation") == 0 ? 4 : 3;
		const size_t stride = (size_t)(cubic ? 3 : 1) * comps, at = cubic ? comps : 0;
		for (uint32_t k = 0; k < n; ++k) {
			double x = sinewi_clip_key(clip, times[k]); // through the clip's time marks when it has them
			uint32_t sample = (uint32_t)floor(x + 0.5);
			if (fabs(x - sample) > 1e-3) continue; // not on a sample
			if (k + 1 < n && times[k + 1] == times[k]) continue;
			const float *key = values + (size_t)k * stride + at;
			// A sample is the curve at the sample's own time (issue 24), which float noise may put beside the key
			// (2 float32 ulps of the clip's last time at most, 0 at a time mark): allow the motion the
			// neighbouring key intervals make in that time.
			double dt = fabs(sinew_clip_sample_time(clip, sample) - (double)times[k]), slack = 0.0;
			for (int side = -1; side <= 1; side += 2) {
				int64_t o = (int64_t)k + side;
				if (o < 0 || o >= (int64_t)n || times[o] == times[k]) continue;
				const float *other = values + (size_t)o * stride + at;
				for (uint32_t i = 0; i < comps; ++i)
					slack = fmax(slack, fabs((double)other[i] - key[i]) / fabs((double)times[o] - times[k]) * dt);
			}
			const sinew_qvv *x_pose = pose_at(clip, sample, (uint32_t)joint);
			double len = 1.0;
			if (comps == 4)
				len = sqrt((double)key[0] * key[0] + (double)key[1] * key[1] + (double)key[2] * key[2] +
				           (double)key[3] * key[3]);
			// q and -q are one rotation: a sample just before a key slerps to the key on the shortest arc from the
			// previous one, which may be -key
			double sign = 1.0;
			if (comps == 4 && (double)x_pose->rotation[0] * key[0] + (double)x_pose->rotation[1] * key[1] +
			                          (double)x_pose->rotation[2] * key[2] + (double)x_pose->rotation[3] * key[3] < 0.0)
				sign = -1.0;
			for (uint32_t i = 0; i < comps; ++i) {
				double got = comps == 4       ? sign * x_pose->rotation[i]
				             : path[0] == 't' ? x_pose->translation[i]
				                              : x_pose->scale[i];
				if (fabs(got - key[i] / len) > tolerance + slack) {
					*ok = false;
					test_fail(__FILE__, __LINE__, "anim %u channel %u key %u comp %u: %.9g vs %.9g", anim, c, k, i, got,
					          key[i] / len);
					return compared;
				}
			}
			++compared;
		}
	}
	return compared;
}

static void gltf_corpus_cesium_man_keys_exact(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	bool skipped;
	sinew_result r = import_corpus("gltf/khronos/CesiumMan/CesiumMan.gltf", &set, &err, &skipped);
	if (skipped) return;
	CHECK_OK(r, &err);
	CHECK_EQ(set->clip_count, 1);
	sinew_clip *clip = set->clips[0];
	// the 49 keys of a 24 Hz grid are samples (a key interval whose slerp the fitted nlerp would miss would get more)
	CHECK_MSG(clip->sample_count >= 49 && clip->sample_count <= 64, "%u samples", clip->sample_count);
	CHECK_NEAR(sinew_clip_duration(clip), 2.0, 1e-12);
	CHECK_MSG(clip->resample_error < 0.5e-4, "resample error %g", clip->resample_error); // within the resampling share
	src_doc d;
	char path[1024];
	test_corpus_path("gltf/khronos/CesiumMan/CesiumMan.gltf", path, sizeof path);
	CHECK(src_load(&d, path));
	bool ok;
	uint32_t compared = check_keys_on_grid(&d, clip, 0, 1e-6, &ok);
	src_free(&d);
	sinew_clip_set_free(set);
	CHECK(ok);
	CHECK_MSG(compared == 57 * 49, "compared %u keys", compared); // 57 channels, 49 keys each, all on samples
}

// Nodes below animated bones move with them: bone tips (RobotExpressive's "*_end", its meshes
// parented to bones) are hierarchy-only joints, measured by the error metric.
static void gltf_corpus_moving_descendants_are_joints(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	bool skipped;
	sinew_result r = import_corpus("gltf/threejs/RobotExpressive.glb", &set, &err, &skipped);
	if (skipped) return;
	CHECK_OK(r, &err);
	const sinew_clip *clip = set->clips[0];
	uint32_t tips = 0;
	for (uint32_t j = 0; j < clip->joint_count; ++j) {
		const sinew_joint *joint = &clip->joints[j];
		if (!joint->name || strcmp(joint->name, "LowerLeg.R_end") != 0) continue;
		CHECK(joint->has_track == 0);
		CHECK(joint->parent >= 0);
		++tips;
	}
	sinew_clip_set_free(set);
	CHECK_EQ(tips, 1);
}

static void gltf_corpus_interpolation_test(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	bool skipped;
	sinew_result r = import_corpus("gltf/khronos/InterpolationTest/interpolation_test.gltf", &set, &err, &skipped);
	if (skipped) return;
	CHECK_OK(r, &err);
	CHECK_EQ(set->clip_count, 9);
	src_doc d;
	char path[1024];
	test_corpus_path("gltf/khronos/InterpolationTest/interpolation_test.gltf", path, sizeof path);
	CHECK(src_load(&d, path));
	uint32_t total = 0;
	for (uint32_t a = 0; a < 9; ++a) {
		sinew_clip *clip = set->clips[a];
		bool ok;
		total += check_keys_on_grid(&d, clip, a, 1e-6, &ok);
		if (!ok) break;
		// STEP clips: the animated joint is floor-rounded, and the values between keys equal the previous key
		if (strncmp(clip->name, "Step", 4) == 0) {
			uint32_t floor_joints = 0;
			for (uint32_t j = 0; j < clip->joint_count; ++j)
				floor_joints += clip->joints[j].rounding == SINEW_ROUNDING_FLOOR;
			CHECK_EQ(floor_joints, 1);
			CHECK(clip->resample_error == 0.0);
		}
	}
	src_free(&d);
	// the STEP translation holds its value until the next key: samples between keys repeat the last one
	sinew_clip *step = NULL;
	for (uint32_t a = 0; a < 9; ++a)
		if (strcmp(set->clips[a]->name, "Step Translation") == 0) step = set->clips[a];
	CHECK(step);
	int32_t joint = -1;
	for (uint32_t j = 0; j < step->joint_count; ++j)
		if (step->joints[j].rounding == SINEW_ROUNDING_FLOOR) joint = (int32_t)j;
	uint32_t changes = 0;
	for (uint32_t k = 1; k < step->sample_count; ++k)
		changes += memcmp(pose_at(step, k, (uint32_t)joint)->translation,
		                  pose_at(step, k - 1, (uint32_t)joint)->translation, 12) != 0;
	CHECK_EQ(changes, 4); // 5 keys: 4 steps
	sinew_clip_set_free(set);
	CHECK_MSG(total >= 40, "compared %u keys", total);
}

static void gltf_corpus_morph_targets(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	bool skipped;
	sinew_result r = import_corpus("gltf/khronos/AnimatedMorphCube/AnimatedMorphCube.gltf", &set, &err, &skipped);
	if (skipped) return;
	CHECK_OK(r, &err);
	CHECK_EQ(set->clip_count, 1);
	sinew_clip *clip = set->clips[0];
	CHECK(strcmp(clip->name, "Square") == 0);
	CHECK_EQ(clip->scalar_track_count, 2);
	CHECK(clip->sample_rate == 30.0);
	CHECK_EQ(clip->sample_count, 127);
	src_doc d;
	char path[1024];
	test_corpus_path("gltf/khronos/AnimatedMorphCube/AnimatedMorphCube.gltf", path, sizeof path);
	CHECK(src_load(&d, path));
	static float times[1024], weights[2048];
	uint32_t n = src_floats(&d, 10, times, 1024);
	src_floats(&d, 11, weights, 2048);
	src_free(&d);
	CHECK_EQ(n, 127);
	for (uint32_t k = 0; k < n; ++k) {
		uint32_t sample = (uint32_t)floor(times[k] * 30.0 + 0.5);
		// the sample is the curve at k / 30, where the file's keys drift up to 2.6e-6 s off (float32 steps):
		// the key's value within what the weights move in that time
		for (uint32_t t = 0; t < 2; ++t)
			CHECK_MSG(fabsf(clip->scalar_tracks[t].values[sample] - weights[k * 2 + t]) <= 1e-5f, "key %u target %u: %.9g vs %.9g",
			          k, t, (double)clip->scalar_tracks[t].values[sample], (double)weights[k * 2 + t]);
	}
	for (uint32_t t = 0; t < 2; ++t) {
		CHECK_EQ(clip->scalar_tracks[t].source_node, 0);
		CHECK_EQ(clip->scalar_tracks[t].source_target, (int32_t)t);
	}
	sinew_clip_set_free(set);
}

typedef struct corpus_case {
	const char *path;
	sinew_result code;
	uint32_t clips;
	uint32_t joints, tracks;
	const char *detail; // "name:rate:samples" of one clip, or an error message substring
} corpus_case;

static const corpus_case corpus_cases[] = {
    // Run: 24 Hz keys with a 0.2 s gap after which the grid is offset: a sample per key (4 marks where the grid
    // changes, not 120 Hz); the slerp-fitted nlerp (Slerp_fit) keeps the slerp of turns up to 1.5 rad between keys
    // on a 25 m model without cutting the key intervals
    {"gltf/khronos/Fox/Fox.glb", SINEW_RESULT_OK, 3, 25, 0, "Run:20.7194:25"},
    // 49 keys at 24 Hz, one sample each
    {"gltf/khronos/CesiumMan/CesiumMan.gltf", SINEW_RESULT_OK, 1, 21, 0, "animation_0:24:49"},
    // keys from 1/24 s: a time map (2 marks) instead of a sample at 0 that holds the first key
    {"gltf/khronos/RiggedSimple/RiggedSimple.gltf", SINEW_RESULT_OK, 1, 4, 0, "animation_0:24:50"},
    // keys at 0, 1.25, 2.5 and 3.71 s: a sample per key, and the key interval whose slerp turns too far for the
    // fitted nlerp between two samples cut in two (time marks; a 24 Hz grid of 90 samples before them)
    {"gltf/khronos/BoxAnimated/BoxAnimated.gltf", SINEW_RESULT_OK, 1, 3, 0, "animation_0:1.34832:6"},
    {"gltf/khronos/InterpolationTest/interpolation_test.gltf", SINEW_RESULT_OK, 9, 9, 0, "Linear Translation:2.4:5"},
    {"gltf/khronos/AnimatedMorphCube/AnimatedMorphCube.gltf", SINEW_RESULT_OK, 1, 1, 2, "Square:30:127"},
    {"gltf/khronos/AnimatedMorphSphere/AnimatedMorphSphere.gltf", SINEW_RESULT_OK, 1, 1, 2, "Globe:30:217"},
    {"gltf/khronos/SimpleMorph/SimpleMorph.gltf", SINEW_RESULT_OK, 1, 1, 2, "animation_0:1:5"},
    {"gltf/khronos/MorphStressTest/MorphStressTest.gltf", SINEW_RESULT_OK, 3, 1, 8, "Individuals:24:225"},
    {"gltf/khronos/SimpleSkin/SimpleSkin.gltf", SINEW_RESULT_OK, 1, 3, 0, "animation_0:2:12"},
    {"gltf/threejs/RobotExpressive.glb", SINEW_RESULT_OK, 14, 72, 3, "Dance:24:81"},
    {"gltf/threejs/Flamingo.glb", SINEW_RESULT_OK, 1, 1, 14, "flamingo_flyA_:24:34"},
    // one-hot frames keyed at 10 Hz on a 200 m mesh: its weights in vertex units (0.01 cm over 200 m: 2.5e-7) take
    // the keys' float32 times as time marks (the 10 Hz grid is 2.4e-8 s off them, 5e-5 cm at the vertices)
    {"gltf/threejs/Horse.glb", SINEW_RESULT_OK, 1, 2, 15, "horse_A_:11.3333:18"},
    {"gltf/godot/platformer_player.glb", SINEW_RESULT_OK, 8, 28, 0, "RESET:30:1"},
    {"gltf/raylib/robot.glb", SINEW_RESULT_OK, 14, 44, 0, "Robot_Dance:24:81"},
    // Walk: channels keyed at 30 and 24 Hz: a sample at each of the 49 distinct key times (38 time marks), not 120 Hz
    {"gltf/playcanvas/lumberjack.glb", SINEW_RESULT_OK, 3, 59, 0, "Walk:48:49"},
    // CubeAction: 3 LINEAR keys 1 s apart whose slerp turns far: each key interval cut in 7 so that the fitted nlerp
    // between two samples keeps the slerp at the quarter points too (61 samples at 30 Hz before)
    {"gltf/blender_io/03_all_animations/03_all_animations.gltf", SINEW_RESULT_OK, 3, 3, 0, "CubeAction:7:15"},
    {"gltf/blender_io/07_nla-anim/07_nla-anim.gltf", SINEW_RESULT_OK, 3, 3, 0, NULL},
    // KHR_animation_pointer: the 23 node TRS/weights pointers import as joint and morph tracks, the 46
    // distinct others (one is animated twice) as 46 pointer tracks
    {"gltf/blender_io/24_animation_pointer/24_animation_pointer.gltf", SINEW_RESULT_OK, 1, 24, 48, NULL},
    // malformed / edge cases (MANIFEST "Malformed and edge-case files")
    {"malformed/gltf_validator/animation/channel_duplicate_targets.gltf", SINEW_RESULT_OK, 1, 1, 0, "animation_0:30:1"},
    {"malformed/gltf_validator/animation/channel_node_matrix.gltf", SINEW_RESULT_OK, 1, 1, 0, NULL},
    {"malformed/gltf_validator/animation/channel_node_no_morphs.gltf", SINEW_RESULT_BAD_COUNT, 0, 0, 0, "no animation"},
    {"malformed/gltf_validator/animation/empty_objects.gltf", SINEW_RESULT_CORRUPT, 0, 0, 0,
     "animations[2].samplers[0]: \"input\" is missing"},
    {"malformed/gltf_validator/animation/sampler_input_format_invalid.gltf", SINEW_RESULT_CORRUPT, 0, 0, 0,
     "accessor 0: animation input must be a SCALAR float"},
    {"malformed/gltf_validator/animation/sampler_input_no_bounds.gltf", SINEW_RESULT_OK, 1, 1, 0, NULL},
    {"malformed/gltf_validator/animation/sampler_output_count_invalid.gltf", SINEW_RESULT_CORRUPT, 0, 0, 0,
     "output accessor 1 has 2 elements, expected 1"},
    {"malformed/gltf_validator/animation/sampler_too_few_cubic_frames.gltf", SINEW_RESULT_CORRUPT, 0, 0, 0,
     "rotation key 0 has length 0"},
    {"malformed/gltf_validator/animation/unresolved_channel_target.gltf", SINEW_RESULT_CORRUPT, 0, 0, 0,
     "node 0 does not exist"},
    {"malformed/gltf_validator/animation/unresolved_sampler_input.gltf", SINEW_RESULT_CORRUPT, 0, 0, 0,
     "accessor 1 does not exist"},
    {"malformed/gltf_validator/animation_data/invalid_input_values.gltf", SINEW_RESULT_CORRUPT, 0, 0, 0,
     "accessor 0: key time 0 is negative"},
    {"malformed/gltf_validator/animation_data/quaternion_non_unit_values.gltf", SINEW_RESULT_OK, 1, 1, 0, NULL},
    {"malformed/gltf_validator/skin/ignored_animated_transform.gltf", SINEW_RESULT_OK, 1, 2, 0, NULL},
    {"malformed/magnum/animation-invalid.gltf", SINEW_RESULT_CORRUPT, 0, 0, 0, "accessor 0: animation input"},
    // keys at 0, 1.25, 2.5, 3.75 s (STEP) and 1.25, 2.5 s (a LINEAR rotation cut in 3 for the fitted nlerp):
    // 6 samples (115 at 30.4 Hz before)
    {"malformed/magnum/animation-embedded.gltf", SINEW_RESULT_OK, 2, 6, 0, "TRS animation:1.33333:6"},
    {"malformed/magnum/animation-splines-single-or-no-keyframes.gltf", SINEW_RESULT_OK, 1, 3, 0, NULL},
    {"malformed/magnum/animation-missing-target-node.gltf", SINEW_RESULT_BAD_COUNT, 0, 0, 0, "3 channels skipped"},
    {"malformed/magnum/animation-invalid-buffer-notfound.gltf", SINEW_RESULT_IO, 0, 0, 0, "buffer 1"},
    {"malformed/magnum/skin-invalid.gltf", SINEW_RESULT_BAD_COUNT, 0, 0, 0, "no animation"},
    {"malformed/assimp/RecursiveNodes/RecursiveNodes.gltf", SINEW_RESULT_CORRUPT, 0, 0, 0, "cycle"},
    {"malformed/assimp/IndexOutOfRange/IndexOutOfRange.gltf", SINEW_RESULT_BAD_COUNT, 0, 0, 0, "no animation"},
    {"malformed/assimp/IndexOutOfRange/AllIndicesOutOfRange.gltf", SINEW_RESULT_BAD_COUNT, 0, 0, 0, "no animation"},
    {"malformed/assimp/MissingBin/BoxTextured.gltf", SINEW_RESULT_BAD_COUNT, 0, 0, 0, "no animation"},
    {"malformed/assimp/SchemaFailures/sceneWrongType.gltf", SINEW_RESULT_BAD_COUNT, 0, 0, 0, "no animation"},
    {"malformed/assimp/TestNoRootNode/NoScene.gltf", SINEW_RESULT_BAD_COUNT, 0, 0, 0, "no animation"},
    {"malformed/assimp/TestNoRootNode/SceneWithoutNodes.gltf", SINEW_RESULT_BAD_COUNT, 0, 0, 0, "no animation"},
    {"malformed/assimp/wrongTypes/badArray.gltf", SINEW_RESULT_BAD_COUNT, 0, 0, 0, "no animation"},
    {"malformed/assimp/wrongTypes/badNumber.gltf", SINEW_RESULT_BAD_COUNT, 0, 0, 0, "no animation"},
    {"malformed/assimp/wrongTypes/badObject.gltf", SINEW_RESULT_BAD_COUNT, 0, 0, 0, "no animation"},
    {"malformed/assimp/wrongTypes/badString.gltf", SINEW_RESULT_BAD_COUNT, 0, 0, 0, "no animation"},
    {"malformed/assimp/wrongTypes/badUint.gltf", SINEW_RESULT_BAD_COUNT, 0, 0, 0, "no animation"},
    {"malformed/assimp/wrongTypes/badExtension.gltf", SINEW_RESULT_BAD_COUNT, 0, 0, 0, "no animation"},
};

static void gltf_corpus_files(void) {
	for (size_t i = 0; i < sizeof corpus_cases / sizeof corpus_cases[0]; ++i) {
		const corpus_case *c = &corpus_cases[i];
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		bool skipped;
		sinew_result r = import_corpus(c->path, &set, &err, &skipped);
		if (skipped) return;
		CHECK_MSG(r == c->code, "%s: %s (%s)", c->path, sinew_result_name(r), err.message);
		if (r != SINEW_RESULT_OK) {
			CHECK_MSG(!c->detail || strstr(err.message, c->detail), "%s: message \"%s\" lacks \"%s\"", c->path,
			          err.message, c->detail);
			continue;
		}
		CHECK_MSG(set->clip_count == c->clips, "%s: %u clips", c->path, set->clip_count);
		bool found = c->detail == NULL;
		for (uint32_t k = 0; k < set->clip_count; ++k) {
			const sinew_clip *clip = set->clips[k];
			sinew_error verr = {0};
			CHECK_MSG(sinew_clip_validate(clip, &verr) == SINEW_RESULT_OK, "%s: %s", c->path, verr.message);
			CHECK_MSG(clip->joint_count == c->joints && clip->scalar_track_count == c->tracks,
			          "%s clip %u: %u joints %u tracks", c->path, k, clip->joint_count, clip->scalar_track_count);
			// one skeleton and one track list for the whole file
			const sinew_clip *first = set->clips[0];
			for (uint32_t j = 0; j < clip->joint_count; ++j)
				CHECK(clip->joints[j].source_index == first->joints[j].source_index &&
				      clip->joints[j].parent == first->joints[j].parent);
			for (uint32_t t = 0; t < clip->scalar_track_count; ++t)
				CHECK(clip->scalar_tracks[t].source_node == first->scalar_tracks[t].source_node &&
				      clip->scalar_tracks[t].source_target == first->scalar_tracks[t].source_target);
			if (c->detail) {
				char want_name[64];
				double rate;
				unsigned samples;
				CHECK(sscanf(c->detail, "%63[^:]:%lf:%u", want_name, &rate, &samples) == 3);
				if (strcmp(clip->name, want_name) == 0) {
					found = true;
					// a clip with a time map has an average rate
					const double rate_tol = clip->time_mark_count ? 1e-4 * rate : 1e-9;
					CHECK_MSG(fabs(clip->sample_rate - rate) < rate_tol && clip->sample_count == samples,
					          "%s %s: %g Hz %u samples", c->path, clip->name, clip->sample_rate, clip->sample_count);
				}
			}
			double threshold = 1e-4; // 0.01 cm in metres
			CHECK_MSG(clip->resample_error <= threshold || clip->sample_rate >= 119.0,
			          "%s %s: resample error %g at %g Hz", c->path, clip->name, clip->resample_error,
			          clip->sample_rate);
		}
		CHECK_MSG(found, "%s: no clip %s", c->path, c->detail);
		sinew_clip_set_free(set);
	}
}

// Every .gltf/.glb under corpus/gltf and corpus/malformed has an expected result in corpus_cases.
static bool listed(const char *relative) {
	for (size_t i = 0; i < sizeof corpus_cases / sizeof corpus_cases[0]; ++i)
		if (strcmp(corpus_cases[i].path, relative) == 0) return true;
	return false;
}

static uint32_t walk_corpus(const char *root, const char *relative, char *missing, size_t missing_size) {
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", root, relative);
	DIR *dir = opendir(path);
	if (!dir) return 0;
	uint32_t count = 0;
	struct dirent *e;
	while ((e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.') continue;
		char child[1024], full[1100];
		snprintf(child, sizeof child, "%s/%s", relative, e->d_name);
		snprintf(full, sizeof full, "%s/%s", root, child);
		struct stat st;
		if (stat(full, &st) != 0) continue;
		if (S_ISDIR(st.st_mode)) {
			count += walk_corpus(root, child, missing, missing_size);
			continue;
		}
		size_t n = strlen(e->d_name);
		bool gltf =
		    (n > 5 && strcmp(e->d_name + n - 5, ".gltf") == 0) || (n > 4 && strcmp(e->d_name + n - 4, ".glb") == 0);
		if (!gltf) continue;
		++count;
		if (!listed(child) && !missing[0]) snprintf(missing, missing_size, "%s", child);
	}
	closedir(dir);
	return count;
}

static void gltf_corpus_every_file_has_an_expectation(void) {
	const char *root = test_corpus_dir();
	if (!root) {
		test_skip("corpus absent (../shared/corpus)");
		return;
	}
	char missing[1024] = "";
	uint32_t files =
	    walk_corpus(root, "gltf", missing, sizeof missing) + walk_corpus(root, "malformed", missing, sizeof missing);
	CHECK_MSG(!missing[0], "%s has no entry in corpus_cases", missing);
	CHECK_EQ(files, sizeof corpus_cases / sizeof corpus_cases[0]);
}

// Skinned assets on an exact grid: every key of every channel is reproduced exactly at its sample.
static void gltf_corpus_keys_exact_on_grid(void) {
	static const struct {
		const char *path;
		uint32_t min_keys;
	} files[] = {
	    {"gltf/khronos/Fox/Fox.glb", 2646},
	    {"gltf/playcanvas/lumberjack.glb", 14646},
	    {"gltf/raylib/robot.glb", 62178},
	    {"gltf/threejs/RobotExpressive.glb", 5607},
	    {"gltf/godot/platformer_player.glb", 12393},
	    {"gltf/khronos/RiggedSimple/RiggedSimple.gltf", 150},
	};
	for (size_t f = 0; f < sizeof files / sizeof files[0]; ++f) {
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		bool skipped;
		sinew_result r = import_corpus(files[f].path, &set, &err, &skipped);
		if (skipped) return;
		CHECK_OK(r, &err);
		src_doc d;
		char path[1024];
		test_corpus_path(files[f].path, path, sizeof path);
		CHECK(src_load(&d, path));
		uint32_t compared = 0;
		bool ok = true;
		for (uint32_t a = 0; a < set->clip_count && ok; ++a)
			compared += check_keys_on_grid(&d, set->clips[a], a, 1e-6, &ok);
		src_free(&d);
		sinew_clip_set_free(set);
		CHECK_MSG(ok, "%s", files[f].path);
		if (getenv("SINEW_TEST_VERBOSE")) printf("  %s: %u keys compared\n", files[f].path, compared);
		CHECK_MSG(compared >= files[f].min_keys, "%s: %u keys compared", files[f].path, compared);
	}
}

// magnum's animation-invalid.gltf holds 35 broken animations in one file: import each one alone.
static void gltf_corpus_magnum_invalid_animations(void) {
	static const struct {
		const char *name;
		sinew_result code;
	} expected[] = {
	    {"unexpected time type", SINEW_RESULT_CORRUPT},
	    {"unsupported interpolation type", SINEW_RESULT_CORRUPT},
	    {"unexpected translation type", SINEW_RESULT_CORRUPT},
	    {"unexpected rotation type", SINEW_RESULT_CORRUPT},
	    {"unexpected scaling type", SINEW_RESULT_CORRUPT},
	    {"unsupported path", SINEW_RESULT_BAD_COUNT},
	    {"invalid input accessor", SINEW_RESULT_CORRUPT},
	    {"invalid output accessor", SINEW_RESULT_CORRUPT},
	    {"sampler index out of range", SINEW_RESULT_CORRUPT},
	    {"node index out of range", SINEW_RESULT_CORRUPT},
	    {"sampler input accessor index out of range", SINEW_RESULT_CORRUPT},
	    {"sampler output accessor index out of range", SINEW_RESULT_CORRUPT},
	    {"sampler input accessor with no buffer view", SINEW_RESULT_CORRUPT},
	    {"sampler output accessor with no buffer view", SINEW_RESULT_CORRUPT},
	    {"sparse sampler input accessor", SINEW_RESULT_CORRUPT},
	    {"sparse sampler output accessor", SINEW_RESULT_CORRUPT},
	    {"track size mismatch", SINEW_RESULT_CORRUPT},
	    {"missing samplers", SINEW_RESULT_BAD_COUNT},
	    {"invalid samplers", SINEW_RESULT_CORRUPT},
	    {"invalid sampler", SINEW_RESULT_CORRUPT},
	    {"missing sampler input", SINEW_RESULT_CORRUPT},
	    {"invalid sampler input", SINEW_RESULT_CORRUPT},
	    {"missing sampler output", SINEW_RESULT_CORRUPT},
	    {"invalid sampler output", SINEW_RESULT_CORRUPT},
	    {"invalid sampler interpolation", SINEW_RESULT_CORRUPT},
	    {"missing channels", SINEW_RESULT_BAD_COUNT},
	    {"invalid channels", SINEW_RESULT_CORRUPT},
	    {"invalid channel", SINEW_RESULT_CORRUPT},
	    {"missing channel target", SINEW_RESULT_CORRUPT},
	    {"invalid channel target", SINEW_RESULT_CORRUPT},
	    {"invalid channel target node", SINEW_RESULT_CORRUPT},
	    {"missing channel target path", SINEW_RESULT_CORRUPT},
	    {"invalid channel target path", SINEW_RESULT_CORRUPT},
	    {"missing channel sampler", SINEW_RESULT_CORRUPT},
	    {"invalid channel sampler", SINEW_RESULT_CORRUPT},
	};
	char path[1024];
	if (!test_corpus_path("malformed/magnum/animation-invalid.gltf", path, sizeof path)) return;
	src_doc d;
	CHECK(src_load(&d, path));
	const sinewi_json *animations = sinewi_json_get(d.root, "animations");
	CHECK(animations && animations->count == sizeof expected / sizeof expected[0]);
	for (uint32_t a = 0; a < animations->count; ++a) {
		sinewi_json_writer w;
		sinewi_json_writer_init(&w, NULL);
		sinewi_json_write_raw(&w, "{", 1);
		for (uint32_t m = 0; m < d.root->count; ++m) {
			if (m) sinewi_json_write_raw(&w, ",", 1);
			sinewi_json_write_string(&w, d.root->keys[m]);
			sinewi_json_write_raw(&w, ":", 1);
			if (strcmp(d.root->keys[m], "animations") == 0) {
				sinewi_json_write_raw(&w, "[", 1);
				sinewi_json_write_value(&w, &animations->children[a]);
				sinewi_json_write_raw(&w, "]", 1);
			} else {
				sinewi_json_write_value(&w, &d.root->children[m]);
			}
		}
		sinewi_json_write_raw(&w, "}", 1);
		const char *name = sinewi_json_string(sinewi_json_get(&animations->children[a], "name"));
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		sinew_result r = w.failed ? SINEW_RESULT_OUT_OF_MEMORY : import_text(w.data, NULL, &set, &err);
		sinewi_json_writer_free(&w);
		if (r == SINEW_RESULT_OK) sinew_clip_set_free(set);
		bool match = name && strcmp(name, expected[a].name) == 0 && r == expected[a].code;
		if (!match) src_free(&d);
		CHECK_MSG(match, "animation %u \"%s\": %s (%s)", a, name ? name : "?", sinew_result_name(r), err.message);
	}
	src_free(&d);
}


// A rotation of 170 degrees between two keys one second apart: its shortest arc is well defined, but
// two samples 170 degrees apart would leave the arc to quantization (the direction flips near 180).
// The importer adds samples until no rotation turns past 90 degrees between two, and the child node
// (a bone tip 1 m out, hierarchy only) follows the source's arc at the midpoint: compressed, it is
// within the threshold of the source's slerp there.
static void gltf_rotation_past_90_degrees_gets_samples(void) {
	const double half = 0.5 * 170.0 * 3.14159265358979 / 180.0;
	float times[] = {0.0f, 1.0f};
	float values[] = {0, 0, 0, 1, 0, (float)sin(half), 0, (float)cos(half)};
	static char doc[DOC_CAP];
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(one_channel_doc(doc, "rotation", "LINEAR", times, 2, values, 4,
	                                     ",\"children\":[1]},{\"name\":\"tip\",\"translation\":[1,0,0]"),
	                     NULL, &set, &err),
	         &err);
	sinew_clip *clip = set->clips[0];
	CHECK_EQ(clip->joint_count, 2);
	CHECK(clip->joints[1].has_track == 0);
	CHECK_MSG(clip->sample_count >= 3, "%u samples", clip->sample_count);
	for (uint32_t s = 0; s + 1 < clip->sample_count; ++s) {
		const float *a = pose_at(clip, s, 0)->rotation, *b = pose_at(clip, s + 1, 0)->rotation;
		double dot = (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] + (double)a[3] * b[3];
		CHECK_MSG(fabs(dot) >= 0.7071, "samples %u-%u turn by %.1f degrees", s, s + 1, 2 * acos(fabs(dot)) * 57.29578);
	}
	void *blob = NULL;
	size_t size = 0;
	CHECK_OK(sinew_compress(set, NULL, NULL, &blob, &size, &err), &err);
	sinew_error_stats st;
	CHECK_OK(sinew_measure_blob_error(clip, blob, size, 0, NULL, NULL, &st, &err), &err);
	CHECK_MSG(st.max_error <= 0.0001, "max %.6g m at joint %u t = %g", st.max_error, st.worst_joint, st.worst_time);
	// the tip at t = 0.5: the slerp midpoint turns it 85 degrees about +y, to (cos 85, 0, -sin 85)
	size_t need = sinew_context_size(blob, size, 0);
	void *mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
	sinew_context *ctx = NULL;
	CHECK_OK(sinew_context_init(mem, need, blob, size, 0, NULL, &ctx, &err), &err);
	sinew_qvv pose[2];
	sinew_sample_pose(ctx, 0.5, pose, NULL, NULL);
	const float *q = pose[0].rotation;
	double x = 1 - 2 * ((double)q[1] * q[1] + (double)q[2] * q[2]), z = 2 * ((double)q[0] * q[2] - (double)q[3] * q[1]);
	CHECK_MSG(fabs(x - cos(half)) < 1e-4 && fabs(z + sin(half)) < 1e-4, "tip at (%.5f, %.5f)", x, z);
	free(mem);
	sinew_blob_free(blob, size, NULL);
	sinew_clip_set_free(set);
}

// Check points: where playing the samples back differs from the source beyond float noise but within the
// resampling budget (here a CUBICSPLINE translation bulging by b t (1 - t), b = 0.12 mm, between two keys one
// second apart, against samples lerped), the clip stores the source's pose at those key, midpoint and quarter
// times; each must be the source's curve there (within float32 rounding), for the animated node and the
// hierarchy-only tip alike.
static void gltf_check_points_hold_the_source(void) {
	const float b = 1.2e-4f;
	float times[] = {0.0f, 1.0f};
	// per key: in-tangent, value, out-tangent
	float values[] = {0, 0, 0, 0, 0, 0, b, 0, 0, -b, 0, 0, 0, 0, 0, 0, 0, 0};
	static char doc[DOC_CAP];
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(one_channel_doc(doc, "translation", "CUBICSPLINE", times, 2, values, 3,
	                                     ",\"children\":[1]},{\"name\":\"tip\",\"translation\":[1,0,0]"),
	                     NULL, &set, &err),
	         &err);
	sinew_clip *clip = set->clips[0];
	CHECK_EQ(clip->joint_count, 2);
	CHECK_MSG(clip->check_count > 0, "no check point (%u samples)", clip->sample_count);
	CHECK_EQ(clip->time_mark_count, 0);
	for (uint32_t c = 0; c < clip->check_count; ++c) {
		const double t = clip->check_times[c];
		CHECK_MSG(t >= 0.0 && t <= 1.0, "check time %g", t);
		// the Hermite curve: p0 = p1 = 0, m0 = b, m1 = -b
		const double want = (double)b * (t - t * t);
		const sinew_qvv *x = &clip->check_transforms[(size_t)c * clip->joint_count];
		CHECK_MSG(fabs((double)x->translation[0] - want) <= want * 0x1p-23 + 1e-15 && x->translation[1] == 0.0f &&
		              x->translation[2] == 0.0f && x->rotation[3] == 1.0f,
		          "check point %u (t = %g): x %.9g, the source %.9g", c, t, (double)x->translation[0], want);
		const sinew_qvv *tip = &clip->check_transforms[(size_t)c * clip->joint_count + 1];
		CHECK(tip->translation[0] == 1.0f && tip->translation[1] == 0.0f && tip->rotation[3] == 1.0f);
		// and the samples do not already play it back there (else it would be no check point)
		const double k = t * clip->sample_rate; // (no time map: evenly spaced samples)
		uint32_t i = (uint32_t)k;
		if (i + 1 >= clip->sample_count) i = clip->sample_count - 2;
		const double f = k - i, lerp = (1 - f) * pose_at(clip, i, 0)->translation[0] + f * pose_at(clip, i + 1, 0)->translation[0];
		CHECK_MSG(fabs(lerp - want) > 0.0, "check point %u (t = %g) is played back exactly", c, t);
	}
	// the check times are the source's own: its keys, their midpoints and quarter points
	for (uint32_t c = 0; c < clip->check_count; ++c) {
		const double t4 = clip->check_times[c] * 4.0;
		CHECK_MSG(fabs(t4 - floor(t4 + 0.5)) < 1e-9, "check time %g is no key, midpoint or quarter point", clip->check_times[c]);
	}
	sinew_clip_set_free(set);
}

// Keys on a 37.5 Hz grid whose float times drift and jitter by up to 0.1 ms (accumulated float32 steps,
// rounded exporter times): one sample per key, at the key's own time (time marks where the spacing
// changes: here nearly every key, since the jitter is random), and the clip plays within the threshold at
// the exact key times and midpoints. (Before time maps the grid was recognized and each key's value put
// on its grid point: playback at the key time was then off by velocity x offset, 0.002 cm here, and a
// 0.4 ms jitter took more than the resampling share.)
static void gltf_jittered_grid_is_recognized(void) {
	enum { N = 400 };
	static float times[N], values[N * 3];
	float t = 0.0f;
	test_rng rng = {99};
	for (int k = 0; k < N; ++k) {
		times[k] = k == 0 ? 0.0f : t + (float)test_rand_range(&rng, -1e-4, 1e-4);
		t += 1.0f / 37.5f;
		for (int c = 0; c < 3; ++c) values[k * 3 + c] = (float)(0.1 * sin(0.05 * k + c));
	}
	for (int k = 1; k < N; ++k) CHECK(times[k] > times[k - 1]);
	static char doc[DOC_CAP * 4];
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(one_channel_doc(doc, "translation", "LINEAR", times, N, values, 3, NULL), NULL, &set, &err),
	         &err);
	sinew_clip *clip = set->clips[0];
	CHECK_MSG(fabs(clip->sample_rate - 37.5) < 0.01, "%.9g Hz", clip->sample_rate);
	CHECK_EQ(clip->sample_count, N);
	CHECK(clip->time_mark_count >= 2 && clip->time_mark_count <= N);
	for (uint32_t m = 0; m < clip->time_mark_count; ++m) // marks are key times
		CHECK(clip->time_marks[m].time == times[clip->time_marks[m].sample]);
	CHECK_MSG(clip->resample_error <= 1e-6, "resampling error %g m", clip->resample_error);
	void *blob = NULL;
	size_t size = 0;
	CHECK_OK(sinew_compress(set, NULL, NULL, &blob, &size, &err), &err);
	sinew_error_stats st;
	CHECK_OK(sinew_measure_blob_error(clip, blob, size, 0, NULL, NULL, &st, &err), &err);
	CHECK_MSG(st.max_error <= 0.0001, "max %.6g m at t = %g", st.max_error, st.worst_time);
	sinew_blob_free(blob, size, NULL);
	sinew_clip_set_free(set);
}

// Hostile timing does not amplify (issue 24, found by the import_gltf fuzz target in 300 s): three keys that span
// 7.2e28 s made 1,001,313 samples (120 MB, 1.6 s natively, past libFuzzer's 10 s under ASan+UBSan) when every
// clip was resampled on a uniform grid. Samples at the key times cost what the keys cost: a handful here, and
// the clip still compresses within its bound.
static void gltf_huge_duration_stays_small(void) {
	char path[1024];
	test_repo_path("fuzz/seeds/gltf/huge_duration_timeout.gltf", path, sizeof path);
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_file(path, NULL, NULL, &set, &err), &err);
	const sinew_clip *clip = set->clips[0];
	CHECK_MSG(clip->sample_count <= 16, "%u samples", clip->sample_count);
	CHECK(sinew_clip_duration(clip) > 7e28);
	CHECK(clip->time_mark_count >= 2);
	CHECK_MSG(sinew_clip_raw_size(clip) < 4096, "%llu raw bytes", (unsigned long long)sinew_clip_raw_size(clip));
	void *blob = NULL;
	size_t size = 0;
	CHECK_OK(sinew_compress(set, NULL, NULL, &blob, &size, &err), &err);
	sinew_error_stats st;
	CHECK_OK(sinew_measure_blob_error(clip, blob, size, 0, NULL, NULL, &st, &err), &err);
	CHECK_EQ(st.samples_over_threshold, 0);
	sinew_blob_free(blob, size, NULL);
	sinew_clip_set_free(set);
}

// Skin shells (sinew_import_options.skin_shells): fuzz/seeds/gltf/skin_shells.gltf skins 4 vertices to
// 2 joints; by hand, the root's farthest vertex with weight > 0.05 is |(0.04, 0.4, 0.02)| = 0.40249 m
// away, the child's |(0.1, -0.2, 0)| = 0.22361 m (through its inverse bind matrix). Without the option,
// or with broken skin data (a joint index past the skin, a missing WEIGHTS_0), shells stay default.
static void gltf_skin_shells_from_meshes(void) {
	char path[1024];
	test_repo_path("fuzz/seeds/gltf/skin_shells.gltf", path, sizeof path);
	size_t size = 0;
	char *text = (char *)test_slurp(path, &size);
	CHECK(text);
	sinew_import_options o = gltf_options();
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_memory(text, size, &o, NULL, &set, &err), &err);
	CHECK(set->clips[0]->joints[0].shell_distance == 0.0f && set->clips[0]->joints[1].shell_distance == 0.0f);
	sinew_clip_set_free(set);
	o.skin_shells = 1;
	CHECK_OK(sinew_import_memory(text, size, &o, NULL, &set, &err), &err);
	const sinew_clip *clip = set->clips[0];
	CHECK_EQ(clip->joint_count, 2);
	CHECK_NEAR(clip->joints[0].shell_distance, 0.40249, 1e-5);
	CHECK_NEAR(clip->joints[1].shell_distance, 0.22361, 1e-5);
	CHECK_EQ(warnings, 0);
	// the compressor and the metric use them: measured within the threshold on the wider shells
	void *blob = NULL;
	size_t bytes = 0;
	CHECK_OK(sinew_compress(set, NULL, NULL, &blob, &bytes, &err), &err);
	sinew_error_stats st;
	CHECK_OK(sinew_measure_blob_error(clip, blob, bytes, 0, NULL, NULL, &st, &err), &err);
	CHECK_MSG(st.max_error <= 0.0001, "max %.6g m", st.max_error);
	sinew_blob_free(blob, bytes, NULL);
	sinew_clip_set_free(set);
	// broken skin data: skipped with a warning, the animation imports with default shells
	const char *broken[][2] = {{"\"JOINTS_0\":1", "\"JOINTS_0\":7"}, {"\"WEIGHTS_0\":2", "\"WEIGHTS_X\":2"}};
	for (int b = 0; b < 2; ++b) {
		char *doc = (char *)malloc(size + 1);
		memcpy(doc, text, size);
		doc[size] = 0;
		char *at = strstr(doc, broken[b][0]);
		CHECK(at);
		memcpy(at, broken[b][1], strlen(broken[b][1]));
		o = gltf_options();
		o.skin_shells = 1;
		CHECK_OK(sinew_import_memory(doc, size, &o, NULL, &set, &err), &err);
		CHECK_MSG(warnings >= 1 && strstr(last_warning, "default shell"), "warning: %s", last_warning);
		CHECK(set->clips[0]->joints[0].shell_distance == 0.0f);
		sinew_clip_set_free(set);
		free(doc);
	}
	free(text);
}

// The same on a real character: CesiumMan's 19 joints whose vertices lie beyond 3 cm get shells of
// 14.9 to 40.5 cm (tests/independent/skin_shells.py computes the same from the file, from the spec
// alone), every one within the [3 cm, 1 m] limits.
static void gltf_corpus_skin_shells(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	bool skipped;
	char path[1024];
	if (!test_corpus_path("gltf/khronos/CesiumMan/CesiumMan.gltf", path, sizeof path)) return;
	sinew_import_options o = gltf_options();
	o.skin_shells = 1;
	sinew_result r = sinew_import_file(path, &o, NULL, &set, &err);
	(void)skipped;
	CHECK_OK(r, &err);
	const sinew_clip *clip = set->clips[0];
	uint32_t own = 0;
	double lo = 1e9, hi = 0;
	for (uint32_t j = 0; j < clip->joint_count; ++j) {
		double d = clip->joints[j].shell_distance;
		if (d == 0.0) continue;
		own++, lo = fmin(lo, d), hi = fmax(hi, d);
	}
	sinew_clip_set_free(set);
	CHECK_EQ(own, 19);
	CHECK_MSG(fabs(lo - 0.149) < 5e-4 && fabs(hi - 0.405) < 5e-4, "shells %.4f-%.4f m", lo, hi);
}

// Replaces the first `from` in doc by `to` (doc has room for it: DOC_CAP).
static void replace_in(char *doc, const char *from, const char *to) {
	char *at = strstr(doc, from);
	if (!at) return;
	size_t tail = strlen(at + strlen(from));
	memmove(at + strlen(to), at + strlen(from), tail + 1);
	memcpy(at, to, strlen(to));
}

// KHR_animation_pointer channels to a node's TRS make the same clip as plain channels; pointers to
// anything else, out-of-range nodes or malformed indices are skipped with a warning.
static void gltf_animation_pointer_to_node_trs(void) {
	float times[] = {0.0f, 0.5f, 1.0f};
	float values[] = {0, 0, 0, 1, 0, 0.38268343f, 0, 0.92387953f, 0, 0.70710678f, 0, 0.70710678f};
	static char plain[DOC_CAP], pointer[DOC_CAP];
	one_channel_doc(plain, "rotation", "LINEAR", times, 3, values, 4, NULL);
	memcpy(pointer, plain, sizeof pointer);
	const char *plain_target = "\"target\":{\"node\":0,\"path\":\"rotation\"}";
	CHECK(strstr(pointer, plain_target));
	replace_in(pointer, plain_target,
	           "\"target\":{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":{\"pointer\":\"/nodes/0/rotation\"}}}");
	sinew_clip_set *a = NULL, *b = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(plain, NULL, &a, &err), &err);
	CHECK_OK(import_text(pointer, NULL, &b, &err), &err);
	CHECK_EQ(b->clips[0]->sample_count, a->clips[0]->sample_count);
	CHECK(b->clips[0]->joints[0].has_track == 1);
	CHECK(memcmp(a->clips[0]->transforms, b->clips[0]->transforms,
	             (size_t)a->clips[0]->sample_count * a->clips[0]->joint_count * sizeof(sinew_qvv)) == 0);
	sinew_clip_set_free(a);
	sinew_clip_set_free(b);
	const char *skipped[] = {"/materials/0/pbrMetallicRoughness/baseColorFactor", "/nodes/1/rotation", "/nodes/00/rotation",
	                         "/nodes/-0/rotation", "/nodes/0/rotation/x", "/nodes/0/"};
	for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; ++i) {
		static char doc[DOC_CAP];
		memcpy(doc, pointer, sizeof doc);
		replace_in(doc, "/nodes/0/rotation", skipped[i]);
		sinew_import_options o = gltf_options();
		CHECK_RESULT(import_text(doc, &o, &a, &err), SINEW_RESULT_BAD_COUNT, &err); // its only channel is skipped
		CHECK_MSG(strstr(last_warning, "KHR_animation_pointer"), "%s: warning %s", skipped[i], last_warning);
	}
}

// KHR_animation_pointer channels to other float properties become pointer tracks: named by the pointer,
// 4 floats per track at most, the document's value as default (else the first key), precision 1e-4 of the
// largest magnitude. Booleans and pointers into objects the document lacks are skipped with a warning;
// one pointer animated with two value counts is CORRUPT.
static void gltf_animation_pointer_tracks(void) {
	static float bin[64];
	float *p = bin;
	const float times[] = {0, 0.5f, 1};
	const float color[] = {0.1f, 0.2f, 0.3f, 1, 0.4f, 0.5f, 0.6f, 1, 0.7f, 0.8f, 0.9f, 0.5f};
	const float intensity[] = {100, 250, 1000};
	memcpy(p, times, sizeof times), p += 3;             // accessor 0 at 0
	memcpy(p, color, sizeof color), p += 12;            // accessor 1 at 12
	memcpy(p, intensity, sizeof intensity), p += 3;     // accessor 2 at 60
	for (int i = 0; i < 18; ++i) *p++ = (float)i / 17;  // accessor 3 at 72: 6 weights x 3 keys
	unsigned char *flags = (unsigned char *)p;          // accessor 4 at 144: 3 booleans
	flags[0] = 1, flags[1] = 0, flags[2] = 1;
	p += 1;
	static const char body_fmt[] =
	    "\"nodes\":[{\"mesh\":0,\"extensions\":{\"KHR_node_visibility\":{}}}],\"meshes\":[{\"primitives\":[]}],"
	    "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.5,0.5,1]}}],"
	    "\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[{\"type\":\"point\"}]}},"
	    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":148}],"
	    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"},"
	    "{\"bufferView\":0,\"byteOffset\":12,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
	    "{\"bufferView\":0,\"byteOffset\":60,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"},"
	    "{\"bufferView\":0,\"byteOffset\":72,\"componentType\":5126,\"count\":18,\"type\":\"SCALAR\"},"
	    "{\"bufferView\":0,\"byteOffset\":144,\"componentType\":5121,\"count\":3,\"type\":\"SCALAR\"}],"
	    "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2},{\"input\":0,\"output\":3},"
	    "{\"input\":0,\"output\":4,\"interpolation\":\"STEP\"}],\"channels\":[%s]}]";
#define PTR_CHANNEL(s, ptr)                                                                                              \
	"{\"sampler\":" #s ",\"target\":{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":{\"pointer\":\"" ptr \
	"\"}}}}"
	const char *channels = PTR_CHANNEL(0, "/materials/0/pbrMetallicRoughness/baseColorFactor") ","
	    PTR_CHANNEL(1, "/extensions/KHR_lights_punctual/lights/0/intensity") ","
	    PTR_CHANNEL(2, "/meshes/0/weights") ","
	    PTR_CHANNEL(3, "/nodes/0/extensions/KHR_node_visibility/visible") ","
	    PTR_CHANNEL(0, "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/scale");
	static char body[8192], doc[DOC_CAP];
	snprintf(body, sizeof body, body_fmt, channels);
	make_gltf(doc, body, bin, 148);
	sinew_import_options o = gltf_options();
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(import_text(doc, &o, &set, &err), &err);
	CHECK_EQ(warnings, 2); // the boolean, and the texture transform of a material without a base colour texture
	CHECK(strstr(last_warning, "no object at"));
	const sinew_clip *clip = set->clips[0];
	CHECK_EQ(clip->joint_count, 0);
	CHECK_EQ(clip->scalar_track_count, 4);
	CHECK_EQ(clip->sample_count, 3);
	const sinew_scalar_track *t = clip->scalar_tracks;
	static const struct {
		const char *pointer;
		uint32_t components, first;
		float rest0, precision;
	} want[] = {{"/materials/0/pbrMetallicRoughness/baseColorFactor", 4, 0, 0.5f, 1e-4f},
	            {"/extensions/KHR_lights_punctual/lights/0/intensity", 1, 0, 100, 0.1f}, // no intensity: the first key
	            {"/meshes/0/weights", 4, 0, 0, 1e-4f},                                   // no mesh.weights: the first key
	            {"/meshes/0/weights", 2, 4, 4.0f / 17, 1e-4f}};
	for (uint32_t i = 0; i < 4; ++i) {
		CHECK_MSG(t[i].name && strcmp(t[i].name, want[i].pointer) == 0, "track %u: %s", i, t[i].name);
		CHECK_EQ(t[i].source_node, SINEW_SOURCE_POINTER);
		CHECK_EQ(t[i].source_target, (int32_t)want[i].first);
		CHECK_EQ(t[i].components, want[i].components);
		CHECK_MSG(t[i].default_value[0] == want[i].rest0, "track %u default %g", i, (double)t[i].default_value[0]);
		CHECK_MSG(fabsf(t[i].precision - want[i].precision) <= 1e-6f * want[i].precision + 1e-9f, "track %u precision %g",
		          i, (double)t[i].precision);
	}
	for (uint32_t k = 0; k < 3; ++k) {
		for (uint32_t c = 0; c < 4; ++c) CHECK(t[0].values[k * 4 + c] == color[k * 4 + c]);
		CHECK(t[1].values[k] == intensity[k]);
		for (uint32_t c = 0; c < 6; ++c)
			CHECK(t[2 + c / 4].values[k * t[2 + c / 4].components + c % 4] == (float)(k * 6 + c) / 17);
	}
	sinew_clip_set_free(set);
	// the same pointer with 4 and then 1 value per key
	snprintf(body, sizeof body, body_fmt,
	         PTR_CHANNEL(0, "/materials/0/emissiveFactor") "," PTR_CHANNEL(1, "/materials/0/emissiveFactor"));
	make_gltf(doc, body, bin, 148);
	o = gltf_options();
	CHECK_RESULT(import_text(doc, &o, &set, &err), SINEW_RESULT_CORRUPT, &err);
	CHECK_MSG(strstr(err.message, "has 1 values per key here and 4 elsewhere"), "%s", err.message);
#undef PTR_CHANNEL
}

void suite_import_gltf(void) {
	RUN(gltf_linear_translation_exact_grid);
	RUN(gltf_clip_starting_late_holds_first_key);
	RUN(gltf_step_holds_until_next_key);
	RUN(gltf_equal_times_make_a_step);
	RUN(gltf_resamples_irregular_keys);
	RUN(gltf_rotation_past_90_degrees_gets_samples);
	RUN(gltf_check_points_hold_the_source);
	RUN(gltf_jittered_grid_is_recognized);
	RUN(gltf_huge_duration_stays_small);
	RUN(gltf_lone_key_time_is_the_sample);
	RUN(gltf_skin_shells_from_meshes);
	RUN(gltf_corpus_skin_shells);
	RUN(gltf_unit_cm_scales_translations);
	RUN(gltf_cubicspline_hits_keys);
	RUN(gltf_rotation_slerp_and_cubic_normalized);
	RUN(gltf_normalized_integer_outputs);
	RUN(gltf_sparse_and_strided_accessors);
	RUN(gltf_rejects_bad_accessors_and_data);
	RUN(gltf_rejects_bad_documents);
	RUN(gltf_node_matrix_decomposition);
	RUN(gltf_skeleton_order_skins_and_uniform_clips);
	RUN(gltf_morph_weights_become_uniform_scalar_tracks);
	RUN(gltf_morph_weights_in_vertex_units);
	RUN(gltf_skips_unusable_channels);
	RUN(gltf_animation_pointer_to_node_trs);
	RUN(gltf_animation_pointer_tracks);
	RUN(gltf_external_buffers);
	RUN(gltf_percent_encoded_data_uri);
	RUN(gltf_glb_container);
	RUN(gltf_frees_everything);
	RUN(gltf_corpus_files);
	RUN(gltf_corpus_every_file_has_an_expectation);
	RUN(gltf_corpus_keys_exact_on_grid);
	RUN(gltf_corpus_cesium_man_keys_exact);
	RUN(gltf_corpus_interpolation_test);
	RUN(gltf_corpus_moving_descendants_are_joints);
	RUN(gltf_corpus_morph_targets);
	RUN(gltf_corpus_magnum_invalid_animations);
}
