/* bmn_cpu.c - Beggar My Neighbour deals on the CPU (OpenMP): each thread
 * plays whole games with the goto state machine (bmn_run in
 * src/algo/bmn.h), which is the fastest form for one game on one core.
 *
 * Compiled twice (meson: one static library per variant): for baseline
 * x86-64 and for x86-64-v3, whose POPCNT, TZCNT and LZCNT make the game's
 * bit operations single instructions; bmn_cpu_range (in bmn_search.c)
 * picks at run time. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "bmn_types.h"

#ifndef BMN_VARIANT
#error "BMN_VARIANT must name the copy (generic, v3)"
#endif
#define BMN_CAT2(a, b) a##_##b
#define BMN_CAT(a, b) BMN_CAT2(a, b)

int BMN_CAT(bmn_cpu_range, BMN_VARIANT)(const bmn_range *r, bmn_range_out *out, ls_error *err)
{
    int nthreads = omp_get_max_threads();
    uint64_t *hists = calloc((size_t)nthreads * BMN_HIST_BINS, sizeof *hists);
    if (!hists)
        return ls_fail(err, "out of memory for per-thread histograms");
    uint32_t n_hits = 0, n_capped = 0;
    uint64_t total_cards = 0;
    double t0 = omp_get_wtime();
#pragma omp parallel num_threads(nthreads) reduction(+ : total_cards)
    {
        uint64_t *hist = hists + (size_t)omp_get_thread_num() * BMN_HIST_BINS;
#pragma omp for schedule(dynamic, 4096)
        for (uint64_t i = 0; i < r->count; i++) {
            uint64_t deal = r->first + i;
            bmn_result res;
            uint32_t o = r->deals ? bmn_play_capped(r->deals[i].cards, r->deals[i].na, r->deals[i].nb, r->cap, &res)
                                  : bmn_play_deal(r->seed, deal, r->cap, &res);
            if (o == BMN_CAPPED || o == BMN_INVALID) {
                uint32_t slot;
#pragma omp atomic capture
                slot = n_capped++;
                if (slot < out->max_capped)
                    out->capped[slot] = deal;
                continue;
            }
            uint32_t bin = res.cards / BMN_HIST_WIDTH;
            hist[bin < BMN_HIST_BINS ? bin : BMN_HIST_BINS - 1]++;
            total_cards += res.cards;
            if (res.cards >= r->min_cards || res.tricks >= r->min_tricks) {
                uint32_t slot;
#pragma omp atomic capture
                slot = n_hits++;
                if (slot < out->max_hits)
                    out->hits[slot] = (bmn_hit){deal, res.cards, res.tricks};
            }
        }
    }
    out->seconds = omp_get_wtime() - t0;
    for (int t = 0; t < nthreads; t++)
        for (uint32_t b = 0; b < BMN_HIST_BINS; b++)
            out->hist[b] += hists[(size_t)t * BMN_HIST_BINS + b];
    out->total_cards += total_cards;
    out->n_hits = n_hits;
    out->n_capped = n_capped;
    free(hists);
    return 0;
}
