/* check.c - `lockstep check WORKLOAD|all`: the same inputs on every
 * device (or set of devices), every result compared with the first. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "devlist.h"
#include "json_diff.h"
#include "output.h"
#include "progress.h"
#include "program_cache.h"

typedef struct check_row {
    char label[160];
    char name[160];
    char error[512]; /* why it failed, or why it is not supported */
    int ran, ok, stopped; /* stopped: a signal cut its run short */
    int not_supported;    /* the device rightly refused the run (error says why) */
    ls_run run;
    char *json; /* the result's members */
    /* An approximate run (ray's fast mode): the earlier row of the same
     * kind of device, whose bytes it must give (-1: none), how close it is
     * to the exact run (measured: 1, or -1 when not comparable), whether
     * that is within the bound, and whether the row agrees (both). */
    int same_kind, measured, in_bound, within;
    ls_closeness close;
} check_row;

typedef struct check_outcome {
    int compared, failures, agree, interrupted, not_supported;
} check_outcome;

/* The check of an approximate run (w->approximate: ray's fast mode),
 * whose result may rightly differ between kinds of device: runs of one
 * kind must still match byte for byte, and every run must be within the
 * documented bound of the exact run, rendered once on the first device
 * that runs it. used 0: every device must match byte for byte. */
typedef struct check_bound {
    int used;
    int identical;  /* every run gave the same result */
    check_row exact; /* exact.ok: the exact run is there to measure against */
    ls_closeness least; /* the names and bound, and the lowest figure of the runs measured */
} check_bound;

/* A figure as people read it: "PSNR 62.7 dB", or "identical" (an
 * infinite PSNR). */
static const char *figure_text(const ls_closeness *c, double value, char *buf, size_t len)
{
    if (isinf(value))
        snprintf(buf, len, "identical");
    else
        snprintf(buf, len, "%s %.1f %s", c->measure, value, c->unit);
    return buf;
}

/* A figure in JSON: null for an infinite one (identical), which JSON
 * cannot write. */
static void json_figure(FILE *out, double value)
{
    if (isinf(value))
        fputs("null", out);
    else
        fprintf(out, "%.4f", value);
}

/* An approximate run's members: the run of the same kind of device it
 * must match byte for byte, its figure against the exact run (null:
 * identical) and whether it is within the bound, or why it cannot be
 * measured. */
static void check_row_bound_json(FILE *out, const check_row *r, const check_row *rows)
{
    if (r->same_kind >= 0) {
        fputs(",\"same_kind_as\":", out);
        ls_json_string(out, rows[r->same_kind].label);
    }
    if (r->measured > 0) {
        fprintf(out, ",\"%s\":", r->close.key);
        json_figure(out, r->close.value);
    } else if (r->measured < 0) {
        fputs(",\"not_comparable\":", out);
        ls_json_string(out, r->close.why);
    }
    fprintf(out, ",\"within_bound\":%s", r->within ? "true" : "false");
}

/* One run of a check: where it ran, and either its digest and the result
 * fields that differ from the reference run's ("differs":[] when none),
 * why the device does not support it, or why it could not run. */
static void check_row_json(FILE *out, const check_row *r, const check_row *ref, const check_row *rows,
                           const check_bound *b)
{
    fprintf(out, "{\"device\":");
    ls_json_string(out, r->label);
    fprintf(out, ",\"device_name\":");
    ls_json_string(out, r->name);
    if (r->ok) {
        fprintf(out, ",\"digest\":\"%s\",\"summary\":", r->run.digest);
        ls_json_string(out, r->run.summary);
        fprintf(out, ",\"seconds\":%.6f,", r->run.seconds);
        ls_clock_json(out, &r->run.report.clock);
        fprintf(out, ",\"reference\":%s,\"matches_reference\":%s,\"differs\":[", r == ref ? "true" : "false",
                strcmp(r->run.digest, ref->run.digest) == 0 ? "true" : "false");
        if (r != ref)
            ls_json_diff_members(ref->json, ref->label, r->json, r->label, NULL, out);
        fputs("]", out);
        if (b->used)
            check_row_bound_json(out, r, rows);
        fputs("}", out);
    } else {
        fprintf(out, r->not_supported ? ",\"not_supported\":" : ",\"error\":");
        ls_json_string(out, r->error);
        fprintf(out, "}");
    }
}

/* An approximate check's members: whether every run gave the same
 * result, the bound and the lowest figure, and the exact run measured
 * against (null when no device ran it). */
static void check_bound_json(FILE *out, const check_bound *b)
{
    const ls_closeness *c = &b->least;
    fprintf(out, ",\"identical\":%s,\"bound_%s\":", b->identical ? "true" : "false", c->key);
    json_figure(out, c->bound);
    fprintf(out, ",\"lowest_%s\":", c->key);
    if (b->exact.ok)
        json_figure(out, c->value);
    else
        fputs("null", out);
    fputs(",\"exact_reference\":", out);
    if (!b->exact.ok) {
        fputs("null", out);
        return;
    }
    fputs("{\"device\":", out);
    ls_json_string(out, b->exact.label);
    fputs(",\"device_name\":", out);
    ls_json_string(out, b->exact.name);
    fprintf(out, ",\"digest\":\"%s\",\"summary\":", b->exact.run.digest);
    ls_json_string(out, b->exact.run.summary);
    fputs("}", out);
}

/* The members of one workload's check (the caller adds the braces): the
 * workload, its inputs, the verdict and every run. */
static void check_print_json(FILE *out, const ls_workload *w, const void *params, const check_row *rows, int n,
                             int ref, const check_outcome *o, const check_bound *b)
{
    fprintf(out, "\"workload\":\"%s\",", w->name);
    ls_cmd_params_json(out, w, params, 0);
    fprintf(out, ",\"compared\":%d,\"not_supported\":%d,\"agree\":%s", o->compared, o->not_supported,
            o->agree && !o->failures && o->compared >= 2 ? "true" : "false");
    if (b->used)
        check_bound_json(out, b);
    fputs(",\"runs\":[", out);
    int first = 1;
    for (int i = 0; i < n; i++)
        if (rows[i].ran) {
            fputs(first ? "" : ",", out);
            check_row_json(out, &rows[i], &rows[ref < 0 ? i : ref], rows, b);
            first = 0;
        }
    fprintf(out, "]");
}

/* Whether a row that ran is marked DIFFERS: its result is not the
 * reference's, or, in an approximate check, not its kind's or beyond the
 * bound. */
static int row_differs(const check_row *rows, int i, int ref, const check_bound *b)
{
    if (b->used)
        return !rows[i].within;
    return i != ref && strcmp(rows[i].run.digest, rows[ref].run.digest) != 0;
}

/* How two runs differ: the fields, and the workload's own detail. */
static void print_diff(const ls_workload *w, const void *params, const check_row *a, const check_row *b)
{
    ls_json_diff_members(a->json, a->label, b->json, b->label, stdout, NULL);
    if (w->diff)
        w->diff(params, &a->run, a->label, &b->run, b->label, stdout);
}

/* One run's line under the bound: its figure (or why there is none),
 * and the run of its kind whose bytes it must give. */
static void print_bound_row(const check_row *rows, int i, const ls_closeness *c)
{
    const check_row *r = &rows[i];
    char fig[64];
    printf("  %s: %s%s", r->label, r->measured > 0 ? figure_text(c, r->close.value, fig, sizeof fig) : r->close.why,
           r->measured > 0 && !r->in_bound ? ", BEYOND THE BOUND" : "");
    if (r->same_kind >= 0)
        printf(", %s bytes as %s (the same kind of device)",
               strcmp(r->run.digest, rows[r->same_kind].run.digest) == 0 ? "the same" : "NOT the same",
               rows[r->same_kind].label);
    putchar('\n');
}

/* An approximate check: each run's figure against the exact run, and for
 * each run that fails, why: another result than a device of its kind
 * gave, or beyond the bound (with how its image differs from the exact
 * one), or not the exact run's inputs. */
static void print_bound(const ls_workload *w, const void *params, const check_row *rows, int n, int ref,
                        const check_bound *b)
{
    const ls_closeness *c = &b->least;
    if (!b->exact.ok) {
        printf("%s not checked: no device here rendered %s, which it is measured from%s%s\n", c->bound_name,
               c->exact_name, b->exact.error[0] ? ": " : "", b->exact.error);
        if (!b->identical)
            printf("so devices of different kinds cannot be shown to agree\n");
    } else {
        printf("%s: at least %s %.4g %s from %s, rendered on %s (%s):\n", c->bound_name, c->measure, c->bound,
               c->unit, c->exact_name, b->exact.label, b->exact.run.summary);
        for (int i = 0; i < n; i++)
            if (rows[i].ok)
                print_bound_row(rows, i, c);
    }
    for (int i = 0; i < n; i++) {
        const check_row *r = &rows[i];
        if (!r->ok || r->within)
            continue;
        if (r->same_kind >= 0 && strcmp(r->run.digest, rows[r->same_kind].run.digest) != 0) {
            printf("%s differs from %s, a device of the same kind, which must give the same bytes:\n", r->label,
                   rows[r->same_kind].label);
            print_diff(w, params, &rows[r->same_kind], r);
        } else if (r->measured > 0) {
            printf("%s is further from %s (%s) than %s allows:\n", r->label, c->exact_name, b->exact.label,
                   c->bound_name);
            char exact[200];
            snprintf(exact, sizeof exact, "exact on %s", b->exact.label);
            if (w->diff)
                w->diff(params, &b->exact.run, exact, &r->run, r->label, stdout);
        } else if (i != ref) {
            printf("%s differs from %s:\n", r->label, rows[ref].label);
            print_diff(w, params, &rows[ref], r);
        }
    }
}

static void check_print_table(const ls_workload *w, const void *params, const check_row *rows, int n, int ref,
                              const char *skipped, const check_bound *b)
{
    /* Each column as wide as its widest cell: a set's spec, PoCL's name. */
    int wdev = (int)strlen("device"), wname = (int)strlen("name"), wresult = (int)strlen("result");
    for (int i = 0; i < n; i++)
        if (rows[i].ran) {
            wdev = ls_cmd_wider(wdev, rows[i].label);
            wname = ls_cmd_wider(wname, rows[i].name);
            wresult = rows[i].ok ? ls_cmd_wider(wresult, rows[i].run.summary) : wresult;
        }
    printf("%-*s %-*s %-16s %-*s %10s\n", wdev, "device", wname, "name", "digest", wresult, "result", "seconds");
    for (int i = 0; i < n; i++) {
        if (!rows[i].ran)
            continue; /* not reached: interrupted before it */
        if (rows[i].ok)
            printf("%-*s %-*s %-16s %-*s %10.4f%s\n", wdev, rows[i].label, wname, rows[i].name, rows[i].run.digest,
                   wresult, rows[i].run.summary, rows[i].run.seconds, row_differs(rows, i, ref, b) ? "  DIFFERS" : "");
        else
            printf("%-*s %-*s %s: %s\n", wdev, rows[i].label, wname, rows[i].name,
                   rows[i].not_supported ? "not supported" : "error", rows[i].error);
    }
    if (skipped[0])
        printf("not available: %s\n", skipped);
    if (b->used && ref >= 0) {
        print_bound(w, params, rows, n, ref, b);
        return;
    }
    for (int i = 0; i < n; i++)
        if (rows[i].ok && row_differs(rows, i, ref, b)) {
            printf("%s differs from %s:\n", rows[i].label, rows[ref].label);
            print_diff(w, params, &rows[ref], &rows[i]);
        }
}

/* A device that could not be opened, or a run that failed: a failure of
 * the device, unless a stop was requested meanwhile, whose signal is
 * then its cause (a driver's call it broke: PoCL's program build), and
 * the row is one the stop cut short. */
static void stopped_or_failed(check_row *row, const ls_error *e)
{
    row->stopped = ls_progress_interrupted();
    snprintf(row->error, sizeof row->error, "%s%.490s", row->stopped ? "interrupted: " : "", e->msg);
}

/* Runs w on one device or set into row; the row records why when it
 * cannot. */
static void check_one(const ls_workload *w, const void *params, ls_dev_ref d, check_row *row, const ls_common *c)
{
    ls_set s;
    ls_error e = {{0}, 0};
    row->ran = 1;
    ls_dev_label(&d, row->label, sizeof row->label);
    if (ls_dev_open(d, &s, &e) != 0) {
        stopped_or_failed(row, &e);
        return;
    }
    ls_dev_name(&s, row->name, sizeof row->name);
    if (w->needs && !ls_set_supports(&s, w->needs(params), row->error, sizeof row->error)) {
        row->not_supported = 1;
        ls_set_close(&s);
        return;
    }
    char label[320];
    snprintf(label, sizeof label, "check %s on %s", w->name, row->label);
    ls_progress_bar bar;
    ls_progress prog = ls_progress_start(&bar, label, w->unit, c->quiet, c->progress_every, s.job.rank, s.job.size);
    if (ls_cmd_run_workload(w, &s, params, &row->run, &prog, &e) != 0) {
        stopped_or_failed(row, &e);
    } else if (row->run.interrupted) {
        snprintf(row->error, sizeof row->error, "interrupted");
        row->stopped = 1;
        w->run_free(&row->run);
    } else if (ls_run_seal(w, params, &s, &row->run, &e) != 0 ||
               !(row->json = ls_result_json(w, params, &row->run))) {
        snprintf(row->error, sizeof row->error, "%s", e.msg[0] ? e.msg : "out of memory");
        w->run_free(&row->run);
    } else {
        row->ok = 1;
    }
    ls_progress_finish(&bar);
    ls_set_close(&s);
}

/* The exact run of an approximate check, on the first device of devs
 * that runs it (one that rightly refuses it is passed over; exact mode is
 * the same on every device that runs it, which `check` in exact mode
 * shows). 0, or -1 when none ran it (b->exact.error says why, empty when
 * no device could). */
static int run_exact(const ls_workload *w, const void *exact, const ls_dev_ref *devs, int ndev, check_bound *b,
                     const ls_common *c)
{
    for (int i = 0; i < ndev && !ls_progress_interrupted(); i++) {
        memset(&b->exact, 0, sizeof b->exact);
        check_one(w, exact, devs[i], &b->exact, c);
        if (b->exact.ok)
            return 0;
        if (!b->exact.not_supported)
            return -1; /* a device that failed: its error is the answer */
    }
    b->exact.error[0] = 0;
    return -1;
}

/* The earlier row of the same kind of device as rows[i], or -1. */
static int same_kind(const ls_workload *w, const check_row *rows, int i)
{
    uint64_t kind = w->run_kind(&rows[i].run);
    for (int j = 0; kind && j < i; j++)
        if (rows[j].ok && w->run_kind(&rows[j].run) == kind)
            return j;
    return -1;
}

/* Judges one approximate row: the bytes of its kind, and its figure
 * against the exact run (without an exact run, only the bytes of every
 * other row can show it agrees). Returns whether it agrees. */
static int judge_row(const ls_workload *w, const void *params, check_row *rows, int i, int ref, check_bound *b)
{
    check_row *r = &rows[i];
    r->same_kind = same_kind(w, rows, i);
    int bytes = r->same_kind < 0 || strcmp(r->run.digest, rows[r->same_kind].run.digest) == 0;
    if (!b->exact.ok)
        return r->within = bytes && strcmp(r->run.digest, rows[ref].run.digest) == 0;
    r->measured = w->closeness(params, &r->run, &b->exact.run, &r->close) == 0 ? 1 : -1;
    if (r->measured > 0 && r->close.value < b->least.value)
        b->least.value = r->close.value;
    r->in_bound = r->measured > 0 && r->close.value >= r->close.bound;
    return r->within = bytes && r->in_bound;
}

/* An approximate check (w->approximate): renders the exact run, then
 * judges every row that ran; o->agree becomes the verdict. Nothing to do
 * when the run is not approximate. */
static void check_bounded(const ls_workload *w, const void *params, const ls_dev_ref *devs, int ndev,
                          check_row *rows, int ref, check_bound *b, check_outcome *o, const ls_common *c)
{
    if (!w->approximate || ref < 0)
        return;
    void *exact = calloc(1, w->params_size);
    if (!exact) {
        fprintf(stderr, "lockstep: out of memory\n");
        o->failures++;
        return;
    }
    if (!w->approximate(params, exact)) {
        free(exact);
        return;
    }
    b->used = 1;
    b->identical = o->agree;
    w->closeness(params, NULL, NULL, &b->least); /* the names and the bound */
    b->least.value = INFINITY;
    if (run_exact(w, exact, devs, ndev, b, c) != 0 && b->exact.error[0] && !b->exact.stopped)
        o->failures++;
    free(exact);
    o->agree = 1;
    for (int i = 0; i < ndev; i++)
        if (rows[i].ok && !judge_row(w, params, rows, i, ref, b))
            o->agree = 0;
}

/* The last line of an approximate check that agrees: how (the same
 * bytes, or within the bound) and the lowest figure. */
static void print_bound_verdict(const check_outcome *o, const check_bound *b)
{
    char fig[64];
    const ls_closeness *c = &b->least;
    if (!b->exact.ok)
        printf("%d devices agree (the same bytes; %s not checked)\n", o->compared, c->bound_name);
    else
        printf("%d devices agree %s %s (%s >= %.4g %s)\n", o->compared, b->identical ? "(the same bytes), within" :
               "within", c->bound_name, figure_text(c, c->value, fig, sizeof fig), c->bound, c->unit);
}

/* Runs w with params on every device in devs and compares each digest with
 * the first device's. */
static check_outcome check_workload(const ls_workload *w, const void *params, const ls_dev_ref *devs, int ndev,
                                    const char *skipped, const ls_common *c, FILE *json_out)
{
    check_outcome o = {0, 0, 1, 0, 0};
    check_row *rows = calloc((size_t)ndev, sizeof *rows);
    if (!rows) {
        fprintf(stderr, "lockstep: out of memory\n");
        o.failures = 1;
        return o;
    }
    int ref = -1;
    for (int i = 0; i < ndev && !ls_progress_interrupted(); i++) {
        check_one(w, params, devs[i], &rows[i], c);
        if (!rows[i].ran)
            continue;
        o.not_supported += rows[i].not_supported;
        if (!rows[i].ok) {
            o.failures += !rows[i].stopped && !rows[i].not_supported;
            continue;
        }
        if (ref < 0)
            ref = i;
        else if (strcmp(rows[i].run.digest, rows[ref].run.digest) != 0)
            o.agree = 0;
        o.compared++;
    }
    check_bound b = {0};
    if (!ls_progress_interrupted())
        check_bounded(w, params, devs, ndev, rows, ref, &b, &o, c);
    o.interrupted = ls_progress_interrupted();
    if (json_out) {
        check_print_json(json_out, w, params, rows, ndev, ref, &o, &b);
    } else {
        printf("== check %s\n", w->name);
        check_print_table(w, params, rows, ndev, ref, skipped, &b);
        if (!o.agree)
            printf("DISAGREEMENT: the backends computed different results\n");
        else if (ls_progress_interrupted())
            printf("interrupted: not every device ran\n");
        else if (!o.failures && o.compared < 2)
            printf("skipped: only %d device ran, so nothing was compared\n", o.compared);
        else if (!o.failures && b.used)
            print_bound_verdict(&o, &b);
        else if (!o.failures)
            printf("%d devices agree\n", o.compared);
        if (o.not_supported && o.agree && !o.failures && !ls_progress_interrupted())
            printf("%d not supported, each row saying why\n", o.not_supported);
    }
    for (int i = 0; i < ndev; i++) {
        if (rows[i].ok)
            w->run_free(&rows[i].run);
        free(rows[i].json);
    }
    if (b.exact.ok)
        w->run_free(&b.exact.run);
    free(b.exact.json);
    free(rows);
    return o;
}

/* Exit status of check: 1 on any disagreement or failure, 128 + the
 * signal when one stopped it before every device ran, 77 (skipped) when
 * fewer than two devices were compared, else 0. */
static int check_status(const check_outcome *o, int n)
{
    int compared_all = 1, failed = 0, interrupted = 0;
    for (int i = 0; i < n; i++) {
        failed |= !o[i].agree || o[i].failures;
        compared_all &= o[i].compared >= 2;
        interrupted |= o[i].interrupted;
    }
    interrupted |= ls_progress_interrupted();
    return failed ? 1 : interrupted ? ls_exit_interrupted() : compared_all ? 0 : 77;
}

int ls_cmd_check(int argc, char **argv)
{
    ls_error err = {{0}, 0};
    ls_common c = {0};
    const char *list = NULL;
    ls_opt extra[] = {
        LS_OPT_DEVICES(&list, "every device of every backend"),
        LS_OPT_JSON(&c), LS_OPT_QUIET(&c), LS_OPT_PROGRESS_EVERY(&c), LS_OPT_NO_CACHE(&c)};
    const int nextra = (int)(sizeof extra / sizeof extra[0]);
    if (argc < 3 || strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) {
        char names[256] = "";
        for (int i = 0; ls_workloads[i]; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), " %s", ls_workloads[i]->name);
        char which[160], text[1800];
        ls_cmd_set_workloads(which, sizeof which);
        snprintf(text, sizeof text,
                 "Runs WORKLOAD with the same inputs on every available backend and device (or those\n"
                 "--backend names, e.g. openmp,opencl:1) and compares the full results; `all` runs every\n"
                 "workload at a small size. Exits 1 with the fields that differ when any two disagree,\n"
                 "77 (skipped) when fewer than two devices could be compared, 0 when all agree.\n"
                 "A device that rightly refuses a run is \"not supported\", with the reason, and not\n"
                 "compared: one without correctly rounded divide and sqrt, for ray's exact mode.\n"
                 "ray --mode fast is fast math per kind of device (docs/ray.md): devices of one kind must\n"
                 "give the same bytes, and every image must be within fast mode's bound (PSNR at least\n"
                 "min(40, 30 + 10 log10(spp)) dB) of exact mode's image, rendered on the first device that\n"
                 "runs exact mode; then they \"agree within fast mode's bound\" (exit 0), else exit 1.\n"
                 "A set in the list (cuda:all, openmp+opencl:0) is one run spread over its devices, compared\n"
                 "like a device (cuda:0,cuda:all: two GPUs against one); %s all run on a set.\n"
                 "A set of one device is that device; a device named twice (openmp,openmp:all;\n"
                 "openmp+openmp; two sets of the same devices) is refused with exit 2.\n"
                 "Workloads:%s. `lockstep check WORKLOAD --help` lists the workload's options.",
                 which, names);
        ls_opts_help(stdout, "lockstep check WORKLOAD|all [workload options] [options]", text, extra, nextra);
        return argc < 3 ? 2 : 0;
    }
    int all = strcmp(argv[2], "all") == 0;
    const ls_workload *w = all ? NULL : ls_workload_find(argv[2]);
    if (!all && !w) {
        ls_cmd_unknown_workload("check", argv[2], "all", "lockstep check --help", &err);
        return ls_report(&err);
    }
    const char *summary = "Runs the workload on every available backend and compares the results.";
    int rc = 0;
    void *params = NULL;
    if (all) {
        rc = ls_opts_parse(argc, argv, 3, extra, nextra, NULL, NULL, 0, &err);
        if (rc == 1)
            ls_opts_help(stdout, "lockstep check all [options]",
                         "Runs every workload at a small size on every available backend and compares.", extra,
                         nextra);
    } else {
        char usage[160];
        snprintf(usage, sizeof usage, "lockstep check %s [options]", w->name);
        params = calloc(1, w->params_size);
        if (!params)
            return fprintf(stderr, "lockstep: out of memory\n"), 1;
        rc = ls_cmd_parse_params(w, params, 0, argc, argv, 3, extra, nextra, usage, summary, &err);
    }
    if (rc != 0) {
        free(params);
        return rc == 1 ? 0 : ls_report(&err);
    }
    ls_program_cache_bypass(c.no_cache ? "--no-cache" : NULL);
    ls_dev_ref devs[LS_MAX_DEVICES * 3];
    char skipped[1024];
    int ndev = ls_collect_devices("--backend", list, devs, LS_MAX_DEVICES * 3, skipped, sizeof skipped, &err);
    if (ndev <= 0) {
        free(params);
        if (ndev == 0)
            ls_fail(&err, "check: no backend available (%s)", skipped);
        return ls_report(&err);
    }
    ls_progress_catch_sigint();
    check_outcome outcomes[16];
    int nw = 0;
    /* --json: one document, {"checks":[...]} for all, rendered in memory. */
    ls_buffer json;
    FILE *json_out = NULL;
    if (c.json) {
        if (ls_buffer_open(&json, &err) != 0)
            return ls_report(&err);
        json_out = json.f;
    }
    if (json_out) {
        fputc('{', json_out);
        ls_json_provenance(json_out);
        fprintf(json_out, ",\"backends\":");
        if (list)
            ls_json_string(json_out, list);
        else
            fputs("null", json_out);
        fputc(',', json_out);
    }
    if (all) {
        if (json_out)
            fprintf(json_out, "\"checks\":[");
        for (int i = 0; ls_workloads[i] && nw < 16 && !ls_progress_interrupted(); i++) {
            const ls_workload *wi = ls_workloads[i];
            void *p = ls_cmd_quick_params(wi, &err);
            if (!p)
                return ls_report(&err);
            if (json_out)
                fputs(nw ? ",{" : "{", json_out);
            outcomes[nw++] = check_workload(wi, p, devs, ndev, skipped, &c, json_out);
            if (json_out)
                fputc('}', json_out);
            free(p);
        }
        if (json_out)
            fprintf(json_out, "]");
    } else {
        outcomes[nw++] = check_workload(w, params, devs, ndev, skipped, &c, json_out);
    }
    free(params);
    int status = check_status(outcomes, nw);
    if (json_out) {
        fprintf(json_out, ",\"not_available\":");
        ls_json_string(json_out, skipped);
        fprintf(json_out, ",\"status\":\"%s\"}\n",
                status == 0 ? "agree" : status == 77 ? "skipped" : status > 128 ? "interrupted" : "failed");
        if (ls_buffer_emit(&json, stdout, "standard output", &err) != 0)
            return ls_report(&err);
    }
    return status;
}
