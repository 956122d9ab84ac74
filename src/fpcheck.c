/* fpcheck.c - the exact floating-point rule (src/kernels/dialect.h) as a
 * conformance case: fp_probe (src/algo/fpcheck.h) on the device, compared
 * bit for bit with values derived here in double precision.
 *
 * Why double gives the right single-precision answers: each probe step is
 * an add, multiply, divide or square root of floats, and rounding the
 * exact result first to double (53 bits) and then to float (24 bits) gives
 * the correctly rounded float for these operations, since 53 >= 2 * 24 + 2
 * (Figueroa, "When is double rounding innocuous?", 1995). The reference is
 * thus independent of how this compiler treats float expressions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_isa.h"
#include "fpcheck.h"
#include "gpu_call.h"
#include "host_kernel.h"
#include "workload.h"

#define FP_INPUTS 256u

/* Inputs: the first triple makes x * y + z exactly 0 when rounded twice
 * and 2^-24 when fused; the rest are pseudo-random floats in [0.5, 4)
 * (fixed, from a 32-bit LCG) whose quotients and roots have rounding
 * cases that approximate divide and sqrt get wrong. */
static void fp_inputs(float *in)
{
    in[0] = 1.0f + 0x1p-12f;
    in[1] = 1.0f + 0x1p-12f;
    in[2] = -(1.0f + 0x1p-11f);
    uint32_t r = 12345u;
    for (unsigned i = 3; i < 3 * FP_INPUTS; i++) {
        r = r * 1664525u + 1013904223u;
        float m = 1.0f + (float)(r >> 9) * 0x1p-23f; /* [1, 2), every mantissa bit random */
        in[i] = (i % 3 == 2 ? -m : m) * (i % 2 ? 0.5f : 2.0f);
    }
}

static void fp_expected(const float *in, float *out)
{
    for (unsigned i = 0; i < FP_INPUTS; i++) {
        double x = in[3 * i], y = in[3 * i + 1], z = in[3 * i + 2];
        float *o = out + FP_PROBE_OUTPUTS * i;
        o[0] = (float)((double)(float)(x * y) + z);
        o[1] = (float)(x / y);
        o[2] = (float)sqrt(x);
        o[3] = (float)((double)(float)((double)(float)(x * z) * 0x1p-126) * 0.0625);
        double x2 = (float)(x * x), x4 = (float)(x2 * x2);
        o[4] = (float)(x4 * x);
    }
}

/* The probe compiled for a CPU that has FMA, so that a compiler which
 * contracted would show it here too (project C flags: -ffp-contract=off). */
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("arch=x86-64-v3"))) static void fp_probe_fma_cpu(const float *in, float *out)
{
    for (unsigned i = 0; i < FP_INPUTS; i++)
        fp_probe(in[3 * i], in[3 * i + 1], in[3 * i + 2], out + FP_PROBE_OUTPUTS * i);
}
#endif

static void fp_probe_cpu(const float *in, float *out)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (ls_cpu_isa() >= LS_ISA_AVX2) {
        fp_probe_fma_cpu(in, out);
        return;
    }
#endif
    for (unsigned i = 0; i < FP_INPUTS; i++)
        fp_probe(in[3 * i], in[3 * i + 1], in[3 * i + 2], out + FP_PROBE_OUTPUTS * i);
}

/* The probe kernel's C copy for the host device (host_kernel.h): the
 * same arguments as fp_probe_kernel, all of the inputs in one call. */
static int fp_probe_host(const ls_host_call *c, ls_error *err)
{
    uint32_t n;
    void *in, *out;
    if (ls_host_u32(c, 0, &n, err) != 0)
        return -1;
    if (n != FP_INPUTS)
        return ls_fail(err, "host kernel %s: %u inputs, it probes %u", c->kernel, n, FP_INPUTS);
    if (ls_host_buf(c, 1, 3 * FP_INPUTS * sizeof(float), &in, err) != 0 ||
        ls_host_buf(c, 2, FP_PROBE_OUTPUTS * FP_INPUTS * sizeof(float), &out, err) != 0)
        return -1;
    fp_probe_cpu(in, out);
    return 0;
}

static const ls_host_kernel fp_host_kernels[] = {{"fp_probe_kernel", fp_probe_host, 3}, {NULL, NULL, 0}};
static const ls_host_program fp_host_program = {"fpcheck", fp_host_kernels};

/* The probe on any device: its kernel, or on the host its C copy. */
static int fp_probe_device(ls_device *s, const float *in, float *out, ls_error *err)
{
    if (ls_host_program_add(&fp_host_program, err) != 0)
        return -1;
    ls_kernel *k;
    ls_buf *d_in = NULL, *d_out = NULL;
    const size_t in_bytes = 3 * FP_INPUTS * sizeof(float), out_bytes = FP_PROBE_OUTPUTS * FP_INPUTS * sizeof(float);
    int rc = ls_gpu_kernel(s, "fpcheck", "fp_probe_kernel", &k, err);
    if (rc == 0)
        rc = ls_gpu_alloc(s, in_bytes, "float probe inputs", &d_in, err);
    if (rc == 0)
        rc = ls_gpu_alloc(s, out_bytes, "float probe results", &d_out, err);
    if (rc == 0)
        rc = ls_gpu_write(d_in, 0, 0, in, in_bytes, err);
    uint32_t n = FP_INPUTS;
    ls_arg args[] = {LS_ARG(n), LS_ARG_BUF(d_in), LS_ARG_BUF(d_out)};
    ls_launch l = {(FP_INPUTS + 63) / 64, 64, 0, 0, args, 3};
    if (rc == 0)
        rc = ls_gpu_launch(s, k, &l, err);
    if (rc == 0)
        rc = ls_gpu_read(d_out, 0, out, out_bytes, err);
    ls_gpu_free(d_in);
    ls_gpu_free(d_out);
    return rc;
}

static const char *const fp_what[FP_PROBE_OUTPUTS] = {
    "x*y+z (contracted into an FMA?)", "x/y (not correctly rounded?)", "sqrt(x) (not correctly rounded?)",
    "a denormal product (flushed to zero?)", "x^5 by multiplications"};

/* The rule on one device: 1 kept, 0 broken (detail says how), -1. */
static int fp_device(ls_device *s, char *detail, size_t len, ls_error *err)
{
    float in[3 * FP_INPUTS], got[FP_PROBE_OUTPUTS * FP_INPUTS], want[FP_PROBE_OUTPUTS * FP_INPUTS];
    fp_inputs(in);
    fp_expected(in, want);
    if (fp_probe_device(s, in, got, err) != 0)
        return -1;
    unsigned bad = 0, first = 0;
    for (unsigned i = 0; i < FP_PROBE_OUTPUTS * FP_INPUTS; i++)
        if (memcmp(&got[i], &want[i], sizeof got[i]) != 0 && bad++ == 0)
            first = i;
    if (!bad) {
        snprintf(detail, len, "%u results bit-exact", FP_PROBE_OUTPUTS * FP_INPUTS);
        return 1;
    }
    unsigned i = first / FP_PROBE_OUTPUTS;
    snprintf(detail, len, "%u of %u results differ; first: %s for x=%a y=%a z=%a: got %a, expected %a", bad,
             FP_PROBE_OUTPUTS * FP_INPUTS, fp_what[first % FP_PROBE_OUTPUTS], in[3 * i], in[3 * i + 1],
             in[3 * i + 2], got[first], want[first]);
    return 0;
}

/* On a set, every device keeps the rule or the case fails naming the
 * first that does not. A device that says it cannot keep it (caps.h's
 * LS_CAP_EXACT_FP) refuses the probe's program: the case needs the rule,
 * and conformance reports it not supported there without running it. */
static int fp_case(ls_set *set, const void *arg, char *detail, size_t len, ls_error *err)
{
    (void)arg;
    for (int d = 0; d < set->ndevices; d++) {
        int rc = fp_device(&set->dev[d], detail, len, err);
        if (rc != 1 && set->ndevices > 1) {
            char *what = rc == 0 ? detail : err->msg;
            size_t room = rc == 0 ? len : sizeof err->msg;
            char text[640];
            snprintf(text, sizeof text, "%s: %s", set->dev[d].label, what);
            snprintf(what, room, "%s", text);
        }
        if (rc != 1)
            return rc;
    }
    if (set->ndevices > 1) {
        char text[640];
        snprintf(text, sizeof text, "%s, on each of %d devices", detail, set->ndevices);
        snprintf(detail, len, "%s", text);
    }
    return 1;
}

const ls_case ls_exact_float_case = {"exact float: no contraction, exact / and sqrt, denormals", fp_case, NULL,
                                     LS_CAP_BIT(LS_CAP_EXACT_FP)};
