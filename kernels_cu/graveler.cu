/* graveler.cu - the graveler kernels as CUDA: the shared source
 * (src/kernels/graveler_kernels.h) and the table the CUDA backend finds its
 * kernels in by name. */
#include "graveler_kernels.h"
#include "cu_program.h"

LS_CU_PROGRAM(graveler)
