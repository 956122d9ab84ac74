/* bench.c - `lockstep bench WORKLOAD|all`: repeated runs timed, their
 * mean and sample standard deviation, median, fastest and slowest, every
 * run's time, every digest the same. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "devlist.h"
#include "machine_load.h"
#include "output.h"
#include "portability.h"
#include "progress.h"
#include "program_cache.h"

/* Runs spread when one took over this many times the median; the first
 * timed run is much slower when it took over this many times the median
 * of the others. */
#define BENCH_SPREAD_FACTOR 2.0

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* How a bench runs: the counts of runs, whether it shows its progress,
 * and the test hook that slows one run. */
typedef struct bench_plan {
    uint64_t warmup, repeat;
    int progress;          /* the progress line: stderr is a terminal and no --json */
    uint64_t slow_run;     /* LOCKSTEP_DEBUG_SLOW_RUN: this timed run (from 1) is slowed; 0: none */
    double slow_seconds;   /* by this much */
} bench_plan;

/* What the timed runs of one workload on one device gave. */
typedef struct bench_result {
    uint64_t items, timed; /* items of one run; runs timed */
    double *times;         /* each timed run's seconds, in run order (timed of them; malloc'ed) */
    double median, min, max, mean;
    double stddev;         /* the sample standard deviation (n - 1); 0 for one run */
    int slow_first;        /* the first timed run took over BENCH_SPREAD_FACTOR times the others' median */
    int spread;            /* another run took over BENCH_SPREAD_FACTOR times the median */
    double first_vs;       /* the others' median, for slow_first's message */
    double slowest;        /* the slowest run that spread names */
    char digest[17], summary[200];
    int stopped; /* a signal came before every run was timed */
    ls_clock clock; /* the wall clock when any timed run's was */
    ls_machine_load load; /* what other programs did with the machine while the runs ran */
} bench_result;

static void bench_result_free(bench_result *r)
{
    free(r->times);
    r->times = NULL;
}

/* LOCKSTEP_DEBUG_SLOW_RUN=K:SECONDS, a test hook: timed run K (1 is the
 * first) of each bench takes SECONDS longer, waited out after the run and
 * counted in its time, as if the device had stalled; so that the tests
 * can force a spread (and a bench long enough to show its progress). 0;
 * -1 with err->usage set for a value it cannot read. */
static int debug_slow_run(bench_plan *plan, ls_error *err)
{
    const char *v = getenv("LOCKSTEP_DEBUG_SLOW_RUN");
    plan->slow_run = 0;
    plan->slow_seconds = 0;
    if (!v || !*v)
        return 0;
    char *end;
    errno = 0;
    unsigned long long run = strtoull(v, &end, 10);
    double seconds = *end == ':' ? strtod(end + 1, &end) : -1;
    if (errno || *end || run < 1 || !(seconds >= 0 && seconds <= 3600) || v[0] < '0' || v[0] > '9')
        return ls_fail_usage(err, "LOCKSTEP_DEBUG_SLOW_RUN: expected RUN:SECONDS (run from 1, 0 to 3600 s), got '%s'",
                             v);
    plan->slow_run = run;
    plan->slow_seconds = seconds;
    fprintf(stderr, "lockstep: LOCKSTEP_DEBUG_SLOW_RUN is set: timed run %llu of each bench takes %g s longer on "
                    "purpose\n", run, seconds);
    return 0;
}

/* Waits `seconds` (less when a stop signal comes). */
static void stall(double seconds)
{
    double until = ls_now() + seconds;
    for (double left = seconds; left > 0 && !ls_progress_interrupted(); left = until - ls_now()) {
        struct timespec t = {(time_t)left, (long)((left - floor(left)) * 1e9)};
        nanosleep(&t, NULL); /* a signal ends it early: the loop looks again */
    }
}

/* The median of n > 0 sorted values. */
static double median_sorted(const double *v, uint64_t n)
{
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* r's statistics from its r->timed > 0 times: median, min, max, mean, the
 * sample standard deviation (n - 1, as hyperfine computes it), and the
 * warnings. 0, or -1 with err set. */
static int bench_stats(bench_result *r, ls_error *err)
{
    uint64_t n = r->timed;
    double *sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted)
        return ls_fail(err, "out of memory for %" PRIu64 " timings", n);
    memcpy(sorted, r->times, (size_t)n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    r->median = median_sorted(sorted, n);
    r->min = sorted[0];
    r->max = sorted[n - 1];
    double sum = 0, squares = 0;
    for (uint64_t i = 0; i < n; i++)
        sum += r->times[i];
    r->mean = sum / (double)n;
    for (uint64_t i = 0; i < n; i++)
        squares += (r->times[i] - r->mean) * (r->times[i] - r->mean);
    r->stddev = n > 1 ? sqrt(squares / (double)(n - 1)) : 0;
    /* The first timed run against the others: a cold start shows there. */
    if (n > 1) {
        memcpy(sorted, r->times + 1, (size_t)(n - 1) * sizeof *sorted);
        qsort(sorted, n - 1, sizeof *sorted, cmp_double);
        r->first_vs = median_sorted(sorted, n - 1);
        r->slow_first = r->times[0] > BENCH_SPREAD_FACTOR * r->first_vs;
    }
    /* Any other run against the median: the first, when slow_first
     * explains it already, is not counted twice. */
    r->slowest = 0;
    for (uint64_t i = r->slow_first ? 1 : 0; i < n; i++)
        if (r->times[i] > r->slowest)
            r->slowest = r->times[i];
    r->spread = r->slowest > BENCH_SPREAD_FACTOR * r->median;
    free(sorted);
    return 0;
}

/* The warnings about r: their kinds (for --json) and what they say. */
enum { WARN_SLOW_FIRST, WARN_SPREAD, NWARN };
static const char *const warning_kind[NWARN] = {"slow_first_run", "spread"};

/* Warning k about r into text; 0 when it does not apply. */
static int bench_warning(const bench_result *r, int k, char *text, size_t len)
{
    if (k == WARN_SLOW_FIRST && r->slow_first)
        snprintf(text, len,
                 "the first timed run took %.6f s, over twice the median of the others (%.6f s): a cold start "
                 "(caches, clocks, code loaded on first use); more --warmup runs leave it out",
                 r->times[0], r->first_vs);
    else if (k == WARN_SPREAD && r->spread)
        snprintf(text, len,
                 "the runs spread: the slowest took %.6f s, over twice the median (%.6f s); something else may be "
                 "using the device or the machine",
                 r->slowest, r->median);
    else
        return 0;
    return 1;
}

/* Each warning about r on stderr, after `about` ("graveler on openmp:0: ")
 * when there is one. */
static void print_warnings(const bench_result *r, const char *about)
{
    char text[400];
    for (int k = 0; k < NWARN; k++)
        if (bench_warning(r, k, text, sizeof text))
            fprintf(stderr, "lockstep: warning: %s%s\n", about, text);
}

/* Folds a timed run's clock into the bench's: the figures are the wall
 * clock's as soon as one run's is (the first reason kept). */
static void keep_clock(ls_clock *bench, const ls_clock *run)
{
    if (run->wall && !bench->wall)
        *bench = *run;
}

/* The bench's progress line, on a terminal: the runs before and the one
 * in hand as a share of the whole bench, drawn by progress.c's bar (after
 * 2 s, redrawn in place). A run reports its own items; the bar sees them
 * counted on from the runs before it. */
typedef struct bench_line {
    ls_progress_bar bar;
    ls_progress inner; /* the bar's own callbacks */
    char what[200];    /* "graveler on openmp:0" */
    char label[260];   /* the bar's label: what, and which run */
    uint64_t run, runs; /* the run in hand (from 0) of all, warm-up and timed */
} bench_line;

static int line_report(void *user, uint64_t done, uint64_t total)
{
    bench_line *l = user;
    return l->inner.report(l->inner.user, l->run * total + done, l->runs * total);
}

static void line_detail(void *user, const char *text)
{
    bench_line *l = user;
    l->inner.detail(l->inner.user, text);
}

static void line_note(void *user, const char *text)
{
    bench_line *l = user;
    l->inner.progress_detail(l->inner.user, text);
}

static ls_progress line_start(bench_line *l, const ls_workload *w, const char *where, const bench_plan *plan)
{
    memset(l, 0, sizeof *l);
    snprintf(l->what, sizeof l->what, "%s on %s", w->name, where);
    l->runs = plan->warmup + plan->repeat;
    /* bench runs in one process (it refuses MPI jobs of more ranks). */
    l->inner = ls_progress_start(&l->bar, l->label, w->unit, !plan->progress, 0, 0, 1);
    /* No steps: the bar counts the items of every run of the bench. */
    ls_progress p = {line_report, l, line_detail, line_note, NULL, NULL, NULL};
    return p;
}

/* Run `run` (from 0) begins; the runs before it made `items` each. */
static void line_next(bench_line *l, const bench_plan *plan, uint64_t run, uint64_t items)
{
    l->run = run;
    if (run < plan->warmup)
        snprintf(l->label, sizeof l->label, "bench %s, warm-up %" PRIu64 " of %" PRIu64, l->what, run + 1,
                 plan->warmup);
    else
        snprintf(l->label, sizeof l->label, "bench %s, timed run %" PRIu64 " of %" PRIu64, l->what,
                 run - plan->warmup + 1, plan->repeat);
    if (run > 0) /* a workload that reports seldom still moves the line */
        l->inner.report(l->inner.user, run * items, l->runs * items);
}

/* Runs w `warmup` times untimed, then `repeat` times timed, on s (`where`
 * names it); every run's digest must be the first's. A signal stops the
 * run in hand (its time is not counted) and the runs timed so far are the
 * result. 0, or -1 with err set; out->times is freed by
 * bench_result_free. */
static int bench_runs(const ls_workload *w, const void *params, ls_set *s, const char *where, const bench_plan *plan,
                      bench_result *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    out->times = calloc((size_t)plan->repeat, sizeof *out->times);
    if (!out->times)
        return ls_fail(err, "out of memory for %" PRIu64 " timings", plan->repeat);
    bench_line line;
    ls_progress prog = line_start(&line, w, where, plan);
    int failed = 0;
    ls_load_mark mark;
    ls_load_mark_now(&mark);
    for (uint64_t i = 0; i < plan->warmup + plan->repeat && !failed && !ls_progress_interrupted(); i++) {
        line_next(&line, plan, i, out->items);
        ls_run run;
        if (ls_cmd_run_workload(w, s, params, &run, &prog, err) != 0) {
            /* A run that failed while a stop was requested: the stop's
             * doing (a driver's call its signal broke), said so, and the
             * runs timed so far are the result. */
            failed = !ls_progress_interrupted();
            if (!failed)
                ls_cmd_stopped(err);
            break;
        }
        if (run.interrupted) {
            w->run_free(&run);
            break;
        }
        if (ls_run_seal(w, params, s, &run, err) != 0) {
            failed = 1;
        } else if (i == 0) {
            memcpy(out->digest, run.digest, sizeof out->digest);
            memcpy(out->summary, run.summary, sizeof out->summary);
        } else if (strcmp(out->digest, run.digest) != 0) {
            ls_fail(err, "bench: run %llu gave digest %s, run 1 gave %s: the device is not deterministic",
                    (unsigned long long)i + 1, run.digest, out->digest);
            failed = 1;
        }
        if (i >= plan->warmup && !failed) {
            double seconds = run.seconds;
            if (plan->slow_run == out->timed + 1) {
                stall(plan->slow_seconds);
                seconds += plan->slow_seconds;
            }
            out->times[out->timed++] = seconds;
            keep_clock(&out->clock, &run.report.clock);
        }
        out->items = run.items;
        w->run_free(&run);
    }
    ls_machine_load_since(&mark, &out->load);
    ls_progress_finish(&line.bar);
    out->stopped = !failed && out->timed < plan->repeat;
    if (!failed && out->timed && bench_stats(out, err) != 0)
        failed = 1;
    return failed ? -1 : 0;
}

/* A time as JSON: every digit of the double, so that a reader recomputes
 * the statistics from "times_s" exactly. */
static void json_seconds(FILE *out, const char *name, double seconds)
{
    fprintf(out, "\"%s\":%.17g", name, seconds);
}

/* One bench result as a JSON object: the workload and its inputs, where it
 * ran, the timings (every run's, in run order, and their statistics),
 * their clock and the warnings. */
static void bench_json(FILE *out, const ls_workload *w, const void *params, const char *device,
                       const char *device_name, const bench_plan *plan, const bench_result *r)
{
    fprintf(out, "\"workload\":\"%s\",", w->name);
    ls_cmd_params_json(out, w, params, 0);
    fprintf(out, ",\"device\":");
    ls_json_string(out, device);
    fprintf(out, ",\"device_name\":");
    ls_json_string(out, device_name);
    fputs(",\"items\":", out);
    if (r->items)
        fprintf(out, "%" PRIu64, r->items);
    else
        fputs("null", out); /* no run finished: stopped in the first */
    fprintf(out, ",\"unit\":\"%s\",\"repeat\":%" PRIu64 ",\"warmup\":%" PRIu64 ",", w->unit, r->timed,
            plan->warmup);
    if (r->timed == 0) {
        /* Stopped before a run was timed (in the warm-up): the report
         * says so, with no figures. */
        fputs("\"mean_s\":null,\"stddev_s\":null,\"median_s\":null,\"min_s\":null,\"max_s\":null,\"times_s\":[],"
              "\"items_per_s\":null,\"clock\":null,\"clock_fallback\":null,\"warnings\":[],\"digest\":",
              out);
        if (r->digest[0])
            fprintf(out, "\"%s\"", r->digest);
        else
            fputs("null", out);
        fprintf(out, ",\"interrupted\":%s", r->stopped ? "true" : "false");
        return;
    }
    json_seconds(out, "mean_s", r->mean);
    if (r->timed > 1) {
        fputc(',', out);
        json_seconds(out, "stddev_s", r->stddev);
    } else {
        fputs(",\"stddev_s\":null", out);
    }
    fputc(',', out);
    json_seconds(out, "median_s", r->median);
    fputc(',', out);
    json_seconds(out, "min_s", r->min);
    fputc(',', out);
    json_seconds(out, "max_s", r->max);
    fputs(",\"times_s\":[", out);
    for (uint64_t i = 0; i < r->timed; i++)
        fprintf(out, "%s%.17g", i ? "," : "", r->times[i]);
    fprintf(out, "],\"items_per_s\":%.6g,", r->median > 0 ? (double)r->items / r->median : 0.0);
    ls_clock_json(out, &r->clock);
    fputs(",\"warnings\":[", out);
    char text[400];
    for (int k = 0, n = 0; k < NWARN; k++)
        if (bench_warning(r, k, text, sizeof text)) {
            fprintf(out, "%s{\"kind\":\"%s\",\"message\":", n++ ? "," : "", warning_kind[k]);
            ls_json_string(out, text);
            fputc('}', out);
        }
    fputs("],", out);
    ls_machine_load_json(out, &r->load);
    fprintf(out, ",\"digest\":\"%s\",\"interrupted\":%s", r->digest, r->stopped ? "true" : "false");
}

static const char bench_summary[] =
    "Times WORKLOAD: W untimed warm-up runs, then R timed runs; reports the median, the\n"
    "mean with the sample standard deviation, the fastest and the slowest, and warns when\n"
    "the runs spread (--json: every run's time). Device time on GPUs (events, profiling),\n"
    "checked against the wall time around the finished queues, which replaces a device\n"
    "time that cannot be right; wall time on the CPU (--json: \"clock\"). Says how busy\n"
    "the machine was: the cores other programs used while the runs ran, and the load\n"
    "average (--json: \"machine\"). Every run's digest must match.\n"
    "`bench all` times every workload at the small sizes of `check all` on each device\n"
    "--backend names in turn (without it, every device of every backend) and prints one\n"
    "table, each row's work and rate per second in its workload's unit (--json: \"unit\").\n"
    "`lockstep bench WORKLOAD --help` lists the workload's options.";

/* The table row of one workload on one device: a result or why none. */
static void bench_row(const ls_workload *w, const char *device, const char *name, const bench_result *r,
                      const char *error)
{
    if (error) {
        printf("%-9s %-12s %-32.32s error: %s\n", w->name, device, name, error);
        return;
    }
    char items[32], unit[32], spread[32] = "-";
    ls_format_count(r->items, items, sizeof items);
    ls_format_unit(w->unit, unit, sizeof unit);
    if (r->timed > 1)
        snprintf(spread, sizeof spread, "%.6f", r->stddev);
    char load[220] = "";
    if (r->load.busy) {
        char text[200];
        ls_machine_load_text(&r->load, 1, text, sizeof text);
        snprintf(load, sizeof load, "  (machine %s)", text);
    }
    printf("%-9s %-12s %-32.32s %9s %-12s %10.6f %10.6f %10s %10.4g %s%s%s\n", w->name, device, name, items, unit,
           r->median, r->mean, spread, r->median > 0 ? (double)r->items / r->median : 0.0, r->digest,
           r->clock.why[0] ? "  (wall clock: the device's timer read a time that cannot be right)" : "", load);
}

/* What a table of benches (bench all, bench WORKLOAD --paths) gathers as
 * it goes: the JSON document in the making (none for people), the rows,
 * the failures, and each row's median on its device for the efficiency
 * and portability summary at the end (portability.h). */
typedef struct bench_table {
    ls_buffer *json;
    int rows, failures;
    int n, cap;
    ls_pp_entry *pp;
    ls_device_info *chip; /* pp[i].device points here (zero where it did not open) */
    char (*label)[64];    /* row i's device spec, "opencl:0" */
} bench_table;

static void bench_table_free(bench_table *t)
{
    free(t->pp);
    free(t->chip);
    free(t->label);
}

/* Keeps one row's median for the summary; a row that did not run counts
 * 0 (its path's portability is then 0). A set of devices is no one chip
 * and no platform: it is left out. */
static int table_keep(bench_table *t, const ls_workload *w, const ls_set *s, const ls_dev_ref *d, double seconds,
                      ls_error *err)
{
    if (d->set[0])
        return 0;
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16;
        ls_pp_entry *pp = realloc(t->pp, (size_t)cap * sizeof *pp);
        if (pp)
            t->pp = pp;
        ls_device_info *chip = pp ? realloc(t->chip, (size_t)cap * sizeof *chip) : NULL;
        if (chip)
            t->chip = chip;
        char(*label)[64] = chip ? realloc(t->label, (size_t)cap * sizeof *label) : NULL;
        if (!label)
            return ls_fail(err, "out of memory for %d bench rows", cap);
        t->label = label;
        t->cap = cap;
        for (int i = 0; i < t->n; i++)
            t->pp[i].device = &t->chip[i];
    }
    ls_dev_label(d, t->label[t->n], sizeof t->label[t->n]);
    if (s)
        t->chip[t->n] = s->dev[0].info;
    else /* it did not open: what the backend lists of it */
        memset(&t->chip[t->n], 0, sizeof t->chip[t->n]);
    t->pp[t->n] = (ls_pp_entry){w->name, d->backend->name, &t->chip[t->n], seconds, 0};
    t->n++;
    return 0;
}

/* Benches w on each device of devs in turn, a row each (a result or why
 * none) in the table's JSON or on stdout. 0, or -1 with err set where the
 * table could not be kept. */
static int bench_devices(const ls_workload *w, const void *params, const ls_dev_ref *devs, int ndev,
                         const bench_plan *plan, bench_table *t, ls_error *err)
{
    for (int d = 0; d < ndev && !ls_progress_interrupted(); d++) {
        char label[160];
        ls_dev_label(&devs[d], label, sizeof label);
        ls_set s;
        ls_error e = {{0}, 0};
        bench_result r = {0};
        int opened = ls_dev_open(devs[d], &s, &e) == 0;
        /* A device that rightly refuses the run (the exact floating-point
         * rule, as conformance and check say): not supported, no failure. */
        char refusal[300] = "";
        int refused = opened && w->needs && !ls_set_supports(&s, w->needs(params), refusal, sizeof refusal);
        int ok = opened && (refused || bench_runs(w, params, &s, label, plan, &r, &e) == 0);
        const char *name = opened ? (s.ndevices > 1 ? s.label : s.dev[0].info.name) : "";
        int timed = ok && r.timed > 0;
        /* A device that failed to open while a stop was requested:
         * the signal's doing (bench_runs says so of a run). */
        if (!opened && ls_progress_interrupted()) {
            ls_cmd_stopped(&e);
            ok = 1;
        }
        t->failures += !ok;
        if (t->json && (timed || !ok || refused)) {
            fprintf(t->json->f, "%s{", t->rows++ ? "," : "");
            if (timed) {
                bench_json(t->json->f, w, params, label, name, plan, &r);
            } else if (refused) {
                fprintf(t->json->f, "\"workload\":\"%s\",\"device\":", w->name);
                ls_json_string(t->json->f, label);
                fprintf(t->json->f, ",\"not_supported\":");
                ls_json_string(t->json->f, refusal);
            } else {
                fprintf(t->json->f, "\"workload\":\"%s\",\"device\":", w->name);
                ls_json_string(t->json->f, label);
                fprintf(t->json->f, ",\"error\":");
                ls_json_string(t->json->f, e.msg);
            }
            fputc('}', t->json->f);
        } else if (!t->json && refused) {
            printf("%-9s %-12s %-32.32s not supported: %s\n", w->name, label, name, refusal);
        } else if (!t->json && (timed || !ok)) {
            bench_row(w, label, name, &r, ok ? NULL : e.msg);
        }
        if (timed) {
            char about[200];
            snprintf(about, sizeof about, "%s on %s: ", w->name, label);
            print_warnings(&r, about);
        }
        int kept = (timed || !ok || refused) ? table_keep(t, w, opened ? &s : NULL, &devs[d], timed ? r.median : 0, err) : 0;
        bench_result_free(&r);
        if (opened)
            ls_set_close(&s);
        if (kept != 0)
            return -1;
    }
    return 0;
}

/* The table's last part: each row's efficiency against the fastest path
 * to the same chip, and each path's portability over its devices
 * (portability.h), as a JSON member (after a comma) or lines for people.
 * Rows on a set of devices are no one chip and left out. */
static void bench_portability(bench_table *t)
{
    ls_pp_efficiencies(t->pp, t->n);
    ls_pp_score scores[64];
    int k = ls_pp_scores(t->pp, t->n, scores, 64);
    if (t->json) {
        FILE *out = t->json->f;
        fputs(",\"portability\":[", out);
        for (int i = 0; i < k; i++) {
            fprintf(out, "%s{\"workload\":\"%s\",\"backend\":\"%s\",\"platforms\":%d,\"portability\":%.6g,\"efficiency\":[",
                    i ? "," : "", scores[i].workload, scores[i].backend, scores[i].platforms, scores[i].pp);
            for (int j = 0, first = 1; j < t->n; j++)
                if (t->pp[j].device && strcmp(t->pp[j].workload, scores[i].workload) == 0 &&
                    strcmp(t->pp[j].backend, scores[i].backend) == 0) {
                    fprintf(out, "%s{\"device\":", first ? "" : ",");
                    ls_json_string(out, t->label[j]);
                    fprintf(out, ",\"seconds\":%.17g,\"efficiency\":%.6g}", t->pp[j].seconds, t->pp[j].efficiency);
                    first = 0;
                }
            fputs("]}", out);
        }
        fputc(']', out);
        return;
    }
    if (!k)
        return;
    printf("\nefficiency: the fastest median on the same chip over each row's (the host's CPU by OpenMP or an\n"
           "OpenCL CPU device; a GPU by CUDA or OpenCL); portability: its harmonic mean over the devices a\n"
           "backend ran on, 0 where it failed on one (Pennycook's metric)\n");
    printf("%-9s %-8s %9s %11s  %s\n", "workload", "backend", "platforms", "portability", "efficiency by device");
    for (int i = 0; i < k; i++) {
        printf("%-9s %-8s %9d %11.3f ", scores[i].workload, scores[i].backend, scores[i].platforms, scores[i].pp);
        for (int j = 0, first = 1; j < t->n; j++)
            if (t->pp[j].device && strcmp(t->pp[j].workload, scores[i].workload) == 0 &&
                strcmp(t->pp[j].backend, scores[i].backend) == 0) {
                printf("%s %s %.3f", first ? "" : ",", t->label[j], t->pp[j].efficiency);
                first = 0;
            }
        putchar('\n');
    }
}

/* A table of benches in the making: the JSON document opened (with the
 * list and the counts), or the header for people. 0 or -1 with err set. */
static int table_open(bench_table *t, ls_buffer *json, int want_json, const char *list, const bench_plan *plan,
                      ls_error *err)
{
    memset(t, 0, sizeof *t);
    if (!want_json) {
        /* Each row's work and rate are in its own unit (battles, cell updates, ...). */
        printf("%-9s %-12s %-32s %9s %-12s %10s %10s %10s %10s %s\n", "workload", "device", "name", "work", "unit",
               "median s", "mean s", "stddev s", "per second", "digest");
        return 0;
    }
    if (ls_buffer_open(json, err) != 0)
        return -1;
    t->json = json;
    fputc('{', json->f);
    ls_json_provenance(json->f);
    fprintf(json->f, ",\"backends\":");
    if (list)
        ls_json_string(json->f, list);
    else
        fputs("null", json->f);
    fprintf(json->f, ",\"repeat\":%" PRIu64 ",\"warmup\":%" PRIu64 ",\"benches\":[", plan->repeat, plan->warmup);
    return 0;
}

/* The table's end: the summary, what could not run, whether a signal
 * stopped it; the JSON document printed whole. The command's exit code. */
static int table_close(bench_table *t, const char *skipped, const char *partial)
{
    ls_error err = {{0}, 0};
    int stopped = ls_progress_interrupted();
    if (t->json) {
        fputc(']', t->json->f);
        bench_portability(t);
        fprintf(t->json->f, ",\"not_available\":");
        ls_json_string(t->json->f, skipped);
        fprintf(t->json->f, ",\"failed\":%d,\"interrupted\":%s}\n", t->failures, stopped ? "true" : "false");
        if (ls_buffer_emit(t->json, stdout, "standard output", &err) != 0) {
            bench_table_free(t);
            return ls_report(&err);
        }
    } else {
        bench_portability(t);
        if (skipped[0])
            printf("not available: %s\n", skipped);
        if (stopped)
            printf("interrupted: %s\n", partial);
    }
    int failures = t->failures;
    bench_table_free(t);
    return failures ? 1 : stopped ? ls_exit_interrupted() : 0;
}

/* lockstep bench all: every workload at its quick size on every device. */
static int bench_all(int argc, char **argv)
{
    ls_error err = {{0}, 0};
    ls_common c = {0};
    const char *list = NULL;
    uint64_t repeat = 5, warmup = 1;
    ls_opt opts[] = {
        LS_OPT_DEVICES(&list, "every device of every backend"),
        {"repeat", LS_OPT_COUNT, &repeat, 1, 1000, "R", "timed runs", NULL, NULL},
        {"warmup", LS_OPT_COUNT, &warmup, 0, 100, "W", "untimed runs first", NULL, NULL},
        LS_OPT_JSON(&c),
        LS_OPT_QUIET(&c),
        LS_OPT_NO_CACHE(&c),
    };
    const int n = (int)(sizeof opts / sizeof opts[0]);
    int rc = ls_opts_parse(argc, argv, 3, opts, n, NULL, NULL, 0, &err);
    if (rc == 1) {
        ls_opts_help(stdout, "lockstep bench all [options]", bench_summary, opts, n);
        return 0;
    }
    if (rc != 0)
        return ls_report(&err);
    ls_program_cache_bypass(c.no_cache ? "--no-cache" : NULL);
    bench_plan plan = {warmup, repeat, !c.json && !c.quiet && isatty(STDERR_FILENO), 0, 0};
    if (debug_slow_run(&plan, &err) != 0)
        return ls_report(&err);
    ls_dev_ref devs[LS_MAX_DEVICES * 3];
    char skipped[1024];
    int ndev = ls_collect_devices("--backend", list, devs, LS_MAX_DEVICES * 3, skipped, sizeof skipped, &err);
    if (ndev <= 0) {
        if (ndev == 0)
            ls_fail(&err, "bench: no backend available (%s)", skipped);
        return ls_report(&err);
    }
    ls_buffer json;
    bench_table t;
    if (table_open(&t, &json, c.json, list, &plan, &err) != 0)
        return ls_report(&err);
    ls_progress_catch_sigint();
    for (int wi = 0; ls_workloads[wi] && !ls_progress_interrupted(); wi++) {
        const ls_workload *w = ls_workloads[wi];
        void *params = ls_cmd_quick_params(w, &err);
        int failed = !params || bench_devices(w, params, devs, ndev, &plan, &t, &err) != 0;
        free(params);
        if (failed) {
            if (t.json)
                ls_buffer_discard(t.json);
            bench_table_free(&t);
            return ls_report(&err);
        }
    }
    return table_close(&t, skipped, "not every workload ran on every device");
}

/* lockstep bench WORKLOAD --paths LIST: the workload with its options on
 * each device of LIST in turn, and each path's efficiency on its chip. */
static int bench_paths(const ls_workload *w, const void *params, const char *list, const bench_plan *plan, int json)
{
    ls_error err = {{0}, 0};
    ls_dev_ref devs[LS_MAX_DEVICES * 3];
    char skipped[1024];
    int ndev = ls_collect_devices("--paths", list, devs, LS_MAX_DEVICES * 3, skipped, sizeof skipped, &err);
    if (ndev <= 0) {
        if (ndev == 0)
            ls_fail(&err, "bench: none of --paths %s can run here (%s)", list, skipped);
        return ls_report(&err);
    }
    ls_buffer buf;
    bench_table t;
    if (table_open(&t, &buf, json, list, plan, &err) != 0)
        return ls_report(&err);
    ls_progress_catch_sigint();
    if (bench_devices(w, params, devs, ndev, plan, &t, &err) != 0) {
        if (t.json)
            ls_buffer_discard(t.json);
        bench_table_free(&t);
        return ls_report(&err);
    }
    return table_close(&t, skipped, "not every path ran");
}

int ls_cmd_bench(int argc, char **argv)
{
    ls_error err = {{0}, 0};
    ls_common c = {0};
    uint64_t repeat = 5, warmup = 1;
    const char *paths = NULL;
    ls_opt extra[] = {
        LS_OPT_BACKEND(&c),
        {"paths", LS_OPT_STRING, &paths, 0, 0, "LIST",
         "time the workload on each device of LIST in turn, as bench all's --backend takes it (opencl is every "
         "OpenCL device), then give each row's efficiency against the fastest path to the same chip and each "
         "backend's portability over its devices",
         NULL, NULL},
        {"repeat", LS_OPT_COUNT, &repeat, 1, 1000, "R", "timed runs", NULL, NULL},
        {"warmup", LS_OPT_COUNT, &warmup, 0, 100, "W", "untimed runs first", NULL, NULL},
        LS_OPT_JSON(&c),
        LS_OPT_QUIET(&c),
        LS_OPT_NO_CACHE(&c),
    };
    const int nextra = (int)(sizeof extra / sizeof extra[0]);
    if (argc < 3 || strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) {
        ls_opts_help(stdout, "lockstep bench WORKLOAD|all [workload options] [options]", bench_summary, extra,
                     nextra);
        return argc < 3 ? 2 : 0;
    }
    if (strcmp(argv[2], "all") == 0)
        return bench_all(argc, argv);
    const ls_workload *w = ls_workload_find(argv[2]);
    if (!w) {
        ls_cmd_unknown_workload("bench", argv[2], "all", "lockstep bench --help", &err);
        return ls_report(&err);
    }
    char usage[128];
    snprintf(usage, sizeof usage, "lockstep bench %s [options]", w->name);
    void *params = calloc(1, w->params_size);
    if (!params)
        return fprintf(stderr, "lockstep: out of memory\n"), 1;
    int rc = ls_cmd_parse_params(w, params, 0, argc, argv, 3, extra, nextra, usage, "Times a workload.", &err);
    if (rc != 0) {
        free(params);
        return rc == 1 ? 0 : ls_report(&err);
    }
    ls_program_cache_bypass(c.no_cache ? "--no-cache" : NULL);
    bench_plan plan = {warmup, repeat, !c.json && !c.quiet && isatty(STDERR_FILENO), 0, 0};
    if (paths && c.backend)
        ls_fail_usage(&err, "bench: --paths and --backend: choose one (--paths takes each device in turn)");
    if (err.msg[0] || debug_slow_run(&plan, &err) != 0) {
        free(params);
        return ls_report(&err);
    }
    if (paths) {
        rc = bench_paths(w, params, paths, &plan, c.json);
        free(params);
        return rc;
    }
    ls_set s;
    if (ls_set_open(c.backend, &s, &err) != 0) {
        ls_set_close(&s);
        free(params);
        return ls_progress_interrupted() && !err.usage ? ls_cmd_stopped(&err) : ls_report(&err);
    }
    ls_progress_catch_sigint();
    bench_result r;
    int failed = bench_runs(w, params, &s, s.label, &plan, &r, &err) != 0;
    if (r.stopped)
        fprintf(stderr, "lockstep: bench interrupted after %" PRIu64 " of %" PRIu64 " timed runs%s\n", r.timed, repeat,
                r.timed ? "; the figures below are of those" : "; nothing was timed");
    if (!failed && (r.timed || r.stopped) && c.json) {
        ls_buffer b;
        rc = ls_buffer_open(&b, &err);
        if (rc == 0) {
            fputc('{', b.f);
            ls_json_provenance(b.f);
            fputc(',', b.f);
            bench_json(b.f, w, params, s.label, s.dev[0].info.name, &plan, &r);
            fputs("}\n", b.f);
            rc = ls_buffer_emit(&b, stdout, "standard output", &err);
        }
        failed = rc != 0;
    } else if (!failed && r.timed) {
        char unit[32];
        ls_format_unit(w->unit, unit, sizeof unit);
        printf("%s on %s (%s): %" PRIu64 " %s, %s\n", w->name, s.label, s.dev[0].info.name, r.items, unit, r.summary);
        /* The standard deviation is the sample's (n - 1): none of one run. */
        char spread[64] = " (n=1)";
        if (r.timed > 1)
            snprintf(spread, sizeof spread, " \u00b1 %.6f s", r.stddev);
        printf("mean %.6f s%s  median %.6f s  min %.6f s  max %.6f s  (%" PRIu64 " run%s after %" PRIu64
               " warm-up%s)\n",
               r.mean, spread, r.median, r.min, r.max, r.timed, r.timed == 1 ? "" : "s", warmup,
               warmup == 1 ? "" : "s");
        printf("rate %.4g %s/s (median), digest %s\n", (double)r.items / r.median, unit, r.digest);
        ls_clock_print(stdout, &r.clock, 7);
        char load[200];
        ls_machine_load_text(&r.load, 0, load, sizeof load);
        printf("machine: %s\n", load);
    }
    if (!failed && r.timed) {
        fflush(stdout); /* the warnings after the report they are about; a failed write is reported at exit */
        print_warnings(&r, "");
    }
    bench_result_free(&r);
    ls_set_close(&s);
    free(params);
    return failed ? ls_report(&err) : r.stopped ? ls_exit_interrupted() : 0;
}
