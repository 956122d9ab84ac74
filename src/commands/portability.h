/* portability.h - how fast each path to a chip is against the fastest path
 * to the same chip, and Pennycook's performance-portability metric over the
 * platforms a path ran on (bench's efficiency column and summary).
 *
 * A path is a backend; a platform is one device it ran on (an
 * implementation on a chip: PoCL and Intel's runtime on the host's CPU are
 * two). A path's efficiency on a platform is the fastest median of any path
 * to the same chip (ls_same_silicon: OpenMP, PoCL and Intel's runtime share
 * the host's CPU; CUDA and NVIDIA's OpenCL one GPU) over its own median:
 * 1.0 for the fastest, 0 where it did not run. Its portability is the
 * harmonic mean of its efficiencies over its platforms (S. J. Pennycook,
 * J. D. Sewall and V. W. Lee, "A metric for performance portability",
 * 2016): 0 when it failed on any of them. */
#ifndef LOCKSTEP_PORTABILITY_H
#define LOCKSTEP_PORTABILITY_H

#include "backend.h"

/* Whether a and b are the same chip reached by two paths: both the host's
 * CPU (the reference or an OpenCL CPU device), or the same UUID, or the
 * same PCI address (CUDA and NVIDIA's OpenCL on one GPU). */
int ls_same_silicon(const ls_device_info *a, const ls_device_info *b);

typedef struct ls_pp_entry {
    const char *workload;         /* the workload's name */
    const char *backend;          /* the path */
    const ls_device_info *device; /* the platform: NULL for a set of devices, which is no one chip */
    double seconds;               /* its median; 0 when it did not run */
    double efficiency;            /* set by ls_pp_efficiencies; 0 for a set */
} ls_pp_entry;

/* Sets every entry's efficiency against the entries of the same workload
 * on the same chip. */
void ls_pp_efficiencies(ls_pp_entry *e, int n);

typedef struct ls_pp_score {
    const char *workload, *backend;
    int platforms; /* devices the path ran on, or failed on */
    double pp;     /* the harmonic mean of their efficiencies; 0 when any is 0 */
} ls_pp_score;

/* One score a (workload, backend) of the entries, in the order they first
 * appear; at most max. Returns how many. */
int ls_pp_scores(const ls_pp_entry *e, int n, ls_pp_score *out, int max);

#endif
