/* life_io.c - the table of formats (their rows: life_format.h), the
 * whole-grid formats (PKU, native), read and written whole or a range of
 * rows at a time at their offsets (by threads; by the slabs of a run
 * where they live), and the file-level read and atomic write. RLE and
 * plaintext are in life_text.c, PNG in life_png.c, macrocells in
 * life_mc.c. */
#include "life_io.h"
#include "life_mc.h"
#include "life_text.h"
#include "file_pass.h"
#include "hash.h"
#include "le_bytes.h"
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- formats ------------------------------------------------------------ */

const life_format_methods life_gif_format = {
    .name = "gif", .extensions = {".gif"}, .holds = "2D animations", .dims = 2,
    .largest_side = LIFE_GIF_MAX_SIDE, .side_in_pixels = 1,
    .about = "written only: an animation of the --every samples, --scale pixels a cell.",
};

/* Every format, in the order messages list them: a new format is a file
 * defining its row and a line here. */
static const life_format_methods *const formats[] = {
    &life_pku_format, &life_native_format, &life_rle_format, &life_cells_format, &life_png_format, &life_mc_format,
    &life_gif_format,
};
#define NFORMATS (sizeof formats / sizeof formats[0])

/* The formats' names ("pku, native, ... or gif (written only)") or their
 * extensions (".data .bin .pku, .lsgrid, ...") into out. */
static void list_formats(int extensions, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < NFORMATS && used < len; i++) {
        const life_format_methods *f = formats[i];
        const char *sep = i == 0 ? "" : extensions ? ", " : i + 1 == NFORMATS ? " or " : ", ";
        int n = snprintf(out + used, len - used, "%s", sep);
        for (int e = 0; extensions && f->extensions[e] && n >= 0; e++)
            n += snprintf(out + used + (size_t)n, len - used - (size_t)n, "%s%s", e ? " " : "", f->extensions[e]);
        if (!extensions)
            n += snprintf(out + used + (size_t)n, len - used - (size_t)n, "%s%s", f->name,
                          f->read_grid || f->read_pattern ? "" : " (written only)");
        used = used + (size_t)n < len ? used + (size_t)n : len;
    }
}

int life_format_parse(const char *name, life_format *out, ls_error *err)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (strcmp(name, formats[i]->name) == 0) {
            *out = formats[i];
            return 0;
        }
    char names[200];
    list_formats(0, names, sizeof names);
    return ls_fail_usage(err, "unknown format '%s': expected %s", name, names);
}

const char *life_format_choices(void)
{
    /* Made once from the table; "pku|native|rle|cells|png|mc|gif" fits. */
    static char choices[64];
    if (!choices[0])
        for (size_t i = 0; i < NFORMATS; i++)
            snprintf(choices + strlen(choices), sizeof choices - strlen(choices), "%s%s", i ? "|" : "",
                     formats[i]->name);
    return choices;
}

void life_format_manual(char *out, size_t len)
{
    out[0] = 0;
    for (size_t i = 0; i < NFORMATS; i++) {
        size_t used = strlen(out);
        used += (size_t)snprintf(out + used, len - used, "%s%s (", i ? "\n\n" : "", formats[i]->name);
        for (int k = 0; formats[i]->extensions[k] && used < len; k++)
            used += (size_t)snprintf(out + used, len - used, "%s%s", k ? ", " : "", formats[i]->extensions[k]);
        if (used < len)
            snprintf(out + used, len - used, "): %s", formats[i]->about);
    }
}

/* 1 when `path` ends with `ext`, ignoring case. */
static int has_extension(const char *path, const char *ext)
{
    size_t n = strlen(path), m = strlen(ext);
    return n > m && strcasecmp(path + n - m, ext) == 0;
}

int life_format_resolve(const char *path, life_format given, life_format *out, ls_error *err)
{
    if (given != LIFE_FORMAT_AUTO) {
        *out = given;
        return 0;
    }
    for (size_t i = 0; i < NFORMATS; i++)
        for (int e = 0; formats[i]->extensions[e]; e++)
            if (has_extension(path, formats[i]->extensions[e])) {
                *out = formats[i];
                return 0;
            }
    char extensions[200];
    list_formats(1, extensions, sizeof extensions);
    return ls_fail_usage(err, "%s: cannot tell the format from the name (%s); name it with --format", path,
                         extensions);
}

/* ---- stdio files ------------------------------------------------------------ */

/* Size of a regular file from its current position on, or -1 when it is
 * not seekable (a pipe): then only reading tells. */
static long long bytes_left(FILE *f)
{
    off_t here = ftello(f);
    if (here < 0 || fseeko(f, 0, SEEK_END) != 0)
        return -1;
    off_t end = ftello(f);
    if (end < 0 || fseeko(f, here, SEEK_SET) != 0)
        return -1;
    return (long long)(end - here);
}

/* The last n bytes of a seekable file of `left` bytes from its current
 * position (bytes_left), f put back there: tail, or NULL when they
 * cannot be read (a pipe, a shorter file). */
static const uint8_t *file_tail(FILE *f, long long left, uint8_t *tail, size_t n)
{
    off_t here = ftello(f);
    if (left < (long long)n || here < 0 || fseeko(f, here + (off_t)left - (off_t)n, SEEK_SET) != 0)
        return NULL;
    int got = fread(tail, 1, n, f) == n;
    return fseeko(f, here, SEEK_SET) == 0 && got ? tail : NULL;
}

static int write_error(ls_error *err)
{
    return ls_fail(err, "%s", errno ? strerror(errno) : "write error");
}

/* ---- rows as they arrive ------------------------------------------------------ */

/* Where a whole-grid reader puts the rows it reads, in order. From a
 * regular file, whose length was checked against its header first, the
 * rows go straight into the grid. From a stream (a pipe), whose length
 * only reading tells, a header could claim a grid of gigabytes with no
 * cell behind it: there the rows go into blocks of about
 * ROW_BLOCK_BYTES, each allocated when its first row arrives, and the
 * grid is made from the blocks once all have (for a moment both are in
 * memory: twice the grid, which only input that arrived can cost). */
#define ROW_BLOCK_BYTES (1u << 20)

typedef struct row_sink {
    life_grid *g;       /* the grid; its words made at once, or at the end */
    unsigned dims;
    uint32_t nx, ny, nz, row_words;
    int staged;         /* rows go to blocks first */
    uint32_t **blocks;  /* staged: blocks[i] holds rows i * block_rows .. */
    size_t nblocks, cap, block_rows;
} row_sink;

/* Starts a grid of the given shape (checked: err->usage on a bad one). */
static int sink_open(row_sink *s, life_grid *g, unsigned dims, uint64_t nx, uint64_t ny, uint64_t nz, int staged,
                     ls_error *err)
{
    memset(s, 0, sizeof *s);
    memset(g, 0, sizeof *g);
    if (life_grid_check_size(dims, nx, ny, nz, err))
        return -1;
    *s = (row_sink){.g = g, .dims = dims, .nx = (uint32_t)nx, .ny = (uint32_t)ny, .nz = (uint32_t)nz,
                    .row_words = (uint32_t)((nx + 31) / 32), .staged = staged};
    s->block_rows = ROW_BLOCK_BYTES / (s->row_words * sizeof(uint32_t));
    if (s->block_rows == 0)
        s->block_rows = 1;
    return staged ? 0 : life_grid_init(g, dims, s->nx, s->ny, s->nz, err);
}

/* A grid this machine cannot hold is the user's input, as in
 * life_grid_init. */
static void sink_no_memory(const row_sink *s, size_t rows_read, ls_error *err)
{
    ls_fail_usage(err, "a %ux%ux%u grid does not fit in this machine's memory (out of memory after %zu of its rows)",
                  s->nx, s->ny, s->nz, rows_read);
}

/* The words of row r (rows asked for in order, from 0). */
static uint32_t *sink_row(row_sink *s, size_t r, ls_error *err)
{
    if (!s->staged)
        return s->g->words + r * s->row_words;
    size_t b = r / s->block_rows;
    if (b == s->nblocks) {
        if (s->nblocks == s->cap) {
            size_t cap = s->cap ? 2 * s->cap : 64;
            uint32_t **bigger = realloc(s->blocks, cap * sizeof *bigger);
            if (!bigger) {
                sink_no_memory(s, r, err);
                return NULL;
            }
            s->blocks = bigger;
            s->cap = cap;
        }
        s->blocks[b] = malloc(s->block_rows * s->row_words * sizeof(uint32_t));
        if (!s->blocks[b]) {
            sink_no_memory(s, r, err);
            return NULL;
        }
        s->nblocks++;
    }
    return s->blocks[b] + (r % s->block_rows) * s->row_words;
}

static void sink_free_blocks(row_sink *s)
{
    for (size_t i = 0; i < s->nblocks; i++)
        free(s->blocks[i]);
    free(s->blocks);
    s->blocks = NULL;
    s->nblocks = 0;
}

/* Every row has arrived: the grid, made from the blocks when staged. */
static int sink_close(row_sink *s, ls_error *err)
{
    if (!s->staged)
        return 0;
    if (life_grid_init(s->g, s->dims, s->nx, s->ny, s->nz, err)) {
        sink_free_blocks(s);
        return -1;
    }
    size_t rows = (size_t)s->ny * s->nz, row_bytes = s->row_words * sizeof(uint32_t);
    for (size_t b = 0; b < s->nblocks; b++) {
        size_t first = b * s->block_rows, n = rows - first < s->block_rows ? rows - first : s->block_rows;
        memcpy(s->g->words + first * s->row_words, s->blocks[b], n * row_bytes);
        free(s->blocks[b]);
        s->blocks[b] = NULL;
    }
    sink_free_blocks(s);
    return 0;
}

/* A read that failed: nothing is kept. */
static void sink_abort(row_sink *s)
{
    sink_free_blocks(s);
    life_grid_free(s->g);
}

/* ---- a row's cells in a file's bytes ------------------------------------------- */

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "the files' bytes are a row's words as a little-endian host holds them");

/* 8 cells, a byte each (0 or 1, the first in the low byte), to 8 bits:
 * the multiplier moves byte i's bit (bit 8 i) to bit 56 + i, and no two
 * partial products meet, so nothing carries. */
static inline uint32_t pack8(uint64_t v)
{
    return (uint32_t)((v * 0x0102040810204080ull) >> 56);
}

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v; /* little-endian hosts only, as the whole file format */
}

/* PKU: packs a row of n bytes of 0/1 into its words; -1 at the first
 * other byte, with its index in *bad. */
static int pack_row(const uint8_t *bytes, uint32_t n, uint32_t *words, uint32_t *bad)
{
    uint64_t any = 0;
    uint32_t i = 0;
    for (; i + 8 <= n; i += 8)
        any |= load64(bytes + i);
    any &= 0xfefefefefefefefeull;
    for (; i < n; i++)
        any |= bytes[i] & 0xfeu;
    if (any) {
        for (*bad = 0; bytes[*bad] <= 1; (*bad)++)
            ;
        return -1;
    }
    uint32_t j = 0;
    for (; (j + 1) * 32 <= n; j++) {
        const uint8_t *b = bytes + j * 32;
        words[j] = pack8(load64(b)) | pack8(load64(b + 8)) << 8 | pack8(load64(b + 16)) << 16 |
                   pack8(load64(b + 24)) << 24;
    }
    if (j * 32 < n) {
        uint32_t w = 0;
        for (i = j * 32; i < n; i++)
            w |= (uint32_t)bytes[i] << (i - j * 32);
        words[j] = w;
    }
    return 0;
}

/* Byte-per-cell expansion of every byte of bits: entry b holds bit i of b
 * in byte i. */
static uint64_t unpack_table[256];

static void unpack_table_init(void)
{
    if (unpack_table[255])
        return;
    for (unsigned b = 0; b < 256; b++) {
        uint64_t v = 0;
        for (unsigned i = 0; i < 8; i++)
            v |= (uint64_t)(b >> i & 1u) << (8 * i);
        unpack_table[b] = v;
    }
}

/* PKU: the n cells of a row's words as bytes of 0/1. */
static void unpack_row(const uint32_t *words, uint32_t n, uint8_t *bytes)
{
    uint32_t j = 0;
    for (; (j + 1) * 32 <= n; j++)
        for (unsigned k = 0; k < 4; k++)
            memcpy(bytes + j * 32 + k * 8, &unpack_table[words[j] >> (8 * k) & 0xffu], 8);
    for (uint32_t x = j * 32; x < n; x++)
        bytes[x] = (uint8_t)(words[j] >> (x - j * 32) & 1u);
}

/* Bytes of a row of nx cells packed 8 to a byte (lslife3, and the grid
 * digest's unit bytes). */
static size_t packed_row_bytes(uint32_t nx)
{
    return ((size_t)nx + 7u) / 8u;
}

/* The bits of a byte holding the last cells of a row of nx cells that are
 * past its last cell (0 when nx fills the byte). */
static uint8_t past_last_cell(uint32_t nx)
{
    return nx % 8 ? (uint8_t)(0xffu << (nx % 8)) : 0;
}

/* lslife3: a row's packed bytes into its words; -1 when a bit past its
 * last cell is set (no writer sets one: damage). */
static int bytes_to_row(const uint8_t *bytes, uint32_t nx, uint32_t *words)
{
    size_t n = packed_row_bytes(nx);
    words[(nx - 1u) / 32u] = 0;
    memcpy(words, bytes, n);
    return bytes[n - 1] & past_last_cell(nx) ? -1 : 0;
}

/* lslife3: a row's words as its packed bytes. */
static void row_to_bytes(const uint32_t *words, uint32_t nx, uint8_t *bytes)
{
    size_t n = packed_row_bytes(nx);
    memcpy(bytes, words, n);
    bytes[n - 1] &= (uint8_t)~past_last_cell(nx);
}

/* lslife2, whose rows are not padded: the row of nx cells that starts
 * `bit` bits into bytes (readable 8 bytes past the row's last) into its
 * words. */
static void bits_to_row(const uint8_t *bytes, uint64_t bit, uint32_t nx, uint32_t *words)
{
    uint32_t n = (nx + 31u) / 32u;
    for (uint32_t j = 0; j < n; j++) {
        uint64_t at = bit + 32ull * j;
        words[j] = (uint32_t)(load64(bytes + at / 8) >> (at % 8));
    }
    words[n - 1] &= life_valid_mask(nx - 32u * (n - 1u));
}

/* ---- rows in parallel --------------------------------------------------------- */

/* A grid file's rows (PKU, native) read or written by every thread at
 * once (file_pass.h), a record a row: row r's bytes are at head + r *
 * row_bytes (lslife2's rows share bytes: its bits start at bit 8 head +
 * r nx). The pass's rows are rows 0 .. of dst (reading) or src (writing);
 * this is its arg. */
typedef struct rows_io {
    life_grid *dst;
    const life_grid *src;
    uint32_t nx; /* cells a row */
} rows_io;

/* Words of the pass's row r in dst or src. */
static size_t row_words_at(const life_grid *g, int64_t r)
{
    return (size_t)r * g->row_words;
}

/* PKU: rows r0 .. r0 + nr read and packed. (pread, not a mapping of the
 * input: a mapping measured no faster, and a file cut short under it
 * would end the process with SIGBUS instead of a message.) */
static void pku_read_chunk(ls_file_pass *p, uint8_t *bytes, int64_t r0, int64_t nr)
{
    const rows_io *io = p->arg;
    uint32_t m = io->nx;
    if (ls_pass_read(p, bytes, (size_t)nr * m, ls_pass_offset(p, r0), r0))
        return;
    for (int64_t r = 0; r < nr; r++) {
        uint32_t bad;
        if (pack_row(bytes + (size_t)r * m, m, io->dst->words + row_words_at(io->dst, r0 + r), &bad)) {
            ls_pass_bad(p, ls_pass_offset(p, r0 + r) + bad, bytes[(size_t)r * m + bad]);
            return;
        }
    }
}

/* PKU: rows r0 .. r0 + nr expanded and written. */
static void pku_write_chunk(ls_file_pass *p, uint8_t *bytes, int64_t r0, int64_t nr)
{
    const rows_io *io = p->arg;
    uint32_t m = io->nx;
    for (int64_t r = 0; r < nr; r++)
        unpack_row(io->src->words + row_words_at(io->src, r0 + r), m, bytes + (size_t)r * m);
    ls_pass_write(p, bytes, (size_t)nr * m, ls_pass_offset(p, r0));
}

/* lslife3: rows r0 .. r0 + nr read and unpacked; a bit set past a row's
 * last cell is a bad byte. */
static void native_read_chunk(ls_file_pass *p, uint8_t *bytes, int64_t r0, int64_t nr)
{
    const rows_io *io = p->arg;
    size_t rb = p->record_bytes;
    if (ls_pass_read(p, bytes, (size_t)nr * rb, ls_pass_offset(p, r0), r0))
        return;
    for (int64_t r = 0; r < nr; r++)
        if (bytes_to_row(bytes + (size_t)r * rb, io->nx, io->dst->words + row_words_at(io->dst, r0 + r))) {
            ls_pass_bad(p, ls_pass_offset(p, r0 + r) + rb - 1, bytes[(size_t)r * rb + rb - 1]);
            return;
        }
}

/* lslife3: rows r0 .. r0 + nr packed and written. */
static void native_write_chunk(ls_file_pass *p, uint8_t *bytes, int64_t r0, int64_t nr)
{
    const rows_io *io = p->arg;
    size_t rb = p->record_bytes;
    for (int64_t r = 0; r < nr; r++)
        row_to_bytes(io->src->words + row_words_at(io->src, r0 + r), io->nx, bytes + (size_t)r * rb);
    ls_pass_write(p, bytes, (size_t)nr * rb, ls_pass_offset(p, r0));
}

/* lslife2: rows r0 .. r0 + nr read from the bytes their bits span (the
 * buffer's slack holds the 8 bytes bits_to_row reads past them). */
static void native2_read_chunk(ls_file_pass *p, uint8_t *bytes, int64_t r0, int64_t nr)
{
    const rows_io *io = p->arg;
    uint64_t bit0 = (p->first + (uint64_t)r0) * io->nx, bit1 = bit0 + (uint64_t)nr * io->nx;
    uint64_t from = bit0 / 8, to = (bit1 + 7) / 8;
    if (ls_pass_read(p, bytes, (size_t)(to - from), p->head + from, r0))
        return;
    memset(bytes + (to - from), 0, 8);
    for (int64_t r = 0; r < nr; r++)
        bits_to_row(bytes, bit0 - from * 8 + (uint64_t)r * io->nx, io->nx,
                    io->dst->words + row_words_at(io->dst, r0 + r));
}

/* What a reading pass found, as the message a reader gives: 0, or -1
 * with err set (err->usage for bad input). */
static int rows_read_result(const ls_file_pass *p, const char *name, const char *what_bad, int64_t grid_rows,
                            ls_error *err)
{
    if (p->io_errno)
        return ls_fail(err, "%s: %s", name, strerror(p->io_errno));
    if (p->short_record >= 0)
        return ls_fail_usage(err, "%s: truncated: the cells end within row %lld of %lld", name,
                             (long long)p->short_record, (long long)grid_rows);
    if (p->first_bad != UINT64_MAX)
        return ls_fail_usage(err, "%s: the byte at offset %llu is %u; %s", name, (unsigned long long)p->first_bad,
                             p->bad_value, what_bad);
    return 0;
}

/* Why a PKU cell byte is bad; and a native one. */
#define PKU_BAD "a cell is 0 (dead) or 1 (alive)"
#define NATIVE_BAD "damaged: it sets bits past its row's last cell"

/* ---- PKU HPCGame problem G ------------------------------------------------- */

#define PKU_HEADER 16

/* Checks the header's M against the cells the file holds after it (left
 * bytes; -1: unknown, a pipe). */
static int pku_check_size(const char *name, uint64_t m, long long left, ls_error *err)
{
    if (m < LIFE_MIN_SIZE || m > LIFE_MAX_SIZE)
        return ls_fail_usage(err, "%s: the header says M = %llu; a PKU grid is a cube of %u to %u cells a side", name,
                             (unsigned long long)m, LIFE_MIN_SIZE, LIFE_MAX_SIZE);
    unsigned long long want = (unsigned long long)(m * m * m);
    if (left >= 0 && (unsigned long long)left != want)
        return ls_fail_usage(err, "%s: the header says M = %llu, so %llu bytes of cells, but the file has %lld (%s)",
                             name, (unsigned long long)m, want, left,
                             (unsigned long long)left < want ? "truncated" : "extra bytes at the end");
    return 0;
}

/* The M^2 rows of M bytes in order into the sink, whose memory grows
 * with the rows that arrive where the length is unknown (a pipe). A
 * regular file is read by every thread where the slabs live
 * (life_grid_in): this reader has what is not one. */
static int pku_read_cells_stream(FILE *f, const char *name, row_sink *s, ls_error *err)
{
    uint32_t m = s->nx;
    uint8_t *row = malloc(m);
    if (!row)
        return ls_fail(err, "out of memory for a row of %u cells", m);
    size_t rows = (size_t)m * m;
    for (size_t r = 0; r < rows; r++) {
        uint32_t bad, *words;
        if (fread(row, 1, m, f) != m) {
            free(row);
            return ls_fail_usage(err, "%s: truncated: the cells end within row %zu of %zu", name, r, rows);
        }
        if (!(words = sink_row(s, r, err))) {
            free(row);
            return -1;
        }
        if (pack_row(row, m, words, &bad)) {
            ls_fail_usage(err, "%s: the byte at offset %llu is %u; " PKU_BAD, name,
                          (unsigned long long)(PKU_HEADER + (uint64_t)r * m + bad), row[bad]);
            free(row);
            return -1;
        }
    }
    free(row);
    if (fgetc(f) != EOF)
        return ls_fail_usage(err, "%s: extra bytes after the %u^3 cells the header announces", name, m);
    return sink_close(s, err);
}

int life_read_pku(FILE *f, const char *name, life_grid *g, life_meta *meta, ls_error *err)
{
    uint8_t head[PKU_HEADER];
    memset(g, 0, sizeof *g);
    if (fread(head, 1, sizeof head, f) != sizeof head)
        return ls_fail_usage(err, "%s: too short for a PKU header (uint64 M, uint64 T: 16 bytes)", name);
    uint64_t m = ls_load_le(head, 8);
    long long left = bytes_left(f);
    row_sink sink;
    if (pku_check_size(name, m, left, err) || sink_open(&sink, g, 3, m, m, m, left < 0, err))
        return -1;
    if (pku_read_cells_stream(f, name, &sink, err)) {
        sink_abort(&sink);
        return -1;
    }
    meta->generation = ls_load_le(head + 8, 8);
    return 0;
}

static void pku_header(uint8_t head[PKU_HEADER], const life_grid *g, const life_meta *meta)
{
    ls_store_le(head, g->nx, 8);
    ls_store_le(head + 8, meta->generation, 8);
}

/* The header, then the cells row after row through the stream (a pipe,
 * a terminal, a target written through: regular files are written in
 * pieces, write_pieces). */
int life_write_pku(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err)
{
    if (life_format_check_shape(&life_pku_format, g->dims, g->nx, g->ny, g->nz, meta->scale, err))
        return -1;
    uint8_t head[PKU_HEADER];
    pku_header(head, g, meta);
    unpack_table_init();
    uint32_t m = g->nx;
    uint8_t *row = malloc(m);
    if (!row)
        return ls_fail(err, "out of memory for a row of %u cells", m);
    errno = 0;
    int ok = fwrite(head, 1, sizeof head, f) == sizeof head;
    for (size_t r = 0; ok && r < (size_t)g->ny * g->nz; r++) {
        unpack_row(g->words + r * g->row_words, m, row);
        ok = fwrite(row, 1, m, f) == m;
    }
    free(row);
    return ok ? 0 : write_error(err);
}

const life_format_methods life_pku_format = {
    .name = "pku", .extensions = {".data", ".bin", ".pku"}, .holds = "3D cubes", .dims = 3, .cubes = 1,
    .about = "PKU HPCGame 2024 problem G: uint64 M and T (little-endian), then M^3 bytes, 1 alive; a cube. The "
             "output's T is the input's T + N. Under MPI each rank reads and writes its own planes, at their "
             "offsets.",
    .read_grid = life_read_pku, .write = life_write_pku,
};

/* ---- native: bit-packed, any size -------------------------------------- */

/* The third version, written: rows padded to whole bytes, and a trailer
 * of the grid digest (version 2) and a check of the header, so that the
 * file is written and checked in pieces, a unit at its offset. Read too:
 * the second ("lslife2": rows not padded, an FNV-1a checksum of every
 * byte in order). The first ("lslife1") checked only the cells, so an
 * edited rule or generation went unnoticed: refused by name
 * (docs/life.md). */
static const uint8_t native_magic[8] = {'l', 's', 'l', 'i', 'f', 'e', '3', '\n'};
static const uint8_t native_magic_v2[8] = {'l', 's', 'l', 'i', 'f', 'e', '2', '\n'};
static const uint8_t native_magic_v1[8] = {'l', 's', 'l', 'i', 'f', 'e', '1', '\n'};
#define NATIVE_HEADER 40  /* magic, shape, nx, ny, nz, birth, survive, generation */
#define NATIVE_TRAILER 16 /* lslife3: the grid digest, then the check of header and digest */
#define NATIVE_V2_TRAILER 8 /* lslife2: FNV-1a 64 of every byte before it (hash.h) */
/* The check's XXH3 seed: the format's version. */
#define NATIVE_CHECK_SEED 3
/* The shape word: the dimension (2 or 3) in its low byte, and this bit
 * for a bounded plane (clear: a torus, as every file before planes). A
 * lockstep that knows no planes refuses such a file as "no valid grid"
 * rather than run it on a torus. */
#define NATIVE_PLANE 0x100u

#define NATIVE_DAMAGED "damaged: the checksum does not match the header and the cells"
/* A stream (a pipe) that ends before its header's grid does: it was cut
 * short, or the header's size was changed, which only its length tells. */
#define NATIVE_SHORT " (truncated, or its header's size is damaged)"

/* What a native header says, checked against the bytes that follow it. */
typedef struct native_head {
    int version;     /* 2 or 3 */
    unsigned dims;
    int bounded;
    uint64_t ext[3];
    uint64_t cell_bytes; /* the cells' bytes after the header */
} native_head;

/* The cells' bytes of an nx x ny x nz grid in the layout of `version`. */
static uint64_t native_cell_bytes(int version, uint64_t nx, uint64_t ny, uint64_t nz)
{
    return version == 2 ? (nx * ny * nz + 7) / 8 : packed_row_bytes((uint32_t)nx) * ny * nz;
}

static void native_header_bytes(uint8_t head[NATIVE_HEADER], const life_grid *g, const life_meta *meta)
{
    memcpy(head, native_magic, 8);
    ls_store_le(head + 8, g->dims | (g->bounded ? NATIVE_PLANE : 0u), 4);
    ls_store_le(head + 12, g->nx, 4);
    ls_store_le(head + 16, g->ny, 4);
    ls_store_le(head + 20, g->nz, 4);
    ls_store_le(head + 24, meta->has_rule ? meta->rule.birth : 0, 4);
    ls_store_le(head + 28, meta->has_rule ? meta->rule.survive : 0, 4);
    ls_store_le(head + 32, meta->generation, 8);
}

/* lslife3's trailer: the grid digest, and XXH3 of the header and the
 * digest's bytes (seed NATIVE_CHECK_SEED). */
static void native_trailer(uint8_t out[NATIVE_TRAILER], const uint8_t head[NATIVE_HEADER], uint64_t digest)
{
    uint8_t covered[NATIVE_HEADER + 8];
    memcpy(covered, head, NATIVE_HEADER);
    ls_store_le(covered + NATIVE_HEADER, digest, 8);
    ls_store_le(out, digest, 8);
    ls_store_le(out + 8, ls_hash64(covered, sizeof covered, NATIVE_CHECK_SEED), 8);
}

/* lslife3: whether the trailer's check covers this header and the
 * trailer's digest (an edited header is damage). */
static int native_check_holds(const uint8_t head[NATIVE_HEADER], const uint8_t trailer[NATIVE_TRAILER])
{
    uint8_t want[NATIVE_TRAILER];
    native_trailer(want, head, ls_load_le(trailer, 8));
    return memcmp(want, trailer, NATIVE_TRAILER) == 0;
}

/* lslife3 whose header disagrees with the file (its length, or the check
 * in its trailer): the one side, nx, ny or nz (0, 1, 2), whose value in
 * place of the header's both makes the file's cell_bytes and makes the
 * check at the file's end (tail) hold. 1 with *side and *value: the
 * header was damaged there, and the file is whole; 0 when no one side
 * does (the file cut short, say). At most ten checks (8 nx share a row's
 * bytes). */
static int native_damaged_side(const uint8_t head[NATIVE_HEADER], const uint8_t tail[NATIVE_TRAILER],
                               uint64_t cell_bytes, unsigned *side, uint64_t *value)
{
    uint64_t ext[3] = {ls_load_le(head + 12, 4), ls_load_le(head + 16, 4), ls_load_le(head + 20, 4)};
    uint64_t row = packed_row_bytes((uint32_t)ext[0]);
    for (unsigned s = 0; s < 3; s++) {
        /* The bytes of everything but side s: cell_bytes is their multiple. */
        uint64_t a = s == 0 ? ext[1] : row, b = s == 2 ? ext[1] : ext[2];
        if (a == 0 || b == 0 || a > UINT64_MAX / b || cell_bytes % (a * b) != 0)
            continue;
        uint64_t q = cell_bytes / (a * b); /* nx: the bytes of a row; else the side */
        uint64_t lo = s == 0 ? 8 * q - 7 : q, hi = s == 0 ? 8 * q : q;
        for (uint64_t v = lo; q && v <= hi && v <= UINT32_MAX; v++) {
            uint8_t fixed[NATIVE_HEADER];
            memcpy(fixed, head, NATIVE_HEADER);
            ls_store_le(fixed + 12 + 4 * s, v, 4);
            if (v != ext[s] && native_check_holds(fixed, tail)) {
                *side = s;
                *value = v;
                return 1;
            }
        }
    }
    return 0;
}

/* Says which side of the header is damaged, and what the file says it is
 * (native_damaged_side): err->usage set, -1. */
static int native_damaged_header(const char *name, const uint8_t head[NATIVE_HEADER], unsigned side, uint64_t value,
                                 ls_error *err)
{
    static const char *const sides[3] = {"nx", "ny", "nz"};
    uint64_t ext[3] = {ls_load_le(head + 12, 4), ls_load_le(head + 16, 4), ls_load_le(head + 20, 4)}, said = ext[side];
    ext[side] = value;
    return ls_fail_usage(err, "%s: damaged header: its %s is %llu, but the file's length and its check say %llu (a "
                              "%llux%llux%llu grid)",
                         name, sides[side], (unsigned long long)said, (unsigned long long)value,
                         (unsigned long long)ext[0], (unsigned long long)ext[1], (unsigned long long)ext[2]);
}

/* Checks a native header against the file's length after it (left; -1:
 * unknown, a pipe), and fills meta and *h; the grid is made by the
 * caller. tail: the file's last NATIVE_TRAILER bytes where known (else
 * NULL), to tell a damaged size in an lslife3 header from a file cut
 * short. */
static int native_header(const char *name, const uint8_t *head, long long left, const uint8_t *tail,
                         life_meta *meta, native_head *h, ls_error *err)
{
    if (memcmp(head, native_magic_v1, 8) == 0)
        return ls_fail_usage(err, "%s: a grid in lockstep's first native format (lslife1), whose checksum does not "
                                  "cover its header (rule, generation); lslife2 and lslife3 are read (docs/life.md)",
                             name);
    h->version = memcmp(head, native_magic, 8) == 0 ? 3 : memcmp(head, native_magic_v2, 8) == 0 ? 2 : 0;
    if (!h->version)
        return ls_fail_usage(err, "%s: not a lockstep Life grid (the file does not start with 'lslife3' or 'lslife2')",
                             name);
    uint32_t shape = (uint32_t)ls_load_le(head + 8, 4);
    h->dims = shape & ~NATIVE_PLANE;
    h->bounded = (shape & NATIVE_PLANE) != 0;
    uint64_t nx = h->ext[0] = ls_load_le(head + 12, 4), ny = h->ext[1] = ls_load_le(head + 16, 4);
    uint64_t nz = h->ext[2] = ls_load_le(head + 20, 4);
    int valid = life_grid_check_size(h->dims, nx, ny, nz, err) == 0;
    h->cell_bytes = valid ? native_cell_bytes(h->version, nx, ny, nz) : 0;
    unsigned long long want = h->cell_bytes + (h->version == 3 ? NATIVE_TRAILER : NATIVE_V2_TRAILER);
    int fits = left < 0 || (unsigned long long)left == want;
    unsigned side;
    uint64_t value;
    if ((!valid || !fits) && h->version == 3 && tail && left >= NATIVE_TRAILER &&
        native_damaged_side(head, tail, (uint64_t)left - NATIVE_TRAILER, &side, &value))
        return native_damaged_header(name, head, side, value, err);
    if (!valid)
        return ls_fail_usage(err, "%s: the header describes no valid grid (%u dimensions, %llux%llux%llu)", name,
                             h->dims, (unsigned long long)nx, (unsigned long long)ny, (unsigned long long)nz);
    /* lslife2's checksum covers every byte: which of the header's size
     * and the file's length is wrong, it does not tell. */
    if (!fits)
        return ls_fail_usage(err, "%s: a %llux%llux%llu grid takes %llu bytes after the header, the file has %lld (%s%s)",
                             name, (unsigned long long)nx, (unsigned long long)ny, (unsigned long long)nz, want, left,
                             (unsigned long long)left < want ? "truncated" : "extra bytes at the end",
                             h->version == 2 ? ", or its header's size is damaged" : "");
    meta->rule.birth = (uint32_t)ls_load_le(head + 24, 4);
    meta->rule.survive = (uint32_t)ls_load_le(head + 28, 4);
    meta->has_rule = 1;
    meta->generation = ls_load_le(head + 32, 8);
    uint32_t all = (2u << life_max_count(h->dims)) - 1u;
    if ((meta->rule.birth | meta->rule.survive) & ~all)
        return ls_fail_usage(err, "%s: the header's rule has counts above %u", name, life_max_count(h->dims));
    return 0;
}

/* lslife2's cells, a bit at a time, every byte that passes hashed into
 * the checksum. */
typedef struct bit_stream {
    FILE *f;
    uint64_t acc;
    unsigned nbits;
    int failed; /* a read fell short */
    uint64_t hash;
} bit_stream;

/* The next n bits (n <= 32); sets failed at the end of the file. */
static uint32_t stream_get(bit_stream *s, unsigned n)
{
    while (s->nbits < n) {
        int c = fgetc(s->f);
        if (c == EOF) {
            s->failed = 1;
            return 0;
        }
        s->hash = ls_fnv1a(s->hash, &(uint8_t){(uint8_t)c}, 1);
        s->acc |= (uint64_t)c << s->nbits;
        s->nbits += 8;
    }
    uint32_t v = (uint32_t)(s->acc & life_valid_mask(n));
    s->acc >>= n;
    s->nbits -= n;
    return v;
}

/* lslife2: the cells after the header into the sink's rows; the checksum
 * hashes the header (head) and every byte read. 0, or -1 with err set. */
static int native2_cells(FILE *f, const char *name, const uint8_t *head, row_sink *sink, ls_error *err)
{
    bit_stream s = {.f = f, .hash = ls_fnv1a(LS_FNV_INIT, head, NATIVE_HEADER)};
    uint32_t last_bits = sink->nx - (sink->row_words - 1u) * 32u;
    size_t rows = (size_t)sink->ny * sink->nz;
    for (size_t r = 0; r < rows && !s.failed; r++) {
        uint32_t *w = sink_row(sink, r, err);
        if (!w)
            return -1;
        for (uint32_t j = 0; j < sink->row_words; j++)
            w[j] = stream_get(&s, j + 1 < sink->row_words ? 32 : last_bits);
    }
    uint8_t sum[8];
    if (s.failed || fread(sum, 1, sizeof sum, f) != sizeof sum)
        return ls_fail_usage(err, "%s: the cells or the checksum are cut short" NATIVE_SHORT, name);
    /* The last byte's padding bits are zeros, as written. */
    if (s.acc != 0 || fgetc(f) != EOF || ls_load_le(sum, 8) != s.hash)
        return ls_fail_usage(err, "%s: " NATIVE_DAMAGED, name);
    return sink_close(sink, err);
}

/* lslife3: the rows after the header into the sink, then the trailer:
 * the digest of the grid read must be the one it records, and the check
 * must cover the header. 0, or -1 with err set. */
static int native3_cells(FILE *f, const char *name, const uint8_t *head, row_sink *sink, ls_error *err)
{
    size_t rb = packed_row_bytes(sink->nx), rows = (size_t)sink->ny * sink->nz;
    uint8_t *row = malloc(rb), trailer[NATIVE_TRAILER];
    if (!row)
        return ls_fail(err, "out of memory for a row of %u cells", sink->nx);
    int bad = 0;
    for (size_t r = 0; r < rows && !bad; r++) {
        if (fread(row, 1, rb, f) != rb) {
            free(row);
            return ls_fail_usage(err, "%s: the cells end within row %zu of %zu" NATIVE_SHORT, name, r, rows);
        }
        uint32_t *w = sink_row(sink, r, err);
        if (!w) {
            free(row);
            return -1;
        }
        bad = bytes_to_row(row, sink->nx, w);
    }
    free(row);
    if (!bad && fread(trailer, 1, sizeof trailer, f) != sizeof trailer)
        return ls_fail_usage(err, "%s: the checksum is cut short" NATIVE_SHORT, name);
    if (bad || fgetc(f) != EOF || !native_check_holds(head, trailer))
        return ls_fail_usage(err, "%s: " NATIVE_DAMAGED, name);
    if (sink_close(sink, err))
        return -1;
    if (life_grid_digest(sink->g) != ls_load_le(trailer, 8))
        return ls_fail_usage(err, "%s: " NATIVE_DAMAGED, name);
    return 0;
}

int life_read_native(FILE *f, const char *name, life_grid *g, life_meta *meta, ls_error *err)
{
    uint8_t head[NATIVE_HEADER];
    native_head h;
    row_sink sink;
    memset(g, 0, sizeof *g);
    if (fread(head, 1, sizeof head, f) != sizeof head)
        return ls_fail_usage(err, "%s: too short for a lockstep Life grid header (%d bytes)", name, NATIVE_HEADER);
    long long left = bytes_left(f);
    uint8_t tail[NATIVE_TRAILER];
    if (native_header(name, head, left, file_tail(f, left, tail, sizeof tail), meta, &h, err) ||
        sink_open(&sink, g, h.dims, h.ext[0], h.ext[1], h.ext[2], left < 0, err))
        return -1;
    if ((h.version == 3 ? native3_cells : native2_cells)(f, name, head, &sink, err)) {
        sink_abort(&sink);
        return -1;
    }
    g->bounded = h.bounded;
    return 0;
}

int life_write_native(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err)
{
    uint8_t head[NATIVE_HEADER], trailer[NATIVE_TRAILER];
    native_header_bytes(head, g, meta);
    size_t rb = packed_row_bytes(g->nx), rows = (size_t)g->ny * g->nz;
    uint8_t *row = malloc(rb);
    if (!row)
        return ls_fail(err, "out of memory for a row of %u cells", g->nx);
    errno = 0;
    int ok = fwrite(head, 1, sizeof head, f) == sizeof head;
    for (size_t r = 0; r < rows && ok; r++) {
        row_to_bytes(g->words + r * g->row_words, g->nx, row);
        ok = fwrite(row, 1, rb, f) == rb;
    }
    free(row);
    native_trailer(trailer, head, life_grid_digest(g));
    if (!ok || fwrite(trailer, 1, sizeof trailer, f) != sizeof trailer)
        return write_error(err);
    return 0;
}

const life_format_methods life_native_format = {
    .name = "native", .extensions = {".lsgrid"}, .holds = "any grid",
    .about = "lockstep's own: the shape, rule and generation, the cells 8 to a byte, rows padded to a byte, the "
             "grid digest and a check of the header; any size, 2D or 3D, torus or plane. Under MPI each rank reads "
             "and writes its own planes, at their offsets.",
    .read_grid = life_read_native, .write = life_write_native,
};

/* ---- files ------------------------------------------------------------------ */

int life_read_file(const char *path, life_format fmt, const life_pattern_want *want, life_grid *g, life_pattern *p,
                   life_meta *meta, ls_error *err)
{
    memset(g, 0, sizeof *g);
    memset(p, 0, sizeof *p);
    memset(meta, 0, sizeof *meta);
    if (life_format_resolve(path, fmt, &fmt, err))
        return -1;
    if (!fmt->read_grid && !fmt->read_pattern)
        return ls_fail_usage(err, "%s: the %s format is written only (%s of a run), not read", path, fmt->name,
                             fmt->holds);
    FILE *f = fopen(path, "rb");
    if (!f)
        return ls_fail_usage(err, "cannot open %s: %s", path, strerror(errno));
    int rc = fmt->read_grid ? fmt->read_grid(f, path, g, meta, err) : fmt->read_pattern(f, path, want, p, err);
    fclose(f);
    if (rc == 0 && !fmt->read_grid)
        meta->generation = p->generation; /* #CXRLE Gen=, ... */
    return rc;
}

/* ---- grid files read a range of planes at a time ------------------------------ */

struct life_grid_in {
    int fd;
    char *name;
    life_format fmt;
    int version;            /* native: 2 (lslife2) or 3; PKU: 0 */
    uint32_t nx;
    uint64_t rows_a_plane;  /* rows of a unit: ny in 3D, 1 in 2D */
    uint64_t grid_rows;
    uint64_t head;          /* bytes before the cells */
    size_t row_bytes;
    uint64_t file_bytes;
    uint8_t header[NATIVE_HEADER];
    size_t header_len;
    uint8_t trailer[NATIVE_TRAILER]; /* lslife3's; lslife2's checksum in its first 8 bytes */
};

/* Reads len bytes at `at` of the input whole: 0, or -1 (errno, or 0 at
 * the end of the file). */
static int in_read(const life_grid_in *in, void *buf, size_t len, uint64_t at)
{
    int e = 0;
    if (ls_file_transfer(in->fd, 0, buf, len, at, &e) == len)
        return 0;
    errno = e;
    return -1;
}

/* The cells of a PKU file from the header on. */
static int grid_in_pku(life_grid_in *in, life_grid *shape, life_meta *meta, ls_error *err)
{
    uint8_t *head = in->header;
    in->header_len = PKU_HEADER;
    if (in->file_bytes < PKU_HEADER || in_read(in, head, PKU_HEADER, 0))
        return ls_fail_usage(err, "%s: too short for a PKU header (uint64 M, uint64 T: 16 bytes)", in->name);
    uint64_t m = ls_load_le(head, 8);
    if (pku_check_size(in->name, m, (long long)(in->file_bytes - PKU_HEADER), err))
        return -1;
    in->nx = (uint32_t)m;
    in->rows_a_plane = m;
    in->grid_rows = m * m;
    in->head = PKU_HEADER;
    in->row_bytes = m;
    life_grid_shape(shape, 3, (uint32_t)m, (uint32_t)m, (uint32_t)m);
    meta->generation = ls_load_le(head + 8, 8);
    return 0;
}

/* lslife2: its checksum, FNV-1a of every byte in order, over the whole
 * file, and the padding bits of its last cell byte (zeros, as written):
 * a pass of one thread over all of it, as reading it whole was. */
static int native2_verify(life_grid_in *in, uint64_t cell_bytes, uint64_t cells, ls_error *err)
{
    size_t chunk = LS_PASS_CHUNK_BYTES;
    uint8_t *buf = malloc(chunk);
    if (!buf)
        return ls_fail(err, "out of memory for %u MiB of read buffers", LS_PASS_CHUNK_BYTES >> 20);
    uint64_t hash = LS_FNV_INIT, end = in->head + cell_bytes, last = 0;
    int rc = 0;
    for (uint64_t at = 0; at < end && rc == 0; at += chunk) {
        size_t n = end - at < chunk ? (size_t)(end - at) : chunk;
        if (in_read(in, buf, n, at)) {
            rc = ls_fail(err, "%s: %s", in->name, errno ? strerror(errno) : "the file shrank while it was read");
            break;
        }
        hash = ls_fnv1a(hash, buf, n);
        last = buf[n - 1];
    }
    free(buf);
    uint8_t padding = cells % 8 ? (uint8_t)(0xffu << (cells % 8)) : 0;
    if (rc == 0 && (hash != ls_load_le(in->trailer, 8) || (last & padding)))
        return ls_fail_usage(err, "%s: " NATIVE_DAMAGED, in->name);
    return rc;
}

/* The cells of a native file from the header on; lslife3's trailer must
 * check its header, lslife2's checksum its every byte. */
static int grid_in_native(life_grid_in *in, life_grid *shape, life_meta *meta, ls_error *err)
{
    native_head h;
    in->header_len = NATIVE_HEADER;
    if (in->file_bytes < NATIVE_HEADER || in_read(in, in->header, NATIVE_HEADER, 0))
        return ls_fail_usage(err, "%s: too short for a lockstep Life grid header (%d bytes)", in->name,
                             NATIVE_HEADER);
    uint8_t tail[NATIVE_TRAILER];
    int whole_tail = in->file_bytes >= NATIVE_HEADER + sizeof tail &&
                     in_read(in, tail, sizeof tail, in->file_bytes - sizeof tail) == 0;
    if (native_header(in->name, in->header, (long long)(in->file_bytes - NATIVE_HEADER), whole_tail ? tail : NULL,
                      meta, &h, err))
        return -1;
    in->version = h.version;
    in->nx = (uint32_t)h.ext[0];
    in->rows_a_plane = h.dims == 3 ? h.ext[1] : 1;
    in->grid_rows = h.ext[1] * h.ext[2];
    in->head = NATIVE_HEADER;
    in->row_bytes = packed_row_bytes(in->nx);
    life_grid_shape(shape, h.dims, in->nx, (uint32_t)h.ext[1], (uint32_t)h.ext[2]);
    shape->bounded = h.bounded;
    size_t trailer = h.version == 3 ? NATIVE_TRAILER : NATIVE_V2_TRAILER;
    if (in_read(in, in->trailer, trailer, NATIVE_HEADER + h.cell_bytes))
        return ls_fail_usage(err, "%s: truncated: the checksum is cut short", in->name);
    if (h.version == 2)
        return native2_verify(in, h.cell_bytes, h.ext[0] * h.ext[1] * h.ext[2], err);
    unsigned side;
    uint64_t value;
    if (native_check_holds(in->header, in->trailer))
        return 0;
    /* A side changed to one of the same bytes a row (nx 40 to 33). */
    if (native_damaged_side(in->header, in->trailer, h.cell_bytes, &side, &value))
        return native_damaged_header(in->name, in->header, side, value, err);
    return ls_fail_usage(err, "%s: " NATIVE_DAMAGED, in->name);
}

int life_grid_in_open(const char *path, life_format fmt, life_grid *shape, life_meta *meta, life_grid_in **out,
                      ls_error *err)
{
    *out = NULL;
    memset(shape, 0, sizeof *shape);
    memset(meta, 0, sizeof *meta);
    struct stat st;
    /* A pipe or a device is read whole, in order (stat first: opening a
     * FIFO would wait for its writer). */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return 1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ls_fail_usage(err, "cannot open %s: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return 1;
    }
    life_grid_in *in = calloc(1, sizeof *in);
    if (!in || !(in->name = strdup(path))) {
        free(in);
        close(fd);
        return ls_fail(err, "out of memory");
    }
    in->fd = fd;
    in->fmt = fmt;
    in->file_bytes = (uint64_t)st.st_size;
    if ((fmt == &life_pku_format ? grid_in_pku : grid_in_native)(in, shape, meta, err)) {
        life_grid_in_close(in);
        return -1;
    }
    *out = in;
    return 0;
}

int life_grid_in_planes(const life_grid_in *in, uint32_t first, uint32_t n, uint32_t *words, ls_error *err)
{
    life_grid rows; /* n units of rows_a_plane rows: as many rows as a 3D view holds */
    life_grid_shape(&rows, 3, in->nx, (uint32_t)in->rows_a_plane, n);
    rows.words = words;
    rows_io io = {.dst = &rows, .nx = in->nx};
    ls_file_pass p = {.fd = in->fd, .head = in->head, .first = first * in->rows_a_plane,
                      .record_bytes = in->row_bytes, .records = (int64_t)(n * in->rows_a_plane), .arg = &io};
    ls_pass_chunk chunk = in->fmt == &life_pku_format ? pku_read_chunk
                          : in->version == 2          ? native2_read_chunk
                                                      : native_read_chunk;
    if (ls_pass_run(&p, chunk) != 0)
        return ls_fail(err, "out of memory for %u MiB of read buffers", LS_PASS_CHUNK_BYTES >> 20);
    return rows_read_result(&p, in->name, in->fmt == &life_pku_format ? PKU_BAD : NATIVE_BAD,
                            (int64_t)in->grid_rows, err);
}

int life_grid_in_fingerprint(const life_grid_in *in, int whole, uint64_t *out, ls_error *err)
{
    if (in->fmt == &life_pku_format && whole)
        return ls_file_hash(in->fd, in->file_bytes, in->name, out, err);
    uint8_t ends[NATIVE_HEADER + NATIVE_TRAILER];
    memcpy(ends, in->header, in->header_len);
    memcpy(ends + in->header_len, in->trailer, sizeof in->trailer);
    *out = ls_hash64(ends, in->header_len + sizeof in->trailer, 0);
    return 0;
}

int life_grid_in_digest(const life_grid_in *in, uint64_t *digest)
{
    if (in->version != 3)
        return 0;
    *digest = ls_load_le(in->trailer, 8);
    return 1;
}

const char *life_grid_in_name(const life_grid_in *in)
{
    return in->name;
}

void life_grid_in_close(life_grid_in *in)
{
    if (!in)
        return;
    close(in->fd);
    free(in->name);
    free(in);
}

/* ---- grid files written in pieces ------------------------------------------ */

void life_pieces_layout(life_pieces *p, life_format fmt, const life_grid *shape, const life_meta *meta)
{
    memset(p, 0, sizeof *p);
    p->fmt = fmt;
    p->fd = -1;
    p->nx = shape->nx;
    p->grid_rows = (uint64_t)shape->ny * shape->nz;
    if (fmt == &life_pku_format) {
        p->head = PKU_HEADER;
        p->row_bytes = shape->nx;
        pku_header(p->header, shape, meta);
    } else {
        p->head = NATIVE_HEADER;
        p->row_bytes = packed_row_bytes(shape->nx);
        p->trailer = NATIVE_TRAILER;
        native_header_bytes(p->header, shape, meta);
    }
}

/* Bytes of the whole file. */
static uint64_t pieces_file_bytes(const life_pieces *p)
{
    return p->head + p->grid_rows * p->row_bytes + p->trailer;
}

/* Whether out holds a file made ready for this write (life_out_prepare):
 * of path, as large, and mapped as the writer asks; one that is not is
 * removed. */
static int take_ready(life_out *out, const char *path, int map, uint64_t bytes)
{
    if (out->ready && map && out->ready == bytes && strcmp(out->file.name, path) == 0)
        return 1;
    life_out_abort(out);
    return 0;
}

/* The temporary file of path for p: made ready ahead (life_out_prepare),
 * or opened now, and then, with `map`, mapped where the target takes it.
 * 0; 1 when the target is written through (nothing is open); -1 with err
 * set. */
static int pieces_file(life_out *out, const char *path, int map, life_pieces *p, ls_error *err)
{
    if (take_ready(out, path, map, pieces_file_bytes(p))) {
        p->map = out->file.map;
        p->faulted_in = 1;
        out->ready = 0;
        return 0;
    }
    if (ls_atomic_open(&out->file, path, err) != 0)
        return -1;
    if (out->file.through || !out->file.tmp) {
        ls_atomic_abort(&out->file); /* a pipe or a terminal: written whole, in order */
        return 1;
    }
    void *mapped = NULL;
    int rc = map ? ls_atomic_map(&out->file, pieces_file_bytes(p), &mapped, err) : 1;
    if (rc < 0) {
        ls_atomic_abort(&out->file); /* its message names the file */
        return -1;
    }
    p->map = mapped;
    return 0;
}

int life_out_pieces_open(life_out *out, const char *path, life_format fmt, const life_grid *shape,
                         const life_meta *meta, int map, life_pieces *p, char **tmp, ls_error *err)
{
    *tmp = NULL;
    life_pieces_layout(p, fmt, shape, meta);
    int rc = pieces_file(out, path, map, p, err);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    int f = fileno(out->file.f), e = 0;
    /* Writers in other processes (not `map`) find the header and the size
     * on the file system first. */
    if (p->map)
        memcpy(p->map, p->header, p->head);
    else if (pwrite(f, p->header, p->head, 0) != (ssize_t)p->head ||
             ftruncate(f, (off_t)pieces_file_bytes(p)) != 0 || (!map && fdatasync(f) != 0))
        e = errno ? errno : EIO;
    if (!e && !(*tmp = realpath(out->file.tmp, NULL)))
        e = errno;
    if (e) {
        ls_atomic_abort(&out->file);
        return ls_fail(err, "cannot write %s: %s", path, strerror(e));
    }
    p->fd = f;
    out->written = 1; /* abort and commit now act on it */
    return 0;
}

/* The cells of `rows` (rows of p->nx cells), the grid's rows from
 * first_row on, at their offsets; beside runs meanwhile. */
static int pieces_write(const life_pieces *p, const life_grid *rows, uint64_t first_row, const ls_beside *beside,
                        ls_error *err)
{
    int pku = p->fmt == &life_pku_format;
    if (pku)
        unpack_table_init();
    rows_io io = {.src = rows, .nx = p->nx};
    ls_file_pass pass = {.fd = p->fd, .map = p->map, .head = p->head, .first = first_row, .record_bytes = p->row_bytes,
                         .records = (int64_t)rows->ny * rows->nz, .beside = beside, .arg = &io};
    if (ls_pass_run(&pass, pku ? pku_write_chunk : native_write_chunk) != 0)
        return ls_fail(err, "out of memory for %u MiB of write buffers", LS_PASS_CHUNK_BYTES >> 20);
    if (pass.io_errno)
        return ls_fail(err, "%s", strerror(pass.io_errno));
    return 0;
}

void life_pieces_prefault(const life_pieces *p)
{
    if (p->map && !p->faulted_in)
        ls_map_fault_in(p->map, pieces_file_bytes(p), ls_team_threads());
}

int life_pieces_write_rows(const life_pieces *p, const life_grid *rows, uint64_t first_row, ls_error *err)
{
    return pieces_write(p, rows, first_row, NULL, err);
}

int life_pieces_finish(const life_pieces *p, uint64_t digest, ls_error *err)
{
    if (!p->trailer)
        return 0;
    uint8_t trailer[NATIVE_TRAILER];
    native_trailer(trailer, p->header, digest);
    uint64_t at = p->head + p->grid_rows * p->row_bytes;
    int e = 0;
    if (p->map)
        memcpy(p->map + at, trailer, sizeof trailer);
    else if (ls_file_transfer(p->fd, 1, trailer, sizeof trailer, at, &e) != sizeof trailer)
        return ls_fail(err, "%s", strerror(e ? e : ENOSPC));
    return 0;
}

/* ---- a grid file made ready while the devices open ---------------------------- */

int life_out_prepare(life_out *out, const char *path, life_format fmt, const life_grid *shape, ls_error *err)
{
    memset(out, 0, sizeof *out);
    out->file.std_fd = -1;
    ls_error ignored;
    if (life_format_resolve(path, fmt, &fmt, &ignored) || !life_format_is_grid(fmt) ||
        life_format_check_shape(fmt, shape->dims, shape->nx, shape->ny, shape->nz, 1, &ignored))
        return 0; /* the write after the run says what is wrong */
    life_pieces p;
    life_meta no_meta; /* the header is written when the file is taken; its size is the format's */
    memset(&no_meta, 0, sizeof no_meta);
    life_pieces_layout(&p, fmt, shape, &no_meta);
    int rc = ls_atomic_ready(&out->file, path, pieces_file_bytes(&p), err);
    out->ready = rc == 0 ? pieces_file_bytes(&p) : 0; /* 1: the write after the run's */
    return rc < 0 ? -1 : 0;
}

/* ---- a whole grid written ---------------------------------------------------- */

/* A whole grid (PKU, native) into a regular file, as in pieces: threads
 * convert their rows straight into a mapping of the temporary file where
 * the target takes one (where pwrite()s to one file take turns on its
 * lock), else at their offsets with pwrite. 0; 1 when the target is
 * written through (a pipe, a terminal), and nothing was written; -1 with
 * err set and nothing left. */
static int write_pieces(life_out *out, const char *path, life_format fmt, const life_grid *g, const life_meta *meta,
                        const ls_beside *beside, ls_error *err)
{
    life_pieces p;
    char *tmp;
    if (life_format_check_shape(fmt, g->dims, g->nx, g->ny, g->nz, meta->scale, err) ||
        life_out_pieces_open(out, path, fmt, g, meta, 1, &p, &tmp, err))
        return -1;
    if (!tmp)
        return 1;
    free(tmp);
    int rc = pieces_write(&p, g, 0, beside, err);
    if (rc == 0 && p.trailer)
        rc = life_pieces_finish(&p, life_grid_digest(g), err);
    if (rc != 0) {
        ls_fail_in(err, "cannot write %s", path);
        life_out_abort(out);
    }
    return rc;
}

int life_out_write(life_out *out, const char *path, life_format fmt, const life_grid *g, const life_meta *meta,
                   const ls_beside *beside, ls_error *err)
{
    int rc = life_format_resolve(path, fmt, &fmt, err);
    if (rc == 0 && !fmt->write)
        rc = ls_fail_usage(err, "%s: the %s format is no grid file (an animation is written by the run, with "
                                "--every)",
                           path, life_format_name(fmt));
    if (rc != 0) {
        life_out_abort(out); /* a file made ready for it */
        return -1;
    }
    /* A file made ready ahead is taken by write_pieces, or removed. */
    rc = life_format_is_grid(fmt) ? write_pieces(out, path, fmt, g, meta, beside, err) : 1;
    if (rc <= 0)
        return rc;
    life_out_abort(out);
    if (ls_atomic_open(&out->file, path, err) != 0)
        return -1;
    /* Through the stream, beside first. A writer's messages do not name
     * the file. */
    ls_beside_run(beside);
    rc = fmt->write(out->file.f, g, meta, err);
    if (rc != 0 && !err->usage)
        ls_fail_in(err, "cannot write %s", path);
    if (rc != 0) {
        ls_atomic_abort(&out->file);
        return -1;
    }
    out->written = 1;
    return 0;
}

int life_out_commit(life_out *out, ls_error *err)
{
    if (!out->written)
        return 0;
    out->written = 0;
    return ls_atomic_commit(&out->file, err);
}

void life_out_abort(life_out *out)
{
    if (out->written || out->ready)
        ls_atomic_abort(&out->file);
    out->written = 0;
    out->ready = 0;
}
