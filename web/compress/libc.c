// sinew — see include/sinew.h for version and licence
// The rest of the wasm compressor's libc: strings, FILE streams over an in-memory file table (the host
// puts the input files in, runs the CLI, takes the outputs out), folders as name prefixes, the console
// (stdout/stderr kept for the host), a stable qsort, strtol & co., and the few POSIX calls the CLI makes.
// One thread: pthread_create runs the function at once. The clock is the module's only import.
#include <dirent.h>
#include <errno.h>
#include <locale.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "wc_internal.h"

int errno;

/* ---- strings ---- */

void *memcpy(void *restrict dst, const void *restrict src, size_t n) {
	unsigned char *d = (unsigned char *)dst;
	const unsigned char *s = (const unsigned char *)src;
	if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0) {
		for (; n >= 16; n -= 16, d += 16, s += 16) {
			uint32_t *dw = (uint32_t *)(void *)d;
			const uint32_t *sw = (const uint32_t *)(const void *)s;
			dw[0] = sw[0], dw[1] = sw[1], dw[2] = sw[2], dw[3] = sw[3];
		}
		for (; n >= 4; n -= 4, d += 4, s += 4) *(uint32_t *)(void *)d = *(const uint32_t *)(const void *)s;
	}
	while (n--) *d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
	unsigned char *d = (unsigned char *)dst;
	const unsigned char *s = (const unsigned char *)src;
	if (d == s || n == 0) return dst;
	if (d < s || d >= s + n) return memcpy(dst, src, n);
	while (n--) d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n) {
	unsigned char *d = (unsigned char *)dst;
	if (n >= 16 && ((uintptr_t)d & 3) == 0) {
		uint32_t v = (unsigned char)c * 0x01010101u;
		for (; n >= 4; n -= 4, d += 4) *(uint32_t *)(void *)d = v;
	}
	while (n--) *d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
	for (size_t i = 0; i < n; ++i)
		if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
	return 0;
}

void *memchr(const void *s, int c, size_t n) {
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n; ++i)
		if (p[i] == (unsigned char)c) return (void *)(uintptr_t)(p + i);
	return NULL;
}

size_t strlen(const char *s) {
	size_t n = 0;
	while (s[n]) ++n;
	return n;
}

size_t strnlen(const char *s, size_t max) {
	size_t n = 0;
	while (n < max && s[n]) ++n;
	return n;
}

int strcmp(const char *a, const char *b) {
	while (*a && *a == *b) ++a, ++b;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n) {
	for (; n; --n, ++a, ++b)
		if (*a != *b || !*a) return (unsigned char)*a - (unsigned char)*b;
	return 0;
}

char *strchr(const char *s, int c) {
	for (;; ++s) {
		if (*s == (char)c) return (char *)(uintptr_t)s;
		if (!*s) return NULL;
	}
}

char *strrchr(const char *s, int c) {
	const char *last = NULL;
	for (;; ++s) {
		if (*s == (char)c) last = s;
		if (!*s) return (char *)(uintptr_t)last;
	}
}

char *strstr(const char *h, const char *n) {
	size_t len = strlen(n);
	for (; *h; ++h)
		if (strncmp(h, n, len) == 0) return (char *)(uintptr_t)h;
	return len ? NULL : (char *)(uintptr_t)h;
}

char *strcpy(char *restrict d, const char *restrict s) {
	memcpy(d, s, strlen(s) + 1);
	return d;
}

char *strncpy(char *restrict d, const char *restrict s, size_t n) {
	size_t k = strnlen(s, n);
	memcpy(d, s, k);
	memset(d + k, 0, n - k);
	return d;
}

char *strcat(char *restrict d, const char *restrict s) {
	strcpy(d + strlen(d), s);
	return d;
}

size_t strspn(const char *s, const char *accept) {
	size_t n = 0;
	while (s[n] && strchr(accept, s[n])) ++n;
	return n;
}

size_t strcspn(const char *s, const char *reject) {
	size_t n = 0;
	while (s[n] && !strchr(reject, s[n])) ++n;
	return n;
}

char *strndup(const char *s, size_t n) {
	size_t k = strnlen(s, n);
	char *d = (char *)malloc(k + 1);
	if (d) memcpy(d, s, k), d[k] = 0;
	return d;
}

char *strdup(const char *s) {
	return strndup(s, strlen(s));
}

// The texts glibc gives for the codes this libc sets.
char *strerror(int code) {
	switch (code) {
	case 0: return (char *)"Success";
	case ENOENT: return (char *)"No such file or directory";
	case EIO: return (char *)"Input/output error";
	case EBADF: return (char *)"Bad file descriptor";
	case ENOMEM: return (char *)"Cannot allocate memory";
	case EACCES: return (char *)"Permission denied";
	case EEXIST: return (char *)"File exists";
	case ENOTDIR: return (char *)"Not a directory";
	case EISDIR: return (char *)"Is a directory";
	case EINVAL: return (char *)"Invalid argument";
	case ENOSPC: return (char *)"No space left on device";
	case ERANGE: return (char *)"Numerical result out of range";
	case ENOSYS: return (char *)"Function not implemented";
	default: return (char *)"Unknown error";
	}
}

/* ---- the file table ---- */

static sinew_wc_entry *entries;
static size_t entry_count, entry_capacity;

// "./a//b/./c" -> "a/b/c" (names are compared as normalized text; ".." is kept as it is)
static char *normalized(const char *name) {
	size_t n = strlen(name);
	char *out = (char *)malloc(n + 1);
	if (!out) return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		if (name[i] == '/') {
			++i;
			continue;
		}
		size_t j = i;
		while (j < n && name[j] != '/') ++j;
		if (!(j - i == 1 && name[i] == '.')) {
			if (k) out[k++] = '/';
			memcpy(out + k, name + i, j - i);
			k += j - i;
		}
		i = j;
	}
	out[k] = 0;
	return out;
}

sinew_wc_entry *sinew_wc_find(const char *name) {
	char *key = normalized(name);
	sinew_wc_entry *found = NULL;
	for (size_t i = 0; key && i < entry_count && !found; ++i)
		if (strcmp(entries[i].name, key) == 0) found = &entries[i];
	free(key);
	return found;
}

sinew_wc_entry *sinew_wc_put(const char *name, unsigned char *data, size_t size) {
	sinew_wc_entry *e = sinew_wc_find(name);
	if (e) {
		free(e->data);
		e->data = data, e->size = size, e->capacity = size;
		return e;
	}
	if (entry_count == entry_capacity) {
		size_t cap = entry_capacity ? 2 * entry_capacity : 16;
		sinew_wc_entry *grown = (sinew_wc_entry *)realloc(entries, cap * sizeof *grown);
		if (!grown) return NULL;
		entries = grown, entry_capacity = cap;
	}
	char *key = normalized(name);
	if (!key) return NULL;
	e = &entries[entry_count++];
	e->name = key, e->data = data, e->size = size, e->capacity = size;
	return e;
}

int sinew_wc_delete(const char *name) {
	sinew_wc_entry *e = sinew_wc_find(name);
	if (!e) return -1;
	free(e->name);
	free(e->data);
	*e = entries[--entry_count];
	return 0;
}

size_t sinew_wc_entry_count(void) {
	return entry_count;
}

sinew_wc_entry *sinew_wc_entry_at(size_t i) {
	return i < entry_count ? &entries[i] : NULL;
}

// Whether some file lies under folder `name` ("" is the root).
static int is_folder(const char *name) {
	char *key = normalized(name);
	if (!key) return 0;
	size_t n = strlen(key);
	int yes = n == 0;
	for (size_t i = 0; i < entry_count && !yes; ++i)
		yes = strncmp(entries[i].name, key, n) == 0 && entries[i].name[n] == '/';
	free(key);
	return yes;
}

/* ---- streams ---- */

struct sinew_wc_file {
	int mode; // 0 closed, 1 read, 2 write (committed at fclose), 3 console
	char *name;
	unsigned char *data;
	size_t size, capacity, pos;
	int error, eof;
};

static struct sinew_wc_file console[3] = {{1, NULL, NULL, 0, 0, 0, 0, 1}, {3, NULL, NULL, 0, 0, 0, 0, 0},
                                          {3, NULL, NULL, 0, 0, 0, 0, 0}};
FILE *const stdin = &console[0];
FILE *const stdout = &console[1];
FILE *const stderr = &console[2];

const char *sinew_wc_console(int which, size_t *size) {
	FILE *f = which == 2 ? stderr : stdout;
	*size = f->size;
	return f->data ? (const char *)f->data : "";
}

void sinew_wc_console_reset(void) {
	for (int i = 1; i < 3; ++i) free(console[i].data), console[i].data = NULL, console[i].size = console[i].capacity = 0;
}

static int reserve(FILE *f, size_t n) {
	if (n <= f->capacity) return 0;
	size_t cap = f->capacity ? f->capacity : 256;
	while (cap < n) cap = cap > SIZE_MAX / 2 ? n : 2 * cap;
	unsigned char *grown = (unsigned char *)realloc(f->data, cap);
	if (!grown) return -1;
	f->data = grown, f->capacity = cap;
	return 0;
}

FILE *fopen(const char *restrict path, const char *restrict mode) {
	int write = mode[0] == 'w' || mode[0] == 'a';
	if (!write && mode[0] != 'r') return errno = EINVAL, NULL;
	if (strchr(mode, '+')) return errno = EINVAL, NULL; // not used by the CLI or the library
	FILE *f = (FILE *)calloc(1, sizeof *f);
	if (!f) return errno = ENOMEM, NULL;
	const sinew_wc_entry *e = sinew_wc_find(path);
	if (!write) {
		if (!e) {
			free(f);
			return errno = is_folder(path) ? EISDIR : ENOENT, NULL;
		}
		f->mode = 1, f->data = e->data, f->size = e->size; // not owned: the entry keeps its bytes while read
		return f;
	}
	if (is_folder(path) && *path) return free(f), errno = EISDIR, NULL;
	f->name = strdup(path);
	if (!f->name) return free(f), errno = ENOMEM, NULL;
	f->mode = 2;
	if (mode[0] == 'a' && e && e->size) {
		if (reserve(f, e->size)) return free(f->name), free(f), errno = ENOMEM, NULL;
		memcpy(f->data, e->data, e->size);
		f->size = f->pos = e->size;
	}
	// "w" truncates at once, as a real file system does (a reader opened later sees an empty file)
	unsigned char *none = (unsigned char *)malloc(1);
	if (!none || !sinew_wc_put(path, none, 0)) return free(none), free(f->name), free(f->data), free(f), errno = ENOMEM, NULL;
	return f;
}

int fclose(FILE *f) {
	if (!f || f->mode == 0) return EOF;
	if (f == stdin || f == stdout || f == stderr) return 0;
	int rc = 0;
	if (f->mode == 2) {
		if (f->error) rc = EOF, free(f->data);
		else if (!sinew_wc_put(f->name, f->data ? f->data : (unsigned char *)malloc(1), f->size)) rc = EOF, errno = ENOMEM;
		free(f->name);
	}
	f->mode = 0;
	free(f);
	return rc;
}

size_t fread(void *restrict ptr, size_t size, size_t n, FILE *restrict f) {
	if (f->mode != 1 || !size || !n) return 0;
	const unsigned char *data = f->data;
	size_t want = size * n, have = f->pos < f->size ? f->size - f->pos : 0;
	size_t take = want < have ? want : have;
	if (take) memcpy(ptr, data + f->pos, take);
	f->pos += take;
	if (take < want) f->eof = 1;
	return take / size;
}

size_t fwrite(const void *restrict ptr, size_t size, size_t n, FILE *restrict f) {
	if ((f->mode != 2 && f->mode != 3) || !size || !n) return 0;
	size_t bytes = size * n;
	size_t at = f->mode == 3 ? f->size : f->pos;
	if (reserve(f, at + bytes)) return f->error = 1, errno = ENOSPC, 0;
	if (at > f->size) memset(f->data + f->size, 0, at - f->size);
	memcpy(f->data + at, ptr, bytes);
	at += bytes;
	if (at > f->size) f->size = at;
	f->pos = at;
	return n;
}

int fseek(FILE *f, long offset, int whence) {
	if (f->mode != 1 && f->mode != 2) return errno = EBADF, -1;
	long base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (long)f->pos : (long)f->size;
	if (offset < -base) return errno = EINVAL, -1;
	f->pos = (size_t)(base + offset);
	f->eof = 0;
	return 0;
}

long ftell(FILE *f) {
	return f->mode == 1 || f->mode == 2 ? (long)f->pos : -1;
}

int fflush(FILE *f) {
	(void)f;
	return 0;
}

int ferror(FILE *f) {
	return f->error;
}

int feof(FILE *f) {
	return f->eof;
}

int fileno(FILE *f) {
	return f == stdin ? 0 : f == stdout ? 1 : f == stderr ? 2 : 3;
}

int remove(const char *path) {
	return sinew_wc_delete(path) == 0 ? 0 : (errno = ENOENT, -1);
}

int rename(const char *from, const char *to) {
	sinew_wc_entry *e = sinew_wc_find(from);
	if (!e) return errno = ENOENT, -1;
	unsigned char *data = e->data;
	size_t size = e->size;
	e->data = NULL;
	sinew_wc_delete(from);
	if (!sinew_wc_put(to, data, size)) return free(data), errno = ENOMEM, -1;
	return 0;
}

typedef struct file_sink {
	sinew_wc_sink base;
	FILE *f;
} file_sink;

static void file_write(sinew_wc_sink *s, const char *t, size_t n) {
	fwrite(t, 1, n, ((file_sink *)s)->f);
}

int vfprintf(FILE *restrict f, const char *restrict fmt, va_list args) {
	file_sink s = {{file_write, 0}, f};
	return sinew_wc_format(&s.base, fmt, args);
}

int fprintf(FILE *restrict f, const char *restrict fmt, ...) {
	va_list args;
	va_start(args, fmt);
	int n = vfprintf(f, fmt, args);
	va_end(args);
	return n;
}

int vprintf(const char *restrict fmt, va_list args) {
	return vfprintf(stdout, fmt, args);
}

int printf(const char *restrict fmt, ...) {
	va_list args;
	va_start(args, fmt);
	int n = vfprintf(stdout, fmt, args);
	va_end(args);
	return n;
}

int fputc(int c, FILE *f) {
	unsigned char b = (unsigned char)c;
	return fwrite(&b, 1, 1, f) == 1 ? b : EOF;
}

int putc(int c, FILE *f) {
	return fputc(c, f);
}

int putchar(int c) {
	return fputc(c, stdout);
}

int fputs(const char *restrict s, FILE *restrict f) {
	size_t n = strlen(s);
	return fwrite(s, 1, n, f) == n ? 0 : EOF;
}

int puts(const char *s) {
	return fputs(s, stdout) == 0 && fputc('\n', stdout) != EOF ? 0 : EOF;
}

void perror(const char *s) {
	fprintf(stderr, "%s%s%s\n", s && *s ? s : "", s && *s ? ": " : "", strerror(errno));
}

/* ---- folders ---- */

int stat(const char *restrict path, struct stat *restrict out) {
	const sinew_wc_entry *e = sinew_wc_find(path);
	if (e) {
		out->st_mode = S_IFREG | 0644u, out->st_size = (long long)e->size;
		return 0;
	}
	if (is_folder(path)) {
		out->st_mode = S_IFDIR | 0755u, out->st_size = 0;
		return 0;
	}
	return errno = ENOENT, -1;
}

int mkdir(const char *path, mode_t mode) { // folders exist by the files under them
	(void)mode;
	if (sinew_wc_find(path)) return errno = EEXIST, -1;
	return 0;
}

struct sinew_wc_dir {
	char *prefix; // normalized, with a trailing '/' unless the root
	size_t next;
	char **seen; // names returned already (a folder appears once)
	size_t seen_count;
	struct dirent entry;
};

DIR *opendir(const char *path) {
	if (sinew_wc_find(path)) return errno = ENOTDIR, NULL;
	if (!is_folder(path)) return errno = ENOENT, NULL;
	DIR *d = (DIR *)calloc(1, sizeof *d);
	char *key = normalized(path);
	if (!d || !key) return free(d), free(key), errno = ENOMEM, NULL;
	size_t n = strlen(key);
	d->prefix = (char *)malloc(n + 2);
	if (!d->prefix) return free(d), free(key), errno = ENOMEM, NULL;
	memcpy(d->prefix, key, n);
	if (n) d->prefix[n++] = '/';
	d->prefix[n] = 0;
	free(key);
	d->seen = (char **)calloc(entry_count + 1, sizeof(char *));
	if (!d->seen) return free(d->prefix), free(d), errno = ENOMEM, NULL;
	return d;
}

struct dirent *readdir(DIR *d) {
	size_t n = strlen(d->prefix);
	while (d->next < entry_count) {
		const char *name = entries[d->next++].name;
		if (strncmp(name, d->prefix, n) != 0) continue;
		const char *rest = name + n;
		size_t len = strcspn(rest, "/");
		if (len >= sizeof d->entry.d_name) continue;
		int dup = 0;
		for (size_t i = 0; i < d->seen_count && !dup; ++i) dup = strncmp(d->seen[i], rest, len) == 0 && d->seen[i][len] == 0;
		if (dup) continue;
		memcpy(d->entry.d_name, rest, len);
		d->entry.d_name[len] = 0;
		char *copy = strdup(d->entry.d_name);
		if (copy && d->seen_count < entry_count) d->seen[d->seen_count++] = copy;
		else free(copy);
		return &d->entry;
	}
	return NULL;
}

int closedir(DIR *d) {
	for (size_t i = 0; i < d->seen_count; ++i) free(d->seen[i]);
	free(d->seen);
	free(d->prefix);
	free(d);
	return 0;
}

/* ---- stdlib ---- */

int abs(int x) {
	return x < 0 ? -x : x;
}

long labs(long x) {
	return x < 0 ? -x : x;
}

long long llabs(long long x) {
	return x < 0 ? -x : x;
}

static int digit_value(int c) {
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'z') return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
	return 99;
}

// strtoull's parse: magnitude (saturated, *overflow set), sign, end.
static unsigned long long parse_integer(const char *s, char **end, int base, int *negative, int *overflow) {
	const char *p = s;
	while (*p == ' ' || (*p >= '\t' && *p <= '\r')) ++p;
	*negative = 0, *overflow = 0;
	if (*p == '+' || *p == '-') *negative = *p++ == '-';
	if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && digit_value((unsigned char)p[2]) < 16)
		p += 2, base = 16;
	else if (base == 0)
		base = p[0] == '0' ? 8 : 10;
	unsigned long long v = 0;
	const char *start = p;
	for (; digit_value((unsigned char)*p) < base; ++p) {
		unsigned d = (unsigned)digit_value((unsigned char)*p);
		if (v > (~0ull - d) / (unsigned)base) *overflow = 1;
		else v = v * (unsigned)base + d;
	}
	if (end) *end = (char *)(uintptr_t)(p == start ? s : p);
	return v;
}

unsigned long long strtoull(const char *restrict s, char **restrict end, int base) {
	int neg, over;
	unsigned long long v = parse_integer(s, end, base, &neg, &over);
	if (over) return errno = ERANGE, ~0ull;
	return neg ? 0ull - v : v;
}

long long strtoll(const char *restrict s, char **restrict end, int base) {
	int neg, over;
	unsigned long long v = parse_integer(s, end, base, &neg, &over);
	if (over || v > (neg ? 0x8000000000000000ull : 0x7FFFFFFFFFFFFFFFull))
		return errno = ERANGE, neg ? (long long)(-0x7FFFFFFFFFFFFFFFll - 1) : 0x7FFFFFFFFFFFFFFFll;
	return neg ? (long long)(0ull - v) : (long long)v;
}

long strtol(const char *restrict s, char **restrict end, int base) {
	long long v = strtoll(s, end, base);
	if (v > 0x7FFFFFFFL) return errno = ERANGE, 0x7FFFFFFFL;
	if (v < -0x7FFFFFFFL - 1) return errno = ERANGE, -0x7FFFFFFFL - 1;
	return (long)v;
}

unsigned long strtoul(const char *restrict s, char **restrict end, int base) {
	int neg, over;
	unsigned long long v = parse_integer(s, end, base, &neg, &over);
	if (over || v > 0xFFFFFFFFul) return errno = ERANGE, 0xFFFFFFFFul;
	return neg ? (unsigned long)(0u - (unsigned long)v) : (unsigned long)v;
}

int atoi(const char *s) {
	return (int)strtol(s, NULL, 10);
}

long atol(const char *s) {
	return strtol(s, NULL, 10);
}

char *getenv(const char *name) {
	(void)name;
	return NULL; // no environment: SINEW_KERNEL and the like are unset
}

_Noreturn void abort(void) {
	__builtin_trap();
}

_Noreturn void exit(int code) {
	(void)code;
	__builtin_trap(); // the CLI returns from main; nothing calls exit
}

/* ---- locale, time, process, threads ---- */

struct lconv *localeconv(void) {
	static struct lconv c = {(char *)".", (char *)"", (char *)""};
	return &c;
}

char *setlocale(int category, const char *locale) {
	(void)category;
	return !locale || !*locale || strcmp(locale, "C") == 0 ? (char *)"C" : NULL;
}

#ifndef SINEW_WC_NATIVE_TEST
__attribute__((import_module("env"), import_name("now"))) double sinew_wc_now_ms(void);
#else
static double sinew_wc_now_ms(void) { return 0; }
#endif

int clock_gettime(clockid_t clock, struct timespec *out) {
	(void)clock;
	double ms = sinew_wc_now_ms();
	if (!(ms >= 0)) ms = 0;
	long long ns = (long long)(ms * 1e6);
	out->tv_sec = ns / 1000000000;
	out->tv_nsec = (long)(ns % 1000000000);
	return 0;
}

time_t time(time_t *out) {
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	if (out) *out = ts.tv_sec;
	return ts.tv_sec;
}

int nanosleep(const struct timespec *request, struct timespec *remaining) {
	(void)request;
	if (remaining) remaining->tv_sec = 0, remaining->tv_nsec = 0;
	return 0;
}

pid_t getpid(void) {
	return 1;
}

int isatty(int fd) {
	(void)fd;
	return 0;
}

long sysconf(int name) {
	return name == _SC_NPROCESSORS_ONLN ? 1 : -1;
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg) {
	(void)attr;
	pthread_t t = (pthread_t)malloc(sizeof *t);
	if (!t) return EAGAIN;
	t->result = start(arg);
	*thread = t;
	return 0;
}

int pthread_join(pthread_t thread, void **result) {
	if (result) *result = thread->result;
	free(thread);
	return 0;
}

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr) {
	(void)m, (void)attr;
	return 0;
}

int pthread_mutex_destroy(pthread_mutex_t *m) {
	(void)m;
	return 0;
}

int pthread_mutex_lock(pthread_mutex_t *m) {
	(void)m;
	return 0;
}

int pthread_mutex_unlock(pthread_mutex_t *m) {
	(void)m;
	return 0;
}

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr) {
	(void)c, (void)attr;
	return 0;
}

int pthread_cond_destroy(pthread_cond_t *c) {
	(void)c;
	return 0;
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) { // one thread: nothing could wake it
	(void)c, (void)m;
	return EDEADLK;
}

int pthread_cond_broadcast(pthread_cond_t *c) {
	(void)c;
	return 0;
}
