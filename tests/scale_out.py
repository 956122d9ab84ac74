#!/usr/bin/env python3
"""Several devices of one host in one run (--backend a,b / NAME:all):
  - graveler and bmn search over openmp + opencl give the single device's
    result, member for member, and every device did part of the work;
  - `check` compares a group against single devices and agrees;
  - Ctrl-C stops a group run after its chunks, and the checkpoint it left
    resumes on one device to the uninterrupted answer;
  - refusals: a device named twice, or
    for conformance, an unavailable backend in a list.
Needs openmp and opencl (PoCL here); exit 77 otherwise.

usage: scale_out.py LOCKSTEP
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from harness import expect, finish

LS = os.path.abspath(sys.argv[1])
META = {'lockstep', 'params', 'workload', 'backend', 'device_index', 'device', 'device_name', 'interrupted', 'seconds',
        'digest', 'wall_seconds', 'ranks', 'devices', 'shape'}
def run(*args, timeout=600):
    return subprocess.run([LS, *args], capture_output=True, text=True, timeout=timeout)


def result(doc):
    return {k: v for k, v in doc.items() if k not in META and not k.endswith('_per_second')}


devices = json.loads(run('devices', '--json').stdout)
avail = [b['backend'] for b in devices['backends'] if b['available']]
if 'openmp' not in avail or 'opencl' not in avail:
    print('skipped: needs openmp and opencl, have %s' % avail)
    sys.exit(77)

CASES = [('graveler', ['graveler', '--battles', '3e7'], 'battles'),
         ('bmn', ['bmn', 'search', '--deals', '4e5', '--top', '7'], 'deals')]
for name, args, unit in CASES:
    one = run(*args, '--backend', 'openmp', '--json', '--quiet')
    expect(one.returncode == 0, '%s on openmp runs' % name, one.stderr)
    ref = json.loads(one.stdout)
    for spec in ['openmp,opencl', 'opencl:all+openmp']:
        r = run(*args, '--backend', spec, '--json', '--quiet')
        expect(r.returncode == 0, '%s on %s runs' % (name, spec), r.stderr)
        if r.returncode:
            continue
        doc = json.loads(r.stdout)
        expect(doc['digest'] == ref['digest'], '%s on %s: digest %s as on one device' % (name, spec, doc['digest']),
               'one device: %s' % ref['digest'])
        expect(result(doc) == result(ref), '%s on %s: every result member as on one device' % (name, spec))
        devs = doc.get('devices', [])
        expect(len(devs) == 2 and all(d['items'] > 0 for d in devs) and sum(d['items'] for d in devs) == ref[unit],
               '%s on %s: both devices took a share, adding up to the %s' % (name, spec, unit), str(devs))
    text = run(*args, '--backend', 'openmp,opencl', '--quiet')
    expect(text.returncode == 0 and 'backend:  2 devices' in text.stdout and 'opencl:0' in text.stdout,
           '%s: the report lists each device' % name, text.stdout[:400])

r = run('check', 'graveler', '--battles', '1e7', '--quiet', '--backends', 'openmp,opencl,openmp+opencl')
expect(r.returncode == 0 and '3 devices agree' in r.stdout, 'check: a group agrees with single devices',
       r.stdout + r.stderr)
r = run('check', 'ray', '--size', '32x16', '--spp', '2', '--quiet', '--backends', 'openmp,opencl,openmp+opencl')
expect(r.returncode == 0 and '3 devices agree' in r.stdout, 'check: a group agrees with single devices for ray too',
       r.stdout + r.stderr)

# conformance on a set: the cases of the workloads that run on a set, as one
# run over its devices, and the float rule on each device; a failure on one
# device of the set fails the set's cases.
r = run('conformance', '--backend', 'openmp+opencl', '--json')
doc = json.loads(r.stdout) if r.returncode == 0 and r.stdout else {}
cases = doc.get('cases', [])
names = [c.get('case', '') for c in cases]
expect(r.returncode == 0 and names and all(c.get('device') == 'openmp+opencl' and c.get('pass') for c in cases)
       and any(n.startswith('graveler') for n in names) and any(n.startswith('bmn') for n in names)
       and any(n.startswith('ray') for n in names) and any(n.startswith('exact float') for n in names),
       'conformance on a set: the float rule and the cases of graveler, bmn, ray and life, all pass',
       'exit %d %s %s' % (r.returncode, r.stdout[:300], r.stderr))
expect(any(n.startswith('life') for n in names), 'conformance on a set: Life\'s cases too (every workload runs on one)',
       str(names))
env = dict(os.environ, LOCKSTEP_DEBUG_FAULT='opencl:conformance')
r = subprocess.run([LS, 'conformance', '--backend', 'openmp+opencl', '--workload', 'graveler'], capture_output=True,
                   text=True, env=env)
expect(r.returncode == 1 and 'FAIL' in r.stdout, 'conformance on a set fails when a device of it fails',
       'exit %d %s' % (r.returncode, r.stdout[-300:]))

# Ctrl-C on a group, then a resume on one device.
with tempfile.TemporaryDirectory() as tmp:
    ck = os.path.join(tmp, 'search.ckpt')
    total = '6e6'
    p = subprocess.Popen([LS, 'bmn', 'search', '--deals', total, '--backend', 'openmp,opencl', '--checkpoint', ck,
                          '--json', '--quiet'], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    doc = json.loads(out) if p.returncode == 130 and out else {}
    expect(p.returncode == 130 and doc.get('interrupted') is True and 0 < doc.get('deals', 0) < 6e6,
           'Ctrl-C stops a group run with what was done', 'exit %d %s %s' % (p.returncode, out[:200], err))
    resumed = run('bmn', 'search', '--deals', total, '--backend', 'openmp', '--checkpoint', ck, '--json', '--quiet')
    straight = run('bmn', 'search', '--deals', total, '--backend', 'openmp', '--json', '--quiet')
    a, b = json.loads(resumed.stdout or '{}'), json.loads(straight.stdout or '{}')
    expect(resumed.returncode == 0 and a.get('digest') == b.get('digest') and a.get('deals') == 6000000,
           'a group\'s checkpoint resumes on one device to the uninterrupted answer',
           '%s %s %s' % (a.get('digest'), b.get('digest'), resumed.stderr))

# Refusals: one line, exit 2 (the user's error) or 1 (not available).
for args, code, words in [
        (['graveler', '--backend', 'openmp,openmp'], 2, 'named twice'),
        (['graveler', '--backend', 'openmp,auto'], 2, 'auto stands alone'),
        (['graveler', '--backend', 'openmp,,'], None, None),
        (['graveler', '--backend', 'nosuch:all'], 2, 'unknown backend'),
]:
    r = run(*args)
    if code is None:  # a stray comma: either refused in one line or ignored, never a crash
        expect(r.returncode in (0, 2) and r.stderr.count('\n') <= 1, ' '.join(args), r.stderr)
        continue
    expect(r.returncode == code and words in r.stderr and r.stderr.count('\n') == 1,
           '%s: exit %d, "%s"' % (' '.join(args), code, words), 'exit %d: %s' % (r.returncode, r.stderr))
cuda = [b for b in devices['backends'] if b['backend'] == 'cuda']
if cuda and not cuda[0]['available']:
    r = run('graveler', '--backend', 'openmp,cuda:all', '--battles', '1e5')
    expect(r.returncode == 1 and 'cuda is not available' in r.stderr, 'a list with an unavailable backend',
           r.stderr)

finish()
