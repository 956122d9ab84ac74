#!/usr/bin/env bash
# bench/graveler_cpu.sh - issue 35's Graveler on a lent machine's host CPU:
# OpenMP against PoCL, A (BASE.tar, the tree before) and B (the working
# tree), on one thread and on every core, three rounds interleaved so that
# a drift of the machine reaches every path alike. It shows PoCL B's time
# against OpenMP's on all cores (the target: 1.5x) and whether that ratio
# still grows from one thread to all of them, as A's did when a launch
# waited for its slowest core's fixed share (docs/perf/README.md, issue
# 35's Graveler). Medians of 3 runs after a warm-up (lockstep bench).
#
# usage: bash bench/graveler_cpu.sh BASE.tar [OUTDIR] [BATTLES]
#   BATTLES on every core (default 1e9); one thread plays a tenth of them.
# Run from the repository root; .peers carries SQLite and xxHash
# (bench/device_env.sh).
set -u
base=${1:?usage: bench/graveler_cpu.sh BASE.tar [OUTDIR] [BATTLES]}
out=${2:-${OUT:-/tmp}}
battles=${3:-1e9}
one=$(python3 -c "print('%.0f' % (float('$battles') / 10))")
mkdir -p "$out"
exec > >(tee -a "$out/graveler_cpu.log") 2>&1
. bench/device_env.sh
device_banner "A $base, B the working tree, Graveler $battles battles on $(nproc) cores, $one on one"
device_env "$PWD"
device_build_ab "$base" gravcpu disabled "$out"
pocl=$(pocl_device "$B")
[ -n "$pocl" ] || { echo "== no PoCL device: nothing to compare"; exit 1; }
$B devices | grep -A1 -E "Portable|OpenMP"

# bench_line LABEL BIN ARGS...: one bench's median and spread, under the
# command prefix in the array `pin` (taskset for one thread, else none).
pin=()
bench_line() {
  local label=$1 bin=$2
  shift 2
  printf '%-24s ' "$label"
  "${pin[@]}" "$bin" bench graveler "$@" --repeat 3 --warmup 1 2>&1 | grep -E '^mean|digest|error|refused' |
    sed 's/ (3 runs after 1 warm-up)//' | tr '\n' ' '
  echo
}

for round in 1 2 3; do
  echo "== round $round, every core ($(nproc))"
  bench_line "openmp B" "$B" --battles "$battles" --backend openmp
  bench_line "pocl A" "$A" --battles "$battles" --backend "$pocl"
  bench_line "pocl B" "$B" --battles "$battles" --backend "$pocl"
  echo "== round $round, one thread (CPU 1)"
  export OMP_NUM_THREADS=1 POCL_MAX_PTHREAD_COUNT=1 POCL_CPU_MAX_CU_COUNT=1
  pin=(taskset -c 1)
  bench_line "openmp B, 1 thread" "$B" --battles "$one" --backend openmp
  bench_line "pocl A, 1 thread" "$A" --battles "$one" --backend "$pocl"
  bench_line "pocl B, 1 thread" "$B" --battles "$one" --backend "$pocl"
  pin=()
  unset OMP_NUM_THREADS POCL_MAX_PTHREAD_COUNT POCL_CPU_MAX_CU_COUNT
done
echo "== done in $(( $(date +%s) - t0 )) s"
