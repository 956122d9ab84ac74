/* ref_life.c - the test-only reference Life (ref_life.h). Deliberately
 * naive: no bit tricks, no shared code with src/algo/life.h. */
#include "ref_life.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ref_init(ref_grid *g, unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz)
{
    g->dims = dims;
    g->nx = nx;
    g->ny = ny;
    g->nz = nz;
    g->bounded = 0;
    g->cells = calloc((size_t)nx * ny * nz, 1);
    if (!g->cells) {
        fprintf(stderr, "ref_life: out of memory for %ux%ux%u cells\n", nx, ny, nz);
        exit(1);
    }
}

void ref_free(ref_grid *g)
{
    free(g->cells);
    g->cells = NULL;
}

static size_t at(const ref_grid *g, uint32_t x, uint32_t y, uint32_t z)
{
    return ((size_t)z * g->ny + y) * g->nx + x;
}

/* v + d on a ring of n. */
static uint32_t wrap(uint32_t v, int d, uint32_t n)
{
    return (uint32_t)(((int64_t)v + d + n) % n);
}

/* Whether v + d lies in 0 .. n-1. */
static int inside(uint32_t v, int d, uint32_t n)
{
    int64_t w = (int64_t)v + d;
    return w >= 0 && w < (int64_t)n;
}

/* Live neighbours of (x, y, z), the cell itself not counted. On a bounded
 * plane a neighbour beyond an edge does not exist: it counts as dead. */
static unsigned neighbours(const ref_grid *g, uint32_t x, uint32_t y, uint32_t z)
{
    unsigned n = 0;
    int dz_lo = g->dims == 3 ? -1 : 0, dz_hi = g->dims == 3 ? 1 : 0;
    for (int dz = dz_lo; dz <= dz_hi; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if (dx == 0 && dy == 0 && dz == 0)
                    continue;
                if (g->bounded && !(inside(x, dx, g->nx) && inside(y, dy, g->ny) && inside(z, dz, g->nz)))
                    continue;
                n += g->cells[at(g, wrap(x, dx, g->nx), wrap(y, dy, g->ny), wrap(z, dz, g->nz))];
            }
    return n;
}

void ref_run(ref_grid *g, uint32_t birth, uint32_t survive, uint64_t steps)
{
    size_t n = (size_t)g->nx * g->ny * g->nz;
    uint8_t *next = malloc(n);
    if (!next) {
        fprintf(stderr, "ref_life: out of memory\n");
        exit(1);
    }
    for (uint64_t s = 0; s < steps; s++) {
        for (uint32_t z = 0; z < g->nz; z++)
            for (uint32_t y = 0; y < g->ny; y++)
                for (uint32_t x = 0; x < g->nx; x++) {
                    unsigned c = neighbours(g, x, y, z);
                    uint32_t set = g->cells[at(g, x, y, z)] ? survive : birth;
                    next[at(g, x, y, z)] = (uint8_t)((set >> c) & 1u);
                }
        memcpy(g->cells, next, n);
    }
    free(next);
}

void ref_from_grid(ref_grid *r, const life_grid *g)
{
    for (uint32_t z = 0; z < g->nz; z++)
        for (uint32_t y = 0; y < g->ny; y++)
            for (uint32_t x = 0; x < g->nx; x++)
                r->cells[at(r, x, y, z)] = (uint8_t)life_get(g, x, y, z);
}

int ref_equals_grid(const ref_grid *r, const life_grid *g, char *why, size_t why_len)
{
    for (uint32_t z = 0; z < g->nz; z++)
        for (uint32_t y = 0; y < g->ny; y++) {
            for (uint32_t x = 0; x < g->nx; x++)
                if (r->cells[at(r, x, y, z)] != life_get(g, x, y, z)) {
                    snprintf(why, why_len, "cell (%u,%u,%u): reference %d, packed %d", x, y, z,
                             r->cells[at(r, x, y, z)], life_get(g, x, y, z));
                    return 0;
                }
            uint32_t last = g->words[life_row(g, y, z) + g->row_words - 1];
            if (g->last_bits < 32 && (last >> g->last_bits) != 0) {
                snprintf(why, why_len, "row (%u,%u): padding bits set", y, z);
                return 0;
            }
        }
    return 1;
}

uint64_t ref_population(const ref_grid *g)
{
    uint64_t n = 0;
    for (size_t i = 0; i < (size_t)g->nx * g->ny * g->nz; i++)
        n += g->cells[i];
    return n;
}

uint64_t ref_digest_v2(const ref_grid *g)
{
    size_t row_bytes = (g->nx + 7u) / 8u, rows_a_unit = g->dims == 2 ? 1 : g->ny;
    size_t units = g->dims == 2 ? g->ny : g->nz;
    uint8_t *unit = calloc(rows_a_unit * row_bytes, 1);
    uint8_t *list = malloc(24 + 8 * units);
    if (!unit || !list) {
        printf("FAIL out of memory\n");
        exit(1);
    }
    uint64_t ext[3] = {g->nx, g->ny, g->nz};
    for (int i = 0; i < 24; i++)
        list[i] = (uint8_t)(ext[i / 8] >> (8 * (i % 8)));
    for (size_t u = 0; u < units; u++) {
        memset(unit, 0, rows_a_unit * row_bytes);
        for (size_t r = 0; r < rows_a_unit; r++)
            for (size_t x = 0; x < g->nx; x++)
                if (g->cells[(u * rows_a_unit + r) * g->nx + x])
                    unit[r * row_bytes + x / 8] |= (uint8_t)(1u << (x % 8));
        uint64_t h = XXH3_64bits_withSeed(unit, rows_a_unit * row_bytes, u);
        for (int i = 0; i < 8; i++)
            list[24 + 8 * u + (size_t)i] = (uint8_t)(h >> (8 * i));
    }
    uint64_t digest = XXH3_64bits_withSeed(list, 24 + 8 * units, 2);
    free(unit);
    free(list);
    return digest;
}
