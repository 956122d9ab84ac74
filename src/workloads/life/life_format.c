/* life_format.c - patterns, placing them, and the shape check of a
 * format's row (life_format.h). */
#include "life_format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- patterns ------------------------------------------------------------ */

void life_pattern_free(life_pattern *p)
{
    free(p->cells);
    p->cells = NULL;
}

/* The grid a pattern goes on as far as its reader knows it (nx, ny in
 * the pattern's plane): want's, else the suffix of the file's rule read
 * so far (one side: a square). 0 when neither gives one, or the suffix is
 * malformed (refused later, naming it). */
static int known_grid(const life_pattern *p, const life_pattern_want *want, uint32_t *nx, uint32_t *ny)
{
    life_topology t;
    ls_error ignored;
    if (want && want->nx && want->ny) {
        *nx = want->nx;
        *ny = want->ny;
        return 1;
    }
    if (life_topology_parse(p->rule, &t, &ignored) != 0 || !t.given)
        return 0;
    *nx = t.size[0];
    *ny = t.sides == 1 ? t.size[0] : t.size[1];
    return 1;
}

static int larger_than_grid(const char *name, uint64_t w, uint64_t h, uint32_t nx, uint32_t ny, ls_error *err)
{
    return ls_fail_usage(err, "%s%sthe pattern (%llux%llu) is larger than the grid (%ux%u)", name ? name : "",
                         name ? ": " : "", (unsigned long long)w, (unsigned long long)h, nx, ny);
}

int life_pattern_alloc(life_pattern *p, const char *name, uint64_t w, uint64_t h, const life_pattern_want *want,
                       ls_error *err)
{
    uint32_t nx, ny;
    if (w == 0 || h == 0 || w > LIFE_MAX_SIZE || h > LIFE_MAX_SIZE || w * h > LIFE_PATTERN_MAX_CELLS)
        return ls_fail_usage(err, "%s: a pattern of %llux%llu cells is out of range (1 to %u a side, at most 2^30 "
                                  "cells; larger grids go in the native or PKU format)",
                             name, (unsigned long long)w, (unsigned long long)h, LIFE_MAX_SIZE);
    if (known_grid(p, want, &nx, &ny) && (w > nx || h > ny))
        return larger_than_grid(name, w, h, nx, ny, err);
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
        return larger_than_grid(NULL, p->width, p->height, g->nx, g->ny, err);
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

/* ---- text files ---------------------------------------------------------- */

/* The most a text pattern file may hold: a byte a cell for the largest
 * pattern (a dense .cells file, or an RLE that alternates b and o), and a
 * sixteenth more for line breaks, run counts and comments. Read in chunks
 * of TEXT_CHUNK, each checked as it arrives. */
#define TEXT_MAX_BYTES (LIFE_PATTERN_MAX_CELLS + LIFE_PATTERN_MAX_CELLS / 16)
#define TEXT_CHUNK ((size_t)1 << 16)

/* What life_read_text has seen of the file so far. */
typedef struct text_scan {
    size_t line_max; /* the longest line allowed, in bytes (0: any) */
    size_t line_len; /* bytes of the current line so far */
    unsigned line;   /* its number, from 1 */
} text_scan;

/* Checks the chunk of `len` bytes at buf + at: no NUL byte (no text
 * pattern has one; /dev/zero and binary files do) and no line longer than
 * the scan allows, so that such input is refused after one chunk instead
 * of after the whole file. */
static int scan_chunk(text_scan *sc, const char *name, const char *buf, size_t at, size_t len, ls_error *err)
{
    const char *p = buf + at, *end = p + len;
    const char *nul = memchr(p, '\0', len);
    if (nul)
        return ls_fail_usage(err, "%s: a NUL byte at offset %zu: not a text pattern file", name, (size_t)(nul - buf));
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        sc->line_len += (size_t)((eol ? eol : end) - p);
        if (sc->line_max && sc->line_len > sc->line_max)
            return ls_fail_usage(err, "%s:%u: a line longer than %zu bytes, wider than any pattern", name, sc->line,
                                 sc->line_max);
        if (!eol)
            break;
        sc->line_len = 0;
        sc->line++;
        p = eol + 1;
    }
    return 0;
}

int life_read_text(FILE *f, const char *name, size_t line_max, char **out, size_t *len, ls_error *err)
{
    text_scan sc = {line_max, 0, 1};
    size_t cap = 0, n = 0;
    char *buf = NULL;
    for (;;) {
        if (n == cap) {
            if (cap > TEXT_MAX_BYTES) {
                free(buf);
                return ls_fail_usage(err, "%s: larger than any pattern file lockstep reads (%llu bytes)", name,
                                     (unsigned long long)TEXT_MAX_BYTES);
            }
            size_t bigger_cap = cap ? 2 * cap : TEXT_CHUNK;
            bigger_cap = bigger_cap > TEXT_MAX_BYTES + 1 ? TEXT_MAX_BYTES + 1 : bigger_cap;
            char *bigger = realloc(buf, bigger_cap + 1);
            if (!bigger) {
                free(buf);
                return ls_fail(err, "out of memory reading %s (%zu bytes so far)", name, n);
            }
            buf = bigger;
            cap = bigger_cap;
        }
        size_t want = cap - n < TEXT_CHUNK ? cap - n : TEXT_CHUNK;
        size_t got = fread(buf + n, 1, want, f);
        if (scan_chunk(&sc, name, buf, n, got, err)) {
            free(buf);
            return -1;
        }
        n += got;
        if (got < want)
            break;
    }
    if (ferror(f)) {
        free(buf);
        return ls_fail_usage(err, "cannot read %s: %s", name, strerror(errno));
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
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

void life_shape_text(unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz, char *out, size_t len)
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
    life_shape_text(dims, nx, ny, nz, shape, sizeof shape);
    if ((f->dims && f->dims != dims) || (f->cubes && (nx != ny || nx != nz)))
        return ls_fail_usage(err, "the %s format holds %s; this grid is %uD (%s)%s", f->name, f->holds, dims, shape,
                             f->dims == 2 && f->write ? ": the native format holds any grid" : "");
    uint64_t px = f->side_in_pixels && scale ? scale : 1;
    if (f->largest_side && ((uint64_t)nx * px > f->largest_side || (uint64_t)ny * px > f->largest_side))
        return ls_fail_usage(err, "the grid %s at scale %llu is too large for the %s format (at most %llu %s a side)",
                             shape, (unsigned long long)px, f->name, (unsigned long long)f->largest_side,
                             f->side_in_pixels ? "pixels" : "cells");
    return 0;
}
