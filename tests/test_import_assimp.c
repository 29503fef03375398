// sinew — see include/sinew.h for version and licence
// import_assimp: FBX and COLLADA through assimp (when sinew is built with it) on the animated files of
// Debian's assimp-testmodels (/usr/share/assimp/models, or $SINEW_ASSIMP_MODELS; skipped when absent):
// clips, hierarchy without assimp's pivot helper nodes, units, the guarantee through the decoder, and
// a cross-check against assimp's own glTF export read by sinew's glTF importer (a different code path:
// assimp evaluates and writes its keys, sinew's JSON/accessor reader and resampler read them).
#include "test.h"

#include <stdlib.h>
#include <math.h>
#include <string.h>

#ifdef SINEW_HAVE_ASSIMP
#include <assimp/cexport.h>
#include <assimp/cimport.h>
#include <assimp/scene.h>
#endif

static const char *models_dir(void) {
	const char *env = getenv("SINEW_ASSIMP_MODELS");
	return env && *env ? env : "/usr/share/assimp/models";
}

static bool model_path(const char *relative, char *out, size_t size) {
	snprintf(out, size, "%s/%s", models_dir(), relative);
	FILE *f = fopen(out, "rb");
	if (!f) return false;
	fclose(f);
	return true;
}

// Without assimp an FBX is a clear UNSUPPORTED, never a crash or a guess.
static void assimp_absent_is_unsupported(void) {
	if (sinew_import_assimp_version()) return;
	static const char fbx[] = "Kaydara FBX Binary  \0\x1a\0";
	sinew_import_options o = {.kind = SINEW_FILE_ASSIMP};
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_RESULT(sinew_import_memory(fbx, sizeof fbx, &o, NULL, &set, &err), SINEW_RESULT_UNSUPPORTED, &err);
	CHECK(strstr(err.message, "without it") && strstr(err.message, "libassimp-dev"));
}

typedef struct assimp_case {
	const char *file;
	uint32_t clips, joints;
	uint32_t samples; // the importer's sample count (at the key times: a time map where they are off one grid)
	double duration;  // seconds
} assimp_case;

// An empty input is refused before assimp sees it (assimp 5.2 aborts on an empty buffer).
static void assimp_empty_input(void) {
	if (!sinew_import_assimp_version()) return;
	sinew_import_options o = {.kind = SINEW_FILE_ASSIMP};
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	static const char nothing[1] = {0};
	CHECK_RESULT(sinew_import_memory(nothing, 0, &o, NULL, &set, &err), SINEW_RESULT_TRUNCATED, &err);
	CHECK(set == NULL && strstr(err.message, "empty"));
}

// Each file imports as expected, no joint is an "$AssimpFbx$" pivot helper, and the compressed clips are
// within 0.01 cm of the source at every sample, sample midpoint and check point.
static void assimp_testmodels_import_and_guarantee(void) {
	if (!sinew_import_assimp_version()) {
		test_skip("built without assimp");
		return;
	}
	static const assimp_case cases[] = {
	    // 24 Hz keys, runs of them on one line merged (3 time marks)
	    {"FBX/animation_with_skeleton.fbx", 1, 18, 14, 0.833333},
	    {"FBX/huesitos.fbx", 1, 13, 40, 1.56},
	    // keys from 1/24 s: a time map of 2 marks
	    {"Collada/box_nested_animation.dae", 1, 3, 40, 1.666667},
	};
	uint32_t ran = 0;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		char path[1024];
		if (!model_path(cases[i].file, path, sizeof path)) continue;
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		CHECK_OK(sinew_import_file(path, NULL, NULL, &set, &err), &err);
		CHECK_MSG(set->clip_count == cases[i].clips, "%s: %u clips", cases[i].file, set->clip_count);
		const sinew_clip *clip = set->clips[0];
		CHECK_MSG(clip->joint_count == cases[i].joints && clip->sample_count == cases[i].samples &&
		              fabs(sinew_clip_duration(clip) - cases[i].duration) < 1e-5,
		          "%s: %u joints, %u samples over %.6f s", cases[i].file, clip->joint_count, clip->sample_count,
		          sinew_clip_duration(clip));
		for (uint32_t j = 0; j < clip->joint_count; ++j)
			CHECK_MSG(!clip->joints[j].name || !strstr(clip->joints[j].name, "$AssimpFbx$"), "%s: helper node %s",
			          cases[i].file, clip->joints[j].name);
		void *blob = NULL;
		size_t size = 0;
		CHECK_OK(sinew_compress(set, NULL, NULL, &blob, &size, &err), &err);
		for (uint32_t c = 0; c < set->clip_count; ++c) {
			sinew_error_stats st;
			CHECK_OK(sinew_measure_blob_error(set->clips[c], blob, size, c, NULL, NULL, &st, &err), &err);
			double cm = st.max_error / set->clips[c]->unit_scale * 100.0;
			CHECK_MSG(cm <= 0.01, "%s clip %u: %.6f cm", cases[i].file, c, cm);
		}
		sinew_blob_free(blob, size, NULL);
		sinew_clip_set_free(set);
		ran++;
	}
	if (!ran) test_skip("assimp-testmodels absent (%s)", models_dir());
}

// Units: FBX's UnitScaleFactor (1 cm per unit in huesitos.fbx) gives 100 clip units per metre, and the 0.01 cm
// threshold is 0.01 clip units; unit_cm overrides it; COLLADA comes in metres (assimp applies <unit>).
static void assimp_units(void) {
	char fbx[1024], dae[1024];
	if (!sinew_import_assimp_version() || !model_path("FBX/huesitos.fbx", fbx, sizeof fbx) ||
	    !model_path("Collada/box_nested_animation.dae", dae, sizeof dae)) {
		test_skip("assimp or assimp-testmodels absent");
		return;
	}
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_file(fbx, NULL, NULL, &set, &err), &err);
	CHECK(set->clips[0]->unit_scale == 100.0);
	sinew_clip_set_free(set);
	sinew_import_options o = {.unit_cm = 2.54};
	CHECK_OK(sinew_import_file(fbx, &o, NULL, &set, &err), &err);
	CHECK_NEAR(set->clips[0]->unit_scale, 100.0 / 2.54, 1e-12);
	sinew_clip_set_free(set);
	CHECK_OK(sinew_import_file(dae, NULL, NULL, &set, &err), &err);
	CHECK(set->clips[0]->unit_scale == 1.0);
	sinew_clip_set_free(set);
}

#ifdef SINEW_HAVE_ASSIMP
// The clip sinew builds from assimp's scene and the clip sinew's glTF reader builds from assimp's own
// glTF 2.0 export of the same file: per joint (matched by name), every sample's local transform agrees.
static void assimp_matches_its_own_gltf_export(void) {
	char path[1024], out[1024];
	if (!model_path("FBX/huesitos.fbx", path, sizeof path)) {
		test_skip("assimp-testmodels absent");
		return;
	}
	test_tmp_path("huesitos_assimp_export.gltf", out, sizeof out);
	const struct aiScene *scene = aiImportFile(path, 0);
	CHECK(scene);
	CHECK_MSG(aiExportScene(scene, "gltf2", out, 0) == aiReturn_SUCCESS, "aiExportScene: %s", aiGetErrorString());
	aiReleaseImport(scene);
	sinew_clip_set *a = NULL, *b = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_file(path, NULL, NULL, &a, &err), &err);
	CHECK_OK(sinew_import_file(out, NULL, NULL, &b, &err), &err);
	const sinew_clip *ca = a->clips[0], *cb = b->clips[0];
	uint32_t matched = 0, compared = 0;
	double worst_t = 0, worst_q = 0;
	for (uint32_t ja = 0; ja < ca->joint_count; ++ja) {
		if (!ca->joints[ja].name || !ca->joints[ja].has_track) continue;
		for (uint32_t jb = 0; jb < cb->joint_count; ++jb) {
			if (!cb->joints[jb].name || strcmp(ca->joints[ja].name, cb->joints[jb].name) != 0) continue;
			matched++;
			// the same times: the glTF import may sample at a multiple of the rate
			for (uint32_t s = 0; s < ca->sample_count; ++s) {
				double k = (double)s / ca->sample_rate * cb->sample_rate;
				uint32_t sb = (uint32_t)floor(k + 0.5);
				if (fabs(k - sb) > 1e-6 || sb >= cb->sample_count) continue;
				const sinew_qvv *x = &ca->transforms[(size_t)s * ca->joint_count + ja];
				const sinew_qvv *y = &cb->transforms[(size_t)sb * cb->joint_count + jb];
				double dot = 0;
				for (int c = 0; c < 4; ++c) dot += (double)x->rotation[c] * y->rotation[c];
				worst_q = fmax(worst_q, 1.0 - fabs(dot));
				// both in file units: assimp keeps them, and the export writes assimp's numbers as glTF metres
				for (int c = 0; c < 3; ++c) worst_t = fmax(worst_t, fabs((double)x->translation[c] - y->translation[c]));
				compared++;
			}
			break;
		}
	}
	sinew_clip_set_free(a);
	sinew_clip_set_free(b);
	CHECK_MSG(matched >= 5 && compared >= 5u * 40u, "%u joints matched by name, %u samples compared", matched, compared);
	CHECK_MSG(worst_q < 1e-6 && worst_t < 1e-3, "rotation 1-|dot| %.3g, translation %.3g", worst_q, worst_t);
}
#endif

#ifdef SINEW_HAVE_ASSIMP
// Largest |a[i] - b[i]|. (A loop, not an fmax reduction: aarch64 gcc 12 has an internal error vectorizing
// that one.)
static double largest_difference(const float *a, const float *b, uint32_t n) {
	double worst = 0;
	for (uint32_t i = 0; i < n; ++i) {
		double d = fabs((double)a[i] - b[i]);
		if (d > worst) worst = d;
	}
	return worst;
}

// Largest rotation difference (1 - |dot|) and relative translation difference of joint ja of ca and jb of cb
// over their samples.
static void compare_joint(const sinew_clip *ca, uint32_t ja, const sinew_clip *cb, uint32_t jb, double *worst_q,
                          double *worst_t) {
	for (uint32_t s = 0; s < ca->sample_count && s < cb->sample_count; ++s) {
		const sinew_qvv *x = &ca->transforms[(size_t)s * ca->joint_count + ja];
		const sinew_qvv *y = &cb->transforms[(size_t)s * cb->joint_count + jb];
		double dot = 0;
		for (int k = 0; k < 4; ++k) dot += (double)x->rotation[k] * y->rotation[k];
		double q = 1.0 - fabs(dot);
		if (q > *worst_q) *worst_q = q;
		for (int k = 0; k < 3; ++k) {
			double t = fabs((double)x->translation[k] - y->translation[k]) / (1.0 + fabs((double)y->translation[k]));
			if (t > *worst_t) *worst_t = t;
		}
	}
}

// The same motion through both importers: corpus glTF files read by sinew's own glTF reader and by assimp
// (its glTF 2.0 reader, then this importer). Per clip the same rate and samples; per joint matched by name
// the same local transforms; morph weights the same values.
static void assimp_and_gltf_importers_agree(void) {
	if (!sinew_import_assimp_version()) {
		test_skip("built without assimp");
		return;
	}
	static const char *files[] = {"gltf/khronos/CesiumMan/CesiumMan.gltf", "gltf/khronos/Fox/Fox.glb",
	                              "gltf/khronos/AnimatedMorphCube/AnimatedMorphCube.gltf"};
	uint32_t ran = 0;
	for (size_t f = 0; f < sizeof files / sizeof files[0]; ++f) {
		char path[1024];
		if (!test_corpus_path(files[f], path, sizeof path)) continue;
		sinew_import_options o = {.kind = SINEW_FILE_ASSIMP};
		sinew_clip_set *a = NULL, *b = NULL;
		sinew_error err = {0};
		CHECK_OK(sinew_import_file(path, &o, NULL, &a, &err), &err);
		CHECK_OK(sinew_import_file(path, NULL, NULL, &b, &err), &err);
		CHECK_MSG(a->clip_count == b->clip_count, "%s: %u vs %u clips", files[f], a->clip_count, b->clip_count);
		uint32_t matched = 0;
		double worst_q = 0, worst_t = 0, worst_w = 0;
		for (uint32_t c = 0; c < a->clip_count && c < b->clip_count; ++c) {
			const sinew_clip *ca = a->clips[c], *cb = b->clips[c];
			CHECK_MSG(ca->sample_count == cb->sample_count && ca->sample_rate == cb->sample_rate, "%s clip %u: %u @ %g vs %u @ %g",
			          files[f], c, ca->sample_count, ca->sample_rate, cb->sample_count, cb->sample_rate);
			if (ca->sample_count != cb->sample_count) break;
			// by name; a glTF without node names (CesiumMan) by position, both lists being depth-first
			bool by_index = ca->joint_count == cb->joint_count;
			for (uint32_t j = 0; by_index && j < cb->joint_count; ++j) by_index = cb->joints[j].name == NULL;
			for (uint32_t ja = 0; ja < ca->joint_count; ++ja) {
				if (!ca->joints[ja].has_track || (!by_index && !ca->joints[ja].name)) continue;
				for (uint32_t jb = by_index ? ja : 0; jb < cb->joint_count; ++jb) {
					if (!by_index && (!cb->joints[jb].name || strcmp(ca->joints[ja].name, cb->joints[jb].name) != 0)) continue;
					matched++;
					compare_joint(ca, ja, cb, jb, &worst_q, &worst_t);
					break;
				}
			}
			CHECK_EQ(ca->scalar_track_count, cb->scalar_track_count);
			for (uint32_t t = 0; t < ca->scalar_track_count && t < cb->scalar_track_count; ++t) {
				double w = largest_difference(ca->scalar_tracks[t].values, cb->scalar_tracks[t].values, ca->sample_count);
				if (w > worst_w) worst_w = w;
			}
		}
		CHECK_MSG(matched > 0 || a->clips[0]->scalar_track_count > 0, "%s: nothing compared", files[f]);
		CHECK_MSG(worst_q < 1e-6 && worst_t < 1e-5 && worst_w < 1e-6, "%s: rotation 1-|dot| %.3g, translation %.3g, weights %.3g",
		          files[f], worst_q, worst_t, worst_w);
		sinew_clip_set_free(a);
		sinew_clip_set_free(b);
		ran++;
	}
	if (!ran) test_skip("corpus absent");
}
#endif

void suite_import_assimp(void) {
	RUN(assimp_absent_is_unsupported);
	RUN(assimp_empty_input);
	RUN(assimp_testmodels_import_and_guarantee);
	RUN(assimp_units);
#ifdef SINEW_HAVE_ASSIMP
	RUN(assimp_and_gltf_importers_agree);
#endif
#ifdef SINEW_HAVE_ASSIMP
	RUN(assimp_matches_its_own_gltf_export);
#endif
}
