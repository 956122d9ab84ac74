/* life_slabs.h - one Life grid cut into slabs over the devices of a set
 * and the ranks of an MPI job, with halo exchange (docs/life.md, "Slabs").
 *
 * The grid is cut along its slowest axis (z in 3D, rows in 2D), where a
 * range of planes is a range of words (life_grid.h), into S slabs of
 * near-equal thickness, given in order to the job's devices: rank 0's in
 * the order of its set, then rank 1's, and so on. A slab lives on its
 * device as a grid of its own with k ghost planes on each side (none on a
 * bounded plane's outer ends) and runs k generations between exchanges
 * with the kernels and CPU loop of a whole grid: on a torus the slab is a
 * torus, whose wrap is garbage that stays within the ghosts; on a bounded
 * plane a bounded plane, beyond whose cut edges the same holds. After
 * j <= k generations the planes [j, T + 2k - j) are right, so the slab's
 * own planes are; then each slab's ghosts are refilled from its
 * neighbours' outermost k planes. The answer is bit for bit one device's,
 * whatever S, k and the devices.
 *
 * Every Life run runs here: one device is a set of one slab, the whole
 * grid with no ghosts (its torus wraps as itself), which runs as many
 * generations an epoch as it is asked, with the kernels and CPU loop of
 * the device, and never exchanges. The job's devices are the set layer's
 * census (set.h), as the set runner's are.
 *
 * Every call below is made by every rank in the same order. */
#ifndef LOCKSTEP_LIFE_SLABS_H
#define LOCKSTEP_LIFE_SLABS_H

#include <stdint.h>

#include "set.h"
#include "life.h"
#include "life_format.h"
#include "life_grid.h"
#include "life_memory.h"

#define LIFE_MAX_SLABS 4096u
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

typedef struct life_slabs life_slabs;

/* Whether a run on the set cuts its grid (and reports each device's
 * share): the set has several devices, its job several ranks, or `slabs`
 * (--slabs; 0 when not given) asks for more than one. */
int life_slabs_wanted(const ls_set *set, uint64_t slabs);

/* A random start that each slab makes on its own device (life_grid.h's
 * fill: the same cells as the whole grid's). */
typedef struct life_fill_spec {
    uint64_t seed;
    double density;
} life_fill_spec;

/* A start that each slab reads for itself: its own planes of a grid file
 * (life_io.h's life_grid_in), at their offsets, a device's slabs on that
 * device's host thread, a GPU slab a piece at a time through page-locked
 * buffers. read puts units [first, first + n) of the whole grid into
 * words, in the grid's layout; calls come from a thread a device at once.
 * With `hash`, each slab counts and hashes the planes it read, and rank 0
 * receives the start's population and grid digest (the digest a native
 * file records, to be compared). */
typedef struct life_plane_source {
    int (*read)(void *arg, uint32_t first, uint32_t n, uint32_t *words, ls_error *err);
    void *arg;
    int hash;
    /* Made by life_slabs_start: */
    uint64_t population, digest; /* rank 0, with hash */
    double seconds;              /* the reading's wall time on this rank */
} life_plane_source;

/* Cuts a grid of g's shape into `slabs` slabs (0: one per device of the
 * job; fewer where the grid is too thin for them: each slab at least k
 * planes, and at least LIFE_MIN_SIZE with its ghosts) with ghosts `halo`
 * deep (0: the default for the job's devices), and puts each on its
 * device with its planes of the start: g's cells (every rank has the
 * whole grid), or with `fill` a random start that every slab makes where
 * it lives, or with `source` the planes each slab reads itself; with
 * either, g is a shape only (no cells) and no process holds the whole
 * grid. A device whose memory (life_device_memory) cannot hold its slabs
 * refuses the grid as the user's error. 0, or -1 on every rank with err
 * the first failing rank's (ls_job_agree). */
int life_slabs_start(ls_set *set, const life_grid *g, const life_fill_spec *fill, life_plane_source *source,
                     uint64_t slabs, uint64_t halo, life_slabs **out, ls_error *err);
/* Exactly n generations of rule r: epochs of min(k, left), an exchange
 * after each (one slab: no exchange, one epoch). *seconds: the time of
 * the job's one device by its clock (a GPU's timer, gpu_timer.h), or the
 * wall time when the job has several. */
int life_slabs_steps(life_slabs *L, life_rule r, uint64_t n, double *seconds, ls_error *err);
/* The current generation, whole, into g on rank 0 (g as at start); the
 * other ranks send theirs and leave g alone. */
int life_slabs_gather(life_slabs *L, life_grid *g, ls_error *err);
/* The current generation's population, and with digest its grid digest
 * (version 2, life_grid.h), on rank 0, of the grid of shape's extents:
 * each slab counts and hashes its own planes on its own rank (a GPU
 * slab's read to the host first), and rank 0 gathers a count and 8 bytes
 * a unit, never the cells. The other ranks take part and leave
 * *population and *digest alone. 0, or -1 with err set. */
int life_slabs_summary(life_slabs *L, const life_grid *shape, uint64_t *population, uint64_t *digest,
                       ls_error *err);
/* The current generation written to `path` in format fmt (PKU or native)
 * where the slabs live, its population and grid digest counted and
 * hashed in the same pass (on rank 0, as life_slabs_summary gives them):
 * rank 0 makes the temporary file (out, as life_out_pieces_open; mapped
 * when the job is this process), every rank writes its slabs' rows at
 * their offsets (a thread a device, GPU slabs a piece at a time), rank 0
 * the native trailer from the gathered digest, and out on rank 0 is then
 * ready for life_out_commit. 1 when the file is to be gathered and
 * written whole instead (a pipe or terminal, a PKU file of no cube, or a
 * rank that cannot open rank 0's file: no shared file system); 0 when
 * written; -1 with err set on every rank (nothing is left). Collective. */
struct life_out;
int life_slabs_write_file(life_slabs *L, struct life_out *out, const char *path, life_format fmt,
                          const life_grid *shape, const life_meta *meta, uint64_t *population, uint64_t *digest,
                          ls_error *err);
/* What each device of the job did, into the run's report on rank 0, with
 * the run's wall time; on other ranks only computed_only. 0, or -1 with
 * err set. */
int life_slabs_report(life_slabs *L, ls_set_report *report, double wall_seconds, ls_error *err);
/* Slabs and ghost depth the job runs with (after thin grids' limits). */
int life_slabs_count(const life_slabs *L);
uint32_t life_slabs_halo(const life_slabs *L);
/* The most threads a generation of this rank's CPU slabs runs on
 * (life_cpu_threads); 0 when none is on the CPU. */
int life_slabs_cpu_threads(const life_slabs *L);
void life_slabs_stop(life_slabs *L);

#endif
