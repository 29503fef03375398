// sinew — see include/sinew.h for version and licence
// Shells from the skinned meshes (sinew_import_options.skin_shells): each skin joint's shell is the
// distance, in scene units at the rest pose, of the farthest vertex it moves (weight above
// SKIN_WEIGHT_FLOOR), so the bound covers the vertices a joint carries and not only points 3 cm away.
// Never below the default shell (the contract of DESIGN §4 stays), at most SKIN_SHELL_MAX_M.
//
// A vertex v of a primitive skinned by skin s moves with joint k of s as IBM_k * v in the joint's own
// frame (glTF 2.0 §3.7.3.3); its scene distance from the joint is |M_j (IBM_k v)| with M_j the joint's
// rest object-space linear map. Meshes are otherwise not interpreted by this importer, so a mesh this
// reader cannot use (missing or malformed attributes, joint indices outside the skin) is skipped with a
// warning and its joints keep the default shell: the animation still imports.
#include "gltf_internal.h"

#include "../core/metric.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SKIN_WEIGHT_FLOOR 0.05 // influences below this barely move a vertex
#define SKIN_SHELL_MAX_M 1.0   // a vertex farther than this from its joint is not a character's

// Decodes accessor `index` of attribute `name` with `components` components, or reports why not.
static bool attribute(sinewi_gltf_doc *d, const sinewi_json *attrs, const char *name, uint32_t components, uint32_t count,
                      const float **out, const char **why) {
	const sinewi_json *a = sinewi_json_get(attrs, name);
	uint32_t index;
	if (!a || !sinewi_json_uint(a, &index) || index >= d->accessor_count) return *why = "missing or invalid", false;
	sinewi_gltf_accessor *acc = NULL;
	if (sinewi_gltf_decode_accessor(d, index, &acc) != SINEW_RESULT_OK) return *why = d->error->message, false;
	if (acc->components != components || (count && acc->count != count)) return *why = "wrong type or count", false;
	for (size_t i = 0; i < (size_t)acc->count * components; ++i)
		if (!isfinite(acc->data[i])) return *why = "not finite", false;
	*out = acc->data;
	return true;
}

// The skin's inverse bind matrices (column-major, 16 floats each), or NULL for identities.
static bool inverse_binds(sinewi_gltf_doc *d, const sinewi_json *skin, uint32_t joints, const float **out) {
	*out = NULL;
	const sinewi_json *ibm = sinewi_json_get(skin, "inverseBindMatrices");
	if (!ibm) return true;
	uint32_t index;
	if (!sinewi_json_uint(ibm, &index) || index >= d->accessor_count) return false;
	sinewi_gltf_accessor *acc = NULL;
	if (sinewi_gltf_decode_accessor(d, index, &acc) != SINEW_RESULT_OK || acc->components != 16 || acc->count < joints)
		return false;
	for (size_t i = 0; i < (size_t)joints * 16; ++i)
		if (!isfinite(acc->data[i])) return false;
	*out = acc->data;
	return true;
}

// Widens shell[j] (clip units) with the vertices of one primitive of a mesh skinned by `skin`.
static void primitive_reach(sinewi_gltf_doc *d, const sinewi_json *attrs, uint32_t skin_index, const uint32_t *skin_joints,
                            uint32_t skin_joint_count, const float *ibm, const int32_t *node_to_joint,
                            const sinewi_affine_d *rest, double unit_scale, double *reach) {
	const float *pos = NULL, *jw[2][2] = {{NULL, NULL}, {NULL, NULL}};
	const char *why = NULL;
	if (!attribute(d, attrs, "POSITION", 3, 0, &pos, &why)) {
		sinewi_import_warn(d->ctx, "%s: skin %u: a primitive's POSITION is %s; its joints keep the default shell",
		                   d->label, skin_index, why);
		return;
	}
	const sinewi_json *pa = sinewi_json_get(attrs, "POSITION");
	uint32_t pi = 0;
	sinewi_json_uint(pa, &pi);
	uint32_t count = d->accessor_cache[pi].count;
	for (int set = 0; set < 2; ++set) {
		char jn[16], wn[16];
		snprintf(jn, sizeof jn, "JOINTS_%d", set);
		snprintf(wn, sizeof wn, "WEIGHTS_%d", set);
		if (!sinewi_json_get(attrs, jn) && set > 0) break;
		if (!attribute(d, attrs, jn, 4, count, &jw[set][0], &why) || !attribute(d, attrs, wn, 4, count, &jw[set][1], &why)) {
			sinewi_import_warn(d->ctx, "%s: skin %u: a primitive's %s/%s is %s; its joints keep the default shell",
			                   d->label, skin_index, jn, wn, why);
			return;
		}
	}
	for (uint32_t v = 0; v < count; ++v) {
		const double p[3] = {pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]};
		for (int set = 0; set < 2 && jw[set][0]; ++set)
			for (int i = 0; i < 4; ++i) {
				float k = jw[set][0][4 * v + i], w = jw[set][1][4 * v + i];
				if (!(w > SKIN_WEIGHT_FLOOR)) continue;
				if (!(k >= 0.0f) || k >= (float)skin_joint_count || k != floorf(k)) continue; // malformed: ignored
				uint32_t node = skin_joints[(uint32_t)k];
				int32_t j = node_to_joint[node];
				if (j < 0) continue;
				double l[3];
				for (int r = 0; r < 3; ++r) {
					const float *m = ibm ? ibm + 16 * (size_t)k : NULL; // column-major
					l[r] = m ? m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r] : p[r];
				}
				const sinewi_affine_d *a = &rest[j];
				double e2 = 0.0;
				for (int r = 0; r < 3; ++r) {
					double e = a->m[r][0] * l[0] + a->m[r][1] * l[1] + a->m[r][2] * l[2];
					e2 += e * e;
				}
				double dist = sqrt(e2) * unit_scale;
				if (dist > reach[j]) reach[j] = dist;
			}
	}
}

sinew_result sinewi_gltf_skin_shells(sinewi_gltf_doc *d, sinew_joint *joints, uint32_t joint_count,
                                     const int32_t *node_to_joint, double unit_scale) {
	const sinewi_import_ctx *ctx = d->ctx;
	uint32_t skin_count = d->skins ? d->skins->count : 0;
	if (!skin_count || !joint_count) return SINEW_RESULT_OK;
	double shell_cm = ctx->options->shell_cm > 0.0 ? ctx->options->shell_cm : SINEW_DEFAULT_SHELL_CM;
	const double floor_units = sinewi_cm_to_units(shell_cm, unit_scale), max_units = SKIN_SHELL_MAX_M * unit_scale;
	double *reach = (double *)sinewi_arena_array(d->arena, joint_count, sizeof(double));
	sinewi_affine_d *rest = (sinewi_affine_d *)sinewi_arena_array(d->arena, joint_count, sizeof(sinewi_affine_d));
	sinew_qvv *pose = (sinew_qvv *)sinewi_arena_array(d->arena, joint_count, sizeof(sinew_qvv));
	if (!reach || !rest || !pose) return sinewi_gltf_oom(d);
	for (uint32_t j = 0; j < joint_count; ++j) pose[j] = joints[j].default_pose;
	sinewi_compose_pose_d(joints, joint_count, pose, rest);
	for (uint32_t n = 0; n < d->node_count; ++n) {
		const sinewi_json *node = &d->nodes->children[n];
		uint32_t s, m;
		if (!sinewi_json_uint(sinewi_json_get(node, "skin"), &s) || s >= skin_count) continue;
		if (!sinewi_json_uint(sinewi_json_get(node, "mesh"), &m) || m >= d->mesh_count) continue;
		const sinewi_json *skin = &d->skins->children[s];
		const sinewi_json *list = sinewi_json_get(skin, "joints");
		if (!list || list->type != SINEWI_JSON_ARRAY || !list->count) continue;
		uint32_t *skin_joints = (uint32_t *)sinewi_arena_array(d->arena, list->count, sizeof(uint32_t));
		if (!skin_joints) return sinewi_gltf_oom(d);
		bool ok = true;
		for (uint32_t k = 0; k < list->count && ok; ++k)
			ok = sinewi_json_uint(&list->children[k], &skin_joints[k]) && skin_joints[k] < d->node_count;
		const float *ibm = NULL;
		if (!ok || !inverse_binds(d, skin, list->count, &ibm)) {
			sinewi_import_warn(d->ctx, "%s: skin %u: joints or inverseBindMatrices unusable; default shells", d->label, s);
			continue;
		}
		const sinewi_json *prims = sinewi_json_get(&d->meshes->children[m], "primitives");
		for (uint32_t p = 0; prims && prims->type == SINEWI_JSON_ARRAY && p < prims->count; ++p) {
			const sinewi_json *attrs = sinewi_json_get(&prims->children[p], "attributes");
			if (attrs && attrs->type == SINEWI_JSON_OBJECT)
				primitive_reach(d, attrs, s, skin_joints, list->count, ibm, node_to_joint, rest, unit_scale, reach);
		}
	}
	for (uint32_t j = 0; j < joint_count; ++j)
		if (reach[j] > floor_units) joints[j].shell_distance = (float)(reach[j] < max_units ? reach[j] : max_units);
	return SINEW_RESULT_OK;
}
