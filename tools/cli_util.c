// sinew — see include/sinew.h for version and licence
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if !defined(__wasm__)
#include <sys/resource.h>
#endif
#include <unistd.h>

void cli_error(const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	fputs("sinew: error: ", stderr);
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
	va_end(args);
}

typedef enum { OPT_FLAG, OPT_STRING, OPT_NUMBER, OPT_UINT } opt_kind;
typedef struct opt_def {
	const char *name;
	opt_kind kind;
	size_t offset;
	double min, max;
	const char *help;
} opt_def;

#define OFF(f) offsetof(cli_options, f)
static const opt_def options[] = {
    {"-o", OPT_STRING, OFF(output), 0, 0, "output file (.sinew, .gltf, .glb)"},
    {"--error-cm", OPT_NUMBER, OFF(error_cm), 1e-6, 1e6, "error threshold in cm, scene units, every moving node and morphed vertex (default 0.01)"},
    {"--shell-cm", OPT_NUMBER, OFF(shell_cm), 1e-6, 1e6, "shell point distance from each node in cm, scene units (default 3)"},
    {"--level", OPT_UINT, OFF(level), 1, 4, "compression level 1 fast, 2 default, 3 high, 4 highest"},
    {"-j", OPT_UINT, OFF(jobs), 1, 256, "compress, pack: threads, -j N or -jN (default: every core); several files or folders: a file per thread"},
    {"--segment", OPT_UINT, OFF(segment_length), 1, 1024, "sample intervals per segment (default 40; 32 with --plain-knots)"},
    {"--page-bytes", OPT_UINT, OFF(page_bytes), 64, 1 << 30, "compress: paged blob, pages of whole segments under N bytes (4096, 65536)"},
    {"--tiers", OPT_STRING, OFF(tiers_text), 0, 0, "compress: quality tiers E0,E1,... in cm, coarsest first (0.1,0.01); paged"},
    {"--tier", OPT_UINT, OFF(tier), 0, 7, "decompress, sample, error: the clip as it plays with tiers 0..K"},
    {"--stream", OPT_FLAG, OFF(stream), 0, 0, "bench on a paged blob: play 1x start to end and back with --budget-bytes of pages"},
    {"--budget-bytes", OPT_NUMBER, OFF(budget_bytes), 0, 1e15, "bench --stream: page bytes resident at most (default 65536)"},
    {"--prefetch", OPT_NUMBER, OFF(prefetch_s), 0, 1e6, "bench --stream: seconds of playback loaded ahead (default 0.5)"},
    {"--rate", OPT_NUMBER, OFF(rate), 1e-3, 1e6, "glTF import: resample at this rate in Hz"},
    {"--asf", OPT_STRING, OFF(asf), 0, 0, "AMC import: the .asf skeleton (default: the only .asf beside the .amc)"},
    {"--unit-cm", OPT_NUMBER, OFF(unit_cm), 1e-9, 1e9, "length of one source unit in cm (BVH default 1)"},
    {"--source", OPT_STRING, OFF(source), 0, 0, "glTF the clips came from (decompress: keep its document)"},
    {"--time", OPT_NUMBER, OFF(time), -1e12, 1e12, "sample: time in seconds"},
    {"--clip", OPT_UINT, OFF(clip), 0, 1e9, "clip index inside a .sinew file (default 0)"},
    {"--repeat", OPT_UINT, OFF(repeat), 1, 1e6, "bench: repetitions per measurement (default 15)"},
    {"--json", OPT_FLAG, OFF(json), 0, 0, "print one JSON object on stdout"},
    {"--strip", OPT_FLAG, OFF(strip), 0, 0, "compress: leave out names, hierarchy and default poses"},
    {"--plain-knots", OPT_FLAG, OFF(plain_knots), 0, 0, "compress: no midpoint knots (~20 % faster pose sampling, 5-10 % larger)"},
    {"--midpoint", OPT_FLAG, OFF(midpoint), 0, 0, "compress: midpoint knots (the default; kept for scripts)"},
    {"--allow-over-bound", OPT_FLAG, OFF(allow_over_bound), 0, 0, "compress, pack: write a clip that cannot meet its bound "
                                                                    "(marked over its bound) instead of failing"},
    {"--sizes", OPT_FLAG, OFF(sizes), 0, 0, "info on a .sinew: where every byte goes (docs/format.md parts)"},
    {"--no-end-sites", OPT_FLAG, OFF(no_end_sites), 0, 0, "BVH/AMC import: drop End Site joints"},
    {"--skin-shells", OPT_FLAG, OFF(skin_shells), 0, 0, "glTF import: shells reach each joint's farthest skinned vertex"},
    {"--scalar", OPT_FLAG, OFF(scalar_kernel), 0, 0, "force the scalar decoding kernel"},
    {"--random-access", OPT_FLAG, OFF(random_access), 0, 0, "bench: contexts precompute every segment (any order, same cost)"},
    {"-q", OPT_FLAG, OFF(quiet), 0, 0, "quiet: errors only"},
};

void cli_print_help(FILE *f) {
	fprintf(f, "sinew %s - animation compression (format version 3; reads 1 to 3)\n\n"
	           "usage: sinew <command> [options]\n\n"
	           "commands:\n"
	           "  info FILE                 describe an animation file or a .sinew blob (--sizes: byte breakdown)\n"
	           "  convert IN -o OUT.gltf    import and write glTF without compression (.acl.sjson: one clip\n"
	           "                            for ACL's tools, --clip)\n"
	           "  compress IN -o OUT.sinew  compress every clip of IN into one blob (--page-bytes N: paged;\n"
	           "                            --tiers 0.1,0.01: quality tiers, each in pages of its own)\n"
	           "  compress IN... -o OUTDIR  files and folders (walked for .gltf .glb .bvh .amc .acl.sjson and, with\n"
	           "                            assimp, .fbx .dae .x .3ds .ase .smd .mdl ...), one blob each under\n"
	           "                            OUTDIR; -j N threads, output identical whatever N\n"
	           "  decompress IN.sinew -o OUT.gltf|.glb [--source SRC]\n"
	           "  error SOURCE IN.sinew     measure the error of a blob against its source (every moving node,\n"
	           "                            scene units, samples and the source's key times/midpoints; the\n"
	           "                            worst node and time; the source read in the blob's --unit-cm)\n"
	           "  sample IN.sinew --time T  print one decompressed pose\n"
	           "  validate IN.sinew         check a blob (structure and checksum)\n"
	           "  bench IN.sinew            time pose and joint sampling against a raw copy; --stream: play a\n"
	           "                            paged blob 1x forward and back within --budget-bytes of pages\n"
	           "  pack IN.gltf|glb -o OUT.glb  compress the animations inside the glTF (SINEW_compressed_animation)\n"
	           "  unpack IN.glb -o OUT.glb  back to plain glTF animations\n\n"
	           "options:\n",
	        sinew_version());
	for (size_t i = 0; i < sizeof options / sizeof options[0]; ++i)
		fprintf(f, "  %-14s %s\n", options[i].name, options[i].help);
}

void cli_compress_options(const cli_options *o, sinew_compress_options *co) {
	memset(co, 0, sizeof *co);
	co->error_cm = o->error_cm;
	co->shell_cm = o->shell_cm;
	co->level = o->level;
	co->segment_length = o->segment_length;
	co->strip_metadata = o->strip;
	co->midpoint_knots = o->plain_knots ? -1 : 1;
	co->allow_over_bound = o->allow_over_bound;
	co->page_bytes = o->page_bytes;
	co->tier_count = o->tier_count;
	for (uint32_t k = 0; k < o->tier_count; ++k) co->tier_error_cm[k] = o->tiers_cm[k];
}

void cli_import_options(const cli_options *o, sinew_import_options *io) {
	memset(io, 0, sizeof *io);
	io->unit_cm = o->unit_cm;
	io->sample_rate = o->rate;
	io->error_cm = o->error_cm;
	io->shell_cm = o->shell_cm;
	io->bvh_skip_end_sites = o->no_end_sites;
	io->skin_shells = o->skin_shells;
	io->asf_path = o->asf;
}

bool cli_parse(int argc, char **argv, int first, cli_options *o) {
	for (int i = first; i < argc; ++i) {
		const char *a = argv[i];
		if (a[0] != '-' || a[1] == '\0') {
			if (o->positional_count >= (int)(sizeof o->positional / sizeof o->positional[0])) {
				cli_error("too many arguments ('%s')", a);
				return false;
			}
			o->positional[o->positional_count++] = a;
			continue;
		}
		const opt_def *d = NULL;
		const char *attached = NULL; // -j4, as make and cc take a one-letter option's value
		for (size_t k = 0; k < sizeof options / sizeof options[0]; ++k)
			if (strcmp(options[k].name, a) == 0) d = &options[k];
		if (!d && a[1] != '-' && a[2] != '\0')
			for (size_t k = 0; k < sizeof options / sizeof options[0]; ++k)
				if (options[k].kind != OPT_FLAG && strlen(options[k].name) == 2 && strncmp(options[k].name, a, 2) == 0)
					d = &options[k], attached = a + 2;
		if (!d) {
			cli_error("unknown option '%s' (see sinew --help)", a);
			return false;
		}
		void *field = (char *)o + d->offset; // fields of cli_options, aligned for their type
		if (d->kind == OPT_FLAG) {
			*(bool *)field = true;
			continue;
		}
		if (!attached && i + 1 >= argc) {
			cli_error("option %s needs a value", a);
			return false;
		}
		const char *v = attached ? attached : argv[++i];
		if (attached) a = d->name; // errors name the option
		if (d->kind == OPT_STRING) {
			*(const char **)field = v;
			continue;
		}
		char *end = NULL;
		errno = 0;
		double x = strtod(v, &end);
		if (errno || end == v || *end || !isfinite(x) || x < d->min || x > d->max ||
		    (d->kind == OPT_UINT && x != floor(x))) {
			cli_error("%s should be %s between %g and %g (got '%s')", a, d->kind == OPT_UINT ? "an integer" : "a number",
			          d->min, d->max, v);
			return false;
		}
		if (d->kind == OPT_NUMBER) *(double *)field = x;
		else if (d->offset == OFF(level) || d->offset == OFF(repeat)) *(int *)field = (int)x;
		else *(uint32_t *)field = (uint32_t)x;
		if (d->offset == OFF(time)) o->has_time = true;
		if (d->offset == OFF(tier)) o->has_tier = true;
	}
	if (o->tiers_text) { // E0,E1,...: decreasing bounds in cm, the last the clip threshold
		const char *p = o->tiers_text;
		o->tier_count = 0;
		while (*p) {
			char *end = NULL;
			errno = 0;
			double x = strtod(p, &end);
			if (errno || end == p || !isfinite(x) || x <= 0 || (*end && *end != ',') || o->tier_count >= SINEW_MAX_TIERS ||
			    (o->tier_count && !(x < o->tiers_cm[o->tier_count - 1]))) {
				cli_error("--tiers should be 2 to %d decreasing bounds in cm, such as 0.1,0.01 (got '%s')", SINEW_MAX_TIERS,
				          o->tiers_text);
				return false;
			}
			o->tiers_cm[o->tier_count++] = x;
			p = *end ? end + 1 : end;
		}
		if (o->tier_count < 2) {
			cli_error("--tiers needs at least 2 bounds, such as 0.1,0.01 (got '%s')", o->tiers_text);
			return false;
		}
		if (o->error_cm > 0 && o->error_cm != o->tiers_cm[o->tier_count - 1]) {
			cli_error("--error-cm %g differs from the last --tiers bound %g (the clip's threshold)", o->error_cm,
			          o->tiers_cm[o->tier_count - 1]);
			return false;
		}
		o->error_cm = o->tiers_cm[o->tier_count - 1];
	}
	return true;
}

// Why a path cannot be read or written: a folder given where a file is needed says so.
static const char *why(int code) {
#ifdef EISDIR
	if (code == EISDIR) return "is a directory, not a file";
#endif
	return code ? strerror(code) : "cannot open";
}

bool cli_is_directory(const char *path) {
	errno = 0;
	FILE *f = fopen(path, "rb");
	if (!f) {
#ifdef EISDIR
		return errno == EISDIR;
#else
		return false;
#endif
	}
	char first;
	errno = 0;
	bool dir = fread(&first, 1, 1, f) == 0 && ferror(f); // glibc opens a directory; its first read fails
#ifdef EISDIR
	dir = dir && errno == EISDIR;
#endif
	fclose(f);
	return dir;
}

bool cli_read_file(const char *path, void **data, size_t *size) {
	errno = 0;
	FILE *f = fopen(path, "rb");
	if (!f) {
		cli_error("%s: %s", path, why(errno));
		return false;
	}
	char first;
	errno = 0;
	if (fread(&first, 1, 1, f) == 0 && ferror(f)) {
		cli_error("%s: %s", path, why(errno));
		fclose(f);
		return false;
	}
	long n = -1;
	if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
	if (n < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		cli_error("%s: cannot determine size", path);
		return false;
	}
	void *p = aligned_alloc(16, ((size_t)n + 16) & ~(size_t)15);
	if (!p || fread(p, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(p);
		cli_error("%s: read error", path);
		return false;
	}
	fclose(f);
	*data = p;
	*size = (size_t)n;
	return true;
}

bool cli_write_file(const char *path, const void *data, size_t size) {
	if (cli_is_directory(path)) {
		cli_error("%s: is a directory; -o needs a file name here", path);
		return false;
	}
	char tmp[4096];
	if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
		cli_error("%s: path too long", path);
		return false;
	}
	errno = 0;
	FILE *f = fopen(tmp, "wb");
	if (!f) {
		cli_error("%s: %s", path, why(errno));
		return false;
	}
	bool ok = fwrite(data, 1, size, f) == size;
	ok = (fclose(f) == 0) && ok;
	int code = ok ? 0 : errno;
	if (ok && rename(tmp, path) != 0) ok = false, code = errno;
	if (!ok) {
		remove(tmp);
		cli_error("%s: write failed: %s", path, why(code));
		return false;
	}
	return true;
}

uint64_t cli_now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t cli_clock_ns(void *user) {
	(void)user;
	return cli_now_ns();
}

uint64_t cli_peak_memory_bytes(void) {
#if defined(__wasm__)
	return 0; // (the wasm compressor's heap is reported by web/compress.mjs)
#else
	struct rusage u;
	return getrusage(RUSAGE_SELF, &u) == 0 ? (uint64_t)u.ru_maxrss * 1024u : 0; // Linux: kilobytes
#endif
}

static void json_sep(cli_json *j) {
	if (!j->first[j->depth]) fputc(',', stdout);
	j->first[j->depth] = false;
}

static void json_escaped(const char *s) {
	fputc('"', stdout);
	for (; s && *s; ++s) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') printf("\\%c", c);
		else if (c < 0x20) printf("\\u%04x", c);
		else fputc(c, stdout);
	}
	fputc('"', stdout);
}

void cli_json_key(cli_json *j, const char *key) {
	json_sep(j);
	if (key) {
		json_escaped(key);
		fputc(':', stdout);
	}
}

void cli_json_begin(cli_json *j, char kind) {
	if (j->depth > 0 || !j->first[0]) {
		// caller wrote the key already via cli_json_key
	}
	fputc(kind, stdout);
	j->depth++;
	j->first[j->depth] = true;
}

void cli_json_end(cli_json *j, char kind) {
	j->depth--;
	fputc(kind, stdout);
	if (j->depth == 0) fputc('\n', stdout);
}

void cli_json_string(cli_json *j, const char *key, const char *value) {
	cli_json_key(j, key);
	if (value) json_escaped(value);
	else fputs("null", stdout);
}

void cli_json_number(cli_json *j, const char *key, double value) {
	cli_json_key(j, key);
	if (isfinite(value)) printf("%.9g", value);
	else fputs("null", stdout);
}

void cli_json_uint(cli_json *j, const char *key, uint64_t value) {
	cli_json_key(j, key);
	printf("%llu", (unsigned long long)value);
}

void cli_json_bool(cli_json *j, const char *key, bool value) {
	cli_json_key(j, key);
	fputs(value ? "true" : "false", stdout);
}

bool cli_over_bound(const sinew_clip *c, const sinew_error_stats *st, double error_cm, char *message, size_t size) {
	if (st->samples_over_threshold == 0 && st->scalar_over_precision == 0) return false;
	const double to_cm = 100.0 / (c->unit_scale > 0 ? c->unit_scale : 1.0);
	if (st->samples_over_threshold == 0) {
		snprintf(message, size, "clip '%s': a scalar track is %.3g times its precision off", c->name ? c->name : "",
		         st->max_scalar_error);
		return true;
	}
	const uint32_t j = st->worst_joint < c->joint_count ? st->worst_joint : 0;
	double threshold = c->joint_count && c->joints[j].precision > 0.0f ? c->joints[j].precision * to_cm : error_cm;
	char node[96];
	if (c->joint_count && c->joints[j].name) snprintf(node, sizeof node, "node '%.80s'", c->joints[j].name);
	else snprintf(node, sizeof node, "joint %u", j);
	snprintf(message, size, "clip '%s': %s is %.4g cm off at t = %.6g s, over the %.4g cm threshold (%llu times over)",
	         c->name ? c->name : "", node, st->max_error * to_cm, st->worst_time, threshold,
	         (unsigned long long)st->samples_over_threshold);
	return true;
}

uint64_t cli_source_bytes(const char *path, const sinew_clip_set *set) {
	size_t n = strlen(path);
	sinew_gltf_sizes g;
	if (((n > 5 && strcmp(path + n - 5, ".gltf") == 0) || (n > 4 && strcmp(path + n - 4, ".glb") == 0)) &&
	    sinew_gltf_sizes_of(path, NULL, &g, NULL) == SINEW_RESULT_OK)
		return g.keyframe_bytes; // each accessor once, however many clips read it
	uint64_t total = 0;
	for (uint32_t i = 0; i < set->clip_count; ++i) total += set->clips[i]->source_bytes;
	return total;
}

const char *cli_over_bound_hint(sinew_result r, const char *message) {
	return r == SINEW_RESULT_OVER_BOUND && !strstr(message, "--allow-over-bound")
	           ? "; nothing written (--allow-over-bound writes it anyway)"
	           : "";
}
