/* life_io.c - the table of formats (their rows: life_format.h), the
 * whole-grid formats (PKU, native), and the file-level read and atomic
 * write. RLE and plaintext are in life_text.c, PNG in life_png.c,
 * macrocells in life_mc.c. */
#include "life_io.h"
#include "life_mc.h"
#include "life_text.h"
#include "hash.h"
#include "output.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

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

/* ---- little-endian integers ----------------------------------------------- */

static uint64_t load_le(const uint8_t *b, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes; i-- > 0;)
        v = v << 8 | b[i];
    return v;
}

static void store_le(uint8_t *b, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

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

/* ---- PKU HPCGame problem G ------------------------------------------------- */

#define PKU_HEADER 16
/* Rows a thread converts at a time through a buffer of its own (reading,
 * and writing with pwrite): about 4 MiB of bytes, so that the buffer stays
 * in cache-sized pieces and the work spreads over threads. */
#define PKU_CHUNK_BYTES (4u << 20)
/* Writing into a mapping, a thread takes larger pieces of the file: an
 * equal share of it, between PKU_CHUNK_BYTES and this. Threads filling
 * pieces next to each other fault their pages in far more slowly. On the
 * H200 host (16-core Xeon, ext4), 1 GiB took 0.50 s in 4 MiB pieces, 0.53
 * in 8, 0.29 in 16, 0.21 in 32 and 64: the PKU form's whole process went
 * from 1.04-1.08 s to 0.76 s (docs/perf/2026-11-24-h200-pku-chunks.log). */
#define PKU_MAP_CHUNK_MAX (32u << 20)

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

/* Packs a row of n bytes of 0/1 into its words; -1 at the first other
 * byte, with its index in *bad. */
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

/* The n cells of a row's words as bytes of 0/1. */
static void unpack_row(const uint32_t *words, uint32_t n, uint8_t *bytes)
{
    uint32_t j = 0;
    for (; (j + 1) * 32 <= n; j++)
        for (unsigned k = 0; k < 4; k++)
            memcpy(bytes + j * 32 + k * 8, &unpack_table[words[j] >> (8 * k) & 0xffu], 8);
    for (uint32_t x = j * 32; x < n; x++)
        bytes[x] = (uint8_t)(words[j] >> (x - j * 32) & 1u);
}

/* Checks the header's M against the bytes the file holds; *seekable tells
 * whether the file's size is known (a regular file, not a pipe). */
static int pku_check_size(FILE *f, const char *name, uint64_t m, int *seekable, ls_error *err)
{
    if (m < LIFE_MIN_SIZE || m > LIFE_MAX_SIZE)
        return ls_fail_usage(err, "%s: the header says M = %llu; a PKU grid is a cube of %u to %u cells a side", name,
                             (unsigned long long)m, LIFE_MIN_SIZE, LIFE_MAX_SIZE);
    long long left = bytes_left(f);
    unsigned long long want = (unsigned long long)(m * m * m);
    *seekable = left >= 0;
    if (left >= 0 && (unsigned long long)left != want)
        return ls_fail_usage(err, "%s: the header says M = %llu, so %llu bytes of cells, but the file has %lld (%s)",
                             name, (unsigned long long)m, want, left,
                             (unsigned long long)left < want ? "truncated" : "extra bytes at the end");
    return 0;
}

static int pku_bad_byte(const char *name, uint64_t offset, unsigned value, ls_error *err)
{
    return ls_fail_usage(err, "%s: the byte at offset %llu is %u; a cell is 0 (dead) or 1 (alive)", name,
                         (unsigned long long)offset, value);
}

/* Moves len bytes between buf and the file at offset `at` (pwrite when
 * `writing`, else pread; no shared file position, so threads may do it at
 * once), retrying interrupted and short transfers. Returns the bytes moved:
 * fewer than len at the end of the file, or on an error (*error = errno). */
static size_t pku_transfer(int fd, int writing, uint8_t *buf, size_t len, off_t at, int *error)
{
    size_t done = 0;
    while (done < len) {
        ssize_t k = writing ? pwrite(fd, buf + done, len - done, at + (off_t)done)
                            : pread(fd, buf + done, len - done, at + (off_t)done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            *error = k < 0 ? errno : 0;
            break;
        }
        done += (size_t)k;
    }
    return done;
}

/* A parallel pass over the cells of a PKU file (rows of m bytes): threads
 * take chunks of whole rows (pku_chunk_bytes at most) and convert them in
 * a buffer of their own that pku_transfer moves to or from offset `base`
 * of fd, or, writing, straight into a mapping of the file (`map`, its
 * first cell); what went wrong is gathered here. */
typedef struct pku_pass {
    int fd;
    off_t base;
    uint8_t *map;      /* writing: the cells mapped, or NULL: through fd */
    uint32_t m;
    int64_t rows, per; /* rows in all, rows a chunk */
    life_grid *dst;    /* reading: the grid the rows are packed into */
    const life_grid *src; /* writing: the grid the rows come from */
    int io_errno;      /* an I/O error (errno) */
    int64_t short_row; /* reading: the first row a read fell short in (the file shrank meanwhile) */
    uint64_t first_bad; /* reading: file offset of the first bad byte */
    unsigned bad_value;
    const life_beside *beside; /* run by one of the threads meanwhile, or NULL */
} pku_pass;

static void run_beside(const life_beside *beside)
{
    if (beside && beside->fn)
        beside->fn(beside->arg);
}

/* Bytes a chunk of a pass holds: PKU_CHUNK_BYTES through buffers; into a
 * mapping, the file shared among the threads, within PKU_CHUNK_BYTES ..
 * PKU_MAP_CHUNK_MAX. */
static uint64_t pku_chunk_bytes(const pku_pass *p)
{
    if (!p->map)
        return PKU_CHUNK_BYTES;
#ifdef _OPENMP /* the fuzz harnesses build this file without OpenMP, one thread */
    uint64_t threads = (uint64_t)omp_get_max_threads();
#else
    uint64_t threads = 1;
#endif
    uint64_t share = (uint64_t)p->rows * p->m / threads;
    return share < PKU_CHUNK_BYTES ? PKU_CHUNK_BYTES : share > PKU_MAP_CHUNK_MAX ? PKU_MAP_CHUNK_MAX : share;
}

/* Runs chunk() over every chunk on the threads, with the chunk's bytes:
 * in the mapping, or in the thread's buffer; the first thread to come runs
 * p->beside first, and then takes chunks as the others do. 0, or -1 when
 * a thread had no memory for its buffer. */
static int pku_parallel(pku_pass *p, void (*chunk)(pku_pass *p, uint8_t *bytes, int64_t r0, int64_t nr))
{
    uint64_t bytes = pku_chunk_bytes(p);
    p->per = bytes / p->m ? (int64_t)(bytes / p->m) : 1;
    int64_t chunks = (p->rows + p->per - 1) / p->per;
    int nomem = 0;
#pragma omp parallel
    {
#pragma omp single nowait
        run_beside(p->beside);
        uint8_t *buf = p->map ? NULL : malloc((size_t)p->per * p->m);
        if (!p->map && !buf) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp for schedule(dynamic, 1)
        for (int64_t c = 0; c < chunks; c++) {
            int64_t r0 = c * p->per, nr = p->rows - r0 < p->per ? p->rows - r0 : p->per;
            if (p->map)
                chunk(p, p->map + (size_t)r0 * p->m, r0, nr);
            else if (buf)
                chunk(p, buf, r0, nr);
        }
        free(buf);
    }
    return nomem ? -1 : 0;
}

/* Reads rows r0 .. r0 + nr into bytes and packs them; the first bad byte
 * in file order is the one kept, whichever thread finds it. (pread, not a
 * mapping of the input: a mapping measured no faster, and a file cut
 * short under it would end the process with SIGBUS instead of a
 * message.) */
static void pku_read_chunk(pku_pass *p, uint8_t *bytes, int64_t r0, int64_t nr)
{
    uint32_t m = p->m;
    size_t len = (size_t)nr * m;
    int e = 0;
    size_t got = pku_transfer(p->fd, 0, bytes, len, p->base + (off_t)((uint64_t)r0 * m), &e);
    if (got < len) {
#pragma omp critical(life_pku_read)
        {
            if (e)
                p->io_errno = e;
            if (p->short_row < 0 || r0 + (int64_t)(got / m) < p->short_row)
                p->short_row = r0 + (int64_t)(got / m);
        }
        return;
    }
    for (int64_t r = 0; r < nr; r++) {
        uint32_t bad;
        if (pack_row(bytes + (size_t)r * m, m, p->dst->words + (size_t)(r0 + r) * p->dst->row_words, &bad)) {
            uint64_t at = PKU_HEADER + (uint64_t)(r0 + r) * m + bad;
#pragma omp critical(life_pku_read)
            if (at < p->first_bad) {
                p->first_bad = at;
                p->bad_value = bytes[(size_t)r * m + bad];
            }
            return;
        }
    }
}

/* Reads the M^2 rows of M bytes into g from a file of known size, in
 * parallel (pku_parallel). */
static int pku_read_cells_parallel(FILE *f, const char *name, life_grid *g, ls_error *err)
{
    uint32_t m = g->nx;
    pku_pass p = {.fd = fileno(f), .base = ftello(f), .m = m, .rows = (int64_t)m * m, .dst = g, .short_row = -1,
                  .first_bad = UINT64_MAX};
    if (p.base < 0)
        return ls_fail(err, "%s: %s", name, strerror(errno));
    if (pku_parallel(&p, pku_read_chunk) != 0)
        return ls_fail(err, "out of memory for %u MiB of read buffers", PKU_CHUNK_BYTES >> 20);
    if (p.io_errno)
        return ls_fail(err, "%s: %s", name, strerror(p.io_errno));
    if (p.short_row >= 0)
        return ls_fail_usage(err, "%s: truncated: the cells end within row %lld of %lld", name,
                             (long long)p.short_row, (long long)p.rows);
    if (p.first_bad != UINT64_MAX)
        return pku_bad_byte(name, p.first_bad, p.bad_value, err);
    return 0;
}

/* The same from a stream (a pipe): row after row into the sink, whose
 * memory grows with the rows that arrive. */
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
            pku_bad_byte(name, PKU_HEADER + (uint64_t)r * m + bad, row[bad], err);
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
    uint64_t m = load_le(head, 8);
    int seekable = 0;
    row_sink sink;
    if (pku_check_size(f, name, m, &seekable, err) || sink_open(&sink, g, 3, m, m, m, !seekable, err))
        return -1;
    if (seekable ? pku_read_cells_parallel(f, name, g, err) : pku_read_cells_stream(f, name, &sink, err)) {
        sink_abort(&sink);
        return -1;
    }
    meta->generation = load_le(head + 8, 8);
    return 0;
}

/* Expands rows r0 .. r0 + nr into bytes, and writes them at their offset
 * unless bytes are the mapped file's. */
static void pku_write_chunk(pku_pass *p, uint8_t *bytes, int64_t r0, int64_t nr)
{
    uint32_t m = p->m;
    for (int64_t r = 0; r < nr; r++)
        unpack_row(p->src->words + (size_t)(r0 + r) * p->src->row_words, m, bytes + (size_t)r * m);
    if (p->map)
        return;
    size_t len = (size_t)nr * m;
    int e = 0;
    if (pku_transfer(p->fd, 1, bytes, len, p->base + (off_t)((uint64_t)r0 * m), &e) < len) {
#pragma omp critical(life_pku_write)
        p->io_errno = e ? e : ENOSPC;
    }
}

static void pku_header(uint8_t head[PKU_HEADER], const life_grid *g, const life_meta *meta)
{
    store_le(head, g->nx, 8);
    store_le(head + 8, meta->generation, 8);
}

/* The cells, after the header that f has just been given: threads expand
 * chunks of rows and write them at their offsets (pwrite) when f is a
 * regular file, as the atomic writer's temporary file is; otherwise row
 * after row through the stream. `beside` runs meanwhile (on one of the
 * threads, or first). */
static int pku_write_cells(FILE *f, const life_grid *g, const life_beside *beside, ls_error *err)
{
    uint32_t m = g->nx;
    int64_t rows = (int64_t)g->ny * g->nz;
    off_t base = ftello(f);
    struct stat st;
    unpack_table_init();
    if (base >= 0 && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        pku_pass p = {.fd = fileno(f), .base = base, .m = m, .rows = rows, .src = g, .beside = beside};
        if (pku_parallel(&p, pku_write_chunk) != 0)
            return ls_fail(err, "out of memory for %u MiB of write buffers", PKU_CHUNK_BYTES >> 20);
        if (p.io_errno)
            return ls_fail(err, "%s", strerror(p.io_errno));
        /* Leave the stream where the data ends, for whoever uses it next. */
        if (fseeko(f, base + (off_t)((uint64_t)rows * m), SEEK_SET) != 0)
            return write_error(err);
        return 0;
    }
    run_beside(beside);
    uint8_t *row = malloc(m);
    if (!row)
        return ls_fail(err, "out of memory for a row of %u cells", m);
    int ok = 1;
    for (int64_t r = 0; ok && r < rows; r++) {
        unpack_row(g->words + (size_t)r * g->row_words, m, row);
        ok = fwrite(row, 1, m, f) == m;
    }
    free(row);
    return ok ? 0 : write_error(err);
}

/* The header, then the cells (pku_write_cells). */
static int pku_write_stream(FILE *f, const life_grid *g, const life_meta *meta, const life_beside *beside,
                            ls_error *err)
{
    if (life_format_check_shape(&life_pku_format, g->dims, g->nx, g->ny, g->nz, meta->scale, err))
        return -1;
    uint8_t head[PKU_HEADER];
    pku_header(head, g, meta);
    errno = 0;
    if (fwrite(head, 1, sizeof head, f) != sizeof head || fflush(f) != 0)
        return write_error(err);
    return pku_write_cells(f, g, beside, err);
}

int life_write_pku(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err)
{
    return pku_write_stream(f, g, meta, NULL, err);
}

const life_format_methods life_pku_format = {
    .name = "pku", .extensions = {".data", ".bin", ".pku"}, .holds = "3D cubes", .dims = 3, .cubes = 1,
    .about = "PKU HPCGame 2024 problem G: uint64 M and T (little-endian), then M^3 bytes, 1 alive; a cube. The "
             "output's T is the input's T + N.",
    .read_grid = life_read_pku, .write = life_write_pku,
};

/* ---- native: bit-packed, any size -------------------------------------- */

/* Version 2: its checksum covers the header too. Version 1 ("lslife1")
 * checked only the cells, so an edited rule or generation went unnoticed;
 * its files are refused by name (docs/life.md). */
static const uint8_t native_magic[8] = {'l', 's', 'l', 'i', 'f', 'e', '2', '\n'};
static const uint8_t native_magic_v1[8] = {'l', 's', 'l', 'i', 'f', 'e', '1', '\n'};
#define NATIVE_HEADER 40 /* magic, shape, nx, ny, nz, birth, survive, generation */
/* The shape word: the dimension (2 or 3) in its low byte, and this bit
 * for a bounded plane (clear: a torus, as every file before planes). A
 * lockstep that knows no planes refuses such a file as "no valid grid"
 * rather than run it on a torus. */
#define NATIVE_PLANE 0x100u

/* The checksum: FNV-1a 64 of every byte before it (hash.h). */

/* A byte stream of cells, 8 to a byte, first cell in the low bit; every
 * byte that passes is hashed into the checksum. */
typedef struct bit_stream {
    FILE *f;
    uint64_t acc;
    unsigned nbits;
    uint8_t buf[4096];
    size_t len;
    int failed; /* a read or write fell short */
    uint64_t hash;
} bit_stream;

static void stream_put_byte(bit_stream *s, uint8_t b)
{
    s->hash = ls_fnv1a(s->hash, &b, 1);
    s->buf[s->len++] = b;
    if (s->len == sizeof s->buf) {
        s->failed |= fwrite(s->buf, 1, s->len, s->f) != s->len;
        s->len = 0;
    }
}

static void stream_put(bit_stream *s, uint32_t bits, unsigned n)
{
    s->acc |= (uint64_t)(bits & life_valid_mask(n)) << s->nbits;
    s->nbits += n;
    while (s->nbits >= 8) {
        stream_put_byte(s, (uint8_t)s->acc);
        s->acc >>= 8;
        s->nbits -= 8;
    }
}

static void stream_flush(bit_stream *s)
{
    if (s->nbits)
        stream_put_byte(s, (uint8_t)s->acc);
    s->nbits = 0;
    if (s->len)
        s->failed |= fwrite(s->buf, 1, s->len, s->f) != s->len;
    s->len = 0;
}

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

int life_write_native(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err)
{
    uint8_t head[NATIVE_HEADER];
    memcpy(head, native_magic, 8);
    store_le(head + 8, g->dims | (g->bounded ? NATIVE_PLANE : 0u), 4);
    store_le(head + 12, g->nx, 4);
    store_le(head + 16, g->ny, 4);
    store_le(head + 20, g->nz, 4);
    store_le(head + 24, meta->has_rule ? meta->rule.birth : 0, 4);
    store_le(head + 28, meta->has_rule ? meta->rule.survive : 0, 4);
    store_le(head + 32, meta->generation, 8);
    errno = 0;
    bit_stream s = {.f = f, .hash = ls_fnv1a(LS_FNV_INIT, head, sizeof head)};
    s.failed = fwrite(head, 1, sizeof head, f) != sizeof head;
    size_t rows = (size_t)g->ny * g->nz;
    for (size_t r = 0; r < rows && !s.failed; r++) {
        const uint32_t *w = g->words + r * g->row_words;
        for (uint32_t j = 0; j < g->row_words; j++)
            stream_put(&s, w[j], j + 1 < g->row_words ? 32 : g->last_bits);
    }
    stream_flush(&s);
    uint8_t sum[8];
    store_le(sum, s.hash, 8);
    if (s.failed || fwrite(sum, 1, sizeof sum, f) != sizeof sum)
        return write_error(err);
    return 0;
}

/* Checks a native header against the file's length and fills meta and
 * the grid's shape (dims, ext); the grid is made by the caller. */
static int native_header(FILE *f, const char *name, const uint8_t *head, life_meta *meta, unsigned *dims,
                         int *bounded, uint64_t ext[3], int *seekable, ls_error *err)
{
    if (memcmp(head, native_magic_v1, 8) == 0)
        return ls_fail_usage(err, "%s: a grid in lockstep's first native format (lslife1), whose checksum does not "
                                  "cover its header (rule, generation); only lslife2 is read (docs/life.md)",
                             name);
    if (memcmp(head, native_magic, 8) != 0)
        return ls_fail_usage(err, "%s: not a lockstep Life grid (the file does not start with 'lslife2')", name);
    uint32_t shape = (uint32_t)load_le(head + 8, 4);
    *dims = shape & ~NATIVE_PLANE;
    *bounded = (shape & NATIVE_PLANE) != 0;
    uint64_t nx = ext[0] = load_le(head + 12, 4), ny = ext[1] = load_le(head + 16, 4), nz = ext[2] = load_le(head + 20, 4);
    if (life_grid_check_size(*dims, nx, ny, nz, err))
        return ls_fail_usage(err, "%s: the header describes no valid grid (%u dimensions, %llux%llux%llu)", name,
                             *dims, (unsigned long long)nx, (unsigned long long)ny, (unsigned long long)nz);
    long long left = bytes_left(f);
    unsigned long long want = (nx * ny * nz + 7) / 8 + 8;
    *seekable = left >= 0;
    if (left >= 0 && (unsigned long long)left != want)
        return ls_fail_usage(err, "%s: a %llux%llux%llu grid takes %llu bytes after the header, the file has %lld (%s)",
                             name, (unsigned long long)nx, (unsigned long long)ny, (unsigned long long)nz, want, left,
                             (unsigned long long)left < want ? "truncated" : "extra bytes at the end");
    meta->rule.birth = (uint32_t)load_le(head + 24, 4);
    meta->rule.survive = (uint32_t)load_le(head + 28, 4);
    meta->has_rule = 1;
    meta->generation = load_le(head + 32, 8);
    uint32_t all = (2u << life_max_count(*dims)) - 1u;
    if ((meta->rule.birth | meta->rule.survive) & ~all)
        return ls_fail_usage(err, "%s: the header's rule has counts above %u", name, life_max_count(*dims));
    return 0;
}

/* The cells after the header into the sink's rows; the checksum hashes
 * the header (head) and every byte read. 0, or -1 with err set. */
static int native_cells(FILE *f, const char *name, const uint8_t *head, row_sink *sink, ls_error *err)
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
        return ls_fail_usage(err, "%s: truncated: the cells or the checksum are cut short", name);
    /* The last byte's padding bits are zeros, as written. */
    if (s.acc != 0 || fgetc(f) != EOF || load_le(sum, 8) != s.hash)
        return ls_fail_usage(err, "%s: damaged: the checksum does not match the header and the cells", name);
    return 0;
}

int life_read_native(FILE *f, const char *name, life_grid *g, life_meta *meta, ls_error *err)
{
    uint8_t head[NATIVE_HEADER];
    unsigned dims = 0;
    uint64_t ext[3] = {0, 0, 0};
    int seekable = 0, bounded = 0;
    row_sink sink;
    memset(g, 0, sizeof *g);
    if (fread(head, 1, sizeof head, f) != sizeof head)
        return ls_fail_usage(err, "%s: too short for a lockstep Life grid header (%d bytes)", name, NATIVE_HEADER);
    if (native_header(f, name, head, meta, &dims, &bounded, ext, &seekable, err) ||
        sink_open(&sink, g, dims, ext[0], ext[1], ext[2], !seekable, err))
        return -1;
    if (native_cells(f, name, head, &sink, err) || sink_close(&sink, err)) {
        sink_abort(&sink);
        return -1;
    }
    g->bounded = bounded;
    return 0;
}

const life_format_methods life_native_format = {
    .name = "native", .extensions = {".lsgrid"}, .holds = "any grid",
    .about = "lockstep's own: the shape, rule and generation, the cells 8 to a byte and an FNV-1a checksum of all "
             "of it; any size, 2D or 3D, torus or plane.",
    .read_grid = life_read_native, .write = life_write_native,
};

/* ---- files ------------------------------------------------------------------ */

int life_read_file(const char *path, life_format fmt, uint32_t png_scale, life_grid *g, life_pattern *p,
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
    int rc = fmt->read_grid ? fmt->read_grid(f, path, g, meta, err) : fmt->read_pattern(f, path, png_scale, p, err);
    fclose(f);
    if (rc == 0 && !fmt->read_grid)
        meta->generation = p->generation; /* #CXRLE Gen=, ... */
    return rc;
}

/* A PKU file into the temporary file mapped (ls_atomic_map): threads
 * expand their rows straight into the file's pages, in parallel, where
 * pwrite()s to one file take turns on its lock. 0; 1 when the target is
 * not mapped (a pipe, a device, a file system that maps no files, or
 * reserves no blocks), and nothing was written; -1 with err set. */
static int pku_write_mapped(ls_atomic_file *a, const life_grid *g, const life_meta *meta, const life_beside *beside,
                            ls_error *err)
{
    if (life_format_check_shape(&life_pku_format, g->dims, g->nx, g->ny, g->nz, meta->scale, err))
        return -1;
    uint32_t m = g->nx;
    int64_t rows = (int64_t)g->ny * g->nz;
    void *map;
    int mapped = ls_atomic_map(a, PKU_HEADER + (size_t)rows * m, &map, err);
    if (mapped != 0)
        return mapped;
    unpack_table_init();
    pku_header(map, g, meta);
    pku_pass p = {.map = (uint8_t *)map + PKU_HEADER, .m = m, .rows = rows, .src = g, .beside = beside};
    return pku_parallel(&p, pku_write_chunk); /* no buffers to allocate: never fails */
}

/* g in format fmt through the stream a->f; beside has run when this
 * returns 0. */
static int write_stream(ls_atomic_file *a, life_format fmt, const life_grid *g, const life_meta *meta,
                        const life_beside *beside, ls_error *err)
{
    if (fmt == &life_pku_format)
        return pku_write_stream(a->f, g, meta, beside, err);
    run_beside(beside);
    return fmt->write(a->f, g, meta, err);
}

int life_out_write(life_out *out, const char *path, life_format fmt, const life_grid *g, const life_meta *meta,
                   const life_beside *beside, ls_error *err)
{
    memset(out, 0, sizeof *out);
    if (life_format_resolve(path, fmt, &fmt, err))
        return -1;
    if (!fmt->write)
        return ls_fail_usage(err, "%s: the %s format is no grid file (an animation is written by the run, with "
                                  "--every)",
                             path, life_format_name(fmt));
    if (ls_atomic_open(&out->file, path, err) != 0)
        return -1;
    /* A PKU file through a mapping where the target takes one (its
     * messages name the file), else through the stream (a writer's
     * messages do not). */
    int rc = fmt == &life_pku_format ? pku_write_mapped(&out->file, g, meta, beside, err) : 1;
    if (rc > 0) {
        rc = write_stream(&out->file, fmt, g, meta, beside, err);
        if (rc != 0 && !err->usage) {
            char why[sizeof err->msg];
            memcpy(why, err->msg, sizeof why);
            ls_fail(err, "cannot write %s: %s", path, why);
        }
    }
    if (rc != 0) {
        ls_atomic_abort(&out->file);
        return -1;
    }
    out->written = 1;
    return 0;
}

int life_out_pku_open(life_out *out, const char *path, uint32_t m, uint64_t generation, char **tmp, int *fd,
                      ls_error *err)
{
    memset(out, 0, sizeof *out);
    *tmp = NULL;
    *fd = -1;
    if (ls_atomic_open(&out->file, path, err) != 0)
        return -1;
    if (out->file.through || !out->file.tmp) {
        ls_atomic_abort(&out->file); /* a pipe or a terminal: written whole, in order */
        return 0;
    }
    int f = fileno(out->file.f);
    uint8_t head[PKU_HEADER];
    store_le(head, m, 8);
    store_le(head + 8, generation, 8);
    off_t size = (off_t)(PKU_HEADER + (uint64_t)m * m * m);
    if (pwrite(f, head, sizeof head, 0) != (ssize_t)sizeof head || ftruncate(f, size) != 0 || fdatasync(f) != 0) {
        int e = errno;
        ls_atomic_abort(&out->file);
        return ls_fail(err, "cannot write %s: %s", path, strerror(e));
    }
    if (!(*tmp = realpath(out->file.tmp, NULL))) {
        int e = errno;
        ls_atomic_abort(&out->file);
        return ls_fail(err, "cannot write %s: %s", path, strerror(e));
    }
    *fd = f;
    out->written = 1; /* abort and commit now act on it */
    return 0;
}

int life_pku_write_rows(int fd, const life_grid *rows, uint64_t first_row, ls_error *err)
{
    unpack_table_init();
    pku_pass p = {.fd = fd, .base = (off_t)(PKU_HEADER + first_row * rows->nx), .m = rows->nx,
                  .rows = (int64_t)rows->ny * rows->nz, .src = rows};
    if (pku_parallel(&p, pku_write_chunk) != 0)
        return ls_fail(err, "out of memory for the buffers of a PKU file's cells");
    if (p.io_errno)
        return ls_fail(err, "%s", strerror(p.io_errno));
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
    if (out->written)
        ls_atomic_abort(&out->file);
    out->written = 0;
}
