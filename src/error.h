/* error.h - an error message carried back to whoever can print it.
 * Backends and drivers never print or exit; they fill an ls_error. */
#ifndef LOCKSTEP_ERROR_H
#define LOCKSTEP_ERROR_H

#include <stdarg.h>
#include <stddef.h>

typedef struct ls_error {
    char msg[512];
    /* 1: the user's input was wrong (exit code 2), else 1; with the bit
     * LS_ERROR_EVERY_RANK too when every rank of an MPI job holds this
     * same error (they agreed on it): rank 0 alone says it, and no rank
     * needs to end the others. */
    int usage;
} ls_error;

#define LS_ERROR_EVERY_RANK 2

#if defined(__GNUC__)
#define LS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define LS_PRINTF(a, b)
#endif

#ifdef __cplusplus
extern "C" {
#endif
/* Sets the message (printf-style); returns -1 so callers can
 * `return ls_fail(err, ...)`. */
int ls_fail(ls_error *err, const char *fmt, ...) LS_PRINTF(2, 3);
int ls_fail_usage(ls_error *err, const char *fmt, ...) LS_PRINTF(2, 3);
/* Puts what the message err holds is about before it ("cannot write
 * out.data: " + "No space left on device"), err->usage as it was; -1. */
int ls_fail_in(ls_error *err, const char *fmt, ...) LS_PRINTF(2, 3);
/* The length of the valid UTF-8 sequence that text starts with (1 to 4;
 * 1 for ASCII), or 0 when its first byte does not start one. text must be
 * NUL-terminated (the NUL ends any sequence). */
size_t ls_utf8_length(const char *text);
#ifdef __cplusplus
}
#endif

#endif
