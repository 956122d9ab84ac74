/* cu_args.h - a CUDA launch's arguments checked against the kernel's
 * parameters (cu_program.h), as OpenCL checks them: the same count, a
 * buffer where a pointer goes, and a value of the parameter's own size
 * elsewhere. Without it cudaLaunchKernel copies each parameter's size
 * from the address it is given, whatever was there. */
#ifndef LOCKSTEP_CU_ARGS_H
#define LOCKSTEP_CU_ARGS_H

#include "cu_program.h"
extern "C" {
#include "error.h"
#include "gpu.h"
}

/* 0 when the launch's arguments fit kernel e, else -1 with err naming the
 * first that does not. */
static inline int ls_cu_check_args(const ls_cu_entry *e, const ls_launch *l, ls_error *err)
{
    if (l->nargs != e->nparams)
        return ls_fail(err, "CUDA kernel %s: %d argument%s given, it takes %d (OpenCL refuses this too)", e->name,
                       l->nargs, l->nargs == 1 ? "" : "s", e->nparams);
    for (int i = 0; i < l->nargs; i++) {
        const ls_arg *a = &l->args[i];
        if (a->is_buf && !e->param_is_pointer[i])
            return ls_fail(err, "CUDA kernel %s: argument %d is a buffer, its parameter a %zu-byte value", e->name,
                           i, e->param_size[i]);
        if (!a->is_buf && e->param_is_pointer[i])
            return ls_fail(err, "CUDA kernel %s: argument %d is a %zu-byte value, its parameter a buffer", e->name,
                           i, a->size);
        if (!a->is_buf && a->size != e->param_size[i])
            return ls_fail(err, "CUDA kernel %s: argument %d is %zu bytes, its parameter %zu (an invalid argument "
                                "size, as OpenCL says)", e->name, i, a->size, e->param_size[i]);
    }
    return 0;
}

#endif
