/* life_io.c - whole-grid formats (PKU, native), placing patterns, format
 * choice, and the file-level read and atomic write. RLE and plaintext are
 * in life_text.c, PNG in life_png.c. */
#include "life_io.h"
#include "output.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- formats ------------------------------------------------------------ */

static const struct {
    const char *name;
    life_format format;
    const char *extensions[4];
} formats[] = {
    {"pku", LIFE_FORMAT_PKU, {".data", ".bin", ".pku", NULL}},
    {"native", LIFE_FORMAT_NATIVE, {".lsgrid", NULL}},
    {"rle", LIFE_FORMAT_RLE, {".rle", NULL}},
    {"cells", LIFE_FORMAT_CELLS, {".cells", NULL}},
    {"png", LIFE_FORMAT_PNG, {".png", NULL}},
};
#define NFORMATS (sizeof formats / sizeof formats[0])

int life_format_parse(const char *name, life_format *out, ls_error *err)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (strcmp(name, formats[i].name) == 0) {
            *out = formats[i].format;
            return 0;
        }
    return ls_fail_usage(err, "unknown format '%s': expected pku, native, rle, cells or png", name);
}

const char *life_format_name(life_format f)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (formats[i].format == f)
            return formats[i].name;
    return "auto";
}

int life_format_is_grid(life_format f)
{
    return f == LIFE_FORMAT_PKU || f == LIFE_FORMAT_NATIVE;
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
        for (int e = 0; formats[i].extensions[e]; e++)
            if (has_extension(path, formats[i].extensions[e])) {
                *out = formats[i].format;
                return 0;
            }
    return ls_fail_usage(err,
                         "%s: cannot tell the format from the name (.data .bin .pku, .lsgrid, .rle, .cells, "
                         ".png); name it with --format",
                         path);
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

/* ---- PKU HPCGame problem G ------------------------------------------------- */

#define PKU_HEADER 16
/* Rows a thread converts at a time: about 4 MiB of bytes, so that the
 * buffer stays in cache-sized pieces and the work spreads over threads. */
#define PKU_CHUNK_BYTES (4u << 20)

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

/* A parallel pass over the cells of a PKU file (rows of m bytes from
 * offset base of fd): threads take chunks of whole rows (PKU_CHUNK_BYTES
 * at most), each in a buffer of its own, and move them with pku_transfer;
 * what went wrong is gathered here. */
typedef struct pku_pass {
    int fd;
    off_t base;
    uint32_t m;
    int64_t rows, per; /* rows in all, rows a chunk */
    life_grid *dst;    /* reading: the grid the rows are packed into */
    const life_grid *src; /* writing: the grid the rows come from */
    int io_errno;      /* an I/O error (errno) */
    int64_t short_row; /* reading: the first row a read fell short in (the file shrank meanwhile) */
    uint64_t first_bad; /* reading: file offset of the first bad byte */
    unsigned bad_value;
} pku_pass;

/* Runs chunk() over every chunk on the threads. 0, or -1 when a thread had
 * no memory for its buffer. */
static int pku_parallel(pku_pass *p, void (*chunk)(pku_pass *p, uint8_t *buf, int64_t r0, int64_t nr))
{
    p->per = PKU_CHUNK_BYTES / p->m ? PKU_CHUNK_BYTES / p->m : 1;
    int64_t chunks = (p->rows + p->per - 1) / p->per;
    int nomem = 0;
#pragma omp parallel
    {
        uint8_t *buf = malloc((size_t)p->per * p->m);
        if (!buf) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp for schedule(dynamic, 1)
        for (int64_t c = 0; c < chunks; c++) {
            int64_t r0 = c * p->per, nr = p->rows - r0 < p->per ? p->rows - r0 : p->per;
            if (buf)
                chunk(p, buf, r0, nr);
        }
        free(buf);
    }
    return nomem ? -1 : 0;
}

/* Reads rows r0 .. r0 + nr and packs them; the first bad byte in file
 * order is the one kept, whichever thread finds it. */
static void pku_read_chunk(pku_pass *p, uint8_t *buf, int64_t r0, int64_t nr)
{
    uint32_t m = p->m;
    size_t len = (size_t)nr * m;
    int e = 0;
    size_t got = pku_transfer(p->fd, 0, buf, len, p->base + (off_t)((uint64_t)r0 * m), &e);
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
        if (pack_row(buf + (size_t)r * m, m, p->dst->words + (size_t)(r0 + r) * p->dst->row_words, &bad)) {
            uint64_t at = PKU_HEADER + (uint64_t)(r0 + r) * m + bad;
#pragma omp critical(life_pku_read)
            if (at < p->first_bad) {
                p->first_bad = at;
                p->bad_value = buf[(size_t)r * m + bad];
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

/* The same from a stream (a pipe): row after row. */
static int pku_read_cells_stream(FILE *f, const char *name, life_grid *g, ls_error *err)
{
    uint32_t m = g->nx;
    uint8_t *row = malloc(m);
    if (!row)
        return ls_fail(err, "out of memory for a row of %u cells", m);
    size_t rows = (size_t)m * m;
    for (size_t r = 0; r < rows; r++) {
        uint32_t bad;
        if (fread(row, 1, m, f) != m) {
            free(row);
            return ls_fail_usage(err, "%s: truncated: the cells end within row %zu of %zu", name, r, rows);
        }
        if (pack_row(row, m, g->words + r * g->row_words, &bad)) {
            pku_bad_byte(name, PKU_HEADER + (uint64_t)r * m + bad, row[bad], err);
            free(row);
            return -1;
        }
    }
    free(row);
    if (fgetc(f) != EOF)
        return ls_fail_usage(err, "%s: extra bytes after the %u^3 cells the header announces", name, m);
    return 0;
}

int life_read_pku(FILE *f, const char *name, life_grid *g, life_meta *meta, ls_error *err)
{
    uint8_t head[PKU_HEADER];
    memset(g, 0, sizeof *g);
    if (fread(head, 1, sizeof head, f) != sizeof head)
        return ls_fail_usage(err, "%s: too short for a PKU header (uint64 M, uint64 T: 16 bytes)", name);
    uint64_t m = load_le(head, 8);
    int seekable;
    if (pku_check_size(f, name, m, &seekable, err))
        return -1;
    if (life_grid_init(g, 3, (uint32_t)m, (uint32_t)m, (uint32_t)m, err))
        return -1;
    if (seekable ? pku_read_cells_parallel(f, name, g, err) : pku_read_cells_stream(f, name, g, err)) {
        life_grid_free(g);
        return -1;
    }
    meta->generation = load_le(head + 8, 8);
    return 0;
}

/* Expands rows r0 .. r0 + nr and writes them at their offset. */
static void pku_write_chunk(pku_pass *p, uint8_t *buf, int64_t r0, int64_t nr)
{
    uint32_t m = p->m;
    for (int64_t r = 0; r < nr; r++)
        unpack_row(p->src->words + (size_t)(r0 + r) * p->src->row_words, m, buf + (size_t)r * m);
    size_t len = (size_t)nr * m;
    int e = 0;
    if (pku_transfer(p->fd, 1, buf, len, p->base + (off_t)((uint64_t)r0 * m), &e) < len) {
#pragma omp critical(life_pku_write)
        p->io_errno = e ? e : ENOSPC;
    }
}

/* Threads expand chunks of rows and write them at their offsets (pwrite)
 * when f is a regular file, as the atomic writer's temporary file is;
 * otherwise row after row through the stream. */
int life_write_pku(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err)
{
    if (g->dims != 3 || g->nx != g->ny || g->nx != g->nz)
        return ls_fail_usage(err, "a PKU file holds a cube; this grid is %ux%ux%u", g->nx, g->ny, g->nz);
    unpack_table_init();
    uint8_t head[PKU_HEADER];
    store_le(head, g->nx, 8);
    store_le(head + 8, meta->generation, 8);
    uint32_t m = g->nx;
    errno = 0;
    if (fwrite(head, 1, sizeof head, f) != sizeof head || fflush(f) != 0)
        return write_error(err);
    int64_t rows = (int64_t)g->ny * g->nz;
    off_t base = ftello(f);
    struct stat st;
    if (base >= 0 && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        pku_pass p = {.fd = fileno(f), .base = base, .m = m, .rows = rows, .src = g};
        if (pku_parallel(&p, pku_write_chunk) != 0)
            return ls_fail(err, "out of memory for %u MiB of write buffers", PKU_CHUNK_BYTES >> 20);
        if (p.io_errno)
            return ls_fail(err, "%s", strerror(p.io_errno));
        /* Leave the stream where the data ends, for whoever uses it next. */
        if (fseeko(f, base + (off_t)((uint64_t)rows * m), SEEK_SET) != 0)
            return write_error(err);
        return 0;
    }
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

/* ---- native: bit-packed, any size -------------------------------------- */

static const uint8_t native_magic[8] = {'l', 's', 'l', 'i', 'f', 'e', '1', '\n'};
#define NATIVE_HEADER 40 /* magic, dims, nx, ny, nz, birth, survive, generation */

/* A byte stream of cells, 8 to a byte, first cell in the low bit. */
typedef struct bit_stream {
    FILE *f;
    uint64_t acc;
    unsigned nbits;
    uint8_t buf[4096];
    size_t len;
    int failed; /* a read or write fell short */
} bit_stream;

static void stream_put_byte(bit_stream *s, uint8_t b)
{
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
    store_le(head + 8, g->dims, 4);
    store_le(head + 12, g->nx, 4);
    store_le(head + 16, g->ny, 4);
    store_le(head + 20, g->nz, 4);
    store_le(head + 24, meta->has_rule ? meta->rule.birth : 0, 4);
    store_le(head + 28, meta->has_rule ? meta->rule.survive : 0, 4);
    store_le(head + 32, meta->generation, 8);
    errno = 0;
    bit_stream s = {.f = f};
    s.failed = fwrite(head, 1, sizeof head, f) != sizeof head;
    size_t rows = (size_t)g->ny * g->nz;
    for (size_t r = 0; r < rows && !s.failed; r++) {
        const uint32_t *w = g->words + r * g->row_words;
        for (uint32_t j = 0; j < g->row_words; j++)
            stream_put(&s, w[j], j + 1 < g->row_words ? 32 : g->last_bits);
    }
    stream_flush(&s);
    uint8_t sum[8];
    store_le(sum, life_grid_digest(g), 8);
    if (s.failed || fwrite(sum, 1, sizeof sum, f) != sizeof sum)
        return write_error(err);
    return 0;
}

/* Checks a native header and makes the grid it describes. */
static int native_header(FILE *f, const char *name, const uint8_t *head, life_grid *g, life_meta *meta,
                         ls_error *err)
{
    if (memcmp(head, native_magic, 8) != 0)
        return ls_fail_usage(err, "%s: not a lockstep Life grid (the file does not start with 'lslife1')", name);
    unsigned dims = (unsigned)load_le(head + 8, 4);
    uint64_t nx = load_le(head + 12, 4), ny = load_le(head + 16, 4), nz = load_le(head + 20, 4);
    if (life_grid_check_size(dims, nx, ny, nz, err))
        return ls_fail_usage(err, "%s: the header describes no valid grid (%u dimensions, %llux%llux%llu)", name,
                             dims, (unsigned long long)nx, (unsigned long long)ny, (unsigned long long)nz);
    long long left = bytes_left(f);
    unsigned long long want = (nx * ny * nz + 7) / 8 + 8;
    if (left >= 0 && (unsigned long long)left != want)
        return ls_fail_usage(err, "%s: a %llux%llux%llu grid takes %llu bytes after the header, the file has %lld (%s)",
                             name, (unsigned long long)nx, (unsigned long long)ny, (unsigned long long)nz, want, left,
                             (unsigned long long)left < want ? "truncated" : "extra bytes at the end");
    meta->rule.birth = (uint32_t)load_le(head + 24, 4);
    meta->rule.survive = (uint32_t)load_le(head + 28, 4);
    meta->has_rule = 1;
    meta->generation = load_le(head + 32, 8);
    uint32_t all = (2u << life_max_count(dims)) - 1u;
    if ((meta->rule.birth | meta->rule.survive) & ~all)
        return ls_fail_usage(err, "%s: the header's rule has counts above %u", name, life_max_count(dims));
    return life_grid_init(g, dims, (uint32_t)nx, (uint32_t)ny, (uint32_t)nz, err);
}

int life_read_native(FILE *f, const char *name, life_grid *g, life_meta *meta, ls_error *err)
{
    uint8_t head[NATIVE_HEADER], sum[8];
    memset(g, 0, sizeof *g);
    if (fread(head, 1, sizeof head, f) != sizeof head)
        return ls_fail_usage(err, "%s: too short for a lockstep Life grid header (%d bytes)", name, NATIVE_HEADER);
    if (native_header(f, name, head, g, meta, err))
        return -1;
    bit_stream s = {.f = f};
    size_t rows = (size_t)g->ny * g->nz;
    for (size_t r = 0; r < rows && !s.failed; r++) {
        uint32_t *w = g->words + r * g->row_words;
        for (uint32_t j = 0; j < g->row_words; j++)
            w[j] = stream_get(&s, j + 1 < g->row_words ? 32 : g->last_bits);
    }
    /* The last byte's padding bits are zeros; the checksum follows. */
    if (s.failed || fread(sum, 1, sizeof sum, f) != sizeof sum) {
        life_grid_free(g);
        return ls_fail_usage(err, "%s: truncated: the cells or the checksum are cut short", name);
    }
    if (fgetc(f) != EOF || load_le(sum, 8) != life_grid_digest(g)) {
        life_grid_free(g);
        return ls_fail_usage(err, "%s: damaged: the checksum does not match the cells", name);
    }
    return 0;
}

/* ---- patterns ------------------------------------------------------------ */

void life_pattern_free(life_pattern *p)
{
    free(p->cells);
    p->cells = NULL;
}

int life_place(life_grid *g, const life_pattern *p, const life_at *at, ls_error *err)
{
    if (p->width > g->nx || p->height > g->ny)
        return ls_fail_usage(err, "the pattern (%ux%u) is larger than the grid (%ux%u)", p->width, p->height, g->nx,
                             g->ny);
    uint32_t x0 = at ? at->x % g->nx : (g->nx - p->width) / 2;
    uint32_t y0 = at ? at->y % g->ny : (g->ny - p->height) / 2;
    uint32_t z = g->nz / 2;
    for (uint32_t y = 0; y < p->height; y++)
        for (uint32_t x = 0; x < p->width; x++)
            if (p->cells[(size_t)y * p->width + x])
                life_set(g, (x0 + x) % g->nx, (y0 + y) % g->ny, z, 1);
    return 0;
}

/* ---- files ------------------------------------------------------------------ */

int life_read_file(const char *path, life_format fmt, uint32_t png_scale, life_grid *g, life_pattern *p,
                   life_meta *meta, ls_error *err)
{
    memset(g, 0, sizeof *g);
    memset(p, 0, sizeof *p);
    memset(meta, 0, sizeof *meta);
    if (life_format_resolve(path, fmt, &fmt, err))
        return -1;
    FILE *f = fopen(path, "rb");
    if (!f)
        return ls_fail_usage(err, "cannot open %s: %s", path, strerror(errno));
    int rc;
    switch (fmt) {
    case LIFE_FORMAT_PKU: rc = life_read_pku(f, path, g, meta, err); break;
    case LIFE_FORMAT_NATIVE: rc = life_read_native(f, path, g, meta, err); break;
    case LIFE_FORMAT_RLE: rc = life_read_rle(f, path, p, err); break;
    case LIFE_FORMAT_CELLS: rc = life_read_cells(f, path, p, err); break;
    case LIFE_FORMAT_PNG: rc = life_read_png(f, path, png_scale ? png_scale : 1, p, err); break;
    default: rc = ls_fail_usage(err, "%s: no format to read it with", path); break;
    }
    fclose(f);
    return rc;
}

typedef int (*grid_writer)(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err);

static grid_writer writer_for(life_format fmt)
{
    switch (fmt) {
    case LIFE_FORMAT_PKU: return life_write_pku;
    case LIFE_FORMAT_NATIVE: return life_write_native;
    case LIFE_FORMAT_RLE: return life_write_rle;
    case LIFE_FORMAT_CELLS: return life_write_cells;
    case LIFE_FORMAT_PNG: return life_write_png;
    default: return NULL;
    }
}

/* Writes through `write` to a temporary file next to `path`, renamed over
 * `path` once complete (src/output.h): a reader never sees a partial
 * file, and a failure leaves no file behind. */
static int write_atomically(const char *path, grid_writer write, const life_grid *g, const life_meta *meta,
                            ls_error *err)
{
    ls_atomic_file a;
    if (ls_atomic_open(&a, path, err) != 0)
        return -1;
    if (write(a.f, g, meta, err) != 0) {
        ls_atomic_abort(&a);
        if (err->usage)
            return -1;
        char why[sizeof err->msg];
        memcpy(why, err->msg, sizeof why);
        return ls_fail(err, "cannot write %s: %s", path, why);
    }
    return ls_atomic_commit(&a, err);
}

int life_write_file(const char *path, life_format fmt, const life_grid *g, const life_meta *meta, ls_error *err)
{
    if (life_format_resolve(path, fmt, &fmt, err))
        return -1;
    return write_atomically(path, writer_for(fmt), g, meta, err);
}
