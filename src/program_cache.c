/* program_cache.c - see program_cache.h. */
#include "program_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"
#include "le_bytes.h"
#include "output.h"
#include "version.h"

/* The file: a header of five little-endian 64-bit words after the magic,
 * then the binary. A new layout takes a new format number: files of the
 * old one are then damaged to this reader, and replaced. */
static const char cache_magic[8] = {'L', 'S', 'P', 'R', 'O', 'G', 'C', '\n'};
#define CACHE_FORMAT 1
#define HEADER_BYTES (8 + 4 * 8)
/* No binary of a kernel comes near it: a length beyond is damage. */
#define MAX_BINARY_BYTES ((uint64_t)1 << 30)

#define CACHE_ENV "LOCKSTEP_CACHE"
#define CACHE_DIR_ENV "LOCKSTEP_CACHE_DIR"
/* For the tests: lockstep's version as the key has it (a fake upgrade). */
#define CACHE_VERSION_ENV "LOCKSTEP_DEBUG_CACHE_VERSION"

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    int resolved;       /* the directory worked out (and created) */
    const char *bypass; /* why the cache is off (--no-cache, LOCKSTEP_CACHE=off); NULL: it is on */
    int no_store;       /* a store failed: none is tried again */
    ls_program_stats stats;
} cache;

/* 1: LOCKSTEP_CACHE turns the cache off; 0: on (unset, "" or "on");
 * -1: a value it does not know. */
static int env_off(void)
{
    const char *v = getenv(CACHE_ENV);
    if (!v || !*v || strcmp(v, "on") == 0)
        return 0;
    return strcmp(v, "off") == 0 ? 1 : -1;
}

int ls_program_cache_check_env(ls_error *err)
{
    if (env_off() < 0)
        return ls_fail_usage(err, "%s: expected on or off, got '%s'", CACHE_ENV, getenv(CACHE_ENV));
    return 0;
}

void ls_program_cache_bypass(const char *why)
{
    pthread_mutex_lock(&cache_lock);
    cache.bypass = why;
    pthread_mutex_unlock(&cache_lock);
}

/* The cache directory by the XDG rules into out: 0, or -1 with why in
 * note. XDG_CACHE_HOME counts only when absolute, as the specification
 * says. */
static int choose_dir(char *out, size_t len, char *note, size_t note_len)
{
    const char *own = getenv(CACHE_DIR_ENV), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    if (own && *own)
        n = snprintf(out, len, "%s", own);
    else if (xdg && xdg[0] == '/')
        n = snprintf(out, len, "%s/lockstep", xdg);
    else if (home && *home)
        n = snprintf(out, len, "%s/.cache/lockstep", home);
    else {
        snprintf(note, note_len, "no program cache: neither %s, XDG_CACHE_HOME nor HOME is set", CACHE_DIR_ENV);
        return -1;
    }
    if (n < 0 || (size_t)n >= len) {
        snprintf(note, note_len, "no program cache: its directory's name is longer than %zu bytes", len - 1);
        return -1;
    }
    return 0;
}

/* Creates dir and any missing parent (mode 0700, as XDG asks of the
 * directories it names): 0, or -1 with errno set. */
static int make_dirs(char *dir)
{
    for (char *slash = dir + 1;; slash++) {
        if (*slash != '/' && *slash != '\0')
            continue;
        char was = *slash;
        *slash = '\0';
        int made = mkdir(dir, 0700) == 0 || errno == EEXIST;
        *slash = was;
        if (!made)
            return -1;
        if (was == '\0')
            break;
    }
    struct stat st;
    if (stat(dir, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

/* Works out the directory once, with cache_lock held: stats.dir, or a
 * note saying why there is none. */
static void resolve(void)
{
    if (cache.resolved)
        return;
    cache.resolved = 1;
    ls_program_stats *s = &cache.stats;
    if (!cache.bypass && env_off() != 0)
        cache.bypass = CACHE_ENV "=off";
    if (cache.bypass) {
        snprintf(s->note, sizeof s->note, "program cache off (%s)", cache.bypass);
        return;
    }
    char dir[sizeof s->dir];
    if (choose_dir(dir, sizeof dir, s->note, sizeof s->note) != 0)
        return;
    if (make_dirs(dir) != 0) {
        snprintf(s->note, sizeof s->note, "no program cache: cannot create %s: %s", dir, strerror(errno));
        return;
    }
    memcpy(s->dir, dir, sizeof dir);
}

/* The directory in use into dir: 1, or 0 when there is none (off, or it
 * could not be made). */
static int cache_dir(char *dir, size_t len)
{
    pthread_mutex_lock(&cache_lock);
    resolve();
    int on = !cache.bypass && cache.stats.dir[0];
    snprintf(dir, len, "%s", cache.stats.dir);
    pthread_mutex_unlock(&cache_lock);
    return on;
}

/* Field after field, each with its terminating NUL, so that no two lists
 * of fields hash as one. */
static uint64_t hash_field(uint64_t h, const char *field)
{
    return ls_hash64(field, strlen(field) + 1, h);
}

/* The key: everything the binary depends on. */
static uint64_t key_of(const ls_program_key *k)
{
    const char *version = getenv(CACHE_VERSION_ENV);
    uint64_t h = hash_field(0, "lockstep program cache");
    h = hash_field(h, version && *version ? version : ls_version);
    h = hash_field(h, k->backend);
    h = hash_field(h, k->program);
    h = hash_field(h, k->device);
    h = hash_field(h, k->options);
    h = hash_field(h, k->compiler);
    return ls_hash64(k->source, strlen(k->source), h);
}

/* The file of key in dir: BACKEND-PROGRAM-HASH.bin, with any character
 * of the names but letters, digits, '_' and '-' made '_'. */
static int path_of(const char *dir, const ls_program_key *k, char *out, size_t len)
{
    uint64_t slot = hash_field(hash_field(0, k->device), k->options);
    int n = snprintf(out, len, "%s/%s-%s-%016llx.bin", dir, k->backend, k->program, (unsigned long long)slot);
    if (n < 0 || (size_t)n >= len)
        return -1;
    for (char *c = out + strlen(dir) + 1; *c; c++)
        if (!(*c >= 'a' && *c <= 'z') && !(*c >= 'A' && *c <= 'Z') && !(*c >= '0' && *c <= '9') && *c != '_' &&
            *c != '-' && *c != '.')
            *c = '_';
    return 0;
}

/* Reads n bytes at fd's position: 0, or -1 (an error, or the file ended). */
static int read_exactly(int fd, void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t got = read(fd, p, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        p += got;
        n -= (size_t)got;
    }
    return 0;
}

enum { FOUND, ABSENT, STALE, DAMAGED };

/* The binary of the file open at fd, checked against key: FOUND with it
 * in *data and *bytes, or why not. */
static int read_entry(int fd, uint64_t key, void **data, size_t *bytes)
{
    struct stat st;
    unsigned char head[HEADER_BYTES];
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return ABSENT;
    if ((uint64_t)st.st_size < HEADER_BYTES || read_exactly(fd, head, sizeof head) != 0 ||
        memcmp(head, cache_magic, sizeof cache_magic) != 0 || ls_load_le(head + 8, 8) != CACHE_FORMAT)
        return DAMAGED;
    if (ls_load_le(head + 16, 8) != key)
        return STALE;
    uint64_t length = ls_load_le(head + 24, 8), digest = ls_load_le(head + 32, 8);
    if (length == 0 || length > MAX_BINARY_BYTES || length != (uint64_t)st.st_size - HEADER_BYTES)
        return DAMAGED;
    void *binary = malloc((size_t)length);
    if (!binary)
        return ABSENT; /* out of memory: built, and the file left as it is */
    if (read_exactly(fd, binary, (size_t)length) != 0 || ls_hash64(binary, (size_t)length, 0) != digest) {
        free(binary);
        return DAMAGED;
    }
    *data = binary;
    *bytes = (size_t)length;
    return FOUND;
}

int ls_program_cache_find(const ls_program_key *key, void **data, size_t *bytes)
{
    *data = NULL;
    *bytes = 0;
    char dir[sizeof cache.stats.dir], path[sizeof dir + 256];
    if (!cache_dir(dir, sizeof dir) || path_of(dir, key, path, sizeof path) != 0)
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int found = read_entry(fd, key_of(key), data, bytes);
    close(fd);
    pthread_mutex_lock(&cache_lock);
    cache.stats.stale += found == STALE;
    cache.stats.damaged += found == DAMAGED;
    pthread_mutex_unlock(&cache_lock);
    return found == FOUND;
}

void ls_program_cache_refused(void)
{
    pthread_mutex_lock(&cache_lock);
    cache.stats.refused++;
    pthread_mutex_unlock(&cache_lock);
}

/* Writes the header and binary to path, whole or not at all. */
static int write_entry(const char *path, uint64_t key, const void *data, size_t bytes, ls_error *err)
{
    unsigned char head[HEADER_BYTES];
    memcpy(head, cache_magic, sizeof cache_magic);
    ls_store_le(head + 8, CACHE_FORMAT, 8);
    ls_store_le(head + 16, key, 8);
    ls_store_le(head + 24, bytes, 8);
    ls_store_le(head + 32, ls_hash64(data, bytes, 0), 8);
    ls_atomic_file a;
    if (ls_atomic_open(&a, path, err) != 0)
        return -1;
    if (fwrite(head, 1, sizeof head, a.f) != sizeof head || fwrite(data, 1, bytes, a.f) != bytes) {
        int e = errno;
        ls_atomic_abort(&a);
        return ls_fail(err, "cannot write %s: %s", path, strerror(e ? e : EIO));
    }
    return ls_atomic_commit(&a, err);
}

void ls_program_cache_store(const ls_program_key *key, const void *data, size_t bytes)
{
    char dir[sizeof cache.stats.dir], path[sizeof dir + 256];
    if (!data || bytes == 0 || bytes > MAX_BINARY_BYTES || !cache_dir(dir, sizeof dir) ||
        path_of(dir, key, path, sizeof path) != 0)
        return;
    pthread_mutex_lock(&cache_lock);
    int tried_before = cache.no_store;
    pthread_mutex_unlock(&cache_lock);
    ls_error err = {{0}, 0};
    if (tried_before || write_entry(path, key_of(key), data, bytes, &err) == 0)
        return;
    pthread_mutex_lock(&cache_lock);
    if (!cache.no_store)
        snprintf(cache.stats.note, sizeof cache.stats.note, "programs not stored in the cache: %s", err.msg);
    cache.no_store = 1;
    pthread_mutex_unlock(&cache_lock);
}

void ls_program_cache_skip(const char *why)
{
    pthread_mutex_lock(&cache_lock);
    if (!cache.stats.note[0])
        snprintf(cache.stats.note, sizeof cache.stats.note, "%s", why);
    pthread_mutex_unlock(&cache_lock);
}

void ls_program_cache_count(int loaded, double seconds)
{
    pthread_mutex_lock(&cache_lock);
    if (loaded) {
        cache.stats.loaded++;
        cache.stats.load_seconds += seconds;
    } else {
        cache.stats.built++;
        cache.stats.build_seconds += seconds;
    }
    pthread_mutex_unlock(&cache_lock);
}

void ls_program_cache_stats(ls_program_stats *out)
{
    pthread_mutex_lock(&cache_lock);
    *out = cache.stats;
    pthread_mutex_unlock(&cache_lock);
}
