#!/usr/bin/env bash
# bench/h200x2.sh - the scale-out batch for a lent two-GPU NVIDIA machine:
# build for sm_90 with MPI, then Graveler and BMN on one GPU, on both GPUs
# of the host (--backend cuda:all) and on two MPI ranks (one GPU each),
# comparing digests and reporting the efficiency of N devices against one.
#
# usage: bash bench/h200x2.sh [OUTDIR]    (OUTDIR defaults to $OUT or /tmp)
#
# The lent image has no libsqlite3-dev, and nothing can be installed there;
# an installed mpirun is used when there is one (the 2x H200 machine had Open
# MPI 4.1.6). Carry from a Debian 12 machine:
#   .peers/sqlite   sqlite3.h, libsqlite3.so and a sqlite3.pc (bench/h200.sh)
#   .peers/openmpi  a relocatable Open MPI 4.1 made from Debian's packages,
#                   with an env.sh to source (docs/scale-out.md says how)
# Efficiency is wall time against wall time (the JSON's wall_seconds: from
# the first chunk handed out to the last folded), on runs of 10 s or more.
set -u
out=${1:-${OUT:-/tmp}}
mkdir -p "$out"
exec > >(tee "$out/h200x2.log") 2>&1
here=$(pwd)
echo "== date: $(date -u +%Y-%m-%dT%H:%M:%SZ), lockstep ${LOCKSTEP_COMMIT:-(commit not given: set LOCKSTEP_COMMIT)}"
echo "== host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
. bench/device_env.sh
device_env "$here"
mpi=0
if command -v mpirun >/dev/null 2>&1; then
  mpi=1; echo "== MPI: $(mpirun --version | head -1) (installed)"
elif [ -f .peers/openmpi/env.sh ]; then
  . .peers/openmpi/env.sh && mpi=1 && echo "== MPI: carried bundle, $(mpirun --version | head -1)"
else
  echo "== MPI: none here and none carried: the MPI runs are left out"
fi
build=/tmp/lockstep-build
rm -rf "$build"
t0=$(date +%s)
meson setup "$build" -Ddefault_backend=cuda -Dnvcc_arch=90 -Dmpi=$([ $mpi = 1 ] && echo enabled || echo disabled) \
  >"$out/setup.log" 2>&1 || { tail -30 "$out/setup.log"; exit 1; }
ninja -C "$build" >"$out/ninja.log" 2>&1 || { tail -40 "$out/ninja.log"; exit 1; }
echo "== built in $(( $(date +%s) - t0 )) s"
ls=$build/lockstep
$ls devices

# One run: prints its digest and times, and keeps the JSON.
run() {
  local name=$1; shift
  echo "\$ $*"
  "$@" --json --quiet > "$out/$name.json" 2> "$out/$name.err"
  local rc=$?
  [ -s "$out/$name.err" ] && cat "$out/$name.err"
  python3 - "$out/$name.json" "$name" "$rc" <<'EOF'
import json, sys
path, name, rc = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    d = json.load(open(path))
except Exception as e:
    print('%-22s rc %s, no JSON (%s)' % (name, rc, e)); sys.exit(0)
items = d.get('battles', d.get('deals', 0))
wall = d.get('wall_seconds', 0)
print('%-22s rc %s digest %s  items %.4g  seconds %.3f  wall %.3f  wall rate %.4g/s' %
      (name, rc, d['digest'], items, d['seconds'], wall, items / wall if wall else 0))
for dev in d.get('devices', []):
    print('   %-24s %.4g items in %.3f s' % (dev['label'], dev['items'], dev['seconds']))
EOF
}

echo "== one device, as before the scale-out (docs/perf/2026-11-22-h200-final.log: 4.332 ms, 1.027e9 deals/s)"
$ls conformance --backend cuda:0 | tail -1
$ls bench graveler --battles 1e9 --backend cuda:0 --repeat 10 --warmup 2
$ls bench bmn --deals 1e9 --backend cuda:0 --repeat 3 --warmup 1
echo "== correctness: 1e10 battles and 1e10 deals, one GPU against both"
run grv1e10-cuda0 $ls graveler --battles 1e10 --backend cuda:0
run grv1e10-cudaall $ls graveler --battles 1e10 --backend cuda:all
run bmn1e10-cuda0 $ls bmn search --deals 1e10 --backend cuda:0
run bmn1e10-cudaall $ls bmn search --deals 1e10 --backend cuda:all
echo "== check: one GPU, both GPUs, both through NVIDIA OpenCL, a mix"
nv=$($ls devices --json | python3 -c "
import json,sys
d=json.load(sys.stdin)
for b in d['backends']:
    if b['backend']=='opencl':
        print('+'.join('opencl:%d' % x['index'] for x in b['devices'] if 'NVIDIA' in x['platform']))")
echo "NVIDIA OpenCL devices: ${nv:-none}"
$ls check graveler --battles 1e10 --quiet --backends cuda:0,cuda:all${nv:+,$nv},cuda:1+openmp
$ls check bmn --deals 1e9 --quiet --backends cuda:0,cuda:all${nv:+,$nv}
echo "== efficiency: runs of 10 s or more"
run grv5e12-cuda0 $ls graveler --battles 5e12 --backend cuda:0
run grv5e12-cudaall $ls graveler --battles 5e12 --backend cuda:all
run bmn1.2e10-cuda0 $ls bmn search --deals 1.2e10 --backend cuda:0
run bmn2.4e10-cudaall $ls bmn search --deals 2.4e10 --backend cuda:all
if [ $mpi = 1 ]; then
  echo "== two MPI ranks on this host, one GPU each (cuda:all shared out by local rank)"
  run grv1e10-mpi2 mpirun -np 2 $ls graveler --battles 1e10 --backend cuda:all
  run bmn1e10-mpi2 mpirun -np 2 $ls bmn search --deals 1e10 --backend cuda:all
  run grv5e12-mpi2 mpirun -np 2 $ls graveler --battles 5e12 --backend cuda:all
  run bmn2.4e10-mpi2 mpirun -np 2 $ls bmn search --deals 2.4e10 --backend cuda:all
fi
echo "== summary"
python3 - "$out" <<'EOF'
import json, os, sys
out = sys.argv[1]
def load(n):
    try: return json.load(open(os.path.join(out, n + '.json')))
    except Exception: return None
def rate(d):
    items = d.get('battles', d.get('deals', 0)); return items / d['wall_seconds']
for a, b in [('grv1e10-cuda0', 'grv1e10-cudaall'), ('grv1e10-cuda0', 'grv1e10-mpi2'),
             ('bmn1e10-cuda0', 'bmn1e10-cudaall'), ('bmn1e10-cuda0', 'bmn1e10-mpi2')]:
    x, y = load(a), load(b)
    if x and y:
        print('digest %-16s %s  %-16s %s  %s' % (a, x['digest'], b, y['digest'],
              'SAME' if x['digest'] == y['digest'] else 'DIFFERENT'))
for a, b in [('grv5e12-cuda0', 'grv5e12-cudaall'), ('grv5e12-cuda0', 'grv5e12-mpi2'),
             ('bmn1.2e10-cuda0', 'bmn2.4e10-cudaall'), ('bmn1.2e10-cuda0', 'bmn2.4e10-mpi2')]:
    x, y = load(a), load(b)
    if x and y:
        print('efficiency %-18s %.4g/s (%.1f s)  %-18s %.4g/s (%.1f s)  speed-up %.3f = %.3f of 2' %
              (a, rate(x), x['wall_seconds'], b, rate(y), y['wall_seconds'], rate(y) / rate(x), rate(y) / rate(x) / 2))
EOF
# The device tool returns a limited number of files: one archive of them.
(cd "$out" && tar -czf h200x2-runs.tar.gz ./*.json ./*.err setup.log ninja.log && rm -f ./*.json ./*.err setup.log ninja.log)
