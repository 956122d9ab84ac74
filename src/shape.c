/* shape.c - the kernel shape of a device, from its capabilities
 * (shape.h): the one place where it is decided. */
#include <stdlib.h>
#include <string.h>

#include "shape.h"

static const struct {
    ls_shape shape;
    const char *name, *text;
} shapes[] = {
    {LS_SHAPE_NONE, "none", "no kernels: the workloads' own C code"},
    {LS_SHAPE_WARP, "warp", "warps of 32 exchanging registers by shuffles"},
    {LS_SHAPE_SUBGROUP, "subgroup", "sub-groups exchanging registers by shuffles"},
    {LS_SHAPE_GROUP, "group", "groups exchanging through local memory between barriers"},
    {LS_SHAPE_CPU, "cpu", "work-items owning runs of words, no exchanges"},
};

const char *ls_shape_name(ls_shape shape)
{
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (shapes[i].shape == shape)
            return shapes[i].name;
    return "none";
}

const char *ls_shape_text(ls_shape shape)
{
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (shapes[i].shape == shape)
            return shapes[i].text;
    return shapes[0].text;
}

/* The capability kernels of `shape` need: every device that runs kernels
 * runs the group and CPU shapes (local memory and barriers are core
 * OpenCL), the shuffling ones need their shuffles. */
static ls_cap needed(ls_shape shape)
{
    return shape == LS_SHAPE_WARP       ? LS_CAP_WARP_SHUFFLE
           : shape == LS_SHAPE_SUBGROUP ? LS_CAP_SUBGROUP_SHUFFLE
                                        : LS_CAP_KERNELS;
}

/* Whether a device with caps can run kernels of `shape` (why not into
 * why[0..len) when it cannot and why is not NULL). */
static int can_run(const ls_device_caps *caps, ls_shape shape, char *why, size_t len)
{
    return shape != LS_SHAPE_NONE && ls_caps_supports(caps, needed(shape), why, len);
}

/* The shape a device's capabilities call for: a CPU's loops over
 * work-items gain nothing from exchanges, so it owns runs of words; a GPU
 * takes the fastest exchange it has. */
static ls_shape natural_shape(const ls_device_caps *caps)
{
    if (!can_run(caps, LS_SHAPE_GROUP, NULL, 0))
        return LS_SHAPE_NONE;
    if (caps->is_cpu)
        return LS_SHAPE_CPU;
    if (can_run(caps, LS_SHAPE_WARP, NULL, 0))
        return LS_SHAPE_WARP;
    if (can_run(caps, LS_SHAPE_SUBGROUP, NULL, 0))
        return LS_SHAPE_SUBGROUP;
    return LS_SHAPE_GROUP;
}

int ls_shape_choose(const ls_device_caps *caps, ls_shape *out, ls_error *err)
{
    const char *forced = getenv("LOCKSTEP_SHAPE");
    /* Prebuilt kernels have their one shape; the reference has none. */
    if (!forced || !forced[0] || caps->prebuilt || !can_run(caps, LS_SHAPE_GROUP, NULL, 0)) {
        *out = natural_shape(caps);
        return 0;
    }
    for (size_t i = 1; i < sizeof shapes / sizeof shapes[0]; i++) {
        if (strcmp(forced, shapes[i].name) != 0)
            continue;
        char why[200];
        if (!can_run(caps, shapes[i].shape, why, sizeof why))
            return ls_fail_usage(err, "LOCKSTEP_SHAPE=%s: this device cannot run that kernel shape (%s): %s", forced,
                                 shapes[i].text, why);
        *out = shapes[i].shape;
        return 0;
    }
    return ls_fail_usage(err, "LOCKSTEP_SHAPE=%s: not a kernel shape (warp, subgroup, group or cpu)", forced);
}
