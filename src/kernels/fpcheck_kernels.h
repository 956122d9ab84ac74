/* fpcheck_kernels.h - the exact floating-point rule on a device: one
 * work-item per input triple (src/algo/fpcheck.h). Built under the rule. */
#define LS_EXACT_FP
#include "dialect.h"
#include "fpcheck.h"

LS_KERNEL void fp_probe_kernel(ls_u32 n, LS_GLOBAL const float *in, LS_GLOBAL float *out)
{
    ls_u64 i = ls_gid();
    if (i >= n)
        return;
    float r[FP_PROBE_OUTPUTS];
    fp_probe(in[3u * i], in[3u * i + 1u], in[3u * i + 2u], r);
    for (ls_u32 k = 0; k < FP_PROBE_OUTPUTS; k++)
        out[FP_PROBE_OUTPUTS * i + k] = r[k];
}

#define LS_PROGRAM_KERNELS(X) X(fp_probe_kernel)
