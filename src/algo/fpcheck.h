/* fpcheck.h - the exact floating-point rule, as a test (src/kernels/
 * dialect.h states the rule; docs/exact-float.md explains it).
 *
 * fp_probe computes, for each input triple (x, y, z), the values whose bits
 * depend on how a compiler and device treat float arithmetic:
 *   out[0] = x * y + z        differs when the multiply-add is contracted
 *                             into an FMA (one rounding instead of two);
 *   out[1] = x / y            differs when division is not correctly
 *                             rounded (OpenCL's default allows 2.5 ulp);
 *   out[2] = sqrt(x)          likewise for the square root (3 ulp);
 *   out[3] = x * z * 2^-126 / 16
 *                             a denormal: differs when denormal results
 *                             are flushed to zero;
 *   out[4] = x^5              an integer power by a fixed sequence of
 *                             multiplications (no pow()).
 * src/fpcheck.c runs it on a device and compares the bits with values it
 * derives in double precision (one rounding to float of each exactly
 * computed step), over inputs chosen so that each line differs under the
 * relaxed behaviour. */
#ifndef LOCKSTEP_ALGO_FPCHECK_H
#define LOCKSTEP_ALGO_FPCHECK_H

#include "portable.h"

#define FP_PROBE_OUTPUTS 5u

#if defined(__OPENCL_C_VERSION__) || defined(__CUDACC__)
#define FP_SQRT(x) sqrt(x)
#else
#include <math.h>
#define FP_SQRT(x) sqrtf(x)
#endif

/* x^5 as ((x * x) * (x * x)) * x: the same three roundings everywhere. */
LS_FN float fp_pow5(float x)
{
    float x2 = x * x;
    return x2 * x2 * x;
}

LS_FN void fp_probe(float x, float y, float z, float *out)
{
    out[0] = x * y + z;
    out[1] = x / y;
    out[2] = FP_SQRT(x);
    out[3] = x * z * 1.17549435e-38f * 0.0625f; /* 2^-126, the smallest normal, then 2^-4 */
    out[4] = fp_pow5(x);
}

#endif
