/* cl_graveler.c - launching Graveler on an OpenCL device. The kernels are
 * in kernels_cl/graveler.cl; this file sizes the launches, keeps the
 * per-group partial histograms and sums them. */
#include <stdlib.h>
#include <string.h>

#include "cl_internal.h"
#include "graveler.h"


typedef struct grv_cl_launch {
    cl_kernel kernel;
    cl_mem partial;
    size_t wg, groups;
    int private_counters;
} grv_cl_launch;

/* Work-group size and kind of kernel for this device and turn count. */
static void grv_cl_shape(const ls_ctx *ctx, uint32_t bins, grv_cl_launch *L)
{
    /* 96 on GPUs, as for CUDA (docs/perf/); small groups on CPUs, where a
     * group is a loop over items on one core. */
    size_t wg = ctx->is_gpu ? 96 : 16;
    if (wg > ctx->max_wg)
        wg = ctx->max_wg;
    /* Private 16-bit counters when they fit in local memory. */
    while (wg > 8 && (cl_ulong)bins * wg * 2 > ctx->local_mem)
        wg /= 2;
    L->private_counters = (cl_ulong)bins * wg * 2 <= ctx->local_mem && wg >= 8;
    if (!L->private_counters)
        wg = ctx->max_wg < 64 ? ctx->max_wg : 64;
    L->wg = wg;
    /* Enough groups to fill the device several times over. */
    L->groups = (size_t)ctx->compute_units * (ctx->is_gpu ? 16 : 4);
    if (L->groups < 1)
        L->groups = 1;
}

int ls_cl_graveler(ls_ctx *ctx, const grv_params *p, grv_result *r, const ls_progress *progress, ls_error *err)
{
    const uint32_t bins = p->turns + 1;
    const uint64_t lo = p->first, hi = p->first + p->battles;
    const uint64_t s_first = lo / GRV_BATTLES_PER_STREAM;
    const uint64_t s_end = (hi + GRV_BATTLES_PER_STREAM - 1) / GRV_BATTLES_PER_STREAM;
    memset(r->hist, 0, bins * sizeof *r->hist);
    r->battles = 0;
    r->seconds = 0;

    cl_program prog = ls_cl_program(ctx, LS_CL_PROG_GRAVELER, err);
    if (!prog)
        return -1;
    grv_cl_launch L;
    grv_cl_shape(ctx, bins, &L);
    cl_int st;
    L.kernel = clCreateKernel(prog, L.private_counters ? "graveler_private" : "graveler_shared", &st);
    LS_CL_TRY(st, err, "clCreateKernel(graveler)");
    size_t partial_bytes = L.groups * bins * sizeof(cl_ulong);
    uint64_t *partial = calloc(L.groups * bins, sizeof *partial);
    L.partial = partial ? clCreateBuffer(ctx->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, partial_bytes,
                                         partial, &st)
                        : NULL;
    int rc = 0;
    if (!partial || st != CL_SUCCESS) {
        rc = ls_fail(err, "cannot allocate %zu bytes for partial histograms on the OpenCL device%s", partial_bytes,
                     partial ? "" : " (host out of memory)");
        goto done;
    }
    const size_t global = L.groups * L.wg;
    /* Streams per launch: bounded for the counters, and about 2^28 battles
     * per launch on GPUs (2^22 on CPUs) so progress stays responsive. */
    uint64_t per_launch = (uint64_t)global * GRV_GPU_MAX_STREAMS;
    uint64_t target = ctx->is_gpu ? (1ull << 28) / GRV_BATTLES_PER_STREAM : (1ull << 22) / GRV_BATTLES_PER_STREAM;
    if (per_launch > target && target >= global)
        per_launch = target;
    size_t local_bytes = L.private_counters ? bins * L.wg * sizeof(cl_ushort) : bins * sizeof(cl_uint);
    cl_uint turns = p->turns;
    for (uint64_t s = s_first; s < s_end;) {
        cl_ulong n = s_end - s < per_launch ? s_end - s : per_launch;
        cl_ulong seed = p->seed, s0 = s, clo = lo, chi = hi;
        int a = 0;
        st = clSetKernelArg(L.kernel, a++, sizeof seed, &seed);
        st |= clSetKernelArg(L.kernel, a++, sizeof s0, &s0);
        st |= clSetKernelArg(L.kernel, a++, sizeof n, &n);
        st |= clSetKernelArg(L.kernel, a++, sizeof clo, &clo);
        st |= clSetKernelArg(L.kernel, a++, sizeof chi, &chi);
        st |= clSetKernelArg(L.kernel, a++, sizeof turns, &turns);
        st |= clSetKernelArg(L.kernel, a++, sizeof L.partial, &L.partial);
        st |= clSetKernelArg(L.kernel, a++, local_bytes, NULL);
        if (st != CL_SUCCESS) {
            rc = ls_fail(err, "OpenCL clSetKernelArg(graveler) failed");
            goto done;
        }
        cl_event ev;
        st = clEnqueueNDRangeKernel(ctx->queue, L.kernel, 1, NULL, &global, &L.wg, 0, NULL, &ev);
        if (st == CL_SUCCESS) {
            st = clWaitForEvents(1, &ev);
            r->seconds += ls_cl_event_seconds(ev);
            clReleaseEvent(ev);
        }
        if (st != CL_SUCCESS) {
            rc = ls_fail(err, "OpenCL graveler kernel failed: %s", ls_cl_status(st));
            goto done;
        }
        s += n;
        uint64_t end = s * GRV_BATTLES_PER_STREAM < hi ? s * GRV_BATTLES_PER_STREAM : hi;
        r->battles = end - lo;
        if (progress && progress->report && progress->report(progress->user, r->battles, p->battles))
            break;
    }
    st = clEnqueueReadBuffer(ctx->queue, L.partial, CL_TRUE, 0, partial_bytes, partial, 0, NULL, NULL);
    if (st != CL_SUCCESS) {
        rc = ls_fail(err, "OpenCL reading the histogram failed: %s", ls_cl_status(st));
        goto done;
    }
    for (size_t g = 0; g < L.groups; g++)
        for (uint32_t b = 0; b < bins; b++)
            r->hist[b] += partial[g * bins + b];
done:
    if (L.partial)
        clReleaseMemObject(L.partial);
    clReleaseKernel(L.kernel);
    free(partial);
    return rc;
}
