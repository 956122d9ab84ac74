#!/usr/bin/env bash
# bench/life_slabs_costs.sh PART BASE.tar [OUTDIR] - where the time of
# Life's slabs (issue 26) goes beyond the generations, on a lent machine
# of two or more NVIDIA GPUs (two of them are used:
# CUDA_VISIBLE_DEVICES=0,1 unless it is set), one command a part; A is the
# tree in BASE.tar (`git archive -o .peers/base.tar REV`), B the working
# tree.
#   probe: what opening CUDA devices costs (bench/open_probe.cu, devices
#          one after another and a thread each), lockstep's fixed cost (a
#          64^3 grid, no generations) on one GPU and two, and epochs queued
#          back to back on cuda:all against waiting for each
#          (LOCKSTEP_DEBUG_EPOCH_WAIT), with `check life` and
#          compute-sanitizer over the queued epochs.
#   summary: the summary phase A/B (3D 2048^3 and 2D 131072^2, no
#          generations, cuda:0 and cuda:all; the grid larger than one GPU)
#          and by the size of its pieces; how the process ends (the
#          probe's contexts destroyed, left to the runtime, left to the
#          driver with _exit).
#   files: PKU and native files read and written at their offsets: the
#          same bytes and digests from cuda:0, cuda:all, NVIDIA OpenCL and
#          two and three ranks, A's bytes (gathered) beside B's, and the
#          PKU form M = N = 1024 whole process on one GPU, both, two ranks.
#   final: the session's last check and figures: conformance on cuda:all,
#          `check life`, compute-sanitizer under two ranks, 3D 2048^3 x
#          2048 and 2D 131072^2 x 2048 on one GPU, both and two ranks (the
#          run's time and the whole process), no generations on two ranks,
#          the grid larger than one GPU, and one GPU's kernels A/B.
# .peers/sqlite and .peers/xxhash carry what the image lacks (docs/perf/README.md).
set -u
part=$1 base=$2
out=${3:-${OUT:-/tmp}}
mkdir -p "$out"
exec > >(tee "$out/life_slabs_costs-$part.log") 2>&1
here=$PWD
export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0,1}
. bench/device_env.sh
device_banner "part $part, A: ${AB_BASE:-base}, B: ${AB_NEW:-working tree}, CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"
nvidia-smi --query-gpu=index,persistence_mode --format=csv,noheader || true
device_env "$here"
device_mpi
mpi=$MPI
device_build_ab "$base" costs $mpi "$out"
digest() { python3 -c 'import json,sys; print(json.load(sys.stdin)["grid_digest"])'; }
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
if [ "$part" = summary ]; then
  nvcc -O2 -o /tmp/open_probe bench/open_probe.cu -lpthread || exit 1
  echo "== how the process ends: contexts destroyed, left to the runtime's exit, left to the driver (_exit)"
  for i in 1 2 3; do
    for m in "" plain-exit quick-exit; do whole "open_probe ${m:-reset}" /tmp/open_probe $m; done
  done
  echo "== the summary phase, A and B"
  for a in "--dims 3 --size 2048" "--dims 2 --size 131072"; do
    for b in cuda:0 cuda:all; do
      for i in 1 2; do
        for t in A B; do
          l=$([ $t = A ] && echo $A || echo $B)
          whole "$t $a $b" $l life $a --steps 0 --backend $b --timings --quiet
          grep -E '^timings' /tmp/device-whole.txt
        done
      done
    done
  done
  echo "== B: the summary by the size of its pieces (3D 2048^3 x 0, cuda:0)"
  for piece in 8388608 33554432 134217728; do
    echo "-- piece $piece: $(LOCKSTEP_DEBUG_SUMMARY_PIECE=$piece $B life --dims 3 --size 2048 --steps 0 --backend cuda:0 --quiet --timings | grep -E '^timings' | tr -s ' ')"
  done
  mem=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
  z=$(awk -v m="$mem" 'BEGIN{z = int(0.6 * m * 1048576 / 8388608 / 64) * 64; print z}')
  echo "== the grid larger than one GPU: 3D 8192x8192x$z, 8 generations, cuda:all, A and B"
  for t in A B; do
    l=$([ $t = A ] && echo $A || echo $B)
    whole "$t 8192x8192x$z" timeout 200 $l life --dims 3 --size 8192x8192x$z --steps 8 --backend cuda:all --quiet --timings
    grep -E '^timings' /tmp/device-whole.txt
  done
fi
if [ "$part" = files ]; then
  dir=$(mktemp -d)
  echo "== B: PKU and native round trips, 3D 129^3 and 301x203x67, 2D 1001x999, 9 generations, every way"
  for a in "--dims 3 --size 129 --density 0.3 --steps 0" "--dims 3 --size 301x203x67 --density 0.3 --steps 0" \
           "--dims 2 --size 1001x999 --density 0.3 --steps 0"; do
    rm -f $dir/start.*
    $A life $a --seed 5 --out $dir/start.lsgrid --quiet > /dev/null # lslife2, which A and B read
    [[ $a == *"--size 129 "* ]] && $B life $a --seed 5 --out $dir/start.data --quiet > /dev/null
    for f in start.lsgrid $([ -f $dir/start.data ] && echo start.data); do
      ext=${f#start.}
      $A life --in $dir/$f --steps 9 --backend cuda:0 --out $dir/a.$ext --quiet > /dev/null
      $B life --in $dir/$f --steps 9 --backend openmp --out $dir/ref.$ext --quiet > /dev/null
      [ $ext = data ] && { cmp -s $dir/a.$ext $dir/ref.$ext && echo "-- $f: B on OpenMP writes A's bytes" || echo "-- $f: BYTES DIFFER between A and B"; }
      for way in "cuda:0" "cuda:all" ${nv:+"$nv"} "2 ranks" "3 ranks"; do
        case $way in
          "2 ranks") run=(mpirun -np 2 $B life --backend cuda:all) ;;
          "3 ranks") run=(mpirun -np 3 --oversubscribe $B life --backend cuda:all) ;;
          *) run=($B life --backend $way) ;;
        esac
        [ $mpi = enabled ] || [[ $way != *ranks* ]] || continue
        d=$("${run[@]}" --in $dir/$f --steps 9 --out $dir/b.$ext --json --quiet | digest)
        echo "-- $f x 9 $way: $d $(cmp -s $dir/ref.$ext $dir/b.$ext && echo 'the same bytes as OpenMP' || echo 'BYTES DIFFER from OpenMP')"
      done
    done
  done
  echo "== the PKU form M = N = 1024: one GPU, both, two ranks (whole process; bytes compared)"
  $B life --dims 3 --size 1024 --steps 0 --density 0.2 --seed 1 --out $dir/in.data --quiet > /dev/null
  for i in 1 2 3; do
    whole "A cuda:0" $A life $dir/in.data $dir/outa.data 1024 --backend cuda:0 --quiet
    whole "B cuda:0" $B life $dir/in.data $dir/out0.data 1024 --backend cuda:0 --quiet
    whole "B cuda:all" $B life $dir/in.data $dir/out1.data 1024 --backend cuda:all --quiet
    [ $mpi = enabled ] && whole "A 2 ranks" mpirun -np 2 $A life $dir/in.data $dir/outa2.data 1024 --backend cuda:all --quiet
    [ $mpi = enabled ] && whole "B 2 ranks" mpirun -np 2 $B life $dir/in.data $dir/out2.data 1024 --backend cuda:all --quiet
  done
  for f in out0 out1 out2 outa2; do cmp -s $dir/outa.data $dir/$f.data && echo "$f: the same bytes as A on one GPU" || echo "$f: BYTES DIFFER"; done
  for w in "B cuda:0" "B cuda:all" "B 2 ranks"; do
    case $w in "B 2 ranks") run=(mpirun -np 2 $B life --backend cuda:all) ;; *) run=($B life --backend ${w#B }) ;; esac
    echo "-- $w: $("${run[@]}" $dir/in.data $dir/o.data 1024 --quiet --timings | grep -E '^timings')"
  done
  rm -rf "$dir"
fi
if [ "$part" = final ]; then
  echo "== B: conformance on cuda:all; check life; compute-sanitizer under two ranks"
  $B conformance --backend cuda:all | tail -1
  for a in "--dims 3 --size 301x203x67 --steps 29 --density 0.3" "--dims 3 --size 1023x61x59 --steps 13 --density 0.3" \
           "--rule B3/S23:P1000,777 --steps 41" "--dims 3 --size 128 --steps 27 --slabs 5"; do
    echo "-- check life $a: $($B check life $a --quiet --backend openmp,cuda:0,cuda:all${nv:+,$nv} | tail -1)"
  done
  [ $mpi = enabled ] && { mpirun -np 2 compute-sanitizer --error-exitcode 9 $B life --dims 3 --size 67x45x33 --steps 9 \
    --backend cuda:all --quiet 2>&1 | grep -E "ERROR SUMMARY"; echo "exit ${PIPESTATUS[0]}: two ranks"; }
  echo "== 3D 2048^3 x 2048 and 2D 131072^2 x 2048: one GPU, both, two ranks (run time and whole process)"
  for a in "--dims 3 --size 2048 --steps 2048" "--dims 2 --size 131072 --steps 2048"; do
    for i in 1 2; do
      whole "cuda:0 $a" $B life $a --backend cuda:0 --quiet
      whole "cuda:all $a" $B life $a --backend cuda:all --quiet
      [ $mpi = enabled ] && whole "2 ranks $a" mpirun -np 2 $B life $a --backend cuda:all --quiet
    done
  done
  [ $mpi = enabled ] && for i in 1 2; do
    whole "2 ranks 3D 2048^3 x 0" mpirun -np 2 $B life --dims 3 --size 2048 --steps 0 --backend cuda:all --quiet
  done
  mem=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
  z=$(awk -v m="$mem" 'BEGIN{z = int(0.6 * m * 1048576 / 8388608 / 64) * 64; print z}')
  echo "== the grid larger than one GPU: 3D 8192x8192x$z, 8 generations, cuda:all"
  whole "cuda:all 8192x8192x$z" timeout --foreground 200 $B life --dims 3 --size 8192x8192x$z --steps 8 --backend cuda:all --quiet --timings
  grep -E '^timings' /tmp/device-whole.txt
  echo "== one GPU's kernels: bench life A/B (must not move more than 2%)"
  for b in "--dims 3 --size 2048 --steps 256 --density 0.2" "--dims 2 --size 65536 --steps 1024"; do
    for t in A B A B; do
      l=$([ $t = A ] && echo $A || echo $B)
      echo "-- $t bench life $b: $($l bench life $b --backend cuda:0 --repeat 3 --warmup 1 | grep -E "median" | tr -s ' ')"
    done
  done
fi
echo "== done in $(( $(date +%s) - t0 )) s"
