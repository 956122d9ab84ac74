/* life_rule.c - B/S rule notation.
 *
 * A rule is two sets of neighbour counts, each introduced by its letter,
 * in either order, separated by '/': "B3/S23", "s23/b3". A set is either a
 * run of single digits ("S23" = {2, 3}) or, as soon as it holds a ',' or
 * a '-', a comma-separated list of counts and ranges ("S5-7",
 * "B13,14/S10-12"), which is how counts of 10 and more are written. An
 * empty set is allowed ("B/S" is the rule in which everything dies). */
#include "life_rule.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

unsigned life_max_count(unsigned dims)
{
    return dims == 3 ? LIFE_MAX_COUNT_3D : LIFE_MAX_COUNT_2D;
}

life_rule life_rule_default(unsigned dims)
{
    life_rule r;
    r.birth = dims == 3 ? LIFE_B6S567_BIRTH : LIFE_B3S23_BIRTH;
    r.survive = dims == 3 ? LIFE_B6S567_SURVIVE : LIFE_B3S23_SURVIVE;
    return r;
}

/* Reads a decimal count at *p (advancing it); -1 when there is none or it
 * has more than two digits (no count is above 26). */
static int read_count(const char **p)
{
    if (!isdigit((unsigned char)**p))
        return -1;
    int v = 0, digits = 0;
    while (isdigit((unsigned char)**p)) {
        if (++digits > 2)
            return -1;
        v = v * 10 + (**p - '0');
        (*p)++;
    }
    return v;
}

/* Adds counts lo..hi to *mask, refusing counts above max. */
static int add_counts(const char *rule, char letter, int lo, int hi, unsigned max, ls_u32 *mask, ls_error *err)
{
    const char *what = letter == 'B' ? "birth" : "survival";
    if (lo > hi)
        return ls_fail_usage(err, "rule '%s': the %s range %d-%d runs backwards", rule, what, lo, hi);
    if ((unsigned)hi > max)
        return ls_fail_usage(err, "rule '%s': %s count %d is above %u, the most neighbours a cell has in %s", rule,
                             what, hi, max, max == LIFE_MAX_COUNT_3D ? "3D" : "2D");
    for (int c = lo; c <= hi; c++)
        *mask |= 1u << c;
    return 0;
}

/* Parses the set text[0..len) after letter into *mask. */
static int parse_set(const char *rule, char letter, const char *text, size_t len, unsigned max, ls_u32 *mask,
                     ls_error *err)
{
    const char *end = text + len;
    int listed = memchr(text, ',', len) || memchr(text, '-', len);
    const char *p = text;
    while (p < end) {
        if (!listed) {
            if (!isdigit((unsigned char)*p))
                return ls_fail_usage(err, "rule '%s': '%c' is not a neighbour count", rule, *p);
            int c = *p++ - '0';
            if (add_counts(rule, letter, c, c, max, mask, err))
                return -1;
            continue;
        }
        int lo = read_count(&p), hi = lo;
        if (lo >= 0 && p < end && *p == '-') {
            p++;
            hi = read_count(&p);
        }
        if (lo < 0 || hi < 0 || (p < end && *p != ','))
            return ls_fail_usage(err, "rule '%s': expected counts and ranges like 5-7,10 after '%c'", rule, letter);
        if (add_counts(rule, letter, lo, hi, max, mask, err))
            return -1;
        if (p < end && ++p == end) /* a trailing comma */
            return ls_fail_usage(err, "rule '%s': a count is missing after the last ','", rule);
    }
    return 0;
}

int life_rule_parse(const char *text, unsigned dims, life_rule *out, ls_error *err)
{
    const char *slash = strchr(text, '/');
    if (!slash || strchr(slash + 1, '/'))
        return ls_fail_usage(err, "rule '%s': expected the form B3/S23 (birth counts / survival counts)", text);
    const char *part[2] = {text, slash + 1};
    size_t plen[2] = {(size_t)(slash - text), strlen(slash + 1)};
    ls_u32 birth = 0, survive = 0;
    int seen_b = 0, seen_s = 0;
    for (int i = 0; i < 2; i++) {
        char letter = (char)toupper((unsigned char)(plen[i] ? part[i][0] : '?'));
        if ((letter != 'B' && letter != 'S') || (letter == 'B' ? seen_b : seen_s))
            return ls_fail_usage(err, "rule '%s': expected one B part and one S part, as in B3/S23", text);
        *(letter == 'B' ? &seen_b : &seen_s) = 1;
        if (parse_set(text, letter, part[i] + 1, plen[i] - 1, life_max_count(dims), letter == 'B' ? &birth : &survive,
                      err))
            return -1;
    }
    out->birth = birth;
    out->survive = survive;
    return 0;
}

/* Appends the counts of mask to out (at *pos, within len). */
static void format_set(ls_u32 mask, char *out, size_t len, size_t *pos)
{
    int digits = mask < (1u << 10);
    for (int c = 0; c < 32; c++) {
        if (!(mask >> c & 1u))
            continue;
        int hi = c;
        while (!digits && hi < 31 && (mask >> (hi + 1) & 1u))
            hi++;
        const char *sep = (!digits && (mask & ((1u << c) - 1u))) ? "," : "";
        /* A lone count of 10 or more is written as a range ("B14-14"): the
         * parser reads a set without ',' or '-' as single digits ("B14" is
         * births on 1 and 4). */
        int lone = !digits && (mask & (mask - 1u)) == 0;
        int n = hi > c + 1 || lone ? snprintf(out + *pos, len - *pos, "%s%d-%d", sep, c, hi)
                : hi == c + 1 ? snprintf(out + *pos, len - *pos, "%s%d,%d", sep, c, hi)
                              : snprintf(out + *pos, len - *pos, "%s%d", sep, c);
        if (n > 0)
            *pos = *pos + (size_t)n < len ? *pos + (size_t)n : len - 1;
        c = hi;
    }
}

void life_rule_format(life_rule r, char *out, size_t len)
{
    if (len < 2) {
        if (len)
            out[0] = '\0';
        return;
    }
    size_t pos = (size_t)snprintf(out, len, "B");
    format_set(r.birth, out, len, &pos);
    pos += (size_t)snprintf(out + pos, len - pos, "/S");
    if (pos >= len)
        pos = len - 1;
    format_set(r.survive, out, len, &pos);
}
