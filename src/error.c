/* error.c - filling an ls_error. */
#include "error.h"

#include <stdio.h>

static int vfail(ls_error *err, int usage, const char *fmt, va_list ap)
{
    if (err) {
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        err->usage = usage;
    }
    return -1;
}

int ls_fail(ls_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(err, 0, fmt, ap);
    va_end(ap);
    return -1;
}

int ls_fail_usage(ls_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(err, 1, fmt, ap);
    va_end(ap);
    return -1;
}
