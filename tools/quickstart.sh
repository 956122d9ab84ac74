#!/usr/bin/env bash
# tools/quickstart.sh - the main job on a fresh Debian 12 machine: install
# what is missing, build, list the devices, and run every workload on every
# available backend at a small size, cross-checked.
set -eu
cd "$(dirname "$0")/.."
bash tools/deps.sh
bash tools/build.sh build
build/lockstep devices
# 77: only one backend could run here (check says so), nothing to compare.
status=0
build/lockstep check all || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 77 ] || exit "$status"
