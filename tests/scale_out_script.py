#!/usr/bin/env python3
"""bench/scale_out.sh, the scale-out batch, rehearsed on the CPU
(SCALE_OUT_CPU=1: OpenMP and PoCL devices, mpirun --oversubscribe) at its
small sizes on 1 and 2 devices:
  - it exits 0; every run's command is printed, and its line follows it;
    a command taken from the log and run again gives the digest recorded;
  - every digest agrees with one device's (strong) or one process's (weak,
    largest), and the table's figures are what the runs' JSON documents
    and the shell's clock say: t1 / (N tN) for strong scaling, t1 / tN for
    the grown grids, computed here again from the records;
  - the largest grid's planes follow the free memory of `lockstep devices
    --json` (capped by SCALE_OUT_LARGEST_CAP) as the issue defines them;
  - a binary that answers otherwise on a set (a wrapper adding --seed 2)
    makes those runs DIFFER, and one that fails under mpirun makes them
    "failed": the table says so and the batch exits 1;
  - bad arguments are refused in one line, exit 2.
Exit 77 without PoCL (the rehearsal's second device).

usage: scale_out_script.py LOCKSTEP SOURCE_ROOT
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from harness import expect, finish

LS, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
ENV = dict(os.environ, SCALE_OUT_CPU='1')
for k in ('LOCKSTEP_BACKEND', 'OUT', 'SCALE_OUT_RECORDS', 'SCALE_OUT_PARTS', 'SCALE_OUT_WORKLOADS'):
    ENV.pop(k, None)
CAP = 8 << 20


def devices():
    return json.loads(subprocess.run([LS, 'devices', '--json'], capture_output=True, text=True, env=ENV).stdout)


d = devices()
if not any(b['backend'] == 'opencl' and b['available'] for b in d['backends']):
    print('no OpenCL device: the rehearsal needs PoCL beside OpenMP')
    sys.exit(77)
MPI = shutil.which('mpirun') is not None and d.get('mpi') is not None


def batch(out, n, lockstep=LS, **env):
    e = dict(ENV, SCALE_OUT_LOCKSTEP=lockstep, SCALE_OUT_LARGEST_CAP=str(CAP), **env)
    return subprocess.run(['bash', 'bench/scale_out.sh', str(n), out], cwd=ROOT, capture_output=True, text=True,
                          env=e, timeout=600)


def records(out):
    """The runs recorded (runs.tsv and each JSON), from the packed archive."""
    folder = os.path.join(out, 'unpacked')
    os.makedirs(folder, exist_ok=True)
    subprocess.run(['tar', '-C', folder, '-xzf', os.path.join(out, 'scale_out-runs.tar.gz')], check=True)
    runs = {}
    with open(os.path.join(folder, 'runs.tsv')) as f:
        for line in f:
            label, workload, title, part, n, mode, rc, start, end, command = line.rstrip('\n').split('\t')
            try:
                with open(os.path.join(folder, label + '.json')) as j:
                    doc = json.load(j)
            except ValueError:
                doc = None
            runs[label] = dict(workload=workload, title=title, part=part, n=int(n), mode=mode, rc=int(rc),
                               process=float(end) - float(start), command=command, doc=doc)
    return runs, folder


def row(log, title, n):
    """The cells of the table's row for (title, n) in the first section
    that has one after `after`."""
    for line in log.splitlines():
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cells) >= 3 and cells[0] == title and cells[1] == str(n):
            return cells[2:]
    return None


def bracket(cell_text, what):
    """The efficiency in brackets after `what` ('' for the run's time) in a cell."""
    pattern = (r'^(?:\*\*DIFFER\*\* )?[0-9.e+-]+ s \(([0-9.]+)\)' if not what else
               re.escape(what) + r' [0-9.e+-]+ s \(([0-9.]+)\)')
    m = re.search(pattern, cell_text)
    return float(m.group(1)) if m else None


def wall(doc):
    if 'wall_seconds' in doc:
        return doc['wall_seconds']
    t = doc['timings']
    return t['start'] + t['kernels'] + t['samples'] + t['result'] + t['summary']


with tempfile.TemporaryDirectory() as tmp:
    # ---- the rehearsal: graveler and 3D Life on 1 and 2 devices, every part --
    out = os.path.join(tmp, 'ok')
    p = batch(out, 2, SCALE_OUT_WORKLOADS='graveler life3d')
    log = p.stdout
    expect(p.returncode == 0, 'the rehearsal on 1 and 2 devices exits 0', 'rc=%d %s %s' % (p.returncode, log[-1500:],
                                                                                            p.stderr[-500:]))
    expect(os.path.exists(os.path.join(out, 'scale_out.log')) and not os.path.exists(os.path.join(out, 'runs')),
           'the log is kept in OUTDIR, the runs packed', str(os.listdir(out)) if os.path.isdir(out) else 'no OUTDIR')
    runs, folder = records(out)
    modes = {(r['workload'], r['part'], r['n'], r['mode']) for r in runs.values()}
    wanted = {('graveler', 'strong', 1, 'one'), ('graveler', 'strong', 2, 'all'), ('life3d', 'strong', 1, 'one'),
              ('life3d', 'strong', 2, 'all'), ('life3d', 'weak', 2, 'all'), ('largest', 'largest', 2, 'all')}
    if MPI:
        wanted |= {('graveler', 'strong', 2, 'ranks'), ('life3d', 'strong', 2, 'ranks'), ('life3d', 'weak', 2, 'ranks'),
                   ('largest', 'largest', 2, 'ranks')}
    expect(modes == wanted, 'every workload, part and way ran (MPI: %s)' % MPI, str(sorted(modes ^ wanted)))
    expect(all(r['rc'] == 0 and r['doc'] for r in runs.values()), 'every run exited 0 with a JSON document',
           str([(k, r['rc']) for k, r in runs.items() if r['rc'] or not r['doc']]))
    lines = log.splitlines()
    for label, r in runs.items():
        at = [i for i, line in enumerate(lines) if line == '$ ' + r['command']]
        follows = at and any(line.startswith(label + ': digest %s' % r['doc']['digest'])
                             for line in lines[at[0] + 1:at[0] + 8])
        expect(follows, '%s: its command in the log, its digest on the line after' % label, r['command'])

    # A command from the log, run again by the shell, gives what it recorded.
    again = runs['life3d-2-all']
    p2 = subprocess.run(['bash', '-c', again['command']], cwd=ROOT, capture_output=True, text=True, env=ENV,
                        timeout=300)
    redo = json.loads(p2.stdout) if p2.returncode == 0 else {}
    expect(redo.get('digest') == again['doc']['digest'], 'the log\'s command, run again, gives the digest recorded',
           '%s %s' % (again['command'], p2.stderr[-300:]))

    # Digests: every comparison agrees, and the summary counts them.
    compared = [k for k, r in runs.items() if r['part'] == 'strong' and r['n'] > 1 or r['mode'] == 'ranks']
    expect('== digests: %d runs compared, %d agree, 0 DIFFER; 0 failed' % (len(compared), len(compared)) in log,
           'the summary: every digest compared agrees', [l for l in lines if l.startswith('== digests')])
    for k in compared:
        r = runs[k]
        ref = runs['%s-1-one' % r['workload']] if r['part'] == 'strong' else \
            runs[k.replace('-ranks', '-all')]
        expect(r['doc']['digest'] == ref['doc']['digest'] and '(agree)' in
               next((l for l in lines if l.startswith(k + ': ')), ''),
               '%s agrees with %s, and its line says so' % (k, 'one device' if r['part'] == 'strong' else 'one process'))

    # The table's figures, computed again from the records.
    for w in ('graveler', 'life3d'):
        one = runs['%s-1-one' % w]
        cells = row(log, one['title'], 2)
        two = runs['%s-2-all' % w]
        t1, t2 = one['doc']['seconds'], two['doc']['seconds']
        e = t1 / (2 * t2)
        expect(cells and abs(bracket(cells[0], '') - e) <= 0.006,
               '%s on 2 devices: the table\'s run efficiency is t1 / (2 t2) = %.3f' % (w, e), str(cells))
        e = one['process'] / (2 * two['process'])
        expect(cells and abs(bracket(cells[0], 'process') - e) <= 0.006,
               '%s on 2 devices: the process efficiency is its t1 / (2 t2) = %.3f' % (w, e), str(cells))
        if w == 'life3d':
            e = wall(one['doc']) / (2 * wall(two['doc']))
            expect(cells and abs(bracket(cells[0], 'wall') - e) <= 0.006,
                   'life3d on 2 devices: the wall efficiency is t1 / (2 t2) = %.3f' % e, str(cells))
            x = two['process'] / wall(two['doc'])
            expect(cells and ', %.1fx wall' % x in cells[0], 'life3d on 2 devices: the process over the wall, %.1fx' % x,
                   str(cells))
    weak = runs['weak-life3d-2-all']
    cells = row(log, weak['title'], 2)
    e = runs['life3d-1-one']['doc']['seconds'] / weak['doc']['seconds']
    expect(cells and abs(bracket(cells[0], '') - e) <= 0.006, 'weak scaling: t1 / t2 = %.3f' % e, str(cells))
    expect(weak['doc']['size'] == [128, 128, 256], 'weak scaling: the grid twice as deep along z on 2 devices',
           str(weak['doc'].get('size')))

    # The largest grid: two generations of each device's slab take 0.6 of
    # the least free memory (capped here), a multiple of 64 planes.
    with open(os.path.join(folder, 'devices.json')) as f:
        listed = json.load(f)
    free = [x['free_memory_bytes'] for b in listed['backends'] for x in b['devices'] if x.get('free_memory_bytes')]
    memory = min(free + [CAP])
    planes = int(0.3 * memory * 2 * 8 / (256 * 256)) // 64 * 64
    largest = runs['largest-2-all']
    expect(largest['doc']['size'] == [256, 256, planes] and largest['doc']['generations'] == 8,
           'the largest grid: 256x256x%d, 8 generations' % planes, str(largest['doc'].get('size')))

    # ---- a binary that answers otherwise on a set, and fails under mpirun ----
    wrapper = os.path.join(tmp, 'wrong')
    with open(wrapper, 'w') as f:
        f.write('#!/bin/sh\n'
                '# another answer on a set; under mpirun, a failure\n'
                '[ -n "$OMPI_COMM_WORLD_SIZE" ] && exit 3\n'
                'case "$*" in *opencl:all*) exec "%s" "$@" --seed 2 ;; esac\n'
                'exec "%s" "$@"\n' % (LS, LS))
    os.chmod(wrapper, 0o755)
    out = os.path.join(tmp, 'wrong-out')
    p = batch(out, 2, wrapper, SCALE_OUT_WORKLOADS='graveler', SCALE_OUT_PARTS='strong')
    cells = row(p.stdout, 'graveler --battles 1e8', 2)
    expect(p.returncode == 1, 'a digest that differs, or a failed run: the batch exits 1', 'rc=%d' % p.returncode)
    expect(cells and cells[0].startswith('**DIFFER**') and
           re.search(r'^DIFFER graveler-2-all: \S+ against \S+ of graveler-1-one$', p.stdout, re.M),
           'a set\'s other digest: DIFFER in the table and named in the summary', str(cells))
    expect(re.search(r'^graveler-2-all: digest \S+ \(DIFFER\)', p.stdout, re.M), 'and on the run\'s own line')
    if MPI:
        expect(cells and cells[1] == 'failed (exit 3)' and
               re.search(r'^failed graveler-2-ranks: exit 3 \(.*mpirun', p.stdout, re.M),
               'a failed run under mpirun: "failed (exit 3)" in the table, named in the summary', str(cells))

    # ---- refusals -----------------------------------------------------------
    for n, env, what in (('0', {}, 'N is a device count'), ('two', {}, 'N is a device count'),
                         ('2', {'SCALE_OUT_PARTS': 'strong wide'}, "no part 'wide'"),
                         ('2', {'SCALE_OUT_WORKLOADS': 'graveler golf'}, "no workload 'golf'"),
                         ('2', {'SCALE_OUT_TIMEOUT': '0'}, 'SCALE_OUT_TIMEOUT is seconds')):
        p = batch(os.path.join(tmp, 'bad'), n, **env)
        said = [l for l in p.stderr.splitlines() if l.startswith('scale_out.sh:')]
        expect(p.returncode == 2 and len(said) == 1 and what in said[0] and 'digest' not in p.stdout,
               'refused in one line, exit 2, nothing run: N %s %s' % (n, env), 'rc=%d %s' % (p.returncode, p.stderr))
    p = batch(os.path.join(tmp, 'bad'), 2, os.path.join(tmp, 'no-such-lockstep'))
    expect(p.returncode == 2 and 'no lockstep binary' in p.stderr, 'a missing binary: refused, exit 2', p.stderr)
finish()
