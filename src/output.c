/* output.c - see output.h. */
#include "output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hash.h"

int ls_buffer_open(ls_buffer *b, ls_error *err)
{
    b->data = NULL;
    b->size = 0;
    b->f = open_memstream(&b->data, &b->size);
    if (!b->f)
        return ls_fail(err, "out of memory for the output: %s", strerror(errno));
    return 0;
}

void ls_buffer_discard(ls_buffer *b)
{
    if (b->f)
        fclose(b->f);
    free(b->data);
    b->f = NULL;
    b->data = NULL;
}

/* ---- The waits a stop signal ends ------------------------------------------ */

static int (*stop_requested)(void); /* ls_output_set_stop */

void ls_output_set_stop(int (*stopped)(void))
{
    stop_requested = stopped;
}

static int stopping(void)
{
    return stop_requested && stop_requested();
}

/* How often a wait for a FIFO's reader, or for room in a pipe, looks at
 * the stop flag: a stop signal ends it within this. */
#define WAIT_STEP_MS 20

/* The wait of one step, in nanosleep(): a signal ends it whatever its
 * handler's SA_RESTART (open() and write() on a FIFO are restarted, and
 * would wait through every stop signal). */
static void wait_a_step(void)
{
    struct timespec step = {0, WAIT_STEP_MS * 1000000L};
    nanosleep(&step, NULL);
}

/* Waits in poll() until fd takes a write (or has an error for the write
 * to report: POLLERR, no reader any more): 0; 1 when a stop signal came
 * first; -1 with errno set. */
static int wait_for_room(int fd)
{
    struct pollfd p = {fd, POLLOUT, 0};
    for (;;) {
        int ready = poll(&p, 1, WAIT_STEP_MS);
        if (ready > 0)
            return 0;
        if (ready < 0 && errno != EINTR)
            return -1;
        if (stopping())
            return 1;
    }
}

int ls_write_all(int fd, const void *data, size_t n, const char *dest_name, ls_error *err)
{
    struct stat sb;
    int regular = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
    off_t start = regular ? lseek(fd, 0, SEEK_CUR) : -1;
    /* A pipe, a socket or a terminal keeps a write waiting as long as its
     * reader does not read, and the stop signals' handlers restart the
     * write: the wait is made in poll() instead, which a stop ends. A
     * write that waits after a stop (a stopped run's report) is not cut
     * short by it. Once poll finds room the write takes a part at least,
     * and a signal that comes while it waits for more returns that part. */
    int stoppable = !regular && !stopping();
    const char *p = data;
    size_t left = n;
    while (left > 0) {
        int waited = stoppable ? wait_for_room(fd) : 0;
        if (waited < 0)
            return ls_fail(err, "cannot write to %s: %s", dest_name, strerror(errno));
        if (waited > 0 && left == n)
            return ls_fail(err, "cannot write to %s: stopped by a signal while waiting for its reader; nothing was "
                                "written", dest_name);
        if (waited > 0)
            return ls_fail(err, "cannot write to %s: stopped by a signal while waiting for its reader, after %zu of "
                                "%zu bytes", dest_name, n - left, n);
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            /* A regular file (a redirect onto a full disk): take back the
             * part that was written, so no reader sees half a result. */
            if (start >= 0 && ftruncate(fd, start) == 0)
                lseek(fd, start, SEEK_SET);
            return ls_fail(err, "cannot write to %s: %s", dest_name, strerror(e));
        }
        p += w;
        left -= (size_t)w;
    }
    return 0;
}

int ls_buffer_emit(ls_buffer *b, FILE *dest, const char *dest_name, ls_error *err)
{
    /* Anything dest already holds goes first, and must go through. */
    if (fflush(dest) != 0 || ferror(dest)) {
        ls_buffer_discard(b);
        return ls_fail(err, "cannot write to %s: %s", dest_name, strerror(errno));
    }
    if (fclose(b->f) != 0) {
        b->f = NULL;
        ls_buffer_discard(b);
        return ls_fail(err, "out of memory for the output");
    }
    b->f = NULL;
    int rc = ls_write_all(fileno(dest), b->data, b->size, dest_name, err);
    ls_buffer_discard(b);
    return rc;
}

int ls_close_stdout(ls_error *err)
{
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad)
        return ls_fail(err, "cannot write to standard output: %s", strerror(e));
    return 0;
}

/* ---- What an output path names ---------------------------------------- */

typedef struct target {
    int through; /* 1: written through; 0: replaced by a rename */
    char *file;  /* the file replaced (a symbolic link's target) or opened */
    int std_fd;  /* 1 or 2: this process's own stdout or stderr; else -1 */
} target;

/* 1 or 2 when st is the file this process's stdout or stderr is open on
 * (/dev/stdout, or the name of the file or FIFO it was redirected to):
 * written through that descriptor, at its offset and after what the
 * program printed before, not reopened (which would truncate the file). */
static int std_stream_of(const struct stat *st)
{
    for (int fd = 1; fd <= 2; fd++) {
        struct stat s;
        if (fstat(fd, &s) == 0 && s.st_dev == st->st_dev && s.st_ino == st->st_ino)
            return fd;
    }
    return -1;
}

static const char *kind_of(mode_t mode)
{
    return S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ? "a socket" : "a special file";
}

/* Decides how path is written (output.h); a refusal is the user's input. */
static int resolve_target(const char *path, target *t, ls_error *err)
{
    *t = (target){0, NULL, -1};
    const char *slash = strrchr(path, '/');
    if (!*(slash ? slash + 1 : path))
        return ls_fail_usage(err, "%s: not a file name", path);
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT)
            return ls_fail_usage(err, "cannot write %s: %s", path, strerror(errno));
        t->file = strdup(path); /* a new file; a missing directory fails on creation */
        return t->file ? 0 : ls_fail(err, "out of memory");
    }
    int link = S_ISLNK(st.st_mode);
    if (link && stat(path, &st) != 0) {
        if (errno == ENOENT)
            return ls_fail_usage(err, "cannot write %s: it is a symbolic link to a file that does not exist "
                                 "(lockstep creates no file through a link; give the file's own name)", path);
        return ls_fail_usage(err, "cannot write %s: %s", path, strerror(errno));
    }
    t->std_fd = std_stream_of(&st);
    if (S_ISDIR(st.st_mode))
        return ls_fail_usage(err, "cannot write %s: it is a directory", path);
    if (t->std_fd >= 0 || S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
        t->through = 1;
        t->file = strdup(path);
    } else if (S_ISREG(st.st_mode)) {
        t->file = link ? realpath(path, NULL) : strdup(path);
    } else {
        return ls_fail_usage(err, "cannot write %s: it is %s, not a regular file, character device or FIFO", path,
                             kind_of(st.st_mode));
    }
    if (!t->file)
        return ls_fail(err, "cannot write %s: %s", path, strerror(errno));
    return 0;
}

/* ---- Temporary files ------------------------------------------------------ */

#define TMP_TAIL ".tmp-"
#define TMP_RANDOM 6 /* mkstemp's XXXXXX */

/* The directory part of path ("." when none), for the temporary name and
 * the directory sync. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The start of every temporary name of target `base` in dir: ".BASE.tmp-",
 * or, when that and 6 random characters would pass dir's name limit,
 * ".HEAD~HASH.tmp-" with as much of BASE as fits (cut between UTF-8
 * characters) and an FNV-1a hash of all of it, so that the name still
 * fits and still belongs to this target alone. */
static char *tmp_prefix(const char *dir, const char *base)
{
    long name_max = pathconf(dir, _PC_NAME_MAX);
    if (name_max <= 0)
        name_max = NAME_MAX;
    size_t len = strlen(base), tail = strlen(TMP_TAIL) + TMP_RANDOM;
    char *p = malloc(len + 64);
    if (!p)
        return NULL;
    if (1 + len + tail <= (size_t)name_max) {
        sprintf(p, ".%s%s", base, TMP_TAIL);
        return p;
    }
    uint64_t h = ls_fnv1a(LS_FNV_INIT, base, len);
    size_t fixed = 2 + 16 + tail; /* ".", "~", the hash, the tail */
    size_t keep = (size_t)name_max > fixed ? (size_t)name_max - fixed : 0;
    keep = keep < len ? keep : len;
    while (keep > 0 && ((unsigned char)base[keep] & 0xc0) == 0x80)
        keep--;
    sprintf(p, ".%.*s~%016llx%s", (int)keep, base, (unsigned long long)h, TMP_TAIL);
    return p;
}

/* Removes the temporary file `name` in dfd when no writer holds it: a
 * writer keeps an flock on its temporary file until the rename, so an
 * unlocked one was left by a write that was killed. The lock is held
 * while the name is removed, and the name must still be that file. Of
 * another target (any_owner 0) only a file of this user's is removed: a
 * name that looks like ours in a shared directory may be another user's
 * program's. */
static void remove_if_abandoned(int dfd, const char *name, int any_owner)
{
    int fd = openat(dfd, name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat held, now;
    if (fstat(fd, &held) == 0 && S_ISREG(held.st_mode) && (any_owner || held.st_uid == geteuid()) &&
        flock(fd, LOCK_EX | LOCK_NB) == 0 && fstatat(dfd, name, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
        now.st_dev == held.st_dev && now.st_ino == held.st_ino)
        unlinkat(dfd, name, 0);
    close(fd);
}

/* Whether `name` is a temporary file of ours, of any target:
 * ".NAME.tmp-XXXXXX" or ".HEAD~HASH.tmp-XXXXXX" (mkstemp's 6 letters and
 * digits last). */
static int is_temporary_name(const char *name)
{
    size_t len = strlen(name), tail = strlen(TMP_TAIL);
    if (name[0] != '.' || len < 2 + tail + TMP_RANDOM || strncmp(name + len - TMP_RANDOM - tail, TMP_TAIL, tail) != 0)
        return 0;
    for (size_t i = len - TMP_RANDOM; i < len; i++)
        if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
              (name[i] >= '0' && name[i] <= '9')))
            return 0;
    return 1;
}

/* Removes what killed writes left in dir (see output.h): the temporary
 * files that no live writer holds, of every target (those of prefix's
 * whoever made them), other than `own` (NULL: none). */
static void remove_stale_temporaries(const char *dir, const char *prefix, const char *own)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t plen = prefix ? strlen(prefix) : 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (is_temporary_name(e->d_name) && !(own && strcmp(e->d_name, own) == 0))
            remove_if_abandoned(dirfd(d), e->d_name,
                                prefix && strncmp(e->d_name, prefix, plen) == 0 &&
                                    strlen(e->d_name) == plen + TMP_RANDOM);
    closedir(d);
}

void ls_output_remove_leftovers(const char *dir)
{
    remove_stale_temporaries(dir, NULL, NULL);
}

/* The temporary files of the writes under way, for ls_output_abandon,
 * which a signal handler calls, on any thread: in fixed buffers (a
 * handler may not allocate). A buffer's sequence number is odd while its
 * name is written (a seqlock): the handler takes a copy of a listed name
 * and unlinks it only when the number was even and the same before and
 * after, so it never unlinks a name half overwritten by another thread.
 * More writes at once than there are buffers go unlisted: a killed one's
 * file is then removed by the next write beside it. */
#define LIVE_MAX 8
static struct {
    atomic_int listed; /* 1: path is a write's temporary file */
    atomic_uint seq;   /* odd while path is being written */
    char path[PATH_MAX];
} live[LIVE_MAX];
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

static void live_add(const char *tmp)
{
    if (strlen(tmp) >= PATH_MAX)
        return;
    pthread_mutex_lock(&live_lock);
    for (int i = 0; i < LIVE_MAX; i++)
        if (!atomic_load(&live[i].listed)) {
            atomic_fetch_add_explicit(&live[i].seq, 1, memory_order_relaxed);
            atomic_thread_fence(memory_order_release);
            strcpy(live[i].path, tmp);
            atomic_fetch_add_explicit(&live[i].seq, 1, memory_order_release);
            atomic_store_explicit(&live[i].listed, 1, memory_order_release);
            break;
        }
    pthread_mutex_unlock(&live_lock);
}

static void live_remove(const char *tmp)
{
    pthread_mutex_lock(&live_lock);
    for (int i = 0; i < LIVE_MAX; i++)
        if (atomic_load(&live[i].listed) && strcmp(live[i].path, tmp) == 0) {
            atomic_store_explicit(&live[i].listed, 0, memory_order_release);
            break;
        }
    pthread_mutex_unlock(&live_lock);
}

void ls_output_abandon(void)
{
    char name[PATH_MAX];
    for (int i = 0; i < LIVE_MAX; i++) {
        if (!atomic_load_explicit(&live[i].listed, memory_order_acquire))
            continue;
        unsigned before = atomic_load_explicit(&live[i].seq, memory_order_acquire);
        memcpy(name, live[i].path, sizeof name);
        atomic_thread_fence(memory_order_acquire);
        if (before % 2 == 0 && atomic_load_explicit(&live[i].seq, memory_order_relaxed) == before) {
            name[sizeof name - 1] = 0;
            unlink(name);
        }
    }
}

/* Creates the temporary file tmpl (ending in XXXXXX) and locks it. A
 * cleaner in another process may take the new file for a leftover
 * between its creation and our lock; it is then gone (no links) once the
 * lock is ours, and another name is drawn. Where the file system has no
 * flock, no one can tell a live file from a leftover, and none is
 * removed. */
static int create_locked(char *tmpl)
{
    size_t n = strlen(tmpl);
    for (int attempt = 0; attempt < 100; attempt++) {
        memset(tmpl + n - TMP_RANDOM, 'X', TMP_RANDOM);
        int fd = mkostemp(tmpl, O_CLOEXEC);
        if (fd < 0)
            return -1;
        int locked;
        while ((locked = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
            ;
        struct stat sb;
        if (locked != 0 || (fstat(fd, &sb) == 0 && sb.st_nlink > 0))
            return fd;
        close(fd);
    }
    errno = EEXIST;
    return -1;
}

/* Gives the temporary file fd what the file it replaces has: its mode,
 * owner and group (was: the target as it was when the write began, or
 * st_mode 0 when there was none). A private file stays private, a shared
 * one stays shared. A new file takes the mode a plain fopen would give it
 * (mkstemp makes 0600). The owner and group are kept where that is
 * permitted (root, or a group of ours): where it is not, the file is
 * ours, and a set-user-ID or set-group-ID bit of the one it replaces is
 * not given to it. 0, or -1 with errno set. */
static int take_attributes(int fd, const struct stat *was)
{
    if (!S_ISREG(was->st_mode)) {
        mode_t um = umask(0);
        umask(um);
        return fchmod(fd, 0666 & ~um);
    }
    mode_t mode = was->st_mode & 07777;
    /* The owner goes first: a change of owner clears the set-ID bits. */
    if (fchown(fd, was->st_uid, was->st_gid) != 0) {
        if (errno != EPERM && errno != EINVAL) /* EINVAL: an ID this file system cannot hold */
            return -1;
        if (was->st_uid != geteuid())
            mode &= ~(mode_t)S_ISUID;
        if (fchown(fd, (uid_t)-1, was->st_gid) != 0) {
            if (errno != EPERM && errno != EINVAL)
                return -1;
            mode &= ~(mode_t)S_ISGID;
        }
    }
    return fchmod(fd, mode);
}

/* The temporary file of a replaced target, and the removal of earlier
 * writes' leftovers. */
static int open_temporary(ls_atomic_file *a, ls_error *err)
{
    /* The target as the write begins: its mode, owner and group are the
     * new file's. Missing: a new file. */
    struct stat was;
    if (stat(a->path, &was) != 0) {
        if (errno != ENOENT)
            return ls_fail(err, "cannot write %s: %s", a->name, strerror(errno));
        was.st_mode = 0;
    }
    char *dir = dir_of(a->path);
    char *prefix = dir ? tmp_prefix(dir, base_of(a->path)) : NULL;
    size_t len = (dir ? strlen(dir) : 0) + (prefix ? strlen(prefix) : 0) + TMP_RANDOM + 2;
    a->tmp = dir && prefix ? malloc(len) : NULL;
    if (!a->tmp) {
        free(dir);
        free(prefix);
        return ls_fail(err, "out of memory");
    }
    snprintf(a->tmp, len, "%s/%sXXXXXX", dir, prefix);
    int fd = create_locked(a->tmp);
    int e = errno;
    if (fd >= 0) {
        live_add(a->tmp);
        remove_stale_temporaries(dir, prefix, base_of(a->tmp));
    }
    free(dir);
    free(prefix);
    if (fd < 0) {
        free(a->tmp);
        a->tmp = NULL;
        return ls_fail(err, "%s: cannot create a file next to it: %s", a->name, strerror(e));
    }
    if (take_attributes(fd, &was) != 0 || !(a->f = fdopen(fd, "w"))) {
        e = errno;
        close(fd);
        return ls_fail(err, "%s: cannot prepare it: %s", a->name, strerror(e));
    }
    return 0;
}

/* ---- Writing --------------------------------------------------------------- */

int ls_atomic_open(ls_atomic_file *a, const char *path, ls_error *err)
{
    memset(a, 0, sizeof *a);
    a->std_fd = -1;
    target t;
    if (resolve_target(path, &t, err) != 0)
        return -1;
    a->path = t.file;
    a->through = t.through;
    a->std_fd = t.std_fd;
    a->name = strdup(path);
    int rc;
    if (!a->name)
        rc = ls_fail(err, "out of memory");
    else if (a->through)
        rc = (a->f = open_memstream(&a->data, &a->size)) ? 0 : ls_fail(err, "out of memory for %s", path);
    else
        rc = open_temporary(a, err);
    if (rc != 0)
        ls_atomic_abort(a);
    return rc;
}

static int unmap(ls_atomic_file *a);

void ls_atomic_abort(ls_atomic_file *a)
{
    unmap(a);
    /* The name goes first, while our lock still keeps cleaners off it. */
    if (a->tmp) {
        unlink(a->tmp);
        live_remove(a->tmp);
    }
    if (a->f)
        fclose(a->f);
    free(a->data);
    free(a->tmp);
    free(a->path);
    free(a->name);
    memset(a, 0, sizeof *a);
    a->std_fd = -1;
}

/* ---- Writing through a mapping (ls_atomic_map) ------------------------------ */

/* The one mapping that may be open, for the SIGBUS handler: where it
 * lies, the temporary file to remove, and the line to print, made
 * beforehand (a signal handler may not format). */
static struct {
    char *start;
    size_t size;
    const char *tmp;
    char line[1024];
    size_t line_len;
    struct sigaction before;
} guard;

/* A SIGBUS inside the mapping: the file system could not give the page a
 * fault asked for. Nothing can be written any more, so the temporary file
 * goes and the process ends as a failed write does (exit 1), with the
 * target left as it was. Any other SIGBUS is not ours: the action that
 * was there before is put back, and it gets the signal again (a fault
 * elsewhere raises it anew as the faulting instruction runs again; one
 * that was sent, which carries no address, is sent again). */
static void on_sigbus(int sig, siginfo_t *info, void *context)
{
    (void)context;
    char *at = info->si_addr;
    if (info->si_code <= 0 || at < guard.start || at >= guard.start + guard.size) {
        sigaction(SIGBUS, &guard.before, NULL);
        if (info->si_code <= 0)
            raise(sig);
        return;
    }
    unlink(guard.tmp);
    ssize_t said = write(2, guard.line, guard.line_len);
    (void)said;
    _exit(1);
}

/* Watches a->map for SIGBUS: 0, or -1 with errno set. */
static int guard_on(const ls_atomic_file *a)
{
    guard.size = a->map_size;
    guard.tmp = a->tmp;
    int n = snprintf(guard.line, sizeof guard.line,
                     "lockstep: cannot write %s: the file system failed a page of it while it was being written "
                     "(SIGBUS: out of space, or an I/O error); the file was left as it was\n",
                     a->name);
    guard.line_len = n < 0 ? 0 : (size_t)n < sizeof guard.line ? (size_t)n : sizeof guard.line - 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    guard.start = a->map; /* before the handler can run */
    if (sigaction(SIGBUS, &sa, &guard.before) == 0)
        return 0;
    guard.start = NULL;
    return -1;
}

static void guard_off(void)
{
    sigaction(SIGBUS, &guard.before, NULL);
    guard.start = NULL;
    guard.size = 0;
}

/* Gives fd `size` bytes with every block allocated: a page fault into a
 * shared mapping that needs a block the disk no longer has cannot return
 * ENOSPC, it raises SIGBUS, so the space is taken here, where running out
 * is an error code. 0; 1 where the file system cannot reserve space; -1
 * with errno set. (Linux's fallocate, not posix_fallocate: where the file
 * system has none, glibc emulates that with a byte written in every
 * block, a second pass over a gigabyte that reserves nothing on a
 * copy-on-write file system.) */
static int reserve_blocks(int fd, size_t size)
{
    int rc;
    while ((rc = fallocate(fd, 0, 0, (off_t)size)) != 0 && errno == EINTR)
        ;
    if (rc == 0)
        return 0;
    return errno == EOPNOTSUPP || errno == ENOSYS ? 1 : -1;
}

int ls_atomic_map(ls_atomic_file *a, size_t size, void **data, ls_error *err)
{
    *data = NULL;
    if (a->through || !a->tmp || guard.start || size == 0 || size > (size_t)INT64_MAX)
        return 1;
    int fd = fileno(a->f);
    if (fflush(a->f) != 0 || ftello(a->f) != 0)
        return 1; /* something was written through a->f: it goes on there */
    int reserved = reserve_blocks(fd, size);
    if (reserved < 0)
        return ls_fail(err, "cannot write %s: %s", a->name, strerror(errno));
    if (reserved > 0)
        return 1;
    void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        /* Not mapped (a file system that maps no files, no address
         * space): a->f writes it, from an empty file again. */
        if (ftruncate(fd, 0) != 0)
            return ls_fail(err, "cannot write %s: %s", a->name, strerror(errno));
        return 1;
    }
    a->map = map;
    a->map_size = size;
    if (guard_on(a) != 0) {
        int e = errno;
        munmap(map, size);
        a->map = NULL;
        return ls_fail(err, "cannot write %s: cannot watch its mapping for SIGBUS: %s", a->name, strerror(e));
    }
    *data = map;
    return 0;
}

/* Ends the mapping, and leaves a->f at the end of what it held, for a
 * writer that goes on there. No msync: on Linux the mapped pages are the
 * file's page cache, written back with the rest, and fsync (--sync) syncs
 * them as it syncs what write() left there. */
static int unmap(ls_atomic_file *a)
{
    if (!a->map)
        return 0;
    int rc = munmap(a->map, a->map_size);
    int e = errno;
    guard_off();
    a->map = NULL;
    if (rc == 0 && fseeko(a->f, (off_t)a->map_size, SEEK_SET) != 0) {
        rc = -1;
        e = errno;
    }
    errno = e;
    return rc;
}

/* ---- Committing ---------------------------------------------------------- */

/* Fsync of a directory itself, for the names in it. */
static int sync_directory(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

/* Makes the rename of path itself durable: syncs the directory it is in. */
static int sync_dir(const char *path)
{
    char *dir = dir_of(path);
    if (!dir)
        return -1;
    int rc = sync_directory(dir);
    free(dir);
    return rc;
}

/* Whether path may be renamed over: it must still be missing or a regular
 * file (it was one when the write began). */
static int still_replaceable(const char *path)
{
    struct stat st;
    return lstat(path, &st) != 0 || S_ISREG(st.st_mode);
}

static int sync_outputs; /* ls_output_set_sync */

void ls_output_set_sync(int on)
{
    sync_outputs = on;
}

static int commit_replace(ls_atomic_file *a, ls_error *err)
{
    int e = 0;
    if (unmap(a) != 0)
        e = errno;
    else if (fflush(a->f) != 0 || ferror(a->f))
        e = errno ? errno : EIO;
    else if (sync_outputs && fsync(fileno(a->f)) != 0)
        e = errno;
    else if (!still_replaceable(a->path))
        return ls_fail(err, "cannot write %s: it is no longer a regular file; it was left as it is", a->name);
    /* Renamed while the file is still open and locked: a cleaner never
     * sees it unlocked under its temporary name. */
    else if (rename(a->tmp, a->path) != 0)
        e = errno;
    if (e)
        return ls_fail(err, "cannot write %s: %s", a->name, strerror(e));
    live_remove(a->tmp);
    free(a->tmp);
    a->tmp = NULL;
    int closed = fclose(a->f);
    a->f = NULL;
    if (closed != 0)
        return ls_fail(err, "%s: written, but closing it failed: %s", a->name, strerror(errno));
    if (sync_outputs && sync_dir(a->path) != 0)
        return ls_fail(err, "%s: written, but its directory cannot be synced: %s", a->name, strerror(errno));
    return 0;
}

/* ---- Writing through ------------------------------------------------------- */

/* fd made blocking again: ls_write_all waits in poll() for room, and
 * then writes as much as the pipe takes. fd, or -1 with err set. */
static int blocking(int fd, const ls_atomic_file *a, ls_error *err)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0)
        return fd;
    int e = errno;
    close(fd);
    return ls_fail(err, "cannot write %s: %s", a->name, strerror(e));
}

/* Opens a target written through, never waiting in open(): a FIFO without
 * a reader (ENXIO to a non-blocking open) is tried again every step until
 * a reader opens it, or a stop signal comes. */
static int open_through(const ls_atomic_file *a, ls_error *err)
{
    struct stat st;
    int fifo = stat(a->path, &st) == 0 && S_ISFIFO(st.st_mode);
    for (;;) {
        int fd = open(a->path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
        if (fd >= 0)
            return blocking(fd, a, err);
        int e = errno;
        if (e != EINTR && !(fifo && e == ENXIO))
            return ls_fail(err, "cannot write %s: %s", a->name, strerror(e));
        if (stopping())
            return ls_fail(err, "cannot write %s: stopped by a signal while waiting for a reader to open the FIFO; "
                                "nothing was written", a->name);
        wait_a_step();
    }
}

/* ls_write_all with SIGPIPE held back in this thread, so that a reader
 * that closed its end is a message (EPIPE) and not the end of the
 * process. A SIGPIPE the write raised is taken before the mask is
 * restored. */
static int write_holding_sigpipe(int fd, const void *data, size_t n, const char *name, ls_error *err)
{
    sigset_t pipe_only, old;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    int held = pthread_sigmask(SIG_BLOCK, &pipe_only, &old) == 0 && !sigismember(&old, SIGPIPE);
    int rc = ls_write_all(fd, data, n, name, err);
    if (held) {
        sigset_t pending;
        struct timespec now = {0, 0};
        if (sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE))
            sigtimedwait(&pipe_only, NULL, &now);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    return rc;
}

static int commit_through(ls_atomic_file *a, ls_error *err)
{
    int bad = fflush(a->f) != 0 || ferror(a->f);
    bad |= fclose(a->f) != 0;
    a->f = NULL;
    if (bad)
        return ls_fail(err, "out of memory for %s", a->name);
    int fd = a->std_fd;
    if (fd >= 0)
        fflush(fd == 1 ? stdout : stderr); /* what the program printed before goes first */
    else if ((fd = open_through(a, err)) < 0)
        return -1; /* a FIFO: this waited for a reader */
    int rc = write_holding_sigpipe(fd, a->data, a->size, a->name, err);
    if (a->std_fd < 0 && close(fd) != 0 && rc == 0)
        rc = ls_fail(err, "cannot write %s: %s", a->name, strerror(errno));
    return rc;
}

int ls_atomic_commit(ls_atomic_file *a, ls_error *err)
{
    int rc = a->through ? commit_through(a, err) : commit_replace(a, err);
    ls_atomic_abort(a);
    return rc;
}

int ls_output_check(const char *path, ls_error *err)
{
    target t;
    if (resolve_target(path, &t, err) != 0) {
        err->usage = 1;
        return -1;
    }
    int rc = 0;
    if (t.through) {
        /* Only asked, never opened: see output.h. */
        if (t.std_fd < 0 && access(t.file, W_OK) != 0)
            rc = ls_fail_usage(err, "cannot write %s: %s", path, strerror(errno));
    } else {
        ls_atomic_file probe;
        if (ls_atomic_open(&probe, path, err) != 0) {
            err->usage = 1;
            rc = -1;
        } else {
            ls_atomic_abort(&probe);
        }
    }
    free(t.file);
    return rc;
}

/* ---- Directories written whole (ls_atomic_dir) ------------------------------
 *
 * How a writer and a cleaner of leftovers meet (output.h): the writer
 * makes its directory, then the lock file beside it (O_EXCL), then locks
 * it; once locked, a lock file that has no name any more (a cleaner took
 * the directory in between) sends it to draw another name. A cleaner
 * takes a directory by locking its lock file (LOCK_NB: a live writer's is
 * held), or, when it has none (a writer killed before it made one, one of
 * an older lockstep, or one between its two steps, whose O_EXCL then
 * fails and draws another name), by making it; holding the lock it
 * removes the directory's files, the directory, and last the lock file.
 * A writer puts its directory in place by renaming it to DIR while it
 * holds the lock, then removes the lock file: a lock file whose directory
 * is gone is a leftover too. */

#define DIR_TAIL ".frames-" /* the name Life's --frames has always given them */
#define DIR_RANDOM 6        /* mkdtemp's XXXXXX */
#define LOCK_TAIL ".lock"


/* DIR without trailing slashes, and the directory it is in ("." when it
 * names none). Both allocated; -1 with err set for a DIR that cannot be
 * renamed into place: "", "/", ".", "..". */
static int split_dir(const char *dir, const char *what, char **path, char **parent, ls_error *err)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    size_t base = n;
    while (base > 0 && dir[base - 1] != '/')
        base--;
    const char *name = dir + base;
    size_t name_len = n - base;
    if (name_len == 0 || (name_len == 1 && name[0] == '.') || (name_len == 2 && memcmp(name, "..", 2) == 0))
        return ls_fail_usage(err, "%s '%s': name the directory by its own name (not /, . or ..)", what, dir);
    *path = strndup(dir, n);
    if (!*path)
        return ls_fail(err, "out of memory");
    if (base == 0)
        *parent = strdup(".");
    else if (base == 1)
        *parent = strdup("/");
    else
        *parent = strndup(dir, base - 1);
    if (!*parent) {
        free(*path);
        return ls_fail(err, "out of memory");
    }
    return 0;
}

/* 1 when the directory holds nothing, 0 when it holds something, -1 with
 * errno set when it cannot be read. */
static int dir_is_empty(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int empty = 1;
    for (struct dirent *e; empty && (e = readdir(d));)
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(d);
    return empty;
}

/* ".BASE.frames-", the start of the temporary names of DIR = path. */
static char *dir_prefix(const char *path)
{
    const char *base = base_of(path);
    size_t len = strlen(base) + sizeof DIR_TAIL + 1;
    char *prefix = malloc(len);
    if (prefix)
        snprintf(prefix, len, ".%s%s", base, DIR_TAIL);
    return prefix;
}

/* Holds back the stop signals in this thread (old: the mask before). */
static void hold_stop_signals(sigset_t *old)
{
    sigset_t stops;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGHUP);
    sigaddset(&stops, SIGUSR1);
    sigaddset(&stops, SIGUSR2);
    pthread_sigmask(SIG_BLOCK, &stops, old);
}

/* Lets them in again: one that came meanwhile is taken now. */
static void release_stop_signals(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* Removes the directory `name` in dfd and the files in it (a temporary
 * directory holds no directories), without following a link. */
static void remove_dir_and_files(int dfd, const char *name)
{
    int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            unlinkat(dirfd(d), e->d_name, 0);
    closedir(d);
    unlinkat(dfd, name, AT_REMOVEDIR);
}

/* Removes the temporary directory dir_name in dfd, and its lock file,
 * when no live writer holds that lock (above). */
static void remove_dir_if_abandoned(int dfd, const char *dir_name)
{
    char lock[NAME_MAX + 1];
    if (snprintf(lock, sizeof lock, "%s%s", dir_name, LOCK_TAIL) >= (int)sizeof lock)
        return;
    int made = 0;
    int fd = openat(dfd, lock, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
        fd = openat(dfd, lock, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        made = fd >= 0;
    }
    if (fd < 0)
        return;
    struct stat held, now;
    int regular = fstat(fd, &held) == 0 && S_ISREG(held.st_mode);
    int locked = regular && flock(fd, LOCK_EX | LOCK_NB) == 0;
    if (locked && fstatat(dfd, lock, &now, AT_SYMLINK_NOFOLLOW) == 0 && now.st_dev == held.st_dev &&
        now.st_ino == held.st_ino) {
        remove_dir_and_files(dfd, dir_name);
        unlinkat(dfd, lock, 0);
    } else if (made && regular && !locked && errno != EWOULDBLOCK) {
        /* No flock on this file system: a live writer cannot be told from
         * a leftover, and nothing is removed but what we made. */
        unlinkat(dfd, lock, 0);
    }
    close(fd);
}

/* Removes what killed writes into the same DIR left in parent: the
 * directories named prefix and 6 characters, other than ours, and the
 * lock files whose directory is gone. */
static void remove_abandoned_dirs(const char *parent, const char *prefix, const char *own)
{
    DIR *d = opendir(parent);
    if (!d)
        return;
    size_t plen = strlen(prefix), tail = strlen(LOCK_TAIL);
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, prefix, plen) != 0 || strncmp(e->d_name, own, plen + DIR_RANDOM) == 0)
            continue;
        char dir_name[NAME_MAX + 1];
        struct stat st;
        if (len == plen + DIR_RANDOM) {
            remove_dir_if_abandoned(dirfd(d), e->d_name);
        } else if (len == plen + DIR_RANDOM + tail && strcmp(e->d_name + len - tail, LOCK_TAIL) == 0) {
            snprintf(dir_name, sizeof dir_name, "%.*s", (int)(len - tail), e->d_name);
            if (fstatat(dirfd(d), dir_name, &st, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT)
                remove_dir_if_abandoned(dirfd(d), dir_name);
        }
    }
    closedir(d);
}

/* Removes d's temporary directory (with the files in it), then its lock
 * file, and lets the lock go. */
static void dir_tmp_remove(ls_atomic_dir *d)
{
    if (d->tmp)
        remove_dir_and_files(AT_FDCWD, d->tmp);
    if (d->lock && d->lock_fd >= 0)
        unlink(d->lock); /* ours while we hold it */
    if (d->lock_fd >= 0)
        close(d->lock_fd);
    free(d->tmp);
    free(d->lock);
    d->tmp = d->lock = NULL;
    d->lock_fd = -1;
}

/* Makes the directory and its lock file, and locks it. 0: d holds them;
 * 1: a cleaner took them first (try another name); -1 with errno set. */
static int dir_tmp_try(ls_atomic_dir *d, const char *prefix)
{
    size_t len = strlen(d->parent) + strlen(prefix) + DIR_RANDOM + sizeof LOCK_TAIL + 2;
    d->tmp = malloc(len);
    d->lock = malloc(len);
    if (!d->tmp || !d->lock)
        return errno = ENOMEM, -1;
    snprintf(d->tmp, len, "%s/%sXXXXXX", d->parent, prefix);
    if (!mkdtemp(d->tmp)) {
        int e = errno;
        free(d->tmp);
        d->tmp = NULL;
        return errno = e, -1;
    }
    snprintf(d->lock, len, "%s%s", d->tmp, LOCK_TAIL);
    int fd = open(d->lock, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        int e = errno;
        if (e != EEXIST)
            rmdir(d->tmp); /* EEXIST: a cleaner has taken it, and removes it */
        free(d->tmp);
        d->tmp = NULL;
        return e == EEXIST ? 1 : (errno = e, -1);
    }
    int locked;
    while ((locked = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
        ;
    struct stat st;
    d->lock_fd = fd;
    if (locked == 0 && fstat(fd, &st) == 0 && st.st_nlink == 0) {
        close(fd); /* a cleaner removed both */
        d->lock_fd = -1;
        free(d->tmp);
        d->tmp = NULL;
        return 1;
    }
    return 0; /* locked; or no flock on this file system, where no cleaner removes anything */
}

/* A temporary directory for d->path in d->parent, locked as a live
 * writer's, with the stop signals held back meanwhile. 0, or -1 with
 * errno set. */
static int dir_tmp_make(ls_atomic_dir *d)
{
    d->tmp = d->lock = NULL;
    d->lock_fd = -1;
    char *prefix = dir_prefix(d->path);
    if (!prefix)
        return errno = ENOMEM, -1;
    sigset_t old;
    hold_stop_signals(&old);
    int rc = 1;
    for (int attempt = 0; attempt < 100 && rc == 1; attempt++) {
        free(d->lock);
        d->lock = NULL;
        rc = dir_tmp_try(d, prefix);
    }
    int e = rc == 1 ? EEXIST : errno;
    if (rc != 0)
        dir_tmp_remove(d);
    release_stop_signals(&old);
    free(prefix);
    return rc == 0 ? 0 : (errno = e, -1);
}

void ls_atomic_dir_abort(ls_atomic_dir *d)
{
    dir_tmp_remove(d);
    free(d->what);
    free(d->name);
    free(d->path);
    free(d->parent);
    *d = (ls_atomic_dir){.lock_fd = -1};
}

/* d's names, before anything is made. */
static int dir_names(ls_atomic_dir *d, const char *dir, const char *what, ls_error *err)
{
    *d = (ls_atomic_dir){.lock_fd = -1};
    if (split_dir(dir, what, &d->path, &d->parent, err) != 0)
        return -1;
    d->what = strdup(what);
    d->name = strdup(dir);
    if (!d->what || !d->name) {
        ls_atomic_dir_abort(d);
        return ls_fail(err, "out of memory");
    }
    return 0;
}

int ls_atomic_dir_check(const char *dir, const char *what, ls_error *err)
{
    ls_atomic_dir d;
    if (dir_names(&d, dir, what, err) != 0)
        return -1;
    struct stat st;
    int rc = 0;
    if (lstat(d.path, &st) == 0) {
        int empty = S_ISDIR(st.st_mode) ? dir_is_empty(d.path) : -1;
        if (S_ISLNK(st.st_mode)) /* the new directory would replace the link, not fill what it names */
            rc = ls_fail_usage(err, "%s %s: a symbolic link; name the directory itself", what, dir);
        else if (!S_ISDIR(st.st_mode))
            rc = ls_fail_usage(err, "%s %s: not a directory", what, dir);
        else if (empty < 0)
            rc = ls_fail_usage(err, "%s %s: cannot read it: %s", what, dir, strerror(errno));
        else if (!empty)
            rc = ls_fail_usage(err, "%s %s: not empty; its files go to a new or empty directory, so that a set is "
                                    "never mixed with an older one",
                               what, dir);
    } else if (errno != ENOENT) {
        rc = ls_fail_usage(err, "%s %s: %s", what, dir, strerror(errno));
    }
    if (rc == 0) {
        /* The temporary directory must be possible beside it; no stop
         * signal between making and removing it (output.h). */
        sigset_t old;
        hold_stop_signals(&old);
        if (dir_tmp_make(&d) != 0)
            rc = errno == ENOMEM ? ls_fail(err, "out of memory")
                                 : ls_fail_usage(err, "%s %s: cannot make a directory in %s: %s", what, dir, d.parent,
                                                 strerror(errno));
        else
            dir_tmp_remove(&d);
        release_stop_signals(&old);
    }
    ls_atomic_dir_abort(&d);
    return rc;
}

/* The mode DIR will have: an existing empty one's, else a new directory's
 * (0777 less the umask), not mkdtemp's 0700. */
static mode_t dir_mode(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return st.st_mode & 07777;
    mode_t mask = umask(0);
    umask(mask);
    return 0777 & ~mask;
}

int ls_atomic_dir_open(ls_atomic_dir *d, const char *dir, const char *what, ls_error *err)
{
    if (dir_names(d, dir, what, err) != 0)
        return -1;
    if (dir_tmp_make(d) != 0 || chmod(d->tmp, dir_mode(d->path)) != 0) {
        ls_fail(err, "%s %s: cannot make a directory in %s: %s", what, dir, d->parent, strerror(errno));
        ls_atomic_dir_abort(d);
        return -1;
    }
    /* Ours is locked: now the leftovers of killed writes into DIR, and
     * the temporary files of killed writes beside it. */
    char *prefix = dir_prefix(d->path);
    if (prefix)
        remove_abandoned_dirs(d->parent, prefix, base_of(d->tmp));
    free(prefix);
    ls_output_remove_leftovers(d->parent);
    return 0;
}

FILE *ls_atomic_dir_create(ls_atomic_dir *d, const char *name)
{
    size_t len = strlen(d->tmp) + strlen(name) + 2;
    char *path = malloc(len);
    if (!path)
        return errno = ENOMEM, NULL;
    snprintf(path, len, "%s/%s", d->tmp, name);
    FILE *f = fopen(path, "wbe");
    int e = errno;
    free(path);
    errno = e;
    return f;
}

int ls_atomic_dir_close(FILE *f)
{
    int bad = fflush(f) != 0 || ferror(f) || (sync_outputs && fsync(fileno(f)) != 0);
    int e = bad ? (errno ? errno : EIO) : 0;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    errno = e;
    return bad ? -1 : 0;
}

int ls_atomic_dir_commit(ls_atomic_dir *d, ls_error *err)
{
    int rc = 0;
    if (sync_outputs && sync_directory(d->tmp) != 0)
        rc = ls_fail(err, "%s %s: cannot sync the files written: %s", d->what, d->name, strerror(errno));
    else if (rename(d->tmp, d->path) != 0) /* while the lock is held: see above */
        rc = errno == ENOTEMPTY || errno == EEXIST
                 ? ls_fail(err, "%s %s: something was put in it during the run; nothing was written", d->what,
                           d->name)
                 : ls_fail(err, "%s %s: cannot put the directory in place: %s", d->what, d->name, strerror(errno));
    if (rc == 0) {
        free(d->tmp);
        d->tmp = NULL; /* in place: only the lock file is left to remove */
        if (sync_outputs && sync_directory(d->parent) != 0)
            rc = ls_fail(err, "%s %s: written, but %s cannot be synced: %s", d->what, d->name, d->parent,
                         strerror(errno));
    }
    ls_atomic_dir_abort(d);
    return rc;
}
