/* ray_gpu.c - the raytracer on any GPU backend (CUDA, OpenCL), written
 * once over the primitives of src/gpu.h: one work-item per pixel of the
 * range, the bytes read back once the range is done. Exact mode runs
 * program "ray" (under the exact floating-point rule), fast mode
 * "ray_fast". */
#include "ray_range.h"

/* Work-items per group: on GPUs 128 (a pixel's paths diverge, so small
 * groups waste less); on CPU devices (PoCL) a group is a loop on one core,
 * and 16 balance the cores well. */
#define RAY_GROUP_GPU 128u
#define RAY_GROUP_CPU 16u

int ray_gpu_range(ls_session *s, const ray_job *job, uint64_t first, uint64_t count, uint8_t *rgb, double *seconds,
                  ls_error *err)
{
    const ls_gpu *gpu = s->backend->gpu;
    ls_ctx *ctx = s->ctx;
    ls_gpu_info info;
    gpu->info(ctx, &info);
    uint32_t group = info.is_gpu ? RAY_GROUP_GPU : RAY_GROUP_CPU;
    if (group > info.max_group)
        group = info.max_group;
    int fast = job->mode == RAY_MODE_FAST;
    ls_kernel *k;
    if (gpu->kernel(ctx, fast ? "ray_fast" : "ray", fast ? "ray_fast" : "ray_exact", &k, err) != 0)
        return -1;
    size_t bytes = (size_t)count * 3;
    ls_buf *d_rgb = NULL;
    if (gpu->alloc(ctx, bytes, "image pixels", &d_rgb, err) != 0)
        return -1;
    uint64_t seed = job->seed;
    uint32_t width = job->width, height = job->height, samples = job->samples;
    ls_arg args[] = {LS_ARG(seed), LS_ARG(width), LS_ARG(height), LS_ARG(samples), LS_ARG(first), LS_ARG(count),
                     LS_ARG_BUF(d_rgb)};
    ls_launch l = {(count + group - 1) / group, group, 0, 0, args, (int)(sizeof args / sizeof args[0])};
    int rc = gpu->timer_start(ctx, err);
    if (rc == 0)
        rc = gpu->launch(ctx, k, &l, err);
    if (rc == 0)
        rc = gpu->timer_stop(ctx, seconds, err);
    if (rc == 0)
        rc = gpu->read(ctx, d_rgb, 0, rgb, bytes, err);
    gpu->free(ctx, d_rgb);
    return rc;
}
