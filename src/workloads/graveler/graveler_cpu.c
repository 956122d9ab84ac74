/* graveler_cpu.c - Graveler on the host CPU (OpenMP): streams in vector
 * lanes (graveler_simd.c, compiled once per instruction set; the widest
 * copy this CPU runs is picked here), threads over groups of streams, and
 * per-thread 32-bit lane histograms folded into the 64-bit result before
 * they can wrap. The host device (OpenMP) runs it as its kernel
 * graveler_host, registered below (host_kernel.h). */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_isa.h"
#include "graveler.h"
#include "graveler_range.h"
#include "graveler_simd.h"
#include "host_kernel.h"

typedef void (*grv_simd_fn)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint32_t, uint32_t *);

/* The widest copy of the inner loop this CPU runs (cpu_isa.h); the
 * avx512 copy counts with AVX-512's vector popcount besides. */
static grv_simd_fn grv_pick_simd(int *lanes)
{
#if defined(__x86_64__)
    ls_isa isa = ls_cpu_isa();
    if (isa >= LS_ISA_AVX512 && ls_cpu_has_vpopcntdq()) {
        *lanes = grv_simd_lanes_avx512;
        return grv_simd_groups_avx512;
    }
    if (isa >= LS_ISA_AVX2) {
        *lanes = grv_simd_lanes_avx2;
        return grv_simd_groups_avx2;
    }
#endif
    *lanes = grv_simd_lanes_generic;
    return grv_simd_groups_generic;
}

/* Stream groups per fold of the lane histograms: each adds at most
 * 64 battles per lane and bin, so 2^24 battles stay far below 2^32. */
#define GRV_CPU_FOLD_BATTLES (1u << 24)

int grv_cpu_range(const grv_params *p, uint64_t lo, uint64_t hi, uint64_t *hist, double *seconds, ls_error *err)
{
    int lanes;
    grv_simd_fn play = grv_pick_simd(&lanes);
    const uint32_t bins = p->turns + 1;
    const uint64_t per_group = (uint64_t)lanes * GRV_BATTLES_PER_STREAM;
    const uint64_t g_first = lo / per_group, g_end = (hi + per_group - 1) / per_group;
    const uint64_t fold = GRV_CPU_FOLD_BATTLES / per_group;
    int nthreads = omp_get_max_threads();
    uint32_t *lanehists = calloc((size_t)nthreads * lanes * bins, sizeof *lanehists);
    if (!lanehists)
        return ls_fail(err, "out of memory for per-thread histograms (%d threads)", nthreads);
    double t0 = omp_get_wtime();
    for (uint64_t g = g_first; g < g_end; g += fold) {
        uint64_t n = g_end - g < fold ? g_end - g : fold;
#pragma omp parallel num_threads(nthreads)
        {
            uint32_t *mine = lanehists + (size_t)omp_get_thread_num() * lanes * bins;
#pragma omp for schedule(dynamic, 16)
            for (uint64_t i = 0; i < n; i++)
                play(p->seed, g + i, 1, lo, hi, p->turns, mine);
        }
        for (size_t i = 0; i < (size_t)nthreads * lanes; i++)
            for (uint32_t b = 0; b < bins; b++)
                hist[b] += lanehists[i * bins + b];
        memset(lanehists, 0, (size_t)nthreads * lanes * bins * sizeof *lanehists);
    }
    *seconds = omp_get_wtime() - t0;
    free(lanehists);
    return 0;
}

/* The host device's kernel: grv_cpu_range over the battles of streams
 * [st, st + n) inside [lo, hi), added to row 0 of `partial`, with the
 * arguments of the GPU kernels' (seed, st, n, lo, hi, turns, partial). */
static int grv_host_kernel(const ls_host_call *c, ls_error *err)
{
    uint64_t seed, st, n, lo, hi;
    uint32_t turns;
    void *row;
    if (ls_host_u64(c, 0, &seed, err) || ls_host_u64(c, 1, &st, err) || ls_host_u64(c, 2, &n, err) ||
        ls_host_u64(c, 3, &lo, err) || ls_host_u64(c, 4, &hi, err) || ls_host_u32(c, 5, &turns, err) ||
        ls_host_buf(c, 6, ((size_t)turns + 1) * sizeof(uint64_t), &row, err))
        return -1;
    uint64_t first = st * GRV_BATTLES_PER_STREAM, end = (st + n) * GRV_BATTLES_PER_STREAM;
    if (first < lo)
        first = lo;
    if (end > hi)
        end = hi;
    if (first >= end)
        return 0;
    grv_params p = {seed, 0, 0, turns};
    double ignored;
    return grv_cpu_range(&p, first, end, row, &ignored, err);
}

static const ls_host_kernel grv_host_kernels[] = {{"graveler_host", grv_host_kernel, 7}, {NULL, NULL, 0}};
const ls_host_program grv_host_program = {"graveler", grv_host_kernels};
