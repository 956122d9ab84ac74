#!/usr/bin/env bash
# bench/gpu_batch.sh - one batch for a lent NVIDIA machine: build for sm_90,
# list devices, run the conformance suite and the cross-checks on every
# backend, then the benchmarks side by side, then compute-sanitizer over
# every CUDA kernel. Prints a summary last; exits 1 when a sanitizer run
# failed (a FAILED line in the summary names it).
#
# usage: bash bench/gpu_batch.sh [OUTDIR]    (OUTDIR defaults to $OUT or /tmp)
# The output is what docs/perf/ records. LOCKSTEP_COMMIT names the commit in
# the log. The lent H200 image has no libsqlite3-dev or libxxhash-dev and
# nothing can be installed there: .peers carries them (bench/device_env.sh,
# docs/perf/README.md); run from the repository root.
set -u
out=${1:-${OUT:-/tmp}}
mkdir -p "$out"
log="$out/gpu_batch.log"
exec > >(tee "$log") 2>&1

. bench/device_env.sh
device_banner "lockstep ${LOCKSTEP_COMMIT:-(commit not given: set LOCKSTEP_COMMIT)}"
device_env "$PWD"
build=/tmp/lockstep-build
rm -rf "$build"
t0=$(date +%s)
meson setup "$build" -Ddefault_backend=cuda -Dnvcc_arch=90 >"$out/setup.log" 2>&1 || { tail -30 "$out/setup.log"; exit 1; }
ninja -C "$build" >"$out/ninja.log" 2>&1 || { tail -40 "$out/ninja.log"; exit 1; }
echo "== built in $(( $(date +%s) - t0 )) s"
ls=$build/lockstep
$ls devices
echo "== conformance (every device)"
$ls conformance
echo "== check graveler 1e8 (every device)"
$ls check graveler --battles 1e8 --quiet
nv=$($ls devices --json | python3 bench/nvidia_cl_device.py)
echo "== check graveler 1e9 (openmp, cuda, $nv)"
$ls check graveler --battles 1e9 --quiet --backends openmp,cuda${nv:+,$nv}
echo "== check graveler 1e10: several launches per range (openmp, cuda, $nv)"
$ls check graveler --battles 1e10 --quiet --backends openmp,cuda${nv:+,$nv}
# Benchmarks: device time (events), median of repeated runs.
echo "== bench graveler 1e9"
$ls bench graveler --battles 1e9 --backend cuda --repeat 10 --warmup 2
[ -n "$nv" ] && $ls bench graveler --battles 1e9 --backend "$nv" --repeat 10 --warmup 2
$ls bench graveler --battles 1e9 --backend openmp --repeat 3 --warmup 1
echo "== check bmn 1e7 (every device)"
$ls check bmn --deals 1e7 --quiet
echo "== bench bmn"
$ls bench bmn --deals 1e9 --backend cuda --repeat 3 --warmup 1
[ -n "$nv" ] && $ls bench bmn --deals 1e9 --backend "$nv" --repeat 3 --warmup 1
$ls bench bmn --deals 2e7 --backend openmp --repeat 3 --warmup 1
OMP_NUM_THREADS=1 $ls bench bmn --deals 2e6 --backend openmp --repeat 3 --warmup 1
$ls bmn search --deals 1e9 --backend cuda --top 5 --quiet
$ls bmn play ---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---
echo "== check life: odd 3D box, odd 2D grid (every device)"
$ls check life --dims 3 --size 37x29x23 --steps 9 --density 0.3 --quiet
$ls check life --dims 2 --size 1001x999 --steps 17 --density 0.3 --quiet
$ls check life --dims 2 --size 16001x67 --steps 35 --density 0.3 --quiet  # runs that read across the x seam, and not
$ls check life --dims 2 --size 33x9 --steps 43 --quiet  # rows of two words, the second of one cell
$ls check life --dims 2 --size 1024x100 --steps 48 --quiet  # aligned rows, 16 generations a launch
echo "== check life on bounded planes (Golly's :P), 2D and 3D, and --every (every device)"
$ls check life --dims 2 --steps 40 --density 0.3 --rule B3/S23:P1001,999 --quiet
$ls check life --dims 3 --steps 9 --density 0.3 --rule B6/S567:P37,29,23 --quiet
$ls check life --dims 2 --size 1024 --steps 3000 --every 10 --quiet
echo "== check ray, 512x512x64 exact (every device)"
$ls check ray --quiet
echo "== bench life 3D, B6/S567, density 0.2"
for sz in "1024 1024" "512 1024" "256 2048"; do
  set -- $sz
  for b in cuda $nv; do $ls bench life --dims 3 --size "$1" --steps "$2" --density 0.2 --backend "$b" --repeat 3 --warmup 1; done
done
echo "== life 3D 2048^3 (two 1 GiB grids on the device), 4 generations"
for b in cuda $nv; do $ls life --dims 3 --size 2048 --steps 4 --density 0.2 --backend "$b" --quiet; done
echo "== bench life 2D 65536^2 x 1024, B3/S23, density 0.2"
for b in cuda $nv; do $ls bench life --dims 2 --size 65536 --steps 1024 --density 0.2 --backend "$b" --repeat 3 --warmup 1; done
echo "== bench life, rules other than the defaults (built into the kernels: NVRTC, OpenCL -D): 2D B36/S23, 3D B5/S45"
for b in cuda $nv; do
  $ls bench life --dims 2 --size 65536 --steps 1024 --density 0.2 --rule B36/S23 --backend "$b" --repeat 3 --warmup 1
  $ls bench life --dims 3 --size 1024 --steps 1024 --density 0.2 --rule B5/S45 --backend "$b" --repeat 3 --warmup 1
done
echo "== bench ray 512x512x64"
for m in exact fast; do
  for b in cuda $nv; do $ls bench ray --mode "$m" --backend "$b" --repeat 10 --warmup 2; done
done
$ls bench ray --mode exact --backend openmp --repeat 3 --warmup 1
echo "== SASS instruction mix of the CUDA kernels"
cuobjdump --dump-sass "$build"/bmn.o | grep -oE '^ +/\*[0-9a-f]{4}\*/ +[A-Z][A-Z0-9.]*' | awk '{print $2}' | sort | uniq -c | sort -rn | head -12
cuobjdump --dump-sass "$build"/graveler.o | grep -oE '^ +/\*[0-9a-f]{4}\*/ +[A-Z][A-Z0-9.]*' | awk '{print $2}' | sort | uniq -c | sort -rn | head -25
for extra in ${EXTRA_BENCH:-}; do bash "$extra" "$ls" "$nv"; done
# compute-sanitizer: memcheck (out-of-bounds and misaligned accesses),
# racecheck (shared-memory hazards), initcheck (reads of uninitialized
# device memory) and synccheck (barriers misused) over runs that launch
# every kernel of every CUDA program, at small sizes (the tools are slow).
# Any error the tool finds (--error-exitcode), or the run failing, is a
# FAILED line in the summary and fails the batch.
echo "== compute-sanitizer over every CUDA kernel"
sanitizer_runs=(
  "graveler --battles 2e5"                       # graveler_private
  "graveler --battles 1e5 --turns 4096"          # graveler_shared: 4097 bins x 8 x 2 B > 48 KiB of shared memory
  "bmn search --deals 2e4"                       # bmn_deal_batch, bmn_play_batch
  "life --dims 2 --size 128x40 --steps 5"        # life_two_2d_b3s23_aligned, life_step_2d_b3s23_aligned
  "life --dims 2 --size 101x37 --steps 5"        # the same, rows not whole words
  "life --dims 2 --size 128x40 --steps 5 --rule B36/S23"
  "life --dims 2 --size 101x37 --steps 5 --rule B36/S23"
  "life --dims 3 --size 64x12x9 --steps 3"       # life_tile_3d_b6s567_aligned (2 generations), life_step_3d_b6s567_aligned
  "life --dims 3 --size 37x9x7 --steps 3"        # life_tile_3d_b6s567, life_step_3d_b6s567
  "life --dims 3 --size 64x12x9 --steps 3 --rule B5/S45"          # life_tile_3d_aligned, life_step_3d_aligned (NVRTC)
  "life --dims 3 --size 37x9x7 --steps 3 --rule B5/S45"
  "life --dims 2 --size 101x37 --steps 5 --rule B3/S23:P101,37"   # bounded planes: life_two_2d_plane, life_step_2d_plane
  "life --dims 3 --size 37x9x7 --steps 3 --rule B6/S567:P37,9,7"  # life_tile_3d_plane, life_step_3d_plane
  "life --dims 2 --size 128x40 --steps 37"       # life_many_2d_b3s23_aligned (LIFE_2D_GENS a launch), then two and one
  "life --dims 2 --size 101x37 --steps 37 --rule B36/S23"          # life_many_2d
  "life --dims 2 --size 16001x40 --steps 37"     # life_many_2d_b3s23: reads across the x seam (life_vword)
  "life --dims 2 --size 101x37 --steps 37 --rule B3/S23:P101,37"   # life_many_2d_plane
  "life --dims 3 --size 61x47x33 --steps 7 --slabs 3 --halo 2"  # slabs: partial reads, ghost writes, peer copies
  "life --dims 2 --size 101x37 --steps 9 --slabs 2 --halo 4"
  "ray --size 32x24 --spp 4"                     # ray_exact
  "ray --size 32x24 --spp 4 --mode fast"         # ray_fast
)
failures=() runs=0
if ! command -v compute-sanitizer >/dev/null; then
  failures+=("FAILED compute-sanitizer: not found (looked in PATH and /usr/local/cuda/bin)")
else
  for tool in memcheck racecheck initcheck synccheck; do
    for run in "${sanitizer_runs[@]}" "conformance --workload float"; do  # the last: fp_probe_kernel
      quiet=--quiet; [ "${run%% *}" = conformance ] && quiet=""
      runs=$((runs + 1))
      # shellcheck disable=SC2086 # each run is a word list
      compute-sanitizer --tool "$tool" --error-exitcode 86 --print-limit 20 $ls $run --backend cuda $quiet \
        >"$out/sanitizer.log" 2>&1
      rc=$?
      if [ "$rc" -eq 0 ]; then
        echo "ok     $tool: $run"
      else
        failures+=("FAILED compute-sanitizer $tool: $run (exit $rc$([ "$rc" -eq 86 ] && echo ': the tool found errors'))")
        echo "${failures[-1]}"; tail -40 "$out/sanitizer.log"
      fi
    done
  done
fi
echo "== summary"
echo "compute-sanitizer: $runs runs, ${#failures[@]} failed"
[ ${#failures[@]} -eq 0 ] || printf '%s\n' "${failures[@]}"
echo "== done"
[ ${#failures[@]} -eq 0 ]
