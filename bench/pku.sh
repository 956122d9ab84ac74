#!/usr/bin/env bash
# bench/pku.sh LOCKSTEP [ANSWER...] - the three PKU HPCGame problem G cases
# (M = 256, N = 2048; 512, 1024; 1024, 1024), whole process (read, compute,
# write) as the contest's judge times it: `lockstep life IN OUT N` on each
# GPU backend, and for each ANSWER given a contest program built from it
# (e.g. the official answer.cu, tkob-vh's answer_v2.cu, compiled with nvcc
# -O3 -arch=sm_90) on the same input; the outputs must be byte-identical.
set -u
ls=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
refs=()
for answer in "$@"; do
  exe="$dir/$(basename "$answer" .cu)"
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -o "$exe" "$answer" 2>/dev/null && refs+=("$exe")
done
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
  # The other durability choice (README: --sync), for the largest case.
  if [ "$m" = 1024 ]; then
    t0=$EPOCHREALTIME
    $ls life "$in" "$dir/out-sync.data" "$n" --backend cuda --sync --quiet >/dev/null
    t1=$EPOCHREALTIME
    echo "M=$m N=$n lockstep life IN OUT N --backend cuda --sync: $(awk "BEGIN{printf \"%.3f\", $t1 - $t0}") s whole process"
    cmp -s "$dir/out-cuda.data" "$dir/out-sync.data" || echo "M=$m N=$n: --sync OUTPUT DIFFERS"
  fi
  for ref in "${refs[@]}"; do
    name=$(basename "$ref")
    t0=$EPOCHREALTIME
    kernel_ms=$("$ref" "$in" "$dir/out-ref.data" "$n")
    t1=$EPOCHREALTIME
    echo "M=$m N=$n contest $name: $(awk "BEGIN{printf \"%.3f\", $t1 - $t0}") s whole process, kernel $kernel_ms ms (its own clock)"
    cmp -s "$dir/out-cuda.data" "$dir/out-ref.data" && echo "M=$m N=$n: $name output byte-identical" ||
      echo "M=$m N=$n: $name OUTPUT DIFFERS"
  done
  [ -n "$nv" ] && { cmp -s "$dir/out-cuda.data" "$dir/out-$nv.data" && echo "M=$m N=$n: cuda and $nv identical" ||
    echo "M=$m N=$n: cuda and $nv DIFFER"; }
done
