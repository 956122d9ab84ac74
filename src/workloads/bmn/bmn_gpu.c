/* bmn_gpu.c - a range of Beggar My Neighbour deals on any device (CUDA,
 * OpenCL, the host CPU), written once over the primitives of src/gpu.h;
 * the kernels are src/kernels/bmn_kernels.h, and on the host the CPU
 * implementation (bmn_device.c's host program), which deals each game
 * where it plays it: there the whole range is one batch of one launch.
 *
 * The range is played in batches: bmn_deal_batch deals a batch's starting
 * states, bmn_play_batch plays them. Batches alternate between the two
 * queues, each with its own starting states and result rows, so that one
 * batch's dealing and the start of its play overlap the end of the
 * previous batch's play, whose last groups leave compute units idle. The
 * hit and capped lists are shared (32-bit atomic slots). */
#include <stdlib.h>
#include <string.h>

#include "bmn_types.h"
#include "gpu_call.h"
#include "gpu_timer.h"

/* Deals per batch: 2^22 starting states are 128 MiB of device memory per
 * queue; CPU devices (PoCL) take smaller batches. */
#define BMN_BATCH_GPU (1ull << 22)
#define BMN_BATCH_CPU (1ull << 16)
/* Work-items per group of bmn_play_batch: 512 measured fastest on the H200
 * for CUDA (of 64 to 1024) and NVIDIA's OpenCL (of 128 to 512), in one
 * batch (docs/perf/2026-11-22-h200-after-bmn-groups.log); 16 on CPU
 * devices running the GPU shapes' kernel, where a group is a loop on one
 * core. The CPU shape's kernel plays each deal whole in one work-item
 * (bmn_kernels.h): a group of one, which Intel's CPU runtime does not
 * try to vectorize across work-items (in groups of 16 it did, and 5e5
 * deals took 2.4 times as long there; PoCL ran both alike). */
#define BMN_PLAY_GROUP_GPU 512u
#define BMN_PLAY_GROUP_CPU 16u
#define BMN_PLAY_GROUP_CPU_SHAPE 1u

enum { HITS, CAPPED, COUNTERS, SHARED_BUFS };
enum { GAMES, DEALS, HIST, CARDS, QUEUE_BUFS };

typedef struct bmn_gpu_run {
    const ls_device *dev;
    ls_kernel *deal, *play; /* deal NULL: play deals too (the host's), taking the deal's arguments after its own */
    uint32_t group;
    uint64_t groups, batch;
    ls_buf *shared[SHARED_BUFS];
    ls_buf *queue[LS_GPU_QUEUES][QUEUE_BUFS];
} bmn_gpu_run;

/* The host's (shape.h's none): bmn_cpu_range, which threads itself,
 * over the whole range in one launch. */
static int bmn_host_shape(bmn_gpu_run *R, const bmn_range *r, ls_error *err)
{
    R->batch = r->count ? r->count : 1;
    R->group = 1;
    R->groups = 1;
    R->deal = NULL;
    if (ls_host_program_add(&bmn_host_program, err) != 0)
        return -1;
    return ls_gpu_kernel(R->dev, "bmn", "bmn_host_play", &R->play, err);
}

/* Group size, groups (one wave: resident groups per unit times units, no
 * more than the batch needs) and batch size for this device. */
static int bmn_gpu_shape(bmn_gpu_run *R, const bmn_range *r, ls_error *err)
{
    ls_gpu_info info;
    ls_gpu_info_of(R->dev, &info);
    if (info.shape == LS_SHAPE_NONE)
        return bmn_host_shape(R, r, err);
    R->batch = info.is_gpu ? BMN_BATCH_GPU : BMN_BATCH_CPU;
    if (R->batch > r->count)
        R->batch = r->count;
    R->group = info.is_gpu ? BMN_PLAY_GROUP_GPU : BMN_PLAY_GROUP_CPU;
    if (info.shape == LS_SHAPE_CPU)
        R->group = BMN_PLAY_GROUP_CPU_SHAPE;
    if (R->group > info.max_group)
        R->group = info.max_group;
    uint32_t per_unit;
    if (ls_gpu_kernel(R->dev, "bmn", "bmn_deal_batch", &R->deal, err) != 0 ||
        ls_gpu_kernel(R->dev, "bmn", "bmn_play_batch", &R->play, err) != 0 ||
        ls_gpu_groups_per_unit(R->dev, R->play, R->group, 0, &per_unit, err) != 0)
        return -1;
    R->groups = (uint64_t)per_unit * info.compute_units;
    uint64_t need = (R->batch + R->group - 1) / R->group;
    if (R->groups > need)
        R->groups = need ? need : 1;
    return 0;
}

static int bmn_gpu_alloc(bmn_gpu_run *R, const bmn_range *r, const bmn_range_out *out, ls_error *err)
{
    const size_t shared_bytes[SHARED_BUFS] = {
        (size_t)out->max_hits * sizeof(bmn_hit),
        (size_t)out->max_capped * sizeof(uint64_t),
        2 * sizeof(uint32_t),
    };
    const char *shared_what[SHARED_BUFS] = {"the list of long games", "the list of capped games", "list counters"};
    for (int b = 0; b < SHARED_BUFS; b++)
        if (ls_gpu_alloc(R->dev, shared_bytes[b], shared_what[b], &R->shared[b], err) != 0)
            return -1;
    const size_t queue_bytes[QUEUE_BUFS] = {
        R->deal ? (size_t)R->batch * sizeof(bmn_start_bits) : 0,
        r->deals ? (size_t)R->batch * sizeof(bmn_deal_in) : 0,
        (size_t)R->groups * BMN_HIST_BINS * sizeof(uint64_t),
        (size_t)R->groups * R->group * sizeof(uint64_t),
    };
    const char *queue_what[QUEUE_BUFS] = {"a batch of starting states", "a batch of given deals",
                                          "histogram rows", "card totals"};
    for (int q = 0; q < LS_GPU_QUEUES; q++)
        for (int b = 0; b < QUEUE_BUFS; b++)
            if (queue_bytes[b] && ls_gpu_alloc(R->dev, queue_bytes[b], queue_what[b], &R->queue[q][b], err) != 0)
                return -1;
    return 0;
}

/* Deals and plays deals first + done .. first + done + n - 1 on queue q. */
static int bmn_gpu_batch(bmn_gpu_run *R, const bmn_range *r, const bmn_range_out *out, int q, uint64_t done,
                         uint64_t n, ls_error *err)
{
    ls_buf **B = R->queue[q];
    if (r->deals && ls_gpu_write(B[DEALS], q, 0, r->deals + done, n * sizeof(bmn_deal_in), err) != 0)
        return -1;
    uint64_t seed = r->seed, first = r->first + done, count = n;
    uint32_t given = r->deals != NULL;
    uint32_t deal_group = BMN_DEAL_GROUP;
    ls_arg deal_args[] = {LS_ARG(seed), LS_ARG(first), LS_ARG(count), LS_ARG(given), LS_ARG_BUF(B[DEALS]),
                          LS_ARG_BUF(B[GAMES])};
    ls_launch deal = {(n + deal_group - 1) / deal_group, deal_group, (size_t)BMN_DECK_CARDS * deal_group, q,
                      deal_args, 6};
    uint32_t cap = r->cap, min_cards = r->min_cards, min_tricks = r->min_tricks;
    uint32_t max_hits = out->max_hits, max_capped = out->max_capped;
    ls_arg play_args[] = {LS_ARG_BUF(B[GAMES]),       LS_ARG(first),           LS_ARG(count),
                          LS_ARG(cap),                LS_ARG(min_cards),       LS_ARG(min_tricks),
                          LS_ARG_BUF(B[HIST]),        LS_ARG_BUF(B[CARDS]),    LS_ARG_BUF(R->shared[HITS]),
                          LS_ARG_BUF(R->shared[CAPPED]), LS_ARG_BUF(R->shared[COUNTERS]), LS_ARG(max_hits),
                          LS_ARG(max_capped),         LS_ARG(seed),            LS_ARG(given),
                          LS_ARG_BUF(B[DEALS])};
    ls_launch play = {R->groups, R->group, 0, q, play_args, R->deal ? 13 : BMN_HOST_PLAY_ARGS};
    if (R->deal && ls_gpu_launch(R->dev, R->deal, &deal, err) != 0)
        return -1;
    return ls_gpu_launch(R->dev, R->play, &play, err);
}

/* Reads the results and adds them to out. */
static int bmn_gpu_collect(bmn_gpu_run *R, bmn_range_out *out, ls_error *err)
{
    size_t hist_n = R->groups * BMN_HIST_BINS, cards_n = R->groups * R->group;
    uint64_t *rows = malloc((hist_n > cards_n ? hist_n : cards_n) * sizeof *rows);
    if (!rows)
        return ls_fail(err, "out of host memory reading BMN results");
    int rc = 0;
    for (int q = 0; q < LS_GPU_QUEUES && rc == 0; q++) {
        rc = ls_gpu_read(R->queue[q][HIST], 0, rows, hist_n * sizeof *rows, err);
        for (size_t i = 0; i < hist_n && rc == 0; i++)
            out->hist[i % BMN_HIST_BINS] += rows[i];
        if (rc == 0)
            rc = ls_gpu_read(R->queue[q][CARDS], 0, rows, cards_n * sizeof *rows, err);
        for (size_t i = 0; i < cards_n && rc == 0; i++)
            out->total_cards += rows[i];
    }
    free(rows);
    uint32_t counts[2];
    if (rc == 0)
        rc = ls_gpu_read(R->shared[COUNTERS], 0, counts, sizeof counts, err);
    if (rc != 0)
        return -1;
    out->n_hits = counts[0];
    out->n_capped = counts[1];
    uint32_t nh = counts[0] < out->max_hits ? counts[0] : out->max_hits;
    uint32_t nc = counts[1] < out->max_capped ? counts[1] : out->max_capped;
    if (nh && ls_gpu_read(R->shared[HITS], 0, out->hits, nh * sizeof(bmn_hit), err) != 0)
        return -1;
    if (nc && ls_gpu_read(R->shared[CAPPED], 0, out->capped, nc * sizeof(uint64_t), err) != 0)
        return -1;
    return 0;
}

static void bmn_gpu_release(bmn_gpu_run *R)
{
    for (int b = 0; b < SHARED_BUFS; b++)
        ls_gpu_free(R->shared[b]);
    for (int q = 0; q < LS_GPU_QUEUES; q++)
        for (int b = 0; b < QUEUE_BUFS; b++)
            ls_gpu_free(R->queue[q][b]);
}

int bmn_gpu_range(ls_device *s, const bmn_range *r, bmn_range_out *out, ls_error *err)
{
    bmn_gpu_run R;
    memset(&R, 0, sizeof R);
    R.dev = s;
    out->seconds = 0;
    int rc = bmn_gpu_shape(&R, r, err);
    if (rc == 0)
        rc = bmn_gpu_alloc(&R, r, out, err);
    if (rc == 0)
        rc = ls_gpu_timer_start(s, err);
    uint64_t k = 0;
    for (uint64_t done = 0; rc == 0 && done < r->count; k++) {
        uint64_t n = r->count - done < R.batch ? r->count - done : R.batch;
        rc = bmn_gpu_batch(&R, r, out, (int)(k % LS_GPU_QUEUES), done, n, err);
        done += n;
    }
    if (rc == 0)
        rc = ls_gpu_timer_stop(s, r->count, &out->seconds, err);
    if (rc == 0)
        rc = bmn_gpu_collect(&R, out, err);
    bmn_gpu_release(&R);
    return rc;
}
