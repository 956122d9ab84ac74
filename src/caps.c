/* caps.c - what a device can do (caps.h): the one query, and the one
 * place where a backend's method table is read as capabilities. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "caps.h"
#include "device.h"
#include "set.h"

static const struct {
    const char *name, *text;
} caps[LS_CAPS] = {
    [LS_CAP_KERNELS] = {"kernels", "kernels"},
    [LS_CAP_WARP_SHUFFLE] = {"warp_shuffle", "warp shuffles"},
    [LS_CAP_SUBGROUP_SHUFFLE] = {"subgroup_shuffle", "sub-group shuffles"},
    [LS_CAP_EXACT_FP] = {"exact_fp", "the exact float rule"},
    [LS_CAP_DEFINES] = {"defines", "programs built with definitions"},
    [LS_CAP_COPY] = {"copy", "device-to-device copies"},
    [LS_CAP_SHARE] = {"share", "memory shared between processes"},
};

static int in_range(ls_cap cap)
{
    return (unsigned)cap < LS_CAPS;
}

const char *ls_cap_name(ls_cap cap)
{
    return in_range(cap) ? caps[cap].name : "";
}

const char *ls_cap_text(ls_cap cap)
{
    return in_range(cap) ? caps[cap].text : "";
}

int ls_caps_supports(const ls_device_caps *c, ls_cap cap, char *why, size_t len)
{
    if (in_range(cap) && (c->can & LS_CAP_BIT(cap)))
        return 1;
    if (why && len) {
        if (!in_range(cap))
            snprintf(why, len, "capability %d is none lockstep knows", (int)cap);
        else if (c->why_not[cap][0])
            snprintf(why, len, "%s", c->why_not[cap]);
        else
            snprintf(why, len, "the device does not offer %s", caps[cap].text);
    }
    return 0;
}

int ls_device_supports(const ls_device *d, ls_cap cap, char *why, size_t len)
{
    char reason[sizeof d->info.caps.why_not[0] + 64];
    if (ls_caps_supports(&d->info.caps, cap, reason, sizeof reason))
        return 1;
    if (why && len)
        snprintf(why, len, "%s: %s: %s", d->label, ls_cap_text(cap), reason);
    return 0;
}

int ls_set_supports(const ls_set *set, uint32_t needs, char *why, size_t len)
{
    for (int i = 0; i < set->ndevices; i++)
        for (int cap = 0; cap < LS_CAPS; cap++)
            if ((needs & LS_CAP_BIT(cap)) && !ls_device_supports(&set->dev[i], (ls_cap)cap, why, len))
                return 0;
    return 1;
}

void ls_caps_grant(ls_device_caps *c, ls_cap cap)
{
    if (!in_range(cap))
        return;
    c->can |= LS_CAP_BIT(cap);
    c->why_not[cap][0] = '\0';
}

void ls_caps_refuse(ls_device_caps *c, ls_cap cap, const char *fmt, ...)
{
    if (!in_range(cap))
        return;
    c->can &= ~LS_CAP_BIT(cap);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why_not[cap], sizeof c->why_not[cap], fmt, ap);
    va_end(ap);
}

void ls_caps_from_methods(const ls_gpu *methods, const char *backend, ls_device_caps *c)
{
    memset(c, 0, sizeof *c);
    if (!methods) {
        /* The host CPU runs the workloads' own C, compiled to keep the
         * float rule (-ffp-contract=off, meson.build). */
        for (int cap = 0; cap < LS_CAPS; cap++)
            ls_caps_refuse(c, (ls_cap)cap, "%s runs the workloads' own C code on the host's CPU", backend);
        ls_caps_grant(c, LS_CAP_EXACT_FP);
        return;
    }
    ls_caps_grant(c, LS_CAP_KERNELS);
    ls_caps_refuse(c, LS_CAP_WARP_SHUFFLE, "no 32-lane register shuffles");
    ls_caps_refuse(c, LS_CAP_SUBGROUP_SHUFFLE, "no shuffles in sub-groups of 32");
    ls_caps_refuse(c, LS_CAP_EXACT_FP, "%s does not say how this device computes floats", backend);
    if (methods->kernel_with)
        ls_caps_grant(c, LS_CAP_DEFINES);
    else
        ls_caps_refuse(c, LS_CAP_DEFINES, "this build of %s builds no program at run time", backend);
    if (methods->copy)
        ls_caps_grant(c, LS_CAP_COPY);
    else
        ls_caps_refuse(c, LS_CAP_COPY, "%s copies through the host", backend);
    if (methods->share && methods->open_shared && methods->close_shared)
        ls_caps_grant(c, LS_CAP_SHARE);
    else
        ls_caps_refuse(c, LS_CAP_SHARE, "%s has no memory another process can open", backend);
}
