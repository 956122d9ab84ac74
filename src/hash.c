/* hash.c - see hash.h. */
#include "hash.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

uint64_t ls_hash64(const void *data, size_t len, uint64_t seed)
{
    return XXH3_64bits_withSeed(data, len, seed);
}
