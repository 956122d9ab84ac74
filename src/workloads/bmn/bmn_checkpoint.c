/* bmn_checkpoint.c - the checkpoint of a search: an SQLite store (store.h)
 * of kind "bmn-search".
 *
 * The schema (docs/checkpoint.md explains each column):
 *   bmn_search    one row: seed, first, top, cap - which search this is
 *   bmn_progress  one row: deals done, their card total, finished games,
 *                 seconds, the --deals of the last run, and a digest
 *   bmn_hist      games per length bin (bins of BMN_HIST_WIDTH cards)
 *   bmn_record    every deal that entered a top list (by cards or tricks)
 *   bmn_loop      every looping deal
 * Each chunk of a search is one transaction (progress and the chunk's new
 * rows together), so the file always holds the state after some chunk.
 *
 * Nothing read back is trusted: every record and loop is re-dealt from
 * (seed, deal) and replayed, and must give its stored result; the
 * histogram must add up to the games finished; and a digest over the
 * whole state, kept with the progress, catches a changed count, target,
 * a lost row or a changed time that a replay cannot see. The schema must
 * be exactly this one (store.c checks it before anything is written, so a
 * trigger added to the file never runs). `lockstep bmn report`
 * is in bmn_ckpt_report.c. */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bmn_search.h"
#include "store.h"

/* Version 2: the digest covers the target (--deals of the last run) too.
 * A version 1 file (lockstep before that) is refused with a message that
 * says so (store.c), as its target could have been changed unseen. */
static const ls_store_kind bmn_kind = {
    "bmn-search", "BMN search checkpoint", 2,
    "CREATE TABLE bmn_search(id INTEGER PRIMARY KEY CHECK (id = 1), seed INTEGER NOT NULL, first INTEGER NOT NULL,"
    " top INTEGER NOT NULL, cap INTEGER NOT NULL);"
    "CREATE TABLE bmn_progress(id INTEGER PRIMARY KEY CHECK (id = 1), done INTEGER NOT NULL,"
    " total_cards INTEGER NOT NULL, finished INTEGER NOT NULL, seconds REAL NOT NULL, target INTEGER NOT NULL,"
    " digest INTEGER NOT NULL);"
    "CREATE TABLE bmn_hist(bin INTEGER PRIMARY KEY, games INTEGER NOT NULL);"
    "CREATE TABLE bmn_record(deal INTEGER PRIMARY KEY, cards INTEGER NOT NULL, tricks INTEGER NOT NULL,"
    " hands TEXT NOT NULL);"
    "CREATE TABLE bmn_loop(deal INTEGER PRIMARY KEY, cards INTEGER NOT NULL, tricks INTEGER NOT NULL,"
    " start_cards INTEGER NOT NULL, start_tricks INTEGER NOT NULL, loop_cards INTEGER NOT NULL,"
    " loop_tricks INTEGER NOT NULL, hands TEXT NOT NULL);",
};

struct bmn_ckpt {
    ls_store store;
    uint64_t saved_done;               /* st->done at the last commit */
    uint64_t saved_hist[BMN_HIST_BINS]; /* so that a commit writes only the bins that changed */
    uint64_t rows_sum;                 /* digest part of the rows stored so far */
};

/* ---- the digest -------------------------------------------------------------- */

/* SQLite integers are signed: u64 values (seeds, sums) are stored as the
 * int64 of the same bits. */
static sqlite3_int64 to_db(uint64_t v)
{
    sqlite3_int64 x;
    memcpy(&x, &v, sizeof x);
    return x;
}

static uint64_t from_db(sqlite3_stmt *st, int col)
{
    sqlite3_int64 x = sqlite3_column_int64(st, col);
    uint64_t v;
    memcpy(&v, &x, sizeof v);
    return v;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    return h;
}

/* Rows enter the digest as a sum, so that it does not depend on the order
 * in which they were stored and a commit only adds its new rows. */
static uint64_t record_hash(const bmn_hit *h)
{
    return mix(mix(mix(1, h->deal), h->cards), h->tricks);
}

static uint64_t loop_hash(const bmn_loop_rec *l)
{
    uint64_t h = mix(2, l->deal);
    h = mix(mix(h, l->r.cards), l->r.tricks);
    h = mix(mix(h, l->r.loop_start_cards), l->r.loop_start_tricks);
    return mix(mix(h, l->r.loop_cards), l->r.loop_tricks);
}

/* Everything stored that defines or describes the search: its parameters,
 * the target of its last run, the counts, the time, the histogram and
 * (rows_sum) every record and loop. */
static uint64_t state_digest(const bmn_params *p, uint64_t target, const bmn_state *st, uint64_t rows_sum)
{
    uint64_t h = mix(mix(mix(mix(mix(3, p->seed), p->first), p->top), p->cap), target);
    uint64_t secs;
    memcpy(&secs, &st->seconds, sizeof secs);
    h = mix(mix(mix(mix(h, st->done), st->total_cards), st->finished), secs);
    for (uint32_t b = 0; b < BMN_HIST_BINS; b++)
        h = mix(h, st->hist[b]);
    return h + rows_sum;
}

/* ---- reading and verifying -------------------------------------------------- */

LS_PRINTF(3, 4) static int damaged(ls_store *s, ls_error *err, const char *fmt, ...)
{
    char detail[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    return ls_fail_usage(err, "%s: is damaged: %s; the file was not changed", s->label, detail);
}

/* The exact result of deal `deal`: the engine up to the cap, then the
 * host player (with loop detection), as the search itself does. */
static int replay(const bmn_params *p, uint64_t deal, bmn_host_result *r, char *msg, size_t len)
{
    uint8_t cards[52];
    bmn_deal(p->seed, deal, cards);
    bmn_result q;
    if (bmn_play_capped(cards, 26, 26, (uint32_t)p->cap, &q) != BMN_CAPPED) {
        memset(r, 0, sizeof *r);
        r->outcome = q.outcome;
        r->cards = q.cards;
        r->tricks = q.tricks;
        return 0;
    }
    return bmn_host_play(cards, 26, cards + 26, 26, NULL, r, msg, len);
}

/* Checks that a stored row belongs to a deal already played and that its
 * hands are that deal's. */
static int check_deal(ls_store *s, const bmn_params *p, const bmn_state *st, uint64_t deal, const char *hands,
                      ls_error *err)
{
    if (deal < p->first || deal - p->first >= st->done)
        return damaged(s, err, "deal %" PRIu64 " is stored but lies outside the deals played", deal);
    char want[128];
    bmn_deal_string(p->seed, deal, want, sizeof want);
    if (!hands || strcmp(hands, want) != 0)
        return damaged(s, err, "the hands stored for deal %" PRIu64 " are not that deal's (%s)", deal,
                       hands ? hands : "none");
    return 0;
}

static int read_search(ls_store *s, bmn_params *fp, ls_error *err)
{
    sqlite3_stmt *st;
    if (ls_store_prepare(s, "SELECT seed, first, top, cap FROM bmn_search WHERE id = 1", &st, err) != 0)
        return -1;
    int rc = ls_store_step(s, st, SQLITE_ROW, err);
    if (rc == 0) {
        fp->seed = from_db(st, 0);
        fp->first = from_db(st, 1);
        fp->top = from_db(st, 2);
        fp->cap = from_db(st, 3);
        if (fp->top < 1 || fp->top > BMN_MAX_TOP || fp->cap < 10000 || fp->cap > 4000000000ull ||
            fp->first > 1000000000000000000ull)
            rc = ls_fail_usage(err, "%s: is damaged: impossible search parameters; the file was not changed",
                               s->label);
    }
    sqlite3_finalize(st);
    return rc;
}

static int read_progress(ls_store *s, bmn_state *st, uint64_t *target, uint64_t *digest, ls_error *err)
{
    sqlite3_stmt *q;
    if (ls_store_prepare(s, "SELECT done, total_cards, finished, seconds, target, digest FROM bmn_progress "
                            "WHERE id = 1", &q, err) != 0)
        return -1;
    int rc = ls_store_step(s, q, SQLITE_ROW, err);
    if (rc == 0) {
        st->done = from_db(q, 0);
        st->total_cards = from_db(q, 1);
        st->finished = from_db(q, 2);
        st->seconds = sqlite3_column_double(q, 3);
        *target = from_db(q, 4);
        *digest = from_db(q, 5);
    }
    sqlite3_finalize(q);
    return rc;
}

static int read_hist(ls_store *s, bmn_state *st, ls_error *err)
{
    sqlite3_stmt *q;
    if (ls_store_prepare(s, "SELECT bin, games FROM bmn_hist", &q, err) != 0)
        return -1;
    int rc = 0, x;
    while (rc == 0 && (x = sqlite3_step(q)) == SQLITE_ROW) {
        sqlite3_int64 bin = sqlite3_column_int64(q, 0);
        if (bin < 0 || bin >= (sqlite3_int64)BMN_HIST_BINS)
            rc = damaged(s, err, "histogram bin %lld does not exist", (long long)bin);
        else
            st->hist[bin] = from_db(q, 1);
    }
    if (rc == 0 && x != SQLITE_DONE)
        rc = ls_store_fail(s, x, "reading it", err);
    sqlite3_finalize(q);
    return rc;
}

/* Reads every record, replays it, and enters it in the top lists. */
static int read_records(bmn_ckpt *c, const bmn_params *p, bmn_state *st, ls_error *err)
{
    ls_store *s = &c->store;
    sqlite3_stmt *q;
    if (ls_store_prepare(s, "SELECT deal, cards, tricks, hands FROM bmn_record ORDER BY deal", &q, err) != 0)
        return -1;
    int rc = 0, x;
    while (rc == 0 && (x = sqlite3_step(q)) == SQLITE_ROW) {
        bmn_hit h = {from_db(q, 0), (uint32_t)sqlite3_column_int64(q, 1), (uint32_t)sqlite3_column_int64(q, 2)};
        rc = check_deal(s, p, st, h.deal, (const char *)sqlite3_column_text(q, 3), err);
        bmn_host_result r;
        char msg[200];
        if (rc == 0 && replay(p, h.deal, &r, msg, sizeof msg) != 0)
            rc = ls_fail(err, "%s: cannot replay deal %" PRIu64 ": %s", s->label, h.deal, msg);
        if (rc == 0 && (r.outcome == BMN_LOOP || r.cards != (uint64_t)sqlite3_column_int64(q, 1) ||
                        r.tricks != (uint64_t)sqlite3_column_int64(q, 2)))
            rc = damaged(s, err, "the record of deal %" PRIu64 " (%u cards, %u tricks) does not replay: the deal %s %"
                         PRIu64 " cards, %" PRIu64 " tricks", h.deal, h.cards, h.tricks,
                         r.outcome == BMN_LOOP ? "loops after" : "plays", r.cards, r.tricks);
        if (rc == 0) {
            bmn_top_insert(st->top_cards, &st->n_cards, st->k, h, 0);
            bmn_top_insert(st->top_tricks, &st->n_tricks, st->k, h, 1);
            c->rows_sum += record_hash(&h);
        }
    }
    if (rc == 0 && x != SQLITE_DONE)
        rc = ls_store_fail(s, x, "reading it", err);
    sqlite3_finalize(q);
    return rc;
}

static int read_loops(bmn_ckpt *c, const bmn_params *p, bmn_state *st, ls_error *err)
{
    ls_store *s = &c->store;
    sqlite3_stmt *q;
    if (ls_store_prepare(s, "SELECT deal, cards, tricks, start_cards, start_tricks, loop_cards, loop_tricks, hands "
                            "FROM bmn_loop ORDER BY deal", &q, err) != 0)
        return -1;
    int rc = 0, x;
    while (rc == 0 && (x = sqlite3_step(q)) == SQLITE_ROW) {
        bmn_loop_rec l = {from_db(q, 0), {BMN_LOOP, from_db(q, 1), from_db(q, 2), from_db(q, 3), from_db(q, 4),
                                          from_db(q, 5), from_db(q, 6)}};
        rc = check_deal(s, p, st, l.deal, (const char *)sqlite3_column_text(q, 7), err);
        bmn_host_result r;
        char msg[200];
        if (rc == 0 && replay(p, l.deal, &r, msg, sizeof msg) != 0)
            rc = ls_fail(err, "%s: cannot replay deal %" PRIu64 ": %s", s->label, l.deal, msg);
        if (rc == 0 && memcmp(&r, &l.r, sizeof r) != 0)
            rc = damaged(s, err, "the loop of deal %" PRIu64 " does not replay", l.deal);
        if (rc == 0 && bmn_state_add_loop(st, l.deal, &l.r) != 0)
            rc = ls_fail(err, "out of memory reading %s", s->label);
        if (rc == 0)
            c->rows_sum += loop_hash(&l);
    }
    if (rc == 0 && x != SQLITE_DONE)
        rc = ls_store_fail(s, x, "reading it", err);
    sqlite3_finalize(q);
    return rc;
}

/* The first option that defines a search and differs between the stored
 * search fp and p, as "--seed 8 differs from this checkpoint's --seed 7";
 * 0 when they are the same search. out may be NULL (len 0). */
static int first_difference(const bmn_params *fp, const bmn_params *p, char *out, size_t len)
{
    const struct {
        const char *name;
        uint64_t stored, given;
    } option[] = {{"seed", fp->seed, p->seed}, {"first", fp->first, p->first}, {"top", fp->top, p->top},
                  {"cap", fp->cap, p->cap}};
    for (size_t i = 0; i < sizeof option / sizeof option[0]; i++)
        if (option[i].stored != option[i].given) {
            snprintf(out, len, "--%s %" PRIu64 " differs from this checkpoint's --%s %" PRIu64, option[i].name,
                     option[i].given, option[i].name, option[i].stored);
            return 1;
        }
    return 0;
}

/* The refusal of a checkpoint of another search, naming the option. */
static int another_search(const char *path, const bmn_params *fp, const bmn_params *p, ls_error *err)
{
    char what[200];
    first_difference(fp, p, what, sizeof what);
    return ls_fail_usage(err, "--checkpoint %s: %s; give its options (or none of them: a resume takes them from the "
                         "file) or another file; the file was not changed", path, what);
}

/* Reads and verifies the whole state of the search p into st. */
static int read_state(bmn_ckpt *c, const bmn_params *p, bmn_state *st, uint64_t *target, ls_error *err)
{
    uint64_t digest = 0;
    if (read_progress(&c->store, st, target, &digest, err) != 0 || read_hist(&c->store, st, err) != 0 ||
        read_records(c, p, st, err) != 0 || read_loops(c, p, st, err) != 0)
        return -1;
    uint64_t games = 0;
    for (uint32_t b = 0; b < BMN_HIST_BINS; b++)
        games += st->hist[b];
    if (games != st->finished || st->finished + st->n_loops != st->done)
        return damaged(&c->store, err, "the histogram (%" PRIu64 " games) does not add up to the deals played",
                       games);
    if (state_digest(p, *target, st, c->rows_sum) != digest)
        return damaged(&c->store, err, "its digest does not match its contents (a count, target, time or row was "
                       "changed or lost)");
    return 0;
}

/* ---- writing ------------------------------------------------------------------- */

static int write_search(bmn_ckpt *c, const bmn_params *p, ls_error *err)
{
    ls_store *s = &c->store;
    sqlite3_stmt *q;
    if (ls_store_prepare(s, "INSERT INTO bmn_search(id, seed, first, top, cap) VALUES (1, ?1, ?2, ?3, ?4);", &q,
                         err) != 0)
        return -1;
    sqlite3_bind_int64(q, 1, to_db(p->seed));
    sqlite3_bind_int64(q, 2, to_db(p->first));
    sqlite3_bind_int64(q, 3, to_db(p->top));
    sqlite3_bind_int64(q, 4, to_db(p->cap));
    int rc = ls_store_step(s, q, SQLITE_DONE, err);
    sqlite3_finalize(q);
    return rc;
}

static int write_progress(bmn_ckpt *c, const bmn_params *p, const bmn_state *st, uint64_t rows_sum, ls_error *err)
{
    ls_store *s = &c->store;
    sqlite3_stmt *q;
    if (ls_store_prepare(s, "INSERT OR REPLACE INTO bmn_progress(id, done, total_cards, finished, seconds, target, "
                            "digest) VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6)", &q, err) != 0)
        return -1;
    sqlite3_bind_int64(q, 1, to_db(st->done));
    sqlite3_bind_int64(q, 2, to_db(st->total_cards));
    sqlite3_bind_int64(q, 3, to_db(st->finished));
    sqlite3_bind_double(q, 4, st->seconds);
    sqlite3_bind_int64(q, 5, to_db(p->deals));
    sqlite3_bind_int64(q, 6, to_db(state_digest(p, p->deals, st, rows_sum)));
    int rc = ls_store_step(s, q, SQLITE_DONE, err);
    sqlite3_finalize(q);
    return rc;
}

static int write_hist(bmn_ckpt *c, const bmn_state *st, ls_error *err)
{
    ls_store *s = &c->store;
    sqlite3_stmt *q;
    if (ls_store_prepare(s, "INSERT OR REPLACE INTO bmn_hist(bin, games) VALUES (?1, ?2)", &q, err) != 0)
        return -1;
    int rc = 0;
    for (uint32_t b = 0; b < BMN_HIST_BINS && rc == 0; b++) {
        if (st->hist[b] == c->saved_hist[b])
            continue;
        sqlite3_bind_int64(q, 1, b);
        sqlite3_bind_int64(q, 2, to_db(st->hist[b]));
        rc = ls_store_step(s, q, SQLITE_DONE, err);
        sqlite3_reset(q);
    }
    sqlite3_finalize(q);
    return rc;
}

static int by_deal(const void *x, const void *y)
{
    uint64_t a = ((const bmn_hit *)x)->deal, b = ((const bmn_hit *)y)->deal;
    return (a > b) - (a < b);
}

/* The deals of this chunk (deal >= from) that are in a top list now, each
 * once: the ones that entered and left again within the chunk need not be
 * kept, since the top lists of the stored rows are still these. */
static uint32_t new_hits(const bmn_state *st, uint64_t from, bmn_hit *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < st->n_cards; i++)
        if (st->top_cards[i].deal >= from)
            out[n++] = st->top_cards[i];
    for (uint32_t i = 0; i < st->n_tricks; i++)
        if (st->top_tricks[i].deal >= from)
            out[n++] = st->top_tricks[i];
    qsort(out, n, sizeof *out, by_deal);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (m == 0 || out[m - 1].deal != out[i].deal)
            out[m++] = out[i];
    return m;
}

static int write_records(bmn_ckpt *c, const bmn_params *p, const bmn_state *st, uint64_t from, uint64_t *sum,
                         ls_error *err)
{
    ls_store *s = &c->store;
    bmn_hit *hits = malloc(2 * BMN_MAX_TOP * sizeof *hits);
    if (!hits)
        return ls_fail(err, "out of memory saving %s", s->label);
    uint32_t n = new_hits(st, from, hits);
    sqlite3_stmt *q = NULL;
    int rc = ls_store_prepare(s, "INSERT INTO bmn_record(deal, cards, tricks, hands) VALUES (?1, ?2, ?3, ?4)", &q,
                              err);
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        char hands[128];
        bmn_deal_string(p->seed, hits[i].deal, hands, sizeof hands);
        sqlite3_bind_int64(q, 1, to_db(hits[i].deal));
        sqlite3_bind_int64(q, 2, hits[i].cards);
        sqlite3_bind_int64(q, 3, hits[i].tricks);
        sqlite3_bind_text(q, 4, hands, -1, SQLITE_TRANSIENT);
        rc = ls_store_step(s, q, SQLITE_DONE, err);
        sqlite3_reset(q);
        *sum += record_hash(&hits[i]);
    }
    sqlite3_finalize(q);
    free(hits);
    return rc;
}

static int write_loops(bmn_ckpt *c, const bmn_params *p, const bmn_state *st, uint64_t from, uint64_t *sum,
                       ls_error *err)
{
    ls_store *s = &c->store;
    sqlite3_stmt *q;
    if (ls_store_prepare(s, "INSERT INTO bmn_loop(deal, cards, tricks, start_cards, start_tricks, loop_cards, "
                            "loop_tricks, hands) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", &q, err) != 0)
        return -1;
    int rc = 0;
    for (uint32_t i = 0; i < st->n_loops && rc == 0; i++) {
        const bmn_loop_rec *l = &st->loops[i];
        if (l->deal < from)
            continue;
        char hands[128];
        bmn_deal_string(p->seed, l->deal, hands, sizeof hands);
        uint64_t v[7] = {l->deal, l->r.cards, l->r.tricks, l->r.loop_start_cards, l->r.loop_start_tricks,
                         l->r.loop_cards, l->r.loop_tricks};
        for (int k = 0; k < 7; k++)
            sqlite3_bind_int64(q, k + 1, to_db(v[k]));
        sqlite3_bind_text(q, 8, hands, -1, SQLITE_TRANSIENT);
        rc = ls_store_step(s, q, SQLITE_DONE, err);
        sqlite3_reset(q);
        *sum += loop_hash(l);
    }
    sqlite3_finalize(q);
    return rc;
}

/* ---- the driver's calls ------------------------------------------------------- */

static void ckpt_free(bmn_ckpt *c)
{
    ls_store_close(&c->store, NULL);
    free(c);
}

/* Opens path for the search p (see bmn_search.h). */
int bmn_ckpt_open(bmn_ckpt **out, const char *path, const bmn_params *p, bmn_state *st, ls_error *err)
{
    *out = NULL;
    bmn_ckpt *c = calloc(1, sizeof *c);
    if (!c)
        return ls_fail(err, "out of memory opening the checkpoint");
    char label[300];
    snprintf(label, sizeof label, "--checkpoint %s", path);
    if (ls_store_open(&c->store, path, label, &bmn_kind, 0, err) != 0) {
        free(c);
        return -1;
    }
    int rc;
    if (c->store.fresh) {
        rc = write_search(c, p, err) != 0 || write_progress(c, p, st, 0, err) != 0 ? -1 : 0;
    } else {
        bmn_params fp = *p;
        uint64_t target;
        rc = read_search(&c->store, &fp, err);
        if (rc == 0 && first_difference(&fp, p, NULL, 0))
            rc = another_search(path, &fp, p, err);
        if (rc == 0)
            rc = read_state(c, p, st, &target, err);
        if (rc == 0 && st->done > p->deals)
            rc = ls_fail_usage(err, "--checkpoint %s has already played %" PRIu64 " deals, more than --deals %" PRIu64
                               " (the file was not changed)", path, st->done, p->deals);
    }
    if (rc == 0)
        rc = ls_store_commit(&c->store, err);
    if (rc != 0) {
        ckpt_free(c);
        return -1;
    }
    c->saved_done = st->done;
    memcpy(c->saved_hist, st->hist, sizeof c->saved_hist);
    *out = c;
    return 0;
}

/* One transaction: the chunk's new records and loops, the histogram bins
 * that changed, and the progress. */
int bmn_ckpt_commit(bmn_ckpt *c, const bmn_params *p, const bmn_state *st, ls_error *err)
{
    uint64_t from = p->first + c->saved_done, sum = c->rows_sum;
    if (ls_store_begin(&c->store, err) != 0)
        return -1;
    if (write_records(c, p, st, from, &sum, err) != 0 || write_loops(c, p, st, from, &sum, err) != 0 ||
        write_hist(c, st, err) != 0 || write_progress(c, p, st, sum, err) != 0 || ls_store_commit(&c->store, err) != 0) {
        ls_store_exec(&c->store, "ROLLBACK", NULL);
        c->store.in_tx = 0;
        return -1;
    }
    c->rows_sum = sum;
    c->saved_done = st->done;
    memcpy(c->saved_hist, st->hist, sizeof c->saved_hist);
    return 0;
}

int bmn_ckpt_close(bmn_ckpt *c, ls_error *err)
{
    if (!c)
        return 0;
    int rc = ls_store_close(&c->store, err);
    free(c);
    return rc;
}

/* ---- resuming with the stored options ------------------------------------------ */

/* The --deals of the last run on s (what a resume without --deals plays
 * to). */
static int read_target(ls_store *s, uint64_t *target, ls_error *err)
{
    sqlite3_stmt *q;
    if (ls_store_prepare(s, "SELECT target FROM bmn_progress WHERE id = 1", &q, err) != 0)
        return -1;
    int rc = ls_store_step(s, q, SQLITE_ROW, err);
    if (rc == 0)
        *target = from_db(q, 0);
    sqlite3_finalize(q);
    if (rc == 0 && (*target < 1 || *target > BMN_MAX_DEALS))
        rc = damaged(s, err, "its target of %" PRIu64 " deals is impossible", *target);
    return rc;
}

/* Completes p from the checkpoint at path before a search resumes: each
 * option that defines the search is the file's when not given, and must
 * be the file's when given; --deals, when not given, is the --deals of
 * its last run. A missing or empty file is a new search (p stays as it
 * is); anything the search's own open would refuse is refused here
 * already, before a device is opened. Only reads: bmn_ckpt_open checks
 * all again (and verifies the whole file) under the writer's lock. */
/* Opens a checkpoint to read the options stored in it. Read-only (every
 * rank of an MPI job does it at once, beside nothing else), except when a
 * search was killed in the middle of a commit and left its journal: only
 * a writer may roll that back to the last commit, as the search that
 * follows would. Of ranks that all see the journal one rolls it back; the
 * others find the writer's lock taken and read once it is gone. */
static int open_for_options(ls_store *s, const char *path, const char *label, ls_error *err)
{
    char journal[PATH_MAX + 16];
    struct stat jb;
    snprintf(journal, sizeof journal, "%s-journal", path);
    if (stat(journal, &jb) == 0 && jb.st_size > 0 && ls_store_open(s, path, label, &bmn_kind, 0, err) == 0)
        return 0;
    for (int tries = 0;; tries++) {
        if (stat(journal, &jb) != 0 || jb.st_size == 0 || tries == 50)
            return ls_store_open(s, path, label, &bmn_kind, 1, err);
        struct timespec pause = {0, 100 * 1000 * 1000}; /* another process rolls it back */
        nanosleep(&pause, NULL);
    }
}

int bmn_ckpt_options(const char *path, bmn_params *p, const bmn_given *given, ls_error *err)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || (S_ISREG(sb.st_mode) && sb.st_size == 0))
        return 0; /* nothing saved yet (or a path the open refuses in its words) */
    ls_store s;
    char label[300];
    snprintf(label, sizeof label, "--checkpoint %s", path);
    if (open_for_options(&s, path, label, err) != 0)
        return -1;
    if (s.fresh) {
        /* A search killed in the middle of its first commit: rolling its
         * journal back left the file as it was before, empty, and the open
         * made a store in it. Nothing was saved: a new search, as for an
         * empty file (closing rolls the new store back). */
        ls_store_close(&s, NULL);
        return 0;
    }
    bmn_params fp = *p;
    uint64_t target = 0;
    int rc = read_search(&s, &fp, err);
    if (rc == 0)
        rc = read_target(&s, &target, err);
    ls_store_close(&s, NULL);
    if (rc != 0)
        return -1;
    bmn_params want = fp; /* the stored search, with what the command line gave */
    want.seed = given->seed ? p->seed : fp.seed;
    want.first = given->first ? p->first : fp.first;
    want.top = given->top ? p->top : fp.top;
    want.cap = given->cap ? p->cap : fp.cap;
    if (first_difference(&fp, &want, NULL, 0))
        return another_search(path, &fp, &want, err);
    p->seed = fp.seed;
    p->first = fp.first;
    p->top = fp.top;
    p->cap = fp.cap;
    if (!given->deals)
        p->deals = target;
    return 0;
}

/* ---- lockstep bmn report FILE ---------------------------------------------------- */

/* Reads and verifies the checkpoint at path without changing it. */
int bmn_ckpt_read(const char *path, bmn_params *p, bmn_state *st, int *running, ls_error *err)
{
    bmn_ckpt *c = calloc(1, sizeof *c);
    if (!c)
        return ls_fail(err, "out of memory opening the checkpoint");
    if (ls_store_open(&c->store, path, path, &bmn_kind, 1, err) != 0) {
        free(c);
        return -1;
    }
    memset(st, 0, sizeof *st);
    if (running)
        *running = c->store.writer_running;
    int rc = read_search(&c->store, p, err);
    st->k = (uint32_t)p->top;
    if (rc == 0)
        rc = read_state(c, p, st, &p->deals, err);
    st->interrupted = st->done < p->deals;
    p->checkpoint = path;
    ckpt_free(c);
    if (rc != 0) {
        free(st->loops);
        st->loops = NULL;
    }
    return rc;
}
