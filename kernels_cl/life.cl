/* life.cl - the life kernels as OpenCL C: the dialect (src/kernels/dialect.h)
 * and the shared source, src/kernels/life_kernels.h. */
#include "life_kernels.h"
