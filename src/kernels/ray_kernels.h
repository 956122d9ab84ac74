/* ray_kernels.h - the business-card raytracer on GPUs in exact mode,
 * written once for OpenCL and CUDA (src/kernels/dialect.h); the scene and
 * the pixel are src/algo/ray.h. Built under the exact floating-point rule,
 * so every device gives the bytes of the CPU and of tests/ref_ray.c.
 *
 *  ray_exact: one work-item per pixel of the range first .. first+count-1
 *    (row-major over the whole image), all its samples, three bytes to
 *    rgb[3 * (pixel - first)]. Each work-item makes the camera itself (a few
 *    operations, the same bits as the host's under the rule) and finds
 *    hits through the lattice window, which gives the same hit as all 49
 *    spheres bit for bit (ray.h). */
#define LS_EXACT_FP
#include "dialect.h"
#include "ray.h"

LS_KERNEL void ray_exact(ls_u64 seed, ls_u32 width, ls_u32 height, ls_u32 samples, ls_u64 first, ls_u64 count,
                         LS_GLOBAL ls_u8 *rgb)
{
    ls_u64 i = ls_gid();
    if (i >= count)
        return;
    ls_u64 pixel = first + i;
    ray_camera cam = ray_camera_make(width, height);
    ls_u8 px[3];
    ray_pixel(&cam, seed, width, height, samples, (ls_u32)(pixel / width), (ls_u32)(pixel % width), px);
    rgb[3u * i] = px[0];
    rgb[3u * i + 1u] = px[1];
    rgb[3u * i + 2u] = px[2];
}

#define LS_PROGRAM_KERNELS(X) X(ray_exact)
