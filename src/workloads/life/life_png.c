/* life_png.c - 2D grids as PNG pictures (libpng): black is alive, white
 * dead, each cell a scale x scale square of pixels. Written as 1-bit
 * grayscale, a row at a time, so that a 65536^2 grid needs no picture in
 * memory. Read from any PNG libpng reads: a cell is alive when the
 * top-left pixel of its square is darker than mid-grey. */
#include <ctype.h>
#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "life_png.h"
#include "png_out.h"

/* libpng reports errors through a callback that must not return: it
 * keeps the message and jumps back to the setjmp in the caller. A write
 * that failed keeps its errno, the reason ("No space left on device"),
 * which libpng's own message ("Write Error") does not give. */
typedef struct png_failure {
    char msg[200];
    const ls_png_out *out; /* a write's errno where one failed (png_out.h); NULL when reading */
} png_failure;

static void on_png_error(png_structp png, png_const_charp msg)
{
    png_failure *f = png_get_error_ptr(png);
    int e = f->out ? f->out->write_errno : 0;
    snprintf(f->msg, sizeof f->msg, "%s", e ? strerror(e) : msg);
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg; /* warnings (unknown chunks, gamma) do not concern cells */
}

/* One 1-bit row: bit 7 of byte 0 is the leftmost pixel, 0 is black. */
static void png_row(const life_grid *g, uint32_t y, uint32_t scale, uint32_t width, png_bytep row)
{
    memset(row, 0xff, ((size_t)width + 7) / 8);
    for (uint32_t px = 0; px < width; px++)
        if (life_get(g, px / scale, y, 0))
            row[px / 8] &= (png_byte) ~(0x80u >> (px % 8));
}

/* The text chunks (tEXt) of a written PNG: what the picture shows. Keys
 * are PNG's "Software" and lockstep's own; values are Latin-1 text (a
 * file name outside it is written as its bytes). */
typedef struct png_text_chunks {
    char rule[LIFE_RULE_TEXT + LIFE_TOPOLOGY_TEXT], generation[24], seed[24], scale[16];
    png_text chunks[5];
    int count;
} png_text_chunks;

static void add_text(png_text_chunks *t, const char *key, const char *value)
{
    png_text *c = &t->chunks[t->count++];
    memset(c, 0, sizeof *c);
    c->compression = PNG_TEXT_COMPRESSION_NONE;
    c->key = (png_charp)key;
    c->text = (png_charp)value;
    c->text_length = strlen(value);
}

static void make_text_chunks(const life_grid *g, const life_meta *meta, png_text_chunks *t)
{
    t->count = 0;
    life_rule_format(meta->rule, t->rule, sizeof t->rule);
    size_t used = strlen(t->rule);
    life_topology_format(g->bounded, g->dims, g->nx, g->ny, g->nz, t->rule + used, sizeof t->rule - used);
    snprintf(t->generation, sizeof t->generation, "%llu", (unsigned long long)meta->generation);
    add_text(t, "Software", "lockstep life");
    add_text(t, "Rule", t->rule);
    add_text(t, "Generation", t->generation);
    snprintf(t->scale, sizeof t->scale, "%u", meta->scale ? meta->scale : 1u);
    add_text(t, "Scale", t->scale); /* pixels a cell: read back at it (life_read_png) */
    if (meta->has_seed) {
        snprintf(t->seed, sizeof t->seed, "%llu", (unsigned long long)meta->seed);
        add_text(t, "Seed", t->seed);
    } else if (meta->source) {
        add_text(t, "Source", meta->source);
    }
}

int life_write_png(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err)
{
    uint32_t scale = meta->scale ? meta->scale : 1;
    if (life_format_check_shape(&life_png_format, g->dims, g->nx, g->ny, g->nz, scale, err))
        return -1;
    _Static_assert(LIFE_PNG_MAX_SIDE == PNG_UINT_31_MAX, "PNG's limit on a side");
    uint32_t width = g->nx * scale, height = g->ny * scale; /* below 2^31: checked */
    ls_png_out out = {f, 0};
    png_failure failure = {"", &out};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, on_png_error, on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_bytep volatile row = malloc(((size_t)width + 7) / 8);
    if (!png || !info || !row) {
        png_destroy_write_struct(&png, &info);
        free(row);
        return ls_fail(err, "out of memory for a PNG row of %u pixels", width);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(row);
        return ls_fail(err, "%s", failure.msg);
    }
    ls_png_out_set(png, &out);
    png_set_IHDR(png, info, width, height, 1, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_text_chunks text;
    make_text_chunks(g, meta, &text);
    png_set_text(png, info, text.chunks, text.count);
    png_write_info(png, info);
    for (uint32_t y = 0; y < g->ny; y++) {
        png_row(g, y, scale, width, row);
        for (uint32_t k = 0; k < scale; k++)
            png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    return ferror(f) ? ls_fail(err, "a write to it failed before the picture") : 0;
}

/* What a PNG's text chunks say of the grid it shows (make_text_chunks
 * writes them): its scale (0 where none says), rule with the grid's
 * suffix, and generation into p. 0, or -1 with err->usage set. */
static int png_read_text(png_structp png, png_infop info, const char *name, uint32_t *scale, life_pattern *p,
                         ls_error *err)
{
    png_textp text;
    int n = 0;
    *scale = 0;
    png_get_text(png, info, &text, &n);
    for (int i = 0; i < n; i++) {
        const char *key = text[i].key, *value = text[i].text ? text[i].text : "";
        char *end;
        errno = 0;
        if (strcmp(key, "Scale") == 0) {
            unsigned long v = strtoul(value, &end, 10);
            if (!isdigit((unsigned char)value[0]) || *end || errno || v < 1 || v > LIFE_MAX_SCALE)
                return ls_fail_usage(err, "%s: its Scale text chunk '%.40s' is no scale (1 to %u pixels a cell)", name,
                                     value, LIFE_MAX_SCALE);
            *scale = (uint32_t)v;
        } else if (strcmp(key, "Generation") == 0) {
            unsigned long long v = strtoull(value, &end, 10);
            if (!isdigit((unsigned char)value[0]) || *end || errno)
                return ls_fail_usage(err, "%s: its Generation text chunk '%.40s' is no generation", name, value);
            p->generation = v;
        } else if (strcmp(key, "Rule") == 0) {
            if (strlen(value) >= sizeof p->rule)
                return ls_fail_usage(err, "%s: its Rule text chunk is too long for a rule", name);
            snprintf(p->rule, sizeof p->rule, "%s", value);
        }
    }
    return 0;
}

/* Asks libpng for 8-bit grey rows whatever the file holds. */
static void png_to_grey8(png_structp png, png_infop info)
{
    png_byte type = png_get_color_type(png, info);
    png_set_expand(png);   /* palette to RGB, low-bit grey to 8, tRNS to alpha */
    png_set_strip_16(png);
    png_set_strip_alpha(png);
    if (type & PNG_COLOR_MASK_COLOR)
        png_set_rgb_to_gray_fixed(png, 1, -1, -1);
    png_read_update_info(png, info);
}

/* Reads the rows, keeping one pixel of every scale x scale square. */
static void png_cells(png_structp png, uint32_t scale, png_bytep row, life_pattern *p)
{
    for (uint32_t y = 0; y < p->height * scale; y++) {
        png_read_row(png, row, NULL);
        if (y % scale)
            continue;
        for (uint32_t x = 0; x < p->width; x++)
            p->cells[(size_t)(y / scale) * p->width + x] = row[(size_t)x * scale] < 128;
    }
}

int life_read_png(FILE *f, const char *name, const life_pattern_want *want, life_pattern *p, ls_error *err)
{
    memset(p, 0, sizeof *p);
    png_failure failure = {"", NULL};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &failure, on_png_error, on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_bytep volatile row = NULL;
    if (!png || !info) {
        png_destroy_read_struct(&png, &info, NULL);
        return ls_fail(err, "out of memory reading %s", name);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(row);
        life_pattern_free(p);
        return ls_fail_usage(err, "%s: not a readable PNG (%s)", name, failure.msg);
    }
    png_init_io(png, f);
    png_read_info(png, info);
    uint32_t width = png_get_image_width(png, info), height = png_get_image_height(png, info), scale;
    if (png_read_text(png, info, name, &scale, p, err)) {
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    /* The scale it was written at, so that it reads back as the grid it
     * came from; else the one given. */
    scale = scale ? scale : want && want->scale ? want->scale : 1;
    if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE)
        png_error(png, "interlaced pictures are not supported");
    if (width % scale || height % scale)
        png_error(png, "the size is not a multiple of the scale");
    /* The header's size against the pattern limit before any pixel is
     * decoded: a few hundred KB of PNG can claim billions of cells. */
    if (life_pattern_alloc(p, name, width / scale, height / scale, want, err)) {
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    png_to_grey8(png, info);
    row = malloc(png_get_rowbytes(png, info));
    if (!row)
        png_error(png, "out of memory for a row of the picture");
    png_cells(png, scale, row, p);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(row);
    return 0;
}

const life_format_methods life_png_format = {
    .name = "png", .extensions = {".png"}, .holds = "2D pictures", .dims = 2,
    .about = "black alive, white dead, --scale pixels a cell, the rule (and grid), generation, scale and seed in "
             "text chunks; a pattern when read, at the scale its chunk says (else --scale), so that it reads back "
             "as the grid it came from.",
    .largest_side = LIFE_PNG_MAX_SIDE, .side_in_pixels = 1,
    .read_pattern = life_read_png, .write = life_write_png,
};
