#!/usr/bin/env bash
# bench/portability.sh - issue 35's batch for a lent NVIDIA machine: every
# path to the same chip side by side, A (BASE.tar, the tree before) and B
# (the working tree) built for sm_90 in one batch:
#   - devices, conformance and the cross-checks of B on every device, also
#     with NVIDIA's OpenCL forced to the portable group shape
#     (LOCKSTEP_SHAPE=group: exchanges through local memory, as a GPU that is
#     not NVIDIA's runs them);
#   - the GPU: CUDA's kernels A against B (within 2%), NVIDIA's OpenCL against
#     CUDA (1.05x), and the group shape against NVIDIA's OpenCL (1.1x);
#   - the host's CPU: OpenMP against PoCL (1.5x), A's OpenMP and PoCL and B's.
# Medians of --repeat runs after a warm-up (lockstep bench). The output is
# what docs/perf/ records.
#
# usage: bash bench/portability.sh BASE.tar [OUTDIR] [PART]
#   PART: all (default), check, gpu or cpu
# Run from the repository root; .peers carries SQLite and xxHash
# (bench/device_env.sh).
set -u
base=${1:?usage: bench/portability.sh BASE.tar [OUTDIR] [PART]}
out=${2:-${OUT:-/tmp}}
part=${3:-all}
mkdir -p "$out"
exec > >(tee -a "$out/portability.log") 2>&1
. bench/device_env.sh
device_banner "A $base, B the working tree, part $part"
device_env "$PWD"
device_build_ab "$base" portability disabled "$out"
nv=$($B devices --json | python3 bench/nvidia_cl_device.py)
pocl=$(pocl_device "$B")
echo "== NVIDIA OpenCL: ${nv:-none}; PoCL: ${pocl:-none}"


if [ "$part" = all ] || [ "$part" = check ]; then
  $B devices
  echo "== conformance of B on every device"
  $B conformance --quiet
  [ -n "$nv" ] && { echo "== conformance of B, $nv in the group shape"; LOCKSTEP_SHAPE=group $B conformance --backend "$nv" --quiet; }
  echo "== check all of B on every device"
  $B check all --quiet
  [ -n "$nv" ] && { echo "== check all of B: openmp, cuda, $nv in the group shape"; LOCKSTEP_SHAPE=group $B check all --backends openmp,cuda,"$nv" --quiet; }
fi

if [ "$part" = all ] || [ "$part" = gpu ]; then
  echo "== GPU: CUDA A, CUDA B, NVIDIA OpenCL B, NVIDIA OpenCL B in the group shape (bench median of 5 after 1)"
  gpu_cases=(
    "graveler --battles 1e9"
    "bmn --deals 1e9"
    "life --dims 3 --size 1024 --steps 1024 --density 0.2"
    "life --dims 2 --size 65536 --steps 1024 --density 0.2"
    "ray --size 1024x1024 --spp 16"
    "ray --size 1024x1024 --spp 16 --mode fast"
  )
  for c in "${gpu_cases[@]}"; do
    echo "-- $c"
    bench_line "cuda A" "$A" $c --backend cuda:0 --repeat 5 --warmup 1
    bench_line "cuda B" "$B" $c --backend cuda:0 --repeat 5 --warmup 1
    if [ -n "$nv" ]; then
      bench_line "nvidia opencl B" "$B" $c --backend "$nv" --repeat 5 --warmup 1
      LOCKSTEP_SHAPE=group bench_line "nvidia opencl B, group shape" "$B" $c --backend "$nv" --repeat 5 --warmup 1
    fi
  done
fi

if [ "$part" = all ] || [ "$part" = cpu ]; then
  echo "== CPU ($(nproc) cores): OpenMP A, OpenMP B, PoCL A, PoCL B (bench median of 3 after 1)"
  cpu_cases=(
    "graveler --battles 1e9"
    "life --dims 3 --size 512 --steps 64"
    "life --dims 2 --size 16384 --steps 256"
    "ray --size 1024x1024 --spp 16 --mode fast"
    "ray --size 1024x1024 --spp 16"
    "bmn --deals 5e7"
  )
  for c in "${cpu_cases[@]}"; do
    echo "-- $c"
    bench_line "openmp A" "$A" $c --backend openmp --repeat 3 --warmup 1
    bench_line "openmp B" "$B" $c --backend openmp --repeat 3 --warmup 1
    if [ -n "$pocl" ]; then
      bench_line "pocl A" "$A" $c --backend "$pocl" --repeat 3 --warmup 1
      bench_line "pocl B" "$B" $c --backend "$pocl" --repeat 3 --warmup 1
    fi
  done
fi
echo "== done in $(( $(date +%s) - t0 )) s"
