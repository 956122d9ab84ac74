/* commands.c - the commands that work for every workload: run, check,
 * conformance, bench, devices. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "workload.h"

/* ---- shared pieces ----------------------------------------------------- */

/* Parameters of w with their option table, plus `extra` options of the
 * command itself; returns 0, 1 (help printed) or -1 (err set). */
static int parse_params(const ls_workload *w, void *params, int argc, char **argv, int first,
                        const ls_opt *extra, int nextra, const char *usage, const char *summary,
                        ls_error *err)
{
    ls_opt opts[LS_MAX_OPTS * 2];
    w->params_default(params);
    int n = w->params_options(params, opts, LS_MAX_OPTS);
    memcpy(opts + n, extra, (size_t)nextra * sizeof *extra);
    n += nextra;
    int rc = ls_opts_parse(argc, argv, first, opts, n, NULL, NULL, 0, err);
    if (rc == 1) {
        ls_opts_help(stdout, usage, summary, opts, n);
        return 1;
    }
    if (rc != 0)
        return -1;
    return w->params_validate(params, err);
}

static void device_label(const ls_session *s, char *out, size_t len)
{
    snprintf(out, len, "%s:%d", s->backend->name, s->index);
}

/* ---- lockstep WORKLOAD ------------------------------------------------- */

int ls_cmd_run(const ls_workload *w, int argc, char **argv)
{
    ls_common c = {0};
    ls_error err = {{0}, 0};
    ls_opt extra[] = {LS_OPT_BACKEND(&c), LS_OPT_JSON(&c), LS_OPT_QUIET(&c)};
    char usage[128];
    snprintf(usage, sizeof usage, "lockstep %s [options]", w->name);
    void *params = calloc(1, w->params_size);
    if (!params) {
        fprintf(stderr, "lockstep: out of memory\n");
        return 1;
    }
    int rc = parse_params(w, params, argc, argv, 2, extra, 3, usage, w->summary, &err);
    if (rc != 0) {
        free(params);
        return rc == 1 ? 0 : ls_report(&err);
    }
    ls_session s;
    if (ls_session_open(c.backend, &s, &err) != 0) {
        free(params);
        return ls_report(&err);
    }
    char label[200];
    snprintf(label, sizeof label, "%s on %s:%d", w->name, s.backend->name, s.index);
    ls_progress_bar bar;
    ls_progress prog = ls_progress_start(&bar, label, w->unit, c.quiet);
    ls_progress_catch_sigint();
    ls_run run;
    rc = w->run(&s, params, &run, &prog, &err);
    ls_progress_finish(&bar);
    if (rc == 0) {
        w->print(params, &s, &run, c.json, stdout);
        w->run_free(&run);
    }
    ls_session_close(&s);
    free(params);
    return rc == 0 ? 0 : ls_report(&err);
}

/* ---- device enumeration used by check and conformance ------------------- */

typedef struct dev_ref {
    const ls_backend *backend;
    int index;
} dev_ref;

/* The devices named by a comma-separated list of specs (a bare backend
 * name means all its devices), or every device when list is NULL.
 * Unavailable backends named explicitly are reported in `skipped`. */
static int collect_devices(const char *list, dev_ref *out, int max, char *skipped, size_t skipped_len,
                           ls_error *err)
{
    int n = 0;
    skipped[0] = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list ? list : "");
    const char *names[8];
    int nnames = 0;
    if (list) {
        for (char *tok = strtok(buf, ","); tok && nnames < 8; tok = strtok(NULL, ","))
            names[nnames++] = tok;
        if (nnames == 0)
            return ls_fail_usage(err, "--backends: expected a comma-separated list like openmp,opencl");
    } else {
        for (int i = 0; ls_backends[i]; i++)
            names[nnames++] = ls_backends[i]->name;
    }
    for (int i = 0; i < nnames; i++) {
        const ls_backend *b;
        int index;
        if (ls_backend_spec_parse(names[i], &b, &index, err) != 0)
            return -1;
        if (!b)
            return ls_fail_usage(err, "--backends: name backends explicitly (auto is not a list)");
        ls_device_info devs[LS_MAX_DEVICES];
        ls_error why = {{0}, 0};
        int nd = b->list_devices(devs, LS_MAX_DEVICES, &why);
        if (nd <= 0 || index >= nd) {
            size_t used = strlen(skipped);
            snprintf(skipped + used, skipped_len - used, "%s%s: %s", used ? "; " : "", names[i],
                     nd <= 0 ? why.msg : "no such device index");
            continue;
        }
        for (int d = index < 0 ? 0 : index; d < (index < 0 ? nd : index + 1) && n < max; d++)
            out[n++] = (dev_ref){b, d};
    }
    /* Run the CPU first: it is the reference the others are compared with. */
    for (int i = 1; i < n; i++)
        if (strcmp(out[i].backend->name, "openmp") == 0) {
            dev_ref t = out[i];
            memmove(out + 1, out, (size_t)i * sizeof *out);
            out[0] = t;
        }
    return n;
}

static int open_ref(dev_ref d, ls_session *s, ls_error *err)
{
    char spec[64];
    snprintf(spec, sizeof spec, "%s:%d", d.backend->name, d.index);
    return ls_session_open(spec, s, err);
}

/* ---- lockstep check WORKLOAD|all ---------------------------------------- */

typedef struct check_row {
    char label[64];
    char name[160];
    char error[512];
    int ok;
    ls_run run;
} check_row;

static void check_print_json(const ls_workload *w, const check_row *rows, int n, int ref, int agree,
                             const char *skipped)
{
    printf("{\"workload\":\"%s\",\"agree\":%s,\"runs\":[", w->name, agree ? "true" : "false");
    for (int i = 0; i < n; i++) {
        printf("%s{\"device\":\"%s\",\"name\":", i ? "," : "", rows[i].label);
        ls_json_string(stdout, rows[i].name);
        if (rows[i].ok) {
            printf(",\"digest\":\"%s\",\"summary\":", rows[i].run.digest);
            ls_json_string(stdout, rows[i].run.summary);
            printf(",\"seconds\":%.6f,\"matches_reference\":%s}", rows[i].run.seconds,
                   strcmp(rows[i].run.digest, rows[ref].run.digest) == 0 ? "true" : "false");
        } else {
            printf(",\"error\":");
            ls_json_string(stdout, rows[i].error);
            printf("}");
        }
    }
    printf("],\"not_available\":");
    ls_json_string(stdout, skipped);
    printf("}\n");
}

static void check_print_table(const ls_workload *w, const void *params, const check_row *rows, int n, int ref,
                              const char *skipped)
{
    printf("%-10s %-40s %-16s %-12s %10s\n", "device", "name", "digest", "result", "seconds");
    for (int i = 0; i < n; i++) {
        if (rows[i].ok)
            printf("%-10s %-40.40s %-16s %-12s %10.4f%s\n", rows[i].label, rows[i].name, rows[i].run.digest,
                   rows[i].run.summary, rows[i].run.seconds,
                   i != ref && strcmp(rows[i].run.digest, rows[ref].run.digest) ? "  DIFFERS" : "");
        else
            printf("%-10s %-40.40s error: %s\n", rows[i].label, rows[i].name, rows[i].error);
    }
    if (skipped[0])
        printf("not available: %s\n", skipped);
    for (int i = 0; i < n; i++)
        if (rows[i].ok && i != ref && strcmp(rows[i].run.digest, rows[ref].run.digest) != 0) {
            printf("%s differs from %s:\n", rows[i].label, rows[ref].label);
            w->diff(params, &rows[ref].run, rows[ref].label, &rows[i].run, rows[i].label, stdout);
        }
}

/* Runs w with params on every device in devs and compares the digests
 * with the first device's. Returns 0 when all ran and agree. */
static int check_workload(const ls_workload *w, const void *params, const dev_ref *devs, int ndev,
                          const char *skipped, const ls_common *c)
{
    check_row *rows = calloc((size_t)ndev, sizeof *rows);
    if (!rows) {
        fprintf(stderr, "lockstep: out of memory\n");
        return 1;
    }
    int failures = 0, compared = 0, agree = 1, ref = -1;
    for (int i = 0; i < ndev && !ls_progress_interrupted(); i++) {
        ls_session s;
        ls_error e = {{0}, 0};
        snprintf(rows[i].label, sizeof rows[i].label, "%s:%d", devs[i].backend->name, devs[i].index);
        if (open_ref(devs[i], &s, &e) != 0) {
            snprintf(rows[i].error, sizeof rows[i].error, "%s", e.msg);
            failures++;
            continue;
        }
        snprintf(rows[i].name, sizeof rows[i].name, "%s", s.info.name);
        char label[240];
        snprintf(label, sizeof label, "check %s on %s", w->name, rows[i].label);
        ls_progress_bar bar;
        ls_progress prog = ls_progress_start(&bar, label, w->unit, c->quiet);
        if (w->run(&s, params, &rows[i].run, &prog, &e) != 0) {
            snprintf(rows[i].error, sizeof rows[i].error, "%s", e.msg);
            failures++;
        } else if (rows[i].run.interrupted) {
            snprintf(rows[i].error, sizeof rows[i].error, "interrupted");
            w->run_free(&rows[i].run);
            failures++;
        } else {
            rows[i].ok = 1;
            if (ref < 0)
                ref = i;
            else if (strcmp(rows[i].run.digest, rows[ref].run.digest) != 0)
                agree = 0;
            compared++;
        }
        ls_progress_finish(&bar);
        ls_session_close(&s);
    }
    if (c->json) {
        check_print_json(w, rows, ndev, ref < 0 ? 0 : ref, agree && !failures, skipped);
    } else {
        printf("== check %s\n", w->name);
        check_print_table(w, params, rows, ndev, ref, skipped);
        if (!agree)
            printf("DISAGREEMENT: the backends computed different results\n");
        else if (!failures)
            printf("%d device%s agree%s\n", compared, compared == 1 ? "" : "s",
                   compared == 1 ? " (only one ran: nothing to compare)" : "");
    }
    for (int i = 0; i < ndev; i++)
        if (rows[i].ok)
            w->run_free(&rows[i].run);
    free(rows);
    return agree && !failures ? 0 : 1;
}

int ls_cmd_check(int argc, char **argv)
{
    ls_error err = {{0}, 0};
    if (argc < 3 || strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) {
        printf("usage: lockstep check WORKLOAD|all [workload options] [--backends LIST] [--json] [--quiet]\n\n"
               "Runs WORKLOAD with the same inputs on every available backend and device (or those\n"
               "in LIST, e.g. openmp,opencl:1) and compares the full results; `all` runs every\n"
               "workload at a small size. Exits 1 with the differences when any two disagree.\n"
               "Workloads:");
        for (int i = 0; ls_workloads[i]; i++)
            printf(" %s", ls_workloads[i]->name);
        printf("\n`lockstep check WORKLOAD --help` lists the workload's options.\n");
        return argc < 3 ? 2 : 0;
    }
    int all = strcmp(argv[2], "all") == 0;
    const ls_workload *w = all ? NULL : ls_workload_find(argv[2]);
    if (!all && !w) {
        ls_fail_usage(&err, "check: unknown workload '%s' (see lockstep check --help)", argv[2]);
        return ls_report(&err);
    }
    ls_common c = {0};
    const char *list = NULL;
    ls_opt extra[] = {
        {"backends", LS_OPT_STRING, &list, 0, 0, "LIST", "comma-separated backends or devices; default all"},
        LS_OPT_JSON(&c), LS_OPT_QUIET(&c)};
    const int nextra = (int)(sizeof extra / sizeof extra[0]);
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
        rc = parse_params(w, params, argc, argv, 3, extra, nextra, usage, summary, &err);
    }
    if (rc != 0) {
        free(params);
        return rc == 1 ? 0 : ls_report(&err);
    }
    dev_ref devs[LS_MAX_DEVICES * 3];
    char skipped[1024];
    int ndev = collect_devices(list, devs, LS_MAX_DEVICES * 3, skipped, sizeof skipped, &err);
    if (ndev <= 0) {
        free(params);
        if (ndev == 0)
            ls_fail(&err, "check: no backend available (%s)", skipped);
        return ls_report(&err);
    }
    ls_progress_catch_sigint();
    int failed = 0;
    if (all) {
        for (int i = 0; ls_workloads[i] && !ls_progress_interrupted(); i++) {
            const ls_workload *wi = ls_workloads[i];
            void *p = calloc(1, wi->params_size);
            if (!p)
                return fprintf(stderr, "lockstep: out of memory\n"), 1;
            wi->params_default(p);
            wi->params_quick(p);
            failed |= check_workload(wi, p, devs, ndev, skipped, &c);
            free(p);
        }
    } else {
        failed = check_workload(w, params, devs, ndev, skipped, &c);
    }
    free(params);
    return failed ? 1 : 0;
}

/* ---- lockstep conformance ----------------------------------------------- */

int ls_cmd_conformance(int argc, char **argv)
{
    ls_error err = {{0}, 0};
    ls_common c = {0};
    const char *only = NULL;
    int skip_unavailable = 0;
    ls_opt opts[] = {
        LS_OPT_BACKEND(&c),
        {"workload", LS_OPT_STRING, &only, 0, 0, "NAME", "only this workload's cases"},
        {"skip-unavailable", LS_OPT_FLAG, &skip_unavailable, 0, 0, NULL,
         "exit 77 (test harnesses' 'skipped') when the backend is not available here"},
        LS_OPT_JSON(&c),
    };
    int n = (int)(sizeof opts / sizeof opts[0]);
    int rc = ls_opts_parse(argc, argv, 2, opts, n, NULL, NULL, 0, &err);
    if (rc == 1) {
        ls_opts_help(stdout, "lockstep conformance [options]",
                     "Runs every workload's fixed cases on the chosen backend (default: every device of\n"
                     "every backend) and compares each answer with a golden value computed by an\n"
                     "independent reference implementation. A pass means this device computes\n"
                     "these workloads exactly as the reference does.",
                     opts, n);
        return 0;
    }
    if (rc != 0)
        return ls_report(&err);
    if (only && !ls_workload_find(only)) {
        ls_fail_usage(&err, "--workload: unknown workload '%s'", only);
        return ls_report(&err);
    }
    dev_ref devs[LS_MAX_DEVICES * 3];
    char skipped[1024];
    int ndev = collect_devices(c.backend, devs, LS_MAX_DEVICES * 3, skipped, sizeof skipped, &err);
    if (ndev < 0)
        return ls_report(&err);
    if (ndev == 0) {
        fprintf(stderr, "lockstep: conformance: not available here: %s\n", skipped);
        return skip_unavailable ? 77 : 1;
    }
    int pass = 0, fail = 0;
    if (c.json)
        printf("{\"cases\":[");
    else
        printf("%-10s %-44s %-6s %s\n", "device", "case", "result", "detail");
    for (int d = 0; d < ndev; d++) {
        ls_session s;
        ls_error e = {{0}, 0};
        char label[64];
        snprintf(label, sizeof label, "%s:%d", devs[d].backend->name, devs[d].index);
        int opened = open_ref(devs[d], &s, &e) == 0;
        for (int wi = 0; ls_workloads[wi]; wi++) {
            const ls_workload *w = ls_workloads[wi];
            if (only && strcmp(only, w->name) != 0)
                continue;
            for (int k = 0; k < w->ncases; k++) {
                char detail[640] = "";
                int r = -1;
                if (opened)
                    r = w->cases[k].run(&s, detail, sizeof detail, &e);
                if (r < 0)
                    snprintf(detail, sizeof detail, "error: %s", e.msg);
                r == 1 ? pass++ : fail++;
                if (c.json) {
                    printf("%s{\"device\":\"%s\",\"case\":", pass + fail > 1 ? "," : "", label);
                    ls_json_string(stdout, w->cases[k].name);
                    printf(",\"pass\":%s,\"detail\":", r == 1 ? "true" : "false");
                    ls_json_string(stdout, detail);
                    printf("}");
                } else {
                    printf("%-10s %-44s %-6s %s\n", label, w->cases[k].name, r == 1 ? "pass" : "FAIL", detail);
                }
                fflush(stdout);
            }
        }
        if (opened)
            ls_session_close(&s);
    }
    if (c.json) {
        printf("],\"passed\":%d,\"failed\":%d,\"not_available\":", pass, fail);
        ls_json_string(stdout, skipped);
        printf("}\n");
    } else {
        if (skipped[0])
            printf("not available: %s\n", skipped);
        printf("conformance: %d passed, %d failed\n", pass, fail);
    }
    return fail ? 1 : 0;
}

/* ---- lockstep bench ------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int ls_cmd_bench(int argc, char **argv)
{
    ls_error err = {{0}, 0};
    if (argc < 3 || strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) {
        printf("usage: lockstep bench WORKLOAD [workload options] [--backend B] [--repeat R] [--warmup W] [--json]\n\n"
               "Times WORKLOAD: W untimed warm-up runs, then R timed runs; reports the median, the\n"
               "fastest and the slowest (device time: events on GPUs). Every run's digest must match.\n");
        return argc < 3 ? 2 : 0;
    }
    const ls_workload *w = ls_workload_find(argv[2]);
    if (!w) {
        ls_fail_usage(&err, "bench: unknown workload '%s'", argv[2]);
        return ls_report(&err);
    }
    ls_common c = {0};
    uint64_t repeat = 5, warmup = 1;
    ls_opt extra[] = {
        LS_OPT_BACKEND(&c),
        {"repeat", LS_OPT_COUNT, &repeat, 1, 1000, "R", "timed runs"},
        {"warmup", LS_OPT_COUNT, &warmup, 0, 100, "W", "untimed runs first"},
        LS_OPT_JSON(&c),
    };
    char usage[128];
    snprintf(usage, sizeof usage, "lockstep bench %s [options]", w->name);
    void *params = calloc(1, w->params_size);
    double *times = calloc((size_t)1000, sizeof *times);
    if (!params || !times)
        return fprintf(stderr, "lockstep: out of memory\n"), 1;
    int rc = parse_params(w, params, argc, argv, 3, extra, 4, usage, "Times a workload.", &err);
    if (rc != 0) {
        free(params);
        free(times);
        return rc == 1 ? 0 : ls_report(&err);
    }
    ls_session s;
    if (ls_session_open(c.backend, &s, &err) != 0) {
        free(params);
        free(times);
        return ls_report(&err);
    }
    char digest[17] = "", summary[200] = "";
    uint64_t items = 0;
    int failed = 0;
    for (uint64_t i = 0; i < warmup + repeat && !failed; i++) {
        ls_run run;
        if (w->run(&s, params, &run, NULL, &err) != 0) {
            failed = 1;
            break;
        }
        if (i == 0) {
            memcpy(digest, run.digest, sizeof digest);
            memcpy(summary, run.summary, sizeof summary);
        } else if (strcmp(digest, run.digest) != 0) {
            ls_fail(&err, "bench: run %llu gave digest %s, run 1 gave %s: the device is not deterministic",
                    (unsigned long long)i + 1, run.digest, digest);
            failed = 1;
        }
        if (i >= warmup)
            times[i - warmup] = run.seconds;
        items = run.items;
        w->run_free(&run);
    }
    if (!failed) {
        qsort(times, repeat, sizeof *times, cmp_double);
        double median = repeat % 2 ? times[repeat / 2] : 0.5 * (times[repeat / 2 - 1] + times[repeat / 2]);
        char label[64];
        device_label(&s, label, sizeof label);
        if (c.json) {
            printf("{\"workload\":\"%s\",\"device\":\"%s\",\"name\":", w->name, label);
            ls_json_string(stdout, s.info.name);
            printf(",\"items\":%" PRIu64 ",\"repeat\":%" PRIu64 ",\"median_s\":%.6g,\"min_s\":%.6g,\"max_s\":%.6g,"
                   "\"items_per_s\":%.6g,\"digest\":\"%s\"}\n",
                   items, repeat, median, times[0], times[repeat - 1], (double)items / median, digest);
        } else {
            printf("%s on %s (%s): %" PRIu64 " %s, %s\n", w->name, label, s.info.name, items, w->unit, summary);
            printf("median %.6f s  min %.6f s  max %.6f s  (%" PRIu64 " runs after %" PRIu64 " warm-up)\n", median,
                   times[0], times[repeat - 1], repeat, warmup);
            printf("rate %.4g %s/s (median), digest %s\n", (double)items / median, w->unit, digest);
        }
    }
    ls_session_close(&s);
    free(params);
    free(times);
    return failed ? ls_report(&err) : 0;
}

/* ---- lockstep devices ---------------------------------------------------- */

int ls_cmd_devices(int argc, char **argv)
{
    ls_error err = {{0}, 0};
    int json = 0;
    ls_opt opts[] = {{"json", LS_OPT_FLAG, &json, 0, 0, NULL, "print one JSON object"}};
    int rc = ls_opts_parse(argc, argv, 2, opts, 1, NULL, NULL, 0, &err);
    if (rc == 1) {
        ls_opts_help(stdout, "lockstep devices [--json]",
                     "Lists every compiled backend and its devices, or why it cannot run here.", opts, 1);
        return 0;
    }
    if (rc != 0)
        return ls_report(&err);
    if (json)
        printf("{\"default\":\"%s\",\"backends\":[", ls_default_backend_spec());
    else
        printf("default backend: %s\n", ls_default_backend_spec());
    for (int i = 0; ls_backends[i]; i++) {
        const ls_backend *b = ls_backends[i];
        ls_device_info devs[LS_MAX_DEVICES];
        ls_error why = {{0}, 0};
        int n = b->list_devices(devs, LS_MAX_DEVICES, &why);
        if (json) {
            printf("%s{\"backend\":\"%s\",\"available\":%s,", i ? "," : "", b->name, n > 0 ? "true" : "false");
            if (n <= 0) {
                printf("\"why\":");
                ls_json_string(stdout, why.msg);
                printf(",");
            }
            printf("\"devices\":[");
            for (int d = 0; d < n; d++) {
                printf("%s{\"index\":%d,\"name\":", d ? "," : "", d);
                ls_json_string(stdout, devs[d].name);
                printf(",\"platform\":");
                ls_json_string(stdout, devs[d].platform);
                printf(",\"compute_units\":%d,\"memory_bytes\":%" PRIu64 ",\"gpu\":%s}", devs[d].compute_units,
                       devs[d].memory_bytes, devs[d].is_gpu ? "true" : "false");
            }
            printf("]}");
            continue;
        }
        if (n <= 0) {
            printf("%-8s unavailable: %s\n", b->name, why.msg[0] ? why.msg : "no devices");
            continue;
        }
        for (int d = 0; d < n; d++)
            printf("%-8s %s:%d  %s [%s], %d compute units, %.1f GiB%s\n", d ? "" : b->name, b->name, d,
                   devs[d].name, devs[d].platform, devs[d].compute_units,
                   (double)devs[d].memory_bytes / (1024.0 * 1024.0 * 1024.0), devs[d].is_gpu ? ", GPU" : "");
    }
    if (json)
        printf("]}\n");
    return 0;
}
