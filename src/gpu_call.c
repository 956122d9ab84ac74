/* gpu_call.c - see gpu_call.h. */
#include "gpu_call.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"

/* The head every backend's buffer begins with (gpu.h). */
static const ls_buf_head *head_of(const ls_buf *buf)
{
    return (const ls_buf_head *)(const void *)buf;
}

static const ls_gpu *gpu_of(const ls_device *d)
{
    return d->backend->gpu;
}

/* Refuses a range of buf that is not inside it: `doing` says what the
 * range was for ("reading"). Written so that offset + bytes never
 * overflows: an offset near SIZE_MAX is past the end too. */
static int check_range(const ls_buf *buf, const char *doing, size_t offset, size_t bytes, ls_error *err)
{
    if (!buf)
        return ls_fail(err, "%s %zu bytes of a device buffer that was never allocated", doing, bytes);
    const ls_buf_head *h = head_of(buf);
    if (bytes > h->bytes || offset > h->bytes - bytes)
        return ls_fail(err, "%s %zu bytes at byte %zu of %s on %s would run past its end: it has %zu bytes", doing,
                       bytes, offset, h->what, h->device->label, h->bytes);
    return 0;
}

/* Refuses a NULL host pointer for a transfer of some bytes. */
static int check_host(const ls_buf *buf, const void *host, const char *doing, size_t bytes, ls_error *err)
{
    if (!host && bytes > 0)
        return ls_fail(err, "%s %zu bytes of %s on %s: no host memory was given", doing, bytes, head_of(buf)->what,
                       head_of(buf)->device->label);
    return 0;
}

static int check_queue(int queue, const ls_device *d, ls_error *err)
{
    if (queue < 0 || queue >= LS_GPU_QUEUES)
        return ls_fail(err, "queue %d of %s: a GPU device has queues 0 to %d", queue, d->label, LS_GPU_QUEUES - 1);
    return 0;
}

void ls_gpu_info_of(const ls_device *d, ls_gpu_info *out)
{
    gpu_of(d)->info(d->ctx, out);
}

ls_shape ls_device_shape(const ls_device *d)
{
    ls_gpu_info info;
    ls_gpu_info_of(d, &info);
    return info.shape;
}

/* What the wrappers know of a buffer a backend made: its device, size
 * and purpose (ls_buf_head, first in every backend's buffer). */
static void label_buf(ls_buf *buf, const ls_device *d, size_t bytes, const char *what)
{
    ls_buf_head *h = (ls_buf_head *)(void *)buf;
    h->device = d;
    h->bytes = bytes;
    snprintf(h->what, sizeof h->what, "%s", what);
}

int ls_gpu_alloc(const ls_device *d, size_t bytes, const char *what, ls_buf **out, ls_error *err)
{
    *out = NULL;
    if (!gpu_of(d))
        return ls_fail(err, "%s has no device primitives: no memory for %s", d->label, what);
    if (gpu_of(d)->alloc(d->ctx, bytes, what, out, err) != 0)
        return -1;
    label_buf(*out, d, bytes, what);
    return 0;
}

void ls_gpu_free(ls_buf *buf)
{
    if (!buf)
        return;
    const ls_device *d = head_of(buf)->device;
    gpu_of(d)->free(d->ctx, buf);
}

int ls_gpu_alloc_host(const ls_device *d, size_t bytes, const char *what, void **out, ls_error *err)
{
    *out = NULL;
    const ls_gpu *gpu = gpu_of(d);
    if (gpu && gpu->alloc_host)
        return gpu->alloc_host(d->ctx, bytes, what, out, err);
    if (!(*out = malloc(bytes ? bytes : 1)))
        return ls_fail(err, "out of memory for %s (%.1f MiB)", what, (double)bytes / (1 << 20));
    return 0;
}

void ls_gpu_free_host(const ls_device *d, void *p)
{
    const ls_gpu *gpu = gpu_of(d);
    if (gpu && gpu->free_host)
        gpu->free_host(d->ctx, p);
    else
        free(p);
}

int ls_gpu_share(ls_buf *buf, unsigned char *handle, ls_error *err)
{
    if (!buf || !handle)
        return ls_fail(err, "sharing %s: no buffer or no room for its handle", buf ? head_of(buf)->what : "a buffer");
    const ls_device *d = head_of(buf)->device;
    char why[256];
    if (!ls_device_supports(d, LS_CAP_SHARE, why, sizeof why))
        return ls_fail(err, "sharing %s with another process: %s", head_of(buf)->what, why);
    return gpu_of(d)->share(d->ctx, buf, handle, err);
}

int ls_gpu_open_shared(const ls_device *d, const unsigned char *handle, size_t bytes, const char *what,
                       ls_buf **out, ls_error *err)
{
    *out = NULL;
    char why[256];
    if (!ls_device_supports(d, LS_CAP_SHARE, why, sizeof why))
        return ls_fail(err, "opening %s of another process: %s", what, why);
    /* For the tests: a process whose driver refuses another's memory. */
    const char *debug = getenv("LOCKSTEP_DEBUG_SHARE");
    if (debug && strcmp(debug, "refuse") == 0)
        return ls_fail(err, "%s: opening %s refused (LOCKSTEP_DEBUG_SHARE=refuse)", d->label, what);
    if (gpu_of(d)->open_shared(d->ctx, handle, out, err) != 0)
        return -1;
    label_buf(*out, d, bytes, what);
    return 0;
}

void ls_gpu_close_shared(ls_buf *buf)
{
    if (!buf)
        return;
    const ls_device *d = head_of(buf)->device;
    gpu_of(d)->close_shared(d->ctx, buf);
}

int ls_gpu_write(ls_buf *buf, int queue, size_t offset, const void *src, size_t bytes, ls_error *err)
{
    if (check_range(buf, "writing", offset, bytes, err) != 0 || check_host(buf, src, "writing", bytes, err) != 0)
        return -1;
    const ls_device *d = head_of(buf)->device;
    if (check_queue(queue, d, err) != 0)
        return -1;
    return gpu_of(d)->write(d->ctx, queue, buf, offset, src, bytes, err);
}

int ls_gpu_read(ls_buf *buf, size_t offset, void *dst, size_t bytes, ls_error *err)
{
    if (check_range(buf, "reading", offset, bytes, err) != 0 || check_host(buf, dst, "reading", bytes, err) != 0)
        return -1;
    const ls_device *d = head_of(buf)->device;
    return gpu_of(d)->read(d->ctx, buf, offset, dst, bytes, err);
}

int ls_gpu_copy(ls_buf *dst, size_t dst_offset, ls_buf *src, size_t src_offset, size_t bytes, ls_error *err)
{
    if (check_range(dst, "copying into", dst_offset, bytes, err) != 0 ||
        check_range(src, "copying from", src_offset, bytes, err) != 0)
        return -1;
    const ls_device *to = head_of(dst)->device, *from = head_of(src)->device;
    char why[256] = "the devices are of two backends";
    if (to->backend != from->backend || !ls_device_supports(to, LS_CAP_COPY, why, sizeof why) ||
        !ls_device_supports(from, LS_CAP_COPY, why, sizeof why))
        return ls_fail(err, "copying %s on %s to %s on %s: %s", head_of(src)->what, from->label, head_of(dst)->what,
                       to->label, why);
    return gpu_of(to)->copy(to->ctx, dst, dst_offset, from->ctx, src, src_offset, bytes, err);
}

/* LOCKSTEP_DEBUG_STALL=build:HOW (progress.h): the first program build
 * of the process stalls here, above every backend; the host, whose
 * kernels are C compiled with it (no LS_CAP_KERNELS), builds nothing. */
int ls_gpu_kernel(const ls_device *d, const char *program, const char *name, ls_kernel **out, ls_error *err)
{
    if (ls_device_supports(d, LS_CAP_KERNELS, NULL, 0) && ls_debug_stall("build", err) != 0)
        return -1;
    return gpu_of(d)->kernel(d->ctx, program, name, out, err);
}

int ls_gpu_kernel_with(const ls_device *d, const char *program, const char *defines, const char *name,
                       ls_kernel **out, ls_error *err)
{
    *out = NULL;
    char why[256];
    if (!ls_device_supports(d, LS_CAP_DEFINES, why, sizeof why))
        return ls_fail(err, "program %s with %s: %s", program, defines, why);
    if (ls_debug_stall("build", err) != 0)
        return -1;
    return gpu_of(d)->kernel_with(d->ctx, program, defines, name, out, err);
}

int ls_gpu_groups_per_unit(const ls_device *d, ls_kernel *k, uint32_t group_size, size_t local_bytes,
                           uint32_t *out, ls_error *err)
{
    if (group_size == 0)
        return ls_fail(err, "groups of 0 work-items on %s", d->label);
    return gpu_of(d)->groups_per_unit(d->ctx, k, group_size, local_bytes, out, err);
}

/* Refuses a launch that no backend could run: no work, a queue that is
 * not there, arguments that are not there, or a buffer of another device. */
static int check_launch(const ls_device *d, const ls_launch *l, ls_error *err)
{
    if (l->groups == 0 || l->group_size == 0)
        return ls_fail(err, "a launch of %llu groups of %u work-items on %s: there is nothing to run",
                       (unsigned long long)l->groups, l->group_size, d->label);
    if (check_queue(l->queue, d, err) != 0)
        return -1;
    if (l->nargs < 0 || (l->nargs > 0 && !l->args))
        return ls_fail(err, "a launch of %d arguments on %s without them", l->nargs, d->label);
    for (int i = 0; i < l->nargs; i++) {
        const ls_buf *b = l->args[i].is_buf ? l->args[i].buf : NULL;
        if (b && head_of(b)->device != d)
            return ls_fail(err, "argument %d of a launch on %s is %s, a buffer of %s", i, d->label, head_of(b)->what,
                           head_of(b)->device->label);
    }
    return 0;
}

int ls_gpu_launch(const ls_device *d, ls_kernel *k, const ls_launch *launch, ls_error *err)
{
    if (check_launch(d, launch, err) != 0)
        return -1;
    return gpu_of(d)->launch(d->ctx, k, launch, err);
}

int ls_device_supports(const ls_device *d, ls_cap cap, char *why, size_t len)
{
    char reason[sizeof d->info.caps.why_not[0] + 64];
    if (ls_caps_supports(&d->info.caps, cap, reason, sizeof reason))
        return 1;
    /* A reason longer than why is cut: it still names the device and the cap. */
    if (why && len && snprintf(why, len, "%s: %s: %s", d->label, ls_cap_text(cap), reason) >= (int)len)
        why[len - 1] = '\0';
    return 0;
}

int ls_backend_runs_host_programs(const ls_backend *be)
{
    return be->gpu && be->gpu->runs_host_programs;
}

void ls_caps_from_methods(const ls_gpu *methods, const char *backend, ls_device_caps *c)
{
    memset(c, 0, sizeof *c);
    if (!methods || methods->runs_host_programs) {
        /* The host CPU runs the workloads' own C, compiled to keep the
         * float rule (-ffp-contract=off, meson.build). */
        for (int cap = 0; cap < LS_CAPS; cap++)
            ls_caps_refuse(c, (ls_cap)cap, "%s runs the workloads' own C code on the host's CPU", backend);
        ls_caps_grant(c, LS_CAP_EXACT_FP);
        return;
    }
    ls_caps_grant(c, LS_CAP_KERNELS);
    ls_caps_refuse(c, LS_CAP_WARP_SHUFFLE, "no 32-lane register shuffles");
    ls_caps_refuse(c, LS_CAP_SUBGROUP_SHUFFLE, "no shuffles in sub-groups of 32");
    ls_caps_refuse(c, LS_CAP_EXACT_FP, "%s does not say how this device computes floats", backend);
    if (methods->kernel_with)
        ls_caps_grant(c, LS_CAP_DEFINES);
    else
        ls_caps_refuse(c, LS_CAP_DEFINES, "this build of %s builds no program at run time", backend);
    if (methods->copy)
        ls_caps_grant(c, LS_CAP_COPY);
    else
        ls_caps_refuse(c, LS_CAP_COPY, "%s copies through the host", backend);
    if (methods->share && methods->open_shared && methods->close_shared)
        ls_caps_grant(c, LS_CAP_SHARE);
    else
        ls_caps_refuse(c, LS_CAP_SHARE, "%s has no memory another process can open", backend);
}
