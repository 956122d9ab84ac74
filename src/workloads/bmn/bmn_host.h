/* bmn_host.h - Beggar My Neighbour on the host: deal strings, and the exact
 * player for hands of any length, with loop detection and a trick-by-trick
 * trace.
 *
 * Card codes are those of src/algo/bmn.h (0 numeral, 1..4 = J, Q, K, A, the
 * code being the penalty), and so are the outcomes (BMN_A_WINS, BMN_B_WINS,
 * BMN_CAPPED, BMN_LOOP). The rules are in docs/bmn.md; bmn_host_play
 * implements them card by card, independently of the bit-parallel engine
 * in bmn.h, and is the referee for games that engine caps.
 *
 * Nothing here prints unless asked to (a trace FILE*) or exits: errors come
 * back as -1 plus a message in the caller's buffer. */
#ifndef LOCKSTEP_BMN_HOST_H
#define LOCKSTEP_BMN_HOST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bmn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Two hands of card codes, top card first; owned by the struct. */
typedef struct bmn_hands {
    uint8_t *a, *b;
    size_t na, nb;
} bmn_hands;

/* Parses "handA/handB". Cards: '-' or '2'..'9' or "10" (numerals), J Q K A
 * (also j q k a). Whitespace is skipped. Without '/', the string must hold
 * exactly 52 cards and is split 26/26. Both hands must be non-empty.
 * Returns 0 and fills *out (free with bmn_hands_free), or -1 with a message
 * naming the offending character and its 1-based position in `text`. */
int bmn_parse_deal(const char *text, bmn_hands *out, char *err, size_t errlen);

/* Frees the hands of a parsed deal and zeroes the struct. */
void bmn_hands_free(bmn_hands *h);

/* '-', 'J', 'Q', 'K', 'A' for codes 0..4, '?' for anything else. */
char bmn_card_char(unsigned code);

/* Writes the hand as text (numerals as '-'), snprintf style: at most
 * size - 1 characters and a NUL when size > 0; returns the full length. */
size_t bmn_format_hand(const uint8_t *cards, size_t n, char *buf, size_t size);

/* Writes "handA/handB", snprintf style; returns the full length. */
size_t bmn_format_deal(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, char *buf,
                       size_t size);

/* One finished trick, as the trace sees it. The arrays are valid only
 * during the call. */
typedef struct bmn_trick {
    uint64_t number;      /* 1 for the first trick */
    uint64_t cards;       /* cards played in the game so far */
    int winner;           /* 0 = A, 1 = B: who collected the pile */
    int final;            /* 1 when this trick ends the game */
    const uint8_t *pile;  /* the pile in the order played */
    size_t pile_len;
    const uint8_t *a, *b; /* the hands after the collection */
    size_t na, nb;
} bmn_trick;

typedef void (*bmn_trace_fn)(void *user, const bmn_trick *t);

typedef struct bmn_host_opts {
    /* 0: play to the end or to the first repeated state. Otherwise stop
     * with BMN_CAPPED at the first trick boundary with cards >= max_cards. */
    uint64_t max_cards;
    bmn_trace_fn trace; /* called after every trick, if set */
    void *trace_user;
    FILE *trace_file;   /* bmn_trace_print to this after every trick, if set */
} bmn_host_opts;

typedef struct bmn_host_result {
    unsigned outcome;  /* BMN_A_WINS, BMN_B_WINS, BMN_LOOP or BMN_CAPPED */
    uint64_t cards;    /* cards played (for a loop: up to the repeat) */
    uint64_t tricks;   /* tricks played, the final collection included */
    /* BMN_LOOP only: the repeated trick-boundary state was first seen after
     * loop_start_tricks tricks and loop_start_cards cards; the loop is
     * loop_tricks tricks and loop_cards cards long. */
    uint64_t loop_start_cards, loop_start_tricks;
    uint64_t loop_cards, loop_tricks;
} bmn_host_result;

/* Most cards in a game bmn_host_play takes: it needs about 7 bytes a card
 * (70 MB at this bound), however long the game. */
#define BMN_HOST_MAX_CARDS 10000000u

/* Plays hand A (a, na) against hand B (b, nb), A leading, exactly, by the
 * rules of docs/bmn.md. Hands may have any length >= 1 (BMN_HOST_MAX_CARDS
 * in all) and any mix of codes 0..4. A game that cycles ends as BMN_LOOP at
 * the first repeat of a trick-boundary state (both hands and who leads),
 * found by Brent's cycle detection in memory of a few copies of the hands
 * (the game is played about three times over; once more for a trace).
 * opts may be NULL. Returns 0 and fills *res, or -1 with a message (empty
 * hand, bad code, too many cards, out of memory). */
int bmn_host_play(const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                  const bmn_host_opts *opts, bmn_host_result *res, char *err, size_t errlen);

/* bmn_parse_deal + bmn_host_play. */
int bmn_host_play_str(const char *deal, const bmn_host_opts *opts, bmn_host_result *res,
                      char *err, size_t errlen);

/* One line per trick: number, cards so far, winner, pile, both hands. */
void bmn_trace_print(FILE *f, const bmn_trick *t);

/* "A wins", "B wins", "loop", "capped", "invalid", "running". */
const char *bmn_outcome_name(unsigned outcome);

#ifdef __cplusplus
}
#endif

#endif
