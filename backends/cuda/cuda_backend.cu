/* cuda_backend.cu - the CUDA backend: NVIDIA GPUs through the CUDA runtime.
 *
 * The runtime is linked statically and loads the driver (libcuda.so.1) at
 * run time, so a lockstep built with CUDA starts on machines without an
 * NVIDIA driver: the backend then lists itself as unavailable, with why. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

/* Why CUDA cannot run here, in words a user can act on. */
static int cuda_unavailable(cudaError_t st, ls_error *why)
{
    void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!driver)
        return ls_fail(why, "no NVIDIA driver on this machine (libcuda.so.1 not found)");
    dlclose(driver);
    return ls_fail(why, "%s", cudaGetErrorString(st));
}

static int cuda_list_devices(ls_device_info *out, int max, ls_error *why)
{
    int n = 0;
    cudaError_t st = cudaGetDeviceCount(&n);
    if (st != cudaSuccess) {
        cuda_unavailable(st, why);
        return 0;
    }
    if (n == 0) {
        ls_fail(why, "the NVIDIA driver reports no CUDA GPU");
        return 0;
    }
    int driver = 0;
    cudaDriverGetVersion(&driver);
    if (n > max)
        n = max;
    for (int i = 0; i < n; i++) {
        cudaDeviceProp prop;
        memset(&out[i], 0, sizeof out[i]);
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) {
            snprintf(out[i].name, sizeof out[i].name, "CUDA device %d (properties unreadable)", i);
            continue;
        }
        snprintf(out[i].name, sizeof out[i].name, "%s", prop.name);
        snprintf(out[i].platform, sizeof out[i].platform, "CUDA driver %d.%d, sm_%d%d", driver / 1000,
                 (driver % 1000) / 10, prop.major, prop.minor);
        out[i].compute_units = prop.multiProcessorCount;
        out[i].memory_bytes = prop.totalGlobalMem;
        out[i].is_gpu = 1;
    }
    return n;
}

static void cuda_close(ls_ctx *ctx)
{
    if (!ctx)
        return;
    cudaSetDevice(ctx->device);
    if (ctx->start)
        cudaEventDestroy(ctx->start);
    if (ctx->stop)
        cudaEventDestroy(ctx->stop);
    if (ctx->joined)
        cudaEventDestroy(ctx->joined);
    if (ctx->stream)
        cudaStreamDestroy(ctx->stream);
    if (ctx->stream2)
        cudaStreamDestroy(ctx->stream2);
    free(ctx);
}

static int cuda_open_into(ls_ctx *ctx, int index, ls_error *err)
{
    ctx->device = index;
    LS_CUDA_TRY(cudaSetDevice(index), err, "selecting the device");
    LS_CUDA_TRY(cudaGetDeviceProperties(&ctx->prop, index), err, "reading device properties");
    LS_CUDA_TRY(cudaStreamCreateWithFlags(&ctx->stream, cudaStreamNonBlocking), err, "creating a stream");
    LS_CUDA_TRY(cudaStreamCreateWithFlags(&ctx->stream2, cudaStreamNonBlocking), err, "creating a stream");
    LS_CUDA_TRY(cudaEventCreateWithFlags(&ctx->joined, cudaEventDisableTiming), err, "creating an event");
    LS_CUDA_TRY(cudaEventCreate(&ctx->start), err, "creating an event");
    LS_CUDA_TRY(cudaEventCreate(&ctx->stop), err, "creating an event");
    return 0;
}

static ls_ctx *cuda_open(int index, ls_error *err)
{
    ls_ctx *ctx = (ls_ctx *)calloc(1, sizeof *ctx);
    if (!ctx) {
        ls_fail(err, "out of memory opening a CUDA device");
        return NULL;
    }
    if (cuda_open_into(ctx, index, err) != 0) {
        cuda_close(ctx);
        return NULL;
    }
    return ctx;
}

int ls_cuda_alloc_zeroed(ls_ctx *ctx, size_t bytes, void **out, const char *what, ls_error *err)
{
    *out = NULL;
    cudaError_t st = cudaMalloc(out, bytes);
    if (st == cudaSuccess)
        st = cudaMemsetAsync(*out, 0, bytes, ctx->stream);
    if (st != cudaSuccess) {
        cudaFree(*out);
        *out = NULL;
        return ls_fail(err, "CUDA could not allocate %zu bytes for %s: %s", bytes, what, cudaGetErrorString(st));
    }
    return 0;
}

cudaError_t ls_cuda_elapsed_ms(ls_ctx *ctx, float *ms)
{
    cudaError_t st = cudaEventRecord(ctx->stop, ctx->stream);
    if (st == cudaSuccess)
        st = cudaEventSynchronize(ctx->stop);
    if (st == cudaSuccess)
        st = cudaEventElapsedTime(ms, ctx->start, ctx->stop);
    return st;
}

extern "C" const ls_backend ls_backend_cuda = {
    "cuda", cuda_list_devices, cuda_open, cuda_close, ls_cuda_graveler, ls_cuda_bmn,
};
