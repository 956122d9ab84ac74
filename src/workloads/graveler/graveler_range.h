/* graveler_range.h - a Graveler run on the host: its parameters, and one
 * range of battles as a device computes it.
 *
 * The host driver (graveler.c) cuts [first, first + battles) into ranges
 * and owns progress, Ctrl-C and the histogram's reduction; a device adds
 * the histogram of one range [lo, hi) to `hist` (turns + 1 bins) and
 * reports the time it spent: graveler_gpu.c on every device, whose
 * kernels are src/kernels/graveler_kernels.h on GPUs and, on the host
 * CPU, graveler_cpu.c's implementation (its host program). */
#ifndef LOCKSTEP_GRAVELER_RANGE_H
#define LOCKSTEP_GRAVELER_RANGE_H

#include <stdint.h>

#include "host_kernel.h"
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
/* The host device's program (graveler_cpu.c): grv_cpu_range as kernel
 * graveler_host. */
extern const ls_host_program grv_host_program;
int grv_cpu_range(const grv_params *p, uint64_t lo, uint64_t hi, uint64_t *hist, double *seconds, ls_error *err);

#endif
