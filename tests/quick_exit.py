#!/usr/bin/env python3
"""How a command ends (issue 36, src/commands/commands.h): a run or
`devices` that succeeded leaves its devices (CUDA's contexts) and memory to
the process's end and ends with _exit, once its outputs are in place and
its report written; what it printed still arrives whole and a write error
on stdout is still an error. Checked on OpenMP, where the way of ending
shows only in what LOCKSTEP_DEBUG_EXIT=say prints:
  - a run (its JSON through a pipe, large: --every 1 over many
    generations) and `devices`: left to the process's end, the document
    whole, the --out file the same bytes as with LOCKSTEP_DEBUG_EXIT=teardown;
  - stdout on /dev/full: exit 1 with the message, through the exit handlers;
  - a refused argument, and `check`: through the exit handlers.
usage: quick_exit.py LOCKSTEP
"""
import json
import os
import subprocess
import sys
import tempfile

from harness import expect, finish

LS = sys.argv[1]
SAY = dict(os.environ, LOCKSTEP_DEBUG_EXIT='say')
LEFT = "ended with the devices left to the process's end"
HANDLERS = 'ended through the exit handlers'
# A leak-sanitizer build always ends through the exit handlers (they look
# for leaks) and says so: there the runs below count as left to the end.
SANITIZER = 'a leak-sanitizer build'


def run(args, env=SAY, stdout=subprocess.PIPE):
    return subprocess.run([LS, *args], stdout=stdout, stderr=subprocess.PIPE, text=True, env=env, timeout=300)


with tempfile.TemporaryDirectory() as tmp:
    quick, slow = os.path.join(tmp, 'q.lsgrid'), os.path.join(tmp, 't.lsgrid')
    life = ['life', '--dims', '2', '--size', '256', '--steps', '20000', '--every', '1', '--backend', 'openmp',
            '--json', '--quiet']
    r = run(life + ['--out', quick])
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        doc = {}
    expect(r.returncode == 0 and (LEFT in r.stderr or SANITIZER in r.stderr) and
           len(doc.get('populations', [])) == 20001,
           'a run: its devices left to the end; its %d-byte JSON whole through a pipe' % len(r.stdout),
           'rc=%d %s' % (r.returncode, r.stderr[-300:]))
    t = run(life + ['--out', slow], dict(os.environ, LOCKSTEP_DEBUG_EXIT='teardown'))
    same = os.path.exists(quick) and os.path.exists(slow) and open(quick, 'rb').read() == open(slow, 'rb').read()
    expect(t.returncode == 0 and same and json.loads(t.stdout).get('digest') == doc.get('digest'),
           '--out: the same bytes and digest as with every device closed (LOCKSTEP_DEBUG_EXIT=teardown)')
    expect(not [f for f in os.listdir(tmp) if f.startswith('.')], 'no temporary file left', str(os.listdir(tmp)))
    r = run(['devices'])
    expect(r.returncode == 0 and (LEFT in r.stderr or SANITIZER in r.stderr) and 'openmp' in r.stdout,
           'devices: left to the end', r.stderr)
    with open('/dev/full', 'w') as full:
        r = run(['life', '--size', '64', '--steps', '3', '--backend', 'openmp', '--quiet'], stdout=full)
    expect(r.returncode == 1 and 'No space left' in r.stderr and HANDLERS in r.stderr,
           'stdout on /dev/full: exit 1, the message, the exit handlers', 'rc=%d %s' % (r.returncode, r.stderr))
    r = run(['life', '--size', '64x', '--backend', 'openmp'])
    expect(r.returncode == 2 and HANDLERS in r.stderr, 'a refused argument: the exit handlers', r.stderr)
    r = run(['check', 'life', '--dims', '2', '--size', '32', '--steps', '1', '--backend', 'openmp', '--quiet'])
    expect(HANDLERS in r.stderr, 'check: the exit handlers', r.stderr[-300:])
finish()
