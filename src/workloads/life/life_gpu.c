/* life_gpu.c - the GPU driver of Life, written once over src/gpu.h. Two
 * buffers hold the current and the next generation; a launch per
 * generation, one work-item per word, all on queue 0 without waiting. */
#include "life_gpu.h"

#include <stdlib.h>

/* Work-items per group: a multiple of the warp; on CPU devices (PoCL) a
 * group is a loop on one core. */
#define LIFE_GROUP_GPU 256u
#define LIFE_GROUP_CPU 64u

struct life_gpu_state {
    ls_session *s;
    ls_buf *cur, *next;
    unsigned dims;
    uint32_t row_words, ny, nz, last_bits;
    uint64_t nwords;
};

int life_gpu_start(ls_session *s, const life_grid *g, life_gpu_state **out, ls_error *err)
{
    const ls_gpu *gpu = s->backend->gpu;
    ls_gpu_info info;
    gpu->info(s->ctx, &info);
    uint64_t bytes = (uint64_t)g->nwords * sizeof(uint32_t);
    if (2 * bytes > info.global_bytes)
        return ls_fail_usage(err, "a %ux%ux%u grid needs %.1f MiB on the device (two generations, a bit per cell); %s has %.1f MiB",
                             g->nx, g->ny, g->nz, 2.0 * (double)bytes / (1 << 20), s->info.name,
                             (double)info.global_bytes / (1 << 20));
    life_gpu_state *st = calloc(1, sizeof *st);
    if (!st)
        return ls_fail(err, "out of memory");
    *st = (life_gpu_state){s, NULL, NULL, g->dims, g->row_words, g->ny, g->nz, g->last_bits, g->nwords};
    if (gpu->alloc(s->ctx, (size_t)bytes, "the Life grid", &st->cur, err) != 0 ||
        gpu->alloc(s->ctx, (size_t)bytes, "the next Life generation", &st->next, err) != 0 ||
        gpu->write(s->ctx, 0, st->cur, 0, g->words, (size_t)bytes, err) != 0) {
        life_gpu_stop(st);
        return -1;
    }
    *out = st;
    return 0;
}

/* One generation from st->cur into st->next. */
static int launch_step(life_gpu_state *st, ls_kernel *k, uint32_t group, life_rule r, ls_error *err)
{
    uint64_t nwords = st->nwords;
    uint32_t birth = r.birth, survive = r.survive;
    ls_arg args2[] = {LS_ARG_BUF(st->cur), LS_ARG_BUF(st->next), LS_ARG(nwords),   LS_ARG(st->row_words),
                      LS_ARG(st->ny),      LS_ARG(st->last_bits), LS_ARG(birth),  LS_ARG(survive)};
    ls_arg args3[] = {LS_ARG_BUF(st->cur), LS_ARG_BUF(st->next), LS_ARG(nwords), LS_ARG(st->row_words), LS_ARG(st->ny),
                      LS_ARG(st->nz),      LS_ARG(st->last_bits), LS_ARG(birth), LS_ARG(survive)};
    ls_launch l = {(nwords + group - 1) / group, group, 0, 0, st->dims == 3 ? args3 : args2,
                   st->dims == 3 ? 9 : 8};
    return st->s->backend->gpu->launch(st->s->ctx, k, &l, err);
}

int life_gpu_steps(life_gpu_state *st, life_rule r, uint64_t steps, double *seconds, ls_error *err)
{
    const ls_gpu *gpu = st->s->backend->gpu;
    ls_gpu_info info;
    gpu->info(st->s->ctx, &info);
    uint32_t group = info.is_gpu ? LIFE_GROUP_GPU : LIFE_GROUP_CPU;
    if (group > info.max_group)
        group = info.max_group;
    ls_kernel *k;
    if (gpu->kernel(st->s->ctx, "life", st->dims == 3 ? "life_step_3d" : "life_step_2d", &k, err) != 0 ||
        gpu->timer_start(st->s->ctx, err) != 0)
        return -1;
    for (uint64_t i = 0; i < steps; i++) {
        if (launch_step(st, k, group, r, err) != 0)
            return -1;
        ls_buf *t = st->cur;
        st->cur = st->next;
        st->next = t;
    }
    return gpu->timer_stop(st->s->ctx, seconds, err);
}

int life_gpu_fetch(life_gpu_state *st, life_grid *g, ls_error *err)
{
    return st->s->backend->gpu->read(st->s->ctx, st->cur, 0, g->words, g->nwords * sizeof(uint32_t), err);
}

void life_gpu_stop(life_gpu_state *st)
{
    if (!st)
        return;
    st->s->backend->gpu->free(st->s->ctx, st->cur);
    st->s->backend->gpu->free(st->s->ctx, st->next);
    free(st);
}
