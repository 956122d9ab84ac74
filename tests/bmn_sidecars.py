#!/usr/bin/env python3
"""A checkpoint's SQLite companions - NAME-journal (the rollback journal),
NAME-wal (the write-ahead log) and NAME-shm (the log's shared-memory
index) - that are there but are not files (a directory, a FIFO): SQLite
failed on them with its own words ("attempt to write a readonly
database", "disk I/O error", "unable to open database file"), after
creating the checkpoint. Each is refused before SQLite opens anything:
exit 2, one line naming the companion and what it is, nothing created,
an existing checkpoint unchanged; for `bmn search` on a new or an
existing checkpoint and for `bmn report`.

usage: bmn_sidecars.py LOCKSTEP"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import expect, finish  # noqa: E402

LS = sys.argv[1]
TAILS = ('-journal', '-wal', '-shm')


def run(*args):
    try:
        return subprocess.run([LS] + list(args), capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired as e:  # SQLite waiting on a FIFO
        return subprocess.CompletedProcess(e.cmd, None, '', 'timed out')


def search(ck):
    return run('bmn', 'search', '--deals', '1e4', '--seed', '5', '--backend', 'openmp', '--quiet', '--checkpoint', ck)


def refused(r, side, kind, what):
    lines = r.stderr.strip().splitlines()
    name = os.path.basename(side)
    expect(r.returncode == 2 and len(lines) == 1 and (name + ' is ' + kind) in r.stderr and 'remove it' in r.stderr
           and r.stdout == '', what + ': refused in one line naming ' + name,
           'rc=%s err=%r' % (r.returncode, r.stderr))


def make(side, how):
    if how == 'a directory':
        os.mkdir(side)
    else:
        os.mkfifo(side)


def clean(tmp, keep):
    """Everything in tmp but `keep` removed (what a failed case left)."""
    for name in os.listdir(tmp):
        path = os.path.join(tmp, name)
        if name == keep:
            continue
        if os.path.isdir(path):
            os.rmdir(path)
        else:
            os.remove(path)


with tempfile.TemporaryDirectory() as tmp:
    old = os.path.join(tmp, 'old.ckpt')
    r = search(old)
    expect(r.returncode == 0, 'a search leaves a checkpoint', r.stderr)
    before = open(old, 'rb').read() if r.returncode == 0 else b''
    for tail in TAILS:
        for how, kind in (('a directory', 'a directory'), ('a FIFO', 'not a regular file')):
            # A new checkpoint: nothing is created beside the companion.
            new = os.path.join(tmp, 'new.ckpt')
            make(new + tail, how)
            refused(search(new), new + tail, kind, 'a new checkpoint with %s as its %s' % (how, tail))
            expect(sorted(os.listdir(tmp)) == sorted(['old.ckpt', 'new.ckpt' + tail]),
                   '... and nothing created', repr(os.listdir(tmp)))
            clean(tmp, 'old.ckpt')
            # An existing one: resumed, and reported.
            make(old + tail, how)
            refused(search(old), old + tail, kind, 'an existing checkpoint with %s as its %s' % (how, tail))
            refused(run('bmn', 'report', old), old + tail, kind, 'bmn report of a checkpoint with %s as its %s'
                    % (how, tail))
            expect(open(old, 'rb').read() == before and sorted(os.listdir(tmp)) == sorted(['old.ckpt', 'old.ckpt' + tail]),
                   '... and the checkpoint unchanged', repr(os.listdir(tmp)))
            clean(tmp, 'old.ckpt')
            with open(old, 'wb') as f:
                f.write(before)
finish()
