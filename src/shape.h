/* shape.h - the shape of kernel a device runs, chosen in one place from
 * what it can do (caps.h).
 *
 * One kernel source (src/kernels/dialect.h) serves every device, but the
 * best way to cut work among work-items differs: NVIDIA's warps exchange
 * registers by shuffles; another GPU may offer sub-group shuffles, or only
 * local memory between barriers; a CPU behind OpenCL (PoCL, Intel's CPU
 * runtime) runs a group as loops over its work-items, where a barrier
 * splits the loop and an exchange through local memory is pure overhead,
 * so there work-items should own runs of words and exchange nothing.
 *
 * A backend fills an ls_device_caps for each device (caps.h), and
 * ls_shape_choose turns it into an ls_shape, asking it (ls_caps_supports)
 * whether the device runs kernels and which shuffles it has, and reading
 * whether it is a CPU: the backend hands the shape to the kernels
 * (OpenCL: -DLS_SHAPE=n; CUDA is always LS_SHAPE_WARP), and the
 * workloads' host drivers size launches by it. `devices` and the JSON
 * reports name it. */
#ifndef LOCKSTEP_SHAPE_H
#define LOCKSTEP_SHAPE_H

#include <stdint.h>

#include "caps.h"
#include "error.h"

/* The numbers are the kernels' too (dialect.h's LS_SHAPE_* ): keep them. */
typedef enum ls_shape {
    LS_SHAPE_NONE = 0,     /* no program of src/kernels: the host (OpenMP), whose kernels are the workloads' C */
    LS_SHAPE_WARP = 1,     /* 32-lane register shuffles (CUDA; NVIDIA's OpenCL, inline PTX) */
    LS_SHAPE_SUBGROUP = 2, /* a GPU whose OpenCL offers shuffles in sub-groups of 32 */
    LS_SHAPE_GROUP = 3,    /* a GPU without them: exchanges through local memory between barriers */
    LS_SHAPE_CPU = 4,      /* a CPU behind a GPU API: work-items own runs of words, no exchanges */
} ls_shape;

/* The shape for a device with these capabilities (LS_SHAPE_NONE for one
 * that runs no kernels: the reference). Where the environment's
 * LOCKSTEP_SHAPE names one ("warp", "subgroup", "group", "cpu"; for
 * measuring one shape against another on the same silicon, and for the
 * tests), that one, when the device can run it: a device that runs
 * kernels can run "group" and "cpu", "warp" and "subgroup" need their
 * shuffles (LS_CAP_WARP_SHUFFLE, LS_CAP_SUBGROUP_SHUFFLE); a device
 * whose kernels were prebuilt keeps their shape, and one that runs none
 * keeps none. 0, or -1 with err set (usage) when LOCKSTEP_SHAPE names no
 * shape or one this device cannot run, saying why not. */
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
