/* ref_life.h - an obviously correct Life, for tests only: a byte per
 * cell, every neighbour counted one by one, indices wrapped with % on a
 * torus, skipped beyond the edges on a bounded plane. */
#ifndef LOCKSTEP_REF_LIFE_H
#define LOCKSTEP_REF_LIFE_H

#include <stdint.h>

#include "life_grid.h"

typedef struct ref_grid {
    unsigned dims;
    uint32_t nx, ny, nz;
    uint8_t *cells; /* cell (x, y, z) at (z * ny + y) * nx + x, 0 or 1 */
    int bounded;    /* 0: a torus; 1: a bounded plane, nothing beyond the edges */
} ref_grid;

/* A torus; set bounded after for a plane. Exits the test with a message
 * when out of memory. */
void ref_init(ref_grid *g, unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz);
void ref_free(ref_grid *g);

/* `steps` generations: a dead cell with n live neighbours is born when bit
 * n of birth is set, a live one survives when bit n of survive is set. */
void ref_run(ref_grid *g, uint32_t birth, uint32_t survive, uint64_t steps);

/* Copies between the reference and the packed grid (same extents). */
void ref_from_grid(ref_grid *r, const life_grid *g);
/* 1 when every cell agrees (and the packed grid's padding is 0). */
int ref_equals_grid(const ref_grid *r, const life_grid *g, char *why, size_t why_len);

uint64_t ref_population(const ref_grid *g);

/* The grid digest, version 2, as docs/life.md defines it, made from the
 * byte-per-cell grid with xxHash's XXH3 (not from life_grid.c's code):
 * each row packed 8 cells a byte, low bit first, padded to a byte; a unit
 * (a row in 2D, a plane in 3D) hashed with its index as seed; the digest
 * the hash, seeded with 2, of nx, ny, nz and the units' hashes. */
uint64_t ref_digest_v2(const ref_grid *g);

#endif
