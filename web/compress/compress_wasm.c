// sinew — see include/sinew.h for version and licence
// The main of the wasm compressor (web/sinew-compress.wasm, a WASI command over wasi-libc, driven by
// web/compress.mjs): the sinew CLI itself (tools/*.c, unchanged but for its main's name) on the files of the
// folders the host preopens, so `compress`, `pack`, `info --sizes` and the rest write the bytes and print the
// JSON the native CLI does. Relative paths start at $PWD when the host gives one (wasi-libc's current
// folder starts at "/"). Run as "sinew-errors" (argv[0]), it writes the inspector's table of per-joint errors
// over time instead (sinew_wc_errors below).
//
// Named errors: the CLI prints a failure's message, not its result code; calls to sinewi_fail are wrapped
// at link time (-Wl,--wrap=sinewi_fail) to record each (code, message) as well, so the host can name the
// code of the message the CLI printed (sinew_wc_failure_code/_message, called after the run). Importer
// warnings (skipped channels), which the CLI does not print with --json, are recorded the same way
// (sinewi_import_warn, sinew_wc_warning).
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/import/import_internal.h"
#include "../../tools/cli.h"
#include "sinew.h"

int sinew_cli_main(int argc, char **argv); // tools/sinew_cli.c's main (-Dmain=sinew_cli_main)
static int sinew_wc_errors(int argc, char **argv);

__attribute__((export_name("sinew_wc_failure_code"))) int sinew_wc_failure_code(uint32_t back);
__attribute__((export_name("sinew_wc_failure_message"))) const char *sinew_wc_failure_message(uint32_t back);
__attribute__((export_name("sinew_wc_warning"))) const char *sinew_wc_warning(uint32_t i);

int main(int argc, char **argv) {
	const char *pwd = getenv("PWD");
	if (pwd && *pwd == '/' && chdir(pwd) != 0) {
		fprintf(stderr, "sinew: error: cannot enter the working folder %s\n", pwd);
		return 1;
	}
	const char *name = argc > 0 ? strrchr(argv[0], '/') : NULL;
	name = name ? name + 1 : argc > 0 ? argv[0] : "";
	return strcmp(name, "sinew-errors") == 0 ? sinew_wc_errors(argc, argv) : sinew_cli_main(argc, argv);
}

/* ---- failures ---- */

#define FAILURES 16
static struct {
	sinew_result code;
	char message[256];
} failures[FAILURES];
static uint32_t failure_count;

// sinewi_fail as src/core/error.c has it (same text into the same 256 bytes), and a record of it.
sinew_result __wrap_sinewi_fail(sinew_error *error, sinew_result code, const char *fmt, ...);
sinew_result __wrap_sinewi_fail(sinew_error *error, sinew_result code, const char *fmt, ...) {
	char message[sizeof error->message];
	va_list args;
	va_start(args, fmt);
	int n = vsnprintf(message, sizeof message, fmt, args);
	va_end(args);
	if (n < 0) snprintf(message, sizeof message, "%s", sinew_error_string(code));
	if (error) {
		error->code = code;
		memcpy(error->message, message, sizeof message);
	}
	uint32_t at = failure_count++ % FAILURES;
	failures[at].code = code;
	memcpy(failures[at].message, message, sizeof message);
	return code;
}

// The failure recorded `back` calls before the last (0: the last): its code, or -1 when there is none; and
// its message.
int sinew_wc_failure_code(uint32_t back) {
	return back < failure_count && back < FAILURES ? (int)failures[(failure_count - 1 - back) % FAILURES].code : -1;
}

const char *sinew_wc_failure_message(uint32_t back) {
	return back < failure_count && back < FAILURES ? failures[(failure_count - 1 - back) % FAILURES].message : NULL;
}

/* ---- warnings ---- */

#define WARNINGS 64
static char *warnings[WARNINGS]; // on the heap: the memory is imported, so a static array would be data bytes
static uint32_t warning_count;

// sinewi_import_warn as src/import/import.c has it (the same 512-byte message to options->warning), and a
// record of the first WARNINGS (those memory allows).
void __wrap_sinewi_import_warn(const sinewi_import_ctx *ctx, const char *fmt, ...);
void __wrap_sinewi_import_warn(const sinewi_import_ctx *ctx, const char *fmt, ...) {
	char message[512];
	va_list args;
	va_start(args, fmt);
	vsnprintf(message, sizeof message, fmt, args);
	va_end(args);
	if (warning_count < WARNINGS && (warnings[warning_count] = strdup(message)) != NULL) warning_count++;
	if (ctx->options->warning) ctx->options->warning(ctx->options->warning_user, message);
}

// Warning `i` of the run, or NULL.
const char *sinew_wc_warning(uint32_t i) {
	return i < warning_count ? warnings[i] : NULL;
}

/* ---- per-joint errors over time, for the inspector ---- */

static uint8_t effective_rounding(uint8_t own, uint8_t clip) {
	uint8_t r = own == SINEW_ROUNDING_CLIP ? clip : own;
	return r <= SINEW_ROUNDING_NEAREST ? r : SINEW_ROUNDING_NONE;
}

// The source halfway between samples a and a + 1 as sampling plays it (DESIGN §4: translations and scales
// lerp, rotations nlerp on the shortest arc; floor keeps a, ceil and nearest take a + 1).
static void halfway(const sinew_clip *c, uint32_t a, sinew_qvv *out) {
	const uint32_t nj = c->joint_count;
	const sinew_qvv *pa = &c->transforms[(size_t)a * nj], *pb = pa + nj;
	for (uint32_t j = 0; j < nj; ++j) {
		uint8_t mode = effective_rounding(c->joints[j].rounding, c->rounding);
		if (mode != SINEW_ROUNDING_NONE) {
			out[j] = mode == SINEW_ROUNDING_FLOOR ? pa[j] : pb[j];
			continue;
		}
		double dot = 0, q[4], len = 0;
		for (int k = 0; k < 4; ++k) dot += (double)pa[j].rotation[k] * pb[j].rotation[k];
		double sign = dot < 0 ? -1.0 : 1.0;
		for (int k = 0; k < 4; ++k) q[k] = 0.5 * ((double)pa[j].rotation[k] + sign * pb[j].rotation[k]), len += q[k] * q[k];
		len = len > 0 ? 1.0 / __builtin_sqrt(len) : 0;
		for (int k = 0; k < 4; ++k) out[j].rotation[k] = (float)(q[k] * len);
		for (int k = 0; k < 3; ++k) {
			out[j].translation[k] = (float)(0.5 * ((double)pa[j].translation[k] + pb[j].translation[k]));
			out[j].scale[k] = (float)(0.5 * ((double)pa[j].scale[k] + pb[j].scale[k]));
		}
	}
}

static int errors_fail(const char *message, sinew_result code) {
	__wrap_sinewi_fail(NULL, code, "%s", message);
	fprintf(stderr, "sinew: error: %s\n", message);
	return 1;
}

// sinew-errors SOURCE BLOB -o OUT [--clip K] [import and shell options as the CLI takes them]: OUT receives, for
// every sample time, sample midpoint (when the source checks them) and source check time of clip K, the
// shell error of every joint through the decoder, in cm (sinew_pose_error: shells at the rest pose as in
// sinew_measure_error). Layout: u32 rows, u32 joints, u32 clip samples, u32 0, then per row
// f64 time, f64 kind (0 sample, 1 midpoint, 2 check time), f64[joints] errors.
static int sinew_wc_errors(int argc, char **argv) {
	cli_options o;
	memset(&o, 0, sizeof o);
	if (!cli_parse(argc, argv, 1, &o)) return 2;
	if (!o.positional[0] || !o.positional[1] || !o.output) return errors_fail("errors needs SOURCE BLOB -o OUT", SINEW_RESULT_INVALID_ARGUMENT), 2;
	sinew_import_options io;
	cli_import_options(&o, &io);
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	if (sinew_import_file(o.positional[0], &io, NULL, &set, &err) != SINEW_RESULT_OK) return errors_fail(err.message, err.code);
	int rc = 1;
	void *blob = NULL, *mem = NULL;
	size_t size = 0;
	double *rows = NULL;
	sinew_qvv *ref_half = NULL, *decoded = NULL;
	void *scratch = NULL;
	float *shells = NULL;
	double *errors = NULL;
	sinew_clip_info info;
	sinew_context *ctx = NULL;
	const sinew_clip *c = o.clip < set->clip_count ? set->clips[o.clip] : NULL;
	if (!c) {
		errors_fail("errors: no such clip", SINEW_RESULT_OUT_OF_RANGE);
		goto done;
	}
	if (!cli_read_file(o.positional[1], &blob, &size)) goto done;
	if (sinew_validate(blob, size, &err) != SINEW_RESULT_OK || sinew_blob_clip_info(blob, size, o.clip, &info, &err) != SINEW_RESULT_OK) {
		errors_fail(err.message, err.code);
		goto done;
	}
	if (info.joint_count != c->joint_count || info.sample_count != c->sample_count) {
		errors_fail("errors: the blob's clip does not match the source's", SINEW_RESULT_BAD_COUNT);
		goto done;
	}
	const uint32_t nj = c->joint_count, ns = c->sample_count;
	const uint32_t mids = c->check_midpoints && ns > 1 ? ns - 1 : 0, checks = c->check_times && c->check_transforms ? c->check_count : 0;
	const size_t count = (size_t)ns + mids + checks, width = 2 + (size_t)nj;
	size_t need = sinew_context_size(blob, size, o.clip);
	mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
	rows = (double *)malloc((count * width + 2) * sizeof(double));
	ref_half = (sinew_qvv *)malloc(((size_t)nj + 1) * sizeof(sinew_qvv));
	decoded = (sinew_qvv *)malloc(((size_t)nj + 1) * sizeof(sinew_qvv));
	scratch = malloc(sinew_pose_error_scratch_size(nj) + 8);
	shells = (float *)malloc(((size_t)nj + 1) * sizeof(float));
	errors = (double *)malloc(((size_t)nj + 1) * sizeof(double));
	if (!mem || !rows || !ref_half || !decoded || !scratch || !shells || !errors) {
		errors_fail("errors: out of memory", SINEW_RESULT_OUT_OF_MEMORY);
		goto done;
	}
	if (sinew_context_init(mem, need, blob, size, o.clip, NULL, &ctx, &err) != SINEW_RESULT_OK) {
		errors_fail(err.message, err.code);
		goto done;
	}
	const double unit = c->unit_scale > 0 ? c->unit_scale : 1.0;
	const double shell = (o.shell_cm > 0 ? o.shell_cm : SINEW_DEFAULT_SHELL_CM) * 0.01 * unit;
	for (uint32_t j = 0; j < nj; ++j) shells[j] = c->joints[j].shell_distance > 0 ? c->joints[j].shell_distance : (float)shell;
	uint32_t *header = (uint32_t *)(void *)rows;
	header[0] = (uint32_t)count, header[1] = nj, header[2] = ns, header[3] = 0;
	double *row = rows + 2;
	for (size_t p = 0; p < count; ++p, row += width) {
		const sinew_qvv *ref;
		double t, kind;
		if (p < ns) { // sample times (through the clip's time map when it has one)
			t = sinew_clip_sample_time(c, (double)p), kind = 0, ref = &c->transforms[p * nj];
		} else if (p < (size_t)ns + mids) {
			uint32_t a = (uint32_t)(p - ns);
			t = sinew_clip_sample_time(c, (double)a + 0.5), kind = 1;
			halfway(c, a, ref_half);
			ref = ref_half;
		} else {
			size_t k = p - ns - mids;
			t = c->check_times[k], kind = 2, ref = &c->check_transforms[k * nj];
		}
		sinew_sample_pose(ctx, t, decoded, NULL, NULL);
		sinew_pose_error(c->joints, nj, ref, decoded, shells, shell, scratch, errors);
		row[0] = t, row[1] = kind;
		for (uint32_t j = 0; j < nj; ++j) row[2 + j] = errors[j] / unit * 100.0;
	}
	rc = cli_write_file(o.output, rows, (count * width + 2) * sizeof(double)) ? 0 : 1;
done:
	free(errors);
	free(shells);
	free(scratch);
	free(decoded);
	free(ref_half);
	free(rows);
	free(mem);
	free(blob);
	sinew_clip_set_free(set);
	return rc;
}
