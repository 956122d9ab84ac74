/* devlist.c - the devices a command runs on in turn; see devlist.h. */
#include "devlist.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The devices an entry of the list names, a bit per device of each
 * backend (in ls_backends' order): two entries name the same devices when
 * their masks are equal, however they are spelt (openmp, openmp:0,
 * openmp:all and openmp:0+openmp:all on a machine of one CPU device). */
#define MAX_BACKENDS 8
_Static_assert(LS_MAX_DEVICES <= 32, "a device mask holds 32 devices of a backend");
typedef struct dev_mask {
    uint32_t bits[MAX_BACKENDS];
} dev_mask;

/* An entry taken: the devices it names, and how the list spelt it. */
typedef struct entry_seen {
    dev_mask devices;
    char text[128];
} entry_seen;

/* Each backend's devices, listed once for the whole list: their count and
 * kinds, or 0 and why the backend cannot run here. */
typedef struct dev_counts {
    int listed[MAX_BACKENDS];
    int count[MAX_BACKENDS];
    ls_device_kind kind[MAX_BACKENDS][LS_MAX_DEVICES];
    char why[MAX_BACKENDS][sizeof(((ls_error *)0)->msg)];
} dev_counts;

/* Where backend b's bits are: its place in ls_backends. */
static int backend_slot(const ls_backend *b)
{
    int i = 0;
    while (ls_backends[i] && ls_backends[i] != b && i < MAX_BACKENDS - 1)
        i++;
    return i;
}

/* How many devices b has here; 0 with *why saying why none can run. */
static int devices_of(dev_counts *dc, const ls_backend *b, const char **why)
{
    int s = backend_slot(b);
    if (!dc->listed[s]) {
        ls_device_info devs[LS_MAX_DEVICES];
        ls_error e = {{0}, 0};
        int n = b->list_devices(devs, LS_MAX_DEVICES, &e);
        dc->count[s] = n > 0 ? n : 0;
        for (int d = 0; d < n; d++)
            dc->kind[s][d] = devs[d].kind;
        snprintf(dc->why[s], sizeof dc->why[s], "%s", n > 0 ? "" : e.msg[0] ? e.msg : "no devices");
        dc->listed[s] = 1;
    }
    *why = dc->why[s];
    return dc->count[s];
}

/* How many devices m holds; *b and *index name the last of them. */
static int mask_count(const dev_mask *m, const ls_backend **b, int *index)
{
    int n = 0;
    for (int s = 0; s < MAX_BACKENDS && ls_backends[s]; s++)
        for (int d = 0; d < LS_MAX_DEVICES; d++)
            if (m->bits[s] >> d & 1u) {
                *b = ls_backends[s];
                *index = d;
                n++;
            }
    return n;
}

/* "openmp:0,opencl:0": the devices of m, for a message. */
static void mask_text(const dev_mask *m, char *out, size_t len)
{
    out[0] = 0;
    for (int s = 0; s < MAX_BACKENDS && ls_backends[s]; s++)
        for (int d = 0; d < LS_MAX_DEVICES; d++)
            if (m->bits[s] >> d & 1u) {
                size_t used = strlen(out);
                snprintf(out + used, len - used, "%s%s:%d", used ? "," : "", ls_backends[s]->name, d);
            }
}

/* Adds the devices item `it` of an entry names to m. A bare name alone
 * in its entry ("opencl") is every device of the backend, as NAME:all;
 * in a set ("openmp+opencl") it is the first, as --backend reads it.
 * Returns 1, 0 when the backend cannot run here (*why says why), or -1
 * with err set for an index the backend does not have or a device the
 * entry names twice (a set runs on each of its devices once). */
static int mask_add_item(dev_counts *dc, const ls_spec_item *it, int alone, const char *entry, const char *flag,
                         dev_mask *m, const char **why, ls_error *err)
{
    const ls_backend *b = it->backend;
    int nd = devices_of(dc, b, why);
    if (nd == 0)
        return 0;
    if (it->index >= nd)
        return ls_fail_usage(err, "%s: %s has %d device%s (index 0 to %d), not %s", flag, b->name, nd,
                             nd == 1 ? "" : "s", nd - 1, it->text);
    int every = it->index == LS_SPEC_ALL || (alone && it->index == LS_SPEC_ANY);
    int first = every || it->index < 0 ? 0 : it->index, last = every ? nd - 1 : first;
    uint32_t *bits = &m->bits[backend_slot(b)];
    for (int d = first; d <= last; d++) {
        if (*bits >> d & 1u)
            return ls_fail_usage(err, "%s: %s:%d is named twice in the set %s: a set runs on each of its devices once",
                                 flag, b->name, d, entry);
        *bits |= 1u << d;
    }
    return 1;
}

/* Refuses an entry that names the same devices as one before it: a device
 * compared with itself (check) proves nothing. 0, or -1 with err set. */
static int check_named_once(const entry_seen *seen, int n, const entry_seen *e, const char *flag, const char *list,
                            ls_error *err)
{
    for (int j = 0; j < n; j++) {
        if (memcmp(&seen[j].devices, &e->devices, sizeof e->devices) != 0)
            continue;
        char devices[256], spelt[300] = "";
        mask_text(&e->devices, devices, sizeof devices);
        if (strcmp(seen[j].text, e->text) != 0)
            snprintf(spelt, sizeof spelt, " (as %s and as %s)", seen[j].text, e->text);
        return ls_fail_usage(err, "%s: %s is named twice in '%s'%s", flag, devices, list, spelt);
    }
    return 0;
}

/* Appends the entry: a device, or a set of several (a set of one device
 * is that device). Returns the new count, or -1 with err set. */
static int add_entry(const entry_seen *e, ls_dev_ref *out, entry_seen *seen, int n, int max, const char *flag,
                     const char *list, ls_error *err)
{
    if (check_named_once(seen, n, e, flag, list, err) != 0)
        return -1;
    if (n == max)
        return ls_fail_usage(err, "%s: at most %d devices and sets", flag, max);
    const ls_backend *b = NULL;
    int index = -1;
    if (mask_count(&e->devices, &b, &index) == 1) {
        out[n] = (ls_dev_ref){b, index, ""};
    } else {
        out[n] = (ls_dev_ref){NULL, -1, ""};
        snprintf(out[n].set, sizeof out->set, "%s", e->text);
    }
    seen[n] = *e;
    return n + 1;
}

/* Where an entry that cannot run here is reported: the text, and the
 * list when the caller wants one. */
typedef struct skip_report {
    char *text;
    size_t len;
    ls_dev_missing *missing;
    int max, n;
} skip_report;

/* Notes an entry that cannot run here (a device, or a set with a backend
 * that cannot run here), as the list spelt it, and why. */
static void add_skipped(skip_report *s, const char *entry, const char *why)
{
    size_t used = strlen(s->text);
    snprintf(s->text + used, s->len - used, "%s%s: %s", used ? "; " : "", entry, why);
    if (s->missing && s->n < s->max) {
        snprintf(s->missing[s->n].spec, sizeof s->missing->spec, "%s", entry);
        snprintf(s->missing[s->n].why, sizeof s->missing->why, "%s", why);
        s->n++;
    }
}

/* One entry of the comma-separated list, items[0 .. count) joined by '+':
 * a bare name alone is each device of its backend, one entry apiece;
 * anything else is one entry, a set of the devices its items name. */
static int add_entries(dev_counts *dc, const ls_spec_item *items, int count, ls_dev_ref *out, entry_seen *seen, int n,
                       int max, skip_report *skipped, const char *flag, const char *list, ls_error *err)
{
    entry_seen e;
    memset(&e, 0, sizeof e);
    /* The set is opened by its spelling: one cut short would be another set. */
    for (int k = 0; k < count; k++) {
        size_t used = strlen(e.text);
        if ((size_t)snprintf(e.text + used, sizeof e.text - used, "%s%s", k ? "+" : "", items[k].text) >=
            sizeof e.text - used)
            return ls_fail_usage(err, "%s: a set of at most %zu characters ('%s' is longer)", flag,
                                 sizeof e.text - 1, e.text);
    }
    const char *unavailable = NULL; /* why a backend of the entry cannot run here */
    for (int k = 0; k < count; k++) {
        const char *why = "";
        int got = mask_add_item(dc, &items[k], count == 1, e.text, flag, &e.devices, &why, err);
        if (got < 0)
            return -1;
        if (got == 0 && !unavailable)
            unavailable = why;
    }
    if (unavailable) {
        add_skipped(skipped, e.text, unavailable);
        return n;
    }
    if (count > 1 || items[0].index != LS_SPEC_ANY)
        return add_entry(&e, out, seen, n, max, flag, list, err);
    /* "opencl": each of its devices, one entry apiece, named opencl:0 ... */
    const ls_backend *b = items[0].backend;
    int s = backend_slot(b);
    for (int d = 0; d < LS_MAX_DEVICES && n >= 0; d++)
        if (e.devices.bits[s] >> d & 1u) {
            entry_seen one;
            memset(&one, 0, sizeof one);
            one.devices.bits[s] = 1u << d;
            snprintf(one.text, sizeof one.text, "%s", items[0].text);
            n = add_entry(&one, out, seen, n, max, flag, list, err);
        }
    return n;
}

int ls_collect_devices(const char *flag, const char *list, ls_dev_ref *out, int max, char *skipped,
                       size_t skipped_len, ls_error *err)
{
    int none;
    return ls_collect_devices_missing(flag, list, out, max, skipped, skipped_len, NULL, 0, &none, err);
}

int ls_collect_devices_missing(const char *flag, const char *list, ls_dev_ref *out, int max, char *skipped,
                               size_t skipped_len, ls_dev_missing *missing, int max_missing, int *nmissing,
                               ls_error *err)
{
    skipped[0] = 0;
    skip_report report = {skipped, skipped_len, missing, max_missing, 0};
    *nmissing = 0;
    ls_spec_item items[LS_MAX_DEVICES * 3];
    int nitems = 0;
    if (list) {
        nitems = ls_spec_parse(flag, list, items, LS_MAX_DEVICES * 3, err);
        if (nitems < 0)
            return -1;
    } else {
        for (int i = 0; ls_backends[i]; i++, nitems++) {
            items[nitems] = (ls_spec_item){ls_backends[i], LS_SPEC_ANY, nitems ? ',' : 0, ""};
            snprintf(items[nitems].text, sizeof items->text, "%s", ls_backends[i]->name);
        }
    }
    entry_seen seen[LS_MAX_DEVICES * 3];
    if (max > LS_MAX_DEVICES * 3)
        max = LS_MAX_DEVICES * 3;
    dev_counts dc;
    memset(&dc, 0, sizeof dc);
    /* Every entry is expanded and checked before any runs: a bad set
     * late in the list stops nothing half-way. */
    int n = 0;
    for (int i = 0; i < nitems && n >= 0;) {
        int end = i + 1;
        while (end < nitems && items[end].sep == '+')
            end++;
        /* auto (which stands alone) is the one device it picks. */
        if (!items[i].backend && ls_auto_device(&items[i].backend, &items[i].index, err) != 0)
            return -1;
        n = add_entries(&dc, items + i, end - i, out, seen, n, max, &report, flag, list ? list : "", err);
        i = end;
    }
    *nmissing = report.n;
    if (n < 0)
        return -1;
    /* Run the reference first: the others are compared with it. */
    for (int i = 1; i < n; i++)
        if (out[i].backend && dc.kind[backend_slot(out[i].backend)][out[i].index] == LS_DEVICE_REFERENCE) {
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
