/* graveler.h - one Graveler battle, written once for every backend.
 *
 * A battle is `turns` Bernoulli trials with p = 1/4; each trial is the AND
 * of two random bits, and the result is the number of successes. Random
 * bits come from streams: stream s (s = 0, 1, ...) serves battles
 * 64*s .. 64*s+63 in order, and is a xorshift128 generator whose 128-bit
 * state is Philox4x32-10(counter = {s_lo, s_hi, "grav", 0}, key = seed).
 * A battle therefore depends only on (seed, battle index, turns): never on
 * which thread, work-item or lane plays it. docs/rng.md has the full
 * definition and the reasons behind it.
 *
 * Bits of a battle: words are drawn from the stream in order. Each group of
 * 32 trials uses two words, trial i succeeding when bit i is set in both.
 * A remainder of r <= 16 trials uses one word w: trial i is bit i of
 * (w & (w >> 16)). A remainder of 16 < r < 32 uses two words like a full
 * group, masked to r bits. T = 231 thus takes 7 pairs and one word: 15
 * words, 480 bits for 462 needed.
 *
 * The battle is generic over a "lane" type so that the OpenMP backend can
 * play 8 or 16 streams at once with vector types. A user of the generic
 * form defines, before including this file:
 *   GRV_LANE          the lane type (default ls_u32)
 *   GRV_ZERO          a zero of that type
 *   GRV_ACC, GRV_ACC_ZERO, GRV_ACC_ADD(acc, w), GRV_ACC_TOTAL(acc),
 *   GRV_ACC_MAX_WORDS  a partial popcount accumulator: ADD folds in the
 *                     bits of w, TOTAL turns it into per-lane counts, and
 *                     at most MAX_WORDS words may be added between totals.
 * The defaults are a plain 32-bit popcount. */
#ifndef LOCKSTEP_ALGO_GRAVELER_H
#define LOCKSTEP_ALGO_GRAVELER_H

#include "philox.h"

#define GRV_DEFAULT_TURNS 231u
#define GRV_MAX_TURNS 4096u
#define GRV_BATTLES_PER_STREAM 64u
#define GRV_STREAM_TAG 0x67726176u /* "grav": keeps these streams apart from other workloads' */

#ifndef GRV_LANE
#define GRV_LANE ls_u32
#define GRV_ZERO 0u
#define GRV_ACC ls_u32
#define GRV_ACC_ZERO 0u
#define GRV_ACC_ADD(acc, w) ((acc) + LS_POPC32(w))
#define GRV_ACC_TOTAL(acc) (acc)
#define GRV_ACC_MAX_WORDS 0xFFFFFFFFu
#endif

/* Marsaglia's xorshift128 ("Xorshift RNGs", J. Stat. Softw. 8(14), 2003). */
typedef struct {
    GRV_LANE x, y, z, w;
} grv_xs128;

LS_FN GRV_LANE grv_xs128_next(grv_xs128 *s)
{
    GRV_LANE t = s->x ^ (s->x << 11);
    s->x = s->y;
    s->y = s->z;
    s->z = s->w;
    s->w = (s->w ^ (s->w >> 19)) ^ (t ^ (t >> 8));
    return s->w;
}

/* The 128-bit starting state of stream `stream` under `seed`, as four
 * words x, y, z, w. xorshift128 must not start from all zeros; Philox gives
 * that with probability 2^-128, and then w = 1 is used instead. */
LS_FN void grv_stream_state(ls_u64 seed, ls_u64 stream, ls_u32 out[4])
{
    ls_philox_ctr ctr;
    ls_philox_key key;
    ctr.v[0] = (ls_u32)stream;
    ctr.v[1] = (ls_u32)(stream >> 32);
    ctr.v[2] = GRV_STREAM_TAG;
    ctr.v[3] = 0u;
    key.v[0] = (ls_u32)seed;
    key.v[1] = (ls_u32)(seed >> 32);
    ctr = ls_philox4x32_10(ctr, key);
    for (int i = 0; i < 4; i++)
        out[i] = ctr.v[i];
    if ((out[0] | out[1] | out[2] | out[3]) == 0u)
        out[3] = 1u;
}

/* Plays one battle of `turns` trials from stream state `s` and returns the
 * number of successes (per lane). */
LS_FN GRV_LANE grv_battle(grv_xs128 *s, ls_u32 turns)
{
    GRV_LANE total = GRV_ZERO;
    GRV_ACC acc = GRV_ACC_ZERO;
    ls_u32 words = 0;
    ls_u32 pairs = turns / 32u, rem = turns % 32u;
    for (ls_u32 i = 0; i < pairs; i++) {
        GRV_LANE a = grv_xs128_next(s);
        GRV_LANE b = grv_xs128_next(s);
        acc = GRV_ACC_ADD(acc, a & b);
        if (++words == GRV_ACC_MAX_WORDS) {
            total += GRV_ACC_TOTAL(acc);
            acc = GRV_ACC_ZERO;
            words = 0;
        }
    }
    if (rem > 16u) {
        GRV_LANE a = grv_xs128_next(s);
        GRV_LANE b = grv_xs128_next(s);
        acc = GRV_ACC_ADD(acc, a & b & ((1u << rem) - 1u));
    } else if (rem > 0u) {
        GRV_LANE a = grv_xs128_next(s);
        acc = GRV_ACC_ADD(acc, a & (a >> 16) & ((1u << rem) - 1u));
    }
    return total + GRV_ACC_TOTAL(acc);
}

#endif
