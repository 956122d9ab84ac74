/* graveler_kernels.h - Graveler on GPUs, written once for OpenCL and CUDA
 * (src/kernels/dialect.h); the battle is src/algo/graveler.h.
 *
 *  graveler_private: every work-item keeps its own 16-bit counters in
 *    local memory for a window of bins around the mean (hist[(c - win_lo) *
 *    group_size + lid]), so no two items ever touch the same counter and
 *    no atomics are needed; a count outside the window (beyond 7 standard
 *    deviations: about one battle in 4e11) goes to the group's shared
 *    32-bit counters with a local atomic. At the end the group sums both
 *    into its own row of `partial`. An item plays at most
 *    GRV_GPU_MAX_STREAMS streams per launch, so a counter stays below
 *    2^16. The window, not all turns + 1 bins, is what sets how many items
 *    fit on a compute unit, and the battle's generator is a chain of
 *    dependent multiplies: more items resident hide its latency. An item
 *    also plays GRV_ILP streams at once, interleaved, for the same reason.
 *    Used when the window's counters fit in local memory.
 *  graveler_shared: one 32-bit counter per bin per group with local
 *    atomics, for long battles whose private counters would not fit.
 *
 * partial[group * bins + b] accumulates across launches (64-bit); the host
 * sums the groups' rows at the end. Work-item gid plays streams
 * stream0 + gid, stream0 + gid + global size, ... below stream0 + nstreams,
 * counting battles with index in [lo, hi). */
#include "dialect.h"
#include "graveler.h"

/* How far the 64-battle loop is unrolled: 4 measured fastest of 1, 2, 4 on
 * the H200 (docs/perf/). */
#ifndef GRV_UNROLL
#define GRV_UNROLL 4
#endif
/* Streams a work-item plays at once (1 or 2). */
#ifndef GRV_ILP
#define GRV_ILP 2
#endif
#define GRV_PRAGMA_(x) _Pragma(#x)
#define GRV_PRAGMA(x) GRV_PRAGMA_(x)

/* Counts one battle of c successes: in the item's own window counter, or
 * (rarely) in the group's shared counter of bin c. */
LS_DEVICE void grv_count(LS_LOCAL ls_u16 *hist, LS_LOCAL ls_u32 *outside, ls_u32 c, ls_u32 win_lo, ls_u32 nwin,
                         ls_u32 wg, ls_u32 lid)
{
    ls_u32 k = c - win_lo; /* wraps below the window */
    if (k < nwin)
        hist[k * wg + lid]++;
    else
        ls_atomic_inc_local(&outside[c]);
}

/* Plays the 64 battles of one stream, counting those with index in
 * [lo, hi). */
LS_DEVICE void grv_play_stream(ls_u64 seed, ls_u64 s, ls_u64 lo, ls_u64 hi, ls_u32 turns, LS_LOCAL ls_u16 *hist,
                               LS_LOCAL ls_u32 *outside, ls_u32 win_lo, ls_u32 nwin, ls_u32 wg, ls_u32 lid)
{
    grv_mwc x;
    x.s = grv_stream_state(seed, s);
    ls_u64 b0 = s * GRV_BATTLES_PER_STREAM;
    for (ls_u32 j = 0; j < GRV_BATTLES_PER_STREAM; j++) {
        ls_u32 c = grv_battle(&x, turns);
        if (b0 + j >= lo && b0 + j < hi)
            grv_count(hist, outside, c, win_lo, nwin, wg, lid);
    }
}

/* Inlined into the kernel twice: once with the default turn count as a
 * constant, which lets the compiler unroll the battle, once generic. The
 * streams of whole ranges (all but at most two of a launch) take the fast
 * path: GRV_ILP streams interleaved battle by battle, no range test. */
LS_DEVICE void grv_play_private(ls_u64 seed, ls_u64 stream0, ls_u64 nstreams, ls_u64 lo, ls_u64 hi, ls_u32 turns,
                                LS_LOCAL ls_u16 *hist, LS_LOCAL ls_u32 *outside, ls_u32 win_lo, ls_u32 nwin)
{
    const ls_u32 lid = ls_lid(), wg = ls_lsize();
    const ls_u64 stride = ls_gsize(), end = stream0 + nstreams;
    ls_u64 s = stream0 + ls_gid();
    for (; s + (GRV_ILP - 1) * stride < end; s += GRV_ILP * stride) {
        ls_u64 s_last = s + (GRV_ILP - 1) * stride;
        if (s * GRV_BATTLES_PER_STREAM < lo || (s_last + 1u) * GRV_BATTLES_PER_STREAM > hi) {
            for (ls_u32 i = 0; i < GRV_ILP; i++)
                grv_play_stream(seed, s + i * stride, lo, hi, turns, hist, outside, win_lo, nwin, wg, lid);
            continue;
        }
#if GRV_ILP == 2
        grv_mwc x, y;
        x.s = grv_stream_state(seed, s);
        y.s = grv_stream_state(seed, s_last);
        GRV_PRAGMA(unroll GRV_UNROLL)
        for (ls_u32 j = 0; j < GRV_BATTLES_PER_STREAM; j++) {
            ls_u32 cx = grv_battle(&x, turns);
            ls_u32 cy = grv_battle(&y, turns);
            grv_count(hist, outside, cx, win_lo, nwin, wg, lid);
            grv_count(hist, outside, cy, win_lo, nwin, wg, lid);
        }
#else
        grv_mwc x;
        x.s = grv_stream_state(seed, s);
        GRV_PRAGMA(unroll GRV_UNROLL)
        for (ls_u32 j = 0; j < GRV_BATTLES_PER_STREAM; j++)
            grv_count(hist, outside, grv_battle(&x, turns), win_lo, nwin, wg, lid);
#endif
    }
    for (; s < end; s += stride)
        grv_play_stream(seed, s, lo, hi, turns, hist, outside, win_lo, nwin, wg, lid);
}

/* Local memory: `bins` shared 32-bit counters, then nwin * group_size
 * private 16-bit ones. */
LS_KERNEL void graveler_private(ls_u64 seed, ls_u64 stream0, ls_u64 nstreams, ls_u64 lo, ls_u64 hi, ls_u32 turns,
                                ls_u32 win_lo, ls_u32 nwin,
                                LS_GLOBAL ls_u64 *partial LS_DYNAMIC_LOCAL_PARAM(ls_u32, mem))
{
    LS_DYNAMIC_LOCAL(ls_u32, mem);
    const ls_u32 lid = ls_lid(), wg = ls_lsize(), bins = turns + 1u;
    LS_LOCAL ls_u32 *outside = mem;
    LS_LOCAL ls_u16 *hist = (LS_LOCAL ls_u16 *)(mem + bins);
    for (ls_u32 i = lid; i < bins; i += wg)
        outside[i] = 0;
    for (ls_u32 i = lid; i < nwin * wg; i += wg)
        hist[i] = 0;
    ls_barrier();
    if (turns == GRV_DEFAULT_TURNS)
        grv_play_private(seed, stream0, nstreams, lo, hi, GRV_DEFAULT_TURNS, hist, outside, win_lo, nwin);
    else
        grv_play_private(seed, stream0, nstreams, lo, hi, turns, hist, outside, win_lo, nwin);
    ls_barrier();
    LS_GLOBAL ls_u64 *row = partial + ls_group() * bins;
    for (ls_u32 b = lid; b < bins; b += wg) {
        ls_u32 sum = outside[b];
        if (b - win_lo < nwin)
            for (ls_u32 t = 0; t < wg; t++)
                sum += hist[(b - win_lo) * wg + t];
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

#define LS_PROGRAM_KERNELS(X) X(graveler_private) X(graveler_shared)
