/* life_mc.c - Golly's macrocell format, its two-state form ([M2]), as
 * Golly's Help/formats.html defines it and hlifealgo.cpp reads and writes
 * it:
 *
 * - the line "[M2] (program version)", then '#' lines: "#R rule" (with
 *   Golly's grid suffix), "#G generation", others comments;
 * - then the nodes, one a line, numbered from 1 in file order; node 0 is
 *   an empty square of any size, and a node names only earlier ones:
 *   - a leaf, 8x8 cells (level 3): its rows top down, '.' dead, '*'
 *     alive, each row ended by '$', dead cells at the end of a row and
 *     empty rows at the end left out ("$$..*$...*$.***$");
 *   - "k nw ne sw se": a square of 2^k cells a side made of four nodes of
 *     level k - 1, k >= 4 (the leaves are level 3). Levels 1 to 3 ("1 a b
 *     c d", squares of 2x2 states) are the multi-state form, which Golly
 *     3.3's two-state reader refuses too;
 * - the last node is the root, the universe, of level 4 or more (Golly
 *   3.3 reads a lone leaf as an empty universe: refused here). The top-left
 *   cell of its south-east child is Golly's (0, 1), y growing downwards
 *   as in RLE, so a root of level k has its top-left cell at (-2^(k-1),
 *   1 - 2^(k-1)) (checked against bgolly's own files).
 *
 * Read: the live cells' box as a pattern placed by the file (has_pos).
 * Written: the grid's live cells with the grid's cell (nx / 2, ny / 2) at
 * Golly's origin, as RLE's #CXRLE Pos puts it, each distinct node once. */
#include "life_mc.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Beyond these a macrocell holds no pattern lockstep reads: a pattern is
 * at most 2^30 cells (LIFE_PATTERN_MAX_CELLS), 2^24 leaves of 64 however
 * it repeats, so a file of more nodes holds nodes no pattern needs; and
 * coordinates are 64-bit. */
#define MC_MAX_NODES (1u << 25)
#define MC_MAX_LEVEL 62u
#define MC_LEAF_LEVEL 3u

/* A node's live cells' box, relative to its top-left cell; x0 > x1: none. */
typedef struct mc_box {
    uint64_t x0, y0, x1, y1;
} mc_box;

typedef struct mc_node {
    uint8_t level;  /* 2^level cells a side */
    uint8_t cells;  /* a leaf: `bits` holds its cells */
    union {
        uint64_t bits;    /* cell (x, y) at bit 8 y + x */
        uint32_t kids[4]; /* nw, ne, sw, se: earlier nodes, 0 for empty */
    } u;
    mc_box box;
} mc_node;

static int box_empty(const mc_box *b)
{
    return b->x0 > b->x1;
}

/* ---- reading -------------------------------------------------------------- */

typedef struct mc_reader {
    const char *name;
    unsigned line;
    mc_node *nodes; /* nodes[0]: the empty node */
    size_t count, cap;
} mc_reader;

/* b grown to hold box m too. */
static void box_add(mc_box *b, mc_box m)
{
    if (box_empty(b))
        *b = m;
    b->x0 = m.x0 < b->x0 ? m.x0 : b->x0;
    b->y0 = m.y0 < b->y0 ? m.y0 : b->y0;
    b->x1 = m.x1 > b->x1 ? m.x1 : b->x1;
    b->y1 = m.y1 > b->y1 ? m.y1 : b->y1;
}

/* The box of the cells in bits (8 a row). */
static mc_box bits_box(uint64_t bits)
{
    mc_box b = {1, 1, 0, 0};
    for (unsigned i = 0; i < 64; i++)
        if (bits >> i & 1u)
            box_add(&b, (mc_box){i % 8, i / 8, i % 8, i / 8});
    return b;
}

/* The box of a node made of four, from theirs (each at its quadrant). */
static mc_box kids_box(const mc_reader *r, const mc_node *n)
{
    mc_box b = {1, 1, 0, 0};
    uint64_t half = 1ull << (n->level - 1);
    for (unsigned q = 0; q < 4; q++) {
        const mc_box *k = &r->nodes[n->u.kids[q]].box;
        uint64_t dx = (q & 1u) * half, dy = (q >> 1) * half;
        if (!box_empty(k))
            box_add(&b, (mc_box){k->x0 + dx, k->y0 + dy, k->x1 + dx, k->y1 + dy});
    }
    return b;
}

/* Room for one more node. */
static int mc_grow(mc_reader *r, ls_error *err)
{
    if (r->count < r->cap)
        return 0;
    if (r->count >= MC_MAX_NODES)
        return ls_fail_usage(err, "%s:%u: more than %u nodes, more than any pattern lockstep reads needs", r->name,
                             r->line, MC_MAX_NODES);
    size_t cap = r->cap ? 2 * r->cap : 1024;
    mc_node *bigger = realloc(r->nodes, cap * sizeof *bigger);
    if (!bigger)
        return ls_fail(err, "out of memory reading %s (%zu nodes)", r->name, r->count);
    r->nodes = bigger;
    r->cap = cap;
    return 0;
}

/* A leaf line: 8x8 cells, rows top down. */
static int mc_leaf(mc_reader *r, const char *p, mc_node *n, ls_error *err)
{
    unsigned x = 0, y = 0;
    *n = (mc_node){.level = MC_LEAF_LEVEL, .cells = 1};
    for (; *p == '.' || *p == '*' || *p == '$'; p++) {
        if (*p == '$') {
            x = 0;
            y++;
            continue;
        }
        if (x > 7 || y > 7)
            return ls_fail_usage(err, "%s:%u: a leaf's cell beyond its 8x8 square", r->name, r->line);
        if (*p == '*')
            n->u.bits |= 1ull << (8 * y + x);
        x++;
    }
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    if (*p && *p != '\n')
        return ls_fail_usage(err, "%s:%u: unexpected '%c' in a leaf (rows of '.', '*' and '$')", r->name, r->line,
                             isprint((unsigned char)*p) ? *p : '?');
    n->box = bits_box(n->u.bits);
    return 0;
}

/* A line "k nw ne sw se" (more numbers after these are Golly's own and
 * ignored, as Golly does). */
static int mc_square(mc_reader *r, const char *p, mc_node *n, ls_error *err)
{
    unsigned long long v[5];
    for (int i = 0; i < 5; i++) {
        char *end;
        errno = 0;
        while (*p == ' ' || *p == '\t')
            p++;
        v[i] = isdigit((unsigned char)*p) ? strtoull(p, &end, 10) : 0;
        if (!isdigit((unsigned char)*p) || errno)
            return ls_fail_usage(err, "%s:%u: expected a leaf, or a node 'level nw ne sw se'", r->name, r->line);
        p = end;
    }
    if (v[0] <= MC_LEAF_LEVEL)
        return ls_fail_usage(err, "%s:%u: a node of level %llu, the multi-state form: only two-state macrocells, "
                                  "of 8x8 leaves, are read",
                             r->name, r->line, v[0]);
    if (v[0] > MC_MAX_LEVEL)
        return ls_fail_usage(err, "%s:%u: a node of level %llu (at most %u: 2^%u cells a side is beyond any grid)",
                             r->name, r->line, v[0], MC_MAX_LEVEL, MC_MAX_LEVEL);
    *n = (mc_node){.level = (uint8_t)v[0]};
    for (unsigned q = 0; q < 4; q++) {
        if (v[1 + q] >= r->count)
            return ls_fail_usage(err, "%s:%u: node %llu is not defined before this line", r->name, r->line,
                                 v[1 + q]);
        const mc_node *kid = &r->nodes[v[1 + q]];
        if (v[1 + q] && kid->level + 1u != v[0])
            return ls_fail_usage(err, "%s:%u: a node of level %llu made of node %llu, of level %u (not %llu)",
                                 r->name, r->line, v[0], v[1 + q], kid->level, v[0] - 1);
        n->u.kids[q] = (uint32_t)v[1 + q];
    }
    n->box = kids_box(r, n);
    return 0;
}

/* Parses the '#' line at p: #R into p->rule, #G into p->generation. */
static int mc_comment(mc_reader *r, const char *line, life_pattern *p, ls_error *err)
{
    if (line[1] != 'R' && line[1] != 'G')
        return 0;
    const char *v = line + 2, *end;
    while (*v == ' ' || *v == '\t')
        v++;
    for (end = v; *end && !isspace((unsigned char)*end); end++)
        ;
    if (line[1] == 'R') {
        if ((size_t)(end - v) >= sizeof p->rule)
            return ls_fail_usage(err, "%s:%u: the rule is too long", r->name, r->line);
        memcpy(p->rule, v, (size_t)(end - v));
        p->rule[end - v] = '\0';
        return 0;
    }
    char *stop;
    errno = 0;
    p->generation = strtoull(v, &stop, 10);
    if (!isdigit((unsigned char)*v) || stop != end || errno)
        return ls_fail_usage(err, "%s:%u: expected '#G N', the generation (0 to 2^64 - 1)", r->name, r->line);
    return 0;
}

/* Every line after the first: comments and nodes. */
static int mc_lines(mc_reader *r, const char *text, life_pattern *p, ls_error *err)
{
    for (const char *line = text; *line;) {
        const char *eol = strchr(line, '\n');
        const char *q = line;
        while (*q == ' ' || *q == '\t' || *q == '\r')
            q++;
        int rc = 0;
        if (*line == '#') {
            rc = mc_comment(r, line, p, err);
        } else if (*q && *q != '\n') {
            rc = mc_grow(r, err);
            mc_node *n = rc ? NULL : &r->nodes[r->count];
            rc = rc ? rc
                    : *line == '.' || *line == '*' || *line == '$' ? mc_leaf(r, line, n, err)
                                                                    : mc_square(r, line, n, err);
            r->count += rc == 0;
        }
        if (rc)
            return -1;
        line = eol ? eol + 1 : line + strlen(line);
        r->line++;
    }
    return 0;
}

/* Sets the live cells of node id into p, the node's top-left cell at
 * (ox, oy) of the pattern (its live cells all fall inside). */
static void mc_paint(const mc_reader *r, uint32_t id, int64_t ox, int64_t oy, life_pattern *p)
{
    const mc_node *n = &r->nodes[id];
    if (box_empty(&n->box))
        return;
    if (n->cells) {
        for (unsigned i = 0; i < 64; i++)
            if (n->u.bits >> i & 1u)
                p->cells[(size_t)(oy + i / 8) * p->width + (size_t)(ox + i % 8)] = 1;
        return;
    }
    int64_t half = (int64_t)1 << (n->level - 1);
    for (unsigned q = 0; q < 4; q++)
        if (n->u.kids[q])
            mc_paint(r, n->u.kids[q], ox + (int64_t)(q & 1u) * half, oy + (int64_t)(q >> 1) * half, p);
}

/* The root's live cells as the pattern, placed where Golly has them; no
 * live cell: one dead cell at Golly's origin. */
static int mc_pattern(const mc_reader *r, const life_pattern_want *want, life_pattern *p, ls_error *err)
{
    const mc_node *root = &r->nodes[r->count - 1];
    if (root->cells)
        return ls_fail_usage(err, "%s: its root is a leaf (8x8 cells): Golly writes roots of 16x16 cells and more, "
                                  "and reads a lone leaf as an empty universe",
                             r->name);
    if (r->count == 1 || box_empty(&root->box)) {
        p->has_pos = 1;
        return life_pattern_alloc(p, r->name, 1, 1, want, err);
    }
    const mc_box *b = &root->box;
    /* The box from the tree, checked against the grid before the cells
     * are allocated and painted: a root of level 15 repeating one full
     * leaf is a few lines of text and 2^30 cells. */
    if (life_pattern_alloc(p, r->name, b->x1 - b->x0 + 1, b->y1 - b->y0 + 1, want, err))
        return -1;
    int64_t half = (int64_t)1 << (root->level - 1);
    p->has_pos = 1;
    p->pos_x = -half + (int64_t)b->x0;
    p->pos_y = 1 - half + (int64_t)b->y0;
    mc_paint(r, (uint32_t)(r->count - 1), -(int64_t)b->x0, -(int64_t)b->y0, p);
    return 0;
}

int life_read_mc(FILE *f, const char *name, const life_pattern_want *want, life_pattern *p, ls_error *err)
{
    char *text;
    size_t len;
    memset(p, 0, sizeof *p);
    if (life_read_text(f, name, 0, &text, &len, err))
        return -1;
    mc_reader r = {name, 2, NULL, 0, 0};
    const char *body = strchr(text, '\n');
    int rc = 0;
    if (strncmp(text, "[M2]", 4) != 0)
        rc = ls_fail_usage(err, "%s: not a two-state macrocell (its first line is not '[M2] ...'%s)", name,
                           text[0] == '[' ? "; others are of rules of more states" : "");
    if (rc == 0 && (rc = mc_grow(&r, err)) == 0)
        r.nodes[r.count++] = (mc_node){.level = 0, .box = {1, 1, 0, 0}}; /* node 0: empty */
    if (rc == 0 && body)
        rc = mc_lines(&r, body + 1, p, err);
    if (rc == 0)
        rc = mc_pattern(&r, want, p, err);
    free(r.nodes);
    free(text);
    if (rc)
        life_pattern_free(p);
    return rc;
}

/* ---- writing -------------------------------------------------------------- */

/* A node written, by what it is: its number in the file. */
typedef struct mc_entry {
    uint32_t id; /* 0: a free slot */
    uint8_t level;
    uint64_t key[2]; /* a leaf's bits, or its four kids' numbers */
} mc_entry;

typedef struct mc_writer {
    FILE *f;
    const life_grid *g;
    int64_t left, top; /* the grid's top-left cell in Golly's coordinates */
    mc_entry *table;   /* open addressing, a power of two of slots */
    size_t slots, used;
    uint32_t last;     /* the number of the last node written */
    int failed;        /* a write fell short */
    int no_memory;
} mc_writer;

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ h >> 33;
}

/* The table twice as large, every entry moved. */
static int mc_rehash(mc_writer *w)
{
    size_t slots = w->slots ? 2 * w->slots : 4096;
    mc_entry *t = calloc(slots, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < w->slots; i++) {
        const mc_entry *e = &w->table[i];
        if (!e->id)
            continue;
        size_t s = mix(e->key[0] ^ mix(e->key[1] ^ e->level)) & (slots - 1);
        while (t[s].id)
            s = (s + 1) & (slots - 1);
        t[s] = *e;
    }
    free(w->table);
    w->table = t;
    w->slots = slots;
    return 0;
}

/* The number of the node (level, key), written now with `write` if it is
 * new; 0 on an error (no memory). */
static uint32_t mc_intern(mc_writer *w, uint8_t level, const uint64_t key[2], void (*write)(mc_writer *w, uint8_t level,
                                                                                         const uint64_t key[2]))
{
    if ((w->used + 1) * 2 > w->slots && mc_rehash(w)) {
        w->no_memory = 1;
        return 0;
    }
    size_t s = mix(key[0] ^ mix(key[1] ^ level)) & (w->slots - 1);
    for (; w->table[s].id; s = (s + 1) & (w->slots - 1))
        if (w->table[s].level == level && w->table[s].key[0] == key[0] && w->table[s].key[1] == key[1])
            return w->table[s].id;
    if (w->last == UINT32_MAX) {
        w->no_memory = 1;
        return 0;
    }
    write(w, level, key);
    w->table[s] = (mc_entry){++w->last, level, {key[0], key[1]}};
    w->used++;
    return w->last;
}

/* A leaf's line: rows top down, each to its last live cell and '$',
 * stopping after the last row with one. */
static void write_leaf(mc_writer *w, uint8_t level, const uint64_t key[2])
{
    (void)level;
    char line[8 * 9 + 2];
    size_t n = 0;
    for (unsigned y = 0; y < 8 && key[0] >> (8 * y); y++) {
        unsigned row = (unsigned)(key[0] >> (8 * y)) & 0xffu;
        for (unsigned x = 0; row >> x; x++)
            line[n++] = row >> x & 1u ? '*' : '.';
        line[n++] = '$';
    }
    line[n++] = '\n';
    w->failed |= fwrite(line, 1, n, w->f) != n;
}

static void write_square(mc_writer *w, uint8_t level, const uint64_t key[2])
{
    w->failed |= fprintf(w->f, "%u %u %u %u %u\n", level, (uint32_t)key[0], (uint32_t)(key[0] >> 32),
                         (uint32_t)key[1], (uint32_t)(key[1] >> 32)) < 0;
}

/* The 8x8 cells with Golly's (gx, gy) top-left, dead beyond the grid. */
static uint64_t leaf_bits(const mc_writer *w, int64_t gx, int64_t gy)
{
    const life_grid *g = w->g;
    uint64_t bits = 0;
    for (int64_t y = 0; y < 8; y++) {
        int64_t ly = gy + y - w->top;
        for (int64_t x = 0; x < 8 && ly >= 0 && ly < g->ny; x++) {
            int64_t lx = gx + x - w->left;
            if (lx >= 0 && lx < g->nx && life_get(g, (uint32_t)lx, (uint32_t)ly, g->nz / 2))
                bits |= 1ull << (8 * y + x);
        }
    }
    return bits;
}

/* Writes the node of `level` with Golly's (gx, gy) top-left, its
 * children first: its number, or 0 when it holds no live cell. */
static uint32_t mc_write_node(mc_writer *w, uint8_t level, int64_t gx, int64_t gy)
{
    int64_t side = (int64_t)1 << level;
    if (gx + side <= w->left || gy + side <= w->top || gx >= w->left + w->g->nx || gy >= w->top + w->g->ny ||
        w->no_memory)
        return 0; /* beyond the grid: empty */
    uint64_t key[2] = {0, 0};
    if (level == MC_LEAF_LEVEL) {
        key[0] = leaf_bits(w, gx, gy);
        return key[0] ? mc_intern(w, level, key, write_leaf) : 0;
    }
    int64_t half = side / 2;
    uint32_t kids[4];
    for (unsigned q = 0; q < 4; q++)
        kids[q] = mc_write_node(w, level - 1, gx + (int64_t)(q & 1u) * half, gy + (int64_t)(q >> 1) * half);
    if (!(kids[0] | kids[1] | kids[2] | kids[3]))
        return 0;
    key[0] = kids[0] | (uint64_t)kids[1] << 32;
    key[1] = kids[2] | (uint64_t)kids[3] << 32;
    return mc_intern(w, level, key, write_square);
}

int life_write_mc(FILE *f, const life_grid *g, const life_meta *meta, ls_error *err)
{
    if (life_format_check_shape(&life_mc_format, g->dims, g->nx, g->ny, g->nz, meta->scale, err))
        return -1;
    char rule[LIFE_RULE_TEXT], grid[LIFE_TOPOLOGY_TEXT], gen[40] = "";
    life_rule_format(meta->rule, rule, sizeof rule);
    life_topology_format(g->bounded, 2, g->nx, g->ny, 1, grid, sizeof grid);
    if (meta->generation)
        snprintf(gen, sizeof gen, "#G %llu\n", (unsigned long long)meta->generation);
    errno = 0;
    mc_writer w = {.f = f, .g = g, .left = -(int64_t)(g->nx / 2), .top = -(int64_t)(g->ny / 2)};
    w.failed = fprintf(f, "[M2] (lockstep life)\n#R %s%s\n%s#C written by lockstep life\n", rule, grid, gen) < 0;
    /* The smallest root (level 4 at least, as Golly writes) whose cells,
     * from (-half, 1 - half), cover the grid's: (-(nx/2), -(ny/2)) to
     * (nx - nx/2 - 1, ny - ny/2 - 1). */
    uint64_t need = (g->nx + 1) / 2 > g->ny / 2 + 1 ? (g->nx + 1) / 2 : g->ny / 2 + 1;
    uint8_t level = 4;
    while ((1ull << (level - 1)) < need)
        level++;
    int64_t half = (int64_t)1 << (level - 1);
    mc_write_node(&w, level, -half, 1 - half);
    free(w.table);
    if (w.no_memory)
        return ls_fail(err, "out of memory for the macrocell's nodes (%zu so far)", w.used);
    return w.failed ? ls_fail(err, "%s", errno ? strerror(errno) : "write error") : 0;
}

/* ---- the row -------------------------------------------------------------- */

const life_format_methods life_mc_format = {
    .name = "mc", .extensions = {".mc"}, .holds = "2D patterns", .dims = 2,
    .about = "Golly's macrocell, two-state ([M2]): the rule (#R, with its grid suffix), the generation (#G), and "
             "the live cells as a quadtree of 8x8 leaves, each repeated square once; a pattern placed where Golly "
             "has it.",
    .read_pattern = life_read_mc, .write = life_write_mc,
};
