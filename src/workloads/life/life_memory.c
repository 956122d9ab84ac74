/* life_memory.c - a device's memory for a Life grid, and the test cap
 * (life_memory.h). */
#include <errno.h>
#include <stdlib.h>

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

int life_device_memory(const ls_device *d, uint64_t *bytes, ls_error *err)
{
    uint64_t cap, own = UINT64_MAX;
    if (memory_cap(&cap, err))
        return -1;
    if (d->backend->gpu) {
        ls_gpu_info info;
        ls_gpu_info_of(d, &info);
        own = info.global_bytes;
    }
    *bytes = own < cap ? own : cap;
    return 0;
}
