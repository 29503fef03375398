// sinew — see include/sinew.h for version and licence
// Validation of untrusted blobs. Everything the decoder later trusts is checked here: after
// sinewi_read_clip succeeds, sampling cannot read outside the blob whatever the payload says.
#include "format_read.h"

#include <math.h>
#include <string.h>

#include "../core/bits.h"
#include "../core/codec_math.h"
#include "../core/hash.h"
#include "../core/format_layout.h"

// Version 3 (docs/format.md §blob header): a 20-byte header (24 paged), clips packed one after another from
// the end of the clip offset table, the rig after them, then zeros to at least 8 bytes past the clips.
static sinew_result read_blob_header_v3(const unsigned char *blob, size_t size, bool check_checksum, sinewi_blob_header *h,
                                        sinew_error *error) {
	const uint32_t flags = sinewi_rd16(blob + SINEW_FMT_V3_HDR_BLOB_FLAGS);
	SINEWI_CHECK((flags & ~SINEW_FMT_BLOB_FLAGS_KNOWN) == 0, error, SINEW_RESULT_CORRUPT, "reserved blob flags %04x", flags);
	const bool paged = (flags & SINEW_FMT_BLOB_PAGED) != 0;
	SINEWI_CHECK(SINEWI_PAGES || !paged, error, SINEW_RESULT_UNSUPPORTED, "paged blobs are not supported by this build");
	const uint32_t header = SINEW_FMT_V3_HEADER_SIZE + (paged ? 4u : 0u);
	SINEWI_CHECK(size >= header, error, SINEW_RESULT_TRUNCATED, "blob of %zu bytes is shorter than its header", size);
	const uint32_t total = sinewi_rd32(blob + SINEW_FMT_HDR_TOTAL_SIZE);
	const uint32_t resident = paged ? sinewi_rd32(blob + SINEW_FMT_V3_HDR_RESIDENT_SIZE) : 0u;
	const bool resident_only = paged && size == resident && resident < total;
	SINEWI_CHECK(total <= size || resident_only, error, SINEW_RESULT_TRUNCATED, "blob declares %u bytes but %zu are available",
	             total, size);
	SINEWI_CHECK(total == size || resident_only, error, SINEW_RESULT_CORRUPT,
	             "blob declares %u bytes but %zu were given (trailing bytes)", total, size);
	SINEWI_CHECK(total % 4 == 0, error, SINEW_RESULT_CORRUPT, "blob size %u is not a multiple of 4", total);
	if (paged)
		SINEWI_CHECK(resident % 4 == 0 && resident < total && resident >= header + 4, error, SINEW_RESULT_CORRUPT,
		             "resident size %u out of range", resident);
	const uint32_t covered = paged ? resident : total;
	if (check_checksum) {
		uint32_t want = sinewi_rd32(blob + SINEW_FMT_HDR_CHECKSUM), got = sinewi_xxh32(blob + 16, covered - 16, 0);
		SINEWI_CHECK(want == got, error, SINEW_RESULT_CHECKSUM, "checksum mismatch (stored %08x, computed %08x)", want, got);
	}
	const uint32_t count = sinewi_rd32(blob + SINEW_FMT_HDR_CLIP_COUNT);
	SINEWI_CHECK(count >= 1 && (uint64_t)count * 4 <= covered - header, error, SINEW_RESULT_CORRUPT,
	             "clip count %u does not fit the blob", count);
	// the clips follow each other from the end of the offset table, each at a multiple of 4
	uint64_t expect = header + (uint64_t)count * 4, end = expect;
	for (uint32_t i = 0; i < count; ++i) {
		const uint32_t at = sinewi_rd32(blob + header + 4 * i);
		SINEWI_CHECK(at == ((end + 3) & ~(uint64_t)3) && (uint64_t)at + SINEW_FMT_V3_CLIP_HEADER_SIZE <= covered, error,
		             SINEW_RESULT_CORRUPT, "clip %u offset %u out of range", i, at);
		for (uint64_t b = end; b < at; ++b)
			SINEWI_CHECK(blob[b] == 0, error, SINEW_RESULT_CORRUPT, "clip %u: padding before it is not zero", i);
		const uint32_t clip_size = sinewi_rd32(blob + at);
		SINEWI_CHECK(clip_size >= SINEW_FMT_V3_CLIP_HEADER_SIZE && clip_size <= covered - at, error, SINEW_RESULT_CORRUPT,
		             "clip %u size %u out of range", i, clip_size);
		end = (uint64_t)at + clip_size;
	}
	(void)expect;
	const uint32_t rig_at = (uint32_t)((end + 3) & ~(uint64_t)3);
	for (uint64_t b = end; b < rig_at; ++b)
		SINEWI_CHECK(b < covered && blob[b] == 0, error, SINEW_RESULT_CORRUPT, "padding before the rig is not zero");
	sinewi_clip_view rig;
	memset(&rig, 0, sizeof rig);
	uint32_t rig_end = 0;
	SINEWI_TRY(sinewi_read_rig(blob, rig_at, covered, count, &rig, &rig_end, error));
	uint64_t want_end = rig_end > end + SINEW_FMT_TAIL_PADDING ? rig_end : end + SINEW_FMT_TAIL_PADDING;
	want_end = (want_end + 3) & ~(uint64_t)3;
	SINEWI_CHECK(covered == want_end, error, SINEW_RESULT_CORRUPT, "the resident part ends at %u, expected %llu", covered,
	             (unsigned long long)want_end);
	for (uint64_t b = rig_end; b < covered; ++b)
		SINEWI_CHECK(blob[b] == 0, error, SINEW_RESULT_CORRUPT, "tail byte %llu is not zero", (unsigned long long)b);
	h->version = 3;
	h->clip_count = count;
	h->total_size = total;
	h->resident_size = covered;
	h->paged = paged;
	h->pages_given = size == total;
	h->blob_flags = flags;
	h->table = header;
	h->clips_end = (uint32_t)end;
	h->rig_offset = rig_at;
	return SINEW_RESULT_OK;
}

sinew_result sinewi_read_blob_header(const unsigned char *blob, size_t size, bool check_checksum, sinewi_blob_header *h,
                                     sinew_error *error) {
	SINEWI_CHECK(blob, error, SINEW_RESULT_INVALID_ARGUMENT, "blob is NULL");
	SINEWI_CHECK(size >= 4, error, SINEW_RESULT_TRUNCATED, "blob of %zu bytes is shorter than the magic", size);
	SINEWI_CHECK(memcmp(blob, SINEW_FMT_MAGIC, 4) == 0, error, SINEW_RESULT_BAD_MAGIC, "not a sinew stream (bad magic)");
	SINEWI_CHECK(size >= 8, error, SINEW_RESULT_TRUNCATED, "blob of %zu bytes is shorter than its header", size);
	uint32_t version = sinewi_rd16(blob + SINEW_FMT_HDR_VERSION);
	SINEWI_CHECK(version >= SINEW_FMT_VERSION_FIRST && version <= SINEW_FMT_VERSION_LATEST, error,
	             SINEW_RESULT_BAD_VERSION, "format version %u is not supported (this decoder reads %u..%u)", version,
	             SINEW_FMT_VERSION_FIRST, SINEW_FMT_VERSION_LATEST);
	memset(h, 0, sizeof *h);
	if (version >= 3) return read_blob_header_v3(blob, size, check_checksum, h, error);
	SINEWI_CHECK(SINEWI_LEGACY, error, SINEW_RESULT_BAD_VERSION,
	             "format version %u: this decoder (the web runtime) reads format 3 only: compress the source again "
	             "(sinew compress), or play the blob with the native library, which reads formats 1 to 3", version);
	SINEWI_CHECK(size >= SINEW_FMT_HEADER_SIZE, error, SINEW_RESULT_TRUNCATED, "blob of %zu bytes is shorter than its header",
	             size);
	SINEWI_CHECK(sinewi_rd16(blob + SINEW_FMT_HDR_HEADER_SIZE) == SINEW_FMT_HEADER_SIZE, error, SINEW_RESULT_CORRUPT,
	             "header size %u is not %u", sinewi_rd16(blob + SINEW_FMT_HDR_HEADER_SIZE), SINEW_FMT_HEADER_SIZE);
	uint32_t total = sinewi_rd32(blob + SINEW_FMT_HDR_TOTAL_SIZE);
	uint32_t resident = version >= 2 ? sinewi_rd32(blob + SINEW_FMT_HDR_RESIDENT_SIZE) : 0u;
	uint32_t align = version >= 2 ? 4u : 16u;
	// a paged blob may be given whole or as its resident part alone (its pages come later)
	bool resident_only = resident != 0 && size == resident && resident < total;
	SINEWI_CHECK(total <= size || resident_only, error, SINEW_RESULT_TRUNCATED,
	             "blob declares %u bytes but %zu are available", total, size);
	SINEWI_CHECK(total == size || resident_only, error, SINEW_RESULT_CORRUPT,
	             "blob declares %u bytes but %zu were given (trailing bytes)", total, size);
	SINEWI_CHECK(total % align == 0, error, SINEW_RESULT_CORRUPT, "blob size %u is not a multiple of %u", total, align);
	uint32_t reserved_at = version >= 2 ? SINEW_FMT_HDR_RESERVED_V2 : SINEW_FMT_HDR_RESERVED;
	for (uint32_t i = reserved_at; i < SINEW_FMT_HEADER_SIZE; ++i)
		SINEWI_CHECK(blob[i] == 0, error, SINEW_RESULT_CORRUPT, "reserved header byte %u is not zero", i);
	SINEWI_CHECK(SINEWI_PAGES || !resident, error, SINEW_RESULT_UNSUPPORTED, "paged blobs are not supported by this build");
	if (resident) {
		SINEWI_CHECK(resident % 4 == 0 && resident < total && resident >= SINEW_FMT_HEADER_SIZE + SINEW_FMT_TAIL_PADDING,
		             error, SINEW_RESULT_CORRUPT, "resident size %u out of range", resident);
	}
	uint32_t covered = resident ? resident : total; // bytes the header checksum and clip offsets describe
	if (check_checksum) {
		uint32_t want = sinewi_rd32(blob + SINEW_FMT_HDR_CHECKSUM);
		uint32_t got = sinewi_xxh32(blob + 16, covered - 16, 0);
		SINEWI_CHECK(want == got, error, SINEW_RESULT_CHECKSUM, "checksum mismatch (stored %08x, computed %08x)", want, got);
	}
	uint32_t count = sinewi_rd32(blob + SINEW_FMT_HDR_CLIP_COUNT);
	SINEWI_CHECK(count >= 1 && (uint64_t)count * 4 <= covered - SINEW_FMT_HEADER_SIZE, error, SINEW_RESULT_CORRUPT,
	             "clip count %u does not fit the blob", count);
	for (uint32_t i = 0; i < SINEW_FMT_TAIL_PADDING; ++i)
		SINEWI_CHECK(blob[covered - 1 - i] == 0, error, SINEW_RESULT_CORRUPT, "tail padding byte is not zero");
	h->version = version;
	h->clip_count = count;
	h->total_size = total;
	h->resident_size = covered;
	h->paged = resident != 0;
	h->pages_given = size == total;
	h->table = SINEW_FMT_HEADER_SIZE;
	return SINEW_RESULT_OK;
}

sinew_result sinewi_read_header(const unsigned char *blob, size_t size, bool check_checksum, uint32_t *clip_count,
                                sinew_error *error) {
	sinewi_blob_header h;
	SINEWI_TRY(sinewi_read_blob_header(blob, size, check_checksum, &h, error));
	*clip_count = h.clip_count;
	return SINEW_RESULT_OK;
}

float sinewi_constant_value(const unsigned char *values, uint32_t i, uint32_t size) {
	// a 2- or 3-byte value is the high 16 or 24 bits of an f32 (little-endian): the low bytes of the 32
	// bits read at it (constants are followed by the ranges, ranges by the segment or page table, so
	// the read stays in the clip), shifted up
	uint32_t u = sinewi_rd32(values + (size_t)i * size) << (8u * (4u - size));
	float f;
	memcpy(&f, &u, 4);
	return f;
}

float sinewi_range_value(const unsigned char *ranges, uint32_t i, uint32_t half) {
	return sinewi_constant_value(ranges, i, 4u >> half);
}

// Advances *bytes over the n values of a kind-1/2 sub-track (f32; a constant's are `short_size` bytes)
// and tells whether they are finite (values beyond the clip are left to the offset checks).
static bool constants_finite(const unsigned char *clip, uint64_t constants_at, uint64_t *bytes, uint32_t n, uint32_t kind,
                             uint32_t short_size, uint32_t clip_size) {
	const uint32_t size = kind == 1 ? 4u : short_size;
	bool finite = true;
	for (uint32_t i = 0; i < n; ++i, *bytes += size) {
		uint64_t at = constants_at + *bytes;
		finite &= at + 4 > clip_size || isfinite(sinewi_constant_value(clip + at, 0, size));
	}
	return finite;
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

// Checks segment s whose `size` bytes start at `p`.
static sinew_result check_segment(const sinewi_clip_view *v, uint32_t s, const uint8_t *types, const uint8_t *comps,
                                  size_t stride, const unsigned char *p, uint32_t size, sinew_error *error) {
	const uint32_t nt = v->track_count, ds = v->track_descriptor_size;
	// versions 1 and 2: a bit offset per group of 8 tracks (version 3 has none: its tracks are in rows)
	const uint32_t groups = v->version >= 3 ? 0u : (nt + SINEW_FMT_GROUP_TRACKS - 1) / SINEW_FMT_GROUP_TRACKS;
	uint64_t header = (uint64_t)nt * ds + v->segment_range_bytes + (uint64_t)groups * 4;
	SINEWI_CHECK(header <= size, error, SINEW_RESULT_CORRUPT, "segment %u: header larger than the segment", s);
	const unsigned char *group_offsets = p + (size_t)nt * ds + v->segment_range_bytes;
	uint32_t first = s * v->segment_length;
	uint32_t length = v->stored_sample_count - 1 - first;
	if (length > v->segment_length) length = v->segment_length;
	uint64_t bits = 0;
	for (uint32_t i = 0; i < nt; ++i) {
		const uint32_t type = types[i * stride], ncomp = comps[i * stride];
		uint64_t d = sinewi_track_descriptor(p, i, ds);
		SINEWI_CHECK(((d >> 22) & 3u) == 0 && (d >> 40) == 0, error, SINEW_RESULT_CORRUPT,
		             "segment %u track %u: reserved descriptor bits set", s, i);
		uint32_t per_knot = 0, residual = 0, shifted = 0, bad_shift = 0;
		uint32_t n = type == 0 ? 3u : ncomp;
		uint32_t raw = 0;
		for (uint32_t c = 0; c < 4; ++c) {
			uint32_t w = (uint32_t)(d >> (5 * c)) & 31u, shift = sinewi_descriptor_shift(d, c);
			// Midpoint_knots: a slot's Shift is at most its width; none for missing slots (nor raw ones: below)
			bad_shift |= shift > (c < n && (c < 3 || type != 0) ? w : 0u);
			shifted |= shift;
			if (c == 3 && type == 0) {
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
			residual += sinewi_width_bits(w) - shift;
		}
		// raw rotations: all three width codes raw, four float32 components per knot
		SINEWI_CHECK(type != 0 || raw == 0 || raw == 3, error, SINEW_RESULT_CORRUPT,
		             "segment %u track %u: rotation mixes raw and quantized components", s, i);
		if (type == 0 && raw == 3) per_knot = residual = 128;
		SINEWI_CHECK(!bad_shift && (!shifted || !raw), error, SINEW_RESULT_CORRUPT, "segment %u track %u: bad shift", s, i);
		uint32_t dec = (uint32_t)(d >> 20) & 3u;
		if (groups && i % SINEW_FMT_GROUP_TRACKS == 0)
			SINEWI_CHECK(sinewi_rd32(group_offsets + 4 * (i / SINEW_FMT_GROUP_TRACKS)) == bits, error, SINEW_RESULT_CORRUPT,
			             "segment %u: bit offset of track group %u is wrong", s, i / SINEW_FMT_GROUP_TRACKS);
		bits += sinewi_track_bits(sinewi_knot_count(length, dec), per_knot, residual);
	}
	SINEWI_CHECK(header + (bits + 7) / 8 == size, error, SINEW_RESULT_CORRUPT, "segment %u: %u bytes declared, %llu needed",
	             s, size, (unsigned long long)(header + (bits + 7) / 8));
	return SINEW_RESULT_OK;
}

#if SINEWI_PAGES
void sinewi_page_entry_of(const sinewi_clip_view *v, uint32_t page, sinewi_page_entry *out) {
	const unsigned char *e = v->page_table + (size_t)page * SINEW_FMT_PAGE_ENTRY_SIZE;
	out->first_segment = sinewi_rd32(e);
	out->segment_count = sinewi_rd32(e + 4);
	out->offset = sinewi_rd32(e + 8);
	out->size = sinewi_rd32(e + 12);
	out->checksum = sinewi_rd32(e + 16);
}

sinew_result sinewi_check_page(const sinewi_clip_view *v, uint32_t page, const unsigned char *bytes, size_t size,
                               bool check_checksum, const uint8_t *types, const uint8_t *comps, size_t stride,
                               sinew_error *error) {
	SINEWI_CHECK(page < v->page_count, error, SINEW_RESULT_OUT_OF_RANGE, "page %u of %u", page, v->page_count);
	SINEWI_CHECK(bytes, error, SINEW_RESULT_INVALID_ARGUMENT, "page %u: NULL bytes", page);
	sinewi_page_entry e;
	sinewi_page_entry_of(v, page, &e);
	SINEWI_CHECK(size == e.size, error, size < e.size ? SINEW_RESULT_TRUNCATED : SINEW_RESULT_CORRUPT,
	             "page %u: %zu bytes given, the page table says %u", page, size, e.size);
	if (check_checksum) {
		uint32_t got = sinewi_xxh32(bytes, size, page);
		SINEWI_CHECK(got == e.checksum, error, SINEW_RESULT_CHECKSUM, "page %u: checksum mismatch (table %08x, page %08x)",
		             page, e.checksum, got);
	}
	// the table was checked with the clip: size >= 4 * (count + 1) + tail
	uint32_t at = 4u * (e.segment_count + 1);
	for (uint32_t k = 0; k < e.segment_count; ++k) {
		uint32_t begin = sinewi_rd32(bytes + 4 * k), end = sinewi_rd32(bytes + 4 * (k + 1));
		SINEWI_CHECK(begin == at && end >= begin && end <= e.size - SINEW_FMT_PAGE_TAIL, error, SINEW_RESULT_CORRUPT,
		             "page %u segment %u: offsets %u..%u out of range", page, e.first_segment + k, begin, end);
		SINEWI_TRY(check_segment(v, e.first_segment + k, types, comps, stride, bytes + begin, end - begin, error));
		at = end;
	}
	SINEWI_CHECK(e.size - at >= SINEW_FMT_PAGE_TAIL && e.size - at < SINEW_FMT_PAGE_TAIL + 4, error, SINEW_RESULT_CORRUPT,
	             "page %u: %u bytes after its last segment, expected 8 to 11", page, e.size - at);
	for (uint32_t i = at; i < e.size; ++i)
		SINEWI_CHECK(bytes[i] == 0, error, SINEW_RESULT_CORRUPT, "page %u: padding byte %u is not zero", page, i);
	return SINEW_RESULT_OK;
}
#endif

uint32_t sinewi_curve_record(const unsigned char *p, uint64_t avail, uint32_t n, uint32_t half, sinewi_curve_entry *e) {
	const uint32_t vb = 4u >> half;
	uint64_t at = 6 + 2 * (uint64_t)n;
	if (avail < at || sinewi_rd16(p + 4) == 0) return 0; // (and a curve has a key)
	const uint32_t curve = sinewi_rd16(p), cubic = curve == 2u;
	// what a decoder does not rely on to stay inside the blob, the web runtime's JS checks (web/sinew.mjs): the
	// interpolation, reserved bits, widths up to 24, no tangents without CUBICSPLINE, finite ranges
	bool ok = !SINEWI_LEGACY || curve < 3u;
	e->interpolation = (uint8_t)curve, e->n = (uint8_t)n, e->first = sinewi_rd16(p + 2), e->keys = sinewi_rd16(p + 4);
	e->bits[0] = e->bits[1] = 0;
	for (uint32_t c = 0; c < n; ++c) {
		const uint32_t w = sinewi_rd16(p + 6 + 2 * c);
		ok &= !SINEWI_LEGACY || ((w >> 10) == 0 && (cubic || (w >> 5) == 0));
		for (uint32_t f = 0; f <= cubic; ++f) { // the value's range, then the tangents': Min, and Extent when quantized
			const uint32_t fw = (w >> (5 * f)) & 31u, count = fw ? 2u : 1u;
			if (at + (uint64_t)count * vb > avail) return 0;
			const float lo = sinewi_range_value(p + at, 0, half), ext = fw ? sinewi_range_value(p + at, 1, half) : 0.0f;
			ok &= !SINEWI_LEGACY || (fw <= SINEWI_MAX_WIDTH && isfinite(lo) && isfinite(ext));
			e->w[f][c] = (uint8_t)fw, e->lo[f][c] = lo, e->step[f][c] = sinewi_quant_step(fw, ext);
			e->bits[f] = (uint8_t)(e->bits[f] + fw);
			at += (uint64_t)count * vb;
		}
	}
	e->key_bits = e->bits[0] + 2u * e->bits[1];
	return ok ? (uint32_t)at : 0u;
}

// The curve block at clip offset `at` (docs/format.md §curves): key times, then a record per animated track, then the
// keys' bits; it ends the clip exactly.
static sinew_result check_curves(sinewi_clip_view *v, uint32_t index, const uint8_t *types, const uint8_t *comps, uint32_t at,
                                 sinew_error *error) {
	const unsigned char *c = v->clip;
	const uint64_t end = v->size;
	const uint32_t count = at + 2 <= end ? sinewi_rd16(c + at) : 0u;
	const uint64_t times = (uint64_t)at + 2;
	uint64_t p = times + 4ull * count, bits = 0;
	bool ok = (!SINEWI_LEGACY || v->track_count >= 1) && count >= 1 && p <= end;
	for (uint32_t i = 0; i < v->track_count && ok; ++i) {
		sinewi_curve_entry e;
		const uint32_t size = sinewi_curve_record(c + p, end - p, types[i] == 0 ? 4u : comps[i], v->half_ranges, &e);
		ok = size && e.first + e.keys <= count;
		// its key times: finite, >= 0, non-decreasing (the web runtime's JS checks them: web/sinew.mjs)
		for (uint32_t k = 0; k < e.keys && ok && SINEWI_LEGACY; ++k) {
			const float t = sinewi_rdf32(c + times + 4ull * (e.first + k));
			ok = isfinite(t) && t >= (k ? sinewi_rdf32(c + times + 4ull * (e.first + k - 1)) : 0.0f);
		}
		bits += ok ? (uint64_t)e.keys * e.key_bits : 0u;
		p += size;
	}
	SINEWI_CHECK(ok && p + (bits + 7) / 8 == end, error, SINEW_RESULT_CORRUPT,
	             "clip %u: the curve block is malformed (its key times, a curve record, or its size: %llu bytes, %llu needed)",
	             index, (unsigned long long)(end - at), (unsigned long long)(p - at + (bits + 7) / 8));
	v->curves = c + at, v->curve_time_count = count, v->curve_times = c + times, v->curve_records = c + times + 4ull * count;
	v->curve_bits = c + p;
	return SINEW_RESULT_OK;
}

// The time map at clip offset `at`: Mark_count >= 2 marks, times finite, >= 0 and increasing, samples from 0 to
// the last stored sample, increasing; not with Looping. Version 2: 8 bytes per mark (f32 time, u32 sample);
// version 3: the times, then the samples of the inner marks (u16 or u32) unless every sample is a mark.
static sinew_result check_time_map(sinewi_clip_view *v, uint32_t index, uint64_t at, bool looping, uint64_t *bytes,
                                   sinew_error *error) {
	SINEWI_CHECK(!looping, error, SINEW_RESULT_CORRUPT, "clip %u: Time_map with Looping", index);
	SINEWI_CHECK(at + 4 <= v->size, error, SINEW_RESULT_CORRUPT, "clip %u: time map exceeds the clip", index);
	const uint32_t n = sinewi_rd32(v->clip + at);
	uint64_t size = 4 + (uint64_t)n * SINEW_FMT_MARK_SIZE;
	v->mark_sample_size = 0;
	if (v->version >= 3) {
		if (n < v->stored_sample_count) v->mark_sample_size = v->stored_sample_count <= 65536u ? 2u : 4u;
		size = 4 + 4 * (uint64_t)n + (n >= 2 ? (uint64_t)(n - 2) * v->mark_sample_size : 0u);
		size = (size + 3) & ~(uint64_t)3;
	}
	SINEWI_CHECK(n >= 2 && n <= v->stored_sample_count && at + size <= v->size, error, SINEW_RESULT_CORRUPT,
	             "clip %u: %u time marks for %u samples", index, n, v->stored_sample_count);
	v->time_map = v->clip + at + 4, v->mark_count = n;
	for (uint64_t b = 4 + 4 * (uint64_t)n + (uint64_t)(n - 2) * v->mark_sample_size; v->version >= 3 && b < size; ++b)
		SINEWI_CHECK(v->clip[at + b] == 0, error, SINEW_RESULT_CORRUPT, "clip %u: time map padding is not zero", index);
	for (uint32_t i = 0; i < n; ++i) {
		double t = sinewi_mark_time(v, i);
		uint32_t s = sinewi_mark_sample(v, i);
		bool ok = isfinite(t) && t >= 0.0 && (i == 0 ? s == 0 : (s > sinewi_mark_sample(v, i - 1) && t > sinewi_mark_time(v, i - 1)));
		SINEWI_CHECK(ok && (i + 1 < n || s == v->stored_sample_count - 1), error, SINEW_RESULT_CORRUPT,
		             "clip %u: time mark %u (%g s, sample %u) out of order", index, i, t, s);
	}
	*bytes = size;
	return SINEW_RESULT_OK;
}

double sinewi_mark_time(const sinewi_clip_view *v, uint32_t m) {
	return sinewi_rdf32(v->time_map + (size_t)m * (v->version >= 3 ? 4u : SINEW_FMT_MARK_SIZE));
}

uint32_t sinewi_mark_sample(const sinewi_clip_view *v, uint32_t m) {
	if (v->version < 3) return sinewi_rd32(v->time_map + (size_t)m * SINEW_FMT_MARK_SIZE + 4);
	if (!v->mark_sample_size) return m;
	if (m == 0) return 0;
	if (m + 1 == v->mark_count) return v->stored_sample_count - 1;
	const unsigned char *p = v->time_map + 4 * (size_t)v->mark_count + (size_t)(m - 1) * v->mark_sample_size;
	return v->mark_sample_size == 2 ? sinewi_rd16(p) : sinewi_rd32(p);
}

double sinewi_view_key(const sinewi_clip_view *v, double t) {
	const double last = (double)(v->stored_sample_count - 1);
	if (!v->mark_count) {
		double key = t * v->sample_rate;
		return !(key > 0.0) ? 0.0 : key > last ? last : key; // NaN gives 0
	}
	if (!(t > sinewi_mark_time(v, 0))) return 0.0;
	uint32_t lo = 0, hi = v->mark_count - 1; // sinewi_mark_time(lo) < t; find the last mark with time <= t
	if (t >= sinewi_mark_time(v, hi)) return last;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (sinewi_mark_time(v, mid) <= t) lo = mid;
		else hi = mid;
	}
	return sinewi_map_key(t, sinewi_mark_time(v, lo), sinewi_mark_time(v, lo + 1), sinewi_mark_sample(v, lo), sinewi_mark_sample(v, lo + 1));
}

double sinewi_view_time(const sinewi_clip_view *v, double key) {
	if (!v->mark_count) return key / v->sample_rate;
	uint32_t lo = 0, hi = v->mark_count - 1; // the last mark with sample <= key, below the last mark
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if ((double)sinewi_mark_sample(v, mid) <= key) lo = mid;
		else hi = mid;
	}
	return sinewi_map_time(key, sinewi_mark_time(v, lo), sinewi_mark_time(v, lo + 1), sinewi_mark_sample(v, lo), sinewi_mark_sample(v, lo + 1));
}

double sinewi_view_duration(const sinewi_clip_view *v) {
	return v->mark_count ? sinewi_mark_time(v, v->mark_count - 1) : (double)(v->stored_sample_count - 1) / v->sample_rate;
}

// Version 1 header fields (64 bytes, offsets stored) or version 2 (36 bytes, offsets derived).
static sinew_result read_clip_header(const sinewi_blob_header *h, const unsigned char *c, uint32_t index, sinewi_clip_view *v,
                                     uint32_t offsets[4], sinew_error *error) {
	const bool v2 = h->version >= 2;
	const uint32_t header_size = v2 ? SINEW_FMT_CLIP_HEADER_SIZE_V2 : SINEW_FMT_CLIP_HEADER_SIZE;
	v->size = sinewi_rd32(c + SINEW_FMT_CLIP_SIZE);
	v->flags = sinewi_rd32(c + SINEW_FMT_CLIP_FLAGS);
	v->sample_rate = sinewi_rdf64(c + SINEW_FMT_CLIP_SAMPLE_RATE);
	v->unit_scale = sinewi_rdf64(c + SINEW_FMT_CLIP_UNIT_SCALE);
	v->sample_count = sinewi_rd32(c + SINEW_FMT_CLIP_SAMPLE_COUNT);
	SINEWI_CHECK((v->flags & ~(v2 ? SINEW_FMT_FLAGS_KNOWN_V2 : SINEW_FMT_FLAGS_KNOWN)) == 0, error, SINEW_RESULT_CORRUPT,
	             "clip %u: reserved flags %08x", index, v->flags);
	SINEWI_CHECK(((v->flags & SINEW_FMT_FLAG_PAGED) != 0) == h->paged, error, SINEW_RESULT_CORRUPT,
	             "clip %u: %s in a blob %s pages", index, h->paged ? "not paged" : "paged", h->paged ? "with" : "without");
	if (v2) {
		v->joint_count = sinewi_rd16(c + SINEW_FMT_V2_JOINT_COUNT);
		v->scalar_count = sinewi_rd16(c + SINEW_FMT_V2_SCALAR_COUNT);
		v->segment_length = sinewi_rd16(c + SINEW_FMT_V2_SEGMENT_LENGTH);
		SINEWI_CHECK(sinewi_rd16(c + SINEW_FMT_V2_RESERVED) == 0, error, SINEW_RESULT_CORRUPT,
		             "clip %u: reserved header field is not zero", index);
		v->descriptor_size = 1;
		v->dropped_shift = 6;
		v->rounding_stride = 1;
	} else {
		v->joint_count = sinewi_rd32(c + SINEW_FMT_CLIP_JOINT_COUNT);
		v->scalar_count = sinewi_rd32(c + SINEW_FMT_CLIP_SCALAR_COUNT);
		v->track_count = sinewi_rd32(c + SINEW_FMT_CLIP_TRACK_COUNT);
		v->segment_count = sinewi_rd32(c + SINEW_FMT_CLIP_SEGMENT_COUNT);
		v->segment_length = sinewi_rd32(c + SINEW_FMT_CLIP_SEGMENT_LENGTH);
		offsets[0] = sinewi_rd32(c + SINEW_FMT_CLIP_CONSTANTS_OFFSET);
		offsets[1] = sinewi_rd32(c + SINEW_FMT_CLIP_RANGES_OFFSET);
		offsets[2] = sinewi_rd32(c + SINEW_FMT_CLIP_SEGMENTS_OFFSET);
		offsets[3] = sinewi_rd32(c + SINEW_FMT_CLIP_METADATA_OFFSET);
		v->descriptor_size = SINEW_FMT_DESCRIPTOR_SIZE;
		v->dropped_offset = 1, v->dropped_shift = 4;
		v->rounding_stride = 2;
	}
	SINEWI_CHECK(v->size >= header_size, error, SINEW_RESULT_CORRUPT, "clip %u size %u out of range", index, v->size);
	return SINEW_RESULT_OK;
}

// Version 3 clip header fields (docs/format.md §clip header); the counts and unit come from the rig.
static sinew_result read_clip_header_v3(const unsigned char *c, uint32_t index, sinewi_clip_view *v, uint32_t *header_size,
                                        sinew_error *error) {
	v->size = sinewi_rd32(c + SINEW_FMT_CLIP_SIZE);
	v->flags = sinewi_rd32(c + SINEW_FMT_CLIP_FLAGS);
	SINEWI_CHECK((v->flags & ~SINEW_FMT_FLAGS_KNOWN_V3) == 0, error, SINEW_RESULT_CORRUPT, "clip %u: reserved flags %08x",
	             index, v->flags);
	*header_size = SINEW_FMT_V3_CLIP_HEADER_SIZE + ((v->flags & SINEW_FMT_FLAG_RATE_F64) ? 4u : 0u);
	SINEWI_CHECK(v->size >= *header_size, error, SINEW_RESULT_CORRUPT, "clip %u size %u out of range", index, v->size);
	v->sample_count = sinewi_rd32(c + SINEW_FMT_V3_CLIP_SAMPLE_COUNT);
	v->segment_length = sinewi_rd16(c + SINEW_FMT_V3_CLIP_SEGMENT_LENGTH);
	SINEWI_CHECK(sinewi_rd16(c + SINEW_FMT_V3_CLIP_RESERVED) == 0, error, SINEW_RESULT_CORRUPT,
	             "clip %u: reserved header field is not zero", index);
	v->sample_rate = (v->flags & SINEW_FMT_FLAG_RATE_F64) ? sinewi_rdf64(c + SINEW_FMT_V3_CLIP_SAMPLE_RATE)
	                                                      : (double)sinewi_rdf32(c + SINEW_FMT_V3_CLIP_SAMPLE_RATE);
	v->descriptor_size = 1;
	v->dropped_shift = 6;
	v->rounding_stride = 1;
	return SINEW_RESULT_OK;
}

sinew_result sinewi_read_clip(const unsigned char *blob, size_t size, uint32_t index, sinewi_clip_view *v,
                              sinew_error *error) {
	sinewi_blob_header h;
	SINEWI_TRY(sinewi_read_blob_header(blob, size, false, &h, error));
	const uint32_t count = h.clip_count;
	const bool v2 = !SINEWI_LEGACY || h.version >= 2, v3 = !SINEWI_LEGACY || h.version >= 3;
	uint32_t header_size = v2 ? SINEW_FMT_CLIP_HEADER_SIZE_V2 : SINEW_FMT_CLIP_HEADER_SIZE;
	const uint32_t clip_align = v2 ? 4u : 16u;
	SINEWI_CHECK(index < count, error, SINEW_RESULT_OUT_OF_RANGE, "clip %u of %u", index, count);
	memset(v, 0, sizeof *v);
	v->blob = blob;
	v->blob_size = size;
	v->version = h.version;
	v->total_size = h.total_size;
	v->resident_size = h.resident_size;
	uint32_t start = sinewi_rd32(blob + h.table + 4 * index);
	const unsigned char *c = blob + start;
	uint32_t offsets[4] = {0, 0, 0, 0};
	if (v3) { // the header check placed every clip and read the rig
		uint32_t rig_end;
		SINEWI_TRY(sinewi_read_rig(blob, h.rig_offset, h.resident_size, count, v, &rig_end, error));
		v->rest_defaults = (h.blob_flags & SINEW_FMT_BLOB_REST_DEFAULTS) != 0;
		v->clip = c;
		SINEWI_TRY(read_clip_header_v3(c, index, v, &header_size, error));
		SINEWI_CHECK(v->size <= h.resident_size - start, error, SINEW_RESULT_CORRUPT, "clip %u size %u out of range", index,
		             v->size);
		SINEWI_CHECK(((v->flags & SINEW_FMT_FLAG_PAGED) != 0) == h.paged, error, SINEW_RESULT_CORRUPT,
		             "clip %u: %s in a blob %s pages", index, h.paged ? "not paged" : "paged", h.paged ? "with" : "without");
		SINEWI_CHECK(isfinite(v->sample_rate) && v->sample_rate > 0.0, error, SINEW_RESULT_CORRUPT,
		             "clip %u: sample rate is not a positive number", index);
	} else {
		uint32_t limit = h.resident_size - SINEW_FMT_TAIL_PADDING;
		uint32_t table_end = SINEW_FMT_HEADER_SIZE + 4 * count;
		SINEWI_CHECK(start % clip_align == 0 && start >= table_end && start < limit && limit - start >= header_size, error,
		             SINEW_RESULT_CORRUPT, "clip %u offset %u out of range", index, start);
		v->clip = c;
		SINEWI_TRY(read_clip_header(&h, c, index, v, offsets, error));
		SINEWI_CHECK(v->size <= limit - start, error, SINEW_RESULT_CORRUPT, "clip %u size %u out of range", index, v->size);
		if (index + 1 < count) {
			uint32_t next = sinewi_rd32(blob + SINEW_FMT_HEADER_SIZE + 4 * (index + 1));
			SINEWI_CHECK(next >= start + v->size, error, SINEW_RESULT_CORRUPT, "clip %u overlaps clip %u", index, index + 1);
		}
		SINEWI_CHECK(isfinite(v->sample_rate) && v->sample_rate > 0.0 && isfinite(v->unit_scale) && v->unit_scale > 0.0, error,
		             SINEW_RESULT_CORRUPT, "clip %u: sample rate or unit scale is not a positive number", index);
		v->listed_joints = v->joint_count, v->listed_scalars = v->scalar_count;
	}
	bool looping = (v->flags & SINEW_FMT_FLAG_LOOPING) != 0;
	SINEWI_CHECK(looping || !(v->flags & SINEW_FMT_FLAG_LAST_REPEATS_FIRST), error, SINEW_RESULT_CORRUPT,
	             "clip %u: Last_repeats_first without Looping", index);
	SINEWI_CHECK(v->sample_count >= 1 && v->sample_count < UINT32_MAX, error, SINEW_RESULT_CORRUPT, "clip %u: no samples", index);
	v->stored_sample_count = v->sample_count + (looping ? 1u : 0u);
	SINEWI_CHECK(v->joint_count <= SINEW_FMT_MAX_JOINTS && v->scalar_count <= SINEW_FMT_MAX_SCALARS &&
	                 v->joint_count + v->scalar_count > 0,
	             error, SINEW_RESULT_CORRUPT, "clip %u: %u joints, %u scalar tracks", index, v->joint_count, v->scalar_count);
	// Curves (docs/format.md §curves): no segments, and nothing that only segments use
	const bool curves = v3 && (v->flags & SINEW_FMT_FLAG_CURVES) != 0;
	// (what a decoder does not rely on, the web runtime's JS checks: web/sinew.mjs)
	SINEWI_CHECK(!SINEWI_LEGACY || !curves || (v->segment_length == 0 && !(v->flags & (SINEW_FMT_FLAG_LOOPING | SINEW_FMT_FLAG_PAGED |
	                                                                  SINEW_FMT_FLAG_TRACK_ROUNDING | SINEW_FMT_FLAG_MIDPOINT_KNOTS |
	                                                                  SINEW_FMT_FLAG_ROUNDING_MASK))),
	             error, SINEW_RESULT_CORRUPT, "clip %u: Curves with segments, Looping, Paged, rounding or Midpoint_knots", index);
	SINEWI_CHECK(curves || (v->segment_length >= 1 && v->segment_length <= 1024), error, SINEW_RESULT_CORRUPT,
	             "clip %u: segment length %u", index, v->segment_length);
	uint32_t intervals = v->stored_sample_count - 1;
	uint32_t want_segments = curves ? 0u : intervals == 0 ? 1 : (intervals - 1) / v->segment_length + 1;
	if (v2) v->segment_count = want_segments;
	SINEWI_CHECK(v->segment_count == want_segments, error, SINEW_RESULT_CORRUPT, "clip %u: %u segments, expected %u", index,
	             v->segment_count, want_segments);

	// version 3: the node and scalar maps (which nodes and scalar tracks have descriptors)
	uint64_t at = header_size;
	if (v3) {
		const struct { uint32_t flag, count; const unsigned char **map; uint32_t *listed; } maps[2] = {
		    {SINEW_FMT_FLAG_NODE_MAP, v->joint_count, &v->node_map, &v->listed_joints},
		    {SINEW_FMT_FLAG_SCALAR_MAP, v->scalar_count, &v->scalar_map, &v->listed_scalars}};
		for (int m = 0; m < 2; ++m) {
			*maps[m].listed = maps[m].count;
			if (!(v->flags & maps[m].flag)) continue;
			const uint32_t bytes = (maps[m].count + 7) / 8;
			SINEWI_CHECK(at + bytes <= v->size, error, SINEW_RESULT_CORRUPT, "clip %u: map exceeds the clip", index);
			const unsigned char *map = c + at;
			SINEWI_CHECK(maps[m].count % 8 == 0 || bytes == 0 || (map[bytes - 1] >> (maps[m].count % 8)) == 0, error,
			             SINEW_RESULT_CORRUPT, "clip %u: map bits past the last entry", index);
			*maps[m].map = map;
			*maps[m].listed = bytes ? sinewi_map_rank(map, maps[m].count) : 0u;
			at += bytes;
		}
	}
	// descriptors (+ the version-2/3 rounding bytes)
	const bool track_rounding = (v->flags & SINEW_FMT_FLAG_TRACK_ROUNDING) != 0;
	uint64_t desc_size = (uint64_t)(v->listed_joints + v->listed_scalars) * v->descriptor_size;
	uint64_t desc_end = at + desc_size * (track_rounding ? 2u : 1u);
	SINEWI_CHECK(desc_end <= v->size, error, SINEW_RESULT_CORRUPT, "clip %u: descriptors exceed the clip", index);
	v->descriptors = c + at;
	if (track_rounding) v->rounding = v->descriptors + desc_size;
	if (!v2) v->rounding = v->descriptors + 1; // byte 1 of each descriptor
	uint64_t constant_bytes = 0, range_bytes = 0;
	uint32_t tracks = 0;
	// version 2 and 3, lone segment: a rotation's clip range leaves out the component the segment drops
	const uint32_t rotation_ranges = v2 && v->segment_count == 1 ? 3u : 4u;
	v->half_ranges = (v->flags & SINEW_FMT_FLAG_HALF_RANGES) ? 1u : 0u;
	v->constant_size = (v->flags & SINEW_FMT_FLAG_SHORT_CONSTANTS) ? 3u : 4u;
	v->track_descriptor_size =
	    (v->flags & SINEW_FMT_FLAG_MIDPOINT_KNOTS) ? SINEW_FMT_TRACK_DESCRIPTOR_SIZE_MIDPOINT : SINEW_FMT_TRACK_DESCRIPTOR_SIZE;
	const uint32_t value_bytes = 4u >> v->half_ranges; // per clip range value
	const uint32_t short_size = v->constant_size; // a kind-2 value's bytes (kind 1: 4)
	const uint64_t constants_at = (desc_end + 3) & ~(uint64_t)3;
	bool finite = true; // every constant value (those inside the clip: the offset checks catch the others)
	for (uint64_t b = desc_end; v3 && b < constants_at; ++b) finite &= b < v->size && c[b] == 0; // padding
	v->rotation_range_components = rotation_ranges;
	// track types/components in track order, for the segment checks (bounded by 3*joints+scalars)
	uint8_t types_small[512], comps_small[512];
	uint64_t max_tracks = (uint64_t)v->listed_joints * 3 + v->listed_scalars;
	sinewi_alloc al = sinewi_alloc_from(NULL);
	uint8_t *types = types_small, *comps = comps_small;
	if (max_tracks > sizeof types_small) {
		types = (uint8_t *)sinewi_malloc(&al, (size_t)max_tracks * 2);
		SINEWI_CHECK(types, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
		comps = types + max_tracks;
	}
	sinew_result r = SINEW_RESULT_OK;
	const uint32_t stored_kind1 = sinewi_default_stored(v) ? 1u : 4u; // kind 1 stores its values (not with Rest_defaults)
	for (uint32_t d = 0; d < v->listed_joints && r == SINEW_RESULT_OK; ++d) {
		// version 1: descriptor byte 1 holds Rounding and Constant_dropped, bits 6-7 reserved; versions 2 and 3:
		// a rounding byte 0..3 or 15, and Constant_dropped only for a rotation whose value is stored
		uint32_t k = v->descriptors[(size_t)v->descriptor_size * d], rot = k & 3u;
		uint32_t rb = v->rounding ? v->rounding[(size_t)v->rounding_stride * d] : 15u, rounding = rb & 15u;
		bool bad = (rounding > 3 && rounding != SINEW_FMT_ROUNDING_CLIP) || (rb >> (v2 ? 4 : 6)) != 0;
		bad |= v2 ? (rot != 2 && rot != stored_kind1) && (k >> 6) != 0 : (k >> 6) != 0;
		if (bad) {
			r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u joint %u: bad descriptor %02x (rounding %u)", index, d, k,
			                rounding);
			break;
		}
		for (uint32_t sub = 0; sub < 3; ++sub) {
			uint32_t kind = (k >> (2 * sub)) & 3u;
			if (kind == 2 || kind == stored_kind1) finite &= constants_finite(c, constants_at, &constant_bytes, 3, kind, short_size, v->size);
			if (kind == 3) {
				types[tracks] = (uint8_t)sub, comps[tracks] = 3;
				range_bytes += 2u * value_bytes * (sub == 0 ? rotation_ranges : 3u);
				v->stored_components += 3;
				tracks++;
			}
		}
	}
	// scalar tracks: the listed ones in order (version 3 maps listed slot d to its rig track)
	for (uint32_t i = 0, d = 0; i < v->scalar_count && r == SINEW_RESULT_OK; ++i) {
		const uint32_t n = v3 ? (v->scalar_components_table[i] & 3u) + 1u
		                      : ((v->descriptors[(size_t)v->descriptor_size * ((size_t)v->joint_count + i)] >> 2) & 3u) + 1u;
		if (!v3) v->scalar_components += n;
		if (!sinewi_map_bit(v->scalar_map, i)) continue;
		uint32_t k = v->descriptors[(size_t)v->descriptor_size * ((size_t)v->listed_joints + d)];
		uint32_t rounding = v->rounding ? v->rounding[(size_t)v->rounding_stride * (v->listed_joints + d)] : 15u;
		d++;
		if ((k >> (v3 ? 2 : 4)) != 0 || (rounding > 3 && rounding != SINEW_FMT_ROUNDING_CLIP)) {
			r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u scalar %u: bad descriptor %02x (rounding %u)", index, i, k,
			                rounding);
			break;
		}
		uint32_t kind = k & 3u;
		if (kind == 2 || kind == stored_kind1) finite &= constants_finite(c, constants_at, &constant_bytes, n, kind, short_size, v->size);
		if (kind == 3) {
			types[tracks] = 3, comps[tracks] = (uint8_t)n;
			range_bytes += 2u * value_bytes * n;
			v->stored_components += n;
			tracks++;
		}
	}
	if (v2) v->track_count = tracks;
	const uint64_t constant_end = constant_bytes; // then zeros to a multiple of 4 (Short_constants)
	constant_bytes = (constant_bytes + 3) & ~(uint64_t)3;
	if (r == SINEW_RESULT_OK && tracks != v->track_count)
		r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u: %u animated tracks declared, descriptors give %u", index,
		                v->track_count, tracks);
	// versions 2 and 3: segment ranges only when there is more than one segment (a lone one uses the clip range)
	v->segment_range_bytes = v2 && v->segment_count <= 1 ? 0u : 2u * v->stored_components;
	if (curves) range_bytes = 0; // (a curve's ranges are in its record)
	const bool paged = SINEWI_PAGES && (v->flags & SINEW_FMT_FLAG_PAGED) != 0;
	// the section offsets follow from the layout (version 1 stores them: they must be those values)
	const uint64_t ranges_at = constants_at + constant_bytes;
	const uint64_t map_at = ranges_at + range_bytes; // Time_map: the marks (docs/format.md §time map)
	uint64_t map_bytes = 0;
	if (r == SINEW_RESULT_OK && (v->flags & SINEW_FMT_FLAG_TIME_MAP))
		r = check_time_map(v, index, map_at, looping, &map_bytes, error);
	const uint64_t segments_at = map_at + map_bytes;
	if (r == SINEW_RESULT_OK && (segments_at > v->size || (!v2 && (offsets[0] != constants_at || offsets[1] != ranges_at ||
	                                                                offsets[2] != segments_at))))
		r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u: section offsets are inconsistent", index);
	uint32_t constants_off = (uint32_t)constants_at, ranges_off = (uint32_t)ranges_at, segments_off = (uint32_t)segments_at;
	uint32_t meta_off = offsets[3];
	v->segments_offset = segments_off;
	// the segment table, or a paged clip's page count and page table (version 3: none for a lone segment)
	uint64_t table_bytes = v3 && v->segment_count <= 1 ? 0u : ((uint64_t)v->segment_count + 1) * 4;
	const bool tiered = paged && (v->flags & SINEW_FMT_FLAG_TIERED) != 0;
	v->tier_count = 1;
	if (r == SINEW_RESULT_OK && (v->flags & SINEW_FMT_FLAG_TIERED) && !paged)
		r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u: Tiered without Paged", index);
	if (r == SINEW_RESULT_OK && paged) {
		if ((uint64_t)segments_off + 4 > v->size) {
			r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u: page table exceeds the clip", index);
		} else {
			v->page_count = sinewi_rd32(c + segments_off);
			table_bytes = 4 + (uint64_t)v->page_count * SINEW_FMT_PAGE_ENTRY_SIZE;
			// the tier table follows the page table: Tier_count, then first page, bound, error per tier
			if (tiered && (uint64_t)segments_off + table_bytes + 4 <= v->size) {
				v->tier_count = sinewi_rd32(c + segments_off + table_bytes);
				if (v->tier_count < 2 || v->tier_count > SINEW_FMT_MAX_TIERS)
					r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u: %u tiers", index, v->tier_count);
				v->tier_table = c + segments_off + table_bytes + 4;
				table_bytes += 4 + (uint64_t)v->tier_count * SINEW_FMT_TIER_ENTRY_SIZE;
			} else if (tiered) {
				r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u: tier table exceeds the clip", index);
			}
			if (r == SINEW_RESULT_OK && (v->page_count < 1 || v->page_count > (uint64_t)v->segment_count * v->tier_count))
				r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u: %u pages for %u segments", index, v->page_count,
				                v->segment_count);
		}
	}
	if (r == SINEW_RESULT_OK && segments_at + table_bytes > v->size)
		r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u: section offsets are inconsistent", index);
	if (r == SINEW_RESULT_OK) {
		v->constants = c + constants_off;
		v->ranges = c + ranges_off;
		if (paged) v->page_table = c + segments_off + 4;
		else if (table_bytes) v->segment_table = c + segments_off;
		for (uint64_t b = constant_end; b < constant_bytes; ++b) finite &= v->constants[b] == 0; // the padding
		if (!finite) r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u: non-finite constant (or non-zero padding)", index);
		// exponent all ones: infinity or NaN (bits 7-14 of a 16-bit value, 23-30 of an f32; the bytes
		// after a range value are in the clip: the segment or page table follows, or the rig)
		const uint32_t shift = v->half_ranges ? 7u : 23u;
		for (uint64_t b = 0; b < range_bytes && r == SINEW_RESULT_OK; b += value_bytes)
			if ((((value_bytes == 4 ? sinewi_rd32(v->ranges + b) : sinewi_rd16(v->ranges + b))) >> shift & 255u) == 255u)
				r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u: non-finite range", index);
	}
	uint32_t seg_end = (uint32_t)(segments_off + table_bytes);
#if SINEWI_PAGES
	if (paged) {
		// pages: each tier's pages hold its segments in order, the bytes of all pages follow each other
		// after the resident part; a tier starts at its first page, the first tier at page 0
		uint32_t next_segment = 0, next_offset = 0, tier = 0;
		for (uint32_t p = 0; p < v->page_count && r == SINEW_RESULT_OK; ++p) {
			if (tier + 1 < v->tier_count && p == sinewi_rd32(v->tier_table + (size_t)(tier + 1) * SINEW_FMT_TIER_ENTRY_SIZE)) {
				if (next_segment != v->segment_count) break; // reported below
				tier++, next_segment = 0;
			}
			sinewi_page_entry e;
			sinewi_page_entry_of(v, p, &e);
			bool ok = e.first_segment == next_segment && e.segment_count >= 1 &&
			          e.segment_count <= v->segment_count - next_segment && e.offset % 4 == 0 &&
			          e.offset >= h.resident_size && (p == 0 || e.offset == next_offset) && e.size % 4 == 0 &&
			          (uint64_t)e.size >= 4ull * (e.segment_count + 1) + SINEW_FMT_PAGE_TAIL &&
			          e.offset <= h.total_size && e.size <= h.total_size - e.offset;
			if (!ok) {
				r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u page %u: entry out of range", index, p);
				break;
			}
			next_segment += e.segment_count;
			next_offset = e.offset + e.size;
			if (h.pages_given)
				r = sinewi_check_page(v, p, blob + e.offset, e.size, false, types, comps, 1, error);
		}
		if (r == SINEW_RESULT_OK && (next_segment != v->segment_count || tier + 1 != v->tier_count))
			r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u: the pages of tier %u hold %u of %u segments", index, tier,
			                next_segment, v->segment_count);
		for (uint32_t k = 0; r == SINEW_RESULT_OK && k < v->tier_count && v->tier_table; ++k) {
			const unsigned char *e = v->tier_table + (size_t)k * SINEW_FMT_TIER_ENTRY_SIZE;
			float bound = sinewi_rdf32(e + 4), err = sinewi_rdf32(e + 8);
			if ((k == 0 && sinewi_rd32(e) != 0) || !(bound >= 0.0f) || !isfinite(bound) || !(err >= 0.0f) || !isfinite(err))
				r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u tier %u: bad entry", index, k);
		}
	} else
#endif
	if (r == SINEW_RESULT_OK && curves) { // the curve block: from here to the end of the clip
		r = check_curves(v, index, types, comps, segments_off, error);
		seg_end = v->size;
	} else if (r == SINEW_RESULT_OK && !v->segment_table) { // version 3, a lone segment: from here to the end of the clip
		r = check_segment(v, 0, types, comps, 1, v->clip + segments_off, v->size - segments_off, error);
		seg_end = v->size;
	} else {
		for (uint32_t s = 0; s < v->segment_count && r == SINEW_RESULT_OK; ++s) {
			uint32_t begin = sinewi_rd32(v->segment_table + 4 * s), end = sinewi_rd32(v->segment_table + 4 * (s + 1));
			uint32_t expect = s == 0 ? segments_off + (v->segment_count + 1) * 4 : seg_end;
			if (begin != expect || end < begin || end > v->size)
				r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "clip %u segment %u: offsets %u..%u out of range", index, s, begin,
				                end);
			else
				r = check_segment(v, s, types, comps, 1, v->clip + begin, end - begin, error);
			seg_end = end;
		}
	}
	if (types != types_small) sinewi_free(&al, types, (size_t)max_tracks * 2);
	SINEWI_TRY(r);
	bool has_meta = !v3 && (v->flags & SINEW_FMT_FLAG_METADATA) != 0; // (version 3: bit 3 is Rate_f64, metadata is the rig's)
	if (v2) meta_off = has_meta ? (seg_end + 3) & ~3u : 0u;
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

uint32_t sinewi_track_types(const sinewi_clip_view *v, uint8_t *types, uint8_t *comps, uint32_t capacity) {
	uint32_t n = 0;
	for (uint32_t d = 0; d < v->listed_joints; ++d) {
		const uint32_t k = v->descriptors[(size_t)v->descriptor_size * d];
		for (uint32_t sub = 0; sub < 3; ++sub)
			if (((k >> (2 * sub)) & 3u) == 3u) {
				if (n < capacity) types[n] = (uint8_t)sub, comps[n] = 3;
				n++;
			}
	}
	for (uint32_t i = 0, d = 0; i < v->scalar_count; ++i) {
		if (!sinewi_map_bit(v->scalar_map, i)) continue;
		const uint32_t k = v->descriptors[(size_t)v->descriptor_size * ((size_t)v->listed_joints + d++)];
		if ((k & 3u) != 3u) continue;
		if (n < capacity) types[n] = 3, comps[n] = (uint8_t)sinewi_scalar_components(v, i);
		n++;
	}
	return n;
}

sinew_result sinew_validate(const void *blob, size_t size, sinew_error *error) {
	sinewi_blob_header h;
	const unsigned char *b = (const unsigned char *)blob;
	SINEWI_TRY(sinewi_read_blob_header(b, size, true, &h, error));
	uint32_t next_page = h.resident_size; // the pages of all clips follow the resident part in clip order
	for (uint32_t i = 0; i < h.clip_count; ++i) {
		sinewi_clip_view v;
		SINEWI_TRY(sinewi_read_clip(b, size, i, &v, error));
#if SINEWI_PAGES
		if (!h.paged) continue;
		sinewi_page_entry first, last;
		sinewi_page_entry_of(&v, 0, &first);
		sinewi_page_entry_of(&v, v.page_count - 1, &last);
		SINEWI_CHECK(first.offset == next_page, error, SINEW_RESULT_CORRUPT, "clip %u: first page at %u, expected %u", i,
		             first.offset, next_page);
		next_page = last.offset + last.size;
		for (uint32_t p = 0; p < v.page_count && h.pages_given; ++p) {
			sinewi_page_entry e;
			sinewi_page_entry_of(&v, p, &e);
			uint32_t got = sinewi_xxh32(b + e.offset, e.size, p);
			SINEWI_CHECK(got == e.checksum, error, SINEW_RESULT_CHECKSUM, "clip %u page %u: checksum mismatch (table %08x, page %08x)",
			             i, p, e.checksum, got);
		}
#endif
	}
	SINEWI_CHECK(!SINEWI_PAGES || !h.paged || next_page == h.total_size, error, SINEW_RESULT_CORRUPT,
	             "pages end at %u, the blob at %u", next_page, h.total_size);
	return SINEW_RESULT_OK;
}

uint32_t sinew_blob_clip_count(const void *blob, size_t size) {
	sinewi_blob_header h;
	if (sinewi_read_blob_header((const unsigned char *)blob, size, false, &h, NULL) != SINEW_RESULT_OK) return 0;
	return h.clip_count;
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
	out->duration = sinewi_view_duration(&v);
	out->time_mark_count = v.mark_count;
	out->over_bound = (v.flags & SINEW_FMT_FLAG_OVER_BOUND) != 0;
	out->unit_scale = v.unit_scale;
	out->has_metadata = v.metadata != NULL;
	out->size = v.size;
	out->format_version = v.version;
	out->page_count = v.page_count;
	out->tier_count = v.tier_count;
#if SINEWI_PAGES
	for (uint32_t p = 0, tier = 0; p < v.page_count; ++p) {
		if (tier + 1 < v.tier_count && p == sinewi_rd32(v.tier_table + (size_t)(tier + 1) * SINEW_FMT_TIER_ENTRY_SIZE)) tier++;
		sinewi_page_entry e;
		sinewi_page_entry_of(&v, p, &e);
		out->page_bytes += e.size;
		out->tier_bytes[tier] += e.size;
		if (e.size > out->page_bytes_max) out->page_bytes_max = e.size;
	}
	for (uint32_t k = 0; v.tier_table && k < v.tier_count; ++k) { // stored in clip units
		out->tier_bound_cm[k] = sinewi_rdf32(v.tier_table + (size_t)k * SINEW_FMT_TIER_ENTRY_SIZE + 4) * 100.0 / v.unit_scale;
		out->tier_error_cm[k] = sinewi_rdf32(v.tier_table + (size_t)k * SINEW_FMT_TIER_ENTRY_SIZE + 8) * 100.0 / v.unit_scale;
	}
#endif
	if (v.metadata) {
		uint32_t name = sinewi_rd32(v.metadata + 4);
		if (name != SINEW_FMT_NO_STRING) out->name = (const char *)v.metadata + sinewi_rd32(v.metadata + 8) + name;
	}
	if (v.rig) out->name = sinewi_rig_clip_name(&v, clip);
	out->has_metadata = v.metadata != NULL || (v.rig_flags & (SINEW_FMT_RIG_NAMES | SINEW_FMT_RIG_PARENTS)) != 0;
	out->curves = v.curves != NULL;
	out->listed_joints = v.listed_joints;
	out->listed_scalars = v.listed_scalars;
	return SINEW_RESULT_OK;
}
