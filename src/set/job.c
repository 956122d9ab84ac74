/* job.c - the ranks of a set's job talking to each other (job.h): the
 * calls the set layer's runners make, over cluster.c's MPI. The job is
 * the set's view of the process's place in the MPI job; these take it so
 * that a caller names what it talks through. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "job.h"

int ls_job_bcast(const ls_job *job, void *data, size_t len, ls_error *err)
{
    return job->size > 1 ? ls_cluster_bcast(data, len, err) : 0;
}

int ls_job_allgather(const ls_job *job, const void *mine, void *all, size_t len, ls_error *err)
{
    if (job->size > 1)
        return ls_cluster_allgather(mine, all, len, err);
    memmove(all, mine, len);
    return 0;
}

const char *ls_job_host(const ls_job *job)
{
    (void)job;
    return ls_cluster_host();
}

int ls_job_count_failed(const ls_job *job, int ok)
{
    return job->size > 1 ? ls_cluster_count_failed(ok) : !ok;
}

/* What a rank says of its step in ls_job_agree. */
typedef struct agree_news {
    int32_t ok, usage;
    char host[64];
    char why[400];
} agree_news;

int ls_job_agree(const ls_job *job, int rc, ls_error *err)
{
    if (job->size < 2)
        return rc ? -1 : 0;
    agree_news mine, *all = calloc((size_t)job->size, sizeof mine);
    memset(&mine, 0, sizeof mine);
    mine.ok = rc == 0;
    mine.usage = rc ? err->usage & 1 : 0;
    snprintf(mine.host, sizeof mine.host, "%s", ls_cluster_host());
    snprintf(mine.why, sizeof mine.why, "%.399s", rc ? err->msg : "");
    if (!all || ls_cluster_allgather(&mine, all, sizeof mine, err) != 0) {
        free(all);
        return all ? -1 : ls_fail(err, "out of memory");
    }
    int failed = -1, alike = 1;
    for (int r = job->size - 1; r >= 0; r--) {
        if (!all[r].ok)
            failed = r;
        alike &= !all[r].ok && strcmp(all[r].why, all[0].why) == 0;
    }
    /* Every rank failed alike (a grid no device holds): no rank to name. */
    if (failed >= 0 && alike)
        ls_fail(err, "%s", all[0].why);
    else if (failed >= 0)
        ls_fail(err, "MPI rank %d (on %s): %s", failed, all[failed].host, all[failed].why);
    if (failed >= 0)
        err->usage = all[failed].usage | LS_ERROR_EVERY_RANK;
    free(all);
    return failed >= 0 ? -1 : 0;
}

int ls_job_exchange(const ls_job *job, const ls_job_msg *sends, int nsends, const ls_job_msg *recvs, int nrecvs,
                    ls_error *err)
{
    (void)job;
    /* The same fields as cluster.c's messages, copied rather than cast
     * (distinct types); an exchange has a few, one per neighbour slab. */
    ls_cluster_msg *msgs = malloc(((size_t)nsends + (size_t)nrecvs + 1) * sizeof *msgs);
    if (!msgs)
        return ls_fail(err, "out of memory for %d messages", nsends + nrecvs);
    for (int i = 0; i < nsends + nrecvs; i++) {
        const ls_job_msg *m = i < nsends ? &sends[i] : &recvs[i - nsends];
        msgs[i] = (ls_cluster_msg){m->rank, m->tag, m->data, m->len};
    }
    int rc = ls_cluster_exchange(msgs, nsends, msgs + nsends, nrecvs, err);
    free(msgs);
    return rc;
}
