/* bmn.cu - Beggar My Neighbour deals on NVIDIA GPUs.
 *
 * The game is src/algo/bmn.h. Two kernels per batch of deals:
 *
 *  bmn_deal_batch  deals the cards (13 Philox blocks and a shuffle each, or
 *                  a given deal) into an array of starting states. Every
 *                  thread does the same work here, so the warps stay
 *                  converged.
 *  bmn_play_batch  a thread plays one event (bmn_step) per loop iteration
 *                  and, the moment its game ends, starts the next deal of
 *                  its block's slice (a shared counter), whose hands it
 *                  loaded a whole game earlier. Lanes never wait for the
 *                  longest game of their warp, and switching deals costs a
 *                  few register moves instead of a divergent shuffle or a
 *                  wait on memory (the seed program's two lessons: the game
 *                  as a state machine, and deals switched inside the loop
 *                  from a ready backlog).
 *
 * Per block: a shared histogram of game lengths with shared atomics, added
 * to the block's own row of `hist` at the end (the host sums the rows), and
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

/* Starting states of deals first + i, i < count: generated, or given
 * (copied to registers first: the shared header reads private memory). */
#define BMN_CU_DEAL_BLOCK 256

/* Events played between two checks for the end of a game: 4 measured
 * fastest of 1, 2 and 4 (docs/perf/); A/B with -DBMN_CU_STEPS=N. */
#ifndef BMN_CU_STEPS
#define BMN_CU_STEPS 4
#endif

/* A starting state: the two hands' bits (bmn_start). pa == 0 (no
 * sentinel) marks a given deal the engine cannot hold: the host plays it. */
struct bmn_cu_hands {
    uint64_t pa, qa, pb, qb;
};

__global__ void __launch_bounds__(BMN_CU_DEAL_BLOCK) bmn_deal_batch(uint64_t seed, uint64_t first, uint64_t count,
                                                                   const bmn_deal_in *deals, bmn_cu_hands *games)
{
    /* Each thread shuffles its deck in shared memory, entry j of thread t
     * at decks[j * blockDim + t] (neighbouring threads, neighbouring bytes). */
    __shared__ ls_u8 decks[52 * BMN_CU_DEAL_BLOCK];
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    bmn_game g;
    if (deals) {
        bmn_deal_in d = deals[i];
        if (bmn_load(&g, d.cards, d.na, d.nb) != BMN_RUNNING)
            g.px = 0;
    } else {
        bmn_deal_game_in(seed, first + i, &g, decks + threadIdx.x, blockDim.x);
    }
    bmn_cu_hands h = {g.px, g.qx, g.py, g.qy};
    games[i] = h;
}

/* Loads deal i's starting state, or marks it for the host (see above). */
__device__ __forceinline__ void bmn_cu_begin(bmn_game *g, const bmn_cu_hands &h)
{
    bmn_start(g, h.pa, h.qa, h.pb, h.qb);
    if (h.pa == 0)
        g->outcome = BMN_INVALID;
}

__global__ void bmn_play_batch(const bmn_cu_hands *games, uint64_t first, uint64_t count, uint32_t cap,
                               uint32_t min_cards, uint32_t min_tricks, unsigned long long *hist_rows,
                               unsigned long long *cards_rows, bmn_cu_lists L)
{
    __shared__ uint32_t shist[BMN_HIST_BINS];
    __shared__ unsigned int next; /* offset in the slice: 32-bit shared atomics are native, 64-bit ones a CAS loop */
    /* The block's slice of the batch, handed out one deal at a time to
     * whichever lane finishes a game: lanes stay busy until the slice is
     * used up, whatever the lengths of their games. */
    const uint64_t per_block = (count + gridDim.x - 1) / gridDim.x;
    const uint64_t begin = (uint64_t)blockIdx.x * per_block;
    const uint64_t end = begin + per_block < count ? begin + per_block : count;
    for (uint32_t b = threadIdx.x; b < BMN_HIST_BINS; b += blockDim.x)
        shist[b] = 0;
    if (threadIdx.x == 0)
        next = 2 * blockDim.x;
    __syncthreads();
    unsigned long long cards_sum = 0;
    /* Each lane plays deal i and holds the hands of its next deal ni,
     * loaded a whole game ahead, so a finished lane never waits on memory. */
    uint64_t i = begin + threadIdx.x, ni = begin + blockDim.x + threadIdx.x;
    if (i < end) {
        bmn_game g;
        bmn_cu_begin(&g, games[i]);
        bmn_cu_hands nh = {0, 0, 0, 0};
        if (ni < end)
            nh = games[ni];
        for (;;) {
            /* BMN_CU_STEPS events between checks: bmn_step does nothing
             * once the game is over, and a game that crosses the cap
             * meanwhile goes to the host, which replays it exactly. */
            uint32_t o;
#pragma unroll
            for (int k = 0; k < BMN_CU_STEPS; k++)
                o = bmn_step(&g);
            if (o == BMN_RUNNING && g.cards < cap)
                continue;
            bmn_cu_record(first + i, g, cap, min_cards, min_tricks, shist, cards_sum, L);
            if (ni >= end)
                break;
            i = ni;
            bmn_cu_begin(&g, nh);
            ni = begin + atomicAdd(&next, 1u);
            if (ni < end)
                nh = games[ni];
        }
    }
    __syncthreads();
    /* Atomics: the play kernels of two batches may overlap (two streams). */
    unsigned long long *row = hist_rows + (uint64_t)blockIdx.x * BMN_HIST_BINS;
    for (uint32_t b = threadIdx.x; b < BMN_HIST_BINS; b += blockDim.x)
        if (shist[b])
            atomicAdd(&row[b], (unsigned long long)shist[b]);
    atomicAdd(&cards_rows[blockIdx.x], cards_sum);
}

/* Threads per block of bmn_play_batch: 512 measured fastest of 64, 96,
 * 128, 256 and 512 on the H200 (docs/perf/); LOCKSTEP_CUDA_BMN_BLOCK
 * overrides it. */
static int bmn_cu_block(void)
{
    const char *env = getenv("LOCKSTEP_CUDA_BMN_BLOCK");
    int v = env ? atoi(env) : 0;
    return v >= 32 && v <= 1024 && v % 32 == 0 ? v : 512;
}

/* One wave of blocks fills the GPU; two or four waves of smaller slices
 * measured 7% and 21% slower (docs/perf/). */

/* Deals per batch: 2^22 starting states are 128 MB of device memory. */
#define BMN_CU_BATCH (1ull << 22)

int ls_cuda_bmn(ls_ctx *ctx, const bmn_range *r, bmn_range_out *out, ls_error *err)
{
    LS_CUDA_TRY(cudaSetDevice(ctx->device), err, "selecting the device");
    const int wg = bmn_cu_block();
    int per_sm = 0;
    LS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bmn_play_batch, wg, 0), err,
                "querying occupancy");
    const uint64_t batch = r->count < BMN_CU_BATCH ? r->count : BMN_CU_BATCH;
    uint64_t blocks = (uint64_t)(per_sm > 0 ? per_sm : 1) * ctx->prop.multiProcessorCount;
    uint64_t need = (batch + wg - 1) / wg;
    if (blocks > need)
        blocks = need ? need : 1;

    /* One allocation: results first (zeroed), then the batch's states and
     * given deals. */
    size_t hist_bytes = blocks * BMN_HIST_BINS * sizeof(unsigned long long);
    size_t cards_bytes = blocks * sizeof(unsigned long long);
    size_t hits_bytes = (size_t)out->max_hits * sizeof(bmn_hit);
    size_t capped_bytes = (size_t)out->max_capped * sizeof(unsigned long long);
    size_t counters_bytes = 2 * sizeof(unsigned int);
    size_t results = hist_bytes + cards_bytes + hits_bytes + capped_bytes + counters_bytes;
    /* Two sets of batch buffers: batches alternate between two streams, so
     * one batch's dealing and the start of its play overlap the end of the
     * previous batch's play, whose last blocks leave SMs idle. */
    size_t games_off = (results + 255) & ~(size_t)255;
    size_t games_bytes = batch * sizeof(bmn_cu_hands);
    size_t deals_bytes = r->deals ? batch * sizeof(bmn_deal_in) : 0;
    size_t lane_bytes = (games_bytes + deals_bytes + 255) & ~(size_t)255;
    size_t total = games_off + 2 * lane_bytes;
    char *dev = NULL;
    char *host = (char *)malloc(results);
    if (!host)
        return ls_fail(err, "out of host memory (%zu bytes) for a BMN chunk", results);
    int rc = ls_cuda_alloc_zeroed(ctx, total, (void **)&dev, "a BMN chunk", err);
    cudaError_t st = cudaSuccess;
    if (rc != 0)
        goto done;
    {
        unsigned long long *d_hist = (unsigned long long *)dev;
        unsigned long long *d_cards = (unsigned long long *)(dev + hist_bytes);
        cudaStream_t streams[2] = {ctx->stream, ctx->stream2};
        bmn_cu_lists L;
        L.hits = (bmn_hit *)(dev + hist_bytes + cards_bytes);
        L.capped = (unsigned long long *)(dev + hist_bytes + cards_bytes + hits_bytes);
        L.n_hits = (unsigned int *)(dev + hist_bytes + cards_bytes + hits_bytes + capped_bytes);
        L.n_capped = L.n_hits + 1;
        L.max_hits = out->max_hits;
        L.max_capped = out->max_capped;
        st = cudaEventRecord(ctx->start, ctx->stream);
        if (st == cudaSuccess)
            st = cudaStreamWaitEvent(ctx->stream2, ctx->start, 0); /* after the memset */
        uint64_t k = 0;
        for (uint64_t done = 0; done < r->count && st == cudaSuccess; k++) {
            uint64_t n = r->count - done < batch ? r->count - done : batch;
            cudaStream_t sk = streams[k % 2];
            char *lane = dev + games_off + (k % 2) * lane_bytes;
            bmn_cu_hands *d_games = (bmn_cu_hands *)lane;
            bmn_deal_in *d_deals = r->deals ? (bmn_deal_in *)(lane + games_bytes) : NULL;
            if (d_deals)
                st = cudaMemcpyAsync(d_deals, r->deals + done, n * sizeof(bmn_deal_in), cudaMemcpyHostToDevice, sk);
            if (st != cudaSuccess)
                break;
            bmn_deal_batch<<<(unsigned)((n + BMN_CU_DEAL_BLOCK - 1) / BMN_CU_DEAL_BLOCK), BMN_CU_DEAL_BLOCK, 0, sk>>>(
                r->seed, r->first + done, n, d_deals, d_games);
            bmn_play_batch<<<(unsigned)blocks, wg, 0, sk>>>(d_games, r->first + done, n, r->cap, r->min_cards,
                                                            r->min_tricks, d_hist, d_cards, L);
            st = cudaGetLastError();
            done += n;
        }
        float ms = 0;
        if (st == cudaSuccess)
            st = cudaEventRecord(ctx->joined, ctx->stream2);
        if (st == cudaSuccess)
            st = cudaStreamWaitEvent(ctx->stream, ctx->joined, 0);
        if (st == cudaSuccess)
            st = ls_cuda_elapsed_ms(ctx, &ms);
        if (st == cudaSuccess)
            st = cudaMemcpy(host, dev, results, cudaMemcpyDeviceToHost);
        if (st != cudaSuccess) {
            rc = ls_fail(err, "CUDA BMN kernels failed: %s", cudaGetErrorString(st));
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
        const unsigned int *cnt = (const unsigned int *)(host + hist_bytes + cards_bytes + hits_bytes + capped_bytes);
        out->n_hits = cnt[0];
        out->n_capped = cnt[1];
        memcpy(out->hits, host + hist_bytes + cards_bytes,
               (size_t)(cnt[0] < out->max_hits ? cnt[0] : out->max_hits) * sizeof(bmn_hit));
        memcpy(out->capped, host + hist_bytes + cards_bytes + hits_bytes,
               (size_t)(cnt[1] < out->max_capped ? cnt[1] : out->max_capped) * sizeof(unsigned long long));
    }
done:
    cudaFree(dev);
    free(host);
    return rc;
}
