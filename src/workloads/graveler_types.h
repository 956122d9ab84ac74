/* graveler_types.h - parameters and results of a Graveler run, shared by
 * the host program and every backend's host glue. */
#ifndef LOCKSTEP_GRAVELER_TYPES_H
#define LOCKSTEP_GRAVELER_TYPES_H

#include <stdint.h>

typedef struct grv_params {
    uint64_t seed;
    uint64_t first;   /* index of the first battle (for split runs) */
    uint64_t battles; /* how many battles, from `first` on */
    uint32_t turns;   /* trials per battle */
} grv_params;

typedef struct grv_result {
    uint64_t *hist;   /* turns + 1 bins, owned by the caller, zeroed by the backend */
    uint64_t battles; /* battles played: `battles` unless interrupted */
    double seconds;   /* time of the computation itself (device events on GPUs) */
} grv_result;

#endif
