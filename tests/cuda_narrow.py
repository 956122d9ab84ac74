#!/usr/bin/env python3
"""A run that names its CUDA devices initialises only those (issue 36):
the process sets CUDA_VISIBLE_DEVICES to them before CUDA's first call
(src/cuda_visible.h), and says so under LOCKSTEP_DEBUG_NARROW. Checked
here by what it says, with a CUDA_VISIBLE_DEVICES of made-up UUIDs (no GPU
needed: the open then fails, after the decision):
  - cuda:1, openmp+cuda:1, LOCKSTEP_BACKEND=cuda:1: the second entry alone;
  - cuda:1,cuda:0: both, in the driver's order; cuda (its device 0,
    a build's default with -Ddefault_backend=cuda): the first;
  - auto, cuda:all, a spec with an OpenCL device (NVIDIA's OpenCL
    reads the same variable), an index past the entries, `devices`,
    `check` and LOCKSTEP_CUDA_NARROW=0: nothing narrowed.
Exits 77 where the CUDA backend is not compiled in.
usage: cuda_narrow.py LOCKSTEP
"""
import os
import subprocess
import sys

from harness import expect, finish

LS = sys.argv[1]
devices = subprocess.run([LS, 'devices', '--json'], capture_output=True, text=True, timeout=120)
if '"cuda"' not in devices.stdout:
    print('the CUDA backend is not compiled in: skipped')
    sys.exit(77)

ENV = dict(os.environ, CUDA_VISIBLE_DEVICES='GPU-aaaa,GPU-bbbb', LOCKSTEP_DEBUG_NARROW='1')
ENV.pop('LOCKSTEP_BACKEND', None)
LIFE = ['life', '--dims', '2', '--size', '64', '--steps', '1', '--quiet']


def said(args, env=ENV):
    r = subprocess.run([LS, *args], capture_output=True, text=True, env=env, timeout=120)
    lines = [l for l in r.stderr.splitlines() if 'CUDA initialises' in l]
    return lines[0] if lines else '', r


for spec, want in (('cuda:1', 'CUDA_VISIBLE_DEVICES=GPU-bbbb (2 GPUs listed)'),
                   ('openmp+cuda:1', 'CUDA_VISIBLE_DEVICES=GPU-bbbb '),
                   ('cuda:1,cuda:0', 'CUDA_VISIBLE_DEVICES=GPU-aaaa,GPU-bbbb '),
                   ('cuda', 'CUDA_VISIBLE_DEVICES=GPU-aaaa ')):
    line, r = said(LIFE + ['--backend', spec])
    expect(want in line, '--backend %s: initialises %s' % (spec, want), line + r.stderr[-300:])
line, r = said(LIFE, dict(ENV, LOCKSTEP_BACKEND='cuda:1'))
expect('=GPU-bbbb ' in line, 'LOCKSTEP_BACKEND=cuda:1: the same', r.stderr[-300:])
for spec in ('auto', 'cuda:all', 'cuda:0,opencl:0', 'cuda:0+opencl', 'cuda:2', 'cuda:0,,'):
    line, r = said(LIFE + ['--backend', spec])
    expect(line == '', '--backend %s: nothing narrowed' % spec, line)
line, r = said(LIFE + ['--backend', 'cuda:0'], dict(ENV, LOCKSTEP_CUDA_NARROW='0'))
expect(line == '', 'LOCKSTEP_CUDA_NARROW=0: nothing narrowed', line)
for args in (['devices'], ['check', 'life', '--dims', '2', '--size', '32', '--steps', '1', '--backend', 'openmp,cuda:0',
                           '--quiet']):
    line, r = said(args)
    expect(line == '', '%s: nothing narrowed' % args[0], line)
# Without the variable, the device nodes count the GPUs: where there are
# none (this machine), nothing is narrowed and the message is the old one.
env = dict(ENV)
env.pop('CUDA_VISIBLE_DEVICES')
if not any(n.startswith('nvidia') and n[6:].isdigit() for n in os.listdir('/dev')):
    line, r = said(LIFE + ['--backend', 'cuda:0'], env)
    expect(line == '' and r.returncode != 0 and 'cuda is not available here' in r.stderr,
           'no GPU device nodes: nothing narrowed, cuda is not available', line + r.stderr[-300:])
finish()
