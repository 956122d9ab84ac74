/* omp_backend.c - the OpenMP backend: the host CPU, all its threads.
 *
 * Always compiled and always available; it is the fallback for `auto` and
 * the reference the other backends are checked against. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "graveler.h"
#include "omp_graveler_simd.h"

struct ls_ctx {
    int threads;
};

static uint64_t host_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

/* The CPU's model name from /proc/cpuinfo, or a plain description. */
static void cpu_name(char *out, size_t len)
{
    snprintf(out, len, "host CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                colon++;
                while (*colon == ' ' || *colon == '\t')
                    colon++;
                colon[strcspn(colon, "\n")] = 0;
                snprintf(out, len, "%s", colon);
            }
            break;
        }
    }
    fclose(f);
}

static int omp_list_devices(ls_device_info *out, int max, ls_error *why)
{
    (void)why;
    if (max < 1)
        return 0;
    memset(out, 0, sizeof *out);
    cpu_name(out->name, sizeof out->name);
    snprintf(out->platform, sizeof out->platform, "OpenMP %d", _OPENMP);
    out->compute_units = omp_get_max_threads();
    out->memory_bytes = host_memory_bytes();
    out->is_gpu = 0;
    return 1;
}

static ls_ctx *omp_open(int index, ls_error *err)
{
    if (index != 0) {
        ls_fail_usage(err, "openmp has one device (index 0), not %d", index);
        return NULL;
    }
    ls_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        ls_fail(err, "out of memory opening the openmp backend");
        return NULL;
    }
    ctx->threads = omp_get_max_threads();
    return ctx;
}

static void omp_close(ls_ctx *ctx)
{
    free(ctx);
}

/* ---- Graveler ---------------------------------------------------------- */

typedef void (*grv_simd_fn)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint32_t, uint32_t *);

/* The widest copy of the inner loop this CPU can run. */
static grv_simd_fn grv_pick_simd(int *lanes)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vpopcntdq")) {
        *lanes = grv_simd_lanes_avx512;
        return grv_simd_groups_avx512;
    }
    if (__builtin_cpu_supports("avx2")) {
        *lanes = grv_simd_lanes_avx2;
        return grv_simd_groups_avx2;
    }
#endif
    *lanes = grv_simd_lanes_generic;
    return grv_simd_groups_generic;
}

static int omp_graveler(ls_ctx *ctx, const grv_params *p, grv_result *r,
                        const ls_progress *progress, ls_error *err)
{
    (void)ctx;
    int lanes;
    grv_simd_fn play = grv_pick_simd(&lanes);
    const uint32_t bins = p->turns + 1;
    const uint64_t lo = p->first, hi = p->first + p->battles;
    const uint64_t per_group = (uint64_t)lanes * GRV_BATTLES_PER_STREAM;
    const uint64_t g_first = lo / per_group, g_end = (hi + per_group - 1) / per_group;
    /* Chunks of about 2^24 battles between progress reports. */
    const uint64_t chunk = (1u << 24) / per_group;
    memset(r->hist, 0, bins * sizeof *r->hist);
    r->battles = 0;

    int nthreads = omp_get_max_threads();
    uint32_t **lanehists = calloc((size_t)nthreads, sizeof *lanehists);
    if (!lanehists)
        return ls_fail(err, "out of memory for per-thread histograms");
    int alloc_failed = 0;
    for (int t = 0; t < nthreads; t++) {
        lanehists[t] = calloc((size_t)lanes * bins, sizeof **lanehists);
        if (!lanehists[t])
            alloc_failed = 1;
    }
    double t0 = omp_get_wtime();
    for (uint64_t g = g_first; g < g_end && !alloc_failed;) {
        uint64_t n = g_end - g < chunk ? g_end - g : chunk;
#pragma omp parallel num_threads(nthreads)
        {
            uint32_t *mine = lanehists[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 16)
            for (uint64_t i = 0; i < n; i++)
                play(p->seed, g + i, 1, lo, hi, p->turns, mine);
        }
        /* Fold the 32-bit lane counts into the result before they can wrap
         * (each chunk adds at most chunk * 64 per lane and bin). */
        for (int t = 0; t < nthreads; t++) {
            for (uint32_t l = 0; l < (uint32_t)lanes; l++)
                for (uint32_t b = 0; b < bins; b++)
                    r->hist[b] += lanehists[t][l * bins + b];
            memset(lanehists[t], 0, (size_t)lanes * bins * sizeof **lanehists);
        }
        g += n;
        uint64_t done_end = g * per_group < hi ? g * per_group : hi;
        r->battles = done_end - lo;
        if (progress && progress->report && progress->report(progress->user, r->battles, p->battles))
            break;
    }
    r->seconds = omp_get_wtime() - t0;
    for (int t = 0; t < nthreads; t++)
        free(lanehists[t]);
    free(lanehists);
    if (alloc_failed)
        return ls_fail(err, "out of memory for per-thread histograms");
    return 0;
}

/* ---- Beggar My Neighbour ------------------------------------------------- */

int ls_omp_bmn_generic(ls_ctx *ctx, const bmn_range *r, bmn_range_out *out, ls_error *err);
#if defined(__x86_64__)
int ls_omp_bmn_v3(ls_ctx *ctx, const bmn_range *r, bmn_range_out *out, ls_error *err);
#endif

/* The copy of omp_bmn.c for this CPU: x86-64-v3 where AVX2, BMI1/2 and
 * LZCNT are all there. */
static int omp_bmn(ls_ctx *ctx, const bmn_range *r, bmn_range_out *out, ls_error *err)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("x86-64-v3"))
        return ls_omp_bmn_v3(ctx, r, out, err);
#endif
    return ls_omp_bmn_generic(ctx, r, out, err);
}

const ls_backend ls_backend_openmp = {
    .name = "openmp",
    .list_devices = omp_list_devices,
    .open = omp_open,
    .close = omp_close,
    .graveler = omp_graveler,
    .bmn = omp_bmn,
};
