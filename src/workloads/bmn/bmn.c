/* bmn.c - the Beggar My Neighbour workload: its ls_workload hooks (check,
 * bench), conformance cases, and the commands
 *   lockstep bmn play HANDS [--trace] [--json]     one game, exactly (host)
 *   lockstep bmn search [--deals N] [--seed S] [--top K] [--checkpoint F]
 * The search itself is bmn_search.h's. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bmn_golden.h"
#include "bmn_search.h"
#include "output.h"
#include "progress.h"

/* ---- the ls_workload hooks (check, bench) ---------------------------------- */

static void bmn_params_default(void *pp)
{
    bmn_params *p = pp;
    memset(p, 0, sizeof *p);
    p->seed = 1;
    p->deals = 1000000;
    p->top = 10;
    p->cap = BMN_TURN_CAP;
}

static void bmn_params_quick(void *pp)
{
    ((bmn_params *)pp)->deals = 100000;
}

static int bmn_params_options(void *pp, ls_opt *out, int max)
{
    bmn_params *p = pp;
    ls_opt opts[] = {
        {"deals", LS_OPT_COUNT, &p->deals, 1, 1000000000000000ull, "N", "number of deals to play"},
        {"seed", LS_OPT_U64, &p->seed, 0, 0, "S", "random seed; deal i is a pure function of (seed, i)"},
        {"first", LS_OPT_COUNT, &p->first, 0, 1000000000000000000ull, "I", "index of the first deal"},
        {"top", LS_OPT_COUNT, &p->top, 1, BMN_MAX_TOP, "K", "how many of the longest games to keep"},
        {"cap", LS_OPT_COUNT, &p->cap, 10000, 4000000000ull, "C",
         "cards after which a device hands a game to the exact host player"},
    };
    int n = (int)(sizeof opts / sizeof opts[0]);
    if (n > max)
        n = max;
    memcpy(out, opts, (size_t)n * sizeof *out);
    return n;
}

static int bmn_params_validate(void *pp, ls_error *err)
{
    (void)pp;
    (void)err;
    return 0;
}

static void bmn_run_free(ls_run *run)
{
    bmn_state *st = run->data;
    if (st)
        free(st->loops);
    free(st);
    run->data = NULL;
}

static int bmn_workload_run(ls_session *s, const void *pp, ls_run *out, const ls_progress *prog, ls_error *err)
{
    memset(out, 0, sizeof *out);
    if (!s->backend->bmn)
        return ls_fail(err, "the %s backend has no BMN implementation", s->backend->name);
    bmn_state *st = malloc(sizeof *st);
    if (!st)
        return ls_fail(err, "out of memory for a search");
    if (bmn_search_run(s, pp, st, prog, NULL, err) != 0) {
        free(st->loops);
        free(st);
        return -1;
    }
    out->data = st;
    out->seconds = st->seconds;
    out->items = st->done;
    out->interrupted = st->interrupted;
    snprintf(out->digest, sizeof out->digest, "%016" PRIx64, bmn_state_digest(st));
    snprintf(out->summary, sizeof out->summary, "longest %u", st->n_cards ? st->top_cards[0].cards : 0);
    return 0;
}

static void bmn_print(const void *pp, const ls_session *s, const ls_run *run, int json, FILE *out)
{
    bmn_state_print(pp, s, run->data, json, out);
}

static void bmn_diff(const void *pp, const ls_run *a, const char *an, const ls_run *b, const char *bn, FILE *out)
{
    (void)pp;
    const bmn_state *x = a->data, *y = b->data;
    for (uint32_t i = 0; i < BMN_HIST_BINS; i++)
        if (x->hist[i] != y->hist[i])
            fprintf(out, "  games of %u-%u cards: %s %" PRIu64 ", %s %" PRIu64 "\n", i * BMN_HIST_WIDTH,
                    i * BMN_HIST_WIDTH + BMN_HIST_WIDTH - 1, an, x->hist[i], bn, y->hist[i]);
    for (uint32_t i = 0; i < x->n_cards && i < y->n_cards; i++)
        if (memcmp(&x->top_cards[i], &y->top_cards[i], sizeof x->top_cards[i]) != 0)
            fprintf(out, "  longest #%u: %s deal %" PRIu64 " (%u cards), %s deal %" PRIu64 " (%u cards)\n", i + 1, an,
                    x->top_cards[i].deal, x->top_cards[i].cards, bn, y->top_cards[i].deal, y->top_cards[i].cards);
    if (x->n_loops != y->n_loops)
        fprintf(out, "  loops: %s %u, %s %u\n", an, x->n_loops, bn, y->n_loops);
}

/* ---- conformance ------------------------------------------------------------ */

/* Plays the golden deals of case `which` on the device and compares. */
static int bmn_case_deals(ls_session *s, const bmn_golden_game *games, int n, char *detail, size_t len,
                          ls_error *err)
{
    bmn_deal_in *given = calloc((size_t)n, sizeof *given);
    if (!given)
        return ls_fail(err, "out of memory");
    for (int i = 0; i < n; i++) {
        bmn_hands h;
        char msg[200];
        if (bmn_parse_deal(games[i].hands, &h, msg, sizeof msg) != 0 || h.na + h.nb > sizeof given[i].cards) {
            free(given);
            return ls_fail(err, "golden deal %d does not parse: %s", i, msg);
        }
        given[i].na = (uint8_t)h.na;
        given[i].nb = (uint8_t)h.nb;
        memcpy(given[i].cards, h.a, h.na);
        memcpy(given[i].cards + h.na, h.b, h.nb);
        bmn_hands_free(&h);
    }
    bmn_params p;
    bmn_params_default(&p);
    p.deals = (uint64_t)n;
    p.top = (uint64_t)n;
    p.cap = 20000;
    bmn_state *st = malloc(sizeof *st);
    if (!st) {
        free(given);
        return ls_fail(err, "out of memory");
    }
    int rc = bmn_search_run(s, &p, st, NULL, given, err);
    int pass = rc == 0;
    detail[0] = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        const bmn_golden_game *g = &games[i];
        uint64_t cards = 0, tricks = 0;
        int loop = 0;
        for (uint32_t k = 0; k < st->n_cards; k++)
            if (st->top_cards[k].deal == (uint64_t)i) {
                cards = st->top_cards[k].cards;
                tricks = st->top_cards[k].tricks;
            }
        for (uint32_t k = 0; k < st->n_loops; k++)
            if (st->loops[k].deal == (uint64_t)i) {
                loop = 1;
                cards = st->loops[k].r.cards;
                tricks = st->loops[k].r.tricks;
            }
        int ok = loop == g->loop && cards == g->cards && tricks == g->tricks;
        if (!ok) {
            size_t used = strlen(detail);
            snprintf(detail + used, len - used, "%s%s: got %s%" PRIu64 "/%" PRIu64 ", expected %s%u/%u", used ? "; " : "",
                     g->name, loop ? "loop " : "", cards, tricks, g->loop ? "loop " : "", g->cards, g->tricks);
            pass = 0;
        }
    }
    if (rc == 0 && pass)
        snprintf(detail, len, "%d game%s exact", n, n == 1 ? "" : "s");
    free(st->loops);
    free(st);
    free(given);
    return rc == 0 ? pass : -1;
}

static int bmn_case_records(ls_session *s, char *d, size_t n, ls_error *e)
{
    return bmn_case_deals(s, bmn_golden_records, BMN_GOLDEN_RECORDS, d, n, e);
}

static int bmn_case_small(ls_session *s, char *d, size_t n, ls_error *e)
{
    return bmn_case_deals(s, bmn_golden_small, BMN_GOLDEN_SMALL, d, n, e);
}

static int bmn_case_search(ls_session *s, char *d, size_t n, ls_error *e)
{
    bmn_params p;
    bmn_params_default(&p);
    p.seed = BMN_GOLDEN_SEARCH_SEED;
    p.deals = BMN_GOLDEN_SEARCH_DEALS;
    p.top = BMN_GOLDEN_SEARCH_TOP;
    ls_run run;
    if (bmn_workload_run(s, &p, &run, NULL, e) != 0)
        return -1;
    bmn_state *st = run.data;
    int pass = bmn_state_digest(st) == BMN_GOLDEN_SEARCH_DIGEST && st->n_cards &&
               st->top_cards[0].cards == BMN_GOLDEN_SEARCH_LONGEST;
    snprintf(d, n, "digest %s, longest %u%s", run.digest, st->n_cards ? st->top_cards[0].cards : 0,
             pass ? "" : " (expected other)");
    bmn_run_free(&run);
    return pass;
}

static const ls_case bmn_cases[] = {
    {"bmn published records (5 deals)", bmn_case_records},
    {"bmn small hand-built games and a loop", bmn_case_small},
    {"bmn fixed-seed search digest", bmn_case_search},
};

/* ---- lockstep bmn play | search ---------------------------------------------- */

typedef struct json_trace {
    FILE *out;
    int n;
} json_trace;

static int bmn_play_cmd(int argc, char **argv)
{
    int trace = 0, json = 0;
    ls_error err = {{0}, 0};
    ls_opt opts[] = {
        {"trace", LS_OPT_FLAG, &trace, 0, 0, NULL, "print the game trick by trick"},
        {"json", LS_OPT_FLAG, &json, 0, 0, NULL, "print the result as one JSON object"},
    };
    const char *pos[1];
    int npos = 0;
    int rc = ls_opts_parse(argc, argv, 3, opts, 2, pos, &npos, 1, &err);
    if (rc == 1) {
        ls_opts_help(stdout, "lockstep bmn play HANDS [--trace] [--json]",
                     "Plays one game of Beggar My Neighbour exactly, on the host. HANDS is hand A and\n"
                     "hand B, top card first, e.g. ---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---\n"
                     "Numerals are '-' or 2-10, penalty cards J Q K A; '/' separates the hands (optional\n"
                     "for 52 cards, split 26/26). Hands of any length and mix are accepted. A leads.\n"
                     "A game that repeats a trick-boundary state is reported as a loop.",
                     opts, 2);
        return 0;
    }
    if (rc == 0 && npos != 1)
        rc = ls_fail_usage(&err, "bmn play: expected one deal, like AJ--/-Q-- (see lockstep bmn play --help)");
    if (rc != 0)
        return ls_report(&err);
    bmn_host_opts o = {0, NULL, NULL, trace && !json ? stdout : NULL};
    bmn_host_result r;
    char msg[300];
    if (bmn_host_play_str(pos[0], &o, &r, msg, sizeof msg) != 0) {
        ls_fail_usage(&err, "bmn play: %s", msg);
        return ls_report(&err);
    }
    if (json) {
        printf("{\"hands\":");
        ls_json_string(stdout, pos[0]);
        printf(",\"outcome\":\"%s\",\"cards\":%" PRIu64 ",\"tricks\":%" PRIu64,
               r.outcome == BMN_LOOP ? "loop" : r.outcome == BMN_A_WINS ? "A" : "B", r.cards, r.tricks);
        if (r.outcome == BMN_LOOP)
            printf(",\"loop_start_cards\":%" PRIu64 ",\"loop_start_tricks\":%" PRIu64 ",\"loop_cards\":%" PRIu64
                   ",\"loop_tricks\":%" PRIu64,
                   r.loop_start_cards, r.loop_start_tricks, r.loop_cards, r.loop_tricks);
        printf("}\n");
        return 0;
    }
    if (r.outcome == BMN_LOOP)
        printf("loop: the state after trick %" PRIu64 " (card %" PRIu64 ") comes back after trick %" PRIu64
               " (card %" PRIu64 "): a loop of %" PRIu64 " tricks, %" PRIu64 " cards\n",
               r.loop_start_tricks, r.loop_start_cards, r.tricks, r.cards, r.loop_tricks, r.loop_cards);
    else
        printf("%s: %" PRIu64 " cards, %" PRIu64 " tricks\n", r.outcome == BMN_A_WINS ? "A wins" : "B wins", r.cards,
               r.tricks);
    return 0;
}

static int bmn_search_cmd(const ls_workload *w, int argc, char **argv)
{
    ls_common c = {0};
    ls_error err = {{0}, 0};
    bmn_params p;
    bmn_params_default(&p);
    ls_opt opts[LS_MAX_OPTS];
    int n = bmn_params_options(&p, opts, LS_MAX_OPTS - 4);
    opts[n++] = (ls_opt){"checkpoint", LS_OPT_STRING, &p.checkpoint, 0, 0, "FILE",
                         "resume from FILE if it exists; save every chunk to it (an SQLite file, locked while the search runs)"};
    opts[n++] = (ls_opt)LS_OPT_BACKEND(&c);
    opts[n++] = (ls_opt)LS_OPT_JSON(&c);
    opts[n++] = (ls_opt)LS_OPT_QUIET(&c);
    int rc = ls_opts_parse(argc, argv, 3, opts, n, NULL, NULL, 0, &err);
    if (rc == 1) {
        ls_opts_help(stdout, "lockstep bmn search [options]",
                     "Plays N random deals (deal i is a pure function of seed and i) and reports the\n"
                     "longest games by cards and by tricks, the histogram of game lengths, deals/s and\n"
                     "every looping deal. Ctrl-C (or SIGTERM, SIGHUP) stops and prints the best so far;\n"
                     "with --checkpoint, a later run with the same options resumes where it stopped.",
                     opts, n);
        return 0;
    }
    if (rc != 0)
        return ls_report(&err);
    ls_session s;
    if (ls_session_open(c.backend, &s, &err) != 0)
        return ls_report(&err);
    char label[200];
    snprintf(label, sizeof label, "bmn search on %s:%d", s.backend->name, s.index);
    ls_progress_bar bar;
    ls_progress prog = ls_progress_start(&bar, label, w->unit, c.quiet);
    ls_progress_catch_sigint();
    bmn_state *st = malloc(sizeof *st);
    if (!st) {
        ls_session_close(&s);
        return fprintf(stderr, "lockstep: out of memory\n"), 1;
    }
    rc = bmn_search_run(&s, &p, st, &prog, NULL, &err);
    ls_progress_finish(&bar);
    /* Rendered whole, then written with one checked call. */
    ls_buffer out;
    if (rc == 0 && (rc = ls_buffer_open(&out, &err)) == 0) {
        bmn_state_print(&p, &s, st, c.json, out.f);
        rc = ls_buffer_emit(&out, stdout, "standard output", &err);
    }
    free(st->loops);
    free(st);
    ls_session_close(&s);
    return rc == 0 ? 0 : ls_report(&err);
}

static int bmn_command(const ls_workload *w, int argc, char **argv)
{
    const char *sub = argc > 2 ? argv[2] : NULL;
    if (sub && strcmp(sub, "play") == 0)
        return bmn_play_cmd(argc, argv);
    if (sub && strcmp(sub, "search") == 0)
        return bmn_search_cmd(w, argc, argv);
    if (sub && strcmp(sub, "report") == 0)
        return bmn_report_cmd(argc, argv);
    if (sub && strcmp(sub, "--help") != 0 && strcmp(sub, "-h") != 0) {
        fprintf(stderr, "lockstep: bmn: unknown subcommand '%s' (expected play, search or report)\n", sub);
        return 2;
    }
    FILE *out = sub ? stdout : stderr;
    fprintf(out, "usage: lockstep bmn play HANDS [--trace] [--json]\n"
                 "       lockstep bmn search [--deals N] [--seed S] [--top K] [--checkpoint FILE] [--backend B] [--json]\n"
                 "       lockstep bmn report FILE [--json]\n\n"
                 "Beggar My Neighbour: play one deal exactly, search random deals for long games, or\n"
                 "show a search saved in a checkpoint.\n"
                 "Each subcommand takes --help.\n");
    return out == stdout ? 0 : 2;
}

const ls_workload ls_workload_bmn = {
    .name = "bmn",
    .summary = "Beggar My Neighbour: play a deal, or search for the longest game",
    .unit = "deals",
    .command = bmn_command,
    .params_size = sizeof(bmn_params),
    .params_default = bmn_params_default,
    .params_quick = bmn_params_quick,
    .params_options = bmn_params_options,
    .params_validate = bmn_params_validate,
    .run = bmn_workload_run,
    .print = bmn_print,
    .diff = bmn_diff,
    .run_free = bmn_run_free,
    .cases = bmn_cases,
    .ncases = (int)(sizeof bmn_cases / sizeof bmn_cases[0]),
};

