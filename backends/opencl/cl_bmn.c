/* cl_bmn.c - launching Beggar My Neighbour chunks on an OpenCL device
 * (kernel: kernels_cl/bmn.cl). */
#include <stdlib.h>
#include <string.h>

#include "cl_internal.h"

/* One device buffer of `bytes`, zero-filled. */
static cl_mem zeroed_buffer(ls_ctx *ctx, size_t bytes, cl_int *st)
{
    void *zeros = calloc(1, bytes);
    if (!zeros) {
        *st = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    cl_mem m = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, zeros, st);
    free(zeros);
    return m;
}

int ls_cl_bmn(ls_ctx *ctx, const bmn_range *r, bmn_range_out *out, ls_error *err)
{
    cl_program prog = ls_cl_program(ctx, LS_CL_PROG_BMN, err);
    if (!prog)
        return -1;
    cl_int st;
    cl_kernel k = clCreateKernel(prog, "bmn_search", &st);
    LS_CL_TRY(st, err, "clCreateKernel(bmn_search)");
    size_t wg = ctx->is_gpu ? 128 : 16;
    if (wg > ctx->max_wg)
        wg = ctx->max_wg;
    size_t groups = (size_t)ctx->compute_units * (ctx->is_gpu ? 16 : 4);
    size_t need = (size_t)((r->count + wg - 1) / wg);
    if (groups > need)
        groups = need ? need : 1;
    size_t global = groups * wg;

    enum { DEALS, HIST, CARDS, HITS, CAPPED, COUNTERS, NBUF };
    size_t bytes[NBUF] = {
        (size_t)(r->deals ? r->count : 1) * sizeof(bmn_deal_in),
        groups * BMN_HIST_BINS * sizeof(cl_ulong),
        global * sizeof(cl_ulong),
        (size_t)(out->max_hits ? out->max_hits : 1) * sizeof(bmn_hit),
        (size_t)(out->max_capped ? out->max_capped : 1) * sizeof(cl_ulong),
        2 * sizeof(cl_uint),
    };
    cl_mem buf[NBUF] = {0};
    void *host[NBUF] = {0};
    int rc = 0;
    for (int b = 0; b < NBUF && rc == 0; b++) {
        if (b == DEALS && r->deals)
            buf[b] = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes[b],
                                    (void *)r->deals, &st);
        else
            buf[b] = zeroed_buffer(ctx, bytes[b], &st);
        host[b] = malloc(bytes[b]);
        if (st != CL_SUCCESS || !host[b])
            rc = ls_fail(err, "cannot allocate %zu bytes for a BMN chunk on the OpenCL device: %s", bytes[b],
                         ls_cl_status(st != CL_SUCCESS ? st : CL_OUT_OF_HOST_MEMORY));
    }
    if (rc == 0) {
        cl_ulong seed = r->seed, first = r->first, count = r->count;
        cl_uint cap = r->cap, min_cards = r->min_cards, min_tricks = r->min_tricks;
        cl_uint max_hits = out->max_hits, max_capped = out->max_capped, given = r->deals != NULL;
        int a = 0;
        st = clSetKernelArg(k, a++, sizeof seed, &seed);
        st |= clSetKernelArg(k, a++, sizeof first, &first);
        st |= clSetKernelArg(k, a++, sizeof count, &count);
        st |= clSetKernelArg(k, a++, sizeof cap, &cap);
        st |= clSetKernelArg(k, a++, sizeof min_cards, &min_cards);
        st |= clSetKernelArg(k, a++, sizeof min_tricks, &min_tricks);
        st |= clSetKernelArg(k, a++, sizeof given, &given);
        for (int b = 0; b < NBUF; b++)
            st |= clSetKernelArg(k, a++, sizeof(cl_mem), &buf[b]);
        st |= clSetKernelArg(k, a++, sizeof max_hits, &max_hits);
        st |= clSetKernelArg(k, a++, sizeof max_capped, &max_capped);
        if (st != CL_SUCCESS)
            rc = ls_fail(err, "OpenCL clSetKernelArg(bmn_search) failed");
    }
    if (rc == 0) {
        cl_event ev;
        st = clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &global, &wg, 0, NULL, &ev);
        if (st == CL_SUCCESS) {
            st = clWaitForEvents(1, &ev);
            out->seconds = ls_cl_event_seconds(ev);
            clReleaseEvent(ev);
        }
        for (int b = HIST; b < NBUF && st == CL_SUCCESS; b++)
            st = clEnqueueReadBuffer(ctx->queue, buf[b], CL_TRUE, 0, bytes[b], host[b], 0, NULL, NULL);
        if (st != CL_SUCCESS)
            rc = ls_fail(err, "OpenCL BMN kernel failed: %s", ls_cl_status(st));
    }
    if (rc == 0) {
        const cl_ulong *h = host[HIST], *c = host[CARDS];
        for (size_t g = 0; g < groups; g++)
            for (uint32_t b = 0; b < BMN_HIST_BINS; b++)
                out->hist[b] += h[g * BMN_HIST_BINS + b];
        for (size_t t = 0; t < global; t++)
            out->total_cards += c[t];
        const cl_uint *n = host[COUNTERS];
        out->n_hits = n[0];
        out->n_capped = n[1];
        memcpy(out->hits, host[HITS], (size_t)(n[0] < out->max_hits ? n[0] : out->max_hits) * sizeof(bmn_hit));
        memcpy(out->capped, host[CAPPED],
               (size_t)(n[1] < out->max_capped ? n[1] : out->max_capped) * sizeof(cl_ulong));
    }
    for (int b = 0; b < NBUF; b++) {
        if (buf[b])
            clReleaseMemObject(buf[b]);
        free(host[b]);
    }
    clReleaseKernel(k);
    return rc;
}
