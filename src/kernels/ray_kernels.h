/* ray_kernels.h - the business-card raytracer on GPUs in exact mode,
 * written once for OpenCL and CUDA (src/kernels/dialect.h): the kernel of
 * ray_render.h as ray_exact, built under the exact floating-point rule, so
 * every device gives the bytes of the CPU and of tests/ref_ray.c. Each
 * work-item makes the camera itself (a few operations, the same bits as
 * the host's under the rule) and finds hits through the lattice window,
 * which gives the same hit as all 49 spheres bit for bit (ray.h). */
#define LS_EXACT_FP
#define LS_CPU_INLINE
#include "dialect.h"
#include "ray.h"

#define RAY_KERNEL ray_exact
#include "ray_render.h"

#define LS_PROGRAM_KERNELS(X) X(ray_exact)
