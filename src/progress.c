/* progress.c - see progress.h. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include "numbers.h"
#include "output.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The first stop's signal number (or another rank's, ls_progress_stop). */
static volatile sig_atomic_t interrupted;
/* Stop signals that came to this process: the second SIGINT or SIGTERM
 * ends it at once. */
static volatile sig_atomic_t signals_came;
/* The command acts on a stop (ls_progress_catch_sigint was called). */
static int acting;

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2};
#define NSTOP ((int)(sizeof stop_signals / sizeof stop_signals[0]))

double ls_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double ls_process_age(void)
{
    /* Field 22, counted after the command's name (field 2, in
     * parentheses, which may hold spaces and parentheses itself). */
    char buf[1024];
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    long ticks = sysconf(_SC_CLK_TCK);
    for (int field = 2; p && field < 22; field++)
        p = strchr(p + 1, ' ');
    if (!p || ticks <= 0)
        return -1;
    unsigned long long start = strtoull(p + 1, NULL, 10);
#ifdef CLOCK_BOOTTIME
    const clockid_t boot = CLOCK_BOOTTIME; /* what the start time counts from */
#else
    const clockid_t boot = 7;
#endif
    struct timespec t;
    if (clock_gettime(boot, &t) != 0)
        return -1;
    double age = (double)t.tv_sec + 1e-9 * (double)t.tv_nsec - (double)start / (double)ticks;
    return age >= 0 ? age : -1;
}

/* The first stop signal's number: what the exit code reports. A second
 * SIGINT or SIGTERM is a person (or a batch system) that will not wait
 * for the chunk in hand, which may never end (a device call stuck in its
 * driver): the process ends now, as a second Ctrl-C ends many tools. The
 * output files are whole or absent (every one is renamed into place
 * whole); the temporary files of writes under way go too. */
static void on_stop_signal(int sig)
{
    if (signals_came++ > 0 && (sig == SIGINT || sig == SIGTERM)) {
        ls_output_abandon();
        _exit(128 + sig);
    }
    if (!interrupted)
        interrupted = sig;
}

/* SIGTERM (kill, a batch system's time limit, shutdown) and SIGHUP (the
 * terminal went away) stop a run like Ctrl-C: the chunk in hand finishes,
 * the checkpoint is committed and the best so far is printed. SIGUSR1 and
 * SIGUSR2 too: they are the signals Open MPI's mpirun forwards to every
 * rank and then waits for the job, where SIGINT and SIGTERM to mpirun end
 * the job themselves (its ranks killed a second later, and what rank 0
 * was printing cut short). */
void ls_progress_hold_stops(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    /* Reads and writes under way (a checkpoint commit) go on. */
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NSTOP; i++)
        sigaction(stop_signals[i], &sa, NULL);
}

void ls_progress_catch_sigint(void)
{
    ls_progress_hold_stops(); /* again: a driver may have put its own in place */
    acting = 1;
    /* A write that waits on a reader (--out FIFO) ends at the signal:
     * SA_RESTART would restart its open() or write() forever. */
    ls_output_set_stop(ls_progress_interrupted);
}

void ls_progress_release(void)
{
    if (acting)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NSTOP; i++)
        sigaction(stop_signals[i], &sa, NULL);
    if (signals_came && interrupted)
        raise((int)interrupted);
}

int ls_progress_interrupted(void)
{
    return interrupted != 0;
}

void ls_progress_stop(int sig)
{
    if (!interrupted && sig > 0)
        interrupted = sig;
}

int ls_progress_signal(void)
{
    return (int)interrupted;
}

int ls_exit_interrupted(void)
{
    return 128 + (interrupted ? (int)interrupted : SIGINT);
}

const char *ls_progress_signal_name(void)
{
    switch ((int)interrupted) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGUSR1: return "SIGUSR1";
    case SIGUSR2: return "SIGUSR2";
    default: return interrupted ? "a stop signal" : "no signal";
    }
}

/* ---- LOCKSTEP_DEBUG_STALL ------------------------------------------------ */

static const char *const stall_phases[] = {"start", "build"};
static const char *const stall_ways[] = {"resume", "fail", "hang"};

/* The index of the word `text` (of length n) in words[0..count), or -1. */
static int word_index(const char *text, size_t n, const char *const *words, int count)
{
    for (int i = 0; i < count; i++)
        if (strlen(words[i]) == n && strncmp(text, words[i], n) == 0)
            return i;
    return -1;
}

int ls_debug_stall(const char *phase, ls_error *err)
{
    static atomic_flag stalled = ATOMIC_FLAG_INIT;
    const char *spec = getenv("LOCKSTEP_DEBUG_STALL");
    if (!spec || !*spec)
        return 0;
    const char *colon = strchr(spec, ':');
    int at = colon ? word_index(spec, (size_t)(colon - spec), stall_phases, 2) : -1;
    int how = colon ? word_index(colon + 1, strlen(colon + 1), stall_ways, 3) : -1;
    if (at < 0 || how < 0)
        return ls_fail_usage(err, "LOCKSTEP_DEBUG_STALL: expected PHASE:HOW (PHASE start or build, HOW resume, fail "
                                  "or hang), got '%s'", spec);
    if (strcmp(stall_phases[at], phase) != 0 || atomic_flag_test_and_set(&stalled))
        return 0;
    int hang = how == 2;
    fprintf(stderr, "lockstep: LOCKSTEP_DEBUG_STALL is set: stalled at %s %s\n", phase,
            hang ? "for ever" : "until a stop signal comes");
    fflush(stderr);
    while (hang || !ls_progress_interrupted()) {
        struct timespec step = {0, 10 * 1000000L};
        nanosleep(&step, NULL); /* a signal ends it early: the loop looks again */
    }
    if (how == 1)
        return ls_fail(err, "%s failed: a stop signal came while it ran (LOCKSTEP_DEBUG_STALL=%s)", phase, spec);
    return 0;
}

/* "1.2e+08" -> "1.2e8": rates as the counts of the command line. */
static void format_rate(double rate, char *out, size_t len)
{
    snprintf(out, len, "%.3g", rate);
    char *e = strchr(out, 'e');
    if (e && e[1] == '+')
        memmove(e + 1, e + 2, strlen(e + 2) + 1);
    if (e && e[1] == '0')
        memmove(e + 1, e + 2, strlen(e + 2) + 1);
}

/* How far: "generation 120 of 200 (60.0%)" where the work goes in steps,
 * else " 60.0% of 2.4e9 cell updates". */
static void describe_done(const ls_progress_bar *bar, uint64_t done, uint64_t total, const char *unit, char *out,
                          size_t len)
{
    double frac = total ? (double)done / (double)total : 0.0;
    char now[32], of[32];
    if (bar->step && bar->step_items) {
        ls_format_count(done / bar->step_items, now, sizeof now);
        ls_format_count(total / bar->step_items, of, sizeof of);
        snprintf(out, len, "%s %s of %s (%.1f%%)", bar->step, now, of, 100.0 * frac);
    } else {
        ls_format_count(total, of, sizeof of);
        snprintf(out, len, "%5.1f%% of %s %s", 100.0 * frac, of, unit);
    }
}

static int report(void *user, uint64_t done, uint64_t total)
{
    ls_progress_bar *bar = user;
    double now = ls_now();
    int due = bar->lines ? now - bar->last_draw >= bar->every
                         : now - bar->start >= 2.0 && now - bar->last_draw >= 0.25;
    if (bar->enabled && due) {
        double elapsed = now - bar->start;
        /* This run's rate: what earlier runs did took none of its time. */
        uint64_t mine = done > bar->done_before ? done - bar->done_before : 0;
        double per_second = elapsed > 0 ? (double)mine / elapsed : 0.0;
        double eta = per_second > 0 && total > done ? (double)(total - done) / per_second : 0.0;
        char rate[32], how_far[128], unit[64], age[48] = "";
        format_rate(per_second, rate, sizeof rate);
        ls_format_unit(bar->unit, unit, sizeof unit);
        describe_done(bar, done, total, unit, how_far, sizeof how_far);
        if (bar->saved_at > 0)
            snprintf(age, sizeof age, ", saved %.0f s ago", now - bar->saved_at);
        fprintf(stderr, "%s%s: %s, %.0f s elapsed, ~%.0f s left, %s %s/s%s%s%s%s%s%s", bar->lines ? "" : "\r",
                bar->label, how_far, elapsed, eta, rate, unit, age, bar->note[0] ? "; " : "", bar->note,
                bar->detail[0] ? " (" : "", bar->detail, bar->detail[0] ? ")" : "");
        fputs(bar->lines ? "\n" : "  ", stderr);
        fflush(stderr);
        bar->shown = !bar->lines;
        bar->last_draw = now;
    }
    return interrupted != 0;
}

static void resumed(void *user, uint64_t done_before)
{
    ls_progress_bar *bar = user;
    bar->done_before = done_before;
}

static void detail(void *user, const char *text)
{
    ls_progress_bar *bar = user;
    snprintf(bar->detail, sizeof bar->detail, "%s", text);
}

static void saved(void *user)
{
    ls_progress_bar *bar = user;
    bar->saved_at = ls_now();
}

static void stepped(void *user, const char *step, uint64_t items_per_step)
{
    ls_progress_bar *bar = user;
    bar->step = step;
    bar->step_items = items_per_step;
}

static void note(void *user, const char *text)
{
    ls_progress_bar *bar = user;
    snprintf(bar->note, sizeof bar->note, "%s", text);
}

ls_progress ls_progress_start(ls_progress_bar *bar, const char *label, const char *unit, int quiet,
                              uint64_t every_seconds, int rank, int ranks)
{
    memset(bar, 0, sizeof *bar);
    bar->label = label;
    bar->unit = unit;
    int mpi = ranks > 1, terminal = isatty(STDERR_FILENO);
    /* Under MPI rank 0 alone speaks for the job. */
    bar->enabled = !quiet && (!mpi || rank == 0);
    bar->lines = every_seconds > 0 || mpi || !terminal;
    bar->every = every_seconds > 0 ? (double)every_seconds
                 : mpi             ? LS_PROGRESS_MPI_LINE_SECONDS
                                   : LS_PROGRESS_LINE_SECONDS;
    bar->start = ls_now();
    bar->last_draw = bar->start; /* the first whole line after `every` */
    ls_progress p = {report, bar, detail, note, resumed, saved, stepped};
    return p;
}

void ls_progress_finish(ls_progress_bar *bar)
{
    if (bar->shown) {
        fprintf(stderr, "\r%*s\r", 200, "");
        fflush(stderr);
    }
    bar->shown = 0;
}
