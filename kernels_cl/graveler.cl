/* graveler.cl - Graveler on OpenCL devices.
 *
 * The battle is src/algo/graveler.h, inlined here at build time. What is
 * OpenCL's own is the launch shape and the histogram:
 *
 *  graveler_private: every work-item keeps its own 16-bit counters in
 *    local memory (hist[bin * wg + lid]), so no two items ever touch the
 *    same counter and no atomics are needed; at the end the group sums the
 *    counters bin by bin into its own row of `partial`. An item plays at
 *    most GRV_GPU_MAX_STREAMS streams per launch, so a counter stays below
 *    2^16. Used when (turns + 1) * wg counters fit in local memory.
 *  graveler_shared: one 32-bit counter per bin per group with local
 *    atomics, for long battles whose private counters would not fit.
 *
 * partial[group * bins + b] accumulates across launches (64-bit); the host
 * sums the groups' rows at the end. Work-item gid plays streams
 * stream0 + gid, stream0 + gid + global_size, ... below stream0 + nstreams,
 * counting battles with index in [lo, hi). */
#include "graveler.h"


static inline void grv_play_private(ulong seed, ulong stream0, ulong nstreams, ulong lo, ulong hi,
                                    uint turns, __local ushort *hist)
{
    const uint lid = get_local_id(0), wg = get_local_size(0);
    const ulong stride = get_global_size(0);
    for (ulong s = stream0 + get_global_id(0); s < stream0 + nstreams; s += stride) {
        grv_mwc x;
        x.s = grv_stream_state(seed, s);
        ulong b0 = s * GRV_BATTLES_PER_STREAM;
        if (b0 >= lo && b0 + GRV_BATTLES_PER_STREAM <= hi) {
            /* 4 as in kernels_cu/graveler.cu (measured there) */
#pragma unroll 4
            for (uint j = 0; j < GRV_BATTLES_PER_STREAM; j++)
                hist[grv_battle(&x, turns) * wg + lid]++;
        } else {
            for (uint j = 0; j < GRV_BATTLES_PER_STREAM; j++) {
                uint c = grv_battle(&x, turns);
                if (b0 + j >= lo && b0 + j < hi)
                    hist[c * wg + lid]++;
            }
        }
    }
}

__kernel void graveler_private(ulong seed, ulong stream0, ulong nstreams, ulong lo, ulong hi, uint turns,
                               __global ulong *partial, __local ushort *hist)
{
    const uint lid = get_local_id(0), wg = get_local_size(0), bins = turns + 1u;
    for (uint i = lid; i < bins * wg; i += wg)
        hist[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    /* A constant turn count lets the compiler unroll the battle. */
    if (turns == GRV_DEFAULT_TURNS)
        grv_play_private(seed, stream0, nstreams, lo, hi, GRV_DEFAULT_TURNS, hist);
    else
        grv_play_private(seed, stream0, nstreams, lo, hi, turns, hist);
    barrier(CLK_LOCAL_MEM_FENCE);
    __global ulong *row = partial + (ulong)get_group_id(0) * bins;
    for (uint b = lid; b < bins; b += wg) {
        uint sum = 0;
        for (uint t = 0; t < wg; t++)
            sum += hist[b * wg + t];
        row[b] += sum;
    }
}

__kernel void graveler_shared(ulong seed, ulong stream0, ulong nstreams, ulong lo, ulong hi, uint turns,
                              __global ulong *partial, __local uint *hist)
{
    const uint lid = get_local_id(0), wg = get_local_size(0), bins = turns + 1u;
    const ulong stride = get_global_size(0);
    for (uint i = lid; i < bins; i += wg)
        hist[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (ulong s = stream0 + get_global_id(0); s < stream0 + nstreams; s += stride) {
        grv_mwc x;
        x.s = grv_stream_state(seed, s);
        ulong b0 = s * GRV_BATTLES_PER_STREAM;
        for (uint j = 0; j < GRV_BATTLES_PER_STREAM; j++) {
            uint c = grv_battle(&x, turns);
            if (b0 + j >= lo && b0 + j < hi)
                atomic_inc(&hist[c]);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __global ulong *row = partial + (ulong)get_group_id(0) * bins;
    for (uint b = lid; b < bins; b += wg)
        row[b] += hist[b];
}
