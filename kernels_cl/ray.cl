/* ray.cl - the ray kernels as OpenCL C: the dialect (src/kernels/dialect.h)
 * and the shared source, src/kernels/ray_kernels.h. */
#include "ray_kernels.h"
