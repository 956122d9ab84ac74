#!/bin/bash
# selftest.sh - check the relocatable Open MPI bundle on this machine.
# Sources env.sh, builds test/hello.c with plain gcc + the bundle's pkg-config
# file (and, if meson+ninja exist, with meson's dependency('mpi')), then runs
# it with mpirun -np 2 --oversubscribe and -np 3 --oversubscribe.
# Prints PASS or FAIL at the end; exit status 0 on PASS.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=env.sh
. "$HERE/env.sh" || { echo "FAIL (env.sh)"; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ompi-selftest.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail=0
step() { echo; echo "---- $*"; }

step "bundle: $OMPI_BUNDLE"
echo "mpirun: $(command -v mpirun)"
echo "pkg-config ompi-c: $(pkg-config --modversion ompi-c 2>&1)"
echo "cflags/libs: $(pkg-config --cflags --libs ompi-c 2>&1)"

step "gcc build (pkg-config ompi-c)"
# shellcheck disable=SC2046
if gcc -O2 -Wall -o "$WORK/hello" "$HERE/test/hello.c" $(pkg-config --cflags --libs ompi-c); then
    echo "built $WORK/hello"
    ldd "$WORK/hello" | grep -E 'libmpi|libopen|libhwloc|libevent|libpmix|not found' | sed 's/ (0x.*//'
    ldd "$WORK/hello" | grep -q 'not found' && { echo "unresolved libraries"; fail=1; }
else
    echo "gcc build failed"; fail=1
fi

if command -v meson >/dev/null 2>&1 && command -v ninja >/dev/null 2>&1; then
    step "meson build (dependency('mpi', language: 'c'))"
    if meson setup "$WORK/mbuild" "$HERE/test" >"$WORK/meson.log" 2>&1 &&
       ninja -C "$WORK/mbuild" >>"$WORK/meson.log" 2>&1; then
        grep -E 'Run-time dependency|Dependency mpi|Found pkg-config' "$WORK/meson.log"
        echo "built $WORK/mbuild/hello"
    else
        cat "$WORK/meson.log"; echo "meson build failed"; fail=1
    fi
else
    echo; echo "---- meson/ninja not found: skipping meson build"
fi

run() {  # run NP EXE
    local np=$1 exe=$2 out rc n
    step "mpirun -np $np --oversubscribe $exe"
    out=$(timeout 120 mpirun -np "$np" --oversubscribe "$exe" 2>&1); rc=$?
    echo "$out"
    n=$(printf '%s\n' "$out" | grep -c -- '-> OK$')
    if [ "$rc" = 0 ] && [ "$n" = "$np" ]; then
        echo "[np=$np ok: $n ranks OK, rc=0]"
    else
        echo "[np=$np FAILED: $n/$np ranks OK, rc=$rc]"; fail=1
    fi
}
[ -x "$WORK/hello" ] && { run 2 "$WORK/hello"; run 3 "$WORK/hello"; }
[ -x "$WORK/mbuild/hello" ] && run 2 "$WORK/mbuild/hello"

echo
if [ "$fail" = 0 ]; then echo "PASS"; else echo "FAIL"; fi
exit "$fail"
