#!/usr/bin/env python3
"""The raytracer on a set of devices and across MPI ranks (docs/scale-out.md,
"Raytracer"): pixels are numbered work items, so a render is a split job.

  - exact mode on `openmp,opencl` and `openmp+opencl`, and under mpirun
    with 1, 2 and 3 ranks (--oversubscribe), gives the single device's
    result member for member, its digest, and its image byte for byte
    (--out x.ppm, and --out - through mpirun), at odd sizes (97x61, 1x1,
    3x500) and several sample counts; where the image holds enough first
    chunks, every device (every rank) rendered part of it;
  - the issue's acceptance line: `ray ... --backend openmp,opencl --json`
    and `mpirun -np 2 lockstep ray ... --backend openmp --json` print one
    JSON document with the single device's digest;
  - fast mode on devices of more than one kind (openmp with opencl, in one
    process or on two ranks) says on stderr, once, and in the JSON that its
    image may differ between device kinds; on one kind it says nothing and
    gives that kind's image;
  - `check ray` compares sets with single devices and agrees;
  - Ctrl-C stops a set's render and an MPI render: interrupted, no file;
  - a rank killed mid-render (mpirun --enable-recovery) is named by rank 0,
    no result is printed and the output file is left as it was.
Needs openmp and opencl (PoCL here) for the sets, mpirun and an MPI build
for the ranks; exit 77 when neither part can run.

usage: ray_set.py LOCKSTEP
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from harness import expect, finish, interrupted_after, mpi_env, mpirun, mpirun_killing_rank1

LS = os.path.abspath(sys.argv[1])
ENV = mpi_env()
# What says where and how a run ran rather than what it computed.
META = {'lockstep', 'params', 'workload', 'backend', 'device_index', 'device', 'device_name', 'interrupted', 'seconds',
        'digest', 'wall_seconds', 'ranks', 'devices', 'rays_per_second', 'shape'}


def plain(*args, timeout=600):
    return subprocess.run([LS, *args], capture_output=True, text=True, env=ENV, timeout=timeout)


def doc(r):
    try:
        return json.loads(r.stdout)
    except ValueError:
        return {}


def result(d):
    return {k: v for k, v in d.items() if k not in META}


def read(path):
    try:
        with open(path, 'rb') as f:
            return f.read()
    except OSError:
        return None


devices = json.loads(plain('devices', '--json').stdout)
avail = [b['backend'] for b in devices['backends'] if b['available']]
have_set = 'openmp' in avail and 'opencl' in avail
have_mpi = bool(shutil.which('mpirun')) and devices.get('mpi') is not None and 'openmp' in avail
if not have_set and not have_mpi:
    print('skipped: needs openmp and opencl (have %s) or mpirun and an MPI build' % avail)
    sys.exit(77)
if not have_set:
    print('note: no openmp + opencl here: the sets are left out')
if not have_mpi:
    print('note: no mpirun or a build without MPI: the ranks are left out')

# (size, spp, whether the image holds a first chunk for each of 3 devices:
# 2^18 camera rays' worth of pixels on a CPU device, src/workloads/ray/ray.c).
CASES = [('97x61', 200, True), ('3x500', 600, True), ('1x1', 7, False), ('64x48', 1, False), ('33x7', 4096, True)]

with tempfile.TemporaryDirectory() as tmp:
    for size, spp, shared in CASES:
        args = ['ray', '--size', size, '--spp', str(spp)]
        name = '%s at %d spp' % (size, spp)
        ref_path = os.path.join(tmp, 'one.ppm')
        one = plain(*args, '--backend', 'openmp', '--out', ref_path, '--json', '--quiet')
        ref, ref_image = doc(one), read(ref_path)
        if not expect(one.returncode == 0 and ref.get('digest') and ref_image, '%s on openmp renders' % name,
                      one.stderr):
            continue
        w, h = map(int, size.split('x'))
        runs = []
        if have_set:
            runs += [('--backend %s' % spec, lambda out, spec=spec: plain(*args, '--backend', spec, '--out', out,
                                                                          '--json', '--quiet'), 2)
                     for spec in ('openmp,opencl', 'openmp+opencl')]
        if have_mpi:
            runs += [('mpirun -np %d' % n, lambda out, n=n: mpirun(n, LS, *args, '--backend', 'openmp', '--out', out,
                                                                    '--json', '--quiet'), n) for n in (1, 2, 3)]
        for how, go, ndev in runs:
            out = os.path.join(tmp, 'set.ppm')
            if os.path.exists(out):
                os.unlink(out)
            r = go(out)
            d = doc(r)
            expect(r.returncode == 0 and d.get('digest') == ref['digest'] and result(d) == result(ref),
                   '%s, %s: digest %s and every result member as on one device' % (name, how, d.get('digest')),
                   'one device %s; exit %d %s' % (ref['digest'], r.returncode, r.stderr[-400:]))
            expect(read(out) == ref_image, '%s, %s: the image file, byte for byte' % (name, how))
            devs = d.get('devices', [])
            if ndev > 1:
                expect(len(devs) == ndev and sum(x['items'] for x in devs) == w * h,
                       '%s, %s: %d devices whose shares add up to the %d pixels' % (name, how, ndev, w * h), str(devs))
                if shared:
                    expect(all(x['items'] > 0 for x in devs), '%s, %s: every device rendered pixels' % (name, how),
                           str(devs))
            expect('may_differ' not in r.stdout + r.stderr, '%s, %s: exact mode says nothing of device kinds'
                   % (name, how), r.stderr[-300:])

    if have_mpi:
        # --out - through mpirun: rank 0's standard output is mpirun's
        # terminal, which passes the bytes on; the report goes to stderr.
        args = ['ray', '--size', '97x61', '--spp', '50']
        one = subprocess.run([LS, *args, '--backend', 'openmp', '--out', '-'], capture_output=True, env=ENV,
                             timeout=600)
        two = subprocess.run(['mpirun', '--oversubscribe', '-np', '2', LS, *args, '--backend', 'openmp', '--out', '-'],
                             capture_output=True, env=ENV, timeout=600)
        expect(one.returncode == 0 and two.returncode == 0 and one.stdout.startswith(b'P6') and
               two.stdout == one.stdout and b'written to standard output' in two.stderr,
               'mpirun -np 2 ray --out -: the PPM on standard output, byte for byte one process\'s',
               '%d bytes, %d; %s' % (len(two.stdout), len(one.stdout), two.stderr[-300:]))

# The acceptance line, as written: one JSON document each, with the
# digest of one device (the default backend).
args = ['ray', '--size', '160x90', '--spp', '64']
single = plain(*args, '--json', '--quiet')
expect(single.returncode == 0 and doc(single).get('digest'), 'ray on the default device: a digest', single.stderr)
accept = []
if have_set:
    accept.append(('ray --backend openmp,opencl --json', plain(*args, '--backend', 'openmp,opencl', '--json')))
if have_mpi:
    accept.append(('mpirun -np 2 ray --backend openmp --json', mpirun(2, LS, *args, '--backend', 'openmp', '--json')))
for how, r in accept:
    d = doc(r)
    expect(r.returncode == 0 and r.stdout.count('"digest"') == 1 and d.get('digest') == doc(single).get('digest'),
           '%s: one JSON document with the single device\'s digest %s' % (how, d.get('digest')),
           'single %s; exit %d %s %s' % (doc(single).get('digest'), r.returncode, r.stdout[:200], r.stderr[-300:]))

# Fast mode: each kind of device has its own approximation (docs/ray.md).
NOTE = 'may differ between device kinds'
args = ['ray', '--size', '97x61', '--spp', '200', '--mode', 'fast']
fast_one = doc(plain(*args, '--backend', 'openmp', '--json', '--quiet'))
mixed = []
if have_set:
    mixed.append(('openmp,opencl', plain(*args, '--backend', 'openmp,opencl', '--json', '--quiet')))
if have_set and have_mpi:
    mixed.append(('openmp and opencl on 2 ranks',
                  mpirun(2, LS, *args, '--backend', 'openmp,opencl', '--json', '--quiet')))
for how, r in mixed:
    d = doc(r)
    expect(r.returncode == 0 and r.stderr.count(NOTE) == 1 and 'openmp:0' in r.stderr and 'opencl:0' in r.stderr
           and d.get('may_differ_by_device_kind') is True,
           'fast mode on %s: said once on stderr, naming the devices, and in the JSON' % how,
           'exit %d %s %s' % (r.returncode, r.stdout[-200:], r.stderr[-400:]))
if have_set:
    text = plain(*args, '--backend', 'openmp+opencl')
    expect(text.returncode == 0 and 'note:' in text.stdout and NOTE in text.stderr,
           'fast mode on openmp+opencl: the report says it too', text.stdout + text.stderr)
one_kind = [('openmp', plain(*args, '--backend', 'openmp', '--json', '--quiet'))]
if have_mpi:
    one_kind.append(('openmp on 3 ranks', mpirun(3, LS, *args, '--backend', 'openmp', '--json', '--quiet')))
for how, r in one_kind:
    d = doc(r)
    expect(r.returncode == 0 and NOTE not in r.stderr and 'may_differ_by_device_kind' not in d and
           d.get('image') == fast_one.get('image'),
           'fast mode on %s, one kind of device: no note, the image of one device' % how,
           '%s %s' % (d.get('image'), r.stderr[-300:]))

if have_set:
    # Sets of different devices: opencl:all+openmp is openmp+opencl where
    # OpenCL has one device, and check refuses a device set named twice.
    nopencl = next(len(b['devices']) for b in devices['backends'] if b['backend'] == 'opencl')
    sets = ['openmp+opencl', 'opencl:all+openmp'] if nopencl > 1 else ['opencl:all+openmp']
    r = plain('check', 'ray', '--size', '97x61', '--spp', '200', '--quiet', '--backends',
              ','.join(['openmp', 'opencl'] + sets))
    agree = '%d devices agree' % (1 + nopencl + len(sets))
    expect(r.returncode == 0 and agree in r.stdout, 'check ray: sets agree with single devices', r.stdout + r.stderr)


def interrupt(cmd, out, how):
    """Ctrl-C to a long render: it stops, reports what it did and writes no
    file (a file already there stays as it was)."""
    with open(out, 'wb') as f:
        f.write(b'before')
    rc, stdout, stderr = interrupted_after(cmd, ENV)
    d = doc(subprocess.CompletedProcess([], 0, stdout, stderr))
    expect(rc != 0 and d.get('interrupted') is True and 0 < d.get('pixels', 0) < 2048 * 2048 and
           read(out) == b'before', 'Ctrl-C to a render %s: %s pixels reported, the output left as it was'
           % (how, d.get('pixels')), 'exit %d %s %s' % (rc, stdout[:200], stderr[-300:]))


BIG = ['ray', '--size', '2048x2048', '--spp', '256', '--json', '--quiet']
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, 'big.ppm')
    if have_set:
        interrupt([LS, *BIG, '--backend', 'openmp,opencl', '--out', out], out, 'on openmp,opencl')
    if have_mpi:
        interrupt(['mpirun', '--oversubscribe', '-np', '2', LS, *BIG, '--backend', 'openmp', '--out', out], out,
                  'on 2 MPI ranks')

        # A rank killed mid-render: mpirun --enable-recovery lets the job go
        # on, so lockstep's rank 0 must name the rank and fail the run.
        with open(out, 'wb') as f:
            f.write(b'before')
        env = dict(ENV, LOCKSTEP_RANK_TIMEOUT='3')
        victim, _, stdout, stderr = mpirun_killing_rank1(
            ['--oversubscribe', '--enable-recovery', '-x', 'LOCKSTEP_RANK_TIMEOUT', '-np', '3', LS, *BIG, '--backend',
             'openmp', '--out', out], out, env, timeout=180)
        named = 'rank 1' in stderr and ('presumed lost' in stderr or 'exited on signal 9' in stderr)
        expect(victim is not None and named, 'a rank killed mid-render is named',
               'victim %s, stderr: %s' % (victim, stderr[-600:]))
        expect(stdout == '' and ('the run failed' in stderr or 'exited on signal 9' in stderr),
               'a render that lost a rank prints no result and says the run failed',
               'stdout %r, stderr %s' % (stdout[:200], stderr[-400:]))
        expect(read(out) == b'before' and os.listdir(tmp) == ['big.ppm'],
               'a render that lost a rank leaves the output as it was', str(os.listdir(tmp)))

finish()
