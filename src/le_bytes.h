/* le_bytes.h - integers as little-endian bytes, whatever the host's order:
 * the headers of files whose layout is fixed (Life's grid files, the GPU
 * program cache's records). */
#ifndef LOCKSTEP_LE_BYTES_H
#define LOCKSTEP_LE_BYTES_H

#include <stdint.h>

/* The integer in the `bytes` bytes (1 to 8) at b, least significant first. */
static inline uint64_t ls_load_le(const uint8_t *b, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes; i-- > 0;)
        v = v << 8 | b[i];
    return v;
}

/* v's low `bytes` bytes (1 to 8) at b, least significant first. */
static inline void ls_store_le(uint8_t *b, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

#endif
