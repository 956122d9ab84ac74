/* set_run.h - one long run cut into chunks and spread over every device of
 * a set (one host thread each) and over the ranks of an MPI job.
 *
 * The workloads whose work items are numbered (Graveler's battles, BMN's
 * deals) describe a run as three functions: compute one chunk of items on
 * a device into bytes, fold those bytes into the result, and (optionally)
 * a hint that the folded result gives the devices (BMN's top-K
 * thresholds). ls_set_run does the rest:
 *
 *   - chunks are handed out in order of their first item, to whichever
 *     device is free: a faster device takes more; each device's chunks are
 *     sized from its own rate (chunks.h), smaller near the end so that the
 *     devices finish together;
 *   - results are folded on one thread in chunk order, so what is folded
 *     is always a prefix [lo, lo + done) of the range, and the result is
 *     the same bits however the range was cut and whoever computed it
 *     (every item is a pure function of its index; a hint only lets a
 *     device leave out items that cannot matter);
 *   - progress is reported with each device's rate; a stop request (Ctrl-C)
 *     lets every device finish its chunk, folds them, and returns;
 *   - under MPI (cluster.h) rank 0 hands out the chunks to the devices of
 *     every rank and alone folds, so it alone holds the result and commits
 *     checkpoints; the other ranks only compute.
 *
 * With one device in one process the same code runs, with one device
 * thread: every run takes the path a multi-device run takes. */
#ifndef LOCKSTEP_SPLIT_H
#define LOCKSTEP_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "set.h"

/* A growable byte string: what compute writes and fold reads. */
typedef struct ls_bytes {
    unsigned char *data;
    size_t len, cap;
} ls_bytes;

/* Appends n bytes; 0, or -1 when out of memory. */
int ls_bytes_put(ls_bytes *b, const void *p, size_t n);
void ls_bytes_free(ls_bytes *b);

/* Reads a chunk's bytes back in the order they were put. */
typedef struct ls_bytes_reader {
    const unsigned char *p;
    size_t left;
} ls_bytes_reader;
/* Copies n bytes out; -1 when fewer are left (a malformed chunk). */
int ls_bytes_get(ls_bytes_reader *r, void *out, size_t n);
/* The next n bytes where they are (unaligned: memcpy them out), or NULL
 * when fewer are left. */
const unsigned char *ls_bytes_take(ls_bytes_reader *r, size_t n);

#define LS_SET_HINT_MAX 64

typedef struct ls_set_ops {
    const char *unit; /* what the items are, for messages: "battles" */
    /* Chunk sizes in items: the first on a GPU and on a CPU device, and the
     * most in one chunk. */
    uint64_t first_gpu, first_cpu, max_chunk;
    /* Computes items [lo, lo + n) on device d and writes what fold needs to
     * out; `hint` is what hint() wrote when the chunk was handed out (NULL
     * when there is no hint). Runs on the device's own thread, perhaps in
     * another process: it may read the job's parameters only, never what
     * fold changes. *seconds: the device's time for the chunk. */
    int (*compute)(const void *job, ls_device *d, uint64_t lo, uint64_t n, const void *hint, size_t hint_len,
                   ls_bytes *out, double *seconds, ls_error *err);
    /* Adds a computed chunk to the result: on one thread, in order of lo,
     * each chunk once. */
    int (*fold)(void *job, uint64_t lo, uint64_t n, const void *bytes, size_t len, double seconds, ls_error *err);
    /* What the devices may use of the result folded so far, at most
     * LS_SET_HINT_MAX bytes; NULL when there is nothing. */
    size_t (*hint)(const void *job, void *out, size_t max);
    /* After one or more folds, with the result consistent (a checkpoint
     * commit); NULL when there is nothing to do. */
    int (*commit)(void *job, ls_error *err);
} ls_set_ops;

/* Runs items [lo, hi) of job over the devices of the set (and of every
 * rank of its job), folding into job; each device's share goes to
 * *report. Progress is reported as items done since `origin` (the first
 * item of a search; a resumed one starts at lo > origin) out of
 * hi - origin, and the lo - origin done before is given to
 * progress->resumed, so that the rate is this run's. 0, or -1 with err
 * naming the device that failed; what was folded before the failure stays
 * folded (and committed). On ranks other than 0 it returns once rank 0 has no
 * more work, with report->computed_only set. */
int ls_set_run(ls_set *set, const ls_set_ops *ops, void *job, uint64_t origin, uint64_t lo, uint64_t hi,
               const ls_progress *progress, ls_set_report *report, ls_error *err);

#endif
