// sinew — see include/sinew.h for version and licence
// Import entry points: pick a reader by extension or content, run it, validate every clip.
#include "import_internal.h"

#include <stdio.h>
#include <string.h>

#define MAX_FILE_SIZE ((size_t)1 << 30)

sinew_result sinewi_read_file(const char *path, const sinewi_alloc *al, unsigned char **out, size_t *out_size,
                              sinew_error *error) {
	*out = NULL;
	*out_size = 0;
	FILE *f = fopen(path, "rb");
	SINEWI_CHECK(f, error, SINEW_RESULT_IO, "%s: cannot open", path);
	long size = -1;
	if (fseek(f, 0, SEEK_END) == 0) size = ftell(f);
	if (size < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return sinewi_fail(error, SINEW_RESULT_IO, "%s: cannot determine size", path);
	}
	if ((unsigned long)size > MAX_FILE_SIZE) {
		fclose(f);
		return sinewi_fail(error, SINEW_RESULT_UNSUPPORTED, "%s: file larger than 1 GiB", path);
	}
	unsigned char *data = (unsigned char *)sinewi_malloc(al, (size_t)size + 1);
	if (!data) {
		fclose(f);
		return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory", path);
	}
	size_t got = fread(data, 1, (size_t)size, f);
	fclose(f);
	if (got != (size_t)size) {
		sinewi_free(al, data, (size_t)size + 1);
		return sinewi_fail(error, SINEW_RESULT_IO, "%s: read error", path);
	}
	data[size] = 0; // convenience for text readers; not counted in size
	*out = data;
	*out_size = (size_t)size;
	return SINEW_RESULT_OK;
}

bool sinewi_join_path(char *buffer, size_t size, const char *dir, const char *name) {
	int n = (dir && *dir) ? snprintf(buffer, size, "%s/%s", dir, name) : snprintf(buffer, size, "%s", name);
	return n >= 0 && (size_t)n < size;
}

void sinewi_import_warn(const sinewi_import_ctx *ctx, const char *fmt, ...) {
	if (!ctx->options->warning) return;
	char message[512];
	va_list args;
	va_start(args, fmt);
	vsnprintf(message, sizeof message, fmt, args);
	va_end(args);
	ctx->options->warning(ctx->options->warning_user, message);
}

static bool ends_with(const char *s, const char *suffix) {
	size_t n = strlen(s), m = strlen(suffix);
	if (m > n) return false;
	for (size_t i = 0; i < m; ++i) {
		char a = s[n - m + i], b = suffix[i];
		if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
		if (a != b) return false;
	}
	return true;
}

static sinew_file_kind kind_from_content(const unsigned char *data, size_t size) {
	if (size >= 4 && memcmp(data, "glTF", 4) == 0) return SINEW_FILE_GLTF;
	size_t i = 0;
	while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n')) ++i;
	if (size - i >= 9 && memcmp(data + i, "HIERARCHY", 9) == 0) return SINEW_FILE_BVH;
	if (i < size && data[i] == '{') return SINEW_FILE_GLTF;
	if (i < size && (data[i] == '#' || data[i] == ':')) return SINEW_FILE_AMC;
	if (size - i >= 2 && data[i] == '/' && data[i + 1] == '/') return SINEW_FILE_ACL;
	if (size - i >= 7 && memcmp(data + i, "version", 7) == 0) return SINEW_FILE_ACL;
	return SINEW_FILE_AUTO;
}

static sinew_file_kind kind_from_path(const char *path) {
	if (ends_with(path, ".gltf") || ends_with(path, ".glb")) return SINEW_FILE_GLTF;
	if (ends_with(path, ".bvh")) return SINEW_FILE_BVH;
	if (ends_with(path, ".amc")) return SINEW_FILE_AMC;
	if (ends_with(path, ".sjson")) return SINEW_FILE_ACL;
	static const char *assimp[] = {".fbx", ".dae", ".zae", ".x", ".3ds", ".b3d", ".ms3d", ".smd", ".md5mesh", ".md5anim",
	                               ".ase", ".lws", ".ogex", ".irr", ".x3d", ".blend"};
	for (size_t i = 0; i < sizeof assimp / sizeof assimp[0]; ++i)
		if (ends_with(path, assimp[i])) return SINEW_FILE_ASSIMP;
	return SINEW_FILE_AUTO;
}

static sinew_result run_reader(sinew_file_kind kind, const sinewi_import_ctx *ctx, const unsigned char *data, size_t size,
                               sinew_clip_set **out, sinew_error *error) {
	sinew_clip_set *set = NULL;
	SINEWI_CHECK(sinew_clip_set_create(&set, ctx->allocator) == SINEW_RESULT_OK, error, SINEW_RESULT_OUT_OF_MEMORY,
	             "out of memory");
	sinew_result r;
	switch (kind) {
	case SINEW_FILE_GLTF: r = sinewi_import_gltf(ctx, data, size, set, error); break;
	case SINEW_FILE_BVH: r = sinewi_import_bvh(ctx, data, size, set, error); break;
	case SINEW_FILE_AMC: r = sinewi_import_amc(ctx, data, size, set, error); break;
	case SINEW_FILE_ACL: r = sinewi_import_acl(ctx, data, size, set, error); break;
	case SINEW_FILE_ASSIMP: r = sinewi_import_assimp(ctx, data, size, set, error); break;
	default:
		r = sinewi_fail(error, SINEW_RESULT_UNSUPPORTED,
		                "%s: unknown file type (expected .gltf, .glb, .bvh, .amc, .acl.sjson, or .fbx, .dae, ... with assimp)",
		                ctx->path ? ctx->path : "input");
		break;
	}
	if (r == SINEW_RESULT_OK && set->clip_count == 0)
		r = sinewi_fail(error, SINEW_RESULT_BAD_COUNT, "%s: no animation found", ctx->path ? ctx->path : "input");
	for (uint32_t i = 0; r == SINEW_RESULT_OK && i < set->clip_count; ++i) {
		sinew_error inner = {0};
		r = sinew_clip_validate(set->clips[i], &inner);
		if (r != SINEW_RESULT_OK)
			sinewi_fail(error, r, "%s: clip %u: %s", ctx->path ? ctx->path : "input", i, inner.message);
	}
	if (r != SINEW_RESULT_OK) {
		sinew_clip_set_free(set);
		return r;
	}
	*out = set;
	return SINEW_RESULT_OK;
}

sinew_result sinew_import_memory(const void *data, size_t size, const sinew_import_options *options,
                                 const sinew_allocator *allocator, sinew_clip_set **out, sinew_error *error) {
	SINEWI_CHECK(out && (data || size == 0), error, SINEW_RESULT_INVALID_ARGUMENT, "import: NULL argument");
	*out = NULL;
	sinew_import_options defaults = {0};
	sinewi_import_ctx ctx = {options ? options : &defaults, allocator, NULL, options ? options->base_path : NULL};
	sinew_file_kind kind = ctx.options->kind != SINEW_FILE_AUTO ? ctx.options->kind : kind_from_content(data, size);
	return run_reader(kind, &ctx, (const unsigned char *)data, size, out, error);
}

sinew_result sinew_import_file(const char *path, const sinew_import_options *options, const sinew_allocator *allocator,
                               sinew_clip_set **out, sinew_error *error) {
	SINEWI_CHECK(path && out, error, SINEW_RESULT_INVALID_ARGUMENT, "import: NULL argument");
	*out = NULL;
	sinew_import_options defaults = {0};
	const sinew_import_options *opt = options ? options : &defaults;
	char dir[1024];
	const char *slash = strrchr(path, '/');
	if (slash) {
		size_t n = (size_t)(slash - path);
		SINEWI_CHECK(n < sizeof dir, error, SINEW_RESULT_INVALID_ARGUMENT, "%s: path too long", path);
		memcpy(dir, path, n);
		dir[n] = 0;
	} else {
		strcpy(dir, ".");
	}
	sinewi_alloc al = sinewi_alloc_from(allocator);
	unsigned char *data = NULL;
	size_t size = 0;
	SINEWI_TRY(sinewi_read_file(path, &al, &data, &size, error));
	sinewi_import_ctx ctx = {opt, allocator, path, dir};
	sinew_file_kind kind = opt->kind;
	if (kind == SINEW_FILE_AUTO) kind = kind_from_path(path);
	if (kind == SINEW_FILE_AUTO) kind = kind_from_content(data, size);
	sinew_result r = run_reader(kind, &ctx, data, size, out, error);
	sinewi_free(&al, data, size + 1);
	return r;
}

const char *sinew_import_assimp_version(void) {
	return sinewi_assimp_version();
}
