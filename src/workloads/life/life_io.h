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
 *   native  any size and dimension, 8 cells a byte, rows padded to a
 *           byte, after a header (magic "lslife3", shape, rule,
 *           generation), then the grid digest and a check of the header
 *           (extension .lsgrid); "lslife2" files (rows not padded, an
 *           FNV-1a checksum of every byte) are read too.
 *   rle     Golly/LifeWiki run-length encoding of a 2D pattern (life_text.h).
 *   cells   LifeWiki plaintext: '.' dead, 'O' alive, '!' comment lines.
 *   png     a 2D grid as a picture: black cells alive, one pixel per cell
 *           or scale x scale pixels (life_png.h).
 *   gif     written only: an animation of a run (life_anim.h).
 * pku and native hold whole grids; the others hold patterns, which are
 * placed into a grid (life_place). A whole grid's file is also read and
 * written a range of planes at a time, at their offsets, by the slabs of
 * a run where they live (life_grid_in, life_pieces). */
#ifndef LOCKSTEP_LIFE_IO_H
#define LOCKSTEP_LIFE_IO_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "file_pass.h"
#include "life_format.h"
#include "life_png.h"
#include "output.h"

/* The rows defined here; the formats a run names. */
extern const life_format_methods life_pku_format, life_native_format, life_gif_format;
#define LIFE_FORMAT_AUTO ((life_format)NULL)
#define LIFE_FORMAT_PNG (&life_png_format) /* --frames */
#define LIFE_FORMAT_GIF (&life_gif_format) /* --out run.gif */
#define LIFE_FORMAT_PKU (&life_pku_format)
#define LIFE_FORMAT_NATIVE (&life_native_format)

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
 * fills *g and leaves *p empty; a pattern format fills *p (knowing what
 * `want` says of its grid, or NULL) and leaves *g empty (words == NULL). */
int life_read_file(const char *path, life_format fmt, const life_pattern_want *want, life_grid *g, life_pattern *p,
                   life_meta *meta, ls_error *err);

/* Writes g to `path` in format `fmt`, whole or not at all, in two steps:
 * life_out_write writes the file under a temporary name in the same
 * directory (a target written through, such as a pipe: into memory), and
 * life_out_commit renames it over `path` (writes it through) once the run
 * is reported whole; life_out_abort removes it. Both do nothing to an out
 * never written, or already committed. A PKU or native file is written by
 * threads into a mapping of the temporary file (ls_atomic_map) where the
 * target takes one, else through pwrite() (file_pass.h). Meanwhile one
 * of the threads runs `beside` (or it runs first, for a writer of one
 * thread): the run's digest, a single thread's work that the writing
 * would otherwise wait for. It has run when life_out_write returns 0. */

typedef struct life_out {
    ls_atomic_file file;
    int written;    /* written, not yet committed or aborted */
    uint64_t ready; /* bytes of a temporary file made ready (life_out_prepare) and not written yet; 0: none */
} life_out;

/* A write of path begun ahead, while the devices open (life_out_write
 * and life_out_pieces_open, given this out, take it, or remove it and
 * make their own; the out they are given is zeroed otherwise): the
 * temporary file of a PKU or native grid of this shape made ready
 * (ls_atomic_ready, file_pass.h: reserved, mapped and faulted in), so
 * that the write after the run only fills it. 0 (out->ready 0 where
 * nothing was made ready: a pipe, a file larger than an eighth of the
 * memory ...), or -1 with err set when the file cannot be written (no
 * space for it), the message the write would give; nothing is left.
 * life_out_abort removes what was made ready. */
int life_out_prepare(life_out *out, const char *path, life_format fmt, const life_grid *shape, ls_error *err);
int life_out_write(life_out *out, const char *path, life_format fmt, const life_grid *g, const life_meta *meta,
                   const ls_beside *beside, ls_error *err);
int life_out_commit(life_out *out, ls_error *err);
void life_out_abort(life_out *out);

/* ---- whole grids a range of planes at a time ---------------------------- */

/* A PKU or native grid file (any version read: lslife2, lslife3) read a
 * range of units at a time, at their offsets: rows in 2D, planes in 3D
 * (the units of the grid digest and of a run's slabs). */
typedef struct life_grid_in life_grid_in;

/* Opens `path` in format fmt (PKU or native, resolved) and checks its
 * header against its length: *shape is the grid's (no cells), meta what
 * the header says. lslife3's trailer must check its header; lslife2's
 * checksum is verified over the whole file now (FNV-1a runs over every
 * byte in order, on one thread). 0; 1 when path is no regular file (a
 * pipe, a device: read it whole, life_read_file); -1 with err set (bad
 * input: err->usage). */
int life_grid_in_open(const char *path, life_format fmt, life_grid *shape, life_meta *meta, life_grid_in **out,
                      ls_error *err);
/* Units [first, first + n) of the grid into words (n units in the grid's
 * layout, life_grid.h), converted by the calling thread's OpenMP team;
 * calls may overlap (pread). 0, or -1 with err set: a bad cell (PKU: a
 * byte other than 0 and 1; lslife3: a bit past a row's last cell) or a
 * file cut short meanwhile is bad input. */
int life_grid_in_planes(const life_grid_in *in, uint32_t first, uint32_t n, uint32_t *words, ls_error *err);
/* What tells this file from another, for ranks that compare what each
 * read: XXH3 of its header and trailer (native: they record the cells'
 * digest or checksum), or of a PKU file's header; with `whole`, of every
 * byte of a PKU file (a pass over all of it, 4 MiB chunks on every
 * thread). 0, or -1 with err set. */
int life_grid_in_fingerprint(const life_grid_in *in, int whole, uint64_t *out, ls_error *err);
/* 1 with *digest the grid digest (version 2) the file records (lslife3),
 * which the cells read must have; 0 when it records none. */
int life_grid_in_digest(const life_grid_in *in, uint64_t *digest);
const char *life_grid_in_name(const life_grid_in *in);
void life_grid_in_close(life_grid_in *in);

/* ---- whole grids written in pieces -------------------------------------- */

#define LIFE_GRID_HEADER_MAX 40

/* Where the rows of a PKU or native file go, for writers of any of its
 * parts (the slabs of a run, in this process and in others of a shared
 * file system): the header, the rows at their offsets, then the native
 * trailer, whose digest the rows' writers make. */
typedef struct life_pieces {
    life_format fmt;
    int fd;            /* the file, written with pwrite(); */
    uint8_t *map;      /* or mapped (one process's): its first byte; else NULL */
    int faulted_in;    /* the mapping's pages are in already (life_out_prepare) */
    uint32_t nx;       /* cells a row */
    uint64_t grid_rows;
    uint64_t head;     /* bytes before the first row */
    size_t row_bytes;  /* bytes a row */
    size_t trailer;    /* bytes after the last row */
    uint8_t header[LIFE_GRID_HEADER_MAX];
} life_pieces;

/* The layout of format fmt's file of a grid of this shape (and meta's
 * rule and generation), fd -1: for a writer that opens the file itself. */
void life_pieces_layout(life_pieces *p, life_format fmt, const life_grid *shape, const life_meta *meta);
/* The file out writes `path` to, whole or not at all, for writers in
 * pieces: the temporary file with its header, sized for every row and
 * the trailer, p its layout and descriptor, and *tmp its absolute path
 * (to free), for the writers of other processes. With `map`, and a target
 * that takes one (ls_atomic_map: its blocks reserved first), the file is
 * mapped (p->map), for this process alone to write: the one out holds
 * where it was made ready for this write (life_out_prepare; out is
 * otherwise zeroed, or what it holds is removed first). life_out_commit puts
 * it in place, life_out_abort removes it. 0 with *tmp NULL when the
 * target is written through (a pipe, a terminal), which takes a file in
 * order only: written whole with life_out_write instead. */
int life_out_pieces_open(life_out *out, const char *path, life_format fmt, const life_grid *shape,
                         const life_meta *meta, int map, life_pieces *p, char **tmp, ls_error *err);
/* Where p is a mapping (life_out_pieces_open's `map`), its pages faulted
 * in before pieces of the grid are written into it a few rows at a time:
 * each thread a share of the file in one piece, the fast order
 * (ls_map_fault_in). Nothing otherwise, nor where the file
 * was made ready ahead (life_out_prepare faulted it in). */
void life_pieces_prefault(const life_pieces *p);
/* The cells of `rows` (rows of p->nx cells), rows first_row .. of the
 * grid, at their offsets, on the calling thread's OpenMP team. 0, or -1
 * with err saying why (without the file's name). */
int life_pieces_write_rows(const life_pieces *p, const life_grid *rows, uint64_t first_row, ls_error *err);
/* Once every row is written: the native trailer (the grid digest of every
 * row, and the check of the header and the digest). 0, or -1 with err
 * set (without the file's name). */
int life_pieces_finish(const life_pieces *p, uint64_t digest, ls_error *err);

#endif
