/* test_nvrtc.c - programs built with definitions (gpu.h's kernel_with)
 * without a GPU: the reader of a definition list both backends use
 * (ls_gpu_define), and NVRTC compiling the Life program with a rule built
 * in for sm_90 through the function the CUDA backend uses
 * (backends/cuda/cu_nvrtc.c). Exit 77 where libnvrtc cannot be loaded; the
 * CUDA backend then runs nvcc's kernels, which take the rule as arguments. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "cu_nvrtc.h"
#include "gpu.h"

#define RULE_2D "LIFE_FIXED_DIMS=2 LIFE_FIXED_BIRTH=0x48 LIFE_FIXED_SURVIVE=0xc" /* B36/S23 */
#define SEEDS_2D "LIFE_FIXED_DIMS=2 LIFE_FIXED_BIRTH=0x4 LIFE_FIXED_SURVIVE=0x0" /* B2/S */
#define RULE_3D "LIFE_FIXED_DIMS=3 LIFE_FIXED_BIRTH=0x20 LIFE_FIXED_SURVIVE=0x30" /* B5/S45 */

/* Every definition of `list`, each followed by a comma; "!" where the
 * reader refuses the rest. */
static const char *read_all(const char *list)
{
    static char out[512];
    char def[16];
    int got;
    out[0] = '\0';
    while ((got = ls_gpu_define(&list, def, sizeof def)) == 1) {
        strcat(out, def);
        strcat(out, ",");
    }
    if (got < 0)
        strcat(out, "!");
    return out;
}

static void check_reader(void)
{
    check(strcmp(read_all(""), "") == 0, "an empty list has no definition");
    check(strcmp(read_all("  A=1  B_2=0x48 "), "A=1,B_2=0x48,") == 0, "NAME=VALUE separated by spaces");
    check(strcmp(read_all("A=1 -DB=2"), "A=1,!") == 0, "an option smuggled in is refused");
    check(strcmp(read_all("A=1 2B=2"), "A=1,!") == 0, "a NAME starting with a digit is refused");
    check(strcmp(read_all("A= B=2"), "!") == 0, "an empty VALUE is refused");
    check(strcmp(read_all("A"), "!") == 0, "a NAME without a VALUE is refused");
    check(strcmp(read_all("=1"), "!") == 0, "a VALUE without a NAME is refused");
    check(strcmp(read_all("A=1=2"), "!") == 0, "two = are refused");
    check(strcmp(read_all("A=\"x\""), "!") == 0, "quotes are refused");
    check(strcmp(read_all("A=123456789012345"), "!") == 0, "a definition longer than the buffer is refused");
}

/* Whether the image holds the NUL-terminated string s (a kernel's symbol). */
static int holds(const void *image, size_t bytes, const char *s)
{
    size_t n = strlen(s) + 1;
    const char *p = image;
    for (size_t i = 0; i + n <= bytes; i++)
        if (p[i] == s[0] && memcmp(p + i, s, n) == 0)
            return 1;
    return 0;
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* The 2D rule: a CUBIN with the 2D kernels that take a rule, and no other. */
static int check_2d(const void **cubin, size_t *bytes)
{
    ls_error err = {{0}, 0};
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = ls_nvrtc_cubin("life", RULE_2D, 90, cubin, bytes, &err);
    if (rc == 1) {
        printf("skipped: %s\n", err.msg);
        return 77;
    }
    check(rc == 0, "life with B36/S23 built in compiles for sm_90");
    if (rc != 0) {
        printf("  %s\n", err.msg);
        return 1;
    }
    printf("life, 2D rule built in, for sm_90: %.2f s, %zu bytes\n", seconds_since(&t0), *bytes);
    check(*bytes > 4 && memcmp(*cubin, "\177ELF", 4) == 0, "it is a CUBIN (an ELF image)");
    check(holds(*cubin, *bytes, "life_many_2d_aligned") && holds(*cubin, *bytes, "life_two_2d") &&
              holds(*cubin, *bytes, "life_step_2d") && holds(*cubin, *bytes, "life_many_2d_plane"),
          "it holds the 2D kernels that take a rule");
    check(!holds(*cubin, *bytes, "life_step_3d") && !holds(*cubin, *bytes, "life_tile_3d") &&
              !holds(*cubin, *bytes, "life_many_2d_b3s23_aligned"),
          "and neither the 3D kernels nor those of the default rule");
    const void *again = NULL;
    size_t again_bytes = 0;
    check(ls_nvrtc_cubin("life", RULE_2D, 90, &again, &again_bytes, &err) == 0 && again == *cubin,
          "asked again, the code kept is given, not compiled again");
    return 0;
}

/* Another rule makes other code: the definitions reach the kernels. */
static void check_other_rules(const void *cubin, size_t bytes)
{
    ls_error err = {{0}, 0};
    const void *seeds = NULL, *three = NULL;
    size_t seeds_bytes = 0, three_bytes = 0;
    check(ls_nvrtc_cubin("life", SEEDS_2D, 90, &seeds, &seeds_bytes, &err) == 0, "B2/S compiles");
    check(seeds && (seeds_bytes != bytes || memcmp(seeds, cubin, bytes) != 0),
          "B2/S's code is not B36/S23's: the rule is in it");
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    check(ls_nvrtc_cubin("life", RULE_3D, 90, &three, &three_bytes, &err) == 0, "a 3D rule compiles");
    printf("life, 3D rule built in, for sm_90: %.2f s, %zu bytes\n", seconds_since(&t0), three_bytes);
    check(three && holds(three, three_bytes, "life_step_3d_aligned") && holds(three, three_bytes, "life_step_3d_plane") &&
              holds(three, three_bytes, "life_tile_3d_aligned") && holds(three, three_bytes, "life_tile_3d_plane") &&
              holds(three, three_bytes, "life_tile_3d_wide_aligned") &&
              holds(three, three_bytes, "life_tile_3d_wide_plane") && !holds(three, three_bytes, "life_tile_3d_b6s567") &&
              !holds(three, three_bytes, "life_many_2d"),
          "with the 3D kernels that take a rule (the tile walks' too, the wide one's), and no 2D kernel");
}

/* What is refused, and where NVRTC cannot. */
static void check_refusals(void)
{
    ls_error err = {{0}, 0};
    const void *code = NULL;
    size_t bytes = 0;
    check(ls_nvrtc_cubin("life", "LIFE_FIXED_DIMS=2 -Xptxas=-v", 90, &code, &bytes, &err) == -1 &&
              strstr(err.msg, "NAME=VALUE"),
          "a definition list with an option in it is refused");
    check(ls_nvrtc_cubin("life", "LIFE_FIXED_DIMS=2", 90, &code, &bytes, &err) == -1 &&
              strstr(err.msg, "LIFE_FIXED_BIRTH"),
          "a rule without birth and survive does not compile, and the message says what is missing");
    check(ls_nvrtc_cubin("nosuch", "A=1", 90, &code, &bytes, &err) == -1 && strstr(err.msg, "nosuch"),
          "an unknown program is refused by name");
    check(ls_nvrtc_cubin("life", RULE_2D, 11, &code, &bytes, &err) == 1 && strstr(err.msg, "sm_11"),
          "an architecture NVRTC does not know: it cannot (the backend uses nvcc's kernels)");
    check(ls_nvrtc_cubin("fpcheck", "LS_TEST_UNUSED=1", 90, &code, &bytes, &err) == 0,
          "the exact floating-point program compiles with its flags");
}

int main(void)
{
    check_reader();
    const void *cubin = NULL;
    size_t bytes = 0;
    int rc = check_2d(&cubin, &bytes);
    if (rc == 77)
        return 77;
    if (rc == 0) {
        check_other_rules(cubin, bytes);
        check_refusals();
    }
    return check_finish();
}
