// sinew — see include/sinew.h for version and licence
// A validated view of one clip inside a blob (docs/format.md), for the decoder.
#ifndef SINEW_FORMAT_READ_H
#define SINEW_FORMAT_READ_H

#include "../core/base.h"

typedef struct sinewi_clip_view {
	const unsigned char *blob;
	size_t blob_size;
	const unsigned char *clip; // first byte of the clip
	uint32_t size, flags;
	double sample_rate, unit_scale;
	uint32_t sample_count, stored_sample_count;
	uint32_t joint_count, scalar_count, track_count;
	uint32_t segment_count, segment_length;
	uint32_t stored_components; // sum of stored components over animated tracks
	uint32_t scalar_components; // sum of components over scalar tracks
	const unsigned char *descriptors, *constants, *ranges, *segment_table, *metadata;
} sinewi_clip_view;

// Reads and checks the blob header (magic, version, sizes, reserved fields; checksum when
// `check_checksum`). Returns the clip count through *clip_count.
sinew_result sinewi_read_header(const unsigned char *blob, size_t size, bool check_checksum, uint32_t *clip_count,
                                sinew_error *error);
// Reads clip `index` and checks every offset, count, width and reserved bit of it.
sinew_result sinewi_read_clip(const unsigned char *blob, size_t size, uint32_t index, sinewi_clip_view *view,
                              sinew_error *error);

// Number of stored components of an animated track of `kind_type` (0 rot, 1 trans, 2 scale, 3 scalar).
static inline uint32_t sinewi_track_components(uint32_t type, uint32_t scalar_components) {
	return type == 3 ? scalar_components : 3u;
}

#endif
