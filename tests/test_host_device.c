/* test_host_device.c - the host CPU as a device of gpu.h (issue 37): the
 * OpenMP backend's table through the wrappers of gpu_call.h. Its memory
 * is zeroed, moves with write and read, and lives in the buffers a launch
 * hands its kernel; its kernels are the host programs workloads register
 * (host_kernel.h), found by program and name, and an unknown one, a
 * launch with the wrong count of arguments or an argument of the wrong
 * kind is refused with a message naming it; it lacks LS_CAP_KERNELS and
 * keeps the float rule, runs the workloads' own C under shape none, and
 * is timed by the wall clock. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_call.h"
#include "gpu_timer.h"
#include "host_kernel.h"

#include "check.h"

extern const ls_backend ls_backend_openmp;

/* Adds `add` to each of the n words of buffer 2. */
static int add_words(const ls_host_call *c, ls_error *err)
{
    uint32_t n, add;
    void *words;
    if (ls_host_u32(c, 0, &n, err) || ls_host_u32(c, 1, &add, err) ||
        ls_host_buf(c, 2, (size_t)n * sizeof(uint32_t), &words, err))
        return -1;
    for (uint32_t i = 0; i < n; i++)
        ((uint32_t *)words)[i] += add;
    return 0;
}

static const ls_host_kernel test_kernels[] = {{"add_words", add_words, 3}, {NULL, NULL, 0}};
static const ls_host_program test_program = {"test", test_kernels};
static const ls_host_program namesake = {"test", test_kernels + 1};

static int says(const ls_error *err, const char *a, const char *b)
{
    return strstr(err->msg, a) && strstr(err->msg, b);
}

int main(void)
{
    ls_error err = {0};
    ls_device d = {.backend = &ls_backend_openmp, .label = "openmp:0"};
    check(ls_backend_openmp.list_devices(&d.info, 1, &err) == 1, "the host lists one device");
    check(!ls_device_supports(&d, LS_CAP_KERNELS, NULL, 0) && ls_device_supports(&d, LS_CAP_EXACT_FP, NULL, 0),
          "it runs no program of src/kernels and keeps the float rule");
    d.ctx = ls_backend_openmp.open(0, &err);
    check(d.ctx != NULL, "it opens");
    if (!d.ctx)
        return check_finish();
    ls_gpu_info info;
    ls_gpu_info_of(&d, &info);
    check(info.shape == LS_SHAPE_NONE && !info.is_gpu && info.compute_units >= 1 && info.global_bytes > 0,
          "its shape is none (the workloads' own C), with the host's threads and memory");
    check(ls_device_timed_by_wall(&d), "it is timed by the wall clock");

    ls_buf *buf = NULL;
    uint32_t words[5] = {0};
    check(ls_gpu_alloc(&d, sizeof words, "test words", &buf, &err) == 0 && buf, "host memory is allocated");
    memset(words, 0xff, sizeof words);
    check(ls_gpu_read(buf, 0, words, sizeof words, &err) == 0 && !words[0] && !words[4], "zeroed");
    uint32_t in[2] = {7, 9};
    check(ls_gpu_write(buf, 1, 4, in, sizeof in, &err) == 0 && ls_gpu_read(buf, 0, words, sizeof words, &err) == 0 &&
              words[0] == 0 && words[1] == 7 && words[2] == 9 && words[3] == 0,
          "a write lands at its offset and reads back");

    ls_kernel *k = NULL;
    check(ls_gpu_kernel(&d, "test", "add_words", &k, &err) != 0 && says(&err, "add_words", "test"),
          "a kernel of a program never registered is refused by name");
    check(ls_host_program_add(&test_program, &err) == 0 && ls_host_program_add(&test_program, &err) == 0,
          "a host program registers, twice harmlessly");
    check(ls_host_program_add(&namesake, &err) != 0 && says(&err, "two host programs", "test"),
          "another program of the same name is refused");
    check(ls_gpu_kernel(&d, "test", "add_words", &k, &err) == 0 && k, "its kernel is found");
    ls_kernel *again = NULL;
    check(ls_gpu_kernel(&d, "test", "add_words", &again, &err) == 0 && again == k, "and kept by the context");
    check(ls_gpu_kernel(&d, "test", "sub_words", &again, &err) != 0 && says(&err, "sub_words", "test"),
          "an unknown kernel of it is refused by name");

    uint32_t n = 5, add = 3;
    ls_arg args[] = {LS_ARG(n), LS_ARG(add), LS_ARG_BUF(buf)};
    ls_launch l = {1, 1, 0, 0, args, 3};
    check(ls_gpu_launch(&d, k, &l, &err) == 0 && ls_gpu_read(buf, 0, words, sizeof words, &err) == 0 &&
              words[0] == 3 && words[1] == 10 && words[2] == 12 && words[4] == 3,
          "a launch runs the C over the buffer's memory");
    l.nargs = 2;
    check(ls_gpu_launch(&d, k, &l, &err) != 0 && says(&err, "add_words", "3 arguments"),
          "a launch with the wrong count of arguments is refused");
    ls_arg swapped[] = {LS_ARG(n), LS_ARG_BUF(buf), LS_ARG(add)};
    l = (ls_launch){1, 1, 0, 0, swapped, 3};
    check(ls_gpu_launch(&d, k, &l, &err) != 0 && says(&err, "add_words", "argument 1"),
          "a buffer where a value belongs is refused, naming the argument");
    n = 6;
    l = (ls_launch){1, 1, 0, 0, args, 3};
    check(ls_gpu_launch(&d, k, &l, &err) != 0 && says(&err, "argument 2", "20 bytes"),
          "a buffer smaller than the kernel needs is refused");

    double seconds = -1;
    check(ls_gpu_timer_start(&d, &err) == 0 && ls_gpu_timer_stop(&d, 1, &seconds, &err) == 0 && seconds >= 0 &&
              ls_gpu_timer_rejected(&d) == 0,
          "its timer is the wall clock, never rejected");
    ls_gpu_free(buf);
    ls_backend_openmp.close(d.ctx);
    return check_finish();
}
