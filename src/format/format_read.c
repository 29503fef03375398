// sinew — see include/sinew.h for version and licence
// Validation of untrusted blobs. Everything the decoder later trusts is checked here: after
// sinewi_read_clip succeeds, sampling cannot read outside the blob whatever the payload says.
#include "format_read.h"

#include <math.h>
#include <string.h>

#include "../core/bits.h"
#include "../core/codec_math.h"
#include "../core/hash.h"
#include "format_layout.h"

sinew_result sinewi_read_header(const unsigned char *blob, size_t size, bool check_checksum, uint32_t *clip_count,
                                sinew_error *error) {
	SINEWI_CHECK(blob, error, SINEW_RESULT_INVALID_ARGUMENT, "blob is NULL");
	SINEWI_CHECK(size >= 4, error, SINEW_RESULT_TRUNCATED, "blob of %zu bytes is shorter than the magic", size);
	SINEWI_CHECK(memcmp(blob, SINEW_FMT_MAGIC, 4) == 0, error, SINEW_RESULT_BAD_MAGIC, "not a sinew stream (bad magic)");
	SINEWI_CHECK(size >= SINEW_FMT_HEADER_SIZE, error, SINEW_RESULT_TRUNCATED, "blob of %zu bytes is shorter than its header",
	             size);
	uint32_t version = sinewi_rd16(blob + SINEW_FMT_HDR_VERSION);
	SINEWI_CHECK(version >= SINEW_FMT_VERSION_FIRST && version <= SINEW_FMT_VERSION_LATEST, error,
	             SINEW_RESULT_BAD_VERSION, "format version %u is not supported (this decoder reads %u..%u)", version,
	             SINEW_FMT_VERSION_FIRST, SINEW_FMT_VERSION_LATEST);
	SINEWI_CHECK(sinewi_rd16(blob + SINEW_FMT_HDR_HEADER_SIZE) == SINEW_FMT_HEADER_SIZE, error, SINEW_RESULT_CORRUPT,
	             "header size %u is not %u", sinewi_rd16(blob + SINEW_FMT_HDR_HEADER_SIZE), SINEW_FMT_HEADER_SIZE);
	uint32_t total = sinewi_rd32(blob + SINEW_FMT_HDR_TOTAL_SIZE);
	SINEWI_CHECK(total <= size, error, SINEW_RESULT_TRUNCATED, "blob declares %u bytes but %zu are available", total, size);
	SINEWI_CHECK(total == size, error, SINEW_RESULT_CORRUPT, "blob declares %u bytes but %zu were given (trailing bytes)",
	             total, size);
	SINEWI_CHECK(total % 16 == 0, error, SINEW_RESULT_CORRUPT, "blob size %u is not a multiple of 16", total);
	for (uint32_t i = 0; i < 12; ++i)
		SINEWI_CHECK(blob[SINEW_FMT_HDR_RESERVED + i] == 0, error, SINEW_RESULT_CORRUPT, "reserved header byte %u is not zero",
		             SINEW_FMT_HDR_RESERVED + i);
	if (check_checksum) {
		uint32_t want = sinewi_rd32(blob + SINEW_FMT_HDR_CHECKSUM);
		uint32_t got = sinewi_xxh32(blob + 16, size - 16, 0);
		SINEWI_CHECK(want == got, error, SINEW_RESULT_CHECKSUM, "checksum mismatch (stored %08x, computed %08x)", want, got);
	}
	uint32_t count = sinewi_rd32(blob + SINEW_FMT_HDR_CLIP_COUNT);
	SINEWI_CHECK(count >= 1 && (uint64_t)count * 4 <= size - SINEW_FMT_HEADER_SIZE, error, SINEW_RESULT_CORRUPT,
	             "clip count %u does not fit the blob", count);
	for (uint32_t i = 0; i < SINEW_FMT_TAIL_PADDING; ++i)
		SINEWI_CHECK(blob[size - 1 - i] == 0, error, SINEW_RESULT_CORRUPT, "tail padding byte is not zero");
	*clip_count = count;
	return SINEW_RESULT_OK;
}

static bool finite_f32(const unsigned char *p) {
	return isfinite(sinewi_rdf32(p));
}

// Checks the string at `offset` of a table lies inside it and ends with NUL.
static bool valid_string(const unsigned char *table, uint32_t table_size, uint32_t offset) {
	if (offset == SINEW_FMT_NO_STRING) return true;
	if (offset >= table_size) return false;
	return memchr(table + offset, 0, table_size - offset) != NULL;
}

static sinew_result check_metadata(const sinewi_clip_view *v, uint32_t meta_offset, uint32_t meta_end, sinew_error *error) {
	const unsigned char *m = v->clip + meta_offset;
	uint32_t avail = meta_end - meta_offset;
	SINEWI_CHECK(avail >= SINEW_FMT_META_HEADER_SIZE, error, SINEW_RESULT_CORRUPT, "metadata header truncated");
	uint32_t msize = sinewi_rd32(m), name = sinewi_rd32(m + 4), st_off = sinewi_rd32(m + 8), st_size = sinewi_rd32(m + 12);
	SINEWI_CHECK(msize == avail, error, SINEW_RESULT_CORRUPT, "metadata size %u does not end the clip (%u)", msize, avail);
	uint64_t fixed = SINEW_FMT_META_HEADER_SIZE + (uint64_t)v->joint_count * SINEW_FMT_META_JOINT_SIZE +
	                 (uint64_t)v->scalar_count * SINEW_FMT_META_SCALAR_SIZE;
	SINEWI_CHECK(st_off == fixed && (uint64_t)st_off + st_size == msize, error, SINEW_RESULT_CORRUPT,
	             "metadata string table at %u+%u does not match its layout", st_off, st_size);
	const unsigned char *table = m + st_off;
	SINEWI_CHECK(valid_string(table, st_size, name), error, SINEW_RESULT_CORRUPT, "clip name string out of range");
	for (uint32_t j = 0; j < v->joint_count; ++j) {
		const unsigned char *q = m + SINEW_FMT_META_HEADER_SIZE + (size_t)j * SINEW_FMT_META_JOINT_SIZE;
		int32_t parent = (int32_t)sinewi_rd32(q);
		SINEWI_CHECK(parent >= -1 && parent < (int32_t)j, error, SINEW_RESULT_CORRUPT, "metadata: joint %u parent %d", j, parent);
		SINEWI_CHECK(valid_string(table, st_size, sinewi_rd32(q + 8)), error, SINEW_RESULT_CORRUPT,
		             "metadata: joint %u name out of range", j);
		for (uint32_t k = 12; k < SINEW_FMT_META_JOINT_SIZE; k += 4)
			SINEWI_CHECK(finite_f32(q + k), error, SINEW_RESULT_CORRUPT, "metadata: joint %u has a non-finite value", j);
	}
	for (uint32_t i = 0; i < v->scalar_count; ++i) {
		const unsigned char *q = m + SINEW_FMT_META_HEADER_SIZE + (size_t)v->joint_count * SINEW_FMT_META_JOINT_SIZE +
		                         (size_t)i * SINEW_FMT_META_SCALAR_SIZE;
		SINEWI_CHECK(valid_string(table, st_size, sinewi_rd32(q)), error, SINEW_RESULT_CORRUPT,
		             "metadata: scalar track %u name out of range", i);
		for (uint32_t k = 12; k < SINEW_FMT_META_SCALAR_SIZE; k += 4)
			SINEWI_CHECK(finite_f32(q + k), error, SINEW_RESULT_CORRUPT, "metadata: scalar %u has a non-finite value", i);
	}
	return SINEW_RESULT_OK;
}

static sinew_result check_segment(const sinewi_clip_view *v, uint32_t s, const uint8_t *types, const uint8_t *comps,
                                  uint32_t begin, uint32_t end, sinew_error *error) {
	const uint32_t nt = v->track_count;
	const uint32_t groups = (nt + SINEW_FMT_GROUP_TRACKS - 1) / SINEW_FMT_GROUP_TRACKS;
	uint64_t header = (uint64_t)nt * SINEW_FMT_TRACK_DESCRIPTOR_SIZE + (uint64_t)v->stored_components * 2 + (uint64_t)groups * 4;
	SINEWI_CHECK(header <= end - begin, error, SINEW_RESULT_CORRUPT, "segment %u: header larger than the segment", s);
	const unsigned char *p = v->clip + begin;
	const unsigned char *group_offsets = p + (size_t)nt * SINEW_FMT_TRACK_DESCRIPTOR_SIZE + (size_t)v->stored_components * 2;
	uint32_t first = s * v->segment_length;
	uint32_t length = v->stored_sample_count - 1 - first;
	if (length > v->segment_length) length = v->segment_length;
	uint64_t bits = 0;
	for (uint32_t i = 0; i < nt; ++i) {
		const unsigned char *dp = p + (size_t)i * SINEW_FMT_TRACK_DESCRIPTOR_SIZE;
		uint32_t d = (uint32_t)dp[0] | ((uint32_t)dp[1] << 8) | ((uint32_t)dp[2] << 16);
		SINEWI_CHECK((d >> 22) == 0, error, SINEW_RESULT_CORRUPT, "segment %u track %u: reserved descriptor bits set", s, i);
		uint32_t per_knot = 0;
		uint32_t n = types[i] == 0 ? 3u : comps[i];
		uint32_t raw = 0;
		for (uint32_t c = 0; c < 4; ++c) {
			uint32_t w = (d >> (5 * c)) & 31u;
			if (c == 3 && types[i] == 0) {
				SINEWI_CHECK(w <= 3 && (raw == 0 || w == 0), error, SINEW_RESULT_CORRUPT,
				             "segment %u track %u: dropped component %u", s, i, w);
				continue;
			}
			SINEWI_CHECK(c < n || w == 0, error, SINEW_RESULT_CORRUPT, "segment %u track %u: width for a missing component",
			             s, i);
			SINEWI_CHECK(w <= SINEWI_MAX_WIDTH || w == SINEWI_WIDTH_RAW, error, SINEW_RESULT_CORRUPT,
			             "segment %u track %u: width code %u", s, i, w);
			raw += w == SINEWI_WIDTH_RAW;
			per_knot += sinewi_width_bits(w);
		}
		// raw rotations: all three width codes raw, four float32 components per knot
		SINEWI_CHECK(types[i] != 0 || raw == 0 || raw == 3, error, SINEW_RESULT_CORRUPT,
		             "segment %u track %u: rotation mixes raw and quantized components", s, i);
		if (types[i] == 0 && raw == 3) per_knot = 128;
		uint32_t dec = (d >> 20) & 3u;
		if (i % SINEW_FMT_GROUP_TRACKS == 0)
			SINEWI_CHECK(sinewi_rd32(group_offsets + 4 * (i / SINEW_FMT_GROUP_TRACKS)) == bits, error, SINEW_RESULT_CORRUPT,
			             "segment %u: bit offset of track group %u is wrong", s, i / SINEW_FMT_GROUP_TRACKS);
		bits += (uint64_t)sinewi_knot_count(length, dec) * per_knot;
	}
	SINEWI_CHECK(header + (bits + 7) / 8 == end - begin, error, SINEW_RESULT_CORRUPT,
	             "segment %u: %u bytes declared, %llu needed", s, end - begin,
	             (unsigned long long)(header + (bits + 7) / 8));
	return SINEW_RESULT_OK;
}

sinew_result sinewi_read_clip(const unsigned char *blob, size_t size, uint32_t index, sinewi_clip_view *v,
                              sinew_error *error) {
	uint32_t count;
	SINEWI_TRY(sinewi_read_header(blob, size, false, &count, error));
	SINEWI_CHECK(index < count, error, SINEW_RESULT_OUT_OF_RANGE, "clip %u of %u", index, count);
	memset(v, 0, sizeof *v);
	v->blob = blob;
	v->blob_size = size;
	uint32_t start = sinewi_rd32(blob + SINEW_FMT_HEADER_SIZE + 4 * index);
	uint32_t limit = (uint32_t)size - SINEW_FMT_TAIL_PADDING;
	uint32_t table_end = SINEW_FMT_HEADER_SIZE + 4 * count;
	SINEWI_CHECK(start % 16 == 0 && start >= table_end && start < limit && limit - start >= SINEW_FMT_CLIP_HEADER_SIZE, error,
	             SINEW_RESULT_CORRUPT, "clip %u offset %u out of range", index, start);
	const unsigned char *c = blob + start;
	v->clip = c;
	v->size = sinewi_rd32(c + SINEW_FMT_CLIP_SIZE);
	SINEWI_CHECK(v->size >= SINEW_FMT_CLIP_HEADER_SIZE && v->size <= limit - start, error, SINEW_RESULT_CORRUPT,
	             "clip %u size %u out of range", index, v->size);
	if (index + 1 < count) {
		uint32_t next = sinewi_rd32(blob + SINEW_FMT_HEADER_SIZE + 4 * (index + 1));
		SINEWI_CHECK(next >= start + v->size, error, SINEW_RESULT_CORRUPT, "clip %u overlaps clip %u", index, index + 1);
	}
	v->flags = sinewi_rd32(c + SINEW_FMT_CLIP_FLAGS);
	SINEWI_CHECK((v->flags & ~SINEW_FMT_FLAGS_KNOWN) == 0, error, SINEW_RESULT_CORRUPT, "clip %u: reserved flags %08x", index,
	             v->flags);
	v->sample_rate = sinewi_rdf64(c + SINEW_FMT_CLIP_SAMPLE_RATE);
	v->unit_scale = sinewi_rdf64(c + SINEW_FMT_CLIP_UNIT_SCALE);
	SINEWI_CHECK(isfinite(v->sample_rate) && v->sample_rate > 0.0 && isfinite(v->unit_scale) && v->unit_scale > 0.0, error,
	             SINEW_RESULT_CORRUPT, "clip %u: sample rate or unit scale is not a positive number", index);
	v->sample_count = sinewi_rd32(c + SINEW_FMT_CLIP_SAMPLE_COUNT);
	v->joint_count = sinewi_rd32(c + SINEW_FMT_CLIP_JOINT_COUNT);
	v->scalar_count = sinewi_rd32(c + SINEW_FMT_CLIP_SCALAR_COUNT);
	v->track_count = sinewi_rd32(c + SINEW_FMT_CLIP_TRACK_COUNT);
	v->segment_count = sinewi_rd32(c + SINEW_FMT_CLIP_SEGMENT_COUNT);
	v->segment_length = sinewi_rd32(c + SINEW_FMT_CLIP_SEGMENT_LENGTH);
	bool looping = (v->flags & SINEW_FMT_FLAG_LOOPING) != 0;
	SINEWI_CHECK(looping || !(v->flags & SINEW_FMT_FLAG_LAST_REPEATS_FIRST), error, SINEW_RESULT_CORRUPT,
	             "clip %u: Last_repeats_first without Looping", index);
	SINEWI_CHECK(v->sample_count >= 1 && v->sample_count < UINT32_MAX, error, SINEW_RESULT_CORRUPT, "clip %u: no samples", index);
	v->stored_sample_count = v->sample_count + (looping ? 1u : 0u);
	SINEWI_CHECK(v->joint_count <= SINEW_FMT_MAX_JOINTS && v->scalar_count <= SINEW_FMT_MAX_SCALARS &&
	                 v->joint_count + v->scalar_count > 0,
	             error, SINEW_RESULT_CORRUPT, "clip %u: %u joints, %u scalar tracks", index, v->joint_count, v->scalar_count);
	SINEWI_CHECK(v->segment_length >= 1 && v->segment_length <= 1024, error, SINEW_RESULT_CORRUPT,
	             "clip %u: segment length %u", index, v->segment_length);
	uint32_t intervals = v->stored_sample_count - 1;
	uint32_t want_segments = intervals == 0 ? 1 : (intervals - 1) / v->segment_length + 1;
	SINEWI_CHECK(v->segment_count == want_segments, error, SINEW_RESULT_CORRUPT, "clip %u: %u segments, expected %u", index,
	             v->segment_count, want_segments);

	// descriptors
	uint64_t desc_size = (uint64_t)(v->joint_count + v->scalar_count) * SINEW_FMT_DESCRIPTOR_SIZE;
	SINEWI_CHECK(SINEW_FMT_CLIP_HEADER_SIZE + desc_size <= v->size, error, SINEW_RESULT_CORRUPT,
	             "clip %u: descriptors exceed the clip", index);
	v->descriptors = c + SINEW_FMT_CLIP_HEADER_SIZE;
	uint64_t constant_bytes = 0, range_bytes = 0;
	uint32_t tracks = 0;
	// track types/components in track order, for the segment checks (bounded by 3*joints+scalars)
	uint8_t types_small[512], comps_small[512];
	uint64_t max_tracks = (uint64_t)v->joint_count * 3 + v->scalar_count;
	sinewi_alloc al = sinewi_alloc_from(NULL);
	uint8_t *types = types_small, *comps = comps_small;
	if (max_tracks > sizeof types_small) {
		types = (uint8_t *)sinewi_malloc(&al, (size_t)max_tracks * 2);
		SINEWI_CHECK(types, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
		comps = types + max_tracks;
	}
	sinew_result r = SINEW_RESULT_OK;
	for (uint32_t j = 0; j < v->joint_count && r == SINEW_RESULT_OK; ++j) {
		uint32_t k = v->descriptors[2 * j], b1 = v->descriptors[2 * j + 1], rounding = b1 & 15u;
		if ((k >> 6) != 0 || (b1 >> 6) != 0 || (rounding > 3 && rounding != SINEW_FMT_ROUNDING_CLIP)) {
			r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u joint %u: bad descriptor %02x %02x", index, j, k, b1);
			break;
		}
		for (uint32_t sub = 0; sub < 3; ++sub) {
			uint32_t kind = (k >> (2 * sub)) & 3u;
			if (kind == 1 || kind == 2) constant_bytes += 12;
			if (kind == 3) {
				types[tracks] = (uint8_t)sub, comps[tracks] = 3;
				range_bytes += sub == 0 ? 32 : 24;
				v->stored_components += 3;
				tracks++;
			}
		}
	}
	for (uint32_t i = 0; i < v->scalar_count && r == SINEW_RESULT_OK; ++i) {
		uint32_t k = v->descriptors[2 * ((size_t)v->joint_count + i)], rounding = v->descriptors[2 * ((size_t)v->joint_count + i) + 1];
		if ((k >> 4) != 0 || (rounding > 3 && rounding != SINEW_FMT_ROUNDING_CLIP)) {
			r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u scalar %u: bad descriptor %02x %02x", index, i, k, rounding);
			break;
		}
		uint32_t kind = k & 3u, n = ((k >> 2) & 3u) + 1;
		v->scalar_components += n;
		if (kind == 1 || kind == 2) constant_bytes += 4 * n;
		if (kind == 3) {
			types[tracks] = 3, comps[tracks] = (uint8_t)n;
			range_bytes += 8 * n;
			v->stored_components += n;
			tracks++;
		}
	}
	if (r == SINEW_RESULT_OK && tracks != v->track_count)
		r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u: %u animated tracks declared, descriptors give %u", index,
		                v->track_count, tracks);
	uint32_t constants_off = sinewi_rd32(c + SINEW_FMT_CLIP_CONSTANTS_OFFSET);
	uint32_t ranges_off = sinewi_rd32(c + SINEW_FMT_CLIP_RANGES_OFFSET);
	uint32_t segments_off = sinewi_rd32(c + SINEW_FMT_CLIP_SEGMENTS_OFFSET);
	uint32_t meta_off = sinewi_rd32(c + SINEW_FMT_CLIP_METADATA_OFFSET);
	uint64_t desc_end = SINEW_FMT_CLIP_HEADER_SIZE + desc_size;
	if (r == SINEW_RESULT_OK &&
	    !(constants_off % 4 == 0 && constants_off >= desc_end && constants_off - desc_end < 4 &&
	      (uint64_t)constants_off + constant_bytes == ranges_off && (uint64_t)ranges_off + range_bytes == segments_off &&
	      (uint64_t)segments_off + ((uint64_t)v->segment_count + 1) * 4 <= v->size))
		r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u: section offsets are inconsistent", index);
	if (r == SINEW_RESULT_OK) {
		v->constants = c + constants_off;
		v->ranges = c + ranges_off;
		v->segment_table = c + segments_off;
		for (uint64_t b = 0; b < constant_bytes && r == SINEW_RESULT_OK; b += 4)
			if (!finite_f32(v->constants + b))
				r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u: non-finite constant", index);
		for (uint64_t b = 0; b < range_bytes && r == SINEW_RESULT_OK; b += 4)
			if (!finite_f32(v->ranges + b)) r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u: non-finite range", index);
	}
	uint32_t seg_end = 0;
	for (uint32_t s = 0; s < v->segment_count && r == SINEW_RESULT_OK; ++s) {
		uint32_t begin = sinewi_rd32(v->segment_table + 4 * s), end = sinewi_rd32(v->segment_table + 4 * (s + 1));
		uint32_t expect = s == 0 ? segments_off + (v->segment_count + 1) * 4 : seg_end;
		if (begin != expect || end < begin || end > v->size)
			r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u segment %u: offsets %u..%u out of range", index, s, begin, end);
		else
			r = check_segment(v, s, types, comps, begin, end, error);
		seg_end = end;
	}
	if (types != types_small) sinewi_free(&al, types, (size_t)max_tracks * 2);
	SINEWI_TRY(r);
	bool has_meta = (v->flags & SINEW_FMT_FLAG_METADATA) != 0;
	if (has_meta) {
		SINEWI_CHECK(meta_off >= seg_end && meta_off - seg_end < 4 && meta_off % 4 == 0 && meta_off < v->size, error,
		             SINEW_RESULT_CORRUPT, "clip %u: metadata offset %u out of range", index, meta_off);
		SINEWI_TRY(check_metadata(v, meta_off, v->size, error));
		v->metadata = c + meta_off;
	} else {
		SINEWI_CHECK(meta_off == 0 && seg_end == v->size, error, SINEW_RESULT_CORRUPT,
		             "clip %u: size %u does not end at its last segment (%u)", index, v->size, seg_end);
	}
	return SINEW_RESULT_OK;
}

sinew_result sinew_validate(const void *blob, size_t size, sinew_error *error) {
	uint32_t count;
	SINEWI_TRY(sinewi_read_header((const unsigned char *)blob, size, true, &count, error));
	for (uint32_t i = 0; i < count; ++i) {
		sinewi_clip_view v;
		SINEWI_TRY(sinewi_read_clip((const unsigned char *)blob, size, i, &v, error));
	}
	return SINEW_RESULT_OK;
}

uint32_t sinew_blob_clip_count(const void *blob, size_t size) {
	uint32_t count = 0;
	if (sinewi_read_header((const unsigned char *)blob, size, false, &count, NULL) != SINEW_RESULT_OK) return 0;
	return count;
}

sinew_result sinew_blob_clip_info(const void *blob, size_t size, uint32_t clip, sinew_clip_info *out, sinew_error *error) {
	SINEWI_CHECK(out, error, SINEW_RESULT_INVALID_ARGUMENT, "clip_info: NULL argument");
	sinewi_clip_view v;
	SINEWI_TRY(sinewi_read_clip((const unsigned char *)blob, size, clip, &v, error));
	memset(out, 0, sizeof *out);
	out->sample_rate = v.sample_rate;
	// samples of the source: a looping source whose last sample repeated the first had one more
	out->sample_count = v.sample_count + ((v.flags & SINEW_FMT_FLAG_LAST_REPEATS_FIRST) ? 1u : 0u);
	out->joint_count = v.joint_count;
	out->scalar_track_count = v.scalar_count;
	out->segment_count = v.segment_count;
	out->looping = (v.flags & SINEW_FMT_FLAG_LOOPING) != 0;
	out->duration = (double)(v.stored_sample_count - 1) / v.sample_rate;
	out->unit_scale = v.unit_scale;
	out->has_metadata = v.metadata != NULL;
	out->size = v.size;
	if (v.metadata) {
		uint32_t name = sinewi_rd32(v.metadata + 4);
		if (name != SINEW_FMT_NO_STRING) out->name = (const char *)v.metadata + sinewi_rd32(v.metadata + 8) + name;
	}
	return SINEW_RESULT_OK;
}
