/* cl_internal.h - what the OpenCL backend's files share: the opened
 * device, lazily built programs, and error reporting. */
#ifndef LOCKSTEP_CL_INTERNAL_H
#define LOCKSTEP_CL_INTERNAL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "backend.h"

enum { LS_CL_PROG_GRAVELER, LS_CL_PROG_BMN, LS_CL_PROG_COUNT };

struct ls_ctx {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    cl_program programs[LS_CL_PROG_COUNT];
    cl_uint compute_units;
    cl_ulong local_mem;
    size_t max_wg;
    int is_gpu;
};

/* The name of an OpenCL status code, e.g. "CL_OUT_OF_RESOURCES". */
const char *ls_cl_status(cl_int status);

/* Builds (once) and returns program `which`; NULL with err set, including
 * the compiler's log, when the device cannot build it. */
cl_program ls_cl_program(ls_ctx *ctx, int which, ls_error *err);

/* Fails with "what: CL_STATUS" when status is not CL_SUCCESS. */
#define LS_CL_TRY(call, err, what)                                                   \
    do {                                                                             \
        cl_int ls_st_ = (call);                                                      \
        if (ls_st_ != CL_SUCCESS)                                                    \
            return ls_fail((err), "OpenCL %s failed: %s", (what), ls_cl_status(ls_st_)); \
    } while (0)

/* Workload entry points (ls_backend members). */
int ls_cl_graveler(ls_ctx *ctx, const grv_params *p, grv_result *r, const ls_progress *progress, ls_error *err);
int ls_cl_bmn(ls_ctx *ctx, const bmn_range *r, bmn_range_out *out, ls_error *err);

/* Seconds between a finished event's start and end. */
double ls_cl_event_seconds(cl_event ev);

#endif
