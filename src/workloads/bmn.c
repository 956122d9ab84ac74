/* bmn.c - the Beggar My Neighbour workload on the host side.
 *
 *   lockstep bmn play HANDS [--trace] [--json]     one game, exactly (host)
 *   lockstep bmn search [--deals N] [--seed S] [--top K] [--checkpoint F]
 *
 * A search is driven from here in chunks: a backend plays a chunk of deals
 * (ls_backend.bmn) and returns the length histogram, the deals that reach
 * the current top-K thresholds and the deals still running at the card cap;
 * this file keeps the top K by cards and by tricks, replays capped deals
 * with the exact host player (loop detection), appends new records and the
 * progress to the checkpoint, and stops cleanly on Ctrl-C. Results do not
 * depend on the chunking: ties in the top K go to the lower deal index. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bmn_golden.h"
#include "bmn_host.h"
#include "progress.h"
#include "workload.h"

#define BMN_MAX_TOP 1000u
#define BMN_FIRST_CHUNK 4096u /* thresholds start at 0: every deal of it is a hit */

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

/* ---- top K ---------------------------------------------------------------- */

/* Whether x ranks before y: more cards (or tricks), then lower deal. */
static int ranks_before(const bmn_hit *x, const bmn_hit *y, int by_tricks)
{
    uint32_t kx = by_tricks ? x->tricks : x->cards, ky = by_tricks ? y->tricks : y->cards;
    return kx != ky ? kx > ky : x->deal < y->deal;
}

/* Inserts h into a list kept sorted and at most k long; 1 if it entered. */
static int top_insert(bmn_hit *list, uint32_t *n, uint32_t k, bmn_hit h, int by_tricks)
{
    if (*n == k && !ranks_before(&h, &list[k - 1], by_tricks))
        return 0;
    uint32_t i = *n < k ? (*n)++ : k - 1;
    while (i > 0 && ranks_before(&h, &list[i - 1], by_tricks)) {
        list[i] = list[i - 1];
        i--;
    }
    list[i] = h;
    return 1;
}

static int state_add_loop(bmn_state *st, uint64_t deal, const bmn_host_result *r)
{
    if (st->n_loops == st->room_loops) {
        uint32_t room = st->room_loops ? 2 * st->room_loops : 16;
        bmn_loop_rec *p = realloc(st->loops, room * sizeof *p);
        if (!p)
            return -1;
        st->loops = p;
        st->room_loops = room;
    }
    st->loops[st->n_loops++] = (bmn_loop_rec){deal, *r};
    return 0;
}

/* Counts a finished game; returns 1 when it entered a top list. */
static int state_add_game(bmn_state *st, bmn_hit h)
{
    uint32_t bin = h.cards / BMN_HIST_WIDTH;
    st->hist[bin < BMN_HIST_BINS ? bin : BMN_HIST_BINS - 1]++;
    st->total_cards += h.cards;
    st->finished++;
    int a = top_insert(st->top_cards, &st->n_cards, st->k, h, 0);
    int b = top_insert(st->top_tricks, &st->n_tricks, st->k, h, 1);
    return a || b;
}

/* ---- deals as text -------------------------------------------------------- */

static void deal_string(uint64_t seed, uint64_t deal, char *out, size_t len)
{
    uint8_t c[52];
    bmn_deal(seed, deal, c);
    bmn_format_deal(c, 26, c + 26, 26, out, len);
}

/* ---- checkpoint ----------------------------------------------------------- */
/* An append-only text file:
 *   lockstep-bmn-checkpoint 1
 *   params seed S first F top K cap C
 *   record deal I cards C tricks T hands H      a deal that entered a top list
 *   loop deal I cards C tricks T start_cards .. start_tricks .. loop_cards .. loop_tricks .. hands H
 *   progress done D cards SUM finished G seconds X hist h0,h1,...
 * The last complete progress line is where a resumed search continues;
 * record and loop lines for deals beyond it belong to a chunk that will be
 * played again, and are ignored. A final line without its newline (a crash
 * mid-write) is ignored too; any other malformed line is an error. */

#define CKPT_MAGIC "lockstep-bmn-checkpoint 1"

typedef struct ckpt {
    FILE *f;
    const char *path;
} ckpt;

static int ckpt_bad(ls_error *err, const char *path, long line, const char *what)
{
    return ls_fail_usage(err, "--checkpoint %s: line %ld: %s (the file was not changed)", path, line, what);
}

/* Parses "hist a,b,c..." into st->hist. */
static int parse_hist(const char *s, uint64_t *hist)
{
    for (uint32_t b = 0; b < BMN_HIST_BINS; b++) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || errno)
            return -1;
        hist[b] = v;
        s = end;
        if (b + 1 < BMN_HIST_BINS) {
            if (*s != ',')
                return -1;
            s++;
        }
    }
    return *s == 0 || *s == '\n' ? 0 : -1;
}

/* Makes room for one more element in *list (*n used of *room). */
static int ckpt_grow(void **list, uint64_t n, uint64_t *room, size_t elem)
{
    if (n < *room)
        return 0;
    uint64_t more = *room ? 2 * *room : 64;
    void *p = realloc(*list, more * elem);
    if (!p)
        return -1;
    *list = p;
    *room = more;
    return 0;
}

/* Reads an existing checkpoint into st (which must be fresh). Returns 0,
 * or -1 with err set. A missing or empty file is a fresh start. */
static int ckpt_load(const char *path, const bmn_params *p, bmn_state *st, ls_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        return ls_fail_usage(err, "--checkpoint %s: cannot read: %s", path, strerror(errno));
    }
    size_t cap = 1 << 16;
    char *line = malloc(cap);
    if (!line) {
        fclose(f);
        return ls_fail(err, "out of memory reading the checkpoint");
    }
    long n = 0;
    int rc = 0, have_params = 0;
    /* Records are collected first and applied once the resume point is known. */
    bmn_hit *recs = NULL;
    uint64_t nrecs = 0, room = 0;
    bmn_loop_rec *lrecs = NULL;
    uint64_t nl = 0, lroom = 0;
    bmn_state at; /* the state of the last progress line */
    memset(&at, 0, sizeof at);
    while (rc == 0) {
        /* whole lines, however long */
        size_t used = 0;
        int got = 0;
        while (fgets(line + used, (int)(cap - used), f)) {
            got = 1;
            used += strlen(line + used);
            if (used > 0 && line[used - 1] == '\n')
                break;
            if (used + 1 >= cap) {
                char *bigger = realloc(line, cap * 2);
                if (!bigger) {
                    rc = ls_fail(err, "out of memory reading the checkpoint");
                    break;
                }
                line = bigger;
                cap *= 2;
            }
        }
        if (rc || !got)
            break;
        n++;
        if (line[used - 1] != '\n')
            break; /* an unfinished last line: ignored */
        line[used - 1] = 0;
        if (n == 1) {
            if (strcmp(line, CKPT_MAGIC) != 0)
                rc = ckpt_bad(err, path, n, "not a lockstep BMN checkpoint");
            continue;
        }
        unsigned long long a, b, c, d, e, g, h, i;
        int off = 0;
        if (strncmp(line, "params ", 7) == 0) {
            if (sscanf(line, "params seed %llu first %llu top %llu cap %llu%n", &a, &b, &c, &d, &off) != 4 ||
                line[off])
                rc = ckpt_bad(err, path, n, "malformed params line");
            else if (a != p->seed || b != p->first || c != p->top || d != p->cap)
                rc = ls_fail_usage(err,
                                   "--checkpoint %s belongs to another search (seed %llu, first %llu, top %llu, cap "
                                   "%llu); give the same options or another file",
                                   path, a, b, c, d);
            have_params = 1;
        } else if (strncmp(line, "record ", 7) == 0) {
            if (sscanf(line, "record deal %llu cards %llu tricks %llu hands %*s%n", &a, &b, &c, &off) != 3 ||
                line[off] || b > UINT32_MAX || c > UINT32_MAX) {
                rc = ckpt_bad(err, path, n, "malformed record line");
            } else if (ckpt_grow((void **)&recs, nrecs, &room, sizeof *recs) != 0) {
                rc = ls_fail(err, "out of memory reading the checkpoint");
            } else {
                recs[nrecs++] = (bmn_hit){a, (uint32_t)b, (uint32_t)c};
            }
        } else if (strncmp(line, "loop ", 5) == 0) {
            if (sscanf(line,
                       "loop deal %llu cards %llu tricks %llu start_cards %llu start_tricks %llu loop_cards %llu "
                       "loop_tricks %llu hands %*s%n",
                       &a, &b, &c, &d, &e, &g, &h, &off) != 7 ||
                line[off]) {
                rc = ckpt_bad(err, path, n, "malformed loop line");
            } else if (ckpt_grow((void **)&lrecs, nl, &lroom, sizeof *lrecs) != 0) {
                rc = ls_fail(err, "out of memory reading the checkpoint");
            } else {
                bmn_host_result r = {BMN_LOOP, b, c, d, e, g, h};
                lrecs[nl++] = (bmn_loop_rec){a, r};
            }
        } else if (strncmp(line, "progress ", 9) == 0) {
            double secs;
            char *hs = strstr(line, " hist ");
            if (!hs || sscanf(line, "progress done %llu cards %llu finished %llu seconds %lf", &a, &b, &i, &secs) != 4 ||
                parse_hist(hs + 6, at.hist) != 0) {
                rc = ckpt_bad(err, path, n, "malformed progress line");
            } else {
                at.done = a;
                at.total_cards = b;
                at.finished = i;
                at.seconds = secs;
            }
        } else {
            rc = ckpt_bad(err, path, n, "unknown line");
        }
    }
    if (rc == 0 && ferror(f))
        rc = ls_fail_usage(err, "--checkpoint %s: read error", path);
    if (rc == 0 && n >= 1 && !have_params)
        rc = ckpt_bad(err, path, n, "no params line");
    if (rc == 0 && at.done > p->deals)
        rc = ls_fail_usage(err, "--checkpoint %s has already played %llu deals, more than --deals %llu", path,
                           (unsigned long long)at.done, (unsigned long long)p->deals);
    if (rc == 0) {
        st->done = at.done;
        st->total_cards = at.total_cards;
        st->finished = at.finished;
        st->seconds = at.seconds;
        memcpy(st->hist, at.hist, sizeof st->hist);
        /* Only deals already behind the resume point; re-insert without
         * counting them again (the progress line's histogram has them). */
        for (uint64_t r = 0; r < nrecs; r++)
            if (recs[r].deal < p->first + at.done) {
                top_insert(st->top_cards, &st->n_cards, st->k, recs[r], 0);
                top_insert(st->top_tricks, &st->n_tricks, st->k, recs[r], 1);
            }
        for (uint64_t r = 0; r < nl && rc == 0; r++)
            if (lrecs[r].deal < p->first + at.done && state_add_loop(st, lrecs[r].deal, &lrecs[r].r) != 0)
                rc = ls_fail(err, "out of memory reading the checkpoint");
    }
    free(recs);
    free(lrecs);
    free(line);
    fclose(f);
    return rc;
}

static int ckpt_open(ckpt *c, const char *path, const bmn_params *p, int fresh, ls_error *err)
{
    c->path = path;
    c->f = fopen(path, "a");
    if (!c->f)
        return ls_fail_usage(err, "--checkpoint %s: cannot write: %s", path, strerror(errno));
    if (fresh) {
        fprintf(c->f, "%s\nparams seed %" PRIu64 " first %" PRIu64 " top %" PRIu64 " cap %" PRIu64 "\n", CKPT_MAGIC,
                p->seed, p->first, p->top, p->cap);
        fflush(c->f);
    }
    return 0;
}

static void ckpt_record(ckpt *c, const bmn_params *p, const bmn_hit *h)
{
    if (!c->f)
        return;
    char hands[128];
    deal_string(p->seed, h->deal, hands, sizeof hands);
    fprintf(c->f, "record deal %" PRIu64 " cards %u tricks %u hands %s\n", h->deal, h->cards, h->tricks, hands);
}

static void ckpt_loop(ckpt *c, const bmn_params *p, const bmn_loop_rec *l)
{
    if (!c->f)
        return;
    char hands[128];
    deal_string(p->seed, l->deal, hands, sizeof hands);
    fprintf(c->f,
            "loop deal %" PRIu64 " cards %" PRIu64 " tricks %" PRIu64 " start_cards %" PRIu64 " start_tricks %" PRIu64
            " loop_cards %" PRIu64 " loop_tricks %" PRIu64 " hands %s\n",
            l->deal, l->r.cards, l->r.tricks, l->r.loop_start_cards, l->r.loop_start_tricks, l->r.loop_cards,
            l->r.loop_tricks, hands);
}

/* Progress lines end a chunk; flushed to the disk so hours are not lost. */
static int ckpt_progress(ckpt *c, const bmn_state *st, ls_error *err)
{
    if (!c->f)
        return 0;
    fprintf(c->f, "progress done %" PRIu64 " cards %" PRIu64 " finished %" PRIu64 " seconds %.3f hist ", st->done,
            st->total_cards, st->finished, st->seconds);
    for (uint32_t b = 0; b < BMN_HIST_BINS; b++)
        fprintf(c->f, "%s%" PRIu64, b ? "," : "", st->hist[b]);
    fputc('\n', c->f);
    if (fflush(c->f) != 0 || ferror(c->f))
        return ls_fail(err, "--checkpoint %s: write failed: %s", c->path, strerror(errno));
    fsync(fileno(c->f));
    return 0;
}

/* ---- the search driver ---------------------------------------------------- */

/* Plays a capped deal exactly on the host: a loop, or a long finite game. */
static int resolve_capped(bmn_state *st, const bmn_params *p, uint64_t deal, const bmn_deal_in *given,
                          ckpt *c, ls_error *err)
{
    uint8_t cards[62];
    size_t na = 26, nb = 26;
    if (given) {
        na = given->na;
        nb = given->nb;
        memcpy(cards, given->cards, na + nb);
    } else {
        bmn_deal(p->seed, deal, cards);
    }
    bmn_host_result r;
    char msg[256];
    if (bmn_host_play(cards, na, cards + na, nb, NULL, &r, msg, sizeof msg) != 0)
        return ls_fail(err, "deal %" PRIu64 ": %s", deal, msg);
    if (r.outcome == BMN_LOOP) {
        if (state_add_loop(st, deal, &r) != 0)
            return ls_fail(err, "out of memory for loops");
        if (c)
            ckpt_loop(c, p, &st->loops[st->n_loops - 1]);
        return 0;
    }
    bmn_hit h = {deal, (uint32_t)r.cards, (uint32_t)r.tricks};
    if (state_add_game(st, h) && c)
        ckpt_record(c, p, &h);
    return 0;
}

static int hit_by_deal(const void *x, const void *y)
{
    uint64_t a = ((const bmn_hit *)x)->deal, b = ((const bmn_hit *)y)->deal;
    return (a > b) - (a < b);
}

/* Plays deals [first + done, first + done + n) (or the given ones) on the
 * device and folds them into st. Replays the chunk with more room when a
 * list overflowed, so nothing is dropped. */
static int play_chunk(ls_session *s, const bmn_params *p, bmn_state *st, uint64_t n, const bmn_deal_in *given,
                      ckpt *c, double *chunk_seconds, ls_error *err)
{
    uint32_t max_hits = n < BMN_FIRST_CHUNK ? (uint32_t)n : 1u << 16, max_capped = 256;
    for (;;) {
        bmn_range r = {p->seed,
                       p->first + st->done,
                       n,
                       (uint32_t)p->cap,
                       st->n_cards == st->k ? st->top_cards[st->k - 1].cards : 0,
                       st->n_tricks == st->k ? st->top_tricks[st->k - 1].tricks : 0,
                       given};
        uint64_t *hist = calloc(BMN_HIST_BINS, sizeof *hist);
        bmn_hit *hits = calloc(max_hits ? max_hits : 1, sizeof *hits);
        uint64_t *capped = calloc(max_capped, sizeof *capped);
        if (!hist || !hits || !capped) {
            free(hist);
            free(hits);
            free(capped);
            return ls_fail(err, "out of memory for a chunk of %" PRIu64 " deals", n);
        }
        bmn_range_out out = {hist, 0, hits, max_hits, 0, capped, max_capped, 0, 0.0};
        int rc = s->backend->bmn(s->ctx, &r, &out, err);
        if (rc == 0 && (out.n_hits > max_hits || out.n_capped > max_capped)) {
            /* Overflow: the counts are exact, so one replay with room suffices. */
            max_hits = out.n_hits > max_hits ? out.n_hits : max_hits;
            max_capped = out.n_capped > max_capped ? out.n_capped : max_capped;
            free(hist);
            free(hits);
            free(capped);
            continue;
        }
        if (rc == 0) {
            for (uint32_t b = 0; b < BMN_HIST_BINS; b++)
                st->hist[b] += hist[b];
            st->total_cards += out.total_cards;
            for (uint32_t b = 0; b < BMN_HIST_BINS; b++)
                st->finished += hist[b];
            /* Sorting the hits by deal keeps checkpoint files identical
             * whatever order the device found them in. */
            qsort(hits, out.n_hits, sizeof *hits, hit_by_deal);
            for (uint32_t i = 0; i < out.n_hits; i++) {
                int a = top_insert(st->top_cards, &st->n_cards, st->k, hits[i], 0);
                int b = top_insert(st->top_tricks, &st->n_tricks, st->k, hits[i], 1);
                if ((a || b) && c)
                    ckpt_record(c, p, &hits[i]);
            }
            for (uint32_t i = 0; i < out.n_capped && rc == 0; i++) {
                uint64_t deal = capped[i];
                rc = resolve_capped(st, p, deal, given ? &given[deal - r.first] : NULL, c, err);
            }
            *chunk_seconds = out.seconds;
        }
        free(hist);
        free(hits);
        free(capped);
        return rc;
    }
}

/* Runs the search of p on s into st, resuming from and appending to the
 * checkpoint when one is named. */
static int bmn_search_run(ls_session *s, const bmn_params *p, bmn_state *st, const ls_progress *prog,
                          const bmn_deal_in *given, ls_error *err)
{
    memset(st, 0, sizeof *st);
    st->k = (uint32_t)p->top;
    ckpt c = {NULL, NULL};
    if (p->checkpoint) {
        if (ckpt_load(p->checkpoint, p, st, err) != 0)
            return -1;
        /* A missing or empty file gets its header first. */
        int fresh = 1;
        FILE *probe = fopen(p->checkpoint, "r");
        if (probe) {
            fresh = fgetc(probe) == EOF;
            fclose(probe);
        }
        if (ckpt_open(&c, p->checkpoint, p, fresh, err) != 0)
            return -1;
    }
    uint64_t chunk = BMN_FIRST_CHUNK;
    int rc = 0;
    while (st->done < p->deals && rc == 0) {
        uint64_t n = p->deals - st->done < chunk ? p->deals - st->done : chunk;
        double secs = 0;
        rc = play_chunk(s, p, st, n, given ? given + st->done : NULL, &c, &secs, err);
        if (rc != 0)
            break;
        st->done += n;
        st->seconds += secs;
        rc = ckpt_progress(&c, st, err);
        /* Grow chunks until one takes about half a second. */
        if (secs < 0.25 && chunk < (1ull << 30))
            chunk *= 2;
        if (prog && prog->report && prog->report(prog->user, st->done, p->deals)) {
            st->interrupted = st->done < p->deals;
            break;
        }
    }
    if (c.f)
        fclose(c.f);
    return rc;
}

/* ---- results -------------------------------------------------------------- */

static uint64_t bmn_state_digest(const bmn_state *st)
{
    uint64_t h = ls_fnv1a(LS_FNV_INIT, st->hist, sizeof st->hist);
    for (uint32_t i = 0; i < st->n_cards; i++)
        h = ls_fnv1a(h, &st->top_cards[i], sizeof st->top_cards[i]);
    for (uint32_t i = 0; i < st->n_tricks; i++)
        h = ls_fnv1a(h, &st->top_tricks[i], sizeof st->top_tricks[i]);
    for (uint32_t i = 0; i < st->n_loops; i++) {
        h = ls_fnv1a(h, &st->loops[i].deal, sizeof st->loops[i].deal);
        h = ls_fnv1a(h, &st->loops[i].r.cards, sizeof st->loops[i].r.cards);
    }
    return h;
}

static void print_top(FILE *out, const bmn_params *p, const bmn_hit *list, uint32_t n, const char *title)
{
    fprintf(out, "%s:\n  %3s %14s %6s %6s  %s\n", title, "#", "deal", "cards", "tricks", "hands");
    for (uint32_t i = 0; i < n; i++) {
        char hands[128];
        deal_string(p->seed, list[i].deal, hands, sizeof hands);
        fprintf(out, "  %3u %14" PRIu64 " %6u %6u  %s\n", i + 1, list[i].deal, list[i].cards, list[i].tricks, hands);
    }
}

static void json_top(FILE *out, const bmn_params *p, const bmn_hit *list, uint32_t n)
{
    fputc('[', out);
    for (uint32_t i = 0; i < n; i++) {
        char hands[128];
        deal_string(p->seed, list[i].deal, hands, sizeof hands);
        fprintf(out, "%s{\"deal\":%" PRIu64 ",\"cards\":%u,\"tricks\":%u,\"hands\":\"%s\"}", i ? "," : "",
                list[i].deal, list[i].cards, list[i].tricks, hands);
    }
    fputc(']', out);
}

static void bmn_state_print(const bmn_params *p, const ls_session *s, const bmn_state *st, int json, FILE *out)
{
    double rate = st->seconds > 0 ? (double)st->done / st->seconds : 0;
    double mean = st->finished ? (double)st->total_cards / (double)st->finished : 0;
    char digest[17];
    snprintf(digest, sizeof digest, "%016" PRIx64, bmn_state_digest(st));
    if (json) {
        fprintf(out, "{\"workload\":\"bmn\",\"backend\":\"%s\",\"device_index\":%d,\"device\":", s->backend->name,
                s->index);
        ls_json_string(out, s->info.name);
        fprintf(out,
                ",\"seed\":%" PRIu64 ",\"first\":%" PRIu64 ",\"deals\":%" PRIu64 ",\"top\":%u,\"cap\":%" PRIu64
                ",\"interrupted\":%s,\"seconds\":%.6f,\"deals_per_second\":%.6g,\"mean_cards\":%.3f,\"digest\":\"%s\","
                "\"top_by_cards\":",
                p->seed, p->first, st->done, st->k, p->cap, st->interrupted ? "true" : "false", st->seconds, rate, mean,
                digest);
        json_top(out, p, st->top_cards, st->n_cards);
        fprintf(out, ",\"top_by_tricks\":");
        json_top(out, p, st->top_tricks, st->n_tricks);
        fprintf(out, ",\"loops\":[");
        for (uint32_t i = 0; i < st->n_loops; i++) {
            char hands[128];
            deal_string(p->seed, st->loops[i].deal, hands, sizeof hands);
            fprintf(out,
                    "%s{\"deal\":%" PRIu64 ",\"cards\":%" PRIu64 ",\"tricks\":%" PRIu64 ",\"loop_cards\":%" PRIu64
                    ",\"loop_tricks\":%" PRIu64 ",\"hands\":\"%s\"}",
                    i ? "," : "", st->loops[i].deal, st->loops[i].r.cards, st->loops[i].r.tricks,
                    st->loops[i].r.loop_cards, st->loops[i].r.loop_tricks, hands);
        }
        fprintf(out, "],\"histogram_bin_cards\":%u,\"histogram\":[", BMN_HIST_WIDTH);
        for (uint32_t b = 0; b < BMN_HIST_BINS; b++)
            fprintf(out, "%s%" PRIu64, b ? "," : "", st->hist[b]);
        fprintf(out, "]}\n");
        return;
    }
    fprintf(out, "bmn search: %" PRIu64 " deals from %" PRIu64 ", seed %" PRIu64 "%s\n", st->done, p->first, p->seed,
            st->interrupted ? " (interrupted: best so far)" : "");
    fprintf(out, "backend:  %s:%d (%s)\n", s->backend->name, s->index, s->info.name);
    fprintf(out, "time:     %.3f s, %.4g deals/s, %.1f cards per game on average\n", st->seconds, rate, mean);
    fprintf(out, "digest:   %s\n", digest);
    print_top(out, p, st->top_cards, st->n_cards, "longest games by cards");
    print_top(out, p, st->top_tricks, st->n_tricks, "longest games by tricks");
    fprintf(out, "games by length (cards, bins of 100):\n");
    for (uint32_t b = 0; b < BMN_HIST_BINS; b += 10) {
        uint64_t sum = 0;
        for (uint32_t k = b; k < b + 10 && k < BMN_HIST_BINS; k++)
            sum += st->hist[k];
        if (sum)
            fprintf(out, "  %5u%s %" PRIu64 "\n", b * BMN_HIST_WIDTH,
                    b + 1 >= BMN_HIST_BINS ? "+     " : "-" , sum);
    }
    if (!st->n_loops)
        fprintf(out, "loops:    none\n");
    for (uint32_t i = 0; i < st->n_loops; i++) {
        char hands[128];
        deal_string(p->seed, st->loops[i].deal, hands, sizeof hands);
        fprintf(out, "loop: deal %" PRIu64 " %s repeats after %" PRIu64 " cards; the loop is %" PRIu64
                     " tricks, %" PRIu64 " cards\n",
                st->loops[i].deal, hands, st->loops[i].r.cards, st->loops[i].r.loop_tricks, st->loops[i].r.loop_cards);
    }
}

/* ---- the ls_workload hooks (check, bench) ---------------------------------- */

static void bmn_params_default(void *pp)
{
    bmn_params *p = pp;
    memset(p, 0, sizeof *p);
    p->seed = 1;
    p->deals = 1000000;
    p->top = 10;
    p->cap = BMN_TURN_CAP;
}

static void bmn_params_quick(void *pp)
{
    ((bmn_params *)pp)->deals = 100000;
}

static int bmn_params_options(void *pp, ls_opt *out, int max)
{
    bmn_params *p = pp;
    ls_opt opts[] = {
        {"deals", LS_OPT_COUNT, &p->deals, 1, 1000000000000000ull, "N", "number of deals to play"},
        {"seed", LS_OPT_U64, &p->seed, 0, 0, "S", "random seed; deal i is a pure function of (seed, i)"},
        {"first", LS_OPT_COUNT, &p->first, 0, 1000000000000000000ull, "I", "index of the first deal"},
        {"top", LS_OPT_COUNT, &p->top, 1, BMN_MAX_TOP, "K", "how many of the longest games to keep"},
        {"cap", LS_OPT_COUNT, &p->cap, 10000, 4000000000ull, "C",
         "cards after which a device hands a game to the exact host player"},
    };
    int n = (int)(sizeof opts / sizeof opts[0]);
    if (n > max)
        n = max;
    memcpy(out, opts, (size_t)n * sizeof *out);
    return n;
}

static int bmn_params_validate(void *pp, ls_error *err)
{
    (void)pp;
    (void)err;
    return 0;
}

static void bmn_run_free(ls_run *run)
{
    bmn_state *st = run->data;
    if (st)
        free(st->loops);
    free(st);
    run->data = NULL;
}

static int bmn_workload_run(ls_session *s, const void *pp, ls_run *out, const ls_progress *prog, ls_error *err)
{
    memset(out, 0, sizeof *out);
    if (!s->backend->bmn)
        return ls_fail(err, "the %s backend has no BMN implementation", s->backend->name);
    bmn_state *st = malloc(sizeof *st);
    if (!st)
        return ls_fail(err, "out of memory for a search");
    if (bmn_search_run(s, pp, st, prog, NULL, err) != 0) {
        free(st->loops);
        free(st);
        return -1;
    }
    out->data = st;
    out->seconds = st->seconds;
    out->items = st->done;
    out->interrupted = st->interrupted;
    snprintf(out->digest, sizeof out->digest, "%016" PRIx64, bmn_state_digest(st));
    snprintf(out->summary, sizeof out->summary, "longest %u", st->n_cards ? st->top_cards[0].cards : 0);
    return 0;
}

static void bmn_print(const void *pp, const ls_session *s, const ls_run *run, int json, FILE *out)
{
    bmn_state_print(pp, s, run->data, json, out);
}

static void bmn_diff(const void *pp, const ls_run *a, const char *an, const ls_run *b, const char *bn, FILE *out)
{
    (void)pp;
    const bmn_state *x = a->data, *y = b->data;
    for (uint32_t i = 0; i < BMN_HIST_BINS; i++)
        if (x->hist[i] != y->hist[i])
            fprintf(out, "  games of %u-%u cards: %s %" PRIu64 ", %s %" PRIu64 "\n", i * BMN_HIST_WIDTH,
                    i * BMN_HIST_WIDTH + BMN_HIST_WIDTH - 1, an, x->hist[i], bn, y->hist[i]);
    for (uint32_t i = 0; i < x->n_cards && i < y->n_cards; i++)
        if (memcmp(&x->top_cards[i], &y->top_cards[i], sizeof x->top_cards[i]) != 0)
            fprintf(out, "  longest #%u: %s deal %" PRIu64 " (%u cards), %s deal %" PRIu64 " (%u cards)\n", i + 1, an,
                    x->top_cards[i].deal, x->top_cards[i].cards, bn, y->top_cards[i].deal, y->top_cards[i].cards);
    if (x->n_loops != y->n_loops)
        fprintf(out, "  loops: %s %u, %s %u\n", an, x->n_loops, bn, y->n_loops);
}

/* ---- conformance ------------------------------------------------------------ */

/* Plays the golden deals of case `which` on the device and compares. */
static int bmn_case_deals(ls_session *s, const bmn_golden_game *games, int n, char *detail, size_t len,
                          ls_error *err)
{
    bmn_deal_in *given = calloc((size_t)n, sizeof *given);
    if (!given)
        return ls_fail(err, "out of memory");
    for (int i = 0; i < n; i++) {
        bmn_hands h;
        char msg[200];
        if (bmn_parse_deal(games[i].hands, &h, msg, sizeof msg) != 0 || h.na + h.nb > sizeof given[i].cards) {
            free(given);
            return ls_fail(err, "golden deal %d does not parse: %s", i, msg);
        }
        given[i].na = (uint8_t)h.na;
        given[i].nb = (uint8_t)h.nb;
        memcpy(given[i].cards, h.a, h.na);
        memcpy(given[i].cards + h.na, h.b, h.nb);
        bmn_hands_free(&h);
    }
    bmn_params p;
    bmn_params_default(&p);
    p.deals = (uint64_t)n;
    p.top = (uint64_t)n;
    p.cap = 20000;
    bmn_state *st = malloc(sizeof *st);
    if (!st) {
        free(given);
        return ls_fail(err, "out of memory");
    }
    int rc = bmn_search_run(s, &p, st, NULL, given, err);
    int pass = rc == 0;
    detail[0] = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        const bmn_golden_game *g = &games[i];
        uint64_t cards = 0, tricks = 0;
        int loop = 0;
        for (uint32_t k = 0; k < st->n_cards; k++)
            if (st->top_cards[k].deal == (uint64_t)i) {
                cards = st->top_cards[k].cards;
                tricks = st->top_cards[k].tricks;
            }
        for (uint32_t k = 0; k < st->n_loops; k++)
            if (st->loops[k].deal == (uint64_t)i) {
                loop = 1;
                cards = st->loops[k].r.cards;
                tricks = st->loops[k].r.tricks;
            }
        int ok = loop == g->loop && cards == g->cards && tricks == g->tricks;
        if (!ok) {
            size_t used = strlen(detail);
            snprintf(detail + used, len - used, "%s%s: got %s%" PRIu64 "/%" PRIu64 ", expected %s%u/%u", used ? "; " : "",
                     g->name, loop ? "loop " : "", cards, tricks, g->loop ? "loop " : "", g->cards, g->tricks);
            pass = 0;
        }
    }
    if (rc == 0 && pass)
        snprintf(detail, len, "%d game%s exact", n, n == 1 ? "" : "s");
    free(st->loops);
    free(st);
    free(given);
    return rc == 0 ? pass : -1;
}

static int bmn_case_records(ls_session *s, char *d, size_t n, ls_error *e)
{
    return bmn_case_deals(s, bmn_golden_records, BMN_GOLDEN_RECORDS, d, n, e);
}

static int bmn_case_small(ls_session *s, char *d, size_t n, ls_error *e)
{
    return bmn_case_deals(s, bmn_golden_small, BMN_GOLDEN_SMALL, d, n, e);
}

static int bmn_case_search(ls_session *s, char *d, size_t n, ls_error *e)
{
    bmn_params p;
    bmn_params_default(&p);
    p.seed = BMN_GOLDEN_SEARCH_SEED;
    p.deals = BMN_GOLDEN_SEARCH_DEALS;
    p.top = BMN_GOLDEN_SEARCH_TOP;
    ls_run run;
    if (bmn_workload_run(s, &p, &run, NULL, e) != 0)
        return -1;
    bmn_state *st = run.data;
    int pass = bmn_state_digest(st) == BMN_GOLDEN_SEARCH_DIGEST && st->n_cards &&
               st->top_cards[0].cards == BMN_GOLDEN_SEARCH_LONGEST;
    snprintf(d, n, "digest %s, longest %u%s", run.digest, st->n_cards ? st->top_cards[0].cards : 0,
             pass ? "" : " (expected other)");
    bmn_run_free(&run);
    return pass;
}

static const ls_case bmn_cases[] = {
    {"bmn published records (5 deals)", bmn_case_records},
    {"bmn small hand-built games and a loop", bmn_case_small},
    {"bmn fixed-seed search digest", bmn_case_search},
};

/* ---- lockstep bmn play | search ---------------------------------------------- */

typedef struct json_trace {
    FILE *out;
    int n;
} json_trace;

static int bmn_play_cmd(int argc, char **argv)
{
    int trace = 0, json = 0;
    ls_error err = {{0}, 0};
    ls_opt opts[] = {
        {"trace", LS_OPT_FLAG, &trace, 0, 0, NULL, "print the game trick by trick"},
        {"json", LS_OPT_FLAG, &json, 0, 0, NULL, "print the result as one JSON object"},
    };
    const char *pos[1];
    int npos = 0;
    int rc = ls_opts_parse(argc, argv, 3, opts, 2, pos, &npos, 1, &err);
    if (rc == 1) {
        ls_opts_help(stdout, "lockstep bmn play HANDS [--trace] [--json]",
                     "Plays one game of Beggar My Neighbour exactly, on the host. HANDS is hand A and\n"
                     "hand B, top card first, e.g. ---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---\n"
                     "Numerals are '-' or 2-10, penalty cards J Q K A; '/' separates the hands (optional\n"
                     "for 52 cards, split 26/26). Hands of any length and mix are accepted. A leads.\n"
                     "A game that repeats a trick-boundary state is reported as a loop.",
                     opts, 2);
        return 0;
    }
    if (rc == 0 && npos != 1)
        rc = ls_fail_usage(&err, "bmn play: expected one deal, like AJ--/-Q-- (see lockstep bmn play --help)");
    if (rc != 0)
        return ls_report(&err);
    bmn_host_opts o = {0, NULL, NULL, trace && !json ? stdout : NULL};
    bmn_host_result r;
    char msg[300];
    if (bmn_host_play_str(pos[0], &o, &r, msg, sizeof msg) != 0) {
        ls_fail_usage(&err, "bmn play: %s", msg);
        return ls_report(&err);
    }
    if (json) {
        printf("{\"hands\":");
        ls_json_string(stdout, pos[0]);
        printf(",\"outcome\":\"%s\",\"cards\":%" PRIu64 ",\"tricks\":%" PRIu64,
               r.outcome == BMN_LOOP ? "loop" : r.outcome == BMN_A_WINS ? "A" : "B", r.cards, r.tricks);
        if (r.outcome == BMN_LOOP)
            printf(",\"loop_start_cards\":%" PRIu64 ",\"loop_start_tricks\":%" PRIu64 ",\"loop_cards\":%" PRIu64
                   ",\"loop_tricks\":%" PRIu64,
                   r.loop_start_cards, r.loop_start_tricks, r.loop_cards, r.loop_tricks);
        printf("}\n");
        return 0;
    }
    if (r.outcome == BMN_LOOP)
        printf("loop: the state after trick %" PRIu64 " (card %" PRIu64 ") comes back after trick %" PRIu64
               " (card %" PRIu64 "): a loop of %" PRIu64 " tricks, %" PRIu64 " cards\n",
               r.loop_start_tricks, r.loop_start_cards, r.tricks, r.cards, r.loop_tricks, r.loop_cards);
    else
        printf("%s: %" PRIu64 " cards, %" PRIu64 " tricks\n", r.outcome == BMN_A_WINS ? "A wins" : "B wins", r.cards,
               r.tricks);
    return 0;
}

static int bmn_search_cmd(const ls_workload *w, int argc, char **argv)
{
    ls_common c = {0};
    ls_error err = {{0}, 0};
    bmn_params p;
    bmn_params_default(&p);
    ls_opt opts[LS_MAX_OPTS];
    int n = bmn_params_options(&p, opts, LS_MAX_OPTS - 4);
    opts[n++] = (ls_opt){"checkpoint", LS_OPT_STRING, &p.checkpoint, 0, 0, "FILE",
                         "resume from FILE if it exists; append new records and progress to it"};
    opts[n++] = (ls_opt)LS_OPT_BACKEND(&c);
    opts[n++] = (ls_opt)LS_OPT_JSON(&c);
    opts[n++] = (ls_opt)LS_OPT_QUIET(&c);
    int rc = ls_opts_parse(argc, argv, 3, opts, n, NULL, NULL, 0, &err);
    if (rc == 1) {
        ls_opts_help(stdout, "lockstep bmn search [options]",
                     "Plays N random deals (deal i is a pure function of seed and i) and reports the\n"
                     "longest games by cards and by tricks, the histogram of game lengths, deals/s and\n"
                     "every looping deal. Ctrl-C stops and prints the best so far.",
                     opts, n);
        return 0;
    }
    if (rc != 0)
        return ls_report(&err);
    ls_session s;
    if (ls_session_open(c.backend, &s, &err) != 0)
        return ls_report(&err);
    char label[200];
    snprintf(label, sizeof label, "bmn search on %s:%d", s.backend->name, s.index);
    ls_progress_bar bar;
    ls_progress prog = ls_progress_start(&bar, label, w->unit, c.quiet);
    ls_progress_catch_sigint();
    bmn_state *st = malloc(sizeof *st);
    if (!st) {
        ls_session_close(&s);
        return fprintf(stderr, "lockstep: out of memory\n"), 1;
    }
    rc = bmn_search_run(&s, &p, st, &prog, NULL, &err);
    ls_progress_finish(&bar);
    if (rc == 0)
        bmn_state_print(&p, &s, st, c.json, stdout);
    free(st->loops);
    free(st);
    ls_session_close(&s);
    return rc == 0 ? 0 : ls_report(&err);
}

static int bmn_command(const ls_workload *w, int argc, char **argv)
{
    const char *sub = argc > 2 ? argv[2] : NULL;
    if (sub && strcmp(sub, "play") == 0)
        return bmn_play_cmd(argc, argv);
    if (sub && strcmp(sub, "search") == 0)
        return bmn_search_cmd(w, argc, argv);
    if (sub && strcmp(sub, "--help") != 0 && strcmp(sub, "-h") != 0) {
        fprintf(stderr, "lockstep: bmn: unknown subcommand '%s' (expected play or search)\n", sub);
        return 2;
    }
    FILE *out = sub ? stdout : stderr;
    fprintf(out, "usage: lockstep bmn play HANDS [--trace] [--json]\n"
                 "       lockstep bmn search [--deals N] [--seed S] [--top K] [--checkpoint FILE] [--backend B] [--json]\n\n"
                 "Beggar My Neighbour: play one deal exactly, or search random deals for long games.\n"
                 "Each subcommand takes --help.\n");
    return out == stdout ? 0 : 2;
}

const ls_workload ls_workload_bmn = {
    .name = "bmn",
    .summary = "Beggar My Neighbour: play a deal, or search for the longest game",
    .unit = "deals",
    .command = bmn_command,
    .params_size = sizeof(bmn_params),
    .params_default = bmn_params_default,
    .params_quick = bmn_params_quick,
    .params_options = bmn_params_options,
    .params_validate = bmn_params_validate,
    .run = bmn_workload_run,
    .print = bmn_print,
    .diff = bmn_diff,
    .run_free = bmn_run_free,
    .cases = bmn_cases,
    .ncases = (int)(sizeof bmn_cases / sizeof bmn_cases[0]),
};
