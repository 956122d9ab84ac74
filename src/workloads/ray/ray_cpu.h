/* ray_cpu.h - the business-card raytracer on the CPU (OpenMP threads, SIMD
 * lanes), exact and fast modes.
 *
 * The image is cut into ranges of pixels (row-major, row 0 at the top);
 * ray_cpu_render fills one range with RGB bytes. Threads take tiles of
 * RAY_CPU_LANES pixels; within a tile each SIMD lane follows one pixel's
 * paths (ray_cpu_lanes.c), so thread counts and vector widths never change
 * a byte: exact mode gives the image of src/algo/ray.h bit for bit. */
#ifndef LOCKSTEP_RAY_CPU_H
#define LOCKSTEP_RAY_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "ray.h"

#define RAY_MIN_SIZE 1u
#define RAY_MAX_SIZE 8192u
#define RAY_MIN_SAMPLES 1u
#define RAY_MAX_SAMPLES 4096u

#define RAY_MODE_EXACT 0
#define RAY_MODE_FAST 1

/* One image to render. */
typedef struct ray_job {
    uint32_t width, height; /* RAY_MIN_SIZE..RAY_MAX_SIZE each */
    uint32_t samples;       /* per pixel, RAY_MIN_SAMPLES..RAY_MAX_SAMPLES */
    uint64_t seed;
    int mode;          /* RAY_MODE_EXACT or RAY_MODE_FAST */
    ray_camera camera; /* ray_camera_make(width, height), set by ray_job_init */
} ray_job;

/* Fills job with its view; 0, or -1 with err->usage set when a size or the
 * sample count is out of range. */
int ray_job_init(ray_job *job, uint32_t width, uint32_t height, uint32_t samples, uint64_t seed, int mode,
                 ls_error *err);

/* Renders pixels first .. first+count-1 into rgb (3 * count bytes), on
 * all OpenMP threads. */
void ray_cpu_render(const ray_job *job, uint64_t first, uint64_t count, uint8_t *rgb);

/* The image's digest: FNV-1a 64 over the width and height (4 bytes each,
 * little-endian) and the RGB bytes, row 0 first (docs/ray.md). */
uint64_t ray_image_digest(const uint8_t *rgb, uint32_t width, uint32_t height);

/* The PSNR of image b against image a, n channel values each, in dB:
 * 10 log10(255^2 n / sum of squared differences), over all channel values
 * (docs/ray.md); INFINITY when they are identical. The one definition
 * that `check ray` prints and the tests hold fast mode to. */
double ray_image_psnr(const uint8_t *a, const uint8_t *b, size_t n);

/* The least PSNR (dB) that fast mode's image keeps from exact mode's at
 * `samples` samples per pixel, at any size: min(40, 30 + 10 log10(samples))
 * (docs/ray.md, "How close fast mode is"). The one home of that bound. */
double ray_fast_bound_db(uint32_t samples);

/* The instruction set ray_cpu_render uses here ("avx512", "avx2",
 * "generic"). */
const char *ray_cpu_variant(void);

/* ---- Per-instruction-set tiles (ray_cpu_lanes.c) ---------------------- */

#define RAY_CPU_LANES 16

/* Renders `count` (1..RAY_CPU_LANES) pixels from `first` into rgb. */
typedef void (*ray_tile_fn)(const ray_job *job, uint64_t first, int count, uint8_t *rgb);

#define RAY_TILE_DECLARE(mode, variant) \
    void ray_tile_##mode##_##variant(const ray_job *job, uint64_t first, int count, uint8_t *rgb);

RAY_TILE_DECLARE(exact, generic)
RAY_TILE_DECLARE(fast, generic)
#if defined(__x86_64__)
RAY_TILE_DECLARE(exact, avx2)
RAY_TILE_DECLARE(fast, avx2)
RAY_TILE_DECLARE(exact, avx512)
RAY_TILE_DECLARE(fast, avx512)
#endif

#endif
