#!/usr/bin/env bash
# bench/life2d_variants.sh - issue 16, Life 2D: the variants of the 2D GPU
# kernel side by side on one NVIDIA machine (docs/perf/README.md keeps a
# row per variant). Each variant is a build of its own under /tmp with
# LIFE_2D_GENS (generations a launch of life_many_2d*, src/algo/life.h)
# given to both the host C code and nvcc: the host lays out the launch for
# the kernel's count. "two" (LIFE_2D_GENS=2) turns the many-generation
# kernel off: today's main, two generations a launch.
#
# For each variant: the issue's case 65536^2 x 1024 under B3/S23, the same
# under B36/S23 (another rule: at most 1.5x), 65535^2 (an odd size: at
# most 1.3x per cell), and a check of 4099x1031 x 37 (short last words, two
# margin lanes, tails of two and one generations) against OpenMP. The
# default variant also runs NVIDIA's OpenCL (at most 1.15x CUDA). A
# variant build's OpenCL programs are built with the default LIFE_2D_GENS
# (they are embedded sources), so only the default build runs OpenCL.
#
# usage: bash bench/life2d_variants.sh [VARIANT...]   (default: all; the log
# also goes to $OUT/life2d_variants.log, $OUT defaulting to /tmp)
# variants: two g4 g8 g12 g16 (g16 is the default build). About 4 minutes
# on a 16-core H200 host (the builds run in parallel).
set -u
cd "$(dirname "$0")/.." || exit 2
out=${OUT:-/tmp}
mkdir -p "$out"
exec > >(tee "$out/life2d_variants.log") 2>&1
export PATH=/usr/local/cuda/bin:$PATH
export PKG_CONFIG_PATH=$PWD/.peers/sqlite/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
ldconfig -p | grep -q libsqlite3.so.0 || export LD_LIBRARY_PATH=$PWD/.peers/sqlite/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ -w /etc/OpenCL/vendors ] || mkdir -p /etc/OpenCL/vendors 2>/dev/null; then
  echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
fi

variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(two g4 g8 g12 g16)

# The meson options of a variant: the generation count to host and kernels.
options() {
  case $1 in
    g16) ;;
    two) echo "-Dc_args=-DLIFE_2D_GENS=2u -Dnvcc_flags=-DLIFE_2D_GENS=2u" ;;
    g*) echo "-Dc_args=-DLIFE_2D_GENS=${1#g}u -Dnvcc_flags=-DLIFE_2D_GENS=${1#g}u" ;;
    *) echo "unknown variant $1" >&2; return 1 ;;
  esac
}

echo "== date: $(date -u +%Y-%m-%dT%H:%M:%SZ), lockstep ${LOCKSTEP_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo ?)}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
t0=$(date +%s)
jobs_per=$(( $(nproc) / ${#variants[@]} ))
[ "$jobs_per" -ge 1 ] || jobs_per=1
pids=()
for v in "${variants[@]}"; do
  dir=/tmp/life2d-$v
  opts=$(options "$v") || exit 2
  rm -rf "$dir"
  # shellcheck disable=SC2086 # opts is a list of options
  ( meson setup "$dir" . -Ddefault_backend=cuda -Dnvcc_arch=90 -Dmpi=disabled $opts >"$dir.setup.log" 2>&1 &&
    ninja -C "$dir" -j "$jobs_per" lockstep >"$dir.ninja.log" 2>&1 ) &
  pids+=($!)
done
# The builds by their ids: a bare `wait` also waits for the tee above,
# which never ends (the variant run that "timed out in its builds" on
# 2026-11-23 hung here, its builds done).
wait "${pids[@]}"
for v in "${variants[@]}"; do
  [ -x "/tmp/life2d-$v/lockstep" ] || { echo "== $v did not build:"; tail -20 "/tmp/life2d-$v.setup.log" "/tmp/life2d-$v.ninja.log"; exit 1; }
done
echo "== built ${#variants[@]} variants in $(( $(date +%s) - t0 )) s"

bench() { # VARIANT WHAT ARGS...: one bench, its result lines
  local v=$1 what=$2; shift 2
  echo "-- $v: $what"
  /tmp/life2d-"$v"/lockstep bench life --dims 2 --steps 1024 --density 0.2 --repeat 3 --warmup 1 "$@" 2>&1 | tail -3
}
for v in "${variants[@]}"; do
  echo "== variant $v: $(options "$v")"
  bench "$v" "65536^2 x 1024 B3/S23 cuda" --size 65536 --backend cuda
  bench "$v" "65536^2 x 1024 B36/S23 cuda" --size 65536 --backend cuda --rule B36/S23
  bench "$v" "65535^2 x 1024 B3/S23 cuda" --size 65535 --backend cuda
  if [ "$v" = g16 ]; then
    nv=$(/tmp/life2d-g16/lockstep devices --json | python3 bench/nvidia_cl_device.py)
    if [ -n "$nv" ]; then
      bench "$v" "65536^2 x 1024 B3/S23 $nv" --size 65536 --backend "$nv"
    else
      echo "-- $v: no NVIDIA OpenCL device"
    fi
  fi
  echo "-- $v: check 4099x1031 x 37 openmp,cuda"
  /tmp/life2d-"$v"/lockstep check life --dims 2 --size 4099x1031 --steps 37 --backends openmp,cuda --quiet 2>&1 | tail -1
done
echo "== done in $(( $(date +%s) - t0 )) s"
