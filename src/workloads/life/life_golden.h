/* life_golden.h - conformance cases of Life with answers from the test-only
 * byte-per-cell reference (tests/ref_life.c; tests/ref_life_golden.c
 * recomputes every entry and fails when one differs, and with --print
 * writes the table below, answers included: the table is made by it,
 * never edited by hand). The start is the random fill of life_grid.c
 * (seed, density), on a torus or a bounded plane; the digests are version 2
 * (docs/life.md), made by ref_digest_v2 from the reference's cells. */
#ifndef LOCKSTEP_LIFE_GOLDEN_H
#define LOCKSTEP_LIFE_GOLDEN_H

#include <stdint.h>

typedef struct life_golden {
    const char *name;
    unsigned dims;
    uint32_t nx, ny, nz;
    uint32_t birth, survive;
    uint64_t steps, seed;
    double density;
    int bounded; /* 0: a torus; 1: a bounded plane (Golly's :P) */
    uint64_t population, digest;
} life_golden;

#define LIFE_GOLDEN_COUNT 10
static const life_golden life_golden_cases[LIFE_GOLDEN_COUNT] = {
    {"life 2D 301x203 B3/S23, 13 generations", 2, 301, 203, 1, 0x8, 0xc, 13, 1, 0.5, 0, 11048, 0x4744c78aa4996f66ull},
    {"life 2D 37x65 B03/S28 (B0), 7 generations", 2, 37, 65, 1, 0x9, 0x104, 7, 2, 0.5, 0, 724, 0x1ec07bda65aa0255ull},
    {"life 2D 64x64 B36/S23, 33 generations", 2, 64, 64, 1, 0x48, 0xc, 33, 3, 0.3, 0, 728, 0x1466dd80bae437c5ull},
    {"life 3D 33x20x17 B6/S567, 9 generations", 3, 33, 20, 17, 0x40, 0xe0, 9, 4, 0.2, 0, 1620, 0x32bc75e02bca045full},
    {"life 3D 45x7x31 B0,6/S5,26 (B0), 5 generations", 3, 45, 7, 31, 0x41, 0x4000020, 5, 5, 0.3, 0, 1487, 0x3e622578fc074819ull},
    {"life 3D 32x32x32 B5,13-15/S4-6,10, 6 generations", 3, 32, 32, 32, 0xe020, 0x470, 6, 6, 0.2, 0, 7755, 0xec32f03959fee6d7ull},
    {"life 2D 100x37 plane B3/S23, 21 generations", 2, 100, 37, 1, 0x8, 0xc, 21, 7, 0.4, 1, 500, 0x2856b707f0e22bf3ull},
    {"life 2D 37x65 plane B03/S28 (B0), 7 generations", 2, 37, 65, 1, 0x9, 0x104, 7, 8, 0.5, 1, 731, 0xfb72c68dee9dc7eaull},
    {"life 3D 33x20x17 plane B6/S567, 9 generations", 3, 33, 20, 17, 0x40, 0xe0, 9, 9, 0.2, 1, 772, 0x989412115d512bdeull},
    {"life 3D 9x5x70 plane B0,6/S5,26 (B0), 5 generations", 3, 9, 5, 70, 0x41, 0x4000020, 5, 10, 0.3, 1, 697, 0x2be99ed1ca343f85ull},
};

#endif
