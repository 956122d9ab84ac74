/* set_report.c - what a report says about the devices a run ran on: the
 * device, or for a run spread over several, each device's share. The
 * workloads' reports call it, so it lives below them. */
#include <inttypes.h>

#include "cluster.h"
#include "set_run.h"
#include "workload.h"

/* Whether s is more than one device: a group, or the ranks of an MPI job. */
int ls_set_several(const ls_set *s)
{
    return s->ndevices > 1 || ls_cluster_size() > 1;
}

void ls_set_print(FILE *out, const ls_set *s, const char *unit)
{
    const ls_set_report *st = s->split;
    if (!ls_set_several(s)) {
        fprintf(out, "backend:  %s:%d (%s)\n", s->backend->name, s->index, s->info.name);
        return;
    }
    int n = st ? st->ndevices : s->ndevices;
    fprintf(out, "backend:  %d devices", n);
    if (ls_cluster_size() > 1)
        fprintf(out, " of %d MPI ranks", ls_cluster_size());
    fprintf(out, "%s\n", st ? ", each:" : "");
    for (int i = 0; st && i < st->ndevices; i++) {
        const ls_set_share *d = &st->dev[i];
        fprintf(out, "  %-24s %14" PRIu64 " %s in %8.3f s, %.4g %s/s\n", d->label, d->items, unit, d->seconds,
                d->seconds > 0 ? (double)d->items / d->seconds : 0.0, unit);
    }
}
