/* fuzz_life.c - libFuzzer harness for Life's file readers and its rule
 * notation (B/S, S/B order, names, grid suffixes): the first byte picks the reader (its low 7 bits modulo 7:
 * PKU, native, RLE, plaintext, rule, PNG, macrocell) and whether the file is read as
 * a pipe (its high bit: a stream that cannot seek, so the readers' paths
 * for input of unknown length run), the rest is the file. Any input must
 * be read or refused with a message, never crash, hang or allocate without
 * bound; what a pattern reader accepts must place on a small grid or be
 * refused, and an accepted rule must print and parse back to itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "life_io.h"
#include "life_mc.h"
#include "life_text.h"
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

enum { READ_PKU, READ_NATIVE, READ_RLE, READ_CELLS, PARSE_RULE, READ_PNG, READ_MC, READERS };

static void read_pattern(int which, FILE *f)
{
    life_pattern p;
    ls_error err = {{0}, 0};
    memset(&p, 0, sizeof p);
    int rc = which == READ_RLE     ? life_read_rle(f, "fuzz", NULL, &p, &err)
             : which == READ_CELLS ? life_read_cells(f, "fuzz", NULL, &p, &err)
             : which == READ_MC    ? life_read_mc(f, "fuzz", NULL, &p, &err)
                                   : life_read_png(f, "fuzz", NULL, &p, &err);
    if (rc != 0) {
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

/* The sides of a suffix as a grid of dims has them (one side: all). */
static uint32_t side(const life_topology *t, unsigned i)
{
    return t->sides == 1 ? t->size[0] : t->size[i];
}

/* A rule (names, S/B order, B/S) with or without Golly's grid suffix: for
 * an unknown dimension (0), 2D and 3D. What is accepted prints as B/S
 * text and a suffix that read back as the same rule and grid. */
static void parse_rule(const unsigned char *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return;
    memcpy(text, data, size);
    text[size] = 0;
    for (unsigned dims = 0; dims <= 3; dims++) {
        if (dims == 1)
            continue;
        life_rule_spec spec, back;
        ls_error err = {{0}, 0};
        if (life_rule_parse_spec(text, dims, &spec, &err) != 0) {
            refused(&err);
            continue;
        }
        unsigned grid_dims = dims ? dims : spec.dims ? spec.dims : 3;
        char printed[256], suffix[LIFE_TOPOLOGY_TEXT] = "";
        life_rule_format(spec.rule, printed, sizeof printed);
        if (spec.grid.given)
            life_topology_format(spec.grid.bounded, grid_dims, side(&spec.grid, 0), side(&spec.grid, 1),
                                 side(&spec.grid, 2), suffix, sizeof suffix);
        strcat(printed, suffix);
        if (life_rule_parse_spec(printed, grid_dims, &back, &err) != 0 || back.rule.birth != spec.rule.birth ||
            back.rule.survive != spec.rule.survive || back.grid.given != spec.grid.given ||
            back.grid.bounded != spec.grid.bounded)
            abort(); /* a printed rule reads back as the same rule and grid */
        for (unsigned i = 0; spec.grid.given && i < grid_dims; i++)
            if (side(&back.grid, i) != side(&spec.grid, i))
                abort();
    }
    free(text);
}

/* A pipe: the bytes, read in order, with no seeking (ftello fails). */
typedef struct pipe_bytes {
    const unsigned char *data;
    size_t size, at;
} pipe_bytes;

static ssize_t pipe_read(void *cookie, char *buf, size_t n)
{
    pipe_bytes *p = cookie;
    size_t k = p->size - p->at < n ? p->size - p->at : n;
    memcpy(buf, p->data + p->at, k);
    p->at += k;
    return (ssize_t)k;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned which = (data[0] & 0x7fu) % READERS;
    int as_pipe = data[0] & 0x80u;
    if (which == PARSE_RULE) {
        parse_rule(data + 1, size - 1);
        return 0;
    }
    pipe_bytes pipe = {data + 1, size - 1, 0};
    FILE *f = as_pipe ? fopencookie(&pipe, "rb", (cookie_io_functions_t){.read = pipe_read})
                      : fmemopen((void *)(data + 1), size - 1 ? size - 1 : 1, "rb");
    if (!f)
        return 0;
    if (size == 1 && !as_pipe)
        fseek(f, 0, SEEK_END); /* an empty file */
    if (which == READ_PKU || which == READ_NATIVE)
        read_grid(which == READ_NATIVE, f);
    else
        read_pattern((int)which, f);
    fclose(f);
    return 0;
}
