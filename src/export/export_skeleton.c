// sinew — see include/sinew.h for version and licence
// The document without a source: one node per joint of the set's skeleton (every clip must share it), rest TRS
// = default pose in metres, one scene with the roots, and one skin per root listing its joints.
#include "export_gltf.h"

#include <string.h>

sinew_result sinewi_export_check_skeletons(sinewi_exporter *e) {
	const sinew_clip *c0 = e->set->clips[0];
	for (uint32_t i = 1; i < e->set->clip_count; ++i) {
		const sinew_clip *c = e->set->clips[i];
		SINEWI_CHECK(c->joint_count == c0->joint_count, e->error, SINEW_RESULT_UNSUPPORTED,
		             "export: clip %u ('%s') has %u joints, clip 0 has %u: clips without source_path must share one "
		             "skeleton (export them separately)",
		             i, sinewi_export_clip_label(c), c->joint_count, c0->joint_count);
		for (uint32_t j = 0; j < c->joint_count; ++j) {
			const sinew_joint *a = &c0->joints[j], *b = &c->joints[j];
			bool same_name = a->name == b->name || (a->name && b->name && strcmp(a->name, b->name) == 0);
			SINEWI_CHECK(a->parent == b->parent && same_name, e->error, SINEW_RESULT_UNSUPPORTED,
			             "export: clip %u ('%s') has a different skeleton than clip 0 (joint %u '%s'): clips without "
			             "source_path must share one skeleton (export them separately)",
			             i, sinewi_export_clip_label(c), j, sinewi_export_joint_label(b));
		}
	}
	return SINEW_RESULT_OK;
}

void sinewi_export_write_skeleton(sinewi_exporter *e) {
	const sinew_clip *c0 = e->set->clips[0];
	sinewi_json_writer *w = &e->json;
	sinewi_jw_raw(w, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"sinew " SINEW_VERSION_STRING
	       "\"},\"scene\":0,\"scenes\":[{\"nodes\":[");
	bool first = true;
	for (uint32_t j = 0; j < c0->joint_count; ++j) {
		if (c0->joints[j].parent >= 0) continue;
		if (!first) sinewi_jw_raw(w, ",");
		first = false;
		sinewi_jw_num(w, j);
	}
	sinewi_jw_raw(w, "]}],\"nodes\":[");
	// Children lists without quadratic scans: parents come before children.
	uint32_t *first_child = e->node_stamp,
	         *next = (uint32_t *)sinewi_export_array(e, c0->joint_count, sizeof(uint32_t));
	if (!next) {
		w->failed = true;
		return;
	}
	for (uint32_t j = 0; j < c0->joint_count; ++j) first_child[j] = next[j] = SINEWI_EXPORT_NONE;
	for (uint32_t j = c0->joint_count; j-- > 0;) {
		int32_t p = c0->joints[j].parent;
		if (p < 0) continue;
		next[j] = first_child[p];
		first_child[p] = j;
	}
	for (uint32_t j = 0; j < c0->joint_count; ++j) {
		if (j) sinewi_jw_raw(w, ",");
		sinewi_jw_raw(w, "{");
		bool f = true;
		if (c0->joints[j].name) sinewi_jw_key(w, &f, "name"), sinewi_json_write_string(w, c0->joints[j].name);
		if (first_child[j] != SINEWI_EXPORT_NONE) {
			sinewi_jw_key(w, &f, "children");
			sinewi_jw_raw(w, "[");
			for (uint32_t c = first_child[j]; c != SINEWI_EXPORT_NONE; c = next[c]) {
				if (c != first_child[j]) sinewi_jw_raw(w, ",");
				sinewi_jw_num(w, c);
			}
			sinewi_jw_raw(w, "]");
		}
		sinewi_jw_trs(w, &f, &e->rest[j]);
		sinewi_jw_raw(w, "}");
	}
	// One skin per root names the skeleton: it keeps unanimated joints (end sites, static leaves) part of the
	// skeleton for importers, which is the glTF way to say "these nodes are joints" without a mesh.
	uint32_t *stack = (uint32_t *)sinewi_export_array(e, c0->joint_count, sizeof(uint32_t));
	if (!stack) {
		w->failed = true;
		return;
	}
	sinewi_jw_raw(w, "],\"skins\":[");
	first = true;
	for (uint32_t root = 0; root < c0->joint_count; ++root) {
		if (c0->joints[root].parent >= 0) continue;
		if (!first) sinewi_jw_raw(w, ",");
		first = false;
		sinewi_jw_raw(w, "{");
		bool f = true;
		if (c0->joints[root].name) sinewi_jw_key(w, &f, "name"), sinewi_json_write_string(w, c0->joints[root].name);
		sinewi_jw_key(w, &f, "skeleton"), sinewi_jw_num(w, root);
		sinewi_jw_key(w, &f, "joints"), sinewi_jw_raw(w, "[");
		uint32_t top = 0, written = 0;
		stack[top++] = root;
		while (top) {
			uint32_t j = stack[--top];
			if (written++) sinewi_jw_raw(w, ",");
			sinewi_jw_num(w, j);
			uint32_t count = 0; // push children reversed so the first child comes out first
			for (uint32_t c = first_child[j]; c != SINEWI_EXPORT_NONE; c = next[c]) ++count;
			for (uint32_t c = first_child[j], i = 0; c != SINEWI_EXPORT_NONE; c = next[c], ++i)
				stack[top + count - 1 - i] = c;
			top += count;
		}
		sinewi_jw_raw(w, "]}");
	}
	sinewi_jw_raw(w, "]");
}
