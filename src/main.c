/* main.c - lockstep's command dispatch. */
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "cpu_isa.h"
#include "program_cache.h"
#include "commands/commands.h"
#include "manual.h"
#include "output.h"
#include "progress.h"
#include "version.h"
#include "workload.h"

/* The commands: `lockstep --help`, the dispatch, the man page and the
 * completion all read this one table (the workloads' entries are added at
 * start-up, after devices). */
static int run_devices(const ls_command *c, int argc, char **argv)
{
    (void)c;
    ls_progress_release(); /* it does not act on stop signals: one ends it */
    int rc = ls_cmd_devices(argc, argv);
    if (rc == 0)
        ls_cmd_leave_open(); /* CUDA's contexts, made to ask for free memory */
    return rc;
}

static int run_check(const ls_command *c, int argc, char **argv)
{
    (void)c;
    return ls_cmd_check(argc, argv);
}

static int run_conformance(const ls_command *c, int argc, char **argv)
{
    (void)c;
    return ls_cmd_conformance(argc, argv);
}

static int run_bench(const ls_command *c, int argc, char **argv)
{
    (void)c;
    return ls_cmd_bench(argc, argv);
}

static int run_version(const ls_command *c, int argc, char **argv)
{
    ls_progress_release(); /* as devices */
    ls_common common = {0};
    ls_error err = {{0}, 0};
    ls_opt opts[] = {LS_OPT_JSON(&common), LS_OPT_QUIET(&common)};
    const int n = (int)(sizeof opts / sizeof opts[0]);
    int rc = ls_opts_parse(argc, argv, 2, opts, n, NULL, NULL, 0, &err);
    if (rc == 1) {
        ls_opts_help(stdout, "lockstep version [--json]", c->summary, opts, n);
        return 0;
    }
    if (rc != 0)
        return ls_report(&err);
    if (common.json) {
        putchar('{');
        ls_json_provenance(stdout);
        puts("}");
        return 0;
    }
    printf("lockstep %s%s%s%s\n", ls_version, ls_commit[0] ? " (commit " : "", ls_commit, ls_commit[0] ? ")" : "");
    return 0;
}

static int run_workload(const ls_command *c, int argc, char **argv)
{
    return ls_cmd_workload(c->workload, argc, argv);
}

#define MAX_COMMANDS 32

static const ls_command generic_before[] = {
    {"devices", "", "list backends and devices (and why any are unavailable)", run_devices, NULL, 0, 1},
};
static const ls_command generic_after[] = {
    {"check", "WORKLOAD|all", "run on every backend and compare the results", run_check, NULL, 1, 1},
    {"conformance", "", "golden-answer cases: does this device compute correctly?", run_conformance, NULL, 0, 1},
    {"bench", "WORKLOAD|all", "time a workload (median, mean and spread of repeated runs); all: every workload on every device",
     run_bench, NULL, 1, 1},
    {"version", "", "print the version (and the commit it was built from)", run_version, NULL, 0, 1},
};

/* Fills cmds: devices, each workload, then the generic commands. */
static int command_table(ls_command *cmds)
{
    int n = 0;
    for (size_t i = 0; i < sizeof generic_before / sizeof generic_before[0]; i++)
        cmds[n++] = generic_before[i];
    for (int i = 0; ls_workloads[i] && n < MAX_COMMANDS - 8; i++)
        cmds[n++] = (ls_command){ls_workloads[i]->name, "", ls_workloads[i]->summary, run_workload, ls_workloads[i],
                                 0, 1};
    for (size_t i = 0; i < sizeof generic_after / sizeof generic_after[0]; i++)
        cmds[n++] = generic_after[i];
    return n;
}

static void usage(FILE *out, const ls_command *cmds, int n)
{
    char intro[1024];
    int width = ls_help_width(out);
    ls_manual_intro(intro, sizeof intro);
    fprintf(out, "usage: lockstep COMMAND [options]\n\n");
    ls_help_paragraphs(out, intro, width);
    fprintf(out, "\ncommands:\n");
    for (int i = 0; i < n; i++) {
        char left[64];
        snprintf(left, sizeof left, "%s%s%s", cmds[i].name, cmds[i].args[0] ? " " : "", cmds[i].args);
        ls_help_entry(out, left, cmds[i].summary, width);
    }
    fprintf(out, "\nman lockstep has every command's options.\n");
}

/* Refuses an unknown command, naming the nearest one: exit code 2. */
static int unknown_command(const char *cmd, const ls_command *cmds, int n)
{
    const char *names[MAX_COMMANDS];
    for (int i = 0; i < n; i++)
        names[i] = cmds[i].name;
    const char *near = ls_nearest_name(cmd, names, n);
    if (near)
        fprintf(stderr, "lockstep: unknown command '%s'; did you mean %s? (see lockstep --help)\n", cmd, near);
    else
        fprintf(stderr, "lockstep: unknown command '%s' (see lockstep --help)\n", cmd);
    return 2;
}

/* `lockstep --man` and `lockstep --completion`, run by meson at build
 * time: not for people, so not in --help. */
static int generate(int (*gen)(FILE *, const ls_command *, int, ls_error *), const ls_command *cmds, int n)
{
    ls_error err = {{0}, 0};
    ls_buffer b;
    if (ls_buffer_open(&b, &err) != 0 || gen(b.f, cmds, n, &err) != 0 ||
        ls_buffer_emit(&b, stdout, "standard output", &err) != 0) {
        fprintf(stderr, "lockstep: %s\n", err.msg);
        return 1;
    }
    return 0;
}

static int dispatch(int argc, char **argv)
{
    ls_command cmds[MAX_COMMANDS];
    int n = command_table(cmds);
    if (argc < 2) {
        usage(stderr, cmds, n);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 && argc > 2) {
        /* `lockstep help COMMAND`: that command's --help, as git's and
         * cargo's help do. */
        char help[] = "--help";
        char *args[] = {argv[0], argv[2], help, NULL};
        return dispatch(3, args);
    }
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout, cmds, n);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0)
        cmd = "version";
    if (strcmp(cmd, "--man") == 0) {
        /* --man DOCDIR FILE...: the installed documentation, from meson. */
        ls_manual_set_docs(argc > 2 ? argv[2] : NULL, argv + 3, argc > 3 ? argc - 3 : 0);
        return generate(ls_manual_roff, cmds, n);
    }
    if (strcmp(cmd, "--completion") == 0)
        return generate(ls_manual_bash, cmds, n);
    if (ls_cluster_size() > 1 && !ls_workload_find(cmd))
        return ls_cmd_refuse_ranks(cmd);
    /* Before any command runs CPU code, so that no run starts under a cap
     * it would have to refuse from a device's thread. */
    ls_error err = {{0}, 0};
    if (ls_cpu_isa_check(&err) != 0 || ls_program_cache_check_env(&err) != 0)
        return ls_report(&err);
    for (int i = 0; i < n; i++)
        if (strcmp(cmd, cmds[i].name) == 0)
            return cmds[i].run(&cmds[i], argc, argv);
    return unknown_command(cmd, cmds, n);
}

/* Every command's output is checked once more at the end: whatever stdio
 * still holds must reach its destination, else the exit code says so (a
 * command that failed has said why already: one line is enough). */
int main(int argc, char **argv)
{
    /* First of all: a stop signal that comes while the MPI job is joined
     * or the devices open is remembered, and the run it stops reports. */
    ls_progress_hold_stops();
    ls_error err = {{0}, 0};
    if (ls_debug_stall("start", &err) != 0) {
        fprintf(stderr, "lockstep: %s\n", err.msg);
        return 2;
    }
    if (ls_cluster_start(&argc, &argv, &err) != 0) {
        fprintf(stderr, "lockstep: %s\n", err.msg);
        return 1;
    }
    /* In an MPI job rank 0 alone prints results (and --help). */
    if (ls_cluster_rank() > 0 && !freopen("/dev/null", "w", stdout)) {
        fprintf(stderr, "lockstep: rank %d could not silence its standard output\n", ls_cluster_rank());
        ls_cluster_abort(1);
    }
    ls_set_program_name(argv[0]);
    int rc = dispatch(argc, argv);
    if (ls_close_stdout(&err) != 0 && rc == 0) {
        fprintf(stderr, "lockstep: %s\n", err.msg);
        rc = 1;
    }
    ls_cluster_finish();
    /* A stop signal that no command acted on (it came before a command
     * that acts on them began, or to one that does not) ends the process
     * by that signal, as it would have without the handlers. */
    ls_progress_release();
    return ls_cmd_end(rc);
}
