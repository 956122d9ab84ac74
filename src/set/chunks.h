/* chunks.h - how a host driver cuts a long run into ranges.
 *
 * Ranges are what a device computes in one call; between them the driver
 * reports progress, honours Ctrl-C and commits checkpoints, so a range
 * should take a fraction of a second. The first range has a size the
 * workload picks for the device kind; each later one is sized from the
 * rate measured so far to take about LS_CHUNK_SECONDS. Results never
 * depend on the cut: every work item is a pure function of its index. */
#ifndef LOCKSTEP_CHUNKS_H
#define LOCKSTEP_CHUNKS_H

#include <stdint.h>

#define LS_CHUNK_SECONDS 0.25

typedef struct ls_chunks {
    uint64_t next;   /* size of the next range */
    uint64_t max;    /* never more than this in one range */
    uint64_t done;   /* items done so far (for the rate) */
    double seconds;  /* time they took */
} ls_chunks;

void ls_chunks_init(ls_chunks *c, uint64_t first, uint64_t max);
/* The size of the next range, at most `remaining`. */
uint64_t ls_chunks_next(const ls_chunks *c, uint64_t remaining);
/* Records a finished range and sizes the next. */
void ls_chunks_done(ls_chunks *c, uint64_t n, double seconds);

#endif
