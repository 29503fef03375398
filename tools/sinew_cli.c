// sinew — see include/sinew.h for version and licence
// The sinew command-line tool: parse, call the library, print. Exit code 0 on success,
// non-zero with a one-line "sinew: error: ..." otherwise.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_pool.h"

static double units_to_cm(double v, double unit_scale) {
	return v / unit_scale * 100.0;
}

static void print_warning(void *user, const char *message) {
	const cli_options *o = (const cli_options *)user;
	if (!o->quiet && !o->json) fprintf(stderr, "sinew: warning: %s\n", message);
}

static void import_options(const cli_options *o, sinew_import_options *io) {
	cli_import_options(o, io);
	io->warning = print_warning;
	io->warning_user = (void *)o;
}

static sinew_clip_set *load(const char *path, const cli_options *o) {
	sinew_import_options io;
	import_options(o, &io);
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	if (sinew_import_file(path, &io, NULL, &set, &err) != SINEW_RESULT_OK) {
		cli_error("%s", err.message);
		return NULL;
	}
	return set;
}

static bool is_blob_file(const char *path) {
	FILE *f = fopen(path, "rb");
	char magic[4] = {0};
	bool yes = f && fread(magic, 1, 4, f) == 4 && memcmp(magic, "SNEW", 4) == 0;
	if (f) fclose(f);
	return yes;
}

static bool load_blob(const char *path, void **blob, size_t *size) {
	if (!cli_read_file(path, blob, size)) return false;
	sinew_error err = {0};
	if (sinew_validate(*blob, *size, &err) != SINEW_RESULT_OK) {
		cli_error("%s: %s", path, err.message);
		free(*blob);
		return false;
	}
	return true;
}

static double clip_threshold_units(const cli_options *o, const sinew_clip *c) {
	return (o->error_cm > 0 ? o->error_cm : SINEW_DEFAULT_ERROR_CM) * 0.01 * c->unit_scale;
}

// The error of clip `index` of a blob against its source clip, through the decoder at every sample,
// sample midpoint and source check time (sinew_measure_blob_error).
// `tiers` > 0: as the clip plays with its first `tiers` quality tiers.
static bool measure_tiers(const cli_options *o, const sinew_clip *ref, const void *blob, size_t size, uint32_t index,
                          uint32_t tiers, sinew_error_stats *st) {
	sinew_metric_options mo = {.shell_distance = (o->shell_cm > 0 ? o->shell_cm : SINEW_DEFAULT_SHELL_CM) * 0.01 * ref->unit_scale,
	                           .threshold = clip_threshold_units(o, ref),
	                           .tiers = tiers};
	sinew_error err = {0};
	if (sinew_measure_blob_error(ref, blob, size, index, &mo, NULL, st, &err) != SINEW_RESULT_OK) {
		cli_error("%s", err.message);
		return false;
	}
	return true;
}

/* ---- where a command writes ---- */

static bool ends_with_ci(const char *s, const char *suffix) {
	size_t n = strlen(s), m = strlen(suffix);
	if (m > n) return false;
	for (size_t i = 0; i < m; ++i) {
		char a = s[n - m + i];
		if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
		if (a != suffix[i]) return false;
	}
	return true;
}

// Two names of the same file (the same name, or the same device and inode).
static bool same_file(const char *a, const char *b) {
	if (strcmp(a, b) == 0) return true;
#if defined(__wasm__) && !defined(__wasi__)
	return false; // (the wasm compressor's in-memory files: a name is the file)
#else
	struct stat x, y;
	return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
#endif
}

// -o names a folder: said before its extension is judged (convert -o out/ said "writes .gltf or .glb").
static bool output_is_folder(const cli_options *o) {
	if (!cli_is_directory(o->output)) return false;
	cli_error("-o %s is a directory; give a file name", o->output);
	return true;
}

// -o names a file that is not a folder and not one of the command's inputs (decompress x.sinew -o x.sinew
// replaced the blob it read).
static bool output_ok(const cli_options *o) {
	if (output_is_folder(o)) return false;
	const char *inputs[2] = {o->positional[0], o->source};
	for (int i = 0; i < 2; ++i)
		if (inputs[i] && same_file(inputs[i], o->output)) {
			cli_error("-o %s is the input %s; write to another file", o->output, inputs[i]);
			return false;
		}
	return true;
}

// The glTF a command writes: its extension says which (.gltf JSON, .glb binary).
static bool gltf_output_ok(const char *command, const cli_options *o) {
	if (ends_with_ci(o->output, ".gltf") || ends_with_ci(o->output, ".glb")) return true;
	cli_error("%s writes glTF: -o needs a name ending in .gltf (JSON) or .glb (binary), got '%s'", command, o->output);
	return false;
}

/* ---- info ---- */

// The parts of a size breakdown as (name, bytes) rows; knot bits in bytes (fractional).
static void size_rows(const sinew_size_breakdown *b, const char **names, double *bytes, int *count) {
	const char *n[] = {"blob_header", "clip_headers", "descriptors", "constants", "clip_ranges", "time_map", "segment_table",
	                   "segment_descriptors", "segment_ranges", "group_offsets", "rotation_bits", "translation_bits",
	                   "scale_bits", "scalar_bits", "bit_padding", "metadata", "rig", "padding", "curve_times", "curve_tracks"};
	double v[] = {(double)b->blob_header, (double)b->clip_headers, (double)b->descriptors, (double)b->constants,
	              (double)b->clip_ranges, (double)b->time_map, (double)b->segment_table, (double)b->segment_descriptors,
	              (double)b->segment_ranges, (double)b->group_offsets, (double)b->bits_rotation / 8.0, (double)b->bits_translation / 8.0,
	              (double)b->bits_scale / 8.0, (double)b->bits_scalar / 8.0, (double)b->bit_padding / 8.0, (double)b->metadata,
	              (double)b->rig, (double)b->padding, (double)b->curve_times, (double)b->curve_tracks};
	*count = (int)(sizeof v / sizeof v[0]);
	for (int i = 0; i < *count; ++i) names[i] = n[i], bytes[i] = v[i];
}

static void print_sizes(cli_json *j, const cli_options *o, const char *label, const sinew_size_breakdown *b) {
	const char *names[20];
	double bytes[20];
	int n;
	size_rows(b, names, bytes, &n);
	if (o->json) {
		cli_json_key(j, "sizes"), cli_json_begin(j, '{');
		cli_json_uint(j, "total", b->total);
		for (int i = 0; i < n; ++i) cli_json_number(j, names[i], bytes[i]);
		cli_json_uint(j, "segments", b->segments);
		cli_json_uint(j, "animated_tracks", b->animated_tracks);
		cli_json_uint(j, "knots", b->knots);
		cli_json_uint(j, "predicted_knots", b->predicted_knots);
		cli_json_end(j, '}');
		return;
	}
	printf("    %s: %llu bytes, %u segments, %u animated tracks, %u knots (%u predicted)\n", label,
	       (unsigned long long)b->total, b->segments, b->animated_tracks, b->knots, b->predicted_knots);
	for (int i = 0; i < n; ++i)
		if (bytes[i] > 0)
			printf("      %-20s %12.1f  %5.1f %%\n", names[i], bytes[i], 100.0 * bytes[i] / (double)(b->total ? b->total : 1));
}

static int cmd_info(const cli_options *o) {
	const char *path = o->positional[0];
	if (!path) return cli_error("info needs a FILE"), 2;
	cli_json j = {0, {true}};
	if (is_blob_file(path)) {
		void *blob;
		size_t size;
		if (!load_blob(path, &blob, &size)) return 1;
		uint32_t n = sinew_blob_clip_count(blob, size), resident = sinew_blob_resident_size(blob, size);
		sinew_clip_info first = {0};
		sinew_blob_clip_info(blob, size, 0, &first, NULL);
		if (o->json) cli_json_begin(&j, '{'), cli_json_string(&j, "file", path), cli_json_uint(&j, "bytes", size),
		    cli_json_uint(&j, "format_version", first.format_version), cli_json_uint(&j, "resident_bytes", resident),
		    cli_json_key(&j, "clips"), cli_json_begin(&j, '[');
		else if (resident < size)
			printf("%s: sinew format %u, %zu bytes (%u resident, then pages), %u clip(s)\n", path, first.format_version, size,
			       resident, n);
		else printf("%s: sinew format %u, %zu bytes, %u clip(s)\n", path, first.format_version, size, n);
		for (uint32_t i = 0; i < n; ++i) {
			sinew_clip_info info;
			sinew_error err;
			if (sinew_blob_clip_info(blob, size, i, &info, &err) != SINEW_RESULT_OK) continue;
			if (o->json) {
				cli_json_key(&j, NULL), cli_json_begin(&j, '{');
				cli_json_string(&j, "name", info.name);
				cli_json_uint(&j, "joints", info.joint_count);
				cli_json_uint(&j, "scalar_tracks", info.scalar_track_count);
				cli_json_uint(&j, "samples", info.sample_count);
				cli_json_number(&j, "sample_rate", info.sample_rate);
				cli_json_number(&j, "duration", info.duration);
				cli_json_uint(&j, "segments", info.segment_count);
				cli_json_uint(&j, "bytes", (uint64_t)info.size + info.page_bytes);
				cli_json_bool(&j, "looping", info.looping);
				cli_json_uint(&j, "pages", info.page_count);
				cli_json_uint(&j, "resident_bytes", info.size);
				cli_json_uint(&j, "page_bytes", info.page_bytes);
				cli_json_uint(&j, "page_bytes_max", info.page_bytes_max);
				cli_json_uint(&j, "time_marks", info.time_mark_count);
				cli_json_bool(&j, "over_bound", info.over_bound);
				cli_json_bool(&j, "curves", info.curves);
				if (info.tier_count > 1) { // as compressed: each tier's bound, bytes and the error the encoder measured
					cli_json_key(&j, "tiers"), cli_json_begin(&j, '[');
					for (uint32_t k = 0; k < info.tier_count; ++k) {
						cli_json_key(&j, NULL), cli_json_begin(&j, '{');
						cli_json_uint(&j, "tier", k);
						cli_json_number(&j, "bound_cm", info.tier_bound_cm[k]);
						cli_json_uint(&j, "bytes", info.tier_bytes[k]);
						cli_json_number(&j, "max_error_cm", info.tier_error_cm[k]);
						cli_json_end(&j, '}');
					}
					cli_json_end(&j, ']');
				}
			} else {
				printf("  clip %u '%s': %u joints, %u scalar tracks, %u samples @ %s%g Hz (%.3f s), %u segments%s, %u bytes%s%s\n", i,
				       info.name ? info.name : "", info.joint_count, info.scalar_track_count, info.sample_count,
				       info.time_mark_count ? "~" : "", info.sample_rate, info.duration, info.segment_count,
				       info.curves ? " (curves: the source's keys)" : "", info.size + info.page_bytes, info.looping ? ", looping" : "",
				       info.over_bound ? ", OVER ITS BOUND (written with --allow-over-bound)" : "");
				if (info.time_mark_count)
					printf("    time map: %u marks (samples off a uniform grid, evenly spaced between marks)\n",
					       info.time_mark_count);
				if (info.page_count)
					printf("    paged: %u resident bytes + %u pages of %u bytes (largest %u)\n", info.size, info.page_count,
					       info.page_bytes, info.page_bytes_max);
				for (uint32_t k = 0; info.tier_count > 1 && k < info.tier_count; ++k)
					printf("    tier %u: bound %g cm, %u bytes of pages, max error %.5f cm (as compressed)\n", k,
					       info.tier_bound_cm[k], info.tier_bytes[k], info.tier_error_cm[k]);
			}
			sinew_size_breakdown sizes;
			if (o->sizes && sinew_blob_sizes(blob, size, i, &sizes, &err) == SINEW_RESULT_OK)
				print_sizes(&j, o, "sizes", &sizes);
			if (o->json) cli_json_end(&j, '}');
		}
		if (o->json) cli_json_end(&j, ']');
		sinew_size_breakdown all;
		sinew_error err;
		if (o->sizes && sinew_blob_sizes(blob, size, SINEW_ALL_CLIPS, &all, &err) == SINEW_RESULT_OK)
			print_sizes(&j, o, "whole blob", &all);
		if (o->json) cli_json_end(&j, '}');
		free(blob);
		return 0;
	}
	sinew_clip_set *set = load(path, o);
	if (!set) return 1;
	uint64_t total = 0;
	const uint64_t source_total = cli_source_bytes(path, set);
	if (o->json) cli_json_begin(&j, '{'), cli_json_string(&j, "file", path), cli_json_key(&j, "clips"), cli_json_begin(&j, '[');
	else printf("%s: %u clip(s)\n", path, set->clip_count);
	for (uint32_t i = 0; i < set->clip_count; ++i) {
		const sinew_clip *c = set->clips[i];
		uint32_t changing[3] = {0, 0, 0}, with_tracks = 0;
		for (uint32_t jn = 0; jn < c->joint_count; ++jn) {
			with_tracks += c->joints[jn].has_track != 0;
			const sinew_qvv *first = &c->transforms[jn];
			bool moves[3] = {false, false, false};
			for (uint32_t s = 1; s < c->sample_count; ++s) {
				const sinew_qvv *x = &c->transforms[(size_t)s * c->joint_count + jn];
				moves[0] |= memcmp(x->rotation, first->rotation, sizeof x->rotation) != 0;
				moves[1] |= memcmp(x->translation, first->translation, sizeof x->translation) != 0;
				moves[2] |= memcmp(x->scale, first->scale, sizeof x->scale) != 0;
			}
			for (int k = 0; k < 3; ++k) changing[k] += moves[k];
		}
		uint64_t raw = sinew_clip_raw_size(c);
		total += raw;
		double resample_cm = units_to_cm(c->resample_error, c->unit_scale);
		// joints with their own shell (--skin-shells): the range, in cm
		double shell_lo = INFINITY, shell_hi = 0;
		uint32_t own_shells = 0;
		for (uint32_t jn = 0; jn < c->joint_count; ++jn) {
			double d = c->joints[jn].shell_distance;
			if (!(d > 0)) continue;
			own_shells++;
			shell_lo = fmin(shell_lo, d), shell_hi = fmax(shell_hi, d);
		}
		if (o->json) {
			cli_json_key(&j, NULL), cli_json_begin(&j, '{');
			cli_json_string(&j, "name", c->name);
			cli_json_number(&j, "duration", sinew_clip_duration(c));
			cli_json_number(&j, "sample_rate", c->sample_rate);
			cli_json_uint(&j, "samples", c->sample_count);
			cli_json_uint(&j, "time_marks", c->time_mark_count);
			cli_json_uint(&j, "joints", c->joint_count);
			cli_json_uint(&j, "joints_with_tracks", with_tracks);
			cli_json_uint(&j, "rotation_subtracks_changing", changing[0]);
			cli_json_uint(&j, "translation_subtracks_changing", changing[1]);
			cli_json_uint(&j, "scale_subtracks_changing", changing[2]);
			cli_json_uint(&j, "scalar_tracks", c->scalar_track_count);
			cli_json_number(&j, "unit_scale", c->unit_scale);
			cli_json_uint(&j, "source_animation_bytes", c->source_bytes);
			cli_json_uint(&j, "raw_bytes", raw);
			cli_json_number(&j, "resample_error_cm", resample_cm);
			cli_json_number(&j, "float_error_cm", units_to_cm(c->float_error, c->unit_scale));
			cli_json_uint(&j, "check_points", c->check_count);
			cli_json_uint(&j, "joints_with_own_shell", own_shells);
			if (own_shells) {
				cli_json_number(&j, "own_shell_min_cm", units_to_cm(shell_lo, c->unit_scale));
				cli_json_number(&j, "own_shell_max_cm", units_to_cm(shell_hi, c->unit_scale));
			}
			cli_json_end(&j, '}');
		} else {
			printf("  clip %u '%s': %.3f s, %u samples @ %s%g Hz, %u joints (%u with tracks), changing sub-tracks: %u rotation, "
			       "%u translation, %u scale; %u scalar tracks; source %llu bytes of motion, raw %llu bytes",
			       i, c->name ? c->name : "", sinew_clip_duration(c), c->sample_count, c->time_mark_count ? "~" : "",
			       c->sample_rate, c->joint_count, with_tracks, changing[0], changing[1], changing[2], c->scalar_track_count,
			       (unsigned long long)c->source_bytes, (unsigned long long)raw);
			if (c->time_mark_count) printf("; %u time marks", c->time_mark_count);
			if (c->resample_error > 0) printf("; resampled, max %.4g cm", resample_cm);
			if (c->check_count) printf(", %u check points", c->check_count);
			if (own_shells)
				printf("; %u joints with own shells, %.3g-%.3g cm", own_shells, units_to_cm(shell_lo, c->unit_scale),
				       units_to_cm(shell_hi, c->unit_scale));
			printf("\n");
		}
	}
	if (o->json) cli_json_end(&j, ']'), cli_json_uint(&j, "source_animation_bytes", source_total), cli_json_uint(&j, "raw_bytes", total),
	    cli_json_end(&j, '}');
	else printf("total: source %llu bytes of motion, raw %llu bytes (samples x joints x 40 B)\n", (unsigned long long)source_total,
	            (unsigned long long)total);
	sinew_clip_set_free(set);
	return 0;
}

/* ---- convert ---- */

static bool export_set(const sinew_clip_set *set, const char *out, const char *source) {
	sinew_export_options eo = {-1, source};
	sinew_error err = {0};
	if (sinew_export_gltf(set, out, &eo, NULL, &err) != SINEW_RESULT_OK) {
		cli_error("%s", err.message);
		return false;
	}
	return true;
}

static bool is_gltf_path(const char *p) {
	size_t n = strlen(p);
	return (n > 5 && strcmp(p + n - 5, ".gltf") == 0) || (n > 4 && strcmp(p + n - 4, ".glb") == 0);
}

static bool is_acl_path(const char *p) {
	size_t n = strlen(p);
	return n > 10 && strcmp(p + n - 10, ".acl.sjson") == 0;
}

// One clip (--clip) as an ACL raw clip, for ACL's own tools.
static int convert_acl(const cli_options *o, const sinew_clip_set *set) {
	if (o->clip >= set->clip_count) return cli_error("clip %u not found (%u clips)", o->clip, set->clip_count), 1;
	const sinew_clip *c = set->clips[o->clip];
	sinew_error err = {0};
	if (sinew_export_acl(c, o->output, &err) != SINEW_RESULT_OK) return cli_error("%s", err.message), 1;
	if (!o->quiet && !o->json) {
		printf("sinew: %s clip %u -> %s (%u joints, %u samples, centimetres)\n", o->positional[0], o->clip, o->output,
		       c->joint_count, c->sample_count);
		if (c->scalar_track_count)
			printf("sinew: note: %u scalar track(s) not written (ACL raw clips hold transforms only)\n", c->scalar_track_count);
	}
	return 0;
}

static int cmd_convert(const cli_options *o) {
	if (!o->positional[0] || !o->output) return cli_error("convert needs IN and -o OUT.gltf|.glb|.acl.sjson"), 2;
	if (output_is_folder(o)) return 2;
	if (!is_gltf_path(o->output) && !is_acl_path(o->output))
		return cli_error("convert writes .gltf, .glb or .acl.sjson (got '%s')", o->output), 2;
	if (!output_ok(o)) return 2;
	sinew_clip_set *set = load(o->positional[0], o);
	if (!set) return 1;
	if (is_acl_path(o->output)) {
		int rc = convert_acl(o, set);
		sinew_clip_set_free(set);
		return rc;
	}
	const char *source = is_gltf_path(o->positional[0]) ? o->positional[0] : NULL;
	bool ok = export_set(set, o->output, source);
	if (ok && !o->quiet && !o->json) printf("sinew: %s -> %s (%u clip(s))\n", o->positional[0], o->output, set->clip_count);
	sinew_clip_set_free(set);
	return ok ? 0 : 1;
}

/* ---- compress ---- */

static bool measure(const cli_options *o, const sinew_clip *ref, const void *blob, size_t size, uint32_t index,
                    sinew_error_stats *st) {
	return measure_tiers(o, ref, blob, size, index, 0, st);
}

typedef struct clip_result {
	uint64_t raw, bytes, ns;
	sinew_error_stats st;
	double threshold;
	sinew_clip_info info;
	double tier_max_cm[SINEW_MAX_TIERS]; // measured through the decoder with tiers 0..k
	bool over;                           // over its bound (measured, or marked Over_bound by the encoder)
} clip_result;

// Quality tiers of a compressed clip: bound, bytes of its pages, and the largest error measured
// against the source with tiers 0..k.
static void print_tiers_json(cli_json *j, const clip_result *r) {
	if (r->info.tier_count < 2) return;
	cli_json_key(j, "tiers"), cli_json_begin(j, '[');
	for (uint32_t k = 0; k < r->info.tier_count; ++k) {
		cli_json_key(j, NULL), cli_json_begin(j, '{');
		cli_json_uint(j, "tier", k);
		cli_json_number(j, "bound_cm", r->info.tier_bound_cm[k]);
		cli_json_uint(j, "bytes", r->info.tier_bytes[k]);
		cli_json_number(j, "max_error_cm", r->tier_max_cm[k]);
		cli_json_end(j, '}');
	}
	cli_json_end(j, ']');
}

static void print_clip_json(cli_json *j, const sinew_clip *c, const clip_result *r) {
	cli_json_key(j, NULL), cli_json_begin(j, '{');
	cli_json_string(j, "name", c->name);
	cli_json_uint(j, "joints", c->joint_count);
	cli_json_uint(j, "samples", c->sample_count);
	cli_json_number(j, "sample_rate", c->sample_rate);
	cli_json_uint(j, "scalar_tracks", c->scalar_track_count);
	cli_json_uint(j, "source_animation_bytes", c->source_bytes);
	cli_json_uint(j, "raw_bytes", r->raw);
	cli_json_uint(j, "compressed_bytes", r->bytes);
	cli_json_number(j, "ratio", r->bytes ? (double)r->raw / (double)r->bytes : 0);
	cli_json_number(j, "max_error_cm", units_to_cm(r->st.max_error, c->unit_scale));
	cli_json_number(j, "p99_error_cm", units_to_cm(r->st.p99_error, c->unit_scale));
	cli_json_number(j, "max_error", r->st.max_error);
	cli_json_number(j, "p99_error", r->st.p99_error);
	cli_json_uint(j, "samples_over_threshold", r->st.samples_over_threshold);
	cli_json_bool(j, "over_bound", r->over);
	cli_json_uint(j, "time_marks", c->time_mark_count);
	cli_json_uint(j, "measured", r->st.measured);
	cli_json_uint(j, "worst_joint", r->st.worst_joint);
	cli_json_string(j, "worst_joint_name", r->st.worst_joint < c->joint_count ? c->joints[r->st.worst_joint].name : NULL);
	cli_json_number(j, "worst_time", r->st.worst_time);
	cli_json_number(j, "resample_error_cm", units_to_cm(c->resample_error, c->unit_scale));
	cli_json_number(j, "float_error_cm", units_to_cm(c->float_error, c->unit_scale));
	cli_json_uint(j, "check_points", c->check_count);
	cli_json_number(j, "max_scalar_error_ratio", r->st.max_scalar_error);
	cli_json_uint(j, "compress_ns", r->ns);
	print_tiers_json(j, r);
	cli_json_end(j, '}');
}

// "source 240 B -> blob 348 B (0.69:1; raw 1440 B)": the source's own animation bytes against the blob, the dense
// raw figure (sample count x joints x 40 B, ACL's convention) beside it; raw against the blob when the source's
// bytes are unknown.
static void size_line(char *out, size_t n, uint64_t source, uint64_t raw, uint64_t blob) {
	if (source)
		snprintf(out, n, "source %llu B -> blob %llu B (%.2f:1; raw %llu B)", (unsigned long long)source,
		         (unsigned long long)blob, blob ? (double)source / (double)blob : 0.0, (unsigned long long)raw);
	else
		snprintf(out, n, "raw %llu B -> blob %llu B (%.2f:1)", (unsigned long long)raw, (unsigned long long)blob,
		         blob ? (double)raw / (double)blob : 0.0);
}

static int cmd_compress(const cli_options *o) {
	if (cli_is_batch(o)) return cli_compress_batch(o);
	if (!o->positional[0] || !o->output) return cli_error("compress needs IN and -o OUT.sinew"), 2;
	if (output_is_folder(o)) return 2;
	static const char *const other[] = {".gltf", ".glb", ".bvh", ".amc", ".asf", ".sjson", ".json", ".fbx", ".dae"};
	for (size_t i = 0; i < sizeof other / sizeof other[0]; ++i)
		if (ends_with_ci(o->output, other[i]))
			return cli_error("compress writes a sinew blob, not %s: name it .sinew (pack writes glTF with its animations "
			                 "compressed)", other[i]),
			       2;
	if (!output_ok(o)) return 2;
	sinew_clip_set *set = load(o->positional[0], o);
	if (!set) return 1;
	sinew_compress_options co;
	cli_compress_options(o, &co);
	sinew_error err = {0};
	void *blob = NULL;
	size_t size = 0;
	// -j threads (default every core): the clips of a file, or a lone clip's segments, spread over them
	const unsigned threads = o->jobs > 0 ? o->jobs : cli_pool_default_threads();
	cli_pool *pool = threads > 1 ? cli_pool_create(threads) : NULL;
	sinew_jobs jobs;
	if (pool) jobs = cli_pool_jobs(pool), co.jobs = &jobs;
	uint64_t *clip_ns = (uint64_t *)calloc(set->clip_count, sizeof *clip_ns);
	co.now_ns = cli_clock_ns, co.clip_ns = clip_ns; // each clip's own time, measured by the library
	uint64_t t0 = cli_now_ns();
	sinew_result r = sinew_compress(set, &co, NULL, &blob, &size, &err);
	uint64_t total_ns = cli_now_ns() - t0;
	cli_pool_destroy(pool);
	if (r != SINEW_RESULT_OK) {
		cli_error("%s: %s%s", o->positional[0], err.message, cli_over_bound_hint(r, err.message));
		free(clip_ns);
		sinew_clip_set_free(set);
		return 1;
	}
	int code = 0;
	const uint64_t source_total = cli_source_bytes(o->positional[0], set);
	clip_result *res = (clip_result *)calloc(set->clip_count, sizeof *res);
	if (!res || !clip_ns) {
		cli_error("out of memory");
		code = 1;
	}
	uint64_t raw_total = 0, over_total = 0;
	double max_cm = 0, p99_cm = 0;
	for (uint32_t i = 0; code == 0 && i < set->clip_count; ++i) {
		const sinew_clip *c = set->clips[i];
		res[i].raw = sinew_clip_raw_size(c);
		raw_total += res[i].raw;
		sinew_clip_info info;
		sinew_blob_clip_info(blob, size, i, &info, NULL);
		res[i].bytes = (uint64_t)info.size + info.page_bytes;
		res[i].info = info;
		res[i].ns = set->clip_count == 1 ? total_ns : clip_ns[i];
		if (!measure(o, c, blob, size, i, &res[i].st)) code = 1;
		for (uint32_t k = 0; code == 0 && info.tier_count > 1 && k < info.tier_count; ++k) {
			sinew_error_stats ts;
			if (!measure_tiers(o, c, blob, size, i, k + 1, &ts)) code = 1;
			res[i].tier_max_cm[k] = units_to_cm(ts.max_error, c->unit_scale);
		}
		over_total += res[i].st.samples_over_threshold;
		// never silently over the bound: what the decoder plays is measured against the source, and a clip over
		// it fails the command unless --allow-over-bound (then the clip says so: info, --json)
		char over[320];
		if (code == 0 && cli_over_bound(c, &res[i].st, o->error_cm > 0 ? o->error_cm : SINEW_DEFAULT_ERROR_CM, over,
		                                sizeof over)) {
			res[i].over = true;
			if (!o->allow_over_bound) cli_error("%s: %s; nothing written (--allow-over-bound writes it anyway)", o->positional[0], over), code = 1;
		}
		res[i].over |= res[i].info.over_bound != 0;
		double m = units_to_cm(res[i].st.max_error, c->unit_scale), p = units_to_cm(res[i].st.p99_error, c->unit_scale);
		if (m > max_cm) max_cm = m;
		if (p > p99_cm) p99_cm = p;
	}
	if (code == 0 && !cli_write_file(o->output, blob, size)) code = 1;
	if (code == 0) {
		if (o->json) {
			cli_json j = {0, {true}};
			cli_json_begin(&j, '{');
			cli_json_string(&j, "input", o->positional[0]);
			cli_json_string(&j, "output", o->output);
			cli_json_uint(&j, "source_animation_bytes", source_total);
			cli_json_uint(&j, "raw_bytes", raw_total);
			cli_json_uint(&j, "compressed_bytes", size);
			cli_json_number(&j, "ratio", (double)raw_total / (double)size);
			cli_json_number(&j, "max_error_cm", max_cm);
			cli_json_number(&j, "p99_error_cm", p99_cm);
			cli_json_uint(&j, "samples_over_threshold", over_total);
			cli_json_uint(&j, "compress_ns", total_ns);
			if (cli_peak_memory_bytes()) cli_json_uint(&j, "peak_memory_bytes", cli_peak_memory_bytes()); // import, compress, measure
			cli_json_number(&j, "error_threshold_cm", o->error_cm > 0 ? o->error_cm : SINEW_DEFAULT_ERROR_CM);
			cli_json_number(&j, "shell_distance_cm", o->shell_cm > 0 ? o->shell_cm : SINEW_DEFAULT_SHELL_CM);
			cli_json_key(&j, "clips");
			cli_json_begin(&j, '[');
			for (uint32_t i = 0; i < set->clip_count; ++i) print_clip_json(&j, set->clips[i], &res[i]);
			cli_json_end(&j, ']');
			cli_json_end(&j, '}');
		} else if (!o->quiet) {
			printf("sinew: %s -> %s\n", o->positional[0], o->output);
			for (uint32_t i = 0; i < set->clip_count; ++i) {
				const sinew_clip *c = set->clips[i];
				char sizes[160];
				size_line(sizes, sizeof sizes, c->source_bytes, res[i].raw, res[i].bytes);
				printf("  '%s': %u joints, %u samples @ %s%g Hz: %s, max error %.5f cm, p99 %.5f cm, %llu over%s, %.2f ms\n",
				       c->name ? c->name : "", c->joint_count, c->sample_count, c->time_mark_count ? "~" : "", c->sample_rate,
				       sizes, units_to_cm(res[i].st.max_error, c->unit_scale), units_to_cm(res[i].st.p99_error, c->unit_scale),
				       (unsigned long long)res[i].st.samples_over_threshold, res[i].over ? ", OVER ITS BOUND" : "",
				       (double)res[i].ns / 1e6);
				sinew_size_breakdown parts;
				if (c->source_bytes && res[i].bytes > c->source_bytes &&
				    sinew_blob_sizes(blob, size, i, &parts, NULL) == SINEW_RESULT_OK && parts.metadata)
					printf("    larger than its source: %llu of its bytes are names, hierarchy and rest pose (--strip leaves them "
					       "out)\n",
					       (unsigned long long)parts.metadata);
				for (uint32_t k = 0; res[i].info.tier_count > 1 && k < res[i].info.tier_count; ++k)
					printf("    tier %u (bound %g cm): %u bytes of pages, max error %.5f cm with tiers 0..%u\n", k,
					       res[i].info.tier_bound_cm[k], res[i].info.tier_bytes[k], res[i].tier_max_cm[k], k);
			}
			char sizes[160];
			size_line(sizes, sizeof sizes, source_total, raw_total, size);
			printf("total: %s, max error %.5f cm (threshold %g cm, shell %g cm), %llu samples over, %.2f ms", sizes, max_cm,
			       o->error_cm > 0 ? o->error_cm : SINEW_DEFAULT_ERROR_CM, o->shell_cm > 0 ? o->shell_cm : SINEW_DEFAULT_SHELL_CM,
			       (unsigned long long)over_total, (double)total_ns / 1e6);
			if (cli_peak_memory_bytes()) printf(", peak memory %.1f MB", (double)cli_peak_memory_bytes() / 1e6);
			printf("\n");
		}
	}
	free(res);
	free(clip_ns);
	sinew_blob_free(blob, size, NULL);
	sinew_clip_set_free(set);
	return code;
}

/* ---- error ---- */

static int cmd_error(const cli_options *o) {
	if (!o->positional[0] || !o->positional[1]) return cli_error("error needs SOURCE and COMPRESSED"), 2;
	void *blob;
	size_t size;
	if (!load_blob(o->positional[1], &blob, &size)) return 1;
	// the source is read in the unit the blob was compressed in (make run's --unit-cm 5.644 CMU clip measured
	// 0.00547 cm without it instead of 0.01000 cm; a millimetre CSM 9.97 cm): --unit-cm, if given, must agree
	cli_options in_blob_units = *o;
	sinew_clip_info first;
	if (sinew_blob_clip_info(blob, size, 0, &first, NULL) == SINEW_RESULT_OK && first.unit_scale > 0) {
		const double blob_cm = 100.0 / first.unit_scale;
		if (!(o->unit_cm > 0)) in_blob_units.unit_cm = blob_cm;
		else if (fabs(o->unit_cm - blob_cm) > 1e-9 * blob_cm) {
			cli_error("--unit-cm %g: %s was compressed with a source unit of %.7g cm; leave --unit-cm out to measure in it",
			          o->unit_cm, o->positional[1], blob_cm);
			free(blob);
			return 2;
		}
	}
	sinew_clip_set *set = load(o->positional[0], &in_blob_units);
	if (!set) return free(blob), 1;
	int code = 0;
	uint32_t blob_clips = sinew_blob_clip_count(blob, size);
	if (blob_clips != set->clip_count) {
		cli_error("%s has %u clips, %s has %u", o->positional[0], set->clip_count, o->positional[1], blob_clips);
		code = 1;
	}
	cli_json j = {0, {true}};
	if (code == 0 && o->json) cli_json_begin(&j, '{'), cli_json_key(&j, "clips"), cli_json_begin(&j, '[');
	uint64_t over = 0;
	double worst = 0;
	for (uint32_t i = 0; code == 0 && i < set->clip_count; ++i) {
		sinew_error_stats st;
		// with --tier K and no --error-cm, samples count as over tier K's own bound
		cli_options ot = *o;
		sinew_clip_info ci;
		if (o->has_tier && !(o->error_cm > 0) && sinew_blob_clip_info(blob, size, i, &ci, NULL) == SINEW_RESULT_OK &&
		    o->tier < ci.tier_count && ci.tier_count > 1)
			ot.error_cm = ci.tier_bound_cm[o->tier];
		if (!measure_tiers(&ot, set->clips[i], blob, size, i, o->has_tier ? o->tier + 1 : 0, &st)) {
			code = 1;
			break;
		}
		const sinew_clip *c = set->clips[i];
		const char *worst_name = st.worst_joint < c->joint_count ? c->joints[st.worst_joint].name : NULL;
		over += st.samples_over_threshold;
		double m = units_to_cm(st.max_error, c->unit_scale);
		if (m > worst) worst = m;
		if (o->json) {
			cli_json_key(&j, NULL), cli_json_begin(&j, '{');
			cli_json_string(&j, "name", c->name);
			cli_json_number(&j, "max_error_cm", m);
			cli_json_number(&j, "p99_error_cm", units_to_cm(st.p99_error, c->unit_scale));
			cli_json_number(&j, "max_error", st.max_error);
			cli_json_uint(&j, "samples_over_threshold", st.samples_over_threshold);
			cli_json_uint(&j, "worst_joint", st.worst_joint);
			cli_json_string(&j, "worst_joint_name", worst_name);
			cli_json_uint(&j, "worst_sample", st.worst_sample);
			cli_json_number(&j, "worst_time", st.worst_time);
			cli_json_uint(&j, "measured", st.measured);
			cli_json_number(&j, "max_scalar_error_ratio", st.max_scalar_error);
			cli_json_end(&j, '}');
		} else {
			printf("  '%s': max %.5f cm at '%s' (joint %u), t = %.6g s, p99 %.5f cm, %llu of %llu over threshold\n",
			       c->name ? c->name : "", m, worst_name ? worst_name : "", st.worst_joint, st.worst_time,
			       units_to_cm(st.p99_error, c->unit_scale), (unsigned long long)st.samples_over_threshold,
			       (unsigned long long)st.measured);
		}
	}
	if (code == 0) {
		if (o->json) cli_json_end(&j, ']'), cli_json_number(&j, "max_error_cm", worst),
		    cli_json_uint(&j, "samples_over_threshold", over), cli_json_end(&j, '}');
		else printf("max error %.5f cm, %llu samples over threshold\n", worst, (unsigned long long)over);
	}
	sinew_clip_set_free(set);
	free(blob);
	return code;
}

/* ---- decompress, sample, validate ---- */

// Without --source, morph weights and other scalar tracks have no mesh to go onto: a clip of only those
// cannot be written, a clip with joints too loses them (a warning says so).
static bool scalars_have_a_home(const cli_options *o, const sinew_clip_set *set) {
	for (uint32_t i = 0; i < set->clip_count; ++i) {
		const sinew_clip *c = set->clips[i];
		if (!c->scalar_track_count) continue;
		bool joints = false;
		for (uint32_t j = 0; j < c->joint_count; ++j) joints |= c->joints[j].has_track != 0;
		bool sourced = false; // ACL track lists: scalar tracks without a glTF target
		for (uint32_t t = 0; t < c->scalar_track_count; ++t) sourced |= c->scalar_tracks[t].source_node != -1;
		if (!joints && !sourced) {
			cli_error("%s: clip %u '%s' has nothing glTF can animate: its %u scalar tracks have no glTF target (an ACL "
			          "track list); `sinew sample` prints their values",
			          o->positional[0], i, c->name ? c->name : "", c->scalar_track_count);
			return false;
		}
		if (!joints) {
			cli_error("%s: clip %u '%s' animates only morph weights or other values (%u scalar tracks), which glTF keeps "
			          "on the source's meshes: pass --source FILE.glb (the glTF it was compressed from)",
			          o->positional[0], i, c->name ? c->name : "", c->scalar_track_count);
			return false;
		}
		if (!o->quiet && !o->json)
			fprintf(stderr, "sinew: warning: clip %u '%s': %u scalar tracks (morph weights, ...) left out; --source FILE.glb "
			                "keeps them\n", i, c->name ? c->name : "", c->scalar_track_count);
	}
	return true;
}

static int cmd_decompress(const cli_options *o) {
	if (!o->positional[0] || !o->output) return cli_error("decompress needs IN.sinew and -o OUT.gltf|.glb"), 2;
	if (output_is_folder(o) || !gltf_output_ok("decompress", o) || !output_ok(o)) return 2;
	void *blob;
	size_t size;
	if (!load_blob(o->positional[0], &blob, &size)) return 1;
	sinew_clip_set *dec = NULL;
	sinew_error err = {0};
	int code = 0;
	if (sinew_decompress_clips_tiers(blob, size, o->has_tier ? o->tier + 1 : 0, NULL, &dec, &err) != SINEW_RESULT_OK) {
		cli_error("%s", err.message);
		code = 1;
	} else if (!o->source && !scalars_have_a_home(o, dec)) {
		code = 1;
	} else if (!export_set(dec, o->output, o->source)) {
		code = 1;
	} else if (!o->quiet && !o->json) {
		printf("sinew: %s -> %s (%u clip(s))\n", o->positional[0], o->output, dec->clip_count);
	}
	sinew_clip_set_free(dec);
	free(blob);
	return code;
}

static sinew_context *open_context(const cli_options *o, const void *blob, size_t size, void **mem) {
	sinew_context_options co = {.kernel = o->scalar_kernel ? SINEW_KERNEL_SCALAR : SINEW_KERNEL_AUTO,
	                            .tiers = o->has_tier ? o->tier + 1 : 0};
	size_t need = sinew_context_size_with(blob, size, o->clip, &co);
	if (!need) return cli_error("clip %u not found", o->clip), NULL;
	*mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
	sinew_context *ctx = NULL;
	sinew_error err = {0};
	if (!*mem || sinew_context_init(*mem, need, blob, size, o->clip, &co, &ctx, &err) != SINEW_RESULT_OK) {
		cli_error("%s", err.message);
		free(*mem);
		return NULL;
	}
	return ctx;
}

static int cmd_sample(const cli_options *o) {
	if (!o->positional[0] || !o->has_time) return cli_error("sample needs IN.sinew and --time T"), 2;
	void *blob, *mem = NULL;
	size_t size;
	if (!load_blob(o->positional[0], &blob, &size)) return 1;
	sinew_clip_info info;
	sinew_context *ctx = open_context(o, blob, size, &mem);
	if (!ctx || sinew_blob_clip_info(blob, size, o->clip, &info, NULL) != SINEW_RESULT_OK) return free(blob), 1;
	sinew_qvv *pose = (sinew_qvv *)calloc(info.joint_count + 1, sizeof *pose);
	float *scalars = (float *)calloc((size_t)info.scalar_track_count * 4 + 1, sizeof(float));
	sinew_sample_pose(ctx, o->time, pose, NULL, scalars);
	cli_json j = {0, {true}};
	if (o->json) cli_json_begin(&j, '{'), cli_json_number(&j, "time", o->time), cli_json_key(&j, "joints"), cli_json_begin(&j, '[');
	for (uint32_t i = 0; i < info.joint_count; ++i) {
		const sinew_qvv *x = &pose[i];
		if (o->json) {
			cli_json_key(&j, NULL), cli_json_begin(&j, '{');
			const char *names[3] = {"rotation", "translation", "scale"};
			const float *v[3] = {x->rotation, x->translation, x->scale};
			for (int k = 0; k < 3; ++k) {
				cli_json_key(&j, names[k]), cli_json_begin(&j, '[');
				for (int c = 0; c < (k == 0 ? 4 : 3); ++c) cli_json_number(&j, NULL, v[k][c]);
				cli_json_end(&j, ']');
			}
			cli_json_end(&j, '}');
		} else {
			printf("joint %u: rotation %.7g %.7g %.7g %.7g  translation %.7g %.7g %.7g  scale %.7g %.7g %.7g\n", i,
			       x->rotation[0], x->rotation[1], x->rotation[2], x->rotation[3], x->translation[0], x->translation[1],
			       x->translation[2], x->scale[0], x->scale[1], x->scale[2]);
		}
	}
	if (o->json) cli_json_end(&j, ']');
	// scalar tracks (morph weights, pointers, ACL track lists): names and widths from the decompressed clip
	sinew_clip_set *set = NULL;
	if (info.scalar_track_count && sinew_decompress_clips(blob, size, NULL, &set, NULL) == SINEW_RESULT_OK &&
	    o->clip < set->clip_count) {
		const sinew_clip *c = set->clips[o->clip];
		if (o->json) cli_json_key(&j, "scalars"), cli_json_begin(&j, '[');
		const float *v = scalars;
		for (uint32_t t = 0; t < c->scalar_track_count && t < info.scalar_track_count; ++t) {
			const sinew_scalar_track *st = &c->scalar_tracks[t];
			if (o->json) {
				cli_json_key(&j, NULL), cli_json_begin(&j, '{'), cli_json_string(&j, "name", st->name ? st->name : "");
				cli_json_key(&j, "value"), cli_json_begin(&j, '[');
				for (uint32_t k = 0; k < st->components; ++k) cli_json_number(&j, NULL, v[k]);
				cli_json_end(&j, ']'), cli_json_end(&j, '}');
			} else {
				printf("scalar %u '%s':", t, st->name ? st->name : "");
				for (uint32_t k = 0; k < st->components; ++k) printf(" %.7g", v[k]);
				printf("\n");
			}
			v += st->components;
		}
		if (o->json) cli_json_end(&j, ']');
	}
	sinew_clip_set_free(set);
	if (o->json) cli_json_end(&j, '}');
	free(pose);
	free(scalars);
	free(mem);
	free(blob);
	return 0;
}

static int cmd_validate(const cli_options *o) {
	if (!o->positional[0]) return cli_error("validate needs IN.sinew"), 2;
	void *blob;
	size_t size;
	if (!load_blob(o->positional[0], &blob, &size)) return 1;
	if (!o->quiet) printf("%s: ok (%u clip(s), %zu bytes)\n", o->positional[0], sinew_blob_clip_count(blob, size), size);
	free(blob);
	return 0;
}

/* ---- pack, unpack: compressed animation inside a glTF ---- */

static void print_pack_sizes(const cli_options *o, const char *in, const char *out, bool pack) {
	sinew_gltf_sizes a, b;
	sinew_error err = {0};
	if (sinew_gltf_sizes_of(in, NULL, &a, &err) != SINEW_RESULT_OK || sinew_gltf_sizes_of(out, NULL, &b, &err) != SINEW_RESULT_OK) {
		cli_error("%s", err.message);
		return;
	}
	uint64_t before = pack ? a.keyframe_bytes : a.compressed_bytes, after = pack ? b.compressed_bytes : b.keyframe_bytes;
	if (o->json) {
		cli_json j = {0, {true}};
		cli_json_begin(&j, '{');
		cli_json_string(&j, "input", in);
		cli_json_string(&j, "output", out);
		cli_json_uint(&j, "input_bytes", a.file_bytes);
		cli_json_uint(&j, "output_bytes", b.file_bytes);
		cli_json_uint(&j, "animation_bytes_before", before);
		cli_json_uint(&j, "animation_bytes_after", after);
		cli_json_end(&j, '}');
	} else if (!o->quiet) {
		printf("sinew: %s -> %s: file %llu -> %llu bytes, animation data %llu -> %llu bytes (%s)\n", in, out,
		       (unsigned long long)a.file_bytes, (unsigned long long)b.file_bytes, (unsigned long long)before,
		       (unsigned long long)after, pack ? "keyframes -> blob" : "blob -> keyframes");
	}
}

static int cmd_pack(const cli_options *o) {
	if (!o->positional[0] || !o->output) return cli_error("pack needs IN.gltf|glb and -o OUT.glb|gltf"), 2;
	if (output_is_folder(o)) return 2;
	if (!is_gltf_path(o->output)) return cli_error("pack writes .gltf or .glb (got '%s')", o->output), 2;
	if (!output_ok(o)) return 2;
	sinew_compress_options co;
	cli_compress_options(o, &co);
	co.strip_metadata = 0, co.page_bytes = 0, co.tier_count = 0; // pack: whole blobs with metadata
	sinew_error err = {0};
	const unsigned threads = o->jobs > 0 ? o->jobs : cli_pool_default_threads();
	cli_pool *pool = threads > 1 ? cli_pool_create(threads) : NULL;
	sinew_jobs jobs;
	if (pool) jobs = cli_pool_jobs(pool), co.jobs = &jobs;
	sinew_result r = sinew_pack_gltf(o->positional[0], o->output, &co, NULL, &err);
	cli_pool_destroy(pool);
	if (r != SINEW_RESULT_OK) return cli_error("%s%s", err.message, cli_over_bound_hint(r, err.message)), 1;
	print_pack_sizes(o, o->positional[0], o->output, true);
	return 0;
}

static int cmd_unpack(const cli_options *o) {
	if (!o->positional[0] || !o->output) return cli_error("unpack needs IN.glb|gltf and -o OUT.glb|gltf"), 2;
	if (output_is_folder(o)) return 2;
	if (!is_gltf_path(o->output)) return cli_error("unpack writes .gltf or .glb (got '%s')", o->output), 2;
	if (!output_ok(o)) return 2;
	sinew_error err = {0};
	if (sinew_unpack_gltf(o->positional[0], o->output, NULL, &err) != SINEW_RESULT_OK) return cli_error("%s", err.message), 1;
	print_pack_sizes(o, o->positional[0], o->output, false);
	return 0;
}

int cli_bench(const cli_options *o);

int main(int argc, char **argv) {
	if (sinew_version_number() != SINEW_VERSION_NUMBER) {
		cli_error("incorrect library version (header %s, library %s)", SINEW_VERSION_STRING, sinew_version());
		return 2;
	}
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		cli_print_help(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("sinew %s (format versions read %d..%d, written %d)\n", sinew_version(), SINEW_FORMAT_VERSION_FIRST,
		       SINEW_FORMAT_VERSION, SINEW_FORMAT_VERSION);
		const char *assimp = sinew_import_assimp_version();
		if (assimp) printf("importers: glTF, BVH, ASF/AMC, ACL; FBX, COLLADA, ... through assimp %s (trusted input only)\n", assimp);
		else printf("importers: glTF, BVH, ASF/AMC, ACL (built without assimp: no FBX/COLLADA)\n");
		return 0;
	}
	cli_options o;
	memset(&o, 0, sizeof o);
	if (!cli_parse(argc, argv, 2, &o)) return 2;
	const char *cmd = argv[1];
	if (strcmp(cmd, "info") == 0) return cmd_info(&o);
	if (strcmp(cmd, "convert") == 0) return cmd_convert(&o);
	if (strcmp(cmd, "compress") == 0) return cmd_compress(&o);
	if (strcmp(cmd, "error") == 0) return cmd_error(&o);
	if (strcmp(cmd, "decompress") == 0) return cmd_decompress(&o);
	if (strcmp(cmd, "sample") == 0) return cmd_sample(&o);
	if (strcmp(cmd, "validate") == 0) return cmd_validate(&o);
	if (strcmp(cmd, "bench") == 0) return cli_bench(&o);
	if (strcmp(cmd, "pack") == 0) return cmd_pack(&o);
	if (strcmp(cmd, "unpack") == 0) return cmd_unpack(&o);
	cli_error("unknown command '%s' (see sinew --help)", cmd);
	return 2;
}
