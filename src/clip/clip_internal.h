// sinew — see include/sinew.h for version and licence
// Helpers on the raw clip model for the stages after it.
#ifndef SINEW_CLIP_INTERNAL_H
#define SINEW_CLIP_INTERNAL_H

#include "sinew.h"

// Key (fractional sample index) of time t among `count` samples, clamped to [0, count - 1], not snapped:
// t * rate, or through time marks (docs/format.md §time map, the decoder's arithmetic; marks NULL or
// mark_count < 2: uniform). And the time of a (fractional) key.
double sinewi_time_key(double rate, uint32_t count, const sinew_time_mark *marks, uint32_t mark_count, double t);
double sinewi_key_time(double rate, const sinew_time_mark *marks, uint32_t mark_count, double key);

// The same for a clip's samples.
double sinewi_clip_key(const sinew_clip *clip, double t);

#endif
