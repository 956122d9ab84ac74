/* test_cl_registers.c - groups a compute unit by the build log's
 * registers (backends/opencl/cl_registers.h).
 *
 * The log is NVIDIA's OpenCL's with -cl-nv-verbose for the bmn program on
 * an H200 (docs/perf/2026-11-28-h200-nv-opencl-probe.log). The expected
 * counts are what CUDA's occupancy query answered on that GPU for the same
 * register counts and groups (BMN's deal kernel, 79 registers in groups of
 * 512: 1; Life's 2D walk, 128 registers in groups of 256: 2;
 * docs/perf/README.md, 2026-11-28), and for the others the register file
 * of 65536 divided by hand: 64 registers x 512 -> 2 groups; 32 x 256 -> 8;
 * 65 registers, allocated as 72 (2304 a warp: 28 warps), x 64 -> 14;
 * 64 x 100 work-items (4 warps) -> 8; 255 x 1024 -> none. And where a
 * failed build's log says what failed (cl_log_errors), on logs made up
 * in the shapes NVIDIA's and clang's take. */
#include <stdio.h>

#include "cl_registers.h"

static const char bmn_log[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'bmn_play_batch' for 'sm_90a'\n"
    "ptxas info    : Function properties for bmn_play_batch\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 64 registers, used 1 barriers, 4012 bytes smem\n"
    "ptxas info    : Compile time = 92.363 ms\n"
    "ptxas info    : Compiling entry function 'bmn_deal_batch' for 'sm_90a'\n"
    "ptxas info    : Function properties for bmn_deal_batch\n"
    "ptxas         .     64 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 79 registers, used 0 barriers\n"
    "ptxas info    : Compile time = 158.845 ms\n";

/* A kernel whose report lacks its registers line, before one that has it. */
static const char cut_log[] = "ptxas info    : Compiling entry function 'life_fill' for 'sm_90a'\n"
                              "ptxas info    : Compiling entry function 'life_step' for 'sm_90a'\n"
                              "ptxas info    : Used 40 registers, used 0 barriers\n";

static int failures;

static void expect(const char *what, uint32_t got, uint32_t want)
{
    if (got != want) {
        printf("FAIL %s: %u, expected %u\n", what, got, want);
        failures++;
    }
}

static void expect_text(const char *what, const char *got, const char *want)
{
    if (strcmp(got, want) != 0) {
        printf("FAIL %s: \"%s\", expected \"%s\"\n", what, got, want);
        failures++;
    }
}

int main(void)
{
    expect("registers of bmn_play_batch", cl_log_registers(bmn_log, "bmn_play_batch"), 64);
    expect("registers of bmn_deal_batch", cl_log_registers(bmn_log, "bmn_deal_batch"), 79);
    expect("a name that is only a prefix", cl_log_registers(bmn_log, "bmn_deal"), 0);
    expect("a kernel not in the log", cl_log_registers(bmn_log, "life_fill"), 0);
    expect("an empty log", cl_log_registers("", "bmn_deal_batch"), 0);
    expect("no log", cl_log_registers(NULL, "bmn_deal_batch"), 0);
    expect("a report without its registers", cl_log_registers(cut_log, "life_fill"), 0);
    expect("the report after it", cl_log_registers(cut_log, "life_step"), 40);

    expect("79 registers x 512", cl_groups_by_registers(65536, 79, 512), 1);
    expect("64 registers x 512", cl_groups_by_registers(65536, 64, 512), 2);
    expect("128 registers x 256", cl_groups_by_registers(65536, 128, 256), 2);
    expect("32 registers x 256", cl_groups_by_registers(65536, 32, 256), 8);
    expect("65 registers x 64, allocated as 72", cl_groups_by_registers(65536, 65, 64), 14);
    expect("64 registers x 100, 4 warps", cl_groups_by_registers(65536, 64, 100), 8);
    expect("255 registers x 1024", cl_groups_by_registers(65536, 255, 1024), 0);
    expect("registers not told", cl_groups_by_registers(65536, 0, 256), 0);
    expect("register file not told", cl_groups_by_registers(0, 64, 256), 0);

    /* A failed build's log: NVIDIA's reports of the kernels it compiled,
     * then its front end's errors; a log without the word; blanks only. */
    static const char failed[] = "ptxas info    : Used 64 registers\n"
                                 "  warning: unused variable 'x'\n"
                                 "  <source>:12:3: error: use of undeclared identifier 'y'\n"
                                 "  y = 1;\n";
    expect_text("the first line naming an error", cl_log_errors(failed),
                "<source>:12:3: error: use of undeclared identifier 'y'\n  y = 1;\n");
    expect_text("no error named", cl_log_errors("\n  warning: unused\n"), "warning: unused\n");
    expect_text("blanks only", cl_log_errors(" \n\t"), "");

    /* The cap a build asks for: its definition LS_REGISTERS, else the
     * source's. */
    expect("no definitions, a source of 128", cl_register_cap(128, ""), 128);
    expect("no definitions, a source without a cap", cl_register_cap(0, ""), 0);
    expect("LS_REGISTERS among others", cl_register_cap(128, "LIFE_FIXED_DIMS=3 LS_REGISTERS=168 X=1"), 168);
    expect("the last LS_REGISTERS", cl_register_cap(0, "LS_REGISTERS=96 LS_REGISTERS=168"), 168);
    expect("a name that only starts so", cl_register_cap(128, "LS_REGISTERS_MORE=168"), 128);
    if (failures)
        return 1;
    printf("ok: 17 counts, 3 logs, 5 caps\n");
    return 0;
}
