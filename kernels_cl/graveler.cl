/* graveler.cl - the graveler kernels as OpenCL C: the dialect (src/kernels/dialect.h)
 * and the shared source, src/kernels/graveler_kernels.h. */
#include "graveler_kernels.h"
