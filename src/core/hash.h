// sinew — see include/sinew.h for version and licence
#ifndef SINEW_CORE_HASH_H
#define SINEW_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>

// XXH32 of data[0..size) with `seed` (docs/format.md §checksum uses seed 0).
uint32_t sinewi_xxh32(const void *data, size_t size, uint32_t seed);

#endif
