#!/usr/bin/env python3
"""life_frames_leftovers.py LOCKSTEP [IO_FAULTS_SHIM] - the temporary
directory of `--frames DIR` (.DIR.frames-XXXXXX next to DIR, src/output.c's
ls_atomic_dir) never outlives the runs that could remove it:

- a run killed with SIGKILL while it writes frames leaves its temporary
  directory (nothing can run then); the next run into the same DIR removes
  it, and so a leftover of a killed run of an older lockstep (frames, no
  lock file) and a lock file whose directory was already renamed into place;
- a run into DIR while another run into the same DIR is writing frames
  leaves the live run's directory alone: that run goes on, and Ctrl-C
  still ends it with exit 130 and its directory removed;
- with the shim (tests/io_faults.c, IO_FAULTS=mkdtemp-sigterm: SIGTERM
  raised as soon as the first temporary directory is made, the worst
  moment a signal can come), the run ends by SIGTERM and no temporary
  directory is left: the stop signals wait until the directory is removed
  again or locked as a live run's.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

from harness import expect, finish

LS = os.path.abspath(sys.argv[1])
SHIM = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None


def frames_run(d, name, steps, env=None):
    """Starts a run writing 256x256 frames of every generation into d/name."""
    return subprocess.Popen([LS, 'life', '--quiet', '--dims', '2', '--size', '256', '--steps', str(steps),
                             '--every', '1', '--frames', os.path.join(d, name), '--backend', 'openmp'],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def temporaries(d, name):
    return sorted(n for n in os.listdir(d) if n.startswith('.%s.frames-' % name))


def writing(d, name, frames=3, timeout=60):
    """Waits until a run writes frames into a temporary directory of name; its name, or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for t in temporaries(d, name):
            path = os.path.join(d, t)
            if os.path.isdir(path) and len([n for n in os.listdir(path) if n.endswith('.png')]) >= frames:
                return t
        time.sleep(0.05)
    return None


with tempfile.TemporaryDirectory() as d:
    # ---- a killed run's directory goes with the next run into DIR ----
    p = frames_run(d, 'fr', 16000000)
    left = writing(d, 'fr')
    p.kill()
    p.communicate()
    expect(left is not None and os.path.isdir(os.path.join(d, left)),
           'a run killed with SIGKILL while writing frames leaves its temporary directory', str(temporaries(d, 'fr')))
    # What a killed run of a lockstep without lock files left: frames, no lock.
    old = os.path.join(d, '.fr.frames-Ab3dE9')
    os.mkdir(old)
    open(os.path.join(old, 'frame-000000.png'), 'wb').write(b'\x89PNG')
    # A lock file of a run killed between putting DIR in place and removing it.
    open(os.path.join(d, '.fr.frames-Zz9yX8.lock'), 'wb').close()
    p = frames_run(d, 'fr', 3)
    _, err = p.communicate(timeout=120)
    expect(p.returncode == 0 and len(os.listdir(os.path.join(d, 'fr'))) == 4, 'the next run into DIR: written', err)
    expect(temporaries(d, 'fr') == [], 'the next run into DIR removed every leftover of the killed runs',
           str(temporaries(d, 'fr')))
    expect(sorted(os.listdir(os.path.join(d, 'fr'))) == ['frame-%06d.png' % i for i in range(4)],
           'DIR holds the frames alone (no lock file)', str(os.listdir(os.path.join(d, 'fr'))))

    # ---- a live run's directory is left alone ----
    live = frames_run(d, 'shared', 16000000)
    live_tmp = writing(d, 'shared')
    other = frames_run(d, 'shared', 2)
    _, err = other.communicate(timeout=120)
    expect(other.returncode == 0 and os.path.isdir(os.path.join(d, 'shared')),
           'a second run into DIR while one writes frames: written', err)
    expect(live_tmp is not None and os.path.isdir(os.path.join(d, live_tmp)) and live.poll() is None,
           "the live run's temporary directory is left alone, and it goes on", str(temporaries(d, 'shared')))
    count = len(os.listdir(os.path.join(d, live_tmp))) if live_tmp and os.path.isdir(os.path.join(d, live_tmp)) else 0
    time.sleep(0.5)
    grown = len(os.listdir(os.path.join(d, live_tmp))) if live_tmp and os.path.isdir(os.path.join(d, live_tmp)) else 0
    expect(grown > count, 'the live run still adds frames to it', '%d then %d' % (count, grown))
    live.send_signal(signal.SIGINT)
    _, err = live.communicate(timeout=120)
    expect(live.returncode == 130 and temporaries(d, 'shared') == [],
           'Ctrl-C ends the live run: exit 130, its temporary directory removed',
           'exit %s %s %s' % (live.returncode, temporaries(d, 'shared'), err[-300:]))

    # ---- a signal right after the temporary directory is made ----
    if SHIM:
        env = dict(os.environ, LD_PRELOAD=SHIM, IO_FAULTS='mkdtemp-sigterm')
        for name, kind in (('new', 'a new'), ('empty', 'an empty')):
            if name == 'empty':
                os.mkdir(os.path.join(d, name))
            p = frames_run(d, name, 3, env)
            _, err = p.communicate(timeout=120)
            expect(p.returncode in (-signal.SIGTERM, 128 + signal.SIGTERM),
                   'SIGTERM right after the temporary directory of %s DIR is made: the run ends by it' % kind,
                   'exit %s %s' % (p.returncode, err[-300:]))
            expect(temporaries(d, name) == [], 'no temporary directory left (%s DIR)' % kind,
                   str(temporaries(d, name)))
    else:
        print('(the signal right after mkdtemp is not checked: no io_faults shim in this build)')
    expect(not [n for n in os.listdir(d) if n.startswith('.')], 'no temporary file or directory left anywhere',
           str([n for n in os.listdir(d) if n.startswith('.')]))

finish()
