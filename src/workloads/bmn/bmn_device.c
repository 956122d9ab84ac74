/* bmn_device.c - one range of a search on whatever device it is, through
 * the device driver (bmn_gpu.c), and the host device's program: the copy
 * of the CPU implementation (bmn_cpu.c) this CPU runs best, as the kernel
 * the driver launches on the host (host_kernel.h). */
#include "bmn_types.h"
#include "cpu_isa.h"
#include "host_kernel.h"

int bmn_cpu_range_generic(const bmn_range *r, bmn_range_out *out, ls_error *err);
#if defined(__x86_64__)
int bmn_cpu_range_v3(const bmn_range *r, bmn_range_out *out, ls_error *err);
#endif

/* The x86-64-v3 copy where the CPU runs it (cpu_isa.h's avx2 level). */
int bmn_cpu_range(const bmn_range *r, bmn_range_out *out, ls_error *err)
{
#if defined(__x86_64__)
    if (ls_cpu_isa() >= LS_ISA_AVX2)
        return bmn_cpu_range_v3(r, out, err);
#endif
    return bmn_cpu_range_generic(r, out, err);
}

int bmn_range_run(ls_device *s, const bmn_range *r, bmn_range_out *out, ls_error *err)
{
    return bmn_gpu_range(s, r, out, err);
}

/* Argument i of a host call as a buffer of n entries of `size` bytes. */
static int host_rows(const ls_host_call *c, int i, uint64_t n, size_t size, void **out, ls_error *err)
{
    if (n > SIZE_MAX / size)
        return ls_fail(err, "host kernel %s: argument %d of %llu entries is larger than memory", c->kernel, i,
                       (unsigned long long)n);
    return ls_host_buf(c, i, (size_t)n * size, out, err);
}

/* The host device's kernel bmn_host_play: bmn_cpu_range over deals
 * [first, first + count), with bmn_play_batch's arguments (the starting
 * states unused: each game is dealt where it is played, as the CPU
 * implementation does) and then the seed, whether the deals are given
 * and the given deals. Adds to row 0 of the histogram rows and of the
 * card totals, and appends to the lists after what the counters hold. */
static int bmn_host_play(const ls_host_call *c, ls_error *err)
{
    bmn_range r = {0};
    uint32_t max_hits, max_capped, given;
    void *hist, *cards, *hits, *capped, *counters, *deals;
    if (ls_host_u64(c, 1, &r.first, err) || ls_host_u64(c, 2, &r.count, err) || ls_host_u32(c, 3, &r.cap, err) ||
        ls_host_u32(c, 4, &r.min_cards, err) || ls_host_u32(c, 5, &r.min_tricks, err) ||
        ls_host_u32(c, 11, &max_hits, err) || ls_host_u32(c, 12, &max_capped, err) ||
        ls_host_u64(c, 13, &r.seed, err) || ls_host_u32(c, 14, &given, err))
        return -1;
    if (ls_host_buf(c, 6, BMN_HIST_BINS * sizeof(uint64_t), &hist, err) ||
        ls_host_buf(c, 7, sizeof(uint64_t), &cards, err) || host_rows(c, 8, max_hits, sizeof(bmn_hit), &hits, err) ||
        host_rows(c, 9, max_capped, sizeof(uint64_t), &capped, err) ||
        ls_host_buf(c, 10, 2 * sizeof(uint32_t), &counters, err) ||
        host_rows(c, 15, given ? r.count : 0, sizeof(bmn_deal_in), &deals, err))
        return -1;
    r.deals = given ? deals : NULL;
    uint32_t *n = counters;
    uint32_t had_hits = n[0] < max_hits ? n[0] : max_hits, had_capped = n[1] < max_capped ? n[1] : max_capped;
    bmn_range_out o = {.hist = hist,
                       .hits = (bmn_hit *)hits + had_hits,
                       .max_hits = max_hits - had_hits,
                       .capped = (uint64_t *)capped + had_capped,
                       .max_capped = max_capped - had_capped};
    if (bmn_cpu_range(&r, &o, err) != 0)
        return -1;
    *(uint64_t *)cards += o.total_cards;
    n[0] += o.n_hits;
    n[1] += o.n_capped;
    return 0;
}

static const ls_host_kernel bmn_host_kernels[] = {{"bmn_host_play", bmn_host_play, BMN_HOST_PLAY_ARGS},
                                                  {NULL, NULL, 0}};
const ls_host_program bmn_host_program = {"bmn", bmn_host_kernels};
