/* ray_fast_kernels.h - the raytracer's fast mode on GPUs: the kernel of
 * ray_kernels.h built with fast math (LS_FAST_FP: contraction into FMAs,
 * approximate division and square root) and with the device's fast
 * reciprocal square root for normalizing. The image stays within 40 dB
 * PSNR of exact mode (tests/ray_cli.py checks it on each device). */
#define LS_FAST_FP
#include "dialect.h"

#if defined(__OPENCL_C_VERSION__)
#define RAY_RSQRT(x) native_rsqrt(x)
#else
#define RAY_RSQRT(x) rsqrtf(x)
#endif
#include "ray.h"

LS_KERNEL void ray_fast(ls_u64 seed, ls_u32 width, ls_u32 height, ls_u32 samples, ls_u64 first, ls_u64 count,
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

#define LS_PROGRAM_KERNELS(X) X(ray_fast)
