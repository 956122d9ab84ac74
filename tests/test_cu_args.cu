/* test_cu_args.cu - the CUDA backend's check of a launch's arguments
 * against the kernel's parameters (backends/cuda/cu_args.h), on a table
 * made by LS_CU_PROGRAM from kernels of known types. Nothing is launched
 * and no CUDA call is made, so it runs without a GPU. */
#include <stdint.h>
#include <string.h>

#include "cu_args.h"
extern "C" {
#include "check.h"
}

extern "C" __global__ void three(uint32_t n, const float *in, float *out)
{
    if (n)
        out[0] = in[0];
}
extern "C" __global__ void wide(uint64_t lo, uint32_t turns, uint64_t *hist)
{
    hist[0] = lo + turns;
}
extern "C" __global__ void none(void) {}

#define LS_PROGRAM_KERNELS(X) X(three) X(wide) X(none)
LS_CU_PROGRAM(test)

static const ls_cu_entry *entry(const char *name)
{
    for (int i = 0; i < ls_cu_program_test.count; i++)
        if (strcmp(ls_cu_program_test.entries[i].name, name) == 0)
            return &ls_cu_program_test.entries[i];
    return NULL;
}

/* Whether the launch is refused, and if so with a message naming what. */
static int refused(const char *kernel, const ls_arg *args, int nargs, const char *says)
{
    ls_error err = {{0}, 0};
    ls_launch l = {1, 1, 0, 0, args, nargs};
    int rc = ls_cu_check_args(entry(kernel), &l, &err);
    if (rc == 0)
        return 0;
    if (!strstr(err.msg, says) || !strstr(err.msg, kernel)) {
        printf("message: %s\n", err.msg);
        return 0;
    }
    return 1;
}

int main(void)
{
    const ls_cu_entry *t = entry("three"), *w = entry("wide"), *z = entry("none");
    check(t && w && z, "the table has every kernel");
    check(t && t->nparams == 3 && t->param_size[0] == 4 && t->param_size[1] == sizeof(void *) &&
              !t->param_is_pointer[0] && t->param_is_pointer[1] && t->param_is_pointer[2],
          "three: uint32_t and two pointers, from its type");
    check(w && w->nparams == 3 && w->param_size[0] == 8 && w->param_size[1] == 4, "wide: 8, 4 and a pointer");
    check(z && z->nparams == 0, "none: no parameters");

    ls_buf *buf = NULL; /* only its kind is looked at */
    uint32_t n32 = 7;
    uint64_t n64 = 7;
    ls_arg right[] = {LS_ARG(n32), LS_ARG_BUF(buf), LS_ARG_BUF(buf)};
    ls_error err = {{0}, 0};
    ls_launch ok = {1, 1, 0, 0, right, 3};
    check(ls_cu_check_args(t, &ok, &err) == 0, "the right arguments are taken");
    ls_launch empty = {1, 1, 0, 0, NULL, 0};
    check(ls_cu_check_args(z, &empty, &err) == 0, "no arguments for a kernel without parameters");

    check(refused("three", right, 2, "2 arguments given, it takes 3"), "one argument short: refused");
    ls_arg extra[] = {LS_ARG(n32), LS_ARG_BUF(buf), LS_ARG_BUF(buf), LS_ARG(n32)};
    check(refused("three", extra, 4, "4 arguments given, it takes 3"), "one argument too many: refused");
    ls_arg wrong_size[] = {LS_ARG(n64), LS_ARG_BUF(buf), LS_ARG_BUF(buf)};
    check(refused("three", wrong_size, 3, "argument 0 is 8 bytes, its parameter 4"),
          "a uint64_t for a uint32_t: refused");
    ls_arg narrow[] = {LS_ARG(n32), LS_ARG(n32), LS_ARG_BUF(buf)};
    check(refused("wide", narrow, 3, "argument 0 is 4 bytes, its parameter 8"),
          "a uint32_t for a uint64_t (CUDA would read 4 bytes past it): refused");
    ls_arg value_for_buffer[] = {LS_ARG(n32), LS_ARG(n64), LS_ARG_BUF(buf)};
    check(refused("three", value_for_buffer, 3, "argument 1 is a 8-byte value, its parameter a buffer"),
          "a value where a buffer goes: refused");
    ls_arg buffer_for_value[] = {LS_ARG_BUF(buf), LS_ARG(n32), LS_ARG_BUF(buf)};
    check(refused("wide", buffer_for_value, 3, "argument 0 is a buffer, its parameter a 8-byte value"),
          "a buffer where a value goes: refused");
    return check_finish();
}
