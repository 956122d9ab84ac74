/* ray_cpu.c - the OpenMP driver of the CPU raytracer: picks the widest
 * instruction set this CPU runs and hands tiles of pixels to the threads.
 * The host device (OpenMP) runs it as its kernels ray_exact and ray_fast
 * (ray_gpu.c's host programs). */
#include "ray_cpu.h"

#include <math.h>
#include <omp.h>
#include <stddef.h>

#include "cpu_isa.h"
#include "hash.h"

int ray_job_init(ray_job *job, uint32_t width, uint32_t height, uint32_t samples, uint64_t seed, int mode,
                 ls_error *err)
{
    if (width < RAY_MIN_SIZE || width > RAY_MAX_SIZE || height < RAY_MIN_SIZE || height > RAY_MAX_SIZE)
        return ls_fail_usage(err, "--size %ux%u: width and height must be %u..%u", width, height, RAY_MIN_SIZE,
                             RAY_MAX_SIZE);
    if (samples < RAY_MIN_SAMPLES || samples > RAY_MAX_SAMPLES)
        return ls_fail_usage(err, "--spp %u: samples per pixel must be %u..%u", samples, RAY_MIN_SAMPLES,
                             RAY_MAX_SAMPLES);
    if (mode != RAY_MODE_EXACT && mode != RAY_MODE_FAST)
        return ls_fail_usage(err, "--mode: must be exact or fast");
    job->width = width;
    job->height = height;
    job->samples = samples;
    job->seed = seed;
    job->mode = mode;
    job->camera = ray_camera_make(width, height);
    return 0;
}

uint64_t ray_image_digest(const uint8_t *rgb, uint32_t width, uint32_t height)
{
    uint8_t head[8];
    for (int i = 0; i < 4; i++) {
        head[i] = (uint8_t)(width >> (8 * i));
        head[4 + i] = (uint8_t)(height >> (8 * i));
    }
    uint64_t h = ls_fnv1a(LS_FNV_INIT, head, sizeof head);
    return ls_fnv1a(h, rgb, (size_t)width * height * 3);
}

double ray_image_psnr(const uint8_t *a, const uint8_t *b, size_t n)
{
    double se = 0;
    for (size_t i = 0; i < n; i++) {
        double e = (double)a[i] - (double)b[i];
        se += e * e;
    }
    /* The mean squared error of one level in one value of n is 1/n: never
     * so small that the quotient overflows, so 0 alone is identical. */
    return se == 0 ? INFINITY : 10.0 * log10(255.0 * 255.0 * (double)n / se);
}

double ray_fast_bound_db(uint32_t samples)
{
    /* The squared error falls as 1/samples (each pixel a mean of
     * independent changes), so 10 log10(samples) dB more per image, up to
     * the 40 dB the default image keeps with room to spare. */
    double bound = 30.0 + 10.0 * log10((double)samples);
    return bound < 40.0 ? bound : 40.0;
}

typedef struct tile_variant {
    const char *name;
    ray_tile_fn exact, fast;
} tile_variant;

/* The widest copy of the tile code that this CPU runs (cpu_isa.h). */
static const tile_variant *pick_variant(void)
{
    static const tile_variant generic = {"generic", ray_tile_exact_generic, ray_tile_fast_generic};
#if defined(__x86_64__)
    static const tile_variant avx2 = {"avx2", ray_tile_exact_avx2, ray_tile_fast_avx2};
    static const tile_variant avx512 = {"avx512", ray_tile_exact_avx512, ray_tile_fast_avx512};
    ls_isa isa = ls_cpu_isa();
    if (isa >= LS_ISA_AVX512)
        return &avx512;
    if (isa >= LS_ISA_AVX2)
        return &avx2;
#endif
    return &generic;
}

const char *ray_cpu_variant(void)
{
    return pick_variant()->name;
}

void ray_cpu_render(const ray_job *job, uint64_t first, uint64_t count, uint8_t *rgb)
{
    const tile_variant *v = pick_variant();
    ray_tile_fn tile = job->mode == RAY_MODE_FAST ? v->fast : v->exact;
    int64_t tiles = (int64_t)((count + RAY_CPU_LANES - 1) / RAY_CPU_LANES);
#pragma omp parallel for schedule(dynamic, 4)
    for (int64_t t = 0; t < tiles; t++) {
        uint64_t at = (uint64_t)t * RAY_CPU_LANES;
        uint64_t left = count - at;
        int n = left < RAY_CPU_LANES ? (int)left : RAY_CPU_LANES;
        tile(job, first + at, n, rgb + 3 * at);
    }
}
