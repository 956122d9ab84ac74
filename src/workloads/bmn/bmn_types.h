/* bmn_types.h - one range of a Beggar My Neighbour search, as the host
 * driver (bmn_search.c) hands it to a device and gets it back.
 *
 * A device plays deals first .. first+count-1 of `seed` (deal i is
 * bmn_deal_game(seed, i): src/algo/bmn.h), or a list of given deals, each
 * up to `cap` cards, and reports:
 *   - the histogram of game lengths (BMN_HIST_BINS bins of
 *     BMN_HIST_WIDTH cards; the last bin holds every longer finished game),
 *   - every finished deal with cards >= min_cards or tricks >= min_tricks
 *     (the host keeps the top K and raises the thresholds as it goes),
 *   - every deal still running at the cap (the host replays those with
 *     exact loop detection).
 * The lists are unordered; the host sorts. When a list has more entries
 * than room, n_* still counts them all and the host replays the range with
 * more room, so nothing is ever lost. The range runs in bmn_gpu.c on every
 * device, whose kernels are src/kernels/bmn_kernels.h on GPUs and, on the
 * host CPU, bmn_cpu.c's implementation (bmn_device.c's host program). */
#ifndef LOCKSTEP_BMN_TYPES_H
#define LOCKSTEP_BMN_TYPES_H

#include <stdint.h>

#include "bmn.h"
#include "host_kernel.h"
#include "set.h"

typedef struct bmn_range {
    uint64_t seed, first, count;
    uint32_t cap;
    uint32_t min_cards, min_tricks;
    /* NULL: deal i is bmn_deal_game(seed, i). Otherwise deal first + j is
     * deals[j] (j < count) and seed is unused. */
    const bmn_deal_in *deals;
} bmn_range;

typedef struct bmn_range_out {
    uint64_t *hist;          /* BMN_HIST_BINS, added to (the caller zeroes it) */
    uint64_t total_cards;    /* added to: cards of every finished game */
    bmn_hit *hits;           /* room for max_hits */
    uint32_t max_hits, n_hits;
    uint64_t *capped;        /* deal indices, room for max_capped */
    uint32_t max_capped, n_capped;
    double seconds;          /* computation time (device events on GPUs) */
} bmn_range_out;

/* The host device's program (bmn_device.c): bmn_cpu_range as kernel
 * bmn_host_play, which takes bmn_play_batch's arguments and three more. */
extern const ls_host_program bmn_host_program;
#define BMN_HOST_PLAY_ARGS 16

/* Plays range r on session s's device (bmn_device.c): 0, or -1 with err. */
int bmn_range_run(ls_device *s, const bmn_range *r, bmn_range_out *out, ls_error *err);
int bmn_gpu_range(ls_device *s, const bmn_range *r, bmn_range_out *out, ls_error *err);
/* On the CPU: the copy of bmn_cpu.c for this CPU (x86-64-v3 or baseline). */
int bmn_cpu_range(const bmn_range *r, bmn_range_out *out, ls_error *err);

#endif
