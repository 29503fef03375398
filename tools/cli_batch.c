// sinew — see include/sinew.h for version and licence
// `sinew compress IN... -o OUTDIR`: many files (and folders, walked in name order) compressed by -j N
// worker threads. Each file is imported, compressed, measured and written on its own, so the output is
// byte-identical whatever N is; a failure is reported for its file and the rest go on. Progress on
// stderr when it is a terminal; a summary table or one JSON object on stdout.
#define _POSIX_C_SOURCE 200809L // strdup, opendir, stat, isatty
#include "cli.h"

#include <dirent.h>
#include <errno.h>

#include "cli_pool.h"
#if CLI_THREADS
#include <pthread.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct batch_item {
	char *input, *output;
	// results
	bool ok;
	char message[400];
	uint32_t clips;
	uint64_t raw, bytes, ns, source;
	double max_cm;
	uint64_t input_bytes; // the file's size: the largest files are started first
} batch_item;

typedef struct batch {
	const cli_options *o;
	batch_item *items;
	size_t count, capacity;
	size_t *order;     // the items largest input first (the reports keep the inputs' order)
	size_t next, done; // guarded by lock
#if CLI_THREADS
	pthread_mutex_t lock;
#endif
	bool progress;
	size_t need_assimp; // animation files of assimp's formats a walk left out (built without it)
} batch;

static bool ends_with(const char *s, const char *suffix) { // any case
	size_t n = strlen(s), m = strlen(suffix);
	if (n < m) return false;
	for (size_t i = 0; i < m; ++i) {
		char a = s[n - m + i];
		if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
		if (a != suffix[i]) return false;
	}
	return true;
}

// The formats of assimp that carry node animation, walked when sinew has assimp (the others, .obj, .stl, ...,
// are models without motion: a folder of assets is not a list of failures).
static const char *const assimp_animation[] = {".fbx", ".dae", ".zae", ".x", ".3ds", ".ase", ".b3d", ".ms3d", ".smd", ".md5anim",
                                               ".lws", ".csm", ".mdl", ".ogex", ".irr"};

// Animation files the importers read (ASF skeletons are found by their AMC files), by extension in any case:
// 1; 2 for an animation format of assimp in a sinew built without it; 0 for other files.
static int animation_file(const char *name) {
	switch (sinew_file_kind_from_path(name)) {
	case SINEW_FILE_GLTF:
	case SINEW_FILE_BVH:
	case SINEW_FILE_AMC: return 1;
	case SINEW_FILE_ACL: return ends_with(name, ".acl.sjson");
	case SINEW_FILE_ASSIMP:
		for (size_t i = 0; i < sizeof assimp_animation / sizeof assimp_animation[0]; ++i)
			if (ends_with(name, assimp_animation[i])) return sinew_import_assimp_version() ? 1 : 2;
		return 0;
	default: return 0;
	}
}

static char *join(const char *a, const char *b) {
	size_t n = strlen(a) + strlen(b) + 2;
	char *s = (char *)malloc(n);
	if (s) snprintf(s, n, "%s%s%s", a, (*a && a[strlen(a) - 1] != '/') ? "/" : "", b);
	return s;
}

// OUTDIR/relative with the file's extension replaced by .sinew (.acl.sjson counts as one): walk.bvh and Walk.X
// give walk.sinew and Walk.sinew, as sinew_add_animations names them.
static char *output_path(const char *outdir, const char *relative) {
	char *path = join(outdir, relative);
	if (!path) return NULL;
	char *name = strrchr(path, '/');
	name = name ? name + 1 : path;
	char *dot = strrchr(name, '.');
	size_t n = strlen(path);
	static const char acl[] = ".acl.sjson";
	bool is_acl = n >= sizeof acl - 1;
	for (size_t i = 0; is_acl && i < sizeof acl - 1; ++i) is_acl = (path[n - (sizeof acl - 1) + i] | 0x20) == acl[i];
	if (is_acl && path + n - (sizeof acl - 1) > name) path[n - (sizeof acl - 1)] = 0;
	else if (dot && dot > name) *dot = 0;
	size_t total = strlen(path) + 7;
	char *out = (char *)realloc(path, total);
	if (out) strcat(out, ".sinew");
	return out ? out : path;
}

static bool add_item(batch *b, const char *input, const char *relative) {
	if (b->count == b->capacity) {
		size_t cap = b->capacity ? 2 * b->capacity : 64;
		batch_item *items = (batch_item *)realloc(b->items, cap * sizeof *items);
		if (!items) return false;
		b->items = items, b->capacity = cap;
	}
	batch_item *it = &b->items[b->count];
	memset(it, 0, sizeof *it);
	it->input = strdup(input);
	it->output = output_path(b->o->output, relative);
	if (!it->input || !it->output) return false;
	struct stat st;
	it->input_bytes = stat(input, &st) == 0 ? (uint64_t)st.st_size : 0;
	b->count++;
	return true;
}

// Largest input first, then input order: with a file per thread, the long ones do not come last and
// leave the other threads idle (each file's blob is the same in any order).
typedef struct sized_item {
	uint64_t bytes;
	size_t index;
} sized_item;

static int compare_sizes(const void *a, const void *b) {
	const sized_item *x = (const sized_item *)a, *y = (const sized_item *)b;
	return x->bytes != y->bytes ? (x->bytes > y->bytes ? -1 : 1) : (x->index > y->index) - (x->index < y->index);
}

static int compare_names(const void *a, const void *b) {
	return strcmp(*(char *const *)a, *(char *const *)b);
}

// Adds every animation file under dir (relative paths from the walk's root), in name order.
static bool walk(batch *b, const char *dir, const char *relative, int depth) {
	DIR *d = opendir(dir);
	if (!d || depth > 32) {
		if (d) closedir(d);
		cli_error("cannot read folder %s", dir);
		return false;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.') continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			char **grown = (char **)realloc(names, cap * sizeof *names);
			if (!grown) break;
			names = grown;
		}
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, compare_names);
	bool ok = true;
	for (size_t i = 0; i < n; ++i) {
		char *full = join(dir, names[i]), *rel = join(relative, names[i]);
		struct stat st;
		if (full && rel && stat(full, &st) == 0) {
			if (S_ISDIR(st.st_mode)) ok = walk(b, full, rel, depth + 1) && ok;
			else if (animation_file(names[i]) == 1) ok = add_item(b, full, rel) && ok;
			else if (animation_file(names[i]) == 2) b->need_assimp++;
		}
		free(full), free(rel), free(names[i]);
	}
	free(names);
	return ok;
}

static bool make_parents(const char *path) {
	char *p = strdup(path);
	if (!p) return false;
	for (char *s = p + 1; *s; ++s) {
		if (*s != '/') continue;
		*s = 0;
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			free(p);
			return false;
		}
		*s = '/';
	}
	free(p);
	return true;
}

static void run_item(const cli_options *o, batch_item *it) {
	sinew_import_options io;
	cli_import_options(o, &io); // no warnings: worker threads would interleave them
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	uint64_t t0 = cli_now_ns();
	if (sinew_import_file(it->input, &io, NULL, &set, &err) != SINEW_RESULT_OK) {
		snprintf(it->message, sizeof it->message, "%s", err.message);
		return;
	}
	sinew_compress_options co;
	cli_compress_options(o, &co);
	void *blob = NULL;
	size_t size = 0;
	sinew_result r = sinew_compress(set, &co, NULL, &blob, &size, &err);
	if (r != SINEW_RESULT_OK) {
		snprintf(it->message, sizeof it->message, "%s%s", err.message, cli_over_bound_hint(r, err.message));
		sinew_clip_set_free(set);
		return;
	}
	it->ns = cli_now_ns() - t0;
	it->clips = set->clip_count;
	it->source = cli_source_bytes(it->input, set);
	it->bytes = size;
	it->ok = true;
	for (uint32_t i = 0; i < set->clip_count && it->ok; ++i) {
		const sinew_clip *c = set->clips[i];
		it->raw += sinew_clip_raw_size(c);
		double unit = c->unit_scale > 0 ? c->unit_scale : 1;
		sinew_metric_options mo = {.shell_distance = (o->shell_cm > 0 ? o->shell_cm : SINEW_DEFAULT_SHELL_CM) * 0.01 * unit,
		                           .threshold = (o->error_cm > 0 ? o->error_cm : SINEW_DEFAULT_ERROR_CM) * 0.01 * unit};
		sinew_error_stats st;
		char over[320];
		if (sinew_measure_blob_error(c, blob, size, i, &mo, NULL, &st, &err) != SINEW_RESULT_OK) {
			snprintf(it->message, sizeof it->message, "measure: %s", err.message);
			it->ok = false;
		} else if (!o->allow_over_bound && cli_over_bound(c, &st, o->error_cm > 0 ? o->error_cm : SINEW_DEFAULT_ERROR_CM, over,
		                                                   sizeof over)) { // never silently over the bound
			snprintf(it->message, sizeof it->message, "%s; nothing written (--allow-over-bound writes it anyway)", over);
			it->ok = false;
		} else if (st.max_error / unit * 100.0 > it->max_cm) {
			it->max_cm = st.max_error / unit * 100.0;
		}
	}
	if (it->ok && !(make_parents(it->output) && cli_write_file(it->output, blob, size))) {
		snprintf(it->message, sizeof it->message, "cannot write %s", it->output);
		it->ok = false;
	}
	sinew_blob_free(blob, size, NULL);
	sinew_clip_set_free(set);
}

static void batch_lock(batch *b) {
#if CLI_THREADS
	pthread_mutex_lock(&b->lock);
#else
	(void)b;
#endif
}

static void batch_unlock(batch *b) {
#if CLI_THREADS
	pthread_mutex_unlock(&b->lock);
#else
	(void)b;
#endif
}

static void *worker(void *arg) {
	batch *b = (batch *)arg;
	for (;;) {
		batch_lock(b);
		size_t i = b->next < b->count ? (b->order ? b->order[b->next] : b->next) : b->count;
		if (b->next < b->count) b->next++;
		batch_unlock(b);
		if (i >= b->count) return NULL;
		run_item(b->o, &b->items[i]);
		batch_lock(b);
		b->done++;
		if (b->progress) {
			int width = 30, filled = (int)(width * b->done / b->count);
			fprintf(stderr, "\r[%.*s%*s] %zu/%zu files", filled, "##############################", width - filled, "",
			        b->done, b->count);
			if (b->done == b->count) fputc('\n', stderr);
			fflush(stderr);
		}
		batch_unlock(b);
	}
}

static void report(const batch *b, size_t failed) {
	const cli_options *o = b->o;
	uint64_t raw = 0, bytes = 0, source = 0;
	double worst = 0;
	for (size_t i = 0; i < b->count; ++i)
		if (b->items[i].ok)
			raw += b->items[i].raw, bytes += b->items[i].bytes, source += b->items[i].source,
			    worst = worst > b->items[i].max_cm ? worst : b->items[i].max_cm;
	if (o->json) {
		cli_json j = {0, {true}};
		cli_json_begin(&j, '{');
		cli_json_string(&j, "output", o->output);
		cli_json_key(&j, "files"), cli_json_begin(&j, '[');
		for (size_t i = 0; i < b->count; ++i) {
			const batch_item *it = &b->items[i];
			cli_json_key(&j, NULL), cli_json_begin(&j, '{');
			cli_json_string(&j, "input", it->input);
			cli_json_string(&j, "output", it->ok ? it->output : NULL);
			cli_json_bool(&j, "ok", it->ok);
			if (!it->ok) cli_json_string(&j, "error", it->message);
			else {
				cli_json_uint(&j, "clips", it->clips);
				cli_json_uint(&j, "source_animation_bytes", it->source);
				cli_json_uint(&j, "raw_bytes", it->raw);
				cli_json_uint(&j, "compressed_bytes", it->bytes);
				cli_json_number(&j, "max_error_cm", it->max_cm);
				cli_json_uint(&j, "compress_ns", it->ns);
			}
			cli_json_end(&j, '}');
		}
		cli_json_end(&j, ']');
		cli_json_uint(&j, "files_ok", b->count - failed);
		cli_json_uint(&j, "files_failed", failed);
		cli_json_uint(&j, "source_animation_bytes", source);
		cli_json_uint(&j, "raw_bytes", raw);
		cli_json_uint(&j, "compressed_bytes", bytes);
		cli_json_number(&j, "max_error_cm", worst);
		cli_json_end(&j, '}');
		return;
	}
	if (o->quiet) return;
	// source: the file's own motion bytes; raw: samples x joints x 40 B; ratio: source to blob
	printf("%-48s %6s %12s %12s %10s %8s %10s\n", "file", "clips", "source B", "raw B", "blob B", "ratio", "max cm");
	for (size_t i = 0; i < b->count; ++i) {
		const batch_item *it = &b->items[i];
		const char *name = it->input;
		size_t n = strlen(name);
		if (n > 48) name += n - 48;
		if (it->ok)
			printf("%-48s %6u %12llu %12llu %10llu %7.2f:1 %10.5f\n", name, it->clips, (unsigned long long)it->source,
			       (unsigned long long)it->raw, (unsigned long long)it->bytes,
			       it->bytes ? (double)it->source / (double)it->bytes : 0.0, it->max_cm);
		else
			printf("%-48s FAILED: %s\n", name, it->message);
	}
	printf("total: %zu files (%zu failed), source %llu B -> blob %llu B (%.2f:1; raw %llu B), max error %.5f cm -> %s\n",
	       b->count, failed, (unsigned long long)source, (unsigned long long)bytes, bytes ? (double)source / (double)bytes : 0.0,
	       (unsigned long long)raw, worst, o->output);
}

bool cli_is_batch(const cli_options *o) {
	if (o->positional_count > 1) return true;
	struct stat st;
	return o->positional_count == 1 && stat(o->positional[0], &st) == 0 && S_ISDIR(st.st_mode);
}

int cli_compress_batch(const cli_options *o) {
	if (!o->output) return cli_error("compress of several files or folders needs -o OUTDIR"), 2;
	struct stat st;
	if (stat(o->output, &st) == 0 && !S_ISDIR(st.st_mode))
		return cli_error("-o %s: not a folder (several inputs are compressed into a folder)", o->output), 2;
	batch b;
	memset(&b, 0, sizeof b);
	b.o = o;
	bool ok = true;
	for (int i = 0; i < o->positional_count && ok; ++i) {
		const char *in = o->positional[i];
		if (stat(in, &st) != 0) {
			cli_error("%s: no such file or folder", in);
			ok = false;
		} else if (S_ISDIR(st.st_mode)) {
			ok = walk(&b, in, "", 0);
		} else {
			const char *base = strrchr(in, '/');
			ok = add_item(&b, in, base ? base + 1 : in);
		}
	}
	// two inputs writing the same output (a.glb and a.gltf, or the same name in two folders) would race
	for (size_t i = 0; ok && i < b.count; ++i)
		for (size_t k = i + 1; ok && k < b.count; ++k)
			if (strcmp(b.items[i].output, b.items[k].output) == 0) {
				cli_error("%s and %s would both write %s", b.items[i].input, b.items[k].input, b.items[i].output);
				ok = false;
			}
	int code = ok ? 0 : 2;
#if defined(__wasm__)
	static const char need[] = "are read by the native sinew built with assimp";
#else
	static const char need[] = "need assimp, and this sinew was built without it (apt-get install libassimp-dev, then rebuild)";
#endif
	if (ok && b.count == 0 && b.need_assimp)
		cli_error("no animation files sinew reads in the inputs: %zu FBX, COLLADA or other assimp files %s", b.need_assimp, need),
		    code = 2;
	else if (ok && b.need_assimp && !o->quiet && !o->json)
		fprintf(stderr, "sinew: warning: %zu FBX, COLLADA or other assimp files left out: they %s\n", b.need_assimp, need);
	else if (ok && b.count == 0)
		cli_error("no animation files (.gltf .glb .bvh .amc .acl.sjson%s) in the inputs",
		          sinew_import_assimp_version() ? "; with assimp .fbx .dae .x .3ds .ase .smd .mdl ..." : ""),
		    code = 2;
	if (code == 0) { // OUTDIR and its parents, as mkdir -p
		char *probe = join(o->output, "x");
		if (!probe || !make_parents(probe)) cli_error("cannot create %s", o->output), code = 1;
		free(probe);
	}
	if (code == 0) {
		b.order = (size_t *)malloc(b.count * sizeof *b.order);
		sized_item *sized = (sized_item *)malloc(b.count * sizeof *sized);
		for (size_t i = 0; sized && i < b.count; ++i) sized[i] = (sized_item){b.items[i].input_bytes, i};
		if (sized) qsort(sized, b.count, sizeof *sized, compare_sizes);
		for (size_t i = 0; b.order && i < b.count; ++i) b.order[i] = sized ? sized[i].index : i;
		free(sized); // (without memory for the order: input order)
		b.progress = !o->quiet && !o->json && isatty(2);
#if CLI_THREADS
		pthread_mutex_init(&b.lock, NULL);
		unsigned n = o->jobs > 0 ? o->jobs : cli_pool_default_threads();
		if (n > b.count) n = (unsigned)b.count;
		pthread_t *threads = (pthread_t *)calloc(n, sizeof *threads);
		bool *started = (bool *)calloc(n, sizeof *started);
		for (unsigned t = 1; threads && started && t < n; ++t) started[t] = pthread_create(&threads[t], NULL, worker, &b) == 0;
		worker(&b); // the main thread works too (and alone if no thread could start)
		for (unsigned t = 1; threads && started && t < n; ++t)
			if (started[t]) pthread_join(threads[t], NULL);
		free(threads), free(started);
		pthread_mutex_destroy(&b.lock);
#else
		worker(&b);
#endif
		size_t failed = 0;
		for (size_t i = 0; i < b.count; ++i)
			if (!b.items[i].ok) {
				failed++;
				if (o->json) continue;
				// "FILE: why" once (the importers' messages start with "FILE: " already: "a.fbx: a.fbx: no animations");
				// a message naming a line ("FILE:177: ...") keeps the prefix, so every line reads "FILE: why"
				const size_t len = strlen(b.items[i].input);
				if (strncmp(b.items[i].message, b.items[i].input, len) == 0 && b.items[i].message[len] == ':' &&
				    b.items[i].message[len + 1] == ' ')
					cli_error("%s", b.items[i].message);
				else cli_error("%s: %s", b.items[i].input, b.items[i].message);
			}
		report(&b, failed);
		code = failed ? 1 : 0;
	}
	for (size_t i = 0; i < b.count; ++i) free(b.items[i].input), free(b.items[i].output);
	free(b.items);
	free(b.order);
	return code;
}
