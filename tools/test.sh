#!/usr/bin/env bash
# tools/test.sh - the whole test suite on a fresh Debian 12 machine:
# install what is missing (tools/deps.sh --tests: the build's packages and
# the test suite's), build with every backend that compiles here,
# run every meson test suite (among them 'oclgrind': every OpenCL kernel
# under Oclgrind's memory and data-race checks, where any report fails the
# run), then rebuild with AddressSanitizer and
# UBSan and run the unit and conformance suites again, then run the
# fuzzers of tests/fuzz/ (tools/fuzz.sh, 30 s each). The last line is
# "N passed, N failed" (skipped tests, e.g. CUDA without a GPU, count as
# neither). It takes about 30 minutes on a 2-core machine (29 min on one
# that other builds kept busy) and says on stderr which of its phases
# starts, and how long it has run, as it goes.
set -u
cd "$(dirname "$0")/.."
SECONDS=0
PHASES=6

# How long the suite has run: "12 min 05 s".
elapsed() {
  printf '%d min %02d s' $((SECONDS / 60)) $((SECONDS % 60))
}

# Says which phase starts (N of PHASES, what it does) and the time so far.
phase() {
  local n=$1
  shift
  echo "tools/test.sh: phase $n of $PHASES, $*; $(elapsed) so far" >&2
}

echo "tools/test.sh: the whole suite, in $PHASES phases: about 30 minutes on a 2-core machine" >&2
phase 1 "the packages the build and the tests need"
bash tools/deps.sh --tests || { echo "0 passed, 1 failed"; exit 1; }
passed=0 failed=0 skipped=0

# Adds up one meson test run's summary.
tally() {
  local log=$1 ok fail to skip
  ok=$(awk '/^Ok:/{print $2}' "$log"); fail=$(awk '/^Fail:/{print $2}' "$log")
  to=$(awk '/^Timeout:/{print $2}' "$log"); skip=$(awk '/^Skipped:/{print $2}' "$log")
  [ -n "$ok" ] || { echo "tools/test.sh: no test summary in $log" >&2; failed=$((failed + 1)); return; }
  passed=$((passed + ok)); failed=$((failed + fail + to)); skipped=$((skipped + skip))
}

phase 2 "the build, with every backend that compiles here (tools/build.sh build)"
if bash tools/build.sh build; then
  phase 3 "every test suite (meson test -C build)"
  meson test -C build --print-errorlogs 2>&1 | tee build.test.log
  tally build.test.log
else
  echo "tools/test.sh: build failed" >&2
  failed=$((failed + 1))
fi

# Sanitizers: a debug build without CUDA (nothing can run it here). Its
# tests run with LeakSanitizer's suppressions, which tests/meson.build sets
# (the project's, and the OpenCL ICDs installed here).
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
phase 4 "the build with AddressSanitizer and UBSan (tools/build.sh build-asan)"
if bash tools/build.sh build-asan -Db_sanitize=address,undefined -Dbuildtype=debugoptimized -Dcuda=disabled; then
  phase 5 "the unit, conformance and scale suites under the sanitizers (meson test -C build-asan)"
  meson test -C build-asan --print-errorlogs --suite unit --suite conformance --suite scale 2>&1 | tee build-asan.test.log
  tally build-asan.test.log
else
  echo "tools/test.sh: sanitizer build failed" >&2
  failed=$((failed + 1))
fi
# Fuzzing: each libFuzzer harness of tests/fuzz/ for 30 s (clang, ASan); a
# crash, or a harness that does not build, counts as a failed test.
fuzz_log=build-fuzz.test.log
phase 6 "each fuzzer of tests/fuzz/ for 30 s (tools/fuzz.sh)"
bash tools/fuzz.sh 30 2>&1 | tee "$fuzz_log"
passed=$((passed + $(grep -c '^fuzz .*: ok' "$fuzz_log")))
failed=$((failed + $(grep -c '^fuzz .*: FAILED' "$fuzz_log")))
grep -q '^fuzz ' "$fuzz_log" || { echo "tools/test.sh: the fuzzers did not run" >&2; failed=$((failed + 1)); }
echo "tools/test.sh: done in $(elapsed)" >&2
echo "skipped: $skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
