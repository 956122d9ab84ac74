/* bmn_device.c - one range of a search on whatever device it is:
 * the GPU driver (bmn_gpu.c) on CUDA and OpenCL, or the copy of the CPU
 * implementation (bmn_cpu.c) this CPU runs best. */
#include "bmn_types.h"

int bmn_cpu_range_generic(const bmn_range *r, bmn_range_out *out, ls_error *err);
#if defined(__x86_64__)
int bmn_cpu_range_v3(const bmn_range *r, bmn_range_out *out, ls_error *err);
#endif

/* x86-64-v3 where AVX2, BMI1/2 and LZCNT are all there. */
int bmn_cpu_range(const bmn_range *r, bmn_range_out *out, ls_error *err)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("x86-64-v3"))
        return bmn_cpu_range_v3(r, out, err);
#endif
    return bmn_cpu_range_generic(r, out, err);
}

int bmn_range_run(ls_device *s, const bmn_range *r, bmn_range_out *out, ls_error *err)
{
    return s->backend->gpu ? bmn_gpu_range(s, r, out, err) : bmn_cpu_range(r, out, err);
}
