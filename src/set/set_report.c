/* set_report.c - what a report says about the set a run ran on: the
 * device, or for a run on several, each device's share, and the clock of
 * its seconds. The workloads' reports call it, so it lives below them. */
#include <inttypes.h>
#include <string.h>

#include "gpu_timer.h"
#include "set.h"

int ls_set_several(const ls_set *set)
{
    return set->ndevices > 1 || set->job.size > 1;
}

void ls_set_print(FILE *out, const ls_set *set, const ls_set_report *report, const char *unit)
{
    const ls_set_report *st = report && report->ndevices ? report : NULL;
    if (!ls_set_several(set)) {
        const ls_device *d = &set->dev[0];
        fprintf(out, "backend:  %s (%s)\n", d->label, d->info.name);
        if (report)
            ls_clock_print(out, &report->clock, 10);
        return;
    }
    int n = st ? st->ndevices : set->ndevices;
    fprintf(out, "backend:  %d devices", n);
    if (set->job.size > 1)
        fprintf(out, " of %d MPI ranks", set->job.size);
    fprintf(out, "%s\n", st ? ", each:" : "");
    for (int i = 0; st && i < st->ndevices; i++) {
        const ls_set_share *d = &st->dev[i];
        fprintf(out, "  %-24s %14" PRIu64 " %s in %8.3f s, %.4g %s/s%s\n", d->label, d->items, unit, d->seconds,
                d->seconds > 0 ? (double)d->items / d->seconds : 0.0, unit,
                d->timer_rejected ? " (wall clock: its timer read a time that cannot be right)" : "");
    }
}

void ls_set_clock(const ls_set *set, uint64_t rejected_before, ls_clock *out)
{
    memset(out, 0, sizeof *out);
    const ls_device *d = &set->dev[0];
    out->wall = ls_set_several(set) || ls_device_timed_by_wall(d);
    if (!ls_set_several(set) && d->timing.rejected > rejected_before) {
        out->wall = 1;
        snprintf(out->why, sizeof out->why, "%s", d->timing.why);
    }
}

void ls_clock_print(FILE *out, const ls_clock *clock, int width)
{
    if (clock->why[0])
        fprintf(out, "%-*swall time around the finished queues, not the device's timer: %s\n", width, "clock:",
                clock->why);
}
