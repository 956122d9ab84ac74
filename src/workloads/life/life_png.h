/* life_png.h - 2D grids as PNG pictures (life_png.c, through libpng):
 * black cells alive, white dead, scale x scale pixels a cell. */
#ifndef LOCKSTEP_LIFE_PNG_H
#define LOCKSTEP_LIFE_PNG_H

#include "life_format.h"

extern const life_format_methods life_png_format;

/* At the scale its Scale text chunk says, else want's (NULL, 0: 1). */
int life_read_png(FILE *f, const char *name, const life_pattern_want *want, life_pattern *p, ls_error *err);
/* With text chunks (tEXt) Software, Rule (with the grid's suffix,
 * "B3/S23:T64,64"), Generation, and Seed or Source (life_meta). */
int life_write_png(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err);

#endif
