#!/usr/bin/env python3
"""BMN search checkpoints, through the command line:
  - a search extended from its checkpoint equals one run straight through;
  - Ctrl-C, SIGTERM and SIGHUP stop it, print the best so far (exit
    128 + the signal: 130, 143, 129) and
    the resumed search equals an uninterrupted one;
  - SIGKILL at many random moments (several times on the same file), then
    a resume: the same top K, histogram and loops as an uninterrupted run;
  - a second search on the same file is refused with one line naming it
    (bmn report reads it meanwhile: tests/bmn_running.py);
  - a record changed, a row deleted, the target changed, a table, index,
    view, trigger or column added, schema version 1, another seed, a
    foreign file, a directory, /dev/full, /dev/zero: refused, one line,
    exit 2, untouched (and an added trigger never runs);
  - a path longer than SQLite opens, a journal SQLite cannot create: one
    line that says so;
  - `bmn report` shows a checkpoint, also one without write permission;
  - /dev/full as stdout: a message and a non-zero exit.
(tests/test_checkpoint.c tears a commit at every byte of its log.)

usage: bmn_checkpoint.py LOCKSTEP BACKEND
"""
import json
import os
import random
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time

from harness import expect, finish

LS, BACKEND = os.path.abspath(sys.argv[1]), sys.argv[2]
def cmd(*args, ckpt=None):
    c = [LS, 'bmn', 'search', '--backend', BACKEND, '--json', '--quiet', '--top', '5', *args]
    return c + ['--checkpoint', ckpt] if ckpt else c


def search(*args, ckpt=None):
    p = subprocess.run(cmd(*args, ckpt=ckpt), capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def essentials(d):
    return d['top_by_cards'], d['top_by_tricks'], d['histogram'], d['loops']


def one_line(err):
    return len(err.strip().splitlines()) == 1


tmp = tempfile.mkdtemp()
N = '300000'
whole = json.loads(search('--deals', N, '--seed', '5')[1])

# 1. extend: 100000 deals, then the same checkpoint with --deals N
ck = os.path.join(tmp, 'extend.ckpt')
rc1, out1, _ = search('--deals', '100000', '--seed', '5', ckpt=ck)
rc2, out2, err2 = search('--deals', N, '--seed', '5', ckpt=ck)
expect(rc1 == 0 and rc2 == 0, 'searches with a checkpoint succeed', err2)
if rc2 == 0:
    expect(essentials(json.loads(out2)) == essentials(whole),
           'a search extended from its checkpoint equals one run straight through')
expect(sorted(os.listdir(tmp)) == ['extend.ckpt'], 'a finished checkpoint is one file', os.listdir(tmp))

# 2. Ctrl-C, SIGTERM, SIGHUP, then resume
big = '30000000'
for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    name = signal.Signals(sig).name
    ck = os.path.join(tmp, name + '.ckpt')
    p = subprocess.Popen(cmd('--seed', '5', '--deals', big, ckpt=ck), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    p.send_signal(sig)
    out, err = p.communicate(timeout=300)
    stopped = json.loads(out) if p.returncode == 128 + sig and out else None
    expect(stopped is not None and stopped['interrupted'] and 0 < stopped['deals'] < int(big),
           '%s stops the search, prints the best so far and exits %d' % (name, 128 + sig),
           'rc=%s err=%r' % (p.returncode, err))
    if stopped:
        more = str(stopped['deals'] + 200000)
        rc, out, err = search('--deals', more, '--seed', '5', ckpt=ck)
        straight = json.loads(search('--deals', more, '--seed', '5')[1])
        resumed = json.loads(out) if rc == 0 else None
        expect(resumed is not None and essentials(resumed) == essentials(straight),
               'after %s, the resumed search reports the same top K and histogram as an uninterrupted one' % name,
               err)

# 3. SIGKILL at random moments, from the first milliseconds on, several
#    times on the same file, then a resume to the end.
K = '1500000'
straight = essentials(json.loads(search('--deals', K, '--seed', '9')[1]))
rng = random.Random(7)
bad = []
for trial in range(8):
    ck = os.path.join(tmp, 'kill%d.ckpt' % trial)
    for kill in range(3):
        p = subprocess.Popen(cmd('--seed', '9', '--deals', K, ckpt=ck), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.0, 0.6))
        p.kill()
        p.wait()
    if trial == 0:  # a report of a killed run reads its log without folding it in
        rep = subprocess.run([LS, 'bmn', 'report', ck], capture_output=True, text=True)
        # (a kill in the first milliseconds may leave an empty file: refused in one line)
        expect(rep.returncode == 0 or (rep.returncode == 2 and one_line(rep.stderr)),
               'bmn report reads a killed search', rep.stderr)
    rc, out, err = search('--deals', K, '--seed', '9', ckpt=ck)
    if rc != 0 or essentials(json.loads(out)) != straight:
        bad.append((trial, rc, err.strip()))
expect(not bad, 'killed 3 times at random moments (8 files), every search resumes to the uninterrupted result',
       bad)

# 3b. killed in the middle of its first commit (what a random kill above
#     meets now and then): the file holds pages and a hot journal whose
#     rollback empties it again. The search starts anew, as on an empty
#     file; the journal is made by hand (SQLite's format: magic, no page
#     records, the file was 0 pages long before) over a finished store.
ck = os.path.join(tmp, 'first-commit.ckpt')
search('--deals', '20000', '--seed', '9', ckpt=ck)
with open(ck + '-journal', 'wb') as j:
    head = bytes.fromhex('d9d505f920a163d7') + struct.pack('>5I', 0, 0x5eed, 0, 512, 4096)
    j.write(head + bytes(512 - len(head)))
rc, out, err = search('--deals', '20000', '--seed', '9', ckpt=ck)
expect(rc == 0 and essentials(json.loads(out)) == essentials(json.loads(search('--deals', '20000', '--seed', '9')[1])),
       'a search killed in its first commit starts anew on the rolled-back (empty) file', err)
os.remove(ck)

left = sorted(f for f in os.listdir(tmp) if f.startswith('kill'))
expect(left == ['kill%d.ckpt' % t for t in range(8)], 'after the resumes, each checkpoint is one file again', left)

# 4. a second search on the same file is refused while the first runs
ck = os.path.join(tmp, 'busy.ckpt')
p = subprocess.Popen(cmd('--seed', '5', '--deals', big, ckpt=ck), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     text=True)
time.sleep(0.7)
rc, out, err = search('--deals', big, '--seed', '5', ckpt=ck)
expect(rc == 2 and one_line(err) and 'busy.ckpt' in err and 'in use' in err and out == '',
       'a second search on the same checkpoint is refused with one line naming it', 'rc=%s err=%r' % (rc, err))
rep = subprocess.run([LS, 'bmn', 'report', ck, '--json'], capture_output=True, text=True)
expect(rep.returncode == 0 and json.loads(rep.stdout)['running'] is True,
       'bmn report reads a checkpoint in use and says a search runs on it', rep.stderr)
p.send_signal(signal.SIGINT)
out, _ = p.communicate(timeout=300)
expect(p.returncode == 130 and json.loads(out)['interrupted'], 'the first search was not disturbed')

# 5. refusals leave the file alone
ck = os.path.join(tmp, 'extend.ckpt')
before = open(ck, 'rb').read()


def refused(path, what, *args):
    data = open(path, 'rb').read() if os.path.isfile(path) else None
    rc, out, err = search('--deals', N, '--seed', '5', *args, ckpt=path)
    same = data is None or open(path, 'rb').read() == data
    expect(rc == 2 and one_line(err) and out == '' and same, '%s: refused, one line, exit 2, untouched' % what,
           'rc=%s err=%r' % (rc, err))
    return err


refused(ck, 'a checkpoint of another search (--seed 6)', '--seed', '6')


def damaged_copy(name, sql):
    path = os.path.join(tmp, name)
    shutil.copy(ck, path)
    db = sqlite3.connect(path)
    db.executescript(sql)
    db.commit()
    db.close()
    return path


# the attack of the issue: a 1757-card record made a 7757-card #1
rec = sqlite3.connect(ck).execute('SELECT deal, cards FROM bmn_record ORDER BY cards LIMIT 1').fetchone()
err = refused(damaged_copy('cards.ckpt', 'UPDATE bmn_record SET cards = cards + 6000 WHERE deal = %d' % rec[0]),
              'a record whose card count was changed')
expect('deal %d' % rec[0] in err, 'the message names the damaged record', err)
refused(damaged_copy('deleted.ckpt', 'DELETE FROM bmn_record WHERE deal = (SELECT max(deal) FROM bmn_record)'),
        'a checkpoint with a record deleted')
refused(damaged_copy('hist.ckpt', 'UPDATE bmn_hist SET games = games + 1 WHERE bin = (SELECT min(bin) FROM bmn_hist)'),
        'a checkpoint whose histogram was changed')
refused(damaged_copy('done.ckpt', 'UPDATE bmn_progress SET done = done - 4096'), 'a checkpoint whose progress was changed')
# the target (--deals of the last run) is in the digest too: bmn report once
# said "300000 of 999999999 deals played" of such a file, exit 0
target = damaged_copy('target.ckpt', 'UPDATE bmn_progress SET target = 999999999')
refused(target, 'a checkpoint whose target was changed')
rep = subprocess.run([LS, 'bmn', 'report', target], capture_output=True, text=True)
expect(rep.returncode == 2 and one_line(rep.stderr) and 'digest' in rep.stderr and rep.stdout == '',
       'bmn report refuses a checkpoint whose target was changed', 'rc=%s %r' % (rep.returncode, rep.stderr))
# the schema must be exactly lockstep's: a trigger would run on resume
for name, sql, what in (
        ('trigger.ckpt', 'CREATE TRIGGER t AFTER INSERT ON bmn_progress BEGIN '
         "UPDATE meta SET value = 'pwned' WHERE key = 'created_by'; END", 'a trigger'),
        ('logger.ckpt', 'CREATE TABLE log(x); CREATE TRIGGER t AFTER INSERT ON bmn_progress BEGIN '
         'INSERT INTO log VALUES (1); END', 'a table and a trigger'),
        ('table.ckpt', 'CREATE TABLE extra(x)', 'a table'),
        ('index.ckpt', 'CREATE INDEX i ON bmn_record(cards)', 'an index'),
        ('view.ckpt', 'CREATE VIEW v AS SELECT * FROM bmn_record', 'a view'),
        ('column.ckpt', 'ALTER TABLE bmn_hist ADD COLUMN note TEXT', 'a column')):
    err = refused(damaged_copy(name, sql), 'a checkpoint with %s added' % what)
    expect('schema' in err, 'the message says the schema is not lockstep\'s', err)
err = refused(damaged_copy('dropped.ckpt', 'DROP TABLE bmn_loop'), 'a checkpoint with a table dropped')
# a checkpoint of schema version 1 (lockstep before the target entered the
# digest): refused, saying which version this lockstep reads
err = refused(damaged_copy('v1.ckpt', "UPDATE meta SET value = '1' WHERE key = 'version'"),
              'a checkpoint of schema version 1')
expect('version 1' in err and 'version 2' in err, 'the message names both versions', err)
bad = os.path.join(tmp, 'text.ckpt')
with open(bad, 'wb') as f:
    f.write(b'hello\n')
refused(bad, 'a text file')
with open(bad, 'wb') as f:
    f.write(b'\0')
refused(bad, 'a file of one NUL byte')
other = os.path.join(tmp, 'other.db')
sqlite3.connect(other).execute('CREATE TABLE t(x)').connection.commit()
refused(other, "another program's SQLite database")
refused(tmp, 'a directory')
for dev in ('/dev/full', '/dev/zero'):
    if os.path.exists(dev):
        refused(dev, dev)
expect(open(ck, 'rb').read() == before, 'the checkpoint itself was never changed by the refusals')

# SQLite's own limits, in words: a path longer than SQLite opens (it named
# them "No such file or directory"), a sidecar it cannot create (the
# message read "cannot updating it")
real_tmp = os.path.realpath(tmp)
deep = os.path.join(real_tmp, *['d' * 100] * 3)
os.makedirs(deep)
for length in (504, 505):
    path = os.path.join(deep, 'c' * (length - len(deep) - 1))
    rc, out, err = search('--deals', '1e4', ckpt=path)
    if length == 504:
        expect(rc == 0, 'a checkpoint path of 504 bytes works', err)
    else:
        expect(rc == 2 and one_line(err) and '505 bytes' in err and 'at most 504' in err and
               not os.path.exists(path), 'a checkpoint path of 505 bytes is refused naming the limit', err)
ck_journal = os.path.join(tmp, 'sidecar.ckpt')
os.mkdir(ck_journal + '-journal')
rc, out, err = search('--deals', '1e4', ckpt=ck_journal)
expect(rc == 2 and one_line(err) and 'sidecar.ckpt-journal is a directory' in err and 'cannot updating' not in err,
       'a journal SQLite cannot create: refused in one plain line', err)

# 6. bmn report, also without write permission
ro = os.path.join(tmp, 'readonly.ckpt')
shutil.copy(ck, ro)
os.chmod(ro, 0o444)
rep = subprocess.run([LS, 'bmn', 'report', ro, '--json'], capture_output=True, text=True)
d = json.loads(rep.stdout) if rep.returncode == 0 else None
expect(d is not None and essentials(d) == essentials(whole) and d['deals'] == int(N) and not d['interrupted'],
       'bmn report --json shows a read-only checkpoint: top lists, histogram, loops, progress', rep.stderr)
rep = subprocess.run([LS, 'bmn', 'report', ro], capture_output=True, text=True)
expect(rep.returncode == 0 and 'longest games by cards' in rep.stdout and 'seed 5' in rep.stdout,
       'bmn report shows it for people', rep.stderr)
expect(open(ro, 'rb').read() == before and sorted(f for f in os.listdir(tmp) if f.startswith('readonly')) ==
       ['readonly.ckpt'], 'bmn report leaves the file as it was')
rep = subprocess.run([LS, 'bmn', 'report', os.path.join(tmp, 'cards.ckpt')], capture_output=True, text=True)
expect(rep.returncode == 2 and one_line(rep.stderr) and rep.stdout == '', 'bmn report refuses a damaged checkpoint',
       rep.stderr)

# 7. /dev/full as standard output
if os.path.exists('/dev/full'):
    for args in (['--deals', '1e4', '--json'], ['--deals', '1e4']):
        with open('/dev/full', 'w') as full:
            p = subprocess.run(cmd(*args), stdout=full, stderr=subprocess.PIPE, text=True)
        expect(p.returncode != 0 and one_line(p.stderr) and 'standard output' in p.stderr,
               'bmn search %s >/dev/full: one line and a non-zero exit' % ' '.join(args), p.stderr)
    with open('/dev/full', 'w') as full:
        p = subprocess.run([LS, 'bmn', 'report', ck, '--json'], stdout=full, stderr=subprocess.PIPE, text=True)
    expect(p.returncode != 0 and one_line(p.stderr), 'bmn report >/dev/full: one line and a non-zero exit', p.stderr)

# 8. --checkpoint --quiet forgot the file name: no file named --quiet
p = subprocess.run([LS, 'bmn', 'search', '--deals', '10', '--checkpoint', '--quiet'], capture_output=True, text=True,
                   cwd=tmp)
expect(p.returncode == 2 and one_line(p.stderr) and not os.path.exists(os.path.join(tmp, '--quiet')),
       '--checkpoint --quiet is refused and creates no file', p.stderr)

shutil.rmtree(tmp, ignore_errors=True)
finish()
