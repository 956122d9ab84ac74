#!/usr/bin/env python3
"""Times from GPU timers that cannot be right (issue 25, item 3): a device
whose profiling counters read 0 for every command made `bench graveler`
print a median of 0 s and 1e16 battles/s, and one whose counters read
1 ns did the same (issue 34, item 2). LOCKSTEP_DEBUG_TIMER=zero (=tiny,
=huge) makes every GPU timer read 0 s (1 ns, far more than the wall
time); then, on OpenCL:
  - every workload's run reports "clock":"wall" with the reason, and a
    time above 0 and no longer than the process took;
  - bench reports the wall clock and a believable median, check says each
    run's clock, and a set names the device whose timer was rejected;
  - the text reports say so on a "clock:" line;
and without the switch the CPU is timed by the wall clock with no reason
given, and a GPU by its own timer (or by the wall clock with a reason,
should this one's counters read 0). An unknown value is refused.
Provenance and plausibility are checked, never speed.

usage: timer_clock.py LOCKSTEP
"""
import json
import os
import subprocess
import sys
import time

from harness import expect, finish

LS = os.path.abspath(sys.argv[1])


def run(*args, timer=None):
    """(exit status, stdout, stderr, the seconds the process took)."""
    env = dict(os.environ)
    env.pop('LOCKSTEP_DEBUG_TIMER', None)
    if timer:
        env['LOCKSTEP_DEBUG_TIMER'] = timer
    t0 = time.monotonic()
    p = subprocess.run([LS, *args], capture_output=True, text=True, env=env, timeout=300)
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


def document(*args, timer=None):
    rc, out, err, took = run(*args, '--json', timer=timer)
    try:
        return json.loads(out), took, err
    except ValueError:
        return {'exit': rc}, took, err


def believable(seconds, took):
    return isinstance(seconds, (int, float)) and 0 < seconds <= took


rc, out, _, _ = run('devices', '--json')
if not any(b.get('backend') == 'opencl' and b.get('available') for b in json.loads(out).get('backends', [])):
    print('no OpenCL device here: skipped')
    sys.exit(77)

RUNS = {
    'graveler': ['graveler', '--battles', '1e6'],
    'bmn': ['bmn', 'search', '--deals', '2e4'],
    'life': ['life', '--dims', '2', '--size', '64', '--steps', '8'],
    'ray': ['ray', '--size', '16x16', '--spp', '2'],
}

# ---- a timer that reads 0, 1 ns, or more than the wall time ----------------
for timer, said in (('zero', 'read 0 s'), ('tiny', 'too short to be true'), ('huge', 'more than')):
    for name, args in RUNS.items():
        d, took, err = document(*args, '--backend', 'opencl', timer=timer)
        expect(d.get('clock') == 'wall' and said in (d.get('clock_fallback') or ''),
               '%s on OpenCL, timer %s: "clock":"wall" and why' % (name, timer),
               '%s %s' % ({k: d.get(k) for k in ('exit', 'clock', 'clock_fallback')}, err[-300:]))
        expect(believable(d.get('seconds'), took), '%s, timer %s: the wall time, above 0 and within the %.2f s '
               'the process took' % (name, timer, took), str(d.get('seconds')))

rc, out, err, _ = run('graveler', '--battles', '1e6', '--backend', 'opencl', timer='zero')
expect(rc == 0 and 'clock:' in out and 'read 0 s' in out, 'the text report says the wall clock was used, and why',
       out + err)
expect('LOCKSTEP_DEBUG_TIMER' in err, 'the switch says on stderr that it is set', err)

# ---- bench: the median of 0 s -------------------------------------
b, took, err = document('bench', 'graveler', '--battles', '1e6', '--repeat', '3', '--warmup', '0', '--backend',
                        'opencl', timer='zero')
expect(b.get('clock') == 'wall' and b.get('clock_fallback'), 'bench on a timer that reads 0: "clock":"wall" and why',
       str(b) + err[-300:])
median = b.get('median_s', 0)
expect(believable(median, took) and b.get('min_s', 0) > 0,
       'bench: a median above 0 and within the %.2f s the process took' % took, str(b))
expect(b.get('items_per_s', 1e300) <= b.get('items', 0) / median * 1.0001 if median else False,
       'bench: the rate is the items over the median', str(b))
# The 1e16 battles/s from a counter that reads 1 ns.
b, took, err = document('bench', 'graveler', '--battles', '1e6', '--repeat', '2', '--warmup', '0', '--backend',
                        'opencl', timer='tiny')
expect(b.get('clock') == 'wall' and 'too short' in (b.get('clock_fallback') or '') and
       believable(b.get('median_s'), took) and b.get('min_s', 0) > 1e-6,
       'bench on a timer that reads 1 ns: "clock":"wall", why, and a believable median', str(b) + err[-300:])
rc, out, err, _ = run('bench', 'graveler', '--battles', '1e6', '--repeat', '2', '--warmup', '0', '--backend', 'opencl',
                      timer='zero')
expect(rc == 0 and 'median 0.000000 s' not in out and 'clock:' in out, 'bench text: no 0 s median, a clock line', out)

# ---- check, a set, and the clocks without the switch ----------------------
c, _, err = document('check', 'graveler', '--battles', '1e5', '--backends', 'openmp,opencl:0', timer='zero')
runs = {r.get('device'): r for r in c.get('runs', [])}
cpu, gpu = runs.get('openmp:0', {}), runs.get('opencl:0', {})
expect(cpu.get('clock') == 'wall' and cpu.get('clock_fallback') is None and gpu.get('clock') == 'wall' and
       gpu.get('clock_fallback') and c.get('agree'), 'check: each run\'s clock (the CPU\'s the wall\'s, no reason)',
       str(c) + err[-300:])

# BMN's first chunks (4096 deals) go to both devices at once.
s, took, err = document('bmn', 'search', '--deals', '2e4', '--backend', 'openmp+opencl:0', timer='huge')
devices = {d.get('label'): d for d in s.get('devices', [])}
expect(s.get('clock') == 'wall' and devices.get('opencl:0', {}).get('timer_rejected') is True and
       devices.get('opencl:0', {}).get('clock') == 'wall' and devices.get('openmp:0', {}).get('timer_rejected') is False,
       'a set: the wall time, and the device whose timer was rejected named', str(s) + err[-300:])

d, took, _ = document('graveler', '--battles', '1e6', '--backend', 'openmp')
expect(d.get('clock') == 'wall' and d.get('clock_fallback') is None and believable(d.get('seconds'), took),
       'OpenMP: the wall clock, no reason given', str(d))
d, took, _ = document('graveler', '--battles', '1e6', '--backend', 'opencl')
expect(believable(d.get('seconds'), took) and
       (d.get('clock') == 'device' and d.get('clock_fallback') is None or
        d.get('clock') == 'wall' and d.get('clock_fallback')),
       'OpenCL without the switch: its own timer, or the wall clock with the reason', str(d))

rc, out, err, _ = run('graveler', '--battles', '1e5', '--backend', 'opencl', timer='sideways')
expect(rc == 2 and 'LOCKSTEP_DEBUG_TIMER' in err and len(err.strip().splitlines()) == 1,
       'an unknown LOCKSTEP_DEBUG_TIMER is refused in one line', err)
finish()
