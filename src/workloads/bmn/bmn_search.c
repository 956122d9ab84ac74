/* bmn_search.c - the Beggar My Neighbour search driver, over set_run.h.
 *
 * A device plays a chunk of deals (bmn_range_run: bmn_gpu.c or bmn_cpu.c)
 * and returns the length histogram, the deals that reach the top-K
 * thresholds it was given and the deals still running at the card cap,
 * which its thread replays with the exact host player (loop detection).
 * The fold, in chunk order on one thread, keeps the top K by cards and by
 * tricks and the loops, and each fold is committed to the checkpoint;
 * set_run.c spreads the chunks over devices and MPI ranks and stops cleanly
 * on Ctrl-C, SIGTERM or SIGHUP. Results do not depend on the chunking or
 * on who played what: ties in the top K go to the lower deal index. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmn_search.h"
#include "set_run.h"

/* A search as set_run.h sees it: the parameters (what compute reads) and the
 * state that chunks are folded into (what fold and commit change). */
typedef struct bmn_job {
    const bmn_params *p;
    const bmn_deal_in *given; /* deal p->first + j is given[j]; NULL: random deals */
    bmn_state *st;
    bmn_ckpt *ckpt;
    const ls_progress *progress; /* for the best game on the progress line */
} bmn_job;

/* A capped deal replayed exactly on the host: a loop or a long game. */
typedef struct bmn_replayed {
    uint64_t deal;
    bmn_host_result r;
} bmn_replayed;

static int replay_capped(const bmn_job *j, uint64_t deal, bmn_replayed *out, ls_error *err)
{
    uint8_t cards[62];
    size_t na = 26, nb = 26;
    if (j->given) {
        const bmn_deal_in *g = &j->given[deal - j->p->first];
        na = g->na;
        nb = g->nb;
        memcpy(cards, g->cards, na + nb);
    } else {
        bmn_deal(j->p->seed, deal, cards);
    }
    char msg[256];
    out->deal = deal;
    if (bmn_host_play(cards, na, cards + na, nb, NULL, &out->r, msg, sizeof msg) != 0)
        return ls_fail(err, "deal %" PRIu64 ": %s", deal, msg);
    return 0;
}

static int hit_by_deal(const void *x, const void *y)
{
    uint64_t a = ((const bmn_hit *)x)->deal, b = ((const bmn_hit *)y)->deal;
    return (a > b) - (a < b);
}

static int u64_order(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* What a chunk sends to fold: its histogram and card total, the deals
 * that reached the thresholds it was given, and its capped deals replayed
 * on the host; hits and capped deals in deal order. */
static int put_chunk(ls_bytes *out, const bmn_range_out *o, const bmn_replayed *rep)
{
    int bad = ls_bytes_put(out, o->hist, BMN_HIST_BINS * sizeof *o->hist);
    bad |= ls_bytes_put(out, &o->total_cards, sizeof o->total_cards);
    bad |= ls_bytes_put(out, &o->n_hits, sizeof o->n_hits);
    bad |= ls_bytes_put(out, o->hits, o->n_hits * sizeof *o->hits);
    bad |= ls_bytes_put(out, &o->n_capped, sizeof o->n_capped);
    bad |= ls_bytes_put(out, rep, o->n_capped * sizeof *rep);
    return bad ? -1 : 0;
}

/* Plays deals [lo, lo + n) on device d with the top-K thresholds of the
 * hint. Plays the chunk again with more room when a list overflowed, so
 * nothing is dropped. */
static int bmn_compute(const void *job, ls_device *d, uint64_t lo, uint64_t n, const void *hint, size_t hint_len,
                       ls_bytes *out, double *secs, ls_error *err)
{
    const bmn_job *j = job;
    const bmn_params *p = j->p;
    uint32_t min[2] = {0, 0};
    if (hint && hint_len == sizeof min)
        memcpy(min, hint, sizeof min);
    uint32_t max_hits = n < BMN_FIRST_CHUNK ? (uint32_t)n : 1u << 16, max_capped = 256;
    for (;;) {
        bmn_range r = {p->seed, lo, n, (uint32_t)p->cap, min[0], min[1], j->given ? j->given + (lo - p->first) : NULL};
        uint64_t *hist = calloc(BMN_HIST_BINS, sizeof *hist);
        bmn_hit *hits = calloc(max_hits ? max_hits : 1, sizeof *hits);
        uint64_t *capped = calloc(max_capped, sizeof *capped);
        bmn_replayed *rep = calloc(max_capped, sizeof *rep);
        int rc = 0, again = 0;
        bmn_range_out o = {hist, 0, hits, max_hits, 0, capped, max_capped, 0, 0.0};
        if (!hist || !hits || !capped || !rep)
            rc = ls_fail(err, "out of memory for a chunk of %" PRIu64 " deals", n);
        else
            rc = bmn_range_run(d, &r, &o, err);
        if (rc == 0 && (o.n_hits > max_hits || o.n_capped > max_capped)) {
            /* Overflow: the counts are exact, so one replay with room suffices. */
            max_hits = o.n_hits > max_hits ? o.n_hits : max_hits;
            max_capped = o.n_capped > max_capped ? o.n_capped : max_capped;
            again = 1;
        } else if (rc == 0) {
            /* In deal order, whatever order the device found them in: the
             * checkpoint's records and the loops' order depend on nothing
             * else. */
            qsort(hits, o.n_hits, sizeof *hits, hit_by_deal);
            qsort(capped, o.n_capped, sizeof *capped, u64_order);
            for (uint32_t i = 0; i < o.n_capped && rc == 0; i++)
                rc = replay_capped(j, capped[i], &rep[i], err);
            if (rc == 0 && put_chunk(out, &o, rep) != 0)
                rc = ls_fail(err, "out of memory for a chunk's results");
            *secs = o.seconds;
        }
        free(hist);
        free(hits);
        free(capped);
        free(rep);
        if (!again)
            return rc;
    }
}

/* Folds a chunk into the state: what play_chunk did on one device. */
static int bmn_fold(void *job, uint64_t lo, uint64_t n, const void *bytes, size_t len, double secs, ls_error *err)
{
    bmn_job *j = job;
    bmn_state *st = j->st;
    ls_bytes_reader r = {bytes, len};
    uint64_t hist[BMN_HIST_BINS], total_cards;
    uint32_t n_hits = 0, n_rep = 0;
    const unsigned char *hits = NULL, *reps = NULL;
    if (ls_bytes_get(&r, hist, sizeof hist) == 0 && ls_bytes_get(&r, &total_cards, sizeof total_cards) == 0 &&
        ls_bytes_get(&r, &n_hits, sizeof n_hits) == 0)
        hits = ls_bytes_take(&r, (size_t)n_hits * sizeof(bmn_hit));
    if (hits && ls_bytes_get(&r, &n_rep, sizeof n_rep) == 0)
        reps = ls_bytes_take(&r, (size_t)n_rep * sizeof(bmn_replayed));
    if (!reps || r.left != 0)
        return ls_fail(err, "deals %" PRIu64 "+%" PRIu64 ": a malformed result of %zu bytes", lo, n, len);
    for (uint32_t b = 0; b < BMN_HIST_BINS; b++) {
        st->hist[b] += hist[b];
        st->finished += hist[b];
    }
    st->total_cards += total_cards;
    for (uint32_t i = 0; i < n_hits; i++) {
        bmn_hit h;
        memcpy(&h, hits + (size_t)i * sizeof h, sizeof h);
        bmn_top_insert(st->top_cards, &st->n_cards, st->k, h, 0);
        bmn_top_insert(st->top_tricks, &st->n_tricks, st->k, h, 1);
    }
    for (uint32_t i = 0; i < n_rep; i++) {
        bmn_replayed rep;
        memcpy(&rep, reps + (size_t)i * sizeof rep, sizeof rep);
        if (rep.r.outcome == BMN_LOOP) {
            if (bmn_state_add_loop(st, rep.deal, &rep.r) != 0)
                return ls_fail(err, "out of memory for loops");
        } else {
            bmn_state_add_game(st, (bmn_hit){rep.deal, (uint32_t)rep.r.cards, (uint32_t)rep.r.tricks});
        }
    }
    st->done += n;
    st->seconds += secs;
    /* What a week-long hunt is for, on its progress line. */
    if (j->progress && j->progress->progress_detail && st->n_cards) {
        char text[80];
        snprintf(text, sizeof text, "best so far %" PRIu32 " cards (deal %" PRIu64 ")", st->top_cards[0].cards,
                 st->top_cards[0].deal);
        j->progress->progress_detail(j->progress->user, text);
    }
    return 0;
}

/* The thresholds a deal must reach to enter the top lists as they are:
 * every later fold only raises them, so a chunk that reports what reaches
 * older ones misses nothing. */
static size_t bmn_hint(const void *job, void *out, size_t max)
{
    const bmn_state *st = ((const bmn_job *)job)->st;
    uint32_t min[2] = {st->n_cards == st->k ? st->top_cards[st->k - 1].cards : 0,
                       st->n_tricks == st->k ? st->top_tricks[st->k - 1].tricks : 0};
    if (max < sizeof min)
        return 0;
    memcpy(out, min, sizeof min);
    return sizeof min;
}

static int bmn_commit(void *job, ls_error *err)
{
    bmn_job *j = job;
    if (!j->ckpt)
        return 0;
    if (bmn_ckpt_commit(j->ckpt, j->p, j->st, err) != 0)
        return -1;
    if (j->progress && j->progress->saved) /* the age of the last commit, on the progress line */
        j->progress->saved(j->progress->user);
    return 0;
}

static const ls_set_ops bmn_set_ops = {
    .unit = "deals",
    .first_gpu = BMN_FIRST_CHUNK,
    .first_cpu = BMN_FIRST_CHUNK,
    .max_chunk = BMN_MAX_CHUNK,
    .compute = bmn_compute,
    .fold = bmn_fold,
    .hint = bmn_hint,
    .commit = bmn_commit,
};

/* Runs the search of p on the set (every device of it, every rank of its
 * job) into st, resuming from the checkpoint when one is named and
 * committing it after every fold. Only rank 0 holds the state and the
 * checkpoint. */
int bmn_search_run(ls_set *set, const bmn_params *p, bmn_state *st, const ls_progress *prog, ls_set_report *report,
                   const bmn_deal_in *given, ls_error *err)
{
    memset(st, 0, sizeof *st);
    st->k = (uint32_t)p->top;
    bmn_job job = {p, given, st, NULL, prog};
    if (p->checkpoint && set->job.rank == 0 && bmn_ckpt_open(&job.ckpt, p->checkpoint, p, st, err) != 0)
        return -1;
    int rc = ls_set_run(set, &bmn_set_ops, &job, p->first, p->first + st->done, p->first + p->deals, prog, report,
                        err);
    st->interrupted = report->interrupted;
    /* The file stays locked to the end; closing can fail too (the log is
     * folded back in), and that is reported unless an error came first. */
    if (bmn_ckpt_close(job.ckpt, rc == 0 ? err : NULL) != 0)
        rc = -1;
    return rc;
}
