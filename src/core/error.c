// sinew — see include/sinew.h for version and licence
#include "base.h"

#include <stdio.h>
#include <string.h>

const char *sinew_error_string(sinew_result result) {
	switch (result) {
#define SINEW_X_TEXT(name, value, text) case SINEW_RESULT_##name: return text;
	SINEW_RESULT_LIST(SINEW_X_TEXT)
#undef SINEW_X_TEXT
	default: return "unknown result";
	}
}

const char *sinew_result_name(sinew_result result) {
	switch (result) {
#define SINEW_X_NAME(name, value, text) case SINEW_RESULT_##name: return #name;
	SINEW_RESULT_LIST(SINEW_X_NAME)
#undef SINEW_X_NAME
	default: return "UNKNOWN";
	}
}

#ifdef SINEW_TERSE_ERRORS
sinew_result sinewi_fail_at(sinew_error *error, sinew_result code, const char *file, unsigned line) {
	if (!error) return code;
	error->code = code;
	const char *base = file;
	for (const char *p = file; *p; ++p)
		if (*p == '/') base = p + 1;
	char digits[12], *d = digits + sizeof digits;
	*--d = 0;
	do *--d = (char)('0' + line % 10), line /= 10;
	while (line);
	size_t n = 0;
	for (const char *p = base; *p && n + 1 < sizeof error->message; ++p) error->message[n++] = *p;
	if (n + 1 < sizeof error->message) error->message[n++] = ':';
	for (const char *p = d; *p && n + 1 < sizeof error->message; ++p) error->message[n++] = *p;
	error->message[n] = 0;
	return code;
}
#else
sinew_result sinewi_fail(sinew_error *error, sinew_result code, const char *fmt, ...) {
	if (error) {
		error->code = code;
		va_list args;
		va_start(args, fmt);
		int n = vsnprintf(error->message, sizeof error->message, fmt, args);
		va_end(args);
#ifndef __wasm__ // the wasm modules' freestanding vsnprintf never fails, and the table of texts is 1 KB there
		if (n < 0) snprintf(error->message, sizeof error->message, "%s", sinew_error_string(code));
#else
		(void)n;
#endif
	}
	return code;
}
#endif

unsigned sinew_version_number(void) {
	return SINEW_VERSION_NUMBER;
}

const char *sinew_version(void) {
	return SINEW_VERSION_STRING;
}
