#!/usr/bin/env python3
"""Life on one machine's CPU cores: OpenMP against the OpenCL CPU devices
(PoCL; Intel's CPU runtime where the ICD loader sees it), issue 35's
target of 1.5 times OpenMP's time at most. Rounds of `lockstep bench`,
each round every device in turn on each case (interleaved: the machine may
be shared, and a round that others' work slows slows every device alike),
on all cores and on one (OMP_NUM_THREADS=1, POCL_MAX_PTHREAD_COUNT=1,
CL_CONFIG_CPU_TBB_NUM_WORKERS=1: a steadier ratio on a busy machine).
Prints every bench's median, then per case and device the median and the
fastest of those medians and the ratio of each to OpenMP's.

usage: bench/cpu_life.py LOCKSTEP [ROUNDS] [--base LOCKSTEP2] [--cases 2d,3d]
  --base: a second binary (the tree before a change), run on the OpenCL
          devices in the same rounds, reported as `base opencl:N`
  (OCL_ICD_VENDORS as the tests set it makes Intel's runtime opencl:1)
"""
import json
import os
import statistics
import subprocess
import sys

CASES = {
    '3d': ['life', '--dims', '3', '--size', '256', '--steps', '64'],
    '2d': ['life', '--dims', '2', '--size', '8192', '--steps', '128'],
}
ONE_THREAD = {'OMP_NUM_THREADS': '1', 'POCL_MAX_PTHREAD_COUNT': '1', 'CL_CONFIG_CPU_TBB_NUM_WORKERS': '1'}


def opencl_cpus(lockstep):
    r = subprocess.run([lockstep, 'devices', '--json'], capture_output=True, text=True, check=True)
    doc = json.loads(r.stdout)
    return [d['device'] for b in doc['backends'] if b['backend'] == 'opencl' for d in b['devices']
            if d['type'] == 'CPU']


def bench(lockstep, case, device, env):
    e = dict(os.environ)
    e.update(env)
    r = subprocess.run([lockstep, 'bench'] + CASES[case] + ['--backend', device, '--repeat', '3', '--json'],
                       capture_output=True, text=True, env=e)
    if r.returncode != 0:
        sys.exit('%s bench %s on %s failed: %s' % (lockstep, case, device, r.stderr.strip()))
    return json.loads(r.stdout)['median_s']


def main():
    args = sys.argv[1:]
    base, cases = None, ['3d', '2d']
    if '--base' in args:
        i = args.index('--base')
        base = args[i + 1]
        del args[i:i + 2]
    if '--cases' in args:
        i = args.index('--cases')
        cases = args[i + 1].split(',')
        del args[i:i + 2]
    lockstep = args[0]
    rounds = int(args[1]) if len(args) > 1 else 5
    runs = [(lockstep, 'openmp', 'openmp')]
    for d in opencl_cpus(lockstep):
        runs.append((lockstep, d, d))
        if base:
            runs.append((base, d, 'base ' + d))
    cpu = open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].split('\n')[0].strip()
    print('CPU: %s, %d logical CPUs; %d rounds of bench %s' %
          (cpu, os.cpu_count(), rounds, '; '.join(' '.join(CASES[c]) for c in cases)))
    times = {}
    for rnd in range(rounds):
        for threads, env in (('all', {}), ('one', ONE_THREAD)):
            for case in cases:
                for binary, device, name in runs:
                    t = bench(binary, case, device, env)
                    times.setdefault((case, threads, name), []).append(t)
                    print('round %d %s %-5s threads %-16s median %.4f s' % (rnd + 1, case, threads, name, t),
                          flush=True)
    print('\ncase threads device            median of medians  fastest    /openmp (median, fastest)')
    for case in cases:
        for threads in ('all', 'one'):
            ref = times[(case, threads, 'openmp')]
            for _, _, name in runs:
                ts = times[(case, threads, name)]
                print('%-4s %-7s %-17s %.4f s           %.4f s   %.2fx  %.2fx' %
                      (case, threads, name, statistics.median(ts), min(ts),
                       statistics.median(ts) / statistics.median(ref), min(ts) / min(ref)))


main()
