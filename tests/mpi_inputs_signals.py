#!/usr/bin/env python3
"""What every rank of an MPI job reads, and how a job stops (issue 25):
  - two ranks whose --in files differ (node-local copies) are refused with
    exit 2 and one lockstep line naming rank 1, before any result;
  - an input missing on one rank, or --in /dev/stdin (mpirun gives stdin
    to rank 0 only), is one lockstep line naming the rank, exit 2, and no
    MPI_ABORT banner;
  - equal problems spelled differently (--size 64 and 64x64, --rule Life
    and B3/S23) run, with one process's digest; an option given to one rank
    only is named as "(not given)" on the other, not as a value;
  - a stop signal to rank 1 alone stops every rank at one chunk (Life's
    slabs and the set runner): rank 0 prints the whole document with
    "interrupted": true, exit 128 + the signal;
  - SIGUSR2 to mpirun, which Open MPI forwards to every rank, does the same
    (SIGINT and SIGTERM to mpirun are Open MPI's abort: see the README);
  - so it does while the ranks start (LOCKSTEP_DEBUG_STALL=start:resume
    holds each before MPI_Init until a stop signal comes): the signal is
    remembered, where it used to end the ranks with no report (exit 140).
Exit 77 when mpirun is missing or lockstep was built without MPI.

usage: mpi_inputs_signals.py LOCKSTEP
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from harness import expect, finish, mpi_env, rank_pid

LS = os.path.abspath(sys.argv[1])
ENV = mpi_env()


def run(cmd, timeout=300, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=timeout, **kw)


def doc(text):
    try:
        return json.loads(text)
    except ValueError:
        return {}


def lockstep_lines(stderr):
    return [line for line in stderr.splitlines() if line.startswith('lockstep')]


if not shutil.which('mpirun'):
    print('skipped: no mpirun (Debian: openmpi-bin)')
    sys.exit(77)
if json.loads(run([LS, 'devices', '--json']).stdout).get('mpi') is None:
    print('skipped: this lockstep was built without MPI')
    sys.exit(77)

LIFE = ['life', '--dims', '2', '--in', 'g.cells', '--size', '24x20', '--steps', '3', '--backend', 'openmp']
with tempfile.TemporaryDirectory() as tmp:
    a, b = os.path.join(tmp, 'a'), os.path.join(tmp, 'b')
    os.mkdir(a)
    os.mkdir(b)
    with open(os.path.join(a, 'g.cells'), 'w') as f:
        f.write('!Name: glider\n.O\n..O\nOOO\n')
    with open(os.path.join(b, 'g.cells'), 'w') as f:
        f.write('!Name: block\nOO\nOO\n')

    # Different files under one name, one a rank.
    r = run(['mpirun', '-np', '1', '-wdir', a, LS, *LIFE, '--json', '--quiet', ':',
             '-np', '1', '-wdir', b, LS, *LIFE, '--json', '--quiet'])
    lines = lockstep_lines(r.stderr)
    expect(r.returncode == 2 and not doc(r.stdout) and len(lines) == 1 and 'rank 1' in lines[0] and
           'another grid' in lines[0], 'ranks that read different --in files are refused, naming rank 1',
           'exit %d, stdout %r, stderr %r' % (r.returncode, r.stdout[:200], r.stderr[-600:]))
    # The same file on both: one process's answer.
    one = doc(run([LS, *LIFE, '--json', '--quiet'], cwd=a).stdout)
    r = run(['mpirun', '-np', '2', '-wdir', a, LS, *LIFE, '--json', '--quiet'])
    expect(r.returncode == 0 and doc(r.stdout).get('digest') == one.get('digest') and one.get('digest'),
           'ranks that read the same file give one process\'s digest', r.stderr[-400:])

    # A file missing on rank 1 only: lockstep's line, no MPI_ABORT.
    r = run(['mpirun', '-np', '1', '-wdir', a, LS, *LIFE, '--quiet', ':', '-np', '1', '-wdir', tmp, LS, *LIFE,
             '--quiet'])
    lines = lockstep_lines(r.stderr)
    expect(r.returncode == 2 and len(lines) == 1 and 'rank 1' in lines[0] and 'g.cells' in lines[0] and
           'MPI_ABORT' not in r.stderr, 'an input missing on rank 1 is one line naming it, exit 2',
           'exit %d, stderr %r' % (r.returncode, r.stderr[-600:]))
    # Standard input reaches rank 0 only.
    with open(os.path.join(a, 'g.cells')) as f:
        r = run(['mpirun', '-np', '2', LS, 'life', '--dims', '2', '--in', '/dev/stdin', '--format', 'cells',
                 '--size', '24x20', '--steps', '3', '--backend', 'openmp', '--quiet'], stdin=f)
    lines = lockstep_lines(r.stderr)
    expect(r.returncode == 2 and len(lines) == 1 and 'rank 1' in lines[0] and 'standard input' in lines[0] and
           'MPI_ABORT' not in r.stderr, '--in /dev/stdin under mpirun is refused, saying why',
           'exit %d, stderr %r' % (r.returncode, r.stderr[-600:]))

# Compared as parsed: one grid and one rule in two spellings.
base = ['--steps', '5', '--backend', 'openmp', '--json', '--quiet']
one = doc(run([LS, 'life', '--dims', '2', '--size', '64', '--rule', 'Life', *base]).stdout)
r = run(['mpirun', '-np', '1', LS, 'life', '--dims', '2', '--size', '64', '--rule', 'Life', *base, ':',
         '-np', '1', LS, 'life', '--size', '64x64', '--rule', 'B3/S23', *base])
expect(r.returncode == 0 and doc(r.stdout).get('digest') == one.get('digest') and one.get('digest'),
       '--size 64 / 64x64 and --rule Life / B3/S23 on two ranks are one problem',
       'exit %d %s' % (r.returncode, r.stderr[-400:]))
r = run(['mpirun', '-np', '1', LS, 'life', '--dims', '2', '--size', '64', '--halo', '3', *base, ':',
         '-np', '1', LS, 'life', '--dims', '2', '--size', '64', *base])
lines = lockstep_lines(r.stderr)
expect(r.returncode == 2 and len(lines) == 1 and "'--halo (not given)'" in lines[0] and "'--halo 3'" in lines[0],
       'an option given to one rank only is named as not given on the other', r.stderr[-400:])


def stopped(args, who, sig, marker):
    """Starts `mpirun -np 2 lockstep ARGS`, lets it run 3 s, sends sig to
    `who` (mpirun, or a rank number) and waits: (exit status, document)."""
    p = subprocess.Popen(['mpirun', '-np', '2', LS, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=ENV)
    target = p.pid if who == 'mpirun' else rank_pid(who, marker, alive=lambda: p.poll() is None)
    time.sleep(3)
    if target:
        os.kill(target, sig)
    try:
        out, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    return p.returncode, doc(out), err


with tempfile.TemporaryDirectory() as tmp:
    marker = os.path.join(tmp, 'never-written.gif')
    life = ['life', '--dims', '2', '--size', '2048', '--steps', '1e8', '--every', '7', '--backend', 'openmp',
            '--json', '--quiet', '--frames', marker]
    for who, sig in ((1, signal.SIGTERM), ('mpirun', signal.SIGUSR2)):
        rc, d, err = stopped(life, who, sig, marker)
        pops = d.get('populations') or []
        expect(rc == 128 + sig and d.get('interrupted') is True and 0 < d.get('generations', 0) < 1e8 and
               len(pops) == d.get('generations', -1) // 7 + 1 and not os.path.exists(marker),
               'Life on 2 ranks, %s to %s: every rank stops, the whole report, exit %d' %
               (signal.Signals(sig).name, 'rank %d' % who if who != 'mpirun' else 'mpirun', 128 + sig),
               'exit %d, keys %s, %s' % (rc, sorted(d)[:12], err[-400:]))
    # SIGUSR2 to mpirun while every rank starts up, before MPI_Init.
    early = dict(ENV, LOCKSTEP_DEBUG_STALL='start:resume')
    for args in (['graveler', '--battles', '1e13'], ['life', '--dims', '2', '--size', '512', '--steps', '1e7']):
        p = subprocess.Popen(['mpirun', '-np', '2', '-x', 'LOCKSTEP_DEBUG_STALL', LS, *args, '--backend', 'openmp',
                              '--json', '--quiet'], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=early)
        said, stalled = '', 0
        while stalled < 2:
            line = p.stderr.readline()
            if not line:
                break
            said += line
            stalled += 'stalled at start' in line
        if stalled == 2:
            p.send_signal(signal.SIGUSR2)
        try:
            out, err = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
        d = doc(out)
        expect(stalled == 2 and p.returncode == 128 + signal.SIGUSR2 and d.get('interrupted') is True,
               '%s on 2 ranks, SIGUSR2 to mpirun while the ranks start: the whole report, exit 140' % args[0],
               'exit %d, stdout %r, %s' % (p.returncode, out[:200], (said + err)[-400:]))
    grv = ['graveler', '--battles', '1e13', '--backend', 'openmp', '--json', '--quiet', '--seed', '12345']
    rc, d, err = stopped(grv, 1, signal.SIGHUP, '12345')
    expect(rc == 128 + signal.SIGHUP and d.get('interrupted') is True and 0 < d.get('battles', 0) < 1e13,
           'graveler on 2 ranks, SIGHUP to rank 1: rank 0 stops the run and reports, exit 129',
           'exit %d, %s' % (rc, err[-400:]))
finish()
