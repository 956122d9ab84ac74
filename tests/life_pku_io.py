#!/usr/bin/env python3
"""life_pku_io.py LOCKSTEP SHIM - how `lockstep life IN OUT N` writes OUT
(src/workloads/life/life_io.c over src/file_pass.c, src/output.c
ls_atomic_map), whichever way the target takes it:
  - the same bytes through every path: threads into a mapping of the
    temporary file (a regular file), pwrite where the file system reserves
    no blocks or maps no files, the stream (stdout, a FIFO), /dev/null;
    at N = 0 the cells are the input's, header T unchanged;
  - a disk that fills (the reservation, or pwrite midway), a page that
    fails in the mapping (SIGBUS), a file system that is full for real (a
    small tmpfs, as root): exit 1, one line, OUT as it was, no temporary
    file left; a directory that takes no file: exit 2 before computing;
  - SIGKILL at moments during the write: OUT is the old file or the whole
    new one, and the next write removes what the killed one left;
  - OUT's temporary file is made while the devices open (life_out_prepare):
    it has its whole size while the generations run (not with
    LOCKSTEP_DEBUG_OUT_AHEAD=0), a stop signal then removes it with OUT as
    it was, and a disk too full for it is said before the generations;
  - the input is opened while the devices open (ls_workload.prepare): a bad
    header is the user's fault (exit 2) even when the backend cannot open;
    a bad cell is found, and named, when the slabs read their planes; and
    Ctrl-C while a FIFO is read stops the run with its report (exit 130).
The faults are made by an LD_PRELOAD shim (tests/io_faults.c).

usage: life_pku_io.py LOCKSTEP SHIM"""
import json
import os
import random
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import expect, finish  # noqa: E402

LS, SHIM = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
OLD = b'the old output'
CELL = bytes(i & 1 for i in range(256))  # a random byte to a cell


def pku_file(path, m, t, seed):
    """A random M^3 PKU file at generation t; returns its bytes."""
    data = struct.pack('<QQ', m, t) + random.Random(seed).randbytes(m ** 3).translate(CELL)
    with open(path, 'wb') as f:
        f.write(data)
    return data


def life(args, faults='', timeout_s=300, **kw):
    env = dict(os.environ)
    if faults:
        env.update(LD_PRELOAD=SHIM, IO_FAULTS=faults)
    return subprocess.run([LS, 'life', *args, '--backend', 'openmp', '--quiet'], env=env, capture_output=True,
                          timeout=timeout_s, **kw)


def temporaries(d):
    return sorted(f for f in os.listdir(d) if '.tmp-' in f)


def being_written(d):
    """Whether a temporary file in d has its size yet: the write is on (the
    check before the run makes an empty one, and removes it)."""
    for f in temporaries(d):
        try:
            if os.path.getsize(os.path.join(d, f)) > 0:
                return True
        except OSError:
            pass
    return False


def one_line(err):
    lines = err.decode(errors='replace').strip().splitlines()
    return len(lines) == 1 and lines[0].startswith('lockstep: ')


def same_bytes_every_path(d):
    for m, n in ((37, 0), (37, 3), (256, 2)):
        src = os.path.join(d, 'in%d.data' % m)
        data = pku_file(src, m, 5, m)
        outs = {}
        # The digest is made while the file is written: the same as without a file.
        r = life(['--in', src, '--steps', str(n), '--json'])
        want_digest = json.loads(r.stdout)['grid_digest'] if r.returncode == 0 else None
        for name, faults in (('mapped', ''), ('pwrite', 'fallocate-unsupported'), ('mmap refused', 'mmap-refused')):
            out = os.path.join(d, 'out-%s.data' % name.replace(' ', '-'))
            r = life([src, out, str(n), '--json'], faults)
            expect(r.returncode == 0, 'M=%d N=%d %s: written' % (m, n, name), r.stderr)
            digest = json.loads(r.stdout)['grid_digest'] if r.returncode == 0 else None
            expect(digest is not None and digest == want_digest, 'M=%d N=%d %s: the grid digest of a run without '
                   'an output' % (m, n, name), '%s, %s wanted' % (digest, want_digest))
            outs[name] = open(out, 'rb').read() if r.returncode == 0 else None
            os.remove(out) if os.path.exists(out) else None
        r = subprocess.run([LS, 'life', src, '/dev/stdout', str(n), '--backend', 'openmp', '--quiet'],
                           capture_output=True, timeout=300)
        # The report goes to stdout too, after the grid: the grid is its start.
        outs['stdout (a pipe)'] = r.stdout[:16 + m ** 3] if r.returncode == 0 else None
        fifo = os.path.join(d, 'grid.fifo')
        os.mkfifo(fifo)
        got = []
        reader = threading.Thread(target=lambda: got.append(open(fifo, 'rb').read()), daemon=True)
        reader.start()
        r = life([src, fifo, str(n)])
        reader.join(60)
        outs['a FIFO'] = got[0] if got and r.returncode == 0 else None
        os.remove(fifo)
        want = outs['mapped']
        for name, got_bytes in outs.items():
            expect(got_bytes is not None and got_bytes == want, 'M=%d N=%d: %s gives the bytes of the mapped write'
                   % (m, n, name), '' if got_bytes is None else '%d bytes, %d wanted' % (len(got_bytes), len(want)))
        if n == 0:
            expect(want == data, 'M=%d N=0: OUT holds the input cells, T unchanged' % m)
        r = life([src, '/dev/null', str(n)])
        expect(r.returncode == 0, 'M=%d N=%d: OUT /dev/null' % (m, n), r.stderr)
        os.remove(src)
    expect(temporaries(d) == [], 'no temporary file left by the writes', temporaries(d))


def failed_write(d, src, out, what, faults='', want_rc=1):
    """OUT holds OLD beforehand; the write fails: exit want_rc, one line, OUT
    as it was, no temporary file."""
    with open(out, 'wb') as f:
        f.write(OLD)
    r = life([src, out, '1'], faults)
    expect(r.returncode == want_rc and one_line(r.stderr), '%s: exit %d, one line' % (what, want_rc),
           'exit %d, stderr %r' % (r.returncode, r.stderr[-400:]))
    expect(open(out, 'rb').read() == OLD, '%s: OUT left as it was' % what)
    left = temporaries(os.path.dirname(out))
    expect(left == [], '%s: no temporary file left' % what, left)
    return r.stderr.decode(errors='replace')


def full_disks(d):
    src = os.path.join(d, 'in.data')
    pku_file(src, 256, 0, 7)
    out = os.path.join(d, 'out.data')
    err = failed_write(d, src, out, 'the disk full at the reservation', 'fallocate-full')
    expect('No space left' in err, 'the reservation: the message says the disk is full', err)
    err = failed_write(d, src, out, 'no reservation, the disk full midway through pwrite',
                       'fallocate-unsupported,pwrite-full')
    expect('No space left' in err, 'pwrite midway: the message says the disk is full', err)
    err = failed_write(d, src, out, 'a page of the mapping failing (SIGBUS)', 'truncate-mapped')
    expect('SIGBUS' in err, 'SIGBUS: the message says so', err)
    full_for_real(d, src)
    os.remove(src)


def mounted(path, options):
    os.makedirs(path, exist_ok=True)
    return subprocess.run(['mount', '-t', 'tmpfs', '-o', options, 'tmpfs', path], capture_output=True).returncode == 0


def full_for_real(d, src):
    """A tmpfs of 4 MiB and a 16 MiB output, as root; a read-only one for
    the directory that takes no file (without root: a directory of mode
    0555)."""
    small = os.path.join(d, 'small')
    if os.geteuid() != 0 or not mounted(small, 'size=4m'):
        print('skip the real full disk and read-only directory (no root, or no tmpfs mounts here)')
        ro = os.path.join(d, 'ro')
        os.mkdir(ro)
        os.chmod(ro, 0o555)
        r = life([src, os.path.join(ro, 'out.data'), '1'])
        expect(r.returncode == 2 and one_line(r.stderr), 'a directory of mode 0555: exit 2, one line', r.stderr)
        return
    try:
        out = os.path.join(small, 'out.data')
        failed_write(d, src, out, 'a tmpfs of 4 MiB, mapped')
        failed_write(d, src, out, 'a tmpfs of 4 MiB, through pwrite', 'fallocate-unsupported')
    finally:
        subprocess.run(['umount', small])
    ro = os.path.join(d, 'ro')
    if mounted(ro, 'size=1m,ro'):
        try:
            r = life([src, os.path.join(ro, 'out.data'), '1'])
            expect(r.returncode == 2 and one_line(r.stderr), 'a read-only directory: exit 2, one line', r.stderr)
            expect(not os.listdir(ro), 'a read-only directory: nothing in it')
        finally:
            subprocess.run(['umount', ro])


def killed_while_writing(d):
    """SIGKILL once the temporary file has its size, after a few delays:
    OUT is the old file or the whole new one, never a part."""
    src = os.path.join(d, 'in.data')
    pku_file(src, 384, 0, 11)
    out = os.path.join(d, 'out.data')
    r = life([src, out, '2'])
    new = open(out, 'rb').read() if r.returncode == 0 else None
    expect(new is not None and len(new) == 16 + 384 ** 3, 'the whole output, for the kills to compare with', r.stderr)
    killed_in_write = 0
    for delay in (0, 0.005, 0.02, 0.05, 0.1, 0.2):
        with open(out, 'wb') as f:
            f.write(OLD)
        p = subprocess.Popen([LS, 'life', src, out, '2', '--backend', 'openmp', '--quiet'],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while not being_written(d) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.0005)
        time.sleep(delay)
        killed_in_write += p.poll() is None and being_written(d)
        p.kill()
        p.wait()
        now = open(out, 'rb').read()
        expect(now in (OLD, new), 'SIGKILL %g s into the write: OUT is the old file or the whole new one' % delay,
               '%d bytes' % len(now))
    expect(killed_in_write > 0, 'at least one kill came while the file was being written')
    r = life([src, out, '2'])
    expect(r.returncode == 0 and open(out, 'rb').read() == new and temporaries(d) == [],
           'the next write: the whole output, and what the killed writes left is gone', temporaries(d))
    os.remove(src)


def made_ready_ahead(d):
    """OUT's temporary file while the generations of a long run run: its
    whole size already (none with LOCKSTEP_DEBUG_OUT_AHEAD=0); SIGINT then
    leaves OUT as it was and no temporary file. A disk full for it: exit 1
    with the output's message before the generations (they would take
    hours)."""
    src = os.path.join(d, 'in.data')
    m = 256
    pku_file(src, m, 0, 13)
    out = os.path.join(d, 'out.data')
    whole = 16 + m ** 3
    for ahead in ('1', '0'):
        with open(out, 'wb') as f:
            f.write(OLD)
        env = dict(os.environ, LOCKSTEP_DEBUG_OUT_AHEAD=ahead)
        p = subprocess.Popen([LS, 'life', src, out, '1000000', '--backend', 'openmp', '--quiet'], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + (60 if ahead == '1' else 2)
        sizes = []
        while time.monotonic() < deadline and p.poll() is None:
            sizes = [os.path.getsize(os.path.join(d, f)) for f in temporaries(d)]
            if whole in sizes:
                break
            time.sleep(0.01)
        running = p.poll() is None
        if ahead == '1':
            expect(running and sizes == [whole], 'a long run: OUT\'s temporary file has its whole size while the '
                   'generations run', 'running %s, sizes %s' % (running, sizes))
        else:
            expect(running and whole not in sizes, 'LOCKSTEP_DEBUG_OUT_AHEAD=0: no temporary file of that size '
                   'while the generations run', 'running %s, sizes %s' % (running, sizes))
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=120)
        expect(p.returncode == 130 and open(out, 'rb').read() == OLD and temporaries(d) == [],
               'ahead=%s: SIGINT during the run: exit 130, OUT as it was, no temporary file' % ahead,
               'exit %d, %r, %s' % (p.returncode, err[-300:], temporaries(d)))
    t0 = time.monotonic()
    try:
        r = life([src, out, '1000000'], 'fallocate-full', timeout_s=60)
    except subprocess.TimeoutExpired:
        r = None
    expect(r is not None and r.returncode == 1 and one_line(r.stderr) and b'No space left' in r.stderr,
           'a disk full for OUT: exit 1, the output\'s one line, before the generations (%.1f s)' %
           (time.monotonic() - t0), r and r.stderr[-300:])
    expect(open(out, 'rb').read() == OLD and temporaries(d) == [], 'a disk full for OUT: OUT as it was, no '
           'temporary file')
    os.remove(out)
    os.remove(src)


def read_ahead(d):
    src = os.path.join(d, 'bad.data')
    with open(src, 'wb') as f:
        f.write(struct.pack('<QQ', 5, 0) + bytes(64))
    out = os.path.join(d, 'never.data')
    for backend in ('openmp', 'cuda'):
        r = subprocess.run([LS, 'life', src, out, '1', '--backend', backend, '--quiet'], capture_output=True, text=True,
                           timeout=120)
        expect(r.returncode == 2 and 'M = 5' in r.stderr and one_line(r.stderr.encode()),
               'a bad header with --backend %s: exit 2, the input named (opened while the device opens)' % backend,
               'exit %d, %r' % (r.returncode, r.stderr))
    with open(src, 'wb') as f:
        f.write(struct.pack('<QQ', 4, 0) + bytes(10) + b'\x02' + bytes(53))
    r = subprocess.run([LS, 'life', src, out, '1', '--backend', 'openmp', '--quiet'], capture_output=True, text=True,
                       timeout=120)
    expect(r.returncode == 2 and 'offset 26' in r.stderr and one_line(r.stderr.encode()),
           'a bad cell: exit 2, the input and the byte named', 'exit %d, %r' % (r.returncode, r.stderr))
    expect(not os.path.exists(out) and temporaries(d) == [], 'a bad input: no output, no temporary file')
    os.remove(src)
    # Ctrl-C while the input is read (from a FIFO that waits): the run
    # stops at its first chunk and reports it.
    fifo = os.path.join(d, 'in.fifo')
    os.mkfifo(fifo)
    p = subprocess.Popen([LS, 'life', '--in', fifo, '--format', 'pku', '--steps', '1000000', '--backend', 'openmp',
                          '--json', '--quiet'], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    m = 32
    try:
        with open(fifo, 'wb') as f:
            f.write(struct.pack('<QQ', m, 0) + bytes(m ** 3 // 2))
            f.flush()
            time.sleep(0.5)
            p.send_signal(signal.SIGINT)
            time.sleep(0.2)
            f.write(bytes(m ** 3 - m ** 3 // 2))
    except BrokenPipeError:
        pass  # the reader is gone: the check below says how it ended
    out_text, err_text = p.communicate(timeout=120)
    expect(p.returncode == 130 and '"interrupted":true' in out_text.replace(' ', ''),
           'Ctrl-C while the input is read: exit 130 and the report of what was done',
           'exit %d, %r %r' % (p.returncode, out_text[-200:], err_text[-200:]))
    os.remove(fifo)


with tempfile.TemporaryDirectory() as tmp:
    same_bytes_every_path(tmp)
    full_disks(tmp)
    killed_while_writing(tmp)
    made_ready_ahead(tmp)
    read_ahead(tmp)
finish()
