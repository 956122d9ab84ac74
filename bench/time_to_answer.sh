#!/usr/bin/env bash
# bench/time_to_answer.sh BASE.tar [OUTDIR] [ANSWER.cu] - issue 36's batch:
# one GPU's time to answer, whole process, on a lent NVIDIA machine of
# one, two or four GPUs (every GPU the host has stays visible unless the
# line says CUDA_VISIBLE_DEVICES). A is the tree in BASE.tar (`git archive
# -o .peers/base.tar REV`), B the working tree, both built for sm_90.
#   - the PKU form M = N = 1024 (`lockstep life in.data out.data 1024`):
#     cuda:0 (its default) with every GPU visible, with
#     CUDA_VISIBLE_DEVICES=0, and cuda:all; B also with
#     LOCKSTEP_CUDA_NARROW=0 (every GPU initialised, as A) and with
#     LOCKSTEP_DEBUG_EXIT=teardown (every device closed, the runtime's
#     exit handlers run, as A) and with LOCKSTEP_DEBUG_OUT_AHEAD=0 (--out's
#     file created and faulted in after the kernels, not while the devices
#     open): what each change saves on its own;
#   - `lockstep devices`; 3D 2048^3 x 0 on cuda:0;
#   - each case: median of 5 whole processes after a warm-up (Python's
#     perf_counter around the process, the output file removed before
#     each run, outside the clock), every run's figure printed; then one
#     run with --timings (its line, the phases' sum against since_start
#     and against the whole process from outside);
#   - the outputs' bytes: A's, B's every way, and with ANSWER.cu (the
#     official answer, compiled with nvcc -O3 -arch=sm_90) its output;
#   - the driver's floor: bench/open_probe.cu, every GPU visible and one;
#   - the page cache's: bench/page_cache_probe.c in the directory the PKU
#     files are written to (a 1 GiB file faulted in and filled, or
#     pwrite()n, on 1, 2, 4, ... threads; mmap() beside the faulting).
# Under 8 minutes on an H200 host (the builds about 1 minute). Writes
# OUTDIR/time_to_answer.log (and the build logs) there.
# Run from the repository root; .peers carries SQLite and xxHash
# (bench/device_env.sh).
set -u
base=${1:?usage: bench/time_to_answer.sh BASE.tar [OUTDIR] [ANSWER.cu]}
out=${2:-${OUT:-/tmp}}
answer=${3:-}
mkdir -p "$out"
exec > >(tee -a "$out/time_to_answer.log") 2>&1
here=$PWD
. bench/device_env.sh
device_banner "A $base, B the working tree ($(git log -1 --format='%h %s' 2>/dev/null)), CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-unset}"
nvidia-smi --query-gpu=index,persistence_mode,pci.bus_id --format=csv,noheader || true
echo "== kernel $(uname -r); /tmp on $(df -T /tmp | awk 'NR==2{print $2, $1}'); $(free -g | awk 'NR==2{print $2 " GiB memory, " $7 " available"}')"
device_env "$here"
device_mpi
device_build_ab "$base" tta "$MPI" "$out"
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
echo "== $ngpu GPUs on this host"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# What both timers below take: NAME ENV... -- COMMAND...; $WHOLE_RM, the
# output file the command makes, removed before each run.
cat > "$dir/command_line.py" <<'EOF'
import os, sys
name = sys.argv[1]
args = sys.argv[2:]
cut = args.index('--')
env = dict(os.environ)
for kv in args[:cut]:
    k, v = kv.split('=', 1)
    env[k] = v
cmd = args[cut + 1:]
rm = os.environ.get('WHOLE_RM')
EOF
# The timer: a warm-up, then 5 runs; each run's seconds and the median.
cat > "$dir/whole.py" <<'EOF'
import os, statistics, subprocess, sys, time
from command_line import name, env, cmd, rm
times, rc, warm = [], 0, 0.0
for i in range(6):
    if rm and os.path.exists(rm):
        os.unlink(rm)
    t = time.perf_counter()
    p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t = time.perf_counter() - t
    rc = rc or p.returncode
    if p.returncode:
        sys.stderr.write(p.stderr.decode(errors='replace')[-400:])
    if i:
        times.append(t)
    else:
        warm = t
print('%-48s median %.3f s  (runs %s; warm-up %.3f)%s' % (name, statistics.median(times),
      ' '.join('%.3f' % x for x in times), warm, '' if rc == 0 else '  EXIT %d' % rc), flush=True)
EOF
# timings NAME ENV... -- COMMAND...: one run with --timings --json: the
# text line, the sum of the phases, since_start, the whole from outside.
cat > "$dir/timings.py" <<'EOF'
import json, os, subprocess, sys, time
from command_line import name, env, cmd, rm
if rm and os.path.exists(rm):
    os.unlink(rm)
t = time.perf_counter()
p = subprocess.run(cmd + ['--timings', '--json', '--quiet'], env=env, capture_output=True, text=True)
whole = time.perf_counter() - t
try:
    tm = json.loads(p.stdout).get('timings', {})
except ValueError:
    print('%s: no JSON (exit %d) %s' % (name, p.returncode, p.stderr[-300:]))
    sys.exit(0)
phases = [(k, v) for k, v in tm.items()
          if isinstance(v, float) and k not in ('since_start', 'input_beside_open', 'output_beside_open')]
total = sum(v for _, v in phases)
print('-- %s timings: %s' % (name, ', '.join('%s %.3f' % kv for kv in phases)))
print('   sum %.3f s, since_start %s, whole from outside %.3f s (after the report: %s); input beside open %s, '
      'output beside open %s' % (total, '%.3f' % tm['since_start'] if 'since_start' in tm else '-', whole,
                                 '%.3f s' % (whole - tm['since_start']) if 'since_start' in tm else '-',
                                 '%.3f' % tm.get('input_beside_open', 0), '%.3f' % tm.get('output_beside_open', 0)),
      flush=True)
EOF
whole5() { python3 "$dir/whole.py" "$@"; }
timings1() { python3 "$dir/timings.py" "$@"; }

echo "== the driver's floor (bench/open_probe.cu): every GPU visible, then one"
nvcc -O2 -o "$dir/open_probe" bench/open_probe.cu -lpthread || echo "open_probe did not build"
if [ -x "$dir/open_probe" ]; then
  for v in all 0; do
    for m in reset quick-exit; do
      e=(); [ $v = 0 ] && e=(CUDA_VISIBLE_DEVICES=0)
      whole5 "open_probe $m, visible: $v" "${e[@]}" -- "$dir/open_probe" $([ $m = quick-exit ] && echo quick-exit)
    done
  done
  "$dir/open_probe"
  CUDA_VISIBLE_DEVICES=0 "$dir/open_probe" quick-exit
fi

echo "== devices (whole process)"
$B devices | head -30
for t in A B; do
  l=$([ $t = A ] && echo $A || echo $B)
  whole5 "$t devices" -- $l devices
  whole5 "$t devices, CUDA_VISIBLE_DEVICES=0" CUDA_VISIBLE_DEVICES=0 -- $l devices
done
whole5 "B devices, LOCKSTEP_DEBUG_EXIT=teardown" LOCKSTEP_DEBUG_EXIT=teardown -- $B devices

echo "== the PKU form M = N = 1024 (whole process; output removed before each run)"
$B life --dims 3 --size 1024 --steps 0 --density 0.2 --seed 1 --out $dir/in.data --quiet > /dev/null
ls -l $dir/in.data
cat $dir/in.data > /dev/null # in the page cache, as a judge's input would be after its first run
echo "-- B says: $(LOCKSTEP_DEBUG_NARROW=1 LOCKSTEP_DEBUG_EXIT=say $B life $dir/in.data $dir/o.data 1024 --quiet 2>&1 >/dev/null | tr '\n' ' ')"
export WHOLE_RM=$dir/o.data
pku() { # LABEL ENV... -- LOCKSTEP [--backend X]
  whole5 "$@"
}
for t in A B; do
  l=$([ $t = A ] && echo $A || echo $B)
  pku "$t cuda:0 (default), all visible" -- $l life $dir/in.data $dir/o.data 1024
  pku "$t cuda:0, CUDA_VISIBLE_DEVICES=0" CUDA_VISIBLE_DEVICES=0 -- $l life $dir/in.data $dir/o.data 1024
  pku "$t cuda:all" -- $l life $dir/in.data $dir/o.data 1024 --backend cuda:all
done
pku "B cuda:0, LOCKSTEP_CUDA_NARROW=0" LOCKSTEP_CUDA_NARROW=0 -- $B life $dir/in.data $dir/o.data 1024
pku "B cuda:0, LOCKSTEP_DEBUG_EXIT=teardown" LOCKSTEP_DEBUG_EXIT=teardown -- $B life $dir/in.data $dir/o.data 1024
pku "B cuda:0, CVD=0, LOCKSTEP_DEBUG_EXIT=teardown" CUDA_VISIBLE_DEVICES=0 LOCKSTEP_DEBUG_EXIT=teardown -- \
  $B life $dir/in.data $dir/o.data 1024
pku "B cuda:0, LOCKSTEP_DEBUG_OUT_AHEAD=0" LOCKSTEP_DEBUG_OUT_AHEAD=0 -- $B life $dir/in.data $dir/o.data 1024
pku "B cuda:0, CVD=0, LOCKSTEP_DEBUG_OUT_AHEAD=0" CUDA_VISIBLE_DEVICES=0 LOCKSTEP_DEBUG_OUT_AHEAD=0 -- \
  $B life $dir/in.data $dir/o.data 1024
pku "B cuda:0, --sync" -- $B life $dir/in.data $dir/o.data 1024 --sync
for t in A B; do
  l=$([ $t = A ] && echo $A || echo $B)
  timings1 "$t cuda:0" -- $l life $dir/in.data $dir/o.data 1024
  timings1 "$t cuda:0 CVD=0" CUDA_VISIBLE_DEVICES=0 -- $l life $dir/in.data $dir/o.data 1024
  timings1 "$t cuda:all" -- $l life $dir/in.data $dir/o.data 1024 --backend cuda:all
done
timings1 "B cuda:0 LOCKSTEP_DEBUG_OUT_AHEAD=0" LOCKSTEP_DEBUG_OUT_AHEAD=0 -- $B life $dir/in.data $dir/o.data 1024
timings1 "B cuda:0 CVD=0 LOCKSTEP_DEBUG_OUT_AHEAD=0" CUDA_VISIBLE_DEVICES=0 LOCKSTEP_DEBUG_OUT_AHEAD=0 -- \
  $B life $dir/in.data $dir/o.data 1024
unset WHOLE_RM

echo "== the page cache's floor (bench/page_cache_probe.c, in $dir)"
if cc -O2 -fopenmp -pthread -o "$dir/page_cache_probe" bench/page_cache_probe.c; then
  "$dir/page_cache_probe" "$dir"
  "$dir/page_cache_probe" "$dir" # a second pass: the first may wait for what removing earlier files left
else
  echo "page_cache_probe did not build"
fi

echo "== the PKU form's bytes"
$A life $dir/in.data $dir/a.data 1024 --quiet > /dev/null
for w in "cuda:0" "cuda:all"; do
  $B life $dir/in.data $dir/b.data 1024 --backend $w --quiet > /dev/null
  cmp -s $dir/a.data $dir/b.data && echo "B $w: the same bytes as A" || echo "B $w: BYTES DIFFER from A"
done
CUDA_VISIBLE_DEVICES=0 $B life $dir/in.data $dir/b.data 1024 --quiet > /dev/null
cmp -s $dir/a.data $dir/b.data && echo "B cuda:0 CVD=0: the same bytes as A" || echo "B cuda:0 CVD=0: BYTES DIFFER from A"
if [ "$ngpu" -gt 1 ]; then
  $B life $dir/in.data $dir/b.data 1024 --backend cuda:1 --quiet > /dev/null
  cmp -s $dir/a.data $dir/b.data && echo "B cuda:1: the same bytes as A" || echo "B cuda:1: BYTES DIFFER from A"
  echo "-- B cuda:1: $(LOCKSTEP_DEBUG_NARROW=1 $B life --dims 3 --size 64 --steps 1 --backend cuda:1 --json --quiet \
    2>$dir/err | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["device"], d["device_name"])') $(cat $dir/err)"
  echo "-- nvidia-smi's GPU 1: $(nvidia-smi -i 1 --query-gpu=name,pci.bus_id --format=csv,noheader)"
  for b in cuda:0 cuda:1 "cuda:1,cuda:0" cuda:all; do
    echo "-- 3D 301x203x67 x 29 on $b: $($B life --dims 3 --size 301x203x67 --steps 29 --density 0.3 --backend $b --json --quiet |
      python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["grid_digest"], d["device"])')"
  done
  echo "-- the same on openmp: $($B life --dims 3 --size 301x203x67 --steps 29 --density 0.3 --backend openmp --json --quiet |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["grid_digest"])')"
fi
if [ -n "$answer" ] && [ -f "$answer" ]; then
  nvcc -O3 -arch=sm_90 -o $dir/answer "$answer" 2>/dev/null || echo "$answer did not build"
  if [ -x $dir/answer ]; then
    s=$(date +%s.%N); ms=$($dir/answer $dir/in.data $dir/ans.data 1024); e=$(date +%s.%N)
    echo "the official answer: $(awk -v a="$s" -v b="$e" 'BEGIN{printf "%.3f", b - a}') s whole (kernel $ms ms, its clock)"
    cmp -s $dir/ans.data $dir/b.data && echo "B: the same bytes as the official answer" ||
      echo "B: BYTES DIFFER from the official answer"
  fi
else
  echo "(no ANSWER.cu given: A's bytes stand for the official answer's, identical in every earlier batch)"
fi
rm -f $dir/*.data

echo "== 3D 2048^3 x 0 on cuda:0 (whole process)"
for t in A B; do
  l=$([ $t = A ] && echo $A || echo $B)
  whole5 "$t 3D 2048^3 x 0" -- $l life --dims 3 --size 2048 --steps 0 --backend cuda:0 --quiet
  whole5 "$t 3D 2048^3 x 0, CUDA_VISIBLE_DEVICES=0" CUDA_VISIBLE_DEVICES=0 -- \
    $l life --dims 3 --size 2048 --steps 0 --backend cuda:0 --quiet
done
whole5 "B 3D 2048^3 x 0, LOCKSTEP_CUDA_NARROW=0" LOCKSTEP_CUDA_NARROW=0 -- \
  $B life --dims 3 --size 2048 --steps 0 --backend cuda:0 --quiet
whole5 "B 3D 2048^3 x 0, LOCKSTEP_DEBUG_EXIT=teardown" LOCKSTEP_DEBUG_EXIT=teardown -- \
  $B life --dims 3 --size 2048 --steps 0 --backend cuda:0 --quiet
for t in A B; do
  l=$([ $t = A ] && echo $A || echo $B)
  timings1 "$t 3D 2048^3 x 0" -- $l life --dims 3 --size 2048 --steps 0 --backend cuda:0
done
echo "-- B digest: $($B life --dims 3 --size 2048 --steps 0 --backend cuda:0 --json --quiet |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["grid_digest"])'), A: $($A life --dims 3 --size 2048 --steps 0 \
  --backend cuda:0 --json --quiet | python3 -c 'import json,sys; print(json.load(sys.stdin)["grid_digest"])')"

echo "== B's tests that need CUDA"
for t in cuda_narrow quick_exit life_timings; do
  echo "-- tests/$t.py: $(cd tests && python3 $t.py /tmp/tta-build-b/lockstep 2>&1 | tail -1)"
done
/tmp/tta-build-b/tests/test_cuda_visible | tail -1
echo "== done in $(( $(date +%s) - t0 )) s"
