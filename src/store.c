/* store.c - see store.h. */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef LS_VERSION
#define LS_VERSION "unknown"
#endif

static const char sqlite_magic[16] = "SQLite format 3";

/* Whether SQLite left a journal or log next to path (a run was killed
 * mid-commit): then the main file alone may not look finished yet, and
 * only SQLite can tell. */
static int has_sidecar(const char *path)
{
    static const char *const tails[] = {"-journal", "-wal"};
    for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
        char side[4096];
        struct stat sb;
        if ((size_t)snprintf(side, sizeof side, "%s%s", path, tails[i]) < sizeof side && stat(side, &sb) == 0 &&
            S_ISREG(sb.st_mode) && sb.st_size > 0)
            return 1;
    }
    return 0;
}

/* Reads the first 100 bytes (SQLite's header) of a regular file. */
static int read_header(const char *path, unsigned char *hdr, size_t *got)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, hdr, 100);
    int saved = errno;
    close(fd);
    errno = saved;
    if (n < 0)
        return -1;
    *got = (size_t)n;
    return 0;
}

/* The length of path as SQLite will name it: from the root, with the
 * symbolic links resolved (the file's own, when it exists, and its
 * directory's); 0 when that cannot be told (a missing directory, which
 * the open reports itself). */
static size_t full_length(const char *path)
{
    char *full = realpath(path, NULL);
    size_t len = 0;
    if (full) {
        len = strlen(full);
    } else {
        const char *slash = strrchr(path, '/');
        char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
        char *real_dir = dir ? realpath(dir, NULL) : NULL;
        if (real_dir)
            len = strlen(real_dir) + 1 + strlen(slash ? slash + 1 : path);
        free(dir);
        free(real_dir);
    }
    free(full);
    return len;
}

/* SQLite's unix VFS takes pathnames of up to mxPathname (512) bytes, less
 * the 8 of "-journal", and fails a longer one as "unable to open database
 * file" with whatever errno was last set: say so instead. */
static int check_path_length(ls_store *s, ls_error *err)
{
    sqlite3_vfs *vfs = sqlite3_vfs_find(NULL);
    size_t limit = vfs && vfs->mxPathname > 8 ? (size_t)vfs->mxPathname - 8 : 0;
    size_t len = full_length(s->path);
    if (limit && len > limit)
        return ls_fail_usage(err, "%s: its path is %zu bytes long from /, and SQLite opens paths of at most %zu "
                             "bytes: give a shorter one", s->label, len, limit);
    return 0;
}

/* The files SQLite keeps next to path, and what each holds. */
static const struct companion {
    const char *tail, *holds;
} companions[] = {
    {"-journal", "its rollback journal"},
    {"-wal", "its write-ahead log"},
    {"-shm", "the write-ahead log's shared-memory index"},
};

/* Refuses a companion that is there but is not a file (a directory, a
 * FIFO): SQLite would fail on it in its own words ("attempt to write a
 * readonly database" for a directory NAME-shm, "disk I/O error" for
 * NAME-wal), or wait on a FIFO for ever, and only after creating path. */
static int check_companions(ls_store *s, ls_error *err)
{
    for (size_t i = 0; i < sizeof companions / sizeof companions[0]; i++) {
        const struct companion *c = &companions[i];
        char side[4096];
        struct stat sb;
        if ((size_t)snprintf(side, sizeof side, "%s%s", s->path, c->tail) >= sizeof side)
            continue; /* longer than SQLite opens: check_path_length says so */
        if (stat(side, &sb) != 0) {
            if (errno == ENOENT)
                continue;
            return ls_fail_usage(err, "%s: cannot look at %s (SQLite keeps %s there): %s", s->label, side, c->holds,
                                 strerror(errno));
        }
        if (!S_ISREG(sb.st_mode))
            return ls_fail_usage(err, "%s: %s is %s; SQLite keeps %s there as a file: remove it", s->label, side,
                                 S_ISDIR(sb.st_mode) ? "a directory" : "not a regular file", c->holds);
    }
    return 0;
}

/* Refuses what SQLite must never be pointed at: directories, devices
 * (/dev/full would fail every write, /dev/zero reads as endless zeros),
 * pipes, and files that are not lockstep stores. Sets *fresh when there
 * is nothing yet (missing or empty). Runs before SQLite opens the file,
 * so a refused file is never touched. */
static int precheck(ls_store *s, const ls_store_kind *k, ls_error *err)
{
    struct stat sb;
    s->fresh = 0;
    if (check_path_length(s, err) != 0 || check_companions(s, err) != 0)
        return -1;
    if (stat(s->path, &sb) != 0) {
        if (errno == ENOENT && !s->readonly) {
            s->fresh = 1;
            return 0;
        }
        return ls_fail_usage(err, "%s: cannot open: %s", s->label, strerror(errno));
    }
    if (S_ISDIR(sb.st_mode))
        return ls_fail_usage(err, "%s: is a directory, not a %s file", s->label, k->noun);
    if (!S_ISREG(sb.st_mode))
        return ls_fail_usage(err, "%s: is not a regular file (a device, pipe or socket cannot hold a %s)", s->label,
                             k->noun);
    if (sb.st_size == 0) {
        if (s->readonly)
            return ls_fail_usage(err, "%s: is empty: nothing has been saved to it", s->label);
        s->fresh = 1;
        return 0;
    }
    unsigned char hdr[100];
    size_t got = 0;
    if (read_header(s->path, hdr, &got) != 0)
        return ls_fail_usage(err, "%s: cannot read: %s", s->label, strerror(errno));
    if (has_sidecar(s->path))
        return 0; /* SQLite recovers first; ls_store_open checks afterwards */
    if (got < 100 || memcmp(hdr, sqlite_magic, sizeof sqlite_magic) != 0)
        return ls_fail_usage(err, "%s: is not a lockstep %s (not an SQLite database); the file was not changed",
                             s->label, k->noun);
    uint32_t app = (uint32_t)hdr[68] << 24 | (uint32_t)hdr[69] << 16 | (uint32_t)hdr[70] << 8 | hdr[71];
    if (app != LS_STORE_APP_ID)
        return ls_fail_usage(err, "%s: is an SQLite database of another program, not a lockstep %s; the file was not "
                             "changed", s->label, k->noun);
    return 0;
}

int ls_store_fail(ls_store *s, int rc, const char *doing, ls_error *err)
{
    const char *why = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
    int sys = s->db ? sqlite3_system_errno(s->db) : 0;
    const char *untouched = s->wal ? "" : "; the file was not changed";
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        /* lockstep's own writers and readers wait for each other (the
         * busy timeouts below); this is another program holding it. */
        return ls_fail_usage(err, "%s: is busy: another program (an sqlite3 shell?) held it locked for %d s while %s; "
                             "close that program and try again", s->label, (s->readonly ? LS_STORE_READER_WAIT_MS :
                             LS_STORE_WRITER_WAIT_MS) / 1000, doing);
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return ls_fail_usage(err, "%s: is damaged (%s while %s)%s", s->label, why, doing, untouched);
    case SQLITE_FULL:
        return ls_fail(err, "%s: the disk is full (while %s); the last saved state is kept", s->label, doing);
    case SQLITE_READONLY:
        /* A reader met a hot journal: a writer was killed in the middle of
         * a commit in rollback-journal mode, and only a writer may roll it
         * back (a reader never changes the file). */
        if (rc == SQLITE_READONLY_ROLLBACK)
            return ls_fail_usage(err, "%s: a search on it was stopped in the middle of a commit; the next search on "
                                 "it (bmn search --checkpoint) restores its last commit, which can then be read",
                                 s->label);
        /* fall through */
    case SQLITE_PERM:
    case SQLITE_CANTOPEN:
    case SQLITE_AUTH:
        return ls_fail_usage(err, "%s: failed while %s: %s%s%s", s->label, doing, why, sys ? ": " : "",
                             sys ? strerror(sys) : "");
    case SQLITE_IOERR:
        return ls_fail(err, "%s: I/O error while %s: %s%s%s", s->label, doing, why, sys ? ": " : "",
                       sys ? strerror(sys) : "");
    default:
        /* Before the first commit of this run, any other error comes from
         * what the file holds (a header byte SQLite cannot read, say): the
         * file is refused as it is. */
        if (!s->wal)
            return ls_fail_usage(err, "%s: cannot be read (SQLite: %s); the file was not changed", s->label, why);
        return ls_fail(err, "%s: SQLite error while %s: %s", s->label, doing, why);
    }
}

int ls_store_exec(ls_store *s, const char *sql, ls_error *err)
{
    int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        return ls_store_fail(s, rc, "updating it", err);
    return 0;
}

int ls_store_prepare(ls_store *s, const char *sql, sqlite3_stmt **st, ls_error *err)
{
    int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
    /* lockstep's own statements fail to compile only on tables that are
     * not as it made them. */
    if ((rc & 0xff) == SQLITE_ERROR)
        return ls_fail_usage(err, "%s: is damaged (its tables are not as lockstep made them: %s)%s", s->label,
                             sqlite3_errmsg(s->db), s->wal ? "" : "; the file was not changed");
    if (rc != SQLITE_OK)
        return ls_store_fail(s, rc, "reading it", err);
    return 0;
}

int ls_store_step(ls_store *s, sqlite3_stmt *st, int want, ls_error *err)
{
    int rc = sqlite3_step(st);
    if (rc == want)
        return 0;
    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        return ls_fail_usage(err, "%s: is damaged (%s)%s", s->label,
                             rc == SQLITE_DONE ? "a row is missing" : "a row too many", s->wal ? "" : "; the file was "
                             "not changed");
    return ls_store_fail(s, rc, s->readonly ? "reading it" : "using it", err);
}

int ls_store_meta_get(ls_store *s, const char *key, char *out, size_t len, ls_error *err)
{
    sqlite3_stmt *st;
    if (ls_store_prepare(s, "SELECT value FROM meta WHERE key = ?1", &st, err) != 0)
        return -1;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    int rc = ls_store_step(s, st, SQLITE_ROW, err);
    if (rc == 0) {
        const unsigned char *v = sqlite3_column_text(st, 0);
        snprintf(out, len, "%s", v ? (const char *)v : "");
    }
    sqlite3_finalize(st);
    return rc;
}

int ls_store_meta_set(ls_store *s, const char *key, const char *value, ls_error *err)
{
    sqlite3_stmt *st;
    if (ls_store_prepare(s, "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)", &st, err) != 0)
        return -1;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
    int rc = ls_store_step(s, st, SQLITE_DONE, err);
    sqlite3_finalize(st);
    return rc;
}

/* The table every store has; the kind's tables come after it. */
static const char meta_schema[] = "CREATE TABLE meta(key TEXT PRIMARY KEY NOT NULL, value NOT NULL) WITHOUT ROWID;";

/* A new file: the application id, meta and the kind's tables. */
static int create(ls_store *s, const ls_store_kind *k, ls_error *err)
{
    char sql[64], ver[32];
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d;", LS_STORE_APP_ID);
    snprintf(ver, sizeof ver, "%d", k->version);
    if (ls_store_exec(s, sql, err) != 0 || ls_store_exec(s, meta_schema, err) != 0 ||
        ls_store_exec(s, k->schema, err) != 0 ||
        ls_store_meta_set(s, "kind", k->name, err) != 0 || ls_store_meta_set(s, "version", ver, err) != 0 ||
        ls_store_meta_set(s, "created_by", "lockstep " LS_VERSION, err) != 0)
        return -1;
    s->fresh = 1;
    return 0;
}

/* One integer from a query of one row. */
static int query_int(ls_store *s, const char *sql, long long *out, ls_error *err)
{
    sqlite3_stmt *st;
    if (ls_store_prepare(s, sql, &st, err) != 0)
        return -1;
    int rc = ls_store_step(s, st, SQLITE_ROW, err);
    if (rc == 0)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc;
}

/* The schema of a store: every object (table, index, trigger, view) as
 * type, name, table and the SQL that made it, ordered by type and name. */
static const char schema_query[] =
    "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name";

static const char *text_of(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return t ? (const char *)t : "";
}

/* Compares the current objects of the file (have) and of the schema
 * lockstep makes (want), both stepped in schema_query's order: 1 when
 * they differ (described in what[]), -1 when they are the same object
 * (step both on), 0 when both are at their end. */
static int first_difference(sqlite3_stmt *have, int have_rc, sqlite3_stmt *want, int want_rc, char *what,
                            size_t len)
{
    if (have_rc != SQLITE_ROW && want_rc != SQLITE_ROW)
        return 0;
    int order = have_rc != SQLITE_ROW ? 1 : want_rc != SQLITE_ROW ? -1 : 0;
    for (int col = 0; order == 0 && col < 2; col++)
        order = strcmp(text_of(have, col), text_of(want, col));
    if (order < 0)
        snprintf(what, len, "an extra %s '%.60s' that lockstep did not make", text_of(have, 0), text_of(have, 1));
    else if (order > 0)
        snprintf(what, len, "its %s '%.60s' is missing", text_of(want, 0), text_of(want, 1));
    else if (strcmp(text_of(have, 2), text_of(want, 2)) != 0 || strcmp(text_of(have, 3), text_of(want, 3)) != 0)
        snprintf(what, len, "its %s '%.60s' is not as lockstep made it", text_of(have, 0), text_of(have, 1));
    else
        return -1; /* the same object: go on */
    return 1;
}

/* Refuses a file whose schema is not exactly the one lockstep makes for
 * kind k (meta and the kind's tables, nothing more: no added table, index,
 * view or trigger, no changed column). It runs before the first statement
 * that writes, so a trigger in a file never fires. The expected schema is
 * made by the same SQL in a database in memory. */
static int check_schema(ls_store *s, const ls_store_kind *k, ls_error *err)
{
    sqlite3 *ref = NULL;
    sqlite3_stmt *have = NULL, *want = NULL;
    int rc = sqlite3_open_v2(":memory:", &ref, SQLITE_OPEN_READWRITE, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(ref, meta_schema, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(ref, k->schema, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(ref, schema_query, -1, &want, NULL);
    if (rc != SQLITE_OK) {
        rc = ls_fail(err, "%s: cannot make the expected schema: %s", s->label, sqlite3_errstr(rc));
    } else if ((rc = ls_store_prepare(s, schema_query, &have, err)) == 0) {
        char what[200];
        int diff, have_rc, want_rc;
        do {
            have_rc = sqlite3_step(have);
            want_rc = sqlite3_step(want);
            if (have_rc != SQLITE_ROW && have_rc != SQLITE_DONE) {
                rc = ls_store_fail(s, have_rc, "reading it", err);
                break;
            }
            diff = first_difference(have, have_rc, want, want_rc, what, sizeof what);
        } while (diff < 0);
        if (rc == 0 && diff > 0)
            rc = ls_fail_usage(err, "%s: its schema is not a %s's: %s; the file was not changed", s->label, k->noun,
                               what);
    }
    sqlite3_finalize(have);
    sqlite3_finalize(want);
    sqlite3_close(ref);
    return rc;
}

/* Checks that the open file is a sound store of kind k (or creates one in
 * an empty file when writing). */
static int identify(ls_store *s, const ls_store_kind *k, ls_error *err)
{
    long long app, objects;
    if (query_int(s, "PRAGMA application_id", &app, err) != 0 ||
        query_int(s, "SELECT count(*) FROM sqlite_master", &objects, err) != 0)
        return -1;
    if (app == 0 && objects == 0) {
        if (s->readonly)
            return ls_fail_usage(err, "%s: is empty: nothing has been saved to it", s->label);
        return create(s, k, err);
    }
    if (app != LS_STORE_APP_ID)
        return ls_fail_usage(err, "%s: is an SQLite database of another program, not a lockstep %s; the file was not "
                             "changed", s->label, k->noun);
    char kind[64], ver[32], by[64];
    if (ls_store_meta_get(s, "kind", kind, sizeof kind, err) != 0 ||
        ls_store_meta_get(s, "version", ver, sizeof ver, err) != 0 ||
        ls_store_meta_get(s, "created_by", by, sizeof by, err) != 0)
        return -1;
    if (strcmp(kind, k->name) != 0)
        return ls_fail_usage(err, "%s: holds a lockstep '%s', not a %s; the file was not changed", s->label, kind,
                             k->noun);
    char want[32];
    snprintf(want, sizeof want, "%d", k->version);
    if (strcmp(ver, want) != 0)
        return ls_fail_usage(err, "%s: is a %s of schema version %s (made by %s); this lockstep reads only version %d: "
                             "finish it with the lockstep that made it, or start a new file; the file was not changed",
                             s->label, k->noun, ver, by, k->version);
    if (check_schema(s, k, err) != 0)
        return -1;
    /* Structural damage (a torn page, a byte changed in a b-tree) that
     * SQLite has not stumbled on yet. */
    sqlite3_stmt *st;
    if (ls_store_prepare(s, "PRAGMA quick_check", &st, err) != 0)
        return -1;
    int rc = ls_store_step(s, st, SQLITE_ROW, err);
    if (rc == 0) {
        const char *res = (const char *)sqlite3_column_text(st, 0);
        if (!res || strcmp(res, "ok") != 0) {
            /* SQLite's report has a line per fault; a message is one line. */
            char what[200];
            snprintf(what, sizeof what, "%s", res ? res : "integrity check failed");
            for (char *c = what; *c; c++)
                if (*c == '\n' || *c == '\r')
                    *c = ' ';
            rc = ls_fail_usage(err, "%s: is damaged (%s); the file was not changed", s->label, what);
        }
    }
    sqlite3_finalize(st);
    return rc;
}

/* ---- the one-writer lock ---------------------------------------------------- */

/* Readers read beside the writer (write-ahead log, shared memory index),
 * so SQLite's own locks no longer keep a second writer out: between two
 * commits of a search, another process could begin its own. The writer
 * therefore holds a lock of its own for its whole run: an open file
 * description lock (F_OFD_SETLK) on one byte of the file that SQLite never
 * locks (its lock bytes are the 512 from 1 GiB on; this is the next one).
 * Why this lock: it is released by the kernel when the process dies (a
 * killed search never leaves the file locked), it needs no side file, it
 * belongs to its file description rather than to the process (closing
 * another descriptor of the file does not drop it, unlike a classic POSIX
 * lock), it never conflicts with SQLite's byte-range locks (flock would,
 * on NFS, where it is emulated by a whole-file POSIX lock), and a reader
 * can ask whether it is held (F_OFD_GETLK) without taking it, so that
 * `bmn report` says whether a search is running and never keeps one from
 * starting. Advisory locks hold between lockstep processes (and sqlite3
 * shells take none of this byte): they are the one-writer rule, not a
 * protection against other programs. */
#define WRITER_LOCK_BYTE (0x40000000 + 512)

#ifdef F_OFD_SETLK
#define WRITER_LOCK_SET F_OFD_SETLK
#define WRITER_LOCK_GET F_OFD_GETLK
#else /* without OFD locks: a POSIX lock (lost if the process closes another descriptor of the file) */
#define WRITER_LOCK_SET F_SETLK
#define WRITER_LOCK_GET F_GETLK
#endif

static struct flock writer_lock_range(short type)
{
    struct flock l;
    memset(&l, 0, sizeof l);
    l.l_type = type;
    l.l_whence = SEEK_SET;
    l.l_start = WRITER_LOCK_BYTE;
    l.l_len = 1;
    return l;
}

/* Takes the writer's lock on s->path (kept in s->lock_fd until
 * ls_store_close), or refuses: another process writes to the file. It is
 * taken after SQLite opened (and maybe created) the file and before its
 * first statement, so SQLite holds no lock yet if it must be let go. */
static int take_writer_lock(ls_store *s, ls_error *err)
{
    s->lock_fd = open(s->path, O_RDWR | O_CLOEXEC);
    if (s->lock_fd < 0)
        return ls_fail_usage(err, "%s: cannot open for writing: %s", s->label, strerror(errno));
    struct flock l = writer_lock_range(F_WRLCK);
    if (fcntl(s->lock_fd, WRITER_LOCK_SET, &l) == 0)
        return 0;
    int saved = errno;
    close(s->lock_fd);
    s->lock_fd = -1;
    if (saved == EAGAIN || saved == EACCES)
        return ls_fail_usage(err, "%s: is in use: another search is writing to it; wait for it to finish or give "
                             "another file (bmn report reads it meanwhile)", s->label);
    return ls_fail(err, "%s: cannot lock it for writing: %s", s->label, strerror(saved));
}

/* Whether a writer holds path's lock now: 1 yes, 0 no, -1 cannot tell.
 * Asked before SQLite opens the file: closing this descriptor then
 * cannot drop a POSIX lock of SQLite's. */
static int writer_running(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct flock l = writer_lock_range(F_WRLCK);
    int rc = fcntl(fd, WRITER_LOCK_GET, &l);
    close(fd);
    return rc != 0 ? -1 : l.l_type != F_UNLCK;
}

int ls_store_open(ls_store *s, const char *path, const char *label, const ls_store_kind *k, int readonly,
                  ls_error *err)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    s->readonly = readonly;
    s->lock_fd = -1;
    snprintf(s->label, sizeof s->label, "%s", label);
    if (precheck(s, k, err) != 0)
        return -1;
    if (readonly)
        s->writer_running = writer_running(path);
    int flags = readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    int rc = sqlite3_open_v2(path, &s->db, flags, NULL);
    if (rc != SQLITE_OK) {
        ls_store_fail(s, rc, "opening it", err);
        ls_store_close(s, NULL);
        return -1;
    }
    if (!readonly && take_writer_lock(s, err) != 0) {
        ls_store_close(s, NULL);
        return -1;
    }
    sqlite3_extended_result_codes(s->db, 1);
    /* Nothing in a store may alter the schema or run code when read. */
    sqlite3_db_config(s->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    sqlite3_db_config(s->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
    /* Readers and the writer wait for each other's short exclusive
     * moments (the switches into and out of the log, a reader's open on
     * a killed run's log) instead of failing at once. */
    sqlite3_busy_timeout(s->db, readonly ? LS_STORE_READER_WAIT_MS : LS_STORE_WRITER_WAIT_MS);
    /* Commits are durable when COMMIT returns (synchronous full). A
     * reader's transaction is one snapshot of the last commit: it reads
     * beside a running writer and sees none of its later commits. */
    const char *setup = readonly ? "BEGIN" : "PRAGMA synchronous = FULL; BEGIN IMMEDIATE";
    if (ls_store_exec(s, setup, err) != 0) {
        ls_store_close(s, NULL);
        return -1;
    }
    s->in_tx = 1;
    if (identify(s, k, err) != 0) {
        ls_store_close(s, NULL);
        return -1;
    }
    return 0;
}

int ls_store_begin(ls_store *s, ls_error *err)
{
    if (ls_store_exec(s, "BEGIN", err) != 0)
        return -1;
    s->in_tx = 1;
    return 0;
}

/* After the first commit of a writer, the store runs on a write-ahead
 * log: a commit appends checksummed pages to FILE-wal, so a crash at any
 * byte leaves a log whose torn tail SQLite drops on the next open. */
static int start_wal(ls_store *s, ls_error *err)
{
    sqlite3_stmt *st;
    if (ls_store_prepare(s, "PRAGMA journal_mode = WAL", &st, err) != 0)
        return -1;
    int rc = ls_store_step(s, st, SQLITE_ROW, err);
    if (rc == 0 && strcmp((const char *)sqlite3_column_text(st, 0), "wal") != 0)
        rc = ls_fail(err, "%s: cannot keep a write-ahead log next to it (the file system may not support it)",
                     s->label);
    sqlite3_finalize(st);
    if (rc == 0)
        s->wal = 1;
    return rc;
}

int ls_store_commit(ls_store *s, ls_error *err)
{
    int rc = sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        s->in_tx = !sqlite3_get_autocommit(s->db);
        return ls_store_fail(s, rc, "saving", err);
    }
    s->in_tx = 0;
    if (!s->readonly && !s->wal)
        return start_wal(s, err);
    return 0;
}

/* Folds the log into the file when a writer closes: a finished store is
 * one plain file that can be copied, mailed and read without write
 * access. The checkpoint moves every commit into FILE and empties the log
 * (it waits, up to the busy timeout, for a reader in a transaction); the
 * switch back to a rollback journal then removes FILE-wal and FILE-shm,
 * and needs every reader gone: when one still has the file open, the log
 * stays, empty, and FILE alone is already whole. */
static int fold_log(ls_store *s, ls_error *err)
{
    sqlite3_stmt *st;
    /* main only: the temp schema that quick_check (identify) touched
     * still counts as in a transaction, and a checkpoint of every schema
     * then fails as "locked". */
    if (ls_store_prepare(s, "PRAGMA main.wal_checkpoint(TRUNCATE)", &st, err) != 0)
        return -1;
    int rc = ls_store_step(s, st, SQLITE_ROW, err);
    if (rc == 0 && sqlite3_column_int(st, 0) != 0)
        rc = ls_fail(err, "%s: cannot fold its log back in: a reader kept a transaction open for %d s; its data is "
                     "safe in the -wal file next to it, which the next search on it folds in", s->label,
                     LS_STORE_WRITER_WAIT_MS / 1000);
    sqlite3_finalize(st);
    if (rc == 0) {
        int x = sqlite3_exec(s->db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
        if (x != SQLITE_OK && (x & 0xff) != SQLITE_BUSY)
            rc = ls_store_fail(s, x, "closing it (its data is safe in it and in the -wal file next to it)", err);
    }
    return rc;
}

int ls_store_close(ls_store *s, ls_error *err)
{
    int rc = 0;
    if (s->db) {
        if (s->in_tx)
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        s->in_tx = 0;
        if (s->wal)
            rc = fold_log(s, err);
        else
            /* Nothing was written: leave any log of an earlier, killed
             * run exactly as it is. */
            sqlite3_db_config(s->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
        int x = sqlite3_close(s->db);
        if (x != SQLITE_OK && rc == 0)
            rc = ls_fail(err, "%s: cannot close: %s", s->label, sqlite3_errstr(x));
        s->db = NULL;
    }
    /* After SQLite let go of the file: closing a descriptor of it
     * earlier could drop SQLite's POSIX locks. */
    if (s->lock_fd >= 0)
        close(s->lock_fd);
    s->lock_fd = -1;
    return rc;
}
