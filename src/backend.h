/* backend.h - what every backend offers, as one table of function pointers.
 *
 * A backend is compiled in or not (meson options); when compiled in it may
 * still be unavailable on this machine (no NVIDIA driver, no OpenCL
 * platform), and then it says why instead of failing. The host program
 * never calls a backend API directly: it goes through ls_backend.
 *
 * Adding a workload means adding one entry point per backend below (and its
 * kernels); adding a backend means filling this table once. */
#ifndef LOCKSTEP_BACKEND_H
#define LOCKSTEP_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "bmn_types.h"
#include "workloads/graveler_types.h"

#define LS_MAX_DEVICES 32

typedef struct ls_device_info {
    char name[160];
    char platform[160]; /* OpenCL platform, CUDA driver version, OpenMP runtime */
    int compute_units;  /* threads, compute units or multiprocessors */
    uint64_t memory_bytes;
    int is_gpu;
} ls_device_info;

/* A device opened for work; each backend defines the struct. */
typedef struct ls_ctx ls_ctx;

/* Progress and interruption for long runs: called between chunks of work
 * with the amount done so far. A non-zero return asks the backend to stop
 * after the chunk in hand; results then cover what was done. */
typedef struct ls_progress {
    int (*report)(void *user, uint64_t done, uint64_t total);
    void *user;
} ls_progress;

typedef struct ls_backend {
    const char *name; /* "openmp", "opencl", "cuda" */
    /* Lists the devices. Returns how many (0..max); when the backend cannot
     * run at all here, returns 0 and explains why in `why`. */
    int (*list_devices)(ls_device_info *out, int max, ls_error *why);
    /* Opens device `index` (as numbered by list_devices). */
    ls_ctx *(*open)(int index, ls_error *err);
    void (*close)(ls_ctx *ctx);

    /* Workloads: 0 on success, -1 with err set. */
    int (*graveler)(ls_ctx *ctx, const grv_params *p, grv_result *r,
                    const ls_progress *progress, ls_error *err);
    /* Plays one chunk of a Beggar My Neighbour search (bmn_types.h);
     * progress and interruption are the host driver's business. */
    int (*bmn)(ls_ctx *ctx, const bmn_range *r, bmn_range_out *out, ls_error *err);
} ls_backend;

/* The backends compiled into this binary, in order of preference for
 * `auto` (cuda, opencl, openmp); NULL-terminated. */
extern const ls_backend *const ls_backends[];

const ls_backend *ls_backend_find(const char *name);

/* An opened device together with its backend and description. */
typedef struct ls_session {
    const ls_backend *backend;
    int index;
    ls_device_info info;
    ls_ctx *ctx;
} ls_session;

/* Opens a device from a spec: "auto", "NAME" or "NAME:INDEX". NULL spec
 * means $LOCKSTEP_BACKEND, else the build's default. Returns 0, or -1 with
 * err set (err->usage marks a bad spec, which is the user's error). */
int ls_session_open(const char *spec, ls_session *s, ls_error *err);
void ls_session_close(ls_session *s);

/* The spec used when none is given. */
const char *ls_default_backend_spec(void);

/* Checks that a spec names a compiled backend and a sane index, without
 * opening anything. 0 or -1 with err->usage set. */
int ls_backend_spec_parse(const char *spec, const ls_backend **backend,
                          int *index, ls_error *err);

#endif
