/* graveler.h - one Graveler battle, written once for every backend.
 *
 * A battle is `turns` Bernoulli trials with p = 1/4; each trial is the AND
 * of two random bits, and the result is the number of successes. Random
 * bits come from streams: stream s (s = 0, 1, ...) serves battles
 * 64*s .. 64*s+63 in order, and is David Thomas's MWC64X generator (a
 * multiply-with-carry with a = 4294883355, period about 2^63) started from
 * Philox4x32-10(counter = {s_lo, s_hi, "grav", 0}, key = seed). A battle
 * therefore depends only on (seed, battle index, turns): never on which
 * thread, work-item or lane plays it. docs/rng.md has the full definition,
 * and why MWC64X: xorshift128, tried first, fails the chi-square test of
 * this very statistic (tests/stats_graveler.py) at 1e8 battles.
 *
 * Bits of a battle: 32-bit words are drawn from the stream in order. Each
 * group of 32 trials uses two words, trial i succeeding when bit i is set
 * in both. A remainder of r <= 16 trials uses one word w: trial i is bit i
 * of (w & (w >> 16)). A remainder of 16 < r < 32 uses two words like a full
 * group, masked to r bits. T = 231 thus takes 7 pairs and one word: 15
 * words, 480 bits for 462 needed.
 *
 * The battle is generic over a "lane" type so that the OpenMP backend can
 * play several streams at once in vector registers. A lane holds one
 * stream's packed state (carry << 32 | x) in 64 bits, and a generator
 * output in its low 32 bits (the high bits are don't-care). A user of the
 * generic form defines, before including this file:
 *   GRV_LANE          the lane type (default ls_u64)
 *   GRV_LANE_ZERO     a zero of that type
 *   GRV_ACC, GRV_ACC_ZERO, GRV_ACC_ADD(acc, w), GRV_ACC_TOTAL(acc),
 *   GRV_ACC_MAX_WORDS  a partial popcount accumulator: ADD folds in the
 *                     low 32 bits of w, TOTAL turns it into per-lane
 *                     counts, and at most MAX_WORDS folds (GRV_ACC_ADD2
 *                     calls) may happen between totals.
 *   GRV_ACC_ADD2(acc, w1, w2)  optional: folds in two words at once.
 * The defaults are a plain 32-bit popcount. */
#ifndef LOCKSTEP_ALGO_GRAVELER_H
#define LOCKSTEP_ALGO_GRAVELER_H

#include "philox.h"

#define GRV_DEFAULT_TURNS 231u
#define GRV_MAX_TURNS 4096u
#define GRV_BATTLES_PER_STREAM 64u
#define GRV_STREAM_TAG 0x67726176u /* "grav": keeps these streams apart from other workloads' */
/* Most streams a GPU thread plays per launch: its 16-bit histogram
 * counters then never pass 1023 * 64 < 2^16 (kernels and their host code
 * both rely on it). */
#define GRV_GPU_MAX_STREAMS 1023u
/* Streams a work-item of the CPU kernel shape plays side by side, one a
 * vector lane (src/kernels/graveler_kernels.h); it plays at most
 * GRV_GPU_MAX_STREAMS such blocks per launch, each lane with its own
 * counters. */
#define GRV_CPU_LANES 16u
/* The CPU shape's work-items take blocks of GRV_CPU_LANES streams from a
 * counter of the launch, GRV_CPU_GRAB blocks at a time and at most
 * GRV_CPU_MAX_GRABS times a launch (so at most GRV_GPU_MAX_STREAMS blocks:
 * the counters' bound above). */
#define GRV_CPU_GRAB 4u
#define GRV_CPU_MAX_GRABS (GRV_GPU_MAX_STREAMS / GRV_CPU_GRAB)

#define GRV_MWC_A 4294883355u /* MWC64X's multiplier: A * 2^32 - 1 is a safe prime */

#ifndef GRV_LANE
#define GRV_LANE ls_u64
#define GRV_LANE_ZERO 0u
#define GRV_ACC ls_u32
#define GRV_ACC_ZERO 0u
#define GRV_ACC_ADD(acc, w) ((acc) + LS_POPC32((ls_u32)(w)))
#define GRV_ACC_TOTAL(acc) (acc)
#define GRV_ACC_MAX_WORDS 0xFFFFFFFFu
#endif

/* MWC64X (D. B. Thomas, 2011): state (x, c); the output is x ^ c, then
 * (c, x) <- x * A + c as one 64-bit value. With the state packed as
 * c << 32 | x, a step is one 32x32->64 multiply-add: a single IMAD.WIDE on
 * NVIDIA GPUs and a vpmuludq on x86. Returns the output in the low 32 bits
 * (high bits don't-care). */
typedef struct {
    GRV_LANE s;
#ifdef GRV_MWC_HI
    GRV_LANE hi; /* zero, ORed into each step's addend: a register ptxas keeps (src/kernels/graveler_kernels.h) */
#endif
} grv_mwc;

/* (low 32 bits of v) * A as a 64-bit product. Vector users map it to their
 * widening multiply (vpmuludq), which compilers do not find on their own. */
#ifndef GRV_MWC_MUL
#define GRV_MWC_MUL(v) (((v) & 0xFFFFFFFFu) * GRV_MWC_A)
#endif

LS_FN GRV_LANE grv_mwc_next(grv_mwc *g)
{
    GRV_LANE carry = g->s >> 32;
    GRV_LANE out = g->s ^ carry;
#ifdef GRV_MWC_HI
    carry |= g->hi;
#endif
    g->s = GRV_MWC_MUL(g->s) + carry;
    return out;
}

/* The starting state of stream `stream` under `seed`: x is Philox's first
 * word, c is 1 + (second word >> 1), so 1 <= c <= 2^31. That keeps c
 * below A - 1 and nonzero, which rules out MWC64X's two fixed points
 * (0, 0) and (2^32 - 1, A - 1). */
LS_FN ls_u64 grv_stream_state(ls_u64 seed, ls_u64 stream)
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
    ls_u64 c = (ls_u64)((ctr.v[1] >> 1) + 1u);
    return (c << 32) | ctr.v[0];
}

/* Folds the successes of two words into the accumulator. Lanes whose
 * words sit in the low halves of 64-bit lanes override it to pack both
 * into one 64-bit word and count once. */
#ifndef GRV_ACC_ADD2
#define GRV_ACC_ADD2(acc, w1, w2) GRV_ACC_ADD(GRV_ACC_ADD(acc, w1), w2)
#endif

/* Plays one battle of `turns` trials from stream state `s` and returns the
 * number of successes (per lane, as GRV_ACC_TOTAL gives it). Success words
 * (the AND of a pair, or the tail) are folded in two at a time. */
LS_FN GRV_ACC grv_battle(grv_mwc *s, ls_u32 turns)
{
    GRV_ACC total = GRV_ACC_ZERO;
    GRV_ACC acc = GRV_ACC_ZERO;
    ls_u32 folds = 0;
    ls_u32 pairs = turns / 32u, rem = turns % 32u;
    for (ls_u32 i = 0; i + 2u <= pairs; i += 2u) {
        GRV_LANE a = grv_mwc_next(s);
        GRV_LANE b = grv_mwc_next(s);
        GRV_LANE c = grv_mwc_next(s);
        GRV_LANE d = grv_mwc_next(s);
        acc = GRV_ACC_ADD2(acc, a & b, c & d);
        if (++folds == GRV_ACC_MAX_WORDS) {
            total += GRV_ACC_TOTAL(acc);
            acc = GRV_ACC_ZERO;
            folds = 0;
        }
    }
    /* What is left: at most one pair and the tail. */
    GRV_LANE odd = GRV_LANE_ZERO, tail = GRV_LANE_ZERO;
    if (pairs % 2u) {
        GRV_LANE a = grv_mwc_next(s);
        GRV_LANE b = grv_mwc_next(s);
        odd = a & b;
    }
    if (rem > 16u) {
        GRV_LANE a = grv_mwc_next(s);
        GRV_LANE b = grv_mwc_next(s);
        tail = a & b & ((1u << rem) - 1u);
    } else if (rem > 0u) {
        GRV_LANE a = grv_mwc_next(s);
        tail = a & (a >> 16) & ((1u << rem) - 1u);
    }
    if (pairs % 2u || rem)
        acc = GRV_ACC_ADD2(acc, odd, tail);
    return total + GRV_ACC_TOTAL(acc);
}

#endif
