/* portability.c - efficiency against the fastest path to the same chip,
 * and the harmonic mean over platforms (portability.h). */
#include <string.h>

#include "portability.h"

int ls_same_silicon(const ls_device_info *a, const ls_device_info *b)
{
    int host_a = a->kind == LS_DEVICE_REFERENCE || a->kind == LS_DEVICE_CPU;
    int host_b = b->kind == LS_DEVICE_REFERENCE || b->kind == LS_DEVICE_CPU;
    if (host_a || host_b)
        return host_a && host_b;
    return (a->uuid[0] && strcmp(a->uuid, b->uuid) == 0) || (a->pci[0] && strcmp(a->pci, b->pci) == 0);
}

void ls_pp_efficiencies(ls_pp_entry *e, int n)
{
    for (int i = 0; i < n; i++) {
        e[i].efficiency = 0;
        if (!e[i].device || !(e[i].seconds > 0))
            continue;
        double fastest = e[i].seconds;
        for (int j = 0; j < n; j++)
            if (e[j].device && e[j].seconds > 0 && e[j].seconds < fastest &&
                strcmp(e[j].workload, e[i].workload) == 0 && ls_same_silicon(e[i].device, e[j].device))
                fastest = e[j].seconds;
        e[i].efficiency = fastest / e[i].seconds;
    }
}

int ls_pp_scores(const ls_pp_entry *e, int n, ls_pp_score *out, int max)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (!e[i].device)
            continue;
        int s = 0;
        while (s < k && !(strcmp(out[s].workload, e[i].workload) == 0 && strcmp(out[s].backend, e[i].backend) == 0))
            s++;
        if (s == k) {
            if (k == max)
                continue;
            out[k++] = (ls_pp_score){e[i].workload, e[i].backend, 0, 0};
        }
        out[s].platforms++;
    }
    for (int s = 0; s < k; s++) {
        double inverse = 0;
        int failed = 0;
        for (int i = 0; i < n; i++)
            if (e[i].device && strcmp(out[s].workload, e[i].workload) == 0 &&
                strcmp(out[s].backend, e[i].backend) == 0) {
                failed |= !(e[i].efficiency > 0);
                inverse += e[i].efficiency > 0 ? 1.0 / e[i].efficiency : 0;
            }
        out[s].pp = failed || !(inverse > 0) ? 0 : out[s].platforms / inverse;
    }
    return k;
}
