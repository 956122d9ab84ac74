/* png_out.h - libpng's output through a stdio stream, for every PNG that
 * lockstep writes (ray's images, Life's grids). libpng's own writer says
 * only "Write Error" when a write fails; this one keeps the write's errno,
 * so that the message can say why ("No space left on device"). */
#ifndef LOCKSTEP_PNG_OUT_H
#define LOCKSTEP_PNG_OUT_H

#include <errno.h>
#include <png.h>
#include <stdio.h>

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

#endif
