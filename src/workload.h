/* workload.h - what the host program knows about each algorithm.
 *
 * A workload is a struct of function pointers, like a backend: its
 * parameters (with the option table that sets them), one run on an opened
 * device, a printable result with a digest for cross-checks, and its
 * conformance cases. The generic commands (run, check, conformance, bench)
 * work through this table only. */
#ifndef LOCKSTEP_WORKLOAD_H
#define LOCKSTEP_WORKLOAD_H

#include <stdio.h>

#include "backend.h"
#include "cli.h"

/* The outcome of one run. */
typedef struct ls_run {
    char digest[17];   /* 64-bit hash of the whole result, hex */
    char summary[200]; /* one line for tables, e.g. "max 98" */
    double seconds;    /* the computation's own time */
    uint64_t items;    /* work items done (battles, deals, ...) */
    int interrupted;   /* stopped early by Ctrl-C */
    void *data;        /* the full result, owned by the workload */
} ls_run;

/* One conformance case: 1 pass, 0 fail (detail says how), -1 could not
 * run (err says why). */
typedef struct ls_case {
    const char *name;
    int (*run)(ls_session *s, char *detail, size_t detail_len, ls_error *err);
} ls_case;

#define LS_MAX_OPTS 16

typedef struct ls_workload {
    const char *name;
    const char *summary;
    const char *unit; /* what `items` counts */
    /* A custom `lockstep NAME ...` command; NULL for the generic one. */
    int (*command)(const struct ls_workload *w, int argc, char **argv);

    size_t params_size;
    void (*params_default)(void *params);
    /* Turns defaults into the small sizes of `lockstep check all`. */
    void (*params_quick)(void *params);
    /* Fills out[] with options bound to params; returns how many. */
    int (*params_options)(void *params, ls_opt *out, int max);
    int (*params_validate)(void *params, ls_error *err);

    int (*run)(ls_session *s, const void *params, ls_run *out, const ls_progress *progress,
               ls_error *err);
    /* Human-readable or JSON report of a finished run. */
    void (*print)(const void *params, const ls_session *s, const ls_run *run, int json, FILE *out);
    /* Explains how two runs differ (called when digests differ). */
    void (*diff)(const void *params, const ls_run *a, const char *a_name, const ls_run *b,
                 const char *b_name, FILE *out);
    void (*run_free)(ls_run *run);

    const ls_case *cases;
    int ncases;
} ls_workload;

extern const ls_workload *const ls_workloads[]; /* NULL-terminated */
const ls_workload *ls_workload_find(const char *name);

/* FNV-1a over bytes, for digests. */
uint64_t ls_fnv1a(uint64_t h, const void *data, size_t len);
#define LS_FNV_INIT 0xcbf29ce484222325ull

/* The generic commands, in commands.c. */
int ls_cmd_run(const ls_workload *w, int argc, char **argv);
int ls_cmd_check(int argc, char **argv);
int ls_cmd_conformance(int argc, char **argv);
int ls_cmd_bench(int argc, char **argv);
int ls_cmd_devices(int argc, char **argv);

/* Writes s as a JSON string literal. */
void ls_json_string(FILE *out, const char *s);

#endif
