#!/usr/bin/env bash
# bench/life2d_variants.sh - issue 16, Life 2D: the variants of the 2D GPU
# kernel side by side on one NVIDIA machine (docs/perf/README.md keeps a
# row per variant). Each variant is a build of its own under /tmp with
# LIFE_2D_GENS (generations a launch of life_many_2d*, src/algo/life.h)
# given to both the host C code and nvcc: the host lays out the launch for
# the kernel's count. "two" (LIFE_2D_GENS=2) turns the many-generation
# kernel off: today's main, two generations a launch.
#
# For each variant: the issue's case 65536^2 x 1024 under B3/S23, the same
# under B36/S23 (another rule: at most 1.5x), 65535^2 (an odd size: at
# most 1.3x per cell), and a check of 4099x1031 x 37 (short last words, two
# margin lanes, tails of two and one generations) against OpenMP. The
# default variant also runs NVIDIA's OpenCL (at most 1.15x CUDA). A
# variant build's OpenCL programs are built with the default LIFE_2D_GENS
# (they are embedded sources), so only the default build runs OpenCL.
#
# usage: bash bench/life2d_variants.sh [VARIANT...]   (default: all; the log
# also goes to $OUT/life2d_variants.log, $OUT defaulting to /tmp)
# variants: two, gN for N up to 32 (g16 is the default build; all: two g4
# g8 g12 g16). About 4 minutes on a 16-core H200 host (the builds run in
# parallel).
set -u
. "$(dirname "$0")/variants_lib.sh"
variants_setup life2d_variants

variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(two g4 g8 g12 g16)

variant_defines() { # the generation count a launch
  case $1 in
    g16) ;;
    two) echo "-DLIFE_2D_GENS=2u" ;;
    g[0-9]*) echo "-DLIFE_2D_GENS=${1#g}u" ;;
    *) echo "unknown variant $1" >&2; return 1 ;;
  esac
}

variants_build life2d "${variants[@]}"
for v in "${variants[@]}"; do
  echo "== variant $v: $(variant_defines "$v")"
  set2d=(--dims 2 --steps 1024 --density 0.2)
  variants_bench life2d "$v" "65536^2 x 1024 B3/S23 cuda" "${set2d[@]}" --size 65536 --backend cuda
  variants_bench life2d "$v" "65536^2 x 1024 B36/S23 cuda" "${set2d[@]}" --size 65536 --backend cuda --rule B36/S23
  variants_bench life2d "$v" "65535^2 x 1024 B3/S23 cuda" "${set2d[@]}" --size 65535 --backend cuda
  [ "$v" = g16 ] && variants_bench_nvidia life2d "$v" "65536^2 x 1024 B3/S23" "${set2d[@]}" --size 65536
  echo "-- $v: check 4099x1031 x 37 openmp,cuda"
  /tmp/life2d-"$v"/lockstep check life --dims 2 --size 4099x1031 --steps 37 --backends openmp,cuda --quiet 2>&1 | tail -1
done
variants_done
