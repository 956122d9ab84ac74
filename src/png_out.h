/* png_out.h - libpng's output through a stdio stream, for every PNG that
 * lockstep writes (ray's images, Life's grids), and its error callbacks,
 * for every PNG it writes or reads. libpng's own writer says only "Write
 * Error" when a write fails; this one keeps the write's errno, so that the
 * message can say why ("No space left on device"). */
#ifndef LOCKSTEP_PNG_OUT_H
#define LOCKSTEP_PNG_OUT_H

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <string.h>

typedef struct ls_png_out {
    FILE *f;
    int write_errno; /* of the write that failed, or 0 */
} ls_png_out;

static inline void ls_png_out_failed(png_structp png, ls_png_out *out)
{
    out->write_errno = errno ? errno : EIO;
    png_error(png, "write failed"); /* does not return */
}

static inline void ls_png_out_write(png_structp png, png_bytep data, size_t n)
{
    ls_png_out *out = png_get_io_ptr(png);
    errno = 0;
    if (fwrite(data, 1, n, out->f) != n)
        ls_png_out_failed(png, out);
}

static inline void ls_png_out_flush(png_structp png)
{
    ls_png_out *out = png_get_io_ptr(png);
    errno = 0;
    if (fflush(out->f) != 0)
        ls_png_out_failed(png, out);
}

/* Makes png write to out->f (out must outlive the writing); an error
 * callback then finds the reason in out->write_errno. */
static inline void ls_png_out_set(png_structp png, ls_png_out *out)
{
    out->write_errno = 0;
    png_set_write_fn(png, out, ls_png_out_write, ls_png_out_flush);
}

/* libpng reports errors through a callback that must not return: given
 * as the error pointer, this keeps the message and jumps back to the
 * setjmp of png_jmpbuf(). Where a write failed (out, when writing), the
 * message is the write's reason rather than libpng's. */
typedef struct ls_png_failure {
    char msg[200];
    const ls_png_out *out; /* NULL when reading */
} ls_png_failure;

static inline void ls_png_on_error(png_structp png, png_const_charp msg)
{
    ls_png_failure *f = png_get_error_ptr(png);
    int e = f->out ? f->out->write_errno : 0;
    snprintf(f->msg, sizeof f->msg, "%s", e ? strerror(e) : msg);
    png_longjmp(png, 1);
}

/* Warnings (unknown chunks, gamma) do not make a file wrong. */
static inline void ls_png_on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

#endif
