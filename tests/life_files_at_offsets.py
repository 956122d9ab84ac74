#!/usr/bin/env python3
"""life_files_at_offsets.py LOCKSTEP REF_DIGEST_FILE - Life's PKU and
native files read and written where the slabs live (issue 26, item 4):
each rank, and each device's host thread, reads and writes its own planes
at their offsets; no process holds the whole grid.

  - `--in` and `--out` in the native form (lslife3) and the PKU form on
    1 to 5 slabs of one device (unequal slabs, the thinnest the runner
    makes: two planes), OpenCL (PoCL: a GPU slab, a piece at a time, down
    to a plane a piece), a set of OpenMP and OpenCL, and 1, 2 and 3 MPI
    ranks (oversubscribed) with OpenMP, OpenCL and a mix: the bytes one
    process writes, and its digest and population; odd sizes, tori and
    bounded planes, 2D and 3D;
  - what the ranks write is the definition: tests/ref_digest_file reads
    the cells of a file three ranks wrote and checks its trailer (the grid
    digest of the cells, the check of the header) independently;
  - a file of the layout before (lslife2) reads as the same grid on slabs
    and ranks;
  - a damaged lslife3 file (a cell in the last slab's planes, its header,
    a bit past a row's end) is refused, exit 2, one line, nothing run, on
    slabs and on ranks; ranks given different files (another grid; the
    same trailer over another cell; a PKU file that differs in one byte of
    rank 1's planes) are refused naming the rank or the damage;
  - no process holds the whole grid: reading a 64 MiB grid from a file
    costs a process no more memory than a random start of it does (within
    the read buffers), in one process and on two ranks, and writing it
    from two ranks no more than not writing it;
  - the replaced file's mode is kept, nothing else is left in the
    directory.
Without mpirun, or in a lockstep built without MPI, the parts on ranks are
skipped (said on stdout) and the rest runs.

usage: life_files_at_offsets.py LOCKSTEP REF_DIGEST_FILE
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from harness import expect, finish, mpi_env, native2_bytes, native_read

LS, REF = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
ENV = mpi_env()


def run(cmd, env=None, cwd=None):
    """Runs cmd; (exit status, stdout, stderr, peak resident MiB of the
    process and every process it waited for: the ranks of an mpirun)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err, env=env or ENV, cwd=cwd, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = 0  # reaped here
        out.seek(0)
        err.seek(0)
        return (os.waitstatus_to_exitcode(status), out.read().decode(errors='replace'),
                err.read().decode(errors='replace'), usage.ru_maxrss / 1024)


def life(args, ranks=0, env=None, cwd=None):
    """(JSON document or {}, exit status, stderr, peak MiB) of `lockstep life
    ARGS --json --quiet`, in one process or on `ranks` MPI ranks."""
    cmd = [LS, 'life', *args, '--json', '--quiet']
    if ranks:
        cmd = ['mpirun', '--oversubscribe', '-np', str(ranks)] + cmd
    code, out, err, mib = run(cmd, env, cwd)
    try:
        d = json.loads(out)
    except ValueError:
        d = {}
    return d, code, err, mib


def lockstep_lines(stderr):
    return [line for line in stderr.splitlines() if line.startswith('lockstep')]


def summary(d):
    return d.get('grid_digest'), d.get('population')


def read(path):
    return open(path, 'rb').read() if os.path.exists(path) else None


devices = json.loads(run([LS, 'devices', '--json'])[1])
available = {b['backend'] for b in devices['backends'] if b['available']}
HAVE_CL = 'opencl' in available
HAVE_MPI = shutil.which('mpirun') is not None and devices.get('mpi') is not None

# (what, arguments making the start, arguments of the run from it): odd
# sizes, so the slabs are unequal; a torus and a bounded plane.
NATIVE = [
    ('3D 37x29x23 torus', ['--dims', '3', '--size', '37x29x23', '--density', '0.3', '--seed', '3'], ['--steps', '7']),
    ('2D 203x97 plane', ['--rule', 'B3/S23:P203,97', '--density', '0.4', '--seed', '4'], ['--steps', '21']),
    ('3D 31x13x10 plane', ['--rule', 'B5,6/S4-6:P31,13,10', '--density', '0.35', '--seed', '5'], ['--steps', '5']),
]
PKU = ('PKU 37^3', ['--dims', '3', '--size', '37', '--density', '0.3', '--seed', '6'], ['--steps', '9'])
# One process: slabs on one device, the thinnest slabs (5 of two planes
# on 10), OpenCL pieces down to one plane, a mixed set.
ONE = [
    ['--backend', 'openmp', '--slabs', '2'],
    ['--backend', 'openmp', '--slabs', '3', '--halo', '1'],
    ['--backend', 'openmp', '--slabs', '5', '--halo', '2'],
]
if HAVE_CL:
    ONE += [
        ['--backend', 'opencl'],
        ['--backend', 'opencl', '--slabs', '3', '--halo', '2'],
        ['--backend', 'openmp,opencl', '--slabs', '5', '--halo', '2'],
        ['--backend', 'openmp,opencl', '--slabs', '3', 'PIECE=1'],
        ['--backend', 'opencl', 'PIECE=3000'],
    ]
# MPI ranks (and the devices of each).
RANKS = [(1, ['--backend', 'openmp']), (2, ['--backend', 'openmp']), (3, ['--backend', 'openmp']),
         (2, ['--backend', 'openmp', '--slabs', '5', '--halo', '2'])]
if HAVE_CL:
    RANKS += [(2, ['--backend', 'opencl']), (2, ['--backend', 'openmp,opencl', '--slabs', '3']),
              (3, ['--backend', 'openmp,opencl', '--slabs', '5', '--halo', '1'])]


def variant(extra):
    """(arguments, environment) of a variant: PIECE=N sets the size of a GPU
    slab's pieces on their way to and from the host."""
    env = dict(ENV)
    args = []
    for a in extra:
        if a.startswith('PIECE='):
            env['LOCKSTEP_DEBUG_SUMMARY_PIECE'] = a[6:]
        else:
            args.append(a)
    return args, env


def same_as_one(tmp, what, start, run_args, ext, ref_doc, ref_bytes, ranks, extra):
    """The run on a variant: exit 0, the one process's digest and population,
    and its output's bytes; nothing else left in the directory."""
    outdir = os.path.join(tmp, 'out-' + ext)
    os.makedirs(outdir, exist_ok=True)
    out = os.path.join(outdir, 'g.' + ext)
    with open(out, 'wb') as f:
        f.write(b'old')
    os.chmod(out, 0o640)
    args, env = variant(extra)
    d, code, err, _ = life(['--in', start, *run_args, '--out', out, *args], ranks=ranks, env=env)
    got = read(out)
    where = '%s, %s%s' % (what, '%d rank%s ' % (ranks, 's' if ranks > 1 else '') if ranks else '', ' '.join(extra))
    expect(code == 0 and summary(d) == summary(ref_doc) and got == ref_bytes and
           os.stat(out).st_mode & 0o777 == 0o640 and os.listdir(outdir) == ['g.' + ext],
           '%s: --in and --out at their offsets, the bytes, digest and population of one process' % where,
           'exit %d, %s against %s, %s bytes against %d, mode %o, %s; %s' % (
               code, summary(d), summary(ref_doc), len(got) if got else None, len(ref_bytes),
               os.stat(out).st_mode & 0o777, os.listdir(outdir), err[-400:]))


def refused(args, what, want, ranks=0, cwd=None, mpirun_args=None):
    """A refusal: exit 2, one lockstep line holding `want`, no result."""
    if mpirun_args:
        code, out, err, _ = run(['mpirun', '--oversubscribe', *mpirun_args])
    else:
        d, code, err, _ = life(args, ranks=ranks, cwd=cwd)
        out = json.dumps(d) if d else ''
    lines = lockstep_lines(err)
    expect(code == 2 and not out and len(lines) == 1 and want in lines[0] and 'MPI_ABORT' not in err,
           '%s: refused, exit 2, one line (%s)' % (what, want), 'exit %d, %r' % (code, err[-600:]))


with tempfile.TemporaryDirectory() as tmp:
    starts = []
    for what, make, run_args in NATIVE + [PKU]:
        ext = 'data' if what.startswith('PKU') else 'lsgrid'
        start = os.path.join(tmp, 'start-%d.%s' % (len(starts), ext))
        _, code, err, _ = life([*make, '--steps', '0', '--out', start, '--backend', 'openmp'])
        ref_out = os.path.join(tmp, 'ref.' + ext)
        ref_doc, code2, err2, _ = life(['--in', start, *run_args, '--out', ref_out, '--backend', 'openmp'])
        ref_bytes = read(ref_out)
        expect(code == 0 and code2 == 0 and ref_bytes, '%s: one process reads and writes it' % what, err + err2)
        starts.append((what, start, run_args, ext, ref_doc, ref_bytes or b''))
        for extra in ONE:
            same_as_one(tmp, what, start, run_args, ext, ref_doc, ref_bytes or b'', 0, extra)

    # The native form is lslife3, its trailer the definition's digest.
    what, start, run_args, ext, ref_doc, ref_bytes = starts[0]
    code, out, err, _ = run([REF, start])
    d, _, _, _ = life(['--in', start, '--steps', '0', '--backend', 'openmp'])
    expect(read(start)[:8] == b'lslife3\n' and code == 0 and out.split() == [d.get('grid_digest'),
                                                                              str(d.get('population'))],
           'a native file is lslife3, its trailer the grid digest of its cells (ref_digest_file)', out + err)

    # A file of the layout before (lslife2): the same grid, on slabs too.
    for what, start, run_args, ext, ref_doc, ref_bytes in starts[:2]:
        shape, size, cells = native_read(start)
        old = os.path.join(tmp, 'old.lsgrid')
        rule = read(start)[24:32]
        birth, survive = int.from_bytes(rule[:4], 'little'), int.from_bytes(rule[4:], 'little')
        open(old, 'wb').write(native2_bytes(shape, size, birth, survive, 0, cells))
        for extra in (['--backend', 'openmp'], ['--backend', 'openmp', '--slabs', '3', '--halo', '1']):
            same_as_one(tmp, what + ' from lslife2', old, run_args, ext, ref_doc, ref_bytes, 0, extra)

    # Damage: a cell of the last slab's planes, the header, a bit past a
    # row's last cell (37 cells: 3 bits of each row's last byte).
    what, start, run_args, ext, ref_doc, ref_bytes = starts[0]
    data = read(start)
    rows_bytes = 5 * 29 * 23
    damages = (('a cell in the last plane', 40 + rows_bytes - 3, 1), ('the generation', 33, 1),
               ('a bit past a row\'s end', 40 + 4, 0x80))
    for name, offset, bit in damages if len(data) == 40 + rows_bytes + 16 else ():
        bad = bytearray(data)
        bad[offset] ^= bit
        path = os.path.join(tmp, 'bad.lsgrid')
        open(path, 'wb').write(bytes(bad))
        want = 'bits past' if 'past' in name else 'damaged'
        refused(['--in', path, '--steps', '1', '--backend', 'openmp', '--slabs', '3'],
                'an lslife3 file with %s changed, on 3 slabs' % name, want)
        if HAVE_MPI:
            refused(['--in', path, '--steps', '1', '--backend', 'openmp'],
                    'an lslife3 file with %s changed, on 2 ranks' % name, want, ranks=2)

    if not HAVE_MPI:
        print('MPI checks skipped: no mpirun, or this lockstep was built without MPI')
        finish()

    for what, start, run_args, ext, ref_doc, ref_bytes in starts:
        for ranks, extra in RANKS:
            same_as_one(tmp, what, start, run_args, ext, ref_doc, ref_bytes, ranks, extra)
    # What three ranks wrote, read by the reference.
    what, start, run_args, ext, ref_doc, ref_bytes = starts[1]
    out = os.path.join(tmp, 'three.lsgrid')
    d, code, err, _ = life(['--in', start, *run_args, '--out', out, '--backend', 'openmp', '--slabs', '5'], ranks=3)
    code2, ref_out, ref_err, _ = run([REF, out])
    expect(code == 0 and code2 == 0 and ref_out.split() == [d.get('grid_digest'), str(d.get('population'))],
           'a native file written by 3 ranks: its trailer holds, its cells have the digest reported',
           ref_out + ref_err + err[-300:])

    # Ranks given different files, under one name.
    a, b = os.path.join(tmp, 'a'), os.path.join(tmp, 'b')
    os.mkdir(a)
    os.mkdir(b)
    for name, make in (('g.lsgrid', NATIVE[0][1]), ('g.data', PKU[1])):
        for seed, where in (('1', a), ('2', b)):
            life([*make, '--seed', seed, '--steps', '0', '--out', os.path.join(where, name), '--backend', 'openmp'])

    def two_files(name, what, want):
        cmd = ['-np', '1', '-wdir', a, LS, 'life', '--in', name, '--steps', '2', '--backend', 'openmp', '--quiet',
               ':', '-np', '1', '-wdir', b, LS, 'life', '--in', name, '--steps', '2', '--backend', 'openmp', '--quiet']
        refused([], what, want, mpirun_args=cmd)

    two_files('g.lsgrid', 'ranks given different native files', 'rank 1')
    two_files('g.data', 'ranks given different PKU files', 'rank 1')
    # The same file but one cell of rank 1's planes (the native trailer
    # kept: the digest of what the ranks read is not the one it records).
    for name in ('g.lsgrid', 'g.data'):
        data = bytearray(read(os.path.join(a, name)))
        data[-30] ^= 1
        open(os.path.join(b, name), 'wb').write(bytes(data))
    two_files('g.lsgrid', 'ranks whose native files differ in a cell of rank 1\'s planes', 'damaged')
    two_files('g.data', 'ranks whose PKU files differ in a byte of rank 1\'s planes', 'rank 1')

    # No process holds the whole grid: a 64 MiB grid (2D 32768 x 16384)
    # read and written costs each rank what a random start of it costs,
    # within the read buffers (4 MiB a thread), where holding the grid cost
    # 32 MiB more a rank on two ranks, 64 MiB in one process. (Written by
    # one process, the file's pages are mapped, and count as its own.)
    big = ['--dims', '2', '--size', '32768x16384', '--density', '0.3', '--backend', 'openmp']
    grid = os.path.join(tmp, 'big.lsgrid')
    _, code, err, _ = life([*big, '--steps', '0', '--out', grid])
    expect(code == 0, 'the 64 MiB grid written', err[-300:])
    mib = {}
    for ranks in (0, 2):
        _, code0, err0, mib[ranks] = life([*big, '--steps', '0'], ranks=ranks)
        _, code1, err1, file_mib = life(['--in', grid, '--steps', '0', '--backend', 'openmp'], ranks=ranks)
        expect(code0 == 0 and code1 == 0 and file_mib < mib[ranks] + 16,
               'reading a 64 MiB grid on %s: no more memory than a random start, within 16 MiB' % (
                   '%d ranks' % ranks if ranks else 'one process'),
               '%.0f MiB against %.0f; %s %s' % (file_mib, mib[ranks], err0[-200:], err1[-200:]))
    out = os.path.join(tmp, 'big-out.lsgrid')
    _, code, err, out_mib = life([*big, '--steps', '0', '--out', out], ranks=2)
    expect(code == 0 and read(out) == read(grid) and out_mib < mib[2] + 16,
           'writing it from 2 ranks: the bytes of one process, and no more memory than not writing it, within 16 MiB',
           '%.0f MiB against %.0f; %s' % (out_mib, mib[2], err[-300:]))
finish()
