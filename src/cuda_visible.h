/* cuda_visible.h - the GPUs a process that names its CUDA devices lets the
 * driver initialise (issue 36).
 *
 * CUDA's driver initialises every GPU it can see the first time the
 * process calls it (cuInit, under cudaGetDeviceCount): 0.19-0.29 s with
 * one H100 visible, 0.30-0.40 s with two, and more with four, whichever of
 * them the run then uses. CUDA_VISIBLE_DEVICES, read by the driver at that
 * first call, narrows what it sees; set by the process itself before that
 * call it narrows this process alone. A run whose spec names its CUDA
 * devices by index (cuda:0, or cuda, which is cuda:0: the PKU form's
 * default in a build for CUDA; cuda:1,cuda:3) needs
 * no other: the backend sets the variable to those devices, as entries of
 * the variable the process was given, and opens device i of the spec as
 * the i-th of them. auto, cuda:all and a spec with an OpenCL device (whose
 * NVIDIA platform reads the same variable) initialise every GPU, as
 * before. LOCKSTEP_CUDA_NARROW=0 initialises every GPU always (an A/B in
 * one build; a machine whose driver counts its GPUs otherwise). */
#ifndef LOCKSTEP_CUDA_VISIBLE_H
#define LOCKSTEP_CUDA_VISIBLE_H

#include <stddef.h>

#define LS_CUDA_VISIBLE_MAX 32

/* What CUDA_VISIBLE_DEVICES to set for a process that opens CUDA devices
 * index[0..n) (indices as numbered with every GPU visible) and no other:
 *   visible: the variable as the process was given it, or NULL when unset;
 *   gpus: the GPUs the driver has here (its device nodes), -1 if unknown.
 * Returns how many GPUs the backend would have listed (the variable's
 * entries, else gpus) with out set to the new value and ordinal[index[i]]
 * to that device's number within the process (ordinal has
 * LS_CUDA_VISIBLE_MAX entries, -1 for a device not named); 0 when it
 * cannot be narrowed safely (an index past the GPUs there are, an entry
 * the driver might read otherwise than as listed here, nothing to go on):
 * the driver is then left to see what it sees. Pure: no environment, no
 * driver (the tests call it). */
int ls_cuda_visible_for(const char *visible, int gpus, const int *index, int n, char *out, size_t len,
                        int *ordinal);

/* The GPUs whose device nodes (/dev/nvidia0, /dev/nvidia1, ...) this
 * process can see: what CUDA enumerates when CUDA_VISIBLE_DEVICES is
 * unset; -1 when /dev cannot be read. */
int ls_cuda_device_nodes(void);

#endif
