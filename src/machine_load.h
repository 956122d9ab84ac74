/* machine_load.h - how busy the machine was while a bench ran: the cores'
 * worth of time that other programs (and a hypervisor, as steal) took
 * from it. Times taken on a machine whose cores others hold are slower
 * and spread more, by thousands of times for a small Life grid on two
 * threads with both cores busy (issue 34, docs/perf/
 * 2026-11-28-cpu-life-threads.log), so `bench` says how busy the machine
 * was beside its figures.
 *
 * Linux's /proc/stat counts the busy time of every core, getrusage this
 * process's (all its threads, an OpenCL runtime's included): the
 * difference over the wall time is what the others used. It counts in
 * ticks (a hundredth of a second a core), so over a short interval it
 * cannot be told from nothing: below LS_LOAD_MIN_SECONDS the 1-minute
 * load average judges instead. Elsewhere (no /proc/stat) neither is
 * known, and a report says null. */
#ifndef LOCKSTEP_MACHINE_LOAD_H
#define LOCKSTEP_MACHINE_LOAD_H

#include <stdio.h>

/* Other programs busy on this many cores' worth of time, on average, make
 * the machine busy: half a core is enough to hold an OpenMP thread back at
 * each barrier. */
#define LS_LOAD_BUSY_CORES 0.5
/* The shortest interval over which /proc/stat's ticks measure the others. */
#define LS_LOAD_MIN_SECONDS 0.5

/* The counters at one moment. */
typedef struct ls_load_mark {
    int known;             /* /proc/stat was read */
    double wall;           /* ls_now() */
    double self_cpu;       /* this process's CPU seconds, user and system */
    double busy, steal;    /* every core's busy seconds (steal included), and steal alone */
} ls_load_mark;

/* What the machine did between two marks. */
typedef struct ls_machine_load {
    int known;           /* both marks read /proc/stat */
    int cores;           /* online */
    double seconds;      /* wall time between the marks */
    double others;       /* cores' worth of busy time not this process's, steal included (0 .. cores) */
    double steal;        /* of which stolen by a hypervisor */
    double load_average; /* the 1-minute load average at the end; < 0: unknown */
    int measured;        /* seconds >= LS_LOAD_MIN_SECONDS: `others` judges, not the load average */
    int busy;            /* the one that judges is >= LS_LOAD_BUSY_CORES */
} ls_machine_load;

void ls_load_mark_now(ls_load_mark *m);
/* The load from `start` to now. */
void ls_machine_load_since(const ls_load_mark *start, ls_machine_load *out);

/* "machine":{"busy":true,"cores":2,"seconds":1.2,"others_cores":1.6,
 * "steal_cores":0,"load_average":7.1} (nulls where unknown). */
void ls_machine_load_json(FILE *out, const ls_machine_load *l);
/* For people, without a newline: "busy: other programs used 1.6 of 2
 * cores while it ran, load average 7.10"; `brief`: without the load
 * average when the others were measured, and without the steal. */
void ls_machine_load_text(const ls_machine_load *l, int brief, char *out, size_t len);

#endif
