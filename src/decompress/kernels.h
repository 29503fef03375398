// sinew — see include/sinew.h for version and licence
// The math phase of sampling, written once over a small vector abstraction and compiled per
// instruction set by kernel_<isa>.c, which defines before including this file:
//   KERNEL_TABLE, KERNEL_NAME, KERNEL_ATTR (e.g. a target attribute), VW (lanes of VEC),
//   VEC, VMASK and V_LOAD V_STORE V_SET1 V_ADD V_SUB V_MUL V_DIV V_SQRT V_MAX V_NEG V_EQ V_LT V_LE V_GT
//   V_SEL(mask, a, b) (mask ? a : b), plus V4, V4_LOAD, V4_STORE, V4_SET1, V4_ADD, V4_SUB, V4_MUL
//   for 4-component vectors (VW == 1 builds use the scalar loop instead), and for the quantized
//   integers VI, VI_LOAD VI_SET1 VI_ADD VI_AND VI_SRL1 (logical shift right by one) VI_TOF (signed
//   32-bit to float) and V4_LOAD_TOF (4 integers loaded and converted); optionally V_STORE_QUATS(pose, out, left, x, y,
//   z, w), which writes the first `left` lanes' quaternions to pose + out[k] (the table's writes_pose).
// Operation order follows docs/format.md exactly, so every build gives identical floats.

KERNEL_ATTR static void kernel_rotations(sinewi_rotation_batch *b, uint32_t count) {
	const VEC one = V_SET1(1.0f), zero = V_SET1(0.0f), half = V_SET1(0.5f);
	const VEC f0 = V_SET1(0.0f), f1 = V_SET1(1.0f), f2 = V_SET1(2.0f), f3 = V_SET1(3.0f);
#if SINEWI_KERNEL_MIDPOINTS
	const VI i_one = VI_SET1(1u);
#endif
	for (uint32_t i = 0; i < count; i += VW) {
		VEC a[3], c[3];
#if SINEWI_KERNEL_MIDPOINTS
		VMASK mid_a = V_EQ(zero, one), mid_b = mid_a; // (all false)
		if (b->residuals) {
			VEC mid = V_LOAD(b->mid + i);
			mid_a = V_EQ(mid, f1), mid_b = V_EQ(mid, f2);
		}
#endif
		for (int k = 0; k < 3; ++k) {
			VEC lo = V_LOAD(b->lo[k] + i), st = V_LOAD(b->step[k] + i);
			VI ia = VI_LOAD(b->qa[k] + i), ib = VI_LOAD(b->qb[k] + i);
			VEC qa = VI_TOF(ia), qb = VI_TOF(ib);
#if SINEWI_KERNEL_MIDPOINTS
			if (b->residuals) { // the predicted knot: ((a + b + 1) >> 1) + (r - bias), modulo 2^width
				VI m = VI_ADD(VI_SRL1(VI_ADD(VI_ADD(ia, ib), i_one)), VI_LOAD(b->qr[k] + i));
				m = VI_AND(m, VI_LOAD(b->mask[k] + i));
				VEC qm = VI_TOF(m);
				qa = V_SEL(mid_a, qm, qa), qb = V_SEL(mid_b, qm, qb);
			}
#endif
			a[k] = V_ADD(lo, V_MUL(qa, st));
			c[k] = V_ADD(lo, V_MUL(qb, st));
		}
		// rebuild the dropped component: sqrt(max(1 - (x*x + y*y + z*z), 0)), placed at `dropped`
		VEC ra = V_SUB(one, V_ADD(V_ADD(V_MUL(a[0], a[0]), V_MUL(a[1], a[1])), V_MUL(a[2], a[2])));
		VEC rc = V_SUB(one, V_ADD(V_ADD(V_MUL(c[0], c[0]), V_MUL(c[1], c[1])), V_MUL(c[2], c[2])));
		VEC ma = V_SQRT(V_MAX(ra, zero)), mc = V_SQRT(V_MAX(rc, zero));
		VEC drop = V_LOAD(b->dropped + i);
		VMASK m0 = V_EQ(drop, f0), m1 = V_EQ(drop, f1), m2 = V_EQ(drop, f2), m3 = V_EQ(drop, f3), le1 = V_LE(drop, f1);
		VEC qa[4] = {V_SEL(m0, ma, a[0]), V_SEL(m1, ma, V_SEL(m0, a[0], a[1])), V_SEL(m2, ma, V_SEL(le1, a[1], a[2])),
		             V_SEL(m3, ma, a[2])};
		VEC qc[4] = {V_SEL(m0, mc, c[0]), V_SEL(m1, mc, V_SEL(m0, c[0], c[1])), V_SEL(m2, mc, V_SEL(le1, c[1], c[2])),
		             V_SEL(m3, mc, c[2])};
#if SINEWI_KERNEL_TWO_PASS // the nlerp in a second pass: two shorter dependency chains per lane group overlap better
		for (int k = 0; k < 4; ++k) V_STORE(b->ka[k] + i, qa[k]), V_STORE(b->kb[k] + i, qc[k]);
	}
	for (uint32_t i = 0; i < count; i += VW) {
		VEC qa[4], qc[4];
		for (int k = 0; k < 4; ++k) qa[k] = V_LOAD(b->ka[k] + i), qc[k] = V_LOAD(b->kb[k] + i);
#endif
		// normalized lerp on the shortest arc (with Slerp_fit at the fitted parameter: codec_math.h sinewi_fit_alpha)
		VEC t = V_LOAD(b->alpha + i);
		VEC dot = V_ADD(V_ADD(V_ADD(V_MUL(qa[0], qc[0]), V_MUL(qa[1], qc[1])), V_MUL(qa[2], qc[2])), V_MUL(qa[3], qc[3]));
		VMASK back = V_LT(dot, zero);
		if (b->fit) {
			const float *fc = b->fit;
			VEC d = V_SEL(back, V_NEG(dot), dot), h = V_SUB(t, half), g = V_MUL(V_MUL(t, h), V_SUB(t, one));
			VEC fa = V_ADD(V_SET1(fc[0]), V_MUL(d, V_ADD(V_SET1(fc[1]), V_MUL(d, V_ADD(V_SET1(fc[2]), V_MUL(d, V_SET1(fc[3])))))));
			VEC fb = V_ADD(V_SET1(fc[4]), V_MUL(d, V_ADD(V_SET1(fc[5]), V_MUL(d, V_ADD(V_SET1(fc[6]), V_MUL(d, V_SET1(fc[7])))))));
			t = V_ADD(t, V_MUL(g, V_ADD(V_MUL(fa, V_MUL(h, h)), fb)));
		}
		VEC s = V_SEL(back, V_NEG(t), t), u = V_SUB(one, t);
		VEC r[4];
		for (int k = 0; k < 4; ++k) r[k] = V_ADD(V_MUL(qa[k], u), V_MUL(qc[k], s));
		VEC len2 = V_ADD(V_ADD(V_ADD(V_MUL(r[0], r[0]), V_MUL(r[1], r[1])), V_MUL(r[2], r[2])), V_MUL(r[3], r[3]));
		VMASK ok = V_GT(len2, zero);
		VEC inv = V_DIV(one, V_SQRT(V_SEL(ok, len2, one)));
		const VEC x = V_SEL(ok, V_MUL(r[0], inv), zero), y = V_SEL(ok, V_MUL(r[1], inv), zero);
		const VEC z = V_SEL(ok, V_MUL(r[2], inv), zero), w = V_SEL(ok, V_MUL(r[3], inv), one);
#if defined(V_STORE_QUATS)
		if (b->pose) {
			V_STORE_QUATS(b->pose, b->out_offsets + i, count - i, x, y, z, w);
			continue;
		}
#endif
		V_STORE(b->out[0] + i, x), V_STORE(b->out[1] + i, y), V_STORE(b->out[2] + i, z), V_STORE(b->out[3] + i, w);
	}
}

KERNEL_ATTR static void kernel_vectors(sinewi_vector_batch *b, uint32_t count) {
#if VW == 1
	for (uint32_t i = 0; i < count; ++i)
		for (uint32_t k = 0; k < 4; ++k) {
			uint32_t n = 4 * i + k;
			float lo = b->lo[n], st = b->step[n];
			float a = lo + (float)(int32_t)b->qa[n] * st, c = lo + (float)(int32_t)b->qb[n] * st;
			b->out[n] = a + (c - a) * b->alpha[i];
		}
#else
	for (uint32_t i = 0; i < count; ++i) {
		V4 lo = V4_LOAD(b->lo + 4 * i), st = V4_LOAD(b->step + 4 * i);
		V4 a = V4_ADD(lo, V4_MUL(V4_LOAD_TOF(b->qa + 4 * i), st)), c = V4_ADD(lo, V4_MUL(V4_LOAD_TOF(b->qb + 4 * i), st));
		V4_STORE(b->out + 4 * i, V4_ADD(a, V4_MUL(V4_SUB(c, a), V4_SET1(b->alpha[i]))));
	}
#endif
}

#ifndef KERNEL_UNPACK
#define KERNEL_UNPACK NULL, NULL
#endif
#if defined(V_STORE_QUATS)
#define KERNEL_WRITES_POSE 1u
#else
#define KERNEL_WRITES_POSE 0u
#endif
const sinewi_kernel_table KERNEL_TABLE = {KERNEL_NAME, VW, kernel_rotations, kernel_vectors, KERNEL_UNPACK, KERNEL_WRITES_POSE};
