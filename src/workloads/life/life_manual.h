/* life_manual.h - what Life adds to the man page (its rules, grid
 * suffixes and file formats, from the tables the parsers read) and to
 * shell completion (the rule names): ls_workload's manual and
 * completions. */
#ifndef LOCKSTEP_LIFE_MANUAL_H
#define LOCKSTEP_LIFE_MANUAL_H

#include "workload.h"

int life_manual(ls_manual_section *out, int max);
int life_completions(const char *option, const char **out, int max);

#endif
