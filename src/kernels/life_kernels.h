/* life_kernels.h - Life on GPUs, written once for OpenCL and CUDA
 * (src/kernels/dialect.h); the per-word logic is src/algo/life.h.
 *
 * One bit per cell in device memory (layout: src/workloads/life/life_grid.h),
 * one generation per launch, or in 2D two (life_2d_two below) or
 * LIFE_2D_GENS (life_2d_many: temporal blocking, the default path;
 * LIFE_GROUP_2D_GENS on the group shape, life_g2_walk), in
 * 3D LIFE_GPU_3D_DEPTH (life_t3_walk: the same, the default path where
 * rows have at most 64 words). A work-item owns one 32-bit word column and
 * walks along the slowest axis (y in 2D, z in 3D) through a segment of the
 * grid, keeping the sums it has made in registers as a sliding window:
 *
 *  - 2D: each row's sum along x (west + centre + east, two bit-planes) is
 *    made once and used by the three output rows it borders, so an output
 *    word costs one row sum, one 3x3 sum and the rule.
 *  - 3D: a work-item owns LIFE_GPU_3D_ROWS (life.h) rows of its word column; for each
 *    new plane it makes the x sums of those rows and the two beside them
 *    once, their 3x3 sums (four bit-planes each), and keeps the 3x3 sums of
 *    the last three planes: an output word costs a 3x3x3 sum of three
 *    ready 3x3 sums and the rule, instead of three 3x3 sums.
 *
 * A segment starts with two planes (rows) of warm-up, the price of cutting
 * the walk into enough work-items to fill the device. The window rotates
 * by unrolling the walk three times, so no sum is copied; the three steps
 * read unconditionally (planes and rows wrap, so every read is inside the
 * grid) and only the stores past the segment's end are skipped, so the
 * compiler can issue the reads of later steps early and hide their
 * latency. The driver makes segments a multiple of three long.
 *
 * The x seam: the neighbour words' indices wrap around the row. When a
 * row's last word is full (nx a multiple of 32: the "aligned" kernels)
 * the shifts need no more than that; otherwise the first word's west bit
 * comes from bit last_bits - 1 of the last word and the last word's east
 * bit from the row's first cell, which costs a few operations per row sum
 * (life_xwrap). Padding bits of a sum are never used: they only reach
 * padding bits of the output, which the store masks.
 *
 * Rules: the *_b3s23 / *_b6s567 kernels have the default rule as a
 * constant, which the compiler folds from the multiplexer tree of
 * life_rule_2d/3d down to a few operations; the others take any rule.
 *
 * Bounded planes (Golly's ":P" grids, the *_plane kernels): the same walks
 * with `bounded` a constant 1, where nothing wraps. The words of the rows
 * and planes beyond the edges are read as zeros (the reads stay wrapped,
 * inside the grid, and their values are masked), the x seam takes zeros
 * for the west word of the first word and the east word of the last
 * (life_xwrap's wkeep, ekeep), and the middle generation of the two-
 * generation kernel is zero beyond the edges too. In the torus kernels
 * `bounded` is a constant 0 and every one of these masks folds away. The
 * plane kernels take any rule and any row length: they are not the hot
 * path, and three more kernels keep the program's size down. (nvcc 13.0 for
 * sm_80, sm_90 and sm_100 makes the torus kernels' machine code byte for
 * byte what it was before planes; a mask written as an expression rather than under
 * `if (bounded)` changed two of them.) */
/* The 2D many-generation walk fits two groups of 256 on a compute unit in
 * 128 registers (LS_MAX_GROUP_FIT below); compilers that cap registers only
 * program-wide are asked for that (dialect.h). */
#define LS_REGISTERS_128
#include "dialect.h"
/* Kernels shaped for CPU OpenCL devices (LS_SHAPE_CPU, the end of this
 * file) take a run of LIFE_CPU_LANES consecutive words of a row at once
 * as an OpenCL vector: src/algo/life.h's logic is then written on such
 * runs (life_word). The driver builds programs for narrower rows with a
 * narrower run (src/workloads/life/life_gpu.c, life_cpu_lanes). */
#if LS_SHAPE == LS_SHAPE_CPU
#ifndef LIFE_CPU_LANES
#define LIFE_CPU_LANES 16 /* life.h's LIFE_CPU_LANES_DEFAULT, which is defined after this choice */
#endif
#if LIFE_CPU_LANES == 16
#define LIFE_WORD uint16
#elif LIFE_CPU_LANES == 8
#define LIFE_WORD uint8
#elif LIFE_CPU_LANES == 4
#define LIFE_WORD uint4
#elif LIFE_CPU_LANES == 2
#define LIFE_WORD uint2
#elif LIFE_CPU_LANES == 1
#define LIFE_WORD uint
#else
#error "LIFE_CPU_LANES must be 1, 2, 4, 8 or 16"
#endif
#endif
#include "life.h"
#if LS_SHAPE == LS_SHAPE_CPU && LIFE_CPU_LANES_DEFAULT != 16
#error "LIFE_CPU_LANES' default above is life.h's LIFE_CPU_LANES_DEFAULT"
#endif

#if LS_SHAPE != LS_SHAPE_CPU

/* A work-item's constants for the x seam of its word j. */
typedef struct life_xwrap {
    ls_u32 j, jm, jp; /* its word, the west and east neighbour words (wrapped) */
    ls_u32 wsh;       /* j == 0 in an unaligned row: 32 - last_bits, else 0 */
    ls_u32 esh, emask; /* last word of an unaligned row: last_bits, ~0; else 0, 0 */
    ls_u32 keep;      /* the cells of the output word (padding masked) */
    ls_u32 wkeep, ekeep; /* bounded planes: 0 where the west (east) word is beyond the row's edge, else ~0 */
    ls_u32 esh64;     /* last word of an unaligned row: last_bits, else 32 (life_2dm_sum) */
} life_xwrap;

LS_DEVICE life_xwrap life_xwrap_make(ls_u32 j, ls_u32 row_words, ls_u32 last_bits)
{
    life_xwrap x;
    int first = j == 0u, last = j + 1u == row_words, partial = last_bits < 32u;
    x.j = j;
    x.jm = first ? row_words - 1u : j - 1u;
    x.jp = last ? 0u : j + 1u;
    x.wsh = first && partial ? 32u - last_bits : 0u;
    x.esh = last && partial ? last_bits : 0u;
    x.emask = last && partial ? 0xffffffffu : 0u;
    x.keep = last ? life_valid_mask(last_bits) : 0xffffffffu;
    x.wkeep = first ? 0u : 0xffffffffu;
    x.ekeep = last ? 0u : 0xffffffffu;
    x.esh64 = last && partial ? last_bits : 32u;
    return x;
}

/* Row y of the plane at `plane`, rows of row_bytes (4 row_words). Byte
 * arithmetic on a 32 x 32 -> 64-bit product: one multiply-add on the
 * multiply pipe, where 64-bit word offsets cost the logic pipe the rule
 * needs. */
LS_DEVICE const LS_GLOBAL ls_u32 *life_row_at(const LS_GLOBAL ls_u32 *plane, ls_u32 y, ls_u32 row_bytes)
{
    return (const LS_GLOBAL ls_u32 *)((const LS_GLOBAL ls_u8 *)plane + (ls_u64)y * row_bytes);
}

/* Words x.jm, x.j, x.jp of a row: what its x sum needs. */
typedef struct life_raw {
    ls_u32 wm, w, wp;
} life_raw;

LS_DEVICE life_raw life_raw_load(const LS_GLOBAL ls_u32 *row, life_xwrap x)
{
    life_raw v;
    v.wm = row[x.jm];
    v.w = row[x.j];
    v.wp = row[x.jp];
    return v;
}

/* On a bounded plane, the words of a row beyond an edge (`outside`): dead.
 * Nothing on a torus. */
LS_DEVICE life_raw life_raw_clip(life_raw v, int bounded, int outside)
{
    if (bounded && outside) {
        v.wm = 0u;
        v.w = 0u;
        v.wp = 0u;
    }
    return v;
}

/* West + centre + east of word x.j (s0 + 2 s1), and the word. On a
 * bounded plane the words beyond the row's ends are dead. */
LS_DEVICE void life_raw_sum(life_raw v, life_xwrap x, int aligned, int bounded, ls_u32 *s0, ls_u32 *s1,
                            ls_u32 *self)
{
    ls_u32 w = v.w, wm = v.wm, wp = v.wp;
    ls_u32 west, east;
    if (bounded) {
        wm &= x.wkeep;
        wp &= x.ekeep;
    }
    if (aligned) {
        west = life_west(w, wm);
        east = life_east(w, wp);
    } else {
        /* j == 0: the last word's last cell moved up to bit 31; last word:
         * the first cell put just above the last one (a padding bit). */
        west = life_west(w, wm << x.wsh);
        east = life_east(w | ((wp << x.esh) & x.emask), wp);
    }
    life_row_sum(west, w, east, s0, s1);
    *self = w;
}

LS_DEVICE void life_row_sum_x(const LS_GLOBAL ls_u32 *row, life_xwrap x, int aligned, int bounded, int outside,
                              ls_u32 *s0, ls_u32 *s1, ls_u32 *self)
{
    life_raw_sum(life_raw_clip(life_raw_load(row, x), bounded, outside), x, aligned, bounded, s0, s1, self);
}

/* ---- 2D ---------------------------------------------------------------- */

/* The x sum of a row and its centre word: the window of the 2D walk. */
typedef struct life_row2 {
    ls_u32 s0, s1, self;
} life_row2;

/* One output row: from the x sums of the rows above (a), at (b) and below
 * (c), the next state of b's word. */
LS_DEVICE void life_2d_emit(LS_GLOBAL ls_u32 *dst, ls_u32 y, ls_u32 row_bytes, life_rule r, life_xwrap x,
                            const life_row2 *a, const life_row2 *b, const life_row2 *c, int store)
{
    ls_u32 p0, p1, p2, p3;
    life_plane_sum(a->s0, a->s1, b->s0, b->s1, c->s0, c->s1, &p0, &p1, &p2, &p3);
    ls_u32 next = life_rule_2d(r, b->self, p0, p1, p2, p3) & x.keep;
    if (store)
        ((LS_GLOBAL ls_u32 *)life_row_at(dst, y, row_bytes))[x.j] = next;
}

/* Work-item = (word j, segment of `seg` rows); rows wrap around ny (on a
 * bounded plane the reads too, but rows -1 and ny are then dead). */
LS_DEVICE void life_2d(const LS_GLOBAL ls_u32 *src, LS_GLOBAL ls_u32 *dst, ls_u32 row_words, ls_u32 ny,
                       ls_u32 last_bits, ls_u32 seg, ls_u32 items, life_rule r, int aligned, int bounded)
{
    ls_u64 t = ls_gid();
    if (t >= items)
        return;
    ls_u32 j = (ls_u32)t % row_words;
    ls_u32 y = (ls_u32)t / row_words * seg;
    ls_u32 yend = y + seg < ny ? y + seg : ny;
    ls_u32 rb = row_words * 4u;
    life_xwrap x = life_xwrap_make(j, row_words, last_bits);
    life_row2 a, b, c;
    ls_u32 yn = y + 1u == ny ? 0u : y + 1u; /* the next row to read */
    life_row_sum_x(life_row_at(src, y == 0u ? ny - 1u : y - 1u, rb), x, aligned, bounded, y == 0u, &a.s0, &a.s1,
                   &a.self);
    life_row_sum_x(life_row_at(src, y, rb), x, aligned, bounded, 0, &b.s0, &b.s1, &b.self);
    for (;;) {
        /* The three rows' reads first, all in flight together. They are
         * rows y + 1 .. y + 3, wrapped. */
        ls_u32 y1 = yn + 1u == ny ? 0u : yn + 1u, y2 = y1 + 1u == ny ? 0u : y1 + 1u;
        life_raw vc = life_raw_clip(life_raw_load(life_row_at(src, yn, rb), x), bounded, y + 1u >= ny);
        life_raw va = life_raw_clip(life_raw_load(life_row_at(src, y1, rb), x), bounded, y + 2u >= ny);
        life_raw vb = life_raw_clip(life_raw_load(life_row_at(src, y2, rb), x), bounded, y + 3u >= ny);
        yn = y2 + 1u == ny ? 0u : y2 + 1u;
        life_raw_sum(vc, x, aligned, bounded, &c.s0, &c.s1, &c.self);
        life_2d_emit(dst, y, rb, r, x, &a, &b, &c, 1);
        life_raw_sum(va, x, aligned, bounded, &a.s0, &a.s1, &a.self);
        life_2d_emit(dst, y + 1u, rb, r, x, &b, &c, &a, y + 1u < yend);
        life_raw_sum(vb, x, aligned, bounded, &b.s0, &b.s1, &b.self);
        life_2d_emit(dst, y + 2u, rb, r, x, &c, &a, &b, y + 2u < yend);
        y += 3u;
        if (y >= yend)
            break;
    }
}

/* ---- 2D, two generations a launch -----------------------------------------
 *
 * One generation a launch moves the grid twice through DRAM for little
 * arithmetic; this kernel makes two. A run of 32 work-items (a warp) owns
 * 32 consecutive words of a row (wrapping around it) and walks down a
 * segment of rows: from each row read it makes the x sum (neighbour words
 * from the work-items beside, ls_exchange; lane 0 reads the word west of
 * the run, lane 31 the one east), then the next generation of the row
 * above it, whose x sum again takes the neighbours' words by exchange,
 * then the generation after of the row above that. The lanes at the run's
 * ends lack a neighbour's middle generation, so only lanes 1..30 store:
 * runs overlap by two words, and a segment reads two more rows at each
 * end than life_2d. */

/* The x sum (s0 + 2 s1) and centre word of a row of 32 words a run, own
 * word w, lane 0's west or lane 31's east word e. */
LS_DEVICE void life_2dt_sum(ls_u32 w, ls_u32 e, LS_LOCAL ls_u32 *buf, ls_u32 lane, life_xwrap x, int aligned,
                            int bounded, life_row2 *out)
{
    ls_u32 up[1], dn[1], v[1];
    v[0] = w;
    ls_exchange(buf, 1u, v, up, dn);
    life_raw raw;
    raw.wm = lane == 0u ? e : up[0];
    raw.w = w;
    raw.wp = lane == 31u ? e : dn[0];
    life_raw_sum(raw, x, aligned, bounded, &out->s0, &out->s1, &out->self);
}

/* All ones, or on a bounded plane zero for a row `y` beyond its edges
 * (y >= ny: rows below row 0 have wrapped to huge numbers). */
LS_DEVICE ls_u32 life_2dt_keep(int bounded, ls_u32 y, ls_u32 ny)
{
    return bounded && y >= ny ? 0u : 0xffffffffu;
}

/* The next state of b's word, from the x sums of the rows a, b, c. */
LS_DEVICE ls_u32 life_2dt_next(life_rule r, life_xwrap x, const life_row2 *a, const life_row2 *b,
                               const life_row2 *c)
{
    ls_u32 p0, p1, p2, p3;
    life_plane_sum(a->s0, a->s1, b->s0, b->s1, c->s0, c->s1, &p0, &p1, &p2, &p3);
    return life_rule_2d(r, b->self, p0, p1, p2, p3) & x.keep;
}

/* Work-item t: lane t % 32 of run t / 32, which is run t / 32 % runs of
 * its row band (runs = ceil(row_words / 30)) and segment t / 32 / runs of
 * `seg` rows; its word is run * 30 + lane - 1 (mod row_words). Work-items
 * past `items` redo item t % items and store nothing new; every
 * work-item takes seg steps (ls_exchange needs them all), skipping the
 * stores past the segment's end. */
LS_DEVICE void life_2d_two(const LS_GLOBAL ls_u32 *src, LS_GLOBAL ls_u32 *dst, ls_u32 row_words, ls_u32 ny,
                           ls_u32 last_bits, ls_u32 seg, ls_u32 items, life_rule r, int aligned, int bounded,
                           LS_LOCAL ls_u32 *buf)
{
    ls_u32 t = (ls_u32)(ls_gid() % items);
    ls_u32 lane = t % 32u, q = t / 32u, runs = (row_words + 29u) / 30u;
    ls_u32 k = q % runs * 30u + lane + row_words - 1u; /* word + row_words */
    ls_u32 j = k % row_words;
    int mine = lane != 0u && lane != 31u && k - row_words < row_words; /* stores its word */
    ls_u32 y = q / runs * seg;
    ls_u32 yend = y + seg < ny ? y + seg : ny;
    ls_u32 rb = row_words * 4u;
    life_xwrap x = life_xwrap_make(j, row_words, last_bits);
    int edge = lane == 0u || lane == 31u;
    ls_u32 ej = lane == 0u ? x.jm : x.jp;
    /* Rows y - 2 .. y + 1 start it: the x sums of y and y + 1, and those
     * of the middle generation's rows y - 1 and y. On a bounded plane
     * (rows beyond the edges dead) `keep` masks a row's words, or the
     * middle generation of a row, by whether row y - 2 + i is inside:
     * y - 2 + i wraps to a huge number below row 0. */
    ls_u32 yr = (y + ny - 2u) % ny; /* the next row to read */
    life_row2 xs[4];
    for (ls_u32 i = 0; i < 4u; i++) {
        const LS_GLOBAL ls_u32 *row = life_row_at(src, yr, rb);
        ls_u32 keep = life_2dt_keep(bounded, y - 2u + i, ny);
        life_2dt_sum(row[j] & keep, (edge ? row[ej] : 0u) & keep, buf, lane, x, aligned, bounded, &xs[i]);
        yr = yr + 1u == ny ? 0u : yr + 1u;
    }
    life_row2 x0 = xs[2], x1 = xs[3], x2, y0, y1, y2;
    ls_u32 mid0 = life_2dt_next(r, x, &xs[0], &xs[1], &xs[2]);
    if (bounded)
        mid0 &= life_2dt_keep(bounded, y - 1u, ny);
    life_2dt_sum(mid0, 0u, buf, lane, x, aligned, bounded, &y0);
    life_2dt_sum(life_2dt_next(r, x, &xs[1], &xs[2], &xs[3]), 0u, buf, lane, x, aligned, bounded, &y1);
    /* The words of the row to sum next (row y + 2) are read one step ahead. */
    const LS_GLOBAL ls_u32 *row = life_row_at(src, yr, rb);
    ls_u32 nkeep = life_2dt_keep(bounded, y + 2u, ny);
    ls_u32 nw = row[j] & nkeep, ne = (edge ? row[ej] : 0u) & nkeep;
    for (ls_u32 i = 0; i < (seg + 2u) / 3u; i++) {
/* Row y of the output from: xa, xb the x sums of rows y, y + 1; ya, yb
 * those of the middle generation's rows y - 1, y; row y + 2's words in
 * nw, ne. Leaves xc, yc for rows y + 2 and y + 1. Lanes 0 and 31 get
 * garbage in their middle generation's sums and store nothing. */
#define LIFE_2DT_STEP(s, xa, xb, xc, ya, yb, yc)                                                    \
    {                                                                                               \
        ls_u32 cw = nw, ce = ne;                                                                    \
        yr = yr + 1u == ny ? 0u : yr + 1u;                                                          \
        row = life_row_at(src, yr, rb);                                                             \
        nkeep = life_2dt_keep(bounded, y + s + 3u, ny);                                             \
        nw = row[j] & nkeep;                                                                        \
        ne = (edge ? row[ej] : 0u) & nkeep;                                                         \
        life_2dt_sum(cw, ce, buf, lane, x, aligned, bounded, &xc);                                  \
        ls_u32 mid = life_2dt_next(r, x, &xa, &xb, &xc);                                          \
        if (bounded) /* as a statement: nvcc then compiles the torus kernels as before */          \
            mid &= life_2dt_keep(bounded, y + s + 1u, ny);                                          \
        life_2dt_sum(mid, 0u, buf, lane, x, aligned, bounded, &yc);                                 \
        ls_u32 out = life_2dt_next(r, x, &ya, &yb, &yc);                                            \
        if (mine && y + s < yend)                                                                   \
            ((LS_GLOBAL ls_u32 *)life_row_at(dst, y + s, rb))[j] = out;                             \
    }
        LIFE_2DT_STEP(0u, x0, x1, x2, y0, y1, y2)
        LIFE_2DT_STEP(1u, x1, x2, x0, y1, y2, y0)
        LIFE_2DT_STEP(2u, x2, x0, x1, y2, y0, y1)
#undef LIFE_2DT_STEP
        y += 3u;
    }
}

/* ---- 2D, LIFE_2D_GENS generations a launch --------------------------------
 *
 * Temporal blocking: a run of 32 work-items (a warp) owns 32 consecutive
 * words of a row and walks down a segment of rows as life_2d_two does, but
 * keeps a pipeline of LIFE_2D_GENS levels: each row read (generation 0)
 * is summed along x and makes, with the two rows before it, generation 1
 * of the row above; that row's x sum makes generation 2 of the row above
 * it, and so on, so a row read makes generation LIFE_2D_GENS of the row
 * LIFE_2D_GENS above it, which is stored. Rows go down the levels two at
 * a time, and a level keeps the x sums of the two rows before them.
 *
 * No edge words are read: lanes 0 and 31 take their outer neighbour word
 * from the exchange's unspecified values. That makes wrong cells, but
 * only one more cell inward a generation: after g generations the g
 * outer cells of the run are wrong and no others. So when each end's
 * `margin` lanes (not stored) hold at least LIFE_2D_GENS cells, every
 * stored word is exact: margin 1 when a lane's word has at least
 * LIFE_2D_GENS cells (aligned rows, last_bits >= LIFE_2D_GENS, or a
 * torus's rows of two words or more, walked cell by cell below: every
 * lane holds 32 cells), else 2 (a bounded plane's rows: two consecutive
 * words of a row of two or more words hold 33 cells or more). The driver
 * chooses it (life_many_margin); a run stores 32 - 2 margin words.
 *
 * A segment of seg output rows reads seg + 2 LIFE_2D_GENS rows, from
 * LIFE_2D_GENS rows above it: the levels start from zeros, and what the
 * first rows make is not stored (generation k of row m needs generation 0
 * of rows m - k .. m + k). */

#if LIFE_2D_GENS < 1 || LIFE_2D_GENS > 32
#error "LIFE_2D_GENS must be 1..32: the run's edge lanes absorb one wrong cell a generation"
#endif

/* The x sum (s0 + 2 s1) of word w of a row from its west and east
 * neighbour words wm and wp, which work-items beside it hand over (the
 * walks of several generations a pass): life_raw_sum's, with the east
 * word's first cell put above the last one by a 64-bit shift, which by
 * 32 is none and saves the mask (a SEL a word and generation on sm_90:
 * 65535^2 1.35x the aligned operations, 1.27x without). */
LS_DEVICE void life_xsum(ls_u32 w, ls_u32 wm, ls_u32 wp, life_xwrap x, int aligned, int bounded, ls_u32 *s0,
                         ls_u32 *s1)
{
    if (bounded) {
        wm &= x.wkeep;
        wp &= x.ekeep;
    }
    if (aligned) {
        life_row_sum(life_west(w, wm), w, life_east(w, wp), s0, s1);
        return;
    }
    ls_u32 west = life_west(w, wm << x.wsh);
    ls_u32 east = life_east(w | (ls_u32)((ls_u64)wp << x.esh64), wp);
    life_row_sum(west, w, east, s0, s1);
}

/* The x sum and centre word of a row from each lane's own word w; lanes
 * at the run's ends take unspecified neighbour words (see above). */
LS_DEVICE void life_2dm_sum(ls_u32 w, LS_LOCAL ls_u32 *buf, life_xwrap x, int aligned, int bounded, life_row2 *out)
{
    ls_u32 up[1], dn[1], v[1];
    v[0] = w;
    ls_exchange(buf, 1u, v, up, dn);
    life_xsum(w, up[0], dn[0], x, aligned, bounded, &out->s0, &out->s1);
    out->self = w;
}

/* One step of the walk: rows `s` and `s + 1` of the walk (rows row0 =
 * y - LIFE_2D_GENS + s and row0 + 1, wrapped) arrive as words *w0p and
 * *w1p; win[k][0] and win[k][1] hold the x sums of level k's two rows
 * before them and take these two. Level k makes generation k + 1 of rows
 * row0 - k - 1 and row0 - k, the next level's arrivals; *w0p and *w1p leave with
 * generation LIFE_2D_GENS of rows row0 - LIFE_2D_GENS and the one after.
 * Two rows a step let both outputs share the sum of the two rows they have
 * in common (life_pair_sum) under B3/S23. On a bounded plane a level's row
 * beyond the y edges is dead. */
LS_DEVICE void life_2dm_step(ls_u32 *w0p, ls_u32 *w1p, life_row2 win[LIFE_2D_GENS][2], ls_u32 row0, ls_u32 ny,
                             life_rule r, int b3s23, life_xwrap x, int aligned, int bounded, LS_LOCAL ls_u32 *buf)
{
    ls_u32 w0 = *w0p, w1 = *w1p;
#pragma unroll
    for (ls_u32 k = 0; k < LIFE_2D_GENS; k++) {
        life_row2 a = win[k][0], b = win[k][1], c, d;
        life_2dm_sum(w0, buf, x, aligned, bounded, &c);
        life_2dm_sum(w1, buf, x, aligned, bounded, &d);
        if (b3s23) { /* the rule is B3/S23: rows b and c summed once for both */
            ls_u32 e0, e1, e2;
            life_pair_sum(b.s0, b.s1, c.s0, c.s1, &e0, &e1, &e2);
            w0 = life_next_b3s23_pair(e0, e1, e2, a.s0, a.s1, b.self);
            w1 = life_next_b3s23_pair(e0, e1, e2, d.s0, d.s1, c.self);
        } else {
            w0 = life_next_2d(r, a.s0, a.s1, b.s0, b.s1, c.s0, c.s1, b.self);
            w1 = life_next_2d(r, b.s0, b.s1, c.s0, c.s1, d.s0, d.s1, c.self);
        }
        if (!aligned) { /* aligned: no padding, keep is ~0 */
            w0 &= x.keep;
            w1 &= x.keep;
        }
        if (bounded) { /* generation k + 1 of rows row0 - k - 1 and row0 - k */
            w0 &= life_2dt_keep(bounded, row0 - k - 1u, ny);
            w1 &= life_2dt_keep(bounded, row0 - k, ny);
        }
        win[k][0] = c;
        win[k][1] = d;
    }
    *w0p = w0;
    *w1p = w1;
}

/* Where a work-item's word comes from on a torus whose rows end in a
 * short word (life_2d_many): the 32 cells of the row from cell o on,
 * wrapping past its end, which span up to three of its words: word a0
 * from bit r0 up, then word a1 shifted up by l1 and word a2 by l2 where
 * m1 and m2 are all ones (zero where the cells before fill the word). */
typedef struct life_vword {
    ls_u32 a0, a1, a2, r0, l1, l2, m1, m2;
} life_vword;

/* The next word of a row of row_words words, the last of last_bits cells,
 * after word a, and how many cells word a has from bit b on. */
LS_DEVICE ls_u32 life_vword_next(ls_u32 a, ls_u32 row_words)
{
    return a + 1u == row_words ? 0u : a + 1u;
}
LS_DEVICE ls_u32 life_vword_cells(ls_u32 a, ls_u32 b, ls_u32 row_words, ls_u32 last_bits)
{
    return (a + 1u == row_words ? last_bits : 32u) - b;
}

/* Cells o .. o + 31 (mod the row's row_words words, the last of last_bits
 * cells; rows of two words or more, so three words always hold them). */
LS_DEVICE life_vword life_vword_make(ls_u32 o, ls_u32 row_words, ls_u32 last_bits)
{
    life_vword g;
    g.a0 = o / 32u;
    g.r0 = o % 32u;
    ls_u32 n0 = life_vword_cells(g.a0, g.r0, row_words, last_bits);
    g.a1 = life_vword_next(g.a0, row_words);
    ls_u32 n1 = life_vword_cells(g.a1, 0u, row_words, last_bits);
    g.a2 = life_vword_next(g.a1, row_words);
    g.m1 = n0 < 32u ? 0xffffffffu : 0u;
    g.l1 = n0 < 32u ? n0 : 0u;
    g.m2 = n0 + n1 < 32u ? 0xffffffffu : 0u;
    g.l2 = n0 + n1 < 32u ? n0 + n1 : 0u;
    return g;
}

/* Those cells of `row`, whose short word's bits past its last cell are
 * zero (every kernel stores it so). */
LS_DEVICE ls_u32 life_vword_read(const LS_GLOBAL ls_u32 *row, life_vword g)
{
    return (row[g.a0] >> g.r0) | ((row[g.a1] << g.l1) & g.m1) | ((row[g.a2] << g.l2) & g.m2);
}

/* The walk of one segment, rows y .. yend - 1 (generation LIFE_2D_GENS of
 * each), by a work-item whose word is j (stored when `mine`, and with
 * `keep` of its cells) and that reads word j or, where `virt`, the cells
 * g says. */
LS_DEVICE void life_2dm_walk(const LS_GLOBAL ls_u32 *src, LS_GLOBAL ls_u32 *dst, ls_u32 j, int virt, life_vword g,
                             ls_u32 keep, ls_u32 rb, ls_u32 ny, ls_u32 y, ls_u32 yend, ls_u32 seg, int mine,
                             life_xwrap x, life_rule r, int b3s23, int aligned, int bounded, LS_LOCAL ls_u32 *buf)
{
    life_row2 win[LIFE_2D_GENS][2];
#pragma unroll
    for (ls_u32 k = 0; k < LIFE_2D_GENS; k++)
        for (ls_u32 i = 0; i < 2u; i++) {
            win[k][i].s0 = 0u;
            win[k][i].s1 = 0u;
            win[k][i].self = 0u;
        }
    /* Row y - LIFE_2D_GENS, wrapped (rows wrap as often as a short grid needs). */
    ls_u32 yr = (y + ny - LIFE_2D_GENS % ny) % ny;
    ls_u32 steps = seg + 2u * LIFE_2D_GENS;
    /* Each step's two rows are read one step ahead. The rows and outputs
     * are scalars, not two-element arrays: with them in private arrays
     * PoCL 3.1's vectorizing work-group method (loopvec) computed wrong
     * cells under some rules on bounded planes (B2/S on a 64 x 8 plane, 16
     * generations: 18 of 64 x 8 cells), where its other methods, the same
     * source built -cl-opt-disable, and Oclgrind (--data-races
     * --uninitialized: nothing found) agreed with every other device. */
#define LIFE_2DM_READ(yr) (virt ? life_vword_read(life_row_at(src, (yr), rb), g) : life_row_at(src, (yr), rb)[j])
    ls_u32 nw0 = LIFE_2DM_READ(yr) & life_2dt_keep(bounded, y - LIFE_2D_GENS, ny);
    yr = yr + 1u == ny ? 0u : yr + 1u;
    ls_u32 nw1 = LIFE_2DM_READ(yr) & life_2dt_keep(bounded, y - LIFE_2D_GENS + 1u, ny);
    yr = yr + 1u == ny ? 0u : yr + 1u;
    LS_UNROLL_EXCHANGING(2)
    for (ls_u32 s = 0; s < steps; s += 2u) {
        /* Rows row0 and row0 + 1 arrive; generation LIFE_2D_GENS of rows
         * row0 - LIFE_2D_GENS and the one after leaves. */
        ls_u32 w0 = nw0, w1 = nw1, row0 = y - LIFE_2D_GENS + s;
        nw0 = LIFE_2DM_READ(yr) & life_2dt_keep(bounded, row0 + 2u, ny);
        yr = yr + 1u == ny ? 0u : yr + 1u;
        nw1 = LIFE_2DM_READ(yr) & life_2dt_keep(bounded, row0 + 3u, ny);
        yr = yr + 1u == ny ? 0u : yr + 1u;
        life_2dm_step(&w0, &w1, win, row0, ny, r, b3s23, x, aligned, bounded, buf);
        ls_u32 yo = row0 - LIFE_2D_GENS; /* the first output row, huge before the segment */
        if (mine && s >= 2u * LIFE_2D_GENS && yo < yend)
            ((LS_GLOBAL ls_u32 *)life_row_at(dst, yo, rb))[j] = w0 & keep;
        if (mine && s + 1u >= 2u * LIFE_2D_GENS && yo + 1u < yend)
            ((LS_GLOBAL ls_u32 *)life_row_at(dst, yo + 1u, rb))[j] = w1 & keep;
    }
#undef LIFE_2DM_READ
}

/* Work-item t: lane t % 32 of run t / 32, which is run t / 32 % runs of
 * its row band (runs = ceil(row_words / width), width = 32 - 2 margin)
 * and segment t / 32 / runs of `seg` rows; its word is run * width +
 * lane - margin (mod row_words). Work-items past `items` redo item t %
 * items and store nothing new; every work-item takes every step
 * (ls_exchange needs them all), storing only its own words of the
 * segment.
 *
 * On a torus whose rows end in a short word, the row a run walks is not
 * wrapped word by word but cell by cell: its lane of word v (run * width
 * + lane - margin, unwrapped) holds cells 32 v .. 32 v + 31 of the row
 * repeated without end, which are the row's word v for v = 0 ..
 * row_words - 2. So every lane's word has 32 cells, and the walk is that
 * of aligned rows: the x seam is paid when a row is read (life_vword, up
 * to three words) instead of in every generation's x sums (two shifts and
 * an OR, and the padding's mask; on the H200 65535^2 x 1024 took 1.19
 * times 65536^2's time that way with one row a step, 1.34 times with two,
 * docs/perf/2026-11-24-h200-life2d-seam.log). The word of the row's last
 * word is stored without the cells past its end. */
LS_DEVICE void life_2d_many(const LS_GLOBAL ls_u32 *src, LS_GLOBAL ls_u32 *dst, ls_u32 row_words, ls_u32 ny,
                            ls_u32 last_bits, ls_u32 seg, ls_u32 items, ls_u32 margin, life_rule r, int b3s23,
                            int aligned, int bounded, LS_LOCAL ls_u32 *buf)
{
    ls_u32 t = (ls_u32)(ls_gid() % items);
    ls_u32 lane = t % 32u, q = t / 32u, width = 32u - 2u * margin;
    ls_u32 runs = (row_words + width - 1u) / width;
    ls_u32 u = q % runs * width + lane; /* word + margin, unwrapped */
    ls_u32 j = (u + 2u * row_words - margin) % row_words;
    int mine = lane >= margin && lane < 32u - margin && u - margin < row_words; /* stores its word */
    ls_u32 y = q / runs * seg;
    ls_u32 yend = y + seg < ny ? y + seg : ny;
    ls_u32 rb = row_words * 4u;
    life_xwrap x = life_xwrap_make(j, row_words, last_bits);
    life_vword g = {0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u};
    if (aligned || bounded) {
        life_2dm_walk(src, dst, j, 0, g, 0xffffffffu, rb, ny, y, yend, seg, mine, x, r, b3s23, aligned, bounded, buf);
        return;
    }
    /* Cell 32 (u - margin) of the row repeated (mod cells: u - margin is
     * -margin or more, margin at most 2, and a row 33 cells or more). */
    ls_u64 cells = (ls_u64)(row_words - 1u) * 32u + last_bits;
    g = life_vword_make((ls_u32)(((ls_u64)u * 32u + 2u * cells - 32u * margin) % cells), row_words, last_bits);
    /* Walked as aligned rows, which use none of x's seam fields. */
    life_2dm_walk(src, dst, j, 1, g, x.keep, rb, ny, y, yend, seg, mine, x, r, b3s23, 1, 0, buf);
}

/* ---- 2D, LIFE_GROUP_2D_GENS generations a pass: the group shape's walk ---
 *
 * life_2d_many's temporal blocking for devices whose work-items exchange
 * words through local memory between barriers (the group shape: a GPU
 * that is not NVIDIA's, or NVIDIA's OpenCL forced to that shape), where
 * that walk's ls_exchange costs two barriers for each level of each row.
 * A group owns a run of LIFE_GROUP_2D_COLS consecutive words of a row
 * band, wrapping around the row as life_2d_many's runs of 32 do, with
 * `margin` lanes at each end that store nothing, and a segment of `seg`
 * rows. Its work-items are LIFE_GROUP_2D_SLOTS slots of one work-item a
 * word column (a lane); slot s makes levels (generations) s P + 1 .. s P
 * + P, P = LIFE_GROUP_2D_GENS / LIFE_GROUP_2D_SLOTS, each as a level of
 * life_2d_many does: from a pair of rows of the generation before, their
 * x sums (the lane's word and the words of the lanes beside it) and, with
 * the level's window of the x sums of the two rows before them, the next
 * generation of two rows, one row up.
 *
 * Generations 0 .. GENS - 1 live in local memory, a ring of two blocks
 * of LIFE_GROUP_2D_ROWS rows of the run each. At step s level g makes its
 * block b = s - g from block b of generation g - 1, which level g - 1
 * wrote at step s - 1 into one half of its ring, and writes it into the
 * other half of its own ring, the one level g + 1 is not reading: no word
 * is written and read in one step, and one barrier a step orders the
 * group. Slot 0 also puts generation 0 into the ring, each block read
 * from global memory into registers the step before; the last level
 * (the last slot's) stores generation GENS into dst. Level g runs g steps
 * behind the reads, so a segment's walk takes GENS steps more than it
 * has blocks, and levels skip the steps before their first block (their
 * windows start as zeros).
 *
 * A segment's walk starts GENS rows above it, as life_2d_many's does:
 * what the first rows make is wrong and not stored. The run's edge lanes
 * take their own word for the neighbour word they lack: wrong cells, one
 * more inward a generation, which the margin lanes absorb (life_2d_many;
 * the driver's margin is its, for GENS). Rows ending in a short word: on
 * a torus each lane reads 32 cells of the row repeated (life_vword) and
 * the walk is that of aligned rows; on a bounded plane the seam is
 * life_xsum's, and rows and generations beyond the edges are dead.
 *
 * The count, a word and generation: three words read from local memory
 * and one written, the x sum (4 operations) and the rule (B3/S23 by
 * pairs: 2 + 4), and a barrier each step for P x ROWS of them a
 * work-item; made and not stored: the margin lanes (2 of COLS at margin
 * 1) and a segment's warm-up and pipeline (2 GENS + GENS x ROWS rows).
 * docs/perf/README.md has the floor this gives on the H200. */

#define LIFE_G2_GENS LIFE_GROUP_2D_GENS
#define LIFE_G2_C LIFE_GROUP_2D_COLS
#define LIFE_G2_B LIFE_GROUP_2D_ROWS
#define LIFE_G2_P (LIFE_GROUP_2D_GENS / LIFE_GROUP_2D_SLOTS) /* levels a slot */
#define LIFE_G2_BLOCK (LIFE_G2_B * LIFE_G2_C)                /* words of a block of rows */

/* A work-item's constants. */
typedef struct life_g2 {
    life_xwrap x;              /* its word j and the seam */
    life_vword g;              /* where it reads its cells, where `virt` */
    ls_u32 lane, cw, ce;       /* its column of the run, and those of its west and east words */
    ls_u32 slot;               /* levels slot P + 1 .. slot P + P */
    ls_u32 half0, half1;       /* offsets of the halves of generation slot P's ring (life_g2_step) */
    ls_u32 y, yend, ny, rb;    /* the segment's rows; row bytes */
    ls_u32 keep;               /* the cells of its word it stores */
    int mine, virt, last;      /* stores its word; reads through g; the last slot */
    life_rule r;
    int b3s23, aligned, bounded;
} life_g2;

/* The x sum and centre word of the lane's word in `row` of a block in
 * local memory. */
LS_DEVICE void life_g2_sum(const life_g2 *c, const LS_LOCAL ls_u32 *row, life_row2 *out)
{
    ls_u32 w = row[c->lane];
    life_xsum(w, row[c->cw], row[c->ce], c->x, c->aligned, c->bounded, &out->s0, &out->s1);
    out->self = w;
}

/* The next generation of rows b and c from the x sums of rows a .. d
 * (each row's neighbours above and below): under B3/S23 rows b and c are
 * summed once for both (life_pair_sum), as life_2dm_step does. */
LS_DEVICE void life_g2_pair(const life_g2 *c, const life_row2 *ra, const life_row2 *rb, const life_row2 *rc,
                            const life_row2 *rd, ls_u32 *w0, ls_u32 *w1)
{
    if (c->b3s23) {
        ls_u32 e0, e1, e2;
        life_pair_sum(rb->s0, rb->s1, rc->s0, rc->s1, &e0, &e1, &e2);
        *w0 = life_next_b3s23_pair(e0, e1, e2, ra->s0, ra->s1, rb->self);
        *w1 = life_next_b3s23_pair(e0, e1, e2, rd->s0, rd->s1, rc->self);
    } else {
        *w0 = life_next_2d(c->r, ra->s0, ra->s1, rb->s0, rb->s1, rc->s0, rc->s1, rb->self);
        *w1 = life_next_2d(c->r, rb->s0, rb->s1, rc->s0, rc->s1, rd->s0, rd->s1, rc->self);
    }
}

/* Level g (one of the work-item's slot) at step s: block b = s - g of
 * generation g from block b of generation g - 1 at `in`, into `out`, or
 * where `to_dst` (the last level) the segment's rows of it into dst. The
 * block's first row of generation g is row y - GENS - g + b ROWS,
 * unwrapped (huge above row 0). */
LS_DEVICE void life_g2_level(const life_g2 *c, life_row2 win[2], ls_u32 g, ls_u32 s, const LS_LOCAL ls_u32 *in,
                             LS_LOCAL ls_u32 *out, int to_dst, LS_GLOBAL ls_u32 *dst)
{
    ls_u32 row = c->y - LIFE_G2_GENS - g + (s - g) * LIFE_G2_B;
#pragma unroll
    for (ls_u32 i = 0; i < LIFE_G2_B; i += 2u) {
        life_row2 ra = win[0], rb = win[1], rc, rd;
        life_g2_sum(c, in + i * LIFE_G2_C, &rc);
        life_g2_sum(c, in + (i + 1u) * LIFE_G2_C, &rd);
        ls_u32 w0, w1;
        life_g2_pair(c, &ra, &rb, &rc, &rd, &w0, &w1);
        if (!c->aligned) { /* aligned: no padding, keep is ~0 */
            w0 &= c->x.keep;
            w1 &= c->x.keep;
        }
        if (c->bounded) {
            w0 &= life_2dt_keep(1, row + i, c->ny);
            w1 &= life_2dt_keep(1, row + i + 1u, c->ny);
        }
        win[0] = rc;
        win[1] = rd;
        if (to_dst) {
            if (c->mine && row + i - c->y < c->yend - c->y) /* row + i in the segment: not wrapped */
                ((LS_GLOBAL ls_u32 *)life_row_at(dst, row + i, c->rb))[c->x.j] = w0 & c->keep;
            if (c->mine && row + i + 1u - c->y < c->yend - c->y)
                ((LS_GLOBAL ls_u32 *)life_row_at(dst, row + i + 1u, c->rb))[c->x.j] = w1 & c->keep;
        } else {
            out[i * LIFE_G2_C + c->lane] = w0;
            out[(i + 1u) * LIFE_G2_C + c->lane] = w1;
        }
    }
}

/* The lane's cells of row yr (wrapped) of src. */
LS_DEVICE ls_u32 life_g2_read(const life_g2 *c, const LS_GLOBAL ls_u32 *src, ls_u32 yr)
{
    const LS_GLOBAL ls_u32 *row = life_row_at(src, yr, c->rb);
    return c->virt ? life_vword_read(row, c->g) : row[c->x.j];
}

/* Block `b` of generation 0 into `ahead`: rows y - GENS + b ROWS on, the
 * next of them yr (wrapped; left at the row after the block). */
LS_DEVICE void life_g2_fetch(const life_g2 *c, const LS_GLOBAL ls_u32 *src, ls_u32 b, ls_u32 *yr, ls_u32 *ahead)
{
    ls_u32 row = c->y - LIFE_G2_GENS + b * LIFE_G2_B;
#pragma unroll
    for (ls_u32 i = 0; i < LIFE_G2_B; i++) {
        ahead[i] = life_g2_read(c, src, *yr) & life_2dt_keep(c->bounded, row + i, c->ny);
        *yr = *yr + 1u == c->ny ? 0u : *yr + 1u;
    }
}

/* Step s of the walk; `odd` is s % 2, a constant (the walk's loop makes
 * two steps), so that every offset into the ring is one. Generation h's
 * block b lies at (2 h + b % 2) BLOCK words of the ring; the work-item's
 * levels g = slot P + t + 1 read generation g - 1 = slot P + t, whose
 * block s - g has the parity of s - t - 1 when slot P is even, the other
 * one when it is odd: half0 is the offset of the ring of generation slot
 * P for an even s - t - 1, half1 for an odd one (for slot 0, generation
 * 0's block s: t = -1). */
LS_DEVICE void life_g2_step(const life_g2 *c, ls_u32 s, ls_u32 odd, life_row2 win[LIFE_G2_P][2], ls_u32 *ahead,
                            ls_u32 *yr, ls_u32 blocks, const LS_GLOBAL ls_u32 *src, LS_GLOBAL ls_u32 *dst,
                            LS_LOCAL ls_u32 *ring)
{
    if (c->slot == 0u) {
        LS_LOCAL ls_u32 *gen0 = ring + (odd ? c->half1 : c->half0) + c->lane;
#pragma unroll
        for (ls_u32 i = 0; i < LIFE_G2_B; i++)
            gen0[i * LIFE_G2_C] = ahead[i];
        if (s + 1u < blocks)
            life_g2_fetch(c, src, s + 1u, yr, ahead);
    }
#pragma unroll
    for (ls_u32 t = 0; t < LIFE_G2_P; t++) {
        ls_u32 g = c->slot * LIFE_G2_P + t + 1u;
        if (s >= g) {
            LS_LOCAL ls_u32 *in = ring + ((odd + t + 1u) % 2u ? c->half1 : c->half0) + t * 2u * LIFE_G2_BLOCK;
            life_g2_level(c, win[t], g, s, in, in + 2u * LIFE_G2_BLOCK, c->last && t + 1u == LIFE_G2_P, dst);
        }
    }
    ls_barrier();
}

/* Group = (run, segment): run group % runs of its row band (runs =
 * ceil(row_words / width), width = COLS - 2 margin), segment group / runs
 * of `seg` rows; lane l's word is run * width + l - margin (mod
 * row_words). Every work-item takes every step (the barriers). */
LS_DEVICE void life_g2_walk(const LS_GLOBAL ls_u32 *src, LS_GLOBAL ls_u32 *dst, ls_u32 row_words, ls_u32 ny,
                             ls_u32 last_bits, ls_u32 seg, ls_u32 runs, ls_u32 margin, life_rule r, int b3s23,
                             int aligned, int bounded, LS_LOCAL ls_u32 *ring)
{
    life_g2 c;
    ls_u32 lid = ls_lid();
    c.lane = lid % LIFE_G2_C;
    c.slot = lid / LIFE_G2_C;
    c.cw = c.lane - (c.lane != 0u);
    c.ce = c.lane + (c.lane + 1u != LIFE_G2_C);
    ls_u64 group = ls_group();
    ls_u32 width = LIFE_G2_C - 2u * margin;
    ls_u32 u = (ls_u32)(group % runs) * width + c.lane; /* word + margin, unwrapped */
    ls_u32 j = (u + 2u * row_words - margin) % row_words;
    c.mine = c.lane >= margin && c.lane < LIFE_G2_C - margin && u - margin < row_words;
    c.y = (ls_u32)(group / runs) * seg;
    c.yend = c.y + seg < ny ? c.y + seg : ny;
    c.ny = ny;
    c.rb = row_words * 4u;
    c.x = life_xwrap_make(j, row_words, last_bits);
    c.r = r;
    c.b3s23 = b3s23;
    c.bounded = bounded;
    /* A torus whose rows end in a short word is walked as aligned rows,
     * each lane reading 32 cells of the row repeated (life_2d_many). */
    c.virt = !aligned && !bounded;
    c.aligned = aligned || !bounded;
    c.keep = c.virt ? c.x.keep : 0xffffffffu;
    life_vword none = {0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u};
    c.g = none;
    if (c.virt) {
        ls_u64 cells = (ls_u64)(row_words - 1u) * 32u + last_bits;
        c.g = life_vword_make((ls_u32)(((ls_u64)u * 32u + 2u * cells - 32u * margin) % cells), row_words,
                              last_bits);
    }
    c.last = c.slot + 1u == LIFE_GROUP_2D_SLOTS;
    ls_u32 first = c.slot * LIFE_G2_P * 2u * LIFE_G2_BLOCK; /* generation slot P's ring */
    int odd_first = (c.slot * LIFE_G2_P) % 2u;
    c.half0 = first + (odd_first ? LIFE_G2_BLOCK : 0u);
    c.half1 = first + (odd_first ? 0u : LIFE_G2_BLOCK);

    life_row2 win[LIFE_G2_P][2];
#pragma unroll
    for (ls_u32 t = 0; t < LIFE_G2_P; t++)
        for (ls_u32 i = 0; i < 2u; i++) {
            win[t][i].s0 = 0u;
            win[t][i].s1 = 0u;
            win[t][i].self = 0u;
        }
    /* Blocks of generation 0 the segment's rows of generation GENS need:
     * rows y - GENS .. yend - 1 + GENS. */
    ls_u32 blocks = (c.yend - c.y + 2u * LIFE_G2_GENS + LIFE_G2_B - 1u) / LIFE_G2_B;
    ls_u32 steps = blocks + LIFE_G2_GENS;
    ls_u32 yr = (c.y + ny - LIFE_G2_GENS % ny) % ny; /* row y - GENS, wrapped as often as a short grid needs */
    ls_u32 ahead[LIFE_G2_B];
#pragma unroll
    for (ls_u32 i = 0; i < LIFE_G2_B; i++)
        ahead[i] = 0u;
    if (c.slot == 0u)
        life_g2_fetch(&c, src, 0u, &yr, ahead);
    for (ls_u32 s = 0; s < steps; s += 2u) {
        life_g2_step(&c, s, 0u, win, ahead, &yr, blocks, src, dst, ring);
        life_g2_step(&c, s + 1u, 1u, win, ahead, &yr, blocks, src, dst, ring);
    }
}

/* ---- 3D ---------------------------------------------------------------- */

/* The 3x3 sums (four bit-planes) of a work-item's rows in one plane, and
 * their centre words: the window of the 3D walk. */
typedef struct life_plane3 {
    ls_u32 s[LIFE_GPU_3D_ROWS][4];
    ls_u32 self[LIFE_GPU_3D_ROWS];
} life_plane3;

/* The words a work-item reads from one plane. */
typedef struct life_raw3 {
    life_raw row[LIFE_GPU_3D_ROWS + 2u];
} life_raw3;

/* Reads them from the plane at `plane`; ys[k] is row y0 - 1 + k (wrapped).
 * On a bounded plane, a row beyond the y edges (yout[k]) or a plane
 * beyond the z edges (zout) reads as dead. */
LS_DEVICE void life_3d_load(const LS_GLOBAL ls_u32 *plane, const ls_u32 *ys, const int *yout, int zout,
                            ls_u32 row_bytes, life_xwrap x, int bounded, life_raw3 *v)
{
#pragma unroll
    for (ls_u32 k = 0; k < LIFE_GPU_3D_ROWS + 2u; k++)
        v->row[k] = life_raw_clip(life_raw_load(life_row_at(plane, ys[k], row_bytes), x), bounded, zout || yout[k]);
}

/* The window entry of a plane from its words: the 3x3 sums as four
 * bit-planes (life_plane_sum), or for the B6/S567 kernels (b6s567) in
 * the redundant form life_next_b6s567 adds. */
LS_DEVICE void life_3d_sums(const life_raw3 *v, life_xwrap x, int aligned, int bounded, int b6s567, life_plane3 *p)
{
    ls_u32 s0[LIFE_GPU_3D_ROWS + 2u], s1[LIFE_GPU_3D_ROWS + 2u], c[LIFE_GPU_3D_ROWS + 2u];
#pragma unroll
    for (ls_u32 k = 0; k < LIFE_GPU_3D_ROWS + 2u; k++)
        life_raw_sum(v->row[k], x, aligned, bounded, &s0[k], &s1[k], &c[k]);
#pragma unroll
    for (ls_u32 k = 0; k < LIFE_GPU_3D_ROWS; k++) {
        if (b6s567)
            life_plane_sum_redundant(s0[k], s1[k], s0[k + 1u], s1[k + 1u], s0[k + 2u], s1[k + 2u], &p->s[k][0],
                                     &p->s[k][1], &p->s[k][2], &p->s[k][3]);
        else
            life_plane_sum(s0[k], s1[k], s0[k + 1u], s1[k + 1u], s0[k + 2u], s1[k + 2u], &p->s[k][0], &p->s[k][1],
                           &p->s[k][2], &p->s[k][3]);
        p->self[k] = c[k + 1u];
    }
}

/* The output words of plane b from the window a, b, c (planes z-1, z, z+1). */
LS_DEVICE void life_3d_emit(LS_GLOBAL ls_u32 *plane, const ls_u32 *ys, ls_u32 row_bytes, life_rule r, int b6s567,
                            int aligned, life_xwrap x, const life_plane3 *a, const life_plane3 *b, const life_plane3 *c)
{
#pragma unroll
    for (ls_u32 k = 0; k < LIFE_GPU_3D_ROWS; k++) {
        ls_u32 next =
            b6s567 ? life_next_b6s567(a->s[k][0], a->s[k][1], a->s[k][2], a->s[k][3], b->s[k][0], b->s[k][1],
                                      b->s[k][2], b->s[k][3], c->s[k][0], c->s[k][1], c->s[k][2], c->s[k][3], b->self[k])
                   : life_word_3d(r, b->self[k], a->s[k][0], a->s[k][1], a->s[k][2], a->s[k][3], b->s[k][0],
                                  b->s[k][1], b->s[k][2], b->s[k][3], c->s[k][0], c->s[k][1], c->s[k][2], c->s[k][3]);
        LS_GLOBAL ls_u32 *out = (LS_GLOBAL ls_u32 *)life_row_at(plane, ys[k + 1u], row_bytes);
        out[x.j] = aligned ? next : next & x.keep; /* aligned: no padding, keep is ~0 */
    }
}

/* Work-item = (word j, LIFE_GPU_3D_ROWS rows, segment of `seg` planes); the
 * last group of rows is moved up to end at ny - 1 when ny is not a
 * multiple of LIFE_GPU_3D_ROWS (two work-items then write the same words, with
 * the same values). */
LS_DEVICE void life_3d(const LS_GLOBAL ls_u32 *src, LS_GLOBAL ls_u32 *dst, ls_u32 row_words, ls_u32 ny, ls_u32 nz,
                       ls_u32 last_bits, ls_u32 seg, ls_u32 items, life_rule r, int b6s567, int aligned, int bounded)
{
    ls_u64 t = ls_gid();
    if (t >= items)
        return;
    ls_u32 row_groups = (ny + LIFE_GPU_3D_ROWS - 1u) / LIFE_GPU_3D_ROWS;
    ls_u32 j = (ls_u32)t % row_words, u = (ls_u32)t / row_words;
    ls_u32 y0 = u % row_groups * LIFE_GPU_3D_ROWS, z = u / row_groups * seg;
    if (y0 > ny - LIFE_GPU_3D_ROWS)
        y0 = ny - LIFE_GPU_3D_ROWS;
    ls_u32 zend = z + seg < nz ? z + seg : nz;
    ls_u32 ys[LIFE_GPU_3D_ROWS + 2u], rb = row_words * 4u;
    int yout[LIFE_GPU_3D_ROWS + 2u]; /* row y0 - 1 + k is beyond an edge */
#pragma unroll
    for (ls_u32 k = 0; k < LIFE_GPU_3D_ROWS + 2u; k++) {
        ys[k] = (y0 + k + ny - 1u) % ny;
        yout[k] = y0 + k == 0u || y0 + k > ny;
    }
    ls_u64 plane_words = (ls_u64)row_words * ny;
    life_xwrap x = life_xwrap_make(j, row_words, last_bits);
    life_plane3 a, b, c;
    life_raw3 va, vb, vc;
    ls_u32 zn = z + 1u == nz ? 0u : z + 1u; /* the next plane to read */
    life_3d_load(src + (z == 0u ? nz - 1u : z - 1u) * plane_words, ys, yout, z == 0u, rb, x, bounded, &va);
    life_3d_load(src + z * plane_words, ys, yout, 0, rb, x, bounded, &vb);
    life_3d_sums(&va, x, aligned, bounded, b6s567, &a);
    life_3d_sums(&vb, x, aligned, bounded, b6s567, &b);
    for (;;) {
        ls_u32 z1 = zn + 1u == nz ? 0u : zn + 1u, z2 = z1 + 1u == nz ? 0u : z1 + 1u;
        /* The three planes' reads first, all in flight together. They are
         * planes z + 1 .. z + 3, wrapped. */
        life_3d_load(src + zn * plane_words, ys, yout, z + 1u >= nz, rb, x, bounded, &vc);
        life_3d_load(src + z1 * plane_words, ys, yout, z + 2u >= nz, rb, x, bounded, &va);
        life_3d_load(src + z2 * plane_words, ys, yout, z + 3u >= nz, rb, x, bounded, &vb);
        zn = z2 + 1u == nz ? 0u : z2 + 1u;
        life_3d_sums(&vc, x, aligned, bounded, b6s567, &c);
        life_3d_emit(dst + z * plane_words, ys, rb, r, b6s567, aligned, x, &a, &b, &c);
        life_3d_sums(&va, x, aligned, bounded, b6s567, &a);
        if (z + 1u < zend)
            life_3d_emit(dst + (z + 1u) * plane_words, ys, rb, r, b6s567, aligned, x, &b, &c, &a);
        life_3d_sums(&vb, x, aligned, bounded, b6s567, &b);
        if (z + 2u < zend)
            life_3d_emit(dst + (z + 2u) * plane_words, ys, rb, r, b6s567, aligned, x, &c, &a, &b);
        z += 3u;
        if (z >= zend)
            break;
    }
}

/* ---- 3D, LIFE_GPU_3D_DEPTH generations a pass: the tile walk --------------
 *
 * Temporal blocking along z. A group owns a tile of whole rows: its
 * LIFE_GPU_3D_WARPS warps are stacked along y, LIFE_GPU_3D_ROWS rows each,
 * and a warp's 32 lanes hold a row's words (rows of at most 32 words;
 * the wide walk below takes rows of up to 64, and the driver runs the
 * walk of one generation on wider ones). The group walks
 * its tile along a segment of planes; every plane read (generation 0)
 * goes down a pipeline of LIFE_GPU_3D_DEPTH levels, level g making
 * generation g + 1 as life_3d makes one: each row's x sum (west and east
 * words from the lanes that hold them, ls_shuffle: a row is a ring of
 * lanes, so nothing is lost at its ends), the 3x3 sums of the rows, kept
 * for the two planes before along z, and the rule. A step moves every
 * level one plane on: level g takes the plane level g - 1 made the step
 * before, so all levels' x sums are made at once and the warps hand the
 * x sums of their first and last rows to the warps above and below
 * through local memory with one barrier a step (two sets used in turn,
 * so that a step's writes never meet the previous step's reads).
 *
 * The tile's first and last rows have no row beyond them in the tile:
 * what a level makes there is wrong, and one more row inward each level,
 * so after LIFE_GPU_3D_DEPTH levels the LIFE_GPU_3D_DEPTH rows at each
 * end are wrong and the LIFE_GPU_3D_TILE_OUT between them are stored.
 * Tiles overlap by those edges; the last one is moved up to end at the
 * grid's last row (rows stored twice get the same words). Along z the
 * levels start from zeros: a segment reads LIFE_GPU_3D_DEPTH planes
 * before it and walks 3 LIFE_GPU_3D_DEPTH - 1 steps more than it has
 * planes, storing none of what the first ones make.
 *
 * Along z the steps pair up: outputs z and z + 1 both add planes z and
 * z + 1, so the even step makes that z pair once (life_zpair_sum) and
 * each of the two adds its own third plane (life_zpair_add, life_t3_row).
 * A level keeps 9 words a row: two planes' sums and the selves, and the
 * pair's three words between its two steps.
 *
 * The count: an x sum is 4 operations (two funnel shifts, a full adder),
 * made once a row and level; the 3x3 sums 4; the z pair 4 for two outputs;
 * the third plane added 8; B6/S567's decision 5 (life_decide_b6s567): 23
 * operations a word and generation, where life_3d makes the x sums 1.5
 * times, the whole 3x3x3 sum for every word, and pays each word's three
 * loads and addresses. The tile's edges are made and not stored, a factor of
 * tile / LIFE_GPU_3D_TILE_OUT (32 / 28 for 8 warps of 4 rows and 2
 * generations). Plane words are loaded once a pass, one word a row (the
 * neighbour words come by shuffle), and the grid crosses the memory bus
 * once every LIFE_GPU_3D_DEPTH generations. Where the device copies
 * without registers (LS_ASYNC_COPY) each work-item copies its rows of the
 * plane LIFE_GPU_3D_STAGES steps ahead into local memory and reads them
 * back itself (no barrier); elsewhere it loads them into registers one
 * step ahead.
 *
 * Bounded planes: rows and planes beyond the edges are dead at every
 * level (masked where they are made or read), and the x seam's masks
 * are life_xsum's. Rows whose last word is short: the x seam of
 * life_xsum, and every level's words masked to their cells.
 *
 * Rows of 33 to 64 words (the wide walk, `wide`): a row is cut into
 * LIFE_GPU_3D_WIDE_PIECES pieces of 32 words held by as many warps side
 * by side, so a group's tile has half the rows (LIFE_GPU_3D_WIDE_TILE_ROWS:
 * 24 rows storing 20 at 12 warps of 4 rows and 2 generations). A piece's
 * end words have their x neighbours in the other piece: every step each
 * work-item first puts its words of every level into local memory (the
 * tile's rows, whole), and after a barrier reads its west and east words
 * there instead of shuffling; nothing is made twice, and each row is a
 * ring of words as before (lanes past the row's end hold copies of its
 * first words). The halo keeps one set: the barrier before the words are
 * read also keeps a step's halo writes after the previous step's reads,
 * and the halo, the rows' words and the planes read ahead take 12 KiB
 * each at 12 warps (at 16 they filled the 48 KiB a group has). The count a
 * word and generation: the same logic (the 23 operations and the rest), a
 * store and two loads of local memory for the two shuffles, one more
 * barrier a step, and the tile's edges: 24 / 20 rows made for those
 * stored against 48 / 44. */

#define LIFE_T3_D LIFE_GPU_3D_DEPTH
#define LIFE_T3_R LIFE_GPU_3D_ROWS
#define LIFE_T3_W LIFE_GPU_3D_WARPS
#define LIFE_T3_ROWS (LIFE_T3_W * LIFE_T3_R) /* a tile's */
#define LIFE_T3_GROUP (32u * LIFE_T3_W)
/* Groups a compute unit should hold: as many as 128 registers a
 * work-item allow, the cap NVIDIA's OpenCL puts on the whole program
 * (LS_REGISTERS_128); at least one, whose work-items CUDA then gives all
 * the registers a unit has (12 warps: 168 each). */
#define LIFE_T3_FIT (LIFE_T3_W < 16u ? 16u / LIFE_T3_W : 1u)
/* One of the halo's two sets (LIFE_GPU_3D_HALO_WORDS in life.h). */
#define LIFE_T3_HALO_SET (LIFE_GPU_3D_HALO_WORDS / 2u)
#if defined(LS_ASYNC_COPY) && LIFE_GPU_3D_STAGES > 0
#define LIFE_T3_RING 1
#endif

/* A work-item's constants. */
typedef struct life_t3 {
    life_xwrap x;                 /* its word j; jm, jp are the lanes (wide: the words) of its neighbour words */
    ls_u32 lane, warp, up, dn;    /* up, dn: the warps above and below (wrapping in the tile) */
    int mine;                     /* its word is its own: not a copy of a word another lane holds */
    ls_u32 rowoff[LIFE_T3_R];     /* byte offset of word j of each of its rows in a plane */
    ls_u32 rowkeep[LIFE_T3_R];    /* bounded planes: all ones for a row inside the grid, else 0 */
    ls_u32 store;                 /* bit k: row k is one of the tile's stored rows */
    ls_u32 nz;
    life_rule r;
    int b6s567, aligned, bounded, wide;
} life_t3;

/* A plane of a level's window: the 3x3 sums of the work-item's rows (as
 * life_3d_sums makes them) and the rows' words. */
typedef struct life_t3_plane {
    ls_u32 s[LIFE_T3_R][4];
    ls_u32 self[LIFE_T3_R];
} life_t3_plane;

/* The x sums of a level's rows from their words w, into s0[1 ..] and
 * s1[1 ..] (0 and LIFE_T3_R + 1 are the rows beyond, from the halo). The
 * neighbour words from the lanes that hold them, or in the wide walk
 * from the level's rows in local memory, `rows` (its first row's). */
LS_DEVICE void life_t3_xsums(const life_t3 *c, const ls_u32 *w, const LS_LOCAL ls_u32 *rows, LS_LOCAL ls_u32 *buf,
                             ls_u32 *s0, ls_u32 *s1)
{
    ls_u32 wm[LIFE_T3_R], wp[LIFE_T3_R];
    if (c->wide) {
#pragma unroll
        for (ls_u32 k = 0; k < LIFE_T3_R; k++) {
            wm[k] = rows[k * LIFE_GPU_3D_WIDE_WORDS + c->x.jm];
            wp[k] = rows[k * LIFE_GPU_3D_WIDE_WORDS + c->x.jp];
        }
    } else {
        ls_shuffle(buf, LIFE_T3_R, LIFE_T3_GROUP, w, c->x.jm, c->x.jp, wm, wp);
    }
#pragma unroll
    for (ls_u32 k = 0; k < LIFE_T3_R; k++)
        life_xsum(w[k], wm[k], wp[k], c->x, c->aligned, c->bounded, &s0[k + 1u], &s1[k + 1u]);
}

/* What a level keeps of a z pair (life_zpair_sum) from the step that
 * makes it to the next, which uses it again: a, h and H of its rows (the
 * pair's p0, q0 and q2 are in the window's planes). */
typedef struct life_t3_pair {
    ls_u32 a[LIFE_T3_R], h[LIFE_T3_R], H[LIFE_T3_R];
} life_t3_pair;

/* Row k of a level's new plane pc: its redundant 3x3 sums from the x sums
 * of rows k - 1 .. k + 1 (s0, s1 from index k), and the next state of row
 * k of the window's middle plane pb, pa the plane before it. Steps take
 * turns (`odd`): an even one makes the pair of pb and pc, and adds pa; the
 * odd one after it adds its new plane pc to the same pair, now pa and pb.
 * The word masked to its cells and, on a bounded plane, to rows and planes
 * inside (`inside`: all ones when the plane made is). */
LS_DEVICE ls_u32 life_t3_row(const life_t3 *c, const ls_u32 *s0, const ls_u32 *s1, ls_u32 k, const life_t3_plane *pa,
                             const life_t3_plane *pb, life_t3_plane *pc, life_t3_pair *pair, int odd, ls_u32 inside)
{
    ls_u32 *p = pc->s[k];
    life_plane_sum_redundant(s0[k], s1[k], s0[k + 1u], s1[k + 1u], s0[k + 2u], s1[k + 2u], &p[0], &p[1], &p[2],
                             &p[3]);
    const ls_u32 *P = odd ? pa->s[k] : pb->s[k], *Q = odd ? pb->s[k] : p, *R = odd ? p : pa->s[k];
    if (!odd)
        life_zpair_sum(P[1], P[2], P[3], Q[1], Q[3], &pair->a[k], &pair->h[k], &pair->H[k]);
    ls_u32 o, t, f1, f2;
    life_zpair_add(P[0], Q[0], Q[2], pair->a[k], R[0], R[1], R[2], R[3], &o, &t, &f1, &f2);
    ls_u32 next = c->b6s567 ? life_decide_b6s567(o, t, pair->h[k], f1, pair->H[k], f2, pb->self[k])
                            : life_decide_3d(c->r, o, t, pair->h[k], f1, pair->H[k], f2, pb->self[k]);
    if (!c->aligned) /* aligned: no padding, keep is ~0 */
        next &= c->x.keep;
    if (c->bounded)
        next &= c->rowkeep[k] & inside;
    return next;
}

/* One step: level g holds generation g of its rows of plane q - 2g (q the
 * plane read this step, counted from the segment's start without
 * wrapping, huge below plane 0) in in[g], and in win[g][ia], win[g][ib]
 * the window's two planes before it; it makes generation g + 1 of plane
 * q - 2g - 1 into in[g + 1], the next step's, or from the last level into
 * out; pair[g] is its z pair (life_t3_row; `odd` a constant). `halo` is this step's set. The rows that need no x sum from
 * another warp are made before the barrier, and the levels from the last
 * down, so that a level keeps its words (its plane's self) before the
 * level below overwrites them. The wide walk first puts every level's
 * words into `rows` (its first row of level 0 there), where the lanes
 * of the other pieces read them after a barrier; the barrier of the halo
 * keeps the next step's writes after these reads. */
LS_DEVICE void life_t3_step(const life_t3 *c, ls_u32 in[LIFE_T3_D][LIFE_T3_R], life_t3_plane win[LIFE_T3_D][4],
                            life_t3_pair pair[LIFE_T3_D], ls_u32 ia, ls_u32 ib, ls_u32 ic, int odd, ls_u32 q,
                            LS_LOCAL ls_u32 *halo, LS_LOCAL ls_u32 *rows, LS_LOCAL ls_u32 *buf, ls_u32 *out)
{
    ls_u32 s0[LIFE_T3_D][LIFE_T3_R + 2u], s1[LIFE_T3_D][LIFE_T3_R + 2u], inside[LIFE_T3_D];
    if (c->wide) {
        if (c->mine)
#pragma unroll
            for (ls_u32 g = 0; g < LIFE_T3_D; g++)
#pragma unroll
                for (ls_u32 k = 0; k < LIFE_T3_R; k++)
                    rows[(g * LIFE_GPU_3D_WIDE_TILE_ROWS + k) * LIFE_GPU_3D_WIDE_WORDS + c->x.j] = in[g][k];
        ls_barrier();
    }
#pragma unroll
    for (ls_u32 g = 0; g < LIFE_T3_D; g++) {
        life_t3_xsums(c, in[g], rows + g * LIFE_GPU_3D_WIDE_TILE_ROWS * LIFE_GPU_3D_WIDE_WORDS, buf, s0[g], s1[g]);
        LS_LOCAL ls_u32 *h = halo + (g * LIFE_T3_W + c->warp) * 128u + c->lane;
        h[0] = s0[g][1];
        h[32] = s1[g][1];
        h[64] = s0[g][LIFE_T3_R];
        h[96] = s1[g][LIFE_T3_R];
        inside[g] = q - 2u * g - 1u < c->nz ? 0xffffffffu : 0u;
    }
#pragma unroll
    for (ls_u32 l = 0; l < LIFE_T3_D; l++) {
        ls_u32 g = LIFE_T3_D - 1u - l;
        life_t3_plane *pc = &win[g][ic];
#pragma unroll
        for (ls_u32 k = 0; k < LIFE_T3_R; k++)
            pc->self[k] = in[g][k];
#pragma unroll
        for (ls_u32 k = 1; k + 1u < LIFE_T3_R; k++) {
            ls_u32 next = life_t3_row(c, s0[g], s1[g], k, &win[g][ia], &win[g][ib], pc, &pair[g], odd, inside[g]);
            if (g + 1u < LIFE_T3_D)
                in[g + 1u][k] = next;
            else
                out[k] = next;
        }
    }
    ls_barrier();
#pragma unroll
    for (ls_u32 g = 0; g < LIFE_T3_D; g++) {
        const LS_LOCAL ls_u32 *above = halo + (g * LIFE_T3_W + c->up) * 128u + c->lane;
        const LS_LOCAL ls_u32 *below = halo + (g * LIFE_T3_W + c->dn) * 128u + c->lane;
        s0[g][0] = above[64];
        s1[g][0] = above[96];
        s0[g][LIFE_T3_R + 1u] = below[0];
        s1[g][LIFE_T3_R + 1u] = below[32];
    }
#pragma unroll
    for (ls_u32 l = 0; l < LIFE_T3_D; l++) {
        ls_u32 g = LIFE_T3_D - 1u - l;
        /* rows 0 and LIFE_T3_R - 1, the one row when a warp has one */
#pragma unroll
        for (ls_u32 k = 0; k < LIFE_T3_R; k += LIFE_T3_R > 1u ? LIFE_T3_R - 1u : 1u) {
            ls_u32 next =
                life_t3_row(c, s0[g], s1[g], k, &win[g][ia], &win[g][ib], &win[g][ic], &pair[g], odd, inside[g]);
            if (g + 1u < LIFE_T3_D)
                in[g + 1u][k] = next;
            else
                out[k] = next;
        }
    }
}

/* The next plane of a wrapped plane index. */
LS_DEVICE ls_u32 life_t3_next_plane(ls_u32 z, ls_u32 nz)
{
    return z + 1u == nz ? 0u : z + 1u;
}

/* Plane z of a grid (planes of pb bytes), as bytes: a row's word is
 * `rowoff` bytes on. */
LS_DEVICE const LS_GLOBAL ls_u8 *life_t3_plane_at(const LS_GLOBAL ls_u32 *grid, ls_u32 z, ls_u64 pb)
{
    return (const LS_GLOBAL ls_u8 *)grid + z * pb;
}

/* Group = (tile of rows, segment of `seg` planes): tile t % tiles, segment
 * t / tiles. Every work-item of a group takes every step (the barriers
 * and shuffles need them all); lanes past the row's words hold copies of
 * its first words and store nothing. The wide walk (`wide`, rows of 33 to
 * LIFE_GPU_3D_WIDE_WORDS words) has LIFE_GPU_3D_WIDE_PIECES warps side by
 * side on each of its LIFE_GPU_3D_WIDE_TILE_ROWS / LIFE_GPU_3D_ROWS bands
 * of rows: warp w holds words 32 (w % pieces) on of band w / pieces. */
LS_DEVICE void life_t3_walk(const LS_GLOBAL ls_u32 *src, LS_GLOBAL ls_u32 *dst, ls_u32 row_words, ls_u32 ny, ls_u32 nz,
                            ls_u32 last_bits, ls_u32 seg, ls_u32 tiles, life_rule r, int b6s567, int aligned,
                            int bounded, int wide, LS_LOCAL ls_u32 *words)
{
    /* The ring and ls_shuffle's buffer share their place: no device uses
     * both (LIFE_GPU_3D_LOCAL_WORDS). The wide walk: the halo's one set,
     * the rows' words, the ring (LIFE_GPU_3D_WIDE_LOCAL_WORDS). */
    ls_u32 halo_words = wide ? LIFE_GPU_3D_WIDE_HALO_WORDS : LIFE_GPU_3D_HALO_WORDS;
    LS_LOCAL ls_u32 *halo = words, *ring = words + halo_words, *buf = ring, *rows = ring;
    if (wide)
        ring = rows + LIFE_GPU_3D_WIDE_ROW_WORDS;
    ls_u32 pieces = wide ? LIFE_GPU_3D_WIDE_PIECES : 1u, bands = LIFE_T3_W / pieces;
    ls_u32 tile_out = wide ? LIFE_GPU_3D_WIDE_TILE_OUT : LIFE_GPU_3D_TILE_OUT;
    life_t3 c;
    ls_u32 lid = ls_lid();
    c.lane = lid % 32u;
    c.warp = lid / 32u;
    ls_u32 band = c.warp / pieces, piece = c.warp % pieces;
    c.up = (band + bands - 1u) % bands * pieces + piece;
    c.dn = (band + 1u) % bands * pieces + piece;
    c.nz = nz;
    c.r = r;
    c.b6s567 = b6s567;
    c.aligned = aligned;
    c.bounded = bounded;
    c.wide = wide;
    ls_u32 u = piece * 32u + c.lane; /* the word it holds, before wrapping */
    c.mine = u < row_words;
    c.x = life_xwrap_make(u % row_words, row_words, last_bits);
    rows += band * LIFE_T3_R * LIFE_GPU_3D_WIDE_WORDS;
    ls_u64 group = ls_group();
    ls_u32 tile = (ls_u32)(group % tiles), z0 = (ls_u32)(group / tiles) * seg;
    ls_u32 zend = z0 + seg < nz ? z0 + seg : nz;
    /* The tile's first stored row y0: its row i is row y0 - DEPTH + i. */
    ls_u32 stored = tile_out < ny ? tile_out : ny;
    ls_u32 y0 = tile * tile_out;
    if (y0 > ny - stored)
        y0 = ny - stored;
    ls_u32 rb = row_words * 4u;
    c.store = 0u;
#pragma unroll
    for (ls_u32 k = 0; k < LIFE_T3_R; k++) {
        ls_u32 i = band * LIFE_T3_R + k;
        c.rowoff[k] = (y0 + i + ny - LIFE_T3_D % ny) % ny * rb + c.x.j * 4u;
        c.rowkeep[k] = y0 + i - LIFE_T3_D < ny ? 0xffffffffu : 0u;
        if (c.mine && i >= LIFE_T3_D && i - LIFE_T3_D < stored)
            c.store |= 1u << k;
    }
    ls_u64 pb = (ls_u64)rb * ny;
    ls_u32 in[LIFE_T3_D][LIFE_T3_R], out[LIFE_T3_R];
    life_t3_plane win[LIFE_T3_D][4];
    life_t3_pair pair[LIFE_T3_D];
#pragma unroll
    for (ls_u32 g = 0; g < LIFE_T3_D; g++)
#pragma unroll
        for (ls_u32 k = 0; k < LIFE_T3_R; k++) {
            in[g][k] = 0u;
            pair[g].a[k] = 0u;
            pair[g].h[k] = 0u;
            pair[g].H[k] = 0u;
            for (ls_u32 p = 0; p < 4u; p++) {
                win[g][p].self[k] = 0u;
                for (ls_u32 b = 0; b < 4u; b++)
                    win[g][p].s[k][b] = 0u;
            }
        }
    ls_u32 q = z0 - LIFE_T3_D;                         /* the plane read, unwrapped */
    ls_u32 zr = (z0 + nz - LIFE_T3_D % nz) % nz;       /* the same, wrapped */
    ls_u32 steps = zend - z0 + 3u * LIFE_T3_D - 1u;
#ifdef LIFE_T3_RING
    /* Plane za goes into slot `slot` of the ring, STAGES steps ahead. */
    ls_u32 za = zr, slot = 0u;
    for (ls_u32 p = 0; p < LIFE_GPU_3D_STAGES; p++) {
        const LS_GLOBAL ls_u8 *plane = life_t3_plane_at(src, za, pb);
#pragma unroll
        for (ls_u32 k = 0; k < LIFE_T3_R; k++)
            ls_copy_async(ring + (p * LIFE_T3_ROWS + c.warp * LIFE_T3_R + k) * 32u + c.lane,
                          (const LS_GLOBAL ls_u32 *)(plane + c.rowoff[k]));
        ls_copy_commit();
        za = life_t3_next_plane(za, nz);
    }
#define LIFE_T3_READ()                                                                                             \
    ls_copy_wait(LIFE_GPU_3D_STAGES - 1u);                                                                         \
    for (ls_u32 k = 0; k < LIFE_T3_R; k++)                                                                         \
        in[0][k] = ring[(slot * LIFE_T3_ROWS + c.warp * LIFE_T3_R + k) * 32u + c.lane];
#define LIFE_T3_AHEAD()                                                                                            \
    {                                                                                                              \
        const LS_GLOBAL ls_u8 *plane = life_t3_plane_at(src, za, pb);                                              \
        for (ls_u32 k = 0; k < LIFE_T3_R; k++)                                                                     \
            ls_copy_async(ring + (slot * LIFE_T3_ROWS + c.warp * LIFE_T3_R + k) * 32u + c.lane,                   \
                          (const LS_GLOBAL ls_u32 *)(plane + c.rowoff[k]));                                        \
    }                                                                                                              \
    ls_copy_commit();                                                                                              \
    za = life_t3_next_plane(za, nz);                                                                               \
    slot = slot + 1u == LIFE_GPU_3D_STAGES ? 0u : slot + 1u;
#else
    ls_u32 ahead[LIFE_T3_R]; /* plane zr's words */
    const LS_GLOBAL ls_u8 *first = life_t3_plane_at(src, zr, pb);
#pragma unroll
    for (ls_u32 k = 0; k < LIFE_T3_R; k++)
        ahead[k] = *(const LS_GLOBAL ls_u32 *)(first + c.rowoff[k]);
#define LIFE_T3_READ()                                                                                             \
    zr = life_t3_next_plane(zr, nz);                                                                               \
    {                                                                                                              \
        const LS_GLOBAL ls_u8 *plane = life_t3_plane_at(src, zr, pb);                                              \
        for (ls_u32 k = 0; k < LIFE_T3_R; k++) {                                                                   \
            in[0][k] = ahead[k];                                                                                   \
            ahead[k] = *(const LS_GLOBAL ls_u32 *)(plane + c.rowoff[k]);                                           \
        }                                                                                                          \
    }
#define LIFE_T3_AHEAD()
#endif
    /* The window's four planes in turn, unrolled four times so that no
     * sum is copied: a step's new plane goes into the slot of the plane
     * two before it, which the pair (the two after) leaves unused. The
     * halo's sets alternate with the steps. Stores of plane
     * o = q - 2 DEPTH + 1, the last level's, once it is the segment's
     * (o - z0 wraps to a huge number before). */
#define LIFE_T3_STEP(ia, ib, ic, odd)                                                                              \
    {                                                                                                              \
        LIFE_T3_READ()                                                                                             \
        if (bounded) {                                                                                             \
            ls_u32 plane_in = q < nz ? 0xffffffffu : 0u;                                                           \
            for (ls_u32 k = 0; k < LIFE_T3_R; k++)                                                                 \
                in[0][k] &= c.rowkeep[k] & plane_in;                                                               \
        }                                                                                                          \
        life_t3_step(&c, in, win, pair, ia, ib, ic, odd, q, halo + (wide ? 0u : (odd) * LIFE_T3_HALO_SET), rows,  \
                     buf, out);                                                                                    \
        LIFE_T3_AHEAD()                                                                                            \
        ls_u32 o = q - 2u * LIFE_T3_D + 1u;                                                                        \
        if (o - z0 < zend - z0) {                                                                                  \
            LS_GLOBAL ls_u8 *plane = (LS_GLOBAL ls_u8 *)dst + o * pb; /* o < nz: not wrapped */                    \
            for (ls_u32 k = 0; k < LIFE_T3_R; k++)                                                                 \
                if (c.store >> k & 1u)                                                                             \
                    *(LS_GLOBAL ls_u32 *)(plane + c.rowoff[k]) = out[k];                                           \
        }                                                                                                          \
        q++;                                                                                                       \
    }
    for (ls_u32 s = 0; s < steps; s += 4u) {
        LIFE_T3_STEP(0u, 1u, 2u, 0)
        LIFE_T3_STEP(1u, 2u, 3u, 1)
        LIFE_T3_STEP(2u, 3u, 0u, 0)
        LIFE_T3_STEP(3u, 0u, 1u, 1)
    }
#undef LIFE_T3_STEP
#undef LIFE_T3_READ
#undef LIFE_T3_AHEAD
#ifdef LIFE_T3_RING
    ls_copy_wait(0u); /* no copy outlives the group's local memory */
#endif
}

/* ---- entry points -------------------------------------------------------- */

/* `items` work-items: row_words * ceil(ny / seg) in 2D, row_words *
 * ceil(ny / LIFE_GPU_3D_ROWS) * ceil(nz / seg) in 3D (the driver keeps it below
 * 2^32). birth and survive are ignored by the kernels with a fixed rule. */
#define LIFE_KERNEL_2D(name, aligned, bounded, birth_c, survive_c)                                                \
    LS_KERNEL void name(const LS_GLOBAL ls_u32 *LS_RESTRICT src, LS_GLOBAL ls_u32 *LS_RESTRICT dst, ls_u32 row_words, ls_u32 ny,           \
                        ls_u32 last_bits, ls_u32 seg, ls_u32 items, ls_u32 birth, ls_u32 survive)                \
    {                                                                                                             \
        life_rule r;                                                                                              \
        r.birth = birth_c;                                                                                        \
        r.survive = survive_c;                                                                                    \
        life_2d(src, dst, row_words, ny, last_bits, seg, items, r, aligned, bounded);                             \
    }
/* As LIFE_KERNEL_2D, two generations: src to dst, through registers. */
#define LIFE_KERNEL_2D_TWO(name, aligned, bounded, birth_c, survive_c)                                            \
    LS_KERNEL LS_MAX_GROUP(256) void name(const LS_GLOBAL ls_u32 *LS_RESTRICT src, LS_GLOBAL ls_u32 *LS_RESTRICT dst,   \
                                          ls_u32 row_words, ls_u32 ny, ls_u32 last_bits, ls_u32 seg, ls_u32 items, \
                                          ls_u32 birth, ls_u32 survive)                                            \
    {                                                                                                             \
        LS_EXCHANGE_BUF(buf, 1u);                                                                                 \
        life_rule r;                                                                                              \
        r.birth = birth_c;                                                                                        \
        r.survive = survive_c;                                                                                    \
        life_2d_two(src, dst, row_words, ny, last_bits, seg, items, r, aligned, bounded, buf);                    \
    }
/* As LIFE_KERNEL_2D_TWO, LIFE_2D_GENS generations; `margin` lanes at each
 * end of a run store nothing (life_2d_many); b3s23: the rule is B3/S23.
 * Two groups a compute unit: left alone, nvcc gives the walk 147
 * registers and the H200 one group of 8 warps, and 65536^2 x 1024 took
 * 141.9 ms; capped at 128 (a few words spilled) 120.5 ms
 * (docs/perf/2026-11-24-h200-life2d-pairs.log). */
#define LIFE_KERNEL_2D_MANY(name, aligned, bounded, b3s23, birth_c, survive_c)                                         \
    LS_KERNEL LS_MAX_GROUP_FIT(256, 2) void name(const LS_GLOBAL ls_u32 *LS_RESTRICT src, LS_GLOBAL ls_u32 *LS_RESTRICT dst,   \
                                          ls_u32 row_words, ls_u32 ny, ls_u32 last_bits, ls_u32 seg, ls_u32 items, \
                                          ls_u32 birth, ls_u32 survive, ls_u32 margin)                            \
    {                                                                                                             \
        LS_EXCHANGE_BUF(buf, 1u);                                                                                 \
        life_rule r;                                                                                              \
        r.birth = birth_c;                                                                                        \
        r.survive = survive_c;                                                                                    \
        life_2d_many(src, dst, row_words, ny, last_bits, seg, items, margin, r, b3s23, aligned, bounded, buf);    \
    }
/* As LIFE_KERNEL_2D_MANY, LIFE_GROUP_2D_GENS generations for the group
 * shape (life_g2_walk): groups of LIFE_GROUP_2D_ITEMS work-items, `runs`
 * runs a row band, and LIFE_GROUP_2D_LOCAL_WORDS of local memory, given
 * by the launch (as the 3D tile walk's, below). */
#define LIFE_KERNEL_2D_GROUP(name, aligned, bounded, b3s23, birth_c, survive_c)                                   \
    LS_KERNEL LS_MAX_GROUP(LIFE_GROUP_2D_ITEMS) void name(                                                        \
        const LS_GLOBAL ls_u32 *LS_RESTRICT src, LS_GLOBAL ls_u32 *LS_RESTRICT dst, ls_u32 row_words, ls_u32 ny,  \
        ls_u32 last_bits, ls_u32 seg, ls_u32 runs, ls_u32 birth, ls_u32 survive,                                  \
        ls_u32 margin LS_DYNAMIC_LOCAL_PARAM(ls_u32, ring))                                                       \
    {                                                                                                             \
        LS_DYNAMIC_LOCAL(ls_u32, ring);                                                                           \
        life_rule r;                                                                                              \
        r.birth = birth_c;                                                                                        \
        r.survive = survive_c;                                                                                    \
        life_g2_walk(src, dst, row_words, ny, last_bits, seg, runs, margin, r, b3s23, aligned, bounded, ring);    \
    }
#define LIFE_KERNEL_3D(name, aligned, bounded, b6s567, birth_c, survive_c)                                        \
    LS_KERNEL void name(const LS_GLOBAL ls_u32 *LS_RESTRICT src, LS_GLOBAL ls_u32 *LS_RESTRICT dst, ls_u32 row_words, ls_u32 ny, ls_u32 nz, \
                        ls_u32 last_bits, ls_u32 seg, ls_u32 items, ls_u32 birth, ls_u32 survive)                \
    {                                                                                                             \
        life_rule r;                                                                                              \
        r.birth = birth_c;                                                                                        \
        r.survive = survive_c;                                                                                    \
        life_3d(src, dst, row_words, ny, nz, last_bits, seg, items, r, b6s567, aligned, bounded);                 \
    }
/* As LIFE_KERNEL_3D, LIFE_GPU_3D_DEPTH generations: groups of
 * LIFE_T3_GROUP work-items, `tiles` tiles a segment (life_t3_walk), and
 * LIFE_GPU_3D_LOCAL_WORDS of local memory. Local memory a launch gives,
 * not arrays of the kernel: Oclgrind counts every such array of a
 * program against each of its kernels. Built at depth 1 too, where the
 * driver runs life_3d instead. */
#define LIFE_KERNEL_3D_TILE(name, aligned, bounded, b6s567, wide, birth_c, survive_c)                             \
    LS_KERNEL LS_MAX_GROUP_FIT(LIFE_T3_GROUP, LIFE_T3_FIT) void name(                                             \
        const LS_GLOBAL ls_u32 *LS_RESTRICT src, LS_GLOBAL ls_u32 *LS_RESTRICT dst, ls_u32 row_words, ls_u32 ny,  \
        ls_u32 nz, ls_u32 last_bits, ls_u32 seg, ls_u32 tiles, ls_u32 birth,                                      \
        ls_u32 survive LS_DYNAMIC_LOCAL_PARAM(ls_u32, words))                                                     \
    {                                                                                                             \
        LS_DYNAMIC_LOCAL(ls_u32, words);                                                                          \
        life_rule r;                                                                                              \
        r.birth = birth_c;                                                                                        \
        r.survive = survive_c;                                                                                    \
        life_t3_walk(src, dst, row_words, ny, nz, last_bits, seg, tiles, r, b6s567, aligned, bounded, wide, words); \
    }

#else /* LS_SHAPE == LS_SHAPE_CPU */

/* ---- kernels shaped for CPU OpenCL devices ---------------------------------
 *
 * A CPU implementation of OpenCL (PoCL, Intel's CPU runtime) runs a group
 * as a loop over its work-items on one core, and vectorizes that loop at
 * best where the kernel is straight-line code: a walk down a grid is a
 * loop in each work-item, which defeated both (one word a work-item, the
 * kernels above: PoCL ran the walk of one generation several times slower
 * than OpenMP, docs/perf/2026-11-28-cpu-life-shape.log), and an exchange between work-items is a barrier, which
 * splits the loop and sends every work-item's state through memory. So
 * here a work-item owns a run of LIFE_CPU_LANES consecutive words of a
 * row (`run`, an OpenCL vector: life_word) and walks it along the slowest
 * axis as the kernels above walk a word, one generation a launch: a row's
 * x sum takes the run's west and east neighbour words from unaligned loads
 * one word before and after it (cache, where a GPU exchanges registers),
 * so every operation of src/algo/life.h is one vector instruction for the
 * run, and no work-item waits for another.
 *
 * A row holds ceil(row_words / LIFE_CPU_LANES) runs, the last moved back
 * to end at the row's last word where the lanes do not divide the row
 * (two work-items then store the same words, with the same values; the
 * driver chooses lanes no wider than a row). The runs at a row's ends take
 * the word beyond from the row's other end by moving their own words a lane
 * (life_cpu_xsum), as life_raw_sum's x seam does for one word.
 *
 * Loads and stores are of a vector type aligned to a word (a run starts at
 * any word): PoCL 3.1 made vload16 and vstore16 of pieces, and shuffle2 of
 * one lane at a time, where a plain unaligned access is one instruction. */

#if LIFE_CPU_LANES > 1
typedef uint life_cpu_unaligned __attribute__((ext_vector_type(LIFE_CPU_LANES), aligned(4)));
#define LIFE_CPU_LOAD(p) (*(const LS_GLOBAL life_cpu_unaligned *)(p))
#define LIFE_CPU_STORE(p, v) (*(LS_GLOBAL life_cpu_unaligned *)(p) = (v))
#else
#define LIFE_CPU_LOAD(p) (*(p))
#define LIFE_CPU_STORE(p, v) (*(p) = (v))
#endif
/* A run's words moved up a lane with x in lane 0, (x, v0 .. v[L-2]), and
 * down a lane with x in the last, (v1 .. v[L-1], x). */
#if LIFE_CPU_LANES == 16
#define LIFE_CPU_UP(v, x) ((life_word)((x), (v).s0123, (v).s4567, (v).s89ab, (v).scde))
#define LIFE_CPU_DOWN(v, x) ((life_word)((v).s1234, (v).s5678, (v).s9abc, (v).sdef, (x)))
#elif LIFE_CPU_LANES == 8
#define LIFE_CPU_UP(v, x) ((life_word)((x), (v).s0123, (v).s456))
#define LIFE_CPU_DOWN(v, x) ((life_word)((v).s1234, (v).s567, (x)))
#elif LIFE_CPU_LANES == 4
#define LIFE_CPU_UP(v, x) ((life_word)((x), (v).s012))
#define LIFE_CPU_DOWN(v, x) ((life_word)((v).s123, (x)))
#elif LIFE_CPU_LANES == 2
#define LIFE_CPU_UP(v, x) ((life_word)((x), (v).s0))
#define LIFE_CPU_DOWN(v, x) ((life_word)((v).s1, (x)))
#else
#define LIFE_CPU_UP(v, x) ((void)(v), (life_word)(x))
#define LIFE_CPU_DOWN(v, x) ((void)(v), (life_word)(x))
#endif

/* A work-item's run of a row and its constants for the x seam. */
typedef struct life_cpu_run {
    ls_u32 j0;          /* its first word */
    int first, last;    /* it holds the row's first (last) word */
    ls_u32 west_shift;  /* moves the row's last cell to bit 31: 32 - last_bits */
    ls_u32 last_bits;   /* cells in the row's last word */
    life_word keep;     /* the cells of its words: the last word's padding masked */
} life_cpu_run;

/* Run k of rows of row_words words (at least LIFE_CPU_LANES). */
LS_DEVICE life_cpu_run life_cpu_run_make(ls_u32 k, ls_u32 row_words, ls_u32 last_bits)
{
    life_cpu_run x;
    ls_u32 j0 = k * LIFE_CPU_LANES;
    x.j0 = j0 + LIFE_CPU_LANES > row_words ? row_words - LIFE_CPU_LANES : j0;
    x.first = x.j0 == 0u;
    x.last = x.j0 + LIFE_CPU_LANES == row_words;
    x.west_shift = 32u - last_bits;
    x.last_bits = last_bits;
    x.keep = x.last ? LIFE_CPU_DOWN((life_word)0xffffffffu, life_valid_mask(last_bits)) : (life_word)0xffffffffu;
    return x;
}

/* The x sum (s0 + 2 s1) of the run x of `row`, and its words. On a bounded
 * plane the words beyond the row's ends are dead; a row beyond the y or z
 * edges (`outside`) is all dead. On a torus the first run's west word is
 * the row's last, its last cell moved up to bit 31, and in a row whose
 * last word is short the row's first cell is put just above the last one
 * (a padding bit) before the east shift, as life_raw_sum does. */
LS_DEVICE void life_cpu_xsum(const LS_GLOBAL ls_u32 *row, const life_cpu_run *x, ls_u32 row_words, int aligned,
                             int bounded, int outside, life_word *s0, life_word *s1, life_word *self)
{
    if (bounded && outside) {
        *s0 = (life_word)0u;
        *s1 = (life_word)0u;
        *self = (life_word)0u;
        return;
    }
    life_word w = LIFE_CPU_LOAD(row + x->j0), we = w, wm, wp;
    if (x->first)
        wm = LIFE_CPU_UP(w, bounded ? 0u : row[row_words - 1u] << x->west_shift);
    else
        wm = LIFE_CPU_LOAD(row + x->j0 - 1u);
    if (x->last) {
        ls_u32 first_word = bounded ? 0u : row[0];
        wp = LIFE_CPU_DOWN(w, first_word);
        if (!aligned) /* a 64-bit shift: by 32 (a full last word) it is none */
            we = w | LIFE_CPU_DOWN((life_word)0u, (ls_u32)((ls_u64)first_word << x->last_bits));
    } else {
        wp = LIFE_CPU_LOAD(row + x->j0 + 1u);
    }
    life_row_sum(life_west(w, wm), w, life_east(we, wp), s0, s1);
    *self = w;
}

/* ---- 2D, CPU: work-item = (run, segment of `seg` rows) --------------------
 *
 * Two rows a step, as life_2dm_step: under B3/S23 (b3s23) the two output
 * rows share the sum of the two rows they have in common (life_pair_sum,
 * life_next_b3s23_pair, whose gates AVX-512's three-input logic runs as
 * one instruction each). */

LS_DEVICE void life_cpu_2d_walk(const LS_GLOBAL ls_u32 *src, LS_GLOBAL ls_u32 *dst, ls_u32 row_words, ls_u32 ny,
                                ls_u32 last_bits, ls_u32 seg, ls_u32 items, life_rule r, int b3s23, int aligned,
                                int bounded)
{
    ls_u64 t = ls_gid();
    if (t >= items)
        return;
    ls_u32 runs = (row_words + LIFE_CPU_LANES - 1u) / LIFE_CPU_LANES;
    life_cpu_run x = life_cpu_run_make((ls_u32)t % runs, row_words, last_bits);
    ls_u32 y = (ls_u32)t / runs * seg;
    ls_u32 yend = y + seg < ny ? y + seg : ny;
    /* The x sums of rows y - 1 (a) and y (b), and of the two read each
     * step, y + 1 (c) and y + 2 (d), wrapped; on a bounded plane rows -1
     * and ny and beyond are dead. */
    life_word a0, a1, aw, b0, b1, bw, c0, c1, cw, d0, d1, dw;
    life_cpu_xsum(src + (ls_u64)(y == 0u ? ny - 1u : y - 1u) * row_words, &x, row_words, aligned, bounded, y == 0u,
                  &a0, &a1, &aw);
    life_cpu_xsum(src + (ls_u64)y * row_words, &x, row_words, aligned, bounded, 0, &b0, &b1, &bw);
    for (; y < yend; y += 2u) {
        ls_u32 y1 = y + 1u == ny ? 0u : y + 1u, y2 = y1 + 1u == ny ? 0u : y1 + 1u;
        life_cpu_xsum(src + (ls_u64)y1 * row_words, &x, row_words, aligned, bounded, y + 1u >= ny, &c0, &c1, &cw);
        life_cpu_xsum(src + (ls_u64)y2 * row_words, &x, row_words, aligned, bounded, y + 2u >= ny, &d0, &d1, &dw);
        life_word next0, next1;
        if (b3s23) {
            life_word e0, e1, e2;
            life_pair_sum(b0, b1, c0, c1, &e0, &e1, &e2);
            next0 = life_next_b3s23_pair(e0, e1, e2, a0, a1, bw);
            next1 = life_next_b3s23_pair(e0, e1, e2, d0, d1, cw);
        } else {
            next0 = life_next_2d(r, a0, a1, b0, b1, c0, c1, bw);
            next1 = life_next_2d(r, b0, b1, c0, c1, d0, d1, cw);
        }
        if (!aligned) { /* aligned: no padding, keep is all ones */
            next0 &= x.keep;
            next1 &= x.keep;
        }
        LIFE_CPU_STORE(dst + (ls_u64)y * row_words + x.j0, next0);
        if (y + 1u < yend)
            LIFE_CPU_STORE(dst + (ls_u64)(y + 1u) * row_words + x.j0, next1);
        a0 = c0;
        a1 = c1;
        b0 = d0;
        b1 = d1;
        bw = dw;
    }
}

/* ---- 2D, CPU, LIFE_CPU_2D_GENS generations a launch ------------------------
 *
 * Temporal blocking, as life_2d_many on GPUs: a grid larger than the
 * caches crosses the memory bus once a generation in the walk above, and
 * a generation of it took several times the CPU time of one that fits in
 * L2 (docs/perf/2026-11-28-cpu-life-shape.log). Here a work-item's run of LIFE_CPU_LANES words walks down
 * its segment through LIFE_CPU_2D_GENS levels, each making the next
 * generation of the rows the level before made (life_2dm_step's
 * pipeline), keeping each level's last two x sums; only generation 0 is
 * read and only the last stored. No word beside the run is read: a level
 * takes a row's west and east neighbours from its own lanes, moved a lane
 * (LIFE_CPU_UP, LIFE_CPU_DOWN), and the run's first and last lanes take
 * zeros for the words beyond. That makes wrong cells at the run's ends,
 * one more cell inward a generation, so after LIFE_CPU_2D_GENS (at most
 * 32) only those two lanes are wrong: a run stores the LIFE_CPU_LANES - 2
 * words between, runs of a row overlap by two words (the last moved back
 * to end with the row), and a run at the row's start or end holds the
 * words across the torus seam (the row's last word, then its first). For
 * tori of rows of whole words (no padding, no seam inside a word) of at
 * least LIFE_CPU_LANES words; other grids take the walk above.
 *
 * A segment of seg output rows reads seg + 2 LIFE_CPU_2D_GENS rows from
 * LIFE_CPU_2D_GENS rows above it: the levels start from zeros, and what
 * the first rows make is not stored. */

#if LIFE_CPU_LANES == 16
#if LIFE_CPU_2D_GENS < 1 || LIFE_CPU_2D_GENS > 32
#error "LIFE_CPU_2D_GENS must be 1..32: a run's end lanes absorb one wrong cell a generation"
#endif
typedef uint life_cpu_unaligned8 __attribute__((ext_vector_type(8), aligned(4)));
typedef uint life_cpu_unaligned4 __attribute__((ext_vector_type(4), aligned(4)));
typedef uint life_cpu_unaligned2 __attribute__((ext_vector_type(2), aligned(4)));

/* A row's x sum and words at one level of the walk. */
typedef struct life_cpu_row {
    life_word s0, s1, self;
} life_cpu_row;

/* The x sum of a run whose end lanes need no true neighbour: the run's
 * words rotated a lane (its last word beyond the first, its first beyond
 * the last), one instruction (valignd) on AVX-512, where moving in a zero
 * took a vpexpandd, which Zen 4 runs slowly enough to slow the whole walk
 * (docs/perf/2026-11-28-cpu-life-shape.log). */
LS_DEVICE life_cpu_row life_cpu_lane_xsum(life_word w)
{
    life_cpu_row x;
    life_row_sum(life_west(w, LIFE_CPU_UP(w, w.sf)), w, life_east(w, LIFE_CPU_DOWN(w, w.s0)), &x.s0, &x.s1);
    x.self = w;
    return x;
}

/* Lanes 1 .. 14 of w, to p: three stores (a vector of 14 has none). */
LS_DEVICE void life_cpu_store_inner(LS_GLOBAL ls_u32 *p, life_word w)
{
    *(LS_GLOBAL life_cpu_unaligned8 *)p = w.s12345678;
    *(LS_GLOBAL life_cpu_unaligned4 *)(p + 8) = w.s9abc;
    *(LS_GLOBAL life_cpu_unaligned2 *)(p + 12) = w.sde;
}

/* Words v0 - 1 .. v0 + LIFE_CPU_LANES - 2 of a row of row_words words,
 * wrapped around it (first: v0 is 0; last: the run ends at word row_words,
 * the row's first). */
LS_DEVICE life_word life_cpu_many_read(const LS_GLOBAL ls_u32 *row, ls_u32 v0, ls_u32 row_words, int first,
                                       int last)
{
    if (first)
        return LIFE_CPU_UP(LIFE_CPU_LOAD(row), row[row_words - 1u]);
    if (last)
        return LIFE_CPU_DOWN(LIFE_CPU_LOAD(row + v0 - 2u), row[0]);
    return LIFE_CPU_LOAD(row + v0 - 1u);
}

/* One step: level k takes the two rows level k - 1 made the step before
 * (in[k]; in[0] the rows read), with its window win[k] of the x sums of
 * the two rows before them, and makes the next generation of the rows
 * above them (life_2dm_step's rows) into in[k + 1], or from the last level
 * into *out0 and *out1. Levels go from the last down, so that each takes
 * its rows before the level below replaces them: within a step no level
 * waits for another, where handing a row down every level in the same
 * step made one chain of dependent operations through all levels, and
 * the walk took twice the time a generation of the walk above
 * (docs/perf/2026-11-28-cpu-life-shape.log). */
LS_DEVICE void life_cpu_many_step(life_word in[LIFE_CPU_2D_GENS][2], life_cpu_row win[LIFE_CPU_2D_GENS][2],
                                  life_word *out0, life_word *out1, life_rule r, int b3s23)
{
#pragma unroll
    for (ls_u32 l = 0; l < LIFE_CPU_2D_GENS; l++) {
        ls_u32 k = LIFE_CPU_2D_GENS - 1u - l;
        life_cpu_row a = win[k][0], b = win[k][1];
        life_cpu_row c = life_cpu_lane_xsum(in[k][0]), d = life_cpu_lane_xsum(in[k][1]);
        life_word w0, w1;
        if (b3s23) {
            life_word e0, e1, e2;
            life_pair_sum(b.s0, b.s1, c.s0, c.s1, &e0, &e1, &e2);
            w0 = life_next_b3s23_pair(e0, e1, e2, a.s0, a.s1, b.self);
            w1 = life_next_b3s23_pair(e0, e1, e2, d.s0, d.s1, c.self);
        } else {
            w0 = life_next_2d(r, a.s0, a.s1, b.s0, b.s1, c.s0, c.s1, b.self);
            w1 = life_next_2d(r, b.s0, b.s1, c.s0, c.s1, d.s0, d.s1, c.self);
        }
        win[k][0] = c;
        win[k][1] = d;
        if (k + 1u < LIFE_CPU_2D_GENS) {
            in[k + 1u][0] = w0;
            in[k + 1u][1] = w1;
        } else {
            *out0 = w0;
            *out1 = w1;
        }
    }
}

/* Work-item t: run t % runs of its row (runs of LIFE_CPU_LANES - 2 stored
 * words) through segment t / runs of `seg` rows. Rows reach level k
 * k steps after they are read, two rows a step: a step reads rows row0
 * and row0 + 1 (row0 = y - LIFE_CPU_2D_GENS + s) and stores generation
 * LIFE_CPU_2D_GENS of the two rows LIFE_CPU_2D_GENS above those read
 * LIFE_CPU_2D_GENS - 1 steps before, rows row0 - LIFE_CPU_LAG and the next. */
#define LIFE_CPU_LAG (3u * LIFE_CPU_2D_GENS - 2u)
LS_DEVICE void life_cpu_many_walk(const LS_GLOBAL ls_u32 *src, LS_GLOBAL ls_u32 *dst, ls_u32 row_words, ls_u32 ny,
                                  ls_u32 seg, ls_u32 items, life_rule r, int b3s23)
{
    ls_u64 t = ls_gid();
    if (t >= items)
        return;
    ls_u32 width = LIFE_CPU_LANES - 2u, runs = (row_words + width - 1u) / width;
    ls_u32 v0 = (ls_u32)t % runs * width; /* its first stored word */
    if (v0 > row_words - width)
        v0 = row_words - width;
    int first = v0 == 0u, last = v0 + width == row_words;
    ls_u32 y = (ls_u32)t / runs * seg;
    ls_u32 yend = y + seg < ny ? y + seg : ny;
    life_cpu_row win[LIFE_CPU_2D_GENS][2];
    life_word in[LIFE_CPU_2D_GENS][2];
#pragma unroll
    for (ls_u32 k = 0; k < LIFE_CPU_2D_GENS; k++)
        for (ls_u32 i = 0; i < 2u; i++) {
            win[k][i].s0 = (life_word)0u;
            win[k][i].s1 = (life_word)0u;
            win[k][i].self = (life_word)0u;
            in[k][i] = (life_word)0u;
        }
    /* Row y - LIFE_CPU_2D_GENS, wrapped (as often as a short grid needs):
     * the first read. */
    ls_u32 yr = (y + ny - LIFE_CPU_2D_GENS % ny) % ny;
    ls_u32 steps = seg + LIFE_CPU_2D_GENS + LIFE_CPU_LAG;
    /* Each step's two rows are read one step ahead. */
    life_word nw0 = life_cpu_many_read(src + (ls_u64)yr * row_words, v0, row_words, first, last);
    yr = yr + 1u == ny ? 0u : yr + 1u;
    life_word nw1 = life_cpu_many_read(src + (ls_u64)yr * row_words, v0, row_words, first, last);
    yr = yr + 1u == ny ? 0u : yr + 1u;
    for (ls_u32 s = 0; s < steps; s += 2u) {
        in[0][0] = nw0;
        in[0][1] = nw1;
        nw0 = life_cpu_many_read(src + (ls_u64)yr * row_words, v0, row_words, first, last);
        yr = yr + 1u == ny ? 0u : yr + 1u;
        nw1 = life_cpu_many_read(src + (ls_u64)yr * row_words, v0, row_words, first, last);
        yr = yr + 1u == ny ? 0u : yr + 1u;
        life_word out0, out1;
        life_cpu_many_step(in, win, &out0, &out1, r, b3s23);
        /* The first output row, huge before the segment. */
        ls_u32 yo = y - LIFE_CPU_2D_GENS - LIFE_CPU_LAG + s;
        if (s >= LIFE_CPU_2D_GENS + LIFE_CPU_LAG && yo < yend)
            life_cpu_store_inner(dst + (ls_u64)yo * row_words + v0, out0);
        if (s + 1u >= LIFE_CPU_2D_GENS + LIFE_CPU_LAG && yo + 1u < yend)
            life_cpu_store_inner(dst + (ls_u64)(yo + 1u) * row_words + v0, out1);
    }
}
#endif

/* ---- 3D, CPU: work-item = (run, LIFE_CPU_3D_ROWS rows, segment of planes) -- */

#define LIFE_CPU_R LIFE_CPU_3D_ROWS

/* The 3x3 sums (four bit-planes, or for b6s567 the redundant form) of a
 * work-item's rows in one plane, and their words. */
typedef struct life_cpu_plane {
    life_word s[LIFE_CPU_R][4];
    life_word self[LIFE_CPU_R];
} life_cpu_plane;

/* The window entry of the plane at `plane`: its rows ys[k] (row y0 - 1 + k,
 * wrapped; beyond the y edges where yout[k]); `zout`: the plane is beyond
 * the z edges. */
LS_DEVICE void life_cpu_3d_sums(const LS_GLOBAL ls_u32 *plane, const ls_u32 *ys, const int *yout, int zout,
                                ls_u32 row_words, const life_cpu_run *x, int aligned, int bounded, int b6s567,
                                life_cpu_plane *p)
{
    life_word s0[LIFE_CPU_R + 2u], s1[LIFE_CPU_R + 2u], c[LIFE_CPU_R + 2u];
#pragma unroll
    for (ls_u32 k = 0; k < LIFE_CPU_R + 2u; k++)
        life_cpu_xsum(plane + (ls_u64)ys[k] * row_words, x, row_words, aligned, bounded, zout || yout[k], &s0[k],
                      &s1[k], &c[k]);
#pragma unroll
    for (ls_u32 k = 0; k < LIFE_CPU_R; k++) {
        if (b6s567)
            life_plane_sum_redundant(s0[k], s1[k], s0[k + 1u], s1[k + 1u], s0[k + 2u], s1[k + 2u], &p->s[k][0],
                                     &p->s[k][1], &p->s[k][2], &p->s[k][3]);
        else
            life_plane_sum(s0[k], s1[k], s0[k + 1u], s1[k + 1u], s0[k + 2u], s1[k + 2u], &p->s[k][0], &p->s[k][1],
                           &p->s[k][2], &p->s[k][3]);
        p->self[k] = c[k + 1u];
    }
}

/* The output runs of plane b of the window a, b, c (planes z - 1, z, z + 1). */
LS_DEVICE void life_cpu_3d_emit(LS_GLOBAL ls_u32 *plane, const ls_u32 *ys, ls_u32 row_words, life_rule r,
                                int b6s567, int aligned, const life_cpu_run *x, const life_cpu_plane *a,
                                const life_cpu_plane *b, const life_cpu_plane *c)
{
#pragma unroll
    for (ls_u32 k = 0; k < LIFE_CPU_R; k++) {
        life_word next =
            b6s567 ? life_next_b6s567(a->s[k][0], a->s[k][1], a->s[k][2], a->s[k][3], b->s[k][0], b->s[k][1],
                                      b->s[k][2], b->s[k][3], c->s[k][0], c->s[k][1], c->s[k][2], c->s[k][3], b->self[k])
                   : life_word_3d(r, b->self[k], a->s[k][0], a->s[k][1], a->s[k][2], a->s[k][3], b->s[k][0],
                                  b->s[k][1], b->s[k][2], b->s[k][3], c->s[k][0], c->s[k][1], c->s[k][2], c->s[k][3]);
        if (!aligned) /* aligned: no padding, keep is all ones */
            next &= x->keep;
        LIFE_CPU_STORE(plane + (ls_u64)ys[k + 1u] * row_words + x->j0, next);
    }
}

/* Work-item t: run t % runs of rows y0 .. y0 + LIFE_CPU_3D_ROWS - 1 (row
 * group t / runs % row_groups; the last moved up to end at row ny - 1, as
 * life_3d's) through planes z .. z + seg - 1 (segment t / runs /
 * row_groups). */
LS_DEVICE void life_cpu_3d_walk(const LS_GLOBAL ls_u32 *src, LS_GLOBAL ls_u32 *dst, ls_u32 row_words, ls_u32 ny,
                           ls_u32 nz, ls_u32 last_bits, ls_u32 seg, ls_u32 items, life_rule r, int b6s567,
                           int aligned, int bounded)
{
    ls_u64 t = ls_gid();
    if (t >= items)
        return;
    ls_u32 runs = (row_words + LIFE_CPU_LANES - 1u) / LIFE_CPU_LANES;
    ls_u32 row_groups = (ny + LIFE_CPU_R - 1u) / LIFE_CPU_R;
    life_cpu_run x = life_cpu_run_make((ls_u32)t % runs, row_words, last_bits);
    ls_u32 u = (ls_u32)t / runs;
    ls_u32 y0 = u % row_groups * LIFE_CPU_R, z = u / row_groups * seg;
    if (y0 > ny - LIFE_CPU_R)
        y0 = ny - LIFE_CPU_R;
    ls_u32 zend = z + seg < nz ? z + seg : nz;
    ls_u32 ys[LIFE_CPU_R + 2u];
    int yout[LIFE_CPU_R + 2u]; /* row y0 - 1 + k is beyond an edge */
#pragma unroll
    for (ls_u32 k = 0; k < LIFE_CPU_R + 2u; k++) {
        ys[k] = (y0 + k + ny - 1u) % ny;
        yout[k] = y0 + k == 0u || y0 + k > ny;
    }
    ls_u64 plane_words = (ls_u64)row_words * ny;
    life_cpu_plane a, b, c;
    life_cpu_3d_sums(src + (z == 0u ? nz - 1u : z - 1u) * plane_words, ys, yout, z == 0u, row_words, &x, aligned,
                     bounded, b6s567, &a);
    life_cpu_3d_sums(src + z * plane_words, ys, yout, 0, row_words, &x, aligned, bounded, b6s567, &b);
    for (; z < zend; z++) {
        ls_u32 zn = z + 1u == nz ? 0u : z + 1u;
        life_cpu_3d_sums(src + zn * plane_words, ys, yout, zn == 0u, row_words, &x, aligned, bounded, b6s567, &c);
        life_cpu_3d_emit(dst + z * plane_words, ys, row_words, r, b6s567, aligned, &x, &a, &b, &c);
        a = b;
        b = c;
    }
}

/* The kernels are written on vectors already: Intel's runtime, told so,
 * leaves each work-item's run as it is, where it otherwise ran 16
 * work-items at once as vectors of their runs (a 16-wide variant of the
 * walk, loading through gathers), several times slower than PoCL on the
 * same kernel (docs/perf/2026-11-28-cpu-life-shape.log). */
#define LIFE_CPU_HINT __attribute__((vec_type_hint(life_word)))
/* Entry points: the arguments of LIFE_KERNEL_2D and LIFE_KERNEL_3D above,
 * `items` counting runs where those count words. */
#define LIFE_CPU_KERNEL_2D(name, aligned, bounded, b3s23, birth_c, survive_c)                                     \
    LS_KERNEL LIFE_CPU_HINT void name(const LS_GLOBAL ls_u32 *LS_RESTRICT src, LS_GLOBAL ls_u32 *LS_RESTRICT dst, \
                                      ls_u32 row_words, ls_u32 ny, ls_u32 last_bits, ls_u32 seg, ls_u32 items,    \
                                      ls_u32 birth, ls_u32 survive)                                               \
    {                                                                                                             \
        life_rule r;                                                                                              \
        r.birth = birth_c;                                                                                        \
        r.survive = survive_c;                                                                                    \
        life_cpu_2d_walk(src, dst, row_words, ny, last_bits, seg, items, r, b3s23, aligned, bounded);             \
    }
/* As LIFE_CPU_KERNEL_2D, LIFE_CPU_2D_GENS generations: tori of rows of
 * whole words (last_bits is 32, unused). */
#define LIFE_CPU_KERNEL_2D_MANY(name, b3s23, birth_c, survive_c)                                                  \
    LS_KERNEL LIFE_CPU_HINT void name(const LS_GLOBAL ls_u32 *LS_RESTRICT src, LS_GLOBAL ls_u32 *LS_RESTRICT dst, \
                                      ls_u32 row_words, ls_u32 ny, ls_u32 last_bits, ls_u32 seg, ls_u32 items,    \
                                      ls_u32 birth, ls_u32 survive)                                               \
    {                                                                                                             \
        life_rule r;                                                                                              \
        (void)last_bits;                                                                                          \
        r.birth = birth_c;                                                                                        \
        r.survive = survive_c;                                                                                    \
        life_cpu_many_walk(src, dst, row_words, ny, seg, items, r, b3s23);                                        \
    }
#define LIFE_CPU_KERNEL_3D(name, aligned, bounded, b6s567, birth_c, survive_c)                                    \
    LS_KERNEL LIFE_CPU_HINT void name(const LS_GLOBAL ls_u32 *LS_RESTRICT src, LS_GLOBAL ls_u32 *LS_RESTRICT dst, \
                                      ls_u32 row_words, ls_u32 ny, ls_u32 nz, ls_u32 last_bits, ls_u32 seg,       \
                                      ls_u32 items, ls_u32 birth, ls_u32 survive)                                 \
    {                                                                                                             \
        life_rule r;                                                                                              \
        r.birth = birth_c;                                                                                        \
        r.survive = survive_c;                                                                                    \
        life_cpu_3d_walk(src, dst, row_words, ny, nz, last_bits, seg, items, r, b6s567, aligned, bounded);        \
    }

#endif /* LS_SHAPE */

/* A rule built in (src/workloads/life/life_gpu.c, through gpu.h's
 * kernel_with): a program built with LIFE_FIXED_DIMS (2 or 3),
 * LIFE_FIXED_BIRTH and LIFE_FIXED_SURVIVE defined has that rule as a
 * constant in its kernels that take any rule, which then ignore their
 * birth and survive arguments as the default rule's kernels do, and the
 * compiler folds life_rule_2d/3d's tree down to what the rule needs. It
 * holds only those kernels of that dimension: the others would never run
 * with it, and each costs build time. */
#if defined(LIFE_FIXED_DIMS) != defined(LIFE_FIXED_BIRTH) || defined(LIFE_FIXED_DIMS) != defined(LIFE_FIXED_SURVIVE)
#error "a rule built in needs LIFE_FIXED_DIMS, LIFE_FIXED_BIRTH and LIFE_FIXED_SURVIVE"
#endif
#ifdef LIFE_FIXED_DIMS
#define LIFE_BIRTH ((void)birth, (ls_u32)(LIFE_FIXED_BIRTH))
#define LIFE_SURVIVE ((void)survive, (ls_u32)(LIFE_FIXED_SURVIVE))
#else
#define LIFE_BIRTH birth
#define LIFE_SURVIVE survive
#endif

#if LS_SHAPE != LS_SHAPE_CPU
#if !defined(LIFE_FIXED_DIMS) || LIFE_FIXED_DIMS == 2
LIFE_KERNEL_2D(life_step_2d, 0, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_2D(life_step_2d_aligned, 1, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_2D_TWO(life_two_2d, 0, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_2D_TWO(life_two_2d_aligned, 1, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_2D_MANY(life_many_2d, 0, 0, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_2D_MANY(life_many_2d_aligned, 1, 0, 0, LIFE_BIRTH, LIFE_SURVIVE)
/* Bounded planes: any rule, any row length. */
LIFE_KERNEL_2D(life_step_2d_plane, 0, 1, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_2D_TWO(life_two_2d_plane, 0, 1, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_2D_MANY(life_many_2d_plane, 0, 1, 0, LIFE_BIRTH, LIFE_SURVIVE)
#endif
#if !defined(LIFE_FIXED_DIMS) || LIFE_FIXED_DIMS == 3
LIFE_KERNEL_3D(life_step_3d, 0, 0, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_3D(life_step_3d_aligned, 1, 0, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_3D(life_step_3d_plane, 0, 1, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_3D_TILE(life_tile_3d, 0, 0, 0, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_3D_TILE(life_tile_3d_aligned, 1, 0, 0, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_3D_TILE(life_tile_3d_plane, 0, 1, 0, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_3D_TILE(life_tile_3d_wide, 0, 0, 0, 1, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_3D_TILE(life_tile_3d_wide_aligned, 1, 0, 0, 1, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_3D_TILE(life_tile_3d_wide_plane, 0, 1, 0, 1, LIFE_BIRTH, LIFE_SURVIVE)
#endif
#ifndef LIFE_FIXED_DIMS
LIFE_KERNEL_2D(life_step_2d_b3s23, 0, 0, ((void)birth, LIFE_B3S23_BIRTH), ((void)survive, LIFE_B3S23_SURVIVE))
LIFE_KERNEL_2D(life_step_2d_b3s23_aligned, 1, 0, ((void)birth, LIFE_B3S23_BIRTH), ((void)survive, LIFE_B3S23_SURVIVE))
LIFE_KERNEL_2D_TWO(life_two_2d_b3s23, 0, 0, ((void)birth, LIFE_B3S23_BIRTH), ((void)survive, LIFE_B3S23_SURVIVE))
LIFE_KERNEL_2D_TWO(life_two_2d_b3s23_aligned, 1, 0, ((void)birth, LIFE_B3S23_BIRTH), ((void)survive, LIFE_B3S23_SURVIVE))
LIFE_KERNEL_2D_MANY(life_many_2d_b3s23, 0, 0, 1, ((void)birth, LIFE_B3S23_BIRTH), ((void)survive, LIFE_B3S23_SURVIVE))
LIFE_KERNEL_2D_MANY(life_many_2d_b3s23_aligned, 1, 0, 1, ((void)birth, LIFE_B3S23_BIRTH), ((void)survive, LIFE_B3S23_SURVIVE))
LIFE_KERNEL_3D(life_step_3d_b6s567, 0, 0, 1, ((void)birth, LIFE_B6S567_BIRTH), ((void)survive, LIFE_B6S567_SURVIVE))
LIFE_KERNEL_3D(life_step_3d_b6s567_aligned, 1, 0, 1, ((void)birth, LIFE_B6S567_BIRTH),
               ((void)survive, LIFE_B6S567_SURVIVE))
LIFE_KERNEL_3D_TILE(life_tile_3d_b6s567, 0, 0, 1, 0, ((void)birth, LIFE_B6S567_BIRTH),
                    ((void)survive, LIFE_B6S567_SURVIVE))
LIFE_KERNEL_3D_TILE(life_tile_3d_b6s567_aligned, 1, 0, 1, 0, ((void)birth, LIFE_B6S567_BIRTH),
                    ((void)survive, LIFE_B6S567_SURVIVE))
LIFE_KERNEL_3D_TILE(life_tile_3d_b6s567_wide, 0, 0, 1, 1, ((void)birth, LIFE_B6S567_BIRTH),
                    ((void)survive, LIFE_B6S567_SURVIVE))
LIFE_KERNEL_3D_TILE(life_tile_3d_b6s567_wide_aligned, 1, 0, 1, 1, ((void)birth, LIFE_B6S567_BIRTH),
                    ((void)survive, LIFE_B6S567_SURVIVE))
#endif
#else /* LS_SHAPE == LS_SHAPE_CPU */
#if !defined(LIFE_FIXED_DIMS) || LIFE_FIXED_DIMS == 2
LIFE_CPU_KERNEL_2D(life_cpu_2d, 0, 0, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_CPU_KERNEL_2D(life_cpu_2d_aligned, 1, 0, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_CPU_KERNEL_2D(life_cpu_2d_plane, 0, 1, 0, LIFE_BIRTH, LIFE_SURVIVE)
#if LIFE_CPU_LANES == 16
LIFE_CPU_KERNEL_2D_MANY(life_cpu_many_2d_aligned, 0, LIFE_BIRTH, LIFE_SURVIVE)
#endif
#endif
#if !defined(LIFE_FIXED_DIMS) || LIFE_FIXED_DIMS == 3
LIFE_CPU_KERNEL_3D(life_cpu_3d, 0, 0, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_CPU_KERNEL_3D(life_cpu_3d_aligned, 1, 0, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_CPU_KERNEL_3D(life_cpu_3d_plane, 0, 1, 0, LIFE_BIRTH, LIFE_SURVIVE)
#endif
#ifndef LIFE_FIXED_DIMS
LIFE_CPU_KERNEL_2D(life_cpu_2d_b3s23, 0, 0, 1, ((void)birth, LIFE_B3S23_BIRTH), ((void)survive, LIFE_B3S23_SURVIVE))
LIFE_CPU_KERNEL_2D(life_cpu_2d_b3s23_aligned, 1, 0, 1, ((void)birth, LIFE_B3S23_BIRTH),
                   ((void)survive, LIFE_B3S23_SURVIVE))
#if LIFE_CPU_LANES == 16
LIFE_CPU_KERNEL_2D_MANY(life_cpu_many_2d_b3s23_aligned, 1, ((void)birth, LIFE_B3S23_BIRTH),
                        ((void)survive, LIFE_B3S23_SURVIVE))
#endif
LIFE_CPU_KERNEL_3D(life_cpu_3d_b6s567, 0, 0, 1, ((void)birth, LIFE_B6S567_BIRTH),
                   ((void)survive, LIFE_B6S567_SURVIVE))
LIFE_CPU_KERNEL_3D(life_cpu_3d_b6s567_aligned, 1, 0, 1, ((void)birth, LIFE_B6S567_BIRTH),
                   ((void)survive, LIFE_B6S567_SURVIVE))
#endif
#endif /* LS_SHAPE */

/* The group shape's 2D walk: built for that shape only (dialect.h's
 * LS_SHAPE; nvcc and NVRTC build the warp shape, which walks with
 * shuffles), its entry points listed apart (LS_GROUP_SHAPE_KERNELS,
 * below). */
#if LS_SHAPE == LS_SHAPE_GROUP && (!defined(LIFE_FIXED_DIMS) || LIFE_FIXED_DIMS == 2)
LIFE_KERNEL_2D_GROUP(life_group_2d, 0, 0, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_2D_GROUP(life_group_2d_aligned, 1, 0, 0, LIFE_BIRTH, LIFE_SURVIVE)
LIFE_KERNEL_2D_GROUP(life_group_2d_plane, 0, 1, 0, LIFE_BIRTH, LIFE_SURVIVE)
#endif
#if LS_SHAPE == LS_SHAPE_GROUP && !defined(LIFE_FIXED_DIMS)
LIFE_KERNEL_2D_GROUP(life_group_2d_b3s23, 0, 0, 1, ((void)birth, LIFE_B3S23_BIRTH), ((void)survive, LIFE_B3S23_SURVIVE))
LIFE_KERNEL_2D_GROUP(life_group_2d_b3s23_aligned, 1, 0, 1, ((void)birth, LIFE_B3S23_BIRTH),
                     ((void)survive, LIFE_B3S23_SURVIVE))
#endif

#ifndef LIFE_FIXED_DIMS
/* The random start made where the grid lives (src/algo/life.h's
 * life_fill_word): a word at a time, a grid-stride loop over `words`
 * words of dst from word `off` on (each count in low and high halves),
 * which hold rows row0 .. of a grid whose row `row` (z * ny + y, counted
 * in the whole grid) starts at cell row * nx. */
LS_KERNEL void life_fill(LS_GLOBAL ls_u32 *dst, ls_u32 row_words, ls_u32 nx, ls_u32 last_bits, ls_u32 row0_lo,
                         ls_u32 row0_hi, ls_u32 off_lo, ls_u32 off_hi, ls_u32 words_lo, ls_u32 words_hi,
                         ls_u32 seed_lo, ls_u32 seed_hi, ls_u32 threshold)
{
    ls_u64 row0 = (ls_u64)row0_hi << 32 | row0_lo, off = (ls_u64)off_hi << 32 | off_lo;
    ls_u64 words = (ls_u64)words_hi << 32 | words_lo;
    for (ls_u64 i = ls_gid(); i < words; i += ls_gsize()) {
        ls_u64 row = i / row_words;
        ls_u32 w = (ls_u32)(i - row * row_words);
        ls_u64 k0 = (row0 + row) * nx + 32u * (ls_u64)w;
        dst[off + i] = life_fill_word(k0, w + 1u == row_words ? last_bits : 32u, seed_lo, seed_hi, threshold);
    }
}
#endif

/* The entry points of the program built without definitions (the CUDA
 * backend's table of its kernels built by nvcc). */
#define LS_PROGRAM_KERNELS(X)                                                                                     \
    X(life_step_2d)                                                                                               \
    X(life_step_2d_aligned)                                                                                       \
    X(life_step_2d_b3s23)                                                                                         \
    X(life_step_2d_b3s23_aligned)                                                                                 \
    X(life_two_2d)                                                                                                \
    X(life_two_2d_aligned)                                                                                        \
    X(life_two_2d_b3s23)                                                                                          \
    X(life_two_2d_b3s23_aligned)                                                                                  \
    X(life_many_2d)                                                                                               \
    X(life_many_2d_aligned)                                                                                       \
    X(life_many_2d_b3s23)                                                                                         \
    X(life_many_2d_b3s23_aligned)                                                                                 \
    X(life_step_3d)                                                                                               \
    X(life_step_3d_aligned)                                                                                       \
    X(life_step_3d_b6s567)                                                                                        \
    X(life_step_3d_b6s567_aligned)                                                                                \
    X(life_step_2d_plane)                                                                                         \
    X(life_two_2d_plane)                                                                                          \
    X(life_many_2d_plane)                                                                                         \
    X(life_step_3d_plane)                                                                                         \
    X(life_tile_3d)                                                                                               \
    X(life_tile_3d_aligned)                                                                                       \
    X(life_tile_3d_b6s567)                                                                                        \
    X(life_tile_3d_b6s567_aligned)                                                                                \
    X(life_tile_3d_plane)                                                                                         \
    X(life_tile_3d_wide)                                                                                          \
    X(life_tile_3d_wide_aligned)                                                                                  \
    X(life_tile_3d_b6s567_wide)                                                                                   \
    X(life_tile_3d_b6s567_wide_aligned)                                                                           \
    X(life_tile_3d_wide_plane)                                                                                    \
    X(life_fill)

/* The entry points the program has on the group shape only (OpenCL built
 * with -DLS_SHAPE=3), besides LS_PROGRAM_KERNELS's: tests/oclgrind.py
 * runs them all on Oclgrind, a device of that shape. */
#define LS_GROUP_SHAPE_KERNELS(X)                                                                                 \
    X(life_group_2d)                                                                                              \
    X(life_group_2d_aligned)                                                                                      \
    X(life_group_2d_b3s23)                                                                                        \
    X(life_group_2d_b3s23_aligned)                                                                                \
    X(life_group_2d_plane)
/* The entry points of the program built for the CPU shape without
 * definitions (LS_SHAPE_CPU above), for tests/oclgrind.py, which runs
 * each. */
#define LS_PROGRAM_KERNELS_CPU(X)                                                                                 \
    X(life_cpu_2d)                                                                                                \
    X(life_cpu_2d_aligned)                                                                                        \
    X(life_cpu_2d_b3s23)                                                                                          \
    X(life_cpu_2d_b3s23_aligned)                                                                                  \
    X(life_cpu_2d_plane)                                                                                          \
    X(life_cpu_many_2d_aligned)                                                                                   \
    X(life_cpu_many_2d_b3s23_aligned)                                                                             \
    X(life_cpu_3d)                                                                                                \
    X(life_cpu_3d_aligned)                                                                                        \
    X(life_cpu_3d_b6s567)                                                                                         \
    X(life_cpu_3d_b6s567_aligned)                                                                                 \
    X(life_cpu_3d_plane)                                                                                          \
    X(life_fill)
