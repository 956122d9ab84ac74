/* error.c - filling an ls_error. */
#include "error.h"

#include <stdio.h>

/* A message is one line: control characters that reach it from a file
 * or a library (a damaged record's text, a compiler's build log) become
 * spaces, so a script reading stderr line by line sees one error. */
static void one_line(char *msg)
{
    for (unsigned char *c = (unsigned char *)msg; *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            *c = ' ';
}

static int vfail(ls_error *err, int usage, const char *fmt, va_list ap)
{
    if (err) {
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        one_line(err->msg);
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
