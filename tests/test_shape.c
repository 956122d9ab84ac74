/* test_shape.c - the one choice of a device's kernel shape (src/shape.h)
 * over the capabilities a backend can report (src/caps.h): a device
 * without kernels (the reference) takes none; a CPU takes the CPU shape
 * whatever it offers; a GPU the fastest exchange it has (NVIDIA's warps,
 * then shuffles in sub-groups of 32, then local memory);
 * LOCKSTEP_SHAPE forces a shape the device can run, is refused (as the
 * user's error, naming the shape) where it cannot, and does not reach a
 * device whose kernels were prebuilt for one shape. The capability
 * query itself (src/caps.h): a cap answered from the bits, a reason in
 * the backend's words or the generic one, a set's first refusal. */
#include <stdlib.h>
#include <string.h>

#include "shape.h"

#include "check.h"

static ls_shape chosen(const ls_device_caps *caps, const char *forced, int *refused)
{
    ls_error err = {{0}, 0};
    ls_shape shape = LS_SHAPE_NONE;
    if (forced)
        setenv("LOCKSTEP_SHAPE", forced, 1);
    else
        unsetenv("LOCKSTEP_SHAPE");
    *refused = ls_shape_choose(caps, &shape, &err) != 0;
    if (*refused && (!err.usage || !forced || !strstr(err.msg, forced)))
        *refused = -1; /* a refusal that is not the user's error naming the value */
    return shape;
}

static void expect(const char *what, const ls_device_caps *caps, const char *forced, ls_shape want, int refused)
{
    int got_refused;
    ls_shape got = chosen(caps, forced, &got_refused);
    char line[256];
    snprintf(line, sizeof line, "%s (LOCKSTEP_SHAPE=%s): %s%s, got %s%s", what, forced ? forced : "unset",
             refused ? "refused" : ls_shape_name(want), "", got_refused ? "refused" : ls_shape_name(got),
             got_refused < 0 ? " without naming the value" : "");
    check(got_refused == refused && (refused || got == want), line);
}

int main(void)
{
    const uint32_t kernels = LS_CAP_BIT(LS_CAP_KERNELS), warps = kernels | LS_CAP_BIT(LS_CAP_WARP_SHUFFLE),
                   subgroups = kernels | LS_CAP_BIT(LS_CAP_SUBGROUP_SHUFFLE);
    ls_device_caps cpu = {.can = kernels, .is_cpu = 1, .vector_width = 16, .local_bytes = 1 << 20};
    ls_device_caps intel_cpu = {.can = subgroups, .is_cpu = 1, .subgroup_width = 32, .local_bytes = 256 << 10};
    ls_device_caps nv_cl = {.can = warps, .local_bytes = 48 << 10};
    ls_device_caps cuda = {.can = warps, .prebuilt = 1, .subgroup_width = 32, .local_bytes = 48 << 10};
    ls_device_caps intel_gpu = {.can = subgroups, .subgroup_width = 32, .local_bytes = 64 << 10};
    /* cl_intel_subgroups of 16 at most: the backend refuses the cap. */
    ls_device_caps narrow = {.can = kernels, .subgroup_width = 16, .local_bytes = 64 << 10};
    ls_device_caps plain = {.can = kernels, .local_bytes = 32 << 10};
    ls_device_caps reference = {.can = LS_CAP_BIT(LS_CAP_EXACT_FP)};

    expect("a CPU device", &cpu, NULL, LS_SHAPE_CPU, 0);
    expect("a CPU device with sub-groups", &intel_cpu, NULL, LS_SHAPE_CPU, 0);
    expect("NVIDIA's OpenCL", &nv_cl, NULL, LS_SHAPE_WARP, 0);
    expect("CUDA", &cuda, NULL, LS_SHAPE_WARP, 0);
    expect("a GPU with shuffles in sub-groups of 32", &intel_gpu, NULL, LS_SHAPE_SUBGROUP, 0);
    expect("a GPU with 16-wide sub-groups", &narrow, NULL, LS_SHAPE_GROUP, 0);
    expect("a GPU without shuffles", &plain, NULL, LS_SHAPE_GROUP, 0);

    expect("NVIDIA's OpenCL forced to local memory", &nv_cl, "group", LS_SHAPE_GROUP, 0);
    expect("a GPU forced to the CPU shape", &plain, "cpu", LS_SHAPE_CPU, 0);
    expect("a CPU forced to the group shape", &cpu, "group", LS_SHAPE_GROUP, 0);
    expect("a CPU with sub-groups forced to them", &intel_cpu, "subgroup", LS_SHAPE_SUBGROUP, 0);
    expect("a CPU forced to warps", &cpu, "warp", LS_SHAPE_NONE, 1);
    expect("16-wide sub-groups forced to the sub-group shape", &narrow, "subgroup", LS_SHAPE_NONE, 1);
    expect("a shape that is none", &plain, "wavefront", LS_SHAPE_NONE, 1);
    expect("CUDA's prebuilt kernels keep their shape", &cuda, "group", LS_SHAPE_WARP, 0);
    expect("an empty LOCKSTEP_SHAPE is unset", &plain, "", LS_SHAPE_GROUP, 0);
    expect("a device without kernels (the reference)", &reference, NULL, LS_SHAPE_NONE, 0);
    expect("a device without kernels keeps none when forced", &reference, "group", LS_SHAPE_NONE, 0);
    expect("a CPU with sub-groups but without the kernels cap", &(ls_device_caps){.is_cpu = 1}, NULL, LS_SHAPE_NONE, 0);

    /* The refusal of a forced shape says why, in the backend's words. */
    ls_device_caps said = plain;
    ls_caps_refuse(&said, LS_CAP_WARP_SHUFFLE, "no inline PTX here");
    ls_error err = {{0}, 0};
    ls_shape shape;
    setenv("LOCKSTEP_SHAPE", "warp", 1);
    check(ls_shape_choose(&said, &shape, &err) != 0 && strstr(err.msg, "no inline PTX here"),
          "a forced shape refused says the backend's reason");
    unsetenv("LOCKSTEP_SHAPE");

    check(strcmp(ls_shape_name(LS_SHAPE_CPU), "cpu") == 0 && strcmp(ls_shape_name(LS_SHAPE_NONE), "none") == 0,
          "shapes are named as LOCKSTEP_SHAPE spells them");
    check(ls_shape_shuffles(LS_SHAPE_WARP) && ls_shape_shuffles(LS_SHAPE_SUBGROUP) &&
              !ls_shape_shuffles(LS_SHAPE_GROUP) && !ls_shape_shuffles(LS_SHAPE_CPU),
          "only the warp and sub-group shapes shuffle registers");
    return check_finish();
}
