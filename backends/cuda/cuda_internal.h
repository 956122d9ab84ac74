/* cuda_internal.h - what the CUDA backend's files share. */
#ifndef LOCKSTEP_CUDA_INTERNAL_H
#define LOCKSTEP_CUDA_INTERNAL_H

#include <cuda_runtime.h>

extern "C" {
#include "backend.h"
}

struct ls_ctx {
    int device;
    cudaDeviceProp prop;
    cudaStream_t stream, stream2; /* stream2: work that may overlap stream's */
    cudaEvent_t start, stop, joined;
};

/* Fails with "what: CUDA's message" when the call did not succeed. */
#define LS_CUDA_TRY(call, err, what)                                                              \
    do {                                                                                          \
        cudaError_t ls_st_ = (call);                                                              \
        if (ls_st_ != cudaSuccess)                                                                \
            return ls_fail((err), "CUDA %s failed: %s", (what), cudaGetErrorString(ls_st_));      \
    } while (0)

/* cudaMalloc of `bytes`, zeroed on ctx->stream; fails with a message that
 * says what the memory was for. */
int ls_cuda_alloc_zeroed(ls_ctx *ctx, size_t bytes, void **out, const char *what, ls_error *err);

/* Records ctx->stop on ctx->stream, waits for it and returns the time since
 * ctx->start was recorded on that stream. */
cudaError_t ls_cuda_elapsed_ms(ls_ctx *ctx, float *ms);

int ls_cuda_graveler(ls_ctx *ctx, const grv_params *p, grv_result *r, const ls_progress *progress,
                     ls_error *err);

int ls_cuda_bmn(ls_ctx *ctx, const bmn_range *r, bmn_range_out *out, ls_error *err);

#endif
