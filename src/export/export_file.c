// sinew — see include/sinew.h for version and licence
// Output files of the export stage: written to "<path>.tmp.<pid>" and renamed over `path` once
// complete, so a failure never leaves a partial output (nor the temporary).
#include "export_internal.h"

#include "../import/import_internal.h"

#include <errno.h>
#include <string.h>
#ifdef _WIN32
#include <process.h>
#define export_getpid _getpid
#else
#include <unistd.h>
#define export_getpid getpid
#endif

sinew_result sinewi_export_open(const char *path, sinewi_export_file *out, sinew_error *error) {
	SINEWI_CHECK(!sinewi_is_directory(path), error, SINEW_RESULT_INVALID_ARGUMENT,
	             "export: %s is a directory; the output needs a file name", path);
	int n = snprintf(out->tmp, sizeof out->tmp, "%s.tmp.%ld", path, (long)export_getpid());
	SINEWI_CHECK(n > 0 && (size_t)n < sizeof out->tmp, error, SINEW_RESULT_INVALID_ARGUMENT, "export: path too long");
	out->path = path;
	out->f = fopen(out->tmp, "wb");
	SINEWI_CHECK(out->f, error, SINEW_RESULT_IO, "export: cannot create %s: %s", out->tmp, strerror(errno));
	return SINEW_RESULT_OK;
}

sinew_result sinewi_export_close(sinewi_export_file *file, bool ok, sinew_error *error) {
	int saved = errno;
	if (fclose(file->f) != 0 && ok) ok = false, saved = errno;
	file->f = NULL;
	if (!ok) {
		remove(file->tmp);
		return sinewi_fail(error, SINEW_RESULT_IO, "export: cannot write %s: %s", file->tmp, strerror(saved));
	}
#ifdef _WIN32
	remove(file->path); // rename does not replace an existing file there
#endif
	if (rename(file->tmp, file->path) != 0) {
		saved = errno;
		remove(file->tmp);
		return sinewi_fail(error, SINEW_RESULT_IO, "export: cannot rename %s to %s: %s", file->tmp, file->path,
		                   strerror(saved));
	}
	return SINEW_RESULT_OK;
}
