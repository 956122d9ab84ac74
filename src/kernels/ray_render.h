/* ray_render.h - the raytracer's GPU kernel, written once for both modes:
 * ray_kernels.h builds it under the exact floating-point rule as
 * ray_exact, ray_fast_kernels.h with fast math as ray_fast (RAY_KERNEL is
 * the name). The scene, the path and the pixel are src/algo/ray.h.
 *
 * Why not one work-item per pixel: a pixel's 64 paths one after another
 * make long threads of uneven length (sky pixels are quick, pixels on the
 * spheres slow), a grid of about two waves whose tail dominates, and warps
 * that wait at every sample for their longest path. Here a group renders
 * `per_group` consecutive pixels of the range first .. first+count-1
 * (row-major over the whole image), all their samples at once:
 *   - the group's (pixel, sample) pairs, pixel-major, are done in rounds of
 *     `round` pairs; work-item t takes pairs t, t + group size, ... of the
 *     round and starts the next as soon as its path ends (ray_path_step),
 *     so a lane never idles while the rest of its warp finishes a long
 *     path, unless it has nothing left;
 *   - each sample's 3.5 * colour goes to local memory, slot by pair;
 *   - after a barrier, work-item t < 3 per_group adds channel t % 3 of
 *     pixel t / 3 of the round to its sum, in sample order: the same
 *     additions in the same order as ray_pixel, so the same bits.
 * The host sizes per_group so that a round holds whole pixels (or one
 * pixel needs several rounds) and 3 per_group <= group size;
 * `colours` holds 3 * round floats. */
#if LS_SHAPE == LS_SHAPE_CPU
/* The CPU shape (src/shape.h): a group is a loop over its work-items on
 * one core, which PoCL vectorizes only where the loop's body has no loop
 * of its own, and a path's body has several. So a work-item renders
 * tiles of RAY_LANES consecutive pixels with ray_lanes.h, as OpenMP's
 * threads do: the lanes side by side in its private arrays, whose loops
 * the OpenCL compiler vectorizes (one vector test a sphere for all
 * lanes); the same additions in the same order, so the same bits.
 * Work-item gid renders pixels first + 16 gid .. first + 16 gid + 15 (of
 * the range's count); per_group and round are the other shapes'. */
typedef struct {
    ls_u64 seed;
    ray_camera camera;
} ray_tile_job;
#define RAY_LANES_JOB ray_tile_job
/* union_window's bounds as a compare and select of a candidate that is
 * the identity where unused: a reduction LLVM vectorizes, where PoCL left
 * the C form (`use` folded into the compare) scalar. Written as macros:
 * as functions, or as min() and max(), Intel's runtime ran ray 1.4 times
 * as long. */
#define RAY_LANES_MIN(acc, use, v) (((use) ? (v) : INT_MAX) < (acc) ? ((use) ? (v) : INT_MAX) : (acc))
#define RAY_LANES_MAX(acc, use, v) (((use) ? (v) : INT_MIN) > (acc) ? ((use) ? (v) : INT_MIN) : (acc))
/* Whether the lane loops are vectorized is the compiler's guess, and
 * PoCL 5.0's LLVM guessed no where PoCL 3.1's said yes (docs/perf,
 * 2026-11-29): asked, both vectorize them. A loop it still cannot
 * vectorize would make clang warn on stderr (-Wpass-failed); that says
 * nothing a user can act on. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#define RAY_LANES_SIMD _Pragma("clang loop vectorize(enable)")
#define RAY_LANES_SIMD_WINDOW _Pragma("clang loop vectorize(enable)")
#endif
#include "ray_lanes.h"

LS_KERNEL void RAY_KERNEL(ls_u64 seed, ls_u32 width, ls_u32 height, ls_u32 samples, ls_u64 first, ls_u64 count,
                          ls_u32 per_group, ls_u32 round, LS_GLOBAL ls_u8 *rgb)
{
    (void)per_group, (void)round;
    ls_u64 at = ls_gid() * RAY_LANES;
    if (at >= count)
        return;
    ray_tile_job job;
    job.seed = seed;
    job.camera = ray_camera_make(width, height);
    int n = count - at < RAY_LANES ? (int)(count - at) : RAY_LANES;
    ls_u32 pixel[RAY_LANES];
    float px[RAY_LANES], py[RAY_LANES], sx[RAY_LANES], sy[RAY_LANES], sz[RAY_LANES];
    for (int i = 0; i < RAY_LANES; i++) {
        /* Lanes past the end repeat the last pixel; their bytes are dropped. */
        pixel[i] = (ls_u32)(first + at + (ls_u64)(i < n ? i : n - 1));
        ray_pixel_xy(width, height, pixel[i], &px[i], &py[i]);
        sx[i] = sy[i] = sz[i] = 0.0f;
    }
    for (ls_u32 s = 0; s < samples; s++)
        sample_lanes(&job, pixel, px, py, s, sx, sy, sz);
    for (int i = 0; i < n; i++) {
        LS_GLOBAL ls_u8 *out = rgb + 3u * (at + (ls_u64)i);
        out[0] = (ls_u8)ray_byte(ray_channel(sx[i], samples));
        out[1] = (ls_u8)ray_byte(ray_channel(sy[i], samples));
        out[2] = (ls_u8)ray_byte(ray_channel(sz[i], samples));
    }
}
#else
LS_KERNEL void RAY_KERNEL(ls_u64 seed, ls_u32 width, ls_u32 height, ls_u32 samples, ls_u64 first, ls_u64 count,
                          ls_u32 per_group, ls_u32 round, LS_GLOBAL ls_u8 *rgb LS_DYNAMIC_LOCAL_PARAM(float, colours))
{
    LS_DYNAMIC_LOCAL(float, colours);
    ls_u32 lid = ls_lid(), group = ls_lsize();
    ls_u64 p0 = ls_group() * per_group;
    ls_u32 npix = count - p0 < per_group ? (ls_u32)(count - p0) : per_group;
    ls_u32 total = npix * samples;
    ls_u32 pixel0 = (ls_u32)(first + p0); /* images have at most 2^26 pixels */
    ray_camera cam = ray_camera_make(width, height);
    ls_u32 q = lid / 3u, c = lid - 3u * q; /* the pixel and channel summed here */
    float sum = 0.0f;
    for (ls_u32 base = 0; base < total; base += round) {
        ls_u32 end = total - base < round ? total : base + round;
        ray_path path;
        float spec[RAY_MAX_HITS];
        int live = 0;
        for (ls_u32 f = base + lid;;) {
            if (!live) {
                if (f >= end)
                    break;
                ls_u32 pq = f / samples;
                float px, py;
                ray_pixel_xy(width, height, pixel0 + pq, &px, &py);
                ray_path_begin(&path, &cam, seed, pixel0 + pq, f - pq * samples, px, py);
                live = 1;
            }
            ray_v3 colour;
            if (ray_path_step(&path, spec, seed, &colour)) {
                LS_LOCAL float *slot = colours + 3u * (f - base);
                slot[0] = colour.x * RAY_SAMPLE_SCALE;
                slot[1] = colour.y * RAY_SAMPLE_SCALE;
                slot[2] = colour.z * RAY_SAMPLE_SCALE;
                f += group;
                live = 0;
            }
        }
        ls_barrier();
        if (q < npix) {
            ls_u32 lo = q * samples > base ? q * samples : base;
            ls_u32 hi = (q + 1u) * samples < end ? (q + 1u) * samples : end;
            for (ls_u32 i = lo; i < hi; i++)
                sum = sum + colours[3u * (i - base) + c];
        }
        ls_barrier();
    }
    if (q < npix)
        rgb[3u * (p0 + q) + c] = (ls_u8)ray_byte(ray_channel(sum, samples));
}
#endif
