/* set.h - what a run runs on: a set of opened devices, and the job it is
 * part of.
 *
 * Three levels, as in ggml's reg/device/backend: a backend (backend.h)
 * lists and opens its devices; an ls_device is one opened device; an
 * ls_set is the devices one process runs a workload on (one or several,
 * from a spec such as "cuda:all" or "openmp+opencl:0") together with the
 * job (this process's rank among the ranks of an MPI job, rank 0 of 1
 * when there is none). A workload's run takes the set and hands it to one
 * of the set's runners, which spreads the work over every device and
 * rank: numbered items to the item runner (set_run.h), a grid that steps
 * as a whole to the slab runner (slab_run.h).
 * The set runner returns each device's share of the work in an
 * ls_set_report, which the run carries back (ls_run.report). */
#ifndef LOCKSTEP_SET_H
#define LOCKSTEP_SET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "backend.h"
#include "device.h"

/* This process's place in the job: its rank among `size` ranks, and among
 * the `local_size` ranks on its node. Rank 0 of 1 when not under MPI.
 * Rank 0 alone folds a set run's results, writes its files and commits
 * its checkpoints. */
typedef struct ls_job {
    int rank, size;
    int local_rank, local_size;
} ls_job;

/* The devices of this process, and the job. */
typedef struct ls_set {
    char label[256]; /* the devices: "cuda:0", "cuda:0,cuda:1" */
    int ndevices;    /* at least 1 */
    ls_device *dev;  /* dev[0 .. ndevices) */
    ls_job job;
    double open_seconds; /* how long ls_set_open took (--timings) */
} ls_set;

/* For a process that opens the devices of spec (NULL: the default spec)
 * and no other device: where spec names each of a backend's devices by
 * index (cuda:0; cuda:1,cuda:3; cuda, which is cuda:0; not auto or
 * NAME:all), and names
 * no device of a backend that shares that one's driver (NVIDIA's OpenCL
 * reads CUDA_VISIBLE_DEVICES too: a spec with an OpenCL device narrows
 * nothing), the backend is told so (its narrow). Call it before any
 * backend is listed or opened and before other threads start (CUDA's is
 * an environment variable); a spec it cannot parse narrows nothing (the
 * open says why). Under MPI, every device the spec names, not this
 * rank's share: ranks of a node open each other's memory. */
void ls_set_narrow(const char *spec);

/* Opens what a spec names: "auto", "NAME", "NAME:INDEX", "NAME:all" (every
 * device of a backend), or a list of these joined by ',' or '+' (a set:
 * "cuda:0,openmp"). NULL spec means $LOCKSTEP_BACKEND, else the build's
 * default. In an MPI job whose ranks share a node, each rank takes every
 * k-th device of the list from its local rank on (k ranks on the node),
 * or, when the list is shorter than that, device local rank mod length.
 * Returns 0, or -1 with err set (err->usage marks a bad spec, which is the
 * user's error). */
int ls_set_open(const char *spec, ls_set *set, ls_error *err);
void ls_set_close(ls_set *set);

/* Whether the set is more than one device: several in this process, or
 * the ranks of an MPI job. */
int ls_set_several(const ls_set *set);

#define LS_SET_MAX_DEVICES 64

/* What one device did in a run on a set. */
typedef struct ls_set_share {
    char label[96];   /* "cuda:0", or "rank 1 cuda:0" in an MPI job */
    char backend[16]; /* its backend's name, "cuda" (a device of another rank has no ls_backend here) */
    int rank;
    int is_gpu;
    ls_shape shape; /* the kernel shape it ran (shape.h), LS_SHAPE_NONE for the reference */
    uint64_t items;
    double seconds;     /* its time, by its clock: */
    int wall_clock;     /* 1: the wall clock (a CPU, or a GPU whose timer was rejected) */
    int timer_rejected; /* 1: a GPU whose timer read a figure that cannot be right */
} ls_set_share;

typedef struct ls_set_report {
    uint64_t done;         /* items folded, from lo on */
    double seconds;        /* one device: its time; several: the wall time */
    double wall_seconds;   /* from the first chunk handed out to the last fold */
    int interrupted;       /* stopped before hi */
    int computed_only;     /* an MPI rank other than 0: it folded nothing */
    int ndevices;
    ls_set_share dev[LS_SET_MAX_DEVICES];
    /* The clock of `seconds` (and so of the run's): set by the command
     * layer after the run (ls_set_clock, gpu_timer.h). */
    ls_clock clock;
} ls_set_report;

/* ---- the job's devices (src/set/census.c) --------------------------------
 * Every device of the job as every rank knows it, in job order: rank 0's
 * in the order of its set, then rank 1's, and so on. The item runner
 * (set_run.h) and the slab runner (slab_run.h) take the same census, so a
 * device has one label and one line in a report however a workload runs. */

typedef struct ls_job_device {
    int32_t rank, slot, is_gpu, pid;
    int32_t shape;    /* its kernel shape (shape.h's ls_shape), LS_SHAPE_NONE for the reference */
    int32_t shares;   /* its memory can be written by another process of its node (caps.h's LS_CAP_SHARE) */
    uint64_t measure; /* the census's measure of it (Life: the memory it may use); 0 without one */
    char label[64];   /* "cuda:0", or "rank 1 cuda:0" in an MPI job */
    char backend[16]; /* its backend's name, "cuda" (another rank's device has no ls_backend here) */
    char host[64];    /* the node it is on */
} ls_job_device;

typedef struct ls_census {
    int ndevices;
    ls_job_device *dev; /* dev[0 .. ndevices) */
    int *rank_first;    /* rank r's devices are [rank_first[r], rank_first[r + 1]) */
} ls_census;

/* A figure of each device that every rank should know (0, or -1 with err set). */
typedef int (*ls_census_measure)(const ls_device *d, uint64_t *out, ls_error *err);

/* Every rank's devices, with `measure` of each when given (collective:
 * every rank calls it, also one that `failed` before, which then takes
 * part only to say so). 0, or -1 on every rank with err set: this rank's
 * reason, or naming the rank that failed. */
int ls_census_take(const ls_set *set, int failed, ls_census_measure measure, ls_census *out, ls_error *err);
void ls_census_free(ls_census *c);

/* What one device of the census did in a run, as its rank tells rank 0. */
typedef struct ls_device_work {
    uint64_t items;
    double seconds;                     /* by its clock: */
    int32_t wall_clock, timer_rejected; /* as ls_set_share's */
} ls_device_work;

/* The message tag of ls_census_report: a workload's own exchanges use
 * tags below it. */
#define LS_TAG_CENSUS_REPORT 32000

/* A run's report from every device's work: each rank gives its own
 * devices' (mine[0 .. its devices of the census)), rank 0 receives every
 * rank's and fills *report with each device's share and the run's wall
 * time; the other ranks fill only computed_only. Collective. 0, or -1
 * with err set. */
int ls_census_report(const ls_job *job, const ls_census *c, const ls_device_work *mine, double wall_seconds,
                     ls_set_report *report, ls_error *err);

/* A report's line for device `of` (its label, rank, kind and backend):
 * what it did and by which clock. */
void ls_set_share_fill(ls_set_share *d, const ls_job_device *of, uint64_t items, double seconds, int wall_clock,
                       int timer_rejected);

/* The "backend:" lines of a report: the device, or for a run on several,
 * each device's share and rate (`unit` names the items) from the run's
 * report (which may have no devices: a run that did not use the set
 * runner). */
void ls_set_print(FILE *out, const ls_set *set, const ls_set_report *report, const char *unit);

/* The clock of a run's seconds on set: the wall clock for the CPU, for a
 * run on several devices (its seconds are the wall time from the first
 * chunk to the last), and for a GPU that has had a timing rejected since
 * `rejected_before` (ls_gpu_timer_rejected before the run), with the
 * reason; else the device's own timer. */
void ls_set_clock(const ls_set *set, uint64_t rejected_before, ls_clock *out);

/* The "clock:" line of a report whose device's timer was not believed
 * (its seconds are the wall time, and why), its text from column
 * `width`; nothing when the clock is what it always is for the device. */
void ls_clock_print(FILE *out, const ls_clock *clock, int width);

/* Whether every device of a set can do every cap of `needs`
 * (LS_CAP_BIT of each; 0: nothing is needed): 1, or 0 with the first
 * device that cannot and why ("opencl:1: this OpenCL device ..."). What
 * a conformance case or a workload's run needs is asked so. */
int ls_set_supports(const ls_set *set, uint32_t needs, char *why, size_t len);

#endif
