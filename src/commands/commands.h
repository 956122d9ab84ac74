/* commands.h - the command layer: the commands that work for every
 * workload (each in its own file of src/commands/) and the pieces they
 * share. The workloads never include this: main.c dispatches to a
 * workload's entry here, never the other way round. */
#ifndef LOCKSTEP_COMMANDS_H
#define LOCKSTEP_COMMANDS_H

#include <stdio.h>

#include "workload.h"

/* The commands. `first` is the index in argv of the first option (2 for
 * `lockstep graveler ...`, 3 for `lockstep bmn search`); `usage` and
 * `summary` are what the run's --help says above its options. */
int ls_cmd_run(const ls_workload *w, int argc, char **argv, int first, const char *usage, const char *summary);
/* `lockstep NAME ...` of a workload: its run, or the subcommand named. */
int ls_cmd_workload(const ls_workload *w, int argc, char **argv);
int ls_cmd_check(int argc, char **argv);
int ls_cmd_conformance(int argc, char **argv);
int ls_cmd_bench(int argc, char **argv);
int ls_cmd_devices(int argc, char **argv);

/* How a command that succeeded ends (issue 36). Once its outputs are in
 * place and its report is written, a command that opened devices may
 * leave them, and its memory, to the process's end instead of closing
 * them one by one: ls_cmd_leave_open says so, where ls_cmd_may_leave_open
 * allows it; main then flushes and checks stdout as ever, and ends with
 * _exit (ls_cmd_end), skipping the exit handlers (the CUDA runtime's
 * teardown of its contexts). Not under a leak sanitizer (whose check is
 * an exit handler), nor with LOCKSTEP_DEBUG_EXIT=teardown (every device
 * closed and the runtimes' handlers run: the A/B of a batch).
 * LOCKSTEP_DEBUG_EXIT=say: a line on stderr says which way it ended. */
int ls_cmd_may_leave_open(void);
void ls_cmd_leave_open(void);
/* main's last step: returns rc, or ends the process with it (_exit) when
 * a command left its devices open and rc is 0. */
int ls_cmd_end(int rc);

/* The option table of w bound to params: its parameters, and with `run`
 * the run command's own options (output files, checkpoints) after them.
 * opts holds LS_MAX_OPTS * 2; returns how many. */
int ls_cmd_bound_options(const ls_workload *w, void *params, int run, ls_opt *opts);

/* Parameters of w with their option table, plus the run command's own
 * options when `run` is set, plus `extra` options of the command itself,
 * plus positional arguments for the run command; returns 0, 1 (help
 * printed) or -1 (err set). */
int ls_cmd_parse_params(const ls_workload *w, void *params, int run, int argc, char **argv, int first,
                        const ls_opt *extra, int nextra, const char *usage, const char *summary, ls_error *err);

/* The parameters of w as `"params":{...}` (with the run command's own
 * options when `run` is set). */
void ls_cmd_params_json(FILE *out, const ls_workload *w, const void *params, int run);

/* w's parameters at the small sizes of `check all` and `bench all`
 * (malloc'ed), or NULL with err set. */
void *ls_cmd_quick_params(const ls_workload *w, ls_error *err);

/* One run of w on the set (w->run), with the clock its seconds were
 * taken with in run->report.clock: every command runs a workload through
 * this. 0, or -1 with err set. */
int ls_cmd_run_workload(const ls_workload *w, ls_set *set, const void *params, ls_run *run,
                        const ls_progress *progress, ls_error *err);

/* The width of a table's column once `cell` is in it: the larger of
 * `width` and the cell's, so that no cell overflows its column. */
int ls_cmd_wider(int width, const char *cell);

/* The clock of a time as JSON members: "clock":"device" or "wall", and
 * "clock_fallback": why a GPU's timer was not believed, or null. */
void ls_clock_json(FILE *out, const ls_clock *clock);

/* Every conformance case, in the order they run (the float rule first),
 * into out[0..max): how many. For --list and shell completion. */
int ls_cmd_conformance_cases(const ls_case **out, int max);

/* The workloads, which all run on a set and across MPI ranks, as the
 * messages name them: "A, B and C SUB" (SUB: the subcommand that is a
 * workload's run). */
void ls_cmd_set_workloads(char *out, size_t len);

/* Refuses a workload name that names none: "WHAT: unknown workload 'NAME';
 * did you mean life? (see SEE)", the guess the nearest of the workloads
 * and `also` (all, float; or NULL), where one is near; SEE or NULL. -1
 * with err set (a usage error). */
int ls_cmd_unknown_workload(const char *what, const char *name, const char *also, const char *see, ls_error *err);

/* For a command that runs in one process, started as several ranks: rank
 * 0 says so (once for the job); returns exit code 2. */
int ls_cmd_refuse_ranks(const char *command);

/* A failure that came while a stop was requested (ls_progress_interrupted):
 * the signal's doing, not the device's or the run's (a driver whose call
 * the signal broke: PoCL's program build; a write's wait for its reader
 * that the signal ended). Says so with err's message and returns the
 * exit code of a stopped command, 128 + the signal. Never a failure (1). */
int ls_cmd_stopped(ls_error *err);

/* Writes a run's whole report (its JSON document with `json`, else the
 * workload's report for people) to stdout at once, or to stderr when the
 * run's output went to stdout. 0, or -1 with err set. */
int ls_cmd_emit(const ls_workload *w, const void *params, const ls_set *s, const ls_run *run, int json,
                ls_error *err);

#endif
