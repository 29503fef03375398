// sinew — see include/sinew.h for version and licence
// Freestanding <stdio.h> for the wasm build: formatting into buffers only (error messages).
// Supports %d %u %x %s %c %% with flags '0'/'-', a width, and the l, ll, z length modifiers.
#ifndef SINEW_WEB_STDIO_H
#define SINEW_WEB_STDIO_H

#include <stdarg.h>
#include <stddef.h>

int vsnprintf(char *restrict buf, size_t size, const char *restrict fmt, va_list args);
int snprintf(char *restrict buf, size_t size, const char *restrict fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
