/* ref_life_series.c - the population every K generations of a random grid,
 * by the byte-per-cell reference (tests/ref_life.c), one generation at a
 * time: the independent answer that `lockstep life --every K` must give,
 * whatever its chunks.
 *
 *   ref_life_series DIMS NX NY NZ SEED DENSITY BIRTH SURVIVE STEPS EVERY
 *
 * BIRTH and SURVIVE are the rule's masks (bit n: n live neighbours). Prints
 * the populations at generations 0, K, 2K, ... as a JSON list. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "life_cpu.h"
#include "life_grid.h"
#include "ref_life.h"

int main(int argc, char **argv)
{
    if (argc != 11) {
        fprintf(stderr, "usage: ref_life_series DIMS NX NY NZ SEED DENSITY BIRTH SURVIVE STEPS EVERY\n");
        return 2;
    }
    unsigned dims = (unsigned)strtoul(argv[1], NULL, 10);
    uint32_t nx = (uint32_t)strtoul(argv[2], NULL, 10), ny = (uint32_t)strtoul(argv[3], NULL, 10);
    uint32_t nz = (uint32_t)strtoul(argv[4], NULL, 10);
    uint64_t seed = strtoull(argv[5], NULL, 10), steps = strtoull(argv[9], NULL, 10);
    uint64_t every = strtoull(argv[10], NULL, 10);
    double density = strtod(argv[6], NULL);
    uint32_t birth = (uint32_t)strtoul(argv[7], NULL, 0), survive = (uint32_t)strtoul(argv[8], NULL, 0);
    if (every == 0) {
        fprintf(stderr, "ref_life_series: EVERY must be at least 1\n");
        return 2;
    }
    ls_error err;
    life_grid g;
    if (life_grid_init(&g, dims, nx, ny, dims == 2 ? 1 : nz, &err)) {
        fprintf(stderr, "ref_life_series: %s\n", err.msg);
        return 2;
    }
    life_grid_fill_random(&g, seed, density);
    ref_grid r;
    ref_init(&r, dims, g.nx, g.ny, g.nz);
    ref_from_grid(&r, &g);
    life_grid_free(&g);
    printf("[%" PRIu64, ref_population(&r));
    for (uint64_t t = every; t <= steps; t += every) {
        ref_run(&r, birth, survive, every);
        printf(",%" PRIu64, ref_population(&r));
    }
    printf("]\n");
    ref_free(&r);
    return 0;
}
