/* test_rng.c - the random streams against published answers.
 *
 *  - ls_philox4x32_10 (src/algo/philox.h) against Random123's known-answer
 *    vectors (kat_vectors, philox4x32 with 10 rounds) and against
 *    Random123's own philox.h on many random inputs;
 *  - grv_mwc_next (packed 64-bit state) against MWC64X as David Thomas
 *    published it (separate x and c, carry found by comparison), from
 *    many random states, and the period-breaking fixed points excluded by
 *    grv_stream_state. */
#include <Random123/philox.h>
#include <stdio.h>

#include "graveler.h"
#include <stdint.h>

#include "check.h"

static void test_philox_kat(void)
{
    /* Random123 kat_vectors: philox4x32 10 rounds, ctr[4] key[2] -> out[4]. */
    static const uint32_t kat[3][10] = {
        {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
        {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d, 0x41c83b0e,
         0xa20bc7c6, 0x6d5451fd},
        {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09, 0x94fdcceb,
         0x5001e420, 0x24126ea1},
    };
    for (int i = 0; i < 3; i++) {
        ls_philox_ctr c = {{kat[i][0], kat[i][1], kat[i][2], kat[i][3]}};
        ls_philox_key k = {{kat[i][4], kat[i][5]}};
        ls_philox_ctr r = ls_philox4x32_10(c, k);
        char what[64];
        snprintf(what, sizeof what, "philox4x32-10 known-answer vector %d", i);
        check(r.v[0] == kat[i][6] && r.v[1] == kat[i][7] && r.v[2] == kat[i][8] && r.v[3] == kat[i][9], what);
    }
}

static void test_philox_vs_random123(void)
{
    uint32_t x = 2463534242u; /* xorshift32 for the inputs */
    int bad = 0;
    for (int i = 0; i < 100000; i++) {
        uint32_t in[6];
        for (int j = 0; j < 6; j++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            in[j] = x;
        }
        ls_philox_ctr c = {{in[0], in[1], in[2], in[3]}};
        ls_philox_key k = {{in[4], in[5]}};
        ls_philox_ctr r = ls_philox4x32_10(c, k);
        philox4x32_ctr_t rc = {{in[0], in[1], in[2], in[3]}};
        philox4x32_key_t rk = {{in[4], in[5]}};
        philox4x32_ctr_t rr = philox4x32_R(10, rc, rk);
        for (int j = 0; j < 4; j++)
            bad += r.v[j] != rr.v[j];
    }
    check(bad == 0, "philox4x32-10 equals Random123's philox4x32_R(10, ...) on 100000 random inputs");
}

static void test_mwc64x(void)
{
    const uint32_t A = 4294883355u;
    uint32_t r = 2463534242u;
    int bad = 0;
    for (int i = 0; i < 10000; i++) {
        r ^= r << 13;
        r ^= r >> 17;
        r ^= r << 5;
        uint32_t x = r * 2654435761u, c = (r >> 1) % (A - 1);
        grv_mwc g = {((uint64_t)c << 32) | x};
        for (int k = 0; k < 100; k++) {
            uint32_t want = x ^ c;
            uint32_t hi = (uint32_t)(((uint64_t)x * A) >> 32);
            x = x * A + c;
            c = hi + (x < c);
            bad += (uint32_t)grv_mwc_next(&g) != want;
        }
        bad += g.s != (((uint64_t)c << 32) | x);
    }
    check(bad == 0, "MWC64X with packed state equals Thomas's formulation over 1e6 steps");
}

static void test_stream_state(void)
{
    uint64_t a = grv_stream_state(1, 0), b = grv_stream_state(1, 0), c = grv_stream_state(1, 1ull << 32);
    check(a == b, "a stream's state is a pure function of (seed, stream)");
    check(a != c, "the stream counter's high word changes the state");
    int bad = 0;
    for (uint64_t s = 0; s < 100000; s++) {
        uint64_t st = grv_stream_state(s * 977, s);
        uint32_t carry = (uint32_t)(st >> 32);
        bad += carry == 0 || carry > (1u << 31);
    }
    check(bad == 0, "stream states keep 1 <= c <= 2^31, away from MWC64X's fixed points");
}

int main(void)
{
    test_philox_kat();
    test_philox_vs_random123();
    test_mwc64x();
    test_stream_state();
    return check_finish();
}
