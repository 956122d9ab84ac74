/* cuda_visible.c - the GPUs a process that names its CUDA devices lets the
 * driver initialise (cuda_visible.h). */
#include "cuda_visible.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An entry the driver reads as listed: an index below gpus (when known),
 * or a UUID, of a GPU ("GPU-8932f937-...", or its start) or of a MIG
 * instance ("MIG-GPU-.../1/0", "MIG-..."). Anything else (a space, a sign, a name) the driver
 * may take otherwise, or as the end of the list: not narrowed. */
static int plain_entry(const char *s, size_t len, int gpus)
{
    if (len == 0)
        return 0;
    if (strspn(s, "0123456789") >= len) {
        if (len > 4)
            return 0;
        int v = atoi(s);
        return gpus < 0 || v < gpus;
    }
    if (len <= 4 || (strncmp(s, "GPU-", 4) != 0 && strncmp(s, "MIG-", 4) != 0))
        return 0;
    for (size_t i = 4; i < len; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '/')
            return 0;
    return 1;
}

int ls_cuda_visible_for(const char *visible, int gpus, const int *index, int n, char *out, size_t len,
                        int *ordinal)
{
    const char *entry[LS_CUDA_VISIBLE_MAX];
    size_t entry_len[LS_CUDA_VISIBLE_MAX];
    int count = 0;
    if (n < 1 || len == 0)
        return 0;
    if (visible) {
        for (const char *s = visible;; s++) {
            const char *comma = strchr(s, ',');
            size_t l = comma ? (size_t)(comma - s) : strlen(s);
            if (count == LS_CUDA_VISIBLE_MAX || !plain_entry(s, l, gpus))
                return 0;
            for (int e = 0; e < count; e++)
                if (entry_len[e] == l && strncmp(entry[e], s, l) == 0)
                    return 0; /* named twice: how the driver counts it is not said */
            entry[count] = s;
            entry_len[count++] = l;
            if (!comma)
                break;
            s = comma;
        }
    } else {
        if (gpus < 1)
            return 0;
        count = gpus < LS_CUDA_VISIBLE_MAX ? gpus : LS_CUDA_VISIBLE_MAX;
    }
    int wanted[LS_CUDA_VISIBLE_MAX] = {0};
    for (int i = 0; i < n; i++) {
        if (index[i] < 0 || index[i] >= count)
            return 0;
        wanted[index[i]] = 1;
    }
    size_t used = 0;
    out[0] = 0;
    for (int d = 0, k = 0; d < LS_CUDA_VISIBLE_MAX; d++) {
        ordinal[d] = -1;
        if (d >= count || !wanted[d])
            continue;
        int w = visible ? snprintf(out + used, len - used, "%s%.*s", k ? "," : "", (int)entry_len[d], entry[d])
                        : snprintf(out + used, len - used, "%s%d", k ? "," : "", d);
        if (w < 0 || (size_t)w >= len - used)
            return 0;
        used += (size_t)w;
        ordinal[d] = k++;
    }
    return count;
}

int ls_cuda_device_nodes(void)
{
    DIR *dev = opendir("/dev");
    if (!dev)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dev)))
        if (strncmp(e->d_name, "nvidia", 6) == 0 && e->d_name[6] &&
            strspn(e->d_name + 6, "0123456789") == strlen(e->d_name + 6))
            n++;
    closedir(dev);
    return n;
}
