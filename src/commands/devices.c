/* devices.c - `lockstep devices`: every compiled backend and its
 * devices, or why a backend cannot run here. */
#include <inttypes.h>
#include <string.h>

#include "cluster.h"
#include "commands.h"
#include "output.h"

/* A string member that is null when the backend did not say. */
static void json_string_member(FILE *out, const char *key, const char *value)
{
    fprintf(out, ",\"%s\":", key);
    if (value[0])
        ls_json_string(out, value);
    else
        fputs("null", out);
}

/* What `devices` says of a device's memory beyond its size: the largest
 * allocation, the free memory where the API tells it, and each workload's
 * largest problem that fits (ls_workload.device_fit). */
typedef struct device_memory {
    int has_free;
    uint64_t free_bytes;
    ls_device_fit fit[8];
    int nfit;
} device_memory;

static int device_memory_of(const ls_backend *b, int index, const ls_device_info *d, device_memory *m, ls_error *err)
{
    memset(m, 0, sizeof *m);
    m->has_free = b->free_memory && b->free_memory(index, &m->free_bytes);
    uint64_t max_alloc = d->max_alloc_bytes ? d->max_alloc_bytes : d->memory_bytes;
    for (int w = 0; ls_workloads[w] && m->nfit < 8; w++) {
        if (!ls_workloads[w]->device_fit)
            continue;
        int n = ls_workloads[w]->device_fit(d->memory_bytes, max_alloc, m->fit + m->nfit, 8 - m->nfit, err);
        if (n < 0)
            return -1;
        m->nfit += n;
    }
    return 0;
}

/* A byte count, or null where the API does not say (0 or absent). */
static void json_bytes_member(FILE *out, const char *key, int known, uint64_t value)
{
    fprintf(out, ",\"%s\":", key);
    if (known)
        fprintf(out, "%" PRIu64, value);
    else
        fputs("null", out);
}

/* The kernel shape the device would run (shape.h), NONE for the
 * reference; `why` says why LOCKSTEP_SHAPE cannot be had there. */
static ls_shape device_shape(const ls_device_info *d, ls_error *why)
{
    ls_shape shape = LS_SHAPE_NONE;
    if (ls_shape_choose(&d->caps, &shape, why) != 0)
        shape = LS_SHAPE_NONE;
    return shape;
}

static const char *json_bool(int b)
{
    return b ? "true" : "false";
}

/* What the device can do (caps.h): "supports", each capability by name,
 * and "not_supported", why for each it lacks. */
static void supports_json(FILE *out, const ls_device_caps *caps)
{
    fputs(",\"supports\":{", out);
    for (int cap = 0; cap < LS_CAPS; cap++)
        fprintf(out, "%s\"%s\":%s", cap ? "," : "", ls_cap_name((ls_cap)cap),
                json_bool(ls_caps_supports(caps, (ls_cap)cap, NULL, 0)));
    fputs("},\"not_supported\":{", out);
    for (int cap = 0, n = 0; cap < LS_CAPS; cap++) {
        char why[sizeof caps->why_not[0]];
        if (ls_caps_supports(caps, (ls_cap)cap, why, sizeof why))
            continue;
        fprintf(out, "%s\"%s\":", n++ ? "," : "", ls_cap_name((ls_cap)cap));
        ls_json_string(out, why);
    }
    fputc('}', out);
}

/* The device's kernel shape and the capabilities it was chosen from. */
static void shape_json(FILE *out, const ls_device_info *d)
{
    ls_error why = {{0}, 0};
    ls_shape shape = device_shape(d, &why);
    fprintf(out, ",\"shape\":\"%s\",\"shape_refused\":", ls_shape_name(shape));
    if (why.msg[0])
        ls_json_string(out, why.msg);
    else
        fputs("null", out);
    fprintf(out,
            ",\"caps\":{\"warp_shuffles\":%s,\"subgroup_shuffles\":%s,\"subgroup_width\":%u,"
            "\"vector_width\":%u,\"local_bytes\":%" PRIu64 "}",
            json_bool(ls_caps_supports(&d->caps, LS_CAP_WARP_SHUFFLE, NULL, 0)),
            json_bool(ls_caps_supports(&d->caps, LS_CAP_SUBGROUP_SHUFFLE, NULL, 0)), d->caps.subgroup_width,
            d->caps.vector_width, d->caps.local_bytes);
    supports_json(out, &d->caps);
}

/* Whether the device lacks `cap` for the reason `why` (why NULL: for any). */
static int lacks(const ls_device_caps *caps, int cap, const char *why)
{
    char reason[sizeof caps->why_not[0]];
    return !ls_caps_supports(caps, (ls_cap)cap, reason, sizeof reason) && (!why || strcmp(reason, why) == 0);
}

/* What the device can do, for people: a line of what it supports, then
 * what it does not, a line a reason, after the capabilities it covers
 * ("kernels, warp shuffles (openmp runs ...)"). */
static void supports_text(FILE *out, const ls_device_caps *caps, int indent)
{
    fprintf(out, "%-8s %*s  supports:", "", indent, "");
    int n = 0;
    for (int cap = 0; cap < LS_CAPS; cap++)
        if (!lacks(caps, cap, NULL))
            fprintf(out, "%s %s", n++ ? "," : "", ls_cap_text((ls_cap)cap));
    fprintf(out, "%s\n", n ? "" : " none of what lockstep asks");
    uint32_t said = 0;
    for (int cap = 0; cap < LS_CAPS; cap++) {
        char why[sizeof caps->why_not[0]];
        if ((said & LS_CAP_BIT(cap)) || ls_caps_supports(caps, (ls_cap)cap, why, sizeof why))
            continue;
        fprintf(out, "%-8s %*s  %s", "", indent, "", said ? "              " : "not supported:");
        for (int same = cap; same < LS_CAPS; same++)
            if (!(said & LS_CAP_BIT(same)) && lacks(caps, same, why)) {
                fprintf(out, "%s %s", same == cap ? "" : ",", ls_cap_text((ls_cap)same));
                said |= LS_CAP_BIT(same);
            }
        fprintf(out, " (%s)\n", why);
    }
}

/* One device of `lockstep devices --json`. */
static void device_json(FILE *out, const ls_backend *b, int index, const ls_device_info *d, const device_memory *m)
{
    fprintf(out, "{\"device\":\"%s:%d\",\"index\":%d,\"device_name\":", b->name, index, index);
    ls_json_string(out, d->name);
    fprintf(out, ",\"platform\":");
    ls_json_string(out, d->platform);
    json_string_member(out, "vendor", d->vendor);
    json_string_member(out, "driver_version", d->driver);
    json_string_member(out, "opencl_c_version", d->c_version);
    json_string_member(out, "uuid", d->uuid);
    json_string_member(out, "pci", d->pci);
    fprintf(out, ",\"clock_mhz\":");
    if (d->clock_mhz > 0)
        fprintf(out, "%d", d->clock_mhz);
    else
        fputs("null", out);
    fprintf(out, ",\"kind\":\"%s\",\"type\":\"%s\",\"compute_units\":%d,\"memory_bytes\":%" PRIu64,
            ls_device_kind_name(d->kind), ls_device_type_name(d->kind), d->compute_units, d->memory_bytes);
    json_string_member(out, "memory_reported_by", d->memory_reported_by);
    json_bytes_member(out, "max_alloc_bytes", d->max_alloc_bytes > 0, d->max_alloc_bytes);
    json_bytes_member(out, "free_memory_bytes", m->has_free, m->free_bytes);
    shape_json(out, d);
    fputs(",\"largest\":{", out);
    for (int i = 0; i < m->nfit; i++)
        fprintf(out, "%s\"%s\":%" PRIu64, i ? "," : "", m->fit[i].key, m->fit[i].value);
    fprintf(out, "},\"gpu\":%s}", d->kind == LS_DEVICE_GPU ? "true" : "false");
}

/* The platforms of backend b that offer no device here, as the members
 * of its JSON object or a line each. */
static void empty_platforms_json(FILE *out, const ls_backend *b)
{
    ls_empty_platform none[16];
    int n = b->empty_platforms ? b->empty_platforms(none, 16) : 0;
    fputs(",\"platforms_without_devices\":[", out);
    for (int i = 0; i < n; i++) {
        fprintf(out, "%s{\"platform\":", i ? "," : "");
        ls_json_string(out, none[i].name);
        fputs(",\"why\":", out);
        ls_json_string(out, none[i].why);
        fputc('}', out);
    }
    fputc(']', out);
}

static void empty_platforms_text(FILE *out, const ls_backend *b)
{
    ls_empty_platform none[16];
    int n = b->empty_platforms ? b->empty_platforms(none, 16) : 0;
    for (int i = 0; i < n; i++)
        fprintf(out, "%-8s platform %s: no device: %s\n", b->name, none[i].name, none[i].why);
}

static double gib(uint64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0 * 1024.0);
}

/* One device of the table: what runs it, what a porting report names,
 * and its memory as clinfo and hashcat -I show it. */
static void device_text(FILE *out, const ls_backend *b, int index, const ls_device_info *d, const device_memory *m)
{
    int indent = (int)strlen(b->name) + 2;
    fprintf(out, "%-8s %s:%d  %s [%s], %s%s, %d compute units\n", index ? "" : b->name, b->name, index, d->name,
            d->platform, ls_device_type_name(d->kind), d->kind == LS_DEVICE_REFERENCE ? " (the reference)" : "",
            d->compute_units);
    fprintf(out, "%-8s %*s  vendor %s, driver %s", "", indent, "", d->vendor[0] ? d->vendor : "-",
            d->driver[0] ? d->driver : "-");
    if (d->c_version[0])
        fprintf(out, ", %s", d->c_version);
    if (d->clock_mhz > 0)
        fprintf(out, ", %d MHz", d->clock_mhz);
    ls_error why = {{0}, 0};
    ls_shape shape = device_shape(d, &why);
    if (why.msg[0])
        fprintf(out, "\n%-8s %*s  kernel shape: refused: %s", "", indent, "", why.msg);
    else if (shape != LS_SHAPE_NONE)
        fprintf(out, "\n%-8s %*s  kernel shape: %s (%s)", "", indent, "", ls_shape_name(shape), ls_shape_text(shape));
    fputc('\n', out);
    supports_text(out, &d->caps, indent);
    /* The memory is the implementation's word, and what fits follows it
     * (PoCL's changed between runs: issue 34). */
    fprintf(out, "%-8s %*s  memory %.1f GiB as reported (%s), ", "", indent, "", gib(d->memory_bytes),
            d->memory_reported_by[0] ? d->memory_reported_by : "by the backend");
    if (d->max_alloc_bytes)
        fprintf(out, "at most %.1f GiB in one allocation, ", gib(d->max_alloc_bytes));
    else
        fputs("largest allocation not reported, ", out);
    if (m->has_free)
        fprintf(out, "%.1f GiB free\n", gib(m->free_bytes));
    else
        fputs("free memory not reported\n", out);
    if (!m->nfit)
        return;
    fprintf(out, "%-8s %*s  largest grid by that memory:", "", indent, "");
    for (int i = 0; i < m->nfit; i++)
        fprintf(out, "%s %s", i ? "," : "", m->fit[i].value ? m->fit[i].text : "none");
    fputc('\n', out);
}

/* --specs: what --backend accepts here, one a line (shell completion). */
static void print_specs(FILE *out)
{
    fprintf(out, "auto\n");
    for (int i = 0; ls_backends[i]; i++) {
        const ls_backend *b = ls_backends[i];
        ls_device_info devs[LS_MAX_DEVICES];
        ls_error why = {{0}, 0};
        int n = b->list_devices(devs, LS_MAX_DEVICES, &why);
        if (n <= 0)
            continue;
        fprintf(out, "%s\n", b->name);
        for (int d = 0; d < n; d++)
            fprintf(out, "%s:%d\n", b->name, d);
        fprintf(out, "%s:all\n", b->name);
    }
}

int ls_cmd_devices(int argc, char **argv)
{
    ls_error err = {{0}, 0};
    int json = 0, specs = 0;
    ls_common common = {0}; /* --quiet, which every command takes: devices shows no progress */
    ls_opt opts[] = {
        {"json", LS_OPT_FLAG, &json, 0, 0, NULL, "print one JSON object", NULL, NULL},
        {"specs", LS_OPT_FLAG, &specs, 0, 0, NULL,
         "print only the specs --backend accepts here (auto, NAME, NAME:INDEX, NAME:all), one a line", NULL, NULL},
        LS_OPT_QUIET(&common),
    };
    const int nopts = (int)(sizeof opts / sizeof opts[0]);
    int rc = ls_opts_parse(argc, argv, 2, opts, nopts, NULL, NULL, 0, &err);
    if (rc == 1) {
        ls_opts_help(stdout, "lockstep devices [--json | --specs]",
                     "Lists every compiled backend and its devices (name, platform, type: CPU, GPU or\n"
                     "accelerator, and the reference CPU the others are checked against; vendor, driver\n"
                     "version, OpenCL C version, clock, compute units; its kernel shape and what it\n"
                     "supports, with why not: kernels, warp or sub-group shuffles, the exact float rule,\n"
                     "programs built with definitions, device-to-device copies, memory shared between\n"
                     "processes; memory, the largest single\n"
                     "allocation, the free memory where the API tells it, and the largest square and\n"
                     "cube Life grid that fits: two generations, a bit per cell), or why a backend\n"
                     "cannot run here. The memory is taken as the implementation reports it, and the\n"
                     "largest grid follows it (PoCL's can change between runs). OpenCL platforms\n"
                     "installed that offer no device here are listed with why.",
                     opts, nopts);
        return 0;
    }
    if (rc == 0 && json && specs)
        rc = ls_fail_usage(&err, "--json and --specs: choose one");
    if (rc != 0)
        return ls_report(&err);
    /* A default that does not parse ($LOCKSTEP_BACKEND=garbage) is the
     * user's error, said as such. */
    if (ls_default_backend_check(&err) != 0)
        return ls_report(&err);
    ls_buffer b;
    if (ls_buffer_open(&b, &err) != 0)
        return ls_report(&err);
    FILE *out = b.f;
    if (specs) {
        print_specs(out);
        return ls_buffer_emit(&b, stdout, "standard output", &err) == 0 ? 0 : ls_report(&err);
    }
    if (json) {
        fputc('{', out);
        ls_json_provenance(out);
        fprintf(out, ",\"default\":");
        ls_json_string(out, ls_default_backend_spec());
        fprintf(out, ",\"backends\":[");
    } else {
        fprintf(out, "default backend: %s\n", ls_default_backend_spec());
    }
    for (int i = 0; ls_backends[i]; i++) {
        const ls_backend *be = ls_backends[i];
        ls_device_info devs[LS_MAX_DEVICES];
        ls_error why = {{0}, 0};
        int n = be->list_devices(devs, LS_MAX_DEVICES, &why);
        if (json) {
            fprintf(out, "%s{\"backend\":\"%s\",\"available\":%s,", i ? "," : "", be->name, n > 0 ? "true" : "false");
            if (n <= 0) {
                fprintf(out, "\"why\":");
                ls_json_string(out, why.msg);
                fprintf(out, ",");
            }
            fprintf(out, "\"devices\":[");
        } else if (n <= 0) {
            fprintf(out, "%-8s unavailable: %s\n", be->name, why.msg[0] ? why.msg : "no devices");
        }
        for (int d = 0; d < n; d++) {
            device_memory m;
            if (device_memory_of(be, d, &devs[d], &m, &err) != 0) {
                ls_buffer_discard(&b);
                return ls_report(&err);
            }
            if (json) {
                fputs(d ? "," : "", out);
                device_json(out, be, d, &devs[d], &m);
            } else {
                device_text(out, be, d, &devs[d], &m);
            }
        }
        if (json) {
            fputc(']', out);
            empty_platforms_json(out, be);
            fputc('}', out);
        } else {
            empty_platforms_text(out, be);
        }
    }
    char mpi[256];
    ls_cluster_library(mpi, sizeof mpi);
    if (json) {
        fprintf(out, "],\"mpi\":");
        if (mpi[0])
            ls_json_string(out, mpi);
        else
            fprintf(out, "null");
        fprintf(out, "}\n");
    } else {
        fprintf(out, "mpi      %s\n", mpi[0] ? mpi : "not built in (every workload runs in one process)");
    }
    return ls_buffer_emit(&b, stdout, "standard output", &err) == 0 ? 0 : ls_report(&err);
}
