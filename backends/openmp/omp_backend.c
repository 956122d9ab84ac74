/* omp_backend.c - the OpenMP backend: the host CPU, all its threads.
 *
 * Always compiled and always available; it is the fallback for `auto` and
 * the reference the other backends are checked against. It offers no GPU
 * primitives: each workload runs its own CPU implementation here
 * (src/workloads/NAME/NAME_cpu.c), with as many threads as OpenMP gives. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"

/* Nothing to hold: the CPU implementations use OpenMP's own thread pool. */
struct ls_ctx {
    int opened;
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
    ctx->opened = 1;
    return ctx;
}

static void omp_close(ls_ctx *ctx)
{
    free(ctx);
}

const ls_backend ls_backend_openmp = {
    .name = "openmp",
    .list_devices = omp_list_devices,
    .open = omp_open,
    .close = omp_close,
    .gpu = NULL,
};
