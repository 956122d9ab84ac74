/* life_host.c - Life's host program: life_gpu.c's launches on the host
 * device, run by the CPU implementation (life_host.h). */
#include "life_host.h"

#include "life_cpu.h"
#include "life_grid.h"

/* The grid a launch's sizes describe, without cells: a row of row_words
 * words whose last holds last_bits cells is nx cells long. */
static int launch_grid(const ls_host_call *c, int first, life_grid *g, ls_error *err)
{
    uint32_t row_words, ny, nz, last_bits, dims, bounded;
    if (ls_host_u32(c, first, &row_words, err) || ls_host_u32(c, first + 1, &ny, err) ||
        ls_host_u32(c, first + 2, &nz, err) || ls_host_u32(c, first + 3, &last_bits, err) ||
        ls_host_u32(c, first + 4, &dims, err) || ls_host_u32(c, first + 5, &bounded, err))
        return -1;
    if (row_words == 0 || last_bits == 0 || last_bits > 32 || (dims != 2 && dims != 3) ||
        (uint64_t)row_words * 32u > UINT32_MAX)
        return ls_fail(err, "host kernel %s: no grid of %u words a row, %u cells in the last, %u dimensions", c->kernel,
                       row_words, last_bits, dims);
    life_grid_shape(g, dims, (row_words - 1u) * 32u + last_bits, ny, dims == 3 ? nz : 1u);
    g->bounded = bounded != 0;
    return 0;
}

/* `gens` generations of argument 0, ping-ponging between it and argument
 * 1 (life_host.h). */
static int host_steps(const ls_host_call *c, ls_error *err)
{
    life_grid g;
    uint32_t birth, survive, gens;
    void *cur, *next;
    if (launch_grid(c, 2, &g, err) || ls_host_u32(c, 8, &birth, err) || ls_host_u32(c, 9, &survive, err) ||
        ls_host_u32(c, 10, &gens, err) || ls_host_buf(c, 0, g.nwords * sizeof(uint32_t), &cur, err) ||
        ls_host_buf(c, 1, g.nwords * sizeof(uint32_t), &next, err))
        return -1;
    void *sums;
    if (ls_host_buf(c, 11, 0, &sums, err))
        return -1;
    return life_cpu_between(&g, (life_rule){birth, survive}, gens, cur, next, sums, sums ? c->bytes[11] : 0, err);
}

/* The random start of `words` words from word `off` on (whole rows, the
 * first row row0 of the grid), as src/kernels/life_kernels.h's life_fill
 * takes it: 64-bit figures in two halves. */
static int host_fill(const ls_host_call *c, ls_error *err)
{
    uint32_t v[12];
    for (int i = 0; i < 12; i++)
        if (ls_host_u32(c, i + 1, &v[i], err))
            return -1;
    uint32_t row_words = v[0], nx = v[1], threshold = v[11];
    uint64_t row0 = (uint64_t)v[4] << 32 | v[3], off = (uint64_t)v[6] << 32 | v[5];
    uint64_t words = (uint64_t)v[8] << 32 | v[7], seed = (uint64_t)v[10] << 32 | v[9];
    void *cells;
    if (row_words == 0 || words % row_words != 0 || words > SIZE_MAX / sizeof(uint32_t) ||
        off > SIZE_MAX / sizeof(uint32_t) - words)
        return ls_fail(err, "host kernel %s: %llu words from word %llu are no whole rows of %u words", c->kernel,
                       (unsigned long long)words, (unsigned long long)off, row_words);
    if (ls_host_buf(c, 0, (size_t)(off + words) * sizeof(uint32_t), &cells, err))
        return -1;
    life_cpu_fill((uint32_t *)cells + off, nx, row_words, row0, words / row_words, seed, threshold);
    return 0;
}

static const ls_host_kernel life_host_kernels[] = {
    {"life_host_steps", host_steps, LIFE_HOST_STEPS_ARGS},
    {"life_fill", host_fill, 13},
    {NULL, NULL, 0},
};

const ls_host_program life_host_program = {"life", life_host_kernels};
