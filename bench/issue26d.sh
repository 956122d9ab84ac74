#!/usr/bin/env bash
# bench/issue26d.sh PART BASE.tar [OUTDIR] - issue 26 on a lent machine of
# two or more NVIDIA GPUs (two of them are used: CUDA_VISIBLE_DEVICES=0,1
# unless it is set), one command a part; A is the tree in BASE.tar (`git
# archive -o .peers/base.tar REV`), B the working tree.
#   probe: what opening CUDA devices costs (bench/open_probe.cu, devices
#          one after another and a thread each), lockstep's fixed cost (a
#          64^3 grid, no generations) on one GPU and two, and epochs queued
#          back to back on cuda:all against waiting for each
#          (LOCKSTEP_DEBUG_EPOCH_WAIT), with `check life` and
#          compute-sanitizer over the queued epochs.
# .peers/sqlite and .peers/xxhash carry what the image lacks (docs/perf/README.md).
set -u
part=$1 base=$2
out=${3:-${OUT:-/tmp}}
mkdir -p "$out"
exec > >(tee "$out/issue26d-$part.log") 2>&1
here=$PWD
export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0,1}
echo "== date: $(date -u +%Y-%m-%dT%H:%M:%SZ), part $part, A: ${AB_BASE:-base}, B: ${AB_NEW:-working tree}, CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"
echo "== host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
nvidia-smi --query-gpu=index,name,driver_version,memory.total,persistence_mode --format=csv,noheader || true
. bench/device_env.sh
device_env "$here"
mpi=disabled
command -v mpirun >/dev/null 2>&1 && mpi=enabled && echo "== MPI: $(mpirun --version | head -1)"
device_build_ab "$base" i26d $mpi "$out"
nv=$($B devices --json | python3 bench/nvidia_cl_device.py)
echo "NVIDIA OpenCL: $nv"

if [ "$part" = probe ]; then
  nvcc -O2 -o /tmp/open_probe bench/open_probe.cu -lpthread || exit 1
  for v in 0 0,1; do
    for i in 1 2; do
      echo "== open_probe, CUDA_VISIBLE_DEVICES=$v, run $i"
      whole "open_probe $v" env CUDA_VISIBLE_DEVICES=$v /tmp/open_probe; cat /tmp/device-whole.txt
    done
    echo "== open_probe threads, CUDA_VISIBLE_DEVICES=$v"
    whole "open_probe threads $v" env CUDA_VISIBLE_DEVICES=$v /tmp/open_probe threads; cat /tmp/device-whole.txt
  done
  echo "== lockstep's fixed cost: 64^3, no generations"
  for i in 1 2 3; do
    for b in cuda:0 cuda:all; do
      whole "B $b" $B life --dims 3 --size 64 --steps 0 --backend $b --timings --quiet
      grep -E '^timings' /tmp/device-whole.txt
    done
  done
  for i in 1 2; do whole "B devices" $B devices; whole "B version" $B version; done
  echo "== queued epochs (B) against an epoch's wait (B, LOCKSTEP_DEBUG_EPOCH_WAIT=1) and A, cuda:all"
  for a in "--dims 3 --size 2048 --steps 2048" "--dims 2 --size 131072 --steps 2048"; do
    for i in 1 2; do
      echo "-- $a cuda:0 B: $($B life $a --backend cuda:0 --quiet | grep -E '^time:' | tr -s ' ')"
      echo "-- $a cuda:all A: $($A life $a --backend cuda:all --quiet | grep -E '^time:' | tr -s ' ')"
      echo "-- $a cuda:all B wait: $(LOCKSTEP_DEBUG_EPOCH_WAIT=1 $B life $a --backend cuda:all --quiet | grep -E '^time:' | tr -s ' ')"
      echo "-- $a cuda:all B: $($B life $a --backend cuda:all --quiet | grep -E '^time:' | tr -s ' ')"
    done
    whole "B cuda:0 whole $a" $B life $a --backend cuda:0 --quiet --timings; grep -E '^timings' /tmp/device-whole.txt
    whole "B cuda:all whole $a" $B life $a --backend cuda:all --quiet --timings; grep -E '^timings' /tmp/device-whole.txt
  done
  echo "== B: check life over queued epochs (cuda:all, 5 slabs on one GPU)"
  for a in "--dims 3 --size 301x203x67 --steps 29 --density 0.3" "--dims 2 --size 65537x300 --steps 40" \
           "--rule B3/S23:P1000,777 --steps 41" "--dims 3 --size 128 --steps 27 --slabs 5" \
           "--dims 2 --size 1001x999 --steps 77 --slabs 5 --density 0.3"; do
    echo "-- check life $a: $($B check life $a --quiet --backend openmp,cuda:0,cuda:all${nv:+,$nv} | tail -1)"
    echo "-- one GPU, 5 slabs: $($B life $a --backend cuda:0 --quiet --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["grid_digest"])') against $($B life $a --backend openmp --quiet --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["grid_digest"])')"
  done
  echo "== B: compute-sanitizer over queued epochs"
  for a in "--dims 3 --size 67x45x33 --steps 29 --backend cuda:all" "--dims 2 --size 1001x999 --steps 70 --backend cuda:all" \
           "--dims 3 --size 67x45x33 --steps 29 --backend cuda:0 --slabs 3"; do
    compute-sanitizer --error-exitcode 9 $B life $a --quiet | tail -1; echo "exit ${PIPESTATUS[0]}: $a"
  done
fi
echo "== done in $(( $(date +%s) - t0 )) s"
