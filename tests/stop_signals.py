#!/usr/bin/env python3
"""stop_signals.py LOCKSTEP - stop signals at the moments that used to lose
them (issues 34 and 35), each sent while LOCKSTEP_DEBUG_STALL holds the
process in a known phase (it says so on stderr first), so no check depends
on when a signal happens to land:

  - at start-up (start:resume), before the run's own handlers used to be in
    place: the signal is remembered, the run stops at its first chunk and
    reports ("interrupted": true, exit 128 + N), where it used to die with
    no report;
  - `bench --json` stopped before a run was timed (in the warm-up): the
    report with "interrupted": true, "repeat": 0 and no figures, where it
    used to print nothing;
  - a program build that fails because the signal came while it ran
    (build:fail, as PoCL's did): exit 128 + N and a line saying the signal
    did it, for a run, `check` (status "interrupted", no failure), and
    `conformance` (no failed case) and `bench` (the report) - never exit 1;
  - a call that never returns (start:hang, build:hang, as Intel's OpenCL CPU
    compiler's did): the first SIGINT or SIGTERM waits for it, a second
    ends the process with 128 + N; an output file being written is left as
    it was, and its temporary file is removed;
  - a killed write's temporary file (.NAME.tmp-XXXXXX) is removed by the
    next run that writes another file beside it, and by --frames into that
    directory; a live writer's (its flock held) is left alone.
The OpenCL parts need an OpenCL device (PoCL here) and are left out without
one.
"""
import fcntl
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from harness import expect, finish

LS = os.path.abspath(sys.argv[1])
devices = json.loads(subprocess.run([LS, 'devices', '--json'], capture_output=True, text=True).stdout)
OPENCL = any(b['backend'] == 'opencl' and b['available'] for b in devices['backends'])
STALLED = 'LOCKSTEP_DEBUG_STALL is set: stalled at'


def stalled_run(args, stall, signals, cwd=None, timeout=120):
    """Starts lockstep ARGS with LOCKSTEP_DEBUG_STALL=stall, waits for its
    line saying it stalled, then sends each of `signals` in turn (0.3 s
    apart). Returns (exit status, stdout, stderr, whether it was still
    running before the last signal); exit status None when it did not end
    within `timeout` seconds of the last signal (it is then killed)."""
    env = dict(os.environ, LOCKSTEP_DEBUG_STALL=stall)
    env.pop('LOCKSTEP_BACKEND', None)
    p = subprocess.Popen([LS, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
    said = ''
    while STALLED not in said:
        line = p.stderr.readline()
        if not line:
            break
        said += line
    alive = True
    for i, sig in enumerate(signals):
        if i:
            time.sleep(0.3)
        alive = p.poll() is None
        if alive:
            p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        rc = None
    return rc, out, said + err, alive


def document(text):
    try:
        return json.loads(text)
    except ValueError:
        return {}


def detail(rc, out, err):
    return 'exit %s, stdout %r, stderr %r' % (rc, out[:300], err[-500:])


# ---- a signal at start-up is remembered and acted on -------------------------
for sig in (signal.SIGTERM, signal.SIGUSR2):
    rc, out, err, _ = stalled_run(['graveler', '--battles', '1e14', '--backend', 'openmp', '--json', '--quiet'],
                                  'start:resume', [sig])
    d = document(out)
    expect(rc == 128 + sig and d.get('interrupted') is True and 0 <= d.get('battles', -1) < 1e14,
           '%s at start-up: the run stops at its first chunk and reports, exit %d' %
           (signal.Signals(sig).name, 128 + sig), detail(rc, out, err))

# ---- bench --json stopped before any run was timed ------------------------------
rc, out, err, _ = stalled_run(['bench', 'graveler', '--battles', '1e14', '--backend', 'openmp', '--warmup', '1',
                               '--repeat', '3', '--json'], 'start:resume', [signal.SIGINT])
d = document(out)
expect(rc == 130 and d.get('interrupted') is True and d.get('repeat') == 0 and d.get('times_s') == [] and
       d.get('median_s', 0) is None and d.get('warmup') == 1,
       'bench --json stopped before a run was timed: the report, interrupted, no timed run, exit 130',
       detail(rc, out, err))

# ---- a second SIGINT or SIGTERM ends a call that never returns --------------------
for first, second in ((signal.SIGINT, signal.SIGINT), (signal.SIGHUP, signal.SIGTERM)):
    rc, out, err, alive = stalled_run(['graveler', '--battles', '1e6', '--backend', 'openmp', '--quiet'],
                                      'start:hang', [first, second], timeout=60)
    expect(alive and rc == 128 + second,
           'stuck: %s waits, then %s ends it with exit %d' % (signal.Signals(first).name,
                                                              signal.Signals(second).name, 128 + second),
           'still running before the second: %s; %s' % (alive, detail(rc, out, err)))

if OPENCL:
    # ---- in a program build: the signal's doing, never a device's failure --------
    rc, out, err, _ = stalled_run(['ray', '--size', '64x64', '--spp', '4', '--backend', 'opencl', '--json',
                                   '--quiet'], 'build:fail', [signal.SIGTERM])
    expect(rc == 143 and 'stopped by SIGTERM' in err and 'build failed' in err,
           'ray on OpenCL, SIGTERM in the program build that then fails: exit 143, said so', detail(rc, out, err))
    rc, out, err, _ = stalled_run(['check', 'ray', '--size', '64x64', '--spp', '4', '--backend', 'openmp,opencl',
                                   '--json', '--quiet'], 'build:fail', [signal.SIGTERM])
    d = document(out)
    expect(rc == 143 and d.get('status') == 'interrupted', 'check: a build the signal broke is no failure: '
           'status interrupted, exit 143', detail(rc, out, err))
    rc, out, err, _ = stalled_run(['conformance', '--backend', 'opencl', '--workload', 'ray', '--json'],
                                  'build:fail', [signal.SIGTERM])
    d = document(out)
    expect(rc == 143 and d.get('interrupted') is True and d.get('failed') == 0,
           'conformance: a build the signal broke is no failed case, exit 143', detail(rc, out, err))
    rc, out, err, _ = stalled_run(['bench', 'ray', '--size', '64x64', '--spp', '4', '--backend', 'opencl',
                                   '--json'], 'build:fail', [signal.SIGTERM])
    d = document(out)
    expect(rc == 143 and d.get('interrupted') is True and d.get('repeat') == 0 and 'stopped by SIGTERM' in err,
           'bench: a build the signal broke in the warm-up: the report, exit 143', detail(rc, out, err))
    # bench, stopped in its warm-up (the build is in the first run).
    rc, out, err, _ = stalled_run(['bench', 'ray', '--size', '64x64', '--spp', '4', '--backend', 'opencl',
                                   '--json'], 'build:resume', [signal.SIGINT])
    d = document(out)
    expect(rc == 130 and d.get('interrupted') is True and d.get('repeat') == 0 and d.get('times_s') == [],
           'bench --json on OpenCL stopped in the warm-up: the report, no timed run, exit 130', detail(rc, out, err))

    # ---- a build that never returns: the second signal, the GIF as it was -----------
    with tempfile.TemporaryDirectory() as tmp:
        gif = os.path.join(tmp, 'run.gif')
        with open(gif, 'wb') as f:
            f.write(b'the old animation')
        rc, out, err, alive = stalled_run(['life', '--dims', '2', '--size', '64', '--steps', '100', '--every', '1',
                                           '--out', gif, '--backend', 'opencl', '--quiet'], 'build:hang',
                                          [signal.SIGINT, signal.SIGINT], timeout=60)
        expect(alive and rc == 130, 'Life on OpenCL stuck in its build: the second SIGINT ends it, exit 130',
               'still running before the second: %s; %s' % (alive, detail(rc, out, err)))
        expect(open(gif, 'rb').read() == b'the old animation' and os.listdir(tmp) == ['run.gif'],
               'the GIF it was writing is left as it was, its temporary file removed', str(os.listdir(tmp)))

# ---- a killed write's temporary file goes with the next write beside it ----------
with tempfile.TemporaryDirectory() as tmp:
    left = os.path.join(tmp, '.card.ppm.tmp-AbC12z')
    live = os.path.join(tmp, '.other.ppm.tmp-Live00')
    with open(left, 'wb') as f:
        f.write(b'\0' * 4096)
    holder = open(live, 'wb')
    fcntl.flock(holder, fcntl.LOCK_EX)
    r = subprocess.run([LS, 'ray', '--size', '16x16', '--spp', '1', '--backend', 'openmp', '--quiet', '--out',
                        os.path.join(tmp, 'new.ppm')], capture_output=True, text=True)
    expect(r.returncode == 0 and not os.path.exists(left) and os.path.exists(live),
           'a run writing new.ppm removes card.ppm\'s leftover beside it, not a live writer\'s', str(os.listdir(tmp)))
    with open(left, 'wb') as f:
        f.write(b'\0' * 4096)
    r = subprocess.run([LS, 'life', '--dims', '2', '--size', '16', '--steps', '2', '--every', '1', '--backend',
                        'openmp', '--quiet', '--frames', os.path.join(tmp, 'fr')], capture_output=True, text=True)
    expect(r.returncode == 0 and not os.path.exists(left) and os.path.exists(live),
           '--frames DIR removes a leftover beside DIR too, not a live writer\'s', str(os.listdir(tmp)))
    holder.close()

finish()
