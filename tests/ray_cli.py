#!/usr/bin/env python3
"""`lockstep ray` from the outside, on every available backend:

- every refusal exits by the README's table: bad input (a size, count,
  mode, seed, option, backend, or an output path or format) is one line on
  stderr and exit 2, with nothing on stdout and no file left behind, and an
  output is checked before anything is rendered (a render of days is
  refused at once); a backend that cannot run here, or an I/O error at the
  final write, is exit 1 with no file left;
- an error that lists image formats lists only those a colour image can
  be written as (not .pgm);
- --size N is N x N;
- --out - writes the PPM, and only it, to stdout, the report to stderr;
- --out writes a whole PNG or PPM (and nothing else) in its directory;
- the JSON result carries the golden image digest of the reference;
- fast mode stays within its PSNR bound of exact mode on each backend
  (docs/ray.md: min(40, 30 + 10 log10(spp)) dB at any size), at extreme
  aspect ratios too, where the horizon fills the image, as `check ray
  --mode fast` measures it (the PSNR and the bound have one home, ray_cpu.c,
  which test_ray pins to hand-computed figures);
- `check ray` with one wrong pixel on one backend (LOCKSTEP_DEBUG_FAULT)
  exits 1 and says how many pixels differ and by how much;
- `check ray --mode fast` across kinds of device (OpenMP, PoCL) agrees
  within the bound, and says so, exit 0; an image moved beyond the bound
  (LOCKSTEP_DEBUG_FAULT=opencl:image_far) or a wrong count is a
  disagreement, exit 1; two devices of one kind (PoCL twice) must still
  give the same bytes: one level of one pixel off is a disagreement.

usage: ray_cli.py LOCKSTEP
"""
import json
import os
import pty
import re
import resource
import signal
import subprocess
import sys
import tempfile

from harness import expect, finish

LOCKSTEP = sys.argv[1]


def run(args, env=None, timeout=600, **kw):
    e = dict(os.environ)
    e.pop('LOCKSTEP_DEBUG_FAULT', None)
    e.update(env or {})
    return subprocess.run([LOCKSTEP] + args, capture_output=True, text=True, env=e, timeout=timeout, **kw)


def run_binary(args, **kw):
    """run() with stdout as bytes (an image)."""
    return subprocess.run([LOCKSTEP] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600, **kw)


def fast_check(spec, size, spp, env=None):
    """`check ray --mode fast` on spec: the run and its JSON ({} when it is
    none)."""
    r = run(['check', 'ray', '--mode', 'fast', '--size', size, '--spp', str(spp), '--backends', spec, '--quiet',
             '--json'], env)
    try:
        return r, json.loads(r.stdout)
    except ValueError:
        return r, {}


def figures(doc):
    """Each run's PSNR from exact mode's image, as the check reports it."""
    return ', '.join('%s %s' % (x.get('device'), x.get('not_comparable') or (
        'identical' if x.get('psnr_db', 0) is None else '%.1f dB' % x.get('psnr_db', 0))) for x in doc.get('runs', []))


# Sizes and sample counts for the fast mode bound: the one-row and two-row
# strips are all horizon (the worst case), the tall ones all sky, and the
# square the default view.
FAST_CASES = [('8192x1', 1), ('8192x1', 2), ('8192x1', 4), ('8192x1', 16), ('4096x2', 1), ('1x8192', 1),
              ('7x3', 4), ('1x1', 1), ('256x256', 16)]

# Days of work on any device here: a refusal of it that is quick was made
# before rendering.
HUGE = ['--size', '8192x8192', '--spp', '4096']


def small_files(limit):
    """For preexec_fn: files may grow to `limit` bytes (a write past it
    fails with EFBIG instead of killing the process with SIGXFSZ)."""
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def one_line_refusal(r, code):
    lines = r.stderr.strip().split('\n')
    return r.returncode == code and len(lines) == 1 and lines[0].startswith('lockstep: ') and not r.stdout


devices = json.loads(run(['devices', '--json']).stdout)
backends = [b['backend'] for b in devices['backends'] if b['available']]
unavailable = [b['backend'] for b in devices['backends'] if not b['available']]

with tempfile.TemporaryDirectory() as tmp:
    a_file = os.path.join(tmp, 'a_file')
    with open(a_file, 'w') as f:
        f.write('not a directory\n')
    before = sorted(os.listdir(tmp))
    bad_out = [os.path.join(tmp, 'missing', 'card.png'), os.path.join(tmp, 'card.jpg'),
               os.path.join(tmp, 'card.pgm'), tmp, tmp + '/', os.path.join(a_file, 'card.png'), '']
    bad = [['--size', '0x5'], ['--size', '8193x1'], ['--size', '8193'], ['--size', '0'], ['--size', 'axb'],
           ['--size', '4x4x4'], ['--size', '8x'], ['--size', 'x8'], ['--size', '-8'], ['--size', '99999999999999999999'],
           ['--spp', '0'], ['--spp', '4097'], ['--spp', 'many'], ['--mode', 'turbo'], ['--seed', '-1'],
           ['--seed', 'x'], ['--bogus'], ['extra'], ['--backend', 'nosuch'], ['--backend', 'openmp:7']] + \
        [['--out', o] for o in bad_out]
    for args in bad:
        r = run(['ray', '--size', '8x8', '--spp', '1', '--quiet'] + args)
        expect(one_line_refusal(r, 2) and sorted(os.listdir(tmp)) == before,
               'ray %s: one line, exit 2, no file' % ' '.join(args),
               'exit %d, stdout %r, stderr %r, files %s' % (r.returncode, r.stdout, r.stderr, os.listdir(tmp)))

    # Every output is checked before the render: refused at once.
    for out in bad_out:
        try:
            r = run(['ray', '--quiet', '--out', out] + HUGE, timeout=60)
            expect(one_line_refusal(r, 2), 'ray %s --out %s: refused before rendering, exit 2' % (' '.join(HUGE), out),
                   'exit %d, stderr %r' % (r.returncode, r.stderr))
        except subprocess.TimeoutExpired:
            expect(False, 'ray %s --out %s: refused before rendering' % (' '.join(HUGE), out), 'still running after 60 s')

    # A colour image is never offered .pgm.
    r = run(['ray', '--size', '8x8', '--out', os.path.join(tmp, 'card.jpg')])
    expect('.png or .ppm' in r.stderr and '.pgm' not in r.stderr, 'an unknown extension lists .png or .ppm only',
           r.stderr)
    pgm = os.path.join(tmp, 'card.pgm')
    r = run(['ray', '--size', '8x8', '--out', pgm])
    said = r.stderr.replace(pgm, 'OUT')
    expect('gray' in said and '.png or .ppm' in said and '.pgm' not in said,
           '.pgm is refused for a colour image, naming the formats that are accepted', r.stderr)

    # A backend that cannot run here is a failed run, not bad input.
    for b in unavailable:
        r = run(['ray', '--size', '8x8', '--spp', '1', '--quiet', '--backend', b])
        expect(one_line_refusal(r, 1), '--backend %s (not available here): one line, exit 1' % b,
               'exit %d, stdout %r, stderr %r' % (r.returncode, r.stdout, r.stderr))

    # An I/O error at the final write: exit 1, no file, no report.
    for name in ['big.ppm', 'big.png']:
        out = os.path.join(tmp, name)
        r = run(['ray', '--size', '64x64', '--spp', '1', '--quiet', '--backend', 'openmp', '--out', out],
                preexec_fn=small_files(4096))
        expect(one_line_refusal(r, 1) and 'too large' in r.stderr and sorted(os.listdir(tmp)) == before,
               'a write that fails at the end (file size limit, %s): one line, exit 1, no file' % name,
               'exit %d, stdout %r, stderr %r, files %s' % (r.returncode, r.stdout, r.stderr, os.listdir(tmp)))
    if os.path.exists('/dev/full'):
        with open('/dev/full', 'wb') as full:
            r = subprocess.run([LOCKSTEP, 'ray', '--size', '8x8', '--spp', '1', '--quiet', '--out', '-'],
                               stdout=full, stderr=subprocess.PIPE, text=True, timeout=600)
        expect(r.returncode == 1 and 'standard output' in r.stderr, '--out - onto a full device: exit 1',
               'exit %d, stderr %r' % (r.returncode, r.stderr))

    # --size N is N x N.
    r = run(['ray', '--size', '24', '--spp', '2', '--json', '--quiet'])
    square = run(['ray', '--size', '24x24', '--spp', '2', '--json', '--quiet'])
    doc = json.loads(r.stdout) if r.returncode == 0 else {}
    expect(doc.get('width') == 24 and doc.get('height') == 24 and
           doc.get('image') == json.loads(square.stdout).get('image'), '--size 24 renders 24x24', r.stdout + r.stderr)

    # --out -: the PPM on stdout, byte for byte the file --out writes, and
    # the report (here JSON) on stderr.
    ppm = os.path.join(tmp, 'card.ppm')
    r = run(['ray', '--size', '33x7', '--spp', '3', '--quiet', '--out', ppm])
    with open(ppm, 'rb') as f:
        file_bytes = f.read()
    os.unlink(ppm)
    r = run_binary(['ray', '--size', '33x7', '--spp', '3', '--quiet', '--json', '--out', '-'])
    doc = {}
    try:
        doc = json.loads(r.stderr)
    except ValueError:
        pass
    expect(r.returncode == 0 and r.stdout == file_bytes and doc.get('width') == 33,
           '--out -: the PPM alone on stdout, the JSON report on stderr',
           'exit %d, %d bytes on stdout (file: %d), stderr %r' % (r.returncode, len(r.stdout), len(file_bytes),
                                                                  r.stderr[:300]))
    # ... but not onto a terminal, and that is known before rendering.
    master, slave = pty.openpty()
    try:
        r = subprocess.run([LOCKSTEP, 'ray', '--quiet', '--out', '-'] + HUGE, stdout=slave, stderr=subprocess.PIPE,
                           text=True, timeout=60)
        expect(r.returncode == 2 and 'terminal' in r.stderr, '--out - onto a terminal: refused before rendering, exit 2',
               'exit %d, stderr %r' % (r.returncode, r.stderr))
    except subprocess.TimeoutExpired:
        expect(False, '--out - onto a terminal: refused before rendering', 'still running after 60 s')
    os.close(master)
    os.close(slave)

    for b in backends:
        png = os.path.join(tmp, 'card.png')
        r = run(['ray', '--size', '16x16', '--spp', '4', '--backend', b, '--json', '--quiet', '--out', png])
        doc = json.loads(r.stdout) if r.returncode == 0 else {}
        expect(doc.get('image') == '70fc0297a4eeb9c1' and doc.get('pixels') == 256,
               '%s: 16x16x4 gives the reference image' % b, r.stdout + r.stderr)
        with open(png, 'rb') as f:
            expect(f.read(8) == b'\x89PNG\r\n\x1a\n', '%s: --out writes a PNG' % b)
        expect(sorted(os.listdir(tmp)) == sorted(before + ['card.png']), '%s: nothing else left in the directory' % b,
               str(os.listdir(tmp)))
        os.unlink(png)

        # Fast mode against exact mode, both on b: `check` renders the
        # exact image on the first device and measures every fast one.
        for size, spp in FAST_CASES:
            r, doc = fast_check(b, size, spp)
            runs = doc.get('runs', [])
            expect(r.returncode in (0, 77) and runs and all(x.get('within_bound') for x in runs) and
                   (doc.get('exact_reference') or {}).get('device', '').startswith(b + ':'),
                   '%s: fast mode at %s, %d spp: %s PSNR from exact (at least %s)'
                   % (b, size, spp, figures(doc), doc.get('bound_psnr_db')), r.stdout + r.stderr)

if 'openmp' in backends and 'opencl' in backends:
    r = run(['check', 'ray', '--size', '64x48', '--spp', '4', '--backends', 'openmp,opencl', '--quiet'],
            {'LOCKSTEP_DEBUG_FAULT': 'opencl:image'})
    expect(r.returncode == 1 and 'field image' in r.stdout and '1 of 3072 pixels differ, by at most 1' in r.stdout
           and 'first at row 24, column 32' in r.stdout,
            'check ray names the wrong pixel, how many and by how much', r.stdout + r.stderr)
    r = run(['check', 'ray', '--size', '64x48', '--spp', '4', '--backends', 'openmp,opencl', '--quiet'])
    expect(r.returncode == 0 and ' devices agree' in r.stdout, 'check ray agrees without a fault', r.stdout)

    # Fast mode across kinds of device: the designed difference agrees,
    # within the bound (36.02 dB at 4 spp) of exact mode's image on openmp.
    FAST = ['check', 'ray', '--mode', 'fast', '--size', '64x48', '--spp', '4', '--backends', 'openmp,opencl:0',
            '--quiet']
    r = run(FAST)
    expect(r.returncode == 0 and 'DISAGREEMENT' not in r.stdout and 'rendered on openmp:0' in r.stdout and
           re.search(r"^2 devices agree within fast mode's bound \(PSNR [0-9.]+ dB >= 36.02 dB\)$", r.stdout, re.M),
           'check ray --mode fast, openmp and PoCL: agree within fast mode\'s bound, exit 0',
           'exit %d\n%s%s' % (r.returncode, r.stdout, r.stderr))
    r, doc = fast_check('openmp,opencl:0', '64x48', 4)
    runs = {x.get('device'): x for x in doc.get('runs', [])}
    expect(r.returncode == 0 and doc.get('agree') is True and doc.get('identical') is False and
           doc.get('status') == 'agree' and abs(doc.get('bound_psnr_db', 0) - 36.0206) < 1e-3 and
           doc.get('lowest_psnr_db', 0) >= doc.get('bound_psnr_db') and
           (doc.get('exact_reference') or {}).get('device') == 'openmp:0' and sorted(runs) == ['opencl:0', 'openmp:0']
           and all(x.get('within_bound') is True and x.get('psnr_db', 0) >= 36.0206 for x in runs.values()) and
           runs['opencl:0'].get('matches_reference') is False,
           'check ray --mode fast --json: agree, not identical, each run\'s psnr_db within bound_psnr_db',
           r.stdout + r.stderr)

    # A planted fault beyond the bound (every channel moved by 32 levels,
    # 18 dB) is a disagreement: exit 1, in the report and the JSON.
    far = {'LOCKSTEP_DEBUG_FAULT': 'opencl:image_far'}
    r = run(FAST, far)
    expect(r.returncode == 1 and 'opencl:0: PSNR 18.0 dB, BEYOND THE BOUND' in r.stdout and
           'DISAGREEMENT: the backends computed different results' in r.stdout and
           '3072 of 3072 pixels differ' in r.stdout and ' devices agree' not in r.stdout,
           'check ray --mode fast with an image beyond the bound on opencl: DISAGREEMENT, exit 1',
           'exit %d\n%s%s' % (r.returncode, r.stdout, r.stderr))
    r, doc = fast_check('openmp,opencl:0', '64x48', 4, far)
    runs = {x.get('device'): x for x in doc.get('runs', [])}
    expect(r.returncode == 1 and doc.get('agree') is False and doc.get('status') == 'failed' and
           runs.get('opencl:0', {}).get('within_bound') is False and runs['opencl:0'].get('psnr_db', 99) < 36 and
           runs.get('openmp:0', {}).get('within_bound') is True and doc.get('lowest_psnr_db', 99) < 36,
           'check ray --mode fast --json with an image beyond the bound: agree false, the figure below the bound',
           r.stdout + r.stderr)
    # One level of one pixel on another kind of device is within the
    # bound, as fast mode's own differences are; a wrong count never is.
    r = run(FAST, {'LOCKSTEP_DEBUG_FAULT': 'opencl:image'})
    expect(r.returncode == 0 and "agree within fast mode's bound" in r.stdout,
           'check ray --mode fast: one level off on another kind of device is within the bound',
           r.stdout + r.stderr)
    r = run(FAST, {'LOCKSTEP_DEBUG_FAULT': 'opencl:pixels'})
    expect(r.returncode == 1 and 'opencl:0: field pixels differs from the exact run' in r.stdout and
           'DISAGREEMENT' in r.stdout, 'check ray --mode fast with a wrong pixel count: DISAGREEMENT, exit 1',
           r.stdout + r.stderr)

    # Two devices of one kind (PoCL twice) must give the same bytes in fast
    # mode too: one level of one pixel off on the second is a disagreement.
    twice = {'POCL_DEVICES': 'pthread pthread'}
    listed = json.loads(run(['devices', '--json'], twice).stdout)
    names = {d['device']: d['device_name'] for b in listed['backends'] for d in b['devices']}
    if names.get('opencl:0') and names.get('opencl:0') == names.get('opencl:1'):
        SAME = FAST[:-2] + ['openmp,opencl:0,opencl:1', '--quiet']
        r = run(SAME, twice)
        expect(r.returncode == 0 and "3 devices agree within fast mode's bound" in r.stdout and
               'opencl:1: PSNR' in r.stdout and 'the same bytes as opencl:0 (the same kind of device)' in r.stdout,
               'check ray --mode fast on PoCL twice: the same bytes, within the bound', r.stdout + r.stderr)
        r = run(SAME, dict(twice, LOCKSTEP_DEBUG_FAULT='opencl:1:image'))
        expect(r.returncode == 1 and 'opencl:1 differs from opencl:0, a device of the same kind' in r.stdout and
               '1 of 3072 pixels differ, by at most 1' in r.stdout and 'DISAGREEMENT' in r.stdout,
               'check ray --mode fast: one level off between two devices of one kind is a disagreement, exit 1',
               'exit %d\n%s%s' % (r.returncode, r.stdout, r.stderr))
    else:
        print('skipped: POCL_DEVICES did not give two PoCL devices: %s' % names)
else:
    print('skipped: check ray needs openmp and opencl, have %s' % backends)

finish()
