/* dialect.h - the vocabulary in which every GPU kernel is written once and
 * compiled both as OpenCL C 1.2 (kernels_cl/NAME.cl) and as CUDA
 * (kernels_cu/NAME.cu). A precedent is hashcat's inc_vendor.h.
 *
 * A shared kernel source (src/kernels/NAME_kernels.h) includes the
 * per-element logic from src/algo/ and writes its kernels with:
 *
 *   LS_KERNEL void name(params)   a kernel entry point (1-D launches only)
 *   LS_GLOBAL                     address space of a buffer parameter
 *   LS_LOCAL                      address space of a pointer to local
 *                                 (group-shared) memory
 *   LS_SHARED                     a group-shared variable declared at the
 *                                 top of a kernel (__local / __shared__)
 *   LS_DYNAMIC_LOCAL(type, name)  the kernel's dynamically sized local
 *                                 memory: the launch's local_bytes (one
 *                                 array per kernel, as a statement)
 *   LS_DYNAMIC_LOCAL_PARAM(type, name)
 *                                 the matching last parameter; OpenCL
 *                                 passes local memory as an argument,
 *                                 CUDA does not
 *   ls_lid() ls_lsize() ls_group() ls_ngroups() ls_gid() ls_gsize()
 *                                 ids and sizes (32-bit within a group,
 *                                 64-bit across the grid)
 *   ls_barrier()                  a group barrier that orders local memory
 *   ls_atomic_inc_local(p)        32-bit atomic increment of local memory,
 *                                 returning the old value
 *   ls_atomic_inc_global(p)       the same on global memory
 *   ls_atomic_add_global(p, v)    32-bit atomic add of v to global memory,
 *                                 returning the old value
 *   LS_RESTRICT                   after the * of a buffer parameter: the
 *                                 kernel reaches that memory through no
 *                                 other pointer, so loads may be moved
 *                                 ahead of stores (and, when const, go
 *                                 through the read-only cache)
 *   LS_DEVICE                     a helper function of the kernels (the
 *                                 per-element code uses LS_FN from
 *                                 portable.h, which also compiles as C)
 *   LS_EXCHANGE_BUF(name, n)      declares, at the top of a kernel, what
 *                                 ls_exchange needs for n words a work-item
 *                                 in groups of at most 256 work-items
 *   ls_exchange(buf, n, v, up, dn) for k < n: up[k] = v[k] of work-item
 *                                 lid - 1 and dn[k] = v[k] of lid + 1, within
 *                                 runs of 32 work-items (lid / 32); lanes 0
 *                                 and 31 of a run get unspecified values.
 *                                 Every work-item of the group must call it
 *                                 the same number of times (OpenCL: group
 *                                 barriers). By the kernel shape (LS_SHAPE,
 *                                 below): warp shuffles on CUDA and NVIDIA's
 *                                 OpenCL (LS_NV_PTX), Intel's sub-group
 *                                 shuffles in sub-groups asked to be 32
 *                                 wide (cl_intel_subgroups: OpenCL C 1.2 has
 *                                 no shuffle of its own, and Khronos's
 *                                 cl_khr_subgroup_shuffle needs OpenCL C 2.0
 *                                 and cannot fix the width at 32), and local
 *                                 memory between two barriers elsewhere.
 *   ls_shuffle(buf, n, group, v, la, lb, a, b)
 *                                 for k < n: a[k] = v[k] of lane la and
 *                                 b[k] = v[k] of lane lb (both below 32) of
 *                                 the caller's run of 32 work-items: any
 *                                 lanes, where ls_exchange has only the
 *                                 neighbours. The same rules as ls_exchange
 *                                 (every work-item calls it as often; warp
 *                                 or sub-group shuffles where ls_exchange
 *                                 has them, local memory elsewhere),
 *                                 but buf is the caller's local memory, n
 *                                 words for each of the group's `group`
 *                                 work-items (unused where it shuffles)
 *   LS_ASYNC_COPY                 defined where the three below exist:
 *                                 copies that hold no register while the
 *                                 word is in flight, CUDA on sm_80 and
 *                                 later (cp.async). Not on OpenCL:
 *                                 NVIDIA's compiler takes the PTX, but what
 *                                 a __local pointer holds there is not
 *                                 documented. Without it a kernel loads
 *                                 into registers ahead of their use
 *   ls_copy_async(dst, src)       one word from global to local memory,
 *                                 asynchronously (a copy the work-item
 *                                 itself reads back: no barrier orders it
 *                                 for others)
 *   ls_copy_commit()              closes the batch of copies issued since
 *                                 the last commit
 *   ls_copy_wait(n)               waits until at most n batches (a
 *                                 constant) of this work-item's copies are
 *                                 in flight; the older ones are in local
 *                                 memory
 *   LS_UNROLL_EXCHANGING(n)       `#pragma unroll n` before a loop whose
 *                                 trip count is known only at run time and
 *                                 whose body calls ls_exchange: kept where
 *                                 that is a warp shuffle (CUDA, where it
 *                                 unrolls the loop; NVIDIA's OpenCL), and
 *                                 nothing elsewhere, where it is group
 *                                 barriers: a barrier cannot be copied into
 *                                 the remainder an unroll of an unknown
 *                                 count needs, so clang declined and said so
 *                                 ("loop not unrolled"), a warning PoCL
 *                                 printed on stderr at every build
 *   LS_MAX_GROUP(n)               a promise that launches use at most n
 *                                 work-items per group (CUDA uses it to
 *                                 budget registers; OpenCL has no
 *                                 equivalent that is not a requirement)
 *   LS_MAX_GROUP_FIT(n, m)        the same, and registers capped so that m
 *                                 such groups fit on a compute unit (CUDA;
 *                                 NVIDIA's OpenCL caps a whole program's,
 *                                 LS_REGISTERS_128 below)
 *
 * Each program ends with LS_PROGRAM_KERNELS(X), the list of its entry
 * points: kernels_cu/NAME.cu turns it into the table the CUDA backend
 * looks kernels up in by name (OpenCL finds them by name itself).
 *
 * The kernel sources have no per-device spellings; this file has one. An
 * OpenCL implementation whose compiler needs something else to build code
 * its device runs, or offers more, gets build options from the OpenCL
 * backend (cl_quirks_table in backends/opencl/cl_backend.c): Oclgrind,
 * whose optimizer emits LLVM intrinsics its interpreter lacks, builds with
 * -cl-opt-disable; NVIDIA's OpenCL, which compiles to PTX and takes inline
 * PTX (as hashcat's kernels use it), gets LS_NV_PTX, and ls_exchange is
 * then the warp shuffle CUDA's __shfl_up/down_sync compile to. NVIDIA
 * places the work-items of a 1-D group in warps in order of their local
 * id, so a warp is a run of 32, as ls_exchange's contract says.
 * tests/oclgrind.py runs every kernel on Oclgrind and fails on any of its
 * reports (invalid accesses, data races).
 *
 * Exact floating point (the rule every kernel that computes floats for a
 * cross-checked result follows; docs/exact-float.md):
 *   - the shared source defines LS_EXACT_FP before including this file:
 *     OpenCL then gets `#pragma OPENCL FP_CONTRACT OFF`, and the host
 *     builds the program with -cl-fp32-correctly-rounded-divide-sqrt and
 *     refuses devices that do not offer correctly rounded divide and sqrt
 *     or single-precision denormals; CUDA compiles the program with
 *     -fmad=false -prec-div=true -prec-sqrt=true -ftz=false (meson.build);
 *     C code is compiled with -ffp-contract=off everywhere;
 *   - no library transcendentals (pow, exp, sin...): their accuracy is
 *     implementation-defined; integer powers are fixed sequences of
 *     multiplications, and square roots use sqrt (correctly rounded under
 *     the rule above).
 * The opposite, for results that need not match bit for bit (the
 * raytracer's fast mode): a source that defines LS_FAST_FP is built with
 * -cl-fast-relaxed-math on OpenCL and --use_fast_math on CUDA.
 *
 * Registers: LS_MAX_GROUP_FIT(n, m) caps a CUDA kernel's registers so that
 * m groups of n fit on a compute unit. NVIDIA's OpenCL takes only a cap
 * for the whole program (-cl-nv-maxrregcount): a source that defines
 * LS_REGISTERS_128 is built with 128 there (cl_quirks_table in
 * backends/opencl/cl_backend.c), the cap LS_MAX_GROUP_FIT(256, 2) means,
 * and every other program keeps its compiler's choice. A build with the
 * definition LS_REGISTERS=N (gpu.h's kernel_with) is capped at N there
 * instead: a driver that runs a kernel whose groups need fewer or more
 * registers than the rest of its program asks for a build of its own.
 * CUDA's kernels carry their caps, and the definition changes nothing.
 *
 * The CPU shape (OpenCL on a CPU): LS_MULHI32 is the high word of the
 * 64-bit product there, and a source that defines LS_CPU_INLINE before
 * including this file has every LS_FN and LS_DEVICE function inlined
 * there (where the compiler optimizes), for loops over vector lanes that
 * vectorize only without calls in them. */
#ifndef LOCKSTEP_KERNELS_DIALECT_H
#define LOCKSTEP_KERNELS_DIALECT_H

#include "portable.h"

/* The kernel shape the device runs (src/shape.h, whose numbers these
 * are): the OpenCL backend passes -DLS_SHAPE=n for the device it builds
 * for; nvcc and NVRTC build for warps. A kernel source may cut its work
 * by it (#if LS_SHAPE == LS_SHAPE_CPU); ls_exchange and ls_shuffle below
 * are register shuffles on the warp shape and local memory between two
 * barriers on the others. */
#define LS_SHAPE_WARP 1
#define LS_SHAPE_SUBGROUP 2
#define LS_SHAPE_GROUP 3
#define LS_SHAPE_CPU 4
#ifndef LS_SHAPE
#ifdef __CUDACC__
#define LS_SHAPE LS_SHAPE_WARP
#else
#define LS_SHAPE LS_SHAPE_GROUP
#endif
#endif

#if defined(__OPENCL_C_VERSION__)

#ifdef LS_EXACT_FP
#pragma OPENCL FP_CONTRACT OFF
#endif
#define LS_KERNEL __kernel
#define LS_GLOBAL __global
#define LS_RESTRICT restrict
#define LS_LOCAL __local
#define LS_SHARED __local
#define LS_DEVICE static inline
#define LS_MAX_GROUP(n)
#define LS_MAX_GROUP_FIT(n, m)
#define LS_DYNAMIC_LOCAL(type, name)
#define LS_DYNAMIC_LOCAL_PARAM(type, name) , __local type *name
#define ls_lid() ((ls_u32)get_local_id(0))
#define ls_lsize() ((ls_u32)get_local_size(0))
#define ls_group() ((ls_u64)get_group_id(0))
#define ls_ngroups() ((ls_u64)get_num_groups(0))
#define ls_gid() ((ls_u64)get_global_id(0))
#define ls_gsize() ((ls_u64)get_global_size(0))
#define ls_barrier() barrier(CLK_LOCAL_MEM_FENCE)
#define ls_atomic_inc_local(p) atomic_inc(p)
#define ls_atomic_inc_global(p) atomic_inc(p)
#define ls_atomic_add_global(p, v) atomic_add((p), (v))
#if LS_SHAPE == LS_SHAPE_CPU
/* A CPU multiplies 32 x 32 -> 64 bits in one instruction, but PoCL's
 * mul_hi builds the high word from four 16-bit products: Philox's rounds
 * (philox.h) took a fifth of Graveler's kernel. The 64-bit product's
 * high word is the same number. */
#undef LS_MULHI32
#define LS_MULHI32(a, b) ((ls_u32)(((ls_u64)(ls_u32)(a) * (ls_u32)(b)) >> 32))
#if defined(LS_CPU_INLINE) && defined(__OPTIMIZE__)
/* A source that defines LS_CPU_INLINE (the raytracer's) has every LS_FN
 * and LS_DEVICE function inlined on the CPU shape: its loops over vector
 * lanes vectorize only when every call in their bodies is inlined, and
 * PoCL's inliner kept the larger ones (a Philox block, a nearest hit) as
 * calls. Not in an unoptimized build (Oclgrind's), where inlining at -O0
 * leaves LLVM intrinsics its interpreter lacks. */
#undef LS_FN
#define LS_FN static inline __attribute__((always_inline))
#undef LS_DEVICE
#define LS_DEVICE static inline __attribute__((always_inline))
#endif
#endif
#if LS_SHAPE == LS_SHAPE_WARP
#ifndef LS_NV_PTX
#error "the warp shape on OpenCL is NVIDIA's inline PTX (LS_NV_PTX)"
#endif
#define LS_EXCHANGE_BUF(name, n) __local ls_u32 *name = 0
/* What __shfl_up_sync(~0, v, 1) and __shfl_down_sync(~0, v, 1) are in PTX:
 * lane - 1 (clamped at lane 0: c = 0) and lane + 1 (clamped at 31). */
static inline ls_u32 ls_nv_shfl_up1(ls_u32 v)
{
    ls_u32 r;
    __asm__ volatile("shfl.sync.up.b32 %0, %1, 1, 0, 0xffffffff;" : "=r"(r) : "r"(v));
    return r;
}
static inline ls_u32 ls_nv_shfl_down1(ls_u32 v)
{
    ls_u32 r;
    __asm__ volatile("shfl.sync.down.b32 %0, %1, 1, 31, 0xffffffff;" : "=r"(r) : "r"(v));
    return r;
}
#define ls_exchange(buf, n, v, up, dn)                                            \
    do {                                                                          \
        (void)(buf);                                                              \
        for (ls_u32 ls_x_k_ = 0; ls_x_k_ < (n); ls_x_k_++) {                      \
            (up)[ls_x_k_] = ls_nv_shfl_up1((v)[ls_x_k_]);                         \
            (dn)[ls_x_k_] = ls_nv_shfl_down1((v)[ls_x_k_]);                       \
        }                                                                         \
    } while (0)
/* What __shfl_sync(~0, v, lane) is in PTX: lane's v, in runs of 32 (c = 31). */
static inline ls_u32 ls_nv_shfl_idx(ls_u32 v, ls_u32 lane)
{
    ls_u32 r;
    __asm__ volatile("shfl.sync.idx.b32 %0, %1, %2, 31, 0xffffffff;" : "=r"(r) : "r"(v), "r"(lane));
    return r;
}
#define ls_shuffle(buf, n, group, v, la, lb, a, b)                                \
    do {                                                                          \
        (void)(buf);                                                              \
        for (ls_u32 ls_s_k_ = 0; ls_s_k_ < (n); ls_s_k_++) {                      \
            (a)[ls_s_k_] = ls_nv_shfl_idx((v)[ls_s_k_], (la));                    \
            (b)[ls_s_k_] = ls_nv_shfl_idx((v)[ls_s_k_], (lb));                    \
        }                                                                         \
    } while (0)
#elif LS_SHAPE == LS_SHAPE_SUBGROUP
/* Intel's sub-groups (cl_intel_subgroups), asked to be 32 wide: in a 1-D
 * group of a multiple of 32 work-items, sub-group k is the run of local
 * ids 32k .. 32k + 31, so a lane is lid % 32 as ls_exchange's contract
 * says. Every work-item of the sub-group takes part in a shuffle. */
#undef LS_KERNEL
#define LS_KERNEL __kernel __attribute__((intel_reqd_sub_group_size(32)))
#define LS_EXCHANGE_BUF(name, n) __local ls_u32 *name = 0
#define ls_exchange(buf, n, v, up, dn)                                                     \
    do {                                                                                   \
        (void)(buf);                                                                       \
        ls_u32 ls_x_lane_ = (ls_u32)get_sub_group_local_id();                              \
        ls_u32 ls_x_up_ = ls_x_lane_ - (ls_x_lane_ != 0u);                                 \
        ls_u32 ls_x_dn_ = ls_x_lane_ + (ls_x_lane_ != 31u);                                \
        for (ls_u32 ls_x_k_ = 0; ls_x_k_ < (n); ls_x_k_++) {                               \
            (up)[ls_x_k_] = intel_sub_group_shuffle((v)[ls_x_k_], ls_x_up_);               \
            (dn)[ls_x_k_] = intel_sub_group_shuffle((v)[ls_x_k_], ls_x_dn_);               \
        }                                                                                  \
    } while (0)
#define ls_shuffle(buf, n, group, v, la, lb, a, b)                                         \
    do {                                                                                   \
        (void)(buf);                                                                       \
        for (ls_u32 ls_s_k_ = 0; ls_s_k_ < (n); ls_s_k_++) {                               \
            (a)[ls_s_k_] = intel_sub_group_shuffle((v)[ls_s_k_], (la));                    \
            (b)[ls_s_k_] = intel_sub_group_shuffle((v)[ls_s_k_], (lb));                    \
        }                                                                                  \
    } while (0)
#else
#define LS_EXCHANGE_BUF(name, n) __local ls_u32 name[(n) * 256]
/* The first barrier: the previous call's reads are done before buf is
 * written again. */
#define ls_exchange(buf, n, v, up, dn)                                           \
    do {                                                                          \
        ls_u32 ls_x_lid_ = ls_lid(), ls_x_lane_ = ls_x_lid_ % 32u;                \
        ls_u32 ls_x_up_ = ls_x_lid_ - (ls_x_lane_ != 0u);                         \
        ls_u32 ls_x_dn_ = ls_x_lid_ + (ls_x_lane_ != 31u);                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                             \
        for (ls_u32 ls_x_k_ = 0; ls_x_k_ < (n); ls_x_k_++)                        \
            (buf)[ls_x_k_ * 256u + ls_x_lid_] = (v)[ls_x_k_];                    \
        barrier(CLK_LOCAL_MEM_FENCE);                                             \
        for (ls_u32 ls_x_k_ = 0; ls_x_k_ < (n); ls_x_k_++) {                      \
            (up)[ls_x_k_] = (buf)[ls_x_k_ * 256u + ls_x_up_];                    \
            (dn)[ls_x_k_] = (buf)[ls_x_k_ * 256u + ls_x_dn_];                    \
        }                                                                         \
    } while (0)
/* As ls_exchange: the first barrier lets the previous call's reads finish. */
#define ls_shuffle(buf, n, group, v, la, lb, a, b)                                \
    do {                                                                          \
        ls_u32 ls_s_lid_ = ls_lid(), ls_s_run_ = ls_s_lid_ - ls_s_lid_ % 32u;     \
        barrier(CLK_LOCAL_MEM_FENCE);                                             \
        for (ls_u32 ls_s_k_ = 0; ls_s_k_ < (n); ls_s_k_++)                        \
            (buf)[ls_s_k_ * (group) + ls_s_lid_] = (v)[ls_s_k_];                  \
        barrier(CLK_LOCAL_MEM_FENCE);                                             \
        for (ls_u32 ls_s_k_ = 0; ls_s_k_ < (n); ls_s_k_++) {                      \
            (a)[ls_s_k_] = (buf)[ls_s_k_ * (group) + ls_s_run_ + (la)];           \
            (b)[ls_s_k_] = (buf)[ls_s_k_ * (group) + ls_s_run_ + (lb)];           \
        }                                                                         \
    } while (0)
#endif

#elif defined(__CUDACC__)

#define LS_KERNEL extern "C" __global__
#define LS_GLOBAL
#define LS_RESTRICT __restrict__
#define LS_LOCAL
#define LS_SHARED __shared__
#define LS_DEVICE static __device__ __forceinline__
#define LS_MAX_GROUP(n) __launch_bounds__(n)
#define LS_MAX_GROUP_FIT(n, m) __launch_bounds__(n, m)
/* One dynamic shared array per kernel, typed by a cast (CUDA allows one
 * extern __shared__ array per translation unit and type). */
#define LS_DYNAMIC_LOCAL(type, name)                                \
    extern __shared__ __align__(16) unsigned char ls_dynamic_local_[]; \
    type *name = (type *)ls_dynamic_local_
#define LS_DYNAMIC_LOCAL_PARAM(type, name)
#define ls_lid() ((ls_u32)threadIdx.x)
#define ls_lsize() ((ls_u32)blockDim.x)
#define ls_group() ((ls_u64)blockIdx.x)
#define ls_ngroups() ((ls_u64)gridDim.x)
#define ls_gid() ((ls_u64)blockIdx.x * blockDim.x + threadIdx.x)
#define ls_gsize() ((ls_u64)gridDim.x * blockDim.x)
#define ls_barrier() __syncthreads()
#define ls_atomic_inc_local(p) atomicAdd((p), 1u)
#define ls_atomic_inc_global(p) atomicAdd((p), 1u)
#define ls_atomic_add_global(p, v) atomicAdd((p), (v))
#define LS_EXCHANGE_BUF(name, n) ls_u32 *name = 0
#define ls_exchange(buf, n, v, up, dn)                                            \
    do {                                                                          \
        (void)(buf);                                                              \
        for (ls_u32 ls_x_k_ = 0; ls_x_k_ < (n); ls_x_k_++) {                      \
            (up)[ls_x_k_] = __shfl_up_sync(0xffffffffu, (v)[ls_x_k_], 1);         \
            (dn)[ls_x_k_] = __shfl_down_sync(0xffffffffu, (v)[ls_x_k_], 1);       \
        }                                                                         \
    } while (0)
#define ls_shuffle(buf, n, group, v, la, lb, a, b)                                \
    do {                                                                          \
        (void)(buf);                                                              \
        for (ls_u32 ls_s_k_ = 0; ls_s_k_ < (n); ls_s_k_++) {                      \
            (a)[ls_s_k_] = __shfl_sync(0xffffffffu, (v)[ls_s_k_], (int)(la));     \
            (b)[ls_s_k_] = __shfl_sync(0xffffffffu, (v)[ls_s_k_], (int)(lb));     \
        }                                                                         \
    } while (0)
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define LS_ASYNC_COPY 1
/* cp.async of 4 bytes (.ca: the only kind for fewer than 16), to the
 * shared-window address of dst: the compiler's conversion, which it folds
 * into the address arithmetic (a cvta in inline PTX is opaque to it). */
LS_DEVICE void ls_copy_async(ls_u32 *dst, const ls_u32 *src)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"((ls_u32)__cvta_generic_to_shared(dst)), "l"(src)
                 : "memory");
}
#define ls_copy_commit() asm volatile("cp.async.commit_group;" ::: "memory")
#define ls_copy_wait(n) asm volatile("cp.async.wait_group %0;" ::"n"(n) : "memory")
#endif

#else
#error "dialect.h is for kernel sources: compile as OpenCL C or CUDA"
#endif

#define LS_PRAGMA_(text) _Pragma(#text)
#if LS_SHAPE == LS_SHAPE_WARP || LS_SHAPE == LS_SHAPE_SUBGROUP
#define LS_UNROLL_EXCHANGING(n) LS_PRAGMA_(unroll n)
#else
#define LS_UNROLL_EXCHANGING(n)
#endif

#endif
