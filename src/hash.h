/* hash.h - the program's hashes of bytes, in one home:
 *   - ls_hash64, its fast hash: XXH3 (64 bits) from xxHash (Debian:
 *     libxxhash-dev), used header-only so that the binary needs no library
 *     of it at run time, for fingerprints that tell inputs apart (the
 *     ranks of a job comparing what each read) and for Life's grid digest
 *     (docs/life.md, which fixes how);
 *   - ls_fnv1a, FNV-1a, which the digests of results and images are
 *     defined with (docs: the run digest, Graveler's, BMN's, the ray
 *     image's), a byte at a time: their inputs are small. */
#ifndef LOCKSTEP_HASH_H
#define LOCKSTEP_HASH_H

#include <stddef.h>
#include <stdint.h>

/* XXH3_64bits_withSeed of len bytes at data. */
uint64_t ls_hash64(const void *data, size_t len, uint64_t seed);

/* FNV-1a (64 bits) of len bytes at data, from h (LS_FNV_INIT to start). */
#define LS_FNV_INIT 0xcbf29ce484222325ull
static inline uint64_t ls_fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

#endif
