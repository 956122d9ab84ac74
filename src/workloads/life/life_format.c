/* life_format.c - patterns, placing them, and the shape check of a
 * format's row (life_format.h). */
#include "life_format.h"

#include <stdlib.h>
#include <string.h>

/* ---- patterns ------------------------------------------------------------ */

void life_pattern_free(life_pattern *p)
{
    free(p->cells);
    p->cells = NULL;
}

int life_pattern_alloc(life_pattern *p, const char *name, uint64_t w, uint64_t h, ls_error *err)
{
    if (w == 0 || h == 0 || w > LIFE_MAX_SIZE || h > LIFE_MAX_SIZE || w * h > LIFE_PATTERN_MAX_CELLS)
        return ls_fail_usage(err, "%s: a pattern of %llux%llu cells is out of range (1 to %u a side, at most 2^30 "
                                  "cells; larger grids go in the native or PKU format)",
                             name, (unsigned long long)w, (unsigned long long)h, LIFE_MAX_SIZE);
    p->cells = calloc((size_t)(w * h), 1);
    if (!p->cells)
        return ls_fail(err, "out of memory for a %llux%llu pattern", (unsigned long long)w, (unsigned long long)h);
    p->width = (uint32_t)w;
    p->height = (uint32_t)h;
    return 0;
}

/* The top-left cell of p in g where `at` says, as a signed position (a
 * file's Pos may lie outside the grid). */
static void place_corner(const life_grid *g, const life_pattern *p, const life_at *at, int64_t *x, int64_t *y)
{
    life_placing how = at ? at->how : LIFE_PLACE_GOLLY;
    if (how == LIFE_PLACE_AT) {
        *x = at->x;
        *y = at->y;
    } else if (how == LIFE_PLACE_CENTRE) {
        *x = (g->nx - p->width) / 2;
        *y = (g->ny - p->height) / 2;
    } else if (p->has_pos) {
        *x = (int64_t)(g->nx / 2) + p->pos_x;
        *y = (int64_t)(g->ny / 2) + p->pos_y;
    } else {
        *x = (int64_t)(g->nx / 2) - p->width / 2;
        *y = (int64_t)(g->ny / 2) - p->height / 2;
    }
}

int life_place(life_grid *g, const life_pattern *p, const life_at *at, ls_error *err)
{
    if (p->width > g->nx || p->height > g->ny)
        return ls_fail_usage(err, "the pattern (%ux%u) is larger than the grid (%ux%u)", p->width, p->height, g->nx,
                             g->ny);
    int64_t x0, y0;
    place_corner(g, p, at, &x0, &y0);
    int by_pos = (!at || at->how == LIFE_PLACE_GOLLY) && p->has_pos;
    if (x0 < 0 || y0 < 0 || x0 + p->width > g->nx || y0 + p->height > g->ny) {
        if (by_pos)
            return ls_fail_usage(err, "the pattern (%ux%u) at Pos=%lld,%lld lies outside the grid (%ux%u, Golly's "
                                      "cells %lld,%lld to %lld,%lld); give --size, or --at to place it",
                                 p->width, p->height, (long long)p->pos_x, (long long)p->pos_y, g->nx, g->ny,
                                 -(long long)(g->nx / 2), -(long long)(g->ny / 2),
                                 (long long)(g->nx - g->nx / 2 - 1), (long long)(g->ny - g->ny / 2 - 1));
        return ls_fail_usage(err, "the pattern (%ux%u) at %lld,%lld does not fit in the grid (%ux%u): its top-left "
                                  "cell goes at most at %u,%u",
                             p->width, p->height, (long long)x0, (long long)y0, g->nx, g->ny, g->nx - p->width,
                             g->ny - p->height);
    }
    uint32_t z = g->nz / 2;
    for (uint32_t y = 0; y < p->height; y++)
        for (uint32_t x = 0; x < p->width; x++)
            if (p->cells[(size_t)y * p->width + x])
                life_set(g, (uint32_t)x0 + x, (uint32_t)y0 + y, z, 1);
    return 0;
}

/* ---- a format's row --------------------------------------------------------- */

const char *life_format_name(life_format f)
{
    return f ? f->name : "auto";
}

int life_format_is_grid(life_format f)
{
    return f && f->read_grid != NULL;
}

/* "300x200" or "300x200x100". */
static void shape_text(unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz, char *out, size_t len)
{
    if (dims == 3)
        snprintf(out, len, "%ux%ux%u", nx, ny, nz);
    else
        snprintf(out, len, "%ux%u", nx, ny);
}

int life_format_check_shape(life_format f, unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz, uint32_t scale,
                            ls_error *err)
{
    char shape[64];
    shape_text(dims, nx, ny, nz, shape, sizeof shape);
    if ((f->dims && f->dims != dims) || (f->cubes && (nx != ny || nx != nz)))
        return ls_fail_usage(err, "the %s format holds %s; this grid is %uD (%s)%s", f->name, f->holds, dims, shape,
                             f->dims == 2 && f->write ? ": the native format holds any grid" : "");
    uint64_t px = f->side_in_pixels && scale ? scale : 1;
    if (f->largest_side && ((uint64_t)nx * px > f->largest_side || (uint64_t)ny * px > f->largest_side))
        return ls_fail_usage(err, "a %s grid at scale %llu is too large for the %s format (at most %llu %s a side)",
                             shape, (unsigned long long)px, f->name, (unsigned long long)f->largest_side,
                             f->side_in_pixels ? "pixels" : "cells");
    return 0;
}
