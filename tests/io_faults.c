/* io_faults.c - an LD_PRELOAD shim for tests/life_pku_io.py and
 * tests/life_frames_leftovers.py: makes the calls that write a large
 * output fail as file systems and full disks make them fail, or a signal
 * come at the worst moment, as $IO_FAULTS lists (comma-separated):
 *   fallocate-unsupported  fallocate fails with EOPNOTSUPP (NFSv3, FUSE)
 *   fallocate-full         fallocate fails with ENOSPC (the disk is full)
 *   mmap-refused           a shared writable mapping of a file fails
 *                          with ENODEV (a file system that maps no files)
 *   pwrite-full            pwrite fails with ENOSPC from 1 MiB into the
 *                          file on (the disk fills midway)
 *   truncate-mapped        a shared writable mapping of a file succeeds,
 *                          then the file is cut to nothing, so that the
 *                          first store into it raises SIGBUS (what a
 *                          page fault that finds no block does)
 *   mkdtemp-sigterm        SIGTERM is raised once, as soon as mkdtemp has
 *                          made the process's first directory (a kill in
 *                          the first milliseconds of a --frames run; one:
 *                          a second SIGTERM ends lockstep at once)
 * Every other call goes through unchanged. Both names of each call are
 * replaced (lockstep is built with 64-bit file offsets: it calls
 * fallocate64, mmap64, pwrite64), so the shim itself is built without the
 * renaming. */
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int fault(const char *name)
{
    const char *list = getenv("IO_FAULTS");
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p = end ? end + 1 : p + len;
    }
    return 0;
}

static int is_regular(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

static int fail_fallocate(void)
{
    if (fault("fallocate-unsupported")) {
        errno = EOPNOTSUPP;
        return -1;
    }
    if (fault("fallocate-full")) {
        errno = ENOSPC;
        return -1;
    }
    return 0;
}

typedef int fallocate_fn(int, int, off_t, off_t);

int fallocate(int fd, int mode, off_t offset, off_t len)
{
    return fail_fallocate() ? -1 : ((fallocate_fn *)dlsym(RTLD_NEXT, "fallocate"))(fd, mode, offset, len);
}

int fallocate64(int fd, int mode, off_t offset, off_t len)
{
    return fail_fallocate() ? -1 : ((fallocate_fn *)dlsym(RTLD_NEXT, "fallocate64"))(fd, mode, offset, len);
}

typedef void *mmap_fn(void *, size_t, int, int, int, off_t);

static void *shared_mapping(const char *name, void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
    int watched = fd >= 0 && (flags & MAP_SHARED) && (prot & PROT_WRITE) && is_regular(fd);
    if (watched && fault("mmap-refused")) {
        errno = ENODEV;
        return MAP_FAILED;
    }
    void *map = ((mmap_fn *)dlsym(RTLD_NEXT, name))(addr, len, prot, flags, fd, offset);
    if (watched && map != MAP_FAILED && fault("truncate-mapped") && ftruncate(fd, 0) != 0)
        abort(); /* the fault asked for could not be made: fail loudly */
    return map;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
    return shared_mapping("mmap", addr, len, prot, flags, fd, offset);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
    return shared_mapping("mmap64", addr, len, prot, flags, fd, offset);
}

typedef ssize_t pwrite_fn(int, const void *, size_t, off_t);

static ssize_t positioned_write(const char *name, int fd, const void *buf, size_t n, off_t offset)
{
    if (offset >= (1 << 20) && fault("pwrite-full") && is_regular(fd)) {
        errno = ENOSPC;
        return -1;
    }
    return ((pwrite_fn *)dlsym(RTLD_NEXT, name))(fd, buf, n, offset);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t offset)
{
    return positioned_write("pwrite", fd, buf, n, offset);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t offset)
{
    return positioned_write("pwrite64", fd, buf, n, offset);
}

typedef char *mkdtemp_fn(char *);

char *mkdtemp(char *template)
{
    static int raised;
    char *made = ((mkdtemp_fn *)dlsym(RTLD_NEXT, "mkdtemp"))(template);
    if (made && !raised && fault("mkdtemp-sigterm")) {
        raised = 1;
        raise(SIGTERM);
    }
    return made;
}
