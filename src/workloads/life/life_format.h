/* life_format.h - what every Life file format shares, below the readers
 * and writers:
 *
 * - a format's row of methods (life_format_methods): its name, its
 *   extensions, its reader and writer, the grids it holds (dimension,
 *   largest side), as sqlite3_io_methods is a VFS file's. Each format's
 *   file defines its row (life_text.c: rle and cells; life_png.c;
 *   life_mc.c; life_io.c: pku, native and gif), and life_io.c's table
 *   lists them: a new format is a file and a row there;
 * - what a file says beyond its cells (life_meta);
 * - 2D patterns (life_pattern) and placing them in a grid (life_place);
 * - whether a format holds a grid of a given shape (life_format_check_shape),
 *   which the writers check and a run checks before computing.
 *
 * Every reader reports bad input as one line naming the file and what is
 * wrong (err->usage set), and allocates only as much as the input that has
 * arrived justifies (a header claiming a huge grid costs nothing until its
 * cells come); writers report failed writes. */
#ifndef LOCKSTEP_LIFE_FORMAT_H
#define LOCKSTEP_LIFE_FORMAT_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "life_grid.h"
#include "life_rule.h"

/* The most pixels a cell along each side of a picture (--scale). */
#define LIFE_MAX_SCALE 4096u

/* PNG's limit on a picture's side, in pixels (2^31 - 1); GIF's (2^16 - 1). */
#define LIFE_PNG_MAX_SIDE 0x7fffffffu
#define LIFE_GIF_MAX_SIDE 0xffffu

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

/* ---- patterns --------------------------------------------------------- */

/* A 2D pattern: the bounding box its file declares, a byte per cell, and
 * where the file puts it in Golly's coordinates, whose origin is the cell
 * (nx / 2, ny / 2) of an nx x ny grid (life_place). */
typedef struct life_pattern {
    uint32_t width, height;
    uint8_t *cells;                 /* cells[y * width + x], 0 or 1 */
    char rule[LIFE_RULE_TEXT];      /* the file's rule, with its grid suffix; "" if none */
    int has_pos;                    /* the file places it (#CXRLE Pos=, a macrocell) */
    int64_t pos_x, pos_y;           /* then: its top-left cell in Golly's coordinates */
    uint64_t generation;            /* the file's generation (#CXRLE Gen=, ...); 0 if none */
} life_pattern;

void life_pattern_free(life_pattern *p);

/* What a run knows of a pattern's grid before its file is read, for the
 * reader: a picture's pixels a cell where its text chunks say none
 * (--scale; 0: 1), and the grid's sides in the pattern's plane where the
 * command line gives them (--size, --rule's suffix; 0: not given, the
 * file's own suffix then, else its box). */
typedef struct life_pattern_want {
    uint32_t scale;
    uint32_t nx, ny;
} life_pattern_want;

/* The largest pattern read: LIFE_PATTERN_MAX_CELLS cells (a byte each in
 * memory while it is placed), each side at most LIFE_MAX_SIZE. A file's
 * header can claim any box, so every pattern reader checks the box with
 * life_pattern_alloc before it reads or decodes a cell; whole grids
 * larger than this go in the native or PKU format. */
#define LIFE_PATTERN_MAX_CELLS (1ull << 30)
/* An all-dead w x h pattern, or -1 with err->usage set (out of range) or
 * err set (no memory). `name` is the file's, for the message. A box
 * larger than its grid is refused here, before a byte of it is
 * allocated or a cell painted: the grid `want` gives (NULL: none), else
 * the one the suffix of the rule read so far (p->rule) gives. */
int life_pattern_alloc(life_pattern *p, const char *name, uint64_t w, uint64_t h, const life_pattern_want *want,
                       ls_error *err);

/* Where a pattern goes in a grid. */
typedef enum life_placing {
    /* Where Golly puts it on a bounded grid or torus of the grid's size
     * (readpattern.cpp, lifealgo.cpp): the grid's top-left cell is
     * Golly's (-(nx / 2), -(ny / 2)); a pattern at the file's Pos, else
     * with its cell (w / 2, h / 2) on Golly's origin, the grid's cell
     * (nx / 2, ny / 2). */
    LIFE_PLACE_GOLLY,
    LIFE_PLACE_CENTRE, /* centred, rounding up and left: top-left at ((nx - w) / 2, (ny - h) / 2) */
    LIFE_PLACE_AT,     /* its top-left cell at (x, y) */
} life_placing;

typedef struct life_at {
    life_placing how;
    uint32_t x, y; /* LIFE_PLACE_AT */
} life_at;

/* Copies p into g (2D, or the middle plane z = nz / 2 of a 3D grid) where
 * `at` says (NULL: LIFE_PLACE_GOLLY). Refuses a pattern larger than the
 * grid, and one that would not lie inside it where it is put: wrapping it
 * around a torus would run a pattern other than the one named. */
int life_place(life_grid *g, const life_pattern *p, const life_at *at, ls_error *err);

/* ---- text files --------------------------------------------------------- */

/* The whole of a text pattern file (RLE, cells, macrocell) in memory,
 * NUL-terminated, *len bytes: at most a byte a cell of the largest
 * pattern and a sixteenth more. Read and checked a chunk at a time as it
 * arrives: a NUL byte (no text pattern has one; /dev/zero and binary
 * files do), and a line longer than line_max bytes (0: any), are refused
 * after one chunk, not after the whole file. 0, or -1 with err set. */
int life_read_text(FILE *f, const char *name, size_t line_max, char **out, size_t *len, ls_error *err);

/* ---- formats ------------------------------------------------------------ */

/* `name` is the file's name for messages. A grid reader makes *g whole
 * (PKU, native); a pattern reader fills *p, knowing what `want` says
 * (NULL: nothing). */
typedef int (*life_grid_reader)(FILE *f, const char *name, life_grid *g, life_meta *meta, ls_error *err);
typedef int (*life_pattern_reader)(FILE *f, const char *name, const life_pattern_want *want, life_pattern *p,
                                   ls_error *err);
typedef int (*life_grid_writer)(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err);

typedef struct life_format_methods {
    const char *name;          /* as --format takes it: "rle" */
    const char *extensions[4]; /* ".rle", matched without regard to case; NULL after the last */
    const char *holds;         /* what its files hold, for messages: "2D patterns" */
    const char *about;         /* what the man page says of it (docs/life.md has the layouts) */
    unsigned dims;             /* the grids it holds: 2, 3, or 0 for either */
    int cubes;                 /* 3D cubes only (PKU) */
    uint64_t largest_side;     /* the most cells a side (pixels at the scale, where side_in_pixels); 0: any grid's */
    int side_in_pixels;
    life_grid_reader read_grid;       /* a whole grid, or NULL */
    life_pattern_reader read_pattern; /* a pattern, or NULL; neither: written only */
    life_grid_writer write;           /* NULL: not a grid file (a GIF is written by the run, life_anim.h) */
} life_format_methods;

/* A format: its row (NULL: not chosen yet, from the file name's extension). */
typedef const life_format_methods *life_format;

const char *life_format_name(life_format f);
/* A grid's shape for messages: "300x200" or "300x200x100". */
void life_shape_text(unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz, char *out, size_t len);
/* 1 for formats that hold a whole grid (pku, native), 0 for patterns. */
int life_format_is_grid(life_format f);

/* Whether format f can hold a grid of this shape (its dimension, cubes,
 * its largest side at `scale` pixels a cell): 0, or -1 with err->usage
 * set. The writers refuse what this refuses, so a run checks its output
 * with it before computing. */
int life_format_check_shape(life_format f, unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz, uint32_t scale,
                            ls_error *err);

#endif
