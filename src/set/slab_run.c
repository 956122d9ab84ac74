/* slab_run.c - a grid cut into slabs over a set of devices and the ranks
 * of an MPI job, with halo exchange: see slab_run.h.
 *
 * One host thread drives every slab of its rank, each through its
 * device's primitives (gpu.h; the host CPU's too, whose buffers are host
 * memory): an epoch launches the steps of every slab on a GPU without
 * waiting, runs those on the host meanwhile (its launches run as they are
 * asked), then waits for the GPUs and exchanges. Ghosts go device to device where
 * the backend copies (gpu.h's copy: CUDA), through the host otherwise
 * (OpenCL, mixed sets), and through MPI between ranks, staged in host
 * memory (Debian's Open MPI is not CUDA-aware). Files of whole grids are
 * read and written where the slabs live: a host thread a device, each
 * slab its own planes at their offsets. */
#define _POSIX_C_SOURCE 200809L
#include "slab_run.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chunks.h"
#include "gpu_call.h"
#include "gpu_timer.h"
#include "job.h"
#include "numbers.h"

/* Message tags between ranks: the ghost on side s of slab i is
 * TAG_GHOST + 2i + s; slab i's planes for rank 0, TAG_GATHER + i. All
 * below the set layer's own (LS_TAG_CENSUS_REPORT) with LS_SLABS_MAX
 * slabs. */
#define TAG_GHOST 100
#define TAG_GATHER (TAG_GHOST + 2 * (int)LS_SLABS_MAX)
/* The handles of slab i's ghost staging on side s, to the rank whose GPU
 * writes them: TAG_SHARE + 2i + s. */
#define TAG_SHARE (TAG_GATHER + (int)LS_SLABS_MAX)
_Static_assert(TAG_SHARE + 2 * (int)LS_SLABS_MAX < LS_TAG_CENSUS_REPORT, "the set layer's tags are above");
_Static_assert(LS_TAG_CENSUS_REPORT < 32767, "MPI promises tags up to 32767 only");

enum { LOW = 0, HIGH = 1 }; /* a slab's side: towards plane 0, towards the last */

/* ---- the job's devices and its slabs -------------------------------------- */

/* A device of this rank and what it has done. */
typedef struct local_device {
    ls_device *s;
    int job_index;
    uint64_t items; /* items of the planes its slabs own, a step each */
    double seconds; /* its time: the GPU's timer (gpu_timer.h), the host's wall time */
    int timer_rejected; /* a GPU whose timer read a figure that cannot be right: its time is the wall's */
} local_device;

/* A slab of this rank. */
typedef struct slab {
    int index;               /* in the job */
    uint32_t first, owned;   /* the planes of the grid it owns */
    uint32_t ghost[2];       /* ghost planes below and above them (k, or 0 at a bounded axis's ends) */
    local_device *dev;
    void *state;             /* the workload's (ls_slab_ops.open) */
    void *edge[2];           /* its lowest and highest k owned planes, on the host for its neighbours */
    int edge_fresh[2];       /* edge[] holds this epoch's planes */
    void *received[2];       /* ghosts from another rank */
    /* Ghosts that another rank's GPU of this node writes device to device
     * (shared_link): staging[side][parity] here, in device memory, which
     * that rank opened as its peer[!side][parity]; the parity alternates
     * with each exchange, so that a rank never writes a staging buffer
     * before its owner has copied the last one from it. */
    ls_buf *staging[2][2];
    ls_buf *peer[2][2];      /* a neighbour's staging on `side`, opened here: this slab's edge goes there */
    uint64_t token[2][2];    /* [out/in][side]: the exchange a shared edge was written in, sent once it is there */
    void *piece[2];          /* a slab's planes on their way to a count and hash (page-locked where the
                              * backend can; piece_bytes), one crossing while the other is worked on;
                              * made at the first summary, kept until stop */
    void *scratch;           /* a slab's owned planes on the host (to send to rank 0 for a gather),
                              * made and faulted in once, at the first sample or the end, kept until stop */
} slab;

struct ls_slabs {
    ls_job job;          /* the set's: this rank and the others */
    const ls_slab_ops *ops;
    const void *work;    /* the workload's, for ops */
    ls_slab_grid grid;
    uint32_t planes;     /* of the whole grid, along the cut axis */
    size_t plane_bytes;  /* of one plane */
    uint32_t k;          /* ghost depth: steps between exchanges */
    int nslabs;          /* in the job */
    uint32_t *first, *owned; /* of each slab of the job */
    int *device_of;      /* each slab's job device */
    ls_census census;    /* the job's devices; measure: the memory each may use */
    local_device *local_devs;
    int nlocal_devs;
    slab *slabs;         /* this rank's, in order */
    int nlocal;
    int sharing;         /* ghosts between ranks of a node may go device to device (shared_link) */
    int pipelined;       /* epochs follow each other with no wait on the host (pipelined()) */
    uint64_t exchanges;  /* so far: the parity of the staging buffers */
};

/* What each slab tells rank 0 of its planes: its count, then, with hash,
 * its planes' hashes, at vals + at[slab] (zeroed before a pass). */
typedef struct slab_news {
    size_t *at;
    uint64_t *vals;
    int hash;
} slab_news;

int ls_slabs_wanted(const ls_set *set, uint64_t slabs)
{
    return set->ndevices > 1 || set->job.size > 1 || slabs > 1;
}

int ls_slabs_count(const ls_slabs *S)
{
    return S->nslabs;
}

uint32_t ls_slabs_halo(const ls_slabs *S)
{
    return S->k;
}

int ls_slabs_cpu_threads(const ls_slabs *S)
{
    int most = 0;
    for (int j = 0; j < S->nlocal; j++)
        if (S->ops->threads(S->slabs[j].state) > most)
            most = S->ops->threads(S->slabs[j].state);
    return most;
}

/* Whether device d queues its work and is timed by its own timer (a GPU),
 * rather than running it as it is asked and being timed by the wall clock
 * (the host CPU, whose launches run on this thread). */
static int queues(const ls_device *d)
{
    return !ls_device_timed_by_wall(d);
}

static int job_rank(const ls_slabs *S, int slab_index)
{
    return S->census.dev[S->device_of[slab_index]].rank;
}

/* This rank's devices: the set's. */
static int open_local_devices(ls_slabs *S, ls_set *set, ls_error *err)
{
    int n = set->ndevices;
    S->local_devs = calloc((size_t)n, sizeof *S->local_devs);
    if (!S->local_devs)
        return ls_fail(err, "out of memory");
    for (int i = 0; i < n; i++)
        S->local_devs[i].s = &set->dev[i];
    S->nlocal_devs = n;
    return 0;
}

/* Ghost planes on `side` of job slab i: none at a bounded axis's ends,
 * and none in a grid of one slab, which is the whole grid (its wrap on a
 * torus is the grid's own). */
static uint32_t ghost_of(const ls_slabs *S, int i, int side)
{
    if (S->nslabs == 1)
        return 0;
    if (S->grid.bounded && ((side == LOW && i == 0) || (side == HIGH && i == S->nslabs - 1)))
        return 0;
    return S->k;
}

/* The ghost depth and the number of slabs: as asked, then as many as
 * the grid holds with every slab at least k planes thick (its edges are
 * what its neighbours' ghosts need) and at least min_planes with its
 * ghosts (the thinnest grid the device operations take). */
static void choose_shape(ls_slabs *S, uint64_t slabs, uint64_t halo)
{
    int any_gpu = 0;
    for (int i = 0; i < S->census.ndevices; i++)
        any_gpu |= S->census.dev[i].is_gpu;
    uint64_t k = halo ? halo : any_gpu ? S->grid.halo_gpu : S->grid.halo_cpu;
    S->k = (uint32_t)(k < S->planes ? k : S->planes);
    uint32_t thinnest = S->k < S->grid.min_planes ? S->grid.min_planes - S->k : 1;
    if (thinnest < S->k)
        thinnest = S->k;
    uint64_t n = slabs ? slabs : (uint64_t)S->census.ndevices;
    if (n > S->planes / thinnest)
        n = S->planes / thinnest; /* at least 1: planes >= min_planes and planes >= k */
    S->nslabs = (int)n;
}

/* Each slab's planes (near-equal: thicknesses differ by at most one) and
 * device (spread evenly over the job's devices, in order), and the check
 * that every device's memory holds its slabs (ops->fits; each slab's own
 * allocations are checked as it opens). */
static int plan(ls_slabs *S, uint64_t slabs, uint64_t halo, ls_error *err)
{
    choose_shape(S, slabs, halo);
    int n = S->nslabs;
    S->first = calloc((size_t)n, sizeof *S->first);
    S->owned = calloc((size_t)n, sizeof *S->owned);
    S->device_of = calloc((size_t)n, sizeof *S->device_of);
    uint64_t *need = calloc((size_t)S->census.ndevices, sizeof *need);
    if (!S->first || !S->owned || !S->device_of || !need) {
        free(need);
        return ls_fail(err, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        S->first[i] = (uint32_t)((uint64_t)i * S->planes / (uint64_t)n);
        S->owned[i] = (uint32_t)((uint64_t)(i + 1) * S->planes / (uint64_t)n) - S->first[i];
        S->device_of[i] = (int)((uint64_t)i * (uint64_t)S->census.ndevices / (uint64_t)n);
        uint64_t planes = (uint64_t)ghost_of(S, i, LOW) + S->owned[i] + ghost_of(S, i, HIGH);
        need[S->device_of[i]] += planes * S->plane_bytes; /* a step's planes of each */
    }
    int rc = 0;
    for (int d = 0; d < S->census.ndevices && rc == 0; d++)
        rc = S->ops->fits(S->work, &S->census.dev[d], need[d], n, err);
    free(need);
    return rc;
}

/* The host buffers of slab sl's exchanges (a grid of several slabs):
 * its edges for its neighbours, the ghosts from other ranks; a GPU's
 * cross the bus every epoch, so they are page-locked where the backend
 * can (ls_gpu_alloc_host; plain host memory elsewhere). */
static int alloc_edges(ls_slabs *S, slab *sl, ls_error *err)
{
    size_t bytes = S->k * S->plane_bytes;
    for (int side = LOW; side <= HIGH && S->nslabs > 1; side++) {
        void **bufs[2] = {&sl->edge[side], &sl->received[side]};
        for (int b = 0; b < 2; b++)
            if (ls_gpu_alloc_host(sl->dev->s, bytes, "ghost planes", bufs[b], err))
                return -1;
    }
    return 0;
}

/* Writes planes [at, at + n) of slab sl from the host (queued on a GPU:
 * src stays as it is until the next epoch's wait). */
static int put_planes(ls_slabs *S, slab *sl, uint32_t at, uint32_t n, const void *src, ls_error *err)
{
    return S->ops->write(sl->state, at, n, src, err);
}

/* Puts slab sl on its device with its owned planes of the start (left
 * for the slab to read with a source: load_slabs); ghosts dead until the
 * first exchange. */
static int open_slab(ls_slabs *S, slab *sl, const ls_slab_start *start, ls_error *err)
{
    ls_slab_place at = {sl->index, sl->first, sl->owned, {sl->ghost[LOW], sl->ghost[HIGH]}};
    if (S->ops->open(S->work, sl->dev->s, &at, &sl->state, err))
        return -1;
    if (alloc_edges(S, sl, err))
        return -1;
    if (start->made)
        return S->ops->make(S->work, sl->state, &at, err);
    if (start->planes)
        return put_planes(S, sl, sl->ghost[LOW], sl->owned,
                          (const unsigned char *)start->planes + (size_t)sl->first * S->plane_bytes, err);
    return 0;
}

/* This rank's slabs, on its devices. */
static int open_slabs(ls_slabs *S, const ls_slab_start *start, ls_error *err)
{
    int rank = S->job.rank, lo = S->census.rank_first[rank], hi = S->census.rank_first[rank + 1], mine = 0;
    for (int i = 0; i < S->nslabs; i++)
        mine += S->device_of[i] >= lo && S->device_of[i] < hi;
    S->slabs = calloc((size_t)mine + 1, sizeof *S->slabs);
    if (!S->slabs)
        return ls_fail(err, "out of memory");
    S->nlocal = mine;
    for (int d = 0; d < S->nlocal_devs; d++)
        S->local_devs[d].job_index = lo + d;
    int n = 0;
    for (int i = 0; i < S->nslabs; i++) {
        if (S->device_of[i] < lo || S->device_of[i] >= hi)
            continue;
        slab *sl = &S->slabs[n++];
        *sl = (slab){.index = i, .first = S->first[i], .owned = S->owned[i], .dev = &S->local_devs[S->device_of[i] - lo]};
        sl->ghost[LOW] = ghost_of(S, i, LOW);
        sl->ghost[HIGH] = ghost_of(S, i, HIGH);
        if (open_slab(S, sl, start, err))
            return -1;
    }
    return 0;
}

/* ---- the exchange ----------------------------------------------------------- */

/* This rank's slab of job index i, or NULL when another rank has it. */
static slab *local_slab(ls_slabs *S, int i)
{
    if (S->nlocal == 0 || i < S->slabs[0].index || i >= S->slabs[0].index + S->nlocal)
        return NULL;
    return &S->slabs[i - S->slabs[0].index];
}

/* The slab next to job slab i on `side` (around the torus's seam). */
static int neighbour(const ls_slabs *S, int i, int side)
{
    return side == LOW ? (i + S->nslabs - 1) % S->nslabs : (i + 1) % S->nslabs;
}

/* First plane (of the slab's own) of its edge on `side`: the k owned
 * planes its neighbour on that side needs. */
static uint32_t edge_plane(const ls_slabs *S, const slab *sl, int side)
{
    return side == LOW ? sl->ghost[LOW] : sl->ghost[LOW] + sl->owned - S->k;
}

/* First plane of its ghost zone on `side`. */
static uint32_t ghost_plane(const slab *sl, int side)
{
    return side == LOW ? 0 : sl->ghost[LOW] + sl->owned;
}

static size_t edge_bytes(const ls_slabs *S)
{
    return S->k * S->plane_bytes;
}

/* Whether the ghost of `to` comes straight from the device of `from`. */
static int device_to_device(const ls_slabs *S, const slab *to, const slab *from)
{
    return S->ops->can_copy(to->state, from->state);
}

/* Slab sl's edge on `side` into sl->edge[side], once an epoch. */
static int fetch_edge(ls_slabs *S, slab *sl, int side, ls_error *err)
{
    if (sl->edge_fresh[side])
        return 0;
    if (S->ops->read(sl->state, edge_plane(S, sl, side), S->k, sl->edge[side], err))
        return -1;
    sl->edge_fresh[side] = 1;
    return 0;
}

/* Writes k planes from the host into slab sl's ghost zone on `side`
 * (queued on a GPU: src stays as it is until the next epoch's wait). */
static int put_ghost(ls_slabs *S, slab *sl, int side, const void *src, ls_error *err)
{
    return put_planes(S, sl, ghost_plane(sl, side), S->k, src, err);
}
/* ---- ghosts device to device between the ranks of a node ---------------------- */

/* Whether the ghost of job slab i on `side` comes from another rank's GPU
 * on this node straight into i's device memory (gpu.h's share: CUDA IPC)
 * rather than through host memory and MPI: every rank decides alike,
 * from the census. */
static int shared_link(const ls_slabs *S, int i, int side)
{
    if (!S->sharing || !ghost_of(S, i, side))
        return 0;
    const ls_job_device *to = &S->census.dev[S->device_of[i]];
    const ls_job_device *from = &S->census.dev[S->device_of[neighbour(S, i, side)]];
    return to->rank != from->rank && to->shares && from->shares && strcmp(to->host, from->host) == 0 &&
           strcmp(to->backend, from->backend) == 0;
}

/* The handles of a slab's staging on one side, as sent. */
typedef struct share_news {
    unsigned char handle[2][LS_GPU_HANDLE_BYTES];
} share_news;

/* This rank's staging buffers, their handles to the ranks that write
 * them, and those ranks' buffers opened here; 0, or -1 with err set
 * (this rank then falls back with the others: open_shared_links). */
static int share_staging(ls_slabs *S, share_news *mine, share_news *theirs, ls_error *err)
{
    ls_job_msg *send = calloc(2 * (size_t)S->nlocal + 1, sizeof *send);
    ls_job_msg *recv = calloc(2 * (size_t)S->nlocal + 1, sizeof *recv);
    int nsends = 0, nrecvs = 0, rc = send && recv ? 0 : ls_fail(err, "out of memory");
    /* The same messages whatever failed here: the ranks they go to wait
     * for them. */
    for (int j = 0; j < S->nlocal && send && recv; j++) {
        slab *sl = &S->slabs[j];
        for (int side = LOW; side <= HIGH; side++) {
            int other = neighbour(S, sl->index, side);
            if (shared_link(S, sl->index, side)) {
                for (int p = 0; p < 2 && rc == 0; p++)
                    rc = ls_gpu_alloc(sl->dev->s, edge_bytes(S), "ghost planes from another rank", &sl->staging[side][p],
                                      err) ||
                                 ls_gpu_share(sl->staging[side][p], mine[2 * j + side].handle[p], err)
                             ? -1
                             : 0;
                send[nsends++] = (ls_job_msg){job_rank(S, other), TAG_SHARE + 2 * sl->index + side,
                                              &mine[2 * j + side], sizeof *mine};
            }
            /* My edge on `side` is the ghost on the other side of that slab. */
            if (shared_link(S, other, !side))
                recv[nrecvs++] = (ls_job_msg){job_rank(S, other), TAG_SHARE + 2 * other + !side,
                                              &theirs[2 * j + side], sizeof *theirs};
        }
    }
    /* Every rank exchanges, also one that failed above (its handles are
     * not opened: the agreement in open_shared_links undoes every link). */
    int xrc = send && recv ? ls_job_exchange(&S->job, send, nsends, recv, nrecvs, err) : -1;
    rc = rc ? rc : xrc;
    for (int j = 0; j < S->nlocal && rc == 0; j++) {
        slab *sl = &S->slabs[j];
        for (int side = LOW; side <= HIGH && rc == 0; side++)
            for (int p = 0; p < 2 && rc == 0 && shared_link(S, neighbour(S, sl->index, side), !side); p++)
                rc = ls_gpu_open_shared(sl->dev->s, theirs[2 * j + side].handle[p], edge_bytes(S),
                                        "another rank's ghost planes", &sl->peer[side][p], err);
    }
    free(send);
    free(recv);
    return rc;
}

static void close_shared_links(ls_slabs *S)
{
    for (int j = 0; j < S->nlocal; j++)
        for (int side = LOW; side <= HIGH; side++)
            for (int p = 0; p < 2; p++) {
                ls_gpu_close_shared(S->slabs[j].peer[side][p]);
                ls_gpu_free(S->slabs[j].staging[side][p]);
                S->slabs[j].peer[side][p] = S->slabs[j].staging[side][p] = NULL;
            }
}

/* Ghosts device to device between the ranks of a node where every rank
 * can open the others' buffers; where one cannot (a driver or container
 * that refuses CUDA IPC), every link of the job goes through host memory
 * and MPI, as it did before: a slower way, not an error. Collective. */
static void open_shared_links(ls_slabs *S)
{
    S->sharing = S->job.size > 1;
    int any = 0;
    for (int i = 0; i < S->nslabs; i++)
        for (int side = LOW; side <= HIGH; side++)
            any |= shared_link(S, i, side);
    if (!any) {
        S->sharing = 0;
        return;
    }
    share_news *mine = calloc(2 * (size_t)S->nlocal + 1, sizeof *mine);
    share_news *theirs = calloc(2 * (size_t)S->nlocal + 1, sizeof *theirs);
    ls_error why = {0};
    int ok = mine && theirs && share_staging(S, mine, theirs, &why) == 0;
    free(mine);
    free(theirs);
    if (ls_job_count_failed(&S->job, ok) == 0)
        return;
    close_shared_links(S);
    S->sharing = 0;
}

/* Slab sl's edge on `side` into the staging buffer of its neighbour (on
 * another rank of the node) that this exchange writes. */
static int send_edge_shared(ls_slabs *S, slab *sl, int side, ls_error *err)
{
    return S->ops->to_buf(sl->state, edge_plane(S, sl, side), S->k, sl->peer[side][S->exchanges % 2], err);
}

/* The messages of an exchange with other ranks: each local edge that a
 * slab of another rank needs, and each local ghost that comes from one. */
static int rank_messages(ls_slabs *S, ls_job_msg *sends, int *nsends, ls_job_msg *recvs, int *nrecvs,
                         ls_error *err)
{
    int me = S->job.rank;
    *nsends = *nrecvs = 0;
    for (int j = 0; j < S->nlocal; j++) {
        slab *sl = &S->slabs[j];
        for (int side = LOW; side <= HIGH; side++) {
            int other = neighbour(S, sl->index, side);
            if (job_rank(S, other) == me)
                continue;
            /* My edge on `side` is the ghost on the other side of that slab:
             * written into its staging (the message then says it is
             * there), or sent. */
            if (shared_link(S, other, !side)) {
                if (send_edge_shared(S, sl, side, err))
                    return -1;
                sl->token[0][side] = S->exchanges;
                sends[(*nsends)++] = (ls_job_msg){job_rank(S, other), TAG_GHOST + 2 * other + !side,
                                                  &sl->token[0][side], sizeof sl->token[0][side]};
            } else if (ghost_of(S, other, !side)) {
                if (fetch_edge(S, sl, side, err))
                    return -1;
                sends[(*nsends)++] = (ls_job_msg){job_rank(S, other), TAG_GHOST + 2 * other + !side,
                                                      sl->edge[side], edge_bytes(S)};
            }
            if (shared_link(S, sl->index, side))
                recvs[(*nrecvs)++] = (ls_job_msg){job_rank(S, other), TAG_GHOST + 2 * sl->index + side,
                                                  &sl->token[1][side], sizeof sl->token[1][side]};
            else if (sl->ghost[side])
                recvs[(*nrecvs)++] = (ls_job_msg){job_rank(S, other), TAG_GHOST + 2 * sl->index + side,
                                                      sl->received[side], edge_bytes(S)};
        }
    }
    /* The shared edges have reached the other ranks' devices before the
     * messages say so. */
    for (int i = 0; S->sharing && i < S->nlocal_devs; i++)
        if (ls_gpu_wait(S->local_devs[i].s, err))
            return -1;
    return 0;
}

/* Slab sl's ghost on `side` from another rank: from its staging buffer
 * (a shared link: the message said which exchange wrote it) or from the
 * planes that came by MPI. */
static int ghost_from_rank(ls_slabs *S, slab *sl, int side, ls_error *err)
{
    if (!shared_link(S, sl->index, side))
        return put_ghost(S, sl, side, sl->received[side], err);
    if (sl->token[1][side] != S->exchanges)
        return ls_fail(err, "slab %d: its ghosts came from exchange %" PRIu64 " in exchange %" PRIu64
                            " (the ranks are out of step)",
                       sl->index, sl->token[1][side], S->exchanges);
    return S->ops->from_buf(sl->state, ghost_plane(sl, side), S->k, sl->staging[side][S->exchanges % 2], err);
}

/* New ghosts for every slab of this rank from its neighbours' edges, once
 * every device is idle (wait_devices). */
static int exchange(ls_slabs *S, ls_error *err)
{
    ls_job_msg sends[4], recvs[4]; /* only a rank's first and last slab talk to other ranks */
    ls_job_msg *send = sends, *recv = recvs;
    int nsends = 0, nrecvs = 0, rc = 0;
    if (S->nlocal > 2 && !(send = calloc(2 * (size_t)S->nlocal, sizeof *send)))
        return ls_fail(err, "out of memory");
    if (S->nlocal > 2 && !(recv = calloc(2 * (size_t)S->nlocal, sizeof *recv)))
        rc = ls_fail(err, "out of memory");
    if (rc == 0)
        rc = rank_messages(S, send, &nsends, recv, &nrecvs, err);
    if (rc == 0)
        rc = ls_job_exchange(&S->job, send, nsends, recv, nrecvs, err);
    for (int j = 0; j < S->nlocal && rc == 0; j++) {
        slab *sl = &S->slabs[j];
        for (int side = LOW; side <= HIGH && rc == 0; side++) {
            if (!sl->ghost[side])
                continue;
            slab *from = local_slab(S, neighbour(S, sl->index, side));
            if (!from)
                rc = ghost_from_rank(S, sl, side, err);
            else if (device_to_device(S, sl, from))
                rc = S->ops->copy(sl->state, ghost_plane(sl, side), from->state, edge_plane(S, from, !side), S->k, err);
            else if ((rc = fetch_edge(S, from, !side, err)) == 0)
                rc = put_ghost(S, sl, side, from->edge[!side], err);
        }
    }
    for (int j = 0; j < S->nlocal; j++)
        S->slabs[j].edge_fresh[LOW] = S->slabs[j].edge_fresh[HIGH] = 0;
    S->exchanges++;
    if (send != sends)
        free(send);
    if (recv != recvs)
        free(recv);
    return rc;
}

/* ---- running ------------------------------------------------------------------ */
/* ---- running ------------------------------------------------------------------ */

/* Launches e steps of every slab of device d (without waiting, on a GPU). */
static int launch_slabs(ls_slabs *S, local_device *d, uint32_t e, ls_error *err)
{
    for (int j = 0; j < S->nlocal; j++)
        if (S->slabs[j].dev == d && S->ops->step(S->work, S->slabs[j].state, e, err))
            return -1;
    return 0;
}

/* Runs e steps of every slab of device d, which runs its work as it is
 * asked (the host CPU), adding the wall time they took to d's. */
static int run_slabs(ls_slabs *S, local_device *d, uint32_t e, ls_error *err)
{
    double t0 = ls_now();
    if (launch_slabs(S, d, e, err))
        return -1;
    d->seconds += ls_now() - t0;
    return 0;
}

/* Starts GPU device d's timer, once its kernels have been looked up (a
 * first lookup builds the program): launching no steps does that. */
static int start_device(ls_slabs *S, local_device *d, ls_error *err)
{
    if (launch_slabs(S, d, 0, err))
        return -1;
    return ls_gpu_timer_start(d->s, err);
}

/* Waits for every GPU device of this rank, which ran e steps,
 * adding their time. */
static int wait_devices(ls_slabs *S, uint64_t e, ls_error *err)
{
    for (int i = 0; i < S->nlocal_devs; i++) {
        local_device *d = &S->local_devs[i];
        double seconds = 0;
        uint64_t rejected = ls_gpu_timer_rejected(d->s);
        if (queues(d->s) && ls_gpu_timer_stop(d->s, e, &seconds, err))
            return -1;
        d->seconds += seconds;
        d->timer_rejected |= ls_gpu_timer_rejected(d->s) != rejected;
    }
    return 0;
}

/* Waits for whatever is queued on this rank's GPU devices (the upload,
 * ghost writes), outside any timing: the backend's own timer pair, whose
 * figure is thrown away, not ls_gpu_timer's (nothing here is timed). */
static int settle_devices(ls_slabs *S, ls_error *err)
{
    for (int i = 0; i < S->nlocal_devs; i++) {
        ls_device *d = S->local_devs[i].s;
        if (ls_gpu_wait(d, err))
            return -1;
    }
    return 0;
}

/* Whether this rank's epochs may follow each other with no wait on the
 * host: the job is this process and every ghost comes from another
 * slab's device by the backend's copy, which orders itself after the
 * kernels queued on both devices and before their next (gpu.h's copy:
 * GPUs of one backend that has it; the host CPU's has none). Elsewhere an
 * exchange goes through the host or MPI, which need the edges finished. */
static int pipelined(ls_slabs *S)
{
    if (S->nslabs < 2 || S->job.size > 1)
        return 0;
    for (int j = 0; j < S->nlocal; j++) {
        slab *sl = &S->slabs[j];
        for (int side = LOW; side <= HIGH; side++) {
            slab *from = sl->ghost[side] ? local_slab(S, neighbour(S, sl->index, side)) : sl;
            if (!from || !device_to_device(S, sl, from))
                return 0;
        }
    }
    return 1;
}

/* e steps of every slab of this rank, then the exchange; `wait`:
 * the GPUs' timers run for this epoch alone, and the host waits for them
 * before the exchange. */
static int epoch(ls_slabs *S, uint32_t e, int wait, ls_error *err)
{
    /* The GPUs run while the host runs the slabs of the devices that run
     * their work as it is asked (the host CPU), timed by the wall clock. */
    for (int i = 0; i < S->nlocal_devs; i++) {
        local_device *d = &S->local_devs[i];
        if (queues(d->s) && wait && start_device(S, d, err))
            return -1;
        if (queues(d->s) && launch_slabs(S, d, e, err))
            return -1;
    }
    for (int i = 0; i < S->nlocal_devs; i++)
        if (!queues(S->local_devs[i].s) && run_slabs(S, &S->local_devs[i], e, err))
            return -1;
    for (int j = 0; j < S->nlocal; j++)
        S->slabs[j].dev->items += (uint64_t)S->slabs[j].owned * S->grid.plane_items * e;
    if (wait && wait_devices(S, e, err))
        return -1;
    return S->nslabs > 1 ? exchange(S, err) : 0;
}

/* n steps in epochs queued back to back on the GPUs (pipelined),
 * timed from the first launch to the end of the last. */
static int steps_pipelined(ls_slabs *S, uint64_t n, ls_error *err)
{
    for (int i = 0; i < S->nlocal_devs; i++)
        if (start_device(S, &S->local_devs[i], err))
            return -1;
    for (uint64_t left = n; left > 0;) {
        uint32_t e = (uint32_t)(left < S->k ? left : S->k);
        if (epoch(S, e, 0, err))
            return -1;
        left -= e;
    }
    return wait_devices(S, n, err);
}

/* Exactly n steps: epochs of min(k, left), an exchange after each (one
 * slab: no exchange, one epoch). *seconds: the time of the job's one
 * device by its clock (a GPU's timer, gpu_timer.h), or the wall time when
 * the job has several. */
static int steps(ls_slabs *S, uint64_t n, double *seconds, ls_error *err)
{
    /* One slab is the whole grid: an epoch as long as asked (the launch
     * takes a 32-bit count), no exchange. */
    uint64_t longest = S->nslabs > 1 ? S->k : UINT32_MAX;
    double t0 = ls_now(), device0 = S->nlocal_devs ? S->local_devs[0].seconds : 0;
    if (S->pipelined) {
        if (n > 0 && steps_pipelined(S, n, err))
            return -1;
    } else {
        for (uint64_t left = n; left > 0;) {
            uint32_t e = (uint32_t)(left < longest ? left : longest);
            if (epoch(S, e, 1, err))
                return -1;
            left -= e;
        }
    }
    /* The job's one device: its own time (a GPU's timer); several: the wall's. */
    *seconds = S->census.ndevices == 1 ? S->local_devs[0].seconds - device0 : ls_now() - t0;
    return 0;
}

static int load_slabs(ls_slabs *S, ls_slab_source *src, slab_news *news, ls_error *err);
static int news_gather(ls_slabs *S, slab_news *n, uint64_t *population, uint64_t *digest, ls_error *err);
static void news_close(slab_news *n);

static void stop_slabs(ls_slabs *S);

/* With src->damaged, whether the start's digest, made on rank 0 from the
 * planes every slab read, is the one expected: every rank learns it, and
 * refuses the start where it is not. */
static int check_source(ls_slabs *S, ls_slab_source *src, ls_error *err)
{
    int32_t damaged = S->job.rank == 0 && src->digest != src->expected;
    if (ls_job_bcast(&S->job, &damaged, sizeof damaged, err) != 0)
        return -1;
    return damaged ? src->damaged(src->arg, S->job.size, err) : 0;
}

/* The slabs on their devices with their planes of the start, and their
 * ghosts from their neighbours. */
static int start_slabs(ls_set *set, const ls_slab_ops *ops, const void *work, const ls_slab_grid *grid,
                       const ls_slab_run *run, ls_slabs **out, ls_error *err)
{
    const ls_slab_start *start = &run->start;
    *out = NULL;
    ls_slabs *S = calloc(1, sizeof *S);
    if (!S)
        return ls_fail(err, "out of memory");
    S->job = set->job;
    S->ops = ops;
    S->work = work;
    S->grid = *grid;
    S->planes = grid->planes;
    S->plane_bytes = grid->plane_bytes;
    ls_slab_source *source = start->source;
    /* Rank 0's slabs and halo for all: the cut must be the same on every
     * rank, even were these left out of what the ranks compare. */
    uint64_t asked[2] = {run->slabs, run->halo};
    int rc = ls_job_bcast(&S->job, asked, sizeof asked, err);
    if (rc == 0)
        rc = open_local_devices(S, set, err);
    /* Every rank takes part in each step, whatever the last gave, so that
     * none waits for another that has given up. */
    if (ls_census_take(set, rc != 0, ops->measure, &S->census, err) != 0)
        rc = -1;
    if (rc == 0)
        rc = plan(S, asked[0], asked[1], err); /* the same outcome on every rank */
    if (rc == 0)
        rc = open_slabs(S, start, err);
    slab_news news = {0};
    if (rc == 0 && source)
        rc = load_slabs(S, source, &news, err);
    /* A rank that could not (a device short of memory, a bad cell in its
     * planes of the file) is named on every rank, which all stop. */
    rc = ls_job_agree(&S->job, rc, err);
    if (rc == 0 && source && source->hash)
        rc = news_gather(S, &news, &source->count, &source->digest, err);
    news_close(&news);
    if (rc == 0 && source && source->hash && source->damaged)
        rc = check_source(S, source, err);
    /* The owned planes have reached the devices (the start may go); the
     * ghosts come from the neighbours. */
    if (rc == 0)
        open_shared_links(S);
    if (rc == 0)
        rc = settle_devices(S, err);
    if (rc == 0)
        rc = exchange(S, err);
    S->pipelined = rc == 0 && pipelined(S) && !getenv("LOCKSTEP_DEBUG_EPOCH_WAIT");
    if (rc) {
        stop_slabs(S);
        return -1;
    }
    *out = S;
    return 0;
}

/* ---- the steps in chunks ------------------------------------------------------ */

/* The next chunk's steps: what the chunker asks for, but never past the
 * next sample, so that every K-th step is sampled whatever the chunk
 * sizes (which follow the devices' measured rate). */
static uint64_t next_chunk(const ls_chunks *chunks, const ls_slab_drive *dr)
{
    uint64_t n = ls_chunks_next(chunks, dr->steps - dr->done);
    if (dr->every) {
        uint64_t to_sample = dr->every - dr->done % dr->every;
        n = n < to_sample ? n : to_sample;
    }
    return n;
}

/* Rank 0's next chunk length (*n), to every rank, and 0 on every rank
 * when a stop signal came to any of them: a batch system may signal every
 * process of the job, a user only one. Every rank takes the signal as its
 * own, so that all report the same exit code. */
static int agree_on_chunk(const ls_job *job, uint64_t *n, ls_error *err)
{
    if (job->size < 2)
        return 0;
    struct {
        uint64_t n;
        int64_t sig;
    } mine = {*n, ls_progress_signal()}, *all = calloc((size_t)job->size, sizeof mine);
    if (!all)
        return ls_fail(err, "out of memory");
    int rc = ls_job_allgather(job, &mine, all, sizeof mine, err);
    *n = all[0].n;
    for (int r = 0; r < job->size && rc == 0; r++)
        if (all[r].sig > 0) {
            ls_progress_stop((int)all[r].sig);
            *n = 0;
        }
    free(all);
    return rc;
}

static int take_sample(ls_slabs *S, ls_slab_run *run, ls_error *err)
{
    double t0 = ls_now();
    int rc = run->sample(run->arg, S, run->drive.done, err);
    run->drive.sample_seconds += ls_now() - t0;
    return rc;
}

/* The chunks: the first as the workload asks (short on any device),
 * later ones sized from the wall time the chunks took, so that a device
 * whose launches cost more than its kernels still answers a stop within a
 * fraction of a second. */
static int drive(ls_slabs *S, ls_slab_run *run, const ls_progress *progress, ls_error *err)
{
    ls_slab_drive *dr = &run->drive;
    ls_chunks chunks;
    uint64_t items = (uint64_t)S->planes * S->grid.plane_items; /* a step's */
    ls_chunks_init(&chunks, dr->first, dr->steps ? dr->steps : 1);
    if (dr->every && take_sample(S, run, err))
        return -1;
    int stop = 0, root = S->job.rank == 0;
    if (root && progress && progress->stepped)
        progress->stepped(progress->user, dr->unit, items);
    for (;;) {
        uint64_t n = !stop && dr->done < dr->steps ? next_chunk(&chunks, dr) : 0;
        if (agree_on_chunk(&S->job, &n, err))
            return -1;
        if (n == 0)
            break;
        double secs = 0, t0 = ls_now();
        if (steps(S, n, &secs, err))
            return -1;
        ls_chunks_done(&chunks, n, ls_now() - t0);
        dr->wall_seconds += ls_now() - t0;
        dr->done += n;
        dr->seconds += secs;
        if (dr->every && dr->done % dr->every == 0 && take_sample(S, run, err))
            return -1;
        if (root && progress && progress->report && progress->report(progress->user, dr->done * items, dr->steps * items))
            stop = 1;
    }
    return 0;
}

/* ---- results -------------------------------------------------------------------- */

/* Slab sl's owned planes where rank 0 can have them: into dst on rank 0,
 * else in host memory (*src) to send. */
static int owned_planes(ls_slabs *S, slab *sl, void *dst, const void **src, ls_error *err)
{
    size_t bytes = sl->owned * S->plane_bytes;
    if (!dst && !sl->scratch && !(sl->scratch = S->ops->host_alloc(bytes)))
        return ls_fail(err, "out of memory for %.1f MiB of slab %d", (double)bytes / (1 << 20), sl->index);
    *src = dst ? dst : sl->scratch;
    return S->ops->read(sl->state, sl->ghost[LOW], sl->owned, dst ? dst : sl->scratch, err);
}

int ls_slabs_gather(ls_slabs *S, void *planes, ls_error *err)
{
    int root = S->job.rank == 0, nsends = 0, nrecvs = 0, rc = 0;
    unsigned char *whole = planes;
    ls_job_msg *send = calloc((size_t)S->nlocal + 1, sizeof *send);
    ls_job_msg *recv = calloc((size_t)(root ? S->nslabs : 0) + 1, sizeof *recv);
    if (!send || !recv)
        rc = ls_fail(err, "out of memory");
    for (int j = 0; j < S->nlocal && rc == 0; j++) {
        slab *sl = &S->slabs[j];
        const void *src = NULL;
        rc = owned_planes(S, sl, root ? whole + (size_t)sl->first * S->plane_bytes : NULL, &src, err);
        if (rc == 0 && !root)
            send[nsends++] = (ls_job_msg){0, TAG_GATHER + sl->index, (void *)src, sl->owned * S->plane_bytes};
    }
    for (int i = 0; root && i < S->nslabs && rc == 0; i++)
        if (job_rank(S, i) != 0)
            recv[nrecvs++] = (ls_job_msg){job_rank(S, i), TAG_GATHER + i, whole + (size_t)S->first[i] * S->plane_bytes,
                                          S->owned[i] * S->plane_bytes};
    if (rc == 0)
        rc = ls_job_exchange(&S->job, send, nsends, recv, nrecvs, err);
    free(send);
    free(recv);
    return rc;
}

/* A slab's planes cross between host and device in pieces (to be
 * counted and hashed, written to a file, or read from one), through two
 * page-locked buffers the slab keeps: the host never holds a slab whole
 * (a slab of a grid larger than a GPU is tens of GiB). A piece is a 64th
 * of the slab, between these bounds: each piece pays a wait, a thread and
 * a copy's start, and page locking costs in proportion to the buffers'
 * size, which a 1 GiB slab's summary paid more for at a 32nd than the
 * pieces cost (docs/perf/README.md, 2026-11-26 and 2026-11-29). On the
 * host device a piece's crossing is a copy within host memory. */
#define SUMMARY_PIECE_MIN ((size_t)8 << 20)
#define SUMMARY_PIECE_MAX ((size_t)64 << 20)
#define SUMMARY_PIECE_ENV "LOCKSTEP_DEBUG_SUMMARY_PIECE" /* another size, for the tests */

/* The size of a piece of a slab of `slab` bytes, or the tests' own. */
static int piece_bytes(size_t slab, size_t *out, ls_error *err)
{
    const char *text = getenv(SUMMARY_PIECE_ENV);
    size_t part = slab / 64;
    *out = part < SUMMARY_PIECE_MIN ? SUMMARY_PIECE_MIN : part > SUMMARY_PIECE_MAX ? SUMMARY_PIECE_MAX : part;
    if (!text)
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || v == 0 || text[0] == '-')
        return ls_fail_usage(err, SUMMARY_PIECE_ENV " '%s': expected a size in bytes, a whole number from 1", text);
    *out = v > SIZE_MAX ? SIZE_MAX : (size_t)v;
    return 0;
}

/* Planes [from, from + n) of slab sl's owned planes, at src, counted, and
 * hashed into hashes[from ..] when hashes is given (each plane seeded
 * with its index in the whole grid: ops->count). */
static uint64_t summarise_planes(const ls_slabs *S, const slab *sl, const void *src, uint32_t from, uint32_t n,
                                 uint64_t *hashes)
{
    return S->ops->count(S->work, src, sl->first + from, n, hashes ? hashes + from : NULL);
}

/* What a pass over the slabs' owned planes does with each piece of a
 * slab on the host: planes [from, from + n) of slab sl's owned planes, at
 * `planes` (which a pass that fills the slabs writes). 0, or -1 with err
 * set. */
typedef int (*piece_fn)(void *arg, const ls_slabs *S, const slab *sl, void *planes, uint32_t from,
                        uint32_t n, ls_error *err);

/* Planes [from, from + n) of a slab read into a host buffer, on a
 * thread of its own while the last piece is worked on. */
typedef struct piece_read {
    const ls_slab_ops *ops;
    void *state;
    uint32_t from, n;
    void *dst;
    int rc;
    ls_error err;
} piece_read;

static void *read_piece(void *arg)
{
    piece_read *pr = arg;
    pr->rc = pr->ops->read(pr->state, pr->from, pr->n, pr->dst, &pr->err);
    return NULL;
}

/* Planes a piece of slab sl holds (piece_bytes), in its page-locked
 * buffers (sl->piece: two when the slab takes more than one piece; made
 * at the first pass, kept until stop). */
static int piece_planes(const ls_slabs *S, slab *sl, uint32_t *per, ls_error *err)
{
    size_t plane_bytes = S->plane_bytes, piece;
    if (piece_bytes(sl->owned * plane_bytes, &piece, err))
        return -1;
    size_t per_piece = piece / plane_bytes;
    *per = per_piece > sl->owned ? sl->owned : per_piece < 1 ? 1 : (uint32_t)per_piece;
    int buffers = *per < sl->owned ? 2 : 1;
    for (int b = 0; b < buffers; b++)
        if (!sl->piece[b] &&
            ls_gpu_alloc_host(sl->dev->s, *per * plane_bytes, "a slab's planes on the host", &sl->piece[b], err))
            return -1;
    return 0;
}

/* Planes of slab sl's piece that starts at owned plane `from`. */
static uint32_t piece_length(const slab *sl, uint32_t from, uint32_t per)
{
    return sl->owned - from < per ? sl->owned - from : per;
}

/* fn on one piece while a reader thread brings the next, on one thread
 * fewer than the host thread's teams have: the reader needs a core of its
 * own. On every core, the team's threads (which spin a while after each
 * region) kept the reader from running until the work was done, so each
 * read came after the work instead of beside it. */
static int beside_reader(piece_fn fn, void *arg, const ls_slabs *S, const slab *sl, void *planes, uint32_t from,
                         uint32_t n, ls_error *err)
{
    int team = omp_get_max_threads();
    if (team > 1)
        omp_set_num_threads(team - 1);
    int rc = fn(arg, S, sl, planes, from, n, err);
    omp_set_num_threads(team);
    return rc;
}

/* fn over slab sl's owned planes, a piece at a time through its two
 * page-locked buffers, the next piece crossing the bus (read_piece: the
 * backends select their device in each call, so any host thread may
 * read) while fn works on this one. */
static int each_piece(const ls_slabs *S, slab *sl, piece_fn fn, void *arg, ls_error *err)
{
    uint32_t per;
    if (piece_planes(S, sl, &per, err))
        return -1;
    piece_read next = {.ops = S->ops, .state = sl->state, .from = sl->ghost[LOW], .n = per, .dst = sl->piece[0]};
    read_piece(&next);
    int rc = next.rc;
    if (rc)
        *err = next.err;
    for (uint32_t from = 0, b = 0; from < sl->owned && rc == 0; from += per, b ^= 1) {
        uint32_t n = piece_length(sl, from, per), after = from + n;
        pthread_t reader;
        int reading = 0;
        if (after < sl->owned) {
            next = (piece_read){.ops = S->ops, .state = sl->state, .from = sl->ghost[LOW] + after,
                                .n = piece_length(sl, after, per), .dst = sl->piece[b ^ 1]};
            reading = pthread_create(&reader, NULL, read_piece, &next) == 0;
            if (!reading)
                read_piece(&next); /* no thread: the read before the work, in turn */
        }
        rc = reading ? beside_reader(fn, arg, S, sl, sl->piece[b], from, n, err)
                     : fn(arg, S, sl, sl->piece[b], from, n, err);
        if (reading)
            pthread_join(reader, NULL);
        if (rc == 0 && after < sl->owned && next.rc) {
            rc = -1;
            *err = next.err;
        }
    }
    return rc;
}

/* fn fills slab sl's owned planes a piece at a time through its two
 * page-locked buffers in turn, each written to the device while fn fills
 * the other. */
static int fill_pieces(const ls_slabs *S, slab *sl, piece_fn fn, void *arg, ls_error *err)
{
    uint32_t per;
    if (piece_planes(S, sl, &per, err))
        return -1;
    int rc = 0;
    for (uint32_t from = 0, b = 0; from < sl->owned && rc == 0; from += per, b ^= 1) {
        uint32_t n = piece_length(sl, from, per);
        /* This buffer's last write, two pieces ago, has run: the device
         * was waited for before the piece between was queued. */
        rc = fn(arg, S, sl, sl->piece[b], from, n, err);
        if (rc == 0 && from > 0)
            rc = ls_gpu_wait(sl->dev->s, err);
        if (rc == 0)
            rc = S->ops->write(sl->state, sl->ghost[LOW] + from, n, sl->piece[b], err);
    }
    /* Nothing queued reads a buffer once it is filled again. */
    ls_error ignored;
    if (ls_gpu_wait(sl->dev->s, rc ? &ignored : err) != 0)
        rc = -1;
    return rc;
}

/* A pass over one device's slabs, on a host thread of its own: the
 * devices of a rank read (or fill) their slabs at once (one thread drives
 * one device: gpu.h), each working on its share of the cores. */
typedef struct device_pass {
    ls_slabs *S;
    const local_device *dev;
    piece_fn fn;
    void *arg;
    int filling; /* fill_pieces, not each_piece */
    int threads;
    int rc;
    ls_error err;
} device_pass;

static void *pass_device(void *arg)
{
    device_pass *dp = arg;
    omp_set_num_threads(dp->threads); /* this host thread's teams only */
    for (int j = 0; j < dp->S->nlocal && dp->rc == 0; j++) {
        slab *sl = &dp->S->slabs[j];
        if (sl->dev == dp->dev)
            dp->rc = (dp->filling ? fill_pieces : each_piece)(dp->S, sl, dp->fn, dp->arg, &dp->err);
    }
    return NULL;
}

/* fn over every local slab's owned planes, a thread a device; `filling`:
 * fn fills them. */
static int pass_local(ls_slabs *S, piece_fn fn, void *arg, int filling, ls_error *err)
{
    int n = S->nlocal_devs, cores = omp_get_max_threads(), rc = 0;
    device_pass *dp = calloc((size_t)n, sizeof *dp);
    pthread_t *threads = calloc((size_t)n, sizeof *threads);
    int *started = calloc((size_t)n, sizeof *started);
    if (!dp || !threads || !started)
        rc = ls_fail(err, "out of memory");
    for (int i = 0; i < n && rc == 0; i++) {
        dp[i] = (device_pass){.S = S, .dev = &S->local_devs[i], .fn = fn, .arg = arg, .filling = filling,
                              .threads = cores / n > 0 ? cores / n : 1};
        if (n == 1)
            pass_device(&dp[i]);
        else
            started[i] = pthread_create(&threads[i], NULL, pass_device, &dp[i]) == 0;
        if (n > 1 && !started[i])
            rc = ls_fail(err, "could not start a thread for the slabs of %s", S->local_devs[i].s->label);
    }
    for (int i = 0; dp && i < n; i++) {
        if (started[i])
            pthread_join(threads[i], NULL);
        if (rc == 0 && dp[i].rc) {
            rc = -1;
            *err = dp[i].err;
        }
    }
    free(dp);
    free(threads);
    free(started);
    return rc;
}

static int news_open(const ls_slabs *S, int hash, slab_news *n, ls_error *err)
{
    size_t total = 0;
    n->hash = hash;
    n->vals = NULL;
    n->at = calloc((size_t)S->nslabs + 1, sizeof *n->at);
    for (int i = 0; n->at && i < S->nslabs; i++) {
        n->at[i] = total;
        total += 1 + (hash ? S->owned[i] : 0);
    }
    if (n->at)
        n->vals = calloc(total + 1, sizeof *n->vals);
    return n->vals ? 0 : ls_fail(err, "out of memory");
}

static void news_close(slab_news *n)
{
    free(n->at);
    free(n->vals);
    n->at = NULL;
    n->vals = NULL;
}

/* Bytes of job slab i's news. */
static size_t news_bytes(const ls_slabs *S, const slab_news *n, int i)
{
    return (1 + (n->hash ? S->owned[i] : 0)) * sizeof *n->vals;
}

/* Every slab's news to rank 0, which makes the count and, with hash, the
 * grid's digest; the other ranks leave *population and *digest alone.
 * Collective. */
static int news_gather(ls_slabs *S, slab_news *n, uint64_t *population, uint64_t *digest,
                       ls_error *err)
{
    int root = S->job.rank == 0, nsends = 0, nrecvs = 0, rc = 0;
    ls_job_msg *send = calloc((size_t)S->nlocal + 1, sizeof *send);
    ls_job_msg *recv = calloc((size_t)S->nslabs + 1, sizeof *recv);
    if (!send || !recv)
        rc = ls_fail(err, "out of memory");
    for (int j = 0; j < S->nlocal && rc == 0 && !root; j++) {
        int i = S->slabs[j].index;
        send[nsends++] = (ls_job_msg){0, TAG_GATHER + i, n->vals + n->at[i], news_bytes(S, n, i)};
    }
    for (int i = 0; root && i < S->nslabs && rc == 0; i++)
        if (job_rank(S, i) != 0)
            recv[nrecvs++] = (ls_job_msg){job_rank(S, i), TAG_GATHER + i, n->vals + n->at[i], news_bytes(S, n, i)};
    if (rc == 0)
        rc = ls_job_exchange(&S->job, send, nsends, recv, nrecvs, err);
    free(send);
    free(recv);
    if (rc != 0 || !root)
        return rc;
    uint64_t *units = n->hash ? malloc((size_t)S->planes * sizeof *units) : NULL;
    if (n->hash && !units)
        return ls_fail(err, "out of memory");
    *population = 0;
    for (int i = 0; i < S->nslabs; i++) {
        *population += n->vals[n->at[i]];
        if (n->hash)
            memcpy(units + S->first[i], n->vals + n->at[i] + 1, S->owned[i] * sizeof *units);
    }
    if (n->hash)
        *digest = S->ops->digest(S->work, units, S->planes);
    free(units);
    return 0;
}

/* A pass that counts, and hashes, each piece into its slab's news. */
typedef struct summary_pass {
    slab_news *news;
} summary_pass;

static int summary_piece(void *arg, const ls_slabs *S, const slab *sl, void *planes, uint32_t from,
                         uint32_t n, ls_error *err)
{
    (void)err;
    const summary_pass *sp = arg;
    uint64_t *mine = sp->news->vals + sp->news->at[sl->index];
    mine[0] += summarise_planes(S, sl, planes, from, n, sp->news->hash ? mine + 1 : NULL);
    return 0;
}

int ls_slabs_summary(ls_slabs *S, uint64_t *population, uint64_t *digest, ls_error *err)
{
    slab_news news;
    summary_pass sp = {&news};
    int rc = news_open(S, digest != NULL, &news, err);
    if (rc == 0)
        rc = pass_local(S, summary_piece, &sp, 0, err);
    if (rc == 0)
        rc = news_gather(S, &news, population, digest, err);
    news_close(&news);
    return rc;
}

/* ---- a start read where the slabs live --------------------------------------- */

typedef struct load_pass {
    const ls_slab_source *src;
    summary_pass summary; /* with src->hash */
} load_pass;

static int load_piece(void *arg, const ls_slabs *S, const slab *sl, void *planes, uint32_t from, uint32_t n,
                      ls_error *err)
{
    load_pass *lp = arg;
    if (lp->src->read(lp->src->arg, sl->first + from, n, planes, err))
        return -1;
    return lp->src->hash ? summary_piece(&lp->summary, S, sl, planes, from, n, err) : 0;
}

/* Every local slab reads its owned planes (a thread a device), counted
 * and hashed into news with src->hash. */
static int load_slabs(ls_slabs *S, ls_slab_source *src, slab_news *news, ls_error *err)
{
    double t0 = ls_now();
    load_pass lp = {src, {news}};
    int rc = news_open(S, src->hash, news, err);
    if (rc == 0)
        rc = pass_local(S, load_piece, &lp, 1, err);
    src->seconds = ls_now() - t0;
    return rc;
}

/* ---- a file written where the slabs live --------------------------------------- */

/* A pass that writes each piece's planes at their offsets, counted and
 * hashed into its slab's news. */
typedef struct write_pass {
    const ls_slab_file *file;
    summary_pass summary;
} write_pass;

static int write_piece(void *arg, const ls_slabs *S, const slab *sl, void *planes, uint32_t from, uint32_t n,
                       ls_error *err)
{
    write_pass *wp = arg;
    summary_piece(&wp->summary, S, sl, planes, from, n, err);
    return wp->file->write(wp->file->arg, planes, sl->first + from, n, err);
}

/* What rank 0 tells the others of the file: whether it is written in
 * pieces, where, and what they must find at its first byte of planes to
 * know that they opened the same file. */
typedef struct file_plan {
    int32_t pieces; /* 1: in pieces; 0: gathered instead; -1: rank 0 failed */
    uint32_t unused;
    uint64_t token;
    char tmp[4096];
} file_plan;

/* Rank 0's temporary file for every rank: its plan (the file made by
 * f->plan, mapped when the job is this process alone). */
static int plan_file(ls_slabs *S, const ls_slab_file *f, file_plan *plan, ls_error *err)
{
    memset(plan, 0, sizeof *plan);
    char *tmp = NULL;
    if (f->plan(f->arg, S->job.size == 1, &tmp, err) != 0) {
        plan->pieces = -1;
        return -1;
    }
    if (!tmp)
        return 0;
    plan->pieces = strlen(tmp) < sizeof plan->tmp;
    snprintf(plan->tmp, sizeof plan->tmp, "%s", tmp);
    free(tmp);
    if (S->job.size == 1)
        return 0;
    plan->token = ((uint64_t)getpid() << 32) ^ (uint64_t)(ls_now() * 1e9) ^ 0x9e3779b97f4a7c15ull;
    /* The first plane is slab 0's, rank 0's: overwritten by its own (a
     * file's first planes and its trailer, when it has fewer than 8 bytes
     * of planes, by rank 0 too). */
    if (plan->pieces &&
        (pwrite(*f->fd, &plan->token, sizeof plan->token, (off_t)*f->head) != (ssize_t)sizeof plan->token ||
         fdatasync(*f->fd) != 0))
        plan->pieces = 0;
    if (!plan->pieces)
        f->abort(f->arg);
    return 0;
}

/* A rank but 0: rank 0's file opened; 1 when it holds the token rank 0
 * wrote (the same file, where the ranks share it). */
static int open_planned(const ls_slab_file *f, const file_plan *plan)
{
    uint64_t seen = 0;
    f->join(f->arg, plan->tmp);
    *f->fd = open(plan->tmp, O_WRONLY | O_CLOEXEC);
    int rfd = *f->fd >= 0 ? open(plan->tmp, O_RDONLY | O_CLOEXEC) : -1;
    int ok = rfd >= 0 && pread(rfd, &seen, sizeof seen, (off_t)*f->head) == (ssize_t)sizeof seen &&
             seen == plan->token;
    if (rfd >= 0)
        close(rfd);
    return ok;
}

/* Every rank writes its slabs' planes, with their news to rank 0, which
 * finishes the file with the digest: 0, or -1 with err set on every rank. */
static int write_slabs(ls_slabs *S, const ls_slab_file *f, uint64_t *population, uint64_t *digest, ls_error *err)
{
    int root = S->job.rank == 0;
    slab_news news;
    write_pass wp = {f, {&news}};
    int rc = news_open(S, 1, &news, err);
    if (rc == 0)
        rc = pass_local(S, write_piece, &wp, 0, err);
    if (!root && close(*f->fd) != 0 && rc == 0)
        rc = ls_fail(err, "%s", strerror(errno));
    if (rc != 0 && !err->usage)
        ls_fail_in(err, "cannot write %s", f->path);
    rc = ls_job_agree(&S->job, rc, err);
    if (rc == 0)
        rc = news_gather(S, &news, population, digest, err);
    if (rc == 0 && root && f->finish(f->arg, *digest, err) != 0)
        rc = ls_fail_in(err, "cannot write %s", f->path);
    news_close(&news);
    return ls_job_agree(&S->job, rc, err);
}

int ls_slabs_write_file(ls_slabs *S, const ls_slab_file *f, uint64_t *population, uint64_t *digest, ls_error *err)
{
    int root = S->job.rank == 0;
    file_plan plan;
    int rc = root ? plan_file(S, f, &plan, err) : 0;
    if (ls_job_bcast(&S->job, &plan, sizeof plan, err) != 0)
        return -1;
    if (plan.pieces < 0)
        return ls_job_agree(&S->job, rc, err); /* rank 0's message on every rank */
    if (plan.pieces == 0)
        return 1;
    /* Every other rank opens the same file, or every rank gathers. */
    int ok = root || open_planned(f, &plan);
    if (ls_job_count_failed(&S->job, ok) != 0) {
        if (!root && *f->fd >= 0)
            close(*f->fd);
        if (root)
            f->abort(f->arg);
        return 1;
    }
    rc = write_slabs(S, f, population, digest, err);
    if (rc != 0 && root)
        f->abort(f->arg);
    return rc;
}

/* What each device of the job did, into the run's report on rank 0, with
 * the run's wall time; on other ranks only computed_only. */
static int report(ls_slabs *S, ls_set_report *st, double wall_seconds, ls_error *err)
{
    ls_device_work *mine = calloc((size_t)S->nlocal_devs + 1, sizeof *mine);
    if (!mine)
        return ls_fail(err, "out of memory");
    for (int i = 0; i < S->nlocal_devs; i++) {
        const local_device *d = &S->local_devs[i];
        mine[i] = (ls_device_work){d->items, d->seconds, ls_device_timed_by_wall(d->s) || d->timer_rejected, d->timer_rejected};
    }
    int rc = ls_census_report(&S->job, &S->census, mine, wall_seconds, st, err);
    free(mine);
    return rc;
}

static void stop_slabs(ls_slabs *S)
{
    if (!S)
        return;
    /* Ghost writes may still be queued from the host buffers freed below. */
    ls_error ignored;
    settle_devices(S, &ignored);
    close_shared_links(S);
    for (int j = 0; j < S->nlocal; j++) {
        slab *sl = &S->slabs[j];
        for (int b = 0; b < 2; b++)
            ls_gpu_free_host(sl->dev->s, sl->piece[b]);
        for (int side = LOW; side <= HIGH; side++) {
            ls_gpu_free_host(sl->dev->s, sl->edge[side]);
            ls_gpu_free_host(sl->dev->s, sl->received[side]);
        }
        if (sl->state)
            S->ops->close(sl->state);
        free(sl->scratch);
    }
    free(S->slabs);
    free(S->local_devs);
    ls_census_free(&S->census);
    free(S->first);
    free(S->owned);
    free(S->device_of);
    free(S);
}

/* ---- the ranks agreeing ----------------------------------------------------- */

/* What a rank says of its start before any rank computes: whether it could
 * make it, why not, and a fingerprint of it. */
typedef struct start_news {
    int32_t ok, usage;
    uint64_t fingerprint;
    char host[64];
    char why[384];
} start_news;

/* mpirun gives its standard input to rank 0 alone: what a refusal of
 * another rank's start adds when the input is standard input. */
static const char *stdin_note(const char *input)
{
    int from_stdin = input && (strcmp(input, "-") == 0 || strncmp(input, "/dev/stdin", 10) == 0 ||
                               strcmp(input, "/dev/fd/0") == 0 || strcmp(input, "/proc/self/fd/0") == 0);
    return from_stdin ? " (under mpirun standard input reaches rank 0 only: give every rank a file)" : "";
}

int ls_slabs_agree_start(const ls_set *set, int ok, uint64_t fingerprint, const char *what, const char *input,
                         ls_error *err)
{
    const ls_job *job = &set->job;
    if (job->size < 2)
        return ok ? 0 : -1;
    start_news mine, *all = calloc((size_t)job->size, sizeof mine);
    memset(&mine, 0, sizeof mine);
    mine.ok = ok;
    mine.usage = err->usage & 1;
    mine.fingerprint = ok ? fingerprint : 0;
    snprintf(mine.host, sizeof mine.host, "%s", ls_job_host(job));
    snprintf(mine.why, sizeof mine.why, "%.383s", ok ? "" : err->msg);
    if (!all || ls_job_allgather(job, &mine, all, sizeof mine, err) != 0) {
        free(all);
        return all ? -1 : ls_fail(err, "out of memory");
    }
    int failed = -1, differs = -1;
    for (int r = job->size - 1; r >= 0; r--) {
        if (!all[r].ok)
            failed = r;
        else if (all[r].fingerprint != all[0].fingerprint)
            differs = r;
    }
    int rc = 0;
    if (failed >= 0)
        rc = ls_fail(err, "MPI rank %d (on %.64s) could not start: %s%s; nothing was run", failed, all[failed].host,
                     all[failed].why, failed > 0 ? stdin_note(input) : "");
    else if (differs >= 0 && all[0].ok)
        rc = ls_fail(err, "MPI rank %d (on %.64s) read another %s from %s than rank 0 (on %.64s): every rank "
                          "must compute the same problem on the same input; nothing was run",
                     differs, all[differs].host, what, input, all[0].host);
    if (rc != 0)
        err->usage = (failed >= 0 ? all[failed].usage : 1) | LS_ERROR_EVERY_RANK;
    free(all);
    return rc;
}

/* Each of n figures' largest over the ranks (the slowest rank's time of
 * each phase). */
static int slowest_of_ranks(const ls_set *set, const double *mine, int n, double *slowest, ls_error *err)
{
    const ls_job *job = &set->job;
    memcpy(slowest, mine, (size_t)n * sizeof *slowest);
    if (job->size < 2)
        return 0;
    double *all = calloc((size_t)job->size * (size_t)n, sizeof *all);
    if (!all)
        return ls_fail(err, "out of memory");
    int rc = ls_job_allgather(job, mine, all, (size_t)n * sizeof *all, err);
    for (int r = 0; r < job->size && rc == 0; r++)
        for (int i = 0; i < n; i++)
            if (all[r * n + i] > slowest[i])
                slowest[i] = all[r * n + i];
    free(all);
    return rc;
}

/* ---- a run ---------------------------------------------------------------------- */

int ls_slabs_run(ls_set *set, const ls_slab_ops *ops, const void *job, const ls_slab_grid *grid, ls_slab_run *run,
                 const ls_progress *progress, ls_error *err)
{
    if (ls_slabs_agree_start(set, run->ok, run->fingerprint, run->what, run->input, err) != 0)
        return -1;
    ls_slabs *S = NULL;
    double t0 = ls_now();
    int rc = start_slabs(set, ops, job, grid, run, &S, err);
    if (rc == 0 && run->started)
        rc = run->started(run->arg, S, err);
    if (rc == 0)
        rc = drive(S, run, progress, err);
    if (rc == 0)
        rc = run->finish(run->arg, S, run->drive.done, err);
    if (rc == 0 && run->report)
        rc = report(S, run->report, ls_now() - t0, err);
    if (rc == 0 && run->slowest)
        rc = slowest_of_ranks(set, run->phases, run->nphases, run->slowest, err);
    stop_slabs(S);
    return rc;
}
