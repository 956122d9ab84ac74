#!/usr/bin/env bash
# tools/fuzz.sh [SECONDS] - builds the libFuzzer harnesses of tests/fuzz/
# with clang (Debian: clang, libclang-rt-dev) under AddressSanitizer and
# UBSan into build-fuzz/, and runs each for SECONDS (default 30) from its
# seed corpus in tests/fuzz/corpus/NAME (new inputs go to a scratch copy,
# not into the repository). Prints one line per harness, "fuzz NAME: ok"
# or "fuzz NAME: FAILED ...", and exits 1 if any crashed or did not build.
# A crashing input is kept as build-fuzz/crash-NAME-* for replay:
#   build-fuzz/fuzz_NAME build-fuzz/crash-NAME-...
set -u
cd "$(dirname "$0")/.."
secs=${1:-30}
out=build-fuzz
mkdir -p "$out"
cc=${CLANG:-clang}
flags="-g -O1 -std=c17 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -Isrc -Isrc/set -Isrc/algo -Isrc/kernels -Isrc/workloads -Isrc/workloads/bmn"
bmn="src/workloads/bmn/bmn_host.c"
ckpt="src/store.c src/error.c src/workloads/bmn/bmn_checkpoint.c src/workloads/bmn/bmn_topk.c $bmn -lsqlite3"
life="src/error.c src/workloads/life/life_format.c src/workloads/life/life_io.c src/workloads/life/life_text.c src/workloads/life/life_png.c src/workloads/life/life_mc.c
      src/workloads/life/life_grid.c src/workloads/life/life_rule.c src/output.c src/file_pass.c src/hash.c src/numbers.c -Isrc/workloads/life -lpng"
declare -A srcs=([deal]="$bmn" [checkpoint]="$ckpt" [life]="$life")
failed=0
for name in deal checkpoint life; do
  bin=$out/fuzz_$name
  # shellcheck disable=SC2086
  if ! $cc $flags -o "$bin" "tests/fuzz/fuzz_$name.c" ${srcs[$name]} >"$out/$name.build.log" 2>&1; then
    echo "fuzz $name: FAILED to build (see $out/$name.build.log)"
    failed=1
    continue
  fi
  work=$(mktemp -d)
  cp tests/fuzz/corpus/"$name"/* "$work"/
  if "$bin" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -artifact_prefix="$out/crash-$name-" \
       "$work" >"$out/$name.log" 2>&1; then
    echo "fuzz $name: ok ($(grep -o 'Done [0-9]* runs' "$out/$name.log" | tail -1 | cut -d' ' -f2) runs in ${secs} s)"
  else
    echo "fuzz $name: FAILED (see $out/$name.log; the input is $out/crash-$name-*)"
    failed=1
  fi
  rm -rf "$work"
done
exit $failed
