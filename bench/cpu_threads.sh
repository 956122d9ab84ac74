#!/usr/bin/env bash
# bench/cpu_threads.sh - how each CPU path scales on the host: OpenMP and
# PoCL at 1, 2, 4, ... threads up to the host's cores, for each case
# (issue 35: a path within 1.5x of OpenMP on 2 cores can miss on 16).
# `lockstep bench` medians of 3 after a warm-up; OMP_NUM_THREADS bounds
# OpenMP, POCL_CPU_MAX_CU_COUNT (and PoCL 1.x's POCL_MAX_PTHREAD_COUNT)
# PoCL. Needs a built lockstep (BIN).
#
# usage: bash bench/cpu_threads.sh BIN [OUTDIR] CASE...
#   CASE: the arguments of `lockstep bench`, quoted ("ray --size 512x512")
set -u
bin=${1:?usage: bench/cpu_threads.sh BIN [OUTDIR] CASE...}
out=${2:-${OUT:-/tmp}}
shift 2
mkdir -p "$out"
exec > >(tee -a "$out/cpu_threads.log") 2>&1
. bench/device_env.sh
cores=$(nproc)
pocl=$(pocl_device "$bin")
echo "== CPU threads: $cores cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)), PoCL ${pocl:-none}"
threads=()
for ((t = 1; t < cores; t *= 2)); do threads+=("$t"); done
threads+=("$cores")
for c in "$@"; do
  echo "-- $c"
  for t in "${threads[@]}"; do
    OMP_NUM_THREADS=$t bench_line "openmp, $t threads" "$bin" $c --backend openmp --repeat 3 --warmup 1
    [ -n "$pocl" ] && POCL_CPU_MAX_CU_COUNT=$t POCL_MAX_PTHREAD_COUNT=$t bench_line "pocl, $t threads" "$bin" $c \
      --backend "$pocl" --repeat 3 --warmup 1
  done
done
