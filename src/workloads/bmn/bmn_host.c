/* bmn_host.c - deal strings and the exact Beggar My Neighbour player. */
#include "bmn_host.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int bmn_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ---- cards and strings ------------------------------------------------ */

char bmn_card_char(unsigned code)
{
    static const char names[] = "-JQKA";
    return code <= BMN_ACE ? names[code] : '?';
}

const char *bmn_outcome_name(unsigned outcome)
{
    switch (outcome) {
    case BMN_RUNNING: return "running";
    case BMN_A_WINS: return "A wins";
    case BMN_B_WINS: return "B wins";
    case BMN_CAPPED: return "capped";
    case BMN_INVALID: return "invalid";
    case BMN_LOOP: return "loop";
    default: return "?";
    }
}

void bmn_hands_free(bmn_hands *h)
{
    if (!h)
        return;
    free(h->a);
    free(h->b);
    h->a = h->b = NULL;
    h->na = h->nb = 0;
}

static int bmn_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Reads one card at s[*i] (advancing *i); returns its code, or -1 for
 * whitespace (skipped), -2 for '/', -3 for an error (message set). */
static int bmn_read_card(const char *s, size_t *i, char *err, size_t errlen)
{
    char c = s[*i];
    size_t pos = *i + 1;
    (*i)++;
    switch (c) {
    case '-':
    case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
        return BMN_NUMERAL;
    case '1':
        if (s[*i] == '0') {
            (*i)++;
            return BMN_NUMERAL;
        }
        bmn_err(err, errlen, "'1' at position %zu is not a card (ten is written 10)", pos);
        return -3;
    case 'J': case 'j': return BMN_JACK;
    case 'Q': case 'q': return BMN_QUEEN;
    case 'K': case 'k': return BMN_KING;
    case 'A': case 'a': return BMN_ACE;
    case '/': return -2;
    default:
        break;
    }
    if (bmn_is_space(c))
        return -1;
    if ((unsigned char)c >= 0x21 && (unsigned char)c < 0x7f)
        bmn_err(err, errlen,
                "unknown card '%c' at position %zu (cards are - 2-9 10 J Q K A, hands "
                "separated by '/')",
                c, pos);
    else
        bmn_err(err, errlen, "unknown character 0x%02x at position %zu", (unsigned char)c,
                pos);
    return -3;
}

int bmn_parse_deal(const char *text, bmn_hands *out, char *err, size_t errlen)
{
    if (!out)
        return bmn_err(err, errlen, "no output given");
    out->a = out->b = NULL;
    out->na = out->nb = 0;
    if (!text)
        return bmn_err(err, errlen, "no deal given");
    size_t len = strlen(text);
    /* At most one card per character. */
    uint8_t *cards = malloc(len ? len : 1);
    if (!cards)
        return bmn_err(err, errlen, "out of memory reading a deal of %zu characters", len);
    size_t n = 0, split = 0, slash_pos = 0;
    int have_slash = 0;
    for (size_t i = 0; i < len;) {
        size_t at = i + 1;
        int code = bmn_read_card(text, &i, err, errlen);
        if (code == -3) {
            free(cards);
            return -1;
        }
        if (code == -1)
            continue;
        if (code == -2) {
            if (have_slash) {
                free(cards);
                return bmn_err(err, errlen,
                               "second '/' at position %zu (a deal is hand A '/' hand B; "
                               "the first '/' is at position %zu)",
                               at, slash_pos);
            }
            have_slash = 1;
            slash_pos = at;
            split = n;
            continue;
        }
        cards[n++] = (uint8_t)code;
    }
    if (!have_slash) {
        if (n != 2u * BMN_HAND_CARDS) {
            free(cards);
            return bmn_err(err, errlen,
                           "no '/' and %zu cards: without '/' a deal must have exactly %u "
                           "cards (split %u/%u)",
                           n, 2u * BMN_HAND_CARDS, BMN_HAND_CARDS, BMN_HAND_CARDS);
        }
        split = BMN_HAND_CARDS;
    }
    if (split == 0) {
        free(cards);
        return bmn_err(err, errlen, "hand A is empty (nothing before '/' at position %zu)",
                       slash_pos);
    }
    if (split == n) {
        free(cards);
        return bmn_err(err, errlen, "hand B is empty (nothing after '/' at position %zu)",
                       slash_pos);
    }
    out->a = malloc(split);
    out->b = malloc(n - split);
    if (!out->a || !out->b) {
        free(cards);
        bmn_hands_free(out);
        return bmn_err(err, errlen, "out of memory reading a deal of %zu cards", n);
    }
    memcpy(out->a, cards, split);
    memcpy(out->b, cards + split, n - split);
    out->na = split;
    out->nb = n - split;
    free(cards);
    return 0;
}

size_t bmn_format_hand(const uint8_t *cards, size_t n, char *buf, size_t size)
{
    if (buf && size) {
        size_t m = n < size - 1 ? n : size - 1;
        for (size_t i = 0; i < m; i++)
            buf[i] = bmn_card_char(cards[i]);
        buf[m] = '\0';
    }
    return n;
}

size_t bmn_format_deal(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, char *buf,
                       size_t size)
{
    size_t total = na + 1 + nb;
    if (buf && size) {
        size_t w = 0;
        for (size_t i = 0; i < na && w + 1 < size; i++)
            buf[w++] = bmn_card_char(a[i]);
        if (w + 1 < size)
            buf[w++] = '/';
        for (size_t i = 0; i < nb && w + 1 < size; i++)
            buf[w++] = bmn_card_char(b[i]);
        buf[w] = '\0';
    }
    return total;
}

/* ---- the player -------------------------------------------------------- */

/* A hand: ring buffer of `cap` cards (cap = all cards in the game). */
typedef struct {
    uint8_t *c;
    size_t head, n, cap;
} bmn_queue;

static uint8_t bmn_q_pop(bmn_queue *q)
{
    uint8_t v = q->c[q->head];
    q->head = q->head + 1 == q->cap ? 0 : q->head + 1;
    q->n--;
    return v;
}

static void bmn_q_push(bmn_queue *q, uint8_t v)
{
    size_t t = q->head + q->n;
    if (t >= q->cap)
        t -= q->cap;
    q->c[t] = v;
    q->n++;
}

/* Copies the hand, top first, into out. */
static void bmn_q_copy(const bmn_queue *q, uint8_t *out)
{
    for (size_t i = 0, j = q->head; i < q->n; i++) {
        out[i] = q->c[j];
        j = j + 1 == q->cap ? 0 : j + 1;
    }
}

typedef struct {
    const bmn_host_opts *opts;
    uint8_t *ta, *tb; /* scratch for the trace */
} bmn_tracer;

static void bmn_emit(bmn_tracer *tr, uint64_t number, uint64_t cards, int winner, int final,
                     const uint8_t *pile, size_t plen, const bmn_queue *qa, const bmn_queue *qb)
{
    if (!tr->opts || (!tr->opts->trace && !tr->opts->trace_file))
        return;
    bmn_trick t;
    bmn_q_copy(qa, tr->ta);
    bmn_q_copy(qb, tr->tb);
    t.number = number;
    t.cards = cards;
    t.winner = winner;
    t.final = final;
    t.pile = pile;
    t.pile_len = plen;
    t.a = tr->ta;
    t.na = qa->n;
    t.b = tr->tb;
    t.nb = qb->n;
    if (tr->opts->trace)
        tr->opts->trace(tr->opts->trace_user, &t);
    if (tr->opts->trace_file)
        bmn_trace_print(tr->opts->trace_file, &t);
}

/* Whether two hands hold the same cards in the same order. */
static int bmn_q_equal(const bmn_queue *x, const bmn_queue *y)
{
    if (x->n != y->n)
        return 0;
    for (size_t i = 0, a = x->head, b = y->head; i < x->n; i++) {
        if (x->c[a] != y->c[b])
            return 0;
        a = a + 1 == x->cap ? 0 : a + 1;
        b = b + 1 == y->cap ? 0 : b + 1;
    }
    return 1;
}

/* A game at a trick boundary: both hands, who leads, and the counts so
 * far. Loop detection compares the hands and the leader only. */
typedef struct {
    bmn_queue q[2];
    int leader;
    uint64_t cards, tricks;
    unsigned outcome; /* BMN_RUNNING until a trick ends the game */
} bmn_board;

static void bmn_board_start(bmn_board *g, const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    g->q[0].head = g->q[0].n = g->q[1].head = g->q[1].n = 0;
    for (size_t i = 0; i < na; i++)
        bmn_q_push(&g->q[0], a[i]);
    for (size_t i = 0; i < nb; i++)
        bmn_q_push(&g->q[1], b[i]);
    g->leader = 0;
    g->cards = g->tricks = 0;
    g->outcome = BMN_RUNNING;
}

/* dst = src (dst has its own buffers of the same size). */
static void bmn_board_copy(bmn_board *dst, const bmn_board *src)
{
    for (int h = 0; h < 2; h++) {
        bmn_q_copy(&src->q[h], dst->q[h].c);
        dst->q[h].head = 0;
        dst->q[h].n = src->q[h].n;
    }
    dst->leader = src->leader;
    dst->cards = src->cards;
    dst->tricks = src->tricks;
    dst->outcome = src->outcome;
}

static int bmn_board_same(const bmn_board *x, const bmn_board *y)
{
    return x->leader == y->leader && bmn_q_equal(&x->q[0], &y->q[0]) && bmn_q_equal(&x->q[1], &y->q[1]);
}

/* Plays one trick (tr may be NULL: no trace). Returns 1 when it ended the
 * game (g->outcome set), else 0. */
static int bmn_board_trick(bmn_board *g, uint8_t *pile, bmn_tracer *tr)
{
    /* `owed` > 0: player p must pay that many more cards for the penalty
     * card that `layer` played. */
    int p = g->leader, layer = -1, winner;
    unsigned owed = 0;
    size_t plen = 0;
    bmn_queue *q = g->q;
    for (;;) {
        if (q[p].n == 0) {
            /* p must play and has no card: p loses, the opponent
             * collects the pile, and that is the last trick. */
            winner = 1 - p;
            for (size_t i = 0; i < plen; i++)
                bmn_q_push(&q[winner], pile[i]);
            g->tricks++;
            if (tr)
                bmn_emit(tr, g->tricks, g->cards, winner, 1, pile, plen, &q[0], &q[1]);
            g->outcome = winner ? BMN_B_WINS : BMN_A_WINS;
            return 1;
        }
        uint8_t c = bmn_q_pop(&q[p]);
        pile[plen++] = c;
        g->cards++;
        if (c != BMN_NUMERAL) {
            owed = c;
            layer = p;
            p = 1 - p;
        } else if (owed) {
            if (--owed == 0) {
                winner = layer;
                break;
            }
        } else {
            p = 1 - p;
        }
    }
    for (size_t i = 0; i < plen; i++)
        bmn_q_push(&q[winner], pile[i]);
    g->tricks++;
    int final = q[1 - winner].n == 0; /* the loser paid its last card */
    if (tr)
        bmn_emit(tr, g->tricks, g->cards, winner, final, pile, plen, &q[0], &q[1]);
    if (final) {
        g->outcome = winner ? BMN_B_WINS : BMN_A_WINS;
        return 1;
    }
    g->leader = winner;
    return 0;
}

/* Where the first repeated trick-boundary state closes a loop of `lam`
 * tricks: replays from the start with one board `lam` tricks ahead until
 * both agree (Brent's second phase). x ends at the loop's start, y at the
 * first repeat. */
static void bmn_loop_start(bmn_board *x, bmn_board *y, const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                           uint64_t lam, uint8_t *pile)
{
    bmn_board_start(x, a, na, b, nb);
    bmn_board_start(y, a, na, b, nb);
    for (uint64_t i = 0; i < lam; i++)
        bmn_board_trick(y, pile, NULL);
    while (!bmn_board_same(x, y)) {
        bmn_board_trick(x, pile, NULL);
        bmn_board_trick(y, pile, NULL);
    }
}

/* The outcome of the game without a trace, in memory of a few copies of
 * the hands: Brent's cycle detection over trick-boundary states (a
 * "tortoise" copy taken at tricks 1, 2, 4, 8, ... and a "hare" playing
 * on), exact like keeping every state. With a card cap, the game is
 * capped at the first boundary past it unless its first repeated state
 * comes no later; Brent finds a repeat at trick j by trick 3j + 2, so the
 * hare plays on to 4t + 4 tricks before deciding. */
static void bmn_decide(bmn_board *g, uint64_t max_cards, const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                       uint8_t *pile, bmn_host_result *res)
{
    bmn_board *hare = &g[0], *tort = &g[1];
    bmn_board_start(hare, a, na, b, nb);
    bmn_board_copy(tort, hare);
    uint64_t power = 1, lam = 1, cap_cards = 0, cap_tricks = 0, limit = UINT64_MAX;
    int capped = 0;
    for (int ended = bmn_board_trick(hare, pile, NULL);; ended = bmn_board_trick(hare, pile, NULL), lam++) {
        if (ended && !capped) {
            res->outcome = hare->outcome;
            res->cards = hare->cards;
            res->tricks = hare->tricks;
            return;
        }
        if (!ended && bmn_board_same(hare, tort)) {
            bmn_loop_start(tort, hare, a, na, b, nb, lam, pile);
            if (!capped || hare->tricks <= cap_tricks) {
                res->outcome = BMN_LOOP;
                res->cards = hare->cards;
                res->tricks = hare->tricks;
                res->loop_start_cards = tort->cards;
                res->loop_start_tricks = tort->tricks;
                res->loop_tricks = lam;
                res->loop_cards = hare->cards - tort->cards;
                return;
            }
            break;
        }
        if (!capped && max_cards && hare->cards >= max_cards) {
            capped = 1;
            cap_cards = hare->cards;
            cap_tricks = hare->tricks;
            limit = 4 * cap_tricks + 4;
        }
        if (ended || hare->tricks >= limit)
            break;
        if (power == lam) {
            bmn_board_copy(tort, hare);
            power *= 2;
            lam = 0;
        }
    }
    res->outcome = BMN_CAPPED;
    res->cards = cap_cards;
    res->tricks = cap_tricks;
}

int bmn_host_play(const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                  const bmn_host_opts *opts, bmn_host_result *res, char *err, size_t errlen)
{
    if (!res)
        return bmn_err(err, errlen, "no result given");
    memset(res, 0, sizeof *res);
    if (!a || na == 0)
        return bmn_err(err, errlen, "hand A is empty");
    if (!b || nb == 0)
        return bmn_err(err, errlen, "hand B is empty");
    for (size_t i = 0; i < na; i++)
        if (a[i] > BMN_ACE)
            return bmn_err(err, errlen, "hand A: card %zu has code %u (codes are 0..4)", i + 1,
                           a[i]);
    for (size_t i = 0; i < nb; i++)
        if (b[i] > BMN_ACE)
            return bmn_err(err, errlen, "hand B: card %zu has code %u (codes are 0..4)", i + 1,
                           b[i]);
    size_t total = na + nb;
    if (total < na || total > BMN_HOST_MAX_CARDS)
        return bmn_err(err, errlen,
                       "hands too long: %zu + %zu cards; the exact player takes at most %u cards in all", na,
                       nb, BMN_HOST_MAX_CARDS);

    /* Two boards (four hands), the pile and, for a trace, two hands:
     * at most 7 bytes a card, whatever the length of the game. */
    int rc = -1;
    int tracing = opts && (opts->trace || opts->trace_file);
    bmn_board g[2];
    memset(g, 0, sizeof g);
    bmn_tracer tr = {opts, NULL, NULL};
    uint8_t *pile = malloc(total);
    for (int i = 0; i < 2; i++)
        for (int h = 0; h < 2; h++) {
            g[i].q[h].c = malloc(total);
            g[i].q[h].cap = total;
        }
    if (tracing) {
        tr.ta = malloc(total);
        tr.tb = malloc(total);
    }
    if (!pile || !g[0].q[0].c || !g[0].q[1].c || !g[1].q[0].c || !g[1].q[1].c ||
        (tracing && (!tr.ta || !tr.tb))) {
        rc = bmn_err(err, errlen, "out of memory playing a game of %zu cards", total);
        goto cleanup;
    }
    bmn_decide(g, opts ? opts->max_cards : 0, a, na, b, nb, pile, res);
    if (tracing) {
        /* The trace is played once more, knowing where it stops. */
        bmn_board_start(&g[0], a, na, b, nb);
        while (g[0].tricks < res->tricks)
            bmn_board_trick(&g[0], pile, &tr);
    }
    rc = 0;
cleanup:
    for (int i = 0; i < 2; i++)
        for (int h = 0; h < 2; h++)
            free(g[i].q[h].c);
    free(pile);
    free(tr.ta);
    free(tr.tb);
    return rc;
}

int bmn_host_play_str(const char *deal, const bmn_host_opts *opts, bmn_host_result *res,
                      char *err, size_t errlen)
{
    bmn_hands h;
    if (bmn_parse_deal(deal, &h, err, errlen))
        return -1;
    int rc = bmn_host_play(h.a, h.na, h.b, h.nb, opts, res, err, errlen);
    bmn_hands_free(&h);
    return rc;
}

static void bmn_print_cards(FILE *f, const uint8_t *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fputc(bmn_card_char(c[i]), f);
}

void bmn_trace_print(FILE *f, const bmn_trick *t)
{
    fprintf(f, "trick %llu  cards %llu  %c %s %zu: ", (unsigned long long)t->number,
            (unsigned long long)t->cards, t->winner ? 'B' : 'A',
            t->final ? "wins the game, taking" : "takes", t->pile_len);
    bmn_print_cards(f, t->pile, t->pile_len);
    fprintf(f, "  |  A %zu: ", t->na);
    bmn_print_cards(f, t->a, t->na);
    fprintf(f, "  B %zu: ", t->nb);
    bmn_print_cards(f, t->b, t->nb);
    fputc('\n', f);
}
