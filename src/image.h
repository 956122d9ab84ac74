/* image.h - 8-bit images (gray or RGB) written as PNG or PPM/PGM.
 *
 * Any workload with a picture uses it (the ray tracer's frame, a slice of
 * Life's grid). The format follows the file name's extension:
 *   .png         PNG through libpng, gray or RGB;
 *   .ppm         binary PPM (P6); a gray image is written as RGB;
 *   .pgm         binary PGM (P5), gray images only.
 * The writers take a FILE* and report what went wrong in an ls_error; the
 * file-level ls_image_save never leaves a partial file behind. */
#ifndef LOCKSTEP_IMAGE_H
#define LOCKSTEP_IMAGE_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"

#define LS_IMAGE_GRAY 1
#define LS_IMAGE_RGB 3

typedef struct ls_image {
    uint32_t width, height;
    int channels;          /* LS_IMAGE_GRAY or LS_IMAGE_RGB */
    const uint8_t *pixels; /* row-major, row 0 at the top, no padding */
} ls_image;

typedef enum { LS_IMAGE_PNG, LS_IMAGE_PPM, LS_IMAGE_PGM } ls_image_format;

/* The format a path's extension names (case-insensitive) for an image of
 * `channels`, or -1 with err->usage set when the extension is not one of
 * those that hold such an image (the message lists only those: .pgm is
 * offered for gray images alone). */
int ls_image_format_of(const char *path, int channels, ls_image_format *out, ls_error *err);

/* Writes the whole image to f in one format; 0, or -1 with err set (`name`
 * names the destination in the message). f is not closed. */
int ls_image_write_png(FILE *f, const char *name, const ls_image *img, ls_error *err);
int ls_image_write_ppm(FILE *f, const char *name, const ls_image *img, ls_error *err);
int ls_image_write_pgm(FILE *f, const char *name, const ls_image *img, ls_error *err);

/* Checks, before any long computation, that `path` names a known format
 * and that a file can be created in its directory (by creating and
 * removing a temporary one there). 0, or -1 with err->usage set. */
int ls_image_check_path(const char *path, int channels, ls_error *err);

/* Writes the image to `path` in the format of its extension: to a
 * temporary file in the same directory first, renamed over `path` only
 * when complete. 0, or -1 with err set and no file left. */
int ls_image_save(const char *path, const ls_image *img, ls_error *err);

/* Writes the image as PPM to an open stream such as standard output: the
 * whole file is made in memory and written with one checked call after
 * whatever dest holds (src/output.h), so a reader gets all of it or an
 * error is reported. 0, or -1 with err set. */
int ls_image_emit_ppm(const ls_image *img, FILE *dest, const char *dest_name, ls_error *err);

#endif
