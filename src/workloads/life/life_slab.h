/* life_slab.h - a Life grid on the slab runner (src/set/slab_run.h): one
 * slab of the grid on a device, as the runner's operations (ls_slab_ops)
 * drive it, and the grid's file written where the slabs live
 * (docs/life.md, "Slabs").
 *
 * A plane is one along the grid's slowest axis (z in 3D, rows in 2D),
 * where a range of planes is a range of words (life_grid.h). A slab is a
 * grid of its own with its ghost planes, run with the kernels and CPU
 * loop of a whole grid: on a torus the slab is a torus, whose wrap is
 * garbage that stays within the ghosts; on a bounded plane a bounded
 * plane, beyond whose cut edges the same holds. */
#ifndef LOCKSTEP_LIFE_SLAB_H
#define LOCKSTEP_LIFE_SLAB_H

#include <stdint.h>

#include "life.h"
#include "life_format.h"
#include "life_grid.h"
#include "life_io.h"
#include "slab_run.h"

#define LIFE_MAX_HALO 256u
/* The default depth k of the ghost zones, by the kind of device the job
 * has (a GPU anywhere: the GPU's). On the CPU an exchange is a memcpy of
 * k planes, and a deeper zone only adds work: k = 1 to 8 could not be
 * told apart on 2 cores (docs/life.md). On a GPU each exchange ends an
 * epoch with a wait for the devices, so fewer of them pay while the
 * repeated planes (2k a slab) stay few: on one GPU split in two k = 4 and
 * 8 were at the floor, on two GPUs and two ranks of 3D k = 8 was faster
 * than 4 and 16 (docs/perf/README.md, 2026-11-26). */
#define LIFE_HALO_CPU 2u
#define LIFE_HALO_GPU 8u
/* 2D with a GPU: k = LIFE_2D_GENS, so that each epoch is one launch of the
 * many-generation kernel (life_gpu.c), as on a whole grid; with k = 4 a
 * slab ran the two-generation kernel, twice the launches and eight times
 * the bytes a generation (issue 26; figures in docs/perf/). */
#define LIFE_HALO_GPU_2D LIFE_2D_GENS

/* What every slab of a run shares: the whole grid's shape (no cells),
 * the rule, and the random start's seed and density. */
typedef struct life_work {
    life_grid shape;
    life_rule rule;
    uint64_t seed;
    double density;
} life_work;

/* The slab runner's operations on a Life slab (job: a life_work). */
extern const ls_slab_ops life_slab_ops;

/* g's shape along its cut axis, for the slab runner. */
void life_slab_grid(const life_grid *g, ls_slab_grid *out);

/* The file a run writes where its slabs live (PKU or native), for
 * ls_slabs_write_file: made by rank 0 as out's (life_out_pieces_open),
 * each slab's rows at their offsets. */
typedef struct life_slab_file {
    ls_slab_file file; /* what the runner takes: its arg is this */
    life_out *out;
    life_format fmt;
    const life_grid *shape;
    const life_meta *meta;
    life_pieces pieces;
} life_slab_file;
void life_slab_file_init(life_slab_file *f, life_out *out, const char *path, life_format fmt, const life_grid *shape,
                         const life_meta *meta);

#endif
