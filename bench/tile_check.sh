#!/usr/bin/env bash
# bench/tile_check.sh - the Life 3D tile walk (issue 28) as the default
# build runs it on one NVIDIA GPU: `check life` on OpenMP, CUDA (the tile
# walk) and NVIDIA's OpenCL (the walk of one generation), on whole grids
# and slabs, and compute-sanitizer over the tile walk.
set -u
. bench/device_env.sh
device_env "$PWD"
meson setup /tmp/tile-check . -Ddefault_backend=cuda -Dnvcc_arch=90 > /tmp/tile-check.log 2>&1 &&
  ninja -C /tmp/tile-check >> /tmp/tile-check.log 2>&1 || { tail -20 /tmp/tile-check.log; exit 1; }
B=/tmp/tile-check/lockstep
nv=$($B devices --json | python3 bench/nvidia_cl_device.py)
echo "== $(date -u +%FT%TZ), $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), NVIDIA OpenCL: $nv"
for a in "--dims 3 --size 301x203x67 --steps 29 --density 0.3" "--dims 3 --size 1023x61x59 --steps 13 --density 0.3" \
         "--dims 3 --size 128 --steps 27 --slabs 5" "--rule B0,6/S5-7:P1023,45,20 --steps 9" \
         "--dims 3 --size 96x40x33 --steps 7 --rule B5/S45 --slabs 3"; do
  echo "-- check life $a: $($B check life $a --quiet --backend openmp,cuda:0${nv:+,$nv} | tail -1)"
done
for a in "--dims 3 --size 67x61x59 --steps 13 --density 0.3" "--dims 3 --size 96x40x33 --steps 7 --rule B5/S45 --slabs 3"; do
  compute-sanitizer --error-exitcode 9 $B life $a --backend cuda:0 --quiet | tail -1; echo "exit ${PIPESTATUS[0]}: $a"
done
