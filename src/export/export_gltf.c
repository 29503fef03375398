// sinew — see include/sinew.h for version and licence
#define _POSIX_C_SOURCE 200809L
// glTF 2.0 writer: clips back to a .gltf (one embedded base64 buffer) or a .glb (4-byte aligned chunks).
//
// Without a source document: one node per joint of the set's skeleton (every clip must share it; a set
// whose clips differ is UNSUPPORTED), rest TRS = default pose in metres, one scene with the roots, and one
// skin per root listing its joints (no mesh uses it: it marks every joint, end sites and static leaves
// included, as part of the skeleton for importers). Scalar tracks cannot exist without a mesh to morph;
// they are skipped and counted in the animation's extras ("skipped_scalar_tracks").
//
// With a source document (the .gltf/.glb the clips were imported from): everything but `animations` is
// kept. All binary data (GLB BIN chunk, external .bin files, data: URIs, and images given by URI, embedded
// so the output stands alone) is copied into ONE buffer and the bufferViews are rewritten to point into it.
// Accessors and bufferViews used only by the old animations are dropped when every extension of the
// document is one whose references are rewritten here; otherwise all are kept (valid, they only cost
// space). Only relative paths without ".." are read: a buffer behind another URI is an error, an image
// behind one (or missing, or of unknown type) keeps its URI. Joints map to nodes by source_index, morph
// tracks by source_node/source_target; an animated node given by a matrix is rewritten as TRS.
//
// Every clip becomes one animation sampled at the clip rate: one float32 time accessor per clip (k / rate,
// with min/max), then per joint one translation/rotation/scale channel unless every sample equals the
// node's rest value in the output document. A joint the clip animates (has_track) keeps one channel in it
// (a clip targets the same nodes after a round trip) and every animation keeps at least one channel with all
// key times (its duration). Morph tracks become one `weights` channel per node covering all its targets
// (targets without a track hold their default weight). Interpolation is STEP for floor-rounded joints and
// tracks, LINEAR otherwise: ceil and nearest have no glTF equivalent, values at the sample times are exact.
// An interpolating key holds the value sampling plays at the key's float32 time (export_animations.c).
// The animation's extras keep what glTF cannot say: rate, sample count, looping, the clip's rounding, unit
// scale and resampling error.
//
// The file is written to "<path>.tmp.<pid>" and renamed, so a failure never leaves a partial output.
//
// export_pack.c drives the same writer through a hook (export_internal.h): pack drops `animations` and appends
// the compressed blob as a 16-byte aligned bufferView with the SINEW_compressed_animation extension; unpack
// writes the decompressed clips back and drops the extension and its bufferView.
//
// This file holds the container (.gltf or .glb) and the entry points; export_gltf.h lists the others.
#include "export_gltf.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

sinew_result sinewi_export_oom(sinewi_exporter *e) {
	return sinewi_fail(e->error, SINEW_RESULT_OUT_OF_MEMORY, "export: out of memory");
}

bool sinewi_ends_with_ci(const char *s, const char *suffix) {
	size_t n = strlen(s), m = strlen(suffix);
	if (m > n) return false;
	for (size_t i = 0; i < m; ++i) {
		char a = s[n - m + i];
		if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
		if (a != suffix[i]) return false;
	}
	return true;
}

static void put_u32(unsigned char *p, uint32_t v) {
	p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16),
	p[3] = (unsigned char)(v >> 24);
}

static void qvv_to_rest(const sinew_qvv *x, double unit_scale, sinewi_rest_trs *r) {
	for (int i = 0; i < 3; ++i) r->t[i] = sinewi_export_to_float((double)x->translation[i] / unit_scale);
	sinewi_export_unit_quat(x->rotation, r->r);
	for (int i = 0; i < 3; ++i) r->s[i] = x->scale[i];
}

/* ---- output file ---- */

void sinewi_export_write_buffers(sinewi_exporter *e, bool *first, bool binary) {
	sinewi_json_writer *w = &e->json;
	sinewi_jw_key(w, first, "buffers");
	sinewi_jw_raw(w, "[{\"byteLength\":");
	sinewi_jw_num(w, (double)e->bin.size);
	if (!binary) {
		sinewi_jw_raw(w, ",\"uri\":\"data:application/octet-stream;base64,");
		sinewi_jw_base64(w, (const unsigned char *)e->bin.data, e->bin.size);
		sinewi_jw_raw(w, "\"");
	}
	sinewi_jw_raw(w, "}]");
}

static sinew_result write_file(sinewi_exporter *e, const char *path, bool binary) {
	if (e->json.failed || e->bin.failed) return sinewi_export_oom(e);
	unsigned char header[28];
	size_t json_padded = 0, bin_padded = 0;
	if (binary) {
		json_padded = (e->json.size + 3) & ~(size_t)3;
		// Pack: more trailing spaces put the BIN chunk's data (file offset 28 + JSON) on a 16-byte boundary,
		// so the blob is 16-byte aligned in the file too (a loader can map the file and use it in place).
		if (sinewi_export_is_mode(e, SINEWI_EXPORT_PACK)) json_padded = ((json_padded + 28 + 15) & ~(size_t)15) - 28;
		bin_padded = (e->bin.size + 3) & ~(size_t)3;
		uint64_t total = 12 + 8 + (uint64_t)json_padded + (e->bin.size ? 8 + (uint64_t)bin_padded : 0);
		SINEWI_CHECK(total <= UINT32_MAX, e->error, SINEW_RESULT_UNSUPPORTED,
		             "export: %s: %llu bytes exceed the 4 GiB limit of a .glb", path, (unsigned long long)total);
		put_u32(header, SINEWI_GLB_MAGIC), put_u32(header + 4, 2), put_u32(header + 8, (uint32_t)total);
		put_u32(header + 12, (uint32_t)json_padded), put_u32(header + 16, SINEWI_GLB_JSON);
	}
	sinewi_export_file out;
	SINEWI_TRY(sinewi_export_open(path, &out, e->error));
	FILE *f = out.f;
	bool ok;
	if (binary) {
		static const char spaces[16] = "               ", zeros[4] = {0, 0, 0, 0};
		ok = fwrite(header, 1, 20, f) == 20 && fwrite(e->json.data, 1, e->json.size, f) == e->json.size &&
		     fwrite(spaces, 1, json_padded - e->json.size, f) == json_padded - e->json.size;
		if (ok && e->bin.size) {
			put_u32(header + 20, (uint32_t)bin_padded), put_u32(header + 24, SINEWI_GLB_BIN);
			ok = fwrite(header + 20, 1, 8, f) == 8 && fwrite(e->bin.data, 1, e->bin.size, f) == e->bin.size &&
			     fwrite(zeros, 1, bin_padded - e->bin.size, f) == bin_padded - e->bin.size;
		}
	} else {
		ok = fwrite(e->json.data, 1, e->json.size, f) == e->json.size;
	}
	return sinewi_export_close(&out, ok, e->error);
}

/* ---- entry points ---- */

static sinew_result check_clips(sinewi_exporter *e) {
	const sinew_clip_set *set = e->set;
	for (uint32_t i = 0; i < set->clip_count; ++i) {
		const sinew_clip *clip = set->clips[i];
		SINEWI_CHECK(clip, e->error, SINEW_RESULT_INVALID_ARGUMENT, "export: clip %u is NULL", i);
		sinew_error inner = {0};
		sinew_result r = sinew_clip_validate(clip, &inner);
		if (r != SINEW_RESULT_OK)
			return sinewi_fail(e->error, r, "export: clip %u ('%s'): %s", i, sinewi_export_clip_label(clip),
			                   inner.message);
		SINEWI_CHECK(isfinite(clip->unit_scale) && clip->unit_scale > 0.0, e->error, SINEW_RESULT_INVALID_ARGUMENT,
		             "export: clip %u ('%s'): unit_scale %g is not a positive finite number", i,
		             sinewi_export_clip_label(clip), clip->unit_scale);
		// Translations in metres must stay finite float32 (a tiny unit_scale could overflow them).
		double largest = 0.0;
		for (size_t k = 0; k < (size_t)clip->sample_count * clip->joint_count; ++k)
			for (int c = 0; c < 3; ++c) largest = sinewi_fmax(largest, fabs((double)clip->transforms[k].translation[c]));
		for (uint32_t j = 0; j < clip->joint_count; ++j)
			for (int c = 0; c < 3; ++c)
				largest = sinewi_fmax(largest, fabs((double)clip->joints[j].default_pose.translation[c]));
		SINEWI_CHECK(isfinite(sinewi_export_to_float(largest / clip->unit_scale)), e->error, SINEW_RESULT_NOT_FINITE,
		             "export: clip %u ('%s'): translation %g / unit_scale %g overflows float in metres", i,
		             sinewi_export_clip_label(clip), largest, clip->unit_scale);
	}
	return SINEW_RESULT_OK;
}

static sinew_result export_run(sinewi_exporter *e, const char *path, const sinew_export_options *options, bool binary) {
	SINEWI_TRY(check_clips(e));
	const char *source_path = options ? options->source_path : NULL;
	if (source_path) {
		e->src = (sinewi_source_doc *)sinewi_arena_alloc(&e->arena, sizeof(sinewi_source_doc));
		if (!e->src) return sinewi_export_oom(e);
		SINEWI_TRY(sinewi_source_parse(e, source_path));
		e->node_count = e->src->node_count;
	} else {
		SINEWI_TRY(sinewi_export_check_skeletons(e));
		e->node_count = e->set->clips[0]->joint_count;
	}
	e->rest = (sinewi_rest_trs *)sinewi_export_array(e, e->node_count, sizeof(sinewi_rest_trs));
	e->node_rewrite = (uint8_t *)sinewi_export_array(e, e->node_count, 1);
	e->node_stamp = (uint32_t *)sinewi_export_array(e, e->node_count, sizeof(uint32_t));
	if (!e->rest || !e->node_rewrite || !e->node_stamp) return sinewi_export_oom(e);
	if (sinewi_export_is_mode(e, SINEWI_EXPORT_PACK)) {
		// No animation is written: nodes stay as they are; the blob follows the kept data, 16-byte aligned
		// (docs/format.md: zero-copy contexts need an aligned blob; glTF alone guarantees 4).
		SINEWI_TRY(sinewi_source_mark_used(e));
		SINEWI_TRY(sinewi_source_copy_views(e));
		SINEWI_TRY(sinewi_source_embed_images(e));
		sinewi_jw_pad(&e->bin, 16, 0);
		e->blob_view = e->view_count++;
		size_t start = e->bin.size;
		sinewi_jw_append(&e->bin, e->hook->blob, e->hook->blob_size);
		if (e->new_views++) sinewi_jw_raw(&e->views, ",");
		sinewi_jw_raw(&e->views, "{\"buffer\":0,\"byteOffset\":");
		sinewi_jw_num(&e->views, (double)start);
		sinewi_jw_raw(&e->views, ",\"byteLength\":");
		sinewi_jw_num(&e->views, (double)e->hook->blob_size);
		sinewi_jw_raw(&e->views, "}");
		if (e->views.failed || e->bin.failed) return sinewi_export_oom(e);
		sinewi_export_write_source_document(e, binary);
		return write_file(e, path, binary);
	}
	if (e->src) {
		SINEWI_TRY(sinewi_source_read_nodes(e));
		// glTF forbids animating a node given by a matrix: such nodes become TRS from the joint's default pose.
		for (uint32_t c = 0; c < e->set->clip_count; ++c) {
			const sinew_clip *clip = e->set->clips[c];
			for (uint32_t j = 0; j < clip->joint_count; ++j) {
				const sinew_joint *joint = &clip->joints[j];
				if (!joint->has_track || joint->source_index < 0 || (uint32_t)joint->source_index >= e->node_count)
					continue;
				uint32_t n = (uint32_t)joint->source_index;
				if (e->node_rewrite[n] || !sinewi_json_get(sinewi_json_at(e->src->nodes, n), "matrix")) continue;
				e->node_rewrite[n] = 1;
				qvv_to_rest(&joint->default_pose, clip->unit_scale, &e->rest[n]);
			}
		}
		SINEWI_TRY(sinewi_source_mark_used(e));
		SINEWI_TRY(sinewi_source_copy_views(e));
		SINEWI_TRY(sinewi_source_embed_images(e));
	} else {
		const sinew_clip *c0 = e->set->clips[0];
		for (uint32_t j = 0; j < c0->joint_count; ++j)
			qvv_to_rest(&c0->joints[j].default_pose, c0->unit_scale, &e->rest[j]);
	}
	sinewi_jw_pad(&e->bin, 4, 0);
	e->anim_view = e->view_count++;
	e->anim_start = e->bin.size;
	SINEWI_TRY(sinewi_export_analyse_clips(e));
	for (uint32_t c = 0; c < e->set->clip_count; ++c) SINEWI_TRY(sinewi_export_write_clip(e, c));
	if (e->new_views++) sinewi_jw_raw(&e->views, ",");
	sinewi_jw_raw(&e->views, "{\"buffer\":0");
	if (e->anim_start) sinewi_jw_raw(&e->views, ",\"byteOffset\":"), sinewi_jw_num(&e->views, (double)e->anim_start);
	sinewi_jw_raw(&e->views, ",\"byteLength\":");
	sinewi_jw_num(&e->views, (double)(e->bin.size - e->anim_start));
	sinewi_jw_raw(&e->views, "}");
	if (e->views.failed || e->accessors.failed || e->anims.failed || e->bin.failed) return sinewi_export_oom(e);
	if (e->src) {
		sinewi_export_write_source_document(e, binary);
	} else {
		sinewi_export_write_skeleton(e);
		sinewi_json_writer *w = &e->json;
		bool first = false;
		sinewi_jw_key(w, &first, "animations");
		sinewi_jw_raw(w, "["), sinewi_jw_append(w, e->anims.data, e->anims.size), sinewi_jw_raw(w, "]");
		sinewi_jw_key(w, &first, "accessors");
		sinewi_jw_raw(w, "["), sinewi_jw_append(w, e->accessors.data, e->accessors.size), sinewi_jw_raw(w, "]");
		sinewi_jw_key(w, &first, "bufferViews");
		sinewi_jw_raw(w, "["), sinewi_jw_append(w, e->views.data, e->views.size), sinewi_jw_raw(w, "]");
		sinewi_export_write_buffers(e, &first, binary);
		sinewi_jw_raw(w, "}");
	}
	return write_file(e, path, binary);
}

sinew_result sinewi_export_gltf_hooked(const sinew_clip_set *set, const char *path, const sinew_export_options *options,
                                       const sinewi_export_hook *hook, const sinew_allocator *allocator,
                                       sinew_error *error) {
	SINEWI_CHECK(set && path && *path, error, SINEW_RESULT_INVALID_ARGUMENT, "export: NULL clip set or path");
	SINEWI_CHECK(set->clip_count > 0 && set->clips, error, SINEW_RESULT_INVALID_ARGUMENT,
	             "export: the clip set is empty");
	int binary_option = options ? options->binary : -1;
	SINEWI_CHECK(binary_option >= -1 && binary_option <= 1, error, SINEW_RESULT_INVALID_ARGUMENT,
	             "export: options.binary must be -1, 0 or 1 (got %d)", binary_option);
	bool binary = binary_option == 1 || (binary_option == -1 && sinewi_ends_with_ci(path, ".glb"));
	sinewi_exporter e;
	memset(&e, 0, sizeof e);
	e.set = set;
	e.hook = hook;
	e.error = error;
	e.allocator = allocator;
	e.al = sinewi_alloc_from(allocator);
	sinewi_arena_init(&e.arena, allocator);
	sinewi_json_writer_init(&e.bin, allocator);
	sinewi_json_writer_init(&e.views, allocator);
	sinewi_json_writer_init(&e.accessors, allocator);
	sinewi_json_writer_init(&e.anims, allocator);
	sinewi_json_writer_init(&e.json, allocator);
	sinew_result r = SINEW_RESULT_INVALID_ARGUMENT;
	if (hook && (!options || !options->source_path))
		sinewi_fail(error, r, "export: pack/unpack need a source document");
	else
		r = export_run(&e, path, options, binary);
	sinewi_source_free(&e);
	sinewi_json_writer_free(&e.bin);
	sinewi_json_writer_free(&e.views);
	sinewi_json_writer_free(&e.accessors);
	sinewi_json_writer_free(&e.anims);
	sinewi_json_writer_free(&e.json);
	sinewi_arena_free(&e.arena);
	return r;
}

sinew_result sinew_export_gltf(const sinew_clip_set *set, const char *path, const sinew_export_options *options,
                               const sinew_allocator *allocator, sinew_error *error) {
	return sinewi_export_gltf_hooked(set, path, options, NULL, allocator, error);
}
