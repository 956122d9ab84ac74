/* life_gpu.h - Life on any GPU backend (CUDA, OpenCL) over src/gpu.h; the
 * kernels are src/kernels/life_kernels.h. The grid stays on the device
 * between calls: start uploads it, steps advances it, fetch copies it
 * back. */
#ifndef LOCKSTEP_LIFE_GPU_H
#define LOCKSTEP_LIFE_GPU_H

#include "set.h"
#include "life.h"
#include "life_grid.h"

typedef struct life_gpu_state life_gpu_state;

/* Uploads g (two copies on the device). A grid too large for the device
 * is refused as the user's error, saying what it needs and what there is. */
int life_gpu_start(ls_device *s, const life_grid *g, life_gpu_state **out, ls_error *err);
/* Exactly `steps` generations; *seconds is device time. */
int life_gpu_steps(life_gpu_state *st, life_rule r, uint64_t steps, double *seconds, ls_error *err);
/* Copies the current generation into g (same extents as at start). */
int life_gpu_fetch(life_gpu_state *st, life_grid *g, ls_error *err);
void life_gpu_stop(life_gpu_state *st);

#endif
