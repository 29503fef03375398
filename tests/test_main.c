// sinew — see include/sinew.h for version and licence
#define _XOPEN_SOURCE 700
// Test runner: `sinew_tests [filter]` runs every test whose suite or name contains `filter`.
// Last line: "N passed, N failed, N skipped".
#include "test.h"

#include <ftw.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


static int passed, failed, skipped;
static bool current_failed, current_skipped;
static const char *filter;
static const char *current_suite;
static char skip_reason[256];

void test_fail(const char *file, int line, const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	fprintf(stderr, "  FAIL %s:%d: ", file, line);
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
	va_end(args);
	current_failed = true;
}

void test_skip(const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	vsnprintf(skip_reason, sizeof skip_reason, fmt, args);
	va_end(args);
	current_skipped = true;
}

bool test_failed(void) {
	return current_failed;
}

void test_run(const char *name, void (*fn)(void)) {
	if (filter && !strstr(name, filter) && !strstr(current_suite, filter)) return;
	current_failed = current_skipped = false;
	fn();
	if (current_failed) {
		failed++;
		printf("FAIL %s.%s\n", current_suite, name);
	} else if (current_skipped) {
		skipped++;
		printf("skip %s.%s (%s)\n", current_suite, name, skip_reason);
	} else {
		passed++;
		printf("ok   %s.%s\n", current_suite, name);
	}
	fflush(stdout);
}

static bool is_dir(const char *path) {
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *test_corpus_dir(void) {
	static char path[1024];
	static int state = 0; // 0 unknown, 1 present, 2 absent
	if (state == 0) {
		const char *env = getenv("SINEW_CORPUS");
		if (env && *env)
			snprintf(path, sizeof path, "%s", env);
		else
			snprintf(path, sizeof path, "%s/../shared/corpus", SINEW_SOURCE_DIR);
		state = is_dir(path) ? 1 : 2;
	}
	return state == 1 ? path : NULL;
}

const char *test_repo_path(const char *relative, char *buffer, size_t size) {
	snprintf(buffer, size, "%s/%s", SINEW_SOURCE_DIR, relative);
	return buffer;
}

const char *test_corpus_path(const char *relative, char *buffer, size_t size) {
	const char *dir = test_corpus_dir();
	if (!dir) {
		test_skip("corpus absent (../shared/corpus)");
		return NULL;
	}
	snprintf(buffer, size, "%s/%s", dir, relative);
	return buffer;
}

// One fresh folder per run (mkdtemp, not the pid: a pid comes back in a container, and with it a folder a
// previous run left, whose files changed what a test found), removed when the run passes.
static char tmp_dir[512];

const char *test_tmp_path(const char *name, char *buffer, size_t size) {
	if (!tmp_dir[0]) {
		const char *base = getenv("TMPDIR");
		snprintf(tmp_dir, sizeof tmp_dir, "%s/sinew_tests_XXXXXX", base && *base ? base : "/tmp");
		if (!mkdtemp(tmp_dir)) {
			fprintf(stderr, "cannot create %s\n", tmp_dir);
			exit(2);
		}
	}
	snprintf(buffer, size, "%s/%s", tmp_dir, name);
	return buffer;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

void test_random_quat(test_rng *r, float q[4]) {
	// uniform on S3 (Shoemake)
	double u1 = test_rand_unit(r), u2 = test_rand_unit(r) * 6.283185307179586, u3 = test_rand_unit(r) * 6.283185307179586;
	double a = sqrt(1 - u1), b = sqrt(u1);
	q[0] = (float)(a * sin(u2));
	q[1] = (float)(a * cos(u2));
	q[2] = (float)(b * sin(u3));
	q[3] = (float)(b * cos(u3));
}

int main(int argc, char **argv) {
	filter = argc > 1 ? argv[1] : NULL;
	if (filter && strcmp(filter, "--write-golden") == 0) {
		extern void test_write_golden(void);
		test_write_golden();
		printf("golden files written\n");
		return 0;
	}
	if (sinew_version_number() != SINEW_VERSION_NUMBER) {
		fprintf(stderr, "header/library version mismatch\n");
		return 2;
	}
	if (!test_corpus_dir()) printf("note: corpus absent, corpus tests are skipped\n");
#define CALL(s)                                                                                    \
	if (suite_##s) {                                                                               \
		current_suite = #s;                                                                        \
		suite_##s();                                                                               \
	} else if (!filter || strstr(#s, filter)) {                                                    \
		failed++;                                                                                  \
		printf("FAIL %s (listed in tests/test.h, defined by no test file)\n", #s);                 \
	}
	SUITES(CALL)
#undef CALL
	if (tmp_dir[0] && !failed) nftw(tmp_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	else if (tmp_dir[0]) printf("note: test files kept in %s\n", tmp_dir);
	printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
