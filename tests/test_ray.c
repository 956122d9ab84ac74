/* test_ray.c - the raytracer's own checks:
 *   - the lattice window gives the same nearest hit as all 49 spheres, bit
 *     for bit, on millions of rays of every kind;
 *   - the CPU implementation (every instruction set this CPU runs, any
 *     thread count) reproduces the golden digests of the independent
 *     reference (tests/ref_ray.c) and ray.h's scalar ray_pixel;
 *   - the PSNR and fast mode's bound that `check ray` uses (ray_cpu.c);
 *   - fast mode stays within its PSNR bound of exact mode, on the default
 *     image and on one-row strips (all horizon, the worst case);
 *   - the image writers: PNG and PPM read back, bad names and unwritable
 *     places refused with no file left behind.
 * Usage: test_ray [--card FILE.png [exact|fast]] [--time W H SPP exact|fast]
 * (--card writes the default 512x512x64 image; --time prints seconds). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu_isa.h"
#include "image.h"
#include "ray_cpu.h"
#include "ray_golden.h"

static int failures;

#define CHECK(cond, ...)                               \
    do {                                               \
        if (!(cond)) {                                 \
            printf("FAIL %s:%d: ", __FILE__, __LINE__); \
            printf(__VA_ARGS__);                       \
            printf("\n");                              \
            failures++;                                \
        }                                              \
    } while (0)

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static float uniform(float lo, float hi)
{
    return lo + (hi - lo) * (float)(next_u64() >> 40) / 16777216.0f;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fprintf(stderr, "test_ray: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    return p;
}

/* ---- The window against all 49 spheres ------------------------------- */

static int same_hit(ray_hit a, ray_hit b)
{
    return a.m == b.m && memcmp(&a.t, &b.t, sizeof a.t) == 0 && memcmp(&a.n, &b.n, sizeof a.n) == 0;
}

/* A direction: uniform on the sphere, or (one time in four) with one or two
 * components zeroed or tiny before normalizing, the cases where a slab
 * sets no bound. */
static ray_v3 random_direction(void)
{
    ray_v3 d;
    do
        d = ray_v3_make(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
    while (ray_dot(d, d) > 1.0f || ray_dot(d, d) < 1e-4f);
    uint64_t shape = next_u64() % 16;
    if (shape == 0)
        d.y = 0.0f;
    else if (shape == 1)
        d.y = uniform(-1e-6f, 1e-6f);
    else if (shape == 2)
        d.x = d.z = 0.0f;
    else if (shape == 3)
        d.x = uniform(-2e-6f, 2e-6f);
    return ray_normalize(d);
}

/* An origin of one of the kinds the tracer meets: near the scene, on a
 * sphere's surface (reflections), on the floor, or far away. */
static ray_v3 random_origin(void)
{
    switch (next_u64() % 5) {
    case 0: return ray_v3_make(uniform(-5, 25), uniform(-5, 25), uniform(0, 20));
    case 1: {
        int k, j;
        do {
            k = (int)(next_u64() % RAY_COLS);
            j = (int)(next_u64() % RAY_ROWS);
        } while (!((ray_row_bits(j) >> k) & 1u));
        ray_v3 u = random_direction();
        return ray_v3_make((float)k + u.x, u.y, (float)j + 4.0f + u.z);
    }
    case 2: return ray_v3_make(uniform(-100, 100), uniform(-100, 100), uniform(-1e-4f, 1e-4f));
    case 3: return ray_v3_make(uniform(-3000, 3000), uniform(-3000, 3000), uniform(0, 3000));
    default: return ray_v3_make(uniform(-1.5f, 19.5f), uniform(-1.5f, 1.5f), uniform(2.5f, 13.5f));
    }
}

/* A ray aimed at a random point of a random sphere's neighbourhood, so
 * that grazing hits and near misses are frequent. */
static void aimed_ray(ray_v3 *o, ray_v3 *d)
{
    *o = random_origin();
    int k = (int)(next_u64() % RAY_COLS), j = (int)(next_u64() % RAY_ROWS);
    ray_v3 target = ray_v3_make((float)k + uniform(-1.2f, 1.2f), uniform(-1.2f, 1.2f),
                                (float)j + 4.0f + uniform(-1.2f, 1.2f));
    ray_v3 v = ray_sub(target, *o);
    *d = ray_dot(v, v) > 1e-6f ? ray_normalize(v) : random_direction();
}

static void check_window(void)
{
    long rays = 4000000, differ = 0, sphere_hits = 0, tried = 0;
    for (long i = 0; i < rays; i++) {
        ray_v3 o, d;
        if (i & 1)
            aimed_ray(&o, &d);
        else {
            o = random_origin();
            d = random_direction();
        }
        ray_hit all = ray_trace_all(o, d), win = ray_trace_window(o, d);
        ray_window_box w = ray_window(o, d);
        if (w.kmax >= w.kmin && w.jmax >= w.jmin)
            tried += (long)(w.kmax - w.kmin + 1) * (w.jmax - w.jmin + 1);
        sphere_hits += all.m == RAY_SPHERE;
        if (!same_hit(all, win)) {
            if (differ++ < 5)
                printf("  window differs: o (%.9g %.9g %.9g) d (%.9g %.9g %.9g): all m %u t %.9g, window m %u t %.9g\n",
                       o.x, o.y, o.z, d.x, d.y, d.z, all.m, all.t, win.m, win.t);
        }
    }
    CHECK(differ == 0, "the lattice window disagrees with all 49 spheres on %ld of %ld rays", differ, rays);
    CHECK(sphere_hits > rays / 10, "only %ld of %ld test rays hit a sphere: the test is not testing", sphere_hits,
          rays);
    printf("window: %ld rays (%ld sphere hits), %ld differ from all 49 spheres; %.1f lattice cells per ray\n", rays,
           sphere_hits, differ, (double)tried / (double)rays);
}

/* ---- Images ---------------------------------------------------------- */

static uint8_t *render_cpu(uint32_t w, uint32_t h, uint32_t spp, uint64_t seed, int mode)
{
    ray_job job;
    ls_error err;
    if (ray_job_init(&job, w, h, spp, seed, mode, &err) != 0) {
        printf("FAIL ray_job_init: %s\n", err.msg);
        exit(1);
    }
    uint8_t *rgb = xmalloc((size_t)w * h * 3);
    ray_cpu_render(&job, 0, (uint64_t)w * h, rgb);
    return rgb;
}

/* The image from one instruction set's tiles, one thread. */
static uint8_t *render_tiles(ray_tile_fn tile, uint32_t w, uint32_t h, uint32_t spp, uint64_t seed)
{
    ray_job job;
    ls_error err;
    if (ray_job_init(&job, w, h, spp, seed, RAY_MODE_EXACT, &err) != 0)
        exit(1);
    uint64_t n = (uint64_t)w * h;
    uint8_t *rgb = xmalloc(n * 3);
    for (uint64_t at = 0; at < n; at += RAY_CPU_LANES) {
        int count = n - at < RAY_CPU_LANES ? (int)(n - at) : RAY_CPU_LANES;
        tile(&job, at, count, rgb + 3 * at);
    }
    return rgb;
}

static void check_golden(void)
{
    for (int i = 0; i < RAY_GOLDEN_COUNT; i++) {
        const ray_golden *g = &ray_golden_cases[i];
        uint8_t *rgb = render_cpu(g->width, g->height, g->samples, g->seed, RAY_MODE_EXACT);
        uint64_t h = ray_image_digest(rgb, g->width, g->height);
        CHECK(h == g->digest, "%ux%u %u spp seed %" PRIu64 ": CPU %016" PRIx64 ", reference %016" PRIx64, g->width,
              g->height, g->samples, g->seed, h, g->digest);
        free(rgb);
    }
    printf("golden: %d images, CPU (%s) against the independent reference\n", RAY_GOLDEN_COUNT, ray_cpu_variant());
}

/* Every instruction set this CPU runs, and ray.h's scalar ray_pixel, give
 * the same bytes. */
static void check_variants(void)
{
    const uint32_t w = 37, h = 23, spp = 3;
    const uint64_t seed = 99;
    ray_camera cam = ray_camera_make(w, h);
    uint8_t *scalar = xmalloc((size_t)w * h * 3);
    for (uint32_t r = 0; r < h; r++)
        for (uint32_t c = 0; c < w; c++)
            ray_pixel(&cam, seed, w, h, spp, r, c, scalar + ((size_t)r * w + c) * 3);
    struct {
        const char *name;
        ray_tile_fn fn;
        int runs;
    } variants[] = {
        {"generic", ray_tile_exact_generic, 1},
#if defined(__x86_64__)
        {"avx2", ray_tile_exact_avx2, ls_cpu_isa() >= LS_ISA_AVX2},
        {"avx512", ray_tile_exact_avx512, ls_cpu_isa() >= LS_ISA_AVX512},
#endif
    };
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        if (!variants[v].runs) {
            printf("variants: %s not supported by this CPU, skipped\n", variants[v].name);
            continue;
        }
        uint8_t *rgb = render_tiles(variants[v].fn, w, h, spp, seed);
        size_t differ = 0;
        for (size_t i = 0; i < (size_t)w * h * 3; i++)
            differ += rgb[i] != scalar[i];
        CHECK(differ == 0, "%s tiles differ from ray_pixel in %zu of %u bytes", variants[v].name, differ, w * h * 3);
        free(rgb);
        printf("variants: %s tiles = scalar ray_pixel\n", variants[v].name);
    }
    free(scalar);
}

static void check_threads(void)
{
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    uint8_t *one = render_cpu(100, 61, 4, 5, RAY_MODE_EXACT);
    omp_set_num_threads(threads > 1 ? threads : 2);
    uint8_t *many = render_cpu(100, 61, 4, 5, RAY_MODE_EXACT);
    omp_set_num_threads(threads);
    CHECK(memcmp(one, many, 100 * 61 * 3) == 0, "1 and %d threads give different images", threads > 1 ? threads : 2);
    free(one);
    free(many);
}

/* The PSNR and the bound are ray_cpu.c's, the ones `check ray` uses: a
 * hand-computed figure pins the formula (over all channel values). */
static void check_psnr(void)
{
    uint8_t a[6] = {0, 10, 20, 30, 40, 50}, b[6] = {0, 10, 20, 30, 40, 50};
    CHECK(isinf(ray_image_psnr(a, b, 6)), "identical images: PSNR %.2f, expected infinite", ray_image_psnr(a, b, 6));
    b[4] = 42; /* a squared error of 4 over 6 values: 10 log10(255^2 * 6 / 4) */
    double want = 10.0 * log10(255.0 * 255.0 * 6.0 / 4.0), got = ray_image_psnr(a, b, 6);
    CHECK(fabs(got - want) < 1e-9, "PSNR %.6f, expected %.6f", got, want);
    CHECK(ray_fast_bound_db(1) == 30.0 && fabs(ray_fast_bound_db(4) - 36.0206) < 1e-4 &&
              ray_fast_bound_db(10) == 40.0 && ray_fast_bound_db(64) == 40.0,
          "fast bound %.4f %.4f %.4f %.4f, expected 30, 36.02, 40, 40", ray_fast_bound_db(1), ray_fast_bound_db(4),
          ray_fast_bound_db(10), ray_fast_bound_db(64));
}

/* Fast mode against exact mode on the default image and on the worst case,
 * a one-row strip that is all horizon, where rounding decides the floor's
 * checkerboard and shadows (docs/ray.md). */
static void check_fast(void)
{
    static const struct {
        uint32_t w, h, spp;
    } cases[] = {{512, 512, 64}, {8192, 1, 1}, {8192, 1, 4}, {8192, 1, 64}, {4096, 2, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t w = cases[i].w, h = cases[i].h, spp = cases[i].spp;
        uint8_t *exact = render_cpu(w, h, spp, 1, RAY_MODE_EXACT);
        uint8_t *fast = render_cpu(w, h, spp, 1, RAY_MODE_FAST);
        double db = ray_image_psnr(exact, fast, (size_t)w * h * 3);
        CHECK(db >= ray_fast_bound_db(spp), "fast mode at %ux%u, %u spp is %.2f dB PSNR from exact mode, below %.1f",
              w, h, spp, db, ray_fast_bound_db(spp));
        printf("fast: %.2f dB PSNR from exact at %ux%u, %u spp (bound %.1f)\n", db, w, h, spp, ray_fast_bound_db(spp));
        free(exact);
        free(fast);
    }
    /* Each instruction set's fast tiles (they contract and approximate
     * differently) on the worst case. */
    const uint32_t w = 8192, h = 1;
    uint8_t *exact = render_cpu(w, h, 1, 1, RAY_MODE_EXACT);
    struct {
        const char *name;
        ray_tile_fn fn;
        int runs;
    } variants[] = {
        {"generic", ray_tile_fast_generic, 1},
#if defined(__x86_64__)
        {"avx2", ray_tile_fast_avx2, ls_cpu_isa() >= LS_ISA_AVX2},
        {"avx512", ray_tile_fast_avx512, ls_cpu_isa() >= LS_ISA_AVX512},
#endif
    };
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        if (!variants[v].runs)
            continue;
        uint8_t *fast = render_tiles(variants[v].fn, w, h, 1, 1);
        double db = ray_image_psnr(exact, fast, (size_t)w * h * 3);
        CHECK(db >= ray_fast_bound_db(1), "%s fast tiles at %ux%u, 1 spp: %.2f dB PSNR from exact, below %.1f",
              variants[v].name, w, h, db, ray_fast_bound_db(1));
        printf("fast: %s tiles %.2f dB PSNR from exact at %ux%u, 1 spp\n", variants[v].name, db, w, h);
        free(fast);
    }
    free(exact);
}

/* ---- Image files ----------------------------------------------------- */

static uint8_t *read_png(const char *path, uint32_t *w, uint32_t *h, int *channels)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path))
        return NULL;
    *channels = (img.format & PNG_FORMAT_FLAG_COLOR) ? 3 : 1;
    img.format = *channels == 3 ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
    uint8_t *buf = xmalloc(PNG_IMAGE_SIZE(img));
    if (!png_image_finish_read(&img, NULL, buf, 0, NULL)) {
        free(buf);
        return NULL;
    }
    *w = img.width;
    *h = img.height;
    return buf;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Files in dir other than . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void check_png_round_trip(const char *dir, int channels)
{
    const uint32_t w = 13, h = 7;
    uint8_t px[13 * 7 * 3];
    for (size_t i = 0; i < sizeof px; i++)
        px[i] = (uint8_t)(next_u64() & 255);
    ls_image img = {w, h, channels, px};
    char path[512];
    snprintf(path, sizeof path, "%s/rt%d.PNG", dir, channels);
    ls_error err;
    CHECK(ls_image_save(path, &img, &err) == 0, "saving %s: %s", path, err.msg);
    uint32_t rw = 0, rh = 0;
    int rc = 0;
    uint8_t *back = read_png(path, &rw, &rh, &rc);
    CHECK(back && rw == w && rh == h && rc == channels && memcmp(back, px, (size_t)w * h * channels) == 0,
          "%s does not read back as written", path);
    free(back);
    unlink(path);
}

static void check_ppm(const char *dir)
{
    uint8_t gray[6] = {0, 10, 20, 30, 40, 255};
    ls_image img = {3, 2, LS_IMAGE_GRAY, gray};
    char path[512];
    snprintf(path, sizeof path, "%s/g.ppm", dir);
    ls_error err;
    CHECK(ls_image_save(path, &img, &err) == 0, "saving %s: %s", path, err.msg);
    FILE *f = fopen(path, "rb");
    char buf[64] = {0};
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    const char head[] = "P6\n3 2\n255\n";
    CHECK(n == sizeof head - 1 + 18 && memcmp(buf, head, sizeof head - 1) == 0 &&
              (uint8_t)buf[sizeof head - 1 + 15] == 255 && (uint8_t)buf[sizeof head - 1 + 3] == 10,
          "%s: not a 3x2 P6 file with gray expanded to RGB", path);
    unlink(path);
    snprintf(path, sizeof path, "%s/g.pgm", dir);
    CHECK(ls_image_save(path, &img, &err) == 0, "saving %s: %s", path, err.msg);
    unlink(path);
}

static void check_refusals(const char *dir)
{
    uint8_t px[3] = {1, 2, 3};
    ls_image img = {1, 1, LS_IMAGE_RGB, px};
    ls_error err;
    char path[512];
    snprintf(path, sizeof path, "%s/no/such/dir/x.png", dir);
    CHECK(ls_image_save(path, &img, &err) != 0 && strstr(err.msg, "No such file"), "saving under a missing directory: %s",
          err.msg);
    CHECK(ls_image_check_path(path, LS_IMAGE_RGB, &err) != 0 && err.usage, "check_path accepts %s", path);
    snprintf(path, sizeof path, "%s/x.jpg", dir);
    CHECK(ls_image_check_path(path, LS_IMAGE_RGB, &err) != 0 && err.usage && strstr(err.msg, ".png"),
          "check_path accepts %s (%s)", path, err.msg);
    /* The formats offered are those that hold the image: .pgm for gray. */
    CHECK(!strstr(err.msg, ".pgm"), "a colour image is offered .pgm: %s", err.msg);
    CHECK(ls_image_check_path(path, LS_IMAGE_GRAY, &err) != 0 && strstr(err.msg, ".pgm"),
          "a gray image is not offered .pgm: %s", err.msg);
    snprintf(path, sizeof path, "%s/x.pgm", dir);
    CHECK(ls_image_check_path(path, LS_IMAGE_RGB, &err) != 0, "a colour image is accepted as PGM");
    CHECK(ls_image_save(path, &img, &err) != 0 && !file_exists(path), "a colour PGM was written");
    snprintf(path, sizeof path, "%s/ok.png", dir);
    CHECK(ls_image_check_path(path, LS_IMAGE_RGB, &err) == 0, "check_path refuses %s: %s", path, err.msg);
    CHECK(!file_exists(path), "check_path left %s behind", path);
    /* A read-only directory (root ignores permissions: skip then). */
    char ro[256];
    snprintf(ro, sizeof ro, "%.200s/ro", dir);
    if (mkdir(ro, 0555) == 0 && access(ro, W_OK) != 0) {
        snprintf(path, sizeof path, "%s/x.png", ro);
        CHECK(ls_image_save(path, &img, &err) != 0 && strstr(err.msg, "ermission"), "saving in a read-only "
                                                                                   "directory: %s", err.msg);
        CHECK(entries(ro) == 0, "a failed save left a file in %s", ro);
    }
    rmdir(ro);
    /* A full disk, where Linux has one: everything refused, nothing left. */
    if (file_exists("/dev/full")) {
        FILE *f = fopen("/dev/full", "wb");
        uint8_t big[64 * 64 * 3] = {0};
        ls_image large = {64, 64, LS_IMAGE_RGB, big};
        CHECK(f && ls_image_write_png(f, "/dev/full", &large, &err) != 0, "a PNG write to /dev/full succeeded");
        if (f)
            fclose(f);
        f = fopen("/dev/full", "wb");
        CHECK(f && ls_image_write_ppm(f, "/dev/full", &large, &err) != 0, "a PPM write to /dev/full succeeded");
        if (f)
            fclose(f);
    }
    CHECK(entries(dir) == 0, "files left behind in %s", dir);
}

static void check_image_files(void)
{
    char dir[] = "/tmp/test_ray.XXXXXX";
    if (!mkdtemp(dir)) {
        printf("FAIL cannot make a temporary directory: %s\n", strerror(errno));
        failures++;
        return;
    }
    check_png_round_trip(dir, LS_IMAGE_RGB);
    check_png_round_trip(dir, LS_IMAGE_GRAY);
    check_ppm(dir);
    check_refusals(dir);
    rmdir(dir);
    printf("images: PNG and PPM written whole, refusals leave nothing\n");
}

/* ---- Tools ----------------------------------------------------------- */

static int mode_of(const char *s)
{
    return strcmp(s, "fast") == 0 ? RAY_MODE_FAST : RAY_MODE_EXACT;
}

static int write_card(const char *path, int mode)
{
    double t0 = omp_get_wtime();
    uint8_t *rgb = render_cpu(512, 512, 64, 1, mode);
    double t1 = omp_get_wtime();
    ls_image img = {512, 512, LS_IMAGE_RGB, rgb};
    ls_error err;
    int rc = ls_image_save(path, &img, &err);
    if (rc != 0)
        fprintf(stderr, "%s\n", err.msg);
    printf("%s: 512x512x64 %s in %.3f s (%s, %d threads), digest %016" PRIx64 "\n", path,
           mode == RAY_MODE_FAST ? "fast" : "exact", t1 - t0, ray_cpu_variant(), omp_get_max_threads(),
           ray_image_digest(rgb, 512, 512));
    free(rgb);
    return rc != 0;
}

static int time_render(uint32_t w, uint32_t h, uint32_t spp, int mode)
{
    double best = 1e30;
    uint64_t digest = 0;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = omp_get_wtime();
        uint8_t *rgb = render_cpu(w, h, spp, 1, mode);
        double t = omp_get_wtime() - t0;
        best = t < best ? t : best;
        digest = ray_image_digest(rgb, w, h);
        free(rgb);
    }
    printf("%ux%u %u spp %s: best of 3 %.3f s, %.3g rays/s (camera rays), %s, %d threads, digest %016" PRIx64 "\n", w,
           h, spp, mode == RAY_MODE_FAST ? "fast" : "exact", best, (double)w * h * spp / best, ray_cpu_variant(),
           omp_get_max_threads(), digest);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "--card") == 0)
        return write_card(argv[2], argc >= 4 ? mode_of(argv[3]) : RAY_MODE_EXACT);
    if (argc == 6 && strcmp(argv[1], "--time") == 0)
        return time_render((uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3]), (uint32_t)atoi(argv[4]),
                           mode_of(argv[5]));
    check_image_files();
    check_golden();
    check_variants();
    check_threads();
    check_window();
    check_psnr();
    check_fast();
    printf("%s\n", failures ? "FAILED" : "all passed");
    return failures != 0;
}
