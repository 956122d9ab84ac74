#!/usr/bin/env bash
# bench/ab_bmn.sh NAME NVCC_FLAG... - builds lockstep for sm_90 with extra
# nvcc flags into /tmp/lockstep-NAME and times the BMN search on CUDA.
set -u
name=$1; shift
build=/tmp/lockstep-$name
flags=$(printf "'%s'," "$@"); flags="[${flags%,}]"
export PATH=/usr/local/cuda/bin:$PATH
meson setup "$build" -Dnvcc_arch=90 "-Dnvcc_flags=$flags" >/dev/null 2>&1 && ninja -C "$build" >/dev/null 2>&1 || { echo "$name: build failed"; exit 1; }
echo "-- variant $name ($*)"
"$build"/lockstep conformance --backend cuda --workload bmn | tail -1
"$build"/lockstep bench bmn --deals 1e8 --backend cuda --repeat 5 --warmup 1 | tail -2
