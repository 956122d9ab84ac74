/* life_rule.h - Life rules in B/S notation ("B3/S23", "B6/S5-7",
 * "B13,14/S10-12"), S/B order ("23/3") or by name ("HighLife"), with
 * Golly's grid suffixes (":T64,64", ":P64,64"), parsed into the bit masks
 * of src/algo/life.h and written back. docs/life.md states the accepted
 * syntax. */
#ifndef LOCKSTEP_LIFE_RULE_H
#define LOCKSTEP_LIFE_RULE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "life.h"

/* The most live neighbours a cell has: 8 in 2D, 26 in 3D. */
unsigned life_max_count(unsigned dims);

/* B3/S23 in 2D, B6/S567 in 3D. */
life_rule life_rule_default(unsigned dims);

/* A grid suffix as Golly writes it after a rule: ":T64,64" a torus of
 * 64x64 cells, ":P64,64" a bounded plane (the cells beyond its edges are
 * dead). lockstep also takes three sides for a 3D grid (":P64,64,64") and
 * one for a square or cube (":T64"). */
typedef struct life_topology {
    int given;        /* the text had a suffix */
    int bounded;      /* P: a bounded plane; T: a torus */
    unsigned sides;   /* how many sides it gives: 1, 2 or 3 */
    uint32_t size[3]; /* each LIFE_MIN_SIZE .. LIFE_MAX_SIZE; unset ones 0 */
} life_topology;

/* A rule as people write it, and what the text says beyond the rule. */
typedef struct life_rule_spec {
    life_rule rule;
    /* The dimension the text implies: 2 for a rule name (all are 2D
     * rules), S/B order ("23/3", the 2D notation of Golly and MCell) or a
     * suffix of two sides; 3 for a suffix of three; 0 for plain B/S text,
     * which counts the neighbours of whatever grid it is given to. */
    unsigned dims;
    life_topology grid;
} life_rule_spec;

/* Parses a rule: B/S notation ("B3/S23", "B6/S5-7"), S/B order ("23/3"),
 * or a name from the table in docs/life.md ("Life", "HighLife", "Day &
 * Night", case and spaces ignored), each with an optional grid suffix.
 * `dims` is the grid's dimension (2 or 3): counts above its neighbours
 * and text that implies the other dimension are refused. 0: not known
 * yet (counts up to 26; the caller parses again once it knows). 0, or -1
 * with err->usage set and a one-line message naming the rule and the
 * fault. */
int life_rule_parse_spec(const char *text, unsigned dims, life_rule_spec *out, ls_error *err);

/* life_rule_parse_spec without the grid: the suffix, if any, is checked
 * and dropped. */
int life_rule_parse(const char *text, unsigned dims, life_rule *out, ls_error *err);

/* The grid suffix of a rule text, alone (given = 0 when it has none):
 * for a file whose rule is replaced by --rule but whose grid still
 * counts. 0, or -1 with err->usage set. */
int life_topology_parse(const char *text, life_topology *out, ls_error *err);

/* Writes a grid's suffix, ":T64,64" or ":P64,64,64" (sides by dims). */
#define LIFE_TOPOLOGY_TEXT 48
void life_topology_format(int bounded, unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz, char *out, size_t len);

/* The rules the parser knows by name, as people write them ("Day &
 * Night"), and each one's B/S text: how many (at most max) into names[]
 * and rules[]. */
#define LIFE_RULE_NAMES 32
int life_rule_names(const char **names, const char **rules, int max);
/* A name as the parser matches it, "dayandnight" (lower case, without
 * spaces, '-' and '_', '&' spelt "and"): a spelling without characters a
 * shell would take apart. 0, or -1 when it does not fit in len. */
int life_rule_key(const char *name, char *key, size_t len);

/* Writes r in the notation the parser reads: digits when every count is
 * below 10 ("B6/S567"), else comma-separated counts and ranges
 * ("B13,14/S10-12"). Needs at most LIFE_RULE_TEXT bytes. */
#define LIFE_RULE_TEXT 96
void life_rule_format(life_rule r, char *out, size_t len);

#endif
