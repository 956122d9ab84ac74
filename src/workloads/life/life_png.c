/* life_png.c - 2D grids as PNG pictures (libpng): black is alive, white
 * dead, each cell a scale x scale square of pixels. Written as 1-bit
 * grayscale, a row at a time, so that a 65536^2 grid needs no picture in
 * memory. Read from any PNG libpng reads: a cell is alive when the
 * top-left pixel of its square is darker than mid-grey; its text chunks,
 * before the image data or after it, say the scale and the grid, which
 * the pixels must match. */
#include <ctype.h>
#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "life_png.h"
#include "png_out.h"

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
    ls_png_failure failure = {"", &out};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, ls_png_on_error, ls_png_on_warning);
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

/* What a PNG's text chunks have said so far (make_text_chunks writes
 * them): its scale (0: none has), and whether its rule (with the grid's
 * suffix) and generation, kept in the pattern, were said. */
typedef struct png_said {
    uint32_t scale;
    int rule, generation;
} png_said;

/* The text chunks of info (those before the image data, or after it)
 * into said and p. A key said again must say the same: the picture is
 * read at one scale, as one grid. 0, or -1 with err->usage set. */
static int png_read_text(png_structp png, png_infop info, const char *name, png_said *said, life_pattern *p,
                         ls_error *err)
{
    png_textp text;
    int n = 0;
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
            if (said->scale && said->scale != v)
                return ls_fail_usage(err, "%s: its text chunks say Scale %u and Scale %lu, two scales for one picture",
                                     name, said->scale, v);
            said->scale = (uint32_t)v;
        } else if (strcmp(key, "Generation") == 0) {
            unsigned long long v = strtoull(value, &end, 10);
            if (!isdigit((unsigned char)value[0]) || *end || errno)
                return ls_fail_usage(err, "%s: its Generation text chunk '%.40s' is no generation", name, value);
            if (said->generation && p->generation != v)
                return ls_fail_usage(err, "%s: its text chunks say Generation %llu and Generation %llu", name,
                                     (unsigned long long)p->generation, v);
            p->generation = v;
            said->generation = 1;
        } else if (strcmp(key, "Rule") == 0) {
            if (strlen(value) >= sizeof p->rule)
                return ls_fail_usage(err, "%s: its Rule text chunk is too long for a rule", name);
            if (said->rule && strcmp(p->rule, value) != 0)
                return ls_fail_usage(err, "%s: its text chunks say Rule %s and Rule %s", name, p->rule, value);
            snprintf(p->rule, sizeof p->rule, "%s", value);
            said->rule = 1;
        }
    }
    return 0;
}

/* The picture's size against what its text chunks say: whole cells of
 * `scale` pixels (its Scale chunk's, else --scale's), and exactly the
 * grid of its Rule chunk's suffix at that scale. A picture resized or
 * cropped since it was written, chunks kept, would otherwise be read as
 * another grid. 0, or -1 with err->usage set. */
static int png_check_size(const char *name, uint32_t width, uint32_t height, uint32_t scale, const png_said *said,
                          const life_pattern *p, ls_error *err)
{
    const char *by = said->scale ? "its Scale text chunk" : scale > 1 ? "--scale" : "no Scale chunk, no --scale";
    if (width % scale || height % scale)
        return ls_fail_usage(err, "%s: the picture is %ux%u pixels, not whole cells of %u pixels a side (%s)", name,
                             width, height, scale, by);
    life_topology t;
    ls_error ignored; /* a malformed suffix is refused later, naming it (grid_for_pattern) */
    if (life_topology_parse(p->rule, &t, &ignored) != 0 || !t.given)
        return 0;
    uint64_t nx = t.size[0], ny = t.sides == 1 ? t.size[0] : t.size[1];
    if (nx * scale == width && ny * scale == height)
        return 0;
    char hint[48] = "";
    uint64_t fits = width / nx;
    if (!said->scale && width % nx == 0 && height % ny == 0 && height / ny == fits && fits <= LIFE_MAX_SCALE)
        snprintf(hint, sizeof hint, "; --scale %llu reads it", (unsigned long long)fits);
    return ls_fail_usage(err, "%s: the picture is %ux%u pixels, but its text chunks say a %llux%llu grid (Rule %s) at "
                              "%u pixel%s a cell (%s), %llux%llu pixels%s",
                         name, width, height, (unsigned long long)nx, (unsigned long long)ny, p->rule, scale,
                         scale == 1 ? "" : "s", by, (unsigned long long)(nx * scale), (unsigned long long)(ny * scale),
                         hint);
}

/* The most libpng may allocate at once while reading: more than a row of
 * the widest picture it reads (PNG_USER_WIDTH_MAX, a million pixels of
 * 16-bit RGBA) or any text chunk lockstep writes. A chunk's length field
 * (up to 2^31 - 1) is allocated before the chunk is read, even past
 * png_set_chunk_malloc_max (a "benign" error, a warning when reading):
 * 200 bytes of PNG would cost 1 GiB. Refused, libpng skips such an
 * ancillary chunk ("out of memory") and fails on a critical one. */
#define PNG_ALLOC_MAX ((png_alloc_size_t)64 << 20)

static png_voidp png_bounded_malloc(png_structp png, png_alloc_size_t size)
{
    (void)png;
    return size <= PNG_ALLOC_MAX ? malloc(size) : NULL;
}

static void png_free_memory(png_structp png, png_voidp p)
{
    (void)png;
    free(p);
}

/* A libpng reader whose errors land in failure, its allocations bounded. */
static png_structp png_reader(ls_png_failure *failure)
{
    return png_create_read_struct_2(PNG_LIBPNG_VER_STRING, failure, ls_png_on_error, ls_png_on_warning, NULL,
                                    png_bounded_malloc, png_free_memory);
}

/* 1 when f can be read twice: a regular file, or a stream in memory
 * that seeks (fmemopen); not a pipe, nor a device. */
static int png_rereadable(FILE *f)
{
    struct stat st;
    int fd = fileno(f);
    if (fd < 0)
        return ftello(f) >= 0;
    return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether a text chunk (tEXt, zTXt, iTXt) follows the image data of the
 * PNG at `start` in f: the chunks' headers walked, their bodies skipped,
 * nothing inflated, and f put back at start. 1, 0 (none does, or the walk
 * stops at damage that libpng will name), or -1 with err set. */
static int png_text_after_data(FILE *f, const char *name, off_t start, ls_error *err)
{
    unsigned char head[8];
    int data_seen = 0, found = 0;
    if (fseeko(f, start + 8, SEEK_SET) != 0) /* past the signature */
        return ls_fail(err, "%s: %s", name, strerror(errno));
    while (!found && fread(head, 1, sizeof head, f) == sizeof head && memcmp(head + 4, "IEND", 4) != 0) {
        uint32_t length = png_get_uint_32(head);
        int text = !memcmp(head + 4, "tEXt", 4) || !memcmp(head + 4, "zTXt", 4) || !memcmp(head + 4, "iTXt", 4);
        data_seen |= !memcmp(head + 4, "IDAT", 4);
        found = data_seen && text;
        if (length > PNG_UINT_31_MAX || fseeko(f, (off_t)length + 4, SEEK_CUR) != 0) /* the body and its CRC */
            break;
    }
    if (fseeko(f, start, SEEK_SET) != 0)
        return ls_fail(err, "%s: %s", name, strerror(errno));
    return found;
}

/* Where text chunks follow the image data: every one of them, before it
 * and after it, read in a first pass over the file (the data inflated,
 * not decoded into rows), and f put back at start. When the chunks
 * before the data give the scale, that is all it reads: the rest is
 * checked after the image (png_read_cells). 0, or -1 with err set. */
static int png_read_all_text(FILE *f, const char *name, off_t start, png_said *said, life_pattern *p, ls_error *err)
{
    ls_png_failure failure = {"", NULL};
    png_structp png = png_reader(&failure);
    png_infop info = png ? png_create_info_struct(png) : NULL, after = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || !after) {
        png_destroy_read_struct(&png, &info, &after);
        return ls_fail(err, "out of memory reading %s", name);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, &after);
        return ls_fail_usage(err, "%s: not a readable PNG (%s)", name, failure.msg);
    }
    png_set_benign_errors(png, 1); /* the rows left unread are "too much image data": a warning */
    png_init_io(png, f);
    png_read_info(png, info);
    int rc = png_read_text(png, info, name, said, p, err);
    if (rc == 0 && !said->scale) {
        png_start_read_image(png);
        png_read_end(png, after);
        rc = png_read_text(png, after, name, said, p, err);
    }
    png_destroy_read_struct(&png, &info, &after);
    if (rc == 0 && fseeko(f, start, SEEK_SET) != 0)
        return ls_fail(err, "%s: %s", name, strerror(errno));
    return rc;
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

/* The picture's cells at the scale its text chunks say (said: those
 * read already, by png_read_all_text), else want's; the chunks after the
 * image data must agree with it. 0, or -1 with err set. */
static int png_read_cells(FILE *f, const char *name, const life_pattern_want *want, png_said *said, life_pattern *p,
                          ls_error *err)
{
    ls_png_failure failure = {"", NULL};
    png_structp png = png_reader(&failure);
    png_infop info = png ? png_create_info_struct(png) : NULL, after = png ? png_create_info_struct(png) : NULL;
    png_bytep volatile row = NULL;
    if (!png || !info || !after) {
        png_destroy_read_struct(&png, &info, &after);
        return ls_fail(err, "out of memory reading %s", name);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, &after);
        free(row);
        return ls_fail_usage(err, "%s: not a readable PNG (%s)", name, failure.msg);
    }
    png_init_io(png, f);
    png_read_info(png, info);
    uint32_t width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    /* (Read twice where png_read_all_text read them: the same again.) */
    int rc = png_read_text(png, info, name, said, p, err);
    /* The scale it was written at, so that it reads back as the grid it
     * came from; else the one given. */
    uint32_t scale = said->scale ? said->scale : want && want->scale ? want->scale : 1;
    if (rc == 0 && png_get_interlace_type(png, info) != PNG_INTERLACE_NONE)
        png_error(png, "interlaced pictures are not supported");
    /* The header's size against the chunks and the pattern limit before
     * any pixel is decoded: a few hundred KB of PNG can claim billions of
     * cells. */
    if (rc == 0)
        rc = png_check_size(name, width, height, scale, said, p, err);
    if (rc == 0)
        rc = life_pattern_alloc(p, name, width / scale, height / scale, want, err);
    if (rc == 0) {
        png_to_grey8(png, info);
        row = malloc(png_get_rowbytes(png, info));
        if (!row)
            png_error(png, "out of memory for a row of the picture");
        png_cells(png, scale, row, p);
        png_read_end(png, after);
        rc = png_read_text(png, after, name, said, p, err);
    }
    /* Chunks after the data that png_read_all_text did not read (a
     * pipe's, which cannot be read again): a scale other than the one
     * read at is refused, naming the one to give. */
    if (rc == 0 && said->scale && said->scale != scale)
        rc = ls_fail_usage(err, "%s: its Scale text chunk, after the image data, says %u pixels a cell, and it was "
                                "read at %u, from a stream that cannot be read again: give --scale %u",
                           name, said->scale, scale, said->scale);
    if (rc == 0)
        rc = png_check_size(name, width, height, scale, said, p, err);
    png_destroy_read_struct(&png, &info, &after);
    free(row);
    return rc;
}

int life_read_png(FILE *f, const char *name, const life_pattern_want *want, life_pattern *p, ls_error *err)
{
    png_said said = {0, 0, 0};
    memset(p, 0, sizeof *p);
    /* A Scale chunk may follow the image data (an editor that moves the
     * text chunks): read first where the file allows it. */
    off_t start = png_rereadable(f) ? ftello(f) : -1;
    int after = start >= 0 ? png_text_after_data(f, name, start, err) : 0;
    if (after < 0 || (after && png_read_all_text(f, name, start, &said, p, err)) ||
        png_read_cells(f, name, want, &said, p, err)) {
        life_pattern_free(p);
        return -1;
    }
    return 0;
}

const life_format_methods life_png_format = {
    .name = "png", .extensions = {".png"}, .holds = "2D pictures", .dims = 2,
    .about = "black alive, white dead, --scale pixels a cell, the rule (and grid), generation, scale and seed in "
             "text chunks; a pattern when read, at the scale its chunk says (else --scale), so that it reads back "
             "as the grid it came from; refused when its pixels are not that scale times the grid its chunks say "
             "(resized since it was written).",
    .largest_side = LIFE_PNG_MAX_SIDE, .side_in_pixels = 1,
    .read_pattern = life_read_png, .write = life_write_png,
};
