/* job.c - the ranks of a set's job talking to each other (set.h): the
 * calls a workload makes, over cluster.c's MPI. The job is the set's
 * view of the process's place in the MPI job; these take it so that a
 * workload names what it talks through, and so that a workload never
 * includes cluster.h. */
#include <string.h>

#include "cluster.h"
#include "set.h"

/* The job's messages and cluster.c's are the same fields in the same
 * order: an exchange passes them through. */
_Static_assert(sizeof(ls_job_msg) == sizeof(ls_cluster_msg), "ls_job_msg mirrors ls_cluster_msg");

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

int ls_job_count_failed(const ls_job *job, int ok)
{
    return job->size > 1 ? ls_cluster_count_failed(ok) : !ok;
}

int ls_job_exchange(const ls_job *job, const ls_job_msg *sends, int nsends, const ls_job_msg *recvs, int nrecvs,
                    ls_error *err)
{
    (void)job;
    return ls_cluster_exchange((const ls_cluster_msg *)sends, nsends, (const ls_cluster_msg *)recvs, nrecvs, err);
}
