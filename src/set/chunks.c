/* chunks.c - see chunks.h. */
#include "chunks.h"

void ls_chunks_init(ls_chunks *c, uint64_t first, uint64_t max)
{
    c->next = first ? first : 1;
    c->max = max ? max : 1;
    c->done = 0;
    c->seconds = 0;
}

uint64_t ls_chunks_next(const ls_chunks *c, uint64_t remaining)
{
    uint64_t n = c->next < c->max ? c->next : c->max;
    return n < remaining ? n : remaining;
}

void ls_chunks_done(ls_chunks *c, uint64_t n, double seconds)
{
    c->done += n;
    c->seconds += seconds;
    /* At the rate so far, LS_CHUNK_SECONDS' worth; at most 8x the last
     * range, so that one fast first range cannot promise too much. */
    double want = c->seconds > 0 ? (double)c->done / c->seconds * LS_CHUNK_SECONDS : 8.0 * (double)n;
    if (want > 8.0 * (double)n)
        want = 8.0 * (double)n;
    if (want < 1.0)
        want = 1.0;
    c->next = want >= (double)c->max ? c->max : (uint64_t)want;
}
