#!/usr/bin/env bash
# bench/ab_trees.sh BASE.tar [OUTDIR] - A/B of two source trees on a lent
# GPU machine: A is the tree in BASE.tar (made here with
# `git archive -o .peers/base.tar REV`, carried to the machine), B the
# working tree. Builds both for sm_90, then runs every benchmark below (or
# those of the file $AB_BENCHES, one `lockstep bench` argument list a line,
# NV standing for NVIDIA's OpenCL device) on both, interleaved (A B A B),
# printing each run's median and digest. Prints the log that docs/perf/
# keeps.
set -u
base=$1
out=${2:-${OUT:-/tmp}}
mkdir -p "$out" /tmp/ab-a
exec > >(tee "$out/ab.log") 2>&1
echo "== date: $(date -u +%Y-%m-%dT%H:%M:%SZ), A: $base (${AB_BASE:-rev not given}), B: working tree (${AB_NEW:-rev not given})"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
. bench/device_env.sh
device_env "$PWD"
tar -C /tmp/ab-a -xf "$base"
for t in a b; do
  src=$([ $t = a ] && echo /tmp/ab-a || echo "$PWD")
  mpi=""; grep -q "option('mpi'" "$src/meson_options.txt" && mpi=-Dmpi=disabled  # trees before it lack it
  meson setup /tmp/ab-build-$t "$src" -Ddefault_backend=cuda -Dnvcc_arch=90 $mpi >/dev/null 2>&1 &&
    ninja -C /tmp/ab-build-$t >/dev/null 2>&1 || { echo "build $t failed"; exit 1; }
done
nv=$(/tmp/ab-build-b/lockstep devices --json | python3 bench/nvidia_cl_device.py)
echo "NVIDIA OpenCL: $nv"
benches=(
  "life --dims 3 --size 256 --steps 2048 --backend $nv --repeat 5 --warmup 1"
  "life --dims 3 --size 256 --steps 2048 --backend cuda --repeat 5 --warmup 1"
  "life --dims 3 --size 1024 --steps 1024 --backend $nv --repeat 3 --warmup 1"
  "life --dims 2 --size 65536 --steps 1024 --backend $nv --repeat 3 --warmup 1"
  "graveler --battles 1e9 --backend $nv --repeat 10 --warmup 2"
  "bmn --deals 1e9 --backend $nv --repeat 3 --warmup 1"
  "ray --backend $nv --repeat 10 --warmup 2"
)
if [ -n "${AB_BENCHES:-}" ]; then
  mapfile -t benches < <(sed "s/NV/$nv/g" "$AB_BENCHES")
fi
for b in "${benches[@]}"; do
  echo "== bench $b"
  for t in a b a b; do
    printf '%s: ' "$t"
    /tmp/ab-build-$t/lockstep bench $b | grep -E 'median|digest' | tr '\n' ' '
    echo
  done
done
