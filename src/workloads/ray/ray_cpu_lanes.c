/* ray_cpu_lanes.c - one tile of RAY_CPU_LANES pixels, the lanes side by
 * side: src/algo/ray_lanes.h, the SIMD form of ray_sample, whose lane
 * loops are OpenMP SIMD loops here.
 *
 * Compiled once per mode and instruction set (meson: RAY_MODE_NAME exact or
 * fast, RAY_VARIANT generic, avx2 or avx512). Exact mode is built with
 * -ffp-contract=off (plus -fno-math-errno -fno-trapping-math, which let
 * sqrtf and the branches vectorize and change no value), fast mode with
 * -ffast-math at compile time only (never at link time, where gcc would
 * switch the whole process to flushing denormals). */
#include <string.h>

#include "ray_cpu.h"

#define RAY_LANES_JOB ray_job
#define RAY_LANES_FN static
#define RAY_LANES_INLINE static inline
#define RAY_LANES_SIMD _Pragma("omp simd")
#define RAY_LANES_SIMD_WINDOW _Pragma("omp simd reduction(min : kmin, jmin) reduction(max : kmax, jmax)")
#include "ray_lanes.h"

#if RAY_LANES != RAY_CPU_LANES
#error "a tile is RAY_LANES pixels"
#endif

#define RAY_PASTE3(a, b, c) a##_##b##_##c
#define RAY_NAME(a, b, c) RAY_PASTE3(a, b, c)
#define RAY_TILE RAY_NAME(ray_tile, RAY_MODE_NAME, RAY_VARIANT)

void RAY_TILE(const ray_job *job, uint64_t first, int count, uint8_t *rgb)
{
    uint32_t pixel[RAY_LANES];
    float px[RAY_LANES], py[RAY_LANES], sx[RAY_LANES], sy[RAY_LANES], sz[RAY_LANES];
    for (int i = 0; i < RAY_LANES; i++) {
        /* Lanes past the end repeat the last pixel; their bytes are dropped. */
        uint64_t at = first + (uint64_t)(i < count ? i : count - 1);
        uint32_t row = (uint32_t)(at / job->width), col = (uint32_t)(at % job->width);
        pixel[i] = (uint32_t)at;
        px[i] = (float)(job->width - 1u - col);
        py[i] = (float)(job->height - 1u - row);
        sx[i] = sy[i] = sz[i] = 0.0f;
    }
    for (uint32_t s = 0; s < job->samples; s++)
        sample_lanes(job, pixel, px, py, s, sx, sy, sz);
    for (int i = 0; i < count; i++) {
        rgb[3 * i] = (uint8_t)ray_byte(ray_channel(sx[i], job->samples));
        rgb[3 * i + 1] = (uint8_t)ray_byte(ray_channel(sy[i], job->samples));
        rgb[3 * i + 2] = (uint8_t)ray_byte(ray_channel(sz[i], job->samples));
    }
}
