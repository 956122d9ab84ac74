/* graveler.cu - Graveler on NVIDIA GPUs.
 *
 * The battle is src/algo/graveler.h, the same code the other backends run.
 * The launch mirrors kernels_cl/graveler.cl: each thread keeps private
 * 16-bit counters in shared memory (hist[bin * blockDim + tid]: no atomics,
 * no two threads on one counter), plays at most GRV_GPU_MAX_STREAMS streams
 * per launch so the counters stay exact, and the block sums its counters
 * into its own 64-bit row of `partial`, which the host adds up at the end.
 * Long battles, whose private counters would not fit, use one shared
 * 32-bit counter per bin with shared-memory atomics instead. */
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "graveler.h"


/* How far the 64-battle loop is unrolled: 4 measured fastest of 1, 2, 4
 * (docs/perf/); -DGRV_CU_UNROLL=N for A/B. */
#ifndef GRV_CU_UNROLL
#define GRV_CU_UNROLL 4
#endif
#define GRV_PRAGMA(x) _Pragma(#x)
#define GRV_UNROLL(n) GRV_PRAGMA(unroll n)

template <typename Turns>
__device__ __forceinline__ void grv_play_private(uint64_t seed, uint64_t stream0, uint64_t nstreams, uint64_t lo,
                                                 uint64_t hi, Turns turns, uint16_t *hist)
{
    const uint32_t tid = threadIdx.x, wg = blockDim.x;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t s = stream0 + (uint64_t)blockIdx.x * blockDim.x + tid; s < stream0 + nstreams; s += stride) {
        grv_mwc x;
        x.s = grv_stream_state(seed, s);
        uint64_t b0 = s * GRV_BATTLES_PER_STREAM;
        if (b0 >= lo && b0 + GRV_BATTLES_PER_STREAM <= hi) {
            GRV_UNROLL(GRV_CU_UNROLL)
            for (uint32_t j = 0; j < GRV_BATTLES_PER_STREAM; j++)
                hist[grv_battle(&x, turns) * wg + tid]++;
        } else {
            for (uint32_t j = 0; j < GRV_BATTLES_PER_STREAM; j++) {
                uint32_t c = grv_battle(&x, turns);
                if (b0 + j >= lo && b0 + j < hi)
                    hist[c * wg + tid]++;
            }
        }
    }
}

__global__ void graveler_private(uint64_t seed, uint64_t stream0, uint64_t nstreams, uint64_t lo, uint64_t hi,
                                 uint32_t turns, unsigned long long *partial)
{
    extern __shared__ uint16_t hist[];
    const uint32_t tid = threadIdx.x, wg = blockDim.x, bins = turns + 1u;
    for (uint32_t i = tid; i < bins * wg; i += wg)
        hist[i] = 0;
    __syncthreads();
    if (turns == GRV_DEFAULT_TURNS)
        grv_play_private(seed, stream0, nstreams, lo, hi, GRV_DEFAULT_TURNS, hist);
    else
        grv_play_private(seed, stream0, nstreams, lo, hi, turns, hist);
    __syncthreads();
    unsigned long long *row = partial + (uint64_t)blockIdx.x * bins;
    for (uint32_t b = tid; b < bins; b += wg) {
        uint32_t sum = 0;
        for (uint32_t t = 0; t < wg; t++)
            sum += hist[b * wg + t];
        row[b] += sum;
    }
}

__global__ void graveler_shared(uint64_t seed, uint64_t stream0, uint64_t nstreams, uint64_t lo, uint64_t hi,
                                uint32_t turns, unsigned long long *partial)
{
    extern __shared__ uint32_t shist[];
    const uint32_t tid = threadIdx.x, wg = blockDim.x, bins = turns + 1u;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint32_t i = tid; i < bins; i += wg)
        shist[i] = 0;
    __syncthreads();
    for (uint64_t s = stream0 + (uint64_t)blockIdx.x * blockDim.x + tid; s < stream0 + nstreams; s += stride) {
        grv_mwc x;
        x.s = grv_stream_state(seed, s);
        uint64_t b0 = s * GRV_BATTLES_PER_STREAM;
        for (uint32_t j = 0; j < GRV_BATTLES_PER_STREAM; j++) {
            uint32_t c = grv_battle(&x, turns);
            if (b0 + j >= lo && b0 + j < hi)
                atomicAdd(&shist[c], 1u);
        }
    }
    __syncthreads();
    unsigned long long *row = partial + (uint64_t)blockIdx.x * bins;
    for (uint32_t b = tid; b < bins; b += wg)
        row[b] += shist[b];
}

/* Threads per block: 96 by default (fastest on the H200 of 32, 64, 96 and 128: docs/perf/); LOCKSTEP_CUDA_BLOCK overrides it for
 * tuning experiments (bench/). */
static int grv_cu_block(void)
{
    const char *env = getenv("LOCKSTEP_CUDA_BLOCK");
    int v = env ? atoi(env) : 0;
    return v >= 32 && v <= 1024 && v % 32 == 0 ? v : 96;
}

int ls_cuda_graveler(ls_ctx *ctx, const grv_params *p, grv_result *r, const ls_progress *progress, ls_error *err)
{
    const uint32_t bins = p->turns + 1;
    const uint64_t lo = p->first, hi = p->first + p->battles;
    const uint64_t s_first = lo / GRV_BATTLES_PER_STREAM;
    const uint64_t s_end = (hi + GRV_BATTLES_PER_STREAM - 1) / GRV_BATTLES_PER_STREAM;
    memset(r->hist, 0, bins * sizeof *r->hist);
    r->battles = 0;
    r->seconds = 0;
    LS_CUDA_TRY(cudaSetDevice(ctx->device), err, "selecting the device");

    int wg = grv_cu_block();
    size_t private_bytes = (size_t)bins * wg * sizeof(uint16_t);
    int use_private = private_bytes <= 48 * 1024;
    void (*kernel)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint32_t, unsigned long long *) =
        use_private ? graveler_private : graveler_shared;
    size_t smem = use_private ? private_bytes : bins * sizeof(uint32_t);
    int per_sm = 0;
    LS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, wg, smem), err,
                "querying occupancy");
    if (per_sm < 1)
        return ls_fail(err, "the graveler kernel does not fit on this GPU (%zu bytes of shared memory per block)",
                       smem);
    const uint64_t blocks = (uint64_t)per_sm * ctx->prop.multiProcessorCount;
    const uint64_t threads = blocks * wg;
    /* Up to GRV_GPU_MAX_STREAMS streams per thread per launch, and about
     * 2^31 battles per launch so that progress can be shown. */
    uint64_t per_launch = threads * GRV_GPU_MAX_STREAMS;
    const uint64_t target = (1ull << 31) / GRV_BATTLES_PER_STREAM;
    if (per_launch > target && target >= threads)
        per_launch = target;

    size_t partial_bytes = blocks * bins * sizeof(unsigned long long);
    unsigned long long *d_partial = NULL;
    unsigned long long *partial = (unsigned long long *)malloc(partial_bytes);
    if (!partial)
        return ls_fail(err, "out of host memory for %zu bytes of partial histograms", partial_bytes);
    int rc = ls_cuda_alloc_zeroed(ctx, partial_bytes, (void **)&d_partial, "partial histograms", err);
    cudaError_t st = cudaSuccess;
    if (rc != 0)
        goto done;
    for (uint64_t s = s_first; s < s_end;) {
        uint64_t n = s_end - s < per_launch ? s_end - s : per_launch;
        float ms = 0;
        cudaEventRecord(ctx->start, ctx->stream);
        kernel<<<(unsigned)blocks, wg, smem, ctx->stream>>>(p->seed, s, n, lo, hi, p->turns, d_partial);
        st = cudaGetLastError();
        if (st == cudaSuccess)
            st = ls_cuda_elapsed_ms(ctx, &ms);
        if (st != cudaSuccess) {
            rc = ls_fail(err, "CUDA graveler kernel failed: %s", cudaGetErrorString(st));
            goto done;
        }
        r->seconds += ms * 1e-3;
        s += n;
        uint64_t end = s * GRV_BATTLES_PER_STREAM < hi ? s * GRV_BATTLES_PER_STREAM : hi;
        r->battles = end - lo;
        if (progress && progress->report && progress->report(progress->user, r->battles, p->battles))
            break;
    }
    st = cudaMemcpy(partial, d_partial, partial_bytes, cudaMemcpyDeviceToHost);
    if (st != cudaSuccess) {
        rc = ls_fail(err, "CUDA reading the histogram failed: %s", cudaGetErrorString(st));
        goto done;
    }
    for (uint64_t b = 0; b < blocks; b++)
        for (uint32_t k = 0; k < bins; k++)
            r->hist[k] += partial[b * bins + k];
done:
    cudaFree(d_partial);
    free(partial);
    return rc;
}
