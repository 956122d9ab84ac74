/* ray_fast.cu - the ray_fast kernels as CUDA: the shared source
 * (src/kernels/ray_fast_kernels.h) and the table the CUDA backend finds its
 * kernels in by name. */
#include "ray_fast_kernels.h"
#include "cu_program.h"

LS_CU_PROGRAM(ray_fast)
