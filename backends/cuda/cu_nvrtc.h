/* cu_nvrtc.h - a GPU program compiled at run time by NVRTC, with
 * definitions (gpu.h's kernel_with), to a CUBIN for one GPU architecture:
 * what the CUDA backend loads (cudaLibraryLoadData) to have kernels with
 * constants nvcc's build could not fold.
 *
 * The text is the program's shared source as the OpenCL build embeds it
 * (tools/embed_cl.py: kernels_cl/NAME.cl with its includes expanded),
 * which dialect.h compiles as CUDA under NVRTC as under nvcc; the options
 * are nvcc's for that program (meson.build: C++17, and the exact or fast
 * floating-point flags its source asks for). libnvrtc is loaded on first
 * use (dlopen), as the CUDA runtime loads the driver: a lockstep built with
 * NVRTC starts where the library is missing, and then runs the kernels
 * nvcc built.
 *
 * The code is kept for the process by (program, definitions,
 * architecture), so the devices of a set share one compilation, and on
 * disk in the program cache (src/program_cache.h), so that the next run
 * loads it. Safe to call from several threads (one compiles at a time). */
#ifndef LOCKSTEP_CU_NVRTC_H
#define LOCKSTEP_CU_NVRTC_H

#include <stddef.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Program `program` compiled with `defines` for architecture sm_<arch>
 * (compute capability major * 10 + minor: 90 for an H100 or H200).
 * Returns 0 with the CUBIN in *cubin and *bytes, owned by this module for
 * the life of the process; 1 when NVRTC cannot make it here (no libnvrtc,
 * or one that does not know the architecture), with why in err; -1 when it
 * failed (err says why: a refused definition, the compiler's log). */
int ls_nvrtc_cubin(const char *program, const char *defines, int arch, const void **cubin, size_t *bytes,
                   ls_error *err);

#ifdef __cplusplus
}
#endif

#endif
