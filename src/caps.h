/* caps.h - what a device can do, asked one way.
 *
 * Whether a device runs kernels, which exchanges its kernels can make,
 * whether it keeps the exact floating-point rule (src/kernels/dialect.h),
 * builds programs with definitions, copies device to device or lets
 * another process write its memory: each is an ls_cap, and
 * ls_caps_supports is the one question that asks it, as ggml's
 * ggml_backend_dev_supports_op is (of an opened device gpu_call.h's
 * ls_device_supports, of a set set.h's ls_set_supports). The kernel-shape
 * choice (shape.h), conformance and check ("not supported",
 * with the reason), the wrappers of gpu_call.h (copies, sharing) and the
 * backends' own refusals (an exact program on a device without correctly
 * rounded divide) all ask it; `lockstep devices` shows every answer.
 *
 * Each backend fills an ls_device_caps once per device, when it lists the
 * device (backend.h's list_devices; the same function when it opens it):
 * first what its method table offers (gpu.h's ls_caps_from_methods: a
 * backend without gpu.h's copy copies nothing device to device), then the
 * device's reports through its API, never what its name suggests; a cap it
 * cannot have carries the reason in the backend's words. */
#ifndef LOCKSTEP_CAPS_H
#define LOCKSTEP_CAPS_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* The numbers are bits of ls_device_caps.can and names in the JSON: add,
 * do not renumber. */
typedef enum ls_cap {
    LS_CAP_KERNELS = 0,          /* runs the programs of src/kernels (not the reference's own C) */
    LS_CAP_WARP_SHUFFLE = 1,     /* 32-lane register shuffles: CUDA, NVIDIA's OpenCL taking inline PTX */
    LS_CAP_SUBGROUP_SHUFFLE = 2, /* shuffles in sub-groups of 32 in OpenCL C 1.2 (cl_intel_subgroups) */
    LS_CAP_EXACT_FP = 3,         /* floats as the exact rule needs: no contraction, exact / and sqrt, denormals */
    LS_CAP_DEFINES = 4,          /* programs built with definitions (gpu.h's kernel_with) */
    LS_CAP_COPY = 5,             /* device-to-device copies among its backend's devices (gpu.h's copy) */
    LS_CAP_SHARE = 6,            /* memory another process of its node writes into (gpu.h's share: CUDA IPC) */
    LS_CAPS = 7
} ls_cap;

#define LS_CAP_BIT(cap) (1u << (unsigned)(cap))

/* What a device offers, as its backend found it. */
typedef struct ls_device_caps {
    uint32_t can; /* LS_CAP_BIT of each ls_cap the device has */
    /* For each cap it lacks, why, in its backend's words ("this OpenCL
     * device flushes single-precision denormals"); "" gives the generic
     * reason. Ignored for a cap it has. */
    char why_not[LS_CAPS][160];
    /* What the kernel shape is also chosen from (shape.h). */
    int is_cpu;              /* the API calls it a CPU (OpenCL's CL_DEVICE_TYPE_CPU) */
    int prebuilt;            /* its kernels were compiled with the host for their one shape (CUDA's nvcc) */
    uint32_t subgroup_width; /* the sub-group width a kernel can ask for: 32 where offered (0: none) */
    uint32_t vector_width;   /* preferred vector width for 32-bit integers (OpenCL), 0 unknown */
    uint64_t local_bytes;    /* local (shared) memory a group */
} ls_device_caps;

/* Whether a device with these caps can do `cap`: 1; else 0, and why not
 * in why[0..len) when why is not NULL ("no device-to-device copy:
 * opencl has none"). An ls_cap out of range is never supported. */
int ls_caps_supports(const ls_device_caps *caps, ls_cap cap, char *why, size_t len);

/* Grants `cap`, or refuses it with why (printf-style), for a backend
 * filling its device's caps. */
void ls_caps_grant(ls_device_caps *caps, ls_cap cap);
void ls_caps_refuse(ls_device_caps *caps, ls_cap cap, const char *fmt, ...) LS_PRINTF(3, 4);

/* "exact_fp", as the JSON names it; "" out of range. */
const char *ls_cap_name(ls_cap cap);
/* "the exact float rule", as `devices` says it. */
const char *ls_cap_text(ls_cap cap);

#endif
