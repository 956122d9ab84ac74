/* json_diff.c - see json_diff.h. */
#include "json_diff.h"

#include <string.h>

#include "workload.h"

/* The extent of one JSON value starting at p (a string, a number, a
 * literal, an array or an object): returns the end. */
static const char *json_value_end(const char *p)
{
    int depth = 0, in_string = 0;
    for (; *p; p++) {
        if (in_string) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == '"')
                in_string = 0;
            continue;
        }
        if (*p == '"')
            in_string = 1;
        else if (*p == '[' || *p == '{')
            depth++;
        else if (*p == ']' || *p == '}') {
            if (depth == 0)
                return p;
            depth--;
        } else if (*p == ',' && depth == 0)
            return p;
    }
    return p;
}

/* Finds member `key` in a list of members; sets *val and *len. */
static int json_member(const char *members, const char *key, const char **val, size_t *len)
{
    size_t klen = strlen(key);
    for (const char *p = members; *p == '"';) {
        const char *kend = strchr(p + 1, '"');
        if (!kend || kend[1] != ':')
            return 0;
        const char *v = kend + 2, *e = json_value_end(v);
        if ((size_t)(kend - p - 1) == klen && strncmp(p + 1, key, klen) == 0) {
            *val = v;
            *len = (size_t)(e - v);
            return 1;
        }
        p = *e == ',' ? e + 1 : e;
    }
    return 0;
}

int ls_json_diff_members(const char *a, const char *an, const char *b, const char *bn, FILE *text, FILE *names)
{
    int differ = 0;
    for (const char *p = a; *p == '"';) {
        const char *kend = strchr(p + 1, '"');
        if (!kend || kend[1] != ':')
            break;
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(kend - p - 1), p + 1);
        const char *va = kend + 2, *ea = json_value_end(va), *vb;
        size_t la = (size_t)(ea - va), lb = 0;
        int found = json_member(b, key, &vb, &lb);
        if (!found || la != lb || memcmp(va, vb, la) != 0) {
            if (names) {
                fputs(differ ? "," : "", names);
                ls_json_string(names, key);
            }
            differ++;
            if (!text)
                ;
            else if (!found)
                fprintf(text, "  field %s: missing on %s\n", key, bn);
            else if (*va == '[' && *vb == '[') {
                const char *x = va + 1, *y = vb + 1;
                for (int i = 0;; i++) {
                    const char *xe = json_value_end(x), *ye = json_value_end(y);
                    if ((size_t)(xe - x) != (size_t)(ye - y) || memcmp(x, y, (size_t)(xe - x)) != 0) {
                        fprintf(text, "  field %s differs first at element %d: %s %.*s, %s %.*s\n", key, i, an,
                                (int)(xe - x > 120 ? 120 : xe - x), x, bn, (int)(ye - y > 120 ? 120 : ye - y), y);
                        break;
                    }
                    if (*xe != ',' || *ye != ',')
                        break;
                    x = xe + 1;
                    y = ye + 1;
                }
            } else {
                fprintf(text, "  field %s: %s %.*s, %s %.*s\n", key, an, (int)(la > 120 ? 120 : la), va, bn,
                        (int)(lb > 120 ? 120 : lb), vb);
            }
        }
        p = *ea == ',' ? ea + 1 : ea;
    }
    return differ;
}
