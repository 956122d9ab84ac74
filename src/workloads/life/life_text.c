/* life_text.c - the text pattern formats: RLE as Golly and LifeWiki write
 * it, and LifeWiki's plaintext (.cells). Both hold 2D two-state patterns.
 *
 * RLE: '#' lines are comments; the header "x = W, y = H[, rule = R]"
 * declares the bounding box; then runs "<count><tag>" with tags b (dead),
 * o (alive), $ (end of row), ! (end of pattern), whitespace and line
 * breaks anywhere between runs. Multi-state tags (. A-X p-y) are refused.
 * Written lines are at most 70 characters, as the format asks. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "life_io.h"

/* Largest pattern read, a byte per cell in memory: 1 GiB. An RLE header
 * alone can claim any box (a 22-byte file asked for 3 GiB, found by
 * tests/fuzz/fuzz_life.c); patterns from LifeWiki or Golly are far smaller,
 * and whole grids have the native and PKU formats. */
#define PATTERN_MAX_CELLS (1ull << 30)
#define RLE_LINE 70

/* The whole file in memory, NUL-terminated. */
static int read_all(FILE *f, const char *name, char **out, size_t *len, ls_error *err)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *bigger = cap < (1ull << 31) ? realloc(buf, cap * 2) : NULL;
        if (!bigger) {
            free(buf);
            return ls_fail_usage(err, "%s: too large for a pattern file (%zu bytes read)", name, n);
        }
        buf = bigger;
        cap *= 2;
    }
    if (!buf)
        return ls_fail(err, "out of memory reading %s", name);
    if (ferror(f)) {
        free(buf);
        return ls_fail_usage(err, "cannot read %s: %s", name, strerror(errno));
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

/* An empty pattern of w x h cells. */
static int pattern_alloc(life_pattern *p, const char *name, uint64_t w, uint64_t h, ls_error *err)
{
    if (w == 0 || h == 0 || w > LIFE_MAX_SIZE || h > LIFE_MAX_SIZE || w * h > PATTERN_MAX_CELLS)
        return ls_fail_usage(err, "%s: a pattern of %llux%llu cells is out of range (1 to %u a side, at most 2^30 "
                                  "cells; larger grids go in the native or PKU format)",
                             name, (unsigned long long)w, (unsigned long long)h, LIFE_MAX_SIZE);
    p->cells = calloc((size_t)(w * h), 1);
    if (!p->cells)
        return ls_fail(err, "out of memory for a %llux%llu pattern", (unsigned long long)w, (unsigned long long)h);
    p->width = (uint32_t)w;
    p->height = (uint32_t)h;
    return 0;
}

/* ---- RLE reading ---------------------------------------------------------- */

typedef struct rle_reader {
    const char *name;
    const char *p;  /* next character */
    unsigned line;  /* of p, from 1 */
} rle_reader;

/* Skips '#' comment lines and blank lines before the header. */
static void rle_skip_comments(rle_reader *r)
{
    for (;;) {
        const char *q = r->p;
        while (*q == ' ' || *q == '\t' || *q == '\r')
            q++;
        if (*q != '#' && *q != '\n')
            return;
        while (*q && *q != '\n')
            q++;
        if (*q == '\n') {
            q++;
            r->line++;
        }
        r->p = q;
        if (!*q)
            return;
    }
}

/* Parses one "key = value" of the header line into the outputs. */
static int rle_header_item(rle_reader *r, const char *item, size_t len, uint64_t *w, uint64_t *h, char *rule,
                           ls_error *err)
{
    const char *eq = memchr(item, '=', len);
    if (!eq)
        return ls_fail_usage(err, "%s:%u: expected the header 'x = W, y = H, rule = R'", r->name, r->line);
    const char *k = item, *v = eq + 1, *end = item + len;
    while (k < eq && isspace((unsigned char)*k))
        k++;
    while (v < end && isspace((unsigned char)*v))
        v++;
    while (end > v && isspace((unsigned char)end[-1]))
        end--;
    size_t vlen = (size_t)(end - v);
    if (*k == 'x' || *k == 'y') {
        char *stop;
        errno = 0;
        unsigned long long n = strtoull(v, &stop, 10);
        if (stop != end || vlen == 0 || errno || !isdigit((unsigned char)*v))
            return ls_fail_usage(err, "%s:%u: '%c' must be a whole number of cells", r->name, r->line, *k);
        *(*k == 'x' ? w : h) = n;
    } else if (strncmp(k, "rule", 4) == 0) {
        if (vlen >= LIFE_RULE_TEXT)
            return ls_fail_usage(err, "%s:%u: the rule is too long", r->name, r->line);
        memcpy(rule, v, vlen);
        rule[vlen] = '\0';
    } /* other keys (Golly's own) are ignored */
    return 0;
}

static int rle_header(rle_reader *r, life_pattern *p, ls_error *err)
{
    rle_skip_comments(r);
    const char *eol = strchr(r->p, '\n');
    size_t len = eol ? (size_t)(eol - r->p) : strlen(r->p);
    uint64_t w = 0, h = 0;
    const char *item = r->p, *end = r->p + len;
    if (len == 0 || *item != 'x')
        return ls_fail_usage(err, "%s:%u: expected the header 'x = W, y = H' before the cells", r->name, r->line);
    while (item < end) {
        const char *comma = memchr(item, ',', (size_t)(end - item));
        const char *stop = comma ? comma : end;
        if (rle_header_item(r, item, (size_t)(stop - item), &w, &h, p->rule, err))
            return -1;
        item = comma ? comma + 1 : end;
    }
    r->p = eol ? eol + 1 : end;
    r->line++;
    return pattern_alloc(p, r->name, w, h, err);
}

/* Fails on a character that is no RLE tag of a two-state pattern. */
static int rle_bad_tag(const rle_reader *r, char c, ls_error *err)
{
    if (c == '.' || (c >= 'A' && c <= 'X') || (c >= 'p' && c <= 'y'))
        return ls_fail_usage(err, "%s:%u: '%c' is a multi-state cell; only two-state patterns (b, o) are supported",
                             r->name, r->line, c);
    if (isprint((unsigned char)c))
        return ls_fail_usage(err, "%s:%u: unexpected '%c' in the cells (expected b, o, $, ! and run counts)",
                             r->name, r->line, c);
    return ls_fail_usage(err, "%s:%u: unexpected byte 0x%02x in the cells", r->name, r->line, (unsigned char)c);
}

static int rle_cells(rle_reader *r, life_pattern *p, ls_error *err)
{
    uint64_t x = 0, y = 0, count = 0;
    int have_count = 0;
    for (char c; (c = *r->p) != '\0'; r->p++) {
        if (c == '\n')
            r->line++;
        if (isspace((unsigned char)c))
            continue;
        if (isdigit((unsigned char)c)) {
            count = count * 10 + (uint64_t)(c - '0');
            have_count = 1;
            if (count > 4 * (uint64_t)LIFE_MAX_SIZE)
                return ls_fail_usage(err, "%s:%u: run count too large", r->name, r->line);
            continue;
        }
        uint64_t n = have_count ? count : 1;
        count = 0;
        have_count = 0;
        if (c == '!')
            return 0;
        if (c == '$') {
            y += n;
            x = 0;
        } else if (c == 'b') {
            x += n;
        } else if (c == 'o') {
            if (y >= p->height || x + n > p->width)
                return ls_fail_usage(err, "%s:%u: live cells outside the %ux%u the header declares", r->name, r->line,
                                     p->width, p->height);
            memset(p->cells + y * p->width + x, 1, (size_t)n);
            x += n;
        } else {
            return rle_bad_tag(r, c, err);
        }
    }
    if (have_count)
        return ls_fail_usage(err, "%s:%u: the cells end in a run count without a tag", r->name, r->line);
    return 0; /* Golly also accepts a pattern without its final '!' */
}

int life_read_rle(FILE *f, const char *name, life_pattern *p, ls_error *err)
{
    char *text;
    size_t len;
    memset(p, 0, sizeof *p);
    if (read_all(f, name, &text, &len, err))
        return -1;
    rle_reader r = {name, text, 1};
    int rc = rle_header(&r, p, err);
    if (rc == 0)
        rc = rle_cells(&r, p, err);
    if (rc)
        life_pattern_free(p);
    free(text);
    return rc;
}

/* ---- RLE writing ---------------------------------------------------------- */

typedef struct rle_writer {
    FILE *f;
    unsigned column; /* characters on the current line */
    int failed;
} rle_writer;

/* Writes run `n` of `tag`, starting a new line when it would pass 70. */
static void rle_run(rle_writer *w, uint64_t n, char tag)
{
    char run[24];
    int len = n > 1 ? snprintf(run, sizeof run, "%llu%c", (unsigned long long)n, tag) : snprintf(run, sizeof run, "%c", tag);
    if (w->column + (unsigned)len > RLE_LINE) {
        w->failed |= fputc('\n', w->f) == EOF;
        w->column = 0;
    }
    w->failed |= fputs(run, w->f) == EOF;
    w->column += (unsigned)len;
}

/* One row's runs; trailing dead cells are left out, as RLE allows. */
static void rle_row(rle_writer *w, const life_grid *g, uint32_t y)
{
    uint32_t x = 0;
    while (x < g->nx) {
        int alive = life_get(g, x, y, 0);
        uint32_t end = x + 1;
        while (end < g->nx && life_get(g, end, y, 0) == alive)
            end++;
        if (alive || end < g->nx)
            rle_run(w, end - x, alive ? 'o' : 'b');
        x = end;
    }
}

static int row_is_empty(const life_grid *g, uint32_t y)
{
    for (uint32_t j = 0; j < g->row_words; j++)
        if (g->words[life_row(g, y, 0) + j])
            return 0;
    return 1;
}

int life_write_rle(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err)
{
    if (g->dims != 2)
        return ls_fail_usage(err, "RLE holds 2D patterns; this grid is 3D (use the pku or native format)");
    char rule[LIFE_RULE_TEXT];
    life_rule_format(meta->rule, rule, sizeof rule);
    errno = 0;
    rle_writer w = {f, 0, 0};
    w.failed = fprintf(f, "#C written by lockstep life\nx = %u, y = %u, rule = %s\n", g->nx, g->ny, rule) < 0;
    uint64_t rows_ended = 0; /* '$' owed before the next live cell */
    for (uint32_t y = 0; y < g->ny && !w.failed; y++) {
        if (!row_is_empty(g, y)) {
            if (rows_ended)
                rle_run(&w, rows_ended, '$');
            rows_ended = 0;
            rle_row(&w, g, y);
        }
        rows_ended++;
    }
    rle_run(&w, 1, '!');
    w.failed |= fputc('\n', f) == EOF;
    return w.failed ? ls_fail(err, "%s", errno ? strerror(errno) : "write error") : 0;
}

/* ---- plaintext (.cells) ------------------------------------------------- */

/* Measures the pattern: rows that are not '!' comments, longest row. */
static int cells_measure(const char *text, const char *name, uint64_t *w, uint64_t *h, ls_error *err)
{
    unsigned line = 1;
    *w = 0;
    *h = 0;
    for (const char *p = text; *p; line++) {
        const char *eol = strchr(p, '\n');
        size_t raw = eol ? (size_t)(eol - p) : strlen(p), len = raw;
        if (len && p[len - 1] == '\r')
            len--;
        if (*p != '!') {
            for (size_t i = 0; i < len; i++)
                if (!strchr(".Oo*", p[i]))
                    return ls_fail_usage(err, "%s:%u: unexpected '%c' (a .cells row has '.' for dead, 'O' for alive)",
                                         name, line, p[i]);
            *w = len > *w ? len : *w;
            (*h)++;
        }
        p = eol ? eol + 1 : p + raw; /* past a final "\r" too */
    }
    return 0;
}

int life_read_cells(FILE *f, const char *name, life_pattern *p, ls_error *err)
{
    char *text;
    size_t len;
    uint64_t w, h;
    memset(p, 0, sizeof *p);
    if (read_all(f, name, &text, &len, err))
        return -1;
    if (cells_measure(text, name, &w, &h, err) || pattern_alloc(p, name, w, h, err)) {
        free(text);
        return -1;
    }
    uint32_t y = 0;
    for (const char *q = text; *q;) {
        const char *eol = strchr(q, '\n');
        size_t n = eol ? (size_t)(eol - q) : strlen(q), cells = n;
        if (cells && q[cells - 1] == '\r')
            cells--;
        if (*q != '!') {
            for (size_t x = 0; x < cells; x++)
                p->cells[(size_t)y * p->width + x] = q[x] != '.';
            y++;
        }
        q = eol ? eol + 1 : q + n;
    }
    free(text);
    return 0;
}

int life_write_cells(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err)
{
    (void)meta;
    if (g->dims != 2)
        return ls_fail_usage(err, "a .cells file holds 2D patterns; this grid is 3D (use the pku or native format)");
    errno = 0;
    int failed = fprintf(f, "!Name: lockstep life\n!%ux%u\n", g->nx, g->ny) < 0;
    char *row = malloc((size_t)g->nx + 1);
    if (!row)
        return ls_fail(err, "out of memory for a row of %u cells", g->nx);
    row[g->nx] = '\n';
    for (uint32_t y = 0; y < g->ny && !failed; y++) {
        for (uint32_t x = 0; x < g->nx; x++)
            row[x] = life_get(g, x, y, 0) ? 'O' : '.';
        failed = fwrite(row, 1, (size_t)g->nx + 1, f) != (size_t)g->nx + 1;
    }
    free(row);
    return failed ? ls_fail(err, "%s", errno ? strerror(errno) : "write error") : 0;
}
