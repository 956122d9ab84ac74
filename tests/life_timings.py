#!/usr/bin/env python3
"""life --timings (issue 26): where a run's time went.
  - the text report has a "timings:" line and --json a "timings" object
    with every phase (open, input, start, kernels, samples, result,
    summary, output), each a finite figure >= 0, whose sum is no more than
    the whole process took;
  - the phases that had work have time: kernels with generations to run,
    input with --in, output with --out, samples with --every;
  - without --timings, neither appears (the result is unchanged);
  - on two MPI ranks (where mpirun runs) "slowest_rank" covers the phases
    every rank goes through, each at least rank 0's;
  - the whole process (issue 36): "launch" (the process's start to the
    devices' open) comes first and "finish" (the outputs put in place)
    last, for Life and for a workload with the command's phases (open,
    run); the phases add up to "since_start", the seconds from the
    process's start to the report (within 0.02 s and 5%), which is no
    more than the process took from outside (0.011 s: the start time
    counts in 1/100 s) and no less than it by more than its end could
    take; an input read while the devices opened is counted once
    ("input_beside_open" says how much of it "open" hid);
  - "cpu_threads" (text: "CPU threads N") says how many threads a
    generation ran on: one on a small grid, where a barrier every
    generation waiting on a thread the machine is not running made 200
    generations of 128x96 take 0.0001 to 1.58 s (issue 34, item 8), and
    every thread asked for (OMP_NUM_THREADS) on a large one. The decision
    is tested, not the speed.
usage: life_timings.py LOCKSTEP
"""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

from harness import expect, finish, mpi_env

LS = sys.argv[1]
ENV = mpi_env()
PHASES = ['launch', 'open', 'input', 'start', 'kernels', 'samples', 'result', 'summary', 'output', 'finish']


def run(cmd, env=ENV):
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    return r, time.monotonic() - t0


with tempfile.TemporaryDirectory() as tmp:
    grid = os.path.join(tmp, 'g.lsgrid')
    base = ['life', '--dims', '3', '--size', '96', '--steps', '40', '--backend', 'openmp']
    r, wall = run([LS, *base, '--every', '10', '--out', grid, '--timings', '--json', '--quiet'])
    t = json.loads(r.stdout).get('timings', {}) if r.returncode == 0 else {}
    expect(list(t)[:len(PHASES)] == PHASES and all(isinstance(t[p], float) and math.isfinite(t[p]) and t[p] >= 0
                                                   for p in PHASES),
           '--json --timings: every phase, each a figure >= 0', '%s %s' % (t, r.stderr[-300:]))
    # launch counts from the process's start as /proc/self/stat gives it,
    # in clock ticks (1/100 s, truncated): it may read one tick high.
    expect(t and sum(t[p] for p in PHASES) <= wall + 0.01, 'the phases add up to no more than the process took',
           '%s against %.3f s' % (t and sum(t[p] for p in PHASES), wall))
    expect(t and t['kernels'] > 0 and t['samples'] > 0 and t['output'] > 0 and t['start'] > 0,
           'kernels, samples, start and output took time', str(t))
    r, _ = run([LS, 'life', '--dims', '3', '--in', grid, '--steps', '3', '--backend', 'openmp', '--timings',
                '--json', '--quiet'])
    t = json.loads(r.stdout).get('timings', {}) if r.returncode == 0 else {}
    expect(t.get('input', 0) > 0, 'reading --in is the input phase', str(t) + r.stderr[-300:])
    # A large file is read while the devices open: the start is what the
    # run spent after it, never less than nothing.
    big = os.path.join(tmp, 'big.lsgrid')
    run([LS, 'life', '--dims', '3', '--size', '512', '--steps', '0', '--backend', 'openmp', '--out', big, '--quiet'])
    for i in range(3):
        r, _ = run([LS, 'life', '--dims', '3', '--in', big, '--steps', '0', '--backend', 'openmp', '--timings',
                    '--json', '--quiet'])
        t = json.loads(r.stdout).get('timings', {}) if r.returncode == 0 else {}
        expect(t and all(t[p] >= 0 for p in PHASES) and t['input'] > 0,
               'a large --in read while the devices open: every phase >= 0 (run %d)' % (i + 1),
               str(t) + r.stderr[-300:])
    # The whole process: the phases add up to it.
    def adds_up(cmd, names, what):
        r, wall = run(cmd)
        t = json.loads(r.stdout).get('timings', {}) if r.returncode == 0 else {}
        total = sum(t.get(p, 0) for p in names)
        since = t.get('since_start', 0)
        expect(list(t)[:len(names)] == names and since > 0 and abs(total - since) <= 0.02 + 0.05 * since and
               since <= wall + 0.011 and wall - total <= 0.15 + 0.25 * wall,
               '%s: %s add up to the process (%.3f s; since_start %.3f s; from outside %.3f s)' %
               (what, ', '.join(names), total, since, wall), '%s %s' % (t, r.stderr[-300:]))
        return t
    adds_up([LS, *base, '--out', grid, '--timings', '--json', '--quiet'], PHASES, 'life --out')
    t = adds_up([LS, 'life', big, os.path.join(tmp, 'o.lsgrid'), '2', '--backend', 'openmp', '--timings', '--json',
                 '--quiet'], PHASES, 'life IN OUT N')
    expect(t.get('input_beside_open', 0) >= 0 and t.get('input', -1) >= 0,
           'an input read while the devices opened: counted once', str(t))
    adds_up([LS, 'graveler', '--battles', '1e5', '--backend', 'openmp', '--timings', '--json', '--quiet'],
            ['launch', 'open', 'run', 'finish'], 'graveler')
    r, _ = run([LS, *base, '--timings'])
    lines = [line for line in r.stdout.splitlines() if line.startswith('timings:')]
    expect(r.returncode == 0 and len(lines) == 1 and all(p + ' ' in lines[0] for p in PHASES),
           'the report for people has a timings line naming every phase', r.stdout[-400:])
    plain, _ = run([LS, *base, '--json', '--quiet'])
    with_t, _ = run([LS, *base, '--json', '--quiet', '--timings'])
    a, b = json.loads(plain.stdout), json.loads(with_t.stdout)
    expect('timings' not in a and a.get('digest') == b.get('digest'),
           'without --timings no timings; the result (digest) is the same with them', '%s %s' % (a.get('digest'),
                                                                                              b.get('digest')))
    # Four threads asked for, whatever this machine has.
    four = dict(ENV, OMP_NUM_THREADS='4')
    for shape, want in ((['--dims', '2', '--size', '128x96', '--steps', '200'], 1),
                        (['--dims', '3', '--size', '32', '--steps', '2'], 1),
                        (['--dims', '2', '--size', '2048', '--steps', '1'], 4),
                        (['--dims', '3', '--size', '128', '--steps', '1'], 4)):
        r, _ = run([LS, 'life', *shape, '--backend', 'openmp', '--timings', '--json', '--quiet'], four)
        t = json.loads(r.stdout).get('timings', {}) if r.returncode == 0 else {}
        expect(t.get('cpu_threads') == want, '%s of 4 threads asked for: "cpu_threads" %d' % (' '.join(shape), want),
               str(t) + r.stderr[-300:])
    r, _ = run([LS, 'life', '--dims', '2', '--size', '128x96', '--steps', '200', '--backend', 'openmp', '--timings',
                '--quiet'], four)
    expect(r.returncode == 0 and '; CPU threads 1' in r.stdout, 'the timings line says "CPU threads 1"', r.stdout)
    if shutil.which('mpirun') and json.loads(run([LS, 'devices', '--json'])[0].stdout).get('mpi') is not None:
        r, _ = run(['mpirun', '-np', '2', LS, *base, '--timings', '--json', '--quiet'])
        t = json.loads(r.stdout).get('timings', {}) if r.returncode == 0 else {}
        slow = t.get('slowest_rank', {})
        expect(t.get('ranks') == 2 and set(slow) == {'input', 'start', 'kernels', 'samples', 'result'} and
               all(slow[p] >= t[p] for p in slow), 'on 2 MPI ranks: the slowest rank\'s phases, each >= rank 0\'s',
               str(t) + r.stderr[-300:])
finish()
