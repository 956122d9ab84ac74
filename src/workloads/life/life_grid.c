/* life_grid.c - the host's Life grid: allocation, the threshold of the
 * random fill, and the digest. The layout is described in life_grid.h
 * and docs/life.md; the passes compiled per instruction set (the fill,
 * the population) are life_cpu.c's. */
#include "life_grid.h"

#include <math.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

#include "life.h"
#include "numbers.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

int life_grid_check_size(unsigned dims, uint64_t nx, uint64_t ny, uint64_t nz, ls_error *err)
{
    if (dims != 2 && dims != 3)
        return ls_fail_usage(err, "a Life grid has 2 or 3 dimensions, not %u", dims);
    if (dims == 2 && nz != 1)
        return ls_fail_usage(err, "a 2D grid has no third extent");
    uint64_t ext[3] = {nx, ny, nz};
    for (unsigned i = 0; i < dims; i++)
        if (ext[i] < LIFE_MIN_SIZE || ext[i] > LIFE_MAX_SIZE)
            return ls_fail_usage(err, "grid extent %llu is out of range: each side must be %u to %u cells",
                                 (unsigned long long)ext[i], LIFE_MIN_SIZE, LIFE_MAX_SIZE);
    if (nx * ny > LIFE_MAX_CELLS / nz)
        return ls_fail_usage(err, "a grid of %llu x %llu x %llu cells is too large (at most 2^40 cells)",
                             (unsigned long long)nx, (unsigned long long)ny, (unsigned long long)nz);
    return 0;
}

uint64_t life_grid_bytes(uint32_t nx, uint32_t ny, uint32_t nz)
{
    return (uint64_t)((nx + 31u) / 32u) * 4u * ny * nz;
}

int life_grid_init(life_grid *g, unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz, ls_error *err)
{
    if (life_grid_alloc(g, dims, nx, ny, nz, err))
        return -1;
    memset(g->words, 0, (g->nwords * sizeof *g->words + 63u) / 64u * 64u);
    return 0;
}

/* Huge pages are asked for from this size on. */
#define LIFE_HUGE_PAGE ((size_t)2 << 20)

void *life_alloc_cells(size_t bytes)
{
    if (bytes < 2 * LIFE_HUGE_PAGE)
        return aligned_alloc(64, (bytes + 63u) / 64u * 64u);
    size_t alloc = (bytes + LIFE_HUGE_PAGE - 1) / LIFE_HUGE_PAGE * LIFE_HUGE_PAGE;
    void *p = aligned_alloc(LIFE_HUGE_PAGE, alloc);
    /* Advice only: where the system gives no huge pages the memory works
     * as it is. */
    if (p)
        (void)madvise(p, alloc, MADV_HUGEPAGE);
    return p;
}

void life_touch_words(uint32_t *words, size_t nwords)
{
    /* Pieces of 2 MiB, a page fault each 4 KiB (or one a huge page). */
    const size_t piece = (size_t)1 << 19;
    int64_t pieces = (int64_t)((nwords + piece - 1) / piece);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < pieces; i++) {
        size_t first = (size_t)i * piece, n = nwords - first < piece ? nwords - first : piece;
        memset(words + first, 0, n * sizeof *words);
    }
}

int life_grid_alloc(life_grid *g, unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz, ls_error *err)
{
    memset(g, 0, sizeof *g);
    if (life_grid_check_size(dims, nx, ny, nz, err))
        return -1;
    uint64_t bytes = life_grid_bytes(nx, ny, nz);
    /* aligned_alloc wants a multiple of the alignment; SIMD loops like 64. */
    uint64_t alloc = (bytes + 63u) / 64u * 64u;
    /* A grid this machine cannot hold is refused as the user's input (exit
     * code 2), as one too large for a device is (life_gpu.h). */
    char need[LS_BYTES_TEXT];
    ls_format_bytes(bytes, need, sizeof need);
    if (alloc > SIZE_MAX)
        return ls_fail_usage(err, "the grid %ux%ux%u needs %s, more than this machine can address", nx, ny, nz, need);
    g->words = life_alloc_cells((size_t)alloc);
    if (!g->words)
        return ls_fail_usage(err, "the grid %ux%ux%u needs %s (one bit per cell); this machine does not have that much "
                                  "free memory",
                             nx, ny, nz, need);
    /* The padding past the last word (up to the alignment) is zero, so
     * that whole-vector loops read dead cells there. */
    memset((char *)g->words + bytes, 0, (size_t)(alloc - bytes));
    uint32_t *words = g->words;
    life_grid_shape(g, dims, nx, ny, nz);
    g->words = words;
    return 0;
}

void life_grid_touch(life_grid *g)
{
    life_touch_words(g->words, g->nwords);
}

void life_grid_shape(life_grid *g, unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz)
{
    memset(g, 0, sizeof *g);
    g->dims = dims;
    g->nx = nx;
    g->ny = ny;
    g->nz = nz;
    g->row_words = (nx + 31u) / 32u;
    g->last_bits = nx - (g->row_words - 1u) * 32u;
    g->nwords = (size_t)g->row_words * ny * nz;
}

void life_grid_free(life_grid *g)
{
    free(g->words);
    g->words = NULL;
}

uint32_t life_fill_threshold(double density)
{
    double t = density <= 0 ? 0 : density >= 1 ? 65536.0 : floor(density * 65536.0 + 0.5);
    return (uint32_t)t;
}

/* ---- the grid digest, version 2 (docs/life.md) ------------------------- */

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "the digest hashes a row's words as its cells packed low bit first: a little-endian host's bytes");

/* Bytes of a row's cells packed 8 to a byte. */
static size_t row_bytes(const life_grid *g)
{
    return ((size_t)g->nx + 7u) / 8u;
}

/* Row `row` (z * ny + y) into the hash: its words' bytes, the last byte's
 * cells beyond nx taken as dead whatever the word holds there. */
static void hash_row(XXH3_state_t *st, const life_grid *g, size_t row)
{
    const uint32_t *w = g->words + row * g->row_words;
    size_t n = row_bytes(g), whole = (size_t)(g->row_words - 1u) * 4u;
    uint32_t last = g->last_bits == 32 ? w[g->row_words - 1] : w[g->row_words - 1] & ((1u << g->last_bits) - 1u);
    XXH3_64bits_update(st, w, whole);
    XXH3_64bits_update(st, &last, n - whole);
}

uint64_t life_grid_unit_hash(const life_grid *g, uint32_t unit, uint32_t units_before)
{
    XXH3_state_t st;
    memset(&st, 0, sizeof st); /* reset_withSeed reads seed and extSecret to skip work */
    XXH3_64bits_reset_withSeed(&st, (uint64_t)unit + units_before);
    size_t rows = g->dims == 2 ? 1 : g->ny;
    for (size_t r = 0; r < rows; r++)
        hash_row(&st, g, (size_t)unit * rows + r);
    return XXH3_64bits_digest(&st);
}

uint32_t life_grid_units(const life_grid *g)
{
    return g->dims == 2 ? g->ny : g->nz;
}

uint64_t life_grid_digest_of_units(uint32_t nx, uint32_t ny, uint32_t nz, const uint64_t *unit_hashes,
                                   uint32_t units)
{
    XXH3_state_t st;
    memset(&st, 0, sizeof st); /* reset_withSeed reads seed and extSecret to skip work */
    XXH3_64bits_reset_withSeed(&st, LIFE_DIGEST_VERSION);
    uint64_t ext[3] = {nx, ny, nz};
    XXH3_64bits_update(&st, ext, sizeof ext);
    XXH3_64bits_update(&st, unit_hashes, (size_t)units * sizeof *unit_hashes);
    return XXH3_64bits_digest(&st);
}

int life_grid_hash_chunk(const life_grid *g)
{
    /* Units by the 256 KiB, and at least one: a piece of a few large
     * planes is shared among the threads too. */
    size_t unit_bytes = row_bytes(g) * (g->dims == 2 ? 1u : g->ny);
    return unit_bytes >= ((size_t)256 << 10) ? 1 : (int)(((size_t)256 << 10) / unit_bytes);
}

/* Every unit's hash of g, on every thread. */
static void hash_units(const life_grid *g, uint64_t *hashes)
{
    int chunk = life_grid_hash_chunk(g);
#pragma omp parallel for schedule(dynamic, chunk)
    for (int64_t u = 0; u < (int64_t)life_grid_units(g); u++)
        hashes[u] = life_grid_unit_hash(g, (uint32_t)u, 0);
}

uint64_t life_grid_digest(const life_grid *g)
{
    uint32_t units = life_grid_units(g);
    uint64_t *h = malloc((size_t)units * sizeof *h), digest = 0;
    if (h) {
        hash_units(g, h);
        digest = life_grid_digest_of_units(g->nx, g->ny, g->nz, h, units);
    } else {
        /* No memory for the list: the same hashes made one at a time. */
        XXH3_state_t st;
        memset(&st, 0, sizeof st); /* reset_withSeed reads seed and extSecret to skip work */
        XXH3_64bits_reset_withSeed(&st, LIFE_DIGEST_VERSION);
        uint64_t ext[3] = {g->nx, g->ny, g->nz};
        XXH3_64bits_update(&st, ext, sizeof ext);
        for (uint32_t u = 0; u < units; u++) {
            uint64_t one = life_grid_unit_hash(g, u, 0);
            XXH3_64bits_update(&st, &one, sizeof one);
        }
        digest = XXH3_64bits_digest(&st);
    }
    free(h);
    return digest;
}
