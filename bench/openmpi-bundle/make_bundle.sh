#!/bin/bash
# make_bundle.sh - (re)build a relocatable Open MPI 4.1.4 bundle from the
# Debian 12 packages openmpi-bin / libopenmpi-dev / libopenmpi3 / libpmix2 /
# libhwloc15 / libevent-*-2.1-7 installed on THIS machine.
#
# Usage:  ./make_bundle.sh [DEST]      (DEST defaults to the script's directory)
#
# The bundle is laid out as a normal prefix:
#   bin/                orterun (+ mpirun, mpiexec links), orted, ompi_info,
#                       opal_wrapper (+ mpicc link)
#   lib/                libmpi, libopen-rte, libopen-pal, libmca_common_*,
#                       libmpi_cxx, libhwloc, libevent_core/pthreads, libpmix,
#                       libmunge
#   lib/compat/         libz.so.1, libudev.so.1 (only put on LD_LIBRARY_PATH by
#                       env.sh when the target system lacks them)
#   lib/openmpi/        Open MPI MCA plugins (single-host subset)
#   lib/pmix/           PMIx MCA plugins
#   lib/pkgconfig/      ompi-c.pc, ompi.pc, mpi-c.pc, mpi.pc, ompi-cxx.pc,
#                       mpi-cxx.pc  (prefix=${pcfiledir}/../..)
#   include/            mpi.h, mpi-ext.h, mpi_portable_platform.h, C++ headers
#   share/openmpi/      help files, wrapper data
#   share/pmix/         PMIx help files
#   etc/                openmpi-mca-params.conf, openmpi-default-hostfile,
#                       pmix-mca-params.conf
# env.sh, selftest.sh, test/hello.c, README.txt are kept (not regenerated).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEST=${1:-$HERE}
mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)

SYSLIB=/usr/lib/x86_64-linux-gnu
OMPI_PLUGINS=$SYSLIB/openmpi/lib/openmpi3
OMPI_INC=$SYSLIB/openmpi/include
PMIX_ROOT=$SYSLIB/pmix2
OLD_RUNPATH=/usr/lib/x86_64-linux-gnu/openmpi/lib

echo "== sanity"
dpkg-query -W -f='${Package} ${Version}\n' openmpi-bin libopenmpi3 libopenmpi-dev libpmix2 libhwloc15 libevent-core-2.1-7 libevent-pthreads-2.1-7
dpkg-query -W -f='${Version}' libopenmpi3 | grep -q '^4\.1\.4' || { echo "expected Open MPI 4.1.4"; exit 1; }

echo "== clean $DEST"
rm -rf "$DEST"/bin "$DEST"/lib "$DEST"/include "$DEST"/share "$DEST"/etc

mkdir -p "$DEST"/bin "$DEST"/lib/compat "$DEST"/lib/openmpi "$DEST"/lib/pmix \
         "$DEST"/lib/pkgconfig "$DEST"/include "$DEST"/share/openmpi \
         "$DEST"/share/pmix "$DEST"/etc

# copy_lib SONAME_PATH DIR [devlink]: copy the real file of a shared library,
# recreate its SONAME link (and optionally the unversioned .so dev link).
copy_lib() {
    local src=$1 dir=$2 dev=${3:-}
    local real soname base
    real=$(readlink -f "$src")
    soname=$(readelf -d "$real" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    base=$(basename "$real")
    install -m 0755 "$real" "$dir/$base"
    [ "$soname" != "$base" ] && ln -sf "$base" "$dir/$soname"
    if [ -n "$dev" ]; then
        ln -sf "$soname" "$dir/${soname%%.so*}.so"
    fi
}

echo "== binaries"
for b in orterun orted ompi_info opal_wrapper; do
    install -m 0755 "/usr/bin/$b" "$DEST/bin/$b"
done
ln -sf orterun "$DEST/bin/mpirun"
ln -sf orterun "$DEST/bin/mpiexec"
ln -sf opal_wrapper "$DEST/bin/mpicc"

echo "== core libraries"
for l in libmpi.so.40 libopen-rte.so.40 libopen-pal.so.40 libmpi_cxx.so.40 \
         libmca_common_sm.so.40 libmca_common_ompio.so.41; do
    copy_lib "$SYSLIB/$l" "$DEST/lib" dev
done
# third-party libraries Open MPI was built against (must be these exact builds)
for l in libhwloc.so.15 libevent_core-2.1.so.7 libevent_pthreads-2.1.so.7 \
         libmunge.so.2; do
    copy_lib "$SYSLIB/$l" "$DEST/lib"
done
copy_lib "$PMIX_ROOT/lib/libpmix.so.2" "$DEST/lib"
# generic system libs: the target (Ubuntu 24.04) normally has newer ones;
# env.sh only adds lib/compat to LD_LIBRARY_PATH when they are missing.
for l in libz.so.1 libudev.so.1; do
    copy_lib "$SYSLIB/$l" "$DEST/lib/compat"
done

echo "== MCA plugins (single-host subset)"
# Dropped: OpenSHMEM, UCX, libfabric (ofi), PSM/PSM2, InfiniBand (openib),
# monitoring, SLURM/Flux/JSM/GridEngine glue, netlink reachability (libnl),
# pml cm (needs an MTL), vprotocol, osc pt2pt (disabled by Debian too),
# the btl "sm" stub, the debugger message-queue DLL.
DROP_RE='^(mca_(atomic|memheap|scoll|spml|sshmem)_.*|.*ucx.*|.*ofi.*|.*psm.*|mca_btl_openib|mca_btl_sm|.*monitoring.*|.*slurm.*|.*flux.*|.*jsm.*|.*gridengine.*|mca_ras_simulator|mca_reachable_netlink|mca_pml_cm|mca_vprotocol_.*|mca_osc_pt2pt|libompi_dbg_msgq)\.so$'
kept=0; dropped=0
for f in "$OMPI_PLUGINS"/*.so; do
    n=$(basename "$f")
    if [[ $n =~ $DROP_RE ]]; then dropped=$((dropped+1)); continue; fi
    install -m 0755 "$f" "$DEST/lib/openmpi/$n"; kept=$((kept+1))
done
echo "   kept $kept, dropped $dropped"
for f in "$PMIX_ROOT"/lib/pmix/*.so; do
    install -m 0755 "$f" "$DEST/lib/pmix/"
done

echo "== headers"
for h in mpi.h mpi-ext.h mpi_portable_platform.h; do
    install -m 0644 "$OMPI_INC/$h" "$DEST/include/$h"
done
mkdir -p "$DEST/include/openmpi/mpiext" "$DEST/include/openmpi/ompi/mpi"
cp -a "$OMPI_INC/openmpi/mpiext/." "$DEST/include/openmpi/mpiext/"
cp -a "$OMPI_INC/openmpi/ompi/mpi/cxx" "$DEST/include/openmpi/ompi/mpi/"

echo "== share, etc"
cp -a /usr/share/openmpi/help-*.txt "$DEST/share/openmpi/"
cp -a /usr/share/openmpi/amca-param-sets "$DEST/share/openmpi/"
for w in mpicc mpicxx mpic++ opalcc; do
    cp -a "/usr/share/openmpi/$w-wrapper-data.txt" "$DEST/share/openmpi/"
done
cp -a "$PMIX_ROOT"/share/pmix/help-*.txt "$DEST/share/pmix/"
cp -a /etc/openmpi/openmpi-default-hostfile "$DEST/etc/"
# HWLOC_PLUGINS_PATH (env.sh) points here so no system hwloc plugins load
mkdir -p "$DEST/lib/hwloc"
echo "intentionally empty: HWLOC_PLUGINS_PATH points here (no hwloc plugins)" > "$DEST/lib/hwloc/README"

cat > "$DEST/etc/openmpi-mca-params.conf" <<'EOF'
# MCA defaults for the relocatable single-host Open MPI bundle.
# (Read from $OPAL_SYSCONFDIR; OMPI_MCA_* environment variables override.)
btl = self,vader,tcp
pml = ob1
btl_base_warn_component_unused = 0
# single host only: launch local processes without ssh/rsh
plm = isolated
EOF

cat > "$DEST/etc/pmix-mca-params.conf" <<'EOF'
# PMIx defaults for the relocatable bundle (read from $PMIX_SYSCONFDIR).
# Debian's copy hard-codes mca_base_component_path to the system PMIx plugin
# directory; the bundle instead finds lib/pmix via PMIX_PKGLIBDIR (env.sh).
EOF

echo "== pkg-config files"
for pc in ompi-c ompi ompi-cxx; do
    sed -e 's|^prefix=.*|prefix=${pcfiledir}/../..|' \
        -e 's|^includedir=.*|includedir=${prefix}/include|' \
        -e 's|^libdir=.*|libdir=${prefix}/lib|' \
        "$SYSLIB/openmpi/lib/pkgconfig/$pc.pc" > "$DEST/lib/pkgconfig/$pc.pc"
done
# Debian's alternative names
ln -sf ompi-c.pc "$DEST/lib/pkgconfig/mpi-c.pc"
ln -sf ompi.pc "$DEST/lib/pkgconfig/mpi.pc"
ln -sf ompi-cxx.pc "$DEST/lib/pkgconfig/mpi-cxx.pc"

echo "== rewrite RUNPATH ($OLD_RUNPATH -> \$ORIGIN-relative)"
python3 - "$DEST" "$OLD_RUNPATH" <<'PY'
import os, struct, sys
dest, old = sys.argv[1], sys.argv[2].encode()

def patch(path, new):
    with open(path, 'r+b') as f:
        data = bytearray(f.read())
        if data[:4] != b'\x7fELF' or data[4] != 2:
            return 0
        shoff, = struct.unpack_from('<Q', data, 0x28)
        shentsize, shnum = struct.unpack_from('<HH', data, 0x3a)
        secs = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize)
                for i in range(shnum)]
        n = 0
        for s in secs:
            if s[1] != 6:          # SHT_DYNAMIC
                continue
            strtab = secs[s[6]]    # sh_link -> .dynstr
            for off in range(s[4], s[4] + s[5], 16):
                tag, val = struct.unpack_from('<qQ', data, off)
                if tag in (15, 29):            # DT_RPATH, DT_RUNPATH
                    p = strtab[4] + val
                    end = data.index(b'\0', p)
                    cur = bytes(data[p:end])
                    if cur != old:
                        raise SystemExit(f'{path}: unexpected runpath {cur!r}')
                    nb = new.encode()
                    assert len(nb) <= len(cur)
                    data[p:end] = nb + b'\0' * (len(cur) - len(nb))
                    n += 1
        if n:
            f.seek(0); f.write(data)
        return n

total = 0
for sub, new in (('bin', '$ORIGIN/../lib'), ('lib', '$ORIGIN'),
                 ('lib/openmpi', '$ORIGIN/..'), ('lib/pmix', '$ORIGIN/..')):
    d = os.path.join(dest, sub)
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name)
        if os.path.isfile(p) and not os.path.islink(p):
            total += patch(p, new)
print(f'   patched {total} RUNPATH entries')
PY

echo "== dependency check (every non-glibc DT_NEEDED must resolve inside the bundle)"
GLIBC_RE='^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|/lib64/ld-linux-x86-64\.so\.2|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libutil\.so\.1|libstdc\+\+\.so\.6|libgcc_s\.so\.1)$'
fail=0
while IFS= read -r -d '' f; do
    file -b "$f" | grep -q '^ELF' || continue
    while read -r name _ path _; do
        [[ $name =~ $GLIBC_RE ]] && continue
        case "$path" in
            "$DEST"/*) ;;
            *) echo "   UNRESOLVED/OUTSIDE: $f needs $name -> $path"; fail=1 ;;
        esac
    done < <(LD_LIBRARY_PATH="$DEST/lib:$DEST/lib/compat" ldd "$f" 2>/dev/null | grep '=>' )
done < <(find "$DEST/bin" "$DEST/lib" -type f -print0)
[ $fail = 0 ] && echo "   ok"

echo "== leftover absolute paths in text files"
if grep -rIl -e /usr/lib/x86_64-linux-gnu/openmpi -e /usr/share/openmpi \
        -e /etc/openmpi -e /pmix2/ "$DEST"/etc "$DEST"/share "$DEST"/lib/pkgconfig; then
    echo "   ^^^ files above still reference system paths"; fail=1
else
    echo "   none"
fi

if [ "$DEST" != "$HERE" ]; then
    cp "$HERE/env.sh" "$HERE/selftest.sh" "$DEST"/ && mkdir -p "$DEST/test" && cp "$HERE/test/hello.c" "$HERE/test/meson.build" "$DEST/test/"
fi
chmod -R u+w,go-w "$DEST"/bin "$DEST"/lib "$DEST"/include "$DEST"/share "$DEST"/etc
echo "== size"
du -sh --apparent-size "$DEST"
du -sh "$DEST"
exit $fail
