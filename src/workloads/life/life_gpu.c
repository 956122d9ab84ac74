/* life_gpu.c - the device driver of Life, written once over src/gpu.h
 * for the GPUs and the host CPU (OpenMP) alike. Two
 * buffers hold the current and the next generation; a launch per
 * LIFE_GPU_3D_DEPTH generations in 3D (the rest one at a time), per
 * LIFE_2D_GENS in 2D (LIFE_GROUP_2D_GENS on the group shape; the rest
 * two at a time, an odd last one alone), all
 * on queue 0 without waiting. A work-item walks a word column through a
 * segment of rows (2D) or planes (3D): see src/kernels/life_kernels.h. A
 * device of the CPU shape (shape.h) runs that file's kernels for CPUs: a
 * work-item walks a run of words, one generation a launch, or in 2D
 * LIFE_CPU_2D_GENS (the rest one at a time). The host device (the shape
 * none) runs life_host.c's kernels, life_cpu.c's C over the whole grid on
 * the host's threads: a launch as many generations as are asked, between
 * the two buffers, the last in the second when their count is odd. */
#include "life_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_call.h"
#include "gpu_timer.h"
#include "life_cpu.h"
#include "life_host.h"
#include "life_memory.h"
#include "numbers.h"

/* Work-items per group: a multiple of the warp; on CPU devices (PoCL) a
 * group is a loop on one core, and small groups share out evenly. */
#define LIFE_GROUP_GPU 256u
#define LIFE_GROUP_CPU 8u
/* Work-items a launch should have on a CPU device, a compute unit's. */
#define LIFE_ITEMS_CPU 256u

/* Whether the device runs the kernels shaped for CPUs (shape.h; the
 * LS_SHAPE_CPU kernels of src/kernels/life_kernels.h), which every choice
 * of kernel and launch below follows: a CPU device forced to the group
 * shape (LOCKSTEP_SHAPE=group) runs and is sized as a GPU of that shape. */
static int cpu_shaped(const ls_gpu_info *info)
{
    return info->shape == LS_SHAPE_CPU;
}

/* Whether the device runs no program of src/kernels but the workloads'
 * C (shape.h's none: the host CPU), whose one kernel of generations is
 * Life's own loop over the whole grid (life_host.c). */
static int host_shaped(const ls_gpu_info *info)
{
    return info->shape == LS_SHAPE_NONE;
}

/* Work-items a group for a device of this shape, at most its largest. */
static uint32_t group_size(const ls_gpu_info *info)
{
    uint32_t group = cpu_shaped(info) ? LIFE_GROUP_CPU : LIFE_GROUP_GPU;
    return group < info->max_group ? group : info->max_group;
}

/* Shortest walk of a work-item (rows in 2D, planes in 3D): two more are
 * read to start it. */
#define LIFE_MIN_SEGMENT 9u
struct life_gpu_state {
    ls_device *s;
    ls_buf *cur, *next;
    ls_buf *sums; /* the host's kernel's row sums (life_host.h), made at its first launch; NULL elsewhere */
    unsigned dims;
    int bounded; /* a bounded plane: the *_plane kernels */
    uint32_t row_words, ny, nz, last_bits;
    uint64_t nwords;
};

/* Two buffers of g's shape on s, all dead: the grid and the next
 * generation. A device whose memory (life_device_memory: its own, or the
 * test cap) or largest allocation cannot hold them refuses the grid as the
 * user's error (life_grid_fits, which `lockstep devices` reports by). */
int life_gpu_open(ls_device *s, const life_grid *g, life_gpu_state **out, ls_error *err)
{
    uint64_t bytes = (uint64_t)g->nwords * sizeof(uint32_t), memory, max_alloc = life_device_max_alloc(s);
    if (life_device_memory(s, &memory, err))
        return -1;
    char need[LS_BYTES_TEXT], has[LS_BYTES_TEXT];
    if (bytes > max_alloc) {
        ls_format_bytes(bytes, need, sizeof need);
        ls_format_bytes(max_alloc, has, sizeof has);
        return ls_fail_usage(err, "the grid %ux%ux%u needs %s in one allocation on the device (a bit per cell); %s "
                                  "allocates at most %s at once",
                             g->nx, g->ny, g->nz, need, s->info.name, has);
    }
    if (!life_grid_fits(bytes, memory, max_alloc)) {
        ls_format_bytes(2 * bytes, need, sizeof need);
        ls_format_bytes(memory, has, sizeof has);
        return ls_fail_usage(err, "the grid %ux%ux%u needs %s on the device (two generations, a bit per cell); %s has "
                                  "%s%s",
                             g->nx, g->ny, g->nz, need, s->info.name, has,
                             life_memory_capped() ? " under " LIFE_MEMORY_CAP_ENV : "");
    }
    /* The host device finds Life's kernels among the host programs. */
    if (ls_host_program_add(&life_host_program, err) != 0)
        return -1;
    life_gpu_state *st = calloc(1, sizeof *st);
    if (!st)
        return ls_fail(err, "out of memory");
    *st = (life_gpu_state){s, NULL, NULL, NULL, g->dims, g->bounded, g->row_words, g->ny, g->nz, g->last_bits,
                           g->nwords};
    if (ls_gpu_alloc(s, (size_t)bytes, "the Life grid", &st->cur, err) != 0 ||
        ls_gpu_alloc(s, (size_t)bytes, "the next Life generation", &st->next, err) != 0) {
        life_gpu_stop(st);
        return -1;
    }
    *out = st;
    return 0;
}

int life_gpu_start(ls_device *s, const life_grid *g, life_gpu_state **out, ls_error *err)
{
    if (life_gpu_open(s, g, out, err))
        return -1;
    if (ls_gpu_write((*out)->cur, 0, 0, g->words, g->nwords * sizeof(uint32_t), err) != 0) {
        life_gpu_stop(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

/* Work-items a launch should have: enough to fill the device (about two
 * full loads of 2048 per compute unit on a GPU; four in 2D, whose
 * two-generation walk gains from the shorter segments where 3D loses: on
 * the H200, 2D 65536^2 250.8 ms against 260.9, 3D 1024^3 145.4 against
 * 136.0, docs/perf/2026-11-22-h200-life-perf2-run2.log), few on a CPU
 * device, where a work-item's walk is a loop and warm-up is pure overhead
 * (enough groups of LIFE_GROUP_CPU that the cores share them evenly). */
static uint64_t target_items(const ls_gpu_info *info, unsigned dims)
{
    return !cpu_shaped(info) ? (uint64_t)info->compute_units * (dims == 2 ? 8192u : 4096u)
                             : (uint64_t)info->compute_units * LIFE_ITEMS_CPU;
}

/* The many-generation kernel's target: one wave, `wave` work-items (the
 * groups that fit on every compute unit at once), in whole row bands of
 * `columns` work-items, so that segment_length makes no more than that:
 * a second wave would leave most units idle while it runs, and the
 * segments start with 2 LIFE_2D_GENS rows of warm-up (as few and as long
 * as the device allows). A CPU device as target_items. */
static uint64_t target_many_items(const ls_gpu_info *info, uint64_t wave, uint64_t columns)
{
    if (cpu_shaped(info))
        return target_items(info, 2);
    return wave < columns ? columns : wave / columns * columns;
}

/* Segment length (rows in 2D, planes in 3D) of a work-item's walk along
 * an axis of n, when `columns` work-items share each segment: long enough
 * that the two warm-up rows or planes cost little, short enough to give
 * the device target_items work-items, and the walk no longer than the
 * axis. Keeps the work-item count below 2^32 (the kernels' index; a grid
 * that would need more does not fit two copies in any device's memory). */
static uint32_t segment_length(uint64_t columns, uint32_t n, uint64_t target)
{
    uint64_t segs = (target + columns - 1) / columns;
    uint64_t seg = segs ? ((uint64_t)n + segs - 1) / segs : n;
    if (seg < LIFE_MIN_SEGMENT)
        seg = LIFE_MIN_SEGMENT;
    seg = (seg + 2) / 3 * 3; /* the kernels take three steps at a time */
    while (seg < n && columns * ((n + seg - 1) / seg) >= UINT32_MAX)
        seg *= 2;
    return seg < n ? (uint32_t)seg : n;
}

/* The run of words a work-item of the CPU-shaped kernels takes at once
 * (LIFE_CPU_LANES, src/kernels/life_kernels.h) on rows of row_words
 * words: the default, halved while it is wider than a row or a row's runs
 * (the last moved back to end with the row) would span more than a
 * quarter more words than the row has, which are made twice. */
static uint32_t life_cpu_lanes(uint32_t row_words)
{
    uint32_t lanes = LIFE_CPU_LANES_DEFAULT;
    while (lanes > 1 &&
           (lanes > row_words || (uint64_t)(row_words + lanes - 1) / lanes * lanes * 4 > (uint64_t)row_words * 5))
        lanes /= 2;
    return lanes;
}

/* Work-items of a launch of one generation that share a segment: one for
 * each word (GPU shapes) or run of words (the CPU shape) of a row in 2D,
 * and in 3D of each group of LIFE_GPU_3D_ROWS (LIFE_CPU_3D_ROWS) rows. */
static uint64_t one_columns(const life_gpu_state *st, const ls_gpu_info *info)
{
    if (cpu_shaped(info)) {
        uint32_t lanes = life_cpu_lanes(st->row_words);
        uint64_t runs = (st->row_words + lanes - 1) / lanes;
        return st->dims == 3 ? runs * ((st->ny + LIFE_CPU_3D_ROWS - 1) / LIFE_CPU_3D_ROWS) : runs;
    }
    return st->dims == 3 ? (uint64_t)st->row_words * ((st->ny + LIFE_GPU_3D_ROWS - 1) / LIFE_GPU_3D_ROWS)
                         : st->row_words;
}

/* One generation from st->cur into st->next, two with a life_two_*
 * kernel (gens 2: runs of 32 work-items for every 30 words of a row), or
 * LIFE_2D_GENS with a life_many_* one (runs of 32 for every 32 - 2 margin
 * words; life_many_margin). */
static int launch_step(life_gpu_state *st, ls_kernel *k, uint32_t gens, uint32_t margin, uint32_t group,
                       const ls_gpu_info *info, uint64_t wave, life_rule r, ls_error *err)
{
    uint32_t birth = r.birth, survive = r.survive;
    uint32_t width = gens == 2 ? 30 : 32 - 2 * margin;
    uint64_t columns = gens > 1 ? 32u * (((uint64_t)st->row_words + width - 1) / width) : one_columns(st, info);
    uint32_t n = st->dims == 3 ? st->nz : st->ny;
    uint64_t target = gens > 2 ? target_many_items(info, wave, columns) : target_items(info, st->dims);
    uint32_t seg = segment_length(columns, n, target);
    uint32_t items = (uint32_t)(columns * ((n + seg - 1) / seg));
    ls_arg args2[] = {LS_ARG_BUF(st->cur), LS_ARG_BUF(st->next), LS_ARG(st->row_words), LS_ARG(st->ny),
                      LS_ARG(st->last_bits), LS_ARG(seg), LS_ARG(items), LS_ARG(birth), LS_ARG(survive),
                      LS_ARG(margin)};
    ls_arg args3[] = {LS_ARG_BUF(st->cur), LS_ARG_BUF(st->next), LS_ARG(st->row_words), LS_ARG(st->ny),
                      LS_ARG(st->nz), LS_ARG(st->last_bits), LS_ARG(seg), LS_ARG(items), LS_ARG(birth),
                      LS_ARG(survive)};
    ls_launch l = {(items + group - 1) / group, group, 0, 0, st->dims == 3 ? args3 : args2,
                   st->dims == 3 ? 10 : gens > 2 ? 10 : 9};
    return ls_gpu_launch(st->s, k, &l, err);
}

/* Whether the grid's kernels for rule r are the default rule's, which
 * have it as a constant (B3/S23 in 2D, B6/S567 in 3D, on a torus). */
static int default_rule_kernels(const life_gpu_state *st, life_rule r)
{
    if (st->bounded)
        return 0;
    return st->dims == 3 ? r.birth == LIFE_B6S567_BIRTH && r.survive == LIFE_B6S567_SURVIVE
                         : r.birth == LIFE_B3S23_BIRTH && r.survive == LIFE_B3S23_SURVIVE;
}

/* The kernel for this grid and rule: the default rule of the dimension
 * as a constant, and the cheaper x seam when rows end on a word boundary;
 * on a bounded plane the one kernel for any rule and row. Those of the
 * device's shape: runs of words a work-item on CPUs, a word elsewhere. */
static const char *kernel_name(const life_gpu_state *st, const ls_gpu_info *info, life_rule r)
{
    static const char *const cpu_names[2][2][2] = {
        {{"life_cpu_2d", "life_cpu_2d_aligned"}, {"life_cpu_2d_b3s23", "life_cpu_2d_b3s23_aligned"}},
        {{"life_cpu_3d", "life_cpu_3d_aligned"}, {"life_cpu_3d_b6s567", "life_cpu_3d_b6s567_aligned"}},
    };
    if (cpu_shaped(info)) {
        if (st->bounded)
            return st->dims == 3 ? "life_cpu_3d_plane" : "life_cpu_2d_plane";
        return cpu_names[st->dims == 3][default_rule_kernels(st, r)][st->last_bits == 32];
    }
    if (st->bounded)
        return st->dims == 3 ? "life_step_3d_plane" : "life_step_2d_plane";
    static const char *const names[2][2][2] = {
        {{"life_step_2d", "life_step_2d_aligned"}, {"life_step_2d_b3s23", "life_step_2d_b3s23_aligned"}},
        {{"life_step_3d", "life_step_3d_aligned"}, {"life_step_3d_b6s567", "life_step_3d_b6s567_aligned"}},
    };
    return names[st->dims == 3][default_rule_kernels(st, r)][st->last_bits == 32];
}

/* The 2D kernel that makes two generations a launch, or NULL where the
 * groups are no runs of 32 (at most 256: the kernels' exchange buffer). */
static const char *two_kernel_name(const life_gpu_state *st, life_rule r, uint32_t group)
{
    static const char *const names[2][2] = {{"life_two_2d", "life_two_2d_aligned"},
                                            {"life_two_2d_b3s23", "life_two_2d_b3s23_aligned"}};
    if (st->dims != 2 || group % 32 != 0 || group > 256)
        return NULL;
    if (st->bounded)
        return "life_two_2d_plane";
    return names[default_rule_kernels(st, r)][st->last_bits == 32];
}

/* Lanes at each end of a run of a walk of `gens` generations a pass
 * (life_many_*, and life_group_2d_*'s) that store nothing: they must
 * hold `gens` cells or more (src/kernels/life_kernels.h). One word
 * when every word has that many, and on a torus of rows of two words or
 * more, whose lanes each hold 32 cells of the row repeated (life_vword);
 * two on a bounded plane whose rows end in a short word; 0 where the
 * kernel cannot run this grid (a row of one short word). A run stores 32
 * - 2 margin words: margin 1 rather than 2 is 7% fewer runs (65537^2). */
static uint32_t life_walk_margin(const life_gpu_state *st, uint32_t gens)
{
    if (st->last_bits >= gens)
        return 1;
    if (st->row_words < 2)
        return 0;
    return st->bounded ? 2 : 1;
}

static uint32_t life_many_margin(const life_gpu_state *st)
{
    return life_walk_margin(st, LIFE_2D_GENS);
}

/* LOCKSTEP_DEBUG_LIFE_MANY=1: the kernels of several generations a launch
 * (2D's and 3D's) run wherever they can, for the tests, not only where
 * they pay. */
static int many_forced(void)
{
    const char *debug = getenv("LOCKSTEP_DEBUG_LIFE_MANY");
    return debug && strcmp(debug, "1") == 0;
}

/* The 2D kernel that makes LIFE_2D_GENS generations a launch, or NULL
 * where it cannot run (as two_kernel_name, or life_many_margin 0) or does
 * not pay: on a GPU whose work-items exchange words through local memory
 * and barriers rather than shuffles (OpenCL C 1.2), where the walk's 2
 * exchanges a level and row cost more than the passes saved: on the H200
 * through NVIDIA's OpenCL before it had shuffles, 65536^2 x 1024 took
 * 344.5 ms at 16 generations a launch against 264.4 ms with the two-
 * generation kernel (docs/perf/2026-11-23-h200-final-issue16.log). NVIDIA's
 * OpenCL now has them (LS_NV_PTX, inline PTX: the warp shape, shape.h) and
 * runs it in 134.1 ms, CUDA's time (docs/perf/2026-11-24-h200-nv-opencl-
 * shuffles.log). On a CPU device (PoCL) a barrier is a loop split, and the
 * many-generation kernel runs. LOCKSTEP_DEBUG_LIFE_MANY=1 runs it
 * on every device where it can run, for the tests (Oclgrind, a simulated
 * GPU, checks every kernel's memory accesses). */
static const char *many_kernel_name(const life_gpu_state *st, const ls_gpu_info *info, life_rule r,
                                    uint32_t group)
{
    static const char *const names[2][2] = {{"life_many_2d", "life_many_2d_aligned"},
                                            {"life_many_2d_b3s23", "life_many_2d_b3s23_aligned"}};
    if (LIFE_2D_GENS <= 2 || !two_kernel_name(st, r, group) || life_many_margin(st) == 0 ||
        (info->shape == LS_SHAPE_GROUP && !many_forced()))
        return NULL;
    if (st->bounded)
        return "life_many_2d_plane";
    return names[default_rule_kernels(st, r)][st->last_bits == 32];
}

/* The group shape's 2D kernel of LIFE_GROUP_2D_GENS generations a pass
 * (life_group_2d_*, src/kernels/life_kernels.h), or NULL where another
 * runs: only on the group shape (shape.h: a GPU whose work-items exchange
 * words through local memory between barriers, where the walk of
 * life_many_2d pays two barriers a level and row), where its groups and
 * local memory fit the device and the margin allows (life_walk_margin, as
 * life_many_2d). LOCKSTEP_DEBUG_LIFE_MANY=1 runs life_many_2d there
 * instead, for the tests (Oclgrind is a device of this shape). */
#define LIFE_GROUP_2D_LOCAL_BYTES ((size_t)LIFE_GROUP_2D_LOCAL_WORDS * sizeof(uint32_t))
static const char *group_kernel_name(const life_gpu_state *st, const ls_gpu_info *info, life_rule r)
{
    static const char *const names[2][2] = {{"life_group_2d", "life_group_2d_aligned"},
                                            {"life_group_2d_b3s23", "life_group_2d_b3s23_aligned"}};
    if (st->dims != 2 || info->shape != LS_SHAPE_GROUP || many_forced() ||
        life_walk_margin(st, LIFE_GROUP_2D_GENS) == 0 || info->max_group < LIFE_GROUP_2D_ITEMS ||
        info->local_bytes < LIFE_GROUP_2D_LOCAL_BYTES)
        return NULL;
    if (st->bounded)
        return "life_group_2d_plane";
    return names[default_rule_kernels(st, r)][st->last_bits == 32];
}

/* The CPU shape's 2D kernel of LIFE_CPU_2D_GENS generations a launch
 * (life_cpu_many_2d_*), or NULL where it cannot run: a torus whose rows
 * are of whole words, in the runs of LIFE_CPU_LANES_DEFAULT words it is
 * built for (life_cpu_lanes). A grid larger than the caches then crosses
 * the memory bus once every LIFE_CPU_2D_GENS generations, where the walk
 * of one generation takes it across every generation. */
static const char *cpu_many_kernel_name(const life_gpu_state *st, life_rule r)
{
    if (st->dims != 2 || st->bounded || st->last_bits != 32 ||
        life_cpu_lanes(st->row_words) != LIFE_CPU_LANES_DEFAULT)
        return NULL;
    return default_rule_kernels(st, r) ? "life_cpu_many_2d_b3s23_aligned" : "life_cpu_many_2d_aligned";
}

/* Work-items a group of the 3D tile walk (life_tile_3d_*): a warp a
 * LIFE_GPU_3D_ROWS rows of its tile; its local memory. */
#define LIFE_TILE_GROUP (32u * LIFE_GPU_3D_WARPS)

/* Whether the grid's rows take the wide tile walk (life_tile_3d_*wide*,
 * rows of 33 to LIFE_GPU_3D_WIDE_WORDS words), where the tile walk runs. */
static int tile_wide(const life_gpu_state *st)
{
    return st->row_words > 32;
}

/* The local memory a group of the tile walk uses on this device, of the
 * kernel's layout (LIFE_GPU_3D_LOCAL_WORDS in life.h): the halo, then
 * the planes read ahead where the device copies without registers
 * (dialect.h's LS_ASYNC_COPY: CUDA, whose kernels are prebuilt; never
 * OpenCL), or ls_shuffle's buffer where work-items do not shuffle, or
 * nothing more. A launch that gave NVIDIA's OpenCL the whole 48 KiB where
 * the kernel uses the halo's 32 could not start there
 * (CL_OUT_OF_RESOURCES: its limit of 48 KiB counts the program's byte of
 * static local memory too). The wide walk's (LIFE_GPU_3D_WIDE_LOCAL_WORDS):
 * its halo, its rows' words, then the planes read ahead where the device
 * copies without registers; it never shuffles. */
static size_t tile_local_bytes(const life_gpu_state *st, const ls_gpu_info *info)
{
    size_t words = LIFE_GPU_3D_HALO_WORDS;
    if (tile_wide(st))
        words = info->prebuilt ? LIFE_GPU_3D_WIDE_LOCAL_WORDS
                               : LIFE_GPU_3D_WIDE_HALO_WORDS + LIFE_GPU_3D_WIDE_ROW_WORDS;
    else if (info->prebuilt)
        words = LIFE_GPU_3D_LOCAL_WORDS;
    else if (!ls_shape_shuffles(info->shape))
        words += LIFE_GPU_3D_SHUFFLE_WORDS;
    return words * sizeof(uint32_t);
}

/* The 3D kernel that makes LIFE_GPU_3D_DEPTH generations a pass (the tile
 * walk), or NULL where there is none (LIFE_GPU_3D_DEPTH 1) or it cannot
 * run: rows of more than LIFE_GPU_3D_WIDE_WORDS words (a warp holds a
 * whole row of up to 32 words, the wide walk two warps one of up to 64),
 * planes of 4 GiB or more (its offsets in a plane are 32-bit), groups or
 * local memory smaller than its on the device. Only where work-items
 * shuffle words (ls_shape_shuffles: CUDA, NVIDIA's OpenCL): elsewhere each shuffle is
 * two barriers, and on a CPU device (PoCL) the walk ran several times
 * slower than one generation a launch, every work-item's state crossing
 * every barrier (fewer barriers, one shuffle for both levels' rows, were
 * slower still: docs/perf/README.md, issue 28). Where the program is
 * built at run time (NVIDIA's OpenCL: warps, no asynchronous copies), it
 * gets a build of its own under the registers its group may have
 * (tile_defines): under the cap of 128 the rest of the program needs it
 * spilled, and ran no faster than the walk of one generation. There the
 * wide walk, slower than the walk of one generation even so, is left out
 * (docs/perf/README.md, thirteenth session). LOCKSTEP_DEBUG_LIFE_MANY=1
 * runs it wherever it can run, for the tests. */
static const char *tile_kernel_name(const life_gpu_state *st, const ls_gpu_info *info, life_rule r)
{
    int runs_here = ls_shape_shuffles(info->shape) &&
                    (info->prebuilt || (info->shape == LS_SHAPE_WARP && !tile_wide(st) &&
                                        ls_device_supports(st->s, LS_CAP_DEFINES, NULL, 0)));
    static const char *const names[2][2][2] = {
        {{"life_tile_3d", "life_tile_3d_aligned"}, {"life_tile_3d_b6s567", "life_tile_3d_b6s567_aligned"}},
        {{"life_tile_3d_wide", "life_tile_3d_wide_aligned"},
         {"life_tile_3d_b6s567_wide", "life_tile_3d_b6s567_wide_aligned"}}};
    if (LIFE_GPU_3D_DEPTH < 2 || st->dims != 3 || st->row_words > LIFE_GPU_3D_WIDE_WORDS ||
        (uint64_t)st->row_words * sizeof(uint32_t) * st->ny > UINT32_MAX || info->max_group < LIFE_TILE_GROUP ||
        info->local_bytes < tile_local_bytes(st, info) ||
        (!runs_here && !many_forced()))
        return NULL;
    if (st->bounded)
        return tile_wide(st) ? "life_tile_3d_wide_plane" : "life_tile_3d_plane";
    return names[tile_wide(st)][default_rule_kernels(st, r)][st->last_bits == 32];
}

/* Tiles of rows a segment of the tile walk has: a tile stores
 * LIFE_GPU_3D_TILE_OUT rows (the wide walk's LIFE_GPU_3D_WIDE_TILE_OUT). */
static uint32_t tile_count(const life_gpu_state *st)
{
    uint32_t out = tile_wide(st) ? LIFE_GPU_3D_WIDE_TILE_OUT : LIFE_GPU_3D_TILE_OUT;
    return (st->ny + out - 1) / out;
}

/* The segment length of the tile walk on a GPU that holds `wave` of its
 * groups at once: of the lengths segment_length makes, the one whose
 * launch takes the fewest steps of a group one after the other, waves x
 * (segment + 3 LIFE_GPU_3D_DEPTH - 1, the steps that store nothing), the
 * longest of those. A group a segment and tile; groups of a wave take the
 * same time, and a wave that is not full leaves units idle: 2048 rows
 * were 74 tiles of the wide walk of 16 warps, which made one wave of 74
 * groups on the 132 units of an H200 where segments were as long as one
 * wave allows (2053 steps), and 518 groups of 294 planes here (4 waves,
 * 1196); at 12 warps they are 103 tiles, 515 groups of 411 planes (4
 * waves, 1664 steps). */
static uint32_t tile_segment(uint32_t tiles, uint32_t nz, uint64_t wave)
{
    uint64_t best = UINT64_MAX;
    uint32_t best_seg = nz;
    for (uint64_t segs = 1; segs <= (uint64_t)nz / LIFE_MIN_SEGMENT + 1u; segs++) {
        uint32_t seg = segment_length(tiles, nz, tiles * segs);
        uint64_t groups = (uint64_t)tiles * ((nz + seg - 1) / seg);
        uint64_t steps = (groups + wave - 1) / wave * (seg + 3u * LIFE_GPU_3D_DEPTH - 1u);
        if (steps < best) {
            best = steps;
            best_seg = seg;
        }
    }
    return best_seg;
}

/* Whether this build lays out 3D launches other than the kernel source's
 * defaults would (src/algo/life.h's knobs, a variant build's). */
static int life_3d_variant(void)
{
    return LIFE_GPU_3D_ROWS != LIFE_GPU_3D_ROWS_DEFAULT || LIFE_GPU_3D_DEPTH != LIFE_GPU_3D_DEPTH_DEFAULT ||
           LIFE_GPU_3D_WARPS != LIFE_GPU_3D_WARPS_DEFAULT || LIFE_GPU_3D_STAGES != LIFE_GPU_3D_STAGES_DEFAULT;
}

/* The same for the group shape's 2D walk (life_group_2d_*), whose
 * program is always built at run time (OpenCL). */
static int life_group_2d_variant(void)
{
    return LIFE_GROUP_2D_GENS != LIFE_GROUP_2D_GENS_DEFAULT || LIFE_GROUP_2D_COLS != LIFE_GROUP_2D_COLS_DEFAULT ||
           LIFE_GROUP_2D_SLOTS != LIFE_GROUP_2D_SLOTS_DEFAULT || LIFE_GROUP_2D_ROWS != LIFE_GROUP_2D_ROWS_DEFAULT;
}

/* The definitions that build rule r into the kernels that take any rule
 * (LIFE_FIXED_*, src/kernels/life_kernels.h; not when with_rule is 0),
 * and the CPU shape's run of words where rows are narrow (life_cpu_lanes),
 * in buf; NULL where there are none: the grid's kernels are the default
 * rule's, which have it already, and the program's defaults fit. With the
 * rule a constant the compiler folds its tree to what the rule needs: on
 * the H200, B36/S23 took 2.26 times B3/S23's time with the rule as kernel
 * arguments; in NVRTC 13.0's PTX for sm_90, life_many_2d_aligned is 3900
 * instructions with the rule as arguments, 2202 with B36/S23 built in,
 * 2009 with B3/S23 (its own kernel: 2012); life_step_3d_aligned 3687, with
 * B5/S45 1495 (B6/S567's kernel: 1567). Measured on the H200 with the rule
 * built in: 2D B36/S23 1.35x B3/S23's time, 3D B5/S45 1.05x B6/S567's
 * (docs/perf/2026-11-24-h200-variants-rules.log); since the 2D pair walk
 * and the decision in f0, f1, f2 (life_next_2d), B36/S23 1.33x
 * (docs/perf/2026-11-24-h200-life2d-rules.log).
 *
 * What a user pays for it, once per rule in a process: on CUDA, NVRTC
 * compiles the program for the GPU, 0.85 s for 2D and 0.5 s for 3D on one
 * core of an AMD EPYC (Zen 5, 2.6 GHz; tests/test_nvrtc.c prints it; a
 * whole 4096^2 x 64 run on the H200 host took 0.36 s against 0.32 s with
 * the default rule), and the devices of a set share it; on OpenCL nothing more, as the program is
 * built at run time anyway (PoCL 3.1: 0.5 s to build it, and 2.1 s to
 * compile a kernel at its first launch, against 0.6 s and 2.7 s without
 * the rule; PoCL keeps kernels in its cache directory for later runs). */
static const char *rule_defines(const life_gpu_state *st, const ls_gpu_info *info, life_rule r, int with_rule,
                                char *buf, size_t len)
{
    int rule = with_rule && !default_rule_kernels(st, r), n = 0;
    int group_2d = st->dims == 2 && info->shape == LS_SHAPE_GROUP && life_group_2d_variant();
    /* The CPU shape's runs of words where a row is narrower than the
     * program's default (life_cpu_lanes). */
    uint32_t lanes = cpu_shaped(info) ? life_cpu_lanes(st->row_words) : LIFE_CPU_LANES_DEFAULT;
    if (!rule && lanes == LIFE_CPU_LANES_DEFAULT && !(st->dims == 3 && life_3d_variant() && !info->prebuilt) &&
        !group_2d)
        return NULL;
    if (rule)
        n = snprintf(buf, len, "LIFE_FIXED_DIMS=%u LIFE_FIXED_BIRTH=0x%x LIFE_FIXED_SURVIVE=0x%x", st->dims,
                     (unsigned)r.birth, (unsigned)r.survive);
    if (lanes != LIFE_CPU_LANES_DEFAULT && n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, " LIFE_CPU_LANES=%u", (unsigned)lanes);
    /* The launches this driver lays out, which a variant build changes
     * (-Dc_args=-DLIFE_2D_GENS=N, src/algo/life.h): a program built at run
     * time would otherwise have the defaults. In 3D also without a rule
     * built in where the program is built at run time anyway (OpenCL);
     * nvcc's has them. */
    if (n >= 0 && (size_t)n < len) {
        if (st->dims == 2 && group_2d)
            snprintf(buf + n, len - (size_t)n,
                     " LIFE_2D_GENS=%u LIFE_GROUP_2D_GENS=%u LIFE_GROUP_2D_COLS=%u LIFE_GROUP_2D_SLOTS=%u"
                     " LIFE_GROUP_2D_ROWS=%u",
                     (unsigned)LIFE_2D_GENS, (unsigned)LIFE_GROUP_2D_GENS, (unsigned)LIFE_GROUP_2D_COLS,
                     (unsigned)LIFE_GROUP_2D_SLOTS, (unsigned)LIFE_GROUP_2D_ROWS);
        else if (st->dims == 2)
            snprintf(buf + n, len - (size_t)n, " LIFE_2D_GENS=%u", (unsigned)LIFE_2D_GENS);
        else
            snprintf(buf + n, len - (size_t)n,
                     " LIFE_GPU_3D_ROWS=%u LIFE_GPU_3D_DEPTH=%u LIFE_GPU_3D_WARPS=%u LIFE_GPU_3D_STAGES=%u",
                     (unsigned)LIFE_GPU_3D_ROWS, (unsigned)LIFE_GPU_3D_DEPTH, (unsigned)LIFE_GPU_3D_WARPS,
                     (unsigned)LIFE_GPU_3D_STAGES);
    }
    return buf;
}

/* The registers a work-item of the tile walk may have: a compute unit's
 * 65536 (every NVIDIA GPU's since Kepler) over one group, in NVIDIA's
 * allocation unit of 8; what nvcc gives the kernel (LS_MAX_GROUP_FIT of
 * one group a unit). */
#define LIFE_TILE_REGISTERS (65536u / LIFE_TILE_GROUP / 8u * 8u)

/* The definitions of the tile walk's build: `defines`, and on the warp
 * shape where the program is built at run time (NVIDIA's OpenCL, whose
 * compiler takes one cap of registers for a whole program, and Life's is
 * 128) the cap of LIFE_TILE_REGISTERS (dialect.h's LS_REGISTERS), in buf. */
static const char *tile_defines(const ls_gpu_info *info, const char *defines, char *buf, size_t len)
{
    if (info->prebuilt || info->shape != LS_SHAPE_WARP)
        return defines;
    snprintf(buf, len, "%s%sLS_REGISTERS=%u", defines ? defines : "", defines ? " " : "", LIFE_TILE_REGISTERS);
    return buf;
}

/* Kernel `name` of the life program with `defines` built in where the
 * device builds them (caps.h's LS_CAP_DEFINES), else the one that takes
 * the rule as arguments: both take the same arguments. */
static int life_kernel(life_gpu_state *st, const char *defines, const char *name, ls_kernel **out, ls_error *err)
{
    *out = NULL;
    if (defines && ls_device_supports(st->s, LS_CAP_DEFINES, NULL, 0))
        return ls_gpu_kernel_with(st->s, "life", defines, name, out, err);
    return ls_gpu_kernel(st->s, "life", name, out, err);
}

/* LOCKSTEP_DEBUG_LIFE_RULE_ARGS=1: the kernels take the rule as arguments
 * on every backend, as CUDA's do without NVRTC, for the tests (the other
 * definitions of rule_defines still apply). */
static int rule_args_forced(void)
{
    const char *debug = getenv("LOCKSTEP_DEBUG_LIFE_RULE_ARGS");
    return debug && strcmp(debug, "1") == 0;
}

/* The kernels of a run of rule r: one generation a launch, two, and
 * LIFE_2D_GENS or LIFE_GPU_3D_DEPTH (NULL where there is none); looked up
 * before the timer starts, as a first lookup builds the program. */
typedef struct life_kernels {
    ls_gpu_info info;
    uint32_t group;
    ls_kernel *one, *two, *many, *tile;
    uint32_t many_gens;  /* generations a launch of `many` */
    uint32_t margin;     /* life_many_margin */
    uint64_t wave;       /* work-items of one wave of `many` on the device */
    uint64_t tile_wave;  /* groups of one wave of `tile` */
    uint32_t tile_seg;   /* the segment length of its launches (tile_segment) */
    ls_kernel *group_2d;     /* the group shape's 2D walk (group_kernel_name), or NULL */
    uint64_t group_2d_wave;  /* groups of one wave of it */
} life_kernels;

/* The group shape's 2D walk into ks->group_2d (NULL where it does not
 * run) and the groups of one wave of it (ks->info first). */
static int find_group_2d(life_gpu_state *st, life_rule r, const char *defines, life_kernels *ks, ls_error *err)
{
    const char *name = group_kernel_name(st, &ks->info, r);
    uint32_t per_unit = 1;
    ks->group_2d = NULL;
    if (name && (life_kernel(st, defines, name, &ks->group_2d, err) != 0 ||
                 ls_gpu_groups_per_unit(st->s, ks->group_2d, LIFE_GROUP_2D_ITEMS, LIFE_GROUP_2D_LOCAL_BYTES,
                                        &per_unit, err) != 0))
        return -1;
    ks->group_2d_wave = (uint64_t)ks->info.compute_units * per_unit;
    return 0;
}

/* The grid st holds, without cells (life_cpu.h's measure of the host's
 * work). */
static void host_grid(const life_gpu_state *st, life_grid *g)
{
    life_grid_shape(g, st->dims, (st->row_words - 1u) * 32u + st->last_bits, st->ny, st->nz);
    g->bounded = st->bounded;
}

/* The host's kernels: its generations, and nothing else; and its row
 * sums, made once (at the first launch, which looks the kernels up before
 * anything is timed). */
static int find_host_kernels(life_gpu_state *st, life_kernels *ks, ls_error *err)
{
    ks->two = ks->many = ks->tile = ks->group_2d = NULL;
    ks->many_gens = 1;
    ks->margin = 0;
    ks->wave = ks->tile_wave = ks->group_2d_wave = 0;
    ks->tile_seg = 0;
    life_grid g;
    host_grid(st, &g);
    if (!st->sums && ls_gpu_alloc(st->s, life_cpu_scratch_bytes(&g), "the row sums of Life's threads", &st->sums,
                                  err) != 0)
        return -1;
    return ls_gpu_kernel(st->s, "life", "life_host_steps", &ks->one, err);
}

static int find_kernels(life_gpu_state *st, life_rule r, life_kernels *ks, ls_error *err)
{
    ls_gpu_info_of(st->s, &ks->info);
    ks->group = group_size(&ks->info);
    if (host_shaped(&ks->info))
        return find_host_kernels(st, ks, err);
    /* The CPU shape's kernels: one generation a launch, and in 2D
     * LIFE_CPU_2D_GENS where they can. */
    int cpu = cpu_shaped(&ks->info);
    const char *two_name = cpu ? NULL : two_kernel_name(st, r, ks->group);
    const char *many_name = cpu ? cpu_many_kernel_name(st, r) : many_kernel_name(st, &ks->info, r, ks->group);
    const char *tile_name = cpu ? NULL : tile_kernel_name(st, &ks->info, r);
    char buf[192], tile_buf[224];
    const char *defines = rule_defines(st, &ks->info, r, !rule_args_forced(), buf, sizeof buf);
    uint32_t per_unit = 1, tile_per_unit = 1; /* groups of the many-generation kernels a compute unit holds */
    ks->two = NULL;
    ks->many = NULL;
    ks->tile = NULL;
    if (find_group_2d(st, r, defines, ks, err) != 0 ||
        life_kernel(st, defines, kernel_name(st, &ks->info, r), &ks->one, err) != 0 ||
        (two_name && life_kernel(st, defines, two_name, &ks->two, err) != 0) ||
        (many_name && life_kernel(st, defines, many_name, &ks->many, err) != 0) ||
        (tile_name && life_kernel(st, tile_defines(&ks->info, defines, tile_buf, sizeof tile_buf), tile_name,
                                  &ks->tile, err) != 0) ||
        (ks->many && ls_gpu_groups_per_unit(st->s, ks->many, ks->group, 0, &per_unit, err) != 0) ||
        (ks->tile &&
         ls_gpu_groups_per_unit(st->s, ks->tile, LIFE_TILE_GROUP, tile_local_bytes(st, &ks->info), &tile_per_unit,
                                err) != 0))
        return -1;
    ks->margin = life_many_margin(st);
    ks->many_gens = cpu ? LIFE_CPU_2D_GENS : LIFE_2D_GENS;
    ks->wave = (uint64_t)ks->info.compute_units * per_unit * ks->group;
    ks->tile_wave = (uint64_t)ks->info.compute_units * tile_per_unit;
    ks->tile_seg = ks->tile ? tile_segment(tile_count(st), st->nz, ks->tile_wave) : 0u;
    return 0;
}

/* LIFE_GPU_3D_DEPTH generations from st->cur into st->next with the tile
 * walk k: a group a tile of rows and a segment of planes (ks->tile_seg). */
static int launch_tile(life_gpu_state *st, const life_kernels *ks, life_rule r, ls_error *err)
{
    uint32_t birth = r.birth, survive = r.survive;
    uint32_t tiles = tile_count(st), seg = ks->tile_seg;
    ls_arg args[] = {LS_ARG_BUF(st->cur), LS_ARG_BUF(st->next), LS_ARG(st->row_words), LS_ARG(st->ny),
                     LS_ARG(st->nz), LS_ARG(st->last_bits), LS_ARG(seg), LS_ARG(tiles), LS_ARG(birth),
                     LS_ARG(survive)};
    ls_launch l = {(uint64_t)tiles * ((st->nz + seg - 1) / seg), LIFE_TILE_GROUP, tile_local_bytes(st, &ks->info), 0,
                   args, (int)(sizeof args / sizeof args[0])};
    return ls_gpu_launch(st->s, ks->tile, &l, err);
}

/* LIFE_GROUP_2D_GENS generations from st->cur into st->next with the
 * group shape's 2D walk: a group a run of LIFE_GROUP_2D_COLS words (of
 * which COLS - 2 margin are its own) and a segment of rows, the segments
 * as long as one wave of groups allows on a GPU (a segment's walk starts
 * with 2 GENS rows of warm-up and GENS steps of pipeline), as
 * launch_tile's. */
static int launch_group_2d(life_gpu_state *st, const life_kernels *ks, life_rule r, ls_error *err)
{
    uint32_t birth = r.birth, survive = r.survive;
    uint32_t margin = life_walk_margin(st, LIFE_GROUP_2D_GENS), width = LIFE_GROUP_2D_COLS - 2 * margin;
    uint32_t runs = (st->row_words + width - 1) / width;
    uint64_t wave = ks->group_2d_wave;
    uint64_t target = ks->info.is_gpu ? (wave < runs ? runs : wave / runs * runs)
                                      : (uint64_t)ks->info.compute_units * 2u;
    uint32_t seg = segment_length(runs, st->ny, target);
    ls_arg args[] = {LS_ARG_BUF(st->cur), LS_ARG_BUF(st->next), LS_ARG(st->row_words), LS_ARG(st->ny),
                     LS_ARG(st->last_bits), LS_ARG(seg), LS_ARG(runs), LS_ARG(birth), LS_ARG(survive),
                     LS_ARG(margin)};
    ls_launch l = {(uint64_t)runs * ((st->ny + seg - 1) / seg), LIFE_GROUP_2D_ITEMS, LIFE_GROUP_2D_LOCAL_BYTES, 0,
                   args, (int)(sizeof args / sizeof args[0])};
    return ls_gpu_launch(st->s, ks->group_2d, &l, err);
}

/* LIFE_CPU_2D_GENS generations from st->cur into st->next with the CPU
 * shape's walk of several (ks->many): a work-item a run of
 * LIFE_CPU_LANES_DEFAULT words storing all but its two end words, and a
 * segment of rows, as many as LIFE_ITEMS_CPU work-items a compute unit
 * allow but at least LIFE_CPU_MANY_SEGMENT rows: a segment reads 4
 * LIFE_CPU_2D_GENS - 2 rows more than it stores. */
#define LIFE_CPU_MANY_SEGMENT (32u * LIFE_CPU_2D_GENS)
static int launch_cpu_many(life_gpu_state *st, const life_kernels *ks, life_rule r, ls_error *err)
{
    uint32_t birth = r.birth, survive = r.survive;
    uint64_t columns = (st->row_words + LIFE_CPU_LANES_DEFAULT - 3) / (LIFE_CPU_LANES_DEFAULT - 2);
    uint32_t seg = segment_length(columns, st->ny, (uint64_t)ks->info.compute_units * LIFE_ITEMS_CPU);
    if (seg < LIFE_CPU_MANY_SEGMENT)
        seg = LIFE_CPU_MANY_SEGMENT < st->ny ? LIFE_CPU_MANY_SEGMENT : st->ny;
    uint32_t items = (uint32_t)(columns * ((st->ny + seg - 1) / seg));
    ls_arg args[] = {LS_ARG_BUF(st->cur), LS_ARG_BUF(st->next), LS_ARG(st->row_words), LS_ARG(st->ny),
                     LS_ARG(st->last_bits), LS_ARG(seg), LS_ARG(items), LS_ARG(birth), LS_ARG(survive)};
    ls_launch l = {(items + ks->group - 1) / ks->group, ks->group, 0, 0, args, (int)(sizeof args / sizeof args[0])};
    return ls_gpu_launch(st->s, ks->many, &l, err);
}

/* `steps` generations of st->cur on the host (life_host.h's
 * life_host_steps): a call over the whole grid, which spreads each
 * generation over the host's threads itself, ping-ponging between st->cur
 * and st->next; where their count is odd the last is in st->next, which
 * becomes st->cur, as after a GPU's launch. All of them in one launch: a
 * launch more would start and join the threads once more, and on a busy
 * machine a thread the scheduler has not woken holds up every other
 * (issue 34). */
static int launch_host(life_gpu_state *st, const life_kernels *ks, life_rule r, uint64_t steps, ls_error *err)
{
    uint32_t birth = r.birth, survive = r.survive, dims = st->dims, bounded = (uint32_t)st->bounded;
    for (uint64_t left = steps; left > 0;) {
        uint32_t gens = left < UINT32_MAX ? (uint32_t)left : UINT32_MAX;
        ls_arg args[] = {LS_ARG_BUF(st->cur), LS_ARG_BUF(st->next), LS_ARG(st->row_words), LS_ARG(st->ny),
                         LS_ARG(st->nz), LS_ARG(st->last_bits), LS_ARG(dims), LS_ARG(bounded), LS_ARG(birth),
                         LS_ARG(survive), LS_ARG(gens), LS_ARG_BUF(st->sums)};
        _Static_assert(sizeof args / sizeof args[0] == LIFE_HOST_STEPS_ARGS, "life_host.h's arguments");
        ls_launch l = {1, 1, 0, 0, args, LIFE_HOST_STEPS_ARGS};
        if (ls_gpu_launch(st->s, ks->one, &l, err) != 0)
            return -1;
        if (gens % 2 == 1) {
            ls_buf *t = st->cur;
            st->cur = st->next;
            st->next = t;
        }
        left -= gens;
    }
    return 0;
}

/* Queues `steps` generations with the kernels ks: ks->many_gens (2D;
 * LIFE_GROUP_2D_GENS with the group shape's walk) or LIFE_GPU_3D_DEPTH
 * (3D) a launch while that many are left, then two, then one; on the host
 * launch_host's. */
static int launch_steps(life_gpu_state *st, const life_kernels *ks, life_rule r, uint64_t steps, ls_error *err)
{
    if (host_shaped(&ks->info))
        return launch_host(st, ks, r, steps, err);
    for (uint64_t i = 0, gens; i < steps; i += gens) {
        uint64_t left = steps - i;
        int tile = ks->tile && left >= LIFE_GPU_3D_DEPTH;
        int group_2d = ks->group_2d && left >= LIFE_GROUP_2D_GENS;
        gens = group_2d                               ? LIFE_GROUP_2D_GENS
               : tile                              ? LIFE_GPU_3D_DEPTH
               : ks->many && left >= ks->many_gens ? ks->many_gens
               : ks->two && left >= 2              ? 2
                                                   : 1;
        ls_kernel *k = gens > 2 ? ks->many : gens == 2 ? ks->two : ks->one;
        int rc = group_2d                              ? launch_group_2d(st, ks, r, err)
                 : tile                                ? launch_tile(st, ks, r, err)
                 : gens > 2 && cpu_shaped(&ks->info) ? launch_cpu_many(st, ks, r, err)
                                                       : launch_step(st, k, (uint32_t)gens, ks->margin, ks->group,
                                                                     &ks->info, ks->wave, r, err);
        if (rc != 0)
            return -1;
        ls_buf *t = st->cur;
        st->cur = st->next;
        st->next = t;
    }
    return 0;
}

int life_gpu_launch(life_gpu_state *st, life_rule r, uint64_t steps, ls_error *err)
{
    life_kernels ks;
    if (find_kernels(st, r, &ks, err) != 0)
        return -1;
    return launch_steps(st, &ks, r, steps, err);
}

int life_gpu_steps(life_gpu_state *st, life_rule r, uint64_t steps, double *seconds, ls_error *err)
{
    life_kernels ks;
    if (find_kernels(st, r, &ks, err) != 0 || ls_gpu_timer_start(st->s, err) != 0 ||
        launch_steps(st, &ks, r, steps, err) != 0)
        return -1;
    return ls_gpu_timer_stop(st->s, steps, seconds, err);
}

/* Bytes of one plane along the cut axis: a plane of rows in 3D, a row in 2D. */
static size_t plane_bytes(const life_gpu_state *st)
{
    return (size_t)st->row_words * (st->dims == 3 ? st->ny : 1u) * sizeof(uint32_t);
}

int life_gpu_read_planes(life_gpu_state *st, uint32_t first, uint32_t count, void *dst, ls_error *err)
{
    size_t pb = plane_bytes(st);
    return ls_gpu_read(st->cur, first * pb, dst, count * pb, err);
}

int life_gpu_write_planes(life_gpu_state *st, uint32_t first, uint32_t count, const void *src, ls_error *err)
{
    size_t pb = plane_bytes(st);
    return ls_gpu_write(st->cur, 0, first * pb, src, count * pb, err);
}

int life_gpu_can_copy(const life_gpu_state *dst, const life_gpu_state *src)
{
    return dst->s->backend == src->s->backend && ls_device_supports(dst->s, LS_CAP_COPY, NULL, 0) &&
           ls_device_supports(src->s, LS_CAP_COPY, NULL, 0);
}

int life_gpu_planes_to(life_gpu_state *src, uint32_t first, uint32_t count, ls_buf *dst, ls_error *err)
{
    size_t pb = plane_bytes(src);
    return ls_gpu_copy(dst, 0, src->cur, first * pb, count * pb, err);
}

int life_gpu_planes_from(life_gpu_state *dst, uint32_t first, uint32_t count, ls_buf *src, ls_error *err)
{
    size_t pb = plane_bytes(dst);
    return ls_gpu_copy(dst->cur, first * pb, src, 0, count * pb, err);
}

int life_gpu_copy_planes(life_gpu_state *dst, uint32_t dst_first, life_gpu_state *src, uint32_t src_first,
                         uint32_t count, ls_error *err)
{
    size_t pb = plane_bytes(dst);
    return ls_gpu_copy(dst->cur, dst_first * pb, src->cur, src_first * pb, count * pb, err);
}

/* Rows of cells in one plane along the slowest axis. */
static uint32_t plane_rows(const life_gpu_state *st)
{
    return st->dims == 3 ? st->ny : 1u;
}

int life_gpu_fill(life_gpu_state *st, uint32_t first, uint32_t count, uint64_t row0, uint32_t nx, uint64_t seed,
                  double density, ls_error *err)
{
    ls_gpu_info info;
    ls_gpu_info_of(st->s, &info);
    uint32_t group = group_size(&info);
    uint64_t off = (uint64_t)first * plane_rows(st) * st->row_words;
    uint64_t words = (uint64_t)count * plane_rows(st) * st->row_words;
    /* A few waves of groups a compute unit; the kernel strides over the rest. */
    uint64_t groups = (words + group - 1) / group, most = (uint64_t)info.compute_units * 64u;
    groups = groups < most ? groups : most;
    uint32_t row0_lo = (uint32_t)row0, row0_hi = (uint32_t)(row0 >> 32), off_lo = (uint32_t)off,
             off_hi = (uint32_t)(off >> 32), words_lo = (uint32_t)words, words_hi = (uint32_t)(words >> 32),
             seed_lo = (uint32_t)seed, seed_hi = (uint32_t)(seed >> 32), threshold = life_fill_threshold(density);
    ls_arg args[] = {LS_ARG_BUF(st->cur), LS_ARG(st->row_words), LS_ARG(nx),       LS_ARG(st->last_bits),
                     LS_ARG(row0_lo),     LS_ARG(row0_hi),       LS_ARG(off_lo),   LS_ARG(off_hi),
                     LS_ARG(words_lo),    LS_ARG(words_hi),      LS_ARG(seed_lo),  LS_ARG(seed_hi),
                     LS_ARG(threshold)};
    ls_launch l = {groups ? groups : 1, group, 0, 0, args, (int)(sizeof args / sizeof args[0])};
    ls_kernel *k;
    if (ls_gpu_kernel(st->s, "life", "life_fill", &k, err) != 0)
        return -1;
    return ls_gpu_launch(st->s, k, &l, err);
}

int life_gpu_fetch(life_gpu_state *st, life_grid *g, ls_error *err)
{
    return ls_gpu_read(st->cur, 0, g->words, g->nwords * sizeof(uint32_t), err);
}

int life_gpu_host_threads(const life_gpu_state *st)
{
    ls_gpu_info info;
    ls_gpu_info_of(st->s, &info);
    if (!host_shaped(&info))
        return 0;
    life_grid shape;
    host_grid(st, &shape);
    return life_cpu_threads_for(&shape);
}

void life_gpu_stop(life_gpu_state *st)
{
    if (!st)
        return;
    ls_gpu_free(st->cur);
    ls_gpu_free(st->next);
    ls_gpu_free(st->sums);
    free(st);
}
