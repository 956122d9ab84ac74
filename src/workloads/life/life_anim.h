/* life_anim.h - a run of Life as pictures, one for every sample of
 * --every: an animated GIF (--out run.gif, through giflib) and a numbered
 * PNG a sample (--frames DIR, with the rule, generation and seed in text
 * chunks).
 *
 * Frames are written as they are sampled, so memory stays one row of
 * pixels whatever the number of frames, and appear whole or not at all,
 * through src/output.h: the GIF goes to a temporary file next to its name
 * (ls_atomic_file), the PNGs to a temporary directory next to DIR
 * (ls_atomic_dir); both are renamed into place by life_anim_commit once
 * the run has finished, and removed by life_anim_abort when it has not
 * (an error, Ctrl-C: exit 130). DIR is a new directory or an empty one,
 * which the frames' one replaces: a set of frames is never mixed with an
 * older one. A run killed outright (SIGKILL) leaves its temporary file or
 * directory; the next run into the same GIF or DIR removes it, never one
 * that a live run holds (output.h says how). */
#ifndef LOCKSTEP_LIFE_ANIM_H
#define LOCKSTEP_LIFE_ANIM_H

#include <stdint.h>

#include "error.h"
#include "life_grid.h"
#include "life_format.h"

/* Hundredths of a second each GIF frame shows. */
#define LIFE_GIF_DELAY_CS 10

/* Whether this lockstep writes GIFs (built with giflib): 0, or -1 with
 * err->usage set and a message saying how to get them. */
int life_gif_available(ls_error *err);

typedef struct life_anim life_anim;

typedef struct life_anim_opts {
    const char *gif;    /* the GIF's path, or NULL */
    const char *frames; /* the directory of PNG frames, or NULL */
    uint64_t count;     /* frames the run will take (their numbers' width) */
    life_meta meta;     /* rule, scale, seed or source; generation is each frame's */
} life_anim_opts;

/* Starts the outputs for grids shaped as g. 0, or -1 with err set. */
int life_anim_open(const life_anim_opts *o, const life_grid *g, life_anim **out, ls_error *err);
/* Writes g, at `generation`, as the next frame of each output. */
int life_anim_add(life_anim *a, const life_grid *g, uint64_t generation, ls_error *err);
/* Completes the outputs and puts them in place; frees a either way. */
int life_anim_commit(life_anim *a, ls_error *err);
/* Removes everything written; the paths are left as they were. NULL: nothing. */
void life_anim_abort(life_anim *a);

#endif
