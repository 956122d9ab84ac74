#!/usr/bin/env python3
"""Each device's kernel shape (src/shape.h, issue 35): chosen once from what
the device reports, said by `devices` (text and JSON) and by a run's JSON,
and forced by LOCKSTEP_SHAPE for measuring one shape against another:

  - every OpenCL CPU device (PoCL; Intel's CPU runtime where the tests' ICD
    directory has it) runs the CPU shape, Oclgrind (a simulated GPU without
    shuffles) the group shape, OpenMP none;
  - a run's JSON names the shape its device ran;
  - LOCKSTEP_SHAPE that names no shape, or one the device cannot run (warps
    on PoCL), is refused with exit 2 and one line naming it;
  - forced shapes compute what OpenMP computes: `check life` over the 2D
    kernels that exchange words (LOCKSTEP_DEBUG_LIFE_MANY=1) agrees under
    the group and CPU shapes on PoCL, and under Intel's sub-group shuffles
    where tools/intel_opencl.sh put Intel's runtime in .deps/ (a shuffle
    that reads the wrong lane is seen: the grids differ);
  - the group shape's own 2D walk of 16 generations a pass
    (life_group_2d_*, which the driver takes there without
    LOCKSTEP_DEBUG_LIFE_MANY) computes what OpenMP computes on PoCL forced
    to that shape: odd sizes and aligned rows, rows of two words, of
    several runs, grids shorter than the walk's 16 rows of warm-up, bounded
    planes (a short last word: two margin lanes), B3/S23 (its own kernels)
    and other rules, --every, step counts that are no multiple of 16.

usage: kernel_shape.py LOCKSTEP
"""
import json
import os
import shutil
import subprocess
import sys

from harness import expect, finish

LOCKSTEP = sys.argv[1]
INTEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '.deps', 'intel-opencl', 'vendors')
LIFE = ['check', 'life', '--dims', '2', '--size', '100x37', '--steps', '40', '--quiet']
GROUP_WALK = [
    ['--dims', '2', '--size', '100x37', '--steps', '40'],
    ['--dims', '2', '--size', '64x64', '--steps', '32', '--rule', 'B36/S23'],
    ['--dims', '2', '--size', '33x9', '--steps', '43'],
    ['--dims', '2', '--size', '32x5', '--steps', '17'],
    ['--dims', '2', '--size', '4099x301', '--steps', '37'],
    ['--dims', '2', '--size', '300x200', '--steps', '35', '--every', '10', '--rule', 'B2/S'],
    ['--rule', 'B3/S23:P100,37', '--steps', '40'],
    ['--rule', 'B3/S23:P33,9', '--steps', '33'],
    ['--rule', 'B03/S23:P301,203', '--steps', '31', '--every', '10'],
    ['--rule', 'B36/S23:P2050,67', '--steps', '35'],
]


def run(args, **env):
    e = dict(os.environ)
    e.update(env)
    return subprocess.run([LOCKSTEP] + args, capture_output=True, text=True, timeout=600, env=e)


def opencl_devices(**env):
    r = run(['devices', '--json'], **env)
    expect(r.returncode == 0, 'devices --json runs', r.stderr)
    doc = json.loads(r.stdout)
    return {b['backend']: b['devices'] for b in doc['backends']}


backends = opencl_devices()
expect(all(d['shape'] == 'none' for d in backends.get('openmp', [])), 'OpenMP runs no kernels: shape none',
       str(backends.get('openmp')))
cl = backends.get('opencl', [])
if not cl:
    print('skipped: no OpenCL device here')
    sys.exit(77)
cpus = [d for d in cl if d['type'] == 'CPU']
expect(cpus and all(d['shape'] == 'cpu' for d in cpus), 'every OpenCL CPU device runs the CPU shape',
       str([(d['device'], d['shape']) for d in cl]))
pocl = next((d['device'] for d in cl if 'Portable Computing Language' in d['platform']), None)
intel_env = {'OCL_ICD_VENDORS': INTEL} if os.path.exists(os.path.join(INTEL, 'intel-cpu.icd')) else {}
with_intel = opencl_devices(**intel_env).get('opencl', []) if intel_env else cl
intel = next((d['device'] for d in with_intel if d['platform'].startswith('Intel') and d['type'] == 'CPU'), None)

text = run(['devices'])
expect(text.returncode == 0 and 'kernel shape: cpu (' in text.stdout, 'devices says the shape in words',
       text.stdout[-600:])

if pocl:
    r = run(['life', '--dims', '2', '--size', '64x16', '--steps', '2', '--backend', pocl, '--json'])
    doc = json.loads(r.stdout) if r.returncode == 0 else {}
    expect(doc.get('shape') == 'cpu', "a run's JSON names its device's shape", r.stdout[:300] + r.stderr)
    r = run(['life', '--dims', '2', '--size', '64x16', '--steps', '2', '--backends', pocl + ',openmp', '--json'])
    doc = json.loads(r.stdout) if r.returncode == 0 else {}
    expect(sorted(d.get('shape') for d in doc.get('devices', [])) == ['cpu', 'none'],
           "a run on a set names each device's shape", r.stdout[:400] + r.stderr)
    for bad, says in (('warp', 'cannot run that kernel shape'), ('wavefront', 'not a kernel shape')):
        r = run(['life', '--steps', '2', '--backend', pocl], LOCKSTEP_SHAPE=bad)
        expect(r.returncode == 2 and says in r.stderr and 'LOCKSTEP_SHAPE=' + bad in r.stderr
               and r.stderr.count('\n') == 1, 'LOCKSTEP_SHAPE=%s on PoCL: exit 2, one line' % bad,
               'exit %d: %s' % (r.returncode, r.stderr))
    for shape in ('group', 'cpu'):
        r = run(LIFE + ['--backends', 'openmp,' + pocl], LOCKSTEP_SHAPE=shape, LOCKSTEP_DEBUG_LIFE_MANY='1')
        expect(r.returncode == 0 and 'devices agree' in r.stdout, 'PoCL forced to the %s shape agrees' % shape,
               r.stdout + r.stderr)
    for args in GROUP_WALK:
        r = run(['check', 'life', '--quiet', '--backends', 'openmp,' + pocl] + args, LOCKSTEP_SHAPE='group',
                LOCKSTEP_DEBUG_LIFE_MANY='0')
        expect(r.returncode == 0 and 'devices agree' in r.stdout,
               "PoCL in the group shape, its 2D walk: check life %s agrees" % ' '.join(args), r.stdout + r.stderr)
if intel:
    r = run(LIFE + ['--backends', 'openmp,' + intel], LOCKSTEP_SHAPE='subgroup', LOCKSTEP_DEBUG_LIFE_MANY='1',
            **intel_env)
    expect(r.returncode == 0 and 'devices agree' in r.stdout,
           "Intel's CPU runtime in sub-groups of 32 shuffling agrees", r.stdout + r.stderr)
else:
    print("note: Intel's OpenCL CPU runtime is not here: its sub-group shape is not run")
finish()
