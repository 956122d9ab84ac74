/* life_cpu.c - the CPU implementation of Life: allocates the second grid
 * and the per-thread row sums, picks the generation loop compiled for the
 * widest instruction set this CPU runs (life_cpu_gen.c), and leaves the
 * result in the caller's grid; and the grid's other passes compiled the
 * same way: the random fill and the population (with the units' hashes
 * beside it). */
#include "life_cpu.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_isa.h"
#include "numbers.h"

/* Output words per strip: 16 KiB of cells, so that a 3D strip's scratch
 * (two row sums and three planes' 3x3 sums, 14 such) stays within L2. */
#define LIFE_CPU_STRIP_WORDS 4096u
/* Planes per 3D work unit: each unit makes the sums of two planes more
 * than it updates, so slabs should be thick, but there must be enough of
 * them to share among the threads. */
#define LIFE_CPU_SLAB 32u
/* Cells a thread needs in each generation to be worth its barrier: every
 * generation ends with all threads waiting for each other, and on a busy
 * machine a thread that is not running makes the others wait for the
 * scheduler, thousands of times a small generation's work (issue 34;
 * docs/perf/2026-11-28-cpu-life-threads.log). Below this a generation is
 * a few tens of microseconds of work, which one thread does at once. */
#define LIFE_CPU_THREAD_CELLS (1u << 19)

typedef uint32_t *(*generations_fn)(const life_cpu_job *job);
typedef void (*fill_fn)(uint32_t *words, uint32_t nx, uint32_t row_words, uint64_t row0, uint64_t rows,
                        uint64_t seed, uint32_t threshold);

typedef uint64_t (*population_fn)(const uint32_t *words, size_t n);

typedef struct variant {
    ls_isa isa; /* the level it is compiled for; its name is the level's */
    generations_fn run;
    fill_fn fill;
    population_fn population;
} variant;

/* Widest first. */
static const variant variants[] = {
#if defined(__x86_64__)
    {LS_ISA_AVX512, life_cpu_generations_avx512, life_cpu_fill_avx512, life_cpu_population_avx512},
    {LS_ISA_AVX2, life_cpu_generations_avx2, life_cpu_fill_avx2, life_cpu_population_avx2},
#endif
    {LS_ISA_GENERIC, life_cpu_generations_generic, life_cpu_fill_generic, life_cpu_population_generic},
};

/* The copy named `name` (NULL: the widest this CPU runs, cpu_isa.h), or
 * NULL when there is none of that name or the CPU does not run it. */
static const variant *find_variant(const char *name)
{
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
        if (name ? strcmp(name, ls_isa_name(variants[i].isa)) == 0 : variants[i].isa <= ls_cpu_isa())
            return variants[i].isa <= ls_cpu_isa() ? &variants[i] : NULL;
    return NULL;
}

void life_cpu_fill(uint32_t *words, uint32_t nx, uint32_t row_words, uint64_t row0, uint64_t rows, uint64_t seed,
                   uint32_t threshold)
{
    find_variant(NULL)->fill(words, nx, row_words, row0, rows, seed, threshold);
}

uint64_t life_cpu_population(const uint32_t *words, size_t n)
{
    return find_variant(NULL)->population(words, n);
}

/* Words a thread counts at a time. */
#define POPULATION_PIECE_WORDS ((size_t)1 << 14)

uint64_t life_grid_population(const life_grid *g)
{
    uint64_t pop = 0;
    int64_t pieces = (int64_t)((g->nwords + POPULATION_PIECE_WORDS - 1) / POPULATION_PIECE_WORDS);
#pragma omp parallel for reduction(+ : pop) schedule(static)
    for (int64_t i = 0; i < pieces; i++) {
        size_t first = (size_t)i * POPULATION_PIECE_WORDS, left = g->nwords - first;
        pop += life_cpu_population(g->words + first, left < POPULATION_PIECE_WORDS ? left : POPULATION_PIECE_WORDS);
    }
    return pop;
}

/* Live cells of g's unit `unit`. */
static uint64_t unit_population(const life_grid *g, uint32_t unit)
{
    size_t words = (size_t)g->row_words * (g->dims == 2 ? 1u : g->ny);
    return life_cpu_population(g->words + (size_t)unit * words, words);
}

uint64_t life_grid_unit_hashes(const life_grid *g, uint32_t units_before, uint64_t *hashes)
{
    /* Each unit is counted right after it is hashed, while it is in the
     * core's cache: one pass over memory, where a count after the hashes
     * made two. */
    int chunk = life_grid_hash_chunk(g);
    uint64_t pop = 0;
#pragma omp parallel for schedule(dynamic, chunk) reduction(+ : pop)
    for (int64_t u = 0; u < (int64_t)life_grid_units(g); u++) {
        hashes[u] = life_grid_unit_hash(g, (uint32_t)u, units_before);
        pop += unit_population(g, (uint32_t)u);
    }
    return pop;
}

int life_cpu_fill_variant(const char *name, life_grid *g, uint64_t seed, double density)
{
    const variant *v = find_variant(name);
    if (!v)
        return -1;
    v->fill(g->words, g->nx, g->row_words, 0, (uint64_t)g->ny * g->nz, seed, life_fill_threshold(density));
    return 0;
}

void life_grid_fill_random(life_grid *g, uint64_t seed, double density)
{
    life_cpu_fill(g->words, g->nx, g->row_words, 0, (uint64_t)g->ny * g->nz, seed, life_fill_threshold(density));
}

const char *life_cpu_variant(void)
{
    return ls_isa_name(find_variant(NULL)->isa);
}

size_t life_cpu_scratch_words(unsigned dims, uint32_t row_words, uint32_t strip)
{
    /* Two row sums with halo rows; in 3D also three planes' 3x3 sums of
     * four bit-planes each. */
    size_t words = 2 * ((size_t)strip + 2) * row_words;
    if (dims == 3)
        words += 12 * (size_t)strip * row_words;
    return (words + 15) / 16 * 16; /* keeps each thread's block 64-byte aligned */
}

/* Output rows per work unit: LIFE_CPU_STRIP_WORDS worth, at least one. */
static uint32_t strip_rows(const life_grid *g)
{
    uint32_t rows = LIFE_CPU_STRIP_WORDS / g->row_words;
    if (rows < 1)
        rows = 1;
    return rows < g->ny ? rows : g->ny;
}

/* The threads a generation of g runs on: `asked`, or with 0 OpenMP's
 * default but no more than a thread per LIFE_CPU_THREAD_CELLS cells;
 * never more than there are work units (a thread without one would only
 * wait); at least one. */
static int threads_for(const life_grid *g, const life_cpu_job *job, int asked)
{
    uint64_t units = (uint64_t)((g->ny + job->strip - 1u) / job->strip) * ((g->nz + job->slab - 1u) / job->slab);
    uint64_t worth = (uint64_t)g->nx * g->ny * g->nz / LIFE_CPU_THREAD_CELLS;
    uint64_t threads = asked > 0 ? (uint64_t)asked : (uint64_t)omp_get_max_threads();
    if (asked <= 0 && threads > worth)
        threads = worth;
    if (threads > units)
        threads = units;
    return threads > 0 ? (int)threads : 1;
}

/* The fields of a job on grids of g's extents and topology, on `threads`
 * threads (threads_for): no buffers, no rule, no steps. */
static void job_shape(life_cpu_job *job, const life_grid *g, int threads)
{
    memset(job, 0, sizeof *job);
    job->dims = g->dims;
    job->nx = g->nx;
    job->ny = g->ny;
    job->nz = g->nz;
    job->row_words = g->row_words;
    job->last_bits = g->last_bits;
    job->bounded = g->bounded;
    job->strip = strip_rows(g);
    job->slab = g->dims == 3 && g->nz > LIFE_CPU_SLAB ? LIFE_CPU_SLAB : g->nz;
    job->threads = threads_for(g, job, threads);
    job->scratch_words = life_cpu_scratch_words(g->dims, g->row_words, job->strip);
}

/* Bytes of a job's per-thread row sums. */
static size_t scratch_bytes(const life_cpu_job *job)
{
    return (size_t)job->threads * job->scratch_words * sizeof(uint32_t);
}

/* The per-thread row sums of a job, 64-byte aligned; NULL when there is
 * no memory for them. */
static uint32_t *alloc_scratch(const life_cpu_job *job)
{
    return aligned_alloc(64, scratch_bytes(job));
}

size_t life_cpu_scratch_bytes(const life_grid *shape)
{
    life_cpu_job job;
    job_shape(&job, shape, 0);
    return scratch_bytes(&job);
}

int life_cpu_between(const life_grid *shape, life_rule r, uint64_t gens, uint32_t *a, uint32_t *b, void *scratch,
                     size_t scratch_len, ls_error *err)
{
    if (gens == 0)
        return 0;
    life_cpu_job job;
    job_shape(&job, shape, 0);
    job.rule = r;
    job.steps = gens;
    job.cur = a;
    job.next = b;
    /* The caller's row sums where they are enough; else made for the
     * call (the thread count OpenMP gives may have grown). */
    uint32_t *own = NULL;
    job.scratch = scratch;
    if (!scratch || scratch_len < scratch_bytes(&job) || (uintptr_t)scratch % 64 != 0)
        job.scratch = own = alloc_scratch(&job);
    if (!job.scratch)
        return ls_fail(err, "out of memory for the row sums of a %ux%ux%u grid's generations", shape->nx, shape->ny,
                       shape->nz);
    find_variant(NULL)->run(&job);
    free(own);
    return 0;
}

int life_cpu_threads_for(const life_grid *shape)
{
    life_cpu_job job;
    job_shape(&job, shape, 0);
    return job.threads;
}

int life_cpu_run(life_grid *g, life_rule r, uint64_t steps, int threads, ls_error *err)
{
    return life_cpu_run_variant(g, r, steps, threads, NULL, err);
}

int life_cpu_run_variant(life_grid *g, life_rule r, uint64_t steps, int threads, const char *name,
                         ls_error *err)
{
    const variant *v = find_variant(name);
    if (!v)
        return ls_fail_usage(err, "the CPU loop '%s' does not run on this CPU", name ? name : "(any)");
    life_cpu_job job;
    job_shape(&job, g, threads);
    size_t grid_bytes = (g->nwords * sizeof(uint32_t) + 63) / 64 * 64;
    job.next = life_alloc_cells(grid_bytes);
    job.scratch = alloc_scratch(&job);
    if (!job.next || !job.scratch) {
        free(job.next);
        free(job.scratch);
        /* The grid's size is the user's choice: too large, like the first copy's (life_grid_init). */
        char need[LS_BYTES_TEXT];
        ls_format_bytes(grid_bytes, need, sizeof need);
        return ls_fail_usage(err, "the grid %ux%ux%u needs a second copy of %s and row buffers on the CPU; this "
                                  "machine does not have that much free memory",
                             g->nx, g->ny, g->nz, need);
    }
    job.rule = r;
    job.steps = steps;
    job.cur = g->words;
    /* The last generation is in whichever buffer its parity says: g takes
     * that one, and the other is freed. */
    uint32_t *result = steps > 0 ? v->run(&job) : g->words;
    if (result != g->words) {
        job.next = g->words;
        g->words = result;
    }
    free(job.next);
    free(job.scratch);
    return 0;
}
