// sinew — see include/sinew.h for version and licence
// <stdio.h> of the wasm compressor (web/compress/libc.c): formatting as glibc prints (%d %u %x %s %c %f %e %g
// with flags, width, precision and length modifiers; floating point converted exactly and rounded half to
// even) and FILE streams over an in-memory file table (web/compress/vfs): no imports.
#ifndef SINEW_WC_STDIO_H
#define SINEW_WC_STDIO_H

#include <stdarg.h>
#include <stddef.h>

typedef struct sinew_wc_file FILE;
extern FILE *const stdin, *const stdout, *const stderr;
#define stdin stdin
#define stdout stdout
#define stderr stderr
#define EOF (-1)
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define BUFSIZ 4096

int vsnprintf(char *restrict buf, size_t size, const char *restrict fmt, va_list args);
int snprintf(char *restrict buf, size_t size, const char *restrict fmt, ...) __attribute__((format(printf, 3, 4)));
int vfprintf(FILE *restrict f, const char *restrict fmt, va_list args);
int fprintf(FILE *restrict f, const char *restrict fmt, ...) __attribute__((format(printf, 2, 3)));
int printf(const char *restrict fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *restrict fmt, va_list args);
int fputc(int c, FILE *f);
int putc(int c, FILE *f);
int putchar(int c);
int fputs(const char *restrict s, FILE *restrict f);
int puts(const char *s);
FILE *fopen(const char *restrict path, const char *restrict mode);
int fclose(FILE *f);
size_t fread(void *restrict ptr, size_t size, size_t n, FILE *restrict f);
size_t fwrite(const void *restrict ptr, size_t size, size_t n, FILE *restrict f);
int fseek(FILE *f, long offset, int whence);
long ftell(FILE *f);
int fflush(FILE *f);
int ferror(FILE *f);
int feof(FILE *f);
int fileno(FILE *f);
int remove(const char *path);
int rename(const char *from, const char *to);
void perror(const char *s);

#endif
