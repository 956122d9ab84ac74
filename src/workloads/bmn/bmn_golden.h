/* bmn_golden.h - the Beggar My Neighbour conformance cases and answers.
 *
 * Records: the published longest known games (cards, tricks), as listed in
 * the issue that introduced BMN. Small games: worked out by hand under the
 * rules of docs/bmn.md (comments give the play). The search digest comes
 * from tests/ref_bmn.c, a plain card-by-card implementation on Random123's
 * own Philox that shares no code with src/algo/bmn.h; the unit test
 * `ref_bmn` recomputes it and replays the records and the small games, so
 * a wrong row fails the tests. Regenerate with `build/tests/ref_bmn --print`. */
#ifndef LOCKSTEP_BMN_GOLDEN_H
#define LOCKSTEP_BMN_GOLDEN_H

typedef struct bmn_golden_game {
    const char *name;
    const char *hands;
    int loop;              /* 1: the game loops; cards/tricks up to the first repeat */
    unsigned cards, tricks;
} bmn_golden_game;

#define BMN_GOLDEN_RECORDS 5
static const bmn_golden_game bmn_golden_records[BMN_GOLDEN_RECORDS] = {
    {"Nessler 2022", "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---", 0, 8344, 1164},
    {"Anderson 2013", "--A-Q--J--J---Q--AJ-K---K-/-J-------Q------A--A--QKK-", 0, 7225, 1016},
    {"Mann & Wu 2007", "K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--", 0, 7157, 1007},
    {"Collins 2006", "A-QK------Q----KA-----J---/-JAK----A--Q----J---QJ--K-", 0, 6913, 960},
    {"Kleber 1999", "---JQ---K-A----A-J-K---QK-/-J-----------AJQA----K---Q", 0, 5790, 805},
};

#define BMN_GOLDEN_SMALL 6
static const bmn_golden_game bmn_golden_small[BMN_GOLDEN_SMALL] = {
    /* A: -, B: -, A has nothing to play: B takes the pile. */
    {"numerals only", "-/-", 0, 2, 1},
    /* A: J, B pays -: A takes [J -]; A: J, B pays its last -: A takes, B is out. */
    {"jack twice", "J/--", 0, 4, 2},
    /* A: A, B pays four numerals, the last of its hand: A takes, B is out. */
    {"ace paid in full", "A/----", 0, 5, 1},
    /* A: A, B pays -, then owes three more and has none: A takes. */
    {"runs out while paying", "AJ/-", 0, 2, 1},
    /* A: -, B: J, A owes one card and has none: B takes. */
    {"cannot pay", "-/J", 0, 2, 1},
    /* A: -, B: J, A pays -: B takes [- J -]; B: -, A: J, B pays -: A takes
     * [- J -], and A leads with A = --J-, B = J-: the start again. */
    {"two-trick loop", "--J-/J-", 1, 6, 2},
};

#define BMN_GOLDEN_SEARCH_SEED 2026u
#define BMN_GOLDEN_SEARCH_DEALS 20000u
#define BMN_GOLDEN_SEARCH_TOP 10u
#define BMN_GOLDEN_SEARCH_DIGEST 0x48a30c117d061afeull
#define BMN_GOLDEN_SEARCH_LONGEST 2331u

#endif
