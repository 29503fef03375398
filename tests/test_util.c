// sinew — see include/sinew.h for version and licence
#define _POSIX_C_SOURCE 200809L
// Shared test helpers: a counting allocator, file helpers for the export and pack tests.
#include "test.h"

#include <stdlib.h>
#include <sys/stat.h>


void *counting_alloc(void *user, size_t size, size_t align) {
	(void)align;
	++*(long *)user;
	return malloc(size ? size : 1);
}

void counting_free(void *user, void *ptr, size_t size) {
	(void)size;
	--*(long *)user;
	free(ptr);
}

// Output path for files the export and pack tests write: $SINEW_EXPORT_DIR when set (CI runs the
// Khronos validator over that folder), else the test run's temporary folder.
const char *test_export_path(const char *name, char *buffer, size_t size) {
	const char *dir = getenv("SINEW_EXPORT_DIR");
	if (dir && *dir) {
		mkdir(dir, 0755);
		snprintf(buffer, size, "%s/%s", dir, name);
		return buffer;
	}
	return test_tmp_path(name, buffer, size);
}

// Records the source document next to an export so the validator can tell inherited errors.
void test_note_source(const char *exported, const char *source) {
	char note[1200];
	snprintf(note, sizeof note, "%s.source", exported);
	FILE *f = fopen(note, "w");
	if (!f) return;
	fprintf(f, "%s\n", source);
	fclose(f);
}

bool test_file_exists(const char *path) {
	struct stat st;
	return stat(path, &st) == 0;
}

// The whole file, NUL-terminated (the terminator is not counted in *size); NULL on failure.
unsigned char *test_slurp(const char *path, size_t *size) {
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	if (fseek(f, 0, SEEK_END) != 0) {
		fclose(f);
		return NULL;
	}
	long n = ftell(f);
	if (n < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return NULL;
	}
	unsigned char *data = (unsigned char *)malloc((size_t)n + 1);
	if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
		free(data);
		data = NULL;
	}
	fclose(f);
	if (!data) return NULL;
	data[n] = 0;
	*size = (size_t)n;
	return data;
}
