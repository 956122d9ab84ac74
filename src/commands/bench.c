/* bench.c - `lockstep bench WORKLOAD|all`: repeated runs timed, the
 * median, fastest and slowest, every digest the same. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "devlist.h"
#include "output.h"
#include "progress.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* What the timed runs of one workload on one device gave. */
typedef struct bench_result {
    uint64_t items, timed; /* items of one run; runs timed */
    double median, min, max;
    char digest[17], summary[200];
    int stopped; /* a signal came before every run was timed */
    ls_clock clock; /* the wall clock when any timed run's was */
} bench_result;

/* Folds a timed run's clock into the bench's: the figures are the wall
 * clock's as soon as one run's is (the first reason kept). */
static void keep_clock(ls_clock *bench, const ls_clock *run)
{
    if (run->wall && !bench->wall)
        *bench = *run;
}

/* Runs w `warmup` times untimed, then `repeat` times timed, on s; every
 * run's digest must be the first's. A signal stops the run in hand (its
 * time is not counted) and the runs timed so far are the result. 0, or
 * -1 with err set. */
static int bench_runs(const ls_workload *w, const void *params, ls_set *s, uint64_t warmup, uint64_t repeat,
                      bench_result *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    double *times = calloc((size_t)repeat, sizeof *times);
    if (!times)
        return ls_fail(err, "out of memory for %" PRIu64 " timings", repeat);
    ls_progress_bar bar;
    ls_progress prog = ls_progress_start(&bar, w->name, w->unit, 1, 0);
    int failed = 0;
    for (uint64_t i = 0; i < warmup + repeat && !failed && !ls_progress_interrupted(); i++) {
        ls_run run;
        if (ls_cmd_run_workload(w, s, params, &run, &prog, err) != 0) {
            failed = 1;
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
        if (i >= warmup && !failed) {
            times[out->timed++] = run.seconds;
            keep_clock(&out->clock, &run.report.clock);
        }
        out->items = run.items;
        w->run_free(&run);
    }
    ls_progress_finish(&bar);
    out->stopped = !failed && out->timed < repeat;
    if (!failed && out->timed) {
        uint64_t n = out->timed;
        qsort(times, n, sizeof *times, cmp_double);
        out->median = n % 2 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
        out->min = times[0];
        out->max = times[n - 1];
    }
    free(times);
    return failed ? -1 : 0;
}

/* One bench result as a JSON object: the workload and its inputs, where it
 * ran, and the timings. */
static void bench_json(FILE *out, const ls_workload *w, const void *params, const char *device,
                       const char *device_name, const bench_result *r)
{
    fprintf(out, "\"workload\":\"%s\",", w->name);
    ls_cmd_params_json(out, w, params, 0);
    fprintf(out, ",\"device\":");
    ls_json_string(out, device);
    fprintf(out, ",\"device_name\":");
    ls_json_string(out, device_name);
    fprintf(out,
            ",\"items\":%" PRIu64 ",\"repeat\":%" PRIu64 ",\"median_s\":%.6g,\"min_s\":%.6g,\"max_s\":%.6g,"
            "\"items_per_s\":%.6g,",
            r->items, r->timed, r->median, r->min, r->max, r->median > 0 ? (double)r->items / r->median : 0.0);
    ls_clock_json(out, &r->clock);
    fprintf(out, ",\"digest\":\"%s\",\"interrupted\":%s", r->digest, r->stopped ? "true" : "false");
}

static const char bench_summary[] =
    "Times WORKLOAD: W untimed warm-up runs, then R timed runs; reports the median, the\n"
    "fastest and the slowest: device time on GPUs (events, profiling), checked against the\n"
    "wall time around the finished queues, which replaces a device time that cannot be\n"
    "right; wall time on the CPU (--json: \"clock\"). Every run's digest must match.\n"
    "`bench all` times every workload at the small sizes of `check all` on each device\n"
    "--backend names in turn (without it, every device of every backend) and prints one\n"
    "table. `lockstep bench WORKLOAD --help` lists the workload's options.";

/* The table row of one workload on one device: a result or why none. */
static void bench_row(const ls_workload *w, const char *device, const char *name, const bench_result *r,
                      const char *error)
{
    if (error) {
        printf("%-9s %-12s %-32.32s error: %s\n", w->name, device, name, error);
        return;
    }
    char items[32];
    ls_format_count(r->items, items, sizeof items);
    printf("%-9s %-12s %-32.32s %9s %-12s %10.6f %10.4g %s%s\n", w->name, device, name, items, w->unit, r->median,
           r->median > 0 ? (double)r->items / r->median : 0.0, r->digest,
           r->clock.why[0] ? "  (wall clock: the device's timer read a time that cannot be right)" : "");
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
    };
    const int n = (int)(sizeof opts / sizeof opts[0]);
    int rc = ls_opts_parse(argc, argv, 3, opts, n, NULL, NULL, 0, &err);
    if (rc == 1) {
        ls_opts_help(stdout, "lockstep bench all [options]", bench_summary, opts, n);
        return 0;
    }
    if (rc != 0)
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
    if (c.json) {
        if (ls_buffer_open(&json, &err) != 0)
            return ls_report(&err);
        fputc('{', json.f);
        ls_json_provenance(json.f);
        fprintf(json.f, ",\"backends\":");
        if (list)
            ls_json_string(json.f, list);
        else
            fputs("null", json.f);
        fprintf(json.f, ",\"repeat\":%" PRIu64 ",\"warmup\":%" PRIu64 ",\"benches\":[", repeat, warmup);
    } else {
        printf("%-9s %-12s %-32s %9s %-12s %10s %10s %s\n", "workload", "device", "name", "items", "", "median s",
               "items/s", "digest");
    }
    ls_progress_catch_sigint();
    int failures = 0, rows = 0;
    for (int wi = 0; ls_workloads[wi] && !ls_progress_interrupted(); wi++) {
        const ls_workload *w = ls_workloads[wi];
        void *params = ls_cmd_quick_params(w, &err);
        if (!params)
            return ls_report(&err);
        for (int d = 0; d < ndev && !ls_progress_interrupted(); d++) {
            if (devs[d].set[0] && !w->on_set)
                continue; /* a set: for the workloads that run on one */
            char label[160];
            ls_dev_label(&devs[d], label, sizeof label);
            ls_set s;
            ls_error e = {{0}, 0};
            bench_result r;
            int opened = ls_dev_open(devs[d], &s, &e) == 0;
            int ok = opened && bench_runs(w, params, &s, warmup, repeat, &r, &e) == 0;
            const char *name = opened ? (s.ndevices > 1 ? s.label : s.dev[0].info.name) : "";
            int timed = ok && r.timed > 0;
            failures += !ok;
            if (c.json && (timed || !ok)) {
                fprintf(json.f, "%s{", rows++ ? "," : "");
                if (timed) {
                    bench_json(json.f, w, params, label, name, &r);
                } else {
                    fprintf(json.f, "\"workload\":\"%s\",\"device\":", w->name);
                    ls_json_string(json.f, label);
                    fprintf(json.f, ",\"error\":");
                    ls_json_string(json.f, e.msg);
                }
                fputc('}', json.f);
            } else if (!c.json && (timed || !ok)) {
                bench_row(w, label, name, &r, ok ? NULL : e.msg);
            }
            if (opened)
                ls_set_close(&s);
        }
        free(params);
    }
    int stopped = ls_progress_interrupted();
    if (c.json) {
        fprintf(json.f, "],\"not_available\":");
        ls_json_string(json.f, skipped);
        fprintf(json.f, ",\"failed\":%d,\"interrupted\":%s}\n", failures, stopped ? "true" : "false");
        if (ls_buffer_emit(&json, stdout, "standard output", &err) != 0)
            return ls_report(&err);
    } else {
        if (skipped[0])
            printf("not available: %s\n", skipped);
        if (stopped)
            printf("interrupted: not every workload ran on every device\n");
    }
    return failures ? 1 : stopped ? ls_exit_interrupted() : 0;
}

int ls_cmd_bench(int argc, char **argv)
{
    ls_error err = {{0}, 0};
    ls_common c = {0};
    uint64_t repeat = 5, warmup = 1;
    ls_opt extra[] = {
        LS_OPT_BACKEND(&c),
        {"repeat", LS_OPT_COUNT, &repeat, 1, 1000, "R", "timed runs", NULL, NULL},
        {"warmup", LS_OPT_COUNT, &warmup, 0, 100, "W", "untimed runs first", NULL, NULL},
        LS_OPT_JSON(&c),
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
        ls_fail_usage(&err, "bench: unknown workload '%s' (see lockstep bench --help)", argv[2]);
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
    ls_set s;
    if (ls_set_open(c.backend, &s, &err) != 0 || ls_cmd_check_set(w, &s, &err) != 0) {
        ls_set_close(&s);
        free(params);
        return ls_report(&err);
    }
    ls_progress_catch_sigint();
    bench_result r;
    int failed = bench_runs(w, params, &s, warmup, repeat, &r, &err) != 0;
    if (r.stopped)
        fprintf(stderr, "lockstep: bench interrupted after %" PRIu64 " of %" PRIu64 " timed runs%s\n", r.timed, repeat,
                r.timed ? "; the figures below are of those" : "; nothing was timed");
    if (!failed && r.timed && c.json) {
        ls_buffer b;
        rc = ls_buffer_open(&b, &err);
        if (rc == 0) {
            fputc('{', b.f);
            ls_json_provenance(b.f);
            fputc(',', b.f);
            bench_json(b.f, w, params, s.label, s.dev[0].info.name, &r);
            fputs("}\n", b.f);
            rc = ls_buffer_emit(&b, stdout, "standard output", &err);
        }
        failed = rc != 0;
    } else if (!failed && r.timed) {
        printf("%s on %s (%s): %" PRIu64 " %s, %s\n", w->name, s.label, s.dev[0].info.name, r.items, w->unit, r.summary);
        printf("median %.6f s  min %.6f s  max %.6f s  (%" PRIu64 " run%s after %" PRIu64 " warm-up%s)\n", r.median,
               r.min, r.max, r.timed, r.timed == 1 ? "" : "s", warmup, warmup == 1 ? "" : "s");
        printf("rate %.4g %s/s (median), digest %s\n", (double)r.items / r.median, w->unit, r.digest);
        ls_clock_print(stdout, &r.clock, 7);
    }
    ls_set_close(&s);
    free(params);
    return failed ? ls_report(&err) : r.stopped ? ls_exit_interrupted() : 0;
}
