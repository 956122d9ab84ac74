#!/usr/bin/env bash
# tools/build.sh [BUILDDIR] [meson options...] - configures (once) and
# builds lockstep with every backend this machine can compile: CUDA too
# whenever nvcc is found, even with no GPU (the CUDA backend then reports
# itself unavailable at run time). Says on stderr how far the build is
# (a fresh build takes minutes): on a terminal one line, redrawn at each
# step; else a line at every tenth of the steps. meson's and ninja's own
# output go to BUILDDIR.setup.log and BUILDDIR.ninja.log, whose end is
# shown when a step fails.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
export PATH="$PATH:/usr/local/cuda/bin"
cuda=auto
command -v nvcc >/dev/null 2>&1 && cuda=enabled

# Reads ninja's output, its "[DONE/TOTAL]" status lines, and says how far
# the build is on stderr.
show_progress() {
  local tty=0 shown=0 line done total percent
  [ -t 2 ] && tty=1
  while IFS= read -r line; do
    [[ $line =~ ^\[([0-9]+)/([0-9]+)\] ]] || continue
    done=${BASH_REMATCH[1]} total=${BASH_REMATCH[2]}
    percent=$((100 * done / total))
    if [ "$tty" = 1 ]; then
      printf '\rtools/build.sh: building %s: step %d of %d (%d%%), %d s ' "$build" "$done" "$total" "$percent" \
        "$SECONDS" >&2
    elif [ $((percent / 10)) -gt "$shown" ] || [ "$done" = "$total" ]; then
      shown=$((percent / 10))
      printf 'tools/build.sh: building %s: step %d of %d (%d%%), %d s\n' "$build" "$done" "$total" "$percent" \
        "$SECONDS" >&2
    fi
  done
  [ "$tty" = 0 ] || printf '\n' >&2
}

SECONDS=0
if [ ! -f "$build/build.ninja" ]; then
  echo "tools/build.sh: configuring $build (meson setup)" >&2
  meson setup "$build" --wrap-mode=nodownload -Dcuda=$cuda "$@" >"$build.setup.log" 2>&1 || { cat "$build.setup.log"; exit 1; }
fi
# ninja prints a status line for each step whatever its output is.
set +e
NINJA_STATUS='[%f/%t] ' ninja -C "$build" 2>&1 | tee "$build.ninja.log" | show_progress
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  tail -50 "$build.ninja.log"
  exit 1
fi
grep -q '^ninja: no work to do' "$build.ninja.log" && echo "tools/build.sh: $build is up to date" >&2
exit 0
