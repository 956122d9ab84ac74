/* store.h - a small transactional file store on SQLite, for the state of
 * long runs (checkpoints) that must survive a crash, a full disk or a
 * second writer.
 *
 * A store is one SQLite database file that lockstep recognises by its
 * application_id and a `meta` table (key, value) holding at least
 *   kind     what the file holds, e.g. "bmn-search"
 *   version  the schema version of that kind
 *   created_by  "lockstep <version>"
 * Each kind brings its own tables (its schema); this layer only opens,
 * identifies, locks and commits. The rules it guarantees:
 *   - open refuses, without touching the file, anything that is not a
 *     store of the expected kind: a directory, a device or pipe (e.g.
 *     /dev/full, /dev/zero), a file of another program, a damaged file,
 *     another version, a schema that is not exactly the kind's (an added
 *     table, index, view or trigger; checked before any write, so a
 *     trigger never fires), a path longer than SQLite opens;
 *   - one writer at a time: a store opened for writing holds a lock of its
 *     own (store.c says which and why) until ls_store_close, so a second
 *     writer is refused at once in one line;
 *   - readers read beside the writer: after its first commit the writer
 *     runs on SQLite's write-ahead log (FILE-wal, indexed in FILE-shm), and
 *     a reader's transaction is a snapshot of the last commit; a reader
 *     changes neither FILE nor FILE-wal;
 *   - work between ls_store_begin and ls_store_commit is atomic: a kill, a
 *     power cut or a failed write leaves the last commit (the log's torn
 *     tail is dropped on the next open);
 *   - ls_store_close folds the log back in: a closed store is one file.
 * Every message is one line that starts with the caller's label (e.g.
 * "--checkpoint run.ckpt") and says what to do. */
#ifndef LOCKSTEP_STORE_H
#define LOCKSTEP_STORE_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef struct ls_store_kind {
    const char *name;   /* meta 'kind' */
    const char *noun;   /* for messages, e.g. "BMN search checkpoint" */
    int version;        /* meta 'version' */
    const char *schema; /* SQL that creates the kind's tables in a new file */
} ls_store_kind;

typedef struct ls_store {
    sqlite3 *db;
    const char *path;
    char label[300]; /* prefix of every message about this file */
    int readonly;
    int fresh;       /* 1: this open created the file's contents */
    int in_tx;
    int wal;         /* the write-ahead log is on (writers only) */
    int lock_fd;     /* the writer's lock (store.c), -1 when none is held */
    int writer_running; /* readers: 1 a writer held the file when it was opened, 0 none, -1 unknown */
} ls_store;

/* How long a writer and a reader wait for each other's exclusive moments
 * (the switches into and out of the log; a reader's transaction while
 * the writer closes) before giving up. */
#define LS_STORE_WRITER_WAIT_MS 30000
#define LS_STORE_READER_WAIT_MS 10000

/* "LSTP": PRAGMA application_id of every lockstep store. */
#define LS_STORE_APP_ID 0x4c535450

/* Opens (readonly = 0: creates when missing or empty) the store at path,
 * checks that it is a store of kind k, takes the writer's lock (writers)
 * and begins a transaction in which the caller reads (and, when fresh,
 * fills) its tables; finish with ls_store_commit, or ls_store_close to
 * give up without a change. A reader's transaction lasts until close:
 * everything it reads is one snapshot.
 * Returns 0, or -1 with err set (usage: the file is refused). */
int ls_store_open(ls_store *s, const char *path, const char *label, const ls_store_kind *k, int readonly,
                  ls_error *err);
int ls_store_begin(ls_store *s, ls_error *err);
int ls_store_commit(ls_store *s, ls_error *err);
/* Rolls back any open transaction and closes; err (may be NULL) gets why
 * a close failed (a writer folds its log back into the file here). */
int ls_store_close(ls_store *s, ls_error *err);

/* Runs SQL without results. */
int ls_store_exec(ls_store *s, const char *sql, ls_error *err);
/* Prepares one statement; finalize it with sqlite3_finalize. */
int ls_store_prepare(ls_store *s, const char *sql, sqlite3_stmt **st, ls_error *err);
/* sqlite3_step expecting `want` (SQLITE_ROW or SQLITE_DONE). */
int ls_store_step(ls_store *s, sqlite3_stmt *st, int want, ls_error *err);
/* The message for the last SQLite error of s (rc = its result code). */
int ls_store_fail(ls_store *s, int rc, const char *doing, ls_error *err);

/* meta values as text */
int ls_store_meta_get(ls_store *s, const char *key, char *out, size_t len, ls_error *err);
int ls_store_meta_set(ls_store *s, const char *key, const char *value, ls_error *err);

#endif
