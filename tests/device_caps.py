#!/usr/bin/env python3
"""What a device can do, asked one way (src/caps.h, issue 37 item 3), and
answered as the device is, by what its API reports rather than its name:

  - `devices --json` has every capability of every device in "supports",
    and a reason for each it lacks in "not_supported"; `devices` says the
    same in words;
  - the reference (OpenMP) keeps the exact float rule and runs no kernels;
  - each OpenCL device keeps the exact float rule exactly when clinfo
    reports CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT and CL_FP_DENORM (PoCL
    does; Oclgrind and Intel's CPU runtime do not), offers sub-group
    shuffles only with cl_intel_subgroups (Intel's runtime, where the
    tests' .deps has it), warp shuffles only on NVIDIA's platform, and
    neither device-to-device copies nor shared memory (OpenCL has none);
  - a CUDA GPU (where there is one) has warps, copies, sharing and the rule;
  - a case a device does not support is reported "not supported" by name,
    the capability and the device's reason in its detail
    (LOCKSTEP_DEBUG_INEXACT_DIVIDE=1 takes the rule from PoCL), while the
    cases that need nothing still run there;
  - a kernel shape forced where the device cannot run it says the
    device's reason.

usage: device_caps.py LOCKSTEP
"""
import json
import os
import re
import shutil
import subprocess
import sys

from harness import expect, finish

LS = sys.argv[1]
CAPS = ['kernels', 'warp_shuffle', 'subgroup_shuffle', 'exact_fp', 'defines', 'copy', 'share']
INTEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '.deps', 'intel-opencl', 'vendors')


def run(args, env=None, prefix=()):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([*prefix, LS, *args], capture_output=True, text=True, env=e, timeout=600)


def devices(env=None, prefix=()):
    p = run(['devices', '--json'], env, prefix)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = {}
    expect(p.returncode == 0 and doc.get('backends'), 'devices --json%s' % (' under ' + prefix[0] if prefix else ''),
           p.stderr)
    return [d for b in doc.get('backends', []) for d in b['devices']]


def supported(d):
    return {c for c in CAPS if d.get('supports', {}).get(c)}


def clinfo_devices(env=None):
    """Each OpenCL device as clinfo --raw reports it, in the order both number them."""
    clinfo = shutil.which('clinfo')
    if not clinfo:
        return None
    e = dict(os.environ)
    e.update(env or {})
    raw = subprocess.run([clinfo, '--raw'], capture_output=True, text=True, env=e).stdout
    found = {}
    for m in re.finditer(r'^(\[[^\]]+/\d+\])\s+(CL_DEVICE_SINGLE_FP_CONFIG|CL_DEVICE_EXTENSIONS)\s+(.*)$', raw, re.M):
        found.setdefault(m.group(1), {}).setdefault(m.group(2), m.group(3))
    return list(found.values())


def check_opencl(devs, env=None, where=''):
    """Every OpenCL device of devs against clinfo's report of it."""
    cl = sorted((d for d in devs if d['device'].startswith('opencl:')), key=lambda d: d['index'])
    info = clinfo_devices(env)
    if info is None or len(info) != len(cl):
        print('(no clinfo, or it lists other devices%s: OpenCL capabilities not compared)' % where)
        return
    for d, c in zip(cl, info):
        fp = c.get('CL_DEVICE_SINGLE_FP_CONFIG', '')
        exts = c.get('CL_DEVICE_EXTENSIONS', '').split()
        exact = 'CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT' in fp and 'CL_FP_DENORM' in fp
        name = '%s (%s)%s' % (d['device'], d['platform'], where)
        expect(d['supports']['exact_fp'] == exact, '%s: the exact float rule as clinfo\'s fp config says (%s)' %
               (name, exact), '%s: %s' % (fp, d['supports']))
        if not exact:
            expect('CL_FP_' in d['not_supported'].get('exact_fp', ''), '%s: the rule refused naming the flag' % name,
                   str(d['not_supported']))
        expect(not d['supports']['subgroup_shuffle'] or 'cl_intel_subgroups' in exts,
               '%s: sub-group shuffles only with cl_intel_subgroups' % name, str(d['supports']))
        expect(d['supports']['warp_shuffle'] == (d['platform'] == 'NVIDIA CUDA'),
               '%s: warp shuffles only on NVIDIA\'s OpenCL' % name, str(d['supports']))
        expect({'kernels', 'defines'} <= supported(d) and not {'copy', 'share'} & supported(d) and
               d['not_supported'].get('copy') and d['not_supported'].get('share'),
               '%s: kernels and definitions, no copies or sharing (OpenCL has none), saying why' % name, str(d))


devs = devices()
for d in devs:
    expect(sorted(d.get('supports', {})) == sorted(CAPS) and
           sorted(d.get('not_supported', {})) == sorted(set(CAPS) - supported(d)) and
           all(isinstance(w, str) and w for w in d['not_supported'].values()),
           '%s: every capability answered, a reason for each it lacks' % d['device'], str(d))
    expect(d['shape'] == 'none' if 'kernels' not in supported(d) else d['shape'] != 'none',
           '%s: a kernel shape exactly where it runs kernels' % d['device'], d['shape'])
ref = next((d for d in devs if d['device'] == 'openmp:0'), {})
expect(supported(ref) == {'exact_fp'}, 'openmp:0: the exact float rule, no kernels', str(ref.get('supports')))
text = run(['devices']).stdout
expect(text.count(' supports: ') == len(devs) and 'not supported: kernels, ' in text and
       'the exact float rule' in text, 'devices says what each device supports and what not, in words', text)
for d in devs:
    for why in sorted(set(d['not_supported'].values())):
        expect(why in text, '%s: devices gives the reason "%s"' % (d['device'], why), text)

for d in devs:
    if d['device'].startswith('cuda:'):
        expect({'kernels', 'warp_shuffle', 'exact_fp', 'copy', 'share'} <= supported(d) and
               'subgroup_shuffle' not in supported(d), '%s: warps, copies, sharing and the rule' % d['device'],
               str(d['supports']))
if not any(d['device'].startswith('cuda:') for d in devs):
    print('(no CUDA GPU here: its capabilities not seen)')

check_opencl(devs)
if os.path.exists(os.path.join(INTEL, 'intel-cpu.icd')):
    env = {'OCL_ICD_VENDORS': INTEL}
    with_intel = devices(env)
    intel = [d for d in with_intel if d['platform'].startswith('Intel')]
    check_opencl(with_intel, env, ' with Intel\'s runtime')
    if intel:
        expect(intel[0]['supports']['subgroup_shuffle'], "Intel's CPU runtime: sub-group shuffles of 32",
               str(intel[0]))
    else:
        print("(Intel's runtime is in .deps but lists no device)")
else:
    print("(Intel's OpenCL CPU runtime is not in .deps: not compared)")
oclgrind = shutil.which('oclgrind')
with open(LS, 'rb') as binary:
    # Oclgrind runs the program with its own library preloaded, and a build
    # with AddressSanitizer (tools/test.sh's second pass) refuses to start
    # unless ASan's runtime comes first.
    asan = b'__asan_init' in binary.read()
if oclgrind and asan:
    print('(a build with AddressSanitizer: Oclgrind cannot preload into it, its capabilities not compared)')
elif oclgrind:
    grind = [d for d in devices(prefix=(oclgrind,)) if d['platform'] == 'Oclgrind']
    expect(grind and not grind[0]['supports']['exact_fp'] and 'kernels' in supported(grind[0]),
           'Oclgrind: kernels, but not the exact float rule (no correctly rounded divide and sqrt)',
           str(grind[:1]))
else:
    print('(no oclgrind: its capabilities not compared)')

# ---- a case a device does not support, by name -----------------------------------
pocl = next((d for d in devs if d['platform'] == 'Portable Computing Language'), None)
if pocl:
    spec = pocl['device']
    inexact = {'LOCKSTEP_DEBUG_INEXACT_DIVIDE': '1'}
    taken = next((d for d in devices(inexact) if d['device'] == spec), {})
    expect(supported(taken) == supported(pocl) - {'exact_fp'} and
           'CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT' in taken.get('not_supported', {}).get('exact_fp', ''),
           '%s without correctly rounded divide: the rule alone is not supported, saying why' % spec, str(taken))
    p = run(['conformance', '--backend', spec, '--case', '[eg]*', '--json'], inexact)
    cases = json.loads(p.stdout).get('cases', []) if p.stdout.startswith('{') else []
    exact = [c for c in cases if c['case'].startswith('exact float')]
    others = [c for c in cases if not c['case'].startswith('exact float')]
    expect(p.returncode == 0 and len(exact) == 1 and exact[0]['outcome'] == 'not supported' and
           exact[0]['detail'].startswith(spec + ': the exact float rule: ') and
           'CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT' in exact[0]['detail'],
           'conformance: the float case not supported by name, with the capability and the reason', str(exact))
    expect(others and all(c['outcome'] == 'pass' for c in others),
           'conformance: the cases that need nothing still run and pass there (%d)' % len(others), str(others))
    p = run(['conformance', '--backend', spec, '--case', 'exact*'], inexact)
    row = [l for l in p.stdout.splitlines() if l.startswith(spec)]
    expect(p.returncode == 0 and row and 'exact float' in row[0] and 'not supported' in row[0] and
           'the exact float rule' in row[0], 'the table: the case by name, not supported, and why', p.stdout)
    p = run(['life', '--steps', '1', '--size', '64x16', '--dims', '2', '--backend', spec], {'LOCKSTEP_SHAPE': 'warp'})
    expect(p.returncode == 2 and pocl['not_supported']['warp_shuffle'] in p.stderr,
           'a shape forced where the device cannot run it gives the device\'s reason', p.stderr)
else:
    print('(no PoCL here: the refusal of a case not shown)')
finish()
