/* life_host.h - Life's host program: the kernels the host device
 * (OpenMP) runs for life_gpu.c's launches, life_cpu.c's C (host_kernel.h).
 *
 * The host's shape (shape.h's none) has two: life_host_steps, an odd
 * number of generations from a buffer into another (life_cpu_between,
 * which takes the first buffer for the generations between: the last
 * lands in the second, as a GPU launch's one does), and life_fill, the
 * random start with the arguments of the GPU's kernel of that name
 * (life_cpu_fill). life_gpu.c registers the program before it asks the
 * device for a kernel. */
#ifndef LOCKSTEP_LIFE_HOST_H
#define LOCKSTEP_LIFE_HOST_H

#include "host_kernel.h"

/* life_host_steps's arguments: cur, next (buffers), then row_words, ny,
 * nz, last_bits, dims, bounded, birth, survive, gens (uints; gens odd). */
#define LIFE_HOST_STEPS_ARGS 11

extern const ls_host_program life_host_program;

#endif
