#!/usr/bin/env bash
# bench/life3d_variants.sh - Life 3D: variants of the 3D GPU walks side by
# side on one NVIDIA machine (docs/perf/README.md keeps a row per variant).
# Each variant is a build of its own under /tmp, named by the knobs of
# src/algo/life.h it sets, in any order:
#   dN    LIFE_GPU_3D_DEPTH=N, generations a pass: 1 the walk of one
#         generation (life_3d, the only one before issue 28), 2 or more
#         the tile walk (life_tile_3d); default 2
#   rN    LIFE_GPU_3D_ROWS=N, rows a work-item owns in either walk (4)
#   wN    LIFE_GPU_3D_WARPS=N, warps a group of the tile walk (12)
#   sN    LIFE_GPU_3D_STAGES=N, planes the tile walk copies ahead into
#         local memory on CUDA (2; 0: loads into registers a plane ahead,
#         what every OpenCL device does)
# given to the host C code and to nvcc alike (bench/variants_lib.sh), e.g.
# d4r2w16; `default` is the default build, and
#   base  the tree in $BASE_TAR (a `git archive` of the commit to compare
#         with), built as it is: the A of an A/B in the same batch
# For each: the issue's case 1024^3 x 1024 (B6/S567, density 0.2), the
# same under another rule (B5/S45, built in by NVRTC), 1023^3 x 1024 (rows
# with a short last word), and checks against OpenMP: 67x61x59 x 13 (rows
# of three words, tiles whose last one is moved up) and a bounded plane
# with B0. The default build and base (and every variant, with
# VARIANTS_NVIDIA=1) also run NVIDIA's OpenCL and check it.
#
# usage: [BASE_TAR=FILE] bash bench/life3d_variants.sh [VARIANT...]
#        (default: the batch of issue 28 below; the log also goes to
#        $OUT/life3d_variants.log)
set -u
. "$(dirname "$0")/variants_lib.sh"
variants_setup life3d_variants

variants=("$@")
# One generation a pass against two (the default); loads into registers
# instead of copies; 16 warps (taller tiles, the registers capped at 128,
# where the walk spills); 3 rows a warp at 16 warps (the default's tiles,
# fewer registers); 5 rows a warp (taller tiles, a few spills at 168).
[ ${#variants[@]} -gt 0 ] || variants=(default d1 s0 w16 r3w16 r5)

variant_defines() { # the knobs a variant's name sets
  local rest=$1 defs=() knob
  case $1 in default|base) return 0 ;; esac
  while [ -n "$rest" ]; do
    case $rest in
      d[0-9]*) knob=DEPTH ;;
      r[0-9]*) knob=ROWS ;;
      w[0-9]*) knob=WARPS ;;
      s[0-9]*) knob=STAGES ;;
      *) echo "unknown variant $1 (knobs: dN rN wN sN)" >&2; return 1 ;;
    esac
    rest=${rest:1}
    defs+=("-DLIFE_GPU_3D_$knob=${rest%%[!0-9]*}u")
    rest=${rest#"${rest%%[!0-9]*}"}
  done
  echo "${defs[*]}"
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
  devices=openmp,cuda
  if [ "$v" = default ] || [ "$v" = base ] || [ -n "${VARIANTS_NVIDIA:-}" ]; then
    variants_bench_nvidia life3d "$v" "1024^3 x 1024 B6/S567" "${set3d[@]}" --size 1024
    nv=$(/tmp/life3d-"$v"/lockstep devices --json | python3 bench/nvidia_cl_device.py)
    [ -n "$nv" ] && devices=openmp,cuda,$nv
  fi
  echo "-- $v: check 67x61x59 x 13 and a bounded plane 1023x45x20 x 9, B0, $devices"
  /tmp/life3d-"$v"/lockstep check life --dims 3 --size 67x61x59 --steps 13 --density 0.3 --backends "$devices" --quiet 2>&1 | tail -1
  /tmp/life3d-"$v"/lockstep check life --rule B0,6/S5-7:P1023,45,20 --steps 9 --backends "$devices" --quiet 2>&1 | tail -1
done
variants_done
