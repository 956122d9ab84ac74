/* commands.c - the commands that work for every workload: run, check,
 * conformance, bench, devices. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "devlist.h"
#include "output.h"
#include "progress.h"
#include "split.h"
#include "version.h"
#include "workload.h"

/* ---- shared pieces ----------------------------------------------------- */

/* The option table of w bound to params: its parameters, and with `run`
 * the run command's own options (output files, checkpoints) after them.
 * opts holds LS_MAX_OPTS * 2; returns how many. */
static int bound_options(const ls_workload *w, void *params, int run, ls_opt *opts)
{
    int n = w->params_options(params, opts, LS_MAX_OPTS);
    if (run && w->run_options)
        n += w->run_options(params, opts + n, LS_MAX_OPTS - n);
    return n;
}

/* Parameters of w with their option table, plus the run command's own
 * options when `run` is set, plus `extra` options of the command itself,
 * plus positional arguments for the run command; returns 0, 1 (help
 * printed) or -1 (err set). */
static int parse_params(const ls_workload *w, void *params, int run, int argc, char **argv, int first,
                        const ls_opt *extra, int nextra, const char *usage, const char *summary, ls_error *err)
{
    ls_opt opts[LS_MAX_OPTS * 2];
    w->params_default(params);
    int n = bound_options(w, params, run, opts); /* at most LS_MAX_OPTS: room for as many extra */
    if (nextra > LS_MAX_OPTS)
        return ls_fail(err, "internal: %d command options, room for %d", nextra, LS_MAX_OPTS);
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

/* The inputs of a document, `"params":{...}`: every option of the table as
 * parsed, by name (a flag is true or false, a string not given is null),
 * so that a JSON document says what produced it. */
static void options_json(FILE *out, const ls_opt *opts, int n)
{
    fputs("\"params\":{", out);
    for (int i = 0; i < n; i++) {
        const ls_opt *o = &opts[i];
        fprintf(out, "%s\"%s\":", i ? "," : "", o->name);
        if (o->kind == LS_OPT_FLAG)
            fputs(*(const int *)o->target ? "true" : "false", out);
        else if (o->kind == LS_OPT_STRING && *(const char *const *)o->target)
            ls_json_string(out, *(const char *const *)o->target);
        else if (o->kind == LS_OPT_STRING)
            fputs("null", out);
        else
            fprintf(out, "%" PRIu64, *(const uint64_t *)o->target);
    }
    fputc('}', out);
}

/* The parameters of w as `"params":{...}` (with the run command's own
 * options when `run` is set). The table binds to params without writing
 * to them. */
static void params_json(FILE *out, const ls_workload *w, const void *params, int run)
{
    ls_opt opts[LS_MAX_OPTS * 2];
    int n = bound_options(w, (void *)params, run, opts);
    options_json(out, opts, n);
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
    int n = bound_options(w, params, 1, opts);
    ls_buffer b;
    ls_error err;
    if (ls_buffer_open(&b, &err) != 0)
        return NULL;
    fprintf(b.f, "lockstep %s, program %016" PRIx64 "\n%s\n", ls_version, program_hash(), w->name);
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

/* w's parameters at the small sizes of `check all` and `bench all`
 * (malloc'ed), or NULL with err set. */
static void *quick_params(const ls_workload *w, ls_error *err)
{
    void *p = calloc(1, w->params_size);
    if (!p) {
        ls_fail(err, "out of memory");
        return NULL;
    }
    w->params_default(p);
    w->params_quick(p);
    if (w->params_validate(p, err) != 0) {
        free(p);
        return NULL;
    }
    return p;
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

/* The run's JSON document: which lockstep, the inputs, what ran where,
 * then the result's members. "device" is always a spec (opencl:0, or the
 * list a spread run was given) and "device_name" the device's own name. */
static void print_run_json(const ls_workload *w, const void *params, const ls_session *s, const ls_run *run,
                           FILE *out)
{
    fputc('{', out);
    ls_json_provenance(out);
    fprintf(out, ",\"workload\":\"%s\",", w->name);
    params_json(out, w, params, 1);
    fprintf(out, ",\"device\":");
    ls_json_string(out, s->label);
    if (spread(s)) {
        print_devices_json(s, out);
    } else {
        fprintf(out, ",\"backend\":\"%s\",\"device_index\":%d,\"device_name\":", s->backend->name, s->index);
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
        return ls_fail_usage(err, "%s runs in one process; under mpirun only graveler, bmn search and ray spread over "
                                  "ranks", w->name);
    return ls_fail_usage(err, "%s runs on one device; --backend %s names %d (only graveler, bmn search and ray spread "
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
    ls_opt extra[] = {LS_OPT_BACKEND(&c), LS_OPT_JSON(&c), LS_OPT_QUIET(&c), LS_OPT_PROGRESS_EVERY(&c)};
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
    int rc = parse_params(w, params, 1, argc, argv, first, extra, (int)(sizeof extra / sizeof extra[0]), usage,
                          w->summary, &err);
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
    ls_progress prog = ls_progress_start(&bar, label, w->unit, c.quiet, c.progress_every);
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

/* Compares two results member by member: for each member of a that
 * differs in b (or is missing there), prints to `text` what differs (for
 * arrays, the first element that does) and adds its name to `names` as
 * JSON strings separated by commas; either may be NULL. Returns how many
 * members differ. */
static int diff_members(const char *a, const char *an, const char *b, const char *bn, FILE *text, FILE *names)
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
            if (names) {
                fputs(differ ? "," : "", names);
                ls_json_string(names, key);
            }
            differ++;
            if (!text)
                ;
            else if (!found)
                fprintf(text, "  field %s: missing on %s\n", key, bn);
            else if (*va == '[' && *vb == '[') {
                const char *x = va + 1, *y = vb + 1;
                for (int i = 0;; i++) {
                    const char *xe = json_value_end(x), *ye = json_value_end(y);
                    if ((size_t)(xe - x) != (size_t)(ye - y) || memcmp(x, y, (size_t)(xe - x)) != 0) {
                        fprintf(text, "  field %s differs first at element %d: %s %.*s, %s %.*s\n", key, i, an,
                                (int)(xe - x > 120 ? 120 : xe - x), x, bn, (int)(ye - y > 120 ? 120 : ye - y), y);
                        break;
                    }
                    if (*xe != ',' || *ye != ',')
                        break;
                    x = xe + 1;
                    y = ye + 1;
                }
            } else {
                fprintf(text, "  field %s: %s %.*s, %s %.*s\n", key, an, (int)(la > 120 ? 120 : la), va, bn,
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

/* One run of a check: where it ran, and either its digest and the result
 * fields that differ from the reference run's ("differs":[] when none),
 * or why it could not run. */
static void check_row_json(FILE *out, const check_row *r, const check_row *ref)
{
    fprintf(out, "{\"device\":");
    ls_json_string(out, r->label);
    fprintf(out, ",\"device_name\":");
    ls_json_string(out, r->name);
    if (r->ok) {
        fprintf(out, ",\"digest\":\"%s\",\"summary\":", r->run.digest);
        ls_json_string(out, r->run.summary);
        fprintf(out, ",\"seconds\":%.6f,\"reference\":%s,\"matches_reference\":%s,\"differs\":[", r->run.seconds,
                r == ref ? "true" : "false", strcmp(r->run.digest, ref->run.digest) == 0 ? "true" : "false");
        if (r != ref)
            diff_members(ref->json, ref->label, r->json, r->label, NULL, out);
        fputs("]}", out);
    } else {
        fprintf(out, ",\"error\":");
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
    params_json(out, w, params, 0);
    fprintf(out, ",\"compared\":%d,\"agree\":%s,\"runs\":[", o->compared,
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
            diff_members(rows[ref].json, rows[ref].label, rows[i].json, rows[i].label, stdout, NULL);
            if (w->diff)
                w->diff(params, &rows[ref].run, rows[ref].label, &rows[i].run, rows[i].label, stdout);
        }
}

/* Runs w on one device into row; the row records why when it cannot. */
static void check_one(const ls_workload *w, const void *params, ls_dev_ref d, check_row *row, const ls_common *c)
{
    ls_session s;
    ls_error e = {{0}, 0};
    if (d.group[0] && !w->scales)
        return; /* a group: for the workloads that spread over one */
    row->ran = 1;
    ls_dev_label(&d, row->label, sizeof row->label);
    if (ls_dev_open(d, &s, &e) != 0) {
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
    ls_progress prog = ls_progress_start(&bar, label, w->unit, c->quiet, c->progress_every);
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
static check_outcome check_workload(const ls_workload *w, const void *params, const ls_dev_ref *devs, int ndev,
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
        {"backends", LS_OPT_STRING, &list, 0, 0, "LIST",
         "comma-separated backends or devices; NAME:all or a+b is one run spread over a group; default all"},
        LS_OPT_JSON(&c), LS_OPT_QUIET(&c), LS_OPT_PROGRESS_EVERY(&c)};
    const int nextra = (int)(sizeof extra / sizeof extra[0]);
    if (argc < 3 || strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) {
        char names[256] = "";
        for (int i = 0; ls_workloads[i]; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), " %s", ls_workloads[i]->name);
        char text[1200];
        snprintf(text, sizeof text,
                 "Runs WORKLOAD with the same inputs on every available backend and device (or those\n"
                 "in LIST, e.g. openmp,opencl:1) and compares the full results; `all` runs every\n"
                 "workload at a small size. Exits 1 with the fields that differ when any two disagree,\n"
                 "77 (skipped) when fewer than two devices could be compared, 0 when all agree.\n"
                 "A group in LIST (cuda:all, openmp+opencl:0) is one run of graveler, bmn or ray spread over\n"
                 "its devices, compared like a device (cuda:0,cuda:all: two GPUs against one).\n"
                 "Workloads:%s\n`lockstep check WORKLOAD --help` lists the workload's options.",
                 names);
        ls_opts_help(stdout, "lockstep check WORKLOAD|all [workload options] [options]", text, extra, nextra);
        return argc < 3 ? 2 : 0;
    }
    int all = strcmp(argv[2], "all") == 0;
    const ls_workload *w = all ? NULL : ls_workload_find(argv[2]);
    if (!all && !w) {
        ls_fail_usage(&err, "check: unknown workload '%s' (see lockstep check --help)", argv[2]);
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
        rc = parse_params(w, params, 0, argc, argv, 3, extra, nextra, usage, summary, &err);
    }
    if (rc != 0) {
        free(params);
        return rc == 1 ? 0 : ls_report(&err);
    }
    ls_dev_ref devs[LS_MAX_DEVICES * 3];
    char skipped[1024];
    int ndev = ls_collect_devices(list, 1, devs, LS_MAX_DEVICES * 3, skipped, sizeof skipped, &err);
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
            void *p = quick_params(wi, &err);
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

/* ---- lockstep bench ------------------------------------------------------ */

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
} bench_result;

/* Runs w `warmup` times untimed, then `repeat` times timed, on s; every
 * run's digest must be the first's. A signal stops the run in hand (its
 * time is not counted) and the runs timed so far are the result. 0, or
 * -1 with err set. */
static int bench_runs(const ls_workload *w, const void *params, ls_session *s, uint64_t warmup, uint64_t repeat,
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
        if (w->run(s, params, &run, &prog, err) != 0) {
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
        if (i >= warmup && !failed)
            times[out->timed++] = run.seconds;
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
    params_json(out, w, params, 0);
    fprintf(out, ",\"device\":");
    ls_json_string(out, device);
    fprintf(out, ",\"device_name\":");
    ls_json_string(out, device_name);
    fprintf(out,
            ",\"items\":%" PRIu64 ",\"repeat\":%" PRIu64 ",\"median_s\":%.6g,\"min_s\":%.6g,\"max_s\":%.6g,"
            "\"items_per_s\":%.6g,\"digest\":\"%s\",\"interrupted\":%s",
            r->items, r->timed, r->median, r->min, r->max, r->median > 0 ? (double)r->items / r->median : 0.0,
            r->digest, r->stopped ? "true" : "false");
}

static const char bench_summary[] =
    "Times WORKLOAD: W untimed warm-up runs, then R timed runs; reports the median, the\n"
    "fastest and the slowest (device time: events on GPUs). Every run's digest must match.\n"
    "`bench all` times every workload at the small sizes of `check all` on every device\n"
    "(or those in --backends LIST) and prints one table. `lockstep bench WORKLOAD --help`\n"
    "lists the workload's options.";

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
    printf("%-9s %-12s %-32.32s %9s %-12s %10.6f %10.4g %s\n", w->name, device, name, items, w->unit, r->median,
           r->median > 0 ? (double)r->items / r->median : 0.0, r->digest);
}

/* lockstep bench all: every workload at its quick size on every device. */
static int bench_all(int argc, char **argv)
{
    ls_error err = {{0}, 0};
    ls_common c = {0};
    const char *list = NULL;
    uint64_t repeat = 5, warmup = 1;
    ls_opt opts[] = {
        {"backends", LS_OPT_STRING, &list, 0, 0, "LIST", "comma-separated backends or devices; default all"},
        {"repeat", LS_OPT_COUNT, &repeat, 1, 1000, "R", "timed runs"},
        {"warmup", LS_OPT_COUNT, &warmup, 0, 100, "W", "untimed runs first"},
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
    int ndev = ls_collect_devices(list, 1, devs, LS_MAX_DEVICES * 3, skipped, sizeof skipped, &err);
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
        void *params = quick_params(w, &err);
        if (!params)
            return ls_report(&err);
        for (int d = 0; d < ndev && !ls_progress_interrupted(); d++) {
            if (devs[d].group[0] && !w->scales)
                continue; /* a group: for the workloads that spread over one */
            char label[160];
            ls_dev_label(&devs[d], label, sizeof label);
            ls_session s;
            ls_error e = {{0}, 0};
            bench_result r;
            int opened = ls_dev_open(devs[d], &s, &e) == 0;
            int ok = opened && bench_runs(w, params, &s, warmup, repeat, &r, &e) == 0;
            const char *name = opened ? (s.ndevices > 1 ? s.label : s.info.name) : "";
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
                ls_session_close(&s);
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
        {"repeat", LS_OPT_COUNT, &repeat, 1, 1000, "R", "timed runs"},
        {"warmup", LS_OPT_COUNT, &warmup, 0, 100, "W", "untimed runs first"},
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
    int rc = parse_params(w, params, 0, argc, argv, 3, extra, nextra, usage, "Times a workload.", &err);
    if (rc != 0) {
        free(params);
        return rc == 1 ? 0 : ls_report(&err);
    }
    ls_session s;
    if (ls_session_open(c.backend, &s, &err) != 0 || check_spread(w, &s, &err) != 0) {
        ls_session_close(&s);
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
            bench_json(b.f, w, params, s.label, s.info.name, &r);
            fputs("}\n", b.f);
            rc = ls_buffer_emit(&b, stdout, "standard output", &err);
        }
        failed = rc != 0;
    } else if (!failed && r.timed) {
        printf("%s on %s (%s): %" PRIu64 " %s, %s\n", w->name, s.label, s.info.name, r.items, w->unit, r.summary);
        printf("median %.6f s  min %.6f s  max %.6f s  (%" PRIu64 " runs after %" PRIu64 " warm-up)\n", r.median,
               r.min, r.max, r.timed, warmup);
        printf("rate %.4g %s/s (median), digest %s\n", (double)r.items / r.median, w->unit, r.digest);
    }
    ls_session_close(&s);
    free(params);
    return failed ? ls_report(&err) : r.stopped ? ls_exit_interrupted() : 0;
}

/* ---- lockstep devices ---------------------------------------------------- */

/* A string member that is null when the backend did not say. */
static void json_string_member(FILE *out, const char *key, const char *value)
{
    fprintf(out, ",\"%s\":", key);
    if (value[0])
        ls_json_string(out, value);
    else
        fputs("null", out);
}

/* One device of `lockstep devices --json`. */
static void device_json(FILE *out, const ls_backend *b, int index, const ls_device_info *d)
{
    fprintf(out, "{\"device\":\"%s:%d\",\"index\":%d,\"device_name\":", b->name, index, index);
    ls_json_string(out, d->name);
    fprintf(out, ",\"platform\":");
    ls_json_string(out, d->platform);
    json_string_member(out, "vendor", d->vendor);
    json_string_member(out, "driver_version", d->driver);
    json_string_member(out, "opencl_c_version", d->c_version);
    fprintf(out, ",\"clock_mhz\":");
    if (d->clock_mhz > 0)
        fprintf(out, "%d", d->clock_mhz);
    else
        fputs("null", out);
    fprintf(out, ",\"compute_units\":%d,\"memory_bytes\":%" PRIu64 ",\"gpu\":%s}", d->compute_units,
            d->memory_bytes, d->is_gpu ? "true" : "false");
}

/* One device of the table: what runs it, then what a porting report names. */
static void device_text(FILE *out, const ls_backend *b, int index, const ls_device_info *d)
{
    fprintf(out, "%-8s %s:%d  %s [%s], %d compute units, %.1f GiB%s\n", index ? "" : b->name, b->name, index,
            d->name, d->platform, d->compute_units, (double)d->memory_bytes / (1024.0 * 1024.0 * 1024.0),
            d->is_gpu ? ", GPU" : "");
    fprintf(out, "%-8s %*s  vendor %s, driver %s", "", (int)strlen(b->name) + 2, "", d->vendor[0] ? d->vendor : "-",
            d->driver[0] ? d->driver : "-");
    if (d->c_version[0])
        fprintf(out, ", %s", d->c_version);
    if (d->clock_mhz > 0)
        fprintf(out, ", %d MHz", d->clock_mhz);
    fputc('\n', out);
}

/* --specs: what --backend accepts here, one a line (shell completion). */
static void print_specs(FILE *out)
{
    fprintf(out, "auto\n");
    for (int i = 0; ls_backends[i]; i++) {
        const ls_backend *b = ls_backends[i];
        ls_device_info devs[LS_MAX_DEVICES];
        ls_error why = {{0}, 0};
        int n = b->list_devices(devs, LS_MAX_DEVICES, &why);
        if (n <= 0)
            continue;
        fprintf(out, "%s\n", b->name);
        for (int d = 0; d < n; d++)
            fprintf(out, "%s:%d\n", b->name, d);
        fprintf(out, "%s:all\n", b->name);
    }
}

int ls_cmd_devices(int argc, char **argv)
{
    ls_error err = {{0}, 0};
    int json = 0, specs = 0;
    ls_opt opts[] = {
        {"json", LS_OPT_FLAG, &json, 0, 0, NULL, "print one JSON object"},
        {"specs", LS_OPT_FLAG, &specs, 0, 0, NULL,
         "print only the specs --backend accepts here (auto, NAME, NAME:INDEX, NAME:all), one a line"},
    };
    const int nopts = (int)(sizeof opts / sizeof opts[0]);
    int rc = ls_opts_parse(argc, argv, 2, opts, nopts, NULL, NULL, 0, &err);
    if (rc == 1) {
        ls_opts_help(stdout, "lockstep devices [--json | --specs]",
                     "Lists every compiled backend and its devices (name, platform, vendor, driver\n"
                     "version, OpenCL C version, clock, compute units, memory), or why a backend cannot\n"
                     "run here.",
                     opts, nopts);
        return 0;
    }
    if (rc == 0 && json && specs)
        rc = ls_fail_usage(&err, "--json and --specs: choose one");
    if (rc != 0)
        return ls_report(&err);
    /* A default that does not parse ($LOCKSTEP_BACKEND=garbage) is the
     * user's error, said as such. */
    if (ls_default_backend_check(&err) != 0)
        return ls_report(&err);
    ls_buffer b;
    if (ls_buffer_open(&b, &err) != 0)
        return ls_report(&err);
    FILE *out = b.f;
    if (specs) {
        print_specs(out);
        return ls_buffer_emit(&b, stdout, "standard output", &err) == 0 ? 0 : ls_report(&err);
    }
    if (json) {
        fputc('{', out);
        ls_json_provenance(out);
        fprintf(out, ",\"default\":");
        ls_json_string(out, ls_default_backend_spec());
        fprintf(out, ",\"backends\":[");
    } else {
        fprintf(out, "default backend: %s\n", ls_default_backend_spec());
    }
    for (int i = 0; ls_backends[i]; i++) {
        const ls_backend *be = ls_backends[i];
        ls_device_info devs[LS_MAX_DEVICES];
        ls_error why = {{0}, 0};
        int n = be->list_devices(devs, LS_MAX_DEVICES, &why);
        if (json) {
            fprintf(out, "%s{\"backend\":\"%s\",\"available\":%s,", i ? "," : "", be->name, n > 0 ? "true" : "false");
            if (n <= 0) {
                fprintf(out, "\"why\":");
                ls_json_string(out, why.msg);
                fprintf(out, ",");
            }
            fprintf(out, "\"devices\":[");
            for (int d = 0; d < n; d++) {
                fputs(d ? "," : "", out);
                device_json(out, be, d, &devs[d]);
            }
            fprintf(out, "]}");
            continue;
        }
        if (n <= 0) {
            fprintf(out, "%-8s unavailable: %s\n", be->name, why.msg[0] ? why.msg : "no devices");
            continue;
        }
        for (int d = 0; d < n; d++)
            device_text(out, be, d, &devs[d]);
    }
    char mpi[256];
    ls_cluster_library(mpi, sizeof mpi);
    if (json) {
        fprintf(out, "],\"mpi\":");
        if (mpi[0])
            ls_json_string(out, mpi);
        else
            fprintf(out, "null");
        fprintf(out, "}\n");
    } else {
        fprintf(out, "mpi      %s\n", mpi[0] ? mpi : "not built in (graveler, bmn search and ray run in one process)");
    }
    return ls_buffer_emit(&b, stdout, "standard output", &err) == 0 ? 0 : ls_report(&err);
}
