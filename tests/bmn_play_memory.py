#!/usr/bin/env python3
"""`bmn play` on long random deals runs in bounded memory: loop detection
keeps a few copies of the hands, not every state (a 10000-card deal used to
pass 10 GB). Each game runs in its own process; its peak resident memory
must stay under 100 MB.

usage: bmn_play_memory.py LOCKSTEP
"""
import random
import resource
import subprocess
import sys

from harness import expect, finish

LS = sys.argv[1]
def deal(cards, seed):
    deck = list('-' * 36 + 'JJJJQQQQKKKKAAAA') * (cards // 52 + 1)
    deck = deck[:cards]
    random.Random(seed).shuffle(deck)
    return ''.join(deck[:cards // 2]) + '/' + ''.join(deck[cards // 2:])


def peak_mb(args):
    """Runs lockstep in a child and returns (result, its peak RSS in MB)."""
    code = ('import resource, subprocess, sys\n'
            'p = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=600)\n'
            'print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n'
            'print(p.stdout.strip() or p.stderr.strip())')
    out = subprocess.run([sys.executable, '-c', code, LS] + args, capture_output=True, text=True,
                         timeout=900).stdout.splitlines()
    rc, kb = map(int, out[0].split())
    return rc, kb / 1024.0, out[1] if len(out) > 1 else ''


for cards, seed in ((4000, 1), (10000, 1), (10000, 2)):
    rc, mb, res = peak_mb(['bmn', 'play', deal(cards, seed)])
    expect(rc == 0 and mb < 100, 'a random %d-card deal plays in %.0f MB (< 100 MB): %s' % (cards, mb, res),
           'rc=%d' % rc)
rc, mb, res = peak_mb(['bmn', 'play', '--json', '-' * 20000 + 'J-/J-' + '-' * 20000])
expect(rc == 0 and mb < 100 and '"outcome":"loop"' in res,
       'a 40004-card hand-built loop of 8000 tricks plays in %.0f MB: %s' % (mb, res[res.find('"outcome"'):]))
finish()
