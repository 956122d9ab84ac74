#!/usr/bin/env bash
# bench/scale_out.sh [N] [OUTDIR] - issue 29's batch: every workload on 1,
# 2, 4 (and 8) GPUs of one lent NVIDIA machine, each digest compared with
# one GPU's, strong and weak scaling, the largest Life grid the machine
# holds, and at the end a markdown table for docs/perf/README.md, each
# figure's exact command above its line in the log.
#
#   bash bench/scale_out.sh            every GPU nvidia-smi lists
#   bash bench/scale_out.sh 4 "$OUT"   at most 4 of them, the log and runs in $OUT
#   SCALE_OUT_CPU=1 bash bench/scale_out.sh 4   the CPU rehearsal (below)
#
# Run from the repository root. N devices means the counts 1, 2, 4, ... up
# to N (and N itself); with n of them, each workload runs
#   one:    on one device (n = 1), the reference of every digest;
#   all:    one process on the set of all n (`--backend cuda:all`, n GPUs
#           left visible by CUDA_VISIBLE_DEVICES);
#   ranks:  `mpirun -np n`, the same list shared out, one GPU a rank;
#   halves: `mpirun -np 2`, n/2 GPUs a rank (n >= 4).
# Parts (SCALE_OUT_PARTS, default "strong weak largest"):
#   strong:  graveler 2e12 battles, bmn search 8e9 deals, ray 3840x2160 at
#            4096 samples, life 3D 2048^3 x 2048 and 2D 131072^2 x 2048
#            (SCALE_OUT_WORKLOADS picks among graveler bmn ray life3d
#            life2d), each way on each count;
#   weak:    Life's grid n times larger along the slab axis (z in 3D, rows
#            in 2D) on n devices, one process and n ranks;
#   largest: a 3D grid of 8192^2 planes whose two generations take 0.6 of
#            every GPU's free memory (`lockstep devices --json`), at most
#            lockstep's 2^40 cells, 8 generations on all N, both ways.
# Each run is `--json --quiet` (Life with --timings), timed whole by the
# shell; the JSON, the stderr and a line in runs.tsv go to SCALE_OUT_RECORDS
# (default OUTDIR/runs, packed into OUTDIR/scale_out-runs.tar.gz at the
# end), which bench/scale_out.py reads for each run's line and the table.
# A batch too long for one command: run the parts (or workloads) in calls
# of their own on the same warm machine with one SCALE_OUT_RECORDS outside
# OUTDIR (e.g. /tmp/scale-out-runs); each call's table covers every run
# recorded there so far. The build (/tmp/scale-out-build) is kept too.
#
# On the GPU machine lockstep is built by bench/device_env.sh's recipe
# (CUDA, .peers for what the image lacks, Open MPI when there is one,
# NCCL_NVLS_ENABLE=0, mpirun allowed as root), unless SCALE_OUT_LOCKSTEP
# names a binary. mpirun runs with --bind-to none (SCALE_OUT_MPIRUN_FLAGS):
# by default Open MPI binds each of two ranks to one core, which would put
# the host threads of a rank's n/2 GPUs on that core.
#
# SCALE_OUT_CPU=1 rehearses it all on the CPU at small sizes, with
# SCALE_OUT_LOCKSTEP (default build/lockstep): the devices are OpenMP and
# n - 1 PoCL devices (POCL_DEVICES of n - 1 "pthread" in place of
# CUDA_VISIBLE_DEVICES, `--backend openmp,opencl:all` in place of
# cuda:all; a list naming a device twice is refused), mpirun
# --oversubscribe, and each device's memory taken as at most 16 MiB for
# the largest grid (SCALE_OUT_LARGEST_CAP, bytes).
#
# Exit status: 0, 1 when a run failed or a digest differed (the table says
# which), 2 for bad arguments.
set -u
here=$PWD
[ -f "$here/bench/scale_out.py" ] || { echo "scale_out.sh: run it from the repository root" >&2; exit 2; }
cpu=${SCALE_OUT_CPU:-0}
out=${2:-${OUT:-/tmp/scale-out}}
records=${SCALE_OUT_RECORDS:-$out/runs}
parts=${SCALE_OUT_PARTS:-strong weak largest}
workloads=${SCALE_OUT_WORKLOADS:-graveler bmn ray life3d life2d}
limit_s=${SCALE_OUT_TIMEOUT:-300}
[[ $limit_s =~ ^[1-9][0-9]*$ ]] || { echo "scale_out.sh: SCALE_OUT_TIMEOUT is seconds, not '$limit_s'" >&2; exit 2; }
want=${1:-}
[ -z "$want" ] || [[ $want =~ ^[1-9][0-9]*$ ]] || { echo "scale_out.sh: N is a device count (1, 2, ...), not '$want'" >&2; exit 2; }
for p in $parts; do
  case $p in strong|weak|largest) ;; *) echo "scale_out.sh: SCALE_OUT_PARTS: no part '$p' (strong weak largest)" >&2; exit 2;; esac
done
for w in $workloads; do
  case $w in graveler|bmn|ray|life3d|life2d) ;;
    *) echo "scale_out.sh: SCALE_OUT_WORKLOADS: no workload '$w' (graveler bmn ray life3d life2d)" >&2; exit 2;; esac
done
if [ "$cpu" = 1 ]; then
  ls=${SCALE_OUT_LOCKSTEP:-build/lockstep}
  [ -x "$ls" ] || { echo "scale_out.sh: no lockstep binary at $ls (build it, or set SCALE_OUT_LOCKSTEP)" >&2; exit 2; }
fi
mkdir -p "$out" "$records" || { echo "scale_out.sh: cannot make $out and $records" >&2; exit 2; }
exec > >(tee -a "$out/scale_out.log") 2>&1
t0=$(date +%s)
echo "== date: $(date -u +%Y-%m-%dT%H:%M:%SZ), $([ "$cpu" = 1 ] && echo "CPU rehearsal" || echo "GPU batch"), records in $records"
model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
echo "== host: $(nproc) cores, $model"
. bench/device_env.sh

# The machine: how many devices, the binary, mpirun's flags, the specs.
if [ "$cpu" = 1 ]; then
  have=64 # PoCL makes as many as it is asked for
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  read -ra mpirun_flags <<< "${SCALE_OUT_MPIRUN_FLAGS:---oversubscribe --bind-to none}"
  one_spec=openmp all_spec=openmp,opencl:all backends=openmp,opencl limit_var=POCL_DEVICES
  largest_side=256 largest_cap=${SCALE_OUT_LARGEST_CAP:-16777216}
else
  have=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  [ "$have" -ge 1 ] || { echo "scale_out.sh: nvidia-smi lists no GPU here" >&2; exit 2; }
  nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader || true
  nvidia-smi topo -m 2>/dev/null | head -10
  device_env "$here"
  device_mpi
  if [ -n "${SCALE_OUT_LOCKSTEP:-}" ]; then
    ls=$SCALE_OUT_LOCKSTEP
  else
    device_build "$here" /tmp/scale-out-build "$MPI" "$out" || exit 1
    echo "== built in $(( $(date +%s) - t0 )) s"
    ls=/tmp/scale-out-build/lockstep
  fi
  read -ra mpirun_flags <<< "${SCALE_OUT_MPIRUN_FLAGS:---bind-to none}"
  one_spec=cuda:0 all_spec=cuda:all backends=cuda limit_var=CUDA_VISIBLE_DEVICES
  largest_side=8192 largest_cap=${SCALE_OUT_LARGEST_CAP:-}
fi
[ -x "$ls" ] || { echo "scale_out.sh: no lockstep binary at $ls" >&2; exit 2; }
want=${want:-$have}
[ "$want" -le "$have" ] || { echo "== $want devices asked for, $have here: $have"; want=$have; }
counts=() c=1
while [ "$c" -le "$want" ]; do counts+=("$c"); c=$((c * 2)); done
[ "${counts[-1]}" -eq "$want" ] || counts+=("$want")
mpi=0
command -v mpirun >/dev/null 2>&1 && "$ls" devices --json | grep -q '"mpi":"' && mpi=1
if [ "$cpu" = 1 ]; then
  machine="a CPU rehearsal: OpenMP and PoCL devices sharing $(nproc) cores ($model)"
else
  machine="$(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | awk '{$1 = $1 "x"; print}' | paste -sd,), $(nproc) host cores"
fi
echo "$(date -u +%Y-%m-%d), $machine" > "$records/machine.txt"
echo "== $ls: $("$ls" version | head -1); counts ${counts[*]}; mpirun $([ $mpi = 1 ] && echo "${mpirun_flags[*]}" || echo "absent (or lockstep built without MPI): the MPI runs are left out")"

# What each workload runs: strong scaling, and Life's sides for weak.
if [ "$cpu" = 1 ]; then
  declare -A args=([graveler]="graveler --battles 1e8" [bmn]="bmn search --deals 1e6"
                   [ray]="ray --size 320x180 --spp 64" [life3d]="life --dims 3 --size 128 --steps 256"
                   [life2d]="life --dims 2 --size 4096 --steps 512")
  side3=128 side2=4096 steps3=256 steps2=512
else
  declare -A args=([graveler]="graveler --battles 2e12" [bmn]="bmn search --deals 8e9"
                   [ray]="ray --size 3840x2160 --spp 4096" [life3d]="life --dims 3 --size 2048 --steps 2048"
                   [life2d]="life --dims 2 --size 131072 --steps 2048")
  side3=2048 side2=131072 steps3=2048 steps2=2048
fi

# limit_to N: the environment that leaves N devices to a run: $limit, an
# array (VAR=VALUE, or nothing), and $shown, how the log writes it.
limit_to() {
  local n=$1 i list=()
  limit=() shown=
  if [ "$cpu" = 1 ]; then
    for ((i = 1; i < n; i++)); do list+=(pthread); done
    [ "$n" -gt 1 ] && limit=("POCL_DEVICES=${list[*]}") shown="POCL_DEVICES=\"${list[*]}\" "
  else
    for ((i = 0; i < n; i++)); do list+=("$i"); done
    limit=("CUDA_VISIBLE_DEVICES=$(IFS=,; echo "${list[*]}")") shown="${limit[0]} "
  fi
}

# measure LABEL WORKLOAD TITLE PART N MODE ARGS...: lockstep ARGS on N
# devices the MODE way (one, all, ranks, halves), its command printed
# first; the JSON, the stderr and the record kept, the run's line printed.
measure() {
  local label=$1 workload=$2 title=$3 part=$4 n=$5 mode=$6 spec=$all_spec start end rc
  shift 6
  local cmd=()
  limit_to "$n"
  case $mode in
    one) spec=$one_spec ;;
    ranks) cmd=(mpirun "${mpirun_flags[@]}" -np "$n") ;;
    halves) cmd=(mpirun "${mpirun_flags[@]}" -np 2) ;;
  esac
  [ ${#cmd[@]} -gt 0 ] && [ ${#limit[@]} -gt 0 ] && cmd+=(-x "$limit_var")
  cmd+=("$ls" "$@" --backend "$spec" --json --quiet)
  [ "$workload" = graveler ] || [ "$workload" = bmn ] || [ "$workload" = ray ] || cmd+=(--timings)
  echo "\$ $shown${cmd[*]}"
  start=$(date +%s.%N)
  env "${limit[@]}" timeout --foreground "$limit_s" "${cmd[@]}" > "$records/$label.json" 2> "$records/$label.err"
  rc=$?
  end=$(date +%s.%N)
  [ -s "$records/$label.err" ] && tail -5 "$records/$label.err"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$workload" "$title" "$part" "$n" "$mode" "$rc" \
    "$start" "$end" "$shown${cmd[*]}" >> "$records/runs.tsv"
  python3 bench/scale_out.py line "$records" "$label"
}

# every_way LABEL WORKLOAD TITLE PART N ARGS...: one process on N devices,
# N ranks, and two ranks of N/2 (strong scaling only, N >= 4).
every_way() {
  local label=$1 workload=$2 title=$3 part=$4 n=$5
  shift 5
  if [ "$n" -eq 1 ]; then
    measure "$label-1-one" "$workload" "$title" "$part" 1 one "$@"
    return
  fi
  measure "$label-$n-all" "$workload" "$title" "$part" "$n" all "$@"
  [ $mpi = 1 ] || return
  measure "$label-$n-ranks" "$workload" "$title" "$part" "$n" ranks "$@"
  [ "$part" = strong ] && [ "$n" -ge 4 ] && [ $((n % 2)) -eq 0 ] &&
    measure "$label-$n-halves" "$workload" "$title" "$part" "$n" halves "$@"
}

for part in $parts; do
  case $part in
    strong)
      echo "== strong scaling: every workload on ${counts[*]} devices"
      for w in $workloads; do
        read -ra a <<< "${args[$w]}"
        for n in "${counts[@]}"; do every_way "$w" "$w" "${args[$w]}" strong "$n" "${a[@]}"; done
      done ;;
    weak)
      echo "== weak scaling: Life's grid n times larger along the slab axis on n devices"
      for w in life3d life2d; do
        [[ " $workloads " == *" $w "* ]] || continue
        # Against the one-device run of strong scaling, run here when absent.
        [ -s "$records/$w-1-one.json" ] ||
          { read -ra a <<< "${args[$w]}"; every_way "$w" "$w" "${args[$w]}" strong 1 "${a[@]}"; }
        for n in "${counts[@]:1}"; do
          if [ $w = life3d ]; then
            size=${side3}x${side3}x$((side3 * n)) steps=$steps3
            title="life --dims 3 --size ${side3}x${side3}x(${side3} N) --steps $steps3"
          else
            size=${side2}x$((side2 * n)) steps=$steps2 title="life --dims 2 --size ${side2}x(${side2} N) --steps $steps2"
          fi
          every_way "weak-$w" "$w" "$title" weak "$n" life --dims "${w:4:1}" --size "$size" --steps "$steps"
        done
      done ;;
    largest)
      n=${counts[-1]}
      limit_to "$n"
      env "${limit[@]}" "$ls" devices --json > "$records/devices.json" ||
        { echo "scale_out.sh: lockstep devices --json failed" >&2; exit 1; }
      planes=$(python3 bench/scale_out.py planes "$records/devices.json" "$backends" "$n" \
               $((largest_side * largest_side)) ${largest_cap:+"$largest_cap"}) || exit 1
      gib=$(awk -v c="$((largest_side * largest_side))" -v z="$planes" 'BEGIN{printf "%.3g", c * z / 8 / 1073741824}')
      echo "== the largest grid on $n devices: ${largest_side}x${largest_side}x$planes, $gib GiB a generation, 8 generations"
      title="life --dims 3 --size ${largest_side}x${largest_side}x$planes --steps 8 ($gib GiB a generation)"
      every_way largest largest "$title" largest "$n" life --dims 3 --size "${largest_side}x${largest_side}x$planes" --steps 8 ;;
  esac
done

echo "== summary"
python3 bench/scale_out.py table "$records"
rc=$?
tar -C "$records" -czf "$out/scale_out-runs.tar.gz" . && [ "$records" = "$out/runs" ] && rm -rf "$records"
echo "== done in $(( $(date +%s) - t0 )) s"
exit $rc
