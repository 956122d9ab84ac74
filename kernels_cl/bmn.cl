/* bmn.cl - Beggar My Neighbour deals on OpenCL devices.
 *
 * The game is src/algo/bmn.h, inlined here at build time. As in
 * kernels_cu/bmn.cu, two kernels per batch: bmn_deal_batch deals every
 * starting state (converged work), and bmn_play_batch plays them, one
 * event (bmn_step) per loop iteration; the moment a work-item's game ends
 * it starts the next deal of its group's slice (a local counter), whose
 * hands it loaded a game earlier, so lanes never wait for the longest game
 * or for memory. Per group: a local histogram (local atomics) written to the
 * group's own row of `hist`, and a cards total per work-item in `cards`
 * (summed by the host, so no 64-bit atomics are needed). Rare events take
 * a list slot with a 32-bit atomic_inc on `counters`. */
/* The shuffle keeps each deck in local memory (see bmn_deal_batch). */
#define BMN_DECK_MEM __local
#include "bmn.h"

#define BMN_HIST_WIDTH 10u
#define BMN_HIST_BINS 1001u

typedef struct {
    ulong deal;
    uint cards, tricks;
} bmn_hit_cl; /* layout of bmn_hit in src/workloads/bmn_types.h */

typedef struct {
    uchar na, nb;
    uchar cards[62];
} bmn_deal_in_cl; /* layout of bmn_deal_in */

/* Starting states of deals first + i, i < count: generated, or given
 * (copied to private memory first: the shared header reads only private
 * memory). */
/* A starting state: the two hands' bits (bmn_start). pa == 0 (no
 * sentinel) marks a given deal the engine cannot hold: the host plays it. */
typedef struct {
    ulong pa, qa, pb, qb;
} bmn_cl_hands;

__kernel void bmn_deal_batch(ulong seed, ulong first, ulong count, uint given,
                             __global const bmn_deal_in_cl *deals, __global bmn_cl_hands *games, __local uchar *decks)
{
    /* Entry j of work-item t's deck at decks[j * local_size + t]. */
    ulong i = get_global_id(0);
    if (i >= count)
        return;
    bmn_game g;
    if (given) {
        uchar c[62];
        for (uint k = 0; k < 62u; k++)
            c[k] = deals[i].cards[k];
        if (bmn_load(&g, c, deals[i].na, deals[i].nb) != BMN_RUNNING)
            g.px = 0;
    } else {
        bmn_deal_game_in(seed, first + i, &g, decks + get_local_id(0), (uint)get_local_size(0));
    }
    bmn_cl_hands h = {g.px, g.qx, g.py, g.qy};
    games[i] = h;
}

/* Starts a game from its hands, or marks it for the host (see above). */
static void bmn_cl_begin(bmn_game *g, bmn_cl_hands h)
{
    bmn_start(g, h.pa, h.qa, h.pb, h.qb);
    if (h.pa == 0)
        g->outcome = BMN_INVALID;
}

__kernel void bmn_play_batch(__global const bmn_cl_hands *games, ulong first, ulong count, uint cap, uint min_cards,
                             uint min_tricks, __global ulong *hist_rows, __global ulong *cards_items,
                             __global bmn_hit_cl *hits, __global ulong *capped, volatile __global uint *counters,
                             uint max_hits, uint max_capped)
{
    __local uint lhist[BMN_HIST_BINS];
    __local uint next; /* offset in the group's slice; 32 bits: slices are batches of < 2^32 */
    /* The group's slice of the batch, handed out one deal at a time to
     * whichever work-item finishes a game (as in kernels_cu/bmn.cu). */
    const ulong per_group = (count + get_num_groups(0) - 1) / get_num_groups(0);
    const ulong begin = get_group_id(0) * per_group;
    const ulong end = begin + per_group < count ? begin + per_group : count;
    for (uint b = get_local_id(0); b < BMN_HIST_BINS; b += get_local_size(0))
        lhist[b] = 0;
    if (get_local_id(0) == 0)
        next = 2 * get_local_size(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    /* Each work-item plays deal i and holds the hands of its next deal ni,
     * loaded a whole game ahead (as in kernels_cu/bmn.cu). */
    ulong i = begin + get_local_id(0), ni = begin + get_local_size(0) + get_local_id(0);
    ulong cards_sum = 0;
    if (i < end) {
        bmn_game g;
        bmn_cl_begin(&g, games[i]);
        bmn_cl_hands nh = {0, 0, 0, 0};
        if (ni < end)
            nh = games[ni];
        for (;;) {
            /* Four events between end checks, as in kernels_cu/bmn.cu:
             * bmn_step does nothing once the game is over, and a game that
             * crosses the cap meanwhile goes to the host. */
            uint o = bmn_step(&g);
            o = bmn_step(&g);
            o = bmn_step(&g);
            o = bmn_step(&g);
            if (o == BMN_RUNNING && g.cards < cap)
                continue;
            if ((o != BMN_A_WINS && o != BMN_B_WINS) || g.cards > cap) {
                uint slot = atomic_inc(&counters[1]);
                if (slot < max_capped)
                    capped[slot] = first + i;
            } else {
                uint bin = g.cards / BMN_HIST_WIDTH;
                atomic_inc(&lhist[bin < BMN_HIST_BINS ? bin : BMN_HIST_BINS - 1u]);
                cards_sum += g.cards;
                if (g.cards >= min_cards || g.tricks >= min_tricks) {
                    uint slot = atomic_inc(&counters[0]);
                    if (slot < max_hits) {
                        hits[slot].deal = first + i;
                        hits[slot].cards = g.cards;
                        hits[slot].tricks = g.tricks;
                    }
                }
            }
            if (ni >= end)
                break;
            i = ni;
            bmn_cl_begin(&g, nh);
            ni = begin + atomic_inc(&next);
            if (ni < end)
                nh = games[ni];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __global ulong *row = hist_rows + (ulong)get_group_id(0) * BMN_HIST_BINS;
    for (uint b = get_local_id(0); b < BMN_HIST_BINS; b += get_local_size(0))
        row[b] += lhist[b];
    cards_items[get_global_id(0)] += cards_sum;
}
