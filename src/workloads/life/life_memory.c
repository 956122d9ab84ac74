/* life_memory.c - a device's memory for a Life grid, and the test cap
 * (life_memory.h). */
#include <errno.h>
#include <stdlib.h>

#include "life_grid.h"
#include "life_memory.h"

#include "gpu_call.h"

/* LOCKSTEP_DEVICE_MEMORY_CAP in bytes; UINT64_MAX when not set. */
static int memory_cap(uint64_t *cap, ls_error *err)
{
    const char *text = getenv(LIFE_MEMORY_CAP_ENV);
    *cap = UINT64_MAX;
    if (!text || !*text)
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    uint64_t unit = 1;
    if (*end == 'K' || *end == 'k')
        unit = 1ull << 10;
    else if (*end == 'M')
        unit = 1ull << 20;
    else if (*end == 'G')
        unit = 1ull << 30;
    end += unit > 1;
    if (end == text || *end || text[0] < '0' || text[0] > '9' || errno || v == 0 || v > UINT64_MAX / unit)
        return ls_fail_usage(err, LIFE_MEMORY_CAP_ENV " '%s': expected a size in bytes (a whole number, or with K, M "
                                  "or G)", text);
    *cap = v * unit;
    return 0;
}

int life_memory_capped(void)
{
    const char *text = getenv(LIFE_MEMORY_CAP_ENV);
    return text && *text;
}

int life_memory_under_cap(uint64_t own, uint64_t *bytes, ls_error *err)
{
    uint64_t cap;
    if (memory_cap(&cap, err))
        return -1;
    *bytes = own < cap ? own : cap;
    return 0;
}

/* Whether d's memory is the host's (the OpenMP device's buffers are host
 * memory), which other processes share and malloc, not a figure of the
 * device, bounds. */
static int memory_is_the_hosts(const ls_device *d)
{
    return ls_backend_runs_host_programs(d->backend);
}

int life_device_memory(const ls_device *d, uint64_t *bytes, ls_error *err)
{
    uint64_t own = UINT64_MAX;
    if (!memory_is_the_hosts(d)) {
        ls_gpu_info info;
        ls_gpu_info_of(d, &info);
        own = info.global_bytes;
    }
    return life_memory_under_cap(own, bytes, err);
}

uint64_t life_device_max_alloc(const ls_device *d)
{
    return !memory_is_the_hosts(d) && d->info.max_alloc_bytes ? d->info.max_alloc_bytes : UINT64_MAX;
}

int life_grid_fits(uint64_t bytes, uint64_t memory, uint64_t max_alloc)
{
    return bytes <= max_alloc && bytes <= memory / 2;
}

/* Whether the n^dims grid is within Life's limits and fits. */
static int side_fits(unsigned dims, uint64_t n, uint64_t memory, uint64_t max_alloc)
{
    uint64_t cells = n * n * (dims == 3 ? n : 1);
    return n >= LIFE_MIN_SIZE && n <= LIFE_MAX_SIZE && cells <= LIFE_MAX_CELLS &&
           life_grid_fits(life_grid_bytes((uint32_t)n, (uint32_t)n, dims == 3 ? (uint32_t)n : 1u), memory, max_alloc);
}

uint32_t life_largest_side(unsigned dims, uint64_t memory, uint64_t max_alloc)
{
    /* A larger side never takes less memory: the largest that fits is
     * found by halving [lo, hi), lo fitting and hi not. */
    uint64_t lo = LIFE_MIN_SIZE, hi = (uint64_t)LIFE_MAX_SIZE + 1;
    if (!side_fits(dims, lo, memory, max_alloc))
        return 0;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (side_fits(dims, mid, memory, max_alloc))
            lo = mid;
        else
            hi = mid;
    }
    return (uint32_t)lo;
}
