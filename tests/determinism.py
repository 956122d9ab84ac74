#!/usr/bin/env python3
"""Results are a pure function of the inputs: the same seed gives the same
histogram with OMP_NUM_THREADS=1 and 2, and with the battle range split in
two (--first) and added up.

usage: determinism.py LOCKSTEP
"""
import json
import os
import subprocess
import sys

LS = sys.argv[1]


def graveler(threads, *extra):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    out = subprocess.run([LS, 'graveler', '--backend', 'openmp', '--json', '--quiet', '--seed', '42', *extra],
                         capture_output=True, text=True, check=True, env=env, timeout=600).stdout
    return json.loads(out)


failures = 0
one = graveler(1, '--battles', '3000017')
two = graveler(2, '--battles', '3000017')
ok = one['histogram'] == two['histogram'] and one['digest'] == two['digest']
print('%s 1 thread and 2 threads give digest %s / %s' % ('ok  ' if ok else 'FAIL', one['digest'], two['digest']))
failures += not ok

a = graveler(2, '--battles', '1000003')
b = graveler(2, '--battles', '2000014', '--first', '1000003')
summed = [x + y for x, y in zip(a['histogram'], b['histogram'])]
ok = summed == one['histogram']
print('%s a run split at battle 1000003 adds up to the whole run' % ('ok  ' if ok else 'FAIL'))
failures += not ok
print('%d passed, %d failed' % (2 - failures, failures))
sys.exit(1 if failures else 0)
