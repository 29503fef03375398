/* An outside program using an installed sinew (tests/consumer/run.sh): imports a clip, compresses it,
 * samples it through a context and measures the error through the decoder. Exit 0 when the error is
 * within the default 0.01 cm threshold. */
#include <sinew.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
	if (argc < 2) {
		fprintf(stderr, "usage: %s CLIP\n", argv[0]);
		return 2;
	}
	if (sinew_version_number() != SINEW_VERSION_NUMBER) {
		fprintf(stderr, "header %s, library %s\n", SINEW_VERSION_STRING, sinew_version());
		return 1;
	}
	sinew_error err;
	sinew_clip_set *clips = NULL;
	if (sinew_import_file(argv[1], NULL, NULL, &clips, &err) != SINEW_RESULT_OK) {
		fprintf(stderr, "import: %s\n", err.message);
		return 1;
	}
	void *blob = NULL;
	size_t size = 0;
	sinew_compress_options opt = {0};
	opt.error_cm = 0.01, opt.shell_cm = 3.0;
	if (sinew_compress(clips, &opt, NULL, &blob, &size, &err) != SINEW_RESULT_OK ||
	    sinew_validate(blob, size, &err) != SINEW_RESULT_OK) {
		fprintf(stderr, "compress: %s\n", err.message);
		return 1;
	}
	size_t need = sinew_context_size(blob, size, 0);
	void *mem = malloc(need + 16);
	sinew_context *ctx = NULL;
	void *aligned = (void *)(((size_t)mem + 15) & ~(size_t)15);
	if (sinew_context_init(aligned, need, blob, size, 0, NULL, &ctx, &err) != SINEW_RESULT_OK) {
		fprintf(stderr, "context: %s\n", err.message);
		return 1;
	}
	const sinew_clip *clip = clips->clips[0];
	sinew_qvv *pose = (sinew_qvv *)malloc(sizeof(sinew_qvv) * clip->joint_count);
	sinew_sample_pose(ctx, 0.5 * sinew_clip_duration(clip), pose, NULL, NULL);
	sinew_error_stats st;
	if (sinew_measure_blob_error(clip, blob, size, 0, NULL, NULL, &st, &err) != SINEW_RESULT_OK) {
		fprintf(stderr, "measure: %s\n", err.message);
		return 1;
	}
	double cm = st.max_error / clip->unit_scale * 100.0;
	printf("sinew %s (%s kernel): %u joints, %llu -> %zu bytes, max error %.5f cm\n", sinew_version(),
	       sinew_context_kernel(ctx), clip->joint_count, (unsigned long long)sinew_clip_raw_size(clip), size, cm);
	free(pose);
	free(mem);
	sinew_blob_free(blob, size, NULL);
	sinew_clip_set_free(clips);
	return cm <= 0.01 ? 0 : 1;
}
