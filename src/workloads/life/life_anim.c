/* life_anim.c - the frames of a Life run: an animated GIF (giflib, when
 * built with it: LS_HAVE_GIF) and a directory of numbered PNGs. See
 * life_anim.h for what appears when. */
#include "life_anim.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "life_png.h"
#include "output.h"

#ifdef LS_HAVE_GIF
#include <gif_lib.h>
#endif

/* ---- the GIF -------------------------------------------------------------- */

#ifdef LS_HAVE_GIF
/* An animated GIF being written: two colours (0 white, dead; 1 black,
 * alive), each frame a whole picture shown LIFE_GIF_DELAY_CS, looping. */
typedef struct gif_out {
    ls_atomic_file file;
    GifFileType *gif;
    GifPixelType *row; /* one row of pixels */
    uint32_t width, height, scale;
    int write_errno;   /* of the write that failed, or 0 */
} gif_out;

/* giflib's output: the atomic file's stream. A write that fails keeps its
 * errno, the reason ("No space left on device"), which giflib's own code
 * for it does not give. */
static int gif_write(GifFileType *gif, const GifByteType *bytes, int len)
{
    gif_out *g = gif->UserData;
    errno = 0;
    size_t written = fwrite(bytes, 1, (size_t)len, g->file.f);
    if (written != (size_t)len && !g->write_errno)
        g->write_errno = errno ? errno : EIO;
    return (int)written;
}

/* The write error that made giflib fail, or what giflib said. */
static int gif_fail(const gif_out *g, int code, ls_error *err)
{
    if (g->write_errno)
        return ls_fail(err, "cannot write %s: %s", g->file.name, strerror(g->write_errno));
    return ls_fail(err, "cannot write %s: %s", g->file.name, GifErrorString(code));
}

/* Netscape's application extension: loop forever. */
static int gif_loop_forever(GifFileType *gif)
{
    static const GifByteType app[11] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    static const GifByteType loop[3] = {1, 0, 0}; /* sub-block 1: the loop count, 0 = forever */
    if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, sizeof app, app) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, sizeof loop, loop) == GIF_ERROR || EGifPutExtensionTrailer(gif) == GIF_ERROR)
        return GIF_ERROR;
    return GIF_OK;
}

/* The header: screen, colours, looping, and a comment saying what runs. */
static int gif_start(gif_out *g, const char *comment, ls_error *err)
{
    static const GifColorType colours[2] = {{255, 255, 255}, {0, 0, 0}};
    int code = 0;
    g->gif = EGifOpen(g, gif_write, &code);
    if (!g->gif)
        return ls_fail(err, "cannot write %s: %s", g->file.name, GifErrorString(code));
    ColorMapObject *map = GifMakeMapObject(2, colours);
    if (!map)
        return ls_fail(err, "out of memory for a GIF colour map");
    EGifSetGifVersion(g->gif, true);
    int rc = EGifPutScreenDesc(g->gif, (int)g->width, (int)g->height, 1, 0, map);
    GifFreeMapObject(map); /* the screen keeps its own copy */
    if (rc == GIF_ERROR || gif_loop_forever(g->gif) == GIF_ERROR || EGifPutComment(g->gif, comment) == GIF_ERROR)
        return gif_fail(g, g->gif->Error, err);
    return 0;
}

static int gif_frame(gif_out *g, const life_grid *grid, ls_error *err)
{
    GraphicsControlBlock gcb = {.DisposalMode = DISPOSE_DO_NOT, .UserInputFlag = false,
                                .DelayTime = LIFE_GIF_DELAY_CS, .TransparentColor = NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    size_t n = EGifGCBToExtension(&gcb, ext);
    if (EGifPutExtension(g->gif, GRAPHICS_EXT_FUNC_CODE, (int)n, ext) == GIF_ERROR ||
        EGifPutImageDesc(g->gif, 0, 0, (int)g->width, (int)g->height, false, NULL) == GIF_ERROR)
        return gif_fail(g, g->gif->Error, err);
    for (uint32_t y = 0; y < grid->ny; y++) {
        for (uint32_t px = 0; px < g->width; px++)
            g->row[px] = (GifPixelType)life_get(grid, px / g->scale, y, 0);
        for (uint32_t k = 0; k < g->scale; k++)
            if (EGifPutLine(g->gif, g->row, (int)g->width) == GIF_ERROR)
                return gif_fail(g, g->gif->Error, err);
    }
    return 0;
}

/* Closes giflib's side (the trailer); 0, or -1 with err set. */
static int gif_close(gif_out *g, ls_error *err)
{
    int code = 0;
    GifFileType *gif = g->gif;
    g->gif = NULL;
    if (gif && EGifCloseFile(gif, &code) == GIF_ERROR)
        return err ? gif_fail(g, code, err) : -1;
    return 0;
}

static void gif_free(gif_out *g)
{
    if (!g)
        return;
    gif_close(g, NULL);
    ls_atomic_abort(&g->file); /* nothing left to remove after a commit */
    free(g->row);
    free(g);
}

static int gif_open(const char *path, const life_grid *grid, uint32_t scale, const char *comment, gif_out **out,
                    ls_error *err)
{
    gif_out *g = calloc(1, sizeof *g);
    if (!g)
        return ls_fail(err, "out of memory");
    g->scale = scale;
    g->width = grid->nx * scale; /* at most 65535: checked before the run */
    g->height = grid->ny * scale;
    g->row = malloc(g->width);
    if (!g->row) {
        free(g);
        return ls_fail(err, "out of memory for a GIF row of %u pixels", grid->nx * scale);
    }
    if (ls_atomic_open(&g->file, path, err) != 0) {
        free(g->row);
        free(g);
        return -1;
    }
    if (gif_start(g, comment, err) != 0) {
        gif_free(g);
        return -1;
    }
    *out = g;
    return 0;
}

static int gif_commit(gif_out *g, ls_error *err)
{
    int rc = gif_close(g, err);
    if (rc == 0)
        rc = ls_atomic_commit(&g->file, err); /* in place, or removed when it fails */
    gif_free(g);
    return rc;
}
#else
typedef struct gif_out gif_out;
#endif

int life_gif_available(ls_error *err)
{
#ifdef LS_HAVE_GIF
    (void)err;
    return 0;
#else
    return ls_fail_usage(err, "this lockstep was built without giflib, so it writes no GIF (Debian: apt-get install "
                              "libgif-dev, then build again); --frames DIR writes the frames as PNGs");
#endif
}

/* ---- the directory of frames ------------------------------------------ */

/* DIR without trailing slashes, and the directory it is in ("." when it
 * names none). Both allocated; -1 with err set for a DIR that cannot be
 * renamed into place: "", "/", ".", "..". */
static int split_dir(const char *dir, char **path, char **parent, ls_error *err)
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
        return ls_fail_usage(err, "--frames '%s': name the directory by its own name (not /, . or ..)", dir);
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

/* ---- the frames' temporary directory ---------------------------------- */

/* The frames are written in a temporary directory beside DIR,
 * ".BASE.frames-XXXXXX", renamed to DIR once the run has finished. A run
 * killed outright (SIGKILL, a power cut) leaves it behind, so every run
 * into DIR removes what earlier runs into DIR left, but never a directory
 * that a live run is writing in. A live run says so with an flock, held
 * from before its first frame until its directory is DIR or removed; not
 * on the directory itself (not every file system locks a directory: NFS
 * locks files open for writing), but on a lock file beside it,
 * ".BASE.frames-XXXXXX.lock":
 *   - a run makes its directory, then the lock file (O_EXCL), then locks
 *     it; once locked, a lock file that has no name any more (a cleaner
 *     took the directory in between) sends it to draw another name;
 *   - a cleaner takes a directory by locking its lock file (LOCK_NB: a
 *     live run's is held), or, when it has none (a run killed before it
 *     made one, a run of an older lockstep, or a run between its two
 *     steps, whose O_EXCL then fails and draws another name), by making
 *     it; holding the lock it removes the directory's files, the
 *     directory, and last the lock file;
 *   - a run puts its frames in place by renaming its directory to DIR
 *     while it holds the lock, then removes the lock file: a lock file
 *     whose directory is gone is a leftover too.
 * A stop signal (SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2) is held back while a directory
 * is made and locked, and while the check's directory is made and
 * removed: one that came in between used to kill a run (before its
 * handlers are in place) with an empty directory left. */

#define FRAMES_TAIL ".frames-"
#define FRAMES_RANDOM 6 /* mkdtemp's XXXXXX */
#define LOCK_TAIL ".lock"

typedef struct frames_tmp {
    char *dir;   /* the temporary directory, or NULL */
    char *lock;  /* its lock file */
    int lock_fd; /* holding the flock; -1 when none */
} frames_tmp;

/* ".BASE.frames-", the start of the temporary names of DIR = path. */
static char *frames_prefix(const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t len = strlen(base) + sizeof FRAMES_TAIL + 1;
    char *prefix = malloc(len);
    if (prefix)
        snprintf(prefix, len, ".%s%s", base, FRAMES_TAIL);
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

/* Removes the directory `name` in dfd and the files in it (frames; a
 * temporary directory holds no directories), without following a link. */
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
 * when no live run holds that lock (see above). */
static void remove_if_abandoned(int dfd, const char *dir_name)
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
        /* No flock on this file system: a live run cannot be told from
         * a leftover, and nothing is removed but what we made. */
        unlinkat(dfd, lock, 0);
    }
    close(fd);
}

/* Removes what killed runs into the same DIR left in parent: the
 * directories named prefix and 6 characters, other than ours, and the
 * lock files whose directory is gone. */
static void remove_abandoned(const char *parent, const char *prefix, const char *own)
{
    DIR *d = opendir(parent);
    if (!d)
        return;
    size_t plen = strlen(prefix), tail = strlen(LOCK_TAIL);
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, prefix, plen) != 0 || strncmp(e->d_name, own, plen + FRAMES_RANDOM) == 0)
            continue;
        char dir_name[NAME_MAX + 1];
        struct stat st;
        if (len == plen + FRAMES_RANDOM) {
            remove_if_abandoned(dirfd(d), e->d_name);
        } else if (len == plen + FRAMES_RANDOM + tail && strcmp(e->d_name + len - tail, LOCK_TAIL) == 0) {
            snprintf(dir_name, sizeof dir_name, "%.*s", (int)(len - tail), e->d_name);
            if (fstatat(dirfd(d), dir_name, &st, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT)
                remove_if_abandoned(dirfd(d), dir_name);
        }
    }
    closedir(d);
}

/* Removes t's directory (with the frames in it), then its lock file. */
static void frames_tmp_remove(frames_tmp *t)
{
    if (t->dir)
        remove_dir_and_files(AT_FDCWD, t->dir);
    if (t->lock && t->lock_fd >= 0)
        unlink(t->lock); /* ours while we hold it */
    if (t->lock_fd >= 0)
        close(t->lock_fd);
    free(t->dir);
    free(t->lock);
    *t = (frames_tmp){NULL, NULL, -1};
}

/* Makes the directory and its lock file, and locks it. 0: t holds them;
 * 1: a cleaner took them first (try another name); -1 with errno set. */
static int frames_tmp_try(const char *parent, const char *prefix, frames_tmp *t)
{
    size_t len = strlen(parent) + strlen(prefix) + FRAMES_RANDOM + sizeof LOCK_TAIL + 2;
    t->dir = malloc(len);
    t->lock = malloc(len);
    if (!t->dir || !t->lock)
        return errno = ENOMEM, -1;
    snprintf(t->dir, len, "%s/%sXXXXXX", parent, prefix);
    if (!mkdtemp(t->dir)) {
        int e = errno;
        free(t->dir);
        t->dir = NULL;
        return errno = e, -1;
    }
    snprintf(t->lock, len, "%s%s", t->dir, LOCK_TAIL);
    int fd = open(t->lock, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        int e = errno;
        if (e != EEXIST)
            rmdir(t->dir); /* EEXIST: a cleaner has taken it, and removes it */
        free(t->dir);
        t->dir = NULL;
        return e == EEXIST ? 1 : (errno = e, -1);
    }
    int locked;
    while ((locked = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
        ;
    struct stat st;
    t->lock_fd = fd;
    if (locked == 0 && fstat(fd, &st) == 0 && st.st_nlink == 0) {
        close(fd); /* a cleaner removed both */
        t->lock_fd = -1;
        free(t->dir);
        t->dir = NULL;
        return 1;
    }
    return 0; /* locked; or no flock on this file system, where no cleaner removes anything */
}

/* A temporary directory for the frames of path in parent, locked as a
 * live run's, with the stop signals held back meanwhile. 0, or -1 with
 * errno set. */
static int frames_tmp_make(const char *parent, const char *path, frames_tmp *t)
{
    *t = (frames_tmp){NULL, NULL, -1};
    char *prefix = frames_prefix(path);
    if (!prefix)
        return errno = ENOMEM, -1;
    sigset_t old;
    hold_stop_signals(&old);
    int rc = 1;
    for (int attempt = 0; attempt < 100 && rc == 1; attempt++) {
        free(t->lock);
        t->lock = NULL;
        rc = frames_tmp_try(parent, prefix, t);
    }
    int e = rc == 1 ? EEXIST : errno;
    if (rc != 0)
        frames_tmp_remove(t);
    release_stop_signals(&old);
    free(prefix);
    return rc == 0 ? 0 : (errno = e, -1);
}

int life_frames_check(const char *dir, ls_error *err)
{
    char *path, *parent;
    if (split_dir(dir, &path, &parent, err))
        return -1;
    struct stat st;
    int rc = 0;
    if (lstat(path, &st) == 0) {
        int empty = S_ISDIR(st.st_mode) ? dir_is_empty(path) : -1;
        if (S_ISLNK(st.st_mode)) /* the frames' directory would replace the link, not fill what it names */
            rc = ls_fail_usage(err, "--frames %s: a symbolic link; name the directory itself", dir);
        else if (!S_ISDIR(st.st_mode))
            rc = ls_fail_usage(err, "--frames %s: not a directory", dir);
        else if (empty < 0)
            rc = ls_fail_usage(err, "--frames %s: cannot read it: %s", dir, strerror(errno));
        else if (!empty)
            rc = ls_fail_usage(err, "--frames %s: not empty; frames go to a new or empty directory, so that a set is "
                                    "never mixed with an older one",
                               dir);
    } else if (errno != ENOENT) {
        rc = ls_fail_usage(err, "--frames %s: %s", dir, strerror(errno));
    }
    if (rc == 0) {
        /* The frames' temporary directory must be possible beside it;
         * no stop signal between making and removing it (see above). */
        frames_tmp probe;
        sigset_t old;
        hold_stop_signals(&old);
        if (frames_tmp_make(parent, path, &probe) != 0)
            rc = errno == ENOMEM ? ls_fail(err, "out of memory")
                                 : ls_fail_usage(err, "--frames %s: cannot make a directory in %s: %s", dir, parent,
                                                 strerror(errno));
        else
            frames_tmp_remove(&probe);
        release_stop_signals(&old);
    }
    free(path);
    free(parent);
    return rc;
}

typedef struct frames_out {
    char *path, *parent;       /* DIR, its directory */
    frames_tmp tmp;            /* the temporary directory, locked */
    int digits;                /* of the frame numbers */
    uint64_t written;          /* frames in tmp */
    life_meta meta;
} frames_out;

/* The name of frame i: DIR/frame-000012.png (at least six digits, as
 * many as the last frame's number needs, so that names sort in order). */
static void frame_name(const frames_out *f, const char *dir, uint64_t i, char *out, size_t len)
{
    snprintf(out, len, "%s/frame-%0*llu.png", dir, f->digits, (unsigned long long)i);
}

static void frames_free(frames_out *f)
{
    if (!f)
        return;
    frames_tmp_remove(&f->tmp); /* the frames and the directory, unless renamed to DIR; the lock file */
    free(f->path);
    free(f->parent);
    free(f);
}

/* The mode DIR will have: an existing empty one's, else a new directory's
 * (0777 less the umask), not mkdtemp's 0700. */
static mode_t frames_mode(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return st.st_mode & 07777;
    mode_t mask = umask(0);
    umask(mask);
    return 0777 & ~mask;
}

static int frames_open(const char *dir, uint64_t count, const life_meta *meta, frames_out **out, ls_error *err)
{
    frames_out *f = calloc(1, sizeof *f);
    if (!f)
        return ls_fail(err, "out of memory");
    f->tmp.lock_fd = -1;
    if (split_dir(dir, &f->path, &f->parent, err)) {
        free(f);
        return -1;
    }
    f->meta = *meta;
    f->digits = 6;
    for (uint64_t last = count ? count - 1 : 0; last >= 1000000; last /= 10)
        f->digits++;
    if (frames_tmp_make(f->parent, f->path, &f->tmp) != 0 || chmod(f->tmp.dir, frames_mode(f->path)) != 0) {
        ls_fail(err, "--frames %s: cannot make a directory in %s: %s", dir, f->parent, strerror(errno));
        frames_free(f);
        return -1;
    }
    /* Ours is locked: now the leftovers of killed runs into DIR, and the
     * temporary files of killed writes beside it (output.h). */
    char *prefix = frames_prefix(f->path);
    if (prefix)
        remove_abandoned(f->parent, prefix, strrchr(f->tmp.dir, '/') + 1);
    free(prefix);
    ls_output_remove_leftovers(f->parent);
    *out = f;
    return 0;
}

/* A frame that could not be written, named as the user knows it: the
 * frame's name in DIR (it was being written in the temporary directory,
 * which goes with the failure), and why. */
static int frame_failed(const frames_out *f, const char *why, ls_error *err)
{
    char name[64];
    frame_name(f, "", f->written, name, sizeof name);
    return ls_fail(err, "--frames %s: cannot write %s: %s", f->path, name + 1, why); /* without the '/' */
}

/* Writes, flushes and syncs one PNG frame in the temporary directory. */
static int frames_add(frames_out *f, const life_grid *g, uint64_t generation, ls_error *err)
{
    char name[4096];
    frame_name(f, f->tmp.dir, f->written, name, sizeof name);
    life_meta meta = f->meta;
    meta.generation = generation;
    FILE *file = fopen(name, "wb");
    if (!file)
        return frame_failed(f, strerror(errno), err);
    int rc = life_write_png(file, g, &meta, err);
    if (rc != 0 && !err->usage) {
        /* life_write_png says why, not which file. */
        char why[sizeof err->msg];
        memcpy(why, err->msg, sizeof why);
        frame_failed(f, why, err);
    }
    if (rc == 0 && (fflush(file) != 0 || fsync(fileno(file)) != 0))
        rc = frame_failed(f, strerror(errno), err);
    if (fclose(file) != 0 && rc == 0)
        rc = frame_failed(f, strerror(errno), err);
    if (rc == 0)
        f->written++;
    return rc;
}

/* fsync of a directory, for the names in it. */
static int sync_dir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

/* The temporary directory becomes DIR (replacing it when it is empty). */
static int frames_commit(frames_out *f, ls_error *err)
{
    int rc = 0;
    if (sync_dir(f->tmp.dir) != 0)
        rc = ls_fail(err, "cannot write the frames in %s: %s", f->tmp.dir, strerror(errno));
    else if (rename(f->tmp.dir, f->path) != 0) /* while the lock is held: see above */
        rc = errno == ENOTEMPTY || errno == EEXIST
                 ? ls_fail(err, "--frames %s: something was put in it during the run; the frames were not written",
                           f->path)
                 : ls_fail(err, "cannot put the frames in %s: %s", f->path, strerror(errno));
    if (rc == 0) {
        free(f->tmp.dir);
        f->tmp.dir = NULL; /* in place: only the lock file for frames_free to remove */
        if (sync_dir(f->parent) != 0)
            rc = ls_fail(err, "cannot sync %s: %s", f->parent, strerror(errno));
    }
    frames_free(f);
    return rc;
}

/* ---- both ----------------------------------------------------------------- */

struct life_anim {
    gif_out *gif;
    frames_out *frames;
};

void life_anim_abort(life_anim *a)
{
    if (!a)
        return;
#ifdef LS_HAVE_GIF
    gif_free(a->gif);
#endif
    frames_free(a->frames);
    free(a);
}

#ifdef LS_HAVE_GIF
/* What a frame shows, for the GIF's comment. */
static void describe(const life_anim_opts *o, const life_grid *g, char *out, size_t len)
{
    char rule[LIFE_RULE_TEXT], grid[LIFE_TOPOLOGY_TEXT];
    life_rule_format(o->meta.rule, rule, sizeof rule);
    life_topology_format(g->bounded, g->dims, g->nx, g->ny, g->nz, grid, sizeof grid);
    if (o->meta.has_seed)
        snprintf(out, len, "lockstep life, rule %s%s, seed %llu", rule, grid, (unsigned long long)o->meta.seed);
    else
        snprintf(out, len, "lockstep life, rule %s%s, from %.100s", rule, grid, o->meta.source ? o->meta.source : "?");
}
#endif

int life_anim_open(const life_anim_opts *o, const life_grid *g, life_anim **out, ls_error *err)
{
    life_anim *a = calloc(1, sizeof *a);
    if (!a)
        return ls_fail(err, "out of memory");
    int rc = 0;
    if (o->gif) {
#ifdef LS_HAVE_GIF
        char comment[LIFE_RULE_TEXT + LIFE_TOPOLOGY_TEXT + 160];
        describe(o, g, comment, sizeof comment);
        rc = gif_open(o->gif, g, o->meta.scale ? o->meta.scale : 1, comment, &a->gif, err);
#else
        (void)g;
        rc = life_gif_available(err);
#endif
    }
    if (rc == 0 && o->frames)
        rc = frames_open(o->frames, o->count, &o->meta, &a->frames, err);
    if (rc) {
        life_anim_abort(a);
        return -1;
    }
    *out = a;
    return 0;
}

int life_anim_add(life_anim *a, const life_grid *g, uint64_t generation, ls_error *err)
{
#ifdef LS_HAVE_GIF
    if (a->gif && gif_frame(a->gif, g, err) != 0)
        return -1;
#endif
    return a->frames ? frames_add(a->frames, g, generation, err) : 0;
}

int life_anim_commit(life_anim *a, ls_error *err)
{
    int rc = 0;
#ifdef LS_HAVE_GIF
    if (a->gif)
        rc = gif_commit(a->gif, err);
    a->gif = NULL;
#endif
    if (rc == 0 && a->frames) {
        rc = frames_commit(a->frames, err); /* in place, or removed */
        a->frames = NULL;
    }
    life_anim_abort(a); /* what is left after an error */
    return rc;
}
