/* ray.c - the raytracer workload on the host: parameters, the host driver
 * (ranges of pixels on a device, progress, Ctrl-C), the result (the image
 * and its digest) for people and for scripts, the output file, the
 * comparison of two images for `check`, and the conformance cases. The
 * pixel itself is src/algo/ray.h; a range runs on GPUs in ray_gpu.c and on
 * the CPU in ray_cpu.c. */
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chunks.h"
#include "image.h"
#include "ray_golden.h"
#include "ray_range.h"
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
        {"size", LS_OPT_STRING, &o->size, 0, 0, "WxH",
         "image size, 1x1 to 8192x8192; N is NxN (default 512x512)"},
        {"spp", LS_OPT_COUNT, &o->samples, RAY_MIN_SAMPLES, RAY_MAX_SAMPLES, "N",
         "samples per pixel (default 64; the brightness is the same for any N)"},
        {"seed", LS_OPT_U64, &o->seed, 0, 0, "S", "random seed; the image is a pure function of (size, spp, seed)"},
        {"mode", LS_OPT_STRING, &o->mode, 0, 0, "exact|fast",
         "exact: the same bytes on every device (default); fast: fast math, within 40 dB PSNR of exact from 10 spp, 30 dB at 1"},
    };
    int n = (int)(sizeof opts / sizeof opts[0]);
    if (n > max)
        n = max;
    memcpy(out, opts, (size_t)n * sizeof *out);
    return n;
}

static int ray_run_options(void *pp, ls_opt *out, int max)
{
    ray_opts *o = pp;
    ls_opt opts[] = {
        {"out", LS_OPT_STRING, &o->out, 0, 0, "FILE",
         "write the image: .png, or .ppm (whole or not at all); - writes PPM to standard output and the report to "
         "standard error"},
    };
    int n = max < 1 ? 0 : 1;
    memcpy(out, opts, (size_t)n * sizeof *out);
    return n;
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
    if (!out_is_stdout(o))
        return ls_image_check_path(o->out, LS_IMAGE_RGB, err);
    if (isatty(STDOUT_FILENO))
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

static void ray_run_free(ls_run *run)
{
    ray_data *d = run->data;
    if (d)
        free(d->rgb);
    free(d);
    run->data = NULL;
}

/* One range on whatever device s is. */
static int ray_range(ls_device *s, const ray_job *job, uint64_t first, uint64_t count, uint8_t *rgb, double *secs,
                     ls_error *err)
{
    if (s->backend->gpu)
        return ray_gpu_range(s, job, first, count, rgb, secs, err);
    double t0 = omp_get_wtime();
    ray_cpu_render(job, first, count, rgb);
    *secs = omp_get_wtime() - t0;
    return 0;
}

/* Renders job on the set's first device (the command layer gives the
 * raytracer no other): the host driver. */
static int ray_render(ls_set *set, const ray_job *job, ls_run *out, const ls_progress *progress, ls_error *err)
{
    ls_device *s = &set->dev[0];
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
    uint64_t first_rays = s->info.is_gpu ? RAY_FIRST_RAYS_GPU : RAY_FIRST_RAYS_CPU;
    uint64_t first_range = first_rays / job->samples > RAY_CPU_LANES ? first_rays / job->samples : RAY_CPU_LANES;
    ls_chunks chunks;
    ls_chunks_init(&chunks, first_range, pixels);
    while (d->pixels < pixels) {
        uint64_t n = ls_chunks_next(&chunks, pixels - d->pixels);
        double secs = 0;
        if (ray_range(s, job, d->pixels, n, rgb + 3 * d->pixels, &secs, err) != 0) {
            ray_run_free(out);
            return -1;
        }
        ls_chunks_done(&chunks, n, secs);
        d->pixels += n;
        out->seconds += secs;
        if (progress && progress->report && progress->report(progress->user, d->pixels, pixels))
            break;
    }
    d->image = ray_image_digest(rgb, job->width, job->height);
    out->items = d->pixels * job->samples;
    out->interrupted = d->pixels < pixels;
    snprintf(out->summary, sizeof out->summary, "image %016" PRIx64, d->image);
    return 0;
}

static int ray_run(ls_set *set, const void *pp, ls_run *out, const ls_progress *progress, ls_error *err)
{
    return ray_render(set, &((const ray_opts *)pp)->job, out, progress, err);
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
}

static void ray_print(const void *pp, const ls_set *set, const ls_run *run, FILE *out)
{
    const ls_device *s = &set->dev[0];
    const ray_opts *o = pp;
    const ray_data *d = run->data;
    double rate = run->seconds > 0 ? (double)run->items / run->seconds : 0.0;
    fprintf(out, "ray:      %ux%u, %u samples per pixel, seed %" PRIu64 ", %s mode%s\n", d->job.width, d->job.height,
            d->job.samples, d->job.seed, mode_name(d->job.mode), run->interrupted ? " (interrupted)" : "");
    fprintf(out, "backend:  %s (%s)\n", s->label, s->info.name);
    const char *where = out_is_stdout(o) ? "standard output" : o->out;
    fprintf(out, "image:    %016" PRIx64 "%s%s%s\n", d->image, o->out && !run->interrupted ? ", written to " : "",
            o->out && !run->interrupted ? where : "", o->out && run->interrupted ? " (not written: interrupted)" : "");
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
    double sq = 0;
    for (uint64_t p = 0; p < pixels; p++) {
        int worst = 0;
        for (int c = 0; c < 3; c++) {
            int e = abs((int)x->rgb[3 * p + c] - (int)y->rgb[3 * p + c]);
            sq += (double)e * e;
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
    double psnr = 10.0 * log10(255.0 * 255.0 * 3.0 * (double)pixels / sq);
    uint64_t row = first / x->job.width, col = first % x->job.width;
    const uint8_t *p = x->rgb + 3 * first, *q = y->rgb + 3 * first;
    fprintf(out, "  %" PRIu64 " of %" PRIu64 " pixels differ, by at most %d in a channel (PSNR %.1f dB)\n", differ,
            pixels, max, psnr);
    fprintf(out, "  first at row %" PRIu64 ", column %" PRIu64 ": %s (%u,%u,%u), %s (%u,%u,%u)\n", row, col, an, p[0],
            p[1], p[2], bn, q[0], q[1], q[2]);
}

/* Fault injection (LOCKSTEP_DEBUG_FAULT): one wrong value per field; a
 * wrong image is one channel of one pixel off by one. */
static int ray_fault(ls_run *run, const char *field)
{
    ray_data *d = run->data;
    if (strcmp(field, "image") == 0) {
        uint64_t p = ((uint64_t)d->job.height / 2 * d->job.width + d->job.width / 2) * 3;
        d->rgb[p] ^= 1;
        d->image = ray_image_digest(d->rgb, d->job.width, d->job.height);
        snprintf(run->summary, sizeof run->summary, "image %016" PRIx64, d->image);
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

static const ls_case ray_cases[] = {
    {"ray 16x16, 4 spp", ray_case, &ray_golden_cases[0]},
    {"ray 33x7, 3 spp (partial tiles)", ray_case, &ray_golden_cases[1]},
    {"ray 1x1, 1 spp", ray_case, &ray_golden_cases[2]},
    {"ray 64x64, 64 spp", ray_case, &ray_golden_cases[3]},
    {"ray 40x24, 5 spp, 64-bit seed", ray_case, &ray_golden_cases[4]},
    {"ray 512x512, 2 spp (the whole card)", ray_case, &ray_golden_cases[5]},
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
    .run_free = ray_run_free,
    .cases = ray_cases,
    .ncases = RAY_GOLDEN_COUNT,
};
