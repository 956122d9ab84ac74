/* bmn_search.h - a Beggar My Neighbour search on the host: its parameters,
 * its state (histogram, top K by cards and by tricks, loops), the search
 * driver and its checkpoint file, and the reports. Files:
 *   bmn_topk.c        the state: top-K lists, counting games and loops
 *   bmn_search.c      the driver: chunks of deals on a device, capped deals
 *                     replayed exactly on the host
 *   bmn_checkpoint.c  the checkpoint (an SQLite store): resume, commit
 *                     each chunk
 *   bmn_ckpt_report.c `lockstep bmn report FILE`
 *   bmn_report.c      results for people and for scripts, the digest
 *   bmn.c             the workload's hooks, conformance cases, commands */
#ifndef LOCKSTEP_BMN_SEARCH_H
#define LOCKSTEP_BMN_SEARCH_H

#include <stdio.h>

#include "bmn_host.h"
#include "bmn_types.h"
#include "workload.h"

#define BMN_MAX_TOP 1000u
#define BMN_FIRST_CHUNK 4096u /* thresholds start at 0: every deal of it is a hit */
#define BMN_MAX_CHUNK (1ull << 30)
#define BMN_MAX_DEALS 1000000000000000ull /* --deals at most */

/* Which of the options that define a search (and --deals) a command line
 * gave: a resumed search takes the others from its checkpoint. */
typedef struct bmn_given {
    int seed, first, top, cap, deals;
} bmn_given;

typedef struct bmn_params {
    uint64_t seed, first, deals, top, cap;
    const char *checkpoint; /* search command only */
} bmn_params;

typedef struct bmn_loop_rec {
    uint64_t deal;
    bmn_host_result r;
} bmn_loop_rec;

typedef struct bmn_state {
    uint64_t done; /* deals finished, counted from params.first */
    uint64_t hist[BMN_HIST_BINS];
    uint64_t total_cards, finished;
    uint32_t k;
    bmn_hit top_cards[BMN_MAX_TOP], top_tricks[BMN_MAX_TOP];
    uint32_t n_cards, n_tricks;
    bmn_loop_rec *loops;
    uint32_t n_loops, room_loops;
    double seconds;
    int interrupted;
} bmn_state;


/* ---- top K (bmn_topk.c) ---------------------------------------------------- */

/* Inserts h into a list kept sorted (more cards, or tricks, first; then
 * the lower deal) and at most k long; 1 if it entered. */
int bmn_top_insert(bmn_hit *list, uint32_t *n, uint32_t k, bmn_hit h, int by_tricks);
/* Counts a finished game; returns 1 when it entered a top list. */
int bmn_state_add_game(bmn_state *st, bmn_hit h);
/* Adds a looping deal; -1 when out of memory. */
int bmn_state_add_loop(bmn_state *st, uint64_t deal, const bmn_host_result *r);
/* Deal `deal` of `seed` as text, "handA/handB". */
void bmn_deal_string(uint64_t seed, uint64_t deal, char *out, size_t len);

/* ---- checkpoint (bmn_checkpoint.c) ------------------------------------------ */

/* An open checkpoint: an SQLite store (store.h), locked for the whole run. */
typedef struct bmn_ckpt bmn_ckpt;

/* Opens (or creates) the checkpoint at path for the search p, locks it,
 * verifies it (every record replayed) and loads it into st (which must be
 * fresh: k set, the rest zero). Refusals leave the file as it was. */
int bmn_ckpt_open(bmn_ckpt **c, const char *path, const bmn_params *p, bmn_state *st, ls_error *err);
/* Saves st after a chunk - its new records and loops, the histogram and
 * the progress - in one transaction. */
int bmn_ckpt_commit(bmn_ckpt *c, const bmn_params *p, const bmn_state *st, ls_error *err);
/* Unlocks and closes; c may be NULL. */
int bmn_ckpt_close(bmn_ckpt *c, ls_error *err);
/* Completes p from the checkpoint at path, before a search resumes: the
 * options that define the search (seed, first, top, cap) that `given`
 * does not mark are the file's, those it marks must equal the file's (a
 * refusal names the option that differs); --deals, when not given, is
 * the --deals of its last run. A missing or empty file leaves p alone.
 * Only reads. */
int bmn_ckpt_options(const char *path, bmn_params *p, const bmn_given *given, ls_error *err);
/* Reads a checkpoint without changing it (one snapshot, also while a
 * search writes to it): its search into p (p->deals: the --deals of its
 * last run), its verified state into st, and into *running (may be NULL)
 * whether a search was writing to it: 1, 0, or -1 when that cannot be
 * told. */
int bmn_ckpt_read(const char *path, bmn_params *p, bmn_state *st, int *running, ls_error *err);
/* lockstep bmn report FILE [--json] (bmn_ckpt_report.c) */
int bmn_report_cmd(int argc, char **argv);

/* ---- the search driver (bmn_search.c) ---------------------------------------- */

/* Runs the search of p on the set into st (which it initialises),
 * resuming from and appending to the checkpoint when one is named; `given`
 * replaces the random deals by a list (conformance). Each device's share
 * goes to *report. */
int bmn_search_run(ls_set *set, const bmn_params *p, bmn_state *st, const ls_progress *prog, ls_set_report *report,
                   const bmn_deal_in *given, ls_error *err);

/* ---- results (bmn_report.c) --------------------------------------------------- */

/* The hash the conformance suite's golden search holds (tests/ref_bmn.c
 * computes it independently): histogram, top lists, loops' deals and
 * lengths. */
uint64_t bmn_golden_hash(const bmn_state *st);
/* The result as JSON members (the run's digest is computed from them). */
void bmn_result_json(const bmn_params *p, const bmn_state *st, FILE *out);
/* The result for people: top lists, histogram, loops. */
void bmn_result_text(const bmn_params *p, const bmn_state *st, FILE *out);

#endif
