// sinew — see include/sinew.h for version and licence
// Morph weights in vertex units (DESIGN §4): where the mesh is known, a weight's error is judged by the vertices
// its target moves. Target k of a node's mesh displaces vertex v by d_k(v) in the mesh's own space; an error e_k
// on its weight moves the vertex by |L sum_k e_k d_k(v)| in the scene, L the map from the mesh into the scene:
// the node's world transform (its norm at most the product of its and its ancestors' largest scale magnitudes),
// or for a skinned mesh a blend of joint world transforms times inverse bind matrices (at most the largest of
// their norms). So |e_k| <= E / (reach_k * c * S), with reach_k = max_v |d_k(v)|, S the bound of |L| over the
// clip and c = max_v sum_k |d_k(v)| / reach_k over the targets that play at once (several targets add up at one
// vertex), keeps every vertex within E. The resampler (gltf_resample.c) computes S and c per clip; this file
// reads the meshes. A target that moves no position (normals or tangents only) keeps the value rule, and so do
// the weights of a node whose mesh this reader cannot use (a warning says why). Meshes are otherwise not
// interpreted by this importer: reading them never fails the import.
#include "gltf_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// Vertex-target ratios kept for a document (floats); the meshes beyond use overlap_all for every set of targets.
#define MORPH_MAX_RATIOS ((size_t)1 << 24)

// A bound of the spectral norm of a 3x3 matrix (rows r, columns c; a[c][r] as glTF stores a MAT4's upper-left
// block, column-major): sqrt of the largest Gershgorin row sum of A^T A, exact for a rotation times a uniform scale.
static double norm_bound(const float *m) {
	double a[3][3], best = 0.0;
	for (int c = 0; c < 3; ++c)
		for (int r = 0; r < 3; ++r) a[r][c] = m[4 * c + r];
	for (int i = 0; i < 3; ++i) {
		double row = 0.0;
		for (int j = 0; j < 3; ++j) {
			double g = a[0][i] * a[0][j] + a[1][i] * a[1][j] + a[2][i] * a[2][j];
			row += fabs(g);
		}
		if (row > best) best = row;
	}
	return sqrt(best);
}

// Accessor `value` (an index) decoded to `components` floats per element, or NULL with `why`. The import's own
// error is left untouched: a mesh this reader cannot use is a warning, not a failure.
static const float *floats(sinewi_gltf_doc *d, const sinewi_json *value, uint32_t components, uint32_t *count,
                           char *why, size_t why_size) {
	uint32_t index;
	if (!value || !sinewi_json_uint(value, &index) || index >= d->accessor_count) {
		snprintf(why, why_size, "an accessor index is missing or invalid");
		return NULL;
	}
	sinew_error inner = {0}, *saved = d->error;
	d->error = &inner;
	sinewi_gltf_accessor *acc = NULL;
	sinew_result r = sinewi_gltf_decode_accessor(d, index, &acc);
	d->error = saved;
	if (r != SINEW_RESULT_OK) {
		snprintf(why, why_size, "%.150s", inner.message);
		return NULL;
	}
	if (acc->components != components) {
		snprintf(why, why_size, "accessor %u has %u components, not %u", index, acc->components, components);
		return NULL;
	}
	for (size_t i = 0; i < (size_t)acc->count * components; ++i)
		if (!isfinite(acc->data[i])) {
			snprintf(why, why_size, "accessor %u holds a value that is not finite", index);
			return NULL;
		}
	*count = acc->count;
	return acc->data;
}

// Node `node`'s morph reach and overlap; false with `why` when its mesh cannot be used.
static bool read_node(sinewi_gltf_doc *d, uint32_t node, uint32_t targets, const int32_t *node_to_joint,
                      double unit_scale, size_t *ratios_left, sinewi_gltf_morph *m, char *why, size_t why_size) {
	const sinewi_json *obj = &d->nodes->children[node];
	uint32_t mesh, skin;
	if (!sinewi_json_uint(sinewi_json_get(obj, "mesh"), &mesh) || mesh >= d->mesh_count)
		return snprintf(why, why_size, "it has no mesh"), false;
	const sinewi_json *prims = sinewi_json_get(&d->meshes->children[mesh], "primitives");
	if (!prims || prims->type != SINEWI_JSON_ARRAY || !prims->count)
		return snprintf(why, why_size, "mesh %u has no primitives", mesh), false;
	m->prim_count = prims->count;
	uint32_t *vertices = (uint32_t *)sinewi_arena_array(d->arena, prims->count, sizeof(uint32_t));
	const float **disp = (const float **)sinewi_arena_array(d->arena, (size_t)prims->count * targets, sizeof(float *));
	double *reach = (double *)sinewi_arena_array(d->arena, targets, sizeof(double));
	if (!vertices || !disp || !reach) return snprintf(why, why_size, "out of memory"), false;
	for (uint32_t p = 0; p < prims->count; ++p) {
		const sinewi_json *list = sinewi_json_get(&prims->children[p], "targets");
		if (!list) continue; // a primitive without targets: the weights move none of its vertices
		if (list->type != SINEWI_JSON_ARRAY || list->count != targets)
			return snprintf(why, why_size, "primitive %u of mesh %u has %u targets for %u weights", p, mesh,
			                list->type == SINEWI_JSON_ARRAY ? list->count : 0, targets), false;
		for (uint32_t k = 0; k < targets; ++k) {
			const sinewi_json *t = &list->children[k];
			const sinewi_json *pos = t->type == SINEWI_JSON_OBJECT ? sinewi_json_get(t, "POSITION") : NULL;
			if (!pos) continue; // moves no position (normals or tangents only)
			uint32_t count = 0;
			const float *data = floats(d, pos, 3, &count, why, why_size);
			if (!data) return false;
			if (vertices[p] && count != vertices[p])
				return snprintf(why, why_size, "the targets of primitive %u of mesh %u have %u and %u vertices", p, mesh,
				                vertices[p], count), false;
			vertices[p] = count;
			disp[(size_t)p * targets + k] = data;
			for (uint32_t v = 0; v < count; ++v) {
				const float *x = data + 3 * (size_t)v;
				double len = sqrt((double)x[0] * x[0] + (double)x[1] * x[1] + (double)x[2] * x[2]);
				if (len > reach[k]) reach[k] = len;
			}
		}
	}
	// per vertex the targets' shares of their reach, and the largest sum: targets add up at one vertex
	size_t ratios = 0;
	for (uint32_t p = 0; p < prims->count; ++p) ratios += (size_t)vertices[p] * targets;
	float **ratio = (float **)sinewi_arena_array(d->arena, prims->count, sizeof(float *));
	if (!ratio) return snprintf(why, why_size, "out of memory"), false;
	m->overlap_all = 0.0;
	const bool keep = ratios <= *ratios_left;
	if (keep) *ratios_left -= ratios;
	for (uint32_t p = 0; p < prims->count; ++p) {
		const uint32_t n = vertices[p];
		float *r = keep && n ? (float *)sinewi_arena_array(d->arena, (size_t)n * targets, sizeof(float)) : NULL;
		if (keep && n && !r) return snprintf(why, why_size, "out of memory"), false;
		ratio[p] = r;
		for (uint32_t v = 0; v < n; ++v) {
			double sum = 0.0;
			for (uint32_t k = 0; k < targets; ++k) {
				const float *x = disp[(size_t)p * targets + k];
				double share = 0.0;
				if (x && reach[k] > 0.0) {
					x += 3 * (size_t)v;
					share = sqrt((double)x[0] * x[0] + (double)x[1] * x[1] + (double)x[2] * x[2]) / reach[k];
				}
				if (r) r[(size_t)v * targets + k] = (float)share;
				sum += share;
			}
			if (sum > m->overlap_all) m->overlap_all = sum;
		}
	}
	if (!keep) ratio = NULL;
	for (uint32_t k = 0; k < targets; ++k) reach[k] *= unit_scale;
	m->reach = reach;
	m->prim_vertices = vertices;
	m->ratio = (const float *const *)ratio;
	m->target_count = targets;
	if (node_to_joint[node] < 0) return snprintf(why, why_size, "it is not a node of the skeleton"), false;
	m->joint = (uint32_t)node_to_joint[node];
	m->skin_count = 0;
	if (!sinewi_json_uint(sinewi_json_get(obj, "skin"), &skin)) return true;
	// skinned (glTF 2.0 §3.7.3.3): the node's transform is ignored, its joints' world transforms and inverse bind
	// matrices carry the vertices into the scene
	const sinewi_json *list = d->skins && skin < d->skins->count ? sinewi_json_get(&d->skins->children[skin], "joints") : NULL;
	if (!list || list->type != SINEWI_JSON_ARRAY || !list->count) return snprintf(why, why_size, "skin %u has no joints", skin), false;
	uint32_t *joints = (uint32_t *)sinewi_arena_array(d->arena, list->count, sizeof(uint32_t));
	double *norms = (double *)sinewi_arena_array(d->arena, list->count, sizeof(double));
	if (!joints || !norms) return snprintf(why, why_size, "out of memory"), false;
	const sinewi_json *ibm = sinewi_json_get(&d->skins->children[skin], "inverseBindMatrices");
	uint32_t ibm_count = 0;
	const float *mats = NULL;
	if (ibm && !(mats = floats(d, ibm, 16, &ibm_count, why, why_size))) return false;
	if (mats && ibm_count < list->count)
		return snprintf(why, why_size, "skin %u has %u inverse bind matrices for %u joints", skin, ibm_count, list->count), false;
	for (uint32_t k = 0; k < list->count; ++k) {
		uint32_t n;
		if (!sinewi_json_uint(&list->children[k], &n) || n >= d->node_count || node_to_joint[n] < 0)
			return snprintf(why, why_size, "joint %u of skin %u is not a node of the skeleton", k, skin), false;
		joints[k] = (uint32_t)node_to_joint[n];
		norms[k] = mats ? norm_bound(mats + 16 * (size_t)k) : 1.0;
	}
	m->skin_count = list->count;
	m->skin_joints = joints;
	m->skin_norm = norms;
	return true;
}

sinew_result sinewi_gltf_morph_units(sinewi_gltf_doc *d, const int32_t *node_first_track, const int32_t *node_to_joint,
                                     const sinew_scalar_track *tracks, uint32_t track_count, double unit_scale,
                                     sinewi_gltf_morph **out, uint32_t *out_count) {
	*out = NULL, *out_count = 0;
	uint32_t nodes = 0;
	for (uint32_t n = 0; n < d->node_count; ++n) nodes += node_first_track[n] >= 0;
	if (!nodes) return SINEW_RESULT_OK;
	sinewi_gltf_morph *list = (sinewi_gltf_morph *)sinewi_arena_array(d->arena, nodes, sizeof *list);
	if (!list) return sinewi_gltf_oom(d);
	uint32_t count = 0;
	size_t ratios_left = MORPH_MAX_RATIOS;
	for (uint32_t n = 0; n < d->node_count; ++n) {
		if (node_first_track[n] < 0) continue;
		uint32_t first = (uint32_t)node_first_track[n], targets = 0;
		while (first + targets < track_count && tracks[first + targets].source_node == (int32_t)n) ++targets;
		sinewi_gltf_morph *m = &list[count];
		memset(m, 0, sizeof *m);
		m->first_track = first;
		char why[160];
		why[0] = '\0';
		if (!targets || !read_node(d, n, targets, node_to_joint, unit_scale, &ratios_left, m, why, sizeof why)) {
			// a node with weights but no mesh (node.weights alone) is the "no mesh" case of DESIGN §4, not a fault
			if (strcmp(why, "it has no mesh") != 0)
				sinewi_import_warn(d->ctx, "%s: node %u: the morph weights keep their value precision: %s", d->label, n, why);
			continue;
		}
		++count;
	}
	*out = list, *out_count = count;
	return SINEW_RESULT_OK;
}

// Largest magnitude a scale curve's components reach: its keys, and for CUBICSPLINE each interval's two values
// plus 4/27 of its tangents times the interval (the largest Hermite basis weight of a tangent).
static double curve_scale_bound(const sinewi_gltf_curve *c) {
	const bool cubic = c->interpolation == SINEWI_GLTF_CUBICSPLINE;
	const size_t stride = cubic ? 9 : 3, at = cubic ? 3 : 0;
	double best = 0.0;
	for (uint32_t k = 0; k < c->key_count; ++k) {
		const float *v = c->values + k * stride + at;
		for (int i = 0; i < 3; ++i) {
			double x = fabs((double)v[i]);
			if (cubic && k + 1 < c->key_count) {
				const double td = (double)c->times[k + 1] - (double)c->times[k];
				const float *next = c->values + (k + 1) * stride;
				x = sinewi_fmax(x, fabs((double)next[3 + i])) + 4.0 / 27.0 * td * (fabs((double)v[3 + i]) + fabs((double)next[i]));
			}
			if (!(x <= best)) best = x; // (NaN: stays NaN, the weight then keeps a tiny precision)
		}
	}
	return best;
}

void sinewi_gltf_chain_scales(const sinewi_gltf_clip_input *in, double *chain) {
	for (uint32_t j = 0; j < in->joint_count; ++j) {
		const float *s = in->joints[j].default_pose.scale;
		chain[j] = sinewi_fmax(sinewi_fmax(fabs((double)s[0]), fabs((double)s[1])), fabs((double)s[2]));
	}
	for (uint32_t b = 0; b < in->binding_count; ++b)
		if (in->bindings[b].curve->path == SINEWI_GLTF_SCALE)
			chain[in->bindings[b].joint] = curve_scale_bound(in->bindings[b].curve);
	for (uint32_t j = 0; j < in->joint_count; ++j) // parents come first
		if (in->joints[j].parent >= 0) chain[j] *= chain[in->joints[j].parent];
}

double sinewi_gltf_morph_scale(const sinewi_gltf_morph *m, const double *chain) {
	// a skinned mesh: its joints, and its node's own transform too (which glTF ignores but a player may apply, as
	// three.js does to a primitive without JOINTS_0 / WEIGHTS_0): the larger bound
	double s = chain[m->joint];
	for (uint32_t k = 0; k < m->skin_count; ++k) {
		double x = chain[m->skin_joints[k]] * m->skin_norm[k];
		if (!(x <= s)) s = x;
	}
	return s;
}

double sinewi_gltf_morph_overlap(const sinewi_gltf_morph *m, const uint8_t *active, uint64_t *work, uint64_t budget) {
	const uint32_t nt = m->target_count;
	uint32_t on[64], n = 0;
	bool all = true;
	for (uint32_t k = 0; k < nt; ++k) {
		if (active[k] && m->reach[k] > 0.0) {
			if (n < 64) on[n] = k;
			++n;
		} else if (m->reach[k] > 0.0) all = false;
	}
	if (n == 0) return 0.0;
	if (all || !m->ratio || n > 64) return m->overlap_all;
	double best = 0.0;
	for (uint32_t p = 0; p < m->prim_count; ++p) {
		const float *r = m->ratio[p];
		const uint32_t count = m->prim_vertices[p];
		if (*work + (uint64_t)count * n > budget) return m->overlap_all;
		*work += (uint64_t)count * n;
		for (uint32_t v = 0; v < count; ++v) {
			const float *x = r + (size_t)v * nt;
			double sum = 0.0;
			for (uint32_t i = 0; i < n; ++i) sum += x[on[i]];
			if (sum > best) best = sum;
		}
	}
	return best;
}
