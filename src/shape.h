/* shape.h - what a kernel device can do, asked once, and the shape of
 * kernel chosen from it in one place.
 *
 * One kernel source (src/kernels/dialect.h) serves every device, but the
 * best way to cut work among work-items differs: NVIDIA's warps exchange
 * registers by shuffles; another GPU may offer sub-group shuffles, or only
 * local memory between barriers; a CPU behind OpenCL (PoCL, Intel's CPU
 * runtime) runs a group as loops over its work-items, where a barrier
 * splits the loop and an exchange through local memory is pure overhead,
 * so there work-items should own runs of words and exchange nothing.
 *
 * A backend fills an ls_device_caps for each device from its API's
 * queries (what the driver reports, never what its name suggests), and
 * ls_shape_choose turns it into an ls_shape: the backend hands the shape
 * to the kernels (OpenCL: -DLS_SHAPE=n; CUDA is always LS_SHAPE_WARP), and
 * the workloads' host drivers size launches by it. `devices` and the JSON
 * reports name it. */
#ifndef LOCKSTEP_SHAPE_H
#define LOCKSTEP_SHAPE_H

#include <stdint.h>

#include "error.h"

/* The numbers are the kernels' too (dialect.h's LS_SHAPE_* ): keep them. */
typedef enum ls_shape {
    LS_SHAPE_NONE = 0,     /* not a kernel device: OpenMP runs the workloads' own C */
    LS_SHAPE_WARP = 1,     /* 32-lane register shuffles (CUDA; NVIDIA's OpenCL, inline PTX) */
    LS_SHAPE_SUBGROUP = 2, /* a GPU whose OpenCL offers shuffles in sub-groups of 32 */
    LS_SHAPE_GROUP = 3,    /* a GPU without them: exchanges through local memory between barriers */
    LS_SHAPE_CPU = 4,      /* a CPU behind a GPU API: work-items own runs of words, no exchanges */
} ls_shape;

/* What a device offers that decides the shape, as its API reports it. */
typedef struct ls_device_caps {
    int is_cpu;              /* the API calls it a CPU (OpenCL's CL_DEVICE_TYPE_CPU) */
    int prebuilt;            /* its kernels were compiled with the host for their one shape (CUDA's nvcc) */
    int warp_shuffles;       /* 32-lane register shuffles: CUDA, or NVIDIA's OpenCL taking inline PTX */
    int subgroup_shuffles;   /* sub-group shuffles in OpenCL C 1.2: cl_intel_subgroups */
    uint32_t subgroup_width; /* the sub-group width a kernel can ask for: 32 where offered (0: none) */
    uint32_t vector_width;   /* preferred vector width for 32-bit integers (OpenCL), 0 unknown */
    uint64_t local_bytes;    /* local (shared) memory a group */
} ls_device_caps;

/* The shape for a device with these capabilities. Where the environment's
 * LOCKSTEP_SHAPE names one ("warp", "subgroup", "group", "cpu"; for
 * measuring one shape against another on the same silicon, and for the
 * tests), that one, when the device can run it: a CPU or a GPU can run
 * "group" and "cpu", "warp" and "subgroup" need their shuffles; a device
 * whose kernels were prebuilt keeps their shape. 0, or -1
 * with err set (usage) when LOCKSTEP_SHAPE names no shape or one this
 * device cannot run. */
int ls_shape_choose(const ls_device_caps *caps, ls_shape *out, ls_error *err);

/* "warp", "subgroup", "group", "cpu"; "none" for LS_SHAPE_NONE. */
const char *ls_shape_name(ls_shape shape);

/* What the shape means for a reader of `devices`, in a few words. */
const char *ls_shape_text(ls_shape shape);

/* Whether dialect.h's ls_exchange and ls_shuffle are register shuffles on
 * this shape (rather than local memory between barriers, or nothing). */
static inline int ls_shape_shuffles(ls_shape shape)
{
    return shape == LS_SHAPE_WARP || shape == LS_SHAPE_SUBGROUP;
}

#endif
