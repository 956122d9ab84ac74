#!/usr/bin/env python3
"""Under AddressSanitizer, the tests pass whatever OpenCL ICDs the machine
has: a leak inside an ICD is not lockstep's. Debian's mesa-opencl-icd,
which no test uses but the ICD loader opens anyway, leaked 72 bytes with a
stack that ends inside it (rusticl) and 128 from a library it had closed
again (Clover), and LeakSanitizer failed every test that lists the OpenCL
platforms; and its table of the suppressions it used, on stderr, failed
the tests that read stderr.

tests/leaky_icd.c is such an ICD, leaking in both ways and on a thread of
its own. Installed as the machine's only ICD (OCL_ICD_VENDORS), with the
suppressions the suite makes for the ICDs installed (tests/lsan_supp.py,
as tests/meson.build runs it) and the LeakSanitizer options every test of
the suite runs with, `lockstep devices` exits 0 with nothing on stderr.
Without the ICD's line in the suppressions the leak on its own thread is
found, so the check can fail; the other two are not checked at all, as
the loader opens the ICDs (src/leak_check.h).

usage: lsan_icd.py LOCKSTEP LSAN_SUPP_PY PROJECT_SUPPRESSIONS LEAKY_ICD"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import expect, finish  # noqa: E402

LS, GENERATE, PROJECT, ICD = sys.argv[1:5]

suite = os.environ.get('LSAN_OPTIONS', '')
expect(re.search(r'(^|:)suppressions=[^:]+', suite) and re.search(r'(^|:)print_suppressions=0(:|$)', suite),
       'the suite runs with suppressions and without their table on stderr', 'LSAN_OPTIONS=%r' % suite)


def devices(env, supp):
    """`lockstep devices` with the suite's options and the suppressions supp."""
    lsan = re.sub(r'(^|:)suppressions=[^:]*', '', suite).strip(':')
    env = dict(env, LSAN_OPTIONS=('suppressions=%s:%s' % (supp, lsan)).rstrip(':'))
    return subprocess.run([LS, 'devices'], capture_output=True, text=True, env=env, timeout=120)


with tempfile.TemporaryDirectory() as tmp:
    vendors = os.path.join(tmp, 'vendors')
    os.mkdir(vendors)
    with open(os.path.join(vendors, 'leaky.icd'), 'w') as f:
        f.write(os.path.abspath(ICD) + '\n')
    env = dict(os.environ, OCL_ICD_VENDORS=vendors)
    supp = os.path.join(tmp, 'lsan.supp')
    g = subprocess.run([sys.executable, GENERATE, supp, PROJECT], capture_output=True, text=True, env=env)
    expect(g.returncode == 0, 'tests/lsan_supp.py writes the suppressions', g.stderr)
    names = open(supp).read() if g.returncode == 0 else ''
    expect('\nleak:libleaky_icd.so\n' in names, 'the suppressions name the ICD installed here', names[-300:])
    p = devices(env, supp)
    expect(p.returncode == 0 and p.stderr == '' and 'opencl' in p.stdout,
           'devices, with an ICD that leaks installed: exit 0, nothing on stderr',
           'rc=%d stderr=%r' % (p.returncode, p.stderr[-800:]))
    # The same without the ICD's line: the leak is found, so the check
    # above is of the suppression, not of a leak that went unseen.
    p = devices(env, PROJECT)
    expect(p.returncode != 0 and '72 byte' in p.stderr and 'leaked in 1 allocation' in p.stderr,
           'without the ICD in the suppressions, LeakSanitizer reports the 72 bytes of its own thread',
           'rc=%d stderr=%r' % (p.returncode, p.stderr[-300:]))
finish()
