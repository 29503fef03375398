// sinew — see include/sinew.h for version and licence
// Clips -> glTF animations: per joint its translation/rotation/scale channels (left out where every sample equals
// the node's rest value), one `weights` channel per morphed node and one KHR_animation_pointer channel per pointer;
// keys at the clip's sample times (one float32 time accessor per clip), values as sampling plays them at the keys'
// float32 times (key_value), in the output buffer's animation bufferView. A joint sub-track the clip holds a curve
// for (a keyed source's, or a curve clip's as its blob stores it) is written as that curve instead: its own key
// times, values (and tangents) and interpolation.
#include "../clip/clip_internal.h"
#include "export_gltf.h"

#include <math.h>
#include <string.h>

enum { PATH_T, PATH_R, PATH_S };
#define FORCE_ROTATION 8u

// Where key k of a clip's float32 time accessor falls on its sample grid: samples k0 and k0 + 1 blended by u.
typedef struct sinewi_key_pos {
	uint32_t k0;
	double u;
} key_pos;

// Effective rounding: per-joint/track value, or the clip's.
static uint8_t effective_rounding(uint8_t own, const sinew_clip *clip) {
	return own == SINEW_ROUNDING_CLIP ? clip->rounding : own;
}

static const char *rounding_name(uint8_t rounding) {
	switch (rounding) {
	case SINEW_ROUNDING_NONE: return "none";
	case SINEW_ROUNDING_FLOOR: return "floor";
	case SINEW_ROUNDING_CEIL: return "ceil";
	case SINEW_ROUNDING_NEAREST: return "nearest";
	default: return "unknown";
	}
}

void sinewi_export_unit_quat(const float q[4], float out[4]) {
	double n2 = (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3];
	if (fabs(n2 - 1.0) <= 1e-6 || !(n2 > 0.0)) {
		memcpy(out, q, 4 * sizeof(float));
		if (!(n2 > 0.0)) out[0] = out[1] = out[2] = 0.0f, out[3] = 1.0f;
		return;
	}
	double inv = 1.0 / sqrt(n2);
	for (int i = 0; i < 4; ++i) out[i] = (float)((double)q[i] * inv);
}

static uint32_t add_accessor(sinewi_exporter *e, size_t offset, uint32_t count, const char *type, const float *min,
                             const float *max) {
	sinewi_json_writer *w = &e->accessors;
	if (e->new_accessors++) sinewi_jw_raw(w, ",");
	sinewi_jw_raw(w, "{\"bufferView\":");
	sinewi_jw_num(w, e->anim_view);
	if (offset != e->anim_start)
		sinewi_jw_raw(w, ",\"byteOffset\":"), sinewi_jw_num(w, (double)(offset - e->anim_start));
	sinewi_jw_raw(w, ",\"componentType\":5126,\"count\":");
	sinewi_jw_num(w, count);
	sinewi_jw_raw(w, ",\"type\":\"");
	sinewi_jw_raw(w, type);
	sinewi_jw_raw(w, "\"");
	if (min) {
		sinewi_jw_raw(w, ",\"min\":"), sinewi_jw_floats(w, min, 1);
		sinewi_jw_raw(w, ",\"max\":"), sinewi_jw_floats(w, max, 1);
	}
	sinewi_jw_raw(w, "}");
	return e->accessor_count++;
}

#define CURVE_TIME_SETS 64 // time accessors of curves remembered per clip (curves with the same times share one)

typedef struct anim_builder {
	sinewi_json_writer samplers, channels;
	uint32_t count;
	uint32_t time_accessor; // the sample times' (SINEWI_EXPORT_NONE until a channel needs them)
	float start, last;      // the first and last sample times
	const sinew_curve **curve_of; // [joint * 3 + path]: the curve that sub-track is written from, or NULL
	struct { const float *times; uint32_t keys, accessor; } time_sets[CURVE_TIME_SETS];
	uint32_t time_set_count;
} anim_builder;

// The clip's sample times as float32 (checked to increase when the clip is written), written when the first channel
// that plays samples needs them: a clip whose every channel is a curve has none.
static uint32_t sample_times(sinewi_exporter *e, anim_builder *a, const sinew_clip *clip) {
	if (a->time_accessor != SINEWI_EXPORT_NONE) return a->time_accessor;
	sinewi_jw_pad(&e->bin, 4, 0);
	size_t offset = e->bin.size;
	for (uint32_t k = 0; k < clip->sample_count; ++k) {
		float t = sinewi_export_to_float(sinew_clip_sample_time(clip, (double)k));
		sinewi_json_write_raw(&e->bin, (const char *)&t, sizeof t);
	}
	return a->time_accessor = add_accessor(e, offset, clip->sample_count, "SCALAR", &a->start, &a->last);
}

static void add_sampler(anim_builder *a, uint32_t input, uint32_t output, const char *interpolation) {
	if (a->count) sinewi_jw_raw(&a->samplers, ","), sinewi_jw_raw(&a->channels, ",");
	sinewi_jw_raw(&a->samplers, "{\"input\":");
	sinewi_jw_num(&a->samplers, input);
	sinewi_jw_raw(&a->samplers, ",\"output\":");
	sinewi_jw_num(&a->samplers, output);
	if (interpolation) {
		sinewi_jw_raw(&a->samplers, ",\"interpolation\":\"");
		sinewi_jw_raw(&a->samplers, interpolation);
		sinewi_jw_raw(&a->samplers, "\"");
	}
	sinewi_jw_raw(&a->samplers, "}");
	sinewi_jw_raw(&a->channels, "{\"sampler\":");
	sinewi_jw_num(&a->channels, a->count);
}

static void add_channel(anim_builder *a, uint32_t input, uint32_t output, uint32_t node, const char *path,
                        const char *interpolation) {
	add_sampler(a, input, output, interpolation);
	sinewi_jw_raw(&a->channels, ",\"target\":{\"node\":");
	sinewi_jw_num(&a->channels, node);
	sinewi_jw_raw(&a->channels, ",\"path\":\"");
	sinewi_jw_raw(&a->channels, path);
	sinewi_jw_raw(&a->channels, "\"}}");
	a->count++;
}

static void add_pointer_channel(anim_builder *a, uint32_t input, uint32_t output, const char *pointer, bool step) {
	add_sampler(a, input, output, step ? "STEP" : NULL);
	sinewi_jw_raw(&a->channels,
	              ",\"target\":{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":{\"pointer\":");
	sinewi_json_write_string(&a->channels, pointer);
	sinewi_jw_raw(&a->channels, "}}}}");
	a->count++;
}

static void sub_value(const sinew_clip *clip, uint32_t joint, uint32_t k, int path, float out[4]) {
	const sinew_qvv *x = &clip->transforms[(size_t)k * clip->joint_count + joint];
	if (path == PATH_T)
		for (int i = 0; i < 3; ++i) out[i] = sinewi_export_to_float((double)x->translation[i] / clip->unit_scale);
	else if (path == PATH_R)
		sinewi_export_unit_quat(x->rotation, out);
	else
		memcpy(out, x->scale, 3 * sizeof(float));
}

// Key k's time, f32(k / rate) (or of its time through the clip's time marks), is up to half a float32 ulp
// off the sample time k / rate: 5e-7 s near 10 s,
// in which a node moving 40 m/s (a flying camera) covers 0.002 cm, a fifth of the default threshold. So a
// key holds the value sampling plays at the key's own time: interpolating samples are blended (lerp, nlerp
// on the shortest arc, as the decoder does); floor, ceil and nearest hold sample k, exact at k / rate.
static void key_positions(const sinew_clip *clip, key_pos *out) {
	uint32_t n = clip->sample_count;
	for (uint32_t k = 0; k < n; ++k) {
		double x = sinewi_clip_key(clip, (double)sinewi_export_to_float(sinew_clip_sample_time(clip, (double)k)));
		key_pos p = {k, x - (double)k};
		if (p.u < 0.0) {
			if (k == 0) p.u = 0.0;
			else p.k0 = k - 1, p.u += 1.0;
		}
		if (p.k0 + 1 >= n || !(p.u > 0.0 && p.u < 1.0)) p.k0 = k, p.u = 0.0;
		out[k] = p;
	}
}

static void key_value(const sinew_clip *clip, const key_pos *keys, uint32_t joint, uint32_t k, int path,
                      float out[4]) {
	key_pos p = keys[k];
	if (p.u == 0.0 || effective_rounding(clip->joints[joint].rounding, clip) != SINEW_ROUNDING_NONE) {
		sub_value(clip, joint, k, path, out);
		return;
	}
	const sinew_qvv *a = &clip->transforms[(size_t)p.k0 * clip->joint_count + joint];
	const sinew_qvv *b = a + clip->joint_count;
	double v[4];
	if (path == PATH_R) {
		double dot = 0.0;
		for (int i = 0; i < 4; ++i) dot += (double)a->rotation[i] * b->rotation[i];
		double wb = dot < 0.0 ? -p.u : p.u, n2 = 0.0;
		for (int i = 0; i < 4; ++i) v[i] = (1.0 - p.u) * a->rotation[i] + wb * b->rotation[i], n2 += v[i] * v[i];
		double inv = n2 > 0.0 ? 1.0 / sqrt(n2) : 0.0;
		for (int i = 0; i < 4; ++i) out[i] = (float)(v[i] * inv);
		if (!(n2 > 0.0)) out[0] = out[1] = out[2] = 0.0f, out[3] = 1.0f;
		return;
	}
	const float *fa = path == PATH_T ? a->translation : a->scale, *fb = path == PATH_T ? b->translation : b->scale;
	double scale = path == PATH_T ? clip->unit_scale : 1.0;
	for (int i = 0; i < 3; ++i) out[i] = sinewi_export_to_float(((1.0 - p.u) * fa[i] + p.u * fb[i]) / scale);
}

// Float c of scalar track t at key k, as key_value blends it.
static float key_scalar(const sinew_clip *clip, const key_pos *keys, const sinew_scalar_track *t, uint32_t k,
                        uint32_t c) {
	key_pos p = keys[k];
	if (p.u == 0.0 || effective_rounding(t->rounding, clip) != SINEW_ROUNDING_NONE)
		return t->values[(size_t)k * t->components + c];
	const float *a = &t->values[(size_t)p.k0 * t->components + c];
	return sinewi_export_to_float((1.0 - p.u) * a[0] + p.u * a[t->components]);
}

static bool sub_is_rest(const sinew_clip *clip, uint32_t joint, int path, const sinewi_rest_trs *rest) {
	const float *r = path == PATH_T ? rest->t : path == PATH_R ? rest->r : rest->s;
	int n = path == PATH_R ? 4 : 3;
	for (uint32_t k = 0; k < clip->sample_count; ++k) {
		float v[4];
		sub_value(clip, joint, k, path, v);
		for (int i = 0; i < n; ++i)
			if (v[i] != r[i]) return false;
	}
	return true;
}

static const char *const path_names[] = {"translation", "rotation", "scale"};

// A curve glTF can hold: key times finite, from 0, strictly increasing (a sinew_curve may repeat a time; glTF may not),
// and a known interpolation. Another is written as its samples.
static bool curve_exportable(const sinew_curve *c) {
	if (!c->key_count || !c->times || !c->values || c->interpolation > SINEW_CURVE_CUBICSPLINE) return false;
	for (uint32_t k = 0; k < c->key_count; ++k)
		if (!isfinite(c->times[k]) || c->times[k] < 0.0f || (k && !(c->times[k] > c->times[k - 1]))) return false;
	return true;
}

// A curve's key times, an accessor per time set (curves that share their times share it).
static uint32_t curve_times(sinewi_exporter *e, anim_builder *a, const sinew_curve *c) {
	for (uint32_t i = 0; i < a->time_set_count; ++i)
		if (a->time_sets[i].keys == c->key_count &&
		    (a->time_sets[i].times == c->times || !memcmp(a->time_sets[i].times, c->times, (size_t)c->key_count * sizeof(float))))
			return a->time_sets[i].accessor;
	sinewi_jw_pad(&e->bin, 4, 0);
	size_t offset = e->bin.size;
	sinewi_json_write_raw(&e->bin, (const char *)c->times, (size_t)c->key_count * sizeof(float));
	uint32_t acc = add_accessor(e, offset, c->key_count, "SCALAR", &c->times[0], &c->times[c->key_count - 1]);
	if (a->time_set_count < CURVE_TIME_SETS) {
		a->time_sets[a->time_set_count].times = c->times, a->time_sets[a->time_set_count].keys = c->key_count;
		a->time_sets[a->time_set_count++].accessor = acc;
	}
	return acc;
}

// Sub-track `path` of a joint from its curve: keys as glTF stores them (CUBICSPLINE: in-tangent, value, out-tangent),
// translations in metres, STEP and LINEAR rotations of unit length (the glTF rule; their quantized keys are within
// float noise of it).
static void write_curve(sinewi_exporter *e, anim_builder *a, const sinew_clip *clip, const sinew_curve *c, uint32_t node,
                        int path) {
	static const char *const interpolations[] = {"STEP", NULL, "CUBICSPLINE"}; // (LINEAR, the default, unsaid)
	const int n = path == PATH_R ? 4 : 3;
	const uint32_t per = c->interpolation == SINEW_CURVE_CUBICSPLINE ? 3u : 1u;
	const uint32_t input = curve_times(e, a, c);
	sinewi_jw_pad(&e->bin, 4, 0);
	size_t offset = e->bin.size;
	for (size_t k = 0; k < (size_t)c->key_count * per; ++k) {
		const float *x = c->values + k * (size_t)n;
		float v[4];
		if (path == PATH_T)
			for (int i = 0; i < 3; ++i) v[i] = sinewi_export_to_float((double)x[i] / clip->unit_scale);
		else if (path == PATH_R && per == 1)
			sinewi_export_unit_quat(x, v);
		else
			memcpy(v, x, (size_t)n * sizeof(float));
		sinewi_json_write_raw(&e->bin, (const char *)v, (size_t)n * sizeof(float));
	}
	uint32_t acc = add_accessor(e, offset, c->key_count * per, n == 4 ? "VEC4" : "VEC3", NULL, NULL);
	add_channel(a, input, acc, node, path_names[path], interpolations[c->interpolation]);
}

static void write_sub(sinewi_exporter *e, anim_builder *a, const sinew_clip *clip, uint32_t joint, uint32_t node,
                      int path) {
	const sinew_curve *curve = a->curve_of ? a->curve_of[(size_t)joint * 3 + (size_t)path] : NULL;
	if (curve) {
		write_curve(e, a, clip, curve, node, path);
		return;
	}
	int n = path == PATH_R ? 4 : 3;
	const uint32_t input = sample_times(e, a, clip);
	sinewi_jw_pad(&e->bin, 4, 0);
	size_t offset = e->bin.size;
	for (uint32_t k = 0; k < clip->sample_count; ++k) {
		float v[4];
		key_value(clip, e->keys, joint, k, path, v);
		sinewi_json_write_raw(&e->bin, (const char *)v, (size_t)n * sizeof(float));
	}
	uint32_t acc = add_accessor(e, offset, clip->sample_count, n == 4 ? "VEC4" : "VEC3", NULL, NULL);
	bool step = effective_rounding(clip->joints[joint].rounding, clip) == SINEW_ROUNDING_FLOOR;
	add_channel(a, input, acc, node, path_names[path], step ? "STEP" : NULL);
}

// One `weights` channel per node: every morph target of the node's mesh, per key, in target order.
static sinew_result write_weights(sinewi_exporter *e, anim_builder *a, uint32_t ci, const sinew_clip *clip) {
	sinewi_source_doc *s = e->src;
	uint8_t *done = (uint8_t *)sinewi_export_array(e, clip->scalar_track_count, 1);
	if (!done) return sinewi_export_oom(e);
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
		const sinew_scalar_track *first = &clip->scalar_tracks[i];
		if (done[i] || first->source_node < 0 || first->source_target < 0) continue;
		bool animated = false; // (a node whose weights the clip does not animate gets no channel)
		for (uint32_t j = i; j < clip->scalar_track_count; ++j)
			animated |= clip->scalar_tracks[j].source_node == first->source_node && clip->scalar_tracks[j].has_track;
		if (!animated) continue;
		uint32_t node = (uint32_t)first->source_node;
		SINEWI_CHECK(node < s->node_count, e->error, SINEW_RESULT_OUT_OF_RANGE,
		             "export: clip %u ('%s') scalar track %u: source_node %u is not a node of %s", ci,
		             sinewi_export_clip_label(clip), i, node, s->path);
		const sinewi_json *mesh = NULL;
		uint32_t targets = sinewi_source_target_count(s, node, &mesh);
		SINEWI_CHECK(targets > 0, e->error, SINEW_RESULT_OUT_OF_RANGE,
		             "export: clip %u ('%s') scalar track %u: node %u of %s has no morph targets", ci,
		             sinewi_export_clip_label(clip), i, node, s->path);
		const sinew_scalar_track **by_target =
		    (const sinew_scalar_track **)sinewi_export_array(e, targets, sizeof(void *));
		uint32_t *component = (uint32_t *)sinewi_export_array(e, targets, sizeof(uint32_t));
		float *rest = (float *)sinewi_export_array(e, targets, sizeof(float));
		if (!by_target || !component || !rest) return sinewi_export_oom(e);
		// Targets without a track keep their default weight: node.weights, else mesh.weights, else 0 (glTF 3.7.2.2).
		const sinewi_json *weights = sinewi_json_get(sinewi_json_at(s->nodes, node), "weights");
		if (!weights || weights->type != SINEWI_JSON_ARRAY || weights->count != targets)
			weights = sinewi_json_get(mesh, "weights");
		if (weights && (weights->type != SINEWI_JSON_ARRAY || weights->count != targets)) weights = NULL;
		for (uint32_t t = 0; t < targets; ++t) {
			double d = 0.0;
			if (sinewi_json_number(sinewi_json_at(weights, t), &d)) rest[t] = sinewi_export_to_float(d);
		}
		bool step = true;
		for (uint32_t j = i; j < clip->scalar_track_count; ++j) {
			const sinew_scalar_track *track = &clip->scalar_tracks[j];
			if (track->source_node != first->source_node || track->source_target < 0) continue;
			done[j] = 1;
			// A track of C components drives targets source_target .. source_target + C - 1.
			SINEWI_CHECK(
			    (uint64_t)track->source_target + track->components <= targets, e->error, SINEW_RESULT_OUT_OF_RANGE,
			    "export: clip %u ('%s') scalar track %u: morph target %d..%u is beyond the %u targets of node %u", ci,
			    sinewi_export_clip_label(clip), j, track->source_target,
			    (unsigned)track->source_target + track->components - 1, targets, node);
			for (uint32_t c = 0; c < track->components; ++c) {
				uint32_t t = (uint32_t)track->source_target + c;
				SINEWI_CHECK(!by_target[t], e->error, SINEW_RESULT_INVALID_ARGUMENT,
				             "export: clip %u ('%s'): scalar tracks %u and %u both drive morph target %u of node %u",
				             ci, sinewi_export_clip_label(clip), (unsigned)(by_target[t] - clip->scalar_tracks), j, t,
				             node);
				by_target[t] = track;
				component[t] = c;
			}
			step = step && effective_rounding(track->rounding, clip) == SINEW_ROUNDING_FLOOR;
		}
		const uint32_t input = sample_times(e, a, clip);
		sinewi_jw_pad(&e->bin, 4, 0);
		size_t offset = e->bin.size;
		for (uint32_t k = 0; k < clip->sample_count; ++k) {
			for (uint32_t t = 0; t < targets; ++t) {
				const sinew_scalar_track *track = by_target[t];
				float v = track ? key_scalar(clip, e->keys, track, k, component[t]) : rest[t];
				sinewi_json_write_raw(&e->bin, (const char *)&v, sizeof v);
			}
		}
		uint64_t count = (uint64_t)clip->sample_count * targets;
		SINEWI_CHECK(count <= UINT32_MAX, e->error, SINEW_RESULT_UNSUPPORTED,
		             "export: clip %u ('%s'): too many morph weights for one accessor", ci,
		             sinewi_export_clip_label(clip));
		uint32_t acc = add_accessor(e, offset, (uint32_t)count, "SCALAR", NULL, NULL);
		add_channel(a, input, acc, node, "weights", step ? "STEP" : NULL);
	}
	return SINEW_RESULT_OK;
}

// One KHR_animation_pointer channel per pointer: its tracks (source_node SINEW_SOURCE_POINTER, named by the
// pointer) must cover floats 0 .. n-1 of its value once each. A value of 2-4 floats is written as VECn, one
// float or a `weights` array as SCALAR (n per key), as the extension asks.
static sinew_result write_pointers(sinewi_exporter *e, anim_builder *a, uint32_t ci, const sinew_clip *clip) {
	uint8_t *done = (uint8_t *)sinewi_export_array(e, clip->scalar_track_count, 1);
	if (!done) return sinewi_export_oom(e);
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
		const sinew_scalar_track *first = &clip->scalar_tracks[i];
		if (done[i] || first->source_node != SINEW_SOURCE_POINTER || !first->has_track) continue; // (not animated here)
		const char *pointer = first->name;
		SINEWI_CHECK(pointer && pointer[0] == '/', e->error, SINEW_RESULT_INVALID_ARGUMENT,
		             "export: clip %u ('%s') scalar track %u drives a KHR_animation_pointer but its name \"%.80s\" is "
		             "not a JSON pointer", ci, sinewi_export_clip_label(clip), i, pointer ? pointer : "(none)");
		uint32_t n = 0, covered = 0;
		bool step = true;
		for (uint32_t j = i; j < clip->scalar_track_count; ++j) {
			const sinew_scalar_track *t = &clip->scalar_tracks[j];
			if (t->source_node != SINEW_SOURCE_POINTER || !t->name || strcmp(t->name, pointer) != 0) continue;
			SINEWI_CHECK(t->source_target >= 0 && t->source_target <= 4096, e->error, SINEW_RESULT_OUT_OF_RANGE,
			             "export: clip %u ('%s') scalar track %u: float index %d of pointer \"%.80s\"", ci,
			             sinewi_export_clip_label(clip), j, t->source_target, pointer);
			uint32_t end = (uint32_t)t->source_target + t->components;
			if (end > n) n = end;
			covered += t->components;
			step = step && effective_rounding(t->rounding, clip) == SINEW_ROUNDING_FLOOR;
		}
		const sinew_scalar_track **by_float = (const sinew_scalar_track **)sinewi_export_array(e, n, sizeof(void *));
		if (!by_float) return sinewi_export_oom(e);
		for (uint32_t j = i; j < clip->scalar_track_count; ++j) {
			const sinew_scalar_track *t = &clip->scalar_tracks[j];
			if (t->source_node != SINEW_SOURCE_POINTER || !t->name || strcmp(t->name, pointer) != 0) continue;
			done[j] = 1;
			for (uint32_t c = 0; c < t->components; ++c) {
				SINEWI_CHECK(!by_float[(uint32_t)t->source_target + c], e->error, SINEW_RESULT_INVALID_ARGUMENT,
				             "export: clip %u ('%s'): two scalar tracks drive float %u of pointer \"%.80s\"", ci,
				             sinewi_export_clip_label(clip), (uint32_t)t->source_target + c, pointer);
				by_float[(uint32_t)t->source_target + c] = t;
			}
		}
		SINEWI_CHECK(covered == n, e->error, SINEW_RESULT_INVALID_ARGUMENT,
		             "export: clip %u ('%s'): the tracks of pointer \"%.80s\" leave floats of its %u undriven", ci,
		             sinewi_export_clip_label(clip), pointer, n);
		size_t len = strlen(pointer);
		bool array = n > 4 || (len >= 8 && strcmp(pointer + len - 8, "/weights") == 0);
		static const char *const types[] = {"SCALAR", "VEC2", "VEC3", "VEC4"};
		uint64_t count = (uint64_t)clip->sample_count * (array ? n : 1);
		SINEWI_CHECK(count <= UINT32_MAX, e->error, SINEW_RESULT_UNSUPPORTED,
		             "export: clip %u ('%s'): too many values for one accessor", ci, sinewi_export_clip_label(clip));
		const uint32_t input = sample_times(e, a, clip);
		sinewi_jw_pad(&e->bin, 4, 0);
		size_t offset = e->bin.size;
		for (uint32_t k = 0; k < clip->sample_count; ++k)
			for (uint32_t c = 0; c < n; ++c) {
				const sinew_scalar_track *t = by_float[c];
				float v = key_scalar(clip, e->keys, t, k, c - (uint32_t)t->source_target);
				sinewi_json_write_raw(&e->bin, (const char *)&v, sizeof v);
			}
		uint32_t acc = add_accessor(e, offset, (uint32_t)count, array ? "SCALAR" : types[n - 1], NULL, NULL);
		add_pointer_channel(a, input, acc, pointer, step);
		e->pointer_channels = !sinewi_export_is_mode(e, SINEWI_EXPORT_PACK); // a packed file's animations are the blob
	}
	return SINEW_RESULT_OK;
}

// Decides which sub-tracks are written (e->written). A sub-track whose every sample equals the node's rest value in the
// output is left out (the node already says it), but a joint the clip animates (has_track) keeps one channel
// in that clip: the clip targets it, and a re-import sees the same joints animated by the same clips.
sinew_result sinewi_export_analyse_clips(sinewi_exporter *e) {
	sinewi_source_doc *s = e->src;
	const sinew_clip_set *set = e->set;
	e->written = (uint8_t **)sinewi_export_array(e, set->clip_count, sizeof(uint8_t *));
	if (!e->written) return sinewi_export_oom(e);
	for (uint32_t n = 0; n < e->node_count; ++n) e->node_stamp[n] = 0;
	for (uint32_t ci = 0; ci < set->clip_count; ++ci) {
		const sinew_clip *clip = set->clips[ci];
		uint8_t *mask = (uint8_t *)sinewi_export_array(e, clip->joint_count, 1);
		if (!mask) return sinewi_export_oom(e);
		e->written[ci] = mask;
		for (uint32_t j = 0; j < clip->joint_count; ++j) {
			const sinew_joint *joint = &clip->joints[j];
			if (!joint->has_track) continue;
			uint32_t node = j;
			if (s) {
				SINEWI_CHECK(joint->source_index >= 0 && (uint32_t)joint->source_index < s->node_count, e->error,
				             SINEW_RESULT_OUT_OF_RANGE,
				             "export: clip %u ('%s') joint %u ('%s'): source_index %d is not a node of %s", ci,
				             sinewi_export_clip_label(clip), j, sinewi_export_joint_label(joint), joint->source_index,
				             s->path);
				node = (uint32_t)joint->source_index;
				SINEWI_CHECK(e->node_stamp[node] != ci + 1, e->error, SINEW_RESULT_INVALID_ARGUMENT,
				             "export: clip %u ('%s'): joint %u ('%s') maps to node %u like an earlier joint", ci,
				             sinewi_export_clip_label(clip), j, sinewi_export_joint_label(joint), node);
				e->node_stamp[node] = ci + 1;
			}
			for (int path = PATH_T; path <= PATH_S; ++path)
				if (!sub_is_rest(clip, j, path, &e->rest[node])) mask[j] |= (uint8_t)(1u << path);
			// the clip animates the joint (a channel targets it) but holds it at rest: one channel keeps it targeted
			if (!mask[j]) mask[j] = FORCE_ROTATION;
		}
	}
	return SINEW_RESULT_OK;
}

sinew_result sinewi_export_write_clip(sinewi_exporter *e, uint32_t ci) {
	const sinew_clip *clip = e->set->clips[ci];
	sinewi_source_doc *s = e->src;
	// Key times k / rate (or the clip's time marks) as float32; they must increase strictly (glTF animation
	// sampler rule). (Written by the first channel that plays samples: sample_times.)
	float previous = -1.0f, start = 0.0f, last = 0.0f;
	for (uint32_t k = 0; k < clip->sample_count; ++k) {
		float t = sinewi_export_to_float(sinew_clip_sample_time(clip, (double)k));
		SINEWI_CHECK(t > previous && isfinite(t), e->error, SINEW_RESULT_UNSUPPORTED,
		             "export: clip %u ('%s'): sample %u time is not representable as a distinct float32 key time", ci,
		             sinewi_export_clip_label(clip), k);
		if (k == 0) start = t; // 0, or a time map's first mark (keys from 1/24 s)
		previous = last = t;
	}
	anim_builder a;
	memset(&a, 0, sizeof a);
	sinewi_json_writer_init(&a.samplers, e->allocator);
	sinewi_json_writer_init(&a.channels, e->allocator);
	a.time_accessor = SINEWI_EXPORT_NONE, a.start = start, a.last = last;
	if (clip->curve_count) {
		a.curve_of = (const sinew_curve **)sinewi_export_array(e, (size_t)clip->joint_count * 3, sizeof(void *));
		if (!a.curve_of) return sinewi_export_oom(e);
		for (uint32_t k = 0; k < clip->curve_count; ++k) {
			const sinew_curve *c = &clip->curves[k];
			if (c->target < 3 && c->index < clip->joint_count && curve_exportable(c))
				a.curve_of[(size_t)c->index * 3 + (c->target == 0 ? PATH_R : c->target == 1 ? PATH_T : PATH_S)] = c;
		}
	}
	key_pos *keys = (key_pos *)sinewi_export_array(e, clip->sample_count, sizeof(key_pos));
	if (!keys) return sinewi_export_oom(e);
	key_positions(clip, keys);
	e->keys = keys;

	sinew_result r = SINEW_RESULT_OK;
	uint32_t first_tracked = SINEWI_EXPORT_NONE;
	for (uint32_t j = 0; j < clip->joint_count; ++j) {
		const sinew_joint *joint = &clip->joints[j];
		if (!joint->has_track) continue;
		uint32_t node = s ? (uint32_t)joint->source_index : j; // validated by sinewi_export_analyse_clips
		if (first_tracked == SINEWI_EXPORT_NONE) first_tracked = j;
		uint8_t mask = e->written[ci][j];
		for (int path = PATH_T; path <= PATH_S; ++path)
			if (mask & (1u << path) || (path == PATH_R && mask & FORCE_ROTATION)) write_sub(e, &a, clip, j, node, path);
	}
	uint32_t skipped_scalars = 0;
	if (r == SINEW_RESULT_OK && s) r = write_weights(e, &a, ci, clip);
	if (r == SINEW_RESULT_OK && s) r = write_pointers(e, &a, ci, clip);
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
		const sinew_scalar_track *track = &clip->scalar_tracks[i];
		bool pointer = track->source_node == SINEW_SOURCE_POINTER;
		if (!s || (!pointer && (track->source_node < 0 || track->source_target < 0))) skipped_scalars++;
	}
	if (r == SINEW_RESULT_OK && a.count == 0) {
		// An animation needs a channel; the first animated joint's rotation keeps the clip's duration. A clip that
		// moves nothing (assimp's one-key SMD and LWS poses: every joint at rest) is its root held at rest.
		if (first_tracked == SINEWI_EXPORT_NONE && clip->scalar_track_count == 0 && clip->joint_count > 0 &&
		    (!s || clip->joints[0].source_index >= 0))
			first_tracked = 0;
		if (first_tracked == SINEWI_EXPORT_NONE)
			r = sinewi_fail(e->error, SINEW_RESULT_UNSUPPORTED,
			                "export: clip %u ('%s') has nothing glTF can animate (no joint with a track%s)", ci,
			                sinewi_export_clip_label(clip),
			                s ? " and no morph track" : "; scalar tracks need source_path");
		else
			write_sub(e, &a, clip, first_tracked,
			          s ? (uint32_t)clip->joints[first_tracked].source_index : first_tracked, PATH_R);
	}
	if (r == SINEW_RESULT_OK) {
		sinewi_json_writer *w = &e->anims;
		if (ci) sinewi_jw_raw(w, ",");
		sinewi_jw_raw(w, "{");
		bool first = true;
		if (clip->name) sinewi_jw_key(w, &first, "name"), sinewi_json_write_string(w, clip->name);
		sinewi_jw_key(w, &first, "channels");
		sinewi_jw_raw(w, "[");
		if (a.channels.size) sinewi_jw_append(w, a.channels.data, a.channels.size);
		sinewi_jw_raw(w, "]");
		sinewi_jw_key(w, &first, "samplers");
		sinewi_jw_raw(w, "[");
		if (a.samplers.size) sinewi_jw_append(w, a.samplers.data, a.samplers.size);
		sinewi_jw_raw(w, "]");
		// glTF has no place for these; extras keep them for tools that read them back.
		sinewi_jw_key(w, &first, "extras");
		sinewi_jw_raw(w, "{\"sinew\":{\"sample_rate\":");
		sinewi_jw_num(w, clip->sample_rate);
		sinewi_jw_raw(w, ",\"sample_count\":");
		sinewi_jw_num(w, clip->sample_count);
		sinewi_jw_raw(w, clip->looping ? ",\"looping\":true" : ",\"looping\":false");
		sinewi_jw_raw(w, ",\"rounding\":\"");
		sinewi_jw_raw(w, rounding_name(clip->rounding));
		sinewi_jw_raw(w, "\",\"unit_scale\":");
		sinewi_jw_num(w, clip->unit_scale);
		sinewi_jw_raw(w, ",\"resample_error_m\":");
		sinewi_jw_num(w, clip->resample_error / clip->unit_scale);
		if (skipped_scalars) sinewi_jw_raw(w, ",\"skipped_scalar_tracks\":"), sinewi_jw_num(w, skipped_scalars);
		sinewi_jw_raw(w, "}}}");
		if (a.samplers.failed || a.channels.failed) r = sinewi_export_oom(e);
	}
	sinewi_json_writer_free(&a.samplers);
	sinewi_json_writer_free(&a.channels);
	return r;
}
