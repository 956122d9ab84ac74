#!/usr/bin/env python3
"""bench/scale_out.py - the figures of bench/scale_out.sh: each run's line
in the log, the largest Life grid the devices hold, and the summary (every
digest against one device's, strong and weak scaling, a markdown table).

usage:
  scale_out.py line RECORDS LABEL      one run's figures, one line for the log
  scale_out.py planes DEVICES.json BACKENDS N PLANE_CELLS [CAP_BYTES]
                                       planes of the largest 3D grid (below)
  scale_out.py table RECORDS           the comparisons and the markdown table;
                                       exit 1 when a run failed or a digest differs

RECORDS is the folder bench/scale_out.sh writes: runs.tsv, one line a run
(label, workload, title, part, devices, mode, exit status, start and end
by the shell's clock, the command), and LABEL.json, the run's --json.

Times: "seconds" is the run's own (one GPU's timer, a set's wall time);
Life's "wall" is the run's wall time from the devices' start to its summary
(the JSON's wall_seconds, or on one device the sum of those --timings
phases, the same span); "process" is the shell's clock around the command.
Strong scaling is t1 / (N tN), weak scaling (the grid N times larger on N
devices) t1 / tN.
"""
import json
import os
import sys

PARTS = ('strong', 'weak', 'largest')
MODES = ('one', 'all', 'ranks', 'halves')
FIELDS = ('label', 'workload', 'title', 'part', 'n', 'mode', 'rc', 'start', 'end', 'command')
WALL_PHASES = ('start', 'kernels', 'samples', 'result', 'summary')
# lockstep's own limit on a Life grid (LIFE_MAX_CELLS in life_grid.h).
MAX_CELLS = 1 << 40
# Two generations of each device's slab take this much of its free memory.
LARGEST_SHARE = 0.6


def usage(why):
    print('scale_out.py: %s\n%s' % (why, __doc__.split('\n\n')[1]), file=sys.stderr)
    sys.exit(2)


class Run:
    """One recorded run: its record and what its JSON says."""

    def __init__(self, records, fields):
        for name, value in zip(FIELDS, fields):
            setattr(self, name, value)
        self.n, self.rc = int(self.n), int(self.rc)
        self.process = float(self.end) - float(self.start)
        self.doc = None
        try:
            with open(os.path.join(records, self.label + '.json')) as f:
                self.doc = json.load(f)
        except (OSError, ValueError):
            pass

    @property
    def ok(self):
        return self.rc == 0 and self.doc is not None and 'digest' in self.doc

    @property
    def seconds(self):
        return self.doc['seconds']

    @property
    def wall(self):
        """Life's wall time (None for the other workloads)."""
        if self.doc.get('workload') != 'life':
            return None
        if 'wall_seconds' in self.doc:
            return self.doc['wall_seconds']
        timings = self.doc.get('timings')
        return sum(timings[p] for p in WALL_PHASES) if timings else None


def load(records):
    path = os.path.join(records, 'runs.tsv')
    try:
        with open(path) as f:
            lines = [line.rstrip('\n').split('\t') for line in f if line.strip()]
    except OSError as e:
        sys.exit('scale_out.py: cannot read %s: %s' % (path, e.strerror))
    runs = {}
    for i, fields in enumerate(lines):
        if len(fields) != len(FIELDS):
            sys.exit('scale_out.py: %s line %d has %d fields, not %d' % (path, i + 1, len(fields), len(FIELDS)))
        if fields[3] not in PARTS or fields[5] not in MODES or not (fields[4] + fields[6]).lstrip('-').isdigit():
            sys.exit('scale_out.py: %s line %d is no run record: %s' % (path, i + 1, ' '.join(fields[:7])))
        run = Run(records, fields)
        runs[run.label] = run  # a label run again: its last run counts
    return runs


def baseline(runs, workload):
    """The one-device run of a workload, any part, or None."""
    for r in runs.values():
        if r.workload == workload and r.n == 1 and r.mode == 'one':
            return r
    return None


def reference(runs, run):
    """What a run's digest must equal: one device's (strong), or for a grid
    no one device ran (weak, largest) the same grid in one process."""
    if run.part == 'strong':
        ref = baseline(runs, run.workload)
        return ref if ref is not run else None
    if run.mode == 'all':
        return None
    return next((r for r in runs.values() if r.part == run.part and r.workload == run.workload and r.n == run.n
                 and r.mode == 'all'), None)


def verdict(runs, run):
    """'agree', 'DIFFER', or '' when there is nothing to compare with."""
    ref = reference(runs, run)
    if not run.ok or ref is None or not ref.ok:
        return ''
    return 'agree' if run.doc['digest'] == ref.doc['digest'] else 'DIFFER'


def ratio(t1, tn, n):
    """t1 / (n tn), or None when either is missing or zero."""
    return t1 / (n * tn) if t1 and tn else None


def figure(seconds, scale=None):
    text = '%.3g s' % seconds if seconds < 100 else '%.0f s' % seconds
    return text + (' (%.2f)' % scale if scale is not None else '')


def cell(runs, run):
    """A run's figures for the table: its time, Life's wall time, the whole
    process, each with its efficiency against one device, and Life's
    process over its wall time."""
    if not run.ok:
        return 'failed (exit %d)' % run.rc if run.rc else 'failed (no JSON)'
    ref = baseline(runs, run.workload) if run.part != 'largest' else None
    ref = ref if ref is not None and ref.ok and ref is not run else None
    n = run.n if run.part == 'strong' else 1  # weak scaling: t1 / tN
    parts = [figure(run.seconds, ratio(ref.seconds, run.seconds, n) if ref else None)]
    if run.wall:
        parts.append('wall ' + figure(run.wall, ratio(ref.wall, run.wall, n) if ref else None))
    process = 'process ' + figure(run.process, ratio(ref.process, run.process, n) if ref else None)
    if run.wall:
        process += ', %.1fx wall' % (run.process / run.wall)
    parts.append(process)
    text = ', '.join(parts)
    return '**DIFFER** ' + text if verdict(runs, run) == 'DIFFER' else text


def cmd_line(records, label):
    runs = load(records)
    run = runs.get(label)
    if run is None:
        sys.exit('scale_out.py: no run %s in %s' % (label, records))
    if not run.ok:
        print('%s: failed, exit %d, %s' % (label, run.rc, 'no JSON' if run.doc is None else 'no digest'))
        return
    said = verdict(runs, run)
    wall = ', wall %.3f s' % run.wall if run.wall else ''
    print('%s: digest %s%s, seconds %.3f (%s)%s, process %.3f s' %
          (label, run.doc['digest'], ' (%s)' % said if said else '', run.seconds, run.doc.get('clock', '?'), wall,
           run.process))


def largest_planes(devices, backends, n, plane_cells, cap):
    """Planes of the largest 3D grid of plane_cells a plane on n devices:
    two generations of each device's share take LARGEST_SHARE of the
    device's free memory (the least any of them has; cap, when given,
    stands for memory that is not reported or too much to use), so one
    generation is LARGEST_SHARE / 2 of it times n; a multiple of 64 planes,
    and no more than lockstep's largest grid. Returns (planes, bytes a
    device, where it came from)."""
    free = [d['free_memory_bytes'] for b in devices['backends'] if b['backend'] in backends
            for d in b['devices'] if d.get('free_memory_bytes')]
    if not free and cap is None:
        sys.exit('scale_out.py: no device of %s reports its free memory; give CAP_BYTES' % ','.join(backends))
    memory = min(free + ([cap] if cap is not None else []))
    said = ('free memory %d bytes, the least of the %d devices that report it' % (min(free), len(free)) if free
            else 'no device reports its free memory')
    if cap is not None and cap <= memory:
        said += ', capped at %d bytes' % cap
    planes = int(LARGEST_SHARE / 2 * memory * n * 8 // plane_cells)
    if planes * plane_cells > MAX_CELLS:
        planes = MAX_CELLS // plane_cells
        said += '; capped by lockstep\'s largest grid, 2^40 cells'
    return (planes // 64 * 64 if planes >= 64 else planes), memory, said


def cmd_planes(args):
    if len(args) not in (4, 5):
        usage('planes takes DEVICES.json BACKENDS N PLANE_CELLS [CAP_BYTES]')
    try:
        with open(args[0]) as f:
            devices = json.load(f)
        n, plane_cells = int(args[2]), int(args[3])
        cap = int(args[4]) if len(args) == 5 else None
    except (OSError, ValueError) as e:
        sys.exit('scale_out.py: planes: %s' % e)
    if n < 1 or plane_cells < 1 or (cap is not None and cap < 1):
        usage('planes: N, PLANE_CELLS and CAP_BYTES are positive')
    planes, _, said = largest_planes(devices, args[1].split(','), n, plane_cells, cap)
    if planes < 4:
        sys.exit('scale_out.py: planes: %s leaves %d planes, fewer than Life\'s 4' % (said, planes))
    print(planes)
    print(said, file=sys.stderr)


COLUMNS = {'all': 'one process (N = 1: one device)', 'ranks': 'N ranks, a device each',
           'halves': '2 ranks, N/2 devices each'}


def table(runs, part, columns):
    """The markdown rows of one part: a row a workload and device count,
    a column a way of running it; a weak table starts from the one-device
    run it is measured against."""
    mine = [r for r in runs.values() if r.part == part]
    order = list(dict.fromkeys(r.workload for r in mine))
    title = {r.workload: r.title for r in mine}
    shown = mine + ([baseline(runs, w) for w in order if baseline(runs, w)] if part == 'weak' else [])
    out = ['| run | N | ' + ' | '.join(COLUMNS[c] for c in columns) + ' |', '|---|---|' + '---|' * len(columns)]
    for workload, n in sorted({(r.workload, r.n) for r in shown}, key=lambda k: (order.index(k[0]), k[1])):
        found = {('all' if r.mode == 'one' else r.mode): r for r in shown if r.workload == workload and r.n == n}
        cells = [cell(runs, found[c]) if c in found else '-' for c in columns]
        out.append('| %s | %d | %s |' % (title[workload], n, ' | '.join(cells)))
    return out if mine else []


def cmd_table(records):
    runs = load(records)
    failed = [r for r in runs.values() if not r.ok]
    differ = [r for r in runs.values() if verdict(runs, r) == 'DIFFER']
    compared = [r for r in runs.values() if verdict(runs, r)]
    print('== digests: %d runs compared, %d agree, %d DIFFER; %d failed' %
          (len(compared), len(compared) - len(differ), len(differ), len(failed)))
    for r in differ:
        ref = reference(runs, r)
        print('DIFFER %s: %s against %s of %s' % (r.label, r.doc['digest'], ref.doc['digest'], ref.label))
    for r in failed:
        print('failed %s: exit %d (%s)' % (r.label, r.rc, r.command))
    print('\n== the table (markdown)\n')
    commit = next((r.doc['lockstep'].get('commit') for r in runs.values() if r.doc and 'lockstep' in r.doc), None)
    try:
        with open(os.path.join(records, 'machine.txt')) as f:
            machine = f.read().strip()
    except OSError:
        machine = 'a machine not recorded'
    print('`bash bench/scale_out.sh`, %s; lockstep %s.\n' % (machine, commit or '(commit not known)'))
    print('Each figure: the run\'s time (JSON "seconds": one device\'s timer, a set\'s wall time), for Life its wall '
          'time (start to summary) too, and the whole process (the shell\'s clock around the command); in brackets '
          't1 / (N tN) against one device (strong scaling), for the grown grids t1 / tN (weak scaling); "Nx wall": '
          'the process over the run\'s wall time. **DIFFER**: a digest other than one device\'s (strong) or than '
          'one process\'s (weak, largest).\n')
    sections = [('strong', 'Strong scaling', ('all', 'ranks', 'halves')),
                ('weak', 'Weak scaling: the grid N times larger along the slab axis', ('all', 'ranks')),
                ('largest', 'The largest grid the devices hold', ('all', 'ranks'))]
    for part, name, columns in sections:
        lines = table(runs, part, columns)
        if lines:
            print('%s:\n\n%s\n' % (name, '\n'.join(lines)))
    return 1 if failed or differ else 0


def main(argv):
    if len(argv) < 2:
        usage('which command?')
    cmd, args = argv[1], argv[2:]
    if cmd == 'line' and len(args) == 2:
        cmd_line(*args)
    elif cmd == 'planes':
        cmd_planes(args)
    elif cmd == 'table' and len(args) == 1:
        sys.exit(cmd_table(args[0]))
    else:
        usage('unknown command or arguments: %s' % ' '.join(argv[1:]))


if __name__ == '__main__':
    main(sys.argv)
