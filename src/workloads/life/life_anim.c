/* life_anim.c - the frames of a Life run: an animated GIF (giflib, when
 * built with it: LS_HAVE_GIF) and a directory of numbered PNGs. See
 * life_anim.h for what appears when. */
#include "life_anim.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "life_png.h"
#include "output.h"

#ifdef LS_HAVE_GIF
#include <gif_lib.h>
#endif

/* ---- the GIF -------------------------------------------------------------- */

#ifdef LS_HAVE_GIF
/* An animated GIF being written: two colours (0 white, dead; 1 black,
 * alive), each frame a whole picture shown LIFE_GIF_DELAY_CS, looping. */
typedef struct gif_out {
    ls_atomic_file file;
    GifFileType *gif;
    GifPixelType *row; /* one row of pixels */
    uint32_t width, height, scale;
    int write_errno;   /* of the write that failed, or 0 */
} gif_out;

/* giflib's output: the atomic file's stream. A write that fails keeps its
 * errno, the reason ("No space left on device"), which giflib's own code
 * for it does not give. */
static int gif_write(GifFileType *gif, const GifByteType *bytes, int len)
{
    gif_out *g = gif->UserData;
    errno = 0;
    size_t written = fwrite(bytes, 1, (size_t)len, g->file.f);
    if (written != (size_t)len && !g->write_errno)
        g->write_errno = errno ? errno : EIO;
    return (int)written;
}

/* The write error that made giflib fail, or what giflib said. */
static int gif_fail(const gif_out *g, int code, ls_error *err)
{
    if (g->write_errno)
        return ls_fail(err, "cannot write %s: %s", g->file.name, strerror(g->write_errno));
    return ls_fail(err, "cannot write %s: %s", g->file.name, GifErrorString(code));
}

/* Netscape's application extension: loop forever. */
static int gif_loop_forever(GifFileType *gif)
{
    static const GifByteType app[11] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    static const GifByteType loop[3] = {1, 0, 0}; /* sub-block 1: the loop count, 0 = forever */
    if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, sizeof app, app) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, sizeof loop, loop) == GIF_ERROR || EGifPutExtensionTrailer(gif) == GIF_ERROR)
        return GIF_ERROR;
    return GIF_OK;
}

/* The header: screen, colours, looping, and a comment saying what runs. */
static int gif_start(gif_out *g, const char *comment, ls_error *err)
{
    static const GifColorType colours[2] = {{255, 255, 255}, {0, 0, 0}};
    int code = 0;
    g->gif = EGifOpen(g, gif_write, &code);
    if (!g->gif)
        return ls_fail(err, "cannot write %s: %s", g->file.name, GifErrorString(code));
    ColorMapObject *map = GifMakeMapObject(2, colours);
    if (!map)
        return ls_fail(err, "out of memory for a GIF colour map");
    EGifSetGifVersion(g->gif, true);
    int rc = EGifPutScreenDesc(g->gif, (int)g->width, (int)g->height, 1, 0, map);
    GifFreeMapObject(map); /* the screen keeps its own copy */
    if (rc == GIF_ERROR || gif_loop_forever(g->gif) == GIF_ERROR || EGifPutComment(g->gif, comment) == GIF_ERROR)
        return gif_fail(g, g->gif->Error, err);
    return 0;
}

static int gif_frame(gif_out *g, const life_grid *grid, ls_error *err)
{
    GraphicsControlBlock gcb = {.DisposalMode = DISPOSE_DO_NOT, .UserInputFlag = false,
                                .DelayTime = LIFE_GIF_DELAY_CS, .TransparentColor = NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    size_t n = EGifGCBToExtension(&gcb, ext);
    if (EGifPutExtension(g->gif, GRAPHICS_EXT_FUNC_CODE, (int)n, ext) == GIF_ERROR ||
        EGifPutImageDesc(g->gif, 0, 0, (int)g->width, (int)g->height, false, NULL) == GIF_ERROR)
        return gif_fail(g, g->gif->Error, err);
    for (uint32_t y = 0; y < grid->ny; y++) {
        for (uint32_t px = 0; px < g->width; px++)
            g->row[px] = (GifPixelType)life_get(grid, px / g->scale, y, 0);
        for (uint32_t k = 0; k < g->scale; k++)
            if (EGifPutLine(g->gif, g->row, (int)g->width) == GIF_ERROR)
                return gif_fail(g, g->gif->Error, err);
    }
    return 0;
}

/* Closes giflib's side (the trailer); 0, or -1 with err set. */
static int gif_close(gif_out *g, ls_error *err)
{
    int code = 0;
    GifFileType *gif = g->gif;
    g->gif = NULL;
    if (gif && EGifCloseFile(gif, &code) == GIF_ERROR)
        return err ? gif_fail(g, code, err) : -1;
    return 0;
}

static void gif_free(gif_out *g)
{
    if (!g)
        return;
    gif_close(g, NULL);
    ls_atomic_abort(&g->file); /* nothing left to remove after a commit */
    free(g->row);
    free(g);
}

static int gif_open(const char *path, const life_grid *grid, uint32_t scale, const char *comment, gif_out **out,
                    ls_error *err)
{
    gif_out *g = calloc(1, sizeof *g);
    if (!g)
        return ls_fail(err, "out of memory");
    g->scale = scale;
    g->width = grid->nx * scale; /* at most 65535: checked before the run */
    g->height = grid->ny * scale;
    g->row = malloc(g->width);
    if (!g->row) {
        free(g);
        return ls_fail(err, "out of memory for a GIF row of %u pixels", grid->nx * scale);
    }
    if (ls_atomic_open(&g->file, path, err) != 0) {
        free(g->row);
        free(g);
        return -1;
    }
    if (gif_start(g, comment, err) != 0) {
        gif_free(g);
        return -1;
    }
    *out = g;
    return 0;
}

static int gif_commit(gif_out *g, ls_error *err)
{
    int rc = gif_close(g, err);
    if (rc == 0)
        rc = ls_atomic_commit(&g->file, err); /* in place, or removed when it fails */
    gif_free(g);
    return rc;
}
#else
typedef struct gif_out gif_out;
#endif

int life_gif_available(ls_error *err)
{
#ifdef LS_HAVE_GIF
    (void)err;
    return 0;
#else
    return ls_fail_usage(err, "this lockstep was built without giflib, so it writes no GIF (Debian: apt-get install "
                              "libgif-dev, then build again); --frames DIR writes the frames as PNGs");
#endif
}

/* ---- the directory of frames ------------------------------------------ */

typedef struct frames_out {
    ls_atomic_dir dir; /* DIR, written whole (output.h) */
    int digits;        /* of the frame numbers */
    uint64_t written;  /* frames in it */
    life_meta meta;
} frames_out;

/* The name of frame i: frame-000012.png (at least six digits, as many as
 * the last frame's number needs, so that names sort in order). */
static void frame_name(const frames_out *f, uint64_t i, char *out, size_t len)
{
    snprintf(out, len, "frame-%0*llu.png", f->digits, (unsigned long long)i);
}

static void frames_free(frames_out *f)
{
    if (!f)
        return;
    ls_atomic_dir_abort(&f->dir); /* the frames, unless in place */
    free(f);
}

static int frames_open(const char *dir, uint64_t count, const life_meta *meta, frames_out **out, ls_error *err)
{
    frames_out *f = calloc(1, sizeof *f);
    if (!f)
        return ls_fail(err, "out of memory");
    f->meta = *meta;
    f->digits = 6;
    for (uint64_t last = count ? count - 1 : 0; last >= 1000000; last /= 10)
        f->digits++;
    if (ls_atomic_dir_open(&f->dir, dir, "--frames", err) != 0) {
        free(f);
        return -1;
    }
    *out = f;
    return 0;
}

/* A frame that could not be written, named as the user knows it: the
 * frame's name in DIR (it was being written in the temporary directory,
 * which goes with the failure), and why. */
static int frame_failed(const frames_out *f, const char *why, ls_error *err)
{
    char name[64];
    frame_name(f, f->written, name, sizeof name);
    return ls_fail(err, "--frames %s: cannot write %s: %s", f->dir.path, name, why);
}

/* Writes one PNG frame in the directory. */
static int frames_add(frames_out *f, const life_grid *g, uint64_t generation, ls_error *err)
{
    char name[64];
    frame_name(f, f->written, name, sizeof name);
    life_meta meta = f->meta;
    meta.generation = generation;
    FILE *file = ls_atomic_dir_create(&f->dir, name);
    if (!file)
        return frame_failed(f, strerror(errno), err);
    int rc = life_write_png(file, g, &meta, err);
    if (rc != 0 && !err->usage) /* life_write_png says why, not which file */
        ls_fail_in(err, "--frames %s: cannot write %s", f->dir.path, name);
    if (ls_atomic_dir_close(file) != 0 && rc == 0)
        rc = frame_failed(f, strerror(errno), err);
    if (rc == 0)
        f->written++;
    return rc;
}

/* The frames' directory becomes DIR (replacing it when it is empty). */
static int frames_commit(frames_out *f, ls_error *err)
{
    int rc = ls_atomic_dir_commit(&f->dir, err);
    frames_free(f);
    return rc;
}

/* ---- both ----------------------------------------------------------------- */

struct life_anim {
    gif_out *gif;
    frames_out *frames;
};

void life_anim_abort(life_anim *a)
{
    if (!a)
        return;
#ifdef LS_HAVE_GIF
    gif_free(a->gif);
#endif
    frames_free(a->frames);
    free(a);
}

#ifdef LS_HAVE_GIF
/* What a frame shows, for the GIF's comment. */
static void describe(const life_anim_opts *o, const life_grid *g, char *out, size_t len)
{
    char rule[LIFE_RULE_TEXT], grid[LIFE_TOPOLOGY_TEXT];
    life_rule_format(o->meta.rule, rule, sizeof rule);
    life_topology_format(g->bounded, g->dims, g->nx, g->ny, g->nz, grid, sizeof grid);
    if (o->meta.has_seed)
        snprintf(out, len, "lockstep life, rule %s%s, seed %llu", rule, grid, (unsigned long long)o->meta.seed);
    else
        snprintf(out, len, "lockstep life, rule %s%s, from %.100s", rule, grid, o->meta.source ? o->meta.source : "?");
}
#endif

int life_anim_open(const life_anim_opts *o, const life_grid *g, life_anim **out, ls_error *err)
{
    life_anim *a = calloc(1, sizeof *a);
    if (!a)
        return ls_fail(err, "out of memory");
    int rc = 0;
    if (o->gif) {
#ifdef LS_HAVE_GIF
        char comment[LIFE_RULE_TEXT + LIFE_TOPOLOGY_TEXT + 160];
        describe(o, g, comment, sizeof comment);
        rc = gif_open(o->gif, g, o->meta.scale ? o->meta.scale : 1, comment, &a->gif, err);
#else
        (void)g;
        rc = life_gif_available(err);
#endif
    }
    if (rc == 0 && o->frames)
        rc = frames_open(o->frames, o->count, &o->meta, &a->frames, err);
    if (rc) {
        life_anim_abort(a);
        return -1;
    }
    *out = a;
    return 0;
}

int life_anim_add(life_anim *a, const life_grid *g, uint64_t generation, ls_error *err)
{
#ifdef LS_HAVE_GIF
    if (a->gif && gif_frame(a->gif, g, err) != 0)
        return -1;
#endif
    return a->frames ? frames_add(a->frames, g, generation, err) : 0;
}

int life_anim_commit(life_anim *a, ls_error *err)
{
    int rc = 0;
#ifdef LS_HAVE_GIF
    if (a->gif)
        rc = gif_commit(a->gif, err);
    a->gif = NULL;
#endif
    if (rc == 0 && a->frames) {
        rc = frames_commit(a->frames, err); /* in place, or removed */
        a->frames = NULL;
    }
    life_anim_abort(a); /* what is left after an error */
    return rc;
}
