/* life_text.h - the text pattern formats (life_text.c): RLE as Golly and
 * LifeWiki write it, and LifeWiki's plaintext (.cells). docs/life.md
 * defines both. */
#ifndef LOCKSTEP_LIFE_TEXT_H
#define LOCKSTEP_LIFE_TEXT_H

#include "life_format.h"

extern const life_format_methods life_rle_format;
extern const life_format_methods life_cells_format;

/* `want`: what the run knows of the grid (life_format.h), or NULL. */
int life_read_rle(FILE *f, const char *name, const life_pattern_want *want, life_pattern *p, ls_error *err);
int life_write_rle(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err);
int life_read_cells(FILE *f, const char *name, const life_pattern_want *want, life_pattern *p, ls_error *err);
int life_write_cells(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err);

#endif
