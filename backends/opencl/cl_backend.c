/* cl_backend.c - the OpenCL backend: every device of every platform the
 * ICD loader finds, numbered in order (opencl:0, opencl:1, ...).
 * Programs are embedded in the binary and built on first use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_internal.h"
#include "cl_src_bmn.h"      /* generated from kernels_cl/bmn.cl */
#include "cl_src_graveler.h" /* generated from kernels_cl/graveler.cl */

const char *ls_cl_status(cl_int s)
{
    switch (s) {
#define C(x) \
    case x:  \
        return #x;
        C(CL_DEVICE_NOT_FOUND) C(CL_DEVICE_NOT_AVAILABLE) C(CL_COMPILER_NOT_AVAILABLE)
        C(CL_MEM_OBJECT_ALLOCATION_FAILURE) C(CL_OUT_OF_RESOURCES) C(CL_OUT_OF_HOST_MEMORY)
        C(CL_PROFILING_INFO_NOT_AVAILABLE) C(CL_BUILD_PROGRAM_FAILURE) C(CL_INVALID_VALUE)
        C(CL_INVALID_DEVICE) C(CL_INVALID_CONTEXT) C(CL_INVALID_COMMAND_QUEUE) C(CL_INVALID_MEM_OBJECT)
        C(CL_INVALID_BUILD_OPTIONS) C(CL_INVALID_PROGRAM) C(CL_INVALID_PROGRAM_EXECUTABLE)
        C(CL_INVALID_KERNEL_NAME) C(CL_INVALID_KERNEL) C(CL_INVALID_ARG_INDEX) C(CL_INVALID_ARG_VALUE)
        C(CL_INVALID_ARG_SIZE) C(CL_INVALID_KERNEL_ARGS) C(CL_INVALID_WORK_DIMENSION)
        C(CL_INVALID_WORK_GROUP_SIZE) C(CL_INVALID_WORK_ITEM_SIZE) C(CL_INVALID_GLOBAL_OFFSET)
        C(CL_INVALID_EVENT) C(CL_INVALID_OPERATION) C(CL_INVALID_BUFFER_SIZE) C(CL_INVALID_GLOBAL_WORK_SIZE)
        C(CL_INVALID_PLATFORM) C(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
#undef C
    case -1001:
        return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL platform is installed)";
    default:
        return "unknown OpenCL status";
    }
}

double ls_cl_event_seconds(cl_event ev)
{
    cl_ulong start = 0, end = 0;
    if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) != CL_SUCCESS ||
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) != CL_SUCCESS)
        return 0.0;
    return end > start ? (double)(end - start) * 1e-9 : 0.0;
}

/* All (platform, device) pairs, flattened. */
typedef struct cl_dev_ref {
    cl_platform_id platform;
    cl_device_id device;
} cl_dev_ref;

static int enumerate(cl_dev_ref *out, int max, ls_error *why)
{
    cl_platform_id plats[16];
    cl_uint nplat = 0;
    cl_int st = clGetPlatformIDs(16, plats, &nplat);
    if (st != CL_SUCCESS || nplat == 0)
        return ls_fail(why, "no OpenCL platform found (%s); install an ICD such as pocl-opencl-icd or a GPU driver",
                       st != CL_SUCCESS ? ls_cl_status(st) : "0 platforms");
    int n = 0;
    for (cl_uint p = 0; p < nplat && n < max; p++) {
        cl_device_id devs[LS_MAX_DEVICES];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, LS_MAX_DEVICES, devs, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && n < max; d++)
            out[n++] = (cl_dev_ref){plats[p], devs[d]};
    }
    if (n == 0)
        return ls_fail(why, "OpenCL platforms found but no devices");
    return n;
}

static void describe(cl_dev_ref r, ls_device_info *info)
{
    memset(info, 0, sizeof *info);
    char pname[128] = "";
    cl_device_type type = 0;
    cl_uint cu = 0;
    cl_ulong mem = 0;
    clGetDeviceInfo(r.device, CL_DEVICE_NAME, sizeof info->name - 1, info->name, NULL);
    clGetPlatformInfo(r.platform, CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL);
    clGetDeviceInfo(r.device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    clGetDeviceInfo(r.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
    clGetDeviceInfo(r.device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
    snprintf(info->platform, sizeof info->platform, "%s", pname);
    info->compute_units = (int)cu;
    info->memory_bytes = mem;
    info->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
}

static int cl_list_devices(ls_device_info *out, int max, ls_error *why)
{
    cl_dev_ref refs[LS_MAX_DEVICES];
    int n = enumerate(refs, max < LS_MAX_DEVICES ? max : LS_MAX_DEVICES, why);
    if (n < 0)
        return 0;
    for (int i = 0; i < n; i++)
        describe(refs[i], &out[i]);
    return n;
}

static void cl_close(ls_ctx *ctx)
{
    if (!ctx)
        return;
    for (int i = 0; i < LS_CL_PROG_COUNT; i++)
        if (ctx->programs[i])
            clReleaseProgram(ctx->programs[i]);
    if (ctx->queue)
        clReleaseCommandQueue(ctx->queue);
    if (ctx->context)
        clReleaseContext(ctx->context);
    free(ctx);
}

static ls_ctx *cl_open(int index, ls_error *err)
{
    cl_dev_ref refs[LS_MAX_DEVICES];
    int n = enumerate(refs, LS_MAX_DEVICES, err);
    if (n < 0)
        return NULL;
    if (index < 0 || index >= n) {
        ls_fail_usage(err, "opencl has %d devices, no index %d", n, index);
        return NULL;
    }
    ls_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        ls_fail(err, "out of memory opening an OpenCL device");
        return NULL;
    }
    ctx->platform = refs[index].platform;
    ctx->device = refs[index].device;
    cl_int st;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)ctx->platform, 0};
    ctx->context = clCreateContext(props, 1, &ctx->device, NULL, NULL, &st);
    if (st == CL_SUCCESS)
        ctx->queue = clCreateCommandQueue(ctx->context, ctx->device, CL_QUEUE_PROFILING_ENABLE, &st);
    if (st != CL_SUCCESS) {
        ls_fail(err, "OpenCL device %d could not be opened: %s", index, ls_cl_status(st));
        cl_close(ctx);
        return NULL;
    }
    cl_device_type type = 0;
    clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof ctx->compute_units, &ctx->compute_units, NULL);
    clGetDeviceInfo(ctx->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof ctx->local_mem, &ctx->local_mem, NULL);
    clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof ctx->max_wg, &ctx->max_wg, NULL);
    clGetDeviceInfo(ctx->device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    ctx->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    return ctx;
}

static const char *const program_sources[LS_CL_PROG_COUNT] = {
    [LS_CL_PROG_GRAVELER] = ls_cl_src_graveler,
    [LS_CL_PROG_BMN] = ls_cl_src_bmn,
};

cl_program ls_cl_program(ls_ctx *ctx, int which, ls_error *err)
{
    if (ctx->programs[which])
        return ctx->programs[which];
    cl_int st;
    const char *src = program_sources[which];
    cl_program prog = clCreateProgramWithSource(ctx->context, 1, &src, NULL, &st);
    if (st != CL_SUCCESS) {
        ls_fail(err, "OpenCL could not create a program: %s", ls_cl_status(st));
        return NULL;
    }
    st = clBuildProgram(prog, 1, &ctx->device, "-cl-std=CL1.2", NULL, NULL);
    if (st != CL_SUCCESS) {
        char log[400] = "";
        clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        log[strcspn(log, "\0")] = 0;
        for (char *c = log; *c; c++)
            if (*c == '\n')
                *c = ' ';
        ls_fail(err, "OpenCL kernel build failed on this device (%s): %s", ls_cl_status(st), log);
        clReleaseProgram(prog);
        return NULL;
    }
    ctx->programs[which] = prog;
    return prog;
}

const ls_backend ls_backend_opencl = {
    .name = "opencl",
    .list_devices = cl_list_devices,
    .open = cl_open,
    .close = cl_close,
    .graveler = ls_cl_graveler,
    .bmn = ls_cl_bmn,
};
