#!/usr/bin/env python3
"""A BMN search watched and resumed through its checkpoint (issue 17):
  - `bmn report FILE` while `bmn search --checkpoint FILE` runs: exit 0
    every time, the deals growing from one report to the next, a valid top
    list (sorted, each game replayed by `bmn play`, the histogram adding
    up), and "running": true; a second search on the file is refused;
  - after Ctrl-C: the report says no search runs and shows what the
    search printed; the checkpoint is one file, and a copy of that file
    alone reads the same;
  - after SIGKILL: the report reads the log without changing the file or
    its log;
  - `bmn search --checkpoint FILE` without the search's options resumes
    with the ones stored in it (also to the --deals of its last run) and
    ends as a search run straight through; an option given that differs is
    refused in one line naming it ("--seed 8 differs from this
    checkpoint's --seed 7"), the file untouched; scheduling options
    (backend, progress) may differ.

usage: bmn_running.py LOCKSTEP BACKEND
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from harness import expect, finish

LS, BACKEND = os.path.abspath(sys.argv[1]), sys.argv[2]
# The backend a resume may switch to: scheduling only.
OTHER = 'openmp' if BACKEND != 'openmp' else 'openmp:0'


def search(*args, backend=BACKEND):
    p = subprocess.run([LS, 'bmn', 'search', '--backend', backend, '--json', '--quiet', *args], capture_output=True,
                       text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def background(*args):
    return subprocess.Popen([LS, 'bmn', 'search', '--backend', BACKEND, '--json', '--quiet', *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def report(path):
    p = subprocess.run([LS, 'bmn', 'report', path, '--json'], capture_output=True, text=True, timeout=300)
    return p.returncode, json.loads(p.stdout) if p.returncode == 0 else None, p.stderr


def essentials(d):
    return d['top_by_cards'], d['top_by_tricks'], d['histogram'], d['loops']


def options(d):
    return {k: d[k] for k in ('seed', 'first', 'top', 'cap')}


def one_line(err):
    return len(err.strip().splitlines()) == 1


def top_list_valid(d):
    """The top list by cards is at most --top long, sorted, and every game
    in it plays (bmn play, on the host) as reported; the histogram adds up
    to the games finished, and with the loops to the deals played."""
    top = d['top_by_cards']
    if not top or len(top) > d['top'] or [g['cards'] for g in top] != sorted((g['cards'] for g in top), reverse=True):
        return False
    for g in top:
        p = subprocess.run([LS, 'bmn', 'play', g['hands'], '--json'], capture_output=True, text=True)
        played = json.loads(p.stdout) if p.returncode == 0 else {}
        if (played.get('cards'), played.get('tricks')) != (g['cards'], g['tricks']):
            return False
    return sum(d['histogram']['counts']) == d['finished'] and d['finished'] + len(d['loops']) == d['deals']


def wait_for_first_commit(path, proc, limit=120):
    """Polls bmn report until it reads a commit (before the first one the
    file is empty or missing: refused in one line)."""
    end = time.time() + limit
    while time.time() < end and proc.poll() is None:
        rc, d, err = report(path)
        if rc == 0 and d['deals'] > 0:
            return d
        time.sleep(0.1)
    return None


tmp = tempfile.mkdtemp()

# 1. bmn report while the search runs
ck = os.path.join(tmp, 'watched.ckpt')
p = background('--seed', '11', '--top', '5', '--deals', '1e10', '--checkpoint', ck)
first = wait_for_first_commit(ck, p)
expect(first is not None, 'bmn report reads the checkpoint once the search committed its first chunk')
seen, reads_ok, valid, running = [], True, True, True
for i in range(4):
    time.sleep(0.8)
    rc, d, err = report(ck)
    reads_ok &= rc == 0
    if rc != 0:
        print('  report %d: rc=%d %s' % (i, rc, err.strip()))
        continue
    seen.append(d['deals'])
    valid &= top_list_valid(d)
    running &= d['running'] is True and d['interrupted'] is True and d['target_deals'] == 10 ** 10
expect(reads_ok, 'bmn report exits 0 every time while the search runs')
expect(len(seen) == 4 and seen == sorted(seen) and seen[-1] > seen[0],
       'the deals played grow from one report to the next', seen)
expect(valid, 'each report has a valid top list (sorted, every game replays as reported, the histogram adds up)')
expect(running, 'each report says a search is running on the file')
rc, out, err = search('--seed', '11', '--top', '5', '--deals', '1e10', '--checkpoint', ck)
expect(rc == 2 and one_line(err) and 'in use' in err and 'watched.ckpt' in err and out == '',
       'a second search on the file, while the first runs, is refused in one line naming it', err)
text = subprocess.run([LS, 'bmn', 'report', ck], capture_output=True, text=True)
expect(text.returncode == 0 and 'a search is running on it now' in text.stdout and 'longest games by cards' in
       text.stdout, 'bmn report for people says how far the search is and that it runs', text.stderr)
p.send_signal(signal.SIGINT)
out, err = p.communicate(timeout=300)
stopped = json.loads(out) if p.returncode == 130 and out else None
expect(stopped is not None and stopped['interrupted'], 'the watched search was not disturbed: Ctrl-C stops it (130)',
       err)
rc, after, err = report(ck)
expect(rc == 0 and after['running'] is False and stopped is not None and after['deals'] == stopped['deals'] and
       essentials(after) == essentials(stopped), 'after it, bmn report shows what the search printed, not running',
       err)
expect(sorted(os.listdir(tmp)) == ['watched.ckpt'], 'the checkpoint of the stopped search is one file',
       os.listdir(tmp))
alone = os.path.join(tmp, 'copy', 'alone.ckpt')
os.mkdir(os.path.dirname(alone))
shutil.copy(ck, alone)
rc, copied, err = report(alone)
expect(rc == 0 and after is not None and essentials(copied) == essentials(after) and copied['deals'] == after['deals'],
       'a copy of the checkpoint file alone is the whole search', err)
shutil.rmtree(os.path.dirname(alone))

# 2. a report of a killed search reads its log and changes neither file
ck = os.path.join(tmp, 'killed.ckpt')
p = background('--seed', '11', '--top', '5', '--deals', '1e10', '--checkpoint', ck)
wait_for_first_commit(ck, p)
time.sleep(0.5)
p.kill()
p.wait()
files = {f: open(os.path.join(tmp, f), 'rb').read() for f in ('killed.ckpt', 'killed.ckpt-wal')
         if os.path.exists(os.path.join(tmp, f))}
rc, d, err = report(ck)
same = all(open(os.path.join(tmp, f), 'rb').read() == data for f, data in files.items())
expect(rc == 0 and d['running'] is False and d['deals'] > 0 and same and 'killed.ckpt-wal' in files,
       'bmn report of a killed search reads its log and changes neither the file nor the log', err)

# 3. resume with the options stored in the checkpoint
stored = {'seed': 7, 'first': 100, 'top': 5, 'cap': 20000}
defining = ['--seed', '7', '--first', '100', '--top', '5', '--cap', '20000']
ck = os.path.join(tmp, 'resume.ckpt')
rc, out, err = search(*defining, '--deals', '100000', '--checkpoint', ck)
expect(rc == 0, 'a search saves to a new checkpoint', err)
rc, out, err = search('--deals', '200000', '--checkpoint', ck)
d = json.loads(out) if rc == 0 else None
straight = json.loads(search(*defining, '--deals', '200000')[1])
expect(d is not None and options(d) == stored and d['params']['seed'] == 7 and d['params']['top'] == 5 and
       essentials(d) == essentials(straight),
       '--checkpoint FILE --deals N, without the other options, resumes the stored search to the straight result',
       err)

# stopped midway, then resumed with nothing but the file: to its own --deals
ck = os.path.join(tmp, 'midway.ckpt')
target = '1500000'
p = background(*defining, '--deals', target, '--checkpoint', ck)
wait_for_first_commit(ck, p)
p.send_signal(signal.SIGINT)
out, err = p.communicate(timeout=300)
expect(p.returncode in (0, 130), 'a search with a checkpoint stops on Ctrl-C', err)
before = open(ck, 'rb').read()
for opt, value in (('--seed', '8'), ('--first', '0'), ('--top', '6'), ('--cap', '30000')):
    rc, out, err = search(opt, value, '--checkpoint', ck)
    name = opt[2:]
    want = "%s %s differs from this checkpoint's %s %d" % (opt, value, opt, stored[name])
    expect(rc == 2 and one_line(err) and want in err and out == '' and open(ck, 'rb').read() == before,
           '%s %s on a checkpoint of %s %d: refused in one line naming it, untouched' % (opt, value, opt,
                                                                                       stored[name]), err)
rc, out, err = search('--checkpoint', ck, backend=OTHER)
d = json.loads(out) if rc == 0 else None
straight = json.loads(search(*defining, '--deals', target)[1])
expect(d is not None and options(d) == stored and d['deals'] == int(target) and not d['interrupted'] and
       essentials(d) == essentials(straight),
       'bmn search --checkpoint FILE alone (on another backend) resumes to the --deals of its last run, '
       'as a straight search', err)
# the same options given explicitly, and progress lines: accepted
p = subprocess.run([LS, 'bmn', 'search', '--backend', BACKEND, '--json', '--progress-every', '5', '--seed', '7',
                    '--top=5', '--checkpoint', ck], capture_output=True, text=True, timeout=600)
d = json.loads(p.stdout) if p.returncode == 0 else None
expect(d is not None and options(d) == stored and essentials(d) == essentials(straight),
       'the stored options given again, and --progress-every, are accepted', p.stderr)

shutil.rmtree(tmp, ignore_errors=True)
finish()
