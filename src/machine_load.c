/* machine_load.c - see machine_load.h. */
#include "machine_load.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "progress.h"

/* Every core's busy and stolen seconds from /proc/stat's first line
 * ("cpu user nice system idle iowait irq softirq steal ..."; guest time
 * is counted in user already). 0, or -1 where it cannot be read. */
static int read_proc_stat(double *busy, double *steal)
{
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return -1;
    unsigned long long user, nice, system, idle, iowait, irq, softirq, stolen;
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system, &idle, &iowait, &irq,
                   &softirq, &stolen);
    fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    if (n != 8 || hz <= 0)
        return -1;
    *busy = (double)(user + nice + system + irq + softirq + stolen) / (double)hz;
    *steal = (double)stolen / (double)hz;
    return 0;
}

static double self_cpu_seconds(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
           1e-6 * (double)ru.ru_stime.tv_usec;
}

void ls_load_mark_now(ls_load_mark *m)
{
    memset(m, 0, sizeof *m);
    m->wall = ls_now();
    m->self_cpu = self_cpu_seconds();
    m->known = read_proc_stat(&m->busy, &m->steal) == 0;
}

static double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

void ls_machine_load_since(const ls_load_mark *start, ls_machine_load *out)
{
    ls_load_mark end;
    ls_load_mark_now(&end);
    memset(out, 0, sizeof *out);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    out->cores = cores > 0 ? (int)cores : 1;
    out->seconds = end.wall - start->wall;
    double avg[1];
    out->load_average = getloadavg(avg, 1) == 1 ? avg[0] : -1;
    out->known = start->known && end.known && out->seconds > 0;
    if (out->known) {
        double others = (end.busy - start->busy) - (end.self_cpu - start->self_cpu);
        out->others = clamp(others / out->seconds, 0, out->cores);
        out->steal = clamp((end.steal - start->steal) / out->seconds, 0, out->cores);
    }
    out->measured = out->known && out->seconds >= LS_LOAD_MIN_SECONDS;
    out->busy = out->measured ? out->others >= LS_LOAD_BUSY_CORES : out->load_average >= LS_LOAD_BUSY_CORES;
}

void ls_machine_load_json(FILE *out, const ls_machine_load *l)
{
    int judged = l->measured || l->load_average >= 0;
    fprintf(out, "\"machine\":{\"busy\":%s,\"cores\":%d,\"seconds\":%.6f,\"others_cores\":",
            judged ? (l->busy ? "true" : "false") : "null", l->cores, l->seconds);
    if (l->known)
        fprintf(out, "%.3f,\"steal_cores\":%.3f", l->others, l->steal);
    else
        fputs("null,\"steal_cores\":null", out);
    fputs(",\"load_average\":", out);
    if (l->load_average >= 0)
        fprintf(out, "%.2f}", l->load_average);
    else
        fputs("null}", out);
}

void ls_machine_load_text(const ls_machine_load *l, int brief, char *out, size_t len)
{
    char load[64] = "", steal[64] = "";
    if (l->load_average >= 0)
        snprintf(load, sizeof load, "load average %.2f", l->load_average);
    if (l->steal >= 0.05 && !brief)
        snprintf(steal, sizeof steal, " (%.1f of them stolen by the hypervisor)", l->steal);
    const char *state = l->busy ? "busy" : "idle";
    if (l->measured)
        snprintf(out, len, "%s: other programs used %.1f of %d cores while it ran%s%s%s", state, l->others, l->cores,
                 steal, load[0] && !brief ? ", " : "", brief ? "" : load);
    else if (load[0])
        snprintf(out, len, "%s: %s on %d cores%s", state, load, l->cores,
                 brief ? "" : " (too short a run to measure what other programs used)");
    else
        snprintf(out, len, "not known (no /proc/stat here)");
}
