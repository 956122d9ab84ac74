/* graveler_kernels.h - Graveler on GPUs, written once for OpenCL and CUDA
 * (src/kernels/dialect.h); the battle is src/algo/graveler.h.
 *
 *  graveler_private: every work-item keeps its own 16-bit counters in
 *    local memory (hist[bin * group_size + lid]), so no two items ever
 *    touch the same counter and no atomics are needed; at the end the
 *    group sums the counters bin by bin into its own row of `partial`. An
 *    item plays at most GRV_GPU_MAX_STREAMS streams per launch, so a
 *    counter stays below 2^16. Used when (turns + 1) * group_size counters
 *    fit in local memory.
 *  graveler_shared: one 32-bit counter per bin per group with local
 *    atomics, for long battles whose private counters would not fit.
 *
 * partial[group * bins + b] accumulates across launches (64-bit); the host
 * sums the groups' rows at the end. Work-item gid plays streams
 * stream0 + gid, stream0 + gid + global size, ... below stream0 + nstreams,
 * counting battles with index in [lo, hi).
 *
 * The CPU kernel shape (src/shape.h) has its own two kernels of the same
 * names and roles, at the end of this file: there a work-item plays
 * GRV_CPU_LANES streams at once in vector lanes, each lane with its own
 * counters in graveler_private, and takes its blocks of streams from a
 * counter of the launch (one argument more, after `partial`). */
#include "dialect.h"
#if LS_SHAPE == LS_SHAPE_CPU
/* The CPU shape (PoCL, Intel's CPU runtime): a group is a loop over its
 * work-items on one core, and PoCL vectorizes that loop only where its
 * body has no loop of its own, which a battle's has: one work-item a
 * stream ran one scalar MWC step at a time, 8.5x OpenMP's time. Here a
 * work-item plays GRV_CPU_LANES streams side by side in one OpenCL
 * vector, as OpenMP's graveler_simd.c does in its registers: the same
 * battle (graveler.h) on 16 lanes of 64 bits, where a step is the
 * widening multiply of the low halves (vpmuludq). Successes are counted
 * per byte (a byte gains at most 8 a fold, so 31 folds stay below 256)
 * and the bytes of a lane summed once a battle, as graveler_simd.c's
 * AVX2 copy does: OpenCL's popcount of 64-bit lanes, where the target
 * lacks a vector popcount (PoCL names this AMD EPYC skylake-avx512),
 * went through 128-bit pieces and cost more than these shifts and masks. */
#define GRV_LANE ulong16
#define GRV_LANE_ZERO ((ulong16)(0u))
#define GRV_ACC ulong16
#define GRV_ACC_ZERO ((ulong16)(0u))
LS_DEVICE ulong16 grv_bytecount(ulong16 v)
{
    v = v - ((v >> 1) & 0x5555555555555555ul);
    v = (v & 0x3333333333333333ul) + ((v >> 2) & 0x3333333333333333ul);
    return (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Ful;
}
/* The sum of each lane's 8 byte counts (at most 31 * 64 = 1984): bytes
 * to 16-bit sums, then the four summed into the top 16 bits. */
LS_DEVICE ulong16 grv_bytesum(ulong16 v)
{
    v = (v & 0x00FF00FF00FF00FFul) + ((v >> 8) & 0x00FF00FF00FF00FFul);
    return (v * 0x0001000100010001ul) >> 48;
}
#define GRV_ACC_ADD(acc, w) ((acc) + grv_bytecount((w) & 0xFFFFFFFFul))
#define GRV_ACC_ADD2(acc, w1, w2) ((acc) + grv_bytecount(((w1) & 0xFFFFFFFFul) | ((w2) << 32)))
#define GRV_ACC_TOTAL(acc) grv_bytesum(acc)
#define GRV_ACC_MAX_WORDS 31u
#endif
/* A step's addend is a register pair (carry, 0), and in the unrolled
 * battle of the default turn count ptxas makes the 0 afresh every step
 * (an IMAD.MOV on the multiply pipe that the step's IMAD.WIDE saturates)
 * unless the high word is a value it cannot make. So that path ORs in
 * grv_mwc.hi = the local id shifted right by 16 (local ids stay far below
 * 2^16 on every device), zero at run time: on sm_90 its loop issues 718
 * instructions for 150 steps, not 769, and 1e9 battles take 3.85 ms, not
 * 3.97 (NVIDIA OpenCL 3.81, not 4.02; docs/perf/2026-11-24-h200-graveler-
 * addend.log). The other turn counts' rolled loop gains nothing from it
 * (it was 2-6% slower with it): hi is a constant 0 there, folded away. */
#define GRV_MWC_HI
#include "graveler.h"

/* How far the 64-battle loop is unrolled, on NVIDIA only, where it was
 * measured. On the H200, 1e9 battles: 4.028 ms at 4, 3.966 at 8, 3.996
 * at 16 through CUDA; 4.014, 4.009, 3.969 through NVIDIA's OpenCL
 * (docs/perf/2026-11-24-h200-graveler-unroll.log; 1 and 2 were slower
 * still). With the opaque zero above, CUDA: 3.98 ms at 4, 3.85 at 8,
 * 3.82 at 16 (docs/perf/2026-11-24-h200-graveler-addend.log): 16 through
 * CUDA, 8 through NVIDIA's OpenCL (3.81 ms there).
 * Elsewhere the compiler chooses. The loop's body is the whole battle,
 * itself unrolled in the default-turns copy, and a compiler is free to
 * take an unroll pragma as a demand: Intel's OpenCL CPU compiler, asked
 * to unroll that 8 times, never finished building the program (LLVM's
 * scalar evolution recursing while it unrolled, memory growing without
 * bound; docs/perf/2026-11-28-intel-opencl-builds.log). */
#if defined(__CUDACC__) || defined(LS_NV_PTX)
#ifndef GRV_UNROLL
#ifdef __CUDACC__
#define GRV_UNROLL 16
#else
#define GRV_UNROLL 8
#endif
#endif
#define GRV_PRAGMA_(x) _Pragma(#x)
#define GRV_PRAGMA(x) GRV_PRAGMA_(x)
#define GRV_UNROLL_BATTLES GRV_PRAGMA(unroll GRV_UNROLL)
#else
#define GRV_UNROLL_BATTLES
#endif

#if LS_SHAPE != LS_SHAPE_CPU
/* Inlined into the kernel twice: once with the default turn count as a
 * constant, which lets the compiler unroll the battle, once generic. */
LS_DEVICE void grv_play_private(ls_u64 seed, ls_u64 stream0, ls_u64 nstreams, ls_u64 lo, ls_u64 hi, ls_u32 turns,
                                int opaque_hi, LS_LOCAL ls_u16 *hist)
{
    const ls_u32 lid = ls_lid(), wg = ls_lsize();
    const ls_u64 stride = ls_gsize();
    for (ls_u64 s = stream0 + ls_gid(); s < stream0 + nstreams; s += stride) {
        grv_mwc x;
        x.s = grv_stream_state(seed, s);
        x.hi = opaque_hi ? (ls_u64)(lid >> 16) << 32 : 0u;
        ls_u64 b0 = s * GRV_BATTLES_PER_STREAM;
        if (b0 >= lo && b0 + GRV_BATTLES_PER_STREAM <= hi) {
            GRV_UNROLL_BATTLES
            for (ls_u32 j = 0; j < GRV_BATTLES_PER_STREAM; j++)
                hist[grv_battle(&x, turns) * wg + lid]++;
        } else {
            for (ls_u32 j = 0; j < GRV_BATTLES_PER_STREAM; j++) {
                ls_u32 c = grv_battle(&x, turns);
                if (b0 + j >= lo && b0 + j < hi)
                    hist[c * wg + lid]++;
            }
        }
    }
}

LS_KERNEL void graveler_private(ls_u64 seed, ls_u64 stream0, ls_u64 nstreams, ls_u64 lo, ls_u64 hi, ls_u32 turns,
                                LS_GLOBAL ls_u64 *partial LS_DYNAMIC_LOCAL_PARAM(ls_u16, hist))
{
    LS_DYNAMIC_LOCAL(ls_u16, hist);
    const ls_u32 lid = ls_lid(), wg = ls_lsize(), bins = turns + 1u;
    for (ls_u32 i = lid; i < bins * wg; i += wg)
        hist[i] = 0;
    ls_barrier();
    if (turns == GRV_DEFAULT_TURNS)
        grv_play_private(seed, stream0, nstreams, lo, hi, GRV_DEFAULT_TURNS, 1, hist);
    else
        grv_play_private(seed, stream0, nstreams, lo, hi, turns, 0, hist);
    ls_barrier();
    LS_GLOBAL ls_u64 *row = partial + ls_group() * bins;
    for (ls_u32 b = lid; b < bins; b += wg) {
        ls_u32 sum = 0;
        for (ls_u32 t = 0; t < wg; t++)
            sum += hist[b * wg + t];
        row[b] += sum;
    }
}

LS_KERNEL void graveler_shared(ls_u64 seed, ls_u64 stream0, ls_u64 nstreams, ls_u64 lo, ls_u64 hi, ls_u32 turns,
                               LS_GLOBAL ls_u64 *partial LS_DYNAMIC_LOCAL_PARAM(ls_u32, hist))
{
    LS_DYNAMIC_LOCAL(ls_u32, hist);
    const ls_u32 lid = ls_lid(), wg = ls_lsize(), bins = turns + 1u;
    const ls_u64 stride = ls_gsize();
    for (ls_u32 i = lid; i < bins; i += wg)
        hist[i] = 0;
    ls_barrier();
    for (ls_u64 s = stream0 + ls_gid(); s < stream0 + nstreams; s += stride) {
        grv_mwc x;
        x.s = grv_stream_state(seed, s);
        x.hi = 0u;
        ls_u64 b0 = s * GRV_BATTLES_PER_STREAM;
        for (ls_u32 j = 0; j < GRV_BATTLES_PER_STREAM; j++) {
            ls_u32 c = grv_battle(&x, turns);
            if (b0 + j >= lo && b0 + j < hi)
                ls_atomic_inc_local(&hist[c]);
        }
    }
    ls_barrier();
    LS_GLOBAL ls_u64 *row = partial + ls_group() * bins;
    for (ls_u32 b = lid; b < bins; b += wg)
        row[b] += hist[b];
}

#else /* LS_SHAPE == LS_SHAPE_CPU */
#if GRV_CPU_LANES != 16
#error "the CPU shape's lanes are an ulong16"
#endif

/* The starting states of the streams s0 .. s0 + 15, one a lane. */
LS_DEVICE grv_mwc grv_lanes_start(ls_u64 seed, ls_u64 s0)
{
    ls_u64 init[GRV_CPU_LANES];
    for (ls_u32 l = 0; l < GRV_CPU_LANES; l++)
        init[l] = grv_stream_state(seed, s0 + l);
    grv_mwc x;
    x.s = vload16(0, init);
    x.hi = GRV_LANE_ZERO;
    return x;
}

/* Counts battle result c of lane l: at hist[c * rows + l] (the lane's own
 * counter, hist offset to the work-item's first lane), or, for
 * graveler_shared, at shared[c] by a local atomic. */
LS_DEVICE void grv_count_lane(LS_LOCAL ls_u16 *hist, ls_u32 rows, LS_LOCAL ls_u32 *shared, int use_shared,
                              ls_u64 c, ls_u32 l)
{
    if (use_shared)
        ls_atomic_inc_local(&shared[c]);
    else
        hist[(ls_u32)c * rows + l]++;
}

/* Plays the block of GRV_CPU_LANES streams from s0: lanes past `end`
 * play but do not count, nor do battles outside [lo, hi). A block wholly
 * inside counts without a test a lane (all but the first and last of a
 * range). Inlined for each kernel and turn count, so use_shared and turns
 * are constants there. */
LS_DEVICE void grv_play_block(ls_u64 seed, ls_u64 s0, ls_u64 end, ls_u64 lo, ls_u64 hi, ls_u32 turns,
                              LS_LOCAL ls_u16 *hist, ls_u32 rows, LS_LOCAL ls_u32 *shared, int use_shared)
{
    grv_mwc x = grv_lanes_start(seed, s0);
    const ls_u64 b0 = s0 * GRV_BATTLES_PER_STREAM;
    const int whole = s0 + GRV_CPU_LANES <= end && b0 >= lo && b0 + GRV_CPU_LANES * GRV_BATTLES_PER_STREAM <= hi;
    for (ls_u32 j = 0; j < GRV_BATTLES_PER_STREAM; j++) {
        ls_u64 c[GRV_CPU_LANES];
        vstore16(grv_battle(&x, turns), 0, c);
        if (whole) {
            for (ls_u32 l = 0; l < GRV_CPU_LANES; l++)
                grv_count_lane(hist, rows, shared, use_shared, c[l], l);
            continue;
        }
        for (ls_u32 l = 0; l < GRV_CPU_LANES; l++) {
            ls_u64 b = b0 + (ls_u64)l * GRV_BATTLES_PER_STREAM + j;
            if (s0 + l < end && b >= lo && b < hi)
                grv_count_lane(hist, rows, shared, use_shared, c[l], l);
        }
    }
}

/* Plays blocks of the launch's streams, block k being the GRV_CPU_LANES
 * streams from stream0 + 16k, as long as the launch's counter `next`
 * hands out blocks, GRV_CPU_GRAB at a time: a core that runs ahead takes
 * more of them, so all cores finish a launch within a grab of each other
 * whatever their speeds, where a fixed share a work-item (blocks gid, gid
 * + global size, ...) left every core waiting for the slowest one's last
 * groups. Which work-item plays a block changes no result. At most
 * GRV_CPU_MAX_GRABS grabs (the counters' bound); the host gives a launch
 * half the blocks its work-items could take, so they always finish it. */
LS_DEVICE void grv_play_lanes(ls_u64 seed, ls_u64 stream0, ls_u64 nstreams, ls_u64 lo, ls_u64 hi, ls_u32 turns,
                              LS_GLOBAL ls_u32 *next, LS_LOCAL ls_u16 *hist, ls_u32 rows, LS_LOCAL ls_u32 *shared,
                              int use_shared)
{
    const ls_u64 end = stream0 + nstreams;
    const ls_u32 blocks = (ls_u32)((nstreams + GRV_CPU_LANES - 1u) / GRV_CPU_LANES);
    for (ls_u32 g = 0; g < GRV_CPU_MAX_GRABS; g++) {
        const ls_u32 first = ls_atomic_add_global(next, GRV_CPU_GRAB);
        if (first >= blocks)
            return;
        const ls_u32 last = blocks - first < GRV_CPU_GRAB ? blocks : first + GRV_CPU_GRAB;
        for (ls_u32 k = first; k < last; k++)
            grv_play_block(seed, stream0 + (ls_u64)k * GRV_CPU_LANES, end, lo, hi, turns, hist, rows, shared,
                           use_shared);
    }
}

/* Each lane of each work-item has its own 16-bit counters (rows = group
 * size * 16 of them a bin); a work-item plays at most GRV_GPU_MAX_STREAMS
 * blocks a launch, so a counter stays below 2^16. `next` is the launch's
 * block counter, zero when it starts. */
LS_KERNEL void graveler_private(ls_u64 seed, ls_u64 stream0, ls_u64 nstreams, ls_u64 lo, ls_u64 hi, ls_u32 turns,
                                LS_GLOBAL ls_u64 *partial, LS_GLOBAL ls_u32 *next LS_DYNAMIC_LOCAL_PARAM(ls_u16, hist))
{
    LS_DYNAMIC_LOCAL(ls_u16, hist);
    const ls_u32 lid = ls_lid(), rows = ls_lsize() * GRV_CPU_LANES, bins = turns + 1u;
    LS_LOCAL ls_u16 *mine = hist + lid * GRV_CPU_LANES;
    for (ls_u32 i = lid; i < bins * rows; i += ls_lsize())
        hist[i] = 0;
    ls_barrier();
    if (turns == GRV_DEFAULT_TURNS)
        grv_play_lanes(seed, stream0, nstreams, lo, hi, GRV_DEFAULT_TURNS, next, mine, rows, 0, 0);
    else
        grv_play_lanes(seed, stream0, nstreams, lo, hi, turns, next, mine, rows, 0, 0);
    ls_barrier();
    LS_GLOBAL ls_u64 *row = partial + ls_group() * bins;
    for (ls_u32 b = lid; b < bins; b += ls_lsize()) {
        ls_u64 sum = 0;
        for (ls_u32 r = 0; r < rows; r++)
            sum += hist[b * rows + r];
        row[b] += sum;
    }
}

/* One 32-bit counter per bin per group, by local atomics: for long
 * battles whose lanes' counters would not fit in local memory. */
LS_KERNEL void graveler_shared(ls_u64 seed, ls_u64 stream0, ls_u64 nstreams, ls_u64 lo, ls_u64 hi, ls_u32 turns,
                               LS_GLOBAL ls_u64 *partial, LS_GLOBAL ls_u32 *next LS_DYNAMIC_LOCAL_PARAM(ls_u32, hist))
{
    LS_DYNAMIC_LOCAL(ls_u32, hist);
    const ls_u32 lid = ls_lid(), bins = turns + 1u;
    for (ls_u32 i = lid; i < bins; i += ls_lsize())
        hist[i] = 0;
    ls_barrier();
    grv_play_lanes(seed, stream0, nstreams, lo, hi, turns, next, 0, 0, hist, 1);
    ls_barrier();
    LS_GLOBAL ls_u64 *row = partial + ls_group() * bins;
    for (ls_u32 b = lid; b < bins; b += ls_lsize())
        row[b] += hist[b];
}
#endif

#define LS_PROGRAM_KERNELS(X) X(graveler_private) X(graveler_shared)
