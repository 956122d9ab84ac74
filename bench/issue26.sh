#!/usr/bin/env bash
# bench/issue26.sh BASE.tar [OUTDIR] - issue 26's one-GPU batch on a lent
# NVIDIA machine: A is the tree in BASE.tar (`git archive -o
# .peers/base.tar REV`), B the working tree. Builds both for sm_90, checks
# B (conformance on every device, `check life` where the GPU makes the
# start, compute-sanitizer over the fill), then times whole processes A
# and B interleaved (shell clock around each) beside B's --timings, and
# the kernels (bench life) A/B. The lent image has no libsqlite3-dev or
# libxxhash-dev: .peers/sqlite and .peers/xxhash carry them (headers, the
# library, pkg-config files; docs/perf/README.md).
set -u
base=$1
out=${2:-${OUT:-/tmp}}
mkdir -p "$out"
exec > >(tee "$out/issue26.log") 2>&1
here=$PWD
echo "== date: $(date -u +%Y-%m-%dT%H:%M:%SZ), A: ${AB_BASE:-base}, B: ${AB_NEW:-working tree}"
echo "== host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv,noheader || true
. bench/device_env.sh
device_env "$here"
device_build_ab "$base" i26 disabled "$out"
nv=$($B devices --json | python3 bench/nvidia_cl_device.py)
echo "NVIDIA OpenCL: $nv"

# ONLY_WHOLE=1: the whole-process timings alone (a second look).
if [ -z "${ONLY_WHOLE:-}" ]; then
echo "== B: conformance (every device)"
$B conformance | tail -4
echo "== B: check life, the GPU making the start (openmp, cuda, $nv)"
for a in "--dims 3 --size 301x203x67 --steps 5 --density 0.3" "--dims 2 --size 65537x300 --steps 40" \
         "--dims 2 --size 1001x999 --steps 17 --density 0.3 --seed 77" "--rule B3/S23:P1000,777 --steps 9" \
         "--dims 3 --size 128 --steps 0 --density 1" "--dims 2 --size 4096 --steps 0 --density 0.5 --seed 123456789012"; do
  echo "-- check life $a"
  $B check life $a --quiet --backends openmp,cuda${nv:+,$nv} | tail -1
done
echo "== B: compute-sanitizer, the fill and a few generations"
compute-sanitizer --error-exitcode 9 $B life --dims 3 --size 67x45x33 --steps 3 --backend cuda --quiet | tail -1; echo "exit $?"
compute-sanitizer --error-exitcode 9 $B life --dims 2 --size 1001x999 --steps 20 --backend cuda --quiet | tail -1; echo "exit $?"
fi

# Whole processes, the shell's clock around each, A and B interleaved.
for run in "--dims 3 --size 2048 --steps 0" "--dims 3 --size 2048 --steps 2048" "--dims 2 --size 131072 --steps 2048"; do
  echo "== whole process: life $run --backend cuda:0"
  for i in 1 2; do
    whole "A" $A life $run --backend cuda:0 --quiet
    whole "B" $B life $run --backend cuda:0 --quiet
  done
  $B life $run --backend cuda:0 --quiet --timings | grep -E "^timings|^time:"
done
echo "== whole process on OpenMP (host CPU): life --dims 3 --size 1024 --steps 0"
for i in 1 2; do
  whole "A" $A life --dims 3 --size 1024 --steps 0 --backend openmp --quiet
  whole "B" $B life --dims 3 --size 1024 --steps 0 --backend openmp --quiet
done
$B life --dims 3 --size 1024 --steps 0 --backend openmp --quiet --timings | grep -E "^timings"

[ -n "${ONLY_WHOLE:-}" ] && { echo "== done in $(( $(date +%s) - t0 )) s"; exit 0; }
echo "== kernels: bench life A/B (must not move more than 2%)"
for b in "--dims 3 --size 1024 --steps 1024 --density 0.2 --backend cuda" "--dims 2 --size 65536 --steps 1024 --backend cuda" \
         "--dims 3 --size 1024 --steps 1024 --density 0.2 --backend $nv" "--dims 2 --size 65536 --steps 1024 --backend $nv"; do
  for t in A B; do
    l=$([ $t = A ] && echo $A || echo $B)
    echo "-- $t bench life $b"
    $l bench life $b --repeat 3 --warmup 1 | grep -E "median"
  done
done
echo "== done in $(( $(date +%s) - t0 )) s"
