/* graveler_gpu.c - Graveler on any device (CUDA, OpenCL, the host CPU),
 * written once over the primitives of src/gpu.h; the kernels are
 * src/kernels/graveler_kernels.h, and on the host the CPU implementation
 * (graveler_cpu.c's host program), launched once over the whole range.
 *
 * A range of battles is a run of streams (64 battles each). The grid fills
 * the device several times over (GRV_MIN_GROUPS_PER_UNIT_GPU), each
 * work-item plays at most GRV_GPU_MAX_STREAMS streams per launch so its
 * 16-bit counters cannot wrap, and launches follow each other on one queue
 * without waiting; each group adds its histogram to its own 64-bit row of
 * `partial`, which is read and summed once at the end of the range. On the
 * CPU kernel shape work-items take blocks of streams from a counter of the
 * launch, which a write of zero before each launch resets (the queue runs
 * in order). */
#include <stdlib.h>
#include <string.h>

#include "gpu_call.h"
#include "gpu_timer.h"
#include "graveler.h"
#include "graveler_range.h"

/* Work-items per group: 96 measured fastest on the H200 of 32, 64, 96 and
 * 128 (docs/perf/); on CPU devices running the GPU shapes' kernels (the
 * group shape) a group is a loop on one core, and small groups balance
 * better. */
#define GRV_GROUP_GPU 96u
#define GRV_GROUP_CPU 16u

/* At least this many groups per compute unit on a GPU, whatever fits at
 * once: one wave of exactly the resident groups leaves SMs idle while the
 * last items finish, and waves of groups that start as others end balance
 * that tail. On the H200 (docs/perf/2026-11-23-h200-graveler-waves.log,
 * 1e9 battles) CUDA's exact occupancy, 5 groups per SM, took 4.327 ms; 16
 * per SM 4.076; 32 per SM 4.033 (NVIDIA's OpenCL, which launched 16 by its
 * own estimate, 4.053 -> 4.014). It was the whole of the 6% by which the
 * same kernel ran faster through OpenCL. */
#define GRV_MIN_GROUPS_PER_UNIT_GPU 32u

/* The CPU kernel shape's group: one work-item, which plays GRV_CPU_LANES
 * streams at a time in vector lanes (graveler_kernels.h); more would only
 * run one after another on the same core. */
#define GRV_GROUP_CPU_SHAPE 1u

/* Streams a launch of the CPU shape gives each work-item: half of the
 * GRV_CPU_MAX_GRABS grabs it may make, so that the work-items of a core
 * that runs ahead can take up to twice their share of the blocks. */
#define GRV_CPU_SHARE (GRV_CPU_LANES * GRV_CPU_GRAB * GRV_CPU_MAX_GRABS / 2u)

typedef struct grv_shape {
    const char *kernel;
    uint32_t group;
    size_t local_bytes;
    uint32_t share;   /* streams a launch gives each work-item */
    int takes_blocks; /* the kernel takes blocks from a counter (the CPU shape): one argument more */
    int one_group;    /* one group does it all (its kernel spreads it over the threads itself) */
} grv_shape;

/* The host's (shape.h's none): graveler_cpu.c's implementation, which
 * threads itself, over the whole range in one launch. */
static grv_shape grv_choose_host_shape(void)
{
    return (grv_shape){"graveler_host", 1, 0, UINT32_MAX, 0, 1};
}

/* The CPU shape's: each lane's own 16-bit counters when they fit in local
 * memory, else the group's shared 32-bit ones. */
static grv_shape grv_choose_cpu_shape(const ls_gpu_info *info, uint32_t bins)
{
    grv_shape sh = {"graveler_private", GRV_GROUP_CPU_SHAPE, 0, GRV_CPU_SHARE, 1, 0};
    sh.local_bytes = (size_t)bins * sh.group * GRV_CPU_LANES * sizeof(uint16_t);
    if (sh.local_bytes > info->local_bytes) {
        sh.kernel = "graveler_shared";
        sh.local_bytes = (size_t)bins * sizeof(uint32_t);
    }
    return sh;
}

/* Private 16-bit counters per work-item when (turns + 1) of them fit in
 * local memory for a group of at least 8; else one shared 32-bit counter
 * per bin with local atomics. */
static grv_shape grv_choose_shape(const ls_gpu_info *info, uint32_t bins)
{
    if (info->shape == LS_SHAPE_NONE)
        return grv_choose_host_shape();
    if (info->shape == LS_SHAPE_CPU)
        return grv_choose_cpu_shape(info, bins);
    grv_shape sh;
    sh.one_group = 0;
    sh.share = GRV_GPU_MAX_STREAMS;
    sh.takes_blocks = 0;
    uint32_t wg = info->is_gpu ? GRV_GROUP_GPU : GRV_GROUP_CPU;
    if (wg > info->max_group)
        wg = info->max_group;
    while (wg > 8 && (uint64_t)bins * wg * sizeof(uint16_t) > info->local_bytes)
        wg /= 2;
    if (wg >= 8 && (uint64_t)bins * wg * sizeof(uint16_t) <= info->local_bytes) {
        sh.kernel = "graveler_private";
        sh.group = wg;
        sh.local_bytes = (size_t)bins * wg * sizeof(uint16_t);
    } else {
        sh.kernel = "graveler_shared";
        sh.group = info->max_group < 64 ? info->max_group : 64;
        sh.local_bytes = (size_t)bins * sizeof(uint32_t);
    }
    return sh;
}

int grv_gpu_range(ls_device *s, const grv_params *p, uint64_t lo, uint64_t hi, uint64_t *hist, double *seconds,
                  ls_error *err)
{
    const uint32_t bins = p->turns + 1;
    ls_gpu_info info;
    ls_gpu_info_of(s, &info);
    grv_shape sh = grv_choose_shape(&info, bins);
    ls_kernel *k;
    uint32_t per_unit;
    if (ls_host_program_add(&grv_host_program, err) != 0 || ls_gpu_kernel(s, "graveler", sh.kernel, &k, err) != 0 ||
        ls_gpu_groups_per_unit(s, k, sh.group, sh.local_bytes, &per_unit, err) != 0)
        return -1;
    if (info.is_gpu && per_unit < GRV_MIN_GROUPS_PER_UNIT_GPU)
        per_unit = GRV_MIN_GROUPS_PER_UNIT_GPU;
    const uint64_t groups = sh.one_group ? 1 : (uint64_t)per_unit * info.compute_units;
    const uint64_t per_launch = groups * sh.group * sh.share;
    const uint64_t s_first = lo / GRV_BATTLES_PER_STREAM;
    const uint64_t s_end = (hi + GRV_BATTLES_PER_STREAM - 1) / GRV_BATTLES_PER_STREAM;

    const size_t partial_bytes = groups * bins * sizeof(uint64_t);
    uint64_t *partial = malloc(partial_bytes);
    ls_buf *d_partial = NULL, *d_next = NULL;
    if (!partial)
        return ls_fail(err, "out of host memory for %zu bytes of partial histograms", partial_bytes);
    int rc = ls_gpu_alloc(s, partial_bytes, "partial histograms", &d_partial, err);
    if (rc == 0 && sh.takes_blocks)
        rc = ls_gpu_alloc(s, sizeof(uint32_t), "the launch's block counter", &d_next, err);
    if (rc == 0)
        rc = ls_gpu_timer_start(s, err);
    static const uint32_t zero = 0; /* lives as long as the queue reads it */
    for (uint64_t st = s_first; st < s_end && rc == 0;) {
        uint64_t n = s_end - st < per_launch ? s_end - st : per_launch;
        uint64_t seed = p->seed;
        uint32_t turns = p->turns;
        ls_arg args[] = {LS_ARG(seed), LS_ARG(st), LS_ARG(n), LS_ARG(lo), LS_ARG(hi), LS_ARG(turns),
                         LS_ARG_BUF(d_partial), LS_ARG_BUF(d_next)};
        int nargs = (int)(sizeof args / sizeof args[0]) - (sh.takes_blocks ? 0 : 1);
        ls_launch l = {groups, sh.group, sh.local_bytes, 0, args, nargs};
        if (sh.takes_blocks)
            rc = ls_gpu_write(d_next, 0, 0, &zero, sizeof zero, err);
        if (rc == 0)
            rc = ls_gpu_launch(s, k, &l, err);
        st += n;
    }
    if (rc == 0)
        rc = ls_gpu_timer_stop(s, hi - lo, seconds, err);
    if (rc == 0)
        rc = ls_gpu_read(d_partial, 0, partial, partial_bytes, err);
    if (rc == 0)
        for (uint64_t g = 0; g < groups; g++)
            for (uint32_t b = 0; b < bins; b++)
                hist[b] += partial[g * bins + b];
    ls_gpu_free(d_next);
    ls_gpu_free(d_partial);
    free(partial);
    return rc;
}
