/* manual.h - the commands of lockstep as one table, and what is generated
 * from it and from each command's own --help: the man page (`lockstep
 * --man`, roff) and the bash completion (`lockstep --completion`). meson
 * runs both at build time and installs their output, so neither can say
 * anything the option tables do not. */
#ifndef LOCKSTEP_MANUAL_H
#define LOCKSTEP_MANUAL_H

#include <stdio.h>

#include "workload.h"

typedef struct ls_command {
    const char *name;    /* "check" */
    const char *args;    /* what follows the name in the command list: "WORKLOAD|all", "" */
    const char *summary; /* one line */
    /* Runs `lockstep NAME ...` (argv[1] is the name). */
    int (*run)(const struct ls_command *c, int argc, char **argv);
    const ls_workload *workload; /* the command of a workload, or NULL */
    int takes_workload;          /* check and bench: the next word is a workload or "all" */
    int has_help;                /* 0: nothing to document but its line (every command has options now) */
} ls_command;

/* The man page of the commands cmds[0..n) in roff, to out. 0, or -1 with
 * err set. */
int ls_manual_roff(FILE *out, const ls_command *cmds, int n, ls_error *err);

/* A bash completion script for them, to out. 0, or -1 with err set. */
int ls_manual_bash(FILE *out, const ls_command *cmds, int n, ls_error *err);

/* The documentation installed beside the man page, which its SEE ALSO
 * names: the directory and the files in it ("README.md", "docs/life.md"),
 * as meson installs them (`lockstep --man DOCDIR FILE...`). Without it the
 * page points to the source tree. */
void ls_manual_set_docs(const char *dir, char *const *files, int n);

/* What `lockstep --help` says about the program, before the commands, and
 * the man page's DESCRIPTION. */
void ls_manual_intro(char *out, size_t len);

#endif
