/* omp_backend.c - the OpenMP backend: the host CPU, all its threads.
 *
 * Always compiled and always available; it is the fallback for `auto` and
 * the reference the other backends are checked against. It offers gpu.h's
 * primitives as the host has them (issue 37), so that a workload drives
 * every device through one interface: buffers are host memory, a write or
 * a read is a memcpy, and a launch runs the kernel's C copy, the
 * workload's own CPU implementation (src/workloads/NAME/NAME_cpu.c),
 * which the workload registers as a host program (host_kernel.h) and
 * which runs on as many threads as OpenMP gives. Its kernels are not the
 * programs of src/kernels, so the device lacks LS_CAP_KERNELS, and its
 * time is the wall clock (no timer methods: gpu_timer.h). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend.h"
#include "host_kernel.h"
#include "numbers.h"

/* A kernel is its entry in the workload's host program. */
struct ls_kernel {
    const ls_host_kernel *k;
};

/* More entry points than the workloads have, all programs together. */
#define HOST_KERNELS 64

/* The kernels asked for; the CPU implementations use OpenMP's own thread
 * pool, which needs no holding. */
struct ls_ctx {
    ls_gpu_info info; /* made at open: list_devices reads /proc */
    ls_kernel kernels[HOST_KERNELS];
    int nkernels;
};

extern const ls_backend ls_backend_openmp;

/* Host memory, as gpu.h's buffers are device memory. */
struct ls_buf {
    ls_buf_head head; /* first: the wrappers' view (gpu.h) */
    void *mem;
    size_t bytes;
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
    ls_caps_from_methods(ls_backend_openmp.gpu, "openmp", &out->caps); /* the workloads' C; the float rule */
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
    ls_device_info d;
    omp_list_devices(&d, 1, err);
    ctx->info = (ls_gpu_info){
        .is_gpu = 0,
        .compute_units = (uint32_t)omp_get_max_threads(),
        .max_group = 1, /* a launch's groups are no threads here: its C copy spreads them itself */
        .global_bytes = d.memory_bytes,
        .shape = LS_SHAPE_NONE, /* the workloads' own C (shape.h) */
        .caps = d.caps,
        .prebuilt = 1, /* compiled with the host, for it */
    };
    return ctx;
}

static void omp_close(ls_ctx *ctx)
{
    free(ctx);
}

/* ---- gpu.h's primitives on the host ------------------------------------- */

static void host_info(ls_ctx *ctx, ls_gpu_info *out)
{
    *out = ctx->info;
}

/* From this size on a buffer is given huge pages where the system has
 * them: a large grid's 4 KiB pages cost a fault and a TLB entry each. */
#define HOST_HUGE_PAGE ((size_t)2 << 20)

/* Host memory for a buffer of `bytes` (rounded up to `*rounded`), aligned
 * to a cache line as the CPU implementations' own arrays are (their vector
 * loads do not split lines), in huge pages from 2 of them on (advice
 * only: without them the memory works as it is); NULL when there is none. */
static void *host_memory(size_t bytes, size_t *rounded)
{
    size_t align = bytes >= 2 * HOST_HUGE_PAGE ? HOST_HUGE_PAGE : 64u;
    *rounded = (bytes + align - 1) / align * align;
    if (*rounded < bytes)
        return NULL;
    void *mem = aligned_alloc(align, *rounded ? *rounded : align);
    if (mem && align == HOST_HUGE_PAGE)
        (void)madvise(mem, *rounded, MADV_HUGEPAGE);
    return mem;
}

/* Clears `bytes` at mem on every thread: its pages are faulted in at once,
 * each by a thread that will work on it. */
static void host_zero(void *mem, size_t bytes)
{
    const size_t piece = (size_t)2 << 20;
    int64_t pieces = (int64_t)((bytes + piece - 1) / piece);
#pragma omp parallel for schedule(static) if (pieces > 1)
    for (int64_t i = 0; i < pieces; i++) {
        size_t first = (size_t)i * piece;
        memset((char *)mem + first, 0, bytes - first < piece ? bytes - first : piece);
    }
}

/* Zeroed host memory. A buffer the machine cannot give is refused as the
 * user's error, as a grid too large for a GPU is: the size of the work is
 * what was asked. */
static int host_alloc(ls_ctx *ctx, size_t bytes, const char *what, ls_buf **out, ls_error *err)
{
    (void)ctx;
    size_t rounded;
    ls_buf *b = calloc(1, sizeof *b);
    void *mem = host_memory(bytes, &rounded);
    if (!b || !mem) {
        free(b);
        free(mem);
        char need[LS_BYTES_TEXT];
        ls_format_bytes(bytes, need, sizeof need);
        return ls_fail_usage(err, "%s needs %s; this machine does not have that much free memory", what, need);
    }
    host_zero(mem, rounded);
    b->mem = mem;
    b->bytes = bytes;
    *out = b;
    return 0;
}

static void host_free(ls_ctx *ctx, ls_buf *buf)
{
    (void)ctx;
    if (buf)
        free(buf->mem);
    free(buf);
}

/* The host runs a queue's work when it is queued: a write is done when
 * it returns, and a read has nothing to wait for. */
static int host_write(ls_ctx *ctx, int queue, ls_buf *buf, size_t offset, const void *src, size_t bytes,
                      ls_error *err)
{
    (void)ctx, (void)queue, (void)err;
    if (bytes)
        memcpy((char *)buf->mem + offset, src, bytes);
    return 0;
}

static int host_read(ls_ctx *ctx, ls_buf *buf, size_t offset, void *dst, size_t bytes, ls_error *err)
{
    (void)ctx, (void)err;
    if (bytes)
        memcpy(dst, (const char *)buf->mem + offset, bytes);
    return 0;
}

/* Entry point `name` of the host program `program`, kept by the context
 * as a GPU backend keeps the kernels it built. */
static int host_kernel(ls_ctx *ctx, const char *program, const char *name, ls_kernel **out, ls_error *err)
{
    *out = NULL;
    const ls_host_kernel *k = ls_host_kernel_find(program, name);
    if (!k)
        return ls_fail(err, "openmp has no kernel %s in program %s: the workload registers its host program "
                            "(host_kernel.h) before it asks for its kernels", name, program);
    int i = 0;
    while (i < ctx->nkernels && ctx->kernels[i].k != k)
        i++;
    if (i == HOST_KERNELS)
        return ls_fail(err, "openmp: kernel %s of program %s is one more than the %d a context keeps", name, program,
                       HOST_KERNELS);
    if (i == ctx->nkernels)
        ctx->kernels[ctx->nkernels++].k = k;
    *out = &ctx->kernels[i];
    return 0;
}

/* One group at a time would serialise what the C copy spreads over every
 * thread: a launch is one call, whatever its shape. */
static int host_groups_per_unit(ls_ctx *ctx, ls_kernel *k, uint32_t group_size, size_t local_bytes, uint32_t *out,
                                ls_error *err)
{
    (void)ctx, (void)k, (void)group_size, (void)local_bytes, (void)err;
    *out = 1;
    return 0;
}

/* Runs the kernel's C copy over the whole launch, on the calling thread
 * (and OpenMP's team inside it), with each buffer argument's memory. */
static int host_launch(ls_ctx *ctx, ls_kernel *k, const ls_launch *l, ls_error *err)
{
    (void)ctx;
    if (l->nargs != k->k->nargs)
        return ls_fail(err, "openmp: kernel %s takes %d arguments, the launch gave %d", k->k->name, k->k->nargs,
                       l->nargs);
    if (l->nargs > LS_HOST_MAX_ARGS)
        return ls_fail(err, "openmp: kernel %s: %d arguments, more than the %d a host launch passes", k->k->name,
                       l->nargs, LS_HOST_MAX_ARGS);
    ls_host_call call = {k->k->name, l->groups, l->group_size, l->nargs, l->args, {0}, {0}};
    for (int i = 0; i < l->nargs; i++)
        if (l->args[i].is_buf && l->args[i].buf) {
            call.mem[i] = l->args[i].buf->mem;
            call.bytes[i] = l->args[i].buf->bytes;
        }
    return k->k->run(&call, err);
}

static const ls_gpu host_gpu = {
    .info = host_info,
    .alloc = host_alloc,
    .free = host_free,
    .write = host_write,
    .read = host_read,
    .kernel = host_kernel,
    .kernel_with = NULL,    /* no program is built at run time: no LS_CAP_DEFINES */
    .groups_per_unit = host_groups_per_unit,
    .launch = host_launch,
    .timer_start = NULL,    /* the wall clock is its clock (gpu_timer.h) */
    .timer_stop = NULL,
    .runs_host_programs = 1,
};

const ls_backend ls_backend_openmp = {
    .name = "openmp",
    .list_devices = omp_list_devices,
    .open = omp_open,
    .close = omp_close,
    .gpu = &host_gpu,
    .free_memory = omp_free_memory,
};
