/* ray_golden.h - golden digests of small exact-mode images, from the
 * independent reference tests/ref_ray.c (`ref_ray --print` writes the
 * entries; the unit test recomputes them). The digest is FNV-1a 64 over the
 * width and height (4 bytes each, little-endian) and the RGB bytes, row 0
 * first (docs/ray.md). */
#ifndef LOCKSTEP_RAY_GOLDEN_H
#define LOCKSTEP_RAY_GOLDEN_H

#include <stdint.h>

typedef struct ray_golden {
    uint32_t width, height, samples;
    uint64_t seed;
    uint64_t digest;
} ray_golden;

static const ray_golden ray_golden_cases[] = {
    {16, 16, 4, 1u, 0x70fc0297a4eeb9c1ull},
    {33, 7, 3, 7u, 0x2e6f406d383c1d5aull},
    {1, 1, 1, 1u, 0x11332f72008a97ebull},
    {64, 64, 64, 1u, 0x6dc118fae066f03aull},
    {40, 24, 5, 12345678901234567u, 0x85e9e93841650ed5ull},
    {512, 512, 2, 1u, 0x5fd932fe96a166b9ull},
};
#define RAY_GOLDEN_COUNT ((int)(sizeof ray_golden_cases / sizeof ray_golden_cases[0]))

#endif
