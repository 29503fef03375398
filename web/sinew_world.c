// sinew — see include/sinew.h for version and licence
// The world runtime's exports (web/build_wasm.sh builds web/sinew-world[-simd].wasm; used by
// web/world.mjs). One instance, one linear memory: blobs are appended as they load, players
// (one character's pose) hold clip layers, and ONE call, sinew_world_update(dt), advances every
// layer's time and crossfade, samples every layer and writes every player's blended pose and
// scalars (morph weights). Blending semantics: web/README.md §World.
//
// Everything lives in linear memory (no wasm globals other than the stack pointer, which is at
// its initial value between calls), so a copy of the memory restored into a fresh instance of
// the same build is the same world (world.mjs save/restore).
#include "sinew.h"

#include "../src/decompress/context.h"
#include "../src/core/format_layout.h"
#include "wasm_libc.h"

#include <math.h>
#include <string.h>

void *sinew_world_reserve(uint32_t size);
void *sinew_world_alloc(uint32_t size);
const char *sinew_world_error(void);
int sinew_world_validate(const void *blob, uint32_t size);
int sinew_world_load(const void *blob, uint32_t size, uint32_t options, const sinew_qvv *rest, const float *rest_scalars);
uint32_t sinew_world_clip(uint32_t blob, uint32_t clip);
uint32_t sinew_world_add_player(uint32_t joints, uint32_t scalar_floats, uint32_t layers);
uint32_t sinew_world_update(double dt);
uint32_t sinew_world_state(void);

_Static_assert(sizeof(sinew_qvv) == 10 * sizeof(float), "a pose is 10 floats per joint");

// A clip of a loaded blob (JS reads it: byte offsets are part of the world.mjs contract).
typedef struct world_clip {
	double sample_rate;          // 0
	double duration;             // 8
	double unit_scale;           // 16
	uint32_t sample_count;       // 24
	uint32_t joint_count;        // 28
	uint32_t scalar_track_count; // 32
	uint32_t scalar_floats;      // 36
	uint32_t segment_count;      // 40
	uint32_t flags;              // 44: bit 0 looping, bit 1 metadata
	uint32_t size;               // 48: bytes of the clip in the blob
	uint32_t name;               // 52: NUL-terminated name or 0
	uint32_t scalar_layout;      // 56: [scalar_track_count] pairs (first float, components)
	uint32_t kernel;             // 60: NUL-terminated kernel name
	uint32_t context;            // 64: sinew_context *
	uint32_t first;              // 68: pose at t = 0 (joint_count * 10 + scalar_floats floats)
	uint32_t part;               // 72: uint8_t[joint_count + scalar_floats]: which sub-tracks the clip sets (PART_*)
	uint32_t pose;               // 76: float[joint_count * 10 + scalar_floats]: the clip's last sample (its
	                             //     constant outputs written once, then only the animated ones)
} world_clip;
_Static_assert(sizeof(world_clip) == 80, "world_clip layout");

// A clip layer of a player (80 bytes; JS writes the controls straight into memory).
typedef struct world_layer {
	double time;          // 0: seconds in [0, duration]
	float speed;          // 8: time scale (negative plays backwards)
	float weight;         // 12: current weight
	float fade_target;    // 16: weight the fade heads to
	float fade_rate;      // 20: weight units per second (0: no fade)
	uint32_t clip;        // 24: world_clip * (0: empty layer)
	uint32_t flags;       // 28: LAYER_* below
	uint32_t mask;        // 32: float[player joints] per-joint weight factors, 0 = all 1
	uint32_t joint_map;   // 36: uint32_t[clip joints] -> player joint (0xFFFFFFFF skips), 0 = identity
	uint32_t scalar_map;  // 40: uint32_t[clip scalar floats] -> player scalar float, 0 = identity
	uint32_t events;      // 44: EVENT_* of the last update
	uint32_t loops;       // 48: loop boundaries crossed by the last update
	float range_from;     // 52: seconds: the layer plays [range_from, range_to] of its clip
	float range_to;       // 56: (range_to <= range_from: the whole clip)
	uint32_t repetitions; // 60: repeat / ping-pong: finish after this many loops (0: endless)
	int32_t loop_count;   // 64: loops done (-1: not started; a first backward wrap from 0 does not count, as in three.js)
	float speed_target;   // 68: speed a warp heads to
	float speed_rate;     // 72: speed units per second of a warp (0: none)
	uint32_t reserved;    // 76
} world_layer;
_Static_assert(sizeof(world_layer) == 80, "world_layer layout");

enum {
	LAYER_ENABLED = 1u,     // contributes to the pose
	LAYER_ADDITIVE = 2u,    // added on top of the blended base layers
	LAYER_REF_BIND = 4u,    // additive reference: the player's rest pose (else the clip's first sample)
	LAYER_LOOP_SHIFT = 4,   // bits 4-5: 0 once, 1 repeat, 2 ping-pong
	LAYER_STOP_AT_ZERO = 64u, // a fade that reaches weight 0 clears LAYER_ENABLED
	LAYER_REVERSED = 128u,  // ping-pong: currently playing backwards
	LAYER_PAUSED = 256u,    // time does not advance (once: set when the end is reached)
	LAYER_STOP_AT_END = 512u, // once: reaching the end clears LAYER_ENABLED (that frame blends without it)
};
// A clip sets a joint's rotation / translation / scale (and a scalar float) unless that sub-track
// holds the joint's default (bind) value throughout: kind default, or kind identity where the
// default is the identity (docs/format.md §Descriptors). What a clip does not set is left to the
// other layers and the rest pose, as engines blend only the tracks a clip has (a glTF animation
// without a channel for a node becomes default sub-tracks for it).
enum { PART_ROTATION = 1u, PART_TRANSLATION = 2u, PART_SCALE = 4u };

enum { EVENT_LOOP = 1u, EVENT_FINISHED = 2u, EVENT_FADED_OUT = 4u, EVENT_FADE_DONE = 8u, EVENT_WARP_DONE = 16u };

// A player (32 bytes).
typedef struct world_player {
	uint32_t joint_count;   // 0
	uint32_t scalar_floats; // 4
	uint32_t layer_count;   // 8
	uint32_t layers;        // 12: world_layer[layer_count]
	uint32_t pose;          // 16: output, joint_count * 10 + scalar_floats floats
	uint32_t rest;          // 20: rest (bind) pose, same layout: fills weight below 1, additive "bind" reference
	uint32_t flags;         // 24: bit 0 active
	uint32_t matrices;      // 28: world_matrices * (0: pose only)
} world_player;
_Static_assert(sizeof(world_player) == 32, "world_player layout");

// World state (in memory; sinew_world_state returns its address for JS).
typedef struct world_state {
	uint32_t blob_count;      // 0
	uint32_t blob_capacity;   // 4
	uint32_t blobs;           // 8: per blob { first world_clip *, clip count, bytes, size }
	uint32_t player_count;    // 12
	uint32_t player_capacity; // 16
	uint32_t players;         // 20: world_player *[player_capacity]
	uint32_t reserved[2];     // 24
	uint32_t accum;           // 32: float[accum_floats]: per player joint rot 4, tr 3, sc 3, their 3 weights; per scalar value, weight
	uint32_t accum_floats;    // 36
	uint32_t frames;          // 40: sinew_world_update calls
	uint32_t layers_sampled;  // 44: by the last update
	uint32_t heap_top;        // 48: end of the used memory (after the latest allocation)
	uint32_t mark;            // 52: heap position before the latest reserve (rollback point)
} world_state;

// Optional matrix outputs of a player, written by JS (world.mjs WorldPlayer.matrices) at setup:
// after blending, the frame call composes each joint's local matrix from its pose, multiplies by
// its parent's world matrix (a joint, or an anchor matrix JS writes each frame) and each skin's
// bones by their inverse bind matrices. Column-major 4x4 floats, as three.js's Matrix4.elements.
typedef struct world_matrices {
	uint32_t parent;  // 0: int32_t[joints]: parent joint, or -1 - anchor
	uint32_t order;   // 4: uint32_t[joints]: joints with every parent before its children
	uint32_t anchors; // 8: float[16 * anchors]
	uint32_t world;   // 12: float[16 * joints]: output
	uint32_t skins;   // 16: world_skin * (a list)
	uint32_t anchor_count; // 20
	uint32_t inverses;     // 24: world_inverses * or 0
	uint32_t reserved;     // 28
} world_matrices;

// Joints whose world matrix is also wanted inverted (three.js: a skinned mesh's bindMatrixInverse).
typedef struct world_inverses {
	uint32_t count;  // 0
	uint32_t joints; // 4: uint32_t[count]: player joints
	uint32_t out;    // 8: float[16 * count]: inverse(world[joint])
	uint32_t reserved;
} world_inverses;

typedef struct world_skin {
	uint32_t bone_count; // 0
	uint32_t joints;     // 4: uint32_t[bone_count]: player joint of each bone
	uint32_t inverse;    // 8: float[16 * bone_count]: inverse bind matrices
	uint32_t out;        // 12: float[16 * bone_count]: world[joint] * inverse
	uint32_t next;       // 16: world_skin * or 0
	uint32_t capacity;   // 20: floats allocated at `out` (JS: a bone texture may want padding)
	uint32_t reserved[2];
} world_skin;

typedef struct world_blob {
	uint32_t clips, clip_count, bytes, size;
} world_blob;

static world_state W;
static sinew_error E;

__attribute__((noinline)) static void *take(size_t size) { // (one copy: bytes)
	void *p = sinewi_web_heap_alloc(size, 16);
	if (p) memset(p, 0, size);
	W.heap_top = (uint32_t)(uintptr_t)sinewi_web_heap_mark(); // the arena's real top (the decoder's own allocations included)
	return p;
}

void *sinew_world_alloc(uint32_t size) {
	return take(size);
}

// Allocates room for a blob about to be loaded and remembers where the heap was, so a failing
// sinew_world_load gives every byte back.
void *sinew_world_reserve(uint32_t size) {
	W.mark = (uint32_t)(uintptr_t)sinewi_web_heap_mark();
	return take(size);
}

// Zeroes and gives back everything allocated after `mark` (a failed load or player).
__attribute__((noinline)) static void rollback(uint32_t mark) {
	uint32_t top = (uint32_t)(uintptr_t)sinewi_web_heap_mark();
	if (top > mark) memset((void *)(uintptr_t)mark, 0, top - mark);
	sinewi_web_heap_rewind((void *)(uintptr_t)mark);
}

const char *sinew_world_error(void) {
	return E.message;
}

uint32_t sinew_world_state(void) {
	if (!W.heap_top) W.heap_top = (uint32_t)(uintptr_t)sinewi_web_heap_mark();
	return (uint32_t)(uintptr_t)&W;
}

// Validation only (world.mjs runs it in a throwaway instance first, so a bad blob never touches
// the world's memory).
int sinew_world_validate(const void *blob, uint32_t size) {
	if (!blob && size) return (int)sinewi_fail(&E, SINEW_RESULT_INVALID_ARGUMENT, "NULL blob");
	return (int)sinew_validate(blob, size, &E);
}

// Validates the blob at `blob` (from sinew_world_reserve; it stays there for the world's life)
// and prepares every clip: a sampling context (random access unless options bit 0: the same cost
// at any time, so players at different times share one context) and its pose at t = 0. On
// failure every allocation since the reserve is zeroed and given back and the state restored.
SINEWI_WASM_SMALL int sinew_world_load(const void *blob, uint32_t size, uint32_t options, const sinew_qvv *rest,
                                       const float *rest_scalars) {
	if (!W.mark) W.mark = (uint32_t)(uintptr_t)sinewi_web_heap_mark();
	world_state saved = W;
	sinew_result r = sinew_validate(blob, size, &E);
	uint32_t count = r == SINEW_RESULT_OK ? sinew_blob_clip_count(blob, size) : 0;
	world_clip *clips = NULL;
	if (r == SINEW_RESULT_OK) {
		clips = (world_clip *)take((size_t)count * sizeof(world_clip) + 16);
		if (!clips) r = sinewi_fail(&E, SINEW_RESULT_OUT_OF_MEMORY, "out of memory (clip table)");
	}
	sinew_context_options co = {SINEW_KERNEL_AUTO, 0, (options & 1u) ? 0 : 1, 0, rest, rest_scalars}; // (rest: a packed glTF's)
	for (uint32_t i = 0; r == SINEW_RESULT_OK && i < count; ++i) {
		world_clip *c = &clips[i];
		sinew_clip_info ci;
		r = sinew_blob_clip_info(blob, size, i, &ci, &E);
		if (r != SINEW_RESULT_OK) break;
		size_t need = sinew_context_size_with(blob, size, i, &co);
		void *mem = need ? take(need) : NULL;
		if (!mem) { r = sinewi_fail(&E, SINEW_RESULT_OUT_OF_MEMORY, "clip %u: out of memory (context)", i); break; }
		sinew_context *ctx;
		r = sinew_context_init(mem, need, blob, size, i, &co, &ctx, &E);
		if (r != SINEW_RESULT_OK) break;
		uint32_t *layout = (uint32_t *)take((size_t)ci.scalar_track_count * 8 + 8);
		if (!layout) { r = sinewi_fail(&E, SINEW_RESULT_OUT_OF_MEMORY, "out of memory (scalar layout)"); break; }
		uint32_t scalar_floats = 0; // where sinew_sample_pose writes each scalar track
		for (uint32_t s = 0; s < ci.scalar_track_count; ++s) {
			layout[2 * s] = ctx->scalars[s].output;
			layout[2 * s + 1] = ctx->scalars[s].components;
			uint32_t end = ctx->scalars[s].output + ctx->scalars[s].components;
			if (end > scalar_floats) scalar_floats = end;
		}
		uint8_t *part = (uint8_t *)take((size_t)ci.joint_count + scalar_floats + 4);
		if (!part) { r = sinewi_fail(&E, SINEW_RESULT_OUT_OF_MEMORY, "out of memory (participation)"); break; }
		// the rest pose the defaults hold: the rig's (format 3), else the identity (a sub-track of kind identity
		// then sets nothing either)
		for (uint32_t j = 0; j < ci.joint_count; ++j) {
			float bind[10];
			const float *def = sinewi_rig_rest(&ctx->view, j, bind) ? bind : NULL;
			uint8_t m = 0;
			for (uint32_t k = 0; k < 3; ++k) {
				uint8_t kind = ctx->joints[j].kinds[k];
				int sets = kind >= 2;
				if (kind == 0 && def) { // identity: sets something when the default is not the identity
					const float *d = def + (k == 0 ? 0 : k == 1 ? 4 : 7);
					if (k == 0) sets = d[0] != 0.0f || d[1] != 0.0f || d[2] != 0.0f || (d[3] != 1.0f && d[3] != -1.0f);
					else if (k == 1) sets = d[0] != 0.0f || d[1] != 0.0f || d[2] != 0.0f;
					else sets = d[0] != 1.0f || d[1] != 1.0f || d[2] != 1.0f;
				}
				if (sets) m |= (uint8_t)(1u << k);
			}
			part[j] = m;
		}
		for (uint32_t s = 0; s < ci.scalar_track_count; ++s) {
			float bind[4];
			const float *def = sinewi_rig_scalar_rest(&ctx->view, s, bind) ? bind : NULL;
			uint8_t kind = ctx->scalars[s].kind;
			for (uint32_t k = 0; k < ctx->scalars[s].components; ++k) {
				int sets = kind >= 2 || (kind == 0 && def && def[k] != 0.0f);
				part[ci.joint_count + ctx->scalars[s].output + k] = sets ? 1u : 0u;
			}
		}
		uint32_t floats = ci.joint_count * 10 + scalar_floats;
		float *first = (float *)take((size_t)floats * 4 + 4);
		float *last = first ? (float *)take((size_t)floats * 4 + 4) : NULL;
		if (!last) { r = sinewi_fail(&E, SINEW_RESULT_OUT_OF_MEMORY, "out of memory (pose)"); break; }
		sinew_sample_pose(ctx, 0.0, (sinew_qvv *)(void *)first, NULL, first + ci.joint_count * 10);
		memcpy(last, first, (size_t)floats * 4);
		*c = (world_clip){ci.sample_rate, ci.duration, ci.unit_scale, ci.sample_count, ci.joint_count,
		                  ci.scalar_track_count, scalar_floats, ci.segment_count,
		                  (ci.looping ? 1u : 0u) | (ci.has_metadata ? 2u : 0u), ci.size,
		                  (uint32_t)(uintptr_t)ci.name, (uint32_t)(uintptr_t)layout,
		                  (uint32_t)(uintptr_t)sinew_context_kernel(ctx), (uint32_t)(uintptr_t)ctx,
		                  (uint32_t)(uintptr_t)first, (uint32_t)(uintptr_t)part, (uint32_t)(uintptr_t)last};
	}
	if (r == SINEW_RESULT_OK && W.blob_count == W.blob_capacity) {
		uint32_t cap = W.blob_capacity ? W.blob_capacity * 2 : 8;
		world_blob *b = (world_blob *)take((size_t)cap * sizeof(world_blob));
		if (!b) r = sinewi_fail(&E, SINEW_RESULT_OUT_OF_MEMORY, "out of memory (blob table)");
		else {
			if (W.blob_count) memcpy(b, (void *)(uintptr_t)W.blobs, (size_t)W.blob_count * sizeof(world_blob));
			W.blobs = (uint32_t)(uintptr_t)b;
			W.blob_capacity = cap;
		}
	}
	if (r != SINEW_RESULT_OK) {
		// give back everything since the reserve (blob bytes included), zeroed as it was
		rollback(saved.mark);
		W = saved;
		W.heap_top = saved.mark;
		W.mark = 0;
		return (int)r;
	}
	world_blob *b = &((world_blob *)(uintptr_t)W.blobs)[W.blob_count++];
	*b = (world_blob){(uint32_t)(uintptr_t)clips, count, (uint32_t)(uintptr_t)blob, size};
	W.mark = 0;
	W.heap_top = (uint32_t)(uintptr_t)sinewi_web_heap_mark();
	E.code = SINEW_RESULT_OK;
	E.message[0] = '\0';
	return SINEW_RESULT_OK;
}

// Address of clip `clip` of blob `blob` (its world_clip), 0 when out of range.
uint32_t sinew_world_clip(uint32_t blob, uint32_t clip) {
	if (blob >= W.blob_count) return 0;
	const world_blob *b = &((const world_blob *)(uintptr_t)W.blobs)[blob];
	return clip < b->clip_count ? b->clips + clip * (uint32_t)sizeof(world_clip) : 0;
}

// A player of `joints` joints and `scalar_floats` scalar floats with `layers` empty layers; its
// rest pose starts as identity (JS writes the real one). Returns its address, 0 when out of memory.
SINEWI_WASM_SMALL uint32_t sinew_world_add_player(uint32_t joints, uint32_t scalar_floats, uint32_t layers) {
	if (joints > (1u << 20) || scalar_floats > (1u << 20) || layers > 1024 || layers == 0) return 0;
	world_state saved = W;
	uint32_t mark = (uint32_t)(uintptr_t)sinewi_web_heap_mark();
	uint32_t floats = joints * 10 + scalar_floats;
	world_player *p = (world_player *)take(sizeof(world_player));
	world_layer *l = p ? (world_layer *)take((size_t)layers * sizeof(world_layer)) : NULL;
	float *pose = l ? (float *)take((size_t)floats * 4 + 4) : NULL;
	float *rest = pose ? (float *)take((size_t)floats * 4 + 4) : NULL;
	int ok = rest != NULL;
	uint32_t need = joints * 13 + scalar_floats * 2;
	if (ok && need > W.accum_floats) {
		float *a = (float *)take((size_t)need * 4);
		if (a) { W.accum = (uint32_t)(uintptr_t)a; W.accum_floats = need; } else ok = 0;
	}
	if (ok && W.player_count == W.player_capacity) {
		uint32_t cap = W.player_capacity ? W.player_capacity * 2 : 16;
		uint32_t *t = (uint32_t *)take((size_t)cap * 4);
		if (t) {
			if (W.player_count) memcpy(t, (void *)(uintptr_t)W.players, (size_t)W.player_count * 4);
			W.players = (uint32_t)(uintptr_t)t;
			W.player_capacity = cap;
		} else ok = 0;
	}
	if (!ok) { rollback(mark); W = saved; return 0; }
	for (uint32_t j = 0; j < joints; ++j) {
		pose[j * 10 + 3] = rest[j * 10 + 3] = 1.0f;
		for (int k = 7; k < 10; ++k) pose[j * 10 + k] = rest[j * 10 + k] = 1.0f;
	}
	for (uint32_t i = 0; i < layers; ++i) l[i].speed = l[i].weight = 1.0f, l[i].loop_count = -1;
	*p = (world_player){joints, scalar_floats, layers, (uint32_t)(uintptr_t)l, (uint32_t)(uintptr_t)pose,
	                    (uint32_t)(uintptr_t)rest, 1u, 0};
	((uint32_t *)(uintptr_t)W.players)[W.player_count++] = (uint32_t)(uintptr_t)p;
	return (uint32_t)(uintptr_t)p;
}

// Time and weight of one layer for a frame of dt seconds; sets its events.
static void advance(world_layer *l, const world_clip *c, double dt) {
	l->events = 0;
	l->loops = 0;
	if (l->fade_rate > 0.0f) {
		float step = (float)(dt > 0 ? dt : -dt) * l->fade_rate;
		float w = l->weight, target = l->fade_target;
		if (w < target) w = w + step >= target ? target : w + step;
		else w = w - step <= target ? target : w - step;
		l->weight = w;
		if (w == target) {
			l->fade_rate = 0.0f;
			l->events |= EVENT_FADE_DONE;
			if (target == 0.0f && (l->flags & LAYER_STOP_AT_ZERO)) {
				l->flags &= ~(uint32_t)LAYER_ENABLED;
				l->events |= EVENT_FADED_OUT;
			}
		}
	}
	if (l->speed_rate > 0.0f) { // a warp: the speed ramps like a fade (three.js AnimationAction.warp)
		float step = (float)(dt > 0 ? dt : -dt) * l->speed_rate;
		float s = l->speed, target = l->speed_target;
		if (s < target) s = s + step >= target ? target : s + step;
		else s = s - step <= target ? target : s - step;
		l->speed = s;
		if (s == target) { l->speed_rate = 0.0f; l->events |= EVENT_WARP_DONE; }
	}
	if (l->flags & LAYER_PAUSED) return;
	double base = 0, d = c->duration;
	if (l->range_to > l->range_from) { // a sub-range of the clip
		double a = l->range_from > 0 ? (double)l->range_from : 0, b = (double)l->range_to < d ? (double)l->range_to : d;
		if (a > d) a = d;
		base = a;
		d = b > a ? b - a : 0;
	}
	if (!(d > 0)) { l->time = base; return; }
	uint32_t mode = (l->flags >> LAYER_LOOP_SHIFT) & 3u;
	double step = dt * (double)l->speed;
	double t0 = l->time - base;
	if (!(t0 >= 0)) t0 = 0;
	if (t0 > d) t0 = d;
	double t = t0 + step;
	if (!(t == t)) t = 0; // NaN
	int end = 0;
	if (l->loop_count < 0 && step > 0) l->loop_count = 0; // three.js: a forward start counts from 0
	double n = 0; // loops crossed
	if (mode == 1u) { // repeat
		if (t >= d || t < 0) {
			double turns = floor(t / d);
			t -= turns * d;
			if (t >= d || t < 0) t = 0; // rounding
			n = turns < 0 ? -turns : turns;
		}
	} else if (mode == 2u) { // ping-pong: a zigzag; x is the position along it, forward then back
		double x = (l->flags & LAYER_REVERSED) ? 2 * d - t0 : t0;
		double x2 = x + step;
		if (!(x2 == x2)) x2 = x;
		double fx = floor(x / d), crossed = floor(x2 / d) - fx;
		n = crossed < 0 ? -crossed : crossed;
		double pending = (double)l->repetitions - (double)l->loop_count;
		if (l->repetitions && n >= pending && pending >= 0) { // the last turn: stop at the end it reaches
			x2 = (step > 0 ? fx + pending : fx + 1 - pending) * d; // the zigzag boundary of the last turn
		}
		double u = x2 - floor(x2 / (2 * d)) * (2 * d); // [0, 2d)
		if (u > d) { t = 2 * d - u; l->flags |= LAYER_REVERSED; }
		else { t = u; l->flags &= ~(uint32_t)LAYER_REVERSED; }
		if (t < 0) t = 0;
		if (t > d) t = d;
	} else { // once: clamp, pause, report
		if (t >= d) { t = d; end = 1; }
		else if (t <= 0 && step < 0) { t = 0; end = 1; }
	}
	if (n != 0) {
		double count = (double)l->loop_count + n;
		l->loop_count = count > 2e9 ? 2000000000 : (int32_t)count;
		if (l->repetitions && count >= (double)l->repetitions) { // finite repetitions done (three.js: stop at the end)
			end = 1;
			if (mode == 1u) t = step > 0 ? d : 0;
		} else {
			l->loops = n > 4e9 ? 4000000000u : (uint32_t)n;
			l->events |= EVENT_LOOP;
		}
	}
	if (end) {
		l->flags |= LAYER_PAUSED;
		l->events |= EVENT_FINISHED;
		if (l->flags & LAYER_STOP_AT_END) l->flags &= ~(uint32_t)LAYER_ENABLED;
	}
	l->time = base + t;
}

static inline uint32_t map_joint(const world_layer *l, uint32_t c) {
	return l->joint_map ? ((const uint32_t *)(uintptr_t)l->joint_map)[c] : c;
}
static inline uint32_t map_scalar(const world_layer *l, uint32_t s) {
	return l->scalar_map ? ((const uint32_t *)(uintptr_t)l->scalar_map)[s] : s;
}

// The clip's pose at t in its own buffer: only the animated outputs are decoded (the constants
// stay from the load-time sample), whichever player and layer sampled the clip last.
__attribute__((noinline)) static const float *sample_clip(const world_clip *c, double t) {
	float *pose = (float *)(uintptr_t)c->pose;
	sinew_sample_pose_animated((sinew_context *)(uintptr_t)c->context, t, (sinew_qvv *)(void *)pose, NULL, pose + c->joint_count * 10);
	W.layers_sampled++;
	return pose;
}

// A layer playing alone: the player's pose is the clip's sample where the clip sets a sub-track, and the rest pose
// elsewhere, copied (the blend below gives the same to float rounding, and costs about as much as the player's
// sampling: clearing its sums, adding, renormalizing every rotation).
__attribute__((minsize, noinline)) static void copy_sole(world_player *p, const world_layer *l, const float *smp) {
	const uint32_t J = p->joint_count, S = p->scalar_floats;
	const world_clip *c = (const world_clip *)(uintptr_t)l->clip;
	const uint8_t *part = (const uint8_t *)(uintptr_t)c->part;
	float *out = (float *)(uintptr_t)p->pose;
	memcpy(out, (const float *)(uintptr_t)p->rest, ((size_t)J * 10 + S) * sizeof(float));
	for (uint32_t cj = 0; cj < c->joint_count; ++cj) {
		const uint32_t j = map_joint(l, cj), pm = part[cj];
		if (j >= J || !pm) continue;
		const float *v = smp + cj * 10;
		float *o = out + j * 10;
		if (pm & PART_ROTATION) memcpy(o, v, 4 * sizeof(float));
		if (pm & PART_TRANSLATION) memcpy(o + 4, v + 4, 3 * sizeof(float));
		if (pm & PART_SCALE) memcpy(o + 7, v + 7, 3 * sizeof(float));
	}
	const float *sv = smp + c->joint_count * 10;
	for (uint32_t cs = 0; cs < c->scalar_floats; ++cs) {
		const uint32_t s = map_scalar(l, cs);
		if (s < S && part[c->joint_count + cs]) out[J * 10 + s] = sv[cs];
	}
}

// `sole`: the player's one layer with a weight, when that is a base layer at weight exactly 1 without a mask (copied).
static void blend_player(world_player *p, const world_layer *sole) {
	const uint32_t J = p->joint_count, S = p->scalar_floats;
	float *acc = (float *)(uintptr_t)W.accum;      // [J][13]: rot 4, tr 3, sc 3, weights of rot, tr, sc
	float *sacc = acc + (size_t)J * 13;           // [S][2]: value, weight
	float *out = (float *)(uintptr_t)p->pose;
	const float *rest = (const float *)(uintptr_t)p->rest;
	world_layer *layers = (world_layer *)(uintptr_t)p->layers;
	if (!sole) memset(acc, 0, ((size_t)J * 13 + (size_t)S * 2) * 4);
	// 1. base layers, in order: weighted sums of the sub-tracks each clip sets (rotations
	// sign-aligned with the running sum)
	for (uint32_t i = 0; i < p->layer_count; ++i) {
		const world_layer *l = &layers[i];
		if (!l->clip || !(l->flags & LAYER_ENABLED) || (l->flags & LAYER_ADDITIVE) || !(l->weight > 0.0f)) continue;
		const world_clip *c = (const world_clip *)(uintptr_t)l->clip;
		const float *smp = sample_clip(c, l->time);
		if (sole) { // (the one layer playing)
			copy_sole(p, l, smp);
			return;
		}
		const float *mask = (const float *)(uintptr_t)l->mask;
		const uint8_t *part = (const uint8_t *)(uintptr_t)c->part;
		for (uint32_t cj = 0; cj < c->joint_count; ++cj) {
			uint32_t j = map_joint(l, cj);
			uint32_t pm = part[cj];
			if (j >= J || !pm) continue;
			float w = l->weight * (mask ? mask[j] : 1.0f);
			if (!(w > 0.0f)) continue;
			const float *v = smp + cj * 10;
			float *a = acc + j * 13;
			if (pm & PART_ROTATION) {
				float dot = a[0] * v[0] + a[1] * v[1] + a[2] * v[2] + a[3] * v[3];
				float wr = dot < 0.0f ? -w : w;
				for (int k = 0; k < 4; ++k) a[k] += wr * v[k];
				a[10] += w;
			}
			if (pm & PART_TRANSLATION) {
				for (int k = 4; k < 7; ++k) a[k] += w * v[k];
				a[11] += w;
			}
			if (pm & PART_SCALE) {
				for (int k = 7; k < 10; ++k) a[k] += w * v[k];
				a[12] += w;
			}
		}
		const float *sv = smp + c->joint_count * 10;
		const uint8_t *spart = part + c->joint_count;
		for (uint32_t cs = 0; cs < c->scalar_floats; ++cs) {
			uint32_t s = map_scalar(l, cs);
			if (s >= S || !spart[cs]) continue;
			sacc[s * 2] += l->weight * sv[cs];
			sacc[s * 2 + 1] += l->weight;
		}
	}
	// 2. per sub-track, weight below 1 is filled with the rest pose; the sums are divided by
	// max(weight, 1) (rotations normalized)
	for (uint32_t j = 0; j < J; ++j) {
		float *a = acc + j * 13;
		const float *r = rest + j * 10;
		float *o = out + j * 10;
		float w = a[10];
		if (w < 1.0f) {
			float f = 1.0f - w;
			float dot = a[0] * r[0] + a[1] * r[1] + a[2] * r[2] + a[3] * r[3];
			float fr = dot < 0.0f ? -f : f;
			for (int k = 0; k < 4; ++k) a[k] += fr * r[k];
		}
		float len2 = a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3];
		if (len2 > 1e-30f) {
			float inv = 1.0f / sqrtf(len2);
			for (int k = 0; k < 4; ++k) o[k] = a[k] * inv;
		} else {
			for (int k = 0; k < 4; ++k) o[k] = r[k]; // opposite rotations cancelled: rest
		}
		for (int g = 0; g < 2; ++g) {
			const int k0 = 4 + 3 * g;
			float wv = a[11 + g];
			if (wv < 1.0f) {
				float f = 1.0f - wv;
				for (int k = k0; k < k0 + 3; ++k) a[k] += f * r[k];
				wv = 1.0f;
			}
			float iw = 1.0f / wv;
			for (int k = k0; k < k0 + 3; ++k) o[k] = a[k] * iw;
		}
	}
	for (uint32_t s = 0; s < S; ++s) {
		float v = sacc[s * 2], w = sacc[s * 2 + 1];
		if (w < 1.0f) { v += (1.0f - w) * rest[J * 10 + s]; w = 1.0f; }
		out[J * 10 + s] = v / w;
	}
	// 3. additive layers, in order, on top: rotation q = q * nlerp(identity, ref^-1 * sample, w);
	// translation, scale and scalars += w * (sample - ref)
	for (uint32_t i = 0; i < p->layer_count; ++i) {
		const world_layer *l = &layers[i];
		if (!l->clip || !(l->flags & LAYER_ENABLED) || !(l->flags & LAYER_ADDITIVE) || !(l->weight > 0.0f)) continue;
		const world_clip *c = (const world_clip *)(uintptr_t)l->clip;
		const float *smp = sample_clip(c, l->time);
		const int bind = (l->flags & LAYER_REF_BIND) != 0;
		const float *first = (const float *)(uintptr_t)c->first;
		const float *mask = (const float *)(uintptr_t)l->mask;
		const uint8_t *part = (const uint8_t *)(uintptr_t)c->part;
		for (uint32_t cj = 0; cj < c->joint_count; ++cj) {
			uint32_t j = map_joint(l, cj);
			uint32_t pm = part[cj];
			if (j >= J || !pm) continue;
			float w = l->weight * (mask ? mask[j] : 1.0f);
			if (!(w > 0.0f)) continue;
			const float *v = smp + cj * 10;
			const float *r = bind ? rest + j * 10 : first + cj * 10;
			float *o = out + j * 10;
			if (pm & PART_TRANSLATION) for (int k = 4; k < 7; ++k) o[k] += w * (v[k] - r[k]);
			if (pm & PART_SCALE) for (int k = 7; k < 10; ++k) o[k] += w * (v[k] - r[k]);
			if (!(pm & PART_ROTATION)) continue;
			// d = conj(r) * v
			float rx = -r[0], ry = -r[1], rz = -r[2], rw = r[3];
			float dx = rw * v[0] + rx * v[3] + ry * v[2] - rz * v[1];
			float dy = rw * v[1] - rx * v[2] + ry * v[3] + rz * v[0];
			float dz = rw * v[2] + rx * v[1] - ry * v[0] + rz * v[3];
			float dw = rw * v[3] - rx * v[0] - ry * v[1] - rz * v[2];
			if (dw < 0.0f) { dx = -dx; dy = -dy; dz = -dz; dw = -dw; }
			// nlerp from identity by w
			dx *= w; dy *= w; dz *= w; dw = (1.0f - w) + w * dw;
			float dl = sqrtf(dx * dx + dy * dy + dz * dz + dw * dw);
			if (dl > 1e-30f) { dl = 1.0f / dl; dx *= dl; dy *= dl; dz *= dl; dw *= dl; } else { dx = dy = dz = 0; dw = 1; }
			// o = o * d
			float ox = o[0], oy = o[1], oz = o[2], ow = o[3];
			float qx = ow * dx + ox * dw + oy * dz - oz * dy;
			float qy = ow * dy - ox * dz + oy * dw + oz * dx;
			float qz = ow * dz + ox * dy - oy * dx + oz * dw;
			float qw = ow * dw - ox * dx - oy * dy - oz * dz;
			float ql = sqrtf(qx * qx + qy * qy + qz * qz + qw * qw);
			ql = ql > 1e-30f ? 1.0f / ql : 1.0f;
			o[0] = qx * ql; o[1] = qy * ql; o[2] = qz * ql; o[3] = qw * ql;
		}
		const float *sv = smp + c->joint_count * 10;
		const float *sr = bind ? rest + J * 10 : first + c->joint_count * 10;
		for (uint32_t cs = 0; cs < c->scalar_floats; ++cs) {
			uint32_t s = map_scalar(l, cs);
			if (s >= S || !part[c->joint_count + cs]) continue;
			out[J * 10 + s] += l->weight * (sv[cs] - (bind ? sr[s] : sr[cs]));
		}
	}
}

// Column-major 4x4 matrices (three.js Matrix4.elements order). o = a * b (o does not alias a or b):
// columns of f32x4 in the SIMD build, rolled scalar loops in the baseline (smaller).
#ifdef __wasm_simd128__
typedef float v4 __attribute__((vector_size(16), aligned(4)));
__attribute__((noinline)) static void mat_mul(float *o, const float *a, const float *b) {
	const v4 a0 = *(const v4 *)(const void *)a, a1 = *(const v4 *)(const void *)(a + 4),
	         a2 = *(const v4 *)(const void *)(a + 8), a3 = *(const v4 *)(const void *)(a + 12);
#pragma clang loop unroll(disable)
	for (int c = 0; c < 16; c += 4)
		*(v4 *)(void *)(o + c) = a0 * b[c] + a1 * b[c + 1] + a2 * b[c + 2] + a3 * b[c + 3];
}
#else
__attribute__((noinline)) static void mat_mul(float *o, const float *a, const float *b) {
#pragma clang loop unroll(disable)
	for (int i = 0; i < 16; ++i) {
		const int c = i & ~3, r = i & 3;
		o[i] = a[r] * b[c] + a[4 + r] * b[c + 1] + a[8 + r] * b[c + 2] + a[12 + r] * b[c + 3];
	}
}
#endif

// The local matrix of a pose entry (q xyzw, t, s), as three.js Matrix4.compose.
static void mat_compose(float *m, const float *v) {
	const float x = v[0], y = v[1], z = v[2], w = v[3], x2 = x + x, y2 = y + y, z2 = z + z;
	const float xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
	const float wx = w * x2, wy = w * y2, wz = w * z2, sx = v[7], sy = v[8], sz = v[9];
	m[0] = (1 - (yy + zz)) * sx; m[1] = (xy + wz) * sx; m[2] = (xz - wy) * sx; m[3] = 0;
	m[4] = (xy - wz) * sy; m[5] = (1 - (xx + zz)) * sy; m[6] = (yz + wx) * sy; m[7] = 0;
	m[8] = (xz + wy) * sz; m[9] = (yz - wx) * sz; m[10] = (1 - (xx + yy)) * sz; m[11] = 0;
	m[12] = v[4]; m[13] = v[5]; m[14] = v[6]; m[15] = 1;
}

// o = inverse of the affine a (last row 0 0 0 1: compose and anchors keep it): the 3x3 part by
// cofactors, then -inverse * translation; zeros when a is singular (as three's Matrix4.invert).
__attribute__((minsize, noinline)) static void mat_invert_affine(float *o, const float *a) {
	const float c0 = a[5] * a[10] - a[6] * a[9], c1 = a[6] * a[8] - a[4] * a[10], c2 = a[4] * a[9] - a[5] * a[8];
	const float det = a[0] * c0 + a[1] * c1 + a[2] * c2, d = det == 0 ? 0 : 1 / det;
	o[0] = c0 * d; o[1] = (a[2] * a[9] - a[1] * a[10]) * d; o[2] = (a[1] * a[6] - a[2] * a[5]) * d;
	o[4] = c1 * d; o[5] = (a[0] * a[10] - a[2] * a[8]) * d; o[6] = (a[2] * a[4] - a[0] * a[6]) * d;
	o[8] = c2 * d; o[9] = (a[1] * a[8] - a[0] * a[9]) * d; o[10] = (a[0] * a[5] - a[1] * a[4]) * d;
	for (int r = 0; r < 3; ++r) o[12 + r] = -(o[r] * a[12] + o[4 + r] * a[13] + o[8 + r] * a[14]), o[4 * r + 3] = 0;
	o[15] = d == 0 ? 0 : 1;
}

// World matrices of a player's joints (parent or anchor times local), then its skins' bone matrices
// and the inverted joints.
static void player_matrices(const world_player *p) {
	const world_matrices *m = (const world_matrices *)(uintptr_t)p->matrices;
	const int32_t *parent = (const int32_t *)(uintptr_t)m->parent;
	const uint32_t *order = (const uint32_t *)(uintptr_t)m->order;
	const float *anchors = (const float *)(uintptr_t)m->anchors, *pose = (const float *)(uintptr_t)p->pose;
	float *world = (float *)(uintptr_t)m->world;
	const uint32_t J = p->joint_count;
	float local[16];
	for (uint32_t i = 0; i < J; ++i) {
		const uint32_t j = order[i];
		const int32_t pj = j < J ? parent[j] : 0;
		const uint32_t a = (uint32_t)(-1 - pj);
		if (j >= J || (pj >= 0 ? (uint32_t)pj >= J : a >= m->anchor_count)) continue;
		mat_compose(local, pose + 10 * j);
		mat_mul(world + 16 * j, pj >= 0 ? world + 16 * (uint32_t)pj : anchors + 16 * a, local);
	}
	for (const world_skin *s = (const world_skin *)(uintptr_t)m->skins; s; s = (const world_skin *)(uintptr_t)s->next) {
		const uint32_t *joints = (const uint32_t *)(uintptr_t)s->joints;
		const float *inverse = (const float *)(uintptr_t)s->inverse;
		float *out = (float *)(uintptr_t)s->out;
		for (uint32_t b = 0; b < s->bone_count; ++b)
			if (joints[b] < J) mat_mul(out + 16 * b, world + 16 * joints[b], inverse + 16 * b);
	}
	const world_inverses *v = (const world_inverses *)(uintptr_t)m->inverses;
	if (!v) return;
	const uint32_t *joints = (const uint32_t *)(uintptr_t)v->joints;
	float *out = (float *)(uintptr_t)v->out;
	for (uint32_t i = 0; i < v->count; ++i)
		if (joints[i] < J) mat_invert_affine(out + 16 * i, world + 16 * joints[i]);
}

// THE per-frame call: advances every active player's layers by dt seconds (time, loop mode,
// crossfade ramps, warps, events) and writes every active player's blended pose and scalars (and
// matrices, for players that have them). Allocates nothing. Returns the number of layers sampled.
uint32_t sinew_world_update(double dt) {
	if (!(dt == dt)) dt = 0;
	W.frames++;
	W.layers_sampled = 0;
	const uint32_t *players = (const uint32_t *)(uintptr_t)W.players;
	for (uint32_t i = 0; i < W.player_count; ++i) {
		world_player *p = (world_player *)(uintptr_t)players[i];
		if (!(p->flags & 1u)) continue;
		world_layer *layers = (world_layer *)(uintptr_t)p->layers;
		const world_layer *sole = NULL;
		uint32_t weighted = 0;
		for (uint32_t k = 0; k < p->layer_count; ++k) {
			world_layer *l = &layers[k];
			if (l->clip && (l->flags & LAYER_ENABLED)) {
				advance(l, (const world_clip *)(uintptr_t)l->clip, dt);
				if ((l->flags & LAYER_ENABLED) && l->weight > 0.0f) ++weighted, sole = l; // (an end may disable it)
			} else {
				l->events = 0, l->loops = 0;
			}
		}
		if (weighted != 1 || (sole->flags & LAYER_ADDITIVE) || sole->weight != 1.0f || sole->mask) sole = NULL;
		blend_player(p, sole);
		if (p->matrices) player_matrices(p);
	}
	return W.layers_sampled;
}
