// sinew — see include/sinew.h for version and licence
// <sys/stat.h> of the wasm compressor: files of the in-memory file table, folders their name prefixes.
#ifndef SINEW_WC_SYS_STAT_H
#define SINEW_WC_SYS_STAT_H

typedef unsigned mode_t;
#define S_IFMT 0170000u
#define S_IFDIR 0040000u
#define S_IFREG 0100000u
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
struct stat {
	mode_t st_mode;
	long long st_size;
};
int stat(const char *restrict path, struct stat *restrict out);
int mkdir(const char *path, mode_t mode);

#endif
