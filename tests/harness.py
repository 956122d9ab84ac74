"""harness.py - what the Python tests share: each check printed as it is
made ("ok" or "FAIL" with the detail), and the tally as the last line and
the exit status (1 when any check failed).

    from harness import expect, finish
    expect(result == wanted, 'what was checked', 'detail shown on failure')
    finish()
"""
import json
import os
import signal
import struct
import subprocess
import sys
import time

failures = checks = 0


def expect(ok, what, detail=''):
    global failures, checks
    checks += 1
    print('%s %s %s' % ('ok  ' if ok else 'FAIL', what, detail if not ok else ''), flush=True)
    failures += not ok
    return ok


def finish():
    print('%d passed, %d failed' % (checks - failures, failures))
    sys.exit(1 if failures else 0)


def doc(p, what):
    """p's standard output as a JSON document; a failed check naming `what`
    (and {}) when it is none."""
    try:
        return json.loads(p.stdout)
    except ValueError:
        expect(False, what + ' is JSON', 'rc=%d %s %s' % (p.returncode, p.stdout[:300], p.stderr[:300]))
        return {}


def interrupted_after(cmd, env, seconds=3, timeout=120):
    """Runs cmd (a list), sends it SIGINT (Ctrl-C) after `seconds` and waits
    for it: (exit status, stdout, stderr)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(seconds)
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    return p.returncode, out, err


def rank_pid(rank, marker, alive=lambda: True, seconds=60):
    """The pid of MPI rank `rank` of a job whose command line holds `marker`
    (a string unique to the run), once it is up; None when it did not come
    within `seconds` or alive() turned false (the job ended)."""
    deadline = time.time() + seconds
    while time.time() < deadline and alive():
        for pid in os.listdir('/proc'):
            try:
                environ = open('/proc/%s/environ' % pid, 'rb').read().split(b'\0')
                cmdline = open('/proc/%s/cmdline' % pid, 'rb').read()
            except OSError:
                continue
            if marker.encode() in cmdline and ('OMPI_COMM_WORLD_RANK=%d' % rank).encode() in environ:
                return int(pid)
        time.sleep(0.2)
    return None


# ---- MPI jobs (Open MPI's mpirun) -------------------------------------------------

# Variables of lockstep's that would change what a test's run does: each
# run says its backend, and no fault, cap or debug cut of the caller's
# reaches it.
MPI_DROPPED = ('LOCKSTEP_BACKEND', 'LOCKSTEP_DEBUG_FAULT', 'LOCKSTEP_DEVICE_MEMORY_CAP', 'LOCKSTEP_DEBUG_SUMMARY_PIECE')


def mpi_env(*drop, **extra):
    """The environment of the MPI tests' runs: this process's, with Open MPI
    let run as root (a container's user) and place more ranks than cores
    (--oversubscribe in the environment, for the commands that do not say
    it), its warning of unused components off, MPI_DROPPED and the names in
    `drop` removed, and `extra` added."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1',
               OMPI_MCA_rmaps_base_oversubscribe='1', OMPI_MCA_btl_base_warn_component_unused='0', **extra)
    for name in MPI_DROPPED + drop:
        env.pop(name, None)
    return env


def mpirun(n, *args, extra=(), env=None, timeout=600):
    """Runs `mpirun --oversubscribe EXTRA -np n ARGS` (ARGS: the program and
    its arguments; EXTRA: mpirun's own options) in env (None: mpi_env()) and
    waits for it: the CompletedProcess, its output captured as text."""
    return subprocess.run(['mpirun', '--oversubscribe', *extra, '-np', str(n), *args], capture_output=True, text=True,
                          env=mpi_env() if env is None else env, timeout=timeout)


def mpirun_killing_rank1(mpirun_args, marker, env, timeout=120):
    """Starts `mpirun` with mpirun_args (a list, after 'mpirun'), waits until
    rank 1's process (its command line holds `marker`, a path unique to the
    run) is up, lets it run 1.5 s, kills it (SIGKILL) and waits for the job.
    Returns (victim pid or None, exit status, stdout, stderr)."""
    p = subprocess.Popen(['mpirun'] + list(mpirun_args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env)
    victim = rank_pid(1, marker, alive=lambda: p.poll() is None)
    time.sleep(1.5)
    if victim:
        os.kill(victim, signal.SIGKILL)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    # Ranks that outlive their mpirun (a job that hung after the kill) would
    # run on, holding the checkpoint and the cores the next tests time.
    for pid in os.listdir('/proc'):
        try:
            if marker.encode() in open('/proc/%s/cmdline' % pid, 'rb').read():
                os.kill(int(pid), signal.SIGKILL)
        except (OSError, ValueError):
            continue
    return victim, p.returncode, out, err


# ---- lockstep's native grid files (docs/life.md) ------------------------------

def fnv1a(data, h=0xcbf29ce484222325):
    """FNV-1a 64 of bytes, from h: lslife2's checksum."""
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h


def packed_cells(cells):
    """Cells (0/1, canonical order) packed 8 to a byte, the first in the low
    bit, the last byte padded with zeros."""
    out = bytearray((len(cells) + 7) // 8)
    for i, c in enumerate(cells):
        out[i // 8] |= c << (i % 8)
    return bytes(out)


def native_read(path):
    """A native .lsgrid file of either layout lockstep reads, as (shape word,
    (nx, ny, nz), cells): cells a list of 0/1 in canonical order (x
    fastest). lslife3 starts every row on a byte; lslife2 does not."""
    data = open(path, 'rb').read()
    shape, nx, ny, nz = struct.unpack_from('<4I', data, 8)
    if data[:8] == b'lslife3\n':
        rb = (nx + 7) // 8
        rows = [data[40 + r * rb:40 + (r + 1) * rb] for r in range(ny * nz)]
        return shape, (nx, ny, nz), [row[x // 8] >> (x % 8) & 1 for row in rows for x in range(nx)]
    bits = data[40:-8]
    return shape, (nx, ny, nz), [bits[k // 8] >> (k % 8) & 1 for k in range(nx * ny * nz)]


def native2_bytes(shape, size, birth_mask, survive_mask, generation, cells):
    """An lslife2 file (rows not padded, the FNV-1a of every byte before it
    last) of these cells (0/1, canonical order): the layout lockstep wrote
    before lslife3, which it still reads."""
    nx, ny, nz = size
    body = (b'lslife2\n' + struct.pack('<6IQ', shape, nx, ny, nz, birth_mask, survive_mask, generation) +
            packed_cells(cells))
    return body + struct.pack('<Q', fnv1a(body))

