/* life_slab.c - a Life slab on a device, as the slab runner drives it,
 * and the grid's file written where the slabs live: see life_slab.h. */
#include "life_slab.h"

#include <stdlib.h>
#include <string.h>

#include "life_cpu.h"
#include "life_gpu.h"
#include "life_grid.h"
#include "life_memory.h"
#include "numbers.h"

/* A slab on its device, whichever it is (the host CPU too: life_gpu.h). */
typedef struct life_slab {
    life_gpu_state *gpu;
} life_slab;

static size_t plane_words(const life_grid *g)
{
    return (size_t)g->row_words * (g->dims == 3 ? g->ny : 1u);
}

static uint32_t rows_a_plane(const life_grid *g)
{
    return g->dims == 3 ? g->ny : 1u;
}

void life_slab_grid(const life_grid *g, ls_slab_grid *out)
{
    *out = (ls_slab_grid){
        .planes = g->dims == 3 ? g->nz : g->ny,
        .plane_bytes = plane_words(g) * sizeof(uint32_t),
        .plane_items = (uint64_t)g->nx * rows_a_plane(g),
        .bounded = g->bounded,
        .min_planes = LIFE_MIN_SIZE,
        /* 2D on a GPU: ghosts as deep as the many-generation kernel's walk,
         * so that a slab runs the kernel a whole grid on one GPU runs. */
        .halo_gpu = g->dims == 2 ? LIFE_HALO_GPU_2D : LIFE_HALO_GPU,
        .halo_cpu = LIFE_HALO_CPU,
    };
}

/* The census's measure of a device: the memory Life may use there. */
static int slab_memory(const ls_device *d, uint64_t *out, ls_error *err)
{
    return life_device_memory(d, out, err);
}

static int slab_fits(const void *job, const ls_job_device *d, uint64_t need, int nslabs, ls_error *err)
{
    const life_grid *g = &((const life_work *)job)->shape;
    if (life_grid_fits(need, d->measure, UINT64_MAX))
        return 0;
    char slabs_text[32] = "", needs[LS_BYTES_TEXT], has[LS_BYTES_TEXT];
    if (nslabs > 1)
        snprintf(slabs_text, sizeof slabs_text, " in %d slabs", nslabs);
    ls_format_bytes(2 * need, needs, sizeof needs);
    ls_format_bytes(d->measure, has, sizeof has);
    return ls_fail_usage(err, "a %ux%ux%u grid%s needs %s on %s (two generations, a bit per cell); it has %s%s", g->nx,
                         g->ny, g->nz, slabs_text, needs, d->label, has,
                         life_memory_capped() ? " under " LIFE_MEMORY_CAP_ENV : "");
}

/* A slab of at's planes on device d, opened empty (all dead: the owned
 * planes are written whole next). */
static int slab_open(const void *job, ls_device *d, const ls_slab_place *at, void **out, ls_error *err)
{
    const life_grid *g = &((const life_work *)job)->shape;
    uint32_t planes = at->ghost[0] + at->owned + at->ghost[1];
    life_slab *sl = calloc(1, sizeof *sl);
    if (!sl)
        return ls_fail(err, "out of memory");
    *out = sl;
    life_grid shape;
    life_grid_shape(&shape, g->dims, g->nx, g->dims == 3 ? g->ny : planes, g->dims == 3 ? planes : 1);
    shape.bounded = g->bounded;
    return life_gpu_open(d, &shape, &sl->gpu, err);
}

/* The random start of the slab's owned planes, made where it lives (rows
 * first * rows-a-plane on of the whole grid). */
static int slab_make(const void *job, void *slab, const ls_slab_place *at, ls_error *err)
{
    const life_work *w = job;
    life_slab *sl = slab;
    uint64_t row0 = (uint64_t)at->first * rows_a_plane(&w->shape);
    return life_gpu_fill(sl->gpu, at->ghost[0], at->owned, row0, w->shape.nx, w->seed, w->density, err);
}

static int slab_step(const void *job, void *slab, uint32_t steps, ls_error *err)
{
    const life_work *w = job;
    return life_gpu_launch(((life_slab *)slab)->gpu, w->rule, steps, err);
}

static int slab_read(void *slab, uint32_t first, uint32_t count, void *dst, ls_error *err)
{
    return life_gpu_read_planes(((life_slab *)slab)->gpu, first, count, dst, err);
}

static int slab_write(void *slab, uint32_t first, uint32_t count, const void *src, ls_error *err)
{
    return life_gpu_write_planes(((life_slab *)slab)->gpu, first, count, src, err);
}

static int slab_can_copy(const void *dst, const void *src)
{
    return life_gpu_can_copy(((const life_slab *)dst)->gpu, ((const life_slab *)src)->gpu);
}

static int slab_copy(void *dst, uint32_t dst_first, void *src, uint32_t src_first, uint32_t count, ls_error *err)
{
    return life_gpu_copy_planes(((life_slab *)dst)->gpu, dst_first, ((life_slab *)src)->gpu, src_first, count, err);
}

static int slab_to_buf(void *slab, uint32_t first, uint32_t count, ls_buf *dst, ls_error *err)
{
    return life_gpu_planes_to(((life_slab *)slab)->gpu, first, count, dst, err);
}

static int slab_from_buf(void *slab, uint32_t first, uint32_t count, ls_buf *src, ls_error *err)
{
    return life_gpu_planes_from(((life_slab *)slab)->gpu, first, count, src, err);
}

static int slab_threads(const void *slab)
{
    return life_gpu_host_threads(((const life_slab *)slab)->gpu);
}

/* Faulted in by every thread, not by the copy into it. */
static void *slab_host_alloc(size_t bytes)
{
    void *p = life_alloc_cells(bytes);
    if (p)
        life_touch_words(p, bytes / sizeof(uint32_t));
    return p;
}

static void slab_close(void *slab)
{
    life_slab *sl = slab;
    life_gpu_stop(sl->gpu);
    free(sl);
}

/* A plane's hash is a unit's of the grid digest (version 2, life_grid.h). */
static uint64_t slab_count(const void *job, const void *planes, uint32_t first, uint32_t n, uint64_t *hashes)
{
    const life_grid *g = &((const life_work *)job)->shape;
    life_grid view;
    life_grid_shape(&view, g->dims, g->nx, g->dims == 3 ? g->ny : n, g->dims == 3 ? n : 1);
    view.words = (uint32_t *)planes;
    return hashes ? life_grid_unit_hashes(&view, first, hashes) : life_grid_population(&view);
}

static uint64_t slab_digest(const void *job, const uint64_t *hashes, uint32_t planes)
{
    const life_grid *g = &((const life_work *)job)->shape;
    return life_grid_digest_of_units(g->nx, g->ny, g->nz, hashes, planes);
}

const ls_slab_ops life_slab_ops = {
    .measure = slab_memory,
    .fits = slab_fits,
    .open = slab_open,
    .make = slab_make,
    .step = slab_step,
    .read = slab_read,
    .write = slab_write,
    .can_copy = slab_can_copy,
    .copy = slab_copy,
    .to_buf = slab_to_buf,
    .from_buf = slab_from_buf,
    .threads = slab_threads,
    .host_alloc = slab_host_alloc,
    .close = slab_close,
    .count = slab_count,
    .digest = slab_digest,
};

/* ---- the grid's file, written where the slabs live ---------------------------- */

static int file_plan(void *arg, int alone, char **tmp, ls_error *err)
{
    life_slab_file *f = arg;
    if (life_out_pieces_open(f->out, f->file.path, f->fmt, f->shape, f->meta, alone, &f->pieces, tmp, err) != 0)
        return -1;
    if (*tmp)
        life_pieces_prefault(&f->pieces);
    return 0;
}

static void file_join(void *arg, const char *tmp)
{
    (void)tmp;
    life_slab_file *f = arg;
    life_pieces_layout(&f->pieces, f->fmt, f->shape, f->meta);
}

static int file_write(void *arg, const void *planes, uint32_t first, uint32_t n, ls_error *err)
{
    life_slab_file *f = arg;
    uint32_t rows_each = rows_a_plane(f->shape);
    life_grid rows;
    life_grid_shape(&rows, 3, f->shape->nx, rows_each, n);
    rows.words = (uint32_t *)planes;
    return life_pieces_write_rows(&f->pieces, &rows, (uint64_t)first * rows_each, err);
}

static int file_finish(void *arg, uint64_t digest, ls_error *err)
{
    life_slab_file *f = arg;
    return life_pieces_finish(&f->pieces, digest, err);
}

static void file_abort(void *arg)
{
    life_slab_file *f = arg;
    life_out_abort(f->out);
}

void life_slab_file_init(life_slab_file *f, life_out *out, const char *path, life_format fmt, const life_grid *shape,
                         const life_meta *meta)
{
    memset(f, 0, sizeof *f);
    f->out = out;
    f->fmt = fmt;
    f->shape = shape;
    f->meta = meta;
    f->pieces.fd = -1;
    f->file = (ls_slab_file){file_plan, file_join, file_write, file_finish, file_abort, f, path, &f->pieces.fd,
                             &f->pieces.head};
}
