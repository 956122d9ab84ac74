/* bench_life.c - times the CPU Life loop (not a test; built next to the
 * tests): bench_life DIMS NX NY NZ STEPS DENSITY [RULE] [VARIANT] [THREADS].
 * Prints cell updates per second of the best of three runs. */
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "life_cpu.h"
#include "life_grid.h"
#include "life_rule.h"

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: bench_life DIMS NX NY NZ STEPS DENSITY [RULE] [VARIANT] [THREADS]\n");
        return 2;
    }
    unsigned dims = (unsigned)atoi(argv[1]);
    uint32_t nx = (uint32_t)atol(argv[2]), ny = (uint32_t)atol(argv[3]), nz = (uint32_t)atol(argv[4]);
    uint64_t steps = strtoull(argv[5], NULL, 10);
    double density = atof(argv[6]);
    ls_error err;
    life_rule rule = life_rule_default(dims);
    if (argc > 7 && life_rule_parse(argv[7], dims, &rule, &err)) {
        fprintf(stderr, "bench_life: %s\n", err.msg);
        return 2;
    }
    const char *variant = argc > 8 ? argv[8] : NULL;
    int threads = argc > 9 ? atoi(argv[9]) : 0;
    life_grid g;
    if (life_grid_init(&g, dims, nx, ny, nz, &err)) {
        fprintf(stderr, "bench_life: %s\n", err.msg);
        return 2;
    }
    double best = 0;
    for (int rep = 0; rep < 3; rep++) {
        life_grid_fill_random(&g, 1, density);
        double t0 = omp_get_wtime();
        if (life_cpu_run_variant(&g, rule, steps, threads, variant, &err)) {
            fprintf(stderr, "bench_life: %s\n", err.msg);
            return 1;
        }
        double t = omp_get_wtime() - t0;
        if (best == 0 || t < best)
            best = t;
    }
    double cells = (double)nx * ny * nz * (double)steps;
    printf("%uD %ux%ux%u x %" PRIu64 " density %.2f %s: %.4f s, %.3g cell updates/s, population %" PRIu64 "\n", dims,
           nx, ny, nz, steps, density, variant ? variant : life_cpu_variant(), best, cells / best,
           life_grid_population(&g));
    life_grid_free(&g);
    return 0;
}
