// sinew — see include/sinew.h for version and licence
// Field offsets and sizes of the stream, named after docs/format.md.
#ifndef SINEW_FORMAT_LAYOUT_H
#define SINEW_FORMAT_LAYOUT_H

#define SINEW_FMT_MAGIC "SNEW"
#include "sinew.h"
#define SINEW_FMT_VERSION ((unsigned)SINEW_FORMAT_VERSION) // written by the encoder
#define SINEW_FMT_VERSION_FIRST ((unsigned)SINEW_FORMAT_VERSION_FIRST)
#define SINEW_FMT_VERSION_LATEST ((unsigned)SINEW_FORMAT_VERSION)

#define SINEW_FMT_HEADER_SIZE 32u
#define SINEW_FMT_HDR_VERSION 4u
#define SINEW_FMT_HDR_HEADER_SIZE 6u
#define SINEW_FMT_HDR_TOTAL_SIZE 8u
#define SINEW_FMT_HDR_CHECKSUM 12u
#define SINEW_FMT_HDR_CLIP_COUNT 16u
#define SINEW_FMT_HDR_RESERVED 20u // version 1: 12 bytes, must be zero
#define SINEW_FMT_HDR_RESIDENT_SIZE 20u // version 2: bytes of the resident part of a paged blob, 0 = not paged
#define SINEW_FMT_HDR_RESERVED_V2 24u   // version 2: 8 bytes, must be zero
#define SINEW_FMT_TAIL_PADDING 8u  // zero bytes at the end so 64-bit bit-reads stay inside

#define SINEW_FMT_CLIP_HEADER_SIZE 64u
#define SINEW_FMT_CLIP_SIZE 0u
#define SINEW_FMT_CLIP_FLAGS 4u
#define SINEW_FMT_CLIP_SAMPLE_RATE 8u
#define SINEW_FMT_CLIP_UNIT_SCALE 16u
#define SINEW_FMT_CLIP_SAMPLE_COUNT 24u
#define SINEW_FMT_CLIP_JOINT_COUNT 28u
#define SINEW_FMT_CLIP_SCALAR_COUNT 32u
#define SINEW_FMT_CLIP_TRACK_COUNT 36u
#define SINEW_FMT_CLIP_SEGMENT_COUNT 40u
#define SINEW_FMT_CLIP_SEGMENT_LENGTH 44u
#define SINEW_FMT_CLIP_CONSTANTS_OFFSET 48u
#define SINEW_FMT_CLIP_RANGES_OFFSET 52u
#define SINEW_FMT_CLIP_SEGMENTS_OFFSET 56u
#define SINEW_FMT_CLIP_METADATA_OFFSET 60u

#define SINEW_FMT_FLAG_LOOPING 0x1u
#define SINEW_FMT_FLAG_ROUNDING_SHIFT 1u
#define SINEW_FMT_FLAG_ROUNDING_MASK 0x6u
#define SINEW_FMT_FLAG_METADATA 0x8u
#define SINEW_FMT_FLAG_LAST_REPEATS_FIRST 0x10u // looping: the source's last sample (= the first) was not stored
#define SINEW_FMT_FLAGS_KNOWN 0x1Fu
#define SINEW_FMT_FLAG_PAGED 0x20u          // version 2: the segments are in pages after the resident part
#define SINEW_FMT_FLAG_TRACK_ROUNDING 0x40u // version 2: a rounding byte per joint and scalar track follows the descriptors
#define SINEW_FMT_FLAG_TIERED 0x80u         // version 2, paged: quality tiers, each with its own pages (tier table)
#define SINEW_FMT_FLAG_HALF_RANGES 0x100u   // version 2: clip range values are 16-bit (the high half of an f32)
#define SINEW_FMT_FLAG_SHORT_CONSTANTS 0x200u // version 2: constant values are 24-bit (the high 3 bytes of an f32)
#define SINEW_FMT_FLAG_MIDPOINT_KNOTS 0x400u // version 2: 5-byte track descriptors; odd knots may be midpoint residuals
#define SINEW_FMT_FLAG_TIME_MAP 0x800u   // version 2: a time map after the clip ranges: samples off a uniform grid
#define SINEW_FMT_FLAG_OVER_BOUND 0x1000u // version 2: the encoder could not meet the clip's bound (written on request)
#define SINEW_FMT_FLAG_SLERP_FIT 0x2000u  // version 2: rotations interpolate with nlerp at the slerp-fitted parameter
#define SINEW_FMT_FLAGS_KNOWN_V2 0x3FFFu
#define SINEW_FMT_MARK_SIZE 8u              // time map: f32 time, u32 sample
#define SINEW_FMT_TIER_ENTRY_SIZE 12u       // first page, bound, measured error
#define SINEW_FMT_MAX_TIERS 8u

// Version 2 clip header (36 bytes): counts are u16 and the section offsets follow from them.
#define SINEW_FMT_CLIP_HEADER_SIZE_V2 36u
#define SINEW_FMT_V2_JOINT_COUNT 28u   // u16
#define SINEW_FMT_V2_SCALAR_COUNT 30u  // u16
#define SINEW_FMT_V2_SEGMENT_LENGTH 32u // u16
#define SINEW_FMT_V2_RESERVED 34u      // u16, zero

// Version 2 page table (in place of the segment table of a paged clip) and pages.
#define SINEW_FMT_PAGE_ENTRY_SIZE 20u // first segment, segment count, blob offset, size, checksum
#define SINEW_FMT_PAGE_TAIL 8u        // zero bytes ending every page (64-bit bit reads stay inside)

#define SINEW_FMT_DESCRIPTOR_SIZE 2u      // per joint and per scalar track
#define SINEW_FMT_TRACK_DESCRIPTOR_SIZE 3u // per animated track per segment
#define SINEW_FMT_TRACK_DESCRIPTOR_SIZE_MIDPOINT 5u // the same with Midpoint_knots: + 4-bit Shift per slot
#define SINEW_FMT_GROUP_TRACKS 8u          // tracks per bit-offset checkpoint
#define SINEW_FMT_ROUNDING_CLIP 15u

#define SINEW_FMT_META_HEADER_SIZE 16u
#define SINEW_FMT_META_JOINT_SIZE 60u
#define SINEW_FMT_META_SCALAR_SIZE 32u
#define SINEW_FMT_NO_STRING 0xFFFFFFFFu

// Version 3 (docs/format.md): a 20-byte blob header (24 paged), a rig after the clips, 20-byte clip headers.
#define SINEW_FMT_V3_HEADER_SIZE 20u
#define SINEW_FMT_V3_HDR_BLOB_FLAGS 6u    // u16
#define SINEW_FMT_V3_HDR_RESIDENT_SIZE 20u // u32, Paged only
#define SINEW_FMT_BLOB_PAGED 0x1u
#define SINEW_FMT_BLOB_REST_DEFAULTS 0x2u
#define SINEW_FMT_BLOB_FLAGS_KNOWN 0x3u
#define SINEW_FMT_V3_CLIP_HEADER_SIZE 20u // 24 with Rate_f64
#define SINEW_FMT_V3_CLIP_SAMPLE_COUNT 8u
#define SINEW_FMT_V3_CLIP_SEGMENT_LENGTH 12u // u16
#define SINEW_FMT_V3_CLIP_RESERVED 14u       // u16
#define SINEW_FMT_V3_CLIP_SAMPLE_RATE 16u    // f32, or f64 with Rate_f64
#define SINEW_FMT_FLAG_RATE_F64 0x8u         // version 3 (bit 3 is Has_metadata in versions 1 and 2)
#define SINEW_FMT_FLAG_NODE_MAP 0x4000u      // version 3: a bit per rig node says which have descriptors
#define SINEW_FMT_FLAG_SCALAR_MAP 0x8000u    // version 3: the same for the rig's scalar tracks
#define SINEW_FMT_FLAG_CURVES 0x10000u      // version 3: the animated tracks are curves (a curve block, no segments)
#define SINEW_FMT_FLAGS_KNOWN_V3 0x1FFFFu
#define SINEW_FMT_CURVE_CUBIC 2u             // a curve's interpolation: 0 STEP, 1 LINEAR, 2 CUBICSPLINE
#define SINEW_FMT_RIG_HEADER_SIZE 16u        // node count, scalar count, rig flags, reserved, f64 unit scale
#define SINEW_FMT_RIG_PARENTS 0x1u
#define SINEW_FMT_RIG_NODE_SOURCES 0x2u
#define SINEW_FMT_RIG_REST 0x4u
#define SINEW_FMT_RIG_SHELLS 0x8u
#define SINEW_FMT_RIG_SCALAR_SOURCES 0x10u
#define SINEW_FMT_RIG_NAMES 0x20u
#define SINEW_FMT_RIG_SCALAR_REST 0x40u
#define SINEW_FMT_RIG_WIDE_SOURCES 0x80u
#define SINEW_FMT_RIG_FLAGS_KNOWN 0xFFu
#define SINEW_FMT_NO_INDEX16 0xFFFFu
#define SINEW_FMT_POINTER16 0xFFFEu

#define SINEW_FMT_MAX_JOINTS 65535u
#define SINEW_FMT_MAX_SCALARS 65535u

#endif
