/* common.c - what the commands share: a workload's options bound to its
 * parameters and parsed, its parameters as JSON, its small sizes. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster.h"
#include "commands.h"
#include "gpu_timer.h"
#include "leak_check.h"
#include "progress.h"

/* ---- how a command ends (commands.h) ---------------------------------------- */

static int left_open;

int ls_cmd_may_leave_open(void)
{
#ifdef LS_LEAK_SANITIZER
    return 0;
#else
    const char *how = getenv("LOCKSTEP_DEBUG_EXIT");
    return !(how && strcmp(how, "teardown") == 0);
#endif
}

void ls_cmd_leave_open(void)
{
    left_open = ls_cmd_may_leave_open();
}

/* Coverage builds write their counts from an exit handler: written here
 * first (a weak reference: no such function elsewhere). */
extern void __gcov_dump(void) __attribute__((weak));

int ls_cmd_end(int rc)
{
    const char *how = getenv("LOCKSTEP_DEBUG_EXIT");
    int quick = left_open && rc == 0;
#ifdef LS_LEAK_SANITIZER
    const char *why_handlers = " (a leak-sanitizer build: they check for leaks)";
#else
    const char *why_handlers = "";
#endif
    if (how && strcmp(how, "say") == 0)
        fprintf(stderr, "lockstep: %s%s\n",
                quick ? "ended with the devices left to the process's end" : "ended through the exit handlers",
                quick ? "" : why_handlers);
    if (!quick)
        return rc;
    if (__gcov_dump)
        __gcov_dump();
    fflush(NULL);
    _exit(rc);
}

/* The option table of w bound to params: its parameters, and with `run`
 * the run command's own options (output files, checkpoints) after them.
 * opts holds LS_MAX_OPTS * 2; returns how many. */
int ls_cmd_bound_options(const ls_workload *w, void *params, int run, ls_opt *opts)
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
int ls_cmd_parse_params(const ls_workload *w, void *params, int run, int argc, char **argv, int first,
                        const ls_opt *extra, int nextra, const char *usage, const char *summary, ls_error *err)
{
    ls_opt opts[LS_MAX_OPTS * 2];
    w->params_default(params);
    int n = ls_cmd_bound_options(w, params, run, opts); /* at most LS_MAX_OPTS: room for as many extra */
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
void ls_cmd_params_json(FILE *out, const ls_workload *w, const void *params, int run)
{
    ls_opt opts[LS_MAX_OPTS * 2];
    int n = ls_cmd_bound_options(w, (void *)params, run, opts);
    options_json(out, opts, n);
}

/* w's parameters at the small sizes of `check all` and `bench all`
 * (malloc'ed), or NULL with err set. */
void *ls_cmd_quick_params(const ls_workload *w, ls_error *err)
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

int ls_cmd_run_workload(const ls_workload *w, ls_set *set, const void *params, ls_run *run,
                        const ls_progress *progress, ls_error *err)
{
    uint64_t rejected = ls_gpu_timer_rejected(&set->dev[0]);
    if (ls_gpu_timer_check_debug(err) != 0 || w->run(set, params, run, progress, err) != 0)
        return -1;
    ls_set_clock(set, rejected, &run->report.clock);
    return 0;
}

int ls_cmd_wider(int width, const char *cell)
{
    size_t len = strlen(cell);
    return len > (size_t)width ? (int)len : width;
}

void ls_clock_json(FILE *out, const ls_clock *clock)
{
    fprintf(out, "\"clock\":\"%s\",\"clock_fallback\":", ls_clock_name(clock));
    if (clock->why[0])
        ls_json_string(out, clock->why);
    else
        fputs("null", out);
}

void ls_cmd_set_workloads(char *out, size_t len)
{
    const ls_workload *const *on = ls_workloads;
    int n = 0;
    while (on[n])
        n++;
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        const char *sub = "";
        for (int k = 0; k < on[i]->nsubcommands; k++)
            if (!on[i]->subcommands[k].run)
                sub = on[i]->subcommands[k].name; /* bmn search */
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%s%s%s", i == 0 ? "" : i + 1 < n ? ", " : " and ", on[i]->name,
                 sub[0] ? " " : "", sub);
    }
    if (n == 0)
        snprintf(out, len, "no workload");
}

int ls_cmd_refuse_ranks(const char *command)
{
    char which[160];
    ls_cmd_set_workloads(which, sizeof which);
    if (ls_cluster_rank() == 0)
        fprintf(stderr, "lockstep: %s runs in one process; under mpirun only %s run across ranks\n", command, which);
    return 2;
}

int ls_cmd_stopped(ls_error *err)
{
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "stopped by %s, which interrupted what was under way: %.440s", ls_progress_signal_name(),
             err->msg);
    memcpy(err->msg, msg, sizeof msg);
    ls_report(err);
    return ls_exit_interrupted();
}

int ls_cmd_unknown_workload(const char *what, const char *name, const char *also, const char *see, ls_error *err)
{
    int n = 0;
    while (ls_workloads[n])
        n++;
    const char **names = malloc((size_t)(n + 1) * sizeof *names);
    for (int i = 0; names && i < n; i++)
        names[i] = ls_workloads[i]->name;
    if (names && also)
        names[n] = also;
    const char *near = names ? ls_nearest_name(name, names, n + (also != NULL)) : NULL; /* no memory: no guess */
    free(names);
    return ls_fail_usage(err, "%s: unknown workload '%s'%s%s%s%s%s%s", what, name, near ? "; did you mean " : "",
                         near ? near : "", near ? "?" : "", see ? " (see " : "", see ? see : "", see ? ")" : "");
}
