#!/usr/bin/env python3
"""life_set.py LOCKSTEP - Life cut into slabs with halo exchange
(the slab runner, src/set/slab_run.c) equals one device, digest for digest:

  - 2D and 3D, odd sizes (slabs of unequal thickness), torus and bounded
    plane, B0 rules, --every (the population series), on `--slabs N` of one
    device (N = 2, 3, 5, and more than the grid holds), with ghost zones
    k = 1, 2, 4, 8 deep, on the set `openmp,opencl`, and `check` comparing
    that set with each device;
  - --out (the bytes), --in, and a grid over the per-device memory cap
    (LOCKSTEP_DEVICE_MEMORY_CAP): refused on one device, run on a set;
  - under mpirun with 1, 2 and 3 ranks (oversubscribed; skipped without
    mpirun or MPI): the same digests, each rank's devices reported, the PKU
    form `lockstep life IN OUT N` writing the bytes of one process, rank 0
    alone writing; a rank killed mid-run is named and no output is written.

usage: life_set.py LOCKSTEP
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


def plain(*args, env=None, timeout=600):
    return subprocess.run([LS, *args], capture_output=True, text=True, env=env or ENV, timeout=timeout)


def doc(r):
    try:
        return json.loads(r.stdout)
    except ValueError:
        return {}


def life(*args, ranks=0, env=None):
    """The JSON document of a run (one process, or `ranks` MPI ranks), and the run."""
    full = ['life', *args, '--json', '--quiet']
    r = mpirun(ranks, LS, *full, env=env) if ranks else plain(*full, env=env)
    return doc(r), r


devices = json.loads(plain('devices', '--json').stdout)
available = {b['backend'] for b in devices['backends'] if b['available']}
HAVE_CL = 'opencl' in available
HAVE_MPI = shutil.which('mpirun') is not None and devices.get('mpi') is not None

# (what, arguments): odd sizes, torus and plane, B0, --every.
CASES = [
    ('3D 61x47x33 torus', ['--dims', '3', '--size', '61x47x33', '--steps', '21', '--density', '0.3']),
    ('2D 1001x77 torus', ['--dims', '2', '--size', '1001x77', '--steps', '37']),
    ('3D plane 67x45x33', ['--rule', 'B5,6/S4-6:P67,45,33', '--steps', '13']),
    ('2D plane B0 --every 10', ['--rule', 'B03/S23:P301,203', '--steps', '31', '--every', '10']),
    ('3D torus B0 --every 4', ['--rule', 'B0123/S234', '--dims', '3', '--size', '40x30x23', '--steps', '17',
                               '--every', '4']),
    ('2D torus B0/S8 --every 1', ['--rule', 'B0/S8', '--dims', '2', '--size', '70x51', '--steps', '9',
                                  '--every', '1']),
]
# (what, extra arguments): slabs on one device, k = 1, 2, 4, 8, the set.
VARIANTS = [
    ('--slabs 2 (k = 2, the CPU default)', ['--backend', 'openmp', '--slabs', '2']),
    ('--slabs 3 --halo 1', ['--backend', 'openmp', '--slabs', '3', '--halo', '1']),
    ('--slabs 5 --halo 4', ['--backend', 'openmp', '--slabs', '5', '--halo', '4']),
    ('--slabs 2 --halo 8', ['--backend', 'openmp', '--slabs', '2', '--halo', '8']),
    ('--slabs 4096 (more than the grid holds)', ['--backend', 'openmp', '--slabs', '4096', '--halo', '1']),
]
if HAVE_CL:
    VARIANTS += [
        ('openmp,opencl', ['--backend', 'openmp,opencl']),
        ('openmp,opencl --slabs 5 --halo 2', ['--backend', 'openmp,opencl', '--slabs', '5', '--halo', '2']),
        ('opencl --slabs 3 --halo 8', ['--backend', 'opencl', '--slabs', '3', '--halo', '8']),
    ]

refs = {}
for what, args in CASES:
    ref, r = life(*args, '--backend', 'openmp')
    refs[what] = ref
    expect(r.returncode == 0 and ref.get('digest'), '%s: one device runs' % what, r.stderr)
    for vwhat, extra in VARIANTS:
        got, r = life(*args, *extra)
        same = got.get('digest') == ref.get('digest') and got.get('populations') == ref.get('populations')
        expect(r.returncode == 0 and same, '%s on %s: the digest of one device' % (what, vwhat),
               'got %s, want %s; %s' % (got.get('digest'), ref.get('digest'), r.stderr[-300:]))

# The acceptance line: one JSON document with each device's share.
line = ['--dims', '3', '--size', '61x47x33', '--steps', '21', '--density', '0.3']
if HAVE_CL:
    r = plain('life', *line, '--backend', 'openmp,opencl', '--json')
    d = doc(r)
    labels = [(x.get('label'), x.get('backend')) for x in d.get('devices', [])]
    expect(r.returncode == 0 and r.stdout.count('"digest"') == 1 and
           d.get('digest') == refs['3D 61x47x33 torus'].get('digest') and
           labels == [('openmp:0', 'openmp'), ('opencl:0', 'opencl')] and
           sum(x['items'] for x in d['devices']) == 61 * 47 * 33 * 21,
           'life ... --backend openmp,opencl --json: one document, the single-device digest, each device\'s share',
           r.stdout[-600:] + r.stderr[-300:])
    r = plain('life', *line, '--backend', 'openmp,opencl')
    expect(r.returncode == 0 and 'openmp:0' in r.stdout and 'opencl:0' in r.stdout and
           'cell updates' in r.stdout, 'the report for people lists each device\'s share', r.stdout)
    # check compares the set with each device.
    r = plain('check', 'life', '--dims', '2', '--size', '301x203', '--steps', '31', '--every', '10', '--backends',
              'openmp,opencl,openmp+opencl', '--json', '--quiet')
    expect(r.returncode == 0 and 'openmp+opencl' in r.stdout, 'check life: the set openmp+opencl agrees with each '
           'device', r.stdout[-600:] + r.stderr[-300:])

# Oclgrind (every memory access checked) runs the slabs' partial reads and
# writes of its buffers without a complaint, to the digest of one device.
if HAVE_CL and shutil.which('oclgrind'):
    for args in (['--dims', '3', '--size', '19x13x11', '--steps', '5'],
                 ['--rule', 'B03/S23:P70,41', '--steps', '7', '--every', '3']):
        ref, _ = life(*args, '--backend', 'openmp')
        r = subprocess.run(['oclgrind', '--data-races', '--check-api', LS, 'life', *args, '--backend', 'opencl',
                            '--slabs', '3', '--halo', '2', '--json', '--quiet'], capture_output=True, text=True,
                           env=ENV, timeout=600)
        expect(r.returncode == 0 and doc(r).get('digest') == ref.get('digest') and r.stderr == '',
               'Oclgrind: %s on 3 OpenCL slabs, no invalid access, one device\'s digest' % ' '.join(args),
               r.stderr[-500:])

# A grid thinner than the slabs asked for, and k deeper than the grid.
ref, _ = life('--dims', '3', '--size', '9x8x4', '--steps', '11', '--backend', 'openmp')
got, r = life('--dims', '3', '--size', '9x8x4', '--steps', '11', '--backend', 'openmp', '--slabs', '3', '--halo',
              '8')
expect(r.returncode == 0 and got.get('digest') == ref.get('digest'),
       '3D 9x8x4 --slabs 3 --halo 8: one slab, k no deeper than the grid', r.stderr)

with tempfile.TemporaryDirectory() as tmp:
    # --out: the same bytes; --in: the same start.
    one, many = os.path.join(tmp, 'one.lsgrid'), os.path.join(tmp, 'many.lsgrid')
    base = ['--dims', '3', '--size', '53x31x29', '--steps', '15', '--density', '0.35']
    r1 = plain('life', *base, '--backend', 'openmp', '--out', one, '--quiet')
    r2 = plain('life', *base, '--backend', 'openmp', '--slabs', '3', '--halo', '4', '--out', many, '--quiet')
    expect(r1.returncode == 0 and r2.returncode == 0 and open(one, 'rb').read() == open(many, 'rb').read(),
           '--out from 3 slabs: the bytes of one device', r1.stderr + r2.stderr)
    start = os.path.join(tmp, 'start.lsgrid')
    r = plain('life', '--dims', '2', '--size', '203x97', '--steps', '5', '--out', start, '--backend', 'openmp',
              '--quiet')
    ref, _ = life('--in', start, '--steps', '23', '--backend', 'openmp')
    got, r = life('--in', start, '--steps', '23', '--backend', 'openmp', '--slabs', '5', '--halo', '3')
    expect(r.returncode == 0 and ref.get('digest') and got.get('digest') == ref.get('digest'),
           '--in FILE on 5 slabs: the digest of one device', r.stderr)

    # The per-device memory cap: a 3D 128x128x64 grid takes 256 KiB in two
    # generations; under a cap of 224 KiB one device refuses it and two
    # devices (or two ranks) hold it.
    big = ['--dims', '3', '--size', '128x128x64', '--steps', '9', '--density', '0.3']
    want, _ = life(*big, '--backend', 'openmp')
    capped = dict(ENV, LOCKSTEP_DEVICE_MEMORY_CAP='224K')
    for b in ['openmp'] + (['opencl'] if HAVE_CL else []):
        _, r = life(*big, '--backend', b, env=capped)
        expect(r.returncode == 2 and 'LOCKSTEP_DEVICE_MEMORY_CAP' in r.stderr and r.stderr.count('\n') == 1,
               'a grid over the per-device cap on %s alone: refused (exit 2, one line)' % b,
               'exit %d: %s' % (r.returncode, r.stderr))
    _, r = life(*big, '--backend', 'openmp', '--slabs', '3', env=capped)
    expect(r.returncode == 2 and 'slabs' in r.stderr, 'three slabs on one capped device: still refused',
           'exit %d: %s' % (r.returncode, r.stderr))
    if HAVE_CL:
        for extra in ([], ['--slabs', '3']):
            got, r = life(*big, '--backend', 'openmp,opencl', *extra, env=capped)
            expect(r.returncode == 0 and got.get('digest') == want.get('digest'),
                   'the grid over the cap on openmp,opencl %s: runs, the digest of one device' % ' '.join(extra),
                   r.stderr)
    r = plain('life', *big, '--backend', 'openmp', env=dict(ENV, LOCKSTEP_DEVICE_MEMORY_CAP='lots'))
    expect(r.returncode == 2 and 'LOCKSTEP_DEVICE_MEMORY_CAP' in r.stderr, 'a cap that is not a size: refused',
           r.stderr)

    # Ctrl-C stops a set after the chunk in hand: what was done is
    # reported, and no output is written.
    if HAVE_CL:
        out = os.path.join(tmp, 'stopped.lsgrid')
        rc, stdout, stderr = interrupted_after([LS, 'life', '--dims', '3', '--size', '128', '--steps', '1000000',
                                                '--backend', 'openmp,opencl', '--out', out, '--json', '--quiet'], ENV)
        d = doc(subprocess.CompletedProcess([], 0, stdout, stderr))
        expect(rc == 130 and d.get('interrupted') is True and 0 < d.get('generations', 0) < 1000000 and
               not os.path.exists(out), 'Ctrl-C stops a set: exit 130, the generations done, no output',
               'exit %d %s %s' % (rc, stdout[-300:], stderr[-300:]))

    if not HAVE_MPI:
        print('MPI checks skipped: no mpirun, or this lockstep was built without MPI')
        finish()

    # Ranks: 1, 2 and 3, digest for digest, every rank computing.
    for what, args in CASES[:5]:
        for n in (1, 2, 3):
            got, r = life(*args, '--backend', 'openmp', ranks=n)
            ranks = {x['rank'] for x in got.get('devices', [])}
            expect(r.returncode == 0 and got.get('digest') == refs[what].get('digest') and
                   r.stdout.count('"digest"') == 1 and (n == 1 or ranks == set(range(n))),
                   '%s on %d MPI rank%s: the digest of one process' % (what, n, 's' if n > 1 else ''),
                   'got %s want %s; %s' % (got.get('digest'), refs[what].get('digest'), r.stderr[-400:]))
    got, r = life(*CASES[0][1], '--backend', 'openmp', '--slabs', '5', '--halo', '3', ranks=2)
    expect(r.returncode == 0 and got.get('digest') == refs[CASES[0][0]].get('digest'),
           '5 slabs over 2 ranks, k = 3: the digest of one process', r.stderr[-400:])
    if HAVE_CL:
        got, r = life(*CASES[3][1], '--backend', 'openmp,opencl', ranks=2)
        labels = sorted((x['label'], x.get('backend')) for x in got.get('devices', []))
        expect(r.returncode == 0 and got.get('digest') == refs[CASES[3][0]].get('digest') and
               labels == [('rank 0 openmp:0', 'openmp'), ('rank 1 opencl:0', 'opencl')],
               'openmp on rank 0 and opencl on rank 1: the digest of one process, each device its backend', '%s %s' % (labels, r.stderr))
    # The memory cap over two ranks.
    got, r = life(*big, '--backend', 'openmp', ranks=2, env=capped)
    expect(r.returncode == 0 and got.get('digest') == want.get('digest'),
           'the grid over the per-device cap on 2 ranks: runs, the digest of one device', r.stderr[-400:])

    # --out and the PKU form: rank 0 alone writes the bytes of one process.
    outdir = os.path.join(tmp, 'ranks')
    os.mkdir(outdir)
    out = os.path.join(outdir, 'many.lsgrid')
    r = mpirun(3, LS, 'life', *base, '--backend', 'openmp', '--out', out, '--quiet')
    expect(r.returncode == 0 and open(out, 'rb').read() == open(one, 'rb').read() and
           os.listdir(outdir) == ['many.lsgrid'], '--out from 3 ranks: the bytes of one process, one file',
           r.stderr[-400:] + str(os.listdir(outdir)))
    pku_in = os.path.join(tmp, 'in.pku')
    r = plain('life', '--dims', '3', '--size', '37', '--steps', '0', '--density', '0.3', '--out', pku_in,
              '--backend', 'openmp', '--quiet')
    a, b = os.path.join(tmp, 'a.pku'), os.path.join(outdir, 'b.pku')
    ra = subprocess.run([LS, 'life', pku_in, a, '19'], capture_output=True, text=True,
                        env=dict(ENV, LOCKSTEP_BACKEND='openmp'))
    rb = mpirun(2, LS, 'life', pku_in, b, '19', extra=['-x', 'LOCKSTEP_BACKEND'],
                env=dict(ENV, LOCKSTEP_BACKEND='openmp'))
    expect(ra.returncode == 0 and rb.returncode == 0 and os.path.exists(b) and
           open(a, 'rb').read() == open(b, 'rb').read(),
           'mpirun -np 2 lockstep life IN OUT N: the bytes of one process', ra.stderr + rb.stderr[-400:])

    # Under MPI every rank writes its slabs' rows of a PKU file where they
    # live: the bytes of one process, whole; 1-3 ranks, OpenMP, OpenCL (a
    # GPU slab, a piece at a time) and a mix; more slabs than ranks; the
    # mode of the file replaced kept; no temporary file left.
    cube_in = os.path.join(tmp, 'cube.pku')
    plain('life', '--dims', '3', '--size', '45', '--steps', '0', '--density', '0.3', '--seed', '9', '--out', cube_in,
          '--backend', 'openmp', '--quiet')
    ref = os.path.join(tmp, 'cube-ref.pku')
    plain('life', cube_in, ref, '11', '--backend', 'openmp', '--quiet')
    want_bytes = open(ref, 'rb').read() if os.path.exists(ref) else b'?'
    pieces = os.path.join(tmp, 'pieces')
    os.mkdir(pieces)
    specs = [('openmp', 2, []), ('openmp', 3, []), ('openmp', 2, ['--slabs', '5'])]
    if HAVE_CL:
        specs += [('opencl', 2, []), ('openmp,opencl', 2, ['--slabs', '3'])]
    for spec, n, extra in specs:
        target = os.path.join(pieces, 'out.pku')
        with open(target, 'wb') as f:
            f.write(b'old')
        os.chmod(target, 0o640)
        r = mpirun(n, LS, 'life', cube_in, target, '11', '--backend', spec, *extra, '--quiet')
        got = open(target, 'rb').read()
        expect(r.returncode == 0 and got == want_bytes and os.stat(target).st_mode & 0o777 == 0o640 and
               os.listdir(pieces) == ['out.pku'],
               'PKU written by %d ranks where the slabs live (%s %s): the bytes of one process, the mode kept, '
               'nothing else left' % (n, spec, ' '.join(extra)),
               '%d bytes against %d, mode %o, %s %s' % (len(got), len(want_bytes), os.stat(target).st_mode & 0o777,
                                                        os.listdir(pieces), r.stderr[-400:]))
    # A FIFO takes a file in order only: the ranks gather, rank 0 writes.
    fifo = os.path.join(pieces, 'out.fifo')
    os.mkfifo(fifo)
    got = bytearray()
    reader = subprocess.Popen(['cat', fifo], stdout=subprocess.PIPE)
    r = mpirun(2, LS, 'life', cube_in, fifo, '11', '--backend', 'openmp', '--format', 'pku', '--quiet')
    got = reader.communicate(timeout=60)[0]
    expect(r.returncode == 0 and got == want_bytes, 'PKU from 2 ranks onto a FIFO: gathered, the same bytes',
           '%d bytes %s' % (len(got), r.stderr[-300:]))
    os.unlink(fifo)
    # A directory that takes no file: refused by name, nothing written.
    locked = os.path.join(tmp, 'locked')
    os.mkdir(locked)
    os.chmod(locked, 0o500)
    if os.access(locked, os.W_OK):
        print('skipped: a read-only directory is writable here (root)')
    else:
        r = mpirun(2, LS, 'life', cube_in, os.path.join(locked, 'out.pku'), '11', '--backend', 'openmp', '--quiet')
        expect(r.returncode != 0 and 'out.pku' in r.stderr and os.listdir(locked) == [],
               'PKU from 2 ranks into a directory that takes no file: refused by name, nothing written',
               r.stderr[-300:])
    os.chmod(locked, 0o700)

    # A rank killed mid-run: named, the job fails, no output written.
    killed = os.path.join(tmp, 'killed')
    os.mkdir(killed)
    out = os.path.join(killed, 'never.lsgrid')
    victim, rc, stdout, stderr = mpirun_killing_rank1(
        ['--oversubscribe', '-np', '2', LS, 'life', '--dims', '3', '--size', '160', '--steps', '1000000',
         '--backend', 'openmp', '--out', out, '--json', '--quiet'], out, ENV)
    expect(victim is not None and rc != 0 and 'rank 1' in stderr and 'signal 9' in stderr,
           'a rank killed mid-run is named and the job fails', 'victim %s, exit %s: %s' % (victim, rc,
                                                                                           stderr[-500:]))
    expect(stdout == '' and os.listdir(killed) == [], 'a job that lost a rank prints no result and writes no output',
           'stdout %r, left %s' % (stdout[:200], os.listdir(killed)))

finish()
