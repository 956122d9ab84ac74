#!/usr/bin/env python3
"""`lockstep ray` from the outside, on every available backend:

- bad sizes, sample counts, modes and output paths: one line on stderr,
  exit 2, nothing on stdout and no file left behind;
- --out writes a whole PNG or PPM (and nothing else) in its directory;
- the JSON result carries the golden image digest of the reference;
- fast mode stays within its PSNR bound of exact mode on each backend
  (docs/ray.md: min(40, 30 + 10 log10(spp)) dB at any size), at extreme
  aspect ratios too, where the horizon fills the image;
- `check ray` with one wrong pixel on one backend (LOCKSTEP_DEBUG_FAULT)
  exits 1 and says how many pixels differ and by how much.

usage: ray_cli.py LOCKSTEP
"""
import json
import math
import os
import subprocess
import sys
import tempfile

LOCKSTEP = sys.argv[1]
failed = 0


def run(args, env=None):
    e = dict(os.environ)
    e.pop('LOCKSTEP_DEBUG_FAULT', None)
    e.update(env or {})
    return subprocess.run([LOCKSTEP] + args, capture_output=True, text=True, env=e, timeout=600)


def check(ok, what, detail=''):
    global failed
    print('%s %s%s' % ('ok  ' if ok else 'FAIL', what, '' if ok else '\n' + detail))
    failed += not ok


def read_ppm(path):
    with open(path, 'rb') as f:
        data = f.read()
    parts = data.split(b'\n', 3)
    assert parts[0] == b'P6' and parts[2] == b'255', path
    w, h = map(int, parts[1].split())
    pixels = parts[3]
    assert len(pixels) == w * h * 3, path
    return pixels


def psnr(a, b):
    se = sum((x - y) * (x - y) for x, y in zip(a, b))
    return float('inf') if se == 0 else 10 * math.log10(255 * 255 * len(a) / se)


def fast_bound(spp):
    """The PSNR (dB) fast mode keeps from exact mode at spp samples per
    pixel, at any size (docs/ray.md, "How close fast mode is")."""
    return min(40.0, 30.0 + 10.0 * math.log10(spp))


# Sizes and sample counts for the fast mode bound: the one-row and two-row
# strips are all horizon (the worst case), the tall ones all sky, and the
# square the default view.
FAST_CASES = [('8192x1', 1), ('8192x1', 2), ('8192x1', 4), ('8192x1', 16), ('4096x2', 1), ('1x8192', 1),
              ('7x3', 4), ('1x1', 1), ('256x256', 16)]


devices = json.loads(run(['devices', '--json']).stdout)
backends = [b['backend'] for b in devices['backends'] if b['available']]

with tempfile.TemporaryDirectory() as tmp:
    bad = [['--size', '0x5'], ['--size', '8193x1'], ['--size', '512'], ['--size', 'axb'], ['--size', '4x4x4'],
           ['--spp', '0'], ['--spp', '4097'], ['--spp', 'many'], ['--mode', 'turbo'],
           ['--out', os.path.join(tmp, 'missing', 'card.png')], ['--out', os.path.join(tmp, 'card.jpg')],
           ['--out', os.path.join(tmp, 'card.pgm')], ['--out', tmp]]
    for args in bad:
        r = run(['ray', '--size', '8x8', '--spp', '1', '--quiet'] + args)
        lines = r.stderr.strip().split('\n')
        check(r.returncode == 2 and len(lines) == 1 and lines[0].startswith('lockstep: ') and not r.stdout
              and os.listdir(tmp) == [],
              'ray %s: one line, exit 2, no file' % ' '.join(args),
              'exit %d, stdout %r, stderr %r, files %s' % (r.returncode, r.stdout, r.stderr, os.listdir(tmp)))

    for b in backends:
        png, ppm = os.path.join(tmp, 'card.png'), os.path.join(tmp, 'card.ppm')
        r = run(['ray', '--size', '16x16', '--spp', '4', '--backend', b, '--json', '--quiet', '--out', png])
        doc = json.loads(r.stdout) if r.returncode == 0 else {}
        check(doc.get('image') == '70fc0297a4eeb9c1' and doc.get('pixels') == 256,
              '%s: 16x16x4 gives the reference image' % b, r.stdout + r.stderr)
        with open(png, 'rb') as f:
            check(f.read(8) == b'\x89PNG\r\n\x1a\n', '%s: --out writes a PNG' % b)
        check(os.listdir(tmp) == ['card.png'], '%s: nothing else left in the directory' % b, str(os.listdir(tmp)))
        os.unlink(png)

        for size, spp in FAST_CASES:
            images = {}
            for mode in ['exact', 'fast']:
                r = run(['ray', '--size', size, '--spp', str(spp), '--mode', mode, '--backend', b, '--quiet',
                         '--out', ppm])
                check(r.returncode == 0, '%s: %s mode runs at %s, %d spp' % (b, mode, size, spp), r.stderr)
                images[mode] = read_ppm(ppm) if r.returncode == 0 else b''
                if r.returncode == 0:
                    os.unlink(ppm)
            db = psnr(images['exact'], images['fast'])
            check(db >= fast_bound(spp), '%s: fast mode at %s, %d spp: %.1f dB PSNR from exact (at least %.1f)'
                  % (b, size, spp, db, fast_bound(spp)))

if 'openmp' in backends and 'opencl' in backends:
    r = run(['check', 'ray', '--size', '64x48', '--spp', '4', '--backends', 'openmp,opencl', '--quiet'],
            {'LOCKSTEP_DEBUG_FAULT': 'opencl:image'})
    check(r.returncode == 1 and 'field image' in r.stdout and '1 of 3072 pixels differ, by at most 1' in r.stdout
          and 'first at row 24, column 32' in r.stdout,
          'check ray names the wrong pixel, how many and by how much', r.stdout + r.stderr)
    r = run(['check', 'ray', '--size', '64x48', '--spp', '4', '--backends', 'openmp,opencl', '--quiet'])
    check(r.returncode == 0 and '2 devices agree' in r.stdout, 'check ray agrees without a fault', r.stdout)
else:
    print('skipped: check ray needs openmp and opencl, have %s' % backends)

print('%d failed' % failed)
sys.exit(1 if failed else 0)
