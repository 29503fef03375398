// sinew — see include/sinew.h for version and licence
#define _POSIX_C_SOURCE 200809L
// Shared test helpers: a counting allocator, file helpers for the export and pack tests.
#include "test.h"

#include <stdlib.h>
#include <string.h>
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

// Puts the joints of a re-imported clip in the order of `ref`, matching them by node: node j for an export
// without source (node = joint index), the joint's source_index with one. Importers order joints their own
// way (the glTF importer goes depth first). Returns false when a joint is missing.
bool test_reorder_joints(const sinew_clip *ref, sinew_clip *got, bool by_index, uint32_t *missing) {
	uint32_t n = ref->joint_count;
	uint32_t *from = (uint32_t *)malloc(n * sizeof(uint32_t) + 1),
	         *inverse = (uint32_t *)malloc(n * sizeof(uint32_t) + 1);
	sinew_joint *joints = (sinew_joint *)malloc(n * sizeof(sinew_joint) + 1);
	sinew_qvv *pose = (sinew_qvv *)malloc(n * sizeof(sinew_qvv) + 1);
	bool ok = from && inverse && joints && pose;
	for (uint32_t i = 0; ok && i < n; ++i) {
		int32_t node = by_index ? (int32_t)i : ref->joints[i].source_index;
		from[i] = UINT32_MAX;
		for (uint32_t g = 0; g < n && from[i] == UINT32_MAX; ++g)
			if (got->joints[g].source_index == node) from[i] = g;
		if (from[i] == UINT32_MAX)
			ok = false, *missing = i;
		else
			inverse[from[i]] = i;
	}
	if (ok) {
		for (uint32_t i = 0; i < n; ++i) {
			joints[i] = got->joints[from[i]];
			if (joints[i].parent >= 0) joints[i].parent = (int32_t)inverse[joints[i].parent];
		}
		memcpy(got->joints, joints, n * sizeof(sinew_joint));
		for (uint32_t k = 0; k < got->sample_count; ++k) {
			sinew_qvv *row = got->transforms + (size_t)k * n;
			for (uint32_t i = 0; i < n; ++i) pose[i] = row[from[i]];
			memcpy(row, pose, n * sizeof(sinew_qvv));
		}
	}
	free(from), free(inverse), free(joints), free(pose);
	return ok;
}
