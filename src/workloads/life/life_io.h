/* life_io.h - Life grids and patterns in files, read and written: the
 * table of formats (each a row of methods, life_format.h), the whole-grid
 * formats, and the file-level read and atomic write.
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
 *   rle     Golly/LifeWiki run-length encoding of a 2D pattern (life_text.h).
 *   cells   LifeWiki plaintext: '.' dead, 'O' alive, '!' comment lines.
 *   png     a 2D grid as a picture: black cells alive, one pixel per cell
 *           or scale x scale pixels (life_png.h).
 *   gif     written only: an animation of a run (life_anim.h).
 * pku and native hold whole grids; the others hold patterns, which are
 * placed into a grid (life_place). */
#ifndef LOCKSTEP_LIFE_IO_H
#define LOCKSTEP_LIFE_IO_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "life_format.h"
#include "life_png.h"
#include "output.h"

/* The rows defined here; the formats a run names. */
extern const life_format_methods life_pku_format, life_native_format, life_gif_format;
#define LIFE_FORMAT_AUTO ((life_format)NULL)
#define LIFE_FORMAT_PNG (&life_png_format) /* --frames */
#define LIFE_FORMAT_GIF (&life_gif_format) /* --out run.gif */
#define LIFE_FORMAT_PKU (&life_pku_format) /* written where the slabs live under MPI */

/* A format by its name (--format): 0, or -1 with err->usage set naming
 * the formats there are. */
int life_format_parse(const char *name, life_format *out, ls_error *err);
/* The format of `path` by its extension when `given` is AUTO, else
 * `given`: 0, or -1 with err->usage set naming the extensions there are. */
int life_format_resolve(const char *path, life_format given, life_format *out, ls_error *err);
/* The format names --format takes, "pku|native|...", as its help shows
 * them (and shell completion offers them). */
const char *life_format_choices(void);
/* Each format as the man page's FILE FORMATS lists it: "pku (.data, .bin,
 * .pku): what it holds", a paragraph each (blank lines between). */
void life_format_manual(char *out, size_t len);

/* ---- whole grids ------------------------------------------------------ */

/* `name` is the file's name for messages. On success *g is a new grid. */
int life_read_pku(FILE *f, const char *name, life_grid *g, life_meta *meta, ls_error *err);
int life_write_pku(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err);
int life_read_native(FILE *f, const char *name, life_grid *g, life_meta *meta, ls_error *err);
int life_write_native(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err);

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
/* A PKU file written in pieces by several writers (the slabs of a run, in
 * this process and others of a shared file system), whole or not at all:
 * the temporary file with its header, sized for every cell of an m^3
 * grid, and *tmp its absolute path (to free) and *fd a descriptor of it,
 * which life_pku_write_rows writes; life_out_commit puts it in place,
 * life_out_abort removes it. 0 with *tmp NULL when the target is written
 * through (a pipe, a terminal), which takes a file in order only: the
 * caller then writes it whole with life_out_write. */
int life_out_pku_open(life_out *out, const char *path, uint32_t m, uint64_t generation, char **tmp, int *fd,
                      ls_error *err);
/* The cells of `rows` (rows of m = rows->nx cells), the rows from
 * first_row on of a PKU file's grid, at their offsets in fd. 0, or -1
 * with err saying why (without the file's name). */
int life_pku_write_rows(int fd, const life_grid *rows, uint64_t first_row, ls_error *err);
void life_out_abort(life_out *out);

#endif
