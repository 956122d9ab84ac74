/* devlist.c - the devices a command runs on in turn; see devlist.h. */
#include "devlist.h"

#include <stdio.h>
#include <string.h>

/* The devices named by a comma-separated list of specs (a bare backend
 * name means all its devices; NAME:all, or specs joined by '+', one run
 * over a group of them), or every device when list is NULL. A backend
 * that cannot run here is reported in `skipped`; a device index the
 * backend does not have is the user's error. Groups are taken only when
 * `groups` is set. */
int ls_collect_devices(const char *list, int groups, ls_dev_ref *out, int max, char *skipped, size_t skipped_len,
                           ls_error *err)
{
    int n = 0;
    skipped[0] = 0;
    char buf[512];
    if (list && strlen(list) >= sizeof buf)
        return ls_fail_usage(err, "--backends: a list of at most %zu characters", sizeof buf - 1);
    if (list && ls_spec_list_check("--backends", list, ",+", err) != 0)
        return -1;
    snprintf(buf, sizeof buf, "%s", list ? list : "");
    const char *names[LS_MAX_DEVICES * 3];
    const int max_names = (int)(sizeof names / sizeof names[0]);
    int nnames = 0;
    if (list) {
        for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
            if (nnames == max_names)
                return ls_fail_usage(err, "--backends: at most %d entries", max_names);
            names[nnames++] = tok;
        }
        if (nnames == 0)
            return ls_fail_usage(err, "--backends: expected a comma-separated list like openmp,opencl");
    } else {
        for (int i = 0; ls_backends[i]; i++)
            names[nnames++] = ls_backends[i]->name;
    }
    for (int i = 0; i < nnames; i++) {
        const ls_backend *b;
        int index;
        if (strchr(names[i], '+') || strstr(names[i], ":all")) {
            if (!groups)
                return ls_fail_usage(err, "--backend: conformance runs on one device at a time, not on '%s'",
                                     names[i]);
            if (n == max)
                return ls_fail_usage(err, "--backends: at most %d devices and groups", max);
            if (ls_spec_syntax_check("--backends", names[i], err) != 0)
                return -1;
            for (int j = 0; j < n; j++)
                if (strcmp(out[j].group, names[i]) == 0)
                    return ls_fail_usage(err, "--backends: %s is named twice in '%s'", names[i], list);
            out[n] = (ls_dev_ref){NULL, -1, ""};
            snprintf(out[n++].group, sizeof out->group, "%s", names[i]);
            continue;
        }
        if (ls_backend_spec_parse(names[i], &b, &index, err) != 0)
            return -1;
        if (!b)
            return ls_fail_usage(err, "--backends: name backends explicitly (auto is not a list)");
        ls_device_info devs[LS_MAX_DEVICES];
        ls_error why = {{0}, 0};
        int nd = b->list_devices(devs, LS_MAX_DEVICES, &why);
        if (nd <= 0) {
            size_t used = strlen(skipped);
            snprintf(skipped + used, skipped_len - used, "%s%s: %s", used ? "; " : "", names[i], why.msg);
            continue;
        }
        if (index >= nd)
            return ls_fail_usage(err, "--backends: %s has %d device%s (index 0 to %d), not %s", b->name, nd,
                                 nd == 1 ? "" : "s", nd - 1, names[i]);
        /* A device compared with itself proves nothing: refused, as in
         * --backend (a bare name is every device of its backend). */
        for (int d = index < 0 ? 0 : index; d < (index < 0 ? nd : index + 1); d++) {
            for (int j = 0; j < n; j++)
                if (out[j].backend == b && out[j].index == d)
                    return ls_fail_usage(err, "--backends: %s:%d is named twice in '%s'", b->name, d, list);
            if (n == max)
                return ls_fail_usage(err, "--backends: at most %d devices and groups", max);
            out[n++] = (ls_dev_ref){b, d, ""};
        }
    }
    /* Run the CPU first: it is the reference the others are compared with. */
    for (int i = 1; i < n; i++)
        if (out[i].backend && strcmp(out[i].backend->name, "openmp") == 0) {
            ls_dev_ref t = out[i];
            memmove(out + 1, out, (size_t)i * sizeof *out);
            out[0] = t;
        }
    return n;
}

void ls_dev_label(const ls_dev_ref *d, char *out, size_t len)
{
    if (d->group[0])
        snprintf(out, len, "%s", d->group);
    else
        snprintf(out, len, "%s:%d", d->backend->name, d->index);
}

int ls_dev_open(ls_dev_ref d, ls_session *s, ls_error *err)
{
    char spec[160];
    ls_dev_label(&d, spec, sizeof spec);
    return ls_session_open(spec, s, err);
}

