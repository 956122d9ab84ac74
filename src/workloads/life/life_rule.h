/* life_rule.h - Life rules in B/S notation ("B3/S23", "B6/S5-7",
 * "B13,14/S10-12"), parsed into the bit masks of src/algo/life.h and
 * written back. docs/life.md states the accepted syntax. */
#ifndef LOCKSTEP_LIFE_RULE_H
#define LOCKSTEP_LIFE_RULE_H

#include <stddef.h>

#include "error.h"
#include "life.h"

/* The most live neighbours a cell has: 8 in 2D, 26 in 3D. */
unsigned life_max_count(unsigned dims);

/* B3/S23 in 2D, B6/S567 in 3D. */
life_rule life_rule_default(unsigned dims);

/* Parses `text` for a grid of `dims` (2 or 3) dimensions: 0, or -1 with
 * err->usage set and a one-line message naming the rule and the fault. */
int life_rule_parse(const char *text, unsigned dims, life_rule *out, ls_error *err);

/* Writes r in the notation the parser reads: digits when every count is
 * below 10 ("B6/S567"), else comma-separated counts and ranges
 * ("B13,14/S10-12"). Needs at most LIFE_RULE_TEXT bytes. */
#define LIFE_RULE_TEXT 96
void life_rule_format(life_rule r, char *out, size_t len);

#endif
