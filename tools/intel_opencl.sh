#!/usr/bin/env bash
# tools/intel_opencl.sh [DIR] - Intel's OpenCL CPU runtime, for this user
# only: no system file is changed and no root is needed. DIR defaults to
# .deps/intel-opencl in this checkout (git-ignored); tools/deps.sh --tests
# runs this, and tests/intel_opencl.py runs conformance and the
# cross-checks on the device it adds.
#
#   DIR/lib/      libintelocl.so and the files it loads (its runpath is
#                 $ORIGIN, so they sit beside it)
#   DIR/vendors/  an ICD directory: a copy of each of the system's ICD files
#                 (/etc/OpenCL/vendors/*.icd, written anew on every run)
#                 and intel-cpu.icd naming DIR/lib/libintelocl.so, so that
#                 OCL_ICD_VENDORS=DIR/vendors lists PoCL and Intel together:
#
#     OCL_ICD_VENDORS=$PWD/.deps/intel-opencl/vendors build/lockstep devices
#
# The runtime is three wheels of the Python package index, pinned and
# checked by their hashes: intel-opencl-rt, and the libraries it needs
# from intel-cmplr-lib-rt (Intel's math and support libraries) and tbb
# (libtbb.so.12); its declared dependency intel-cmplr-lic-rt holds nothing
# it loads. Of their files only those the runtime loads are kept (about
# 430 MB of 800). Run again, it keeps a lib/ of the same versions.
# Without the network or pip it says so and exits 0: the tests that need
# the runtime are then skipped.
set -eu
wheels="intel-opencl-rt==2026.2.0 --hash=sha256:6b6215a420598b4999ee01caca6d5cbe106aa4155c46c52377619c5aafce9f67
intel-cmplr-lib-rt==2026.2.0 --hash=sha256:9f713083073a820d2496a6da8e8d4f3482aba6640f74521d25ea48dcebe72748
tbb==2023.2.0 --hash=sha256:7d80615b6e970f11671fa05b6eaa9483ac864fbfe525ac280271a78b37870b7c"
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(realpath -m "${1:-$root/.deps/intel-opencl}") # the ICD file names it whole
names=$(echo "$wheels" | cut -d" " -f1 | paste -sd" ")

# Writes DIR/vendors: the system's ICDs and Intel's.
write_vendors() {
  local vendors=$dir/vendors f
  mkdir -p "$vendors"
  rm -f "$vendors"/*.icd
  for f in /etc/OpenCL/vendors/*.icd; do
    [ -f "$f" ] && cp "$f" "$vendors/"
  done
  echo "$dir/lib/libintelocl.so" >"$vendors/intel-cpu.icd"
}

if [ "$(cat "$dir/lib/VERSION" 2>/dev/null)" = "$wheels" ]; then
  write_vendors
  exit 0
fi

if ! python3 -m pip --version >/dev/null 2>&1; then
  echo "tools/intel_opencl.sh: pip is not installed (Debian: python3-pip): Intel's OpenCL CPU runtime left out, its tests will be skipped" >&2
  exit 0
fi
mkdir -p "$(dirname "$dir")"
tmp=$(mktemp -d "$dir.partial.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "$wheels" >"$tmp/requirements.txt"
echo "tools/intel_opencl.sh: downloading Intel's OpenCL CPU runtime ($names: 273 MB)" >&2
if ! python3 -m pip download --quiet --no-deps --only-binary=:all: --require-hashes --retries 1 --timeout 30 \
    -r "$tmp/requirements.txt" -d "$tmp/wheel" >"$tmp/pip.log" 2>&1; then
  echo "tools/intel_opencl.sh: could not download $names (no network?): Intel's OpenCL CPU runtime left out, its tests will be skipped; pip said: $(grep -v '^\s*$' "$tmp/pip.log" | tail -1)" >&2
  exit 0
fi

# The files libintelocl.so loads, all in one directory for its runpath:
# the libraries it needs (ldd checks them below), its configuration, and
# for each instruction set (e9 SSE4.2, h8 AVX, l9 AVX2, z0 and z1
# AVX-512) the built-in functions and math library its compiler links
# kernels with; and the licences.
python3 - "$tmp/lib" "$tmp"/wheel/*.whl <<'EOF'
import os, re, shutil, sys, zipfile
dest, wheels = sys.argv[1], sys.argv[2:]
KEEP = re.compile(r'[^/]+\.data/data/(lib/(libintelocl\.so|libcommon_clang\.so\.[0-9.]+|libtbb\.so\.12|libimf\.so|'
                  r'libsvml\.so|libirng\.so|libintlc\.so\.5|libocl_svml_[a-z0-9]+\.so|cl\.cfg|clbltfn[a-z0-9]+\.rtl|'
                  r'cllibrary[a-z0-9]*\.(rtl|o))|share/doc/(opencl|tbb)/licensing/[^/]+\.txt)$')
os.makedirs(dest)
kept = 0
for wheel in wheels:
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            if KEEP.match(info.filename):
                name = os.path.basename(info.filename)
                if name == 'third-party-programs.txt':
                    name = info.filename.split('-')[0] + '-' + name  # one a wheel
                with z.open(info) as src, open(os.path.join(dest, name), 'wb') as out:
                    shutil.copyfileobj(src, out)
                kept += 1
if kept < 25:
    sys.exit('tools/intel_opencl.sh: the wheels hold only %d of the runtime\'s files' % kept)
EOF
rm -rf "$tmp/wheel"
if ! ldd "$tmp/lib/libintelocl.so" >"$tmp/ldd.log" 2>&1 || grep -q 'not found' "$tmp/ldd.log"; then
  echo "tools/intel_opencl.sh: libintelocl.so cannot be loaded:" >&2
  grep 'not found' "$tmp/ldd.log" >&2 || cat "$tmp/ldd.log" >&2
  exit 1
fi
echo "$wheels" >"$tmp/lib/VERSION"
rm -rf "$dir/lib"
mkdir -p "$dir"
mv "$tmp/lib" "$dir/lib"
write_vendors
echo "tools/intel_opencl.sh: Intel's OpenCL CPU runtime is in $dir (OCL_ICD_VENDORS=$dir/vendors)" >&2
