/* job.h - the ranks of a set's job talking to each other (job.c), for the
 * set layer's own use: the census and the slab runner (slab_run.h), whose
 * slabs exchange ghost planes. Private to src/set/: a workload hands its
 * work to a runner and never talks to other ranks itself
 * (tests/layers.py), as it never reads the process's MPI state
 * (cluster.h). Each call but ls_job_exchange is made by every rank in the
 * same order; with one rank each acts on this process alone. Lengths have
 * no limit (what passes 2^30 bytes goes in pieces). */
#ifndef LOCKSTEP_JOB_H
#define LOCKSTEP_JOB_H

#include <stddef.h>

#include "set.h"

/* Rank 0's `len` bytes at data, to data on every rank. */
int ls_job_bcast(const ls_job *job, void *data, size_t len, ls_error *err);
/* Every rank's `len` bytes at mine, to all on every rank: rank r's at
 * all + r * len. */
int ls_job_allgather(const ls_job *job, const void *mine, void *all, size_t len, ls_error *err);
/* The name of this rank's node, for messages that name a rank. */
const char *ls_job_host(const ls_job *job);
/* How many ranks are not ok (0: all are). */
int ls_job_count_failed(const ls_job *job, int ok);
/* Every rank's outcome of a step (rc: 0, or -1 with err set), made one:
 * 0 when every rank succeeded; else -1 on every rank, err the first
 * failing rank's message naming it ("MPI rank 1 (on HOST): ..."), its
 * usage bit kept and LS_ERROR_EVERY_RANK set, so that rank 0 alone says
 * it and no rank ends the others. With one rank, rc as it is. */
int ls_job_agree(const ls_job *job, int rc, ls_error *err);

/* One message of an exchange: to or from `rank` with `tag` (below 32767),
 * len bytes at data. */
typedef struct ls_job_msg {
    int rank, tag;
    void *data;
    size_t len;
} ls_job_msg;
/* Starts every send and receive at once and returns when all are done (no
 * order of the ranks' calls can deadlock); each receive matches a send of
 * the same length, never to or from this rank. 0, or -1 with err naming
 * the rank that failed. */
int ls_job_exchange(const ls_job *job, const ls_job_msg *sends, int nsends, const ls_job_msg *recvs, int nrecvs,
                    ls_error *err);


#endif
