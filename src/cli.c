/* cli.c - table-driven option parsing; see cli.h. */
#include "cli.h"

#include "cluster.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Accepts plain digits, or a decimal mantissa with an exponent (1e9,
 * 2.5e8) when the value is a whole number. */
int ls_parse_count(const char *flag, const char *text, uint64_t min, uint64_t max, uint64_t *out,
                   ls_error *err)
{
    char lo[32], hi[32];
    ls_format_count(min, lo, sizeof lo);
    ls_format_count(max, hi, sizeof hi);
    const char *p = text;
    int digits_only = *p != 0;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q))
            digits_only = 0;
    uint64_t v = 0;
    if (digits_only) {
        errno = 0;
        char *end;
        unsigned long long u = strtoull(p, &end, 10);
        if (errno == ERANGE || u > max || u < min)
            return ls_fail_usage(err, "--%s: expected an integer from %s to %s; got '%s'", flag, lo, hi, text);
        v = u;
    } else {
        /* mantissa [digits][.digits] e [+]digits */
        int ok = 1, seen_digit = 0, seen_e = 0;
        for (const char *q = p; *q && ok; q++) {
            if (isdigit((unsigned char)*q))
                seen_digit = 1;
            else if (*q == '.' && !seen_e)
                ;
            else if ((*q == 'e' || *q == 'E') && seen_digit && !seen_e)
                seen_e = 1;
            else if (*q == '+' && q > p && (q[-1] == 'e' || q[-1] == 'E'))
                ;
            else
                ok = 0;
        }
        if (!ok || !seen_e || !seen_digit)
            return ls_fail_usage(err, "--%s: expected an integer from %s to %s (like 1000000 or 1e6); got '%s'",
                                 flag, lo, hi, text);
        char *end;
        errno = 0;
        long double d = strtold(p, &end);
        if (*end != 0 || errno == ERANGE || d != floorl(d) || d < (long double)min || d > (long double)max)
            return ls_fail_usage(err, "--%s: expected an integer from %s to %s; got '%s'", flag, lo, hi, text);
        v = (uint64_t)d;
    }
    *out = v;
    return 0;
}

static int parse_u64(const char *flag, const char *text, uint64_t *out, ls_error *err)
{
    int hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const char *digits = hex ? text + 2 : text;
    int ok = *digits != 0;
    for (const char *q = digits; *q && ok; q++)
        ok = hex ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q);
    errno = 0;
    char *end;
    unsigned long long v = ok ? strtoull(text, &end, hex ? 16 : 10) : 0;
    if (!ok || errno == ERANGE)
        return ls_fail_usage(err, "--%s: expected an integer from 0 to 18446744073709551615 (or 0x hex); got '%s'",
                             flag, text);
    *out = v;
    return 0;
}

static const ls_opt *find_opt(const ls_opt *opts, int n, const char *name, size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
            return &opts[i];
    return NULL;
}

/* "--name" or "--name=value" with a lowercase name: an option. Anything
 * else starting with dashes (a BMN deal like ---AJ--Q...) is an argument. */
static int looks_like_option(const char *a)
{
    if (strncmp(a, "--", 2) != 0 || !islower((unsigned char)a[2]))
        return 0;
    for (const char *p = a + 2; *p && *p != '='; p++)
        if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '-')
            return 0;
    return 1;
}

int ls_opts_parse(int argc, char **argv, int first, const ls_opt *opts, int n,
                  const char **pos, int *npos, int max_pos, ls_error *err)
{
    int positional = 0, only_args = 0;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (!only_args && strcmp(a, "--") == 0) {
            only_args = 1;
            continue;
        }
        if (!only_args && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0))
            return 1;
        if (only_args || !looks_like_option(a)) {
            if (positional >= max_pos)
                return ls_fail_usage(err, "unexpected argument '%s' (see --help)", a);
            pos[positional++] = a;
            continue;
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const ls_opt *o = find_opt(opts, n, name, len);
        if (!o)
            return ls_fail_usage(err, "unknown option '--%.*s' (see --help)", (int)len, name);
        if (o->kind == LS_OPT_FLAG) {
            if (eq)
                return ls_fail_usage(err, "--%s takes no value", o->name);
            *(int *)o->target = 1;
            continue;
        }
        const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!val)
            return ls_fail_usage(err, "--%s needs a value (%s)", o->name, o->arg ? o->arg : "VALUE");
        /* `--checkpoint --quiet` forgot the file name; taking the next
         * option as one would create a file named "--quiet". */
        if (!eq && strncmp(val, "--", 2) == 0)
            return ls_fail_usage(err, "--%s needs a value (%s), not the option '%s' (for a value that starts with "
                                 "'--', write --%s=%s)", o->name, o->arg ? o->arg : "VALUE", val, o->name, val);
        switch (o->kind) {
        case LS_OPT_COUNT:
            if (ls_parse_count(o->name, val, o->min, o->max, (uint64_t *)o->target, err) != 0)
                return -1;
            break;
        case LS_OPT_U64:
            if (parse_u64(o->name, val, (uint64_t *)o->target, err) != 0)
                return -1;
            break;
        case LS_OPT_STRING:
            if (!*val)
                return ls_fail_usage(err, "--%s needs a non-empty value (%s)", o->name, o->arg ? o->arg : "VALUE");
            *(const char **)o->target = val;
            break;
        case LS_OPT_FLAG:
            break;
        }
    }
    if (npos)
        *npos = positional;
    return 0;
}

void ls_opts_help(FILE *out, const char *usage, const char *summary, const ls_opt *opts, int n)
{
    fprintf(out, "usage: %s\n\n%s\n", usage, summary);
    if (n)
        fprintf(out, "\noptions:\n");
    for (int i = 0; i < n; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", opts[i].name, opts[i].arg ? " " : "",
                 opts[i].arg ? opts[i].arg : "");
        fprintf(out, "  %-24s %s", left, opts[i].help);
        if (opts[i].kind == LS_OPT_COUNT) {
            char lo[32], hi[32];
            ls_format_count(opts[i].min, lo, sizeof lo);
            ls_format_count(opts[i].max, hi, sizeof hi);
            fprintf(out, " (%s to %s)", lo, hi);
        }
        fputc('\n', out);
    }
    fprintf(out, "  %-24s %s\n", "--help", "show this help");
}

int ls_report(const ls_error *err)
{
    const char *msg = err->msg[0] ? err->msg : "unknown error";
    if (ls_cluster_size() <= 1)
        fprintf(stderr, "lockstep: %s\n", msg);
    else if (!err->usage)
        fprintf(stderr, "lockstep (rank %d on %s): %s\n", ls_cluster_rank(), ls_cluster_host(), msg);
    else if (ls_cluster_rank() == 0) /* every rank read the same command line */
        fprintf(stderr, "lockstep: %s\n", msg);
    return err->usage ? 2 : 1;
}
