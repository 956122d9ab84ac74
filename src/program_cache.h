/* program_cache.h - GPU programs built once and kept on disk between
 * runs, as NVIDIA's driver, PoCL and hashcat keep theirs. A backend that
 * builds programs from their source at run time (OpenCL; NVRTC for CUDA's
 * kernel_with) asks here for the binary an earlier run built before it
 * builds one, and hands over each binary it builds.
 *
 * Where: $LOCKSTEP_CACHE_DIR, else $XDG_CACHE_HOME/lockstep, else
 * ~/.cache/lockstep (created, mode 0700, on the first store). One file a
 * program: BACKEND-PROGRAM-HASH.bin, HASH (XXH3) of the device and the
 * build options, so that a new driver or lockstep replaces a program's
 * file rather than adding one. Deleting the directory clears it.
 *
 * Never trusted blindly: a file is a header (magic, format version, the
 * key, the binary's length and an XXH3 digest of it) and the binary. The
 * key is an XXH3 hash of everything the binary depends on: lockstep's
 * version, the backend, program, device, build options (definitions
 * included), the compiler's and driver's versions, and the program's
 * source text. A file whose header, length or digest does not match
 * (damaged, cut short) or whose key differs (stale) is not used: the
 * program is built from its source and the file replaced; so is one the
 * driver refuses to load (ls_program_cache_refused). Files are written
 * whole or not at all (output.h: a temporary file renamed into place), so
 * processes that build the same program at once each succeed, the last
 * rename winning.
 *
 * A cache that cannot be used (no home directory, a directory that cannot
 * be created or written) only means no caching: the reason is kept for
 * --timings (ls_program_cache_stats), never reported as a failure.
 * --no-cache (ls_program_cache_bypass) and LOCKSTEP_CACHE=off bypass it:
 * nothing is read or written. Safe to call from several threads. */
#ifndef LOCKSTEP_PROGRAM_CACHE_H
#define LOCKSTEP_PROGRAM_CACHE_H

#include <stddef.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a built program depends on, as text (none NULL; "" for none). */
typedef struct ls_program_key {
    const char *backend;  /* "opencl", "nvrtc": first in the file's name */
    const char *program;  /* the program's name: next in it */
    const char *device;   /* the device it is built for (platform and device names) */
    const char *options;  /* its build options, definitions included */
    const char *compiler; /* the versions of what builds it (platform, driver, language) */
    const char *source;   /* the text compiled */
} ls_program_key;

/* The binary stored for key: 1 with it in *data (malloc'ed, the caller's
 * to free) and *bytes, whole and made for this key; 0 when there is none
 * to use (absent, damaged, stale, the cache off or out of memory). */
int ls_program_cache_find(const ls_program_key *key, void **data, size_t *bytes);

/* The binary that ls_program_cache_find gave could not be loaded (the
 * driver refused it): counted; the caller builds the program and stores
 * it anew. */
void ls_program_cache_refused(void);

/* Stores the binary built for key, replacing any file of its name. A
 * failure only means no caching: the first one is kept for --timings and
 * no later store is tried. */
void ls_program_cache_store(const ls_program_key *key, const void *data, size_t bytes);

/* A program built without the cache, for a reason the backend knows
 * (`why`, copied: kept for --timings unless a note came before). */
void ls_program_cache_skip(const char *why);

/* A program made for this run: loaded from the cache (1) or built from
 * its source (0), in wall seconds. */
void ls_program_cache_count(int loaded, double seconds);

/* --no-cache: nothing read or written from here on; `why` (a string that
 * lives on, e.g. "--no-cache") says so in the stats. */
void ls_program_cache_bypass(const char *why);

/* LOCKSTEP_CACHE, when set, is "on" or "off": 0, or -1 with err set
 * (usage) for anything else. Checked before any command runs. */
int ls_program_cache_check_env(ls_error *err);

/* What the process's programs cost and where they came from (--timings). */
typedef struct ls_program_stats {
    int built, loaded;                  /* programs built from source; loaded from the cache */
    double build_seconds, load_seconds; /* the wall time each took, summed */
    /* Files found but not used, each program then built and its file
     * replaced: another key's (stale), a header, length or digest that
     * did not match (damaged), a binary the driver refused. */
    int stale, damaged, refused;
    char dir[512];  /* the cache directory in use; "" when none is */
    char note[600]; /* why none is, or why nothing could be stored there; "" when all was well */
} ls_program_stats;

void ls_program_cache_stats(ls_program_stats *out);

#ifdef __cplusplus
}
#endif

#endif
