/* bmn_types.h - one chunk of a Beggar My Neighbour search, as the host
 * driver (src/workloads/bmn/bmn_search.c) hands it to a backend and gets it back.
 *
 * A backend plays deals first .. first+count-1 of `seed` (deal i is
 * bmn_deal_game(seed, i): src/algo/bmn.h), or a list of given deals, each
 * up to `cap` cards, and reports:
 *   - the histogram of game lengths (BMN_HIST_BINS bins of
 *     BMN_HIST_WIDTH cards; the last bin holds every longer finished game),
 *   - every finished deal with cards >= min_cards or tricks >= min_tricks
 *     (the host keeps the top K and raises the thresholds as it goes),
 *   - every deal still running at the cap (the host replays those with
 *     exact loop detection).
 * The lists are unordered; the host sorts. When a list has more entries
 * than room, n_* still counts them all and the host replays the chunk with
 * more room, so nothing is ever lost. */
#ifndef LOCKSTEP_BMN_TYPES_H
#define LOCKSTEP_BMN_TYPES_H

#include <stdint.h>

#define BMN_HIST_WIDTH 10u
#define BMN_HIST_BINS 1001u /* 0-9, 10-19, ..., 9990-9999, >= 10000 cards */

typedef struct bmn_hit {
    uint64_t deal;
    uint32_t cards, tricks;
} bmn_hit;

/* A deal given explicitly (records, hand-built games): na + nb <= 62
 * cards, hand A then hand B, top card first. */
typedef struct bmn_deal_in {
    uint8_t na, nb;
    uint8_t cards[62];
} bmn_deal_in;

typedef struct bmn_range {
    uint64_t seed, first, count;
    uint32_t cap;
    uint32_t min_cards, min_tricks;
    /* NULL: deal i is bmn_deal_game(seed, i). Otherwise deal first + j is
     * deals[j] (j < count) and seed is unused. */
    const bmn_deal_in *deals;
} bmn_range;

typedef struct bmn_range_out {
    uint64_t *hist;          /* BMN_HIST_BINS, added to (the caller zeroes it) */
    uint64_t total_cards;    /* added to: cards of every finished game */
    bmn_hit *hits;           /* room for max_hits */
    uint32_t max_hits, n_hits;
    uint64_t *capped;        /* deal indices, room for max_capped */
    uint32_t max_capped, n_capped;
    double seconds;          /* computation time (device events on GPUs) */
} bmn_range_out;

#endif
