#!/usr/bin/env bash
# bench/h200.sh - one batch for a lent NVIDIA machine: build for sm_90,
# list devices, run the conformance suite and the cross-checks on every
# backend, then the benchmarks side by side. Prints a summary last.
#
# usage: bash bench/h200.sh [OUTDIR]    (OUTDIR defaults to $OUT or /tmp)
# The output is what docs/perf/ records. LOCKSTEP_COMMIT names the commit in
# the log. The lent H200 image has no libsqlite3-dev and nothing can be
# installed there: carry sqlite3.h, libsqlite3.so and a sqlite3.pc from a
# Debian machine and point PKG_CONFIG_PATH at them (docs/perf/README.md).
set -u
out=${1:-${OUT:-/tmp}}
mkdir -p "$out"
log="$out/h200.log"
exec > >(tee "$log") 2>&1

echo "== date: $(date -u +%Y-%m-%dT%H:%M:%SZ), lockstep ${LOCKSTEP_COMMIT:-(commit not given: set LOCKSTEP_COMMIT)}"
echo "== host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
# NVIDIA's OpenCL: the loader finds it through this ICD file.
if [ -w /etc/OpenCL/vendors ] || mkdir -p /etc/OpenCL/vendors 2>/dev/null; then
  echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
fi
export PATH=/usr/local/cuda/bin:$PATH
build=/tmp/lockstep-build
rm -rf "$build"
t0=$(date +%s)
meson setup "$build" -Ddefault_backend=cuda -Dnvcc_arch=90 >"$out/setup.log" 2>&1 || { tail -30 "$out/setup.log"; exit 1; }
ninja -C "$build" >"$out/ninja.log" 2>&1 || { tail -40 "$out/ninja.log"; exit 1; }
echo "== built in $(( $(date +%s) - t0 )) s"
ls=$build/lockstep
$ls devices
echo "== conformance (every device)"
$ls conformance
echo "== check graveler 1e8 (every device)"
$ls check graveler --battles 1e8 --quiet
nv=$($ls devices --json | python3 bench/nvidia_cl_device.py)
echo "== check graveler 1e9 (openmp, cuda, $nv)"
$ls check graveler --battles 1e9 --quiet --backends openmp,cuda${nv:+,$nv}
echo "== check graveler 1e10: several launches per range (openmp, cuda, $nv)"
$ls check graveler --battles 1e10 --quiet --backends openmp,cuda${nv:+,$nv}
# Benchmarks: device time (events), median of repeated runs.
echo "== bench graveler 1e9"
$ls bench graveler --battles 1e9 --backend cuda --repeat 10 --warmup 2
[ -n "$nv" ] && $ls bench graveler --battles 1e9 --backend "$nv" --repeat 10 --warmup 2
$ls bench graveler --battles 1e9 --backend openmp --repeat 3 --warmup 1
echo "== check bmn 1e7 (every device)"
$ls check bmn --deals 1e7 --quiet
echo "== bench bmn"
$ls bench bmn --deals 1e9 --backend cuda --repeat 3 --warmup 1
[ -n "$nv" ] && $ls bench bmn --deals 1e9 --backend "$nv" --repeat 3 --warmup 1
$ls bench bmn --deals 2e7 --backend openmp --repeat 3 --warmup 1
OMP_NUM_THREADS=1 $ls bench bmn --deals 2e6 --backend openmp --repeat 3 --warmup 1
$ls bmn search --deals 1e9 --backend cuda --top 5 --quiet
$ls bmn play ---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---
echo "== check life: odd 3D box, odd 2D grid (every device)"
$ls check life --dims 3 --size 37x29x23 --steps 9 --density 0.3 --quiet
$ls check life --dims 2 --size 1001x999 --steps 17 --density 0.3 --quiet
echo "== check ray, 512x512x64 exact (every device)"
$ls check ray --quiet
echo "== bench life 3D, B6/S567, density 0.2"
for sz in "1024 1024" "512 1024" "256 2048"; do
  set -- $sz
  for b in cuda $nv; do $ls bench life --dims 3 --size "$1" --steps "$2" --density 0.2 --backend "$b" --repeat 3 --warmup 1; done
done
echo "== life 3D 2048^3 (two 1 GiB grids on the device), 4 generations"
for b in cuda $nv; do $ls life --dims 3 --size 2048 --steps 4 --density 0.2 --backend "$b" --quiet; done
echo "== bench life 2D 65536^2 x 1024, B3/S23, density 0.2"
for b in cuda $nv; do $ls bench life --dims 2 --size 65536 --steps 1024 --density 0.2 --backend "$b" --repeat 3 --warmup 1; done
echo "== bench ray 512x512x64"
for m in exact fast; do
  for b in cuda $nv; do $ls bench ray --mode "$m" --backend "$b" --repeat 10 --warmup 2; done
done
$ls bench ray --mode exact --backend openmp --repeat 3 --warmup 1
echo "== SASS instruction mix of the CUDA kernels"
cuobjdump --dump-sass "$build"/bmn.o | grep -oE '^ +/\*[0-9a-f]{4}\*/ +[A-Z][A-Z0-9.]*' | awk '{print $2}' | sort | uniq -c | sort -rn | head -12
cuobjdump --dump-sass "$build"/graveler.o | grep -oE '^ +/\*[0-9a-f]{4}\*/ +[A-Z][A-Z0-9.]*' | awk '{print $2}' | sort | uniq -c | sort -rn | head -25
for extra in ${EXTRA_BENCH:-}; do bash "$extra" "$ls" "$nv"; done
echo "== done"
