/* ray_lanes.h - RAY_LANES pixels side by side: the SIMD form of
 * ray_sample (ray.h), written once for the CPU. OpenMP's tiles
 * (src/workloads/ray/ray_cpu_lanes.c, C whose lane loops are OpenMP SIMD
 * loops) and OpenCL's CPU kernel shape (src/kernels/ray_render.h, a
 * work-item's private arrays, whose loops the OpenCL compiler vectorizes)
 * both run it.
 *
 * Every lane runs ray.h's own per-element functions, one step of the
 * path at a time for all lanes:
 *   - all lanes still on a path are at the same depth (every ray before
 *     this one hit a sphere), so "bounce" is one counter for the tile;
 *   - the nearest hit tries, in the original's order, every sphere in the
 *     union of the lanes' lattice windows (ray_window): a superset of
 *     each lane's window, which gives the same nearest hit bit for bit
 *     (ray.h explains why), with one vector test per sphere for all lanes;
 *   - the shadow rays likewise;
 *   - the specular terms are folded back as ray_fold does, masked per lane.
 * Lanes that have finished keep computing on stale values, which are
 * never used.
 *
 * A user includes ray.h's mode first (exact or fast: RAY_RSQRT) and
 * defines before including this file RAY_LANES_JOB, the type of what a
 * tile renders: a struct with the image's `seed` (ls_u64) and `camera`
 * (ray_camera). It may define:
 *   RAY_LANES_FN, RAY_LANES_INLINE  the qualifiers of its functions, and
 *                                    of the small ones (default LS_FN)
 *   RAY_LANES_SIMD                   before a loop over the lanes (default
 *                                    nothing: a compiler that vectorizes
 *                                    on its own)
 *   RAY_LANES_SIMD_WINDOW            the same for union_window's loop,
 *                                    with its min and max reductions
 *   RAY_LANES_MIN, RAY_LANES_MAX     (acc, use, v): acc, or v where use is
 *                                    set and v is below (above) it: those
 *                                    reductions, in a form the compiler
 *                                    recognizes */
#ifndef LOCKSTEP_ALGO_RAY_LANES_H
#define LOCKSTEP_ALGO_RAY_LANES_H

#include "ray.h"

#ifndef RAY_LANES_FN
#define RAY_LANES_FN LS_FN
#endif
#ifndef RAY_LANES_INLINE
#define RAY_LANES_INLINE LS_FN
#endif
#ifndef RAY_LANES_SIMD
#define RAY_LANES_SIMD
#endif
#ifndef RAY_LANES_SIMD_WINDOW
#define RAY_LANES_SIMD_WINDOW
#endif
#ifndef RAY_LANES_MIN
#define RAY_LANES_MIN(acc, use, v) ((use) && (v) < (acc) ? (v) : (acc))
#define RAY_LANES_MAX(acc, use, v) ((use) && (v) > (acc) ? (v) : (acc))
#endif

/* The rays of all lanes, structure of arrays. */
typedef struct lane_rays {
    float ox[RAY_LANES], oy[RAY_LANES], oz[RAY_LANES];
    float dx[RAY_LANES], dy[RAY_LANES], dz[RAY_LANES];
} lane_rays;

/* The nearest hits of all lanes. */
typedef struct lane_hits {
    float t[RAY_LANES];
    int m[RAY_LANES];               /* RAY_MISS, RAY_FLOOR, RAY_SPHERE */
    int k[RAY_LANES], j[RAY_LANES]; /* the sphere */
} lane_hits;

RAY_LANES_INLINE ray_v3 lane_o(const lane_rays *r, int i)
{
    return ray_v3_make(r->ox[i], r->oy[i], r->oz[i]);
}

RAY_LANES_INLINE ray_v3 lane_d(const lane_rays *r, int i)
{
    return ray_v3_make(r->dx[i], r->dy[i], r->dz[i]);
}

RAY_LANES_INLINE void lane_set(lane_rays *r, int i, ray_v3 o, ray_v3 d)
{
    r->ox[i] = o.x;
    r->oy[i] = o.y;
    r->oz[i] = o.z;
    r->dx[i] = d.x;
    r->dy[i] = d.y;
    r->dz[i] = d.z;
}

/* The union of the windows of the lanes in `want`; 0 when it is empty. */
RAY_LANES_FN int union_window(const lane_rays *r, const int *want, ray_window_box *u)
{
    int kmin = RAY_COLS, kmax = -1, jmin = RAY_ROWS, jmax = -1;
RAY_LANES_SIMD_WINDOW
    for (int i = 0; i < RAY_LANES; i++) {
        ray_window_box w = ray_window(lane_o(r, i), lane_d(r, i));
        int use = want[i] && w.kmax >= w.kmin && w.jmax >= w.jmin;
        kmin = RAY_LANES_MIN(kmin, use, w.kmin);
        kmax = RAY_LANES_MAX(kmax, use, w.kmax);
        jmin = RAY_LANES_MIN(jmin, use, w.jmin);
        jmax = RAY_LANES_MAX(jmax, use, w.jmax);
    }
    u->kmin = kmin;
    u->kmax = kmax;
    u->jmin = jmin;
    u->jmax = jmax;
    return kmin <= kmax && jmin <= jmax;
}

/* ray_trace_floor for every lane. */
RAY_LANES_FN void trace_floor(const lane_rays *r, lane_hits *h)
{
RAY_LANES_SIMD
    for (int i = 0; i < RAY_LANES; i++) {
        ray_hit f = ray_trace_floor(lane_o(r, i), lane_d(r, i));
        h->t[i] = f.t;
        h->m[i] = (int)f.m;
        h->k[i] = 0;
        h->j[i] = 0;
    }
}

/* Sphere (k, j) for every lane, as ray_try_sphere (the normal comes later,
 * from the winner). */
RAY_LANES_INLINE void try_sphere(const lane_rays *r, int k, int j, lane_hits *h)
{
RAY_LANES_SIMD
    for (int i = 0; i < RAY_LANES; i++) {
        float s = ray_sphere_distance(lane_o(r, i), lane_d(r, i), k, j);
        int better = s < h->t[i] && s > RAY_T_MIN;
        h->t[i] = better ? s : h->t[i];
        h->m[i] = better ? (int)RAY_SPHERE : h->m[i];
        h->k[i] = better ? k : h->k[i];
        h->j[i] = better ? j : h->j[i];
    }
}

/* The nearest hit of the lanes in `want`: the floor, then the spheres of
 * the union window in the original's order. */
RAY_LANES_FN void trace_nearest(const lane_rays *r, const int *want, lane_hits *h)
{
    trace_floor(r, h);
    ray_window_box u;
    if (!union_window(r, want, &u))
        return;
    for (int k = u.kmax; k >= u.kmin; k--)
        for (int j = u.jmax; j >= u.jmin; j--)
            if ((ray_row_bits(j) >> k) & 1u)
                try_sphere(r, k, j, h);
}

/* For the lanes in `want`: does the ray hit anything at all (floor or a
 * sphere, as ray_trace(...).m != RAY_MISS)? */
RAY_LANES_FN void trace_any(const lane_rays *r, const int *want, int *blocked)
{
    lane_hits h;
    trace_nearest(r, want, &h);
    for (int i = 0; i < RAY_LANES; i++)
        blocked[i] = h.m[i] != (int)RAY_MISS;
}

/* Everything one lane carries along its current path. */
typedef struct lane_paths {
    int active[RAY_LANES];
    int hits[RAY_LANES]; /* sphere hits when the path ended */
    float spec[RAY_MAX_HITS][RAY_LANES];
    float ex[RAY_LANES], ey[RAY_LANES], ez[RAY_LANES]; /* the path's end colour */
} lane_paths;

/* Lanes whose ray missed everything end on the sky. */
RAY_LANES_FN void end_on_sky(const lane_rays *r, const lane_hits *h, int bounce, lane_paths *p)
{
    for (int i = 0; i < RAY_LANES; i++) {
        if (!p->active[i] || h->m[i] != (int)RAY_MISS)
            continue;
        ray_v3 sky = ray_sky(lane_d(r, i));
        p->ex[i] = sky.x;
        p->ey[i] = sky.y;
        p->ez[i] = sky.z;
        p->hits[i] = bounce;
        p->active[i] = 0;
    }
}

/* Shades the hits of the active lanes of one bounce (ray_shade, with the
 * shadow rays traced for all lanes at once), then ends the floor hits and
 * turns the sphere hits into the next rays. `draws` holds each lane's
 * current Philox block of light jitter. */
RAY_LANES_FN void shade(lane_rays *r, const lane_hits *h, const ls_u32 draws[4][RAY_LANES], int bounce, lane_paths *p)
{
    lane_rays shadow;
    float nx[RAY_LANES], ny[RAY_LANES], nz[RAY_LANES], b[RAY_LANES];
    int want[RAY_LANES], blocked[RAY_LANES];
    int word = 2 * (bounce & 1);
RAY_LANES_SIMD
    for (int i = 0; i < RAY_LANES; i++) {
        ray_v3 o = lane_o(r, i), d = lane_d(r, i);
        ray_v3 n = h->m[i] == (int)RAY_SPHERE ? ray_sphere_normal(o, d, h->k[i], h->j[i], h->t[i])
                                              : ray_v3_make(0.0f, 0.0f, 1.0f);
        ray_v3 hp = ray_add(o, ray_scale(d, h->t[i]));
        ray_v3 l = ray_light_dir(hp, ray_uniform(draws[word][i]), ray_uniform(draws[word + 1][i]));
        lane_set(&shadow, i, hp, l);
        nx[i] = n.x;
        ny[i] = n.y;
        nz[i] = n.z;
        b[i] = ray_dot(l, n);
        want[i] = p->active[i] && b[i] >= 0.0f;
    }
    trace_any(&shadow, want, blocked);
    for (int i = 0; i < RAY_LANES; i++) {
        if (!p->active[i])
            continue;
        ray_v3 hp = lane_o(&shadow, i), l = lane_d(&shadow, i);
        float diffuse = ray_diffuse(b[i], want[i] && blocked[i]);
        if (h->m[i] == (int)RAY_FLOOR) {
            ray_v3 end = ray_floor_end(hp, diffuse);
            p->ex[i] = end.x;
            p->ey[i] = end.y;
            p->ez[i] = end.z;
            p->hits[i] = bounce;
            p->active[i] = 0;
            continue;
        }
        ray_v3 refl = ray_reflect(lane_d(r, i), ray_v3_make(nx[i], ny[i], nz[i]));
        p->spec[bounce][i] = ray_specular(l, refl, diffuse);
        lane_set(r, i, hp, refl);
        if (bounce + 1 == RAY_MAX_HITS) { /* the last reflection counts as black */
            p->ex[i] = p->ey[i] = p->ez[i] = 0.0f;
            p->hits[i] = RAY_MAX_HITS;
            p->active[i] = 0;
        }
    }
}

RAY_LANES_FN int any_active(const lane_paths *p)
{
    int any = 0;
    for (int i = 0; i < RAY_LANES; i++)
        any |= p->active[i];
    return any;
}

/* The camera rays of sample `sample` for the tile's pixels. */
RAY_LANES_FN void camera_rays(const RAY_LANES_JOB *job, const ls_u32 *pixel, const float *px, const float *py,
                               ls_u32 sample, lane_rays *r)
{
RAY_LANES_SIMD
    for (int i = 0; i < RAY_LANES; i++) {
        ls_philox_ctr w = ray_draw_block(job->seed, pixel[i], sample, 0u);
        float u[4] = {ray_uniform(w.v[0]), ray_uniform(w.v[1]), ray_uniform(w.v[2]), ray_uniform(w.v[3])};
        ray_v3 o, d;
        ray_camera_ray(&job->camera, u, px[i], py[i], &o, &d);
        lane_set(r, i, o, d);
    }
}

/* Block 1 + bounce/2 of every lane's draws (two bounces' light jitter). */
RAY_LANES_FN void light_draws(const RAY_LANES_JOB *job, const ls_u32 *pixel, ls_u32 sample, int bounce,
                              ls_u32 draws[4][RAY_LANES])
{
RAY_LANES_SIMD
    for (int i = 0; i < RAY_LANES; i++) {
        ls_philox_ctr w = ray_draw_block(job->seed, pixel[i], sample, 1u + (ls_u32)bounce / 2u);
        draws[0][i] = w.v[0];
        draws[1][i] = w.v[1];
        draws[2][i] = w.v[2];
        draws[3][i] = w.v[3];
    }
}

/* One sample for all lanes; adds 3.5 * colour to the sums. */
RAY_LANES_FN void sample_lanes(const RAY_LANES_JOB *job, const ls_u32 *pixel, const float *px, const float *py,
                                ls_u32 sample, float *sx, float *sy, float *sz)
{
    lane_rays r;
    lane_hits h;
    lane_paths p;
    ls_u32 draws[4][RAY_LANES];
    int deepest = 0;
    camera_rays(job, pixel, px, py, sample, &r);
    for (int i = 0; i < RAY_LANES; i++)
        p.active[i] = 1;
    for (int bounce = 0; bounce < RAY_MAX_HITS && any_active(&p); bounce++) {
        trace_nearest(&r, p.active, &h);
        end_on_sky(&r, &h, bounce, &p);
        if (!any_active(&p))
            break;
        if ((bounce & 1) == 0)
            light_draws(job, pixel, sample, bounce, draws);
        shade(&r, &h, (const ls_u32(*)[RAY_LANES])draws, bounce, &p);
        deepest = bounce + 1;
    }
    /* ray_fold, lane by lane: the same additions in the same order. */
RAY_LANES_SIMD
    for (int i = 0; i < RAY_LANES; i++) {
        ray_v3 c = ray_v3_make(p.ex[i], p.ey[i], p.ez[i]);
        for (int k = deepest - 1; k >= 0; k--) {
            ray_v3 folded = ray_add(ray_v3_make(p.spec[k][i], p.spec[k][i], p.spec[k][i]), ray_scale(c, 0.5f));
            c = k < p.hits[i] ? folded : c;
        }
        sx[i] = sx[i] + c.x * RAY_SAMPLE_SCALE;
        sy[i] = sy[i] + c.y * RAY_SAMPLE_SCALE;
        sz[i] = sz[i] + c.z * RAY_SAMPLE_SCALE;
    }
}


#endif
