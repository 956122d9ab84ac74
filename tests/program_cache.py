#!/usr/bin/env python3
"""The cache of built OpenCL programs (issue 35; src/program_cache.h), on
every OpenCL device here (PoCL with LOCKSTEP_DEBUG_CACHE_POCL=1: it keeps
its own cache, and lockstep's leaves it alone by default):
  - a second run builds nothing: its program comes from the cache
    (--timings --json: "programs"), with the same answer;
  - a damaged file (a byte flipped in the binary or the header, the file
    cut short) is not used: the program is built again, the answer is
    the same and the file replaced; so is a stale one (another lockstep
    version's key) and one whose binary the driver refuses;
  - --no-cache and LOCKSTEP_CACHE=off read and write nothing; any other
    value of LOCKSTEP_CACHE is refused (exit 2);
  - a cache directory that cannot be created only means no caching (a
    note in --timings), never a failure;
  - two runs that build the same program at once both succeed, and leave
    a whole file;
  - the directory is $LOCKSTEP_CACHE_DIR, else $XDG_CACHE_HOME/lockstep,
    else ~/.cache/lockstep;
  - on Intel's OpenCL runtime (where present), Life's and BMN's programs
    come from the cache too;
  - on a CUDA GPU (where present), the CUBIN NVRTC makes for a Life rule is
    loaded by the second run, and compiled again when cut short.
usage: program_cache.py LOCKSTEP
"""
import ctypes
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

from harness import expect, finish

LS = sys.argv[1]
BASE = dict(os.environ, LOCKSTEP_DEBUG_CACHE_POCL='1')
for name in ('LOCKSTEP_CACHE', 'LOCKSTEP_CACHE_DIR', 'LOCKSTEP_DEBUG_CACHE_VERSION', 'LOCKSTEP_BACKEND'):
    BASE.pop(name, None)
RAY = ['ray', '--mode', 'fast', '--size', '16', '--spp', '1']
HEADER = 40  # magic, format, key, length, digest


def run(args, env, cache=None):
    """(process, its JSON document or {}): args with --timings --json."""
    env = dict(env)
    if cache is not None:
        env['LOCKSTEP_CACHE_DIR'] = cache
    p = subprocess.run([LS, *args, '--timings', '--json', '--quiet'], capture_output=True, text=True, env=env,
                       timeout=600)
    try:
        return p, json.loads(p.stdout)
    except ValueError:
        return p, {}


def programs(doc):
    return doc.get('timings', {}).get('programs', {})


def files(cache):
    return sorted(os.listdir(cache)) if os.path.isdir(cache) else []


def snapshot(cache):
    return {f: (open(os.path.join(cache, f), 'rb').read(), os.stat(os.path.join(cache, f)).st_mtime_ns)
            for f in files(cache)}


def xxh3():
    """XXH3_64bits_withSeed from the xxHash library (lockstep's hash), or
    None where it cannot be loaded."""
    try:
        f = ctypes.CDLL('libxxhash.so.0').XXH3_64bits_withSeed
    except OSError:
        return None
    f.restype = ctypes.c_uint64
    f.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint64]
    return lambda data: f(data, len(data), 0)


def devices_of(backend):
    p = subprocess.run([LS, 'devices', '--json'], capture_output=True, text=True, env=BASE)
    for b in json.loads(p.stdout)['backends'] if p.returncode == 0 else []:
        if b['backend'] == backend and b['available']:
            return b['devices']
    return []


def expect_rebuilt(dev, args, env, cache, answer, what, counter):
    """A run that finds its file unusable (`counter` of it: damaged, stale,
    refused): built again, the same answer, the file replaced with one the
    next run (in the same environment) loads."""
    p, doc = run(args, env, cache)
    got = programs(doc)
    expect(p.returncode == 0 and got.get(counter) == 1 and got.get('built') == 1 and got.get('loaded') == 0,
           '%s: %s: counted %s and built again' % (dev, what, counter), '%s %s' % (got, p.stderr[-300:]))
    expect(doc.get('digest') == answer, '%s: %s: the same answer' % (dev, what), str(doc.get('digest')))
    p, doc = run(args, env, cache)
    got = programs(doc)
    expect(got.get('loaded') == 1 and got.get('built') == 0 and got.get(counter) == 0,
           '%s: %s: the file was replaced; the next run loads it' % (dev, what), str(got))


devices, cuda = devices_of('opencl'), devices_of('cuda')[:1]
if not devices:
    print('skipped: no OpenCL device here')
    sys.exit(77)

tmp = tempfile.mkdtemp(prefix='lockstep-cache-')
try:
    for d in devices:
        dev = d['device']
        args = RAY + ['--backend', dev]
        cache = os.path.join(tmp, dev.replace(':', '-'), 'made', 'here')

        # ---- built, then loaded ---------------------------------------------
        p, doc = run(args, BASE, cache)
        first = programs(doc)
        answer = doc.get('digest')
        expect(p.returncode == 0 and first.get('built') == 1 and first.get('loaded') == 0 and
               first.get('cache') == cache and len(files(cache)) == 1,
               '%s: the first run builds its program and stores it in the cache directory (created)' % dev,
               '%s %s %s' % (first, files(cache), p.stderr[-300:]))
        if len(files(cache)) != 1:
            continue
        entry = os.path.join(cache, files(cache)[0])
        p, doc = run(args, BASE, cache)
        again = programs(doc)
        expect(p.returncode == 0 and again.get('built') == 0 and again.get('loaded') == 1,
               '%s: the second run builds nothing: its program comes from the cache' % dev, str(again))
        expect(doc.get('digest') == answer, '%s: the same answer from the cached program' % dev,
               '%s against %s' % (doc.get('digest'), answer))
        good = open(entry, 'rb').read()

        # ---- damaged, stale, refused ------------------------------------------
        def damage(data):
            with open(entry, 'wb') as f:
                f.write(data)

        middle = HEADER + (len(good) - HEADER) // 2
        damage(good[:middle] + bytes([good[middle] ^ 0x10]) + good[middle + 1:])
        expect_rebuilt(dev, args, BASE, cache, answer, 'a byte of the binary flipped', 'damaged')
        damage(good[:3] + bytes([good[3] ^ 1]) + good[4:])
        expect_rebuilt(dev, args, BASE, cache, answer, 'a byte of the magic flipped', 'damaged')
        damage(good[:len(good) - 100])
        expect_rebuilt(dev, args, BASE, cache, answer, 'the file cut short', 'damaged')
        damage(good[:HEADER - 4])
        expect_rebuilt(dev, args, BASE, cache, answer, 'the file cut inside its header', 'damaged')
        expect_rebuilt(dev, args, dict(BASE, LOCKSTEP_DEBUG_CACHE_VERSION='99.0-fake'), cache, answer,
                       'a file of another lockstep version (stale)', 'stale')
        expect_rebuilt(dev, args, BASE, cache, answer, 'back to this version: the other\'s file (stale)', 'stale')
        digest = xxh3()
        if digest:
            junk = b'not a program binary of any driver ' * 64
            damage(good[:24] + struct.pack('<QQ', len(junk), digest(junk)) + junk)
            expect_rebuilt(dev, args, BASE, cache, answer, 'a whole file whose binary the driver refuses', 'refused')

        # ---- bypassed ---------------------------------------------------------
        before = snapshot(cache)
        for how, extra, env in (('--no-cache', ['--no-cache'], BASE),
                                ('LOCKSTEP_CACHE=off', [], dict(BASE, LOCKSTEP_CACHE='off'))):
            p, doc = run(args + extra, env, cache)
            got = programs(doc)
            expect(p.returncode == 0 and got.get('built') == 1 and got.get('loaded') == 0 and
                   got.get('cache') is None and how in (got.get('note') or '') and snapshot(cache) == before,
                   '%s: %s builds from source; the cache is neither read nor written' % (dev, how),
                   '%s %s' % (got, p.stderr[-300:]))
            empty = os.path.join(tmp, 'bypassed-%s-%s' % (dev.replace(':', '-'), extra and 'option' or 'env'))
            p, doc = run(args + extra, env, empty)
            expect(p.returncode == 0 and not os.path.exists(empty),
                   '%s: %s creates no cache directory' % (dev, how), str(files(empty)))
        p, _ = run(args, dict(BASE, LOCKSTEP_CACHE='sometimes'), cache)
        expect(p.returncode == 2 and 'LOCKSTEP_CACHE' in p.stderr and len(p.stderr.splitlines()) == 1,
               '%s: LOCKSTEP_CACHE=sometimes is refused with one line (exit 2)' % dev, p.stderr)

        # ---- a cache that cannot be made --------------------------------------
        blocker = os.path.join(tmp, 'a-file')
        open(blocker, 'w').close()
        p, doc = run(args, BASE, os.path.join(blocker, 'cache'))
        got = programs(doc)
        expect(p.returncode == 0 and doc.get('digest') == answer and got.get('built') == 1 and
               got.get('cache') is None and 'cannot create' in (got.get('note') or ''),
               '%s: a cache directory that cannot be created: the run still runs, and --timings says why' % dev,
               '%s %s' % (got, p.stderr[-300:]))

        # ---- two at once -------------------------------------------------------
        both = os.path.join(tmp, 'both-' + dev.replace(':', '-'))
        env = dict(BASE, LOCKSTEP_CACHE_DIR=both)
        procs = [subprocess.Popen([LS, *args, '--json', '--quiet'], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, env=env) for _ in range(2)]
        outs = [(pr.communicate(timeout=600), pr.returncode) for pr in procs]
        expect(all(rc == 0 and json.loads(out).get('digest') == answer for (out, _), rc in outs),
               '%s: two runs building the same program at once both succeed' % dev, str(outs)[-400:])
        p, doc = run(args, BASE, both)
        expect(files(both) == files(cache) and programs(doc).get('loaded') == 1,
               '%s: and leave one whole file, which the next run loads' % dev, '%s %s' % (files(both),
                                                                                         programs(doc)))

    # ---- NVRTC's CUBINs (Life's rule built in), where a CUDA GPU is ------------------
    for d in cuda:
        cache = os.path.join(tmp, 'nvrtc')
        w = ['life', '--dims', '2', '--size', '64', '--steps', '4', '--rule', 'B36/S23', '--backend', d['device']]
        runs = [run(w, BASE, cache) for _ in range(2)]
        got = [programs(doc) for _, doc in runs]
        built = got[0].get('built', 0)
        if built == 0:
            print('(%s: no program built at run time: a build without NVRTC)' % d['device'])
            continue
        expect(all(p.returncode == 0 for p, _ in runs) and got[1].get('built') == 0 and got[1].get('loaded') == built
               and runs[0][1].get('digest') == runs[1][1].get('digest') and
               all(f.startswith('nvrtc-') for f in files(cache)),
               '%s: the second run loads the CUBIN NVRTC made for the rule, the same answer' % d['device'], str(got))
        for f in files(cache):
            data = open(os.path.join(cache, f), 'rb').read()
            open(os.path.join(cache, f), 'wb').write(data[:len(data) - 1])
        p, doc = run(w, BASE, cache)
        got = programs(doc)
        expect(p.returncode == 0 and got.get('damaged') == built and got.get('built') == built and
               doc.get('digest') == runs[0][1].get('digest'),
               '%s: a CUBIN cut short is compiled again, the same answer' % d['device'], str(got))

    # ---- where the cache lives ------------------------------------------------
    dev = devices[0]['device']
    args = RAY + ['--backend', dev]
    xdg = os.path.join(tmp, 'xdg')
    p, doc = run(args, dict(BASE, XDG_CACHE_HOME=xdg))
    expect(programs(doc).get('cache') == os.path.join(xdg, 'lockstep') and files(os.path.join(xdg, 'lockstep')),
           'without LOCKSTEP_CACHE_DIR: $XDG_CACHE_HOME/lockstep', str(programs(doc)))
    home = os.path.join(tmp, 'home')
    env = dict(BASE, HOME=home)
    env.pop('XDG_CACHE_HOME', None)
    p, doc = run(args, env)
    expect(programs(doc).get('cache') == os.path.join(home, '.cache', 'lockstep') and
           files(os.path.join(home, '.cache', 'lockstep')), 'without XDG_CACHE_HOME: ~/.cache/lockstep',
           str(programs(doc)))

    # ---- Intel's runtime: Life and BMN -------------------------------------------
    for d in devices:
        if 'Intel' not in d['platform']:
            continue
        cache = os.path.join(tmp, 'intel')
        for w in (['life', '--dims', '2', '--size', '64', '--steps', '8'], ['bmn', 'search', '--deals', '200']):
            name = ' '.join(x for x in w[:2] if not x.startswith('-'))
            runs = [run(w + ['--backend', d['device']], BASE, cache) for _ in range(2)]
            got = [programs(doc) for _, doc in runs]
            expect(all(p.returncode == 0 for p, _ in runs) and got[0].get('built', 0) >= 1 and
                   got[1].get('built') == 0 and got[1].get('loaded') == got[0].get('built'),
                   '%s on %s: the second run loads every program the first built' % (name, d['device']), str(got))
            expect(runs[0][1].get('digest') == runs[1][1].get('digest'), '%s: the same answer' % name,
                   '%s %s' % (runs[0][1].get('digest'), runs[1][1].get('digest')))
finally:
    shutil.rmtree(tmp, ignore_errors=True)

finish()
