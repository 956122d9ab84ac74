/* cpu_isa.h - which compiled copy of the CPU code runs here: the one place
 * that asks the CPU what it can run.
 *
 * The hot loops of the CPU implementations are compiled more than once
 * (each workload's meson.build, and fpcheck.c's probe): for baseline
 * x86-64 ("generic"), for x86-64-v3 ("avx2": AVX2, FMA, BMI1/2, LZCNT,
 * MOVBE) and for x86-64-v4 ("avx512": AVX-512 F, BW, CD, DQ, VL). Each
 * workload takes the widest copy it has up to ls_cpu_isa(); every copy
 * gives the same bits, so the choice changes only the speed.
 *
 * LOCKSTEP_CPU_ISA=generic|avx2|avx512 caps the choice at that level (to
 * time or test a narrower copy on a wider CPU); it cannot ask for more
 * than the CPU runs. It is read once a process. */
#ifndef LOCKSTEP_CPU_ISA_H
#define LOCKSTEP_CPU_ISA_H

#include "error.h"

/* Widest last: a copy for level L runs where ls_cpu_isa() >= L. */
typedef enum ls_isa { LS_ISA_GENERIC, LS_ISA_AVX2, LS_ISA_AVX512 } ls_isa;

#define LS_CPU_ISA_ENV "LOCKSTEP_CPU_ISA"

/* The widest level this CPU runs, capped by $LOCKSTEP_CPU_ISA (a value it
 * does not know, or above the CPU's, is ls_cpu_isa_check's to refuse: here
 * it leaves the CPU's level). LS_ISA_GENERIC off x86-64. */
ls_isa ls_cpu_isa(void);

/* Beyond the levels: AVX-512's vector popcount (VPOPCNTDQ: Ice Lake and
 * Zen 4 on, not Skylake-SP), which Graveler's avx512 copy needs besides
 * x86-64-v4. 0 off x86-64. */
int ls_cpu_has_vpopcntdq(void);

/* "generic", "avx2" or "avx512": the names the reports and tests use. */
const char *ls_isa_name(ls_isa isa);

/* Checks $LOCKSTEP_CPU_ISA before a run, so that a value it does not know,
 * or one above what this CPU runs, is refused as the user's error (exit 2)
 * before anything runs. 0, or -1 with err->usage set. */
int ls_cpu_isa_check(ls_error *err);

#endif
