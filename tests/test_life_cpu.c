/* test_life_cpu.c - the bit-packed, bit-sliced CPU Life (every compiled
 * copy of its loop that runs here, 1 and 2 threads) against the byte-per-
 * cell reference (ref_life.c): random 2D and 3D grids at odd sizes and
 * boxes, odd and even step counts, the default rules, B0 rules and random
 * rules; then the random fill and the digest's own properties. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "life_cpu.h"
#include "life_grid.h"
#include "life_rule.h"
#include "ref_life.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "check.h"

/* A test-only generator for random rules (splitmix64). */
static uint64_t mix_state = 0x1234567887654321ull;
static uint64_t next_random(void)
{
    uint64_t z = (mix_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static const char *const variant_names[] = {"generic", "avx2", "avx512"};

/* One grid (a torus, or a bounded plane), one rule, one step count: every
 * variant and thread count against the reference. */
static void compare_on(int bounded, unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz, life_rule rule,
                       uint64_t steps, double density, uint64_t seed)
{
    ls_error err;
    life_grid start;
    if (life_grid_init(&start, dims, nx, ny, nz, &err)) {
        printf("FAIL init %ux%ux%u: %s\n", nx, ny, nz, err.msg);
        failures++;
        return;
    }
    life_grid_fill_random(&start, seed, density);
    ref_grid ref;
    ref_init(&ref, dims, nx, ny, nz);
    ref.bounded = bounded;
    ref_from_grid(&ref, &start);
    ref_run(&ref, rule.birth, rule.survive, steps);
    char rule_text[LIFE_RULE_TEXT];
    life_rule_format(rule, rule_text, sizeof rule_text);
    for (size_t v = 0; v < sizeof variant_names / sizeof variant_names[0]; v++)
        for (int threads = 1; threads <= 2; threads++) {
            life_grid g;
            if (life_grid_init(&g, dims, nx, ny, nz, &err)) {
                failures++;
                continue;
            }
            memcpy(g.words, start.words, start.nwords * sizeof *start.words);
            g.bounded = bounded;
            if (life_cpu_run_variant(&g, rule, steps, threads, variant_names[v], &err)) {
                life_grid_free(&g);
                continue; /* this copy does not run on this CPU */
            }
            char why[200] = "", what[400];
            int same = ref_equals_grid(&ref, &g, why, sizeof why);
            snprintf(what, sizeof what, "%uD %ux%ux%u %s %s %" PRIu64 " steps density %.2f %s %d threads: %s", dims,
                     nx, ny, nz, bounded ? "plane" : "torus", rule_text, steps, density, variant_names[v], threads,
                     why);
            check(same, what);
            check(life_grid_population(&g) == ref_population(&ref), what);
            life_grid_free(&g);
        }
    /* Between two buffers, as the host device's launches run it
     * (life_host.c): all at once, and an odd count then one at a time. */
    for (int split = 0; split < 2; split++) {
        life_grid a = {0}, b = {0};
        if (life_grid_init(&a, dims, nx, ny, nz, &err) || life_grid_init(&b, dims, nx, ny, nz, &err)) {
            check(0, err.msg);
            life_grid_free(&a);
            break;
        }
        memcpy(a.words, start.words, start.nwords * sizeof *start.words);
        a.bounded = b.bounded = bounded;
        uint64_t first = split ? steps - (steps % 2 == 0 && steps > 0) : steps;
        /* The row sums given by the caller the second time. */
        size_t sums_len = life_cpu_scratch_bytes(&a);
        void *sums = split ? aligned_alloc(64, (sums_len + 63) / 64 * 64) : NULL;
        int ok = life_cpu_between(&a, rule, first, a.words, b.words, sums, sums ? sums_len : 0, &err) == 0;
        int in_b = first % 2 == 1;
        for (uint64_t i = first; i < steps && ok; i++, in_b = !in_b)
            ok = (in_b ? life_cpu_between(&b, rule, 1, b.words, a.words, sums, sums_len, &err)
                       : life_cpu_between(&a, rule, 1, a.words, b.words, sums, sums_len, &err)) == 0;
        free(sums);
        char why[200] = "", what[400];
        int same = ok && ref_equals_grid(&ref, in_b ? &b : &a, why, sizeof why);
        snprintf(what, sizeof what, "%uD %ux%ux%u %s %s %" PRIu64 " steps between two buffers (%" PRIu64
                 " at once): %.200s", dims, nx, ny, nz, bounded ? "plane" : "torus", rule_text, steps, first,
                 ok ? why : err.msg);
        check(same, what);
        check(life_cpu_threads_for(&a) >= 1, "a generation runs on a thread at least");
        life_grid_free(&b);
        life_grid_free(&a);
    }
    ref_free(&ref);
    life_grid_free(&start);
}

static void compare(unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz, life_rule rule, uint64_t steps,
                    double density, uint64_t seed)
{
    compare_on(0, dims, nx, ny, nz, rule, steps, density, seed);
}

static life_rule random_rule(unsigned dims)
{
    uint32_t all = (2u << life_max_count(dims)) - 1u;
    life_rule r = {(uint32_t)next_random() & all, (uint32_t)next_random() & all};
    return r;
}

static void test_2d(void)
{
    static const uint32_t sizes[][2] = {{4, 4}, {5, 7}, {31, 33}, {32, 32}, {33, 4}, {64, 5},
                                        {100, 37}, {65, 65}, {97, 6}, {129, 9}};
    life_rule conway = life_rule_default(2);
    life_rule b0 = {1u | (1u << 3), (1u << 2) | (1u << 8)}; /* B03/S28: empty cells are born */
    life_rule b0_all = {0x1ffu, 0};                         /* everything dead is born, nothing survives */
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint32_t nx = sizes[i][0], ny = sizes[i][1];
        compare(2, nx, ny, 1, conway, 7, 0.5, 1 + i);
        compare(2, nx, ny, 1, conway, 6, 0.2, 11 + i);
        compare(2, nx, ny, 1, b0, 5, 0.3, 21 + i);
        compare(2, nx, ny, 1, b0_all, 3, 0.5, 31 + i);
        compare(2, nx, ny, 1, random_rule(2), 1 + (uint32_t)(next_random() % 6), 0.5, 41 + i);
        compare(2, nx, ny, 1, random_rule(2), 1 + (uint32_t)(next_random() % 6), 0.2, 51 + i);
    }
}

static void test_3d(void)
{
    static const uint32_t sizes[][3] = {{4, 4, 4}, {5, 6, 7}, {33, 9, 5}, {32, 8, 8}, {70, 5, 6},
                                        {7, 33, 4}, {64, 4, 9}, {31, 31, 31}, {9, 5, 70}, {40, 6, 33}};
    life_rule bays = life_rule_default(3);
    life_rule b0 = {1u | (1u << 6), (1u << 5) | (1u << 26)};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint32_t nx = sizes[i][0], ny = sizes[i][1], nz = sizes[i][2];
        compare(3, nx, ny, nz, bays, 5, 0.5, 100 + i);
        compare(3, nx, ny, nz, bays, 4, 0.2, 110 + i);
        compare(3, nx, ny, nz, b0, 3, 0.3, 120 + i);
        compare(3, nx, ny, nz, random_rule(3), 1 + (uint32_t)(next_random() % 4), 0.5, 130 + i);
        compare(3, nx, ny, nz, random_rule(3), 1 + (uint32_t)(next_random() % 4), 0.1, 140 + i);
    }
}

/* Bounded planes (Golly's ":P" grids): the edges are dead, not wrapped.
 * B0 rules show it most: on a torus an empty grid is born whole, on a
 * plane the cells along the edges see fewer neighbours than the rest. */
static void test_bounded(void)
{
    static const uint32_t sizes2[][2] = {{4, 4}, {5, 7}, {31, 33}, {32, 32}, {33, 4}, {64, 5}, {65, 65}, {97, 6}};
    static const uint32_t sizes3[][3] = {{4, 4, 4}, {5, 6, 7}, {33, 9, 5}, {32, 8, 8}, {64, 4, 9}, {40, 6, 33}};
    life_rule b0 = {1u | (1u << 3), (1u << 2) | (1u << 8)};
    life_rule b0_3d = {1u | (1u << 6), (1u << 5) | (1u << 26)};
    for (size_t i = 0; i < sizeof sizes2 / sizeof sizes2[0]; i++) {
        uint32_t nx = sizes2[i][0], ny = sizes2[i][1];
        compare_on(1, 2, nx, ny, 1, life_rule_default(2), 7, 0.5, 201 + i);
        compare_on(1, 2, nx, ny, 1, b0, 6, 0.3, 211 + i);
        compare_on(1, 2, nx, ny, 1, random_rule(2), 1 + (uint32_t)(next_random() % 6), 0.4, 221 + i);
    }
    for (size_t i = 0; i < sizeof sizes3 / sizeof sizes3[0]; i++) {
        uint32_t nx = sizes3[i][0], ny = sizes3[i][1], nz = sizes3[i][2];
        compare_on(1, 3, nx, ny, nz, life_rule_default(3), 5, 0.5, 301 + i);
        compare_on(1, 3, nx, ny, nz, b0_3d, 3, 0.3, 311 + i);
        compare_on(1, 3, nx, ny, nz, random_rule(3), 1 + (uint32_t)(next_random() % 4), 0.4, 321 + i);
    }
}

/* The fill keys cells by index: a cell's state does not depend on the
 * grid's width, and the density comes out as asked. */
static void test_fill_and_digest(void)
{
    ls_error err;
    life_grid a, b;
    if (life_grid_init(&a, 2, 40, 50, 1, &err) || life_grid_init(&b, 2, 40, 50, 1, &err)) {
        printf("FAIL init: %s\n", err.msg);
        failures++;
        return;
    }
    life_grid_fill_random(&a, 7, 0.5);
    life_grid_fill_random(&b, 7, 0.5);
    check(life_grid_digest(&a) == life_grid_digest(&b), "same seed, same digest");
    life_grid_fill_random(&b, 8, 0.5);
    check(life_grid_digest(&a) != life_grid_digest(&b), "another seed, another digest");
    uint64_t pop = life_grid_population(&a);
    check(pop > 900 && pop < 1100, "density 0.5 gives about 1000 of 2000 cells");
    uint64_t hashes[50];
    check(life_grid_unit_hashes(&a, 0, hashes) == pop, "the unit hashes' pass counts the population");
    life_grid_fill_random(&b, 7, 1.0);
    check(life_grid_population(&b) == 2000, "density 1 fills every cell");
    life_grid_fill_random(&b, 7, 0.0);
    check(life_grid_population(&b) == 0, "density 0 leaves the grid empty");
    /* The empty 40x50 grid, version 2 computed here from docs/life.md
     * with XXH3 directly: 50 rows of 5 zero bytes, each hashed with its
     * index as seed, after nx, ny, nz, all hashed with seed 2. */
    uint8_t list[24 + 8 * 50], zeros[5] = {0};
    uint64_t ext[3] = {40, 50, 1};
    for (int i = 0; i < 24; i++)
        list[i] = (uint8_t)(ext[i / 8] >> (8 * (i % 8)));
    for (int y = 0; y < 50; y++) {
        uint64_t hy = XXH3_64bits_withSeed(zeros, sizeof zeros, (uint64_t)y);
        for (int i = 0; i < 8; i++)
            list[24 + 8 * y + i] = (uint8_t)(hy >> (8 * i));
    }
    uint64_t h = XXH3_64bits_withSeed(list, sizeof list, 2);
    check(life_grid_digest(&b) == h, "digest of the empty grid as docs/life.md defines it");
    life_set(&b, 0, 0, 0, 1);
    check(life_grid_digest(&b) != h, "one cell changes the digest");
    /* A cell beyond nx in a row's last word is not a cell: not hashed. */
    life_set(&b, 0, 0, 0, 0);
    b.words[b.row_words - 1] |= 1u << 31;
    check(life_grid_digest(&b) == h, "bits past a row's last cell are not part of the digest");
    b.words[b.row_words - 1] = 0;
    life_grid_free(&a);
    life_grid_free(&b);
}

int main(void)
{
    printf("CPU loop here: %s\n", life_cpu_variant());
    test_2d();
    test_3d();
    test_bounded();
    test_fill_and_digest();
    return check_finish();
}
