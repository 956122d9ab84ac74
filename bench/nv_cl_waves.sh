#!/usr/bin/env bash
# bench/nv_cl_waves.sh - NVIDIA's OpenCL against CUDA where the wave
# (groups a compute unit, cl_registers.h) decides the time, A (BASE.tar)
# and B (the working tree) built for sm_90 in one batch. B reads each
# kernel's registers from the build log, which NVIDIA's driver writes only
# when it compiles the PTX rather than taking it from its own cache
# (~/.nv/ComputeCache), so B runs with both caches cold, then warm, then
# with lockstep's cache off, then with lockstep's cleared and the driver's
# warm. `lockstep bench` medians of 3 after a warm-up.
#
# usage: bash bench/nv_cl_waves.sh BASE.tar [OUTDIR]
set -u
base=${1:?usage: bench/nv_cl_waves.sh BASE.tar [OUTDIR]}
out=${2:-${OUT:-/tmp}}
mkdir -p "$out"
exec > >(tee -a "$out/nv_cl_waves.log") 2>&1
. bench/device_env.sh
device_banner "A $base, B the working tree"
device_env "$PWD"
device_build_ab "$base" waves disabled "$out"
nv=$($B devices --json | python3 bench/nvidia_cl_device.py)
[ -n "$nv" ] || { echo "== no NVIDIA OpenCL device"; exit 1; }
export LOCKSTEP_CACHE_DIR=/tmp/waves-cache
cold() { rm -rf "$HOME/.nv/ComputeCache" "$LOCKSTEP_CACHE_DIR"; }
cases=("bmn --deals 1e9" "life --dims 2 --size 65536 --steps 1024 --density 0.2"
  "life --dims 3 --size 1024 --steps 1024 --density 0.2")
for c in "${cases[@]}"; do
  echo "-- $c"
  bench_line "cuda B" "$B" $c --backend cuda:0 --repeat 3 --warmup 1
  cold
  bench_line "nvidia opencl A, caches cold" "$A" $c --backend "$nv" --repeat 3 --warmup 1
  cold
  bench_line "nvidia opencl B, caches cold" "$B" $c --backend "$nv" --repeat 3 --warmup 1
  bench_line "nvidia opencl B, caches warm" "$B" $c --backend "$nv" --repeat 3 --warmup 1
  LOCKSTEP_CACHE=off bench_line "nvidia opencl B, lockstep's cache off" "$B" $c --backend "$nv" --repeat 3 --warmup 1
  rm -rf "$LOCKSTEP_CACHE_DIR"
  bench_line "nvidia opencl B, only the driver's warm" "$B" $c --backend "$nv" --repeat 3 --warmup 1
  LOCKSTEP_SHAPE=group bench_line "nvidia opencl B, group shape" "$B" $c --backend "$nv" --repeat 3 --warmup 1
done
echo "== lockstep's cache: $(ls "$LOCKSTEP_CACHE_DIR" | tr '\n' ' ')"
echo "== checks of B"
$B conformance --backend "$nv" --quiet 2>&1 | tail -1
$B check bmn --deals 1e7 --backends "cuda:0,$nv" --quiet 2>&1 | tail -1
echo "== done in $(( $(date +%s) - t0 )) s"
