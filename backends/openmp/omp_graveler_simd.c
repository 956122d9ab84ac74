/* omp_graveler_simd.c - Graveler battles on CPU vector lanes.
 *
 * This file is compiled several times (meson: one static library per
 * variant) with different instruction sets; GRV_VARIANT names the copy and
 * the backend picks the best one the CPU supports at run time, so the same
 * binary runs on any x86-64 and uses AVX2 or AVX-512 where present.
 *
 * Each lane plays one stream (see src/algo/graveler.h): LANES streams run
 * side by side in one GCC vector, and grv_battle() from the shared header
 * is the exact code the GPU kernels run, instantiated on that vector type.
 * Only the popcount differs: the lanes accumulate per-byte bit counts and
 * sum them once per battle (every 31 words at most, before a byte could
 * overflow). */
#include <stdint.h>
#include <string.h>

#include "omp_graveler_simd.h"

#ifndef GRV_VARIANT
#error "GRV_VARIANT must name the copy (generic, avx2, avx512)"
#endif

#define GRV_CAT2(a, b) a##_##b
#define GRV_CAT(a, b) GRV_CAT2(a, b)

#if defined(__AVX512F__) && defined(__AVX512VPOPCNTDQ__)
#include <immintrin.h>
#define VL 16
typedef uint32_t lsv_u32 __attribute__((vector_size(VL * 4)));
/* One 512-bit register holds the 16 lanes; vpopcntd counts them directly. */
static inline lsv_u32 lsv_popcount(lsv_u32 w)
{
    return (lsv_u32)_mm512_popcnt_epi32((__m512i)w);
}
#define GRV_ACC lsv_u32
#define GRV_ACC_ADD(acc, w) ((acc) + lsv_popcount(w))
#define GRV_ACC_TOTAL(acc) (acc)
#define GRV_ACC_MAX_WORDS 0xFFFFFFFFu
#elif defined(__AVX2__)
#include <immintrin.h>
#define VL 8
typedef uint32_t lsv_u32 __attribute__((vector_size(VL * 4)));
/* Bit counts of each byte through a 16-entry table lookup (vpshufb). */
static inline __m256i bytecount256(__m256i v)
{
    const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                         0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low4 = _mm256_set1_epi8(0x0f);
    __m256i lo = _mm256_shuffle_epi8(lut, _mm256_and_si256(v, low4));
    __m256i hi = _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(v, 4), low4));
    return _mm256_add_epi8(lo, hi);
}
static inline lsv_u32 lsv_bytecount(lsv_u32 w)
{
    return (lsv_u32)bytecount256((__m256i)w);
}
static inline lsv_u32 lsv_bytesum(lsv_u32 acc)
{
    const __m256i ones8 = _mm256_set1_epi8(1), ones16 = _mm256_set1_epi16(1);
    return (lsv_u32)_mm256_madd_epi16(_mm256_maddubs_epi16((__m256i)acc, ones8), ones16);
}
#define GRV_ACC lsv_u32
#define GRV_ACC_ADD(acc, w) ((acc) + lsv_bytecount(w))
#define GRV_ACC_TOTAL(acc) lsv_bytesum(acc)
#define GRV_ACC_MAX_WORDS 31u
#else
#define VL 4
typedef uint32_t lsv_u32 __attribute__((vector_size(VL * 4)));
/* Portable SWAR: per-byte bit counts with shifts and masks. */
static inline lsv_u32 lsv_bytecount(lsv_u32 v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (v + (v >> 4)) & 0x0F0F0F0Fu;
}
#define GRV_ACC lsv_u32
#define GRV_ACC_ADD(acc, w) ((acc) + lsv_bytecount(w))
#define GRV_ACC_TOTAL(acc) (((acc) * 0x01010101u) >> 24)
#define GRV_ACC_MAX_WORDS 31u
#endif

/* Streams per group: NV vectors of VL lanes, played interleaved so that
 * the core always has independent work while one generator step waits. */
#define LANES 16
#define NV (LANES / VL)

#define GRV_LANE lsv_u32
#define GRV_ZERO ((lsv_u32){0})
#define GRV_ACC_ZERO ((lsv_u32){0})
#include "graveler.h"

/* Plays the LANES streams s0 .. s0+LANES-1 in full and adds to hist[lane]
 * the battles whose index lies in [lo, hi). Inlined twice below so that the
 * compiler sees turns = 231 as a constant in the common case. */
static inline __attribute__((always_inline)) void
play_lanes(uint64_t seed, uint64_t s0, uint64_t lo, uint64_t hi, uint32_t turns,
           uint32_t *lanehist, uint32_t bins)
{
    uint32_t init[4][LANES];
    for (int l = 0; l < LANES; l++) {
        uint32_t st[4];
        grv_stream_state(seed, s0 + (uint64_t)l, st);
        for (int k = 0; k < 4; k++)
            init[k][l] = st[k];
    }
    grv_xs128 s[NV];
    for (int v = 0; v < NV; v++) {
        memcpy(&s[v].x, init[0] + v * VL, sizeof s[v].x);
        memcpy(&s[v].y, init[1] + v * VL, sizeof s[v].y);
        memcpy(&s[v].z, init[2] + v * VL, sizeof s[v].z);
        memcpy(&s[v].w, init[3] + v * VL, sizeof s[v].w);
    }

    uint64_t first = s0 * GRV_BATTLES_PER_STREAM;
    uint64_t last = (s0 + LANES) * GRV_BATTLES_PER_STREAM; /* exclusive */
    int whole = first >= lo && last <= hi;
    for (uint32_t j = 0; j < GRV_BATTLES_PER_STREAM; j++) {
        uint32_t c[LANES];
        for (int v = 0; v < NV; v++) {
            lsv_u32 cv = grv_battle(&s[v], turns);
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
