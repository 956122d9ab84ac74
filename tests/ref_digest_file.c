/* ref_digest_file.c - the grid digest, version 2, of a native grid file
 * (.lsgrid, docs/life.md), computed from the format's and the digest's
 * definitions alone: the file's packed cells unpacked to a byte a cell,
 * then tests/ref_life.c's ref_digest_v2 (XXH3 over the definition, not
 * life_grid.c). Prints the digest as 16 hex digits and the population.
 *
 * usage: ref_digest_file FILE.lsgrid */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_life.h"

static uint64_t le(const uint8_t *b, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: ref_digest_file FILE.lsgrid\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    uint8_t head[40];
    if (!f || fread(head, 1, sizeof head, f) != sizeof head || memcmp(head, "lslife2\n", 8) != 0) {
        fprintf(stderr, "ref_digest_file: %s is no native grid\n", argv[1]);
        return 1;
    }
    ref_grid g;
    unsigned dims = (unsigned)(le(head + 8, 4) & 0xff);
    ref_init(&g, dims, (uint32_t)le(head + 12, 4), (uint32_t)le(head + 16, 4), (uint32_t)le(head + 20, 4));
    /* The cells in canonical order, 8 a byte, low bit first, rows not padded. */
    uint64_t cells = (uint64_t)g.nx * g.ny * g.nz;
    for (uint64_t k = 0; k < cells; k += 8) {
        int byte = fgetc(f);
        if (byte == EOF) {
            fprintf(stderr, "ref_digest_file: %s is cut short\n", argv[1]);
            return 1;
        }
        for (uint64_t i = 0; i < 8 && k + i < cells; i++)
            g.cells[k + i] = (uint8_t)(byte >> i & 1);
    }
    fclose(f);
    printf("%016" PRIx64 " %" PRIu64 "\n", ref_digest_v2(&g), ref_population(&g));
    ref_free(&g);
    return 0;
}
