/* file_pass.c - large files moved by every thread at once; see
 * file_pass.h. */
#include "file_pass.h"
#include "hash.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Writing into a mapping, a thread takes larger pieces of the file: an
 * equal share of it, between LS_PASS_CHUNK_BYTES and this. Threads
 * filling pieces next to each other fault their pages in far more
 * slowly: pieces of 32 MiB and more took under half the time of 4 and 8
 * MiB on a lent H200 host (docs/perf/2026-11-24-h200-pku-chunks.log). */
#define MAP_CHUNK_MAX (32u << 20)

int ls_team_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

size_t ls_file_transfer(int fd, int writing, void *buf, size_t len, uint64_t at, int *error)
{
    uint8_t *b = buf;
    size_t done = 0;
    while (done < len) {
        ssize_t k = writing ? pwrite(fd, b + done, len - done, (off_t)(at + done))
                            : pread(fd, b + done, len - done, (off_t)(at + done));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            *error = k < 0 ? errno : 0;
            break;
        }
        done += (size_t)k;
    }
    return done;
}

void ls_beside_run(const ls_beside *b)
{
    if (b && b->fn)
        b->fn(b->arg);
}

uint64_t ls_pass_offset(const ls_file_pass *p, int64_t r)
{
    return p->head + (p->first + (uint64_t)r) * p->record_bytes;
}

/* Bytes a chunk holds: LS_PASS_CHUNK_BYTES through buffers; into a
 * mapping, the file shared among the threads, within
 * LS_PASS_CHUNK_BYTES .. MAP_CHUNK_MAX. */
static uint64_t chunk_bytes(const ls_file_pass *p)
{
    if (!p->map)
        return LS_PASS_CHUNK_BYTES;
    uint64_t share = (uint64_t)p->records * p->record_bytes / (uint64_t)ls_team_threads();
    return share < LS_PASS_CHUNK_BYTES ? LS_PASS_CHUNK_BYTES : share > MAP_CHUNK_MAX ? MAP_CHUNK_MAX : share;
}

int ls_pass_run(ls_file_pass *p, ls_pass_chunk chunk)
{
    uint64_t bytes = chunk_bytes(p);
    p->per = bytes / p->record_bytes ? (int64_t)(bytes / p->record_bytes) : 1;
    p->io_errno = 0;
    p->short_record = -1;
    p->first_bad = UINT64_MAX;
    int64_t chunks = (p->records + p->per - 1) / p->per;
    int nomem = 0;
#pragma omp parallel
    {
#pragma omp single nowait
        ls_beside_run(p->beside);
        uint8_t *buf = p->map ? NULL : malloc((size_t)p->per * p->record_bytes + LS_PASS_SLACK);
        if (!p->map && !buf) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp for schedule(dynamic, 1)
        for (int64_t c = 0; c < chunks; c++) {
            int64_t r0 = c * p->per, n = p->records - r0 < p->per ? p->records - r0 : p->per;
            if (p->map)
                chunk(p, p->map + ls_pass_offset(p, r0), r0, n);
            else if (buf)
                chunk(p, buf, r0, n);
        }
        free(buf);
    }
    return nomem ? -1 : 0;
}

int ls_pass_read(ls_file_pass *p, uint8_t *bytes, size_t len, uint64_t at, int64_t r0)
{
    int e = 0;
    size_t got = ls_file_transfer(p->fd, 0, bytes, len, at, &e);
    if (got == len)
        return 0;
    int64_t record = (int64_t)p->first + r0 + (int64_t)(got / p->record_bytes);
#pragma omp critical(ls_file_pass)
    {
        if (e)
            p->io_errno = e;
        if (p->short_record < 0 || record < p->short_record)
            p->short_record = record;
    }
    return -1;
}

void ls_pass_bad(ls_file_pass *p, uint64_t at, unsigned value)
{
#pragma omp critical(ls_file_pass)
    if (at < p->first_bad) {
        p->first_bad = at;
        p->bad_value = value;
    }
}

void ls_pass_write(ls_file_pass *p, uint8_t *bytes, size_t len, uint64_t at)
{
    int e = 0;
    if (p->map || ls_file_transfer(p->fd, 1, bytes, len, at, &e) == len)
        return;
#pragma omp critical(ls_file_pass)
    p->io_errno = e ? e : ENOSPC;
}

/* A thread faults its share of a mapping in a piece of this at a time:
 * MADV_POPULATE_WRITE holds the process's memory map lock while it runs,
 * and a driver that maps memory meanwhile (the devices' open) waits for
 * it; a call a piece lets it in between pieces (on a tmpfs a call over
 * the whole file kept another thread's mmap() waiting ten times longer:
 * docs/perf/2026-11-28-cpu-output-ahead.log). */
#define FAULT_PIECE_BYTES (4u << 20)

/* n bytes of a shared writable mapping (whole pages but the last) faulted
 * in for writing. */
static void fault_in_piece(uint8_t *at, uint64_t n, uint64_t page)
{
#ifdef MADV_POPULATE_WRITE
    /* Linux 5.14: the pages made writable without a fault each. */
    if (madvise(at, n, MADV_POPULATE_WRITE) == 0)
        return;
#endif
    volatile uint8_t *cell = at;
    for (uint64_t i = 0; i < n; i += page)
        cell[i] = cell[i]; /* a write fault, the byte kept (a header may be there) */
}

void ls_map_fault_in(uint8_t *map, uint64_t bytes, int threads)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t share = (bytes / (uint64_t)threads + page - 1) / page * page;
#pragma omp parallel for schedule(static, 1) num_threads(threads)
    for (int t = 0; t < threads; t++) {
        uint64_t from = (uint64_t)t * share, to = from + share < bytes ? from + share : bytes;
        for (uint64_t at = from; at < to; at += FAULT_PIECE_BYTES)
            fault_in_piece(map + at, to - at < FAULT_PIECE_BYTES ? to - at : FAULT_PIECE_BYTES, page);
    }
}

int ls_atomic_ready(ls_atomic_file *a, const char *path, uint64_t size, ls_error *err)
{
    const char *wanted = getenv("LOCKSTEP_DEBUG_OUT_AHEAD");
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if ((wanted && strcmp(wanted, "0") == 0) || pages <= 0 || page <= 0 ||
        size > (uint64_t)pages * (uint64_t)page / 8)
        return 1;
    if (ls_atomic_open(a, path, err) != 0)
        return -1;
    void *map = NULL;
    int rc = ls_atomic_map(a, size, &map, err);
    if (rc != 0) {
        ls_atomic_abort(a);
        return rc;
    }
    int threads = ls_team_threads();
    ls_map_fault_in(map, size, threads > 1 ? threads - 1 : 1);
    return 0;
}

int ls_file_hash(int fd, uint64_t bytes, const char *name, uint64_t *out, ls_error *err)
{
    uint64_t chunk = LS_PASS_CHUNK_BYTES, chunks = (bytes + chunk - 1) / chunk;
    uint64_t *hashes = calloc(chunks + 1, sizeof *hashes);
    int io_errno = 0, nomem = !hashes;
#pragma omp parallel if (hashes)
    {
        uint8_t *buf = hashes ? malloc(chunk) : NULL;
        if (!buf && hashes) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp for schedule(dynamic, 1)
        for (int64_t c = 0; c < (int64_t)chunks; c++) {
            uint64_t at = (uint64_t)c * chunk, n = bytes - at < chunk ? bytes - at : chunk;
            int e = 0;
            if (!buf)
                continue;
            if (ls_file_transfer(fd, 0, buf, n, at, &e) == n) {
                hashes[c] = ls_hash64(buf, n, (uint64_t)c);
            } else {
#pragma omp atomic write
                io_errno = e ? e : EIO;
            }
        }
        free(buf);
    }
    if (!nomem && !io_errno)
        *out = ls_hash64(hashes, chunks * sizeof *hashes, bytes);
    free(hashes);
    if (nomem)
        return ls_fail(err, "out of memory for %u MiB of read buffers", LS_PASS_CHUNK_BYTES >> 20);
    return io_errno ? ls_fail(err, "%s: %s", name, strerror(io_errno)) : 0;
}
