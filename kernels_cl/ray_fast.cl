/* ray_fast.cl - the ray_fast kernels as OpenCL C: the dialect (src/kernels/dialect.h)
 * and the shared source, src/kernels/ray_fast_kernels.h. */
#include "ray_fast_kernels.h"
