/* ref_digest_file.c - the grid digest, version 2, of a native grid file
 * (.lsgrid, docs/life.md), computed from the format's and the digest's
 * definitions alone: the file's packed cells unpacked to a byte a cell,
 * then tests/ref_life.c's ref_digest_v2 (XXH3 over the definition, not
 * life_grid.c). Prints the digest as 16 hex digits and the population.
 *
 * Both layouts lockstep reads: lslife3 (each row padded to a byte, then
 * the trailer: the grid digest and XXH3, seed 3, of the header and that
 * digest), whose trailer is checked against the cells and the header
 * here (exit 1 when it does not hold), and lslife2 (rows not padded, an
 * FNV-1a checksum, not checked here).
 *
 * usage: ref_digest_file FILE.lsgrid */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "ref_life.h"

static uint64_t le(const uint8_t *b, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

/* The next n bytes of f, or exit 1 naming the file cut short. */
static void bytes(FILE *f, const char *name, uint8_t *out, size_t n)
{
    if (fread(out, 1, n, f) != n) {
        fprintf(stderr, "ref_digest_file: %s is cut short\n", name);
        exit(1);
    }
}

/* lslife3's trailer: the digest it records is the cells', and its check
 * covers the header and that digest. */
static int trailer_holds(const uint8_t *head, const uint8_t *trailer, uint64_t digest)
{
    uint8_t covered[48];
    memcpy(covered, head, 40);
    memcpy(covered + 40, trailer, 8);
    return le(trailer, 8) == digest && le(trailer + 8, 8) == XXH3_64bits_withSeed(covered, sizeof covered, 3);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: ref_digest_file FILE.lsgrid\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    uint8_t head[40], trailer[16], byte;
    if (!f || fread(head, 1, sizeof head, f) != sizeof head ||
        (memcmp(head, "lslife3\n", 8) != 0 && memcmp(head, "lslife2\n", 8) != 0)) {
        fprintf(stderr, "ref_digest_file: %s is no native grid\n", argv[1]);
        return 1;
    }
    int padded = head[6] == '3';
    ref_grid g;
    unsigned dims = (unsigned)(le(head + 8, 4) & 0xff);
    ref_init(&g, dims, (uint32_t)le(head + 12, 4), (uint32_t)le(head + 16, 4), (uint32_t)le(head + 20, 4));
    /* The cells in canonical order, 8 a byte, low bit first; lslife3
     * starts each row on a byte. */
    uint64_t rows = (uint64_t)g.ny * g.nz, bit = 0;
    for (uint64_t r = 0; r < rows; r++) {
        for (uint64_t x = 0; x < g.nx; x++, bit++) {
            if (bit % 8 == 0)
                bytes(f, argv[1], &byte, 1);
            g.cells[r * g.nx + x] = (uint8_t)(byte >> (bit % 8) & 1);
        }
        if (padded)
            bit = (bit + 7) / 8 * 8;
    }
    uint64_t digest = ref_digest_v2(&g);
    if (padded) {
        bytes(f, argv[1], trailer, sizeof trailer);
        if (!trailer_holds(head, trailer, digest)) {
            fprintf(stderr, "ref_digest_file: %s: its trailer (digest %016" PRIx64 ", check %016" PRIx64
                            ") is not its cells' digest %016" PRIx64 " and the check of its header\n",
                    argv[1], le(trailer, 8), le(trailer + 8, 8), digest);
            return 1;
        }
    }
    fclose(f);
    printf("%016" PRIx64 " %" PRIu64 "\n", digest, ref_population(&g));
    ref_free(&g);
    return 0;
}
