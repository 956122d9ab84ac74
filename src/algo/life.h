/* life.h - Life-like cellular automata on a torus, bit-sliced: one bit per
 * cell, 32 cells per word, written once for every backend (C17, OpenCL C
 * 1.2, CUDA; see portable.h).
 *
 * A word holds 32 consecutive cells of one row along x, cell x = 32 j + i
 * in bit i of word j (docs/life.md gives the whole grid layout). Every
 * operation below works on all 32 cells of a word at once, as logic on
 * whole words:
 *
 *  1. Neighbours along x are the word shifted by one bit, with the bit that
 *     crosses the word boundary taken from the neighbouring word
 *     (life_west, life_east). The callers handle the torus seam: the first
 *     word's west neighbour of bit 0 is the row's last cell, and the last
 *     word's east neighbour of its last valid bit is the row's first cell
 *     (life_east_last), wherever the row ends inside its word.
 *  2. Counts are bit-planes: a count of up to 3 is two words (bit 0 and
 *     bit 1 of the count of each of the 32 cells), made with full adders
 *     (carry-save adders). A row contributes west + centre + east (0..3),
 *     three rows make the 3x3 sum of a plane (0..9, four planes), three of
 *     those the 3x3x3 sum of a cube (0..27, five planes).
 *  3. The counts INCLUDE the cell itself: that saves an adder stage, and
 *     the rule absorbs it. A dead cell whose 3x3 (3x3x3) sum is c has c
 *     live neighbours, a live one c - 1. So the next state is, for every
 *     possible sum c, a "leaf" that is one of 0, 1, self or not-self: born
 *     when dead, survives when alive. The rule is then a multiplexer tree
 *     over the count's planes that selects the leaf (life_rule_2d/3d):
 *     15 (2D) or 31 (3D) bit-selects for any rule, B0 included.
 *     Passing a constant rule lets the compiler fold the tree down to the
 *     handful of operations that rule needs (B3/S23: about six).
 *
 * Rules are bit masks over neighbour counts: bit n of `birth` set means a
 * dead cell with n live neighbours becomes alive, bit n of `survive` that a
 * live one with n live neighbours stays alive; n ranges over 0..8 (2D, the
 * Moore neighbourhood of 8) or 0..26 (3D, of 26). Higher bits must be 0. */
#ifndef LOCKSTEP_ALGO_LIFE_H
#define LOCKSTEP_ALGO_LIFE_H

#include "philox.h"
#include "portable.h"

#define LIFE_WORD_BITS 32u
#define LIFE_MAX_COUNT_2D 8u
#define LIFE_MAX_COUNT_3D 26u

/* Conway's Life and Bays' 3D Life 5766, the defaults. */
#define LIFE_B3S23_BIRTH (1u << 3)
#define LIFE_B3S23_SURVIVE ((1u << 2) | (1u << 3))
#define LIFE_B6S567_BIRTH (1u << 6)
#define LIFE_B6S567_SURVIVE ((1u << 5) | (1u << 6) | (1u << 7))

/* Rows of a word column that a 3D GPU work-item owns (src/kernels/
 * life_kernels.h): the x sums of the rows above and below them are shared
 * among them. Here so that the driver, which sizes the launch, and the
 * kernels agree. At most LIFE_MIN_SIZE (4); other values are build-time
 * variants for bench/life3d_variants.sh on grids at least that tall (2
 * rows 139.2 ms, 4 120.2, 8 144.9 for 1024^3 x 1024 on the H200,
 * docs/perf/2026-11-24-h200-life3d-variants.log). */
#define LIFE_GPU_3D_ROWS_DEFAULT 4u
#ifndef LIFE_GPU_3D_ROWS
#define LIFE_GPU_3D_ROWS LIFE_GPU_3D_ROWS_DEFAULT
#endif

/* Generations a pass of the 3D GPU walk: 1 is the walk above, of one
 * generation a pass (life_3d in src/kernels/life_kernels.h); 2 or more
 * the tile walk (life_tile_3d there), whose group keeps a tile of whole
 * rows on chip, LIFE_GPU_3D_WARPS warps stacked along y of
 * LIFE_GPU_3D_ROWS rows each, and walks it along z making that many
 * generations as it goes: its edges, LIFE_GPU_3D_DEPTH rows at each end,
 * are made and not stored, so a tile stores LIFE_GPU_3D_TILE_OUT rows.
 * LIFE_GPU_3D_STAGES planes are read ahead into local memory where the
 * device copies without registers (dialect.h's LS_ASYNC_COPY; 0: into
 * registers, one plane ahead, as elsewhere). Here so that the driver,
 * which lays out the launch, and the kernels agree; build-time knobs for
 * bench/life3d_variants.sh (-Dc_args and -Dnvcc_flags, both; the driver
 * builds the OpenCL programs with what differs from the defaults). */
#define LIFE_GPU_3D_DEPTH_DEFAULT 2u
/* 12 warps: one group of 384 a compute unit, which CUDA gives up to 168
 * registers a work-item, and the walk needs 166; a group of 16 warps
 * capped it at 128 and it spilled (docs/perf/README.md, thirteenth
 * session: its time follows the spills). */
#define LIFE_GPU_3D_WARPS_DEFAULT 12u
#define LIFE_GPU_3D_STAGES_DEFAULT 2u
#ifndef LIFE_GPU_3D_DEPTH
#define LIFE_GPU_3D_DEPTH LIFE_GPU_3D_DEPTH_DEFAULT
#endif
#ifndef LIFE_GPU_3D_WARPS
#define LIFE_GPU_3D_WARPS LIFE_GPU_3D_WARPS_DEFAULT
#endif
#ifndef LIFE_GPU_3D_STAGES
#define LIFE_GPU_3D_STAGES LIFE_GPU_3D_STAGES_DEFAULT
#endif
#define LIFE_GPU_3D_TILE_OUT (LIFE_GPU_3D_WARPS * LIFE_GPU_3D_ROWS - 2u * LIFE_GPU_3D_DEPTH)
/* A group's local memory in the tile walk, in words (the driver passes it
 * at launch): the x sums each warp hands on, its first and last rows' two
 * words a level, in two sets; then either the planes read ahead (where
 * the device copies without registers: CUDA) or ls_shuffle's buffer, a
 * word a row and work-item (where it does not shuffle: OpenCL but
 * NVIDIA's), never both. At most 48 KiB, what CUDA gives a group without
 * asking and NVIDIA's OpenCL at all. */
#define LIFE_GPU_3D_HALO_WORDS (2u * LIFE_GPU_3D_DEPTH * LIFE_GPU_3D_WARPS * 128u)
#define LIFE_GPU_3D_RING_WORDS (LIFE_GPU_3D_STAGES * LIFE_GPU_3D_WARPS * LIFE_GPU_3D_ROWS * 32u)
#define LIFE_GPU_3D_SHUFFLE_WORDS (LIFE_GPU_3D_ROWS * LIFE_GPU_3D_WARPS * 32u)
#define LIFE_GPU_3D_LOCAL_WORDS                                                                                    \
    (LIFE_GPU_3D_HALO_WORDS +                                                                                      \
     (LIFE_GPU_3D_RING_WORDS > LIFE_GPU_3D_SHUFFLE_WORDS ? LIFE_GPU_3D_RING_WORDS : LIFE_GPU_3D_SHUFFLE_WORDS))
#if LIFE_GPU_3D_LOCAL_WORDS * 4u > 49152u
#error "the 3D tile walk's local memory exceeds 48 KiB: fewer LIFE_GPU_3D_WARPS, LIFE_GPU_3D_DEPTH or LIFE_GPU_3D_STAGES"
#endif
/* The tile walk of rows wider than a warp (life_t3_walk's `wide`): rows
 * of 33 to 64 words, each held by LIFE_GPU_3D_WIDE_PIECES warps of 32
 * words side by side, so the tile has half the rows; the warps hand each
 * other their rows' words through local memory (the x neighbours of a
 * piece's end words are in the other piece). Its local memory: the halo
 * in one set (a second barrier a step orders its writes after the
 * previous step's reads), every level's words of the tile's rows, and the
 * planes read ahead where the device copies without registers. Wider rows
 * run the walk of one generation. */
#define LIFE_GPU_3D_WIDE_PIECES 2u
#define LIFE_GPU_3D_WIDE_WORDS (32u * LIFE_GPU_3D_WIDE_PIECES) /* the widest row it takes */
#define LIFE_GPU_3D_WIDE_TILE_ROWS (LIFE_GPU_3D_WARPS / LIFE_GPU_3D_WIDE_PIECES * LIFE_GPU_3D_ROWS)
#define LIFE_GPU_3D_WIDE_TILE_OUT (LIFE_GPU_3D_WIDE_TILE_ROWS - 2u * LIFE_GPU_3D_DEPTH)
#define LIFE_GPU_3D_WIDE_HALO_WORDS (LIFE_GPU_3D_HALO_WORDS / 2u)
#define LIFE_GPU_3D_WIDE_ROW_WORDS (LIFE_GPU_3D_DEPTH * LIFE_GPU_3D_WIDE_TILE_ROWS * LIFE_GPU_3D_WIDE_WORDS)
#define LIFE_GPU_3D_WIDE_LOCAL_WORDS (LIFE_GPU_3D_WIDE_HALO_WORDS + LIFE_GPU_3D_WIDE_ROW_WORDS + LIFE_GPU_3D_RING_WORDS)
#if LIFE_GPU_3D_WIDE_LOCAL_WORDS * 4u > 49152u
#error "the wide 3D tile walk's local memory exceeds 48 KiB: fewer LIFE_GPU_3D_WARPS, LIFE_GPU_3D_DEPTH or LIFE_GPU_3D_STAGES"
#endif
#if LIFE_GPU_3D_WARPS % LIFE_GPU_3D_WIDE_PIECES != 0 || LIFE_GPU_3D_WIDE_TILE_ROWS <= 2u * LIFE_GPU_3D_DEPTH
#error "the wide 3D tile walk needs LIFE_GPU_3D_WARPS a multiple of its pieces, and its tile taller than its edges"
#endif
#if LIFE_GPU_3D_DEPTH < 1
#error "LIFE_GPU_3D_DEPTH must be at least 1"
#endif
#if LIFE_GPU_3D_WARPS * LIFE_GPU_3D_ROWS <= 2u * LIFE_GPU_3D_DEPTH
#error "a tile of LIFE_GPU_3D_WARPS x LIFE_GPU_3D_ROWS rows must be taller than its two edges of LIFE_GPU_3D_DEPTH rows"
#endif

/* Generations a launch of the 2D many-generation GPU kernel makes
 * (life_many_2d in src/kernels/life_kernels.h): here so that the driver,
 * which lays out the launch, and the kernels agree. At most 32 (a run's
 * edge lanes absorb the wrong cells, one more a generation, see there).
 * A build-time knob for variants: -Dc_args and -Dnvcc_flags both
 * -DLIFE_2D_GENS=N (the OpenCL programs are built with the default).
 * 16 measured fastest on the H200 (65536^2 x 1024 B3/S23, CUDA: 2 gens
 * 268.9 ms, 4 176.0, 8 166.7, 12 170.2, 16 133.9;
 * docs/perf/2026-11-23-h200-life2d-variants.log). */
#ifndef LIFE_2D_GENS
#define LIFE_2D_GENS 16u
#endif

/* The 2D walk of several generations a pass for the group shape (GPUs
 * whose work-items exchange words through local memory and barriers:
 * life_group_2d in src/kernels/life_kernels.h). A group owns a run of
 * LIFE_GROUP_2D_COLS words of a row band, one work-item a word column in
 * each of LIFE_GROUP_2D_SLOTS slots; slot s makes generations s P + 1 ..
 * s P + P (P = GENS / SLOTS) of LIFE_GROUP_2D_ROWS rows a step, one
 * barrier a step. Here so that the driver, which lays out the launch, and
 * the kernels agree; build-time knobs for bench/life2d_group_variants.sh
 * (-Dc_args; the driver builds the OpenCL program with what differs from
 * the defaults). */
#define LIFE_GROUP_2D_GENS_DEFAULT 16u
#define LIFE_GROUP_2D_COLS_DEFAULT 64u
#define LIFE_GROUP_2D_SLOTS_DEFAULT 4u
#define LIFE_GROUP_2D_ROWS_DEFAULT 4u
#ifndef LIFE_GROUP_2D_GENS
#define LIFE_GROUP_2D_GENS LIFE_GROUP_2D_GENS_DEFAULT
#endif
#ifndef LIFE_GROUP_2D_COLS
#define LIFE_GROUP_2D_COLS LIFE_GROUP_2D_COLS_DEFAULT
#endif
#ifndef LIFE_GROUP_2D_SLOTS
#define LIFE_GROUP_2D_SLOTS LIFE_GROUP_2D_SLOTS_DEFAULT
#endif
#ifndef LIFE_GROUP_2D_ROWS
#define LIFE_GROUP_2D_ROWS LIFE_GROUP_2D_ROWS_DEFAULT
#endif
/* Work-items a group; words of its local memory (the driver passes it at
 * launch): generations 0 .. GENS - 1, two blocks of ROWS rows of the run
 * each. */
#define LIFE_GROUP_2D_ITEMS (LIFE_GROUP_2D_COLS * LIFE_GROUP_2D_SLOTS)
#define LIFE_GROUP_2D_LOCAL_WORDS (LIFE_GROUP_2D_GENS * 2u * LIFE_GROUP_2D_ROWS * LIFE_GROUP_2D_COLS)
#if LIFE_GROUP_2D_GENS < 2 || LIFE_GROUP_2D_GENS > 32
#error "LIFE_GROUP_2D_GENS must be 2..32: a run's margin lanes absorb one wrong cell a generation"
#endif
#if LIFE_GROUP_2D_SLOTS < 1 || LIFE_GROUP_2D_GENS % LIFE_GROUP_2D_SLOTS != 0
#error "LIFE_GROUP_2D_SLOTS must divide LIFE_GROUP_2D_GENS: each slot makes as many generations"
#endif
#if LIFE_GROUP_2D_ROWS < 2 || LIFE_GROUP_2D_ROWS % 2 != 0
#error "LIFE_GROUP_2D_ROWS must be even: the walk makes rows in pairs"
#endif
#if LIFE_GROUP_2D_LOCAL_WORDS * 4u > 49152u
#error "the group shape's 2D walk's local memory exceeds 48 KiB (what every GPU's OpenCL offers): fewer GENS, ROWS or COLS"
#endif
#if LIFE_GROUP_2D_COLS < 8 || LIFE_GROUP_2D_ITEMS > 1024
#error "LIFE_GROUP_2D_COLS must be at least 8 (two margin lanes a side and words to store), and a group at most 1024"
#endif
/* The kernels shaped for CPU OpenCL devices (src/kernels/life_kernels.h,
 * LS_SHAPE_CPU): a work-item's run of consecutive words of a row, at most
 * (the driver builds narrower runs for narrower rows, a power of two), and
 * in 3D the rows it owns, sharing the x sums of the rows beside them; at
 * most LIFE_MIN_SIZE (4). Here so that the driver, which sizes the launch,
 * and the kernels agree. */
#define LIFE_CPU_LANES_DEFAULT 16u
#define LIFE_CPU_3D_ROWS 4u
/* Generations a launch of the CPU shape's 2D kernel of several
 * (life_cpu_many_2d_*): at most 32. */
#define LIFE_CPU_2D_GENS 16u

typedef struct life_rule {
    ls_u32 birth;   /* bit n: a dead cell with n live neighbours is born */
    ls_u32 survive; /* bit n: a live cell with n live neighbours lives on */
} life_rule;

/* ---- the random start (docs/life.md) ---------------------------------- */

/* Philox counter word 2 of the random fill: "life". */
#define LIFE_FILL_TAG 0x6c696665u

/* The word of `bits` cells (1 to 32) from cell k0 on, in canonical order
 * (x fastest): cell k is alive when lane k % 8 of Philox4x32-10 block
 * k / 8 (counter (block low, block high, LIFE_FILL_TAG, 0), key (seed
 * low, seed high); lane i is bits 16(i%2) .. 16(i%2)+15 of word i/2) is
 * below threshold, round(density * 65536). One word's cells lie in at
 * most five blocks. The host's fill draws a row's blocks once each and
 * must give the same words (tests/test_life.c). */
LS_FN ls_u32 life_fill_word(ls_u64 k0, ls_u32 bits, ls_u32 seed_lo, ls_u32 seed_hi, ls_u32 threshold)
{
    ls_philox_key key;
    key.v[0] = seed_lo;
    key.v[1] = seed_hi;
    ls_u32 word = 0u;
    ls_u64 first = k0 / 8u, last = (k0 + bits - 1u) / 8u;
    for (ls_u64 b = first; b <= last; b++) {
        ls_philox_ctr c;
        c.v[0] = (ls_u32)b;
        c.v[1] = (ls_u32)(b >> 32);
        c.v[2] = LIFE_FILL_TAG;
        c.v[3] = 0u;
        ls_philox_ctr r = ls_philox4x32_10(c, key);
        for (ls_u32 i = 0u; i < 8u; i++) {
            ls_u64 k = b * 8u + i;
            if (k < k0 || k >= k0 + bits)
                continue;
            ls_u32 lane = (r.v[i / 2u] >> (16u * (i % 2u))) & 0xffffu;
            word |= (ls_u32)(lane < threshold) << (ls_u32)(k - k0);
        }
    }
    return word;
}

/* ---- words and seams ------------------------------------------------- */

/* A word of 32 cells, the type of every cell operand below (counts, rule
 * masks and shift amounts stay ls_u32). A 32-bit word everywhere but in
 * the kernels shaped for CPU OpenCL devices (src/kernels/life_kernels.h),
 * which define LIFE_WORD as an OpenCL vector of words before including
 * this file: there each operation works on a run of consecutive words at
 * once, one vector instruction where a GPU's work-items would each take a
 * word, and the same logic serves both. */
#ifdef LIFE_WORD
typedef LIFE_WORD life_word;
#else
typedef ls_u32 life_word;
#endif

/* Bit-select: for each bit, hi where sel is 1, lo where it is 0. */
LS_FN life_word life_mux(life_word sel, life_word lo, life_word hi)
{
    return lo ^ ((lo ^ hi) & sel);
}

/* The cells at x - 1 of the 32 cells of word w: w moved up one bit, bit 0
 * from the top bit of the word before (prev). */
LS_FN life_word life_west(life_word w, life_word prev)
{
    return (w << 1) | (prev >> 31);
}

/* The cells at x + 1: w moved down one bit, bit 31 from bit 0 of the word
 * after (next). */
LS_FN life_word life_east(life_word w, life_word next)
{
    return (w >> 1) | (next << 31);
}

/* life_east for the last word of a row whose last `valid` bits (1..32) are
 * cells: the east neighbour of its last cell is the row's first cell
 * (first_cell, 0 or 1), wrapping around the torus. The padding bits above
 * `valid` must be 0 in w; the result's own padding bits are meaningless. */
LS_FN life_word life_east_last(life_word w, life_word first_cell, ls_u32 valid)
{
    return (w >> 1) | (first_cell << (valid - 1u));
}

/* life_west for the first word of a row: bit 0's west neighbour is the
 * row's last cell (last_cell, 0 or 1). */
LS_FN life_word life_west_first(life_word w, life_word last_cell)
{
    return (w << 1) | last_cell;
}

/* The bits of a row's last word that are cells: `valid` (1..32) low bits. */
LS_FN ls_u32 life_valid_mask(ls_u32 valid)
{
    return valid >= 32u ? 0xffffffffu : ((1u << valid) - 1u);
}

/* ---- counting -------------------------------------------------------- */

/* a + b + c = sum + 2 carry, per bit (a carry-save adder). */
LS_FN void life_full_add(life_word a, life_word b, life_word c, life_word *sum, life_word *carry)
{
    life_word ab = a ^ b;
    *sum = ab ^ c;
    *carry = (a & b) | (ab & c);
}

LS_FN void life_half_add(life_word a, life_word b, life_word *sum, life_word *carry)
{
    *sum = a ^ b;
    *carry = a & b;
}

/* The live cells among west, centre and east of a row (0..3): r0 + 2 r1. */
LS_FN void life_row_sum(life_word west, life_word centre, life_word east, life_word *r0, life_word *r1)
{
    life_full_add(west, centre, east, r0, r1);
}

/* The 3x3 sum of a plane (0..9) from the row sums (0..3 each) of the rows
 * above (u), at (c) and below (d): p0 + 2 p1 + 4 p2 + 8 p3. */
LS_FN void life_plane_sum(life_word u0, life_word u1, life_word c0, life_word c1, life_word d0, life_word d1,
                          life_word *p0, life_word *p1, life_word *p2, life_word *p3)
{
    life_word k1, q1, q2, k2;
    life_full_add(u0, c0, d0, p0, &k1); /* ones: p0, carry of weight 2 */
    life_full_add(u1, c1, d1, &q1, &q2); /* twos: weight 2 and 4 */
    life_half_add(q1, k1, p1, &k2);
    life_half_add(q2, k2, p2, p3); /* p3 only for 8 and 9 */
}

/* The 3x3x3 sum of a cube (0..27) from the plane sums (0..9 each, four
 * planes) of the planes before (a), at (b) and after (c) along z:
 * s0 + 2 s1 + 4 s2 + 8 s3 + 16 s4. Words, not arrays, in and out: the
 * CPU's auto-vectorizer gives up on loops with local arrays. */
LS_FN void life_cube_sum(life_word a0, life_word a1, life_word a2, life_word a3, life_word b0, life_word b1,
                         life_word b2, life_word b3, life_word c0, life_word c1, life_word c2, life_word c3,
                         life_word *s0, life_word *s1, life_word *s2, life_word *s3, life_word *s4)
{
    life_word k1, x1, y2, k2, x2, y3, k3, x3, y4, k4;
    life_full_add(a0, b0, c0, s0, &k1);
    life_full_add(a1, b1, c1, &x1, &y2);
    life_half_add(x1, k1, s1, &k2);
    life_full_add(a2, b2, c2, &x2, &y3);
    life_full_add(x2, y2, k2, s2, &k3);
    life_full_add(a3, b3, c3, &x3, &y4);
    life_full_add(x3, y3, k3, s3, &k4);
    /* y4 and k4 are never both set: that would be a sum of 32 or more. */
    *s4 = y4 | k4;
}

/* ---- the rule -------------------------------------------------------- */

/* The next state of cells whose sum (self included) is `count`: born if
 * dead and `count` is a birth count, kept if alive and `count` - 1 is a
 * survival count. All ones, all zeros, self or not-self. */
LS_FN life_word life_leaf(life_rule r, ls_u32 count, life_word self)
{
    ls_u32 born = 0u - ((r.birth >> count) & 1u);
    ls_u32 stays = count ? 0u - ((r.survive >> (count - 1u)) & 1u) : 0u;
    return life_mux(self, (life_word)born, (life_word)stays);
}

/* The leaves of sums base .. base + 7 selected by the low three count
 * planes. */
LS_FN life_word life_mux8(life_rule r, life_word self, life_word t0, life_word t1, life_word t2, ls_u32 base)
{
    life_word m0 = life_mux(t0, life_leaf(r, base + 0u, self), life_leaf(r, base + 1u, self));
    life_word m1 = life_mux(t0, life_leaf(r, base + 2u, self), life_leaf(r, base + 3u, self));
    life_word m2 = life_mux(t0, life_leaf(r, base + 4u, self), life_leaf(r, base + 5u, self));
    life_word m3 = life_mux(t0, life_leaf(r, base + 6u, self), life_leaf(r, base + 7u, self));
    return life_mux(t2, life_mux(t1, m0, m1), life_mux(t1, m2, m3));
}

/* Next state from a 3x3 sum p (0..9): sums 8 and 9 have p1 = p2 = 0. */
LS_FN life_word life_rule_2d(life_rule r, life_word self, life_word p0, life_word p1, life_word p2, life_word p3)
{
    life_word low = life_mux8(r, self, p0, p1, p2, 0u);
    life_word high = life_mux(p0, life_leaf(r, 8u, self), life_leaf(r, 9u, self));
    return life_mux(p3, low, high);
}

/* Next state from a 3x3x3 sum s0..s4 (0..27; 28..31 never occur). */
LS_FN life_word life_rule_3d(life_rule r, life_word self, life_word s0, life_word s1, life_word s2, life_word s3,
                             life_word s4)
{
    life_word below16 = life_mux(s3, life_mux8(r, self, s0, s1, s2, 0u), life_mux8(r, self, s0, s1, s2, 8u));
    life_word above16 = life_mux(s3, life_mux8(r, self, s0, s1, s2, 16u), life_mux8(r, self, s0, s1, s2, 24u));
    return life_mux(s4, below16, above16);
}

/* B3/S23 straight from the x sums of the rows above (a), at (b) and below
 * (c) and the centre word: the same next state as life_plane_sum and
 * life_rule_2d with the rule B3/S23, in 8 three-input operations (LOP3 on
 * NVIDIA GPUs) where the folded multiplexer tree takes 10. With the ones
 * added (p0, carry k1) and the twos (q1, carry q2), the sum (self
 * included) is p0 + 2 (k1 + q1) + 4 q2; the cell lives for a sum of 3, or
 * of 4 when alive. One of k1, q1 set (t) leaves sums 2 + p0 + 4 q2: alive
 * for p0 and not q2. Neither or both (k1 = q1) leave p0 + 4 k1 + 4 q2:
 * alive for 4, which is not p0, exactly one of k1 and q2, and self. So
 * the next state is n & g with n = t ? !q2 : k1 ^ q2 and
 * g = t ? p0 : !p0 & self. Checked
 * against life_rule_2d over all 2^7 inputs in tests/test_life.c. */
LS_FN life_word life_next_b3s23(life_word a0, life_word a1, life_word b0, life_word b1, life_word c0, life_word c1,
                                life_word self)
{
    life_word p0, k1, q1, q2;
    life_full_add(a0, b0, c0, &p0, &k1);
    life_full_add(a1, b1, c1, &q1, &q2);
    /* Each line a function of three words: one LOP3 each (as muxes
     * through life_mux, nvcc 13 spent two more). */
    life_word t = k1 ^ q1;
    life_word n = (t & ~q2) | (~t & (k1 ^ q2));
    life_word g = (t & p0) | (~t & ~p0 & self);
    return n & g;
}

/* Three-input logic functions, each given twice: by its truth table (bit
 * 4a + 2b + c of the table is the value for bits a, b, c: NVIDIA's LOP3
 * convention) and as a C expression, which tests/test_life.c checks
 * against the table. Where inline PTX is taken (LS_PTX) each is one
 * lop3.b32 of its table: from the C expressions nvcc 13 made 6 LOP3 of
 * the 4 gates of life_next_b3s23_pair and 5 of life_pair_sum's 4.
 * Elsewhere the expression. (An earlier portable form, a loop over the
 * table's minterms, was miscompiled by PoCL 5.0's vectorizer on the H200
 * host: docs/perf/2026-11-24-h200-life2d-seam.log.) */
#ifdef LS_PTX
#define LIFE_LOP3(name, table, expr)                                                                   \
    LS_FN life_word name(life_word a, life_word b, life_word c)                                        \
    {                                                                                                  \
        life_word d;                                                                                   \
        LS_ASM("lop3.b32 %0, %1, %2, %3, " #table ";" : "=r"(d) : "r"(a), "r"(b), "r"(c));            \
        return d;                                                                                      \
    }
#else
#define LIFE_LOP3(name, table, expr)                                                                   \
    LS_FN life_word name(life_word a, life_word b, life_word c)                                        \
    {                                                                                                  \
        (void)a, (void)b, (void)c;                                                                     \
        return (expr);                                                                                 \
    }
#endif
/* The gates and their tables, for tests/test_life.c: X(name, table, expr). */
#define LIFE_LOP3_GATES(X)                                                                             \
    X(life_lop3_xor2, 0x3c, a ^ b)                                                                     \
    X(life_lop3_and2, 0xc0, a & b)                                                                     \
    X(life_lop3_xor3, 0x96, a ^ b ^ c)                                                                 \
    X(life_lop3_maj3, 0xe8, (a & b) | (c & (a ^ b)))                                                   \
    X(life_lop3_bc, 0xbc, (a ^ b) | (a & b & c))                                                       \
    X(life_lop3_da, 0xda, (a & (b | ~c)) | (~a & c))                                                   \
    X(life_lop3_4e, 0x4e, (a & b & ~c) | (~a & (b | c)))                                               \
    X(life_lop3_82, 0x82, c & ~(a ^ b))                                                                \
    X(life_lop3_or2, 0xfc, a | b)                                                                      \
    X(life_lop3_16, 0x16, (a & ~(b | c)) | (~a & (b ^ c)))                                             \
    X(life_lop3_xnor3, 0x69, ~(a ^ b ^ c))                                                             \
    X(life_lop3_b2, 0xb2, (a & (~b | c)) | (~a & ~b & c))                                              \
    X(life_lop3_and3, 0x80, a & b & c)
LIFE_LOP3_GATES(LIFE_LOP3)

/* A full adder as two gates (life_full_add's sum and carry), each one
 * LOP3 where inline PTX is taken. */
LS_FN void life_full_add3(life_word a, life_word b, life_word c, life_word *sum, life_word *carry)
{
    *sum = life_lop3_xor3(a, b, c);
    *carry = life_lop3_maj3(a, b, c);
}

/* B6/S567's decision from a 3x3x3 sum (self included) written as
 * c = o + 2 t + 4 (h + f1) + 8 (H + f2), all seven inputs free (c is
 * 0..27 for every one of the 2^7): alive next for c = 6, or for c = 7
 * or 8 with the cell alive. Five three-input operations, where the form
 * before took seven; found by a SAT search, which also showed that four
 * cannot do it (issue 36). With u = t | h:
 *   Y = [h + f1 + t even], Z = u ? [H = f2 = 0] : [H != f2],
 *   A = t ? !o | self : !o & self, next = Y & Z & A.
 * 6 is t, one of h and f1, no eight, not o; 7 the same with o, alive; 8
 * is neither t nor o, alive, and h = f1 = 1 with no eight or h = f1 = 0
 * with one eight. Y & Z & A holds for exactly those: checked over all
 * 2^7 inputs in tests/test_life.c. */
LS_FN life_word life_decide_b6s567(life_word o, life_word t, life_word h, life_word f1, life_word H, life_word f2, life_word self)
{
    life_word u = life_lop3_or2(t, h, 0u);
    life_word z = life_lop3_16(u, H, f2);
    life_word y = life_lop3_xnor3(h, f1, t);
    life_word a = life_lop3_b2(t, o, self);
    return life_lop3_and3(y, z, a);
}

/* The sum of two rows' x sums (s0 + 2 s1 and t0 + 2 t1, 0..3 each) as
 * e0 + 2 e1 + 4 e2 (0..6): four operations. Two neighbouring output rows
 * y and y + 1 both need rows y and y + 1, so the walk makes this sum once
 * for both (life_next_b3s23_pair). */
LS_FN void life_pair_sum(life_word s0, life_word s1, life_word t0, life_word t1, life_word *e0, life_word *e1,
                         life_word *e2)
{
    life_word carry = life_lop3_and2(s0, t0, 0u);
    *e0 = life_lop3_xor2(s0, t0, 0u);
    *e1 = life_lop3_xor3(s1, t1, carry);
    *e2 = life_lop3_maj3(s1, t1, carry);
}

/* B3/S23 from a pair sum E (life_pair_sum of the cell's own row and a
 * neighbouring one), the x sum r0 + 2 r1 of the third row and the cell
 * itself: alive when E + R is 3, or 4 with the cell alive. Four
 * three-input operations, against life_next_b3s23's eight after the
 * shared x sums; with life_pair_sum's four made once for two rows, a row
 * of output costs 2 + 4 where it cost 8. The circuit was found by exact
 * synthesis (a SAT solver over every circuit of 3 and 4 gates: none of 3),
 * using two facts about the inputs: E is never 7, and E is at least 1
 * where the cell is alive (E includes the cell's own row, whose x sum
 * counts the cell). Checked against the plain rule over every input that
 * can occur in tests/test_life.c. */
LS_FN life_word life_next_b3s23_pair(life_word e0, life_word e1, life_word e2, life_word r0, life_word r1,
                                     life_word self)
{
    life_word g0 = life_lop3_bc(e0, r0, self); /* e0 ^ r0, or all three */
    life_word g1 = life_lop3_da(e1, e2, r1);   /* e1 ? e2 | !r1 : r1 */
    life_word g2 = life_lop3_4e(e2, self, g0); /* e2 ? self & !g0 : self | g0 */
    return life_lop3_82(g0, g1, g2);        /* g2 & (g0 == g1) */
}

/* Any rule straight from the x sums, as life_next_b3s23 for B3/S23: the
 * same next state as life_plane_sum and life_rule_2d. The sum is p0 + 2 T
 * + 4 q2 with T = k1 + q1 (0..2). For each T the next state is a function
 * of p0, q2 and the cell alone (f0, f1, f2), so with the rule a constant
 * each is one three-input operation, and two selects by k1 and t = k1 ^
 * q1 finish: 6 operations after the two full adders (nvcc 13, sm_90, any
 * rule built in), where selecting the leaves by p0, then T, then q2 took
 * 8 (B36/S23 65536^2 x 1024 181.2 ms on the H200, 1.49 times B3/S23:
 * docs/perf/2026-11-24-h200-final3.log). */
LS_FN life_word life_next_2d(life_rule r, life_word a0, life_word a1, life_word b0, life_word b1, life_word c0,
                             life_word c1, life_word self)
{
    life_word p0, k1, q1, q2;
    life_full_add(a0, b0, c0, &p0, &k1);
    life_full_add(a1, b1, c1, &q1, &q2);
#define LIFE_NEXT_2D_LEAVES(n)                                                                                \
    life_mux(q2, life_mux(p0, life_leaf(r, (n), self), life_leaf(r, (n) + 1u, self)),                         \
             life_mux(p0, life_leaf(r, (n) + 4u, self), life_leaf(r, (n) + 5u, self)))
    life_word f0 = LIFE_NEXT_2D_LEAVES(0u); /* T = 0: sums 0, 1, 4, 5 */
    life_word f1 = LIFE_NEXT_2D_LEAVES(2u); /* T = 1: sums 2, 3, 6, 7 */
    life_word f2 = LIFE_NEXT_2D_LEAVES(4u); /* T = 2: sums 4, 5, 8, 9 */
#undef LIFE_NEXT_2D_LEAVES
    return life_mux(k1 ^ q1, life_mux(k1, f0, f2), f1);
}

/* The 3x3 sum of a plane from the row sums of the rows above (u), at (c)
 * and below (d), left redundant: y0 + 2 (y1 + y2) + 4 y3 (0..9), in 4
 * operations where life_plane_sum's four bit-planes take 6. For
 * life_next_b6s567, which adds three of them. */
LS_FN void life_plane_sum_redundant(life_word u0, life_word u1, life_word c0, life_word c1, life_word d0, life_word d1,
                                    life_word *y0, life_word *y1, life_word *y2, life_word *y3)
{
    life_full_add3(u0, c0, d0, y0, y1); /* the ones: y0, a carry of weight 2 */
    life_full_add3(u1, c1, d1, y2, y3); /* the twos: weight 2 and 4 */
}

/* B6/S567 from the redundant 3x3 sums (life_plane_sum_redundant) of the
 * planes before (a), at (b) and after (c) along z, and the cell: the same
 * next state as life_cube_sum and life_rule_3d with the rule B6/S567, in
 * 17 three-input operations (12 adding, 5 deciding). The sum (self
 * included) is o + 2 t + 4 (e1 + f1) + 8 (e2 + f2): o the ones, t the
 * parity of the seven bits of weight 2 (three planes' two each and the
 * ones' carry), e1 + 2 e2 the three planes' y3 added, f1 + 2 f2 the twos'
 * carries; life_decide_b6s567 decides. Checked against life_cube_sum +
 * life_rule_3d over all 2^13 inputs in tests/test_life.c. */
LS_FN life_word life_next_b6s567(life_word a0, life_word a1, life_word a2, life_word a3, life_word b0, life_word b1,
                                 life_word b2, life_word b3, life_word c0, life_word c1, life_word c2, life_word c3,
                                 life_word self)
{
    life_word o, k, x1, x2, y1, y2, t, z2, e1, e2, f1, f2;
    life_full_add3(a0, b0, c0, &o, &k);
    life_full_add3(a1, b1, c1, &x1, &x2);
    life_full_add3(a2, b2, c2, &y1, &y2);
    life_full_add3(x1, y1, k, &t, &z2);
    life_full_add3(a3, b3, c3, &e1, &e2);
    life_full_add3(x2, y2, z2, &f1, &f2);
    return life_decide_b6s567(o, t, e1, f1, e2, f2, self);
}

/* The 3x3x3 sum in two parts, for walks along z that make neighbouring
 * planes z and z + 1 in turn: both outputs add planes z and z + 1, so
 * their sum is made once (life_zpair_sum) and each output adds only its
 * third plane (life_zpair_add), z - 1 for z and z + 2 for z + 1. With P
 * and Q the pair's redundant 3x3 sums (life_plane_sum_redundant: p0 +
 * 2 (p1 + p2) + 4 p3), P + Q = p0 + q0 + 2 (a + q2) + 4 h + 8 H: two full
 * adders, p1 + p2 + q1 = a + 2 A and p3 + q3 + A = h + 2 H. Rule-free;
 * the pair is p0, q0, q2, a, h and H. */
LS_FN void life_zpair_sum(life_word p1, life_word p2, life_word p3, life_word q1, life_word q3, life_word *a,
                          life_word *h, life_word *H)
{
    life_word A;
    life_full_add3(p1, p2, q1, a, &A);
    life_full_add3(p3, q3, A, h, H);
}

/* A pair (life_zpair_sum) plus the third plane's redundant 3x3 sum r:
 * the 3x3x3 sum is o + 2 t + 4 (h + f1) + 8 (H + f2), in four full
 * adders: r0 + p0 + q0 = o + 2 k; r1 + r2 + a = x + 2 X; x + q2 + k =
 * t + 2 Y; r3 + X + Y = f1 + 2 f2. With the pair's 4 made once for two
 * outputs, a word's 3x3x3 sum costs 2 + 8 operations where
 * life_next_b6s567's took 12. */
LS_FN void life_zpair_add(life_word p0, life_word q0, life_word q2, life_word a, life_word r0, life_word r1,
                          life_word r2, life_word r3, life_word *o, life_word *t, life_word *f1, life_word *f2)
{
    life_word k, x, X, Y;
    life_full_add3(r0, p0, q0, o, &k);
    life_full_add3(r1, r2, a, &x, &X);
    life_full_add3(x, q2, k, t, &Y);
    life_full_add3(r3, X, Y, f1, f2);
}

/* Any rule from that sum: its planes made whole (s2 + 2 s3 + 4 s4 =
 * h + f1 + 2 (H + f2)) and life_rule_3d's tree. */
LS_FN life_word life_decide_3d(life_rule r, life_word o, life_word t, life_word h, life_word f1, life_word H,
                                life_word f2, life_word self)
{
    life_word s2 = life_lop3_xor2(h, f1, 0u), k = life_lop3_and2(h, f1, 0u), s3, s4;
    life_full_add3(H, f2, k, &s3, &s4);
    return life_rule_3d(r, self, o, t, s2, s3, s4);
}

/* ---- one word, whole ------------------------------------------------- */

/* The next state of a word of a 2D grid from the west/centre/east words
 * of the rows above (u), at (c) and below (d) it. */
LS_FN life_word life_word_2d(life_rule r, life_word uw, life_word uc, life_word ue, life_word cw, life_word cc,
                             life_word ce, life_word dw, life_word dc, life_word de)
{
    life_word u0, u1, c0, c1, d0, d1, p0, p1, p2, p3;
    life_row_sum(uw, uc, ue, &u0, &u1);
    life_row_sum(cw, cc, ce, &c0, &c1);
    life_row_sum(dw, dc, de, &d0, &d1);
    life_plane_sum(u0, u1, c0, c1, d0, d1, &p0, &p1, &p2, &p3);
    return life_rule_2d(r, cc, p0, p1, p2, p3);
}

/* The next state of a word of a 3D grid from the 3x3 sums (four planes
 * each) of its plane (b), the plane before it (a) and after it (c) along
 * z, and the word itself. */
LS_FN life_word life_word_3d(life_rule r, life_word self, life_word a0, life_word a1, life_word a2, life_word a3,
                             life_word b0, life_word b1, life_word b2, life_word b3, life_word c0, life_word c1,
                             life_word c2, life_word c3)
{
    life_word s0, s1, s2, s3, s4;
    life_cube_sum(a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, &s0, &s1, &s2, &s3, &s4);
    return life_rule_3d(r, self, s0, s1, s2, s3, s4);
}

#endif
