/* life_cpu.h - Life on the host's cores (OpenMP), bit-packed and
 * bit-sliced with src/algo/life.h.
 *
 * life_cpu_run is the CPU implementation of the workload. The generation
 * loop itself (life_cpu_gen.c) is compiled once per instruction set
 * (meson: generic, x86-64-v3, x86-64-v4) and life_cpu_run picks the
 * widest one this CPU runs. */
#ifndef LOCKSTEP_LIFE_CPU_H
#define LOCKSTEP_LIFE_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "life.h"
#include "life_grid.h"

/* Advances g by exactly `steps` generations of rule r on its torus or
 * bounded plane (g->bounded), on `threads` threads (0: OpenMP's default,
 * fewer on a small grid; never more than the grid has work units:
 * life_cpu_threads_for says how many with 0). 0, or -1 with err set (out
 * of memory for the second grid or the per-thread buffers). */
int life_cpu_run(life_grid *g, life_rule r, uint64_t steps, int threads, ls_error *err);

/* life_cpu_run with a chosen copy of the loop ("generic", "avx2",
 * "avx512"; NULL: the widest this CPU runs), for tests and benchmarks.
 * A copy this CPU cannot run, or does not exist here, is refused. */
int life_cpu_run_variant(life_grid *g, life_rule r, uint64_t steps, int threads, const char *variant,
                         ls_error *err);

/* `gens` generations of rule r of a grid of shape's extents and topology
 * (shape->words is not read) between two buffers of its cells that do not
 * overlap, from a into b, then b into a, and so on: the last is in b when
 * gens is odd, in a when it is even (a GPU launch's one generation from a
 * buffer into another, several at once: the host device's, life_host.c).
 * On OpenMP's default threads (fewer on a small grid:
 * life_cpu_threads_for), in the widest copy of the loop this CPU runs.
 * scratch, scratch_len: the threads' row sums, 64-byte aligned, at least
 * life_cpu_scratch_bytes (else, or NULL, made for the call: fresh pages
 * each time). 0, or -1 with err set (out of memory for the row sums). */
int life_cpu_between(const life_grid *shape, life_rule r, uint64_t gens, uint32_t *a, uint32_t *b, void *scratch,
                     size_t scratch_len, ls_error *err);
/* The bytes of row sums life_cpu_between takes on a grid of this shape. */
size_t life_cpu_scratch_bytes(const life_grid *shape);
/* The threads each such generation runs on. */
int life_cpu_threads_for(const life_grid *shape);

/* The instruction set life_cpu_run uses here ("avx512", "avx2", "generic"). */
const char *life_cpu_variant(void);

/* ---- between life_cpu.c and the per-instruction-set copies ---------- */

typedef struct life_cpu_job {
    unsigned dims;
    uint32_t nx, ny, nz, row_words, last_bits;
    int bounded; /* a bounded plane: nothing wraps, the cells beyond the edges are dead */
    life_rule rule;
    uint64_t steps;
    uint32_t *cur;      /* the grid now */
    uint32_t *next;     /* as large, for the next generation */
    uint32_t strip;     /* output rows per work unit */
    uint32_t slab;      /* planes per work unit (3D; 1 in 2D) */
    uint32_t *scratch;  /* row sums: scratch_words per thread */
    size_t scratch_words;
    int threads;
} life_cpu_job;

/* Words of row sums one thread needs for strips of `strip` rows. */
size_t life_cpu_scratch_words(unsigned dims, uint32_t row_words, uint32_t strip);

/* Runs job->steps generations; returns cur or next, whichever holds the
 * last one. */
#define LIFE_CPU_DECLARE(variant)                                                                          \
    uint32_t *life_cpu_generations_##variant(const life_cpu_job *job);                                        \
    void life_cpu_fill_##variant(uint32_t *words, uint32_t nx, uint32_t row_words, uint64_t row0, uint64_t rows, \
                                 uint64_t seed, uint32_t threshold);                                      \
    uint64_t life_cpu_population_##variant(const uint32_t *words, size_t n);
LIFE_CPU_DECLARE(generic)
/* Fills the grid at random: cell k (canonical order, x fastest) is alive
 * when its 16-bit lane of Philox4x32-10 block k / 8, keyed by seed, is
 * below round(density * 65536) (docs/life.md; src/algo/life.h's
 * life_fill_word is the same a word at a time). Every word is written:
 * the grid need not be cleared first. The same on any thread count, in
 * the widest copy of the loop this CPU runs. */
void life_grid_fill_random(life_grid *g, uint64_t seed, double density);
/* As life_grid_fill_random in the copy `name` (generic, avx2, avx512),
 * for the tests: -1 when this CPU cannot run it. */
int life_cpu_fill_variant(const char *name, life_grid *g, uint64_t seed, double density);
/* The fill of `rows` rows of nx cells from row row0 of the grid on (row
 * r's first cell is cell r * nx), as life_grid_fill_random. */
void life_cpu_fill(uint32_t *words, uint32_t nx, uint32_t row_words, uint64_t row0, uint64_t rows, uint64_t seed,
                   uint32_t threshold);
/* Live cells of words[0 .. n), on this thread, in the widest copy of the
 * loop this CPU runs: the summary counts every word it hashes, and the
 * baseline copy has no bit-count instruction. */
uint64_t life_cpu_population(const uint32_t *words, size_t n);
/* Live cells of g, on every thread (the count of life_cpu_population:
 * the grid's passes compiled per instruction set live here, as its
 * fill). */
uint64_t life_grid_population(const life_grid *g);
/* Every unit's hash of g into hashes[0 .. life_grid_units(g)), on every
 * thread (units_before as for life_grid_unit_hash, life_grid.h); returns
 * g's live cells, counted in the same pass. */
uint64_t life_grid_unit_hashes(const life_grid *g, uint32_t units_before, uint64_t *hashes);
#if defined(__x86_64__)
LIFE_CPU_DECLARE(avx2)
LIFE_CPU_DECLARE(avx512)
#endif

#endif
