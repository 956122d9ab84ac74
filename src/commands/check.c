/* check.c - `lockstep check WORKLOAD|all`: the same inputs on every
 * device (or set of devices), every result compared with the first. */
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
} check_row;

typedef struct check_outcome {
    int compared, failures, agree, interrupted, not_supported;
} check_outcome;

/* One run of a check: where it ran, and either its digest and the result
 * fields that differ from the reference run's ("differs":[] when none),
 * why the device does not support it, or why it could not run. */
static void check_row_json(FILE *out, const check_row *r, const check_row *ref)
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
        fputs("]}", out);
    } else {
        fprintf(out, r->not_supported ? ",\"not_supported\":" : ",\"error\":");
        ls_json_string(out, r->error);
        fprintf(out, "}");
    }
}

/* The members of one workload's check (the caller adds the braces): the
 * workload, its inputs, the verdict and every run. */
static void check_print_json(FILE *out, const ls_workload *w, const void *params, const check_row *rows, int n,
                             int ref, const check_outcome *o)
{
    fprintf(out, "\"workload\":\"%s\",", w->name);
    ls_cmd_params_json(out, w, params, 0);
    fprintf(out, ",\"compared\":%d,\"not_supported\":%d,\"agree\":%s,\"runs\":[", o->compared, o->not_supported,
            o->agree && !o->failures && o->compared >= 2 ? "true" : "false");
    int first = 1;
    for (int i = 0; i < n; i++)
        if (rows[i].ran) {
            fputs(first ? "" : ",", out);
            check_row_json(out, &rows[i], &rows[ref < 0 ? i : ref]);
            first = 0;
        }
    fprintf(out, "]");
}

static void check_print_table(const ls_workload *w, const void *params, const check_row *rows, int n, int ref,
                              const char *skipped)
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
                   wresult, rows[i].run.summary, rows[i].run.seconds,
                   i != ref && strcmp(rows[i].run.digest, rows[ref].run.digest) ? "  DIFFERS" : "");
        else
            printf("%-*s %-*s %s: %s\n", wdev, rows[i].label, wname, rows[i].name,
                   rows[i].not_supported ? "not supported" : "error", rows[i].error);
    }
    if (skipped[0])
        printf("not available: %s\n", skipped);
    for (int i = 0; i < n; i++)
        if (rows[i].ok && i != ref && strcmp(rows[i].run.digest, rows[ref].run.digest) != 0) {
            printf("%s differs from %s:\n", rows[i].label, rows[ref].label);
            ls_json_diff_members(rows[ref].json, rows[ref].label, rows[i].json, rows[i].label, stdout, NULL);
            if (w->diff)
                w->diff(params, &rows[ref].run, rows[ref].label, &rows[i].run, rows[i].label, stdout);
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
    o.interrupted = ls_progress_interrupted();
    if (json_out) {
        check_print_json(json_out, w, params, rows, ndev, ref, &o);
    } else {
        printf("== check %s\n", w->name);
        check_print_table(w, params, rows, ndev, ref, skipped);
        if (!o.agree)
            printf("DISAGREEMENT: the backends computed different results\n");
        else if (ls_progress_interrupted())
            printf("interrupted: not every device ran\n");
        else if (!o.failures && o.compared < 2)
            printf("skipped: only %d device ran, so nothing was compared\n", o.compared);
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
        char which[160], text[1400];
        ls_cmd_set_workloads(which, sizeof which);
        snprintf(text, sizeof text,
                 "Runs WORKLOAD with the same inputs on every available backend and device (or those\n"
                 "--backend names, e.g. openmp,opencl:1) and compares the full results; `all` runs every\n"
                 "workload at a small size. Exits 1 with the fields that differ when any two disagree,\n"
                 "77 (skipped) when fewer than two devices could be compared, 0 when all agree.\n"
                 "A device that rightly refuses a run is \"not supported\", with the reason, and not\n"
                 "compared: one without correctly rounded divide and sqrt, for ray's exact mode.\n"
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
