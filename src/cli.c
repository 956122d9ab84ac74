/* cli.c - table-driven option parsing; see cli.h. */
#include "cli.h"

#include "cluster.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static const char *program_name = "lockstep";

void ls_set_program_name(const char *argv0)
{
    if (argv0 && *argv0)
        program_name = argv0;
}

const char *ls_program_name(void)
{
    return program_name;
}

char *ls_shell_quote(const char *s)
{
    /* The characters shlex.quote and the shells leave alone. */
    static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@%+=:,./_-";
    size_t n = strlen(s), quotes = 0;
    for (size_t i = 0; i < n; i++)
        quotes += s[i] == '\'';
    char *out = malloc(n + 3 * quotes + 3);
    if (!out)
        return NULL;
    if (n > 0 && strspn(s, plain) == n) {
        memcpy(out, s, n + 1);
        return out;
    }
    size_t k = 0;
    out[k++] = '\'';
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\'') { /* close the quotes, an escaped quote, open them again */
            memcpy(out + k, "'\\''", 4);
            k += 4;
        } else {
            out[k++] = s[i];
        }
    }
    out[k++] = '\'';
    out[k] = 0;
    return out;
}

int ls_parse_count(const char *flag, const char *text, uint64_t min, uint64_t max, uint64_t *out,
                   ls_error *err)
{
    char option[80];
    snprintf(option, sizeof option, "--%s", flag);
    return ls_parse_count_as(option, text, min, max, out, err);
}

/* Accepts plain digits, or a decimal mantissa with an exponent (1e9,
 * 2.5e8) when the value is a whole number. */
int ls_parse_count_as(const char *what, const char *text, uint64_t min, uint64_t max, uint64_t *out,
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
            return ls_fail_usage(err, "%s: expected an integer from %s to %s; got '%s'", what, lo, hi, text);
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
            return ls_fail_usage(err, "%s: expected an integer from %s to %s (like 1000000 or 1e6); got '%s'",
                                 what, lo, hi, text);
        char *end;
        errno = 0;
        long double d = strtold(p, &end);
        if (*end != 0 || errno == ERANGE || d != floorl(d) || d < (long double)min || d > (long double)max)
            return ls_fail_usage(err, "%s: expected an integer from %s to %s; got '%s'", what, lo, hi, text);
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

/* Whether `name` (len bytes, not terminated) is exactly `want`. */
static int name_is(const char *want, const char *name, size_t len)
{
    return want && strlen(want) == len && strncmp(want, name, len) == 0;
}

static const ls_opt *find_opt(const ls_opt *opts, int n, const char *name, size_t len)
{
    for (int i = 0; i < n; i++)
        if (name_is(opts[i].name, name, len) || name_is(opts[i].alias, name, len))
            return &opts[i];
    return NULL;
}

/* The edit distance of a and b (la and lb bytes): an insertion, a
 * deletion, a substitution or a swap of neighbours costs 1 each (the
 * optimal string alignment distance). Names longer than 63 bytes are far
 * from every option. */
static size_t edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
    enum { MAX = 64 };
    if (la >= MAX || lb >= MAX)
        return MAX;
    size_t d[MAX][MAX];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

/* How near `name` (len bytes) is to the option name `want`: its edit
 * distance, or 0 when it is the start of `want` (--back for --backend);
 * SIZE_MAX when too far to suggest: more than 2 edits, or half the name. */
static size_t nearness(const char *want, const char *name, size_t len)
{
    if (!want)
        return SIZE_MAX;
    size_t wl = strlen(want);
    if (len >= 3 && len < wl && strncmp(want, name, len) == 0)
        return 0;
    size_t d = edit_distance(name, len, want, wl);
    return d <= 2 && 2 * d < wl ? d : SIZE_MAX;
}

/* The option nearest to the unknown `name` (len bytes, without dashes):
 * its name, or NULL when none is near (help counts as an option). */
static const char *near_option(const ls_opt *opts, int n, const char *name, size_t len)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX;
    for (int i = 0; i <= n; i++) {
        const char *names[2] = {i < n ? opts[i].name : "help", i < n ? opts[i].alias : NULL};
        for (int k = 0; k < 2; k++) {
            size_t d = nearness(names[k], name, len);
            if (d < best_d) {
                best_d = d;
                best = names[k];
            }
        }
    }
    return best;
}

const char *ls_nearest_name(const char *word, const char *const *names, int n)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX, len = strlen(word);
    for (int i = 0; i < n; i++) {
        size_t d = nearness(names[i], word, len);
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}

/* Refuses an unknown option (or a lone argument that looks like a
 * mistyped one, `-backend`), suggesting the nearest option: -1. */
static int refuse_unknown(const char *what, const char *text, size_t len, const char *near, ls_error *err)
{
    if (near)
        return ls_fail_usage(err, "%s '%.*s'; did you mean --%s? (see --help)", what, (int)len, text, near);
    return ls_fail_usage(err, "%s '%.*s' (see --help)", what, (int)len, text);
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

/* The targets the last ls_opts_parse set (ls_opt_given), each once: an
 * option given twice is noted once, so the distinct options of one table
 * (far fewer than this) always fit. */
#define LS_MAX_GIVEN 64
static const void *given_targets[LS_MAX_GIVEN];
static int ngiven;

int ls_opts_copy(ls_opt *out, int max, const ls_opt *opts, int n)
{
    n = n < max ? n : max;
    memcpy(out, opts, (size_t)(n > 0 ? n : 0) * sizeof *out);
    return n > 0 ? n : 0;
}

int ls_opt_given(const void *target)
{
    for (int i = 0; i < ngiven; i++)
        if (given_targets[i] == target)
            return 1;
    return 0;
}

static void note_given(const void *target)
{
    if (!ls_opt_given(target) && ngiven < LS_MAX_GIVEN)
        given_targets[ngiven++] = target;
}

/* Whether --help (or -h) is among the options, before any "--": help is
 * then printed whatever else was given, with every target still at its
 * default, which it shows. */
static int help_asked(int argc, char **argv, int first)
{
    for (int i = first; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

int ls_opts_parse(int argc, char **argv, int first, const ls_opt *opts, int n,
                  const char **pos, int *npos, int max_pos, ls_error *err)
{
    int positional = 0, only_args = 0;
    ngiven = 0;
    if (help_asked(argc, argv, first))
        return 1;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (!only_args && strcmp(a, "--") == 0) {
            only_args = 1;
            continue;
        }
        if (only_args || !looks_like_option(a)) {
            if (positional >= max_pos) {
                /* `-backend`, `---json`: an option with the dashes wrong. */
                const char *bare = a + strspn(a, "-");
                const char *near = a[0] == '-' && !only_args ? near_option(opts, n, bare, strlen(bare)) : NULL;
                return refuse_unknown("unexpected argument", a, strlen(a), near, err);
            }
            pos[positional++] = a;
            continue;
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const ls_opt *o = find_opt(opts, n, name, len);
        if (!o)
            return refuse_unknown("unknown option", a, len + 2, near_option(opts, n, name, len), err);
        note_given(o->target);
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

static ls_help_style help_style = LS_HELP_TEXT;

void ls_help_set_style(ls_help_style style)
{
    help_style = style;
}

/* Whether the '-' at p (in text that starts at start) belongs to an
 * option or a command line ("--json", "-Dmpi"): a minus sign in roff, so
 * that what is copied from the page works; other dashes are hyphens. */
static int option_dash(const char *start, const char *p)
{
    char before = p > start ? p[-1] : ' ';
    return p[1] == '-' || before == '-' || ((before == ' ' || before == '(' || before == '[' || before == '`' ||
                                             before == '\n') && p[1] >= 'A' && p[1] <= 'z');
}

void ls_roff_text(FILE *out, const char *text, int dashes)
{
    int line_start = 1;
    for (const char *p = text; *p; p++) {
        if (line_start && *p == '\n') {
            fputs(".PP\n", out); /* a blank line: a new paragraph */
            continue;
        }
        if (line_start && (*p == '.' || *p == '\''))
            fputs("\\&", out);
        if (*p == '\\')
            fputs("\\e", out);
        else if (*p == '-' && (dashes || option_dash(text, p)))
            fputs("\\-", out);
        else
            fputc(*p, out);
        line_start = *p == '\n';
    }
}

/* What an option defaults to, as --help says it: its default text, else
 * its target's value before parsing where that is one (a count in its
 * range, a seed, a string given one); "" when there is none. */
static void opt_default(const ls_opt *o, char *out, size_t len)
{
    out[0] = 0;
    if (o->def) {
        snprintf(out, len, "%s", o->def);
        return;
    }
    switch (o->kind) {
    case LS_OPT_COUNT: {
        uint64_t v = *(const uint64_t *)o->target;
        if (v >= o->min && v <= o->max) /* below the range: the option's "unset" */
            ls_format_count(v, out, len);
        break;
    }
    case LS_OPT_U64:
        snprintf(out, len, "%llu", (unsigned long long)*(const uint64_t *)o->target);
        break;
    case LS_OPT_STRING:
        if (*(const char *const *)o->target)
            snprintf(out, len, "%s", *(const char *const *)o->target);
        break;
    case LS_OPT_FLAG:
        break;
    }
}

/* What follows an option's help: " (1 to 1e15; default 1e9)", its range
 * (counts), its default and its alias, those it has, or "". */
static void opt_notes(const ls_opt *o, char *out, size_t len)
{
    char note[3][200] = {"", "", ""};
    if (o->kind == LS_OPT_COUNT) {
        char lo[32], hi[32];
        ls_format_count(o->min, lo, sizeof lo);
        ls_format_count(o->max, hi, sizeof hi);
        snprintf(note[0], sizeof note[0], "%s to %s", lo, hi);
    }
    char def[160];
    opt_default(o, def, sizeof def);
    if (def[0])
        snprintf(note[1], sizeof note[1], "default %s", def);
    if (o->alias)
        snprintf(note[2], sizeof note[2], "also --%s", o->alias);
    out[0] = 0;
    for (int i = 0; i < 3; i++) {
        size_t used = strlen(out);
        if (note[i][0])
            snprintf(out + used, len - used, "%s%s", used ? "; " : " (", note[i]);
    }
    if (out[0])
        snprintf(out + strlen(out), len - strlen(out), ")");
}

/* The man page's form of a command's help: the usage lines as they are,
 * the summary as paragraphs, each option as a tagged paragraph. */
static void opts_help_roff(FILE *out, const char *usage, const char *summary, const ls_opt *opts, int n)
{
    fputs(".PP\n.nf\n", out);
    /* One usage line each, without the indent that lines them up in --help. */
    for (const char *line = usage; *line;) {
        line += strspn(line, " ");
        size_t len = strcspn(line, "\n");
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s", (int)len, line);
        ls_roff_text(out, buf, 1);
        fputc('\n', out);
        line += len;
        line += *line == '\n';
    }
    fputs(".fi\n.PP\n", out);
    ls_roff_text(out, summary, 0);
    fputc('\n', out);
    for (int i = 0; i <= n; i++) {
        const ls_opt *o = i < n ? &opts[i] : NULL;
        char notes[300];
        fputs(".TP\n\\fB\\-\\-", out);
        ls_roff_text(out, o ? o->name : "help", 1);
        fputs("\\fR", out);
        if (o && o->arg) {
            fputs(" \\fI", out);
            ls_roff_text(out, o->arg, 1);
            fputs("\\fR", out);
        }
        fputc('\n', out);
        notes[0] = 0;
        if (o)
            opt_notes(o, notes, sizeof notes);
        ls_roff_text(out, o ? o->help : "show this help", 0);
        ls_roff_text(out, notes, 0);
        fputc('\n', out);
    }
}

/* ---- help for people, filled to a width ------------------------------------ */

/* The first column of a list's text ("  " and a left column of 24, then a
 * space), and the indent of a usage line's continuation. */
enum { HELP_TEXT_COLUMN = 27, HELP_USAGE_INDENT = 11 };

int ls_help_width(FILE *out)
{
    struct winsize ws;
    int fd = fileno(out);
    if (fd < 0 || !isatty(fd) || ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0)
        return 80;
    return ws.ws_col < 40 ? 40 : ws.ws_col > 100 ? 100 : ws.ws_col;
}

/* A line being filled: the column it is at, and how many words it holds
 * (the first word of a line goes there whatever its length). */
typedef struct help_line {
    FILE *out;
    int col, indent, width, words;
} help_line;

/* The columns of len bytes of UTF-8: one a character. */
static int text_columns(const char *s, size_t len)
{
    int n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

static void new_line(help_line *l)
{
    fprintf(l->out, "\n%*s", l->indent, "");
    l->col = l->indent;
    l->words = 0;
}

/* Adds the words of text[0..len) to the line, starting a new one (at the
 * indent) before a word that would pass the width. Between two words on a
 * line the spaces are kept as written, but a newline is one space. */
static void fill(help_line *l, const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *gap = p;
        while (p < end && (*p == ' ' || *p == '\n'))
            p++;
        const char *word = p;
        while (p < end && *p != ' ' && *p != '\n')
            p++;
        if (word == p)
            break;
        int spaces = memchr(gap, '\n', (size_t)(word - gap)) ? 1 : (int)(word - gap);
        int width = text_columns(word, (size_t)(p - word));
        if (!l->words) {
            spaces = 0;
        } else if (spaces && l->col + spaces + width > l->width) { /* (a word glued to the last stays there) */
            new_line(l);
            spaces = 0;
        }
        fprintf(l->out, "%*s%.*s", spaces, "", (int)(p - word), word);
        l->col += spaces + width;
        l->words++;
    }
}

void ls_help_usage(FILE *out, const char *prefix, const char *usage, int width)
{
    for (const char *line = usage; *line;) {
        size_t len = strcspn(line, "\n"), lead = strspn(line, " ");
        if (lead > len)
            lead = len;
        /* The first line after the prefix; the others, whose leading
         * spaces line them up under it, as written. */
        const char *before = line == usage ? prefix : "";
        fprintf(out, "%s%.*s", before, (int)lead, line);
        help_line l = {out, text_columns(before, strlen(before)) + (int)lead, HELP_USAGE_INDENT, width, 0};
        fill(&l, line + lead, len - lead);
        fputc('\n', out);
        line += len;
        line += *line == '\n';
    }
}

void ls_help_paragraphs(FILE *out, const char *text, int width)
{
    const char *p = text;
    int first = 1;
    while (*p) {
        const char *blank = strstr(p, "\n\n");
        size_t len = blank ? (size_t)(blank - p) : strlen(p);
        if (strspn(p, " \n") < len) {
            help_line l = {out, 0, 0, width, 0};
            fputs(first ? "" : "\n", out);
            fill(&l, p, len);
            fputc('\n', out);
            first = 0;
        }
        p += len;
        p += strspn(p, "\n");
    }
}

/* Starts an entry of a list: "  LEFT" and the spaces to the text's column,
 * or a new line when LEFT reaches it. */
static help_line entry_start(FILE *out, const char *left, int width)
{
    help_line l = {out, 2 + text_columns(left, strlen(left)), HELP_TEXT_COLUMN, width, 0};
    fprintf(out, "  %s", left);
    if (l.col >= HELP_TEXT_COLUMN) {
        new_line(&l);
    } else {
        fprintf(out, "%*s", HELP_TEXT_COLUMN - l.col, "");
        l.col = HELP_TEXT_COLUMN;
    }
    return l;
}

void ls_help_entry(FILE *out, const char *left, const char *text, int width)
{
    help_line l = entry_start(out, left, width);
    fill(&l, text, strlen(text));
    fputc('\n', out);
}

void ls_opts_help(FILE *out, const char *usage, const char *summary, const ls_opt *opts, int n)
{
    if (help_style == LS_HELP_ROFF) {
        opts_help_roff(out, usage, summary, opts, n);
        return;
    }
    if (help_style == LS_HELP_OPTIONS) {
        /* An alias completes too: scripts that use it are typed as well. */
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 1 + (opts[i].alias != NULL); k++)
                fprintf(out, "--%s%s%s\n", k ? opts[i].alias : opts[i].name, opts[i].arg ? " " : "",
                        opts[i].arg ? opts[i].arg : "");
        fputs("--help\n", out);
        return;
    }
    int width = ls_help_width(out);
    ls_help_usage(out, "usage: ", usage, width);
    fputc('\n', out);
    ls_help_paragraphs(out, summary, width);
    if (n)
        fprintf(out, "\noptions:\n");
    for (int i = 0; i < n; i++) {
        char left[64], notes[300];
        snprintf(left, sizeof left, "--%s%s%s", opts[i].name, opts[i].arg ? " " : "",
                 opts[i].arg ? opts[i].arg : "");
        opt_notes(&opts[i], notes, sizeof notes);
        help_line l = entry_start(out, left, width);
        fill(&l, opts[i].help, strlen(opts[i].help));
        fill(&l, notes, strlen(notes)); /* " (1 to 1e9; default 5)": after the help's end where it fits */
        fputc('\n', out);
    }
    ls_help_entry(out, "--help", "show this help", width);
}

int ls_report(const ls_error *err)
{
    const char *msg = err->msg[0] ? err->msg : "unknown error";
    /* A usage error: every rank read the same command line. */
    int usage = err->usage & 1, everywhere = usage || (err->usage & LS_ERROR_EVERY_RANK);
    if (ls_cluster_size() <= 1)
        fprintf(stderr, "lockstep: %s\n", msg);
    else if (!everywhere)
        fprintf(stderr, "lockstep (rank %d on %s): %s\n", ls_cluster_rank(), ls_cluster_host(), msg);
    else if (ls_cluster_rank() == 0)
        fprintf(stderr, "lockstep: %s\n", msg);
    return usage ? 2 : 1;
}
