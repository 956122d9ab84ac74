/* graveler.c - the Graveler workload on the host: parameters, the host
 * driver (ranges of battles on a device, progress, Ctrl-C, the histogram's
 * reduction), the result (histogram, max) for people and for scripts, and
 * the conformance cases. The battle itself is src/algo/graveler.h; a range
 * runs on GPUs in graveler_gpu.c and on the CPU in graveler_cpu.c. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "graveler.h"
#include "graveler_golden.h"
#include "graveler_range.h"
#include "set_run.h"
#include "workload.h"

/* The command's parameters: grv_params, plus the turn count as the option
 * table's 64-bit target (copied into p.turns once validated). */
typedef struct grv_opts {
    grv_params p;
    uint64_t turns;
} grv_opts;

typedef struct grv_data {
    uint64_t seed, first, battles; /* battles done */
    uint32_t turns;
    uint64_t *hist;
} grv_data;

/* First chunk: large on GPUs, which need millions of streams in flight to
 * fill; 2^24 battles (tens of ms) on a CPU. Later ones are sized from each
 * device's rate (set_run.h). */
#define GRV_FIRST_RANGE_GPU (1ull << 30)
#define GRV_FIRST_RANGE_CPU (1ull << 24)
#define GRV_MAX_RANGE (1ull << 40)

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
        {"battles", LS_OPT_COUNT, &p->battles, 1, 1000000000000000ull, "N", "number of battles", NULL, NULL},
        {"turns", LS_OPT_COUNT, &o->turns, 1, GRV_MAX_TURNS, "T", "trials per battle, each a success with p = 1/4",
         NULL, NULL},
        {"seed", LS_OPT_U64, &p->seed, 0, 0, "S", "random seed; results are a pure function of (seed, battles, turns)",
         NULL, NULL},
        {"first", LS_OPT_COUNT, &p->first, 0, 1000000000000000000ull, "B",
         "index of the first battle, to split one run across machines", NULL, NULL},
    };
    return ls_opts_copy(out, max, opts, (int)(sizeof opts / sizeof opts[0]));
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

/* The hash the golden table holds (tests/ref_graveler.c computes it
 * independently): FNV-1a of the turn count and the histogram. */
static uint64_t grv_golden_hash(const uint64_t *hist, uint32_t turns)
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

/* A run as set_run.h sees it: the parameters, and the histogram that the
 * chunks are folded into. */
typedef struct grv_job {
    const grv_params *p;
    uint64_t *hist;
    const ls_progress *progress; /* for the maximum so far; may be NULL */
} grv_job;

/* One chunk on device d: its histogram, as turns + 1 counts. */
static int grv_compute(const void *job, ls_device *d, uint64_t lo, uint64_t n, const void *hint, size_t hint_len,
                       ls_bytes *out, double *secs, ls_error *err)
{
    (void)hint;
    (void)hint_len;
    const grv_params *p = ((const grv_job *)job)->p;
    size_t bins = (size_t)p->turns + 1;
    uint64_t *hist = calloc(bins, sizeof *hist);
    if (!hist)
        return ls_fail(err, "out of memory for a histogram of %zu bins", bins);
    int rc = grv_gpu_range(d, p, lo, lo + n, hist, secs, err);
    if (rc == 0 && ls_bytes_put(out, hist, bins * sizeof *hist) != 0)
        rc = ls_fail(err, "out of memory for a histogram of %zu bins", bins);
    free(hist);
    return rc;
}

/* Histograms add: the order of the chunks cannot change the sum. */
static int grv_fold(void *job, uint64_t lo, uint64_t n, const void *bytes, size_t len, double secs, ls_error *err)
{
    (void)secs;
    grv_job *j = job;
    size_t bins = (size_t)j->p->turns + 1;
    if (len != bins * sizeof *j->hist)
        return ls_fail(err, "battles %" PRIu64 "+%" PRIu64 ": a histogram of %zu bytes, expected %zu", lo, n, len,
                       bins * sizeof *j->hist);
    ls_bytes_reader r = {bytes, len};
    for (size_t b = 0; b < bins; b++) {
        uint64_t v;
        ls_bytes_get(&r, &v, sizeof v);
        j->hist[b] += v;
    }
    /* What a long hunt is for, on its progress line. */
    if (j->progress && j->progress->progress_detail) {
        char text[48];
        snprintf(text, sizeof text, "max so far %u", grv_max(j->hist, j->p->turns));
        j->progress->progress_detail(j->progress->user, text);
    }
    return 0;
}

static const ls_set_ops grv_set_ops = {
    .unit = "battles",
    .first_gpu = GRV_FIRST_RANGE_GPU,
    .first_cpu = GRV_FIRST_RANGE_CPU,
    .max_chunk = GRV_MAX_RANGE,
    .compute = grv_compute,
    .fold = grv_fold,
};

/* Plays the battles of p on s (every device of it, every MPI rank): the
 * host driver. */
static int grv_play(ls_set *set, const grv_params *p, ls_run *out, const ls_progress *progress, ls_error *err)
{
    memset(out, 0, sizeof *out);
    grv_data *d = calloc(1, sizeof *d);
    uint64_t *hist = calloc((size_t)p->turns + 1, sizeof *hist);
    if (!d || !hist) {
        free(d);
        free(hist);
        return ls_fail(err, "out of memory for a histogram of %u bins", p->turns + 1);
    }
    *d = (grv_data){p->seed, p->first, 0, p->turns, hist};
    out->data = d;
    grv_job job = {p, hist, progress};
    if (ls_set_run(set, &grv_set_ops, &job, p->first, p->first, p->first + p->battles, progress, &out->report,
                   err) != 0) {
        grv_run_free(out);
        return -1;
    }
    d->battles = out->report.done;
    out->seconds = out->report.seconds;
    out->items = d->battles;
    out->interrupted = out->report.interrupted;
    snprintf(out->summary, sizeof out->summary, "max %u", grv_max(hist, p->turns));
    return 0;
}

static int grv_run(ls_set *set, const void *pp, ls_run *out, const ls_progress *progress, ls_error *err)
{
    return grv_play(set, &((const grv_opts *)pp)->p, out, progress, err);
}

static void grv_result_json(const void *pp, const ls_run *run, FILE *out)
{
    (void)pp;
    const grv_data *d = run->data;
    fprintf(out,
            "\"seed\":%" PRIu64 ",\"first\":%" PRIu64 ",\"battles\":%" PRIu64 ",\"turns\":%u,\"max\":%u,"
            "\"histogram\":[",
            d->seed, d->first, d->battles, d->turns, grv_max(d->hist, d->turns));
    for (uint32_t b = 0; b <= d->turns; b++)
        fprintf(out, "%s%" PRIu64, b ? "," : "", d->hist[b]);
    fputc(']', out);
}

static void grv_print(const void *pp, const ls_set *set, const ls_run *run, FILE *out)
{
    (void)pp;
    const grv_data *d = run->data;
    double rate = run->seconds > 0 ? (double)d->battles / run->seconds : 0.0;
    fprintf(out, "graveler: %" PRIu64 " battles of %u turns from %" PRIu64 ", seed %" PRIu64 "%s\n", d->battles,
            d->turns, d->first, d->seed, run->interrupted ? " (interrupted)" : "");
    ls_set_print(out, set, &run->report, "battles");
    fprintf(out, "max:      %u\n", grv_max(d->hist, d->turns));
    fprintf(out, "digest:   %s\n", run->digest);
    fprintf(out, "time:     %.4f s, %.4g battles/s\n", run->seconds, rate);
    fprintf(out, "histogram (successes: battles):\n");
    for (uint32_t b = 0; b <= d->turns; b++)
        if (d->hist[b])
            fprintf(out, "  %3u: %" PRIu64 "\n", b, d->hist[b]);
}

/* Fault injection (LOCKSTEP_DEBUG_FAULT): one wrong count per field. */
static int grv_fault(ls_run *run, const char *field)
{
    grv_data *d = run->data;
    if (strcmp(field, "histogram") == 0)
        d->hist[d->turns / 4]++;
    else if (strcmp(field, "max") == 0)
        d->hist[d->turns]++;
    else if (strcmp(field, "battles") == 0)
        d->battles++;
    else if (strcmp(field, "seed") == 0)
        d->seed ^= 1;
    else if (strcmp(field, "first") == 0)
        d->first++;
    else if (strcmp(field, "turns") == 0)
        d->turns--;
    else
        return -1;
    return 0;
}

/* ---- Conformance ------------------------------------------------------- */

/* Runs a golden case and compares max and hash with the values the
 * independent reference (tests/ref_graveler.c) produced. */
static int grv_case(ls_set *set, const void *arg, char *detail, size_t len, ls_error *err)
{
    const grv_golden *g = arg;
    grv_params p = {g->seed, g->first, g->battles, g->turns};
    ls_run run;
    if (grv_play(set, &p, &run, NULL, err) != 0)
        return -1;
    const grv_data *d = run.data;
    uint64_t hash = grv_golden_hash(d->hist, d->turns);
    uint32_t max = grv_max(d->hist, d->turns);
    int pass = hash == g->digest && max == g->max && d->battles == g->battles;
    if (!pass)
        snprintf(detail, len, "max %u hash %016" PRIx64 ", expected max %u hash %016" PRIx64, max, hash, g->max,
                 g->digest);
    else
        snprintf(detail, len, "max %u hash %016" PRIx64, max, hash);
    grv_run_free(&run);
    return pass;
}

static const ls_case grv_cases[] = {
    {"graveler 231 turns, 1e5 battles", grv_case, &grv_golden_cases[0], 0},
    {"graveler 231 turns, unaligned range", grv_case, &grv_golden_cases[1], 0},
    {"graveler 16 turns (one-word tail)", grv_case, &grv_golden_cases[2], 0},
    {"graveler 17 turns, stream > 2^32", grv_case, &grv_golden_cases[3], 0},
    {"graveler 32 turns (exact pair)", grv_case, &grv_golden_cases[4], 0},
    {"graveler 1 turn, max seed", grv_case, &grv_golden_cases[5], 0},
    {"graveler 1000 turns", grv_case, &grv_golden_cases[6], 0},
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
    .result_json = grv_result_json,
    .print = grv_print,
    .fault = grv_fault,
    .run_free = grv_run_free,
    .cases = grv_cases,
    .ncases = GRV_GOLDEN_COUNT,
};
