# bench/variants_lib.sh - what bench/life2d_variants.sh and
# life3d_variants.sh share (sourced, not run): the machine's setup, one
# build per variant in parallel, and a bench line. A variant is a build of
# its own in /tmp/PREFIX-VARIANT, its -D definitions given to the host C
# code and to nvcc alike (the host sizes launches for the kernels); the
# sourcing script defines variant_defines VARIANT (prints them, space-
# separated; fails on an unknown variant) and may define variant_source
# VARIANT (prints the source tree; default the checkout).

# variants_setup NAME: into the repository root; the log also goes to
# $OUT/NAME.log ($OUT defaulting to /tmp); the machine made ready
# (bench/device_env.sh); the header lines.
variants_setup() {
  cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
  variants_out=${OUT:-/tmp}
  mkdir -p "$variants_out"
  exec > >(tee "$variants_out/$1.log") 2>&1
  . bench/device_env.sh
  device_env "$PWD"
  echo "== date: $(date -u +%Y-%m-%dT%H:%M:%SZ), lockstep ${LOCKSTEP_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo ?)}"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
  variants_t0=$(date +%s)
}

variant_source() { echo "$PWD"; }

# variants_build PREFIX VARIANT...: builds them all at once, the cores
# shared; exits 1 with the logs' tails when one did not build.
variants_build() {
  local prefix=$1 v dir defs src pids=()
  shift
  local jobs_per=$(( $(nproc) / $# ))
  [ "$jobs_per" -ge 1 ] || jobs_per=1
  for v in "$@"; do
    dir=/tmp/$prefix-$v
    defs=$(variant_defines "$v") || exit 2
    src=$(variant_source "$v") || exit 2
    rm -rf "$dir"
    # c_args splits on spaces, nvcc_flags (an array option) on commas
    local opts=(-Ddefault_backend=cuda -Dnvcc_arch=90 -Dmpi=disabled)
    [ -n "$defs" ] && opts+=("-Dc_args=$defs" "-Dnvcc_flags=${defs// /,}")
    ( meson setup "$dir" "$src" "${opts[@]}" >"$dir.setup.log" 2>&1 &&
      ninja -C "$dir" -j "$jobs_per" lockstep >"$dir.ninja.log" 2>&1 ) &
    pids+=($!)
  done
  # The builds by their ids: a bare `wait` also waits for the tee of
  # variants_setup, which never ends (the variant run that "timed out in
  # its builds" on 2026-11-23 hung there, its builds done).
  wait "${pids[@]}"
  for v in "$@"; do
    [ -x "/tmp/$prefix-$v/lockstep" ] ||
      { echo "== $v did not build:"; tail -20 "/tmp/$prefix-$v.setup.log" "/tmp/$prefix-$v.ninja.log"; exit 1; }
  done
  echo "== built $# variants in $(( $(date +%s) - variants_t0 )) s"
}

# variants_bench PREFIX VARIANT WHAT ARGS...: `lockstep bench life ARGS`
# of that build, its result lines.
variants_bench() {
  local prefix=$1 v=$2 what=$3
  shift 3
  echo "-- $v: $what"
  /tmp/"$prefix-$v"/lockstep bench life --repeat 3 --warmup 1 "$@" 2>&1 | tail -3
}

# variants_bench_nvidia PREFIX VARIANT WHAT ARGS...: variants_bench on
# NVIDIA's OpenCL device as that build lists it (WHAT gets its spec), or a
# line saying there is none.
variants_bench_nvidia() {
  local prefix=$1 v=$2 what=$3 nv
  shift 3
  nv=$(/tmp/"$prefix-$v"/lockstep devices --json | python3 bench/nvidia_cl_device.py)
  if [ -n "$nv" ]; then
    variants_bench "$prefix" "$v" "$what $nv" "$@" --backend "$nv"
  else
    echo "-- $v: no NVIDIA OpenCL device"
  fi
}

# variants_life_line LABEL BIN REPEAT ARGS...: `BIN bench life ARGS`,
# REPEAT runs after a warm-up, as one line: what it ran, its median, rate
# and digest, or what refused or failed it.
variants_life_line() {
  local label=$1 bin=$2 repeat=$3
  shift 3
  printf '%-34s ' "$label"
  "$bin" bench life "$@" --repeat "$repeat" --warmup 1 2>&1 | grep -E '^Life on|median|^rate|rror|refused|DISAGREE' |
    tr -s ' ' | tr '\n' ' '
  echo
}

variants_done() {
  echo "== done in $(( $(date +%s) - variants_t0 )) s"
}

# variants_ab NAME PREFIX BASE.tar WHAT: the A/B batches' set-up (from the
# repository root): the log also in $out/NAME.log ($out: the caller's
# output folder), the banner naming WHAT, the machine made ready, and A
# (the tree in BASE.tar) and B (the checkout) built side by side as
# /tmp/PREFIX-a and -b; sets A, B and nv (NVIDIA's OpenCL device, or "").
variants_ab() {
  local name=$1 prefix=$2
  variants_base=$3
  exec > >(tee -a "$out/$name.log") 2>&1
  . bench/device_env.sh
  device_banner "$4: A $variants_base, B the working tree"
  device_env "$PWD"
  variants_t0=$(date +%s)
  variant_defines() { :; }
  variant_source() {
    if [ "$1" = a ]; then
      rm -rf "/tmp/$prefix-src-a" && mkdir -p "/tmp/$prefix-src-a" && tar -xf "$variants_base" -C "/tmp/$prefix-src-a" &&
        echo "/tmp/$prefix-src-a"
    else
      echo "$PWD"
    fi
  }
  variants_build "$prefix" a b
  A=/tmp/$prefix-a/lockstep
  B=/tmp/$prefix-b/lockstep
  nv=$($B devices --json | python3 bench/nvidia_cl_device.py)
  echo "== NVIDIA OpenCL: ${nv:-none}"
}
