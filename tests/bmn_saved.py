#!/usr/bin/env python3
"""What a long BMN search says about its checkpoint (issue 27, "long
searches"):
  - stopped by Ctrl-C (exit 130), its last line on stderr says how many
    deals the checkpoint holds, with thousands separators (the count that
    bmn report reads), and the command that resumes it, the program and a
    path with a space and a quote quoted for the shell; that command, run
    by a shell as printed, resumes the search (its deals counted on from
    those saved, with the seed stored in the file) and says the same again;
  - finished, it says so and how to extend it; that command, run, extends
    the search to twice its deals;
  - without --checkpoint there is no such line;
  - the progress line (--progress-every 1) says how long ago the last
    commit was, never longer ago than the run's elapsed time; not without
    a checkpoint.

usage: bmn_saved.py LOCKSTEP
"""
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

from harness import expect, finish

LS = os.path.abspath(sys.argv[1])
STOPPED = re.compile(r'^saved ([\d,]+) deals to (.+); resume: (.+)$')
WHOLE = re.compile(r'^saved ([\d,]+) deals to (.+), the whole search; to extend it: (.+)$')
LINE = re.compile(r'(\d+) s elapsed, .*deals/s(, saved (\d+) s ago)?')
ENV = dict(os.environ)
ENV.pop('LOCKSTEP_BACKEND', None)


def search(*args, ckpt=None, **kw):
    c = [LS, 'bmn', 'search', '--backend', 'openmp', '--top', '5', *args]
    return c + ['--checkpoint', ckpt] if ckpt else c


def saved_deals(path):
    p = subprocess.run([LS, 'bmn', 'report', path, '--json'], capture_output=True, text=True, env=ENV, timeout=60)
    try:
        return json.loads(p.stdout)['deals']
    except (ValueError, KeyError):
        return None


def stop_after_commits(p, path, seconds):
    """SIGINT to p once the checkpoint at path holds deals and `seconds`
    have passed: (exit status, stdout, stderr)."""
    end = time.time() + 120
    while time.time() < end and p.poll() is None and not (os.path.exists(path) and saved_deals(path)):
        time.sleep(0.1)
    time.sleep(seconds)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=300)
    return p.returncode, out, err


def last_line(err):
    lines = err.strip().splitlines()
    return lines[-1] if lines else ''


tmp = tempfile.mkdtemp()

# ---- Ctrl-C: what was saved, and the command that resumes -----------------------
ck = os.path.join(tmp, "a hunt's.ckpt")
p = subprocess.Popen(search('--deals', '1e9', '--seed', '3', '--progress-every', '1', ckpt=ck), env=ENV,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
rc, out, err = stop_after_commits(p, ck, 2.5)
m = STOPPED.match(last_line(err))
held = saved_deals(ck)
expect(rc == 130 and m and held and m.group(1) == '{:,}'.format(held),
       'Ctrl-C: exit 130, the last line says the %s deals the checkpoint holds, thousands separated' % held,
       'rc=%d %r' % (rc, err[-400:]))
expect(m and shlex.split(m.group(2)) == [ck] and shlex.split(m.group(3)) == [LS, 'bmn', 'search', '--checkpoint', ck],
       'the path (a space and a quote in it) and the program quoted for the shell', m and m.group(0))

# The progress lines of that search: the age of the last commit.
lines = [LINE.search(x) for x in err.splitlines() if ' s elapsed, ' in x]
ages = [(int(x.group(1)), int(x.group(3))) for x in lines if x and x.group(3) is not None]
expect(lines and len(ages) == len(lines) and all(0 <= age <= elapsed for elapsed, age in ages),
       'the progress line says "saved N s ago", N within the run\'s elapsed time', '%r' % err[-600:])

# The command as printed, run by a shell: it resumes.
if m:
    r = subprocess.Popen('exec ' + m.group(3), shell=True, cwd=tmp, env=ENV, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    end = time.time() + 120
    while time.time() < end and r.poll() is None and (saved_deals(ck) or 0) <= held:
        time.sleep(0.2)
    r.send_signal(signal.SIGINT)
    out2, err2 = r.communicate(timeout=300)
    total = re.search(r'^bmn search: (\d+) deals from 0, seed 3 ', out2, re.M)
    this_run = re.search(r'^time: .* for (\d+) deals', out2, re.M)
    ok = r.returncode == 130 and total and this_run and int(total.group(1)) == held + int(this_run.group(1))
    expect(ok, 'the printed command resumes: seed 3 from the file, %s deals saved + this run\'s = the total' % held,
           'rc=%s %r %r' % (r.returncode, out2[:300], err2[-300:]))
    m2 = STOPPED.match(last_line(err2))
    expect(ok and m2 and m2.group(1) == '{:,}'.format(int(total.group(1))) and m2.group(3) == m.group(3),
           'stopped again: the new count, the same command', last_line(err2))

# ---- finished: how to extend it ---------------------------------------------------
ck = os.path.join(tmp, 'small.ckpt')
p = subprocess.run(search('--deals', '1e4', '--quiet', '--json', ckpt=ck), capture_output=True, text=True, env=ENV,
                   timeout=120)
m = WHOLE.match(last_line(p.stderr))
expect(p.returncode == 0 and json.loads(p.stdout)['deals'] == 10000 and m and m.group(1) == '10,000' and
       m.group(2) == ck and shlex.split(m.group(3)) == [LS, 'bmn', 'search', '--checkpoint', ck, '--deals', '2e4'],
       'finished: "saved 10,000 deals to FILE, the whole search; to extend it: ... --deals 2e4" (after --json too)',
       p.stderr)
if m:
    r = subprocess.run(m.group(3), shell=True, cwd=tmp, env=ENV, capture_output=True, text=True, timeout=120)
    m2 = WHOLE.match(last_line(r.stderr))
    expect(r.returncode == 0 and saved_deals(ck) == 20000 and m2 and m2.group(1) == '20,000' and
           m2.group(3).endswith(' --deals 4e4'),
           'the printed command extends the search to 20,000 deals', r.stderr[-300:])

# Whatever the name holds, the shell gives it back (and so does the command).
for name in ('$HOME `id` "x" *.ckpt', 'tab\there;&|<>()!#~.ckpt', '-plain_name+=@%:,.ckpt'):
    ck = os.path.join(tmp, name)
    p = subprocess.run(search('--deals', '1e3', '--quiet', ckpt=ck), capture_output=True, text=True, env=ENV,
                       timeout=120)
    m = WHOLE.match(last_line(p.stderr))
    expect(p.returncode == 0 and m and shlex.split(m.group(2)) == [ck] and
           shlex.split(m.group(3))[3:5] == ['--checkpoint', ck] and
           (m.group(2) == ck) == (name.startswith('-plain')),
           'the checkpoint %r quoted for the shell where it needs to be' % name, p.stderr[-300:])

# ---- without a checkpoint: nothing of the kind ---------------------------------------
p = subprocess.run(search('--deals', '1e4', '--quiet'), capture_output=True, text=True, env=ENV, timeout=120)
expect(p.returncode == 0 and 'saved' not in p.stderr, 'no checkpoint: no "saved" line', p.stderr)
p = subprocess.Popen(search('--deals', '1e9', '--progress-every', '1'), env=ENV, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True)
time.sleep(2.5)
p.send_signal(signal.SIGINT)
out, err = p.communicate(timeout=300)
expect(p.returncode == 130 and ' s elapsed, ' in err and 'saved' not in err,
       'no checkpoint: progress lines without "saved N s ago", no "saved" line at the end', err[-400:])
finish()
