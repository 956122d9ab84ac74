/* numbers.c - see numbers.h. */
#include "numbers.h"

#include <stdio.h>

void ls_format_count(uint64_t v, char *out, size_t len)
{
    int exp = 0;
    uint64_t m = v;
    while (m >= 10 && m % 10 == 0) {
        m /= 10;
        exp++;
    }
    if (exp >= 4 && m < 10)
        snprintf(out, len, "%llue%d", (unsigned long long)m, exp);
    else
        snprintf(out, len, "%llu", (unsigned long long)v);
}

void ls_format_thousands(uint64_t v, char *out, size_t len)
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    char grouped[32];
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            grouped[k++] = ',';
        grouped[k++] = digits[i];
    }
    grouped[k] = 0;
    snprintf(out, len, "%s", grouped);
}

void ls_format_unit(const char *unit, char *out, size_t len)
{
    snprintf(out, len, "%s", unit);
    for (char *c = out; *c; c++)
        if (*c == '_')
            *c = ' ';
}
