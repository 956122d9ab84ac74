#!/usr/bin/env python3
"""MPI ranks of one node share its cores among their OpenMP threads
(src/set/cluster.c, share_node_cores):
  - ranks that mpirun does not bind (--bind-to none) run the node's cores
    divided by the ranks of the node each (at least one), not every core
    each;
  - OMP_NUM_THREADS, when set, is what each runs;
  - a rank bound to one core (mpirun's default for two ranks) runs one.
LOCKSTEP_DEBUG_THREADS=1 makes each rank say its count. Exit 77 when
mpirun is missing or lockstep was built without MPI.

usage: mpi_threads.py LOCKSTEP
"""
import json
import os
import re
import shutil
import subprocess
import sys

from harness import expect, finish, mpi_env, mpirun

LS = os.path.abspath(sys.argv[1])
ENV = mpi_env('OMP_NUM_THREADS', LOCKSTEP_DEBUG_THREADS='1')

if not shutil.which('mpirun'):
    print('skipped: no mpirun (Debian: openmpi-bin)')
    sys.exit(77)
if json.loads(subprocess.run([LS, 'devices', '--json'], capture_output=True, text=True,
                             env=ENV).stdout).get('mpi') is None:
    print('skipped: this lockstep was built without MPI')
    sys.exit(77)

CORES = len(os.sched_getaffinity(0))


def threads(n, *mpirun_args, env=ENV):
    """Each rank's OpenMP threads, in rank order, from a short Life run."""
    r = mpirun(n, LS, 'life', '--dims', '3', '--size', '32', '--steps', '2', '--backend', 'openmp', '--quiet',
               extra=mpirun_args, env=env, timeout=300)
    found = sorted((int(m.group(1)), int(m.group(2)))
                   for m in re.finditer(r'rank (\d+) of \d+ on its node: (\d+) OpenMP threads', r.stderr))
    return r.returncode, [t for _, t in found], r.stderr


for n in (2, 3):
    rc, got, err = threads(n, '--bind-to', 'none')
    want = [max(1, CORES // n)] * n
    expect(rc == 0 and got == want, f'{n} ranks not bound, {CORES} cores: {want[0]} threads each', f'{rc} {got} {err[-300:]}')

rc, got, err = threads(2, '--bind-to', 'none', env=dict(ENV, OMP_NUM_THREADS='3'))
expect(rc == 0 and got == [3, 3], 'OMP_NUM_THREADS=3 is what each rank runs', f'{rc} {got} {err[-300:]}')

rc, got, err = threads(2, '--bind-to', 'core')
expect(rc == 0 and got == [1, 1], 'two ranks bound to a core each: one thread each', f'{rc} {got} {err[-300:]}')

finish()
