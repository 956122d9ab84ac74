#!/usr/bin/env python3
"""--sync: output files are synced to disk (file and directory; Life's
--frames: each frame and both directories) only when asked; by default
none is, and the bytes are the same either way.

Counts fsync/fdatasync calls with an LD_PRELOAD shim (tests/fsync_count.c).
usage: output_sync.py LOCKSTEP SHIM"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import expect, finish  # noqa: E402

LS, SHIM = sys.argv[1], sys.argv[2]

RUNS = {
    'life': ['life', '--dims', '2', '--size', '64x32', '--steps', '3', '--backend', 'openmp', '--quiet'],
    # PKU: written through a mapping of the file (ls_atomic_map).
    'life pku': ['life', '--dims', '3', '--size', '40', '--steps', '3', '--backend', 'openmp', '--quiet'],
    'ray': ['ray', '--size', '16x8', '--spp', '1', '--backend', 'openmp', '--quiet'],
}
EXT = {'life': 'x.lsgrid', 'life pku': 'x.data', 'ray': 'x.ppm'}

with tempfile.TemporaryDirectory() as tmp:
    for name, args in RUNS.items():
        outputs = {}
        for sync in (False, True):
            count = os.path.join(tmp, 'count-%s-%d' % (name.replace(' ', '-'), sync))
            out = os.path.join(tmp, '%d-%s' % (sync, EXT[name]))
            env = dict(os.environ, LD_PRELOAD=SHIM, FSYNC_COUNT_FILE=count)
            r = subprocess.run([LS] + args + ['--out', out] + (['--sync'] if sync else []), env=env,
                               capture_output=True, text=True)
            calls = os.path.getsize(count) if os.path.exists(count) else 0
            ok = r.returncode == 0 and os.path.exists(out)
            expect(ok, '%s --out%s: written' % (name, ' --sync' if sync else ''), r.stderr)
            if sync:
                expect(calls >= 2, '%s --sync: the file and its directory synced (%d calls)' % (name, calls))
            else:
                expect(calls == 0, '%s without --sync: nothing synced (%d calls)' % (name, calls))
            outputs[sync] = open(out, 'rb').read() if ok else None
        expect(outputs[False] is not None and outputs[False] == outputs[True],
               '%s: the same bytes with and without --sync' % name)
    # Life's --frames DIR (ls_atomic_dir): 4 frames, their directory and DIR's.
    frames = {}
    for sync in (False, True):
        count = os.path.join(tmp, 'count-frames-%d' % sync)
        out = os.path.join(tmp, '%d-frames' % sync)
        env = dict(os.environ, LD_PRELOAD=SHIM, FSYNC_COUNT_FILE=count)
        r = subprocess.run([LS] + RUNS['life'] + ['--every', '1', '--frames', out] + (['--sync'] if sync else []),
                           env=env, capture_output=True, text=True)
        calls = os.path.getsize(count) if os.path.exists(count) else 0
        ok = r.returncode == 0 and os.path.isdir(out)
        expect(ok, 'life --frames%s: written' % (' --sync' if sync else ''), r.stderr)
        if sync:
            expect(calls >= 6, 'life --frames --sync: the 4 frames and both directories synced (%d calls)' % calls)
        else:
            expect(calls == 0, 'life --frames without --sync: nothing synced (%d calls)' % calls)
        frames[sync] = {n: open(os.path.join(out, n), 'rb').read() for n in sorted(os.listdir(out))} if ok else None
    expect(frames[False] and len(frames[False]) == 4 and frames[False] == frames[True],
           'life --frames: the same 4 frames with and without --sync')
    r = subprocess.run([LS, 'graveler', '--sync'], capture_output=True, text=True)
    expect(r.returncode == 2 and 'sync' in r.stderr, 'graveler writes no file and takes no --sync', r.stderr)
finish()
