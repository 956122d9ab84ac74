/* hello.c - tiny MPI check: ring exchange of a short message and of a 4 MiB
 * buffer (exercises the vader large-message path), plus an allreduce.
 * Each rank prints one line containing "OK" on success. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG (4u << 20)

int main(int argc, char **argv)
{
    int rank, size, len, bad = 0;
    char host[MPI_MAX_PROCESSOR_NAME], msg[MPI_MAX_PROCESSOR_NAME + 64], got[sizeof msg];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &len);

    int next = (rank + 1) % size, prev = (rank + size - 1) % size;

    snprintf(msg, sizeof msg, "greetings from rank %d on %s", rank, host);
    MPI_Sendrecv(msg, (int)strlen(msg) + 1, MPI_CHAR, next, 1,
                 got, (int)sizeof got, MPI_CHAR, prev, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    char want[64];
    snprintf(want, sizeof want, "greetings from rank %d ", prev);
    if (strncmp(got, want, strlen(want)) != 0)
        bad = 1;

    unsigned char *sb = malloc(BIG), *rb = malloc(BIG);
    for (unsigned i = 0; i < BIG; i++)
        sb[i] = (unsigned char)(i * 7u + (unsigned)rank);
    MPI_Sendrecv(sb, BIG, MPI_BYTE, next, 2, rb, BIG, MPI_BYTE, prev, 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (unsigned i = 0; i < BIG; i++)
        if (rb[i] != (unsigned char)(i * 7u + (unsigned)prev)) { bad = 1; break; }
    free(sb);
    free(rb);

    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != size * (size - 1) / 2)
        bad = 1;

    int anybad = 0;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);

    printf("rank %d/%d host %s pid %d: got \"%s\"; 4MiB ring %s; sum %d -> %s\n",
           rank, size, host, (int)getpid(), got, bad ? "BAD" : "ok", sum,
           anybad ? "FAIL" : "OK");
    fflush(stdout);
    MPI_Finalize();
    return anybad;
}
