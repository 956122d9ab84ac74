/* ref_life_golden.c - recomputes every conformance case of Life
 * (src/workloads/life/life_golden.h) with the byte-per-cell reference and
 * fails when the table disagrees; `--print` writes the table's entries
 * with the reference's answers, to paste over the table (a new case is
 * added with answers 0 and the table printed again). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "life_golden.h"
#include "life_cpu.h"
#include "life_grid.h"
#include "ref_life.h"

int main(int argc, char **argv)
{
    int print = argc > 1 && strcmp(argv[1], "--print") == 0, failures = 0;
    for (int i = 0; i < LIFE_GOLDEN_COUNT; i++) {
        const life_golden *c = &life_golden_cases[i];
        ls_error err;
        life_grid g;
        if (life_grid_init(&g, c->dims, c->nx, c->ny, c->nz, &err)) {
            printf("FAIL %s: %s\n", c->name, err.msg);
            return 1;
        }
        life_grid_fill_random(&g, c->seed, c->density);
        ref_grid r;
        ref_init(&r, c->dims, c->nx, c->ny, c->nz);
        r.bounded = c->bounded;
        ref_from_grid(&r, &g);
        ref_run(&r, c->birth, c->survive, c->steps);
        uint64_t pop = ref_population(&r), digest = ref_digest_v2(&r);
        if (print)
            printf("    {\"%s\", %u, %u, %u, %u, 0x%x, 0x%x, %" PRIu64 ", %" PRIu64 ", %g, %d, %" PRIu64
                   ", 0x%016" PRIx64 "ull},\n",
                   c->name, c->dims, c->nx, c->ny, c->nz, c->birth, c->survive, c->steps, c->seed, c->density,
                   c->bounded, pop, digest);
        else if (pop != c->population || digest != c->digest) {
            printf("FAIL %s: reference %" PRIu64 " %016" PRIx64 ", table %" PRIu64 " %016" PRIx64 "\n", c->name, pop,
                   digest, c->population, c->digest);
            failures++;
        }
        ref_free(&r);
        life_grid_free(&g);
    }
    printf("%d golden cases, %d wrong\n", LIFE_GOLDEN_COUNT, failures);
    return failures ? 1 : 0;
}
