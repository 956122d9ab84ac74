/* philox.h - Philox4x32-10, the counter-based generator of Salmon et al.,
 * "Parallel random numbers: as easy as 1, 2, 3" (SC'11).
 *
 * lockstep uses it only to key streams: one call turns (seed, stream index)
 * into 128 independent-looking bits, so that any stream can be started on
 * any thread of any backend without running the others first. The function
 * is checked against Random123's published known-answer vectors and against
 * Random123's own philox.h in tests/test_rng.c. */
#ifndef LOCKSTEP_ALGO_PHILOX_H
#define LOCKSTEP_ALGO_PHILOX_H

#include "portable.h"

#define LS_PHILOX_M0 0xD2511F53u
#define LS_PHILOX_M1 0xCD9E8D57u
#define LS_PHILOX_W0 0x9E3779B9u /* golden ratio */
#define LS_PHILOX_W1 0xBB67AE85u /* sqrt(3) - 1 */

typedef struct { ls_u32 v[4]; } ls_philox_ctr;
typedef struct { ls_u32 v[2]; } ls_philox_key;

LS_FN void ls_philox_round(ls_u32 *c, const ls_u32 *k)
{
    ls_u32 hi0 = LS_MULHI32(LS_PHILOX_M0, c[0]), lo0 = LS_PHILOX_M0 * c[0];
    ls_u32 hi1 = LS_MULHI32(LS_PHILOX_M1, c[2]), lo1 = LS_PHILOX_M1 * c[2];
    ls_u32 n0 = hi1 ^ c[1] ^ k[0];
    ls_u32 n2 = hi0 ^ c[3] ^ k[1];
    c[0] = n0;
    c[1] = lo1;
    c[2] = n2;
    c[3] = lo0;
}

/* Philox4x32 with 10 rounds: the standard, Crush-resistant variant. */
LS_FN ls_philox_ctr ls_philox4x32_10(ls_philox_ctr ctr, ls_philox_key key)
{
    ls_u32 k[2];
    k[0] = key.v[0];
    k[1] = key.v[1];
#if defined(LS_SHAPE_CPU) && LS_SHAPE == LS_SHAPE_CPU
    /* OpenCL's CPU kernel shape (src/kernels/dialect.h, included first):
     * unrolled rounds leave a caller's loop over several counters
     * (Graveler's lanes, a BMN deal's 13 blocks) straight code, which
     * the compiler vectorizes; rolled, it runs them one after another,
     * each round waiting for the last multiply. */
#pragma unroll
#endif
    for (int r = 0; r < 10; r++) {
        if (r > 0) {
            k[0] += LS_PHILOX_W0;
            k[1] += LS_PHILOX_W1;
        }
        ls_philox_round(ctr.v, k);
    }
    return ctr;
}

#endif
