/* device.h - one opened device, and how its work is timed: what the set
 * of a run (set.h) is made of, and what the layers under the set (the
 * GPU primitives' wrappers gpu_call.h, the timer gpu_timer.h) take. */
#ifndef LOCKSTEP_DEVICE_H
#define LOCKSTEP_DEVICE_H

#include <stdint.h>

#include "backend.h"

/* The clock behind a time: the device's own timer (CUDA events, OpenCL
 * profiling), or the host's wall clock. The CPU (OpenMP) is always timed
 * by the wall clock, and so is a run on several devices (its seconds are
 * the wall time of the whole run); a GPU is timed by the wall clock
 * around its finished queues when its timer read a figure that cannot be
 * right (gpu_timer.h), and `why` then says what it read. */
typedef struct ls_clock {
    int wall;      /* 0: the device's timer */
    char why[200]; /* "" unless a GPU's timer was not believed */
} ls_clock;

/* "device" or "wall", as the JSON documents name the clock. */
static inline const char *ls_clock_name(const ls_clock *c)
{
    return c->wall ? "wall" : "device";
}

/* How a GPU device's work was timed (gpu_timer.c), since it was opened. */
typedef struct ls_device_timing {
    double started;    /* the wall clock when its timer was started */
    uint64_t timed;    /* intervals timed */
    uint64_t rejected; /* of them, timed by the wall clock: the device's figure could not be right */
    char why[200];     /* the last figure rejected, said */
} ls_device_timing;

/* One opened device. */
typedef struct ls_device {
    const ls_backend *backend;
    int index; /* among the backend's devices */
    ls_device_info info;
    ls_ctx *ctx;
    char label[48]; /* "cuda:0" */
    ls_device_timing timing;
} ls_device;

#endif
