/* gpu_timer.c - see gpu_timer.h. */
#include "gpu_timer.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"

/* A device time may exceed the wall time around it by this much and still
 * be believed: the device's clock and the host's tick at slightly
 * different rates, and CUDA's events resolve half a microsecond. */
#define LS_TIMER_SLACK_FRACTION 0.01
#define LS_TIMER_SLACK_SECONDS 10e-6

/* The least a device time for work that ran can be: no device starts and
 * ends a kernel in less than a microsecond (CUDA's events resolve half of
 * one). A counter that read 1 ns for any kernel made `bench graveler
 * --battles 1e7` report 1e16 battles/s (issue 34). The bound is not a
 * share of the wall time: that may hold far more than the device's work,
 * as PoCL builds a kernel's code at its first run inside the wait (a
 * 64x64 Life generation took 1/20000 of the wall time around it,
 * docs/perf/2026-11-28-cpu-pocl-timer-floor.log). */
#define LS_TIMER_FLOOR_SECONDS 1e-6

enum { DEBUG_NONE, DEBUG_ZERO, DEBUG_TINY, DEBUG_HUGE };

/* LOCKSTEP_DEBUG_TIMER: 0 when unset, else what the timers read (said on
 * stderr once a process); -1 with err->usage set for a value it does not
 * know. */
static int debug_timer(ls_error *err)
{
    static atomic_int said;
    const char *v = getenv("LOCKSTEP_DEBUG_TIMER");
    if (!v || !*v)
        return DEBUG_NONE;
    int mode = strcmp(v, "zero") == 0   ? DEBUG_ZERO
               : strcmp(v, "tiny") == 0 ? DEBUG_TINY
               : strcmp(v, "huge") == 0 ? DEBUG_HUGE
                                        : -1;
    if (mode < 0)
        return ls_fail_usage(err, "LOCKSTEP_DEBUG_TIMER: expected zero, tiny or huge, got '%s'", v);
    if (atomic_exchange(&said, 1) == 0)
        fprintf(stderr, "lockstep: LOCKSTEP_DEBUG_TIMER is set: every GPU timer reads %s on purpose\n",
                mode == DEBUG_ZERO   ? "0 s"
                : mode == DEBUG_TINY ? "1 ns"
                                     : "a thousand times the wall time");
    return mode;
}

int ls_gpu_timer_check_debug(ls_error *err)
{
    return debug_timer(err) < 0 ? -1 : 0;
}

int ls_device_timed_by_wall(const ls_device *d)
{
    const ls_gpu *gpu = d->backend->gpu;
    return !gpu || !gpu->timer_start || !gpu->timer_stop;
}

/* A device timed by the wall clock has no timer to read wrong: the debug
 * switch leaves it alone, as it leaves the host's clock. */
int ls_gpu_timer_start(ls_device *d, ls_error *err)
{
    d->timing.started = ls_now();
    if (ls_device_timed_by_wall(d))
        return 0;
    if (debug_timer(err) < 0)
        return -1;
    d->timing.started = ls_now();
    return d->backend->gpu->timer_start(d->ctx, err);
}

/* Why a device time cannot be right for an interval of `wall` seconds
 * that held `work`, into why; 0 when it can be. */
static int implausible(const ls_device *d, double device, double wall, uint64_t work, char *why, size_t len)
{
    if (!isfinite(device))
        snprintf(why, len, "%s's timer read %g s, not a time", d->label, device);
    else if (device < 0)
        snprintf(why, len, "%s's timer read %.9g s, a negative time", d->label, device);
    else if (device == 0 && work > 0)
        snprintf(why, len, "%s's timer read 0 s for work that ran", d->label);
    else if (device < LS_TIMER_FLOOR_SECONDS && work > 0)
        snprintf(why, len, "%s's timer read %.3g s for work that ran, too short to be true (under a microsecond)",
                 d->label, device);
    else if (device > wall * (1 + LS_TIMER_SLACK_FRACTION) + LS_TIMER_SLACK_SECONDS)
        snprintf(why, len, "%s's timer read %.6g s, more than the %.6g s the host waited for the work", d->label,
                 device, wall);
    else
        return 0;
    return 1;
}

int ls_gpu_timer_stop(ls_device *d, uint64_t work, double *seconds, ls_error *err)
{
    if (ls_device_timed_by_wall(d)) {
        d->timing.timed++;
        *seconds = ls_now() - d->timing.started;
        return 0;
    }
    int debug = debug_timer(err);
    if (debug < 0)
        return -1;
    double device = 0;
    if (d->backend->gpu->timer_stop(d->ctx, &device, err) != 0)
        return -1;
    double wall = ls_now() - d->timing.started;
    if (debug == DEBUG_ZERO)
        device = 0;
    else if (debug == DEBUG_TINY)
        device = 1e-9;
    else if (debug == DEBUG_HUGE)
        device = 1000 * wall + 1;
    d->timing.timed++;
    *seconds = device;
    if (implausible(d, device, wall, work, d->timing.why, sizeof d->timing.why)) {
        d->timing.rejected++;
        *seconds = wall;
    }
    return 0;
}

int ls_gpu_wait(ls_device *d, ls_error *err)
{
    const ls_gpu *gpu = d->backend->gpu;
    if (ls_device_timed_by_wall(d)) /* its work ran as it was queued */
        return 0;
    double ignored;
    return gpu->timer_start(d->ctx, err) != 0 || gpu->timer_stop(d->ctx, &ignored, err) != 0 ? -1 : 0;
}

uint64_t ls_gpu_timer_rejected(const ls_device *d)
{
    return d->timing.rejected;
}

