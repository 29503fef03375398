// sinew — see include/sinew.h for version and licence
// Import entry points: pick a reader by extension or content, run it, validate every clip.
#include "import_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MAX_FILE_SIZE ((size_t)1 << 30)

// The reason a file cannot be read, as a user reads it: a folder given where a file is needed says so.
static const char *open_failure(int code) {
#ifdef EISDIR
	if (code == EISDIR) return "is a directory, not a file";
#endif
	return code ? strerror(code) : "cannot open";
}

sinew_result sinewi_read_file(const char *path, const sinewi_alloc *al, unsigned char **out, size_t *out_size,
                              sinew_error *error) {
	*out = NULL;
	*out_size = 0;
	errno = 0;
	FILE *f = fopen(path, "rb");
	SINEWI_CHECK(f, error, SINEW_RESULT_IO, "%s: %s", path, open_failure(errno));
	// glibc opens a directory for reading (its size then looks like 2^63 bytes); the first read says EISDIR
	unsigned char first;
	errno = 0;
	if (fread(&first, 1, 1, f) == 0 && ferror(f)) {
		int code = errno;
		fclose(f);
		return sinewi_fail(error, SINEW_RESULT_IO, "%s: %s", path, open_failure(code));
	}
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

bool sinewi_is_directory(const char *path) {
	errno = 0;
	FILE *f = fopen(path, "rb");
	if (!f) {
#ifdef EISDIR
		return errno == EISDIR;
#else
		return false;
#endif
	}
	unsigned char first;
	errno = 0;
	bool dir = fread(&first, 1, 1, f) == 0 && ferror(f);
#ifdef EISDIR
	dir = dir && errno == EISDIR;
#endif
	fclose(f);
	return dir;
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

static bool starts_with(const unsigned char *data, size_t size, const char *text) {
	size_t n = strlen(text);
	return size >= n && memcmp(data, text, n) == 0;
}

// ASF/AMC are '#' comments then ':' keywords: 1 for an AMC's (":FULLY-SPECIFIED", ":DEGREES", ":RADIANS"),
// 2 for an ASF's (":version", ":root", ":bonedata", ...), 0 when the first 4 KB hold neither (a Markdown
// file also starts with '#').
static int asf_amc_keyword(const unsigned char *p, size_t n) {
	static const char *const amc[] = {":FULLY-SPECIFIED", ":DEGREES", ":RADIANS"};
	static const char *const asf[] = {":version", ":name", ":units", ":root", ":bonedata", ":hierarchy"};
	const size_t head = n < 4096 ? n : 4096;
	for (size_t i = 0; i < head;) {
		if (p[i] == ':') {
			for (size_t k = 0; k < sizeof amc / sizeof amc[0]; ++k)
				if (starts_with(p + i, head - i, amc[k])) return 1;
			for (size_t k = 0; k < sizeof asf / sizeof asf[0]; ++k)
				if (starts_with(p + i, head - i, asf[k])) return 2;
		}
		while (i < head && p[i] != '\n') ++i;
		++i;
	}
	return 0;
}

// An ACL clip: '//' comment lines and blank lines, then `version` (an Ogre .material also starts with '//').
static bool acl_version_first(const unsigned char *p, size_t n) {
	size_t i = 0;
	for (;;) {
		while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) ++i;
		if (n - i >= 2 && p[i] == '/' && p[i + 1] == '/') {
			while (i < n && p[i] != '\n') ++i;
			continue;
		}
		return n - i >= 7 && memcmp(p + i, "version", 7) == 0;
	}
}

const char *sinewi_describe_content(const unsigned char *data, size_t size, char *buffer, size_t buffer_size) {
	if (size == 0) return "an empty file";
	if (starts_with(data, size, "glTF")) return "a GLB (binary glTF)";
	if (starts_with(data, size, "SNEW")) return "a sinew blob (.sinew)";
	if (starts_with(data, size, "Kaydara FBX Binary")) return "an FBX file (binary)";
	if (starts_with(data, size, "xof ")) return "a DirectX .x file";
	if (starts_with(data, size, "BLENDER")) return "a Blender file";
	if (starts_with(data, size, "PK\3\4")) return "a ZIP archive";
	size_t i = starts_with(data, size, "\xEF\xBB\xBF") ? 3 : 0; // UTF-8 byte order mark
	while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n')) ++i;
	const unsigned char *p = data + i;
	size_t n = size - i;
	if (starts_with(p, n, "HIERARCHY")) return "a BVH motion capture file";
	if (starts_with(p, n, "; FBX")) return "an FBX file (ASCII)";
	if (starts_with(p, n, "<")) {
		const size_t head = n < 4096 ? n : 4096;
		for (size_t k = 0; k + 8 <= head; ++k)
			if (memcmp(p + k, "<COLLADA", 8) == 0) return "a COLLADA file (XML)";
		return "an XML file";
	}
	if (starts_with(p, n, "{")) return "a JSON document";
	if (starts_with(p, n, "#") || starts_with(p, n, ":")) {
		const int mocap = asf_amc_keyword(p, n);
		if (mocap == 1) return "an AMC motion file";
		if (mocap == 2) return "an ASF skeleton file";
	}
	if (acl_version_first(p, n)) return "an ACL clip (.acl.sjson)";
	bool text = n > 0;
	size_t show = 0; // the first line, up to 16 characters
	while (show < n && show < 16 && p[show] != '\r' && p[show] != '\n') ++show;
	for (size_t k = 0; k < (n < 64 ? n : 64); ++k) // (an OBJ starts "#\t")
		text &= (p[k] >= 0x20 && p[k] < 0x7f) || p[k] == '\t' || p[k] == '\r' || p[k] == '\n';
	if (text) {
		char line[17];
		for (size_t k = 0; k < show; ++k) line[k] = p[k] == '\t' ? ' ' : (char)p[k];
		line[show] = 0;
		snprintf(buffer, buffer_size, "text starting with \"%s\"", line);
		return buffer;
	}
	int at = snprintf(buffer, buffer_size, "binary data starting with bytes");
	for (size_t k = 0; k < (size < 4 ? size : 4) && at > 0 && (size_t)at < buffer_size; ++k)
		at += snprintf(buffer + at, buffer_size - (size_t)at, " %02x", data[k]);
	return buffer;
}

// Every extension assimp 5.2 reads (`assimp listext`) but glTF and BVH, which sinew reads itself, and a bare .xml
// (too common to mean Irrlicht or Ogre): a HL1 .mdl or a .csm was "unknown file type".
static const char *const assimp_extensions[] = {
    ".3d",    ".3ds",  ".3mf",   ".ac",   ".ac3d", ".acc",      ".amf",   ".ase",  ".ask",  ".assbin",  ".b3d", ".blend",
    ".bsp",   ".cob",  ".csm",   ".dae",  ".dxf",  ".enff",     ".fbx",   ".hmp",  ".ifc",  ".ifczip",  ".iqm", ".irr",
    ".irrmesh", ".lwo", ".lws",  ".lxo",  ".md2",  ".md3",      ".md5anim", ".md5camera", ".md5mesh", ".mdc", ".mdl",
    ".mesh",  ".mesh.xml", ".mot", ".ms3d", ".ndo", ".nff",     ".obj",   ".off",  ".ogex", ".pk3",     ".ply", ".pmx",
    ".prj",   ".q3o",  ".q3s",   ".raw",  ".scn",  ".sib",      ".smd",   ".step", ".stl",  ".stp",     ".ter", ".uc",
    ".vta",   ".x",    ".x3d",   ".x3db", ".xgl",  ".zae",      ".zgl"};

sinew_file_kind sinew_file_kind_from_path(const char *path) {
	if (!path) return SINEW_FILE_AUTO;
	if (ends_with(path, ".gltf") || ends_with(path, ".glb")) return SINEW_FILE_GLTF;
	if (ends_with(path, ".bvh")) return SINEW_FILE_BVH;
	if (ends_with(path, ".amc")) return SINEW_FILE_AMC;
	if (ends_with(path, ".sjson")) return SINEW_FILE_ACL;
	for (size_t i = 0; i < sizeof assimp_extensions / sizeof assimp_extensions[0]; ++i)
		if (ends_with(path, assimp_extensions[i])) return SINEW_FILE_ASSIMP;
	return SINEW_FILE_AUTO;
}

// The extension of path's file name (".3DS"), or NULL.
static const char *extension_of(const char *path) {
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path, *dot = strrchr(name, '.');
	return dot && dot > name && dot[1] ? dot : NULL;
}

sinew_result sinewi_expect_gltf(const char *path, const unsigned char *data, size_t size, sinew_error *error) {
	if (starts_with(data, size, "glTF")) return SINEW_RESULT_OK;
	size_t i = 0;
	while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n')) ++i;
	const bool json = i < size && (data[i] == '{' || data[i] == '['); // (the JSON reader names what is wrong)
	char what[80];
	const char *looks = sinewi_describe_content(data, size, what, sizeof what);
	const char *label = path ? path : "input";
	if (path && ends_with(path, ".glb") && !json)
		return sinewi_fail(error, SINEW_RESULT_PARSE,
		                   "%s: no GLB header: a .glb starts with the 12-byte header 'glTF', version 2, length; this is %s",
		                   label, looks);
	if (json) return SINEW_RESULT_OK;
	// an animation file sinew reads: say how it becomes glTF
	static const char *const readable[] = {"a BVH", "an FBX", "a DirectX", "a COLLADA", "an AMC", "an ASF", "an ACL", "a Blender"};
	bool convertible = false;
	for (size_t k = 0; k < sizeof readable / sizeof readable[0]; ++k)
		convertible |= strncmp(looks, readable[k], strlen(readable[k])) == 0;
	const char *ext = path ? extension_of(path) : NULL;
	if (!convertible && ext && sinew_file_kind_from_path(path) == SINEW_FILE_ASSIMP) // content without a signature we know
		return sinewi_fail(error, SINEW_RESULT_PARSE,
		                   "%s: glTF needed (a .gltf JSON document or a .glb), this is a %.16s file, which assimp reads (sinew "
		                   "convert FILE -o OUT.glb writes its animations as glTF)",
		                   label, ext);
	return sinewi_fail(error, SINEW_RESULT_PARSE, "%s: glTF needed (a .gltf JSON document or a .glb), this is %s%s", label,
	                   looks, convertible ? " (sinew convert FILE -o OUT.glb writes it as glTF)" : "");
}

static sinew_file_kind kind_from_content(const unsigned char *data, size_t size) {
	if (size >= 4 && memcmp(data, "glTF", 4) == 0) return SINEW_FILE_GLTF;
	size_t i = 0;
	while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n')) ++i;
	if (size - i >= 9 && memcmp(data + i, "HIERARCHY", 9) == 0) return SINEW_FILE_BVH;
	if (i < size && data[i] == '{') return SINEW_FILE_GLTF;
	if (i < size && (data[i] == '#' || data[i] == ':') && asf_amc_keyword(data + i, size - i) == 1) return SINEW_FILE_AMC;
	if (acl_version_first(data + i, size - i)) return SINEW_FILE_ACL;
	return SINEW_FILE_AUTO;
}

// Offset of the first line that starts (after blanks) with `word` followed by a blank, '=' or a line end; size if none.
static size_t line_starting(const unsigned char *data, size_t size, const char *word) {
	const size_t n = strlen(word);
	for (size_t i = 0; i < size;) {
		size_t k = i;
		while (k < size && (data[k] == ' ' || data[k] == '\t')) ++k;
		if (size - k > n && memcmp(data + k, word, n) == 0 &&
		    (data[k + n] == ' ' || data[k + n] == '\t' || data[k + n] == '=' || data[k + n] == '\r' || data[k + n] == '\n'))
			return k;
		while (i < size && data[i] != '\n') ++i;
		++i;
	}
	return size;
}

// The bytes a text mocap file spends on motion (sinew_clip.source_bytes): BVH's MOTION section, the whole .amc
// (its skeleton is the .asf), ACL's `tracks`; 0 for the readers that count their own (glTF, assimp).
static uint64_t motion_bytes(sinew_file_kind kind, const unsigned char *data, size_t size) {
	switch (kind) {
	case SINEW_FILE_BVH: return size - line_starting(data, size, "MOTION");
	case SINEW_FILE_AMC: return size;
	case SINEW_FILE_ACL: return size - line_starting(data, size, "tracks");
	default: return 0;
	}
}

static sinew_result run_reader(sinew_file_kind kind, const sinewi_import_ctx *ctx, const unsigned char *data, size_t size,
                               sinew_clip_set **out, sinew_error *error) {
	sinew_clip_set *set = NULL;
	SINEWI_CHECK(sinew_clip_set_create(&set, ctx->allocator) == SINEW_RESULT_OK, error, SINEW_RESULT_OUT_OF_MEMORY,
	             "out of memory");
	sinew_result r;
	switch (kind) {
	case SINEW_FILE_GLTF:
		r = sinewi_expect_gltf(ctx->path, data, size, error);
		if (r == SINEW_RESULT_OK) r = sinewi_import_gltf(ctx, data, size, set, error);
		break;
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
	if (set->clip_count == 1 && !set->clips[0]->source_bytes) set->clips[0]->source_bytes = motion_bytes(kind, data, size);
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
	if (kind == SINEW_FILE_AUTO) kind = sinew_file_kind_from_path(path);
	if (kind == SINEW_FILE_AUTO) kind = kind_from_content(data, size);
	sinew_result r = run_reader(kind, &ctx, data, size, out, error);
	sinewi_free(&al, data, size + 1);
	return r;
}

const char *sinew_import_assimp_version(void) {
	return sinewi_assimp_version();
}
