#!/usr/bin/env bash
# tools/deps.sh [--tests] [--print] - installs the Debian 12 packages lockstep needs
# that are missing (nothing when all are there, and then no root is needed).
# Uses sudo when not root.
#   build:   gcc, meson, ninja, pkg-config, python3, SQLite (checkpoints),
#            xxHash (the fast hash, header-only)
#   OpenCL:  the ICD loader and headers, and PoCL so that OpenCL runs on
#            the CPU when no GPU driver is present
#   images:  libpng (PNG of the raytracer and of 2D Life grids; meson falls back to subprojects/libpng.wrap
#            only where a wrap was fetched: tools/build.sh never downloads); giflib (animated GIFs of Life
#            runs; optional to meson: without it .gif output is refused)
#   MPI:     Open MPI (graveler, bmn search, life and ray across the ranks of a job;
#            the tests run mpirun with 1, 2 and 3 ranks on this machine)
# With --tests (tools/test.sh), what only the test suite needs as well:
#   Random123 (known-answer tests of the generator); clang and its runtime
#   libraries for the libFuzzer harnesses (tools/fuzz.sh); Oclgrind, a third
#   OpenCL implementation that checks every memory access and data race of
#   the kernels (tests/oclgrind.py); groff, to render the man page
#   (tests/install.py); Golly, whose bgolly is Life's outside reference
#   (tests/life_golly.py); pip, which fetches Intel's OpenCL CPU runtime
#   (below)
#   Intel's OpenCL CPU runtime, a fourth OpenCL implementation the tests
#   run beside PoCL and Oclgrind (tests/intel_opencl.py): no Debian package
#   has it, so it comes from the Python package index (intel-opencl-rt, a
#   pinned version and hash), unpacked into .deps/intel-opencl/ of this
#   checkout (git-ignored; no system file is changed). Without the network
#   it is left out, with a note, and its tests are skipped.
# CUDA is not a Debian package here: install NVIDIA's toolkit for nvcc; the
# build finds it on PATH or in /usr/local/cuda.
set -eu
pkgs="gcc libc6-dev meson ninja-build pkg-config python3 libsqlite3-dev libxxhash-dev ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo libpng-dev libgif-dev openmpi-bin libopenmpi-dev"
test_pkgs="librandom123-dev clang libclang-rt-dev oclgrind groff-base golly python3-pip"
print=0
tests=0
for arg in "$@"; do
  case "$arg" in
    --tests) pkgs="$pkgs $test_pkgs"; tests=1 ;;
    --print) print=1 ;;  # the packages, one a line; nothing is installed
    *) echo "usage: tools/deps.sh [--tests] [--print]" >&2; exit 2 ;;
  esac
done
if [ "$print" = 1 ]; then
  printf '%s\n' $pkgs
  exit 0
fi
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "tools/deps.sh: installing:$missing" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

[ "$tests" = 1 ] || exit 0
bash "$(dirname "$0")/intel_opencl.sh"
