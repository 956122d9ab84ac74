#!/usr/bin/env python3
"""`--out` onto what is not a plain new file, through the commands that
write files (life: src/workloads/life/life_io.c; ray: src/image.c), as
src/output.h describes:
  - stdout (a link to /proc/self/fd/1, which is what /dev/stdout is): the
    grid reaches stdout, the link stays;
  - a FIFO with a reader: the reader gets the whole grid;
  - a link to a null device, a link to a full device: written through,
    the nodes stay devices; the full one fails with a message, exit 1;
  - a link to a file: the file is replaced, the link stays;
  - a dangling link: refused, exit 2, nothing created;
  - a name of 250 bytes: written, no temporary file left;
  - a file replaced keeps its mode (600 stays 600, not 0666 less the
    umask) and, as root, its owner and group; another hard link to it
    keeps the old contents (the name is replaced, as output.h says);
  - a FIFO with no reader, or with a reader that stops reading, and
    `--out -` onto a pipe that is not read: SIGINT, SIGTERM and SIGHUP
    end the wait, exit 128 + the signal, one line naming the FIFO, and a
    reader that comes later gets nothing.
Device nodes are made in a scratch directory when this runs as root, so a
broken writer could only replace those.

usage: output_targets.py LOCKSTEP
"""
import fcntl
import os
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time

from harness import expect, finish

LS = os.path.abspath(sys.argv[1])
tmp = tempfile.mkdtemp()


def run(*args, **kw):
    p = subprocess.run([LS, *args, '--quiet'], capture_output=True, timeout=120, **kw)
    return p.returncode, p.stdout.decode(errors='replace'), p.stderr.decode(errors='replace')


def life(out, *extra):
    return run('life', '--dims', '2', '--size', '8', '--steps', '1', '--out', out, *extra)


def device(name, minor):
    path = os.path.join(tmp, name)
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
        os.close(os.open(path, os.O_WRONLY))
        return path
    except OSError:
        if os.path.exists(path):
            os.unlink(path)
        return '/dev/' + name


def is_char(path):
    return stat.S_ISCHR(os.stat(path).st_mode)


def link(name, to):
    path = os.path.join(tmp, name)
    os.symlink(to, path)
    return path


# stdout
rc, out, err = life(link('stdout', '/proc/self/fd/1'), '--format', 'rle')
expect(rc == 0 and 'x = 8, y = 8' in out and 'population' in out,
       'life --out /dev/stdout: the grid and the report reach stdout', err)
expect(os.path.islink(os.path.join(tmp, 'stdout')), 'the link to stdout stays a link')

# a FIFO with a reader
fifo = os.path.join(tmp, 'grid.fifo')
os.mkfifo(fifo)
got = []
reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
reader.start()
rc, _, err = life(fifo, '--format', 'rle')
reader.join(timeout=20)
expect(rc == 0 and got and got[0].startswith(b'#C') and got[0].rstrip().endswith(b'!'),
       "life --out FIFO: the reader gets the whole grid", err)
expect(stat.S_ISFIFO(os.stat(fifo).st_mode), 'the FIFO stays a FIFO')

# links to devices (ray takes its format from the extension)
null = device('null', 3)
rc, _, err = run('ray', '--size', '4x4', '--spp', '1', '--out', link('null.png', null))
expect(rc == 0 and is_char(null) and os.path.islink(os.path.join(tmp, 'null.png')),
       'ray --out a link to a null device: written through; link and device stay', err)
full = device('full', 7)
rc, _, err = run('ray', '--size', '4x4', '--spp', '1', '--out', link('full.png', full))
expect(rc == 1 and 'No space' in err and len(err.strip().splitlines()) == 1 and is_char(full),
       'ray --out a link to a full device: one line, exit 1, the device stays a device', 'rc=%s %s' % (rc, err))

# a link to a file
real = os.path.join(tmp, 'real.rle')
with open(real, 'w') as f:
    f.write('old\n')
to_real = link('to-real.rle', 'real.rle')
rc, _, err = life(to_real)
expect(rc == 0 and open(real).read().startswith('#C') and os.readlink(to_real) == 'real.rle',
       'life --out a link to a file: the file is replaced, the link stays', err)

# a dangling link
dangling = link('dangling.rle', 'missing.rle')
rc, out, err = life(dangling)
expect(rc == 2 and 'does not exist' in err and not os.path.exists(os.path.join(tmp, 'missing.rle')),
       'life --out a dangling link: refused, exit 2, nothing created', 'rc=%s %s' % (rc, err))

# a long name
long = os.path.join(tmp, 'g' * 246 + '.rle')
rc, _, err = life(long)
expect(rc == 0 and open(long).read().startswith('#C') and not [n for n in os.listdir(tmp) if '.tmp-' in n],
       'life --out a name of 250 bytes: written, no temporary file left', err)

# a file replaced keeps its mode, owner and group; other hard links keep the old contents
os.umask(0o022)
for cmd, name in ((['life', '--dims', '2', '--size', '8', '--steps', '1'], 'private.rle'),
                  (['ray', '--size', '4x4', '--spp', '1'], 'private.ppm')):
    private = os.path.join(tmp, name)
    with open(private, 'w') as f:
        f.write('old\n')
    os.chmod(private, 0o600)
    owner = (4321, 4322) if os.geteuid() == 0 else (os.getuid(), os.getgid())
    os.chown(private, *owner)
    other = os.path.join(tmp, 'other-' + name)
    os.link(private, other)
    rc, _, err = run(*cmd, '--out', private)
    st = os.stat(private)
    expect(rc == 0 and stat.S_IMODE(st.st_mode) == 0o600 and open(private, 'rb').read() != b'old\n',
           '%s --out a file of mode 600: replaced, still 600' % cmd[0], 'rc=%s mode=%o %s' % (rc, st.st_mode, err))
    expect((st.st_uid, st.st_gid) == owner, '%s --out: the owner and group stay' % cmd[0],
           str((st.st_uid, st.st_gid)))
    expect(open(other).read() == 'old\n' and st.st_nlink == 1,
           '%s --out: another hard link keeps the old contents (the name is replaced)' % cmd[0])
fresh = os.path.join(tmp, 'fresh.rle')
rc, _, err = life(fresh)
expect(rc == 0 and stat.S_IMODE(os.stat(fresh).st_mode) == 0o644, 'a new file: 0666 less the umask (644)',
       '%o' % os.stat(fresh).st_mode)


# a FIFO with no reader, or a reader that stops reading: a stop signal ends the wait
def catching(p, timeout):
    """Waits until process p catches SIGINT, SIGTERM and SIGHUP (SigCgt in
    /proc/PID/status): its run has begun, and a stop signal stops it rather
    than killing it (a loaded machine may take seconds to get there)."""
    want = (1 << (signal.SIGINT - 1)) | (1 << (signal.SIGTERM - 1)) | (1 << (signal.SIGHUP - 1))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and p.poll() is None:
        try:
            status = open('/proc/%d/status' % p.pid).read()
        except OSError:
            return
        caught = [int(line.split()[1], 16) for line in status.splitlines() if line.startswith('SigCgt:')]
        if caught and caught[0] & want == want:
            return
        time.sleep(0.02)


def stopped_at_fifo(cmd, fifo, sig, stalled_reader):
    """Runs lockstep CMD --out FIFO, sends sig once it has had time to reach
    the FIFO, and returns (exit code or None when it did not end, stderr)."""
    held = []
    if stalled_reader:
        # Opened, never read: the writer fills the pipe and waits.
        opener = threading.Thread(target=lambda: held.append(open(fifo, 'rb')), daemon=True)
        opener.start()
    p = subprocess.Popen([LS, *cmd, '--out', fifo, '--quiet', '--backend', 'openmp'], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    if stalled_reader:
        opener.join(timeout=60)  # open: the run is writing, and fills the pipe
        time.sleep(0.5)
    else:
        catching(p, 60)
        time.sleep(1.0)  # from there a run of 8x8 reaches the FIFO in milliseconds
    p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=15)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
        rc = None
    for f in held:
        f.close()
    return rc, err.decode(errors='replace')


def got_nothing(fifo):
    """What a reader opening the FIFO now reads: nothing, with no writer left."""
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        return os.read(fd, 100) == b''
    finally:
        os.close(fd)


for cmd, name in ((['ray', '--size', '8', '--spp', '1'], 'wait.ppm'),
                  (['life', '--dims', '2', '--size', '8', '--steps', '1'], 'wait.rle')):
    fifo = os.path.join(tmp, name)
    os.mkfifo(fifo)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        what = '%s --out a FIFO with no reader, %s' % (cmd[0], signal.Signals(sig).name)
        rc, err = stopped_at_fifo(cmd, fifo, sig, False)
        expect(rc == 128 + sig and name in err and len(err.strip().splitlines()) == 1,
               what + ': exit %d, one line naming the FIFO' % (128 + sig), 'rc=%s %r' % (rc, err))
        expect(got_nothing(fifo), what + ': nothing written')
# A reader that opens the FIFO and stops reading: more than a pipe holds.
for cmd, name in ((['ray', '--size', '256', '--spp', '1'], 'stall.ppm'),
                  (['life', '--dims', '2', '--size', '1024', '--steps', '1'], 'stall.rle')):
    fifo = os.path.join(tmp, name)
    os.mkfifo(fifo)
    for sig in (signal.SIGINT, signal.SIGTERM):
        rc, err = stopped_at_fifo(cmd, fifo, sig, True)
        expect(rc == 128 + sig and name in err and len(err.strip().splitlines()) == 1,
               '%s --out a FIFO whose reader stops reading, %s: exit %d, one line naming the FIFO'
               % (cmd[0], signal.Signals(sig).name, 128 + sig), 'rc=%s %r' % (rc, err))
def pipe_holds(fd):
    """Bytes waiting in the pipe whose read end is fd."""
    return struct.unpack('i', fcntl.ioctl(fd, termios.FIONREAD, b'\0\0\0\0'))[0]


# --out - onto a pipe that its reader does not empty: the same.
unread, stdout = os.pipe()
p = subprocess.Popen([LS, 'ray', '--size', '256', '--spp', '1', '--out', '-', '--quiet', '--backend', 'openmp'],
                     stdout=stdout, stderr=subprocess.PIPE)
os.close(stdout)
deadline = time.monotonic() + 60
while pipe_holds(unread) < 65536 and time.monotonic() < deadline and p.poll() is None:
    time.sleep(0.05)  # until the pipe is full: the run waits for its reader
p.send_signal(signal.SIGTERM)
try:
    _, err = p.communicate(timeout=15)
except subprocess.TimeoutExpired:
    p.kill()
    _, err = p.communicate()
os.close(unread)  # read by no one, until the end
err = err.decode(errors='replace')
expect(p.returncode == 143 and 'standard output' in err and len(err.strip().splitlines()) == 1,
       'ray --out - onto a pipe whose reader stops reading, SIGTERM: exit 143, one line', 'rc=%s %r' % (p.returncode, err))

shutil.rmtree(tmp, ignore_errors=True)
finish()
