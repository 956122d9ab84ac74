/* test_life.c - Life's rule notation and known answers from independent
 * sources, run through the RLE reader and the CPU implementation:
 *   - an R-pentomino on a 1024x1024 torus has 116 live cells at
 *     generation 1103 (LifeWiki, "R-pentomino": it stabilises at 1103
 *     with 116 cells on an unbounded plane; its debris and the six gliders
 *     it emits have not yet met across a 1024 torus by then),
 *   - a glider is the same shape moved by (1, 1) after 4 generations,
 *   - a blinker has period 2,
 *   - the Gosper glider gun (LifeWiki's RLE) has 36 cells and period 30
 *     with one glider added every period. */
#include <stdio.h>
#include <string.h>

#include "life_cpu.h"
#include "life_io.h"
#include "life_text.h"
#include "life_rule.h"

#include "check.h"

/* ---- rules ------------------------------------------------------------- */

static void expect_rule(const char *text, unsigned dims, uint32_t birth, uint32_t survive)
{
    life_rule r;
    ls_error err;
    char what[200];
    snprintf(what, sizeof what, "rule '%s' in %uD parses", text, dims);
    int ok = life_rule_parse(text, dims, &r, &err) == 0;
    check(ok && r.birth == birth && r.survive == survive, what);
}

static void expect_bad_rule(const char *text, unsigned dims)
{
    life_rule r;
    ls_error err = {"", 0};
    char what[300];
    int rc = life_rule_parse(text, dims, &r, &err);
    snprintf(what, sizeof what, "rule '%s' in %uD is refused in one line (got: %s)", text, dims, err.msg);
    check(rc == -1 && err.usage == 1 && err.msg[0] && !strchr(err.msg, '\n'), what);
}

static void expect_format(uint32_t birth, uint32_t survive, const char *text)
{
    char out[LIFE_RULE_TEXT], what[200];
    life_rule r = {birth, survive};
    life_rule_format(r, out, sizeof out);
    snprintf(what, sizeof what, "rule written as '%s', expected '%s'", out, text);
    check(strcmp(out, text) == 0, what);
}

static void test_rules(void)
{
    expect_rule("B3/S23", 2, 1u << 3, 1u << 2 | 1u << 3);
    expect_rule("b3/s23", 2, 1u << 3, 1u << 2 | 1u << 3);
    expect_rule("S23/B3", 2, 1u << 3, 1u << 2 | 1u << 3);
    expect_rule("B6/S567", 3, 1u << 6, 7u << 5);
    expect_rule("B6/S5-7", 3, 1u << 6, 7u << 5);
    expect_rule("B13,14/S10-12", 3, 3u << 13, 7u << 10);
    expect_rule("B0/S8", 2, 1u, 1u << 8);
    expect_rule("B/S", 2, 0, 0);
    expect_rule("B27/S5", 3, 1u << 2 | 1u << 7, 1u << 5); /* digits: counts 2 and 7 */
    expect_rule("B0-26/S0-26", 3, (1u << 27) - 1, (1u << 27) - 1);
    expect_bad_rule("B9/S23", 2);
    expect_bad_rule("B27,3/S5", 3);
    expect_bad_rule("B3", 2);
    expect_bad_rule("S23", 2);
    expect_bad_rule("B3/S2x", 2);
    expect_bad_rule("X3/S23", 2);
    expect_bad_rule("B3/B23", 2);
    expect_bad_rule("B7-5/S", 3);
    expect_bad_rule("B1,/S", 3);
    expect_bad_rule("B1,,2/S", 3);
    expect_bad_rule("B3/S23/", 2);
    expect_bad_rule("B100,1/S1", 3);
    expect_format(1u << 3, 1u << 2 | 1u << 3, "B3/S23");
    expect_format(1u << 6, 7u << 5, "B6/S567");
    expect_format(3u << 13, 7u << 10, "B13,14/S10-12");
    expect_format(0, 0, "B/S");
    /* A lone count above 9 must not read back as digits (B14 is B1,4):
     * found by tests/fuzz/fuzz_life.c. */
    expect_format(1u << 14, 1u << 1, "B14-14/S1");
    expect_rule("B14-14/S1", 3, 1u << 14, 1u << 1);
    /* Every 3D rule written and read back is the same rule. */
    uint32_t x = 12345;
    for (int i = 0; i < 200; i++) {
        x = x * 1103515245u + 12345u;
        life_rule r = {x & ((1u << 27) - 1), (x * 2654435761u) & ((1u << 27) - 1)}, back;
        char text[LIFE_RULE_TEXT];
        ls_error err;
        life_rule_format(r, text, sizeof text);
        check(life_rule_parse(text, 3, &back, &err) == 0 && back.birth == r.birth && back.survive == r.survive,
              text);
    }
}

/* Names, S/B order and grid suffixes (life_rule_parse_spec). */
static void expect_spec(const char *text, unsigned dims, uint32_t birth, uint32_t survive, unsigned implied,
                        const char *grid)
{
    life_rule_spec spec;
    ls_error err = {"", 0};
    char what[300], suffix[LIFE_TOPOLOGY_TEXT] = "";
    int ok = life_rule_parse_spec(text, dims, &spec, &err) == 0;
    if (ok && spec.grid.given) /* the suffix as given: its letter and each of its sides */
        snprintf(suffix, sizeof suffix, ":%c", spec.grid.bounded ? 'P' : 'T');
    for (unsigned i = 0; ok && spec.grid.given && i < spec.grid.sides; i++)
        snprintf(suffix + strlen(suffix), sizeof suffix - strlen(suffix), "%s%u", i ? "," : "", spec.grid.size[i]);
    snprintf(what, sizeof what, "rule '%s' (dims %u): B%x/S%x, %uD, grid '%s' (got %s B%x/S%x %uD '%s')", text, dims,
             birth, survive, implied, grid, ok ? "ok" : err.msg, ok ? spec.rule.birth : 0,
             ok ? spec.rule.survive : 0, ok ? spec.dims : 0, suffix);
    check(ok && spec.rule.birth == birth && spec.rule.survive == survive && spec.dims == implied &&
              strcmp(suffix, grid) == 0,
          what);
}

/* Refused, in one line that holds `says`. */
static void expect_bad_spec(const char *text, unsigned dims, const char *says)
{
    life_rule_spec spec;
    ls_error err = {"", 0};
    char what[400];
    int rc = life_rule_parse_spec(text, dims, &spec, &err);
    snprintf(what, sizeof what, "rule '%s' (dims %u) is refused saying '%s' (got: %s)", text, dims, says,
             rc ? err.msg : "accepted");
    check(rc == -1 && err.usage == 1 && strstr(err.msg, says) && !strchr(err.msg, '\n'), what);
}

#define B(n) (1u << (n))

static void test_rule_names_and_grids(void)
{
    /* Names people type, in any case and spacing. */
    expect_spec("Life", 0, B(3), B(2) | B(3), 2, "");
    expect_spec("life", 2, B(3), B(2) | B(3), 2, "");
    expect_spec("HighLife", 2, B(3) | B(6), B(2) | B(3), 2, "");
    expect_spec("Seeds", 2, B(2), 0, 2, "");
    expect_spec("Day & Night", 2, B(3) | B(6) | B(7) | B(8), B(3) | B(4) | B(6) | B(7) | B(8), 2, "");
    expect_spec("DayAndNight", 2, B(3) | B(6) | B(7) | B(8), B(3) | B(4) | B(6) | B(7) | B(8), 2, "");
    expect_spec("day and night", 0, B(3) | B(6) | B(7) | B(8), B(3) | B(4) | B(6) | B(7) | B(8), 2, "");
    expect_spec("Life without death", 2, B(3), 0x1ff, 2, "");
    expect_spec("2x2", 2, B(3) | B(6), B(1) | B(2) | B(5), 2, "");
    expect_spec("Diamoeba", 2, B(3) | B(5) | B(6) | B(7) | B(8), B(5) | B(6) | B(7) | B(8), 2, "");
    expect_spec("Morley", 2, B(3) | B(6) | B(8), B(2) | B(4) | B(5), 2, "");
    expect_spec("Replicator", 2, B(1) | B(3) | B(5) | B(7), B(1) | B(3) | B(5) | B(7), 2, "");
    /* S/B order, as Golly and MCell write it. */
    expect_spec("23/3", 0, B(3), B(2) | B(3), 2, "");
    expect_spec("23/36", 2, B(3) | B(6), B(2) | B(3), 2, "");
    expect_spec("/2", 2, B(2), 0, 2, "");
    /* Plain B/S counts the neighbours of whatever grid it is given. */
    expect_spec("B3/S23", 0, B(3), B(2) | B(3), 0, "");
    expect_spec("B3/S23", 3, B(3), B(2) | B(3), 0, "");
    expect_spec("B6/S567", 3, B(6), B(5) | B(6) | B(7), 0, "");
    /* B/S without its slash, as Catagolue and apgsearch write it (issue 27). */
    expect_spec("b3s23", 0, B(3), B(2) | B(3), 0, "");
    expect_spec("B3S23", 2, B(3), B(2) | B(3), 0, "");
    expect_spec("s23b36", 2, B(3) | B(6), B(2) | B(3), 0, "");
    expect_spec("B13,14S10-12", 3, B(13) | B(14), B(10) | B(11) | B(12), 0, "");
    expect_spec("b36s23:T64,32", 2, B(3) | B(6), B(2) | B(3), 2, ":T64,32");
    expect_spec("B2S", 2, B(2), 0, 0, "");
    /* Golly's Generations rules: two states is the Life-like rule, more
     * are refused by name. */
    expect_spec("B3/S23/2", 2, B(3), B(2) | B(3), 0, "");
    expect_spec("23/3/C2:P64,64", 2, B(3), B(2) | B(3), 2, ":P64,64");
    expect_bad_spec("B2/S/3", 2, "a Generations rule of 3 states");
    expect_bad_spec("/2/3", 2, "a Generations rule of 3 states");
    expect_bad_spec("B2/S345/C4:T64,64", 2, "a Generations rule of 4 states");
    expect_bad_spec("345/2/4", 0, "a Generations rule of 4 states");
    expect_bad_spec("Brian's Brain", 2, "Golly's B2/S/C3, a Generations rule of 3 states");
    expect_bad_spec("brians brain", 0, "Golly's B2/S/C3");
    expect_bad_spec("Star Wars", 2, "Golly's B2/S345/C4");
    expect_bad_spec("B3/S23/", 2, "the number of states after the second '/'");
    expect_bad_spec("B3/S23/C", 2, "the number of states after the second '/'");
    expect_bad_spec("B3/S23/3x", 2, "the number of states after the second '/'");
    /* Golly's grid suffixes; three sides for 3D, one for a square or cube. */
    expect_spec("B3/S23:T2048,2048", 0, B(3), B(2) | B(3), 2, ":T2048,2048");
    expect_spec("B3/S23:P64,32", 2, B(3), B(2) | B(3), 2, ":P64,32");
    expect_spec("b3/s23:p64,32", 2, B(3), B(2) | B(3), 2, ":P64,32");
    expect_spec("B6/S567:P64,32,16", 3, B(6), B(5) | B(6) | B(7), 3, ":P64,32,16");
    expect_spec("B6/S567:T40", 3, B(6), B(5) | B(6) | B(7), 0, ":T40");
    expect_spec("Life:P100,80", 2, B(3), B(2) | B(3), 2, ":P100,80");
    expect_spec("23/3:T10,12", 2, B(3), B(2) | B(3), 2, ":T10,12");
    /* 2D rules are refused on a 3D grid; suffixes that disagree with it too. */
    expect_bad_spec("Life", 3, "is a 2D rule by name");
    expect_bad_spec("HighLife", 3, "a 3D grid counts 26");
    expect_bad_spec("23/3", 3, "S/B order");
    expect_bad_spec("B3/S23:P64,64", 3, "has 2 sides (2D) and the grid is 3D");
    expect_bad_spec("B3/S23:P64,64,64", 2, "has 3 sides (3D) and the grid is 2D");
    expect_bad_spec("Life:P64,64,64", 0, "three sides");
    expect_bad_spec("93/3", 2, "above 8");
    /* A count given twice is a typo, not the count once (issue 34, item
     * 12): B3/S99 was read as B3/S9, and so as a 3D rule. */
    expect_bad_spec("B3/S99", 0, "rule 'B3/S99': survival count 9 is given twice");
    expect_bad_spec("B33/S23", 2, "birth count 3 is given twice");
    expect_bad_spec("b3s233", 2, "survival count 3 is given twice");
    expect_bad_spec("233/3", 2, "survival count 3 is given twice");
    expect_bad_spec("B3/S1-3,2", 0, "survival count 2 is given twice");
    expect_bad_spec("B3/S10,10", 0, "survival count 10 is given twice");
    expect_bad_spec("B6/S5,12:P112,14", 0, "above 8"); /* a 2D suffix: 2D counts (found by fuzz_life.c) */
    /* Grids lockstep does not run, and malformed suffixes. */
    expect_bad_spec("B3/S23:K64,64", 2, "Klein bottle");
    expect_bad_spec("B3/S23:S64", 2, "sphere");
    expect_bad_spec("B3/S23:C64,64", 2, "cross-surface");
    expect_bad_spec("B3/S23:T0,64", 2, "unbounded");
    expect_bad_spec("B3/S23:T3,64", 2, "4 to 1048576");
    expect_bad_spec("B3/S23:T64,64+1", 2, "without Golly's shifts");
    expect_bad_spec("B3/S23:T64,", 2, "expected the grid's sides");
    expect_bad_spec("B3/S23:T", 2, "expected the grid's sides");
    expect_bad_spec("B3/S23:Q8,8", 2, "expected a grid suffix");
    expect_bad_spec("B3/S23:T4,4,4,4", 0, "expected the grid's sides");
    expect_bad_spec("Lief", 2, "a rule name");
    expect_bad_spec("", 2, "a rule name");
    expect_bad_spec(":T8,8", 2, "a rule name");
    /* life_rule_parse drops a checked suffix. */
    life_rule r;
    ls_error err;
    check(life_rule_parse("Life:T64,64", 2, &r, &err) == 0 && r.birth == B(3), "life_rule_parse takes a suffix");
    check(life_rule_parse("Life:X64,64", 2, &r, &err) == -1, "life_rule_parse checks the suffix");
    char text[LIFE_TOPOLOGY_TEXT];
    life_topology_format(1, 2, 64, 32, 1, text, sizeof text);
    check(strcmp(text, ":P64,32") == 0, "a 2D plane's suffix is written :P64,32");
    life_topology_format(0, 3, 64, 32, 16, text, sizeof text);
    check(strcmp(text, ":T64,32,16") == 0, "a 3D torus's suffix is written :T64,32,16");
}

/* ---- known answers ------------------------------------------------------ */

/* A 2D grid of nx x ny with the RLE pattern where Golly puts it (or at `at`). */
static int grid_with(const char *rle, uint32_t nx, uint32_t ny, const life_at *at, life_grid *g)
{
    ls_error err;
    life_pattern p;
    FILE *f = fmemopen((void *)rle, strlen(rle), "r");
    if (!f || life_read_rle(f, "pattern", NULL, &p, &err)) {
        printf("FAIL reading %s: %s\n", rle, f ? err.msg : "fmemopen");
        failures++;
        if (f)
            fclose(f);
        return -1;
    }
    fclose(f);
    int rc = life_grid_init(g, 2, nx, ny, 1, &err) || life_place(g, &p, at, &err);
    if (rc) {
        printf("FAIL placing %s: %s\n", rle, err.msg);
        failures++;
    }
    life_pattern_free(&p);
    return rc ? -1 : 0;
}

static int run(life_grid *g, const char *rule, uint64_t steps)
{
    life_rule r;
    ls_error err;
    if (life_rule_parse(rule, g->dims, &r, &err) || life_cpu_run(g, r, steps, 0, &err)) {
        printf("FAIL running: %s\n", err.msg);
        failures++;
        return -1;
    }
    return 0;
}

static int same_cells(const life_grid *a, const life_grid *b)
{
    return a->nwords == b->nwords && memcmp(a->words, b->words, a->nwords * sizeof *a->words) == 0;
}

static void test_r_pentomino(void)
{
    life_grid g;
    if (grid_with("x = 3, y = 3, rule = B3/S23\nb2o$2ob$bo!\n", 1024, 1024, NULL, &g))
        return;
    check(life_grid_population(&g) == 5, "R-pentomino has 5 cells");
    if (run(&g, "B3/S23", 1103) == 0) {
        char what[100];
        snprintf(what, sizeof what, "R-pentomino: 116 cells at generation 1103 (got %llu)",
                 (unsigned long long)life_grid_population(&g));
        check(life_grid_population(&g) == 116, what);
    }
    life_grid_free(&g);
}

static void test_glider_and_blinker(void)
{
    life_grid g, moved, blinker, start;
    life_at at = {LIFE_PLACE_AT, 10, 20}, at_moved = {LIFE_PLACE_AT, 11, 21};
    /* The glider of LifeWiki, heading down and right (south-east). */
    if (grid_with("x = 3, y = 3\nbo$2bo$3o!\n", 37, 45, &at, &g) ||
        grid_with("x = 3, y = 3\nbo$2bo$3o!\n", 37, 45, &at_moved, &moved))
        return;
    run(&g, "B3/S23", 4);
    check(same_cells(&g, &moved), "a glider moves by (1, 1) in 4 generations");
    run(&g, "B3/S23", 4 * 37 * 45); /* lcm of the torus' orbit: back where it was plus (37*45, 37*45) */
    check(same_cells(&g, &moved), "a glider crosses the torus and comes back");
    life_grid_free(&g);
    life_grid_free(&moved);
    if (grid_with("x = 3, y = 1\n3o!\n", 9, 7, NULL, &blinker) || grid_with("x = 3, y = 1\n3o!\n", 9, 7, NULL, &start))
        return;
    run(&blinker, "B3/S23", 1);
    check(!same_cells(&blinker, &start) && life_grid_population(&blinker) == 3, "a blinker turns after 1 generation");
    run(&blinker, "B3/S23", 1);
    check(same_cells(&blinker, &start), "a blinker is back after 2 generations");
    run(&blinker, "B3/S23", 1001);
    check(!same_cells(&blinker, &start), "... and turned after 1003");
    life_grid_free(&blinker);
    life_grid_free(&start);
}

/* LifeWiki's RLE of the Gosper glider gun, as published. */
static const char gosper_rle[] =
    "#N Gosper glider gun\n"
    "#O Bill Gosper\n"
    "#C A true period 30 glider gun.\n"
    "#C The first known gun and the first known finite pattern with unbounded growth.\n"
    "#C www.conwaylife.com/wiki/index.php?title=Gosper_glider_gun\n"
    "x = 36, y = 9, rule = B3/S23\n"
    "24bo11b$22bobo11b$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o14b$2o8b\n"
    "o3bob2o4bobo11b$10bo5bo7bo11b$11bo3bo20b$12b2o22b!\n";

static void test_gosper_gun(void)
{
    life_grid g;
    life_at at = {LIFE_PLACE_AT, 2, 2};
    if (grid_with(gosper_rle, 200, 200, &at, &g))
        return;
    check(life_grid_population(&g) == 36, "the Gosper gun has 36 cells");
    /* After 30 generations: the gun again and one glider (5 cells). */
    run(&g, "B3/S23", 30);
    char what[100];
    snprintf(what, sizeof what, "Gosper gun at generation 30: 36 + 5 cells (got %llu)",
             (unsigned long long)life_grid_population(&g));
    check(life_grid_population(&g) == 41, what);
    life_grid_free(&g);
}

/* Word `word` (0..3) of every input of the per-word 2D rule: bit b holds
 * input number word * 32 + b, whose 7 bits are (a0, a1, b0, b1, c0, c1,
 * self), one in each of in[0..6]; four words hold all 2^7. *want is
 * life_plane_sum + life_rule_2d of rule r on them, the reference. */
static void all_rule_inputs(uint32_t word, life_rule r, uint32_t in[7], uint32_t *want)
{
    for (uint32_t k = 0; k < 7; k++)
        in[k] = 0;
    for (uint32_t bit = 0; bit < 32; bit++)
        for (uint32_t k = 0; k < 7; k++)
            in[k] |= ((word * 32 + bit) >> k & 1u) << bit;
    uint32_t p0, p1, p2, p3;
    life_plane_sum(in[0], in[1], in[2], in[3], in[4], in[5], &p0, &p1, &p2, &p3);
    *want = life_rule_2d(r, in[6], p0, p1, p2, p3);
}

/* life_next_b3s23 against life_plane_sum + life_rule_2d for every input. */
static void test_next_b3s23(void)
{
    life_rule r = {LIFE_B3S23_BIRTH, LIFE_B3S23_SURVIVE};
    int same = 1;
    for (uint32_t word = 0; word < 4; word++) {
        uint32_t in[7], want;
        all_rule_inputs(word, r, in, &want);
        same &= life_next_b3s23(in[0], in[1], in[2], in[3], in[4], in[5], in[6]) == want;
    }
    check(same, "life_next_b3s23 is B3/S23 for every sum and self");
}

/* Each three-input gate's C expression (what every compiler but NVIDIA's
 * runs) is its truth table, the lop3.b32 immediate NVIDIA's compilers
 * run: with a, b, c the columns 0xf0, 0xcc, 0xaa, bit q of the result is
 * the gate of bit q's a, b, c, which is bit q of the table. */
static void test_lop3_gates(void)
{
    int same = 1;
#define LIFE_TEST_GATE(name, table, expr) same &= (name(0xf0u, 0xccu, 0xaau) & 0xffu) == (table);
    LIFE_LOP3_GATES(LIFE_TEST_GATE)
#undef LIFE_TEST_GATE
    check(same, "every three-input gate's expression is its truth table");
}

/* life_pair_sum + life_next_b3s23_pair against life_plane_sum +
 * life_rule_2d for every input that can occur: the 2^7 of the rows above
 * (a), at (b) and below (c) and the cell, less those where the cell is
 * alive and b's x sum is 0 (b's sum counts the cell). Both ways the walk
 * uses it: E = b + c with a as the third row, and E = a + b with c. */
static void test_next_b3s23_pair(void)
{
    life_rule r = {LIFE_B3S23_BIRTH, LIFE_B3S23_SURVIVE};
    int same = 1;
    for (uint32_t word = 0; word < 4; word++) {
        uint32_t in[7], want, e0, e1, e2;
        all_rule_inputs(word, r, in, &want);
        uint32_t can_occur = ~(in[6] & ~in[2] & ~in[3]); /* alive with b's sum 0: never */
        life_pair_sum(in[2], in[3], in[4], in[5], &e0, &e1, &e2);
        same &= ((life_next_b3s23_pair(e0, e1, e2, in[0], in[1], in[6]) ^ want) & can_occur) == 0;
        life_pair_sum(in[0], in[1], in[2], in[3], &e0, &e1, &e2);
        same &= ((life_next_b3s23_pair(e0, e1, e2, in[4], in[5], in[6]) ^ want) & can_occur) == 0;
    }
    check(same, "life_next_b3s23_pair is B3/S23 for every sum and self that can occur");
}

/* life_next_2d against life_plane_sum + life_rule_2d for every input and
 * 2^12 rules: every birth set over sums 0..5 and survival set over 0..5
 * (all 64 x 64), then each single count 6..8 in birth and survival. */
static void test_next_2d(void)
{
    int same = 1;
    for (uint32_t rule = 0; rule < 4096 + 9; rule++) {
        life_rule r = {rule & 63u, rule >> 6 & 63u};
        if (rule >= 4096) { /* B6, B7, B8, S6, S7, S8 and B678/S678 */
            uint32_t k = rule - 4096;
            r.birth = k < 3 ? 1u << (6 + k) : k == 6 ? 0x1c0u : 0u;
            r.survive = k >= 3 && k < 6 ? 1u << (3 + k) : k == 6 ? 0x1c0u : 0u;
        }
        for (uint32_t word = 0; word < 4; word++) {
            uint32_t in[7], want;
            all_rule_inputs(word, r, in, &want);
            same &= life_next_2d(r, in[0], in[1], in[2], in[3], in[4], in[5], in[6]) == want;
        }
    }
    check(same, "life_next_2d is life_rule_2d for every sum and self, 4105 rules");
}

/* Word `word` of all 2^13 inputs of a 3x3x3 decision, 32 a word: three
 * redundant plane sums (life_plane_sum_redundant: y0 + 2 (y1 + y2) + 4
 * y3) in in[0..11] and self in in[12]; and their 3x3x3 sum by the
 * reference, life_cube_sum of the same sums made whole (life_plane_sum's
 * four planes). */
static void cube_inputs(uint32_t word, uint32_t in[13], uint32_t *s0, uint32_t *s1, uint32_t *s2, uint32_t *s3,
                        uint32_t *s4)
{
    uint32_t whole[12];
    for (uint32_t k = 0; k < 13; k++)
        in[k] = 0;
    for (uint32_t bit = 0; bit < 32; bit++)
        for (uint32_t k = 0; k < 13; k++)
            in[k] |= ((word * 32 + bit) >> k & 1u) << bit;
    for (uint32_t p = 0; p < 3; p++) {
        const uint32_t *y = in + 4 * p;
        uint32_t carry = y[1] & y[2];
        whole[4 * p] = y[0];
        whole[4 * p + 1] = y[1] ^ y[2];
        whole[4 * p + 2] = y[3] ^ carry;
        whole[4 * p + 3] = y[3] & carry;
    }
    life_cube_sum(whole[0], whole[1], whole[2], whole[3], whole[4], whole[5], whole[6], whole[7], whole[8], whole[9],
                  whole[10], whole[11], s0, s1, s2, s3, s4);
}

/* life_next_b6s567 against life_cube_sum + life_rule_3d for every input
 * (cube_inputs, 256 words of 32). */
static void test_next_b6s567(void)
{
    life_rule r = {LIFE_B6S567_BIRTH, LIFE_B6S567_SURVIVE};
    int same = 1;
    for (uint32_t word = 0; word < 256; word++) {
        uint32_t in[13], s0, s1, s2, s3, s4;
        cube_inputs(word, in, &s0, &s1, &s2, &s3, &s4);
        uint32_t want = life_rule_3d(r, in[12], s0, s1, s2, s3, s4);
        same &= life_next_b6s567(in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], in[8], in[9], in[10], in[11],
                                 in[12]) == want;
    }
    check(same, "life_next_b6s567 is B6/S567 for every sum and self");
}

/* life_decide_b6s567 for every one of its 2^7 inputs (four words of 32),
 * against B6/S567 of the sum o + 2 t + 4 (h + f1) + 8 (H + f2). */
static void test_decide_b6s567(void)
{
    int same = 1;
    for (uint32_t word = 0; word < 4; word++) {
        uint32_t in[7] = {0}, want = 0;
        for (uint32_t bit = 0; bit < 32; bit++) {
            uint32_t v = word * 32 + bit, c = 0;
            for (uint32_t k = 0; k < 7; k++)
                in[k] |= (v >> k & 1u) << bit;
            static const uint32_t weight[6] = {1, 2, 4, 4, 8, 8};
            for (uint32_t k = 0; k < 6; k++)
                c += (v >> k & 1u) * weight[k];
            uint32_t alive = v >> 6 & 1u;
            want |= (uint32_t)(c == 6 || (alive && (c == 7 || c == 8))) << bit;
        }
        same &= life_decide_b6s567(in[0], in[1], in[2], in[3], in[4], in[5], in[6]) == want;
    }
    check(same, "life_decide_b6s567 is B6/S567 for every one of its 128 inputs");
}

/* life_zpair_sum + life_zpair_add + life_decide_b6s567 (B6/S567) and
 * life_decide_3d (other rules) against life_cube_sum + life_rule_3d for
 * every input: three redundant plane sums and self (2^13), each plane in
 * each role (the pair's two, the third). */
static void test_zpair(void)
{
    static const life_rule rules[] = {{LIFE_B6S567_BIRTH, LIFE_B6S567_SURVIVE},
                                      {1u << 5, (1u << 4) | (1u << 5)},
                                      {1u << 4, (1u << 3) | (1u << 4)},
                                      {(1u << 4) | (1u << 26), 0x2aaaaaau},
                                      {0x1u, 0x7ffffffu},
                                      {0x5555555u, 0x1u}};
    int same = 1;
    for (uint32_t word = 0; word < 256; word++) {
        uint32_t in[13], s0, s1, s2, s3, s4;
        cube_inputs(word, in, &s0, &s1, &s2, &s3, &s4);
        for (uint32_t role = 0; role < 3; role++) {
            const uint32_t *P = in + 4 * ((role + 1) % 3), *Q = in + 4 * ((role + 2) % 3), *R = in + 4 * role;
            uint32_t a, h, H, o, t, f1, f2;
            life_zpair_sum(P[1], P[2], P[3], Q[1], Q[3], &a, &h, &H);
            life_zpair_add(P[0], Q[0], Q[2], a, R[0], R[1], R[2], R[3], &o, &t, &f1, &f2);
            same &= life_decide_b6s567(o, t, h, f1, H, f2, in[12]) ==
                    life_rule_3d(rules[0], in[12], s0, s1, s2, s3, s4);
            for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++)
                same &= life_decide_3d(rules[r], o, t, h, f1, H, f2, in[12]) ==
                        life_rule_3d(rules[r], in[12], s0, s1, s2, s3, s4);
        }
    }
    check(same, "the z pair's sums and decisions are life_rule_3d's for every input, plane role and rule");
}

/* life_plane_sum_redundant against life_plane_sum for every input. */
static void test_plane_sum_redundant(void)
{
    int same = 1;
    for (uint32_t word = 0; word < 2; word++) {
        uint32_t in[6] = {0};
        for (uint32_t bit = 0; bit < 32; bit++)
            for (uint32_t k = 0; k < 6; k++)
                in[k] |= ((word * 32 + bit) >> k & 1u) << bit;
        uint32_t p[4], y[4];
        life_plane_sum(in[0], in[1], in[2], in[3], in[4], in[5], &p[0], &p[1], &p[2], &p[3]);
        life_plane_sum_redundant(in[0], in[1], in[2], in[3], in[4], in[5], &y[0], &y[1], &y[2], &y[3]);
        for (uint32_t bit = 0; bit < 32; bit++) {
            uint32_t whole = 0, redundant = 0;
            for (uint32_t k = 0; k < 4; k++)
                whole += (p[k] >> bit & 1u) << k;
            redundant = (y[0] >> bit & 1u) + 2 * ((y[1] >> bit & 1u) + (y[2] >> bit & 1u)) + 4 * (y[3] >> bit & 1u);
            same &= whole == redundant;
        }
    }
    check(same, "life_plane_sum_redundant is life_plane_sum for every input");
}

/* The device's fill (life_fill_word, a word at a time) against the host's
 * (life_grid_fill_random, a row's blocks drawn once): the same cells, for
 * rows that start mid-block, short last words, 2D and 3D, any density. */
static void test_fill_word(void)
{
    static const struct {
        unsigned dims;
        uint32_t nx, ny, nz;
        uint64_t seed;
        double density;
    } cases[] = {{2, 37, 11, 1, 7, 0.5}, {3, 33, 5, 4, 0x123456789abcdefull, 0.2}, {2, 1000, 4, 1, 1, 0.3},
                 {3, 64, 4, 5, 99, 1.0}, {2, 45, 4, 1, 3, 0.0}, {2, 4, 9, 1, 0xffffffffull << 32, 0.77}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        life_grid g;
        ls_error err;
        if (life_grid_init(&g, cases[c].dims, cases[c].nx, cases[c].ny, cases[c].nz, &err)) {
            check(0, err.msg);
            continue;
        }
        static const char *const copies[] = {"generic", "avx2", "avx512"};
        for (size_t v = 0; v < sizeof copies / sizeof copies[0]; v++) {
            memset(g.words, 0xa5, g.nwords * sizeof *g.words); /* every word must be written */
            if (life_cpu_fill_variant(copies[v], &g, cases[c].seed, cases[c].density) != 0)
                continue; /* not on this CPU */
            uint32_t threshold = life_fill_threshold(cases[c].density), wrong = 0;
            for (uint64_t row = 0; row < (uint64_t)g.ny * g.nz; row++)
                for (uint32_t w = 0; w < g.row_words; w++) {
                    uint32_t bits = w + 1 == g.row_words ? g.last_bits : 32;
                    uint32_t word = life_fill_word(row * g.nx + 32u * w, bits, (uint32_t)cases[c].seed,
                                                   (uint32_t)(cases[c].seed >> 32), threshold);
                    wrong += word != g.words[row * g.row_words + w];
                }
            char what[160];
            snprintf(what, sizeof what, "fill (%s) %uD %ux%ux%u, density %g: every word as the device draws it",
                     copies[v], cases[c].dims, cases[c].nx, cases[c].ny, cases[c].nz, cases[c].density);
            check(wrong == 0, what);
        }
        life_grid_free(&g);
    }
}

int main(void)
{
    test_fill_word();
    test_plane_sum_redundant();
    test_decide_b6s567();
    test_zpair();
    test_next_b6s567();
    test_next_b3s23();
    test_lop3_gates();
    test_next_b3s23_pair();
    test_next_2d();
    test_rules();
    test_rule_names_and_grids();
    test_r_pentomino();
    test_glider_and_blinker();
    test_gosper_gun();
    return check_finish();
}
