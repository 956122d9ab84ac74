#!/usr/bin/env bash
# bench/life3d_variants.sh - issue 16, Life 3D: variants of the 3D GPU
# kernel side by side on one NVIDIA machine (docs/perf/README.md keeps a
# row per variant). Each variant is a build of its own under /tmp:
#   rN    LIFE_GPU_3D_ROWS=N, rows a work-item owns (src/algo/life.h; 4),
#         given to the host C code and to nvcc alike (bench/variants_lib.sh);
#         r4 is the default build
#   base  the tree in $BASE_TAR (a `git archive` of the commit to compare
#         with), built as it is: the A of an A/B in the same batch
# For each: the issue's case 1024^3 x 1024 (B6/S567, density 0.2), the
# same under another rule (B5/S45: the any-rule kernel), 1023^3 x 1024 (an
# odd size), and a check of 67x61x59 x 13 against OpenMP. The default
# build also runs NVIDIA's OpenCL (a variant's OpenCL programs are built
# with the default row count, so only the default build runs OpenCL).
#
# usage: [BASE_TAR=FILE] bash bench/life3d_variants.sh [VARIANT...]
#        (default: r4; the log also goes to $OUT/life3d_variants.log)
set -u
. "$(dirname "$0")/variants_lib.sh"
variants_setup life3d_variants

variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(r4)

variant_defines() { # the rows a work-item owns
  case $1 in
    r4|base) ;;
    r[0-9]*) echo "-DLIFE_GPU_3D_ROWS=${1#r}u" ;;
    *) echo "unknown variant $1" >&2; return 1 ;;
  esac
}
variant_source() { # base: the tree in $BASE_TAR
  if [ "$1" = base ]; then
    [ -f "${BASE_TAR:-}" ] || { echo "variant base needs BASE_TAR" >&2; return 1; }
    rm -rf /tmp/life3d-src-base && mkdir -p /tmp/life3d-src-base && tar -xf "$BASE_TAR" -C /tmp/life3d-src-base &&
      echo /tmp/life3d-src-base
  else
    echo "$PWD"
  fi
}

variants_build life3d "${variants[@]}"
for v in "${variants[@]}"; do
  echo "== variant $v: $(variant_defines "$v")"
  set3d=(--dims 3 --steps 1024 --density 0.2)
  variants_bench life3d "$v" "1024^3 x 1024 B6/S567 cuda" "${set3d[@]}" --size 1024 --backend cuda
  variants_bench life3d "$v" "1024^3 x 1024 B5/S45 cuda" "${set3d[@]}" --size 1024 --backend cuda --rule B5/S45
  variants_bench life3d "$v" "1023^3 x 1024 B6/S567 cuda" "${set3d[@]}" --size 1023 --backend cuda
  [ "$v" = r4 ] && variants_bench_nvidia life3d "$v" "1024^3 x 1024 B6/S567" "${set3d[@]}" --size 1024
  echo "-- $v: check 67x61x59 x 13 openmp,cuda"
  /tmp/life3d-"$v"/lockstep check life --dims 3 --size 67x61x59 --steps 13 --density 0.3 --backends openmp,cuda --quiet 2>&1 | tail -1
done
variants_done
