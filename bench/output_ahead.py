#!/usr/bin/env python3
"""output_ahead.py LOCKSTEP DIRS BACKENDS ROUNDS [N] - the PKU form
(`lockstep life IN OUT N`, M = 1024, N = 1 by default) with --out's file
made ready while the devices open and without (LOCKSTEP_DEBUG_OUT_AHEAD=0),
interleaved, ROUNDS times, for each directory in DIRS (comma-separated:
the input and the output there, e.g. a disk and /dev/shm) and each backend
in BACKENDS (comma-separated). Each run: the whole process from outside
(the output removed before it, outside the clock) and its --timings; then
the medians of each case. The input is made in each directory first (1 GiB:
a random 1024^3 grid, density 0.2, seed 1)."""
import json
import os
import statistics
import subprocess
import sys
import time

LS, DIRS, BACKENDS, ROUNDS = sys.argv[1], sys.argv[2].split(','), sys.argv[3].split(','), int(sys.argv[4])
N = sys.argv[5] if len(sys.argv) > 5 else '1'
PHASES = ('open', 'input', 'kernels', 'output', 'finish')

for d in DIRS:
    src = os.path.join(d, 'in.data')
    if not os.path.exists(src):
        subprocess.run([LS, 'life', '--dims', '3', '--size', '1024', '--steps', '0', '--density', '0.2', '--seed', '1',
                        '--backend', 'openmp', '--out', src, '--quiet'], check=True, stdout=subprocess.DEVNULL)
runs = {}
for r in range(ROUNDS):
    for d in DIRS:
        for b in BACKENDS:
            for ahead in ('1', '0'):
                out = os.path.join(d, 'out.data')
                if os.path.exists(out):
                    os.unlink(out)
                env = dict(os.environ, LOCKSTEP_DEBUG_OUT_AHEAD=ahead)
                t = time.perf_counter()
                p = subprocess.run([LS, 'life', os.path.join(d, 'in.data'), out, N, '--backend', b, '--timings',
                                    '--json', '--quiet'], env=env, capture_output=True, text=True)
                whole = time.perf_counter() - t
                tm = json.loads(p.stdout).get('timings', {}) if p.returncode == 0 else {}
                runs.setdefault((d, b, ahead), []).append((whole, tm))
                print('%-18s %-9s ahead=%s whole %.3f s; %s; output made ready while opening %.3f%s' % (
                    d, b, ahead, whole, ', '.join('%s %.3f' % (k, tm.get(k, -1)) for k in PHASES),
                    tm.get('output_beside_open', 0), '' if p.returncode == 0 else ' EXIT %d %s' % (
                        p.returncode, p.stderr[-200:])), flush=True)
                if os.path.exists(out):
                    os.unlink(out)
print('== medians of %d rounds' % ROUNDS)
for (d, b, ahead), v in runs.items():
    print('%-18s %-9s ahead=%s whole %.3f s; %s' % (d, b, ahead, statistics.median(w for w, _ in v), ', '.join(
        '%s %.3f' % (k, statistics.median(tm.get(k, 0) for _, tm in v)) for k in PHASES)))
