// sinew — see include/sinew.h for version and licence
#define _POSIX_C_SOURCE 200809L
// Shared test helpers: a counting allocator, file helpers for the export and pack tests.
#include "test.h"
#include "clip/clip_internal.h"

#include <math.h>
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

// What the exporter writes at key k (export_animations.c key_value): the clip as it plays at the key's float32
// time f32(k / rate), which is up to half an ulp off k / rate. Interpolating joints and scalar tracks are
// blended in place (lerp, nlerp on the shortest arc), so re-imported keys compare with what was written.
static uint8_t own_rounding(uint8_t r, const sinew_clip *clip) {
	return r == SINEW_ROUNDING_CLIP ? clip->rounding : r;
}

test_saved_samples test_play_at_key_times(sinew_clip *clip) {
	const uint32_t n = clip->sample_count, nj = clip->joint_count;
	test_saved_samples saved = {(sinew_qvv *)malloc((size_t)n * nj * sizeof(sinew_qvv) + 1),
	                       (float **)calloc(clip->scalar_track_count + 1, sizeof(float *))};
	if (!saved.transforms || !saved.scalars) {
		test_fail(__FILE__, __LINE__, "out of memory");
		return saved;
	}
	const sinew_qvv *t = saved.transforms;
	memcpy(saved.transforms, clip->transforms, (size_t)n * nj * sizeof *t);
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
		size_t bytes = (size_t)n * clip->scalar_tracks[i].components * sizeof(float);
		saved.scalars[i] = (float *)malloc(bytes + 1);
		if (!saved.scalars[i]) test_fail(__FILE__, __LINE__, "out of memory");
		else memcpy(saved.scalars[i], clip->scalar_tracks[i].values, bytes);
	}
	for (uint32_t k = 0; k < n; ++k) {
		double u = sinewi_clip_key(clip, (double)(float)sinew_clip_sample_time(clip, (double)k)) - k;
		uint32_t k0 = k;
		if (u < 0.0 && k > 0) k0 = k - 1, u += 1.0;
		if (!(u > 0.0 && u < 1.0) || k0 + 1 >= n) continue;
		for (uint32_t j = 0; j < nj; ++j) {
			if (own_rounding(clip->joints[j].rounding, clip) != SINEW_ROUNDING_NONE) continue;
			const sinew_qvv *a = &t[(size_t)k0 * nj + j], *b = a + nj;
			sinew_qvv *o = &clip->transforms[(size_t)k * nj + j];
			double dot = 0.0, q[4], n2 = 0.0;
			for (int c = 0; c < 4; ++c) dot += (double)a->rotation[c] * b->rotation[c];
			for (int c = 0; c < 4; ++c)
				q[c] = (1.0 - u) * a->rotation[c] + (dot < 0.0 ? -u : u) * b->rotation[c], n2 += q[c] * q[c];
			for (int c = 0; c < 4; ++c) o->rotation[c] = (float)(q[c] / sqrt(n2));
			for (int c = 0; c < 3; ++c) {
				o->translation[c] = (float)((1.0 - u) * a->translation[c] + u * b->translation[c]);
				o->scale[c] = (float)((1.0 - u) * a->scale[c] + u * b->scale[c]);
			}
		}
		for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
			sinew_scalar_track *track = &clip->scalar_tracks[i];
			if (!saved.scalars[i] || own_rounding(track->rounding, clip) != SINEW_ROUNDING_NONE) continue;
			for (uint32_t c = 0; c < track->components; ++c) {
				const float *a = &saved.scalars[i][(size_t)k0 * track->components + c];
				track->values[(size_t)k * track->components + c] =
				    (float)((1.0 - u) * a[0] + u * a[track->components]);
			}
		}
	}
	return saved;
}

test_saved_samples test_play_as_reimported(sinew_clip *clip, const sinew_clip *reimported) {
	test_saved_samples saved = test_play_at_key_times(clip); // the exported keys, V_j at f32 times T_j
	const uint32_t n = clip->sample_count, nj = clip->joint_count;
	sinew_qvv *keys = (sinew_qvv *)malloc((size_t)n * nj * sizeof(sinew_qvv) + 1);
	float **scalar_keys = (float **)calloc(clip->scalar_track_count + 1, sizeof(float *));
	double *times = (double *)malloc((size_t)n * sizeof(double) + 1);
	if (!keys || !scalar_keys || !times || !saved.transforms) {
		test_fail(__FILE__, __LINE__, "out of memory");
		free(keys), free(scalar_keys), free(times);
		return saved;
	}
	memcpy(keys, clip->transforms, (size_t)n * nj * sizeof(sinew_qvv));
	for (uint32_t k = 0; k < n; ++k) times[k] = (double)(float)sinew_clip_sample_time(clip, (double)k);
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
		size_t bytes = (size_t)n * clip->scalar_tracks[i].components * sizeof(float);
		scalar_keys[i] = (float *)malloc(bytes + 1);
		if (scalar_keys[i]) memcpy(scalar_keys[i], clip->scalar_tracks[i].values, bytes);
	}
	// the curve through (T_j, V_j) at each re-imported sample's time (LINEAR: lerp, and for rotations an nlerp,
	// which the importer's slerp equals to within rounding over the sub-ulp steps involved here)
	uint32_t j = 0;
	for (uint32_t k = 0; k < n && k < reimported->sample_count; ++k) {
		double t = sinew_clip_sample_time(reimported, (double)k);
		while (j + 1 < n && times[j + 1] <= t) ++j;
		double u = j + 1 < n && t > times[j] ? (t - times[j]) / (times[j + 1] - times[j]) : 0.0;
		const uint32_t j1 = j + 1 < n ? j + 1 : j;
		for (uint32_t q = 0; q < nj; ++q) {
			if (own_rounding(clip->joints[q].rounding, clip) != SINEW_ROUNDING_NONE) continue;
			const sinew_qvv *a = &keys[(size_t)j * nj + q], *b = &keys[(size_t)j1 * nj + q];
			sinew_qvv *o = &clip->transforms[(size_t)k * nj + q];
			double dot = 0.0, r[4], n2 = 0.0;
			for (int c = 0; c < 4; ++c) dot += (double)a->rotation[c] * b->rotation[c];
			for (int c = 0; c < 4; ++c)
				r[c] = (1.0 - u) * a->rotation[c] + (dot < 0.0 ? -u : u) * b->rotation[c], n2 += r[c] * r[c];
			for (int c = 0; c < 4; ++c) o->rotation[c] = (float)(r[c] / sqrt(n2));
			for (int c = 0; c < 3; ++c) {
				o->translation[c] = (float)((1.0 - u) * a->translation[c] + u * b->translation[c]);
				o->scale[c] = (float)((1.0 - u) * a->scale[c] + u * b->scale[c]);
			}
		}
		for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
			sinew_scalar_track *track = &clip->scalar_tracks[i];
			if (!scalar_keys[i] || own_rounding(track->rounding, clip) != SINEW_ROUNDING_NONE) continue;
			for (uint32_t c = 0; c < track->components; ++c) {
				const float *a = &scalar_keys[i][(size_t)j * track->components + c];
				const float b = scalar_keys[i][(size_t)j1 * track->components + c];
				track->values[(size_t)k * track->components + c] = (float)((1.0 - u) * a[0] + u * b);
			}
		}
	}
	// a joint sub-track with a curve is exported as that curve (export_animations.c): the re-import plays the curve
	for (uint32_t k = 0; clip->curve_count && k < n && k < reimported->sample_count; ++k)
		sinewi_clip_curves_at(clip, sinew_clip_sample_time(reimported, (double)k), &clip->transforms[(size_t)k * nj], NULL);
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i) free(scalar_keys[i]);
	free(scalar_keys), free(keys), free(times);
	return saved;
}

void test_restore_samples(sinew_clip *clip, test_saved_samples saved) {
	if (saved.transforms)
		memcpy(clip->transforms, saved.transforms, (size_t)clip->sample_count * clip->joint_count * sizeof(sinew_qvv));
	for (uint32_t i = 0; saved.scalars && i < clip->scalar_track_count; ++i) {
		if (saved.scalars[i])
			memcpy(clip->scalar_tracks[i].values, saved.scalars[i],
			       (size_t)clip->sample_count * clip->scalar_tracks[i].components * sizeof(float));
		free(saved.scalars[i]);
	}
	free(saved.scalars);
	free(saved.transforms);
}
