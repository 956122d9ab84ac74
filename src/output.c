/* output.c - see output.h. */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int ls_write_all(int fd, const void *data, size_t n, const char *dest_name, ls_error *err)
{
    struct stat sb;
    off_t start = -1;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode))
        start = lseek(fd, 0, SEEK_CUR);
    const char *p = data;
    size_t left = n;
    while (left > 0) {
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

int ls_atomic_open(ls_atomic_file *a, const char *path, ls_error *err)
{
    memset(a, 0, sizeof *a);
    char *dir = dir_of(path);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    a->path = strdup(path);
    size_t len = (dir ? strlen(dir) : 0) + strlen(base) + 32;
    a->tmp = malloc(len);
    if (!dir || !a->path || !a->tmp || !*base) {
        free(dir);
        ls_atomic_abort(a);
        return *base ? ls_fail(err, "out of memory") : ls_fail_usage(err, "%s: not a file name", path);
    }
    snprintf(a->tmp, len, "%s/.%s.tmp-XXXXXX", dir, base);
    free(dir);
    int fd = mkstemp(a->tmp);
    if (fd < 0) {
        int e = errno;
        free(a->tmp);
        a->tmp = NULL;
        ls_atomic_abort(a);
        return ls_fail(err, "%s: cannot create a file next to it: %s", path, strerror(e));
    }
    /* mkstemp makes 0600; give the file the mode a plain fopen would. */
    mode_t um = umask(0);
    umask(um);
    if (fchmod(fd, 0666 & ~um) != 0 || !(a->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        ls_atomic_abort(a);
        return ls_fail(err, "%s: cannot prepare it: %s", path, strerror(e));
    }
    return 0;
}

void ls_atomic_abort(ls_atomic_file *a)
{
    if (a->f)
        fclose(a->f);
    if (a->tmp)
        unlink(a->tmp);
    free(a->tmp);
    free(a->path);
    memset(a, 0, sizeof *a);
}

/* Makes the rename itself durable. */
static int sync_dir(const char *path)
{
    char *dir = dir_of(path);
    if (!dir)
        return -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

int ls_atomic_commit(ls_atomic_file *a, ls_error *err)
{
    int e = 0;
    if (fflush(a->f) != 0 || ferror(a->f))
        e = errno ? errno : EIO;
    else if (fsync(fileno(a->f)) != 0)
        e = errno;
    int c = fclose(a->f);
    a->f = NULL;
    if (!e && c != 0)
        e = errno;
    if (!e && rename(a->tmp, a->path) != 0)
        e = errno;
    if (e) {
        int rc = ls_fail(err, "cannot write %s: %s", a->path, strerror(e));
        ls_atomic_abort(a);
        return rc;
    }
    int rc = sync_dir(a->path) == 0 ? 0 : ls_fail(err, "%s: written, but its directory cannot be synced: %s",
                                                  a->path, strerror(errno));
    free(a->tmp);
    a->tmp = NULL;
    ls_atomic_abort(a);
    return rc;
}

int ls_output_check(const char *path, ls_error *err)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return ls_fail_usage(err, "cannot write %s: it is a directory", path);
    ls_atomic_file probe;
    if (ls_atomic_open(&probe, path, err) != 0) {
        err->usage = 1;
        return -1;
    }
    ls_atomic_abort(&probe);
    return 0;
}
