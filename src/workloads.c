/* workloads.c - the workload registry and what every run shares: the
 * digest over the result's JSON, and the fault injection that proves
 * `check` can fail. */
#include <stdlib.h>
#include <string.h>

#include "version.h"
#include "workload.h"

/* Every workload meson built: LS_WORKLOADS is X(graveler) X(bmn) ... */
#define LS_DECLARE_(w) extern const ls_workload ls_workload_##w;
LS_WORKLOADS(LS_DECLARE_)
#define LS_LIST_(w) &ls_workload_##w,
const ls_workload *const ls_workloads[] = {LS_WORKLOADS(LS_LIST_) NULL};

const ls_workload *ls_workload_find(const char *name)
{
    for (int i = 0; ls_workloads[i]; i++)
        if (strcmp(ls_workloads[i]->name, name) == 0)
            return ls_workloads[i];
    return NULL;
}

void ls_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    while (*s) {
        unsigned char c = (unsigned char)*s;
        size_t n = ls_utf8_length(s);
        if (n == 0) /* not UTF-8 (a file name in another encoding): U+FFFD */
            fputs("\\ufffd", out);
        else if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\u%04x", c);
        else
            fwrite(s, 1, n, out);
        s += n ? n : 1;
    }
    fputc('"', out);
}

void ls_json_provenance(FILE *out)
{
    fprintf(out, "\"lockstep\":{\"version\":");
    ls_json_string(out, ls_version);
    fprintf(out, ",\"commit\":");
    if (ls_commit[0])
        ls_json_string(out, ls_commit);
    else
        fputs("null", out);
    fputc('}', out);
}

char *ls_result_json(const ls_workload *w, const void *params, const ls_run *run)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    w->result_json(params, run, f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* LOCKSTEP_DEBUG_FAULT=BACKEND:FIELD makes every run on BACKEND report a
 * wrong FIELD (a JSON member of the result): the tests use it to show that
 * `check` catches and names a wrong field of every workload. BACKEND:N
 * (opencl:1) makes only the runs on that device wrong, to show that two
 * devices of one backend (and one kind, as ray's fast mode compares
 * them) are still compared. */
static int apply_fault(const ls_workload *w, const ls_set *s, ls_run *run, ls_error *err)
{
    const char *spec = getenv("LOCKSTEP_DEBUG_FAULT");
    const char *colon = spec ? strrchr(spec, ':') : NULL; /* a field has no colon; a device has one */
    if (!spec || !*spec)
        return 0;
    if (!colon)
        return ls_fail_usage(err, "LOCKSTEP_DEBUG_FAULT: expected BACKEND:FIELD or BACKEND:N:FIELD, got '%s'", spec);
    size_t n = (size_t)(colon - spec);
    const ls_device *d = &s->dev[0];
    int is_device = memchr(spec, ':', n) != NULL;
    const char *target = is_device ? d->label : d->backend->name;
    if (strlen(target) != n || strncmp(spec, target, n) != 0)
        return 0;
    if (!w->fault || w->fault(run, colon + 1) != 0)
        return ls_fail_usage(err, "LOCKSTEP_DEBUG_FAULT: %s has no result field '%s' to perturb", w->name, colon + 1);
    fprintf(stderr, "lockstep: LOCKSTEP_DEBUG_FAULT is set: %s's field '%s' on %s is deliberately wrong\n", w->name,
            colon + 1, target);
    return 0;
}

int ls_run_seal(const ls_workload *w, const void *params, const ls_set *s, ls_run *run, ls_error *err)
{
    if (apply_fault(w, s, run, err) != 0)
        return -1;
    char *text = ls_result_json(w, params, run);
    if (!text)
        return ls_fail(err, "out of memory rendering the result");
    snprintf(run->digest, sizeof run->digest, "%016llx",
             (unsigned long long)ls_fnv1a(LS_FNV_INIT, text, strlen(text)));
    free(text);
    return 0;
}
