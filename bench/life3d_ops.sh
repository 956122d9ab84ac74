#!/usr/bin/env bash
# bench/life3d_ops.sh - issue 36's batch (the kernel) for one lent H200: A
# (BASE.tar, the tree before) and B (the working tree) built side by side
# for sm_90 (only the lockstep binary, in parallel), then
#   - checks of B: conformance on CUDA and NVIDIA's OpenCL; `check life`
#     over 3D rules, odd sizes, 1023, bounded planes and --every on
#     OpenMP, CUDA (the tile walk) and NVIDIA's OpenCL (the walk of one
#     generation), and once more with NVIDIA's OpenCL forced to the tile
#     walk (LOCKSTEP_DEBUG_LIFE_MANY=1); compute-sanitizer over the walk;
#   - times (bench median of 5 after a warm-up), A and B side by side:
#     1024^3 x 1024 B6/S567, B5/S45, B4/S34, 1023^3 x 1024 on CUDA and
#     NVIDIA's OpenCL (B also forced to the tile walk there), and
#     2048^3 x 2048 (rows of 64 words: the walk of one generation);
#   - ncu on one launch of the tile walk, A and B: the ALU (logic) pipe's
#     busy share and the instructions a word-generation (warp instructions
#     x 32 / 2^26 word-generations a launch of 1024^3, two generations).
# Prints every digest; A's and B's must be equal. About 6 minutes.
#
# usage: bash bench/life3d_ops.sh BASE.tar [OUTDIR]
# Run from the repository root; .peers carries SQLite and xxHash
# (bench/device_env.sh).
set -u
base=${1:?usage: bench/life3d_ops.sh BASE.tar [OUTDIR]}
out=${2:-${OUT:-/tmp}}
mkdir -p "$out"
. bench/variants_lib.sh
variants_ab life3d_ops l3d "$base" "issue 36"

# line LABEL BIN ARGS...: variants_life_line of 5 runs.
line() { variants_life_line "$1" "$2" 5 "${@:3}"; }

echo "== checks of B ($(( $(date +%s) - variants_t0 )) s)"
$B conformance --backend cuda:0 --quiet 2>&1 | tail -1
[ -n "$nv" ] && $B conformance --backend "$nv" --quiet 2>&1 | tail -1
devs=openmp,cuda:0${nv:+,$nv}
checks=(
  "--dims 3 --size 301x203x67 --steps 29 --density 0.3"
  "--dims 3 --size 1023x61x59 --steps 13 --density 0.3"
  "--dims 3 --size 96x131x37 --steps 12 --density 0.25 --every 3"
  "--dims 3 --size 128 --steps 27 --slabs 5"
  "--dims 3 --size 96x40x33 --steps 7 --rule B5/S45 --slabs 3"
  "--dims 3 --size 67x61x59 --steps 13 --rule B4/S34 --density 0.2"
  "--dims 3 --size 64x70x23 --steps 8 --rule B5/S45 --density 0.3"
  "--rule B0,6/S5-7:P1023,45,20 --steps 9"
  "--rule B5/S45:P100,70,12 --steps 8"
)
for a in "${checks[@]}"; do
  echo "-- check life $a ($devs): $($B check life $a --quiet --backends "$devs" 2>&1 | tail -1)"
done
if [ -n "$nv" ]; then
  for a in "${checks[@]:0:3}" "${checks[6]}" "${checks[7]}"; do
    echo "-- tile walk forced on $nv: check life $a: $(LOCKSTEP_DEBUG_LIFE_MANY=1 $B check life $a --quiet \
      --backends openmp,"$nv" 2>&1 | tail -1)"
  done
fi
for a in "--dims 3 --size 67x61x59 --steps 6 --density 0.3" "--dims 3 --size 96x40x33 --steps 4 --rule B5/S45"; do
  compute-sanitizer --error-exitcode 9 $B life $a --backend cuda:0 --quiet > /tmp/l3d-sanitizer.txt 2>&1
  echo "-- compute-sanitizer life $a: exit $? $(grep -E 'ERROR SUMMARY' /tmp/l3d-sanitizer.txt)"
done

echo "== times: lockstep bench life, median of 5 after 1 ($(( $(date +%s) - variants_t0 )) s)"
s3=(--dims 3 --steps 1024 --density 0.2)
for c in "--size 1024" "--size 1024 --rule B5/S45" "--size 1024 --rule B4/S34" "--size 1023"; do
  echo "-- ${s3[*]} $c"
  line "cuda A" $A "${s3[@]}" $c --backend cuda:0
  line "cuda B" $B "${s3[@]}" $c --backend cuda:0
  if [ -n "$nv" ]; then
    line "nvidia opencl A" $A "${s3[@]}" $c --backend "$nv"
    line "nvidia opencl B" $B "${s3[@]}" $c --backend "$nv"
    LOCKSTEP_DEBUG_LIFE_MANY=1 line "nvidia opencl B, tile walk" $B "${s3[@]}" $c --backend "$nv"
  fi
done
echo "-- --dims 3 --size 2048 --steps 2048 --density 0.2 (kernels: bench's median)"
for v in A B; do
  bin=$([ $v = A ] && echo $A || echo $B)
  printf '%-30s ' "cuda $v"
  $bin bench life --dims 3 --size 2048 --steps 2048 --density 0.2 --backend cuda:0 --repeat 3 --warmup 1 2>&1 |
    grep -E '^Life on|median|rror' | tr -s ' ' | tr '\n' ' '
  echo
done

echo "== ncu: one launch of the tile walk (the third), 1024^3 x 16 ($(( $(date +%s) - variants_t0 )) s)"
for v in A B; do
  bin=$([ $v = A ] && echo $A || echo $B)
  ncu --launch-skip 2 --launch-count 1 --kernel-name regex:life_tile_3d \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats \
    --metrics smsp__inst_executed.sum,sm__inst_executed_pipe_alu.sum,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.sum,smsp__inst_executed_op_shared_ld.sum \
    $bin life --dims 3 --size 1024 --steps 16 --density 0.2 --backend cuda:0 > "$out/ncu-$v.txt" 2>&1
  echo "-- $v: $(grep -E 'life_tile_3d.*\(' "$out/ncu-$v.txt" | head -1 | tr -s ' ')"
  grep -E 'smsp__inst_executed.sum|sm__inst_executed_pipe_alu.sum|pipe_alu_cycles_active|inst_executed_pipe_fma|Registers Per|Achieved Occupancy|Duration' "$out/ncu-$v.txt" | tr -s ' '
  awk '/smsp__inst_executed.sum/ {gsub(",", "", $NF); printf "   instructions a word-generation: %.2f\n", $NF * 32 / 2^26}
       /sm__inst_executed_pipe_alu.sum/ {gsub(",", "", $NF); printf "   ALU-pipe instructions a word-generation: %.2f\n", $NF * 32 / 2^26}' "$out/ncu-$v.txt"
done
echo "== done in $(( $(date +%s) - variants_t0 )) s"
