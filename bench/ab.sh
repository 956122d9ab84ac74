#!/usr/bin/env bash
# bench/ab.sh WORKLOAD NAME NVCC_FLAG... - builds lockstep for sm_90 with
# extra nvcc flags into /tmp/lockstep-NAME, runs WORKLOAD's conformance
# cases on CUDA and times it, for A/B comparisons of kernel variants on a
# GPU machine (e.g. bench/ab.sh bmn s2 -DBMN_STEPS=2). The knobs are the #ifndef defaults
# of the shared kernel sources in src/kernels/ (GRV_UNROLL, BMN_STEPS).
set -u
workload=$1 name=$2; shift 2
build=/tmp/lockstep-$name
flags=$(printf "'%s'," "$@"); flags="[${flags%,}]"
export PATH=/usr/local/cuda/bin:$PATH
meson setup "$build" -Dnvcc_arch=90 "-Dnvcc_flags=$flags" >/dev/null 2>&1 && ninja -C "$build" >/dev/null 2>&1 || { echo "$name: build failed"; exit 1; }
echo "-- variant $name ($*)"
"$build"/lockstep conformance --backend cuda --workload "$workload" | tail -1
case $workload in
  graveler) size=(--battles 1e9 --repeat 10 --warmup 2) ;;
  bmn) size=(--deals 1e8 --repeat 5 --warmup 1) ;;
  *) echo "bench/ab.sh: unknown workload $workload"; exit 2 ;;
esac
"$build"/lockstep bench "$workload" --backend cuda "${size[@]}" | tail -2
