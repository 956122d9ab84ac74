/* cuda_backend.cu - the CUDA backend: NVIDIA GPUs through the CUDA runtime,
 * offering the primitives of src/gpu.h.
 *
 * The runtime is linked statically and loads the driver (libcuda.so.1) at
 * run time, so a lockstep built with CUDA starts on machines without an
 * NVIDIA driver: the backend then lists itself as unavailable, with why.
 * Programs are compiled at build time (kernels_cu/NAME.cu, for the
 * architectures meson chose); a kernel is found by name in its program's
 * table (cu_program.h) and launched with cudaLaunchKernel. A program with
 * definitions (gpu.h's kernel_with) is compiled at run time by NVRTC for
 * the device's architecture (cu_nvrtc.h; -Dnvrtc), loaded as a library
 * (cudaLibraryLoadData), and its kernels launched the same way, checked
 * against the parameters of nvcc's kernel of the same name. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

extern "C" {
#include "backend.h"
#include "cuda_visible.h"
}
#include "cu_args.h"
#include "cu_program.h"
#ifdef LS_HAVE_NVRTC
#include "cu_nvrtc.h"
#endif

/* Every program meson built: LS_GPU_PROGRAMS is X(graveler) X(bmn) ... */
#define LS_CU_DECLARE_(p) extern "C" const ls_cu_program ls_cu_program_##p;
LS_GPU_PROGRAMS(LS_CU_DECLARE_)
#define LS_CU_LIST_(p) &ls_cu_program_##p,
static const ls_cu_program *const cu_programs[] = {LS_GPU_PROGRAMS(LS_CU_LIST_) NULL};

struct ls_kernel {
    const char *program, *name;
    const char *defines;      /* "" for nvcc's kernels, else its library's */
    const void *fn;           /* the __global__ function, or a library's cudaKernel_t */
    const ls_cu_entry *entry; /* nvcc's kernel of that name: its parameters, to check launches against */
    ls_kernel *next;
};

#ifdef LS_HAVE_NVRTC
/* A program NVRTC compiled with definitions, loaded for the device; lib
 * NULL when NVRTC cannot make it here (kept so as not to ask again).
 * cudaLibrary_t is CUDA 12's: without NVRTC the backend builds with older
 * toolkits too. */
typedef struct cu_library {
    const char *program;
    char *defines;
    cudaLibrary_t lib;
    struct cu_library *next;
} cu_library;
#endif

struct ls_buf {
    ls_buf_head head; /* first: the wrappers' view (gpu.h) */
    void *ptr;
};

struct ls_ctx {
    int device; /* the runtime's number for it: its index, or its place among the devices narrowed to */
    int index;  /* as the user names it (cuda:INDEX) */
    cudaDeviceProp prop;
    cudaStream_t queue[LS_GPU_QUEUES];
    cudaEvent_t start, stop, joined;
    cudaEvent_t copied;          /* orders peer copies with both devices' queues (cu_copy) */
    unsigned long long peers;    /* bit d: peer access to device d enabled (cu_copy) */
    ls_kernel *kernels; /* found so far, newest first */
#ifdef LS_HAVE_NVRTC
    cu_library *libraries; /* loaded so far, newest first */
#endif
};

/* Fails with "what: CUDA's message" when the call did not succeed. */
#define CU_TRY(call, err, what)                                                                \
    do {                                                                                       \
        cudaError_t st_ = (call);                                                              \
        if (st_ != cudaSuccess)                                                                \
            return ls_fail((err), "CUDA %s failed: %s", (what), cudaGetErrorString(st_));      \
    } while (0)

/* Why CUDA cannot run here, in words a user can act on. */
static int cuda_unavailable(cudaError_t st, ls_error *why)
{
    void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!driver)
        return ls_fail(why, "no NVIDIA driver on this machine (libcuda.so.1 not found)");
    dlclose(driver);
    return ls_fail(why, "%s", cudaGetErrorString(st));
}

extern "C" const ls_backend ls_backend_cuda; /* the tables, at the end of the file */

/* What a CUDA GPU can do (caps.h): what the method table offers (copies,
 * sharing through IPC, programs with definitions where NVRTC is built
 * in), warps of 32 that shuffle registers, in kernels nvcc built for
 * that one shape (so LOCKSTEP_SHAPE does not reach them), and the exact
 * float rule, which nvcc builds in (meson.build). */
static void cuda_caps(const cudaDeviceProp *prop, ls_device_caps *caps)
{
    ls_caps_from_methods(ls_backend_cuda.gpu, "cuda", caps);
    ls_caps_grant(caps, LS_CAP_WARP_SHUFFLE);
    ls_caps_refuse(caps, LS_CAP_SUBGROUP_SHUFFLE, "CUDA's sub-groups are its warps (the warp shape)");
    ls_caps_grant(caps, LS_CAP_EXACT_FP);
    caps->prebuilt = 1;
    caps->subgroup_width = (uint32_t)prop->warpSize;
    caps->local_bytes = prop->sharedMemPerBlock;
}

/* The GPU's UUID and PCI address, as NVIDIA's OpenCL reports them too
 * (ls_same_silicon). */
static void cuda_silicon(const cudaDeviceProp *prop, ls_device_info *info)
{
    int n = snprintf(info->uuid, sizeof info->uuid, "uuid:");
    for (int b = 0; b < 16 && n > 0 && (size_t)n < sizeof info->uuid; b++)
        n += snprintf(info->uuid + n, sizeof info->uuid - (size_t)n, "%02x", (unsigned char)prop->uuid.bytes[b]);
    snprintf(info->pci, sizeof info->pci, "pci:%04x:%02x:%02x", (unsigned)prop->pciDomainID, (unsigned)prop->pciBusID,
             (unsigned)prop->pciDeviceID);
}

/* ---- the devices initialised (cuda_visible.h) ---------------------------- */

/* Set by cuda_narrow: the devices this process lets the driver see. */
static struct {
    int on;
    int listed;                          /* GPUs there are, as list_devices counts them */
    int ordinal[LS_CUDA_VISIBLE_MAX];    /* index -> the runtime's number, -1: not initialised */
    char visible[256];                   /* CUDA_VISIBLE_DEVICES as set */
} narrowed;
static int cuda_called; /* the runtime was called: too late to narrow */

static int cuda_narrow(const int *index, int n)
{
    const char *off = getenv("LOCKSTEP_CUDA_NARROW");
    if (cuda_called || (off && strcmp(off, "0") == 0))
        return 0;
    int listed = ls_cuda_visible_for(getenv("CUDA_VISIBLE_DEVICES"), ls_cuda_device_nodes(), index, n,
                                     narrowed.visible, sizeof narrowed.visible, narrowed.ordinal);
    if (listed < 1 || setenv("CUDA_VISIBLE_DEVICES", narrowed.visible, 1) != 0)
        return 0;
    narrowed.on = 1;
    narrowed.listed = listed;
    if (getenv("LOCKSTEP_DEBUG_NARROW"))
        fprintf(stderr, "lockstep: CUDA initialises CUDA_VISIBLE_DEVICES=%s (%d GPU%s listed)\n", narrowed.visible,
                listed, listed == 1 ? "" : "s");
    return 1;
}

/* The runtime's number for device `index`: itself, or where narrowing
 * put it; -1 with err set when this process did not initialise it. */
static int cuda_ordinal(int index, ls_error *err)
{
    if (!narrowed.on)
        return index;
    int o = index >= 0 && index < LS_CUDA_VISIBLE_MAX ? narrowed.ordinal[index] : -1;
    if (o < 0)
        ls_fail(err, "cuda:%d was not initialised: this process initialised only CUDA_VISIBLE_DEVICES=%s, the "
                     "devices its spec names (LOCKSTEP_CUDA_NARROW=0 initialises every one)",
                index, narrowed.visible);
    return o;
}

static void cuda_describe(int device, int driver, ls_device_info *out);

static int cuda_list_devices(ls_device_info *out, int max, ls_error *why)
{
    int n = 0;
    cuda_called = 1;
    cudaError_t st = cudaGetDeviceCount(&n);
    if (narrowed.on) {
        /* The GPUs there are, those initialised described: the others
         * are never opened (ls_set_narrow). */
        if (st != cudaSuccess) {
            cuda_unavailable(st, why);
            return 0;
        }
        int driver = 0;
        cudaDriverGetVersion(&driver);
        int listed = narrowed.listed < max ? narrowed.listed : max;
        for (int i = 0; i < listed; i++) {
            memset(&out[i], 0, sizeof out[i]);
            int o = narrowed.ordinal[i];
            if (o >= 0 && o < n) {
                cuda_describe(o, driver, &out[i]);
                continue;
            }
            out[i].kind = LS_DEVICE_GPU;
            snprintf(out[i].name, sizeof out[i].name, "CUDA device %d (%s)", i,
                     o < 0 ? "not initialised by this process" : "not found by the driver");
        }
        return listed;
    }
    if (st != cudaSuccess) {
        cuda_unavailable(st, why);
        return 0;
    }
    if (n == 0) {
        ls_fail(why, "the NVIDIA driver reports no CUDA GPU");
        return 0;
    }
    int driver = 0;
    cudaDriverGetVersion(&driver);
    if (n > max)
        n = max;
    for (int i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        cuda_describe(i, driver, &out[i]);
    }
    return n;
}

/* The runtime's device i as list_devices describes it, into out (zeroed). */
static void cuda_describe(int i, int driver, ls_device_info *out)
{
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) {
        snprintf(out->name, sizeof out->name, "CUDA device %d (properties unreadable)", i);
        return;
    }
    snprintf(out->name, sizeof out->name, "%.159s", prop.name); /* names are short; the field is 160 */
    snprintf(out->platform, sizeof out->platform, "CUDA driver %d.%d, sm_%d%d", driver / 1000,
             (driver % 1000) / 10, prop.major, prop.minor);
    out->compute_units = prop.multiProcessorCount;
    out->memory_bytes = prop.totalGlobalMem;
    snprintf(out->memory_reported_by, sizeof out->memory_reported_by, "cudaDeviceProp.totalGlobalMem");
    out->max_alloc_bytes = prop.totalGlobalMem; /* CUDA sets no smaller limit */
    out->kind = LS_DEVICE_GPU;
    /* For porting reports. The clock is an attribute: CUDA 13 dropped
     * cudaDeviceProp::clockRate. */
    int khz = 0;
    snprintf(out->vendor, sizeof out->vendor, "NVIDIA");
    snprintf(out->driver, sizeof out->driver, "CUDA %d.%d", driver / 1000, (driver % 1000) / 10);
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, i) == cudaSuccess)
        out->clock_mhz = khz / 1000;
    cuda_caps(&prop, &out->caps);
    cuda_silicon(&prop, out);
}

static void cuda_close(ls_ctx *ctx)
{
    if (!ctx)
        return;
    cudaSetDevice(ctx->device);
    while (ctx->kernels) {
        ls_kernel *k = ctx->kernels;
        ctx->kernels = k->next;
        free(k);
    }
#ifdef LS_HAVE_NVRTC
    while (ctx->libraries) {
        cu_library *l = ctx->libraries;
        ctx->libraries = l->next;
        if (l->lib)
            cudaLibraryUnload(l->lib);
        free(l->defines);
        free(l);
    }
#endif
    if (ctx->start)
        cudaEventDestroy(ctx->start);
    if (ctx->stop)
        cudaEventDestroy(ctx->stop);
    if (ctx->joined)
        cudaEventDestroy(ctx->joined);
    if (ctx->copied)
        cudaEventDestroy(ctx->copied);
    for (int q = 0; q < LS_GPU_QUEUES; q++)
        if (ctx->queue[q])
            cudaStreamDestroy(ctx->queue[q]);
    free(ctx);
}

static int cuda_open_into(ls_ctx *ctx, int index, ls_error *err)
{
    cuda_called = 1;
    ctx->index = index;
    ctx->device = cuda_ordinal(index, err);
    if (ctx->device < 0)
        return -1;
    int n = 0;
    CU_TRY(cudaGetDeviceCount(&n), err, "counting the devices");
    if (narrowed.on && ctx->device >= n)
        return ls_fail(err, "cuda:%d: the driver finds no such device among CUDA_VISIBLE_DEVICES=%s, which this "
                            "process set to the devices its spec names (LOCKSTEP_CUDA_NARROW=0 lists them all)",
                       index, narrowed.visible);
    CU_TRY(cudaSetDevice(ctx->device), err, "selecting the device");
    CU_TRY(cudaGetDeviceProperties(&ctx->prop, ctx->device), err, "reading device properties");
    for (int q = 0; q < LS_GPU_QUEUES; q++)
        CU_TRY(cudaStreamCreateWithFlags(&ctx->queue[q], cudaStreamNonBlocking), err, "creating a stream");
    CU_TRY(cudaEventCreateWithFlags(&ctx->joined, cudaEventDisableTiming), err, "creating an event");
    CU_TRY(cudaEventCreateWithFlags(&ctx->copied, cudaEventDisableTiming), err, "creating an event");
    CU_TRY(cudaEventCreate(&ctx->start), err, "creating an event");
    CU_TRY(cudaEventCreate(&ctx->stop), err, "creating an event");
    return 0;
}

static ls_ctx *cuda_open(int index, ls_error *err)
{
    ls_ctx *ctx = (ls_ctx *)calloc(1, sizeof *ctx);
    if (!ctx) {
        ls_fail(err, "out of memory opening a CUDA device");
        return NULL;
    }
    if (cuda_open_into(ctx, index, err) != 0) {
        cuda_close(ctx);
        return NULL;
    }
    return ctx;
}

/* ---- the primitives (gpu.h) ---------------------------------------------- */

/* The CUDA runtime's current device belongs to the calling host thread; a
 * run over several devices drives each from its own thread (src/set/set_run.c),
 * so every primitive selects its device first (a cheap call). */
#define CU_SELECT(ctx, err) CU_TRY(cudaSetDevice((ctx)->device), err, "selecting the device")

static void cu_info(ls_ctx *ctx, ls_gpu_info *out)
{
    out->is_gpu = 1;
    cuda_caps(&ctx->prop, &out->caps);
    ls_error ignored;
    ls_shape_choose(&out->caps, &out->shape, &ignored); /* prebuilt: the warp shape, never refused */
    out->prebuilt = 1;
    out->compute_units = (uint32_t)ctx->prop.multiProcessorCount;
    out->max_group = (uint32_t)ctx->prop.maxThreadsPerBlock;
    out->local_bytes = ctx->prop.sharedMemPerBlock;
    out->global_bytes = ctx->prop.totalGlobalMem;
}

static int cu_alloc(ls_ctx *ctx, size_t bytes, const char *what, ls_buf **out, ls_error *err)
{
    *out = NULL;
    ls_buf *b = (ls_buf *)calloc(1, sizeof *b);
    if (!b)
        return ls_fail(err, "out of host memory for %s", what);
    cudaError_t st = cudaSetDevice(ctx->device);
    if (st == cudaSuccess)
        st = cudaMalloc(&b->ptr, bytes ? bytes : 1);
    if (st == cudaSuccess)
        st = cudaMemsetAsync(b->ptr, 0, bytes, ctx->queue[0]);
    if (st == cudaSuccess)
        st = cudaStreamSynchronize(ctx->queue[0]);
    if (st != cudaSuccess) {
        cudaFree(b->ptr);
        free(b);
        return ls_fail(err, "CUDA could not allocate %zu bytes for %s: %s", bytes, what, cudaGetErrorString(st));
    }
    *out = b;
    return 0;
}

static void cu_free(ls_ctx *ctx, ls_buf *b)
{
    if (!b)
        return;
    cudaSetDevice(ctx->device);
    cudaFree(b->ptr);
    free(b);
}

static int cu_write(ls_ctx *ctx, int queue, ls_buf *b, size_t offset, const void *src, size_t bytes, ls_error *err)
{
    CU_SELECT(ctx, err);
    CU_TRY(cudaMemcpyAsync((char *)b->ptr + offset, src, bytes, cudaMemcpyHostToDevice, ctx->queue[queue]), err,
           "copying to the device");
    return 0;
}

static int cu_finish(ls_ctx *ctx, ls_error *err)
{
    for (int q = 0; q < LS_GPU_QUEUES; q++)
        CU_TRY(cudaStreamSynchronize(ctx->queue[q]), err, "running the kernels");
    return 0;
}

static int cu_read(ls_ctx *ctx, ls_buf *b, size_t offset, void *dst, size_t bytes, ls_error *err)
{
    CU_SELECT(ctx, err);
    if (cu_finish(ctx, err) != 0)
        return -1;
    CU_TRY(cudaMemcpy(dst, (const char *)b->ptr + offset, bytes, cudaMemcpyDeviceToHost), err,
           "copying from the device");
    return 0;
}

/* The kernel found before as (program, defines, name), or NULL. */
static ls_kernel *cu_found(ls_ctx *ctx, const char *program, const char *defines, const char *name)
{
    for (ls_kernel *k = ctx->kernels; k; k = k->next)
        if (strcmp(k->program, program) == 0 && strcmp(k->defines, defines) == 0 && strcmp(k->name, name) == 0)
            return k;
    return NULL;
}

/* nvcc's kernel `name` of program `program`, from its table. */
static int cu_entry(const char *program, const char *name, const ls_cu_program **prog, const ls_cu_entry **out,
                    ls_error *err)
{
    for (int p = 0; cu_programs[p]; p++) {
        if (strcmp(cu_programs[p]->name, program) != 0)
            continue;
        for (int e = 0; e < cu_programs[p]->count; e++)
            if (strcmp(cu_programs[p]->entries[e].name, name) == 0) {
                *prog = cu_programs[p];
                *out = &cu_programs[p]->entries[e];
                return 0;
            }
        return ls_fail(err, "CUDA program %s has no kernel %s", program, name);
    }
    return ls_fail(err, "no CUDA program %s in this build", program);
}

/* Remembers kernel fn as (program, defines, entry's name) in the context. */
static int cu_add_kernel(ls_ctx *ctx, const char *program, const char *defines, const void *fn,
                         const ls_cu_entry *entry, ls_kernel **out, ls_error *err)
{
    ls_kernel *k = (ls_kernel *)calloc(1, sizeof *k);
    if (!k)
        return ls_fail(err, "out of host memory for CUDA kernel %s", entry->name);
    *k = ls_kernel{program, entry->name, defines, fn, entry, ctx->kernels};
    ctx->kernels = k;
    *out = k;
    return 0;
}

static int cu_kernel(ls_ctx *ctx, const char *program, const char *name, ls_kernel **out, ls_error *err)
{
    const ls_cu_program *prog;
    const ls_cu_entry *e;
    if ((*out = cu_found(ctx, program, "", name)))
        return 0;
    if (cu_entry(program, name, &prog, &e, err) != 0)
        return -1;
    return cu_add_kernel(ctx, prog->name, "", e->fn, e, out, err);
}

#ifdef LS_HAVE_NVRTC
/* Program `program` compiled by NVRTC with `defines` for this device and
 * loaded: the one loaded before, or now. */
static int cu_library_for(ls_ctx *ctx, const ls_cu_program *prog, const char *defines, cu_library **out,
                          ls_error *err)
{
    for (cu_library *l = ctx->libraries; l; l = l->next)
        if (l->program == prog->name && strcmp(l->defines, defines) == 0) {
            *out = l;
            return 0;
        }
    cu_library *l = (cu_library *)calloc(1, sizeof *l);
    if (!l || !(l->defines = strdup(defines))) {
        free(l);
        return ls_fail(err, "out of host memory for CUDA program %s", prog->name);
    }
    const void *cubin = NULL;
    size_t bytes = 0;
    ls_error why = {{0}, 0};
    int rc = ls_nvrtc_cubin(prog->name, defines, ctx->prop.major * 10 + ctx->prop.minor, &cubin, &bytes, &why);
    cudaError_t st = cudaSuccess;
    if (rc == 0) {
        st = cudaSetDevice(ctx->device);
        if (st == cudaSuccess)
            st = cudaLibraryLoadData(&l->lib, cubin, NULL, NULL, 0, NULL, NULL, 0);
    }
    if (rc < 0 || st != cudaSuccess) {
        free(l->defines);
        free(l);
        if (rc < 0)
            return ls_fail(err, "%s", why.msg);
        return ls_fail(err, "CUDA could not load program %s built with %s: %s", prog->name, defines,
                       cudaGetErrorString(st));
    }
    l->program = prog->name;
    l->next = ctx->libraries;
    ctx->libraries = l;
    *out = l;
    return 0;
}

/* gpu.h's kernel_with: nvcc's kernel for "", else the kernel of that name
 * of the program NVRTC compiled with the definitions, or nvcc's where
 * NVRTC cannot make it here (no libnvrtc, or one that does not know the
 * GPU: loaded on the first build, so as not to cost every process). */
static int cu_kernel_with(ls_ctx *ctx, const char *program, const char *defines, const char *name, ls_kernel **out,
                          ls_error *err)
{
    const ls_cu_program *prog;
    const ls_cu_entry *e;
    cu_library *l;
    if (!defines[0])
        return cu_kernel(ctx, program, name, out, err);
    if ((*out = cu_found(ctx, program, defines, name)))
        return 0;
    if (cu_entry(program, name, &prog, &e, err) != 0 || cu_library_for(ctx, prog, defines, &l, err) != 0)
        return -1;
    if (!l->lib)
        return cu_kernel(ctx, program, name, out, err); /* NVRTC cannot make it here: nvcc's (gpu.h) */
    cudaKernel_t fn;
    cudaError_t st = cudaLibraryGetKernel(&fn, l->lib, name);
    if (st != cudaSuccess)
        return ls_fail(err, "CUDA program %s built with %s has no kernel %s: %s", program, defines, name,
                       cudaGetErrorString(st));
    return cu_add_kernel(ctx, prog->name, l->defines, (const void *)fn, e, out, err);
}
#else
#define cu_kernel_with NULL /* built without NVRTC (-Dnvrtc) */
#endif

static int cu_groups_per_unit(ls_ctx *ctx, ls_kernel *k, uint32_t group_size, size_t local_bytes, uint32_t *out,
                              ls_error *err)
{
    int n = 0;
    CU_SELECT(ctx, err);
    CU_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k->fn, (int)group_size, local_bytes), err,
           "querying occupancy");
    if (n < 1)
        return ls_fail(err, "kernel %s does not fit on this GPU with %u threads and %zu bytes of shared memory",
                       k->name, group_size, local_bytes);
    *out = (uint32_t)n;
    return 0;
}

#define CU_MAX_ARGS 24

static int cu_launch(ls_ctx *ctx, ls_kernel *k, const ls_launch *l, ls_error *err)
{
    void *args[CU_MAX_ARGS];
    if (l->nargs > CU_MAX_ARGS)
        return ls_fail(err, "kernel %s: more than %d arguments", k->name, CU_MAX_ARGS);
    /* OpenCL refuses a wrong count or size by itself; CUDA would read
     * past the argument. */
    if (ls_cu_check_args(k->entry, l, err) != 0)
        return -1;
    for (int i = 0; i < l->nargs; i++)
        args[i] = l->args[i].is_buf ? (l->args[i].buf ? (void *)&l->args[i].buf->ptr : (void *)&l->args[i].value)
                                    : (void *)l->args[i].value;
    if (l->groups > 0x7fffffffu) /* the wrapper refused 0 (gpu_call.c) */
        return ls_fail(err, "kernel %s: %llu groups is outside CUDA's grid", k->name, (unsigned long long)l->groups);
    CU_SELECT(ctx, err);
    cudaError_t st = cudaLaunchKernel(k->fn, dim3((unsigned)l->groups), dim3(l->group_size), args, l->local_bytes,
                                      ctx->queue[l->queue]);
    if (st != cudaSuccess)
        return ls_fail(err, "CUDA kernel %s could not start: %s", k->name, cudaGetErrorString(st));
    return 0;
}

static int cu_timer_start(ls_ctx *ctx, ls_error *err)
{
    CU_SELECT(ctx, err);
    CU_TRY(cudaEventRecord(ctx->start, ctx->queue[0]), err, "recording an event");
    /* Work on the second queue starts after the mark too. */
    CU_TRY(cudaStreamWaitEvent(ctx->queue[1], ctx->start, 0), err, "ordering the queues");
    return 0;
}

static int cu_timer_stop(ls_ctx *ctx, double *seconds, ls_error *err)
{
    CU_SELECT(ctx, err);
    float ms = 0;
    CU_TRY(cudaEventRecord(ctx->joined, ctx->queue[1]), err, "recording an event");
    CU_TRY(cudaStreamWaitEvent(ctx->queue[0], ctx->joined, 0), err, "ordering the queues");
    CU_TRY(cudaEventRecord(ctx->stop, ctx->queue[0]), err, "recording an event");
    CU_TRY(cudaEventSynchronize(ctx->stop), err, "running the kernels");
    CU_TRY(cudaEventElapsedTime(&ms, ctx->start, ctx->stop), err, "reading the timer");
    *seconds = ms * 1e-3;
    return cu_finish(ctx, err);
}

/* Makes queue wq of `waiter` wait for the work queued so far on queue q
 * of ctx (ctx may be waiter). */
static int cu_queue_after(ls_ctx *waiter, int wq, ls_ctx *ctx, int q, ls_error *err)
{
    CU_SELECT(ctx, err);
    CU_TRY(cudaEventRecord(ctx->copied, ctx->queue[q]), err, "recording an event");
    CU_TRY(cudaStreamWaitEvent(waiter->queue[wq], ctx->copied, 0), err, "ordering the queues");
    return 0;
}

/* Peer access from dst's device to src's, once: the copy then goes
 * straight over NVLink or PCIe instead of through host memory. Devices
 * that cannot reach each other still copy (the driver stages it). */
static int cu_enable_peer(ls_ctx *dst, const ls_ctx *src, ls_error *err)
{
    if (dst->device == src->device || src->device >= 64 || (dst->peers >> src->device & 1u))
        return 0;
    int can = 0;
    CU_SELECT(dst, err);
    CU_TRY(cudaDeviceCanAccessPeer(&can, dst->device, src->device), err, "asking about peer access");
    if (can) {
        cudaError_t st = cudaDeviceEnablePeerAccess(src->device, 0);
        if (st != cudaSuccess && st != cudaErrorPeerAccessAlreadyEnabled)
            return ls_fail(err, "CUDA enabling peer access from device %d to %d failed: %s", dst->index, src->index,
                           cudaGetErrorString(st));
        cudaGetLastError(); /* an already enabled peer leaves its error set */
    }
    dst->peers |= 1ull << src->device;
    return 0;
}

/* gpu.h's copy: after all work queued on both devices, on dst's queue 0,
 * and before any work queued on either after it. */
static int cu_copy(ls_ctx *dst_ctx, ls_buf *dst, size_t dst_offset, ls_ctx *src_ctx, ls_buf *src, size_t src_offset,
                   size_t bytes, ls_error *err)
{
    /* The copy runs on dst's queue 0, after its queue 1 and both of src's
     * (a Life exchange issues one a ghost zone: each event and wait is a
     * call into the driver, so no more of them than the order needs). */
    if (cu_enable_peer(dst_ctx, src_ctx, err) != 0 || cu_queue_after(dst_ctx, 0, dst_ctx, 1, err) != 0)
        return -1;
    for (int q = 0; q < LS_GPU_QUEUES && dst_ctx != src_ctx; q++)
        if (cu_queue_after(dst_ctx, 0, src_ctx, q, err) != 0)
            return -1;
    CU_SELECT(dst_ctx, err);
    /* Within one device (dst may be another process's memory, mapped by
     * open_shared: unified addressing finds where it lives). */
    if (dst_ctx == src_ctx)
        CU_TRY(cudaMemcpyAsync((char *)dst->ptr + dst_offset, (const char *)src->ptr + src_offset, bytes,
                               cudaMemcpyDeviceToDevice, dst_ctx->queue[0]),
               err, "copying within the device");
    else
        CU_TRY(cudaMemcpyPeerAsync((char *)dst->ptr + dst_offset, dst_ctx->device,
                                   (const char *)src->ptr + src_offset, src_ctx->device, bytes, dst_ctx->queue[0]),
               err, "copying between devices");
    /* Later work on either device (the source's next generation overwrites
     * what was read) waits for the copy: one event on dst's queue 0, which
     * the other queues wait for. */
    CU_SELECT(dst_ctx, err);
    CU_TRY(cudaEventRecord(dst_ctx->copied, dst_ctx->queue[0]), err, "recording an event");
    CU_TRY(cudaStreamWaitEvent(dst_ctx->queue[1], dst_ctx->copied, 0), err, "ordering the queues");
    for (int q = 0; q < LS_GPU_QUEUES && dst_ctx != src_ctx; q++)
        CU_TRY(cudaStreamWaitEvent(src_ctx->queue[q], dst_ctx->copied, 0), err, "ordering the queues");
    return 0;
}

/* Page-locked, and portable: a slab's ghosts may be copied by another
 * device of the process than the one that made them. */
static int cu_alloc_host(ls_ctx *ctx, size_t bytes, const char *what, void **out, ls_error *err)
{
    CU_SELECT(ctx, err);
    cudaError_t st = cudaHostAlloc(out, bytes ? bytes : 1, cudaHostAllocPortable);
    if (st != cudaSuccess) {
        *out = NULL;
        return ls_fail(err, "CUDA could not allocate %zu bytes of page-locked host memory for %s: %s", bytes, what,
                       cudaGetErrorString(st));
    }
    return 0;
}

static void cu_free_host(ls_ctx *ctx, void *p)
{
    if (!p)
        return;
    cudaSetDevice(ctx->device);
    cudaFreeHost(p);
}

static_assert(sizeof(cudaIpcMemHandle_t) == LS_GPU_HANDLE_BYTES, "a share handle is CUDA's IPC handle");

static int cu_share(ls_ctx *ctx, ls_buf *buf, unsigned char *handle, ls_error *err)
{
    CU_SELECT(ctx, err);
    cudaIpcMemHandle_t h;
    CU_TRY(cudaIpcGetMemHandle(&h, buf->ptr), err, "making a handle for another process");
    memcpy(handle, &h, sizeof h);
    return 0;
}

static int cu_open_shared(ls_ctx *ctx, const unsigned char *handle, ls_buf **out, ls_error *err)
{
    *out = NULL;
    CU_SELECT(ctx, err);
    ls_buf *b = (ls_buf *)calloc(1, sizeof *b);
    if (!b)
        return ls_fail(err, "out of host memory opening another process's buffer");
    cudaIpcMemHandle_t h;
    memcpy(&h, handle, sizeof h);
    cudaError_t st = cudaIpcOpenMemHandle(&b->ptr, h, cudaIpcMemLazyEnablePeerAccess);
    if (st != cudaSuccess) {
        free(b);
        return ls_fail(err, "CUDA could not open another process's buffer: %s", cudaGetErrorString(st));
    }
    *out = b;
    return 0;
}

static void cu_close_shared(ls_ctx *ctx, ls_buf *b)
{
    if (!b)
        return;
    cudaSetDevice(ctx->device);
    cudaIpcCloseMemHandle(b->ptr);
    free(b);
}

/* Named fields, as the other backends fill theirs; nvcc compiles this as
 * C++, where designated initializers must follow ls_gpu's order. */
static const ls_gpu cuda_gpu = {
    .info = cu_info,
    .alloc = cu_alloc,
    .free = cu_free,
    .write = cu_write,
    .read = cu_read,
    .kernel = cu_kernel,
    .kernel_with = cu_kernel_with,
    .groups_per_unit = cu_groups_per_unit,
    .launch = cu_launch,
    .timer_start = cu_timer_start,
    .timer_stop = cu_timer_stop,
    .copy = cu_copy,
    .alloc_host = cu_alloc_host,
    .free_host = cu_free_host,
    .share = cu_share,
    .open_shared = cu_open_shared,
    .close_shared = cu_close_shared,
};

/* What cudaMemGetInfo says is free on device `index`: it needs the
 * device's (primary) context, which this makes and keeps until exit. */
static int cuda_free_memory(int index, uint64_t *bytes)
{
    size_t free_bytes = 0, total = 0;
    ls_error ignored;
    cuda_called = 1;
    int device = cuda_ordinal(index, &ignored);
    if (device < 0 || cudaSetDevice(device) != cudaSuccess || cudaMemGetInfo(&free_bytes, &total) != cudaSuccess)
        return 0;
    *bytes = free_bytes;
    return 1;
}

extern "C" const ls_backend ls_backend_cuda = {
    .name = "cuda",
    .list_devices = cuda_list_devices,
    .open = cuda_open,
    .close = cuda_close,
    .gpu = &cuda_gpu,
    .free_memory = cuda_free_memory,
    .empty_platforms = NULL, /* one platform */
    .narrow = cuda_narrow,
};
