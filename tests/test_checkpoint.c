/* test_checkpoint.c - the BMN checkpoint store, through the calls the search
 * driver makes (bmn_ckpt_open / commit / close), with a host-only driver:
 *   - a search saved chunk by chunk and resumed equals one run straight;
 *   - a commit torn at every byte of its write-ahead log (what a kill or a
 *     power cut mid-commit leaves) resumes to the state before or after
 *     that chunk, never to anything else, and a resume from there ends
 *     where the uninterrupted search ends;
 *   - a byte changed anywhere in a saved file is refused, or gives the
 *     very same state, never a different one; a refused file is unchanged;
 *   - a second writer is refused while the first holds the file, and a
 *     reader reads beside it (its last commit, and that it runs);
 *   - directories, devices, empty and foreign files are refused untouched;
 *   - a changed target (the digest covers it) and an added trigger (the
 *     schema must be exactly lockstep's) are refused untouched.
 * usage: test_checkpoint [STEP]  (every STEP-th byte is flipped; default 7) */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sqlite3.h>
#include <unistd.h>

#include "bmn_search.h"

#include "check.h"

/* ---- a host-only search ------------------------------------------------------ */

/* Plays the next n deals of p into st, as bmn_search.c does with a device:
 * the engine up to the cap, the exact host player beyond. */
static void play(const bmn_params *p, bmn_state *st, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t deal = p->first + st->done + i;
        uint8_t c[52];
        bmn_deal(p->seed, deal, c);
        bmn_result q;
        if (bmn_play_capped(c, 26, 26, (uint32_t)p->cap, &q) != BMN_CAPPED) {
            bmn_state_add_game(st, (bmn_hit){deal, q.cards, q.tricks});
            continue;
        }
        bmn_host_result r;
        char msg[200];
        if (bmn_host_play(c, 26, c + 26, 26, NULL, &r, msg, sizeof msg) != 0) {
            printf("FAIL deal %" PRIu64 ": %s\n", deal, msg);
            exit(1);
        }
        if (r.outcome == BMN_LOOP)
            bmn_state_add_loop(st, deal, &r);
        else
            bmn_state_add_game(st, (bmn_hit){deal, (uint32_t)r.cards, (uint32_t)r.tricks});
    }
    st->done += n;
    st->seconds += 0.001 * (double)n;
}

static bmn_state *new_state(const bmn_params *p)
{
    bmn_state *st = calloc(1, sizeof *st);
    if (!st) {
        printf("FAIL out of memory\n");
        exit(1);
    }
    st->k = (uint32_t)p->top;
    return st;
}

static void free_state(bmn_state *st)
{
    if (st)
        free(st->loops);
    free(st);
}

static int same_state(const bmn_state *a, const bmn_state *b)
{
    return a->done == b->done && a->total_cards == b->total_cards && a->finished == b->finished &&
           a->seconds == b->seconds && memcmp(a->hist, b->hist, sizeof a->hist) == 0 && a->n_cards == b->n_cards &&
           a->n_tricks == b->n_tricks && a->n_loops == b->n_loops &&
           memcmp(a->top_cards, b->top_cards, a->n_cards * sizeof a->top_cards[0]) == 0 &&
           memcmp(a->top_tricks, b->top_tricks, a->n_tricks * sizeof a->top_tricks[0]) == 0 &&
           (a->n_loops == 0 || memcmp(a->loops, b->loops, a->n_loops * sizeof a->loops[0]) == 0);
}

/* Chunks of growing size, like the driver's (results do not depend on
 * the chunking). */
static uint64_t chunk_after(uint64_t done)
{
    return done < BMN_FIRST_CHUNK ? BMN_FIRST_CHUNK : done;
}

/* Resumes the search in path to p->deals on the host; NULL if refused. */
static bmn_state *resume_to_end(const char *path, const bmn_params *p, ls_error *err)
{
    bmn_state *st = new_state(p);
    bmn_ckpt *c;
    if (bmn_ckpt_open(&c, path, p, st, err) != 0) {
        free_state(st);
        return NULL;
    }
    while (st->done < p->deals) {
        uint64_t n = chunk_after(st->done);
        play(p, st, n < p->deals - st->done ? n : p->deals - st->done);
        if (bmn_ckpt_commit(c, p, st, err) != 0)
            break;
    }
    if (bmn_ckpt_close(c, err) != 0 || st->done != p->deals) {
        free_state(st);
        return NULL;
    }
    return st;
}

/* ---- files ---------------------------------------------------------------------- */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, room = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (n == room) {
            room = room ? 2 * room : 65536;
            char *b = realloc(buf, room);
            if (!b)
                break;
            buf = b;
        }
        size_t got = fread(buf + n, 1, room - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    *len = n;
    return buf;
}

static int spill(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static off_t size_of(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? sb.st_size : -1;
}

/* ---- the tests ------------------------------------------------------------------- */

static const char *dir;
static bmn_params P;
static bmn_state *whole; /* the search run straight through */

static void path_in(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", dir, name);
}

/* Saves the search chunk by chunk; before the last commit, copies what a
 * kill would leave at any byte of that commit: the file and its log. */
static void test_save_and_tear(void)
{
    char path[512], wal[520], copy[512], copy_wal[520];
    path_in(path, sizeof path, "torn.ckpt");
    snprintf(wal, sizeof wal, "%s-wal", path);
    path_in(copy, sizeof copy, "copy.ckpt");
    snprintf(copy_wal, sizeof copy_wal, "%s-wal", copy);
    ls_error err = {{0}, 0};
    bmn_state *st = new_state(&P), *before = new_state(&P);
    bmn_ckpt *c;
    if (bmn_ckpt_open(&c, path, &P, st, &err) != 0) {
        printf("FAIL open: %s\n", err.msg);
        exit(1);
    }
    size_t wal_before = 0;
    while (st->done < P.deals) {
        uint64_t n = chunk_after(st->done);
        n = n < P.deals - st->done ? n : P.deals - st->done;
        if (st->done + n == P.deals) {
            wal_before = (size_t)size_of(wal);
            *before = *st;
            before->loops = NULL;
            before->n_loops = 0;
        }
        play(&P, st, n);
        check(bmn_ckpt_commit(c, &P, st, &err) == 0, "a chunk commits");
    }
    check(same_state(st, whole), "the saved search equals the one run straight");
    size_t db_len, wal_len;
    char *db = slurp(path, &db_len), *log = slurp(wal, &wal_len);
    check(db && log && wal_len > wal_before, "the last commit went to the write-ahead log");
    check(bmn_ckpt_close(c, &err) == 0 && size_of(wal) < 0, "closing folds the log into the file");

    /* Every byte of the last commit's log: a kill there loses at most
     * that chunk. */
    int other = 0, refused = 0, resumed_ok = 1;
    for (size_t t = wal_before; db && log && t <= wal_len; t++) {
        unlink(copy_wal);
        if (spill(copy, db, db_len) != 0 || spill(copy_wal, log, t) != 0) {
            printf("FAIL cannot write %s\n", copy);
            exit(1);
        }
        bmn_state *got = new_state(&P);
        if (bmn_ckpt_open(&c, copy, &P, got, &err) != 0) {
            refused++;
            free_state(got);
            continue;
        }
        bmn_ckpt_close(c, &err);
        const bmn_state *want = t == wal_len ? st : before;
        other += !same_state(got, want);
        free_state(got);
        /* A resume from both kinds of tear ends where the search ends. */
        if (t == wal_before || t == wal_len) {
            if (spill(copy, db, db_len) != 0 || spill(copy_wal, log, t) != 0)
                exit(1);
            bmn_state *end = resume_to_end(copy, &P, &err);
            resumed_ok &= end && same_state(end, whole);
            free_state(end);
        }
    }
    printf("torn commit: %zu byte positions tried\n", wal_len - wal_before + 1);
    check(refused == 0, "a commit torn at any byte is never refused");
    check(other == 0, "a commit torn at any byte loads the state before or after that chunk, nothing else");
    check(resumed_ok, "resumed from a torn commit, the search ends as the uninterrupted one");
    unlink(copy_wal);
    unlink(copy);
    free(db);
    free(log);
    free_state(st);
    free_state(before);
}

/* Each STEP-th byte of a saved file, changed: refused (the file left as
 * it is) or the same state, never a different result. */
static void test_byte_flips(long step)
{
    char path[512], copy[512];
    path_in(path, sizeof path, "flip.ckpt");
    path_in(copy, sizeof copy, "flipped.ckpt");
    ls_error err = {{0}, 0};
    bmn_params half = P;
    half.deals = P.deals / 2;
    bmn_state *saved = resume_to_end(path, &half, &err);
    check(saved != NULL, "a search saves to a new checkpoint");
    size_t len;
    char *orig = slurp(path, &len);
    if (!saved || !orig)
        return;
    int wrong = 0, untouched = 1, tried = 0, same = 0;
    for (size_t i = 0; i < len; i += (size_t)step) {
        orig[i] ^= (char)(1u << (i % 8));
        if (spill(copy, orig, len) != 0)
            exit(1);
        tried++;
        bmn_state *got = new_state(&half);
        bmn_ckpt *c;
        if (bmn_ckpt_open(&c, copy, &half, got, &err) == 0) {
            bmn_ckpt_close(c, &err);
            same++;
            if (!same_state(got, saved)) {
                wrong++;
                printf("byte %zu changed: accepted with another result\n", i);
            }
        } else {
            size_t n2;
            char *after = slurp(copy, &n2);
            int ok = after && n2 == len && memcmp(after, orig, len) == 0 && err.usage;
            if (!ok)
                printf("byte %zu changed: %s (%s)\n", i, err.msg, err.usage ? "exit 2" : "exit 1");
            untouched &= ok;
            free(after);
        }
        free_state(got);
        orig[i] ^= (char)(1u << (i % 8));
    }
    printf("byte flips: %d tried, %d refused, %d harmless\n", tried, tried - same, same);
    check(wrong == 0, "a changed byte is refused or harmless, never a different result");
    check(untouched, "a refused file is left exactly as it was, exit code 2");
    unlink(copy);
    free(orig);
    free_state(saved);
}

static void test_second_writer(void)
{
    char path[512];
    path_in(path, sizeof path, "locked.ckpt");
    ls_error err = {{0}, 0};
    bmn_state *a = new_state(&P), *b = new_state(&P);
    bmn_ckpt *c1, *c2;
    check(bmn_ckpt_open(&c1, path, &P, a, &err) == 0, "a first writer opens");
    int refused = bmn_ckpt_open(&c2, path, &P, b, &err) != 0;
    check(refused && err.usage && strstr(err.msg, "in use") && strstr(err.msg, path),
          "a second writer is refused, naming the file");
    if (!refused)
        bmn_ckpt_close(c2, NULL);
    /* A reader reads beside the writer: its last commit, and that it runs. */
    bmn_params got;
    int running = -1;
    check(bmn_ckpt_read(path, &got, b, &running, &err) == 0 && running == 1 && b->done == 0,
          "a reader reads beside the writer (nothing played yet) and sees that it runs");
    free(b->loops);
    play(&P, a, BMN_FIRST_CHUNK);
    check(bmn_ckpt_commit(c1, &P, a, &err) == 0, "the writer commits a chunk beside the reader");
    check(bmn_ckpt_read(path, &got, b, &running, &err) == 0 && running == 1 && b->done == BMN_FIRST_CHUNK &&
              same_state(a, b),
          "a reader then reads the writer's last commit");
    free(b->loops);
    check(bmn_ckpt_close(c1, &err) == 0, "the writer closes");
    char wal[520];
    snprintf(wal, sizeof wal, "%s-wal", path);
    check(size_of(wal) < 0, "after it, the checkpoint is one file");
    check(bmn_ckpt_read(path, &got, b, &running, &err) == 0 && running == 0 && b->done == BMN_FIRST_CHUNK,
          "a reader after the writer sees that none runs");
    free(b->loops);
    b->loops = NULL;
    free_state(a);
    free_state(b);
}

static ls_error last_refusal; /* the message of expect_refused's refusal */

static void expect_refused(const char *path, const char *why)
{
    ls_error err = {{0}, 0};
    bmn_state *st = new_state(&P);
    bmn_ckpt *c;
    size_t before_len = 0, after_len = 0;
    char *before = slurp(path, &before_len);
    int refused = bmn_ckpt_open(&c, path, &P, st, &err) != 0;
    if (!refused)
        bmn_ckpt_close(c, NULL);
    char *after = slurp(path, &after_len);
    char what[300];
    snprintf(what, sizeof what, "%s: refused with one line, exit code 2, untouched", why);
    check(refused && err.usage && !strchr(err.msg, '\n') &&
              (!before || (after && before_len == after_len && memcmp(before, after, before_len) == 0)),
          what);
    if (refused)
        printf("  (%s)\n", err.msg);
    last_refusal = err;
    free(before);
    free(after);
    free_state(st);
}

/* A copy of the saved search flip.ckpt, changed by sql; 0 when made. */
static int changed_copy(char *out, size_t len, const char *name, const char *sql)
{
    char from[512];
    path_in(from, sizeof from, "flip.ckpt");
    path_in(out, len, name);
    size_t n;
    char *data = slurp(from, &n);
    sqlite3 *db = NULL;
    int ok = data && spill(out, data, n) == 0 && sqlite3_open(out, &db) == SQLITE_OK &&
             sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK;
    sqlite3_close(db);
    free(data);
    return ok ? 0 : -1;
}

/* What the digest and the schema check must catch: a changed target (a
 * report then read "N of 999999999 deals played"), and a trigger, which
 * would run during a resume. */
static void test_target_and_schema(void)
{
    char path[512];
    bmn_params got;
    bmn_state *st = new_state(&P);
    ls_error err = {{0}, 0};
    if (changed_copy(path, sizeof path, "target.ckpt", "UPDATE bmn_progress SET target = 999999999") != 0) {
        check(0, "a changed copy of a checkpoint");
        return;
    }
    check(bmn_ckpt_read(path, &got, st, NULL, &err) != 0 && err.usage && strstr(err.msg, "digest"),
          "a checkpoint whose target was changed is refused by a reader (its digest)");
    free(st->loops);
    st->loops = NULL;
    expect_refused(path, "a checkpoint whose target was changed, resumed");
    if (changed_copy(path, sizeof path, "trigger.ckpt",
                     "CREATE TRIGGER t AFTER INSERT ON bmn_progress BEGIN "
                     "UPDATE meta SET value = 'x' WHERE key = 'created_by'; END") != 0)
        return;
    expect_refused(path, "a checkpoint with a trigger added");
    check(strstr(last_refusal.msg, "schema") != NULL, "the message says its schema is not lockstep's");
    free_state(st);
}

static void test_refusals(void)
{
    char path[512];
    expect_refused(dir, "a directory");
    expect_refused("/dev/null", "a device");
    path_in(path, sizeof path, "nul.ckpt");
    spill(path, "\0", 1);
    expect_refused(path, "a file holding one NUL");
    path_in(path, sizeof path, "text.ckpt");
    spill(path, "lockstep-bmn-checkpoint 1\nparams seed 3 first 0 top 5 cap 100000\n", 62);
    expect_refused(path, "a checkpoint of the old text format");
    bmn_params other = P;
    other.seed = 4;
    path_in(path, sizeof path, "flip.ckpt");
    ls_error err = {{0}, 0};
    bmn_state *st = new_state(&other);
    bmn_ckpt *c;
    check(bmn_ckpt_open(&c, path, &other, st, &err) != 0 && err.usage &&
              strstr(err.msg, "--seed 4 differs from this checkpoint's --seed 3"),
          "a checkpoint of another seed is refused, naming the option that differs");
    free_state(st);
}

int main(int argc, char **argv)
{
    long step = argc > 1 ? strtol(argv[1], NULL, 10) : 7;
    /* tmpfs when there is one: thousands of commits, each synced. */
    char tmpl[64];
    snprintf(tmpl, sizeof tmpl, "%s/lockstep-ckpt-XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    dir = mkdtemp(tmpl);
    if (!dir || step < 1) {
        printf("FAIL cannot make a temporary directory: %s\n", strerror(errno));
        return 1;
    }
    P = (bmn_params){3, 0, 60000, 5, BMN_CARD_CAP, NULL};
    whole = new_state(&P);
    play(&P, whole, P.deals);
    test_save_and_tear();
    test_byte_flips(step);
    test_second_writer();
    test_refusals();
    test_target_and_schema();
    free_state(whole);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("note: could not remove %s\n", dir);
    return check_finish();
}
