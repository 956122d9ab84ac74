/* workloads.c - the workload registry and small helpers they share. */
#include <string.h>

#include "workload.h"

extern const ls_workload ls_workload_graveler;
extern const ls_workload ls_workload_bmn;

const ls_workload *const ls_workloads[] = {
    &ls_workload_graveler,
    &ls_workload_bmn,
    NULL,
};

const ls_workload *ls_workload_find(const char *name)
{
    for (int i = 0; ls_workloads[i]; i++)
        if (strcmp(ls_workloads[i]->name, name) == 0)
            return ls_workloads[i];
    return NULL;
}

uint64_t ls_fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

void ls_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}
