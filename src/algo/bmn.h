/* bmn.h - Beggar My Neighbour, written once for every backend.
 *
 * Cards are small integers: 0 is a numeral, 1..4 are the penalty cards
 * J, Q, K, A, and the code of a penalty card is the number of cards it
 * demands. A standard deal is 52 cards: 36 numerals and 4 of each penalty
 * card; cards[0..25] are hand A from top to bottom and cards[26..51] hand B.
 * docs/bmn.md states the rules as implemented, the exact definition of deal
 * i (bmn_deal), the state machine and the card cap.
 *
 * The engine here holds at most BMN_MAX_CARDS = 64 cards in total, of which
 * at most BMN_MAX_PENALTY = 32 penalty cards, both hands non-empty at the
 * start. Longer hands, any other mix, and loop detection are the host
 * player's job (src/workloads/bmn/bmn_host.c); a loop simply runs into the card cap here.
 *
 * Representation: a hand is two 64-bit words.
 *   p: bit i is set when card i (0 = top) is a penalty card, and one more
 *      bit, the sentinel, sits just below the bottom card, at bit n for a
 *      hand of n cards. So p is never 0, n = 63 - clz(p), and ctz(p) is the
 *      offset of the first penalty card, or n when the hand has none: the
 *      number of numerals the hand can play before something happens.
 *   q: the values (code - 1, 2 bits each) of the hand's penalty cards in
 *      order, the top one in bits 0-1.
 * Playing k numerals and then a penalty card is p >>= k + 1, q >>= 2. The
 * pile is kept the same way (without sentinel) and collecting it is a
 * shift-or at the bottom of the collector's hand. Since every card a trick
 * puts on the pile before its first penalty card is a numeral, and every
 * payment is numerals up to the next penalty card, the whole game runs in
 * "events" (one penalty card played, or one trick won) of constant work,
 * not in single cards.
 *
 * Two drivers share one state (bmn_game):
 *   bmn_step   one event, branch-light, for lockstep lanes (GPU, SIMD):
 *              a kernel loops `bmn_step` over many lanes and reloads a
 *              finished lane with bmn_load / bmn_deal_game inside the loop.
 *   bmn_run    a whole game (or until a card cap) as a small goto state
 *              machine, the fastest form for one game on a CPU core.
 * bmn_play_capped / bmn_play_deal wrap bmn_run. */
#ifndef LOCKSTEP_ALGO_BMN_H
#define LOCKSTEP_ALGO_BMN_H

#include "philox.h"

/* Card codes. */
#define BMN_NUMERAL 0u
#define BMN_JACK 1u
#define BMN_QUEEN 2u
#define BMN_KING 3u
#define BMN_ACE 4u

#define BMN_DECK_CARDS 52u /* a standard deal */
#define BMN_HAND_CARDS 26u
#define BMN_MAX_CARDS 64u   /* most cards the portable engine holds */
#define BMN_MAX_PENALTY 32u /* most penalty cards it holds */

/* Default card cap, in cards played: far above the longest known finite
 * game of a standard deal (8344 cards). A game that has not ended within
 * the cap is reported as BMN_CAPPED and belongs to the exact host player
 * (bmn_host_play). */
#define BMN_CARD_CAP 100000u

/* Philox counter word 2 of the deal streams: "bmn_". */
#define BMN_DEAL_TAG 0x626d6e5fu

/* Outcomes (bmn_game.outcome, bmn_result.outcome; the host uses the same). */
#define BMN_RUNNING 0u
#define BMN_A_WINS 1u
#define BMN_B_WINS 2u
#define BMN_CAPPED 3u  /* not over within the cap */
#define BMN_INVALID 4u /* hands outside the limits above */
#define BMN_LOOP 5u    /* host player only: a trick-boundary state repeated */

/* Bit helpers; the argument must not be 0 (the sentinel sees to that). */
#if defined(__OPENCL_C_VERSION__) && defined(LS_PTX)
/* NVIDIA's OpenCL compiler takes PTX: what CUDA's spellings below compile
 * to. OpenCL C 1.2 has no ctz, and the portable x & -x costs 64-bit
 * negates and ANDs; and OpenCL defines x << n as x << (n % 64), so each
 * shift by a count the compiler cannot bound costs an AND, where PTX's
 * shifts need none. bmn_step's counts are below 64 (as C needs them). */
LS_FN ls_u64 bmn_brev64(ls_u64 x)
{
    ls_u64 r;
    LS_ASM("brev.b64 %0, %1;" : "=l"(r) : "l"(x));
    return r;
}
LS_FN ls_u64 bmn_shl64(ls_u64 x, ls_u32 n)
{
    ls_u64 r;
    LS_ASM("shl.b64 %0, %1, %2;" : "=l"(r) : "l"(x), "r"(n));
    return r;
}
LS_FN ls_u64 bmn_shr64(ls_u64 x, ls_u32 n)
{
    ls_u64 r;
    LS_ASM("shr.u64 %0, %1, %2;" : "=l"(r) : "l"(x), "r"(n));
    return r;
}
#define BMN_SHL64(x, n) bmn_shl64((ls_u64)(x), (ls_u32)(n))
#define BMN_SHR64(x, n) bmn_shr64((ls_u64)(x), (ls_u32)(n))
#define BMN_CTZ64(x) ((ls_u32)clz(bmn_brev64((ls_u64)(x))))
#define BMN_CLZ64(x) ((ls_u32)clz((ls_u64)(x)))
#define BMN_POPC64(x) ((ls_u32)popcount((ls_u64)(x)))
#elif defined(__OPENCL_C_VERSION__)
#define BMN_CTZ64(x) ((ls_u32)(63u - clz((ls_u64)(x) & ((ls_u64)0 - (ls_u64)(x)))))
#define BMN_CLZ64(x) ((ls_u32)clz((ls_u64)(x)))
#define BMN_POPC64(x) ((ls_u32)popcount((ls_u64)(x)))
#elif defined(__CUDA_ARCH__)
/* clz of the bit-reversed word: 1% faster than __ffsll - 1 on the H200. */
#define BMN_CTZ64(x) ((ls_u32)__clzll((long long)__brevll((unsigned long long)(x))))
#define BMN_CLZ64(x) ((ls_u32)__clzll((long long)(x)))
#define BMN_POPC64(x) ((ls_u32)__popcll((unsigned long long)(x)))
#else
#define BMN_CTZ64(x) ((ls_u32)__builtin_ctzll((unsigned long long)(x)))
#define BMN_CLZ64(x) ((ls_u32)__builtin_clzll((unsigned long long)(x)))
#define BMN_POPC64(x) ((ls_u32)__builtin_popcountll((unsigned long long)(x)))
#endif
#ifndef BMN_SHL64
/* Shifts of a 64-bit word by a count below 64. */
#define BMN_SHL64(x, n) ((ls_u64)(x) << (n))
#define BMN_SHR64(x, n) ((ls_u64)(x) >> (n))
#endif

typedef struct {
    ls_u32 cards;   /* cards played */
    ls_u32 tricks;  /* piles collected, the final one included */
    ls_u32 outcome; /* BMN_A_WINS, BMN_B_WINS, BMN_CAPPED or BMN_INVALID */
} bmn_result;

/* The state of one game, between events. X is the player to act next, Y
 * the other one. owed == 0: X leads the next trick (the pile is empty);
 * owed == 1..4: Y has just laid a penalty card and X must pay that many. */
typedef struct {
    ls_u64 px, qx;   /* hand X: penalty mask with sentinel, values */
    ls_u64 py, qy;   /* hand Y */
    ls_u64 pp, pq;   /* pile: penalty mask (no sentinel), values */
    ls_u32 plen;     /* cards on the pile */
    ls_u32 pk2;      /* 2 * penalty cards on the pile */
    ls_u32 owed;     /* see above */
    ls_u32 xb;       /* 1 when X is player B */
    ls_u32 cards;    /* cards played so far, pile included */
    ls_u32 tricks;   /* piles collected so far */
    ls_u32 outcome;  /* BMN_RUNNING until the game ends */
} bmn_game;

/* A fresh game from the hands' bits (A leads, nothing played yet). */
LS_FN void bmn_start(bmn_game *g, ls_u64 pa, ls_u64 qa, ls_u64 pb, ls_u64 qb)
{
    g->px = pa;
    g->qx = qa;
    g->py = pb;
    g->qy = qb;
    g->pp = 0;
    g->pq = 0;
    g->plen = 0;
    g->pk2 = 0;
    g->owed = 0;
    g->xb = 0;
    g->cards = 0;
    g->tricks = 0;
    g->outcome = BMN_RUNNING;
}

/* ---- deals ------------------------------------------------------------ */

/* Where bmn_deal_game_in keeps the deck while it shuffles: private memory
 * by default; a GPU kernel may define BMN_DECK_MEM as __local (OpenCL)
 * before including this file and pass a slice of shared memory, so that
 * the shuffle's random accesses stay out of slow local memory. */
#ifndef BMN_DECK_MEM
#define BMN_DECK_MEM
#define BMN_DECK_PRIVATE 1
#endif

/* One Fisher-Yates step of the deal (see bmn_deal_game_in): position i
 * (51 down to 1) swaps with k = mulhi32(w, i + 1), and the card that ends
 * at i goes below the hand being built (p, q as in bmn_game). Deck cards
 * are "codes": 0 for a numeral, 4 | (value - 1) for a penalty card. */
LS_FN void bmn_shuffle_step(BMN_DECK_MEM ls_u8 *deck, ls_u32 stride, ls_u32 i, ls_u32 w, ls_u64 *p, ls_u64 *q)
{
    ls_u32 k = LS_MULHI32(w, i + 1u);
    ls_u32 c = deck[k * stride];
    deck[k * stride] = deck[i * stride];
    *p = (*p << 1) | (c >> 2);
    *q = (*q << ((c >> 1) & 2u)) | (c & 3u);
}

/* Deal `deal_index` under `seed` into a fresh game (A leads). The deal:
 * the deck 0..51 holds 36 numerals, then 4 J, 4 Q, 4 K, 4 A; for
 * i = 51 down to 1, k = mulhi32(w[51 - i], i + 1) and cards i and k swap,
 * where word 4b + t is word t of Philox4x32-10(counter {index lo,
 * index hi, BMN_DEAL_TAG, b}, key seed). Positions 0..25 are then hand A
 * top to bottom, 26..51 hand B. `deck` is scratch for 52 entries, entry j
 * at deck[j * stride]. The words are drawn four at a time as the shuffle
 * needs them, and each position is final once its step is done, so the
 * hands' bits are built bottom-up as the shuffle goes. */
LS_FN ls_philox_ctr bmn_deal_block(ls_u64 seed, ls_u64 deal_index, ls_u32 b)
{
    ls_philox_ctr ctr;
    ls_philox_key key;
    ctr.v[0] = (ls_u32)deal_index;
    ctr.v[1] = (ls_u32)(deal_index >> 32);
    ctr.v[2] = BMN_DEAL_TAG;
    ctr.v[3] = b;
    key.v[0] = (ls_u32)seed;
    key.v[1] = (ls_u32)(seed >> 32);
    return ls_philox4x32_10(ctr, key);
}

LS_FN void bmn_deal_game_in(ls_u64 seed, ls_u64 deal_index, bmn_game *g, BMN_DECK_MEM ls_u8 *deck, ls_u32 stride)
{
    /* CPUs (OpenMP's C, and OpenCL's CPU kernel shape, src/shape.h)
     * compute the 13 Philox blocks first (independent work the core
     * overlaps, or the compiler vectorizes); GPUs draw each block when the
     * shuffle needs it, which keeps 52 words out of registers and local
     * memory. Same words, same deal. */
#if (defined(__OPENCL_C_VERSION__) && LS_SHAPE != LS_SHAPE_CPU) || defined(__CUDA_ARCH__)
#define BMN_BLOCK(b) bmn_deal_block(seed, deal_index, b)
#else
    ls_philox_ctr blocks[13];
    for (ls_u32 b = 0; b < 13u; b++)
        blocks[b] = bmn_deal_block(seed, deal_index, b);
#define BMN_BLOCK(b) blocks[b]
#endif
    for (ls_u32 j = 0; j < BMN_DECK_CARDS; j++)
        deck[j * stride] = (ls_u8)(j < 36u ? 0u : 4u | ((j - 36u) >> 2));
    ls_u64 p = 1u, q = 0, pb = 1u, qb = 0; /* the sentinel, then cards from the bottom up */
    for (ls_u32 b = 0; b < 13u; b++) {
        ls_philox_ctr ctr = BMN_BLOCK(b);
        ls_u32 i = 51u - 4u * b; /* the four steps of this block: i, i-1, i-2, i-3 */
        bmn_shuffle_step(deck, stride, i, ctr.v[0], &p, &q);
        if (i == 27u) { /* block 6 ends hand B after its second step */
            bmn_shuffle_step(deck, stride, 26u, ctr.v[1], &p, &q);
            pb = p; /* hand B is complete */
            qb = q;
            p = 1u;
            q = 0;
            bmn_shuffle_step(deck, stride, 25u, ctr.v[2], &p, &q);
            bmn_shuffle_step(deck, stride, 24u, ctr.v[3], &p, &q);
            continue;
        }
        bmn_shuffle_step(deck, stride, i - 1u, ctr.v[1], &p, &q);
        bmn_shuffle_step(deck, stride, i - 2u, ctr.v[2], &p, &q);
        if (i > 3u) /* the last block has three steps: i = 3, 2, 1 */
            bmn_shuffle_step(deck, stride, i - 3u, ctr.v[3], &p, &q);
    }
#undef BMN_BLOCK
    {
        ls_u32 c = deck[0];
        p = (p << 1) | (c >> 2);
        q = (q << ((c >> 1) & 2u)) | (c & 3u);
    }
    bmn_start(g, p, q, pb, qb);
}

/* Cards of a hand given as (p, q) with its sentinel, top first; returns
 * how many. */
LS_FN ls_u32 bmn_hand_cards(ls_u64 p, ls_u64 q, ls_u8 *cards)
{
    ls_u32 n = 63u - BMN_CLZ64(p);
    for (ls_u32 j = 0; j < n; j++) {
        ls_u32 pen = (ls_u32)(p >> j) & 1u;
        cards[j] = (ls_u8)(pen ? (q & 3u) + 1u : 0u);
        q >>= 2u * pen;
    }
    return n;
}

#ifdef BMN_DECK_PRIVATE
/* bmn_deal_game_in with a private deck. */
LS_FN void bmn_deal_game(ls_u64 seed, ls_u64 deal_index, bmn_game *g)
{
    ls_u8 deck[BMN_DECK_CARDS];
    bmn_deal_game_in(seed, deal_index, g, deck, 1u);
}

/* Deal `deal_index` under `seed` as cards: cards[0..25] is hand A top to
 * bottom, cards[26..51] hand B (the deal of bmn_deal_game). */
LS_FN void bmn_deal(ls_u64 seed, ls_u64 deal_index, ls_u8 cards[BMN_DECK_CARDS])
{
    bmn_game g;
    bmn_deal_game(seed, deal_index, &g);
    bmn_hand_cards(g.px, g.qx, cards);
    bmn_hand_cards(g.py, g.qy, cards + BMN_HAND_CARDS);
}
#endif

/* ---- loading ---------------------------------------------------------- */

LS_FN ls_u64 bmn_load8(const ls_u8 *c)
{
    ls_u64 x = 0;
    for (ls_u32 j = 0; j < 8u; j++)
        x |= (ls_u64)c[j] << (8u * j);
    return x;
}

/* One hand of n (1..63) card codes into (p, q). Returns the number of
 * penalty cards, or 255 when a code is above 4. */
LS_FN ls_u32 bmn_hand_bits(const ls_u8 *c, ls_u32 n, ls_u64 *p_out, ls_u64 *q_out)
{
    ls_u64 p = 0, q = 0, bad = 0;
    ls_u32 i = 0;
    for (; i + 8u <= n; i += 8u) {
        ls_u64 x = bmn_load8(c + i);
        ls_u64 nz = (x | (x >> 1) | (x >> 2)) & 0x0101010101010101;
        p |= ((nz * 0x0102040810204080) >> 56) << i;
        bad |= x & 0xF8F8F8F8F8F8F8F8;
        bad |= ((x & 0x0404040404040404) >> 2) & (x | (x >> 1)); /* 5..7 */
    }
    for (; i < n; i++) {
        ls_u32 v = c[i];
        p |= (ls_u64)(v != 0u) << i;
        bad |= v > 4u;
    }
    ls_u64 m = p;
    ls_u32 k = 0;
    while (m) {
        ls_u32 j = BMN_CTZ64(m);
        m &= m - 1u;
        /* (a 33rd penalty card is counted but not stored) */
        q |= ((ls_u64)((c[j] - 1u) & 3u) << (k & 63u)) & ((ls_u64)0 - (ls_u64)(k < 64u));
        k += 2u;
    }
    *p_out = p | ((ls_u64)1 << n);
    *q_out = q;
    return bad ? 255u : k >> 1;
}

/* Start a game: hand A = cards[0..na-1], hand B = cards[na..na+nb-1], top
 * card first, A leads. Returns BMN_RUNNING, or BMN_INVALID (and an ended
 * game) when a hand is empty, there are more than 64 cards or more than 32
 * penalty cards, or a code is above 4. */
LS_FN ls_u32 bmn_load(bmn_game *g, const ls_u8 *cards, ls_u32 na, ls_u32 nb)
{
    bmn_start(g, 1u, 0, 1u, 0);
    g->outcome = BMN_INVALID;
    if (na == 0u || nb == 0u || na + nb > BMN_MAX_CARDS)
        return BMN_INVALID;
    ls_u32 ka = bmn_hand_bits(cards, na, &g->px, &g->qx);
    ls_u32 kb = bmn_hand_bits(cards + na, nb, &g->py, &g->qy);
    if (ka + kb > BMN_MAX_PENALTY)
        return BMN_INVALID;
    g->outcome = BMN_RUNNING;
    return BMN_RUNNING;
}

/* Cards in hand A / hand B of a running game (not meaningful once over). */
LS_FN ls_u32 bmn_count_a(const bmn_game *g)
{
    return 63u - BMN_CLZ64(g->xb ? g->py : g->px);
}
LS_FN ls_u32 bmn_count_b(const bmn_game *g)
{
    return 63u - BMN_CLZ64(g->xb ? g->px : g->py);
}

/* ---- one event (lockstep driver) -------------------------------------- */

/* Plays one event: the numerals before the next penalty card plus that
 * card, or the payment that wins a trick (and the collection), or the
 * end of the game. Constant work, at most 64 cards. Branch-light: the only
 * data-dependent branch is the end of the game. Returns g->outcome. */
LS_FN ls_u32 bmn_step(bmn_game *g)
{
    if (g->outcome != BMN_RUNNING)
        return g->outcome;
    ls_u64 px = g->px, qx = g->qx, py = g->py, qy = g->qy, pp = g->pp, pq = g->pq;
    ls_u32 plen = g->plen, pk2 = g->pk2, owed = g->owed, xb = g->xb;
    ls_u32 ex = BMN_CTZ64(px), ey = BMN_CTZ64(py);
    ls_u32 fr = owed == 0u;
    /* Numeral phase: X's k-th card falls at time 2k, Y's at 2k + 1, so Y
     * acts first when ey < ex. Put the player who acts (the event player)
     * into X. */
    ls_u32 evy = fr & (ey < ex);
    ls_u32 e = evy ? ey : ex;
    ls_u64 m = (ls_u64)0 - (ls_u64)evy, t;
    t = (px ^ py) & m; px ^= t; py ^= t;
    t = (qx ^ qy) & m; qx ^= t; qy ^= t;
    xb ^= evy;
    /* X pays: done when its next `owed` cards are all numerals (a short
     * hand fails this on its sentinel). */
    ls_u32 complete = (fr ^ 1u) & (ls_u32)((px & (BMN_SHL64(1u, owed) - 1u)) == 0u);
    /* X has no penalty card left before its sentinel: it runs out. */
    ls_u32 out = (complete ^ 1u) & (ls_u32)((px & (px - 1u)) == 0u);
    ls_u32 pen = (complete | out) ^ 1u;
    ls_u32 dy = fr ? e + evy : 0u;          /* numerals Y plays */
    ls_u32 dx = complete ? owed : e + pen;  /* cards X plays */
    ls_u32 val = (ls_u32)qx & 3u;
    ls_u32 pos = plen + e + dy;             /* X's penalty card on the pile */
    pp |= (ls_u64)pen << (pos & 63u);
    pq |= (ls_u64)(val & (0u - pen)) << (pk2 & 63u);
    pk2 += 2u * pen;
    qx = BMN_SHR64(qx, 2u * pen);
    px = BMN_SHR64(px, dx);
    py = BMN_SHR64(py, dy);
    plen += dx + dy;
    ls_u32 cards = g->cards + dx + dy;
    ls_u32 tricks = g->tricks + (complete | out);
    /* Y collects on completion. */
    ls_u64 cm = (ls_u64)0 - (ls_u64)complete;
    ls_u32 ny = 63u - BMN_CLZ64(py);
    ls_u32 ky = BMN_POPC64(py) - 1u;
    qy |= (pq << ((2u * ky) & 63u)) & cm;
    py += BMN_SHL64((pp | ((ls_u64)2 << ((plen - 1u) & 63u))) - 1u, ny) & cm;
    pp &= ~cm;
    pq &= ~cm;
    plen &= ~(ls_u32)cm;
    pk2 &= ~(ls_u32)cm;
    g->cards = cards;
    g->tricks = tricks;
    if (out | (complete & (ls_u32)(px == 1u))) {
        /* Y wins: X ran out, or X paid its last card and lost the trick. */
        g->outcome = xb ? BMN_A_WINS : BMN_B_WINS;
        g->px = py; g->qx = qy; g->py = px; g->qy = qx;
        g->pp = pp; g->pq = pq; g->plen = plen; g->pk2 = pk2;
        g->owed = 0u;
        g->xb = xb ^ 1u;
        return g->outcome;
    }
    /* Either way Y acts next: it pays for X's penalty card, or it leads
     * after collecting. */
    g->px = py; g->qx = qy; g->py = px; g->qy = qx;
    g->pp = pp; g->pq = pq; g->plen = plen; g->pk2 = pk2;
    g->owed = pen ? val + 1u : 0u;
    g->xb = xb ^ 1u;
    return BMN_RUNNING;
}

/* ---- a whole game (CPU driver) ---------------------------------------- */

/* The goto state machine below keeps the hands in two variable pairs
 * (pA, qA) and (pB, qB); `side` is 1 when variable A holds player B.
 * Labels: lead_V (V leads a trick), pays_V (V owes val + 1 cards). */
#define BMN_PAY_(X, Y, PAYS_Y, LEAD_Y, CAPPED_Y, YWINS)                       \
    {                                                                         \
        if (!(p##X & (((ls_u64)2 << val) - 1u))) {                            \
            /* X pays val + 1 numerals: Y collects and leads. */              \
            p##X >>= val + 1u;                                                \
            plen += val + 1u;                                                 \
            cards += plen;                                                    \
            q##Y |= pq << (2u * BMN_POPC64(p##Y) - 2u);                       \
            p##Y += ((pp | ((ls_u64)2 << (plen - 1u))) - 1u)                  \
                    << (63u - BMN_CLZ64(p##Y));                               \
            tricks++;                                                         \
            if (p##X == 1u) {                                                 \
                outcome = YWINS;                                              \
                goto done;                                                    \
            }                                                                 \
            if (cards >= cap)                                                 \
                goto CAPPED_Y;                                                \
            goto LEAD_Y;                                                      \
        }                                                                     \
        {                                                                     \
            ls_u32 e = BMN_CTZ64(p##X);                                       \
            if (!(p##X & (p##X - 1u))) {                                      \
                /* X runs out while paying. */                                \
                cards += plen + e;                                            \
                tricks++;                                                     \
                outcome = YWINS;                                              \
                goto done;                                                    \
            }                                                                 \
            val = (ls_u32)q##X & 3u;                                          \
            q##X >>= 2;                                                       \
            p##X >>= e + 1u;                                                  \
            pp |= (ls_u64)1 << (plen + e);                                    \
            pq |= (ls_u64)val << pk2;                                         \
            pk2 += 2u;                                                        \
            plen += e + 1u;                                                   \
            goto PAYS_Y;                                                      \
        }                                                                     \
    }

#define BMN_LEAD_(X, Y, PAYS_Y, YWINS)                                        \
    {                                                                         \
        ls_u32 ex = BMN_CTZ64(p##X), ey = BMN_CTZ64(p##Y);                    \
        ls_u32 evy = ey < ex, e = evy ? ey : ex;                              \
        ls_u64 m = (ls_u64)0 - (ls_u64)evy, t;                                \
        t = (p##X ^ p##Y) & m; p##X ^= t; p##Y ^= t;                          \
        t = (q##X ^ q##Y) & m; q##X ^= t; q##Y ^= t;                          \
        side ^= evy;                                                          \
        if (!(p##X & (p##X - 1u))) {                                          \
            /* The player to act has only numerals and runs out. */          \
            cards += 2u * e + evy;                                            \
            tricks++;                                                         \
            outcome = YWINS;                                                  \
            goto done;                                                        \
        }                                                                     \
        val = (ls_u32)q##X & 3u;                                              \
        q##X >>= 2;                                                           \
        p##X >>= e + 1u;                                                      \
        p##Y >>= e + evy;                                                     \
        plen = 2u * e + evy;                                                  \
        pp = (ls_u64)1 << plen;                                               \
        plen++;                                                               \
        pq = val;                                                             \
        pk2 = 2u;                                                             \
        goto PAYS_Y;                                                          \
    }

/* Runs g until the game ends or, at a trick boundary, g->cards >= cap.
 * Returns g->outcome (BMN_RUNNING when stopped by the cap; the state is
 * then a valid trick boundary and can be run further). Same results as
 * looping bmn_step. Hands are not meaningful after the end. */
LS_FN ls_u32 bmn_run(bmn_game *g, ls_u32 cap)
{
    if (g->outcome != BMN_RUNNING)
        return g->outcome;
    ls_u64 pA = g->px, qA = g->qx, pB = g->py, qB = g->qy, pp = g->pp, pq = g->pq;
    ls_u32 plen = g->plen, pk2 = g->pk2, side = g->xb;
    ls_u32 cards = g->cards - g->plen, tricks = g->tricks;
    ls_u32 val = g->owed - 1u, outcome = BMN_RUNNING;
    if (cards >= cap && g->owed == 0u && plen == 0u)
        return BMN_RUNNING;
    if (g->owed != 0u)
        goto pays_A;
lead_A:
    BMN_LEAD_(A, B, pays_B, 2u - side)
lead_B:
    BMN_LEAD_(B, A, pays_A, 1u + side)
pays_A:
    BMN_PAY_(A, B, pays_B, lead_B, capped_B, 2u - side)
pays_B:
    BMN_PAY_(B, A, pays_A, lead_A, capped_A, 1u + side)
capped_B: /* variable B leads the next trick */
    g->px = pB; g->qx = qB; g->py = pA; g->qy = qA;
    g->xb = side ^ 1u;
    goto capped;
capped_A:
    g->px = pA; g->qx = qA; g->py = pB; g->qy = qB;
    g->xb = side;
capped:
    g->pp = 0;
    g->pq = 0;
    g->plen = 0;
    g->pk2 = 0;
    g->owed = 0;
    g->cards = cards;
    g->tricks = tricks;
    return BMN_RUNNING;
done:
    g->cards = cards;
    g->tricks = tricks;
    g->outcome = outcome;
    return outcome;
}

#undef BMN_PAY_
#undef BMN_LEAD_

/* The result of a game run with cap `cap`: exact when the game ended
 * within `cap` cards, BMN_CAPPED otherwise. */
LS_FN ls_u32 bmn_finish(const bmn_game *g, ls_u32 cap, bmn_result *res)
{
    ls_u32 o = g->outcome;
    if (o == BMN_RUNNING || ((o == BMN_A_WINS || o == BMN_B_WINS) && g->cards > cap))
        o = BMN_CAPPED;
    res->cards = g->cards;
    res->tricks = g->tricks;
    res->outcome = o;
    return o;
}

/* Plays hand A = cards[0..na-1] against hand B = cards[na..na+nb-1] (A
 * leads) for at most `cap` cards (BMN_CARD_CAP is a good default). Returns
 * the outcome: BMN_A_WINS / BMN_B_WINS with exact cards and tricks, or
 * BMN_CAPPED (cards and tricks where it stopped, >= cap), or BMN_INVALID. */
LS_FN ls_u32 bmn_play_capped(const ls_u8 *cards, ls_u32 na, ls_u32 nb, ls_u32 cap,
                             bmn_result *res)
{
    bmn_game g;
    if (bmn_load(&g, cards, na, nb) != BMN_RUNNING) {
        res->cards = 0;
        res->tricks = 0;
        res->outcome = BMN_INVALID;
        return BMN_INVALID;
    }
    bmn_run(&g, cap);
    return bmn_finish(&g, cap, res);
}

#ifdef BMN_DECK_PRIVATE
/* Deal `deal_index` under `seed` (bmn_deal) and play it, as above. */
LS_FN ls_u32 bmn_play_deal(ls_u64 seed, ls_u64 deal_index, ls_u32 cap, bmn_result *res)
{
    bmn_game g;
    bmn_deal_game(seed, deal_index, &g);
    bmn_run(&g, cap);
    return bmn_finish(&g, cap, res);
}
#endif

/* ---- what a search's kernels and host share ----------------------------- */

/* Histogram of game lengths: bins of BMN_HIST_WIDTH cards; the last bin
 * holds every longer finished game. */
#define BMN_HIST_WIDTH 10u
#define BMN_HIST_BINS 1001u /* 0-9, 10-19, ..., 9990-9999, >= 10000 cards */

/* Work-items per group of the GPU dealing kernel, each with a 52-byte deck
 * in local memory. */
#define BMN_DEAL_GROUP 256u

/* A finished deal that reached the top-K thresholds (16 bytes, the same
 * layout in C, OpenCL C and CUDA). */
typedef struct {
    ls_u64 deal;
    ls_u32 cards, tricks;
} bmn_hit;

/* A deal given explicitly (records, hand-built games): na + nb <= 62
 * cards, hand A then hand B, top card first. */
typedef struct {
    ls_u8 na, nb;
    ls_u8 cards[62];
} bmn_deal_in;

/* A starting state: the two hands' bits (bmn_start), 32 bytes. pa == 0 (no
 * sentinel) marks a given deal the engine cannot hold: the host plays it. */
typedef struct {
    ls_u64 pa, qa, pb, qb;
} bmn_start_bits;

LS_FN bmn_start_bits bmn_start_of(const bmn_game *g)
{
    bmn_start_bits h;
    h.pa = g->px;
    h.qa = g->qx;
    h.pb = g->py;
    h.qb = g->qy;
    return h;
}

/* Starts a game from its hands, or marks it BMN_INVALID for the host. */
LS_FN void bmn_begin(bmn_game *g, bmn_start_bits h)
{
    bmn_start(g, h.pa, h.qa, h.pb, h.qb);
    if (h.pa == 0)
        g->outcome = BMN_INVALID;
}

#endif
