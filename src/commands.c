/* commands.c - the commands that work for every workload: run, check,
 * conformance, bench, devices. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "output.h"
#include "progress.h"
#include "split.h"
#include "workload.h"

#ifndef LS_VERSION
#define LS_VERSION "unknown"
#endif

/* ---- shared pieces ----------------------------------------------------- */

/* Parameters of w with their option table, plus the run command's own
 * options when `run` is set, plus `extra` options of the command itself,
 * plus positional arguments for the run command; returns 0, 1 (help
 * printed) or -1 (err set). */
static int parse_params(const ls_workload *w, void *params, int run, int argc, char **argv, int first,
                        const ls_opt *extra, int nextra, const char *usage, const char *summary, ls_error *err)
{
    ls_opt opts[LS_MAX_OPTS * 2];
    w->params_default(params);
    int n = w->params_options(params, opts, LS_MAX_OPTS);
    if (run && w->run_options)
        n += w->run_options(params, opts + n, LS_MAX_OPTS - n);
    memcpy(opts + n, extra, (size_t)nextra * sizeof *extra);
    n += nextra;
    const char *pos[8];
    int npos = 0, max_pos = run && w->params_positional ? w->max_positional : 0;
    int rc = ls_opts_parse(argc, argv, first, opts, n, pos, &npos, max_pos < 8 ? max_pos : 8, err);
    if (rc == 1) {
        ls_opts_help(stdout, usage, summary, opts, n);
        return 1;
    }
    if (rc != 0)
        return -1;
    if (npos && w->params_positional(params, npos, pos, err) != 0)
        return -1;
    return w->params_validate(params, err);
}

/* FNV-1a over this program's own file: ranks of one job must run the same
 * build (results travel between them as host bytes). 0 when unreadable. */
static uint64_t program_hash(void)
{
    FILE *f = fopen("/proc/self/exe", "rb");
    if (!f)
        return 0;
    uint64_t h = 1469598103934665603ull;
    unsigned char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++)
            h = (h ^ buf[i]) * 1099511628211ull;
    fclose(f);
    return h;
}

/* Everything that defines a run's result, one line each: the build, the
 * command, and every option of the workload and of its run command, as
 * parsed (positional arguments land in the same fields). --backend,
 * --json and --quiet are not in it: ranks may run on different devices. */
static char *problem_text(const ls_workload *w, void *params)
{
    ls_opt opts[LS_MAX_OPTS * 2];
    int n = w->params_options(params, opts, LS_MAX_OPTS);
    if (w->run_options)
        n += w->run_options(params, opts + n, LS_MAX_OPTS - n);
    ls_buffer b;
    ls_error err;
    if (ls_buffer_open(&b, &err) != 0)
        return NULL;
    fprintf(b.f, "lockstep %s, program %016" PRIx64 "\n%s\n", LS_VERSION, program_hash(), w->name);
    for (int i = 0; i < n; i++) {
        const ls_opt *o = &opts[i];
        if (o->kind == LS_OPT_FLAG)
            fprintf(b.f, "--%s %s\n", o->name, *(const int *)o->target ? "given" : "not given");
        else if (o->kind == LS_OPT_STRING)
            fprintf(b.f, "--%s %s\n", o->name, *(const char **)o->target ? *(const char **)o->target : "(none)");
        else
            fprintf(b.f, "--%s %" PRIu64 "\n", o->name, *(const uint64_t *)o->target);
    }
    if (fclose(b.f) != 0) {
        b.f = NULL;
        ls_buffer_discard(&b);
        return NULL;
    }
    return b.data;
}

/* Whether s is more than one device: a group, or the ranks of an MPI job. */
static int spread(const ls_session *s)
{
    return s->ndevices > 1 || ls_cluster_size() > 1;
}

void ls_print_backend(FILE *out, const ls_session *s, const char *unit)
{
    const ls_split_stats *st = s->split;
    if (!spread(s)) {
        fprintf(out, "backend:  %s:%d (%s)\n", s->backend->name, s->index, s->info.name);
        return;
    }
    int n = st ? st->ndevices : s->ndevices;
    fprintf(out, "backend:  %d devices", n);
    if (ls_cluster_size() > 1)
        fprintf(out, " of %d MPI ranks", ls_cluster_size());
    fprintf(out, "%s\n", st ? ", each:" : "");
    for (int i = 0; st && i < st->ndevices; i++) {
        const ls_split_device *d = &st->dev[i];
        fprintf(out, "  %-24s %14" PRIu64 " %s in %8.3f s, %.4g %s/s\n", d->label, d->items, unit, d->seconds,
                d->seconds > 0 ? (double)d->items / d->seconds : 0.0, unit);
    }
}

/* The devices of a spread run and what each did, as JSON members. */
static void print_devices_json(const ls_session *s, FILE *out)
{
    const ls_split_stats *st = s->split;
    fprintf(out, ",\"ranks\":%d,\"wall_seconds\":%.6f,\"devices\":[", ls_cluster_size(),
            st ? st->wall_seconds : 0.0);
    for (int i = 0; st && i < st->ndevices; i++) {
        const ls_split_device *d = &st->dev[i];
        fprintf(out, "%s{\"label\":", i ? "," : "");
        ls_json_string(out, d->label);
        fprintf(out, ",\"rank\":%d,\"gpu\":%s,\"items\":%" PRIu64 ",\"seconds\":%.6f}", d->rank,
                d->is_gpu ? "true" : "false", d->items, d->seconds);
    }
    fputc(']', out);
}

/* The run's JSON document: what ran where, then the result's members. */
static void print_run_json(const ls_workload *w, const void *params, const ls_session *s, const ls_run *run,
                           FILE *out)
{
    if (spread(s)) {
        fprintf(out, "{\"workload\":\"%s\",\"backend\":", w->name);
        ls_json_string(out, s->label);
        print_devices_json(s, out);
    } else {
        fprintf(out, "{\"workload\":\"%s\",\"backend\":\"%s\",\"device_index\":%d,\"device\":", w->name,
                s->backend->name, s->index);
        ls_json_string(out, s->info.name);
        if (s->split)
            fprintf(out, ",\"wall_seconds\":%.6f", s->split->wall_seconds);
    }
    fprintf(out, ",\"interrupted\":%s,\"seconds\":%.6f,\"%s_per_second\":%.6g,\"digest\":\"%s\",",
            run->interrupted ? "true" : "false", run->seconds, w->unit,
            run->seconds > 0 ? (double)run->items / run->seconds : 0.0, run->digest);
    w->result_json(params, run, out);
    fprintf(out, "}\n");
}

/* Refuses a group of devices or an MPI job for a workload that runs on
 * one device. */
static int check_spread(const ls_workload *w, const ls_session *s, ls_error *err)
{
    if (w->scales || !spread(s))
        return 0;
    if (ls_cluster_size() > 1)
        return ls_fail_usage(err, "%s runs in one process; under mpirun only graveler and bmn search spread over "
                                  "ranks", w->name);
    return ls_fail_usage(err, "%s runs on one device; --backend %s names %d (only graveler and bmn search spread "
                              "over several)", w->name, s->label, s->ndevices);
}

/* Writes a whole report to stdout at once, or fails: rendered in memory
 * first (src/output.h), so a script never reads half a JSON document. A
 * run whose output went to stdout reports on stderr instead. */
static int emit(const ls_workload *w, const void *params, const ls_session *s, const ls_run *run, int json,
                ls_error *err)
{
    ls_buffer b;
    if (ls_buffer_open(&b, err) != 0)
        return -1;
    if (json)
        print_run_json(w, params, s, run, b.f);
    else
        w->print(params, s, run, b.f);
    if (w->output_on_stdout && w->output_on_stdout(params))
        return ls_buffer_emit(&b, stderr, "standard error", err);
    return ls_buffer_emit(&b, stdout, "standard output", err);
}

/* ---- lockstep WORKLOAD ------------------------------------------------- */

int ls_cmd_run(const ls_workload *w, int argc, char **argv, int first, const char *usage)
{
    ls_common c = {0};
    ls_error err = {{0}, 0};
    ls_opt extra[] = {LS_OPT_BACKEND(&c), LS_OPT_JSON(&c), LS_OPT_QUIET(&c)};
    char usage_buf[128];
    if (!usage) {
        snprintf(usage_buf, sizeof usage_buf, "lockstep %s [options]", w->name);
        usage = usage_buf;
    }
    void *params = calloc(1, w->params_size);
    if (!params) {
        fprintf(stderr, "lockstep: out of memory\n");
        return 1;
    }
    int rc = parse_params(w, params, 1, argc, argv, first, extra, 3, usage, w->summary, &err);
    /* Every rank must compute the same problem: a wrapper that gave one
     * rank another --seed would mix two searches into one answer. Every
     * rank takes part whatever its own parse gave (a rank that alone
     * refused its arguments, or alone printed --help, would leave the
     * others waiting for it). */
    if (ls_cluster_size() > 1) {
        char refused[sizeof err.msg + 32];
        snprintf(refused, sizeof refused, "arguments refused (%s)", rc == 1 ? "--help" : err.msg);
        char *text = rc == 0 ? problem_text(w, params) : NULL;
        ls_error differ = {{0}, 0};
        int arc = ls_cluster_agree(rc != 0 ? refused : text ? text : "(out of memory)", &differ);
        free(text);
        if (arc != 0) {
            /* Every rank says it: they did not read the same command line. */
            fprintf(stderr, "lockstep (rank %d on %s): %s\n", ls_cluster_rank(), ls_cluster_host(), differ.msg);
            free(params);
            return differ.usage ? 2 : 1;
        }
    }
    if (rc != 0) {
        free(params);
        return rc == 1 ? 0 : ls_report(&err);
    }
    /* Every rank opens its devices; all go on only when all could. */
    ls_session s;
    int opened = ls_session_open(c.backend, &s, &err) == 0;
    if (opened && check_spread(w, &s, &err) != 0) {
        ls_session_close(&s);
        opened = 0;
    }
    int failed_ranks = ls_cluster_count_failed(opened);
    if (!opened || failed_ranks) {
        free(params);
        if (!opened)
            return ls_report(&err);
        ls_session_close(&s);
        if (ls_cluster_rank() == 0)
            fprintf(stderr, "lockstep: %d MPI rank%s could not open %s devices; nothing was run\n", failed_ranks,
                    failed_ranks == 1 ? "" : "s", failed_ranks == 1 ? "its" : "their");
        return 1;
    }
    char label[300];
    snprintf(label, sizeof label, "%s on %s", w->name, ls_cluster_size() > 1 ? "every rank" : s.label);
    ls_progress_bar bar;
    ls_progress prog = ls_progress_start(&bar, label, w->unit, c.quiet);
    ls_progress_catch_sigint();
    ls_run run;
    rc = w->run(&s, params, &run, &prog, &err);
    ls_progress_finish(&bar);
    if (rc == 0 && s.split && s.split->computed_only) {
        /* Another rank than 0: rank 0 reports and writes the files. */
        w->run_free(&run);
    } else if (rc == 0) {
        /* A run that did not finish reports what it did and writes no
         * output file: each stays as it was. */
        int finished = !run.interrupted;
        rc = ls_run_seal(w, params, &s, &run, &err);
        if (rc == 0 && finished && w->write_outputs)
            rc = w->write_outputs(params, &run, &err);
        if (rc == 0)
            rc = emit(w, params, &s, &run, c.json, &err);
        w->run_free(&run);
        if (rc == 0 && !finished)
            rc = ls_exit_interrupted();
    }
    ls_session_close(&s);
    free(params);
    if (rc > 1)
        return rc; /* interrupted: the report said what was done */
    if (rc != 0 && ls_cluster_size() > 1) {
        /* The other ranks may be waiting on this one: end them all. */
        ls_report(&err);
        ls_cluster_abort(1);
    }
    return rc == 0 ? 0 : ls_report(&err);
}

/* ---- device enumeration used by check and conformance ------------------- */

/* One entry of the list: a device, or a group of devices that one run
 * spreads over (`group` holds its spec, e.g. "openmp+opencl:0"). */
typedef struct dev_ref {
    const ls_backend *backend;
    int index;
    char group[128];
} dev_ref;

/* The devices named by a comma-separated list of specs (a bare backend
 * name means all its devices; NAME:all, or specs joined by '+', one run
 * over a group of them), or every device when list is NULL. A backend
 * that cannot run here is reported in `skipped`; a device index the
 * backend does not have is the user's error. Groups are taken only when
 * `groups` is set. */
static int collect_devices(const char *list, int groups, dev_ref *out, int max, char *skipped, size_t skipped_len,
                           ls_error *err)
{
    int n = 0;
    skipped[0] = 0;
    char buf[512];
    if (list && strlen(list) >= sizeof buf)
        return ls_fail_usage(err, "--backends: a list of at most %zu characters", sizeof buf - 1);
    if (list && ls_spec_list_check("--backends", list, ",+", err) != 0)
        return -1;
    snprintf(buf, sizeof buf, "%s", list ? list : "");
    const char *names[LS_MAX_DEVICES * 3];
    const int max_names = (int)(sizeof names / sizeof names[0]);
    int nnames = 0;
    if (list) {
        for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
            if (nnames == max_names)
                return ls_fail_usage(err, "--backends: at most %d entries", max_names);
            names[nnames++] = tok;
        }
        if (nnames == 0)
            return ls_fail_usage(err, "--backends: expected a comma-separated list like openmp,opencl");
    } else {
        for (int i = 0; ls_backends[i]; i++)
            names[nnames++] = ls_backends[i]->name;
    }
    for (int i = 0; i < nnames; i++) {
        const ls_backend *b;
        int index;
        if (strchr(names[i], '+') || strstr(names[i], ":all")) {
            if (!groups)
                return ls_fail_usage(err, "--backend: conformance runs on one device at a time, not on '%s'",
                                     names[i]);
            if (n == max)
                return ls_fail_usage(err, "--backends: at most %d devices and groups", max);
            if (ls_spec_syntax_check("--backends", names[i], err) != 0)
                return -1;
            for (int j = 0; j < n; j++)
                if (strcmp(out[j].group, names[i]) == 0)
                    return ls_fail_usage(err, "--backends: %s is named twice in '%s'", names[i], list);
            out[n] = (dev_ref){NULL, -1, ""};
            snprintf(out[n++].group, sizeof out->group, "%s", names[i]);
            continue;
        }
        if (ls_backend_spec_parse(names[i], &b, &index, err) != 0)
            return -1;
        if (!b)
            return ls_fail_usage(err, "--backends: name backends explicitly (auto is not a list)");
        ls_device_info devs[LS_MAX_DEVICES];
        ls_error why = {{0}, 0};
        int nd = b->list_devices(devs, LS_MAX_DEVICES, &why);
        if (nd <= 0) {
            size_t used = strlen(skipped);
            snprintf(skipped + used, skipped_len - used, "%s%s: %s", used ? "; " : "", names[i], why.msg);
            continue;
        }
        if (index >= nd)
            return ls_fail_usage(err, "--backends: %s has %d device%s (index 0 to %d), not %s", b->name, nd,
                                 nd == 1 ? "" : "s", nd - 1, names[i]);
        /* A device compared with itself proves nothing: refused, as in
         * --backend (a bare name is every device of its backend). */
        for (int d = index < 0 ? 0 : index; d < (index < 0 ? nd : index + 1); d++) {
            for (int j = 0; j < n; j++)
                if (out[j].backend == b && out[j].index == d)
                    return ls_fail_usage(err, "--backends: %s:%d is named twice in '%s'", b->name, d, list);
            if (n == max)
                return ls_fail_usage(err, "--backends: at most %d devices and groups", max);
            out[n++] = (dev_ref){b, d, ""};
        }
    }
    /* Run the CPU first: it is the reference the others are compared with. */
    for (int i = 1; i < n; i++)
        if (out[i].backend && strcmp(out[i].backend->name, "openmp") == 0) {
            dev_ref t = out[i];
            memmove(out + 1, out, (size_t)i * sizeof *out);
            out[0] = t;
        }
    return n;
}

static void ref_label(const dev_ref *d, char *out, size_t len)
{
    if (d->group[0])
        snprintf(out, len, "%s", d->group);
    else
        snprintf(out, len, "%s:%d", d->backend->name, d->index);
}

static int open_ref(dev_ref d, ls_session *s, ls_error *err)
{
    char spec[160];
    ref_label(&d, spec, sizeof spec);
    return ls_session_open(spec, s, err);
}

/* ---- comparing two results, field by field ----------------------------- */

/* The extent of one JSON value starting at p (a string, a number, a
 * literal, an array or an object): returns the end. */
static const char *json_value_end(const char *p)
{
    int depth = 0, in_string = 0;
    for (; *p; p++) {
        if (in_string) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == '"')
                in_string = 0;
            continue;
        }
        if (*p == '"')
            in_string = 1;
        else if (*p == '[' || *p == '{')
            depth++;
        else if (*p == ']' || *p == '}') {
            if (depth == 0)
                return p;
            depth--;
        } else if (*p == ',' && depth == 0)
            return p;
    }
    return p;
}

/* Finds member `key` in a list of members; sets *val and *len. */
static int json_member(const char *members, const char *key, const char **val, size_t *len)
{
    size_t klen = strlen(key);
    for (const char *p = members; *p == '"';) {
        const char *kend = strchr(p + 1, '"');
        if (!kend || kend[1] != ':')
            return 0;
        const char *v = kend + 2, *e = json_value_end(v);
        if ((size_t)(kend - p - 1) == klen && strncmp(p + 1, key, klen) == 0) {
            *val = v;
            *len = (size_t)(e - v);
            return 1;
        }
        p = *e == ',' ? e + 1 : e;
    }
    return 0;
}

/* Prints which members of two results differ: for arrays, the first
 * element that does. Returns how many members differ. */
static int diff_members(const char *a, const char *an, const char *b, const char *bn, FILE *out)
{
    int differ = 0;
    for (const char *p = a; *p == '"';) {
        const char *kend = strchr(p + 1, '"');
        if (!kend || kend[1] != ':')
            break;
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(kend - p - 1), p + 1);
        const char *va = kend + 2, *ea = json_value_end(va), *vb;
        size_t la = (size_t)(ea - va), lb = 0;
        int found = json_member(b, key, &vb, &lb);
        if (!found || la != lb || memcmp(va, vb, la) != 0) {
            differ++;
            if (!found)
                fprintf(out, "  field %s: missing on %s\n", key, bn);
            else if (*va == '[' && *vb == '[') {
                const char *x = va + 1, *y = vb + 1;
                for (int i = 0;; i++) {
                    const char *xe = json_value_end(x), *ye = json_value_end(y);
                    if ((size_t)(xe - x) != (size_t)(ye - y) || memcmp(x, y, (size_t)(xe - x)) != 0) {
                        fprintf(out, "  field %s differs first at element %d: %s %.*s, %s %.*s\n", key, i, an,
                                (int)(xe - x > 120 ? 120 : xe - x), x, bn, (int)(ye - y > 120 ? 120 : ye - y), y);
                        break;
                    }
                    if (*xe != ',' || *ye != ',')
                        break;
                    x = xe + 1;
                    y = ye + 1;
                }
            } else {
                fprintf(out, "  field %s: %s %.*s, %s %.*s\n", key, an, (int)(la > 120 ? 120 : la), va, bn,
                        (int)(lb > 120 ? 120 : lb), vb);
            }
        }
        p = *ea == ',' ? ea + 1 : ea;
    }
    return differ;
}

/* ---- lockstep check WORKLOAD|all ---------------------------------------- */

typedef struct check_row {
    char label[160];
    char name[160];
    char error[512];
    int ran, ok, stopped; /* stopped: a signal cut its run short */
    ls_run run;
    char *json; /* the result's members */
} check_row;

typedef struct check_outcome {
    int compared, failures, agree, interrupted;
} check_outcome;

static void check_row_json(FILE *out, const check_row *r, const check_row *ref)
{
    fprintf(out, "{\"device\":\"%s\",\"name\":", r->label);
    ls_json_string(out, r->name);
    if (r->ok) {
        fprintf(out, ",\"digest\":\"%s\",\"summary\":", r->run.digest);
        ls_json_string(out, r->run.summary);
        fprintf(out, ",\"seconds\":%.6f,\"matches_reference\":%s}", r->run.seconds,
                strcmp(r->run.digest, ref->run.digest) == 0 ? "true" : "false");
    } else {
        fprintf(out, ",\"error\":");
        ls_json_string(out, r->error);
        fprintf(out, "}");
    }
}

static void check_print_json(FILE *out, const ls_workload *w, const check_row *rows, int n, int ref,
                             const check_outcome *o)
{
    fprintf(out, "{\"workload\":\"%s\",\"compared\":%d,\"agree\":%s,\"runs\":[", w->name, o->compared,
            o->agree && !o->failures && o->compared >= 2 ? "true" : "false");
    int first = 1;
    for (int i = 0; i < n; i++)
        if (rows[i].ran) {
            fputs(first ? "" : ",", out);
            check_row_json(out, &rows[i], &rows[ref < 0 ? i : ref]);
            first = 0;
        }
    fprintf(out, "]"); /* the caller closes the object */
}

static void check_print_table(const ls_workload *w, const void *params, const check_row *rows, int n, int ref,
                              const char *skipped)
{
    printf("%-10s %-40s %-16s %-12s %10s\n", "device", "name", "digest", "result", "seconds");
    for (int i = 0; i < n; i++) {
        if (!rows[i].ran)
            continue; /* not reached: interrupted before it */
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
            diff_members(rows[ref].json, rows[ref].label, rows[i].json, rows[i].label, stdout);
            if (w->diff)
                w->diff(params, &rows[ref].run, rows[ref].label, &rows[i].run, rows[i].label, stdout);
        }
}

/* Runs w on one device into row; the row records why when it cannot. */
static void check_one(const ls_workload *w, const void *params, dev_ref d, check_row *row, const ls_common *c)
{
    ls_session s;
    ls_error e = {{0}, 0};
    if (d.group[0] && !w->scales)
        return; /* a group: for the workloads that spread over one */
    row->ran = 1;
    ref_label(&d, row->label, sizeof row->label);
    if (open_ref(d, &s, &e) != 0) {
        snprintf(row->error, sizeof row->error, "%s", e.msg);
        return;
    }
    if (s.ndevices > 1)
        snprintf(row->name, sizeof row->name, "%d devices: %.120s", s.ndevices, s.label);
    else
        snprintf(row->name, sizeof row->name, "%s", s.info.name);
    char label[320];
    snprintf(label, sizeof label, "check %s on %s", w->name, row->label);
    ls_progress_bar bar;
    ls_progress prog = ls_progress_start(&bar, label, w->unit, c->quiet);
    if (w->run(&s, params, &row->run, &prog, &e) != 0) {
        snprintf(row->error, sizeof row->error, "%s", e.msg);
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
    ls_session_close(&s);
}

/* Runs w with params on every device in devs and compares each digest with
 * the first device's. */
static check_outcome check_workload(const ls_workload *w, const void *params, const dev_ref *devs, int ndev,
                                    const char *skipped, const ls_common *c, FILE *json_out)
{
    check_outcome o = {0, 0, 1, 0};
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
        if (!rows[i].ok) {
            o.failures += !rows[i].stopped;
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
        check_print_json(json_out, w, rows, ndev, ref, &o);
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
    if (argc < 3 || strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) {
        printf("usage: lockstep check WORKLOAD|all [workload options] [--backends LIST] [--json] [--quiet]\n\n"
               "Runs WORKLOAD with the same inputs on every available backend and device (or those\n"
               "in LIST, e.g. openmp,opencl:1) and compares the full results; `all` runs every\n"
               "workload at a small size. Exits 1 with the fields that differ when any two disagree,\n"
               "77 (skipped) when fewer than two devices could be compared, 0 when all agree.\n"
               "A group in LIST (cuda:all, openmp+opencl:0) is one run of graveler or bmn spread over\n"
               "its devices, compared like a device (cuda:0,cuda:all: two GPUs against one).\n"
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
        {"backends", LS_OPT_STRING, &list, 0, 0, "LIST",
         "comma-separated backends or devices; NAME:all or a+b is one run spread over a group; default all"},
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
        rc = parse_params(w, params, 0, argc, argv, 3, extra, nextra, usage, summary, &err);
    }
    if (rc != 0) {
        free(params);
        return rc == 1 ? 0 : ls_report(&err);
    }
    dev_ref devs[LS_MAX_DEVICES * 3];
    char skipped[1024];
    int ndev = collect_devices(list, 1, devs, LS_MAX_DEVICES * 3, skipped, sizeof skipped, &err);
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
    if (all) {
        if (json_out)
            fprintf(json_out, "{\"checks\":[");
        for (int i = 0; ls_workloads[i] && nw < 16 && !ls_progress_interrupted(); i++) {
            const ls_workload *wi = ls_workloads[i];
            void *p = calloc(1, wi->params_size);
            if (!p)
                return fprintf(stderr, "lockstep: out of memory\n"), 1;
            wi->params_default(p);
            wi->params_quick(p);
            if (wi->params_validate(p, &err) != 0) {
                free(p);
                return ls_report(&err);
            }
            if (json_out && nw)
                fputc(',', json_out);
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

/* ---- lockstep conformance ----------------------------------------------- */

/* The rule every backend must keep for floats (src/kernels/dialect.h), as
 * a conformance case of its own: it belongs to no workload. */
extern const ls_case ls_exact_float_case;

typedef struct case_tally {
    int pass, fail, json;
} case_tally;

static void report_case(case_tally *t, const char *label, const char *name, int r, const char *detail)
{
    r == 1 ? t->pass++ : t->fail++;
    if (t->json) {
        printf("%s{\"device\":\"%s\",\"case\":", t->pass + t->fail > 1 ? "," : "", label);
        ls_json_string(stdout, name);
        printf(",\"pass\":%s,\"detail\":", r == 1 ? "true" : "false");
        ls_json_string(stdout, detail);
        printf("}");
    } else {
        printf("%-10s %-44s %-6s %s\n", label, name, r == 1 ? "pass" : "FAIL", detail);
    }
    fflush(stdout);
}

static void run_case(case_tally *t, ls_session *s, int opened, const char *label, const ls_case *k,
                     const ls_error *open_err)
{
    char detail[640] = "";
    ls_error e = *open_err;
    int r = opened ? k->run(s, k->arg, detail, sizeof detail, &e) : -1;
    if (r < 0)
        snprintf(detail, sizeof detail, "error: %s", e.msg);
    report_case(t, label, k->name, r, detail);
}

int ls_cmd_conformance(int argc, char **argv)
{
    ls_error err = {{0}, 0};
    ls_common c = {0};
    const char *only = NULL;
    int skip_unavailable = 0;
    ls_opt opts[] = {
        LS_OPT_BACKEND(&c),
        {"workload", LS_OPT_STRING, &only, 0, 0, "NAME", "only this workload's cases (or 'float': the float rule)"},
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
                     "independent reference implementation, after a check of the exact floating-point\n"
                     "rule. A pass means this device computes these workloads exactly as the reference.",
                     opts, n);
        return 0;
    }
    if (rc != 0)
        return ls_report(&err);
    int float_only = only && strcmp(only, "float") == 0;
    if (only && !float_only && !ls_workload_find(only)) {
        ls_fail_usage(&err, "--workload: unknown workload '%s'", only);
        return ls_report(&err);
    }
    dev_ref devs[LS_MAX_DEVICES * 3];
    char skipped[1024];
    int ndev = collect_devices(c.backend, 0, devs, LS_MAX_DEVICES * 3, skipped, sizeof skipped, &err);
    if (ndev < 0)
        return ls_report(&err);
    if (ndev == 0) {
        fprintf(stderr, "lockstep: conformance: not available here: %s\n", skipped);
        return skip_unavailable ? 77 : 1;
    }
    case_tally t = {0, 0, c.json};
    ls_progress_catch_sigint(); /* a signal stops between cases; the tally is printed */
    if (c.json)
        printf("{\"cases\":[");
    else
        printf("%-10s %-44s %-6s %s\n", "device", "case", "result", "detail");
    for (int d = 0; d < ndev && !ls_progress_interrupted(); d++) {
        ls_session s;
        ls_error e = {{0}, 0};
        char label[160];
        ref_label(&devs[d], label, sizeof label);
        int opened = open_ref(devs[d], &s, &e) == 0;
        if (!only || float_only)
            run_case(&t, &s, opened, label, &ls_exact_float_case, &e);
        for (int wi = 0; ls_workloads[wi] && !float_only; wi++) {
            const ls_workload *w = ls_workloads[wi];
            if (only && strcmp(only, w->name) != 0)
                continue;
            for (int k = 0; k < w->ncases && !ls_progress_interrupted(); k++)
                run_case(&t, &s, opened, label, &w->cases[k], &e);
        }
        if (opened)
            ls_session_close(&s);
    }
    int stopped = ls_progress_interrupted();
    if (c.json) {
        printf("],\"passed\":%d,\"failed\":%d,\"interrupted\":%s,\"not_available\":", t.pass, t.fail,
               stopped ? "true" : "false");
        ls_json_string(stdout, skipped);
        printf("}\n");
    } else {
        if (skipped[0])
            printf("not available: %s\n", skipped);
        printf("conformance: %d passed, %d failed%s\n", t.pass, t.fail, stopped ? " (interrupted: not every case ran)" : "");
    }
    return t.fail ? 1 : stopped ? ls_exit_interrupted() : 0;
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
    int rc = parse_params(w, params, 0, argc, argv, 3, extra, 4, usage, "Times a workload.", &err);
    if (rc != 0) {
        free(params);
        free(times);
        return rc == 1 ? 0 : ls_report(&err);
    }
    ls_session s;
    if (ls_session_open(c.backend, &s, &err) != 0 || check_spread(w, &s, &err) != 0) {
        ls_session_close(&s);
        free(params);
        free(times);
        return ls_report(&err);
    }
    char digest[17] = "", summary[200] = "";
    uint64_t items = 0, timed = 0;
    int failed = 0;
    /* A signal stops the run in hand (its time is not counted) and the
     * runs timed so far are reported. */
    ls_progress_bar bar;
    ls_progress prog = ls_progress_start(&bar, w->name, w->unit, 1);
    ls_progress_catch_sigint();
    for (uint64_t i = 0; i < warmup + repeat && !failed && !ls_progress_interrupted(); i++) {
        ls_run run;
        if (w->run(&s, params, &run, &prog, &err) != 0) {
            failed = 1;
            break;
        }
        if (run.interrupted) {
            w->run_free(&run);
            break;
        }
        if (ls_run_seal(w, params, &s, &run, &err) != 0) {
            failed = 1;
        } else if (i == 0) {
            memcpy(digest, run.digest, sizeof digest);
            memcpy(summary, run.summary, sizeof summary);
        } else if (strcmp(digest, run.digest) != 0) {
            ls_fail(&err, "bench: run %llu gave digest %s, run 1 gave %s: the device is not deterministic",
                    (unsigned long long)i + 1, run.digest, digest);
            failed = 1;
        }
        if (i >= warmup && !failed)
            times[timed++] = run.seconds;
        items = run.items;
        w->run_free(&run);
    }
    ls_progress_finish(&bar);
    int stopped = !failed && timed < repeat;
    if (stopped)
        fprintf(stderr, "lockstep: bench interrupted after %" PRIu64 " of %" PRIu64 " timed runs%s\n", timed, repeat,
                timed ? "; the figures below are of those" : "; nothing was timed");
    if (!failed && timed) {
        repeat = timed;
        qsort(times, repeat, sizeof *times, cmp_double);
        double median = repeat % 2 ? times[repeat / 2] : 0.5 * (times[repeat / 2 - 1] + times[repeat / 2]);
        const char *label = s.label;
        if (c.json) {
            printf("{\"workload\":\"%s\",\"device\":\"%s\",\"name\":", w->name, label);
            ls_json_string(stdout, s.info.name);
            printf(",\"items\":%" PRIu64 ",\"repeat\":%" PRIu64 ",\"median_s\":%.6g,\"min_s\":%.6g,\"max_s\":%.6g,"
                   "\"items_per_s\":%.6g,\"digest\":\"%s\",\"interrupted\":%s}\n",
                   items, repeat, median, times[0], times[repeat - 1], (double)items / median, digest,
                   stopped ? "true" : "false");
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
    return failed ? ls_report(&err) : stopped ? ls_exit_interrupted() : 0;
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
    /* A default that does not parse ($LOCKSTEP_BACKEND=garbage) is the
     * user's error, said as such. */
    if (ls_default_backend_check(&err) != 0)
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
    char mpi[256];
    ls_cluster_library(mpi, sizeof mpi);
    if (json) {
        printf("],\"mpi\":");
        if (mpi[0])
            ls_json_string(stdout, mpi);
        else
            printf("null");
        printf("}\n");
    } else {
        printf("mpi      %s\n", mpi[0] ? mpi : "not built in (graveler and bmn search run in one process)");
    }
    return 0;
}
