/* cli.h - command-line options from a table, with one-line errors.
 *
 * Every command describes its options as an ls_opt array; ls_opts_parse
 * fills the targets, prints --help from the same table, and reports bad
 * input as one line naming the flag and the accepted range (exit code 2). */
#ifndef LOCKSTEP_CLI_H
#define LOCKSTEP_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "numbers.h"

typedef enum {
    LS_OPT_COUNT, /* unsigned integer; accepts 1000000, 1e6, 2.5e8 when whole */
    LS_OPT_U64,   /* any 64-bit unsigned: decimal or 0x hex (seeds) */
    LS_OPT_FLAG,  /* presence sets *(int *)target = 1 */
    LS_OPT_STRING /* *(const char **)target = value */
} ls_opt_kind;

typedef struct ls_opt {
    const char *name; /* without the leading "--" */
    ls_opt_kind kind;
    void *target;     /* uint64_t*, int*, const char** by kind */
    uint64_t min, max; /* for LS_OPT_COUNT */
    const char *arg;  /* placeholder shown in help, e.g. "N" */
    const char *help;
    /* What --help gives as the default where the target's value before
     * parsing cannot say it (one that depends on the input, the machine or
     * the environment). NULL: the target's value is the default, printed
     * as the option is written (a count in its range, a seed, a string
     * given one); a flag, or a count or string left unset, has none. */
    const char *def;
    /* Another name the option answers to, the same in every way (--help
     * shows it as "also --NAME"): an older spelling kept for the scripts
     * that use it. NULL: none. */
    const char *alias;
} ls_opt;

/* Options shared by the commands that run on a device. */
typedef struct ls_common {
    const char *backend; /* NULL: default spec */
    int json;
    int quiet;
    uint64_t progress_every; /* seconds; 0: the default (progress.h) */
    int sync;                /* --sync: output files synced to disk before success (output.h) */
    int no_cache;            /* --no-cache: GPU programs built from source, the cache bypassed */
} ls_common;

/* --backend SPEC names the device or devices everywhere; --backends, the
 * older spelling of check and bench all, is the same option. A command
 * that runs once (a workload, bench WORKLOAD) runs on the set SPEC names;
 * one that runs on device after device (check, conformance, bench all)
 * takes each entry of a list in turn (LS_OPT_DEVICES). */
#define LS_OPT_BACKEND(c)                                                                                    \
    {"backend", LS_OPT_STRING, &(c)->backend, 0, 0, "SPEC",                                                  \
     "openmp, opencl or cuda, optionally :INDEX or :all; NAME:all or a list (cuda:0,openmp) is a set of "    \
     "devices, for the workloads that run on a set",                                                         \
     "$LOCKSTEP_BACKEND, else auto", "backends"}
/* --backend for the commands that run on each device of a list in turn;
 * `every` is what they run on without one. */
#define LS_OPT_DEVICES(target, every)                                                                        \
    {"backend", LS_OPT_STRING, (target), 0, 0, "SPEC",                                                       \
     "the devices to run on, one after another: a device (opencl:1), a backend's devices (opencl), auto's "  \
     "device, or a list of them (openmp,opencl:1); NAME:all or a+b (openmp+opencl:0) in the list is one "    \
     "run on a set of devices",                                                                              \
     (every), "backends"}
#define LS_OPT_SYNC(c)                                                                                       \
    {"sync", LS_OPT_FLAG, &(c)->sync, 0, 0, NULL,                                                            \
     "sync output files to disk before reporting success (slower: 0.3-0.5 s a GiB), so they survive an OS "  \
     "crash or power loss; without it a kill still leaves the old file or the new one, never half",          \
     NULL, NULL}
/* The commands that run on devices: the program cache (program_cache.h)
 * bypassed, set with ls_program_cache_bypass. */
#define LS_OPT_NO_CACHE(c)                                                                                   \
    {"no-cache", LS_OPT_FLAG, &(c)->no_cache, 0, 0, NULL,                                                    \
     "build every GPU program from its source, neither reading nor writing the cache of built programs "     \
     "($LOCKSTEP_CACHE_DIR, else $XDG_CACHE_HOME/lockstep, else ~/.cache/lockstep; LOCKSTEP_CACHE=off does "  \
     "the same; deleting the directory clears it)",                                                          \
     NULL, NULL}
#define LS_OPT_JSON(c) {"json", LS_OPT_FLAG, &(c)->json, 0, 0, NULL, "print the result as one JSON object", NULL, NULL}
#define LS_OPT_QUIET(c) {"quiet", LS_OPT_FLAG, &(c)->quiet, 0, 0, NULL, "no progress display", NULL, NULL}
#define LS_OPT_PROGRESS_EVERY(c)                                                                             \
    {"progress-every", LS_OPT_COUNT, &(c)->progress_every, 1, 86400, "SECONDS",                              \
     "a progress line every SECONDS on stderr",                                                              \
     "one line redrawn on a terminal, else a line every 60 s", NULL}

/* Parses argv[first..argc) against opts (n entries). Positional arguments
 * are stored in pos[0..*npos) up to max_pos. Returns 0 on success, 1 when
 * --help was printed (exit 0), -1 with err->usage set on bad input. */
int ls_opts_parse(int argc, char **argv, int first, const ls_opt *opts, int n,
                  const char **pos, int *npos, int max_pos, ls_error *err);

/* Whether the last ls_opts_parse set the option whose target is `target`
 * from the command line (a value equal to the default is still given):
 * a resumed search takes what was not given from its checkpoint. */
int ls_opt_given(const void *target);
/* Copies a table of n options into out, at most max of them: how many
 * (what a workload's params_options and run_options return). */
int ls_opts_copy(ls_opt *out, int max, const ls_opt *opts, int n);
/* Prints "usage: <usage>\n\n<summary>\n\noptions:" and the table, in the
 * style ls_help_set_style chose; for people, filled to ls_help_width. */
void ls_opts_help(FILE *out, const char *usage, const char *summary, const ls_opt *opts, int n);

/* The pieces of help for people, each filled to `width` columns (words
 * moved to the next line, never cut; a word longer than a line has one of
 * its own). The width: that of out's terminal when it is one (40 to 100
 * columns: longer lines are hard to read), else 80. */
int ls_help_width(FILE *out);
/* Usage lines (one a line of `usage`), the first after `prefix` ("usage: ",
 * or as many spaces to line up under one), the others under it; a line
 * too long goes on indented under its command. */
void ls_help_usage(FILE *out, const char *prefix, const char *usage, int width);
/* Text as paragraphs: a blank line between two; the lines of one are
 * filled again (a newline in it is a space, as the man page fills it). */
void ls_help_paragraphs(FILE *out, const char *text, int width);
/* One entry of a list: "  LEFT", then text from the list's second column
 * (on the next line when LEFT reaches it), its lines under each other. */
void ls_help_entry(FILE *out, const char *left, const char *text, int width);

/* The name among names[0..n) that `word` is a likely typo of (at most 2
 * edits, and fewer than half the name) or the start of (3 characters or
 * more), the nearest; NULL when none is. Unknown options, commands and
 * workloads name it as "did you mean". */
const char *ls_nearest_name(const char *word, const char *const *names, int n);

/* How ls_opts_help prints: for people (the default), as roff for the man
 * page, or as one "--name [ARG]" a line for shell completion. `lockstep
 * --man` and `lockstep --completion` (src/manual.c) capture every
 * command's --help in these styles, so neither can drift from the tables. */
typedef enum { LS_HELP_TEXT, LS_HELP_ROFF, LS_HELP_OPTIONS } ls_help_style;
void ls_help_set_style(ls_help_style style);

/* Writes text as roff input: backslashes escaped, a line that would start
 * with '.' or '\'' (a request) protected, a blank line as a paragraph
 * break; the dashes of options ("--json", "-Dmpi") as \- (a minus, so
 * that an option copied from the page works), and with `dashes` every '-'. */
void ls_roff_text(FILE *out, const char *text, int dashes);

/* Parses one count the way LS_OPT_COUNT does; 0 or -1 with err set. */
int ls_parse_count(const char *flag, const char *text, uint64_t min, uint64_t max, uint64_t *out,
                   ls_error *err);
/* The same for a count that no option gives (a positional argument):
 * its messages name it as `what` says ("N, the generations of ..."). */
int ls_parse_count_as(const char *what, const char *text, uint64_t min, uint64_t max, uint64_t *out,
                      ls_error *err);

/* Prints an error line "lockstep: msg" and returns the exit code for it. */
int ls_report(const ls_error *err);


/* The name this program was started by (argv[0]; "lockstep" until
 * main sets it): commands it prints for people to run start with it. */
void ls_set_program_name(const char *argv0);
const char *ls_program_name(void);
/* s as one word for a POSIX shell: itself when it holds only characters
 * no shell treats specially, else in single quotes (a quote inside as
 * '\''). Allocated (free it); NULL when out of memory. */
char *ls_shell_quote(const char *s);

#endif
