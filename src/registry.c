/* registry.c - the backends compiled into this binary and how a device is
 * chosen from a spec ("auto", "NAME", "NAME:INDEX"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "progress.h"
#include "set.h"

/* A device named by a spec, not opened yet. */
typedef struct dev_pick {
    const ls_backend *b;
    int index;
} dev_pick;

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

const char *ls_device_kind_name(ls_device_kind kind)
{
    return kind == LS_DEVICE_REFERENCE ? "reference"
           : kind == LS_DEVICE_GPU     ? "gpu"
           : kind == LS_DEVICE_CPU     ? "cpu"
                                       : "accelerator";
}

const char *ls_device_type_name(ls_device_kind kind)
{
    return kind == LS_DEVICE_GPU ? "GPU" : kind == LS_DEVICE_ACCELERATOR ? "accelerator" : "CPU";
}

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

int ls_backend_spec_parse(const char *flag, const char *spec, const ls_backend **backend, int *index,
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
        return ls_fail_usage(err, "%s: expected auto, NAME or NAME:INDEX with NAME one of %s; got '%s'", flag,
                             names, spec);
    memcpy(name, spec, nlen);
    name[nlen] = 0;
    *backend = ls_backend_find(name);
    if (!*backend) {
        static const char *known[] = {"openmp", "opencl", "cuda"};
        for (int i = 0; i < 3; i++)
            if (strcmp(name, known[i]) == 0)
                return ls_fail_usage(err, "%s: %s was not compiled into this lockstep (compiled: %s)", flag,
                                     name, names);
        return ls_fail_usage(err, "%s: unknown backend '%s' (compiled: %s)", flag, name, names);
    }
    if (colon) {
        char *end;
        errno = 0;
        long v = strtol(colon + 1, &end, 10);
        /* Digits only: strtol alone would take " 0" and "+0". */
        if (colon[1] < '0' || colon[1] > '9' || *end != 0 || errno || v < 0 || v >= LS_MAX_DEVICES)
            return ls_fail_usage(err, "%s: device index must be an integer from 0 to %d; got '%s'", flag,
                                 LS_MAX_DEVICES - 1, colon + 1);
        *index = (int)v;
    }
    return 0;
}

static int open_device(const char *flag, const ls_backend *b, int index, ls_device *d, ls_error *err)
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
        return ls_fail_usage(err, "%s: %s has %d device%s (index 0 to %d), not index %d", flag, b->name, n,
                             n == 1 ? "" : "s", n - 1, index);
    d->ctx = b->open(index, err);
    if (!d->ctx)
        return -1;
    d->backend = b;
    d->index = index;
    d->info = devs[index];
    snprintf(d->label, sizeof d->label, "%s:%d", b->name, index);
    return 0;
}

/* auto: a CUDA device, else an OpenCL GPU, else the reference CPU (an
 * OpenCL CPU or accelerator is never auto's pick). Finds the device
 * without opening it; under MPI with several ranks on this node, every GPU
 * of that backend, for the ranks to share out. */
static int pick_auto(dev_pick *out, int max, ls_error *err)
{
    for (int i = 0; ls_backends[i]; i++) {
        const ls_backend *b = ls_backends[i];
        ls_device_info devs[LS_MAX_DEVICES];
        ls_error why;
        int n = b->list_devices(devs, LS_MAX_DEVICES, &why), picked = 0;
        for (int d = 0; d < n && picked < max; d++) {
            int gpu = devs[d].kind == LS_DEVICE_GPU, wanted = gpu || devs[d].kind == LS_DEVICE_REFERENCE;
            if (wanted && (picked == 0 || (ls_cluster_local_size() > 1 && gpu)))
                out[picked++] = (dev_pick){b, d};
        }
        if (picked)
            return picked;
    }
    return ls_fail(err, "no backend could be opened");
}

int ls_auto_device(const ls_backend **backend, int *index, ls_error *err)
{
    dev_pick pick;
    if (pick_auto(&pick, 1, err) < 0)
        return -1;
    *backend = pick.b;
    *index = pick.index;
    return 0;
}

int ls_spec_list_check(const char *flag, const char *spec, const char *seps, ls_error *err)
{
    size_t len = strlen(spec);
    int empty = len == 0 || strchr(seps, spec[0]) || strchr(seps, spec[len - 1]);
    for (size_t i = 1; i < len && !empty; i++)
        empty = strchr(seps, spec[i]) && strchr(seps, spec[i - 1]);
    if (empty)
        return ls_fail_usage(err, "%s '%s': an empty item (a separator at an end, or two in a row)", flag, spec);
    for (size_t i = 0; i < len; i++)
        if (spec[i] == ' ' || spec[i] == '\t')
            return ls_fail_usage(err, "%s '%s': no spaces in a device list", flag, spec);
    return 0;
}

int ls_spec_parse(const char *flag, const char *spec, ls_spec_item *items, int max, ls_error *err)
{
    char buf[512];
    if (strlen(spec) >= sizeof buf)
        return ls_fail_usage(err, "%s: a list of at most %zu characters", flag, sizeof buf - 1);
    if (ls_spec_list_check(flag, spec, ",+", err) != 0)
        return -1;
    snprintf(buf, sizeof buf, "%s", spec);
    int n = 0, autos = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",+", &save); tok; tok = strtok_r(NULL, ",+", &save), n++) {
        if (n == max)
            return ls_fail_usage(err, "%s: at most %d items in '%s'", flag, max, spec);
        ls_spec_item *it = &items[n];
        size_t at = (size_t)(tok - buf);
        it->sep = at ? spec[at - 1] : 0;
        /* A set is opened again by its items' spelling: one cut short
         * could name another device (opencl:0...01 as opencl:0...0). */
        if (strlen(tok) >= sizeof it->text)
            return ls_fail_usage(err, "%s: a device spec of at most %zu characters; '%.20s...' is longer", flag,
                                 sizeof it->text - 1, tok);
        snprintf(it->text, sizeof it->text, "%s", tok);
        char *colon = strchr(tok, ':');
        int all = colon && strcmp(colon + 1, "all") == 0;
        if (all)
            *colon = 0; /* NAME:all: the name must be a backend's */
        if (ls_backend_spec_parse(flag, tok, &it->backend, &it->index, err) != 0)
            return -1;
        if (all && !it->backend)
            return ls_fail_usage(err, "%s: 'auto:all' is not a device list; name a backend, like cuda:all", flag);
        if (all)
            it->index = LS_SPEC_ALL;
        autos += !it->backend;
    }
    if (n == 0)
        return ls_fail_usage(err, "%s: expected auto, NAME, NAME:INDEX, NAME:all or a list of them; got '%s'", flag,
                             spec);
    if (autos && n > 1)
        return ls_fail_usage(err, "%s: auto stands alone, not in a list ('%s')", flag, spec);
    return n;
}

/* The devices one item names, listed but not opened. */
static int pick_item(const ls_spec_item *it, dev_pick *out, int max, ls_error *err)
{
    if (!it->backend)
        return pick_auto(out, max, err);
    if (it->index != LS_SPEC_ALL) {
        out[0] = (dev_pick){it->backend, it->index < 0 ? 0 : it->index};
        return 1;
    }
    ls_device_info devs[LS_MAX_DEVICES];
    ls_error why = {{0}, 0};
    int n = it->backend->list_devices(devs, LS_MAX_DEVICES, &why);
    if (n <= 0)
        return ls_fail(err, "%s is not available here: %s", it->backend->name, why.msg[0] ? why.msg : "no devices");
    int k = 0;
    for (int d = 0; d < n && k < max; d++)
        out[k++] = (dev_pick){it->backend, d};
    return k;
}

/* The devices a spec names, in order, before any are opened. */
static int pick_list(const char *flag, const char *spec, dev_pick *out, int max, ls_error *err)
{
    ls_spec_item items[LS_MAX_DEVICES];
    int nitems = ls_spec_parse(flag, spec, items, LS_MAX_DEVICES, err);
    if (nitems < 0)
        return -1;
    int n = 0;
    for (int t = 0; t < nitems; t++) {
        if (n == max)
            return ls_fail_usage(err, "%s: at most %d devices", flag, max);
        int k = pick_item(&items[t], out + n, max - n, err);
        if (k < 0)
            return -1;
        for (int i = n; i < n + k; i++)
            for (int j = 0; j < i; j++)
                if (out[i].b == out[j].b && out[i].index == out[j].index)
                    return ls_fail_usage(err, "%s: %s:%d is named twice in '%s'", flag, out[i].b->name,
                                         out[i].index, spec);
        n += k;
    }
    return n;
}

void ls_set_narrow(const char *spec)
{
    ls_spec_item items[LS_MAX_DEVICES];
    ls_error ignored = {{0}, 0};
    int n = ls_spec_parse("--backend", spec ? spec : ls_default_backend_spec(), items, LS_MAX_DEVICES, &ignored);
    for (int b = 0; n > 0 && ls_backends[b]; b++) {
        const ls_backend *be = ls_backends[b];
        int index[LS_MAX_DEVICES], k = 0, named = 1;
        for (int i = 0; i < n; i++) {
            /* auto, or a GPU API that may share the driver (NVIDIA's
             * OpenCL and CUDA: the one variable): every backend sees all. */
            if (!items[i].backend || (items[i].backend != be && !ls_backend_runs_host_programs(items[i].backend)))
                named = 0;
            else if (items[i].backend == be && items[i].index == LS_SPEC_ALL)
                named = 0;
            else if (items[i].backend == be)
                index[k++] = items[i].index < 0 ? 0 : items[i].index; /* NAME is its device 0 (pick_item) */
        }
        if (named && k && be->narrow)
            be->narrow(index, k);
    }
}

/* Under MPI, the ranks of one node share its devices (cluster.h). */
static int share_with_node(dev_pick *picks, int n)
{
    int k = ls_cluster_local_size(), r = ls_cluster_local_rank();
    if (k <= 1)
        return n;
    if (n < k) {
        picks[0] = picks[r % n];
        return 1;
    }
    int m = 0;
    for (int i = r; i < n; i += k)
        picks[m++] = picks[i];
    return m;
}

/* What messages about the default spec name: a bad $LOCKSTEP_BACKEND is
 * blamed on the variable, not on --backend. */
static const char *default_spec_flag(void)
{
    const char *env = getenv("LOCKSTEP_BACKEND");
    return env && *env ? "LOCKSTEP_BACKEND" : "--backend";
}

int ls_spec_syntax_check(const char *flag, const char *spec, ls_error *err)
{
    ls_spec_item items[LS_MAX_DEVICES];
    return ls_spec_parse(flag, spec, items, LS_MAX_DEVICES, err) < 0 ? -1 : 0;
}

int ls_default_backend_check(ls_error *err)
{
    /* The syntax only: whether the devices exist is for the run to say. */
    return ls_spec_syntax_check(default_spec_flag(), ls_default_backend_spec(), err);
}

/* The job this process is part of (cluster.h): the one place below the
 * command layer that reads the process's MPI state. */
static ls_job this_job(void)
{
    return (ls_job){ls_cluster_rank(), ls_cluster_size(), ls_cluster_local_rank(), ls_cluster_local_size()};
}

int ls_set_open(const char *spec, ls_set *set, ls_error *err)
{
    memset(set, 0, sizeof *set);
    double t0 = ls_now();
    const char *flag = spec ? "--backend" : default_spec_flag();
    if (!spec)
        spec = ls_default_backend_spec();
    dev_pick picks[LS_MAX_DEVICES];
    int n = pick_list(flag, spec, picks, LS_MAX_DEVICES, err);
    if (n < 0)
        return -1;
    n = share_with_node(picks, n);
    set->dev = calloc((size_t)n, sizeof *set->dev);
    if (!set->dev)
        return ls_fail(err, "out of memory opening %d devices", n);
    set->job = this_job();
    for (int i = 0; i < n; i++) {
        if (open_device(flag, picks[i].b, picks[i].index, &set->dev[i], err) != 0) {
            ls_set_close(set);
            return -1;
        }
        set->ndevices = i + 1;
        size_t used = strlen(set->label);
        snprintf(set->label + used, sizeof set->label - used, "%s%s", i ? "," : "", set->dev[i].label);
    }
    set->open_seconds = ls_now() - t0;
    return 0;
}

void ls_set_close(ls_set *set)
{
    for (int i = 0; i < set->ndevices; i++)
        if (set->dev[i].ctx)
            set->dev[i].backend->close(set->dev[i].ctx);
    free(set->dev);
    memset(set, 0, sizeof *set);
}
