#!/usr/bin/env python3
"""bench's figures people can trust (issue 27):
  - --json carries every timed run's time ("times_s"), the clock and the
    statistics; mean, sample standard deviation (n - 1), median, min and
    max are those Python's statistics module computes from "times_s", for
    bench WORKLOAD and for every row of bench all;
  - one run: "stddev_s" null, the text says n=1 and prints no +/-;
  - every bench's "warnings" are what the rule gives for its "times_s"
    (the first run over twice the others' median, another over twice the
    median), recomputed here;
  - a run slowed on purpose (LOCKSTEP_DEBUG_SLOW_RUN=RUN:SECONDS, the test
    hook) makes bench warn, on stderr and in "warnings": a spread when a
    later run is slow, a slow first run when the first is;
  - the progress line shows on a terminal (a pty) while a bench runs, and
    never when stderr is piped or with --json;
  - "machine" says how busy the machine was while the runs ran (issue 34,
    item 8: Life's times swung 10,000x while other programs held the
    cores): with a busy loop on two cores and a run stalled 1 s (so that
    /proc/stat's ticks measure it), "busy" and the other programs' share
    of the cores, in the text ("machine: busy: ...") and in every row of
    bench all. How busy is judged, not how fast anything ran.
Tiny sizes only: the runs are timed, not judged.

usage: bench_stats.py LOCKSTEP
"""
import json
import math
import os
import pty
import select
import statistics
import subprocess
import sys
import time

from harness import doc, expect, finish

LS = os.path.abspath(sys.argv[1])
QUICK = ['graveler', '--battles', '1e4', '--backend', 'openmp']


def bench(*args, slow=None):
    env = dict(os.environ)
    for k in ('LOCKSTEP_DEBUG_SLOW_RUN', 'LOCKSTEP_DEBUG_FAULT', 'LOCKSTEP_DEBUG_TIMER'):
        env.pop(k, None)
    if slow:
        env['LOCKSTEP_DEBUG_SLOW_RUN'] = slow
    return subprocess.run([LS, 'bench', *args], capture_output=True, text=True, env=env, timeout=300)


def close(a, b):
    return isinstance(a, (int, float)) and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-15)


def expected_warnings(t):
    """The warnings the rule of the README gives for the times t: the
    first run over twice the others' median, another over twice the
    median."""
    kinds = []
    slow_first = len(t) > 1 and t[0] > 2 * statistics.median(t[1:])
    if slow_first:
        kinds.append('slow_first_run')
    if max(t[1:] if slow_first else t) > 2 * statistics.median(t):
        kinds.append('spread')
    return kinds


def check_stats(b, repeat, what):
    """The statistics of one bench object against Python's, from its times."""
    t = b.get('times_s') or []
    ok = len(t) == repeat == b.get('repeat') and all(isinstance(x, (int, float)) and x > 0 for x in t)
    expect(ok, '%s: "times_s" holds the %d timed runs' % (what, repeat), str(b)[:400])
    if not ok:
        return
    want = {'mean_s': statistics.mean(t), 'median_s': statistics.median(t), 'min_s': min(t), 'max_s': max(t),
            'stddev_s': statistics.stdev(t) if len(t) > 1 else None}
    bad = {k: (b.get(k), v) for k, v in want.items()
           if not (b.get(k) is None and v is None) and not (v is not None and close(b.get(k), v))}
    expect(not bad, '%s: mean, sample stddev, median, min, max are statistics\' of the runs' % what, str(bad))
    expect(b.get('clock') in ('device', 'wall') and 'clock_fallback' in b, '%s: the clock is said' % what,
           str(b.get('clock')))
    kinds = [w.get('kind') for w in b.get('warnings', [])]
    expect(kinds == expected_warnings(t) and all(w.get('message') for w in b.get('warnings', [])),
           '%s: the warnings %s are the rule\'s for these times' % (what, kinds), str(b.get('warnings')))


# ---- the statistics, from every run's time ---------------------------------------
for repeat in (7, 2):
    p = bench(*QUICK, '--repeat', str(repeat), '--warmup', '0', '--json')
    check_stats(doc(p, 'bench --json'), repeat, 'bench --json --repeat %d' % repeat)
b = doc(bench(*QUICK, '--repeat', '1', '--warmup', '1', '--json'), 'bench --repeat 1 --json')
check_stats(b, 1, 'bench --json --repeat 1')
expect('stddev_s' in b and b.get('stddev_s') is None, 'one run: "stddev_s" is null', str(b.get('stddev_s')))

p = bench(*QUICK, '--repeat', '1', '--warmup', '0')
expect(p.returncode == 0 and '(n=1)' in p.stdout and '\u00b1' not in p.stdout,
       'one run: the text says n=1 and prints no \u00b1', p.stdout + p.stderr)
p = bench(*QUICK, '--repeat', '3', '--warmup', '0')
line = [x for x in p.stdout.splitlines() if x.startswith('mean ')]
expect(p.returncode == 0 and line and '\u00b1' in line[0] and all(w in line[0] for w in ('median', 'min', 'max')),
       'three runs: "mean X s \u00b1 Y s" beside median, min and max', p.stdout + p.stderr)

# Every row's second run 3 s slower: a spread unless the machine is so
# loaded that the device's own runs take over 1.5 s.
ba = bench('all', '--repeat', '3', '--warmup', '0', '--json', slow='2:3')
rows = doc(ba, 'bench all --json').get('benches', [])
expect(ba.returncode == 0 and rows, 'bench all --json: rows', ba.stderr[-400:])
for r in rows:
    check_stats(r, 3, 'bench all: %s on %s' % (r.get('workload'), r.get('device')))
spreads = sum('spread' in [w.get('kind') for w in r.get('warnings', [])] for r in rows)
expect(spreads > 0 and ba.stderr.count(': the runs spread: ') == spreads and
       ba.stderr.count('lockstep: warning: ') == sum(len(r.get('warnings', [])) for r in rows),
       'bench all, run 2 slowed: %d of %d rows spread, each warning of "warnings" on stderr' % (spreads, len(rows)),
       ba.stderr[-600:])

# ---- warnings when the runs spread --------------------------------------------
p = bench(*QUICK, '--repeat', '5', '--warmup', '1', '--json', slow='3:1')
b = doc(p, 'bench --json, run 3 slowed')
kinds = [w.get('kind') for w in b.get('warnings', [])]
expect(p.returncode == 0 and b.get('times_s', [0] * 3)[2] >= 1.0 and 'spread' in kinds,
       'run 3 slowed by 1 s: its time holds the second and "warnings" has a spread',
       str(b)[:600])
expect('lockstep: warning: the runs spread' in p.stderr, 'run 3 slowed: the warning on stderr', p.stderr)
check_stats(b, 5, 'bench --json, run 3 slowed')
# Two runs, so that the machine's own noise cannot add a spread.
p = bench(*QUICK, '--repeat', '2', '--warmup', '0', slow='1:1')
expect(p.returncode == 0 and 'lockstep: warning: the first timed run took' in p.stderr and
       'spread' not in p.stderr and '--warmup' in p.stderr,
       'the first run slowed: the warning names the first run and --warmup, not a spread', p.stderr)
p = bench(*QUICK, '--repeat', '2', '--warmup', '0', '--json', slow='2:1')
kinds = [w.get('kind') for w in doc(p, 'bench --json --repeat 2, run 2 slowed').get('warnings', [])]
expect(kinds == [], 'two runs, the second slowed: no warning (the first run is the fast one)', str(kinds))
p = bench(*QUICK, slow='3')
expect(p.returncode == 2 and 'LOCKSTEP_DEBUG_SLOW_RUN' in p.stderr and len(p.stderr.splitlines()) == 1,
       'a malformed LOCKSTEP_DEBUG_SLOW_RUN: one line, exit 2', p.stderr)


# ---- how busy the machine was ----------------------------------------------------------
spinners = [subprocess.Popen([sys.executable, '-c', 'while True: pass']) for _ in range(2)]
try:
    time.sleep(0.5)
    b = doc(bench(*QUICK, '--repeat', '3', '--warmup', '0', '--json', slow='1:1'), 'bench --json, a busy machine')
    p = bench(*QUICK, '--repeat', '2', '--warmup', '0', slow='1:1')
    ba = bench('all', '--backends', 'openmp', '--repeat', '1', '--warmup', '0', '--json', slow='1:1')
finally:
    for sp in spinners:
        sp.kill()
        sp.wait()
m = b.get('machine') or {}
if os.path.exists('/proc/stat'):
    expect(m.get('busy') is True and isinstance(m.get('others_cores'), (int, float)) and
           0.5 <= m['others_cores'] <= m.get('cores', 0) and m.get('seconds', 0) >= sum(b.get('times_s', [9])),
           'two busy loops: "machine" says busy, and the cores the others used', str(m))
    expect(p.returncode == 0 and 'machine: busy: other programs used ' in p.stdout,
           'two busy loops: the text says "machine: busy"', p.stdout + p.stderr)
    rows = doc(ba, 'bench all --json, a busy machine').get('benches', [])
    expect(rows and all((r.get('machine') or {}).get('busy') is True for r in rows),
           'bench all: every row says the machine was busy', str([r.get('machine') for r in rows]))
else:
    expect(m.get('others_cores') is None and 'machine' in b, 'no /proc/stat: "machine" says null', str(m))

# ---- progress on a terminal only ----------------------------------------------------
def on_terminal(*args, slow):
    """Runs bench with stderr on a pseudo-terminal: (exit status, stdout,
    what the terminal got)."""
    env = dict(os.environ, LOCKSTEP_DEBUG_SLOW_RUN=slow)
    master, slave = pty.openpty()
    p = subprocess.Popen([LS, 'bench', *args], stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    seen = b''
    end = time.time() + 120
    while time.time() < end:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                data = os.read(master, 4096)
            except OSError:  # the other side closed
                break
            if not data:
                break
            seen += data
        elif p.poll() is not None:
            break
    out = p.communicate(timeout=60)[0]
    os.close(master)
    return p.returncode, out.decode(), seen.decode(errors='replace')


# The first timed run stalls 2.5 s: the bench is past the 2 s a line waits for.
LINE = 'bench graveler on openmp:0, timed run '
rc, out, tty = on_terminal(*QUICK, '--repeat', '3', '--warmup', '0', slow='1:2.5')
expect(rc == 0 and '\r' + LINE + '2 of 3: ' in tty and 'battles' in out,
       'on a terminal: the progress line, redrawn in place, says which run', repr(tty[-600:]))
rc, out, tty = on_terminal(*QUICK, '--repeat', '3', '--warmup', '0', '--json', slow='1:2.5')
expect(rc == 0 and LINE not in tty and '\r' not in tty.replace('\r\n', '\n') and json.loads(out).get('times_s'),
       'with --json: no progress line on the terminal', repr(tty[-600:]))
p = bench(*QUICK, '--repeat', '3', '--warmup', '0', slow='1:2.5')
expect(p.returncode == 0 and LINE not in p.stderr and '\r' not in p.stderr,
       'stderr piped: no progress line', repr(p.stderr[-600:]))
finish()
