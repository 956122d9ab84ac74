/* bmn_report.c - a search's results for people and for scripts, and its digest. */
#include <inttypes.h>

#include "bmn_search.h"

/* ---- results -------------------------------------------------------------- */

uint64_t bmn_state_digest(const bmn_state *st)
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

void bmn_state_print(const bmn_params *p, const ls_session *s, const bmn_state *st, int json, FILE *out)
{
    double rate = st->seconds > 0 ? (double)st->done / st->seconds : 0;
    double mean = st->finished ? (double)st->total_cards / (double)st->finished : 0;
    char digest[17];
    snprintf(digest, sizeof digest, "%016" PRIx64, bmn_state_digest(st));
    if (json) {
        fprintf(out, "{\"workload\":\"bmn\"");
        if (s) {
            fprintf(out, ",\"backend\":\"%s\",\"device_index\":%d,\"device\":", s->backend->name, s->index);
            ls_json_string(out, s->info.name);
        }
        fprintf(out,
                ",\"seed\":%" PRIu64 ",\"first\":%" PRIu64 ",\"deals\":%" PRIu64 ",\"top\":%u,\"cap\":%" PRIu64
                ",\"interrupted\":%s,\"seconds\":%.6f,\"deals_per_second\":%.6g,\"mean_cards\":%.3f,\"digest\":\"%s\","
                "\"top_by_cards\":",
                p->seed, p->first, st->done, st->k, p->cap, st->interrupted ? "true" : "false", st->seconds, rate, mean,
                digest);
        json_top(out, p, st->top_cards, st->n_cards);
        fprintf(out, ",\"top_by_tricks\":");
        json_top(out, p, st->top_tricks, st->n_tricks);
        fprintf(out, ",\"loops\":[");
        for (uint32_t i = 0; i < st->n_loops; i++) {
            char hands[128];
            bmn_deal_string(p->seed, st->loops[i].deal, hands, sizeof hands);
            fprintf(out,
                    "%s{\"deal\":%" PRIu64 ",\"cards\":%" PRIu64 ",\"tricks\":%" PRIu64 ",\"loop_cards\":%" PRIu64
                    ",\"loop_tricks\":%" PRIu64 ",\"hands\":\"%s\"}",
                    i ? "," : "", st->loops[i].deal, st->loops[i].r.cards, st->loops[i].r.tricks,
                    st->loops[i].r.loop_cards, st->loops[i].r.loop_tricks, hands);
        }
        fprintf(out, "],\"histogram_bin_cards\":%u,\"histogram\":[", BMN_HIST_WIDTH);
        for (uint32_t b = 0; b < BMN_HIST_BINS; b++)
            fprintf(out, "%s%" PRIu64, b ? "," : "", st->hist[b]);
        fprintf(out, "]}\n");
        return;
    }
    fprintf(out, "bmn search: %" PRIu64 " deals from %" PRIu64 ", seed %" PRIu64 "%s\n", st->done, p->first, p->seed,
            st->interrupted ? " (interrupted: best so far)" : "");
    if (s)
        fprintf(out, "backend:  %s:%d (%s)\n", s->backend->name, s->index, s->info.name);
    fprintf(out, "time:     %.3f s, %.4g deals/s, %.1f cards per game on average\n", st->seconds, rate, mean);
    fprintf(out, "digest:   %s\n", digest);
    print_top(out, p, st->top_cards, st->n_cards, "longest games by cards");
    print_top(out, p, st->top_tricks, st->n_tricks, "longest games by tricks");
    fprintf(out, "games by length (cards, bins of 100):\n");
    for (uint32_t b = 0; b < BMN_HIST_BINS; b += 10) {
        uint64_t sum = 0;
        for (uint32_t k = b; k < b + 10 && k < BMN_HIST_BINS; k++)
            sum += st->hist[k];
        if (sum)
            fprintf(out, "  %5u%s %" PRIu64 "\n", b * BMN_HIST_WIDTH,
                    b + 1 >= BMN_HIST_BINS ? "+     " : "-" , sum);
    }
    if (!st->n_loops)
        fprintf(out, "loops:    none\n");
    for (uint32_t i = 0; i < st->n_loops; i++) {
        char hands[128];
        bmn_deal_string(p->seed, st->loops[i].deal, hands, sizeof hands);
        fprintf(out, "loop: deal %" PRIu64 " %s repeats after %" PRIu64 " cards; the loop is %" PRIu64
                     " tricks, %" PRIu64 " cards\n",
                st->loops[i].deal, hands, st->loops[i].r.cards, st->loops[i].r.loop_tricks, st->loops[i].r.loop_cards);
    }
}

