/* page_cache_probe.c - what filling a 1 GiB output file in the page cache
 * costs on this host, outside lockstep (issue 36: the PKU form's output):
 *
 *   page_cache_probe DIR [MIB]
 *
 * For 1, 2, 4, ... threads up to the cores this process may use, a file
 * of MIB MiB (default 1024) in DIR, removed before and after each case:
 *   - map: fallocate, a shared mapping, MADV_POPULATE_WRITE (each thread
 *     its share, in 4 MiB calls, as file_pass.c's ls_map_fault_in), then a memset
 *     of each share (what the write after the run does into pages that
 *     are in already): "reserve", "fault in", "fill";
 *   - pwrite: fallocate, then each thread pwrite()s 4 MiB chunks of one
 *     buffer: "write";
 * and the mmap() of 1 MiB that another thread makes, over and over, while
 * one thread faults the whole file in: the worst wait and how many it
 * made, with one MADV_POPULATE_WRITE call over the whole file and with
 * calls of 4 MiB (a driver's open maps memory while Life's --out is
 * faulted in beside it).
 *
 * Build: cc -O2 -fopenmp -pthread -o page_cache_probe bench/page_cache_probe.c */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PIECE ((size_t)4 << 20)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void die(const char *what)
{
    fprintf(stderr, "page_cache_probe: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* A new file of `size` bytes at path, its blocks reserved. */
static int reserved_file(const char *path, size_t size, double *seconds)
{
    unlink(path);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        die(path);
    double t = now();
    if (fallocate(fd, 0, 0, (off_t)size) != 0)
        die("fallocate");
    *seconds = now() - t;
    return fd;
}

static void populate(char *at, size_t n, size_t piece)
{
    for (size_t off = 0; off < n; off += piece)
        if (madvise(at + off, n - off < piece ? n - off : piece, MADV_POPULATE_WRITE) != 0)
            die("madvise(MADV_POPULATE_WRITE)");
}

static void map_case(const char *path, size_t size, int threads)
{
    double reserve, t0, t1, t2;
    int fd = reserved_file(path, size, &reserve);
    char *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
        die("mmap");
    size_t share = (size / (size_t)threads + 4095) / 4096 * 4096;
    t0 = now();
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int t = 0; t < threads; t++) {
        size_t from = (size_t)t * share, to = from + share < size ? from + share : size;
        if (from < to)
            populate(map + from, to - from, PIECE);
    }
    t1 = now();
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int t = 0; t < threads; t++) {
        size_t from = (size_t)t * share, to = from + share < size ? from + share : size;
        if (from < to)
            memset(map + from, 1, to - from);
    }
    t2 = now();
    munmap(map, size);
    close(fd);
    double t3 = now();
    unlink(path);
    printf("map    %3d threads: reserve %.3f s, fault in %.3f s, fill %.3f s; the file removed %.3f s\n", threads,
           reserve, t1 - t0, t2 - t1, now() - t3);
}

static void pwrite_case(const char *path, size_t size, int threads)
{
    double reserve;
    int fd = reserved_file(path, size, &reserve);
    long chunks = (long)(size / PIECE);
    double t0 = now();
#pragma omp parallel num_threads(threads)
    {
        char *buf = malloc(PIECE);
        if (!buf)
            die("malloc");
        memset(buf, 1, PIECE);
#pragma omp for schedule(dynamic, 1)
        for (long c = 0; c < chunks; c++)
            if (pwrite(fd, buf, PIECE, (off_t)c * (off_t)PIECE) != (ssize_t)PIECE)
                die("pwrite");
        free(buf);
    }
    double t1 = now();
    close(fd);
    unlink(path);
    printf("pwrite %3d threads: reserve %.3f s, write %.3f s\n", threads, reserve, t1 - t0);
}

/* ---- another thread's mmap() while the file is faulted in ---------------- */

typedef struct faulting {
    char *map;
    size_t size, piece;
    atomic_int done;
    double seconds;
} faulting;

static void *fault_all(void *arg)
{
    faulting *f = arg;
    double t = now();
    populate(f->map, f->size, f->piece);
    f->seconds = now() - t;
    atomic_store(&f->done, 1);
    return NULL;
}

static void lock_case(const char *path, size_t size, size_t piece)
{
    double reserve;
    int fd = reserved_file(path, size, &reserve);
    faulting f = {mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), size, piece, 0, 0};
    if (f.map == MAP_FAILED)
        die("mmap");
    pthread_t th;
    if (pthread_create(&th, NULL, fault_all, &f) != 0)
        die("pthread_create");
    long maps = 0;
    double worst = 0;
    while (!atomic_load(&f.done)) {
        double t = now();
        char *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            die("mmap");
        p[0] = 1;
        munmap(p, 1 << 20);
        t = now() - t;
        worst = t > worst ? t : worst;
        maps++;
    }
    pthread_join(th, NULL);
    munmap(f.map, size);
    close(fd);
    unlink(path);
    printf("mmap() beside one thread faulting it in, %s: %ld calls, the worst %.1f ms (faulting in %.3f s)\n",
           piece == size ? "one call over the file" : "calls of 4 MiB", maps, worst * 1e3, f.seconds);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: page_cache_probe DIR [MIB]\n");
        return 2;
    }
    size_t size = (argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 1024) << 20;
    char path[4096];
    snprintf(path, sizeof path, "%s/page_cache_probe.%d.tmp", argv[1], (int)getpid());
    int most = omp_get_max_threads();
    printf("== %s, %zu MiB, up to %d threads\n", argv[1], size >> 20, most);
    for (int t = 1;; t = t * 2 < most ? t * 2 : most) {
        map_case(path, size, t);
        pwrite_case(path, size, t);
        if (t == most)
            break;
    }
    lock_case(path, size, size);
    lock_case(path, size, PIECE);
    return 0;
}
