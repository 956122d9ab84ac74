/* error.c - filling an ls_error. */
#include "error.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

size_t ls_utf8_length(const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    if (s[0] < 0x80)
        return 1;
    size_t n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    /* Overlong forms, UTF-16 surrogates and code points past U+10FFFF. */
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) || (s[0] == 0xf0 && s[1] < 0x90) ||
        (s[0] == 0xf4 && s[1] > 0x8f))
        return 0;
    return n;
}

/* A message is one line of valid UTF-8: control characters that reach it
 * from a file or a library (a damaged record's text, a compiler's build
 * log) become spaces, so a script reading stderr line by line sees one
 * error, and bytes that are not UTF-8 (a file name in another encoding)
 * become '?'. */
static void one_line(char *msg)
{
    unsigned char *c = (unsigned char *)msg;
    while (*c) {
        size_t n = ls_utf8_length((const char *)c);
        if (n == 0)
            *c = '?';
        else if (*c < 0x20 || *c == 0x7f)
            *c = ' ';
        c += n ? n : 1;
    }
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

int ls_fail_in(ls_error *err, const char *fmt, ...)
{
    if (!err)
        return -1;
    char why[sizeof err->msg];
    memcpy(why, err->msg, sizeof why);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof err->msg)
        snprintf(err->msg + n, sizeof err->msg - (size_t)n, ": %s", why);
    one_line(err->msg);
    return -1;
}
