/* test_bmn.c - Beggar My Neighbour: the portable engine (src/algo/bmn.h),
 * the host player and deal strings (src/workloads/bmn/bmn_host.c), against published
 * records, hand-worked games, and an independent reference player written
 * below from the rules alone.
 *
 * Build and run:
 *   gcc -std=c17 -O2 -Wall -Wextra -Isrc -Isrc/algo -Isrc/workloads/bmn \
 *       tests/test_bmn.c src/workloads/bmn/bmn_host.c -o /tmp/test_bmn && /tmp/test_bmn
 * Prints one line per check; exit status 0 when all pass, 1 otherwise. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmn.h"
#include "bmn_host.h"
#include "philox.h"

static int failures, checks;

static void check(int ok, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#include <stdarg.h>
static void check(int ok, const char *fmt, ...)
{
    va_list ap;
    checks++;
    if (!ok)
        failures++;
    printf("%s ", ok ? "ok  " : "FAIL");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

/* ===================================================================== */
/* The reference player. Written from the rules only; shares nothing with
 * bmn.h or bmn_host.c. Hands and pile are plain arrays; playing a card
 * shifts the hand down by one, collecting appends the pile at the end.
 *
 *   - the player to move plays his top card onto the pile;
 *   - a penalty card (value 1..4) makes the opponent owe that many cards;
 *   - while a player owes cards he keeps playing; a penalty card among them
 *     turns the debt around; if he pays the debt in numerals, whoever laid
 *     the last penalty card takes the pile (under his hand, in playing
 *     order) and leads;
 *   - without a debt, players simply alternate;
 *   - a player who must play with an empty hand loses, and the opponent
 *     takes the pile (one more trick); a player left empty by a trick he
 *     lost has lost;
 *   - a trick-boundary state seen before means the game loops. */
/* ===================================================================== */

#define REF_MAX 256

typedef struct {
    int outcome; /* 1 A wins, 2 B wins, 5 loop, 3 gave up (cap) */
    long cards, tricks;
    long loop_cards, loop_tricks; /* loop length */
} ref_result;

typedef struct {
    int leader, na;
    unsigned char cards[REF_MAX];
    long cards_played;
} ref_state;

static ref_result ref_play(const unsigned char *a, int na, const unsigned char *b, int nb,
                           long max_cards, int max_states)
{
    unsigned char hand[2][REF_MAX], pile[REF_MAX];
    int count[2], npile = 0;
    ref_result r = {0, 0, 0, 0, 0};
    /* States seen at trick boundaries, grown as needed up to max_states. */
    ref_state *seen = NULL;
    int nseen = 0, capseen = 0, checking = max_states > 0;
    memcpy(hand[0], a, (size_t)na);
    memcpy(hand[1], b, (size_t)nb);
    count[0] = na;
    count[1] = nb;

    int turn = 0;         /* who plays the next card */
    int debt = 0;         /* cards `turn` still owes */
    int creditor = -1;    /* who laid the penalty card being paid for */
    int at_boundary = 1;  /* the pile is empty and `turn` leads */
    for (;;) {
        if (at_boundary && checking) {
            /* Compare with every earlier boundary state. */
            ref_state s;
            memset(&s, 0, sizeof s);
            s.leader = turn;
            s.na = count[0];
            memcpy(s.cards, hand[0], (size_t)count[0]);
            memcpy(s.cards + count[0], hand[1], (size_t)count[1]);
            s.cards_played = r.cards;
            for (int i = 0; i < nseen; i++) {
                if (seen[i].leader == s.leader && seen[i].na == s.na &&
                    memcmp(seen[i].cards, s.cards, (size_t)(na + nb)) == 0) {
                    r.outcome = 5;
                    r.loop_tricks = r.tricks - i;
                    r.loop_cards = r.cards - seen[i].cards_played;
                    free(seen);
                    return r;
                }
            }
            if (nseen == max_states) {
                checking = 0; /* too long to keep checking */
            } else {
                if (nseen == capseen) {
                    capseen = capseen ? 2 * capseen : 16;
                    ref_state *more = realloc(seen, sizeof(ref_state) * (size_t)capseen);
                    if (!more) {
                        printf("     reference player: out of memory\n");
                        exit(1);
                    }
                    seen = more;
                }
                seen[nseen++] = s;
            }
        }
        if (at_boundary && max_cards && r.cards >= max_cards) {
            r.outcome = 3;
            break;
        }
        at_boundary = 0;
        if (count[turn] == 0) {
            /* Must play, cannot: the other player takes the pile and wins. */
            int other = 1 - turn;
            memcpy(hand[other] + count[other], pile, (size_t)npile);
            count[other] += npile;
            r.tricks++;
            r.outcome = other == 0 ? 1 : 2;
            break;
        }
        unsigned char card = hand[turn][0];
        memmove(hand[turn], hand[turn] + 1, (size_t)(count[turn] - 1));
        count[turn]--;
        pile[npile++] = card;
        r.cards++;
        if (card >= 1 && card <= 4) {
            debt = card;
            creditor = turn;
            turn = 1 - turn;
        } else if (debt > 0) {
            debt--;
            if (debt == 0) {
                memcpy(hand[creditor] + count[creditor], pile, (size_t)npile);
                count[creditor] += npile;
                npile = 0;
                r.tricks++;
                if (count[1 - creditor] == 0) {
                    r.outcome = creditor == 0 ? 1 : 2;
                    break;
                }
                turn = creditor;
                creditor = -1;
                at_boundary = 1;
            }
        } else {
            turn = 1 - turn;
        }
    }
    free(seen);
    return r;
}

/* ===================================================================== */
/* helpers */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rng_next(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static const char *ref_outcome_name(int o)
{
    return o == 1 ? "A wins" : o == 2 ? "B wins" : o == 5 ? "loop" : o == 3 ? "capped" : "?";
}

/* Parses with bmn_parse_deal into one array (A then B). */
static int parse_joined(const char *s, unsigned char *out, size_t cap, size_t *na, size_t *nb)
{
    bmn_hands h;
    char err[256];
    if (bmn_parse_deal(s, &h, err, sizeof err)) {
        printf("     parse error: %s\n", err);
        return -1;
    }
    if (h.na + h.nb > cap) {
        bmn_hands_free(&h);
        return -1;
    }
    memcpy(out, h.a, h.na);
    memcpy(out + h.na, h.b, h.nb);
    *na = h.na;
    *nb = h.nb;
    bmn_hands_free(&h);
    return 0;
}

/* Plays with the portable engine's step driver (bmn_step in a loop). */
static unsigned step_play(const unsigned char *c, unsigned na, unsigned nb, unsigned cap,
                          bmn_result *res)
{
    bmn_game g;
    if (bmn_load(&g, c, na, nb) != BMN_RUNNING) {
        res->cards = res->tricks = 0;
        res->outcome = BMN_INVALID;
        return BMN_INVALID;
    }
    while (g.outcome == BMN_RUNNING && g.cards < cap)
        bmn_step(&g);
    return bmn_finish(&g, cap, res);
}

/* ===================================================================== */

typedef struct {
    const char *name, *deal;
    long cards, tricks;
} record;

static const record records[] = {
    {"Nessler 2022", "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---", 8344, 1164},
    {"Anderson 2013", "--A-Q--J--J---Q--AJ-K---K-/-J-------Q------A--A--QKK-", 7225, 1016},
    {"Mann & Wu 2007", "K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--", 7157, 1007},
    {"Collins 2006", "A-QK------Q----KA-----J---/-JAK----A--Q----J---QJ--K-", 6913, 960},
    {"Kleber 1999", "---JQ---K-A----A-J-K---QK-/-J-----------AJQA----K---Q", 5790, 805},
};

static void test_records(void)
{
    for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
        const record *rc = &records[i];
        unsigned char c[64];
        size_t na, nb;
        if (parse_joined(rc->deal, c, sizeof c, &na, &nb)) {
            check(0, "record %s parses", rc->name);
            continue;
        }
        bmn_host_result h;
        char err[256];
        int hrc = bmn_host_play(c, na, c + na, nb, NULL, &h, err, sizeof err);
        check(hrc == 0 && h.cards == (uint64_t)rc->cards && h.tricks == (uint64_t)rc->tricks &&
                  (h.outcome == BMN_A_WINS || h.outcome == BMN_B_WINS),
              "record %s, host player: %llu cards, %llu tricks, %s (published %ld, %ld)",
              rc->name, (unsigned long long)h.cards, (unsigned long long)h.tricks,
              bmn_outcome_name(h.outcome), rc->cards, rc->tricks);
        bmn_result p;
        bmn_play_capped(c, (ls_u32)na, (ls_u32)nb, BMN_CARD_CAP, &p);
        check(p.cards == (ls_u32)rc->cards && p.tricks == (ls_u32)rc->tricks &&
                  p.outcome == h.outcome,
              "record %s, bmn_play_capped: %u cards, %u tricks, %s", rc->name, p.cards,
              p.tricks, bmn_outcome_name(p.outcome));
        bmn_result s;
        step_play(c, (unsigned)na, (unsigned)nb, BMN_CARD_CAP, &s);
        check(s.cards == (ls_u32)rc->cards && s.tricks == (ls_u32)rc->tricks &&
                  s.outcome == h.outcome,
              "record %s, bmn_step loop: %u cards, %u tricks, %s", rc->name, s.cards, s.tricks,
              bmn_outcome_name(s.outcome));
        ref_result r = ref_play(c, (int)na, c + na, (int)nb, 0, 2000);
        check(r.cards == rc->cards && r.tricks == rc->tricks &&
                  (unsigned)r.outcome == h.outcome,
              "record %s, reference player: %ld cards, %ld tricks, %s", rc->name, r.cards,
              r.tricks, ref_outcome_name(r.outcome));
        /* The same deal written without '/' (52 cards, split 26/26). */
        char flat[64];
        size_t k = 0;
        for (const char *q = rc->deal; *q; q++)
            if (*q != '/')
                flat[k++] = *q;
        flat[k] = '\0';
        unsigned char c2[64];
        size_t na2, nb2;
        check(parse_joined(flat, c2, sizeof c2, &na2, &nb2) == 0 && na2 == 26 && nb2 == 26 &&
                  memcmp(c, c2, 52) == 0,
              "record %s without '/' parses as the same 26/26 deal", rc->name);
    }

    /* The card cap: exact at the game's length, capped one card below. */
    unsigned char c[64];
    size_t na, nb;
    parse_joined(records[0].deal, c, sizeof c, &na, &nb);
    bmn_result p;
    unsigned o = bmn_play_capped(c, 26, 26, 8344, &p);
    check(o == BMN_B_WINS && p.outcome == o && p.cards == 8344,
          "Nessler with cap 8344: exact (%s, %u cards)", bmn_outcome_name(o), p.cards);
    o = bmn_play_capped(c, 26, 26, 8343, &p);
    check(o == BMN_CAPPED && p.outcome == o,
          "Nessler with cap 8343: capped (stopped at %u cards, %u tricks)", p.cards, p.tricks);
    o = step_play(c, 26, 26, 8343, &p);
    check(o == BMN_CAPPED && p.outcome == o, "Nessler with cap 8343, step loop: capped");
    o = step_play(c, 26, 26, 8344, &p);
    check(o == BMN_B_WINS && p.cards == 8344, "Nessler with cap 8344, step loop: exact");
    /* bmn_run stops at a trick boundary and can be resumed. */
    bmn_game g;
    bmn_load(&g, c, 26, 26);
    int stops = 0;
    for (ls_u32 cap = 500; bmn_run(&g, cap) == BMN_RUNNING; cap += 500)
        stops++;
    check(g.outcome == BMN_B_WINS && g.cards == 8344 && g.tricks == 1164 && stops == 16,
          "Nessler run in 500-card slices (%d resumptions): %u cards, %u tricks", stops,
          g.cards, g.tricks);
    /* Mixed drivers: some steps, then run, then steps. */
    bmn_load(&g, c, 26, 26);
    for (int i = 0; i < 777; i++)
        bmn_step(&g);
    bmn_run(&g, 4000);
    while (bmn_step(&g) == BMN_RUNNING) {
    }
    check(g.outcome == BMN_B_WINS && g.cards == 8344 && g.tricks == 1164,
          "Nessler with steps, run, steps mixed: %u cards, %u tricks", g.cards, g.tricks);
}

/* Small games worked out by hand. Each comment follows the cards. */
typedef struct {
    const char *deal;
    unsigned outcome;
    long cards, tricks;
    const char *why;
} small_game;

static const small_game small_games[] = {
    /* A: J. B owes 1 and pays '-': A takes [J -]; B is empty. */
    {"J/-", BMN_A_WINS, 2, 1, "penalty paid, loser emptied by the trick"},
    /* A '-', B '-', A must play and has nothing: B takes [- -]. */
    {"-/-", BMN_B_WINS, 2, 1, "runs out in the numeral phase"},
    /* A '-', B 'J', A pays '-': B takes [- J -]; A is empty. */
    {"--/J", BMN_B_WINS, 3, 1, "second player's penalty"},
    /* A 'Q', B pays '-' then 'K'; A owes 3, pays '-', must pay again with
     * nothing: B takes [Q - K -]. */
    {"Q-/-K", BMN_B_WINS, 4, 1, "penalty during payment, payer runs out"},
    /* A 'A' (his only card), B pays four numerals: A takes all five. */
    {"A/----", BMN_A_WINS, 5, 1, "a hand of one penalty card wins"},
    /* A 'K' (last card, still in the game); B pays '-', '-', 'J'; now A
     * owes 1 with nothing: B takes [K - - J]. */
    {"K/--J-", BMN_B_WINS, 4, 1, "last card a penalty card, then cannot pay"},
    /* A 'J', B pays with 'J'; A owes 1 with nothing: B takes [J J]. */
    {"J/J", BMN_B_WINS, 2, 1, "hands of only penalty cards"},
    /* Trick 1: A 'J', B pays '-': A takes [J -], A = - J -, B = -.
     * Trick 2: A '-', B '-' (his last), A 'J'; B owes 1 with nothing: A
     * takes [- - J]. 2 + 3 cards. */
    {"J-/--", BMN_A_WINS, 5, 2, "two tricks"},
    /* A - B - A - B - A -, B must play: A takes 5. */
    {"---/--", BMN_A_WINS, 5, 1, "long numeral phase, second player out"},
    /* A - B - A -, B - ... A must play after 4 cards: B takes 4. */
    {"--/---", BMN_B_WINS, 4, 1, "long numeral phase, first player out"},
    /* A 'A'; B pays 'K' at once; A owes 3: pays 'Q' at once; B owes 2:
     * pays 'J' at once; A owes 1 with nothing: B takes [A K Q J]. */
    {"AQ/KJ", BMN_B_WINS, 4, 1, "chain of penalty cards"},
    /* A 'J', B pays '-': A takes [J -]: A = Q J -, B = -Q... worked:
     * Trick 1: A J, B '-' -> A takes 2. A = Q J -, B = Q.
     * Trick 2: A Q, B owes 2, pays Q (penalty), A owes 2: pays J
     * (penalty), B owes 1 with nothing: A takes [Q Q J], 3 cards. */
    {"JQ/-Q", BMN_A_WINS, 5, 2, "penalty cards paid back and forth"},
    /* 10 and the digits are numerals: same as "J/-". */
    {"J/10", BMN_A_WINS, 2, 1, "'10' is one numeral"},
};

static void test_small_games(void)
{
    for (size_t i = 0; i < sizeof small_games / sizeof small_games[0]; i++) {
        const small_game *sg = &small_games[i];
        unsigned char c[64];
        size_t na, nb;
        if (parse_joined(sg->deal, c, sizeof c, &na, &nb)) {
            check(0, "small game %s parses", sg->deal);
            continue;
        }
        bmn_host_result h;
        char err[256];
        int rc = bmn_host_play(c, na, c + na, nb, NULL, &h, err, sizeof err);
        bmn_result p, s;
        bmn_play_capped(c, (ls_u32)na, (ls_u32)nb, BMN_CARD_CAP, &p);
        step_play(c, (unsigned)na, (unsigned)nb, BMN_CARD_CAP, &s);
        ref_result r = ref_play(c, (int)na, c + na, (int)nb, 0, 100);
        int ok = rc == 0 && h.outcome == sg->outcome && h.cards == (uint64_t)sg->cards &&
                 h.tricks == (uint64_t)sg->tricks && p.outcome == sg->outcome &&
                 p.cards == (ls_u32)sg->cards && p.tricks == (ls_u32)sg->tricks &&
                 s.outcome == sg->outcome && s.cards == (ls_u32)sg->cards &&
                 s.tricks == (ls_u32)sg->tricks && (unsigned)r.outcome == sg->outcome &&
                 r.cards == sg->cards && r.tricks == sg->tricks;
        check(ok,
              "%-6s %s, %ld cards, %ld tricks (%s) [host %s %llu/%llu, engine %s %u/%u, "
              "step %s %u/%u, ref %s %ld/%ld]",
              sg->deal, bmn_outcome_name(sg->outcome), sg->cards, sg->tricks, sg->why,
              bmn_outcome_name(h.outcome), (unsigned long long)h.cards,
              (unsigned long long)h.tricks, bmn_outcome_name(p.outcome), p.cards, p.tricks,
              bmn_outcome_name(s.outcome), s.cards, s.tricks, ref_outcome_name(r.outcome),
              r.cards, r.tricks);
    }
}

/* Loops. The smallest, found by the brute force below, worked by hand:
 *   start            A: J - -     B: - J -     A leads
 *   trick 1: A J, B pays '-'        -> A takes [J -]     (2 cards)
 *                    A: - - J -   B: J -       A leads   <- state S
 *   trick 2: A -, B J, A pays '-'   -> B takes [- J -]   (3 cards)
 *                    A: J -       B: - - J -   B leads
 *   trick 3: B -, A J, B pays '-'   -> A takes [- J -]   (3 cards)
 *                    A: - - J -   B: J -       A leads   = S again
 * So the repeat is seen after 3 tricks and 8 cards; S was first seen after
 * 1 trick and 2 cards; the loop is 2 tricks and 6 cards long. */
static void test_loops(void)
{
    bmn_host_result h;
    char err[256];
    int rc = bmn_host_play_str("J--/-J-", NULL, &h, err, sizeof err);
    check(rc == 0 && h.outcome == BMN_LOOP && h.cards == 8 && h.tricks == 3 &&
              h.loop_start_cards == 2 && h.loop_start_tricks == 1 && h.loop_cards == 6 &&
              h.loop_tricks == 2,
          "J--/-J- loops: repeat after %llu tricks, %llu cards; first seen after %llu tricks, "
          "%llu cards; loop %llu tricks, %llu cards",
          (unsigned long long)h.tricks, (unsigned long long)h.cards,
          (unsigned long long)h.loop_start_tricks, (unsigned long long)h.loop_start_cards,
          (unsigned long long)h.loop_tricks, (unsigned long long)h.loop_cards);
    unsigned char c[6] = {1, 0, 0, 0, 1, 0};
    ref_result r = ref_play(c, 3, c + 3, 3, 0, 100);
    check(r.outcome == 5 && r.cards == 8 && r.tricks == 3 && r.loop_cards == 6 &&
              r.loop_tricks == 2,
          "J--/-J- loops in the reference player too (%ld tricks, %ld cards; loop %ld/%ld)",
          r.tricks, r.cards, r.loop_tricks, r.loop_cards);
    bmn_result p;
    unsigned po = bmn_play_capped(c, 3, 3, 1000, &p);
    check(po == BMN_CAPPED && p.cards >= 1000,
          "J--/-J- runs into the card cap in the portable engine (stopped at %u cards)",
          p.cards);
    /* Cap vs loop in the host: the loop is found before a later cap. */
    bmn_host_opts o;
    memset(&o, 0, sizeof o);
    o.max_cards = 5;
    rc = bmn_host_play_str("J--/-J-", &o, &h, err, sizeof err);
    check(rc == 0 && h.outcome == BMN_CAPPED && h.cards == 5 && h.tricks == 2,
          "host with max_cards 5 on J--/-J-: capped at %llu cards, %llu tricks",
          (unsigned long long)h.cards, (unsigned long long)h.tricks);

    /* Brute force: every pair of hands of 1..4 cards from {-, J, Q, K, A}
     * (1.2 million games up to 4+4): host and reference agree on every
     * outcome, count and loop length; the portable engine agrees on every
     * finished game and caps every loop. */
    long games = 0, loops = 0, bad = 0, first_bad = -1;
    char first_loop[32] = "";
    for (int na = 1; na <= 4; na++) {
        for (int nb = 1; nb <= 4; nb++) {
            int tot = na + nb;
            long lim = 1;
            for (int i = 0; i < tot; i++)
                lim *= 5;
            for (long x = 0; x < lim; x++) {
                unsigned char d[8];
                long y = x;
                for (int i = 0; i < tot; i++) {
                    d[i] = (unsigned char)(y % 5);
                    y /= 5;
                }
                games++;
                int hr = bmn_host_play(d, (size_t)na, d + na, (size_t)nb, NULL, &h, err,
                                       sizeof err);
                ref_result rr = ref_play(d, na, d + na, nb, 0, 1000);
                bmn_result pp;
                bmn_play_capped(d, (ls_u32)na, (ls_u32)nb, 2000, &pp);
                int ok = hr == 0 && (unsigned)rr.outcome == h.outcome &&
                         rr.cards == (long)h.cards && rr.tricks == (long)h.tricks;
                if (h.outcome == BMN_LOOP) {
                    ok = ok && rr.loop_cards == (long)h.loop_cards &&
                         rr.loop_tricks == (long)h.loop_tricks && pp.outcome == BMN_CAPPED;
                    if (!loops)
                        bmn_format_deal(d, (size_t)na, d + na, (size_t)nb, first_loop,
                                        sizeof first_loop);
                    loops++;
                } else {
                    ok = ok && pp.outcome == h.outcome && pp.cards == h.cards &&
                         pp.tricks == h.tricks;
                }
                if (!ok) {
                    if (first_bad < 0)
                        first_bad = games;
                    bad++;
                }
            }
        }
    }
    check(bad == 0 && loops > 0,
          "brute force over %ld games of hands of 1..4 cards: %ld loops (first: %s), %ld "
          "disagreements",
          games, loops, first_loop, bad);
    if (first_bad >= 0)
        printf("     first disagreement at game %ld\n", first_bad);
}

static void test_parse(void)
{
    bmn_hands h;
    char err[256];
    struct {
        const char *text;
        const char *expect; /* substring of the message */
    } bad[] = {
        {"JQKX/----", "'X' at position 4"},
        {"J-1-/--", "'1' at position 3"},
        {"J-/-/-", "second '/' at position 5"},
        {"/--", "hand A is empty"},
        {"--/", "hand B is empty"},
        {"  / ", "hand A is empty"},
        {"", "no '/' and 0 cards"},
        {"J-Q", "no '/' and 3 cards"},
        {"J-\x01/-", "0x01 at position 3"},
        {"J-0/-", "'0' at position 3"},
        {"J-T/-", "'T' at position 3"},
        {"--x/--", "'x' at position 3"},
        {"---AJ--Q---------QAKQJJ-QK-----A----KJ-K--------A--", "51 cards"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        int rc = bmn_parse_deal(bad[i].text, &h, err, sizeof err);
        check(rc == -1 && strstr(err, bad[i].expect) != NULL && h.a == NULL && h.b == NULL,
              "parse error for \"%s\": %s", i == 8 ? "J-\\x01/-" : bad[i].text, err);
    }
    check(bmn_parse_deal(NULL, &h, err, sizeof err) == -1, "parse error for NULL: %s", err);
    /* A tiny error buffer still gets a terminated prefix. */
    char small[8];
    bmn_parse_deal("JQKX/-", &h, small, sizeof small);
    check(strlen(small) == 7, "error text truncated to the caller's buffer: \"%s\"", small);

    int rc = bmn_parse_deal(" 10 2 3 J / q k a 9\n", &h, err, sizeof err);
    unsigned char ea[] = {0, 0, 0, 1}, eb[] = {2, 3, 4, 0};
    check(rc == 0 && h.na == 4 && h.nb == 4 && memcmp(h.a, ea, 4) == 0 &&
              memcmp(h.b, eb, 4) == 0,
          "\" 10 2 3 J / q k a 9\\n\" parses as -- -J / QKA-");
    char buf[64];
    size_t n = bmn_format_deal(h.a, h.na, h.b, h.nb, buf, sizeof buf);
    check(n == 9 && strcmp(buf, "---J/QKA-") == 0, "formats back as \"%s\"", buf);
    char tiny[5];
    n = bmn_format_deal(h.a, h.na, h.b, h.nb, tiny, sizeof tiny);
    check(n == 9 && strcmp(tiny, "---J") == 0, "format truncates like snprintf: \"%s\", %zu",
          tiny, n);
    n = bmn_format_hand(h.b, h.nb, buf, sizeof buf);
    check(n == 4 && strcmp(buf, "QKA-") == 0, "format_hand: \"%s\"", buf);
    bmn_hands_free(&h);
    check(h.a == NULL && h.b == NULL && h.na == 0, "bmn_hands_free clears the struct");

    /* Round trip of the records. */
    int same = 1;
    for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
        if (bmn_parse_deal(records[i].deal, &h, err, sizeof err)) {
            same = 0;
            continue;
        }
        bmn_format_deal(h.a, h.na, h.b, h.nb, buf, sizeof buf);
        same &= strcmp(buf, records[i].deal) == 0;
        bmn_hands_free(&h);
    }
    check(same, "records format back to their own text");

    /* Host errors. */
    unsigned char one = 0, badc = 7;
    bmn_host_result hr;
    check(bmn_host_play(&one, 1, &one, 0, NULL, &hr, err, sizeof err) == -1 &&
              strstr(err, "hand B is empty"),
          "host: %s", err);
    check(bmn_host_play(&one, 0, &one, 1, NULL, &hr, err, sizeof err) == -1 &&
              strstr(err, "hand A is empty"),
          "host: %s", err);
    check(bmn_host_play(&one, 1, &badc, 1, NULL, &hr, err, sizeof err) == -1 &&
              strstr(err, "code 7"),
          "host: %s", err);
    check(bmn_host_play_str("J/-Z", NULL, &hr, err, sizeof err) == -1 &&
              strstr(err, "'Z' at position 4"),
          "host_play_str: %s", err);
}

/* The deal definition of docs/bmn.md, written out again from the text. */
static void deal_by_definition(uint64_t seed, uint64_t index, unsigned char out[52])
{
    unsigned char deck[52];
    uint32_t words[52];
    for (int i = 0; i < 52; i++)
        deck[i] = i < 36 ? 0 : (unsigned char)(1 + (i - 36) / 4);
    for (uint32_t j = 0; j < 13; j++) {
        ls_philox_ctr ctr = {{(uint32_t)index, (uint32_t)(index >> 32), 0x626d6e5fu, j}};
        ls_philox_key key = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
        ctr = ls_philox4x32_10(ctr, key);
        for (int t = 0; t < 4; t++)
            words[4 * j + t] = ctr.v[t];
    }
    int next = 0;
    for (int i = 51; i >= 1; i--) {
        uint32_t k = (uint32_t)(((uint64_t)words[next++] * (uint32_t)(i + 1)) >> 32);
        unsigned char t = deck[i];
        deck[i] = deck[k];
        deck[k] = t;
    }
    memcpy(out, deck, 52);
}

static void test_deals(void)
{
    /* Golden deals: lock the definition. */
    struct {
        uint64_t seed, index;
        const char *deal;
    } golden[] = {
        {1, 0, "---------A--J-JKJ----Q---K/Q--------J-QQ---A---AKA-K-"},
        {1, 1, "AQQ----K--------J---------/JKAAK---K---A------Q-J--JQ"},
        {2, 0, "K----Q---JKJ-K------A--A--/--K--------AJ-------AQJQQ-"},
        {0x0123456789abcdefu, 0xfedcba9876543210u,
         "-Q-J-------J-----K-A-KK---/-----Q----Q--J--AQ---AJKA-"},
    };
    for (size_t i = 0; i < sizeof golden / sizeof golden[0]; i++) {
        ls_u8 c[52];
        char buf[64];
        bmn_deal(golden[i].seed, golden[i].index, c);
        bmn_format_deal(c, 26, c + 26, 26, buf, sizeof buf);
        check(strcmp(buf, golden[i].deal) == 0, "deal (seed %llu, index %llu) = %s",
              (unsigned long long)golden[i].seed, (unsigned long long)golden[i].index, buf);
    }

    long bad_mix = 0, bad_def = 0, bad_fused = 0, bad_pure = 0;
    long pos_pen[52] = {0};
    const long N = 100000;
    for (long i = 0; i < N; i++) {
        uint64_t seed = i < N / 2 ? 7 : rng_next(), index = i < N / 2 ? (uint64_t)i : rng_next();
        ls_u8 c[52], c2[52];
        unsigned char d[52];
        bmn_deal(seed, index, c);
        int count[5] = {0};
        for (int k = 0; k < 52; k++) {
            if (c[k] > 4) {
                count[0] = -1000;
                break;
            }
            count[c[k]]++;
            pos_pen[k] += c[k] != 0;
        }
        if (count[0] != 36 || count[1] != 4 || count[2] != 4 || count[3] != 4 || count[4] != 4)
            bad_mix++;
        deal_by_definition(seed, index, d);
        if (memcmp(c, d, 52) != 0)
            bad_def++;
        /* Pure function of (seed, index): recompute after other deals. */
        bmn_deal(seed ^ 1, index + 1, c2);
        bmn_deal(seed, index, c2);
        if (memcmp(c, c2, 52) != 0)
            bad_pure++;
        /* bmn_deal_game is bmn_deal + bmn_load. */
        bmn_game g1, g2;
        bmn_deal_game(seed, index, &g1);
        bmn_load(&g2, c, 26, 26);
        if (g1.px != g2.px || g1.qx != g2.qx || g1.py != g2.py || g1.qy != g2.qy ||
            g1.outcome != BMN_RUNNING || bmn_count_a(&g1) != 26 || bmn_count_b(&g1) != 26)
            bad_fused++;
    }
    check(bad_mix == 0, "%ld deals: each has 36 numerals and 4 each of J Q K A (%ld bad)", N,
          bad_mix);
    check(bad_def == 0, "bmn_deal follows the written definition (%ld differ)", bad_def);
    check(bad_pure == 0, "bmn_deal is a pure function of (seed, index) (%ld differ)", bad_pure);
    check(bad_fused == 0, "bmn_deal_game loads exactly the deal of bmn_deal (%ld differ)",
          bad_fused);
    /* Every position holds a penalty card 16/52 of the time: 100000 deals
     * give 30769 +- 146 (1 sd); allow 5 sd. */
    long lo = pos_pen[0], hi = pos_pen[0];
    for (int k = 1; k < 52; k++) {
        lo = pos_pen[k] < lo ? pos_pen[k] : lo;
        hi = pos_pen[k] > hi ? pos_pen[k] : hi;
    }
    check(lo > 30769 - 730 && hi < 30769 + 730,
          "penalty cards per position over %ld deals: %ld..%ld (expect 30769 +- 730)", N, lo,
          hi);
    ls_u8 a[52], b[52];
    bmn_deal(7, 0, a);
    bmn_deal(7, 1, b);
    int d1 = memcmp(a, b, 52) != 0;
    bmn_deal(8, 0, b);
    check(d1 && memcmp(a, b, 52) != 0, "neighbouring indices and seeds give different deals");
}

/* The engines against the reference on random standard deals, and on
 * random hands of other shapes. */
static void test_random(void)
{
    const long N = 20000;
    long bad = 0, total_cards = 0;
    long wins[3] = {0};
    for (long i = 0; i < N; i++) {
        ls_u8 c[52];
        bmn_deal(2024, (uint64_t)i, c);
        ref_result r = ref_play(c, 26, c + 26, 26, 1000000, 0);
        bmn_host_result h;
        char err[256];
        int hrc = bmn_host_play(c, 26, c + 26, 26, NULL, &h, err, sizeof err);
        bmn_result p, s, d;
        bmn_play_capped(c, 26, 26, BMN_CARD_CAP, &p);
        step_play(c, 26, 26, BMN_CARD_CAP, &s);
        bmn_play_deal(2024, (uint64_t)i, BMN_CARD_CAP, &d);
        int ok = hrc == 0 && (r.outcome == 1 || r.outcome == 2) &&
                 (unsigned)r.outcome == h.outcome && r.cards == (long)h.cards &&
                 r.tricks == (long)h.tricks;
        ok = ok && p.outcome == h.outcome && p.cards == h.cards && p.tricks == h.tricks;
        ok = ok && s.outcome == h.outcome && s.cards == h.cards && s.tricks == h.tricks;
        ok = ok && d.outcome == h.outcome && d.cards == h.cards && d.tricks == h.tricks;
        if (!ok) {
            if (bad < 3) {
                char buf[64];
                bmn_format_deal(c, 26, c + 26, 26, buf, sizeof buf);
                printf("     %s: ref %s %ld/%ld host %s %llu/%llu engine %s %u/%u step %s "
                       "%u/%u\n",
                       buf, ref_outcome_name(r.outcome), r.cards, r.tricks,
                       bmn_outcome_name(h.outcome), (unsigned long long)h.cards,
                       (unsigned long long)h.tricks, bmn_outcome_name(p.outcome), p.cards,
                       p.tricks, bmn_outcome_name(s.outcome), s.cards, s.tricks);
            }
            bad++;
        }
        total_cards += r.cards;
        wins[r.outcome == 1 ? 1 : 2]++;
    }
    check(bad == 0,
          "%ld random deals: reference, host, bmn_play_capped, bmn_step and bmn_play_deal "
          "agree on cards, tricks and winner (%ld disagree; %.1f cards/game, A wins %ld)",
          N, bad, (double)total_cards / (double)N, wins[1]);

    /* Random hands: 1..63 cards each, at most 64 in all (the engine's
     * limit), penalty density and mix varying from game to game. */
    long bad2 = 0, loops = 0, engine_games = 0, host_only = 0;
    for (long i = 0; i < N; i++) {
        int na = 1 + (int)(rng_next() % 40), nb = 1 + (int)(rng_next() % 40);
        if (na + nb > 64)
            nb = 64 - na;
        unsigned pen_per_256 = (unsigned)(rng_next() % 257);
        unsigned char c[64];
        int npen = 0;
        for (int k = 0; k < na + nb; k++) {
            uint64_t x = rng_next();
            c[k] = (x & 255) < pen_per_256 ? (unsigned char)(1 + ((x >> 8) & 3)) : 0;
            npen += c[k] != 0;
        }
        ref_result r = ref_play(c, na, c + na, nb, 0, 4000);
        bmn_host_result h;
        char err[256];
        int hrc = bmn_host_play(c, (size_t)na, c + na, (size_t)nb, NULL, &h, err, sizeof err);
        int ok = hrc == 0 && (unsigned)r.outcome == h.outcome && r.cards == (long)h.cards &&
                 r.tricks == (long)h.tricks;
        if (h.outcome == BMN_LOOP) {
            loops++;
            ok = ok && r.loop_cards == (long)h.loop_cards && r.loop_tricks == (long)h.loop_tricks;
        }
        bmn_result p, s;
        unsigned po = bmn_play_capped(c, (ls_u32)na, (ls_u32)nb, 200000, &p);
        step_play(c, (unsigned)na, (unsigned)nb, 200000, &s);
        if (npen > 32) {
            host_only++;
            ok = ok && po == BMN_INVALID && s.outcome == BMN_INVALID;
        } else {
            engine_games++;
            if (h.outcome == BMN_LOOP)
                ok = ok && po == BMN_CAPPED && s.outcome == BMN_CAPPED;
            else
                ok = ok && p.outcome == h.outcome && p.cards == h.cards &&
                     p.tricks == h.tricks && s.outcome == h.outcome && s.cards == h.cards &&
                     s.tricks == h.tricks;
        }
        if (!ok) {
            if (bad2 < 3) {
                char buf[160];
                bmn_format_deal(c, (size_t)na, c + na, (size_t)nb, buf, sizeof buf);
                printf("     %s: ref %s %ld/%ld host %s %llu/%llu engine %s %u/%u\n", buf,
                       ref_outcome_name(r.outcome), r.cards, r.tricks,
                       bmn_outcome_name(h.outcome), (unsigned long long)h.cards,
                       (unsigned long long)h.tricks, bmn_outcome_name(p.outcome), p.cards,
                       p.tricks);
            }
            bad2++;
        }
    }
    check(bad2 == 0,
          "%ld random hands of 1..63 cards (any mix): reference and host agree, loops "
          "included (%ld loops); the engine agrees on the %ld within its limits and refuses "
          "the %ld with > 32 penalty cards (%ld disagree)",
          N, loops, engine_games, host_only, bad2);

    /* Long hands, host and reference only. */
    long bad3 = 0, loops3 = 0;
    for (long i = 0; i < 300; i++) {
        int na = 1 + (int)(rng_next() % 120), nb = 1 + (int)(rng_next() % 120);
        unsigned char c[REF_MAX];
        unsigned pen = 40 + (unsigned)(rng_next() % 60);
        for (int k = 0; k < na + nb; k++) {
            uint64_t x = rng_next();
            c[k] = (x & 255) < pen ? (unsigned char)(1 + ((x >> 8) & 3)) : 0;
        }
        ref_result r = ref_play(c, na, c + na, nb, 0, 20000);
        bmn_host_result h;
        char err[256];
        int hrc = bmn_host_play(c, (size_t)na, c + na, (size_t)nb, NULL, &h, err, sizeof err);
        loops3 += h.outcome == BMN_LOOP;
        if (hrc != 0 || (unsigned)r.outcome != h.outcome || r.cards != (long)h.cards ||
            r.tricks != (long)h.tricks ||
            (h.outcome == BMN_LOOP && (r.loop_cards != (long)h.loop_cards ||
                                       r.loop_tricks != (long)h.loop_tricks)))
            bad3++;
    }
    check(bad3 == 0, "300 random games with hands of up to 120 cards: host = reference (%ld loops, %ld disagree)",
          loops3, bad3);
}

static void test_engine_limits(void)
{
    bmn_game g;
    ls_u8 c[80];
    memset(c, 0, sizeof c);
    check(bmn_load(&g, c, 0, 5) == BMN_INVALID && g.outcome == BMN_INVALID,
          "bmn_load: empty hand A is invalid");
    check(bmn_load(&g, c, 5, 0) == BMN_INVALID, "bmn_load: empty hand B is invalid");
    check(bmn_load(&g, c, 40, 25) == BMN_INVALID, "bmn_load: 65 cards are invalid");
    check(bmn_load(&g, c, 63, 1) == BMN_RUNNING, "bmn_load: 63 + 1 cards are fine");
    c[3] = 5;
    check(bmn_load(&g, c, 10, 10) == BMN_INVALID, "bmn_load: code 5 is invalid");
    c[3] = 9;
    check(bmn_load(&g, c, 10, 10) == BMN_INVALID, "bmn_load: code 9 is invalid");
    c[3] = 0;
    for (int k = 0; k < 33; k++)
        c[k + 10] = (ls_u8)(1 + k % 4);
    check(bmn_load(&g, c, 40, 24) == BMN_INVALID, "bmn_load: 33 penalty cards are invalid");
    c[10] = 0;
    check(bmn_load(&g, c, 40, 24) == BMN_RUNNING, "bmn_load: 32 penalty cards are fine");
    bmn_result p;
    unsigned po = bmn_play_capped(c, 0, 3, 100, &p);
    check(po == BMN_INVALID && p.outcome == BMN_INVALID, "bmn_play_capped reports BMN_INVALID");

    /* Full 64-card games at the limits, against the host. */
    long bad = 0;
    for (int i = 0; i < 3000; i++) {
        int na = 1 + (int)(rng_next() % 63), nb = 64 - na;
        ls_u8 d[64];
        for (int k = 0; k < 64; k++)
            d[k] = 0;
        int npen = (int)(rng_next() % 33);
        for (int k = 0; k < npen; k++)
            d[rng_next() % 64] = (ls_u8)(1 + rng_next() % 4);
        bmn_host_result h;
        char err[256];
        bmn_host_play(d, (size_t)na, d + na, (size_t)nb, NULL, &h, err, sizeof err);
        bmn_result e, s;
        bmn_play_capped(d, (ls_u32)na, (ls_u32)nb, 300000, &e);
        step_play(d, (unsigned)na, (unsigned)nb, 300000, &s);
        if (h.outcome == BMN_LOOP) {
            bad += e.outcome != BMN_CAPPED || s.outcome != BMN_CAPPED;
        } else {
            bad += e.outcome != h.outcome || e.cards != h.cards || e.tricks != h.tricks;
            bad += s.outcome != h.outcome || s.cards != h.cards || s.tricks != h.tricks;
        }
    }
    check(bad == 0, "3000 games of exactly 64 cards (0..32 penalty cards): engine = host (%ld bad)",
          bad);
}

typedef struct {
    long tricks, cards_sum, finals, bad;
    uint64_t last_cards;
    size_t total;
} trace_tally;

static void tally(void *user, const bmn_trick *t)
{
    trace_tally *tt = user;
    tt->tricks++;
    tt->cards_sum += (long)t->pile_len;
    tt->finals += t->final;
    if (t->number != (uint64_t)tt->tricks || t->na + t->nb != tt->total ||
        (t->winner ? t->nb : t->na) < t->pile_len || t->cards < tt->last_cards)
        tt->bad++;
    tt->last_cards = t->cards;
}

static void test_trace(void)
{
    trace_tally tt;
    memset(&tt, 0, sizeof tt);
    tt.total = 52;
    bmn_host_opts o;
    memset(&o, 0, sizeof o);
    o.trace = tally;
    o.trace_user = &tt;
    FILE *f = tmpfile();
    o.trace_file = f;
    bmn_host_result h;
    char err[256];
    int rc = bmn_host_play_str(records[4].deal, &o, &h, err, sizeof err);
    check(rc == 0 && tt.tricks == 805 && tt.cards_sum == 5790 && tt.finals == 1 && tt.bad == 0,
          "trace of Kleber 1999: %ld tricks, pile sizes sum to %ld cards, %ld final, %ld "
          "inconsistent",
          tt.tricks, tt.cards_sum, tt.finals, tt.bad);
    if (f) {
        rewind(f);
        long lines = 0;
        int ch, last = '\n';
        char first[160] = "";
        size_t k = 0;
        while ((ch = fgetc(f)) != EOF) {
            if (lines == 0 && ch != '\n' && k + 1 < sizeof first)
                first[k++] = (char)ch;
            lines += ch == '\n';
            last = ch;
        }
        first[k] = '\0';
        fclose(f);
        check(lines == 805 && last == '\n', "trace file has one line per trick (%ld); first: %s",
              lines, first);
    } else {
        check(0, "tmpfile() for the trace");
    }
    /* Two-card hands traced by hand: J-/-- (see small games). */
    memset(&tt, 0, sizeof tt);
    tt.total = 4;
    o.trace_file = NULL;
    rc = bmn_host_play_str("J-/--", &o, &h, err, sizeof err);
    check(rc == 0 && tt.tricks == 2 && tt.cards_sum == 5 && tt.finals == 1 && tt.bad == 0,
          "trace of J-/--: %ld tricks, %ld cards", tt.tricks, tt.cards_sum);
}

int main(void)
{
    printf("-- published records\n");
    test_records();
    printf("-- small games worked by hand\n");
    test_small_games();
    printf("-- loops\n");
    test_loops();
    printf("-- deal strings and errors\n");
    test_parse();
    printf("-- deals\n");
    test_deals();
    printf("-- engine limits\n");
    test_engine_limits();
    printf("-- random games against the reference player\n");
    test_random();
    printf("-- trace\n");
    test_trace();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
