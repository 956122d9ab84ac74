#!/usr/bin/env python3
"""A checkpoint left with a hot journal (a search killed in the middle of a
commit in rollback-journal mode, made here deterministically: a transaction
that spilled pages to the file, copied with its journal while still open):
  - `bmn report` says so in one line (exit 2) and changes neither file;
  - `bmn search --checkpoint FILE` alone rolls it back, reads the stored
    options and resumes to the uninterrupted result.

usage: bmn_hot_journal.py LOCKSTEP"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import expect, finish  # noqa: E402

LS = sys.argv[1]


def run(*args):
    return subprocess.run([LS] + list(args), capture_output=True, text=True)


def digest(r):
    try:
        return json.loads(r.stdout)['digest']
    except (ValueError, KeyError):
        return None


with tempfile.TemporaryDirectory() as tmp:
    a, b = os.path.join(tmp, 'a.ckpt'), os.path.join(tmp, 'b.ckpt')
    r = run('bmn', 'search', '--deals', '20000', '--seed', '5', '--checkpoint', a, '--backend', 'openmp', '--quiet')
    expect(r.returncode == 0, 'a search of 20000 deals leaves a checkpoint', r.stderr)
    con = sqlite3.connect(a, isolation_level=None)
    con.execute('PRAGMA cache_size=1')  # spill to the file before the commit
    con.execute('BEGIN IMMEDIATE')
    con.execute('UPDATE bmn_hist SET games = games + 1')
    con.execute('UPDATE bmn_progress SET done = done + 1')
    con.execute('INSERT INTO bmn_hist(bin, games) SELECT bin + 100000, games FROM bmn_hist')
    hot = os.path.exists(a + '-journal')
    if hot:
        shutil.copy(a, b)
        shutil.copy(a + '-journal', b + '-journal')
    con.execute('ROLLBACK')
    con.close()
    expect(hot, 'the open transaction has a journal to copy')
    before = [open(p, 'rb').read() for p in (b, b + '-journal')] if hot else []

    r = run('bmn', 'report', b)
    expect(r.returncode == 2 and 'middle of a commit' in r.stderr and len(r.stderr.splitlines()) == 1,
           'bmn report on a hot journal: one line, exit 2', 'exit %d %s' % (r.returncode, r.stderr))
    after = [open(p, 'rb').read() for p in (b, b + '-journal')] if hot else []
    expect(hot and before == after, 'bmn report changed neither the file nor its journal')

    resumed = run('bmn', 'search', '--checkpoint', b, '--deals', '40000', '--backend', 'openmp', '--quiet', '--json')
    straight = run('bmn', 'search', '--deals', '40000', '--seed', '5', '--backend', 'openmp', '--quiet', '--json')
    expect(resumed.returncode == 0 and digest(resumed) is not None and digest(resumed) == digest(straight),
           'the search resumed from the file alone (journal rolled back, options read) equals a straight run',
           'exit %d %s' % (resumed.returncode, resumed.stderr))
    expect(not os.path.exists(b + '-journal'), 'the journal is gone after the resume')
finish()
