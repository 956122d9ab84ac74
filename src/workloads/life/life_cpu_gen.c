/* life_cpu_gen.c - the generation loop of Life on the CPU, compiled once
 * per instruction set (LIFE_VARIANT names the copy; meson.build).
 *
 * Work unit: a strip of `strip` consecutive output rows (2D), or such a
 * strip through `slab` consecutive planes (3D). For a strip of a plane a
 * thread first computes the row sums (west + centre + east, two
 * bit-planes, life_row_sum) of the input rows it needs: the strip's rows
 * and one halo row above and below. The strip's rows are contiguous in
 * memory, so one flat
 * loop over all their words vectorizes whatever the row length; only the
 * first and last word of each row see the torus seam, and those are
 * recomputed after the loop (seam_words). Then a second flat loop adds
 * three row sums into the 3x3 sum of a plane; in 2D it applies the rule
 * right away. In 3D the plane sums of three consecutive planes are kept,
 * rotating, and a third loop adds them into the 3x3x3 sum and applies the
 * rule. All loops go word by word, 32 cells at a time (16 words per
 * AVX-512 instruction); the scratch stays in L2.
 *
 * A bounded plane (job->bounded) is the same loop with nothing wrapping:
 * the seam words take dead cells for the row's far end, and the row sums
 * (plane sums) of the rows (planes) beyond the edges are zeros. That costs
 * the torus a test per row seam and per strip, nothing per word.
 *
 * Every word's next state depends only on the current grid, so strips are
 * independent and the result does not depend on the thread count. */
#include <string.h>
#include <omp.h>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif
#include <stddef.h>

#include "life.h"
#include "life_cpu.h"

#ifndef LIFE_VARIANT
#error "LIFE_VARIANT must name the copy (generic, avx2, avx512)"
#endif
#define LIFE_CAT2(a, b) a##_##b
#define LIFE_CAT(a, b) LIFE_CAT2(a, b)

#define LIFE_INLINE static inline __attribute__((always_inline))

/* Row sums of word 0 and word W-1 of one row, where the torus wraps; a
 * bounded plane (wraps = 0) has dead cells beyond both ends instead. */
static void seam_words(const uint32_t *row, uint32_t W, uint32_t last_bits, uint32_t wraps, uint32_t *s0,
                       uint32_t *s1)
{
    uint32_t first_cell = row[0] & wraps;
    uint32_t last_cell = row[W - 1] >> (last_bits - 1u) & wraps;
    uint32_t w = row[0];
    uint32_t east = W > 1 ? life_east(w, row[1]) : life_east_last(w, first_cell, last_bits);
    life_row_sum(life_west_first(w, last_cell), w, east, &s0[0], &s1[0]);
    if (W > 1) {
        w = row[W - 1];
        life_row_sum(life_west(w, row[W - 2]), w, life_east_last(w, first_cell, last_bits), &s0[W - 1],
                     &s1[W - 1]);
    }
}

/* Row sums of `nrows` rows stored one after another at src (wraps: 1 on
 * a torus, 0 on a bounded plane). */
static void row_sums(const uint32_t *restrict src, size_t nrows, uint32_t W, uint32_t last_bits, uint32_t wraps,
                     uint32_t *restrict s0, uint32_t *restrict s1)
{
    size_t n = nrows * W;
    /* Words 0 and n-1 would read outside the rows; they are seams anyway. */
    for (size_t i = 1; i + 1 < n; i++)
        life_row_sum(life_west(src[i], src[i - 1]), src[i], life_east(src[i], src[i + 1]), &s0[i], &s1[i]);
    for (size_t r = 0; r < nrows; r++)
        seam_words(src + r * W, W, last_bits, wraps, s0 + r * W, s1 + r * W);
}

/* Row sums of the row `y` of plane (the row beyond an edge: y wrapped
 * on a torus, dead on a bounded plane) into s0, s1. */
static void halo_row_sums(const life_cpu_job *job, const uint32_t *plane, int64_t y, uint32_t *s0, uint32_t *s1)
{
    uint32_t W = job->row_words, ny = job->ny, wraps = !job->bounded;
    if (y >= 0 && y < (int64_t)ny) {
        row_sums(plane + (size_t)y * W, 1, W, job->last_bits, wraps, s0, s1);
    } else if (wraps) {
        row_sums(plane + (size_t)((y + ny) % ny) * W, 1, W, job->last_bits, wraps, s0, s1);
    } else {
        memset(s0, 0, W * sizeof *s0);
        memset(s1, 0, W * sizeof *s1);
    }
}

/* Row sums of rows y0-1 .. y0+rows of plane z into the two planes s
 * (scratch rows 0 .. rows+1). */
static void strip_row_sums(const life_cpu_job *job, const uint32_t *grid, uint32_t z, uint32_t y0, uint32_t rows,
                           uint32_t *s0, uint32_t *s1)
{
    uint32_t W = job->row_words, ny = job->ny;
    const uint32_t *plane = grid + (size_t)z * ny * W;
    halo_row_sums(job, plane, (int64_t)y0 - 1, s0, s1);
    row_sums(plane + (size_t)y0 * W, rows, W, job->last_bits, !job->bounded, s0 + W, s1 + W);
    halo_row_sums(job, plane, (int64_t)y0 + rows, s0 + (size_t)(rows + 1) * W, s1 + (size_t)(rows + 1) * W);
}

/* Clears the padding bits of the last word of each of `rows` rows. */
static void clear_padding(uint32_t *out, uint32_t rows, uint32_t W, uint32_t last_bits)
{
    uint32_t mask = life_valid_mask(last_bits);
    if (mask == 0xffffffffu)
        return;
    for (uint32_t r = 0; r < rows; r++)
        out[(size_t)r * W + W - 1] &= mask;
}

/* 2D: n words of output from the row sums s0/s1 (row k of the scratch is
 * input row k-1 of the strip) and the cells themselves. */
LIFE_INLINE void update_2d(life_rule rule, size_t n, size_t W, const uint32_t *restrict self,
                           const uint32_t *restrict s0, const uint32_t *restrict s1, uint32_t *restrict out)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t p0, p1, p2, p3;
        life_plane_sum(s0[i], s1[i], s0[i + W], s1[i + W], s0[i + 2 * W], s1[i + 2 * W], &p0, &p1, &p2, &p3);
        out[i] = life_rule_2d(rule, self[i], p0, p1, p2, p3);
    }
}

/* 3D: n words of output from the 3x3 sums (four planes each) of the
 * plane before (a), at (b) and after (c) the output plane. */
LIFE_INLINE void update_3d(life_rule rule, size_t n, const uint32_t *restrict self, const uint32_t *const *a,
                           const uint32_t *const *b, const uint32_t *const *c, uint32_t *restrict out)
{
    const uint32_t *restrict a0 = a[0], *restrict a1 = a[1], *restrict a2 = a[2], *restrict a3 = a[3];
    const uint32_t *restrict b0 = b[0], *restrict b1 = b[1], *restrict b2 = b[2], *restrict b3 = b[3];
    const uint32_t *restrict c0 = c[0], *restrict c1 = c[1], *restrict c2 = c[2], *restrict c3 = c[3];
    for (size_t i = 0; i < n; i++)
        out[i] = life_word_3d(rule, self[i], a0[i], a1[i], a2[i], a3[i], b0[i], b1[i], b2[i], b3[i], c0[i], c1[i],
                              c2[i], c3[i]);
}

/* The 3x3 sums (four planes p[0..3]) of rows y0 .. y0+rows-1 of plane z,
 * through the row sums s0, s1 (rows+2 rows each). Plane z may be one
 * beyond an edge (-1 or nz): wrapped on a torus, all zeros (dead) on a
 * bounded plane. */
static void plane_sums(const life_cpu_job *job, const uint32_t *grid, int64_t z, uint32_t y0, uint32_t rows,
                       uint32_t *restrict s0, uint32_t *restrict s1, uint32_t *const *p)
{
    size_t W = job->row_words, n = (size_t)rows * W;
    if (z < 0 || z >= (int64_t)job->nz) {
        if (job->bounded) {
            for (int b = 0; b < 4; b++)
                memset(p[b], 0, n * sizeof *p[b]);
            return;
        }
        z = (z + job->nz) % job->nz;
    }
    strip_row_sums(job, grid, (uint32_t)z, y0, rows, s0, s1);
    uint32_t *restrict p0 = p[0], *restrict p1 = p[1], *restrict p2 = p[2], *restrict p3 = p[3];
    for (size_t i = 0; i < n; i++)
        life_plane_sum(s0[i], s1[i], s0[i + W], s1[i + W], s0[i + 2 * W], s1[i + 2 * W], &p0[i], &p1[i], &p2[i],
                       &p3[i]);
}

/* The update loops once per rule shape: with the default rules as
 * constants, which the compiler folds into a few operations, and with any
 * rule from the job. */
static void update_2d_b3s23(life_rule rule, size_t n, size_t W, const uint32_t *self, const uint32_t *s0,
                            const uint32_t *s1, uint32_t *out)
{
    (void)rule;
    const life_rule conway = {LIFE_B3S23_BIRTH, LIFE_B3S23_SURVIVE};
    update_2d(conway, n, W, self, s0, s1, out);
}

static void update_2d_any(life_rule rule, size_t n, size_t W, const uint32_t *self, const uint32_t *s0,
                          const uint32_t *s1, uint32_t *out)
{
    update_2d(rule, n, W, self, s0, s1, out);
}

static void update_3d_b6s567(life_rule rule, size_t n, const uint32_t *self, const uint32_t *const *a,
                             const uint32_t *const *b, const uint32_t *const *c, uint32_t *out)
{
    (void)rule;
    const life_rule bays = {LIFE_B6S567_BIRTH, LIFE_B6S567_SURVIVE};
    update_3d(bays, n, self, a, b, c, out);
}

static void update_3d_any(life_rule rule, size_t n, const uint32_t *self, const uint32_t *const *a,
                          const uint32_t *const *b, const uint32_t *const *c, uint32_t *out)
{
    update_3d(rule, n, self, a, b, c, out);
}

typedef void (*update_2d_fn)(life_rule, size_t, size_t, const uint32_t *, const uint32_t *, const uint32_t *,
                             uint32_t *);
typedef void (*update_3d_fn)(life_rule, size_t, const uint32_t *, const uint32_t *const *, const uint32_t *const *,
                             const uint32_t *const *, uint32_t *);

/* One strip: rows y0 .. y0+rows-1 of plane z, from cur into next. */
static void strip_2d(const life_cpu_job *job, update_2d_fn update, const uint32_t *cur, uint32_t *next,
                     uint32_t y0, uint32_t rows, uint32_t *scratch)
{
    size_t W = job->row_words, span = (size_t)(rows + 2) * W;
    uint32_t *s0 = scratch, *s1 = scratch + span;
    strip_row_sums(job, cur, 0, y0, rows, s0, s1);
    size_t at = (size_t)y0 * W;
    update(job->rule, (size_t)rows * W, W, cur + at, s0, s1, next + at);
    clear_padding(next + at, rows, (uint32_t)W, job->last_bits);
}

/* One 3D work unit: rows y0 .. y0+rows-1 of planes z0 .. z1-1. The 3x3
 * sums of three consecutive planes rotate through three slots of the
 * scratch, so that each plane's sums are made once, not three times. */
static void slab_3d(const life_cpu_job *job, update_3d_fn update, const uint32_t *cur, uint32_t *next, uint32_t y0,
                    uint32_t rows, uint32_t z0, uint32_t z1, uint32_t *scratch)
{
    size_t W = job->row_words, n = (size_t)rows * W, span = (size_t)(rows + 2) * W;
    uint32_t *s0 = scratch, *s1 = scratch + span;
    uint32_t *slot[3][4];
    for (int k = 0; k < 3; k++)
        for (int b = 0; b < 4; b++)
            slot[k][b] = scratch + 2 * span + (size_t)(4 * k + b) * n;
    /* Plane z0 - 1 + i lives in slot i % 3. */
    plane_sums(job, cur, (int64_t)z0 - 1, y0, rows, s0, s1, slot[0]);
    plane_sums(job, cur, z0, y0, rows, s0, s1, slot[1]);
    for (uint32_t z = z0; z < z1; z++) {
        uint32_t i = z - z0;
        plane_sums(job, cur, (int64_t)z + 1, y0, rows, s0, s1, slot[(i + 2) % 3]);
        size_t at = ((size_t)z * job->ny + y0) * W;
        update(job->rule, n, cur + at, (const uint32_t *const *)slot[i % 3],
               (const uint32_t *const *)slot[(i + 1) % 3], (const uint32_t *const *)slot[(i + 2) % 3], next + at);
        clear_padding(next + at, rows, (uint32_t)W, job->last_bits);
    }
}

static int is_rule(life_rule r, uint32_t birth, uint32_t survive)
{
    return r.birth == birth && r.survive == survive;
}

uint32_t *LIFE_CAT(life_cpu_generations, LIFE_VARIANT)(const life_cpu_job *job)
{
    update_2d_fn u2 = is_rule(job->rule, LIFE_B3S23_BIRTH, LIFE_B3S23_SURVIVE) ? update_2d_b3s23 : update_2d_any;
    update_3d_fn u3 = is_rule(job->rule, LIFE_B6S567_BIRTH, LIFE_B6S567_SURVIVE) ? update_3d_b6s567 : update_3d_any;
    uint32_t strips = (job->ny + job->strip - 1u) / job->strip;
    uint32_t slabs = (job->nz + job->slab - 1u) / job->slab; /* 1 in 2D */
    int64_t units = (int64_t)strips * slabs;
    uint32_t *result = job->steps % 2 ? job->next : job->cur;
#pragma omp parallel num_threads(job->threads)
    {
        uint32_t *scratch = job->scratch + (size_t)omp_get_thread_num() * job->scratch_words;
        uint32_t *cur = job->cur, *next = job->next;
        for (uint64_t step = 0; step < job->steps; step++) {
#pragma omp for schedule(static)
            for (int64_t u = 0; u < units; u++) {
                uint32_t y0 = (uint32_t)(u % strips) * job->strip, z0 = (uint32_t)(u / strips) * job->slab;
                uint32_t rows = job->ny - y0 < job->strip ? job->ny - y0 : job->strip;
                uint32_t z1 = job->nz - z0 < job->slab ? job->nz : z0 + job->slab;
                if (job->dims == 2)
                    strip_2d(job, u2, cur, next, y0, rows, scratch);
                else
                    slab_3d(job, u3, cur, next, y0, rows, z0, z1, scratch);
            }
            /* The for's barrier has ended the generation on every thread. */
            uint32_t *t = cur;
            cur = next;
            next = t;
        }
    }
    return result;
}

/* ---- the random fill (docs/life.md; life_grid_fill_random) ---------------- */

/* Cells of a row drawn at once, and the most Philox blocks they lie in. */
#define FILL_PIECE 1024u
#define FILL_BLOCKS (FILL_PIECE / 8u + 2u)

/* Philox4x32-10 of `n` consecutive blocks from `first` on, the four words
 * of block i at c[0][i] .. c[3][i]: src/algo/philox.h's rounds written
 * over arrays, so that the compiler runs them across blocks in vector
 * registers (ls_philox4x32_10 is one block at a time). */
#if defined(__AVX512F__)
/* Both halves of 16 products of 32 bits: vpmuludq on the even lanes and
 * on the odd ones moved down (GCC's vectorized 64-bit multiply is vpmullq,
 * three times the work). */
LIFE_INLINE void mul_wide16(__m512i x, __m512i m, __m512i *hi, __m512i *lo)
{
    __m512i even = _mm512_mul_epu32(x, m), odd = _mm512_mul_epu32(_mm512_srli_epi64(x, 32), m);
    *hi = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even, 32), odd);
    *lo = _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
}

/* The rounds for blocks [0, n16) of c, 16 at a time; returns n16. */
static uint32_t philox_rounds16(uint32_t n, uint64_t seed, uint32_t c[4][FILL_BLOCKS])
{
    uint32_t n16 = n / 16u * 16u;
    const __m512i m0 = _mm512_set1_epi64(LS_PHILOX_M0), m1 = _mm512_set1_epi64(LS_PHILOX_M1);
    for (uint32_t i = 0; i < n16; i += 16) {
        __m512i c0 = _mm512_loadu_si512(&c[0][i]), c1 = _mm512_loadu_si512(&c[1][i]);
        __m512i c2 = _mm512_loadu_si512(&c[2][i]), c3 = _mm512_loadu_si512(&c[3][i]);
        uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
        for (int r = 0; r < 10; r++) {
            __m512i hi0, lo0, hi1, lo1;
            mul_wide16(c0, m0, &hi0, &lo0);
            mul_wide16(c2, m1, &hi1, &lo1);
            c0 = _mm512_xor_si512(_mm512_xor_si512(hi1, c1), _mm512_set1_epi32((int)k0));
            c2 = _mm512_xor_si512(_mm512_xor_si512(hi0, c3), _mm512_set1_epi32((int)k1));
            c1 = lo1;
            c3 = lo0;
            k0 += LS_PHILOX_W0;
            k1 += LS_PHILOX_W1;
        }
        _mm512_storeu_si512(&c[0][i], c0);
        _mm512_storeu_si512(&c[1][i], c1);
        _mm512_storeu_si512(&c[2][i], c2);
        _mm512_storeu_si512(&c[3][i], c3);
    }
    return n16;
}
#endif

static void philox_blocks(uint64_t first, uint32_t n, uint64_t seed, uint32_t c[4][FILL_BLOCKS])
{
    for (uint32_t i = 0; i < n; i++) {
        c[0][i] = (uint32_t)(first + i);
        c[1][i] = (uint32_t)((first + i) >> 32);
        c[2][i] = LIFE_FILL_TAG;
        c[3][i] = 0u;
    }
    uint32_t done = 0, k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
#if defined(__AVX512F__)
    done = philox_rounds16(n, seed, c);
#endif
    for (int r = 0; r < 10; r++) {
        for (uint32_t i = done; i < n; i++) {
            uint64_t p0 = (uint64_t)LS_PHILOX_M0 * c[0][i], p1 = (uint64_t)LS_PHILOX_M1 * c[2][i];
            uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1][i] ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c[3][i] ^ k1;
            c[1][i] = (uint32_t)p1;
            c[3][i] = (uint32_t)p0;
            c[0][i] = n0;
            c[2][i] = n2;
        }
        k0 += LS_PHILOX_W0;
        k1 += LS_PHILOX_W1;
    }
}

/* Words w[x0/32 ..] of the row whose first cell is k0: cells x0 .. x0+n-1
 * (x0 a multiple of 32, n at most FILL_PIECE). */
static void fill_piece(uint32_t *w, uint64_t k0, uint32_t x0, uint32_t n, uint64_t seed, uint32_t threshold)
{
    uint32_t c[4][FILL_BLOCKS];
    uint16_t lanes[8 * FILL_BLOCKS + 32];
    uint64_t first = (k0 + x0) / 8, last = (k0 + x0 + n - 1) / 8;
    uint32_t nb = (uint32_t)(last - first + 1);
    philox_blocks(first, nb, seed, c);
    for (uint32_t i = 0; i < nb; i++)
        for (uint32_t j = 0; j < 8; j++)
            lanes[8 * i + j] = (uint16_t)(c[j / 2][i] >> (16 * (j % 2)));
    /* A short last word reads lanes past its cells (masked off after). */
    memset(lanes + 8 * nb, 0, 32 * sizeof *lanes);
    const uint16_t *cell = lanes + (k0 + x0) % 8;
#if defined(__AVX512BW__)
    /* 32 lanes compared at once give the word as a mask (a threshold of
     * 65536, density 1, is no 16-bit number: every cell lives). */
    const __m512i below = _mm512_set1_epi16((short)(uint16_t)threshold);
#endif
    for (uint32_t j = 0; j * 32 < n; j++) {
        uint32_t word = 0, bits = n - j * 32 < 32 ? n - j * 32 : 32;
#if defined(__AVX512BW__)
        word = threshold > 0xffffu ? ~0u
                                   : (uint32_t)_mm512_cmplt_epu16_mask(_mm512_loadu_si512(cell + j * 32), below);
#else
        for (uint32_t i = 0; i < 32; i++)
            word |= (uint32_t)(cell[j * 32 + i] < threshold) << i;
#endif
        w[x0 / 32 + j] = bits == 32 ? word : word & ((1u << bits) - 1u);
    }
}

void LIFE_CAT(life_cpu_fill, LIFE_VARIANT)(uint32_t *words, uint32_t nx, uint32_t row_words, uint64_t row0,
                                            uint64_t rows, uint64_t seed, uint32_t threshold)
{
#pragma omp parallel for schedule(static)
    for (int64_t row = 0; row < (int64_t)rows; row++)
        for (uint32_t x0 = 0; x0 < nx; x0 += FILL_PIECE)
            fill_piece(words + (uint64_t)row * row_words, (row0 + (uint64_t)row) * nx, x0,
                       nx - x0 < FILL_PIECE ? nx - x0 : FILL_PIECE, seed, threshold);
}

/* Live cells of 64 cells: POPCNT where the copy has it (x86-64-v3 and
 * v4), else the bits added by fields (the baseline copy, where the
 * compiler's count is a library call). */
LIFE_INLINE uint64_t count64(uint64_t v)
{
#if defined(__POPCNT__)
    return (uint64_t)__builtin_popcountll(v);
#else
    v = v - (v >> 1 & 0x5555555555555555u);
    v = (v & 0x3333333333333333u) + (v >> 2 & 0x3333333333333333u);
    v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (v * 0x0101010101010101u) >> 56;
#endif
}

uint64_t LIFE_CAT(life_cpu_population, LIFE_VARIANT)(const uint32_t *words, size_t n)
{
    uint64_t pop = 0;
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        uint64_t two;
        memcpy(&two, words + i, sizeof two);
        pop += count64(two);
    }
    return i < n ? pop + count64(words[i]) : pop;
}
