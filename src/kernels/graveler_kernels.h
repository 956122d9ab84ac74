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
 * counting battles with index in [lo, hi). */
#include "dialect.h"
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

#define LS_PROGRAM_KERNELS(X) X(graveler_private) X(graveler_shared)
