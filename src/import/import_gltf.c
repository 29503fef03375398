// sinew — see include/sinew.h for version and licence
// glTF 2.0 animation importer: .gltf (JSON + external or data: buffers) and .glb.
//
// Only what animation needs is read and validated: the node hierarchy (always: cycles and nodes with two
// parents are errors), animations, their samplers and accessors, the buffers behind them (loaded lazily),
// the rest transforms and names of skeleton nodes, skins (joint lists) and morph target counts/defaults.
// Materials, images and scenes are not interpreted, and meshes only where they bound the error (the morph
// targets of animated weights, gltf_morph_units.c; skinned vertices with skin_shells) and never fatally, so a
// file whose only faults lie there still imports. Results: schema violations (wrong JSON types, missing required properties, indices out of range,
// inconsistent counts, data outside its buffer) are CORRUPT with the JSON path or accessor in the message,
// JSON syntax errors PARSE, unreadable buffers IO, NaN/inf data NOT_FINITE. KHR_animation_pointer channels
// to a node's translation/rotation/scale/weights map to the same tracks as plain channels; pointers to other
// float properties become scalar tracks named by the pointer (source_node SINEW_SOURCE_POINTER). Channels
// that cannot become tracks (no target node, an unknown path, a pointer to a non-float property, zero keys,
// weights on a node without morph targets) are skipped with a warning; so are animations left without
// channels. A file with no usable channel at all is BAD_COUNT "no animation with node channels".
//
// Decisions beyond the spec:
// - key times must be finite, >= 0 and non-decreasing; equal consecutive times are accepted and make a
//   step (the later key wins from that time on), as exporters write them for discontinuities.
// - rotations are normalized (a warning when a float quaternion is off by more than 1e-3); a zero-length
//   rotation key is CORRUPT.
// - external buffers: relative paths only (no scheme, no leading '/', no ".." component), %XX decoded,
//   resolved against ctx->base_dir; without a base_dir they are an IO error.
// - a node `matrix` is decomposed into T, R, S (negative determinant: negative x scale); a matrix with
//   shear or a projective row is CORRUPT (glTF requires decomposable matrices).
// - a channel targeting the same node and path as an earlier one in the same animation replaces it (warning).
// - skeleton: every node animated in any animation (TRS or weights), every node below a TRS-animated node
//   (it moves with it, so the error metric measures it), every skin joint, and their ancestors,
//   depth-first from the roots in `children` order; one joint list and one scalar track list (every morph
//   target of every node with animated weights) for all clips, unanimated parts at their rest/default value.
//   Joints whose TRS is never animated have has_track = 0.
#include "gltf_internal.h"

#include "../core/quat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// Containers, buffers and accessors: gltf_accessor.c. Resampling into clips: gltf_resample.c.

typedef struct gltf_sampler {
	uint32_t input, output;
	uint8_t interpolation; // sinewi_gltf_interpolation
} gltf_sampler;

typedef struct sinewi_gltf_channel {
	uint32_t animation;
	uint32_t node;
	int32_t pointer; // index into d->pointers for a pointer to anything but a node's TRS/weights, else -1
	sinewi_gltf_curve curve;
} sinewi_gltf_channel;

// A KHR_animation_pointer target other than a node's TRS or weights (materials, KHR_texture_transform,
// cameras, lights): every channel to it must give the same number of floats per key.
typedef struct sinewi_gltf_pointer {
	const char *text;
	uint32_t components;
} sinewi_gltf_pointer;

#define MAX_POINTER_LENGTH 512  // bytes of a pointer string
#define MAX_POINTERS 4096       // distinct pointer targets per document
#define MAX_POINTER_VALUES 1024 // floats per key of one pointer (a mesh's morph weights)

/* ---- nodes ---- */

static sinew_result node_object(sinewi_gltf_doc *d, uint32_t node, const sinewi_json **out) {
	return sinewi_gltf_element(d, d->nodes, node, "node", out);
}

// Parent of every node from `children`; two parents, self-reference and cycles are CORRUPT.
static sinew_result build_hierarchy(sinewi_gltf_doc *d) {
	uint32_t n = d->node_count;
	d->parent = (int32_t *)sinewi_arena_array(d->arena, n ? n : 1, sizeof(int32_t));
	d->node_targets = (uint32_t *)sinewi_arena_array(d->arena, n ? n : 1, sizeof(uint32_t));
	if (!d->parent || !d->node_targets) return sinewi_gltf_oom(d);
	for (uint32_t i = 0; i < n; ++i) d->parent[i] = -1;
	for (uint32_t i = 0; i < n; ++i) {
		const sinewi_json *node = NULL, *children = NULL;
		SINEWI_TRY(node_object(d, i, &node));
		char where[48];
		snprintf(where, sizeof where, "nodes[%u]", i);
		SINEWI_TRY(sinewi_gltf_prop_array(d, node, "children", where, &children));
		for (uint32_t k = 0; children && k < children->count; ++k) {
			uint32_t c;
			if (!sinewi_json_uint(&children->children[k], &c) || c >= n)
				return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
				                        "node %u: child %u is not a valid node index (line %u)", i, k,
				                        sinewi_gltf_line(d, &children->children[k]));
			if (c == i) return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "node %u lists itself as a child", i);
			if (d->parent[c] >= 0)
				return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "node %u has two parents (%d and %u)", c, d->parent[c],
				                        i);
			d->parent[c] = (int32_t)i;
		}
	}
	// With one parent per node, a node that cannot reach a root by following parents sits on a cycle.
	// Walk each node up until a root or an already-verified node; states: 0 unknown, 1 on the current walk, 2 ok.
	uint8_t *state = (uint8_t *)sinewi_arena_alloc(d->arena, n ? n : 1);
	if (!state) return sinewi_gltf_oom(d);
	for (uint32_t i = 0; i < n; ++i) {
		uint32_t k = i;
		while (state[k] == 0) {
			state[k] = 1;
			if (d->parent[k] < 0) break;
			k = (uint32_t)d->parent[k];
		}
		if (state[k] == 1 && d->parent[k] >= 0)
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "node hierarchy has a cycle through node %u", k);
		for (k = i; state[k] == 1; k = (uint32_t)d->parent[k]) {
			state[k] = 2;
			if (d->parent[k] < 0) break;
		}
	}
	return SINEW_RESULT_OK;
}

// Quaternion (x, y, z, w) of a rotation matrix r[row][col] (Shepperd's method).
static void quat_from_matrix(double r[3][3], double q[4]) {
	double tr = r[0][0] + r[1][1] + r[2][2];
	if (tr > 0.0) {
		double s = sqrt(tr + 1.0) * 2.0;
		q[3] = 0.25 * s, q[0] = (r[2][1] - r[1][2]) / s, q[1] = (r[0][2] - r[2][0]) / s, q[2] = (r[1][0] - r[0][1]) / s;
	} else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
		double s = sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]) * 2.0;
		q[3] = (r[2][1] - r[1][2]) / s, q[0] = 0.25 * s, q[1] = (r[0][1] + r[1][0]) / s, q[2] = (r[0][2] + r[2][0]) / s;
	} else if (r[1][1] > r[2][2]) {
		double s = sqrt(1.0 + r[1][1] - r[0][0] - r[2][2]) * 2.0;
		q[3] = (r[0][2] - r[2][0]) / s, q[0] = (r[0][1] + r[1][0]) / s, q[1] = 0.25 * s, q[2] = (r[1][2] + r[2][1]) / s;
	} else {
		double s = sqrt(1.0 + r[2][2] - r[0][0] - r[1][1]) * 2.0;
		q[3] = (r[1][0] - r[0][1]) / s, q[0] = (r[0][2] + r[2][0]) / s, q[1] = (r[1][2] + r[2][1]) / s, q[2] = 0.25 * s;
	}
	sinewi_quat_normalize_d(q);
}

static void cross3(const double a[3], const double b[3], double r[3]) {
	r[0] = a[1] * b[2] - a[2] * b[1];
	r[1] = a[2] * b[0] - a[0] * b[2];
	r[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3(const double a[3], const double b[3]) {
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// Column-major 4x4 -> T, R, S. Zero-scale axes get a rotation axis completed from the others.
static sinew_result decompose_matrix(sinewi_gltf_doc *d, uint32_t node, const double m[16], double t[3], double q[4],
                                     double s[3]) {
	double scale_max = 0.0;
	for (int i = 0; i < 12; ++i) scale_max = sinewi_fmax(scale_max, fabs(m[i]));
	double tol = 1e-5 * sinewi_fmax(1.0, scale_max);
	if (fabs(m[3]) > tol || fabs(m[7]) > tol || fabs(m[11]) > tol || fabs(m[15] - 1.0) > 1e-5)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "node %u: matrix has a projective last row (%g %g %g %g)",
		                        node, m[3], m[7], m[11], m[15]);
	double col[3][3];
	for (int c = 0; c < 3; ++c) {
		for (int r = 0; r < 3; ++r) col[c][r] = m[c * 4 + r];
		s[c] = sqrt(dot3(col[c], col[c]));
		t[c] = m[12 + c];
	}
	double cr[3];
	cross3(col[1], col[2], cr);
	if (dot3(col[0], cr) < 0.0) s[0] = -s[0]; // mirror: negative scale on x
	bool ok[3];
	int good = 0;
	for (int c = 0; c < 3; ++c) {
		ok[c] = fabs(s[c]) > 1e-12 * sinewi_fmax(1.0, scale_max) && fabs(s[c]) > 0.0;
		if (ok[c]) {
			for (int r = 0; r < 3; ++r) col[c][r] /= s[c];
			++good;
		}
	}
	for (int a = 0; a < 3; ++a)
		for (int b = a + 1; b < 3; ++b)
			if (ok[a] && ok[b] && fabs(dot3(col[a], col[b])) > 1e-4)
				return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
				                        "node %u: matrix has shear (axes %d and %d are not orthogonal)", node, a, b);
	if (good == 0) {
		for (int c = 0; c < 3; ++c)
			for (int r = 0; r < 3; ++r) col[c][r] = c == r ? 1.0 : 0.0;
	} else if (good == 1) {
		int a = ok[0] ? 0 : ok[1] ? 1 : 2, b = (a + 1) % 3, c = (a + 2) % 3;
		double helper[3] = {0, 0, 0};
		helper[fabs(col[a][0]) < 0.9 ? 0 : 1] = 1.0;
		cross3(col[a], helper, col[b]);
		double len = sqrt(dot3(col[b], col[b]));
		for (int r = 0; r < 3; ++r) col[b][r] /= len;
		cross3(col[a], col[b], col[c]);
	} else if (good == 2) {
		int c = !ok[0] ? 0 : !ok[1] ? 1 : 2;
		cross3(col[(c + 1) % 3], col[(c + 2) % 3], col[c]);
	}
	double rot[3][3];
	for (int r = 0; r < 3; ++r)
		for (int c = 0; c < 3; ++c) rot[r][c] = col[c][r];
	quat_from_matrix(rot, q);
	return SINEW_RESULT_OK;
}

// Normalizes a rotation; zero length is CORRUPT. Returns the length before normalizing in *length.
static bool normalize_rotation(double q[4], double *length) {
	double len = sqrt(sinewi_quat_dot_d(q, q));
	*length = len;
	if (!(len > 1e-6) || !isfinite(len)) return false;
	for (int i = 0; i < 4; ++i) q[i] /= len;
	return true;
}

static sinew_result node_rest_pose(sinewi_gltf_doc *d, uint32_t index, double unit_scale, sinew_qvv *out) {
	const sinewi_json *node = NULL;
	SINEWI_TRY(node_object(d, index, &node));
	char where[48];
	snprintf(where, sizeof where, "nodes[%u]", index);
	double t[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1}, m[16];
	bool has_t, has_r, has_s, has_m;
	SINEWI_TRY(sinewi_gltf_prop_numbers(d, node, "translation", 3, where, &has_t, t));
	SINEWI_TRY(sinewi_gltf_prop_numbers(d, node, "rotation", 4, where, &has_r, q));
	SINEWI_TRY(sinewi_gltf_prop_numbers(d, node, "scale", 3, where, &has_s, s));
	SINEWI_TRY(sinewi_gltf_prop_numbers(d, node, "matrix", 16, where, &has_m, m));
	if (has_m) {
		if (has_t || has_r || has_s)
			sinewi_import_warn(d->ctx, "%s: node %u has both matrix and TRS; using the matrix", d->label, index);
		SINEWI_TRY(decompose_matrix(d, index, m, t, q, s));
	}
	double length;
	if (!normalize_rotation(q, &length))
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "node %u: rotation has length %g", index, length);
	if (fabs(length - 1.0) > 1e-3)
		sinewi_import_warn(d->ctx, "%s: node %u: rotation length %g, normalized", d->label, index, length);
	for (int i = 0; i < 3; ++i) {
		out->translation[i] = sinewi_gltf_to_float(t[i] * unit_scale);
		out->scale[i] = sinewi_gltf_to_float(s[i]);
	}
	for (int i = 0; i < 4; ++i) out->rotation[i] = (float)q[i];
	return SINEW_RESULT_OK;
}

// Number of morph targets a node's weights drive: mesh.primitives[0].targets, else mesh.weights, else
// node.weights; 0 when unknown.
static sinew_result node_target_count(sinewi_gltf_doc *d, uint32_t index, uint32_t *out,
                                      const sinewi_json **node_weights, const sinewi_json **mesh_weights) {
	*out = 0;
	*node_weights = *mesh_weights = NULL;
	const sinewi_json *node = NULL;
	SINEWI_TRY(node_object(d, index, &node));
	char where[48];
	snprintf(where, sizeof where, "nodes[%u]", index);
	SINEWI_TRY(sinewi_gltf_prop_array(d, node, "weights", where, node_weights));
	uint32_t mesh_index = 0;
	bool has_mesh = false;
	SINEWI_TRY(sinewi_gltf_prop_uint(d, node, "mesh", false, d->mesh_count, "mesh", where, &has_mesh, &mesh_index));
	uint32_t count = 0;
	if (has_mesh) {
		const sinewi_json *mesh = NULL;
		SINEWI_TRY(sinewi_gltf_element(d, d->meshes, mesh_index, "mesh", &mesh));
		snprintf(where, sizeof where, "meshes[%u]", mesh_index);
		SINEWI_TRY(sinewi_gltf_prop_array(d, mesh, "weights", where, mesh_weights));
		const sinewi_json *primitive = sinewi_json_at(sinewi_json_get(mesh, "primitives"), 0);
		const sinewi_json *targets = sinewi_json_get(primitive, "targets");
		if (targets && targets->type == SINEWI_JSON_ARRAY) count = targets->count;
		if (!count && *mesh_weights) count = (*mesh_weights)->count;
	}
	if (!count && *node_weights) count = (*node_weights)->count;
	*out = count;
	return SINEW_RESULT_OK;
}

/* ---- animations ---- */

static sinew_result parse_path(const char *text, sinewi_gltf_path *out) {
	static const char *names[] = {"translation", "rotation", "scale", "weights"};
	for (int i = 0; i < 4; ++i)
		if (strcmp(text, names[i]) == 0) {
			*out = (sinewi_gltf_path)i;
			return SINEW_RESULT_OK;
		}
	return SINEW_RESULT_UNSUPPORTED;
}

static sinew_result push_channel(sinewi_gltf_doc *d, const sinewi_gltf_channel *c) {
	if (d->channel_count == d->channel_capacity) {
		uint32_t capacity = d->channel_capacity ? d->channel_capacity * 2 : 64;
		if (capacity < d->channel_capacity) return sinewi_gltf_oom(d);
		sinewi_gltf_channel *grown = (sinewi_gltf_channel *)sinewi_arena_array(d->arena, capacity, sizeof *grown);
		if (!grown) return sinewi_gltf_oom(d);
		if (d->channel_count) memcpy(grown, d->channels, d->channel_count * sizeof *grown);
		d->channels = grown;
		d->channel_capacity = capacity;
	}
	d->channels[d->channel_count++] = *c;
	return SINEW_RESULT_OK;
}

// Rotation curves get their own normalized copy (tangents stay as they are).
static sinew_result normalize_rotation_curve(sinewi_gltf_doc *d, uint32_t accessor, sinewi_gltf_curve *curve) {
	size_t per_key = curve->interpolation == SINEWI_GLTF_CUBICSPLINE ? 3 : 1;
	size_t n = (size_t)curve->key_count * per_key * 4;
	float *copy = (float *)sinewi_arena_array(d->arena, n, sizeof(float));
	if (!copy) return sinewi_gltf_oom(d);
	memcpy(copy, curve->values, n * sizeof(float));
	bool warned = false;
	for (uint32_t k = 0; k < curve->key_count; ++k) {
		float *v = copy + (k * per_key + (per_key == 3 ? 1 : 0)) * 4;
		double q[4] = {v[0], v[1], v[2], v[3]}, length;
		if (!normalize_rotation(q, &length))
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: rotation key %u has length %g", accessor, k,
			                        length);
		if (fabs(length - 1.0) > 1e-3 && d->accessor_cache[accessor].component_type == 5126 && !warned) {
			sinewi_import_warn(d->ctx, "%s: accessor %u: rotation key %u has length %g; rotations normalized", d->label,
			                   accessor, k, length);
			warned = true;
		}
		for (int i = 0; i < 4; ++i) v[i] = (float)q[i];
	}
	curve->values = copy;
	return SINEW_RESULT_OK;
}

// KHR_animation_pointer: target.extensions.KHR_animation_pointer.pointer (NULL when absent).
static sinew_result animation_pointer(sinewi_gltf_doc *d, const sinewi_json *target, const char *where,
                                      const char **out) {
	const sinewi_json *ext = NULL, *ptr = NULL;
	*out = NULL;
	SINEWI_TRY(sinewi_gltf_prop_object(d, target, "extensions", false, where, &ext));
	if (ext) SINEWI_TRY(sinewi_gltf_prop_object(d, ext, "KHR_animation_pointer", false, where, &ptr));
	if (ptr) SINEWI_TRY(sinewi_gltf_prop_string(d, ptr, "pointer", false, where, out));
	return SINEW_RESULT_OK;
}

// "/nodes/<index>/<translation|rotation|scale|weights>" -> node and path, the same tracks as plain
// channels; false for every other pointer (materials, cameras, lights: not imported).
static bool pointer_node_path(const sinewi_gltf_doc *d, const char *pointer, uint32_t *node, sinewi_gltf_path *path) {
	static const char prefix[] = "/nodes/";
	if (!pointer || strncmp(pointer, prefix, sizeof prefix - 1) != 0) return false;
	const char *p = pointer + sizeof prefix - 1;
	uint64_t index = 0;
	if (*p < '0' || *p > '9' || (*p == '0' && p[1] >= '0' && p[1] <= '9')) return false; // no sign, no leading zero
	for (; *p >= '0' && *p <= '9'; ++p) {
		index = index * 10 + (uint64_t)(*p - '0');
		if (index >= d->node_count) return false;
	}
	if (*p++ != '/') return false;
	if (parse_path(p, path) != SINEW_RESULT_OK) return false;
	*node = (uint32_t)index;
	return true;
}

// RFC 6901: the value `pointer` names in the document, or NULL.
static const sinewi_json *resolve_pointer(const sinewi_json *root, const char *p) {
	char token[MAX_POINTER_LENGTH + 1];
	const sinewi_json *v = root;
	while (v && *p == '/') {
		size_t n = 0;
		for (++p; *p && *p != '/'; ++n) {
			char c = *p++;
			if (c == '~') {
				if (*p != '0' && *p != '1') return NULL;
				c = *p++ == '0' ? '~' : '/';
			}
			token[n] = c;
		}
		token[n] = 0;
		if (v->type != SINEWI_JSON_ARRAY) {
			v = sinewi_json_get(v, token);
			continue;
		}
		uint32_t index = 0;
		if (n == 0 || n > 9 || (token[0] == '0' && n > 1)) return NULL;
		for (size_t i = 0; i < n; ++i) {
			if (token[i] < '0' || token[i] > '9') return NULL;
			index = index * 10 + (uint32_t)(token[i] - '0');
		}
		v = sinewi_json_at(v, index);
	}
	return *p ? NULL : v;
}

static sinew_result skip_channel(sinewi_gltf_doc *d) {
	++d->skipped_channels;
	return SINEW_RESULT_OK;
}

// The pointer's index in d->pointers, added when new; CORRUPT when it was animated with another value count.
static sinew_result intern_pointer(sinewi_gltf_doc *d, const char *text, uint32_t components, const char *where,
                                   int32_t *out) {
	for (uint32_t i = 0; i < d->pointer_count; ++i) {
		if (strcmp(d->pointers[i].text, text) != 0) continue;
		if (d->pointers[i].components != components)
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
			                        "%s: KHR_animation_pointer \"%.80s\" has %u values per key here and %u elsewhere",
			                        where, text, components, d->pointers[i].components);
		*out = (int32_t)i;
		return SINEW_RESULT_OK;
	}
	if (d->pointer_count == MAX_POINTERS)
		return sinewi_gltf_fail(d, SINEW_RESULT_UNSUPPORTED, "more than %u KHR_animation_pointer targets", MAX_POINTERS);
	if (d->pointer_count == d->pointer_capacity) {
		uint32_t capacity = d->pointer_capacity ? d->pointer_capacity * 2 : 16;
		sinewi_gltf_pointer *grown = (sinewi_gltf_pointer *)sinewi_arena_array(d->arena, capacity, sizeof *grown);
		if (!grown) return sinewi_gltf_oom(d);
		if (d->pointer_count) memcpy(grown, d->pointers, d->pointer_count * sizeof *grown);
		d->pointers = grown;
		d->pointer_capacity = capacity;
	}
	d->pointers[d->pointer_count].text = text;
	d->pointers[d->pointer_count].components = components;
	*out = (int32_t)d->pointer_count++;
	return SINEW_RESULT_OK;
}

// A KHR_animation_pointer channel to any other numeric property: a scalar curve of the property's floats
// (SCALAR, VEC2-4; a SCALAR array such as a mesh's weights has several per key), kept with its pointer so
// the exporter writes the same channel back. Properties that are not floats (booleans, integers,
// matrices) are skipped with a warning.
static sinew_result read_pointer_channel(sinewi_gltf_doc *d, uint32_t a_index, const char *where, const char *pointer,
                                         const gltf_sampler *sampler) {
	size_t length = strlen(pointer);
	if (pointer[0] != '/' || length > MAX_POINTER_LENGTH) {
		sinewi_import_warn(d->ctx, "%s: %s: KHR_animation_pointer \"%.80s\" is not a JSON pointer of at most %u bytes; "
		                           "channel skipped", d->label, where, pointer, MAX_POINTER_LENGTH);
		return skip_channel(d);
	}
	// A node's own properties are TRS and weights (pointer_node_path); only its extensions are left.
	static const char nodes[] = "/nodes/";
	if (strncmp(pointer, nodes, sizeof nodes - 1) == 0 && !strstr(pointer, "/extensions/")) {
		sinewi_import_warn(d->ctx, "%s: %s: KHR_animation_pointer \"%.80s\" is not a node's translation, rotation, "
		                           "scale or weights; channel skipped", d->label, where, pointer);
		return skip_channel(d);
	}
	// The property may be absent (it has its schema default) but the object holding it must exist.
	char parent[MAX_POINTER_LENGTH + 1];
	memcpy(parent, pointer, length + 1);
	*strrchr(parent, '/') = 0;
	const sinewi_json *holder = resolve_pointer(d->root, parent);
	if (!holder || holder->type != SINEWI_JSON_OBJECT) {
		sinewi_import_warn(d->ctx, "%s: %s: KHR_animation_pointer \"%.80s\": the document has no object at \"%.80s\"; "
		                           "channel skipped", d->label, where, pointer, parent);
		return skip_channel(d);
	}
	sinewi_gltf_interpolation interp = (sinewi_gltf_interpolation)sampler->interpolation;
	sinewi_gltf_accessor *in = NULL, *out = NULL;
	SINEWI_TRY(sinewi_gltf_decode_accessor(d, sampler->input, &in));
	SINEWI_TRY(sinewi_gltf_decode_accessor(d, sampler->output, &out));
	SINEWI_TRY(sinewi_gltf_check_times(d, sampler->input, in));
	uint32_t t = out->component_type;
	bool small_int = t == 5120 || t == 5121 || t == 5122 || t == 5123;
	if (out->matrix || !(t == 5126 || (small_int && out->normalized))) {
		sinewi_import_warn(d->ctx, "%s: %s: KHR_animation_pointer \"%.80s\": output accessor %u is not a float "
		                           "SCALAR or VECn (componentType %u); channel skipped",
		                   d->label, where, pointer, sampler->output, t);
		return skip_channel(d);
	}
	if (in->count == 0) {
		sinewi_import_warn(d->ctx, "%s: %s: the sampler has no keys, channel skipped", d->label, where);
		return skip_channel(d);
	}
	uint64_t elements = (uint64_t)in->count * (interp == SINEWI_GLTF_CUBICSPLINE ? 3u : 1u);
	uint64_t components = out->components;
	if (out->components == 1 && out->count % elements == 0) components = out->count / elements;
	if (components == 0 || (uint64_t)out->count != elements * (out->components == 1 ? components : 1))
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
		                        "%s: output accessor %u has %u elements, not a multiple of the %llu keys%s", where,
		                        sampler->output, out->count, (unsigned long long)in->count,
		                        interp == SINEWI_GLTF_CUBICSPLINE ? " x 3 for CUBICSPLINE" : "");
	if (components > MAX_POINTER_VALUES)
		return sinewi_gltf_fail(d, SINEW_RESULT_UNSUPPORTED, "%s: %llu values per key (at most %u)", where,
		                        (unsigned long long)components, MAX_POINTER_VALUES);
	if (!out->values_checked) {
		size_t n = (size_t)out->count * out->components;
		for (size_t i = 0; i < n; ++i)
			if (!isfinite(out->data[i]))
				return sinewi_gltf_fail(d, SINEW_RESULT_NOT_FINITE, "accessor %u: element %zu is not finite",
				                        sampler->output, i / out->components);
		out->values_checked = true;
	}
	sinewi_gltf_channel ch;
	memset(&ch, 0, sizeof ch);
	SINEWI_TRY(intern_pointer(d, pointer, (uint32_t)components, where, &ch.pointer));
	ch.animation = a_index;
	ch.curve.path = SINEWI_GLTF_WEIGHTS; // a scalar curve
	ch.curve.interpolation = (uint8_t)interp;
	ch.curve.components = (uint32_t)components;
	ch.curve.key_count = in->count;
	ch.curve.times = in->data;
	ch.curve.values = out->data;
	return push_channel(d, &ch);
}

static sinew_result read_animation(sinewi_gltf_doc *d, uint32_t a_index) {
	const sinewi_json *anim = NULL, *channels = NULL, *samplers = NULL;
	SINEWI_TRY(sinewi_gltf_element(d, d->animations, a_index, "animation", &anim));
	char where[96];
	snprintf(where, sizeof where, "animations[%u]", a_index);
	SINEWI_TRY(sinewi_gltf_prop_array(d, anim, "channels", where, &channels));
	SINEWI_TRY(sinewi_gltf_prop_array(d, anim, "samplers", where, &samplers));
	uint32_t sampler_count = samplers ? samplers->count : 0;
	// Every sampler is checked even when no channel uses it: a broken sampler means a broken file. Their fields
	// are kept so channels do not look them up again (a channel list can be long).
	gltf_sampler *parsed =
	    (gltf_sampler *)sinewi_arena_array(d->arena, sampler_count ? sampler_count : 1, sizeof *parsed);
	if (!parsed) return sinewi_gltf_oom(d);
	for (uint32_t s = 0; s < sampler_count; ++s) {
		const sinewi_json *sampler = NULL;
		snprintf(where, sizeof where, "animations[%u].samplers[%u]", a_index, s);
		SINEWI_TRY(sinewi_gltf_element(d, samplers, s, where, &sampler));
		const char *interpolation = NULL;
		SINEWI_TRY(sinewi_gltf_prop_uint(d, sampler, "input", true, d->accessor_count, "accessor", where, NULL,
		                                 &parsed[s].input));
		SINEWI_TRY(sinewi_gltf_prop_uint(d, sampler, "output", true, d->accessor_count, "accessor", where, NULL,
		                                 &parsed[s].output));
		SINEWI_TRY(sinewi_gltf_prop_string(d, sampler, "interpolation", false, where, &interpolation));
		if (!interpolation || strcmp(interpolation, "LINEAR") == 0)
			parsed[s].interpolation = SINEWI_GLTF_LINEAR;
		else if (strcmp(interpolation, "STEP") == 0)
			parsed[s].interpolation = SINEWI_GLTF_STEP;
		else if (strcmp(interpolation, "CUBICSPLINE") == 0)
			parsed[s].interpolation = SINEWI_GLTF_CUBICSPLINE;
		else
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "%s: unknown interpolation \"%.32s\"", where,
			                        interpolation);
	}
	for (uint32_t c = 0; channels && c < channels->count; ++c) {
		const sinewi_json *channel = NULL, *target = NULL;
		snprintf(where, sizeof where, "animations[%u].channels[%u]", a_index, c);
		SINEWI_TRY(sinewi_gltf_element(d, channels, c, where, &channel));
		uint32_t s = 0, node = 0;
		bool has_node = false;
		const char *path_text = NULL;
		SINEWI_TRY(sinewi_gltf_prop_uint(d, channel, "sampler", true, sampler_count, "sampler", where, NULL, &s));
		SINEWI_TRY(sinewi_gltf_prop_object(d, channel, "target", true, where, &target));
		char target_where[112];
		snprintf(target_where, sizeof target_where, "%s.target", where);
		SINEWI_TRY(
		    sinewi_gltf_prop_uint(d, target, "node", false, d->node_count, "node", target_where, &has_node, &node));
		SINEWI_TRY(sinewi_gltf_prop_string(d, target, "path", true, target_where, &path_text));
		sinewi_gltf_path path;
		if (strcmp(path_text, "pointer") == 0) {
			const char *pointer = NULL;
			SINEWI_TRY(animation_pointer(d, target, target_where, &pointer));
			if (!pointer) {
				sinewi_import_warn(d->ctx, "%s: %s: path \"pointer\" without a KHR_animation_pointer pointer; "
				                           "channel skipped", d->label, where);
				++d->skipped_channels;
				continue;
			}
			if (!pointer_node_path(d, pointer, &node, &path)) {
				SINEWI_TRY(read_pointer_channel(d, a_index, where, pointer, &parsed[s]));
				continue;
			}
			has_node = true;
		} else if (parse_path(path_text, &path) != SINEW_RESULT_OK) {
			sinewi_import_warn(d->ctx, "%s: %s: target path \"%.32s\" is not supported, channel skipped", d->label,
			                   where, path_text);
			++d->skipped_channels;
			continue;
		}
		if (!has_node) {
			sinewi_import_warn(d->ctx, "%s: %s has no target node, channel skipped", d->label, where);
			++d->skipped_channels;
			continue;
		}
		uint32_t input = parsed[s].input, output = parsed[s].output;
		sinewi_gltf_interpolation interp = (sinewi_gltf_interpolation)parsed[s].interpolation;
		sinewi_gltf_accessor *in = NULL, *out = NULL;
		SINEWI_TRY(sinewi_gltf_decode_accessor(d, input, &in));
		SINEWI_TRY(sinewi_gltf_decode_accessor(d, output, &out));
		SINEWI_TRY(sinewi_gltf_check_times(d, input, in));
		SINEWI_TRY(sinewi_gltf_check_output(d, output, out, path));
		uint32_t components = path == SINEWI_GLTF_ROTATION ? 4 : 3;
		if (path == SINEWI_GLTF_WEIGHTS) {
			if (!d->node_targets[node]) { // cached: many channels may animate one node's weights
				const sinewi_json *node_weights = NULL, *mesh_weights = NULL;
				uint32_t targets = 0;
				SINEWI_TRY(node_target_count(d, node, &targets, &node_weights, &mesh_weights));
				if (targets == UINT32_MAX)
					return sinewi_gltf_fail(d, SINEW_RESULT_UNSUPPORTED, "node %u: too many morph targets", node);
				d->node_targets[node] = targets + 1;
			}
			components = d->node_targets[node] - 1;
			if (!components) {
				sinewi_import_warn(d->ctx,
				                   "%s: %s animates the weights of node %u, which has no morph targets; skipped",
				                   d->label, where, node);
				++d->skipped_channels;
				continue;
			}
		}
		if (in->count == 0) {
			sinewi_import_warn(d->ctx, "%s: %s: sampler %u has no keys, channel skipped", d->label, where, s);
			++d->skipped_channels;
			continue;
		}
		uint64_t expected = (uint64_t)in->count * (interp == SINEWI_GLTF_CUBICSPLINE ? 3u : 1u) *
		                    (path == SINEWI_GLTF_WEIGHTS ? components : 1u);
		if (out->count != expected)
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
			                        "%s: output accessor %u has %u elements, expected %llu (%u keys%s%s)", where,
			                        output, out->count, (unsigned long long)expected, in->count,
			                        interp == SINEWI_GLTF_CUBICSPLINE ? " x 3 for CUBICSPLINE" : "",
			                        path == SINEWI_GLTF_WEIGHTS ? " x morph targets" : "");
		sinewi_gltf_channel ch;
		memset(&ch, 0, sizeof ch);
		ch.animation = a_index;
		ch.node = node;
		ch.pointer = -1;
		ch.curve.path = (uint8_t)path;
		ch.curve.interpolation = (uint8_t)interp;
		ch.curve.components = components;
		ch.curve.key_count = in->count;
		ch.curve.times = in->data;
		ch.curve.values = out->data;
		if (path == SINEWI_GLTF_ROTATION) SINEWI_TRY(normalize_rotation_curve(d, output, &ch.curve));
		SINEWI_TRY(push_channel(d, &ch));
	}
	return SINEW_RESULT_OK;
}

/* ---- skeleton and clips ---- */

typedef struct gltf_skeleton {
	uint32_t joint_count;
	int32_t *node_to_joint; // [node_count], -1 when the node is not a joint
	sinew_joint *joints;
	uint32_t track_count;
	int32_t *node_first_track; // [node_count], -1 when the node has no morph tracks
	sinew_scalar_track *tracks;
} gltf_skeleton;

static sinew_result mark_skin_joints(sinewi_gltf_doc *d, uint8_t *include) {
	uint32_t skin_count = d->skins ? d->skins->count : 0;
	for (uint32_t s = 0; s < skin_count; ++s) {
		const sinewi_json *skin = NULL, *joints = NULL;
		char where[48];
		snprintf(where, sizeof where, "skins[%u]", s);
		SINEWI_TRY(sinewi_gltf_element(d, d->skins, s, "skin", &skin));
		SINEWI_TRY(sinewi_gltf_prop_array(d, skin, "joints", where, &joints));
		if (!joints) return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "skin %u: \"joints\" is missing", s);
		for (uint32_t k = 0; k < joints->count; ++k) {
			uint32_t node;
			if (!sinewi_json_uint(&joints->children[k], &node) || node >= d->node_count)
				return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
				                        "skin %u: joint %u is not a valid node index (line %u)", s, k,
				                        sinewi_gltf_line(d, &joints->children[k]));
			include[node] = 1;
		}
	}
	return SINEW_RESULT_OK;
}

// Every node below a TRS-animated node moves with it (bone tips, attachments, the nodes of meshes and
// cameras parented to bones): DESIGN §4 measures them, so they join the skeleton as hierarchy-only
// joints. One pass per node over its unresolved ancestors (states: 0 unknown, 1 moves, 2 static).
static sinew_result mark_moving_descendants(sinewi_gltf_doc *d, const uint8_t *animated, uint8_t *include) {
	uint32_t n = d->node_count;
	uint8_t *state = (uint8_t *)sinewi_arena_alloc(d->arena, n ? n : 1);
	uint32_t *path = (uint32_t *)sinewi_arena_array(d->arena, n ? n : 1, sizeof(uint32_t));
	if (!state || !path) return sinewi_gltf_oom(d);
	for (uint32_t i = 0; i < n; ++i) {
		uint32_t len = 0;
		int32_t k = (int32_t)i;
		while (k >= 0 && state[k] == 0 && !(animated[k] & 1)) path[len++] = (uint32_t)k, k = d->parent[k];
		uint8_t v = k < 0 ? 2 : (animated[k] & 1) ? 1 : state[k];
		if (k >= 0 && (animated[k] & 1)) state[k] = 1;
		while (len) state[path[--len]] = v;
		if (state[i] == 1) include[i] = 1;
	}
	return SINEW_RESULT_OK;
}

static sinew_result build_skeleton(sinewi_gltf_doc *d, double unit_scale, gltf_skeleton *sk) {
	uint32_t n = d->node_count;
	uint8_t *include = (uint8_t *)sinewi_arena_alloc(d->arena, n ? n : 1);
	uint8_t *animated = (uint8_t *)sinewi_arena_alloc(d->arena, n ? n : 1); // bit 0: TRS, bit 1: weights
	sk->node_to_joint = (int32_t *)sinewi_arena_array(d->arena, n ? n : 1, sizeof(int32_t));
	sk->node_first_track = (int32_t *)sinewi_arena_array(d->arena, n ? n : 1, sizeof(int32_t));
	uint32_t *target_count = (uint32_t *)sinewi_arena_array(d->arena, n ? n : 1, sizeof(uint32_t));
	if (!include || !animated || !sk->node_to_joint || !sk->node_first_track || !target_count)
		return sinewi_gltf_oom(d);
	for (uint32_t c = 0; c < d->channel_count; ++c) {
		const sinewi_gltf_channel *ch = &d->channels[c];
		if (ch->pointer >= 0) continue;
		include[ch->node] = 1;
		animated[ch->node] |= ch->curve.path == SINEWI_GLTF_WEIGHTS ? 2 : 1;
		if (ch->curve.path == SINEWI_GLTF_WEIGHTS) target_count[ch->node] = ch->curve.components;
	}
	SINEWI_TRY(mark_skin_joints(d, include));
	SINEWI_TRY(mark_moving_descendants(d, animated, include));
	for (uint32_t i = 0; i < n; ++i)
		if (include[i])
			for (int32_t p = d->parent[i]; p >= 0 && !include[p]; p = d->parent[p]) include[p] = 1;
	// Depth-first from the roots, children in file order: parents come before children, subtrees stay together.
	uint32_t *stack = (uint32_t *)sinewi_arena_array(d->arena, n ? n : 1, sizeof(uint32_t));
	uint32_t *order = (uint32_t *)sinewi_arena_array(d->arena, n ? n : 1, sizeof(uint32_t));
	if (!stack || !order) return sinewi_gltf_oom(d);
	uint32_t count = 0;
	for (uint32_t root = 0; root < n; ++root) {
		if (d->parent[root] >= 0 || !include[root]) continue;
		uint32_t top = 0;
		stack[top++] = root;
		while (top) {
			uint32_t node = stack[--top];
			order[count++] = node;
			const sinewi_json *children = sinewi_json_get(&d->nodes->children[node], "children");
			// push in reverse so the first child is visited first; validated in build_hierarchy
			for (uint32_t k = children ? children->count : 0; k-- > 0;) {
				uint32_t c = (uint32_t)children->children[k].number;
				if (include[c]) stack[top++] = c;
			}
		}
	}
	if (count > (uint32_t)INT32_MAX) return sinewi_gltf_fail(d, SINEW_RESULT_UNSUPPORTED, "too many joints");
	sk->joint_count = count;
	sk->joints = (sinew_joint *)sinewi_arena_array(d->arena, count ? count : 1, sizeof(sinew_joint));
	if (!sk->joints) return sinewi_gltf_oom(d);
	for (uint32_t i = 0; i < n; ++i) sk->node_to_joint[i] = -1, sk->node_first_track[i] = -1;
	uint32_t tracks = 0;
	for (uint32_t j = 0; j < count; ++j) {
		uint32_t node = order[j];
		sk->node_to_joint[node] = (int32_t)j;
		sinew_joint *joint = &sk->joints[j];
		const sinewi_json *obj = &d->nodes->children[node];
		char where[48];
		snprintf(where, sizeof where, "nodes[%u]", node);
		SINEWI_TRY(sinewi_gltf_prop_string(d, obj, "name", false, where, &joint->name));
		joint->parent = d->parent[node] >= 0 ? sk->node_to_joint[d->parent[node]] : -1;
		joint->source_index = (int32_t)node;
		joint->rounding = SINEW_ROUNDING_CLIP;
		joint->has_track = (animated[node] & 1) ? 1 : 0; // unanimated ancestors and skin joints: hierarchy only
		SINEWI_TRY(node_rest_pose(d, node, unit_scale, &joint->default_pose));
		if ((animated[node] & 1) && sinewi_json_get(obj, "matrix"))
			sinewi_import_warn(d->ctx, "%s: node %u is animated but has a matrix; its decomposition is the rest pose",
			                   d->label, node);
		if (animated[node] & 2) {
			if (tracks > UINT32_MAX - target_count[node])
				return sinewi_gltf_fail(d, SINEW_RESULT_UNSUPPORTED, "too many morph targets");
			sk->node_first_track[node] = (int32_t)tracks;
			tracks += target_count[node];
		}
	}
	sk->track_count = tracks;
	sk->tracks = (sinew_scalar_track *)sinewi_arena_array(d->arena, tracks ? tracks : 1, sizeof(sinew_scalar_track));
	if (!sk->tracks) return sinewi_gltf_oom(d);
	for (uint32_t j = 0; j < count; ++j) {
		uint32_t node = order[j];
		if (sk->node_first_track[node] < 0) continue;
		const sinewi_json *node_weights = NULL, *mesh_weights = NULL;
		uint32_t targets;
		SINEWI_TRY(node_target_count(d, node, &targets, &node_weights, &mesh_weights));
		// Defaults (glTF §3.7.2.2): node.weights, else mesh.weights, else zero.
		const sinewi_json *defaults = node_weights && node_weights->count == target_count[node]   ? node_weights
		                              : mesh_weights && mesh_weights->count == target_count[node] ? mesh_weights
		                                                                                          : NULL;
		for (uint32_t t = 0; t < target_count[node]; ++t) {
			sinew_scalar_track *track = &sk->tracks[(uint32_t)sk->node_first_track[node] + t];
			track->components = 1;
			track->rounding = SINEW_ROUNDING_CLIP;
			track->source_node = (int32_t)node;
			track->source_target = (int32_t)t;
			double v = 0.0;
			if (defaults && !sinewi_json_number(&defaults->children[t], &v))
				return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "node %u: default weight %u is not a number (line %u)",
				                        node, t, sinewi_gltf_line(d, &defaults->children[t]));
			track->default_value[0] = sinewi_gltf_to_float(v);
			char name[160];
			const char *node_name = sk->joints[sk->node_to_joint[node]].name;
			if (node_name)
				snprintf(name, sizeof name, "%.120s.weights[%u]", node_name, t);
			else
				snprintf(name, sizeof name, "node_%u.weights[%u]", node, t);
			track->name = sinewi_arena_strdup(d->arena, name);
			if (!track->name) return sinewi_gltf_oom(d);
		}
	}
	return SINEW_RESULT_OK;
}

// Copies the names the clips point at into the clip set, so they outlive the importer's arena.
static sinew_result own_names(sinewi_gltf_doc *d, sinew_clip_set *set, gltf_skeleton *sk) {
	for (uint32_t j = 0; j < sk->joint_count; ++j)
		if (sk->joints[j].name && !(sk->joints[j].name = sinew_clip_set_strdup(set, sk->joints[j].name)))
			return sinewi_gltf_oom(d);
	for (uint32_t t = 0; t < sk->track_count; ++t)
		if (!(sk->tracks[t].name = sinew_clip_set_strdup(set, sk->tracks[t].name))) return sinewi_gltf_oom(d);
	return SINEW_RESULT_OK;
}

// The tracks of pointer p, shared by every clip (a clip that does not animate it plays its default): 4 floats per
// track (the last may hold fewer), source_target the first float's index, named by the pointer. Their default
// is the document's value at the pointer, or, when the document has none, the first key of the first channel
// animating it. Precision: 1e-4 of the largest magnitude of the key values of every channel animating it, at
// least 1e-4 (a light's intensity in candela needs no finer steps than a colour's 0..1); neither the tangents
// nor the document's value, which no clip plays, widen it.
static sinew_result add_pointer_tracks(sinewi_gltf_doc *d, sinew_clip_set *set, uint32_t p, sinew_scalar_track *out,
                                       uint32_t *out_count) {
	const char *pointer = d->pointers[p].text;
	const uint32_t k = d->pointers[p].components;
	const sinewi_gltf_curve *first = NULL;
	float largest = 0.0f; // (a float max: gcc 12's AArch64 vectorizer crashes on this loop's fmax reduction)
	for (uint32_t c = 0; c < d->channel_count; ++c) {
		const sinewi_gltf_channel *ch = &d->channels[c];
		if (ch->pointer != (int32_t)p) continue;
		const sinewi_gltf_curve *curve = &ch->curve;
		if (!first) first = curve;
		const bool cubic = curve->interpolation == SINEWI_GLTF_CUBICSPLINE;
		const float *keys = curve->values + (cubic ? k : 0);
		const size_t stride = (cubic ? 3u : 1u) * k;
		for (size_t key = 0; key < curve->key_count; ++key)
			for (uint32_t i = 0; i < k; ++i) {
				float a = fabsf(keys[key * stride + i]);
				if (a > largest) largest = a;
			}
	}
	const double magnitude = sinewi_fmax(1.0, (double)largest);
	const float *first_key = first ? first->values + (first->interpolation == SINEWI_GLTF_CUBICSPLINE ? k : 0) : NULL;
	const sinewi_json *rest = resolve_pointer(d->root, pointer);
	uint32_t tracks = (k + 3) / 4;
	const char *name = sinew_clip_set_strdup(set, pointer);
	if (!name) return sinewi_gltf_oom(d);
	for (uint32_t i = 0; i < tracks; ++i) {
		sinew_scalar_track *t = &out[i];
		memset(t, 0, sizeof *t);
		t->name = name;
		t->components = k - 4 * i < 4 ? k - 4 * i : 4;
		t->rounding = SINEW_ROUNDING_CLIP;
		t->source_node = SINEW_SOURCE_POINTER;
		t->source_target = (int32_t)(4 * i);
		for (uint32_t c = 0; c < t->components && first_key; ++c) t->default_value[c] = first_key[4 * i + c];
	}
	double v = 0.0;
	// the document's value: k numbers in an array, or one number, each finite as a float
	const bool array = rest && rest->type == SINEWI_JSON_ARRAY;
	bool numbers = rest && (array ? rest->count == k : k == 1);
	for (uint32_t c = 0; numbers && c < k; ++c)
		numbers = sinewi_json_number(array ? &rest->children[c] : rest, &v) && isfinite(sinewi_gltf_to_float(v));
	for (uint32_t c = 0; numbers && c < k; ++c) {
		sinewi_json_number(array ? &rest->children[c] : rest, &v);
		out[c / 4].default_value[c % 4] = sinewi_gltf_to_float(v);
	}
	for (uint32_t i = 0; i < tracks; ++i) out[i].precision = (float)(1e-4 * magnitude);
	*out_count = tracks;
	return SINEW_RESULT_OK;
}

// The bytes of the accessors animation `anim`'s samplers read, inputs and outputs, each once (`clip_seen` holds
// the animation's index + 1 of the last clip that counted an accessor).
static uint64_t animation_bytes(const sinewi_gltf_doc *d, const sinewi_json *anim, uint32_t *clip_seen) {
	const uint32_t stamp = (uint32_t)(anim - d->animations->children) + 1;
	const sinewi_json *samplers = sinewi_json_get(anim, "samplers");
	uint64_t bytes = 0;
	for (uint32_t k = 0; samplers && samplers->type == SINEWI_JSON_ARRAY && k < samplers->count; ++k)
		for (int io = 0; io < 2; ++io) {
			uint32_t acc;
			if (!sinewi_json_uint(sinewi_json_get(&samplers->children[k], io ? "output" : "input"), &acc) ||
			    acc >= d->accessor_count || clip_seen[acc] == stamp)
				continue;
			clip_seen[acc] = stamp;
			bytes += sinewi_gltf_accessor_bytes(&d->accessors->children[acc]);
		}
	return bytes;
}

static sinew_result build_clips(sinewi_gltf_doc *d, const gltf_skeleton *sk, double unit_scale,
                                const sinewi_gltf_morph *morphs, uint32_t morph_count, sinew_clip_set *set) {
	uint32_t anim_count = d->animations ? d->animations->count : 0;
	sinewi_gltf_binding *bindings =
	    (sinewi_gltf_binding *)sinewi_arena_array(d->arena, d->channel_count ? d->channel_count : 1, sizeof *bindings);
	// Slot of each (joint, path) and each weights node in the current clip: binding index + 1, 0 = none.
	uint32_t *slot = (uint32_t *)sinewi_arena_array(d->arena, (size_t)sk->joint_count * 4 + 1, sizeof(uint32_t));
	uint32_t *pointer_slot = (uint32_t *)sinewi_arena_array(d->arena, (size_t)d->pointer_count + 1, sizeof(uint32_t));
	// Every clip's tracks (one rig for the blob): the skeleton's morph tracks, then the tracks of every pointer
	// of the document (a clip that does not animate one plays its default).
	size_t max_tracks = sk->track_count;
	for (uint32_t p = 0; p < d->pointer_count; ++p) max_tracks += (d->pointers[p].components + 3) / 4;
	if (max_tracks > UINT32_MAX) return sinewi_gltf_fail(d, SINEW_RESULT_UNSUPPORTED, "too many scalar tracks");
	sinew_scalar_track *tracks =
	    (sinew_scalar_track *)sinewi_arena_array(d->arena, max_tracks ? max_tracks : 1, sizeof(sinew_scalar_track));
	uint32_t *pointer_track = (uint32_t *)sinewi_arena_array(d->arena, (size_t)d->pointer_count + 1, sizeof(uint32_t));
	if (!bindings || !slot || !pointer_slot || !tracks || !pointer_track) return sinewi_gltf_oom(d);
	if (sk->track_count) memcpy(tracks, sk->tracks, sk->track_count * sizeof *tracks);
	// accessors a clip's source bytes counted already
	uint32_t *clip_seen = (uint32_t *)sinewi_arena_array(d->arena, (size_t)d->accessor_count + 1, sizeof(uint32_t));
	if (!clip_seen) return sinewi_gltf_oom(d);
	uint32_t track_count = sk->track_count;
	for (uint32_t p = 0; p < d->pointer_count; ++p) {
		uint32_t added = 0;
		pointer_track[p] = track_count;
		SINEWI_TRY(add_pointer_tracks(d, set, p, tracks + track_count, &added));
		track_count += added;
	}
	uint32_t c = 0;
	for (uint32_t a = 0; a < anim_count; ++a) {
		uint32_t first = c, count = 0;
		while (c < d->channel_count && d->channels[c].animation == a) {
			const sinewi_gltf_channel *ch = &d->channels[c++];
			if (ch->pointer >= 0) {
				uint32_t p = (uint32_t)ch->pointer;
				sinewi_gltf_binding b = {&ch->curve, 0, pointer_track[p], 4};
				if (pointer_slot[p]) {
					sinewi_import_warn(d->ctx, "%s: animation %u: KHR_animation_pointer \"%.80s\" is animated twice; "
					                           "the later channel wins", d->label, a, d->pointers[p].text);
					bindings[pointer_slot[p] - 1] = b;
				} else {
					bindings[count] = b;
					pointer_slot[p] = ++count;
				}
				continue;
			}
			uint32_t joint = (uint32_t)sk->node_to_joint[ch->node];
			uint32_t key = joint * 4 + ch->curve.path;
			sinewi_gltf_binding b = {&ch->curve, joint, 0, 1};
			if (ch->curve.path == SINEWI_GLTF_WEIGHTS) b.first_track = (uint32_t)sk->node_first_track[ch->node];
			if (slot[key]) {
				sinewi_import_warn(d->ctx, "%s: animation %u: node %u %s is animated twice; the later channel wins",
				                   d->label, a, ch->node, sinewi_gltf_path_name((sinewi_gltf_path)ch->curve.path));
				bindings[slot[key] - 1] = b;
			} else {
				bindings[count] = b;
				slot[key] = ++count;
			}
		}
		for (uint32_t k = first; k < c; ++k) {
			const sinewi_gltf_channel *ch = &d->channels[k];
			if (ch->pointer >= 0)
				pointer_slot[ch->pointer] = 0;
			else
				slot[(uint32_t)sk->node_to_joint[ch->node] * 4 + ch->curve.path] = 0;
		}
		if (count == 0) {
			sinewi_import_warn(d->ctx, "%s: animation %u has no usable channel; skipped", d->label, a);
			continue;
		}
		const sinewi_json *anim = &d->animations->children[a];
		char where[48], fallback[32];
		snprintf(where, sizeof where, "animations[%u]", a);
		const char *name = NULL;
		SINEWI_TRY(sinewi_gltf_prop_string(d, anim, "name", false, where, &name));
		if (!name) {
			snprintf(fallback, sizeof fallback, "animation_%u", a);
			name = fallback;
		}
		sinewi_gltf_clip_input in = {name,   bindings,    count,      sk->joints, sk->joint_count,
		                             tracks, track_count, unit_scale, morphs,     morph_count};
		sinew_result r = sinewi_gltf_build_clip(d->ctx, d->arena, &in, set, d->error);
		if (r != SINEW_RESULT_OK) {
			if (d->error) {
				char inner[256];
				snprintf(inner, sizeof inner, "%s", d->error->message);
				sinewi_fail(d->error, r, "%s: animation %u \"%.48s\": %s", d->label, a, name, inner);
			}
			return r;
		}
		set->clips[set->clip_count - 1]->source_bytes = animation_bytes(d, anim, clip_seen);
	}
	return SINEW_RESULT_OK;
}

static sinew_result import_document(sinewi_gltf_doc *d, const unsigned char *data, size_t size, sinew_clip_set *set) {
	const char *json = (const char *)data;
	size_t json_size = size;
	if (size >= 4 && memcmp(data, "glTF", 4) == 0) SINEWI_TRY(sinewi_gltf_parse_glb(d, data, size, &json, &json_size));
	d->text = json;
	d->text_size = json_size;
	sinewi_json *root = NULL;
	sinew_error inner = {0};
	sinew_result r = sinewi_json_parse(d->arena, json, json_size, &root, &inner);
	if (r != SINEW_RESULT_OK) return sinewi_gltf_fail(d, r, "%s", inner.message);
	d->root = root;
	if (root->type != SINEWI_JSON_OBJECT)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "the JSON root is not an object");
	const sinewi_json *asset = NULL;
	SINEWI_TRY(sinewi_gltf_prop_object(d, root, "asset", true, "glTF", &asset));
	const char *version = NULL, *min_version = NULL;
	const sinewi_json *number = sinewi_json_get(asset, "version");
	double old = 0.0;
	if (number && number->type == SINEWI_JSON_NUMBER && sinewi_json_number(number, &old)) // glTF 1.0 wrote a number
		return sinewi_gltf_fail(d, SINEW_RESULT_UNSUPPORTED, "glTF version %g (only 2.x is supported)", old);
	SINEWI_TRY(sinewi_gltf_prop_string(d, asset, "version", true, "asset", &version));
	SINEWI_TRY(sinewi_gltf_prop_string(d, asset, "minVersion", false, "asset", &min_version));
	if (version[0] != '2' || version[1] != '.')
		return sinewi_gltf_fail(d, SINEW_RESULT_UNSUPPORTED, "glTF version \"%.16s\" (only 2.x is supported)", version);
	if (min_version && strcmp(min_version, "2.0") != 0)
		return sinewi_gltf_fail(d, SINEW_RESULT_UNSUPPORTED, "glTF minVersion \"%.16s\" is newer than 2.0",
		                        min_version);
	SINEWI_TRY(sinewi_gltf_prop_array(d, root, "nodes", "", &d->nodes));
	SINEWI_TRY(sinewi_gltf_prop_array(d, root, "accessors", "", &d->accessors));
	SINEWI_TRY(sinewi_gltf_prop_array(d, root, "bufferViews", "", &d->views));
	SINEWI_TRY(sinewi_gltf_prop_array(d, root, "buffers", "", &d->buffers));
	SINEWI_TRY(sinewi_gltf_prop_array(d, root, "meshes", "", &d->meshes));
	SINEWI_TRY(sinewi_gltf_prop_array(d, root, "skins", "", &d->skins));
	SINEWI_TRY(sinewi_gltf_prop_array(d, root, "animations", "", &d->animations));
	d->node_count = d->nodes ? d->nodes->count : 0;
	d->accessor_count = d->accessors ? d->accessors->count : 0;
	d->view_count = d->views ? d->views->count : 0;
	d->buffer_count = d->buffers ? d->buffers->count : 0;
	d->mesh_count = d->meshes ? d->meshes->count : 0;
	d->buffer_cache =
	    (sinewi_gltf_buffer *)sinewi_arena_array(d->arena, d->buffer_count + 1, sizeof(sinewi_gltf_buffer));
	d->accessor_cache =
	    (sinewi_gltf_accessor *)sinewi_arena_array(d->arena, d->accessor_count + 1, sizeof(sinewi_gltf_accessor));
	if (!d->buffer_cache || !d->accessor_cache) return sinewi_gltf_oom(d);
	SINEWI_TRY(build_hierarchy(d));
	uint32_t anim_count = d->animations ? d->animations->count : 0;
	for (uint32_t a = 0; a < anim_count; ++a) SINEWI_TRY(read_animation(d, a));
	if (anim_count == 0)
		return sinewi_gltf_fail(d, SINEW_RESULT_BAD_COUNT, "no animations in this file (a model without motion: nothing to compress)");
	if (d->channel_count == 0)
		return sinewi_gltf_fail(d, SINEW_RESULT_BAD_COUNT,
		                        "no animation with node channels (%u animations, %u channels skipped)", anim_count,
		                        d->skipped_channels);
	double unit_cm = d->ctx->options->unit_cm > 0.0 ? d->ctx->options->unit_cm : 100.0;
	double unit_scale = 100.0 / unit_cm;
	if (!isfinite(unit_scale) || !(unit_scale > 0.0))
		return sinewi_gltf_fail(d, SINEW_RESULT_INVALID_ARGUMENT, "unit_cm %g gives no usable unit scale",
		                        d->ctx->options->unit_cm);
	gltf_skeleton sk;
	memset(&sk, 0, sizeof sk);
	SINEWI_TRY(build_skeleton(d, unit_scale, &sk));
	if (d->ctx->options->skin_shells)
		SINEWI_TRY(sinewi_gltf_skin_shells(d, sk.joints, sk.joint_count, sk.node_to_joint, unit_scale));
	sinewi_gltf_morph *morphs = NULL;
	uint32_t morph_count = 0;
	SINEWI_TRY(sinewi_gltf_morph_units(d, sk.node_first_track, sk.node_to_joint, sk.tracks, sk.track_count, unit_scale,
	                                   &morphs, &morph_count));
	SINEWI_TRY(own_names(d, set, &sk));
	return build_clips(d, &sk, unit_scale, morphs, morph_count, set);
}

sinew_result sinewi_import_gltf(const sinewi_import_ctx *ctx, const unsigned char *data, size_t size,
                                sinew_clip_set *set, sinew_error *error) {
	sinewi_arena arena;
	sinewi_arena_init(&arena, ctx->allocator);
	sinewi_gltf_doc d;
	memset(&d, 0, sizeof d);
	d.ctx = ctx;
	d.arena = &arena;
	d.al = sinewi_alloc_from(ctx->allocator);
	d.error = error;
	d.label = ctx->path ? ctx->path : "input"; // as given: three BoxTextured.gltf in three folders differ
	sinew_result r = import_document(&d, data, size, set);
	for (uint32_t i = 0; d.buffer_cache && i < d.buffer_count; ++i)
		sinewi_free(&d.al, d.buffer_cache[i].owned, d.buffer_cache[i].owned_size);
	sinewi_arena_free(&arena);
	return r;
}

/* ---- the document's nodes alone (the rest pose of a packed glTF's blob) ---- */

static sinew_result read_nodes(sinewi_gltf_doc *d, const unsigned char *data, size_t size, double unit_scale,
                               sinewi_gltf_nodes *out) {
	const char *json = (const char *)data;
	size_t json_size = size;
	if (size >= 4 && memcmp(data, "glTF", 4) == 0) SINEWI_TRY(sinewi_gltf_parse_glb(d, data, size, &json, &json_size));
	d->text = json, d->text_size = json_size;
	sinewi_json *root = NULL;
	sinew_error inner = {0};
	sinew_result r = sinewi_json_parse(d->arena, json, json_size, &root, &inner);
	if (r != SINEW_RESULT_OK) return sinewi_gltf_fail(d, r, "%s", inner.message);
	d->root = root;
	if (root->type != SINEWI_JSON_OBJECT) return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "the JSON root is not an object");
	SINEWI_TRY(sinewi_gltf_prop_array(d, root, "nodes", "", &d->nodes));
	SINEWI_TRY(sinewi_gltf_prop_array(d, root, "meshes", "", &d->meshes));
	d->node_count = d->nodes ? d->nodes->count : 0;
	d->mesh_count = d->meshes ? d->meshes->count : 0;
	const uint32_t n = d->node_count;
	out->count = n;
	out->rest = (sinew_qvv *)sinewi_malloc(&out->al, (size_t)(n ? n : 1) * sizeof(sinew_qvv));
	out->weight_first = (uint32_t *)sinewi_malloc(&out->al, ((size_t)n + 1) * sizeof(uint32_t));
	if (!out->rest || !out->weight_first) return sinewi_gltf_oom(d);
	uint64_t weights = 0;
	for (uint32_t i = 0; i < n; ++i) {
		SINEWI_TRY(node_rest_pose(d, i, unit_scale, &out->rest[i]));
		const sinewi_json *node_weights, *mesh_weights;
		uint32_t targets;
		SINEWI_TRY(node_target_count(d, i, &targets, &node_weights, &mesh_weights));
		out->weight_first[i] = (uint32_t)weights;
		weights += targets;
		SINEWI_CHECK(weights <= UINT32_MAX / 8, d->error, SINEW_RESULT_UNSUPPORTED, "too many morph targets");
	}
	out->weight_first[n] = (uint32_t)weights;
	out->weight_count = (uint32_t)weights;
	out->weights = (float *)sinewi_malloc(&out->al, (size_t)(weights ? weights : 1) * sizeof(float));
	if (!out->weights) return sinewi_gltf_oom(d);
	for (uint32_t i = 0; i < n; ++i) { // (glTF §3.7.2.2: node.weights, else mesh.weights, else zero)
		const sinewi_json *node_weights, *mesh_weights;
		uint32_t targets;
		SINEWI_TRY(node_target_count(d, i, &targets, &node_weights, &mesh_weights));
		const sinewi_json *defaults = node_weights && node_weights->count == targets   ? node_weights
		                              : mesh_weights && mesh_weights->count == targets ? mesh_weights
		                                                                                : NULL;
		for (uint32_t t = 0; t < targets; ++t) {
			double v = 0.0;
			if (defaults && !sinewi_json_number(&defaults->children[t], &v))
				return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "node %u: default weight %u is not a number", i, t);
			out->weights[out->weight_first[i] + t] = sinewi_gltf_to_float(v);
		}
	}
	return SINEW_RESULT_OK;
}

sinew_result sinewi_gltf_read_nodes(const char *path, double unit_scale, const sinew_allocator *allocator,
                                    sinewi_gltf_nodes *out, sinew_error *error) {
	memset(out, 0, sizeof *out);
	out->al = sinewi_alloc_from(allocator);
	unsigned char *data = NULL;
	size_t size = 0;
	SINEWI_TRY(sinewi_read_file(path, &out->al, &data, &size, error));
	sinew_import_options options = {0};
	sinewi_import_ctx ctx = {&options, allocator, path, NULL};
	sinewi_arena arena;
	sinewi_arena_init(&arena, allocator);
	sinewi_gltf_doc d;
	memset(&d, 0, sizeof d);
	d.ctx = &ctx, d.arena = &arena, d.al = out->al, d.error = error;
	d.label = path;
	sinew_result r = read_nodes(&d, data, size, unit_scale, out);
	sinewi_arena_free(&arena);
	sinewi_free(&out->al, data, size);
	if (r != SINEW_RESULT_OK) sinewi_gltf_nodes_free(out);
	return r;
}

void sinewi_gltf_nodes_free(sinewi_gltf_nodes *nodes) {
	sinewi_free(&nodes->al, nodes->rest, (size_t)(nodes->count ? nodes->count : 1) * sizeof(sinew_qvv));
	sinewi_free(&nodes->al, nodes->weight_first, ((size_t)nodes->count + 1) * sizeof(uint32_t));
	sinewi_free(&nodes->al, nodes->weights, (size_t)(nodes->weight_count ? nodes->weight_count : 1) * sizeof(float));
	nodes->rest = NULL, nodes->weight_first = NULL, nodes->weights = NULL;
}
