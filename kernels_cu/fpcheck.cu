/* fpcheck.cu - the fpcheck kernels as CUDA: the shared source
 * (src/kernels/fpcheck_kernels.h) and the table the CUDA backend finds its
 * kernels in by name. */
#include "fpcheck_kernels.h"
#include "cu_program.h"

LS_CU_PROGRAM(fpcheck)
