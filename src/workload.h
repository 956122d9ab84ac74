/* workload.h - what the host program knows about each algorithm.
 *
 * A workload is a struct of function pointers, like a backend: its
 * parameters (with the option table that sets them), one run on an opened
 * device, its result as JSON members, a human report, its output files and
 * its conformance cases. The generic commands (run, check, conformance,
 * bench) work through this table only.
 *
 * The contract of a run: the workload's host driver cuts the work into
 * ranges of work items and owns chunking, progress, Ctrl-C, checkpoints and
 * the final reduction; a device computes one range at a time (its GPU
 * driver over gpu.h, or its CPU implementation on OpenMP).
 *
 * The digest that `check` compares is FNV-1a over the text result_json
 * writes, so it covers every field the JSON output carries, and a field
 * cannot be printed without being cross-checked. */
#ifndef LOCKSTEP_WORKLOAD_H
#define LOCKSTEP_WORKLOAD_H

#include <stdio.h>

#include "cli.h"
#include "hash.h"
#include "set.h"

/* The outcome of one run. */
/* Where a run's time went, phase by phase (--timings), in wall seconds:
 * this process's, and in an MPI job the slowest rank's for the phases
 * every rank goes through. n = 0: none were asked for. */
#define LS_MAX_PHASES 12
typedef struct ls_phases {
    int n;
    const char *name[LS_MAX_PHASES]; /* "open", "input", "start", ... */
    double seconds[LS_MAX_PHASES];
    double slowest[LS_MAX_PHASES];   /* across the ranks; -1 where only rank 0 has the phase */
    int ranks;                       /* how many ranks slowest covers */
    int cpu_threads;                 /* threads the work ran on on the CPU, where the workload
                                      * chooses them (Life: fewer on a small grid); 0: not said */
    /* Of "open", the seconds an input was read meanwhile on a thread of
     * its own (Life's --in): the phases do not count them twice. */
    double input_beside_open;
    /* Of "open", the seconds an output file was made ready meanwhile on
     * that thread (Life's --out: created, sized, its pages faulted in);
     * "output" holds what the open did not hide. */
    double output_beside_open;
    /* Seconds since the process started, when the report was made: the
     * phases, "launch" (the process's start to the devices' open) and
     * "finish" (the outputs put in place) with them, add up to it but for
     * the steps between phases; what the process takes after it is the
     * report printed and the process's end. 0: not known. */
    double since_start;
} ls_phases;

typedef struct ls_run {
    char digest[17];   /* FNV-1a of result_json's text, hex (ls_run_seal) */
    char summary[200]; /* one line for tables, e.g. "max 98" */
    double seconds;    /* the computation's own time (device time on GPUs) */
    uint64_t items;    /* work items done (battles, deals, ...) */
    int interrupted;   /* stopped early by Ctrl-C */
    void *data;        /* the full result, owned by the workload */
    /* Each device's share, from a run over the set runner (set_run.h);
     * no devices (ndevices 0) from a run on one device without it. */
    ls_set_report report;
    ls_phases phases;
} ls_run;

/* A subcommand of a workload's command (`lockstep bmn play`). */
typedef struct ls_subcommand {
    const char *name;  /* "play" */
    const char *usage; /* its usage line, for `lockstep NAME --help` */
    /* Runs `lockstep NAME SUB ...` (argv[2] is SUB). NULL: the workload's
     * run, as the command layer runs every workload (options from argv[3]
     * on); that subcommand alone may run on a set and under MPI. */
    int (*run)(int argc, char **argv);
    /* What the workload's run (run NULL) does, for its --help (the
     * workload's summary is of the whole command); NULL: that summary. A
     * subcommand with a run of its own prints its own help. */
    const char *summary;
} ls_subcommand;

/* One conformance case: run returns 1 pass, 0 fail (detail says how), -1
 * could not run (err says why). `arg` is the case's own entry from the
 * table. `needs` is what a device must be able to do for the case
 * (LS_CAP_BIT of each ls_cap, caps.h): on a set where a device cannot
 * (ls_set_supports), it rightly refuses the case, which is not run and
 * is reported not supported, with the reason. */
typedef struct ls_case {
    const char *name;
    int (*run)(ls_set *set, const void *arg, char *detail, size_t detail_len, ls_error *err);
    const void *arg;
    uint32_t needs;
} ls_case;

#define LS_MAX_OPTS 24

/* A section of the man page that a workload adds (Life: its rules, grid
 * suffixes and file formats). */
typedef struct ls_manual_section {
    const char *title; /* "LIFE RULES" */
    const char *text;  /* paragraphs between blank lines, as ls_roff_text reads them */
} ls_manual_section;

/* The largest problem of a workload that a device holds, as `lockstep
 * devices` reports it. */
typedef struct ls_device_fit {
    char key[32];   /* its JSON member in "largest": "life_2d_side" */
    uint64_t value; /* 0: not even the smallest fits */
    char text[64];  /* for people: "Life 2D 46340x46340" */
} ls_device_fit;

/* How close a run whose result may rightly differ between kinds of
 * device (ray's fast mode) is to the exact run that bounds it, for
 * `check`: a figure where more is closer, and the least that the
 * documentation promises. */
typedef struct ls_closeness {
    const char *bound_name; /* for people: "fast mode's bound" */
    const char *exact_name; /* what it is measured from: "exact mode's image" */
    const char *measure;    /* "PSNR" */
    const char *unit;       /* "dB" */
    const char *key;        /* the figure's JSON member in check's runs: "psnr_db" */
    double value;           /* INFINITY: identical to the exact result */
    double bound;           /* within it when value >= bound */
    char why[160];          /* when the two are not results of the same inputs: which field differs */
} ls_closeness;

typedef struct ls_workload {
    const char *name;
    const char *summary;
    const char *unit; /* what `items` counts */
    /* The run command's usage line when it is not "lockstep NAME [options]"
     * (positional arguments); NULL for that. */
    const char *usage;
    /* Subcommands (`lockstep bmn play|search|report`), which the command
     * layer dispatches to, and what `lockstep NAME --help` says under
     * their usage lines; none (0): `lockstep NAME` is the run itself. */
    const ls_subcommand *subcommands;
    int nsubcommands;
    const char *subcommands_about;

    size_t params_size;
    void (*params_default)(void *params);
    /* Turns defaults into the small sizes of `lockstep check all`. */
    void (*params_quick)(void *params);
    /* Fills out[] with options bound to params; returns how many. These
     * are the options of run, check and bench alike. */
    int (*params_options)(void *params, ls_opt *out, int max);
    /* Options of the run command only: output files, checkpoints. NULL
     * when there are none. */
    int (*run_options)(void *params, ls_opt *out, int max);
    /* Positional arguments of the run command (at most max_positional),
     * or NULL when it takes none. 0, or -1 with err->usage set. */
    int max_positional;
    int (*params_positional)(void *params, int n, const char **pos, ls_error *err);
    int (*params_validate)(void *params, ls_error *err);
    /* The value an option of text stands for once validated, in one
     * spelling ("--size 64" and "64x64" are one grid), for the ranks of an
     * MPI job to compare their problems by: 1 with out set, 0 for an
     * option compared as given. NULL: every option as given. */
    int (*params_canonical)(const void *params, const char *option, char *out, size_t len);
    /* Reads the run's input files into params ahead of the run, on a
     * thread of its own while the devices open (a CUDA context takes a
     * quarter of a second, as long as reading a 1 GiB Life grid takes):
     * `lockstep NAME` calls it in one process (under mpirun, and in
     * check, bench and conformance, run reads its inputs itself). What
     * the run does not take, params_free frees. NULL: nothing to read
     * ahead. 0, or -1 with err set. */
    int (*prepare)(void *params, ls_error *err);
    void (*params_free)(void *params);

    /* One run on the set: on every device of it and every rank of the
     * job (set_run.h spreads it). The per-device report comes back in
     * out->report. */
    int (*run)(ls_set *set, const void *params, ls_run *out, const ls_progress *progress, ls_error *err);
    /* The result's fields as JSON members, `"key":value` separated by
     * commas, without braces. Everything a person or a script is told
     * about the result is here; the digest is computed from this text. */
    void (*result_json)(const void *params, const ls_run *run, FILE *out);
    /* The report for people. */
    void (*print)(const void *params, const ls_set *set, const ls_run *run, FILE *out);
    /* Writes the output files the run options named (each whole or not at
     * all); NULL when the workload writes none. */
    int (*write_outputs)(const void *params, const ls_run *run, ls_error *err);
    /* 1 when write_outputs writes to standard output (ray --out -): the
     * report then goes to standard error. NULL: never. */
    int (*output_on_stdout)(const void *params);
    /* Extra detail on how two runs differ, beyond the generic field-by-
     * field comparison of their JSON; may be NULL. */
    void (*diff)(const void *params, const ls_run *a, const char *a_name, const ls_run *b, const char *b_name,
                 FILE *out);
    /* Fault injection for the tests of `check` (LOCKSTEP_DEBUG_FAULT):
     * perturbs the named JSON field of a result; -1 when the field is not
     * one of the result's. */
    int (*fault)(ls_run *run, const char *field);
    /* For `check`, a run whose result is a pure function of its inputs
     * only per kind of device, within a documented bound of an exact run
     * (ray's fast mode, docs/ray.md): 1 when params ask for one, with
     * exact (params_size bytes) made the params of that exact run; 0 when
     * every device must give the same result. NULL: never. */
    int (*approximate)(const void *params, void *exact);
    /* The kind of device that made such a run: runs of one kind give the
     * same result byte for byte. 0: several kinds (a set's mosaic), or
     * none, which no other run need match. */
    uint64_t (*run_kind)(const ls_run *run);
    /* How close such a run is to the exact run, into *c: 0, or -1 when
     * they are not of the same inputs (c->why says which field differs),
     * so that no figure can hide a wrong size or count. With run and
     * exact NULL, only the names and the bound (0). */
    int (*closeness)(const void *params, const ls_run *run, const ls_run *exact, ls_closeness *c);
    /* What a device must be able to do for a run with these (validated)
     * params, as ls_case's needs (caps.h): ray's exact mode needs the
     * exact floating-point rule (dialect.h), which a device may rightly
     * refuse (ls_set_supports): `check` and `bench` then report such a
     * device not supported, with the reason, as conformance does, rather
     * than failed. NULL: any device runs any run of the workload. */
    uint32_t (*needs)(const void *params);
    /* Optional: what to tell a person after the report of a run that
     * finished or that a signal stopped, on `out` (standard error): how to
     * go on from what it saved (a search's checkpoint: how many deals it
     * holds and the command that resumes it). Called on rank 0 alone. */
    void (*next_steps)(const void *params, const ls_run *run, FILE *out);
    void (*run_free)(ls_run *run);

    const ls_case *cases;
    int ncases;

    /* The largest problems that fit a device with `memory` bytes, of which
     * one allocation takes at most max_alloc, into out[0..max): how many,
     * or -1 with err set. NULL: none grows with memory. */
    int (*device_fit)(uint64_t memory, uint64_t max_alloc, ls_device_fit *out, int max, ls_error *err);
    /* The workload's sections of the man page into out[0..max): how many
     * (their text may be made by the call, and kept until the next).
     * NULL: none. */
    int (*manual)(ls_manual_section *out, int max);
    /* The values of `option` (without dashes) that shell completion
     * offers, each a word a shell keeps whole, into out[0..max): how many.
     * NULL: none for any option. */
    int (*completions)(const char *option, const char **out, int max);
} ls_workload;

extern const ls_workload *const ls_workloads[]; /* NULL-terminated */
const ls_workload *ls_workload_find(const char *name);


/* Computes run->digest from result_json, after applying any fault that
 * LOCKSTEP_DEBUG_FAULT names for this backend. 0, or -1 with err set. */
int ls_run_seal(const ls_workload *w, const void *params, const ls_set *set, ls_run *run, ls_error *err);

/* The result JSON of a run as one allocated string (free it). */
char *ls_result_json(const ls_workload *w, const void *params, const ls_run *run);

/* Writes s as a JSON string literal. */
void ls_json_string(FILE *out, const char *s);
/* Writes the member that every JSON document starts with, which lockstep
 * produced it: "lockstep":{"version":"0.1.0","commit":"..."} (commit null
 * when not built from a git checkout). */
void ls_json_provenance(FILE *out);

#endif
