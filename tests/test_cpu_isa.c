/* test_cpu_isa.c - the one choice of the CPU code's compiled copy
 * (src/cpu_isa.h): $LOCKSTEP_CPU_ISA caps it, read once a process, and
 * Life's and the raytracer's CPU code run the copy it says (their names
 * are the level's); a value it does not know, or one above what this CPU
 * runs, is refused as the user's error.
 *
 * usage: test_cpu_isa LEVEL   (generic, avx2 or avx512: the cap to set
 * before the first question; a level above this CPU's checks the refusal) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_isa.h"
#include "life_cpu.h"
#include "ray_cpu.h"

#include "check.h"

/* The CPU's own level: what ls_cpu_isa_check accepts. */
static ls_isa cpu_level(void)
{
    ls_error err = {{0}, 0};
    ls_isa best = LS_ISA_GENERIC;
    for (ls_isa l = LS_ISA_GENERIC; l <= LS_ISA_AVX512; l++) {
        setenv(LS_CPU_ISA_ENV, ls_isa_name(l), 1);
        if (ls_cpu_isa_check(&err) == 0)
            best = l;
    }
    return best;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    const char *want = argv[1];
    ls_isa cap = LS_ISA_GENERIC;
    while (cap < LS_ISA_AVX512 && strcmp(ls_isa_name(cap), want) != 0)
        cap++;
    if (strcmp(ls_isa_name(cap), want) != 0)
        return 2;

    setenv(LS_CPU_ISA_ENV, want, 1);
    ls_isa got = ls_cpu_isa();
    ls_isa cpu = cpu_level();
    ls_isa expect = cap < cpu ? cap : cpu;
    char line[200];
    snprintf(line, sizeof line, "%s=%s on a CPU of %s: ls_cpu_isa() is %s (got %s)", LS_CPU_ISA_ENV, want,
             ls_isa_name(cpu), ls_isa_name(expect), ls_isa_name(got));
    check(got == expect, line);
    snprintf(line, sizeof line, "Life's CPU loop is the %s copy (got %s)", ls_isa_name(expect), life_cpu_variant());
    check(strcmp(life_cpu_variant(), ls_isa_name(expect)) == 0, line);
    snprintf(line, sizeof line, "the raytracer's tiles are the %s copy (got %s)", ls_isa_name(expect),
             ray_cpu_variant());
    check(strcmp(ray_cpu_variant(), ls_isa_name(expect)) == 0, line);

    /* The copy's bit count against one bit at a time: lengths odd and
     * even (its last word alone), from an odd word too (its pairs of
     * words unaligned). */
    uint32_t words[1003];
    uint64_t state = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        words[i] = (uint32_t)(state >> 32);
    }
    const size_t lengths[] = {0, 1, 2, 3, 5, 1000, 1001};
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
        for (size_t first = 0; first < 2; first++) {
            uint64_t bits = 0;
            for (size_t i = first; i < first + lengths[l]; i++)
                for (int b = 0; b < 32; b++)
                    bits += words[i] >> b & 1u;
            snprintf(line, sizeof line, "Life's %s bit count of %zu words from word %zu", ls_isa_name(expect),
                     lengths[l], first);
            check(life_cpu_population(words + first, lengths[l]) == bits, line);
        }

    setenv(LS_CPU_ISA_ENV, "avx", 1);
    check(ls_cpu_isa() == got, "the cap is read once: a later change of the variable changes nothing");

    ls_error err = {{0}, 0};
    check(ls_cpu_isa_check(&err) == -1 && err.usage && strstr(err.msg, "expected generic, avx2 or avx512") &&
              strstr(err.msg, "'avx'"),
          "an unknown value is the user's error, named");
    if (cap > cpu) {
        setenv(LS_CPU_ISA_ENV, want, 1);
        err = (ls_error){{0}, 0};
        check(ls_cpu_isa_check(&err) == -1 && err.usage && strstr(err.msg, "runs") &&
                  strstr(err.msg, ls_isa_name(cpu)),
              "a level above the CPU's is refused, naming the CPU's");
    }
    setenv(LS_CPU_ISA_ENV, "", 1);
    check(ls_cpu_isa_check(&err) == 0, "an empty value is no cap");
    printf("CPU level %s, capped at %s: %s\n", ls_isa_name(cpu), want, ls_isa_name(got));
    return check_finish();
}
