/* bmn.cl - the bmn kernels as OpenCL C: the dialect (src/kernels/dialect.h)
 * and the shared source, src/kernels/bmn_kernels.h. */
#include "bmn_kernels.h"
