#!/usr/bin/env bash
# bench/h200_sets.sh LOCKSTEP [NV] - what one GPU can show of device sets
# (issue 15), for the H200 batch (bench/gpu_batch.sh runs it through
# EXTRA_BENCH): Life cut into slabs on one device (the halo exchange's cost
# at k = 1, 2, 4, 8, "one GPU split in two", digests equal to the whole
# grid's), the CUDA peer-copy path and slab kernels against OpenMP, Life
# and ray on sets of CUDA and NVIDIA's OpenCL (NV, same GPU), conformance
# on a set, and on machines with two GPUs cuda:all and two MPI ranks.
set -u
ls=$1 nv=${2:-}
json_field() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d$1)"; }
echo "== Life on one GPU cut into two slabs: halo cost at k = 1, 2, 4, 8 (seconds: device time, wall for slabs)"
for args in "--dims 3 --size 2048 --steps 256" "--dims 2 --size 131072 --steps 256"; do
  for rep in 1 2; do
    whole=$($ls life $args --density 0.2 --backend cuda:0 --json --quiet)
    echo "$args whole: $(echo "$whole" | json_field "['seconds']") s, digest $(echo "$whole" | json_field "['digest']")"
    for k in 1 2 4 8; do
      r=$($ls life $args --density 0.2 --backend cuda:0 --slabs 2 --halo "$k" --json --quiet)
      echo "$args --slabs 2 --halo $k: $(echo "$r" | json_field "['seconds']") s, digest $(echo "$r" | json_field "['digest']")"
    done
  done
done
echo "== Life slabs on CUDA against OpenMP (odd sizes, peer copies on one device, a CUDA+OpenMP set)"
A="--dims 3 --size 61x47x33 --steps 21 --density 0.3"
for b in "--backend openmp" "--backend cuda:0 --slabs 3 --halo 2" "--backend cuda:0,openmp" "--backend cuda:0 --slabs 5 --halo 1"; do
  echo "$A $b: $($ls life $A $b --json --quiet | json_field "['digest']")"
done
$ls check life --dims 2 --size 1001x77 --steps 37 --every 5 --slabs 3 --quiet --backends "cuda:0,openmp,cuda:0+openmp${nv:+,$nv,cuda:0+$nv}"
$ls check life --dims 3 --size 37x29x23 --steps 9 --density 0.3 --rule B6/S567:P37,29,23 --slabs 3 --quiet --backends "cuda:0,openmp,cuda:0+openmp"
echo "== ray on sets (exact: the single device's image)"
$ls check ray --size 640x360 --spp 16 --quiet --backends "cuda:0,openmp${nv:+,$nv,cuda:0+$nv},cuda:0+openmp"
echo "== conformance on a set"
$ls conformance --backend "cuda:0+openmp" | tail -3
[ -n "$nv" ] && $ls conformance --backend "cuda:0+$nv" | tail -3
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "$gpus" -ge 2 ]; then
  echo "== $gpus GPUs: cuda:all and two MPI ranks"
  $ls life $A --backend cuda:all --json --quiet | json_field "['digest']"
  mpirun --allow-run-as-root -np 2 $ls life $A --backend cuda:all --json --quiet | json_field "['digest']"
else
  echo "== one GPU here: the two-GPU scaling runs need nvidia-h200-x2"
fi
