/* progress.h - progress of long runs on stderr.
 *
 * On a terminal: one line redrawn in place, once the run has taken about
 * 2 s (short runs stay silent). Without one (a batch job, a log file):
 * a whole line every 60 s, and under MPI from rank 0 (whose stderr mpirun
 * collects) every 10 s. --progress-every SECONDS asks for whole lines at
 * that interval, terminal or not; --quiet turns it all off. A line says
 * how far (in the workload's steps where it has them: "generation 120 of
 * 200"), how fast and how long is left, how long ago the run last saved
 * its state (ls_progress.saved: a search's checkpoint), with the
 * workload's own detail where it gives one (ls_progress.progress_detail).
 * Also carries the stop flag: once SIGINT, SIGTERM or SIGHUP arrives
 * (after ls_progress_catch_sigint), the report callback asks the backend
 * to stop. */
#ifndef LOCKSTEP_PROGRESS_H
#define LOCKSTEP_PROGRESS_H

#include <stdint.h>

#include "backend.h"

typedef struct ls_progress_bar {
    const char *label; /* e.g. "graveler on cuda:0" */
    const char *unit;  /* e.g. "battles" */
    int enabled;
    int lines;         /* whole lines every `every` seconds, instead of one line redrawn */
    double every;      /* seconds between whole lines */
    int shown;
    double start, last_draw;
    uint64_t done_before; /* done by earlier runs (ls_progress.resumed): not this run's rate */
    double saved_at;      /* ls_now() of the last save (ls_progress.saved); 0: none yet */
    const char *step;     /* what the work goes in (ls_progress.stepped): "generation"; NULL: none */
    uint64_t step_items;  /* items a step */
    char detail[512]; /* each device's rate, when several share the run */
    char note[256];   /* the workload's own detail */
} ls_progress_bar;

#define LS_PROGRESS_LINE_SECONDS 60.0     /* no terminal */
#define LS_PROGRESS_MPI_LINE_SECONDS 10.0 /* rank 0 of an MPI job */

/* Prepares bar and returns the ls_progress to pass to a backend.
 * every_seconds: --progress-every (whole lines at that interval), or 0 for
 * the default of the place stderr goes to. rank of ranks: this process's
 * place in its MPI job (0 of 1 without one), whose rank 0 alone speaks. */
ls_progress ls_progress_start(ls_progress_bar *bar, const char *label, const char *unit, int quiet,
                              uint64_t every_seconds, int rank, int ranks);
/* Clears the line if anything was drawn. */
void ls_progress_finish(ls_progress_bar *bar);

/* After this, Ctrl-C, SIGTERM, SIGHUP, SIGUSR1 and SIGUSR2 set a flag
 * that the report callback turns into a stop request instead of killing
 * the process, and that ends an output's wait for a reader
 * (ls_output_set_stop). */
void ls_progress_catch_sigint(void);
int ls_progress_interrupted(void);
/* The stop signal that came (0: none). */
int ls_progress_signal(void);
/* A stop that another rank of the job received: the flag is set as if
 * signal sig had come here (nothing when one already came), so that every
 * rank stops at the same chunk and exits with the same code. */
void ls_progress_stop(int sig);
/* The exit code of a command that stopped before it finished because a
 * signal came: 128 + its number, as a shell reports a process the signal
 * killed (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP). The report of
 * what was done is printed first, and no output file is written. */
int ls_exit_interrupted(void);

double ls_now(void);

#endif
