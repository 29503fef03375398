// sinew — see include/sinew.h for version and licence
// <stdlib.h> of the wasm compressor (web/compress/libc.c): a coalescing allocator that grows linear memory
// on demand, a correctly rounded strtod, a stable qsort (the order glibc's merge sort gives).
#ifndef SINEW_WC_STDLIB_H
#define SINEW_WC_STDLIB_H

#include <stddef.h>

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1

void *malloc(size_t size);
void *calloc(size_t count, size_t size);
void *realloc(void *ptr, size_t size);
void free(void *ptr);
void *aligned_alloc(size_t align, size_t size);
int posix_memalign(void **out, size_t align, size_t size);
double strtod(const char *restrict s, char **restrict end);
float strtof(const char *restrict s, char **restrict end);
long strtol(const char *restrict s, char **restrict end, int base);
unsigned long strtoul(const char *restrict s, char **restrict end, int base);
long long strtoll(const char *restrict s, char **restrict end, int base);
unsigned long long strtoull(const char *restrict s, char **restrict end, int base);
double atof(const char *s);
int atoi(const char *s);
long atol(const char *s);
int abs(int x);
long labs(long x);
long long llabs(long long x);
void qsort(void *base, size_t count, size_t size, int (*compare)(const void *, const void *));
void *bsearch(const void *key, const void *base, size_t count, size_t size, int (*compare)(const void *, const void *));
char *getenv(const char *name);
_Noreturn void abort(void);
_Noreturn void exit(int code);

#endif
