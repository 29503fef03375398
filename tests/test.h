// sinew — see include/sinew.h for version and licence
// Minimal test runner: RUN(fn) inside a suite, CHECK* macros return from the test on failure.
#ifndef SINEW_TEST_H
#define SINEW_TEST_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "sinew.h"

// Suites, in pipeline order. Weak declarations, so the link does not need them all; the runner fails a
// suite listed here that no test file defines (a listed suite must not vanish without a word).
#define SUITES(X)                                                                                  \
	X(elementary) X(core_math) X(clip) X(error_metric) X(json) X(import_bvh) X(import_amc) X(import_acl)         \
	    X(import_gltf) X(import_assimp) X(export_gltf) X(export_acl) X(compress) X(compress_jobs)   \
	    X(format) X(rig) X(curves)                                                                \
	    X(decompress) X(pages) X(kernels) X(compress_corpus) X(pack) X(cli)
#define SINEW_TEST_DECLARE_SUITE(s) void suite_##s(void) __attribute__((weak));
SUITES(SINEW_TEST_DECLARE_SUITE)

void test_run(const char *name, void (*fn)(void));
void test_fail(const char *file, int line, const char *fmt, ...);
void test_skip(const char *fmt, ...);
bool test_failed(void);

// Path of the shared corpus (../shared/corpus beside the repository, or $SINEW_CORPUS), NULL when absent.
const char *test_corpus_dir(void);
// Path of a file in the repository (data/, tests/golden/...).
const char *test_repo_path(const char *relative, char *buffer, size_t size);
// Path inside the corpus; NULL (and the test is marked skipped) when the corpus is absent.
const char *test_corpus_path(const char *relative, char *buffer, size_t size);
// A directory for temporary output files of this test run.
const char *test_tmp_path(const char *name, char *buffer, size_t size);

#define RUN(fn) test_run(#fn, fn)

#define CHECK(cond)                                                                                \
	do {                                                                                           \
		if (!(cond)) {                                                                             \
			test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);                                     \
			return;                                                                                \
		}                                                                                          \
	} while (0)

#define CHECK_MSG(cond, ...)                                                                       \
	do {                                                                                           \
		if (!(cond)) {                                                                             \
			test_fail(__FILE__, __LINE__, __VA_ARGS__);                                            \
			return;                                                                                \
		}                                                                                          \
	} while (0)

#define CHECK_EQ(a, b)                                                                             \
	do {                                                                                           \
		long long check_a_ = (long long)(a), check_b_ = (long long)(b);                            \
		if (check_a_ != check_b_) {                                                                \
			test_fail(__FILE__, __LINE__, "%s == %s (%lld vs %lld)", #a, #b, check_a_, check_b_);  \
			return;                                                                                \
		}                                                                                          \
	} while (0)

#define CHECK_NEAR(a, b, tol)                                                                      \
	do {                                                                                           \
		double check_a_ = (double)(a), check_b_ = (double)(b);                                     \
		if (!(fabs(check_a_ - check_b_) <= (tol))) {                                               \
			test_fail(__FILE__, __LINE__, "%s ~= %s (%.9g vs %.9g, tol %g)", #a, #b, check_a_,     \
			          check_b_, (double)(tol));                                                    \
			return;                                                                                \
		}                                                                                          \
	} while (0)

// Checks a sinew_result; prints the error message when it differs.
#define CHECK_RESULT(expr, expected, err)                                                          \
	do {                                                                                           \
		sinew_result check_r_ = (expr);                                                            \
		if (check_r_ != (expected)) {                                                              \
			test_fail(__FILE__, __LINE__, "%s returned %s, expected %s: %s", #expr,                \
			          sinew_result_name(check_r_), sinew_result_name(expected), (err)->message);   \
			return;                                                                                \
		}                                                                                          \
	} while (0)

#define CHECK_OK(expr, err) CHECK_RESULT(expr, SINEW_RESULT_OK, err)

// Deterministic random numbers for property tests (xorshift64*).
typedef struct test_rng {
	unsigned long long s;
} test_rng;
static inline unsigned test_rand_u32(test_rng *r) {
	r->s ^= r->s >> 12, r->s ^= r->s << 25, r->s ^= r->s >> 27;
	return (unsigned)((r->s * 2685821657736338717ull) >> 32);
}
static inline double test_rand_unit(test_rng *r) { // [0, 1)
	return (double)test_rand_u32(r) / 4294967296.0;
}
static inline double test_rand_range(test_rng *r, double lo, double hi) {
	return lo + (hi - lo) * test_rand_unit(r);
}
void test_random_quat(test_rng *r, float q[4]);
// Files written by the export/pack tests go to $SINEW_EXPORT_DIR when set, else the temporary folder.
const char *test_export_path(const char *name, char *buffer, size_t size);
void test_note_source(const char *exported, const char *source); // "<file>.source" for the validator
bool test_file_exists(const char *path);
unsigned char *test_slurp(const char *path, size_t *size); // malloc'd, NUL-terminated; NULL on failure
// Reorders a re-imported clip's joints (and samples) to `ref`'s order, matching node j (by_index) or the
// joint's source_index; false (with *missing) when a joint is not found.
bool test_reorder_joints(const sinew_clip *ref, sinew_clip *got, bool by_index, uint32_t *missing);
// The clip as it plays at each exported key's float32 time f32(k / rate) (export_animations.c key_value), written
// over its samples: what a re-import of an exported glTF compares with. test_restore_samples puts them back.
typedef struct test_saved_samples {
	sinew_qvv *transforms;
	float **scalars;
} test_saved_samples;
test_saved_samples test_play_at_key_times(sinew_clip *clip);
// The clip as a re-import of its exported glTF samples it: the exported keys (test_play_at_key_times, at
// float32 times) interpolated at each sample time of `reimported` (the importer samples curves at every
// sample's own time, beside which a float32 key time may sit: where the curve jumps, a loop's wrap or a
// mocap glitch, that moves the sample); a joint sub-track the clip has a curve for is exported as that curve, so
// it plays the curve. Restore with test_restore_samples.
test_saved_samples test_play_as_reimported(sinew_clip *clip, const sinew_clip *reimported);
void test_restore_samples(sinew_clip *clip, test_saved_samples saved);
void *counting_alloc(void *user, size_t size, size_t align); // user: long* of live blocks
void counting_free(void *user, void *ptr, size_t size);

#endif
