#!/usr/bin/env python3
"""interrupted.py LOCKSTEP - a run that a signal stops before it finishes
says so: exit 128 + the signal (130 SIGINT, 143 SIGTERM, 129 SIGHUP), a
report of what was done, and every output file left as it was. Covers
life (options and the PKU form), graveler, ray, bench and check, and that a tiny Life grid on OpenCL stops within a second
(its first chunk is short on every device)."""
import json
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time

from harness import expect, finish

LS = sys.argv[1]
devices = json.loads(subprocess.run([LS, 'devices', '--json'], capture_output=True, text=True).stdout)
AVAILABLE = {b['backend'] for b in devices['backends'] if b['available']}


def interrupt(args, after, sig=signal.SIGINT):
    """Starts lockstep ARGS, sends sig after `after` seconds; returns
    (exit code, stdout, stderr, seconds from the signal to the exit), or
    None when the command ended before the signal."""
    p = subprocess.Popen([LS, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(after)
    if p.poll() is not None:
        p.communicate()
        return None
    p.send_signal(sig)
    t0 = time.monotonic()
    out, err = p.communicate(timeout=300)
    return p.returncode, out, err, time.monotonic() - t0


def load_factor():
    """How much longer than on an idle machine a step may take here: the
    runnable threads over the cores (the load average), at least 1."""
    return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))


def stopped(r, sig, what):
    """The common expectations; returns the JSON document or None."""
    if r is None:
        expect(False, what, 'the command finished before the signal')
        return None
    rc, out, err, _ = r
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    expect(rc == 128 + sig, what + ': exit %d' % (128 + sig), 'exit %d, stderr %r' % (rc, err[-300:]))
    return doc


with tempfile.TemporaryDirectory() as tmp:
    # The PKU form: OUT exists beforehand and must stay as it was, for each signal.
    m = 256
    src = os.path.join(tmp, 'in.data')
    with open(src, 'wb') as f:
        f.write(struct.pack('<QQ', m, 0) + bytes((i * 7919 >> 3) % 5 == 0 for i in range(m ** 3)))
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        dst = os.path.join(tmp, 'out.data')
        with open(dst, 'wb') as f:
            f.write(b'the old output')
        r = interrupt(['life', src, dst, '1000000', '--backend', 'openmp', '--quiet'], 1.5, sig)
        stopped(r, sig, 'life IN OUT N stopped by %s' % signal.Signals(sig).name)
        expect(open(dst, 'rb').read() == b'the old output', 'life IN OUT N: OUT left as it was after %s'
               % signal.Signals(sig).name)
        expect(r is not None and 'interrupted' in r[1], 'life IN OUT N: the report says interrupted',
               r and r[1][-300:])
    left = sorted(f for f in os.listdir(tmp) if f not in ('in.data', 'out.data'))
    expect(left == [], 'no temporary file left behind', left)

    # Options form with --out and --json.
    out = os.path.join(tmp, 'grid.lsgrid')
    r = interrupt(['life', '--dims', '3', '--size', '128', '--steps', '100000000', '--out', out, '--json',
                   '--backend', 'openmp', '--quiet'], 1.5)
    doc = stopped(r, signal.SIGINT, 'life --out')
    expect(doc is not None and doc.get('interrupted') is True and 0 < doc.get('generations', 0) < 100000000,
           'life --json: interrupted, with the generations done', r and r[1][-300:])
    expect(not os.path.exists(out), 'life --out: no file written by an interrupted run')

    # Graveler: the partial result is reported, exit 130.
    r = interrupt(['graveler', '--battles', '1e14', '--backend', 'openmp', '--json', '--quiet'], 1.5)
    doc = stopped(r, signal.SIGINT, 'graveler')
    expect(doc is not None and doc.get('interrupted') is True and 0 < doc.get('battles', 0) < 1e14,
           'graveler --json: interrupted, with the battles done', r and r[1][-300:])

    # Ray: the old image stays.
    img = os.path.join(tmp, 'card.ppm')
    with open(img, 'wb') as f:
        f.write(b'old image')
    r = interrupt(['ray', '--size', '4096x4096', '--spp', '256', '--out', img, '--backend', 'openmp', '--quiet'],
                  1.5)
    stopped(r, signal.SIGINT, 'ray --out')
    expect(open(img, 'rb').read() == b'old image', 'ray: the image file left as it was')

    # bench: the runs timed before the signal are reported.
    # 3e8 battles took 4.5-5.2 s a run under the sanitizers on CI's 2-core
    # machine at a load of 4-7, and none had finished at 3 s: a third as
    # many, and the wait grown with the load.
    r = interrupt(['bench', 'graveler', '--battles', '1e8', '--backend', 'openmp', '--repeat', '1000', '--warmup',
                   '0', '--json'], 3.0 * load_factor())
    doc = stopped(r, signal.SIGINT, 'bench')
    expect(doc is not None and doc.get('interrupted') is True and doc.get('repeat', 0) >= 1,
           'bench: reports the runs timed before the signal', r and (r[1][-300:] + r[2][-300:]))

    # check: stops between devices or inside a run; the report says so.
    r = interrupt(['check', 'graveler', '--battles', '1e13', '--backends', 'openmp',
                   '--json', '--quiet'], 1.5)
    doc = stopped(r, signal.SIGINT, 'check')
    expect(doc is not None and doc.get('status') == 'interrupted', 'check --json: status interrupted',
           r and r[1][-300:])

    if 'opencl' in AVAILABLE:
        # A 4x4 grid on OpenCL: every generation a launch; Ctrl-C is
        # answered within a second, not after the first 2^24 generations.
        r = interrupt(['life', '--dims', '2', '--size', '4', '--steps', '1e12', '--backend', 'opencl', '--json',
                       '--quiet'], 2.0)
        stopped(r, signal.SIGINT, 'life 4x4 on OpenCL')
        # 1.5 s on an idle machine, longer in proportion on one with more
        # runnable threads than cores (CI's 2-core machine, shared with
        # builds, took 2.8 s at a load of 4-5): the fault this catches,
        # Ctrl-C answered after the first 2^24 launches, takes minutes.
        bound = 1.5 * load_factor()
        expect(r is not None and r[3] < bound, 'life 4x4 on OpenCL stops within %.1f s of Ctrl-C' % bound,
               r and '%.1f s' % r[3])

finish()
