// sinew — see include/sinew.h for version and licence
// Shared test helpers: a counting allocator.
#include "test.h"

#include <stdlib.h>


void *counting_alloc(void *user, size_t size, size_t align) {
	(void)align;
	++*(long *)user;
	return malloc(size ? size : 1);
}

void counting_free(void *user, void *ptr, size_t size) {
	(void)size;
	--*(long *)user;
	free(ptr);
}
