/* bmn.cu - the bmn kernels as CUDA: the shared source
 * (src/kernels/bmn_kernels.h) and the table the CUDA backend finds its
 * kernels in by name. */
#include "bmn_kernels.h"
#include "cu_program.h"

LS_CU_PROGRAM(bmn)
