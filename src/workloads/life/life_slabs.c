/* life_slabs.c - a Life grid cut into slabs over a set of devices and the
 * ranks of an MPI job, with halo exchange: see life_slabs.h.
 *
 * One host thread drives every slab of its rank: an epoch launches the
 * generations of every GPU slab without waiting, runs the OpenMP slabs
 * meanwhile, then waits for the GPUs and exchanges. Ghosts go device to
 * device where the backend copies (gpu.h's copy: CUDA), through the host
 * otherwise (OpenCL, mixed sets), and through MPI between ranks, staged
 * in host memory (Debian's Open MPI is not CUDA-aware). Files of whole
 * grids (PKU, native) are read and written where the slabs live: a host
 * thread a device, each slab its own rows at their offsets. */
#include "life_slabs.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_call.h"
#include "gpu_timer.h"
#include "life_cpu.h"
#include "life_gpu.h"
#include "life_io.h"
#include "numbers.h"
#include "progress.h"
#include "set_run.h"

/* Message tags between ranks: the ghost on side s of slab i is
 * TAG_GHOST + 2i + s; slab i's planes for rank 0, TAG_GATHER + i. All
 * below the set layer's own (LS_TAG_CENSUS_REPORT) with LIFE_MAX_SLABS
 * slabs. */
#define TAG_GHOST 100
#define TAG_GATHER (TAG_GHOST + 2 * (int)LIFE_MAX_SLABS)
/* The handles of slab i's ghost staging on side s, to the rank whose GPU
 * writes them: TAG_SHARE + 2i + s. */
#define TAG_SHARE (TAG_GATHER + (int)LIFE_MAX_SLABS)
_Static_assert(TAG_SHARE + 2 * (int)LIFE_MAX_SLABS < LS_TAG_CENSUS_REPORT, "the set layer's tags are above");
_Static_assert(LS_TAG_CENSUS_REPORT < 32767, "MPI promises tags up to 32767 only");

enum { LOW = 0, HIGH = 1 }; /* a slab's side: towards plane 0, towards the last */

/* ---- the job's devices and its slabs -------------------------------------- */

/* A device of this rank and what it has done. */
typedef struct local_device {
    ls_device *s;
    int job_index;
    uint64_t items; /* cell updates of the planes its slabs own */
    double seconds; /* its time: the GPU's timer (gpu_timer.h), the CPU's wall time */
    int timer_rejected; /* a GPU whose timer read a figure that cannot be right: its time is the wall's */
} local_device;

/* A slab of this rank. */
typedef struct slab {
    int index;               /* in the job */
    uint32_t first, owned;   /* the planes of the grid it owns */
    uint32_t ghost[2];       /* ghost planes below and above them (k, or 0 at a bounded plane's ends) */
    local_device *dev;
    life_grid grid;          /* OpenMP: the cells, ghosts included; a GPU: the shape */
    life_cpu *cpu;
    life_gpu_state *gpu;
    uint32_t *edge[2];       /* its lowest and highest k owned planes, on the host for its neighbours */
    int edge_fresh[2];       /* edge[] holds this epoch's planes */
    uint32_t *received[2];   /* ghosts from another rank */
    /* Ghosts that another rank's GPU of this node writes device to device
     * (shared_link): staging[side][parity] here, in device memory, which
     * that rank opened as its peer[!side][parity]; the parity alternates
     * with each exchange, so that a rank never writes a staging buffer
     * before its owner has copied the last one from it. */
    ls_buf *staging[2][2];
    ls_buf *peer[2][2];      /* a neighbour's staging on `side`, opened here: this slab's edge goes there */
    uint64_t token[2][2];    /* [out/in][side]: the exchange a shared edge was written in, sent once it is there */
    void *piece[2];          /* a GPU slab's planes on their way to a count and hash (page-locked where the
                              * backend can; piece_bytes), one crossing while the other is worked on;
                              * made at the first summary, kept until stop */
    uint32_t *scratch;       /* a GPU slab's owned planes on the host (to send to rank 0 for --out),
                              * made and faulted in once, at the first sample or the end, kept until stop */
} slab;

struct life_slabs {
    ls_job job;          /* the set's: this rank and the others */
    unsigned dims;
    int bounded;
    uint32_t planes;     /* of the whole grid, along the cut axis */
    size_t plane_words;  /* words of one plane */
    uint64_t plane_cells;
    uint32_t k;          /* ghost depth: generations between exchanges */
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
 * its units' hashes, at vals + at[slab] (zeroed before a pass). */
typedef struct slab_news {
    size_t *at;
    uint64_t *vals;
    int hash;
} slab_news;

int life_slabs_wanted(const ls_set *set, uint64_t slabs)
{
    return set->ndevices > 1 || set->job.size > 1 || slabs > 1;
}

int life_slabs_count(const life_slabs *L)
{
    return L->nslabs;
}

uint32_t life_slabs_halo(const life_slabs *L)
{
    return L->k;
}

int life_slabs_cpu_threads(const life_slabs *L)
{
    int most = 0;
    for (int j = 0; j < L->nlocal; j++)
        if (L->slabs[j].cpu && life_cpu_threads(L->slabs[j].cpu) > most)
            most = life_cpu_threads(L->slabs[j].cpu);
    return most;
}

static int job_rank(const life_slabs *L, int slab_index)
{
    return L->census.dev[L->device_of[slab_index]].rank;
}

/* This rank's devices: the set's. */
static int open_local_devices(life_slabs *L, ls_set *set, ls_error *err)
{
    int n = set->ndevices;
    L->local_devs = calloc((size_t)n, sizeof *L->local_devs);
    if (!L->local_devs)
        return ls_fail(err, "out of memory");
    for (int i = 0; i < n; i++)
        L->local_devs[i].s = &set->dev[i];
    L->nlocal_devs = n;
    return 0;
}

/* The census's measure of a device: the memory Life may use there. */
static int slab_memory(const ls_device *d, uint64_t *out, ls_error *err)
{
    return life_device_memory(d, out, err);
}

/* Ghost planes on `side` of job slab i: none at a bounded plane's ends,
 * and none in a grid of one slab, which is the whole grid (its wrap on a
 * torus is the grid's own). */
static uint32_t ghost_of(const life_slabs *L, int i, int side)
{
    if (L->nslabs == 1)
        return 0;
    if (L->bounded && ((side == LOW && i == 0) || (side == HIGH && i == L->nslabs - 1)))
        return 0;
    return L->k;
}

/* The ghost depth and the number of slabs: as asked, then as many as
 * the grid holds with every slab at least k planes thick (its edges are
 * what its neighbours' ghosts need) and at least LIFE_MIN_SIZE with its
 * ghosts (the smallest grid the kernels take). */
static void choose_shape(life_slabs *L, uint64_t slabs, uint64_t halo)
{
    int any_gpu = 0;
    for (int i = 0; i < L->census.ndevices; i++)
        any_gpu |= L->census.dev[i].is_gpu;
    /* 2D on a GPU: ghosts as deep as the many-generation kernel's walk, so
     * that a slab runs the kernel a whole grid on one GPU runs. */
    uint64_t gpu_k = L->dims == 2 ? LIFE_HALO_GPU_2D : LIFE_HALO_GPU;
    uint64_t k = halo ? halo : any_gpu ? gpu_k : LIFE_HALO_CPU;
    L->k = (uint32_t)(k < L->planes ? k : L->planes);
    uint32_t thinnest = L->k < LIFE_MIN_SIZE ? LIFE_MIN_SIZE - L->k : 1;
    if (thinnest < L->k)
        thinnest = L->k;
    uint64_t n = slabs ? slabs : (uint64_t)L->census.ndevices;
    if (n > L->planes / thinnest)
        n = L->planes / thinnest; /* at least 1: planes >= LIFE_MIN_SIZE and planes >= k */
    L->nslabs = (int)n;
}

/* Each slab's planes (near-equal: thicknesses differ by at most one) and
 * device (spread evenly over the job's devices, in order), and the check
 * that every device's memory holds its slabs (life_grid_fits; each slab's
 * own allocations are checked as it opens: life_gpu_open). */
static int plan(life_slabs *L, const life_grid *g, uint64_t slabs, uint64_t halo, ls_error *err)
{
    choose_shape(L, slabs, halo);
    int S = L->nslabs;
    L->first = calloc((size_t)S, sizeof *L->first);
    L->owned = calloc((size_t)S, sizeof *L->owned);
    L->device_of = calloc((size_t)S, sizeof *L->device_of);
    uint64_t *need = calloc((size_t)L->census.ndevices, sizeof *need);
    if (!L->first || !L->owned || !L->device_of || !need) {
        free(need);
        return ls_fail(err, "out of memory");
    }
    for (int i = 0; i < S; i++) {
        L->first[i] = (uint32_t)((uint64_t)i * L->planes / (uint64_t)S);
        L->owned[i] = (uint32_t)((uint64_t)(i + 1) * L->planes / (uint64_t)S) - L->first[i];
        L->device_of[i] = (int)((uint64_t)i * (uint64_t)L->census.ndevices / (uint64_t)S);
        uint64_t planes = (uint64_t)ghost_of(L, i, LOW) + L->owned[i] + ghost_of(L, i, HIGH);
        need[L->device_of[i]] += planes * L->plane_words * sizeof(uint32_t); /* a generation of each */
    }
    int rc = 0;
    char slabs_text[32] = "";
    if (S > 1)
        snprintf(slabs_text, sizeof slabs_text, " in %d slabs", S);
    for (int d = 0; d < L->census.ndevices && rc == 0; d++) {
        char needs[LS_BYTES_TEXT], has[LS_BYTES_TEXT];
        ls_format_bytes(2 * need[d], needs, sizeof needs);
        ls_format_bytes(L->census.dev[d].measure, has, sizeof has);
        if (!life_grid_fits(need[d], L->census.dev[d].measure, UINT64_MAX))
            rc = ls_fail_usage(err, "a %ux%ux%u grid%s needs %s on %s (two generations, a bit per cell); it has %s%s",
                               g->nx, g->ny, g->nz, slabs_text, needs, L->census.dev[d].label, has,
                               life_memory_capped() ? " under " LIFE_MEMORY_CAP_ENV : "");
    }
    free(need);
    return rc;
}

/* The host buffers of slab sl's exchanges (a grid of several slabs):
 * its edges for its neighbours, the ghosts from other ranks; a GPU's
 * cross the bus every epoch, so they are page-locked where the backend
 * can (ls_gpu_alloc_host). */
static int alloc_edges(life_slabs *L, slab *sl, ls_error *err)
{
    size_t bytes = L->k * L->plane_words * sizeof(uint32_t);
    for (int side = LOW; side <= HIGH && L->nslabs > 1; side++) {
        void **bufs[2] = {(void **)&sl->edge[side], (void **)&sl->received[side]};
        for (int b = 0; b < 2; b++) {
            if (sl->gpu) {
                if (ls_gpu_alloc_host(sl->dev->s, bytes, "ghost planes", bufs[b], err))
                    return -1;
            } else if (!(*bufs[b] = malloc(bytes))) {
                return ls_fail(err, "out of memory for the ghost planes of slab %d (%.1f MiB)", sl->index,
                               (double)bytes / (1 << 20));
            }
        }
    }
    return 0;
}

/* Puts slab sl on its device: its owned planes from g, or made there from
 * `fill` (rows first * rows-a-plane on of the whole grid), or, `reading`,
 * left for the slab to read (load_slabs); ghosts dead until the first
 * exchange. */
static int open_slab(life_slabs *L, slab *sl, const life_grid *g, const life_fill_spec *fill, int reading,
                     ls_error *err)
{
    uint32_t planes = sl->ghost[LOW] + sl->owned + sl->ghost[HIGH];
    size_t plane_bytes = L->plane_words * sizeof(uint32_t);
    uint64_t rows_a_plane = g->dims == 3 ? g->ny : 1u, row0 = (uint64_t)sl->first * rows_a_plane;
    const uint32_t *own = fill || reading ? NULL : g->words + (size_t)sl->first * L->plane_words;
    life_grid shape;
    life_grid_shape(&shape, g->dims, g->nx, g->dims == 3 ? g->ny : planes, g->dims == 3 ? planes : 1);
    shape.bounded = g->bounded;
    if (sl->dev->s->backend->gpu) {
        sl->grid = shape;
        if (life_gpu_open(sl->dev->s, &shape, &sl->gpu, err) || alloc_edges(L, sl, err))
            return -1;
        if (fill)
            return life_gpu_fill(sl->gpu, sl->ghost[LOW], sl->owned, row0, g->nx, fill->seed, fill->density, err);
        return own ? life_gpu_write_planes(sl->gpu, sl->ghost[LOW], sl->owned, own, err) : 0;
    }
    if (alloc_edges(L, sl, err))
        return -1;
    /* Only the ghosts are zeroed: the owned planes are written whole next. */
    if (life_grid_alloc(&sl->grid, shape.dims, shape.nx, shape.ny, shape.nz, err))
        return -1;
    sl->grid.bounded = g->bounded;
    uint32_t *dst = sl->grid.words + (size_t)sl->ghost[LOW] * L->plane_words;
    memset(sl->grid.words, 0, sl->ghost[LOW] * plane_bytes);
    size_t allocated = (sl->grid.nwords * sizeof(uint32_t) + 63u) / 64u * 64u; /* as life_grid_init zeroes */
    memset(dst + (size_t)sl->owned * L->plane_words, 0,
           allocated - (size_t)(sl->ghost[LOW] + sl->owned) * plane_bytes);
    if (fill)
        life_cpu_fill(dst, g->nx, g->row_words, row0, sl->owned * rows_a_plane, fill->seed,
                      life_fill_threshold(fill->density));
    else if (own)
        memcpy(dst, own, sl->owned * plane_bytes);
    return life_cpu_start(&sl->grid, 0, NULL, &sl->cpu, err);
}

/* This rank's slabs, on its devices. */
static int open_slabs(life_slabs *L, const life_grid *g, const life_fill_spec *fill, int reading, ls_error *err)
{
    int rank = L->job.rank, lo = L->census.rank_first[rank], hi = L->census.rank_first[rank + 1], mine = 0;
    for (int i = 0; i < L->nslabs; i++)
        mine += L->device_of[i] >= lo && L->device_of[i] < hi;
    L->slabs = calloc((size_t)mine + 1, sizeof *L->slabs);
    if (!L->slabs)
        return ls_fail(err, "out of memory");
    L->nlocal = mine;
    for (int d = 0; d < L->nlocal_devs; d++)
        L->local_devs[d].job_index = lo + d;
    int n = 0;
    for (int i = 0; i < L->nslabs; i++) {
        if (L->device_of[i] < lo || L->device_of[i] >= hi)
            continue;
        slab *sl = &L->slabs[n++];
        *sl = (slab){.index = i, .first = L->first[i], .owned = L->owned[i], .dev = &L->local_devs[L->device_of[i] - lo]};
        sl->ghost[LOW] = ghost_of(L, i, LOW);
        sl->ghost[HIGH] = ghost_of(L, i, HIGH);
        if (open_slab(L, sl, g, fill, reading, err))
            return -1;
    }
    return 0;
}

/* ---- the exchange ----------------------------------------------------------- */

/* This rank's slab of job index i, or NULL when another rank has it. */
static slab *local_slab(life_slabs *L, int i)
{
    if (L->nlocal == 0 || i < L->slabs[0].index || i >= L->slabs[0].index + L->nlocal)
        return NULL;
    return &L->slabs[i - L->slabs[0].index];
}

/* The slab next to job slab i on `side` (around the torus's seam). */
static int neighbour(const life_slabs *L, int i, int side)
{
    return side == LOW ? (i + L->nslabs - 1) % L->nslabs : (i + 1) % L->nslabs;
}

/* First plane (of the slab's grid) of its edge on `side`: the k owned
 * planes its neighbour on that side needs. */
static uint32_t edge_plane(const life_slabs *L, const slab *sl, int side)
{
    return side == LOW ? sl->ghost[LOW] : sl->ghost[LOW] + sl->owned - L->k;
}

/* First plane of its ghost zone on `side`. */
static uint32_t ghost_plane(const slab *sl, int side)
{
    return side == LOW ? 0 : sl->ghost[LOW] + sl->owned;
}

static size_t edge_bytes(const life_slabs *L)
{
    return L->k * L->plane_words * sizeof(uint32_t);
}

/* Whether the ghost of `to` comes straight from the device of `from`. */
static int device_to_device(const slab *to, const slab *from)
{
    return to->gpu && from->gpu && life_gpu_can_copy(to->gpu, from->gpu);
}

/* Slab sl's edge on `side` into sl->edge[side], once an epoch. */
static int fetch_edge(life_slabs *L, slab *sl, int side, ls_error *err)
{
    if (sl->edge_fresh[side])
        return 0;
    uint32_t at = edge_plane(L, sl, side);
    if (sl->gpu && life_gpu_read_planes(sl->gpu, at, L->k, sl->edge[side], err))
        return -1;
    if (!sl->gpu)
        memcpy(sl->edge[side], sl->grid.words + (size_t)at * L->plane_words, edge_bytes(L));
    sl->edge_fresh[side] = 1;
    return 0;
}

/* Writes k planes from the host into slab sl's ghost zone on `side`
 * (queued on a GPU: src stays as it is until the next epoch's wait). */
static int put_ghost(life_slabs *L, slab *sl, int side, const uint32_t *src, ls_error *err)
{
    uint32_t at = ghost_plane(sl, side);
    if (sl->gpu)
        return life_gpu_write_planes(sl->gpu, at, L->k, src, err);
    memcpy(sl->grid.words + (size_t)at * L->plane_words, src, edge_bytes(L));
    return 0;
}

/* ---- ghosts device to device between the ranks of a node ---------------------- */

/* Whether the ghost of job slab i on `side` comes from another rank's GPU
 * on this node straight into i's device memory (gpu.h's share: CUDA IPC)
 * rather than through host memory and MPI: every rank decides alike,
 * from the census. */
static int shared_link(const life_slabs *L, int i, int side)
{
    if (!L->sharing || !ghost_of(L, i, side))
        return 0;
    const ls_job_device *to = &L->census.dev[L->device_of[i]];
    const ls_job_device *from = &L->census.dev[L->device_of[neighbour(L, i, side)]];
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
static int share_staging(life_slabs *L, share_news *mine, share_news *theirs, ls_error *err)
{
    ls_job_msg *send = calloc(2 * (size_t)L->nlocal + 1, sizeof *send);
    ls_job_msg *recv = calloc(2 * (size_t)L->nlocal + 1, sizeof *recv);
    int nsends = 0, nrecvs = 0, rc = send && recv ? 0 : ls_fail(err, "out of memory");
    /* The same messages whatever failed here: the ranks they go to wait
     * for them. */
    for (int j = 0; j < L->nlocal && send && recv; j++) {
        slab *sl = &L->slabs[j];
        for (int side = LOW; side <= HIGH; side++) {
            int other = neighbour(L, sl->index, side);
            if (shared_link(L, sl->index, side)) {
                for (int p = 0; p < 2 && rc == 0; p++)
                    rc = ls_gpu_alloc(sl->dev->s, edge_bytes(L), "ghost planes from another rank", &sl->staging[side][p],
                                      err) ||
                                 ls_gpu_share(sl->staging[side][p], mine[2 * j + side].handle[p], err)
                             ? -1
                             : 0;
                send[nsends++] = (ls_job_msg){job_rank(L, other), TAG_SHARE + 2 * sl->index + side,
                                              &mine[2 * j + side], sizeof *mine};
            }
            /* My edge on `side` is the ghost on the other side of that slab. */
            if (shared_link(L, other, !side))
                recv[nrecvs++] = (ls_job_msg){job_rank(L, other), TAG_SHARE + 2 * other + !side,
                                              &theirs[2 * j + side], sizeof *theirs};
        }
    }
    /* Every rank exchanges, also one that failed above (its handles are
     * not opened: the agreement in open_shared_links undoes every link). */
    int xrc = send && recv ? ls_job_exchange(&L->job, send, nsends, recv, nrecvs, err) : -1;
    rc = rc ? rc : xrc;
    for (int j = 0; j < L->nlocal && rc == 0; j++) {
        slab *sl = &L->slabs[j];
        for (int side = LOW; side <= HIGH && rc == 0; side++)
            for (int p = 0; p < 2 && rc == 0 && shared_link(L, neighbour(L, sl->index, side), !side); p++)
                rc = ls_gpu_open_shared(sl->dev->s, theirs[2 * j + side].handle[p], edge_bytes(L),
                                        "another rank's ghost planes", &sl->peer[side][p], err);
    }
    free(send);
    free(recv);
    return rc;
}

static void close_shared_links(life_slabs *L)
{
    for (int j = 0; j < L->nlocal; j++)
        for (int side = LOW; side <= HIGH; side++)
            for (int p = 0; p < 2; p++) {
                ls_gpu_close_shared(L->slabs[j].peer[side][p]);
                ls_gpu_free(L->slabs[j].staging[side][p]);
                L->slabs[j].peer[side][p] = L->slabs[j].staging[side][p] = NULL;
            }
}

/* Ghosts device to device between the ranks of a node where every rank
 * can open the others' buffers; where one cannot (a driver or container
 * that refuses CUDA IPC), every link of the job goes through host memory
 * and MPI, as it did before: a slower way, not an error. Collective. */
static void open_shared_links(life_slabs *L)
{
    L->sharing = L->job.size > 1;
    int any = 0;
    for (int i = 0; i < L->nslabs; i++)
        for (int side = LOW; side <= HIGH; side++)
            any |= shared_link(L, i, side);
    if (!any) {
        L->sharing = 0;
        return;
    }
    share_news *mine = calloc(2 * (size_t)L->nlocal + 1, sizeof *mine);
    share_news *theirs = calloc(2 * (size_t)L->nlocal + 1, sizeof *theirs);
    ls_error why = {0};
    int ok = mine && theirs && share_staging(L, mine, theirs, &why) == 0;
    free(mine);
    free(theirs);
    if (ls_job_count_failed(&L->job, ok) == 0)
        return;
    close_shared_links(L);
    L->sharing = 0;
}

/* Slab sl's edge on `side` into the staging buffer of its neighbour (on
 * another rank of the node) that this exchange writes. */
static int send_edge_shared(life_slabs *L, slab *sl, int side, ls_error *err)
{
    return life_gpu_planes_to(sl->gpu, edge_plane(L, sl, side), L->k, sl->peer[side][L->exchanges % 2], err);
}

/* The messages of an exchange with other ranks: each local edge that a
 * slab of another rank needs, and each local ghost that comes from one. */
static int rank_messages(life_slabs *L, ls_job_msg *sends, int *nsends, ls_job_msg *recvs, int *nrecvs,
                         ls_error *err)
{
    int me = L->job.rank;
    *nsends = *nrecvs = 0;
    for (int j = 0; j < L->nlocal; j++) {
        slab *sl = &L->slabs[j];
        for (int side = LOW; side <= HIGH; side++) {
            int other = neighbour(L, sl->index, side);
            if (job_rank(L, other) == me)
                continue;
            /* My edge on `side` is the ghost on the other side of that slab:
             * written into its staging (the message then says it is
             * there), or sent. */
            if (shared_link(L, other, !side)) {
                if (send_edge_shared(L, sl, side, err))
                    return -1;
                sl->token[0][side] = L->exchanges;
                sends[(*nsends)++] = (ls_job_msg){job_rank(L, other), TAG_GHOST + 2 * other + !side,
                                                  &sl->token[0][side], sizeof sl->token[0][side]};
            } else if (ghost_of(L, other, !side)) {
                if (fetch_edge(L, sl, side, err))
                    return -1;
                sends[(*nsends)++] = (ls_job_msg){job_rank(L, other), TAG_GHOST + 2 * other + !side,
                                                      sl->edge[side], edge_bytes(L)};
            }
            if (shared_link(L, sl->index, side))
                recvs[(*nrecvs)++] = (ls_job_msg){job_rank(L, other), TAG_GHOST + 2 * sl->index + side,
                                                  &sl->token[1][side], sizeof sl->token[1][side]};
            else if (sl->ghost[side])
                recvs[(*nrecvs)++] = (ls_job_msg){job_rank(L, other), TAG_GHOST + 2 * sl->index + side,
                                                      sl->received[side], edge_bytes(L)};
        }
    }
    /* The shared edges have reached the other ranks' devices before the
     * messages say so. */
    for (int i = 0; L->sharing && i < L->nlocal_devs; i++)
        if (L->local_devs[i].s->backend->gpu && ls_gpu_wait(L->local_devs[i].s, err))
            return -1;
    return 0;
}

/* Slab sl's ghost on `side` from another rank: from its staging buffer
 * (a shared link: the message said which exchange wrote it) or from the
 * planes that came by MPI. */
static int ghost_from_rank(life_slabs *L, slab *sl, int side, ls_error *err)
{
    if (!shared_link(L, sl->index, side))
        return put_ghost(L, sl, side, sl->received[side], err);
    if (sl->token[1][side] != L->exchanges)
        return ls_fail(err, "slab %d: its ghosts came from exchange %" PRIu64 " in exchange %" PRIu64
                            " (the ranks are out of step)",
                       sl->index, sl->token[1][side], L->exchanges);
    return life_gpu_planes_from(sl->gpu, ghost_plane(sl, side), L->k, sl->staging[side][L->exchanges % 2], err);
}

/* New ghosts for every slab of this rank from its neighbours' edges, once
 * every device is idle (wait_devices). */
static int exchange(life_slabs *L, ls_error *err)
{
    ls_job_msg sends[4], recvs[4]; /* only a rank's first and last slab talk to other ranks */
    ls_job_msg *send = sends, *recv = recvs;
    int nsends = 0, nrecvs = 0, rc = 0;
    if (L->nlocal > 2 && !(send = calloc(2 * (size_t)L->nlocal, sizeof *send)))
        return ls_fail(err, "out of memory");
    if (L->nlocal > 2 && !(recv = calloc(2 * (size_t)L->nlocal, sizeof *recv)))
        rc = ls_fail(err, "out of memory");
    if (rc == 0)
        rc = rank_messages(L, send, &nsends, recv, &nrecvs, err);
    if (rc == 0)
        rc = ls_job_exchange(&L->job, send, nsends, recv, nrecvs, err);
    for (int j = 0; j < L->nlocal && rc == 0; j++) {
        slab *sl = &L->slabs[j];
        for (int side = LOW; side <= HIGH && rc == 0; side++) {
            if (!sl->ghost[side])
                continue;
            slab *from = local_slab(L, neighbour(L, sl->index, side));
            if (!from)
                rc = ghost_from_rank(L, sl, side, err);
            else if (device_to_device(sl, from))
                rc = life_gpu_copy_planes(sl->gpu, ghost_plane(sl, side), from->gpu, edge_plane(L, from, !side), L->k,
                                          err);
            else if ((rc = fetch_edge(L, from, !side, err)) == 0)
                rc = put_ghost(L, sl, side, from->edge[!side], err);
        }
    }
    for (int j = 0; j < L->nlocal; j++)
        L->slabs[j].edge_fresh[LOW] = L->slabs[j].edge_fresh[HIGH] = 0;
    L->exchanges++;
    if (send != sends)
        free(send);
    if (recv != recvs)
        free(recv);
    return rc;
}

/* ---- running ------------------------------------------------------------------ */

/* Launches e generations of every slab of GPU device d, without waiting. */
static int launch_slabs(life_slabs *L, local_device *d, life_rule r, uint32_t e, ls_error *err)
{
    for (int j = 0; j < L->nlocal; j++)
        if (L->slabs[j].dev == d && life_gpu_launch(L->slabs[j].gpu, r, e, err))
            return -1;
    return 0;
}

/* Starts GPU device d's timer, once its kernels have been looked up (a
 * first lookup builds the program): launching no generations does that. */
static int start_device(life_slabs *L, local_device *d, life_rule r, ls_error *err)
{
    if (launch_slabs(L, d, r, 0, err))
        return -1;
    return ls_gpu_timer_start(d->s, err);
}

/* Waits for every GPU device of this rank, which ran e generations,
 * adding their time. */
static int wait_devices(life_slabs *L, uint64_t e, ls_error *err)
{
    for (int i = 0; i < L->nlocal_devs; i++) {
        local_device *d = &L->local_devs[i];
        double seconds = 0;
        uint64_t rejected = ls_gpu_timer_rejected(d->s);
        if (d->s->backend->gpu && ls_gpu_timer_stop(d->s, e, &seconds, err))
            return -1;
        d->seconds += seconds;
        d->timer_rejected |= ls_gpu_timer_rejected(d->s) != rejected;
    }
    return 0;
}

/* Waits for whatever is queued on this rank's GPU devices (the upload,
 * ghost writes), outside any timing: the backend's own timer pair, whose
 * figure is thrown away, not ls_gpu_timer's (nothing here is timed). */
static int settle_devices(life_slabs *L, ls_error *err)
{
    for (int i = 0; i < L->nlocal_devs; i++) {
        ls_device *d = L->local_devs[i].s;
        if (d->backend->gpu && ls_gpu_wait(d, err))
            return -1;
    }
    return 0;
}

/* Whether this rank's epochs may follow each other with no wait on the
 * host: the job is this process, every slab is on a GPU and every ghost
 * comes from another slab's device by the backend's copy, which orders
 * itself after the kernels queued on both devices and before their next
 * (gpu.h's copy). Elsewhere an exchange goes through the host or MPI,
 * which need the edges finished, and the CPU slabs run on this thread. */
static int pipelined(life_slabs *L)
{
    if (L->nslabs < 2 || L->job.size > 1)
        return 0;
    for (int j = 0; j < L->nlocal; j++) {
        slab *sl = &L->slabs[j];
        if (!sl->gpu)
            return 0;
        for (int side = LOW; side <= HIGH; side++) {
            slab *from = sl->ghost[side] ? local_slab(L, neighbour(L, sl->index, side)) : sl;
            if (!from || !device_to_device(sl, from))
                return 0;
        }
    }
    return 1;
}

/* e generations of every slab of this rank, then the exchange; `wait`:
 * the GPUs' timers run for this epoch alone, and the host waits for them
 * before the exchange. */
static int epoch(life_slabs *L, life_rule r, uint32_t e, int wait, ls_error *err)
{
    /* The GPUs run while the host runs the OpenMP slabs. */
    for (int i = 0; i < L->nlocal_devs; i++) {
        local_device *d = &L->local_devs[i];
        if (d->s->backend->gpu && wait && start_device(L, d, r, err))
            return -1;
        if (d->s->backend->gpu && launch_slabs(L, d, r, e, err))
            return -1;
    }
    for (int j = 0; j < L->nlocal; j++) {
        slab *sl = &L->slabs[j];
        if (sl->cpu) {
            double t0 = ls_now();
            life_cpu_steps(sl->cpu, &sl->grid, r, e);
            sl->dev->seconds += ls_now() - t0;
        }
        sl->dev->items += (uint64_t)sl->owned * L->plane_cells * e;
    }
    if (wait && wait_devices(L, e, err))
        return -1;
    return L->nslabs > 1 ? exchange(L, err) : 0;
}

/* n generations in epochs queued back to back on the GPUs (pipelined),
 * timed from the first launch to the end of the last. */
static int steps_pipelined(life_slabs *L, life_rule r, uint64_t n, ls_error *err)
{
    for (int i = 0; i < L->nlocal_devs; i++)
        if (start_device(L, &L->local_devs[i], r, err))
            return -1;
    for (uint64_t left = n; left > 0;) {
        uint32_t e = (uint32_t)(left < L->k ? left : L->k);
        if (epoch(L, r, e, 0, err))
            return -1;
        left -= e;
    }
    return wait_devices(L, n, err);
}

int life_slabs_steps(life_slabs *L, life_rule r, uint64_t n, double *seconds, ls_error *err)
{
    /* One slab is the whole grid: an epoch as long as asked (the launch
     * takes a 32-bit count), no exchange. */
    uint64_t longest = L->nslabs > 1 ? L->k : UINT32_MAX;
    double t0 = ls_now(), device0 = L->nlocal_devs ? L->local_devs[0].seconds : 0;
    if (L->pipelined) {
        if (n > 0 && steps_pipelined(L, r, n, err))
            return -1;
    } else {
        for (uint64_t left = n; left > 0;) {
            uint32_t e = (uint32_t)(left < longest ? left : longest);
            if (epoch(L, r, e, 1, err))
                return -1;
            left -= e;
        }
    }
    /* The job's one device: its own time (a GPU's timer); several: the wall's. */
    *seconds = L->census.ndevices == 1 ? L->local_devs[0].seconds - device0 : ls_now() - t0;
    return 0;
}

static int load_slabs(life_slabs *L, const life_grid *shape, life_plane_source *src, slab_news *news,
                      ls_error *err);
static int news_gather(life_slabs *L, const life_grid *shape, slab_news *n, uint64_t *population, uint64_t *digest,
                       ls_error *err);
static void news_close(slab_news *n);

int life_slabs_start(ls_set *set, const life_grid *g, const life_fill_spec *fill, life_plane_source *source,
                     uint64_t slabs, uint64_t halo, life_slabs **out, ls_error *err)
{
    *out = NULL;
    life_slabs *L = calloc(1, sizeof *L);
    if (!L)
        return ls_fail(err, "out of memory");
    L->job = set->job;
    L->dims = g->dims;
    L->bounded = g->bounded;
    L->planes = g->dims == 3 ? g->nz : g->ny;
    L->plane_words = (size_t)g->row_words * (g->dims == 3 ? g->ny : 1u);
    L->plane_cells = (uint64_t)g->nx * (g->dims == 3 ? g->ny : 1u);
    /* Rank 0's --slabs and --halo for all: the cut must be the same on
     * every rank, even were these left out of what the ranks compare. */
    uint64_t asked[2] = {slabs, halo};
    int rc = ls_job_bcast(&L->job, asked, sizeof asked, err);
    if (rc == 0)
        rc = open_local_devices(L, set, err);
    /* Every rank takes part in each step, whatever the last gave, so that
     * none waits for another that has given up. */
    if (ls_census_take(set, rc != 0, slab_memory, &L->census, err) != 0)
        rc = -1;
    if (rc == 0)
        rc = plan(L, g, asked[0], asked[1], err); /* the same outcome on every rank */
    if (rc == 0)
        rc = open_slabs(L, g, fill, source != NULL, err);
    slab_news news = {0};
    if (rc == 0 && source)
        rc = load_slabs(L, g, source, &news, err);
    /* A rank that could not (a device short of memory, a bad cell in its
     * planes of the file) is named on every rank, which all stop. */
    rc = ls_job_agree(&L->job, rc, err);
    if (rc == 0 && source && source->hash)
        rc = news_gather(L, g, &news, &source->population, &source->digest, err);
    news_close(&news);
    /* The owned planes have reached the devices (g may go); the ghosts
     * come from the neighbours. */
    if (rc == 0)
        open_shared_links(L);
    if (rc == 0)
        rc = settle_devices(L, err);
    if (rc == 0)
        rc = exchange(L, err);
    L->pipelined = rc == 0 && pipelined(L) && !getenv("LOCKSTEP_DEBUG_EPOCH_WAIT");
    if (rc) {
        life_slabs_stop(L);
        return -1;
    }
    *out = L;
    return 0;
}

/* ---- results -------------------------------------------------------------------- */

/* Slab sl's owned planes where rank 0 can have them: into dst on rank 0,
 * else in host memory (*src) to send. */
static int owned_planes(life_slabs *L, slab *sl, uint32_t *dst, const uint32_t **src, ls_error *err)
{
    size_t bytes = sl->owned * L->plane_words * sizeof(uint32_t);
    if (!sl->gpu) {
        const uint32_t *own = sl->grid.words + (size_t)sl->ghost[LOW] * L->plane_words;
        if (dst)
            memcpy(dst, own, bytes);
        *src = own;
        return 0;
    }
    if (!dst && !sl->scratch) {
        if (!(sl->scratch = life_alloc_cells(bytes)))
            return ls_fail(err, "out of memory for %.1f MiB of slab %d", (double)bytes / (1 << 20), sl->index);
        life_touch_words(sl->scratch, bytes / sizeof(uint32_t)); /* faulted in by every thread, not by the copy */
    }
    *src = dst ? dst : sl->scratch;
    return life_gpu_read_planes(sl->gpu, sl->ghost[LOW], sl->owned, dst ? dst : sl->scratch, err);
}

int life_slabs_gather(life_slabs *L, life_grid *g, ls_error *err)
{
    int root = L->job.rank == 0, nsends = 0, nrecvs = 0, rc = 0;
    ls_job_msg *send = calloc((size_t)L->nlocal + 1, sizeof *send);
    ls_job_msg *recv = calloc((size_t)(root ? L->nslabs : 0) + 1, sizeof *recv);
    if (!send || !recv)
        rc = ls_fail(err, "out of memory");
    for (int j = 0; j < L->nlocal && rc == 0; j++) {
        slab *sl = &L->slabs[j];
        const uint32_t *src = NULL;
        rc = owned_planes(L, sl, root ? g->words + (size_t)sl->first * L->plane_words : NULL, &src, err);
        if (rc == 0 && !root)
            send[nsends++] = (ls_job_msg){0, TAG_GATHER + sl->index, (void *)src,
                                              sl->owned * L->plane_words * sizeof(uint32_t)};
    }
    for (int i = 0; root && i < L->nslabs && rc == 0; i++)
        if (job_rank(L, i) != 0)
            recv[nrecvs++] = (ls_job_msg){job_rank(L, i), TAG_GATHER + i, g->words + (size_t)L->first[i] * L->plane_words,
                                              L->owned[i] * L->plane_words * sizeof(uint32_t)};
    if (rc == 0)
        rc = ls_job_exchange(&L->job, send, nsends, recv, nrecvs, err);
    free(send);
    free(recv);
    return rc;
}

/* A GPU slab's planes cross between host and device in pieces (to be
 * counted and hashed, written to a file, or read from one), through two
 * page-locked buffers the slab keeps: the host never holds a slab whole
 * (a slab of a grid larger than a GPU is tens of GiB). A piece is a 32nd
 * of the slab, between these bounds: each piece pays a wait, a thread and
 * a copy's start, and page locking costs in proportion to the buffers'
 * size (docs/perf/README.md, 2026-11-26). */
#define SUMMARY_PIECE_MIN ((size_t)8 << 20)
#define SUMMARY_PIECE_MAX ((size_t)64 << 20)
#define SUMMARY_PIECE_ENV "LOCKSTEP_DEBUG_SUMMARY_PIECE" /* another size, for the tests */

/* The size of a piece of a slab of `slab` bytes, or the tests' own. */
static int piece_bytes(size_t slab, size_t *out, ls_error *err)
{
    const char *text = getenv(SUMMARY_PIECE_ENV);
    size_t part = slab / 32;
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
 * hashed into hashes[from ..] when hashes is given (a unit is a plane
 * along the cut axis, seeded with its index in the whole grid). */
static uint64_t summarise_planes(const life_slabs *L, const slab *sl, const life_grid *shape, const uint32_t *src,
                                 uint32_t from, uint32_t n, uint64_t *hashes)
{
    life_grid view;
    life_grid_shape(&view, L->dims, shape->nx, L->dims == 3 ? shape->ny : n, L->dims == 3 ? n : 1);
    view.words = (uint32_t *)src;
    if (hashes)
        life_grid_unit_hashes(&view, sl->first + from, hashes + from);
    return life_grid_population(&view);
}

/* What a pass over the slabs' owned planes does with each piece of a
 * slab on the host: planes [from, from + n) of slab sl's owned planes, at
 * `planes` (which a pass that fills the slabs writes). 0, or -1 with err
 * set. */
typedef int (*piece_fn)(void *arg, const life_slabs *L, const slab *sl, uint32_t *planes, uint32_t from,
                        uint32_t n, ls_error *err);

/* Planes [from, from + n) of a GPU slab read into a host buffer, on a
 * thread of its own while the last piece is worked on. */
typedef struct piece_read {
    life_gpu_state *gpu;
    uint32_t from, n;
    void *dst;
    int rc;
    ls_error err;
} piece_read;

static void *read_piece(void *arg)
{
    piece_read *pr = arg;
    pr->rc = life_gpu_read_planes(pr->gpu, pr->from, pr->n, pr->dst, &pr->err);
    return NULL;
}

/* Planes a piece of GPU slab sl holds (piece_bytes), in its page-locked
 * buffers (sl->piece: two when the slab takes more than one piece; made
 * at the first pass, kept until stop). */
static int piece_planes(const life_slabs *L, slab *sl, uint32_t *per, ls_error *err)
{
    size_t plane_bytes = L->plane_words * sizeof(uint32_t), piece;
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

/* Planes of GPU slab sl's piece that starts at owned plane `from`. */
static uint32_t piece_length(const slab *sl, uint32_t from, uint32_t per)
{
    return sl->owned - from < per ? sl->owned - from : per;
}

/* fn over GPU slab sl's owned planes, a piece at a time through its two
 * page-locked buffers, the next piece crossing the bus (read_piece: the
 * backends select their device in each call, so any host thread may
 * read) while fn works on this one. */
static int each_piece(const life_slabs *L, slab *sl, piece_fn fn, void *arg, ls_error *err)
{
    uint32_t per;
    if (piece_planes(L, sl, &per, err))
        return -1;
    piece_read next = {.gpu = sl->gpu, .from = sl->ghost[LOW], .n = per, .dst = sl->piece[0]};
    read_piece(&next);
    int rc = next.rc;
    if (rc)
        *err = next.err;
    for (uint32_t from = 0, b = 0; from < sl->owned && rc == 0; from += per, b ^= 1) {
        uint32_t n = piece_length(sl, from, per), after = from + n;
        pthread_t reader;
        int reading = 0;
        if (after < sl->owned) {
            next = (piece_read){.gpu = sl->gpu, .from = sl->ghost[LOW] + after, .n = piece_length(sl, after, per),
                                .dst = sl->piece[b ^ 1]};
            reading = pthread_create(&reader, NULL, read_piece, &next) == 0;
            if (!reading)
                read_piece(&next); /* no thread: the read before the work, in turn */
        }
        rc = fn(arg, L, sl, sl->piece[b], from, n, err);
        if (reading)
            pthread_join(reader, NULL);
        if (rc == 0 && after < sl->owned && next.rc) {
            rc = -1;
            *err = next.err;
        }
    }
    return rc;
}

/* fn fills GPU slab sl's owned planes a piece at a time through its two
 * page-locked buffers in turn, each written to the device while fn fills
 * the other. */
static int fill_pieces(const life_slabs *L, slab *sl, piece_fn fn, void *arg, ls_error *err)
{
    uint32_t per;
    if (piece_planes(L, sl, &per, err))
        return -1;
    int rc = 0;
    for (uint32_t from = 0, b = 0; from < sl->owned && rc == 0; from += per, b ^= 1) {
        uint32_t n = piece_length(sl, from, per);
        /* This buffer's last write, two pieces ago, has run: the device
         * was waited for before the piece between was queued. */
        rc = fn(arg, L, sl, sl->piece[b], from, n, err);
        if (rc == 0 && from > 0)
            rc = ls_gpu_wait(sl->dev->s, err);
        if (rc == 0)
            rc = life_gpu_write_planes(sl->gpu, sl->ghost[LOW] + from, n, sl->piece[b], err);
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
    life_slabs *L;
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
    for (int j = 0; j < dp->L->nlocal && dp->rc == 0; j++) {
        slab *sl = &dp->L->slabs[j];
        if (sl->dev != dp->dev)
            continue;
        if (!sl->gpu) /* a CPU slab's planes are where its cells are */
            dp->rc = dp->fn(dp->arg, dp->L, sl, sl->grid.words + (size_t)sl->ghost[LOW] * dp->L->plane_words, 0,
                            sl->owned, &dp->err);
        else
            dp->rc = (dp->filling ? fill_pieces : each_piece)(dp->L, sl, dp->fn, dp->arg, &dp->err);
    }
    return NULL;
}

/* fn over every local slab's owned planes, a thread a device; `filling`:
 * fn fills them. */
static int pass_local(life_slabs *L, piece_fn fn, void *arg, int filling, ls_error *err)
{
    int n = L->nlocal_devs, cores = omp_get_max_threads(), rc = 0;
    device_pass *dp = calloc((size_t)n, sizeof *dp);
    pthread_t *threads = calloc((size_t)n, sizeof *threads);
    int *started = calloc((size_t)n, sizeof *started);
    if (!dp || !threads || !started)
        rc = ls_fail(err, "out of memory");
    for (int i = 0; i < n && rc == 0; i++) {
        dp[i] = (device_pass){.L = L, .dev = &L->local_devs[i], .fn = fn, .arg = arg, .filling = filling,
                              .threads = cores / n > 0 ? cores / n : 1};
        if (n == 1)
            pass_device(&dp[i]);
        else
            started[i] = pthread_create(&threads[i], NULL, pass_device, &dp[i]) == 0;
        if (n > 1 && !started[i])
            rc = ls_fail(err, "could not start a thread for the slabs of %s", L->local_devs[i].s->label);
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

static int news_open(const life_slabs *L, int hash, slab_news *n, ls_error *err)
{
    size_t total = 0;
    n->hash = hash;
    n->vals = NULL;
    n->at = calloc((size_t)L->nslabs + 1, sizeof *n->at);
    for (int i = 0; n->at && i < L->nslabs; i++) {
        n->at[i] = total;
        total += 1 + (hash ? L->owned[i] : 0);
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
static size_t news_bytes(const life_slabs *L, const slab_news *n, int i)
{
    return (1 + (n->hash ? L->owned[i] : 0)) * sizeof *n->vals;
}

/* Every slab's news to rank 0, which makes the population and, with hash,
 * the grid digest of the grid of shape's extents; the other ranks leave
 * *population and *digest alone. Collective. */
static int news_gather(life_slabs *L, const life_grid *shape, slab_news *n, uint64_t *population, uint64_t *digest,
                       ls_error *err)
{
    int root = L->job.rank == 0, nsends = 0, nrecvs = 0, rc = 0;
    ls_job_msg *send = calloc((size_t)L->nlocal + 1, sizeof *send);
    ls_job_msg *recv = calloc((size_t)L->nslabs + 1, sizeof *recv);
    if (!send || !recv)
        rc = ls_fail(err, "out of memory");
    for (int j = 0; j < L->nlocal && rc == 0 && !root; j++) {
        int i = L->slabs[j].index;
        send[nsends++] = (ls_job_msg){0, TAG_GATHER + i, n->vals + n->at[i], news_bytes(L, n, i)};
    }
    for (int i = 0; root && i < L->nslabs && rc == 0; i++)
        if (job_rank(L, i) != 0)
            recv[nrecvs++] = (ls_job_msg){job_rank(L, i), TAG_GATHER + i, n->vals + n->at[i], news_bytes(L, n, i)};
    if (rc == 0)
        rc = ls_job_exchange(&L->job, send, nsends, recv, nrecvs, err);
    free(send);
    free(recv);
    if (rc != 0 || !root)
        return rc;
    uint64_t *units = n->hash ? malloc((size_t)L->planes * sizeof *units) : NULL;
    if (n->hash && !units)
        return ls_fail(err, "out of memory");
    *population = 0;
    for (int i = 0; i < L->nslabs; i++) {
        *population += n->vals[n->at[i]];
        if (n->hash)
            memcpy(units + L->first[i], n->vals + n->at[i] + 1, L->owned[i] * sizeof *units);
    }
    if (n->hash)
        *digest = life_grid_digest_of_units(shape->nx, shape->ny, shape->nz, units, L->planes);
    free(units);
    return 0;
}

/* A pass that counts, and hashes, each piece into its slab's news. */
typedef struct summary_pass {
    const life_grid *shape;
    slab_news *news;
} summary_pass;

static int summary_piece(void *arg, const life_slabs *L, const slab *sl, uint32_t *planes, uint32_t from,
                         uint32_t n, ls_error *err)
{
    (void)err;
    const summary_pass *sp = arg;
    uint64_t *mine = sp->news->vals + sp->news->at[sl->index];
    mine[0] += summarise_planes(L, sl, sp->shape, planes, from, n, sp->news->hash ? mine + 1 : NULL);
    return 0;
}

int life_slabs_summary(life_slabs *L, const life_grid *shape, uint64_t *population, uint64_t *digest,
                       ls_error *err)
{
    slab_news news;
    summary_pass sp = {shape, &news};
    int rc = news_open(L, digest != NULL, &news, err);
    if (rc == 0)
        rc = pass_local(L, summary_piece, &sp, 0, err);
    if (rc == 0)
        rc = news_gather(L, shape, &news, population, digest, err);
    news_close(&news);
    return rc;
}

/* ---- a start read where the slabs live --------------------------------------- */

typedef struct load_pass {
    const life_plane_source *src;
    summary_pass summary; /* with src->hash */
} load_pass;

static int load_piece(void *arg, const life_slabs *L, const slab *sl, uint32_t *planes, uint32_t from,
                      uint32_t n, ls_error *err)
{
    load_pass *lp = arg;
    if (lp->src->read(lp->src->arg, sl->first + from, n, planes, err))
        return -1;
    return lp->src->hash ? summary_piece(&lp->summary, L, sl, planes, from, n, err) : 0;
}

/* Every local slab reads its owned planes (a thread a device), counted
 * and hashed into news with src->hash. */
static int load_slabs(life_slabs *L, const life_grid *shape, life_plane_source *src, slab_news *news,
                      ls_error *err)
{
    double t0 = ls_now();
    load_pass lp = {src, {shape, news}};
    int rc = news_open(L, src->hash, news, err);
    if (rc == 0)
        rc = pass_local(L, load_piece, &lp, 1, err);
    src->seconds = ls_now() - t0;
    return rc;
}

/* ---- a file written where the slabs live --------------------------------------- */

/* A pass that writes each piece's rows at their offsets, counted and
 * hashed into its slab's news. */
typedef struct write_pass {
    const life_pieces *pieces;
    summary_pass summary;
} write_pass;

static int write_piece(void *arg, const life_slabs *L, const slab *sl, uint32_t *planes, uint32_t from,
                       uint32_t n, ls_error *err)
{
    write_pass *wp = arg;
    const life_grid *shape = wp->summary.shape;
    uint32_t rows_a_plane = L->dims == 3 ? shape->ny : 1u;
    life_grid rows;
    life_grid_shape(&rows, 3, shape->nx, rows_a_plane, n);
    rows.words = planes;
    summary_piece(&wp->summary, L, sl, planes, from, n, err);
    return life_pieces_write_rows(wp->pieces, &rows, ((uint64_t)sl->first + from) * rows_a_plane, err);
}

/* What rank 0 tells the others of the file: whether it is written in
 * pieces, where, and what they must find at its first cell to know that
 * they opened the same file. */
typedef struct file_plan {
    int32_t pieces; /* 1: in pieces; 0: gathered instead; -1: rank 0 failed */
    uint32_t unused;
    uint64_t token;
    char tmp[4096];
} file_plan;

/* Rank 0's temporary file for every rank: its plan, and p its layout and
 * descriptor (mapped when the job is this process alone). */
static int plan_file(life_slabs *L, life_out *out, const char *path, life_format fmt, const life_grid *shape,
                     const life_meta *meta, file_plan *plan, life_pieces *p, ls_error *err)
{
    memset(plan, 0, sizeof *plan);
    char *tmp = NULL;
    if (life_out_pieces_open(out, path, fmt, shape, meta, L->job.size == 1, p, &tmp, err) != 0) {
        plan->pieces = -1;
        return -1;
    }
    if (!tmp)
        return 0;
    life_pieces_prefault(p);
    plan->pieces = strlen(tmp) < sizeof plan->tmp;
    snprintf(plan->tmp, sizeof plan->tmp, "%s", tmp);
    free(tmp);
    if (L->job.size == 1)
        return 0;
    plan->token = ((uint64_t)getpid() << 32) ^ (uint64_t)(ls_now() * 1e9) ^ 0x9e3779b97f4a7c15ull;
    /* The first cell is slab 0's, rank 0's: overwritten by its own rows (a
     * native file's first cells and its trailer, when it has fewer than 8
     * bytes of cells, by rank 0 too). */
    if (plan->pieces &&
        (pwrite(p->fd, &plan->token, sizeof plan->token, (off_t)p->head) != (ssize_t)sizeof plan->token ||
         fdatasync(p->fd) != 0))
        plan->pieces = 0;
    if (!plan->pieces)
        life_out_abort(out);
    return 0;
}

/* A rank but 0: rank 0's file opened, p its layout; 1 when it holds the
 * token rank 0 wrote (the same file, where the ranks share it). */
static int open_planned(const file_plan *plan, life_format fmt, const life_grid *shape, const life_meta *meta,
                        life_pieces *p)
{
    uint64_t seen = 0;
    life_pieces_layout(p, fmt, shape, meta);
    p->fd = open(plan->tmp, O_WRONLY | O_CLOEXEC);
    int rfd = p->fd >= 0 ? open(plan->tmp, O_RDONLY | O_CLOEXEC) : -1;
    int ok = rfd >= 0 && pread(rfd, &seen, sizeof seen, (off_t)p->head) == (ssize_t)sizeof seen &&
             seen == plan->token;
    if (rfd >= 0)
        close(rfd);
    return ok;
}

/* Every rank writes its slabs' rows, with their news to rank 0, which
 * writes the native trailer: 0, or -1 with err set on every rank. */
static int write_slabs(life_slabs *L, const char *path, const life_grid *shape, life_pieces *p,
                       uint64_t *population, uint64_t *digest, ls_error *err)
{
    int root = L->job.rank == 0;
    slab_news news;
    write_pass wp = {p, {shape, &news}};
    int rc = news_open(L, 1, &news, err);
    if (rc == 0)
        rc = pass_local(L, write_piece, &wp, 0, err);
    if (!root && close(p->fd) != 0 && rc == 0)
        rc = ls_fail(err, "%s", strerror(errno));
    if (rc != 0 && !err->usage) {
        char why[sizeof err->msg];
        memcpy(why, err->msg, sizeof why);
        ls_fail(err, "cannot write %s: %s", path, why);
    }
    rc = ls_job_agree(&L->job, rc, err);
    if (rc == 0)
        rc = news_gather(L, shape, &news, population, digest, err);
    if (rc == 0 && root && life_pieces_finish(p, *digest, err) != 0) {
        char why[sizeof err->msg];
        memcpy(why, err->msg, sizeof why);
        rc = ls_fail(err, "cannot write %s: %s", path, why);
    }
    news_close(&news);
    return ls_job_agree(&L->job, rc, err);
}

int life_slabs_write_file(life_slabs *L, life_out *out, const char *path, life_format fmt, const life_grid *shape,
                          const life_meta *meta, uint64_t *population, uint64_t *digest, ls_error *err)
{
    int root = L->job.rank == 0;
    file_plan plan;
    life_pieces p;
    if (fmt == LIFE_FORMAT_PKU && (L->dims != 3 || L->plane_cells != (uint64_t)L->planes * L->planes))
        return 1; /* no cube: the writer refuses it, as for a whole grid */
    int rc = root ? plan_file(L, out, path, fmt, shape, meta, &plan, &p, err) : 0;
    if (ls_job_bcast(&L->job, &plan, sizeof plan, err) != 0)
        return -1;
    if (plan.pieces < 0)
        return ls_job_agree(&L->job, rc, err); /* rank 0's message on every rank */
    if (plan.pieces == 0)
        return 1;
    /* Every other rank opens the same file, or every rank gathers. */
    int ok = root || open_planned(&plan, fmt, shape, meta, &p);
    if (ls_job_count_failed(&L->job, ok) != 0) {
        if (!root && p.fd >= 0)
            close(p.fd);
        if (root)
            life_out_abort(out);
        return 1;
    }
    rc = write_slabs(L, path, shape, &p, population, digest, err);
    if (rc != 0 && root)
        life_out_abort(out);
    return rc;
}

int life_slabs_report(life_slabs *L, ls_set_report *st, double wall_seconds, ls_error *err)
{
    ls_device_work *mine = calloc((size_t)L->nlocal_devs + 1, sizeof *mine);
    if (!mine)
        return ls_fail(err, "out of memory");
    for (int i = 0; i < L->nlocal_devs; i++) {
        const local_device *d = &L->local_devs[i];
        mine[i] = (ls_device_work){d->items, d->seconds, !d->s->backend->gpu || d->timer_rejected, d->timer_rejected};
    }
    int rc = ls_census_report(&L->job, &L->census, mine, wall_seconds, st, err);
    free(mine);
    return rc;
}

void life_slabs_stop(life_slabs *L)
{
    if (!L)
        return;
    /* Ghost writes may still be queued from the host buffers freed below. */
    ls_error ignored;
    settle_devices(L, &ignored);
    close_shared_links(L);
    for (int j = 0; j < L->nlocal; j++) {
        slab *sl = &L->slabs[j];
        if (sl->gpu)
            for (int b = 0; b < 2; b++)
                ls_gpu_free_host(sl->dev->s, sl->piece[b]);
        for (int side = LOW; side <= HIGH; side++) {
            if (sl->gpu) {
                ls_gpu_free_host(sl->dev->s, sl->edge[side]);
                ls_gpu_free_host(sl->dev->s, sl->received[side]);
            } else {
                free(sl->edge[side]);
                free(sl->received[side]);
            }
        }
        life_gpu_stop(sl->gpu);
        life_cpu_stop(sl->cpu);
        if (!sl->gpu)
            life_grid_free(&sl->grid);
        free(sl->scratch);
    }
    free(L->slabs);
    free(L->local_devs);
    ls_census_free(&L->census);
    free(L->first);
    free(L->owned);
    free(L->device_of);
    free(L);
}
