/* ray.h - Andrew Kensler's business-card raytracer, written once for every
 * backend: the scene, one ray's nearest hit, and one sample of one pixel.
 *
 * docs/ray.md states the scene, the random draws, the bounce limit and the
 * order of every floating-point operation. In exact mode a pixel's colour
 * is a pure function of (size, samples, seed, pixel): every operation here
 * is a single IEEE-754 binary32 +, -, *, / or sqrt, each correctly
 * rounded, none contracted into a fused multiply-add, and no library
 * transcendental is called (pow is a fixed sequence of multiplications).
 * That holds when the file is compiled under the exact floating-point rule
 * (src/kernels/dialect.h: LS_EXACT_FP on GPUs, -ffp-contract=off in C).
 * Every constant is a float literal, so no step happens in double.
 *
 * Two nearest-hit functions give the same answer bit for bit:
 *   ray_trace_all      the floor and then the 49 spheres in the original's
 *                      order (columns k = 18..0, rows j = 8..0), the
 *                      definition;
 *   ray_trace_window   the floor and only the spheres of the lattice
 *                      window the ray crosses (ray_window), 2-3 spheres
 *                      for a camera ray instead of 49.
 * They agree because the window is conservative (it contains every sphere
 * the ray can hit, with a margin for rounding) and the spheres inside it
 * are tried in the same order with the same arithmetic: a strict "<" scan
 * in a fixed order keeps the first minimum, and that sphere is in the
 * window. tests/test_ray.c checks it on millions of rays. */
#ifndef LOCKSTEP_ALGO_RAY_H
#define LOCKSTEP_ALGO_RAY_H

#include "philox.h"

#if defined(LS_SHAPE_CPU) && LS_SHAPE == LS_SHAPE_CPU && defined(__OPTIMIZE__)
/* OpenCL's CPU kernel shape (src/kernels/dialect.h, included first):
 * PoCL's sqrt is a call into its library, which keeps the lanes' loops
 * (ray_render.h) from vectorizing; LLVM's square root is the same
 * correctly rounded operation (one vsqrtps for the lanes). Not in an
 * unoptimized build (Oclgrind's), whose interpreter lacks LLVM's. */
#define RAY_SQRT(x) __builtin_sqrtf(x)
#elif defined(__OPENCL_C_VERSION__) || defined(__CUDACC__)
#define RAY_SQRT(x) sqrt(x)
#else
#include <math.h>
#define RAY_SQRT(x) sqrtf(x)
#endif
/* 1 / sqrt(x): exactly that, twice rounded, unless a fast-mode program
 * defines RAY_RSQRT as the device's approximate reciprocal square root. */
#ifndef RAY_RSQRT
#define RAY_RSQRT(x) (1.0f / RAY_SQRT(x))
#endif

/* ---- The scene ------------------------------------------------------- */

/* Sphere (k, j) of radius 1 sits at (k, 0, j + 4) when bit k of row j is
 * set: 49 spheres spelling "aek". */
#define RAY_G0 247570u
#define RAY_G1 280596u
#define RAY_G2 280600u
#define RAY_G3 249748u
#define RAY_G4 18578u
#define RAY_G5 18577u
#define RAY_G6 231184u
#define RAY_G7 16u
#define RAY_G8 16u
#define RAY_COLS 19 /* k = 0..18 */
#define RAY_ROWS 9  /* j = 0..8 */
#define RAY_ROW_Z0 4.0f /* z of row 0 */

/* The original's thresholds: a hit counts beyond t = 0.01, and "no hit"
 * starts at t = 1e9. */
#define RAY_T_MIN 0.01f
#define RAY_T_FAR 1e9f

/* Camera: position, looking along (-6, -16, 0), the original 512-pixel
 * image's pixel pitch 0.002 (1.024 / width here), lens offsets scaled by 99
 * and the focal factor 16; the light is the square (9..10, 9..10, 16). */
#define RAY_EYE_X 17.0f
#define RAY_EYE_Y 16.0f
#define RAY_EYE_Z 8.0f
#define RAY_VIEW_WIDTH 1.024f
#define RAY_LENS 99.0f
#define RAY_FOCUS 16.0f
#define RAY_LIGHT_XY 9.0f
#define RAY_LIGHT_Z 16.0f

/* Colour: 13 + (64 / samples) * sum of 3.5 * sample. */
#define RAY_BASE 13.0f
#define RAY_SAMPLE_SCALE 3.5f
#define RAY_REF_SAMPLES 64.0f

/* The bounce limit: a path follows at most RAY_MAX_HITS sphere hits; the
 * reflection of the last one is not traced and counts as black. The
 * default 512x512x64 image never reaches it (docs/ray.md gives the
 * deepest path), so the limit changes nothing there and bounds the work
 * and the per-path stack everywhere. */
#define RAY_MAX_HITS 16

/* Pixels side by side in a tile of the CPU's SIMD form (ray_lanes.h). */
#define RAY_LANES 16

/* Philox counter word 3 of the ray streams: "ray_". */
#define RAY_TAG 0x7261795fu

/* What a ray hit. */
#define RAY_MISS 0u
#define RAY_FLOOR 1u
#define RAY_SPHERE 2u

typedef struct {
    float x, y, z;
} ray_v3;

/* The view of a W x H image: eye, pixel steps a and b, corner c. */
typedef struct {
    ray_v3 a, b, c;
} ray_camera;

typedef struct {
    ls_u32 m; /* RAY_MISS, RAY_FLOOR or RAY_SPHERE */
    float t;  /* distance along the ray */
    ray_v3 n; /* unit normal at the hit */
} ray_hit;

/* Bits of row j of G (which columns hold a sphere). A function, not a
 * table: CUDA device code cannot read host statics. */
LS_FN ls_u32 ray_row_bits(int j)
{
    switch (j) {
    case 0: return RAY_G0;
    case 1: return RAY_G1;
    case 2: return RAY_G2;
    case 3: return RAY_G3;
    case 4: return RAY_G4;
    case 5: return RAY_G5;
    case 6: return RAY_G6;
    case 7: return RAY_G7;
    case 8: return RAY_G8;
    default: return 0u;
    }
}

/* Bit j of column k's mask: the sphere (k, j), as a constant expression of
 * the rows above for a literal k. */
#define RAY_COL_BIT(g, k, j) ((((g) >> (k)) & 1u) << (j))
#define RAY_COL_BITS(k)                                                                                   \
    (RAY_COL_BIT(RAY_G0, k, 0) | RAY_COL_BIT(RAY_G1, k, 1) | RAY_COL_BIT(RAY_G2, k, 2) |                \
     RAY_COL_BIT(RAY_G3, k, 3) | RAY_COL_BIT(RAY_G4, k, 4) | RAY_COL_BIT(RAY_G5, k, 5) |                \
     RAY_COL_BIT(RAY_G6, k, 6) | RAY_COL_BIT(RAY_G7, k, 7) | RAY_COL_BIT(RAY_G8, k, 8))
/* Seven columns' 9-bit masks in one 64-bit word, column k0 lowest. */
#define RAY_COLS7(k0)                                                                                     \
    ((ls_u64)RAY_COL_BITS(k0) | (ls_u64)RAY_COL_BITS(k0 + 1) << 9 | (ls_u64)RAY_COL_BITS(k0 + 2) << 18 | \
     (ls_u64)RAY_COL_BITS(k0 + 3) << 27 | (ls_u64)RAY_COL_BITS(k0 + 4) << 36 |                           \
     (ls_u64)RAY_COL_BITS(k0 + 5) << 45 | (ls_u64)RAY_COL_BITS(k0 + 6) << 54)

/* The rows j that hold a sphere in column k (0..18), as bits: the columns
 * packed into three constants (columns 19 and 20 of the last are empty),
 * so that a window visits its spheres, not its empty cells, without a
 * table in memory. */
LS_FN ls_u32 ray_col_bits(int k)
{
    ls_u64 w = k < 7 ? RAY_COLS7(0) : k < 14 ? RAY_COLS7(7) : RAY_COLS7(14);
    int at = k < 7 ? k : k < 14 ? k - 7 : k - 14;
    return (ls_u32)(w >> (9 * at)) & 511u;
}

/* ---- Vectors, with the original's operation order -------------------- */

LS_FN ray_v3 ray_v3_make(float x, float y, float z)
{
    ray_v3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

LS_FN ray_v3 ray_add(ray_v3 a, ray_v3 b)
{
    return ray_v3_make(a.x + b.x, a.y + b.y, a.z + b.z);
}

LS_FN ray_v3 ray_sub(ray_v3 a, ray_v3 b)
{
    return ray_v3_make(a.x - b.x, a.y - b.y, a.z - b.z);
}

LS_FN ray_v3 ray_scale(ray_v3 a, float s)
{
    return ray_v3_make(a.x * s, a.y * s, a.z * s);
}

/* (x*x' + y*y') + z*z', left to right. */
LS_FN float ray_dot(ray_v3 a, ray_v3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

LS_FN ray_v3 ray_cross(ray_v3 a, ray_v3 b)
{
    return ray_v3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

/* v times the reciprocal of its length, as the original (not v / |v|). */
LS_FN ray_v3 ray_normalize(ray_v3 v)
{
    return ray_scale(v, RAY_RSQRT(ray_dot(v, v)));
}

/* x^99 = x^64 * x^32 * x^2 * x by repeated squaring, in that order: the
 * same ten roundings everywhere, negative for a negative x (a library pow
 * may differ by an ulp, and a fast one returns NaN there). */
LS_FN float ray_pow99(float x)
{
    float x2 = x * x;
    float x4 = x2 * x2;
    float x8 = x4 * x4;
    float x16 = x8 * x8;
    float x32 = x16 * x16;
    float x64 = x32 * x32;
    return x64 * x32 * x2 * x;
}

/* ---- The camera and the random draws --------------------------------- */

/* The original's view for 512 x 512, kept for other sizes: pixel pitch
 * 1.024 / width (0.002 at 512), centred (c = -(W/2) a - (H/2) b + g; at
 * 512 x 512 this is the original's -256 (a + b) + g bit for bit, since
 * scaling by a power of two commutes with rounding). */
LS_FN ray_camera ray_camera_make(ls_u32 width, ls_u32 height)
{
    ray_camera cam;
    float pitch = RAY_VIEW_WIDTH / (float)width;
    ray_v3 g = ray_normalize(ray_v3_make(-6.0f, -16.0f, 0.0f));
    cam.a = ray_scale(ray_normalize(ray_cross(ray_v3_make(0.0f, 0.0f, 1.0f), g)), pitch);
    cam.b = ray_scale(ray_normalize(ray_cross(g, cam.a)), pitch);
    ray_v3 ca = ray_scale(cam.a, -0.5f * (float)width);
    ray_v3 cb = ray_scale(cam.b, -0.5f * (float)height);
    cam.c = ray_add(ray_add(ca, cb), g);
    return cam;
}

/* Block `block` of the draws of sample `sample` of pixel `pixel` (row-major
 * index in the image: row * width + column): four words. Block 0 is the
 * camera ray (lens x, lens y, pixel x, pixel y); block 1 + i/2 holds the
 * light jitter of the i-th traced ray of the path (words 2(i%2) and
 * 2(i%2)+1: x, then y). */
LS_FN ls_philox_ctr ray_draw_block(ls_u64 seed, ls_u32 pixel, ls_u32 sample, ls_u32 block)
{
    ls_philox_ctr c;
    ls_philox_key k;
    c.v[0] = pixel;
    c.v[1] = sample;
    c.v[2] = block;
    c.v[3] = RAY_TAG;
    k.v[0] = (ls_u32)seed;
    k.v[1] = (ls_u32)(seed >> 32);
    return ls_philox4x32_10(c, k);
}

/* A word as a float in [0, 1): its top 24 bits times 2^-24 (exact). */
LS_FN float ray_uniform(ls_u32 word)
{
    return (float)(word >> 8) * (1.0f / 16777216.0f);
}

/* The camera ray of one sample: draws u = (lens x, lens y, pixel x,
 * pixel y) in [0, 1); (px, py) is the pixel in the original's coordinates
 * (x grows to the image's left, y to its top).
 *   t = (a (u0 - 0.5)) 99 + (b (u1 - 0.5)) 99
 *   o = eye + t
 *   d = normalize(-t + ((a (u2 + px) + b (py + u3)) + c) 16) */
LS_FN void ray_camera_ray(const ray_camera *cam, const float *u, float px, float py, ray_v3 *o, ray_v3 *d)
{
    ray_v3 t = ray_add(ray_scale(ray_scale(cam->a, u[0] - 0.5f), RAY_LENS),
                       ray_scale(ray_scale(cam->b, u[1] - 0.5f), RAY_LENS));
    *o = ray_add(ray_v3_make(RAY_EYE_X, RAY_EYE_Y, RAY_EYE_Z), t);
    ray_v3 aim = ray_add(ray_add(ray_scale(cam->a, u[2] + px), ray_scale(cam->b, py + u[3])), cam->c);
    *d = ray_normalize(ray_add(ray_scale(t, -1.0f), ray_scale(aim, RAY_FOCUS)));
}

/* ---- Nearest hit ----------------------------------------------------- */

/* The floor z = 0, tried first: t = -o.z / d.z when beyond RAY_T_MIN. */
LS_FN ray_hit ray_trace_floor(ray_v3 o, ray_v3 d)
{
    ray_hit h;
    float p = -o.z / d.z;
    h.m = RAY_MISS;
    h.t = RAY_T_FAR;
    h.n = ray_v3_make(0.0f, 0.0f, 0.0f);
    if (p > RAY_T_MIN) {
        h.m = RAY_FLOOR;
        h.t = p;
        h.n = ray_v3_make(0.0f, 0.0f, 1.0f);
    }
    return h;
}

/* o - centre of sphere (k, j). */
LS_FN ray_v3 ray_to_sphere(ray_v3 o, int k, int j)
{
    return ray_sub(o, ray_v3_make((float)k, 0.0f, (float)j + RAY_ROW_Z0));
}

/* Where ray (o, d) enters sphere (k, j): with p = o - centre, b = p.d,
 * c = p.p - 1, q = b^2 - c, the distance s = -b - sqrt(q) when q > 0,
 * else -1 (no hit). Branch-free apart from the final choice, so that SIMD
 * lanes compute it side by side. */
LS_FN float ray_sphere_distance(ray_v3 o, ray_v3 d, int k, int j)
{
    ray_v3 p = ray_to_sphere(o, k, j);
    float b = ray_dot(p, d);
    float c = ray_dot(p, p) - 1.0f;
    float q = b * b - c;
    return q > 0.0f ? -b - RAY_SQRT(q) : -1.0f;
}

/* The unit normal where ray (o, d) meets sphere (k, j) at distance s. */
LS_FN ray_v3 ray_sphere_normal(ray_v3 o, ray_v3 d, int k, int j, float s)
{
    return ray_normalize(ray_add(ray_to_sphere(o, k, j), ray_scale(d, s)));
}

/* Sphere (k, j) replaces *h when it is hit at RAY_T_MIN < s < h->t. */
LS_FN void ray_try_sphere(ray_v3 o, ray_v3 d, int k, int j, ray_hit *h)
{
    float s = ray_sphere_distance(o, d, k, j);
    if (s < h->t && s > RAY_T_MIN) {
        h->m = RAY_SPHERE;
        h->t = s;
        h->n = ray_sphere_normal(o, d, k, j, s);
    }
}

/* The definition: the floor, then all 49 spheres in the original's order
 * (k = 18..0, j = 8..0). Among equal distances the first one tried wins. */
LS_FN ray_hit ray_trace_all(ray_v3 o, ray_v3 d)
{
    ray_hit h = ray_trace_floor(o, d);
    for (int k = RAY_COLS - 1; k >= 0; k--)
        for (int j = RAY_ROWS - 1; j >= 0; j--)
            if ((ray_row_bits(j) >> k) & 1u)
                ray_try_sphere(o, d, k, j, &h);
    return h;
}

/* The lattice window a ray crosses: columns kmin..kmax, rows jmin..jmax
 * (empty when kmin > kmax). */
typedef struct {
    int kmin, kmax, jmin, jmax;
} ray_window_box;

/* Narrows [*lo, *hi] to the t where o + t d lies in [a, b] on one axis.
 * An axis the ray barely moves along (|d| < 1e-6) sets no bound: that is
 * conservative, and another axis always bounds t since |d| = 1. Written
 * with selects, not branches, so that SIMD lanes run it side by side (the
 * quotients of an unused axis may be infinite or NaN; they are not used).
 * One reciprocal and two products instead of two quotients (division is
 * slow on every device): t is off by a few ulps more, far inside the
 * margin of `reach` (ray_window), and tests/test_ray.c checks the hits. */
LS_FN void ray_slab(float o, float d, float a, float b, float *lo, float *hi)
{
    int bounds = !(d > -1e-6f && d < 1e-6f);
    float inv = 1.0f / d;
    float ta = (a - o) * inv, tb = (b - o) * inv;
    float t0 = ta < tb ? ta : tb, t1 = ta < tb ? tb : ta;
    *lo = bounds && t0 > *lo ? t0 : *lo;
    *hi = bounds && t1 < *hi ? t1 : *hi;
}

LS_FN int ray_clamp_index(float x, int top)
{
    /* Truncation is floor here: x is clamped to [0, top] first (NaN to 0). */
    return x >= (float)top ? top : (x > 0.0f ? (int)x : 0);
}

/* The spheres a ray o + t d (t >= 0) can hit. A hit point P of sphere
 * (k, j) has |P.y| <= 1 and (P.x, P.z) within 1 of (k, j + 4); rounding
 * may accept a ray that misses by a little, so the window reaches
 * `reach` = 1.125 + 2^-18 (max|o| + 20)^2 from the ray: the rounding error
 * of q = b^2 - c is below 2^-20 |p|^2 (three dot products and a
 * subtraction of values up to |p|^2), and |p| <= sqrt(3) (max|o| + 19).
 * The t-interval is cut to the slab |y| <= reach and to the lattice's
 * extent in x and z, and the window is the bounding box of the ray's
 * (x, z) over that interval, widened by reach. Only which spheres are
 * tried depends on this arithmetic, never a hit's value, so fast math is
 * fine here even in exact mode. */
LS_FN ray_window_box ray_window(ray_v3 o, ray_v3 d)
{
    ray_window_box w;
    float ax = o.x < 0.0f ? -o.x : o.x, ay = o.y < 0.0f ? -o.y : o.y, az = o.z < 0.0f ? -o.z : o.z;
    float big = ax > ay ? ax : ay;
    big = (big > az ? big : az) + 20.0f;
    float reach = 1.125f + big * big * (1.0f / 262144.0f);
    float lo = 0.0f, hi = 3e38f;
    ray_slab(o.y, d.y, -reach, reach, &lo, &hi);
    ray_slab(o.x, d.x, -reach, (float)(RAY_COLS - 1) + reach, &lo, &hi);
    ray_slab(o.z, d.z, RAY_ROW_Z0 - reach, RAY_ROW_Z0 + (float)(RAY_ROWS - 1) + reach, &lo, &hi);
    float x0 = o.x + d.x * lo, x1 = o.x + d.x * hi;
    float z0 = o.z + d.z * lo - RAY_ROW_Z0, z1 = o.z + d.z * hi - RAY_ROW_Z0;
    float xmin = x0 < x1 ? x0 : x1, xmax = x0 < x1 ? x1 : x0;
    float zmin = z0 < z1 ? z0 : z1, zmax = z0 < z1 ? z1 : z0;
    /* The widened box as whole columns and rows: floor(min - reach) ..
     * floor(max + reach), clamped to the lattice (floor of the lower end
     * may add one column; that only costs a test). */
    w.kmin = ray_clamp_index(xmin - reach, RAY_COLS - 1);
    w.kmax = ray_clamp_index(xmax + reach, RAY_COLS - 1);
    w.jmin = ray_clamp_index(zmin - reach, RAY_ROWS - 1);
    w.jmax = ray_clamp_index(zmax + reach, RAY_ROWS - 1);
    /* Empty when the slabs do not overlap (or are NaN) or the widened box
     * misses the lattice. */
    int empty = !(lo <= hi) || xmax + reach < 0.0f || zmax + reach < 0.0f || xmin - reach > (float)(RAY_COLS - 1) ||
                zmin - reach > (float)(RAY_ROWS - 1);
    w.kmax = empty ? -1 : w.kmax;
    return w;
}

/* The floor, then the spheres of `w` in the original's order. Only the
 * winner's normal is computed, once at the end: it is the same function
 * of (o, d, k, j, s) as ray_try_sphere's, so the bits are the same. The
 * spheres of a column are its mask's bits within rows jmin..jmax, visited
 * from the highest row down. */
LS_FN ray_hit ray_trace_box(ray_v3 o, ray_v3 d, ray_window_box w)
{
    ray_hit h = ray_trace_floor(o, d);
    int bk = 0, bj = 0;
    ls_u32 rows = w.jmax >= w.jmin ? (2u << w.jmax) - (1u << w.jmin) : 0u;
    for (int k = w.kmax; k >= w.kmin; k--) {
        for (ls_u32 m = ray_col_bits(k) & rows; m != 0u;) {
            int j = 31 - (int)LS_CLZ32(m);
            m ^= 1u << j;
            float s = ray_sphere_distance(o, d, k, j);
            if (s < h.t && s > RAY_T_MIN) {
                h.m = RAY_SPHERE;
                h.t = s;
                bk = k;
                bj = j;
            }
        }
    }
    if (h.m == RAY_SPHERE)
        h.n = ray_sphere_normal(o, d, bk, bj, h.t);
    return h;
}

/* The same hit as ray_trace_all, bit for bit, from the window's spheres. */
LS_FN ray_hit ray_trace_window(ray_v3 o, ray_v3 d)
{
    return ray_trace_box(o, d, ray_window(o, d));
}

/* Whether ray_trace_window(o, d).m != RAY_MISS, without the nearest hit:
 * the floor at p > RAY_T_MIN, or else any sphere of the window at
 * RAY_T_MIN < s < RAY_T_FAR (the first sphere hit makes the ray hit, and
 * later ones can only replace it). Stops at the first. */
LS_FN int ray_hits_window(ray_v3 o, ray_v3 d)
{
    if (ray_trace_floor(o, d).m != RAY_MISS)
        return 1;
    ray_window_box w = ray_window(o, d);
    ls_u32 rows = w.jmax >= w.jmin ? (2u << w.jmax) - (1u << w.jmin) : 0u;
    for (int k = w.kmax; k >= w.kmin; k--) {
        for (ls_u32 m = ray_col_bits(k) & rows; m != 0u;) {
            int j = 31 - (int)LS_CLZ32(m);
            m ^= 1u << j;
            float s = ray_sphere_distance(o, d, k, j);
            if (s < RAY_T_FAR && s > RAY_T_MIN)
                return 1;
        }
    }
    return 0;
}

#ifdef RAY_TRACE_ALL
#define RAY_TRACE(o, d) ray_trace_all(o, d)
#define RAY_HITS(o, d) (ray_trace_all(o, d).m != RAY_MISS)
#else
#define RAY_TRACE(o, d) ray_trace_window(o, d)
#define RAY_HITS(o, d) ray_hits_window(o, d)
#endif

/* ---- Shading --------------------------------------------------------- */

/* Sky: (0.7, 0.6, 1) (1 - d.z)^4, the power as (w w)(w w). */
LS_FN ray_v3 ray_sky(ray_v3 d)
{
    float w = 1.0f - d.z;
    float w2 = w * w;
    float w4 = w2 * w2;
    return ray_v3_make(0.7f * w4, 0.6f * w4, w4);
}

/* Parity of ceil(x) for the floor's checkerboard, in integers. Every float
 * of magnitude >= 2^24 is an even integer (its ulp is at least 2), and so
 * is taken NaN or infinity: no float-to-int conversion out of range, which
 * C leaves undefined and devices answer differently. */
LS_FN ls_u32 ray_ceil_parity(float x)
{
    if (!(x < 16777216.0f && x > -16777216.0f))
        return 0u;
    int i = (int)x; /* truncation toward zero */
    if ((float)i < x)
        i += 1;
    return (ls_u32)i & 1u;
}

/* The floor's colour at h, before lighting: (3, 1, 1) where
 * ceil(0.2 h.x) + ceil(0.2 h.y) is odd, else (3, 3, 3). */
LS_FN ray_v3 ray_floor_colour(ray_v3 h)
{
    ray_v3 s = ray_scale(h, 0.2f);
    ls_u32 odd = ray_ceil_parity(s.x) ^ ray_ceil_parity(s.y);
    return odd ? ray_v3_make(3.0f, 1.0f, 1.0f) : ray_v3_make(3.0f, 3.0f, 3.0f);
}

/* Direction from h to the light at (9 + jx, 9 + jy, 16), jx, jy in [0, 1). */
LS_FN ray_v3 ray_light_dir(ray_v3 h, float jx, float jy)
{
    ray_v3 light = ray_v3_make(RAY_LIGHT_XY + jx, RAY_LIGHT_XY + jy, RAY_LIGHT_Z);
    return ray_normalize(ray_sub(light, h));
}

/* d mirrored at the unit normal n: d + n ((n.d) -2). */
LS_FN ray_v3 ray_reflect(ray_v3 d, ray_v3 n)
{
    return ray_add(d, ray_scale(n, ray_dot(n, d) * -2.0f));
}

/* The diffuse factor b = l.n, 0 when b < 0 or when the light is hidden
 * (`shadowed`: a ray from the hit towards l hits anything; only asked when
 * b >= 0, as the original's || does). */
LS_FN float ray_diffuse(float b, int shadowed)
{
    return (b < 0.0f || shadowed) ? 0.0f : b;
}

/* A floor hit's colour, which ends the path: colour(h) (b 0.2 + 0.1). */
LS_FN ray_v3 ray_floor_end(ray_v3 h, float b)
{
    return ray_scale(ray_floor_colour(h), b * 0.2f + 0.1f);
}

/* A sphere hit's specular term ((l.r) (b > 0))^99. */
LS_FN float ray_specular(ray_v3 l, ray_v3 r, float b)
{
    return ray_pow99(ray_dot(l, r) * (b > 0.0f ? 1.0f : 0.0f));
}

/* What one traced ray that hit something contributes. */
typedef struct {
    ray_v3 h;   /* the hit point, the next ray's origin */
    ray_v3 r;   /* the reflected direction */
    ray_v3 end; /* floor: the path's last colour */
    float spec; /* sphere: the specular term */
} ray_shade_out;

/* Shades the hit `hit` of ray (o, d); jx, jy in [0, 1) place the light:
 * h = o + d t, l towards the light, r the reflection, b the diffuse
 * factor; a floor hit gives the path's end colour, a sphere hit its
 * specular term. */
LS_FN ray_shade_out ray_shade(ray_v3 o, ray_v3 d, ray_hit hit, float jx, float jy)
{
    ray_shade_out s;
    s.h = ray_add(o, ray_scale(d, hit.t));
    ray_v3 l = ray_light_dir(s.h, jx, jy);
    s.r = ray_reflect(d, hit.n);
    float b = ray_dot(l, hit.n);
    b = ray_diffuse(b, b >= 0.0f && RAY_HITS(s.h, l));
    s.spec = 0.0f;
    s.end = ray_v3_make(0.0f, 0.0f, 0.0f);
    if (hit.m == RAY_FLOOR)
        s.end = ray_floor_end(s.h, b);
    else
        s.spec = ray_specular(l, s.r, b);
    return s;
}

/* The recursion's sum spec[0] + 0.5 (spec[1] + 0.5 (... + 0.5 end)),
 * folded from the last term back, so that the additions happen in the
 * recursive original's order (a forward sum with a running weight 0.5^i
 * would round differently). */
LS_FN ray_v3 ray_fold(const float *spec, int hits, ray_v3 end)
{
    for (int i = hits - 1; i >= 0; i--)
        end = ray_add(ray_v3_make(spec[i], spec[i], spec[i]), ray_scale(end, 0.5f));
    return end;
}

/* One sample's path in progress: the recursive original as a loop over
 * the path's traced rays, at most RAY_MAX_HITS sphere hits, one traced ray
 * per ray_path_step. A GPU work-item starts its next sample as soon as a
 * path ends, instead of waiting for the longest path of its neighbours.
 * The specular terms are a separate array (float[RAY_MAX_HITS]), indexed
 * by the depth: inside this struct they would drag the rest of it into
 * memory on GPUs too, where the scalars stay in registers. */
typedef struct {
    ray_v3 o, d;          /* the next ray to trace */
    ls_u32 pixel, sample; /* whose draws */
    ls_u32 jx, jy;        /* the light jitter words of the next odd ray */
    int hits;             /* sphere hits so far */
} ray_path;

/* Starts sample `sample` of pixel `pixel` (row-major index; (px, py) the
 * original's coordinates of that pixel): its camera ray. */
LS_FN void ray_path_begin(ray_path *p, const ray_camera *cam, ls_u64 seed, ls_u32 pixel, ls_u32 sample, float px,
                          float py)
{
    ls_philox_ctr w = ray_draw_block(seed, pixel, sample, 0u);
    float u[4];
    for (int i = 0; i < 4; i++)
        u[i] = ray_uniform(w.v[i]);
    ray_camera_ray(cam, u, px, py, &p->o, &p->d);
    p->pixel = pixel;
    p->sample = sample;
    p->jx = p->jy = 0u;
    p->hits = 0;
}

/* Traces and shades the path's next ray; spec holds the path's specular
 * terms. Returns 1 when the path has ended, with the sample's colour in
 * *colour, else 0. */
LS_FN int ray_path_step(ray_path *p, float *spec, ls_u64 seed, ray_v3 *colour)
{
    ray_hit hit = RAY_TRACE(p->o, p->d);
    if (hit.m == RAY_MISS) {
        *colour = ray_fold(spec, p->hits, ray_sky(p->d));
        return 1;
    }
    /* Even rays draw a block and use words 0 and 1; the odd ray after one
     * uses words 2 and 3 (kept, not indexed: an indexed block would live
     * in memory on GPUs). */
    ls_u32 jx = p->jx, jy = p->jy;
    if ((p->hits & 1) == 0) {
        ls_philox_ctr w = ray_draw_block(seed, p->pixel, p->sample, 1u + (ls_u32)p->hits / 2u);
        jx = w.v[0];
        jy = w.v[1];
        p->jx = w.v[2];
        p->jy = w.v[3];
    }
    ray_shade_out s = ray_shade(p->o, p->d, hit, ray_uniform(jx), ray_uniform(jy));
    if (hit.m == RAY_FLOOR) {
        *colour = ray_fold(spec, p->hits, s.end);
        return 1;
    }
    spec[p->hits++] = s.spec;
    if (p->hits == RAY_MAX_HITS) { /* the last reflection counts as black */
        *colour = ray_fold(spec, p->hits, ray_v3_make(0.0f, 0.0f, 0.0f));
        return 1;
    }
    p->o = s.h;
    p->d = s.r;
    return 0;
}

/* One whole sample of pixel `pixel` (as ray_path_begin). */
LS_FN ray_v3 ray_sample(const ray_camera *cam, ls_u64 seed, ls_u32 pixel, ls_u32 sample, float px, float py)
{
    ray_path p;
    float spec[RAY_MAX_HITS];
    ray_v3 colour;
    ray_path_begin(&p, cam, seed, pixel, sample, px, py);
    while (!ray_path_step(&p, spec, seed, &colour)) {
    }
    return colour;
}

/* The original's coordinates (px, py) of pixel `pixel` (row-major index)
 * of a width x height image: x grows to the image's left, y to its top. */
LS_FN void ray_pixel_xy(ls_u32 width, ls_u32 height, ls_u32 pixel, float *px, float *py)
{
    *px = (float)(width - 1u - pixel % width);
    *py = (float)(height - 1u - pixel / width);
}

/* A channel as a byte: truncated toward zero, clamped to 0..255 (NaN to
 * 0). */
LS_FN ls_u32 ray_byte(float v)
{
    return v >= 255.0f ? 255u : (v > 0.0f ? (ls_u32)v : 0u);
}

/* The final colour of a pixel from its sum of 3.5 * sample over `samples`
 * samples (summed in sample order from 0): 13 + sum * (64 / samples). */
LS_FN float ray_channel(float sum, ls_u32 samples)
{
    return RAY_BASE + sum * (RAY_REF_SAMPLES / (float)samples);
}

/* Pixel (row, col) of a width x height image: all its samples, summed in
 * order; rgb gets the three bytes. */
LS_FN void ray_pixel(const ray_camera *cam, ls_u64 seed, ls_u32 width, ls_u32 height, ls_u32 samples,
                     ls_u32 row, ls_u32 col, ls_u8 *rgb)
{
    ls_u32 pixel = row * width + col;
    float px, py;
    ray_pixel_xy(width, height, pixel, &px, &py);
    ray_v3 sum = ray_v3_make(0.0f, 0.0f, 0.0f);
    for (ls_u32 s = 0; s < samples; s++)
        sum = ray_add(sum, ray_scale(ray_sample(cam, seed, pixel, s, px, py), RAY_SAMPLE_SCALE));
    rgb[0] = (ls_u8)ray_byte(ray_channel(sum.x, samples));
    rgb[1] = (ls_u8)ray_byte(ray_channel(sum.y, samples));
    rgb[2] = (ls_u8)ray_byte(ray_channel(sum.z, samples));
}

#endif
