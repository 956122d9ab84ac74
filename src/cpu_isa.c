/* cpu_isa.c - see cpu_isa.h. */
#include "cpu_isa.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"generic", "avx2", "avx512"};

const char *ls_isa_name(ls_isa isa)
{
    return names[isa];
}

/* What the CPU runs, uncapped. */
static ls_isa cpu_level(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("x86-64-v4"))
        return LS_ISA_AVX512;
    if (__builtin_cpu_supports("x86-64-v3"))
        return LS_ISA_AVX2;
#endif
    return LS_ISA_GENERIC;
}

/* The level $LOCKSTEP_CPU_ISA names: 1 and *out when it names one, 0 when
 * it is unset or empty, -1 when it is something else. */
static int env_level(ls_isa *out)
{
    const char *v = getenv(LS_CPU_ISA_ENV);
    if (!v || !*v)
        return 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(v, names[i]) == 0) {
            *out = (ls_isa)i;
            return 1;
        }
    return -1;
}

ls_isa ls_cpu_isa(void)
{
    /* -1: not asked yet. Threads that ask at once compute the same. */
    static atomic_int level = -1;
    int known = atomic_load(&level);
    if (known >= 0)
        return (ls_isa)known;
    ls_isa isa = cpu_level(), cap;
    if (env_level(&cap) == 1 && cap < isa)
        isa = cap;
    atomic_store(&level, (int)isa);
    return isa;
}

int ls_cpu_has_vpopcntdq(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512vpopcntdq") != 0;
#else
    return 0;
#endif
}

int ls_cpu_isa_check(ls_error *err)
{
    ls_isa cap = LS_ISA_GENERIC, cpu = cpu_level();
    int named = env_level(&cap);
    if (named < 0)
        return ls_fail_usage(err, "%s: expected generic, avx2 or avx512, got '%s'", LS_CPU_ISA_ENV,
                             getenv(LS_CPU_ISA_ENV));
    if (named && cap > cpu)
        return ls_fail_usage(err, "%s=%s: this CPU runs %s at most", LS_CPU_ISA_ENV, ls_isa_name(cap),
                             ls_isa_name(cpu));
    return 0;
}
