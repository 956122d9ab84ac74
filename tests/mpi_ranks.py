#!/usr/bin/env python3
"""graveler and bmn search across MPI ranks (Open MPI's mpirun, on this
host, oversubscribed):
  - 1, 2 and 3 ranks give the digest of one process, for both workloads,
    also with a different device per rank (openmp on one, opencl on another);
  - the issue's acceptance: `mpirun -np 2 lockstep bmn search --deals 1e7
    --backend openmp --json` has the digest and top lists of
    `lockstep bmn search --deals 1e7 --json`;
  - a checkpoint grown by 3 ranks, then 2, then one process without MPI,
    ends as one uninterrupted run, only rank 0 wrote it, and one line
    (rank 0's) says how many deals it holds;
  - Ctrl-C to mpirun stops every rank after its chunk; rank 0 reports what
    was done, which is what the checkpoint holds;
  - a rank killed mid-run (mpirun --enable-recovery, so the job goes on) is
    named by rank 0, its chunk is not counted, and the checkpoint resumes
    to the uninterrupted answer;
  - commands that do not spread are refused under mpirun, once;
  - ranks started with different arguments (a wrapper adding --seed on
    rank 1), or with different lockstep programs, are refused naming the
    difference, before any work: no result, no checkpoint.
Exit 77 when mpirun is missing or lockstep was built without MPI.

usage: mpi_ranks.py LOCKSTEP
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from harness import expect, finish, interrupted_after, mpi_env, mpirun, mpirun_killing_rank1

LS = os.path.abspath(sys.argv[1])
ENV = mpi_env()


def plain(*args, timeout=600):
    return subprocess.run([LS, *args], capture_output=True, text=True, env=ENV, timeout=timeout)


def doc(r):
    try:
        return json.loads(r.stdout)
    except ValueError:
        return {}


if not shutil.which('mpirun'):
    print('skipped: no mpirun (Debian: openmpi-bin)')
    sys.exit(77)
if json.loads(plain('devices', '--json').stdout).get('mpi') is None:
    print('skipped: this lockstep was built without MPI')
    sys.exit(77)
probe = mpirun(2, LS, 'graveler', '--battles', '1e5', '--backend', 'openmp', '--json', '--quiet', timeout=120)
expect(probe.returncode == 0 and probe.stdout.count('"digest"') == 1,
       'two ranks print one result (rank 0 alone prints)', probe.stdout[:300] + probe.stderr)

avail = [b['backend'] for b in json.loads(plain('devices', '--json').stdout)['backends'] if b['available']]
CASES = [('graveler', ['graveler', '--battles', '2e7']), ('bmn', ['bmn', 'search', '--deals', '3e5', '--top', '6'])]
for name, args in CASES:
    ref = doc(plain(*args, '--backend', 'openmp', '--json', '--quiet'))
    for n in (1, 2, 3):
        r = mpirun(n, LS, *args, '--backend', 'openmp', '--json', '--quiet')
        d = doc(r)
        expect(r.returncode == 0 and d.get('digest') == ref.get('digest') and d.get('ranks', 1) == n,
               '%s on %d rank%s: digest %s as one process' % (name, n, 's' if n > 1 else '', d.get('digest')),
               'one process %s; exit %d %s' % (ref.get('digest'), r.returncode, r.stderr))
        if n > 1:
            ranks = {x['rank'] for x in d.get('devices', [])}
            expect(ranks == set(range(n)), '%s on %d ranks: every rank computed' % (name, n), str(d.get('devices')))
    if 'opencl' in avail:
        # Two ranks on this node share the list out: rank 0 openmp, rank 1 opencl.
        r = mpirun(2, LS, *args, '--backend', 'openmp,opencl', '--json', '--quiet')
        d = doc(r)
        labels = sorted((x['label'], x.get('backend')) for x in d.get('devices', []))
        expect(r.returncode == 0 and d.get('digest') == ref.get('digest') and
               labels == [('rank 0 openmp:0', 'openmp'), ('rank 1 opencl:0', 'opencl')],
               '%s: openmp on rank 0 and opencl on rank 1 give one process\'s digest, each device its backend' % name,
               '%s %s %s' % (labels, d.get('digest'), r.stderr))

# The acceptance, as written.
single = doc(plain('bmn', 'search', '--deals', '1e7', '--json', '--quiet'))
two = doc(mpirun(2, LS, 'bmn', 'search', '--deals', '1e7', '--backend', 'openmp', '--json', '--quiet'))
expect(single.get('digest') and two.get('digest') == single.get('digest') and
       two.get('top_by_cards') == single.get('top_by_cards') and two.get('top_by_tricks') == single.get('top_by_tricks'),
       'mpirun -np 2 bmn search --deals 1e7 --backend openmp: digest %s and top K of one process' % two.get('digest'),
       'one process: %s' % single.get('digest'))

with tempfile.TemporaryDirectory() as tmp:
    # A checkpoint grown by 3 ranks, 2 ranks, then one process.
    ck = os.path.join(tmp, 'grown.ckpt')
    steps = [(3, '2e5'), (2, '4e5'), (0, '6e5')]
    for n, deals in steps:
        args = ['bmn', 'search', '--deals', deals, '--top', '6', '--backend', 'openmp', '--checkpoint', ck, '--json',
                '--quiet']
        r = mpirun(n, LS, *args) if n else plain(*args)
        expect(r.returncode == 0 and doc(r).get('deals') == int(float(deals)),
               'checkpoint grown to %s deals by %s' % (deals, '%d ranks' % n if n else 'one process without MPI'),
               r.stderr)
        said = re.findall(r'^saved ([\d,]+) deals to ', r.stderr, re.M)
        expect(said == ['{:,}'.format(int(float(deals)))],
               '%s: one line says what the checkpoint holds (rank 0 alone speaks)' % (
                   '%d ranks' % n if n else 'one process'), r.stderr[-400:])
    straight = doc(plain('bmn', 'search', '--deals', '6e5', '--top', '6', '--backend', 'openmp', '--json', '--quiet'))
    expect(doc(r).get('digest') == straight.get('digest'),
           'a checkpoint grown by 3, 2 and 1 ranks equals one straight run', '%s %s' % (doc(r).get('digest'),
                                                                                      straight.get('digest')))
    expect(sorted(os.listdir(tmp)) == ['grown.ckpt'], 'only rank 0 wrote the checkpoint', str(os.listdir(tmp)))

    # A rank killed mid-run.
    ck = os.path.join(tmp, 'killed.ckpt')
    total = '6e6'
    env = dict(ENV, LOCKSTEP_RANK_TIMEOUT='3')
    victim, _, out, err = mpirun_killing_rank1(
        ['--oversubscribe', '--enable-recovery', '-x', 'LOCKSTEP_RANK_TIMEOUT', '-np', '3', LS, 'bmn', 'search',
         '--deals', total, '--backend', 'openmp', '--checkpoint', ck, '--json', '--quiet'], ck, env)
    named = 'rank 1' in err and ('presumed lost' in err or 'exited on signal 9' in err)
    expect(victim is not None and named, 'a killed rank is named',
           'victim %s, stderr: %s' % (victim, err[-600:]))
    # Open MPI 4.1's mpirun --enable-recovery exits 0 even after rank 0's
    # MPI_Abort: lockstep's own report must say that the run failed.
    expect(out == '' and ('the run failed' in err or 'exited on signal 9' in err),
           'a job that lost a rank prints no result and says the run failed', 'stdout %r, stderr %s'
           % (out[:200], err[-400:]))
    report = plain('bmn', 'report', ck, '--json')
    done = json.loads(report.stdout).get('deals', -1) if report.returncode == 0 else -1
    expect(0 <= done < 6e6, 'the killed rank\'s chunk is not counted (%d deals checkpointed)' % done, report.stderr)
    resumed = doc(plain('bmn', 'search', '--deals', total, '--backend', 'openmp', '--checkpoint', ck, '--json',
                        '--quiet'))
    straight = doc(plain('bmn', 'search', '--deals', total, '--backend', 'openmp', '--json', '--quiet'))
    expect(resumed.get('digest') and resumed.get('digest') == straight.get('digest'),
           'the checkpoint resumes to the uninterrupted answer', '%s %s' % (resumed.get('digest'),
                                                                       straight.get('digest')))

    # Ctrl-C to mpirun: every rank finishes its chunk, rank 0 reports what
    # was done and the checkpoint holds exactly that.
    ck = os.path.join(tmp, 'interrupted.ckpt')
    rc, out, err = interrupted_after(['mpirun', '--oversubscribe', '-np', '2', LS, 'bmn', 'search', '--deals', '1e8',
                                      '--backend', 'openmp', '--checkpoint', ck, '--json', '--quiet'], ENV)
    d = doc(subprocess.CompletedProcess([], 0, out, err))
    report = plain('bmn', 'report', ck, '--json')
    saved = json.loads(report.stdout).get('deals', -1) if report.returncode == 0 else -1
    expect(rc != 0 and d.get('interrupted') is True and 0 < d.get('deals', 0) < 1e8 and saved == d.get('deals'),
           'Ctrl-C to mpirun: rank 0 reports the %s deals done, as the checkpoint holds' % d.get('deals'),
           'checkpoint %s; %s %s' % (saved, out[:200], err[-300:]))

# Ranks given different problems are refused before anything runs.
with tempfile.TemporaryDirectory() as tmp:
    def wrapped(rank1_args, *args, program=LS):
        """mpirun -np 2 with rank 1 running `program ARGS RANK1_ARGS`."""
        wrap = os.path.join(tmp, 'wrap.sh')
        with open(wrap, 'w') as f:
            f.write('#!/bin/sh\nif [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then exec %s "$@" %s; fi\nexec %s "$@"\n'
                    % (program, ' '.join(rank1_args), LS))
        os.chmod(wrap, 0o755)
        return mpirun(2, wrap, *args, timeout=120)
    r = wrapped(['--seed', '99'], 'graveler', '--battles', '1e8', '--backend', 'openmp', '--json', '--quiet')
    expect(r.returncode != 0 and r.stdout == '' and "'--seed 99' where rank 0 has '--seed 1'" in r.stderr,
           'graveler with --seed 99 on rank 1 only: refused, naming --seed, no result', r.stdout[:200] + r.stderr[-500:])
    ck = os.path.join(tmp, 'mixed.ckpt')
    r = wrapped(['--seed', '8'], 'bmn', 'search', '--deals', '2e6', '--seed', '7', '--backend', 'openmp',
                '--checkpoint', ck, '--json', '--quiet')
    expect(r.returncode != 0 and r.stdout == '' and "'--seed 8' where rank 0 has '--seed 7'" in r.stderr
           and not os.path.exists(ck), 'bmn search with --seed 8 on rank 1: refused, no checkpoint written',
           r.stdout[:200] + r.stderr[-500:])
    for opt, val in (('--top', '3'), ('--cap', '50000'), ('--deals', '3e6')):
        r = wrapped([opt, val], 'bmn', 'search', '--deals', '2e6', '--backend', 'openmp', '--json', '--quiet')
        expect(r.returncode != 0 and r.stdout == '' and opt in r.stderr and 'MPI rank 1 was started with' in r.stderr,
               'bmn search with %s %s on rank 1 only: refused, naming it' % (opt, val), r.stderr[-400:])
    # A rank that alone refuses its arguments (or alone prints --help) is
    # named too; the others do not wait for it.
    for extra in (['--cap', '5000'], ['--help']):
        r = wrapped(extra, 'bmn', 'search', '--deals', '2e6', '--backend', 'openmp', '--json', '--quiet')
        expect(r.returncode != 0 and 'MPI rank 1 was started with' in r.stderr and 'arguments refused' in r.stderr,
               'rank 1 alone given %s: refused on every rank, no hang' % ' '.join(extra), r.stderr[-400:])
    # Another program on rank 1 (the same bytes and one more): refused.
    other = os.path.join(tmp, 'lockstep-other')
    shutil.copyfile(LS, other)
    with open(other, 'ab') as f:
        f.write(b'\0')
    os.chmod(other, 0o755)
    r = wrapped([], 'graveler', '--battles', '1e7', '--backend', 'openmp', '--json', '--quiet', program=other)
    expect(r.returncode != 0 and r.stdout == '' and 'program' in r.stderr,
           'another lockstep program on rank 1: refused', r.stderr[-400:])

# Commands that run in one process are refused, once.
for args in (['check', 'graveler'], ['bmn', 'play', 'A/K']):
    r = mpirun(2, LS, *args)
    expect(r.returncode != 0 and r.stderr.count('runs in one process') == 1,
           'mpirun -np 2 lockstep %s: refused once' % args[0], r.stderr[-400:])

finish()
