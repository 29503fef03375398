// sinew — see include/sinew.h for version and licence
// Shared pieces of the command-line tool: options, output, files. Uses only the public API.
#ifndef SINEW_CLI_H
#define SINEW_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sinew.h"

typedef struct cli_options {
	const char *output;   // -o
	const char *source;   // --source
	const char *asf;      // --asf: the skeleton of AMC files
	const char *positional[256];
	int positional_count;
	double error_cm, shell_cm, rate, unit_cm, time;
	bool has_time;
	int level;
	uint32_t segment_length, clip;
	bool json, strip, midpoint, plain_knots, quiet, no_end_sites, skin_shells, sizes, scalar_kernel, random_access;
	bool allow_over_bound;
	int repeat;
	uint32_t jobs; // -j: threads (0: every core); a batch compress runs a file per thread
	uint32_t page_bytes;   // compress --page-bytes: paged blob with pages under this size
	bool stream;           // bench --stream: play paged clips with a page budget
	double budget_bytes;   // bench --stream: bytes of pages resident at most
	double prefetch_s;     // bench --stream: seconds of playback prefetched ahead
	uint32_t tier_count;   // compress --tiers E0,E1,...: bounds in cm, coarsest first
	double tiers_cm[SINEW_MAX_TIERS];
	const char *tiers_text; // --tiers as given
	uint32_t tier;         // decompress --tier K
	bool has_tier;
} cli_options;

// Batch compress (tools/cli_batch.c): several inputs, or a folder, into -o OUTDIR.
bool cli_is_batch(const cli_options *o);
int cli_compress_batch(const cli_options *o);

// The compress options the command line sets (--tiers included).
void cli_compress_options(const cli_options *o, sinew_compress_options *co);

// The import options the command line sets (no warning callback).
void cli_import_options(const cli_options *o, sinew_import_options *io);

// Parses argv[first..argc) into `o`; prints a one-line error and returns false on bad input.
bool cli_parse(int argc, char **argv, int first, cli_options *o);
void cli_print_help(FILE *f);

// Messages: "sinew: error: ..." on stderr.
// True when measured stats are over the bound (a node over its threshold, a scalar over its precision), with
// one line naming the clip, the node, the time and the error in `message`.
bool cli_over_bound(const sinew_clip *c, const sinew_error_stats *st, double error_cm, char *message, size_t size);
// What to add to a compressor's OVER_BOUND message that does not say it: "; nothing written (--allow-over-bound
// writes it anyway)"; "" for other results.
const char *cli_over_bound_hint(sinew_result r, const char *message);
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

// True when `path` names a directory (given where a file is read or written).
bool cli_is_directory(const char *path);
// The bytes a source file spends on motion (sinew_clip.source_bytes; a glTF accessor several clips read counted
// once): compress --json's source_animation_bytes.
uint64_t cli_source_bytes(const char *path, const sinew_clip_set *set);
// Reads a whole file into memory (16-byte aligned, free with free()).
bool cli_read_file(const char *path, void **data, size_t *size);
// Writes `size` bytes to a temporary file next to `path`, then renames it over `path`.
bool cli_write_file(const char *path, const void *data, size_t size);

// Nanoseconds from a monotonic clock.
uint64_t cli_now_ns(void);
// The same as sinew_compress_options.now_ns.
uint64_t cli_clock_ns(void *user);
// The process's peak resident memory so far (0 where it cannot be read).
uint64_t cli_peak_memory_bytes(void);

// Minimal JSON emitter on stdout.
typedef struct cli_json {
	int depth;
	bool first[32];
} cli_json;
void cli_json_begin(cli_json *j, char kind); // '{' or '['
void cli_json_end(cli_json *j, char kind);
void cli_json_key(cli_json *j, const char *key); // inside objects, before a value
void cli_json_string(cli_json *j, const char *key, const char *value);
void cli_json_number(cli_json *j, const char *key, double value);
void cli_json_uint(cli_json *j, const char *key, uint64_t value);
void cli_json_bool(cli_json *j, const char *key, bool value);

#endif
