/* graveler_simd.c - Graveler battles on CPU vector lanes.
 *
 * This file is compiled several times (meson: one static library per
 * variant) with different instruction sets; GRV_VARIANT names the copy and
 * graveler_cpu.c picks the best one the CPU supports at run time, so the same
 * binary runs on any x86-64 and uses AVX2 or AVX-512 where present.
 *
 * Each lane plays one stream (see src/algo/graveler.h): VL streams run
 * side by side in one GCC vector of 64-bit lanes, and grv_battle() from the
 * shared header is the exact code the GPU kernels run, instantiated on that
 * vector type. Only the popcount differs per instruction set. */
#include <stdint.h>
#include <string.h>

#include "graveler_simd.h"

#ifndef GRV_VARIANT
#error "GRV_VARIANT must name the copy (generic, avx2, avx512)"
#endif

#define GRV_CAT2(a, b) a##_##b
#define GRV_CAT(a, b) GRV_CAT2(a, b)

/* A lane is a 64-bit stream state; VL lanes fill one vector register. The
 * accumulator holds per-byte bit counts of the low 32 bits of each lane,
 * summed per lane once per battle. */
#if defined(__AVX512F__) && defined(__AVX512VPOPCNTDQ__)
#include <immintrin.h>
#define VL 8
typedef uint64_t lsv_u64 __attribute__((vector_size(VL * 8)));
/* vpopcntq counts each lane directly. */
#define GRV_MWC_MUL(v) ((lsv_u64)_mm512_mul_epu32((__m512i)(v), _mm512_set1_epi64(GRV_MWC_A)))
#define GRV_ACC_ADD(acc, w) ((acc) + (lsv_u64)_mm512_popcnt_epi64((__m512i)((w) & 0xFFFFFFFFu)))
#define GRV_ACC_ADD2(acc, w1, w2) \
    ((acc) + (lsv_u64)_mm512_popcnt_epi64((__m512i)(((w1) & 0xFFFFFFFFu) | ((w2) << 32))))
#define GRV_ACC_TOTAL(acc) (acc)
#define GRV_ACC_MAX_WORDS 0xFFFFFFFFu
#elif defined(__AVX2__)
#include <immintrin.h>
#define VL 4
typedef uint64_t lsv_u64 __attribute__((vector_size(VL * 8)));
/* Bit counts of each byte through a 16-entry table lookup (vpshufb). */
static inline lsv_u64 lsv_bytecount(lsv_u64 w)
{
    const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                         0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low4 = _mm256_set1_epi8(0x0f);
    __m256i v = (__m256i)w;
    __m256i lo = _mm256_shuffle_epi8(lut, _mm256_and_si256(v, low4));
    __m256i hi = _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(v, 4), low4));
    return (lsv_u64)_mm256_add_epi8(lo, hi);
}
#define GRV_MWC_MUL(v) ((lsv_u64)_mm256_mul_epu32((__m256i)(v), _mm256_set1_epi64x(GRV_MWC_A)))
/* vpsadbw against zero sums the 8 bytes of each 64-bit lane. */
#define GRV_ACC_ADD(acc, w) ((acc) + lsv_bytecount((w) & 0xFFFFFFFFu))
/* Two words' low halves packed into one 64-bit lane with vpblendd. */
#define GRV_ACC_ADD2(acc, w1, w2) \
    ((acc) + lsv_bytecount((lsv_u64)_mm256_blend_epi32((__m256i)(w1), (__m256i)((w2) << 32), 0xAA)))
#define GRV_ACC_TOTAL(acc) ((lsv_u64)_mm256_sad_epu8((__m256i)(acc), _mm256_setzero_si256()))
#define GRV_ACC_MAX_WORDS 31u
#else
#define VL 2
typedef uint64_t lsv_u64 __attribute__((vector_size(VL * 8)));
#if defined(__SSE2__)
#include <emmintrin.h>
#define GRV_MWC_MUL(v) ((lsv_u64)_mm_mul_epu32((__m128i)(v), _mm_set1_epi64x(GRV_MWC_A)))
#endif
/* Portable SWAR: per-byte bit counts with shifts and masks. */
static inline lsv_u64 lsv_bytecount(lsv_u64 v)
{
    v = v - ((v >> 1) & 0x5555555555555555u);
    v = (v & 0x3333333333333333u) + ((v >> 2) & 0x3333333333333333u);
    return (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
}
#define GRV_ACC_ADD(acc, w) ((acc) + lsv_bytecount((w) & 0xFFFFFFFFu))
#define GRV_ACC_ADD2(acc, w1, w2) ((acc) + lsv_bytecount(((w1) & 0xFFFFFFFFu) | ((w2) << 32)))
#define GRV_ACC_TOTAL(acc) ((((acc) * 0x0101010101010101u) >> 56) & 0xFFu)
#define GRV_ACC_MAX_WORDS 31u
#endif

/* Streams per group: NV vectors of VL lanes, played interleaved so that
 * the core always has independent work while one multiply waits. */
#define LANES 16
#define NV (LANES / VL)

#define GRV_LANE lsv_u64
#define GRV_LANE_ZERO ((lsv_u64){0})
#define GRV_ACC lsv_u64
#define GRV_ACC_ZERO ((lsv_u64){0})
#include "graveler.h"

/* Plays the LANES streams s0 .. s0+LANES-1 in full and adds to hist[lane]
 * the battles whose index lies in [lo, hi). Inlined twice below so that the
 * compiler sees turns = 231 as a constant in the common case. */
static inline __attribute__((always_inline)) void
play_lanes(uint64_t seed, uint64_t s0, uint64_t lo, uint64_t hi, uint32_t turns,
           uint32_t *lanehist, uint32_t bins)
{
    uint64_t init[LANES];
    for (int l = 0; l < LANES; l++)
        init[l] = grv_stream_state(seed, s0 + (uint64_t)l);
    grv_mwc s[NV];
    for (int v = 0; v < NV; v++)
        memcpy(&s[v].s, init + v * VL, sizeof s[v].s);

    uint64_t first = s0 * GRV_BATTLES_PER_STREAM;
    uint64_t last = (s0 + LANES) * GRV_BATTLES_PER_STREAM; /* exclusive */
    int whole = first >= lo && last <= hi;
    for (uint32_t j = 0; j < GRV_BATTLES_PER_STREAM; j++) {
        uint64_t c[LANES];
        for (int v = 0; v < NV; v++) {
            lsv_u64 cv = grv_battle(&s[v], turns);
            memcpy(c + v * VL, &cv, sizeof cv);
        }
        if (whole) {
            for (int l = 0; l < LANES; l++)
                lanehist[(uint32_t)l * bins + c[l]]++;
        } else {
            for (int l = 0; l < LANES; l++) {
                uint64_t b = (s0 + (uint64_t)l) * GRV_BATTLES_PER_STREAM + j;
                if (b >= lo && b < hi)
                    lanehist[(uint32_t)l * bins + c[l]]++;
            }
        }
    }
}

void GRV_CAT(grv_simd_groups, GRV_VARIANT)(uint64_t seed, uint64_t group0, uint64_t ngroups,
                                            uint64_t lo, uint64_t hi, uint32_t turns,
                                            uint32_t *lanehist)
{
    uint32_t bins = turns + 1u;
    for (uint64_t g = group0; g < group0 + ngroups; g++) {
        if (turns == GRV_DEFAULT_TURNS)
            play_lanes(seed, g * LANES, lo, hi, GRV_DEFAULT_TURNS, lanehist, GRV_DEFAULT_TURNS + 1u);
        else
            play_lanes(seed, g * LANES, lo, hi, turns, lanehist, bins);
    }
}

const int GRV_CAT(grv_simd_lanes, GRV_VARIANT) = LANES;
