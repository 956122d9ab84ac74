/* graveler_csa.h - carry-save counting of a battle's successes, for GPUs.
 *
 * Include before graveler.h to replace its plain accumulator. Two success
 * words w1, w2 and a running "ones" word o are folded as
 *     o' = o ^ w1 ^ w2,   count += 2 * popc(maj(o, w1, w2)),
 * and popc(o) is added at the end. Bit by bit a + b + c = (a ^ b ^ c) +
 * 2 maj(a, b, c), so the count is exactly the same; a 231-turn battle then
 * takes 5 popcounts instead of 8 for a few more logic operations, which
 * pays where popcount issues at a fraction of the logic rate (NVIDIA GPUs:
 * 16 per SM and clock against 64). The accumulator packs count << 32 | o. */
#ifndef LOCKSTEP_ALGO_GRAVELER_CSA_H
#define LOCKSTEP_ALGO_GRAVELER_CSA_H

#include "portable.h"

LS_FN ls_u64 grv_csa_add2(ls_u64 acc, ls_u32 w1, ls_u32 w2)
{
    ls_u32 ones = (ls_u32)acc, count = (ls_u32)(acc >> 32);
    ls_u32 carry = (ones & w1) | (ones & w2) | (w1 & w2);
    count += 2u * LS_POPC32(carry);
    return ((ls_u64)count << 32) | (ones ^ w1 ^ w2);
}

LS_FN ls_u64 grv_csa_total(ls_u64 acc)
{
    return (ls_u64)((ls_u32)(acc >> 32) + LS_POPC32((ls_u32)acc));
}

#define GRV_LANE ls_u64
#define GRV_LANE_ZERO 0u
#define GRV_ACC ls_u64
#define GRV_ACC_ZERO 0u
#define GRV_ACC_ADD(acc, w) ((acc) + ((ls_u64)LS_POPC32((ls_u32)(w)) << 32))
#define GRV_ACC_ADD2(acc, w1, w2) grv_csa_add2((acc), (ls_u32)(w1), (ls_u32)(w2))
#define GRV_ACC_TOTAL(acc) grv_csa_total(acc)
#define GRV_ACC_MAX_WORDS 0xFFFFFFFFu

#endif
