/* set_run.c - see set_run.h.
 *
 * Rank 0 (the only rank without MPI) runs the scheduler on its main
 * thread: it hands chunks to workers, collects what they computed, folds
 * the finished prefix in order and reports progress. A worker is one
 * device: a local one is driven by its own thread (the device's API calls
 * all happen there); a remote one is a device of another rank, reached by
 * MPI messages, whose rank runs serve() below with a thread per device.
 * Only main threads call MPI. */
#define _POSIX_C_SOURCE 200809L
#include "set_run.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chunks.h"
#include "cluster.h"
#include "gpu_timer.h"
#include "progress.h"

/* ---- byte strings ----------------------------------------------------------- */

int ls_bytes_put(ls_bytes *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *d = realloc(b->data, cap);
        if (!d)
            return -1;
        b->data = d;
        b->cap = cap;
    }
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    return 0;
}

void ls_bytes_free(ls_bytes *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

const unsigned char *ls_bytes_take(ls_bytes_reader *r, size_t n)
{
    if (r->left < n)
        return NULL;
    const unsigned char *at = r->p;
    r->p += n;
    r->left -= n;
    return at;
}

int ls_bytes_get(ls_bytes_reader *r, void *out, size_t n)
{
    const unsigned char *at = ls_bytes_take(r, n);
    if (!at)
        return -1;
    memcpy(out, at, n);
    return 0;
}

/* ---- messages between ranks ------------------------------------------------- */

enum { TAG_ASSIGN = 72, TAG_RESULT, TAG_STOP };

/* A chunk for device `slot` of the receiving rank; n == 0: no more, and
 * then stop_signal says whether the run stopped early on a signal (its
 * number; 0: the work was all handed out, or an error ended it). */
typedef struct assign_msg {
    int32_t slot;
    uint32_t hint_len;
    int32_t stop_signal, unused;
    uint64_t seq, lo, n;
    unsigned char hint[LS_SET_HINT_MAX];
} assign_msg;

/* Followed by the chunk's bytes, or by an error message when rc != 0. */
typedef struct result_head {
    int32_t slot, rc;
    uint64_t seq;
    double seconds;
    /* The clock of the seconds (ls_clock): the wall clock, and whether
     * because a GPU's timer read a figure that could not be right. */
    int32_t wall_clock, timer_rejected;
} result_head;

/* ---- workers ------------------------------------------------------------------ */

typedef struct worker {
    ls_job_device of; /* the device as the census has it: its rank, slot there, kind, label, host */
    ls_device *dev;   /* a local device; NULL for a remote one */
    ls_chunks sizer;
    int busy;       /* holds chunk `seq` */
    uint64_t seq, lo, n;
    int retired;    /* told there is no more */
    int lost;       /* held a chunk past LS_SET_LOST_SECONDS: presumed dead */
    double since;   /* when it was handed its chunk */
    uint64_t items;
    double seconds;
    int wall_clock;     /* a chunk was timed by the wall clock: a CPU's, or a GPU's rejected timer's */
    int timer_rejected; /* a chunk's GPU timing was rejected (gpu_timer.h) */
    /* The local thread's mailbox, under the runner's lock. */
    pthread_t thread;
    int started;
    pthread_cond_t wake;
    int has_job, quit;
    unsigned char hint[LS_SET_HINT_MAX];
    size_t hint_len;
    int finished, rc;
    ls_bytes out;
    double secs;
    int secs_wall, secs_rejected;
    ls_error err;
} worker;

/* A chunk handed out and not folded yet. */
typedef struct chunk {
    uint64_t seq, lo, n;
    int w;
    int done, rc;
    ls_bytes bytes;
    double seconds;
    char error[512];
} chunk;

typedef struct runner {
    const ls_set_ops *ops;
    void *job;
    pthread_mutex_t lock;
    pthread_cond_t changed; /* a local worker finished */
    worker *w;
    int nw;
    chunk *pending; /* in order of lo */
    int npending, room;
    uint64_t seq;
    uint64_t folded_to; /* the first item not folded yet */
    ls_job ranks;       /* the set's job: this rank among how many */
    int stopped_early;  /* a serving rank: rank 0 ended the run on a signal */
} runner;

/* The loop of a local device's thread: one chunk at a time. */
static void *device_thread(void *arg)
{
    void **a = arg;
    runner *sp = a[0];
    worker *w = a[1];
    free(arg);
    pthread_mutex_lock(&sp->lock);
    for (;;) {
        while (!w->has_job && !w->quit)
            pthread_cond_wait(&w->wake, &sp->lock);
        if (w->quit)
            break;
        uint64_t lo = w->lo, n = w->n;
        pthread_mutex_unlock(&sp->lock);
        ls_bytes out = {0};
        ls_error err = {{0}, 0};
        double secs = 0;
        uint64_t rejected = ls_gpu_timer_rejected(w->dev);
        int rc = sp->ops->compute(sp->job, w->dev, lo, n, w->hint_len ? w->hint : NULL, w->hint_len, &out, &secs,
                                  &err);
        int secs_rejected = ls_gpu_timer_rejected(w->dev) != rejected;
        int secs_wall = ls_device_timed_by_wall(w->dev) || secs_rejected;
        pthread_mutex_lock(&sp->lock);
        w->has_job = 0;
        w->finished = 1;
        w->rc = rc;
        w->out = out;
        w->secs = secs;
        w->secs_wall = secs_wall;
        w->secs_rejected = secs_rejected;
        w->err = err;
        pthread_cond_broadcast(&sp->changed);
    }
    pthread_mutex_unlock(&sp->lock);
    return NULL;
}

static int start_thread(runner *sp, worker *w, ls_error *err)
{
    void **arg = malloc(2 * sizeof *arg);
    if (!arg)
        return ls_fail(err, "out of memory starting a thread for %s", w->of.label);
    arg[0] = sp;
    arg[1] = w;
    pthread_cond_init(&w->wake, NULL);
    int rc = pthread_create(&w->thread, NULL, device_thread, arg);
    if (rc != 0) {
        free(arg);
        pthread_cond_destroy(&w->wake);
        return ls_fail(err, "could not start a thread for %s: %s", w->of.label, strerror(rc));
    }
    w->started = 1;
    return 0;
}

/* Gives a local worker a chunk (under no lock: takes it). */
static void give_local(runner *sp, worker *w, const void *hint, size_t hint_len)
{
    pthread_mutex_lock(&sp->lock);
    memcpy(w->hint, hint, hint_len);
    w->hint_len = hint_len;
    w->has_job = 1;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&sp->lock);
}

static void stop_threads(runner *sp)
{
    pthread_mutex_lock(&sp->lock);
    for (int i = 0; i < sp->nw; i++)
        if (sp->w[i].started) {
            sp->w[i].quit = 1;
            pthread_cond_signal(&sp->w[i].wake);
        }
    pthread_mutex_unlock(&sp->lock);
    for (int i = 0; i < sp->nw; i++)
        if (sp->w[i].started) {
            pthread_join(sp->w[i].thread, NULL);
            pthread_cond_destroy(&sp->w[i].wake);
            sp->w[i].started = 0;
        }
}

/* A device of the job's census as a worker: on rank 0 every device of the
 * job, on another rank its own. */
static void census_worker(worker *w, const ls_job_device *of, ls_set *set)
{
    memset(w, 0, sizeof *w);
    w->of = *of;
    w->dev = of->rank == set->job.rank ? &set->dev[of->slot] : NULL;
}

/* The workers: the job's devices (collective: every rank takes the census). */
static int census_workers(runner *sp, ls_set *set, ls_error *err)
{
    ls_census c;
    if (ls_census_take(set, 0, NULL, &c, err))
        return -1;
    int root = set->job.rank == 0, lo = root ? 0 : c.rank_first[set->job.rank];
    int n = root ? c.ndevices : c.rank_first[set->job.rank + 1] - lo;
    sp->w = calloc((size_t)n, sizeof *sp->w);
    if (!sp->w) {
        ls_census_free(&c);
        return ls_fail(err, "out of memory for %d devices", n);
    }
    for (int i = 0; i < n; i++)
        census_worker(&sp->w[i], &c.dev[lo + i], set);
    sp->nw = n;
    ls_census_free(&c);
    return 0;
}

/* ---- the ranks other than 0: compute what rank 0 hands out ------------------- */

static int serve(runner *sp, ls_error *err)
{
    for (int i = 0; i < sp->nw; i++)
        if (start_thread(sp, &sp->w[i], err) != 0)
            return -1;
    int live = sp->nw, rc = 0, told = 0;
    while (live > 0 && rc == 0) {
        /* A stop signal may come to any rank (a batch system signals
         * every process, a user one of them): rank 0 decides for all. */
        if (!told && ls_progress_interrupted()) {
            int32_t sig = ls_progress_signal();
            if (ls_cluster_send(0, TAG_STOP, &sig, sizeof sig, err) != 0)
                return -1;
            told = 1;
        }
        int from, tag;
        void *data;
        size_t len;
        int got = ls_cluster_poll(&from, &tag, &data, &len, err);
        if (got < 0)
            return -1;
        if (got) {
            assign_msg a;
            if (tag != TAG_ASSIGN || len != sizeof a) {
                free(data);
                return ls_fail(err, "rank %d: unexpected message (tag %d, %zu bytes) from rank %d",
                               sp->ranks.rank, tag, len, from);
            }
            memcpy(&a, data, sizeof a);
            free(data);
            if (a.slot < 0 || a.slot >= sp->nw || a.hint_len > LS_SET_HINT_MAX)
                return ls_fail(err, "rank %d: a chunk for device %d, which it does not have", sp->ranks.rank,
                               a.slot);
            worker *w = &sp->w[a.slot];
            if (a.n == 0) {
                w->retired = 1;
                live--;
                if (a.stop_signal > 0) {
                    ls_progress_stop(a.stop_signal);
                    sp->stopped_early = 1;
                }
                continue;
            }
            w->seq = a.seq;
            w->lo = a.lo;
            w->n = a.n;
            w->busy = 1;
            give_local(sp, w, a.hint, a.hint_len);
            continue;
        }
        /* Send back what the devices finished; wait a little when nothing
         * happened (messages are polled: only this thread calls MPI). */
        int sent = 0;
        for (int i = 0; i < sp->nw && rc == 0; i++) {
            worker *w = &sp->w[i];
            pthread_mutex_lock(&sp->lock);
            int fin = w->finished;
            w->finished = 0;
            pthread_mutex_unlock(&sp->lock);
            if (!fin)
                continue;
            result_head rh = {w->of.slot, w->rc, w->seq, w->secs, w->secs_wall, w->secs_rejected};
            ls_bytes msg = {0};
            const char *body = w->rc == 0 ? (const char *)w->out.data : w->err.msg;
            size_t body_len = w->rc == 0 ? w->out.len : strlen(w->err.msg) + 1;
            if (ls_bytes_put(&msg, &rh, sizeof rh) != 0 || ls_bytes_put(&msg, body, body_len) != 0)
                rc = ls_fail(err, "out of memory for a result of %zu bytes", body_len);
            else
                rc = ls_cluster_send(0, TAG_RESULT, msg.data, msg.len, err);
            ls_bytes_free(&msg);
            ls_bytes_free(&w->out);
            w->busy = 0;
            sent = 1;
        }
        if (!sent)
            nanosleep(&(struct timespec){0, 200000}, NULL);
    }
    return rc;
}

/* ---- rank 0: hand out, collect, fold ------------------------------------------ */

static chunk *find_chunk(runner *sp, uint64_t seq)
{
    for (int i = 0; i < sp->npending; i++)
        if (sp->pending[i].seq == seq)
            return &sp->pending[i];
    return NULL;
}

/* Records a worker's finished chunk. */
static void finish_chunk(runner *sp, worker *w, int rc, ls_bytes *out, double secs, int secs_wall,
                         int secs_rejected, const char *error)
{
    chunk *c = find_chunk(sp, w->seq);
    w->busy = 0;
    if (!c) { /* cannot happen: a chunk stays pending until folded */
        ls_bytes_free(out);
        return;
    }
    c->done = 1;
    c->rc = rc;
    c->bytes = *out;
    c->seconds = secs;
    memset(out, 0, sizeof *out);
    if (rc != 0)
        snprintf(c->error, sizeof c->error, "%s: %s", w->of.label, error);
    if (rc == 0) {
        w->items += c->n;
        w->seconds += secs;
        w->wall_clock |= secs_wall;
        w->timer_rejected |= secs_rejected;
        ls_chunks_done(&w->sizer, c->n, secs);
    }
}

/* Collects what the local threads finished. */
static int collect_local(runner *sp)
{
    int any = 0;
    pthread_mutex_lock(&sp->lock);
    for (int i = 0; i < sp->nw; i++) {
        worker *w = &sp->w[i];
        if (w->dev && w->finished) {
            w->finished = 0;
            finish_chunk(sp, w, w->rc, &w->out, w->secs, w->secs_wall, w->secs_rejected, w->err.msg);
            any = 1;
        }
    }
    pthread_mutex_unlock(&sp->lock);
    return any;
}

/* Collects the results other ranks sent. 1 when one came, 0 none, -1. */
static int collect_remote(runner *sp, ls_error *err)
{
    int from, tag;
    void *data;
    size_t len;
    int got = ls_cluster_poll(&from, &tag, &data, &len, err);
    if (got <= 0)
        return got;
    result_head rh;
    worker *w = NULL;
    if (tag == TAG_STOP && len == sizeof(int32_t)) {
        int32_t sig;
        memcpy(&sig, data, sizeof sig);
        free(data);
        ls_progress_stop(sig); /* the next progress report asks to stop */
        return 1;
    }
    if (tag == TAG_RESULT && len >= sizeof rh) {
        memcpy(&rh, data, sizeof rh);
        for (int i = 0; i < sp->nw; i++)
            if (sp->w[i].of.rank == from && sp->w[i].of.slot == rh.slot && sp->w[i].busy && sp->w[i].seq == rh.seq)
                w = &sp->w[i];
    }
    if (!w) {
        free(data);
        return ls_fail(err, "rank %d sent an unexpected message (tag %d, %zu bytes)", from, tag, len);
    }
    ls_bytes out = {0};
    const char *body = (const char *)data + sizeof rh;
    size_t body_len = len - sizeof rh;
    char error[512] = "";
    if (rh.rc == 0 && ls_bytes_put(&out, body, body_len) != 0) {
        rh.rc = -1;
        snprintf(error, sizeof error, "out of memory for a result of %zu bytes", body_len);
    } else if (rh.rc != 0) {
        snprintf(error, sizeof error, "%.*s", (int)(body_len < sizeof error ? body_len : sizeof error - 1), body);
    }
    free(data);
    finish_chunk(sp, w, rh.rc, &out, rh.seconds, rh.wall_clock != 0, rh.timer_rejected != 0, error);
    return 1;
}

/* The size of w's next chunk: its own rate's, and near the end no more
 * than its share of what is left, so that the devices finish together. */
static uint64_t next_size(const runner *sp, const worker *w, uint64_t remaining)
{
    uint64_t n = ls_chunks_next(&w->sizer, remaining);
    if (sp->nw > 1) {
        uint64_t first = w->of.is_gpu ? sp->ops->first_gpu : sp->ops->first_cpu;
        uint64_t share = remaining / (2 * (uint64_t)sp->nw);
        if (share < first)
            share = first;
        if (n > share)
            n = share;
    }
    return n < remaining ? n : remaining;
}

/* Hands a chunk to every idle worker. */
static int hand_out(runner *sp, uint64_t *next, uint64_t hi, ls_error *err)
{
    for (int i = 0; i < sp->nw && *next < hi; i++) {
        worker *w = &sp->w[i];
        if (w->busy)
            continue;
        if (sp->npending == sp->room) {
            int room = sp->room ? 2 * sp->room : 16;
            chunk *p = realloc(sp->pending, (size_t)room * sizeof *p);
            if (!p)
                return ls_fail(err, "out of memory for the chunks in flight");
            sp->pending = p;
            sp->room = room;
        }
        uint64_t n = next_size(sp, w, hi - *next);
        chunk *c = &sp->pending[sp->npending++];
        memset(c, 0, sizeof *c);
        *c = (chunk){.seq = sp->seq++, .lo = *next, .n = n, .w = i};
        unsigned char hint[LS_SET_HINT_MAX];
        size_t hint_len = sp->ops->hint ? sp->ops->hint(sp->job, hint, sizeof hint) : 0;
        w->busy = 1;
        w->seq = c->seq;
        w->lo = c->lo;
        w->n = n;
        w->since = ls_now();
        *next += n;
        if (w->dev) {
            give_local(sp, w, hint, hint_len);
        } else {
            assign_msg a;
            memset(&a, 0, sizeof a);
            a.slot = w->of.slot;
            a.seq = c->seq;
            a.lo = c->lo;
            a.n = n;
            a.hint_len = (uint32_t)hint_len;
            memcpy(a.hint, hint, hint_len);
            if (ls_cluster_send(w->of.rank, TAG_ASSIGN, &a, sizeof a, err) != 0)
                return -1;
        }
    }
    return 0;
}

/* Folds the finished prefix of the pending chunks. Returns how many items
 * were folded, or -1 (err set) at a chunk that failed. */
static int64_t fold_prefix(runner *sp, ls_error *err)
{
    int k = 0;
    int64_t items = 0;
    int rc = 0;
    while (k < sp->npending && sp->pending[k].done) {
        chunk *c = &sp->pending[k];
        if (c->rc != 0) {
            rc = ls_fail(err, "%s", c->error);
            break;
        }
        if (c->lo != sp->folded_to) { /* a scheduling bug, never the data's */
            rc = ls_fail(err, "internal error: chunk %" PRIu64 "+%" PRIu64 " folded after %" PRIu64, c->lo, c->n,
                         sp->folded_to);
            break;
        }
        sp->folded_to = c->lo + c->n;
        rc = sp->ops->fold(sp->job, c->lo, c->n, c->bytes.data, c->bytes.len, c->seconds, err);
        ls_bytes_free(&c->bytes);
        if (rc != 0)
            break;
        items += (int64_t)c->n;
        k++;
    }
    memmove(sp->pending, sp->pending + k, (size_t)(sp->npending - k) * sizeof *sp->pending);
    sp->npending -= k;
    if (items > 0 && sp->ops->commit && sp->ops->commit(sp->job, rc == 0 ? err : &(ls_error){{0}, 0}) != 0)
        rc = -1;
    return rc == 0 ? items : -1;
}

/* Whether a device that can still answer holds a chunk. */
static int any_busy(const runner *sp)
{
    for (int i = 0; i < sp->nw; i++)
        if (sp->w[i].busy && !sp->w[i].lost)
            return 1;
    return 0;
}

/* Tells every remote device there is no more (each once), and whether
 * that is because a stop signal came (stopping on one). */
static int retire_remote(runner *sp, int stopping, ls_error *err)
{
    for (int i = 0; i < sp->nw; i++) {
        worker *w = &sp->w[i];
        if (w->dev || w->retired || w->busy || w->lost)
            continue;
        assign_msg a;
        memset(&a, 0, sizeof a);
        a.slot = w->of.slot;
        a.stop_signal = stopping ? ls_progress_signal() : 0;
        if (ls_cluster_send(w->of.rank, TAG_ASSIGN, &a, sizeof a, err) != 0)
            return -1;
        w->retired = 1;
    }
    return 0;
}

/* "cuda:0 5.1e8/s, cuda:1 5.0e8/s" for the progress line, or, when that
 * would not fit on one, the devices' count and their sum. */
static void rates_text(const runner *sp, char *out, size_t len)
{
    size_t used = 0;
    double sum = 0;
    out[0] = 0;
    for (int i = 0; i < sp->nw; i++) {
        const worker *w = &sp->w[i];
        double rate = w->seconds > 0 ? (double)w->items / w->seconds : 0.0;
        sum += rate;
        int k = used < len ? snprintf(out + used, len - used, "%s%s %.3g/s", i ? ", " : "", w->of.label, rate) : 0;
        used += k > 0 ? (size_t)k : 0;
    }
    if (used > 100)
        snprintf(out, len, "%d devices, %.3g/s in all", sp->nw, sum);
}

/* A chunk is sized to take a fraction of a second; another rank that
 * holds one this long is presumed lost (killed, its node gone). mpirun
 * usually ends the job first and names the rank itself; under
 * `mpirun --enable-recovery` the job goes on and rank 0 names it, folds and
 * commits what the others finished, and ends the job. */
#define LS_SET_LOST_SECONDS 60.0

static double lost_seconds(void)
{
    const char *env = getenv("LOCKSTEP_RANK_TIMEOUT");
    double v = env ? atof(env) : 0;
    return v > 0 ? v : LS_SET_LOST_SECONDS;
}

/* Names the first remote device that has held its chunk too long. */
static int find_lost(runner *sp, double now, double limit, ls_error *err)
{
    for (int i = 0; i < sp->nw; i++) {
        worker *w = &sp->w[i];
        if (w->busy && !w->dev && !w->lost && now - w->since > limit) {
            w->lost = 1;
            return ls_fail(err,
                           "the run failed: %s (on %s, pid %d) has not returned %s [%" PRIu64 ", %" PRIu64
                           ") in %.0f s and is presumed lost; they are not counted as done, and no result is "
                           "printed (mpirun --enable-recovery may still exit 0)",
                           w->of.label, w->of.host, w->of.pid, sp->ops->unit, w->lo, w->lo + w->n, limit);
        }
    }
    return 0;
}

static int schedule(runner *sp, uint64_t origin, uint64_t lo, uint64_t hi, const ls_progress *prog,
                    ls_set_report *st, ls_error *err)
{
    uint64_t next = lo;
    sp->folded_to = lo;
    int stopping = 0, rc = 0, remote = sp->ranks.size > 1;
    double last_report = 0, limit = lost_seconds();
    char rates[512];
    ls_error first_err = {{0}, 0};
    if (prog && prog->resumed && lo > origin)
        prog->resumed(prog->user, lo - origin);
    for (;;) {
        if (!stopping && hand_out(sp, &next, hi, &first_err) != 0) {
            stopping = 1;
            rc = -1;
        }
        if (remote && retire_remote(sp, stopping, rc == 0 ? &first_err : err) != 0 && rc == 0)
            rc = -1;
        if (!any_busy(sp) && (stopping || next >= hi))
            break;
        /* Wait for a local device, polling the other ranks now and then. */
        int got = collect_local(sp);
        if (remote) {
            int r;
            while ((r = collect_remote(sp, rc == 0 ? &first_err : err)) > 0)
                got = 1;
            if (r < 0 && rc == 0) {
                rc = -1;
                stopping = 1;
                break; /* the other ranks can no longer be trusted to answer */
            }
        }
        if (!got) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += remote ? 500000 : 20000000;
            if (until.tv_nsec >= 1000000000) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000;
            }
            pthread_mutex_lock(&sp->lock);
            int ready = 0;
            for (int i = 0; i < sp->nw; i++)
                ready |= sp->w[i].dev && sp->w[i].finished;
            if (!ready)
                pthread_cond_timedwait(&sp->changed, &sp->lock, &until);
            pthread_mutex_unlock(&sp->lock);
        }
        int64_t folded = fold_prefix(sp, rc == 0 ? &first_err : err);
        if (folded < 0) {
            if (rc == 0)
                rc = -1;
            stopping = 1;
        } else {
            st->done += (uint64_t)folded;
        }
        double now = ls_now();
        if (prog && prog->report && (folded > 0 || now - last_report > 0.25)) {
            last_report = now;
            if (prog->detail && sp->nw > 1) {
                rates_text(sp, rates, sizeof rates);
                prog->detail(prog->user, rates);
            }
            if (prog->report(prog->user, lo - origin + st->done, hi - origin))
                stopping = 1;
        }
        if (remote && find_lost(sp, now, limit, rc == 0 ? &first_err : err) != 0) {
            rc = -1;
            stopping = 1;
        }
    }
    st->interrupted = lo + st->done < hi;
    if (rc != 0 && first_err.msg[0])
        *err = first_err;
    return rc;
}

static void fill_stats(const runner *sp, ls_set_report *st, double wall)
{
    st->wall_seconds = wall;
    st->ndevices = sp->nw < LS_SET_MAX_DEVICES ? sp->nw : LS_SET_MAX_DEVICES;
    double device = 0;
    for (int i = 0; i < st->ndevices; i++) {
        const worker *w = &sp->w[i];
        ls_set_share_fill(&st->dev[i], &w->of, w->items, w->seconds, w->wall_clock, w->timer_rejected);
        device += w->seconds;
    }
    st->seconds = st->ndevices == 1 ? device : wall;
}

int ls_set_run(ls_set *set, const ls_set_ops *ops, void *job, uint64_t origin, uint64_t lo, uint64_t hi,
               const ls_progress *progress, ls_set_report *report, ls_error *err)
{
    ls_set_report *st = report;
    memset(st, 0, sizeof *st);
    runner sp = {.ops = ops, .job = job, .ranks = set->job};
    pthread_mutex_init(&sp.lock, NULL);
    pthread_cond_init(&sp.changed, NULL);
    double t0 = ls_now();
    int rc = census_workers(&sp, set, err);
    if (rc == 0 && set->job.rank != 0) {
        st->computed_only = 1;
        rc = serve(&sp, err);
        st->interrupted = sp.stopped_early;
    } else if (rc == 0) {
        for (int i = 0; i < sp.nw && rc == 0; i++)
            ls_chunks_init(&sp.w[i].sizer, sp.w[i].of.is_gpu ? ops->first_gpu : ops->first_cpu, ops->max_chunk);
        /* A thread per device even when there is one: one code path. */
        for (int i = 0; i < sp.nw && rc == 0; i++)
            if (sp.w[i].dev)
                rc = start_thread(&sp, &sp.w[i], err);
        if (rc == 0)
            rc = schedule(&sp, origin, lo, hi, progress, st, err);
    }
    stop_threads(&sp);
    fill_stats(&sp, st, ls_now() - t0);
    for (int i = 0; i < sp.npending; i++)
        ls_bytes_free(&sp.pending[i].bytes);
    free(sp.pending);
    for (int i = 0; i < sp.nw; i++)
        ls_bytes_free(&sp.w[i].out);
    free(sp.w);
    pthread_cond_destroy(&sp.changed);
    pthread_mutex_destroy(&sp.lock);
    return rc;
}
