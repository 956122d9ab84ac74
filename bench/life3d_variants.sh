#!/usr/bin/env bash
# bench/life3d_variants.sh - issue 16, Life 3D: variants of the 3D GPU
# kernel side by side on one NVIDIA machine (docs/perf/README.md keeps a
# row per variant). Each variant is a build of its own under /tmp:
#   knobs joined by '-' (r8-a1-b3), each given to the host C code and to
#   nvcc alike (the host sizes the launch):
#   rN    LIFE_GPU_3D_ROWS=N, rows a work-item owns (src/algo/life.h; 4)
#   aN    LIFE_3D_AHEAD=N, planes read ahead (src/kernels/life_kernels.h; 3)
#   bN    LIFE_3D_MIN_GROUPS=N, groups of 256 an SM must hold (CUDA)
#   r4 is the default build
#   base  the tree in $BASE_TAR (a `git archive` of the commit to compare
#         with), built as it is: the A of an A/B in the same batch
# For each: the issue's case 1024^3 x 1024 (B6/S567, density 0.2), the
# same under another rule (B5/S45: the any-rule kernel), 1023^3 x 1024 (an
# odd size), and a check of 67x61x59 x 13 against OpenMP. The default
# build also runs NVIDIA's OpenCL (a variant's OpenCL programs are built
# with the default row count, so only the default build runs OpenCL).
#
# usage: [BASE_TAR=FILE] bash bench/life3d_variants.sh [VARIANT...]
#        (default: r4; the log also goes to $OUT/life3d_variants.log)
set -u
cd "$(dirname "$0")/.." || exit 2
out=${OUT:-/tmp}
mkdir -p "$out"
exec > >(tee "$out/life3d_variants.log") 2>&1
export PATH=/usr/local/cuda/bin:$PATH
export PKG_CONFIG_PATH=$PWD/.peers/sqlite/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
ldconfig -p | grep -q libsqlite3.so.0 || export LD_LIBRARY_PATH=$PWD/.peers/sqlite/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ -w /etc/OpenCL/vendors ] || mkdir -p /etc/OpenCL/vendors 2>/dev/null; then
  echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
fi

variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(r4)

defines() { # the -D definitions of a variant, its knobs joined by '-'
  local defs=() knob knobs
  [ "$1" = base ] && return 0
  IFS=- read -ra knobs <<< "$1"
  for knob in "${knobs[@]}"; do
    case $knob in
      r4) ;;
      r[0-9]*) defs+=("-DLIFE_GPU_3D_ROWS=${knob#r}u") ;;
      a[0-9]*) defs+=("-DLIFE_3D_AHEAD=${knob#a}") ;;
      b[0-9]*) defs+=("-DLIFE_3D_MIN_GROUPS=${knob#b}") ;;
      *) echo "unknown knob $knob in variant $1" >&2; return 1 ;;
    esac
  done
  echo "${defs[*]}"
}
source_of() { # the source tree of a variant
  if [ "$1" = base ]; then
    [ -f "${BASE_TAR:-}" ] || { echo "variant base needs BASE_TAR" >&2; return 1; }
    rm -rf /tmp/life3d-src-base && mkdir -p /tmp/life3d-src-base && tar -xf "$BASE_TAR" -C /tmp/life3d-src-base &&
      echo /tmp/life3d-src-base
  else
    echo "$PWD"
  fi
}

echo "== date: $(date -u +%Y-%m-%dT%H:%M:%SZ), lockstep ${LOCKSTEP_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo ?)}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
t0=$(date +%s)
jobs_per=$(( $(nproc) / ${#variants[@]} ))
[ "$jobs_per" -ge 1 ] || jobs_per=1
pids=()
for v in "${variants[@]}"; do
  dir=/tmp/life3d-$v
  defs=$(defines "$v") || exit 2
  src=$(source_of "$v") || exit 2
  rm -rf "$dir"
  # c_args splits on spaces, nvcc_flags (an array option) on commas
  opts=(-Ddefault_backend=cuda -Dnvcc_arch=90 -Dmpi=disabled)
  [ -n "$defs" ] && opts+=("-Dc_args=$defs" "-Dnvcc_flags=${defs// /,}")
  ( meson setup "$dir" "$src" "${opts[@]}" >"$dir.setup.log" 2>&1 &&
    ninja -C "$dir" -j "$jobs_per" lockstep >"$dir.ninja.log" 2>&1 ) &
  pids+=($!)
done
# The builds by their ids: a bare `wait` also waits for the tee above,
# which never ends (the variant run that "timed out in its builds" on
# 2026-11-23 hung here, its builds done).
wait "${pids[@]}"
for v in "${variants[@]}"; do
  [ -x "/tmp/life3d-$v/lockstep" ] || { echo "== $v did not build:"; tail -20 "/tmp/life3d-$v.setup.log" "/tmp/life3d-$v.ninja.log"; exit 1; }
done
echo "== built ${#variants[@]} variants in $(( $(date +%s) - t0 )) s"

bench() { # VARIANT WHAT ARGS...: one bench, its result lines
  local v=$1 what=$2; shift 2
  echo "-- $v: $what"
  /tmp/life3d-"$v"/lockstep bench life --dims 3 --steps 1024 --density 0.2 --repeat 3 --warmup 1 "$@" 2>&1 | tail -3
}
for v in "${variants[@]}"; do
  echo "== variant $v: $(defines "$v")"
  bench "$v" "1024^3 x 1024 B6/S567 cuda" --size 1024 --backend cuda
  bench "$v" "1024^3 x 1024 B5/S45 cuda" --size 1024 --backend cuda --rule B5/S45
  bench "$v" "1023^3 x 1024 B6/S567 cuda" --size 1023 --backend cuda
  if [ "$v" = r4 ]; then
    nv=$(/tmp/life3d-r4/lockstep devices --json | python3 bench/nvidia_cl_device.py)
    if [ -n "$nv" ]; then
      bench "$v" "1024^3 x 1024 B6/S567 $nv" --size 1024 --backend "$nv"
    else
      echo "-- $v: no NVIDIA OpenCL device"
    fi
  fi
  echo "-- $v: check 67x61x59 x 13 openmp,cuda"
  /tmp/life3d-"$v"/lockstep check life --dims 3 --size 67x61x59 --steps 13 --density 0.3 --backends openmp,cuda --quiet 2>&1 | tail -1
done
echo "== done in $(( $(date +%s) - t0 )) s"
