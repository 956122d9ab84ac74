/* cluster.h - the processes of an MPI job, or just this one.
 *
 * lockstep joins an MPI job only when a launcher started it (Open MPI's
 * mpirun sets OMPI_COMM_WORLD_SIZE; PMI and PMIx launchers set PMI_SIZE
 * or PMIX_RANK) and the build has MPI (meson -Dmpi). Otherwise it is one
 * process: rank 0 of 1. Only the main thread calls MPI
 * (MPI_THREAD_FUNNELED); the device threads of set_run.c never do.
 *
 * The messages are set_run.c's: small structs and byte strings with a tag,
 * sent whole, received whole. */
#ifndef LOCKSTEP_CLUSTER_H
#define LOCKSTEP_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Joins the MPI job when launched into one. 0, or -1 with err set (an MPI
 * launcher but a build without MPI; MPI_Init failed). */
int ls_cluster_start(int *argc, char ***argv, ls_error *err);
/* Leaves the job (MPI_Finalize); nothing when not in one. */
void ls_cluster_finish(void);
/* Ends every process of the job at once with `code` (MPI_Abort), or just
 * this one. */
void ls_cluster_abort(int code);

int ls_cluster_rank(void);       /* 0 when not in a job */
int ls_cluster_size(void);       /* 1 when not in a job */
int ls_cluster_local_rank(void); /* among the ranks of this node */
int ls_cluster_local_size(void);
const char *ls_cluster_host(void); /* this node's name */
/* The size an MPI launcher announced in the environment (1 when none), for
 * commands that refuse to run as several ranks. */
int ls_cluster_launched_size(void);

/* The MPI library this build runs across ranks with ("Open MPI v4.1.4"),
 * or "" when it was built without MPI. */
void ls_cluster_library(char *out, size_t len);

/* Every rank gives the text that defines its problem (lines such as
 * "--seed 7"); when any rank's differs from rank 0's, returns -1 on every
 * rank with err naming the first differing line of the lowest such rank
 * and rank 0's. 0 when all agree or not in a job. A collective call. */
int ls_cluster_agree(const char *mine, ls_error *err);

/* Every rank says whether it is ready; returns how many are not (0: all
 * ready). A collective call: every rank must make it. */
int ls_cluster_count_failed(int ok);

/* Sends len bytes to `rank` with `tag`. 0, or -1 with err set. */
int ls_cluster_send(int rank, int tag, const void *data, size_t len, ls_error *err);
/* A message that has arrived from any rank: 1 and *data (malloc'ed, the
 * caller frees it), *len, *rank and *tag set; 0 when none is waiting; -1
 * with err set. */
int ls_cluster_poll(int *rank, int *tag, void **data, size_t *len, ls_error *err);

/* ---- collectives of work that every rank shares (Life's slabs) --------
 * Each is called by every rank in the same order (a collective), or, for
 * ls_cluster_exchange, by the ranks that name each other. Outside a job
 * they act on this one process. Lengths have no limit: what passes 2^30
 * bytes goes in pieces (MPI counts are ints). */

/* Rank 0's `len` bytes at data, to data on every rank. */
int ls_cluster_bcast(void *data, size_t len, ls_error *err);
/* Every rank's `len` bytes at mine, to all on every rank: rank r's at
 * all + r * len. */
int ls_cluster_allgather(const void *mine, void *all, size_t len, ls_error *err);
/* The sum of every rank's *value, to *value on every rank. */
int ls_cluster_sum(uint64_t *value, ls_error *err);

/* One message of an exchange: to or from `rank` with `tag` (below 32767,
 * MPI's least upper bound), len bytes at data. */
typedef struct ls_cluster_msg {
    int rank, tag;
    void *data;
    size_t len;
} ls_cluster_msg;

/* Starts every send and every receive at once and returns when all are
 * done (so no order of the ranks' calls can deadlock). Each receive must
 * match a send of the same length; between two ranks, messages of one tag
 * arrive in the order they were given. Never to or from this rank itself.
 * 0, or -1 with err naming the rank that failed. */
int ls_cluster_exchange(const ls_cluster_msg *sends, int nsends, const ls_cluster_msg *recvs, int nrecvs,
                        ls_error *err);

#endif
