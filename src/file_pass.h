/* file_pass.h - large files moved by every thread at once, at their
 * offsets, for outputs and inputs of gigabytes that one thread's read()
 * or write() would hold up (Life's PKU and native grid files, a row a
 * record):
 *
 *   - a pass over a range of a file's fixed-size records: the calling
 *     thread's OpenMP team takes chunks of whole records and converts
 *     them between memory and the file's bytes, in a buffer of each
 *     thread's own that pread() and pwrite() move (no shared file
 *     position: threads transfer at once), or, writing, straight in a
 *     shared mapping of the file (where pwrite()s to one file take turns
 *     on its lock, page faults in a mapping proceed in parallel); one of
 *     the threads runs other work first (ls_beside), which the pass would
 *     otherwise wait for;
 *   - a shared writable mapping's pages faulted in by threads, before it
 *     is written (ls_atomic_map's, output.h), and an output file made
 *     ready so, before its contents are known;
 *   - a file's fingerprint, its every byte hashed by threads. */
#ifndef LOCKSTEP_FILE_PASS_H
#define LOCKSTEP_FILE_PASS_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "output.h"

/* The threads of the calling thread's team (1 where there is no OpenMP:
 * the fuzz harnesses build without it). */
int ls_team_threads(void);

/* Moves len bytes between buf and the file at offset `at` (pwrite when
 * `writing`, else pread), retrying interrupted and short transfers.
 * Returns the bytes moved: fewer than len at the end of the file, or on
 * an error (*error = errno; left as it was at the end of the file). */
size_t ls_file_transfer(int fd, int writing, void *buf, size_t len, uint64_t at, int *error);

/* Work of one thread that a pass runs beside its own (fn NULL: none). */
typedef struct ls_beside {
    void (*fn)(void *arg);
    void *arg;
} ls_beside;

/* Runs b (NULL: nothing), for a caller that does without a pass. */
void ls_beside_run(const ls_beside *b);

/* Bytes a thread converts at a time through its buffer: about 4 MiB, so
 * that the buffer stays in cache-sized pieces and the work spreads over
 * the threads. */
#define LS_PASS_CHUNK_BYTES (4u << 20)
/* Bytes of a thread's buffer past its chunk's records, for a converter
 * that reads a word past the last (and zeroes what it reads there). */
#define LS_PASS_SLACK 16u

/* A pass over records [first, first + records) of a file: record r of
 * the file at head + r * record_bytes; the pass numbers them from 0. The
 * caller fills the first fields; the pass says what went wrong in the
 * last ones (the converter notes it with ls_pass_read, ls_pass_bad and
 * ls_pass_write). */
typedef struct ls_file_pass ls_file_pass;
struct ls_file_pass {
    int fd;
    uint8_t *map;         /* writing: the file mapped (its first byte), or NULL: through fd */
    uint64_t head;        /* file offset of the file's record 0 */
    uint64_t first;       /* the file's record that is the pass's record 0 */
    size_t record_bytes;
    int64_t records;
    const ls_beside *beside; /* run by one of the threads first, or NULL */
    void *arg;               /* the converter's */
    /* Made by the pass. */
    int64_t per;          /* records a chunk */
    int io_errno;         /* an I/O error (errno) */
    int64_t short_record; /* reading: the first of the file's records a read fell short in; -1: none */
    uint64_t first_bad;   /* file offset of the first bad byte (UINT64_MAX: none), */
    unsigned bad_value;   /* and its value */
};

/* Converts records [r0, r0 + n) of the pass, whose bytes are `bytes`: a
 * thread's buffer, which the converter fills and writes or reads and
 * converts, or the mapping at the records' offset. */
typedef void (*ls_pass_chunk)(ls_file_pass *p, uint8_t *bytes, int64_t r0, int64_t n);

/* Runs chunk over every chunk of the pass on the calling thread's team:
 * through buffers of LS_PASS_CHUNK_BYTES; into a mapping in larger
 * pieces, the file shared among the threads (ls_map_fault_in says why).
 * 0, or -1 when a thread had no memory for its buffer; what the chunks
 * found is in p. */
int ls_pass_run(ls_file_pass *p, ls_pass_chunk chunk);
/* File offset of the pass's record r. */
uint64_t ls_pass_offset(const ls_file_pass *p, int64_t r);
/* Reads len bytes at `at` into bytes for the chunk from record r0 on: 0,
 * or -1 having noted the error, or the short read (in p->short_record,
 * by records of record_bytes). */
int ls_pass_read(ls_file_pass *p, uint8_t *bytes, size_t len, uint64_t at, int64_t r0);
/* A bad byte at file offset `at`: the first in file order is kept,
 * whichever thread finds it. */
void ls_pass_bad(ls_file_pass *p, uint64_t at, unsigned value);
/* Writes the chunk's bytes at `at` unless they are the mapping's, noting
 * an error. */
void ls_pass_write(ls_file_pass *p, uint8_t *bytes, size_t len, uint64_t at);

/* The first `bytes` of a shared writable mapping faulted in for writing
 * on `threads` threads of the calling thread's team, each a contiguous
 * share of it: threads that fill pieces next to each other fault their
 * pages in far more slowly (docs/perf/2026-11-24-h200-pku-chunks.log). */
void ls_map_fault_in(uint8_t *map, uint64_t bytes, int threads);

/* A replaced file of `size` bytes made ready before its contents are
 * known, so that a write after a long computation only fills it: opened
 * (ls_atomic_open), its blocks reserved and mapped (ls_atomic_map), and
 * its pages faulted in by the calling thread's team less a thread (a
 * core left to what runs meanwhile: a driver's open). 0 with a->map the
 * mapping; 1 when nothing is made ready, a left unopened: a target
 * written through or not mapped (a pipe, a file system that reserves no
 * blocks or maps no files), a file larger than an eighth of the memory
 * (its pages would stay dirty and held until written; the kernel starts
 * writing dirty pages back at a tenth, by default), or with
 * LOCKSTEP_DEBUG_OUT_AHEAD=0 (the benchmarks' A/B in one build); -1 with
 * err set when the file cannot be written (no space for it, over quota),
 * nothing left. */
int ls_atomic_ready(ls_atomic_file *a, const char *path, uint64_t size, ls_error *err);

/* XXH3 of every byte of the file's `bytes` (hash.h): each 4 MiB's in
 * parallel, seeded with its index, then of those hashes in order, seeded
 * with `bytes`. 0, or -1 with err set (name: the file's, for messages). */
int ls_file_hash(int fd, uint64_t bytes, const char *name, uint64_t *out, ls_error *err);

#endif
