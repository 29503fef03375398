// sinew — see include/sinew.h for version and licence
// Freestanding <stdlib.h> for the wasm build: malloc/free over the load-time arena of
// web/wasm_libc.c (the decoder only allocates while validating a blob).
#ifndef SINEW_WEB_STDLIB_H
#define SINEW_WEB_STDLIB_H

#include <stddef.h>

void *malloc(size_t size);
void *aligned_alloc(size_t align, size_t size);
void free(void *ptr);

#endif
