#!/usr/bin/env python3
"""The OpenCL compiler keeps off the terminal: with PoCL's kernel cache
cold (a new POCL_CACHE_DIR), every program is compiled while lockstep
runs, and whatever the compiler says must not reach stderr between
lockstep's own lines. A `#pragma unroll 2` that clang could not honour
(life_2dm_walk's loop, whose count is known only at run time and whose
body holds group barriers) printed "1 warning generated." in the middle
of `check` and the conformance table.

`check life` compiles the program of the issue's report; `conformance
--backend opencl` every program, and Life's with rules built in. Each line
they print on stderr must be lockstep's ("lockstep: ...").

usage: opencl_quiet.py LOCKSTEP"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import expect, finish  # noqa: E402

LS = sys.argv[1]

devices = json.loads(subprocess.run([LS, 'devices', '--json'], capture_output=True, text=True).stdout)
if not any(b['backend'] == 'opencl' and b['available'] for b in devices['backends']):
    print('skipped: no OpenCL device here')
    sys.exit(77)

RUNS = [
    ['devices'],
    ['check', 'life', '--dims', '2', '--size', '40', '--steps', '3', '--backends', 'openmp,opencl', '--quiet'],
    ['conformance', '--backend', 'opencl'],
]

with tempfile.TemporaryDirectory() as cache:
    # (Under the sanitizers, LeakSanitizer's table of the suppressions it
    # used would be on stderr too: not printed here.)
    lsan = (os.environ.get('LSAN_OPTIONS', '') + ':print_suppressions=0').lstrip(':')
    # lockstep's own cache of built programs off too: every program built.
    env = dict(os.environ, POCL_CACHE_DIR=cache, LSAN_OPTIONS=lsan, LOCKSTEP_CACHE='off')
    for args in RUNS:
        r = subprocess.run([LS] + args, capture_output=True, text=True, env=env, timeout=300)
        foreign = [line for line in r.stderr.splitlines() if line.strip() and not line.startswith('lockstep: ')]
        expect(r.returncode == 0 and not foreign, '%s with a cold kernel cache: nothing on stderr but lockstep\'s'
               % ' '.join(args), 'rc=%d, other lines: %r' % (r.returncode, foreign))
finish()
