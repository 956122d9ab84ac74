/* cluster.c - see cluster.h. Built with MPI when meson found it
 * (LS_HAVE_MPI); without, lockstep is always one process and says so when
 * a launcher started several. */
#include "cluster.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <omp.h>

#ifdef LS_HAVE_MPI
#include <mpi.h>
#endif

static int joined; /* MPI_Init done */
static int rank_, size_ = 1, local_rank_, local_size_ = 1;
static char host[256];

int ls_cluster_launched_size(void)
{
    static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && atoi(v) > 0)
            return atoi(v);
    }
    return 1;
}

static int launched(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

const char *ls_cluster_host(void)
{
    if (!host[0] && gethostname(host, sizeof host - 1) != 0)
        snprintf(host, sizeof host, "unknown host");
    return host;
}

int ls_cluster_rank(void)
{
    return rank_;
}

int ls_cluster_size(void)
{
    return size_;
}

int ls_cluster_local_rank(void)
{
    return local_rank_;
}

int ls_cluster_local_size(void)
{
    return local_size_;
}

#ifdef LS_HAVE_MPI

static int mpi_fail(ls_error *err, int code, const char *what)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(code, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", code);
    return ls_fail(err, "MPI: %s failed: %s", what, text);
}

void ls_cluster_library(char *out, size_t len)
{
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    if (MPI_Get_library_version(text, &n) != MPI_SUCCESS)
        snprintf(text, sizeof text, "an MPI library");
    /* Its first line or clause: "Open MPI v4.1.4, package: ..." */
    text[strcspn(text, ",\n")] = 0;
    snprintf(out, len, "%s", text);
}

/* Ranks of one node that are not bound to cores of their own (mpirun
 * --bind-to none, which README advises for ranks of several GPUs) would
 * each run an OpenMP thread on every core: N ranks, N threads a core,
 * spinning in each parallel region's barriers while the others' hold the
 * cores (the Life summary under four such ranks: docs/perf/README.md,
 * 2026-11-26, seventh session). Each takes its share of the
 * node's cores instead, unless OMP_NUM_THREADS says how many. A rank
 * bound to some cores already counts those alone. */
static void share_node_cores(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int mine = omp_get_num_procs(); /* the cores this process may run on */
    if (local_size_ < 2 || getenv("OMP_NUM_THREADS") || online <= 0 || mine < online)
        return;
    int share = mine / local_size_;
    omp_set_num_threads(share > 0 ? share : 1);
}

/* LOCKSTEP_DEBUG_THREADS=1, for the tests: each rank says how many OpenMP
 * threads it runs. */
static void say_threads(void)
{
    if (getenv("LOCKSTEP_DEBUG_THREADS"))
        fprintf(stderr, "lockstep: rank %d of %d on its node: %d OpenMP threads\n", local_rank_, local_size_,
                omp_get_max_threads());
}

int ls_cluster_start(int *argc, char ***argv, ls_error *err)
{
    if (!launched())
        return 0;
    int provided = 0;
    int rc = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    if (rc != MPI_SUCCESS)
        return mpi_fail(err, rc, "joining the job (MPI_Init_thread)");
    joined = 1;
    /* Errors come back to the caller, which says what it was doing. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm node;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        MPI_Comm_rank(node, &local_rank_);
        MPI_Comm_size(node, &local_size_);
        MPI_Comm_free(&node);
    }
    share_node_cores();
    say_threads();
    if (provided < MPI_THREAD_FUNNELED)
        return ls_fail(err, "MPI: this MPI library cannot be used from a program with threads "
                            "(MPI_THREAD_FUNNELED not provided)");
    return 0;
}

void ls_cluster_finish(void)
{
    if (joined)
        MPI_Finalize();
    joined = 0;
}

void ls_cluster_abort(int code)
{
    if (joined)
        MPI_Abort(MPI_COMM_WORLD, code);
    exit(code);
}

/* The line of text that holds offset `at`, as "--seed 7" ("nothing" past
 * the end), for the refusal. */
static void line_at(const char *text, size_t at, char *out, size_t len)
{
    size_t n = strlen(text);
    if (at >= n) {
        snprintf(out, len, "nothing");
        return;
    }
    size_t start = at;
    while (start > 0 && text[start - 1] != '\n')
        start--;
    size_t end = start + strcspn(text + start, "\n");
    snprintf(out, len, "'%.*s'", (int)(end - start), text + start);
}

/* The message of the lowest rank whose text differs from rank 0's (ref). */
static void disagreement(const char *ref, const char *mine, char *msg, size_t len)
{
    size_t at = 0;
    while (ref[at] && ref[at] == mine[at])
        at++;
    char theirs[160], ours[160];
    line_at(mine, at, ours, sizeof ours);
    line_at(ref, at, theirs, sizeof theirs);
    snprintf(msg, len, "MPI rank %d was started with %s where rank 0 has %s: every rank must compute the same "
                       "problem; nothing was run", rank_, ours, theirs);
}

int ls_cluster_agree(const char *mine, ls_error *err)
{
    if (!joined || size_ < 2)
        return 0;
    unsigned long long n = strlen(mine);
    if (MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD) != MPI_SUCCESS || n > (1u << 20))
        return ls_fail(err, "MPI: the ranks could not compare their arguments");
    char *ref = malloc((size_t)n + 1);
    if (!ref)
        return ls_fail(err, "out of memory");
    if (rank_ == 0)
        memcpy(ref, mine, (size_t)n);
    ref[n] = 0;
    int rc = MPI_Bcast(ref, (int)n, MPI_CHAR, 0, MPI_COMM_WORLD);
    int differs = rc != MPI_SUCCESS || strcmp(ref, mine) != 0;
    int first = differs ? rank_ : size_, lowest = size_;
    if (MPI_Allreduce(&first, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS) {
        free(ref);
        return ls_fail(err, "MPI: the ranks could not compare their arguments");
    }
    if (lowest == size_) {
        free(ref);
        return 0;
    }
    char msg[sizeof err->msg] = "";
    if (rank_ == lowest)
        disagreement(ref, mine, msg, sizeof msg);
    free(ref);
    if (MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, lowest, MPI_COMM_WORLD) != MPI_SUCCESS)
        snprintf(msg, sizeof msg, "MPI rank %d was started with other arguments than rank 0; nothing was run", lowest);
    msg[sizeof msg - 1] = 0;
    return ls_fail_usage(err, "%s", msg);
}

int ls_cluster_count_failed(int ok)
{
    if (!joined)
        return !ok;
    int failed = !ok, total = 0;
    if (MPI_Allreduce(&failed, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS)
        return size_;
    return total;
}

int ls_cluster_send(int rank, int tag, const void *data, size_t len, ls_error *err)
{
    if (!joined)
        return ls_fail(err, "MPI: not in a job");
    if (len > INT32_MAX)
        return ls_fail(err, "MPI: a message of %zu bytes is too long", len);
    int rc = MPI_Send(data, (int)len, MPI_BYTE, rank, tag, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        char what[64];
        snprintf(what, sizeof what, "sending to rank %d", rank);
        return mpi_fail(err, rc, what);
    }
    return 0;
}

int ls_cluster_poll(int *rank, int *tag, void **data, size_t *len, ls_error *err)
{
    if (!joined)
        return 0;
    int flag = 0, count = 0;
    MPI_Status st;
    int rc = MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (rc != MPI_SUCCESS)
        return mpi_fail(err, rc, "waiting for messages");
    if (!flag)
        return 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    void *buf = malloc(count > 0 ? (size_t)count : 1);
    if (!buf)
        return ls_fail(err, "out of memory for a message of %d bytes from rank %d", count, st.MPI_SOURCE);
    rc = MPI_Recv(buf, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) {
        free(buf);
        char what[64];
        snprintf(what, sizeof what, "receiving from rank %d", st.MPI_SOURCE);
        return mpi_fail(err, rc, what);
    }
    *rank = st.MPI_SOURCE;
    *tag = st.MPI_TAG;
    *data = buf;
    *len = (size_t)count;
    return 1;
}

#else /* one process: no MPI in this build */

void ls_cluster_library(char *out, size_t len)
{
    if (len)
        out[0] = 0;
}

int ls_cluster_start(int *argc, char ***argv, ls_error *err)
{
    (void)argc;
    (void)argv;
    if (launched() && ls_cluster_launched_size() > 1)
        return ls_fail(err, "started by an MPI launcher as %d processes, but this lockstep was built without "
                            "MPI (install libopenmpi-dev and configure with meson -Dmpi=enabled)",
                       ls_cluster_launched_size());
    return 0;
}

void ls_cluster_finish(void)
{
    (void)joined;
}

void ls_cluster_abort(int code)
{
    exit(code);
}

int ls_cluster_count_failed(int ok)
{
    return !ok;
}

int ls_cluster_agree(const char *mine, ls_error *err)
{
    (void)mine;
    (void)err;
    return 0;
}

int ls_cluster_send(int rank, int tag, const void *data, size_t len, ls_error *err)
{
    (void)rank;
    (void)tag;
    (void)data;
    (void)len;
    return ls_fail(err, "MPI: this lockstep was built without MPI");
}

int ls_cluster_poll(int *rank, int *tag, void **data, size_t *len, ls_error *err)
{
    (void)rank;
    (void)tag;
    (void)data;
    (void)len;
    (void)err;
    return 0;
}

#endif

/* ---- collectives of work that every rank shares (the slab runner) --- */

#ifdef LS_HAVE_MPI

/* MPI counts are ints: longer buffers go in pieces of this many bytes. */
#define LS_CLUSTER_PIECE ((size_t)1 << 30)

static size_t pieces(size_t len)
{
    return len ? (len + LS_CLUSTER_PIECE - 1) / LS_CLUSTER_PIECE : 1;
}

int ls_cluster_bcast(void *data, size_t len, ls_error *err)
{
    if (!joined)
        return 0;
    for (size_t at = 0; at < len; at += LS_CLUSTER_PIECE) {
        size_t n = len - at < LS_CLUSTER_PIECE ? len - at : LS_CLUSTER_PIECE;
        int rc = MPI_Bcast((char *)data + at, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS)
            return mpi_fail(err, rc, "sharing rank 0's decision (MPI_Bcast)");
    }
    return 0;
}

int ls_cluster_allgather(const void *mine, void *all, size_t len, ls_error *err)
{
    if (!joined) {
        memcpy(all, mine, len);
        return 0;
    }
    if (len > LS_CLUSTER_PIECE)
        return ls_fail(err, "MPI: %zu bytes from every rank is more than this gathers at once", len);
    int rc = MPI_Allgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, MPI_COMM_WORLD);
    return rc == MPI_SUCCESS ? 0 : mpi_fail(err, rc, "gathering from every rank (MPI_Allgather)");
}

int ls_cluster_sum(uint64_t *value, ls_error *err)
{
    if (!joined)
        return 0;
    unsigned long long mine = *value, sum = 0;
    int rc = MPI_Allreduce(&mine, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS)
        return mpi_fail(err, rc, "adding up over the ranks (MPI_Allreduce)");
    *value = sum;
    return 0;
}

/* Starts the pieces of one message (send or receive) into req. */
static int start_message(const ls_cluster_msg *m, int send, MPI_Request *req, int *nreq, ls_error *err)
{
    if (m->rank == rank_ || m->rank < 0 || m->rank >= size_)
        return ls_fail(err, "internal error: a message %s rank %d from rank %d", send ? "to" : "from", m->rank, rank_);
    for (size_t at = 0; at < m->len || (at == 0 && m->len == 0); at += LS_CLUSTER_PIECE) {
        size_t n = m->len - at < LS_CLUSTER_PIECE ? m->len - at : LS_CLUSTER_PIECE;
        char *p = (char *)m->data + at;
        int rc = send ? MPI_Isend(p, (int)n, MPI_BYTE, m->rank, m->tag, MPI_COMM_WORLD, &req[*nreq])
                      : MPI_Irecv(p, (int)n, MPI_BYTE, m->rank, m->tag, MPI_COMM_WORLD, &req[*nreq]);
        if (rc != MPI_SUCCESS) {
            char what[64];
            snprintf(what, sizeof what, "%s rank %d", send ? "sending to" : "receiving from", m->rank);
            return mpi_fail(err, rc, what);
        }
        ++*nreq;
        if (m->len == 0)
            break;
    }
    return 0;
}

/* The rank of the first message whose request failed, for the message:
 * the requests are the pieces of the messages of a, then of b, in order. */
static int failed_peer(const ls_cluster_msg *a, int na, const ls_cluster_msg *b, int nb, const MPI_Status *st,
                       int nreq)
{
    int k = 0;
    for (int i = 0; i < na + nb; i++) {
        const ls_cluster_msg *m = i < na ? &a[i] : &b[i - na];
        for (size_t p = 0; p < pieces(m->len) && k < nreq; p++, k++)
            if (st[k].MPI_ERROR != MPI_SUCCESS && st[k].MPI_ERROR != MPI_ERR_PENDING)
                return m->rank;
    }
    return -1;
}

int ls_cluster_exchange(const ls_cluster_msg *sends, int nsends, const ls_cluster_msg *recvs, int nrecvs,
                        ls_error *err)
{
    if (nsends + nrecvs == 0)
        return 0;
    if (!joined)
        return ls_fail(err, "internal error: a message between ranks outside an MPI job");
    size_t total = 0;
    for (int i = 0; i < nsends + nrecvs; i++)
        total += pieces(i < nsends ? sends[i].len : recvs[i - nsends].len);
    MPI_Request *req = malloc(total * sizeof *req);
    MPI_Status *st = malloc(total * sizeof *st);
    if (!req || !st) {
        free(req);
        free(st);
        return ls_fail(err, "out of memory for %zu messages", total);
    }
    int nreq = 0, rc = 0;
    /* Receives first, so that every send finds its receive posted. */
    for (int i = 0; i < nrecvs && rc == 0; i++)
        rc = start_message(&recvs[i], 0, req, &nreq, err);
    for (int i = 0; i < nsends && rc == 0; i++)
        rc = start_message(&sends[i], 1, req, &nreq, err);
    int wrc = MPI_Waitall(nreq, req, st);
    if (rc == 0 && wrc != MPI_SUCCESS) {
        int peer = failed_peer(recvs, nrecvs, sends, nsends, st, nreq);
        char what[64];
        snprintf(what, sizeof what, "exchanging data with rank %d", peer);
        rc = mpi_fail(err, wrc, what);
    }
    free(req);
    free(st);
    return rc;
}

#else /* one process */

int ls_cluster_bcast(void *data, size_t len, ls_error *err)
{
    (void)data;
    (void)len;
    (void)err;
    return 0;
}

int ls_cluster_allgather(const void *mine, void *all, size_t len, ls_error *err)
{
    (void)err;
    memcpy(all, mine, len);
    return 0;
}

int ls_cluster_sum(uint64_t *value, ls_error *err)
{
    (void)value;
    (void)err;
    return 0;
}

int ls_cluster_exchange(const ls_cluster_msg *sends, int nsends, const ls_cluster_msg *recvs, int nrecvs,
                        ls_error *err)
{
    (void)sends;
    (void)recvs;
    if (nsends + nrecvs == 0)
        return 0;
    return ls_fail(err, "MPI: this lockstep was built without MPI");
}

#endif
