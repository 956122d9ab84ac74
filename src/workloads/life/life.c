/* life.c - the Life workload on the host: options, the starting grid (a
 * file or a random fill), the host driver (generations in chunks on the
 * CPU or a GPU, the population every K generations, Ctrl-C), the result
 * for people and scripts, the output file, and the conformance cases.
 *
 *   lockstep life [--dims 2|3] [--size S] [--steps N] [--rule R]
 *                 [--density P --seed S | --in FILE] [--out FILE] ...
 *   lockstep life IN OUT N      as the PKU contest's `answer IN OUT N` */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "chunks.h"
#include "hash.h"
#include "life_golden.h"
#include "progress.h"
#include "life_anim.h"
#include "life_cpu.h"
#include "life_gpu.h"
#include "life_io.h"
#include "life_manual.h"
#include "life_memory.h"
#include "life_rule.h"
#include "life_slab.h"
#include "output.h"
#include "workload.h"

typedef struct life_opts {
    uint64_t dims; /* 0 until given: then the input file's, --size's, the rule's, else 2 (settle_dims) */
    const char *size, *rule_text, *density_text, *in, *out, *format_text, *at_text, *frames;
    uint64_t steps, seed, every, scale;
    uint64_t slabs, halo; /* scheduling only (slab_run.h); 0: not given */
    int timings;          /* --timings: where the run's time went */
    int contest_form;     /* given as IN OUT N: OUT is IN's format whatever its name says */
    /* Derived by validation. */
    uint32_t size_ext[3]; /* --size's extents (size_sides of them; 0: no --size) */
    int size_sides;
    uint32_t nx, ny, nz; /* the grid without an input file */
    double density;
    life_format format;
    life_format out_format; /* of --out: its name's, --format, or the input's */
    int has_at;
    life_at at;
    int has_rule; /* --rule given (or a conformance case's rule): rule is it */
    life_rule rule;
    life_topology grid; /* --rule's grid suffix (given = 0: none) */
    int bounded;        /* without an input file: a bounded plane (the suffix's :P) */
    char dims_note[160]; /* why a rule made the grid 3D, for stderr; "" when nothing did */
    struct life_input *input; /* the input file read ahead (life_prepare), or NULL */
} life_opts;

/* The input file, read while the devices open (life_prepare); the run
 * takes its grid or pattern (read_input). A whole grid's file (PKU,
 * native) is only opened and checked: the slabs read their planes of it,
 * in every run that asks for it. */
typedef struct life_input {
    int taken;
    double seconds; /* reading (opening) it took */
    life_grid grid; /* the cells, or with `in` the shape */
    life_pattern pattern;
    life_meta meta;
    life_grid_in *in;
    life_out out;       /* --out's file made ready meanwhile (life_out_prepare), for the run to write */
    double out_seconds; /* making it ready took */
} life_input;

/* The phases of --timings, in the order they come. The first five every
 * rank of a job goes through; summary and output are rank 0's. */
enum { PH_INPUT, PH_START, PH_KERNELS, PH_SAMPLES, PH_RESULT, PH_SUMMARY, PH_OUTPUT, PH_COUNT, PH_EVERY_RANK = 5 };
static const char *const phase_names[PH_COUNT] = {"input", "start", "kernels", "samples", "result", "summary",
                                                  "output"};

typedef struct life_data {
    double phase[PH_COUNT]; /* wall seconds of each (--timings) */
    int read_ahead;           /* the input was read while the devices opened (life_prepare) */
    double input_beside_open; /* of that read, the seconds the devices' open hid */
    double output_ahead;        /* --out's file made ready while the devices opened took (life_prepare) */
    double output_beside_open;  /* of that, the seconds the devices' open hid */
    double input_wait;      /* of this run's wall time, spent reading --in (less than PH_INPUT when the file
                             * was read while the devices opened: life_prepare) */
    life_grid grid;
    life_rule rule;
    uint64_t steps, generation0; /* generations run; the input's generation */
    life_anim *anim;             /* --out run.gif, --frames DIR: a frame every sample */
    uint64_t *series;            /* population every `every` generations, from 0 */
    size_t nseries;
    uint64_t every;
    /* Of the final grid, made once (a full pass each over up to 128 GiB of
     * cells) for the summary, the result and the report, with the grid's
     * shape as reported (the grid itself stays as computed). */
    uint64_t population, digest;
    int digest_version; /* LIFE_DIGEST_VERSION: what the digest is (a result field, so a fault can change it) */
    int summarised;     /* population and digest made by the slabs where they live: no whole grid on rank 0 */
    int drawing;        /* --frames or a GIF: every sample's grid is drawn on rank 0 (every rank knows) */
    uint32_t dims, extent[3];
    int bounded;
    int slabs;     /* cut into this many slabs (slab_run.h); 0: one device, whole */
    uint32_t halo; /* their ghost depth: generations between exchanges */
    int cpu_threads; /* threads a generation ran on on the CPU (--timings); 0: none there */
    char note[400]; /* on the grid chosen, lines for stderr (say_note) */
    life_out out;   /* --out's last generation: written by the run, put in place by life_write_outputs */
    /* A whole grid's file that the slabs read their planes of (d->grid is
     * its shape), opened by this run (owns_in) or ahead; and what tells it
     * from another file (under MPI). */
    life_grid_in *in;
    int owns_in;
    uint64_t in_fingerprint;
} life_data;

#define LIFE_DEFAULT_STEPS 100
/* The most populations --every keeps: steps / every + 1 of them, 8 bytes
 * each, printed in full (a line or a JSON number apiece) and held once per
 * device by `check`, and with --out run.gif or --frames a frame apiece.
 * 2^24 is 128 MiB of series; a longer one was refused only by a failed
 * allocation (exit 1) or, below the machine's memory, grew towards it as
 * the run went. */
#define LIFE_MAX_SAMPLES ((uint64_t)1 << 24)
/* First chunk: about 2^28 cell updates (tens of ms on a CPU core);
 * later chunks are sized by ls_chunks from the measured rate. */
#define LIFE_FIRST_CHUNK_UPDATES (1ull << 28)
/* ... and at most this many generations (each a kernel launch on a GPU),
 * so that a tiny grid's first chunk is short too. */
#define LIFE_FIRST_CHUNK_GENERATIONS 16

static void life_params_default(void *pp)
{
    life_opts *o = pp;
    memset(o, 0, sizeof *o);
    o->steps = LIFE_DEFAULT_STEPS;
    o->seed = 1;
    o->scale = 1;
}

/* The small sizes of `check all` (validated after, like any options). */
static void life_params_quick(void *pp)
{
    life_opts *o = pp;
    o->size = o->dims == 2 ? "301x203" : "67x45x33";
    o->steps = 13;
}

static int life_params_options(void *pp, ls_opt *out, int max)
{
    life_opts *o = pp;
    ls_opt opts[] = {
        {"dims", LS_OPT_COUNT, &o->dims, 2, 3, "2|3", "2D (8 neighbours) or 3D (26 neighbours)",
         "2, or 3 where --size or the suffix of --rule has three sides, --in is a 3D grid or the rule counts above "
         "8 (said on stderr when inferred)",
         NULL},
        {"size", LS_OPT_STRING, &o->size, 0, 0, "S", "grid size: 256, 300x200 (2D) or 300x200x100 (3D)",
         "256, or the grid suffix of --rule", NULL},
        {"steps", LS_OPT_COUNT, &o->steps, 0, 1000000000000ull, "N", "generations to run", NULL, NULL},
        {"rule", LS_OPT_STRING, &o->rule_text, 0, 0, "R",
         "B/S rule (B36/S23, b36s23, B6/S5-7), S/B (23/36) or a name (HighLife), with an optional grid suffix: :T300,200 a "
         "torus, :P300,200 a bounded plane",
         "B3/S23 in 2D, B6/S567 in 3D, or the rule of an RLE --in", NULL},
        {"density", LS_OPT_STRING, &o->density_text, 0, 0, "P", "random fill: each cell alive with probability P",
         "0.5 in 2D, 0.2 in 3D", NULL},
        {"seed", LS_OPT_U64, &o->seed, 0, 0, "S", "random fill seed; the grid is a pure function of (seed, size, P)",
         NULL, NULL},
        {"in", LS_OPT_STRING, &o->in, 0, 0, "FILE",
         "start from FILE (pku, native, rle, cells, png or mc). A pku or native file is read where the slabs "
         "live, each rank and device its own planes at their offsets; a pattern (rle, cells, png, mc), or a grid "
         "from a pipe, is read whole by every rank",
         NULL, NULL},
        {"format", LS_OPT_STRING, &o->format_text, 0, 0, life_format_choices(),
         "the format of --in and --out instead of their extension's", NULL, NULL},
        {"at", LS_OPT_STRING, &o->at_text, 0, 0, "X,Y|center", "place the pattern's top-left cell at X,Y, or centre it",
         "where Golly puts it: at its file's #CXRLE Pos, else its middle cell on the grid's (width/2, height/2)",
         NULL},
        {"every", LS_OPT_COUNT, &o->every, 1, 1000000000000ull, "K", "report the population every K generations",
         NULL, NULL},
        {"scale", LS_OPT_COUNT, &o->scale, 1, LIFE_MAX_SCALE, "S",
         "PNG and GIF pixels per cell along each side; read: a PNG's that says none (lockstep's say theirs)", NULL, NULL},
        {"slabs", LS_OPT_COUNT, &o->slabs, 1, LS_SLABS_MAX, "N",
         "cut the grid into N slabs over the devices and MPI ranks; the answer is the same",
         "one per device; fewer when the grid is too thin", NULL},
        {"halo", LS_OPT_COUNT, &o->halo, 1, LIFE_MAX_HALO, "K",
         "generations between the slabs' exchanges, their ghost planes' depth",
         "2 on CPUs; with a GPU 16 in 2D, 8 in 3D", NULL},
    };
    return ls_opts_copy(out, max, opts, (int)(sizeof opts / sizeof opts[0]));
}

static int life_run_options(void *pp, ls_opt *out, int max)
{
    life_opts *o = pp;
    ls_opt opts[] = {
        {"out", LS_OPT_STRING, &o->out, 0, 0, "FILE",
         "write the last generation to FILE (whole or not at all) in the format of its extension (.rle, .cells, .png, "
         ".mc, .lsgrid, .data) or --format's; FILE.gif: an animation of every --every sample. A pku or native "
         "file is written where the slabs live, each rank and device its own planes at their offsets (under MPI "
         "on a file system the ranks share); rle, cells, png and mc, and a pipe, gather the grid into rank 0's "
         "memory to be written (a GIF and --frames at every sample)",
         NULL, NULL},
        {"timings", LS_OPT_FLAG, &o->timings, 0, 0, NULL,
         "say where the run's time went, in wall seconds: opening the devices, reading --in, making the start "
         "on the devices, the generations (exchanges included), the --every samples, reading the result back, "
         "population and digest, --out; under MPI the slowest rank's too; the threads a generation ran on on "
         "the CPU (fewer on a small grid); and the GPU programs built or loaded from the cache (--json: "
         "\"timings\")", NULL, NULL},
        {"frames", LS_OPT_STRING, &o->frames, 0, 0, "DIR",
         "a numbered PNG of every --every sample in DIR (new or empty; whole set or none)", NULL, NULL},
    };
    return ls_opts_copy(out, max, opts, (int)(sizeof opts / sizeof opts[0]));
}

/* `lockstep life IN OUT N`: the PKU contest's command line. */
static int life_params_positional(void *pp, int n, const char **pos, ls_error *err)
{
    life_opts *o = pp;
    if (n != 3)
        return ls_fail_usage(err, "expected IN OUT N (input file, output file, generations), or options");
    o->in = pos[0];
    o->out = pos[1];
    o->contest_form = 1;
    return ls_parse_count_as("N, the generations of 'lockstep life IN OUT N'", pos[2], 0, 1000000000000ull, &o->steps,
                             err);
}

/* "256", "300x200" or "300x200x100" into extents (nz = 1 for two). */
static int parse_size(const char *text, uint32_t *ext, int *count, ls_error *err)
{
    uint64_t v[3];
    int n = 0;
    const char *p = text;
    for (;;) {
        char *end;
        if (n == 3 || *p < '0' || *p > '9') {
            n = 0; /* no number where one must be: "", "x8", "8x", "8xx8", "8x8x8x" */
            break;
        }
        v[n++] = strtoull(p, &end, 10);
        p = end;
        if (*p != 'x')
            break;
        p++;
    }
    if (n == 0 || *p != '\0')
        return ls_fail_usage(err, "--size '%s': expected S, XxY or XxYxZ", text);
    for (int i = 0; i < n; i++) {
        if (v[i] < LIFE_MIN_SIZE || v[i] > LIFE_MAX_SIZE)
            return ls_fail_usage(err, "--size '%s': each side must be %u to %u cells", text, LIFE_MIN_SIZE, LIFE_MAX_SIZE);
        ext[i] = (uint32_t)v[i];
    }
    *count = n;
    return 0;
}

/* Default density: 0.5 in 2D; 0.2 in 3D, where B6/S567 dies out from 0.5. */
static int parse_density(life_opts *o, ls_error *err)
{
    o->density = o->dims == 2 ? 0.5 : 0.2;
    if (!o->density_text)
        return 0;
    char *end;
    double d = strtod(o->density_text, &end);
    if (end == o->density_text || *end || !(d >= 0 && d <= 1))
        return ls_fail_usage(err, "--density '%s': expected a probability from 0 to 1", o->density_text);
    o->density = d;
    return 0;
}

static int parse_at(life_opts *o, ls_error *err)
{
    if (!o->at_text)
        return 0;
    o->has_at = 1;
    if (strcmp(o->at_text, "center") == 0 || strcmp(o->at_text, "centre") == 0) {
        o->at = (life_at){LIFE_PLACE_CENTRE, 0, 0};
        return 0;
    }
    unsigned long long x, y;
    char tail;
    if (sscanf(o->at_text, "%llu,%llu%c", &x, &y, &tail) != 2 || x >= LIFE_MAX_SIZE || y >= LIFE_MAX_SIZE)
        return ls_fail_usage(err, "--at '%s': expected X,Y (cells from the top-left corner) or center", o->at_text);
    o->at = (life_at){LIFE_PLACE_AT, (uint32_t)x, (uint32_t)y};
    return 0;
}

/* --size's extents; "300x200" says 2D and "300x200x100" 3D, which must
 * agree with --dims. The grid's extents are settled once the dimension is
 * (settle_extents). */
static int resolve_size(life_opts *o, ls_error *err)
{
    if (!o->size)
        return 0;
    int n = 1;
    if (parse_size(o->size, o->size_ext, &n, err))
        return -1;
    if (n > 1 && o->dims && (uint64_t)n != o->dims)
        return ls_fail_usage(err, "--size '%s' has %d extents but --dims is %" PRIu64, o->size, n, o->dims);
    if (n > 1)
        o->dims = (uint64_t)n;
    o->size_sides = n;
    return 0;
}

/* Whether --in names a whole grid (PKU, native), whose file says its
 * dimension; a pattern (RLE, cells, PNG) goes on a grid of either. A name
 * of no known format counts as a grid: nothing is inferred for a file that
 * reading will refuse. */
static int input_is_grid(const life_opts *o)
{
    life_format f;
    ls_error ignored;
    return o->in && (life_format_resolve(o->in, o->format, &f, &ignored) != 0 || life_format_is_grid(f));
}

/* 1 when rule r counts more neighbours than a 2D cell has. */
static int counts_above_2d(life_rule r)
{
    return ((r.birth | r.survive) >> (LIFE_MAX_COUNT_2D + 1)) != 0;
}

/* A rule whose only count above 8 is 9: "B3/S239" is more likely a typo
 * than a 3D rule. Refused, naming the 2D rule without the 9. */
static int refuse_stray_nine(const char *text, life_rule r, ls_error *err)
{
    if (((r.birth | r.survive) >> (LIFE_MAX_COUNT_2D + 1)) != 1u)
        return 0;
    life_rule without = {r.birth & ~(1u << 9), r.survive & ~(1u << 9)};
    char meant[LIFE_RULE_TEXT];
    life_rule_format(without, meant, sizeof meant);
    return ls_fail_usage(err, "--rule %s: only its count 9 is above 8 neighbours, which would make the run 3D; did you "
                              "mean %s? (--dims 3 runs it in 3D)",
                         text, meant);
}

/* --rule, parsed for the dimension known so far (--dims, --size's
 * extents; 0: not yet). When nothing else has set the dimension and no
 * input grid says it, the rule may: a 2D name, S/B order or a suffix of
 * two sides say 2D, a suffix of three sides 3D, and plain B/S text
 * counting above 8 neighbours can only be 3D (said on stderr), unless 9
 * is its only such count (refuse_stray_nine). */
static int parse_rule_option(life_opts *o, ls_error *err)
{
    if (!o->rule_text)
        return 0;
    life_rule_spec spec;
    if (life_rule_parse_spec(o->rule_text, (unsigned)o->dims, &spec, err))
        return -1;
    if (!o->dims && !input_is_grid(o) && spec.dims) {
        o->dims = spec.dims;
    } else if (!o->dims && !input_is_grid(o) && counts_above_2d(spec.rule)) {
        if (refuse_stray_nine(o->rule_text, spec.rule, err))
            return -1;
        o->dims = 3;
        snprintf(o->dims_note, sizeof o->dims_note,
                 "3D: rule %s counts above 8 neighbours, so 26 (--dims 3 says so, and silences this)", o->rule_text);
    }
    o->has_rule = 1;
    o->rule = spec.rule; /* parsed again once the dimension is known (pick_rule) */
    o->grid = spec.grid;
    return 0;
}

/* `sides` extents (1: a square or cube) as the three of a grid of `dims`. */
static void expand_extents(const uint32_t *given, int sides, unsigned dims, uint32_t ext[3])
{
    for (int i = 0; i < 3; i++)
        ext[i] = given[sides == 1 ? 0 : i];
    if (dims == 2)
        ext[2] = 1;
}

/* The extents the command line gives a grid of `dims` dimensions: --size,
 * or --rule's grid suffix, which must agree when both are given. 1 with
 * ext set, 0 when neither is given, -1 with err set. */
static int asked_extents(const life_opts *o, unsigned dims, uint32_t ext[3], ls_error *err)
{
    uint32_t by_suffix[3];
    if (o->grid.given && o->grid.sides > 1 && o->grid.sides != dims)
        return ls_fail_usage(err, "--rule %s: its grid suffix has %u sides and the grid is %uD", o->rule_text,
                             o->grid.sides, dims);
    if (o->grid.given)
        expand_extents(o->grid.size, (int)o->grid.sides, dims, by_suffix);
    if (o->size_sides) {
        expand_extents(o->size_ext, o->size_sides, dims, ext);
        if (o->grid.given && memcmp(ext, by_suffix, sizeof by_suffix) != 0)
            return ls_fail_usage(err, "--size %s and the grid of --rule %s disagree: give the size once", o->size,
                                 o->rule_text);
        return 1;
    }
    if (!o->grid.given)
        return 0;
    memcpy(ext, by_suffix, sizeof by_suffix);
    return 1;
}

/* The grid without an input file: --size or --rule's suffix, else 256 a
 * side; a torus unless the suffix says :P. */
static int settle_extents(life_opts *o, ls_error *err)
{
    uint32_t ext[3], dflt = 256;
    int asked = asked_extents(o, (unsigned)o->dims, ext, err);
    if (asked < 0)
        return -1;
    if (!asked)
        expand_extents(&dflt, 1, (unsigned)o->dims, ext);
    o->nx = ext[0];
    o->ny = ext[1];
    o->nz = ext[2];
    o->bounded = o->grid.given && o->grid.bounded;
    return 0;
}

/* --at places a pattern file (RLE, cells, PNG); a random grid or a whole
 * grid read from a file has nothing to place. */
static int check_at(const life_opts *o, ls_error *err)
{
    if (!o->has_at)
        return 0;
    if (!o->in)
        return ls_fail_usage(err, "--at places a pattern read with --in (rle, cells, png or mc); a random grid has none");
    life_format in_format;
    if (life_format_resolve(o->in, o->format, &in_format, err))
        return -1;
    if (life_format_is_grid(in_format))
        return ls_fail_usage(err, "--at places a pattern; %s is a whole grid (%s format), read as it is", o->in,
                             life_format_name(in_format));
    return 0;
}

/* 1 when the last part of `path` has an extension ("run.mc", not "OUT",
 * "/dev/stdout" or ".hidden"). */
static int has_extension(const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot && dot != base && dot[1] != '\0';
}

/* Whether --out can be written once the run is done: its format (its
 * name's, --format's, else the input's for a name without an extension,
 * and for any OUT of the contest's form, whose program writes its format
 * whatever the name), then the file itself (its directory exists and
 * takes a file). Refused now, as bad input, rather than after the
 * generations: --out with an extension of no format is refused naming the
 * formats, not written in the input's format under a name that says
 * another. */
static int check_out(life_opts *o, ls_error *err)
{
    if (!o->out)
        return 0;
    ls_error ignored;
    int as_input = o->in && (!has_extension(o->out) || o->contest_form);
    if (life_format_resolve(o->out, o->format, &o->out_format, err) &&
        (!as_input || life_format_resolve(o->in, o->format, &o->out_format, &ignored)))
        return -1; /* err holds what the output's name lacks */
    if (o->out_format == LIFE_FORMAT_GIF && !o->every)
        return ls_fail_usage(err, "--out %s: an animated GIF has a frame every K generations: give --every K", o->out);
    if (o->out_format == LIFE_FORMAT_GIF && life_gif_available(err))
        return -1;
    return ls_output_check(o->out, err);
}

/* --every K keeps at most LIFE_MAX_SAMPLES populations (and frames). */
static int check_series(const life_opts *o, ls_error *err)
{
    if (!o->every || o->steps / o->every < LIFE_MAX_SAMPLES)
        return 0;
    return ls_fail_usage(err,
                         "--steps %" PRIu64 " --every %" PRIu64 ": %" PRIu64 " populations, more than the %" PRIu64
                         " (2^24) that --every keeps; give --every at least %" PRIu64 ", or fewer --steps",
                         o->steps, o->every, o->steps / o->every + 1, LIFE_MAX_SAMPLES, o->steps / LIFE_MAX_SAMPLES + 1);
}

/* --frames DIR: with --every, and a directory the frames can go to. */
static int check_frames(const life_opts *o, ls_error *err)
{
    if (!o->frames)
        return 0;
    if (!o->every)
        return ls_fail_usage(err, "--frames %s: a frame is taken every K generations: give --every K", o->frames);
    return ls_atomic_dir_check(o->frames, "--frames", err); /* a new or empty DIR, whole or not at all */
}

/* Whether --out's format holds a grid of this shape (PKU a cube; RLE,
 * cells, PNG and GIF 2D), and --frames' PNGs, named as the output's
 * fault. */
static int check_out_shape(const life_opts *o, unsigned dims, uint32_t nx, uint32_t ny, uint32_t nz, ls_error *err)
{
    const char *option = NULL, *name = NULL;
    if (o->out && life_format_check_shape(o->out_format, dims, nx, ny, nz, (uint32_t)o->scale, err) != 0) {
        option = "--out";
        name = o->out;
    } else if (o->frames && life_format_check_shape(LIFE_FORMAT_PNG, dims, nx, ny, nz, (uint32_t)o->scale, err) != 0) {
        option = "--frames";
        name = o->frames;
    }
    return option ? ls_fail_in(err, "%s %s", option, name) : 0;
}

static int life_params_validate(void *pp, ls_error *err)
{
    life_opts *o = pp;
    if (o->in && o->density_text)
        return ls_fail_usage(err, "--density makes a random grid; it cannot go with an input file");
    o->format = LIFE_FORMAT_AUTO;
    if (o->format_text && life_format_parse(o->format_text, &o->format, err))
        return -1;
    if (parse_at(o, err) || check_at(o, err) || resolve_size(o, err) || parse_rule_option(o, err))
        return -1;
    /* Nothing said 3D: Life is 2D, as for Golly and every other Life
     * program (the PKU contest's 3D grids come in PKU files). The
     * documented default, so nothing is said of it. */
    if (!o->dims && !o->in)
        o->dims = 2;
    if (parse_density(o, err))
        return -1;
    /* Again, for a dimension settled only now (the default 2D). */
    if (o->rule_text && o->dims && life_rule_parse(o->rule_text, (unsigned)o->dims, &o->rule, err))
        return -1;
    if (!o->in && settle_extents(o, err))
        return -1;
    if (check_series(o, err) || check_out(o, err) || check_frames(o, err))
        return -1;
    /* Without an input file the grid's shape is known now; with one, once
     * it is read (make_start). */
    if (!o->in && check_out_shape(o, (unsigned)o->dims, o->nx, o->ny, o->nz, err))
        return -1;
    return 0;
}

/* ls_workload.params_canonical: the options whose text is read into values
 * (validated), so that the ranks of a job compare grids and rules, not
 * spellings ("--size 64" and "64x64", "--rule Life" and "B3/S23"). */
static int life_params_canonical(const void *pp, const char *option, char *out, size_t len)
{
    const life_opts *o = pp;
    if (strcmp(option, "size") == 0 && !o->in) {
        char grid[LIFE_TOPOLOGY_TEXT];
        life_topology_format(o->bounded, (unsigned)o->dims, o->nx, o->ny, o->nz, grid, sizeof grid);
        snprintf(out, len, "%s", grid + 1); /* "T64,64", "P64,64,64" (the suffix's text, without ':') */
    } else if (strcmp(option, "size") == 0 && o->size_sides) {
        uint32_t ext[3];
        expand_extents(o->size_ext, o->size_sides, o->dims ? (unsigned)o->dims : 3, ext);
        snprintf(out, len, "%ux%ux%u", ext[0], ext[1], ext[2]);
    } else if (strcmp(option, "rule") == 0 && o->has_rule && o->dims) {
        life_rule_format(o->rule, out, len);
    } else if (strcmp(option, "density") == 0 && !o->in) {
        snprintf(out, len, "%.17g", o->density);
    } else if (strcmp(option, "at") == 0 && o->has_at) {
        if (o->at.how == LIFE_PLACE_CENTRE)
            snprintf(out, len, "center");
        else
            snprintf(out, len, "%u,%u", o->at.x, o->at.y);
    } else {
        return 0;
    }
    return 1;
}

/* ---- the starting grid ----------------------------------------------------- */

/* The rule: --rule, else the file's (native header, RLE header), else the
 * default for the dimension. */
static int pick_rule(const life_opts *o, unsigned dims, const life_meta *meta, const char *pattern_rule,
                     life_rule *out, ls_error *err)
{
    if (o->rule_text) /* parsed again: with an input file the dimension is known only now */
        return life_rule_parse(o->rule_text, dims, out, err);
    /* (a conformance case's rule) */
    if (o->has_rule) {
        *out = o->rule;
        return 0;
    }
    if (meta->has_rule) {
        *out = meta->rule;
        return 0;
    }
    if (pattern_rule && pattern_rule[0]) {
        /* Patterns are 2D: their rule counts 8 neighbours, not 26. */
        if (dims == 3)
            return ls_fail_usage(err, "%s: its rule %s is for a 2D pattern, and this grid is 3D; give a 3D rule with "
                                      "--rule",
                                 o->in, pattern_rule);
        if (life_rule_parse(pattern_rule, dims, out, err) == 0)
            return 0;
        char why[sizeof err->msg]; /* err->msg is rewritten below: copied first */
        snprintf(why, sizeof why, "%s", err->msg);
        return ls_fail_usage(err, "%s: its rule is not one lockstep runs (%s); give one with --rule", o->in, why);
    }
    *out = life_rule_default(dims);
    return 0;
}

/* A note on the grid chosen (a line; notes add up), kept for life_run to
 * say once the start is accepted whole (a refused rule is the one line a
 * refusal prints). */
static void note(life_data *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(life_data *d, const char *fmt, ...)
{
    size_t used = strlen(d->note);
    if (used + 2 >= sizeof d->note)
        return;
    if (used)
        d->note[used++] = '\n';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->note + used, sizeof d->note - used, fmt, ap);
    va_end(ap);
}

/* Says the notes on stderr, a line each, once per process (`check` runs
 * the same start on every device) and once per job (on rank 0). */
static void say_note(const life_data *d, int rank)
{
    static int said;
    if (said || !d->note[0] || rank != 0)
        return;
    said = 1;
    for (const char *line = d->note; line;) {
        const char *eol = strchr(line, '\n');
        fprintf(stderr, "lockstep: life: %.*s\n", (int)(eol ? eol - line : (ptrdiff_t)strlen(line)), line);
        line = eol ? eol + 1 : NULL;
    }
}

/* 1 when a live cell lies on the outermost rows or columns of plane z. */
static int touches_edges(const life_grid *g, uint32_t z)
{
    for (uint32_t y = 0; y < g->ny; y++) {
        if (y == 0 || y + 1 == g->ny) {
            for (uint32_t x = 0; x < g->nx; x++)
                if (life_get(g, x, y, z))
                    return 1;
        } else if (life_get(g, 0, y, z) || life_get(g, g->nx - 1, y, z)) {
            return 1;
        }
    }
    return 0;
}

/* The grid's suffix in a pattern file's rule ("B3/S23:T64,64"), alone:
 * it counts even when --rule replaces the rule. */
static int pattern_suffix(const life_opts *o, const life_pattern *p, life_topology *t, ls_error *err)
{
    return life_topology_parse(p->rule, t, err) ? ls_fail_in(err, "%s", o->in) : 0;
}

/* A grid for a pattern. Its sides: --size or --rule's suffix, else the
 * file's suffix, else the pattern's box (at least 4, said on stderr: the
 * box leaves the pattern no room). A bounded plane when the command
 * line's suffix, else the file's, says :P. The pattern goes where --at
 * says, else where Golly puts it (life_place). */
static int grid_for_pattern(const life_opts *o, const life_pattern *p, life_data *d, ls_error *err)
{
    life_grid *g = &d->grid;
    unsigned dims = o->dims == 3 ? 3 : 2;
    uint32_t ext[3];
    life_topology file;
    int asked = asked_extents(o, dims, ext, err);
    if (asked < 0 || pattern_suffix(o, p, &file, err))
        return -1;
    if (file.given && !o->grid.given && file.sides >= 2 && file.sides != dims)
        return ls_fail_usage(err, "%s: its grid suffix (%s) is %uD and this grid is %uD; give the grid with --size or "
                                  "a suffix on --rule",
                             o->in, strchr(p->rule, ':'), file.sides, dims);
    int from_box = !asked && !file.given;
    if (!asked && file.given)
        expand_extents(file.size, (int)file.sides, dims, ext);
    if (from_box) {
        ext[0] = p->width < LIFE_MIN_SIZE ? LIFE_MIN_SIZE : p->width;
        ext[1] = p->height < LIFE_MIN_SIZE ? LIFE_MIN_SIZE : p->height;
        ext[2] = dims == 3 ? LIFE_MIN_SIZE : 1;
    }
    if (life_grid_init(g, dims, ext[0], ext[1], ext[2], err))
        return -1;
    g->bounded = o->grid.given ? o->grid.bounded : file.given && file.bounded;
    /* On its own box a pattern fills the grid: the file's Pos, which puts
     * it somewhere in Golly's larger universe, does not apply. */
    life_pattern boxed = *p;
    boxed.has_pos = boxed.has_pos && !from_box;
    if (life_place(g, &boxed, o->has_at ? &o->at : NULL, err)) {
        life_grid_free(g);
        return ls_fail_in(err, "%s", o->in);
    }
    char shape[64];
    life_shape_text(g->dims, g->nx, g->ny, g->nz, shape, sizeof shape);
    if (from_box && touches_edges(g, g->nz / 2))
        note(d, "grid %s: the pattern's box, and its cells touch the edges, where the torus wraps them around (give "
             "--size for more room)",
             shape);
    else if (from_box)
        note(d, "grid %s: the pattern's box (give --size for more room)", shape);
    else if (asked && file.given && !o->grid.given)
        note(d, "grid %s from --size, not the file's %s", shape, strchr(p->rule, ':'));
    return 0;
}

/* A whole grid from a file (PKU, native) keeps its shape: --size or
 * --rule's suffix must agree with it. Its topology: --rule's suffix, else
 * the file's (a native header's; PKU grids are tori). */
static int check_grid_shape(const life_opts *o, life_grid *g, ls_error *err)
{
    uint32_t ext[3];
    int asked = asked_extents(o, g->dims, ext, err);
    if (asked < 0)
        return -1;
    if (asked && (ext[0] != g->nx || ext[1] != g->ny || ext[2] != g->nz)) {
        char have[64], want[64];
        life_shape_text(g->dims, g->nx, g->ny, g->nz, have, sizeof have);
        life_shape_text(g->dims, ext[0], ext[1], ext[2], want, sizeof want);
        return ls_fail_usage(err, "%s holds a %s grid; %s says %s", o->in, have,
                             o->size ? "--size" : "the grid of --rule", want);
    }
    if (o->grid.given)
        g->bounded = o->grid.bounded;
    return 0;
}

/* The input file read: a whole grid's file in a regular file opened for
 * the slabs to read their planes of (*in; g its shape), else read whole
 * (g's cells, or the pattern p). 0, or -1 with err set. */
static int open_input(const life_opts *o, life_grid *g, life_pattern *p, life_meta *meta, life_grid_in **in,
                      ls_error *err)
{
    life_format fmt;
    *in = NULL;
    memset(p, 0, sizeof *p);
    if (life_format_resolve(o->in, o->format, &fmt, err) == 0 && life_format_is_grid(fmt)) {
        int rc = life_grid_in_open(o->in, fmt, g, meta, in, err);
        if (rc <= 0)
            return rc;
    }
    /* The grid a pattern goes on, where the command line gives it
     * (grid_for_pattern's), so that a pattern larger is refused before
     * its cells are allocated; a fault in it is reported there. */
    life_pattern_want want = {(uint32_t)o->scale, 0, 0};
    uint32_t ext[3];
    ls_error ignored;
    if (asked_extents(o, o->dims == 3 ? 3 : 2, ext, &ignored) == 1) {
        want.nx = ext[0];
        want.ny = ext[1];
    }
    return life_read_file(o->in, o->format, &want, g, p, meta, err);
}

/* The input file: as read ahead, the first time a run asks for it (a
 * grid file opened ahead: every time); else read now (a second run of the
 * same params, in check and bench), the grid file opened then this run's
 * to close (*owns_in). */
static int read_input(const life_opts *o, life_grid *g, life_pattern *p, life_meta *meta, life_grid_in **in,
                      int *owns_in, double *seconds, ls_error *err)
{
    life_input *ahead = o->input;
    *owns_in = 0;
    *in = NULL;
    if (!ahead || (ahead->taken && !ahead->in)) {
        double t0 = ls_now();
        int rc = open_input(o, g, p, meta, in, err);
        *owns_in = *in != NULL;
        *seconds = ls_now() - t0;
        return rc;
    }
    *seconds = ahead->taken ? 0 : ahead->seconds;
    *g = ahead->grid;
    *p = ahead->pattern;
    *meta = ahead->meta;
    *in = ahead->in;
    ahead->taken = 1;
    return 0;
}

/* ls_workload.prepare: the input file, read (or opened) while the devices
 * open. */
static int life_prepare(void *pp, ls_error *err)
{
    life_opts *o = pp;
    if (!o->in)
        return 0;
    life_input *ahead = calloc(1, sizeof *ahead);
    if (!ahead)
        return ls_fail(err, "out of memory");
    double t0 = ls_now();
    if (open_input(o, &ahead->grid, &ahead->pattern, &ahead->meta, &ahead->in, err)) {
        free(ahead);
        return -1;
    }
    ahead->seconds = ls_now() - t0;
    o->input = ahead; /* life_params_free's, should the output fail */
    /* A whole grid's shape is known: --out's file is made ready too. */
    if (o->out && ahead->in) {
        t0 = ls_now();
        if (life_out_prepare(&ahead->out, o->out, o->out_format, &ahead->grid, err))
            return -1;
        ahead->out_seconds = ls_now() - t0;
    }
    return 0;
}

static void life_params_free(void *pp)
{
    life_opts *o = pp;
    if (o->input && !o->input->taken) {
        life_grid_free(&o->input->grid);
        life_pattern_free(&o->input->pattern);
    }
    if (o->input) {
        life_grid_in_close(o->input->in);
        life_out_abort(&o->input->out);
    }
    free(o->input);
    o->input = NULL;
}

static int load_input(const life_opts *o, life_data *d, ls_error *err)
{
    life_pattern p;
    life_meta meta;
    double t0 = ls_now();
    int ahead = o->input && !o->input->taken;
    int rc_read = read_input(o, &d->grid, &p, &meta, &d->in, &d->owns_in, &d->phase[PH_INPUT], err);
    d->read_ahead = ahead && o->input->taken; /* PH_INPUT is then its read, while the devices opened */
    if (d->read_ahead) { /* and --out's file made ready after it, the run's to write */
        d->out = o->input->out;
        d->output_ahead = o->input->out_seconds;
        memset(&o->input->out, 0, sizeof o->input->out);
    }
    d->input_wait = ls_now() - t0;
    if (rc_read)
        return -1;
    if (!d->grid.words && !d->in && grid_for_pattern(o, &p, d, err)) {
        life_pattern_free(&p);
        return -1;
    }
    if (o->dims && o->dims != d->grid.dims) {
        life_pattern_free(&p);
        return ls_fail_usage(err, "%s holds a %uD grid but --dims is %" PRIu64, o->in, d->grid.dims, o->dims);
    }
    if (!p.cells && check_grid_shape(o, &d->grid, err))
        return -1;
    d->generation0 = meta.generation;
    int rc = pick_rule(o, d->grid.dims, &meta, p.cells ? p.rule : NULL, &d->rule, err);
    life_pattern_free(&p);
    /* The output records the generation reached (PKU T, native): one past
     * 2^64 - 1 would wrap to a small number. */
    if (rc == 0 && o->steps > UINT64_MAX - meta.generation)
        return ls_fail_usage(err, "%s is at generation %" PRIu64 "; %" PRIu64 " more would pass 2^64 - 1, the last "
                                  "generation a file records",
                             o->in, meta.generation, o->steps);
    return rc;
}

/* The starting grid and its rule; then, before the first generation, the
 * check that --out can hold its shape (from a file, known only now). A
 * random start is only a shape here, with no cells on the host
 * (d->grid.words NULL): each slab makes its planes where it lives. */
static int make_start(const life_opts *o, life_data *d, ls_error *err)
{
    if (o->dims_note[0])
        note(d, "%s", o->dims_note);
    if (o->in) {
        if (load_input(o, d, err))
            return -1;
    } else {
        if (life_grid_check_size((unsigned)o->dims, o->nx, o->ny, o->nz, err))
            return -1;
        life_grid_shape(&d->grid, (unsigned)o->dims, o->nx, o->ny, o->nz);
        d->grid.bounded = o->bounded;
        life_meta none = {0};
        if (pick_rule(o, (unsigned)o->dims, &none, NULL, &d->rule, err))
            return -1;
    }
    return check_out_shape(o, d->grid.dims, d->grid.nx, d->grid.ny, d->grid.nz, err);
}

/* The digest (version 2: every thread hashes rows or planes), which
 * life_out_write runs beside the threads that write --out's file. */
static void digest_grid(void *data)
{
    life_data *d = data;
    d->digest = life_grid_digest(&d->grid);
}

static void life_run_free(ls_run *run)
{
    life_data *d = run->data;
    if (d) {
        life_anim_abort(d->anim); /* a run that did not finish: no frames, no GIF */
        life_out_abort(&d->out);  /* nor --out's file */
        life_grid_free(&d->grid);
        if (d->owns_in)
            life_grid_in_close(d->in);
        free(d->series);
    }
    free(d);
    run->data = NULL;
}

/* What a written picture says beyond its cells: the generation reached,
 * the rule, the scale, and the seed of a random grid or the file read. */
static life_meta picture_meta(const life_opts *o, const life_data *d)
{
    life_meta meta = {0};
    meta.generation = d->generation0 + d->steps;
    meta.rule = d->rule;
    meta.has_rule = 1;
    meta.scale = (uint32_t)o->scale;
    meta.has_seed = !o->in;
    meta.seed = o->seed;
    meta.source = o->in;
    return meta;
}

/* ---- the host driver ------------------------------------------------------- */

/* Generations on slabs over the devices of a set and the ranks of an MPI
 * job (one device: one slab, the whole grid), run by the slab runner
 * (slab_run.h), which calls back here; the grid lives there meanwhile. */
typedef struct life_device {
    const life_opts *o;
    life_data *d;
    life_work work;     /* what the slabs share: the grid's shape, the rule, the random start */
    ls_slab_grid grid;  /* the grid along its cut axis */
    ls_slab_source src; /* a grid file's planes, read where the slabs live */
    ls_slab_run run;
    int root;           /* rank 0 of the job */
    double t_start;     /* of the run (PH_START) */
} life_device;

/* Host memory for the grid that a device made (make_start's on_device),
 * the first time it is read back. */
static int host_grid(life_grid *g, ls_error *err)
{
    if (g->words)
        return 0;
    int bounded = g->bounded;
    if (life_grid_alloc(g, g->dims, g->nx, g->ny, g->nz, err))
        return -1;
    g->bounded = bounded;
    life_grid_touch(g);
    return 0;
}

/* The current generation into d->grid (on rank 0: the other ranks send
 * their slabs). */
static int fetch_grid(ls_slabs *S, int root, life_data *d, ls_error *err)
{
    return (root && host_grid(&d->grid, err)) || ls_slabs_gather(S, d->grid.words, err) ? -1 : 0;
}

/* A sample of --every after `done` generations: the population, and the
 * frame of each animation (rank 0 records them; the other ranks send
 * their slabs). */
static int record_sample(void *arg, ls_slabs *S, uint64_t done, ls_error *err)
{
    life_device *dev = arg;
    life_data *d = dev->d;
    int root = dev->root;
    d->steps = done;
    if (!d->drawing) {
        /* A count from each slab where it lives: no grid gathered. */
        uint64_t population = 0;
        if (ls_slabs_summary(S, &population, NULL, err))
            return -1;
        if (root)
            d->series[d->nseries++] = population;
        return 0;
    }
    if (fetch_grid(S, root, d, err))
        return -1;
    if (!root)
        return 0;
    d->series[d->nseries++] = life_grid_population(&d->grid);
    return d->anim ? life_anim_add(d->anim, &d->grid, d->generation0 + d->steps, err) : 0;
}

/* The last generation where it is wanted: --out's PKU or native file
 * written where the slabs live, each its rows at their offsets, counted
 * and hashed in the same pass; the population and digest counted and
 * hashed by each slab; or, for --out that needs the whole grid, the grid
 * gathered on rank 0 (a run that stopped early writes none). */
static int finish_grid(ls_slabs *S, int root, const life_opts *o, life_data *d, ls_error *err)
{
    double t0 = ls_now();
    int whole = o->out && o->out_format != LIFE_FORMAT_GIF && d->steps == o->steps;
    if (whole && life_format_is_grid(o->out_format)) {
        life_meta meta = picture_meta(o, d);
        life_slab_file file;
        life_slab_file_init(&file, &d->out, o->out, o->out_format, &d->grid, &meta);
        int rc = ls_slabs_write_file(S, &file.file, &d->population, &d->digest, err);
        d->phase[PH_OUTPUT] += ls_now() - t0;
        if (rc < 0)
            return -1;
        whole = rc > 0; /* 1: gathered and written whole after all */
        d->summarised = !whole;
        if (!whole)
            return 0;
        t0 = ls_now();
    }
    if (!whole) {
        d->summarised = 1;
        int rc = ls_slabs_summary(S, &d->population, &d->digest, err);
        d->phase[PH_SUMMARY] = ls_now() - t0;
        return rc;
    }
    int rc = fetch_grid(S, root, d, err);
    d->phase[PH_RESULT] = ls_now() - t0;
    return rc;
}

/* The first chunk's generations, short on any device: about
 * LIFE_FIRST_CHUNK_UPDATES cell updates, at most
 * LIFE_FIRST_CHUNK_GENERATIONS launches; later chunks are sized from the
 * wall time the chunks took (the slab runner's). */
static uint64_t first_chunk(const life_data *d)
{
    uint64_t cells = (uint64_t)d->grid.nx * d->grid.ny * d->grid.nz;
    uint64_t first = LIFE_FIRST_CHUNK_UPDATES / cells ? LIFE_FIRST_CHUNK_UPDATES / cells : 1;
    return first < LIFE_FIRST_CHUNK_GENERATIONS ? first : LIFE_FIRST_CHUNK_GENERATIONS;
}

/* After the last chunk: its figures, then the last generation where it is
 * wanted (finish_grid). */
static int finish_run(void *arg, ls_slabs *S, uint64_t done, ls_error *err)
{
    life_device *dev = arg;
    life_data *d = dev->d;
    d->steps = done;
    d->phase[PH_KERNELS] += dev->run.drive.wall_seconds;
    d->phase[PH_SAMPLES] += dev->run.drive.sample_seconds;
    return finish_grid(S, dev->root, dev->o, d, err);
}

/* --out run.gif and --frames DIR: started before the first generation,
 * a frame at every sample (record_sample), in place once the run has
 * finished (life_write_outputs), removed when it has not (life_run_free). */
static int start_animation(const life_opts *o, life_data *d, size_t frames, ls_error *err)
{
    int gif = o->out && o->out_format == LIFE_FORMAT_GIF;
    if (!gif && !o->frames)
        return 0;
    life_anim_opts a = {gif ? o->out : NULL, o->frames, frames, picture_meta(o, d)};
    return life_anim_open(&a, &d->grid, &d->anim, err);
}

/* The slabs' reading of a grid file: units [first, first + n) into words. */
static int read_planes(void *arg, uint32_t first, uint32_t n, void *words, ls_error *err)
{
    return life_grid_in_planes(arg, first, n, words, err);
}

/* A file that records its grid digest (lslife3) holds cells of that
 * digest: rank 0, which made the digest of the planes every slab read,
 * says whether they have it, and every rank refuses a file that is
 * damaged (or that differs between the ranks' copies). */
static int refuse_damaged(void *arg, int ranks, ls_error *err)
{
    ls_fail_usage(err, "%s: damaged: its cells%s do not have the grid digest it records", life_grid_in_name(arg),
                  ranks > 1 ? " (as the ranks read them)" : "");
    err->usage |= LS_ERROR_EVERY_RANK;
    return -1;
}

/* The start is where it runs: slabs over the devices of the set and the
 * ranks of its job (one device: one slab), each made there when the start
 * is random, each read there from a grid file. No process keeps the whole
 * grid: rank 0 makes one again when a sample or the result needs it
 * (host_grid). */
static int started(void *arg, ls_slabs *S, ls_error *err)
{
    (void)err;
    life_device *dev = arg;
    life_data *d = dev->d;
    d->phase[PH_INPUT] += dev->src.seconds;
    d->input_wait += dev->src.seconds;
    /* The start: the grid made and put on the devices, less the time this
     * run spent reading a file (its own phase; a file read ahead, while
     * the devices opened, cost the run nothing here). */
    d->phase[PH_START] = ls_now() - dev->t_start - d->input_wait;
    d->cpu_threads = ls_slabs_cpu_threads(S);
    if (dev->run.report) {
        d->slabs = ls_slabs_count(S);
        d->halo = ls_slabs_halo(S);
    }
    life_grid_free(&d->grid);
    return 0;
}

/* The summary of the final grid, and --out's file (not an animation) of a
 * finished run, written now and put in place by life_write_outputs once
 * the run is reported: the digest, one thread's pass over the grid (a
 * tenth of a second for 1024^3 cells), is made on one of the writer's
 * threads meanwhile, instead of before the writing starts. */
static int summarise_and_write(const life_opts *o, life_data *d, int finished, ls_error *err)
{
    d->digest_version = LIFE_DIGEST_VERSION; /* the result's shape: the grid's, as computed */
    d->dims = d->grid.dims;
    d->extent[0] = d->grid.nx;
    d->extent[1] = d->grid.ny;
    d->extent[2] = d->grid.nz;
    d->bounded = d->grid.bounded;
    if (d->summarised)
        return 0; /* population and digest came from the slabs (drive) */
    double t0 = ls_now();
    d->population = life_grid_population(&d->grid);
    if (!finished || !o->out || o->out_format == LIFE_FORMAT_GIF) {
        digest_grid(d);
        d->phase[PH_SUMMARY] = ls_now() - t0;
        return 0;
    }
    double t1 = ls_now();
    d->phase[PH_SUMMARY] = t1 - t0; /* the digest is made beside the writing, in its phase */
    life_meta meta = picture_meta(o, d);
    ls_beside digest = {digest_grid, d};
    int rc = life_out_write(&d->out, o->out, o->out_format, &d->grid, &meta, &digest, err);
    d->phase[PH_OUTPUT] += ls_now() - t1;
    return rc;
}

/* A hash of the start that an input file gave this rank: its cells (a
 * grid file's fingerprint, when the slabs read their planes of it),
 * shape, rule and generation (0 without --in: every rank makes the same
 * random grid from the options they have already agreed on). */
static uint64_t start_fingerprint(const life_opts *o, const life_data *d)
{
    if (!o->in)
        return 0;
    uint64_t shape[8] = {d->grid.dims, d->grid.nx, d->grid.ny, d->grid.nz, (uint64_t)d->grid.bounded,
                         (uint64_t)d->rule.birth << 32 | d->rule.survive, d->generation0, d->in_fingerprint};
    uint64_t seed = ls_hash64(shape, sizeof shape, 0);
    return d->in ? seed : ls_hash64(d->grid.words, d->grid.nwords * sizeof *d->grid.words, seed);
}

/* Under MPI, what tells this rank's grid file from another's, before
 * the ranks compare their starts: a native file's header and trailer
 * (its digest or checksum covers its cells), every byte of a PKU file
 * (read by every rank for this alone: docs/scale-out.md). ok as the
 * start was made; 0, or -1 with err set. */
static int fingerprint_input(const ls_set *set, life_data *d, int ok, ls_error *err)
{
    if (!ok || !d->in || set->job.size < 2)
        return ok ? 0 : -1;
    double t0 = ls_now();
    int rc = life_grid_in_fingerprint(d->in, 1, &d->in_fingerprint, err);
    d->phase[PH_INPUT] += ls_now() - t0;
    d->input_wait += ls_now() - t0;
    return rc;
}

/* The run as the slab runner takes it. The ranks of a job compare their
 * starts before any computes: each rank reads --in itself (node-local
 * copies of a file on a cluster may differ), so a rank that could not
 * read it (ok 0), or read another grid, would mix two problems into one
 * answer. With --timings, the slowest rank's figure of each phase every
 * rank goes through (a collective: every rank asks for it, as every rank
 * was given --timings). */
static void slab_run_of(life_device *dev, ls_set *set, int ok, ls_run *out)
{
    const life_opts *o = dev->o;
    life_data *d = dev->d;
    dev->work = (life_work){d->grid, d->rule, o->seed, o->density};
    dev->work.shape.words = NULL;
    life_slab_grid(&d->grid, &dev->grid);
    uint64_t stored = 0;
    int check = d->in && life_grid_in_digest(d->in, &stored);
    dev->src = (ls_slab_source){.read = read_planes, .arg = d->in, .hash = check, .expected = stored,
                                .damaged = check ? refuse_damaged : NULL};
    dev->run = (ls_slab_run){
        .ok = ok, .fingerprint = ok ? start_fingerprint(o, d) : 0, .what = "grid", .input = o->in,
        .start = {d->grid.words, !d->grid.words && !d->in, d->in ? &dev->src : NULL},
        .slabs = o->slabs, .halo = o->halo,
        .drive = {.steps = o->steps, .first = first_chunk(d), .every = d->every, .unit = "generation"},
        .started = started, .sample = record_sample, .finish = finish_run, .arg = dev,
        .report = ls_slabs_wanted(set, o->slabs) ? &out->report : NULL,
        .phases = d->phase, .nphases = PH_EVERY_RANK, .slowest = o->timings ? out->phases.slowest : NULL,
    };
    for (int i = 0; i < PH_COUNT; i++)
        out->phases.slowest[i] = -1;
    out->phases.ranks = set->job.size;
}

/* The phases of --timings: opening the devices (the command's), then the
 * run's own. */
static void fill_phases(const ls_set *set, const life_data *d, ls_phases *p)
{
    double slowest[PH_COUNT]; /* slowest_phases', one place down from here */
    memcpy(slowest, p->slowest, sizeof slowest);
    p->n = 1 + PH_COUNT;
    p->name[0] = "open";
    p->seconds[0] = set->open_seconds;
    p->slowest[0] = -1;
    for (int i = 0; i < PH_COUNT; i++) {
        p->name[1 + i] = phase_names[i];
        p->seconds[1 + i] = d->phase[i];
        p->slowest[1 + i] = p->ranks > 1 ? slowest[i] : -1;
    }
    p->cpu_threads = d->cpu_threads;
    p->input_beside_open = d->input_beside_open;
    p->output_beside_open = d->output_beside_open;
}

static int life_run(ls_set *set, const void *pp, ls_run *out, const ls_progress *progress, ls_error *err)
{
    const life_opts *o = pp;
    memset(out, 0, sizeof *out);
    life_data *d = calloc(1, sizeof *d);
    if (!d)
        return ls_fail(err, "out of memory");
    out->data = d;
    d->every = o->every;
    d->drawing = o->frames || (o->out && o->out_format == LIFE_FORMAT_GIF);
    size_t points = o->every ? (size_t)(o->steps / o->every) + 1 : 0;
    double t_start = ls_now();
    if (make_start(o, d, err) || (points && !(d->series = calloc(points, sizeof *d->series)))) {
        if (!err->msg[0])
            ls_fail(err, "out of memory for %zu populations", points);
        /* The other ranks of a job learn of it, and refuse with this one. */
        ls_slabs_agree_start(set, 0, 0, "grid", o->in, err);
        life_run_free(out);
        return -1;
    }
    /* A file read while the devices opened: what the open hid is in
     * "open" already (it began with the read), and "input" is the rest. */
    if (d->read_ahead) {
        d->input_beside_open = d->phase[PH_INPUT] < set->open_seconds ? d->phase[PH_INPUT] : set->open_seconds;
        d->phase[PH_INPUT] -= d->input_beside_open;
        /* --out's file was made ready after the read: the rest of the
         * open hid it, and what it took beyond that is output's. */
        double open_left = set->open_seconds - d->input_beside_open;
        d->output_beside_open = d->output_ahead < open_left ? d->output_ahead : open_left;
        d->phase[PH_OUTPUT] = d->output_ahead - d->output_beside_open;
    }
    say_note(d, set->job.rank);
    int started = set->job.rank != 0 || start_animation(o, d, points, err) == 0;
    started = fingerprint_input(set, d, started, err) == 0;
    life_device dev = {.o = o, .d = d, .root = set->job.rank == 0, .t_start = t_start};
    slab_run_of(&dev, set, started, out);
    int rc = ls_slabs_run(set, &life_slab_ops, &dev.work, &dev.grid, &dev.run, progress, err);
    out->seconds += dev.run.drive.seconds;
    if (rc) {
        life_run_free(out);
        return -1;
    }
    out->items = (uint64_t)d->grid.nx * d->grid.ny * d->grid.nz * d->steps;
    out->interrupted = d->steps < o->steps;
    if (set->job.rank != 0)
        return 0; /* rank 0 reports */
    if (summarise_and_write(o, d, !out->interrupted, err)) {
        life_run_free(out);
        return -1;
    }
    snprintf(out->summary, sizeof out->summary, "population %" PRIu64 ", grid %016" PRIx64, d->population, d->digest);
    if (o->timings)
        fill_phases(set, d, &out->phases);
    return 0;
}

/* ---- reports ----------------------------------------------------------------- */

static void life_result_json(const void *pp, const ls_run *run, FILE *out)
{
    (void)pp;
    const life_data *d = run->data;
    char rule[LIFE_RULE_TEXT];
    life_rule_format(d->rule, rule, sizeof rule);
    /* "topology" only for a bounded plane: a torus, the default, keeps the
     * result (and so the digest) that it had before planes existed. */
    fprintf(out, "\"dims\":%u,\"size\":[%u,%u,%u],%s\"rule\":\"%s\",\"generations\":%" PRIu64
                 ",\"population\":%" PRIu64 ",\"grid_digest\":\"%016" PRIx64 "\",\"digest_version\":%d",
            d->dims, d->extent[0], d->extent[1], d->extent[2], d->bounded ? "\"topology\":\"plane\"," : "", rule,
            d->steps, d->population, d->digest, d->digest_version);
    if (d->every) {
        fprintf(out, ",\"every\":%" PRIu64 ",\"populations\":[", d->every);
        for (size_t i = 0; i < d->nseries; i++)
            fprintf(out, "%s%" PRIu64, i ? "," : "", d->series[i]);
        fputc(']', out);
    }
}

static void life_print(const void *pp, const ls_set *set, const ls_run *run, FILE *out)
{
    (void)pp;
    const life_data *d = run->data;
    char rule[LIFE_RULE_TEXT];
    life_rule_format(d->rule, rule, sizeof rule);
    double rate = run->seconds > 0 ? (double)run->items / run->seconds : 0.0;
    fprintf(out, "life:        %uD %ux%u", d->grid.dims, d->grid.nx, d->grid.ny);
    if (d->grid.dims == 3)
        fprintf(out, "x%u", d->grid.nz);
    fprintf(out, " %s, rule %s, %" PRIu64 " generation%s%s\n", d->grid.bounded ? "bounded plane" : "torus", rule,
            d->steps, d->steps == 1 ? "" : "s", run->interrupted ? " (interrupted)" : "");
    if (ls_set_several(set)) {
        ls_set_print(out, set, &run->report, "cell updates"); /* slabs: each device's share */
    } else {
        fprintf(out, "backend:     %s (%s)\n", set->dev[0].label, set->dev[0].info.name);
        ls_clock_print(out, &run->report.clock, 13);
    }
    if (d->slabs)
        fprintf(out, "slabs:       %d, ghosts %u deep (an exchange every %u generations)\n", d->slabs, d->halo, d->halo);
    fprintf(out, "population:  %" PRIu64 "\n", d->population);
    fprintf(out, "grid digest: %016" PRIx64 " (version %d)\n", d->digest, d->digest_version);
    fprintf(out, "digest:      %s\n", run->digest);
    fprintf(out, "time:        %.4f s, %.4g cell updates/s\n", run->seconds, rate);
    for (size_t i = 0; i < d->nseries; i++)
        fprintf(out, "  generation %" PRIu64 ": %" PRIu64 "\n", i * d->every, d->series[i]);
}

/* The outputs of a finished run put in place: the animations (their
 * frames were written as the run sampled), and --out's last generation in
 * its format (chosen and checked by validation: --format, else OUT's
 * extension, else the input's), written as the run ended. */
static int life_write_outputs(const void *pp, const ls_run *run, ls_error *err)
{
    (void)pp;
    life_data *d = run->data;
    if (d->anim) {
        life_anim *anim = d->anim;
        d->anim = NULL; /* freed by the commit, whatever it returns */
        if (life_anim_commit(anim, err))
            return -1;
    }
    return life_out_commit(&d->out, err); /* written by the run (summarise_and_write) */
}

/* Fault injection (LOCKSTEP_DEBUG_FAULT) for the tests of `check`. */
static int life_fault(ls_run *run, const char *field)
{
    life_data *d = run->data;
    if ((strcmp(field, "grid_digest") == 0 || strcmp(field, "population") == 0) && !d->grid.words) {
        d->population++; /* summarised by slabs: no cells here to change */
        d->digest ^= 1u;
    } else if (strcmp(field, "grid_digest") == 0 || strcmp(field, "population") == 0) {
        d->grid.words[d->grid.nwords / 2] ^= 1u;
        d->population = life_grid_population(&d->grid);
        digest_grid(d);
    } else if (strcmp(field, "generations") == 0)
        d->steps++;
    else if (strcmp(field, "dims") == 0)
        d->dims ^= 1u; /* 2 <-> 3 */
    else if (strcmp(field, "size") == 0)
        d->extent[0]++;
    else if (strcmp(field, "topology") == 0)
        d->bounded = !d->bounded;
    else if (strcmp(field, "rule") == 0)
        d->rule.survive ^= 1u;
    else if (strcmp(field, "every") == 0 && d->every)
        d->every++;
    else if (strcmp(field, "populations") == 0 && d->nseries)
        d->series[0]++;
    else if (strcmp(field, "digest_version") == 0)
        d->digest_version++;
    else
        return -1;
    return 0;
}

/* ---- conformance --------------------------------------------------------- */

/* Runs a golden case (life_golden.h, made by the byte-per-cell reference
 * tests/ref_life.c) and compares population and grid digest. */
static int life_case(ls_set *set, const void *arg, char *detail, size_t len, ls_error *err)
{
    const life_golden *g = arg;
    life_opts o;
    life_params_default(&o);
    o.dims = g->dims;
    o.nx = g->nx;
    o.ny = g->ny;
    o.nz = g->nz;
    o.density = g->density;
    o.seed = g->seed;
    o.steps = g->steps;
    o.has_rule = 1;
    o.rule = (life_rule){g->birth, g->survive};
    o.bounded = g->bounded;
    ls_run run;
    if (life_run(set, &o, &run, NULL, err) != 0)
        return -1;
    const life_data *d = run.data;
    uint64_t pop = d->population, digest = d->digest;
    int pass = pop == g->population && digest == g->digest;
    if (pass)
        snprintf(detail, len, "population %" PRIu64 " digest %016" PRIx64, pop, digest);
    else
        snprintf(detail, len, "population %" PRIu64 " digest %016" PRIx64 ", expected %" PRIu64 " %016" PRIx64, pop,
                 digest, g->population, g->digest);
    life_run_free(&run);
    return pass;
}

#define LIFE_CASE(i) {life_golden_cases[i].name, life_case, &life_golden_cases[i], 0}
/* For `lockstep devices`: the largest square and cube grid a device holds
 * (life_largest_side: two generations, a bit per cell, each generation in
 * one allocation), under LOCKSTEP_DEVICE_MEMORY_CAP as a run is. */
static int life_device_fit(uint64_t memory, uint64_t max_alloc, ls_device_fit *out, int max, ls_error *err)
{
    if (life_memory_under_cap(memory, &memory, err))
        return -1;
    int n = 0;
    for (unsigned dims = 2; dims <= 3 && n < max; dims++, n++) {
        uint32_t side = life_largest_side(dims, memory, max_alloc);
        out[n].value = side;
        snprintf(out[n].key, sizeof out[n].key, "life_%ud_side", dims);
        if (dims == 2)
            snprintf(out[n].text, sizeof out[n].text, "Life 2D %ux%u", side, side);
        else
            snprintf(out[n].text, sizeof out[n].text, "Life 3D %ux%ux%u", side, side, side);
    }
    return n;
}

static const ls_case life_cases[] = {LIFE_CASE(0), LIFE_CASE(1), LIFE_CASE(2), LIFE_CASE(3), LIFE_CASE(4),
                                     LIFE_CASE(5), LIFE_CASE(6), LIFE_CASE(7), LIFE_CASE(8), LIFE_CASE(9)};
_Static_assert(sizeof life_cases / sizeof life_cases[0] == LIFE_GOLDEN_COUNT, "one conformance case per golden entry");

const ls_workload ls_workload_life = {
    .name = "life",
    .summary = "2D and 3D Life-like rules on a torus or a bounded plane, one bit per cell, bit-sliced",
    .unit = "cell_updates",
    .usage = "lockstep life [options]\n       lockstep life IN OUT N   (the PKU contest's answer IN OUT N)",
    .params_size = sizeof(life_opts),
    .params_default = life_params_default,
    .params_quick = life_params_quick,
    .params_options = life_params_options,
    .run_options = life_run_options,
    .max_positional = 3,
    .params_positional = life_params_positional,
    .params_validate = life_params_validate,
    .params_canonical = life_params_canonical,
    .prepare = life_prepare,
    .params_free = life_params_free,
    .run = life_run,
    .result_json = life_result_json,
    .print = life_print,
    .write_outputs = life_write_outputs,
    .fault = life_fault,
    .run_free = life_run_free,
    .cases = life_cases,
    .ncases = LIFE_GOLDEN_COUNT,
    .device_fit = life_device_fit,
    .manual = life_manual,
    .completions = life_completions,
};
