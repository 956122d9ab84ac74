/* gpu_timer.h - the one way the workloads time work on a GPU: the
 * backend's timer (gpu.h's timer_start and timer_stop) checked against the
 * wall clock around it, as SQLite wraps each OS call once.
 *
 * A device timer can read what cannot be true: a conformant OpenCL CPU
 * implementation whose profiling counters read 0 for every command made
 * `bench graveler --battles 1e7` print a median of 0 s and 1e16 battles/s
 * (issue 25). So every figure is checked: it must be finite, above 0 when
 * the interval held work, and no more than the wall time from the call
 * that started the timer to the return of the one that stopped it (which
 * waits for both queues), and not too short to be true: a counter that
 * read 1 ns for any kernel made the same bench report 1e16 battles/s
 * (issue 34), so a figure under a microsecond is refused too. A figure
 * that fails is replaced by that wall time, and the device records that
 * it was (ls_device.timing), so that a report says which clock its
 * seconds come from (ls_clock). The wall time
 * includes what the host did in between (queueing the launches) and any
 * work queued before the start that had not finished: it can only
 * overstate the device's time, never make a rate that was not there.
 *
 * LOCKSTEP_DEBUG_TIMER=zero (=tiny, =huge) makes every GPU timer read 0 s
 * (1 ns, a thousand times the wall time) before the check, for the tests:
 * a device whose counters read 0 can be shown without one. */
#ifndef LOCKSTEP_GPU_TIMER_H
#define LOCKSTEP_GPU_TIMER_H

#include <stdint.h>

#include "device.h"

/* Checks LOCKSTEP_DEBUG_TIMER before a run, so that a value it does not
 * know is refused as the user's error (exit 2) before anything runs,
 * rather than from a device's thread. 0, or -1 with err->usage set. */
int ls_gpu_timer_check_debug(ls_error *err);

/* Starts timing the work queued on d (a GPU device) from here on. 0, or
 * -1 with err set. */
int ls_gpu_timer_start(ls_device *d, ls_error *err);

/* Waits for d's queues and sets *seconds to the device's time for the
 * work since ls_gpu_timer_start, or to the wall time when the device's
 * figure cannot be right. `work` is what the interval held (items,
 * generations): 0 when nothing ran, and then a device time of 0 is
 * believed. 0, or -1 with err set. */
int ls_gpu_timer_stop(ls_device *d, uint64_t work, double *seconds, ls_error *err);

/* Waits for everything queued on d (a GPU device) so far, outside any
 * timing (never between ls_gpu_timer_start and ls_gpu_timer_stop): the
 * backend's timer pair with its figure thrown away, as gpu.h has no wait
 * of its own; d's timing record is left as it was. 0, or -1 with err set. */
int ls_gpu_wait(ls_device *d, ls_error *err);

/* 1 where d's time is the wall clock: its backend has no timer of its own
 * (gpu.h: the host CPU, which runs its work as it is queued), and the
 * calls above read the host's clock, with nothing to check or reject. */
int ls_device_timed_by_wall(const ls_device *d);

/* How many of d's timings so far were taken by the wall clock (a mark for
 * ls_set_clock). */
uint64_t ls_gpu_timer_rejected(const ls_device *d);


#endif
