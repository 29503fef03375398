// sinew — see include/sinew.h for version and licence
// Regression driver for compilers without libFuzzer: runs a fuzz target over every file named
// on the command line (or every file in the directories named), like zstd's regression_driver.
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
	FILE *f = fopen(path, "rb");
	if (!f) return 1;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *buf = (uint8_t *)malloc(n > 0 ? (size_t)n : 1);
	size_t got = fread(buf, 1, (size_t)(n > 0 ? n : 0), f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, got);
	free(buf);
	return 0;
}

int main(int argc, char **argv) {
	int files = 0;
	for (int i = 1; i < argc; ++i) {
		struct stat st;
		if (stat(argv[i], &st) != 0) continue;
		if (S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *e;
			while (d && (e = readdir(d))) {
				if (e->d_name[0] == '.') continue;
				char path[4096];
				snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
				files += run_file(path) == 0;
			}
			if (d) closedir(d);
		} else {
			files += run_file(argv[i]) == 0;
		}
	}
	printf("%d inputs ran\n", files);
	return 0;
}
