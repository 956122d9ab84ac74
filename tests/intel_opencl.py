#!/usr/bin/env python3
"""Intel's OpenCL CPU runtime, an OpenCL implementation with a compiler of
its own (LLVM with Intel's vectorizer), as a test device beside PoCL and
Oclgrind (issue 35):

- `conformance` on it: every case passes, except those under the exact
  floating-point rule (the float probe, ray), which are not supported,
  naming CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT, where the device does not
  offer correctly rounded divide and sqrt (this runtime says it does not;
  should it ever say it does, they must pass);
- `check all` on OpenMP, PoCL and it: every workload agrees, ray's exact
  mode not supported on it as above;
- Life 3D's tile walk, many generations a launch with group barriers
  between them (LOCKSTEP_DEBUG_LIFE_MANY=1 makes the driver choose it on
  a CPU; 2D's many-generation kernel runs on CPUs anyway), agrees with
  OpenMP and PoCL; forced to sub-groups of 32 (where the walk runs), its
  rows of a warp and its wide rows of two agree with OpenMP;
- ray's fast mode runs on it, within its PSNR bound of exact mode
  (docs/ray.md), 40 dB from 10 samples on, also at the horizon.

Its compiler never finished building Graveler's program while an unroll
pragma meant for NVIDIA asked it to unroll the 64-battle loop around an
already unrolled battle; `conformance` and `check all` hung so, their
memory growing past 9 GB. Every run here is bounded in time (killed at
the limit: SIGTERM did not end such a run) and in address space (the
compiler then aborts), so a build that runs away fails this test with a
message instead of hanging the suite or starving the machine.

The runtime is the one tools/intel_opencl.sh installs (tools/deps.sh
--tests does) into .deps/intel-opencl of the source tree; the runs see it
through OCL_ICD_VENDORS, whose directory lists the system's ICDs too.
Exit 77 (skipped) when it is not installed.

usage: intel_opencl.py LOCKSTEP SOURCE_ROOT
"""
import json
import os
import resource
import subprocess
import sys

from harness import expect, finish

LOCKSTEP, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
VENDORS = os.path.join(ROOT, '.deps', 'intel-opencl', 'vendors')
if not os.path.exists(os.path.join(VENDORS, 'intel-cpu.icd')):
    print('skipped: Intel\'s OpenCL CPU runtime is not installed (bash tools/intel_opencl.sh, which tools/deps.sh '
          '--tests runs, puts it in .deps/intel-opencl)')
    sys.exit(77)
ENV = dict(os.environ, OCL_ICD_VENDORS=VENDORS)
ENV.pop('LOCKSTEP_DEBUG_FAULT', None)
SECONDS = 180           # a run that takes longer is killed: a build that never ends
ADDRESS_SPACE = 6 << 30  # a compiler that grows past this aborts
REFUSAL = 'CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT'


def bounded():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def run(args, env=None):
    """lockstep ARGS with Intel's runtime in sight, bounded: (exit status
    or None when it ran past SECONDS and was killed, stdout, stderr)."""
    p = subprocess.Popen([LOCKSTEP] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=dict(ENV, **(env or {})), preexec_fn=bounded)
    try:
        out, err = p.communicate(timeout=SECONDS)
        return p.returncode, out, err
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        return None, out, err


def why(what, rc, out, err):
    """What a failed run's report says: the limit it ran past, or how it ended."""
    if rc is None:
        head = '%s did not finish in %d s and was killed (a program build that never ends?)' % (what, SECONDS)
    elif rc < 0:
        head = '%s was killed by signal %d (a build past the %d GiB address space cap aborts)' % (
            what, -rc, ADDRESS_SPACE >> 30)
    else:
        head = '%s exited %d' % (what, rc)
    return '%s\nstdout: %s\nstderr: %s' % (head, out[-1500:], err[-1500:])


def doc(out):
    try:
        return json.loads(out)
    except ValueError:
        return {}


rc, out, err = run(['devices', '--json'])
devices = [d for b in doc(out).get('backends', []) if b.get('backend') == 'opencl' for d in b.get('devices', [])]
intel = [d['device'] for d in devices if d.get('platform') == 'Intel(R) OpenCL']
pocl = [d['device'] for d in devices if d.get('platform') == 'Portable Computing Language']
if not expect(rc == 0 and intel, 'OCL_ICD_VENDORS=%s: Intel\'s device is listed' % VENDORS,
              why('devices --json', rc, out, err)):
    finish()
INTEL = intel[0]
print('Intel\'s runtime is %s; PoCL %s' % (INTEL, pocl[0] if pocl else 'absent'))

# ---- conformance ------------------------------------------------------------
rc, out, err = run(['conformance', '--backend', INTEL, '--json'])
d = doc(out)
cases = d.get('cases', [])
exact = [c for c in cases if c.get('case', '').startswith(('exact float', 'ray '))]
others = [c for c in cases if c not in exact]
expect(rc == 0 and cases and d.get('failed') == 0, 'conformance on %s: exit 0, nothing failed' % INTEL,
       why('conformance', rc, out, err))
expect(others and all(c.get('outcome') == 'pass' for c in others),
       'conformance on %s: every case outside the exact rule passes (%d)' % (INTEL, len(others)),
       str([c for c in others if c.get('outcome') != 'pass']))
expect(exact and all(c.get('outcome') == 'pass' or (c.get('outcome') == 'not supported' and REFUSAL in c.get('detail', ''))
                     for c in exact),
       'conformance on %s: the exact rule\'s cases pass, or are not supported naming %s' % (INTEL, REFUSAL),
       str(exact))

# ---- check all beside OpenMP and PoCL ----------------------------------------------
spec = ','.join(['openmp'] + pocl[:1] + [INTEL])
rc, out, err = run(['check', 'all', '--backend', spec, '--quiet', '--json'])
d = doc(out)
checks = {c.get('workload'): c for c in d.get('checks', [])}
expect(rc == 0 or (rc == 77 and not pocl), 'check all --backend %s: exit 0' % spec, why('check all', rc, out, err))
for name in ('graveler', 'bmn', 'life', 'ray'):
    c = checks.get(name, {})
    runs = {r.get('device'): r for r in c.get('runs', [])}
    mine = runs.get(INTEL, {})
    refused = name == 'ray' and REFUSAL in mine.get('not_supported', '')
    expect(c.get('agree') is True or (refused and not pocl),
           'check %s: the devices agree' % name, json.dumps(c)[:1500])
    expect(mine.get('matches_reference') is True or refused,
           'check %s: %s agrees with OpenMP%s' % (name, INTEL, ' (or is not supported: the exact rule)'
                                                  if name == 'ray' else ''), json.dumps(mine))

# ---- Life 3D's tile walk -----------------------------------------------------------
# A tile taller than the grid, segments of planes (as the check suite).
args = ['--dims', '3', '--size', '1023x20x61', '--steps', '13']
rc, out, err = run(['check', 'life'] + args + ['--backend', spec, '--quiet'], {'LOCKSTEP_DEBUG_LIFE_MANY': '1'})
expect(rc == 0 and '%d devices agree' % len(spec.split(',')) in out,
       'check life %s, the tile walk: %s agrees' % (' '.join(args), INTEL), why('check life', rc, out, err))

# The tile walk runs only where work-items shuffle, so here with the
# runtime forced to sub-groups of 32 (LOCKSTEP_SHAPE=subgroup), beside
# OpenMP: rows of up to 32 words (a warp a row), and the wide walk's rows
# of 33 to 64 words (two warps a row, their end words handed over through
# local memory: a wrong hand-over makes the grids differ), with tiles
# moved up, short last words, another rule built in and as kernel
# arguments, a bounded plane; rows of 65 words take the walk of one
# generation.
SUBGROUP = {'LOCKSTEP_DEBUG_LIFE_MANY': '1', 'LOCKSTEP_SHAPE': 'subgroup'}
TILE_WALK = [
    (['--dims', '3', '--size', '1023x20x61', '--steps', '13'], {}),
    (['--dims', '3', '--size', '2048x61x23', '--steps', '9', '--density', '0.3'], {}),
    (['--dims', '3', '--size', '2047x45x13', '--steps', '7', '--density', '0.3'], {}),
    (['--dims', '3', '--size', '1056x30x11', '--steps', '6', '--rule', 'B5/S45'], {}),
    (['--dims', '3', '--size', '1500x37x11', '--steps', '7', '--rule', 'B0,5/S4-6'],
     {'LOCKSTEP_DEBUG_LIFE_RULE_ARGS': '1'}),
    (['--rule', 'B0,6/S5-7:P2047,45,20', '--steps', '9'], {}),
    (['--dims', '3', '--size', '2080x40x9', '--steps', '4'], {}),
]
for args, env in TILE_WALK:
    rc, out, err = run(['check', 'life'] + args + ['--backend', 'openmp,' + INTEL, '--quiet'], dict(SUBGROUP, **env))
    expect(rc == 0 and '2 devices agree' in out,
           'check life %s%s, the tile walk in sub-groups: %s agrees' % (' '.join(args), ''.join(
               ' ' + k + '=' + v for k, v in env.items()), INTEL), why('check life', rc, out, err))


# ---- ray's fast mode ----------------------------------------------------------
# 48x32 x 16 as README's 40 dB from 10 samples on; 8192x1 and 7x3 are
# horizon, where the bound min(40, 30 + 10 log10(spp)) of docs/ray.md is
# tightest (Intel's native_rsqrt took them to 20.4 and 32.8 dB). `check ray
# --mode fast` measures each fast image against exact mode's on openmp
# (this runtime does not run exact mode) and holds it to that bound.
for size, spp in (('48x32', 16), ('8192x1', 1), ('7x3', 4)):
    rc, out, err = run(['check', 'ray', '--mode', 'fast', '--size', size, '--spp', str(spp), '--backends',
                        'openmp,' + INTEL, '--quiet', '--json'])
    try:
        doc = json.loads(out)
    except ValueError:
        doc = {}
    mine = {x.get('device'): x for x in doc.get('runs', [])}.get(INTEL, {})
    db = mine.get('psnr_db', 0)
    expect(rc == 0 and mine.get('within_bound') is True and
           (doc.get('exact_reference') or {}).get('device') == 'openmp:0',
           'ray fast mode on %s, %s x %d: %s PSNR from exact (at least %s)'
           % (INTEL, size, spp, 'identical' if db is None else '%.1f dB' % db, doc.get('bound_psnr_db')),
           why('check ray --mode fast', rc, out, err))
finish()
