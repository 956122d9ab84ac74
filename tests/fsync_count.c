/* fsync_count.c - an LD_PRELOAD shim for tests/output_sync.py: counts the
 * calls of fsync and fdatasync of a process by appending one byte per call
 * to the file $FSYNC_COUNT_FILE, then makes the real call. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static void count_call(void)
{
    const char *path = getenv("FSYNC_COUNT_FILE");
    if (!path)
        return;
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
        if (write(fd, "s", 1) != 1)
            abort(); /* the count would be wrong: fail loudly */
        close(fd);
    }
}

int fsync(int fd)
{
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    count_call();
    return real(fd);
}

int fdatasync(int fd)
{
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    count_call();
    return real(fd);
}
