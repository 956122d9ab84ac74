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

/* MemAvailable of /proc/meminfo: what the kernel says can be allocated
 * without swapping (free memory plus caches it can drop). */
static int omp_free_memory(int index, uint64_t *bytes)
{
    (void)index;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kib = 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    fclose(f);
    if (found)
        *bytes = (uint64_t)kib * 1024u;
    return found;
}

/* The value of the first /proc/cpuinfo line that starts with `key`, or
 * nothing (out untouched) when there is none. */
static void cpuinfo_value(const char *key, char *out, size_t len)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    size_t klen = strlen(key);
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, key, klen) != 0 || !colon)
            continue;
        colon++;
        while (*colon == ' ' || *colon == '\t')
            colon++;
        colon[strcspn(colon, "\n")] = 0;
        snprintf(out, len, "%s", colon);
        break;
    }
    fclose(f);
}

/* The CPU's highest clock: cpufreq's maximum where the kernel has it, else
 * the clock /proc/cpuinfo reports now (a virtual machine's). 0: unknown. */
static int cpu_clock_mhz(void)
{
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
    long khz = 0;
    if (f) {
        if (fscanf(f, "%ld", &khz) != 1)
            khz = 0;
        fclose(f);
    }
    if (khz > 0)
        return (int)(khz / 1000);
    char mhz[64] = "";
    cpuinfo_value("cpu MHz", mhz, sizeof mhz);
    return (int)(atof(mhz) + 0.5);
}

/* The OpenMP runtime comes with the compiler that built lockstep. */
#if defined(__clang__)
#define OMP_RUNTIME "libomp (clang " __clang_version__ ")"
#elif defined(__GNUC__)
#define OMP_RUNTIME "libgomp (GCC " __VERSION__ ")"
#else
#define OMP_RUNTIME ""
#endif

static int omp_list_devices(ls_device_info *out, int max, ls_error *why)
{
    (void)why;
    if (max < 1)
        return 0;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "host CPU");
    cpuinfo_value("model name", out->name, sizeof out->name);
    cpuinfo_value("vendor_id", out->vendor, sizeof out->vendor);
    snprintf(out->driver, sizeof out->driver, "%s", OMP_RUNTIME);
    out->clock_mhz = cpu_clock_mhz();
    snprintf(out->platform, sizeof out->platform, "OpenMP %d", _OPENMP);
    out->compute_units = omp_get_max_threads();
    out->memory_bytes = host_memory_bytes();
    snprintf(out->memory_reported_by, sizeof out->memory_reported_by, "sysconf(_SC_PHYS_PAGES)");
    out->max_alloc_bytes = out->memory_bytes; /* one malloc may take it all */
    out->kind = LS_DEVICE_REFERENCE;
    ls_caps_from_methods(NULL, "openmp", &out->caps); /* no kernels; the float rule (caps.h) */
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
    .free_memory = omp_free_memory,
};
