#!/usr/bin/env python3
"""output_full_disk.py LOCKSTEP - a write that fails says which file and
why: every output of life (RLE, plaintext, native, PNG, PKU, the GIF, the
PNG frames) and of ray (PNG, PPM), written onto a 64 KiB tmpfs that cannot
hold it, fails with exit 1 and one line naming the file and saying "No
space left on device" (not giflib's or libpng's "Write Error"), and leaves
nothing on the file system.

The tmpfs is mounted here (root); where mounting is not permitted the test
is skipped (exit 77).

usage: output_full_disk.py LOCKSTEP
"""
import os
import subprocess
import sys
import tempfile

from harness import expect, finish

LS = os.path.abspath(sys.argv[1])
GRID = ['life', '--dims', '2', '--size', '1024', '--density', '0.5', '--backend', 'openmp']

with tempfile.TemporaryDirectory() as d:
    full = os.path.join(d, 'small')
    os.mkdir(full)
    if subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', full], capture_output=True).returncode:
        print('cannot mount a tmpfs here (not root?): skipped')
        sys.exit(77)
    try:
        has_gif = 'without giflib' not in subprocess.run(
            [LS, *GRID, '--steps', '1', '--every', '1', '--out', os.path.join(d, 'probe.gif'), '--quiet'],
            capture_output=True, text=True).stderr
        cases = [(GRID + ['--steps', '1', '--out'], 'grid.' + ext) for ext in ('rle', 'cells', 'lsgrid', 'png')]
        cases.append((['life', '--dims', '3', '--size', '64', '--steps', '1', '--backend', 'openmp', '--out'],
                      'grid.data'))
        if has_gif:
            cases.append((GRID + ['--steps', '2', '--every', '1', '--out'], 'run.gif'))
        cases.append((GRID + ['--steps', '2', '--every', '1', '--frames'], 'frames'))
        cases += [(['ray', '--size', '512', '--spp', '1', '--backend', 'openmp', '--out'], 'card.' + ext)
                  for ext in ('png', 'ppm')]
        for args, name in cases:
            target = os.path.join(full, name)
            r = subprocess.run([LS, *args, target, '--quiet'], capture_output=True, text=True, timeout=120)
            lines = r.stderr.strip().splitlines()
            what = '%s onto a full disk' % name
            expect(r.returncode == 1 and len(lines) == 1, what + ': exit 1, one line',
                   'exit %d %r' % (r.returncode, r.stderr))
            expect(name in r.stderr and 'No space left on device' in r.stderr,
                   what + ': the message names the file and says "No space left on device"', repr(r.stderr))
            expect(os.listdir(full) == [], what + ': nothing left', str(os.listdir(full)))
    finally:
        subprocess.run(['umount', full])

finish()
