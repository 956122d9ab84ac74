/* life_memory.h - how much memory a Life grid may take on a device: the
 * device's own (a GPU's memory; the host's for OpenMP, where malloc says),
 * or less under the per-device cap that tests set to run grids larger than
 * one device on a set (docs/life.md). Below the device driver
 * (life_gpu.c) and the slabs (life_slab.c), which both ask it. */
#ifndef LOCKSTEP_LIFE_MEMORY_H
#define LOCKSTEP_LIFE_MEMORY_H

#include <stdint.h>

#include "error.h"
#include "set.h"

/* The per-device memory cap for tests: a device is taken to have at most
 * this many bytes (an integer, or with a K, M or G suffix: KiB, MiB,
 * GiB), GPUs and the OpenMP device alike. */
#define LIFE_MEMORY_CAP_ENV "LOCKSTEP_DEVICE_MEMORY_CAP"

/* The memory a Life grid may use on device d: a GPU's own, the host's for
 * OpenMP (unlimited: malloc says), either at most the cap when one is set.
 * 0, or -1 with err->usage set (a cap that is not a size). */
int life_device_memory(const ls_device *d, uint64_t *bytes, ls_error *err);
/* `own` bytes (UINT64_MAX: unlimited) at most the cap when one is set: 0,
 * or -1 with err->usage set. */
int life_memory_under_cap(uint64_t own, uint64_t *bytes, ls_error *err);
/* The largest single allocation on device d: a GPU's (UINT64_MAX where its
 * driver does not say), unlimited on the host (malloc says). */
uint64_t life_device_max_alloc(const ls_device *d);

/* Whether a grid whose cells take `bytes` fits a device with `memory`
 * bytes and single allocations of at most max_alloc: a device holds two
 * generations of it, each one allocation. */
int life_grid_fits(uint64_t bytes, uint64_t memory, uint64_t max_alloc);
/* The largest side n of an n x n (dims 2) or n x n x n (3) grid that fits
 * so (life_grid_fits), within life_grid.h's limits (a side of
 * LIFE_MIN_SIZE to LIFE_MAX_SIZE, at most LIFE_MAX_CELLS cells); 0 when
 * not even the smallest does. */
uint32_t life_largest_side(unsigned dims, uint64_t memory, uint64_t max_alloc);
/* 1 when LOCKSTEP_DEVICE_MEMORY_CAP is set. */
int life_memory_capped(void);

#endif
