/* graveler.c - the Graveler workload on the host side: parameters, the
 * result (histogram, max, digest), printing, diffs and conformance cases.
 * The battle itself is in src/algo/graveler.h; the backends run it. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "graveler.h"
#include "graveler_golden.h"
#include "workload.h"

/* The command's parameters: grv_params, plus the turn count as the option
 * table's 64-bit target (copied into p.turns once validated). */
typedef struct grv_opts {
    grv_params p;
    uint64_t turns;
} grv_opts;

typedef struct grv_data {
    uint32_t turns;
    uint64_t *hist;
    uint64_t battles;
} grv_data;

static void grv_params_default(void *pp)
{
    grv_opts *o = pp;
    o->p.seed = 1;
    o->p.first = 0;
    o->p.battles = 1000000000ull;
    o->p.turns = GRV_DEFAULT_TURNS;
    o->turns = GRV_DEFAULT_TURNS;
}

static void grv_params_quick(void *pp)
{
    ((grv_opts *)pp)->p.battles = 10000000ull;
}

static int grv_params_options(void *pp, ls_opt *out, int max)
{
    grv_opts *o = pp;
    grv_params *p = &o->p;
    ls_opt opts[] = {
        {"battles", LS_OPT_COUNT, &p->battles, 1, 1000000000000000ull, "N", "number of battles"},
        {"turns", LS_OPT_COUNT, &o->turns, 1, GRV_MAX_TURNS, "T", "trials per battle, each a success with p = 1/4"},
        {"seed", LS_OPT_U64, &p->seed, 0, 0, "S", "random seed; results are a pure function of (seed, battles, turns)"},
        {"first", LS_OPT_COUNT, &p->first, 0, 1000000000000000000ull, "B",
         "index of the first battle, to split one run across machines"},
    };
    int n = (int)(sizeof opts / sizeof opts[0]);
    if (n > max)
        n = max;
    memcpy(out, opts, (size_t)n * sizeof *out);
    return n;
}

static int grv_params_validate(void *pp, ls_error *err)
{
    grv_opts *o = pp;
    (void)err;
    o->p.turns = (uint32_t)o->turns; /* the option table bounds it by GRV_MAX_TURNS */
    return 0;
}

static uint32_t grv_max(const uint64_t *hist, uint32_t turns)
{
    for (uint32_t b = turns + 1; b-- > 0;)
        if (hist[b])
            return b;
    return 0;
}

uint64_t grv_digest(const uint64_t *hist, uint32_t turns)
{
    uint64_t h = ls_fnv1a(LS_FNV_INIT, &turns, sizeof turns);
    return ls_fnv1a(h, hist, (size_t)(turns + 1) * sizeof *hist);
}

static void grv_run_free(ls_run *run)
{
    grv_data *d = run->data;
    if (d)
        free(d->hist);
    free(d);
    run->data = NULL;
}

/* Plays the battles of p on s. */
static int grv_play(ls_session *s, const grv_params *p, ls_run *out, const ls_progress *progress, ls_error *err)
{
    memset(out, 0, sizeof *out);
    grv_data *d = calloc(1, sizeof *d);
    uint64_t *hist = calloc((size_t)p->turns + 1, sizeof *hist);
    if (!d || !hist) {
        free(d);
        free(hist);
        return ls_fail(err, "out of memory for a histogram of %u bins", p->turns + 1);
    }
    grv_result r = {hist, 0, 0.0};
    if (s->backend->graveler(s->ctx, p, &r, progress, err) != 0) {
        free(d);
        free(hist);
        return -1;
    }
    d->turns = p->turns;
    d->hist = hist;
    d->battles = r.battles;
    out->data = d;
    out->seconds = r.seconds;
    out->items = r.battles;
    out->interrupted = r.battles < p->battles;
    snprintf(out->digest, sizeof out->digest, "%016" PRIx64, grv_digest(hist, p->turns));
    snprintf(out->summary, sizeof out->summary, "max %u", grv_max(hist, p->turns));
    return 0;
}

static int grv_run(ls_session *s, const void *pp, ls_run *out, const ls_progress *progress, ls_error *err)
{
    return grv_play(s, &((const grv_opts *)pp)->p, out, progress, err);
}

static void grv_print(const void *pp, const ls_session *s, const ls_run *run, int json, FILE *out)
{
    const grv_params *p = &((const grv_opts *)pp)->p;
    const grv_data *d = run->data;
    uint32_t max = grv_max(d->hist, d->turns);
    double rate = run->seconds > 0 ? (double)d->battles / run->seconds : 0.0;
    if (json) {
        fprintf(out, "{\"workload\":\"graveler\",\"backend\":\"%s\",\"device_index\":%d,\"device\":",
                s->backend->name, s->index);
        ls_json_string(out, s->info.name);
        fprintf(out,
                ",\"seed\":%" PRIu64 ",\"first\":%" PRIu64 ",\"battles\":%" PRIu64 ",\"turns\":%u,\"max\":%u,"
                "\"digest\":\"%s\",\"seconds\":%.6f,\"battles_per_second\":%.6g,\"interrupted\":%s,\"histogram\":[",
                p->seed, p->first, d->battles, d->turns, max, run->digest, run->seconds, rate,
                run->interrupted ? "true" : "false");
        for (uint32_t b = 0; b <= d->turns; b++)
            fprintf(out, "%s%" PRIu64, b ? "," : "", d->hist[b]);
        fprintf(out, "]}\n");
        return;
    }
    fprintf(out, "graveler: %" PRIu64 " battles of %u turns, seed %" PRIu64 "%s\n", d->battles, d->turns, p->seed,
            run->interrupted ? " (interrupted)" : "");
    fprintf(out, "backend:  %s:%d (%s)\n", s->backend->name, s->index, s->info.name);
    fprintf(out, "max:      %u\n", max);
    fprintf(out, "digest:   %s\n", run->digest);
    fprintf(out, "time:     %.4f s, %.4g battles/s\n", run->seconds, rate);
    fprintf(out, "histogram (successes: battles):\n");
    for (uint32_t b = 0; b <= d->turns; b++)
        if (d->hist[b])
            fprintf(out, "  %3u: %" PRIu64 "\n", b, d->hist[b]);
}

static void grv_diff(const void *pp, const ls_run *a, const char *an, const ls_run *b, const char *bn, FILE *out)
{
    (void)pp;
    const grv_data *x = a->data, *y = b->data;
    if (x->battles != y->battles)
        fprintf(out, "  battles: %s %" PRIu64 ", %s %" PRIu64 "\n", an, x->battles, bn, y->battles);
    int shown = 0;
    for (uint32_t i = 0; i <= x->turns && shown < 10; i++)
        if (x->hist[i] != y->hist[i]) {
            fprintf(out, "  bin %u: %s %" PRIu64 ", %s %" PRIu64 "\n", i, an, x->hist[i], bn, y->hist[i]);
            shown++;
        }
}

/* ---- Conformance ------------------------------------------------------- */

/* Runs golden case i and compares max and digest with the values the
 * independent reference (tests/ref_graveler.c) produced. */
static int grv_case(int i, ls_session *s, char *detail, size_t len, ls_error *err)
{
    const grv_golden *g = &grv_golden_cases[i];
    grv_params p = {g->seed, g->first, g->battles, g->turns};
    ls_run run;
    if (grv_play(s, &p, &run, NULL, err) != 0)
        return -1;
    const grv_data *d = run.data;
    uint64_t digest = grv_digest(d->hist, d->turns);
    uint32_t max = grv_max(d->hist, d->turns);
    int pass = digest == g->digest && max == g->max && d->battles == g->battles;
    if (!pass)
        snprintf(detail, len, "max %u digest %016" PRIx64 ", expected max %u digest %016" PRIx64, max, digest,
                 g->max, g->digest);
    else
        snprintf(detail, len, "max %u digest %016" PRIx64, max, digest);
    grv_run_free(&run);
    return pass;
}

#define GRV_CASE_FN(i)                                                         \
    static int grv_case_##i(ls_session *s, char *d, size_t n, ls_error *e) \
    {                                                                          \
        return grv_case(i, s, d, n, e);                                        \
    }
GRV_CASE_FN(0)
GRV_CASE_FN(1)
GRV_CASE_FN(2)
GRV_CASE_FN(3)
GRV_CASE_FN(4)
GRV_CASE_FN(5)
GRV_CASE_FN(6)

static const ls_case grv_cases[] = {
    {GRV_GOLDEN_NAME_0, grv_case_0}, {GRV_GOLDEN_NAME_1, grv_case_1}, {GRV_GOLDEN_NAME_2, grv_case_2},
    {GRV_GOLDEN_NAME_3, grv_case_3}, {GRV_GOLDEN_NAME_4, grv_case_4}, {GRV_GOLDEN_NAME_5, grv_case_5},
    {GRV_GOLDEN_NAME_6, grv_case_6},
};
_Static_assert(sizeof grv_cases / sizeof grv_cases[0] == GRV_GOLDEN_COUNT, "one conformance case per golden entry");

const ls_workload ls_workload_graveler = {
    .name = "graveler",
    .summary = "bit-AND Bernoulli battles: max and histogram of successes",
    .unit = "battles",
    .params_size = sizeof(grv_opts),
    .params_default = grv_params_default,
    .params_quick = grv_params_quick,
    .params_options = grv_params_options,
    .params_validate = grv_params_validate,
    .run = grv_run,
    .print = grv_print,
    .diff = grv_diff,
    .run_free = grv_run_free,
    .cases = grv_cases,
    .ncases = GRV_GOLDEN_COUNT,
};
