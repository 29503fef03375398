// sinew — see include/sinew.h for version and licence
// Freestanding <string.h> for the wasm build (web/wasm_libc.c). Constant-size copies become
// plain loads/stores through the builtins; the rest call the definitions in wasm_libc.c.
#ifndef SINEW_WEB_STRING_H
#define SINEW_WEB_STRING_H

#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
void *memchr(const void *s, int c, size_t n);

#ifndef SINEW_WEB_LIBC_IMPL // wasm_libc.c defines the functions themselves
#define memcpy(d, s, n) __builtin_memcpy(d, s, n)
#define memmove(d, s, n) __builtin_memmove(d, s, n)
#define memset(d, c, n) __builtin_memset(d, c, n)
#define memcmp(a, b, n) __builtin_memcmp(a, b, n)
#endif

#endif
