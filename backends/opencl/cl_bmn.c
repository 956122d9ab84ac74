/* cl_bmn.c - launching Beggar My Neighbour chunks on an OpenCL device
 * (kernels: kernels_cl/bmn.cl): batches of deals, each dealt by
 * bmn_deal_batch and played by bmn_play_batch. */
#include <stdlib.h>
#include <string.h>

#include "cl_internal.h"

#define BMN_CL_BATCH_GPU (1u << 22) /* starting states per batch: 2^22 * 32 bytes */
#define BMN_CL_BATCH_CPU (1u << 16)
#define BMN_CL_GAME_BYTES 32        /* a starting state: bmn_cl_hands in kernels_cl/bmn.cl */

enum { DEALS, GAMES, HIST, CARDS, HITS, CAPPED, COUNTERS, NBUF };

typedef struct bmn_cl_run {
    cl_kernel deal, play;
    cl_mem buf[NBUF];
    size_t bytes[NBUF];
    size_t wg, groups, global;
    uint64_t batch;
} bmn_cl_run;

static void bmn_cl_release(bmn_cl_run *R)
{
    for (int b = 0; b < NBUF; b++)
        if (R->buf[b])
            clReleaseMemObject(R->buf[b]);
    if (R->deal)
        clReleaseKernel(R->deal);
    if (R->play)
        clReleaseKernel(R->play);
}

/* Creates the kernels and buffers; the result buffers start zeroed. */
static int bmn_cl_setup(ls_ctx *ctx, const bmn_range *r, const bmn_range_out *out, bmn_cl_run *R, ls_error *err)
{
    cl_program prog = ls_cl_program(ctx, LS_CL_PROG_BMN, err);
    if (!prog)
        return -1;
    cl_int st;
    R->deal = clCreateKernel(prog, "bmn_deal_batch", &st);
    LS_CL_TRY(st, err, "clCreateKernel(bmn_deal_batch)");
    R->play = clCreateKernel(prog, "bmn_play_batch", &st);
    LS_CL_TRY(st, err, "clCreateKernel(bmn_play_batch)");
    uint64_t max_batch = ctx->is_gpu ? BMN_CL_BATCH_GPU : BMN_CL_BATCH_CPU;
    R->batch = r->count < max_batch ? r->count : max_batch;
    R->wg = ctx->is_gpu ? 128 : 16; /* 128: NVIDIA's OpenCL ran 512 at 0.56e9 deals/s, 128 at 0.79e9 */
    if (R->wg > ctx->max_wg)
        R->wg = ctx->max_wg;
    R->groups = (size_t)ctx->compute_units * (ctx->is_gpu ? 16 : 4);
    size_t need = (size_t)((R->batch + R->wg - 1) / R->wg);
    if (R->groups > need)
        R->groups = need ? need : 1;
    R->global = R->groups * R->wg;
    size_t bytes[NBUF] = {
        (size_t)(r->deals ? R->batch : 1) * sizeof(bmn_deal_in),
        (size_t)R->batch * BMN_CL_GAME_BYTES,
        R->groups * BMN_HIST_BINS * sizeof(cl_ulong),
        R->global * sizeof(cl_ulong),
        (size_t)(out->max_hits ? out->max_hits : 1) * sizeof(bmn_hit),
        (size_t)(out->max_capped ? out->max_capped : 1) * sizeof(cl_ulong),
        2 * sizeof(cl_uint),
    };
    memcpy(R->bytes, bytes, sizeof bytes);
    for (int b = 0; b < NBUF; b++) {
        R->buf[b] = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes[b], NULL, &st);
        if (st != CL_SUCCESS)
            return ls_fail(err, "cannot allocate %zu bytes for a BMN chunk on the OpenCL device: %s", bytes[b],
                           ls_cl_status(st));
        if (b >= HIST) {
            cl_uchar zero = 0;
            st = clEnqueueFillBuffer(ctx->queue, R->buf[b], &zero, 1, 0, bytes[b], 0, NULL, NULL);
            LS_CL_TRY(st, err, "clEnqueueFillBuffer");
        }
    }
    return 0;
}

/* Deals and plays deals first + done .. + n; adds the kernels' time. */
static int bmn_cl_batch(ls_ctx *ctx, const bmn_range *r, const bmn_range_out *out, bmn_cl_run *R, uint64_t done,
                        uint64_t n, double *seconds, ls_error *err)
{
    cl_int st = CL_SUCCESS;
    if (r->deals)
        st = clEnqueueWriteBuffer(ctx->queue, R->buf[DEALS], CL_TRUE, 0, n * sizeof(bmn_deal_in), r->deals + done, 0,
                                  NULL, NULL);
    LS_CL_TRY(st, err, "writing the given deals");
    cl_ulong seed = r->seed, first = r->first + done, count = n;
    cl_uint given = r->deals != NULL, cap = r->cap, min_cards = r->min_cards, min_tricks = r->min_tricks;
    cl_uint max_hits = out->max_hits, max_capped = out->max_capped;
    int a = 0;
    st = clSetKernelArg(R->deal, a++, sizeof seed, &seed);
    st |= clSetKernelArg(R->deal, a++, sizeof first, &first);
    st |= clSetKernelArg(R->deal, a++, sizeof count, &count);
    st |= clSetKernelArg(R->deal, a++, sizeof given, &given);
    st |= clSetKernelArg(R->deal, a++, sizeof(cl_mem), &R->buf[DEALS]);
    st |= clSetKernelArg(R->deal, a++, sizeof(cl_mem), &R->buf[GAMES]);
    st |= clSetKernelArg(R->deal, a++, 52 * R->wg, NULL); /* the decks being shuffled */
    a = 0;
    st |= clSetKernelArg(R->play, a++, sizeof(cl_mem), &R->buf[GAMES]);
    st |= clSetKernelArg(R->play, a++, sizeof first, &first);
    st |= clSetKernelArg(R->play, a++, sizeof count, &count);
    st |= clSetKernelArg(R->play, a++, sizeof cap, &cap);
    st |= clSetKernelArg(R->play, a++, sizeof min_cards, &min_cards);
    st |= clSetKernelArg(R->play, a++, sizeof min_tricks, &min_tricks);
    for (int b = HIST; b < NBUF; b++)
        st |= clSetKernelArg(R->play, a++, sizeof(cl_mem), &R->buf[b]);
    st |= clSetKernelArg(R->play, a++, sizeof max_hits, &max_hits);
    st |= clSetKernelArg(R->play, a++, sizeof max_capped, &max_capped);
    if (st != CL_SUCCESS)
        return ls_fail(err, "OpenCL clSetKernelArg(bmn) failed");
    size_t deal_wg = R->wg, deal_global = (size_t)((n + deal_wg - 1) / deal_wg) * deal_wg;
    cl_event ev[2];
    st = clEnqueueNDRangeKernel(ctx->queue, R->deal, 1, NULL, &deal_global, &deal_wg, 0, NULL, &ev[0]);
    if (st == CL_SUCCESS) {
        st = clEnqueueNDRangeKernel(ctx->queue, R->play, 1, NULL, &R->global, &R->wg, 0, NULL, &ev[1]);
        if (st == CL_SUCCESS) {
            st = clWaitForEvents(2, ev);
            *seconds += ls_cl_event_seconds(ev[0]) + ls_cl_event_seconds(ev[1]);
            clReleaseEvent(ev[1]);
        }
        clReleaseEvent(ev[0]);
    }
    if (st != CL_SUCCESS)
        return ls_fail(err, "OpenCL BMN kernels failed: %s", ls_cl_status(st));
    return 0;
}

/* Reads the results and adds them to out. */
static int bmn_cl_collect(ls_ctx *ctx, const bmn_cl_run *R, bmn_range_out *out, ls_error *err)
{
    void *host[NBUF] = {0};
    int rc = 0;
    for (int b = HIST; b < NBUF && rc == 0; b++) {
        host[b] = malloc(R->bytes[b]);
        if (!host[b])
            rc = ls_fail(err, "out of host memory reading BMN results");
        else if (clEnqueueReadBuffer(ctx->queue, R->buf[b], CL_TRUE, 0, R->bytes[b], host[b], 0, NULL, NULL) !=
                 CL_SUCCESS)
            rc = ls_fail(err, "OpenCL reading BMN results failed");
    }
    if (rc == 0) {
        const cl_ulong *h = host[HIST], *c = host[CARDS];
        for (size_t g = 0; g < R->groups; g++)
            for (uint32_t b = 0; b < BMN_HIST_BINS; b++)
                out->hist[b] += h[g * BMN_HIST_BINS + b];
        for (size_t t = 0; t < R->global; t++)
            out->total_cards += c[t];
        const cl_uint *n = host[COUNTERS];
        out->n_hits = n[0];
        out->n_capped = n[1];
        memcpy(out->hits, host[HITS], (size_t)(n[0] < out->max_hits ? n[0] : out->max_hits) * sizeof(bmn_hit));
        memcpy(out->capped, host[CAPPED], (size_t)(n[1] < out->max_capped ? n[1] : out->max_capped) * sizeof(cl_ulong));
    }
    for (int b = 0; b < NBUF; b++)
        free(host[b]);
    return rc;
}

int ls_cl_bmn(ls_ctx *ctx, const bmn_range *r, bmn_range_out *out, ls_error *err)
{
    bmn_cl_run R;
    memset(&R, 0, sizeof R);
    int rc = bmn_cl_setup(ctx, r, out, &R, err);
    out->seconds = 0;
    for (uint64_t done = 0; rc == 0 && done < r->count;) {
        uint64_t n = r->count - done < R.batch ? r->count - done : R.batch;
        rc = bmn_cl_batch(ctx, r, out, &R, done, n, &out->seconds, err);
        done += n;
    }
    if (rc == 0)
        rc = bmn_cl_collect(ctx, &R, out, err);
    bmn_cl_release(&R);
    return rc;
}
