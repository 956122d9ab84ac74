/* progress.h - a one-line progress display on stderr for long runs.
 *
 * Shown only when stderr is a terminal, --quiet is not given, and the run
 * has already taken about 2 s (short runs stay silent). Rank 0 of an MPI
 * job (whose stderr mpirun collects) prints a whole line every 10 s
 * instead. Also carries the
 * stop flag: once SIGINT, SIGTERM or SIGHUP arrives (after
 * ls_progress_catch_sigint), the report callback asks the backend to stop. */
#ifndef LOCKSTEP_PROGRESS_H
#define LOCKSTEP_PROGRESS_H

#include "backend.h"

typedef struct ls_progress_bar {
    const char *label; /* e.g. "graveler on cuda:0" */
    const char *unit;  /* e.g. "battles" */
    int enabled;
    int lines; /* whole lines every LS_PROGRESS_LINE_SECONDS (no terminal: an MPI job's rank 0) */
    int shown;
    double start, last_draw;
    char detail[512]; /* each device's rate, when several share the run */
} ls_progress_bar;

#define LS_PROGRESS_LINE_SECONDS 10.0

/* Prepares bar and returns the ls_progress to pass to a backend. */
ls_progress ls_progress_start(ls_progress_bar *bar, const char *label, const char *unit, int quiet);
/* Clears the line if anything was drawn. */
void ls_progress_finish(ls_progress_bar *bar);

/* After this, Ctrl-C, SIGTERM and SIGHUP set a flag that the report
 * callback turns into a stop request instead of killing the process. */
void ls_progress_catch_sigint(void);
int ls_progress_interrupted(void);
/* The exit code of a command that stopped before it finished because a
 * signal came: 128 + its number, as a shell reports a process the signal
 * killed (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP). The report of
 * what was done is printed first, and no output file is written. */
int ls_exit_interrupted(void);

double ls_now(void);

#endif
