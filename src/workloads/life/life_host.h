/* life_host.h - Life's host program: the kernels the host device
 * (OpenMP) runs for life_gpu.c's launches, life_cpu.c's C (host_kernel.h).
 *
 * The host's shape (shape.h's none) has two: life_host_steps, any number
 * of generations of the first buffer, ping-ponging between it and the
 * second (life_cpu_between: the last is in the second when their count
 * is odd, in the first when even, and life_gpu.c takes its current
 * generation from there; a GPU kernel's one generation a launch lands in
 * the second), and life_fill, the random start with the arguments of the
 * GPU's kernel of that name (life_cpu_fill). life_gpu.c registers the
 * program before it asks the device for a kernel. */
#ifndef LOCKSTEP_LIFE_HOST_H
#define LOCKSTEP_LIFE_HOST_H

#include "host_kernel.h"

/* life_host_steps's arguments: cur, next (buffers), then row_words, ny,
 * nz, last_bits, dims, bounded, birth, survive, gens (uints),
 * then the threads' row sums (a buffer of life_cpu_scratch_bytes, kept
 * by the driver as a GPU kernel's local memory is: fresh pages each
 * launch would fault in on every thread). */
#define LIFE_HOST_STEPS_ARGS 12

extern const ls_host_program life_host_program;

#endif
