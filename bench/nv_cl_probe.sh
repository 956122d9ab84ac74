#!/usr/bin/env bash
# bench/nv_cl_probe.sh - what NVIDIA's OpenCL makes of a program beside
# nvcc, for the kernels where it is slower than CUDA (issue 35): A
# (BASE.tar) and B (the working tree) built for sm_90; each program built
# through NVIDIA's OpenCL with the options lockstep gives it plus
# -cl-nv-verbose (ptxas's registers and spills) by bench/cl_kernel_info.c,
# its PTX assembled for sm_90 and disassembled beside nvcc's object; then
# the kernels timed on CUDA and NVIDIA's OpenCL, the 3D tile walk also
# forced on NVIDIA's OpenCL (LOCKSTEP_DEBUG_LIFE_MANY=1), and B's digests
# checked across the two; the SASS in OUTDIR/nv_cl_probe_sass.tgz.
#
# usage: bash bench/nv_cl_probe.sh BASE.tar [OUTDIR] [PROGRAM...]
#   PROGRAM: bmn, life (default both)
set -u
base=${1:?usage: bench/nv_cl_probe.sh BASE.tar [OUTDIR] [PROGRAM...]}
out=${2:-${OUT:-/tmp}}
shift $(( $# > 1 ? 2 : 1 ))
programs=${*:-bmn life}
mkdir -p "$out"
exec > >(tee -a "$out/nv_cl_probe.log") 2>&1
. bench/device_env.sh
device_banner "A $base, B the working tree, programs $programs"
device_env "$PWD"
device_build_ab "$base" nvprobe disabled "$out"
gcc -O2 -std=c17 -Wall bench/cl_kernel_info.c -o /tmp/cl_kernel_info -lOpenCL || exit 1
nv=$($B devices --json | python3 bench/nvidia_cl_device.py)
echo "== NVIDIA OpenCL: ${nv:-none}"
opts="-cl-std=CL1.2 -DLS_SHAPE=1 -DLS_NV_PTX=1 -cl-nv-maxrregcount=128 -cl-nv-verbose"

# kernels_of PROGRAM: the entry points the probe asks about.
kernels_of() {
  case $1 in
  bmn) echo bmn_deal_batch bmn_play_batch ;;
  life) echo life_tile_3d_aligned life_tile_3d_b6s567_aligned life_step_3d_aligned life_step_3d_b6s567_aligned \
    life_many_2d_b3s23_aligned life_many_2d_aligned ;;
  esac
}

for t in a b; do
  src=$([ $t = a ] && echo /tmp/nvprobe-a || echo "$PWD")
  for p in $programs; do
    echo "== $t: $p through NVIDIA's OpenCL"
    (cd "$src" && /tmp/cl_kernel_info NVIDIA "kernels_cl/$p.cl" "$opts -I src/kernels -I src/algo" \
      "/tmp/$p-cl-$t.bin" $(kernels_of "$p")) | grep -v '^$'
    # The binary is PTX text ending in a NUL, which ptxas refuses.
    tr -d '\000' < "/tmp/$p-cl-$t.bin" > "/tmp/$p-cl-$t.ptx"
    ptxas -arch=sm_90 -v "/tmp/$p-cl-$t.ptx" -o "/tmp/$p-cl-$t.cubin" 2>&1 | grep -E 'Compiling|registers|spill'
    cuobjdump -sass "/tmp/$p-cl-$t.cubin" > "/tmp/$p-cl-$t.sass"
    echo "== $t: $p through nvcc"
    cuobjdump -res-usage "/tmp/nvprobe-build-$t/$p.o" 2>&1 | grep -E 'Function|REG'
    cuobjdump -sass "/tmp/nvprobe-build-$t/$p.o" > "/tmp/$p-cu-$t.sass"
  done
done

for p in $programs; do
  case $p in
  bmn) cases=("bmn --deals 1e9") ;;
  life) cases=("life --dims 3 --size 1024 --steps 1024 --density 0.2" "life --dims 3 --size 1024 --steps 1024 --density 0.2 --rule B5/S45") ;;
  esac
  for c in "${cases[@]}"; do
    echo "-- $c"
    for t in A B; do
      bin=$([ $t = A ] && echo "$A" || echo "$B")
      bench_line "cuda $t" "$bin" $c --backend cuda:0 --repeat 5 --warmup 1
      [ -n "$nv" ] || continue
      bench_line "nvidia opencl $t" "$bin" $c --backend "$nv" --repeat 5 --warmup 1
      [ "$p" = life ] && LOCKSTEP_DEBUG_LIFE_MANY=1 bench_line "nvidia opencl $t, tile walk forced" "$bin" $c \
        --backend "$nv" --repeat 5 --warmup 1
    done
  done
done
# The kernels' SASS, counted by opcode, for the reader of the log.
tar -C /tmp -czf "$out/nv_cl_probe_sass.tgz" $(cd /tmp && ls ./*-cl-?.sass ./*-cu-?.sass ./*-cl-?.ptx)
if [ -n "$nv" ]; then
  echo "== cross-checks of B: cuda:0 against $nv"
  $B check bmn --deals 1e7 --backends "cuda:0,$nv" --quiet
  LOCKSTEP_DEBUG_LIFE_MANY=1 $B check life --dims 3 --size 1024 --steps 8 --backends "cuda:0,$nv" --quiet
  LOCKSTEP_DEBUG_LIFE_MANY=1 $B check life --dims 3 --size 1000 --steps 7 --rule B5/S45 --backends "cuda:0,$nv" \
    --quiet
fi
echo "== done in $(( $(date +%s) - t0 )) s"
