/* life_kernels.h - Life on GPUs, written once for OpenCL and CUDA
 * (src/kernels/dialect.h); the per-word logic is src/algo/life.h.
 *
 * One generation per launch, one work-item per 32-bit word of the packed
 * grid (layout: src/workloads/life/life_grid.h), one bit per cell in
 * device memory. A work-item reads the words it needs straight from
 * global memory (its own, the two beside it, in the rows above and below
 * and, in 3D, in the planes before and after) and writes its next word;
 * neighbouring work-items share those reads through the cache. The torus
 * seam and rows that end inside a word are handled as on the CPU. The
 * rule arrives as its two masks; every rule, B0 included, runs the same
 * multiplexer tree. Correctness first: temporal blocking and shared-memory
 * tiles are left for later (docs/life.md). */
#include "dialect.h"
#include "life.h"

/* Row sum (west + centre + east) of word j of the row at `row`. */
LS_DEVICE void life_row_sum_at(const LS_GLOBAL ls_u32 *row, ls_u32 j, ls_u32 row_words, ls_u32 last_bits,
                               ls_u32 *s0, ls_u32 *s1)
{
    ls_u32 w = row[j];
    ls_u32 west = j > 0 ? life_west(w, row[j - 1u]) : life_west_first(w, (row[row_words - 1u] >> (last_bits - 1u)) & 1u);
    ls_u32 east = j + 1u < row_words ? life_east(w, row[j + 1u]) : life_east_last(w, row[0] & 1u, last_bits);
    life_row_sum(west, w, east, s0, s1);
}

/* 3x3 sum (four planes) of word j around row y of the plane at `plane`. */
LS_DEVICE void life_plane_sum_at(const LS_GLOBAL ls_u32 *plane, ls_u32 y, ls_u32 j, ls_u32 row_words, ls_u32 ny,
                                 ls_u32 last_bits, ls_u32 *p0, ls_u32 *p1, ls_u32 *p2, ls_u32 *p3)
{
    ls_u32 u0, u1, c0, c1, d0, d1;
    ls_u32 up = (y + ny - 1u) % ny, down = (y + 1u) % ny;
    life_row_sum_at(plane + (ls_u64)up * row_words, j, row_words, last_bits, &u0, &u1);
    life_row_sum_at(plane + (ls_u64)y * row_words, j, row_words, last_bits, &c0, &c1);
    life_row_sum_at(plane + (ls_u64)down * row_words, j, row_words, last_bits, &d0, &d1);
    life_plane_sum(u0, u1, c0, c1, d0, d1, p0, p1, p2, p3);
}

/* One generation of a 2D grid (nwords = row_words * ny). */
LS_KERNEL void life_step_2d(const LS_GLOBAL ls_u32 *src, LS_GLOBAL ls_u32 *dst, ls_u64 nwords, ls_u32 row_words,
                            ls_u32 ny, ls_u32 last_bits, ls_u32 birth, ls_u32 survive)
{
    ls_u64 i = ls_gid();
    if (i >= nwords)
        return;
    ls_u32 j = (ls_u32)(i % row_words), y = (ls_u32)(i / row_words);
    life_rule r;
    r.birth = birth;
    r.survive = survive;
    ls_u32 p0, p1, p2, p3;
    life_plane_sum_at(src, y, j, row_words, ny, last_bits, &p0, &p1, &p2, &p3);
    ls_u32 next = life_rule_2d(r, src[i], p0, p1, p2, p3);
    dst[i] = j + 1u == row_words ? next & life_valid_mask(last_bits) : next;
}

/* One generation of a 3D grid (nwords = row_words * ny * nz). */
LS_KERNEL void life_step_3d(const LS_GLOBAL ls_u32 *src, LS_GLOBAL ls_u32 *dst, ls_u64 nwords, ls_u32 row_words,
                            ls_u32 ny, ls_u32 nz, ls_u32 last_bits, ls_u32 birth, ls_u32 survive)
{
    ls_u64 i = ls_gid();
    if (i >= nwords)
        return;
    ls_u64 row = i / row_words, plane_words = (ls_u64)row_words * ny;
    ls_u32 j = (ls_u32)(i % row_words), y = (ls_u32)(row % ny), z = (ls_u32)(row / ny);
    life_rule r;
    r.birth = birth;
    r.survive = survive;
    ls_u32 a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3;
    life_plane_sum_at(src + (ls_u64)((z + nz - 1u) % nz) * plane_words, y, j, row_words, ny, last_bits, &a0, &a1, &a2,
                      &a3);
    life_plane_sum_at(src + (ls_u64)z * plane_words, y, j, row_words, ny, last_bits, &b0, &b1, &b2, &b3);
    life_plane_sum_at(src + (ls_u64)((z + 1u) % nz) * plane_words, y, j, row_words, ny, last_bits, &c0, &c1, &c2,
                      &c3);
    ls_u32 next = life_word_3d(r, src[i], a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3);
    dst[i] = j + 1u == row_words ? next & life_valid_mask(last_bits) : next;
}

#define LS_PROGRAM_KERNELS(X) X(life_step_2d) X(life_step_3d)
