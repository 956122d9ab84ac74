/* test_portability.c - bench's efficiency and portability figures
 * (src/commands/portability.h) on made-up timings whose answers are worked
 * out by hand below: the host's CPU reached by OpenMP, PoCL and Intel's
 * runtime is one chip; CUDA and NVIDIA's OpenCL on one GPU are one chip
 * whether matched by UUID or, where OpenCL gives no UUID, by PCI address;
 * a second GPU and a set of devices are not; a failed run makes its path's
 * portability 0. */
#include <math.h>
#include <string.h>

#include "portability.h"

#include "check.h"

static ls_device_info dev(ls_device_kind kind, const char *uuid, const char *pci)
{
    ls_device_info d;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    snprintf(d.uuid, sizeof d.uuid, "%s", uuid);
    snprintf(d.pci, sizeof d.pci, "%s", pci);
    return d;
}

static int near(double a, double b)
{
    return fabs(a - b) < 1e-12;
}

int main(void)
{
    ls_device_info omp = dev(LS_DEVICE_REFERENCE, "", ""), pocl = dev(LS_DEVICE_CPU, "", ""),
                   intel = dev(LS_DEVICE_CPU, "", ""), cuda0 = dev(LS_DEVICE_GPU, "uuid:aa", "pci:0000:18:00"),
                   nvcl0 = dev(LS_DEVICE_GPU, "", "pci:0000:18:00"), cuda1 = dev(LS_DEVICE_GPU, "uuid:bb", "pci:0000:2a:00"),
                   other = dev(LS_DEVICE_GPU, "", "");
    check(ls_same_silicon(&omp, &pocl) && ls_same_silicon(&pocl, &intel), "the host's CPU is one chip by every path");
    check(ls_same_silicon(&cuda0, &nvcl0), "CUDA and NVIDIA's OpenCL match by PCI address without a UUID");
    check(!ls_same_silicon(&cuda0, &cuda1) && !ls_same_silicon(&cuda0, &omp) && !ls_same_silicon(&other, &other),
          "two GPUs, a GPU and the CPU, and a GPU that says nothing are not one chip");

    ls_pp_entry e[] = {
        {"graveler", "openmp", &omp, 1.0, 0},   /* fastest on the host: 1 */
        {"graveler", "opencl", &pocl, 4.0, 0},  /* 1/4 */
        {"graveler", "opencl", &intel, 2.0, 0}, /* 1/2 */
        {"graveler", "cuda", &cuda0, 0.5, 0},   /* fastest on GPU 0: 1 */
        {"graveler", "opencl", &nvcl0, 0.625, 0}, /* 0.5 / 0.625 = 0.8 */
        {"graveler", "cuda", &cuda1, 0.1, 0},   /* alone on GPU 1: 1, though faster than GPU 0 */
        {"graveler", "opencl", NULL, 0.05, 0},  /* a set: no one chip, no efficiency, not a platform */
        {"bmn", "openmp", &omp, 3.0, 0},        /* 2 / 3 */
        {"bmn", "opencl", &pocl, 2.0, 0},       /* fastest for bmn on the host: 1 (graveler's 1.0 s is another workload) */
        {"bmn", "opencl", &intel, 0, 0},        /* failed: 0 */
    };
    int n = (int)(sizeof e / sizeof e[0]);
    ls_pp_efficiencies(e, n);
    const double want[] = {1, 0.25, 0.5, 1, 0.8, 1, 0, 2.0 / 3.0, 1, 0};
    for (int i = 0; i < n; i++) {
        char line[160];
        snprintf(line, sizeof line, "entry %d (%s on %s): efficiency %.6g, got %.6g", i, e[i].workload, e[i].backend,
                 want[i], e[i].efficiency);
        check(near(e[i].efficiency, want[i]), line);
    }
    ls_pp_score s[8];
    int k = ls_pp_scores(e, n, s, 8);
    /* opencl on graveler: three platforms, 1/0.25 + 1/0.5 + 1/0.8 = 4 + 2 + 1.25 = 7.25: 3 / 7.25. */
    struct {
        const char *workload, *backend;
        int platforms;
        double pp;
    } wants[] = {{"graveler", "openmp", 1, 1}, {"graveler", "opencl", 3, 3 / 7.25}, {"graveler", "cuda", 2, 1},
                 {"bmn", "openmp", 1, 2.0 / 3.0}, {"bmn", "opencl", 2, 0}};
    check(k == 5, "one score a workload and path, sets left out");
    for (int i = 0; i < 5 && i < k; i++) {
        char line[200];
        snprintf(line, sizeof line, "%s %s: %d platforms, portability %.6g; got %s %s %d %.6g", wants[i].workload,
                 wants[i].backend, wants[i].platforms, wants[i].pp, s[i].workload, s[i].backend, s[i].platforms,
                 s[i].pp);
        check(strcmp(s[i].workload, wants[i].workload) == 0 && strcmp(s[i].backend, wants[i].backend) == 0 &&
                  s[i].platforms == wants[i].platforms && near(s[i].pp, wants[i].pp),
              line);
    }
    check(ls_pp_scores(e, n, s, 2) == 2, "no more scores than asked for");
    return check_finish();
}
