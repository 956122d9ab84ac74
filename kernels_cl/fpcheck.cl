/* fpcheck.cl - the fpcheck kernels as OpenCL C: the dialect (src/kernels/dialect.h)
 * and the shared source, src/kernels/fpcheck_kernels.h. */
#include "fpcheck_kernels.h"
