/* graveler_simd.h - the per-instruction-set copies of the CPU Graveler
 * inner loop (graveler_simd.c) and how many lanes each plays at once.
 *
 * grv_simd_groups_X plays stream groups group0 .. group0+ngroups-1 (group g
 * = streams g*LANES .. g*LANES+LANES-1), counting battles with index in
 * [lo, hi) into lanehist[lane * (turns + 1) + count]. The counts are 32-bit:
 * the caller folds them into its 64-bit histogram before 2^32 battles can
 * reach one lane (graveler_cpu.c does so after every chunk of 2^24). */
#ifndef LOCKSTEP_GRAVELER_SIMD_H
#define LOCKSTEP_GRAVELER_SIMD_H

#include <stdint.h>

#define GRV_SIMD_DECLARE(variant)                                                       \
    void grv_simd_groups_##variant(uint64_t seed, uint64_t group0, uint64_t ngroups,    \
                                   uint64_t lo, uint64_t hi, uint32_t turns,            \
                                   uint32_t *lanehist);                                 \
    extern const int grv_simd_lanes_##variant;

GRV_SIMD_DECLARE(generic)
#if defined(__x86_64__)
GRV_SIMD_DECLARE(avx2)
GRV_SIMD_DECLARE(avx512)
#endif

#endif
