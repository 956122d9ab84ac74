/* life_rule.c - rule notation.
 *
 * B/S: two sets of neighbour counts, each introduced by its letter, in
 * either order, separated by '/': "B3/S23", "s23/b3". A set is either a
 * run of single digits ("S23" = {2, 3}) or, as soon as it holds a ',' or
 * a '-', a comma-separated list of counts and ranges ("S5-7",
 * "B13,14/S10-12"), which is how counts of 10 and more are written. An
 * empty set is allowed ("B/S" is the rule in which everything dies).
 *
 * S/B order: "23/3", survival digits then birth digits without letters,
 * as Golly and MCell write 2D rules. B/S without the slash: "b3s23", as
 * Catagolue and apgsearch write rules. Names: the table below, matched
 * without regard to case, spaces, apostrophes, '-' and '_', '&' read as
 * "and".
 *
 * Golly's Generations rules, a third part giving the number of states
 * ("B2/S/3", "/2/3", "B2/S345/C4", or by name: "Brian's Brain"), are
 * refused by name: a cell that dies fades through states that one bit a
 * cell cannot hold. Two states ("B3/S23/2") is the Life-like rule itself.
 *
 * Any of them may end in Golly's grid suffix: ":T" (torus) or ":P"
 * (bounded plane) and the sides, ":T64,64". */
#include "life_rule.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "life_grid.h"

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

/* Adds counts lo..hi to *mask, refusing counts above max, and a count
 * already there: "S99" is a typo, not S9 (which would make it 3D). */
static int add_counts(const char *rule, char letter, int lo, int hi, unsigned max, ls_u32 *mask, ls_error *err)
{
    const char *what = letter == 'B' ? "birth" : "survival";
    if (lo > hi)
        return ls_fail_usage(err, "rule '%s': the %s range %d-%d runs backwards", rule, what, lo, hi);
    if ((unsigned)hi > max)
        return ls_fail_usage(err, "rule '%s': %s count %d is above %u, the most neighbours a cell has in %s", rule,
                             what, hi, max, max == LIFE_MAX_COUNT_3D ? "3D" : "2D");
    for (int c = lo; c <= hi; c++) {
        if (*mask >> c & 1u)
            return ls_fail_usage(err, "rule '%s': %s count %d is given twice", rule, what, c);
        *mask |= 1u << c;
    }
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

/* The longest rule text read (names, sets and a suffix are far shorter). */
#define RULE_TEXT_MAX 200

/* B/S notation in body (the rule text before any suffix); messages name
 * the whole text. */
static int parse_bs(const char *text, const char *body, unsigned max, life_rule *out, ls_error *err)
{
    const char *slash = strchr(body, '/');
    if (!slash || strchr(slash + 1, '/'))
        return ls_fail_usage(err, "rule '%s': expected the form B3/S23 (birth counts / survival counts)", text);
    const char *part[2] = {body, slash + 1};
    size_t plen[2] = {(size_t)(slash - body), strlen(slash + 1)};
    ls_u32 birth = 0, survive = 0;
    int seen_b = 0, seen_s = 0;
    for (int i = 0; i < 2; i++) {
        char letter = (char)toupper((unsigned char)(plen[i] ? part[i][0] : '?'));
        if ((letter != 'B' && letter != 'S') || (letter == 'B' ? seen_b : seen_s))
            return ls_fail_usage(err, "rule '%s': expected one B part and one S part, as in B3/S23", text);
        *(letter == 'B' ? &seen_b : &seen_s) = 1;
        if (parse_set(text, letter, part[i] + 1, plen[i] - 1, max, letter == 'B' ? &birth : &survive, err))
            return -1;
    }
    out->birth = birth;
    out->survive = survive;
    return 0;
}

/* 1 when body is S/B order: digits (or nothing), '/', digits (or nothing). */
static int is_sb_order(const char *body)
{
    const char *slash = strchr(body, '/');
    if (!slash || strchr(slash + 1, '/'))
        return 0;
    for (const char *p = body; *p; p++)
        if (p != slash && !isdigit((unsigned char)*p))
            return 0;
    return 1;
}

/* "23/3": survival digits, birth digits; 2D counts (0..8). */
static int parse_sb(const char *text, const char *body, life_rule *out, ls_error *err)
{
    const char *slash = strchr(body, '/');
    ls_u32 birth = 0, survive = 0;
    if (parse_set(text, 'S', body, (size_t)(slash - body), LIFE_MAX_COUNT_2D, &survive, err) ||
        parse_set(text, 'B', slash + 1, strlen(slash + 1), LIFE_MAX_COUNT_2D, &birth, err))
        return -1;
    out->birth = birth;
    out->survive = survive;
    return 0;
}

/* Rules people call by name (Golly's and LifeWiki's names), all 2D, as
 * people write them: a name is matched by its key (rule_key), so case,
 * spaces, '-' and '_' do not count and '&' is "and". docs/life.md and the
 * man page (life_rule_names) list the table. */
static const struct {
    const char *name, *rule;
} named_rules[] = {
    {"Life", "B3/S23"},
    {"Conway", "B3/S23"},
    {"HighLife", "B36/S23"},
    {"Seeds", "B2/S"},
    {"Day & Night", "B3678/S34678"},
    {"Life without death", "B3/S012345678"},
    {"2x2", "B36/S125"},
    {"Diamoeba", "B35678/S5678"},
    {"Morley", "B368/S245"},
    {"Move", "B368/S245"},
    {"Replicator", "B1357/S1357"},
    {"Maze", "B3/S12345"},
    {"Mazectric", "B3/S1234"},
    {"Anneal", "B4678/S35678"},
    {"Amoeba", "B357/S1358"},
    {"Assimilation", "B345/S4567"},
    {"Coagulations", "B378/S235678"},
    {"Gnarl", "B1/S1"},
    {"Long life", "B345/S5"},
    {"Serviettes", "B234/S"},
    {"Stains", "B3678/S235678"},
    {"Walled cities", "B45678/S2345"},
    {"34 Life", "B34/S34"},
    {"DryLife", "B37/S23"},
    {"Pedestrian Life", "B38/S23"},
    {"Live free or die", "B2/S0"},
};
#define NNAMED (sizeof named_rules / sizeof named_rules[0])
_Static_assert(NNAMED <= LIFE_RULE_NAMES, "LIFE_RULE_NAMES holds every named rule");

/* Golly's best-known Generations rules, by name (matched as named_rules
 * are), and their rule: refused by name (generations_refusal). */
static const struct {
    const char *name, *rule;
    unsigned states;
} generations_rules[] = {
    {"Brian's Brain", "B2/S/C3", 3},
    {"Star Wars", "B2/S345/C4", 4},
};

/* The lookup key of a name: lower case, without spaces, apostrophes, '-'
 * and '_', '&' spelt "and". 0, or -1 when it does not fit in len. */
static int rule_key(const char *name, char *key, size_t len)
{
    size_t n = 0;
    for (const char *p = name; *p; p++) {
        const char *add = *p == '&' ? "and" : NULL;
        char one[2] = {(char)tolower((unsigned char)*p), 0};
        if (*p == ' ' || *p == '-' || *p == '_' || *p == '\t' || *p == '\'')
            continue;
        for (const char *q = add ? add : one; *q; q++) {
            if (n + 1 >= len)
                return -1;
            key[n++] = *q;
        }
    }
    key[n] = 0;
    return 0;
}

static const char *find_named_rule(const char *name)
{
    char key[64], named[64];
    if (rule_key(name, key, sizeof key) != 0)
        return NULL;
    for (size_t i = 0; i < NNAMED; i++)
        if (rule_key(named_rules[i].name, named, sizeof named) == 0 && strcmp(key, named) == 0)
            return named_rules[i].rule;
    return NULL;
}

int life_rule_names(const char **names, const char **rules, int max)
{
    int n = 0;
    for (size_t i = 0; i < NNAMED && n < max; i++, n++) {
        names[n] = named_rules[i].name;
        rules[n] = named_rules[i].rule;
    }
    return n;
}

int life_rule_key(const char *name, char *key, size_t len)
{
    return rule_key(name, key, len);
}

/* The refusal of a Generations rule of `states` states (text, or the
 * Generations rule called `name`). */
static int generations_refusal(const char *text, const char *name, const char *rule, unsigned long states,
                               ls_error *err)
{
    return ls_fail_usage(err, "rule '%s' is %s%s%sa Generations rule of %lu states, as Golly runs them (a dying cell "
                              "fades through states); lockstep runs two-state Life-like rules only",
                         text, name ? "Golly's " : "", name ? rule : "", name ? ", " : "", states);
}

/* A Generations rule called by name: refused by name; 0 for other text. */
static int refuse_named_generations(const char *text, const char *body, ls_error *err)
{
    char key[64], named[64];
    if (rule_key(body, key, sizeof key) != 0)
        return 0;
    for (size_t i = 0; i < sizeof generations_rules / sizeof generations_rules[0]; i++)
        if (rule_key(generations_rules[i].name, named, sizeof named) == 0 && strcmp(key, named) == 0)
            return generations_refusal(text, generations_rules[i].name, generations_rules[i].rule,
                                       generations_rules[i].states, err);
    return 0;
}

/* B/S without the slash, "b3s23" (Catagolue's spelling), into "b3/s23" in
 * out: 1 when body is a letter B or S, then more, then the other letter. */
static int insert_slash(const char *body, char *out, size_t len)
{
    char first = (char)toupper((unsigned char)body[0]);
    if (first != 'B' && first != 'S')
        return 0;
    const char *second = strchr(body + 1, first == 'B' ? 'S' : 'B');
    if (!second)
        second = strchr(body + 1, first == 'B' ? 's' : 'b');
    size_t head = second ? (size_t)(second - body) : 0;
    if (!second || strlen(body) + 2 > len)
        return 0;
    memcpy(out, body, head);
    out[head] = '/';
    strcpy(out + head + 1, second);
    return 1;
}

/* The suffix after ':' (at `suffix`): a letter and 1 to 3 sides. */
static int parse_suffix(const char *text, const char *suffix, life_topology *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    char kind = (char)toupper((unsigned char)suffix[0]);
    static const char *const others[] = {"K a Klein bottle", "C a cross-surface", "S a sphere"};
    for (int i = 0; i < 3; i++)
        if (kind == others[i][0])
            return ls_fail_usage(err, "rule '%s': the grid ':%c' (%s) is one lockstep does not run; it runs :T "
                                      "(a torus) and :P (a bounded plane)",
                                 text, kind, others[i] + 2);
    if (kind != 'T' && kind != 'P')
        return ls_fail_usage(err, "rule '%s': expected a grid suffix like :T64,64 (a torus) or :P64,64 (a bounded "
                                  "plane) after ':'",
                             text);
    out->given = 1;
    out->bounded = kind == 'P';
    const char *p = suffix + 1;
    for (;;) {
        if (out->sides == 3 || !isdigit((unsigned char)*p))
            return ls_fail_usage(err, "rule '%s': expected the grid's sides after ':%c', as in :%c64,64 (2D) or "
                                      ":%c64,64,64 (3D)",
                                 text, kind, kind, kind);
        char *end;
        errno = 0;
        unsigned long long side = strtoull(p, &end, 10);
        if (side == 0)
            return ls_fail_usage(err, "rule '%s': a side of 0 is Golly's unbounded one; lockstep's grids are "
                                      "finite (each side %u to %u cells)",
                                 text, LIFE_MIN_SIZE, LIFE_MAX_SIZE);
        if (errno || side < LIFE_MIN_SIZE || side > LIFE_MAX_SIZE)
            return ls_fail_usage(err, "rule '%s': each side of the grid must be %u to %u cells", text, LIFE_MIN_SIZE,
                                 LIFE_MAX_SIZE);
        out->size[out->sides++] = (uint32_t)side;
        p = end;
        if (*p == '\0')
            return 0;
        if (*p != ',')
            return ls_fail_usage(err, "rule '%s': unexpected '%c' in the grid suffix (lockstep runs :T and :P grids "
                                      "of 1 to 3 sides, without Golly's shifts)",
                                 text, *p);
        p++;
    }
}

int life_topology_parse(const char *text, life_topology *out, ls_error *err)
{
    const char *colon = strchr(text, ':');
    if (!colon) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    return parse_suffix(text, colon + 1, out, err);
}

/* The dimension the grid suffix implies: 2 or 3 sides say it, 1 does not. */
static unsigned suffix_dims(const life_topology *t)
{
    return t->given && t->sides >= 2 ? t->sides : 0;
}

/* A Generations rule's third part, the number of states ("B2/S/3",
 * "/2/3", "B2/S345/C4"): refused unless it is 2, the Life-like rule
 * itself, which is then cut off body. 0 for text of other forms. */
static int two_states(const char *text, char *body, ls_error *err)
{
    char *first = strchr(body, '/'), *last = strrchr(body, '/');
    if (!first || first == last || strchr(first + 1, '/') != last)
        return 0; /* not two slashes: no third part */
    const char *p = last + 1;
    if (*p == 'C' || *p == 'c' || *p == 'G' || *p == 'g')
        p++;
    char *end;
    errno = 0;
    unsigned long states = isdigit((unsigned char)*p) ? strtoul(p, &end, 10) : 0;
    if (states == 0 || *end != '\0' || errno)
        return ls_fail_usage(err, "rule '%s': expected the number of states after the second '/', as in Golly's "
                                  "Generations rules (B2/S/3); lockstep runs two-state Life-like rules only",
                             text);
    if (states != 2)
        return generations_refusal(text, NULL, NULL, states, err);
    *last = '\0';
    return 0;
}

/* The rule in body (the text without its suffix and state count): a
 * name, S/B order, B/S with or without its slash. *why_2d says why the
 * rule can only be 2D, or stays NULL. */
static int parse_body(const char *text, const char *body, unsigned max, life_rule *rule, const char **why_2d,
                      ls_error *err)
{
    const char *named = strchr(body, '/') ? NULL : find_named_rule(body);
    char slashed[RULE_TEXT_MAX + 2];
    if (named) {
        *why_2d = "a 2D rule by name";
        return parse_bs(text, named, LIFE_MAX_COUNT_2D, rule, err);
    }
    if (is_sb_order(body)) {
        *why_2d = "in S/B order, the 2D notation of Golly and MCell";
        return parse_sb(text, body, rule, err);
    }
    if (strchr(body, '/'))
        return parse_bs(text, body, max, rule, err);
    if (insert_slash(body, slashed, sizeof slashed))
        return parse_bs(text, slashed, max, rule, err);
    return ls_fail_usage(err, "rule '%s': expected B/S notation (B3/S23, b3s23), S/B order (23/3) or a rule name "
                              "(Life, HighLife, Seeds, Day & Night, ...: LIFE RULES in man lockstep)",
                         text);
}

int life_rule_parse_spec(const char *text, unsigned dims, life_rule_spec *out, ls_error *err)
{
    char body[RULE_TEXT_MAX + 1];
    size_t len = strlen(text);
    if (len > RULE_TEXT_MAX)
        return ls_fail_usage(err, "rule '%.40s...': too long for a rule (at most %d characters)", text,
                             RULE_TEXT_MAX);
    memset(out, 0, sizeof *out);
    if (life_topology_parse(text, &out->grid, err))
        return -1;
    const char *colon = strchr(text, ':');
    size_t blen = colon ? (size_t)(colon - text) : len;
    memcpy(body, text, blen);
    body[blen] = '\0';
    /* Counts up to the grid's neighbours: the dimension given, else the
     * one the suffix implies, else (not known yet) 26. */
    unsigned max = (dims ? dims : suffix_dims(&out->grid)) == 2 ? LIFE_MAX_COUNT_2D : LIFE_MAX_COUNT_3D;
    const char *why_2d = NULL;
    if (refuse_named_generations(text, body, err) || two_states(text, body, err) ||
        parse_body(text, body, max, &out->rule, &why_2d, err))
        return -1;
    out->dims = why_2d ? 2 : suffix_dims(&out->grid);
    if (why_2d && suffix_dims(&out->grid) == 3)
        return ls_fail_usage(err, "rule '%s': the rule is %s but its grid suffix has three sides (3D)", text, why_2d);
    if (dims && out->dims && out->dims != dims) {
        if (why_2d)
            return ls_fail_usage(err, "rule '%s' is %s (8 neighbours); a 3D grid counts 26: give a 3D rule in B/S "
                                      "notation, such as B6/S567",
                                 text, why_2d);
        return ls_fail_usage(err, "rule '%s': its grid suffix has %u sides (%uD) and the grid is %uD", text,
                             out->grid.sides, out->dims, dims);
    }
    return 0;
}

int life_rule_parse(const char *text, unsigned dims, life_rule *out, ls_error *err)
{
    life_rule_spec spec;
    if (life_rule_parse_spec(text, dims, &spec, err))
        return -1;
    *out = spec.rule;
    return 0;
}

void life_topology_format(int bounded, unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz, char *out, size_t len)
{
    if (dims == 3)
        snprintf(out, len, ":%c%u,%u,%u", bounded ? 'P' : 'T', nx, ny, nz);
    else
        snprintf(out, len, ":%c%u,%u", bounded ? 'P' : 'T', nx, ny);
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
