/* census.c - every device of a job, as every rank knows it (set.h): the
 * one census that the item runner and the slab runner take, so that a device
 * has one label, one place in job order and one line in a report however
 * the workload runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_call.h"
#include "job.h"

/* What a rank tells the others: its devices; n < 0 when it failed. */
typedef struct rank_news {
    int32_t n;
    ls_job_device dev[LS_SET_MAX_DEVICES];
} rank_news;

/* This rank's devices as the others will know them; n = -1 when failed
 * or a measure failed (err then says why). */
static void describe(const ls_set *set, int failed, ls_census_measure measure, rank_news *mine, ls_error *err)
{
    memset(mine, 0, sizeof *mine);
    mine->n = failed || set->ndevices > LS_SET_MAX_DEVICES ? -1 : set->ndevices;
    if (set->ndevices > LS_SET_MAX_DEVICES && !failed)
        ls_fail(err, "%d devices in one process; at most %d", set->ndevices, LS_SET_MAX_DEVICES);
    for (int i = 0; mine->n > 0 && i < set->ndevices; i++) {
        const ls_device *d = &set->dev[i];
        ls_job_device *j = &mine->dev[i];
        j->rank = set->job.rank;
        j->slot = i;
        j->is_gpu = d->info.kind == LS_DEVICE_GPU;
        j->shape = ls_device_shape(d);
        j->shares = ls_device_supports(d, LS_CAP_SHARE, NULL, 0);
        j->pid = (int32_t)getpid();
        snprintf(j->host, sizeof j->host, "%s", ls_job_host(&set->job));
        snprintf(j->backend, sizeof j->backend, "%s", d->backend->name);
        if (set->job.size > 1)
            snprintf(j->label, sizeof j->label, "rank %d %.48s", j->rank, d->label);
        else
            snprintf(j->label, sizeof j->label, "%.48s", d->label);
        if (measure && measure(d, &j->measure, err)) {
            mine->n = -1;
            return;
        }
    }
}

int ls_census_take(const ls_set *set, int failed, ls_census_measure measure, ls_census *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    int size = set->job.size;
    rank_news mine, *all = calloc((size_t)size, sizeof *all);
    out->rank_first = calloc((size_t)size + 1, sizeof *out->rank_first);
    out->dev = calloc((size_t)size * LS_SET_MAX_DEVICES, sizeof *out->dev);
    if (!all || !out->rank_first || !out->dev) {
        free(all);
        failed = 1;
        ls_fail(err, "out of memory for the devices of %d ranks", size);
    }
    /* Every rank takes part, whatever it could do: none waits for one that has given up. */
    describe(set, failed, measure, &mine, err);
    int rc = all ? ls_job_allgather(&set->job, &mine, all, sizeof mine, err) : -1;
    for (int r = 0; r < size && rc == 0; r++) {
        if (all[r].n < 0 || all[r].n > LS_SET_MAX_DEVICES) {
            rc = mine.n < 0 ? -1 : ls_fail(err, "MPI rank %d could not describe its devices; nothing was run", r);
            break;
        }
        out->rank_first[r] = out->ndevices;
        for (int i = 0; i < all[r].n; i++) {
            out->dev[out->ndevices] = all[r].dev[i];
            out->dev[out->ndevices].label[sizeof out->dev[0].label - 1] = 0;
            out->dev[out->ndevices].host[sizeof out->dev[0].host - 1] = 0;
            out->dev[out->ndevices].backend[sizeof out->dev[0].backend - 1] = 0;
            out->ndevices++;
        }
    }
    if (rc == 0)
        out->rank_first[size] = out->ndevices;
    free(all);
    if (rc)
        ls_census_free(out);
    return rc;
}

void ls_census_free(ls_census *c)
{
    free(c->dev);
    free(c->rank_first);
    memset(c, 0, sizeof *c);
}

int ls_census_report(const ls_job *job, const ls_census *c, const ls_device_work *mine, double wall_seconds,
                     ls_set_report *report, ls_error *err)
{
    int root = job->rank == 0, nrecvs = 0;
    int first = c->rank_first[job->rank], n = c->rank_first[job->rank + 1] - first;
    ls_device_work *all = calloc((size_t)c->ndevices + 1, sizeof *all);
    ls_job_msg *recv = calloc((size_t)job->size, sizeof *recv);
    memset(report, 0, sizeof *report);
    report->computed_only = !root;
    if (!all || !recv) {
        free(all);
        free(recv);
        return ls_fail(err, "out of memory");
    }
    memcpy(all + first, mine, (size_t)n * sizeof *mine);
    ls_job_msg send = {0, LS_TAG_CENSUS_REPORT, all + first, (size_t)n * sizeof *all};
    for (int r = 1; root && r < job->size; r++)
        recv[nrecvs++] = (ls_job_msg){r, LS_TAG_CENSUS_REPORT, all + c->rank_first[r],
                                      (size_t)(c->rank_first[r + 1] - c->rank_first[r]) * sizeof *all};
    int rc = ls_job_exchange(job, &send, root ? 0 : 1, recv, nrecvs, err);
    report->seconds = report->wall_seconds = wall_seconds;
    report->ndevices = root ? (c->ndevices < LS_SET_MAX_DEVICES ? c->ndevices : LS_SET_MAX_DEVICES) : 0;
    for (int i = 0; i < report->ndevices && rc == 0; i++) {
        ls_set_share_fill(&report->dev[i], &c->dev[i], all[i].items, all[i].seconds, all[i].wall_clock,
                          all[i].timer_rejected);
        report->done += all[i].items;
    }
    free(all);
    free(recv);
    return rc;
}

void ls_set_share_fill(ls_set_share *d, const ls_job_device *of, uint64_t items, double seconds, int wall_clock,
                       int timer_rejected)
{
    memset(d, 0, sizeof *d);
    snprintf(d->label, sizeof d->label, "%s", of->label);
    snprintf(d->backend, sizeof d->backend, "%s", of->backend);
    d->rank = of->rank;
    d->is_gpu = of->is_gpu;
    d->shape = (ls_shape)of->shape;
    d->items = items;
    d->seconds = seconds;
    d->wall_clock = wall_clock != 0;
    d->timer_rejected = timer_rejected != 0;
}

int ls_set_supports(const ls_set *set, uint32_t needs, char *why, size_t len)
{
    for (int i = 0; i < set->ndevices; i++)
        for (int cap = 0; cap < LS_CAPS; cap++)
            if ((needs & LS_CAP_BIT(cap)) && !ls_device_supports(&set->dev[i], (ls_cap)cap, why, len))
                return 0;
    return 1;
}
