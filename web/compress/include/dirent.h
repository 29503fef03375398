// sinew — see include/sinew.h for version and licence
// <dirent.h> of the wasm compressor: folders are the name prefixes of the in-memory file table.
#ifndef SINEW_WC_DIRENT_H
#define SINEW_WC_DIRENT_H

typedef struct sinew_wc_dir DIR;
struct dirent {
	char d_name[256];
};
DIR *opendir(const char *path);
struct dirent *readdir(DIR *dir);
int closedir(DIR *dir);

#endif
