/* ray_gpu.c - the raytracer on any device (CUDA, OpenCL, the host CPU),
 * written once over the primitives of src/gpu.h: groups of work-items
 * sharing the samples of a few pixels (src/kernels/ray_render.h), the
 * bytes read back once the range is done. Exact mode runs program "ray"
 * (under the exact floating-point rule), fast mode "ray_fast"; on the
 * host their kernels are the CPU implementation (ray_cpu.c, in the
 * host programs below), launched once over the range. */
#include "gpu_call.h"
#include "gpu_timer.h"
#include "host_kernel.h"
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

/* The host device's kernel of one mode: ray_cpu_render over pixels
 * [first, first + count), with the GPU kernels' arguments (seed, width,
 * height, samples, first, count, pixels a group, round, rgb), of which
 * the CPU implementation needs no group's share. */
static int ray_host_kernel(const ls_host_call *c, int mode, ls_error *err)
{
    uint64_t seed, first, count;
    uint32_t width, height, samples;
    void *rgb;
    if (ls_host_u64(c, 0, &seed, err) || ls_host_u32(c, 1, &width, err) || ls_host_u32(c, 2, &height, err) ||
        ls_host_u32(c, 3, &samples, err) || ls_host_u64(c, 4, &first, err) || ls_host_u64(c, 5, &count, err))
        return -1;
    if (count > SIZE_MAX / 3 || ls_host_buf(c, 8, (size_t)count * 3, &rgb, err))
        return ls_fail(err, "host kernel %s: no room for %llu pixels", c->kernel, (unsigned long long)count);
    ray_job job;
    if (ray_job_init(&job, width, height, samples, seed, mode, err) != 0)
        return -1;
    ray_cpu_render(&job, first, count, rgb);
    return 0;
}

static int ray_host_exact(const ls_host_call *c, ls_error *err)
{
    return ray_host_kernel(c, RAY_MODE_EXACT, err);
}

static int ray_host_fast(const ls_host_call *c, ls_error *err)
{
    return ray_host_kernel(c, RAY_MODE_FAST, err);
}

static const ls_host_kernel ray_exact_kernels[] = {{"ray_exact", ray_host_exact, 9}, {NULL, NULL, 0}};
static const ls_host_kernel ray_fast_kernels[] = {{"ray_fast", ray_host_fast, 9}, {NULL, NULL, 0}};
static const ls_host_program ray_host_programs[2] = {{"ray", ray_exact_kernels}, {"ray_fast", ray_fast_kernels}};

/* The launch of count pixels for the device's shape (shape.h): on GPUs
 * groups sharing the samples of per_group pixels in rounds; on the CPU
 * shape a tile of RAY_LANES pixels a work-item; on the host (none) one
 * call of the CPU implementation, which threads itself. */
static int ray_launch_shape(const ls_gpu_info *info, uint32_t samples, uint64_t count, uint32_t *per_group,
                            ls_launch *l, ls_error *err)
{
    *per_group = 1;
    if (info->shape == LS_SHAPE_NONE) {
        *l = (ls_launch){1, 1, 0, 0, NULL, 0};
        return 0;
    }
    if (info->shape == LS_SHAPE_CPU) {
        *l = (ls_launch){(count + RAY_LANES - 1) / RAY_LANES, 1, 0, 0, NULL, 0};
        return 0;
    }
    uint32_t group = info->is_gpu ? RAY_GROUP_GPU : RAY_GROUP_CPU;
    if (group > info->max_group)
        group = info->max_group;
    if (group < 3)
        return ls_fail(err, "ray needs groups of at least 3 work-items; this device allows %u", group);
    /* Whole pixels per round, or one pixel over several rounds; a work-item
     * per channel of each pixel for the sums. */
    *per_group = samples >= RAY_ROUND ? 1 : RAY_ROUND / samples;
    if (*per_group > group / 3)
        *per_group = group / 3;
    *l = (ls_launch){(count + *per_group - 1) / *per_group, group, 3 * sizeof(float) * RAY_ROUND, 0, NULL, 0};
    return 0;
}

int ray_gpu_range(ls_device *s, const ray_job *job, uint64_t first, uint64_t count, uint8_t *rgb, double *seconds,
                  ls_error *err)
{
    ls_gpu_info info;
    ls_gpu_info_of(s, &info);
    uint32_t round = RAY_ROUND, samples = job->samples, per_group;
    ls_launch l;
    if (ray_launch_shape(&info, samples, count, &per_group, &l, err) != 0)
        return -1;
    int fast = job->mode == RAY_MODE_FAST;
    ls_kernel *k;
    if (ls_host_program_add(&ray_host_programs[fast], err) != 0 ||
        ls_gpu_kernel(s, fast ? "ray_fast" : "ray", fast ? "ray_fast" : "ray_exact", &k, err) != 0)
        return -1;
    size_t bytes = (size_t)count * 3;
    ls_buf *d_rgb = NULL;
    if (ls_gpu_alloc(s, bytes, "image pixels", &d_rgb, err) != 0)
        return -1;
    uint64_t seed = job->seed;
    uint32_t width = job->width, height = job->height;
    ls_arg args[] = {LS_ARG(seed),  LS_ARG(width),     LS_ARG(height), LS_ARG(samples),  LS_ARG(first),
                     LS_ARG(count), LS_ARG(per_group), LS_ARG(round),  LS_ARG_BUF(d_rgb)};
    l.args = args;
    l.nargs = (int)(sizeof args / sizeof args[0]);
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
