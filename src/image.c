/* image.c - PNG (libpng) and PPM/PGM writers, and a whole-or-nothing save. */
#include "image.h"
#include "output.h"
#include "png_out.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

int ls_image_format_of(const char *path, int channels, ls_image_format *out, ls_error *err)
{
    /* Only the formats that hold this image are offered: PGM is gray. */
    const char *accepted = channels == LS_IMAGE_GRAY ? ".png, .ppm or .pgm" : ".png or .ppm";
    if (ends_with(path, ".png"))
        *out = LS_IMAGE_PNG;
    else if (ends_with(path, ".ppm"))
        *out = LS_IMAGE_PPM;
    else if (ends_with(path, ".pgm") && channels == LS_IMAGE_GRAY)
        *out = LS_IMAGE_PGM;
    else if (ends_with(path, ".pgm"))
        return ls_fail_usage(err, "%s: a PGM file holds gray images; write this colour image as %s", path, accepted);
    else
        return ls_fail_usage(err, "%s: unknown image format (the name must end in %s)", path, accepted);
    return 0;
}

/* ---- PNG ------------------------------------------------------------- */

int ls_image_write_png(FILE *f, const char *name, const ls_image *img, ls_error *err)
{
    ls_png_out out = {f, 0};
    ls_png_failure failure = {"", &out};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, ls_png_on_error, ls_png_on_warning);
    if (!png)
        return ls_fail(err, "cannot write %s: out of memory starting libpng", name);
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return ls_fail(err, "cannot write %s: out of memory starting libpng", name);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return ls_fail(err, "cannot write %s: %s", name, failure.msg);
    }
    ls_png_out_set(png, &out);
    int type = img->channels == LS_IMAGE_RGB ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY;
    png_set_IHDR(png, info, img->width, img->height, 8, type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    size_t row_bytes = (size_t)img->width * (size_t)img->channels;
    for (uint32_t y = 0; y < img->height; y++)
        png_write_row(png, img->pixels + (size_t)y * row_bytes);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    if (fflush(f) != 0 || ferror(f))
        return ls_fail(err, "cannot write %s: %s", name, strerror(errno));
    return 0;
}

/* ---- PPM and PGM ----------------------------------------------------- */

static int write_failed(const char *name, ls_error *err)
{
    return ls_fail(err, "cannot write %s: %s", name, errno ? strerror(errno) : "write error");
}

int ls_image_write_ppm(FILE *f, const char *name, const ls_image *img, ls_error *err)
{
    errno = 0;
    if (fprintf(f, "P6\n%u %u\n255\n", img->width, img->height) < 0)
        return write_failed(name, err);
    if (img->channels == LS_IMAGE_RGB) {
        size_t n = (size_t)img->width * img->height * 3;
        if (fwrite(img->pixels, 1, n, f) != n)
            return write_failed(name, err);
    } else {
        /* Gray as RGB, a row at a time. */
        uint8_t *row = malloc((size_t)img->width * 3 + 1);
        if (!row)
            return ls_fail(err, "cannot write %s: out of memory for a row of %u pixels", name, img->width);
        for (uint32_t y = 0; y < img->height; y++) {
            const uint8_t *src = img->pixels + (size_t)y * img->width;
            for (uint32_t x = 0; x < img->width; x++)
                memset(row + 3 * (size_t)x, src[x], 3);
            if (fwrite(row, 3, img->width, f) != img->width) {
                free(row);
                return write_failed(name, err);
            }
        }
        free(row);
    }
    if (fflush(f) != 0 || ferror(f))
        return write_failed(name, err);
    return 0;
}

int ls_image_write_pgm(FILE *f, const char *name, const ls_image *img, ls_error *err)
{
    if (img->channels != LS_IMAGE_GRAY)
        return ls_fail_usage(err, "%s: a PGM file holds gray images; write this colour image as .png or .ppm", name);
    errno = 0;
    size_t n = (size_t)img->width * img->height;
    if (fprintf(f, "P5\n%u %u\n255\n", img->width, img->height) < 0 || fwrite(img->pixels, 1, n, f) != n ||
        fflush(f) != 0 || ferror(f))
        return write_failed(name, err);
    return 0;
}

/* ---- Whole files ----------------------------------------------------- */

static int write_format(FILE *f, const char *name, ls_image_format fmt, const ls_image *img, ls_error *err)
{
    switch (fmt) {
    case LS_IMAGE_PNG: return ls_image_write_png(f, name, img, err);
    case LS_IMAGE_PPM: return ls_image_write_ppm(f, name, img, err);
    case LS_IMAGE_PGM: return ls_image_write_pgm(f, name, img, err);
    }
    return ls_fail(err, "cannot write %s: unknown format", name);
}

/* The whole file or none: written under a temporary name next to path and
 * renamed into place when complete (src/output.h). */
static int write_whole_file(const char *path, ls_image_format fmt, const ls_image *img, ls_error *err)
{
    ls_atomic_file a;
    if (ls_atomic_open(&a, path, err) != 0)
        return -1;
    if (write_format(a.f, path, fmt, img, err) != 0) {
        ls_atomic_abort(&a);
        return -1;
    }
    return ls_atomic_commit(&a, err);
}

int ls_image_save(const char *path, const ls_image *img, ls_error *err)
{
    ls_image_format fmt;
    if (ls_image_format_of(path, img->channels, &fmt, err) != 0)
        return -1;
    return write_whole_file(path, fmt, img, err);
}

int ls_image_emit_ppm(const ls_image *img, FILE *dest, const char *dest_name, ls_error *err)
{
    ls_buffer b;
    if (ls_buffer_open(&b, err) != 0)
        return -1;
    if (ls_image_write_ppm(b.f, dest_name, img, err) != 0) {
        ls_buffer_discard(&b);
        return -1;
    }
    return ls_buffer_emit(&b, dest, dest_name, err);
}

int ls_image_check_path(const char *path, int channels, ls_error *err)
{
    ls_image_format fmt;
    if (ls_image_format_of(path, channels, &fmt, err) != 0)
        return -1;
    return ls_output_check(path, err);
}
