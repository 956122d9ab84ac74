# env.sh - source this (bash or zsh) to use the relocatable Open MPI bundle:
#     . /path/to/openmpi/env.sh
# Everything is derived from this file's own location, so the directory can be
# copied anywhere. Pre-set OMPI_MCA_* values are respected (not overwritten).

if [ -n "${BASH_SOURCE:-}" ]; then
    _ob_src=${BASH_SOURCE[0]}
elif [ -n "${ZSH_VERSION:-}" ]; then
    eval '_ob_src=${(%):-%x}'
elif [ -n "${OMPI_BUNDLE:-}" ]; then
    _ob_src=$OMPI_BUNDLE/env.sh
else
    echo "env.sh: cannot locate myself; use bash/zsh or set OMPI_BUNDLE=/path/to/bundle" >&2
    return 1 2>/dev/null || exit 1
fi
OMPI_BUNDLE=$(cd "$(dirname "$_ob_src")" && pwd -P)
export OMPI_BUNDLE
unset _ob_src

# --- Open MPI relocation: OPAL_PREFIX plus explicit dirs, because the Debian
#     build's compiled-in libdir/pkglibdir/sysconfdir do not follow the
#     plain <prefix>/lib, <prefix>/etc layout used by this bundle ------------
export OPAL_PREFIX="$OMPI_BUNDLE"
export OPAL_EXEC_PREFIX="$OMPI_BUNDLE"
export OPAL_BINDIR="$OMPI_BUNDLE/bin"
export OPAL_LIBDIR="$OMPI_BUNDLE/lib"
export OPAL_PKGLIBDIR="$OMPI_BUNDLE/lib/openmpi"
export OPAL_INCLUDEDIR="$OMPI_BUNDLE/include"
export OPAL_PKGINCLUDEDIR="$OMPI_BUNDLE/include/openmpi"
export OPAL_DATAROOTDIR="$OMPI_BUNDLE/share"
export OPAL_DATADIR="$OMPI_BUNDLE/share"
export OPAL_PKGDATADIR="$OMPI_BUNDLE/share/openmpi"
export OPAL_SYSCONFDIR="$OMPI_BUNDLE/etc"

# --- PMIx 4.2 (external library; it has its own install-dir variables) -----
export PMIX_PREFIX="$OMPI_BUNDLE"
export PMIX_EXEC_PREFIX="$OMPI_BUNDLE"
export PMIX_LIBDIR="$OMPI_BUNDLE/lib"
export PMIX_PKGLIBDIR="$OMPI_BUNDLE/lib/pmix"
export PMIX_DATAROOTDIR="$OMPI_BUNDLE/share"
export PMIX_DATADIR="$OMPI_BUNDLE/share"
export PMIX_PKGDATADIR="$OMPI_BUNDLE/share/pmix"
export PMIX_SYSCONFDIR="$OMPI_BUNDLE/etc"

# --- hwloc: do not load hwloc plugins from the system (ABI of 2.9 only) -----
export HWLOC_PLUGINS_PATH="$OMPI_BUNDLE/lib/hwloc"

# --- search paths ------------------------------------------------------------
_ob_ld="$OMPI_BUNDLE/lib"
# libz.so.1 / libudev.so.1: use the system's (newer) copy when there is one,
# otherwise the Debian 12 copy in lib/compat. OMPI_BUNDLE_COMPAT=1 forces it.
for _ob_l in libz.so.1 libudev.so.1; do
    _ob_found=0
    for _ob_d in /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 /usr/lib64 /lib /usr/lib; do
        [ -e "$_ob_d/$_ob_l" ] && { _ob_found=1; break; }
    done
    if [ "$_ob_found" = 0 ] || [ "${OMPI_BUNDLE_COMPAT:-0}" = 1 ]; then
        _ob_ld="$_ob_ld:$OMPI_BUNDLE/lib/compat"; break
    fi
done
export LD_LIBRARY_PATH="$_ob_ld${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$OMPI_BUNDLE/bin:$PATH"
export PKG_CONFIG_PATH="$OMPI_BUNDLE/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
unset _ob_ld _ob_l _ob_d _ob_found

# --- MCA settings for one host: shared memory (vader) + self + TCP loopback --
: "${OMPI_MCA_btl:=self,vader,tcp}"
: "${OMPI_MCA_pml:=ob1}"
# launch only local processes; never look for ssh/rsh
: "${OMPI_MCA_plm:=isolated}"
# no CMA/process_vm_readv single-copy (fails in containers without
# CAP_SYS_PTRACE with "Read -1, expected ..., errno = 1"); set to "cma" to try
: "${OMPI_MCA_btl_vader_single_copy_mechanism:=none}"
# TCP BTL (fallback only; vader carries on-node traffic) may use loopback
: "${OMPI_MCA_btl_tcp_if_include:=lo}"
: "${OMPI_MCA_btl_base_warn_component_unused:=0}"
# allow more ranks than cores without --oversubscribe
: "${OMPI_MCA_rmaps_base_oversubscribe:=1}"
export OMPI_MCA_btl OMPI_MCA_pml OMPI_MCA_plm OMPI_MCA_btl_vader_single_copy_mechanism \
       OMPI_MCA_btl_tcp_if_include OMPI_MCA_btl_base_warn_component_unused \
       OMPI_MCA_rmaps_base_oversubscribe

# --- running as root (the target) requires explicit permission ---------------
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
