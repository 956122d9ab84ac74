/* devlist.c - the devices a command runs on in turn; see devlist.h. */
#include "devlist.h"

#include <stdio.h>
#include <string.h>

/* Every device of a backend named bare ("opencl") or one of them
 * ("opencl:1"), appended to out; a backend that cannot run here goes to
 * `skipped`. Returns the new count, or -1 with err set. */
/* Where a backend that cannot run here is reported: the text, and the
 * list when the caller wants one. */
typedef struct skip_report {
    char *text;
    size_t len;
    ls_dev_missing *missing;
    int max, n;
} skip_report;

static void add_skipped(skip_report *s, const char *spec, const char *why)
{
    size_t used = strlen(s->text);
    snprintf(s->text + used, s->len - used, "%s%s: %s", used ? "; " : "", spec, why);
    if (s->missing && s->n < s->max) {
        snprintf(s->missing[s->n].spec, sizeof s->missing->spec, "%s", spec);
        snprintf(s->missing[s->n].why, sizeof s->missing->why, "%s", why);
        s->n++;
    }
}

static int add_devices(const ls_spec_item *it, const char *list, ls_dev_ref *out, int n, int max, skip_report *skipped,
                       ls_error *err)
{
    const ls_backend *b = it->backend;
    ls_device_info devs[LS_MAX_DEVICES];
    ls_error why = {{0}, 0};
    int nd = b->list_devices(devs, LS_MAX_DEVICES, &why);
    if (nd <= 0) {
        add_skipped(skipped, it->text, why.msg);
        return n;
    }
    if (it->index >= nd)
        return ls_fail_usage(err, "--backends: %s has %d device%s (index 0 to %d), not %s", b->name, nd,
                             nd == 1 ? "" : "s", nd - 1, it->text);
    /* A device compared with itself proves nothing: refused, as in
     * --backend (a bare name is every device of its backend). */
    int first = it->index < 0 ? 0 : it->index, last = it->index < 0 ? nd - 1 : it->index;
    for (int d = first; d <= last; d++) {
        for (int j = 0; j < n; j++)
            if (out[j].backend == b && out[j].index == d)
                return ls_fail_usage(err, "--backends: %s:%d is named twice in '%s'", b->name, d, list);
        if (n == max)
            return ls_fail_usage(err, "--backends: at most %d devices and sets", max);
        out[n++] = (ls_dev_ref){b, d, ""};
    }
    return n;
}

/* A set ("cuda:all", "openmp+opencl:0") appended to out as its spec. */
static int add_set(const char *set, const char *list, ls_dev_ref *out, int n, int max, ls_error *err)
{
    if (n == max)
        return ls_fail_usage(err, "--backends: at most %d devices and sets", max);
    for (int j = 0; j < n; j++)
        if (strcmp(out[j].set, set) == 0)
            return ls_fail_usage(err, "--backends: %s is named twice in '%s'", set, list);
    out[n] = (ls_dev_ref){NULL, -1, ""};
    snprintf(out[n].set, sizeof out->set, "%s", set);
    return n + 1;
}

int ls_collect_devices(const char *list, ls_dev_ref *out, int max, char *skipped, size_t skipped_len, ls_error *err)
{
    int none;
    return ls_collect_devices_missing(list, out, max, skipped, skipped_len, NULL, 0, &none, err);
}

int ls_collect_devices_missing(const char *list, ls_dev_ref *out, int max, char *skipped, size_t skipped_len,
                               ls_dev_missing *missing, int max_missing, int *nmissing, ls_error *err)
{
    skipped[0] = 0;
    skip_report report = {skipped, skipped_len, missing, max_missing, 0};
    *nmissing = 0;
    ls_spec_item items[LS_MAX_DEVICES * 3];
    int nitems = 0;
    if (list) {
        nitems = ls_spec_parse("--backends", list, items, LS_MAX_DEVICES * 3, err);
        if (nitems < 0)
            return -1;
    } else {
        for (int i = 0; ls_backends[i]; i++, nitems++) {
            items[nitems] = (ls_spec_item){ls_backends[i], LS_SPEC_ANY, nitems ? ',' : 0, ""};
            snprintf(items[nitems].text, sizeof items->text, "%s", ls_backends[i]->name);
        }
    }
    int n = 0;
    for (int i = 0; i < nitems && n >= 0;) {
        /* One entry of the comma-separated list: items joined by '+'. */
        int end = i + 1;
        while (end < nitems && items[end].sep == '+')
            end++;
        if (!items[i].backend)
            return ls_fail_usage(err, "--backends: name backends explicitly (auto is not a list)");
        if (end - i == 1 && items[i].index != LS_SPEC_ALL) {
            n = add_devices(&items[i], list, out, n, max, &report, err);
        } else {
            char set[128] = "";
            for (int k = i; k < end; k++)
                snprintf(set + strlen(set), sizeof set - strlen(set), "%s%s", k > i ? "+" : "", items[k].text);
            n = add_set(set, list, out, n, max, err);
        }
        i = end;
    }
    *nmissing = report.n;
    if (n < 0)
        return -1;
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
    if (d->set[0])
        snprintf(out, len, "%s", d->set);
    else
        snprintf(out, len, "%s:%d", d->backend->name, d->index);
}

void ls_dev_name(const ls_set *set, char *out, size_t len)
{
    if (set->ndevices > 1)
        snprintf(out, len, "%d devices: %.120s", set->ndevices, set->label);
    else
        snprintf(out, len, "%s", set->dev[0].info.name);
}

int ls_dev_open(ls_dev_ref d, ls_set *set, ls_error *err)
{
    char spec[160];
    ls_dev_label(&d, spec, sizeof spec);
    return ls_set_open(spec, set, err);
}

