#!/usr/bin/env python3
"""`lockstep check` can fail, and names the field that differs.

For every workload, every member of its result JSON (what `--json` prints
besides where and how fast it ran) is perturbed in turn on one backend with
LOCKSTEP_DEBUG_FAULT, and `check` across two backends must exit 1 and name
that field (in its report, and in --json's "differs" of the run that has it). This shows the digest covers every field the JSON carries.
Without two backends there is nothing to compare: exit 77 (skipped).

usage: check_faults.py LOCKSTEP
"""
import json
import subprocess
import sys

LOCKSTEP = sys.argv[1]
SMALL = {'graveler': ['--battles', '100000'], 'bmn': ['--deals', '5000'], 'ray': ['--size', '32x16', '--spp', '2'],
         'life': ['--dims', '3', '--size', '13x11x9', '--steps', '5', '--density', '0.3', '--every', '2']}
META = {'lockstep', 'params', 'workload', 'backend', 'device_index', 'device', 'device_name', 'interrupted', 'seconds',
        'digest', 'wall_seconds', 'ranks', 'devices', 'clock', 'clock_fallback', 'shape'}


def run(args, env=None):
    import os
    e = dict(os.environ)
    e.pop('LOCKSTEP_DEBUG_FAULT', None)
    if env:
        e.update(env)
    return subprocess.run([LOCKSTEP] + args, capture_output=True, text=True, env=e, timeout=600)


devices = json.loads(run(['devices', '--json']).stdout)
avail = [b['backend'] for b in devices['backends'] if b['available']]
if 'openmp' not in avail or 'opencl' not in avail:
    print('skipped: needs openmp and opencl to compare, have %s' % avail)
    sys.exit(77)

failed = 0
for workload, size in SMALL.items():
    cmd = [workload] + (['search'] if workload == 'bmn' else [])
    out = run(cmd + size + ['--backend', 'openmp', '--json', '--quiet'])
    doc = json.loads(out.stdout)
    fields = [k for k in doc if k not in META and not k.endswith('_per_second')]
    clean = run(['check', workload] + size + ['--backends', 'openmp,opencl', '--quiet'])
    if clean.returncode != 0:
        print('FAIL %s: check without a fault exited %d\n%s' % (workload, clean.returncode, clean.stdout))
        failed += 1
        continue
    clean_json = json.loads(run(['check', workload] + size + ['--backends', 'openmp,opencl', '--quiet', '--json']).stdout)
    ok = [r.get('differs') for r in clean_json['runs']] == [[], []]
    print('%s %s: check --json without a fault lists no differing field' % ('ok  ' if ok else 'FAIL', workload))
    failed += not ok
    for field in fields:
        fault = {'LOCKSTEP_DEBUG_FAULT': 'opencl:' + field}
        r = run(['check', workload] + size + ['--backends', 'openmp,opencl', '--quiet'], fault)
        ok = r.returncode == 1 and ('field %s' % field) in r.stdout
        print('%s %s.%s: exit %d%s' % ('ok  ' if ok else 'FAIL', workload, field, r.returncode,
                                       '' if ok else '\n' + r.stdout + r.stderr))
        failed += not ok
        # --json names it too: "differs" of the run on opencl, against openmp's (the reference).
        j = run(['check', workload] + size + ['--backends', 'openmp,opencl', '--quiet', '--json'], fault)
        try:
            runs = {x['device']: x for x in json.loads(j.stdout)['runs']}
            differs = runs['opencl:0']['differs']
            ok = (j.returncode == 1 and field in differs and set(differs) <= set(fields) and
                  runs['openmp:0']['differs'] == [] and runs['openmp:0']['reference'])
        except (ValueError, KeyError) as e:
            ok, differs = False, repr(e)
        print('%s %s.%s: check --json lists differs %s' % ('ok  ' if ok else 'FAIL', workload, field, differs))
        failed += not ok
print('%d failed' % failed)
sys.exit(1 if failed else 0)
