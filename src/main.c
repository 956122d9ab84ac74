/* main.c - lockstep's command dispatch. */
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "output.h"
#include "version.h"
#include "workload.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: lockstep COMMAND [options]\n\n"
            "Runs the same algorithms on OpenMP, OpenCL and CUDA and checks that they agree.\n\n"
            "commands:\n"
            "  devices                  list backends and devices (and why any are unavailable)\n");
    for (int i = 0; ls_workloads[i]; i++)
        fprintf(out, "  %-24s %s\n", ls_workloads[i]->name, ls_workloads[i]->summary);
    fprintf(out,
            "  check WORKLOAD|all       run on every backend and compare the results\n"
            "  conformance              golden-answer cases: does this device compute correctly?\n"
            "  bench WORKLOAD           time a workload (median of repeated runs)\n"
            "  version                  print the version\n\n"
            "Every command takes --help. --backend NAME[:INDEX] picks the device (default\n"
            "$LOCKSTEP_BACKEND, else auto: a CUDA GPU, else an OpenCL GPU, else OpenMP);\n"
            "graveler and bmn search also take NAME:all or a list (cuda:0,openmp) and run\n"
            "across MPI ranks under mpirun, with the same result as one device.\n");
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("lockstep %s%s%s%s\n", ls_version, ls_commit[0] ? " (commit " : "", ls_commit,
               ls_commit[0] ? ")" : "");
        return 0;
    }
    if (ls_cluster_size() > 1 && !(ls_workload_find(cmd) && ls_workload_find(cmd)->scales))
        return ls_cluster_refuse(cmd);
    if (strcmp(cmd, "devices") == 0)
        return ls_cmd_devices(argc, argv);
    if (strcmp(cmd, "check") == 0)
        return ls_cmd_check(argc, argv);
    if (strcmp(cmd, "conformance") == 0)
        return ls_cmd_conformance(argc, argv);
    if (strcmp(cmd, "bench") == 0)
        return ls_cmd_bench(argc, argv);
    const ls_workload *w = ls_workload_find(cmd);
    if (w)
        return w->command ? w->command(w, argc, argv) : ls_cmd_run(w, argc, argv, 2, w->usage);
    fprintf(stderr, "lockstep: unknown command '%s' (see lockstep --help)\n", cmd);
    return 2;
}

/* Every command's output is checked once more at the end: whatever stdio
 * still holds must reach its destination, else the exit code says so (a
 * command that failed has said why already: one line is enough). */
int main(int argc, char **argv)
{
    ls_error err = {{0}, 0};
    if (ls_cluster_start(&argc, &argv, &err) != 0) {
        fprintf(stderr, "lockstep: %s\n", err.msg);
        return 1;
    }
    /* In an MPI job rank 0 alone prints results (and --help). */
    if (ls_cluster_rank() > 0 && !freopen("/dev/null", "w", stdout)) {
        fprintf(stderr, "lockstep: rank %d could not silence its standard output\n", ls_cluster_rank());
        ls_cluster_abort(1);
    }
    int rc = dispatch(argc, argv);
    if (ls_close_stdout(&err) != 0 && rc == 0) {
        fprintf(stderr, "lockstep: %s\n", err.msg);
        rc = 1;
    }
    ls_cluster_finish();
    return rc;
}
