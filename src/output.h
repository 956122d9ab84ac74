/* output.h - output that is complete or absent, never cut short.
 *
 * Results are rendered into memory first (ls_buffer) and written with one
 * checked call, so `--json` is one whole document or nothing, and a full
 * disk or a closed pipe is reported (one line, non-zero exit) instead of
 * ignored. Files are written under a temporary name in the same directory
 * and renamed into place only once written, flushed and synced
 * (ls_atomic_file), so no reader ever sees half a file. */
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
 * failure a regular file is truncated back to its size before the call. */
int ls_write_all(int fd, const void *data, size_t n, const char *dest_name, ls_error *err);

/* Flushes and closes stdout, for the end of main: 0, or -1 with err set
 * when anything written to it was lost. */
int ls_close_stdout(ls_error *err);

typedef struct ls_atomic_file {
    FILE *f;     /* write the contents here */
    char *path;  /* the final name */
    char *tmp;   /* the temporary name while open */
} ls_atomic_file;

/* Creates a temporary file next to path (mode 0666 less the umask). */
int ls_atomic_open(ls_atomic_file *a, const char *path, ls_error *err);
/* Flushes, syncs and closes the temporary file and renames it to path
 * (replacing any old file), then syncs the directory. On failure the
 * temporary file is removed and path is left as it was. */
int ls_atomic_commit(ls_atomic_file *a, ls_error *err);
/* Removes the temporary file; path is left as it was. */
void ls_atomic_abort(ls_atomic_file *a);

/* Checks, before any long computation, that an output file can be written
 * at path later: not a directory, and its directory exists and takes the
 * temporary file (created and removed). Failures are the user's input
 * (err->usage = 1, exit code 2). */
int ls_output_check(const char *path, ls_error *err);

#endif
