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

/* The set of trick-boundary states seen. A state record is
 *   [who leads (1 byte)] [cards in A (8 bytes)] [A top..bottom, B top..bottom]
 * of fixed size for a game; records live in one growing arena, and an
 * open-addressing table of record indices (+1, 0 = empty) finds them. */
typedef struct {
    size_t rec_size;
    uint8_t *recs;       /* arena */
    uint64_t *hashes;    /* per record */
    uint64_t *cards_at;  /* cards played when the record was made */
    size_t nrec, caprec;
    size_t *slots;
    size_t nslots;       /* power of two */
} bmn_seen;

static uint64_t bmn_hash(const uint8_t *p, size_t n)
{
    /* FNV-1a, then a final mix. */
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3u;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    return h;
}

static void bmn_seen_free(bmn_seen *s)
{
    free(s->recs);
    free(s->hashes);
    free(s->cards_at);
    free(s->slots);
    memset(s, 0, sizeof *s);
}

static int bmn_seen_grow_slots(bmn_seen *s)
{
    size_t nn = s->nslots ? 2 * s->nslots : 64;
    if (nn < s->nslots || nn > SIZE_MAX / sizeof(size_t))
        return -1;
    size_t *ns = calloc(nn, sizeof *ns);
    if (!ns)
        return -1;
    for (size_t r = 0; r < s->nrec; r++) {
        size_t i = (size_t)s->hashes[r] & (nn - 1);
        while (ns[i])
            i = (i + 1) & (nn - 1);
        ns[i] = r + 1;
    }
    free(s->slots);
    s->slots = ns;
    s->nslots = nn;
    return 0;
}

static int bmn_seen_grow_recs(bmn_seen *s)
{
    size_t nc = s->caprec ? 2 * s->caprec : 32;
    if (nc < s->caprec || nc > SIZE_MAX / s->rec_size || nc > SIZE_MAX / sizeof(uint64_t))
        return -1;
    uint8_t *r = realloc(s->recs, nc * s->rec_size);
    if (!r)
        return -1;
    s->recs = r;
    uint64_t *h = realloc(s->hashes, nc * sizeof *h);
    if (!h)
        return -1;
    s->hashes = h;
    uint64_t *c = realloc(s->cards_at, nc * sizeof *c);
    if (!c)
        return -1;
    s->cards_at = c;
    s->caprec = nc;
    return 0;
}

/* Looks the state up; if new, adds it. Returns -1 on memory failure, 0 when
 * added, 1 when already present (*first = its record index = the number of
 * tricks played when it was first seen). */
static int bmn_seen_visit(bmn_seen *s, int leader, const bmn_queue *qa, const bmn_queue *qb,
                          uint64_t cards, size_t *first)
{
    if (s->nrec == s->caprec && bmn_seen_grow_recs(s))
        return -1;
    if (2 * (s->nrec + 1) > s->nslots && bmn_seen_grow_slots(s))
        return -1;
    uint8_t *rec = s->recs + s->nrec * s->rec_size;
    rec[0] = (uint8_t)leader;
    uint64_t na = qa->n;
    for (int k = 0; k < 8; k++)
        rec[1 + k] = (uint8_t)(na >> (8 * k));
    bmn_q_copy(qa, rec + 9);
    bmn_q_copy(qb, rec + 9 + qa->n);
    uint64_t h = bmn_hash(rec, s->rec_size);
    size_t i = (size_t)h & (s->nslots - 1);
    while (s->slots[i]) {
        size_t r = s->slots[i] - 1;
        if (s->hashes[r] == h && memcmp(s->recs + r * s->rec_size, rec, s->rec_size) == 0) {
            *first = r;
            return 1;
        }
        i = (i + 1) & (s->nslots - 1);
    }
    s->hashes[s->nrec] = h;
    s->cards_at[s->nrec] = cards;
    s->slots[i] = ++s->nrec;
    return 0;
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
    if (total < na || total > (SIZE_MAX - 9) / 4)
        return bmn_err(err, errlen, "hands too long (%zu + %zu cards)", na, nb);

    int rc = -1;
    bmn_queue q[2];
    memset(q, 0, sizeof q);
    bmn_seen seen;
    memset(&seen, 0, sizeof seen);
    bmn_tracer tr = {opts, NULL, NULL};
    uint8_t *pile = NULL;
    q[0].c = malloc(total);
    q[1].c = malloc(total);
    pile = malloc(total);
    if (opts && (opts->trace || opts->trace_file)) {
        tr.ta = malloc(total);
        tr.tb = malloc(total);
        if (!tr.ta || !tr.tb)
            goto oom;
    }
    if (!q[0].c || !q[1].c || !pile)
        goto oom;
    q[0].cap = q[1].cap = total;
    for (size_t i = 0; i < na; i++)
        bmn_q_push(&q[0], a[i]);
    for (size_t i = 0; i < nb; i++)
        bmn_q_push(&q[1], b[i]);
    seen.rec_size = 9 + total;

    uint64_t cards = 0, tricks = 0;
    uint64_t max_cards = opts ? opts->max_cards : 0;
    int leader = 0;
    size_t first;
    if (bmn_seen_visit(&seen, leader, &q[0], &q[1], cards, &first) < 0)
        goto oom;
    for (;;) {
        /* One trick. `owed` > 0: player p must pay that many more cards
         * for the penalty card that `layer` played. */
        int p = leader, layer = -1, winner;
        unsigned owed = 0;
        size_t plen = 0;
        for (;;) {
            if (q[p].n == 0) {
                /* p must play and has no card: p loses, the opponent
                 * collects the pile, and that is the last trick. */
                winner = 1 - p;
                for (size_t i = 0; i < plen; i++)
                    bmn_q_push(&q[winner], pile[i]);
                tricks++;
                bmn_emit(&tr, tricks, cards, winner, 1, pile, plen, &q[0], &q[1]);
                res->outcome = winner ? BMN_B_WINS : BMN_A_WINS;
                goto finished;
            }
            uint8_t c = bmn_q_pop(&q[p]);
            pile[plen++] = c;
            cards++;
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
        tricks++;
        if (q[1 - winner].n == 0) {
            /* The loser paid its last card: the game ends here. */
            bmn_emit(&tr, tricks, cards, winner, 1, pile, plen, &q[0], &q[1]);
            res->outcome = winner ? BMN_B_WINS : BMN_A_WINS;
            goto finished;
        }
        bmn_emit(&tr, tricks, cards, winner, 0, pile, plen, &q[0], &q[1]);
        leader = winner;
        int v = bmn_seen_visit(&seen, leader, &q[0], &q[1], cards, &first);
        if (v < 0)
            goto oom;
        if (v > 0) {
            res->outcome = BMN_LOOP;
            res->loop_start_tricks = first;
            res->loop_start_cards = seen.cards_at[first];
            res->loop_tricks = tricks - first;
            res->loop_cards = cards - seen.cards_at[first];
            goto finished;
        }
        if (max_cards && cards >= max_cards) {
            res->outcome = BMN_CAPPED;
            goto finished;
        }
    }
finished:
    res->cards = cards;
    res->tricks = tricks;
    rc = 0;
    goto cleanup;
oom:
    rc = bmn_err(err, errlen, "out of memory playing a game of %zu cards", total);
cleanup:
    free(q[0].c);
    free(q[1].c);
    free(pile);
    free(tr.ta);
    free(tr.tb);
    bmn_seen_free(&seen);
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
