/* life_gpu.h - Life on any device over src/gpu.h: the GPU backends (CUDA,
 * OpenCL), whose kernels are src/kernels/life_kernels.h, and the host CPU
 * (OpenMP), whose kernels are life_cpu.c's C (life_host.h). The grid stays on the device
 * between calls: start uploads it, steps advances it, fetch copies it
 * back. A slab of a grid cut over several devices (life_slab.h) is such
 * a grid too, opened empty, advanced without waiting (launch), and filled
 * and read a range of planes at a time. */
#ifndef LOCKSTEP_LIFE_GPU_H
#define LOCKSTEP_LIFE_GPU_H

#include "set.h"
#include "life.h"
#include "life_grid.h"

typedef struct life_gpu_state life_gpu_state;

/* Uploads g (two copies on the device). A grid too large for the device
 * is refused as the user's error, saying what it needs and what there is. */
int life_gpu_start(ls_device *s, const life_grid *g, life_gpu_state **out, ls_error *err);
/* As start, for a grid of g's shape (g->words is not read), all dead. */
int life_gpu_open(ls_device *s, const life_grid *g, life_gpu_state **out, ls_error *err);
/* The random start (life_grid_fill_random's cells, src/algo/life.h's
 * life_fill_word) made on the device in `count` planes of its current
 * generation from plane `first` on (the planes of life_gpu_read_planes),
 * the first of whose rows is row row0 of a grid of rows of nx cells;
 * queued on queue 0. */
int life_gpu_fill(life_gpu_state *st, uint32_t first, uint32_t count, uint64_t row0, uint32_t nx, uint64_t seed,
                  double density, ls_error *err);
/* Exactly `steps` generations; *seconds is device time. */
int life_gpu_steps(life_gpu_state *st, life_rule r, uint64_t steps, double *seconds, ls_error *err);
/* Queues `steps` generations on queue 0 and returns without waiting (the
 * caller times them with the backend's timer and waits for them). */
int life_gpu_launch(life_gpu_state *st, life_rule r, uint64_t steps, ls_error *err);
/* Copies the current generation into g (same extents as at start). */
int life_gpu_fetch(life_gpu_state *st, life_grid *g, ls_error *err);

/* Planes along the grid's slowest axis (z in 3D, rows in 2D: contiguous
 * words) of the current generation. read waits for the device; write is
 * queued on queue 0, and src must stay as it is until the device has run
 * it (the next read, or the timer's stop). */
int life_gpu_read_planes(life_gpu_state *st, uint32_t first, uint32_t count, void *dst, ls_error *err);
int life_gpu_write_planes(life_gpu_state *st, uint32_t first, uint32_t count, const void *src, ls_error *err);
/* Whether planes go from src to dst device to device (gpu.h's copy: both
 * on one backend that offers it); else they are staged through the host. */
int life_gpu_can_copy(const life_gpu_state *dst, const life_gpu_state *src);
int life_gpu_copy_planes(life_gpu_state *dst, uint32_t dst_first, life_gpu_state *src, uint32_t src_first,
                         uint32_t count, ls_error *err);
/* Planes of the current generation to or from the start of a buffer of
 * the same device (gpu.h's copy, ordered after what is queued and before
 * what comes later; src or dst may be another process's, opened with
 * ls_gpu_open_shared). */
int life_gpu_planes_to(life_gpu_state *src, uint32_t first, uint32_t count, ls_buf *dst, ls_error *err);
int life_gpu_planes_from(life_gpu_state *dst, uint32_t first, uint32_t count, ls_buf *src, ls_error *err);
/* The host's threads a generation runs on: on the host device (OpenMP),
 * as many as life_cpu.c gives a grid of this size; 0 on a device with
 * threads of its own (a GPU, an OpenCL CPU device). */
int life_gpu_host_threads(const life_gpu_state *st);
void life_gpu_stop(life_gpu_state *st);

#endif
