// sinew — see include/sinew.h for version and licence
//
// Lossless glTF keyframe sampler for wasm32, freestanding (no libc, no imports). sample(block, t) writes
// every sampler's output into the block's output array and a "changed" bitset; sample_all(heap) does that
// for every active group of a heap, each at its own time: one call per frame for the whole scene. The
// block and heap layouts are documented byte by byte in README.md; all offsets are relative to the block
// or the heap, so either can be copied to any 16-byte-aligned address. The same source builds the MVP and the SIMD128
// variants: the 4-lane code uses clang vector extensions, lowered to scalar code without -msimd128.

typedef unsigned int u32;
typedef unsigned char u8;
typedef float v4 __attribute__((vector_size(16), aligned(4)));
typedef int i4 __attribute__((vector_size(16), aligned(4)));

enum { H_MAGIC, H_VERSION, H_SIZE, H_N, H_N_VEC3, H_N_QUAT, H_N_GENERAL, H_N_CONST, H_N_TRACKS, H_N_OUT,
	H_OFF_TRACKS, H_OFF_SAMPLERS, H_OFF_OUT, H_OFF_CHANGED, H_OFF_STATE, H_FLAGS };
enum { INTERP_STEP, INTERP_LINEAR, INTERP_CUBIC };
enum { PATH_T, PATH_R, PATH_S, PATH_W };
#define FLAG_PRIMED 1u

typedef struct { u32 nkeys, off_times; } track;
typedef struct { u32 key; float u, dt; u32 step_key; } track_state;
// interp_path: interpolation in bits 0-7, path in bits 8-15. stride: bytes from one key to the next.
typedef struct { u32 kind, interp_path, ncomp, track, off_values, out, node, stride; } sampler;

u32 alloc(u32 size);
void sample(u8 *b, float t);
void sample_all(u8 *heap);

extern u8 __heap_base;
static u32 arena_top;

// Bump allocator over __heap_base, 16-byte aligned; grows memory as needed. Returns 0 when out of memory.
u32 alloc(u32 size) {
	if (!arena_top)
		arena_top = ((u32)(unsigned long)&__heap_base + 15u) & ~15u;
	u32 p = arena_top;
	if (size > 0xFFFFFFF0u - p)
		return 0;
	u32 end = (p + size + 15u) & ~15u;
	u32 have = (u32)__builtin_wasm_memory_size(0) * 65536u;
	if (end > have || have == 0) {
		unsigned long need = ((unsigned long)end - have + 65535u) / 65536u;
		if (__builtin_wasm_memory_grow(0, need) == (unsigned long)-1)
			return 0;
	}
	arena_top = end;
	return p;
}

// Block addresses: offsets are multiples of 4 (checked by validate() in lossless.mjs); void * keeps the casts quiet.
static inline void *at(u8 *b, u32 off) { return b + off; }

static inline v4 load4(const float *p) { return *(const v4 *)p; }
static inline void store4(float *p, v4 v) { *(v4 *)p = v; }
static inline v4 splat(float x) { return (v4){x, x, x, x}; }

// Nonzero when lanes 0..2 (vec3) or 0..3 (quat) of a and b differ bit for bit.
static inline int differs(v4 a, v4 b, i4 lanes) {
	i4 d = ((i4)a ^ (i4)b) & lanes;
#ifdef __wasm_simd128__
	return __builtin_wasm_any_true_v128((__attribute__((vector_size(16))) long long)d);
#else
	return (d[0] | d[1] | d[2] | d[3]) != 0;
#endif
}

// Locates t in one key-time array: the interval [key, key+1] (key <= n-2), the fraction u in [0,1], the
// interval length and the STEP key (last key <= t). Tries the cached interval and its successor first
// (forward playback), then binary search. Times outside the keys clamp to the first/last key.
static void locate(const float *times, u32 n, track_state *st, float t) {
	u32 i = st->key;
	if (i > n - 2)
		i = 0;
	if (!(t >= times[i] && t < times[i + 1])) {
		if (i + 2 < n && t >= times[i + 1] && t < times[i + 2]) {
			i++;
		} else {
			u32 lo = 0, hi = n - 1;
			while (hi - lo > 1) {
				u32 mid = (lo + hi) >> 1;
				if (times[mid] <= t)
					lo = mid;
				else
					hi = mid;
			}
			i = lo > n - 2 ? n - 2 : lo;
		}
	}
	float t0 = times[i], t1 = times[i + 1], dt = t1 - t0;
	float u = 0.0f;
	u32 sk = i;
	if (t >= t1) {
		u = 1.0f;
		sk = i + 1;
	} else if (t > t0 && dt > 0.0f) {
		u = (t - t0) / dt;
		u = u > 1.0f ? 1.0f : u;
	}
	st->key = i;
	st->u = u;
	st->dt = dt;
	st->step_key = sk;
}

// sin(x)/x as a polynomial in y = x*x (Taylor to x^10; truncation < 4e-8 for x <= pi/2).
static inline v4 sinc_poly(v4 y) {
	v4 p = splat(-1.0f / 39916800.0f);
	p = p * y + splat(1.0f / 362880.0f);
	p = p * y + splat(-1.0f / 5040.0f);
	p = p * y + splat(1.0f / 120.0f);
	p = p * y + splat(-1.0f / 6.0f);
	return p * y + splat(1.0f);
}

// acos(d) / sqrt(1 - d), Abramowitz & Stegun 4.4.46, in each lane.
static inline v4 acos_poly(v4 d) {
	return splat(1.5707963050f) + d * (splat(-0.2145988016f) + d * (splat(0.0889789874f) + d * (splat(-0.0501743046f) +
		d * (splat(0.0308918810f) + d * (splat(-0.0170881256f) + d * (splat(0.0066700901f) + d * splat(-0.0012624911f)))))));
}

#ifndef __wasm_simd128__
// glTF slerp (shortest arc): q = (sin((1-u)th) a + sin(u th) b) / sin th, written with sinc so that th -> 0 is
// smooth without a special case. th = acos(d) by Abramowitz & Stegun 4.4.46 (|error| <= 2e-8 rad).
static inline v4 slerp(v4 a, v4 b, float u) {
	v4 ab = a * b;
	float d = ab[0] + ab[1] + ab[2] + ab[3];
	if (d < 0.0f) {
		b = -b;
		d = -d;
	}
	d = d > 1.0f ? 1.0f : d;
	float th = __builtin_sqrtf(1.0f - d) * acos_poly(splat(d))[0];
	float w = 1.0f - u;
	v4 x = (v4){th, w * th, u * th, 0.0f};
	v4 s = sinc_poly(x * x);
	float inv = 1.0f / s[0];
	return a * splat(w * s[1] * inv) + b * splat(u * s[2] * inv);
}
#endif

// Writes n floats to out, returns nonzero when any differs bit for bit from what was there.
static inline u32 put(float *out, u32 c, float v, u32 diff) {
	union { float f; u32 u; } o = {out[c]}, nw = {v};
	out[c] = v;
	return diff | (o.u ^ nw.u);
}

void sample(u8 *b, float t) {
	u32 *h = at(b, 0);
	const track *tracks = at(b, h[H_OFF_TRACKS]);
	const sampler *s = at(b, h[H_OFF_SAMPLERS]);
	float *out = at(b, h[H_OFF_OUT]);
	u32 *changed = at(b, h[H_OFF_CHANGED]);
	track_state *st = at(b, h[H_OFF_STATE]);
	u32 n = h[H_N], nt = h[H_N_TRACKS];
	if (t != t)
		t = 0.0f;

	for (u32 k = 0; k < nt; k++)
		if (tracks[k].nkeys >= 2)
			locate(at(b, tracks[k].off_times), tracks[k].nkeys, &st[k], t);
	// The first call after load/reset flags every sampler; later calls flag only outputs that changed.
	u32 first = !(h[H_FLAGS] & FLAG_PRIMED);
	for (u32 k = 0; k < (n + 31) >> 5; k++)
		changed[k] = first ? ~0u : 0u;
	if (first && (n & 31))
		changed[n >> 5] = (1u << (n & 31)) - 1u;

	u32 i = 0, end = h[H_N_VEC3];
	const i4 l3 = {-1, -1, -1, 0}, l4 = {-1, -1, -1, -1};
	for (; i < end; i++) {
		const track_state *ts = &st[s[i].track];
		u32 off = s[i].off_values + ts->key * s[i].stride;
		float *o = out + s[i].out;
		v4 old = load4(o);
		v4 r = load4(at(b, off)) * splat(1.0f - ts->u) + load4(at(b, off + s[i].stride)) * splat(ts->u);
		r = __builtin_shufflevector(r, old, 0, 1, 2, 7); // lane 3 belongs to the next output: keep it
		store4(o, r);
		changed[i >> 5] |= (u32)(differs(r, old, l3) != 0) << (i & 31);
	}
#ifdef __wasm_simd128__
	// Four rotations a step: slerp() for each, the same operations in the same order (so the same result bit for
	// bit), but the acos and sinc chains, the long part, run for the four in the lanes of one vector: the frame of
	// bench/web/run.mjs's 30,000 channels (8,591 rotations) 0.77x. The per-rotation parts are loops over a scratch,
	// not unrolled (four copies of a rotation's addressing would break the 4 KB budget). The last step repeats the
	// last rotation in its spare lanes (the same output, the same bit).
	for (u32 last = (end += h[H_N_QUAT]) - 1; i < end; i += 4) {
		v4 qa[4], qb[4], qo[4], d = splat(0.0f), u = d; // (d, u: one lane a rotation, shifted in as they come)
		float qw[8];
		u32 qj[4];
#pragma clang loop unroll(disable)
		for (u32 k = 0; k < 4; k++) {
			const u32 j = qj[k] = i + k <= last ? i + k : last;
			const track_state *ts = &st[s[j].track];
			const u32 off = s[j].off_values + ts->key * s[j].stride;
			v4 a = load4(at(b, off)), bk = load4(at(b, off + s[j].stride)), ab = a * bk;
			float dk = ab[0] + ab[1] + ab[2] + ab[3];
			if (dk < 0.0f) {
				bk = -bk;
				dk = -dk;
			}
			qa[k] = a, qb[k] = bk, qo[k] = load4(out + s[j].out);
			d = __builtin_shufflevector(d, splat(dk > 1.0f ? 1.0f : dk), 1, 2, 3, 4);
			u = __builtin_shufflevector(u, splat(ts->u), 1, 2, 3, 4);
		}
		const v4 w = splat(1.0f) - u;
		const v4 th = __builtin_wasm_sqrt_f32x4(splat(1.0f) - d) * acos_poly(d), x1 = w * th, x2 = u * th;
		const v4 inv = splat(1.0f) / sinc_poly(th * th);
		store4(qw, w * sinc_poly(x1 * x1) * inv);
		store4(qw + 4, u * sinc_poly(x2 * x2) * inv);
#pragma clang loop unroll(disable)
		for (u32 k = 0; k < 4; k++) {
			const u32 j = qj[k];
			const v4 r = qa[k] * splat(qw[k]) + qb[k] * splat(qw[k + 4]);
			store4(out + s[j].out, r);
			changed[j >> 5] |= (u32)(differs(r, qo[k], l4) != 0) << (j & 31);
		}
	}
	i = end;
#else
	for (end += h[H_N_QUAT]; i < end; i++) {
		const track_state *ts = &st[s[i].track];
		u32 off = s[i].off_values + ts->key * s[i].stride;
		float *o = out + s[i].out;
		v4 old = load4(o);
		v4 r = slerp(load4(at(b, off)), load4(at(b, off + s[i].stride)), ts->u);
		store4(o, r);
		changed[i >> 5] |= (u32)(differs(r, old, l4) != 0) << (i & 31);
	}
#endif
	for (end += h[H_N_GENERAL]; i < end; i++) {
		const track_state *ts = &st[s[i].track];
		u32 v = s[i].off_values;
		float *o = out + s[i].out;
		u32 nc = s[i].ncomp, diff = 0, interp = s[i].interp_path & 255, stride = s[i].stride;
		if (interp == INTERP_STEP) {
			const float *v0 = at(b, v + ts->step_key * stride);
			for (u32 c = 0; c < nc; c++)
				diff = put(o, c, v0[c], diff);
		} else if (interp == INTERP_LINEAR) {
			const float *v0 = at(b, v + ts->key * stride), *v1 = at(b, v + ts->key * stride + stride);
			float u = ts->u, w = 1.0f - u;
			for (u32 c = 0; c < nc; c++)
				diff = put(o, c, v0[c] * w + v1[c] * u, diff);
		} else {
			// Cubic Hermite spline; each key stores (in-tangent, value, out-tangent), tangents scaled by dt.
			const float *k0 = at(b, v + ts->key * stride), *k1 = at(b, v + ts->key * stride + stride);
			float u = ts->u, u2 = u * u, u3 = u2 * u, dt = ts->dt;
			float h00 = 2.0f * u3 - 3.0f * u2 + 1.0f, h10 = (u3 - 2.0f * u2 + u) * dt;
			float h01 = -2.0f * u3 + 3.0f * u2, h11 = (u3 - u2) * dt;
			float q[4], len = 0.0f;
			for (u32 c = 0; c < nc; c++) {
				float x = h00 * k0[nc + c] + h10 * k0[2 * nc + c] + h01 * k1[nc + c] + h11 * k1[c];
				if ((s[i].interp_path >> 8) == PATH_R)
					len += x * x, q[c & 3] = x;
				else
					diff = put(o, c, x, diff);
			}
			if ((s[i].interp_path >> 8) == PATH_R) {
				float inv = len > 0.0f ? 1.0f / __builtin_sqrtf(len) : 1.0f;
				for (u32 c = 0; c < 4; c++)
					diff = put(o, c, q[c] * inv, diff);
			}
		}
		changed[i >> 5] |= (u32)(diff != 0) << (i & 31);
	}
	if (first) {
		// Constant samplers (every key equal; cubic with zero tangents) are written once, on the first call.
		for (end += h[H_N_CONST]; i < end; i++) {
			const float *v = at(b, s[i].off_values);
			for (u32 c = 0; c < s[i].ncomp; c++)
				out[s[i].out + c] = v[c];
		}
		h[H_FLAGS] |= FLAG_PRIMED;
	}
}

// The heap (README.md §Heap layout): header, group table, blocks. Every active group's block is sampled at
// the group's own time. The heap is validated in lossless.mjs before it is used (blocks and table inside).
enum { HH_MAGIC, HH_VERSION, HH_SIZE, HH_SLOTS, HH_TABLE };
typedef struct { u32 block, size; float time; u32 flags; } group;
#define GROUP_ACTIVE 1u

void sample_all(u8 *heap) {
	const u32 *h = at(heap, 0);
	const group *g = at(heap, h[HH_TABLE]);
	for (u32 i = 0, n = h[HH_SLOTS]; i < n; i++)
		if (g[i].block && (g[i].flags & GROUP_ACTIVE))
			sample(heap + g[i].block, g[i].time);
}
