/* json_diff.h - two results compared member by member, for `check`: the
 * members are result_json's text (`"key":value,...` without braces). */
#ifndef LOCKSTEP_JSON_DIFF_H
#define LOCKSTEP_JSON_DIFF_H

#include <stdio.h>

/* For each member of a (named an) that differs in b (named bn), or is
 * missing there, prints to `text` what differs (for arrays, the first
 * element that does) and adds its name to `names` as JSON strings
 * separated by commas; either may be NULL. Returns how many members
 * differ. */
int ls_json_diff_members(const char *a, const char *an, const char *b, const char *bn, FILE *text, FILE *names);

#endif
