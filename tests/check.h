/* check.h - what the C tests share: each check counted and, when it fails,
 * printed; the tally as the last line and the exit status. Each test is a
 * program of its own that includes this once (tests/harness.py is the
 * same for the Python tests). */
#ifndef LOCKSTEP_TESTS_CHECK_H
#define LOCKSTEP_TESTS_CHECK_H

#include <stdio.h>

static int failures, checks;

static void check(int ok, const char *what)
{
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s\n", what);
    }
}

/* Prints the tally; returns main's exit status (1 when any check failed). */
static int check_finish(void)
{
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}

#endif
