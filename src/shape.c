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

/* Whether a device with caps can run kernels of `shape`: every kernel
 * device runs the group and CPU shapes (local memory and barriers are
 * core OpenCL), the shuffling ones need their shuffles. */
static int can_run(const ls_device_caps *caps, ls_shape shape)
{
    switch (shape) {
    case LS_SHAPE_WARP:
        return caps->warp_shuffles;
    case LS_SHAPE_SUBGROUP:
        return caps->subgroup_shuffles && caps->subgroup_width == 32u;
    case LS_SHAPE_GROUP:
    case LS_SHAPE_CPU:
        return 1;
    case LS_SHAPE_NONE:
        break;
    }
    return 0;
}

/* The shape a device's capabilities call for: a CPU's loops over
 * work-items gain nothing from exchanges, so it owns runs of words; a GPU
 * takes the fastest exchange it has. */
static ls_shape natural_shape(const ls_device_caps *caps)
{
    if (caps->is_cpu)
        return LS_SHAPE_CPU;
    if (can_run(caps, LS_SHAPE_WARP))
        return LS_SHAPE_WARP;
    if (can_run(caps, LS_SHAPE_SUBGROUP))
        return LS_SHAPE_SUBGROUP;
    return LS_SHAPE_GROUP;
}

int ls_shape_choose(const ls_device_caps *caps, ls_shape *out, ls_error *err)
{
    const char *forced = getenv("LOCKSTEP_SHAPE");
    if (!forced || !forced[0] || caps->prebuilt) {
        *out = natural_shape(caps);
        return 0;
    }
    for (size_t i = 1; i < sizeof shapes / sizeof shapes[0]; i++) {
        if (strcmp(forced, shapes[i].name) != 0)
            continue;
        if (!can_run(caps, shapes[i].shape))
            return ls_fail_usage(err, "LOCKSTEP_SHAPE=%s: this device cannot run that kernel shape (%s)", forced,
                                 shapes[i].text);
        *out = shapes[i].shape;
        return 0;
    }
    return ls_fail_usage(err, "LOCKSTEP_SHAPE=%s: not a kernel shape (warp, subgroup, group or cpu)", forced);
}
