/* bmn_topk.c - a search's state: the top-K lists by cards and by tricks, the
 * histogram and the loops. */
#include <stdlib.h>

#include "bmn_search.h"

/* ---- top K ---------------------------------------------------------------- */

/* Whether x ranks before y: more cards (or tricks), then lower deal. */
static int ranks_before(const bmn_hit *x, const bmn_hit *y, int by_tricks)
{
    uint32_t kx = by_tricks ? x->tricks : x->cards, ky = by_tricks ? y->tricks : y->cards;
    return kx != ky ? kx > ky : x->deal < y->deal;
}

/* Inserts h into a list kept sorted and at most k long; 1 if it entered. */
int bmn_top_insert(bmn_hit *list, uint32_t *n, uint32_t k, bmn_hit h, int by_tricks)
{
    if (*n == k && !ranks_before(&h, &list[k - 1], by_tricks))
        return 0;
    uint32_t i = *n < k ? (*n)++ : k - 1;
    while (i > 0 && ranks_before(&h, &list[i - 1], by_tricks)) {
        list[i] = list[i - 1];
        i--;
    }
    list[i] = h;
    return 1;
}

int bmn_state_add_loop(bmn_state *st, uint64_t deal, const bmn_host_result *r)
{
    if (st->n_loops == st->room_loops) {
        uint32_t room = st->room_loops ? 2 * st->room_loops : 16;
        bmn_loop_rec *p = realloc(st->loops, room * sizeof *p);
        if (!p)
            return -1;
        st->loops = p;
        st->room_loops = room;
    }
    st->loops[st->n_loops++] = (bmn_loop_rec){deal, *r};
    return 0;
}

/* Counts a finished game; returns 1 when it entered a top list. */
int bmn_state_add_game(bmn_state *st, bmn_hit h)
{
    uint32_t bin = h.cards / BMN_HIST_WIDTH;
    st->hist[bin < BMN_HIST_BINS ? bin : BMN_HIST_BINS - 1]++;
    st->total_cards += h.cards;
    st->finished++;
    int a = bmn_top_insert(st->top_cards, &st->n_cards, st->k, h, 0);
    int b = bmn_top_insert(st->top_tricks, &st->n_tricks, st->k, h, 1);
    return a || b;
}

/* ---- deals as text -------------------------------------------------------- */

void bmn_deal_string(uint64_t seed, uint64_t deal, char *out, size_t len)
{
    uint8_t c[52];
    bmn_deal(seed, deal, c);
    bmn_format_deal(c, 26, c + 26, 26, out, len);
}

