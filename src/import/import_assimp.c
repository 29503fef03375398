// sinew — see include/sinew.h for version and licence
// FBX, COLLADA and the other formats assimp reads (SINEW_FILE_ASSIMP), through assimp's C API, when the
// library was found at build time (SINEW_HAVE_ASSIMP); otherwise UNSUPPORTED.
//
// assimp is not hardened against hostile files: this importer is for trusted pipeline input (the
// built-in readers are the hardened path). What it does with assimp's scene:
// - hierarchy: the node tree, depth-first in child order; FBX pivots are baked by assimp
//   (IMPORT_FBX_PRESERVE_PIVOTS off) so no "$AssimpFbx$" helper nodes appear and the hierarchy stays the
//   user's. Joints: every animated node, every bone of every mesh, their ancestors, and every node below
//   an animated node (hierarchy only, as in the glTF importer, so the error metric measures it).
// - rest pose: each node's transformation, decomposed (aiDecomposeMatrix).
// - units: FBX's UnitScaleFactor (cm per file unit) from the scene metadata, else metres (COLLADA's
//   <unit> is applied by assimp to the root); sinew_import_options.unit_cm overrides.
// - animations: each aiAnimation is a clip; node channels' position (linear), rotation (slerp) and
//   scaling (linear) keys, times in ticks / mTicksPerSecond (25 when 0), go through the glTF resampler
//   (gltf_resample.c), so rates, check points and the guarantee against the source are the same.
// - morph animations (aiMeshMorphAnim, named after the node whose mesh they drive): one scalar track
//   per morph target of that node's first mesh (default: the target's weight), keys listing a subset
//   of the targets leave the others at 0; vertex-animation meshes (aiMeshAnim) are not imported.
#include "gltf_internal.h"

#ifndef SINEW_HAVE_ASSIMP

sinew_result sinewi_import_assimp(const sinewi_import_ctx *ctx, const unsigned char *data, size_t size,
                                  sinew_clip_set *set, sinew_error *error) {
	(void)data, (void)size, (void)set;
#if defined(__wasm__)
	return sinewi_fail(error, SINEW_RESULT_UNSUPPORTED,
	                   "%s: FBX, COLLADA and the other assimp formats are read by the native sinew built with assimp; "
	                   "this one reads glTF, BVH, ASF/AMC and ACL",
	                   ctx->path ? ctx->path : "input");
#else
	return sinewi_fail(error, SINEW_RESULT_UNSUPPORTED,
	                   "%s: FBX, COLLADA and the other assimp formats need assimp, and this sinew was built without it: "
	                   "apt-get install libassimp-dev, then rebuild (make; sinew --version then lists them)",
	                   ctx->path ? ctx->path : "input");
#endif
}

const char *sinewi_assimp_version(void) {
	return NULL;
}

#else

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/version.h>

#include <stdio.h>
#include <string.h>

const char *sinewi_assimp_version(void) {
	static char text[32]; // written once with the same bytes by any caller
	snprintf(text, sizeof text, "%u.%u.%u", aiGetVersionMajor(), aiGetVersionMinor(), aiGetVersionPatch());
	return text;
}

typedef struct assimp_doc {
	const sinewi_import_ctx *ctx;
	sinewi_arena *arena;
	sinew_error *error;
	const char *label;
	const struct aiScene *scene;
	const struct aiNode **nodes; // depth-first order
	int32_t *parent;             // [node_count]
	uint32_t node_count;
} assimp_doc;

static sinew_result oom(assimp_doc *d) {
	return sinewi_fail(d->error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory", d->label);
}

static uint32_t count_nodes(const struct aiNode *n, uint32_t depth) {
	if (!n || depth > 4096) return 0;
	uint32_t c = 1;
	for (unsigned i = 0; i < n->mNumChildren; ++i) c += count_nodes(n->mChildren[i], depth + 1);
	return c;
}

static void list_nodes(assimp_doc *d, const struct aiNode *n, int32_t parent, uint32_t depth) {
	if (!n || depth > 4096) return;
	uint32_t me = d->node_count++;
	d->nodes[me] = n;
	d->parent[me] = parent;
	for (unsigned i = 0; i < n->mNumChildren; ++i) list_nodes(d, n->mChildren[i], (int32_t)me, depth + 1);
}

static int32_t find_node(const assimp_doc *d, const struct aiString *name) {
	for (uint32_t i = 0; i < d->node_count; ++i)
		if (d->nodes[i]->mName.length == name->length && memcmp(d->nodes[i]->mName.data, name->data, name->length) == 0)
			return (int32_t)i;
	return -1;
}

// cm per file unit: FBX's UnitScaleFactor, else 100 (metres).
static double file_unit_cm(const struct aiScene *s) {
	const struct aiMetadata *m = s->mMetaData;
	for (unsigned i = 0; m && i < m->mNumProperties; ++i) {
		if (strcmp(m->mKeys[i].data, "UnitScaleFactor") != 0 || !m->mValues[i].mData) continue;
		double v = m->mValues[i].mType == AI_DOUBLE ? *(const double *)m->mValues[i].mData
		           : m->mValues[i].mType == AI_FLOAT ? (double)*(const float *)m->mValues[i].mData
		                                             : 0.0;
		if (v > 0.0 && isfinite(v)) return v;
	}
	return 100.0;
}

static void rest_pose(const struct aiNode *n, double unit_cm, sinew_qvv *out) {
	struct aiVector3D s, t;
	struct aiQuaternion q;
	aiDecomposeMatrix(&n->mTransformation, &s, &q, &t);
	double r[4] = {q.x, q.y, q.z, q.w};
	sinewi_quat_normalize_d(r);
	for (int k = 0; k < 4; ++k) out->rotation[k] = (float)r[k];
	out->translation[0] = t.x, out->translation[1] = t.y, out->translation[2] = t.z;
	out->scale[0] = s.x, out->scale[1] = s.y, out->scale[2] = s.z;
	(void)unit_cm; // rest translations stay in file units, which are the clip's units
}

// One channel path as a resampler curve: times in seconds, values (translations in metres).
static bool make_curve(assimp_doc *d, sinewi_gltf_path path, const void *keys, unsigned count, double tps,
                       double to_metres, sinewi_gltf_curve *out) {
	uint32_t comps = path == SINEWI_GLTF_ROTATION ? 4 : 3;
	float *times = (float *)sinewi_arena_array(d->arena, count, sizeof(float));
	float *values = (float *)sinewi_arena_array(d->arena, (size_t)count * comps, sizeof(float));
	if (!times || !values) return false;
	for (unsigned k = 0; k < count; ++k) {
		double t;
		if (path == SINEWI_GLTF_ROTATION) {
			const struct aiQuatKey *key = &((const struct aiQuatKey *)keys)[k];
			double q[4] = {key->mValue.x, key->mValue.y, key->mValue.z, key->mValue.w};
			sinewi_quat_normalize_d(q);
			for (uint32_t c = 0; c < 4; ++c) values[k * 4 + c] = (float)q[c];
			t = key->mTime;
		} else {
			const struct aiVectorKey *key = &((const struct aiVectorKey *)keys)[k];
			double f = path == SINEWI_GLTF_TRANSLATION ? to_metres : 1.0;
			values[k * 3 + 0] = sinewi_gltf_to_float(key->mValue.x * f);
			values[k * 3 + 1] = sinewi_gltf_to_float(key->mValue.y * f);
			values[k * 3 + 2] = sinewi_gltf_to_float(key->mValue.z * f);
			t = key->mTime;
		}
		double seconds = t / tps;
		if (!(seconds >= 0.0) || !isfinite(seconds) || (k > 0 && seconds < times[k - 1])) return false;
		times[k] = (float)seconds;
	}
	for (size_t i = 0; i < (size_t)count * comps; ++i)
		if (!isfinite(values[i])) return false;
	out->path = (uint8_t)path;
	out->interpolation = SINEWI_GLTF_LINEAR;
	out->components = comps;
	out->key_count = count;
	out->times = times;
	out->values = values;
	return true;
}

// A morph channel as a weights curve of `targets` components; targets a key does not list are 0.
static bool morph_curve(assimp_doc *d, const struct aiMeshMorphAnim *ch, uint32_t targets, double tps,
                        sinewi_gltf_curve *out) {
	float *times = (float *)sinewi_arena_array(d->arena, ch->mNumKeys, sizeof(float));
	float *values = (float *)sinewi_arena_array(d->arena, (size_t)ch->mNumKeys * targets, sizeof(float)); // zeroed
	if (!times || !values) return false;
	for (unsigned k = 0; k < ch->mNumKeys; ++k) {
		const struct aiMeshMorphKey *key = &ch->mKeys[k];
		double seconds = key->mTime / tps;
		if (!(seconds >= 0.0) || !isfinite(seconds) || (k > 0 && seconds < times[k - 1])) return false;
		times[k] = (float)seconds;
		for (unsigned i = 0; i < key->mNumValuesAndWeights && key->mValues && key->mWeights; ++i) {
			if (key->mValues[i] >= targets || !isfinite(key->mWeights[i])) return false;
			values[(size_t)k * targets + key->mValues[i]] = (float)key->mWeights[i];
		}
	}
	out->path = SINEWI_GLTF_WEIGHTS;
	out->interpolation = SINEWI_GLTF_LINEAR;
	out->components = targets;
	out->key_count = ch->mNumKeys;
	out->times = times;
	out->values = values;
	return true;
}

static sinew_result import_scene(assimp_doc *d, sinew_clip_set *set) {
	const struct aiScene *s = d->scene;
	SINEWI_CHECK(s->mRootNode, d->error, SINEW_RESULT_CORRUPT, "%s: the scene has no root node", d->label);
	SINEWI_CHECK(s->mNumAnimations > 0, d->error, SINEW_RESULT_BAD_COUNT,
	             "%s: no animations in this file (a model without motion: nothing to compress)", d->label);
	uint32_t n = count_nodes(s->mRootNode, 0);
	SINEWI_CHECK(n > 0 && n < (1u << 24), d->error, SINEW_RESULT_UNSUPPORTED, "%s: %u nodes", d->label, n);
	d->nodes = (const struct aiNode **)sinewi_arena_array(d->arena, n, sizeof *d->nodes);
	d->parent = (int32_t *)sinewi_arena_array(d->arena, n, sizeof(int32_t));
	uint8_t *include = (uint8_t *)sinewi_arena_alloc(d->arena, n), *animated = (uint8_t *)sinewi_arena_alloc(d->arena, n);
	int32_t *to_joint = (int32_t *)sinewi_arena_array(d->arena, n, sizeof(int32_t));
	if (!d->nodes || !d->parent || !include || !animated || !to_joint) return oom(d);
	list_nodes(d, s->mRootNode, -1, 0);
	// joints: animated nodes, mesh bones, nodes below animated ones, and the ancestors of all of them;
	// nodes whose morph weights are animated (bit 2 of animated) and their morph target counts
	uint32_t *targets = (uint32_t *)sinewi_arena_array(d->arena, n, sizeof(uint32_t));
	int32_t *first_track = (int32_t *)sinewi_arena_array(d->arena, n, sizeof(int32_t));
	if (!targets || !first_track) return oom(d);
	bool vertex_anims = false;
	for (unsigned a = 0; a < s->mNumAnimations; ++a) {
		const struct aiAnimation *anim = s->mAnimations[a];
		vertex_anims |= anim->mNumMeshChannels > 0;
		for (unsigned c = 0; c < anim->mNumChannels; ++c) {
			int32_t k = find_node(d, &anim->mChannels[c]->mNodeName);
			if (k >= 0) include[k] = 1, animated[k] |= 1;
		}
		for (unsigned c = 0; c < anim->mNumMorphMeshChannels; ++c) {
			int32_t k = find_node(d, &anim->mMorphMeshChannels[c]->mName);
			const struct aiNode *node = k >= 0 ? d->nodes[k] : NULL;
			const struct aiMesh *mesh = node && node->mNumMeshes && node->mMeshes[0] < s->mNumMeshes ? s->mMeshes[node->mMeshes[0]] : NULL;
			if (!mesh || !mesh->mNumAnimMeshes) {
				sinewi_import_warn(d->ctx, "%s: animation %u: morph channel \"%.64s\" has no node with morph targets; skipped",
				                   d->label, a, anim->mMorphMeshChannels[c]->mName.data);
				continue;
			}
			include[k] = 1, animated[k] |= 4;
			targets[k] = mesh->mNumAnimMeshes;
		}
	}
	if (vertex_anims) sinewi_import_warn(d->ctx, "%s: vertex (mesh) animations are not imported", d->label);
	for (unsigned m = 0; m < s->mNumMeshes; ++m)
		for (unsigned b = 0; s->mMeshes[m] && b < s->mMeshes[m]->mNumBones; ++b) {
			int32_t k = find_node(d, &s->mMeshes[m]->mBones[b]->mName);
			if (k >= 0) include[k] = 1;
		}
	for (uint32_t i = 0; i < n; ++i) // parents come first: one pass marks every descendant of a TRS-animated node
		if (d->parent[i] >= 0 && (animated[d->parent[i]] & 3)) animated[i] |= 2, include[i] = 1;
	for (uint32_t i = n; i-- > 0;)
		if (include[i] && d->parent[i] >= 0) include[d->parent[i]] = 1;
	double unit_cm = d->ctx->options->unit_cm > 0.0 ? d->ctx->options->unit_cm : file_unit_cm(s);
	double unit_scale = 100.0 / unit_cm, to_metres = unit_cm / 100.0;
	uint32_t joint_count = 0;
	for (uint32_t i = 0; i < n; ++i) to_joint[i] = include[i] ? (int32_t)joint_count++ : -1;
	SINEWI_CHECK(joint_count > 0, d->error, SINEW_RESULT_BAD_COUNT, "%s: no animation with node channels", d->label);
	sinew_joint *joints = (sinew_joint *)sinewi_arena_array(d->arena, joint_count, sizeof(sinew_joint));
	if (!joints) return oom(d);
	for (uint32_t i = 0; i < n; ++i) {
		if (to_joint[i] < 0) continue;
		sinew_joint *j = &joints[to_joint[i]];
		j->name = d->nodes[i]->mName.length ? sinew_clip_set_strdup(set, d->nodes[i]->mName.data) : NULL;
		j->parent = d->parent[i] >= 0 ? to_joint[d->parent[i]] : -1;
		j->source_index = (int32_t)i;
		j->rounding = SINEW_ROUNDING_CLIP;
		j->has_track = (animated[i] & 1) ? 1 : 0; // morph-only and descendant nodes: hierarchy only
		rest_pose(d->nodes[i], unit_cm, &j->default_pose);
	}
	uint32_t track_count = 0;
	for (uint32_t i = 0; i < n; ++i) {
		first_track[i] = -1;
		if (!(animated[i] & 4)) continue;
		SINEWI_CHECK(track_count <= 65535u - targets[i], d->error, SINEW_RESULT_UNSUPPORTED, "%s: too many morph targets",
		             d->label);
		first_track[i] = (int32_t)track_count;
		track_count += targets[i];
	}
	sinew_scalar_track *tracks =
	    (sinew_scalar_track *)sinewi_arena_array(d->arena, track_count ? track_count : 1, sizeof(sinew_scalar_track));
	if (!tracks) return oom(d);
	for (uint32_t i = 0; i < n; ++i) {
		if (first_track[i] < 0) continue;
		const struct aiMesh *mesh = s->mMeshes[d->nodes[i]->mMeshes[0]];
		for (uint32_t t = 0; t < targets[i]; ++t) {
			sinew_scalar_track *tr = &tracks[(uint32_t)first_track[i] + t];
			char name[160];
			snprintf(name, sizeof name, "%.120s.weights[%u]", d->nodes[i]->mName.length ? d->nodes[i]->mName.data : "node", t);
			tr->name = sinew_clip_set_strdup(set, name);
			tr->components = 1;
			tr->rounding = SINEW_ROUNDING_CLIP;
			tr->source_node = (int32_t)i;
			tr->source_target = (int32_t)t;
			float w = mesh->mAnimMeshes[t] ? mesh->mAnimMeshes[t]->mWeight : 0.0f;
			tr->default_value[0] = isfinite(w) ? w : 0.0f;
		}
	}
	uint32_t clips = 0;
	for (unsigned a = 0; a < s->mNumAnimations; ++a) {
		const struct aiAnimation *anim = s->mAnimations[a];
		double tps = anim->mTicksPerSecond > 0.0 ? anim->mTicksPerSecond : 25.0;
		size_t max_bindings = (size_t)anim->mNumChannels * 3 + anim->mNumMorphMeshChannels + 1;
		sinewi_gltf_binding *bindings = (sinewi_gltf_binding *)sinewi_arena_array(d->arena, max_bindings, sizeof *bindings);
		sinewi_gltf_curve *curves = (sinewi_gltf_curve *)sinewi_arena_array(d->arena, max_bindings, sizeof *curves);
		if (!bindings || !curves) return oom(d);
		uint32_t count = 0;
		for (unsigned c = 0; c < anim->mNumChannels; ++c) {
			const struct aiNodeAnim *ch = anim->mChannels[c];
			int32_t k = find_node(d, &ch->mNodeName);
			if (k < 0) {
				sinewi_import_warn(d->ctx, "%s: animation %u channel %u: no node \"%.64s\"; skipped", d->label, a, c,
				                   ch->mNodeName.data);
				continue;
			}
			const void *keys[3] = {ch->mPositionKeys, ch->mRotationKeys, ch->mScalingKeys};
			unsigned counts[3] = {ch->mNumPositionKeys, ch->mNumRotationKeys, ch->mNumScalingKeys};
			const sinewi_gltf_path paths[3] = {SINEWI_GLTF_TRANSLATION, SINEWI_GLTF_ROTATION, SINEWI_GLTF_SCALE};
			for (int p = 0; p < 3; ++p) {
				if (!counts[p] || !keys[p]) continue;
				if (!make_curve(d, paths[p], keys[p], counts[p], tps, to_metres, &curves[count])) {
					sinewi_import_warn(d->ctx, "%s: animation %u node \"%.64s\": keys out of order or not finite; skipped",
					                   d->label, a, ch->mNodeName.data);
					continue;
				}
				bindings[count].curve = &curves[count];
				bindings[count].joint = (uint32_t)to_joint[k];
				bindings[count].first_track = 0;
				bindings[count].track_width = 0;
				count++;
			}
		}
		for (unsigned c = 0; c < anim->mNumMorphMeshChannels; ++c) {
			const struct aiMeshMorphAnim *ch = anim->mMorphMeshChannels[c];
			int32_t k = find_node(d, &ch->mName);
			if (k < 0 || first_track[k] < 0 || !ch->mNumKeys) continue;
			if (!morph_curve(d, ch, targets[k], tps, &curves[count])) {
				sinewi_import_warn(d->ctx, "%s: animation %u morph channel \"%.64s\": keys out of order or not finite; skipped",
				                   d->label, a, ch->mName.data);
				continue;
			}
			bindings[count].curve = &curves[count];
			bindings[count].joint = (uint32_t)to_joint[k];
			bindings[count].first_track = (uint32_t)first_track[k];
			bindings[count].track_width = 1;
			count++;
		}
		if (!count) {
			sinewi_import_warn(d->ctx, "%s: animation %u has no usable channel; skipped", d->label, a);
			continue;
		}
		char fallback[32];
		snprintf(fallback, sizeof fallback, "animation_%u", a);
		const char *name = anim->mName.length ? anim->mName.data : fallback;
		sinewi_gltf_clip_input in = {name, bindings, count, joints, joint_count, tracks, track_count, unit_scale, NULL, 0};
		SINEWI_TRY(sinewi_gltf_build_clip(d->ctx, d->arena, &in, set, d->error));
		// its keys as float32 values with float32 times (what glTF accessors would hold)
		uint64_t key_bytes = 0;
		for (unsigned c = 0; c < anim->mNumChannels; ++c) {
			const struct aiNodeAnim *ch = anim->mChannels[c];
			key_bytes += (uint64_t)ch->mNumPositionKeys * 16 + (uint64_t)ch->mNumRotationKeys * 20 + (uint64_t)ch->mNumScalingKeys * 16;
		}
		for (unsigned c = 0; c < anim->mNumMorphMeshChannels; ++c) {
			const struct aiMeshMorphAnim *ch = anim->mMorphMeshChannels[c];
			for (unsigned k = 0; k < ch->mNumKeys; ++k) key_bytes += 4 + 4 * (uint64_t)ch->mKeys[k].mNumValuesAndWeights;
		}
		set->clips[set->clip_count - 1]->source_bytes = key_bytes;
		clips++;
	}
	SINEWI_CHECK(clips > 0, d->error, SINEW_RESULT_BAD_COUNT, "%s: no animation with node channels", d->label);
	return SINEW_RESULT_OK;
}

sinew_result sinewi_import_assimp(const sinewi_import_ctx *ctx, const unsigned char *data, size_t size,
                                  sinew_clip_set *set, sinew_error *error) {
	const char *label = ctx->path ? ctx->path : "input";
	SINEWI_CHECK(size <= 0xFFFFFFFFu, error, SINEW_RESULT_UNSUPPORTED, "%s: too large for assimp", label);
	SINEWI_CHECK(size > 0, error, SINEW_RESULT_TRUNCATED, "%s: empty input", label); // assimp aborts on it
	struct aiPropertyStore *props = aiCreatePropertyStore();
	SINEWI_CHECK(props, error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory", label);
	aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0); // no $AssimpFbx$ helper nodes
	// a file is read by assimp itself (formats with external parts: .gltf buffers, .zae, FBX media);
	// memory imports give assimp the bytes, which it identifies by content
	const unsigned flags = aiProcess_ValidateDataStructure;
	const struct aiScene *scene =
	    ctx->path ? aiImportFileExWithProperties(ctx->path, flags, NULL, props)
	              : aiImportFileFromMemoryWithProperties((const char *)data, (unsigned)size, flags, "", props);
	aiReleasePropertyStore(props);
	SINEWI_CHECK(scene, error, SINEW_RESULT_PARSE, "%s: assimp: %.200s", label, aiGetErrorString());
	sinewi_arena arena;
	sinewi_arena_init(&arena, ctx->allocator);
	assimp_doc d = {ctx, &arena, error, label, scene, NULL, NULL, 0};
	sinew_result r = import_scene(&d, set);
	sinewi_arena_free(&arena);
	aiReleaseImport(scene);
	return r;
}

#endif
