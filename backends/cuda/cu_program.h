/* cu_program.h - a CUDA program: the table of a shared kernel source's
 * entry points (its LS_PROGRAM_KERNELS list), by which the CUDA backend
 * finds a kernel by name, as OpenCL does by itself. kernels_cu/NAME.cu
 * ends with LS_CU_PROGRAM(NAME); meson tells the backend the names of all
 * programs (LS_GPU_PROGRAMS).
 *
 * Each entry also records the kernel's parameters, taken at compile time
 * from the function's own type: how many, each one's size, and which are
 * pointers. OpenCL knows a kernel's parameters and refuses an argument of
 * the wrong size or a missing one; cudaLaunchKernel knows nothing of them
 * and would read past a short argument. With this table the CUDA backend
 * refuses the same launches (cu_args.h). */
#ifndef LOCKSTEP_CU_PROGRAM_H
#define LOCKSTEP_CU_PROGRAM_H

#include <stddef.h>
#include <type_traits>

typedef struct ls_cu_entry {
    const char *name;
    const void *fn;                        /* the __global__ function, for cudaLaunchKernel */
    int nparams;                           /* its parameters */
    const size_t *param_size;              /* sizeof each */
    const unsigned char *param_is_pointer; /* 1 where a buffer goes */
} ls_cu_entry;

typedef struct ls_cu_program {
    const char *name;
    const ls_cu_entry *entries;
    int count;
} ls_cu_program;

/* The parameters of a kernel of type void(A...). One element more than
 * there are parameters, so that a kernel without any still has arrays. */
template <typename... A> struct ls_cu_params {
    static constexpr int count = (int)sizeof...(A);
    static constexpr size_t size[sizeof...(A) + 1] = {sizeof(A)..., 0};
    static constexpr unsigned char is_pointer[sizeof...(A) + 1] = {
        (unsigned char)std::is_pointer<A>::value..., 0};
};
/* Only its type is used (decltype): the parameters of kernel k. */
template <typename... A> ls_cu_params<A...> ls_cu_params_of(void (*)(A...));
#define LS_CU_PARAMS_(k) decltype(ls_cu_params_of(k))

#define LS_CU_ENTRY_(k)                                                                                  \
    {#k, (const void *)k, LS_CU_PARAMS_(k)::count, LS_CU_PARAMS_(k)::size, LS_CU_PARAMS_(k)::is_pointer},
#define LS_CU_PROGRAM(prog)                                                                              \
    static const ls_cu_entry ls_cu_entries_[] = {LS_PROGRAM_KERNELS(LS_CU_ENTRY_)};                     \
    extern "C" const ls_cu_program ls_cu_program_##prog = {#prog, ls_cu_entries_,                      \
                                                           (int)(sizeof ls_cu_entries_ / sizeof ls_cu_entries_[0])};

#endif
