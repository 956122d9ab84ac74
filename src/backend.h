/* backend.h - what every backend offers, as one table of function pointers.
 *
 * A backend is compiled in or not (meson options); when compiled in it may
 * still be unavailable on this machine (no NVIDIA driver, no OpenCL
 * platform), and then it says why instead of failing. The host program
 * never calls a backend API directly: it goes through ls_backend.
 *
 * Backends know no workload. Every backend offers the primitives of
 * gpu.h, over which each workload's device driver is written once: a GPU
 * backend (CUDA, OpenCL) with the programs of src/kernels, the OpenMP
 * backend with host memory and the workloads' own CPU implementations as
 * its kernels (host_kernel.h), run on the host's threads. Adding a
 * workload therefore touches no backend, and adding a backend means
 * filling this table and gpu.h's once. */
#ifndef LOCKSTEP_BACKEND_H
#define LOCKSTEP_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "gpu.h"

#define LS_MAX_DEVICES 32

/* What a device is, as the backend that lists it says: the reference
 * (the host CPU running the workloads' own C implementations, which every
 * other device is checked against), or, for a device of a GPU API, what
 * the API reports it as (OpenCL's CL_DEVICE_TYPE; a CUDA device is a GPU). */
typedef enum ls_device_kind {
    LS_DEVICE_REFERENCE,   /* OpenMP's host CPU */
    LS_DEVICE_CPU,         /* a CPU behind a GPU API (PoCL, Intel's CPU runtime) */
    LS_DEVICE_GPU,
    LS_DEVICE_ACCELERATOR, /* OpenCL's ACCELERATOR and CUSTOM devices (FPGAs, DSPs) */
} ls_device_kind;

/* The kind as `devices --json` names it: "reference", "cpu", "gpu",
 * "accelerator". */
const char *ls_device_kind_name(ls_device_kind kind);
/* The device type clinfo and hashcat -I show: "CPU" (the reference too),
 * "GPU", "accelerator". */
const char *ls_device_type_name(ls_device_kind kind);

typedef struct ls_device_info {
    char name[160];
    char platform[160]; /* OpenCL platform, CUDA driver version, OpenMP runtime */
    int compute_units;  /* threads, compute units or multiprocessors */
    /* As the API reports it, taken as told: an OpenCL CPU implementation
     * may report another figure on the next run (PoCL said 4.7 GiB, then
     * 21.5 GiB, issue 34), and what fits on the device with it. */
    uint64_t memory_bytes;
    char memory_reported_by[48]; /* the query it comes from: "CL_DEVICE_GLOBAL_MEM_SIZE" */
    /* The largest single allocation: OpenCL's CL_DEVICE_MAX_MEM_ALLOC_SIZE
     * (PoCL: 2 GiB of 4.8), a CUDA GPU's memory, the host's memory; 0 where
     * the driver does not say. */
    uint64_t max_alloc_bytes;
    ls_device_kind kind;
    /* What a porting report names; "" (or 0) where the backend has none. */
    char vendor[96];        /* "NVIDIA Corporation", "AuthenticAMD" */
    char driver[96];        /* the driver's version: CL_DRIVER_VERSION, CUDA's, the OpenMP runtime's */
    char c_version[64];     /* OpenCL devices: "OpenCL C 1.2 ..." (CL_DEVICE_OPENCL_C_VERSION) */
    int clock_mhz;          /* the highest clock, MHz */
    /* What it can do (caps.h: ls_caps_supports asks it), and what its
     * kernel shape is chosen from (shape.h); every backend fills it, the
     * reference too (the exact float rule, no kernels). */
    ls_device_caps caps;
    /* Which silicon it is, so that paths to the same chip are compared
     * (bench's efficiency): "host" for the host's CPU however it is
     * reached (OpenMP, PoCL, Intel's runtime), else the GPU's UUID
     * ("uuid:...") and its PCI address ("pci:DDDD:BB:DD"), each "" where
     * the API does not say (portability.h's ls_same_silicon compares them). */
    char uuid[40];
    char pci[24];
} ls_device_info;

/* Progress and interruption for long runs: the host drivers call report
 * between chunks of work with the amount done so far. A non-zero return
 * asks the driver to stop after the chunk in hand; results then cover what
 * was done. */
typedef struct ls_progress {
    int (*report)(void *user, uint64_t done, uint64_t total);
    void *user;
    /* Optional: a line of detail shown with the next report (each
     * device's rate when several share a run). */
    void (*detail)(void *user, const char *text);
    /* Optional: the workload's own detail, shown with the next report
     * until replaced (Graveler's maximum so far, a search's best game so
     * far); a driver calls it when it has something new. */
    void (*progress_detail)(void *user, const char *text);
    /* Optional: how much was done before this run began (a search resumed
     * from its checkpoint), called before the first report when there was
     * any: the rate and the time left then count only this run's work,
     * while `done` and `total` stay of the whole. */
    void (*resumed)(void *user, uint64_t done_before);
    /* Optional: the run's state was just saved (a search's checkpoint
     * committed); the line then says how long ago, so that a commit that
     * stalls shows. */
    void (*saved)(void *user);
    /* Optional: the work goes in steps of `items_per_step` items each
     * (Life: a generation of the grid's cells); the line then says how far
     * in those ("generation 120 of 200"), the rate still in items. Called
     * before the first report. */
    void (*stepped)(void *user, const char *step, uint64_t items_per_step);
} ls_progress;

/* A platform of a backend that offers no device here, and why. */
typedef struct ls_empty_platform {
    char name[160]; /* CL_PLATFORM_NAME */
    char why[160];  /* "its driver finds none here (CL_DEVICE_NOT_FOUND)" */
} ls_empty_platform;

typedef struct ls_backend {
    const char *name; /* "openmp", "opencl", "cuda" */
    /* Lists the devices, each with its caps (caps.h). Returns how many
     * (0..max); when the backend cannot run at all here, returns 0 and
     * explains why in `why`. */
    int (*list_devices)(ls_device_info *out, int max, ls_error *why);
    /* Opens device `index` (as numbered by list_devices). */
    ls_ctx *(*open)(int index, ls_error *err);
    void (*close)(ls_ctx *ctx);
    /* The device primitives (gpu.h); a table that runs host programs
     * (runs_host_programs: OpenMP) says its devices are the host's CPU,
     * reached through no driver, so that naming one of them leaves a GPU
     * API's driver free to be narrowed (narrow, below). */
    const ls_gpu *gpu;
    /* Device `index`'s free memory now, where the API tells it (CUDA's
     * cudaMemGetInfo, the host's MemAvailable): 1 with *bytes set, 0 when
     * it does not. NULL: never (core OpenCL has no such query). Only
     * `lockstep devices` asks: on CUDA it makes the device's context. */
    int (*free_memory)(int index, uint64_t *bytes);
    /* Optional: the platforms installed here that offer no device (an
     * OpenCL ICD whose driver finds none), at most max into out: how
     * many. NULL: the backend has no platforms of its own. Only `lockstep
     * devices` asks. */
    int (*empty_platforms)(ls_empty_platform *out, int max);
    /* Optional: called before anything else of the backend, when this
     * process will open devices index[0..n) of it and no others (nor any
     * device of a backend that shares its driver: ls_set_narrow sees to
     * that). A backend whose driver initialises every device it can see
     * (CUDA: cuda_visible.h) lets it see only those; the indices keep
     * their meaning for list_devices and open. 1 when it narrowed. */
    int (*narrow)(const int *index, int n);
} ls_backend;

/* 1 where be's devices are the host's CPU: its method table runs host
 * programs (gpu.h's runs_host_programs). gpu_call.c has it, as the one
 * reader of method tables besides gpu_timer.c (tests/layers.py). */
int ls_backend_runs_host_programs(const ls_backend *be);

/* The backends compiled into this binary, in order of preference for
 * `auto` (cuda, opencl, openmp); NULL-terminated. */
extern const ls_backend *const ls_backends[];

const ls_backend *ls_backend_find(const char *name);

/* The spec used when none is given. */
const char *ls_default_backend_spec(void);
/* Checks that spec: 0, or -1 with err->usage set, blaming
 * $LOCKSTEP_BACKEND when that is where it came from. */
int ls_default_backend_check(ls_error *err);

/* The device `auto` takes here (a CUDA GPU, else an OpenCL GPU, else
 * OpenMP), without opening it. 0, or -1 with err set. */
int ls_auto_device(const ls_backend **backend, int *index, ls_error *err);

/* Checks that a spec names a compiled backend and a sane index, without
 * opening anything; messages name `flag`, where the spec came from
 * ("--backend", "LOCKSTEP_BACKEND"). 0 or -1 with err->usage set. */
int ls_backend_spec_parse(const char *flag, const char *spec, const ls_backend **backend, int *index,
                          ls_error *err);
/* Refuses a list of specs with an empty item (a separator from seps at
 * either end or two in a row: "openmp,", "a,,b") or a space, naming the
 * flag. 0 or -1 with err->usage set. */
int ls_spec_list_check(const char *flag, const char *spec, const char *seps, ls_error *err);
/* One item of a spec list, parsed: a backend (NULL for "auto") and a
 * device index, LS_SPEC_ANY where the item names none ("opencl") or
 * LS_SPEC_ALL ("opencl:all"). */
#define LS_SPEC_ANY (-1)
#define LS_SPEC_ALL (-2)
typedef struct ls_spec_item {
    const ls_backend *backend;
    int index;
    char sep;      /* the separator before it: 0 for the first, ',' or '+' */
    char text[64]; /* the item as written */
} ls_spec_item;

/* The one parser of device specs: a spec or a list joined by ',' and '+'
 * ("cuda:all", "openmp+opencl:0", "cuda:0,openmp") into at most max
 * items, without listing or opening devices. Returns how many, or -1 with
 * err->usage set, naming flag. */
int ls_spec_parse(const char *flag, const char *spec, ls_spec_item *items, int max, ls_error *err);

/* The syntax of a whole spec or list ("cuda:all", "openmp+opencl:0",
 * "cuda:0,openmp"), without opening or listing devices: 0, or -1 with
 * err->usage set, naming flag. */
int ls_spec_syntax_check(const char *flag, const char *spec, ls_error *err);

#endif
