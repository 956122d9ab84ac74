/* progress.c - see progress.h. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include "cluster.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted;

double ls_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The first stop signal's number: what the exit code reports. */
static void on_sigint(int sig)
{
    if (!interrupted)
        interrupted = sig;
}

/* SIGTERM (kill, a batch system's time limit, shutdown) and SIGHUP (the
 * terminal went away) stop a run like Ctrl-C: the chunk in hand finishes,
 * the checkpoint is committed and the best so far is printed. */
void ls_progress_catch_sigint(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    /* Reads and writes under way (a checkpoint commit) go on. */
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

int ls_progress_interrupted(void)
{
    return interrupted != 0;
}

int ls_exit_interrupted(void)
{
    return 128 + (interrupted ? (int)interrupted : SIGINT);
}

static int report(void *user, uint64_t done, uint64_t total)
{
    ls_progress_bar *bar = user;
    double now = ls_now();
    double every = bar->lines ? LS_PROGRESS_LINE_SECONDS : 0.25;
    if (bar->enabled && now - bar->start >= 2.0 && now - bar->last_draw >= every) {
        double elapsed = now - bar->start;
        double frac = total ? (double)done / (double)total : 0.0;
        double eta = frac > 0 ? elapsed * (1.0 - frac) / frac : 0.0;
        fprintf(stderr, "%s%s: %5.1f%% of %llu %s, %.0f s elapsed, ~%.0f s left%s%s%s", bar->lines ? "" : "\r",
                bar->label, 100.0 * frac, (unsigned long long)total, bar->unit, elapsed, eta,
                bar->detail[0] ? " (" : "", bar->detail, bar->detail[0] ? ")" : "");
        fputs(bar->lines ? "\n" : "  ", stderr);
        fflush(stderr);
        bar->shown = !bar->lines;
        bar->last_draw = now;
    }
    return interrupted != 0;
}

static void detail(void *user, const char *text)
{
    ls_progress_bar *bar = user;
    snprintf(bar->detail, sizeof bar->detail, "%s", text);
}

ls_progress ls_progress_start(ls_progress_bar *bar, const char *label, const char *unit, int quiet)
{
    memset(bar, 0, sizeof *bar);
    bar->label = label;
    bar->unit = unit;
    bar->lines = ls_cluster_size() > 1;
    bar->enabled = !quiet && (isatty(STDERR_FILENO) || (bar->lines && ls_cluster_rank() == 0));
    bar->start = ls_now();
    ls_progress p = {report, bar, detail};
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
