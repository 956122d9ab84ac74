/* portable.h - the small vocabulary that lets one header compile as C17,
 * OpenCL C 1.2 and CUDA C++.
 *
 * Everything under src/algo/ is per-element logic (one battle, one game
 * step, ...) shared by all three backends. Those headers include only this
 * file, use only the types and qualifiers below, and keep to the common
 * subset of the three languages:
 *   - no libc calls, no static tables read from functions (CUDA cannot read
 *     host statics; pass tables by pointer or compute them),
 *   - pointers to private/local data only (LS_FN functions never see
 *     __global memory), so OpenCL address spaces never enter the picture,
 *   - unsigned arithmetic where wrap-around is meant. */
#ifndef LOCKSTEP_ALGO_PORTABLE_H
#define LOCKSTEP_ALGO_PORTABLE_H

#if defined(__OPENCL_C_VERSION__)
typedef uchar ls_u8;
typedef ushort ls_u16;
typedef uint ls_u32;
typedef int ls_i32;
typedef ulong ls_u64;
#define LS_FN static inline
#elif defined(__CUDACC__)
#include <stdint.h>
typedef uint8_t ls_u8;
typedef uint16_t ls_u16;
typedef uint32_t ls_u32;
typedef int32_t ls_i32;
typedef uint64_t ls_u64;
#define LS_FN static __host__ __device__ __forceinline__
#else
#include <stdint.h>
typedef uint8_t ls_u8;
typedef uint16_t ls_u16;
typedef uint32_t ls_u32;
typedef int32_t ls_i32;
typedef uint64_t ls_u64;
#define LS_FN static inline
#endif

/* LS_PTX: the compiler takes NVIDIA's inline PTX. CUDA's device pass
 * does, and so does NVIDIA's OpenCL compiler (as hashcat's kernels use
 * it), which the OpenCL backend builds with -DLS_NV_PTX (cl_quirks_table
 * in backends/opencl/cl_backend.c). Per-element logic spells an operation
 * in PTX only where that measurably beats what the compiler makes of the
 * portable spelling, and keeps the portable one for every other compiler. */
#if defined(__CUDA_ARCH__) || (defined(__OPENCL_C_VERSION__) && defined(LS_NV_PTX))
#define LS_PTX 1
#endif
/* The inline assembly keyword: NVRTC knows only C++'s `asm`. */
#ifdef __CUDACC__
#define LS_ASM asm
#else
#define LS_ASM __asm__
#endif

/* 32x32 -> high 32 bits of the 64-bit product. */
#if defined(__OPENCL_C_VERSION__)
#define LS_MULHI32(a, b) mul_hi((ls_u32)(a), (ls_u32)(b))
#elif defined(__CUDA_ARCH__)
#define LS_MULHI32(a, b) __umulhi((ls_u32)(a), (ls_u32)(b))
#else
#define LS_MULHI32(a, b) ((ls_u32)(((ls_u64)(ls_u32)(a) * (ls_u32)(b)) >> 32))
#endif

/* Population count of a 32-bit word. */
#if defined(__OPENCL_C_VERSION__)
#define LS_POPC32(x) popcount((ls_u32)(x))
#elif defined(__CUDA_ARCH__)
#define LS_POPC32(x) __popc((ls_u32)(x))
#else
#define LS_POPC32(x) ((ls_u32)__builtin_popcount((ls_u32)(x)))
#endif

/* Leading zero bits of a nonzero 32-bit word. */
#if defined(__OPENCL_C_VERSION__)
#define LS_CLZ32(x) clz((ls_u32)(x))
#elif defined(__CUDA_ARCH__)
#define LS_CLZ32(x) ((ls_u32)__clz((int)(ls_u32)(x)))
#else
#define LS_CLZ32(x) ((ls_u32)__builtin_clz((ls_u32)(x)))
#endif

#endif
