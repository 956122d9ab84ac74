/* bmn_search.c - the Beggar My Neighbour search driver.
 *
 * A search is driven from here in chunks: a backend plays a chunk of deals
 * (bmn_range_run: bmn_gpu.c or bmn_cpu.c) and returns the length histogram, the deals that reach
 * the current top-K thresholds and the deals still running at the card cap;
 * this file keeps the top K by cards and by tricks, replays capped deals
 * with the exact host player (loop detection), commits each chunk to the
 * checkpoint, and stops cleanly on Ctrl-C, SIGTERM or SIGHUP. Results do not
 * depend on the chunking: ties in the top K go to the lower deal index. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bmn_search.h"
#include "chunks.h"

/* Plays a capped deal exactly on the host: a loop, or a long finite game. */
static int resolve_capped(bmn_state *st, const bmn_params *p, uint64_t deal, const bmn_deal_in *given,
                          ls_error *err)
{
    uint8_t cards[62];
    size_t na = 26, nb = 26;
    if (given) {
        na = given->na;
        nb = given->nb;
        memcpy(cards, given->cards, na + nb);
    } else {
        bmn_deal(p->seed, deal, cards);
    }
    bmn_host_result r;
    char msg[256];
    if (bmn_host_play(cards, na, cards + na, nb, NULL, &r, msg, sizeof msg) != 0)
        return ls_fail(err, "deal %" PRIu64 ": %s", deal, msg);
    if (r.outcome == BMN_LOOP) {
        if (bmn_state_add_loop(st, deal, &r) != 0)
            return ls_fail(err, "out of memory for loops");
        return 0;
    }
    bmn_hit h = {deal, (uint32_t)r.cards, (uint32_t)r.tricks};
    bmn_state_add_game(st, h);
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

/* Plays deals [first + done, first + done + n) (or the given ones) on the
 * device and folds them into st. Replays the chunk with more room when a
 * list overflowed, so nothing is dropped. */
static int play_chunk(ls_session *s, const bmn_params *p, bmn_state *st, uint64_t n, const bmn_deal_in *given,
                      double *chunk_seconds, ls_error *err)
{
    uint32_t max_hits = n < BMN_FIRST_CHUNK ? (uint32_t)n : 1u << 16, max_capped = 256;
    for (;;) {
        bmn_range r = {p->seed,
                       p->first + st->done,
                       n,
                       (uint32_t)p->cap,
                       st->n_cards == st->k ? st->top_cards[st->k - 1].cards : 0,
                       st->n_tricks == st->k ? st->top_tricks[st->k - 1].tricks : 0,
                       given};
        uint64_t *hist = calloc(BMN_HIST_BINS, sizeof *hist);
        bmn_hit *hits = calloc(max_hits ? max_hits : 1, sizeof *hits);
        uint64_t *capped = calloc(max_capped, sizeof *capped);
        if (!hist || !hits || !capped) {
            free(hist);
            free(hits);
            free(capped);
            return ls_fail(err, "out of memory for a chunk of %" PRIu64 " deals", n);
        }
        bmn_range_out out = {hist, 0, hits, max_hits, 0, capped, max_capped, 0, 0.0};
        int rc = bmn_range_run(s, &r, &out, err);
        if (rc == 0 && (out.n_hits > max_hits || out.n_capped > max_capped)) {
            /* Overflow: the counts are exact, so one replay with room suffices. */
            max_hits = out.n_hits > max_hits ? out.n_hits : max_hits;
            max_capped = out.n_capped > max_capped ? out.n_capped : max_capped;
            free(hist);
            free(hits);
            free(capped);
            continue;
        }
        if (rc == 0) {
            for (uint32_t b = 0; b < BMN_HIST_BINS; b++)
                st->hist[b] += hist[b];
            st->total_cards += out.total_cards;
            for (uint32_t b = 0; b < BMN_HIST_BINS; b++)
                st->finished += hist[b];
            /* Sorting the hits by deal keeps checkpoint files identical
             * whatever order the device found them in. */
            qsort(hits, out.n_hits, sizeof *hits, hit_by_deal);
            for (uint32_t i = 0; i < out.n_hits; i++) {
                bmn_top_insert(st->top_cards, &st->n_cards, st->k, hits[i], 0);
                bmn_top_insert(st->top_tricks, &st->n_tricks, st->k, hits[i], 1);
            }
            /* In deal order too: loops are listed (and digested) in the
             * order found, which must not depend on the device or on where
             * a checkpointed search was resumed. */
            qsort(capped, out.n_capped, sizeof *capped, u64_order);
            for (uint32_t i = 0; i < out.n_capped && rc == 0; i++) {
                uint64_t deal = capped[i];
                rc = resolve_capped(st, p, deal, given ? &given[deal - r.first] : NULL, err);
            }
            *chunk_seconds = out.seconds;
        }
        free(hist);
        free(hits);
        free(capped);
        return rc;
    }
}

/* Runs the search of p on s into st, resuming from the checkpoint when one
 * is named and committing it after every chunk. */
int bmn_search_run(ls_session *s, const bmn_params *p, bmn_state *st, const ls_progress *prog,
                          const bmn_deal_in *given, ls_error *err)
{
    memset(st, 0, sizeof *st);
    st->k = (uint32_t)p->top;
    bmn_ckpt *c = NULL;
    if (p->checkpoint && bmn_ckpt_open(&c, p->checkpoint, p, st, err) != 0)
        return -1;
    ls_chunks chunks;
    ls_chunks_init(&chunks, BMN_FIRST_CHUNK, BMN_MAX_CHUNK);
    int rc = 0;
    while (st->done < p->deals && rc == 0) {
        uint64_t n = ls_chunks_next(&chunks, p->deals - st->done);
        double secs = 0;
        rc = play_chunk(s, p, st, n, given ? given + st->done : NULL, &secs, err);
        if (rc != 0)
            break;
        st->done += n;
        st->seconds += secs;
        if (c)
            rc = bmn_ckpt_commit(c, p, st, err);
        ls_chunks_done(&chunks, n, secs);
        if (prog && prog->report && prog->report(prog->user, st->done, p->deals)) {
            st->interrupted = st->done < p->deals;
            break;
        }
    }
    /* The file stays locked to the end; closing can fail too (the log is
     * folded back in), and that is reported unless an error came first. */
    if (bmn_ckpt_close(c, rc == 0 ? err : NULL) != 0)
        rc = -1;
    return rc;
}
