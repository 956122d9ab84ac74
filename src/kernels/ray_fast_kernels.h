/* ray_fast_kernels.h - the raytracer's fast mode on GPUs: the kernel of
 * ray_render.h as ray_fast, built with fast math (LS_FAST_FP: contraction
 * into FMAs, approximate division and square root) and, but on the CPU
 * shape, with the device's fast reciprocal square root for normalizing.
 * The image stays within min(40, 30 + 10 log10(spp)) dB PSNR of exact
 * mode at any size (docs/ray.md; tests/ray_cli.py checks it on each
 * device). */
#define LS_FAST_FP
#define LS_CPU_INLINE
#include "dialect.h"

#if defined(__OPENCL_C_VERSION__) && LS_SHAPE == LS_SHAPE_CPU
/* The CPU shape (ray_render.h's tiles of lanes) keeps ray.h's 1 / sqrt,
 * which fast math lets the compiler compute as it sees fit. native_rsqrt's
 * accuracy is the implementation's: in Intel's CPU runtime, in the lanes'
 * vector loops, it is an estimate that one Newton step would refine, and
 * the specular term's 99th power magnifies its error; it took fast mode
 * under the PSNR promised above. */
#elif defined(__OPENCL_C_VERSION__)
#define RAY_RSQRT(x) native_rsqrt(x)
#else
#define RAY_RSQRT(x) rsqrtf(x)
#endif
#include "ray.h"

#define RAY_KERNEL ray_fast
#include "ray_render.h"

#define LS_PROGRAM_KERNELS(X) X(ray_fast)
