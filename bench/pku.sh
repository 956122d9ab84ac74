#!/usr/bin/env bash
# bench/pku.sh LOCKSTEP [ANSWER] - the three PKU HPCGame problem G cases
# (M = 256, N = 2048; 512, 1024; 1024, 1024), whole process (read, compute,
# write) as the contest's judge times it: `lockstep life IN OUT N` on each
# GPU backend, and, when ANSWER is given, a contest program built from it
# (e.g. the official answer.cu, compiled with nvcc -O3 -arch=sm_90) on the
# same input; the outputs must be byte-identical.
set -u
ls=$1 answer=${2:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ref=""
if [ -n "$answer" ]; then
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -o "$dir/answer" "$answer" && ref="$dir/answer"
fi
nv=$($ls devices --json | python3 "$(dirname "$0")/nvidia_cl_device.py")
for c in "256 2048" "512 1024" "1024 1024"; do
  set -- $c
  m=$1 n=$2 in="$dir/in$1.data"
  $ls life --dims 3 --size "$m" --steps 0 --density 0.2 --seed 1 --out "$in" --quiet >/dev/null || exit 1
  for b in cuda $nv; do
    t0=$EPOCHREALTIME
    $ls life "$in" "$dir/out-$b.data" "$n" --backend "$b" --quiet >/dev/null
    t1=$EPOCHREALTIME
    echo "M=$m N=$n lockstep life IN OUT N --backend $b: $(awk "BEGIN{printf \"%.3f\", $t1 - $t0}") s whole process"
  done
  if [ -n "$ref" ]; then
    t0=$EPOCHREALTIME
    kernel_ms=$("$ref" "$in" "$dir/out-ref.data" "$n")
    t1=$EPOCHREALTIME
    echo "M=$m N=$n contest answer: $(awk "BEGIN{printf \"%.3f\", $t1 - $t0}") s whole process, kernel $kernel_ms ms (its own clock)"
    cmp -s "$dir/out-cuda.data" "$dir/out-ref.data" && echo "M=$m N=$n: outputs byte-identical" ||
      echo "M=$m N=$n: OUTPUTS DIFFER"
  fi
  [ -n "$nv" ] && { cmp -s "$dir/out-cuda.data" "$dir/out-$nv.data" && echo "M=$m N=$n: cuda and $nv identical" ||
    echo "M=$m N=$n: cuda and $nv DIFFER"; }
done
