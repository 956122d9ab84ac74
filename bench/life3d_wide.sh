#!/usr/bin/env bash
# bench/life3d_wide.sh - the wide 3D tile walk (issue 36: rows of 33 to 64
# words, two warps a row) on one lent H200: A (BASE.tar, the tree before)
# and B (the working tree) built side by side for sm_90 (only the lockstep
# binary, in parallel), then
#   - checks of B: `check life` over wide rows (64 words, a short last
#     word, 33 words with a rule, the rule as kernel arguments, a bounded
#     plane, 65 words: the walk of one generation) and the rows of a warp
#     on OpenMP, CUDA and NVIDIA's OpenCL (the walk of one generation), and
#     again with NVIDIA's OpenCL forced to the tile walk
#     (LOCKSTEP_DEBUG_LIFE_MANY=1); compute-sanitizer's memcheck and
#     racecheck over the wide walk (its halo is one set, two barriers a
#     step);
#   - times, A and B side by side (bench's median after a warm-up):
#     2048^3 x 2048 B6/S567 and B5/S45 on CUDA (B: the wide tile walk, A:
#     the walk of one generation) and NVIDIA's OpenCL (B also forced to the
#     wide walk); 1024^3 x 1024 B6/S567 and B5/S45, 1023^3 x 1024 on CUDA
#     and NVIDIA's OpenCL (B must be no slower: the same walk).
# Prints every digest; A's and B's must be equal. About 8 minutes.
#
# usage: bash bench/life3d_wide.sh BASE.tar [OUTDIR]
# Run from the repository root; .peers carries SQLite and xxHash
# (bench/device_env.sh). BASE.tar: `git archive main` (the tree before).
set -u
base=${1:?usage: bench/life3d_wide.sh BASE.tar [OUTDIR]}
out=${2:-${OUT:-/tmp}}
mkdir -p "$out"
. bench/variants_lib.sh
variants_ab life3d_wide l3w "$base" "issue 36, the wide tile walk"


echo "== checks of B ($(( $(date +%s) - variants_t0 )) s)"
devs=openmp,cuda:0${nv:+,$nv}
checks=(
  "--dims 3 --size 2048x61x23 --steps 9 --density 0.3"
  "--dims 3 --size 2047x45x13 --steps 7 --density 0.3"
  "--dims 3 --size 1056x30x11 --steps 6 --rule B5/S45"
  "--dims 3 --size 1500x131x37 --steps 12 --density 0.25 --every 3"
  "--rule B0,6/S5-7:P2047,45,20 --steps 9"
  "--dims 3 --size 2080x40x9 --steps 4"
  "--dims 3 --size 1023x61x59 --steps 13 --density 0.3"
  "--dims 3 --size 2048 --steps 4 --density 0.2"
)
for a in "${checks[@]}"; do
  echo "-- check life $a ($devs): $($B check life $a --quiet --backends "$devs" 2>&1 | tail -1)"
done
echo "-- check life --dims 3 --size 1500x37x11 --steps 7 --rule B0,5/S4-6, the rule as kernel arguments: $(
  LOCKSTEP_DEBUG_LIFE_RULE_ARGS=1 $B check life --dims 3 --size 1500x37x11 --steps 7 --rule B0,5/S4-6 --quiet \
    --backends "$devs" 2>&1 | tail -1)"
if [ -n "$nv" ]; then
  for a in "${checks[@]:0:5}"; do
    echo "-- tile walk forced on $nv: check life $a: $(LOCKSTEP_DEBUG_LIFE_MANY=1 $B check life $a --quiet \
      --backends openmp,"$nv" 2>&1 | tail -1)"
  done
fi
for tool in memcheck racecheck; do
  for a in "--dims 3 --size 2047x61x13 --steps 4 --density 0.3" "--dims 3 --size 1056x30x11 --steps 2 --rule B5/S45"; do
    compute-sanitizer --tool $tool --error-exitcode 9 $B life $a --backend cuda:0 --quiet > /tmp/l3w-sanitizer.txt 2>&1
    echo "-- compute-sanitizer $tool life $a: exit $? $(grep -E 'ERROR SUMMARY|HAZARD' /tmp/l3w-sanitizer.txt | head -2)"
  done
done

echo "== times: lockstep bench life ($(( $(date +%s) - variants_t0 )) s)"
for c in "--size 2048 --steps 2048" "--size 2048 --steps 2048 --rule B5/S45"; do
  echo "-- --dims 3 --density 0.2 $c (median of 3 after 1)"
  variants_life_line "cuda A" $A 3 --dims 3 --density 0.2 $c --backend cuda:0
  variants_life_line "cuda B" $B 3 --dims 3 --density 0.2 $c --backend cuda:0
done
if [ -n "$nv" ]; then
  c="--size 2048 --steps 2048"
  echo "-- --dims 3 --density 0.2 $c on $nv (median of 3 after 1)"
  variants_life_line "nvidia opencl A" $A 3 --dims 3 --density 0.2 $c --backend "$nv"
  variants_life_line "nvidia opencl B" $B 3 --dims 3 --density 0.2 $c --backend "$nv"
  LOCKSTEP_DEBUG_LIFE_MANY=1 variants_life_line "nvidia opencl B, wide tile walk" $B 3 --dims 3 --density 0.2 $c --backend "$nv"
fi
for c in "--size 1024" "--size 1024 --rule B5/S45" "--size 1023"; do
  echo "-- --dims 3 --steps 1024 --density 0.2 $c (median of 5 after 1)"
  variants_life_line "cuda A" $A 5 --dims 3 --steps 1024 --density 0.2 $c --backend cuda:0
  variants_life_line "cuda B" $B 5 --dims 3 --steps 1024 --density 0.2 $c --backend cuda:0
  if [ -n "$nv" ]; then
    variants_life_line "nvidia opencl A" $A 5 --dims 3 --steps 1024 --density 0.2 $c --backend "$nv"
    variants_life_line "nvidia opencl B" $B 5 --dims 3 --steps 1024 --density 0.2 $c --backend "$nv"
  fi
done
echo "== done in $(( $(date +%s) - variants_t0 )) s"
