#!/usr/bin/env python3
"""The grid digest, version 2 (docs/life.md), from the outside:
  - the digest lockstep reports equals the definition computed over the
    grid it wrote (tests/ref_digest_file.c: the native file's cells, then
    XXH3 per row or plane as docs/life.md says), with the population, for
    2D and 3D, tori and bounded planes, B0, and sizes that are no
    multiple of 8 or 32;
  - the digest does not change when only the cut changes (--slabs 1 to 5,
    and a set of two devices where OpenCL runs), nor with the thread count;
  - one cell more in the start changes it.
usage: life_digest.py LOCKSTEP REF_DIGEST_FILE BACKEND...
"""
import json
import os
import subprocess
import sys
import tempfile

from harness import expect, finish

LS, REF = sys.argv[1], sys.argv[2]
BACKENDS = sys.argv[3:]
ENV = dict(os.environ)
ENV.pop('LOCKSTEP_BACKEND', None)


def life(*args, env=ENV):
    r = subprocess.run([LS, 'life', *args, '--json', '--quiet'], capture_output=True, text=True, env=env, timeout=300)
    try:
        return json.loads(r.stdout), r
    except ValueError:
        return {}, r


CASES = [
    ('2D 301x203 torus', ['--dims', '2', '--size', '301x203', '--steps', '13']),
    ('2D 37x65 B03/S28 (B0)', ['--dims', '2', '--size', '37x65', '--rule', 'B03/S28', '--steps', '7']),
    ('2D 100x37 plane', ['--rule', 'B3/S23:P100,37', '--steps', '21', '--density', '0.4']),
    ('2D 64x64', ['--dims', '2', '--size', '64', '--steps', '5']),
    ('3D 67x45x33 torus', ['--dims', '3', '--size', '67x45x33', '--steps', '6']),
    ('3D 33x20x17 plane', ['--rule', 'B6/S567:P33,20,17', '--steps', '9', '--density', '0.2']),
    ('3D 9x5x70 B0', ['--dims', '3', '--size', '9x5x70', '--rule', 'B0,6/S5,26', '--steps', '5', '--density', '0.3']),
]

with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, 'g.lsgrid')
    for name, args in CASES:
        d, r = life(*args, '--backend', 'openmp', '--out', out)
        ref = subprocess.run([REF, out], capture_output=True, text=True)
        want = ref.stdout.split() if ref.returncode == 0 else ['?', '?']
        expect(d.get('digest_version') == 2 and d.get('grid_digest') == want[0] and
               str(d.get('population')) == want[1],
               '%s: the digest is the definition over the written grid' % name,
               'lockstep %s %s, definition %s; %s %s' % (d.get('grid_digest'), d.get('population'), want,
                                                         r.stderr[-300:], ref.stderr))
        one = d.get('grid_digest')
        for slabs in range(1, 6):
            ds, r = life(*args, '--backend', 'openmp', '--slabs', str(slabs))
            expect(ds.get('grid_digest') == one, '%s: --slabs %d, the same digest' % (name, slabs),
                   '%s against %s %s' % (ds.get('grid_digest'), one, r.stderr[-300:]))
        dt, r = life(*args, '--backend', 'openmp', env=dict(ENV, OMP_NUM_THREADS='1'))
        expect(dt.get('grid_digest') == one, '%s: one thread, the same digest' % name, r.stderr[-300:])
        if 'opencl' in BACKENDS:
            dc, r = life(*args, '--backend', 'openmp,opencl:0')
            expect(dc.get('grid_digest') == one or 'opencl' in r.stderr and r.returncode != 0,
                   '%s: a set of OpenMP and OpenCL, the same digest' % name,
                   '%s against %s: %s' % (dc.get('grid_digest'), one, r.stderr[-300:]))
            # A GPU slab crosses to the host in pieces: a plane at a time,
            # a few, or whole; the answer does not change.
            for piece in ('1', '3000', '1000000000'):
                for spec in (['--backend', 'opencl:0'], ['--backend', 'openmp,opencl:0', '--slabs', '3']):
                    dp, r = life(*args, *spec, env=dict(ENV, LOCKSTEP_DEBUG_SUMMARY_PIECE=piece))
                    expect(dp.get('grid_digest') == one and dp.get('population') == d.get('population') or
                           'opencl' in r.stderr and r.returncode != 0 and 'PIECE' not in r.stderr,
                           '%s: %s, pieces of %s bytes: the same digest and population' % (name, ' '.join(spec), piece),
                           '%s %s against %s: %s' % (dp.get('grid_digest'), dp.get('population'), one,
                                                     r.stderr[-300:]))

    if 'opencl' in BACKENDS:
        bad, r = life('--dims', '2', '--size', '64', '--steps', '1', '--backend', 'opencl:0',
                      env=dict(ENV, LOCKSTEP_DEBUG_SUMMARY_PIECE='12k'))
        expect(r.returncode == 2 and 'LOCKSTEP_DEBUG_SUMMARY_PIECE' in r.stderr and not r.stdout,
               'a piece size that is no number of bytes is refused in one line', r.stderr[-300:])

    # One cell more in the start: another digest.
    a, b = os.path.join(tmp, 'a.cells'), os.path.join(tmp, 'b.cells')
    with open(a, 'w') as f:
        f.write('.O\n..O\nOOO\n')
    with open(b, 'w') as f:
        f.write('.O\n..O\nOOO\nO\n')
    da, _ = life('--dims', '2', '--in', a, '--size', '40x30', '--steps', '0', '--backend', 'openmp')
    db, _ = life('--dims', '2', '--in', b, '--size', '40x30', '--steps', '0', '--backend', 'openmp')
    expect(da.get('grid_digest') and db.get('grid_digest') and da['grid_digest'] != db['grid_digest'],
           'one cell more in the start changes the digest', '%s %s' % (da.get('grid_digest'), db.get('grid_digest')))
finish()
