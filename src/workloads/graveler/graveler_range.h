/* graveler_range.h - a Graveler run on the host: its parameters, and one
 * range of battles as a device computes it.
 *
 * The host driver (graveler.c) cuts [first, first + battles) into ranges
 * and owns progress, Ctrl-C and the histogram's reduction; a device adds
 * the histogram of one range [lo, hi) to `hist` (turns + 1 bins) and
 * reports the time it spent: on GPUs graveler_gpu.c (kernels:
 * src/kernels/graveler_kernels.h), on the CPU graveler_cpu.c. */
#ifndef LOCKSTEP_GRAVELER_RANGE_H
#define LOCKSTEP_GRAVELER_RANGE_H

#include <stdint.h>

#include "set.h"

typedef struct grv_params {
    uint64_t seed;
    uint64_t first;   /* index of the first battle (for split runs) */
    uint64_t battles; /* how many battles, from `first` on */
    uint32_t turns;   /* trials per battle */
} grv_params;

/* One range [lo, hi) of battles of p's seed and turns, added to hist;
 * *seconds is the computation's own time (device events on GPUs). */
int grv_gpu_range(ls_device *s, const grv_params *p, uint64_t lo, uint64_t hi, uint64_t *hist, double *seconds,
                  ls_error *err);
int grv_cpu_range(const grv_params *p, uint64_t lo, uint64_t hi, uint64_t *hist, double *seconds, ls_error *err);

#endif
