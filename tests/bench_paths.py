#!/usr/bin/env python3
"""bench's efficiency and portability figures through the command line
(issue 35): `bench WORKLOAD --paths LIST` times the workload with its own
options on each device of LIST in turn, and says of each row its efficiency
(the fastest median among the rows on the same chip over its own; OpenMP and
an OpenCL CPU device are one chip, the host's) and of each backend its
portability, the harmonic mean of its efficiencies over its devices (0 when it
failed on one); `bench all` says the same. The figures are recomputed here
from the rows' own medians.

usage: bench_paths.py LOCKSTEP
"""
import json
import os
import subprocess
import sys

from harness import expect, finish

LOCKSTEP = sys.argv[1]


def run(args, **env):
    e = dict(os.environ)
    e.update(env)
    return subprocess.run([LOCKSTEP] + args, capture_output=True, text=True, timeout=600, env=e)


def check_figures(doc, what):
    """Each portability entry against the benches' medians: every device is on the host's CPU here."""
    medians = {}
    for b in doc['benches']:
        if 'median_s' in b and b['median_s']:
            medians.setdefault(b['workload'], {})[b['device']] = b['median_s']
    for p in doc['portability']:
        fastest = min(medians.get(p['workload'], {}).values(), default=None)
        harmonic = 0.0
        for e in p['efficiency']:
            mine = medians.get(p['workload'], {}).get(e['device'])
            want = fastest / mine if mine else 0
            expect(abs(e['efficiency'] - want) < 1e-5 * max(want, 1e-9),
                   '%s: %s on %s, efficiency %.6g is the fastest median over its own' % (what, p['workload'],
                                                                                       e['device'], want),
                   str(e))
            harmonic = float('inf') if want == 0 else harmonic + 1 / want
        pp = 0 if harmonic in (0, float('inf')) else len(p['efficiency']) / harmonic
        expect(abs(p['portability'] - pp) < 1e-5 * max(pp, 1e-9) and p['platforms'] == len(p['efficiency']),
               '%s: %s %s portability %.6g over %d devices' % (what, p['workload'], p['backend'], pp,
                                                              len(p['efficiency'])), str(p))


devs = json.loads(run(['devices', '--json']).stdout)
opencl = [d for b in devs['backends'] if b['backend'] == 'opencl' for d in b['devices'] if d['type'] == 'CPU']
if not opencl:
    print('skipped: no OpenCL CPU device here')
    sys.exit(77)
cl = opencl[0]['device']

r = run(['bench', 'graveler', '--battles', '2e5', '--paths', 'openmp,%s' % cl, '--repeat', '3', '--json'])
expect(r.returncode == 0, 'bench --paths runs', r.stderr)
doc = json.loads(r.stdout) if r.returncode == 0 else {'benches': [], 'portability': []}
expect(sorted(b['device'] for b in doc['benches']) == sorted(['openmp:0', cl]), 'a row a path', str(doc['benches']))
expect(sorted(p['backend'] for p in doc['portability']) == ['opencl', 'openmp'], 'a score a backend',
       str(doc['portability']))
expect(any(e['efficiency'] == 1 for p in doc['portability'] for e in p['efficiency']),
       'the fastest path on the chip has efficiency 1', str(doc['portability']))
check_figures(doc, 'bench graveler --paths')

# A path that does not run on one of its devices: PoCL refusing the exact
# rule, which is no failure (exit 0, a row "not supported" saying why) but
# leaves the path's portability 0, as Pennycook's metric has it.
r = run(['bench', 'ray', '--size', '16x16', '--spp', '1', '--paths', 'openmp,%s' % cl, '--repeat', '2', '--json'],
        LOCKSTEP_DEBUG_INEXACT_DIVIDE='1')
doc = json.loads(r.stdout) if r.stdout.strip() else {'portability': [], 'benches': []}
opencl_pp = [p for p in doc['portability'] if p['backend'] == 'opencl']
refused = [b for b in doc['benches'] if b['device'] == cl]
expect(r.returncode == 0 and opencl_pp and opencl_pp[0]['portability'] == 0 and refused
       and 'CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT' in refused[0].get('not_supported', ''),
       'a device that refuses the exact rule: not supported, exit 0, its backend\'s portability 0',
       'exit %d: %s %s' % (r.returncode, doc.get('portability'), refused))

r = run(['bench', 'graveler', '--battles', '2e5', '--paths', 'openmp,%s' % cl, '--repeat', '2'])
expect(r.returncode == 0 and 'portability' in r.stdout and ('openmp:0 1.000' in r.stdout or cl + ' 1.000' in r.stdout),
       'the table for people names each efficiency, the fastest 1.000', r.stdout[-800:])

r = run(['bench', 'graveler', '--paths', 'openmp', '--backend', 'openmp'])
expect(r.returncode == 2 and '--paths and --backend' in r.stderr, '--paths with --backend is refused', r.stderr)

r = run(['bench', 'all', '--backend', 'openmp,%s' % cl, '--repeat', '1', '--warmup', '0', '--json'])
doc = json.loads(r.stdout) if r.returncode == 0 else {'benches': [], 'portability': []}
expect(r.returncode == 0 and len(doc['portability']) >= 8, 'bench all scores every workload on both backends',
       r.stderr + str(doc.get('portability'))[:300])
check_figures(doc, 'bench all')
finish()
