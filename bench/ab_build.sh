#!/usr/bin/env bash
# bench/ab_build.sh NAME NVCC_FLAG... - builds lockstep for sm_90 with extra
# nvcc flags into /tmp/lockstep-NAME and times Graveler on CUDA, for A/B
# comparisons of kernel variants on a GPU machine.
set -u
name=$1; shift
build=/tmp/lockstep-$name
flags=$(printf "'%s'," "$@"); flags="[${flags%,}]"
export PATH=/usr/local/cuda/bin:$PATH
meson setup "$build" -Dnvcc_arch=90 "-Dnvcc_flags=$flags" >/dev/null 2>&1 && ninja -C "$build" >/dev/null 2>&1 || { echo "$name: build failed"; exit 1; }
echo "-- variant $name ($*)"
"$build"/lockstep conformance --backend cuda | tail -1
"$build"/lockstep bench graveler --battles 1e9 --backend cuda --repeat 10 --warmup 2 | tail -2
