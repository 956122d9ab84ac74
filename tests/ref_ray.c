/* ref_ray.c - an independent, deliberately plain business-card raytracer.
 *
 * It shares no code with src/algo/ray.h: it is the recursive original
 * (Kensler's card, as docs/ray.md states it) with the project's
 * definitions of what the card leaves open, written out again from the
 * document: random draws from Random123's own philox4x32 (Debian's
 * librandom123-dev), the bounce limit as a recursion depth, the checker
 * parity in integers, x^99 by squaring, and the same summation order. Every
 * float operation below is binary32 and the file is built with
 * -ffp-contract=off, so its images are what exact mode must produce.
 *
 * It checks the golden table that the conformance suite and the CPU tests
 * compile in (src/workloads/ray/ray_golden.h); with --print it writes that
 * table; with --ppm W H SPP SEED FILE it writes one image. */
#include <Random123/philox.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ray_golden.h"

typedef struct {
    float x, y, z;
} vec;

static vec V(float x, float y, float z)
{
    vec v = {x, y, z};
    return v;
}
static vec plus(vec a, vec b) { return V(a.x + b.x, a.y + b.y, a.z + b.z); }
static vec minus(vec a, vec b) { return V(a.x - b.x, a.y - b.y, a.z - b.z); }
static vec times(vec a, float s) { return V(a.x * s, a.y * s, a.z * s); }
static float dot(vec a, vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static vec cross(vec a, vec b) { return V(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static vec unit(vec a) { return times(a, 1.0f / sqrtf(dot(a, a))); }

static const int G[9] = {247570, 280596, 280600, 249748, 18578, 18577, 231184, 16, 16};
enum { LIMIT = 16 }; /* sphere hits per path (docs/ray.md) */

/* The random draws of one sample: Philox keyed by the seed, counter
 * (pixel, sample, block, "ray_"). */
typedef struct {
    uint64_t seed;
    uint32_t pixel, sample;
} stream;

static float draw(const stream *s, uint32_t block, int word)
{
    philox4x32_ctr_t c = {{s->pixel, s->sample, block, 0x7261795fu}};
    philox4x32_key_t k = {{(uint32_t)s->seed, (uint32_t)(s->seed >> 32)}};
    philox4x32_ctr_t r = philox4x32_R(10, c, k);
    return (float)(r.v[word] >> 8) / 16777216.0f;
}

/* 0 nothing, 1 floor, 2 sphere; t and n of the nearest hit. */
static int T(vec o, vec d, float *t, vec *n)
{
    *t = 1e9f;
    int m = 0;
    float p = -o.z / d.z;
    if (p > 0.01f)
        *t = p, *n = V(0, 0, 1), m = 1;
    for (int k = 19; k--;)
        for (int j = 9; j--;)
            if (G[j] & 1 << k) {
                vec q = minus(o, V((float)k, 0, (float)(j + 4)));
                float b = dot(q, d), c = dot(q, q) - 1, disc = b * b - c;
                if (disc > 0) {
                    float s = -b - sqrtf(disc);
                    if (s < *t && s > 0.01f)
                        *t = s, *n = unit(plus(q, times(d, s))), m = 2;
                }
            }
    return m;
}

static float pow99(float x)
{
    float p = x, acc;
    float sq[7];
    sq[0] = p;
    for (int i = 1; i < 7; i++)
        sq[i] = sq[i - 1] * sq[i - 1]; /* x^(2^i) */
    acc = sq[6] * sq[5];               /* x^64 x^32 */
    acc = acc * sq[1];                 /* x^2 */
    return acc * sq[0];
}

static int ceil_odd(float x)
{
    if (!(fabsf(x) < 16777216.0f))
        return 0; /* even integers (or not numbers): parity 0 */
    long c = (long)ceilf(x);
    return (int)(c & 1);
}

/* depth: rays traced before this one on the path, hits: sphere hits. */
static vec S(const stream *st, vec o, vec d, int depth)
{
    float t;
    vec n;
    int m = T(o, d, &t, &n);
    if (!m) {
        float w = 1 - d.z;
        float w4 = (w * w) * (w * w);
        return times(V(0.7f, 0.6f, 1), w4);
    }
    uint32_t block = 1 + (uint32_t)depth / 2;
    int word = 2 * (depth % 2);
    float jx = draw(st, block, word), jy = draw(st, block, word + 1);
    vec h = plus(o, times(d, t));
    vec l = unit(minus(V(9 + jx, 9 + jy, 16), h));
    vec r = plus(d, times(n, dot(n, d) * -2));
    float b = dot(l, n);
    float t2;
    vec n2;
    if (b < 0 || T(h, l, &t2, &n2))
        b = 0;
    if (m == 1) {
        vec hs = times(h, 0.2f);
        vec tint = (ceil_odd(hs.x) + ceil_odd(hs.y)) & 1 ? V(3, 1, 1) : V(3, 3, 3);
        return times(tint, b * 0.2f + 0.1f);
    }
    float p = pow99(dot(l, r) * (float)(b > 0));
    vec rest = depth + 1 < LIMIT ? S(st, h, r, depth + 1) : V(0, 0, 0);
    return plus(V(p, p, p), times(rest, 0.5f));
}

static int byte_of(float v)
{
    if (v != v || v <= 0)
        return 0;
    return v >= 255 ? 255 : (int)v;
}

/* The image, row 0 at the top: row r is y = H-1-r, column c is x = W-1-c. */
static unsigned char *render(uint32_t W, uint32_t H, uint32_t spp, uint64_t seed)
{
    unsigned char *img = malloc((size_t)W * H * 3);
    if (!img) {
        fprintf(stderr, "ref_ray: out of memory for a %ux%u image\n", W, H);
        exit(1);
    }
    float pitch = 1.024f / (float)W;
    vec g = unit(V(-6, -16, 0));
    vec a = times(unit(cross(V(0, 0, 1), g)), pitch);
    vec b = times(unit(cross(g, a)), pitch);
    vec c = plus(plus(times(a, -(float)W / 2), times(b, -(float)H / 2)), g);
    for (uint32_t row = 0; row < H; row++)
        for (uint32_t col = 0; col < W; col++) {
            float x = (float)(W - 1 - col), y = (float)(H - 1 - row);
            vec sum = V(0, 0, 0);
            for (uint32_t s = 0; s < spp; s++) {
                stream st = {seed, row * W + col, s};
                float u0 = draw(&st, 0, 0), u1 = draw(&st, 0, 1), u2 = draw(&st, 0, 2), u3 = draw(&st, 0, 3);
                vec t = plus(times(times(a, u0 - 0.5f), 99), times(times(b, u1 - 0.5f), 99));
                vec aim = plus(plus(times(a, u2 + x), times(b, y + u3)), c);
                vec dir = unit(plus(times(t, -1), times(aim, 16)));
                sum = plus(sum, times(S(&st, plus(V(17, 16, 8), t), dir, 0), 3.5f));
            }
            float scale = 64.0f / (float)spp;
            unsigned char *px = img + ((size_t)row * W + col) * 3;
            px[0] = (unsigned char)byte_of(13 + sum.x * scale);
            px[1] = (unsigned char)byte_of(13 + sum.y * scale);
            px[2] = (unsigned char)byte_of(13 + sum.z * scale);
        }
    return img;
}

/* FNV-1a 64 over width and height (4 bytes each, little-endian) and the
 * RGB bytes. */
static uint64_t digest(const unsigned char *img, uint32_t W, uint32_t H)
{
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned char head[8];
    for (int i = 0; i < 4; i++) {
        head[i] = (unsigned char)(W >> (8 * i));
        head[4 + i] = (unsigned char)(H >> (8 * i));
    }
    for (int i = 0; i < 8; i++)
        h = (h ^ head[i]) * 0x100000001b3ull;
    for (size_t i = 0; i < (size_t)W * H * 3; i++)
        h = (h ^ img[i]) * 0x100000001b3ull;
    return h;
}

static int write_ppm(const char *path, const unsigned char *img, uint32_t W, uint32_t H)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return 1;
    }
    fprintf(f, "P6\n%u %u\n255\n", W, H);
    fwrite(img, 3, (size_t)W * H, f);
    if (fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 7 && strcmp(argv[1], "--ppm") == 0) {
        uint32_t W = (uint32_t)strtoul(argv[2], NULL, 10), H = (uint32_t)strtoul(argv[3], NULL, 10);
        uint32_t spp = (uint32_t)strtoul(argv[4], NULL, 10);
        uint64_t seed = strtoull(argv[5], NULL, 10);
        unsigned char *img = render(W, H, spp, seed);
        printf("%016" PRIx64 "\n", digest(img, W, H));
        int rc = write_ppm(argv[6], img, W, H);
        free(img);
        return rc;
    }
    int print = argc == 2 && strcmp(argv[1], "--print") == 0;
    int failed = 0;
    for (int i = 0; i < RAY_GOLDEN_COUNT; i++) {
        const ray_golden *g = &ray_golden_cases[i];
        unsigned char *img = render(g->width, g->height, g->samples, g->seed);
        uint64_t h = digest(img, g->width, g->height);
        free(img);
        if (print) {
            printf("    {%u, %u, %u, %" PRIu64 "u, 0x%016" PRIx64 "ull},\n", g->width, g->height, g->samples, g->seed,
                   h);
        } else if (h != g->digest) {
            printf("FAIL %ux%u %u spp seed %" PRIu64 ": reference %016" PRIx64 ", golden table %016" PRIx64 "\n",
                   g->width, g->height, g->samples, g->seed, h, g->digest);
            failed = 1;
        } else {
            printf("ok   %ux%u %u spp seed %" PRIu64 ": %016" PRIx64 "\n", g->width, g->height, g->samples, g->seed, h);
        }
    }
    return failed;
}
