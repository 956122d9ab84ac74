/* devlist.h - the devices and sets a command runs on, one after another:
 * check, conformance and bench all take a list of specs (--backend
 * openmp,opencl:1,cuda:all) or every device of every backend, and run on
 * each in turn. */
#ifndef LOCKSTEP_DEVLIST_H
#define LOCKSTEP_DEVLIST_H

#include <stddef.h>

#include "set.h"

/* One entry of the list: a device, or a set of devices that one run
 * is spread over (`set` holds its spec, e.g. "openmp+opencl:0"). */
typedef struct ls_dev_ref {
    const ls_backend *backend;
    int index;
    char set[128];
} ls_dev_ref;

/* The devices named by a comma-separated list of specs (a bare backend
 * name means all its devices; NAME:all, or specs joined by '+', one run
 * on a set of them; auto the device it picks), or every device when list
 * is NULL, the CPU first.
 * Every entry is expanded to its devices before any runs: a set of one
 * device is that device, and a device named twice (openmp:all,openmp;
 * openmp+openmp; two sets of the same devices) is the user's error, as is
 * a device index the backend does not have; messages name `flag`. An
 * entry whose backend cannot run here is reported in `skipped`. Returns
 * how many (0 when none can run here), or -1 with err set. */
int ls_collect_devices(const char *flag, const char *list, ls_dev_ref *out, int max, char *skipped,
                       size_t skipped_len, ls_error *err);

/* An entry of the list (or, with none, a backend compiled in) that
 * cannot run here, and why: a device or a backend's devices ("cuda",
 * "opencl:1"), or a set of which a backend cannot run here ("cuda:all"). */
typedef struct ls_dev_missing {
    char spec[128]; /* as the list named it: "cuda", "opencl:1", "cuda:all"
                     * (a set of up to 127 characters, as ls_dev_ref's) */
    char why[512];
} ls_dev_missing;

/* ls_collect_devices, with each entry that cannot run here also in
 * missing[0 .. *nmissing) (at most max_missing of them). */
int ls_collect_devices_missing(const char *flag, const char *list, ls_dev_ref *out, int max, char *skipped,
                               size_t skipped_len, ls_dev_missing *missing, int max_missing, int *nmissing,
                               ls_error *err);

/* The entry's spec: "opencl:0", or the set's. */
void ls_dev_label(const ls_dev_ref *d, char *out, size_t len);

/* What a table calls the entry once opened: the device's own name, or
 * for a set "2 devices: openmp:0,opencl:0". */
void ls_dev_name(const ls_set *set, char *out, size_t len);

/* Opens the entry as a set (of one device, or of the set's). 0, or -1
 * with err set. */
int ls_dev_open(ls_dev_ref d, ls_set *set, ls_error *err);

#endif
