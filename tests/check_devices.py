#!/usr/bin/env python3
"""check, bench and conformance run on a list of devices and sets
(--backend openmp,opencl:all,openmp+opencl:0): every entry is expanded to
the devices it names and checked before anything runs.

- A device named twice is refused (exit 2, one line saying "named twice",
  nothing on stdout): literally (openmp,openmp), through a bare name or
  NAME:all that lists it (openmp:all,openmp), as a set of that one device
  (opencl:all with one OpenCL device), as two sets of the same devices, or
  inside one set (openmp+openmp). A check that compared a device with
  itself said "2 devices agree" even when that device's result was wrong
  (LOCKSTEP_DEBUG_FAULT breaks one field of it here).
- A bad set (a device index the backend lacks, a device twice) is refused
  before the entries ahead of it run.
- A set of one device is that device: alone, one device ran, so exit 77.

usage: check_devices.py LOCKSTEP
"""
import json
import os
import re
import subprocess
import sys

LS = sys.argv[1]
SMALL = {'graveler': ['--battles', '100000'], 'bmn': ['--deals', '5000'], 'ray': ['--size', '32x16', '--spp', '2'],
         'life': ['--dims', '2', '--size', '40', '--steps', '3']}
# A field of each result, made wrong on openmp by LOCKSTEP_DEBUG_FAULT.
FIELD = {'graveler': 'max', 'bmn': 'total_cards', 'ray': 'image', 'life': 'population'}
failures = 0
checks = 0


def run(args, env=None):
    e = dict(os.environ)
    e.pop('LOCKSTEP_DEBUG_FAULT', None)
    e.update(env or {})
    return subprocess.run([LS] + args, capture_output=True, text=True, env=e, timeout=300)


def expect(ok, what, detail=''):
    global failures, checks
    checks += 1
    print('%s %s' % ('ok  ' if ok else 'FAIL', what))
    if not ok:
        failures += 1
        print('     ' + detail.replace('\n', '\n     '))


def refused(args, needle, env=None):
    r = run(args, env)
    lines = [line for line in r.stderr.splitlines() if line.strip() and 'LOCKSTEP_DEBUG_FAULT' not in line]
    expect(r.returncode == 2 and len(lines) == 1 and needle in r.stderr and not r.stdout,
           '%s: exit 2, one line naming %r, nothing run' % (' '.join(args), needle),
           'rc=%d stderr=%r stdout=%r' % (r.returncode, r.stderr, r.stdout[-400:]))


devices = json.loads(run(['devices', '--json']).stdout)
count = {b['backend']: len(b['devices']) for b in devices['backends'] if b['available']}

# A device compared with itself: refused on every workload, though its
# result is broken on purpose (what "2 devices agree" used to hide).
for w, size in SMALL.items():
    fault = {'LOCKSTEP_DEBUG_FAULT': 'openmp:' + FIELD[w]}
    for spec in ('openmp:all,openmp', 'openmp,openmp:all', 'openmp:0,openmp:all', 'openmp+openmp'):
        refused(['check', w] + size + ['--backend', spec, '--quiet'], 'named twice', fault)
refused(['check', 'life', '--backend', 'openmp:all,openmp:0+openmp', '--quiet'], 'named twice')
refused(['bench', 'all', '--backend', 'openmp:all,openmp', '--repeat', '1', '--warmup', '0'], 'named twice')
refused(['conformance', '--backend', 'openmp,openmp:all'], 'named twice')
refused(['conformance', '--backend', 'openmp+openmp'], 'named twice')

# A set is checked before the entries ahead of it run.
refused(['check', 'graveler', '--battles', '1e5', '--backend', 'openmp,openmp:5+openmp', '--quiet'], 'index')
# A set is opened again by its spelling, which must not be cut short:
# opencl:000...01 would open as opencl:000...0, another device than the
# one checked.
refused(['check', 'graveler', '--battles', '1e5', '--backend', 'openmp,openmp+opencl:%s1' % ('0' * 70), '--quiet'],
        'at most 63 characters')
refused(['check', 'graveler', '--battles', '1e5', '--backend', 'openmp,' + '+'.join(['opencl:%s' % ('0' * 40)] * 4),
         '--quiet'], 'at most 127 characters')

# One distinct device: nothing is compared (77), and it is named as the device.
r = run(['check', 'graveler', '--battles', '1e5', '--backend', 'openmp:all', '--quiet', '--json'])
try:
    runs = [x['device'] for x in json.loads(r.stdout)['runs']]
except (ValueError, KeyError):
    runs = None
expect(r.returncode == 77 and runs == ['openmp:0'], 'check --backend openmp:all: one device ran (openmp:0), exit 77',
       'rc=%d runs=%r %s' % (r.returncode, runs, r.stderr))

if count.get('opencl') == 1:
    fault = {'LOCKSTEP_DEBUG_FAULT': 'opencl:population'}
    for spec in ('opencl:all,opencl:0', 'opencl:0,opencl:all', 'opencl,opencl:all', 'opencl:0+opencl:all',
                 'openmp+opencl,opencl:all+openmp', 'openmp+opencl,opencl+openmp:all'):
        refused(['check', 'life'] + SMALL['life'] + ['--backend', spec, '--quiet'], 'named twice', fault)
if 'opencl' in count:
    refused(['check', 'graveler', '--battles', '1e5', '--backend', 'opencl,openmp+openmp', '--quiet'], 'named twice')
    # Two different sets, and a set beside its own devices, are compared.
    r = run(['check', 'graveler', '--battles', '1e5', '--backend', 'openmp,opencl,opencl:all+openmp', '--quiet'])
    n = 2 + count['opencl']
    expect(r.returncode == 0 and '%d devices agree' % n in r.stdout,
           'check --backend openmp,opencl,opencl:all+openmp: a set beside its devices is compared',
           'rc=%d %s %s' % (r.returncode, r.stdout, r.stderr))
else:
    print('(no OpenCL device: its cases are not run)')

# ---- the tables: every column as wide as its widest cell ------------------------
# A set's spec and PoCL's device name were wider than their columns and
# pushed the rest of the row out of line.


def columns(header, names):
    """The offset where each named column starts in the header line."""
    return [header.index(n) for n in names]


def aligned(rows, starts):
    """Whether every cell of every row starts where its column does: a space
    before it, something other than a space at it."""
    return all(len(r) > s and (s == 0 or r[s - 1] == ' ') and r[s] != ' ' for r in rows for s in starts)


names = {d['device']: d['device_name'] for b in devices['backends'] for d in b['devices']}
lists = ['openmp']
if 'opencl' in count:
    lists.append('openmp,opencl:0,openmp+opencl:0')
for spec in lists:
    r = run(['check', 'graveler', '--battles', '1e5', '--backend', spec, '--quiet'])
    lines = r.stdout.splitlines()
    header = lines[1] if len(lines) > 1 else ''
    rows = [l for l in lines[2:] if re.match(r'^(openmp|opencl|cuda)[:+]', l)]
    starts = columns(header, ['device', 'name', 'digest', 'result']) if 'result' in header else []
    expect(r.returncode in (0, 77) and rows and starts and aligned(rows, starts) and
           all(re.fullmatch(r'[0-9a-f]{16}', row[starts[2]:starts[2] + 16]) for row in rows),
           'check --backend %s: every cell in its column' % spec, r.stdout)
    whole = [row for row in rows if row.split()[0] in names and
             row[starts[1]:starts[2]].rstrip() != names[row.split()[0]]] if starts else rows
    expect(not whole, 'check --backend %s: each device\'s whole name' % spec, str(whole))
# A backend compiled in without a device here (CUDA on this machine) is
# a row of its own, "not supported"; one not compiled in cannot be named.
compiled = {b['backend'] for b in devices['backends']}
absent = ['cuda'] if 'cuda' in compiled and 'cuda' not in count else []
conf = ['conformance', '--case', 'ray 1x1', '--backend', ','.join(lists[-1:] + absent)]
r = run(conf)
lines = r.stdout.splitlines()
header = lines[0] if lines else ''
rows = [l for l in lines[1:] if re.match(r'^(openmp|opencl|cuda)', l)]
starts = columns(header, ['device', 'case', 'result', 'detail']) if 'detail' in header else []
expect(rows and starts and aligned(rows, starts[:3]) and
       all(re.match(r'(pass|FAIL|not supported) +\S', row[starts[2]:]) and row[starts[3] - 1] == ' ' for row in rows),
       '%s: every cell in its column' % ' '.join(conf), r.stdout)

print('%d passed, %d failed' % (checks - failures, failures))
sys.exit(1 if failures else 0)
