/* bmn_kernels.h - Beggar My Neighbour deals on GPUs, written once for
 * OpenCL and CUDA (src/kernels/dialect.h); the game is src/algo/bmn.h.
 * Two kernels per batch of deals:
 *
 *  bmn_deal_batch  deals the cards (13 Philox blocks and a shuffle each, or
 *                  a given deal) into an array of starting states. Every
 *                  work-item does the same work here, so groups stay
 *                  converged; each shuffles its deck in local memory.
 *  bmn_play_batch  a work-item plays BMN_STEPS events (bmn_step) per loop
 *                  iteration and, the moment its game ends, starts the next
 *                  deal of its group's slice (a local counter), whose hands
 *                  it loaded a whole game earlier. Lanes never wait for the
 *                  longest game of their warp, and switching deals costs a
 *                  few register moves instead of a divergent shuffle or a
 *                  wait on memory (the seed program's two lessons: the game
 *                  as a state machine, and deals switched inside the loop
 *                  from a ready backlog).
 *
 * Per group: a local histogram of game lengths (local atomics) added to the
 * group's own row of `hist_rows`, and a cards total per work-item in
 * `cards_items` (the host sums both, so no 64-bit atomics are needed). The
 * host gives each queue its own rows, so batches on two queues may overlap.
 * Rare events (a deal above the thresholds, or still running at the cap)
 * take a slot in the global lists with a 32-bit atomic increment. */
/* 128 registers on compilers that cap them program-wide (dialect.h): on
 * NVIDIA's OpenCL 1e9 deals took 1.094 s so, against 1.106 s without
 * (docs/perf/2026-11-24-h200-nv-registers.log); CUDA keeps nvcc's 79. */
#define LS_REGISTERS_128
#include "dialect.h"
#if LS_SHAPE != LS_SHAPE_CPU
#define BMN_DECK_MEM LS_LOCAL /* the shuffle's deck lives in local memory */
#endif
#include "bmn.h"

/* Events played between two checks for the end of a game. On the H200,
 * 1e9 deals: 1.028e9 deals/s at 4, 1.039e9 at 8, 1.032e9 at 12, 1.009e9
 * at 16 through CUDA; 8.99e8, 9.04e8, 8.99e8, 8.83e8 through NVIDIA's
 * OpenCL (docs/perf/2026-11-24-h200-graveler-unroll.log; 1 and 2 were
 * slower than 4 before). */
#ifndef BMN_STEPS
#define BMN_STEPS 8
#endif

LS_KERNEL void LS_MAX_GROUP(BMN_DEAL_GROUP)
    bmn_deal_batch(ls_u64 seed, ls_u64 first, ls_u64 count, ls_u32 given, LS_GLOBAL const bmn_deal_in *deals,
                   LS_GLOBAL bmn_start_bits *games LS_DYNAMIC_LOCAL_PARAM(ls_u8, decks))
{
    /* Entry j of work-item t's deck at decks[j * group size + t]:
     * neighbouring items, neighbouring bytes. */
    LS_DYNAMIC_LOCAL(ls_u8, decks);
    ls_u64 i = ls_gid();
    if (i >= count)
        return;
    bmn_game g;
    if (given) {
        /* The shared header reads private memory only. */
        ls_u8 c[62];
        for (ls_u32 k = 0; k < 62u; k++)
            c[k] = deals[i].cards[k];
        if (bmn_load(&g, c, deals[i].na, deals[i].nb) != BMN_RUNNING)
            g.px = 0;
    } else {
#if LS_SHAPE == LS_SHAPE_CPU
        /* A CPU's private deck is 52 bytes of its stack, where the group's
         * interleaved decks put each card of a deck on a line of its own. */
        (void)decks;
        bmn_deal_game(seed, first + i, &g);
#else
        bmn_deal_game_in(seed, first + i, &g, decks + ls_lid(), ls_lsize());
#endif
    }
    games[i] = bmn_start_of(&g);
}

/* Counts a finished game, or hands it to the host. */
LS_DEVICE void bmn_record(ls_u64 deal, const bmn_game *g, ls_u32 cap, ls_u32 min_cards, ls_u32 min_tricks,
                          LS_LOCAL ls_u32 *lhist, ls_u64 *cards_sum, LS_GLOBAL bmn_hit *hits,
                          LS_GLOBAL ls_u64 *capped, LS_GLOBAL ls_u32 *counters, ls_u32 max_hits, ls_u32 max_capped)
{
    if ((g->outcome != BMN_A_WINS && g->outcome != BMN_B_WINS) || g->cards > cap) {
        ls_u32 slot = ls_atomic_inc_global(&counters[1]);
        if (slot < max_capped)
            capped[slot] = deal;
        return;
    }
    ls_u32 bin = g->cards / BMN_HIST_WIDTH;
    ls_atomic_inc_local(&lhist[bin < BMN_HIST_BINS ? bin : BMN_HIST_BINS - 1u]);
    *cards_sum += g->cards;
    if (g->cards >= min_cards || g->tricks >= min_tricks) {
        ls_u32 slot = ls_atomic_inc_global(&counters[0]);
        if (slot < max_hits) {
            hits[slot].deal = deal;
            hits[slot].cards = g->cards;
            hits[slot].tricks = g->tricks;
        }
    }
}

#if LS_SHAPE == LS_SHAPE_CPU
/* The CPU shape: a group is a loop over its work-items on one core, so
 * nothing is gained by switching deals inside a loop of events (that
 * keeps a GPU's lanes busy); a work-item plays each of its deals whole
 * with the goto state machine (bmn_run), as OpenMP's threads do. Games
 * stopped by the cap go to the host as on the other shapes. */
LS_KERNEL void bmn_play_batch(LS_GLOBAL const bmn_start_bits *games, ls_u64 first, ls_u64 count, ls_u32 cap,
                              ls_u32 min_cards, ls_u32 min_tricks, LS_GLOBAL ls_u64 *hist_rows,
                              LS_GLOBAL ls_u64 *cards_items, LS_GLOBAL bmn_hit *hits, LS_GLOBAL ls_u64 *capped,
                              LS_GLOBAL ls_u32 *counters, ls_u32 max_hits, ls_u32 max_capped)
{
    LS_SHARED ls_u32 lhist[BMN_HIST_BINS];
    const ls_u64 per_group = (count + ls_ngroups() - 1u) / ls_ngroups();
    const ls_u64 begin = ls_group() * per_group;
    const ls_u64 end = begin + per_group < count ? begin + per_group : count;
    for (ls_u32 b = ls_lid(); b < BMN_HIST_BINS; b += ls_lsize())
        lhist[b] = 0;
    ls_barrier();
    ls_u64 cards_sum = 0;
    for (ls_u64 i = begin + ls_lid(); i < end; i += ls_lsize()) {
        bmn_game g;
        bmn_begin(&g, games[i]);
        bmn_run(&g, cap);
        bmn_record(first + i, &g, cap, min_cards, min_tricks, lhist, &cards_sum, hits, capped, counters, max_hits,
                   max_capped);
    }
    ls_barrier();
    LS_GLOBAL ls_u64 *row = hist_rows + ls_group() * BMN_HIST_BINS;
    for (ls_u32 b = ls_lid(); b < BMN_HIST_BINS; b += ls_lsize())
        row[b] += lhist[b];
    cards_items[ls_gid()] += cards_sum;
}
#else
LS_KERNEL void bmn_play_batch(LS_GLOBAL const bmn_start_bits *games, ls_u64 first, ls_u64 count, ls_u32 cap,
                              ls_u32 min_cards, ls_u32 min_tricks, LS_GLOBAL ls_u64 *hist_rows,
                              LS_GLOBAL ls_u64 *cards_items, LS_GLOBAL bmn_hit *hits, LS_GLOBAL ls_u64 *capped,
                              LS_GLOBAL ls_u32 *counters, ls_u32 max_hits, ls_u32 max_capped)
{
    LS_SHARED ls_u32 lhist[BMN_HIST_BINS];
    /* Offset of the next deal in the group's slice; 32 bits, since slices
     * are batches of < 2^32 and 32-bit local atomics are native (64-bit
     * ones are a compare-and-swap loop on NVIDIA GPUs). */
    LS_SHARED ls_u32 next;
    /* The group's slice of the batch, handed out one deal at a time to
     * whichever work-item finishes a game: items stay busy until the slice
     * is used up, whatever the lengths of their games. */
    const ls_u64 per_group = (count + ls_ngroups() - 1u) / ls_ngroups();
    const ls_u64 begin = ls_group() * per_group;
    const ls_u64 end = begin + per_group < count ? begin + per_group : count;
    for (ls_u32 b = ls_lid(); b < BMN_HIST_BINS; b += ls_lsize())
        lhist[b] = 0;
    if (ls_lid() == 0)
        next = 2u * ls_lsize();
    ls_barrier();
    ls_u64 cards_sum = 0;
    /* Each item plays deal i and holds the hands of its next deal ni,
     * loaded a whole game ahead, so a finished item never waits on memory. */
    ls_u64 i = begin + ls_lid(), ni = begin + ls_lsize() + ls_lid();
    if (i < end) {
        bmn_game g;
        bmn_begin(&g, games[i]);
        bmn_start_bits nh = {0, 0, 0, 0};
        if (ni < end)
            nh = games[ni];
        for (;;) {
            /* BMN_STEPS events between checks: bmn_step does nothing once
             * the game is over, and a game that crosses the cap meanwhile
             * goes to the host, which replays it exactly. */
            ls_u32 o = BMN_RUNNING;
#pragma unroll
            for (int k = 0; k < BMN_STEPS; k++)
                o = bmn_step(&g);
            if (o == BMN_RUNNING && g.cards < cap)
                continue;
            bmn_record(first + i, &g, cap, min_cards, min_tricks, lhist, &cards_sum, hits, capped, counters,
                       max_hits, max_capped);
            if (ni >= end)
                break;
            i = ni;
            bmn_begin(&g, nh);
            ni = begin + ls_atomic_inc_local(&next);
            if (ni < end)
                nh = games[ni];
        }
    }
    ls_barrier();
    LS_GLOBAL ls_u64 *row = hist_rows + ls_group() * BMN_HIST_BINS;
    for (ls_u32 b = ls_lid(); b < BMN_HIST_BINS; b += ls_lsize())
        row[b] += lhist[b];
    cards_items[ls_gid()] += cards_sum;
}

#endif

#define LS_PROGRAM_KERNELS(X) X(bmn_deal_batch) X(bmn_play_batch)
