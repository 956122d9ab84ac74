/* cu_program.h - a CUDA program: the table of a shared kernel source's
 * entry points (its LS_PROGRAM_KERNELS list), by which the CUDA backend
 * finds a kernel by name, as OpenCL does by itself. kernels_cu/NAME.cu
 * ends with LS_CU_PROGRAM(NAME); meson tells the backend the names of all
 * programs (LS_GPU_PROGRAMS). */
#ifndef LOCKSTEP_CU_PROGRAM_H
#define LOCKSTEP_CU_PROGRAM_H

typedef struct ls_cu_entry {
    const char *name;
    const void *fn; /* the __global__ function, for cudaLaunchKernel */
} ls_cu_entry;

typedef struct ls_cu_program {
    const char *name;
    const ls_cu_entry *entries;
    int count;
} ls_cu_program;

#define LS_CU_ENTRY_(k) {#k, (const void *)k},
#define LS_CU_PROGRAM(prog)                                                                              \
    static const ls_cu_entry ls_cu_entries_[] = {LS_PROGRAM_KERNELS(LS_CU_ENTRY_)};                     \
    extern "C" const ls_cu_program ls_cu_program_##prog = {#prog, ls_cu_entries_,                      \
                                                           (int)(sizeof ls_cu_entries_ / sizeof ls_cu_entries_[0])};

#endif
