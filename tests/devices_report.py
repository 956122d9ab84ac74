#!/usr/bin/env python3
"""`lockstep devices` says what users of clinfo and hashcat -I look for
(issue 27): each device's type (CPU, GPU, accelerator; the OpenMP CPU is
the reference the others are checked against), its memory, largest single
allocation and free memory (where the API tells it: not on OpenCL), as
clinfo and /proc/meminfo report them, and the largest square and cube
Life grid that fits: computed here from the layout (rows of 32-bit words,
two generations, each one allocation; docs/life.md) and checked against
what Life itself runs and refuses under LOCKSTEP_DEVICE_MEMORY_CAP.
The memory is said to be the implementation's report, which the largest
grid follows (PoCL's changed between runs, issue 34, item 18: shown with
POCL_MEMORY_LIMIT), and an OpenCL platform with no device here is listed
with why (PoCL with POCL_DEVICES=cuda, where it has no CUDA device).

usage: devices_report.py LOCKSTEP
"""
import json
import os
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

# ---- memory ----------------------------------------------------------------------
LIFE_MIN, LIFE_MAX, LIFE_MAX_CELLS = 4, 1 << 20, 1 << 40  # src/workloads/life/life_grid.h


def largest_side(dims, memory, max_alloc):
    """The largest n whose n^dims grid fits: a generation is ceil(n/32) words
    of 4 bytes a row, two generations in memory, each one allocation."""
    def fits(n):
        gen = -(-n // 32) * 4 * n * (n if dims == 3 else 1)
        return n ** dims <= LIFE_MAX_CELLS and gen <= max_alloc and 2 * gen <= memory
    if not fits(LIFE_MIN):
        return 0
    lo, hi = LIFE_MIN, LIFE_MAX + 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return lo


for spec, d in devices.items():
    alloc = d.get('max_alloc_bytes') or d.get('memory_bytes', 0)
    want = {'life_2d_side': largest_side(2, d.get('memory_bytes', 0), alloc),
            'life_3d_side': largest_side(3, d.get('memory_bytes', 0), alloc)}
    expect(d.get('largest') == want, '%s: the largest Life grids, %s' % (spec, want), str(d.get('largest')))
    line = [l for l in text.splitlines() if 'largest grid by that memory:' in l]
    expect(any('Life 2D %dx%d' % ((want['life_2d_side'],) * 2) in l for l in line),
           'devices: %s\'s Life 2D grid' % spec, str(line))
ref = devices.get('openmp:0', {})
meminfo = open('/proc/meminfo').read()
available = int(re.search(r'^MemAvailable:\s+(\d+) kB', meminfo, re.M).group(1)) * 1024
expect(ref.get('max_alloc_bytes') == ref.get('memory_bytes') and
       0.5 * available < (ref.get('free_memory_bytes') or 0) < 2 * available,
       'openmp:0: one allocation may take the host\'s memory; free is MemAvailable (%d)' % available, str(ref))
if opencl and clinfo:
    raw = subprocess.run([clinfo, '--raw'], capture_output=True, text=True).stdout
    for key, member in (('CL_DEVICE_GLOBAL_MEM_SIZE', 'memory_bytes'),
                        ('CL_DEVICE_MAX_MEM_ALLOC_SIZE', 'max_alloc_bytes')):
        values = []
        for m in re.finditer(r'^(\[[^\]]+/\d+\])\s+%s\s+(\d+)' % key, raw, re.M):
            values.append(int(m.group(2)))
        expect(values == [d[member] for d in opencl], 'OpenCL devices: %s is clinfo\'s %s' % (member, key),
               '%s != %s' % (values, [d[member] for d in opencl]))
for d in opencl:
    expect(d['free_memory_bytes'] is None, '%s: free memory not reported (core OpenCL has no query)' % d['device'])
    line = [l for l in text.splitlines() if 'free memory not reported' in l]
    expect(line, 'devices says an OpenCL device\'s free memory is not reported', text)

# ---- the memory as reported, and platforms that offer no device ------------------------
for spec, d in devices.items():
    said = '%.1f GiB as reported (%s)' % (d.get('memory_bytes', 0) / 2 ** 30, d.get('memory_reported_by'))
    expect(d.get('memory_reported_by') and any(spec + '  ' in l for l in text.splitlines()) and said in text,
           '%s: the memory "as reported" and by which query' % spec, '%s in %s' % (said, text))
expect(text.count('largest grid by that memory:') == len(devices), 'devices: the largest grid "by that memory"', text)
expect(all(isinstance(b.get('platforms_without_devices'), list) for b in doc.get('backends', [])),
       'devices --json: every backend has "platforms_without_devices"', str(doc.get('backends'))[:300])
POCL = 'Portable Computing Language'
pocl = [d for d in opencl if d.get('platform') == POCL]
if pocl:
    limited = json.loads(run('devices', '--json', env=dict(os.environ, POCL_MEMORY_LIMIT='1')).stdout or '{}')
    d = next((x for b in limited.get('backends', []) for x in b['devices'] if x.get('platform') == POCL), {})
    alloc = d.get('max_alloc_bytes') or d.get('memory_bytes', 0)
    expect(d.get('memory_bytes') == 1 << 30 and
           d.get('largest') == {'life_2d_side': largest_side(2, 1 << 30, alloc),
                                'life_3d_side': largest_side(3, 1 << 30, alloc)},
           'PoCL reporting 1 GiB (POCL_MEMORY_LIMIT=1): devices says so, and the largest grid follows', str(d))
    env = dict(os.environ, POCL_DEVICES='cuda')
    bare = json.loads(run('devices', '--json', env=env).stdout or '{}')
    ocl = next((b for b in bare.get('backends', []) if b.get('backend') == 'opencl'), {})
    if not any(x.get('platform') == POCL for x in ocl.get('devices', [])):
        listed = [x for x in ocl.get('platforms_without_devices', []) if x.get('platform') == POCL]
        expect(listed and 'CL_DEVICE_NOT_FOUND' in listed[0].get('why', ''),
               'PoCL without a device (POCL_DEVICES=cuda): listed in "platforms_without_devices", and why', str(ocl))
        t = run('devices', env=env).stdout
        expect('opencl   platform %s: no device: ' % POCL in t, 'devices: a line for PoCL without a device', t)
    else:
        print('(PoCL has a CUDA device here: no platform without devices to show)')
else:
    print('(no PoCL here: its memory report and an empty platform not shown)')

# What devices says fits is what Life runs: under a 1 MiB cap the largest
# square and cube run, one more cell a side is refused (exit 2).
env = dict(os.environ, LOCKSTEP_DEVICE_MEMORY_CAP='1M')
capped = json.loads(run('devices', '--json', env=env).stdout or '{"backends":[]}')
for b in capped['backends']:
    for d in b['devices']:
        expect(d['largest'] == {'life_2d_side': largest_side(2, 1 << 20, 1 << 20),
                                'life_3d_side': largest_side(3, 1 << 20, 1 << 20)},
               '%s under a 1 MiB cap: the largest grids' % d['device'], str(d['largest']))
        for dims, key in ((2, 'life_2d_side'), (3, 'life_3d_side')):
            side = d['largest'][key]
            for n, rc in ((side, 0), (side + 1, 2)):
                p = run('life', '--dims', str(dims), '--size', str(n), '--steps', '0', '--backend', d['device'],
                        '--quiet', env=env)
                expect(p.returncode == rc and (rc == 0 or 'MEMORY_CAP' in p.stderr),
                       '%s: life --dims %d --size %d under the cap exits %d' % (d['device'], dims, n, rc),
                       'rc=%d %s' % (p.returncode, p.stderr))

# The reference runs first in check, whatever the order of the list.
if opencl:
    p = run('check', 'graveler', '--battles', '1e4', '--backend', 'opencl:0,openmp', '--json', '--quiet')
    runs = json.loads(p.stdout or '{"runs":[]}')['runs']
    expect(runs and runs[0]['device'] == 'openmp:0' and runs[0]['reference'], 'check: the reference runs first',
           str(runs)[:300])

finish()
