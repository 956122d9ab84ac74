/* bmn_checkpoint.c - the checkpoint file of a search: resume and append. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bmn_search.h"

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
int bmn_ckpt_load(const char *path, const bmn_params *p, bmn_state *st, ls_error *err)
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
                bmn_top_insert(st->top_cards, &st->n_cards, st->k, recs[r], 0);
                bmn_top_insert(st->top_tricks, &st->n_tricks, st->k, recs[r], 1);
            }
        for (uint64_t r = 0; r < nl && rc == 0; r++)
            if (lrecs[r].deal < p->first + at.done && bmn_state_add_loop(st, lrecs[r].deal, &lrecs[r].r) != 0)
                rc = ls_fail(err, "out of memory reading the checkpoint");
    }
    free(recs);
    free(lrecs);
    free(line);
    fclose(f);
    return rc;
}

int bmn_ckpt_open(ckpt *c, const char *path, const bmn_params *p, int fresh, ls_error *err)
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

void bmn_ckpt_record(ckpt *c, const bmn_params *p, const bmn_hit *h)
{
    if (!c->f)
        return;
    char hands[128];
    bmn_deal_string(p->seed, h->deal, hands, sizeof hands);
    fprintf(c->f, "record deal %" PRIu64 " cards %u tricks %u hands %s\n", h->deal, h->cards, h->tricks, hands);
}

void bmn_ckpt_loop(ckpt *c, const bmn_params *p, const bmn_loop_rec *l)
{
    if (!c->f)
        return;
    char hands[128];
    bmn_deal_string(p->seed, l->deal, hands, sizeof hands);
    fprintf(c->f,
            "loop deal %" PRIu64 " cards %" PRIu64 " tricks %" PRIu64 " start_cards %" PRIu64 " start_tricks %" PRIu64
            " loop_cards %" PRIu64 " loop_tricks %" PRIu64 " hands %s\n",
            l->deal, l->r.cards, l->r.tricks, l->r.loop_start_cards, l->r.loop_start_tricks, l->r.loop_cards,
            l->r.loop_tricks, hands);
}

/* Progress lines end a chunk; flushed to the disk so hours are not lost. */
int bmn_ckpt_progress(ckpt *c, const bmn_state *st, ls_error *err)
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

