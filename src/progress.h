/* progress.h - a one-line progress display on stderr for long runs.
 *
 * Shown only when stderr is a terminal, --quiet is not given, and the run
 * has already taken about 2 s (short runs stay silent). Also carries the
 * stop flag: once SIGINT, SIGTERM or SIGHUP arrives (after
 * ls_progress_catch_sigint), the report callback asks the backend to stop. */
#ifndef LOCKSTEP_PROGRESS_H
#define LOCKSTEP_PROGRESS_H

#include "backend.h"

typedef struct ls_progress_bar {
    const char *label; /* e.g. "graveler on cuda:0" */
    const char *unit;  /* e.g. "battles" */
    int enabled;
    int shown;
    double start, last_draw;
} ls_progress_bar;

/* Prepares bar and returns the ls_progress to pass to a backend. */
ls_progress ls_progress_start(ls_progress_bar *bar, const char *label, const char *unit, int quiet);
/* Clears the line if anything was drawn. */
void ls_progress_finish(ls_progress_bar *bar);

/* After this, Ctrl-C, SIGTERM and SIGHUP set a flag that the report
 * callback turns into a stop request instead of killing the process. */
void ls_progress_catch_sigint(void);
int ls_progress_interrupted(void);

double ls_now(void);

#endif
