#!/usr/bin/env bash
# bench/life_slabs_batch.sh PART BASE.tar [OUTDIR] - Life's slabs (issue
# 26) on a lent two-GPU NVIDIA machine, checked and timed, a part at a
# time of under ten minutes each (one command each, on the same warm
# machine): A is the tree in BASE.tar (`git archive -o .peers/base.tar
# REV`), B the working tree, both built for sm_90 with MPI when the image
# has it or .peers/openmpi carries it.
#   check: B's conformance on every device and on cuda:all, `check life`
#          on one GPU, both GPUs and 5 slabs, two ranks against one
#          process, compute-sanitizer over one-slab and two-slab runs, the
#          kernels A/B (bench life, must not move more than 2%).
#   ranks: two and three ranks against one process where ranks exchange
#          ghosts device to device, compute-sanitizer under mpirun, 3D on
#          two ranks A/B, the grid larger than one GPU.
#   probe: 3D by ghost depth on cuda:all and two ranks, what mpirun costs,
#          the summary by the size of its pieces.
#   share: two ranks where one or both refuse CUDA IPC (LOCKSTEP_DEBUG_SHARE)
#          fall back to MPI and give the same digests.
#   pku:   the PKU form on one GPU and written where the slabs live by two
#          and three ranks (A gathers), bytes compared.
#   final: the session's last check and figures (conformance, sets,
#          sanitizer, ranks, kernels on one GPU/both/two ranks, the PKU
#          form, the grid larger than one GPU).
#   time:  whole processes A/B on cuda:0, cuda:all and two ranks (the
#          shell's clock), B's --timings, --halo on two ranks, weak
#          scaling, and the grid larger than one GPU.
# .peers/sqlite and .peers/xxhash carry what the image lacks (docs/perf/README.md).
set -u
part=$1 base=$2
out=${3:-${OUT:-/tmp}}
mkdir -p "$out"
exec > >(tee "$out/life_slabs_batch-$part.log") 2>&1
here=$PWD
. bench/device_env.sh
device_banner "part $part, A: ${AB_BASE:-base}, B: ${AB_NEW:-working tree}"
device_env "$here"
device_mpi
mpi=$MPI
device_build_ab "$base" slabs $mpi "$out"
nv=$($B devices --json | python3 bench/nvidia_cl_device.py)
echo "NVIDIA OpenCL: $nv"
digest() { python3 -c 'import json,sys; print(json.load(sys.stdin)["grid_digest"])'; }

if [ "$part" = check ]; then
  echo "== B: conformance (every device)"
  $B conformance | tail -4
  echo "== B: conformance on cuda:all"
  $B conformance --backend cuda:all | tail -2
  echo "== B: check life on one GPU, both, 5 slabs, NVIDIA OpenCL and OpenMP"
  for a in "--dims 3 --size 301x203x67 --steps 5 --density 0.3" "--dims 2 --size 65537x300 --steps 40" \
           "--dims 2 --size 1001x999 --steps 17 --density 0.3 --seed 77" "--rule B3/S23:P1000,777 --steps 9" \
           "--dims 3 --size 128 --steps 7 --slabs 5" "--dims 2 --size 4096 --steps 0 --density 0.5 --seed 123456789012"; do
    echo "-- check life $a"
    $B check life $a --quiet --backends openmp,cuda:0,cuda:all${nv:+,$nv} | tail -1
  done
  if [ $mpi = enabled ]; then
    echo "== B: two MPI ranks against one process (digests)"
    for a in "--dims 3 --size 301x203x67 --steps 5 --density 0.3" "--dims 2 --size 65537x300 --steps 40" \
             "--dims 3 --size 256 --steps 33 --slabs 3"; do
      one=$($B life $a --backend cuda:0 --json --quiet | digest)
      two=$(mpirun -np 2 $B life $a --backend cuda:all --json --quiet | digest)
      echo "-- life $a: one process $one, two ranks $two $([ "$one" = "$two" ] && echo agree || echo DIFFER)"
    done
  fi
  echo "== B: compute-sanitizer, one slab and two"
  for a in "--dims 3 --size 67x45x33 --steps 9 --backend cuda:0" "--dims 2 --size 1001x999 --steps 40 --backend cuda:0" \
           "--dims 3 --size 67x45x33 --steps 9 --backend cuda:all" "--dims 2 --size 1001x999 --steps 40 --backend cuda:all"; do
    compute-sanitizer --error-exitcode 9 $B life $a --quiet | tail -1; echo "exit ${PIPESTATUS[0]}: $a"
  done
  echo "== kernels: bench life A/B (must not move more than 2%)"
  for b in "--dims 3 --size 1024 --steps 1024 --density 0.2 --backend cuda" "--dims 2 --size 65536 --steps 1024 --backend cuda" \
           "--dims 3 --size 1024 --steps 1024 --density 0.2 --backend $nv" "--dims 2 --size 65536 --steps 1024 --backend $nv"; do
    for t in A B A B; do
      l=$([ $t = A ] && echo $A || echo $B)
      echo "-- $t bench life $b: $($l bench life $b --repeat 3 --warmup 1 | grep -E "median" | tr -s ' ')"
    done
  done
fi

if [ "$part" = ranks ] && [ $mpi = enabled ]; then
  echo "== B: two MPI ranks against one process (digests), ghosts device to device between the ranks"
  for a in "--dims 3 --size 301x203x67 --steps 5 --density 0.3" "--dims 2 --size 65537x300 --steps 40" \
           "--dims 3 --size 256 --steps 33 --slabs 3" "--rule B3/S23:P1000,777 --steps 40" \
           "--rule B6/S567:P130,120,110 --steps 21 --density 0.2" "--dims 3 --size 200 --steps 50 --slabs 5"; do
    one=$($B life $a --backend cuda:0 --json --quiet | digest)
    two=$(mpirun -np 2 $B life $a --backend cuda:all --json --quiet | digest)
    same=$(mpirun -np 2 $B life $a --backend cuda:0 --json --quiet | digest)
    three=$(mpirun -np 3 --oversubscribe $B life $a --backend cuda:all --json --quiet | digest)
    echo "-- life $a: one process $one, two ranks $two, two ranks on one GPU $same, three ranks $three" \
         "$([ "$one" = "$two" ] && [ "$one" = "$same" ] && [ "$one" = "$three" ] && echo agree || echo DIFFER)"
  done
  echo "== B: compute-sanitizer under two ranks"
  mpirun -np 2 compute-sanitizer --error-exitcode 9 $B life --dims 3 --size 67x45x33 --steps 9 --backend cuda:all \
    --quiet 2>&1 | grep -E "ERROR SUMMARY|grid digest" ; echo "exit ${PIPESTATUS[0]}"
  echo "== 3D 2048^3 x 2048: one GPU, both, two ranks (A: ghosts through host memory and MPI)"
  for i in 1 2; do
    echo "-- B cuda:0: $($B life --dims 3 --size 2048 --steps 2048 --backend cuda:0 --quiet | grep -E '^time:' | tr -s ' ')"
    echo "-- B cuda:all: $($B life --dims 3 --size 2048 --steps 2048 --backend cuda:all --quiet | grep -E '^time:' | tr -s ' ')"
    echo "-- A 2 ranks: $(mpirun -np 2 $A life --dims 3 --size 2048 --steps 2048 --backend cuda:all --quiet | grep -E '^time:' | tr -s ' ')"
    echo "-- B 2 ranks: $(mpirun -np 2 $B life --dims 3 --size 2048 --steps 2048 --backend cuda:all --quiet | grep -E '^time:' | tr -s ' ')"
  done
  mpirun -np 2 $B life --dims 3 --size 2048 --steps 2048 --backend cuda:all --quiet --timings | grep -E "^timings|^slowest"
  echo "-- B 2 ranks, 2D 131072^2 x 2048: $(mpirun -np 2 $B life --dims 2 --size 131072 --steps 2048 --backend cuda:all --quiet | grep -E '^time:' | tr -s ' ')"
  mem=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
  z=$(awk -v m="$mem" 'BEGIN{z = int(0.6 * m * 1048576 / 8388608 / 64) * 64; print z}')
  echo "== the grid larger than one GPU: 3D 8192x8192x$z, 8 generations, cuda:all (summary in pieces)"
  s=$(date +%s.%N)
  timeout 150 $B life --dims 3 --size 8192x8192x$z --steps 8 --backend cuda:all --quiet --timings 2>&1 | grep -E "^timings|^time:|grid digest|error"
  echo "whole process: $(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN{print b - a}') s"
fi

if [ "$part" = probe ]; then
  echo "== 3D 2048^3 x 2048 kernels by ghost depth: cuda:all and two ranks"
  for h in 4 8 16; do
    for i in 1 2; do
      echo "-- --halo $h cuda:all: $($B life --dims 3 --size 2048 --steps 2048 --backend cuda:all --halo $h --quiet | grep -E '^time:' | tr -s ' ')"
      [ $mpi = enabled ] && echo "-- --halo $h 2 ranks: $(mpirun -np 2 $B life --dims 3 --size 2048 --steps 2048 --backend cuda:all --halo $h --quiet | grep -E '^time:' | tr -s ' ')"
    done
  done
  echo "-- cuda:0: $($B life --dims 3 --size 2048 --steps 2048 --backend cuda:0 --quiet | grep -E '^time:' | tr -s ' ')"
  if [ $mpi = enabled ]; then
    echo "== what mpirun itself costs (two ranks of a program that does nothing, and of lockstep --version)"
    for i in 1 2 3; do whole "mpirun -np 2 true" mpirun -np 2 true; done
    for i in 1 2; do whole "mpirun -np 2 lockstep version" mpirun -np 2 $B version; done
  fi
  echo "== the summary's pieces: 3D 2048^3 x 0 on cuda:0 and cuda:all (timings), and the grid larger than one GPU"
  for piece in 67108864 268435456 1073741824; do
    for b in cuda:0 cuda:all; do
      echo "-- piece $piece $b: $(LOCKSTEP_DEBUG_SUMMARY_PIECE=$piece $B life --dims 3 --size 2048 --steps 0 --backend $b --quiet --timings | grep -E '^timings' | tr -s ' ')"
    done
  done
  mem=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
  z=$(awk -v m="$mem" 'BEGIN{z = int(0.6 * m * 1048576 / 8388608 / 64) * 64; print z}')
  for piece in 67108864 1073741824; do
    echo "-- piece $piece 8192x8192x$z cuda:all: $(LOCKSTEP_DEBUG_SUMMARY_PIECE=$piece timeout 150 $B life --dims 3 --size 8192x8192x$z --steps 8 --backend cuda:all --quiet --timings | grep -E '^timings' | tr -s ' ')"
  done
fi

if [ "$part" = share ] && [ $mpi = enabled ]; then
  echo "== two ranks where one or both cannot open the other's GPU memory: the job falls back to MPI"
  for a in "--dims 3 --size 256 --steps 33 --slabs 3" "--rule B3/S23:P1000,777 --steps 40"; do
    one=$($B life $a --backend cuda:0 --json --quiet | digest)
    both=$(mpirun -np 2 -x LOCKSTEP_DEBUG_SHARE=refuse $B life $a --backend cuda:all --json --quiet | digest)
    first=$(mpirun -np 1 -x LOCKSTEP_DEBUG_SHARE=refuse $B life $a --backend cuda:all --json --quiet : \
            -np 1 $B life $a --backend cuda:all --json --quiet | digest)
    echo "-- life $a: $one, both refuse $both, rank 0 refuses $first $([ "$one" = "$both" ] && [ "$one" = "$first" ] && echo agree || echo DIFFER)"
  done
  for env in "" "-x LOCKSTEP_DEBUG_SHARE=refuse"; do
    echo "-- 3D 2048^3 x 2048, 2 ranks $env: $(mpirun -np 2 $env $B life --dims 3 --size 2048 --steps 2048 --backend cuda:all --quiet | grep -E '^time:' | tr -s ' ')"
  done
fi

if [ "$part" = pku ] && [ $mpi = enabled ]; then
  echo "== the PKU form M = N = 1024: one GPU, two ranks writing their slabs where they live (A: gathered)"
  dir=$(mktemp -d)
  $B life --dims 3 --size 1024 --steps 0 --density 0.2 --seed 1 --out $dir/in.data --quiet > /dev/null
  for i in 1 2 3; do
    whole "B cuda:0" $B life $dir/in.data $dir/out0.data 1024 --backend cuda:0 --quiet
    whole "A 2 ranks" mpirun -np 2 $A life $dir/in.data $dir/outa.data 1024 --backend cuda:all --quiet
    whole "B 2 ranks" mpirun -np 2 $B life $dir/in.data $dir/out2.data 1024 --backend cuda:all --quiet
  done
  cmp $dir/out0.data $dir/outa.data && echo "A two ranks: the same bytes"
  cmp $dir/out0.data $dir/out2.data && echo "B two ranks: the same bytes"
  whole "B 3 ranks" mpirun -np 3 --oversubscribe $B life $dir/in.data $dir/out3.data 1024 --backend cuda:all --quiet
  cmp $dir/out0.data $dir/out3.data && echo "B three ranks: the same bytes"
  for l in A B; do
    b=$([ $l = A ] && echo $A || echo $B)
    echo "-- $l 2 ranks: $(mpirun -np 2 $b life $dir/in.data $dir/out2.data 1024 --backend cuda:all --quiet --timings | grep -E '^timings')"
  done
  rm -rf "$dir"
fi

if [ "$part" = final ]; then
  echo "== B: conformance (every device), and on cuda:all"
  $B conformance | tail -1
  $B conformance --backend cuda:all | tail -1
  echo "== B: check life on one GPU, both, 5 slabs, NVIDIA OpenCL and OpenMP"
  for a in "--dims 3 --size 301x203x67 --steps 5 --density 0.3" "--dims 2 --size 65537x300 --steps 40" \
           "--rule B3/S23:P1000,777 --steps 9" "--dims 3 --size 128 --steps 7 --slabs 5"; do
    echo "-- check life $a: $($B check life $a --quiet --backend openmp,cuda:0,cuda:all${nv:+,$nv} | tail -1)"
  done
  echo "== B: compute-sanitizer, cuda:all and two ranks"
  for a in "--dims 3 --size 67x45x33 --steps 9" "--dims 2 --size 1001x999 --steps 40"; do
    compute-sanitizer --error-exitcode 9 $B life $a --backend cuda:all --quiet | tail -1; echo "exit ${PIPESTATUS[0]}: $a cuda:all"
  done
  [ $mpi = enabled ] && { mpirun -np 2 compute-sanitizer --error-exitcode 9 $B life --dims 3 --size 67x45x33 --steps 9 \
    --backend cuda:all --quiet 2>&1 | grep -E "ERROR SUMMARY"; echo "exit ${PIPESTATUS[0]}: two ranks"; }
  if [ $mpi = enabled ]; then
    echo "== B: two and three ranks against one process"
    for a in "--dims 3 --size 256 --steps 33 --slabs 3" "--rule B3/S23:P1000,777 --steps 40"; do
      one=$($B life $a --backend cuda:0 --json --quiet | digest)
      two=$(mpirun -np 2 $B life $a --backend cuda:all --json --quiet | digest)
      three=$(mpirun -np 3 --oversubscribe $B life $a --backend cuda:all --json --quiet | digest)
      echo "-- life $a: $one $two $three $([ "$one" = "$two" ] && [ "$one" = "$three" ] && echo agree || echo DIFFER)"
    done
  fi
  echo "== 3D 2048^3 x 2048 and 2D 131072^2 x 2048: kernels on one GPU, both, two ranks"
  for run in "--dims 3 --size 2048 --steps 2048" "--dims 2 --size 131072 --steps 2048"; do
    for i in 1 2; do
      echo "-- $run cuda:0: $($B life $run --backend cuda:0 --quiet | grep -E '^time:' | tr -s ' ')"
      echo "-- $run cuda:all: $($B life $run --backend cuda:all --quiet | grep -E '^time:' | tr -s ' ')"
      [ $mpi = enabled ] && echo "-- $run 2 ranks: $(mpirun -np 2 $B life $run --backend cuda:all --quiet | grep -E '^time:' | tr -s ' ')"
    done
  done
  echo "== the PKU form M = N = 1024: one GPU, both, two ranks (whole process; bytes compared)"
  dir=$(mktemp -d)
  $B life --dims 3 --size 1024 --steps 0 --density 0.2 --seed 1 --out $dir/in.data --quiet
  for i in 1 2 3; do
    whole "cuda:0" $B life $dir/in.data $dir/out0.data 1024 --backend cuda:0 --quiet
    whole "cuda:all" $B life $dir/in.data $dir/out1.data 1024 --backend cuda:all --quiet
    [ $mpi = enabled ] && whole "2 ranks" mpirun -np 2 $B life $dir/in.data $dir/out2.data 1024 --backend cuda:all --quiet
  done
  cmp $dir/out0.data $dir/out1.data && echo "cuda:all: the same bytes"
  [ $mpi = enabled ] && cmp $dir/out0.data $dir/out2.data && echo "two ranks: the same bytes"
  $B life $dir/in.data $dir/out1.data 1024 --backend cuda:all --quiet --timings | grep -E "^timings"
  rm -rf "$dir"
  mem=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
  z=$(awk -v m="$mem" 'BEGIN{z = int(0.6 * m * 1048576 / 8388608 / 64) * 64; print z}')
  echo "== the grid larger than one GPU: 3D 8192x8192x$z, 8 generations, cuda:all"
  for i in 1 2; do
    s=$(date +%s.%N)
    timeout 150 $B life --dims 3 --size 8192x8192x$z --steps 8 --backend cuda:all --quiet --timings 2>&1 | grep -E "^timings|grid digest|error"
    echo "whole process: $(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN{print b - a}') s"
  done
fi

if [ "$part" = time ]; then
  for run in "--dims 3 --size 2048 --steps 0" "--dims 3 --size 2048 --steps 2048" "--dims 2 --size 131072 --steps 2048"; do
    echo "== whole process: life $run"
    for i in 1 2; do
      for t in A B; do
        l=$([ $t = A ] && echo $A || echo $B)
        whole "$t cuda:0" $l life $run --backend cuda:0 --quiet
        whole "$t cuda:all" $l life $run --backend cuda:all --quiet
        [ $mpi = enabled ] && whole "$t 2 ranks" mpirun -np 2 $l life $run --backend cuda:all --quiet
      done
    done
    $B life $run --backend cuda:0 --quiet --timings | grep -E "^timings|^time:"
    $B life $run --backend cuda:all --quiet --timings | grep -E "^timings|^time:"
    [ $mpi = enabled ] && mpirun -np 2 $B life $run --backend cuda:all --quiet --timings | grep -E "^timings|^slowest|^time:"
  done
  if [ $mpi = enabled ]; then
    for h in 4 16; do
      echo "-- B 3D 2048^3 x 2048, 2 ranks, --halo $h"
      mpirun -np 2 $B life --dims 3 --size 2048 --steps 2048 --backend cuda:all --halo $h --quiet | grep -E "^time:|grid digest"
    done
  fi
  echo "== weak scaling: twice the grid on two GPUs (B)"
  for pair in "--dims 3 --size 2048 --steps 1024|--dims 3 --size 2048x2048x4096 --steps 1024" \
              "--dims 2 --size 131072 --steps 1024|--dims 2 --size 131072x262144 --steps 1024"; do
    one=${pair%%|*} two=${pair##*|}
    echo "-- cuda:0 $one: $($B life $one --backend cuda:0 --quiet | grep -E '^time:' | tr -s ' ')"
    echo "-- cuda:all $two: $($B life $two --backend cuda:all --quiet | grep -E '^time:' | tr -s ' ')"
  done
  mem=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
  z=$(awk -v m="$mem" 'BEGIN{z = int(0.6 * m * 1048576 / 8388608 / 64) * 64; print z}')
  echo "== the grid larger than one GPU: 3D 8192x8192x$z (each buffer 0.6 of one GPU's $mem MiB), 8 generations"
  timeout 150 $B life --dims 3 --size 8192x8192x$z --steps 8 --backend cuda:0 --quiet 2>&1 | tail -1
  s=$(date +%s.%N)
  timeout 150 $B life --dims 3 --size 8192x8192x$z --steps 8 --backend cuda:all --quiet --timings 2>&1 | grep -E "^timings|^time:|grid digest|error"
  echo "whole process: $(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN{print b - a}') s"
fi
echo "== done in $(( $(date +%s) - t0 )) s"
