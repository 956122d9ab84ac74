/* bmn_report.c - a search's results for people and for scripts. */
#include <inttypes.h>

#include "bmn_search.h"

uint64_t bmn_golden_hash(const bmn_state *st)
{
    uint64_t h = ls_fnv1a(LS_FNV_INIT, st->hist, sizeof st->hist);
    for (uint32_t i = 0; i < st->n_cards; i++)
        h = ls_fnv1a(h, &st->top_cards[i], sizeof st->top_cards[i]);
    for (uint32_t i = 0; i < st->n_tricks; i++)
        h = ls_fnv1a(h, &st->top_tricks[i], sizeof st->top_tricks[i]);
    for (uint32_t i = 0; i < st->n_loops; i++) {
        h = ls_fnv1a(h, &st->loops[i].deal, sizeof st->loops[i].deal);
        h = ls_fnv1a(h, &st->loops[i].r.cards, sizeof st->loops[i].r.cards);
    }
    return h;
}

static void print_top(FILE *out, const bmn_params *p, const bmn_hit *list, uint32_t n, const char *title)
{
    fprintf(out, "%s:\n  %3s %14s %6s %6s  %s\n", title, "#", "deal", "cards", "tricks", "hands");
    for (uint32_t i = 0; i < n; i++) {
        char hands[128];
        bmn_deal_string(p->seed, list[i].deal, hands, sizeof hands);
        fprintf(out, "  %3u %14" PRIu64 " %6u %6u  %s\n", i + 1, list[i].deal, list[i].cards, list[i].tricks, hands);
    }
}

static void json_top(FILE *out, const bmn_params *p, const bmn_hit *list, uint32_t n)
{
    fputc('[', out);
    for (uint32_t i = 0; i < n; i++) {
        char hands[128];
        bmn_deal_string(p->seed, list[i].deal, hands, sizeof hands);
        fprintf(out, "%s{\"deal\":%" PRIu64 ",\"cards\":%u,\"tricks\":%u,\"hands\":\"%s\"}", i ? "," : "",
                list[i].deal, list[i].cards, list[i].tricks, hands);
    }
    fputc(']', out);
}

static double mean_cards(const bmn_state *st)
{
    return st->finished ? (double)st->total_cards / (double)st->finished : 0;
}

void bmn_result_json(const bmn_params *p, const bmn_state *st, FILE *out)
{
    fprintf(out,
            "\"seed\":%" PRIu64 ",\"first\":%" PRIu64 ",\"deals\":%" PRIu64 ",\"top\":%u,\"cap\":%" PRIu64
            ",\"finished\":%" PRIu64 ",\"total_cards\":%" PRIu64 ",\"mean_cards\":%.3f,\"top_by_cards\":",
            p->seed, p->first, st->done, st->k, p->cap, st->finished, st->total_cards, mean_cards(st));
    json_top(out, p, st->top_cards, st->n_cards);
    fprintf(out, ",\"top_by_tricks\":");
    json_top(out, p, st->top_tricks, st->n_tricks);
    fprintf(out, ",\"loops\":[");
    for (uint32_t i = 0; i < st->n_loops; i++) {
        const bmn_loop_rec *l = &st->loops[i];
        char hands[128];
        bmn_deal_string(p->seed, l->deal, hands, sizeof hands);
        fprintf(out,
                "%s{\"deal\":%" PRIu64 ",\"cards\":%" PRIu64 ",\"tricks\":%" PRIu64 ",\"loop_start_cards\":%" PRIu64
                ",\"loop_start_tricks\":%" PRIu64 ",\"loop_cards\":%" PRIu64 ",\"loop_tricks\":%" PRIu64
                ",\"hands\":\"%s\"}",
                i ? "," : "", l->deal, l->r.cards, l->r.tricks, l->r.loop_start_cards, l->r.loop_start_tricks,
                l->r.loop_cards, l->r.loop_tricks, hands);
    }
    fprintf(out, "],\"histogram\":{\"bin_cards\":%u,\"counts\":[", BMN_HIST_WIDTH);
    for (uint32_t b = 0; b < BMN_HIST_BINS; b++)
        fprintf(out, "%s%" PRIu64, b ? "," : "", st->hist[b]);
    fputs("]}", out);
}

void bmn_result_text(const bmn_params *p, const bmn_state *st, FILE *out)
{
    fprintf(out, "top:      %u, cap %" PRIu64 " cards; %" PRIu64 " games finished, %.1f cards per game on average\n",
            st->k, p->cap, st->finished, mean_cards(st));
    print_top(out, p, st->top_cards, st->n_cards, "longest games by cards");
    print_top(out, p, st->top_tricks, st->n_tricks, "longest games by tricks");
    fprintf(out, "games by length (cards, bins of 100):\n");
    for (uint32_t b = 0; b < BMN_HIST_BINS; b += 10) {
        uint64_t sum = 0;
        for (uint32_t k = b; k < b + 10 && k < BMN_HIST_BINS; k++)
            sum += st->hist[k];
        if (sum)
            fprintf(out, "  %5u%s %" PRIu64 "\n", b * BMN_HIST_WIDTH, b + 10 >= BMN_HIST_BINS ? "+     " : "-", sum);
    }
    if (!st->n_loops)
        fprintf(out, "loops:    none\n");
    for (uint32_t i = 0; i < st->n_loops; i++) {
        const bmn_loop_rec *l = &st->loops[i];
        char hands[128];
        bmn_deal_string(p->seed, l->deal, hands, sizeof hands);
        fprintf(out,
                "loop: deal %" PRIu64 " %s repeats after %" PRIu64 " cards, %" PRIu64 " tricks (first seen after %" PRIu64
                " cards, %" PRIu64 " tricks); the loop is %" PRIu64 " tricks, %" PRIu64 " cards\n",
                l->deal, hands, l->r.cards, l->r.tricks, l->r.loop_start_cards, l->r.loop_start_tricks,
                l->r.loop_tricks, l->r.loop_cards);
    }
}
