/* host_kernel.c - see host_kernel.h. */
#include "host_kernel.h"

#include <pthread.h>
#include <string.h>

/* Four workloads, a program or two each: room to spare. */
#define HOST_PROGRAMS 16

static const ls_host_program *programs[HOST_PROGRAMS];
static int nprograms;
/* A set's devices register from their own threads. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int ls_host_program_add(const ls_host_program *p, ls_error *err)
{
    int rc = 0;
    pthread_mutex_lock(&lock);
    int i = 0;
    while (i < nprograms && strcmp(programs[i]->name, p->name) != 0)
        i++;
    if (i < nprograms && programs[i] != p)
        rc = ls_fail(err, "two host programs are named %s", p->name);
    else if (i == HOST_PROGRAMS)
        rc = ls_fail(err, "no room for host program %s: %d are registered", p->name, HOST_PROGRAMS);
    else if (i == nprograms)
        programs[nprograms++] = p;
    pthread_mutex_unlock(&lock);
    return rc;
}

const ls_host_kernel *ls_host_kernel_find(const char *program, const char *name)
{
    const ls_host_kernel *found = NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nprograms && !found; i++)
        if (strcmp(programs[i]->name, program) == 0)
            for (const ls_host_kernel *k = programs[i]->kernels; k->name && !found; k++)
                if (strcmp(k->name, name) == 0)
                    found = k;
    pthread_mutex_unlock(&lock);
    return found;
}

/* Refuses argument i unless it is there and a value of `size` bytes. */
static int value_arg(const ls_host_call *c, int i, size_t size, ls_error *err)
{
    if (i < 0 || i >= c->nargs)
        return ls_fail(err, "host kernel %s: argument %d of the %d it was given", c->kernel, i, c->nargs);
    if (c->args[i].is_buf || c->args[i].size != size || !c->args[i].value)
        return ls_fail(err, "host kernel %s: argument %d is %s, expected a value of %zu bytes", c->kernel, i,
                       c->args[i].is_buf ? "a buffer" : "a value of another size", size);
    return 0;
}

int ls_host_u64(const ls_host_call *c, int i, uint64_t *out, ls_error *err)
{
    if (value_arg(c, i, sizeof *out, err) != 0)
        return -1;
    memcpy(out, c->args[i].value, sizeof *out);
    return 0;
}

int ls_host_u32(const ls_host_call *c, int i, uint32_t *out, ls_error *err)
{
    if (value_arg(c, i, sizeof *out, err) != 0)
        return -1;
    memcpy(out, c->args[i].value, sizeof *out);
    return 0;
}

int ls_host_buf(const ls_host_call *c, int i, size_t bytes, void **out, ls_error *err)
{
    *out = NULL;
    if (i < 0 || i >= c->nargs)
        return ls_fail(err, "host kernel %s: argument %d of the %d it was given", c->kernel, i, c->nargs);
    if (!c->args[i].is_buf)
        return ls_fail(err, "host kernel %s: argument %d is a value, expected a buffer", c->kernel, i);
    if (bytes > 0 && (!c->mem[i] || c->bytes[i] < bytes))
        return ls_fail(err, "host kernel %s: argument %d is a buffer of %zu bytes, the launch needs %zu", c->kernel,
                       i, c->mem[i] ? c->bytes[i] : 0, bytes);
    *out = c->mem[i];
    return 0;
}
