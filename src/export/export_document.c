// sinew — see include/sinew.h for version and licence
// The document with a source, re-serialized: every member copied but `animations`, with references to the kept
// accessors and bufferViews rewritten (member hooks), the source's buffers replaced by the one output buffer,
// animated nodes given by a matrix written as TRS, extensionsUsed/Required and the root extensions adjusted
// (pack adds SINEW_compressed_animation and its root object, unpack removes them).
#include "export_gltf.h"

#include <string.h>

typedef enum member_action { MEMBER_COPY, MEMBER_DROP, MEMBER_CUSTOM } member_action;
// Decides what happens to one member; when `w` is not NULL, writes the member's value (MEMBER_CUSTOM).
typedef member_action (*member_hook)(sinewi_exporter *e, sinewi_json_writer *w, const char *name,
                                     const sinewi_json *value, uint32_t index);

// True when member i of `object` is repeated later: lookups use the last one, so the output keeps only that.
// Objects with very many members (no glTF object has them) skip the quadratic check.
static bool repeated_later(const sinewi_json *object, uint32_t i) {
	if (object->count > 256) return false;
	for (uint32_t j = i + 1; j < object->count; ++j)
		if (strcmp(object->keys[i], object->keys[j]) == 0) return true;
	return false;
}

// Writes the members of `object` (without braces), hooks deciding what to copy, drop or rewrite.
static void emit_members(sinewi_exporter *e, sinewi_json_writer *w, bool *first, const sinewi_json *object,
                         member_hook hook, uint32_t index) {
	if (!object || object->type != SINEWI_JSON_OBJECT) return;
	for (uint32_t i = 0; i < object->count; ++i) {
		if (repeated_later(object, i)) continue;
		member_action action = hook ? hook(e, NULL, object->keys[i], &object->children[i], index) : MEMBER_COPY;
		if (action == MEMBER_DROP) continue;
		sinewi_jw_key(w, first, object->keys[i]);
		if (action == MEMBER_COPY)
			sinewi_json_write_value(w, &object->children[i]);
		else
			hook(e, w, object->keys[i], &object->children[i], index);
	}
}

static void emit_object(sinewi_exporter *e, sinewi_json_writer *w, const sinewi_json *object, member_hook hook,
                        uint32_t index) {
	bool first = true;
	sinewi_jw_raw(w, "{");
	emit_members(e, w, &first, object, hook, index);
	sinewi_jw_raw(w, "}");
}

static void emit_mapped(sinewi_json_writer *w, const sinewi_json *ref, const uint32_t *map, uint32_t count) {
	uint32_t i;
	if (sinewi_json_uint(ref, &i) && i < count && map[i] != SINEWI_EXPORT_NONE)
		sinewi_jw_num(w, map[i]);
	else
		sinewi_json_write_value(w, ref); // validated earlier; cannot happen for kept objects
}

static member_action hook_accessor_map(sinewi_exporter *e, sinewi_json_writer *w, const char *name,
                                       const sinewi_json *value, uint32_t index) {
	(void)name, (void)index;
	if (w) emit_mapped(w, value, e->src->accessor_map, e->src->accessor_count);
	return MEMBER_CUSTOM;
}

static member_action hook_draco(sinewi_exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                                uint32_t index) {
	(void)index;
	if (strcmp(name, "bufferView") != 0) return MEMBER_COPY;
	if (w) emit_mapped(w, value, e->src->view_map, e->src->view_count);
	return MEMBER_CUSTOM;
}

static member_action hook_prim_extensions(sinewi_exporter *e, sinewi_json_writer *w, const char *name,
                                          const sinewi_json *value, uint32_t index) {
	if (strcmp(name, "KHR_draco_mesh_compression") != 0) return MEMBER_COPY;
	if (w) emit_object(e, w, value, hook_draco, index);
	return MEMBER_CUSTOM;
}

static member_action hook_primitive(sinewi_exporter *e, sinewi_json_writer *w, const char *name,
                                    const sinewi_json *value, uint32_t index) {
	if (strcmp(name, "attributes") == 0) {
		if (w) emit_object(e, w, value, hook_accessor_map, index);
	} else if (strcmp(name, "indices") == 0) {
		if (w) emit_mapped(w, value, e->src->accessor_map, e->src->accessor_count);
	} else if (strcmp(name, "targets") == 0 && value->type == SINEWI_JSON_ARRAY) {
		if (w) {
			sinewi_jw_raw(w, "[");
			for (uint32_t t = 0; t < value->count; ++t) {
				if (t) sinewi_jw_raw(w, ",");
				emit_object(e, w, &value->children[t], hook_accessor_map, index);
			}
			sinewi_jw_raw(w, "]");
		}
	} else if (strcmp(name, "extensions") == 0) {
		if (w) emit_object(e, w, value, hook_prim_extensions, index);
	} else {
		return MEMBER_COPY;
	}
	return MEMBER_CUSTOM;
}

static member_action hook_mesh(sinewi_exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                               uint32_t index) {
	if (strcmp(name, "primitives") != 0 || value->type != SINEWI_JSON_ARRAY) return MEMBER_COPY;
	if (w) {
		sinewi_jw_raw(w, "[");
		for (uint32_t p = 0; p < value->count; ++p) {
			if (p) sinewi_jw_raw(w, ",");
			emit_object(e, w, &value->children[p], hook_primitive, index);
		}
		sinewi_jw_raw(w, "]");
	}
	return MEMBER_CUSTOM;
}

static member_action hook_skin(sinewi_exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                               uint32_t index) {
	if (strcmp(name, "inverseBindMatrices") != 0) return MEMBER_COPY;
	return hook_accessor_map(e, w, name, value, index);
}

static member_action hook_instancing(sinewi_exporter *e, sinewi_json_writer *w, const char *name,
                                     const sinewi_json *value, uint32_t index) {
	if (strcmp(name, "attributes") != 0) return MEMBER_COPY;
	if (w) emit_object(e, w, value, hook_accessor_map, index);
	return MEMBER_CUSTOM;
}

static member_action hook_node_extensions(sinewi_exporter *e, sinewi_json_writer *w, const char *name,
                                          const sinewi_json *value, uint32_t index) {
	if (strcmp(name, "EXT_mesh_gpu_instancing") != 0) return MEMBER_COPY;
	if (w) emit_object(e, w, value, hook_instancing, index);
	return MEMBER_CUSTOM;
}

static member_action hook_node(sinewi_exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                               uint32_t index) {
	if (e->node_rewrite[index] && (strcmp(name, "matrix") == 0 || strcmp(name, "translation") == 0 ||
	                               strcmp(name, "rotation") == 0 || strcmp(name, "scale") == 0))
		return MEMBER_DROP;
	if (strcmp(name, "extensions") != 0) return MEMBER_COPY;
	if (w) emit_object(e, w, value, hook_node_extensions, index);
	return MEMBER_CUSTOM;
}

static member_action hook_image(sinewi_exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                                uint32_t index) {
	if (strcmp(name, "uri") == 0 && e->src->image_view[index] != SINEWI_EXPORT_NONE) return MEMBER_DROP;
	if (strcmp(name, "bufferView") != 0) return MEMBER_COPY;
	if (w) emit_mapped(w, value, e->src->view_map, e->src->view_count);
	return MEMBER_CUSTOM;
}

static member_action hook_sparse_part(sinewi_exporter *e, sinewi_json_writer *w, const char *name,
                                      const sinewi_json *value, uint32_t index) {
	return hook_draco(e, w, name, value, index); // the same rewrite: its bufferView
}

static member_action hook_sparse(sinewi_exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                                 uint32_t index) {
	if (strcmp(name, "indices") != 0 && strcmp(name, "values") != 0) return MEMBER_COPY;
	if (w) emit_object(e, w, value, hook_sparse_part, index);
	return MEMBER_CUSTOM;
}

static member_action hook_accessor(sinewi_exporter *e, sinewi_json_writer *w, const char *name,
                                   const sinewi_json *value, uint32_t index) {
	if (strcmp(name, "bufferView") == 0) {
		if (w) emit_mapped(w, value, e->src->view_map, e->src->view_count);
		return MEMBER_CUSTOM;
	}
	if (strcmp(name, "sparse") != 0) return MEMBER_COPY;
	if (w) emit_object(e, w, value, hook_sparse, index);
	return MEMBER_CUSTOM;
}

static member_action hook_view(sinewi_exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                               uint32_t index) {
	(void)e, (void)w, (void)value, (void)index;
	return strcmp(name, "buffer") == 0 || strcmp(name, "byteOffset") == 0 ? MEMBER_DROP : MEMBER_COPY;
}

static member_action hook_asset(sinewi_exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                                uint32_t index) {
	(void)e, (void)w, (void)value, (void)index;
	return strcmp(name, "generator") == 0 ? MEMBER_DROP : MEMBER_COPY;
}

static void emit_array(sinewi_exporter *e, sinewi_json_writer *w, const sinewi_json *array, member_hook hook,
                       const uint32_t *keep) {
	sinewi_jw_raw(w, "[");
	bool first = true;
	for (uint32_t i = 0; array && i < array->count; ++i) {
		if (keep && keep[i] == SINEWI_EXPORT_NONE) continue;
		if (!first) sinewi_jw_raw(w, ",");
		first = false;
		const sinewi_json *item = &array->children[i];
		if (item->type != SINEWI_JSON_OBJECT) {
			sinewi_json_write_value(w, item);
			continue;
		}
		sinewi_jw_raw(w, "{");
		bool f = true;
		emit_members(e, w, &f, item, hook, i);
		if (hook == hook_view) {
			sinewi_jw_key(w, &f, "buffer"), sinewi_jw_raw(w, "0");
			sinewi_jw_key(w, &f, "byteOffset"), sinewi_jw_num(w, (double)e->src->view_offset[i]);
		} else if (hook == hook_node && e->node_rewrite[i]) {
			sinewi_jw_trs(w, &f, &e->rest[i]);
		} else if (hook == hook_image && e->src->image_view[i] != SINEWI_EXPORT_NONE) {
			sinewi_jw_key(w, &f, "bufferView"), sinewi_jw_num(w, e->src->image_view[i]);
			if (e->src->image_mime[i])
				sinewi_jw_key(w, &f, "mimeType"), sinewi_json_write_string(w, e->src->image_mime[i]);
		}
		sinewi_jw_raw(w, "}");
	}
	if (hook == hook_view && e->new_views) {
		if (!first) sinewi_jw_raw(w, ",");
		first = false;
		sinewi_jw_append(w, e->views.data, e->views.size);
	}
	if (hook == hook_accessor && e->new_accessors) {
		if (!first) sinewi_jw_raw(w, ",");
		sinewi_jw_append(w, e->accessors.data, e->accessors.size);
	}
	sinewi_jw_raw(w, "]");
}

static bool dropped_extension(const char *ext, bool keep_pointer) {
	return ext &&
	       ((!keep_pointer && strcmp(ext, "KHR_animation_pointer") == 0) || strcmp(ext, SINEWI_PACK_EXTENSION) == 0);
}

static bool lists_extension(const sinewi_json *list, const char *ext) {
	for (uint32_t i = 0; list && i < list->count; ++i) {
		const char *name = sinewi_json_string(&list->children[i]);
		if (name && strcmp(name, ext) == 0) return true;
	}
	return false;
}

// extensionsUsed/Required without the pack extension (re-added by pack as `add`), and without
// KHR_animation_pointer unless a pointer channel was written (node pointers become plain channels, and a
// packed file's animations are the blob); omitted when empty. `list` may be NULL. `add` is appended when
// the list lacks it.
static void emit_extension_list(sinewi_json_writer *w, bool *first, const char *name, const sinewi_json *list,
                                bool keep_pointer, const char *add) {
	if (add && lists_extension(list, add) && !dropped_extension(add, keep_pointer)) add = NULL;
	uint32_t kept = add ? 1 : 0;
	for (uint32_t i = 0; list && i < list->count; ++i)
		if (!dropped_extension(sinewi_json_string(&list->children[i]), keep_pointer)) kept++;
	if (!kept) return;
	sinewi_jw_key(w, first, name);
	sinewi_jw_raw(w, "[");
	kept = 0;
	for (uint32_t i = 0; list && i < list->count; ++i) {
		if (dropped_extension(sinewi_json_string(&list->children[i]), keep_pointer)) continue;
		if (kept++) sinewi_jw_raw(w, ",");
		sinewi_json_write_value(w, &list->children[i]);
	}
	if (add) {
		if (kept) sinewi_jw_raw(w, ",");
		sinewi_json_write_string(w, add);
	}
	sinewi_jw_raw(w, "]");
}

// The root extension object of a packed file (docs/gltf_extension.md). Clip names and durations are there
// so tools can list the animations without decoding; the blob is authoritative.
static void write_pack_extension(sinewi_exporter *e, sinewi_json_writer *w) {
	const unsigned char *blob = (const unsigned char *)e->hook->blob;
	size_t size = e->hook->blob_size;
	sinewi_jw_raw(w, "{\"bufferView\":");
	sinewi_jw_num(w, e->blob_view);
	sinewi_jw_raw(w, ",\"version\":");
	sinewi_jw_num(w, (double)((unsigned)blob[4] | (unsigned)blob[5] << 8));
	// the JSON pointer of every pointer track, in the blob's scalar track order (the blob carries no names)
	const sinew_clip *first = e->set && e->set->clip_count ? e->set->clips[0] : NULL;
	bool any = false;
	for (uint32_t i = 0; first && i < first->scalar_track_count; ++i) {
		const sinew_scalar_track *t = &first->scalar_tracks[i];
		if (t->source_node != SINEW_SOURCE_POINTER) continue;
		sinewi_jw_raw(w, any ? "," : ",\"pointers\":[");
		sinewi_json_write_string(w, t->name ? t->name : "");
		any = true;
	}
	if (any) sinewi_jw_raw(w, "]");
	sinewi_jw_raw(w, ",\"clips\":[");
	uint32_t count = sinew_blob_clip_count(blob, size);
	for (uint32_t i = 0; i < count; ++i) {
		sinew_clip_info info;
		memset(&info, 0, sizeof info);
		sinew_blob_clip_info(blob, size, i, &info, NULL); // the blob was validated: it cannot fail
		if (i) sinewi_jw_raw(w, ",");
		sinewi_jw_raw(w, "{");
		// the animation's name: the source clip's (a packed blob carries no names)
		const char *name = e->set && i < e->set->clip_count && e->set->clips[i]->name ? e->set->clips[i]->name : info.name;
		if (name) sinewi_jw_raw(w, "\"name\":"), sinewi_json_write_string(w, name), sinewi_jw_raw(w, ",");
		sinewi_jw_raw(w, "\"duration\":");
		sinewi_jw_num(w, info.duration);
		sinewi_jw_raw(w, "}");
	}
	sinewi_jw_raw(w, "]}");
}

// The root `extensions` object: the pack extension added (pack) or removed (unpack); omitted when empty.
static void emit_root_extensions(sinewi_exporter *e, bool *first, const sinewi_json *value) {
	sinewi_json_writer *w = &e->json;
	bool pack = sinewi_export_is_mode(e, SINEWI_EXPORT_PACK);
	uint32_t kept = pack ? 1 : 0;
	for (uint32_t i = 0; value && value->type == SINEWI_JSON_OBJECT && i < value->count; ++i)
		if (strcmp(value->keys[i], SINEWI_PACK_EXTENSION) != 0) kept++;
	if (value && value->type != SINEWI_JSON_OBJECT) {
		sinewi_jw_key(w, first, "extensions"), sinewi_json_write_value(w, value); // not ours to repair
		return;
	}
	if (!kept) return;
	sinewi_jw_key(w, first, "extensions");
	sinewi_jw_raw(w, "{");
	bool f = true;
	for (uint32_t i = 0; value && i < value->count; ++i) {
		if (strcmp(value->keys[i], SINEWI_PACK_EXTENSION) == 0 || repeated_later(value, i)) continue;
		sinewi_jw_key(w, &f, value->keys[i]);
		sinewi_json_write_value(w, &value->children[i]);
	}
	if (pack) sinewi_jw_key(w, &f, SINEWI_PACK_EXTENSION), write_pack_extension(e, w);
	sinewi_jw_raw(w, "}");
}

void sinewi_export_write_source_document(sinewi_exporter *e, bool binary) {
	sinewi_source_doc *s = e->src;
	sinewi_json_writer *w = &e->json;
	const sinewi_json *root = s->root;
	bool first = true, wrote_anims = false, wrote_acc = false, wrote_views = false, wrote_buffers = false;
	bool pack = sinewi_export_is_mode(e, SINEWI_EXPORT_PACK), wrote_ext = false, wrote_used = false;
	sinewi_jw_raw(w, "{");
	for (uint32_t i = 0; i < root->count; ++i) {
		const char *name = root->keys[i];
		const sinewi_json *value = &root->children[i];
		if (repeated_later(root, i)) continue;
		if (strcmp(name, "animations") == 0) {
			wrote_anims = true;
			if (pack) continue; // the blob replaces them
			sinewi_jw_key(w, &first, "animations");
			sinewi_jw_raw(w, "["), sinewi_jw_append(w, e->anims.data, e->anims.size), sinewi_jw_raw(w, "]");
			wrote_anims = true;
		} else if (strcmp(name, "buffers") == 0) {
			sinewi_export_write_buffers(e, &first, binary);
			wrote_buffers = true;
		} else if (strcmp(name, "bufferViews") == 0) {
			sinewi_jw_key(w, &first, name);
			emit_array(e, w, s->views, hook_view, s->view_map);
			wrote_views = true;
		} else if (strcmp(name, "accessors") == 0) {
			sinewi_jw_key(w, &first, name);
			emit_array(e, w, s->accessors, hook_accessor, s->accessor_map);
			wrote_acc = true;
		} else if (strcmp(name, "asset") == 0) {
			sinewi_jw_key(w, &first, name);
			sinewi_jw_raw(w, "{");
			bool f = true;
			emit_members(e, w, &f, value, hook_asset, 0);
			sinewi_jw_key(w, &f, "generator"), sinewi_jw_raw(w, "\"sinew " SINEW_VERSION_STRING "\"");
			sinewi_jw_raw(w, "}");
		} else if (strcmp(name, "meshes") == 0 && value->type == SINEWI_JSON_ARRAY) {
			sinewi_jw_key(w, &first, name), emit_array(e, w, value, hook_mesh, NULL);
		} else if (strcmp(name, "skins") == 0 && value->type == SINEWI_JSON_ARRAY) {
			sinewi_jw_key(w, &first, name), emit_array(e, w, value, hook_skin, NULL);
		} else if (strcmp(name, "nodes") == 0 && value->type == SINEWI_JSON_ARRAY) {
			sinewi_jw_key(w, &first, name), emit_array(e, w, value, hook_node, NULL);
		} else if (strcmp(name, "images") == 0 && value->type == SINEWI_JSON_ARRAY) {
			sinewi_jw_key(w, &first, name), emit_array(e, w, value, hook_image, NULL);
		} else if ((strcmp(name, "extensionsUsed") == 0 || strcmp(name, "extensionsRequired") == 0) &&
		           value->type == SINEWI_JSON_ARRAY) {
			bool used = strcmp(name, "extensionsUsed") == 0;
			wrote_used = wrote_used || used;
			// extensionsUsed only: a viewer without the extension shows the static model (valid glTF).
			const char *add = pack && used ? SINEWI_PACK_EXTENSION
			                  : e->pointer_channels && used ? "KHR_animation_pointer" : NULL;
			emit_extension_list(w, &first, name, value, e->pointer_channels, add);
		} else if (strcmp(name, "extensions") == 0 && e->hook) {
			emit_root_extensions(e, &first, value);
			wrote_ext = true;
		} else {
			sinewi_jw_key(w, &first, name);
			sinewi_json_write_value(w, value);
		}
	}
	if (!wrote_anims && !pack) {
		sinewi_jw_key(w, &first, "animations");
		sinewi_jw_raw(w, "["), sinewi_jw_append(w, e->anims.data, e->anims.size), sinewi_jw_raw(w, "]");
	}
	if (pack && !wrote_ext) emit_root_extensions(e, &first, NULL);
	if (pack && !wrote_used) emit_extension_list(w, &first, "extensionsUsed", NULL, false, SINEWI_PACK_EXTENSION);
	if (!pack && !wrote_used && e->pointer_channels)
		emit_extension_list(w, &first, "extensionsUsed", NULL, true, "KHR_animation_pointer");
	if (!wrote_acc) sinewi_jw_key(w, &first, "accessors"), emit_array(e, w, NULL, hook_accessor, NULL);
	if (!wrote_views) sinewi_jw_key(w, &first, "bufferViews"), emit_array(e, w, NULL, hook_view, NULL);
	if (!wrote_buffers) sinewi_export_write_buffers(e, &first, binary);
	sinewi_jw_raw(w, "}");
}
