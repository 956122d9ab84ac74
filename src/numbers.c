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

void ls_format_bytes(uint64_t bytes, char *out, size_t len)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024) {
        snprintf(out, len, "%llu byte%s", (unsigned long long)bytes, bytes == 1 ? "" : "s");
        return;
    }
    /* The unit below 1024 of it once rounded to a tenth (1023.96 MiB is
     * "1.0 GiB", not "1024.0 MiB"). */
    double v = (double)bytes / 1024.0;
    int u = 0;
    while (u + 1 < (int)(sizeof units / sizeof units[0]) && v >= 1023.95) {
        v /= 1024.0;
        u++;
    }
    snprintf(out, len, "%.1f %s", v, units[u]);
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
