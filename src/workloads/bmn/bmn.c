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
#include "set_run.h"
#include "progress.h"

/* ---- the ls_workload hooks (check, bench) ---------------------------------- */

static void bmn_params_default(void *pp)
{
    bmn_params *p = pp;
    memset(p, 0, sizeof *p);
    p->seed = 1;
    p->deals = 1000000;
    p->top = 10;
    p->cap = BMN_CARD_CAP;
}

static void bmn_params_quick(void *pp)
{
    ((bmn_params *)pp)->deals = 100000;
}

static int bmn_params_options(void *pp, ls_opt *out, int max)
{
    bmn_params *p = pp;
    ls_opt opts[] = {
        {"deals", LS_OPT_COUNT, &p->deals, 1, BMN_MAX_DEALS, "N", "number of deals to play", NULL, NULL},
        {"seed", LS_OPT_U64, &p->seed, 0, 0, "S", "random seed; deal i is a pure function of (seed, i)", NULL, NULL},
        {"first", LS_OPT_COUNT, &p->first, 0, 1000000000000000000ull, "I", "index of the first deal", NULL, NULL},
        {"top", LS_OPT_COUNT, &p->top, 1, BMN_MAX_TOP, "K", "how many of the longest games to keep", NULL, NULL},
        {"cap", LS_OPT_COUNT, &p->cap, 10000, 4000000000ull, "C",
         "cards after which a device hands a game to the exact host player", NULL, NULL},
    };
    return ls_opts_copy(out, max, opts, (int)(sizeof opts / sizeof opts[0]));
}

static int bmn_params_validate(void *pp, ls_error *err)
{
    bmn_params *p = pp;
    if (!p->checkpoint)
        return 0;
    /* What the command line left out comes from the checkpoint. */
    bmn_given given = {ls_opt_given(&p->seed), ls_opt_given(&p->first), ls_opt_given(&p->top),
                       ls_opt_given(&p->cap), ls_opt_given(&p->deals)};
    return bmn_ckpt_options(p->checkpoint, p, &given, err);
}

/* A run's result: the search state and the parameters it ran with. */
typedef struct bmn_run_data {
    bmn_params p;
    bmn_state st;
} bmn_run_data;

static void bmn_run_free(ls_run *run)
{
    bmn_run_data *d = run->data;
    if (d)
        free(d->st.loops);
    free(d);
    run->data = NULL;
}

static int bmn_workload_run(ls_set *set, const void *pp, ls_run *out, const ls_progress *prog, ls_error *err)
{
    memset(out, 0, sizeof *out);
    bmn_run_data *d = calloc(1, sizeof *d);
    if (!d)
        return ls_fail(err, "out of memory for a search");
    d->p = *(const bmn_params *)pp;
    if (bmn_search_run(set, &d->p, &d->st, prog, &out->report, NULL, err) != 0) {
        free(d->st.loops);
        free(d);
        return -1;
    }
    const bmn_state *st = &d->st;
    out->data = d;
    /* This run's share (a resumed search did the rest before). */
    out->seconds = out->report.seconds;
    out->items = out->report.done;
    out->interrupted = st->interrupted;
    snprintf(out->summary, sizeof out->summary, "longest %u", st->n_cards ? st->top_cards[0].cards : 0);
    return 0;
}

static void bmn_json(const void *pp, const ls_run *run, FILE *out)
{
    (void)pp;
    const bmn_run_data *d = run->data;
    bmn_result_json(&d->p, &d->st, out);
}

static void bmn_print(const void *pp, const ls_set *set, const ls_run *run, FILE *out)
{
    (void)pp;
    const bmn_run_data *d = run->data;
    const bmn_state *st = &d->st;
    double rate = run->seconds > 0 ? (double)run->items / run->seconds : 0;
    fprintf(out, "bmn search: %" PRIu64 " deals from %" PRIu64 ", seed %" PRIu64 "%s\n", st->done, d->p.first,
            d->p.seed, st->interrupted ? " (interrupted: best so far)" : "");
    ls_set_print(out, set, &run->report, "deals");
    fprintf(out, "time:     %.3f s for %" PRIu64 " deals, %.4g deals/s\n", run->seconds, run->items, rate);
    fprintf(out, "digest:   %s\n", run->digest);
    bmn_result_text(&d->p, st, out);
}

/* After the report of a search saved to a checkpoint, finished or stopped
 * by a signal: how many deals the file holds and the command that goes
 * on from it, ready to paste (the program and the path as a shell reads
 * them). A stopped search resumes with the options stored in the file; a
 * finished one is extended to twice its --deals. */
static void bmn_next_steps(const void *pp, const ls_run *run, FILE *out)
{
    (void)pp;
    const bmn_run_data *d = run->data;
    if (!d->p.checkpoint)
        return;
    char saved[32], more[32];
    ls_format_thousands(d->st.done, saved, sizeof saved);
    uint64_t extended = d->p.deals < BMN_MAX_DEALS / 2 ? 2 * d->p.deals : BMN_MAX_DEALS;
    ls_format_count(extended, more, sizeof more);
    char *path = ls_shell_quote(d->p.checkpoint), *program = ls_shell_quote(ls_program_name());
    if (path && program && d->st.interrupted)
        fprintf(out, "saved %s deals to %s; resume: %s bmn search --checkpoint %s\n", saved, path, program, path);
    else if (path && program && extended > d->p.deals)
        fprintf(out, "saved %s deals to %s, the whole search; to extend it: %s bmn search --checkpoint %s --deals %s\n",
                saved, path, program, path, more);
    else if (path)
        fprintf(out, "saved %s deals to %s, the whole search\n", saved, path);
    /* Out of memory for a few bytes: the report above said what was done. */
    free(path);
    free(program);
}

/* Fault injection (LOCKSTEP_DEBUG_FAULT): one wrong value per field. */
static int bmn_fault(ls_run *run, const char *field)
{
    bmn_run_data *d = run->data;
    bmn_state *st = &d->st;
    if (strcmp(field, "seed") == 0)
        d->p.seed ^= 1;
    else if (strcmp(field, "first") == 0)
        d->p.first++;
    else if (strcmp(field, "deals") == 0)
        st->done++;
    else if (strcmp(field, "top") == 0)
        st->k++;
    else if (strcmp(field, "cap") == 0)
        d->p.cap++;
    else if (strcmp(field, "finished") == 0)
        st->finished++;
    else if (strcmp(field, "total_cards") == 0 || strcmp(field, "mean_cards") == 0)
        st->total_cards += 7 * st->finished; /* every game 7 cards longer */
    else if (strcmp(field, "top_by_cards") == 0 && st->n_cards)
        st->top_cards[0].cards++;
    else if (strcmp(field, "top_by_tricks") == 0 && st->n_tricks)
        st->top_tricks[0].tricks++;
    else if (strcmp(field, "loops") == 0 && st->n_loops)
        st->loops[0].r.loop_tricks++;
    else if (strcmp(field, "loops") == 0) { /* random deals almost never loop: report one that did not */
        bmn_host_result r = {BMN_LOOP, 1000, 100, 10, 1, 990, 99};
        if (bmn_state_add_loop(st, d->p.first, &r) != 0)
            return -1;
    }
    else if (strcmp(field, "histogram") == 0)
        st->hist[BMN_HIST_BINS / 2]++;
    else
        return -1;
    return 0;
}

static void bmn_diff(const void *pp, const ls_run *a, const char *an, const ls_run *b, const char *bn, FILE *out)
{
    (void)pp;
    const bmn_state *x = &((const bmn_run_data *)a->data)->st, *y = &((const bmn_run_data *)b->data)->st;
    for (uint32_t i = 0; i < BMN_HIST_BINS; i++)
        if (x->hist[i] != y->hist[i])
            fprintf(out, "  games of %u-%u cards: %s %" PRIu64 ", %s %" PRIu64 "\n", i * BMN_HIST_WIDTH,
                    i * BMN_HIST_WIDTH + BMN_HIST_WIDTH - 1, an, x->hist[i], bn, y->hist[i]);
    for (uint32_t i = 0; i < x->n_cards && i < y->n_cards; i++)
        if (memcmp(&x->top_cards[i], &y->top_cards[i], sizeof x->top_cards[i]) != 0)
            fprintf(out, "  longest #%u: %s deal %" PRIu64 " (%u cards), %s deal %" PRIu64 " (%u cards)\n", i + 1, an,
                    x->top_cards[i].deal, x->top_cards[i].cards, bn, y->top_cards[i].deal, y->top_cards[i].cards);
}

/* ---- conformance ------------------------------------------------------------ */

/* A set of golden deals. */
typedef struct bmn_golden_set {
    const bmn_golden_game *games;
    int n;
} bmn_golden_set;

static const bmn_golden_set bmn_records = {bmn_golden_records, BMN_GOLDEN_RECORDS};
static const bmn_golden_set bmn_small = {bmn_golden_small, BMN_GOLDEN_SMALL};

/* Plays a set of golden deals on the device and compares. */
static int bmn_case_deals(ls_set *set, const void *arg, char *detail, size_t len, ls_error *err)
{
    const bmn_golden_game *games = ((const bmn_golden_set *)arg)->games;
    const int n = ((const bmn_golden_set *)arg)->n;
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
    ls_set_report *report = malloc(sizeof *report);
    if (!st || !report) {
        free(st);
        free(report);
        free(given);
        return ls_fail(err, "out of memory");
    }
    int rc = bmn_search_run(set, &p, st, NULL, report, given, err);
    free(report);
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

static int bmn_case_search(ls_set *set, const void *arg, char *d, size_t n, ls_error *e)
{
    (void)arg;
    bmn_params p;
    bmn_params_default(&p);
    p.seed = BMN_GOLDEN_SEARCH_SEED;
    p.deals = BMN_GOLDEN_SEARCH_DEALS;
    p.top = BMN_GOLDEN_SEARCH_TOP;
    ls_run run;
    if (bmn_workload_run(set, &p, &run, NULL, e) != 0)
        return -1;
    const bmn_state *st = &((const bmn_run_data *)run.data)->st;
    uint64_t hash = bmn_golden_hash(st);
    int pass = hash == BMN_GOLDEN_SEARCH_DIGEST && st->n_cards && st->top_cards[0].cards == BMN_GOLDEN_SEARCH_LONGEST;
    snprintf(d, n, "hash %016" PRIx64 ", longest %u%s", hash, st->n_cards ? st->top_cards[0].cards : 0,
             pass ? "" : " (expected other)");
    bmn_run_free(&run);
    return pass;
}

static const ls_case bmn_cases[] = {
    {"bmn published records (5 deals)", bmn_case_deals, &bmn_records, 0},
    {"bmn small hand-built games and a loop", bmn_case_deals, &bmn_small, 0},
    {"bmn fixed-seed search digest", bmn_case_search, NULL, 0},
};

/* ---- lockstep bmn play | search ---------------------------------------------- */

static int bmn_play_cmd(int argc, char **argv)
{
    int trace = 0, json = 0;
    ls_common common = {0}; /* --quiet, which every command takes: a game on the host shows no progress */
    ls_error err = {{0}, 0};
    ls_opt opts[] = {
        {"trace", LS_OPT_FLAG, &trace, 0, 0, NULL, "print the game trick by trick", NULL, NULL},
        {"json", LS_OPT_FLAG, &json, 0, 0, NULL, "print the result as one JSON object", NULL, NULL},
        LS_OPT_QUIET(&common),
    };
    const int nopts = (int)(sizeof opts / sizeof opts[0]);
    const char *pos[1];
    int npos = 0;
    int rc = ls_opts_parse(argc, argv, 3, opts, nopts, pos, &npos, 1, &err);
    if (rc == 1) {
        ls_opts_help(stdout, "lockstep bmn play HANDS [--trace] [--json]",
                     "Plays one game of Beggar My Neighbour exactly, on the host. HANDS is hand A and\n"
                     "hand B, top card first, e.g. ---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---\n"
                     "Numerals are '-' or 2-10, penalty cards J Q K A; '/' separates the hands (optional\n"
                     "for 52 cards, split 26/26). Hands of any length and mix are accepted. A leads.\n"
                     "A game that repeats a trick-boundary state is reported as a loop.",
                     opts, nopts);
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
        putchar('{');
        ls_json_provenance(stdout);
        printf(",\"hands\":");
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

/* Options of `bmn search` only (not of check and bench). */
static int bmn_run_options(void *pp, ls_opt *out, int max)
{
    bmn_params *p = pp;
    if (max < 1)
        return 0;
    out[0] = (ls_opt){"checkpoint", LS_OPT_STRING, &p->checkpoint, 0, 0, "FILE",
                      "resume from FILE if it exists, with the options saved in it (--seed, --first, --top, --cap, "
                      "and --deals unless given); save every chunk to it (an SQLite file: one search writes to it, "
                      "bmn report reads it meanwhile)", NULL, NULL};
    return 1;
}

/* play and report run on the host; search is the workload's run, the one
 * that runs on a set of devices and across MPI ranks. */
static const ls_subcommand bmn_subcommands[] = {
    {"play", "lockstep bmn play HANDS [--trace] [--json]", bmn_play_cmd, NULL},
    {"search",
     "lockstep bmn search [--deals N] [--seed S] [--top K] [--checkpoint FILE] [--backend B] [--json]\n"
     "       lockstep bmn search --checkpoint FILE   (resumes with the options saved in FILE)",
     NULL,
     "Plays N random deals of Beggar My Neighbour (--deals N), from deal --first on (deal i is a\n"
     "pure function of --seed and i), and reports the longest games by cards and by tricks, the\n"
     "histogram of game lengths and the loops found. With --checkpoint FILE the search is saved\n"
     "as it goes and resumed from FILE."},
    {"report", "lockstep bmn report FILE [--json]", bmn_report_cmd, NULL},
};

const ls_workload ls_workload_bmn = {
    .name = "bmn",
    .summary = "Beggar My Neighbour: play a deal, or search for the longest game",
    .unit = "deals",
    .subcommands = bmn_subcommands,
    .nsubcommands = (int)(sizeof bmn_subcommands / sizeof bmn_subcommands[0]),
    .subcommands_about = "Beggar My Neighbour: play one deal exactly, search random deals for long games, or\n"
                         "show a search saved in a checkpoint.\n"
                         "Each subcommand takes --help.\n",
    .params_size = sizeof(bmn_params),
    .params_default = bmn_params_default,
    .params_quick = bmn_params_quick,
    .params_options = bmn_params_options,
    .params_validate = bmn_params_validate,
    .run_options = bmn_run_options,
    .run = bmn_workload_run,
    .result_json = bmn_json,
    .print = bmn_print,
    .diff = bmn_diff,
    .fault = bmn_fault,
    .next_steps = bmn_next_steps,
    .run_free = bmn_run_free,
    .cases = bmn_cases,
    .ncases = (int)(sizeof bmn_cases / sizeof bmn_cases[0]),
};

