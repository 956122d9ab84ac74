/* ray_range.h - one range of pixels of a ray job as a device computes it.
 *
 * The host driver (ray.c) cuts the image into ranges of pixels (row-major,
 * row 0 at the top) and owns progress, Ctrl-C and the output file; a
 * device renders pixels first .. first+count-1 into rgb (3 bytes each) and
 * reports the time it spent: ray_gpu.c on every device, whose kernels are
 * src/kernels/ray_kernels.h and ray_fast_kernels.h on GPUs and, on the
 * host CPU, ray_cpu.c's implementation (ray_gpu.c's host programs). */
#ifndef LOCKSTEP_RAY_RANGE_H
#define LOCKSTEP_RAY_RANGE_H

#include <stdint.h>

#include "ray_cpu.h"
#include "set.h"

int ray_gpu_range(ls_device *s, const ray_job *job, uint64_t first, uint64_t count, uint8_t *rgb, double *seconds,
                  ls_error *err);

#endif
