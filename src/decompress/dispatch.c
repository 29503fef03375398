// sinew — see include/sinew.h for version and licence
// Picks the kernel once per context from the CPU's capabilities (cpuid/xgetbv on x86): AVX2 when
// the CPU has it and BMI2 (the kernel's unpack loops use it) and the OS saves its registers, else
// SSE2; NEON on AArch64; SIMD128 in a wasm build. SINEW_KERNEL=scalar in the environment, the context option or the build macro
// SINEW_FORCE_SCALAR force the reference kernel. The SIMD128 wasm modules leave the reference kernel
// out (bytes; their runtime never asks for it): there SINEW_KERNEL_SCALAR gets the SIMD128 kernel,
// whose floats are the same.
#include <stdlib.h>
#include <string.h>

#include "context.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <cpuid.h>

static int x86_has_avx2(void) {
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
	const unsigned osxsave = 1u << 27, avx = 1u << 28;
	if ((c & (osxsave | avx)) != (osxsave | avx)) return 0;
	unsigned xcr0_lo, xcr0_hi;
	__asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
	(void)xcr0_hi;
	if ((xcr0_lo & 6u) != 6u) return 0; // XMM and YMM state enabled by the OS
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
	return (b & (1u << 5)) != 0 && (b & (1u << 8)) != 0; // AVX2, and BMI2 (the AVX2 kernel's unpack loops use it)
}
#endif

#if defined(__wasm_simd128__) && !defined(SINEW_FORCE_SCALAR)
#define REFERENCE_KERNEL sinewi_kernel_wasm_simd128
#else
#define REFERENCE_KERNEL sinewi_kernel_scalar
#endif

uint32_t sinewi_kernels_available(const sinewi_kernel_table **out, uint32_t capacity) {
	uint32_t n = 0;
	if (n < capacity) out[n++] = &REFERENCE_KERNEL;
#if defined(__x86_64__) && defined(__GNUC__)
	if (n < capacity) out[n++] = &sinewi_kernel_sse2;
	if (n < capacity && x86_has_avx2()) out[n++] = &sinewi_kernel_avx2;
#elif defined(__aarch64__)
	if (n < capacity) out[n++] = &sinewi_kernel_neon;
#endif
	return n;
}

const sinewi_kernel_table *sinewi_select_kernel(int kernel) {
#if defined(SINEW_FORCE_SCALAR)
	(void)kernel;
	return &sinewi_kernel_scalar;
#else
	if (kernel == SINEW_KERNEL_SCALAR) return &REFERENCE_KERNEL;
#if !defined(__wasm__) // the wasm runtime has no environment (and no imports)
	const char *env = getenv("SINEW_KERNEL");
	if (env && strcmp(env, "scalar") == 0) return &sinewi_kernel_scalar;
#endif
#if defined(__x86_64__) && defined(__GNUC__)
	if (!(env && strcmp(env, "sse2") == 0) && x86_has_avx2()) return &sinewi_kernel_avx2;
	return &sinewi_kernel_sse2;
#elif defined(__aarch64__)
	return &sinewi_kernel_neon;
#elif defined(__wasm_simd128__)
	return &sinewi_kernel_wasm_simd128;
#else
	return &sinewi_kernel_scalar;
#endif
#endif
}
