#!/usr/bin/env bash
# tools/build.sh [BUILDDIR] [meson options...] - configures (once) and
# builds lockstep with every backend this machine can compile: CUDA too
# whenever nvcc is found, even with no GPU (the CUDA backend then reports
# itself unavailable at run time).
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
export PATH="$PATH:/usr/local/cuda/bin"
cuda=auto
command -v nvcc >/dev/null 2>&1 && cuda=enabled
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" --wrap-mode=nodownload -Dcuda=$cuda "$@" >"$build.setup.log" 2>&1 || { cat "$build.setup.log"; exit 1; }
fi
ninja -C "$build" >"$build.ninja.log" 2>&1 || { tail -50 "$build.ninja.log"; exit 1; }
