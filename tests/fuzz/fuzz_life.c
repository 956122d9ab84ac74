/* fuzz_life.c - libFuzzer harness for Life's file readers and its rule
 * notation: the first byte picks the reader (PKU, native, RLE, plaintext,
 * rule), the rest is the file. Any input must be read or refused with a
 * message, never crash, hang or allocate without bound; what a pattern
 * reader accepts must place on a small grid or be refused, and an accepted
 * rule must print and parse back to itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "life_io.h"
#include "life_rule.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void refused(const ls_error *err)
{
    if (!memchr(err->msg, 0, sizeof err->msg) || !err->msg[0])
        abort(); /* a refusal always says why */
}

static void read_grid(int native, FILE *f)
{
    life_grid g;
    life_meta meta;
    ls_error err = {{0}, 0};
    memset(&g, 0, sizeof g);
    if ((native ? life_read_native(f, "fuzz", &g, &meta, &err) : life_read_pku(f, "fuzz", &g, &meta, &err)) != 0) {
        refused(&err);
        return;
    }
    life_grid_free(&g);
}

static void read_pattern(int rle, FILE *f)
{
    life_pattern p;
    ls_error err = {{0}, 0};
    memset(&p, 0, sizeof p);
    if ((rle ? life_read_rle(f, "fuzz", &p, &err) : life_read_cells(f, "fuzz", &p, &err)) != 0) {
        refused(&err);
        return;
    }
    life_grid g;
    if (life_grid_init(&g, 2, 64, 64, 1, &err) == 0) {
        if (life_place(&g, &p, NULL, &err) != 0)
            refused(&err);
        life_grid_free(&g);
    }
    life_pattern_free(&p);
}

static void parse_rule(const unsigned char *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return;
    memcpy(text, data, size);
    text[size] = 0;
    for (unsigned dims = 2; dims <= 3; dims++) {
        life_rule r, back;
        ls_error err = {{0}, 0};
        if (life_rule_parse(text, dims, &r, &err) != 0) {
            refused(&err);
            continue;
        }
        char printed[256];
        life_rule_format(r, printed, sizeof printed);
        if (life_rule_parse(printed, dims, &back, &err) != 0 || back.birth != r.birth || back.survive != r.survive)
            abort(); /* a printed rule reads back as the same rule */
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned which = data[0] % 5;
    if (which == 4) {
        parse_rule(data + 1, size - 1);
        return 0;
    }
    FILE *f = fmemopen((void *)(data + 1), size - 1 ? size - 1 : 1, "rb");
    if (!f)
        return 0;
    if (size == 1)
        fseek(f, 0, SEEK_END); /* an empty file */
    if (which < 2)
        read_grid(which == 1, f);
    else
        read_pattern(which == 2, f);
    fclose(f);
    return 0;
}
