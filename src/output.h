/* output.h - output that is complete or absent, never cut short.
 *
 * Results are rendered into memory first (ls_buffer) and written with one
 * checked call, so `--json` is one whole document or nothing, and a full
 * disk or a closed pipe is reported (one line, non-zero exit) instead of
 * ignored. Files are written under a temporary name in the same directory
 * and renamed into place only once written and flushed (ls_atomic_file),
 * so no reader and no kill ever sees half a file; devices, FIFOs and
 * stdout are written through instead (the rules are below).
 *
 * Durability is a choice (ls_output_set_sync): by default a replaced file
 * is not fsync'ed, as cp and most tools do, because syncing a 1 GiB Life
 * grid costs longer than computing it. A kill at any moment still leaves
 * the old file or the new one; an OS crash or power loss soon after the
 * run may lose the new file (the old one, or on a new name an empty or
 * missing file, is what the filesystem had on disk). With --sync the file
 * and its directory are synced before the run reports success. */
#ifndef LOCKSTEP_OUTPUT_H
#define LOCKSTEP_OUTPUT_H

#include <stdio.h>

#include "error.h"

typedef struct ls_buffer {
    FILE *f; /* write the output here */
    char *data;
    size_t size;
} ls_buffer;

int ls_buffer_open(ls_buffer *b, ls_error *err);
/* Writes everything rendered into b to dest (named dest_name in
 * messages) and frees b. When dest is a regular file and the write fails
 * midway, the file is cut back to where it was, so nothing partial
 * remains. */
int ls_buffer_emit(ls_buffer *b, FILE *dest, const char *dest_name, ls_error *err);
void ls_buffer_discard(ls_buffer *b);

/* Writes n bytes to fd in full (retrying short writes and EINTR); on
 * failure a regular file is truncated back to its size before the call.
 * A pipe, socket or terminal whose reader does not read is waited for in
 * poll(), and a stop signal (ls_output_set_stop) that comes during the
 * wait ends the write with a message. */
int ls_write_all(int fd, const void *data, size_t n, const char *dest_name, ls_error *err);

/* Flushes and closes stdout, for the end of main: 0, or -1 with err set
 * when anything written to it was lost. */
int ls_close_stdout(ls_error *err);

/* 1: sync every replaced file and its directory before reporting it
 * written (--sync); 0: leave writeback to the system (the default). */
void ls_output_set_sync(int on);

/* stopped() (the command layer's stop flag: SIGINT, SIGTERM, SIGHUP
 * caught) ends the waits of a write through (below): a FIFO that no
 * reader opens, a pipe that its reader does not empty. Such a commit then
 * fails with a message saying so. NULL: no such stop (the default). */
void ls_output_set_stop(int (*stopped)(void));

/* Removes the temporary files that killed writes left in dir (as every
 * write into dir does, above), for a command that writes beside them
 * otherwise (Life's --frames). */
void ls_output_remove_leftovers(const char *dir);

/* Removes the temporary files of the writes under way in this process,
 * their targets left as they were: for a signal handler that ends the
 * process at once (async-signal-safe; progress.h's second stop signal). */
void ls_output_abandon(void);

typedef struct ls_atomic_file {
    FILE *f;     /* write the contents here */
    char *name;  /* the path as given, for messages */
    char *path;  /* the file replaced (a symbolic link's target) or written through */
    char *tmp;   /* the temporary name while open (replaced files only) */
    int through; /* 1: written through at commit (see below) */
    int std_fd;  /* written through to this process's stdout (1) or stderr (2); else -1 */
    char *data;  /* written through: the contents, rendered in memory */
    size_t size;
    void *map;   /* the temporary file mapped (ls_atomic_map), or NULL */
    size_t map_size;
} ls_atomic_file;

/* What an output path is, and how ls_atomic_* writes it:
 *
 *   - missing, or a regular file: replaced whole. The contents go to a
 *     temporary file in the same directory, renamed over the name only
 *     once written and flushed (and synced, with --sync): a reader sees the old file or the
 *     new one, never part of one, and a failure or a kill leaves the old
 *     one. A symbolic link to a regular file is followed: the file it
 *     points to is replaced (in its own directory) and the link stays.
 *     The new file takes the mode of the one it replaces, as it was when
 *     the write began (a file of mode 600 stays private), and its owner
 *     and group where that is permitted (root; a group of the user's);
 *     a new name gets 0666 less the umask. What is replaced is the name:
 *     another hard link to the old file goes on naming the old file, with
 *     the old contents (as with `cp --remove-destination`, `mv` or an
 *     editor that saves by renaming).
 *   - a character device (/dev/null, /dev/full, a terminal), a FIFO, or
 *     this process's own stdout or stderr (/dev/stdout, /dev/fd/1, or the
 *     file or pipe stdout was redirected to), directly or through a
 *     symbolic link: written through, never replaced. Such a target cannot
 *     be swapped in whole, so the contents are rendered in memory first
 *     and written at commit with one run of write() calls: a failure while
 *     rendering writes nothing at all, and a reader sees the whole
 *     contents unless the write itself fails midway (a reader that closes
 *     its end, a full device), when it has seen a prefix and the commit
 *     reports the failure (SIGPIPE is held back, so a closed FIFO is a
 *     message, "Broken pipe", not the end of the process). The commit
 *     opens a FIFO only then, and so waits there until a reader opens it,
 *     and waits again while a reader leaves the pipe full; a stop signal
 *     (ls_output_set_stop) ends either wait: the commit fails, having
 *     written nothing, or, when the reader stalled midway, a prefix.
 *   - refused (err->usage = 1): a directory, a block device, a socket, and
 *     a dangling symbolic link (lockstep does not create a file through a
 *     link, as `cp` does not).
 *
 * Temporary files are named for their target, ".NAME.tmp-XXXXXX" next to
 * the file replaced (".HEAD~HASH.tmp-XXXXXX" when NAME is too long for
 * that to fit the directory's name limit: the start of NAME and a hash of
 * all of it). A writer holds an flock on its temporary file until the
 * rename, and every write into a directory (and ls_output_check's probe,
 * before a run) removes the unlocked temporaries there, which writes that
 * were killed before they finished left (kill -9, a power cut, a rank of
 * an MPI job ended by mpirun): those of the same target whoever made
 * them, and those of other targets that are this user's; a write still
 * running holds its lock, and its file is left alone. */

/* Prepares a write of path: a temporary file next to the file replaced
 * (with its mode, owner and group, or, for a new name, mode 0666 less the
 * umask), or a buffer in memory for a target written through. */
int ls_atomic_open(ls_atomic_file *a, const char *path, ls_error *err);
/* Replaced file: unmaps it (ls_atomic_map), flushes, syncs, renames the
 * temporary file over the target, then syncs the directory; on failure
 * the temporary file is removed and the target is left as it was.
 * Written through: opens the target and writes the whole contents. */
int ls_atomic_commit(ls_atomic_file *a, ls_error *err);
/* Removes the temporary file (or drops the buffer); path is left as it
 * was. */
void ls_atomic_abort(ls_atomic_file *a);

/* Writes a replaced file through a shared mapping instead of a->f, for
 * large outputs that threads fill at once (each thread's page faults
 * proceed in parallel, where write() calls on one file take turns on its
 * lock). Before anything is written to a->f: gives the temporary file
 * `size` bytes with their blocks reserved (fallocate), so that no page
 * fault needs a block that the disk no longer has, and maps it writable
 * at *data. ls_atomic_commit and ls_atomic_abort unmap it. While it is
 * mapped, a SIGBUS in it (a file system that fails the fault all the
 * same: an I/O error, a copy-on-write file system out of space) ends the
 * process with one line and exit status 1, having removed the temporary
 * file: the target is left as it was. Returns 0; 1 when this target is
 * not written so (written through; a file system that cannot reserve
 * blocks, or map files; another mapping open): write a->f as usual; or
 * -1 with err set when the reservation failed (no space, over quota, too
 * large for the file system). */
int ls_atomic_map(ls_atomic_file *a, size_t size, void **data, ls_error *err);

/* Checks, before any long computation, that an output file can be written
 * at path later, as ls_atomic_open will write it: not a directory or
 * anything else refused above; a file replaced: its directory exists and
 * takes the temporary file (created and removed); a target written
 * through: writable (checked with access(), never opened: opening a FIFO
 * would wait for a reader, and show that reader an empty file). Failures
 * are the user's input (err->usage = 1, exit code 2). */
int ls_output_check(const char *path, ls_error *err);

/* ---- A directory of files, written whole or not at all ----------------------
 *
 * Life's --frames DIR: a file a sample, never mixed with an older set.
 * DIR is a new directory, or an empty one, which the new one replaces.
 * The files are written in a temporary directory beside DIR,
 * ".BASE.frames-XXXXXX", renamed to DIR once all are written (and, with
 * --sync, the files and both directories synced first): a reader sees
 * DIR as it was or every file, and a failure or a stop removes the
 * temporary directory with what it held. DIR gets the mode of the empty
 * directory it replaces, or a new directory's (0777 less the umask).
 *
 * A run killed outright (SIGKILL, a power cut) leaves its temporary
 * directory, so every write into DIR removes what earlier ones into DIR
 * left (and the temporary files of killed writes beside it, as every
 * ls_atomic_open does), never a directory a live writer holds: a writer
 * says so with an flock, held from before its first file until its
 * directory is DIR or removed, on a lock file beside it
 * (".BASE.frames-XXXXXX.lock"; not every file system locks a directory:
 * NFS locks files open for writing). output.c says how the two meet.
 * The stop signals (SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2) are held
 * back while a directory is made and locked, and while the check's is
 * made and removed: one that came in between would end the process with
 * an empty directory left. */
typedef struct ls_atomic_dir {
    char *what;   /* the option that named it, for messages ("--frames") */
    char *name;   /* DIR as given, for messages */
    char *path;   /* DIR without trailing slashes */
    char *parent; /* the directory DIR is in */
    char *tmp;    /* the temporary directory the files go to, or NULL */
    char *lock;   /* its lock file */
    int lock_fd;  /* holding the flock; -1 when none */
} ls_atomic_dir;

/* Checks, before any long computation, that `dir` (named by option
 * `what` in messages) can be written as above: a new or empty directory,
 * not a symbolic link, in a directory that takes the temporary one (made
 * and removed). 0, or -1 with err->usage set. */
int ls_atomic_dir_check(const char *dir, const char *what, ls_error *err);
/* Makes and locks the temporary directory of `dir`, and removes what
 * killed writes left beside it. 0, or -1 with err set. */
int ls_atomic_dir_open(ls_atomic_dir *d, const char *dir, const char *what, ls_error *err);
/* Creates the file `name` in the directory being written: open for
 * writing, or NULL with errno set. */
FILE *ls_atomic_dir_create(ls_atomic_dir *d, const char *name);
/* Closes a file of ls_atomic_dir_create: flushed (and synced, with
 * --sync). 0, or -1 with errno set; f is closed either way. */
int ls_atomic_dir_close(FILE *f);
/* Puts the directory in place as DIR (replacing it when it is empty);
 * on failure removes it, DIR left as it was. Ends d either way. */
int ls_atomic_dir_commit(ls_atomic_dir *d, ls_error *err);
/* Removes the temporary directory and every file in it; DIR is left as
 * it was. A d that was never opened, or was ended, is fine. */
void ls_atomic_dir_abort(ls_atomic_dir *d);

#endif
