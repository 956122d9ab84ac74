#!/usr/bin/env bash
# bench/graveler_seed.sh DIR - the seed's CUDA Graveler kernel
# (barr-israel/graveler-sim, cuda/bench.cu and kernel.cu in DIR: curand,
# max only, about 1e9 battles a launch: two battles a loop, 5e8 / threads +
# 2 loops a thread), built for sm_90 and run as its own bench does: ten
# launches after ten of warm-up, the mean printed by it.
set -u
dir=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
/usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -o "$out/bench" "$dir/bench.cu" 2>/dev/null || { echo "graveler seed: build failed"; exit 1; }
echo "== the seed's Graveler kernel (graveler-sim cuda/bench.cu)"
"$out/bench"
