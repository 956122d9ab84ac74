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
 * (ls_progress_hold_stops), the report callback asks the backend to
 * stop. */
#ifndef LOCKSTEP_PROGRESS_H
#define LOCKSTEP_PROGRESS_H

#include <stdint.h>

#include "backend.h"
#include "error.h"

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

/* Stop signals (SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2) from the very
 * start: main calls this first, before an MPI job is joined and any
 * device is opened, so that a signal that comes then is remembered, not
 * the end of the process. A command that
 * acts on stops says so with ls_progress_catch_sigint; one that does not
 * lets them end it as ever (ls_progress_release). Whatever the command, a
 * second SIGINT or SIGTERM ends the process at once with 128 + its number:
 * a run stuck in a device call (a driver's program build that never
 * returns) ends so. Its output files are whole or absent (each is renamed
 * into place whole; the temporary files of writes under way are removed:
 * ls_output_abandon). */
void ls_progress_hold_stops(void);
/* The command acts on stops: from here on a stop signal sets a flag that
 * the report callback turns into a stop request, that the command's loops
 * read, and that ends an output's wait for a reader (ls_output_set_stop).
 * A signal that came since ls_progress_hold_stops is acted on too. */
void ls_progress_catch_sigint(void);
/* For a command that does not act on stops (devices, version, help): the
 * stop signals end the process again, as without handlers, and one that
 * came already ends it now. Nothing once ls_progress_catch_sigint was
 * called. main calls it last, so that no signal is ever lost. */
void ls_progress_release(void);
int ls_progress_interrupted(void);
/* The stop signal that came (0: none), and its name ("SIGTERM"). */
int ls_progress_signal(void);
const char *ls_progress_signal_name(void);
/* A stop that another rank of the job received: the flag is set as if
 * signal sig had come here (nothing when one already came), so that every
 * rank stops at the same chunk and exits with the same code. */
void ls_progress_stop(int sig);
/* The exit code of a command that stopped before it finished because a
 * signal came: 128 + its number, as a shell reports a process the signal
 * killed (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP). The report of
 * what was done is printed first, and no output file is written. */
int ls_exit_interrupted(void);

/* LOCKSTEP_DEBUG_STALL=PHASE:HOW, for the tests: the first time this
 * process reaches PHASE ("start": before it joins an MPI job; "build": a
 * GPU device's program build, in gpu_call.c) it says so on stderr and
 * waits there, as in a slow call that does not look at the stop flag:
 * HOW "resume" until a stop signal comes, then goes on; "fail" until a
 * stop signal comes, then fails (as PoCL's build did when a signal came
 * while it ran); "hang" for ever (as Intel's OpenCL CPU compiler did on
 * some kernels). So the tests send their signals while a phase provably
 * runs. 0 (go on), or -1 with err set: the failure, or a value it cannot
 * read (err->usage set). */
int ls_debug_stall(const char *phase, ls_error *err);

double ls_now(void);

/* Seconds since the kernel started this process (its fork, before the
 * exec and the loader), by /proc/self/stat's start time, which counts in
 * 1/100 s: up to 0.01 s more than it was. -1 where it cannot be read.
 * For --timings' "launch" and the whole process. */
double ls_process_age(void);

#endif
