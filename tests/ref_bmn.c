/* ref_bmn.c - an independent, deliberately plain Beggar My Neighbour.
 *
 * It shares no code with lockstep's game: hands are arrays used as queues,
 * one card per step, the rules of docs/bmn.md written out as they read;
 * deals come from Random123's own philox4x32 and a textbook Fisher-Yates
 * shuffle. It first proves itself on the published records, then checks
 * the golden search digest the conformance suite compiles in
 * (src/workloads/bmn/bmn_golden.h); --print writes that digest instead. */
#include <Random123/philox.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmn_golden.h"

enum { MAXQ = 4096 };

typedef struct {
    unsigned char c[MAXQ];
    int head, n;
} queue;

static void push(queue *q, unsigned char v)
{
    q->c[(q->head + q->n++) % MAXQ] = v;
}

static unsigned char pop(queue *q)
{
    unsigned char v = q->c[q->head];
    q->head = (q->head + 1) % MAXQ;
    q->n--;
    return v;
}

/* Plays to the end; returns the winner (0 = A, 1 = B), or -1 past 1e6
 * cards (no golden case gets there). */
static int play(const unsigned char *a, int na, const unsigned char *b, int nb, long *cards, long *tricks)
{
    static queue hand[2], pile;
    memset(hand, 0, sizeof hand);
    memset(&pile, 0, sizeof pile);
    for (int i = 0; i < na; i++)
        push(&hand[0], a[i]);
    for (int i = 0; i < nb; i++)
        push(&hand[1], b[i]);
    *cards = *tricks = 0;
    int leader = 0;
    while (*cards < 1000000) {
        int cur = leader, owed = 0, last_penalty = -1;
        for (;;) {
            if (hand[cur].n == 0) { /* must play, cannot: loses */
                int w = 1 - cur;
                while (pile.n)
                    push(&hand[w], pop(&pile));
                ++*tricks;
                return w;
            }
            unsigned char card = pop(&hand[cur]);
            push(&pile, card);
            ++*cards;
            if (card) { /* penalty: the other one pays */
                owed = card;
                last_penalty = cur;
                cur = 1 - cur;
            } else if (owed) { /* a numeral paid */
                if (--owed == 0) {
                    int w = last_penalty;
                    while (pile.n)
                        push(&hand[w], pop(&pile));
                    ++*tricks;
                    if (hand[1 - w].n == 0)
                        return w; /* the loser paid with his last card */
                    leader = w;
                    break;
                }
            } else {
                cur = 1 - cur;
            }
        }
    }
    return -1;
}

static int parse(const char *s, unsigned char *out)
{
    int n = 0;
    for (; *s && *s != '/'; s++)
        out[n++] = *s == 'J' ? 1 : *s == 'Q' ? 2 : *s == 'K' ? 3 : *s == 'A' ? 4 : 0;
    return n;
}

static void deal(uint64_t seed, uint64_t index, unsigned char cards[52])
{
    uint32_t w[52];
    for (uint32_t blk = 0; blk < 13; blk++) {
        philox4x32_ctr_t c = {{(uint32_t)index, (uint32_t)(index >> 32), 0x626d6e5fu, blk}};
        philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
        philox4x32_ctr_t r = philox4x32_R(10, c, k);
        for (int t = 0; t < 4; t++)
            w[4 * blk + t] = r.v[t];
    }
    unsigned char deck[52];
    for (int i = 0; i < 52; i++)
        deck[i] = i < 36 ? 0 : (unsigned char)(1 + (i - 36) / 4); /* 36 numerals, then 4 J, 4 Q, 4 K, 4 A */
    for (int i = 51; i > 0; i--) {
        int k = (int)(((uint64_t)w[51 - i] * (uint64_t)(i + 1)) >> 32);
        unsigned char t = deck[i];
        deck[i] = deck[k];
        deck[k] = t;
    }
    memcpy(cards, deck, 52);
}

typedef struct {
    uint64_t deal;
    uint32_t cards, tricks;
} hit;

/* Keeps list sorted by key (desc), then deal (asc), at most k long. */
static void keep(hit *list, int *n, int k, hit h, int by_tricks)
{
    uint32_t key = by_tricks ? h.tricks : h.cards;
    int pos = *n;
    while (pos > 0) {
        uint32_t other = by_tricks ? list[pos - 1].tricks : list[pos - 1].cards;
        if (other > key || (other == key && list[pos - 1].deal < h.deal))
            break;
        pos--;
    }
    if (pos >= k)
        return;
    int last = *n < k ? (*n)++ : k - 1;
    memmove(&list[pos + 1], &list[pos], (size_t)(last - pos) * sizeof *list);
    list[pos] = h;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

int main(int argc, char **argv)
{
    int print = argc > 1 && strcmp(argv[1], "--print") == 0, failed = 0, checks = 0;
    /* the records and hand-built games, from their published / hand-derived answers */
    const bmn_golden_game *sets[2] = {bmn_golden_records, bmn_golden_small};
    int sizes[2] = {BMN_GOLDEN_RECORDS, BMN_GOLDEN_SMALL};
    for (int s = 0; s < 2 && !print; s++)
        for (int i = 0; i < sizes[s]; i++) {
            const bmn_golden_game *g = &sets[s][i];
            if (g->loop)
                continue; /* this reference has no loop detection */
            unsigned char a[64], b[64];
            int na = parse(g->hands, a), nb = parse(strchr(g->hands, '/') + 1, b);
            long cards, tricks;
            play(a, na, b, nb, &cards, &tricks);
            int ok = cards == (long)g->cards && tricks == (long)g->tricks;
            printf("%s %s: %ld cards, %ld tricks\n", ok ? "ok  " : "FAIL", g->name, cards, tricks);
            failed += !ok;
            checks++;
        }
    /* the fixed-seed search */
    static uint64_t hist[1001];
    hit top_cards[1000], top_tricks[1000];
    int nc = 0, nt = 0, k = BMN_GOLDEN_SEARCH_TOP;
    for (uint64_t d = 0; d < BMN_GOLDEN_SEARCH_DEALS; d++) {
        unsigned char c[52];
        long cards, tricks;
        deal(BMN_GOLDEN_SEARCH_SEED, d, c);
        if (play(c, 26, c + 26, 26, &cards, &tricks) < 0) {
            printf("FAIL deal %" PRIu64 " did not end within 1e6 cards\n", d);
            return 1;
        }
        hist[cards / 10 < 1000 ? cards / 10 : 1000]++;
        hit h = {d, (uint32_t)cards, (uint32_t)tricks};
        keep(top_cards, &nc, k, h, 0);
        keep(top_tricks, &nt, k, h, 1);
    }
    uint64_t digest = fnv(0xcbf29ce484222325ull, hist, sizeof hist);
    for (int i = 0; i < nc; i++)
        digest = fnv(digest, &top_cards[i], sizeof top_cards[i]);
    for (int i = 0; i < nt; i++)
        digest = fnv(digest, &top_tricks[i], sizeof top_tricks[i]);
    if (print) {
        printf("#define BMN_GOLDEN_SEARCH_DIGEST 0x%016" PRIx64 "ull\n#define BMN_GOLDEN_SEARCH_LONGEST %uu\n", digest,
               top_cards[0].cards);
        return 0;
    }
    int ok = digest == BMN_GOLDEN_SEARCH_DIGEST && top_cards[0].cards == BMN_GOLDEN_SEARCH_LONGEST;
    printf("%s search of %d deals, seed %d: digest %016" PRIx64 ", longest %u cards\n", ok ? "ok  " : "FAIL",
           (int)BMN_GOLDEN_SEARCH_DEALS, (int)BMN_GOLDEN_SEARCH_SEED, digest, top_cards[0].cards);
    failed += !ok;
    checks++;
    printf("%d passed, %d failed\n", checks - failed, failed);
    return failed ? 1 : 0;
}
