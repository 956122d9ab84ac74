/* ref_graveler.c - an independent, deliberately plain Graveler.
 *
 * It shares no code with lockstep's algorithm: stream keys come from
 * Random123's own philox4x32 (Debian's librandom123-dev), MWC64X is written
 * out as in David Thomas's published OpenCL code (separate x and c, carry
 * by comparison), and every trial is decided bit by bit with no popcount
 * and no vectors. It checks the golden table that the
 * conformance suite compiles in (src/workloads/graveler/graveler_golden.h), and with
 * --print it writes that table. */
#include <Random123/philox.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graveler_golden.h"

typedef struct { uint32_t x, c; } mwc64x;

/* D. B. Thomas, "The MWC64X Random Number Generator" (2011). */
static uint32_t mwc64x_next(mwc64x *s)
{
    const uint32_t A = 4294883355u;
    uint32_t res = s->x ^ s->c;
    uint32_t hi = (uint32_t)(((uint64_t)s->x * A) >> 32);
    s->x = s->x * A + s->c;
    s->c = hi + (s->x < s->c);
    return res;
}

static mwc64x stream_start(uint64_t seed, uint64_t stream)
{
    philox4x32_ctr_t c = {{(uint32_t)stream, (uint32_t)(stream >> 32), 0x67726176u, 0}};
    philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    philox4x32_ctr_t r = philox4x32_R(10, c, k);
    mwc64x s = {r.v[0], (r.v[1] >> 1) + 1};
    return s;
}

/* One battle: trials in groups of 32 from word pairs, the tail from one
 * word's halves (<= 16 trials) or a masked pair. */
static unsigned battle(mwc64x *s, unsigned turns)
{
    unsigned wins = 0, done = 0;
    while (turns - done >= 32) {
        uint32_t a = mwc64x_next(s), b = mwc64x_next(s);
        for (int i = 0; i < 32; i++)
            wins += ((a >> i) & 1) && ((b >> i) & 1);
        done += 32;
    }
    unsigned rem = turns - done;
    if (rem > 16) {
        uint32_t a = mwc64x_next(s), b = mwc64x_next(s);
        for (unsigned i = 0; i < rem; i++)
            wins += ((a >> i) & 1) && ((b >> i) & 1);
    } else if (rem > 0) {
        uint32_t a = mwc64x_next(s);
        for (unsigned i = 0; i < rem; i++)
            wins += ((a >> i) & 1) && ((a >> (i + 16)) & 1);
    }
    return wins;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static void run_case(const grv_golden *g, unsigned *max, uint64_t *digest)
{
    uint64_t *hist = calloc(g->turns + 1, sizeof *hist);
    if (!hist) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    uint64_t end = g->first + g->battles;
    for (uint64_t stream = g->first / 64; stream * 64 < end; stream++) {
        mwc64x s = stream_start(g->seed, stream);
        for (uint64_t b = stream * 64; b < stream * 64 + 64; b++) {
            unsigned w = battle(&s, g->turns);
            if (b >= g->first && b < end)
                hist[w]++;
        }
    }
    *max = 0;
    for (unsigned i = 0; i <= g->turns; i++)
        if (hist[i])
            *max = i;
    uint32_t t = g->turns;
    *digest = fnv(fnv(0xcbf29ce484222325ull, &t, 4), hist, (g->turns + 1) * sizeof *hist);
    free(hist);
}

int main(int argc, char **argv)
{
    int print = argc > 1 && strcmp(argv[1], "--print") == 0;
    int failed = 0;
    for (int i = 0; i < GRV_GOLDEN_COUNT; i++) {
        const grv_golden *g = &grv_golden_cases[i];
        unsigned max;
        uint64_t digest;
        run_case(g, &max, &digest);
        if (print) {
            printf("    {%" PRIu64 "ull, %" PRIu64 "ull, %" PRIu64 "ull, %u, %u, 0x%016" PRIx64 "ull},\n", g->seed,
                   g->first, g->battles, g->turns, max, digest);
            continue;
        }
        int ok = max == g->max && digest == g->digest;
        printf("%s golden case %d (seed %" PRIu64 ", first %" PRIu64 ", %" PRIu64 " battles, %u turns): max %u digest %016" PRIx64 "\n",
               ok ? "ok  " : "FAIL", i, g->seed, g->first, g->battles, g->turns, max, digest);
        failed += !ok;
    }
    if (!print)
        printf("%d passed, %d failed\n", GRV_GOLDEN_COUNT - failed, failed);
    return failed ? 1 : 0;
}
