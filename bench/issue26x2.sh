#!/usr/bin/env bash
# bench/issue26x2.sh BASE.tar [OUTDIR] - issue 26 on a lent two-GPU NVIDIA
# machine: A is the tree in BASE.tar (`git archive -o .peers/base.tar REV`),
# B the working tree, both built for sm_90 with MPI. Checks B on sets and
# two ranks (the slabs make their own random start now), then times whole
# processes (the shell's clock around each) on one GPU, on cuda:all and on
# two MPI ranks, A and B, with B's --timings. .peers/sqlite and
# .peers/xxhash carry what the image lacks (bench/issue26.sh).
set -u
base=$1
out=${2:-${OUT:-/tmp}}
mkdir -p "$out"
exec > >(tee "$out/issue26x2.log") 2>&1
here=$PWD
echo "== date: $(date -u +%Y-%m-%dT%H:%M:%SZ), A: ${AB_BASE:-base}, B: ${AB_NEW:-working tree}"
echo "== host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader || true
nvidia-smi topo -m 2>/dev/null | head -4
. bench/device_env.sh
device_env "$here"
mpi=disabled
command -v mpirun >/dev/null 2>&1 && mpi=enabled && echo "== MPI: $(mpirun --version | head -1)"
device_build_ab "$base" i26x2 $mpi "$out"
$B devices | grep -E "cuda|opencl" | head -6

echo "== B: check life on sets (each slab makes its planes on its GPU)"
for a in "--dims 3 --size 301x203x67 --steps 5 --density 0.3" "--dims 2 --size 65537x300 --steps 40" \
         "--rule B3/S23:P1000,777 --steps 9" "--dims 3 --size 128 --steps 7 --slabs 5"; do
  echo "-- check life $a"
  $B check life $a --quiet --backends openmp,cuda:0,cuda:all | tail -1
done
echo "== B: conformance on the set of both GPUs"
$B conformance --backend cuda:all | tail -2
if [ $mpi = enabled ]; then
  echo "== B: two MPI ranks against one process (digests)"
  for a in "--dims 3 --size 301x203x67 --steps 5 --density 0.3" "--dims 2 --size 65537x300 --steps 40"; do
    one=$($B life $a --backend cuda:0 --json --quiet | python3 -c 'import json,sys; print(json.load(sys.stdin)["grid_digest"])')
    two=$(mpirun -np 2 $B life $a --backend cuda:all --json --quiet | python3 -c 'import json,sys; print(json.load(sys.stdin)["grid_digest"])')
    echo "-- life $a: one process $one, two ranks $two $([ "$one" = "$two" ] && echo agree || echo DIFFER)"
  done
fi

for run in "--dims 3 --size 2048 --steps 0" "--dims 3 --size 2048 --steps 2048" "--dims 2 --size 131072 --steps 2048"; do
  echo "== whole process: life $run"
  for t in A B; do
    l=$([ $t = A ] && echo $A || echo $B)
    whole "$t cuda:0" $l life $run --backend cuda:0 --quiet
    whole "$t cuda:all" $l life $run --backend cuda:all --quiet
    # SKIP_A_RANKS=1: A's two-rank runs (20-60 s each) left out of a second look.
    [ $mpi = enabled ] && { [ $t = B ] || [ -z "${SKIP_A_RANKS:-}" ]; } &&
      whole "$t 2 ranks" mpirun -np 2 $l life $run --backend cuda:all --quiet
  done
  $B life $run --backend cuda:all --quiet --timings | grep -E "^timings|^time:"
  [ $mpi = enabled ] && mpirun -np 2 $B life $run --backend cuda:all --quiet --timings | grep -E "^timings|^slowest|^time:"
done
echo "== done in $(( $(date +%s) - t0 )) s"
