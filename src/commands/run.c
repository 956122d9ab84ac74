/* run.c - `lockstep WORKLOAD [options]`: one run of a workload, on one
 * device, a set of them, or the ranks of an MPI job, reported and its
 * output files written. */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "commands.h"
#include "output.h"
#include "progress.h"
#include "program_cache.h"
#include "set_run.h"
#include "version.h"

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
    int n = ls_cmd_bound_options(w, params, 1, opts);
    ls_buffer b;
    ls_error err;
    if (ls_buffer_open(&b, &err) != 0)
        return NULL;
    fprintf(b.f, "lockstep %s, program %016" PRIx64 "\n%s\n", ls_version, program_hash(), w->name);
    char value[256];
    for (int i = 0; i < n; i++) {
        const ls_opt *o = &opts[i];
        uint64_t count = o->kind == LS_OPT_COUNT || o->kind == LS_OPT_U64 ? *(const uint64_t *)o->target : 0;
        if (o->kind == LS_OPT_FLAG)
            fprintf(b.f, "--%s %s\n", o->name, *(const int *)o->target ? "given" : "not given");
        else if (w->params_canonical && w->params_canonical(params, o->name, value, sizeof value))
            fprintf(b.f, "--%s %s\n", o->name, value);
        else if (o->kind == LS_OPT_STRING)
            fprintf(b.f, "--%s %s\n", o->name, *(const char **)o->target ? *(const char **)o->target : "(not given)");
        else if (o->kind == LS_OPT_COUNT && count < o->min)
            fprintf(b.f, "--%s (not given)\n", o->name); /* below its range: the option's "unset" */
        else
            fprintf(b.f, "--%s %" PRIu64 "\n", o->name, count);
    }
    if (fclose(b.f) != 0) {
        b.f = NULL;
        ls_buffer_discard(&b);
        return NULL;
    }
    return b.data;
}

typedef struct preparing {
    const ls_workload *w;
    void *params;
    ls_error err;
    int rc;
} preparing;

static void *prepare_inputs(void *arg)
{
    preparing *p = arg;
    p->rc = p->w->prepare(p->params, &p->err);
    return NULL;
}

/* Opens the set while the workload reads its inputs (w->prepare) on a
 * thread of its own. The devices open on this thread, as they always
 * have: a driver may leave things behind on the thread that first calls
 * it (LLVM in PoCL gives it an alternate signal stack of its own). Under
 * mpirun the ranks open their devices and agree on it first, as ever,
 * and the run reads its inputs. 0; -1 with err set, the input's fault
 * first (the user's), else the devices'. */
static int open_while_preparing(const ls_workload *w, void *params, const char *spec, ls_set *set, ls_error *err)
{
    if (!w->prepare || ls_cluster_size() > 1)
        return ls_set_open(spec, set, err);
    preparing prep = {w, params, {{0}, 0}, -1};
    pthread_t thread;
    int threaded = pthread_create(&thread, NULL, prepare_inputs, &prep) == 0;
    if (!threaded)
        prepare_inputs(&prep);
    int opened = ls_set_open(spec, set, err);
    if (threaded)
        pthread_join(thread, NULL);
    if (prep.rc != 0) {
        if (opened == 0)
            ls_set_close(set);
        *err = prep.err;
        return -1;
    }
    return opened;
}

/* Whether w's run has a --timings of its own (Life's phases); the others
 * get the command's: opening the devices and the run. */
static int has_own_timings(const ls_workload *w, void *params)
{
    ls_opt opts[LS_MAX_OPTS * 2];
    int n = ls_cmd_bound_options(w, params, 1, opts);
    for (int i = 0; i < n; i++)
        if (strcmp(opts[i].name, "timings") == 0)
            return 1;
    return 0;
}

/* --timings of the whole process: "launch" (from the process's start to
 * the devices' open) before the run's phases, "finish" (the result
 * sealed, the outputs put in place) after them, and the seconds since the
 * process started, which they add up to (issue 36). Nothing where no
 * phases were asked for, or the process's start cannot be read. */
static void whole_process_phases(ls_phases *p, double launch, double finish)
{
    if (p->n == 0 || p->n + 2 > LS_MAX_PHASES || launch < 0)
        return;
    memmove(p->name + 1, p->name, (size_t)p->n * sizeof *p->name);
    memmove(p->seconds + 1, p->seconds, (size_t)p->n * sizeof *p->seconds);
    memmove(p->slowest + 1, p->slowest, (size_t)p->n * sizeof *p->slowest);
    p->name[0] = "launch";
    p->seconds[0] = launch;
    p->slowest[0] = -1;
    p->name[p->n + 1] = "finish";
    p->seconds[p->n + 1] = finish;
    p->slowest[p->n + 1] = -1;
    p->n += 2;
    double age = ls_process_age();
    p->since_start = age > 0 ? age : 0;
}

static void free_params(const ls_workload *w, void *params)
{
    if (w->params_free)
        w->params_free(params);
    free(params);
}

int ls_cmd_run(const ls_workload *w, int argc, char **argv, int first, const char *usage, const char *summary)
{
    ls_common c = {0};
    ls_error err = {{0}, 0};
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
    int timings = 0;
    ls_opt extra[8];
    int nextra = 0;
    extra[nextra++] = (ls_opt)LS_OPT_BACKEND(&c);
    extra[nextra++] = (ls_opt)LS_OPT_JSON(&c);
    extra[nextra++] = (ls_opt)LS_OPT_QUIET(&c);
    extra[nextra++] = (ls_opt)LS_OPT_PROGRESS_EVERY(&c);
    extra[nextra++] = (ls_opt)LS_OPT_NO_CACHE(&c);
    if (!has_own_timings(w, params))
        extra[nextra++] = (ls_opt){"timings", LS_OPT_FLAG, &timings, 0, 0, NULL,
                                   "say where the run's time went, in wall seconds: opening the devices, the run, "
                                   "and the GPU programs built or loaded from the cache (--json: \"timings\")",
                                   NULL, NULL};
    if (w->write_outputs) /* --sync only where the run writes files */
        extra[nextra++] = (ls_opt)LS_OPT_SYNC(&c);
    int rc = ls_cmd_parse_params(w, params, 1, argc, argv, first, extra, nextra, usage, summary, &err);
    ls_output_set_sync(c.sync);
    ls_program_cache_bypass(c.no_cache ? "--no-cache" : NULL);
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
            /* Every rank knows (the message names the ranks): one says it. */
            if (ls_cluster_rank() == 0)
                fprintf(stderr, "lockstep: %s\n", differ.msg);
            free(params);
            return differ.usage ? 2 : 1;
        }
    }
    if (rc != 0) {
        free(params);
        return rc == 1 ? 0 : ls_report(&err);
    }
    /* Every rank opens its devices; all go on only when all could. A stop
     * signal from here on (while the input is read ahead) stops the run
     * at its first chunk, which reports what was done. */
    ls_progress_catch_sigint();
    /* This process opens no device but these: a driver that initialises
     * every GPU it sees is shown these alone (cuda:0 on a host of four:
     * issue 36), before the input's thread starts. */
    double launch = ls_process_age(); /* the process's start to here: --timings' "launch" */
    ls_set_narrow(c.backend);
    ls_set s;
    int opened = open_while_preparing(w, params, c.backend, &s, &err) == 0;
    int failed_ranks = ls_cluster_count_failed(opened);
    if (!opened || failed_ranks) {
        free_params(w, params);
        if (!opened)
            return ls_progress_interrupted() && !err.usage ? ls_cmd_stopped(&err) : ls_report(&err);
        ls_set_close(&s);
        if (ls_cluster_rank() == 0)
            fprintf(stderr, "lockstep: %d MPI rank%s could not open %s devices; nothing was run\n", failed_ranks,
                    failed_ranks == 1 ? "" : "s", failed_ranks == 1 ? "its" : "their");
        return ls_progress_interrupted() ? ls_exit_interrupted() : 1;
    }
    char label[300];
    snprintf(label, sizeof label, "%s on %s", w->name, ls_cluster_size() > 1 ? "every rank" : s.label);
    ls_progress_bar bar;
    ls_progress prog = ls_progress_start(&bar, label, w->unit, c.quiet, c.progress_every, s.job.rank, s.job.size);
    ls_run run;
    double t_run = ls_now();
    rc = ls_cmd_run_workload(w, &s, params, &run, &prog, &err);
    double t_ran = ls_now();
    ls_progress_finish(&bar);
    if (rc == 0 && timings)
        run.phases = (ls_phases){.n = 2,
                                 .name = {"open", "run"},
                                 .seconds = {s.open_seconds, t_ran - t_run},
                                 .slowest = {-1, -1}};
    if (rc == 0 && run.report.computed_only) {
        /* Another rank than 0: rank 0 reports and writes the files; a run
         * that rank 0 stopped on a signal ends every rank with its code. */
        int stopped = run.interrupted || run.report.interrupted;
        w->run_free(&run);
        if (stopped)
            rc = ls_exit_interrupted();
    } else if (rc == 0) {
        /* A run that did not finish reports what it did and writes no
         * output file: each stays as it was. */
        int finished = !run.interrupted;
        rc = ls_run_seal(w, params, &s, &run, &err);
        if (rc == 0 && finished && w->write_outputs)
            rc = w->write_outputs(params, &run, &err);
        if (rc == 0)
            whole_process_phases(&run.phases, launch, ls_now() - t_ran);
        if (rc == 0)
            rc = ls_cmd_emit(w, params, &s, &run, c.json, &err);
        if (rc == 0 && w->next_steps)
            w->next_steps(params, &run, stderr);
        w->run_free(&run);
        if (rc == 0 && !finished)
            rc = ls_exit_interrupted();
    }
    if (rc == 0 && ls_cmd_may_leave_open()) {
        /* Every output is in place and the report written: the devices
         * (their contexts: 0.09-0.18 s to tear down) and the memory are
         * left to the process's end (ls_cmd_end). */
        ls_cmd_leave_open();
        return 0;
    }
    ls_set_close(&s);
    free_params(w, params);
    if (rc > 1)
        return rc; /* interrupted: the report said what was done */
    /* What failed while a stop was requested (a driver's call that the
     * signal broke; a write's wait for its reader that it ended) stopped
     * as a run the signal interrupts does: 128 + N, the message says
     * what, and no output file was written. */
    int stopped = rc != 0 && ls_progress_interrupted();
    if (rc != 0 && ls_cluster_size() > 1 && !(err.usage & LS_ERROR_EVERY_RANK)) {
        /* The other ranks may be waiting on this one: end them all, this
         * rank having said why (a usage error too: it is this rank's). */
        if (stopped)
            ls_cluster_abort(ls_cmd_stopped(&err));
        fprintf(stderr, "lockstep (rank %d on %s): %s\n", ls_cluster_rank(), ls_cluster_host(), err.msg);
        ls_cluster_abort(1);
    }
    return rc == 0 ? 0 : stopped ? ls_cmd_stopped(&err) : ls_report(&err);
}

/* `lockstep NAME` of a workload with subcommands, without one or with
 * --help: the usage line of each, then what they are. */
static int subcommands_usage(const ls_workload *w, FILE *out)
{
    int width = ls_help_width(out);
    for (int i = 0; i < w->nsubcommands; i++)
        ls_help_usage(out, i ? "       " : "usage: ", w->subcommands[i].usage, width);
    fputc('\n', out);
    ls_help_paragraphs(out, w->subcommands_about, width);
    return out == stdout ? 0 : 2;
}

/* "play, search or report" */
static void subcommand_names(const ls_workload *w, char *out, size_t len)
{
    out[0] = 0;
    for (int i = 0; i < w->nsubcommands; i++) {
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%s", i == 0 ? "" : i + 1 < w->nsubcommands ? ", " : " or ",
                 w->subcommands[i].name);
    }
}

int ls_cmd_workload(const ls_workload *w, int argc, char **argv)
{
    if (!w->nsubcommands)
        return ls_cmd_run(w, argc, argv, 2, w->usage, w->summary);
    const char *sub = argc > 2 ? argv[2] : NULL;
    const ls_subcommand *found = NULL;
    for (int i = 0; sub && i < w->nsubcommands; i++)
        if (strcmp(sub, w->subcommands[i].name) == 0)
            found = &w->subcommands[i];
    /* Only the workload's run spreads over the ranks of an MPI job. */
    if (ls_cluster_size() > 1 && !(found && !found->run)) {
        char what[96];
        snprintf(what, sizeof what, "%s%s%s", w->name, found ? " " : "", found ? found->name : "");
        return ls_cmd_refuse_ranks(what);
    }
    if (found && found->run) {
        ls_progress_release(); /* it does not act on stop signals: one ends it */
        return found->run(argc, argv);
    }
    if (found) {
        char usage[96];
        snprintf(usage, sizeof usage, "lockstep %s %s [options]", w->name, found->name);
        return ls_cmd_run(w, argc, argv, 3, usage, found->summary ? found->summary : w->summary);
    }
    if (sub && strcmp(sub, "--help") != 0 && strcmp(sub, "-h") != 0) {
        char names[160];
        const char **each = malloc((size_t)w->nsubcommands * sizeof *each);
        for (int i = 0; each && i < w->nsubcommands; i++)
            each[i] = w->subcommands[i].name;
        const char *near = each ? ls_nearest_name(sub, each, w->nsubcommands) : NULL; /* no memory: no guess */
        free(each);
        subcommand_names(w, names, sizeof names);
        fprintf(stderr, "lockstep: %s: unknown subcommand '%s'%s%s%s (expected %s)\n", w->name, sub,
                near ? "; did you mean " : "", near ? near : "", near ? "?" : "", names);
        return 2;
    }
    return subcommands_usage(w, sub ? stdout : stderr);
}
