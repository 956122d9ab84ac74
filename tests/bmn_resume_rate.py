#!/usr/bin/env python3
"""The progress line of a resumed BMN search (issue 25, item 4): its rate
and time left come from this run's deals only. A resumed search used to
divide every deal done, earlier runs' included, by this run's elapsed
time: "10.7% of 1e8 deals, 6 s elapsed, ~49 s left, 1.83e6 deals/s" where
the true rate was 5.6e5.

A search is run on OpenMP to about six seconds' worth of deals, then
resumed through its checkpoint for about two and a half seconds more with
--progress-every 1. On every progress line of the resumed run, the rate
times the elapsed time (as printed, rounded to the second: at least
elapsed - 0.5) must be no more than the deals this run had done by then,
which the line's percentage of the total gives, less the deals of the
first run; the percentage stays of the whole search, and the time left is
what is left at the rate shown. The sizes come from
the rate of a short first run, so the check holds on any machine; it
checks consistency, never speed.

usage: bmn_resume_rate.py LOCKSTEP
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from harness import expect, finish

LS = os.path.abspath(sys.argv[1])
LINE = re.compile(r'([\d.]+)% of (\S+) deals, (\d+) s elapsed, ~(\d+) s left, ([\d.e+]+) deals/s')


def search(path, deals, *extra):
    p = subprocess.run([LS, 'bmn', 'search', '--backend', 'openmp', '--checkpoint', path, '--deals', str(deals),
                        '--json', *extra], capture_output=True, text=True, timeout=120)
    try:
        return p.returncode, json.loads(p.stdout), p.stderr
    except ValueError:
        return p.returncode, {}, p.stderr


with tempfile.TemporaryDirectory() as tmp:
    ckpt = os.path.join(tmp, 'resume.ckpt')
    rc, d, err = search(ckpt, 200000, '--quiet')
    rate = d.get('deals_per_second', 0)
    if not expect(rc == 0 and rate > 0, 'a first search gives the rate of this machine', err):
        finish()
    before = int(rate * 6) // 4096 * 4096 + 4096     # the deals of earlier runs: about 6 s
    total = before + int(rate * 2.5)                  # this run: about 2.5 s
    rc, d, err = search(ckpt, before, '--quiet')
    expect(rc == 0 and d.get('deals') == before, 'the search extended to %d deals' % before, err)
    rc, d, err = search(ckpt, total, '--progress-every', '1')
    lines = [LINE.search(l) for l in err.splitlines()]
    lines = [m for m in lines if m]
    expect(rc == 0 and d.get('deals') == total and lines,
           'the resumed search to %d deals prints progress lines' % total, err)
    for m in lines:
        percent, elapsed, shown = float(m.group(1)), int(m.group(3)), float(m.group(5))
        done = percent / 100 * total                  # of the whole search, to 0.05%
        mine = done - before + 0.0005 * total
        # The rate has 3 significant digits; elapsed is rounded to the second.
        claimed = shown / 1.005 * max(elapsed - 0.5, 0)
        expect(claimed <= mine, 'rate x elapsed is no more than this run\'s deals: %s' % m.group(0),
               '%.0f deals claimed, %.0f done by this run' % (claimed, mine))
        expect(before / total * 100 - 0.1 <= percent <= 100, 'the percentage is of the whole search: %s' % m.group(0))
        left = int(m.group(4))
        expect(shown > 0 and abs(left - (total - done) / shown) <= 1.0,
               'the time left is what is left at that rate: %s' % m.group(0))
finish()
