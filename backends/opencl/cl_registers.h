/* cl_registers.h - how many groups of a kernel a compute unit holds, where
 * the OpenCL driver tells each kernel's registers in its build log.
 *
 * OpenCL has no occupancy query, and NVIDIA's answers
 * CL_KERNEL_WORK_GROUP_SIZE with 256 for every kernel, whatever its
 * registers. A workload sizes its waves by groups a compute unit
 * (gpu.h's groups_per_unit), and a wave four times what fits slows BMN
 * there (docs/perf/README.md). NVIDIA's compiler, given -cl-nv-verbose,
 * writes ptxas's report into the build log:
 *
 *   ptxas info    : Compiling entry function 'bmn_deal_batch' for 'sm_90a'
 *   ptxas info    : Function properties for bmn_deal_batch
 *   ptxas         .     64 bytes stack frame, 0 bytes spill stores, ...
 *   ptxas info    : Used 79 registers, used 0 barriers
 *
 * so the count CUDA's occupancy calculator makes can be made here from
 * the same numbers; the cap a build asks for (cl_register_cap); and where
 * a failed build's log says what failed (cl_log_errors). Pure functions,
 * for tests/test_cl_registers.c. */
#ifndef LOCKSTEP_CL_REGISTERS_H
#define LOCKSTEP_CL_REGISTERS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h" /* ls_gpu_define */

/* The registers a thread of kernel `name` uses by the build log `log`
 * (the "Used N registers" line after "Compiling entry function 'name'"
 * and before the next entry function), or 0 when the log does not say. */
static inline uint32_t cl_log_registers(const char *log, const char *name)
{
    static const char entry[] = "Compiling entry function '";
    size_t name_len = strlen(name);
    for (const char *p = log ? strstr(log, entry) : NULL; p; p = strstr(p, entry)) {
        p += sizeof entry - 1;
        if (strncmp(p, name, name_len) != 0 || p[name_len] != '\'')
            continue;
        const char *next = strstr(p, entry);
        const char *used = strstr(p, "Used ");
        if (!used || (next && used > next))
            return 0;
        char *end;
        unsigned long n = strtoul(used + 5, &end, 10);
        return strncmp(end, " registers", 10) == 0 && n > 0 && n <= 255 ? (uint32_t)n : 0;
    }
    return 0;
}

/* Groups of group_size work-items of a kernel of `registers` a thread
 * that a compute unit's register file of unit_registers holds, as
 * NVIDIA's GPUs allocate it: per warp of 32 threads, in units of 256
 * registers (CUDA's occupancy calculator for compute capability 5.0 and
 * later). 0 when none fits or the inputs say nothing. */
static inline uint32_t cl_groups_by_registers(uint32_t unit_registers, uint32_t registers, uint32_t group_size)
{
    if (!unit_registers || !registers || !group_size)
        return 0;
    uint32_t warp_registers = (registers * 32u + 255u) / 256u * 256u;
    uint32_t warps = unit_registers / warp_registers;
    return warps / ((group_size + 31u) / 32u);
}

/* The cap on a program's registers that a build asks for (dialect.h): the
 * value of the last definition LS_REGISTERS among `defines` (a
 * kernel_with list), else source_cap (128 for a source that defines
 * LS_REGISTERS_128, else 0: none). */
static inline unsigned cl_register_cap(unsigned source_cap, const char *defines)
{
    char def[256];
    const char *next = defines;
    unsigned cap = source_cap;
    while (ls_gpu_define(&next, def, sizeof def) == 1)
        if (strncmp(def, "LS_REGISTERS=", 13) == 0)
            cap = (unsigned)strtoul(def + 13, NULL, 10);
    return cap;
}

/* Where a failed build's log says what failed, for a message: its first
 * line that names an error, its blanks skipped; the log's first
 * character that is not a blank where no line does. NVIDIA's
 * -cl-nv-verbose puts every compiled kernel's report before, and a
 * compiler's warnings may come first too. */
static inline const char *cl_log_errors(const char *log)
{
    const char *from = strstr(log, "error");
    if (from)
        while (from > log && from[-1] != '\n')
            from--;
    else
        from = log;
    while (*from == ' ' || *from == '\t' || *from == '\n' || *from == '\r')
        from++;
    return from;
}

#endif
