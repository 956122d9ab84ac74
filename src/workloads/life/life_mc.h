/* life_mc.h - Golly's macrocell format (.mc, life_mc.c): a 2D two-state
 * pattern as a quadtree of nodes shared wherever the pattern repeats, as
 * Golly's HashLife keeps it in memory. docs/life.md defines it. */
#ifndef LOCKSTEP_LIFE_MC_H
#define LOCKSTEP_LIFE_MC_H

#include "life_format.h"

extern const life_format_methods life_mc_format;

/* A bounded pattern: its live cells' box, placed by the file (has_pos:
 * the box's top-left cell in Golly's coordinates), with the rule (#R) and
 * generation (#G). A box beyond a pattern's limits, or larger than the
 * grid (`want`'s, else #R's suffix), is refused from the tree, saying its
 * size, before a cell of it is allocated. */
int life_read_mc(FILE *f, const char *name, const life_pattern_want *want, life_pattern *p, ls_error *err);
/* "[M2]", #R the rule with the grid's suffix, #G the generation, then the
 * tree of the grid's live cells, each distinct node once, children first,
 * with the grid's cell (nx / 2, ny / 2) at Golly's origin. */
int life_write_mc(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err);

#endif
