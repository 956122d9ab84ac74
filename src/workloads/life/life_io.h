/* life_io.h - Life grids and patterns in files, read and written.
 *
 * Formats (docs/life.md defines each exactly):
 *   pku     PKU HPCGame 2024 problem G: little-endian uint64 M, uint64 T,
 *           then M^3 bytes, cell (x, y, z) of the contest at byte
 *           x M^2 + y M + z, 1 alive, 0 dead. The contest's z is the
 *           grid's x (fastest), its x the grid's z, so the file's byte
 *           order is the grid's canonical cell order. Cubes only.
 *   native  any size and dimension, 8 cells a byte, after a header (magic
 *           "lslife2", shape, rule, generation), then a checksum of every
 *           byte before it (extension .lsgrid).
 *   rle     Golly/LifeWiki run-length encoding of a 2D pattern.
 *   cells   LifeWiki plaintext: '.' dead, 'O' alive, '!' comment lines.
 *   png     a 2D grid as a picture: black cells alive, one pixel per cell
 *           or scale x scale pixels.
 * pku and native hold whole grids; rle, cells and png hold patterns,
 * which are placed into a grid (life_place). Every reader reports bad
 * input as one line naming the file and what is wrong (err->usage set),
 * and allocates only as much as the input that has arrived justifies (a
 * header claiming a huge grid costs nothing until its cells come);
 * writers report failed writes. */
#ifndef LOCKSTEP_LIFE_IO_H
#define LOCKSTEP_LIFE_IO_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "life.h"
#include "output.h"
#include "life_grid.h"
#include "life_rule.h"

typedef enum life_format {
    LIFE_FORMAT_AUTO, /* from the file name's extension */
    LIFE_FORMAT_PKU,
    LIFE_FORMAT_NATIVE,
    LIFE_FORMAT_RLE,
    LIFE_FORMAT_CELLS,
    LIFE_FORMAT_PNG,
    LIFE_FORMAT_GIF, /* written only: an animation of a run (life_anim.h) */
} life_format;

/* "pku", "native", "rle", "cells", "png", "gif": 0, or -1 with err->usage
 * set. */
int life_format_parse(const char *name, life_format *out, ls_error *err);
/* The format of `path` by its extension (.data .bin .pku, .lsgrid, .rle,
 * .cells, .png) when `given` is AUTO, else `given`: 0 or -1. */
int life_format_resolve(const char *path, life_format given, life_format *out, ls_error *err);
const char *life_format_name(life_format f);
/* The format names --format takes, "pku|native|...", as its help shows
 * them (and shell completion offers them). */
const char *life_format_choices(void);
/* Each format as the man page's FILE FORMATS lists it: "pku (.data, .bin,
 * .pku): what it holds", a paragraph each (blank lines between). */
void life_format_manual(char *out, size_t len);
/* 1 for formats that hold a whole grid (pku, native), 0 for patterns. */
int life_format_is_grid(life_format f);

/* PNG's limit on a picture's side, in pixels (2^31 - 1); GIF's (2^16 - 1). */
#define LIFE_PNG_MAX_SIDE 0x7fffffffu
#define LIFE_GIF_MAX_SIDE 0xffffu

/* Whether format f can hold a grid of this shape (PKU: a 3D cube; RLE,
 * cells, PNG and GIF: 2D; PNG: at most LIFE_PNG_MAX_SIDE pixels a side at
 * `scale`, GIF LIFE_GIF_MAX_SIDE; native: any): 0, or -1 with err->usage
 * set. The writers refuse
 * what this refuses, so a run checks its output with it before computing. */
int life_format_check_shape(life_format f, unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz, uint32_t scale,
                            ls_error *err);

/* A 2D pattern: the bounding box its file declares, a byte per cell. */
typedef struct life_pattern {
    uint32_t width, height;
    uint8_t *cells;                 /* cells[y * width + x], 0 or 1 */
    char rule[LIFE_RULE_TEXT];      /* the RLE header's rule; "" if none */
} life_pattern;

void life_pattern_free(life_pattern *p);

/* The largest pattern read: LIFE_PATTERN_MAX_CELLS cells (a byte each in
 * memory while it is placed), each side at most LIFE_MAX_SIZE. A file's
 * header can claim any box, so every pattern reader checks the box with
 * life_pattern_alloc before it reads or decodes a cell; whole grids
 * larger than this go in the native or PKU format. */
#define LIFE_PATTERN_MAX_CELLS (1ull << 30)
/* An all-dead w x h pattern, or -1 with err->usage set (out of range) or
 * err set (no memory). `name` is the file's, for the message. */
int life_pattern_alloc(life_pattern *p, const char *name, uint64_t w, uint64_t h, ls_error *err);

/* What a file says beyond its cells, and what a writer needs to know. */
typedef struct life_meta {
    uint64_t generation;  /* PKU T, native generation count */
    life_rule rule;       /* the rule (native files, RLE headers) */
    int has_rule;         /* a native file's rule is set */
    uint32_t scale;       /* PNG pixels per cell along each side (>= 1) */
    /* Where the run started, for a PNG's text chunks: a random fill's
     * seed (has_seed), or the file it was read from (source, or NULL). */
    int has_seed;
    uint64_t seed;
    const char *source;
} life_meta;

/* ---- whole grids ------------------------------------------------------ */

/* `name` is the file's name for messages. On success *g is a new grid. */
int life_read_pku(FILE *f, const char *name, life_grid *g, life_meta *meta, ls_error *err);
int life_write_pku(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err);
int life_read_native(FILE *f, const char *name, life_grid *g, life_meta *meta, ls_error *err);
int life_write_native(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err);

/* ---- patterns --------------------------------------------------------- */

int life_read_rle(FILE *f, const char *name, life_pattern *p, ls_error *err);
int life_write_rle(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err);
int life_read_cells(FILE *f, const char *name, life_pattern *p, ls_error *err);
int life_write_cells(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err);
int life_read_png(FILE *f, const char *name, uint32_t scale, life_pattern *p, ls_error *err);
/* PNG: with text chunks (tEXt) Software, Rule (with the grid's suffix,
 * "B3/S23:T64,64"), Generation, and Seed or Source (life_meta). */
int life_write_png(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err);

/* Copies p into g (2D, or the middle plane z = nz / 2 of a 3D grid) with
 * its top-left cell at (x, y); at == NULL centres it. Refuses a pattern
 * larger than the grid, and one that would not fit at (x, y) without
 * wrapping around the torus. */
typedef struct life_at {
    uint32_t x, y;
} life_at;
int life_place(life_grid *g, const life_pattern *p, const life_at *at, ls_error *err);

/* ---- files ------------------------------------------------------------ */

/* Reads `path` in format `fmt` (AUTO: by extension). A whole-grid format
 * fills *g and leaves *p empty; a pattern format fills *p and leaves *g
 * empty (words == NULL). */
int life_read_file(const char *path, life_format fmt, uint32_t png_scale, life_grid *g, life_pattern *p,
                   life_meta *meta, ls_error *err);

/* Writes g to `path` in format `fmt`, whole or not at all, in two steps:
 * life_out_write writes the file under a temporary name in the same
 * directory (a target written through, such as a pipe: into memory), and
 * life_out_commit renames it over `path` (writes it through) once the run
 * is reported whole; life_out_abort removes it. Both do nothing to an out
 * never written, or already committed. A PKU file is written by threads
 * into a mapping of the temporary file (ls_atomic_map) where the target
 * takes one, else through pwrite(). Meanwhile one of the threads runs
 * beside->fn(beside->arg) (or it runs first, for a writer of one thread):
 * the run's digest, a single thread's work that the writing would
 * otherwise wait for. It has run when life_out_write returns 0. */
typedef struct life_beside {
    void (*fn)(void *arg);
    void *arg;
} life_beside;

typedef struct life_out {
    ls_atomic_file file;
    int written; /* written, not yet committed or aborted */
} life_out;

int life_out_write(life_out *out, const char *path, life_format fmt, const life_grid *g, const life_meta *meta,
                   const life_beside *beside, ls_error *err);
int life_out_commit(life_out *out, ls_error *err);
void life_out_abort(life_out *out);

#endif
