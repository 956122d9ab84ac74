/* host_kernel.h - the kernels of the host device (OpenMP): the C copy of
 * a workload's kernel, which the host's launch runs over its range.
 *
 * The host CPU is a device of gpu.h's interface like the GPUs (issue 37):
 * its buffers are host memory and its launch runs a C function, looked up
 * by (program, kernel name) as a GPU backend looks up a compiled entry
 * point, as ggml's CPU backend implements ggml's interface. The C
 * functions are the workloads' own CPU implementations (graveler_cpu.c,
 * bmn_cpu.c, ray_cpu.c: the cross-check's independent side), wrapped to
 * take a launch's arguments; each workload registers its host program
 * before it asks the device for a kernel, and the OpenMP backend finds it
 * here. A backend knows no workload, and this table is how the one that
 * runs C reaches the workloads' C without including them.
 *
 * A host kernel is called once for a whole launch, on the driving thread:
 * it uses OpenMP inside, as the CPU implementations always have, so a
 * launch of any shape runs on every thread the host gives. */
#ifndef LOCKSTEP_HOST_KERNEL_H
#define LOCKSTEP_HOST_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "gpu.h"

/* The most arguments a launch on the host passes (BMN's play takes 16). */
#define LS_HOST_MAX_ARGS 24

/* One launch as its host kernel sees it: the launch's arguments, each
 * buffer's host memory and size resolved. */
typedef struct ls_host_call {
    const char *kernel; /* its name, for messages */
    uint64_t groups;
    uint32_t group_size;
    int nargs;
    const ls_arg *args;
    void *mem[LS_HOST_MAX_ARGS];     /* a buffer argument's memory; NULL for a value or a NULL buffer */
    size_t bytes[LS_HOST_MAX_ARGS];  /* its size */
} ls_host_call;

typedef int (*ls_host_fn)(const ls_host_call *call, ls_error *err);

typedef struct ls_host_kernel {
    const char *name; /* as the GPU program's entry point is named, or the host shape's own */
    ls_host_fn run;
    int nargs; /* the arguments it takes: a launch with another count is refused */
} ls_host_kernel;

/* A workload's host program: the kernels of program `name` (gpu.h's
 * kernel), a table ended by a NULL name. */
typedef struct ls_host_program {
    const char *name;
    const ls_host_kernel *kernels;
} ls_host_program;

/* Makes program p's kernels known to the host device; the same program
 * again is a no-op. Safe from any thread. 0, or -1 with err set when the
 * table is full or another program has p's name. */
int ls_host_program_add(const ls_host_program *p, ls_error *err);

/* Kernel `name` of program `program`, NULL when none was registered. */
const ls_host_kernel *ls_host_kernel_find(const char *program, const char *name);

/* Argument i of a call as a value of exactly that size (a ulong or a
 * uint), or as a buffer of at least `bytes`: 0, or -1 with err naming the
 * kernel and the argument. A NULL buffer gives NULL when bytes is 0. */
int ls_host_u64(const ls_host_call *c, int i, uint64_t *out, ls_error *err);
int ls_host_u32(const ls_host_call *c, int i, uint32_t *out, ls_error *err);
int ls_host_buf(const ls_host_call *c, int i, size_t bytes, void **out, ls_error *err);

#endif
