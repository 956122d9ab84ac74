/* bench/open_probe.cu - what opening CUDA devices costs on this machine,
 * step by step, outside lockstep: the floor under lockstep's "open" phase
 * (--timings). Built and run by bench/life_slabs_costs.sh on a lent machine.
 *
 * usage: open_probe [threads|quick-exit|plain-exit]
 *   threads:    open each device from a thread of its own
 *   quick-exit: end with _exit(0), leaving the contexts to the driver,
 *               instead of destroying them (time the whole process)
 *   plain-exit: return from main, leaving them to the runtime's exit */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define TRY(call)                                                                                                  \
    do {                                                                                                           \
        cudaError_t st_ = (call);                                                                                  \
        if (st_ != cudaSuccess) {                                                                                  \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(st_));                                           \
            exit(1);                                                                                               \
        }                                                                                                          \
    } while (0)

static double t_start;

static void mark(const char *what, double t0)
{
    printf("  %-44s %8.1f ms  (at %8.1f ms)\n", what, (now() - t0) * 1e3, (now() - t_start) * 1e3);
}

static void *open_one(void *arg)
{
    int d = (int)(long)arg;
    double t0 = now();
    TRY(cudaSetDevice(d));
    TRY(cudaFree(0));
    char what[64];
    snprintf(what, sizeof what, "device %d: context (thread)", d);
    mark(what, t0);
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 && strcmp(argv[1], "threads") == 0;
    int quick_exit = argc > 1 && strcmp(argv[1], "quick-exit") == 0;
    int plain_exit = argc > 1 && strcmp(argv[1], "plain-exit") == 0;
    t_start = now();
    double t0 = now();
    int n = 0;
    TRY(cudaGetDeviceCount(&n));
    mark("cudaGetDeviceCount (driver init)", t0);
    if (threads) {
        pthread_t th[16];
        t0 = now();
        for (int d = 0; d < n && d < 16; d++)
            pthread_create(&th[d], NULL, open_one, (void *)(long)d);
        for (int d = 0; d < n && d < 16; d++)
            pthread_join(th[d], NULL);
        mark("all contexts, a thread each", t0);
    }
    for (int d = 0; d < n; d++) {
        char what[64];
        t0 = now();
        TRY(cudaSetDevice(d));
        TRY(cudaFree(0));
        snprintf(what, sizeof what, "device %d: context", d);
        mark(what, t0);
        t0 = now();
        cudaDeviceProp prop;
        TRY(cudaGetDeviceProperties(&prop, d));
        cudaStream_t s[2];
        for (int q = 0; q < 2; q++)
            TRY(cudaStreamCreateWithFlags(&s[q], cudaStreamNonBlocking));
        snprintf(what, sizeof what, "device %d: properties, two streams", d);
        mark(what, t0);
        t0 = now();
        void *p;
        TRY(cudaMalloc(&p, (size_t)1 << 29));
        TRY(cudaMemset(p, 0, (size_t)1 << 29));
        TRY(cudaDeviceSynchronize());
        snprintf(what, sizeof what, "device %d: 512 MiB allocated and zeroed", d);
        mark(what, t0);
        t0 = now();
        void *h;
        TRY(cudaHostAlloc(&h, (size_t)64 << 20, cudaHostAllocDefault));
        snprintf(what, sizeof what, "device %d: 64 MiB page-locked", d);
        mark(what, t0);
    }
    for (int d = 0; d < n; d++)
        for (int e = 0; e < n; e++) {
            int can = 0;
            if (d == e || cudaDeviceCanAccessPeer(&can, d, e) != cudaSuccess || !can)
                continue;
            t0 = now();
            TRY(cudaSetDevice(d));
            TRY(cudaDeviceEnablePeerAccess(e, 0));
            char what[64];
            snprintf(what, sizeof what, "peer access %d -> %d", d, e);
            mark(what, t0);
        }
    if (quick_exit) {
        fflush(stdout);
        _exit(0);
    }
    if (plain_exit)
        return 0;
    t0 = now();
    for (int d = 0; d < n; d++) {
        TRY(cudaSetDevice(d));
        TRY(cudaDeviceReset());
    }
    mark("every context destroyed", t0);
    return 0;
}
