#!/usr/bin/env bash
# tools/quickstart.sh - the main job on a fresh Debian 12 machine: install
# what is missing, build (saying how far the build is), list the devices,
# and run every workload on every available backend at a small size,
# cross-checked. When ~/.local/bin is on PATH it installs lockstep there
# for this user (meson install, no root: the binary, `man lockstep` and
# the bash completion under ~/.local), so that `lockstep` and `man
# lockstep` work as the README writes them; else it installs nothing and
# its last lines say where the binary is and what to type.
set -eu
cd "$(dirname "$0")/.."
bash tools/deps.sh
bash tools/build.sh build

# Whether directory $1 is on PATH.
on_path() {
  case ":$PATH:" in
    *":$1:"* | *":$1/:"*) return 0 ;;
  esac
  return 1
}

prefix=$HOME/.local
installed=0
if on_path "$prefix/bin"; then
  echo "tools/quickstart.sh: installing lockstep in $prefix (its bin is on your PATH)" >&2
  meson configure build --prefix="$prefix" >build.configure.log 2>&1 || { cat build.configure.log; exit 1; }
  bash tools/build.sh build # what the prefix changes (the man page names the installed documentation)
  meson install -C build --no-rebuild --quiet
  installed=1
fi

build/lockstep devices
# 77: only one backend could run here (check says so), nothing to compare.
status=0
build/lockstep check all || status=$?

echo
if [ "$installed" = 1 ]; then
  echo "lockstep is installed in $prefix/bin, on your PATH: type \`lockstep --help\`, \`man lockstep\`"
  echo "(bash completes its commands and options in new shells)."
else
  echo "lockstep is $PWD/build/lockstep; nothing was installed, as $prefix/bin is not on your PATH."
  echo "To type \`lockstep\` and \`man lockstep\` as the README does, install it for yourself (no root):"
  echo "  mkdir -p $prefix/bin && meson configure build --prefix=$prefix && meson install -C build"
  echo "and log in again (Debian's ~/.profile puts ~/.local/bin on PATH when it exists). Or, in this shell only:"
  echo "  export PATH=\"$PWD/build:\$PATH\"; man -l $PWD/build/docs/lockstep.1"
fi
[ "$status" -eq 0 ] || [ "$status" -eq 77 ] || exit "$status"
