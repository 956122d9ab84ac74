/* life.cu - the life kernels as CUDA: the shared source
 * (src/kernels/life_kernels.h) and the table the CUDA backend finds its
 * kernels in by name. */
#include "life_kernels.h"
#include "cu_program.h"

LS_CU_PROGRAM(life)
