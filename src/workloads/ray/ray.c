/* ray.c - the raytracer workload on the host: parameters, the host driver
 * (ranges of pixels over the devices of a set and the ranks of an MPI
 * job, set_run.h; progress, Ctrl-C), the result (the image and its digest)
 * for people and for scripts, the output file, the comparison of two
 * images for `check`, and the conformance cases. The pixel itself is
 * src/algo/ray.h; a range runs on GPUs in ray_gpu.c and on the CPU in
 * ray_cpu.c. */
#include <inttypes.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image.h"
#include "ray_golden.h"
#include "ray_range.h"
#include "set_run.h"
#include "workload.h"

/* The command's parameters as the option table fills them, and the job
 * they describe once validated. */
typedef struct ray_opts {
    const char *size; /* "WxH" */
    uint64_t samples;
    uint64_t seed;
    const char *mode; /* "exact" or "fast" */
    const char *out;  /* image file, RAY_OUT_STDOUT, or NULL */
    ray_job job;
} ray_opts;

typedef struct ray_data {
    ray_job job;
    uint64_t pixels; /* pixels rendered (all of them unless interrupted) */
    uint8_t *rgb;    /* width * height * 3 bytes, row 0 first */
    uint64_t image;  /* ray_image_digest of rgb */
    int mixed;       /* fast mode on devices of more than one kind: the image may differ between kinds */
    uint64_t kind;   /* the one kind of device that rendered it (ray_kind), 0 when several or none */
} ray_data;

/* --out - : the image as PPM on standard output (as the original card
 * program writes it); the report then goes to standard error. */
#define RAY_OUT_STDOUT "-"

static int out_is_stdout(const ray_opts *o)
{
    return o->out && strcmp(o->out, RAY_OUT_STDOUT) == 0;
}

/* First range, in camera rays: a few ms on a CPU, enough to fill a GPU. */
#define RAY_FIRST_RAYS_CPU (1ull << 18)
#define RAY_FIRST_RAYS_GPU (1ull << 24)

static void ray_params_default(void *pp)
{
    ray_opts *o = pp;
    memset(o, 0, sizeof *o);
    o->size = "512x512";
    o->samples = 64;
    o->seed = 1;
    o->mode = "exact";
}

static void ray_params_quick(void *pp)
{
    ray_opts *o = pp;
    o->size = "96x64";
    o->samples = 8;
}

static int ray_params_options(void *pp, ls_opt *out, int max)
{
    ray_opts *o = pp;
    ls_opt opts[] = {
        {"size", LS_OPT_STRING, &o->size, 0, 0, "WxH", "image size, 1x1 to 8192x8192; N is NxN", NULL, NULL},
        {"spp", LS_OPT_COUNT, &o->samples, RAY_MIN_SAMPLES, RAY_MAX_SAMPLES, "N",
         "samples per pixel; the brightness is the same for any N", NULL, NULL},
        {"seed", LS_OPT_U64, &o->seed, 0, 0, "S", "random seed; the image is a pure function of (size, spp, seed)",
         NULL, NULL},
        {"mode", LS_OPT_STRING, &o->mode, 0, 0, "exact|fast",
         "exact: the same bytes on every device; fast: fast math, within 40 dB PSNR of exact from 10 spp, 30 dB at 1",
         NULL, NULL},
    };
    return ls_opts_copy(out, max, opts, (int)(sizeof opts / sizeof opts[0]));
}

static int ray_run_options(void *pp, ls_opt *out, int max)
{
    ray_opts *o = pp;
    ls_opt opts[] = {
        {"out", LS_OPT_STRING, &o->out, 0, 0, "FILE",
         "write the image: .png, or .ppm (whole or not at all); - writes PPM to standard output and the report to "
         "standard error", NULL, NULL},
    };
    return ls_opts_copy(out, max, opts, (int)(sizeof opts / sizeof opts[0]));
}

/* "WxH" with decimal W and H, or "N" for N x N (as life's --size); 0, or
 * -1 with err->usage set. */
static int parse_size(const char *text, uint32_t *w, uint32_t *h, ls_error *err)
{
    char *end = NULL;
    unsigned long long a = 0, b = 0;
    int ok = text[0] >= '0' && text[0] <= '9';
    if (ok) {
        a = b = strtoull(text, &end, 10);
        if (*end == 'x' || *end == 'X') {
            ok = end[1] >= '0' && end[1] <= '9';
            if (ok)
                b = strtoull(end + 1, &end, 10);
        }
        ok = ok && *end == 0;
    }
    if (!ok || a < RAY_MIN_SIZE || a > RAY_MAX_SIZE || b < RAY_MIN_SIZE || b > RAY_MAX_SIZE)
        return ls_fail_usage(err, "--size %s: expected WxH or N (NxN), each side %u..%u, e.g. --size 1920x1080", text,
                             RAY_MIN_SIZE, RAY_MAX_SIZE);
    *w = (uint32_t)a;
    *h = (uint32_t)b;
    return 0;
}

/* Checks --out before anything is rendered: a file the image can be
 * written to later, or standard output when it is not a terminal. */
static int check_out(const ray_opts *o, ls_error *err)
{
    if (!o->out)
        return 0;
    return out_is_stdout(o) ? 0 : ls_image_check_path(o->out, LS_IMAGE_RGB, err);
}

/* --out - onto a terminal is refused before rendering. Under mpirun
 * standard output is always a terminal, mpirun's own, which passes the
 * bytes on to wherever mpirun's output goes: only a process of its own
 * can tell a terminal from a pipe, so the job's size decides. */
static int check_stdout(const ray_opts *o, const ls_set *set, ls_error *err)
{
    if (o->out && out_is_stdout(o) && set->job.size <= 1 && isatty(STDOUT_FILENO))
        return ls_fail_usage(err, "--out -: standard output is a terminal; send the PPM image to a file or a pipe "
                                  "(lockstep ray --out - > card.ppm)");
    return 0;
}

static int ray_params_validate(void *pp, ls_error *err)
{
    ray_opts *o = pp;
    uint32_t w = 0, h = 0;
    if (parse_size(o->size, &w, &h, err) != 0)
        return -1;
    int mode;
    if (strcmp(o->mode, "exact") == 0)
        mode = RAY_MODE_EXACT;
    else if (strcmp(o->mode, "fast") == 0)
        mode = RAY_MODE_FAST;
    else
        return ls_fail_usage(err, "--mode %s: expected exact or fast", o->mode);
    if (ray_job_init(&o->job, w, h, (uint32_t)o->samples, o->seed, mode, err) != 0)
        return -1;
    /* An output that cannot be written is refused now, not after the run. */
    return check_out(o, err);
}

/* Exact mode follows the exact floating-point rule; fast mode does not. */
static uint32_t ray_needs(const void *pp)
{
    const ray_opts *o = pp;
    return o->job.mode == RAY_MODE_EXACT ? LS_CAP_BIT(LS_CAP_EXACT_FP) : 0;
}

static void ray_run_free(ls_run *run)
{
    ray_data *d = run->data;
    if (d)
        free(d->rgb);
    free(d);
    run->data = NULL;
}

/* One range on whatever device d is. */
static int ray_range(ls_device *d, const ray_job *job, uint64_t first, uint64_t count, uint8_t *rgb, double *secs,
                     ls_error *err)
{
    return ray_gpu_range(d, job, first, count, rgb, secs, err);
}

/* ---- A render as a split job (set_run.h) ---------------------------------
 *
 * Pixels are the work items, numbered row-major from row 0: a chunk is a
 * range of pixels, rendered on any device of the set (or of another MPI
 * rank) into its RGB bytes, and folded by copying them to their place in
 * the image. In exact mode every pixel is a pure function of its index,
 * so the image is the single device's however the range is cut. In fast
 * mode a pixel is that function only per device kind (docs/ray.md): a set
 * of several kinds gives a mosaic of their approximations, so every chunk
 * names the kind of device that rendered it, and the render says when the
 * image may depend on which device took which chunk. */

#define RAY_MAX_KINDS 64

typedef struct ray_split {
    const ray_job *job;
    uint8_t *rgb;                    /* the image the chunks are folded into */
    uint64_t kinds[RAY_MAX_KINDS];   /* the device kinds whose chunks were folded (ray_kind) */
    int nkinds;
} ray_split;

/* A device's kind, as the fingerprint of what decides its fast-mode
 * arithmetic: the backend, the platform or driver (its compiler), the
 * device's name (a GPU's program, OpenCL's CPU kernel shape), and on the
 * host the instruction set of the CPU tiles, whose copies contract into
 * FMAs differently (LOCKSTEP_CPU_ISA). */
static uint64_t ray_kind(const ls_device *d)
{
    uint64_t h = LS_FNV_INIT;
    const char *isa = ls_backend_runs_host_programs(d->backend) ? ray_cpu_variant() : "";
    const char *parts[] = {d->backend->name, d->info.platform, d->info.name, isa};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        h = ls_fnv1a(h, parts[i], strlen(parts[i]) + 1); /* with the NUL: "ab","c" is not "a","bc" */
    return h;
}

static void add_kind(ray_split *r, uint64_t kind)
{
    for (int i = 0; i < r->nkinds; i++)
        if (r->kinds[i] == kind)
            return;
    if (r->nkinds < RAY_MAX_KINDS)
        r->kinds[r->nkinds++] = kind;
}

/* Pixels [lo, lo + n) on device d: the device's kind, then 3 n bytes. */
static int ray_compute_chunk(const void *job, ls_device *d, uint64_t lo, uint64_t n, const void *hint,
                             size_t hint_len, ls_bytes *out, double *secs, ls_error *err)
{
    (void)hint;
    (void)hint_len;
    const ray_split *r = job;
    uint8_t *rgb = malloc((size_t)n * 3);
    if (!rgb)
        return ls_fail(err, "out of memory for %" PRIu64 " pixels (%.0f MB)", n, (double)n * 3 / 1e6);
    uint64_t kind = ray_kind(d);
    int rc = ray_range(d, r->job, lo, n, rgb, secs, err);
    if (rc == 0 && (ls_bytes_put(out, &kind, sizeof kind) != 0 || ls_bytes_put(out, rgb, (size_t)n * 3) != 0))
        rc = ls_fail(err, "out of memory for %" PRIu64 " pixels (%.0f MB)", n, (double)n * 3 / 1e6);
    free(rgb);
    return rc;
}

/* Copies a chunk's pixels to their place: chunks never overlap, so the
 * image is the same whatever order they come in (set_run.c folds them in
 * order all the same). */
static int ray_fold_chunk(void *job, uint64_t lo, uint64_t n, const void *bytes, size_t len, double secs,
                          ls_error *err)
{
    (void)secs;
    ray_split *r = job;
    uint64_t kind;
    if (len != sizeof kind + (size_t)n * 3)
        return ls_fail(err, "pixels %" PRIu64 "+%" PRIu64 ": %zu bytes, expected %zu", lo, n, len,
                       sizeof kind + (size_t)n * 3);
    ls_bytes_reader in = {bytes, len};
    ls_bytes_get(&in, &kind, sizeof kind);
    add_kind(r, kind);
    memcpy(r->rgb + 3 * lo, ls_bytes_take(&in, (size_t)n * 3), (size_t)n * 3);
    return 0;
}

/* The size of a first chunk: first_rays camera rays' worth of pixels, at
 * least a tile of the CPU's lanes. Later chunks are sized from each
 * device's rate (set_run.h). */
static uint64_t first_chunk(uint64_t first_rays, const ray_job *job)
{
    uint64_t n = first_rays / job->samples;
    return n > RAY_CPU_LANES ? n : RAY_CPU_LANES;
}

/* 1 when the devices of the run are of more than one kind: the kinds of
 * this process's devices and of every chunk folded, and the backends of
 * the other ranks' devices (which may have folded nothing). */
static int mixed_kinds(const ls_set *set, const ls_set_report *st, ray_split *r)
{
    for (int i = 0; i < set->ndevices && set->ndevices > 1; i++)
        add_kind(r, ray_kind(&set->dev[i]));
    if (r->nkinds > 1)
        return 1;
    for (int i = 1; st && i < st->ndevices; i++)
        if (strcmp(st->dev[0].backend, st->dev[i].backend) != 0)
            return 1;
    return 0;
}

/* Says once per process (`check` renders on every device) that a fast
 * image from several kinds of device is not reproducible, naming the
 * devices of the run (every rank's). */
static void say_mixed(const ls_set_report *st)
{
    static int said;
    if (said)
        return;
    said = 1;
    char devices[400] = "";
    size_t used = 0;
    for (int i = 0; i < st->ndevices && used < sizeof devices; i++) {
        int k = snprintf(devices + used, sizeof devices - used, "%s%s", i ? ", " : "", st->dev[i].label);
        used += k > 0 ? (size_t)k : 0;
    }
    fprintf(stderr, "lockstep: ray: fast mode on devices of more than one kind (%s): each renders its own "
                    "approximation, so the image may differ between device kinds and from run to run (--mode exact "
                    "gives the same bytes on any set)\n", devices);
}

/* Renders job on the set (every device of it, every rank of its job): the
 * host driver. */
static int ray_render(ls_set *set, const ray_job *job, ls_run *out, const ls_progress *progress, ls_error *err)
{
    memset(out, 0, sizeof *out);
    uint64_t pixels = (uint64_t)job->width * job->height;
    ray_data *d = calloc(1, sizeof *d);
    uint8_t *rgb = calloc((size_t)pixels, 3);
    if (!d || !rgb) {
        free(d);
        free(rgb);
        return ls_fail(err, "out of memory for a %ux%u image (%.0f MB)", job->width, job->height,
                       (double)pixels * 3 / 1e6);
    }
    d->job = *job;
    d->rgb = rgb;
    out->data = d;
    ls_set_ops ops = {
        .unit = "pixels",
        .first_gpu = first_chunk(RAY_FIRST_RAYS_GPU, job),
        .first_cpu = first_chunk(RAY_FIRST_RAYS_CPU, job),
        .max_chunk = pixels,
        .compute = ray_compute_chunk,
        .fold = ray_fold_chunk,
    };
    ray_split split = {.job = &d->job, .rgb = rgb};
    if (ls_set_run(set, &ops, &split, 0, 0, pixels, progress, &out->report, err) != 0) {
        ray_run_free(out);
        return -1;
    }
    const ls_set_report *st = &out->report;
    d->pixels = st->done;
    d->mixed = job->mode == RAY_MODE_FAST && !st->computed_only && mixed_kinds(set, st, &split);
    d->kind = !d->mixed && split.nkinds == 1 ? split.kinds[0] : 0;
    d->image = ray_image_digest(rgb, job->width, job->height);
    out->seconds = st->seconds;
    out->items = d->pixels * job->samples;
    out->interrupted = st->interrupted;
    snprintf(out->summary, sizeof out->summary, "image %016" PRIx64, d->image);
    return 0;
}

static int ray_run(ls_set *set, const void *pp, ls_run *out, const ls_progress *progress, ls_error *err)
{
    const ray_opts *o = pp;
    if (check_stdout(o, set, err) != 0)
        return -1;
    int rc = ray_render(set, &o->job, out, progress, err);
    if (rc == 0 && ((const ray_data *)out->data)->mixed)
        say_mixed(&out->report);
    return rc;
}

static const char *mode_name(int mode)
{
    return mode == RAY_MODE_FAST ? "fast" : "exact";
}

static void ray_result_json(const void *pp, const ls_run *run, FILE *out)
{
    (void)pp;
    const ray_data *d = run->data;
    fprintf(out,
            "\"width\":%u,\"height\":%u,\"samples\":%u,\"seed\":%" PRIu64 ",\"mode\":\"%s\",\"pixels\":%" PRIu64
            ",\"image\":\"%016" PRIx64 "\"",
            d->job.width, d->job.height, d->job.samples, d->job.seed, mode_name(d->job.mode), d->pixels, d->image);
    /* Only where it is true, so that every other run's result (and digest)
     * is the single device's. */
    if (d->mixed)
        fprintf(out, ",\"may_differ_by_device_kind\":true");
}

static void ray_print(const void *pp, const ls_set *set, const ls_run *run, FILE *out)
{
    const ray_opts *o = pp;
    const ray_data *d = run->data;
    double rate = run->seconds > 0 ? (double)run->items / run->seconds : 0.0;
    fprintf(out, "ray:      %ux%u, %u samples per pixel, seed %" PRIu64 ", %s mode%s\n", d->job.width, d->job.height,
            d->job.samples, d->job.seed, mode_name(d->job.mode), run->interrupted ? " (interrupted)" : "");
    ls_set_print(out, set, &run->report, "pixels");
    const char *where = out_is_stdout(o) ? "standard output" : o->out;
    fprintf(out, "image:    %016" PRIx64 "%s%s%s\n", d->image, o->out && !run->interrupted ? ", written to " : "",
            o->out && !run->interrupted ? where : "", o->out && run->interrupted ? " (not written: interrupted)" : "");
    if (d->mixed)
        fprintf(out, "note:     fast mode on devices of more than one kind: the image may differ between kinds\n");
    fprintf(out, "digest:   %s\n", run->digest);
    fprintf(out, "time:     %.4f s, %.4g rays/s (camera rays)\n", run->seconds, rate);
}

static int ray_write_outputs(const void *pp, const ls_run *run, ls_error *err)
{
    const ray_opts *o = pp;
    const ray_data *d = run->data;
    if (!o->out || run->interrupted)
        return 0; /* an interrupted image is never written (ray_print says so) */
    ls_image img = {d->job.width, d->job.height, LS_IMAGE_RGB, d->rgb};
    if (out_is_stdout(o))
        return ls_image_emit_ppm(&img, stdout, "standard output", err);
    return ls_image_save(o->out, &img, err);
}

static int ray_output_on_stdout(const void *pp)
{
    return out_is_stdout(pp);
}

/* How two images differ: how many pixels, by how much, and where first. */
static void ray_diff(const void *pp, const ls_run *a, const char *an, const ls_run *b, const char *bn, FILE *out)
{
    (void)pp;
    const ray_data *x = a->data, *y = b->data;
    if (x->job.width != y->job.width || x->job.height != y->job.height) {
        fprintf(out, "  image sizes differ: %s %ux%u, %s %ux%u\n", an, x->job.width, x->job.height, bn, y->job.width,
                y->job.height);
        return;
    }
    uint64_t pixels = (uint64_t)x->job.width * x->job.height, differ = 0, first = 0;
    int max = 0;
    for (uint64_t p = 0; p < pixels; p++) {
        int worst = 0;
        for (int c = 0; c < 3; c++) {
            int e = abs((int)x->rgb[3 * p + c] - (int)y->rgb[3 * p + c]);
            worst = e > worst ? e : worst;
        }
        if (worst && !differ++)
            first = p;
        max = worst > max ? worst : max;
    }
    if (!differ) {
        fprintf(out, "  the images are identical\n");
        return;
    }
    double psnr = ray_image_psnr(x->rgb, y->rgb, (size_t)pixels * 3);
    uint64_t row = first / x->job.width, col = first % x->job.width;
    const uint8_t *p = x->rgb + 3 * first, *q = y->rgb + 3 * first;
    fprintf(out, "  %" PRIu64 " of %" PRIu64 " pixels differ, by at most %d in a channel (PSNR %.1f dB)\n", differ,
            pixels, max, psnr);
    fprintf(out, "  first at row %" PRIu64 ", column %" PRIu64 ": %s (%u,%u,%u), %s (%u,%u,%u)\n", row, col, an, p[0],
            p[1], p[2], bn, q[0], q[1], q[2]);
}

/* The image changed: its digest and summary follow. */
static void image_changed(ls_run *run, ray_data *d)
{
    d->image = ray_image_digest(d->rgb, d->job.width, d->job.height);
    snprintf(run->summary, sizeof run->summary, "image %016" PRIx64, d->image);
}

/* Fault injection (LOCKSTEP_DEBUG_FAULT): one wrong value per field; a
 * wrong image is one channel of one pixel off by one. That is within fast
 * mode's bound, as a device of another kind may rightly differ: image_far
 * (not a field) moves every channel of every pixel by 32 levels instead,
 * 18 dB PSNR, below the bound at any size and sample count, so that the
 * tests can show that `check ray --mode fast` fails on it. */
static int ray_fault(ls_run *run, const char *field)
{
    ray_data *d = run->data;
    if (strcmp(field, "image") == 0) {
        uint64_t p = ((uint64_t)d->job.height / 2 * d->job.width + d->job.width / 2) * 3;
        d->rgb[p] ^= 1;
        image_changed(run, d);
    } else if (strcmp(field, "image_far") == 0) {
        for (uint64_t i = 0; i < (uint64_t)d->job.width * d->job.height * 3; i++)
            d->rgb[i] ^= 32;
        image_changed(run, d);
    } else if (strcmp(field, "width") == 0)
        d->job.width++;
    else if (strcmp(field, "height") == 0)
        d->job.height++;
    else if (strcmp(field, "samples") == 0)
        d->job.samples++;
    else if (strcmp(field, "seed") == 0)
        d->job.seed ^= 1;
    else if (strcmp(field, "mode") == 0)
        d->job.mode = d->job.mode == RAY_MODE_FAST ? RAY_MODE_EXACT : RAY_MODE_FAST;
    else if (strcmp(field, "pixels") == 0)
        d->pixels--;
    else
        return -1;
    return 0;
}

/* ---- Fast mode in `check` ---------------------------------------------------
 *
 * A fast image is a pure function of its inputs only per kind of device
 * (ray_kind), and docs/ray.md bounds it against exact mode's image, not
 * against another kind's fast image: `check` renders the exact image once
 * and holds every fast image to that bound. */

/* Fast mode is approximate; its exact run is the same job in exact mode. */
static int ray_approximate(const void *pp, void *exact)
{
    const ray_opts *o = pp;
    if (o->job.mode != RAY_MODE_FAST)
        return 0;
    ray_opts *e = exact;
    *e = *o;
    e->mode = "exact";
    e->job.mode = RAY_MODE_EXACT;
    return 1;
}

static uint64_t ray_run_kind(const ls_run *run)
{
    const ray_data *d = run->data;
    return d->kind;
}

/* Which field of a fast run's result is not the exact run's inputs (the
 * mode aside, which must be the one asked for), or NULL. */
static const char *not_same_inputs(const ray_opts *o, const ray_data *f, const ray_data *x)
{
    if (f->job.width != x->job.width)
        return "width";
    if (f->job.height != x->job.height)
        return "height";
    if (f->job.samples != x->job.samples)
        return "samples";
    if (f->job.seed != x->job.seed)
        return "seed";
    if (f->job.mode != o->job.mode)
        return "mode";
    uint64_t pixels = (uint64_t)x->job.width * x->job.height;
    return f->pixels != pixels || x->pixels != pixels ? "pixels" : NULL;
}

/* The fast image's PSNR from the exact image, and fast mode's bound at
 * its sample count. */
static int ray_closeness(const void *pp, const ls_run *run, const ls_run *exact, ls_closeness *c)
{
    const ray_opts *o = pp;
    *c = (ls_closeness){"fast mode's bound", "exact mode's image", "PSNR", "dB", "psnr_db", 0,
                        ray_fast_bound_db(o->job.samples), ""};
    if (!run || !exact)
        return 0;
    const ray_data *f = run->data, *x = exact->data;
    const char *field = not_same_inputs(o, f, x);
    if (field) {
        snprintf(c->why, sizeof c->why, "field %s differs from the exact run's", field);
        return -1;
    }
    c->value = ray_image_psnr(x->rgb, f->rgb, (size_t)x->job.width * x->job.height * 3);
    return 0;
}

/* ---- Conformance ------------------------------------------------------- */

/* Renders a golden case in exact mode and compares the image's digest with
 * the independent reference's (tests/ref_ray.c). */
static int ray_case(ls_set *set, const void *arg, char *detail, size_t len, ls_error *err)
{
    const ray_golden *g = arg;
    ray_job job;
    if (ray_job_init(&job, g->width, g->height, g->samples, g->seed, RAY_MODE_EXACT, err) != 0)
        return -1;
    ls_run run;
    if (ray_render(set, &job, &run, NULL, err) != 0)
        return -1;
    const ray_data *d = run.data;
    int pass = d->image == g->digest && d->pixels == (uint64_t)g->width * g->height;
    if (!pass)
        snprintf(detail, len, "image %016" PRIx64 ", expected %016" PRIx64, d->image, g->digest);
    else
        snprintf(detail, len, "image %016" PRIx64, d->image);
    ray_run_free(&run);
    return pass;
}

/* Every golden image is rendered in exact mode. */
#define RAY_CASE_NEEDS LS_CAP_BIT(LS_CAP_EXACT_FP)
static const ls_case ray_cases[] = {
    {"ray 16x16, 4 spp", ray_case, &ray_golden_cases[0], RAY_CASE_NEEDS},
    {"ray 33x7, 3 spp (partial tiles)", ray_case, &ray_golden_cases[1], RAY_CASE_NEEDS},
    {"ray 1x1, 1 spp", ray_case, &ray_golden_cases[2], RAY_CASE_NEEDS},
    {"ray 64x64, 64 spp", ray_case, &ray_golden_cases[3], RAY_CASE_NEEDS},
    {"ray 40x24, 5 spp, 64-bit seed", ray_case, &ray_golden_cases[4], RAY_CASE_NEEDS},
    {"ray 512x512, 2 spp (the whole card)", ray_case, &ray_golden_cases[5], RAY_CASE_NEEDS},
};
_Static_assert(sizeof ray_cases / sizeof ray_cases[0] == RAY_GOLDEN_COUNT, "one conformance case per golden entry");

const ls_workload ls_workload_ray = {
    .name = "ray",
    .summary = "Kensler's business-card raytracer: the same image bit for bit on every device (exact mode)",
    .unit = "rays",
    .params_size = sizeof(ray_opts),
    .params_default = ray_params_default,
    .params_quick = ray_params_quick,
    .params_options = ray_params_options,
    .run_options = ray_run_options,
    .params_validate = ray_params_validate,
    .run = ray_run,
    .result_json = ray_result_json,
    .print = ray_print,
    .write_outputs = ray_write_outputs,
    .output_on_stdout = ray_output_on_stdout,
    .diff = ray_diff,
    .fault = ray_fault,
    .approximate = ray_approximate,
    .run_kind = ray_run_kind,
    .closeness = ray_closeness,
    .needs = ray_needs,
    .run_free = ray_run_free,
    .cases = ray_cases,
    .ncases = RAY_GOLDEN_COUNT,
};
