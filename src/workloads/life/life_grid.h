/* life_grid.h - a Life grid on the host: one bit per cell, the packed
 * layout that every backend uses in memory (docs/life.md).
 *
 * Layout: rows of 32-bit words along x, the fastest axis. Cell (x, y, z)
 * is bit x % 32 of word (z * ny + y) * row_words + x / 32, with
 * row_words = ceil(nx / 32). Bits of a row's last word beyond nx are
 * padding and always 0 (every writer keeps them so: the update masks
 * them, loaders never set them). A 2D grid is a 3D grid with nz = 1.
 * A word is one GPU work-item's unit: a warp of 32 threads reads 128
 * consecutive bytes of a row at once, and the neighbours across a word
 * boundary are one shift away. */
#ifndef LOCKSTEP_LIFE_GRID_H
#define LOCKSTEP_LIFE_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define LIFE_MIN_SIZE 4u          /* smallest extent along any axis */
#define LIFE_MAX_SIZE 1048576u    /* largest along any axis (2^20) */
#define LIFE_MAX_CELLS (1ull << 40) /* 128 GiB of cells: far above any device */

typedef struct life_grid {
    unsigned dims;      /* 2 or 3 */
    uint32_t nx, ny, nz; /* extents; nz == 1 in 2D */
    uint32_t row_words; /* words per row, ceil(nx / 32) */
    uint32_t last_bits; /* cells in a row's last word, 1..32 */
    size_t nwords;      /* row_words * ny * nz */
    uint32_t *words;    /* the cells, 64-byte aligned */
    /* 0: a torus (every edge wraps around to the opposite one); 1: a
     * bounded plane, Golly's ":P" grid: the cells beyond every edge are
     * dead and stay dead. life_grid_init makes a torus. */
    int bounded;
} life_grid;

/* Checks extents (each at least LIFE_MIN_SIZE, at most LIFE_MAX_SIZE) for
 * a grid of `dims` dimensions: 0, or -1 with err->usage set. */
int life_grid_check_size(unsigned dims, uint64_t nx, uint64_t ny, uint64_t nz, ls_error *err);

/* An all-dead grid: 0, or -1 with err->usage set (a bad size, or one
 * this machine has no memory for: a message with the size needed). */
int life_grid_init(life_grid *g, unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz, ls_error *err);
/* As init, the cells left as the allocator gave them (for a grid that is
 * filled or read whole next: the pages are first touched by the threads
 * that fill them, and nothing is cleared twice). */
int life_grid_alloc(life_grid *g, unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz, ls_error *err);
void life_grid_free(life_grid *g);
/* Clears an allocated grid on every thread: its pages are faulted in in
 * parallel, before a device's copy (one thread) writes into them. */
void life_grid_touch(life_grid *g);
/* Host memory for cells (64-byte aligned; from 4 MiB on, in huge pages
 * where the system gives them: a gigabyte's 4 KiB pages cost a fault
 * each), freed with free(); NULL when there is none. */
void *life_alloc_cells(size_t bytes);
/* Clears nwords words on every thread (their pages faulted in at once). */
void life_touch_words(uint32_t *words, size_t nwords);
/* The fields of such a grid (a torus), without cells: words NULL, for a
 * grid that lives elsewhere (a slab on a device). */
void life_grid_shape(life_grid *g, unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz);

/* Bytes the cells of such a grid take (one bit per cell, padded rows). */
uint64_t life_grid_bytes(uint32_t nx, uint32_t ny, uint32_t nz);

/* Word index of row (y, z); cell access for loaders and tests. */
static inline size_t life_row(const life_grid *g, uint32_t y, uint32_t z)
{
    return ((size_t)z * g->ny + y) * g->row_words;
}
static inline int life_get(const life_grid *g, uint32_t x, uint32_t y, uint32_t z)
{
    return (int)(g->words[life_row(g, y, z) + x / 32] >> (x % 32) & 1u);
}
static inline void life_set(life_grid *g, uint32_t x, uint32_t y, uint32_t z, int alive)
{
    uint32_t *w = &g->words[life_row(g, y, z) + x / 32];
    uint32_t bit = 1u << (x % 32);
    *w = alive ? *w | bit : *w & ~bit;
}

/* round(density * 65536), what a lane is compared with. */
uint32_t life_fill_threshold(double density);


/* The grid digest, version 2 (docs/life.md), which any cut of the grid
 * along its slowest axis can compute in pieces: a unit is a row in 2D
 * and a plane in 3D; unit u's hash is XXH3-64 seeded with u of its rows'
 * cells packed 8 to a byte (first cell in the low bit, each row padded to
 * a whole byte with zeros), and the digest is XXH3-64 seeded with the
 * version (2) of nx, ny, nz and every unit's hash, as 8-byte
 * little-endian integers. Made by the host's threads, a unit each. */
#define LIFE_DIGEST_VERSION 2
uint64_t life_grid_digest(const life_grid *g);
/* Units of g: ny in 2D, nz in 3D. */
uint32_t life_grid_units(const life_grid *g);
/* The hash of g's unit `unit`, when g holds the units of a larger grid
 * from units_before on (a slab: its owned units, then the seed is the
 * unit's index in the whole grid). */
uint64_t life_grid_unit_hash(const life_grid *g, uint32_t unit, uint32_t units_before);
/* Units of g a thread hashes at a time: those of 256 KiB, at least one. */
int life_grid_hash_chunk(const life_grid *g);
/* The digest from every unit's hash, in order, of an nx x ny x nz grid. */
uint64_t life_grid_digest_of_units(uint32_t nx, uint32_t ny, uint32_t nz, const uint64_t *unit_hashes,
                                   uint32_t units);

#endif
