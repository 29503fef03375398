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

unsigned sinew_version_number(void) {
	return SINEW_VERSION_NUMBER;
}

const char *sinew_version(void) {
	return SINEW_VERSION_STRING;
}
