// sinew — see include/sinew.h for version and licence
// The rig of a version-3 blob (docs/format.md §rig): read and checked once per view, then its parts read
// by node and scalar track for the decoder (rest pose), decompression and tools (names, hierarchy).
#include "format_read.h"

#include <math.h>
#include <string.h>

#include "../core/format_layout.h"

static uint64_t align4(uint64_t x) {
	return (x + 3) & ~(uint64_t)3;
}

// Zero padding from `from` to align4(from), inside `limit`.
static bool zero_pad(const unsigned char *blob, uint64_t from, uint64_t limit) {
	for (uint64_t b = from; b < align4(from); ++b)
		if (b >= limit || blob[b] != 0) return false;
	return true;
}

static bool valid_string(const unsigned char *table, uint32_t table_size, uint32_t offset) {
	if (offset == SINEW_FMT_NO_STRING) return true;
	if (offset >= table_size) return false;
	return memchr(table + offset, 0, table_size - offset) != NULL;
}

// Part `bit` of the rig (when `flags` has it): `bytes` at *p, then zero padding to 4 bytes, inside `limit`; *ptr
// receives where it is (NULL without it) and *p where the next part starts.
static sinew_result part(const unsigned char *blob, uint32_t flags, uint32_t bit, uint64_t bytes, uint64_t limit, uint64_t *p,
                         const unsigned char **ptr, sinew_error *error) {
	*ptr = NULL;
	if (!(flags & bit)) return SINEW_RESULT_OK;
	SINEWI_CHECK(*p + bytes <= limit && zero_pad(blob, *p + bytes, limit), error, SINEW_RESULT_CORRUPT,
	             "rig: part %04x exceeds the blob", bit);
	*ptr = blob + *p;
	*p = align4(*p + bytes);
	return SINEW_RESULT_OK;
}

sinew_result sinewi_read_rig(const unsigned char *blob, uint32_t at, uint32_t limit, uint32_t clip_count,
                             sinewi_clip_view *v, uint32_t *rig_end, sinew_error *error) {
	SINEWI_CHECK((uint64_t)at + SINEW_FMT_RIG_HEADER_SIZE <= limit, error, SINEW_RESULT_CORRUPT, "rig at %u exceeds the blob", at);
	const unsigned char *r = blob + at;
	const uint32_t n = sinewi_rd16(r), s = sinewi_rd16(r + 2), flags = sinewi_rd16(r + 4);
	const double unit = sinewi_rdf64(r + 8);
	SINEWI_CHECK(n + s >= 1, error, SINEW_RESULT_CORRUPT, "rig: no nodes and no scalar tracks");
	SINEWI_CHECK((flags & ~SINEW_FMT_RIG_FLAGS_KNOWN) == 0 && sinewi_rd16(r + 6) == 0, error, SINEW_RESULT_CORRUPT,
	             "rig: reserved flags %04x", flags);
	SINEWI_CHECK(isfinite(unit) && unit > 0.0, error, SINEW_RESULT_CORRUPT, "rig: unit scale is not a positive number");
	SINEWI_CHECK(!SINEWI_CHECK_RIG_ENTRIES || !((flags & SINEW_FMT_RIG_REST) && (flags & SINEW_FMT_RIG_SCALAR_REST)), error,
	             SINEW_RESULT_CORRUPT, "rig: Scalar_rest with Rest"); // (the web runtime's JS checks it: web/rig.mjs)
	uint64_t p = (uint64_t)at + SINEW_FMT_RIG_HEADER_SIZE;
	SINEWI_CHECK(p + s <= limit, error, SINEW_RESULT_CORRUPT, "rig: scalar components exceed the blob");
	uint64_t components = 0;
	for (uint32_t i = 0; i < s; ++i) { // (reserved bits: the web runtime's JS checks them, web/rig.mjs)
		SINEWI_CHECK(!SINEWI_CHECK_RIG_ENTRIES || (blob[p + i] >> 2) == 0, error, SINEW_RESULT_CORRUPT, "rig: scalar track %u: reserved bits", i);
		components += (blob[p + i] & 3u) + 1u;
	}
	v->scalar_components_table = blob + p;
	p += s;
	SINEWI_CHECK(zero_pad(blob, p, limit), error, SINEW_RESULT_CORRUPT, "rig: padding is not zero");
	p = align4(p);
	const bool wide = (flags & SINEW_FMT_RIG_WIDE_SOURCES) != 0;
	// each part in bit order; `part` checks that it fits and is followed by its zero padding
#define PART(bit, bytes, ptr) SINEWI_TRY(part(blob, flags, bit, bytes, limit, &p, &(ptr), error))
	PART(SINEW_FMT_RIG_PARENTS, 2ull * n, v->rig_parents);
	for (uint32_t j = 0; SINEWI_CHECK_RIG_ENTRIES && v->rig_parents && j < n; ++j) {
		const uint32_t parent = sinewi_rd16(v->rig_parents + 2 * j);
		SINEWI_CHECK(parent == SINEW_FMT_NO_INDEX16 || parent < j, error, SINEW_RESULT_CORRUPT, "rig: node %u parent %u", j, parent);
	}
	PART(SINEW_FMT_RIG_NODE_SOURCES, (wide ? 4ull : 2ull) * n, v->rig_sources);
	PART(SINEW_FMT_RIG_REST, 40ull * n + 4 * components, v->rig_rest);
	// (the rest pose's values, read by the decoder but never to find bytes, are checked by web/sinew.mjs for the wasm
	// decoders)
	for (uint64_t b = 0; SINEWI_CHECK_RIG_ENTRIES && v->rig_rest && b < 40ull * n + 4 * components; b += 4)
		SINEWI_CHECK(isfinite(sinewi_rdf32(v->rig_rest + b)), error, SINEW_RESULT_CORRUPT, "rig: non-finite rest value");
	for (uint32_t j = 0; SINEWI_CHECK_RIG_ENTRIES && v->rig_rest && j < n; ++j) {
		double len = 0.0;
		for (int k = 0; k < 4; ++k) len += (double)sinewi_rdf32(v->rig_rest + 40 * j + 4 * k) * sinewi_rdf32(v->rig_rest + 40 * j + 4 * k);
		SINEWI_CHECK(fabs(sqrt(len) - 1.0) <= 1e-3, error, SINEW_RESULT_CORRUPT, "rig: node %u rest rotation is not a unit quaternion", j);
	}
	PART(SINEW_FMT_RIG_SHELLS, 8ull * n + 4ull * s, v->rig_shells);
	for (uint64_t b = 0; SINEWI_CHECK_RIG_ENTRIES && v->rig_shells && b < 8ull * n + 4ull * s; b += 4)
		SINEWI_CHECK(isfinite(sinewi_rdf32(v->rig_shells + b)), error, SINEW_RESULT_CORRUPT, "rig: non-finite shell or precision");
	v->rig_scalar_sources = NULL;
	if (flags & SINEW_FMT_RIG_SCALAR_SOURCES) {
		SINEWI_CHECK(p + 4 <= limit, error, SINEW_RESULT_CORRUPT, "rig: scalar sources exceed the blob");
		const uint32_t runs = sinewi_rd16(blob + p), run_size = wide ? 12u : 6u;
		SINEWI_CHECK(!SINEWI_CHECK_RIG_ENTRIES || sinewi_rd16(blob + p + 2) == 0, error, SINEW_RESULT_CORRUPT,
		             "rig: scalar sources: reserved field");
		const uint64_t at_runs = p;
		PART(SINEW_FMT_RIG_SCALAR_SOURCES, 4 + (uint64_t)runs * run_size, v->rig_scalar_sources);
		uint64_t covered = SINEWI_CHECK_RIG_ENTRIES ? 0u : s;
		for (uint32_t k = 0; SINEWI_CHECK_RIG_ENTRIES && k < runs; ++k) {
			const unsigned char *e = blob + at_runs + 4 + (size_t)k * run_size;
			const uint32_t count = wide ? sinewi_rd32(e) : sinewi_rd16(e);
			SINEWI_CHECK(count >= 1, error, SINEW_RESULT_CORRUPT, "rig: scalar source run %u is empty", k);
			covered += count;
		}
		SINEWI_CHECK(covered == s, error, SINEW_RESULT_CORRUPT, "rig: scalar source runs cover %llu of %u tracks",
		             (unsigned long long)covered, s);
	}
	v->rig_names = NULL;
	v->rig_strings_size = 0;
	if (flags & SINEW_FMT_RIG_NAMES) {
		SINEWI_CHECK(p + 4 <= limit, error, SINEW_RESULT_CORRUPT, "rig: names exceed the blob");
		const uint32_t strings = sinewi_rd32(blob + p);
		const uint64_t entries = (uint64_t)n + s + clip_count;
		PART(SINEW_FMT_RIG_NAMES, 4 + 4 * entries + strings, v->rig_names);
		const unsigned char *table = v->rig_names + 4 + 4 * entries;
		for (uint64_t k = 0; SINEWI_CHECK_RIG_ENTRIES && k < entries; ++k)
			SINEWI_CHECK(valid_string(table, strings, sinewi_rd32(v->rig_names + 4 + 4 * k)), error, SINEW_RESULT_CORRUPT,
			             "rig: name %llu out of range", (unsigned long long)k);
		v->rig_strings_size = strings;
	}
	PART(SINEW_FMT_RIG_SCALAR_REST, 4 * components, v->rig_scalar_rest);
	for (uint64_t b = 0; SINEWI_CHECK_RIG_ENTRIES && v->rig_scalar_rest && b < 4 * components; b += 4)
		SINEWI_CHECK(isfinite(sinewi_rdf32(v->rig_scalar_rest + b)), error, SINEW_RESULT_CORRUPT, "rig: non-finite scalar rest value");
#undef PART
	v->rig = r;
	v->rig_flags = flags;
	v->rig_size = (uint32_t)(p - at);
	v->rig_clip_count = clip_count;
	v->joint_count = n;
	v->scalar_count = s;
	v->scalar_components = (uint32_t)components;
	v->unit_scale = unit;
	*rig_end = (uint32_t)p;
	return SINEW_RESULT_OK;
}

int32_t sinewi_rig_parent(const sinewi_clip_view *v, uint32_t j) {
	if (!v->rig_parents) return -1;
	const uint32_t p = sinewi_rd16(v->rig_parents + 2 * j);
	return p == SINEW_FMT_NO_INDEX16 ? -1 : (int32_t)p;
}

int32_t sinewi_rig_source(const sinewi_clip_view *v, uint32_t j) {
	if (!v->rig_sources) return -1;
	if (v->rig_flags & SINEW_FMT_RIG_WIDE_SOURCES) return (int32_t)sinewi_rd32(v->rig_sources + 4 * j);
	const uint32_t s = sinewi_rd16(v->rig_sources + 2 * j);
	return s == SINEW_FMT_NO_INDEX16 ? -1 : (int32_t)s;
}

bool sinewi_rig_rest(const sinewi_clip_view *v, uint32_t j, float out[10]) {
	static const float identity[10] = {0, 0, 0, 1, 0, 0, 0, 1, 1, 1};
	if (!v->rig_rest) {
		memcpy(out, identity, sizeof identity);
		return false;
	}
	for (int k = 0; k < 10; ++k) out[k] = sinewi_rdf32(v->rig_rest + 40 * (size_t)j + 4 * k);
	return true;
}

void sinewi_rig_shell(const sinewi_clip_view *v, uint32_t j, float *shell, float *precision) {
	*shell = v->rig_shells ? sinewi_rdf32(v->rig_shells + 8 * (size_t)j) : 0.0f;
	*precision = v->rig_shells ? sinewi_rdf32(v->rig_shells + 8 * (size_t)j + 4) : 0.0f;
}

static const char *rig_string(const sinewi_clip_view *v, uint64_t entry) {
	if (!v->rig_names) return NULL;
	const uint64_t entries = (uint64_t)v->joint_count + v->scalar_count + v->rig_clip_count;
	const uint32_t offset = sinewi_rd32(v->rig_names + 4 + 4 * entry);
	return offset == SINEW_FMT_NO_STRING ? NULL : (const char *)v->rig_names + 4 + 4 * entries + offset;
}

const char *sinewi_rig_name(const sinewi_clip_view *v, uint32_t j) {
	return rig_string(v, j);
}

const char *sinewi_rig_scalar_name(const sinewi_clip_view *v, uint32_t i) {
	return rig_string(v, (uint64_t)v->joint_count + i);
}

const char *sinewi_rig_clip_name(const sinewi_clip_view *v, uint32_t clip) {
	return clip < v->rig_clip_count ? rig_string(v, (uint64_t)v->joint_count + v->scalar_count + clip) : NULL;
}

void sinewi_rig_scalar_source(const sinewi_clip_view *v, uint32_t i, int32_t *node, int32_t *target) {
	*node = -1, *target = -1;
	if (!v->rig_scalar_sources) return;
	const bool wide = (v->rig_flags & SINEW_FMT_RIG_WIDE_SOURCES) != 0;
	const uint32_t runs = sinewi_rd16(v->rig_scalar_sources), run_size = wide ? 12u : 6u;
	uint32_t first = 0; // the run's first track
	for (uint32_t k = 0; k < runs; ++k) {
		const unsigned char *e = v->rig_scalar_sources + 4 + (size_t)k * run_size;
		const uint32_t count = wide ? sinewi_rd32(e) : sinewi_rd16(e);
		if (i >= first + count) {
			first += count;
			continue;
		}
		uint32_t src = wide ? sinewi_rd32(e + 4) : sinewi_rd16(e + 2), t = wide ? sinewi_rd32(e + 8) : sinewi_rd16(e + 4);
		if (!wide) src = src == SINEW_FMT_NO_INDEX16 ? 0xFFFFFFFFu : src == SINEW_FMT_POINTER16 ? 0xFFFFFFFEu : src;
		*node = (int32_t)src;
		for (uint32_t q = first; q < i; ++q) t += sinewi_scalar_components(v, q); // each next track after the one before
		*target = *node == -1 ? -1 : (int32_t)t;
		return;
	}
}

bool sinewi_rig_scalar_rest(const sinewi_clip_view *v, uint32_t i, float out[4]) {
	const unsigned char *table = v->rig_rest ? v->rig_rest + 40 * (size_t)v->joint_count : v->rig_scalar_rest;
	const uint32_t n = sinewi_scalar_components(v, i);
	for (uint32_t c = 0; c < 4; ++c) out[c] = 0.0f;
	if (!table) return false;
	uint32_t first = 0;
	for (uint32_t q = 0; q < i; ++q) first += sinewi_scalar_components(v, q);
	for (uint32_t c = 0; c < n; ++c) out[c] = sinewi_rdf32(table + 4 * ((size_t)first + c));
	return true;
}

float sinewi_rig_scalar_precision(const sinewi_clip_view *v, uint32_t i) {
	return v->rig_shells ? sinewi_rdf32(v->rig_shells + 8 * (size_t)v->joint_count + 4 * (size_t)i) : 0.0f;
}

sinew_result sinew_blob_rig(const void *blob, size_t size, sinew_rig_info *out, sinew_error *error) {
	SINEWI_CHECK(out, error, SINEW_RESULT_INVALID_ARGUMENT, "blob_rig: NULL argument");
	sinewi_clip_view v;
	SINEWI_TRY(sinewi_read_clip((const unsigned char *)blob, size, 0, &v, error));
	memset(out, 0, sizeof *out);
	out->node_count = v.joint_count;
	out->scalar_count = v.scalar_count;
	out->scalar_components = v.scalar_components;
	out->unit_scale = v.unit_scale;
	out->rest_defaults = v.rest_defaults;
	if (!v.rig) { // formats 1 and 2: clip 0's metadata
		out->has_rest = out->has_names = out->has_hierarchy = out->has_sources = v.metadata != NULL;
		out->has_scalar_rest = v.metadata != NULL;
		return SINEW_RESULT_OK;
	}
	out->has_rest = v.rig_rest != NULL;
	out->has_scalar_rest = v.rig_rest != NULL || v.rig_scalar_rest != NULL;
	out->has_names = v.rig_names != NULL;
	out->has_hierarchy = v.rig_parents != NULL;
	out->has_sources = v.rig_sources != NULL || v.rig_scalar_sources != NULL;
	return SINEW_RESULT_OK;
}

sinew_result sinew_blob_rig_nodes(const void *blob, size_t size, sinew_rig_node *nodes, sinew_rig_scalar *scalars,
                                  sinew_error *error) {
	sinewi_clip_view v;
	SINEWI_TRY(sinewi_read_clip((const unsigned char *)blob, size, 0, &v, error));
	const bool meta = !v.rig && v.metadata; // formats 1 and 2: clip 0's metadata
	const unsigned char *strings = meta ? v.metadata + sinewi_rd32(v.metadata + 8) : NULL;
	for (uint32_t j = 0; nodes && j < v.joint_count; ++j) {
		sinew_rig_node *n = &nodes[j];
		memset(n, 0, sizeof *n);
		float rest[10];
		if (meta) {
			const unsigned char *q = v.metadata + SINEW_FMT_META_HEADER_SIZE + (size_t)j * SINEW_FMT_META_JOINT_SIZE;
			const uint32_t name = sinewi_rd32(q + 8);
			n->parent = (int32_t)sinewi_rd32(q), n->source_index = (int32_t)sinewi_rd32(q + 4);
			n->name = name == SINEW_FMT_NO_STRING ? NULL : (const char *)strings + name;
			n->shell_distance = sinewi_rdf32(q + 12), n->precision = sinewi_rdf32(q + 16);
			for (int k = 0; k < 10; ++k) rest[k] = sinewi_rdf32(q + 20 + 4 * k);
		} else {
			n->parent = sinewi_rig_parent(&v, j), n->source_index = sinewi_rig_source(&v, j), n->name = sinewi_rig_name(&v, j);
			sinewi_rig_shell(&v, j, &n->shell_distance, &n->precision);
			sinewi_rig_rest(&v, j, rest);
		}
		if (!v.rig && !v.metadata) n->parent = n->source_index = -1, sinewi_rig_rest(&v, j, rest);
		memcpy(n->rest.rotation, rest, 4 * sizeof(float)), memcpy(n->rest.translation, rest + 4, 3 * sizeof(float));
		memcpy(n->rest.scale, rest + 7, 3 * sizeof(float));
	}
	for (uint32_t i = 0; scalars && i < v.scalar_count; ++i) {
		sinew_rig_scalar *t = &scalars[i];
		memset(t, 0, sizeof *t);
		t->components = sinewi_scalar_components(&v, i);
		if (meta) {
			const unsigned char *q = v.metadata + SINEW_FMT_META_HEADER_SIZE + (size_t)v.joint_count * SINEW_FMT_META_JOINT_SIZE +
			                         (size_t)i * SINEW_FMT_META_SCALAR_SIZE;
			const uint32_t name = sinewi_rd32(q);
			t->name = name == SINEW_FMT_NO_STRING ? NULL : (const char *)strings + name;
			t->source_node = (int32_t)sinewi_rd32(q + 4), t->source_target = (int32_t)sinewi_rd32(q + 8);
			t->precision = sinewi_rdf32(q + 12);
			for (uint32_t c = 0; c < t->components; ++c) t->rest[c] = sinewi_rdf32(q + 16 + 4 * c);
		} else {
			t->name = sinewi_rig_scalar_name(&v, i);
			sinewi_rig_scalar_source(&v, i, &t->source_node, &t->source_target);
			sinewi_rig_scalar_rest(&v, i, t->rest);
			t->precision = sinewi_rig_scalar_precision(&v, i);
		}
	}
	return SINEW_RESULT_OK;
}
