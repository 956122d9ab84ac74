/* gpu.h - what a device's backend offers the workloads: mechanisms, not
 * workloads (in the manner of OCCA's device primitives).
 *
 * Each workload's device driver (src/workloads/NAME/NAME_gpu.c) is written
 * once over this table and runs on CUDA, OpenCL and the host CPU (OpenMP,
 * whose kernels are the workloads' own C: host_kernel.h) alike: it sizes the
 * launch from ls_gpu_info and the occupancy query, allocates zeroed
 * buffers, launches kernels by name on one of two queues, times them with
 * the timer, and reads the results back. Kernels come from programs: one
 * shared source per workload (src/kernels/NAME_kernels.h), compiled as
 * OpenCL C at run time and as CUDA at build time.
 *
 * Every call returns 0, or -1 with err set to a message that says what the
 * memory or kernel was for. Nothing here is thread-safe: one host thread
 * drives one opened device.
 *
 * Callers never call this table themselves: they go through gpu_call.h,
 * whose wrappers check the arguments once for every backend (ranges
 * against the buffer's size, queues, launch shapes) and then call the
 * method, as SQLite's sqlite3OsRead wraps a VFS's xRead. A backend's
 * method may therefore take its arguments as valid, and checks only what
 * its API says. */
#ifndef LOCKSTEP_GPU_H
#define LOCKSTEP_GPU_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "error.h"
#include "shape.h"

typedef struct ls_ctx ls_ctx;       /* an opened device (backend.h) */
typedef struct ls_buf ls_buf;       /* device memory (its first member is an ls_buf_head) */
typedef struct ls_kernel ls_kernel; /* an entry point of a built program */

/* Two queues (CUDA streams, OpenCL command queues): work on one may
 * overlap work on the other; work on one runs in order. */
#define LS_GPU_QUEUES 2

/* One kernel argument: a value (its address and size, which must match
 * the kernel's parameter: ls_u64 for ulong, ls_u32 for uint) or a buffer
 * (NULL passes a null pointer). */
typedef struct ls_arg {
    const void *value;
    size_t size;
    ls_buf *buf;
    int is_buf;
} ls_arg;
#define LS_ARG(v) ((ls_arg){&(v), sizeof(v), NULL, 0})
#define LS_ARG_BUF(b) ((ls_arg){NULL, 0, (b), 1})

/* A 1-D launch: groups x group_size work-items, local_bytes of dynamic
 * local memory (LS_DYNAMIC_LOCAL), on queue 0 or 1. */
typedef struct ls_launch {
    uint64_t groups;
    uint32_t group_size;
    size_t local_bytes;
    int queue;
    const ls_arg *args;
    int nargs;
} ls_launch;

typedef struct ls_gpu_info {
    int is_gpu;             /* 0: an OpenCL CPU device such as PoCL */
    uint32_t compute_units; /* SMs, compute units or cores */
    uint32_t max_group;     /* most work-items per group */
    uint64_t local_bytes;   /* local (shared) memory per group */
    uint64_t global_bytes;  /* device memory */
    /* The kernel shape the device runs (shape.h), chosen from caps when
     * it was opened: whether dialect.h's ls_exchange is a register shuffle
     * (ls_shape_shuffles) or local memory between barriers, which makes
     * kernels that exchange often slower than their instruction count
     * says, and whether kernels are cut for a CPU's loops. */
    ls_shape shape;
    /* What it can do (caps.h), as list_devices says: a program that
     * follows the exact float rule is refused on a device without
     * LS_CAP_EXACT_FP (OpenCL without correctly rounded divide and sqrt,
     * or without denormals), which conformance reports as not supported. */
    ls_device_caps caps;
    /* 1 when a program asked for without definitions (gpu.h's kernel)
     * was compiled with the host code (CUDA: nvcc, at build time), so that
     * what the build defined for both is in it; 0 when the backend builds
     * it from its source at run time (OpenCL), which has the source's
     * defaults. */
    int prebuilt;
} ls_gpu_info;

typedef struct ls_gpu {
    void (*info)(ls_ctx *ctx, ls_gpu_info *out);

    /* Device memory of `bytes`, zeroed before the call returns; `what`
     * names it in messages ("partial histograms"). */
    int (*alloc)(ls_ctx *ctx, size_t bytes, const char *what, ls_buf **out, ls_error *err);
    void (*free)(ls_ctx *ctx, ls_buf *buf); /* NULL is fine */
    /* Copies host memory in, ordered on `queue`; src must stay valid and
     * unchanged until the queue has run it (read or timer_stop). */
    int (*write)(ls_ctx *ctx, int queue, ls_buf *buf, size_t offset, const void *src, size_t bytes,
                 ls_error *err);
    /* Waits for both queues, then copies device memory out. */
    int (*read)(ls_ctx *ctx, ls_buf *buf, size_t offset, void *dst, size_t bytes, ls_error *err);

    /* Entry point `name` of program `program` (built on first use, cached
     * by the context, owned by it). */
    int (*kernel)(ls_ctx *ctx, const char *program, const char *name, ls_kernel **out, ls_error *err);
    /* Optional (NULL where the backend cannot build a program at run time:
     * the CUDA backend built without NVRTC; caps.h's LS_CAP_DEFINES says
     * which, and the wrapper refuses the call where it is not offered).
     * Entry point `name` of program `program` built with `defines`, a list
     * of NAME=VALUE separated by spaces ("LIFE_FIXED_BIRTH=0x48
     * LIFE_FIXED_SURVIVE=0xc"; ls_gpu_define reads it), each as if
     * #defined before the program's source: what the definitions make
     * constant the compiler folds, where a kernel argument cannot be. The
     * kernel has the name and parameters of the program's kernel without
     * them; "" is the program as `kernel` gives it. Each (program,
     * defines) is built on first use and cached by the context, like
     * `kernel`'s programs; a setting chosen per kind of device would reach
     * the build the same way. Where the backend finds at run time that it
     * cannot build it after all (CUDA: no libnvrtc here, or one that does
     * not know the GPU, which only the first build can tell without
     * loading NVRTC in every process), it gives `kernel`'s, which takes
     * the same arguments: for a prebuilt program the callers' definitions
     * only fold what the arguments carry (Life's rule) or restate what
     * the host build defined for both (gpu_info's prebuilt), so it
     * computes the same, slower. */
    int (*kernel_with)(ls_ctx *ctx, const char *program, const char *defines, const char *name, ls_kernel **out,
                       ls_error *err);
    /* How many groups of `group_size` with `local_bytes` of dynamic local
     * memory are resident on one compute unit at once: CUDA's occupancy
     * calculator; OpenCL has no such query and estimates it from the
     * device's limits (documented in the backend). At least 1. */
    int (*groups_per_unit)(ls_ctx *ctx, ls_kernel *k, uint32_t group_size, size_t local_bytes, uint32_t *out,
                           ls_error *err);
    int (*launch)(ls_ctx *ctx, ls_kernel *k, const ls_launch *launch, ls_error *err);

    /* Device time: timer_start marks the point on both queues after which
     * work is timed; timer_stop waits for both queues and returns the
     * seconds the device spent from that point to the end of the last
     * work (CUDA events; OpenCL profiling of the launched kernels). The
     * workloads call them through gpu_timer.h, which checks the figure
     * against the wall clock: a backend passes on what its device says. */
    int (*timer_start)(ls_ctx *ctx, ls_error *err);
    int (*timer_stop)(ls_ctx *ctx, double *seconds, ls_error *err);
    /* Both NULL where the device runs its work when it is queued (the host
     * CPU): its time is the wall clock, which gpu_timer.h reads itself. */

    /* Optional (NULL where the API has none: OpenCL, whose callers stage
     * through the host with read and write): copies `bytes` from src at
     * src_offset, a buffer of src_ctx, into dst at dst_offset, a buffer of
     * dst_ctx, device to device (a peer copy between two devices of the
     * backend, a device copy within one). Ordered after the work queued on
     * both contexts so far, and before work queued on either after it;
     * returns without waiting. */
    int (*copy)(ls_ctx *dst_ctx, ls_buf *dst, size_t dst_offset, ls_ctx *src_ctx, ls_buf *src, size_t src_offset,
                size_t bytes, ls_error *err);

    /* Optional (NULL where ordinary host memory is copied as fast: OpenCL
     * has no portable page-locked memory): host memory of `bytes` that the
     * device copies to and from at the bus's speed and without a staging
     * copy (CUDA's page-locked memory), for buffers that cross the bus
     * often, such as the ghost planes of Life's slabs. free_host takes
     * NULL. */
    int (*alloc_host)(ls_ctx *ctx, size_t bytes, const char *what, void **out, ls_error *err);
    void (*free_host)(ls_ctx *ctx, void *p);

    /* Optional (NULL where the API has none: OpenCL): device memory that
     * another process of the node writes straight into (CUDA IPC), so
     * that two MPI ranks' GPUs exchange device to device instead of
     * through host memory and MPI. share writes a handle for buf (made by
     * alloc) of LS_GPU_HANDLE_BYTES; open_shared, in another process,
     * makes of the handle a buffer of ctx that copy can write (a mapping
     * of the first process's memory, valid while that buffer lives);
     * close_shared unmaps it (NULL is fine). */
    int (*share)(ls_ctx *ctx, ls_buf *buf, unsigned char *handle, ls_error *err);
    int (*open_shared)(ls_ctx *ctx, const unsigned char *handle, ls_buf **out, ls_error *err);
    void (*close_shared)(ls_ctx *ctx, ls_buf *buf);

    /* 1 where `kernel` finds the workloads' host programs (host_kernel.h:
     * their CPU implementations as C functions, which the host CPU runs),
     * not the programs of src/kernels: the device then lacks
     * LS_CAP_KERNELS and keeps the float rule as the C is compiled. */
    int runs_host_programs;
} ls_gpu;

/* The caps that a backend's method table gives (gpu.h; NULL, or one that
 * runs host programs: the host's CPU, which runs the workloads' own C and
 * no program of src/kernels): KERNELS with a table, COPY with its copy,
 * SHARE with share, open_shared and close_shared, DEFINES with
 * kernel_with; every other cap cleared, for the backend to grant from
 * what the device reports. The one place where a method's presence is
 * read as a capability (tests/layers.py); gpu_call.c has it. */
void ls_caps_from_methods(const ls_gpu *methods, const char *backend, ls_device_caps *caps);

/* The bytes of a share handle (CUDA's cudaIpcMemHandle_t). */
#define LS_GPU_HANDLE_BYTES 64

/* What every backend's struct ls_buf begins with, as its first member (so
 * that a pointer to the one is a pointer to the other, C17 6.7.2.1): the
 * buffer as the wrappers of gpu_call.h know it. ls_gpu_alloc fills it
 * after the backend's alloc returns; the backend never reads it. */
typedef struct ls_buf_head {
    const struct ls_device *device; /* the opened device (set.h) it lives on */
    size_t bytes;                   /* its size, as alloc was asked */
    char what[64];                  /* alloc's `what`, for messages */
} ls_buf_head;

/* Reads the next definition of a kernel_with list from *list into def, a
 * buffer of len bytes, as "NAME=VALUE", and moves *list past it. Returns 1
 * when one was read, 0 at the end of the list, -1 when the list is not one:
 * a NAME that is no identifier, a VALUE empty or not letters, digits and _,
 * or a definition longer than len - 1. Backends refuse such a list rather
 * than hand it to a compiler among its options. */
static inline int ls_gpu_define(const char **list, char *def, size_t len)
{
    const char *p = *list;
    while (*p == ' ')
        p++;
    size_t n = 0, eq = 0;
    for (; p[n] && p[n] != ' '; n++) {
        char c = p[n];
        int digit = c >= '0' && c <= '9';
        int word = digit || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (c == '=' && !eq && n > 0)
            eq = n;
        else if (!word || (n == 0 && digit))
            return -1;
    }
    *list = p + n;
    if (n == 0)
        return 0;
    if (!eq || eq + 1 == n || n >= len)
        return -1;
    memcpy(def, p, n);
    def[n] = '\0';
    return 1;
}

#endif
