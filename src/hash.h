/* hash.h - the program's one fast hash of bytes: XXH3 (64 bits) from
 * xxHash (Debian: libxxhash-dev), used header-only so that the binary
 * needs no library of it at run time. For fingerprints that tell inputs
 * apart (the ranks of a job comparing what each read); not for defined
 * digests, whose algorithm the docs fix. */
#ifndef LOCKSTEP_HASH_H
#define LOCKSTEP_HASH_H

#include <stddef.h>
#include <stdint.h>

/* XXH3_64bits_withSeed of len bytes at data. */
uint64_t ls_hash64(const void *data, size_t len, uint64_t seed);

#endif
