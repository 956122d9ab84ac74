/* bmn_device.c - one range of a search on whatever device it is:
 * the GPU driver (bmn_gpu.c) on CUDA and OpenCL, or the copy of the CPU
 * implementation (bmn_cpu.c) this CPU runs best. */
#include "bmn_types.h"
#include "cpu_isa.h"

int bmn_cpu_range_generic(const bmn_range *r, bmn_range_out *out, ls_error *err);
#if defined(__x86_64__)
int bmn_cpu_range_v3(const bmn_range *r, bmn_range_out *out, ls_error *err);
#endif

/* The x86-64-v3 copy where the CPU runs it (cpu_isa.h's avx2 level). */
int bmn_cpu_range(const bmn_range *r, bmn_range_out *out, ls_error *err)
{
#if defined(__x86_64__)
    if (ls_cpu_isa() >= LS_ISA_AVX2)
        return bmn_cpu_range_v3(r, out, err);
#endif
    return bmn_cpu_range_generic(r, out, err);
}

int bmn_range_run(ls_device *s, const bmn_range *r, bmn_range_out *out, ls_error *err)
{
    return s->backend->gpu ? bmn_gpu_range(s, r, out, err) : bmn_cpu_range(r, out, err);
}
