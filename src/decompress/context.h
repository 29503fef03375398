// sinew — see include/sinew.h for version and licence
// The sampling context: a validated clip view plus per-joint/per-track lookup tables, all in
// caller memory. Laid out as [struct][joint tables][track tables][scalar tables].
#ifndef SINEW_DECOMPRESS_CONTEXT_H
#define SINEW_DECOMPRESS_CONTEXT_H

#include "../format/format_read.h"

typedef struct sinewi_joint_entry {
	uint8_t kinds[3];      // sub-track kinds (docs/format.md §descriptors)
	uint8_t rounding;      // effective rounding (clip's applied)
	uint8_t dropped;       // constant rotation: component rebuilt from the stored three
	uint8_t reserved[3];
	int32_t track[3];      // animated track index per sub-track or -1
	uint32_t constants;    // byte offset (from the clip) of the joint's first constant value
} sinewi_joint_entry;

typedef struct sinewi_track_entry {
	uint8_t type;          // 0 rotation, 1 translation, 2 scale, 3 scalar
	uint8_t components;    // stored components
	uint8_t rounding;
	uint8_t reserved;
	uint32_t ranges;       // byte offset (from the clip) of the track's clip range
	uint32_t segment_ranges; // byte offset inside a segment's range bytes
} sinewi_track_entry;

typedef struct sinewi_scalar_entry {
	uint8_t kind, components, rounding, reserved;
	int32_t track;
	uint32_t constants;
	uint32_t output;       // first float in the caller's scalar output
} sinewi_scalar_entry;

struct sinew_context {
	sinewi_clip_view view;
	int skip_defaults;
	const char *kernel;
	uint32_t segment_header; // bytes before a segment's bit stream
	uint32_t modes_used;     // bit r set when some animated track uses rounding mode r
	sinewi_joint_entry *joints;
	sinewi_track_entry *tracks;
	sinewi_scalar_entry *scalars;
};

// Key position (in samples, clamped) for time t, with the near-integer snap of docs/format.md.
double sinewi_key_for_time(const sinew_context *ctx, double t);
void sinewi_sample_key(sinew_context *ctx, double key, sinew_qvv *out_pose, const uint32_t *remap, float *out_scalars);

#endif
