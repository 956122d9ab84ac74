#!/usr/bin/env python3
"""BMN search checkpoints: a search stopped by Ctrl-C and resumed from its
checkpoint reports the same top K (and histogram) as an uninterrupted one;
a search extended to more deals from a checkpoint equals one run straight
through; a corrupt or foreign checkpoint is refused with exit code 2 and
is left as it was.

usage: bmn_checkpoint.py LOCKSTEP BACKEND
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

LS, BACKEND = sys.argv[1], sys.argv[2]
failures = checks = 0


def expect(ok, what, detail=''):
    global failures, checks
    checks += 1
    print('%s %s %s' % ('ok  ' if ok else 'FAIL', what, detail if not ok else ''))
    failures += not ok


def search(*args, ckpt=None):
    cmd = [LS, 'bmn', 'search', '--backend', BACKEND, '--json', '--quiet', '--top', '5', *args]
    if ckpt:
        cmd += ['--checkpoint', ckpt]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def essentials(d):
    return d['top_by_cards'], d['top_by_tricks'], d['histogram'], d['loops']


tmp = tempfile.mkdtemp()
N = '300000'
rc, out, err = search('--deals', N, '--seed', '5')
whole = json.loads(out)

# 1. extend: 100000 deals, then the same checkpoint with --deals N
ck = os.path.join(tmp, 'extend.ckpt')
rc1, out1, _ = search('--deals', '100000', '--seed', '5', ckpt=ck)
rc2, out2, err2 = search('--deals', N, '--seed', '5', ckpt=ck)
expect(rc1 == 0 and rc2 == 0, 'searches with a checkpoint succeed', err2)
if rc2 == 0:
    expect(essentials(json.loads(out2)) == essentials(whole),
           'a search extended from its checkpoint equals one run straight through')

# 2. Ctrl-C, then resume
ck = os.path.join(tmp, 'sigint.ckpt')
big = '30000000'
p = subprocess.Popen([LS, 'bmn', 'search', '--backend', BACKEND, '--json', '--quiet', '--top', '5', '--seed', '5',
                      '--deals', big, '--checkpoint', ck], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
time.sleep(1.5)
p.send_signal(signal.SIGINT)
out, err = p.communicate(timeout=300)
stopped = json.loads(out) if p.returncode == 0 and out else None
expect(stopped is not None and stopped['interrupted'] and 0 < stopped['deals'] < int(big),
       'Ctrl-C stops the search, prints the best so far and exits 0', 'rc=%s err=%r' % (p.returncode, err))
if stopped:
    rc, out, err = search('--deals', str(stopped['deals'] + 200000), '--seed', '5', ckpt=ck)
    straight = json.loads(search('--deals', str(stopped['deals'] + 200000), '--seed', '5')[1])
    resumed = json.loads(out) if rc == 0 else None
    expect(resumed is not None and essentials(resumed) == essentials(straight),
           'the interrupted search, resumed, reports the same top K and histogram as an uninterrupted one', err)

# 3. refusals leave the file alone
ck = os.path.join(tmp, 'extend.ckpt')
before = open(ck, 'rb').read()
rc, out, err = search('--deals', N, '--seed', '6', ckpt=ck)
expect(rc == 2 and 'checkpoint' in err and open(ck, 'rb').read() == before,
       'a checkpoint of another search (other seed) is refused, exit 2, file untouched', err)
bad = os.path.join(tmp, 'corrupt.ckpt')
with open(bad, 'wb') as f:
    f.write(before.replace(b'progress done', b'progress dome', 1))
corrupt = open(bad, 'rb').read()
rc, out, err = search('--deals', N, '--seed', '5', ckpt=bad)
expect(rc == 2 and len(err.strip().splitlines()) == 1 and open(bad, 'rb').read() == corrupt,
       'a corrupt checkpoint: one line on stderr, exit 2, file untouched', err)
with open(bad, 'wb') as f:
    f.write(b'hello\n')
rc, out, err = search('--deals', N, '--seed', '5', ckpt=bad)
expect(rc == 2 and open(bad, 'rb').read() == b'hello\n', 'a file that is no checkpoint is refused and kept', err)

print('%d passed, %d failed' % (checks - failures, failures))
sys.exit(1 if failures else 0)
