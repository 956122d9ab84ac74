/* conformance.c - `lockstep conformance`: every workload's golden-answer
 * cases (and the exact floating-point rule) on each device, as a table,
 * one JSON document, or a JUnit XML file that CI systems read. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "devlist.h"
#include "output.h"
#include "progress.h"
#include "program_cache.h"
#include "version.h"

/* The rule every backend must keep for floats (src/kernels/dialect.h), as
 * a conformance case of its own: it belongs to no workload. */
extern const ls_case ls_exact_float_case;

/* At most this many cases are selected: far more than the workloads have. */
#define MAX_CASES 256

/* A case's result beside 1 (pass), 0 (wrong answer) and -1 (could not
 * run): a device of the set cannot do what the case needs (ls_case's
 * needs, caps.h) and rightly refuses it, or its backend is not available
 * here; the detail says why. */
#define CASE_NOT_SUPPORTED 2

/* What one case did on one device. */
typedef struct case_result {
    char device[160];      /* the spec, "opencl:0" */
    char device_name[160]; /* "" when the device could not be opened */
    const char *name;
    /* 1 pass, 0 wrong answer, -1 could not run (both failures), or
     * CASE_NOT_SUPPORTED (detail says why) */
    int result;
    char detail[672]; /* room for a missing entry's spec and reason, whole */
    double seconds;
} case_result;

typedef struct case_log {
    case_result *r;
    int n, cap;
    int pass, fail, errors, not_supported;
} case_log;

/* A case's outcome as the table and the JSON name it. */
static const char *outcome_name(int result)
{
    return result == 1 ? "pass" : result == CASE_NOT_SUPPORTED ? "not supported" : "fail";
}

/* Room for one more result in the log: the new entry, zeroed, or NULL. */
static case_result *log_add(case_log *log)
{
    if (log->n == log->cap) {
        int cap = log->cap ? 2 * log->cap : 64;
        case_result *r = realloc(log->r, (size_t)cap * sizeof *r);
        if (!r)
            return NULL;
        log->r = r;
        log->cap = cap;
    }
    case_result *c = &log->r[log->n++];
    memset(c, 0, sizeof *c);
    return c;
}

/* Counts a case's outcome. */
static void log_count(case_log *log, int result)
{
    log->pass += result == 1;
    log->not_supported += result == CASE_NOT_SUPPORTED;
    log->fail += result == 0 || result < 0;
    log->errors += result < 0;
}

/* --case PATTERN: a glob (fnmatch, when it has * ? or [) or else a
 * substring of the case's name, either ignoring case. */
static int case_matches(const char *pattern, const char *name)
{
    if (!pattern)
        return 1;
    if (strpbrk(pattern, "*?["))
        return fnmatch(pattern, name, FNM_CASEFOLD) == 0;
    return strcasestr(name, pattern) != NULL;
}

/* The cases that --workload and --case select, in the order they run: the
 * float rule first, then each workload's. Returns how many. */
static int select_cases(const char *only, const char *pattern, const ls_case **out)
{
    int n = 0, float_only = only && strcmp(only, "float") == 0;
    if ((!only || float_only) && case_matches(pattern, ls_exact_float_case.name))
        out[n++] = &ls_exact_float_case;
    for (int wi = 0; ls_workloads[wi] && !float_only; wi++) {
        const ls_workload *w = ls_workloads[wi];
        if (only && strcmp(only, w->name) != 0)
            continue;
        for (int k = 0; k < w->ncases && n < MAX_CASES; k++)
            if (case_matches(pattern, w->cases[k].name))
                out[n++] = &w->cases[k];
    }
    return n;
}

int ls_cmd_conformance_cases(const ls_case **out, int max)
{
    const ls_case *all[MAX_CASES];
    int n = select_cases(NULL, NULL, all);
    n = n < max ? n : max;
    memcpy(out, all, (size_t)n * sizeof *out);
    return n;
}

/* LOCKSTEP_DEBUG_FAULT=BACKEND:conformance (for the tests, like the
 * result faults of workloads.c) turns every passing case on BACKEND into a
 * failure, so that the way a failure is reported (the table, JSON, JUnit,
 * the exit code) can be seen without a broken device. A set with a
 * device on BACKEND fails with it. */
static int debug_fault(const ls_set *set)
{
    const char *spec = getenv("LOCKSTEP_DEBUG_FAULT");
    const char *colon = spec ? strchr(spec, ':') : NULL;
    size_t n = colon ? (size_t)(colon - spec) : 0;
    if (!colon || strcmp(colon + 1, "conformance") != 0)
        return 0;
    for (int d = 0; d < set->ndevices; d++) {
        const char *name = set->dev[d].backend->name;
        if (strlen(name) == n && strncmp(spec, name, n) == 0)
            return 1;
    }
    return 0;
}

/* The widths of the table's columns, each its widest cell's, known before
 * the first row is printed: every device's spec, every selected case's
 * name, the longest outcome. */
typedef struct table_widths {
    int device, name, result;
} table_widths;

static void table_widths_of(const ls_dev_ref *devs, int ndev, const ls_dev_missing *missing, int nmissing,
                            const ls_case *const *cases, int ncases, table_widths *w)
{
    *w = (table_widths){(int)strlen("device"), (int)strlen("case"), (int)strlen("not supported")};
    for (int d = 0; d < ndev; d++) {
        char label[160];
        ls_dev_label(&devs[d], label, sizeof label);
        w->device = ls_cmd_wider(w->device, label);
    }
    for (int m = 0; m < nmissing; m++)
        w->device = ls_cmd_wider(w->device, missing[m].spec);
    for (int k = 0; k < ncases; k++)
        w->name = ls_cmd_wider(w->name, cases[k]->name);
    if (nmissing) {
        char every[64];
        snprintf(every, sizeof every, "(%d case%s)", ncases, ncases == 1 ? "" : "s");
        w->name = ls_cmd_wider(w->name, every);
    }
}

/* Runs one case on an opened device or set (or records why it could not
 * be opened) and prints its row in the table w (NULL: none, for --json). */
static int run_case(case_log *log, ls_set *s, int opened, const char *label, const ls_case *k,
                    const ls_error *open_err, const table_widths *w)
{
    case_result *c = log_add(log);
    if (!c)
        return -1;
    snprintf(c->device, sizeof c->device, "%s", label);
    if (opened)
        ls_dev_name(s, c->device_name, sizeof c->device_name);
    c->name = k->name;
    ls_error e = *open_err;
    double start = ls_now();
    if (opened && !ls_set_supports(s, k->needs, c->detail, sizeof c->detail))
        c->result = CASE_NOT_SUPPORTED;
    else
        c->result = opened ? k->run(s, k->arg, c->detail, sizeof c->detail, &e) : -1;
    c->seconds = ls_now() - start;
    if (c->result <= 0 && ls_progress_interrupted()) {
        /* Not the device's failure: the stop's, whose signal broke what
         * was under way (PoCL's program build). The case did not run to
         * its end, and the tally says that not every case ran. */
        if (w)
            printf("%-*s %-*s %-*s %s\n", w->device, label, w->name, k->name, w->result, "interrupted",
                   c->result < 0 ? e.msg : "");
        log->n--;
        return 0;
    }
    if (c->result < 0)
        snprintf(c->detail, sizeof c->detail, "error: %s", e.msg);
    if (c->result == 1 && debug_fault(s)) {
        char answer[sizeof c->detail];
        snprintf(answer, sizeof answer, "%s", c->detail);
        /* "<&>" shows that the JUnit file escapes what a detail holds. */
        snprintf(c->detail, sizeof c->detail, "failed on purpose by LOCKSTEP_DEBUG_FAULT (\"<&>\"); the answer: %.500s",
                 answer);
        c->result = 0;
    }
    log_count(log, c->result);
    if (w) {
        const char *shown = c->result == 0 || c->result < 0 ? "FAIL" : outcome_name(c->result);
        printf("%-*s %-*s %-*s %s\n", w->device, label, w->name, k->name, w->result, shown, c->detail);
        fflush(stdout);
    }
    return 0;
}

/* A backend that is not available here: every selected case is not
 * supported on it, with the backend's reason (one row of the table says
 * so for all of them). */
static int add_missing(case_log *log, const ls_dev_missing *m, const ls_case *const *cases, int ncases,
                       const table_widths *w)
{
    for (int k = 0; k < ncases; k++) {
        case_result *c = log_add(log);
        if (!c)
            return -1;
        /* The lengths are ls_dev_missing's: both fit. */
        snprintf(c->device, sizeof c->device, "%.127s", m->spec);
        c->name = cases[k]->name;
        c->result = CASE_NOT_SUPPORTED;
        snprintf(c->detail, sizeof c->detail, "%.127s is not available here: %.511s", m->spec, m->why);
        log_count(log, c->result);
    }
    if (w) {
        char every[64];
        snprintf(every, sizeof every, "(%d case%s)", ncases, ncases == 1 ? "" : "s");
        printf("%-*s %-*s %-*s %s is not available here: %s\n", w->device, m->spec, w->name, every, w->result,
               "not supported", m->spec, m->why);
        fflush(stdout);
    }
    return 0;
}

/* ---- JUnit XML ----------------------------------------------------------- */

/* Text as XML character data or an attribute value: the five special
 * characters escaped, control characters (not allowed in XML 1.0) as '?'. */
static void xml_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '&')
            fputs("&amp;", out);
        else if (c == '<')
            fputs("&lt;", out);
        else if (c == '>')
            fputs("&gt;", out);
        else if (c == '"')
            fputs("&quot;", out);
        else if (c == '\'')
            fputs("&apos;", out);
        else if (c < 0x20 && c != '\t' && c != '\n')
            fputc('?', out);
        else
            fputc(c, out);
    }
}

static void xml_property(FILE *out, const char *name, const char *value)
{
    fprintf(out, "      <property name=\"%s\" value=\"", name);
    xml_text(out, value);
    fputs("\"/>\n", out);
}

/* One <testsuite> per device: results r[0..n) are that device's. */
static void junit_suite(FILE *out, const case_result *r, int n)
{
    int failures = 0, errors = 0, skipped = 0;
    double seconds = 0;
    for (int i = 0; i < n; i++) {
        failures += r[i].result == 0;
        errors += r[i].result < 0;
        skipped += r[i].result == CASE_NOT_SUPPORTED;
        seconds += r[i].seconds;
    }
    fputs("  <testsuite name=\"", out);
    xml_text(out, r[0].device);
    fprintf(out, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\">\n", n, failures,
            errors, skipped, seconds);
    fputs("    <properties>\n", out);
    xml_property(out, "device", r[0].device);
    xml_property(out, "device_name", r[0].device_name);
    xml_property(out, "lockstep_version", ls_version);
    xml_property(out, "lockstep_commit", ls_commit);
    fputs("    </properties>\n", out);
    for (int i = 0; i < n; i++) {
        fputs("    <testcase classname=\"", out);
        xml_text(out, r[i].device);
        fputs("\" name=\"", out);
        xml_text(out, r[i].name);
        fprintf(out, "\" time=\"%.3f\">", r[i].seconds);
        /* Not supported: JUnit's <skipped>, its reason the message. */
        const char *tag = r[i].result == 0                    ? "failure"
                          : r[i].result < 0                   ? "error"
                          : r[i].result == CASE_NOT_SUPPORTED ? "skipped"
                                                              : "system-out";
        if (r[i].result == 1) {
            fprintf(out, "<%s>", tag);
        } else {
            fprintf(out, "\n      <%s message=\"", tag);
            xml_text(out, r[i].detail);
            fputs("\">", out);
        }
        xml_text(out, r[i].detail);
        fprintf(out, "</%s>%s</testcase>\n", tag, r[i].result == 1 ? "" : "\n    ");
    }
    fputs("  </testsuite>\n", out);
}

/* Writes the JUnit document to path, whole or not at all. */
static int write_junit(const char *path, const case_log *log, ls_error *err)
{
    ls_atomic_file a;
    if (ls_atomic_open(&a, path, err) != 0)
        return -1;
    double seconds = 0;
    for (int i = 0; i < log->n; i++)
        seconds += log->r[i].seconds;
    fprintf(a.f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(a.f,
            "<testsuites name=\"lockstep conformance\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" "
            "time=\"%.3f\">\n",
            log->n, log->fail - log->errors, log->errors, log->not_supported, seconds);
    for (int i = 0; i < log->n;) {
        int j = i;
        while (j < log->n && strcmp(log->r[j].device, log->r[i].device) == 0)
            j++;
        junit_suite(a.f, log->r + i, j - i);
        i = j;
    }
    fprintf(a.f, "</testsuites>\n");
    return ls_atomic_commit(&a, err);
}

/* ---- JSON and --list ----------------------------------------------------- */

static void json_string_or_null(FILE *out, const char *s)
{
    if (s)
        ls_json_string(out, s);
    else
        fputs("null", out);
}

/* The inputs of a conformance document: the options that chose the devices
 * and the cases. */
static void conformance_params_json(FILE *out, const char *backend, const char *only, const char *pattern)
{
    fputs("\"params\":{\"backend\":", out);
    json_string_or_null(out, backend);
    fputs(",\"workload\":", out);
    json_string_or_null(out, only);
    fputs(",\"case\":", out);
    json_string_or_null(out, pattern);
    fputc('}', out);
}

static int print_json(const case_log *log, const char *backend, const char *only, const char *pattern, int stopped,
                      const char *skipped, ls_error *err)
{
    ls_buffer b;
    if (ls_buffer_open(&b, err) != 0)
        return -1;
    fputc('{', b.f);
    ls_json_provenance(b.f);
    fputc(',', b.f);
    conformance_params_json(b.f, backend, only, pattern);
    fputs(",\"cases\":[", b.f);
    for (int i = 0; i < log->n; i++) {
        const case_result *c = &log->r[i];
        fprintf(b.f, "%s{\"device\":", i ? "," : "");
        ls_json_string(b.f, c->device);
        fputs(",\"device_name\":", b.f);
        json_string_or_null(b.f, c->device_name[0] ? c->device_name : NULL);
        fputs(",\"case\":", b.f);
        ls_json_string(b.f, c->name);
        fprintf(b.f, ",\"outcome\":\"%s\",\"pass\":%s,\"error\":%s,\"seconds\":%.6f,\"detail\":",
                outcome_name(c->result), c->result == 1 ? "true" : "false", c->result < 0 ? "true" : "false",
                c->seconds);
        ls_json_string(b.f, c->detail);
        fputc('}', b.f);
    }
    fprintf(b.f, "],\"passed\":%d,\"failed\":%d,\"not_supported\":%d,\"interrupted\":%s,\"not_available\":",
            log->pass, log->fail, log->not_supported, stopped ? "true" : "false");
    ls_json_string(b.f, skipped);
    fputs("}\n", b.f);
    return ls_buffer_emit(&b, stdout, "standard output", err);
}

/* --list: the names of the selected cases, one a line (or as JSON). */
static int list_cases(const ls_case *const *cases, int n, int json, ls_error *err)
{
    ls_buffer b;
    if (ls_buffer_open(&b, err) != 0)
        return -1;
    if (json) {
        fputc('{', b.f);
        ls_json_provenance(b.f);
        fputs(",\"cases\":[", b.f);
    }
    for (int i = 0; i < n; i++) {
        if (json) {
            fputs(i ? "," : "", b.f);
            ls_json_string(b.f, cases[i]->name);
        } else {
            fprintf(b.f, "%s\n", cases[i]->name);
        }
    }
    if (json)
        fputs("]}\n", b.f);
    return ls_buffer_emit(&b, stdout, "standard output", err);
}

/* ---- lockstep conformance ------------------------------------------------ */

int ls_cmd_conformance(int argc, char **argv)
{
    ls_error err = {{0}, 0};
    ls_common c = {0};
    const char *only = NULL, *pattern = NULL, *junit = NULL;
    int skip_unavailable = 0, list = 0;
    ls_opt opts[] = {
        LS_OPT_DEVICES(&c.backend, "$LOCKSTEP_BACKEND when set, else every device of every backend"),
        {"workload", LS_OPT_STRING, &only, 0, 0, "NAME", "only this workload's cases (or 'float': the float rule)",
         NULL, NULL},
        {"case", LS_OPT_STRING, &pattern, 0, 0, "PATTERN",
         "only the cases whose name contains PATTERN, or matches it as a glob (*, ?, [...]); ignores case", NULL, NULL},
        {"list", LS_OPT_FLAG, &list, 0, 0, NULL, "list the cases (as selected) instead of running them", NULL, NULL},
        {"junit", LS_OPT_STRING, &junit, 0, 0, "FILE",
         "also write the results as JUnit XML to FILE (one testsuite per device), whole or not at all", NULL, NULL},
        {"skip-unavailable", LS_OPT_FLAG, &skip_unavailable, 0, 0, NULL,
         "exit 77 (test harnesses' 'skipped') when the backend is not available here", NULL, NULL},
        LS_OPT_JSON(&c),
        LS_OPT_QUIET(&c), /* which every command takes: conformance shows no progress */
        LS_OPT_NO_CACHE(&c),
    };
    int n = (int)(sizeof opts / sizeof opts[0]);
    int rc = ls_opts_parse(argc, argv, 2, opts, n, NULL, NULL, 0, &err);
    if (rc == 1) {
        ls_opts_help(stdout, "lockstep conformance [options]",
                     "Runs every workload's fixed cases on each device --backend names (without it, those\n"
                     "$LOCKSTEP_BACKEND names when it is set, else every device of every backend) and\n"
                     "compares each answer with a golden value computed by an independent reference\n"
                     "implementation, after a check of the exact floating-point rule. A pass means this\n"
                     "device computes these workloads exactly as the reference.\n"
                     "A set in --backend (cuda:all, openmp+opencl:0) runs each workload's cases as one run\n"
                     "over its devices, and the float rule on each of them.\n"
                     "Each case passes, fails, or is not supported: the device rightly refuses it (the\n"
                     "exact rule needs correctly rounded divide and sqrt), or its backend is not\n"
                     "available here; the reason is given (JUnit: <skipped>). Only a failure exits 1.",
                     opts, n);
        return 0;
    }
    if (rc != 0)
        return ls_report(&err);
    ls_program_cache_bypass(c.no_cache ? "--no-cache" : NULL);
    if (only && strcmp(only, "float") != 0 && !ls_workload_find(only)) {
        ls_cmd_unknown_workload("--workload", only, "float", NULL, &err);
        return ls_report(&err);
    }
    const ls_case *cases[MAX_CASES];
    int ncases = select_cases(only, pattern, cases);
    if (ncases == 0) {
        ls_fail_usage(&err, "--case: no case%s matches '%s' (lockstep conformance --list shows them)",
                      only ? " of that workload" : "", pattern);
        return ls_report(&err);
    }
    if (list)
        return list_cases(cases, ncases, c.json, &err) == 0 ? 0 : ls_report(&err);
    if (junit && ls_output_check(junit, &err) != 0)
        return ls_report(&err);
    ls_dev_ref devs[LS_MAX_DEVICES * 3];
    ls_dev_missing missing[LS_MAX_DEVICES * 3]; /* as many as there can be entries */
    char skipped[1024];
    int nmissing = 0;
    /* Without --backend, $LOCKSTEP_BACKEND chooses, as it does for every
     * other command (and a bad one is blamed on it). */
    const char *env = getenv("LOCKSTEP_BACKEND");
    int from_env = !c.backend && env && *env;
    const char *spec = from_env ? env : c.backend;
    int ndev = ls_collect_devices_missing(from_env ? "LOCKSTEP_BACKEND" : "--backend", spec, devs,
                                          LS_MAX_DEVICES * 3, skipped, sizeof skipped, missing, LS_MAX_DEVICES * 3,
                                          &nmissing, &err);
    if (ndev < 0)
        return ls_report(&err);
    case_log log = {0};
    /* Nothing can run here: the report says so (every case not supported
     * where its backend is not available), and the exit status is what it
     * has always been: 77 with --skip-unavailable, else 1. */
    if (ndev == 0)
        fprintf(stderr, "lockstep: conformance: not available here: %s\n", skipped);
    ls_progress_catch_sigint(); /* a signal stops between cases; the tally is printed */
    table_widths widths, *table = c.json ? NULL : &widths;
    table_widths_of(devs, ndev, missing, nmissing, cases, ncases, &widths);
    if (table)
        printf("%-*s %-*s %-*s %s\n", widths.device, "device", widths.name, "case", widths.result, "result", "detail");
    int failed_alloc = 0;
    for (int d = 0; d < ndev && !ls_progress_interrupted() && !failed_alloc; d++) {
        ls_set s;
        ls_error e = {{0}, 0};
        char label[160];
        ls_dev_label(&devs[d], label, sizeof label);
        int opened = ls_dev_open(devs[d], &s, &e) == 0;
        for (int k = 0; k < ncases && !ls_progress_interrupted() && !failed_alloc; k++)
            failed_alloc = run_case(&log, &s, opened, label, cases[k], &e, table) != 0;
        if (opened)
            ls_set_close(&s);
    }
    for (int m = 0; m < nmissing && !ls_progress_interrupted() && !failed_alloc; m++)
        failed_alloc = add_missing(&log, &missing[m], cases, ncases, table) != 0;
    if (failed_alloc) {
        free(log.r);
        fprintf(stderr, "lockstep: out of memory for the conformance results\n");
        return 1;
    }
    int stopped = ls_progress_interrupted();
    /* A run a signal cut short writes no file: the old one stays. */
    ls_error junit_err = {{0}, 0};
    int junit_rc = junit && !stopped ? write_junit(junit, &log, &junit_err) : 0;
    rc = 0;
    if (c.json) {
        rc = print_json(&log, spec, only, pattern, stopped, skipped, &err);
    } else {
        if (skipped[0])
            printf("not available: %s\n", skipped);
        if (junit && !stopped && junit_rc == 0)
            printf("JUnit XML written to %s\n", junit);
        printf("conformance: %d passed, %d failed, %d not supported%s\n", log.pass, log.fail, log.not_supported,
               stopped ? " (interrupted: not every case ran)" : "");
    }
    if (rc == 0 && junit_rc != 0) {
        err = junit_err;
        rc = -1;
    }
    int failures = log.fail;
    free(log.r);
    if (rc != 0)
        return ls_report(&err);
    if (ndev == 0)
        return skip_unavailable ? 77 : 1;
    return failures ? 1 : stopped ? ls_exit_interrupted() : 0;
}
