/* graveler_golden.h - the Graveler conformance cases and their answers.
 *
 * The answers (max and digest) come from tests/ref_graveler.c, a plain
 * bit-by-bit implementation built on Random123's own Philox; the unit test
 * `ref_graveler` recomputes every row, so a wrong row fails the build's
 * tests rather than silently blessing a wrong backend. Regenerate the
 * numbers with `build/tests/ref_graveler --print`.
 *
 * The cases cover the default 231 turns, each tail shape (16 trials from
 * one word, 17 from a masked pair, an exact pair, one trial), battle ranges
 * that start and end inside a 64-battle stream, and stream indices above
 * 2^32 (so the counter's high word matters). */
#ifndef LOCKSTEP_GRAVELER_GOLDEN_H
#define LOCKSTEP_GRAVELER_GOLDEN_H

#include <stdint.h>

typedef struct grv_golden {
    uint64_t seed, first, battles;
    uint32_t turns, max;
    uint64_t digest;
} grv_golden;

#define GRV_GOLDEN_COUNT 7

/* In the order of the conformance cases in graveler.c, which name them. */
static const grv_golden grv_golden_cases[GRV_GOLDEN_COUNT] = {
    /* seed, first, battles, turns, max, digest */
    {1ull, 0ull, 100000ull, 231, 93, 0xffb99db222839c56ull},
    {7ull, 123ull, 200001ull, 231, 87, 0x5ff1585a57eaabf8ull},
    {2ull, 0ull, 4099ull, 16, 11, 0x9636ab6984f424aeull},
    {12345ull, 300000000000ull, 1000ull, 17, 10, 0x46ff7bf7560ef70aull},
    {99ull, 64ull, 64000ull, 32, 19, 0x1ca97738752356c6ull},
    {18446744073709551615ull, 5ull, 10007ull, 1, 1, 0x9e09bc2e2a76b06full},
    {3ull, 0ull, 3000ull, 1000, 300, 0x5e6f908fbcf8126cull},
};

#endif
