/* slab_run.h - one computation over a grid cut into slabs across the
 * devices of a set and the ranks of an MPI job, with halo exchange: the
 * set's second runner, beside ls_set_run (set_run.h) for numbered items.
 *
 * A workload whose work is a grid that steps as a whole (Life) describes
 * it by the planes of its slowest axis, where a range of planes is a
 * range of bytes, and by a table of per-device operations (ls_slab_ops:
 * allocate a slab's planes, step them k times, read, write and copy
 * planes, count and hash them). The runner does the rest:
 *
 *   - the grid is cut along that axis into S slabs of near-equal
 *     thickness, given in order to the job's devices (the set layer's
 *     census, set.h: rank 0's in the order of its set, then rank 1's, and
 *     so on), each with k ghost planes on each side (none on a bounded
 *     axis's outer ends);
 *   - a slab steps k times between exchanges with the device operations
 *     of a whole grid: after j <= k steps the planes [j, T + 2k - j) are
 *     right, so the slab's own planes are; then each slab's ghosts are
 *     refilled from its neighbours' outermost k planes, device to device
 *     where the backend copies (gpu.h's copy: CUDA), between the ranks of
 *     a node through shared device memory (CUDA IPC), else through host
 *     memory and MPI. The answer is bit for bit one device's, whatever S,
 *     k and the devices;
 *   - the steps go in chunks sized from the measured rate (chunks.h), with
 *     progress, a sample every K steps and stop signals, rank 0 deciding
 *     each chunk for every rank;
 *   - counts, digests, the start read from a file and the end written to
 *     one are made where the slabs live, a host thread a device, a GPU
 *     slab a piece at a time through page-locked buffers; rank 0 receives
 *     a count and 8 bytes a plane, never the cells.
 *
 * Every run of such a workload runs here: one device is a set of one slab,
 * the whole grid with no ghosts (a torus wraps as itself), which steps as
 * long as it is asked and never exchanges.
 *
 * Every call below is made by every rank in the same order. */
#ifndef LOCKSTEP_SLAB_RUN_H
#define LOCKSTEP_SLAB_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "progress.h"
#include "set.h"

#define LS_SLABS_MAX 4096u

/* Where a slab lies: its index in the job, the planes of the grid it owns
 * [first, first + owned), and its ghost planes below and above them. Its
 * own planes are [0, ghost[0] + owned + ghost[1]): the owned ones from
 * ghost[0] on. */
typedef struct ls_slab_place {
    int index;
    uint32_t first, owned;
    uint32_t ghost[2];
} ls_slab_place;

/* What the workload does on a device, for one slab (`slab`: what open
 * made). `job` is the workload's own (ls_slabs_run's): its shape, its
 * rule. Planes are counted in the slab's own planes (ls_slab_place).
 * Every slab, whatever its device, is driven through read, write and
 * step: queued on a GPU, run as they are asked on the host CPU (whose
 * buffers are host memory: gpu.h). */
typedef struct ls_slab_ops {
    /* The census's measure of a device (the memory the workload may use
     * there), and whether a device whose measure is `has` holds `need`
     * bytes (a generation of its slabs, ghosts included); -1 with err
     * set (the user's error, naming the device and the grid) when not. */
    ls_census_measure measure;
    int (*fits)(const void *job, const ls_job_device *d, uint64_t need, int nslabs, ls_error *err);
    /* A slab of `at`'s planes on device d, its ghosts dead (zero) and its
     * owned planes to be written next. */
    int (*open)(const void *job, ls_device *d, const ls_slab_place *at, void **slab, ls_error *err);
    /* Makes the start of its owned planes where it lives (a random start
     * from the workload's seed): for ls_slab_start.made. */
    int (*make)(const void *job, void *slab, const ls_slab_place *at, ls_error *err);
    /* `steps` steps (0: only what a first launch does: build or look up
     * its kernels). A GPU slab's are queued without waiting (the runner
     * times and waits for its device); the host's are run now. */
    int (*step)(const void *job, void *slab, uint32_t steps, ls_error *err);
    /* A slab's planes: read waits for its device; write is queued, and
     * src stays as it is until the device has run it. */
    int (*read)(void *slab, uint32_t first, uint32_t count, void *dst, ls_error *err);
    int (*write)(void *slab, uint32_t first, uint32_t count, const void *src, ls_error *err);
    /* Whether planes go from slab src to dst device to device, and the
     * copy (ordered after what is queued on both, before what comes
     * later). */
    int (*can_copy)(const void *dst, const void *src);
    int (*copy)(void *dst, uint32_t dst_first, void *src, uint32_t src_first, uint32_t count, ls_error *err);
    /* Planes to or from the start of a buffer of the slab's device (one
     * another process shares: ls_gpu_open_shared). */
    int (*to_buf)(void *slab, uint32_t first, uint32_t count, ls_buf *dst, ls_error *err);
    int (*from_buf)(void *slab, uint32_t first, uint32_t count, ls_buf *src, ls_error *err);
    /* The host's threads a step of it runs on: 0 on a device that has
     * threads of its own (a GPU), for the report. */
    int (*threads)(const void *slab);
    /* Host memory for a slab's planes on their way to another rank,
     * faulted in (freed with free()), or NULL. */
    void *(*host_alloc)(size_t bytes);
    void (*close)(void *slab);
    /* Planes [first, first + n) of the grid at `planes` in host memory:
     * their count (live cells), and with hashes their hashes into
     * hashes[0 .. n) (a plane's hash seeded with its index in the grid);
     * and the grid's digest from every plane's hash. Any thread. */
    uint64_t (*count)(const void *job, const void *planes, uint32_t first, uint32_t n, uint64_t *hashes);
    uint64_t (*digest)(const void *job, const uint64_t *hashes, uint32_t planes);
} ls_slab_ops;

/* The grid along its cut axis. */
typedef struct ls_slab_grid {
    uint32_t planes;      /* of the whole grid */
    size_t plane_bytes;   /* of one plane */
    uint64_t plane_items; /* items a plane a step: what the rate counts */
    int bounded;          /* the axis has ends, beyond which nothing is */
    uint32_t min_planes;  /* the thinnest slab the device operations take, ghosts included */
    /* The default ghost depth: with a GPU anywhere in the job, else. */
    uint32_t halo_gpu, halo_cpu;
} ls_slab_grid;

/* A start that each slab reads for itself, a device's slabs on that
 * device's host thread, a slab a piece at a time through page-locked
 * buffers. read puts planes [first, first + n) of the grid into planes;
 * calls come from a thread a device at once. With `hash`, each slab
 * counts and hashes the planes it read, and rank 0 receives the start's
 * count and digest; with `damaged` as well, the digest is held against
 * `expected` (rank 0's), and where it differs every rank calls damaged,
 * which sets err (the user's error: the file is damaged, or the ranks'
 * copies differ), and the run stops. */
typedef struct ls_slab_source {
    int (*read)(void *arg, uint32_t first, uint32_t n, void *planes, ls_error *err);
    void *arg;
    int hash;
    uint64_t expected;
    int (*damaged)(void *arg, int ranks, ls_error *err);
    /* Made by the start: */
    uint64_t count, digest; /* rank 0, with hash */
    double seconds;         /* the reading's wall time on this rank */
} ls_slab_source;

/* The start: one of every plane of the grid in host memory on every rank
 * (planes), a start that each slab makes where it lives (made: ops->make),
 * or one each reads (source). */
typedef struct ls_slab_start {
    const void *planes;
    int made;
    ls_slab_source *source;
} ls_slab_start;

typedef struct ls_slabs ls_slabs;

/* Whether a run on the set cuts its grid (and reports each device's
 * share): the set has several devices, its job several ranks, or `slabs`
 * (0 when not asked) asks for more than one. */
int ls_slabs_wanted(const ls_set *set, uint64_t slabs);

/* Steps in chunks, with progress and stops. */
typedef struct ls_slab_drive {
    uint64_t steps;     /* asked */
    uint64_t first;     /* the first chunk's steps (later ones from the rate) */
    uint64_t every;     /* a sample at each multiple of it, from 0; 0: none */
    const char *unit;   /* a step, for progress: "generation" */
    /* Made by the run: */
    uint64_t done;          /* steps run (fewer when stopped) */
    double seconds;         /* the job's one device's time by its clock, or the wall time of several */
    double wall_seconds;    /* of the chunks */
    double sample_seconds;  /* of the samples */
} ls_slab_drive;

/* A run: what the ranks agree on before it, its start, its steps, and
 * where the workload is called back (on every rank, with the slabs; each
 * may call the collectives below; 0, or -1 with err set). */
typedef struct ls_slab_run {
    /* ls_slabs_agree_start's: this rank made its start (else err says
     * why), a hash of it, and what the refusals name. */
    int ok;
    uint64_t fingerprint;
    const char *what, *input;
    ls_slab_start start;
    uint64_t slabs, halo; /* asked (0: not) */
    ls_slab_drive drive;
    /* Once the start is on the devices, before the first step (NULL:
     * nothing); at each sample, after `done` steps; once the last step is
     * run, where the workload takes its result (ls_slabs_summary,
     * ls_slabs_gather, ls_slabs_write_file). */
    int (*started)(void *arg, ls_slabs *S, ls_error *err);
    int (*sample)(void *arg, ls_slabs *S, uint64_t done, ls_error *err);
    int (*finish)(void *arg, ls_slabs *S, uint64_t done, ls_error *err);
    void *arg;
    /* Each device's share, on rank 0 (NULL: none is wanted, as
     * ls_slabs_wanted says); with slowest, each of nphases figures at
     * phases (as the callbacks left them) at its largest over the ranks. */
    ls_set_report *report;
    const double *phases;
    int nphases;
    double *slowest;
} ls_slab_run;

/* A run on the set, with the workload's operations on its slabs: the
 * ranks agree on the start (ls_slabs_agree_start); the grid is cut into
 * `slabs` slabs (0: one per device of the job; fewer where the grid is too
 * thin for them: each slab at least k planes, and at least min_planes
 * with its ghosts) with ghosts `halo` deep (0: the default for the job's
 * devices), rank 0's figures for every rank, each put on its device with
 * its planes of the start (a device whose memory cannot hold its slabs
 * refuses the grid: ops->fits); the steps run in chunks, calling sample
 * at every multiple of drive.every, reporting progress, stopping on a
 * stop signal (to any rank) or when progress asks, rank 0 deciding each
 * chunk and when to stop; finish takes the result; then each device's
 * share and the slowest phases, and the slabs are freed. 0, or -1 on
 * every rank with err the first failing rank's. */
int ls_slabs_run(ls_set *set, const ls_slab_ops *ops, const void *job, const ls_slab_grid *grid, ls_slab_run *run,
                 const ls_progress *progress, ls_error *err);

/* The current planes of the grid, whole, into `planes` on rank 0; the
 * other ranks send theirs. */
int ls_slabs_gather(ls_slabs *S, void *planes, ls_error *err);
/* The count of the current planes, and with digest the grid's digest, on
 * rank 0: each slab counts and hashes its own planes on its own rank. The
 * other ranks take part and leave *count and *digest alone. */
int ls_slabs_summary(ls_slabs *S, uint64_t *count, uint64_t *digest, ls_error *err);

/* A file that every rank writes its slabs' planes into, at their offsets:
 * rank 0 makes it (plan: *tmp its path, malloc'd, or NULL when it is to be
 * gathered and written whole instead; `alone` when the job is this
 * process), the others open it by that path (join: its descriptor and
 * where plane 0 goes), each writes its slabs' planes (write, a thread a
 * device), and rank 0 finishes it with the grid's digest, or aborts it.
 * fd and head: the open file's descriptor and the byte where plane 0's
 * data begins, as plan or join left them. */
typedef struct ls_slab_file {
    int (*plan)(void *arg, int alone, char **tmp, ls_error *err);
    void (*join)(void *arg, const char *tmp);
    int (*write)(void *arg, const void *planes, uint32_t first, uint32_t n, ls_error *err);
    int (*finish)(void *arg, uint64_t digest, ls_error *err);
    void (*abort)(void *arg);
    void *arg;
    const char *path; /* for messages */
    int *fd;
    const uint64_t *head;
} ls_slab_file;

/* The current planes written to f where the slabs live, counted and
 * hashed in the same pass (*count and *digest on rank 0, as
 * ls_slabs_summary). 1 when the file is to be gathered and written whole
 * instead (plan said so, or a rank cannot open rank 0's file: no shared
 * file system); 0 when written (rank 0's ready to be put in place); -1
 * with err set on every rank (nothing is left). */
int ls_slabs_write_file(ls_slabs *S, const ls_slab_file *f, uint64_t *count, uint64_t *digest, ls_error *err);

/* Slabs and ghost depth the job runs with (after thin grids' limits). */
int ls_slabs_count(const ls_slabs *S);
uint32_t ls_slabs_halo(const ls_slabs *S);
/* The most host threads a step of this rank's slabs runs on (ops->threads);
 * 0 when none is on the host CPU. */
int ls_slabs_cpu_threads(const ls_slabs *S);

/* ---- the ranks agreeing ----------------------------------------------------- */

/* The ranks compare their starts before any computes (each read its input
 * itself: node-local copies of a file may differ): ok, this rank made its
 * start (else err says why); fingerprint, a hash of it. Every rank then
 * refuses with the same one line naming the rank that could not start
 * (after a rank but 0's reason, where `input` is standard input: that
 * mpirun gives it to rank 0 alone) or that read another `what` from
 * `input` (NULL: none) than rank 0, and none ends the others (err marked
 * LS_ERROR_EVERY_RANK). 0 when all agree, or alone. */
int ls_slabs_agree_start(const ls_set *set, int ok, uint64_t fingerprint, const char *what, const char *input,
                         ls_error *err);

#endif
