# bench/device_env.sh - what the scripts run on a lent NVIDIA machine
# share (sourced, not run): the banner that opens each log, the machine
# made ready for a build and a run, a build, an A/B pair of builds, MPI
# found, a whole process timed by the shell, a bench as one line, and
# PoCL's device found.

# device_banner WHAT...: the lines every log starts with: the date and
# WHAT (the part, the trees compared, the commit), the host's cores and
# CPU, and each GPU nvidia-smi lists (index, name, driver, clocks,
# memory).
device_banner() {
  echo "== date: $(date -u +%Y-%m-%dT%H:%M:%SZ), $*"
  echo "== host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv,noheader ||
    true
}

# device_env ROOT: CUDA on PATH; what the image lacks, carried in
# ROOT/.peers (SQLite and xxHash: headers, library, pkg-config files;
# docs/perf/README.md), found by pkg-config and the loader; NVIDIA's
# OpenCL registered with the ICD loader; Open MPI allowed to run as root;
# NVLink multicast off (KINDS.md).
device_env() {
  local root=$1
  export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export PKG_CONFIG_PATH=$root/.peers/sqlite/pkgconfig:$root/.peers/xxhash/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  ldconfig -p | grep -q "libsqlite3.so.0 " ||
    export LD_LIBRARY_PATH=$root/.peers/sqlite/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  if [ -w /etc/OpenCL/vendors ] || mkdir -p /etc/OpenCL/vendors 2>/dev/null; then
    echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
  fi
}

# device_build SRC DIR MPI OUTDIR [TAG]: the tree SRC built for sm_90 with
# -Dmpi=MPI into DIR (set up once, kept between calls: ninja rebuilds what
# changed), the logs in OUTDIR/setup[-TAG].log and ninja[-TAG].log; returns
# 1 after a log's tail when it did not build.
device_build() {
  local src=$1 dir=$2 mpi=$3 out=$4 tag=${5:+-$5}
  [ -f "$dir/build.ninja" ] ||
    meson setup "$dir" "$src" -Ddefault_backend=cuda -Dnvcc_arch=90 -Dmpi="$mpi" \
      >"$out/setup$tag.log" 2>&1 || { tail -20 "$out/setup$tag.log"; return 1; }
  ninja -C "$dir" >"$out/ninja$tag.log" 2>&1 || { tail -30 "$out/ninja$tag.log"; return 1; }
}

# device_mpi: MPI=enabled when an mpirun is installed or .peers/openmpi
# carries one (bench/openmpi-bundle, then on PATH), else disabled; says
# which.
device_mpi() {
  if command -v mpirun >/dev/null 2>&1; then
    MPI=enabled; echo "== MPI: $(mpirun --version | head -1) (installed)"
  elif [ -f .peers/openmpi/env.sh ] && . .peers/openmpi/env.sh; then
    MPI=enabled; echo "== MPI: carried bundle, $(mpirun --version | head -1)"
  else
    MPI=disabled; echo "== MPI: none here and none carried: the MPI runs are left out"
  fi
}

# device_build_ab BASE.tar PREFIX MPI OUTDIR: A, the tree in BASE.tar (`git
# archive -o .peers/base.tar REV`), and B, the working tree, built by
# device_build into /tmp/PREFIX-build-a and -b; sets A and B to the two
# binaries; exits 1 when one did not build; t0 is when it began.
device_build_ab() {
  local base=$1 prefix=$2 mpi=$3 out=$4 t src
  t0=$(date +%s) # global: the scripts say how long they took from here
  mkdir -p "/tmp/$prefix-a"
  tar -C "/tmp/$prefix-a" -xf "$base"
  for t in b a; do
    src=$([ $t = a ] && echo "/tmp/$prefix-a" || echo "$PWD")
    device_build "$src" "/tmp/$prefix-build-$t" "$mpi" "$out" $t || exit 1
  done
  echo "== built in $(( $(date +%s) - t0 )) s"
  A=/tmp/$prefix-build-a/lockstep
  B=/tmp/$prefix-build-b/lockstep
}

# whole LABEL COMMAND...: COMMAND's whole process by the shell's clock (the
# image has no bc), its exit code, and its digest and time lines.
whole() {
  local label=$1 s e rc
  shift
  s=$(date +%s.%N); "$@" > /tmp/device-whole.txt 2>&1; rc=$?; e=$(date +%s.%N)
  printf '%s: %.3f s (exit %d) %s\n' "$label" "$(awk -v a="$s" -v b="$e" 'BEGIN{print b - a}')" "$rc" \
    "$(grep -E 'grid digest|^time:' /tmp/device-whole.txt | tr -s ' ' | tr '\n' ' ')"
}

# bench_line LABEL BIN ARGS...: `BIN bench ARGS` as one line: its mean
# and rate lines (the digest is on the rate line), or what refused or
# failed it (an OpenCL kernel that could not start names OpenCL).
bench_line() {
  local label=$1 bin=$2
  shift 2
  printf '%-40s ' "$label"
  "$bin" bench "$@" 2>&1 | grep -E '^mean|^rate|error|refused|OpenCL' | tr '\n' ' '
  echo
}

# pocl_device BIN: the spec of PoCL's device as BIN's `devices --json`
# lists it (opencl:N), or nothing where there is none.
pocl_device() {
  "$1" devices --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(next(("opencl:%d" % x["index"] for b in d["backends"] if b["backend"] == "opencl"
            for x in b["devices"] if "Portable" in x["platform"]), ""))'
}
