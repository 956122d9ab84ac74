#!/usr/bin/env python3
"""`lockstep devices` says what users of clinfo and hashcat -I look for
(issue 27): each device's type (CPU, GPU, accelerator; the OpenMP CPU is
the reference the others are checked against), as clinfo reports it for
OpenCL devices, where clinfo is installed.

usage: devices_report.py LOCKSTEP
"""
import json
import re
import shutil
import subprocess
import sys

from harness import expect, finish

LS = sys.argv[1]


def run(*args, env=None):
    return subprocess.run([LS, *args], capture_output=True, text=True, env=env, timeout=300)


p = run('devices', '--json')
try:
    doc = json.loads(p.stdout)
except ValueError:
    doc = {}
expect(p.returncode == 0 and doc.get('backends'), 'devices --json', p.stderr)
devices = {d['device']: d for b in doc.get('backends', []) for d in b['devices']}
text = run('devices').stdout

# ---- the kind of each device ------------------------------------------------------
ref = devices.get('openmp:0', {})
expect(ref.get('kind') == 'reference' and ref.get('type') == 'CPU' and ref.get('gpu') is False,
       'openmp:0 is the reference, a CPU', str(ref))
for spec, d in devices.items():
    expect(d.get('kind') in ('reference', 'cpu', 'gpu', 'accelerator') and d['gpu'] == (d['kind'] == 'gpu') and
           d.get('type') == {'reference': 'CPU', 'cpu': 'CPU', 'gpu': 'GPU', 'accelerator': 'accelerator'}[d['kind']],
           '%s: its kind and type agree' % spec, str(d))
    line = [l for l in text.splitlines() if re.search(r'\b%s  ' % re.escape(spec), l)]
    want = d['type'] + (' (the reference)' if d['kind'] == 'reference' else '')
    expect(line and ('], %s, ' % want) in line[0], 'devices: %s says %s' % (spec, want), str(line))
for spec, d in devices.items():
    if spec.startswith('cuda:'):
        expect(d['kind'] == 'gpu', '%s is a GPU' % spec, str(d))

# OpenCL devices as clinfo sees them, in the order both number them.
opencl = sorted((d for s, d in devices.items() if s.startswith('opencl:')), key=lambda d: d['index'])
clinfo = shutil.which('clinfo')
if opencl and clinfo:
    raw = subprocess.run([clinfo, '--raw'], capture_output=True, text=True).stdout
    order, types = [], {}
    for m in re.finditer(r'^(\[[^\]]+/\d+\])\s+CL_DEVICE_TYPE\s+(\S+)', raw, re.M):
        if m.group(1) not in types:
            order.append(m.group(1))
            types[m.group(1)] = m.group(2)
    kinds = ['gpu' if 'GPU' in types[k] else 'accelerator' if re.search('ACCELERATOR|CUSTOM', types[k]) else 'cpu'
             for k in order]
    expect(kinds == [d['kind'] for d in opencl], 'OpenCL devices have the type clinfo --raw reports',
           '%s != %s' % (kinds, [d['kind'] for d in opencl]))
else:
    print('(no OpenCL device or no clinfo: OpenCL types not compared)')

# The reference runs first in check, whatever the order of the list.
if opencl:
    p = run('check', 'graveler', '--battles', '1e4', '--backend', 'opencl:0,openmp', '--json', '--quiet')
    runs = json.loads(p.stdout or '{"runs":[]}')['runs']
    expect(runs and runs[0]['device'] == 'openmp:0' and runs[0]['reference'], 'check: the reference runs first',
           str(runs)[:300])

finish()
