/* ray_gpu.c - the raytracer on any GPU backend (CUDA, OpenCL), written
 * once over the primitives of src/gpu.h: groups of work-items sharing
 * the samples of a few pixels (src/kernels/ray_render.h), the bytes read
 * back once the range is done. Exact mode runs program "ray" (under the
 * exact floating-point rule), fast mode "ray_fast". */
#include "gpu_call.h"
#include "gpu_timer.h"
#include "ray_range.h"

/* Work-items per group and (pixel, sample) pairs per round of a group
 * (src/kernels/ray_render.h). On GPUs 128 and 512: 8 pixels of 64 samples
 * per group, 4 paths per work-item, 6 KiB of local memory for their
 * colours, 2048 groups for the 512x512 card, about 16 waves on the H200.
 * Measured there (docs/perf/2026-11-22-h200-ray-v2.log, exact mode):
 * 0.93 ms, against 0.95 ms for 64/256, 1.05 ms for 64/512, 1.10 ms for
 * 32/256 and 1.25 ms for 64/1024. On CPU devices running that kernel (the
 * group shape) a group is a loop on one core, and 16 balance the cores
 * well. The CPU shape's kernel renders a tile of RAY_LANES pixels a
 * work-item, in groups of one (ray_render.h). */
#define RAY_GROUP_GPU 128u
#define RAY_GROUP_CPU 16u
#define RAY_ROUND 512u

int ray_gpu_range(ls_device *s, const ray_job *job, uint64_t first, uint64_t count, uint8_t *rgb, double *seconds,
                  ls_error *err)
{
    ls_gpu_info info;
    ls_gpu_info_of(s, &info);
    uint32_t group = info.is_gpu ? RAY_GROUP_GPU : RAY_GROUP_CPU;
    if (group > info.max_group)
        group = info.max_group;
    if (group < 3)
        return ls_fail(err, "ray needs groups of at least 3 work-items; this device allows %u", group);
    /* Whole pixels per round, or one pixel over several rounds; a work-item
     * per channel of each pixel for the sums. */
    uint32_t round = RAY_ROUND, samples = job->samples;
    uint32_t per_group = samples >= round ? 1 : round / samples;
    if (per_group > group / 3)
        per_group = group / 3;
    int fast = job->mode == RAY_MODE_FAST;
    ls_kernel *k;
    if (ls_gpu_kernel(s, fast ? "ray_fast" : "ray", fast ? "ray_fast" : "ray_exact", &k, err) != 0)
        return -1;
    size_t bytes = (size_t)count * 3;
    ls_buf *d_rgb = NULL;
    if (ls_gpu_alloc(s, bytes, "image pixels", &d_rgb, err) != 0)
        return -1;
    uint64_t seed = job->seed;
    uint32_t width = job->width, height = job->height;
    ls_arg args[] = {LS_ARG(seed),  LS_ARG(width),     LS_ARG(height), LS_ARG(samples),  LS_ARG(first),
                     LS_ARG(count), LS_ARG(per_group), LS_ARG(round),  LS_ARG_BUF(d_rgb)};
    ls_launch l = {(count + per_group - 1) / per_group, group, 3 * sizeof(float) * round, 0, args,
                   (int)(sizeof args / sizeof args[0])};
    if (info.shape == LS_SHAPE_CPU)
        l = (ls_launch){(count + RAY_LANES - 1) / RAY_LANES, 1, 0, 0, args, (int)(sizeof args / sizeof args[0])};
    int rc = ls_gpu_timer_start(s, err);
    if (rc == 0)
        rc = ls_gpu_launch(s, k, &l, err);
    if (rc == 0)
        rc = ls_gpu_timer_stop(s, count, seconds, err);
    if (rc == 0)
        rc = ls_gpu_read(d_rgb, 0, rgb, bytes, err);
    ls_gpu_free(d_rgb);
    return rc;
}
