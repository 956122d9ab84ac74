#!/usr/bin/env bash
# bench/ab_all.sh - every figure a change could move, A (BASE.tar) against
# B (the working tree), in one call on a lent NVIDIA machine: what
# bench/portability.sh measures (conformance and the cross-checks of B on
# every device; CUDA's kernels A/B, NVIDIA's OpenCL and the group shape;
# the host's OpenMP and PoCL, A/B), then the PKU form M = N = 1024 as
# whole processes (5 runs of each, A and B taking turns, the output
# removed before each, its bytes compared), 3D 2048^3 x 0 likewise, one
# --timings line of each, and BMN on NVIDIA's OpenCL with lockstep's
# cache cleared while the driver's is warm (the registers' probe,
# cl_backend.c). Under 10 minutes on an H200 host.
#
# usage: bash bench/ab_all.sh BASE.tar [OUTDIR]
set -u
base=${1:?usage: bench/ab_all.sh BASE.tar [OUTDIR]}
out=${2:-${OUT:-/tmp}}
mkdir -p "$out"
bash bench/portability.sh "$base" "$out" all >/dev/null 2>&1
exec > >(tee -a "$out/ab_all.log") 2>&1
. bench/device_env.sh
device_env "$PWD"
echo "== bench/portability.sh: $out/portability.log"
A=/tmp/portability-build-a/lockstep
B=/tmp/portability-build-b/lockstep
[ -x "$A" ] && [ -x "$B" ] || { echo "== A or B did not build: see portability.log"; exit 1; }
dir=$(mktemp -d)
$B life --dims 3 --size 1024 --steps 0 --density 0.2 --seed 1 --out "$dir/in.data" --quiet >/dev/null || exit 1
cat "$dir/in.data" >/dev/null
echo "== whole processes, A and B taking turns"
for r in 1 2 3 4 5 6; do
  for t in A B; do
    bin=$([ $t = A ] && echo "$A" || echo "$B")
    rm -f "$dir/o-$t.data"
    whole "$t PKU 1024 x 1024 cuda:0, run $r" "$bin" life "$dir/in.data" "$dir/o-$t.data" 1024
    whole "$t 3D 2048^3 x 0 cuda:0, run $r" "$bin" life --dims 3 --size 2048 --steps 0 --density 0.2 --backend cuda:0 \
      --quiet
  done
done
cmp "$dir/o-A.data" "$dir/o-B.data" && echo "== PKU outputs of A and B: the same bytes"
for t in A B; do
  bin=$([ $t = A ] && echo "$A" || echo "$B")
  echo "-- $t --timings: $($bin life "$dir/in.data" "$dir/o-$t.data" 1024 --timings 2>&1 | grep -iE 'timings|launch|open|finish' | tr -s ' ' | tr '\n' ' ')"
  echo "-- $t --timings 3D 2048^3 x 0: $($bin life --dims 3 --size 2048 --steps 0 --density 0.2 --backend cuda:0 --timings --quiet 2>&1 | tr -s ' ' | tr '\n' ' ')"
done
rm -rf "$dir"
nv=$($B devices --json | python3 bench/nvidia_cl_device.py)
if [ -n "$nv" ]; then
  echo "== BMN on $nv, lockstep's cache cleared, the driver's warm: the probe, then its log from the cache"
  export LOCKSTEP_CACHE_DIR=/tmp/ab-all-cache
  rm -rf "$LOCKSTEP_CACHE_DIR"
  bench_line "nvidia opencl B, probe" "$B" bmn --deals 1e9 --backend "$nv" --repeat 3 --warmup 1
  bench_line "nvidia opencl B, warm" "$B" bmn --deals 1e9 --backend "$nv" --repeat 3 --warmup 1
  echo "   cache: $(ls "$LOCKSTEP_CACHE_DIR" | tr '\n' ' ')"
fi
