#!/usr/bin/env python3
"""Three outcomes of a conformance case (issue 25, item 5): pass, fail, or
not supported with the reason, as the OpenCL CTS and ggml's
test-backend-ops report them. A device without correctly rounded divide
and sqrt rightly refuses the exact float rule and the exact-mode ray cases
(LOCKSTEP_DEBUG_INEXACT_DIVIDE=1 makes PoCL's OpenCL device seem to lack
them), and a backend that is not available here cannot run any case;
both used to be reported wrongly: the refusal as a FAIL (exit 1), the
backend as one "not available" line absent from the counts and the JUnit
file. Now each is "not supported" in the table, the JSON, the summary and
the JUnit file (<skipped message="...">), and only a failure exits 1;
when nothing could run at all the exit status stays 77 with
--skip-unavailable (1 without).

`check` too (issue 35): a device (or a set holding one) that refuses ray's
exact mode is a row "not supported" with the reason, left out of the
comparison, not an error that fails the check (exit 1): `check all`
failed so on every device without correctly rounded divide and sqrt,
Intel's OpenCL CPU runtime among them.

usage: conformance_outcomes.py LOCKSTEP
"""
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from harness import expect, finish

LS = os.path.abspath(sys.argv[1])
CASES = '[er]*'  # the exact float rule and the ray cases: what needs the rule


def run(*args, env=None):
    e = dict(os.environ)
    e.pop('LOCKSTEP_DEBUG_FAULT', None)
    e.update(env or {})
    return subprocess.run([LS, 'conformance', *args], capture_output=True, text=True, env=e, timeout=300)


backends = json.loads(subprocess.run([LS, 'devices', '--json'], capture_output=True, text=True).stdout)['backends']
available = {b['backend'] for b in backends if b['available']}
if 'opencl' not in available:
    print('no OpenCL device here: skipped')
    sys.exit(77)
# A backend built in but not available here (CUDA without a GPU), if any.
absent = [b['backend'] for b in backends if not b['available']]
listed = ['openmp', 'opencl'] + absent[:1]
selected = [l for l in run('--list', '--case', CASES).stdout.splitlines() if l]
REFUSES = {'LOCKSTEP_DEBUG_INEXACT_DIVIDE': '1'}

with tempfile.TemporaryDirectory() as tmp:
    junit = os.path.join(tmp, 'conformance.xml')
    p = run('--backend', ','.join(listed), '--case', CASES, '--junit', junit, '--json', env=REFUSES)
    d = json.loads(p.stdout) if p.stdout.startswith('{') else {}
    by = {}
    for c in d.get('cases', []):
        by.setdefault(c['device'], []).append(c)
    n = len(selected)
    expect(p.returncode == 0, 'refusals and an absent backend, no failure: exit 0', p.stderr)
    expect([c.get('outcome') for c in by.get('openmp:0', [])] == ['pass'] * n, 'the CPU passes every case',
           str(by.get('openmp:0')))
    refused = by.get('opencl:0', [])
    expect(len(refused) == n and all(c.get('outcome') == 'not supported' and not c.get('pass') and not c.get('error') and
                                     'CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT' in c.get('detail', '') for c in refused),
           'a device without correctly rounded divide and sqrt: every case not supported, with the reason',
           str(refused))
    if absent:
        gone = by.get(absent[0], [])
        expect(len(gone) == n and all(c.get('outcome') == 'not supported' and 'not available' in c.get('detail', '')
                                      for c in gone),
               'an absent backend (%s): every case not supported, with the reason' % absent[0], str(gone))
    unsupported = n * (len(listed) - 1)
    expect(d.get('passed') == n and d.get('failed') == 0 and d.get('not_supported') == unsupported,
           'the JSON counts all three outcomes', str({k: d.get(k) for k in ('passed', 'failed', 'not_supported')}))
    try:
        root = ET.parse(junit).getroot()
    except (OSError, ET.ParseError) as e:
        root = ET.Element('none')
        expect(False, 'the JUnit file is XML', repr(e))
    skipped = list(root.iter('skipped'))
    suites = {s.get('name'): s for s in root.findall('testsuite')}
    expect(root.get('skipped') == str(unsupported) and len(skipped) == unsupported and
           all(s.get('message') for s in skipped) and not list(root.iter('failure')),
           'JUnit: every case not supported is <skipped message="...">', ET.tostring(root, 'unicode')[:2000])
    expect(suites.get('opencl:0') is not None and suites['opencl:0'].get('skipped') == str(n) and
           all(suites.get(b) is not None and suites[b].get('tests') == str(n) for b in absent[:1]),
           'JUnit: a testsuite for the refusing device and for the absent backend', str(list(suites)))

    # The table and its summary.
    p = run('--backend', ','.join(listed), '--case', CASES, env=REFUSES)
    rows = [l for l in p.stdout.splitlines() if l.startswith('opencl:0')]
    expect(p.returncode == 0 and len(rows) == n and all('not supported' in l and 'FAIL' not in l for l in rows) and
           'conformance: %d passed, 0 failed, %d not supported' % (n, unsupported) in p.stdout,
           'the table says not supported, and the summary counts it', p.stdout)

    # A failure still fails, counted apart from what is not supported.
    p = run('--backend', 'openmp,opencl', '--case', CASES, '--json',
            env=dict(REFUSES, LOCKSTEP_DEBUG_FAULT='openmp:conformance'))
    d = json.loads(p.stdout) if p.stdout.startswith('{') else {}
    expect(p.returncode == 1 and d.get('failed') == n and d.get('not_supported') == n and d.get('passed') == 0,
           'a failure exits 1, and is not counted as not supported', p.stdout[-400:])

    # Without the switch the same device keeps the rule: it was the refusal.
    p = run('--backend', 'opencl', '--workload', 'float', '--json')
    d = json.loads(p.stdout) if p.stdout.startswith('{') else {}
    expect(p.returncode == 0 and d.get('passed') == 1 and d.get('not_supported') == 0,
           'without the switch the OpenCL device passes the float rule', p.stdout + p.stderr)

    # check: the refusal is not supported, not a failure; only OpenMP's
    # image is left to compare (77), and the rest still agree.
    check = [LS, 'check', 'ray', '--size', '16x8', '--spp', '1', '--quiet']
    e = dict(os.environ, **REFUSES)
    e.pop('LOCKSTEP_DEBUG_FAULT', None)
    p = subprocess.run(check + ['--backend', 'openmp,opencl', '--json'], capture_output=True, text=True, env=e,
                       timeout=300)
    d = json.loads(p.stdout) if p.stdout.startswith('{') else {}
    runs = {r.get('device'): r for r in d.get('runs', [])}
    gone = runs.get('opencl:0', {})
    expect(p.returncode == 77 and d.get('status') == 'skipped' and d.get('compared') == 1 and
           d.get('not_supported') == 1 and 'error' not in gone and
           'CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT' in gone.get('not_supported', ''),
           'check ray: a device refusing the exact rule is not supported, with the reason; not an error',
           'rc=%d %s %s' % (p.returncode, p.stdout[-600:], p.stderr))
    p = subprocess.run(check + ['--backend', 'openmp,opencl,openmp+opencl'], capture_output=True, text=True, env=e,
                       timeout=300)
    rows = [l for l in p.stdout.splitlines() if l.startswith(('opencl:0 ', 'openmp+opencl '))]
    expect(p.returncode == 77 and len(rows) == 2 and all('not supported: opencl:0: ' in l for l in rows) and
           'error' not in p.stdout and 'only 1 device ran' in p.stdout and '2 not supported' in p.stdout,
           'check ray: the device and a set holding it are rows not supported, saying why', p.stdout)

    # Nothing available at all: the exit status of old, the counts and the JUnit file.
    if absent:
        p = run('--backend', absent[0], '--case', CASES, '--junit', junit, '--skip-unavailable')
        root = ET.parse(junit).getroot() if os.path.exists(junit) else ET.Element('none')
        expect(p.returncode == 77 and '0 passed, 0 failed, %d not supported' % n in p.stdout and
               root.get('skipped') == str(n),
               'only an absent backend: exit 77 with --skip-unavailable, counted, in the JUnit file',
               p.stdout + p.stderr)
        p = run('--backend', absent[0], '--case', CASES)
        expect(p.returncode == 1, 'only an absent backend, without --skip-unavailable: exit 1 as before', p.stderr)
finish()
