/* life_manual.c - Life's sections of the man page and its completions;
 * see life_manual.h. The lists in them (rule names, formats) come from
 * the parsers' own tables, so the page names what the program reads. */
#include "life_manual.h"

#include <stdio.h>
#include <string.h>

#include "life_io.h"
#include "life_rule.h"

static const char rules_intro[] =
    "--rule and an RLE header take B<birth>/S<survival>, in either order, letters in any case. A set is a run of "
    "single digits (S23 is {2, 3}) or, as soon as it holds ',' or '-', a list of counts and ranges: B6/S5-7, "
    "B13,14/S10-12. Counts go to 8 in 2D (8 neighbours) and 26 in 3D (26 neighbours); empty sets (B/S) and B0 "
    "are allowed; a count given twice (S99) is refused. The defaults are B3/S23 in 2D and B6/S567 in 3D.\n"
    "\n"
    "B/S is also taken without its slash, as Catagolue and bgolly write it (b3s23). 2D rules are also taken as "
    "Golly and MCell write them: in S/B order, digits only (23/3 is B3/S23, /2 is B2/S), or by name, matched "
    "without regard to case, spaces, apostrophes, '-' and '_', with '&' read as \"and\" (Day & Night, "
    "DayAndNight and dayandnight are one). Golly's Generations rules, whose third part counts states (B2/S/3, "
    "/2/3, Brian's Brain), are refused by name; two states (B3/S23/2) is the Life-like rule itself.\n"
    "\n"
    "A run is 2D unless something says 3D: --dims 3, a --size or grid suffix of three sides, a 3D input grid, or "
    "a rule counting above 8 neighbours, which is said on stderr (2D, the default, is not); a rule whose only count "
    "above 8 is 9 (B3/S239, likely a typo) is refused unless the grid is 3D anyway. What can only be a 2D rule (a "
    "name, S/B order, a grid suffix of two sides, a pattern file's rule) is refused on a 3D grid; plain B/S text "
    "counts the neighbours of the grid it runs on. The names:\n"
    "\n";

static const char suffix_text[] =
    "Golly writes the grid after the rule, and lockstep reads it there, in --rule and in an RLE header: "
    "B3/S23:T64,48 is a torus of 64x48 cells, whose every edge wraps around to the opposite one; B3/S23:P64,48 "
    "is a bounded plane, where the cells beyond the edges are dead and stay dead, whatever the rule (B0 "
    "included). :P64,48,32 gives three sides, a 3D grid; :T64 one side, a square or cube, like --size 64. The "
    "letter is taken in either case; each side is 4 to 2^20 cells.\n"
    "\n"
    "--size and the suffix must agree when both are given; without either a random grid is 256 a side and a "
    "pattern gets its own box. Golly's other grids (:K a Klein bottle, :C a cross-surface, :S a sphere), its "
    "unbounded sides (:T0,64) and its twisted tori (:T64+1,64) are refused by name. Results and files keep the "
    "topology: the JSON says \"topology\": \"plane\" for a bounded plane, RLE and native files and PNG text "
    "chunks carry it.";

static const char formats_intro[] =
    "--in and --out choose the format by the file's extension, or --format; an output name without an "
    "extension (and OUT of the form IN OUT N, whatever its name) takes the input's format, another extension is "
    "refused, naming the formats. pku and native hold a whole grid, which keeps its shape; rle, cells, png and mc "
    "are patterns, placed where Golly places them on a grid of that size (Golly's origin is the grid's cell "
    "(width/2, height/2): at an RLE's #CXRLE Pos or a macrocell's own place, else with the pattern's middle "
    "there), at --at X,Y, or centred with --at center. Every output is written whole or not at all. "
    "The formats:\n"
    "\n";

/* The texts are made once: the man page asks once per process. */
static char rules_text[4096], formats_text[4096];

static void make_rules_text(void)
{
    const char *names[LIFE_RULE_NAMES], *rules[LIFE_RULE_NAMES];
    int n = life_rule_names(names, rules, LIFE_RULE_NAMES);
    snprintf(rules_text, sizeof rules_text, "%s", rules_intro);
    for (int i = 0; i < n; i++) {
        size_t used = strlen(rules_text);
        snprintf(rules_text + used, sizeof rules_text - used, "%s%s %s", i ? ", " : "", names[i], rules[i]);
    }
    size_t used = strlen(rules_text);
    snprintf(rules_text + used, sizeof rules_text - used, ".");
}

static void make_formats_text(void)
{
    char list[sizeof formats_text - sizeof formats_intro + 1]; /* what fits after the intro */
    life_format_manual(list, sizeof list);
    snprintf(formats_text, sizeof formats_text, "%s%s", formats_intro, list);
}

int life_manual(ls_manual_section *out, int max)
{
    make_rules_text();
    make_formats_text();
    const ls_manual_section sections[] = {
        {"LIFE RULES", rules_text},
        {"GRID SUFFIXES", suffix_text},
        {"FILE FORMATS", formats_text},
    };
    int n = (int)(sizeof sections / sizeof sections[0]);
    n = n < max ? n : max;
    memcpy(out, sections, (size_t)n * sizeof *out);
    return n;
}

/* --rule completes to the rule names, spelt as the parser's keys
 * ("dayandnight"): no space or '&' for the shell to split or act on. */
int life_completions(const char *option, const char **out, int max)
{
    static char keys[LIFE_RULE_NAMES][64];
    if (strcmp(option, "rule") != 0)
        return 0;
    const char *names[LIFE_RULE_NAMES], *rules[LIFE_RULE_NAMES];
    int n = life_rule_names(names, rules, LIFE_RULE_NAMES), k = 0;
    for (int i = 0; i < n && k < max; i++)
        if (life_rule_key(names[i], keys[k], sizeof keys[k]) == 0) {
            out[k] = keys[k];
            k++;
        }
    return k;
}
