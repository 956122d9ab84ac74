/* bmn.cu - Beggar My Neighbour deals on NVIDIA GPUs.
 *
 * The game is src/algo/bmn.h. A thread plays deals first + gid,
 * first + gid + stride, ... one event (bmn_step) per loop iteration, and
 * starts its next deal inside the same loop the moment its game ends, so
 * the lanes of a warp never wait for the longest game of the warp: this is
 * the seed program's lesson (a game loop per deal stalls warps on the
 * longest game).
 *
 * Per block: a shared histogram of game lengths with shared atomics, written
 * to the block's own row of `hist` at the end (the host adds the rows), and
 * the block's total of cards. Rare events (a deal above the thresholds, or
 * still running at the cap) take a slot in the global lists by atomicAdd. */
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "bmn.h"

struct bmn_cu_lists {
    bmn_hit *hits;
    unsigned long long *capped;
    unsigned int *n_hits, *n_capped;
    unsigned int max_hits, max_capped;
};

__device__ __forceinline__ void bmn_cu_record(uint64_t deal, const bmn_game &g, uint32_t cap, uint32_t min_cards,
                                              uint32_t min_tricks, uint32_t *shist, unsigned long long &cards_sum,
                                              const bmn_cu_lists &L)
{
    if ((g.outcome != BMN_A_WINS && g.outcome != BMN_B_WINS) || g.cards > cap) {
        unsigned int slot = atomicAdd(L.n_capped, 1u);
        if (slot < L.max_capped)
            L.capped[slot] = deal;
        return;
    }
    uint32_t bin = g.cards / BMN_HIST_WIDTH;
    atomicAdd(&shist[bin < BMN_HIST_BINS ? bin : BMN_HIST_BINS - 1], 1u);
    cards_sum += g.cards;
    if (g.cards >= min_cards || g.tricks >= min_tricks) {
        unsigned int slot = atomicAdd(L.n_hits, 1u);
        if (slot < L.max_hits) {
            L.hits[slot].deal = deal;
            L.hits[slot].cards = g.cards;
            L.hits[slot].tricks = g.tricks;
        }
    }
}

/* Deal first + i: generated, or given (copied to registers first, since
 * the shared header reads only private memory). */
__device__ __forceinline__ void bmn_cu_start(bmn_game *g, uint64_t seed, uint64_t first, uint64_t i,
                                             const bmn_deal_in *deals)
{
    if (deals) {
        bmn_deal_in d = deals[i];
        bmn_load(g, d.cards, d.na, d.nb);
    } else {
        bmn_deal_game(seed, first + i, g);
    }
}

__global__ void bmn_search(uint64_t seed, uint64_t first, uint64_t count, uint32_t cap, uint32_t min_cards,
                           uint32_t min_tricks, const bmn_deal_in *deals, unsigned long long *hist_rows,
                           unsigned long long *cards_rows, bmn_cu_lists L)
{
    __shared__ uint32_t shist[BMN_HIST_BINS];
    for (uint32_t b = threadIdx.x; b < BMN_HIST_BINS; b += blockDim.x)
        shist[b] = 0;
    __syncthreads();
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long cards_sum = 0;
    if (i < count) {
        bmn_game g;
        bmn_cu_start(&g, seed, first, i, deals);
        for (;;) {
            uint32_t o = bmn_step(&g);
            if (o == BMN_RUNNING && g.cards < cap)
                continue;
            bmn_cu_record(first + i, g, cap, min_cards, min_tricks, shist, cards_sum, L);
            i += stride;
            if (i >= count)
                break;
            bmn_cu_start(&g, seed, first, i, deals);
        }
    }
    __syncthreads();
    unsigned long long *row = hist_rows + (uint64_t)blockIdx.x * BMN_HIST_BINS;
    for (uint32_t b = threadIdx.x; b < BMN_HIST_BINS; b += blockDim.x)
        row[b] += shist[b];
    /* The block's cards: one atomic per thread on its own row slot. */
    atomicAdd(&cards_rows[blockIdx.x], cards_sum);
}

static int bmn_cu_block(void)
{
    const char *env = getenv("LOCKSTEP_CUDA_BMN_BLOCK");
    int v = env ? atoi(env) : 0;
    return v >= 32 && v <= 1024 && v % 32 == 0 ? v : 128;
}

int ls_cuda_bmn(ls_ctx *ctx, const bmn_range *r, bmn_range_out *out, ls_error *err)
{
    LS_CUDA_TRY(cudaSetDevice(ctx->device), err, "selecting the device");
    const int wg = bmn_cu_block();
    int per_sm = 0;
    LS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bmn_search, wg, 0), err, "querying occupancy");
    uint64_t blocks = (uint64_t)(per_sm > 0 ? per_sm : 1) * ctx->prop.multiProcessorCount;
    uint64_t need = (r->count + wg - 1) / wg;
    if (blocks > need)
        blocks = need ? need : 1;

    size_t hist_bytes = blocks * BMN_HIST_BINS * sizeof(unsigned long long);
    size_t cards_bytes = blocks * sizeof(unsigned long long);
    size_t hits_bytes = (size_t)out->max_hits * sizeof(bmn_hit);
    size_t capped_bytes = (size_t)out->max_capped * sizeof(unsigned long long);
    size_t counters_bytes = 2 * sizeof(unsigned int);
    size_t deals_bytes = r->deals ? r->count * sizeof(bmn_deal_in) : 0;
    size_t total = hist_bytes + cards_bytes + hits_bytes + capped_bytes + counters_bytes;
    bmn_deal_in *d_deals = NULL;
    char *dev = NULL;
    char *host = (char *)malloc(total);
    if (!host)
        return ls_fail(err, "out of host memory (%zu bytes) for a BMN chunk", total);
    int rc = 0;
    cudaError_t st = cudaMalloc(&dev, total);
    if (st == cudaSuccess)
        st = cudaMemsetAsync(dev, 0, total, ctx->stream);
    if (st == cudaSuccess && deals_bytes)
        st = cudaMalloc(&d_deals, deals_bytes);
    if (st == cudaSuccess && deals_bytes)
        st = cudaMemcpy(d_deals, r->deals, deals_bytes, cudaMemcpyHostToDevice);
    if (st != cudaSuccess) {
        rc = ls_fail(err, "CUDA could not allocate %zu bytes for a BMN chunk: %s", total, cudaGetErrorString(st));
        goto done;
    }
    {
        unsigned long long *d_hist = (unsigned long long *)dev;
        unsigned long long *d_cards = (unsigned long long *)(dev + hist_bytes);
        bmn_cu_lists L;
        L.hits = (bmn_hit *)(dev + hist_bytes + cards_bytes);
        L.capped = (unsigned long long *)(dev + hist_bytes + cards_bytes + hits_bytes);
        L.n_hits = (unsigned int *)(dev + hist_bytes + cards_bytes + hits_bytes + capped_bytes);
        L.n_capped = L.n_hits + 1;
        L.max_hits = out->max_hits;
        L.max_capped = out->max_capped;
        float ms = 0;
        cudaEventRecord(ctx->start, ctx->stream);
        bmn_search<<<(unsigned)blocks, wg, 0, ctx->stream>>>(r->seed, r->first, r->count, r->cap, r->min_cards,
                                                              r->min_tricks, d_deals, d_hist, d_cards, L);
        st = cudaGetLastError();
        if (st == cudaSuccess)
            st = cudaEventRecord(ctx->stop, ctx->stream);
        if (st == cudaSuccess)
            st = cudaEventSynchronize(ctx->stop);
        if (st == cudaSuccess)
            st = cudaEventElapsedTime(&ms, ctx->start, ctx->stop);
        if (st == cudaSuccess)
            st = cudaMemcpy(host, dev, total, cudaMemcpyDeviceToHost);
        if (st != cudaSuccess) {
            rc = ls_fail(err, "CUDA BMN kernel failed: %s", cudaGetErrorString(st));
            goto done;
        }
        out->seconds = ms * 1e-3;
        const unsigned long long *h = (const unsigned long long *)host;
        for (uint64_t b = 0; b < blocks; b++)
            for (uint32_t k = 0; k < BMN_HIST_BINS; k++)
                out->hist[k] += h[b * BMN_HIST_BINS + k];
        const unsigned long long *c = (const unsigned long long *)(host + hist_bytes);
        for (uint64_t b = 0; b < blocks; b++)
            out->total_cards += c[b];
        const unsigned int *n = (const unsigned int *)(host + hist_bytes + cards_bytes + hits_bytes + capped_bytes);
        out->n_hits = n[0];
        out->n_capped = n[1];
        memcpy(out->hits, host + hist_bytes + cards_bytes,
               (size_t)(n[0] < out->max_hits ? n[0] : out->max_hits) * sizeof(bmn_hit));
        memcpy(out->capped, host + hist_bytes + cards_bytes + hits_bytes,
               (size_t)(n[1] < out->max_capped ? n[1] : out->max_capped) * sizeof(unsigned long long));
    }
done:
    cudaFree(d_deals);
    cudaFree(dev);
    free(host);
    return rc;
}
