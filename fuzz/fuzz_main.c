// sinew — see include/sinew.h for version and licence
// Regression driver for compilers without libFuzzer: runs a fuzz target over every file named
// on the command line (or every file in the directories named), like zstd's regression_driver. A path
// that is missing, unreadable or holds no file fails the run (exit code 1).
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// Runs the target on one file; false (with a message) when it cannot be read.
static int run_file(const char *path) {
	FILE *f = fopen(path, "rb");
	long n = -1;
	if (f && fseek(f, 0, SEEK_END) == 0) n = ftell(f);
	if (!f || n < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "fuzz_main: cannot read %s\n", path);
		if (f) fclose(f);
		return 0;
	}
	uint8_t *buf = (uint8_t *)malloc(n > 0 ? (size_t)n : 1);
	size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
	fclose(f);
	if (!buf || got != (size_t)n) {
		fprintf(stderr, "fuzz_main: cannot read %s\n", path);
		free(buf);
		return 0;
	}
	LLVMFuzzerTestOneInput(buf, got);
	free(buf);
	return 1;
}

// Every path named must exist and give at least one input (a directory: its regular files), or the run fails:
// a seed folder that moved must not leave the regression run with nothing to run.
int main(int argc, char **argv) {
	int files = 0, bad = argc < 2;
	if (argc < 2) fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
	for (int i = 1; i < argc; ++i) {
		struct stat st;
		int before = files;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "fuzz_main: no such file or directory: %s\n", argv[i]);
			bad = 1;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *e;
			if (!d) fprintf(stderr, "fuzz_main: cannot list %s\n", argv[i]), bad = 1;
			while (d && (e = readdir(d))) {
				if (e->d_name[0] == '.') continue;
				char path[4096];
				snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
				struct stat fs;
				if (stat(path, &fs) != 0 || !S_ISREG(fs.st_mode)) continue; // sub-folders are not seeds
				if (run_file(path)) ++files;
				else bad = 1;
			}
			if (d) closedir(d);
		} else if (run_file(argv[i])) {
			++files;
		} else {
			bad = 1;
		}
		if (files == before) fprintf(stderr, "fuzz_main: no input in %s\n", argv[i]), bad = 1;
	}
	printf("%d inputs ran\n", files);
	return bad;
}
