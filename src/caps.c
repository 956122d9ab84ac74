/* caps.c - what a device can do (caps.h): the one query of a device's
 * caps. Its callers' forms, of an opened device, of a set and of a method
 * table, live with those (gpu_call.c, set/census.c), so that this file
 * sits below every layer that asks it. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "caps.h"

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
