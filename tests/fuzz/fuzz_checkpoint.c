/* fuzz_checkpoint.c - libFuzzer harness for the checkpoint reader: the
 * input is written as a checkpoint file and read the way `bmn report` and
 * a resume read one (bmn_ckpt_read: store checks, every record replayed,
 * digest). Anything must be read or refused with one line, never crash;
 * what is accepted must be a consistent search state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bmn_search.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static char path[64];

/* The file every input is written to: in tmpfs when there is one. */
static const char *scratch(void)
{
    if (!path[0]) {
        snprintf(path, sizeof path, "%s/lockstep-fuzz-%d.ckpt", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp",
                 (int)getpid());
    }
    return path;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    const char *p = scratch();
    char wal[80];
    snprintf(wal, sizeof wal, "%s-wal", p);
    unlink(wal);
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    bmn_params params;
    bmn_state *st = calloc(1, sizeof *st);
    ls_error err = {{0}, 0};
    if (!st)
        return 0;
    if (bmn_ckpt_read(p, &params, st, NULL, &err) == 0) {
        uint64_t games = 0;
        for (uint32_t b = 0; b < BMN_HIST_BINS; b++)
            games += st->hist[b];
        if (games != st->finished || st->n_cards > st->k || st->n_tricks > st->k)
            abort(); /* accepted, yet inconsistent */
        free(st->loops);
    } else if (!err.msg[0] || strchr(err.msg, '\n')) {
        abort(); /* a refusal is one line */
    }
    free(st);
    unlink(p);
    return 0;
}
