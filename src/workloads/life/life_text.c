/* life_text.c - the text pattern formats: RLE as Golly and LifeWiki write
 * it, and LifeWiki's plaintext (.cells). Both hold 2D two-state patterns.
 *
 * RLE: '#' lines are comments; the header "x = W, y = H[, rule = R]"
 * declares the bounding box; then runs "<count><tag>" with tags b (dead),
 * o (alive), $ (end of row), ! (end of pattern), whitespace and line
 * breaks anywhere between runs. Multi-state tags (. A-X p-y) are refused,
 * and so are header keys other than x, y and rule, and a key given twice.
 * Written lines are at most 70 characters, as the format asks.
 *
 * Both formats are read whole into memory by life_read_text, checked a
 * chunk at a time as they arrive: a NUL byte, a file larger than any
 * pattern's and (.cells) a line wider than any pattern are refused at
 * once, so /dev/zero or a wrong file costs a chunk, not gigabytes. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "life_text.h"

#define RLE_LINE 70

/* ---- RLE reading ---------------------------------------------------------- */

typedef struct rle_reader {
    const char *name;
    const char *p;  /* next character */
    unsigned line;  /* of p, from 1 */
    int empty;      /* the header says x = 0, y = 0 */
    const life_pattern_want *want; /* what the run knows of the grid, or NULL */
} rle_reader;

/* The value of "key=value" in [p, end) as a signed decimal at *v; the
 * pointer past it, or NULL when there is none. */
static const char *xrle_number(const char *p, const char *end, int64_t *v)
{
    char *stop;
    errno = 0;
    long long n = strtoll(p, &stop, 10);
    if (stop == p || stop > end || errno || !(isdigit((unsigned char)*p) || *p == '-' || *p == '+'))
        return NULL;
    *v = n;
    return stop;
}

/* One "#CXRLE Pos=X,Y Gen=G" line (the line at r->p, up to eol), as Golly
 * writes and reads it: Pos is the pattern's top-left cell in Golly's
 * coordinates, Gen its generation; other keys are Golly's own and
 * ignored, as Golly does. */
static int rle_xrle_line(rle_reader *r, const char *eol, life_pattern *p, ls_error *err)
{
    for (const char *q = r->p + 6; q < eol;) {
        while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
            q++;
        const char *word = q;
        while (q < eol && *q != ' ' && *q != '\t' && *q != '\r')
            q++;
        const char *after;
        if (strncmp(word, "Pos=", 4) == 0) {
            after = xrle_number(word + 4, q, &p->pos_x);
            after = after && *after == ',' ? xrle_number(after + 1, q, &p->pos_y) : NULL;
            if (!after || after != q)
                return ls_fail_usage(err, "%s:%u: expected Pos=X,Y in the #CXRLE line", r->name, r->line);
            p->has_pos = 1;
        } else if (strncmp(word, "Gen=", 4) == 0) {
            char *stop;
            errno = 0;
            unsigned long long g = strtoull(word + 4, &stop, 10);
            if (!isdigit((unsigned char)word[4]) || stop != q || errno)
                return ls_fail_usage(err, "%s:%u: expected Gen=N (0 to 2^64 - 1) in the #CXRLE line", r->name,
                                     r->line);
            p->generation = g;
        }
    }
    return 0;
}

/* The "#CXRLE" lines that open a file, where Golly writes them and alone
 * reads them (later ones are comments to Golly, and so here). */
static int rle_xrle(rle_reader *r, life_pattern *p, ls_error *err)
{
    while (strncmp(r->p, "#CXRLE", 6) == 0) {
        const char *eol = strchr(r->p, '\n');
        if (!eol)
            eol = r->p + strlen(r->p);
        if (rle_xrle_line(r, eol, p, err))
            return -1;
        r->p = *eol ? eol + 1 : eol;
        r->line++;
    }
    return 0;
}

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

/* The header's keys, as Golly and LifeWiki write them; a bit each in
 * the set of keys seen. */
enum { RLE_KEY_X, RLE_KEY_Y, RLE_KEY_RULE, RLE_KEYS };
static const char *const rle_keys[RLE_KEYS] = {"x", "y", "rule"};

/* The key of "key = value", matched whole (so "xyz" is no x): its index,
 * or RLE_KEYS for an unknown one. */
static int rle_key(const char *k, size_t klen)
{
    for (int i = 0; i < RLE_KEYS; i++)
        if (klen == strlen(rle_keys[i]) && memcmp(k, rle_keys[i], klen) == 0)
            return i;
    return RLE_KEYS;
}

/* Parses one "key = value" of the header line into the outputs; each key
 * once, unknown keys refused (a misspelt one would be dropped unseen). */
static int rle_header_item(rle_reader *r, const char *item, size_t len, uint64_t *w, uint64_t *h, char *rule,
                           unsigned *seen, ls_error *err)
{
    const char *eq = memchr(item, '=', len);
    if (!eq)
        return ls_fail_usage(err, "%s:%u: expected the header 'x = W, y = H, rule = R'", r->name, r->line);
    const char *k = item, *kend = eq, *v = eq + 1, *end = item + len;
    while (k < kend && isspace((unsigned char)*k))
        k++;
    while (kend > k && isspace((unsigned char)kend[-1]))
        kend--;
    while (v < end && isspace((unsigned char)*v))
        v++;
    while (end > v && isspace((unsigned char)end[-1]))
        end--;
    size_t klen = (size_t)(kend - k), vlen = (size_t)(end - v);
    int key = rle_key(k, klen);
    if (key == RLE_KEYS)
        return ls_fail_usage(err, "%s:%u: unknown header key '%.*s' (the header is 'x = W, y = H, rule = R')",
                             r->name, r->line, (int)(klen < 40 ? klen : 40), k);
    if (*seen & 1u << key)
        return ls_fail_usage(err, "%s:%u: the header gives '%s' twice", r->name, r->line, rle_keys[key]);
    *seen |= 1u << key;
    if (key == RLE_KEY_X || key == RLE_KEY_Y) {
        char *stop;
        errno = 0;
        unsigned long long n = strtoull(v, &stop, 10);
        if (stop != end || vlen == 0 || errno || !isdigit((unsigned char)*v))
            return ls_fail_usage(err, "%s:%u: '%s' must be a whole number of cells", r->name, r->line, rle_keys[key]);
        *(key == RLE_KEY_X ? w : h) = n;
    } else {
        if (vlen >= LIFE_RULE_TEXT)
            return ls_fail_usage(err, "%s:%u: the rule is too long", r->name, r->line);
        memcpy(rule, v, vlen);
        rule[vlen] = '\0';
    }
    return 0;
}

/* Golly's grid suffix has commas of its own ("rule = B3/S23:T64,64"): a
 * piece without '=' after the rule is the rest of the rule. */
static int rle_rule_piece(rle_reader *r, const char *piece, size_t len, char *rule, ls_error *err)
{
    size_t have = strlen(rule);
    while (len && isspace((unsigned char)piece[len - 1]))
        len--;
    if (have + 1 + len >= LIFE_RULE_TEXT)
        return ls_fail_usage(err, "%s:%u: the rule is too long", r->name, r->line);
    rule[have] = ',';
    memcpy(rule + have + 1, piece, len);
    rule[have + 1 + len] = '\0';
    return 0;
}

static int rle_header(rle_reader *r, life_pattern *p, ls_error *err)
{
    rle_skip_comments(r);
    const char *eol = strchr(r->p, '\n');
    size_t len = eol ? (size_t)(eol - r->p) : strlen(r->p);
    uint64_t w = 0, h = 0;
    unsigned seen = 0;
    const char *item = r->p, *end = r->p + len;
    if (len == 0 || *item != 'x')
        return ls_fail_usage(err, "%s:%u: expected the header 'x = W, y = H' before the cells", r->name, r->line);
    int after_rule = 0; /* the last item was the rule */
    while (item < end) {
        const char *comma = memchr(item, ',', (size_t)(end - item));
        const char *stop = comma ? comma : end;
        size_t len = (size_t)(stop - item);
        if (after_rule && !memchr(item, '=', len)) {
            if (rle_rule_piece(r, item, len, p->rule, err))
                return -1;
        } else {
            unsigned before = seen;
            if (rle_header_item(r, item, len, &w, &h, p->rule, &seen, err))
                return -1;
            after_rule = (seen & ~before) == 1u << RLE_KEY_RULE;
        }
        item = comma ? comma + 1 : end;
    }
    for (int key = RLE_KEY_X; key <= RLE_KEY_Y; key++)
        if (!(seen & 1u << key))
            return ls_fail_usage(err, "%s:%u: the header has no '%s' (it is 'x = W, y = H, rule = R')", r->name,
                                 r->line, rle_keys[key]);
    r->p = eol ? eol + 1 : end;
    r->line++;
    /* Golly writes an empty universe as "x = 0, y = 0": a pattern of one
     * dead cell, which no live cell may join. */
    r->empty = w == 0 && h == 0;
    return r->empty ? life_pattern_alloc(p, r->name, 1, 1, r->want, err)
                    : life_pattern_alloc(p, r->name, w, h, r->want, err);
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
            if (y >= p->height || x + n > p->width || r->empty)
                return ls_fail_usage(err, "%s:%u: live cells outside the %ux%u the header declares", r->name, r->line,
                                     r->empty ? 0 : p->width, r->empty ? 0 : p->height);
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

int life_read_rle(FILE *f, const char *name, const life_pattern_want *want, life_pattern *p, ls_error *err)
{
    char *text;
    size_t len;
    memset(p, 0, sizeof *p);
    if (life_read_text(f, name, 0, &text, &len, err)) /* an RLE's lines may be of any length */
        return -1;
    rle_reader r = {name, text, 1, 0, want};
    int rc = rle_xrle(&r, p, err);
    if (rc == 0)
        rc = rle_header(&r, p, err);
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
    if (life_format_check_shape(&life_rle_format, g->dims, g->nx, g->ny, g->nz, meta->scale, err))
        return -1;
    char rule[LIFE_RULE_TEXT], grid[LIFE_TOPOLOGY_TEXT];
    life_rule_format(meta->rule, rule, sizeof rule);
    /* The grid's suffix, as Golly writes it: Golly then runs the pattern
     * on the same torus or bounded plane, not on its unbounded one. */
    life_topology_format(g->bounded, 2, g->nx, g->ny, 1, grid, sizeof grid);
    /* Golly's first line: the grid's top-left cell in its coordinates
     * (the grid's middle cell is Golly's origin, life_place), and the
     * generation when past 0, as Golly writes them. */
    char gen[32] = "";
    if (meta->generation)
        snprintf(gen, sizeof gen, " Gen=%llu", (unsigned long long)meta->generation);
    errno = 0;
    rle_writer w = {f, 0, 0};
    w.failed = fprintf(f, "#CXRLE Pos=%lld,%lld%s\n#C written by lockstep life\nx = %u, y = %u, rule = %s%s\n",
                       -(long long)(g->nx / 2), -(long long)(g->ny / 2), gen, g->nx, g->ny, rule, grid) < 0;
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

/* Walks the pattern's rows, the lines that are not '!' comments: their
 * count (*h) and the longest (*w), every character checked; and, once p
 * has its cells, paints them. */
static int cells_rows(const char *text, const char *name, life_pattern *p, uint64_t *w, uint64_t *h, ls_error *err)
{
    unsigned line = 1;
    *w = 0;
    *h = 0;
    for (const char *q = text; *q; line++) {
        const char *eol = strchr(q, '\n');
        size_t raw = eol ? (size_t)(eol - q) : strlen(q), len = raw;
        if (len && q[len - 1] == '\r')
            len--;
        for (size_t x = 0; *q != '!' && x < len; x++) {
            if (!strchr(".Oo*", q[x]))
                return ls_fail_usage(err, "%s:%u: unexpected '%c' (a .cells row has '.' for dead, 'O' for alive)",
                                     name, line, q[x]);
            if (p->cells)
                p->cells[*h * p->width + x] = q[x] != '.';
        }
        if (*q != '!') {
            *w = len > *w ? len : *w;
            (*h)++;
        }
        q = eol ? eol + 1 : q + raw; /* past a final "\r" too */
    }
    return 0;
}

int life_read_cells(FILE *f, const char *name, const life_pattern_want *want, life_pattern *p, ls_error *err)
{
    char *text;
    size_t len;
    uint64_t w, h;
    memset(p, 0, sizeof *p);
    /* A row is at most LIFE_MAX_SIZE cells, and a '\r' before its '\n'. */
    if (life_read_text(f, name, LIFE_MAX_SIZE + 1, &text, &len, err))
        return -1;
    int rc = cells_rows(text, name, p, &w, &h, err) || life_pattern_alloc(p, name, w, h, want, err) ||
             cells_rows(text, name, p, &w, &h, err);
    free(text);
    return rc ? -1 : 0;
}

int life_write_cells(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err)
{
    if (life_format_check_shape(&life_cells_format, g->dims, g->nx, g->ny, g->nz, meta->scale, err))
        return -1;
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

/* ---- the rows ------------------------------------------------------------ */


const life_format_methods life_rle_format = {
    .name = "rle", .extensions = {".rle"}, .holds = "2D patterns", .dims = 2,
    .about = "Golly's and LifeWiki's run-length encoding, with the rule and its grid suffix in the header (rule = "
             "B3/S23:T64,48) and Golly's first line #CXRLE Pos=X,Y Gen=G (where the pattern goes, its "
             "generation); a pattern, read 2D.",
    .read_pattern = life_read_rle, .write = life_write_rle,
};

const life_format_methods life_cells_format = {
    .name = "cells", .extensions = {".cells"}, .holds = "2D patterns", .dims = 2,
    .about = "LifeWiki plaintext: ! comments, . dead, O alive; a pattern.",
    .read_pattern = life_read_cells, .write = life_write_cells,
};
