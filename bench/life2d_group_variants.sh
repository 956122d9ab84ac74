#!/usr/bin/env bash
# bench/life2d_group_variants.sh - Life 2D on the group shape (issue 35):
# variants of the group shape's 2D walk (life_group_2d_*, the kernel a GPU
# without shuffles runs) side by side on one NVIDIA machine, run on NVIDIA's
# OpenCL forced to that shape (LOCKSTEP_SHAPE=group: exchanges through
# local memory, as a GPU that is not NVIDIA's runs them). Each variant is a
# build of its own under /tmp, named by the knobs of src/algo/life.h it
# sets, in any order:
#   gN    LIFE_GROUP_2D_GENS=N, generations a pass (16)
#   cN    LIFE_GROUP_2D_COLS=N, words of a group's run, one work-item a
#         word column in each slot (64)
#   sN    LIFE_GROUP_2D_SLOTS=N, slots of a group, each making GENS / N of
#         the generations (4): a group is COLS x SLOTS work-items
#   rN    LIFE_GROUP_2D_ROWS=N, rows a level makes a step, between two
#         barriers (2; even)
# given to the host C code (bench/variants_lib.sh), which builds the OpenCL
# program with them; `default` is the default build. Local memory a group:
# GENS x 2 x ROWS x COLS words.
#
# For each: the issue's case 65536^2 x 1024 (B3/S23, density 0.2) in the
# group shape, the same under B36/S23 (built in) and at 65535^2 (rows with a
# short last word), and checks against OpenMP and CUDA: 4099x1031 x 37
# (several runs and segments, a tail of two generations and one) and a
# bounded plane with B0. The default build also runs CUDA and NVIDIA's
# OpenCL in its own (warp) shape on the issue's case: the 1.1x target is the
# group shape's time against NVIDIA's OpenCL's.
#
# usage: bash bench/life2d_group_variants.sh [VARIANT...]
#        (default: the batch below; the log also goes to
#        $OUT/life2d_group_variants.log)
set -u
. "$(dirname "$0")/variants_lib.sh"
variants_setup life2d_group_variants

variants=("$@")
# Runs of 96 words (22 runs of 94 stored words on 2048-word rows: 1.031
# words made a word stored, against 1.0625 at 64 or 128), in 4 or 2 slots;
# four rows a step (half the barriers, 32 KiB); runs of 128 (8 levels a
# slot, 32 KiB); 512 work-items a group (2 levels a slot); 32 generations
# a pass (half the passes over DRAM, twice the warm-up rows). Others worth
# a look: c32s8, g8s2 (fewer registers), c96s4r4.
[ ${#variants[@]} -gt 0 ] || variants=(default c96s4 c96s2 r4 c128s2 s8 g32s8)

variant_defines() { # the knobs a variant's name sets
  local rest=$1 defs=() knob
  case $1 in default) return 0 ;; esac
  while [ -n "$rest" ]; do
    case $rest in
      g[0-9]*) knob=GENS ;;
      c[0-9]*) knob=COLS ;;
      s[0-9]*) knob=SLOTS ;;
      r[0-9]*) knob=ROWS ;;
      *) echo "unknown variant $1 (knobs: gN cN sN rN)" >&2; return 1 ;;
    esac
    rest=${rest:1}
    defs+=("-DLIFE_GROUP_2D_$knob=${rest%%[!0-9]*}u")
    rest=${rest#"${rest%%[!0-9]*}"}
  done
  echo "${defs[*]}"
}

variants_build life2dg "${variants[@]}"
for v in "${variants[@]}"; do
  echo "== variant $v: $(variant_defines "$v")"
  bin=/tmp/life2dg-$v/lockstep
  nv=$($bin devices --json | python3 bench/nvidia_cl_device.py)
  if [ -z "$nv" ]; then
    echo "-- $v: no NVIDIA OpenCL device"
    continue
  fi
  set2d=(--dims 2 --steps 1024 --density 0.2)
  if [ "$v" = default ]; then
    variants_bench life2dg "$v" "65536^2 x 1024 B3/S23 cuda" "${set2d[@]}" --size 65536 --backend cuda
    variants_bench life2dg "$v" "65536^2 x 1024 B3/S23 $nv (warp shape)" "${set2d[@]}" --size 65536 --backend "$nv"
  fi
  export LOCKSTEP_SHAPE=group
  variants_bench life2dg "$v" "65536^2 x 1024 B3/S23 $nv, group shape" "${set2d[@]}" --size 65536 --backend "$nv"
  variants_bench life2dg "$v" "65536^2 x 1024 B36/S23 $nv, group shape" "${set2d[@]}" --size 65536 --backend "$nv" \
    --rule B36/S23
  variants_bench life2dg "$v" "65535^2 x 1024 B3/S23 $nv, group shape" "${set2d[@]}" --size 65535 --backend "$nv"
  echo "-- $v: check 4099x1031 x 37 and a bounded plane 4099x67 x 35, B0, openmp,cuda,$nv in the group shape"
  $bin check life --dims 2 --size 4099x1031 --steps 37 --backends openmp,cuda,"$nv" --quiet 2>&1 | tail -1
  $bin check life --rule B03/S23:P4099,67 --steps 35 --backends openmp,cuda,"$nv" --quiet 2>&1 | tail -1
  unset LOCKSTEP_SHAPE
done
variants_done
