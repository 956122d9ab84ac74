/* registry.c - the backends compiled into this binary and how a device is
 * chosen from a spec ("auto", "NAME", "NAME:INDEX"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

#ifndef LS_DEFAULT_BACKEND
#define LS_DEFAULT_BACKEND "auto"
#endif

extern const ls_backend ls_backend_openmp;
#ifdef LS_HAVE_OPENCL
extern const ls_backend ls_backend_opencl;
#endif
#ifdef LS_HAVE_CUDA
extern const ls_backend ls_backend_cuda;
#endif

const ls_backend *const ls_backends[] = {
#ifdef LS_HAVE_CUDA
    &ls_backend_cuda,
#endif
#ifdef LS_HAVE_OPENCL
    &ls_backend_opencl,
#endif
    &ls_backend_openmp,
    NULL,
};

const ls_backend *ls_backend_find(const char *name)
{
    for (int i = 0; ls_backends[i]; i++)
        if (strcmp(ls_backends[i]->name, name) == 0)
            return ls_backends[i];
    return NULL;
}

const char *ls_default_backend_spec(void)
{
    const char *env = getenv("LOCKSTEP_BACKEND");
    return env && *env ? env : LS_DEFAULT_BACKEND;
}

static void compiled_names(char *out, size_t len)
{
    out[0] = 0;
    for (int i = 0; ls_backends[i]; i++) {
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%s", i ? ", " : "", ls_backends[i]->name);
    }
}

int ls_backend_spec_parse(const char *spec, const ls_backend **backend, int *index,
                          ls_error *err)
{
    char name[32];
    const char *colon = strchr(spec, ':');
    size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
    *backend = NULL;
    *index = -1; /* -1: first available device */
    if (strcmp(spec, "auto") == 0)
        return 0;
    char names[128];
    compiled_names(names, sizeof names);
    if (nlen == 0 || nlen >= sizeof name)
        return ls_fail_usage(err, "--backend: expected auto, NAME or NAME:INDEX with NAME one of %s; got '%s'",
                             names, spec);
    memcpy(name, spec, nlen);
    name[nlen] = 0;
    *backend = ls_backend_find(name);
    if (!*backend) {
        static const char *known[] = {"openmp", "opencl", "cuda"};
        for (int i = 0; i < 3; i++)
            if (strcmp(name, known[i]) == 0)
                return ls_fail_usage(err, "--backend: %s was not compiled into this lockstep (compiled: %s)",
                                     name, names);
        return ls_fail_usage(err, "--backend: unknown backend '%s' (compiled: %s)", name, names);
    }
    if (colon) {
        char *end;
        errno = 0;
        long v = strtol(colon + 1, &end, 10);
        if (colon[1] == 0 || *end != 0 || errno || v < 0 || v >= LS_MAX_DEVICES)
            return ls_fail_usage(err, "--backend: device index must be an integer from 0 to %d; got '%s'",
                                 LS_MAX_DEVICES - 1, colon + 1);
        *index = (int)v;
    }
    return 0;
}

static int open_device(const ls_backend *b, int index, ls_session *s, ls_error *err)
{
    ls_device_info devs[LS_MAX_DEVICES];
    ls_error why = {{0}, 0};
    int n = b->list_devices(devs, LS_MAX_DEVICES, &why);
    if (n <= 0)
        return ls_fail(err, "%s is not available here: %s", b->name,
                       why.msg[0] ? why.msg : "no devices");
    if (index < 0)
        index = 0;
    if (index >= n)
        return ls_fail_usage(err, "--backend: %s has %d device%s (index 0 to %d), not index %d", b->name, n,
                             n == 1 ? "" : "s", n - 1, index);
    s->ctx = b->open(index, err);
    if (!s->ctx)
        return -1;
    s->backend = b;
    s->index = index;
    s->info = devs[index];
    return 0;
}

/* auto: a CUDA device, else an OpenCL GPU, else OpenMP. */
static int open_auto(ls_session *s, ls_error *err)
{
    for (int i = 0; ls_backends[i]; i++) {
        const ls_backend *b = ls_backends[i];
        ls_device_info devs[LS_MAX_DEVICES];
        ls_error why;
        int n = b->list_devices(devs, LS_MAX_DEVICES, &why);
        for (int d = 0; d < n; d++) {
            int wanted = strcmp(b->name, "openmp") == 0 || devs[d].is_gpu;
            if (wanted && open_device(b, d, s, err) == 0)
                return 0;
        }
    }
    return ls_fail(err, "no backend could be opened");
}

/* A bad $LOCKSTEP_BACKEND is blamed on the variable, not on --backend. */
static int parse_default_spec(const char *spec, const ls_backend **b, int *index, ls_error *err)
{
    if (ls_backend_spec_parse(spec, b, index, err) == 0)
        return 0;
    const char *env = getenv("LOCKSTEP_BACKEND");
    if (env && *env && strncmp(err->msg, "--backend", 9) == 0) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "LOCKSTEP_BACKEND%s", err->msg + 9);
        memcpy(err->msg, msg, sizeof msg);
    }
    return -1;
}

int ls_default_backend_check(ls_error *err)
{
    const ls_backend *b;
    int index;
    return parse_default_spec(ls_default_backend_spec(), &b, &index, err);
}

int ls_session_open(const char *spec, ls_session *s, ls_error *err)
{
    const ls_backend *b;
    int index;
    memset(s, 0, sizeof *s);
    if (!spec) {
        if (parse_default_spec(ls_default_backend_spec(), &b, &index, err) != 0)
            return -1;
    } else if (ls_backend_spec_parse(spec, &b, &index, err) != 0) {
        return -1;
    }
    return b ? open_device(b, index, s, err) : open_auto(s, err);
}

void ls_session_close(ls_session *s)
{
    if (s->backend && s->ctx)
        s->backend->close(s->ctx);
    s->ctx = NULL;
}
