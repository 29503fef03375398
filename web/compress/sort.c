// sinew — see include/sinew.h for version and licence
// qsort and bsearch of the wasm compressor's libc (a file of its own so web/compress/test_libc.c can test it
// natively).
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Stable merge sort: for comparators with ties the order of glibc's qsort (a merge sort, below its
// memory limit) and of any stable sort; a sort is unique once stable.
static void merge_sort(unsigned char *a, unsigned char *tmp, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
	if (n < 2) return;
	if (n <= 8) { // insertion sort, stable
		for (size_t i = 1; i < n; ++i) {
			size_t j = i;
			memcpy(tmp, a + i * size, size);
			while (j > 0 && cmp(a + (j - 1) * size, tmp) > 0) memcpy(a + j * size, a + (j - 1) * size, size), --j;
			memcpy(a + j * size, tmp, size);
		}
		return;
	}
	size_t h = n / 2;
	merge_sort(a, tmp, h, size, cmp);
	merge_sort(a + h * size, tmp, n - h, size, cmp);
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n) {
		if (cmp(a + j * size, a + i * size) < 0) memcpy(tmp + k++ * size, a + j++ * size, size);
		else memcpy(tmp + k++ * size, a + i++ * size, size);
	}
	while (i < h) memcpy(tmp + k++ * size, a + i++ * size, size);
	while (j < n) memcpy(tmp + k++ * size, a + j++ * size, size);
	memcpy(a, tmp, n * size);
}

void qsort(void *base, size_t count, size_t size, int (*compare)(const void *, const void *)) {
	if (count < 2 || !size) return;
	unsigned char *tmp = (unsigned char *)malloc(count * size);
	if (tmp) {
		merge_sort((unsigned char *)base, tmp, count, size, compare);
		free(tmp);
		return;
	}
	// out of memory: a stable insertion sort in place (slow, but the same order)
	unsigned char *a = (unsigned char *)base;
	for (size_t i = 1; i < count; ++i)
		for (size_t j = i; j > 0 && compare(a + (j - 1) * size, a + j * size) > 0; --j)
			for (size_t b = 0; b < size; ++b) {
				unsigned char t = a[(j - 1) * size + b];
				a[(j - 1) * size + b] = a[j * size + b], a[j * size + b] = t;
			}
}

void *bsearch(const void *key, const void *base, size_t count, size_t size, int (*compare)(const void *, const void *)) {
	const unsigned char *a = (const unsigned char *)base;
	size_t lo = 0, hi = count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = compare(key, a + mid * size);
		if (c == 0) return (void *)(uintptr_t)(a + mid * size);
		if (c < 0) hi = mid;
		else lo = mid + 1;
	}
	return NULL;
}

